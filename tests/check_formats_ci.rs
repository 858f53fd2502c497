//! `--format github|gitlab|rdjsonl` in every mode of `jitcommit-check` (message file,
//! `--stdin`, `--range`, `--commit`, and `--pre-receive` / `--update` as real server
//! hooks), each output checked against the fields its consumer documents as required:
//! GitHub's workflow commands (docs.github.com, "Workflow commands for GitHub Actions":
//! `::error title=…,file=…,line=…,col=…::message`, properties escaped `%25 %0D %0A %3A
//! %2C`, the message `%25 %0D %0A`), GitLab's Code Quality report (docs.gitlab.com,
//! "Code Quality": a JSON array; `description`, `check_name`, `fingerprint`, `severity`
//! in info|minor|major|critical|blocker, `location.path`, `location.lines.begin`) and
//! reviewdog's rdjsonl (proto/rdf/reviewdog.proto: one `Diagnostic` a line, `message`,
//! `location.path`, `location.range.start.line`, `severity`, `code.value`).
#![allow(clippy::unwrap_used)]

use crate::check_support;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Output;

use check_support::*;
use jitcommit_testkit::{Sandbox, write};
use serde_json::Value;

const FORMATS: [&str; 3] = ["github", "gitlab", "rdjsonl"];

/// A repository whose last two commits break the convention: a bad subject, and a bullet
/// naming `src/lib.rs`, which that commit does not change.
fn repo(sb: &Sandbox) -> PathBuf {
    let r = client(sb, "r");
    sb.git(&r, &["tag", "base"]);
    write(&r, "b.txt", "b\n");
    sb.git(&r, &["add", "b.txt"]);
    sb.git(&r, &["commit", "-q", "--no-verify", "-m", "added b 100%"]);
    write(&r, "c.txt", "c\n");
    sb.git(&r, &["add", "c.txt"]);
    let msg = good("feat: add c", &["src/lib.rs"]);
    sb.git(&r, &["commit", "-q", "--no-verify", "-m", &msg]);
    r
}

/// Runs `jitcommit-check ARGS --format FORMAT` in `cwd`, with `input` on stdin.
fn check_with(sb: &Sandbox, cwd: &Path, args: &[&str], format: &str, input: &[u8]) -> Output {
    let mut c = check(sb, cwd);
    c.args(args).args(["--format", format]);
    run_with_stdin(c, input)
}

/// A bare server holding `base` of `r`, with `hook` running the check in `format`; the
/// output of pushing `r`'s main there (the `remote:` lines, without the prefix).
fn push_through(sb: &Sandbox, r: &Path, hook: &str, args: &str, format: &str) -> (i32, String) {
    let bare = sb.init_bare(&format!("server-{hook}-{format}.git"));
    let url = bare.to_str().unwrap().to_string();
    sb.git(r, &["push", "-q", &url, "base:refs/heads/main"]);
    install_hook(
        &bare.join("hooks"),
        hook,
        &format!("--format {format} {args}"),
    );
    let o = git_try(sb, r, &["push", &url, "main"], &[]);
    let remote = stderr(&o)
        .lines()
        .filter_map(|l| l.strip_prefix("remote: "))
        // receive-pack's own line about a declining update hook.
        .filter(|l| !l.starts_with("error: hook declined"))
        .map(|l| format!("{}\n", l.trim_end()))
        .collect();
    (code(&o), remote)
}

/// Every mode's (name, exit code, output) in `format`.
fn every_mode(sb: &Sandbox, r: &Path, format: &str) -> Vec<(&'static str, i32, String)> {
    write(r, "msg.txt", "added x\n\nwhy: 50%, it said\n");
    let out = |o: Output| (code(&o), stdout(&o));
    let mut all = Vec::new();
    for (name, args, input) in [
        ("file", vec!["msg.txt"], &b""[..]),
        ("stdin", vec!["--stdin", "--no-trace-paths"], b"added x\n"),
        ("range", vec!["--range", "base..main"], b""),
        ("commit", vec!["--commit", "main"], b""),
    ] {
        let (c, s) = out(check_with(sb, r, &args, format, input));
        all.push((name, c, s));
    }
    let (c, s) = push_through(sb, r, "pre-receive", "--pre-receive", format);
    all.push(("pre-receive", c, s));
    let (c, s) = push_through(sb, r, "update", "--update", format);
    all.push(("update", c, s));
    all
}

