//! `jitcommit-check --range A..B` over a generated history with merges, reverts,
//! fixups and non-conforming commits; human and JSON output snapshotted.
#![allow(clippy::unwrap_used)]

mod check_support;

use std::path::{Path, PathBuf};

use check_support::*;
use jitcommit_testkit::{Sandbox, write};

fn commit(sb: &Sandbox, r: &Path, file: &str, content: &str, msg: &str) {
    write(r, file, content);
    sb.git(r, &["add", file]);
    sb.git(r, &["commit", "-q", "--no-verify", "-m", msg]);
}

/// main: start, then a topic branch merged back, a revert, a fixup, one commit with a
/// bad subject and one whose bullet names a path it did not change.
fn history(sb: &Sandbox) -> PathBuf {
    let r = sb.init("r");
    commit(sb, &r, "a.txt", "a\n", "chore: start");
    sb.git(&r, &["tag", "base"]);
    commit(
        sb,
        &r,
        "src/lib.rs",
        "fn a() {}\n",
        &good("feat(core): add a", &["src/lib.rs"]),
    );
    sb.git(&r, &["checkout", "-q", "-b", "topic"]);
    commit(
        sb,
        &r,
        "docs/guide.md",
        "# guide\n",
        &good("docs: write the guide", &["docs/guide.md"]),
    );
    sb.git(&r, &["checkout", "-q", "main"]);
    commit(sb, &r, "a.txt", "b\n", &good("fix: correct a", &["a.txt"]));
    sb.git(
        &r,
        &[
            "merge",
            "-q",
            "--no-ff",
            "--no-verify",
            "--no-edit",
            "topic",
        ],
    );
    sb.git(&r, &["revert", "--no-edit", "HEAD~1"]);
    commit(
        sb,
        &r,
        "src/lib.rs",
        "fn a() { }\n",
        "fixup! feat(core): add a",
    );
    commit(sb, &r, "b.txt", "b\n", "updated b\n");
    commit(
        sb,
        &r,
        "c.txt",
        "c\n",
        &good("feat: add c", &["src/lib.rs"]),
    );
    commit(sb, &r, "d.txt", "d\n", &good("test: add d", &["d.txt"]));
    r
}

#[test]
fn range_reports_only_the_bad_commits_oldest_first() {
    let sb = Sandbox::new();
    let r = history(&sb);
    let o = run({
        let mut c = check(&sb, &r);
        c.args(["--range", "base..main"]);
        c
    });
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let out = stdout(&o);
    let updated = out.find("updated b").unwrap();
    let add_c = out.find("feat: add c").unwrap();
    assert!(updated < add_c, "oldest first:\n{out}");
    assert!(!out.contains("Merge branch"), "merges are exempt:\n{out}");
    assert!(!out.contains("Revert"), "reverts are exempt:\n{out}");
    assert!(!out.contains("fixup!"), "fixups are exempt:\n{out}");
    assert!(
        out.contains("src/lib.rs"),
        "tracing against the commit's own diff:\n{out}"
    );
    assert!(
        out.lines().last().unwrap().contains("2 of 9 commits"),
        "{out}"
    );
    filters(&sb).bind(|| insta::assert_snapshot!("range_human", out));
}

#[test]
fn range_json_is_one_object_per_commit() {
    let sb = Sandbox::new();
    let r = history(&sb);
    let o = run({
        let mut c = check(&sb, &r);
        c.args(["--range", "base..main", "--format", "json"]);
        c
    });
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let out = stdout(&o);
    let objs: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let revs = sb.git(&r, &["rev-list", "--reverse", "base..main"]);
    let ids: Vec<&str> = revs.lines().collect();
    let got: Vec<&str> = objs.iter().map(|o| o["commit"].as_str().unwrap()).collect();
    assert_eq!(got, ids, "every commit, oldest first");
    let exempt: Vec<&str> = objs.iter().filter_map(|o| o["exempt"].as_str()).collect();
    assert_eq!(exempt, ["merge", "revert", "fixup"]);
    filters(&sb).bind(|| insta::assert_snapshot!("range_json", out));
}

#[test]
fn range_without_tracing_and_with_config() {
    let sb = Sandbox::new();
    let r = history(&sb);
    let o = run({
        let mut c = check(&sb, &r);
        c.args(["--range", "base..main", "--no-trace-paths"]);
        c
    });
    assert_eq!(code(&o), 1);
    assert!(!stdout(&o).contains("feat: add c"), "{}", stdout(&o));
    assert!(stdout(&o).contains("1 of 9 commits"), "{}", stdout(&o));

    // A clean range exits 0 and prints nothing.
    let o = run({
        let mut c = check(&sb, &r);
        c.args(["--range", "main~1..main"]);
        c
    });
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    assert_eq!(stdout(&o), "");

    // Merges not exempt: the merge's subject is checked like any other.
    let conf = sb.path().join("strict.toml");
    std::fs::write(&conf, "exempt = [\"revert\", \"fixup\"]\n").unwrap();
    let o = run({
        let mut c = check(&sb, &r);
        c.args([
            "--range",
            "base..main",
            "--no-trace-paths",
            "--config",
            conf.to_str().unwrap(),
        ]);
        c
    });
    assert_eq!(code(&o), 1);
    assert!(
        stdout(&o).contains("Merge branch 'topic'"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn range_errors_exit_2() {
    let sb = Sandbox::new();
    let r = history(&sb);
    let o = run({
        let mut c = check(&sb, &r);
        c.args(["--range", "base..nosuchbranch"]);
        c
    });
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("nosuchbranch"), "{}", stderr(&o));

    let plain = sb.path().join("plain");
    std::fs::create_dir_all(&plain).unwrap();
    let o = run({
        let mut c = check(&sb, &plain);
        c.args(["--range", "a..b"]);
        c
    });
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("not a git repository"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn range_in_a_shallow_clone() {
    let sb = Sandbox::new();
    let r = history(&sb);
    let url = format!("file://{}", r.display());
    sb.git(sb.path(), &["clone", "-q", "--depth", "2", &url, "shallow"]);
    let s = sb.path().join("shallow");
    // Inside the shallow history: works.
    let o = run({
        let mut c = check(&sb, &s);
        c.args(["--range", "HEAD~1..HEAD"]);
        c
    });
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // Beyond it: a clear error, no panic.
    let o = run({
        let mut c = check(&sb, &s);
        c.args(["--range", "HEAD~5..HEAD"]);
        c
    });
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
}

#[test]
fn corrupt_config_is_an_error_not_a_default() {
    let sb = Sandbox::new();
    let r = history(&sb);
    write(
        &r,
        ".commit-convention.toml",
        "types = [\"feat\"\nnope = 1\n",
    );
    let o = run({
        let mut c = check(&sb, &r);
        c.args(["--range", "base..main"]);
        c
    });
    assert_eq!(code(&o), 2, "{}", stdout(&o));
    assert!(
        stderr(&o).contains(".commit-convention.toml"),
        "{}",
        stderr(&o)
    );
}
