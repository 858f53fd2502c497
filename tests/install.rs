//! install.sh and the hook shims in hooks/, driven for real: the shims under dash
//! (chaining, arguments, stdin, exit codes, missing binaries), install.sh into every
//! kind of hooks folder git has (core.hooksPath relative and absolute, linked
//! worktrees, bare repositories), idempotence, uninstall, the cases it must refuse,
//! and real commits and pushes through the installed hooks.
#![allow(clippy::unwrap_used)]

use crate::install_support;

use std::path::{Path, PathBuf};
use std::process::Stdio;

use install_support::*;
use jitcommit_testkit::{Sandbox, write};

const HOOKS: [&str; 4] = ["prepare-commit-msg", "commit-msg", "pre-receive", "update"];

/// Fake jitcommit binaries that log their argv and stdin to `log` and exit with the
/// code in the file `<prefix>/exit` (0 when absent): they show what a shim passes on.
fn fake_prefix(sb: &Sandbox, name: &str) -> (PathBuf, PathBuf) {
    let prefix = sb.path().join(name);
    let log = sb.path().join(format!("{name}.log"));
    for b in ["jitcommit-check", "jitcommit-draft"] {
        write_exe(
            &prefix.join("bin").join(b),
            &format!(
                "#!/bin/sh\n{{ printf '{b}'; for a in \"$@\"; do printf ' [%s]' \"$a\"; done; printf '\\n'; \
                 printf 'stdin<'; cat; printf '>\\n'; }} >> '{log}'\n\
                 [ -f '{p}/exit' ] && exit \"$(cat '{p}/exit')\"\nexit 0\n",
                log = log.display(),
                p = prefix.display()
            ),
        );
    }
    (prefix, log)
}

/// A previous hook that logs its argv and stdin to `log` and exits with `code`.
fn user_hook(path: &Path, log: &Path, code: i32) {
    write_exe(
        path,
        &format!(
            "#!/bin/sh\n{{ printf 'local'; for a in \"$@\"; do printf ' [%s]' \"$a\"; done; printf '\\n'; \
             printf 'stdin<'; cat; printf '>\\n'; }} >> '{}'\nexit {code}\n",
            log.display()
        ),
    );
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_default()
}

