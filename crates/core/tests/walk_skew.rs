//! The history walk against `git rev-list` on histories whose committer clocks go
//! backwards (docs/trust.md, "The history walk"): ranges, the walk of a push (`<tips>
//! --not <refs>`), and the walk that tells which commits an adoption point holds
//! (`<tips> --not <hidden> <point>`), on the issue's example and on generated histories
//! made by real git (`git commit-tree` with `GIT_COMMITTER_DATE`); and commits whose
//! committer line is missing or broken.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use jitcommit_core::repo::{GitEnv, ObjectId, Repo};
use jitcommit_testkit::Sandbox;
use proptest::prelude::*;

fn oid(s: &str) -> ObjectId {
    ObjectId::from_hex(s.trim().as_bytes()).unwrap()
}

/// A repository whose commits are all made by `git commit-tree` on the empty tree.
struct History {
    sb: Sandbox,
    r: PathBuf,
    tree: String,
}

impl History {
    fn new() -> Self {
        let sb = Sandbox::new();
        let r = sb.init("r");
        let tree = sb.git(&r, &["write-tree"]).trim().to_owned();
        History { sb, r, tree }
    }

    /// A commit with `parents`, committed at `time` seconds (author and committer).
    fn commit(&self, msg: &str, time: i64, parents: &[ObjectId]) -> ObjectId {
        let parents: Vec<String> = parents.iter().map(ToString::to_string).collect();
        let parents: Vec<&str> = parents.iter().map(String::as_str).collect();
        oid(&self
            .sb
            .commit_tree_at(&self.r, &self.tree, msg, time, &parents))
    }

    /// `git rev-list --reverse <args>`: oldest first, as the walk lists.
    fn rev_list(&self, args: &[String]) -> Vec<ObjectId> {
        let mut a = vec!["rev-list".to_owned(), "--reverse".to_owned()];
        a.extend(args.iter().cloned());
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        self.sb.git(&self.r, &a).lines().map(oid).collect()
    }

    fn repo(&self) -> Repo {
        Repo::discover_with(&self.r, &GitEnv::default()).unwrap()
    }

    fn path(&self) -> &Path {
        &self.r
    }
}

/// The issue's example: main `R[40]←Z[50]←S[5]←C[95]←H[100]`, a branch `W[98]←Z`, `V` the
/// merge of H and W. `git rev-list H..V` lists V and W; a walk that stops once every
/// queued commit is reachable from both sides listed main's own R and Z as well.
#[test]
fn a_clock_going_back_below_the_branch_point_hides_what_the_base_holds() {
    let h = History::new();
    let r = h.commit("R", 40, &[]);
    let z = h.commit("Z", 50, &[r]);
    let s = h.commit("S", 5, &[z]);
    let c = h.commit("C", 95, &[s]);
    let head = h.commit("H", 100, &[c]);
    let w = h.commit("W", 98, &[z]);
    let v = h.commit("V", 101, &[head, w]);
    let repo = h.repo();
    let spec = format!("{head}..{v}");
    assert_eq!(repo.rev_range(&spec).unwrap(), vec![w, v]);
    assert_eq!(repo.rev_range(&spec).unwrap(), h.rev_list(&[spec]));
    // The push of V onto main, and onto a new branch while main is at H.
    assert_eq!(repo.commits_between(&[v], &[head]).unwrap(), vec![w, v]);
    h.sb.git(
        h.path(),
        &["update-ref", "refs/heads/main", &head.to_string()],
    );
    let repo = h.repo();
    assert_eq!(repo.new_commits(&[v]).unwrap(), vec![w, v]);
    // With the adoption point at Z, W and V are still not held by it; at W, W is.
    assert!(repo.held_by(&[w, v], &[v], &[head], z).unwrap().is_empty());
    let held = repo.held_by(&[w, v], &[v], &[head], w).unwrap();
    assert_eq!(held.into_iter().collect::<Vec<_>>(), vec![w]);
}

