//! Benchmark of `jitcommit-check` against convco and cocogitto, printed as ratios measured
//! in one run. Not a test: it only runs under `cargo bench --bench check` (cargo passes
//! `--bench`); `cargo test --all-targets` starts it and it returns at once.
//!
//! Reproduce with `bench/check.sh` (installs convco and cog with `cargo install` when
//! absent). What it measures:
//! 1. one commit-msg check as a whole process vs `convco check --from-stdin --strip` and
//!    `cog verify`, on the same message;
//!    and against `git diff --cached --name-only`;
//! 2. `--range` over a generated ~17,000-commit history (fixed seed; merges, reverts,
//!    fixups, some non-conforming messages, bodies of prose and bullets with non-ASCII
//!    text), tracing off and on, vs `convco check` and `cog check`;
//! 3. a 10,000-commit push into a bare repository checked by the pre-receive hook.
//!
//! The material looks like a real clone: the first commit holds a 15,000-file tree and a
//! 20 KB `Cargo.toml` without the convention table, and both histories are repacked
//! after `git fast-import` as a clone would be (`git repack -adf --depth=50
//! --window=250`, so HEAD's tree is a delta). The commands of 1. and 2. are timed in
//! interleaved rounds (each command once per round, in turn), so that a change of load
//! on a shared machine hits every tool alike.
//!
//! With `JITCOMMIT_BENCH_KEEP=1` it generates the history, prints where it kept it and
//! stops, for profiling a single command against it.
//!
//! With `JITCOMMIT_BENCH_FACTS=1` it runs only the fact store's glob check: the store's
//! globs matched one by one against every tracked path (how the check worked before)
//! against one set matched once per path (`Store::unmatched_globs`), in process, as a
//! ratio; then whole `jitcommit facts --check` and `jitcommit-check --pre-receive`
//! processes (four new branches) on a 20,000-file tree with 500 globs.
#![allow(clippy::unwrap_used, missing_docs)]