/// Runs an installed shim the way git does, but under dash explicitly.
fn run_shim(
    sb: &Sandbox,
    cwd: &Path,
    shim: &Path,
    args: &[&str],
    stdin: &str,
    path: &std::ffi::OsString,
) -> std::process::Output {
    use std::io::Write;
    require_dash();
    let mut child = sb
        .cmd("dash", cwd)
        .arg(shim)
        .args(args)
        .env("PATH", path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn shims_and_installer_are_posix_sh_and_marked() {
    require_dash();
    for f in HOOKS
        .iter()
        .map(|h| format!("hooks/{h}"))
        .chain(["install.sh".to_string()])
    {
        let p = source_root().join(&f);
        let out = std::process::Command::new("dash")
            .arg("-n")
            .arg(&p)
            .output()
            .unwrap();
        assert!(out.status.success(), "dash -n {f}: {}", text(&out));
        let body = read(&p);
        assert!(body.starts_with("#!/bin/sh\n"), "{f} must run with /bin/sh");
    }
    for h in HOOKS {
        let body = read(&source_root().join("hooks").join(h));
        assert!(
            body.lines().any(|l| l.starts_with("# jitcommit-managed")),
            "{h} lacks the marker"
        );
        assert_eq!(
            body.lines()
                .filter(|l| *l == "JITCOMMIT_BIN_DIR=''")
                .count(),
            1,
            "{h} needs exactly one JITCOMMIT_BIN_DIR='' line for install.sh to fill"
        );
        let mode = std::fs::metadata(source_root().join("hooks").join(h)).unwrap();
        assert!(
            std::os::unix::fs::PermissionsExt::mode(&mode.permissions()) & 0o111 != 0,
            "{h} is not executable"
        );
    }
}

#[test]
fn client_shims_chain_the_previous_hook_with_args_stdin_and_exit_code() {
    let sb = Sandbox::new();
    let repo = sb.init("r");
    let (prefix, log) = fake_prefix(&sb, "fake");
    let hooks = repo.join(".git/hooks");
    let ulog = sb.path().join("user.log");
    user_hook(&hooks.join("prepare-commit-msg"), &ulog, 0);
    user_hook(&hooks.join("commit-msg"), &ulog, 0);
    let out = install_ok(
        &sb,
        &repo,
        &path_without_jitcommit(),
        &["--no-build", "--prefix", prefix.to_str().unwrap()],
    );
    assert!(out.contains("prepare-commit-msg.local"), "{out}");
    assert!(out.contains("commit-msg.local"), "{out}");

    let path = path_without_jitcommit();
    for (hook, bin, args) in [
        (
            "prepare-commit-msg",
            "jitcommit-draft",
            vec![".git/COMMIT_EDITMSG", "commit", "HEAD"],
        ),
        ("commit-msg", "jitcommit-check", vec![".git/COMMIT_EDITMSG"]),
    ] {
        let _ = std::fs::remove_file(&log);
        let _ = std::fs::remove_file(&ulog);
        let o = run_shim(&sb, &repo, &hooks.join(hook), &args, "some stdin\n", &path);
        assert!(o.status.success(), "{hook}: {}", text(&o));
        let quoted: String = args.iter().map(|a| format!(" [{a}]")).collect();
        assert_eq!(
            read(&ulog),
            format!("local{quoted}\nstdin<some stdin\n>\n"),
            "{hook}: the previous hook"
        );
        assert_eq!(
            read(&log),
            format!("{bin}{quoted}\nstdin<>\n"),
            "{hook}: the binary after it"
        );

        // The previous hook's failure is the hook's failure; the binary does not run.
        let _ = std::fs::remove_file(&log);
        user_hook(&hooks.join(format!("{hook}.local")), &ulog, 7);
        let o = run_shim(&sb, &repo, &hooks.join(hook), &args, "", &path);
        assert_eq!(o.status.code(), Some(7), "{hook}: {}", text(&o));
        assert_eq!(
            read(&log),
            "",
            "{hook}: the binary ran after the previous hook failed"
        );
        user_hook(&hooks.join(format!("{hook}.local")), &ulog, 0);

        // The binary's exit code is the hook's.
        std::fs::write(prefix.join("exit"), "1").unwrap();
        let o = run_shim(&sb, &repo, &hooks.join(hook), &args, "", &path);
        assert_eq!(o.status.code(), Some(1), "{hook}: {}", text(&o));
        std::fs::remove_file(prefix.join("exit")).unwrap();

        // JITCOMMIT_SKIP=1 skips jitcommit, not the user's own hook.
        let _ = std::fs::remove_file(&log);
        let _ = std::fs::remove_file(&ulog);
        let mut c = sb.cmd("dash", &repo);
        let o = c
            .arg(hooks.join(hook))
            .args(&args)
            .env("PATH", &path)
            .env("JITCOMMIT_SKIP", "1")
            .output()
            .unwrap();
        assert!(o.status.success());
        assert_eq!(
            read(&log),
            "",
            "{hook}: JITCOMMIT_SKIP=1 still ran the binary"
        );
        assert!(
            read(&ulog).starts_with("local"),
            "{hook}: JITCOMMIT_SKIP=1 skipped the user's hook"
        );
    }
}

#[test]
fn server_shims_chain_the_previous_hook_and_pass_stdin_to_both() {
    let sb = Sandbox::new();
    let bare = sb.init_bare("srv.git");
    let (prefix, log) = fake_prefix(&sb, "fake");
    let ulog = sb.path().join("user.log");
    let path = path_without_jitcommit();
    user_hook(&bare.join("hooks/pre-receive"), &ulog, 0);
    user_hook(&bare.join("hooks/update"), &ulog, 0);
    let p = prefix.to_str().unwrap();
    install_ok(
        &sb,
        sb.path(),
        &path,
        &[
            "--server",
            bare.to_str().unwrap(),
            "--no-build",
            "--prefix",
            p,
        ],
    );
    install_ok(
        &sb,
        sb.path(),
        &path,
        &[
            "--server",
            bare.to_str().unwrap(),
            "--server-hook",
            "update",
            "--no-build",
            "--prefix",
            p,
        ],
    );
    assert!(
        bare.join("hooks/pre-receive.local").exists() && bare.join("hooks/update.local").exists()
    );

    let zero = "0".repeat(40);
    let stdin = format!(
        "{zero} {} refs/heads/main\n{} {zero} refs/heads/gone\n\n",
        "a".repeat(40),
        "b".repeat(40)
    );
    let o = run_shim(
        &sb,
        &bare,
        &bare.join("hooks/pre-receive"),
        &[],
        &stdin,
        &path,
    );
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(
        read(&ulog),
        format!("local\nstdin<{stdin}>\n"),
        "the previous pre-receive's stdin"
    );
    assert_eq!(
        read(&log),
        format!("jitcommit-check [--pre-receive]\nstdin<{stdin}>\n"),
        "the check's stdin"
    );

    // A server-side policy file is passed as --config.
    sb.git(&bare, &["config", "jitcommit.policy", "policy.toml"]);
    std::fs::remove_file(&log).unwrap();
    let o = run_shim(
        &sb,
        &bare,
        &bare.join("hooks/pre-receive"),
        &[],
        &stdin,
        &path,
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        read(&log).starts_with("jitcommit-check [--config] [policy.toml] [--pre-receive]\n"),
        "{}",
        read(&log)
    );

    // update: argv passed on, after the previous hook.
    for f in [&log, &ulog] {
        std::fs::remove_file(f).unwrap();
    }
    let args = ["refs/heads/main", zero.as_str(), "c0ffee"];
    let o = run_shim(&sb, &bare, &bare.join("hooks/update"), &args, "", &path);
    assert!(o.status.success(), "{}", text(&o));
    assert!(read(&ulog).starts_with(&format!("local [refs/heads/main] [{zero}] [c0ffee]\n")));
    assert!(read(&log).starts_with(&format!(
        "jitcommit-check [--config] [policy.toml] [--update] [refs/heads/main] [{zero}] [c0ffee]\n"
    )));

    // Failures: the previous hook's code wins and the check does not run.
    for hook in ["pre-receive", "update"] {
        std::fs::remove_file(&log).unwrap();
        user_hook(&bare.join(format!("hooks/{hook}.local")), &ulog, 5);
        let o = run_shim(
            &sb,
            &bare,
            &bare.join(format!("hooks/{hook}")),
            &args,
            &stdin,
            &path,
        );
        assert_eq!(o.status.code(), Some(5), "{hook}: {}", text(&o));
        assert_eq!(
            read(&log),
            "",
            "{hook}: the check ran after the previous hook failed"
        );
        user_hook(&bare.join(format!("hooks/{hook}.local")), &ulog, 0);
        std::fs::write(prefix.join("exit"), "1").unwrap();
        let o = run_shim(
            &sb,
            &bare,
            &bare.join(format!("hooks/{hook}")),
            &args,
            &stdin,
            &path,
        );
        assert_eq!(
            o.status.code(),
            Some(1),
            "{hook}: the check's failure must reject"
        );
        std::fs::remove_file(prefix.join("exit")).unwrap();
    }
}

#[test]
fn missing_binary_lets_commits_through_and_rejects_pushes() {
    let sb = Sandbox::new();
    let repo = sb.init("r");
    let bare = sb.init_bare("srv.git");
    let (prefix, _log) = fake_prefix(&sb, "gone");
    let p = prefix.to_str().unwrap();
    let path = path_without_jitcommit();
    install_ok(&sb, &repo, &path, &["--no-build", "--prefix", p]);
    install_ok(
        &sb,
        sb.path(),
        &path,
        &[
            "--server",
            bare.to_str().unwrap(),
            "--no-build",
            "--prefix",
            p,
        ],
    );
    install_ok(
        &sb,
        sb.path(),
        &path,
        &[
            "--server",
            bare.to_str().unwrap(),
            "--server-hook",
            "update",
            "--no-build",
            "--prefix",
            p,
        ],
    );
    std::fs::remove_dir_all(prefix.join("bin")).unwrap();

    for hook in ["prepare-commit-msg", "commit-msg"] {
        let o = run_shim(
            &sb,
            &repo,
            &repo.join(".git/hooks").join(hook),
            &[".git/COMMIT_EDITMSG"],
            "",
            &path,
        );
        assert!(
            o.status.success(),
            "{hook} must let the commit through: {}",
            text(&o)
        );
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("not found") && err.contains(&format!("{p}/bin")),
            "{hook}: {err}"
        );
    }
    for hook in ["pre-receive", "update"] {
        let o = run_shim(
            &sb,
            &bare,
            &bare.join("hooks").join(hook),
            &["refs/heads/main", "a", "b"],
            "a b refs/heads/main\n",
            &path,
        );
        assert!(!o.status.success(), "{hook} must reject without its binary");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("not found") && err.contains("rejected"),
            "{hook}: {err}"
        );
    }

    // Through git itself: the commit goes through with a warning, the push is refused.
    write(&repo, "a.txt", "a\n");
    sb.git(&repo, &["add", "a.txt"]);
    let o = sb
        .git_cmd(&repo)
        .args(["commit", "-q", "-m", "anything"])
        .env("PATH", &path)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("jitcommit-check not found"),
        "{}",
        text(&o)
    );
    let o = sb
        .git_cmd(&repo)
        .args(["push", bare.to_str().unwrap(), "main"])
        .env("PATH", &path)
        .output()
        .unwrap();
    assert!(
        !o.status.success(),
        "the push went through without the check"
    );
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("remote: jitcommit: pre-receive: jitcommit-check not found"),
        "{}",
        text(&o)
    );
}