/// More of the class: the skew on the listed side (a branch whose commits are older
/// than the base's), a root commit that is newer than its child, equal times, and a
/// base that is a descendant's ancestor through a merge's second parent.
#[test]
fn other_skewed_shapes_list_what_git_lists() {
    let h = History::new();
    let a = h.commit("a", 100, &[]);
    let b = h.commit("b", 10, &[a]);
    let c = h.commit("c", 10, &[b]);
    let d = h.commit("d", 200, &[c]);
    let side = h.commit("side", 1, &[b]);
    let side2 = h.commit("side2", 300, &[side]);
    let m = h.commit("m", 5, &[d, side2]);
    let late = h.commit("late", 0, &[m]);
    let other = h.commit("other", 400, &[side]);
    let repo = h.repo();
    let ids = [a, b, c, d, side, side2, m, late, other];
    for x in ids {
        for y in ids {
            let spec = format!("{x}..{y}");
            assert_eq!(
                repo.rev_range(&spec).unwrap(),
                h.rev_list(std::slice::from_ref(&spec)),
                "{spec}"
            );
        }
        assert_eq!(
            repo.rev_range(&x.to_string()).unwrap(),
            h.rev_list(&[x.to_string()])
        );
    }
}

/// Commits whose headers are unusual or broken, written as they are (`git hash-object
/// --literally`): the walk's verdict on each, as it stood when the hand reader of the
/// headers went back to gix's parser (issue 47). An `encoding` header with a
/// continuation line (the hand reader left it to gix) is listed as `git rev-list`
/// lists it, by its committer time; a committer or an author line that does not parse,
/// or none, is an error naming the commit (git reads only the date after the last `>`
/// of a committer line, 0 without one, and lists them: the walk refuses what it cannot
/// read rather than guess a time).
#[test]
fn unusual_commits_are_listed_as_git_lists_them_and_broken_ones_refused() {
    let h = History::new();
    let raw = |text: String| {
        let mut c = h.sb.git_cmd(h.path());
        c.args([
            "hash-object",
            "--literally",
            "-t",
            "commit",
            "-w",
            "--stdin",
        ]);
        let out = jitcommit_testkit::run_with_input(c, text.as_bytes());
        jitcommit_testkit::assert_ok(&out, "hash-object");
        oid(&String::from_utf8(out.stdout).unwrap())
    };
    let who = |t: i64| format!("A U Thor <a@example.com> {t} +0000");
    let tree = h.tree.clone();
    let a = h.commit("a", 100, &[]);
    let side = h.commit("side", 300, &[a]);
    let continued = raw(format!(
        "tree {tree}\nparent {a}\nauthor {}\ncommitter {}\nencoding UTF-8\n more\n\ncontinued\n",
        who(50),
        who(50)
    ));
    let m = h.commit("m", 400, &[side, continued]);
    let top = h.commit("top", 150, &[m]);
    let repo = h.repo();
    for spec in [
        top.to_string(),
        format!("{a}..{top}"),
        format!("{side}..{top}"),
    ] {
        let listed = repo.rev_range(&spec).unwrap();
        assert_eq!(listed, h.rev_list(std::slice::from_ref(&spec)), "{spec}");
        assert!(listed.contains(&continued), "control: {spec}");
    }
    for (what, line) in [
        ("committer", format!("author {}\ncommitter nobody", who(60))),
        ("author", format!("author nobody\ncommitter {}", who(60))),
        ("no committer", format!("author {}", who(60))),
    ] {
        let bad = raw(format!("tree {tree}\nparent {a}\n{line}\n\nbad {what}\n"));
        let listed_by_git = h.rev_list(&[bad.to_string()]);
        assert_eq!(
            listed_by_git,
            vec![a, bad],
            "control: git lists the bad {what}"
        );
        let top = h.commit("on top", 500, &[bad]);
        let e = h.repo().rev_range(&format!("{a}..{top}")).unwrap_err();
        let mut chain = e.to_string();
        let mut source = std::error::Error::source(&e);
        while let Some(s) = source {
            chain.push_str(&format!(": {s}"));
            source = s.source();
        }
        assert!(
            chain.contains(&format!("commit {bad} could not be decoded")),
            "{what}: {chain}"
        );
    }
}

