//! The README's two commands, one after the other, as a newcomer runs them: in a fresh
//! HOME, `install.sh` in a new repository (the binaries land in `$CARGO_HOME/bin`, next
//! to `cargo`, and that directory is on PATH), then the README's test command in the
//! same shell environment. It failed before: the tests dropped every PATH directory
//! holding a jitcommit binary, and `cargo` with it.
//!
//! The nested test command proves the point with one cheap test, not the whole suite
//! again: it runs only [`the_inner_run_sees_what_install_sh_installed`], told by
//! `JITCOMMIT_README_SEQUENCE=inner` that it is the inner run.
#![allow(clippy::unwrap_used)]

use crate::install_support;

use std::path::Path;
use std::process::Stdio;

use install_support::*;
use jitcommit_testkit::Sandbox;

/// The README's test command, read from the README itself so the two cannot drift.
fn readme_test_command() -> String {
    let readme = std::fs::read_to_string(source_root().join("README.md")).unwrap();
    let line = readme
        .lines()
        .find(|l| l.starts_with("./test.sh"))
        .expect("README.md has a line starting with the test command");
    line.split('#').next().unwrap().trim().to_string()
}

/// The Quick start's first `sh` block, line by line: the two commands, each with its
/// comment. (The README's first screen holds, before it, the first hour on another
/// project: tests/first_hour.rs runs that block.)
fn readme_two_lines() -> Vec<String> {
    let readme = std::fs::read_to_string(source_root().join("README.md")).unwrap();
    let quick = readme
        .split_once("## Quick start\n")
        .expect("README.md has a Quick start")
        .1;
    let block = quick
        .split("```sh\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("README.md has an sh block");
    block.lines().map(str::to_owned).collect()
}

/// CI runs what the README tells a newcomer to run: the Quick start's first `sh` block is
/// the two commands and nothing else, one line each (the install command's comment once
/// ran onto a line of its own, which whoever reads the block line by line takes for
/// the second command), and `.ci/run`'s commands are those two lines as they stand, in
/// their order, and nothing else (this repository's own checks run inside the suite:
/// tests/own_repository.rs).
#[test]
fn ci_runs_the_readmes_two_commands_in_order() {
    let lines = readme_two_lines();
    let commands: Vec<&str> = lines
        .iter()
        .map(|l| l.split('#').next().unwrap().trim())
        .collect();
    assert_eq!(
        commands,
        ["./install.sh", readme_test_command().as_str()],
        "the Quick start's first sh block: {lines:#?}"
    );
    let ci = std::fs::read_to_string(source_root().join(".ci/run")).unwrap();
    let ci_commands: Vec<&str> = ci
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .filter(|l| !l.starts_with("set ") && !l.starts_with("cd "))
        .collect();
    assert_eq!(ci_commands, lines, ".ci/run:\n{ci}");
}

/// An install root whose `bin/` holds links to the real toolchain's programs, given to
/// install.sh as `CARGO_INSTALL_ROOT`: the binaries land in one directory with `cargo`,
/// as in `~/.cargo/bin` after rustup and `./install.sh`, without touching the real one
/// (`CARGO_HOME` stays the real one, so the registry's sources and every build are
/// shared with the outer run).
fn install_root(sb: &Sandbox) -> std::path::PathBuf {
    let [(_, real), _] = real_rust_homes();
    let root = sb.path().join("cargo-home");
    std::fs::create_dir_all(root.join("bin")).unwrap();
    for e in std::fs::read_dir(real.join("bin")).unwrap().flatten() {
        let name = e.file_name();
        if !name.to_string_lossy().contains("jitcommit") {
            std::os::unix::fs::symlink(e.path(), root.join("bin").join(&name)).unwrap();
        }
    }
    root
}

#[test]
fn install_then_the_test_command_pass_one_after_the_other() {
    if std::env::var_os("JITCOMMIT_README_SEQUENCE").is_some() {
        return; // the inner run runs only the probe below
    }
    require_dash();
    let sb = Sandbox::new();
    let repo = sb.init("project");
    let cargo_home = install_root(&sb);
    let [(_, real_cargo_home), (_, rustup_home)] = real_rust_homes();
    let mut path = vec![cargo_home.join("bin")];
    path.extend(std::env::split_paths(&path_without_jitcommit()));
    let path = std::env::join_paths(path).unwrap();
    // install.sh builds where the other release builds of the suite do (its own
    // `<source>/target` would be one more release build of everything).
    let [(target_var, target), (build_var, build)] = shared_build_env();
    let script = format!(
        "set -e\ncd '{repo}'\n{target_var}='{target}' {build_var}='{build}' '{install}'\n\
         command -v jitcommit-check\ncd '{src}'\n{test} -- {probe} --exact\n",
        repo = repo.display(),
        target = target.display(),
        build = build.display(),
        install = source_root().join("install.sh").display(),
        src = source_root().display(),
        test = readme_test_command(),
        probe = INNER_PROBE,
    );
    let out = sb
        .cmd("sh", Path::new("/"))
        .args(["-c", &script])
        .env("PATH", &path)
        .env("CARGO_HOME", &real_cargo_home)
        .env("CARGO_INSTALL_ROOT", &cargo_home)
        .env("RUSTUP_HOME", &rustup_home)
        .env("JITCOMMIT_README_SEQUENCE", "inner")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = text(&out);
    let tail: String = {
        let chars: Vec<char> = text.chars().collect();
        chars[chars.len().saturating_sub(20_000)..].iter().collect()
    };
    assert!(
        out.status.success(),
        "the README's sequence failed ({}):\n{tail}",
        out.status
    );
    let installed = cargo_home.join("bin/jitcommit-check");
    assert!(
        installed.exists(),
        "install.sh put the binaries in $CARGO_HOME/bin"
    );
    assert!(
        text.contains(&installed.display().to_string()),
        "the installed binary was on PATH for the test command"
    );
    assert!(
        text.contains(&format!("test {INNER_PROBE} ... ok"))
            && text.contains("test result: ok. 1 passed")
            && !text.contains("test result: FAILED"),
        "the inner test run ran its probe and it passed:\n{tail}"
    );
}

/// The inner run's one test, by its full name in the test binary.
const INNER_PROBE: &str = "readme_sequence::the_inner_run_sees_what_install_sh_installed";

/// In the inner run: the test command found `cargo` and the binaries install.sh put in
/// `$CARGO_HOME/bin` on PATH (the failure this file guards against dropped both).
#[test]
fn the_inner_run_sees_what_install_sh_installed() {
    let Some(root) = std::env::var_os("CARGO_INSTALL_ROOT") else {
        return; // not the inner run: the test above runs it
    };
    if std::env::var_os("JITCOMMIT_README_SEQUENCE").is_none() {
        return;
    }
    let bin = Path::new(&root).join("bin");
    let path = std::env::var_os("PATH").unwrap_or_default();
    let dirs: Vec<_> = std::env::split_paths(&path).collect();
    for program in ["cargo", "jitcommit-check", "jitcommit-draft", "jitcommit"] {
        let found = dirs.iter().map(|d| d.join(program)).find(|p| p.is_file());
        assert!(found.is_some(), "{program} is on the test command's PATH");
    }
    assert!(
        dirs.iter().any(|d| d == &bin),
        "install.sh's bin directory {} is on PATH",
        bin.display()
    );
}