/// Installs with the built binaries (via PATH) into the repository seen from `cwd`
/// and checks the hooks land in `expected`, and that git runs them: a previous
/// commit-msg hook placed there records that it was chained.
fn assert_installs_into(
    sb: &Sandbox,
    cwd: &Path,
    extra: &[&str],
    expected: &Path,
    commit_in: &Path,
) {
    let ulog = sb.path().join("chained.log");
    user_hook(&expected.join("commit-msg"), &ulog, 0);
    let mut args = vec!["--no-build"];
    args.extend_from_slice(extra);
    let out = install_ok(sb, cwd, &path_with_built(), &args);
    for h in ["prepare-commit-msg", "commit-msg"] {
        let f = expected.join(h);
        assert!(
            read(&f).contains("# jitcommit-managed"),
            "{} missing; output:\n{out}",
            f.display()
        );
        assert!(out.contains(&format!("installed {}", f.display())), "{out}");
    }
    assert!(
        out.contains("git config jitcommit.model"),
        "the next step is missing:\n{out}"
    );
    write(commit_in, "hello.txt", "hello\n");
    sb.git(commit_in, &["add", "hello.txt"]);
    let o = sb
        .git_cmd(commit_in)
        .args(["commit", "-q", "-m", &good_message("hello.txt")])
        .env("PATH", path_with_built())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        read(&ulog).starts_with("local ["),
        "git did not run the installed commit-msg"
    );
}

