//! The rejected message waits in `REJECTED_EDITMSG` only until its commit goes through:
//! the commit-msg hook removes it when it accepts a commit, so the next rejection's
//! hint never points at a message from a commit already made (docs/trust.md, "Nothing
//! lost").
#![allow(clippy::unwrap_used)]

use crate::check_support::*;

use jitcommit_testkit::{Sandbox, write};

#[test]
fn an_accepted_commit_removes_the_message_rejected_before_it() {
    let sb = Sandbox::new();
    let r = client(&sb, "r");
    let saved = r.join(".git/jitcommit/REJECTED_EDITMSG");
    let o = try_commit_file(&sb, &r, "a.txt", "first attempt without a type");
    assert_ne!(code(&o), 0);
    assert!(saved.exists());

    // A file checked by hand is no commit: the saved message stays.
    let file = sb.path().join("mine.txt");
    std::fs::write(&file, good("fix: correct a", &["a.txt"])).unwrap();
    let o = run({
        let mut c = check(&sb, &r);
        c.arg(&file);
        c
    });
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(saved.exists(), "a check by hand removed the saved message");

    let o = try_commit(&sb, &r, &good("fix: correct a", &["a.txt"]));
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        !saved.exists(),
        "the accepted commit left its rejected message behind"
    );

    write(&r, "src/lib.rs", "fn b() {}\n");
    sb.git(&r, &["add", "src/lib.rs"]);
    let o = try_commit(&sb, &r, "second attempt without a type");
    assert_ne!(code(&o), 0);
    let err = stderr(&o);
    assert!(!err.contains("rejected before"), "{err}");
    assert!(
        std::fs::read_to_string(&saved)
            .unwrap()
            .starts_with("second attempt"),
    );
}
