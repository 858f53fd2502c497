//! The stored-history side of `jitcommit-check` under attack (docs/trust.md, "The
//! history walk", "The adoption point", "Stored encodings"): which commits `--range`,
//! `--pre-receive` and `--update` judge when committer clocks go backwards, what an
//! adoption point accepts and what it costs, and a commit whose `encoding` header names
//! another encoding. Histories are made by real git (`git commit-tree` with
//! `GIT_COMMITTER_DATE`, `git -c i18n.commitEncoding=… commit`), pushed into real bare
//! repositories through real hooks.
#![allow(clippy::unwrap_used)]

use crate::check_support;

use std::path::{Path, PathBuf};

use check_support::*;
use jitcommit_testkit::{Sandbox, write};

/// The policy of these tests: subjects only (no bullets, no tracing).
const POLICY: &str = "types = [\"feat\", \"fix\", \"chore\"]\nbody = \"optional\"\n";

/// A client repository whose commits are made by `git commit-tree` on one tree.
struct Client {
    sb: Sandbox,
    r: PathBuf,
    tree: String,
    policy: PathBuf,
}

impl Client {
    fn new() -> Self {
        let sb = Sandbox::new();
        let r = sb.init("client");
        write(&r, "a.txt", "a\n");
        sb.git(&r, &["add", "a.txt"]);
        let tree = sb.git(&r, &["write-tree"]).trim().to_owned();
        let policy = sb.path().join("policy.toml");
        std::fs::write(&policy, POLICY).unwrap();
        Client {
            sb,
            r,
            tree,
            policy,
        }
    }

    /// A commit with `parents`, committed at `time` seconds.
    fn commit(&self, msg: &str, time: i64, parents: &[&str]) -> String {
        self.sb
            .commit_tree_at(&self.r, &self.tree, msg, time, parents)
    }

    /// Writes the policy with `extra` lines.
    fn policy_with(&self, extra: &str) {
        std::fs::write(&self.policy, format!("{POLICY}{extra}")).unwrap();
    }

    /// `jitcommit-check <args> --config <policy> --format json` in the client.
    fn check(&self, args: &[&str]) -> std::process::Output {
        let mut c = check(&self.sb, &self.r);
        c.args(args).args([
            "--config",
            self.policy.to_str().unwrap(),
            "--format",
            "json",
        ]);
        run(c)
    }

    /// A bare server named `name` holding `main` at `at` (pushed before any hook), with
    /// `hook` installed to run the binary with `args` and the policy.
    fn server(&self, name: &str, at: Option<&str>, hook: &str, args: &str) -> PathBuf {
        let bare = self.sb.init_bare(name);
        if let Some(at) = at {
            let dest = format!("{at}:refs/heads/main");
            self.sb
                .git(&self.r, &["push", "-q", bare.to_str().unwrap(), &dest]);
        }
        let args = format!("--config '{}' {args}", self.policy.display());
        install_hook(&bare.join("hooks"), hook, &args);
        bare
    }

    /// Pushes `commit` to `refs/heads/main` of `bare`.
    fn push(&self, bare: &Path, commit: &str) -> std::process::Output {
        let dest = format!("{commit}:refs/heads/main");
        git_try(
            &self.sb,
            &self.r,
            &["push", bare.to_str().unwrap(), &dest],
            &[],
        )
    }

    /// Whether `a` is `b` or one of its ancestors, as git says.
    fn is_ancestor(&self, a: &str, b: &str) -> bool {
        git_try(
            &self.sb,
            &self.r,
            &["merge-base", "--is-ancestor", a, b],
            &[],
        )
        .status
        .success()
    }
}

/// The JSON reports of a history check: (commit, exempt, number of findings).
fn reports(o: &std::process::Output) -> Vec<(String, Option<String>, usize)> {
    stdout(o)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["commit"].is_string())
        .map(|v| {
            (
                v["commit"].as_str().unwrap().to_owned(),
                v["exempt"].as_str().map(str::to_owned),
                v["findings"].as_array().map_or(0, Vec::len),
            )
        })
        .collect()
}

