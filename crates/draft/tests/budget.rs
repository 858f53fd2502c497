//! The budget composer: property tests on synthetic staged states (never over
//! budget, floors kept or a typed "does not fit", the budget filled or everything
//! held, deterministic, no panic) and boundary tests at the exact fitting budget.

use jitcommit_core::config::{ContextSettings, Convention};
use jitcommit_core::repo::{Change, ChangeKind, FileDiff, Hunk, StagedState};
use jitcommit_drafter::budget::{
    ByteCounter, CHAT_OVERHEAD_TOKENS, DoesNotFit, FILLED_PERCENT, Limits, TokenCounter, compose,
};
use jitcommit_drafter::fragments::{self, LevelState, Piece};
use jitcommit_drafter::prompt::{self, Prompt};
use jitcommit_drafter::redact;
use proptest::prelude::*;

fn conv(budget: usize, reserve: usize, margin: u32) -> Convention {
    Convention {
        types: vec!["feat".into(), "fix".into()],
        verbs: vec!["Add".into(), "Update".into()],
        exempt: vec![],
        sections: Default::default(),
        context: ContextSettings {
            budget_tokens: budget,
            reserve_output_tokens: reserve,
            exclude: vec!["gen/**".into()],
            safety_margin_percent: margin,
            ..ContextSettings::default()
        },
        ..Convention::default()
    }
}

/// Roughly a BPE: a token per 4 bytes, rounded up per call, so sums of pieces are
/// not the count of the whole (the composer must still never overflow).
struct Quarter;
impl TokenCounter for Quarter {
    fn count(&self, text: &str) -> usize {
        text.len().div_ceil(4)
    }
}

fn arb_line() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec!['+', '-', ' ']),
        "[ -~\\t]{0,30}|\\PC{0,12}",
    )
        .prop_map(|(m, s)| format!("{m}{s}"))
}

fn arb_file() -> impl Strategy<Value = FileDiff> {
    let path = prop::sample::select(vec![
        "src/a.rs",
        "src/b/c.rs",
        "tests/t.rs",
        "docs/x.md",
        "Cargo.lock",
        "gen/out.js",
        "README.md",
        ".env",
        "x y/ü.rs",
        "vendor/v.c",
        "app.toml",
    ]);
    let kind = prop::sample::select(vec![
        ChangeKind::Added,
        ChangeKind::Modified,
        ChangeKind::Deleted,
    ]);
    let hunks = prop::collection::vec(prop::collection::vec(arb_line(), 1..30), 0..5);
    (path, kind, hunks, any::<bool>(), 0u8..100).prop_map(|(path, kind, hunks, binary, salt)| {
        let path = format!(
            "{path}{}",
            if salt % 3 == 0 {
                format!(".{salt}")
            } else {
                String::new()
            }
        );
        let hunks: Vec<Hunk> = if binary {
            vec![]
        } else {
            hunks
                .into_iter()
                .enumerate()
                .map(|(i, lines)| Hunk {
                    header: format!(
                        "@@ -{},{} +{},{} @@ fn f{i}()",
                        i * 100 + 1,
                        lines.len(),
                        i * 100 + 1,
                        lines.len()
                    ),
                    body: lines.iter().map(|l| format!("{l}\n")).collect(),
                })
                .collect()
        };
        let added = hunks
            .iter()
            .map(|h| h.body.lines().filter(|l| l.starts_with('+')).count())
            .sum();
        let removed = hunks
            .iter()
            .map(|h| h.body.lines().filter(|l| l.starts_with('-')).count())
            .sum();
        FileDiff {
            change: Change {
                kind,
                path: path.clone().into(),
                old_path: None,
                old_mode: None,
                new_mode: Some(0o100644),
            },
            header: format!("diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n"),
            hunks,
            added,
            removed,
            binary,
            submodule: false,
            linguist: None,
            read: true,
        }
    })
}

fn arb_state() -> impl Strategy<Value = StagedState> {
    (
        prop::collection::vec(arb_file(), 0..25),
        any::<bool>(),
        prop::option::of("[a-z/]{1,12}"),
    )
        .prop_map(|(mut files, initial, branch)| {
            files.sort_by(|a, b| a.change.path.cmp(&b.change.path));
            files.dedup_by(|a, b| a.change.path == b.change.path);
            StagedState {
                branch,
                initial,
                files,
            }
        })
}

