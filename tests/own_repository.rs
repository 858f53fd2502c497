//! This repository keeps its own rules, checked by its own binaries in its own
//! checkout, as part of the README's test command (so `.ci/run`, which runs exactly the
//! README's two commands, checks them too):
//! - CHANGELOG.md is what the history derives (docs/guide.md, "Changelog and releases");
//! - the fact store and its generated index agree (docs/facts.md, "The drift guard");
//! - the history follows the convention from the first commit made after the validator
//!   existed.
//!
//! They need the checkout's whole history: a shallow clone fails them, saying so.

use std::process::Command;

use crate::install_support::source_root;

/// The first commit of this repository's history that follows its convention: the
/// commits before it were made before the validator existed.
const FIRST_CONFORMING_BASE: &str = "8c08e36d2012a210136fe98c3098db5b89deb96f";

/// Runs one of the built binaries in the checkout, outside any git environment the
/// tests were started in (a hook's `GIT_DIR` or `GIT_INDEX_FILE` would point elsewhere).
fn run_in_checkout(bin: &str, args: &[&str]) -> (bool, String) {
    let out = jitcommit_testkit::scrub_git_env(&mut Command::new(bin))
        .args(args)
        .current_dir(source_root())
        .output()
        .unwrap_or_else(|e| panic!("{bin} runs: {e}"));
    let text = format!(
        "{bin} {}\nstdout:\n{}\nstderr:\n{}",
        args.join(" "),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

/// A failure's hint when the checkout lacks history these checks read.
fn shallow_hint() -> &'static str {
    let shallow = jitcommit_testkit::scrub_git_env(&mut Command::new("git"))
        .args(["rev-parse", "--is-shallow-repository"])
        .current_dir(source_root())
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"true"));
    if shallow {
        "\nthis checkout is shallow: these checks read the whole history (git fetch --unshallow)"
    } else {
        ""
    }
}

#[test]
fn the_changelog_is_what_the_history_derives() {
    let (ok, text) = run_in_checkout(
        env!("CARGO_BIN_EXE_jitcommit"),
        &["changelog", "--check", "CHANGELOG.md"],
    );
    assert!(
        ok,
        "{text}regenerate it: jitcommit changelog --write CHANGELOG.md{}",
        shallow_hint()
    );
}

#[test]
fn the_fact_store_and_its_index_agree() {
    let (ok, text) = run_in_checkout(env!("CARGO_BIN_EXE_jitcommit"), &["facts", "--check"]);
    assert!(ok, "{text}");
}

#[test]
fn the_history_follows_the_convention() {
    let range = format!("{FIRST_CONFORMING_BASE}..HEAD");
    let (ok, text) = run_in_checkout(env!("CARGO_BIN_EXE_jitcommit-check"), &["--range", &range]);
    assert!(ok, "{text}{}", shallow_hint());
}
