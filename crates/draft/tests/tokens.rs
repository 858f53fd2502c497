//! bpe-openai gives tiktoken's exact token ids; newline-aligned fragments add up
//! to the whole; a prompt built with the real BPE is within budget by its own count.

use jitcommit_core::config::{ContextSettings, Convention, Encoding};
use jitcommit_core::repo::{Change, ChangeKind, FileDiff, Hunk, StagedState};
use jitcommit_drafter::budget::{CHAT_OVERHEAD_TOKENS, Limits, TokenCounter};
use jitcommit_drafter::fragments::{self, Classifier};
use jitcommit_drafter::tokens::BpeCounter;
use jitcommit_drafter::{prompt, redact};
use jitcommit_testkit::XorShift;
use proptest::prelude::*;

fn tiktoken(e: Encoding) -> &'static tiktoken_rs::CoreBPE {
    match e {
        Encoding::Cl100k => tiktoken_rs::cl100k_base_singleton(),
        Encoding::O200k => tiktoken_rs::o200k_base_singleton(),
    }
}

/// A unified diff of `bytes` bytes with code, prose, numbers, tabs, CRLF and non-ASCII.
pub fn generated_diff(seed: u64, bytes: usize) -> String {
    let mut r = XorShift(seed | 1);
    let words = [
        "fn",
        "let",
        "mut",
        "self",
        "return",
        "impl",
        "struct",
        "HashMap",
        "Vec<u8>",
        "0x1F",
        "12345",
        "::",
        "=>",
        "{",
        "}",
        "(",
        ");",
        "// TODO",
        "naïve",
        "größe",
        "日本語",
        "émoji 🦀",
        "\t",
        "  ",
        "\"str\"",
        "'c'",
        "\r",
    ];
    let mut s = String::new();
    let mut file = 0;
    while s.len() < bytes {
        file += 1;
        s.push_str(&format!("diff --git a/src/m{file}.rs b/src/m{file}.rs\nindex abc1234..def5678 100644\n--- a/src/m{file}.rs\n+++ b/src/m{file}.rs\n@@ -1,20 +1,22 @@ impl Thing\n"));
        for _ in 0..(r.next_u64() % 40 + 5) {
            s.push(['+', '-', ' '][(r.next_u64() % 3) as usize]);
            for _ in 0..(r.next_u64() % 12) {
                let word = *r.pick(&words);
                s.push_str(word);
                s.push(' ');
            }
            s.push('\n');
        }
    }
    s
}

#[test]
fn same_ids_as_tiktoken() {
    // Runs of letters are one pretokenizer piece: BPE's worst case. tiktoken-rs 0.9
    // panics (fancy-regex backtrack limit) on 1 MB of one ASCII letter and is
    // quadratic on a long mixed run (minutes for 1 MB), so the oracle sees 64 KB
    // runs here; the 1 MB text is the generated diff, and the benchmark times
    // bpe-openai on the 1 MB runs.
    let mixed_letters: String = (0..40_000)
        .map(|i| ['x', 'ß', 'Q', 'ж', 'e'][i % 5])
        .collect();
    let letters: String = std::iter::repeat_n("a", 1 << 16).collect();
    let texts = [
        String::new(),
        "hello world".into(),
        "  leading spaces\n\n\ntrailing   \n".into(),
        "CRLF line\r\nnext\r\n".into(),
        "日本語のテキストと emoji 🦀🦀 and numbers 1234567890".into(),
        "'s 're 've 'll 'd I'M YOU'RE".into(),
        "\t\t\tindent\n \n  \n".into(),
        prompt::CORE_INSTRUCTIONS.into(),
        generated_diff(7, 1 << 20),
        letters,
        mixed_letters,
    ];
    let check = move || {
        for e in [Encoding::Cl100k, Encoding::O200k] {
            let ours = BpeCounter::new(e);
            // BpeCounter takes the static cl100k tables where they answer
            // (tests/cl100k.rs); bpe-openai, the fallback, is checked on every text.
            let full = match e {
                Encoding::Cl100k => bpe_openai::cl100k_base(),
                Encoding::O200k => bpe_openai::o200k_base(),
            };
            for t in &texts {
                let theirs = tiktoken(e).encode_ordinary(t);
                assert_eq!(full.encode(t.as_str()), theirs, "bpe-openai, {e:?}");
                assert_eq!(
                    ours.encode(t),
                    theirs,
                    "{e:?} on {:?}",
                    t.chars().take(40).collect::<String>()
                );
                assert_eq!(ours.count(t), theirs.len());
            }
        }
    };
    check();
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]
    #[test]
    fn same_count_as_tiktoken_on_arbitrary_text(t in "\\PC{0,200}|[ \\t\\r\\na-z0-9'.]{0,200}") {
        for e in [Encoding::Cl100k, Encoding::O200k] {
            prop_assert_eq!(BpeCounter::new(e).count(&t), tiktoken(e).encode_ordinary(&t).len());
        }
    }

    /// The composer refuses a step by this bound without counting it: it must never
    /// be above the count.
    #[test]
    fn the_lower_bound_is_never_above_the_count(t in "\\PC{0,200}|[ \\t\\r\\na-z0-9'./|+-]{0,200}") {
        for e in [Encoding::Cl100k, Encoding::O200k] {
            let c = BpeCounter::new(e);
            prop_assert!(c.at_least(&t) <= c.count(&t), "{:?} {:?}", e, t);
        }
    }

    /// The composer's assumption: pieces that end in a newline, followed by pieces
    /// that start with a non-blank character, count the same apart as together.
    #[test]
    fn newline_aligned_pieces_add_up(pieces in prop::collection::vec("[^\\s/][^\\n]{0,40}(\\n[^\\s][^\\n]{0,30}){0,3}\\n\\n?", 1..8)) {
        for e in [Encoding::Cl100k, Encoding::O200k] {
            let c = BpeCounter::new(e);
            let whole: String = pieces.concat();
            let sum: usize = pieces.iter().map(|p| c.count(p)).sum();
            prop_assert_eq!(c.count(&whole), sum, "{:?}", pieces);
        }
    }
}

