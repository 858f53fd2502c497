//! `jitcommit doctor` in real repositories: shims installed or missing, chained hooks,
//! hooks owned by another tool, a broken convention, and the model server on loopback
//! answering (with its context window) or not.
#![allow(clippy::unwrap_used)]

use crate::{install_support, jitcommit_support};

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use install_support::{built_bin_dir, path_without_jitcommit, source_root};
use jitcommit_support::*;
use jitcommit_testkit::model_server::{ModelServer, refused_url, route};
use jitcommit_testkit::{Sandbox, write};

/// Installs the shims from hooks/ into `hooks_dir`, naming the built binaries' folder.
fn install_shims(hooks_dir: &Path) {
    jitcommit_testkit::install_client_shims(hooks_dir, bin().parent().unwrap());
}

fn json(o: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap()
}

fn status_of<'a>(v: &'a serde_json::Value, check: &str) -> Vec<&'a str> {
    v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["check"] == check)
        .map(|c| c["status"].as_str().unwrap())
        .collect()
}

#[test]
fn a_fresh_repository_lacks_the_shims_and_says_how_to_fix_it() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    let o = r.jc(&["doctor"]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    let out = stdout(&o);
    assert!(
        out.contains("FAIL shim           commit-msg: not installed in "),
        "{out}"
    );
    assert!(out.contains("fix: install.sh"), "{out}");
    assert!(out.contains("info model          none configured"), "{out}");
}

#[test]
fn installed_shims_a_chained_hook_and_a_live_server_are_all_good() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    let hooks = r.dir.join(".git/hooks");
    install_shims(&hooks);
    write(&hooks, "commit-msg.local", "#!/bin/sh\nexit 0\n");
    let srv = ModelServer::with_routes(
        vec![route(
            "POST",
            "/api/show",
            serde_json::json!({"model_info": {"qwen2.context_length": 32768}}),
        )],
        Vec::new(),
    );
    r.git(&["config", "jitcommit.model", "qwen2.5-coder:7b"]);
    r.git(&["config", "jitcommit.url", &srv.url()]);
    let o = r.jc(&["doctor", "--format", "json"]);
    let v = json(&o);
    assert_eq!(code(&o), 0, "{v:#}");
    assert_eq!(v["ok"], true);
    assert_eq!(status_of(&v, "shim"), ["ok", "ok"]);
    assert_eq!(status_of(&v, "binary"), ["ok", "ok"]);
    assert_eq!(status_of(&v, "chained hook"), ["info"]);
    assert_eq!(status_of(&v, "server"), ["ok"]);
    let budget = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == "budget")
        .unwrap();
    assert!(
        budget["detail"].as_str().unwrap().contains(
            "3584 prompt tokens (4096 − 512 reserved for the answer; the model's window is 32768)"
        ),
        "{budget}"
    );
    let reqs = srv.all_requests();
    assert_eq!(reqs[0].path, "/api/show");
    assert_eq!(reqs[0].body["model"], "qwen2.5-coder:7b");
    // Which guards a draft gets, and how to change them.
    let guards = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == "guards")
        .unwrap();
    assert_eq!(guards["status"], "info");
    assert_eq!(
        guards["detail"],
        "word grammar, tight gate, the tool's type, summary and breaking note off: a larger model (7B parameters, from the model name \"qwen2.5-coder:7b\"; 7B or more); to change: git config jitcommit.guards small (or auto, by the model's size)"
    );
}

#[test]
fn a_small_context_window_and_a_dead_server_fail() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    install_shims(&r.dir.join(".git/hooks"));
    r.git(&["config", "jitcommit.model", "tiny"]);
    let srv = ModelServer::with_routes(
        vec![route(
            "POST",
            "/api/show",
            serde_json::json!({"model_info": {"llama.context_length": 2048}}),
        )],
        Vec::new(),
    );
    r.git(&["config", "jitcommit.url", &srv.url()]);
    let o = r.jc(&["doctor"]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    assert!(
        stdout(&o).contains("fix: git config jitcommit.budgetTokens 2048"),
        "{}",
        stdout(&o)
    );

    r.git(&["config", "jitcommit.url", &refused_url()]);
    let o = r.jc(&["doctor"]);
    assert_eq!(code(&o), 1);
    assert!(
        stdout(&o).contains("FAIL server         does not answer"),
        "{}",
        stdout(&o)
    );
    assert!(
        stdout(&o).contains("fix: ollama serve && ollama pull tiny"),
        "{}",
        stdout(&o)
    );
}

