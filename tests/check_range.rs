//! `jitcommit-check --range A..B` over a generated history with merges, reverts,
//! fixups and non-conforming commits; human and JSON output snapshotted.
#![allow(clippy::unwrap_used)]

use crate::check_support;

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

/// A range whose far end the clone has (fetched on its own) but whose middle lies
/// beyond the shallow boundary: the walk stops at the boundary, and the commits past
/// it were never read. Exit 2 whether or not anything is traced.
#[test]
fn a_range_past_the_shallow_boundary_always_exits_2() {
    let sb = Sandbox::new();
    let r = history(&sb);
    let url = format!("file://{}", r.display());
    sb.git(sb.path(), &["clone", "-q", "--depth", "2", &url, "shallow"]);
    let s = sb.path().join("shallow");
    sb.git(
        &s,
        &["fetch", "-q", "--depth", "1", "origin", "tag", "base"],
    );
    for extra in [&["--no-trace-paths"][..], &[]] {
        let o = run({
            let mut c = check(&sb, &s);
            c.args(["--range", "base..HEAD"]).args(extra);
            c
        });
        assert_eq!(code(&o), 2, "{extra:?}: {}{}", stdout(&o), stderr(&o));
        assert!(stderr(&o).contains("shallow"), "{}", stderr(&o));
    }
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

/// A history long enough to be checked on several threads (256 commits and up): every
/// commit is reported once, oldest first, with the findings of a one-by-one check —
/// a bullet naming a path the commit did not change, a bad subject — and nothing else.
#[test]
fn a_long_range_is_checked_in_runs_with_the_same_findings() {
    let sb = Sandbox::new();
    let r = sb.init("long");
    let mut script = String::new();
    let (mut untraced, mut bad_subject) = (Vec::new(), Vec::new());
    for i in 1..=400usize {
        let file = format!("d{}/f{}.rs", i % 5, i % 37);
        let subject = if i % 29 == 0 {
            bad_subject.push(i);
            format!("Step {i}")
        } else {
            format!("feat: step {i}")
        };
        let named = if i % 13 == 0 {
            untraced.push(i);
            "d0/never.rs".to_string()
        } else {
            file.clone()
        };
        let msg = good(&subject, &[&named]);
        let content = format!("// {i}\n");
        script.push_str(&format!(
            "commit refs/heads/main\nmark :{i}\ncommitter C <c@example.com> {} +0000\ndata {}\n{msg}\n",
            1_700_000_000 + i * 60,
            msg.len()
        ));
        if i > 1 {
            script.push_str(&format!("from :{}\n", i - 1));
        }
        script.push_str(&format!(
            "M 100644 inline {file}\ndata {}\n{content}\n\n",
            content.len()
        ));
    }
    let o = run_with_stdin(
        {
            let mut c = sb.git_cmd(&r);
            c.args(["fast-import", "--quiet"]);
            c
        },
        script.as_bytes(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let root = sb.git(&r, &["rev-list", "--max-parents=0", "main"]);
    let range = format!("{}..main", root.trim());
    let revs = sb.git(&r, &["rev-list", "--reverse", &range]);
    let ids: Vec<&str> = revs.lines().collect();
    assert_eq!(ids.len(), 399);

    for traced in [true, false] {
        let o = run({
            let mut c = check(&sb, &r);
            c.args(["--range", &range, "--format", "json"]);
            if !traced {
                c.arg("--no-trace-paths");
            }
            c
        });
        assert_eq!(code(&o), 1, "{}", stderr(&o));
        let objs: Vec<serde_json::Value> = stdout(&o)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let got: Vec<&str> = objs.iter().map(|o| o["commit"].as_str().unwrap()).collect();
        assert_eq!(got, ids, "every commit once, oldest first");
        for (n, obj) in (2..).zip(&objs) {
            let mut rules: Vec<&str> = obj["findings"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| f["rule"].as_str().unwrap())
                .collect();
            rules.sort_unstable();
            let mut want = Vec::new();
            if traced && untraced.contains(&n) {
                want.push("bullet-path");
            }
            if bad_subject.contains(&n) {
                want.push("subject-format");
            }
            want.sort_unstable();
            assert_eq!(rules, want, "commit {n} (traced: {traced})");
        }
    }
}

/// Issue 28: the convention's adoption point accepts it and its ancestors as they are;
/// a commit after it is held to the convention.
#[test]
fn range_accepts_the_history_up_to_the_adoption_point() {
    let sb = Sandbox::new();
    let r = sb.init("r");
    commit(&sb, &r, "a.txt", "a\n", "initial import");
    commit(&sb, &r, "b.txt", "b\n", "feat: b\n\nA prose body.\n");
    let point = sb.git(&r, &["rev-parse", "HEAD"]).trim().to_owned();
    let all = run({
        let mut c = check(&sb, &r);
        c.args(["--range", "HEAD~1..HEAD", "--format", "json"]);
        c
    });
    assert_eq!(code(&all), 1, "without the point both are refused");
    commit(
        &sb,
        &r,
        ".commit-convention.toml",
        &format!("adopted = \"{point}\"\n"),
        &good("chore: adopt jitcommit", &[".commit-convention.toml"]),
    );
    let root = sb.git(&r, &["rev-list", "--max-parents=0", "HEAD"]);
    let o = run({
        let mut c = check(&sb, &r);
        c.args([
            "--range",
            &format!("{}..HEAD", root.trim()),
            "--format",
            "json",
        ]);
        c
    });
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    assert!(
        stdout(&o).contains("\"exempt\":\"adopted\""),
        "{}",
        stdout(&o)
    );
    // The house style holds after the point.
    commit(&sb, &r, "c.txt", "c\n", "feat: c\n\nA prose body.\n");
    let o = run({
        let mut c = check(&sb, &r);
        c.args(["--range", &format!("{}..HEAD", root.trim())]);
        c
    });
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    assert!(stdout(&o).contains("1 of 3 commits"), "{}", stdout(&o));
}

/// The adoption point must be a full commit id: a name could move.
#[test]
fn an_adoption_point_that_is_not_a_commit_id_is_a_config_error() {
    let sb = Sandbox::new();
    let r = sb.init("r");
    commit(&sb, &r, "a.txt", "a\n", &good("chore: a", &["a.txt"]));
    write(&r, ".commit-convention.toml", "adopted = \"main\"\n");
    let o = run({
        let mut c = check(&sb, &r);
        c.args(["--range", "HEAD~0..HEAD"]);
        c
    });
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(
        stderr(&o).contains(".commit-convention.toml:1") && stderr(&o).contains("adopted"),
        "{}",
        stderr(&o)
    );
}
