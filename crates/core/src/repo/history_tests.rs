//! `Repo::path_history` against git: on a generated history with long messages,
//! signed-like commits (a multi-line `gpgsig` header), commits by a bot, subjects without
//! a type and merges, loose and then packed the ways git packs (commits deltified against
//! each other, bases named by offset and by id), then with a commit-graph file, the types, scopes and subjects equal
//! what git says of the same commits: the walk's commits are gix's breadth-first order
//! over `git rev-list --parents`, each one's paths `git diff-tree`'s, its subject and
//! author `git log`'s.

use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::path::Path;

use super::{MAX_SUBJECTS, PathHistory};
use crate::repo::{GitEnv, Repo};
use jitcommit_testkit::{Rng, Sandbox, run_with_input, write};

const FILES: &[&str] = &[
    "README.md",
    "Cargo.toml",
    "src/lib.rs",
    "src/main.rs",
    "src/util/mod.rs",
    "src/util/text.rs",
    "src/util/deep/x.rs",
    "docs/guide.md",
    "tests/a.rs",
];

const SUBJECTS: &[&str] = &[
    "feat(util): add a helper",
    "fix: handle the empty case",
    "docs(guide): explain the flags",
    "refactor(Core): split the parser",
    "perf: read less",
    "Update things",
    "test: cover the edges",
    "fix(util): avoid a copy",
];

/// What git says of one commit: its parents, first message line, author and paths.
struct Commit {
    parents: Vec<String>,
    subject: String,
    bot: bool,
    changed: Vec<String>,
}

/// Every commit reachable from HEAD, as git describes it.
fn describe(sb: &Sandbox, r: &Path) -> (String, HashMap<String, Commit>) {
    let head = sb.git(r, &["rev-parse", "HEAD"]).trim().to_owned();
    let mut all = HashMap::new();
    for line in sb.git(r, &["rev-list", "--parents", "HEAD"]).lines() {
        let mut ids = line.split(' ').map(str::to_owned);
        let id = ids.next().unwrap();
        let info = sb.git(r, &["log", "-1", "--format=%an%n%ae%n%B", &id]);
        let mut lines = info.lines();
        let (name, email) = (lines.next().unwrap(), lines.next().unwrap());
        let changed = sb
            .git(
                r,
                &[
                    "diff-tree",
                    "--root",
                    "--no-renames",
                    "-r",
                    "--name-only",
                    "--no-commit-id",
                    &id,
                ],
            )
            .lines()
            .map(str::to_owned)
            .collect();
        let commit = Commit {
            parents: ids.collect(),
            subject: lines.next().unwrap_or("").to_owned(),
            bot: name.contains("[bot]") || email.contains("dependabot"),
            changed,
        };
        all.insert(id, commit);
    }
    (head, all)
}

/// What `path_history(paths, limit)` should say, from git's description of the commits.
fn expected(
    head: &str,
    all: &HashMap<String, Commit>,
    paths: &[&str],
    limit: usize,
) -> PathHistory {
    let files: BTreeSet<&str> = paths.iter().copied().collect();
    let dirs: BTreeSet<&str> = paths
        .iter()
        .map(|p| p.rsplit_once('/').map_or("", |(d, _)| d))
        .collect();
    // gix's breadth-first walk: each commit's parents queued in order, once.
    let mut queue = VecDeque::from([head]);
    let mut queued = HashSet::from([head]);
    let mut order = Vec::new();
    while let Some(id) = queue.pop_front() {
        for p in &all[id].parents {
            if queued.insert(p) {
                queue.push_back(p);
            }
        }
        if all[id].parents.len() <= 1 {
            order.push(id);
        }
    }
    let mut out = PathHistory::default();
    let mut near_subjects: Vec<String> = Vec::new();
    for id in order.into_iter().take(limit) {
        let c = &all[id];
        let parsed = crate::message::parse(&c.subject).subject;
        let Some(kind) = parsed.kind else {
            continue;
        };
        let exact = c.changed.iter().any(|p| files.contains(p.as_str()));
        let near = c
            .changed
            .iter()
            .any(|p| dirs.contains(p.rsplit_once('/').map_or("", |(d, _)| d)));
        let kind = kind.value.to_lowercase();
        if exact {
            *out.types.exact.entry(kind).or_default() += 1;
            if let Some(scope) = parsed.scope {
                *out.scopes.entry(scope.value.to_lowercase()).or_default() += 1;
            }
        } else if near {
            *out.types.near.entry(kind).or_default() += 1;
        } else {
            continue;
        }
        let kept = if exact {
            &mut out.subjects
        } else {
            &mut near_subjects
        };
        // Only a subject the grammar reads whole (a bare `Update things` has a type and
        // no summary).
        let whole = parsed.summary.is_some_and(|s| !s.value.trim().is_empty());
        if whole && !c.bot && kept.len() < MAX_SUBJECTS && !kept.contains(&c.subject) {
            kept.push(c.subject.clone());
        }
    }
    for s in near_subjects {
        if out.subjects.len() < MAX_SUBJECTS && !out.subjects.contains(&s) {
            out.subjects.push(s);
        }
    }
    out
}

