//! What `jitcommit init --write` writes loads, and the hooks accept a commit after it:
//! a history scope `api, cli`, a 41-character type, commitlint's `header-max-length
//! 5000` or `5`, and a body wrap past the loader's limit are dropped and listed with the
//! loader's reason, never written (docs/trust.md, "What init writes loads").
#![allow(clippy::unwrap_used)]

use crate::{check_support, jitcommit_support};

use jitcommit_support::*;
use jitcommit_testkit::{Sandbox, write};

/// Writes the convention with `init --write`, then commits `file` through the real
/// commit-msg hook with a conforming message: the hook must load what init wrote.
fn write_then_commit(r: &Repo, subject: &str) -> String {
    let o = r.jc(&["init", "--write"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let said = stderr(&o);
    check_support::install_hook(&r.dir.join(".git/hooks"), "commit-msg", "");
    write(&r.dir, "src/next.rs", "fn next() {}\n");
    r.git(&["add", "."]);
    let o = check_support::try_commit(
        r.sb,
        &r.dir,
        &check_support::good(subject, &[".commit-convention.toml", "src/next.rs"]),
    );
    assert!(
        o.status.success(),
        "init wrote a convention whose hook refuses a conforming commit:\n{}\n{}",
        String::from_utf8_lossy(&o.stderr),
        std::fs::read_to_string(r.dir.join(".commit-convention.toml")).unwrap()
    );
    said
}

#[test]
fn a_history_scope_with_a_comma_is_listed_not_written() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    write(
        &r.dir,
        ".commitlintrc.json",
        r#"{"rules": {"scope-enum": [2, "always", ["api", "cli"]]}}"#,
    );
    r.commit("a.txt", "a\n", "feat(api, cli): add the first endpoint");
    r.commit("b.txt", "b\n", "fix(api): answer the first endpoint");
    let said = write_then_commit(&r, "feat(cli): add the second endpoint");
    assert!(
        said.contains("Not mapped: the scope \"api, cli\": invalid value"),
        "{said}"
    );
}

#[test]
fn a_41_character_type_from_the_history_is_listed_not_written() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    let long = "t".repeat(41);
    r.commit("a.txt", "a\n", &format!("{long}: a long kind of change"));
    r.commit("b.txt", "b\n", "fix: a short kind of change");
    let said = write_then_commit(&r, "fix: the next change");
    assert!(
        said.contains(&format!("Not mapped: the type \"{long}\": invalid value")),
        "{said}"
    );
}

#[test]
fn commitlint_lengths_the_loader_refuses_are_listed_not_written() {
    for (header, wrap, needle) in [
        (5000, 100, "subject-max 5000: invalid value"),
        (100, 5000, "body-wrap 5000: invalid value"),
        (5, 100, "subject-max 5: leaves no room for a subject"),
    ] {
        let sb = Sandbox::new();
        let r = Repo::new(&sb, "r");
        write(
            &r.dir,
            ".commitlintrc.json",
            format!(
                r#"{{"rules": {{"header-max-length": [2, "always", {header}], "body-max-line-length": [2, "always", {wrap}], "type-enum": [2, "always", ["feat", "fix", "{}"]]}}}}"#,
                "x".repeat(41)
            ),
        );
        r.commit("a.txt", "a\n", "fix: a change");
        let said = write_then_commit(&r, "feat: the next change");
        assert!(said.contains(needle), "{needle}\n{said}");
        assert!(said.contains("Not mapped: the type \"xxxx"), "{said}");
    }
}
