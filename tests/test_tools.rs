//! `./test.sh` installs the tools the tests drive (pre-commit, husky, lefthook) and must
//! leave every repository alone while it does: lefthook's npm install script runs
//! `lefthook install` in the repository npm was started from, which wrote a
//! `lefthook.yml` and hooks into the repository a developer ran the README's old npm
//! line in. Here the tools directory is inside a repository, the worst place, and the
//! script is started from that repository.

#![allow(clippy::unwrap_used)]

use std::path::Path;
use std::process::Stdio;

use crate::install_support::source_root;
use jitcommit_testkit::Sandbox;

/// The real user's package caches, so the install reads what an earlier run fetched
/// (the sandbox's HOME is empty).
fn real_caches() -> Vec<(&'static str, std::path::PathBuf)> {
    let home = std::env::var_os("HOME")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| "/root".into());
    vec![
        ("npm_config_cache", home.join(".npm")),
        ("PIP_CACHE_DIR", home.join(".cache/pip")),
    ]
}

#[test]
fn installing_the_test_tools_writes_into_no_repository() {
    let sb = Sandbox::new();
    let repo = sb.init("someone-elses-project");
    let tools = repo.join("tools");
    let mut c = sb.cmd("bash", &repo);
    c.arg(source_root().join("test.sh"))
        .arg("--tools-only")
        .env("JITCOMMIT_TEST_TOOLS", &tools)
        .env_remove("CI")
        .env_remove("LEFTHOOK")
        .stdin(Stdio::null());
    for (k, v) in real_caches() {
        c.env(k, v);
    }
    let out = c.output().unwrap();
    jitcommit_testkit::assert_ok(&out, "./test.sh --tools-only");

    let lefthook = tools.join("npm/node_modules/.bin/lefthook");
    let version = sb
        .cmd(&lefthook, Path::new("/"))
        .arg("version")
        .output()
        .unwrap();
    jitcommit_testkit::assert_ok(&version, "lefthook version");
    assert!(tools.join("npm/node_modules/.bin/husky").is_file());
    assert!(tools.join("venv/bin/pre-commit").is_file());

    for f in ["lefthook.yml", ".lefthook.yml", "lefthook-local.yml"] {
        assert!(!repo.join(f).exists(), "{f} appeared in the repository");
        assert!(
            !tools.join(f).exists(),
            "{f} appeared in the tools directory"
        );
    }
    let hooks: Vec<_> = std::fs::read_dir(repo.join(".git/hooks"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.ends_with(".sample"))
        .collect();
    assert!(hooks.is_empty(), "hooks appeared: {hooks:?}");
    let hooks_path = sb
        .git_cmd(&repo)
        .args(["config", "--get", "core.hooksPath"])
        .output()
        .unwrap();
    assert!(
        hooks_path.stdout.is_empty(),
        "core.hooksPath was set: {}",
        String::from_utf8_lossy(&hooks_path.stdout)
    );
}