/// A workflow command's property value: no raw `,` `:` CR or LF, every `%` an escape.
fn github_value_ok(v: &str, property: bool) -> bool {
    let bad: &[char] = if property {
        &['\r', '\n', ':', ',']
    } else {
        &['\r', '\n']
    };
    !v.contains(bad)
        && v.match_indices('%').all(|(i, _)| {
            let esc = &v[i..];
            ["%25", "%0D", "%0A", "%3A", "%2C"]
                .iter()
                .any(|e| esc.starts_with(e) && (property || !matches!(*e, "%3A" | "%2C")))
        })
}

/// Checks every `::error` line; returns (annotations, their `file=` values).
fn github(out: &str) -> (usize, Vec<String>) {
    let mut n = 0;
    let mut files = Vec::new();
    for line in out.lines().filter(|l| l.starts_with("::")) {
        let rest = line
            .strip_prefix("::error ")
            .unwrap_or_else(|| panic!("{line}"));
        let (props, message) = rest.split_once("::").unwrap_or_else(|| panic!("{line}"));
        assert!(
            !message.is_empty() && github_value_ok(message, false),
            "{line}"
        );
        let mut keys = Vec::new();
        for p in props.split(',') {
            let (k, v) = p.split_once('=').unwrap_or_else(|| panic!("{line}"));
            assert!(["title", "file", "line", "col"].contains(&k), "{line}");
            assert!(!v.is_empty() && github_value_ok(v, true), "{line}");
            if matches!(k, "line" | "col") {
                assert!(v.parse::<usize>().unwrap() >= 1, "{line}");
            }
            if k == "file" {
                files.push(v.to_string());
            }
            keys.push(k);
        }
        assert_eq!(keys[0], "title", "{line}");
        assert!(!keys.contains(&"line") || keys.contains(&"file"), "{line}");
        n += 1;
    }
    (n, files)
}

fn string<'v>(v: &'v Value, path: &[&str]) -> &'v str {
    let mut at = v;
    for p in path {
        at = &at[p];
    }
    let s = at
        .as_str()
        .unwrap_or_else(|| panic!("{path:?} is not a string in {v}"));
    assert!(!s.is_empty(), "{path:?} is empty in {v}");
    s
}

fn line_number(v: &Value, path: &[&str]) -> u64 {
    let mut at = v;
    for p in path {
        at = &at[p];
    }
    let n = at
        .as_u64()
        .unwrap_or_else(|| panic!("{path:?} is not an integer in {v}"));
    assert!(n >= 1, "{path:?} in {v}");
    n
}

/// Checks the one JSON array; returns (issues, their paths).
fn gitlab(out: &str) -> (usize, Vec<String>) {
    let lines: Vec<&str> = out.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "one array: {out}");
    let v: Value = serde_json::from_str(lines[0]).unwrap();
    let issues = v.as_array().unwrap_or_else(|| panic!("not an array: {v}"));
    let mut prints = HashSet::new();
    let mut paths = Vec::new();
    for i in issues {
        string(i, &["description"]);
        string(i, &["check_name"]);
        assert!(prints.insert(string(i, &["fingerprint"])), "unique: {v}");
        let sev = string(i, &["severity"]);
        assert!(["info", "minor", "major", "critical", "blocker"].contains(&sev));
        paths.push(string(i, &["location", "path"]).to_string());
        line_number(i, &["location", "lines", "begin"]);
    }
    (issues.len(), paths)
}

