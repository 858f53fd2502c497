//! Amends and rewording through real git with both hooks installed (the real shims in
//! hooks/, pointed at the built binaries): an amend replaces HEAD, so its bullets are
//! traced against HEAD's first parent (the empty tree for a root commit), and a bullet
//! that names a path neither the amended commit nor the staged change touches is still
//! rejected. Rebase `reword`, `edit` + `--amend`, `squash`, `fixup` and
//! `--fixup=amend:` with autosquash go through.
#![allow(clippy::unwrap_used)]

use crate::check_support;

use std::path::{Path, PathBuf};
use std::process::Output;

use check_support::*;
use jitcommit_testkit::{Sandbox, write};

/// Both client hooks from hooks/, with the built binaries' directory recorded in them.
fn install_shims(r: &Path) {
    jitcommit_testkit::install_client_shims(&r.join(".git/hooks"), bin().parent().unwrap());
}

/// A repository whose history is: `chore: start` (a.txt, made without hooks), then
/// `feat: add b` (b.txt, with a bulleted body), with both hooks installed and no model
/// (drafts are offline).
fn repo(sb: &Sandbox) -> PathBuf {
    let r = sb.init("r");
    write(&r, "a.txt", "a\n");
    sb.git(&r, &["add", "."]);
    sb.git(&r, &["commit", "-q", "--no-verify", "-m", "chore: start"]);
    install_shims(&r);
    write(&r, "b.txt", "b\n");
    sb.git(&r, &["add", "b.txt"]);
    sb.git(
        &r,
        &["commit", "-q", "-m", &good("feat: add b", &["b.txt"])],
    );
    r
}

fn git_env(sb: &Sandbox, r: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut all = vec![("JITCOMMIT_URL", "http://127.0.0.1:9")];
    all.extend_from_slice(env);
    git_try(sb, r, args, &all)
}

fn ok(o: &Output, what: &str) {
    assert_eq!(code(o), 0, "{what}: {}{}", stdout(o), stderr(o));
}

#[test]
fn amend_no_edit_is_traced_against_the_first_parent() {
    let sb = Sandbox::new();
    let r = repo(&sb);
    let o = git_env(&sb, &r, &["commit", "-q", "--amend", "--no-edit"], &[]);
    ok(&o, "amend --no-edit");
    let o = git_env(
        &sb,
        &r,
        &["commit", "-q", "--amend"],
        &[("GIT_EDITOR", "true")],
    );
    ok(&o, "amend in an editor");
    assert_eq!(count(&sb, &r, "HEAD"), 2);
}

#[test]
fn amend_with_newly_staged_files_and_dash_m() {
    let sb = Sandbox::new();
    let r = repo(&sb);
    write(&r, "c.txt", "c\n");
    sb.git(&r, &["add", "c.txt"]);
    let msg = good("feat: add b and c", &["b.txt", "c.txt"]);
    let o = git_env(&sb, &r, &["commit", "-q", "--amend", "-m", &msg], &[]);
    ok(&o, "amend -m");
    assert_eq!(head_message(&sb, &r), format!("{msg}\n"));
    // --no-edit keeps HEAD's message, which names both.
    write(&r, "c.txt", "cc\n");
    sb.git(&r, &["add", "c.txt"]);
    let o = git_env(&sb, &r, &["commit", "-q", "--amend", "--no-edit"], &[]);
    ok(&o, "amend --no-edit with a staged change");
}

#[test]
fn an_amend_still_rejects_a_path_it_does_not_touch() {
    let sb = Sandbox::new();
    let r = repo(&sb);
    let head = sb.git(&r, &["rev-parse", "HEAD"]);
    // a.txt is in neither the amended commit (b.txt) nor the staged change (none).
    let msg = good("feat: add b", &["b.txt", "a.txt"]);
    let o = git_env(&sb, &r, &["commit", "-q", "--amend", "-m", &msg], &[]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("bullet-path"), "{}", stderr(&o));
    assert!(stderr(&o).contains("a.txt"), "{}", stderr(&o));
    assert_eq!(sb.git(&r, &["rev-parse", "HEAD"]), head, "HEAD unchanged");
    // And a plain commit (not an amend) still traces against HEAD: b.txt is not staged.
    write(&r, "d.txt", "d\n");
    sb.git(&r, &["add", "d.txt"]);
    let msg = good("feat: add d", &["d.txt", "b.txt"]);
    let o = git_env(&sb, &r, &["commit", "-q", "-m", &msg], &[]);
    assert_eq!(code(&o), 1, "a new commit does not get HEAD's paths");
}