#[test]
fn installs_into_the_default_hooks_folder_from_a_subdirectory() {
    let sb = Sandbox::new();
    let repo = sb.init("r");
    std::fs::create_dir_all(repo.join("deep/er")).unwrap();
    assert_installs_into(
        &sb,
        &repo.join("deep/er"),
        &[],
        &repo.join(".git/hooks"),
        &repo,
    );
}

#[test]
fn installs_into_a_relative_core_hooks_path_against_the_work_tree_root() {
    let sb = Sandbox::new();
    let repo = sb.init("r");
    sb.git(&repo, &["config", "core.hooksPath", ".githooks"]);
    std::fs::create_dir_all(repo.join("sub")).unwrap();
    // Run from a subdirectory: the folder is still <root>/.githooks, not sub/.githooks.
    assert_installs_into(&sb, &repo.join("sub"), &[], &repo.join(".githooks"), &repo);
    assert!(!repo.join("sub/.githooks").exists());
    assert!(!repo.join(".git/hooks/commit-msg").exists());
}

#[test]
fn installs_into_an_absolute_core_hooks_path_with_repo() {
    let sb = Sandbox::new();
    let repo = sb.init("r");
    let shared = sb.path().join("shared-hooks");
    sb.git(
        &repo,
        &["config", "core.hooksPath", shared.to_str().unwrap()],
    );
    let r = repo.to_str().unwrap();
    assert_installs_into(&sb, sb.path(), &["--repo", r], &shared, &repo);
}