/// Rewrites HEAD into a commit with a signature-like `gpgsig` header (continuation
/// lines, longer than the rest of the commit), as a signed commit has.
fn sign_head(sb: &Sandbox, r: &Path, step: usize) {
    let raw = sb.git(r, &["cat-file", "commit", "HEAD"]);
    let (headers, message) = raw.split_once("\n\n").unwrap();
    let mut sig = String::from("gpgsig -----BEGIN PGP SIGNATURE-----\n \n");
    for i in 0..12 {
        sig.push_str(&format!(
            " iQIzBAABCAAdFiEE{step:04}{i:02}abcdefghijklmnopqrstuvwxyz0123456789\n"
        ));
    }
    sig.push_str(" -----END PGP SIGNATURE-----\n");
    let signed = format!("{headers}\n{sig}\n{message}");
    let mut cmd = sb.git_cmd(r);
    cmd.args(["hash-object", "-t", "commit", "-w", "--stdin"]);
    let out = run_with_input(cmd, signed.as_bytes());
    let id = String::from_utf8(out.stdout).unwrap();
    sb.git(r, &["reset", "-q", "--soft", id.trim()]);
}

/// A long body: paragraphs of wrapped lines, so a commit is mostly its message.
fn body(rng: &mut Rng, step: usize) -> String {
    let mut b = String::new();
    for line in 0..(4 + rng.below(30)) {
        b.push_str(&format!(
            "- Update: src/file{line}.rs — step {step}, line {line} of a long explanation\n"
        ));
    }
    b
}

/// A history of `steps` commits (and a merge every few) in a new repository.
fn history(sb: &Sandbox, name: &str, seed: u64, steps: usize) -> std::path::PathBuf {
    let r = sb.init(name);
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    for f in FILES {
        write(&r, f, format!("{f}\n"));
    }
    sb.git(&r, &["add", "-A"]);
    sb.git(&r, &["commit", "-qm", "feat: the first files"]);
    for step in 0..steps {
        for _ in 0..=rng.below(2) {
            let f = FILES[rng.below(FILES.len())];
            write(&r, f, format!("{f} at step {step}\n"));
        }
        sb.git(&r, &["add", "-A"]);
        let subject = SUBJECTS[rng.below(SUBJECTS.len())];
        let msg = format!("{subject}\n\n{}", body(&mut rng, step));
        let mut args = vec!["commit", "-q", "--allow-empty", "-m", &msg];
        if rng.below(7) == 0 {
            args.extend(["--author", "dependabot[bot] <support@github.com>"]);
        }
        sb.git(&r, &args);
        if rng.below(4) == 0 {
            sign_head(sb, &r, step);
        }
        if step % 11 == 10 {
            // A merge, which is not counted, of a side branch off an older commit.
            sb.merge_side(
                &r,
                &format!("side{step}"),
                "HEAD~3",
                ("src/util/side.rs", &format!("{step}\n")),
                "fix(side): on the side",
            );
        }
    }
    r
}

/// Every path set and limit, checked against git on the repository as it is stored now.
fn check(sb: &Sandbox, r: &Path, what: &str) -> crate::repo::fast::packs::PackStats {
    let (head, all) = describe(sb, r);
    let repo = Repo::discover_with(r, &GitEnv::default()).unwrap();
    for paths in [
        &["src/lib.rs"][..],
        &["src/util/text.rs", "docs/guide.md"],
        &["README.md"],
        &["src/util/deep/x.rs", "tests/a.rs", "Cargo.toml"],
        &["src/util/side.rs"],
        &["src/new.rs"],
    ] {
        let owned: Vec<String> = paths.iter().map(|p| p.to_string()).collect();
        for limit in [7, 40, 10_000] {
            assert_eq!(
                repo.path_history(&owned, limit).unwrap(),
                expected(&head, &all, paths, limit),
                "{what}: paths {paths:?}, limit {limit}"
            );
        }
    }
    repo.pack_stats()
}