/// Many files changed together (a refactor, a vendored update): 40–400 files with
/// one short hunk each under a few directories.
fn arb_wide_state() -> impl Strategy<Value = StagedState> {
    (40usize..400, 1usize..6, 1usize..12).prop_map(|(n, dirs, lines)| {
        let files = (0..n)
            .map(|i| {
                let path = format!("src/mod{}/file_{i:04}.rs", i % dirs);
                let body: String = (0..lines).map(|k| format!("+let v{k} = {i};\n")).collect();
                FileDiff {
                    change: Change {
                        kind: ChangeKind::Added,
                        path: path.clone().into(),
                        old_path: None,
                        old_mode: None,
                        new_mode: Some(0o100644),
                    },
                    header: format!("diff --git a/{path} b/{path}\n"),
                    hunks: vec![Hunk {
                        header: format!("@@ -0,0 +1,{lines} @@"),
                        body,
                    }],
                    added: lines,
                    removed: 0,
                    binary: false,
                    submodule: false,
                    linguist: None,
                    read: true,
                }
            })
            .collect::<Vec<_>>();
        let mut files = files;
        files.sort_by(|a, b| a.change.path.cmp(&b.change.path));
        StagedState {
            branch: Some("main".into()),
            initial: false,
            files,
        }
    })
}

fn total(p: &Prompt, c: &dyn TokenCounter) -> usize {
    c.count(&p.system) + c.count(&p.user) + CHAT_OVERHEAD_TOKENS
}

fn floors_present(p: &Prompt) {
    for h in [
        "# Convention",
        "# Task",
        "# Evidence",
        "source=\"git status --short\"",
        "# Output contract",
        "Omission note",
    ] {
        assert!(p.user.contains(h), "floor {h} missing");
    }
    assert_eq!(p.system, prompt::CORE_INSTRUCTIONS);
}

/// Per fragment: (state, tokens). More budget never gives any fragment less.
fn kept(p: &Prompt) -> Vec<(String, LevelState, usize)> {
    p.report
        .fragments
        .iter()
        .map(|f| (f.id.clone(), f.state, f.tokens))
        .collect()
}