#[test]
fn installs_from_a_linked_worktree_into_the_common_hooks_folder() {
    let sb = Sandbox::new();
    let repo = sb.init("r");
    write(&repo, "seed.txt", "seed\n");
    sb.git(&repo, &["add", "seed.txt"]);
    sb.git(&repo, &["commit", "-q", "-m", "seed"]);
    let wt = sb.path().join("wt");
    sb.git(
        &repo,
        &["worktree", "add", "-q", "-b", "side", wt.to_str().unwrap()],
    );
    assert_installs_into(&sb, &wt, &[], &repo.join(".git/hooks"), &wt);
}

#[test]
fn second_run_changes_nothing_and_says_so() {
    let sb = Sandbox::new();
    let repo = sb.init("r");
    let ulog = sb.path().join("u.log");
    user_hook(&repo.join(".git/hooks/commit-msg"), &ulog, 0);
    install_ok(&sb, &repo, &path_with_built(), &["--no-build"]);
    let before = snapshot(&repo.join(".git/hooks"));
    let out = install_ok(&sb, &repo, &path_with_built(), &["--no-build"]);
    assert_eq!(snapshot(&repo.join(".git/hooks")), before);
    assert!(out.contains("Already installed: nothing changed"), "{out}");
    assert!(!out.contains("moved"), "{out}");

    // A reinstall with binaries elsewhere updates our shims in place, and the user's
    // hook stays chained (not moved over itself).
    let (prefix, _) = fake_prefix(&sb, "other");
    let out = install_ok(
        &sb,
        &repo,
        &path_without_jitcommit(),
        &["--no-build", "--prefix", prefix.to_str().unwrap()],
    );
    assert!(out.contains("updated"), "{out}");
    assert!(
        read(&repo.join(".git/hooks/commit-msg"))
            .contains(&format!("JITCOMMIT_BIN_DIR='{}/bin'", prefix.display()))
    );
    assert!(read(&repo.join(".git/hooks/commit-msg.local")).contains("printf 'local'"));
}

#[test]
fn uninstall_removes_the_shims_and_restores_the_previous_hooks() {
    let sb = Sandbox::new();
    let repo = sb.init("r");
    let hooks = repo.join(".git/hooks");
    user_hook(&hooks.join("commit-msg"), &sb.path().join("u.log"), 0);
    let before = snapshot(&hooks);
    install_ok(&sb, &repo, &path_with_built(), &["--no-build"]);
    assert_ne!(snapshot(&hooks), before);
    let out = install_ok(&sb, &repo, &path_with_built(), &["--uninstall"]);
    assert_eq!(
        snapshot(&hooks),
        before,
        "uninstall did not restore the hooks folder:\n{out}"
    );
    assert!(out.contains("restored") && out.contains("removed"), "{out}");
    let out = install_ok(&sb, &repo, &path_with_built(), &["--uninstall"]);
    assert!(out.contains("Nothing to uninstall"), "{out}");
    assert_eq!(snapshot(&hooks), before);

    // A hook the user wrote over ours after installing is left alone.
    install_ok(&sb, &repo, &path_with_built(), &["--no-build"]);
    write_exe(&hooks.join("prepare-commit-msg"), "#!/bin/sh\nexit 0\n");
    let out = install_ok(&sb, &repo, &path_with_built(), &["--uninstall"]);
    assert!(
        out.contains("kept") && out.contains("not written by jitcommit"),
        "{out}"
    );
    assert_eq!(
        read(&hooks.join("prepare-commit-msg")),
        "#!/bin/sh\nexit 0\n"
    );

    // Server side.
    let bare = sb.init_bare("srv.git");
    user_hook(&bare.join("hooks/pre-receive"), &sb.path().join("u.log"), 0);
    let before = snapshot(&bare.join("hooks"));
    let b = bare.to_str().unwrap();
    install_ok(
        &sb,
        sb.path(),
        &path_with_built(),
        &["--server", b, "--no-build"],
    );
    install_ok(
        &sb,
        sb.path(),
        &path_with_built(),
        &["--server", b, "--uninstall"],
    );
    assert_eq!(snapshot(&bare.join("hooks")), before);
}

