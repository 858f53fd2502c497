//! The one place the binary calls the library's message pipeline: decode, git's cleanup,
//! exemptions, the rules and path tracing. Modes hand it bytes and get printable items.

use std::borrow::Cow;

use jitcommit_core::config::Convention;
use jitcommit_core::gitenv::{self, CommentPrefix};
use jitcommit_core::repo::Change;
use jitcommit_core::rules::{self, ChangedPaths};

use crate::output::Item;

/// How the text is cleaned before it is checked.
#[derive(Debug, Clone)]
pub enum Cleanup {
    /// A message file before git cleans it: cut at the scissors, drop comment lines with
    /// this prefix, strip whitespace (git's default when an editor ran).
    Strip(CommentPrefix),
    /// Like git's `whitespace` mode: cut at the scissors, keep comment lines.
    Whitespace(CommentPrefix),
    /// A stored commit message: git already cleaned it.
    Stored,
}

/// The comment prefix git uses here, from `core.commentString` / `core.commentChar`
/// (`git -c` values included when the caller read them through the repository).
pub fn prefix(comment_string: Option<&str>, comment_char: Option<&str>) -> CommentPrefix {
    gitenv::comment_prefix(comment_string, comment_char)
}

fn clean(text: &str, cleanup: &Cleanup) -> String {
    match cleanup {
        Cleanup::Strip(p) => gitenv::cleanup(text, p),
        Cleanup::Whitespace(p) => match p.resolve(text) {
            Some(p) => gitenv::cleanup_whitespace(gitenv::cut_at_scissors(text, p)),
            None => gitenv::cleanup_whitespace(text),
        },
        Cleanup::Stored => gitenv::cleanup_whitespace(text),
    }
}

/// What checking one message found.
#[derive(Debug, Clone)]
pub struct Checked {
    /// The text as git stores it (what `findings` line numbers refer to).
    pub cleaned: String,
    /// The exemption that applied, if any (no rule findings then).
    pub exempt: Option<String>,
    /// Findings about the cleaned text; lines refer to `cleaned`.
    pub findings: Vec<Item>,
    /// Findings about the raw bytes (encoding); lines refer to the input as given.
    pub raw_findings: Vec<Item>,
}

/// Checks one message. `changes` is the changed-path set when tracing is on.
pub fn check(
    raw: &[u8],
    conv: &Convention,
    cleanup: &Cleanup,
    changes: Option<&[Change]>,
) -> Checked {
    let (text, raw_findings) = match rules::decode(raw) {
        Ok(text) => (Cow::Borrowed(text), Vec::new()),
        // Not UTF-8 or a NUL byte: one finding at the first bad byte, then the rest is
        // checked as lossy text so the user sees every other problem too.
        Err(f) => (
            Cow::Owned(String::from_utf8_lossy(raw).replace('\0', "\u{fffd}")),
            vec![item(f)],
        ),
    };
    let cleaned = clean(&text, cleanup);
    if let Some(e) = rules::exemption(&cleaned, conv) {
        let name = serde_json::to_value(e)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_else(|| format!("{e:?}").to_lowercase());
        return Checked {
            cleaned,
            exempt: Some(name),
            findings: Vec::new(),
            raw_findings,
        };
    }
    let changed = changes.map(ChangedPaths::new);
    let findings = rules::check(&cleaned, conv, changed.as_ref())
        .into_iter()
        .map(item)
        .collect();
    Checked {
        cleaned,
        exempt: None,
        findings,
        raw_findings,
    }
}

/// Whether a message may hold bullets that name paths, so its changed paths are worth
/// computing. Only the bullet-path rule reads them, and only for bullet-like lines, so
/// skipping the diff for a message without any gives the same findings; on a push of
/// imported history (subjects only, merges) it saves one tree diff per commit.
pub fn may_name_paths(raw: &[u8]) -> bool {
    raw.split(|b| *b == b'\n').skip(1).any(|l| {
        let t = l.trim_ascii_start();
        matches!(t.first(), Some(b'-' | b'*' | b'+'))
    })
}

/// Every rule id with its one-line summary.
pub fn rules_list() -> Vec<(&'static str, &'static str)> {
    rules::RULES.iter().map(|r| (r.id, r.summary)).collect()
}

/// The documentation of one rule: what it checks, why, and an example.
pub fn explain(id: &str) -> Option<String> {
    rules::explain(id).map(|r| format!("{}: {}\n\n{}", r.id, r.summary, r.doc.trim_end()))
}

fn item(f: rules::Finding) -> Item {
    Item {
        rule: f.rule.to_string(),
        line: f.line,
        column: f.column,
        message: f.message,
        hint: f.hint.unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bullet_like_lines_need_paths() {
        assert!(may_name_paths(b"feat: x\n\n- Add: a \xe2\x80\x94 b\n"));
        assert!(may_name_paths(b"feat: x\n\n  * Add: a\n"));
        assert!(!may_name_paths(b"- feat: the subject alone\n"));
        assert!(!may_name_paths(b"Merge branch 'x'\n"));
        assert!(!may_name_paths(b"fix: y\n\nprose only\n"));
    }

    #[test]
    fn skipping_paths_without_bullets_changes_nothing() {
        let conv = Convention::default();
        let msg = b"fix: y\n\nprose only, no bullets\n";
        let none = check(msg, &conv, &Cleanup::Stored, None);
        let empty = check(msg, &conv, &Cleanup::Stored, Some(&[]));
        assert_eq!(none.findings, empty.findings);
    }
}
