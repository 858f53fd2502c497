//! Path probes against git: on generated histories (nested directories, deletions,
//! additions, mode-only changes, a file that becomes a directory and back, names that
//! sort around `/`), a probe proves a path changed exactly when `git diff --raw` shows a
//! content change at that path or under it — for the staged set and for each commit.
#![allow(clippy::unwrap_used)]

use std::path::Path;

use jitcommit_core::repo::{GitEnv, ObjectId, Repo};
use jitcommit_core::rules::ChangedPaths;
use jitcommit_testkit::{Rng, Sandbox, assert_ok, run_with_input, write};

const FILES: &[&str] = &[
    "a.rs",
    "b.rs",
    "b-x/y.rs",
    "b/c.rs",
    "b/d/e.rs",
    "b/d/f.rs",
    "b/d/g/h.rs",
    "b0/z.rs",
    "run.sh",
];

/// Paths a bullet might name: every file, every directory, the file-or-directory `x`,
/// and some that never exist.
const CANDIDATES: &[&str] = &[
    "a.rs",
    "b.rs",
    "b-x/y.rs",
    "b-x",
    "b/c.rs",
    "b/d/e.rs",
    "b/d/f.rs",
    "b/d/g/h.rs",
    "b/d/g",
    "b/d",
    "b",
    "b0/z.rs",
    "b0",
    "run.sh",
    "x",
    "x/y",
    "x/y/z",
    "a.rs/q",
    "nope",
    "b/nope",
    "b/d/nope/q",
];

/// Paths with a content change (not a mode alone) in `git diff --raw -z` output.
fn content_changes(raw: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    let mut fields = raw.split(|b| *b == 0);
    while let Some(meta) = fields.next() {
        if meta.is_empty() {
            continue;
        }
        let meta = String::from_utf8_lossy(meta);
        let path = String::from_utf8_lossy(fields.next().unwrap()).into_owned();
        let parts: Vec<&str> = meta.split(' ').collect();
        if parts[2] != parts[3] {
            out.push(path);
        }
    }
    out
}

/// `git diff --cached --raw -z` and the content changes it lists.
fn staged_changes(sb: &Sandbox, r: &Path) -> (Vec<u8>, Vec<String>) {
    let raw = sb
        .git_cmd(r)
        .args([
            "diff",
            "--cached",
            "--raw",
            "-z",
            "--no-renames",
            "--no-abbrev",
        ])
        .output()
        .unwrap()
        .stdout;
    let changed = content_changes(&raw);
    (raw, changed)
}

/// The files `git diff --cached --diff-filter=D` lists, against HEAD's first parent (the
/// empty tree when there is none) for an amend.
fn staged_deletions(sb: &Sandbox, r: &Path, amend: bool) -> Vec<String> {
    let empty = sb.git(r, &["hash-object", "-t", "tree", "/dev/null"]);
    let parent = sb
        .git_cmd(r)
        .args(["rev-parse", "-q", "--verify", "HEAD^{commit}"])
        .output()
        .unwrap();
    let mut args = vec![
        "diff",
        "--cached",
        "--name-only",
        "-z",
        "--no-renames",
        "--diff-filter=D",
    ];
    let base;
    if amend {
        let first_parent = sb
            .git_cmd(r)
            .args(["rev-parse", "-q", "--verify", "HEAD^1"])
            .output()
            .unwrap();
        base = if first_parent.status.success() {
            String::from_utf8(first_parent.stdout).unwrap()
        } else {
            empty
        };
        args.push(base.trim());
    } else if !parent.status.success() {
        // Unborn HEAD: everything is an addition.
        return Vec::new();
    }
    let out = sb.git_cmd(r).args(&args).output().unwrap();
    assert_ok(&out, "git diff --cached --diff-filter=D");
    out.stdout
        .split(|b| *b == 0)
        .filter(|p| !p.is_empty())
        .map(|p| String::from_utf8(p.to_vec()).unwrap())
        .collect()
}