#[test]
fn refuses_what_it_cannot_do_safely_and_changes_nothing() {
    let sb = Sandbox::new();
    let repo = sb.init("r");
    let hooks = repo.join(".git/hooks");
    write_exe(&hooks.join("commit-msg"), "#!/bin/sh\necho mine\n");
    write_exe(
        &hooks.join("commit-msg.local"),
        "#!/bin/sh\necho also mine\n",
    );
    let before = snapshot(&hooks);
    let o = install(&sb, &repo, &path_with_built(), &["--no-build"]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("refusing")
            && err.contains("commit-msg.local")
            && err.contains("Nothing was changed"),
        "{err}"
    );
    assert_eq!(snapshot(&hooks), before);

    // --no-build without binaries anywhere.
    let clean = sb.init("clean");
    let o = install(
        &sb,
        &clean,
        &path_without_jitcommit(),
        &[
            "--no-build",
            "--prefix",
            sb.path().join("empty").to_str().unwrap(),
        ],
    );
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("--no-build: no directory holds"),
        "{}",
        text(&o)
    );
    assert!(!clean.join(".git/hooks/commit-msg").exists());

    // Not a repository; a work tree given to --server; a bare one to --repo; both.
    let plain = sb.path().join("plain");
    std::fs::create_dir_all(&plain).unwrap();
    let o = install(&sb, &plain, &path_with_built(), &["--no-build"]);
    assert!(
        !o.status.success() && text(&o).contains("not inside a git repository"),
        "{}",
        text(&o)
    );
    let o = install(
        &sb,
        sb.path(),
        &path_with_built(),
        &["--no-build", "--server", clean.to_str().unwrap()],
    );
    assert!(
        !o.status.success() && text(&o).contains("not a bare repository"),
        "{}",
        text(&o)
    );
    let bare = sb.init_bare("b.git");
    let o = install(
        &sb,
        sb.path(),
        &path_with_built(),
        &["--no-build", "--repo", bare.to_str().unwrap()],
    );
    assert!(
        !o.status.success() && text(&o).contains("bare repository"),
        "{}",
        text(&o)
    );
    let o = install(
        &sb,
        sb.path(),
        &path_with_built(),
        &["--repo", "x", "--server", "y"],
    );
    assert!(
        !o.status.success() && text(&o).contains("cannot be used together"),
        "{}",
        text(&o)
    );
    let o = install(&sb, sb.path(), &path_with_built(), &["--frobnicate"]);
    assert!(
        !o.status.success() && text(&o).contains("unknown option: --frobnicate"),
        "{}",
        text(&o)
    );
}

#[test]
fn help_names_every_option() {
    let sb = Sandbox::new();
    let out = install_ok(&sb, sb.path(), &path_with_built(), &["--help"]);
    for opt in [
        "--repo",
        "--server",
        "--server-hook",
        "--forge",
        "--prefix",
        "--no-build",
        "--uninstall",
        "--help",
    ] {
        assert!(out.contains(opt), "--help does not mention {opt}:\n{out}");
    }
}

