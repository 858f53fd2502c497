//! `init` and `doctor` read the last 500 commits of HEAD, never the rest of the
//! history (docs/trust.md, "Reading a history"). The history under test is 520
//! conforming commits on top of a commit whose parent does not exist: a tool that reads
//! past the 500th commit reaches the missing parent and fails; one that reads 500 never
//! sees it.
#![allow(clippy::unwrap_used)]

use crate::jitcommit_support;

use std::io::Write as _;
use std::process::Stdio;

use jitcommit_support::*;
use jitcommit_testkit::Sandbox;

/// A commit object whose parent is an id no repository holds.
fn orphaned_root(r: &Repo) -> String {
    let tree = r.git(&["hash-object", "-t", "tree", "-w", "/dev/null"]);
    let body = format!(
        "tree {}\nparent {}\nauthor A <a@x> 1600000000 +0000\ncommitter A <a@x> 1600000000 +0000\n\nchore: the cut\n",
        tree.trim(),
        "1".repeat(40)
    );
    let mut c = r
        .git_cmd()
        .args(["hash-object", "-t", "commit", "-w", "--stdin"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    c.stdin.take().unwrap().write_all(body.as_bytes()).unwrap();
    let o = c.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap().trim().to_owned()
}

/// `n` conforming commits on top of `base`, by git fast-import, as `main`.
fn commits_on(r: &Repo, base: &str, n: usize) {
    let mut s = String::new();
    for i in 1..=n {
        let content = format!("line {i}\n");
        let msg = format!("fix: change number {i}\n\n- Update: f.txt — step {i}\n");
        let when = 1_600_000_000 + i * 60;
        s.push_str(&format!(
            "commit refs/heads/main\ncommitter A <a@x> {when} +0000\ndata {}\n{msg}",
            msg.len()
        ));
        if i == 1 {
            s.push_str(&format!("from {base}\n"));
        }
        s.push_str(&format!(
            "M 100644 inline f.txt\ndata {}\n{content}\n",
            content.len()
        ));
    }
    let mut c = r
        .git_cmd()
        .args(["fast-import", "--quiet"])
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    c.stdin.take().unwrap().write_all(s.as_bytes()).unwrap();
    assert!(c.wait().unwrap().success());
    r.git(&["reset", "-q", "--hard", "main"]);
}

fn cut_history(sb: &Sandbox) -> Repo<'_> {
    let r = Repo::new(sb, "r");
    let root = orphaned_root(&r);
    commits_on(&r, &root, 520);
    r
}

#[test]
fn init_reads_the_last_500_commits_and_no_more() {
    let sb = Sandbox::new();
    let r = cut_history(&sb);
    let o = r.jc(&["init"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("History: the last 500 commits: "),
        "{}",
        stderr(&o)
    );
}

#[test]
fn doctor_reads_the_last_500_commits_and_no_more() {
    let sb = Sandbox::new();
    let r = cut_history(&sb);
    let o = r.jc(&["doctor", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let detail = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == "history")
        .map(|c| c["detail"].as_str().unwrap().to_owned())
        .unwrap();
    assert!(detail.contains("of the last 500 commits"), "{detail}");
    assert!(!detail.contains("cannot read"), "{detail}");
}
