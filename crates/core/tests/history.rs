//! `Repo::type_history` against git: on generated histories (files and directories
//! added, changed, deleted, made executable, turned into symlinks and into
//! directories, at the root and nested), the commits it counts as touching some paths
//! exactly or through their directories are the ones `git diff-tree` says changed them.
#![allow(clippy::unwrap_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use jitcommit_core::repo::{GitEnv, Repo, TypeHistory};
use jitcommit_testkit::{Rng, Sandbox, write};

const FILES: &[&str] = &[
    "README.md",
    "Cargo.toml",
    "src/lib.rs",
    "src/main.rs",
    "src/util/mod.rs",
    "src/util/text.rs",
    "src/util/deep/x.rs",
    "docs/guide.md",
    "docs/api.md",
    "tests/a.rs",
];

const TYPES: &[&str] = &["feat", "fix", "docs", "test", "refactor", "perf"];

/// One random change to the work tree.
fn change(rng: &mut Rng, r: &Path, step: usize) {
    let f = FILES[rng.below(FILES.len())];
    let path = r.join(f);
    match rng.below(8) {
        0 => {
            let _ = std::fs::remove_file(&path);
        }
        1 if path.is_file() => {
            // A mode-only change.
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode ^ 0o111)).unwrap();
        }
        2 if path.is_file() => {
            std::fs::remove_file(&path).unwrap();
            std::os::unix::fs::symlink("elsewhere", &path).unwrap();
        }
        3 if path.is_file() || path.is_symlink() => {
            // The file becomes a directory of the same name.
            std::fs::remove_file(&path).unwrap();
            write(r, &format!("{f}/inner.txt"), format!("{step}\n"));
        }
        _ => {
            if path.is_dir() {
                std::fs::remove_dir_all(&path).unwrap();
            } else if path.is_symlink() {
                std::fs::remove_file(&path).unwrap();
            }
            write(r, f, format!("{f} at step {step}\n"));
        }
    }
}

/// What `type_history` should say, from `git diff-tree` of every non-merge commit.
fn expected(sb: &Sandbox, r: &Path, paths: &[&str]) -> TypeHistory {
    let files: BTreeSet<&str> = paths.iter().copied().collect();
    let dirs: BTreeSet<&str> = paths
        .iter()
        .map(|p| p.rsplit_once('/').map_or("", |(d, _)| d))
        .collect();
    let mut out = TypeHistory::default();
    for id in sb.git(r, &["rev-list", "--no-merges", "HEAD"]).lines() {
        let subject = sb.git(r, &["log", "-1", "--format=%s", id]);
        let Some(kind) = jitcommit_core::message::parse(subject.trim()).subject.kind else {
            continue;
        };
        let changed = sb.git(
            r,
            &[
                "diff-tree",
                "--root",
                "--no-renames",
                "-r",
                "--name-only",
                "--no-commit-id",
                id,
            ],
        );
        let exact = changed.lines().any(|p| files.contains(p));
        let near = changed
            .lines()
            .any(|p| dirs.contains(p.rsplit_once('/').map_or("", |(d, _)| d)));
        let counts: &mut BTreeMap<String, usize> = if exact {
            &mut out.exact
        } else if near {
            &mut out.near
        } else {
            continue;
        };
        *counts.entry(kind.value.to_lowercase()).or_default() += 1;
    }
    out
}

#[test]
fn type_history_counts_what_git_diff_tree_lists() {
    let sb = Sandbox::new();
    for seed in 1..=6u64 {
        let r = sb.init(&format!("h{seed}"));
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        for f in FILES {
            write(&r, f, format!("{f}\n"));
        }
        sb.git(&r, &["add", "-A"]);
        sb.git(&r, &["commit", "-qm", "feat: the first files"]);
        for step in 0..40 {
            for _ in 0..=rng.below(3) {
                change(&mut rng, &r, step);
            }
            sb.git(&r, &["add", "-A"]);
            let subject = if rng.below(6) == 0 {
                format!("Update things, step {step}")
            } else {
                format!("{}: step {step}", TYPES[rng.below(TYPES.len())])
            };
            sb.git(&r, &["commit", "-q", "--allow-empty", "-m", &subject]);
            if step % 13 == 12 {
                // A merge, which is not counted.
                sb.merge_side(
                    &r,
                    &format!("side{step}"),
                    "HEAD~2",
                    ("side.txt", &format!("{step}\n")),
                    "fix: on the side",
                );
            }
        }
        let repo = Repo::discover_with(&r, &GitEnv::default()).unwrap();
        for paths in [
            &["src/lib.rs"][..],
            &["src/util/text.rs", "docs/guide.md"],
            &["README.md"],
            &["src/util/deep/x.rs", "tests/a.rs", "Cargo.toml"],
            &["src/new.rs"],
        ] {
            let owned: Vec<String> = paths.iter().map(|p| p.to_string()).collect();
            assert_eq!(
                repo.type_history(&owned, 10_000).unwrap(),
                expected(&sb, &r, paths),
                "seed {seed}, paths {paths:?}"
            );
        }
    }
}
