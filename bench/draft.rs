//! Whole-process benchmark of `jitcommit-draft` (not a test: nothing here asserts a
//! time). Run with `cargo bench --bench draft`; figures go to docs/draft.md.
//!
//! 1. The no-op path (`-m`, amend, merge) against `true` (process start alone).
//! 2. `--print-context` on a one-file, a 500-file / 1 MB and a 5,000-file / 10 MB
//!    staged change (fixed seed; packed like a clone, with non-ASCII comments) against
//!    `git status --short` + `git diff --cached`, in interleaved rounds.
//!    With `JITCOMMIT_BENCH_KEEP=1` it stages these three changes, prints where it
//!    kept them and stops, for profiling a single command against them.
//! 3. Token economy over 50 replayed commits: the stateless prompts against a session
//!    that keeps every earlier prompt and answer in its history.
//! 4. With `JITCOMMIT_BENCH_UNGATED=<binary>` (a `jitcommit-draft` built with the
//!    redaction gate switched off, docs/trust.md says how) and
//!    `JITCOMMIT_BENCH_GATED=<binary>` (the same source built the same way): the
//!    gate's whole-process cost, both binaries alternating on the same staged changes
//!    (only this part runs).
#![allow(clippy::unwrap_used, missing_docs)]

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use jitcommit_drafter::budget::TokenCounter;
use jitcommit_testkit::{Sandbox, XorShift, cargo_bin, write};

fn bin() -> std::path::PathBuf {
    let p = cargo_bin("jitcommit-draft");
    if p.exists() {
        return p;
    }
    // `cargo bench` puts the bench in target/release/deps; the binary is built next to it.
    p
}

/// Median wall time of `runs` runs of the command built by `make`.
fn time(runs: usize, mut make: impl FnMut() -> Command) -> Duration {
    let mut v: Vec<Duration> = (0..runs)
        .map(|_| {
            let mut c = make();
            c.stdout(Stdio::null())
                .stderr(Stdio::null())
                .stdin(Stdio::null());
            let t = Instant::now();
            let st = c.status().unwrap();
            let d = t.elapsed();
            assert!(st.success());
            d
        })
        .collect();
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}

/// Comment lines with letters beyond ASCII and emoji, as real sources hold them: the
/// token counter takes another path for them (docs/tokenizer.md).
const NON_ASCII: &[&str] = &[
    "    // Größe prüfen, bevor der Puffer wächst — naïve Länge ✓\n",
    "    // 検証: 入力が空のときは何もしない 🚀\n",
    "    // Проверка границ: индекс не выходит за длину\n",
];

/// Stages `files` files totalling about `bytes` bytes of changed lines in a repository
/// whose HEAD holds the same files in an older version, packed as a clone's objects are
/// (`git repack -adf --depth=50 --window=250`, no loose objects). One line in eight is a
/// comment in German, Japanese or Russian.
fn staged_change(sb: &Sandbox, name: &str, files: usize, bytes: usize) -> std::path::PathBuf {
    let dir = sb.init(name);
    let mut rng = XorShift(0x5eed ^ files as u64);
    let per = bytes / files.max(1);
    let line = |rng: &mut XorShift| {
        if rng.next_u64().is_multiple_of(8) {
            return NON_ASCII[rng.next_u64() as usize % NON_ASCII.len()].to_string();
        }
        format!(
            "    let v{} = compute({}, {});\n",
            rng.next_u64() % 1000,
            rng.next_u64() % 97,
            rng.next_u64() % 89
        )
    };
    for i in 0..files {
        let mut text = format!("fn f{i}() {{\n");
        while text.len() < per / 2 {
            text.push_str(&line(&mut rng));
        }
        text.push_str("}\n");
        write(&dir, &format!("src/m{}/f{i}.rs", i % 50), text);
    }
    sb.git(&dir, &["add", "."]);
    sb.git(&dir, &["commit", "-q", "--no-verify", "-m", "base"]);
    sb.git(&dir, &["repack", "-adfq", "--depth=50", "--window=250"]);
    for i in 0..files {
        let p = format!("src/m{}/f{i}.rs", i % 50);
        let mut text = std::fs::read_to_string(dir.join(&p)).unwrap();
        text.push_str(&format!("fn g{i}() {{\n"));
        while text.len() < per {
            text.push_str(&line(&mut rng));
        }
        text.push_str("}\n");
        write(&dir, &p, text);
    }
    sb.git(&dir, &["add", "."]);
    dir
}

