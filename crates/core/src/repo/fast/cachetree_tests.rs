//! The cache-tree diff against gix's `tree_index_status`, the reference it replaces:
//! after each of many random edits of a repository whose names exercise git's order
//! (`a`, `a-b`, `a.b`, `a/`, `a0`), with the cache-tree as git leaves it (invalidated
//! along each staged path, made whole again by `git write-tree`, a commit or a reset),
//! both list the same changes, whatever layout the index file has (version 2 or 4,
//! split or whole). What it must leave to gix (a conflict, an intent-to-add
//! entry, a name some platform turns down) reads as `None`, and the staged set is then
//! gix's.

use std::path::Path;

use crate::repo::{GitEnv, ObjectId, Repo};
use jitcommit_testkit::{Rng, Sandbox, write, write_ok};

const NAMES: &[&str] = &["a", "a-b", "a.b", "a0", "b", "z"];

/// A path of one to three components from [`NAMES`].
fn path(rng: &mut Rng) -> String {
    let depth = 1 + rng.below(3);
    (0..depth)
        .map(|_| *rng.pick(NAMES))
        .collect::<Vec<_>>()
        .join("/")
}

/// Both ways of listing `HEAD` against the index at `r`: (this module's, with the
/// directories it passed over, gix's).
fn both(r: &Path) -> (Option<(Vec<super::Entry>, usize)>, Vec<super::Entry>) {
    let repo = Repo::discover_with(r, &GitEnv::default()).unwrap();
    let head: ObjectId = repo.staged_base(false).unwrap();
    let index = repo.read_index().unwrap();
    let fast = repo.tree_index_walk(head, &index).map(|(mut v, skipped)| {
        crate::repo::staged::sort_entries(&mut v);
        (v, skipped)
    });
    let mut slow = repo
        .gix_entries_against(head, &index, None, "test")
        .unwrap();
    crate::repo::staged::sort_entries(&mut slow);
    (fast, slow)
}

/// One random edit of the work tree and the index; `git` failing (a path that is a
/// file where a directory is wanted, say) leaves the repository as it was.
fn edit(sb: &Sandbox, r: &Path, rng: &mut Rng, step: usize) {
    let p = path(rng);
    let git = |args: &[&str]| {
        let _ = sb.git_cmd(r).args(args).output();
    };
    match rng.below(12) {
        // The index's own layouts: path compression, a shared part beside it.
        10 => git(&["update-index", "--index-version", *rng.pick(&["2", "4"])]),
        11 => git(&[
            "update-index",
            *rng.pick(&["--split-index", "--no-split-index"]),
        ]),
        0..=3 => {
            if std::fs::symlink_metadata(r.join(&p)).is_err()
                && write_ok(r, &p, format!("{step} café\n"))
            {
                git(&["add", "--", &p]);
            }
        }
        4 => git(&["rm", "-q", "-r", "--cached", "--", &p]),
        5 => git(&["update-index", "--chmod=+x", "--", &p]),
        6 => git(&["write-tree"]),
        7 => git(&["commit", "-q", "-m", "chore: step"]),
        8 => git(&["reset", "-q"]),
        _ => {
            // A file in place of a directory, or the other way round.
            let _ = std::fs::remove_dir_all(r.join(&p));
            let _ = std::fs::remove_file(r.join(&p));
            git(&["rm", "-q", "-r", "--cached", "--ignore-unmatch", "--", &p]);
            let other = format!("{p}/{}", rng.pick(NAMES));
            if write_ok(r, if rng.below(2) == 0 { &p } else { &other }, "swapped\n") {
                git(&["add", "-A"]);
            }
        }
    }
}

#[test]
fn the_cache_tree_diff_lists_what_gix_lists() {
    let sb = Sandbox::new();
    let r = sb.init("r");
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for i in 0..40 {
        let p = path(&mut rng);
        if write_ok(&r, &p, format!("first {i}\n")) {
            sb.git(&r, &["add", "--", &p]);
        }
    }
    sb.git(&r, &["commit", "-q", "-m", "feat: start"]);
    let (mut answered, mut changed, mut skipping) = (0, 0, 0);
    for step in 0..200 {
        edit(&sb, &r, &mut rng, step);
        let (fast, slow) = both(&r);
        if let Some((fast, skipped)) = fast {
            assert_eq!(fast, slow, "step {step}");
            answered += 1;
            changed += usize::from(!slow.is_empty());
            skipping += usize::from(skipped > 0 && !slow.is_empty());
        }
    }
    // Neither answer may pass for want of asking: most steps answered, many with
    // changes, many of those past directories the cache-tree vouched for.
    assert!(
        answered > 190 && changed > 60 && skipping > 20,
        "{answered} {changed} {skipping}"
    );
}