fn expected(changed: &[String], p: &str) -> bool {
    changed
        .iter()
        .any(|q| q == p || q.strip_prefix(p).is_some_and(|r| r.starts_with('/')))
}

/// Whether a fresh open of `r` proves every one of `paths` staged.
fn staged_proved(r: &Path, paths: &[&str]) -> bool {
    let paths: Vec<String> = paths.iter().map(|p| p.to_string()).collect();
    Repo::discover_with(r, &GitEnv::default())
        .unwrap()
        .staged_changes_all(&paths)
        .unwrap()
}

/// `git update-index --index-info` with `info` on its stdin.
fn index_info(sb: &Sandbox, r: &Path, info: &str) {
    let mut cmd = sb.git_cmd(r);
    cmd.args(["update-index", "--index-info"]);
    assert_ok(
        &run_with_input(cmd, info.as_bytes()),
        "update-index --index-info",
    );
}

fn edit(rng: &mut Rng, sb: &Sandbox, r: &Path, step: u64) {
    for f in FILES {
        let path = r.join(f);
        match rng.below(8) {
            0 => {
                let _ = std::fs::remove_file(&path);
            }
            1 | 2 => write(r, f, format!("{f} at step {step}\n")),
            // A mode-only change: the executable bit flips on disk.
            3 if path.exists() => {
                use std::os::unix::fs::PermissionsExt;
                let mode = std::fs::metadata(&path).unwrap().permissions().mode() ^ 0o111;
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
            }
            _ => {}
        }
    }
    // `x` flips between a file and a directory now and then.
    match rng.below(4) {
        0 => {
            let _ = std::fs::remove_dir_all(r.join("x"));
            let _ = std::fs::remove_file(r.join("x"));
            write(r, "x", format!("file {step}\n"));
        }
        1 => {
            let _ = std::fs::remove_file(r.join("x"));
            write(r, "x/y", format!("dir {step}\n"));
        }
        _ => {}
    }
    sb.git(r, &["add", "-A"]);
}

#[test]
fn probes_prove_exactly_the_content_changes() {
    let sb = Sandbox::new();
    let mut proved_staged = 0;
    let mut proved_commits = 0;
    let mut mode_only = 0;
    let mut removals = 0;
    for seed in 1..=6u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let r = sb.init(&format!("probe{seed}"));
        for step in 0..12 {
            edit(&mut rng, &sb, &r, step);

            // The staged set (also before the first commit: HEAD unborn).
            let (raw, changed) = staged_changes(&sb, &r);
            let repo = Repo::discover_with(&r, &GitEnv::default()).unwrap();
            let full = ChangedPaths::new(&repo.staged_changes_for_tracing().unwrap());
            mode_only += FILES
                .iter()
                .filter(|f| full.contains(f) && !expected(&changed, f))
                .count();
            for p in CANDIDATES {
                let proved = repo.staged_changes_all(&[p.to_string()]).unwrap();
                assert_eq!(
                    proved,
                    expected(&changed, p),
                    "seed {seed} step {step}: staged {p} (changes {changed:?})"
                );
                assert!(!proved || full.contains(p), "seed {seed} step {step}: {p}");
                proved_staged += usize::from(proved);
            }
            // The staged deletions, through the walk the probe shares, against git's,
            // for a commit and for an amend (from HEAD's first parent).
            for amend in [false, true] {
                let removed = repo.staged_removals(amend).unwrap().unwrap();
                let removed: Vec<String> = removed.iter().map(|c| c.path.to_string()).collect();
                let want = staged_deletions(&sb, &r, amend);
                assert_eq!(removed, want, "seed {seed} step {step} amend {amend}");
                removals += want.len();
            }
            if changed.is_empty() && raw.is_empty() {
                continue;
            }
            sb.git(&r, &["commit", "-q", "--allow-empty", "-m", "step"]);

            // The commit against its first parent (the empty tree for the root).
            let head = sb.git(&r, &["rev-parse", "HEAD"]);
            let parent = sb
                .git_cmd(&r)
                .args(["rev-parse", "-q", "--verify", "HEAD^"])
                .output()
                .unwrap();
            let base = if parent.status.success() {
                String::from_utf8(parent.stdout).unwrap().trim().to_owned()
            } else {
                sb.git(&r, &["hash-object", "-t", "tree", "/dev/null"])
                    .trim()
                    .to_owned()
            };
            let raw = sb
                .git_cmd(&r)
                .args([
                    "diff",
                    "--raw",
                    "-z",
                    "--no-renames",
                    "--no-abbrev",
                    &base,
                    "HEAD",
                ])
                .output()
                .unwrap()
                .stdout;
            let changed = content_changes(&raw);
            let id = ObjectId::from_hex(head.trim().as_bytes()).unwrap();
            let repo = Repo::discover_with(&r, &GitEnv::default()).unwrap();
            let full = ChangedPaths::new(&repo.commit_changes_for_tracing(id).unwrap());
            for p in CANDIDATES {
                let proved = repo.commit_changes_all(id, &[p.to_string()]).unwrap();
                assert_eq!(
                    proved,
                    expected(&changed, p),
                    "seed {seed} step {step}: commit {p} (changes {changed:?})"
                );
                assert!(!proved || full.contains(p), "seed {seed} step {step}: {p}");
                proved_commits += usize::from(proved);
            }
            // All at once: proved only when each one is.
            let all: Vec<String> = CANDIDATES.iter().map(|p| p.to_string()).collect();
            assert_eq!(
                repo.commit_changes_all(id, &all).unwrap(),
                CANDIDATES.iter().all(|p| expected(&changed, p))
            );
        }
    }
    // The generator does reach the proving side, not only the fallback, and makes
    // mode-only changes (which a probe leaves to the full diff).
    assert!(proved_staged > 50, "{proved_staged}");
    assert!(proved_commits > 50, "{proved_commits}");
    assert!(mode_only > 5, "{mode_only}");
    assert!(removals > 50, "{removals}");
}