fn noop(sb: &Sandbox) {
    let dir = staged_change(sb, "noop", 1, 100);
    let draft = bin();
    let runs = 200;
    let base = time(runs, || sb.cmd("true", &dir));
    println!("### no-op path (median of {runs} whole processes)\n");
    println!("| invocation | time | over `true` |\n| --- | --- | --- |");
    println!("| `true` (process start) | {} | |", ms(base));
    for (label, args) in [
        ("-m (`message`)", &[".git/COMMIT_EDITMSG", "message"][..]),
        (
            "--amend (`commit HEAD`)",
            &[".git/COMMIT_EDITMSG", "commit", "HEAD"][..],
        ),
        (
            "merge (`MERGE_MSG merge`)",
            &[".git/MERGE_MSG", "merge"][..],
        ),
    ] {
        let t = time(runs, || {
            let mut c = sb.cmd(&draft, &dir);
            c.args(args);
            c
        });
        println!("| {label} | {} | {} |", ms(t), ms(t.saturating_sub(base)));
    }
    println!();
}

/// `--print-context` against `git status --short` + `git diff --cached`, in rounds that
/// run each of the three commands once, so that a change of load on a shared machine
/// meets all of them alike; git's pair and ours take turns going first.
///
/// The binary timed is the file cargo linked. Its pages came into the page cache as the
/// linker wrote them, which starts the process as a file read from disk does (436 and
/// 435 page faults on the one-file change); a `cp` copy of it starts with fewer (368)
/// and flatters the ratio by 0.1-0.2 (docs/benchmarks.md, `print-context-speed`).
fn print_context(sb: &Sandbox) {
    let draft = bin();
    println!("### --print-context against git (medians of interleaved rounds, whole processes)\n");
    println!(
        "| staged change | git status --short + git diff --cached | --print-context | ratio |"
    );
    println!("| --- | --- | --- | --- |");
    let mut t500 = Duration::ZERO;
    for (label, files, bytes, rounds) in [
        ("1 file", 1, 2_000, 61),
        ("500 files / 1 MB", 500, 1_000_000, 15),
        ("5,000 files / 10 MB", 5_000, 10_000_000, 7),
    ] {
        let dir = staged_change(sb, &format!("pc{files}"), files, bytes);
        let (mut git, mut ours) = (Vec::new(), Vec::new());
        for round in 0..rounds {
            let git_pair = || {
                let status = time(1, || {
                    let mut c = sb.git_cmd(&dir);
                    c.args(["status", "--short"]);
                    c
                });
                let diff = time(1, || {
                    let mut c = sb.git_cmd(&dir);
                    c.args(["diff", "--cached"]);
                    c
                });
                status + diff
            };
            let draft_run = || {
                time(1, || {
                    let mut c = sb.cmd(&draft, &dir);
                    c.arg("--print-context");
                    c
                })
            };
            // Whichever runs first in a round meets the caches the other left: the
            // order alternates, so neither side always goes first.
            if round % 2 == 0 {
                git.push(git_pair());
                ours.push(draft_run());
            } else {
                ours.push(draft_run());
                git.push(git_pair());
            }
        }
        git.sort();
        ours.sort();
        let (git, ours) = (git[rounds / 2], ours[rounds / 2]);
        if files == 500 {
            t500 = ours;
        }
        if files == 5_000 && !t500.is_zero() {
            println!(
                "| {label} | {} | {} | {:.2}× (5,000 / 500 files: {:.1}×) |",
                ms(git),
                ms(ours),
                ours.as_secs_f64() / git.as_secs_f64(),
                ours.as_secs_f64() / t500.as_secs_f64()
            );
        } else {
            println!(
                "| {label} | {} | {} | {:.2}× |",
                ms(git),
                ms(ours),
                ours.as_secs_f64() / git.as_secs_f64()
            );
        }
    }
    println!();
}