#[test]
fn an_amend_of_the_root_commit_is_traced_against_the_empty_tree() {
    let sb = Sandbox::new();
    let r = sb.init("r");
    install_shims(&r);
    write(&r, "a.txt", "a\n");
    sb.git(&r, &["add", "."]);
    let msg = good("feat: add a", &["a.txt"]);
    ok(
        &git_env(&sb, &r, &["commit", "-q", "-m", &msg], &[]),
        "root",
    );
    let o = git_env(&sb, &r, &["commit", "-q", "--amend", "--no-edit"], &[]);
    ok(&o, "amend of the root commit");
    assert_eq!(count(&sb, &r, "HEAD"), 1);
}

#[test]
fn an_amend_through_an_alias_and_git_dash_c() {
    let sb = Sandbox::new();
    let r = repo(&sb);
    let o = git_env(
        &sb,
        &r,
        &["-c", "alias.fix=commit --amend", "fix", "-q", "--no-edit"],
        &[],
    );
    ok(&o, "alias.fix = commit --amend");
    let o = git_env(
        &sb,
        &r,
        &[
            "-c",
            "alias.fix2=!git commit --amend",
            "fix2",
            "-q",
            "--no-edit",
        ],
        &[],
    );
    ok(&o, "a shell alias runs a real git commit --amend");
}

/// `git rebase -i HEAD~n` with `sed` as the sequence editor applying `script`.
fn rebase(sb: &Sandbox, r: &Path, n: usize, script: &str, extra: &[&str]) -> Output {
    let seq = format!("sed -i -e '{script}'");
    let base = format!("HEAD~{n}");
    let mut args = vec!["rebase", "-q", "-i"];
    args.extend_from_slice(extra);
    args.push(&base);
    git_env(
        sb,
        r,
        &args,
        &[("GIT_SEQUENCE_EDITOR", &seq), ("GIT_EDITOR", "true")],
    )
}

/// Adds commit `feat: add <name>` for a new file `<name>`.
fn add_commit(sb: &Sandbox, r: &Path, name: &str) {
    write(r, name, name);
    sb.git(r, &["add", name]);
    let msg = good(&format!("feat: add {name}"), &[name]);
    ok(&git_env(sb, r, &["commit", "-q", "-m", &msg], &[]), name);
}

#[test]
fn rebase_reword_goes_through() {
    let sb = Sandbox::new();
    let r = repo(&sb);
    add_commit(&sb, &r, "c.txt");
    let o = rebase(&sb, &r, 2, "1s/^pick/reword/;2s/^pick/reword/", &[]);
    ok(&o, "rebase -i with reword");
    assert_eq!(count(&sb, &r, "HEAD"), 3);
    assert!(!r.join(".git/rebase-merge").exists(), "the rebase finished");
}

#[test]
fn rebase_edit_then_amend_goes_through() {
    let sb = Sandbox::new();
    let r = repo(&sb);
    add_commit(&sb, &r, "c.txt");
    let o = rebase(&sb, &r, 2, "1s/^pick/edit/", &[]);
    ok(&o, "rebase stops at the edit");
    write(&r, "b.txt", "bb\n");
    sb.git(&r, &["add", "b.txt"]);
    let o = git_env(&sb, &r, &["commit", "-q", "--amend", "--no-edit"], &[]);
    ok(&o, "amend during an edit stop");
    let o = git_env(
        &sb,
        &r,
        &["rebase", "--continue"],
        &[("GIT_EDITOR", "true")],
    );
    ok(&o, "rebase --continue");
    assert_eq!(count(&sb, &r, "HEAD"), 3);
}

#[test]
fn rebase_squash_and_fixup_go_through() {
    let sb = Sandbox::new();
    let r = repo(&sb);
    add_commit(&sb, &r, "c.txt");
    add_commit(&sb, &r, "d.txt");
    let o = rebase(&sb, &r, 3, "2s/^pick/squash/;3s/^pick/fixup/", &[]);
    ok(&o, "rebase -i with squash and fixup");
    assert_eq!(count(&sb, &r, "HEAD"), 2);
}

#[test]
fn fixup_amend_with_autosquash_goes_through() {
    let sb = Sandbox::new();
    let r = repo(&sb);
    write(&r, "b.txt", "bb\n");
    sb.git(&r, &["add", "b.txt"]);
    // git's `amend! <subject>` line stays; the text below it becomes the new message.
    let body = "feat: add b, twice as much\n\n- Add: b.txt — two letters now\n";
    let ed = sb.path().join("amend-editor.sh");
    std::fs::write(
        &ed,
        format!("#!/bin/sh\nhead -n 1 \"$1\" > \"$1.new\"; printf '\\n{body}' >> \"$1.new\"; mv \"$1.new\" \"$1\"\n"),
    )
    .unwrap();
    make_executable(&ed);
    let ed = ed.display().to_string();
    let o = git_env(
        &sb,
        &r,
        &["commit", "-q", "--fixup=amend:HEAD"],
        &[("GIT_EDITOR", &ed)],
    );
    ok(&o, "commit --fixup=amend:HEAD");
    let o = rebase(&sb, &r, 2, "", &["--autosquash"]);
    ok(&o, "rebase --autosquash");
    assert_eq!(count(&sb, &r, "HEAD"), 2);
    assert!(head_message(&sb, &r).starts_with("feat: add b, twice as much\n"));
}