/// Commits stored as deltas in the packs.
fn delta_commits(sb: &Sandbox, r: &Path) -> usize {
    sb.git(
        r,
        &[
            "cat-file",
            "--batch-all-objects",
            "--batch-check=%(objecttype) %(deltabase)",
        ],
    )
    .lines()
    .filter(|l| l.starts_with("commit ") && !l.ends_with(&"0".repeat(40)))
    .count()
}

#[test]
fn path_history_says_what_git_says_loose_and_packed() {
    let sb = Sandbox::new();
    let r = history(&sb, "h", 3, 70);
    let s = check(&sb, &r, "loose");
    assert_eq!(s.prefixes, 0, "{s:?}");

    // git's layout: commits deltified against each other, bases by offset.
    sb.git(
        &r,
        &[
            "repack",
            "-a",
            "-d",
            "-f",
            "--depth=50",
            "--window=250",
            "-q",
        ],
    );
    assert!(delta_commits(&sb, &r) > 5);
    let s = check(&sb, &r, "packed");
    assert!(s.prefixes > 20 && s.fallbacks == 0, "{s:?}");

    // Bases named by id.
    sb.git(
        &r,
        &[
            "-c",
            "repack.useDeltaBaseOffset=false",
            "repack",
            "-adf",
            "-q",
        ],
    );
    assert!(delta_commits(&sb, &r) > 5);
    let s = check(&sb, &r, "packed, bases by id");
    assert!(s.prefixes > 20 && s.fallbacks == 0, "{s:?}");

    // A commit-graph file gives every commit's tree and parents: none is inflated.
    sb.git(&r, &["commit-graph", "write", "--reachable"]);
    let s = check(&sb, &r, "commit-graph");
    assert_eq!(s.prefixes, 0, "{s:?}");
    // Newer commits than the graph knows are read.
    for step in 0..3 {
        write(&r, "src/lib.rs", format!("after the graph {step}\n"));
        sb.git(
            &r,
            &[
                "commit",
                "-qam",
                &format!("feat(lib): after the graph {step}"),
            ],
        );
    }
    sb.git(&r, &["repack", "-d", "-q"]);
    let s = check(&sb, &r, "commit-graph and newer commits");
    assert!(s.prefixes >= 3, "{s:?}");
}

/// A commit's start, cut anywhere, gives its tree and parents, subject and author as the
/// whole commit does, or nothing (the walk reads the whole commit then).
#[test]
fn a_commit_cut_anywhere_reads_as_the_whole_or_not_at_all() {
    const SHA1: gix::hash::Kind = gix::hash::Kind::Sha1;
    let tree = "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n";
    let p1 = "parent 1111111111111111111111111111111111111111\n";
    let p2 = "parent 2222222222222222222222222222222222222222\n";
    let who = "A U Thor <a@example.com> 1700000000 +0100\n";
    let bot = "dependabot[bot] <support@github.com> 1700000000 +0000\n";
    let sig = "gpgsig -----BEGIN PGP SIGNATURE-----\n \n abc\n -----END PGP SIGNATURE-----\n";
    for (parents, author, extra, message) in [
        (p1.to_owned(), who, "", "feat(x): a subject\n\nA body.\n"),
        (format!("{p1}{p2}"), bot, "", "fix: no body"),
        (String::new(), who, sig, "docs: signed\r\n\nbody\n"),
        (
            p1.to_owned(),
            who,
            "encoding ISO-8859-1\n",
            "caf\u{e9} \u{fffd}\n",
        ),
        (p1.to_owned(), who, "", ""),
    ] {
        let raw =
            format!("{tree}{parents}author {author}committer {who}{extra}\n{message}").into_bytes();
        let head = super::parse_head(&raw, SHA1).unwrap();
        let lead = super::lead(&raw, true, SHA1).unwrap();
        assert_eq!(lead.1, author == bot);
        let subject =
            String::from_utf8_lossy(&raw[raw.windows(2).position(|w| w == b"\n\n").unwrap() + 2..])
                .lines()
                .next()
                .unwrap_or("")
                .to_owned();
        assert_eq!(lead.0.lines().next().unwrap_or(""), subject);
        for k in 0..raw.len() {
            let cut = &raw[..k];
            if let Some(h) = super::parse_head(cut, SHA1) {
                assert_eq!(h, head, "cut at {k}");
            }
            if let Some(l) = super::lead(cut, false, SHA1) {
                assert_eq!(l, lead, "cut at {k}");
            }
        }
    }
}