/// One generated history: each commit's first parent among the last few, sometimes a
/// second parent anywhere before it, sometimes a new root; committer times drawn from a
/// small range, so that they tie and go backwards everywhere.
#[derive(Debug, Clone)]
struct Shape {
    commits: Vec<(Option<usize>, Option<usize>, i64)>,
    picks: Vec<usize>,
}

fn shape() -> impl Strategy<Value = Shape> {
    (3usize..26).prop_flat_map(|n| {
        let commit = (any::<u8>(), any::<u8>(), 0i64..120);
        (
            proptest::collection::vec(commit, n),
            proptest::collection::vec(any::<usize>(), 8),
        )
            .prop_map(move |(raw, picks)| {
                let commits = raw
                    .into_iter()
                    .enumerate()
                    .map(|(i, (p1, p2, time))| {
                        if i == 0 || p1 % 13 == 0 {
                            return (None, None, time);
                        }
                        let first = i - 1 - usize::from(p1) % i.min(4);
                        let second = (p2 % 3 == 0).then(|| usize::from(p2) % i);
                        (Some(first), second.filter(|&s| s != first), time)
                    })
                    .collect();
                Shape { commits, picks }
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 100, ..ProptestConfig::default() })]

    /// `--range A..B`, a single revision, a push's walk (`<tips> --not --all`) and the
    /// adoption walk list what `git rev-list` lists, in its order.
    #[test]
    fn walks_list_what_git_rev_list_lists(shape in shape()) {
        let h = History::new();
        let mut ids: Vec<ObjectId> = Vec::new();
        for (i, (p1, p2, time)) in shape.commits.iter().enumerate() {
            let parents: Vec<ObjectId> = p1.iter().chain(p2).map(|&p| ids[p]).collect();
            ids.push(h.commit(&format!("c{i}"), *time, &parents));
        }
        let pick = |k: usize| ids[shape.picks[k] % ids.len()];
        let (a, b, c, d, p) = (pick(0), pick(1), pick(2), pick(3), pick(4));
        let repo = h.repo();
        for spec in [format!("{a}..{b}"), format!("{c}..{b}"), b.to_string()] {
            prop_assert_eq!(repo.rev_range(&spec).unwrap(), h.rev_list(std::slice::from_ref(&spec)), "{}", spec);
        }
        let between = repo.commits_between(&[b, c], &[a, d]).unwrap();
        let args = |v: &[&ObjectId]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let mut want = args(&[&b, &c]);
        want.push("--not".into());
        want.extend(args(&[&a, &d]));
        prop_assert_eq!(&between, &h.rev_list(&want));
        // Held by the adoption point: what `<tips> --not <hidden> <point>` leaves out.
        let held = repo.held_by(&between, &[b, c], &[a, d], p).unwrap();
        want.push(p.to_string());
        let rest = h.rev_list(&want);
        let mut expect: Vec<ObjectId> =
            between.iter().copied().filter(|x| !rest.contains(x)).collect();
        let mut got: Vec<ObjectId> = held.into_iter().collect();
        expect.sort_unstable();
        got.sort_unstable();
        prop_assert_eq!(got, expect);
        // A push: refs at two commits, tips at two others.
        for (name, at) in [("refs/heads/main", a), ("refs/tags/t", d)] {
            h.sb.git(h.path(), &["update-ref", name, &at.to_string()]);
        }
        let repo = h.repo();
        let pushed = repo.new_commits(&[b, c]).unwrap();
        let mut want = args(&[&b, &c]);
        want.extend(["--not".to_owned(), "--all".to_owned()]);
        prop_assert_eq!(pushed, h.rev_list(&want));
    }
}
