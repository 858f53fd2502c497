//! `jitcommit-check`'s command line: every flag, exit codes, output formats, colour,
//! bad input (non-UTF-8, NUL, 10 MB, corrupt config) and a closed pipe.
#![allow(clippy::unwrap_used)]

use crate::check_support;

use std::path::PathBuf;

use check_support::*;
use jitcommit_testkit::{Sandbox, write};

const BAD: &str = "Changed stuff.\nmore text\n";

fn plain_dir(sb: &Sandbox) -> PathBuf {
    let d = sb.path().join("plain");
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn stdin_check(sb: &Sandbox, args: &[&str], msg: &[u8]) -> std::process::Output {
    let mut c = check(sb, &plain_dir(sb));
    c.arg("--stdin").args(args);
    run_with_stdin(c, msg)
}

#[test]
fn help_and_version() {
    let sb = Sandbox::new();
    let o = run({
        let mut c = check(&sb, sb.path());
        c.arg("--help");
        c
    });
    assert_eq!(code(&o), 0);
    for needle in [
        "--range A..B",
        "--pre-receive",
        "--update REF OLD NEW",
        "EXAMPLES",
        "EXIT STATUS",
    ] {
        assert!(stdout(&o).contains(needle), "{needle}");
    }
    let o = run({
        let mut c = check(&sb, sb.path());
        c.arg("--version");
        c
    });
    assert_eq!(
        stdout(&o),
        format!("jitcommit-check {}\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn usage_errors_exit_2() {
    let sb = Sandbox::new();
    for args in [
        &[][..],
        &["--bogus"],
        &["--stdin", "--range", "a..b"],
        &["--format", "yaml", "--stdin"],
        &["a", "b"],
    ] {
        let o = run({
            let mut c = check(&sb, sb.path());
            c.args(args);
            c
        });
        assert_eq!(code(&o), 2, "{args:?}");
        assert!(
            stderr(&o).contains("jitcommit-check: error:"),
            "{args:?}: {}",
            stderr(&o)
        );
        assert!(stderr(&o).contains("--help"), "{args:?}");
    }
}

#[test]
fn stdin_outside_a_repository_uses_defaults_without_tracing() {
    let sb = Sandbox::new();
    let o = stdin_check(
        &sb,
        &[],
        good("feat: add x", &["nowhere/at/all.rs"]).as_bytes(),
    );
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert_eq!(stdout(&o), "");
    let o = stdin_check(&sb, &[], BAD.as_bytes());
    assert_eq!(code(&o), 1);
    let out = stdout(&o);
    assert!(out.starts_with("<stdin>:1:"), "{out}");
    insta::assert_snapshot!("stdin_human", out);
}

#[test]
fn json_output_snapshot() {
    let sb = Sandbox::new();
    let o = stdin_check(&sb, &["--format", "json"], BAD.as_bytes());
    assert_eq!(code(&o), 1);
    let out = stdout(&o);
    let v: serde_json::Value = serde_json::from_str(out.trim_end()).unwrap();
    assert_eq!(v["file"], "<stdin>");
    assert!(
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["rule"].is_string() && f["line"].is_u64())
    );
    insta::assert_snapshot!("stdin_json", out);
    // Clean messages get an object too.
    let o = stdin_check(
        &sb,
        &["--format", "json"],
        good("feat: x", &["x"]).as_bytes(),
    );
    assert_eq!(code(&o), 0);
    assert_eq!(stdout(&o), "{\"file\":\"<stdin>\",\"findings\":[]}\n");
}

#[test]
fn colour_only_when_asked_and_never_with_no_color() {
    let sb = Sandbox::new();
    let o = stdin_check(&sb, &[], BAD.as_bytes());
    assert!(!stdout(&o).contains('\x1b'), "a pipe is not a terminal");
    let o = stdin_check(&sb, &["--color", "always"], BAD.as_bytes());
    assert!(stdout(&o).contains("\x1b["));
    let mut c = check(&sb, &plain_dir(&sb));
    c.args(["--stdin", "--color", "auto"]).env("NO_COLOR", "1");
    let o = run_with_stdin(c, BAD.as_bytes());
    assert!(!stdout(&o).contains('\x1b'));
}

#[test]
fn non_utf8_and_nul_are_findings() {
    let sb = Sandbox::new();
    let o = stdin_check(
        &sb,
        &["--format", "json"],
        b"feat: caf\xe9\n\n- Add: x \xe2\x80\x94 y\n",
    );
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(stdout(&o).contains("UTF-8"), "{}", stdout(&o));
    let o = stdin_check(
        &sb,
        &["--format", "json"],
        b"feat: a\0b\n\n- Add: x \xe2\x80\x94 y\n",
    );
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(stdout(&o).contains("NUL"), "{}", stdout(&o));
}

#[test]
fn ten_megabyte_message() {
    let sb = Sandbox::new();
    let mut msg = good("feat: add x", &["x"]).into_bytes();
    let line = "- Update: x — a long body line that repeats to make the message large\n";
    while msg.len() < 10 * 1024 * 1024 {
        msg.extend_from_slice(line.as_bytes());
    }
    let o = stdin_check(&sb, &["--format", "json"], &msg);
    assert!(matches!(code(&o), 0 | 1), "{}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"));
    let o = stdin_check(&sb, &[], &vec![b'x'; 10 * 1024 * 1024]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
}

#[test]
fn message_file_argument_and_missing_file() {
    let sb = Sandbox::new();
    let d = plain_dir(&sb);
    write(
        &d,
        "MSG",
        "# comment dropped\nfeat: add x\n\n- Add: x — y\n",
    );
    let o = run({
        let mut c = check(&sb, &d);
        c.arg("MSG");
        c
    });
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    // Lines point at the file as the user sees it, comments included.
    write(&d, "MSG2", "# comment\n\nchanged stuff\n");
    let o = run({
        let mut c = check(&sb, &d);
        c.arg("MSG2");
        c
    });
    assert_eq!(code(&o), 1);
    assert!(stdout(&o).starts_with("MSG2:3:"), "{}", stdout(&o));
    let o = run({
        let mut c = check(&sb, &d);
        c.arg("NOPE");
        c
    });
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("cannot read NOPE"), "{}", stderr(&o));
}

#[test]
fn dump_config_names_the_file() {
    let sb = Sandbox::new();
    let r = sb.init("r");
    write(
        &r,
        ".commit-convention.toml",
        "types = [\"feat\", \"fix\"]\nsubject-max = 50\n",
    );
    let o = run({
        let mut c = check(&sb, &r);
        c.arg("--dump-config");
        c
    });
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains(".commit-convention.toml"), "{out}");
    assert!(out.contains("subject-max = 50"), "{out}");
    let o = run({
        let mut c = check(&sb, &plain_dir(&sb));
        c.args(["--dump-config", "--format", "json"]);
        c
    });
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["origin"], "built-in defaults");
    assert!(v["convention"]["types"].as_array().unwrap().len() > 3);
}