#[test]
fn server_install_and_a_real_push_through_pre_receive() {
    let sb = Sandbox::new();
    let bare = sb.init_bare("srv.git");
    let out = install_ok(
        &sb,
        sb.path(),
        &path_with_built(),
        &["--server", bare.to_str().unwrap(), "--no-build"],
    );
    assert!(
        out.contains(&format!(
            "installed {}",
            bare.join("hooks/pre-receive").display()
        )),
        "{out}"
    );
    assert!(
        !bare.join("hooks/commit-msg").exists() && !bare.join("hooks/prepare-commit-msg").exists()
    );
    // Issues 28 and 48: it says what becomes of existing history, and how to start
    // stricter from an adoption point.
    assert!(
        out.contains("The first push into the empty repository is the project's history")
            && out.contains("install.sh --check-first-push")
            && out.contains("jitcommit init --write proposes it"),
        "{out}"
    );
    let shim = read(&bare.join("hooks/pre-receive"));
    assert!(shim.contains(&format!(
        "JITCOMMIT_BIN_DIR='{}'",
        built_bin_dir().canonicalize().unwrap().display()
    )));

    let repo = sb.init("client");
    let push = |refspec: &str| {
        // The server finds jitcommit-check only through the recorded directory.
        sb.git_cmd(&repo)
            .args(["push", bare.to_str().unwrap(), refspec])
            .env("PATH", path_without_jitcommit())
            .output()
            .unwrap()
    };
    write(&repo, "hello.txt", "hello\n");
    sb.git(&repo, &["add", "hello.txt"]);
    sb.git(&repo, &["commit", "-q", "-m", &good_message("hello.txt")]);
    let o = push("main");
    assert!(
        o.status.success(),
        "a conforming push was rejected: {}",
        text(&o)
    );

    write(&repo, "bye.txt", "bye\n");
    sb.git(&repo, &["add", "bye.txt"]);
    sb.git(&repo, &["commit", "-q", "-m", &bad_verb_message("bye.txt")]);
    let o = push("main");
    assert!(
        !o.status.success(),
        "a push with a bad verb was accepted: {}",
        text(&o)
    );
    assert!(text(&o).contains("remote:"), "{}", text(&o));
    assert_ne!(
        sb.git(&bare, &["rev-parse", "main"]),
        sb.git(&repo, &["rev-parse", "main"])
    );
}

#[test]
fn client_install_rejects_a_bad_commit_with_the_real_check() {
    let sb = Sandbox::new();
    let repo = sb.init("r");
    install_ok(&sb, &repo, &path_with_built(), &["--no-build"]);
    write(&repo, "a.txt", "a\n");
    sb.git(&repo, &["add", "a.txt"]);
    // PATH without the binaries: the shim uses the recorded directory.
    let commit = |msg: &str| {
        sb.git_cmd(&repo)
            .args(["commit", "-q", "-m", msg])
            .env("PATH", path_without_jitcommit())
            .output()
            .unwrap()
    };
    let o = commit(&bad_verb_message("a.txt"));
    assert!(
        !o.status.success(),
        "a bad verb was accepted by the installed commit-msg: {}",
        text(&o)
    );
    let o = commit(&good_message("a.txt"));
    assert!(o.status.success(), "{}", text(&o));
}

#[test]
fn works_when_run_from_outside_the_source_tree() {
    let sb = Sandbox::new();
    let repo = sb.init("proj");
    let elsewhere = sb.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    // Absolute path to install.sh, run from a directory that is no repository at all.
    let out = install_ok(
        &sb,
        &elsewhere,
        &path_with_built(),
        &["--no-build", "--repo", repo.to_str().unwrap()],
    );
    assert!(
        read(&repo.join(".git/hooks/commit-msg")).contains("# jitcommit-managed"),
        "{out}"
    );
    // Through a relative path to the script: sh ../../install.sh
    let repo2 = sb.init("proj2");
    let rel = pathdiff(&source_root().join("install.sh"), &repo2);
    let o = sb
        .cmd("dash", &repo2)
        .arg(&rel)
        .arg("--no-build")
        .env("PATH", path_with_built())
        .output()
        .unwrap();
    assert!(o.status.success(), "dash {}: {}", rel.display(), text(&o));
    assert!(read(&repo2.join(".git/hooks/prepare-commit-msg")).contains("# jitcommit-managed"));
}

/// `target` relative to `base` (both absolute), with `..` steps.
fn pathdiff(target: &Path, base: &Path) -> PathBuf {
    let t: Vec<_> = target.components().collect();
    let b: Vec<_> = base.components().collect();
    let common = t.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut p = PathBuf::new();
    for _ in common..b.len() {
        p.push("..");
    }
    for c in &t[common..] {
        p.push(c);
    }
    p
}

