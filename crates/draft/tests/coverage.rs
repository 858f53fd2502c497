//! `rules::check` with `coverage = true` (coverage and verb/status agreement on) against staged
//! sets made by real git: the offline draft always covers what is staged, with verbs that
//! agree, and a draft that drops a path or misnames a status is caught.
#![allow(clippy::unwrap_used)]

use std::path::Path;

use jitcommit_core::config::Convention;
use jitcommit_core::message::{Target, render};
use jitcommit_core::repo::{GitEnv, Repo};
use jitcommit_core::rules::{self, ChangedPaths};
use jitcommit_drafter::offline;
use jitcommit_testkit::{Rng, Sandbox, write};

fn findings_of_draft(
    r: &Path,
    edit: impl FnOnce(&mut jitcommit_core::message::Message),
) -> Vec<(String, String)> {
    let repo = Repo::discover_with(r, &GitEnv::default()).unwrap();
    let state = repo.staged().unwrap();
    let conv = Convention::default();
    let changes: Vec<_> = state.files.iter().map(|f| f.change.clone()).collect();
    let changed = ChangedPaths::new(&changes);
    let mut m = offline::draft(&state, &conv).unwrap();
    edit(&mut m);
    rules::check(&render(&m), &with_coverage(conv), Some(&changed))
        .into_iter()
        .filter(|f| f.rule() != "placeholder")
        .map(|f| (f.rule().to_owned(), f.message()))
        .collect()
}

fn seeded(sb: &Sandbox) -> std::path::PathBuf {
    let r = sb.init("r");
    for i in 0..8 {
        write(
            &r,
            &format!("src/m{i}.rs"),
            format!("pub fn f{i}() {{\n    {i}\n}}\n"),
        );
    }
    write(
        &r,
        "docs/a.md",
        "# a\n\nsome text that is long enough to pair\n",
    );
    sb.git(&r, &["add", "."]);
    sb.git(&r, &["commit", "-qm", "start"]);
    r
}

#[test]
fn the_offline_draft_covers_every_staged_path_with_agreeing_verbs() {
    let sb = Sandbox::new();
    let r = seeded(&sb);
    write(&r, "src/m0.rs", "pub fn f0() {\n    99\n}\n");
    write(&r, "src/new.rs", "pub fn new() {}\n");
    sb.git(&r, &["rm", "-q", "src/m1.rs"]);
    sb.git(&r, &["mv", "docs/a.md", "docs/b.md"]);
    sb.git(&r, &["add", "."]);
    assert_eq!(findings_of_draft(&r, |_| {}), vec![]);
}

#[test]
fn the_offline_draft_of_many_files_covers_them_through_directories() {
    let sb = Sandbox::new();
    let r = seeded(&sb);
    let mut rng = Rng(7);
    for i in 0..300 {
        let d = rng.below(70);
        write(
            &r,
            &format!("gen/d{d}/e{}/f{i}.txt", i % 3),
            format!("{i}\n"),
        );
    }
    write(&r, "src/m2.rs", "pub fn f2() {}\n");
    sb.git(&r, &["add", "."]);
    assert_eq!(findings_of_draft(&r, |_| {}), vec![]);
}

#[test]
fn a_dropped_path_and_a_wrong_verb_are_caught() {
    let sb = Sandbox::new();
    let r = seeded(&sb);
    write(&r, "src/m0.rs", "pub fn f0() {\n    99\n}\n");
    write(&r, "src/new.rs", "pub fn new() {}\n");
    sb.git(&r, &["add", "."]);
    let got = findings_of_draft(&r, |m| {
        m.bullets
            .retain(|b| b.target != Target::Path("src/new.rs".into()));
        m.bullets[0].verb = "Add".into();
    });
    assert_eq!(
        got,
        vec![
            (
                "bullet-coverage".to_owned(),
                "1 changed path is named by no bullet: src/new.rs".to_owned()
            ),
            (
                "bullet-status".to_owned(),
                "\"Add\" says src/m0.rs is new, but it is modified".to_owned()
            ),
        ]
    );
}

#[test]
fn check_ignores_coverage_unless_the_convention_asks() {
    let changed = ChangedPaths::from_paths(["a.rs", "b.rs"]);
    let text = "fix: a\n\n- Add: a.rs — why\n";
    let conv = Convention::default();
    assert!(rules::check(text, &conv, Some(&changed)).is_empty());
    // Plain paths carry no statuses: nothing to compare, nothing claimed.
    assert!(rules::check(text, &with_coverage(conv), Some(&changed)).is_empty());
}

fn with_coverage(conv: Convention) -> Convention {
    Convention {
        coverage: true,
        ..conv
    }
}
