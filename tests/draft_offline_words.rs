//! Issue 45, "the offline summary says what changed", through the real hook and real
//! git with no model: a dependency bump names the dependency and its versions, a
//! workflow pin bump names the action, a move names both places, and a Markdown link
//! in a new heading is its words, never its URL.
#![allow(clippy::unwrap_used)]

use crate::draft_support;
use draft_support::*;

/// Writes and stages `rel`.
fn stage(r: &Repo, rel: &str, text: &str) {
    write(&r.dir, rel, text);
    r.git(&["add", rel]);
}

/// The subject the hook drafted for the staged change (what the editor was shown).
fn drafted(r: &Repo) -> String {
    r.ok(&["commit"]);
    let shown = r.shown();
    shown.last().unwrap().lines().next().unwrap().to_owned()
}

const PYPROJECT: &str = "[project]\nname = \"r\"\nversion = \"1.0.0\"\ndependencies = [\n  \"httpx ~= 0.27\",\n  \"rich ~= 14.0\",\n]\n";

const UV_LOCK: &str = "version = 1\n\n[[package]]\nname = \"httpx\"\nversion = \"0.27.2\"\nsource = { registry = \"https://pypi.org/simple\" }\n\n[[package]]\nname = \"rich\"\nversion = \"14.0.0\"\nsource = { registry = \"https://pypi.org/simple\" }\n";

#[test]
fn a_dependency_bump_names_the_dependency_and_its_versions() {
    let r = Repo::new();
    stage(&r, "pyproject.toml", PYPROJECT);
    stage(&r, "uv.lock", UV_LOCK);
    r.ok(&["commit"]);
    stage(
        &r,
        "pyproject.toml",
        &PYPROJECT.replace("rich ~= 14.0", "rich ~= 15.0"),
    );
    stage(&r, "uv.lock", &UV_LOCK.replace("14.0.0", "15.0.1"));
    let subject = drafted(&r);
    assert_eq!(
        subject,
        "build: bump rich from 14.0 to 15.0",
        "{:?}",
        r.shown()
    );
    // The lock file alone: its packages, with the versions it pins.
    stage(
        &r,
        "uv.lock",
        &UV_LOCK
            .replace("14.0.0", "15.0.1")
            .replace("0.27.2", "0.28.1"),
    );
    assert!(
        drafted(&r).ends_with(": bump httpx from 0.27.2 to 0.28.1"),
        "{:?}",
        r.shown()
    );
}

#[test]
fn a_workflow_pin_bump_names_the_action_and_a_move_both_places() {
    let r = Repo::new();
    let workflow = "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: cargo test\n";
    stage(&r, ".github/workflows/ci.yml", workflow);
    r.ok(&["commit"]);
    stage(
        &r,
        ".github/workflows/ci.yml",
        &workflow.replace("checkout@v4", "checkout@v5"),
    );
    assert_eq!(drafted(&r), "ci: bump actions/checkout from 4 to 5");
    stage(&r, "notes/plan.md", "# Plan\n\nShip it.\n");
    r.ok(&["commit"]);
    std::fs::create_dir_all(r.dir.join("docs")).unwrap();
    r.git(&["mv", "notes/plan.md", "docs/plan.md"]);
    let subject = drafted(&r);
    assert!(
        subject.ends_with(": move notes/plan.md to docs/plan.md"),
        "{subject}"
    );
}

#[test]
fn a_link_in_a_new_heading_is_its_words_never_its_url() {
    let r = Repo::new();
    stage(
        &r,
        "docs/guide.md",
        "# Guide\n\n## [Get Started](https://example.com/start)\n\nRun it.\n",
    );
    let subject = drafted(&r);
    assert!(subject.ends_with(": add Get Started"), "{subject}");
    assert!(
        !subject.contains("://") && !subject.contains("]("),
        "{subject}"
    );
}