#[test]
fn rendered_fragments_add_up_on_a_generated_diff() {
    // Real fragment pieces (hunks split every 40 lines) of a generated diff.
    let diff = generated_diff(3, 300_000);
    let mut files = Vec::new();
    for (i, chunk) in diff.split("diff --git ").skip(1).enumerate() {
        let (head, body) = chunk
            .split_once("@@ -1,20 +1,22 @@ impl Thing\n")
            .unwrap_or((chunk, ""));
        files.push(FileDiff {
            change: Change {
                kind: ChangeKind::Modified,
                path: format!("src/m{i}.rs").into(),
                old_path: None,
                old_mode: None,
                new_mode: None,
            },
            header: format!("diff --git {head}"),
            hunks: vec![Hunk {
                header: "@@ -1,20 +1,22 @@ impl Thing".into(),
                body: body.into(),
            }],
            added: 1,
            removed: 1,
            binary: false,
            submodule: false,
            linguist: None,
            read: true,
        });
    }
    let c = BpeCounter::new(Encoding::Cl100k);
    let cl = Classifier::new(&[]);
    let state = StagedState {
        branch: None,
        initial: false,
        files,
    };
    let gated = redact::gate_change(&state, None, None);
    for f in gated.state().files() {
        let fr = fragments::file_fragment(&f.bodies(), cl.classify_gated(f));
        for l in 0..fr.levels.len() {
            let level = &fr.levels[l];
            let head = if level.pieces > 0 {
                c.count(&fr.head)
            } else {
                0
            };
            let parts = c.count(&level.open)
                + head
                + fr.body[..level.pieces]
                    .iter()
                    .map(|p| c.count(p))
                    .sum::<usize>()
                + c.count(&level.tail);
            assert_eq!(c.count(&fr.render(l)), parts, "{} level {l}", fr.id);
        }
    }
}

fn conv(budget: usize, margin: u32, e: Encoding) -> Convention {
    Convention {
        types: vec!["feat".into(), "fix".into(), "docs".into(), "test".into()],
        verbs: vec!["Add".into(), "Update".into(), "Fix".into(), "Remove".into()],
        exempt: vec![],
        sections: Default::default(),
        context: ContextSettings {
            budget_tokens: budget,
            encoding: e,
            safety_margin_percent: margin,
            ..ContextSettings::default()
        },
        ..Convention::default()
    }
}