fn build(
    s: &StagedState,
    c: &Convention,
    counter: &dyn TokenCounter,
) -> Result<Prompt, DoesNotFit> {
    prompt::build(s, c, Some("tidy up"), counter)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn never_over_budget_and_floors_kept(s in arb_state(), budget in 0usize..20_000, reserve in 0usize..600, margin in 0u32..15) {
        for counter in [&ByteCounter as &dyn TokenCounter, &Quarter] {
            {
                let c = conv(budget, reserve, margin);
                let lim = Limits::from_settings(&c.context);
                match build(&s, &c, counter) {
                    Ok(p) => {
                        let t = total(&p, counter);
                        prop_assert!(t <= lim.counted_limit(), "{t} > {}", lim.counted_limit());
                        prop_assert!(lim.with_margin(t) <= lim.prompt_tokens());
                        if p.report.exact {
                            prop_assert_eq!(p.report.total, t);
                        } else {
                            prop_assert!(p.report.total >= t, "bytes bound tokens");
                        }
                        floors_present(&p);
                    }
                    Err(e) => {
                        prop_assert_eq!(e.budget, lim.prompt_tokens());
                        prop_assert!(e.needed > e.budget);
                    }
                }
            }
        }
    }

    /// On any change whose floors fit, the prompt holds everything (what an unlimited
    /// budget gives) or uses at least FILLED_PERCENT of the limit: also on wide changes
    /// whose full status list does not fit (the walk used to stop there, leaving the
    /// budget mostly unused).
    #[test]
    fn fills_the_budget_or_holds_everything(s in prop_oneof![arb_state(), arb_wide_state()], budget in 1_500usize..12_000) {
        let c = conv(budget, 0, 0);
        let lim = Limits::from_settings(&c.context);
        if let Ok(p) = build(&s, &c, &ByteCounter) {
            let all = build(&s, &conv(100_000_000, 0, 0), &ByteCounter).unwrap();
            let held: Vec<_> = kept(&p).into_iter().filter(|k| k.0 != "omission-note").collect();
            let everything: Vec<_> = kept(&all).into_iter().filter(|k| k.0 != "omission-note").collect();
            let t = total(&p, &ByteCounter);
            prop_assert!(
                held == everything || t * 100 >= lim.counted_limit() * FILLED_PERCENT,
                "{t} of {} used, and not everything is held", lim.counted_limit()
            );
        }
    }

    /// Files whose hunks are built only when the walk first needs them get the
    /// levels, costs and text that files built whole up front get, and the hunks of
    /// a file left out are never built.
    #[test]
    fn deferred_hunks_change_nothing(s in prop_oneof![arb_state(), arb_wide_state()], budget in 0usize..12_000, fixed in 0usize..800) {
        let classifier = fragments::Classifier::new(&["gen/**".to_string()]);
        let gated = redact::gate_change(&s, None, None);
        let g = gated.state();
        let status = || Piece::new(fragments::status_fragment(g));
        let deferred: Vec<Piece> = std::iter::once(status())
            .chain(g.files().map(|f| Piece::file(f, classifier.classify_gated(f))))
            .collect();
        let whole: Vec<Piece> = std::iter::once(status())
            .chain(g.files().map(|f| {
                Piece::new(fragments::file_fragment(&f.bodies(), classifier.classify_gated(f)))
            }))
            .collect();
        for counter in [&Quarter as &dyn TokenCounter, &ByteCounter] {
            let was: Vec<bool> = deferred.iter().map(Piece::is_deferred).collect();
            let a = compose(&deferred, fixed, budget, counter);
            let b = compose(&whole, fixed, budget, counter);
            prop_assert_eq!(&a, &b);
            if let Ok(sel) = a {
                for (((p, w), &l), &was) in deferred.iter().zip(&whole).zip(&sel.levels).zip(&was) {
                    prop_assert!(l <= 1 || !p.is_deferred(), "level {} of an unbuilt piece", l);
                    prop_assert!(l > 0 || p.is_deferred() == was, "a left-out file was built");
                    prop_assert_eq!(p.fragment().render(l), w.fragment().render(l));
                }
            }
        }
    }

    #[test]
    fn deterministic(s in arb_state(), budget in 0usize..10_000) {
        let c = conv(budget, 100, 5);
        let a = build(&s, &c, &Quarter);
        let b = build(&s, &c, &Quarter);
        prop_assert_eq!(a, b);
    }

    #[test]
    fn no_panic_on_arbitrary_text(body in "\\PC*|[\\x00-\\x7f]*", header in "\\PC{0,40}", path in "\\PC{1,20}") {
        let f = FileDiff {
            change: Change { kind: ChangeKind::Modified, path: path.into(), old_path: Some("o".into()), old_mode: None, new_mode: None },
            header,
            hunks: vec![Hunk { header: "@@".into(), body }],
            added: 3,
            removed: 9,
            binary: false,
            submodule: false,
            linguist: None,
            read: true,
        };
        let s = StagedState { branch: None, initial: false, files: vec![f] };
        for b in [0, 500, 2_000, 100_000] {
            let _ = build(&s, &conv(b, 0, 0), &Quarter);
        }
    }
}

fn fixed_state() -> StagedState {
    let lines: Vec<String> = (0..120)
        .map(|i| format!("+line {i} of the new module\n"))
        .collect();
    let f = |path: &str, hunks: usize| FileDiff {
        change: Change {
            kind: ChangeKind::Modified,
            path: path.into(),
            old_path: None,
            old_mode: None,
            new_mode: None,
        },
        header: format!("diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n"),
        hunks: (0..hunks)
            .map(|i| Hunk {
                header: format!("@@ -{i} +{i} @@"),
                body: lines.concat(),
            })
            .collect(),
        added: 120 * hunks,
        removed: 0,
        binary: false,
        submodule: false,
        linguist: None,
        read: true,
    };
    StagedState {
        branch: Some("main".into()),
        initial: false,
        files: vec![f("docs/a.md", 1), f("src/a.rs", 3), f("tests/a.rs", 2)],
    }
}

/// The smallest budget at which `pred` holds (monotone in the budget).
fn smallest(pred: impl Fn(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (0usize, 1_000_000usize);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if pred(mid) { hi = mid } else { lo = mid + 1 }
    }
    lo
}

