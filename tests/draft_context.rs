//! `--print-context` and the offline draft, as snapshots of the real binary's output
//! on a fixed repository (insta; the content is deterministic, so no filters beyond
//! none are needed).
#![allow(clippy::unwrap_used)]

use crate::draft_support;
use draft_support::*;

fn fixed_repo() -> Repo {
    let r = Repo::new();
    write(
        &r.dir,
        "src/lib.rs",
        "pub fn greet() -> &'static str {\n    \"hello\"\n}\n",
    );
    write(&r.dir, "README.md", "# r\n\nSay hello.\n");
    write(
        &r.dir,
        "tests/greet.rs",
        "#[test]\nfn greets() {\n    assert_eq!(r::greet(), \"hello\");\n}\n",
    );
    r.git(&["add", "."]);
    r
}

#[test]
fn print_context_snapshot() {
    let r = fixed_repo();
    let text = r.print_context(&["--intent", "say hello to new users"]);
    assert!(text.contains("say hello to new users"));
    insta::assert_snapshot!("print_context", text);
}

#[test]
fn print_context_json_has_the_same_prompt() {
    let r = fixed_repo();
    let text = r.draft_cmd().arg("--print-context").output().unwrap();
    let json = r
        .draft_cmd()
        .args(["--print-context", "--json"])
        .output()
        .unwrap();
    assert_ok(&json, "--print-context --json");
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    let user = v["user"].as_str().unwrap();
    assert!(
        text.contains(user.trim_end()),
        "the JSON's user prompt is the text one"
    );
    assert!(v["report"].is_object(), "{v}");
    assert!(v["schema"].is_object(), "{v}");
}

#[test]
fn offline_draft_snapshot() {
    let r = fixed_repo();
    r.git(&["rm", "-q", "--cached", "README.md"]);
    r.git(&["commit", "-q", "--no-verify", "-m", "base"]);
    write(
        &r.dir,
        "src/lib.rs",
        "pub fn greet() -> &'static str {\n    \"hi\"\n}\n\npub fn part() {}\n",
    );
    r.git(&["mv", "tests/greet.rs", "tests/greeting.rs"]);
    r.git(&["add", "."]);
    let out = r
        .draft_cmd()
        .args(["--dry-run", "--offline"])
        .output()
        .unwrap();
    assert_ok(&out, "--dry-run --offline");
    insta::assert_snapshot!("offline_draft", String::from_utf8(out.stdout).unwrap());
}

#[test]
fn offline_draft_is_rejected_by_the_check_until_the_why_is_written() {
    let check = cargo_bin("jitcommit-check");
    let r = fixed_repo();
    let out = r
        .draft_cmd()
        .args(["--dry-run", "--offline"])
        .output()
        .unwrap();
    let draft = String::from_utf8(out.stdout).unwrap();
    let file = r.sb.path().join("MSG");
    std::fs::write(&file, &draft).unwrap();
    let out = r.sb.cmd(&check, &r.dir).arg(&file).output().unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(1), "placeholder rejected: {said}");
    assert!(
        said.contains("placeholder") && said.contains(jitcommit_drafter::offline::WHY_PLACEHOLDER),
        "{said}"
    );
    let fixed = draft.replace(
        jitcommit_drafter::offline::WHY_PLACEHOLDER,
        "so that new users feel welcome",
    );
    std::fs::write(&file, fixed).unwrap();
    let out = r.sb.cmd(&check, &r.dir).arg(&file).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The repository's recent subjects for the staged paths (issue 30): a history of
/// `src/cli.rs` with a human subject, a bot's, a merge, one no convention reads, one
/// holding a key, and one of another directory.
fn subjects_repo() -> Repo {
    let r = Repo::new();
    let mut n = 0;
    let mut commit = |r: &Repo, path: &str, extra: &[&str], msg: &str| {
        n += 1;
        write(&r.dir, path, format!("pub fn a{n}() {{}}\n"));
        r.git(&["add", "."]);
        let mut args = vec!["commit", "-q", "--no-verify", "-m", msg];
        args.extend_from_slice(extra);
        r.git(&args);
    };
    commit(&r, "src/cli.rs", &[], "feat(cli): add the parser");
    commit(&r, "src/cli.rs", &[], "not a conventional subject at all");
    commit(
        &r,
        "src/cli.rs",
        &["--author", "dependabot[bot] <support@github.com>"],
        "chore(deps): bump the parser",
    );
    commit(
        &r,
        "src/cli.rs",
        &[],
        "fix(cli): keep AKIAIOSFODNN7EXAMPLQ out of logs",
    );
    r.git(&["checkout", "-q", "-b", "side"]);
    commit(&r, "src/cli.rs", &[], "perf(cli): parse once");
    r.git(&["checkout", "-q", "main"]);
    commit(&r, "docs/other.md", &[], "docs: write about something else");
    r.git(&[
        "merge",
        "-q",
        "--no-ff",
        "--no-verify",
        "-m",
        "feat(cli): merge the side work",
        "side",
    ]);
    write(&r.dir, "src/cli.rs", "pub fn a() {}\npub fn quiet() {}\n");
    r.git(&["add", "."]);
    r
}

fn user_part(text: &str) -> &str {
    let start = text.find("=== user ===").expect("user section");
    let end = text.find("=== schema").unwrap_or(text.len());
    &text[start..end]
}

#[test]
fn recent_subjects_are_examples_redacted_and_marked_with_their_source() {
    let r = subjects_repo();
    let text = r.print_context(&[]);
    let user = user_part(&text);
    let block = user
        .split("# Recent subjects\n")
        .nth(1)
        .and_then(|b| b.split("</evidence>").next())
        .unwrap_or_else(|| panic!("no subjects block: {user}"));
    assert!(
        block.contains(
            "<evidence source=\"git log: recent subjects of commits touching these paths\" trimmed=\"no\">"
        ),
        "{block}"
    );
    let lines: Vec<&str> = block.lines().skip(2).collect();
    // Newest first, each a quoted datum; the merge, the bot's, the unreadable
    // subject and the other directory's are not examples, and the key is redacted.
    assert_eq!(lines.len(), 3, "{block}");
    assert_eq!(lines[0], "\"perf(cli): parse once\"");
    assert!(lines[1].starts_with("\"fix(cli): keep "), "{block}");
    assert!(!block.contains("AKIAIOSFODNN7EXAMPLQ"), "{block}");
    assert_eq!(lines[2], "\"feat(cli): add the parser\"");
    // Switched off for the bench: no block.
    let out = r
        .draft_cmd()
        .arg("--print-context")
        .env("JITCOMMIT_SUBJECTS", "off")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!user_part(&text).contains("# Recent subjects"), "{text}");
}

#[test]
fn a_tight_budget_drops_the_recent_subjects_before_the_evidence() {
    let r = subjects_repo();
    let context = |budget: usize| {
        let out = r
            .draft_cmd()
            .args(["--print-context", "--budget-tokens", &budget.to_string()])
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    assert!(context(100_000).contains("# Recent subjects"));
    // The smallest budget whose prompt holds the whole diff of src/cli.rs.
    let text = (800..4000)
        .step_by(25)
        .map(context)
        .find(|t| {
            t.contains("=== user ===")
                && user_part(t).contains(
                    "<evidence source=\"git diff --cached -- src/cli.rs\" trimmed=\"no\">",
                )
        })
        .expect("some budget holds the diff");
    let user = user_part(&text);
    assert!(!user.contains("# Recent subjects"), "{user}");
    assert!(
        user.contains("Collapsed: recent subjects omitted for budget"),
        "{user}"
    );
}