/// A staged state of `n` files cut from a generated diff.
pub fn staged(n: usize, bytes: usize) -> StagedState {
    let diff = generated_diff(11, bytes);
    let chunks: Vec<&str> = diff.split("diff --git ").skip(1).collect();
    let files = (0..n)
        .map(|i| {
            let chunk = chunks[i % chunks.len()];
            let body = chunk.split_once("impl Thing\n").map_or("", |(_, b)| b);
            let dir = ["src", "tests", "docs"][i % 3];
            let path = format!("{dir}/f{i:05}.rs");
            FileDiff {
                change: Change {
                    kind: ChangeKind::Modified,
                    path: path.clone().into(),
                    old_path: None,
                    old_mode: None,
                    new_mode: None,
                },
                header: format!("diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n"),
                hunks: vec![Hunk {
                    header: "@@ -1,20 +1,22 @@ impl Thing".into(),
                    body: body.into(),
                }],
                added: body.lines().filter(|l| l.starts_with('+')).count(),
                removed: body.lines().filter(|l| l.starts_with('-')).count(),
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
}

#[test]
fn real_bpe_prompt_is_within_budget() {
    for e in [Encoding::Cl100k, Encoding::O200k] {
        let c = BpeCounter::new(e);
        for (n, bytes) in [(1, 4_000), (40, 100_000), (500, 300_000)] {
            let s = staged(n, bytes);
            for budget in [2_048, 4_096, 8_192, 32_768] {
                for margin in [0, 10] {
                    let cv = conv(budget, margin, e);
                    let lim = Limits::from_settings(&cv.context);
                    if let Ok(g) = prompt::build(&s, &cv, Some("speed"), &c) {
                        let t = c.count(&g.system) + c.count(&g.user) + CHAT_OVERHEAD_TOKENS;
                        assert!(t <= lim.counted_limit(), "{e:?} {n} {budget}: {t}");
                        if g.report.exact {
                            assert_eq!(g.report.total, t);
                        } else {
                            assert!(g.report.total >= t);
                        }
                    }
                }
            }
        }
    }
}

/// The BPE counter without its lower bound: the composer must choose the same.
struct NoBound(BpeCounter);

impl TokenCounter for NoBound {
    fn count(&self, text: &str) -> usize {
        self.0.count(text)
    }
}

#[test]
fn the_lower_bound_changes_no_prompt() {
    let c = BpeCounter::new(Encoding::Cl100k);
    let plain = NoBound(BpeCounter::new(Encoding::Cl100k));
    let mut bounded_steps = 0;
    for (n, bytes) in [(1, 4_000), (40, 100_000), (500, 300_000), (2_000, 400_000)] {
        let s = staged(n, bytes);
        for budget in [2_048, 4_096, 8_192, 32_768] {
            let cv = conv(budget, 10, Encoding::Cl100k);
            let with = prompt::build(&s, &cv, Some("speed"), &c);
            let without = prompt::build(&s, &cv, Some("speed"), &plain);
            match (with, without) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(a.user, b.user, "{n} files, budget {budget}");
                    assert_eq!(a.report, b.report, "{n} files, budget {budget}");
                    bounded_steps += usize::from(n >= 500);
                }
                (a, b) => assert_eq!(a.is_ok(), b.is_ok(), "{n} files, budget {budget}"),
            }
        }
    }
    assert!(bounded_steps > 0, "the large changes were composed");
}

#[test]
fn small_change_needs_no_tokenizer() {
    let s = staged(1, 500);
    let cv = conv(100_000, 0, Encoding::Cl100k);
    let p = prompt::build(&s, &cv, None, &BpeCounter::new(Encoding::Cl100k)).expect("fits");
    assert!(!p.report.exact, "bytes prove the fit; no count needed");
    let real = BpeCounter::new(Encoding::Cl100k);
    assert!(real.count(&p.system) + real.count(&p.user) + CHAT_OVERHEAD_TOKENS <= p.report.total);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// A file not read yet has a stat level built from its path alone, by which the
    /// composer may refuse it before reading it: that level is never above the real
    /// file's first level, in bytes and by the counter's lower bound, whatever its
    /// counts, binary content, status and class, so a file refused unread would have
    /// been refused read.
    #[test]
    fn an_unread_files_stat_level_is_a_lower_bound(
        path in "[a-zA-Zäß検 _./<>\"-]{1,12}(\\.rs|\\.md|\\.lock|\\.png|/x)?",
        added in 0usize..300,
        removed in 0usize..300,
        binary in proptest::bool::ANY,
        kind in 0u8..4,
    ) {
        let (kind, old) = match kind {
            0 => (ChangeKind::Modified, None),
            1 => (ChangeKind::Added, None),
            2 => (ChangeKind::Deleted, None),
            _ => (ChangeKind::Renamed, Some("old/ä name.rs")),
        };
        let body: String = (0..added).map(|i| format!("+a{i}\n"))
            .chain((0..removed).map(|i| format!("-r{i}\n")))
            .collect();
        let real = FileDiff {
            change: Change {
                kind,
                path: path.as_str().into(),
                old_path: old.map(Into::into),
                old_mode: Some(0o100644),
                new_mode: Some(0o100644),
            },
            header: format!("diff --git a/{path} b/{path}\n"),
            hunks: if binary || added + removed == 0 {
                Vec::new()
            } else {
                vec![Hunk { header: "@@ -1 +1 @@".into(), body }]
            },
            added: if binary { 0 } else { added },
            removed: if binary { 0 } else { removed },
            binary,
            submodule: false,
            linguist: None,
            read: true,
        };
        let unread = FileDiff {
            header: String::new(),
            hunks: Vec::new(),
            added: 0,
            removed: 0,
            binary: false,
            read: false,
            ..real.clone()
        };
        let classifier = Classifier::new(&[]);
        let never = |_: usize| -> Option<FileDiff> { None };
        let state = StagedState { branch: None, initial: false, files: vec![real, unread] };
        let change = redact::gate_change(&state, None, Some(&never));
        let (real, unread) = (change.state().files().next().unwrap(), change.state().files().nth(1).unwrap());
        let read_piece = fragments::Piece::file(real, classifier.classify_gated(real));
        let unread_piece = fragments::Piece::unread(unread, 1, classifier.classify_gated(unread), &change);
        prop_assert!(unread_piece.is_unread());
        let (lower, actual) = (unread_piece.fragment().render(1), read_piece.fragment().render(1));
        prop_assert!(lower.len() <= actual.len(), "{:?} {:?}", lower, actual);
        prop_assert!(unread_piece.full_bytes_lower_bound() <= read_piece.whole().max_bytes());
        for e in [Encoding::Cl100k, Encoding::O200k] {
            let c = BpeCounter::new(e);
            prop_assert!(c.at_least(&lower) <= c.at_least(&actual), "{:?} {:?} {:?}", e, lower, actual);
        }
    }
}
