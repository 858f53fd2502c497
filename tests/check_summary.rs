//! A summary that says nothing is a finding of the gate (`subject-summary`): only a
//! verb (`docs: update `, the verb and a trailing space), only a path or only
//! punctuation, through the real commit-msg hook; `--explain` documents it; and the
//! reader still lists such a commit from the past (docs/check.md, "Reading a
//! history").
#![allow(clippy::unwrap_used)]

use crate::check_support::*;

use jitcommit_testkit::Sandbox;

#[test]
fn a_summary_of_a_verb_a_path_or_punctuation_is_rejected() {
    let sb = Sandbox::new();
    let r = client(&sb, "r");
    for subject in [
        "docs: update ",
        "docs: Update",
        "fix: fix",
        "chore: wip",
        "docs: README.md",
        "fix(parser): `src/lib.rs`",
        "fix: ...",
        "fix: -",
    ] {
        let o = try_commit_file(&sb, &r, "a.txt", &good(subject, &["a.txt"]));
        assert_ne!(code(&o), 0, "{subject:?} was accepted");
        assert!(stderr(&o).contains("subject-summary"), "{}", stderr(&o));
    }
    let o = try_commit_file(
        &sb,
        &r,
        "a.txt",
        &good("docs: update the install notes", &["a.txt"]),
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = run({
        let mut c = check(&sb, &r);
        c.args(["--explain", "subject-summary"]);
        c
    });
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).contains("docs: update"), "{}", stdout(&o));
}

#[test]
fn the_reader_still_lists_a_past_commit_with_an_empty_summary() {
    let sb = Sandbox::new();
    let r = sb.init("r");
    jitcommit_testkit::write(&r, "a.txt", "a\n");
    sb.git(&r, &["add", "."]);
    sb.git(&r, &["commit", "-q", "-m", "feat: update"]);
    let o = sb
        .cmd(jitcommit_testkit::cargo_bin("jitcommit"), &r)
        .args(["changelog"])
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).contains("update"), "{}", stdout(&o));
}