use jitcommit_testkit::Rng;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        eprintln!("bench/check.rs: run with `cargo bench --bench check` (or bench/check.sh)");
        return;
    }
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_jitcommit-check"));
    if std::env::var_os("JITCOMMIT_BENCH_FACTS").is_some() {
        facts_bench(&bin);
        return;
    }
    let tmp = tempfile::Builder::new()
        .prefix("jitcommit-bench-")
        .tempdir()
        .unwrap();
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let env = Env { home };
    let convco = which("convco");
    let cog = which("cog");

    // ---- the history ----
    let repo = tmp.path().join("history");
    let stats = generate(&env, &repo, RANGE_COMMITS, 0x5eed_1234_abcd_0001, true);
    let root = env
        .git(&repo, &["rev-list", "--max-parents=0", "main"])
        .trim()
        .to_string();
    let range = format!("{root}..main");
    let n_range: usize = env
        .git(&repo, &["rev-list", "--count", &range])
        .trim()
        .parse()
        .unwrap();
    println!(
        "history: {} commits ({} merges, {} reverts, {} fixups, {} non-conforming), {n_range} in {range:.12}…",
        stats.commits, stats.merges, stats.reverts, stats.fixups, stats.bad
    );
    if std::env::var_os("JITCOMMIT_BENCH_KEEP").is_some() {
        // For profiling: keep the generated history and stop before measuring.
        let dir = tmp.keep();
        println!("kept {} (range {range})", dir.join("history").display());
        return;
    }

    // ---- 1. one message, whole process ----
    // As in a real commit-msg run, the files the message names are staged.
    let msg = "feat(core): parse the convention from pyproject.toml\n\n\
               Discovery reads the table the way the naïve reader did not — Grüße.\n\n\
               - Update: crates/core/src/config.rs — discovery and strict parsing\n\
               - Test: crates/core/tests/config.rs — every source, every error kind\n";
    for f in ["crates/core/src/config.rs", "crates/core/tests/config.rs"] {
        let path = repo.join(f);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, format!("// {f} — geändert\n")).unwrap();
    }
    env.git(&repo, &["add", "crates"]);
    let tracked: usize = env.git(&repo, &["ls-files"]).lines().count();
    println!("work tree: {tracked} tracked files");
    // A bullet naming a path that is not staged: the rejection computes the whole staged
    // set for its "nearest changed paths" hint.
    let unstaged = msg.replace("crates/core/tests/config.rs", "crates/core/tests/other.rs");
    // Every command runs once per round, in turn, so that all of them meet the same
    // load on a shared machine; each figure is the median of its rounds.
    let run = |program: &Path, args: Vec<String>| {
        let (env, repo) = (&env, &repo);
        let program = program.to_owned();
        move || {
            let mut c = env.cmd(&program, repo);
            c.args(&args);
            status(c)
        }
    };
    let feed_cmd = |program: &Path, args: &'static [&'static str], input: String| {
        let (env, repo) = (&env, &repo);
        let program = program.to_owned();
        move || {
            let mut c = env.cmd(&program, repo);
            c.args(args);
            feed(c, &input)
        }
    };
    let mut one: Vec<Timed<'_>> = vec![
        (
            "ours",
            Box::new(feed_cmd(&bin, &["--stdin"], msg.to_owned())),
        ),
        (
            "untraced",
            Box::new(feed_cmd(
                &bin,
                &["--stdin", "--no-trace-paths"],
                msg.to_owned(),
            )),
        ),
        ("rejected", Box::new(feed_cmd(&bin, &["--stdin"], unstaged))),
        (
            "git-diff",
            Box::new(run(
                Path::new("git"),
                vec!["diff".into(), "--cached".into(), "--name-only".into()],
            )),
        ),
    ];
    // The floors under an untraced check: this binary's start-up alone, opening the
    // repository and loading its convention (what every check does before reading the
    // message), and git finding the same repository.
    one.push(("version", Box::new(run(&bin, vec!["--version".into()]))));
    one.push((
        "dump-config",
        Box::new(run(&bin, vec!["--dump-config".into()])),
    ));
    one.push((
        "git-toplevel",
        Box::new(run(
            Path::new("git"),
            vec!["rev-parse".into(), "--show-toplevel".into()],
        )),
    ));
    if let Some(convco) = &convco {
        one.push((
            "convco",
            Box::new(feed_cmd(
                convco,
                &["check", "--from-stdin", "--strip"],
                msg.to_owned(),
            )),
        ));
    }
    if let Some(cog) = &cog {
        one.push(("cog", Box::new(run(cog, vec!["verify".into(), msg.into()]))));
    }
    let t = medians(41, &mut one);
    println!("\none message, whole process (median of 41 interleaved rounds):");
    println!(
        "  jitcommit-check --stdin                  {}",
        ms(t["ours"])
    );
    println!(
        "  jitcommit-check --stdin --no-trace-paths {}",
        ms(t["untraced"])
    );
    println!(
        "  jitcommit-check --stdin, a path not staged (rejected) {}",
        ms(t["rejected"])
    );
    println!(
        "  git diff --cached --name-only            {}   ratio ours/git = {:.2}",
        ms(t["git-diff"]),
        ratio(t["ours"], t["git-diff"])
    );
    match t.get("convco") {
        Some(c) => {
            println!(
                "  convco check --from-stdin --strip        {}   ratio ours/convco = {:.2} (untraced {:.2})",
                ms(*c),
                ratio(t["ours"], *c),
                ratio(t["untraced"], *c)
            );
        }
        None => println!("  convco: not installed (bench/check.sh installs it)"),
    }
    // Each floor beside the untraced check, and against convco when it is there.
    let against = |name: &str| match t.get("convco") {
        Some(c) => format!("   × convco = {:.2}", ratio(t[name], *c)),
        None => String::new(),
    };
    println!("  floors of an untraced check:");
    println!(
        "    jitcommit-check --version              {}{}",
        ms(t["version"]),
        against("version")
    );
    println!(
        "    jitcommit-check --dump-config          {}{}",
        ms(t["dump-config"]),
        against("dump-config")
    );
    println!(
        "    git rev-parse --show-toplevel          {}{}",
        ms(t["git-toplevel"]),
        against("git-toplevel")
    );
    println!(
        "    untraced check / git rev-parse = {:.2}",
        ratio(t["untraced"], t["git-toplevel"])
    );
    match t.get("cog") {
        Some(c) => println!(
            "  cog verify                               {}   ratio ours/cog = {:.2}",
            ms(*c),
            ratio(t["ours"], *c)
        ),
        None => println!("  cog: not installed (bench/check.sh installs it)"),
    }

    // ---- 2. the range ----
    let mut ranges: Vec<Timed<'_>> = vec![
        (
            "off",
            Box::new(run(
                &bin,
                vec!["--range".into(), range.clone(), "--no-trace-paths".into()],
            )),
        ),
        (
            "on",
            Box::new(run(&bin, vec!["--range".into(), range.clone()])),
        ),
    ];
    if let Some(convco) = &convco {
        ranges.push((
            "convco",
            Box::new(run(convco, vec!["check".into(), range.clone()])),
        ));
    }
    if let Some(cog) = &cog {
        ranges.push((
            "cog",
            Box::new(run(cog, vec!["check".into(), range.clone()])),
        ));
    }
    let t = medians(9, &mut ranges);
    let (off, on) = (t["off"], t["on"]);
    println!("\n--range over {n_range} commits (median of 9 interleaved rounds):");
    println!("  jitcommit-check --range, tracing off     {}", ms(off));
    println!(
        "  jitcommit-check --range, tracing on      {}   ratio on/off = {:.2}",
        ms(on),
        ratio(on, off)
    );
    for (tool, label) in [
        ("convco", "convco check                           "),
        ("cog", "cog check                              "),
    ] {
        if let Some(t) = t.get(tool) {
            println!(
                "  {label}  {}   ratio off/{tool} = {:.2}, on/{tool} = {:.2}",
                ms(*t),
                ratio(off, *t),
                ratio(on, *t)
            );
        }
    }

    // ---- 3. a 10,000-commit push through pre-receive ----
    let big = tmp.path().join("import");
    let s = generate(&env, &big, 10_000, 0x5eed_0000_0010_0000, false);
    let bare = tmp.path().join("server.git");
    std::fs::create_dir_all(&bare).unwrap();
    env.git(&bare, &["init", "-q", "--bare", "-b", "main", "."]);
    let timing = tmp.path().join("hook-ns");
    // Imported history: conventional subjects without bodies, under a server policy
    // that makes the body optional; path tracing stays on.
    let policy = tmp.path().join("policy.toml");
    std::fs::write(&policy, "body = \"optional\"\n").unwrap();
    let hook = bare.join("hooks/pre-receive");
    std::fs::write(
        &hook,
        format!(
            "#!/bin/sh\ns=$(date +%s%N)\n'{}' --pre-receive --config '{}'\nrc=$?\ne=$(date +%s%N)\necho $((e - s)) > '{}'\nexit $rc\n",
            bin.display(),
            policy.display(),
            timing.display()
        ),
    )
    .unwrap();
    chmod_x(&hook);
    let start = Instant::now();
    let mut c = env.cmd("git", &big);
    c.args(["push", "-q", bare.to_str().unwrap(), "main"]);
    let ok = c
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap()
        .success();
    let push = start.elapsed();
    let hook_ns: u64 = std::fs::read_to_string(&timing)
        .map(|t| t.trim().parse().unwrap_or(0))
        .unwrap_or(0);
    println!(
        "\npush of {} commits of imported history (subjects only; policy body = optional; tracing on) through pre-receive:",
        s.commits
    );
    println!(
        "  accepted = {ok}; hook {} (whole push {})",
        ms(Duration::from_nanos(hook_ns)),
        ms(push)
    );
}

