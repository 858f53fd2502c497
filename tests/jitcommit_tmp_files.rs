//! A write killed half way leaves nothing `git status` shows: `changelog --write`
//! (and every other writer of a work-tree file) writes its temporary file in the git
//! dir, and removes one a killed run of an older version left beside the file
//! (docs/trust.md, "Nothing left behind"). The kill is real: the write runs under
//! `ulimit -f`, so the kernel kills it with SIGXFSZ in the middle of writing, as
//! `kill -9` would, with no chance to clean up.
#![allow(clippy::unwrap_used)]

use crate::jitcommit_support;

use jitcommit_support::*;
use jitcommit_testkit::{Sandbox, write};

fn long_history(sb: &Sandbox) -> Repo<'_> {
    let r = Repo::new(sb, "r");
    r.commit("a.txt", "a\n", "feat: start");
    for i in 0..60 {
        r.git(&[
            "commit",
            "-q",
            "--allow-empty",
            "-m",
            &format!("feat: add the feature number {i} with words enough to fill a line"),
        ]);
    }
    r
}

#[test]
fn a_write_killed_half_way_leaves_no_untracked_file() {
    let sb = Sandbox::new();
    let r = long_history(&sb);
    let o = sb
        .cmd("sh", &r.dir)
        .args([
            "-c",
            "ulimit -f 2; exec \"$0\" changelog --write CHANGELOG.md",
            bin().to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        o.status.code().is_none(),
        "the write was not killed half way (the changelog is too short?): {o:?}"
    );
    let status = r.git(&["status", "--porcelain", "--untracked-files=all"]);
    assert_eq!(status, "", "a killed write left files in the work tree");
}

#[test]
fn a_temporary_file_a_killed_run_left_is_removed_by_the_next_write() {
    let sb = Sandbox::new();
    let r = long_history(&sb);
    // One beside the file (where a run before this one wrote), one in the git dir
    // (where a run killed now leaves it): both an hour old, which no run still writes.
    write(&r.dir, ".jitcommit-AbCd12.tmp", "half a changelog");
    write(&r.dir, ".git/.jitcommit-EfGh34.tmp", "half a changelog");
    r.git(&["commit", "-q", "--allow-empty", "-m", "fix: one more"]);
    for f in [".jitcommit-AbCd12.tmp", ".git/.jitcommit-EfGh34.tmp"] {
        let o = sb
            .cmd("touch", &r.dir)
            .args(["-d", "1 hour ago", f])
            .output()
            .unwrap();
        assert!(o.status.success());
    }
    let o = r.jc(&["changelog", "--write", "CHANGELOG.md"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(!r.dir.join(".jitcommit-AbCd12.tmp").exists());
    assert!(!r.dir.join(".git/.jitcommit-EfGh34.tmp").exists());
    let status = r.git(&["status", "--porcelain", "--untracked-files=all"]);
    assert_eq!(status, "?? CHANGELOG.md\n");
}
