//! The examples/ directory, run for real: the convention configs load with the real
//! config loader (`jitcommit-check --dump-config`), the demo script commits offline
//! and validates, and the server script shows a rejected and an accepted push. The CI
//! examples (the GitHub Action and the GitLab job) are run in tests/action.rs.
#![allow(clippy::unwrap_used)]

use crate::install_support;

use std::process::Stdio;

use install_support::*;
use jitcommit_testkit::{Sandbox, write};

fn check() -> &'static str {
    env!("CARGO_BIN_EXE_jitcommit-check")
}

#[test]
fn convention_examples_load_with_the_real_config_loader() {
    let sb = Sandbox::new();
    for (file, marks) in [
        ("pyproject.toml", ["api", "cli", "db"]),
        (".commit-convention.toml", ["server", "client", "proto"]),
        ("Cargo.toml", ["core", "hooks", "cli"]),
    ] {
        let repo = sb.init(&format!("repo-{}", file.trim_start_matches('.')));
        let content = std::fs::read(source_root().join("examples/conventions").join(file)).unwrap();
        write(&repo, file, content);
        let o = sb
            .cmd(check(), &repo)
            .arg("--dump-config")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let out = text(&o);
        assert!(
            o.status.success(),
            "--dump-config rejected examples/conventions/{file}:\n{out}"
        );
        assert!(
            out.contains(file),
            "--dump-config does not name {file} as the source:\n{out}"
        );
        for scope in marks {
            assert!(
                out.contains(&format!("\"{scope}\"")),
                "{file}: scope {scope} missing from:\n{out}"
            );
        }
    }
}

#[test]
fn demo_script_commits_offline_and_shows_the_validated_result() {
    require_dash();
    let sb = Sandbox::new();
    let dir = sb.path().join("demo");
    let o = sb
        .cmd("dash", sb.path())
        .arg(source_root().join("examples/demo.sh"))
        .arg(&dir)
        .env("PATH", path_with_built())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let out = text(&o);
    assert!(o.status.success(), "demo.sh failed:\n{out}");
    assert!(out.contains("the draft in your editor"), "{out}");
    assert!(
        out.contains("ok: the commit follows the convention"),
        "{out}"
    );
    let repo = dir.join("repo");
    let msg = sb.git(&repo, &["log", "-1", "--format=%B"]);
    assert!(
        msg.contains("- Add: src/greet.py")
            && msg.contains("greet people by name on the home page"),
        "{msg}"
    );
    assert!(repo.join(".git/hooks/prepare-commit-msg").exists());
    assert_eq!(sb.git(&repo, &["rev-list", "--count", "HEAD"]).trim(), "2");
}

#[test]
fn server_example_rejects_a_bad_push_and_accepts_a_good_one() {
    require_dash();
    let sb = Sandbox::new();
    let dir = sb.path().join("srv");
    let o = sb
        .cmd("dash", sb.path())
        .arg(source_root().join("examples/server/setup.sh"))
        .arg(&dir)
        .env("PATH", path_with_built())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let out = text(&o);
    assert!(o.status.success(), "setup.sh failed:\n{out}");
    assert!(
        out.contains("[remote rejected]") || out.contains("pre-receive hook declined"),
        "{out}"
    );
    let bare = dir.join("server.git");
    assert_eq!(
        sb.git(&bare, &["config", "jitcommit.policy"]).trim(),
        "jitcommit-policy.toml"
    );
    let msg = sb.git(&bare, &["log", "-1", "--format=%B", "main"]);
    assert!(msg.contains("- Add: hello.py"), "{msg}");
    assert!(
        !msg.contains("Changed"),
        "the rejected commit reached the server: {msg}"
    );
}
