//! No control character of the repository reaches a terminal: subjects, scopes, types
//! and file names holding ESC and CSI sequences, OSC 52 (writes the clipboard), OSC 8
//! (a link), OSC 0 (the window title), BEL, C1 controls (U+0080–U+009F, which some
//! terminals read as ESC sequences) and bidi overrides are shown escaped by every human
//! output: `--range`, `--commit`, a message file, the pre-receive hook's `remote:` lines,
//! `jitcommit init` and `--print-context` (docs/trust.md, "Escapes never reach the
//! terminal").
#![allow(clippy::unwrap_used)]

use crate::{check_support, draft_support, jitcommit_support};

use std::process::Output;

use check_support::{Server, good};
use jitcommit_testkit::{Sandbox, write};

/// The attacks, each a piece of text a subject, scope or file name can hold.
const PAYLOADS: &[&str] = &[
    "\u{1b}]52;c;aGVsbG8=\u{7}",
    "\u{1b}]8;;https://example.invalid/\u{1b}\\link\u{1b}]8;;\u{1b}\\",
    "\u{1b}]0;owned\u{7}",
    "\u{1b}[2J\u{1b}[31m",
    "\u{7}",
    "\u{9b}31m\u{9d}0;t\u{9c}",
    "\u{202e}gpj.exe",
    "\u{2066}x\u{2069}",
];

/// Subjects that carry each payload in the type, the scope and the summary.
fn subjects() -> Vec<String> {
    let mut v = Vec::new();
    for p in PAYLOADS {
        v.push(format!("fe{p}at: add the thing"));
        v.push(format!("feat({p}): add the thing"));
        v.push(format!("feat: add {p} the thing"));
        v.push(format!("{p}wip"));
    }
    v
}

/// Panics when `bytes` holds a control character (other than newline and tab) or a
/// bidi control: what a terminal would obey.
fn assert_inert(what: &str, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    for (i, c) in text.char_indices() {
        let bad = (c.is_control() && c != '\n' && c != '\t')
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
        assert!(
            !bad,
            "{what}: a raw {c:?} reaches the terminal at byte {i}:\n{}",
            text.escape_debug()
        );
    }
}

fn assert_output_inert(what: &str, o: &Output) {
    assert_inert(&format!("{what} (stdout)"), &o.stdout);
    assert_inert(&format!("{what} (stderr)"), &o.stderr);
}

/// A repository whose commits after the first carry every subject of [`subjects`].
fn hostile_history(sb: &Sandbox) -> (std::path::PathBuf, String) {
    let r = sb.init("r");
    write(&r, "a.txt", "a\n");
    sb.git(&r, &["add", "."]);
    sb.git(
        &r,
        &["commit", "-q", "-m", &good("chore: start", &["a.txt"])],
    );
    let base = sb.git(&r, &["rev-parse", "HEAD"]).trim().to_owned();
    for (i, s) in subjects().iter().enumerate() {
        let f = format!("f{i}.txt");
        write(&r, &f, "x\n");
        sb.git(&r, &["add", &f]);
        sb.git(&r, &["commit", "-q", "--no-verify", "-m", &good(s, &[&f])]);
    }
    (r, base)
}

#[test]
fn range_and_commit_show_escapes_not_raw_controls() {
    let sb = Sandbox::new();
    let (r, base) = hostile_history(&sb);
    let range = format!("{base}..HEAD");
    let o = check_support::run({
        let mut c = check_support::check(&sb, &r);
        c.args(["--range", &range, "--color", "never"]);
        c
    });
    assert_eq!(check_support::code(&o), 1, "{}", check_support::stderr(&o));
    assert!(
        check_support::stdout(&o).contains("\\u{1b}]52;c;aGVsbG8="),
        "{}",
        check_support::stdout(&o)
    );
    assert_output_inert("--range", &o);
    let n = subjects().len();
    for k in 0..n {
        let rev = format!("HEAD~{k}");
        let o = check_support::run({
            let mut c = check_support::check(&sb, &r);
            c.args(["--commit", &rev, "--color", "always"]);
            c
        });
        // Colour is the tool's own: strip its SGR codes, then nothing else may remain.
        let shown = String::from_utf8_lossy(&o.stdout)
            .replace("\u{1b}[0m", "")
            .replace("\u{1b}[1m", "")
            .replace("\u{1b}[1;31m", "")
            .replace("\u{1b}[1;33m", "")
            .replace("\u{1b}[36m", "");
        assert_inert(&format!("--commit {rev}"), shown.as_bytes());
        assert_inert(&format!("--commit {rev} (stderr)"), &o.stderr);
    }
}