/// Issue 48: a busy server that does not answer the probe within its 5 s is slow, not
/// failed: a draft waits up to its own deadline.
#[test]
fn a_slow_server_is_slow_not_failed() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    install_shims(&r.dir.join(".git/hooks"));
    r.git(&["config", "jitcommit.model", "tiny"]);
    r.git(&["config", "jitcommit.timeout", "30s"]);
    let srv = ModelServer::with_routes(
        vec![jitcommit_testkit::model_server::Route {
            method: "POST",
            path: "/api/show",
            answer: jitcommit_testkit::model_server::Meta::Hang(std::time::Duration::from_secs(8)),
        }],
        Vec::new(),
    );
    r.git(&["config", "jitcommit.url", &srv.url()]);
    let o = r.jc(&["doctor", "--format", "json"]);
    let v = json(&o);
    assert_eq!(status_of(&v, "server"), ["info"], "{v}");
    let detail = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == "server")
        .unwrap()["detail"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        detail.starts_with("slow:") && detail.contains("30 s"),
        "{detail}"
    );
    assert_eq!(code(&o), 0, "{v}");
}

#[test]
fn hooks_of_another_tool_and_a_missing_binary_are_named() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    let hooks = r.dir.join(".git/hooks");
    write(
        &hooks,
        "commit-msg",
        "#!/usr/bin/env bash\n# File generated by pre-commit: https://pre-commit.com\n",
    );
    install_shims(&sb.path().join("unused"));
    let o = r.jc(&["doctor"]);
    let out = stdout(&o);
    assert_eq!(code(&o), 1);
    assert!(
        out.contains(
            "commit-msg: the pre-commit framework runs it, but .pre-commit-config.yaml has no jitcommit-check hook"
        ),
        "{out}"
    );
    assert!(out.contains("fix: install.sh --no-build"), "{out}");

    // A shim whose binaries are gone lets commits through: a failure.
    let other = Repo::new(&sb, "o");
    let h = other.dir.join(".git/hooks");
    install_shims(&h);
    for hook in ["prepare-commit-msg", "commit-msg"] {
        let t = std::fs::read_to_string(h.join(hook)).unwrap();
        let t = t
            .lines()
            .map(|l| {
                if l.starts_with("JITCOMMIT_BIN_DIR=") {
                    "JITCOMMIT_BIN_DIR='/nonexistent'"
                } else {
                    l
                }
            })
            .collect::<Vec<_>>()
            .join("\n");
        std::fs::write(h.join(hook), t).unwrap();
    }
    let o = sb
        .cmd(bin(), &other.dir)
        .arg("doctor")
        .env("PATH", "/usr/bin:/bin")
        .output()
        .unwrap();
    assert_eq!(code(&o), 1);
    assert!(
        stdout(&o).contains("jitcommit-check is not in /nonexistent nor on PATH"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn core_hooks_path_and_a_broken_convention_are_reported() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    r.git(&["config", "core.hooksPath", ".githooks"]);
    install_shims(&r.dir.join(".githooks"));
    write(&r.dir, ".commit-convention.toml", "typos = []\n");
    let o = r.jc(&["doctor"]);
    let out = stdout(&o);
    assert_eq!(code(&o), 1, "{out}");
    assert!(out.contains(".githooks (core.hooksPath)"), "{out}");
    assert!(out.contains("FAIL convention     "), "{out}");
    assert!(out.contains("typos"), "{out}");
    assert!(
        out.contains(".commit-convention.toml (see `jitcommit-check --dump-config`)"),
        "{out}"
    );
}

#[test]
fn husky_and_lefthook_are_named_as_the_owners() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    r.git(&["config", "core.hooksPath", ".husky/_"]);
    write(
        &r.dir,
        ".husky/_/commit-msg",
        "#!/usr/bin/env sh\n. \"$(dirname \"$0\")/h\"\n",
    );
    let out = stdout(&r.jc(&["doctor"]));
    assert!(
        out.contains("commit-msg: husky owns ") && out.contains(".husky/commit-msg does not run"),
        "{out}"
    );
    assert!(
        out.contains("prepare-commit-msg: husky owns ")
            && out.contains(".husky/prepare-commit-msg does not run jitcommit-draft"),
        "{out}"
    );

    let l = Repo::new(&sb, "l");
    write(
        &l.dir,
        ".git/hooks/commit-msg",
        "#!/bin/sh\ncall_lefthook run \"commit-msg\" \"$@\"\n",
    );
    let out = stdout(&l.jc(&["doctor"]));
    assert!(
        out.contains("commit-msg: lefthook runs the hooks here, and lefthook.yml does not run"),
        "{out}"
    );
}