/// Entries a probe does not try to judge: an intent-to-add entry is left to the full
/// diff ("not proven"); the other paths of the same index are still proved.
#[test]
fn unusual_indexes_are_not_proven() {
    let sb = Sandbox::new();
    let r = sb.init("ita");
    write(&r, "a.rs", "one\n");
    sb.git(&r, &["add", "-A"]);
    sb.git(&r, &["commit", "-qm", "base"]);
    write(&r, "a.rs", "two\n");
    sb.git(&r, &["add", "-A"]);
    assert!(staged_proved(&r, &["a.rs"]));
    write(&r, "new.rs", "later\n");
    sb.git(&r, &["add", "-N", "new.rs"]);
    assert!(staged_proved(&r, &["a.rs"]));
    assert!(!staged_proved(&r, &["new.rs"]));
    assert!(!staged_proved(&r, &["a.rs", "new.rs"]));
    assert!(!staged_proved(&r, &[""]));
}

/// The staged probe reads versions 2 and 3 of the index in place and leaves the others
/// to gix: every layout git writes is read alike. Version 2; version 3 (an entry with
/// extended flags, here skip-worktree); version 4 (prefix-compressed paths); and an index
/// without its checksum (`index.skipHash`). Each is compared with `git diff --cached`. (A path of 4,095 bytes or more, whose length no
/// longer fits an entry's flags, gix-index 0.58 misreads in versions 2 and 3: the probe
/// then proves nothing and the full diff reports the index as unreadable.)
#[test]
fn every_index_layout_is_read() {
    let sb = Sandbox::new();
    for layout in ["v2", "v3", "v4", "skiphash"] {
        let r = sb.init(&format!("layout-{layout}"));
        if layout == "skiphash" {
            sb.git(&r, &["config", "index.skipHash", "true"]);
        }
        for f in FILES {
            write(&r, f, format!("{f} first\n"));
        }
        sb.git(&r, &["add", "-A"]);
        sb.git(&r, &["commit", "-qm", "base"]);
        write(&r, "b/d/e.rs", "changed\n");
        write(&r, "b0/new.rs", "new\n");
        std::fs::remove_file(r.join("a.rs")).unwrap();
        sb.git(&r, &["add", "-A"]);
        // Enough entries that the index is read in several chunks, entries straddling
        // the chunk boundaries.
        let blob = sb.git(&r, &["hash-object", "-w", "b.rs"]);
        let many: String = (0..2500)
            .map(|i| {
                format!(
                    "100644 {} 0\tmany/{}{i:04}.rs\n",
                    blob.trim(),
                    "f".repeat(i % 23)
                )
            })
            .collect();
        index_info(&sb, &r, &many);
        match layout {
            "v3" => {
                sb.git(&r, &["update-index", "--skip-worktree", "run.sh"]);
            }
            "v4" => {
                sb.git(&r, &["update-index", "--index-version", "4"]);
            }
            _ => {}
        }
        let index = std::fs::read(r.join(".git/index")).unwrap();
        let version = u32::from_be_bytes(index[4..8].try_into().unwrap());
        let want = match layout {
            "v3" => 3,
            "v4" => 4,
            _ => 2,
        };
        assert_eq!(version, want, "{layout}");
        assert!(index.len() > 2 * 64 * 1024, "{layout}: {}", index.len());
        let (_, changed) = staged_changes(&sb, &r);
        let repo = Repo::discover_with(&r, &GitEnv::default()).unwrap();
        let mut candidates: Vec<String> = CANDIDATES.iter().map(|p| p.to_string()).collect();
        candidates.extend([
            "b0/new.rs".into(),
            "00".into(),
            "many".into(),
            format!("many/{}2499.rs", "f".repeat(2499 % 23)),
            "many/0000.rs".into(),
        ]);
        for p in &candidates {
            assert_eq!(
                repo.staged_changes_all(std::slice::from_ref(p)).unwrap(),
                expected(&changed, p),
                "{layout}: {p:.40} (changes {changed:?})"
            );
        }
        assert!(
            repo.staged_changes_all(&["b/d/e.rs".into()]).unwrap(),
            "{layout}"
        );
    }
}