#[test]
fn a_message_file_and_the_commit_msg_hook_show_escapes() {
    let sb = Sandbox::new();
    let r = check_support::client(&sb, "c");
    for (i, s) in subjects().iter().enumerate() {
        let file = sb.path().join(format!("msg{i}"));
        std::fs::write(&file, format!("{s}\n\n- Update: a.txt — x\n")).unwrap();
        let o = check_support::run({
            let mut c = check_support::check(&sb, &r);
            c.arg(&file);
            c
        });
        assert_output_inert(&format!("file check of {s:?}"), &o);
        let o = check_support::try_commit_file(&sb, &r, "a.txt", s);
        assert_output_inert(&format!("commit-msg hook on {s:?}"), &o);
    }
}

#[test]
fn pre_receive_remote_lines_show_escapes() {
    let s = Server::with("", "pre-receive", "--pre-receive");
    // What the hook itself writes, before git relays it as `remote:` lines.
    let hook = s.bare.join("hooks/pre-receive");
    let out = s.bare.join("hook.out");
    std::fs::write(
        &hook,
        format!(
            "#!/bin/sh\n'{}' --pre-receive \"$@\" > '{}' 2>&1\nrc=$?\ncat '{}'\nexit $rc\n",
            check_support::bin().display(),
            out.display(),
            out.display()
        ),
    )
    .unwrap();
    check_support::make_executable(&hook);
    for (i, subj) in subjects().iter().enumerate() {
        let f = format!("f{i}.txt");
        s.commit(&f, "x\n", &good(subj, &[&f]));
    }
    let o = s.push(&["main"]);
    assert!(!o.status.success(), "the push went through");
    let written = std::fs::read(&out).unwrap();
    assert!(
        String::from_utf8_lossy(&written).contains("\\u{1b}]0;owned\\u{7}"),
        "{}",
        String::from_utf8_lossy(&written)
    );
    assert_inert("pre-receive", &written);
    assert_output_inert("git push", &o);
}

#[test]
fn init_shows_history_scopes_and_types_escaped() {
    let sb = Sandbox::new();
    let r = jitcommit_support::Repo::new(&sb, "r");
    for (i, s) in subjects().iter().enumerate() {
        r.commit(&format!("f{i}.txt"), "x\n", s);
    }
    let o = r.jc(&["init"]);
    assert_eq!(
        jitcommit_support::code(&o),
        0,
        "{}",
        jitcommit_support::stderr(&o)
    );
    assert!(
        jitcommit_support::stderr(&o).contains("\\u{1b}"),
        "{}",
        jitcommit_support::stderr(&o)
    );
    assert_output_inert("init", &o);
    let o = r.jc(&["doctor"]);
    assert_output_inert("doctor", &o);
}

#[test]
fn print_context_shows_file_names_escaped() {
    let r = draft_support::Repo::new();
    for (i, p) in PAYLOADS.iter().enumerate() {
        write(&r.dir, &format!("n{i}{p}.txt"), "x\n");
    }
    r.git(&["add", "."]);
    let out = r
        .draft_cmd()
        .arg("--print-context")
        .env(
            "JITCOMMIT_URL",
            jitcommit_testkit::model_server::refused_url(),
        )
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_output_inert("--print-context", &out);
}
