//! The commit-msg hook on every kind of index git writes (docs/trust.md, "Every index
//! git writes"): a sparse index (`sparse-checkout --sparse-index`), skip-worktree
//! entries, a split index, index version 4, an intent-to-add entry (`add -N`), and the
//! index a resolved merge conflict leaves. Each gives the verdict a full index gives for
//! the same commit, through real git and the real hook.
#![allow(clippy::unwrap_used)]

use crate::check_support;

use std::path::{Path, PathBuf};

use check_support::*;
use jitcommit_testkit::{Sandbox, write};

/// A repository with `src/` and `docs/` committed and the commit-msg hook installed,
/// turned into the index kind `kind` before anything is staged.
fn repo(sb: &Sandbox, name: &str, kind: &str) -> PathBuf {
    let r = sb.init(name);
    write(&r, "src/a.rs", "fn a() {}\n");
    write(&r, "src/b.rs", "fn b() {}\n");
    write(&r, "docs/d.md", "# d\n");
    write(&r, "docs/deep/e.md", "# e\n");
    sb.git(&r, &["add", "."]);
    sb.git(&r, &["commit", "-q", "--no-verify", "-m", "chore: start"]);
    install_hook(&r.join(".git/hooks"), "commit-msg", "");
    let kind_args: &[&[&str]] = match kind {
        "full" => &[],
        "sparse" => &[&["sparse-checkout", "set", "--cone", "--sparse-index", "src"]],
        "sparse-cone-off" => &[&[
            "sparse-checkout",
            "set",
            "--cone",
            "--no-sparse-index",
            "src",
        ]],
        "skip-worktree" => &[&["update-index", "--skip-worktree", "docs/d.md"]],
        "split" => &[&["update-index", "--split-index"]],
        "v4" => &[&["update-index", "--index-version", "4"]],
        "sparse-v4" => &[
            &["sparse-checkout", "set", "--cone", "--sparse-index", "src"],
            &["update-index", "--index-version", "4"],
        ],
        "split-v4" => &[
            &["update-index", "--index-version", "4"],
            &["update-index", "--split-index"],
        ],
        "skiphash" => &[
            &["config", "index.skipHash", "true"],
            &["update-index", "--force-write-index"],
        ],
        "untracked-cache" => &[&["update-index", "--untracked-cache"], &["status", "-s"]],
        "assume-unchanged" => &[&["update-index", "--assume-unchanged", "docs/d.md"]],
        other => panic!("unknown index kind {other}"),
    };
    for args in kind_args {
        sb.git(&r, args);
    }
    assert_kind(sb, &r, kind);
    r
}

/// The index at `r` is of the kind `kind` says: no verdict is compared for want of it.
fn assert_kind(sb: &Sandbox, r: &Path, kind: &str) {
    let data = std::fs::read(r.join(".git/index")).unwrap();
    let has = |sig: &[u8]| data.windows(sig.len()).any(|w| w == sig);
    let version = data[7];
    let sparse = sb.git(r, &["ls-files", "--sparse"]).contains("docs/\n");
    let skip = sb.git(r, &["ls-files", "-t"]).contains("S docs/d.md");
    let held = match kind {
        "full" => version == 2 && !has(b"link"),
        "sparse" => sparse,
        "sparse-cone-off" => !sparse && skip,
        "skip-worktree" => skip && version == 3,
        "split" => has(b"link"),
        "v4" => version == 4,
        "sparse-v4" => sparse && version == 4,
        "split-v4" => has(b"link") && version == 4,
        "skiphash" => data.ends_with(&[0; 20]),
        "untracked-cache" => has(b"UNTR"),
        "assume-unchanged" => sb.git(r, &["ls-files", "-v"]).contains("h docs/d.md"),
        _ => false,
    };
    assert!(held, "{kind}: not that kind of index (version {version})");
}

/// The hook's verdict on committing what `stage` stages with `msg`: whether git made
/// the commit, and the hook's findings (stderr without the rejected message's path).
fn verdict(sb: &Sandbox, r: &Path, stage: &dyn Fn(&Sandbox, &Path), msg: &str) -> (bool, String) {
    stage(sb, r);
    let o = git_try(sb, r, &["commit", "-q", "-m", msg], &[]);
    let findings: String = stderr(&o)
        .lines()
        .filter(|l| l.contains(": bullet-") || l.contains(": body-") || l.contains("error"))
        .map(|l| {
            format!(
                "{}\n",
                l.rsplit_once("COMMIT_EDITMSG").map_or(l, |(_, x)| x)
            )
        })
        .collect();
    (o.status.success(), findings)
}

fn modify_a(sb: &Sandbox, r: &Path) {
    write(r, "src/a.rs", "fn a() { 1 }\n");
    sb.git(r, &["add", "src/a.rs"]);
}

/// The index kinds besides the full one.
const KINDS: [&str; 10] = [
    "sparse",
    "sparse-cone-off",
    "skip-worktree",
    "split",
    "v4",
    "sparse-v4",
    "split-v4",
    "skiphash",
    "untracked-cache",
    "assume-unchanged",
];