/// A split index (its entries partly in a shared file) is read whole, through gix, by
/// the probe and the full diff alike; a conflicted path is left to the full diff, the
/// others of that index are still proved.
#[test]
fn split_and_conflicted_indexes_are_not_proven() {
    let sb = Sandbox::new();
    let r = sb.init("split");
    write(&r, "a.rs", "one\n");
    write(&r, "b.rs", "one\n");
    sb.git(&r, &["add", "-A"]);
    sb.git(&r, &["commit", "-qm", "base"]);
    write(&r, "a.rs", "two\n");
    sb.git(&r, &["add", "-A"]);
    assert!(staged_proved(&r, &["a.rs"]));

    sb.git(&r, &["update-index", "--split-index"]);
    let repo = Repo::discover_with(&r, &GitEnv::default()).unwrap();
    assert!(repo.staged_changes_all(&["a.rs".into()]).unwrap());
    assert!(!repo.staged_changes_all(&["b.rs".into()]).unwrap());
    let full = ChangedPaths::new(&repo.staged_changes_for_tracing().unwrap());
    assert!(full.contains("a.rs"));
    assert!(!full.contains("b.rs"));
    // The split index's own part holds an entry that sorts after b.rs, which is in the
    // shared part: the probe must not stop at that entry and take b.rs for removed.
    // (The limit keeps git from writing a new shared part for the one added entry.)
    write(&r, "c.rs", "new\n");
    sb.git(
        &r,
        &["-c", "splitIndex.maxPercentChange=100", "add", "c.rs"],
    );
    let repo = Repo::discover_with(&r, &GitEnv::default()).unwrap();
    assert!(!repo.staged_changes_all(&["b.rs".into()]).unwrap());
    assert!(repo.staged_changes_all(&["c.rs".into()]).unwrap());
    sb.git(&r, &["update-index", "--no-split-index"]);
    assert!(staged_proved(&r, &["a.rs"]));

    let blob = sb.git(&r, &["hash-object", "-w", "b.rs"]);
    let info = format!(
        "0 {0}\tb.rs\n100644 {1} 1\tb.rs\n100644 {1} 2\tb.rs\n",
        "0".repeat(40),
        blob.trim()
    );
    index_info(&sb, &r, &info);
    let status = sb.git(&r, &["ls-files", "--stage", "b.rs"]);
    assert!(status.contains(" 2\tb.rs"), "{status}");
    assert!(staged_proved(&r, &["a.rs"]));
    assert!(!staged_proved(&r, &["b.rs"]));
}

