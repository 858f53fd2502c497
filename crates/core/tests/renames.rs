//! Rename pairing against git's own on large generated changes: hundreds of files, the
//! same file names in many directories, files moved with and without edits (similarity
//! on both sides of git's 50% threshold), identical copies of one content, deletions and
//! additions. The staged set's status lines must equal
//! `git diff --cached --name-status -M` (as `git status --short` prints them), and a
//! commit's changes those of `git diff --name-status -M <parent> <commit>`.
#![allow(clippy::unwrap_used)]

use std::path::Path;

use jitcommit_core::repo::{GitEnv, ObjectId, Repo, status_short};
use jitcommit_testkit::{Rng, Sandbox, write};

/// Lines of very different lengths, some past git's 64-byte chunks.
fn content(rng: &mut Rng, seed: usize, lines: usize) -> String {
    (0..lines)
        .map(|i| {
            let pad = "x".repeat(rng.below(3) * rng.below(60));
            format!("line {seed} {i} {}{pad}\n", rng.next_u64() % 1_000_000_007)
        })
        .collect()
}

/// Replaces, drops or doubles about `percent` of `text`'s lines.
fn edit(rng: &mut Rng, text: &str, percent: usize) -> String {
    text.lines()
        .map(|l| {
            if rng.below(100) >= percent {
                return format!("{l}\n");
            }
            match rng.below(3) {
                0 => format!("edited {}\n", rng.next_u64() % 1_000_000_007),
                1 => String::new(),
                _ => format!("{l}\n{l} again\n"),
            }
        })
        .collect()
}

/// git's status lines for `args` (`--name-status -M` output, scores dropped, as
/// `status_short` prints them: `R  old -> new`).
fn git_status(sb: &Sandbox, r: &Path, args: &[&str]) -> String {
    let mut a = vec!["-c", "core.quotePath=true", "diff", "--name-status", "-M"];
    a.extend_from_slice(args);
    let mut out = String::new();
    for line in sb.git(r, &a).lines() {
        let parts: Vec<&str> = line.split('\t').collect();
        let letter = &parts[0][..1];
        match parts.as_slice() {
            [_, old, new] => out.push_str(&format!("{letter}  {old} -> {new}\n")),
            [_, path] => out.push_str(&format!("{letter}  {path}\n")),
            _ => panic!("unexpected line {line:?}"),
        }
    }
    out
}

/// Lines of `a` not in `b`, and of `b` not in `a`.
fn differences(a: &str, b: &str) -> Vec<String> {
    let mut out = Vec::new();
    for l in a.lines().filter(|l| !b.lines().any(|m| m == *l)) {
        out.push(format!("ours only: {l}"));
    }
    for l in b.lines().filter(|l| !a.lines().any(|m| m == *l)) {
        out.push(format!("git only:  {l}"));
    }
    out
}

