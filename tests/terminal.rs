//! Terminal conventions on a real terminal (util-linux `script` gives the command a
//! pseudo-terminal): `jitcommit-check`'s colour follows `NO_COLOR`, `CLICOLOR=0`,
//! `CLICOLOR_FORCE=1` and `TERM=dumb`; the draft hook's spinner is off on a dumb
//! terminal and writes no escape sequence under `NO_COLOR` / `CLICOLOR=0`.
#![allow(clippy::unwrap_used)]

use crate::draft_support;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use draft_support::*;
use jitcommit_testkit::model_server::{ModelServer, Script};

const CONVENTIONS: [&str; 4] = ["NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "TERM"];

/// `sh -c line` on a pseudo-terminal (stdin, stdout and stderr), with `env` and none of
/// the conventions inherited from the test's own environment.
fn on_terminal(sb: &Sandbox, cwd: &Path, line: &str, env: &[(&str, &str)]) -> Output {
    let mut c = sb.cmd("script", cwd);
    c.args(["-qec", line, "/dev/null"]).stdin(Stdio::null());
    scrub(&mut c, env);
    c.output().unwrap()
}

fn scrub(c: &mut Command, env: &[(&str, &str)]) {
    for k in CONVENTIONS {
        c.env_remove(k);
    }
    c.env("TERM", "xterm");
    for (k, v) in env {
        c.env(k, v);
    }
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn check_colour_follows_no_color_clicolor_and_term() {
    let sb = Sandbox::new();
    let dir = sb.path().to_path_buf();
    write(&dir, "msg.txt", "added x\n");
    let check = cargo_bin("jitcommit-check");
    let line = format!("'{}' --stdin --no-trace-paths < msg.txt", check.display());
    let coloured = |env: &[(&str, &str)]| {
        let o = on_terminal(&sb, &dir, &line, env);
        let out = text(&o);
        assert!(out.contains("subject-format"), "{env:?}: {out}");
        out.contains("\x1b[")
    };
    assert!(coloured(&[]), "a terminal gets colour");
    assert!(!coloured(&[("NO_COLOR", "1")]));
    assert!(coloured(&[("NO_COLOR", "")]), "an empty NO_COLOR is unset");
    assert!(!coloured(&[("CLICOLOR", "0")]));
    assert!(!coloured(&[("TERM", "dumb")]));

    // Off a terminal: only CLICOLOR_FORCE (and not over NO_COLOR or --color never).
    let piped = |args: &[&str], env: &[(&str, &str)]| {
        let mut c = sb.cmd(&check, &dir);
        c.args(["--stdin", "--no-trace-paths"]).args(args);
        scrub(&mut c, env);
        let o = jitcommit_testkit::run_with_input(c, b"added x\n");
        String::from_utf8_lossy(&o.stdout).contains("\x1b[")
    };
    assert!(!piped(&[], &[]));
    assert!(piped(&[], &[("CLICOLOR_FORCE", "1")]));
    assert!(!piped(&[], &[("CLICOLOR_FORCE", "0")]));
    assert!(!piped(&[], &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]));
    assert!(!piped(&["--color", "never"], &[("CLICOLOR_FORCE", "1")]));
}

/// The terminal output of `git commit --no-edit` with a model that answers nothing for
/// a second (the hook then writes its offline draft): the spinner's time on screen.
fn commit_on_terminal(env: &[(&str, &str)]) -> String {
    let server = ModelServer::start(vec![Script::Hang(Duration::from_millis(1200))]);
    let r = Repo::new();
    write(&r.dir, "src/lib.rs", "pub fn greet() {}\n");
    r.git(&["add", "src/lib.rs"]);
    r.use_model(&server.url(), "openai");
    let mut env = env.to_vec();
    env.push(("JITCOMMIT_TIMEOUT", "5s"));
    let o = on_terminal(&r.sb, &r.dir, "git commit -q --no-edit", &env);
    assert_ok(&o, "git commit on a terminal");
    assert_eq!(r.git(&["rev-list", "--count", "HEAD"]).trim(), "2");
    text(&o)
}

#[test]
fn the_spinner_draws_on_a_terminal_and_clears_its_line() {
    let out = commit_on_terminal(&[]);
    assert!(out.contains("drafting with test-model"), "{out:?}");
    assert!(out.contains("\r\x1b[2K"), "{out:?}");
}

#[test]
fn the_spinner_stays_off_on_a_dumb_terminal() {
    let out = commit_on_terminal(&[("TERM", "dumb")]);
    assert!(!out.contains("drafting with"), "{out:?}");
    assert!(!out.contains('\x1b'), "{out:?}");
}

#[test]
fn the_spinner_writes_no_escape_with_no_color_or_clicolor_0() {
    for env in [("NO_COLOR", "1"), ("CLICOLOR", "0")] {
        let out = commit_on_terminal(&[env]);
        assert!(out.contains("drafting with test-model"), "{env:?}: {out:?}");
        assert!(!out.contains('\x1b'), "{env:?}: {out:?}");
    }
}