/// On a 600-file directory, every set of bullets (several in the same directory, in any
/// order, names that sort around `/` and `.`) is proved exactly when each path is a
/// content change, with the objects loose, packed whole, and with HEAD's tree a delta.
#[test]
fn staged_probe_reads_large_trees() {
    let sb = Sandbox::new();
    for layout in ["loose", "packed", "delta"] {
        let r = sb.init(layout);
        for i in 0..600 {
            write(&r, &format!("big/f{i:03}.rs"), format!("{i}\n"));
        }
        write(&r, "big/sub/a.rs", "a\n");
        write(&r, "big/sub.rs", "s\n");
        write(&r, "top.rs", "t\n");
        sb.git(&r, &["add", "-A"]);
        sb.git(&r, &["commit", "-qm", "base"]);
        if layout == "delta" {
            // A smaller newest tree: git's repack makes it a delta of the larger one.
            for i in 500..600 {
                std::fs::remove_file(r.join(format!("big/f{i:03}.rs"))).unwrap();
            }
            sb.git(&r, &["add", "-A"]);
            sb.git(&r, &["commit", "-qm", "smaller"]);
        }
        if layout != "loose" {
            sb.git(&r, &["repack", "-adfq"]);
            sb.git(&r, &["prune-packed"]);
        }
        write(&r, "big/f010.rs", "changed\n");
        write(&r, "big/f300x.rs", "new\n");
        std::fs::remove_file(r.join("big/f450.rs")).unwrap();
        write(&r, "big/sub/a.rs", "a2\n");
        sb.git(&r, &["add", "-A"]);
        let (_, changed) = staged_changes(&sb, &r);
        let sets: &[&[&str]] = &[
            &["big/f010.rs"],
            &["big/f450.rs"],
            &["big/f300x.rs", "big/f010.rs"],
            &["big/f010.rs", "big/f300x.rs", "big/f450.rs"],
            &["big/sub.rs", "big/sub"],
            &["big/sub", "big/f450.rs"],
            &["big/sub/a.rs", "big/f010.rs"],
            &["big/f011.rs", "big/f010.rs"],
            &["big/f010.rs", "big/f599.rs"],
            &["big/f499.rs"],
            &["big", "top.rs"],
            &["big/f010.rs", "big/nope.rs"],
        ];
        for set in sets {
            assert_eq!(
                staged_proved(&r, set),
                set.iter().all(|p| expected(&changed, p)),
                "{layout}: {set:?} (changes {changed:?})"
            );
        }
    }
}

/// In-process tests open the repository they name, whatever `GIT_*` variables the test
/// process inherits (the suite run from a git hook or `git rebase -x`): two of this
/// binary's tests, re-run with `GIT_DIR`, `GIT_WORK_TREE` and `GIT_INDEX_FILE` naming
/// another repository and a missing index, still pass.
#[test]
fn tests_ignore_the_git_environment_they_run_in() {
    let sb = Sandbox::new();
    let elsewhere = sb.init("elsewhere");
    write(&elsewhere, "other.rs", "other\n");
    sb.git(&elsewhere, &["add", "-A"]);
    sb.git(&elsewhere, &["commit", "-qm", "other"]);
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "probe::unusual_indexes_are_not_proven",
            "probe::split_and_conflicted_indexes_are_not_proven",
            "--test-threads=1",
        ])
        .env("GIT_DIR", elsewhere.join(".git"))
        .env("GIT_WORK_TREE", &elsewhere)
        .env("GIT_INDEX_FILE", sb.path().join("missing-index"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("2 passed"),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