/// Issue 28: doctor reports how the history fits the convention and the adoption
/// point.
#[test]
fn the_history_fit_and_the_adoption_point_are_reported() {
    let sb = Sandbox::new();
    let r = adopting(&sb);
    let detail = |o: &std::process::Output| {
        json(o)["checks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["check"] == "history")
            .map(|c| c["detail"].as_str().unwrap().to_owned())
            .unwrap()
    };
    let o = r.jc(&["doctor", "--format", "json"]);
    let d = detail(&o);
    assert!(
        d.contains("of the last 6 commits 0 pass the convention, 5 the Conventional Commits grammar; no adoption point"),
        "{d}"
    );
    assert!(d.contains("jitcommit init"), "{d}");
    let head = r.rev("HEAD");
    write(
        &r.dir,
        ".commit-convention.toml",
        format!("body = \"free\"\ntrace-paths = false\nadopted = \"{head}\"\n"),
    );
    let d = detail(&r.jc(&["doctor", "--format", "json"]));
    assert!(
        d.contains(&format!(
            "5 pass the convention (and 1 more as the adoption point's history), 5 the Conventional Commits grammar; adoption point {}",
            &head[..12]
        )),
        "{d}"
    );
}

// ---- the setups docs/guide.md documents, with the real tools -------------------------

/// The directory holding husky and lefthook (`JITCOMMIT_NPM_BIN`, else PATH), as
/// tests/install_managers.rs finds them.
fn npm_bin() -> PathBuf {
    let from_env = std::env::var_os("JITCOMMIT_NPM_BIN").map(PathBuf::from);
    let on_path = || {
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
            .find(|d| d.join("husky").is_file() && d.join("lefthook").is_file())
    };
    from_env.or_else(on_path).unwrap_or_else(|| {
        panic!(
            "husky and lefthook are required by this test and were not found (JITCOMMIT_NPM_BIN \
             or PATH); ./test.sh, the README's test command, installs them into its own tools \
             directory and sets JITCOMMIT_NPM_BIN"
        )
    })
}

/// The directory of the `pre-commit` executable (`JITCOMMIT_PRE_COMMIT`, else PATH), as
/// tests/precommit.rs finds it.
fn pre_commit_dir() -> PathBuf {
    if let Some(p) = std::env::var_os("JITCOMMIT_PRE_COMMIT") {
        return PathBuf::from(p).parent().unwrap().to_path_buf();
    }
    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .find(|d| d.join("pre-commit").is_file())
        .unwrap_or_else(|| {
            panic!(
                "the pre-commit framework is required by this test and was not found on PATH; \
                 ./test.sh, the README's test command, installs it and puts it on PATH"
            )
        })
}

/// PATH as a user who set the tool up has it: the built binaries, `extra`, and the
/// rest without any installed jitcommit.
fn user_path(extra: &[PathBuf]) -> OsString {
    let mut dirs = vec![built_bin_dir()];
    dirs.extend_from_slice(extra);
    dirs.extend(std::env::split_paths(&path_without_jitcommit()));
    std::env::join_paths(dirs).unwrap()
}

/// `jitcommit doctor --format json` with `path` as PATH.
fn doctor(r: &Repo, path: &OsString) -> (i32, serde_json::Value) {
    let o =
        r.sb.cmd(bin(), &r.dir)
            .args(["doctor", "--format", "json"])
            .env("PATH", path)
            .output()
            .unwrap();
    (code(&o), json(&o))
}

/// The fix of each failed check.
fn fixes(v: &serde_json::Value) -> Vec<String> {
    v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["status"] == "fail")
        .map(|c| c["fix"].as_str().unwrap().to_owned())
        .collect()
}