/// One generated change on a fresh repository, staged (and committed when `commit`).
fn generated(sb: &Sandbox, seed: u64) -> std::path::PathBuf {
    let r = sb.init(&format!("r{seed}"));
    let mut rng = Rng(seed);
    let mut files: Vec<(String, String)> = Vec::new();
    for d in 0..20 {
        for f in 0..25 {
            let n = 12 + rng.below(30);
            let text = content(&mut rng, d * 100 + f, n);
            files.push((format!("d{d}/sub/f{f}.txt"), text));
        }
    }
    // The same content in several directories under the same name.
    let shared = content(&mut rng, 99_999, 20);
    for d in 0..5 {
        files.push((format!("d{d}/common.txt"), shared.clone()));
    }
    // Names found once on each side, which git pairs before ranking similarity.
    for u in 0..30 {
        let text = content(&mut rng, 70_000 + u, 30);
        files.push((format!("u{}/uniq{u}.txt", u % 4), text));
    }
    for (p, t) in &files {
        write(&r, p, t);
    }
    sb.git(&r, &["add", "-A"]);
    sb.git(&r, &["commit", "-qm", "start"]);
    for (i, (p, t)) in files.iter().enumerate() {
        let roll = rng.below(100);
        let name = p.rsplit('/').next().unwrap();
        let remove = || std::fs::remove_file(r.join(p)).unwrap();
        if name.starts_with("uniq") {
            if i % 3 == 0 {
                // The same name a fifth edited, another name barely edited: git keeps
                // the name when it is unique and 75% similar.
                remove();
                let near = edit(&mut rng, t, 20);
                write(&r, &format!("moved/u/{name}"), near);
                let closer = edit(&mut rng, t, 3);
                write(&r, &format!("renamed/twin{i}.txt"), closer);
            }
        } else if p.ends_with("common.txt") {
            if i % 2 == 0 {
                remove();
                write(&r, &format!("moved/x{i}/common.txt"), t);
            }
        } else if roll < 10 {
            // Same name, another directory; often edited.
            remove();
            let pct = *rng.pick(&[0, 10, 25, 40, 48, 55, 70]);
            let new = edit(&mut rng, t, pct);
            let to = rng.below(20);
            write(&r, &format!("moved/d{to}/{name}"), new);
        } else if roll < 12 {
            // Two candidates: the same name a little edited, another name barely edited.
            remove();
            let near = edit(&mut rng, t, 12);
            write(&r, &format!("moved/two{i}/{name}"), near);
            let closer = edit(&mut rng, t, 2);
            write(&r, &format!("renamed/other{i}.txt"), closer);
        } else if roll < 15 {
            // Another name; edited.
            remove();
            let pct = *rng.pick(&[0, 15, 30, 45, 52, 65]);
            let new = edit(&mut rng, t, pct);
            write(&r, &format!("renamed/g{i}.txt"), new);
        } else if roll < 18 {
            remove();
        } else if roll < 22 {
            let new = edit(&mut rng, t, 30);
            write(&r, p, new);
        } else if roll < 24 {
            let text = content(&mut rng, 50_000 + i, 15);
            write(&r, &format!("new/{name}"), text);
        }
    }
    sb.git(&r, &["add", "-A"]);
    r
}

#[test]
fn staged_renames_pair_as_git_pairs_them() {
    let sb = Sandbox::new();
    let mut failures = Vec::new();
    for seed in [1, 2, 3, 4] {
        let r = generated(&sb, seed);
        let repo = Repo::discover_with(&r, &GitEnv::default()).unwrap();
        let ours = status_short(&repo.staged_changes().unwrap());
        let git = git_status(&sb, &r, &["--cached"]);
        assert!(
            git.lines().filter(|l| l.starts_with('R')).count() > 20,
            "{git}"
        );
        let d = differences(&ours, &git);
        if !d.is_empty() {
            failures.push(format!(
                "seed {seed}: {} lines differ\n{}",
                d.len(),
                d.join("\n")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn commit_renames_pair_as_git_pairs_them() {
    let sb = Sandbox::new();
    let mut failures = Vec::new();
    for seed in [5, 6] {
        let r = generated(&sb, seed);
        sb.git(&r, &["commit", "-qm", "change"]);
        let id = ObjectId::from_hex(sb.git(&r, &["rev-parse", "HEAD"]).trim().as_bytes()).unwrap();
        let repo = Repo::discover_with(&r, &GitEnv::default()).unwrap();
        let ours = status_short(&repo.commit_changes(id).unwrap());
        let git = git_status(&sb, &r, &["HEAD~1", "HEAD"]);
        let d = differences(&ours, &git);
        if !d.is_empty() {
            failures.push(format!(
                "seed {seed}: {} lines differ\n{}",
                d.len(),
                d.join("\n")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// A last line without its newline counts towards the similarity, as in git since 2.44
/// (diffcore-delta hashes it too): a file whose 63-byte last line has no newline,
/// renamed with only its first line changed, is a rename (R097), not a deletion and an
/// addition.
#[test]
fn a_last_line_without_newline_counts_as_git_counts_it() {
    let sb = Sandbox::new();
    let r = sb.init("r");
    let tail = "git ignores final up to 63 characters if not newline terminated";
    let lines: String = (0..10).map(|i| format!("{i}\n")).collect();
    write(&r, "nonewline", format!("a\n{lines}{tail}"));
    sb.git(&r, &["add", "-A"]);
    sb.git(&r, &["commit", "-qm", "start"]);
    std::fs::remove_file(r.join("nonewline")).unwrap();
    write(&r, "still-no-newline", format!("b\n{lines}{tail}"));
    sb.git(&r, &["add", "-A"]);
    let repo = Repo::discover_with(&r, &GitEnv::default()).unwrap();
    let ours = status_short(&repo.staged_changes().unwrap());
    let git = git_status(&sb, &r, &["--cached"]);
    assert!(git.contains("R  nonewline -> still-no-newline\n"), "{git}");
    assert_eq!(ours, git);
}