/// `ungated` (the same source with the gate switched off), run alternately so that
/// both see the same load, medians of the rounds.
fn gate_cost(sb: &Sandbox, ungated: &Path) {
    // `cargo bench` builds the binary with the dev-dependencies' features unified into
    // it, which changes its start-up cost: compare two builds made the same way.
    let draft = std::env::var_os("JITCOMMIT_BENCH_GATED").map_or_else(bin, Into::into);
    let rounds = 61;
    println!("### the redaction gate's cost (alternating, medians of {rounds} rounds)\n");
    println!("| staged change | gate off | gate on | ratio |\n| --- | --- | --- | --- |");
    for (label, files, bytes) in [("1 file", 1, 2_000), ("500 files / 1 MB", 500, 1_000_000)] {
        let dir = staged_change(sb, &format!("gate{files}"), files, bytes);
        let (mut off, mut on) = (Vec::new(), Vec::new());
        for _ in 0..rounds {
            for (b, v) in [(ungated, &mut off), (draft.as_path(), &mut on)] {
                v.push(time(1, || {
                    let mut c = sb.cmd(b, &dir);
                    c.arg("--print-context");
                    c
                }));
            }
        }
        off.sort();
        on.sort();
        let (off, on) = (off[rounds / 2], on[rounds / 2]);
        println!(
            "| {label} | {} | {} | {:.3}× |",
            ms(off),
            ms(on),
            on.as_secs_f64() / off.as_secs_f64()
        );
    }
    println!();
}

/// 50 commits replayed: each commit's stateless prompt (from `--print-context --json`)
/// against a session that resends every earlier prompt and answer (the offline draft
/// stands in for an answer).
fn token_economy(sb: &Sandbox) {
    let dir = sb.init("economy");
    write(&dir, "README.md", "# economy\n");
    sb.git(&dir, &["add", "."]);
    sb.git(&dir, &["commit", "-q", "--no-verify", "-m", "base"]);
    let counter =
        jitcommit_drafter::tokens::BpeCounter::new(jitcommit_core::config::Encoding::Cl100k);
    let draft = bin();
    let mut rng = XorShift(42);
    let (mut stateless, mut session, mut history) = (0usize, 0usize, 0usize);
    for i in 0..50 {
        for _ in 0..(1 + rng.next_u64() % 3) {
            let p = format!("src/m{}.rs", rng.next_u64() % 12);
            let mut text = std::fs::read_to_string(dir.join(&p)).unwrap_or_default();
            text.push_str(&format!(
                "pub fn f{i}_{}() -> u32 {{ {} }}\n",
                rng.next_u64() % 100,
                rng.next_u64() % 1000
            ));
            write(&dir, &p, text);
        }
        sb.git(&dir, &["add", "."]);
        let out = sb
            .cmd(&draft, &dir)
            .args(["--print-context", "--json"])
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let prompt = counter.count(v["system"].as_str().unwrap_or_default())
            + counter.count(v["user"].as_str().unwrap_or_default());
        let answer = sb
            .cmd(&draft, &dir)
            .args(["--dry-run", "--offline"])
            .output()
            .unwrap();
        let answer = counter.count(&String::from_utf8_lossy(&answer.stdout));
        stateless += prompt;
        session += history + prompt;
        history += prompt + answer;
        sb.git(&dir, &["commit", "-q", "--no-verify", "-m", "step"]);
    }
    println!("### token economy over 50 replayed commits\n");
    println!("| approach | prompt tokens sent |\n| --- | --- |");
    println!("| stateless (this tool) | {stateless} |");
    println!("| session keeping every earlier prompt and answer | {session} |");
    println!(
        "\nsaved: {:.1}%\n",
        100.0 * (1.0 - stateless as f64 / session as f64)
    );
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    assert!(
        Path::new(&bin()).exists(),
        "build the binary first: cargo build --release --bin jitcommit-draft"
    );
    let sb = Sandbox::new();
    if let Some(ungated) = std::env::var_os("JITCOMMIT_BENCH_UNGATED") {
        gate_cost(&sb, Path::new(&ungated));
        return;
    }
    if std::env::var_os("JITCOMMIT_BENCH_KEEP").is_some() {
        // For profiling: keep the staged changes of part 2 and stop before measuring.
        for (files, bytes) in [(1, 2_000), (500, 1_000_000), (5_000, 10_000_000)] {
            println!(
                "kept {}",
                staged_change(&sb, &format!("pc{files}"), files, bytes).display()
            );
        }
        std::mem::forget(sb);
        return;
    }
    noop(&sb);
    print_context(&sb);
    token_economy(&sb);
}
