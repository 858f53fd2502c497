//! scripts/static-check.sh for real: it links jitcommit-check statically (what
//! install.sh installs on Linux with glibc), and the result needs no dynamic loader and
//! checks a commit through a real commit-msg hook, path tracing included.
//!
//! The script relinks the dev-profile binary in this build's own target dir (only the
//! final crate is compiled again), so `target/debug/jitcommit-check` is the static one
//! until the next `cargo build`. `cargo test` runs one test binary at a time, and this
//! file holds one test, so no other test runs the binary while it is replaced.
#![allow(clippy::unwrap_used)]

use std::path::Path;
use std::process::Command;

use jitcommit_testkit::{
    Sandbox, assert_ok, elf_has_interpreter as has_interpreter, host_is_linux_gnu, write,
};

#[test]
fn static_check_links_a_binary_that_needs_no_loader_and_checks_commits() {
    let dynamic = env!("CARGO_BIN_EXE_jitcommit-check");
    if !host_is_linux_gnu() {
        // The script's other branch: it refuses and leaves OUT alone.
        let sb = Sandbox::new();
        let out = sb.path().join("jitcommit-check");
        let status = Command::new("sh")
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/scripts/static-check.sh"
            ))
            .arg(&out)
            .arg("--debug")
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(1));
        assert!(!out.exists());
        return;
    }
    // The control: cargo's own build names the loader.
    assert!(has_interpreter(&std::fs::read(dynamic).unwrap()));
    let sb = Sandbox::new();
    let bin_dir = sb.path().join("bin");
    std::fs::create_dir_all(&bin_dir).unwrap();
    let bin = bin_dir.join("jitcommit-check");
    // The target dir this test was built in: <target>/debug/jitcommit-check.
    let target_dir = Path::new(dynamic).parent().unwrap().parent().unwrap();
    let out = Command::new("sh")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/scripts/static-check.sh"
        ))
        .arg(&bin)
        .arg("--debug")
        .env("CARGO_TARGET_DIR", target_dir)
        .output()
        .unwrap();
    assert_ok(&out, "scripts/static-check.sh");
    assert!(!has_interpreter(&std::fs::read(&bin).unwrap()));

    // The static binary as the commit-msg hook, for a commit with path tracing.
    let r = sb.init("repo");
    write(&r, "a.rs", "one\n");
    sb.git(&r, &["add", "-A"]);
    sb.git(&r, &["commit", "-qm", "feat: a", "--no-verify"]);
    let hook = r.join(".git/hooks/commit-msg");
    std::fs::write(
        &hook,
        format!("#!/bin/sh\nexec '{}' \"$1\"\n", bin.display()),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
    write(&r, "a.rs", "two\n");
    write(&r, "b.rs", "new\n");
    sb.git(&r, &["add", "-A"]);
    let bad = sb
        .git_cmd(&r)
        .args([
            "commit",
            "-q",
            "-m",
            "fix: a\n\n- Fix: c.rs — the wrong file",
        ])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stdout) + String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("bullet-path"), "{err}");
    sb.git(
        &r,
        &[
            "commit",
            "-q",
            "-m",
            "fix: a\n\n- Fix: a.rs — the right file\n- Add: b.rs — a new one",
        ],
    );
    assert_eq!(sb.git(&r, &["log", "-1", "--format=%s"]).trim(), "fix: a");
}
