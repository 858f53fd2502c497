//! Tokenizer and composer benchmark (harness = false): prints figures and ratios
//! measured in this one run. Reproduce with the command in docs/tokenizer.md.

use std::hint::black_box;
use std::time::{Duration, Instant};

use jitcommit_core::config::{ContextSettings, Convention, Encoding};
use jitcommit_core::repo::{Change, ChangeKind, FileDiff, Hunk, StagedState};
use jitcommit_drafter::budget::TokenCounter;
use jitcommit_drafter::prompt;
use jitcommit_drafter::tokens::BpeCounter;
use jitcommit_testkit::XorShift;

/// `n` files of about `bytes / n` bytes each, fixed seed.
fn staged(n: usize, bytes: usize) -> StagedState {
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
        "\t",
        "  ",
        "\"str\"",
        "'c'",
    ];
    let mut r = XorShift(0x5eed);
    let per = bytes / n;
    let mut files: Vec<FileDiff> = (0..n)
        .map(|i| {
            let path = format!("{}/mod{:03}/f{i:05}.rs", ["src", "tests", "docs", "crates/x/src"][i % 4], i % 50);
            let mut hunks = Vec::new();
            let mut size = 0;
            while size < per {
                let mut body = String::new();
                for _ in 0..(r.next_u64() % 30 + 5) {
                    body.push(['+', '-', ' '][(r.next_u64() % 3) as usize]);
                    for _ in 0..(r.next_u64() % 10) {
                        body.push_str(words[(r.next_u64() % words.len() as u64) as usize]);
                        body.push(' ');
                    }
                    body.push('\n');
                }
                size += body.len();
                hunks.push(Hunk { header: format!("@@ -{0},9 +{0},9 @@ fn f()", hunks.len() * 50 + 1), body });
            }
            FileDiff {
                change: Change { kind: ChangeKind::Modified, path: path.clone().into(), old_path: None, old_mode: None, new_mode: None },
                header: format!("diff --git a/{path} b/{path}\nindex 1234567..89abcde 100644\n--- a/{path}\n+++ b/{path}\n"),
                hunks,
                added: 10,
                removed: 5,
                binary: false,
                submodule: false,
                linguist: None,
                read: true,
            }
        })
        .collect();
    files.sort_by(|a, b| a.change.path.cmp(&b.change.path));
    StagedState {
        branch: Some("main".into()),
        initial: false,
        files,
    }
}

fn conv(budget: usize) -> Convention {
    let builtin = Convention::default();
    Convention {
        // The built-in types without `style`.
        types: builtin.types[..10].to_vec(),
        exempt: vec![],
        sections: Default::default(),
        context: ContextSettings {
            budget_tokens: budget,
            safety_margin_percent: 0,
            ..ContextSettings::default()
        },
        ..builtin
    }
}

/// Median of `runs` timings.
fn time(runs: usize, mut f: impl FnMut()) -> Duration {
    let mut v: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    v.sort();
    v[runs / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    // Tokenizer init: the first call loads the tables (once per process, as in a hook run).
    let t = Instant::now();
    let ours = BpeCounter::new(Encoding::Cl100k);
    black_box(ours.count("warm up"));
    let bpe_init = t.elapsed();
    let t = Instant::now();
    let tk = tiktoken_rs::cl100k_base_singleton();
    black_box(tk.encode_ordinary("warm up"));
    let tk_init = t.elapsed();
    println!(
        "init cl100k: bpe-openai {:.1} ms, tiktoken-rs {:.1} ms, ratio tiktoken/bpe {:.2}",
        ms(bpe_init),
        ms(tk_init),
        ms(tk_init) / ms(bpe_init)
    );

    let diff: String = {
        let s = staged(500, 1 << 20);
        s.files
            .iter()
            .map(|f| {
                format!(
                    "{}{}",
                    f.header,
                    f.hunks
                        .iter()
                        .map(|h| format!("{}\n{}", h.header, h.body))
                        .collect::<String>()
                )
            })
            .collect()
    };
    let letters: String = std::iter::repeat_n("a", 1 << 20).collect();
    let mixed: String = (0..3 << 18)
        .map(|i| ['x', 'ß', 'Q', 'ж', 'e'][i % 5])
        .collect();
    let mixed_256k: String = mixed.chars().take(3 << 16).collect();
    for (name, text) in [
        ("1 MB generated diff", &diff),
        ("1 MB run of 'a'", &letters),
        ("1 MB run of mixed letters", &mixed),
        ("256 KB run of mixed letters", &mixed_256k),
    ] {
        let a = time(5, || {
            black_box(ours.count(text));
        });
        if text.len() > 1 << 19 && name.contains("mixed") {
            // tiktoken-rs is quadratic here: minutes; see the 256 KB row.
            println!(
                "count {name} ({} bytes): bpe-openai {:.1} ms ({:.1} MB/s)",
                text.len(),
                ms(a),
                text.len() as f64 / a.as_secs_f64() / 1e6
            );
            continue;
        }
        let theirs = std::panic::catch_unwind(|| tk.encode_ordinary(text).len());
        let Ok(n) = theirs else {
            println!(
                "count {name} ({} bytes): bpe-openai {:.1} ms ({:.1} MB/s), tiktoken-rs panics (fancy-regex backtrack limit)",
                text.len(),
                ms(a),
                text.len() as f64 / a.as_secs_f64() / 1e6
            );
            continue;
        };
        assert_eq!(ours.count(text), n);
        let b = time(if name.contains("run") { 1 } else { 5 }, || {
            black_box(tk.encode_ordinary(text).len());
        });
        println!(
            "count {name} ({} bytes): bpe-openai {:.1} ms ({:.1} MB/s), tiktoken-rs {:.1} ms ({:.1} MB/s), ratio tiktoken/bpe {:.2}",
            text.len(),
            ms(a),
            text.len() as f64 / a.as_secs_f64() / 1e6,
            ms(b),
            text.len() as f64 / b.as_secs_f64() / 1e6,
            ms(b) / ms(a)
        );
    }

    for (n, bytes) in [(1, 4_000), (500, 1 << 20), (5_000, 10 << 20)] {
        let s = staged(n, bytes);
        for budget in [4_096, 32_768] {
            let c = conv(budget);
            let runs = if n >= 5_000 { 3 } else { 7 };
            let g = time(runs, || {
                black_box(prompt::build(&s, &c, None, &ours).ok());
            });
            println!(
                "compose {n} files / {} KB, budget {budget}: {:.1} ms",
                bytes / 1024,
                ms(g),
            );
        }
    }
}