/// Runs a fix exactly as printed (the command before its "   (…)" note), in the work
/// tree; `install.sh` is the one in this source tree.
fn run_fix(r: &Repo, path: &OsString, fix: &str) {
    let cmd = fix.split("   (").next().unwrap();
    let cmd = match cmd.strip_prefix("install.sh") {
        Some(rest) => format!("{}{rest}", source_root().join("install.sh").display()),
        None => cmd.to_owned(),
    };
    let o =
        r.sb.cmd("sh", &r.dir)
            .args(["-c", &cmd])
            .env("PATH", path)
            .output()
            .unwrap();
    assert!(o.status.success(), "{cmd}: {}{}", stdout(&o), stderr(&o));
}

/// Doctor fails, names one fix (for one hook or both), and that fix, run as printed, makes it all good.
fn one_fix_makes_it_ok(r: &Repo, path: &OsString, fix_starts: &str) {
    let (code_before, v) = doctor(r, path);
    assert_eq!(code_before, 1, "{v:#}");
    let mut f = fixes(&v);
    f.dedup();
    assert_eq!(f.len(), 1, "one fix: {v:#}");
    assert!(f[0].starts_with(fix_starts), "{}", f[0]);
    run_fix(r, path, &f[0]);
    let (code_after, v) = doctor(r, path);
    assert_eq!(code_after, 0, "after `{}`: {v:#}", f[0]);
}

#[test]
fn the_pre_commit_framework_set_up_as_the_guide_says_is_ok() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    let path = user_path(&[pre_commit_dir()]);
    let config = format!(
        "repos:\n  - repo: {}\n    rev: HEAD\n    hooks:\n      - id: jitcommit-draft\n      - id: jitcommit-check\n",
        source_root().display()
    );
    write(&r.dir, ".pre-commit-config.yaml", &config);
    // A plain `pre-commit install`: only the pre-commit hook, neither jitcommit hook.
    run_fix(&r, &path, "pre-commit install");
    one_fix_makes_it_ok(
        &r,
        &path,
        "pre-commit install --hook-type prepare-commit-msg --hook-type commit-msg",
    );
    let (_, v) = doctor(&r, &path);
    assert_eq!(status_of(&v, "shim"), ["ok", "ok"], "{v:#}");
    // pre-commit builds its own binaries: none needs to be on PATH.
    assert_eq!(status_of(&v, "binary"), ["info", "info"], "{v:#}");

    // A config without jitcommit: the named command chains pre-commit's hooks.
    let other = Repo::new(&sb, "other");
    write(
        &other.dir,
        ".pre-commit-config.yaml",
        "repos:\n  - repo: local\n    hooks:\n      - id: hello\n        name: hello\n        entry: 'true'\n        language: system\n        stages: [commit-msg]\n",
    );
    run_fix(
        &other,
        &path,
        "pre-commit install --hook-type prepare-commit-msg --hook-type commit-msg",
    );
    let (_, v) = doctor(&other, &path);
    assert_eq!(fixes(&v).len(), 2, "{v:#}");
    run_fix(&other, &path, &fixes(&v)[0]);
    let (code_after, v) = doctor(&other, &path);
    assert_eq!(code_after, 0, "{v:#}");
    assert_eq!(status_of(&v, "chained hook"), ["info", "info"], "{v:#}");
}

#[test]
fn husky_set_up_as_the_guide_says_is_ok() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    let path = user_path(&[npm_bin()]);
    run_fix(&r, &path, "husky");
    // The guide's two files.
    write(
        &r.dir,
        ".husky/prepare-commit-msg",
        "if command -v jitcommit-draft >/dev/null 2>&1; then jitcommit-draft \"$@\" || true; fi\n",
    );
    write(
        &r.dir,
        ".husky/commit-msg",
        "if command -v jitcommit-check >/dev/null 2>&1; then jitcommit-check \"$1\"; fi\n",
    );
    let (c, v) = doctor(&r, &path);
    assert_eq!(c, 0, "{v:#}");
    assert_eq!(status_of(&v, "shim"), ["ok", "ok"], "{v:#}");
    assert_eq!(status_of(&v, "binary"), ["ok", "ok"], "{v:#}");

    // One file missing: the fix writes the guide's line into it.
    std::fs::remove_file(r.dir.join(".husky/commit-msg")).unwrap();
    one_fix_makes_it_ok(&r, &path, "printf ");
    // husky's own folder gone (a fresh clone before `npm install`): husky writes it.
    std::fs::remove_dir_all(r.dir.join(".husky/_")).unwrap();
    one_fix_makes_it_ok(&r, &path, "husky");
    // …and a real commit with a bad message is rejected through husky.
    write(&r.dir, "a.txt", "a\n");
    r.git(&["add", "a.txt"]);
    let o = r
        .git_cmd()
        .args(["commit", "-q", "-m", "changed stuff"])
        .env("PATH", &path)
        .output()
        .unwrap();
    assert!(!o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("subject-format"), "{}", stderr(&o));
}