struct Env {
    home: PathBuf,
}

impl Env {
    fn cmd(&self, program: impl AsRef<std::ffi::OsStr>, cwd: &Path) -> Command {
        let mut c = Command::new(program);
        c.current_dir(cwd);
        for v in [
            "GIT_DIR",
            "GIT_INDEX_FILE",
            "GIT_WORK_TREE",
            "GIT_CONFIG_PARAMETERS",
            "NO_COLOR",
        ] {
            c.env_remove(v);
        }
        c.env("HOME", &self.home)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_AUTHOR_NAME", "A U Thor")
            .env("GIT_AUTHOR_EMAIL", "author@example.com")
            .env("GIT_COMMITTER_NAME", "C O Mitter")
            .env("GIT_COMMITTER_EMAIL", "committer@example.com");
        c
    }

    fn git(&self, cwd: &Path, args: &[&str]) -> String {
        let o = self
            .cmd("git", cwd)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8_lossy(&o.stdout).into_owned()
    }
}

fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    let mut dirs: Vec<PathBuf> = std::env::split_paths(&path).collect();
    if let Some(home) = std::env::var_os("CARGO_HOME") {
        dirs.push(PathBuf::from(home).join("bin"));
    }
    if let Some(home) = std::env::var_os("HOME") {
        dirs.push(PathBuf::from(home).join(".cargo/bin"));
    }
    dirs.into_iter().map(|d| d.join(name)).find(|p| p.is_file())
}