#[test]
fn corrupt_config_exits_2_naming_file_and_key() {
    let sb = Sandbox::new();
    let r = sb.init("r");
    write(
        &r,
        ".commit-convention.toml",
        "types = [\"feat\"]\nno-such-key = true\n",
    );
    let mut c = check(&sb, &r);
    c.arg("--stdin");
    let o = run_with_stdin(c, b"feat: x\n");
    assert_eq!(code(&o), 2);
    let err = stderr(&o);
    assert!(err.contains(".commit-convention.toml"), "{err}");
    assert!(err.contains("no-such-key"), "{err}");
    let missing = sb.path().join("missing.toml");
    let mut c = check(&sb, &r);
    c.args(["--stdin", "--config", missing.to_str().unwrap()]);
    let o = run_with_stdin(c, b"feat: x\n");
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("missing.toml"), "{}", stderr(&o));
}

#[test]
fn list_and_explain_rules() {
    let sb = Sandbox::new();
    let o = run({
        let mut c = check(&sb, sb.path());
        c.arg("--list-rules");
        c
    });
    assert_eq!(code(&o), 0);
    let ids: Vec<String> = stdout(&o)
        .lines()
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect();
    assert!(ids.len() >= 3);
    for id in &ids {
        assert!(
            id.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
            "kebab-case: {id}"
        );
        let o = run({
            let mut c = check(&sb, sb.path());
            c.args(["--explain", id]);
            c
        });
        assert_eq!(code(&o), 0, "{id}");
        assert!(stdout(&o).contains(id.as_str()), "{id}: {}", stdout(&o));
    }
    let o = run({
        let mut c = check(&sb, sb.path());
        c.args(["--explain", "no-such-rule"]);
        c
    });
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("no-such-rule"));
}

#[test]
fn broken_pipe_exits_quietly() {
    let sb = Sandbox::new();
    let d = plain_dir(&sb);
    // Many findings into a reader that closes at once.
    let msg = format!("oops\n\n{}", "not a bullet\n".repeat(20_000));
    write(&d, "MSG", &msg);
    let script = format!(
        "'{}' --no-trace-paths MSG | head -c 1 >/dev/null; echo \"rc=${{PIPESTATUS[0]}}\"",
        bin().display()
    );
    let o = run({
        let mut c = sb.cmd("bash", &d);
        c.args(["-c", &script]);
        c
    });
    let out = stdout(&o);
    assert!(
        out.trim() == "rc=0" || out.trim() == "rc=1",
        "{out} {}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("error"), "{}", stderr(&o));
}