#[test]
fn lefthook_set_up_as_the_guide_says_is_ok() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    let path = user_path(&[npm_bin()]);
    write(
        &r.dir,
        "lefthook.yml",
        "prepare-commit-msg:\n  commands:\n    jitcommit:\n      run: if command -v jitcommit-draft >/dev/null 2>&1; then jitcommit-draft {0} || true; fi\n\
         commit-msg:\n  commands:\n    jitcommit:\n      run: if command -v jitcommit-check >/dev/null 2>&1; then jitcommit-check {1}; fi\n",
    );
    run_fix(&r, &path, "lefthook install");
    let (c, v) = doctor(&r, &path);
    assert_eq!(c, 0, "{v:#}");
    assert_eq!(status_of(&v, "shim"), ["ok", "ok"], "{v:#}");

    // The config lists jitcommit, the hook is not installed.
    std::fs::remove_file(r.dir.join(".git/hooks/commit-msg")).unwrap();
    one_fix_makes_it_ok(&r, &path, "lefthook install");

    // A lefthook config without jitcommit.
    let other = Repo::new(&sb, "other");
    write(
        &other.dir,
        "lefthook.yml",
        "pre-commit:\n  commands:\n    hello:\n      run: echo ok\n",
    );
    run_fix(&other, &path, "lefthook install");
    let (_, v) = doctor(&other, &path);
    let f = fixes(&v);
    assert_eq!(f.len(), 2, "{v:#}");
    for fix in &f {
        assert!(fix.starts_with("printf "), "{fix}");
        run_fix(&other, &path, fix);
    }
    let (c, v) = doctor(&other, &path);
    assert_eq!(c, 0, "{v:#}");
    assert_eq!(status_of(&v, "shim"), ["ok", "ok"], "{v:#}");

    // The config has commit-msg commands of its own: the lines go to lefthook-local.yml,
    // which lefthook merges into it.
    let third = Repo::new(&sb, "third");
    write(
        &third.dir,
        "lefthook.yml",
        "commit-msg:\n  commands:\n    hello:\n      run: echo ok\n\
         prepare-commit-msg:\n  commands:\n    hello:\n      run: echo ok\n",
    );
    run_fix(&third, &path, "lefthook install");
    let (_, v) = doctor(&third, &path);
    let f = fixes(&v);
    assert_eq!(f.len(), 2, "{v:#}");
    assert!(
        f[0].contains(">> ") && f[0].contains("lefthook-local.yml"),
        "{}",
        f[0]
    );
    run_fix(&third, &path, &f[0]);
    let (_, v) = doctor(&third, &path);
    let f = fixes(&v);
    assert_eq!(f.len(), 1, "{v:#}");
    run_fix(&third, &path, &f[0]);
    let (c, v) = doctor(&third, &path);
    assert_eq!(c, 0, "{v:#}");
    // …and lefthook runs the check beside the config's own command.
    write(&third.dir, "a.txt", "a\n");
    third.git(&["add", "a.txt"]);
    let o = third
        .git_cmd()
        .args(["commit", "-q", "-m", "changed stuff"])
        .env("PATH", &path)
        .output()
        .unwrap();
    assert!(!o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("subject-format") || stdout(&o).contains("subject-format"),
        "{}{}",
        stdout(&o),
        stderr(&o)
    );
}

#[test]
fn the_fix_for_missing_shims_makes_them_ok() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    let path = user_path(&[]);
    // A hook of the user's own, which install.sh chains.
    write(&r.dir, ".git/hooks/commit-msg", "#!/bin/sh\nexit 0\n");
    let (c, v) = doctor(&r, &path);
    assert_eq!(c, 1, "{v:#}");
    let f = fixes(&v);
    assert_eq!(f.len(), 2, "{v:#}");
    assert!(
        f.iter().all(|x| x.starts_with("install.sh --no-build")),
        "{f:?}"
    );
    run_fix(&r, &path, &f[0]);
    let (c, v) = doctor(&r, &path);
    assert_eq!(c, 0, "{v:#}");
}