fn chmod_x(p: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn feed(mut c: Command, input: &str) {
    let mut child = c
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait().unwrap();
}

fn status(mut c: Command) {
    c.stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
}

/// A named command to time.
type Timed<'a> = (&'static str, Box<dyn FnMut() + 'a>);

/// The median time of each command over `rounds` rounds, every round running each
/// command once in turn (after one warm-up round for the page cache).
fn medians<'a>(
    rounds: usize,
    commands: &mut [Timed<'a>],
) -> std::collections::HashMap<&'a str, Duration> {
    for (_, f) in commands.iter_mut() {
        f();
    }
    let mut times: Vec<Vec<Duration>> = vec![Vec::with_capacity(rounds); commands.len()];
    for _ in 0..rounds {
        for ((_, f), t) in commands.iter_mut().zip(&mut times) {
            let s = Instant::now();
            f();
            t.push(s.elapsed());
        }
    }
    commands
        .iter()
        .zip(times)
        .map(|((name, _), mut t)| {
            t.sort();
            (*name, t[rounds / 2])
        })
        .collect()
}

fn ms(d: Duration) -> String {
    format!("{:8.2} ms", d.as_secs_f64() * 1000.0)
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64().max(1e-9)
}

/// Commits of the range history.
const RANGE_COMMITS: usize = 17_000;
/// Directories and files per directory of the first commit's tree (15,000 files).
const TREE_DIRS: usize = 150;
const TREE_FILES: usize = 100;

#[derive(Default)]
struct Stats {
    commits: usize,
    merges: usize,
    reverts: usize,
    fixups: usize,
    bad: usize,
}

const TYPES: &[&str] = &[
    "feat", "fix", "perf", "refactor", "docs", "test", "build", "ci", "chore",
];
const SCOPES: &[&str] = &["core", "cli", "repo", "config", "rules", "prompt", "model"];
const VERBS: &[&str] = &["Add", "Update", "Fix", "Refactor", "Document", "Test"];
/// Top directories of the generated tree, in turn.
const TOPS: &[&str] = &["crates", "src", "docs", "tests", "tools", "vendor"];
/// Non-ASCII words mixed into bodies (and file contents).
const INTL: &[&str] = &[
    "naïve",
    "Grüße",
    "façade",
    "日本語",
    "émigré",
    "Ωmega",
    "café",
];
const WORDS: &[&str] = &[
    "parse",
    "the",
    "convention",
    "staged",
    "diff",
    "from",
    "index",
    "budget",
    "prompt",
    "hook",
    "quarantine",
    "objects",
    "cleanup",
    "comment",
    "prefix",
    "scissors",
    "range",
    "walk",
    "trailers",
    "errors",
    "with",
    "line",
    "and",
    "key",
    "cache",
    "model",
    "tokens",
    "paths",
    "rename",
];
const BAD: &[&str] = &[
    "wip",
    "Fixed bug.",
    "update stuff",
    "more changes",
    "Refactoring the parser",
    "oops",
];