/// Checks each line as a Diagnostic; returns (diagnostics, their paths).
fn rdjsonl(out: &str) -> (usize, Vec<String>) {
    let mut paths = Vec::new();
    for line in out.lines() {
        let d: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        string(&d, &["message"]);
        paths.push(string(&d, &["location", "path"]).to_string());
        line_number(&d, &["location", "range", "start", "line"]);
        let sev = string(&d, &["severity"]);
        assert!(["UNKNOWN_SEVERITY", "ERROR", "WARNING", "INFO"].contains(&sev));
        string(&d, &["code", "value"]);
    }
    (out.lines().count(), paths)
}

#[test]
fn every_mode_writes_every_ci_format_by_its_schema() {
    let sb = Sandbox::new();
    let r = repo(&sb);
    for format in FORMATS {
        for (mode, code, out) in every_mode(&sb, &r, format) {
            let what = format!("{mode} --format {format}");
            assert_eq!(code, 1, "{what}: findings fail the check\n{out}");
            let (n, paths) = match format {
                "github" => github(&out),
                "gitlab" => gitlab(&out),
                _ => rdjsonl(&out),
            };
            assert!(n >= 1, "{what}: no finding written\n{out}");
            match mode {
                "file" => assert!(paths.iter().all(|p| p == "msg.txt"), "{what}: {paths:?}"),
                // A commit's bullet naming an unchanged path points at that file.
                "range" | "pre-receive" | "update" => {
                    assert!(paths.iter().any(|p| p == "src/lib.rs"), "{what}: {paths:?}");
                    assert!(!out.contains('\x1b'), "{what}");
                }
                _ => {}
            }
            if format != "github" && matches!(mode, "range" | "commit" | "stdin") {
                assert!(paths.iter().all(|p| p != "<stdin>"), "{what}: {paths:?}");
            }
        }
    }
}

