//! A very large staged change (more files than `READ_FILES`): the draft reads the
//! diffs of the first files only up front, says so in `--print-context` and in the
//! offline draft's footer, and reads each other file only when the prompt can show it.
#![allow(clippy::unwrap_used)]

use crate::draft_support;
use draft_support::*;

/// More files than the draft reads up front.
const FILES: usize = jitcommit_drafter::draft::READ_FILES + 20;

/// `FILES` files committed, then each changed: file `i` gains `i % 5 + 1` lines, so
/// each stat line has its own count.
fn large_change() -> Repo {
    let r = Repo::new();
    for i in 0..FILES {
        write(
            &r.dir,
            &format!("src/f{i:04}.rs"),
            format!("fn f{i}() {{}}\n"),
        );
    }
    r.git(&["add", "."]);
    r.git(&["commit", "-q", "--no-verify", "-m", "base"]);
    for i in 0..FILES {
        let mut text = format!("fn f{i}() {{}}\n");
        for k in 0..=i % 5 {
            text.push_str(&format!("fn g{i}_{k}() {{}}\n"));
        }
        write(&r.dir, &format!("src/f{i:04}.rs"), text);
    }
    r.git(&["add", "."]);
    r
}

#[test]
fn a_huge_change_says_what_the_draft_did_not_read() {
    let r = large_change();
    let said = format!(
        "the offline analyses read {} of {} staged files",
        jitcommit_drafter::draft::READ_FILES,
        FILES
    );
    // A window wide enough for the whole change: the files not read up front are read
    // when the composer takes them, and their diffs are the real ones.
    let text = r.print_context(&["--budget-tokens", "65536"]);
    assert!(text.contains(&format!("read: {said}")), "{text}");
    let last = FILES - 1;
    let shown = format!("diff --git a/src/f{last:04}.rs b/src/f{last:04}.rs\n");
    let line = format!("+fn g{last}_{}() {{}}\n", last % 5);
    assert!(text.contains(&shown) && text.contains(&line), "{text}");

    // The default window takes a few stat lines: the last file is never shown, and the
    // offline draft's footer says what was not read.
    let text = r.print_context(&[]);
    assert!(text.contains(&format!("read: {said}")), "{text}");
    assert!(!text.contains(&format!("src/f{last:04}.rs |")), "{text}");
    let out = r
        .draft_cmd()
        .args(["--dry-run", "--offline"])
        .output()
        .unwrap();
    assert_ok(&out, "--dry-run --offline");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains(&format!("jitcommit: {said}")), "{err}");
}

#[test]
fn a_change_within_the_bound_is_read_whole_and_says_nothing() {
    let r = Repo::new();
    write(&r.dir, "src/a.rs", "fn a() {}\n");
    r.git(&["add", "."]);
    let text = r.print_context(&[]);
    assert!(!text.contains("offline analyses read"), "{text}");
    assert!(text.contains("src/a.rs"), "{text}");
}