/// Every index kind gives the full index's verdict: a conforming commit whose bullet
/// names its staged file is accepted; one naming a file outside the sparse cone (or
/// under skip-worktree) that the commit did not change is rejected the same way; one
/// naming a directory only the sparse index holds as a single entry likewise.
#[test]
fn every_index_kind_gives_the_verdict_of_a_full_index() {
    let sb = Sandbox::new();
    let cases: [(&str, &str); 4] = [
        ("fix(src): tweak a", "src/a.rs"),
        ("fix(docs): claim d", "docs/d.md"),
        ("fix(docs): claim a directory", "docs/deep"),
        ("fix: claim the whole docs", "docs"),
    ];
    for (n, (subject, path)) in cases.iter().enumerate() {
        let msg = good(subject, &[path]);
        let want = verdict(
            &sb,
            &repo(&sb, &format!("full{n}"), "full"),
            &modify_a,
            &msg,
        );
        for kind in KINDS {
            let r = repo(&sb, &format!("{kind}{n}"), kind);
            let got = verdict(&sb, &r, &modify_a, &msg);
            assert_eq!(got, want, "{kind}: {msg}");
        }
        assert_eq!(want.0, n == 0, "the full index's verdict: {msg} {want:?}");
    }
}

/// The example: after `sparse-checkout set --cone --sparse-index src`, a
/// conforming commit was rejected ("Cannot diff indices that contain sparse entries").
/// Also `commit -a` (git names a lock file as the index) and a staged deletion outside
/// the cone (`git rm --sparse`).
#[test]
fn a_sparse_index_accepts_a_conforming_commit() {
    let sb = Sandbox::new();
    let r = repo(&sb, "sparse", "sparse");
    assert!(
        sb.git(&r, &["ls-files", "--sparse"]).contains("docs/\n"),
        "a sparse index: docs/ is one directory entry"
    );
    modify_a(&sb, &r);
    let o = try_commit(&sb, &r, &good("fix(src): tweak a", &["src/a.rs"]));
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    write(&r, "src/b.rs", "fn b() { 2 }\n");
    let o = git_try(
        &sb,
        &r,
        &[
            "commit",
            "-q",
            "-a",
            "-m",
            &good("fix(src): tweak b", &["src/b.rs"]),
        ],
        &[],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    sb.git(&r, &["rm", "-q", "--sparse", "docs/d.md"]);
    let o = try_commit(&sb, &r, &good("docs: drop d", &["docs/d.md"]));
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = try_commit_file(&sb, &r, "src/c.rs", &good("feat: add c", &["src/b.rs"]));
    assert_ne!(
        code(&o),
        0,
        "a bullet naming an unchanged file is still rejected"
    );
    assert!(stderr(&o).contains("bullet-path"), "{}", stderr(&o));
}

/// An intent-to-add entry (`git add -N`) beside the staged change, in a full and in a
/// sparse index: the same verdicts as without it (git commits the intent-to-add file
/// as not added).
#[test]
fn an_intent_to_add_entry_gives_the_verdict_without_it() {
    let sb = Sandbox::new();
    for kind in [
        "full",
        "sparse",
        "split",
        "v4",
        "sparse-v4",
        "skip-worktree",
    ] {
        let stage = |sb: &Sandbox, r: &Path| {
            modify_a(sb, r);
            write(r, "src/new.rs", "fn n() {}\n");
            sb.git(r, &["add", "-N", "src/new.rs"]);
        };
        let ok = good("fix(src): tweak a", &["src/a.rs"]);
        let r = repo(&sb, &format!("ita-{kind}"), kind);
        assert_eq!(
            verdict(&sb, &r, &stage, &ok),
            (true, String::new()),
            "{kind}"
        );
        let claims_new = good("feat(src): add new", &["src/a.rs", "src/new.rs"]);
        let r = repo(&sb, &format!("ita-new-{kind}"), kind);
        let (made, findings) = verdict(&sb, &r, &stage, &claims_new);
        assert!(
            !made && findings.contains("bullet-path"),
            "{kind}: {findings}"
        );
    }
}

/// The index a merge conflict leaves, once resolved and committed with a message of
/// its own (not `Merge …`): judged as the same tree staged without a conflict.
#[test]
fn a_resolved_conflict_gives_the_verdict_of_a_plain_merge() {
    let sb = Sandbox::new();
    for kind in ["full", "sparse", "split", "v4", "sparse-v4"] {
        let r = repo(&sb, &format!("conflict-{kind}"), kind);
        sb.git(&r, &["checkout", "-q", "-b", "side"]);
        write(&r, "src/a.rs", "fn a() { side }\n");
        sb.git(&r, &["commit", "-q", "--no-verify", "-am", "side"]);
        sb.git(&r, &["checkout", "-q", "main"]);
        write(&r, "src/a.rs", "fn a() { main }\n");
        sb.git(&r, &["commit", "-q", "--no-verify", "-am", "main"]);
        let o = git_try(&sb, &r, &["merge", "-q", "side"], &[]);
        assert!(!o.status.success(), "a conflict");
        assert!(
            sb.git(&r, &["ls-files", "-u"]).contains("src/a.rs"),
            "stages 1-3"
        );
        write(&r, "src/a.rs", "fn a() { both }\n");
        sb.git(&r, &["add", "src/a.rs"]);
        let o = try_commit(&sb, &r, &good("fix(src): join both sides", &["src/a.rs"]));
        assert_eq!(code(&o), 0, "{kind}: {}", stderr(&o));
    }
}
