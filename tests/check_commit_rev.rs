//! `jitcommit-check --commit REV`: an existing commit's message traced against that
//! commit's own diff, where `git log -1 --format=%B | jitcommit-check --stdin` traces
//! against whatever is staged now (the README's old recipe, issue 13).
#![allow(clippy::unwrap_used)]

use crate::check_support;

use check_support::*;
use jitcommit_testkit::{Sandbox, run_with_input, write};

#[test]
fn a_commit_is_traced_against_its_own_diff() {
    let sb = Sandbox::new();
    let r = sb.init("r");
    write(&r, "a.txt", "a\n");
    sb.git(&r, &["add", "a.txt"]);
    sb.git(&r, &["commit", "-q", "--no-verify", "-m", "chore: start"]);
    write(&r, "src/lib.rs", "fn a() {}\n");
    sb.git(&r, &["add", "src/lib.rs"]);
    let msg = good("feat(core): add a", &["src/lib.rs"]);
    sb.git(&r, &["commit", "-q", "--no-verify", "-m", &msg]);
    // Something else is staged now: the old recipe gives a false bullet-path finding.
    write(&r, "other.txt", "x\n");
    sb.git(&r, &["add", "other.txt"]);

    let mut cmd = check(&sb, &r);
    cmd.args(["--commit", "HEAD"]);
    let o = run(cmd);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));

    let mut cmd = check(&sb, &r);
    cmd.arg("--stdin");
    let o = run_with_input(cmd, sb.git(&r, &["log", "-1", "--format=%B"]).as_bytes());
    assert_eq!(code(&o), 1, "the --stdin recipe traces against the index");
    assert!(stdout(&o).contains("bullet-path"), "{}", stdout(&o));

    // A commit whose bullet names a path its own diff does not hold.
    sb.git(&r, &["reset", "-q"]);
    write(&r, "b.txt", "b\n");
    sb.git(&r, &["add", "b.txt"]);
    let bad = good("fix: correct a", &["a.txt"]);
    sb.git(&r, &["commit", "-q", "--no-verify", "-m", &bad]);
    let mut cmd = check(&sb, &r);
    cmd.args(["--commit", "HEAD", "--format", "json"]);
    let o = run(cmd);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    assert!(stdout(&o).contains("\"bullet-path\""), "{}", stdout(&o));
    assert!(
        stdout(&o).contains(r#"nearest: \"b.txt\""#),
        "the hint names b.txt: {}",
        stdout(&o)
    );
    let mut cmd = check(&sb, &r);
    cmd.args(["--commit", "HEAD~1"]);
    assert_eq!(code(&run(cmd)), 0);

    let mut cmd = check(&sb, &r);
    cmd.args(["--commit", "no-such-rev"]);
    let o = run(cmd);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
}
