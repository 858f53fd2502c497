//! `jitcommit bump` through real histories: the next version by the highest bump since
//! the last tag, per-type settings, the 0.x rule, nothing to release, and `--tag`
//! creating an annotated tag with the release notes (refused on a dirty work tree).
#![allow(clippy::unwrap_used)]

use crate::jitcommit_support;

use jitcommit_support::*;
use jitcommit_testkit::{Sandbox, write};

#[test]
fn a_fix_since_the_last_tag_is_a_patch() {
    let sb = Sandbox::new();
    let r = history(&sb);
    let o = r.jc(&["bump"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o), "1.0.1\n");
    let o = r.jc(&["bump", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        v,
        serde_json::json!({"current": "1.0.0", "next": "1.0.1", "tag": "v1.0.1", "level": "patch"})
    );
}

#[test]
fn a_feature_is_minor_and_a_breaking_change_major() {
    let sb = Sandbox::new();
    let r = history(&sb);
    r.commit(
        "src/y.rs",
        "y\n",
        &msg("feat: add y", &[("Add", "src/y.rs", "for z")]),
    );
    assert_eq!(stdout(&r.jc(&["bump"])), "1.1.0\n");
    r.commit(
        "src/y.rs",
        "y2\n",
        &msg("refactor!: rename y", &[("Update", "src/y.rs", "clearer")]),
    );
    assert_eq!(stdout(&r.jc(&["bump"])), "2.0.0\n");
}

#[test]
fn before_1_0_a_breaking_change_is_minor_unless_told_otherwise() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "z");
    r.commit(
        "a.rs",
        "a\n",
        &msg("feat: add a", &[("Add", "a.rs", "first")]),
    );
    r.git(&["tag", "v0.3.0"]);
    r.commit(
        "a.rs",
        "b\n",
        &msg("feat!: change a", &[("Update", "a.rs", "new shape")]),
    );
    assert_eq!(stdout(&r.jc(&["bump"])), "0.4.0\n");
    assert_eq!(
        stdout(&r.jc(&["bump", "--breaking-before-1", "major"])),
        "1.0.0\n"
    );
}

#[test]
fn the_first_release_starts_from_0_0_0() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "z");
    r.commit(
        "a.rs",
        "a\n",
        &msg("feat: add a", &[("Add", "a.rs", "first")]),
    );
    assert!(stdout(&r.jc(&["bump", "--format", "json"])).contains("\"current\":null"));
    assert_eq!(stdout(&r.jc(&["bump"])), "0.1.0\n");
}

#[test]
fn nothing_to_release_exits_1_and_says_why() {
    let sb = Sandbox::new();
    let r = history(&sb);
    r.git(&["tag", "v1.0.1"]);
    r.commit(
        "docs/x.md",
        "x\n",
        &msg("docs: explain x", &[("Add", "docs/x.md", "for readers")]),
    );
    let o = r.jc(&["bump"]);
    assert_eq!(code(&o), 1);
    assert_eq!(stdout(&o), "");
    assert!(
        stderr(&o).contains("nothing to release since v1.0.1: 1 commit"),
        "{}",
        stderr(&o)
    );
    // A type can be told to bump.
    let o = r.jc(&["bump", "--bump-type", "docs=patch"]);
    assert_eq!(stdout(&o), "1.0.2\n", "{}", stderr(&o));
    let o = r.jc(&["bump", "--bump-type", "docs"]);
    assert_eq!(code(&o), 2);
}

#[test]
fn tag_creates_an_annotated_tag_with_the_notes() {
    let sb = Sandbox::new();
    let r = history(&sb);
    let o = sb
        .cmd(bin(), &r.dir)
        .args(["bump", "--tag"])
        .env("SOURCE_DATE_EPOCH", "1770076800")
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o), "1.0.1\n");
    assert_eq!(r.git(&["cat-file", "-t", "v1.0.1"]).trim(), "tag");
    assert_eq!(r.rev("v1.0.1^{commit}"), r.rev("HEAD"));
    let body = r.git(&["tag", "-l", "--format=%(contents)", "v1.0.1"]);
    assert!(
        body.starts_with("## [1.0.1] - 2026-02-03\n\n### Fixed\n\n- **parser:** accept CRLF"),
        "{body}"
    );
    assert!(!body.contains("[1.0.0]"), "{body}");
    let tagger = r.git(&["tag", "-l", "--format=%(taggername)", "v1.0.1"]);
    assert_eq!(tagger.trim(), "C O Mitter");
    // The changelog now has the release.
    let md = stdout(&r.jc(&["changelog"]));
    assert!(md.starts_with("## [1.0.1] - "), "{md}");
    // Nothing left to release.
    assert_eq!(code(&r.jc(&["bump", "--tag"])), 1);
}

#[test]
fn tag_refuses_a_dirty_work_tree() {
    let sb = Sandbox::new();
    let r = history(&sb);
    write(&r.dir, "README.md", "# changed\n");
    let o = r.jc(&["bump", "--tag"]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("uncommitted changes"), "{}", stderr(&o));
    assert!(r.git(&["tag", "-l", "v1.0.1"]).is_empty());
}

/// Issue 28: features with prose bodies (or none) since the last tag bump the minor
/// version under the default convention; they used to be "nothing to release".
#[test]
fn features_with_prose_bodies_bump_the_minor_version() {
    let sb = Sandbox::new();
    let r = adopting(&sb);
    let o = r.jc(&["bump", "--format", "json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["next"], "1.1.0");
    assert_eq!(v["level"], "minor");
}
