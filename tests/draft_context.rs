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
    let out = r
        .draft_cmd()
        .args(["--print-context", "--intent", "say hello to new users"])
        .output()
        .unwrap();
    assert_ok(&out, "--print-context");
    let text = String::from_utf8(out.stdout).unwrap();
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