#[test]
fn boundary_of_the_whole_prompt() {
    let s = fixed_state();
    let everything = |b: usize| {
        build(&s, &conv(b, 0, 0), &Quarter).is_ok_and(|p| {
            p.report
                .fragments
                .iter()
                .all(|f| f.state != LevelState::Trimmed && f.state != LevelState::Omitted)
        })
    };
    let b = smallest(everything);
    assert!(!everything(b - 1));
    assert!(everything(b));
    assert!(everything(b + 1));
    let at = build(&s, &conv(b, 0, 0), &Quarter).expect("fits");
    assert!(at.report.total <= b);
    let below = build(&s, &conv(b - 1, 0, 0), &Quarter).expect("fits");
    assert!(
        below.user.contains("trimmed=\"yes\"") || below.user.contains("stat line kept"),
        "a cut is named"
    );
    assert!(below.user.contains("Omission note: for budget"));
}

#[test]
fn boundary_of_the_floors() {
    let s = fixed_state();
    let fits = |b: usize| build(&s, &conv(b, 0, 0), &Quarter).is_ok();
    let b = smallest(fits);
    let err = build(&s, &conv(b - 1, 0, 0), &Quarter).expect_err("does not fit");
    assert_eq!(
        err,
        DoesNotFit {
            needed: b,
            budget: b - 1
        }
    );
    let p = build(&s, &conv(b, 0, 0), &Quarter).expect("fits");
    assert!(p.report.total <= b);
    floors_present(&p);
    // At the floor the status is in its smallest form; for three files that is the
    // list itself (the summary line would be longer and is dropped from the ladder).
    assert!(
        p.user
            .contains("M  docs/a.md\nM  src/a.rs\nM  tests/a.rs\n"),
        "{}",
        p.user
    );
    assert!(fits(b + 1));
}

#[test]
fn status_degrades_to_directories_then_summary() {
    let files: Vec<FileDiff> = (0..500)
        .map(|i| {
            let path = format!("pkg{}/module_{i:04}/file_name_{i}.rs", i % 9);
            FileDiff {
                change: Change {
                    kind: ChangeKind::Added,
                    path: path.clone().into(),
                    old_path: None,
                    old_mode: None,
                    new_mode: None,
                },
                header: format!("diff --git a/{path} b/{path}\n"),
                hunks: vec![Hunk {
                    header: "@@ -0,0 +1 @@".into(),
                    body: "+x\n".into(),
                }],
                added: 1,
                removed: 0,
                binary: false,
                submodule: false,
                linguist: None,
                read: true,
            }
        })
        .collect();
    let s = StagedState {
        branch: None,
        initial: true,
        files,
    };
    let p = build(&s, &conv(4_096, 512, 0), &Quarter).expect("fits");
    assert!(
        p.user
            .contains("trimmed=\"collapsed to per-directory counts\"")
            || p.user
                .contains("trimmed=\"collapsed to a one-line summary\"")
    );
    assert!(p.user.contains("Collapsed: status"));
    let q = build(&s, &conv(200_000, 512, 0), &Quarter).expect("fits");
    assert!(q.user.contains("A  pkg0/module_0000/file_name_0.rs\n"));
}

#[test]
fn margin_and_reserve_shrink_the_limit() {
    let l = Limits {
        budget_tokens: 4096,
        reserve_output_tokens: 512,
        safety_margin_percent: 10,
    };
    assert_eq!(l.prompt_tokens(), 3584);
    assert_eq!(l.counted_limit(), 3258); // 3258 × 1.10 = 3583.8 ≤ 3584 < 3259 × 1.10
    assert_eq!(l.with_margin(3258), 3584);
    assert_eq!(l.with_margin(3259), 3585);
    let l = Limits {
        budget_tokens: 100,
        reserve_output_tokens: 500,
        safety_margin_percent: 0,
    };
    assert_eq!(l.counted_limit(), 0);
}

/// A hunk body that does not start with a diff sign, and starts with a multi-byte
/// character, is evidence like any other (the offline structure once sliced it at
/// byte 1 and panicked).
#[test]
fn a_body_starting_with_a_multibyte_character_builds() {
    let f = FileDiff {
        change: Change {
            kind: ChangeKind::Modified,
            path: "a".into(),
            old_path: None,
            old_mode: None,
            new_mode: None,
        },
        header: String::new(),
        hunks: vec![Hunk {
            header: "@@".into(),
            body: "¡\n+¿pub fn x() {}\n-é\n".into(),
        }],
        added: 1,
        removed: 1,
        binary: false,
        submodule: false,
        linguist: None,
        read: true,
    };
    let s = StagedState {
        branch: None,
        initial: false,
        files: vec![f],
    };
    assert!(build(&s, &conv(8_000, 0, 0), &ByteCounter).is_ok());
}