/// The one test that builds for real: `install.sh --prefix DIR` runs
/// `cargo install --path <source> --locked --root DIR` (a release build).
#[test]
fn install_builds_the_binaries_into_a_prefix() {
    let sb = Sandbox::new();
    let repo = sb.init("r");
    let prefix = sb.path().join("prefix");
    // An older install's git-jitcommit link, which this one replaces.
    std::fs::create_dir_all(prefix.join("bin")).unwrap();
    std::os::unix::fs::symlink("jitcommit", prefix.join("bin/git-jitcommit")).unwrap();
    require_dash();
    let mut c = sb.cmd("dash", &repo);
    c.arg(source_root().join("install.sh"))
        .args(["--prefix", prefix.to_str().unwrap()]);
    c.env("PATH", path_without_jitcommit())
        .envs(shared_build_env());
    for (k, v) in real_rust_homes() {
        c.env(k, v);
    }
    let o = c.stdin(Stdio::null()).output().unwrap();
    jitcommit_testkit::assert_ok(&o, "install.sh --prefix");
    let out = String::from_utf8_lossy(&o.stdout);
    let bin = prefix.canonicalize().unwrap().join("bin");
    for b in ["jitcommit-draft", "jitcommit-check"] {
        assert!(
            bin.join(b).is_file(),
            "{b} not installed into {}",
            bin.display()
        );
        assert!(
            out.contains(&format!("built     {}", bin.join(b).display())),
            "{out}"
        );
    }
    assert!(
        read(&repo.join(".git/hooks/commit-msg"))
            .contains(&format!("JITCOMMIT_BIN_DIR='{}'", bin.display()))
    );
    // The command people type, and its `git jitcommit` name.
    assert!(bin.join("jitcommit").is_file(), "{out}");
    let git_jc = std::fs::symlink_metadata(bin.join("git-jitcommit")).unwrap();
    assert!(git_jc.is_file(), "git-jitcommit is a binary, not a link");
    let git_jitcommit = || {
        sb.git_cmd(&repo)
            // (`git jitcommit --help` would be git's own `git help jitcommit`.)
            .args(["jitcommit", "-h"])
            .env("PATH", {
                let mut p = vec![bin.clone()];
                p.extend(std::env::split_paths(&path_without_jitcommit()));
                std::env::join_paths(p).unwrap()
            })
            .output()
            .unwrap()
    };
    let o = git_jitcommit();
    assert!(o.status.success(), "git jitcommit -h: {}", text(&o));
    assert!(text(&o).contains("git jitcommit <COMMAND>"), "{}", text(&o));
    // A commit through the freshly built hooks, with the binaries on no PATH.
    write(&repo, "a.txt", "a\n");
    sb.git(&repo, &["add", "a.txt"]);
    let o = sb
        .git_cmd(&repo)
        .args(["commit", "-q", "-m", &bad_verb_message("a.txt")])
        .env("PATH", path_without_jitcommit())
        .output()
        .unwrap();
    assert!(
        !o.status.success(),
        "the installed check accepted a bad verb: {}",
        text(&o)
    );
    let o = sb
        .git_cmd(&repo)
        .args(["commit", "-q", "-m", &good_message("a.txt")])
        .env("PATH", path_without_jitcommit())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));

    // The README's uninstall: cargo removes every binary, git-jitcommit included.
    let mut c = sb.cmd("cargo", &repo);
    c.args(["uninstall", "--root", prefix.to_str().unwrap(), "jitcommit"])
        .env("PATH", path_without_jitcommit());
    for (k, v) in real_rust_homes() {
        c.env(k, v);
    }
    let o = c.stdin(Stdio::null()).output().unwrap();
    jitcommit_testkit::assert_ok(&o, "cargo uninstall jitcommit");
    let left: Vec<_> = std::fs::read_dir(&bin)
        .map(|d| d.flatten().map(|e| e.file_name()).collect())
        .unwrap_or_default();
    assert!(
        left.is_empty(),
        "left behind in {}: {left:?}",
        bin.display()
    );
    let o = git_jitcommit();
    assert!(!o.status.success());
    assert!(
        text(&o).contains("'jitcommit' is not a git command"),
        "{}",
        text(&o)
    );
}