/// The example: main `R[40]←Z[50]←S[5]←C[95]←H[100]` (committer times), a branch
/// `W[98]←Z`, `V` the merge of H and W. Returns the client and (H, W, V, [R, Z, S, C]).
fn example() -> (Client, [String; 3], [String; 4]) {
    let c = Client::new();
    let r = c.commit("imported R", 40, &[]);
    let z = c.commit("imported Z", 50, &[&r]);
    let s = c.commit("imported S", 5, &[&z]);
    let cc = c.commit("imported C", 95, &[&s]);
    let h = c.commit("imported H", 100, &[&cc]);
    let w = c.commit("feat: w", 98, &[&z]);
    let v = c.commit("Merge branch 'w'", 101, &[&h, &w]);
    (c, [h, w, v], [r, z, s, cc])
}

#[test]
fn the_range_of_the_example_judges_what_git_rev_list_lists() {
    let (c, [h, w, v], _) = example();
    let listed =
        c.sb.git(&c.r, &["rev-list", "--reverse", &format!("{h}..{v}")]);
    assert_eq!(listed, format!("{w}\n{v}\n"));
    let o = c.check(&["--range", &format!("{h}..{v}")]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let judged: Vec<String> = reports(&o).into_iter().map(|r| r.0).collect();
    assert_eq!(judged, [w, v]);
}

/// The push of V onto main (at H), through a real pre-receive hook and a real update
/// hook: accepted, as `git rev-list H..V` holds only W and the merge.
#[test]
fn the_push_of_the_example_is_accepted_by_the_server_hooks() {
    let (c, [h, _, v], _) = example();
    for (name, hook, args) in [
        ("pre.git", "pre-receive", "--pre-receive"),
        ("update.git", "update", "--update"),
    ] {
        let bare = c.server(name, Some(&h), hook, args);
        let o = c.push(&bare, &v);
        assert_eq!(code(&o), 0, "{hook}: {}", stderr(&o));
        let at = c.sb.git(&bare, &["rev-parse", "refs/heads/main"]);
        assert_eq!(at.trim(), v, "{hook}");
    }
    // The class: a new branch at V while main is at H.
    let bare = c.server("branch.git", Some(&h), "pre-receive", "--pre-receive");
    let dest = format!("{v}:refs/heads/topic");
    let o = git_try(&c.sb, &c.r, &["push", bare.to_str().unwrap(), &dest], &[]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

/// What the adoption point accepts is what `git merge-base --is-ancestor <commit>
/// <point>` says, for a point before, at and after each commit, on the skewed example
/// with its merge: through `--range`, `--commit` and a first push through pre-receive.
#[test]
fn the_adoption_point_accepts_exactly_its_ancestors() {
    let (c, [h, w, v], [r, z, s, cc]) = example();
    let all = [&r, &z, &s, &cc, &h, &w, &v];
    for point in all {
        c.policy_with(&format!("adopted = \"{point}\"\n"));
        let o = c.check(&["--range", &format!("{r}..{v}")]);
        let got = reports(&o);
        assert_eq!(got.len(), all.len() - 1, "{}{}", stdout(&o), stderr(&o));
        for (id, exempt, _) in &got {
            let want = c.is_ancestor(id, point);
            assert_eq!(
                exempt.as_deref() == Some("adopted"),
                want,
                "{id} with the point at {point}"
            );
        }
        for id in all {
            let o = c.check(&["--commit", id]);
            let adopted = reports(&o)[0].1.as_deref() == Some("adopted");
            assert_eq!(
                adopted,
                c.is_ancestor(id, point),
                "--commit {id}, point {point}"
            );
        }
        // A first push of the whole history, checked as an admin asks for it
        // (`--check-first-push`: unchecked, it is the project's history): accepted
        // exactly when every commit the point does not hold conforms (W does, the merge
        // is exempt; R..H do not).
        let bare = c.server(
            &format!("first-{point}.git"),
            None,
            "pre-receive",
            "--pre-receive --check-first-push",
        );
        let o = c.push(&bare, &v);
        let held_bad = [&r, &z, &s, &cc, &h]
            .iter()
            .all(|b| c.is_ancestor(b, point));
        assert_eq!(code(&o) == 0, held_bad, "point {point}: {}", stderr(&o));
    }
}

/// The adoption point costs what the commits checked cost, not the history below the
/// point: with a commit 40 generations below the point missing from the object store,
/// `--commit`, `--range` and a push through pre-receive read nothing down there (a walk
/// of the point's whole ancestry failed on it). Figures for a 200,000-commit history are
/// in docs/check.md ("Performance").
#[test]
fn the_adoption_point_reads_no_history_below_the_commits_checked() {
    let c = Client::new();
    let mut prev: Vec<String> = Vec::new();
    let mut ids = Vec::new();
    for i in 0..60 {
        let id = c.commit(
            &format!("imported {i}"),
            i,
            &prev.iter().map(String::as_str).collect::<Vec<_>>(),
        );
        prev = vec![id.clone()];
        ids.push(id);
    }
    let point = ids[59].clone();
    let one = c.commit("feat: one", 100, &[&point]);
    let two = c.commit("fix: two", 101, &[&one]);
    c.policy_with(&format!("adopted = \"{point}\"\n"));
    // The server holds main at the point, its objects loose (a local clone links them).
    let bare = c.sb.path().join("server.git");
    c.sb.git(&c.r, &["update-ref", "refs/heads/main", &point]);
    c.sb.git(
        c.sb.path(),
        &[
            "clone",
            "-q",
            "--bare",
            c.r.to_str().unwrap(),
            bare.to_str().unwrap(),
        ],
    );
    let args = format!("--pre-receive --config '{}'", c.policy.display());
    install_hook(&bare.join("hooks"), "pre-receive", &args);
    let missing = &ids[19];
    for repo in [&c.r, &bare] {
        let git_dir = if repo == &bare {
            bare.clone()
        } else {
            c.r.join(".git")
        };
        let loose = git_dir
            .join("objects")
            .join(&missing[..2])
            .join(&missing[2..]);
        std::fs::remove_file(&loose).unwrap();
    }
    for args in [
        vec!["--commit", two.as_str()],
        vec!["--commit", point.as_str()],
        vec!["--range", &format!("{point}..{two}")],
    ] {
        let o = c.check(&args);
        assert_eq!(code(&o), 0, "{args:?}: {}{}", stdout(&o), stderr(&o));
    }
    let o = c.push(&bare, &two);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

/// A commit whose `encoding` header names an encoding jitcommit cannot decode
/// (`IBM037`, where git shows the conforming UTF-8 bytes as an empty subject) is a
/// `message-encoding` finding on every path that reads stored commits: `--commit`,
/// `--range`, pre-receive and update. (commit-msg reads the message file, not a commit.)
#[test]
fn an_encoding_jitcommit_cannot_decode_is_a_finding_everywhere() {
    let c = Client::new();
    c.sb.git(&c.r, &["commit", "-q", "--no-verify", "-m", "chore: start"]);
    let base = c.sb.git(&c.r, &["rev-parse", "HEAD"]).trim().to_owned();
    write(&c.r, "b.txt", "b\n");
    c.sb.git(&c.r, &["add", "b.txt"]);
    c.sb.git(
        &c.r,
        &[
            "-c",
            "i18n.commitEncoding=IBM037",
            "commit",
            "-q",
            "-m",
            "feat: add b",
        ],
    );
    let tip = c.sb.git(&c.r, &["rev-parse", "HEAD"]).trim().to_owned();
    assert!(
        c.sb.git(&c.r, &["cat-file", "commit", &tip])
            .contains("\nencoding IBM037\n")
    );
    assert_ne!(
        c.sb.git(&c.r, &["log", "-1", "--format=%s"]).trim(),
        "feat: add b"
    );
    for args in [
        vec!["--commit", "HEAD"],
        vec!["--range", &format!("{base}..HEAD")],
    ] {
        let o = c.check(&args);
        assert_eq!(code(&o), 1, "{args:?}: {}", stdout(&o));
        assert!(
            stdout(&o).contains("\"message-encoding\""),
            "{}",
            stdout(&o)
        );
        assert!(stdout(&o).contains("IBM037"), "{}", stdout(&o));
    }
    for (name, hook, args) in [
        ("pre.git", "pre-receive", "--pre-receive"),
        ("update.git", "update", "--update"),
    ] {
        let bare = c.server(name, Some(&base), hook, args);
        let o = c.push(&bare, &tip);
        assert_ne!(code(&o), 0, "{hook} must refuse it");
        assert!(
            Server::remote(&o).contains("message-encoding"),
            "{}",
            stderr(&o)
        );
        let at = c.sb.git(&bare, &["rev-parse", "refs/heads/main"]);
        assert_eq!(at.trim(), base, "{hook}: nothing landed");
    }
}

/// A commit in an encoding jitcommit decodes is judged as git shows it: a conforming
/// Latin-1 (`i18n.commitEncoding=ISO-8859-1`) or Shift_JIS message is accepted, its
/// subject reported as `git log` prints it; a non-conforming one is refused for what
/// it says, not for its bytes.
#[test]
fn a_decodable_encoding_is_judged_as_git_shows_it() {
    let c = Client::new();
    c.sb.git(&c.r, &["commit", "-q", "--no-verify", "-m", "chore: start"]);
    let base = c.sb.git(&c.r, &["rev-parse", "HEAD"]).trim().to_owned();
    let mut tips = Vec::new();
    for (n, (encoding, bytes)) in [
        ("ISO-8859-1", &b"feat: caf\xe9 menu\n"[..]),
        ("Shift_JIS", &b"fix: \x82\xa0 kana\n"[..]),
        ("ISO-8859-1", &b"caf\xe9 without a type\n"[..]),
    ]
    .into_iter()
    .enumerate()
    {
        write(&c.r, &format!("f{n}.txt"), "x\n");
        c.sb.git(&c.r, &["add", "."]);
        let msg = c.sb.path().join(format!("msg{n}"));
        std::fs::write(&msg, bytes).unwrap();
        let setting = format!("i18n.commitEncoding={encoding}");
        c.sb.git(
            &c.r,
            &[
                "-c",
                &setting,
                "commit",
                "-q",
                "--no-verify",
                "-F",
                msg.to_str().unwrap(),
            ],
        );
        tips.push(c.sb.git(&c.r, &["rev-parse", "HEAD"]).trim().to_owned());
    }
    let shown = c.sb.git(&c.r, &["log", "-3", "--reverse", "--format=%s"]);
    assert_eq!(
        shown,
        "feat: café menu\nfix: あ kana\ncafé without a type\n"
    );
    for (tip, ok) in tips.iter().zip([true, true, false]) {
        let o = c.check(&["--commit", tip]);
        assert_eq!(code(&o) == 0, ok, "{}", stdout(&o));
        assert!(!stdout(&o).contains("message-encoding"), "{}", stdout(&o));
    }
    let o = c.check(&["--range", &format!("{base}..{}", tips[1])]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    assert!(stdout(&o).contains("feat: café menu"), "{}", stdout(&o));
    let bare = c.server("pre.git", Some(&base), "pre-receive", "--pre-receive");
    let o = c.push(&bare, &tips[1]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = c.push(&bare, &tips[2]);
    assert_ne!(code(&o), 0, "{}", stderr(&o));
    assert!(
        Server::remote(&o).contains("café without a type"),
        "{}",
        stderr(&o)
    );
}