#[test]
fn github_annotations_name_rule_file_line_and_the_commit() {
    let sb = Sandbox::new();
    let r = repo(&sb);
    let o = check_with(&sb, &r, &["--range", "base..main"], "github", b"");
    let out = stdout(&o);
    let ids = sb.git(&r, &["rev-list", "--reverse", "base..main"]);
    let ids: Vec<&str> = ids.lines().collect();
    let bad_subject = out
        .lines()
        .find(|l| l.starts_with("::error title=subject-format::"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        bad_subject.contains(&format!("::{} ", &ids[0][..12])),
        "{out}"
    );
    assert!(
        bad_subject.contains("\"feat: added b 100%25\"") && !bad_subject.contains("100%\""),
        "{out}"
    );
    assert!(
        out.lines().any(|l| l.starts_with(&format!(
            "::error title=bullet-path,file=src/lib.rs::{} ",
            &ids[1][..12]
        ))),
        "{out}"
    );
    // A message file's findings sit on its lines.
    write(&r, "msg.txt", "\n# a comment git drops\nadded x\n");
    let o = check_with(&sb, &r, &["msg.txt"], "github", b"");
    assert!(
        stdout(&o).starts_with("::error title=subject-format,file=msg.txt,line=3,col=6::expected"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn a_clean_run_writes_an_empty_report() {
    let sb = Sandbox::new();
    let r = repo(&sb);
    let empty = ["base..base"];
    for (format, want) in [("github", ""), ("gitlab", "[]\n"), ("rdjsonl", "")] {
        let o = check_with(&sb, &r, &["--range", empty[0]], format, b"");
        assert_eq!(code(&o), 0, "{format}");
        assert_eq!(stdout(&o), want, "{format}");
    }
}

#[test]
fn an_error_writes_no_report() {
    let sb = Sandbox::new();
    let r = repo(&sb);
    for format in FORMATS {
        let o = check_with(&sb, &r, &["--range", "base..nosuchref"], format, b"");
        assert_eq!(code(&o), 2, "{format}");
        assert_eq!(stdout(&o), "", "{format}");
    }
}

/// What GitHub's runner would run in `out` that the tool did not write: a line that
/// starts (after blanks) with `::` and is not one of the tool's `::error title=RULE`
/// commands (whose fields [`github`] checks), any `##[` (the runner's older form, taken
/// anywhere in a line), and any control character (an ESC sequence colours the log).
fn forged(out: &str) -> Vec<String> {
    out.lines()
        .filter(|l| {
            let t = l.trim_start();
            let own = l.strip_prefix("::error title=").is_some_and(|rest| {
                let id = rest.len()
                    - rest
                        .trim_start_matches(|c: char| c.is_ascii_lowercase() || c == '-')
                        .len();
                id > 0 && rest[id..].starts_with([',', ':'])
            });
            (t.starts_with("::") && !own) || l.contains("##[") || l.chars().any(char::is_control)
        })
        .map(str::to_string)
        .collect()
}

#[test]
fn under_github_format_text_from_the_repository_stays_data() {
    // The attack: a subject, a path and a convention key that hold workflow commands
    // and an ESC sequence, written by the tool to the Action's log.
    let sb = Sandbox::new();
    let r = client(&sb, "r");
    sb.git(&r, &["tag", "base"]);
    let attacks = [
        "wip##[error]forged: add a",
        "wip\u{1b}[31mred\u{1b}[0m: add b",
        "wip::error::forged: add c",
    ];
    for (i, subject) in attacks.iter().enumerate() {
        let f = format!("f{i}.txt");
        write(&r, &f, "x\n");
        sb.git(&r, &["add", &f]);
        let msg = good(subject, &[&f, "x##[warning]forged/::error::y.txt"]);
        sb.git(&r, &["commit", "-q", "--no-verify", "-m", &msg]);
    }
    let o = check_with(&sb, &r, &["--range", "base..HEAD"], "github", b"");
    assert_eq!(code(&o), 1, "{}{}", stdout(&o), stderr(&o));
    let (n, _) = github(&stdout(&o));
    assert!(n >= 6, "{}", stdout(&o));
    assert_eq!(forged(&stdout(&o)), Vec::<String>::new());
    assert_eq!(forged(&stderr(&o)), Vec::<String>::new());
    // The text is still there to read, made inert.
    assert!(stdout(&o).contains("wip# #[error]forged"), "{}", stdout(&o));

    // stdin: a subject that is a workflow command.
    let o = check_with(
        &sb,
        &r,
        &["--stdin", "--no-trace-paths"],
        "github",
        b"::error::forged\n\n##[error]forged\x1b[2J\n",
    );
    assert_eq!(code(&o), 1, "{}{}", stdout(&o), stderr(&o));
    assert_eq!(forged(&stdout(&o)), Vec::<String>::new());
    assert_eq!(forged(&stderr(&o)), Vec::<String>::new());

    // stderr: a convention whose keys are workflow commands, and an ESC sequence.
    write(
        &r,
        ".commit-convention.toml",
        "\"::error::forged\" = 1\n\"##[error]forged\\u001b[31m\" = 2\n",
    );
    let o = check_with(&sb, &r, &["--range", "base..HEAD"], "github", b"");
    assert_eq!(code(&o), 2, "{}{}", stdout(&o), stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("forged"), "the key is named: {err}");
    assert_eq!(forged(&err), Vec::<String>::new(), "{err}");
    // Without --format github the error is as it was.
    let o = check_with(&sb, &r, &["--range", "base..HEAD"], "human", b"");
    assert!(stderr(&o).contains("forged"), "{}", stderr(&o));
}

#[test]
fn a_dumped_convention_under_github_format_stays_data() {
    let sb = Sandbox::new();
    let r = client(&sb, "r");
    write(
        &r,
        ".commit-convention.toml",
        "scopes = [\"a##[error]x\"]\n",
    );
    let o = check_with(&sb, &r, &["--dump-config"], "github", b"");
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("a# #[error]x"), "{}", stdout(&o));
    assert_eq!(forged(&stdout(&o)), Vec::<String>::new());
    let o = check_with(&sb, &r, &["--dump-config"], "human", b"");
    assert!(stdout(&o).contains("a##[error]x"), "{}", stdout(&o));
}
