//! The offline draft over real repositories' attributes: what `.gitattributes` says
//! about a file steers the draft as it steers the prompt.
#![allow(clippy::unwrap_used)]

use jitcommit_core::repo::{GitEnv, Repo};
use jitcommit_testkit::{Sandbox, write};

/// The offline draft treats a `linguist-generated` or `linguist-vendored` file as the
/// prompt does, a stat line: its bullet carries no item from its hunks, and it steers
/// neither the type nor the summary while another file changes (a generated parser
/// with a new public function beside a docs edit is a `docs` change about the docs);
/// such files alone are a `chore`.
#[test]
fn offline_draft_shows_linguist_files_as_stat_lines() {
    use jitcommit_core::config::Convention;
    use jitcommit_core::message::render;
    use jitcommit_drafter::offline;
    let sb = Sandbox::new();
    let r = sb.init("r");
    write(
        &r,
        ".gitattributes",
        "gen/** linguist-generated\nthird/** linguist-vendored\n",
    );
    write(&r, "gen/parser.rs", "pub fn parse() {}\n");
    write(&r, "third/lib.rs", "pub fn vendored() {}\n");
    write(&r, "docs/guide.md", "# Guide\n\nOld words.\n");
    sb.git(&r, &["add", "-A"]);
    sb.git(&r, &["commit", "-q", "-m", "base"]);
    let mut generated = String::from("pub fn parse() {}\n");
    for i in 0..30 {
        generated.push_str(&format!(
            "pub fn generated_rule_{i}(x: u8) -> u8 {{\n    x\n}}\n"
        ));
    }
    write(&r, "gen/parser.rs", &generated);
    write(&r, "docs/guide.md", "# Guide\n\nNew words.\n");
    sb.git(&r, &["add", "-A"]);
    let draft = || {
        let repo = Repo::discover_with(&r, &GitEnv::default()).unwrap();
        let state = repo.staged().unwrap();
        render(&offline::draft(&state, &Convention::default()).unwrap())
    };
    let text = draft();
    let subject = text.lines().next().unwrap();
    assert!(subject.starts_with("docs"), "{text}");
    assert!(subject.contains("guide.md"), "{text}");
    assert!(!text.contains("generated_rule"), "{text}");
    assert!(
        text.contains("- Update: gen/parser.rs — generated file, +90 −0 lines;"),
        "{text}"
    );

    sb.git(&r, &["commit", "-q", "-m", "docs"]);
    write(
        &r,
        "third/lib.rs",
        "pub fn vendored() {}\npub fn newer() {}\n",
    );
    sb.git(&r, &["add", "-A"]);
    let text = draft();
    assert!(text.starts_with("chore(third): update lib.rs\n"), "{text}");
    assert!(
        text.contains("- Update: third/lib.rs — vendored file, +1 −0 lines;"),
        "{text}"
    );
}