fn phrase(rng: &mut Rng, n: usize) -> String {
    (0..n)
        .map(|_| *rng.pick(WORDS))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The `i`-th directory of the generated tree, e.g. `crates/pkg017/src`.
fn tree_dir(i: usize) -> String {
    format!("{}/pkg{i:03}/src", TOPS[i % TOPS.len()])
}

/// The `j`-th file of a directory of the generated tree.
fn tree_file(dir: &str, j: usize) -> String {
    format!("{dir}/{}_{j:03}.rs", WORDS[j % WORDS.len()])
}

/// A 20 KB `Cargo.toml` of a large workspace, without the convention table.
fn big_manifest() -> String {
    let mut m = String::from(
        "[workspace]\nresolver = \"2\"\nmembers = [\"crates/*\"]\n\n[workspace.package]\nedition = \"2024\"\nlicense = \"MIT OR Apache-2.0\"\n\n[workspace.dependencies]\n",
    );
    let mut i = 0;
    while m.len() < 20 * 1024 {
        let _ = writeln!(
            m,
            "{}-{i} = {{ version = \"0.{}.{}\", default-features = false, features = [\"std\"] }}",
            WORDS[i % WORDS.len()],
            i % 40,
            i % 7
        );
        i += 1;
    }
    m
}

/// The first commit's files: a 15,000-file tree and the manifest.
fn initial_tree(rng: &mut Rng) -> Vec<(String, String)> {
    let mut files = vec![("Cargo.toml".to_owned(), big_manifest())];
    for i in 0..TREE_DIRS {
        let dir = tree_dir(i);
        for j in 0..TREE_FILES {
            let n = 4 + rng.below(6);
            files.push((
                tree_file(&dir, j),
                format!("// {}\nfn f{j}() {{}}\n", phrase(rng, n)),
            ));
        }
    }
    files
}

/// Writes a history of about `n` commits with `git fast-import` into a new repository,
/// then repacks it.
fn generate(env: &Env, repo: &Path, n: usize, seed: u64, mixed: bool) -> Stats {
    std::fs::create_dir_all(repo).unwrap();
    env.git(repo, &["init", "-q", "-b", "main", "."]);
    let mut rng = Rng(seed);
    let mut st = Stats::default();
    let mut out = String::new();
    let mut mark = 0usize;
    let mut subjects: Vec<String> = Vec::new();
    let mut time = 1_700_000_000u64;
    let files = initial_tree(&mut rng);
    let mut main_tip = raw_commit(
        &mut out,
        &mut mark,
        &mut time,
        "refs/heads/main",
        None,
        None,
        "chore: import the workspace\n",
        &files,
    );
    st.commits += 1;
    while st.commits < n {
        // Every 40 commits: a topic branch of 3 commits merged back.
        if mixed && st.commits > 0 && st.commits % 40 == 0 && st.commits + 4 <= n {
            let base = main_tip;
            let topic = format!("topic-{}", st.merges);
            let mut tip = base;
            for _ in 0..3 {
                let (m, s) = commit(
                    &mut out,
                    &mut rng,
                    &mut mark,
                    &mut time,
                    &format!("refs/heads/{topic}"),
                    Some(tip),
                    None,
                    None,
                    &mut st,
                    true,
                );
                subjects.push(s);
                tip = m;
            }
            let msg = format!("Merge branch '{topic}'\n");
            main_tip = raw_commit(
                &mut out,
                &mut mark,
                &mut time,
                "refs/heads/main",
                Some(main_tip),
                Some(tip),
                &msg,
                &[],
            );
            st.merges += 1;
            st.commits += 1;
            continue;
        }
        let special = if mixed && !subjects.is_empty() {
            rng.below(100)
        } else {
            100
        };
        let msg = if special < 2 {
            st.reverts += 1;
            Some(format!(
                "Revert \"{}\"\n\nThis reverts an earlier commit.\n",
                subjects[rng.below(subjects.len())]
            ))
        } else if special < 4 {
            st.fixups += 1;
            Some(format!("fixup! {}\n", subjects[rng.below(subjects.len())]))
        } else if special < 7 {
            st.bad += 1;
            Some(format!("{}\n", *rng.pick(BAD)))
        } else {
            None
        };
        let parent = Some(main_tip);
        let (m, s) = commit(
            &mut out,
            &mut rng,
            &mut mark,
            &mut time,
            "refs/heads/main",
            parent,
            None,
            msg,
            &mut st,
            mixed,
        );
        subjects.push(s);
        main_tip = m;
    }
    let mut child = env
        .cmd("git", repo)
        .args(["fast-import", "--quiet"])
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(out.as_bytes())
        .unwrap();
    assert!(child.wait().unwrap().success());
    // As git-fast-import(1) asks before any measurement ("fast-import outputs suboptimal
    // packfiles that are simply never seen in real use situations"): repack, so objects
    // are laid out as in every real repository (the newest version of a tree is the base
    // its older versions are deltas of), not as fast-import chains them (each version a
    // delta of the one before, the newest at the end of a chain up to 50 long).
    // The depth and window of a clone's pack, so HEAD's tree is a delta too.
    env.git(
        repo,
        &[
            "repack",
            "-q",
            "-a",
            "-d",
            "-f",
            "--depth=50",
            "--window=250",
        ],
    );
    env.git(repo, &["reset", "-q", "--hard", "main"]);
    st
}

/// One ordinary commit touching 1–4 files, with a conventional message unless `msg`.
#[allow(clippy::too_many_arguments)]
fn commit(
    out: &mut String,
    rng: &mut Rng,
    mark: &mut usize,
    time: &mut u64,
    branch: &str,
    parent: Option<usize>,
    merge: Option<usize>,
    msg: Option<String>,
    st: &mut Stats,
    bodies: bool,
) -> (usize, String) {
    let files: Vec<String> = (0..1 + rng.below(4))
        .map(|_| {
            let dir = tree_dir(rng.below(TREE_DIRS));
            // Mostly files of the tree, now and then a new one.
            tree_file(&dir, rng.below(TREE_FILES + 5))
        })
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let subject = format!(
        "{}{}: {}",
        *rng.pick(TYPES),
        if rng.below(2) == 0 {
            format!("({})", *rng.pick(SCOPES))
        } else {
            String::new()
        },
        {
            let n = 3 + rng.below(3);
            phrase(rng, n)
        }
    );
    let msg = msg.unwrap_or_else(|| {
        if !bodies {
            return format!("{subject}\n");
        }
        let mut m = format!("{subject}\n\n");
        // A paragraph of prose, as real bodies have, with some non-ASCII text.
        let n = 12 + rng.below(20);
        let _ = writeln!(
            m,
            "{} ({}), {}.\n",
            phrase(rng, n),
            *rng.pick(INTL),
            phrase(rng, 6)
        );
        for f in &files {
            let verb = *rng.pick(VERBS);
            let n = 4 + rng.below(8);
            let _ = writeln!(m, "- {verb}: {f} — {}", phrase(rng, n));
        }
        m
    });
    let edits: Vec<(String, String)> = files
        .iter()
        .map(|f| {
            (
                f.clone(),
                format!(
                    "// {} {}\n{}\n",
                    phrase(rng, 6),
                    *rng.pick(INTL),
                    rng.next_u64()
                ),
            )
        })
        .collect();
    let m = raw_commit(out, mark, time, branch, parent, merge, &msg, &edits);
    st.commits += 1;
    (m, subject)
}

#[allow(clippy::too_many_arguments)]
fn raw_commit(
    out: &mut String,
    mark: &mut usize,
    time: &mut u64,
    branch: &str,
    parent: Option<usize>,
    merge: Option<usize>,
    msg: &str,
    edits: &[(String, String)],
) -> usize {
    *mark += 1;
    *time += 60;
    let _ = writeln!(out, "commit {branch}\nmark :{mark}");
    let _ = writeln!(out, "author A U Thor <author@example.com> {time} +0000");
    let _ = writeln!(
        out,
        "committer C O Mitter <committer@example.com> {time} +0000"
    );
    let _ = write!(out, "data {}\n{msg}\n", msg.len());
    if let Some(p) = parent {
        let _ = writeln!(out, "from :{p}");
    }
    if let Some(m) = merge {
        let _ = writeln!(out, "merge :{m}");
    }
    for (path, content) in edits {
        let _ = write!(
            out,
            "M 100644 inline {path}\ndata {}\n{content}\n",
            content.len()
        );
    }
    out.push('\n');
    *mark
}

/// A store of `globs` globs over a tree of `files` paths: one glob in ten matches a
/// path near the end of the tree, the others match nothing (the worst case: every path
/// is tried against them).
fn facts_material(globs: usize, files: usize) -> (String, Vec<String>) {
    let paths: Vec<String> = (0..files)
        .map(|i| format!("dir{}/sub{}/file{i}.rs", i % 200, i % 7))
        .collect();
    let mut store = String::from("# Facts\n\n");
    for k in 0..globs {
        if k % 10 == 0 {
            let i = files - 1 - k;
            let _ = writeln!(store, "PATH.dir{}/sub{}/file{i}.rs=p{k}", i % 200, i % 7);
        } else {
            let _ = writeln!(store, "PATH.gone{k}/**/*.rs=p{k}");
        }
    }
    (store, paths)
}

fn facts_bench(check: &Path) {
    use jitcommit_core::facts;
    for (globs, files) in [(500, 20_000), (1_000, 40_000)] {
        let (text, paths) = facts_material(globs, files);
        let (store, problems) = facts::parse(facts::FILE, text.as_bytes());
        assert!(problems.is_empty(), "{problems:?}");
        // Before: each glob on its own, against every path.
        let one_by_one = || {
            store
                .facts
                .iter()
                .filter(|f| {
                    f.glob().is_some()
                        && !f
                            .matcher()
                            .is_some_and(|m| paths.iter().any(|p| m.is_match(p)))
                })
                .count()
        };
        let expected = globs - globs.div_ceil(10);
        let mut commands: Vec<Timed<'_>> = vec![
            (
                "one by one",
                Box::new(|| assert_eq!(one_by_one(), expected)),
            ),
            (
                "one set",
                Box::new(|| assert_eq!(store.unmatched_globs(&paths).len(), expected)),
            ),
        ];
        let m = medians(3, &mut commands);
        println!(
            "fact store, {globs} globs over {files} paths: one by one {}, one set {}: {:.1}x",
            ms(m["one by one"]),
            ms(m["one set"]),
            ratio(m["one by one"], m["one set"])
        );
    }

    // Whole processes on a real repository.
    let tmp = tempfile::Builder::new()
        .prefix("jitcommit-bench-facts-")
        .tempdir()
        .unwrap();
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let env = Env { home };
    let repo = tmp.path().join("r");
    std::fs::create_dir_all(&repo).unwrap();
    env.git(&repo, &["init", "-q", "-b", "main"]);
    let (text, paths) = facts_material(500, 20_000);
    // One fast-import: the tree, then four branches that each add a file.
    let mut script = String::from(
        "commit refs/heads/main\ncommitter C <c@example.com> 1700000000 +0000\ndata 12\nchore: tree\n",
    );
    let _ = write!(
        script,
        "M 100644 inline {}\ndata {}\n{text}\n",
        facts::FILE,
        text.len()
    );
    for p in &paths {
        script.push_str(&format!("M 100644 inline {p}\ndata 2\nx\n\n"));
    }
    for b in 0..4 {
        let _ = write!(
            script,
            "commit refs/heads/b{b}\ncommitter C <c@example.com> 1700000100 +0000\ndata 12\nchore: more\nfrom refs/heads/main\nM 100644 inline extra{b}.rs\ndata 2\nx\n\n"
        );
    }
    let mut c = env.cmd("git", &repo);
    c.args(["fast-import", "--quiet"]);
    feed(c, &script);
    env.git(&repo, &["reset", "-q", "--hard", "main"]);
    let jitcommit = PathBuf::from(env!("CARGO_BIN_EXE_jitcommit"));
    let bare = tmp.path().join("bare.git");
    env.git(
        tmp.path(),
        &[
            "clone",
            "-q",
            "--bare",
            repo.to_str().unwrap(),
            bare.to_str().unwrap(),
        ],
    );
    let zero = "0".repeat(40);
    let mut stdin = String::new();
    for b in 0..4 {
        let id = env.git(&bare, &["rev-parse", &format!("refs/heads/b{b}")]);
        let _ = writeln!(stdin, "{zero} {} refs/heads/new{b}", id.trim());
    }
    let mut commands: Vec<Timed<'_>> = vec![
        (
            "facts --check",
            Box::new(|| {
                let mut c = env.cmd(&jitcommit, &repo);
                c.args(["facts", "--check"]);
                status(c);
            }),
        ),
        (
            "pre-receive",
            Box::new(|| {
                let mut c = env.cmd(check, &bare);
                c.arg("--pre-receive");
                feed(c, &stdin);
            }),
        ),
    ];
    let m = medians(3, &mut commands);
    println!(
        "500 globs, 20,000 files: jitcommit facts --check {}, pre-receive of 4 new branches {}",
        ms(m["facts --check"]),
        ms(m["pre-receive"])
    );
}