/// An editor that replaces the message with `text`.
fn replacing_editor(sb: &Sandbox, name: &str, text: &str) -> String {
    let msg = sb.path().join(format!("{name}.msg"));
    std::fs::write(&msg, text).unwrap();
    let script = sb.path().join(format!("{name}.sh"));
    std::fs::write(
        &script,
        format!("#!/bin/sh\ncat '{}' > \"$1\"\n", msg.display()),
    )
    .unwrap();
    make_executable(&script);
    script.display().to_string()
}

/// The command the rejection printed (`… with: CMD`, `, then: NEXT` as `CMD && NEXT`).
fn printed_command(err: &str) -> String {
    let line = err
        .lines()
        .find(|l| l.contains(" with: git commit"))
        .unwrap_or_else(|| panic!("no reuse command printed:\n{err}"));
    let cmd = line.split_once(" with: ").unwrap().1;
    cmd.replace(", then: ", " && ")
}

/// Runs the printed command as the user would, in a shell in the work tree.
fn run_printed(sb: &Sandbox, r: &Path, cmd: &str, editor: &str) -> Output {
    let mut c = sb.cmd("sh", r);
    c.args(["-c", cmd])
        .env("GIT_EDITOR", editor)
        .env("JITCOMMIT_URL", "http://127.0.0.1:9")
        .stdin(std::process::Stdio::null());
    c.output().unwrap()
}

#[test]
fn a_rejected_amend_is_reused_by_an_amend() {
    let sb = Sandbox::new();
    let r = repo(&sb);
    let bad = replacing_editor(&sb, "bad", "reworded stuff\n");
    let o = git_env(&sb, &r, &["commit", "--amend"], &[("GIT_EDITOR", &bad)]);
    assert_ne!(code(&o), 0, "the bad amend went through");
    let cmd = printed_command(&stderr(&o));
    assert!(cmd.starts_with("git commit --amend -e -F "), "{cmd}");
    assert!(!cmd.contains("rebase"), "no rebase is running: {cmd}");

    let fixed = "fix: reword the b commit\n\n- Add: b.txt — the b file, reworded\n";
    let o = run_printed(&sb, &r, &cmd, &replacing_editor(&sb, "fix", fixed));
    ok(&o, &cmd);
    assert_eq!(count(&sb, &r, "HEAD"), 2, "HEAD was amended, not added to");
    assert_eq!(head_message(&sb, &r), format!("{fixed}\n"));
}

#[test]
fn a_rejected_reword_stops_the_rebase_and_the_printed_commands_finish_it() {
    let sb = Sandbox::new();
    let r = repo(&sb);
    add_commit(&sb, &r, "c.txt");
    let bad = replacing_editor(&sb, "bad", "reworded stuff\n");
    let seq = "sed -i -e '2s/^pick/reword/'";
    let o = git_env(
        &sb,
        &r,
        &["rebase", "-i", "HEAD~2"],
        &[("GIT_SEQUENCE_EDITOR", seq), ("GIT_EDITOR", &bad)],
    );
    assert_ne!(code(&o), 0, "the bad reword went through: {}", stderr(&o));
    assert!(r.join(".git/rebase-merge").is_dir(), "the rebase stopped");
    let cmd = printed_command(&stderr(&o));
    assert!(cmd.starts_with("git commit --amend -e -F "), "{cmd}");
    assert!(cmd.ends_with(" && git rebase --continue"), "{cmd}");

    let fixed = "fix: reword the c commit\n\n- Add: c.txt — the c file, reworded\n";
    let o = run_printed(&sb, &r, &cmd, &replacing_editor(&sb, "fix", fixed));
    ok(&o, &cmd);
    assert!(!r.join(".git/rebase-merge").exists(), "the rebase finished");
    assert_eq!(count(&sb, &r, "HEAD"), 3, "the reworded commit replaced c");
    assert_eq!(head_message(&sb, &r), format!("{fixed}\n"));
    assert!(
        sb.git(&r, &["log", "-1", "--format=%s", "HEAD~1"])
            .starts_with("feat: add b"),
        "the commit before it is untouched"
    );
    assert_eq!(sb.git(&r, &["show", "HEAD:c.txt"]), "c.txt");
}