#[test]
fn what_gix_must_decide_is_left_to_it() {
    let sb = Sandbox::new();
    let r = sb.init("r");
    write(&r, "a/x", "one\n");
    write(&r, "b", "two\n");
    sb.git(&r, &["add", "-A"]);
    sb.git(&r, &["commit", "-q", "-m", "feat: start"]);
    assert!(both(&r).0.is_some());

    // An intent-to-add entry.
    write(&r, "c", "three\n");
    sb.git(&r, &["add", "-N", "c"]);
    let (fast, slow) = both(&r);
    assert!(fast.is_none());
    assert!(slow.is_empty(), "{slow:?}");
    sb.git(&r, &["rm", "-q", "--cached", "c"]);

    // A conflict.
    let blob = sb.git(&r, &["hash-object", "-w", "b"]);
    let info = format!("100644 {} 1\tb\n100644 {} 2\tb\n", blob.trim(), blob.trim());
    let mut cmd = sb.git_cmd(&r);
    cmd.args(["update-index", "--index-info"]);
    let out = jitcommit_testkit::run_with_input(cmd, info.as_bytes());
    jitcommit_testkit::assert_ok(&out, "update-index");
    assert!(both(&r).0.is_none());
    sb.git(&r, &["reset", "-q"]);

    // A name Windows turns down, committed on Linux: gix decides by this repository's
    // own rules (and reads it).
    let tree = sb.git(&r, &["write-tree"]);
    let listing = sb.git(&r, &["ls-tree", tree.trim()]);
    let mktree = format!("{listing}100644 blob {}\tcon\n", blob.trim());
    let mut cmd = sb.git_cmd(&r);
    cmd.arg("mktree");
    let out = jitcommit_testkit::run_with_input(cmd, mktree.as_bytes());
    jitcommit_testkit::assert_ok(&out, "mktree");
    let odd = String::from_utf8(out.stdout).unwrap();
    let commit = sb.git(&r, &["commit-tree", odd.trim(), "-m", "feat: odd"]);
    sb.git(&r, &["reset", "-q", "--soft", commit.trim()]);
    let (fast, slow) = both(&r);
    assert!(fast.is_none());
    let repo = Repo::discover_with(&r, &GitEnv::default()).unwrap();
    let listed = repo.staged_entries(None).unwrap();
    assert_eq!(listed, slow);
    assert_eq!(listed.len(), 1, "{listed:?}");
}

/// A tree nested deeper than the walk goes is left to gix, which reads it without a
/// stack frame a level: no overflow, the same staged set.
#[test]
fn a_tree_too_deep_is_left_to_gix() {
    use gix::objs::tree::{Entry as TreeEntry, EntryKind};
    let sb = Sandbox::new();
    let r = sb.init("r");
    let repo = Repo::discover_with(&r, &GitEnv::default()).unwrap();
    let blob = repo.repo.write_blob(b"deep\n").unwrap().detach();
    let mut id = blob;
    let mut kind = EntryKind::Blob;
    for name in std::iter::once("f").chain(std::iter::repeat_n("d", super::MAX_DEPTH + 2)) {
        let tree = gix::objs::Tree {
            entries: vec![TreeEntry {
                mode: kind.into(),
                filename: name.into(),
                oid: id,
            }],
        };
        id = repo.repo.write_object(&tree).unwrap().detach();
        kind = EntryKind::Tree;
    }
    let commit = sb.git(&r, &["commit-tree", &id.to_string(), "-m", "feat: deep"]);
    sb.git(&r, &["update-ref", "HEAD", commit.trim()]);
    sb.git(&r, &["read-tree", "--empty"]);
    let (fast, slow) = both(&r);
    assert!(fast.is_none());
    assert_eq!(slow.len(), 1, "{slow:?}");
    let repo = Repo::discover_with(&r, &GitEnv::default()).unwrap();
    assert_eq!(repo.staged_entries(None).unwrap(), slow);
}

/// A cache-tree whose counts do not match the index's entries (a tool that wrote the
/// index wrongly) is not trusted: the walk reads as `None`, and the staged set is gix's.
#[test]
fn a_cache_tree_that_miscounts_is_left_to_gix() {
    let sb = Sandbox::new();
    let r = sb.init("r");
    for f in ["a/x", "a/y", "b/z", "c"] {
        write(&r, f, format!("{f}\n"));
    }
    sb.git(&r, &["add", "-A"]);
    sb.git(&r, &["commit", "-q", "-m", "feat: start"]);
    write(&r, "c", "changed\n");
    sb.git(&r, &["add", "c"]);
    // The cache-tree made whole again: `a` and `b` valid, as git keeps them.
    sb.git(&r, &["write-tree"]);
    assert!(matches!(both(&r).0, Some((_, skipped)) if skipped > 0));
    for (dir, wrong) in [("a", 3), ("a", 1), ("b", 2)] {
        let path = r.join(".git/index");
        let mut file =
            gix::index::File::at(&path, gix::hash::Kind::Sha1, false, Default::default()).unwrap();
        let tree = file.tree_mut().unwrap();
        let child = tree
            .children
            .iter_mut()
            .find(|c| *c.name == *dir.as_bytes())
            .unwrap();
        let right = child.num_entries;
        child.num_entries = Some(wrong);
        file.write(Default::default()).unwrap();
        let (fast, slow) = both(&r);
        assert!(fast.is_none(), "{dir} counted {wrong}");
        assert_eq!(slow.len(), 1, "{slow:?}");
        // Put it back for the next case.
        let mut file =
            gix::index::File::at(&path, gix::hash::Kind::Sha1, false, Default::default()).unwrap();
        let tree = file.tree_mut().unwrap();
        tree.children
            .iter_mut()
            .find(|c| *c.name == *dir.as_bytes())
            .unwrap()
            .num_entries = right;
        file.write(Default::default()).unwrap();
        assert!(both(&r).0.is_some());
    }
}
