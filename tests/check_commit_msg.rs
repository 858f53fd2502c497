//! `jitcommit-check` as a real commit-msg hook under `git commit`: every row of
//! docs/git-hooks.md's commit-msg and cleanup sections that the validator depends on.
#![allow(clippy::unwrap_used)]

use crate::check_support;

use check_support::*;
use jitcommit_testkit::{Sandbox, write};

const BAD: &str = "changed some stuff\n";

fn commit_count(sb: &Sandbox, r: &std::path::Path) -> usize {
    count(sb, r, "HEAD")
}

#[test]
fn editor_commit_good_message_is_accepted() {
    let sb = Sandbox::new();
    let r = client(&sb, "r");
    write(&r, "a.txt", "b\n");
    sb.git(&r, &["add", "a.txt"]);
    let ed = editor(&sb, &good("fix: correct a", &["a.txt"]));
    let o = git_try(&sb, &r, &["commit", "-q"], &[("GIT_EDITOR", &ed)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        head_message(&sb, &r),
        good("fix: correct a", &["a.txt"]) + "\n"
    );
}

#[test]
fn editor_commit_bad_message_is_rejected_saved_and_reusable() {
    let sb = Sandbox::new();
    let r = client(&sb, "r");
    write(&r, "a.txt", "b\n");
    sb.git(&r, &["add", "a.txt"]);
    let ed = editor(&sb, BAD);
    let o = git_try(&sb, &r, &["commit", "-q"], &[("GIT_EDITOR", &ed)]);
    assert_ne!(code(&o), 0);
    assert_eq!(commit_count(&sb, &r), 1, "no commit was made");
    let err = stderr(&o);
    assert!(err.contains("COMMIT_EDITMSG:1:"), "{err}");
    let saved = r.join(".git/jitcommit/REJECTED_EDITMSG");
    let cmd = format!(
        "git commit -e -F {}",
        saved.canonicalize().unwrap().display()
    );
    let cmd_plain = format!("git commit -e -F {}", saved.display());
    assert!(err.contains(&cmd) || err.contains(&cmd_plain), "{err}");
    let text = std::fs::read_to_string(&saved).unwrap();
    assert!(text.starts_with(BAD), "the user's text is kept: {text:?}");

    // Reuse: the editor fixes the saved text, the commit goes through.
    let fixer = sb.path().join("fix.sh");
    std::fs::write(
        &fixer,
        "#!/bin/sh\nprintf 'fix: correct a\\n\\n- Update: a.txt — changed some stuff\\n' > \"$1.new\" && cat \"$1\" >> \"$1.new\" && mv \"$1.new\" \"$1\"\n",
    )
    .unwrap();
    make_executable(&fixer);
    let o = git_try(
        &sb,
        &r,
        &["commit", "-q", "-e", "-F", saved.to_str().unwrap()],
        &[("GIT_EDITOR", fixer.to_str().unwrap())],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(head_message(&sb, &r).starts_with("fix: correct a\n"));
}

#[test]
fn dash_m_and_dash_f() {
    let sb = Sandbox::new();
    let r = client(&sb, "r");
    write(&r, "a.txt", "b\n");
    sb.git(&r, &["add", "a.txt"]);
    let o = git_try(&sb, &r, &["commit", "-q", "-m", BAD], &[]);
    assert_ne!(code(&o), 0);
    let o = git_try(
        &sb,
        &r,
        &["commit", "-q", "-m", &good("fix: correct a", &["a.txt"])],
        &[],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));

    write(&r, "a.txt", "c\n");
    sb.git(&r, &["add", "a.txt"]);
    write(sb.path(), "msg-bad", BAD);
    let o = git_try(
        &sb,
        &r,
        &[
            "commit",
            "-q",
            "-F",
            sb.path().join("msg-bad").to_str().unwrap(),
        ],
        &[],
    );
    assert_ne!(code(&o), 0);
    write(
        sb.path(),
        "msg-good",
        good("fix: correct a again", &["a.txt"]),
    );
    let o = git_try(
        &sb,
        &r,
        &[
            "commit",
            "-q",
            "-F",
            sb.path().join("msg-good").to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(commit_count(&sb, &r), 3);
}

#[test]
fn path_tracing_rejects_a_path_that_is_not_staged() {
    let sb = Sandbox::new();
    let r = client(&sb, "r");
    write(&r, "a.txt", "b\n");
    sb.git(&r, &["add", "a.txt"]);
    let o = git_try(
        &sb,
        &r,
        &[
            "commit",
            "-q",
            "-m",
            &good("fix: correct a", &["src/lib.rs"]),
        ],
        &[],
    );
    assert_ne!(code(&o), 0);
    assert!(stderr(&o).contains("src/lib.rs"), "{}", stderr(&o));
    // A directory holding a staged file is fine.
    write(&r, "src/lib.rs", "fn b() {}\n");
    sb.git(&r, &["add", "src/lib.rs"]);
    let o = git_try(
        &sb,
        &r,
        &[
            "commit",
            "-q",
            "-m",
            &good("fix: correct a", &["src", "a.txt"]),
        ],
        &[],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

#[test]
fn verbose_scissors_and_diff_are_not_checked_and_not_saved() {
    let sb = Sandbox::new();
    let r = client(&sb, "r");
    write(
        &r,
        "a.txt",
        "- Changed: nothing — this line sits in the -v diff\n",
    );
    sb.git(&r, &["add", "a.txt"]);
    let ed = editor(&sb, &good("fix: correct a", &["a.txt"]));
    let o = git_try(&sb, &r, &["commit", "-q", "-v"], &[("GIT_EDITOR", &ed)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));

    write(&r, "a.txt", "again\n");
    sb.git(&r, &["add", "a.txt"]);
    let ed = editor(&sb, BAD);
    let o = git_try(&sb, &r, &["commit", "-q", "-v"], &[("GIT_EDITOR", &ed)]);
    assert_ne!(code(&o), 0);
    let saved = std::fs::read_to_string(r.join(".git/jitcommit/REJECTED_EDITMSG")).unwrap();
    assert!(saved.starts_with(BAD));
    assert!(!saved.contains(">8"), "cut at the scissors: {saved:?}");
    assert!(!saved.contains("diff --git"), "{saved:?}");
}

#[test]
fn cleanup_modes() {
    let sb = Sandbox::new();
    let r = client(&sb, "r");
    let with_comment = format!("{}# a comment line\n", good("fix: correct a", &["a.txt"]));
    let file = sb.path().join("msg");
    std::fs::write(&file, &with_comment).unwrap();
    let f = file.to_str().unwrap();
    for (n, mode) in ["strip", "whitespace", "verbatim", "scissors"]
        .iter()
        .enumerate()
    {
        write(&r, "a.txt", format!("{n}\n"));
        sb.git(&r, &["add", "a.txt"]);
        let o = git_try(
            &sb,
            &r,
            &["commit", "-q", &format!("--cleanup={mode}"), "-F", f],
            &[],
        );
        assert_eq!(code(&o), 0, "--cleanup={mode}: {}", stderr(&o));
        let stored = head_message(&sb, &r);
        // The hook cannot see --cleanup: it checks the text as `strip` would leave it.
        // git then applies the mode the user asked for, so whitespace and verbatim
        // keep the comment line the hook ignored (documented in docs/check.md).
        assert_eq!(
            stored.contains("# a comment line"),
            *mode != "strip",
            "{mode}: {stored:?}"
        );
    }
    // The scissors mode with a scissors line in the file: everything below is ignored.
    write(&r, "a.txt", "scissors\n");
    sb.git(&r, &["add", "a.txt"]);
    let text = format!(
        "{}# ------------------------ >8 ------------------------\nnot a bullet at all\n",
        good("fix: correct a", &["a.txt"])
    );
    std::fs::write(&file, text).unwrap();
    // With an editor git cuts there, as the hook does.
    let o = git_try(
        &sb,
        &r,
        &["commit", "-q", "--cleanup=scissors", "-e", "-F", f],
        &[("GIT_EDITOR", "true")],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(!head_message(&sb, &r).contains("not a bullet"));
    // Without an editor git does not cut (scissors = whitespace then) but the hook still
    // does: the stored message keeps text the hook did not check (docs/check.md).
    write(&r, "a.txt", "scissors again\n");
    sb.git(&r, &["add", "a.txt"]);
    let o = git_try(
        &sb,
        &r,
        &["commit", "-q", "--cleanup=scissors", "-F", f],
        &[],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(head_message(&sb, &r).contains("not a bullet"));
}

/// A message whose first line is a comment under `#` but text under any other prefix.
fn hash_first(paths: &[&str]) -> String {
    format!(
        "# feat: this line is a comment only when # is the comment prefix\n{}",
        good("fix: correct a", paths)
    )
}

#[test]
fn comment_char_from_repo_config() {
    let sb = Sandbox::new();
    let r = client(&sb, "r");
    write(&r, "a.txt", "b\n");
    sb.git(&r, &["add", "a.txt"]);
    sb.git(&r, &["config", "core.commentChar", ";"]);
    let ed = editor(&sb, &hash_first(&["a.txt"]));
    let o = git_try(
        &sb,
        &r,
        &["commit", "-q", "--cleanup=strip"],
        &[("GIT_EDITOR", &ed)],
    );
    assert_ne!(
        code(&o),
        0,
        "with ; as the prefix the # line is the subject"
    );
    // git's own `;` comments are dropped: a message without a # line passes.
    let ed = editor(&sb, &good("fix: correct a", &["a.txt"]));
    let o = git_try(&sb, &r, &["commit", "-q"], &[("GIT_EDITOR", &ed)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

#[test]
fn comment_char_default_drops_the_hash_line() {
    let sb = Sandbox::new();
    let r = client(&sb, "r");
    write(&r, "a.txt", "b\n");
    sb.git(&r, &["add", "a.txt"]);
    let ed = editor(&sb, &hash_first(&["a.txt"]));
    let o = git_try(&sb, &r, &["commit", "-q"], &[("GIT_EDITOR", &ed)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

#[test]
fn comment_char_from_git_dash_c() {
    let sb = Sandbox::new();
    let r = client(&sb, "r");
    write(&r, "a.txt", "b\n");
    sb.git(&r, &["add", "a.txt"]);
    let ed = editor(&sb, &hash_first(&["a.txt"]));
    let o = git_try(
        &sb,
        &r,
        &["-c", "core.commentChar=;", "commit", "-q"],
        &[("GIT_EDITOR", &ed)],
    );
    assert_ne!(code(&o), 0, "GIT_CONFIG_PARAMETERS must reach the hook");
    assert_eq!(count(&sb, &r, "HEAD"), 1);
}

#[test]
fn comment_string_multi_character() {
    let sb = Sandbox::new();
    let r = client(&sb, "r");
    write(&r, "a.txt", "b\n");
    sb.git(&r, &["add", "a.txt"]);
    sb.git(&r, &["config", "core.commentString", "//"]);
    let msg = format!(
        "// a note that git strips\n{}",
        good("fix: correct a", &["a.txt"])
    );
    let ed = editor(&sb, &msg);
    let o = git_try(&sb, &r, &["commit", "-q"], &[("GIT_EDITOR", &ed)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        head_message(&sb, &r),
        good("fix: correct a", &["a.txt"]) + "\n"
    );

    // The same text under the default prefix: `// a note` is the subject.
    let sb2 = Sandbox::new();
    let r2 = client(&sb2, "r");
    write(&r2, "a.txt", "b\n");
    sb2.git(&r2, &["add", "a.txt"]);
    let ed = editor(&sb2, &msg);
    let o = git_try(&sb2, &r2, &["commit", "-q"], &[("GIT_EDITOR", &ed)]);
    assert_ne!(code(&o), 0);
}

#[test]
fn comment_char_auto() {
    let sb = Sandbox::new();
    let r = client(&sb, "r");
    sb.git(&r, &["config", "core.commentChar", "auto"]);
    write(&r, "a.txt", "b\n");
    sb.git(&r, &["add", "a.txt"]);
    let ed = editor(&sb, &good("fix: correct a", &["a.txt"]));
    let o = git_try(&sb, &r, &["commit", "-q"], &[("GIT_EDITOR", &ed)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // With a template whose lines start with #, git picks `;` for its own comments.
    write(&r, "a.txt", "c\n");
    sb.git(&r, &["add", "a.txt"]);
    let tpl = sb.path().join("template");
    std::fs::write(&tpl, "# template text kept by git\n").unwrap();
    let fixer = sb.path().join("auto.sh");
    std::fs::write(
        &fixer,
        "#!/bin/sh\ngrep -q '^; Please enter' \"$1\" || exit 3\nprintf 'fix: correct a\\n\\n- Update: a.txt — auto\\n' > \"$1.new\" && grep '^;' \"$1\" >> \"$1.new\" && mv \"$1.new\" \"$1\"\n",
    )
    .unwrap();
    make_executable(&fixer);
    let o = git_try(
        &sb,
        &r,
        &["commit", "-q", "-t", tpl.to_str().unwrap()],
        &[("GIT_EDITOR", fixer.to_str().unwrap())],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        head_message(&sb, &r),
        "fix: correct a\n\n- Update: a.txt — auto\n\n"
    );
}

#[test]
fn linked_worktree() {
    let sb = Sandbox::new();
    let r = client(&sb, "r");
    let wt = sb.path().join("wt");
    sb.git(
        &r,
        &["worktree", "add", "-q", "-b", "side", wt.to_str().unwrap()],
    );
    write(&wt, "a.txt", "side\n");
    sb.git(&wt, &["add", "a.txt"]);
    let o = git_try(&sb, &wt, &["commit", "-q", "-m", BAD], &[]);
    assert_ne!(code(&o), 0);
    let saved = r.join(".git/worktrees/wt/jitcommit/REJECTED_EDITMSG");
    assert!(
        saved.is_file(),
        "saved in the worktree's git dir: {}",
        stderr(&o)
    );
    let o = git_try(
        &sb,
        &wt,
        &["commit", "-q", "-m", &good("fix: side", &["a.txt"])],
        &[],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(count(&sb, &r, "side"), 2);
}

#[test]
fn commit_all_traces_the_lock_index() {
    let sb = Sandbox::new();
    let r = client(&sb, "r");
    write(&r, "a.txt", "changed but not added\n");
    let o = git_try(
        &sb,
        &r,
        &["commit", "-q", "-a", "-m", &good("fix: a", &["src/lib.rs"])],
        &[],
    );
    assert_ne!(code(&o), 0, "src/lib.rs is not part of this commit");
    let o = git_try(
        &sb,
        &r,
        &["commit", "-q", "-a", "-m", &good("fix: a", &["a.txt"])],
        &[],
    );
    assert_eq!(
        code(&o),
        0,
        "a.txt is in the index git builds for -a: {}",
        stderr(&o)
    );
}

#[test]
fn commit_paths_traces_the_temporary_index() {
    let sb = Sandbox::new();
    let r = client(&sb, "r");
    write(&r, "b.txt", "staged elsewhere\n");
    sb.git(&r, &["add", "b.txt"]);
    write(&r, "a.txt", "only this\n");
    let o = git_try(
        &sb,
        &r,
        &["commit", "-q", "a.txt", "-m", &good("fix: a", &["b.txt"])],
        &[],
    );
    assert_ne!(code(&o), 0, "b.txt is staged but not in `commit a.txt`");
    let o = git_try(
        &sb,
        &r,
        &["commit", "-q", "a.txt", "-m", &good("fix: a", &["a.txt"])],
        &[],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // b.txt is still staged for the next commit.
    assert_eq!(sb.git(&r, &["diff", "--cached", "--name-only"]), "b.txt\n");
}

#[test]
fn initial_commit_on_an_unborn_branch() {
    let sb = Sandbox::new();
    let r = sb.init("r");
    install_hook(&r.join(".git/hooks"), "commit-msg", "");
    write(&r, "a.txt", "a\n");
    sb.git(&r, &["add", "a.txt"]);
    let o = git_try(
        &sb,
        &r,
        &["commit", "-q", "-m", &good("feat: start", &["a.txt"])],
        &[],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

#[test]
fn merge_commit_message_is_exempt() {
    let sb = Sandbox::new();
    let r = client(&sb, "r");
    sb.git(&r, &["checkout", "-q", "-b", "topic"]);
    write(&r, "t.txt", "t\n");
    sb.git(&r, &["add", "t.txt"]);
    sb.git(
        &r,
        &["commit", "-q", "-m", &good("feat: topic", &["t.txt"])],
    );
    sb.git(&r, &["checkout", "-q", "main"]);
    write(&r, "m.txt", "m\n");
    sb.git(&r, &["add", "m.txt"]);
    sb.git(&r, &["commit", "-q", "-m", &good("feat: main", &["m.txt"])]);
    // commit-msg runs for a merge commit (with MERGE_MSG's text).
    let o = git_try(&sb, &r, &["merge", "-q", "--no-edit", "topic"], &[]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(head_message(&sb, &r).starts_with("Merge branch 'topic'"));
}

#[test]
fn hook_through_pre_commit_style_args() {
    // pre-commit appends the message file after the hook's own args.
    let sb = Sandbox::new();
    let r = client(&sb, "r");
    install_hook(
        &r.join(".git/hooks"),
        "commit-msg",
        "--format json --no-trace-paths",
    );
    write(&r, "a.txt", "b\n");
    sb.git(&r, &["add", "a.txt"]);
    let o = git_try(
        &sb,
        &r,
        &["commit", "-q", "-m", &good("fix: a", &["not/staged.txt"])],
        &[],
    );
    assert_eq!(code(&o), 0, "tracing is off: {}", stderr(&o));
    let o = git_try(&sb, &r, &["commit", "-q", "--allow-empty", "-m", BAD], &[]);
    assert_ne!(code(&o), 0);
    // The hook's stdout reaches git's stderr: one JSON line.
    let line = stderr(&o)
        .lines()
        .find(|l| l.starts_with('{'))
        .map(str::to_string)
        .unwrap();
    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert!(v["file"].as_str().unwrap().ends_with("COMMIT_EDITMSG"));
    assert!(!v["findings"].as_array().unwrap().is_empty());
}

#[test]
fn merge_with_a_bad_message_is_checked_from_merge_msg() {
    let sb = Sandbox::new();
    let r = client(&sb, "r");
    sb.git(&r, &["checkout", "-q", "-b", "topic"]);
    write(&r, "t.txt", "t\n");
    sb.git(&r, &["add", "t.txt"]);
    sb.git(
        &r,
        &["commit", "-q", "-m", &good("feat: topic", &["t.txt"])],
    );
    sb.git(&r, &["checkout", "-q", "main"]);
    write(&r, "m.txt", "m\n");
    sb.git(&r, &["add", "m.txt"]);
    sb.git(&r, &["commit", "-q", "-m", &good("feat: main", &["m.txt"])]);
    let o = git_try(
        &sb,
        &r,
        &["merge", "-q", "--no-ff", "-m", "merged things", "topic"],
        &[],
    );
    assert_ne!(code(&o), 0, "{}", stderr(&o));
    assert!(stderr(&o).contains("MERGE_MSG:1:"), "{}", stderr(&o));
    assert_eq!(count(&sb, &r, "HEAD"), 2, "the merge commit was not made");
}

#[test]
fn no_verify_skips_the_hook() {
    // Documents why the server check exists: the client hook can be skipped.
    let sb = Sandbox::new();
    let r = client(&sb, "r");
    let o = git_try(
        &sb,
        &r,
        &["commit", "-q", "--allow-empty", "--no-verify", "-m", BAD],
        &[],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(!r.join(".git/jitcommit/REJECTED_EDITMSG").exists());
}

#[test]
fn a_saved_message_is_what_git_would_store_and_an_earlier_one_is_kept() {
    let sb = Sandbox::new();
    let r = client(&sb, "r");
    write(&r, "a.txt", "b\n");
    sb.git(&r, &["add", "a.txt"]);
    let ed = editor(&sb, BAD);
    let o = git_try(&sb, &r, &["commit", "-q", "-v"], &[("GIT_EDITOR", &ed)]);
    assert_eq!(code(&o), 1);
    let saved = r.join(".git/jitcommit/REJECTED_EDITMSG");
    assert_eq!(
        std::fs::read_to_string(&saved).unwrap(),
        BAD,
        "no comment block, no -v diff: `git commit -F` stores it as it is"
    );
    // A second rejection with other words keeps the first as .1, and says so.
    let ed = editor(&sb, "other words\n");
    let o = git_try(&sb, &r, &["commit", "-q"], &[("GIT_EDITOR", &ed)]);
    assert_eq!(code(&o), 1);
    assert_eq!(std::fs::read_to_string(&saved).unwrap(), "other words\n");
    let older = r.join(".git/jitcommit/REJECTED_EDITMSG.1");
    assert_eq!(std::fs::read_to_string(&older).unwrap(), BAD);
    assert!(stderr(&o).contains("REJECTED_EDITMSG.1"), "{}", stderr(&o));
    // `git commit -F` of a fixed saved text stores no '#' line.
    std::fs::write(&saved, good("fix: correct a", &["a.txt"])).unwrap();
    let o = git_try(
        &sb,
        &r,
        &["commit", "-q", "-F", saved.to_str().unwrap()],
        &[],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(!head_message(&sb, &r).contains('#'));
}

#[test]
fn a_broken_convention_keeps_the_message_and_says_how_to_reuse_it() {
    let sb = Sandbox::new();
    let r = client(&sb, "r");
    write(
        &r,
        ".commit-convention.toml",
        "types = [\"feat\"]\nsubjekt-max = 50\n",
    );
    write(&r, "a.txt", "b\n");
    sb.git(&r, &["add", "a.txt"]);
    let msg = good("feat: correct a", &["a.txt"]);
    let ed = editor(&sb, &msg);
    let o = git_try(&sb, &r, &["commit", "-q"], &[("GIT_EDITOR", &ed)]);
    assert_eq!(code(&o), 1, "git reports the hook's failure");
    let err = stderr(&o);
    assert!(err.contains(".commit-convention.toml"), "{err}");
    assert!(err.contains("subjekt-max"), "{err}");
    assert!(err.contains("git commit -e -F"), "{err}");
    let saved = r.join(".git/jitcommit/REJECTED_EDITMSG");
    assert_eq!(std::fs::read_to_string(&saved).unwrap(), msg);
    // Fix the convention, reuse the saved text.
    write(&r, ".commit-convention.toml", "types = [\"feat\"]\n");
    let o = git_try(
        &sb,
        &r,
        &["commit", "-q", "-F", saved.to_str().unwrap()],
        &[],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(head_message(&sb, &r), format!("{msg}\n"));
}

#[test]
fn what_git_stores_decides_whitespace_comments_and_encoding() {
    let sb = Sandbox::new();
    let r = client(&sb, "r");
    write(&r, "a.txt", "b\n");
    sb.git(&r, &["add", "a.txt"]);
    // `-m '# heading' -m …`: no editor, so git keeps the '#' line as the subject.
    let body = good("fix: correct a", &["a.txt"]);
    let o = git_try(
        &sb,
        &r,
        &["commit", "-q", "-m", "# heading", "-m", &body],
        &[],
    );
    assert_eq!(code(&o), 1, "git would store '# heading' as the subject");
    assert!(stderr(&o).contains("subject-format"), "{}", stderr(&o));
    // A Latin-1 line staged and shown by `commit -v` below the scissors is cut off.
    write(&r, "a.txt", b"caf\xe9\n".as_slice());
    sb.git(&r, &["add", "a.txt"]);
    let ed = editor(&sb, &body);
    let o = git_try(&sb, &r, &["commit", "-q", "-v"], &[("GIT_EDITOR", &ed)]);
    assert_eq!(code(&o), 0, "the diff is not stored: {}", stderr(&o));
}

#[test]
fn a_non_utf8_file_name_in_git_s_status_comment_does_not_block_a_commit() {
    use std::os::unix::ffi::OsStrExt;
    let sb = Sandbox::new();
    let r = client(&sb, "r");
    sb.git(&r, &["config", "core.quotePath", "false"]);
    let name = std::ffi::OsStr::from_bytes(b"caf\xe9.txt");
    std::fs::write(r.join(name), "x\n").unwrap();
    sb.git(&r, &["add", "-A"]);
    // The editor's text names a path that is plain ASCII; git's own comment block lists
    // the Latin-1 name raw (quotePath=false). git drops that block, so must the check.
    write(&r, "a.txt", "b\n");
    sb.git(&r, &["add", "a.txt"]);
    let msg = "fix: correct a\n\n- Update: a.txt — keep the example honest\n";
    let ed = editor(&sb, msg);
    let o = git_try(&sb, &r, &["commit", "-q"], &[("GIT_EDITOR", &ed)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

#[test]
fn a_file_checked_by_hand_never_replaces_the_saved_message() {
    let sb = Sandbox::new();
    let r = client(&sb, "r");
    write(&r, "a.txt", "b\n");
    sb.git(&r, &["add", "a.txt"]);
    // The hook: git's own message file of a commit in progress is saved.
    let o = git_try(&sb, &r, &["commit", "-q", "-m", BAD], &[]);
    assert_eq!(code(&o), 1);
    let saved = r.join(".git/jitcommit/REJECTED_EDITMSG");
    assert_eq!(std::fs::read_to_string(&saved).unwrap(), BAD);

    // By hand: a draft of the user's, and git's message file when no commit runs.
    write(sb.path(), "draft.txt", "other words\n");
    std::fs::write(r.join(".git/COMMIT_EDITMSG"), "stale words\n").unwrap();
    for file in [
        sb.path().join("draft.txt"),
        r.join(".git/COMMIT_EDITMSG"),
        std::path::PathBuf::from(".git/COMMIT_EDITMSG"),
    ] {
        let o = run({
            let mut c = check(&sb, &r);
            c.arg(&file);
            c
        });
        assert_eq!(code(&o), 1, "{}", stdout(&o));
        assert!(
            !stderr(&o).contains("saved"),
            "{}: {}",
            file.display(),
            stderr(&o)
        );
        assert_eq!(std::fs::read_to_string(&saved).unwrap(), BAD);
        assert!(!r.join(".git/jitcommit/REJECTED_EDITMSG.1").exists());
    }
}

/// `--me`, `--m` and every other prefix git accepts for `--message` are `-m`: git keeps
/// a `# heading` line of a `-m` message as the subject, so the hook must not read it
/// as a comment (docs/check.md, "What the hook reads from git's command line").
#[test]
fn abbreviated_message_options_are_read_as_git_reads_them() {
    let body = good("fix: correct a", &["a.txt"]);
    for args in [
        &["--me", "# heading", "--me"][..],
        &["--m", "# heading", "--m"],
        &["--mess=# heading", "--messa"],
        &["-uno", "--me", "# heading", "-m"],
        &["-qm", "# heading", "-m"],
    ] {
        let sb = Sandbox::new();
        let r = client(&sb, "r");
        write(&r, "a.txt", "b\n");
        sb.git(&r, &["add", "a.txt"]);
        let mut argv = vec!["commit", "-q"];
        argv.extend_from_slice(args);
        argv.push(&body);
        let o = git_try(&sb, &r, &argv, &[]);
        assert_ne!(code(&o), 0, "{args:?}: git stores # heading as the subject");
        assert_eq!(commit_count(&sb, &r), 1, "{args:?}");
        // The same message without the heading passes: the rejection is the heading's.
        let o = git_try(&sb, &r, &["commit", "-q", "--me", &body], &[]);
        assert_eq!(code(&o), 0, "{args:?}: {}", stderr(&o));
    }
}
