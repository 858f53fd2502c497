//! The one place the binary calls the library's message pipeline: decode, git's cleanup,
//! exemptions, the rules and path tracing. Modes hand it bytes and get printable items.

use jitcommit_core::config::{Convention, Exemption};
use jitcommit_core::gitenv::{self, CommentPrefix, MessageCleanup};
use jitcommit_core::repo::Change;
use jitcommit_core::rules::{self, ChangedPaths};

use crate::output::Item;

/// How the text is cleaned before it is checked.
#[derive(Debug, Clone)]
pub enum Cleanup {
    /// A message file before git cleans it, the way git will clean it.
    Hook(MessageCleanup),
    /// A stored commit message: git already cleaned it.
    Stored,
}

/// The comment prefix git uses here, from `core.commentString` / `core.commentChar`
/// (`git -c` values included when the caller read them through the repository).
pub fn prefix(comment_string: Option<&str>, comment_char: Option<&str>) -> CommentPrefix {
    gitenv::comment_prefix(comment_string, comment_char)
}

/// The text git stores for `raw`: bytes, because whether that text is UTF-8 is decided
/// on what git keeps (a Latin-1 line below the scissors or in a comment is cut off).
fn clean(raw: &[u8], cleanup: &Cleanup) -> Vec<u8> {
    match cleanup {
        Cleanup::Hook(how) => how.apply(raw),
        Cleanup::Stored => gitenv::stripspace_bytes(raw, None),
    }
}

/// What checking one message found.
#[derive(Debug, Clone)]
pub struct Checked {
    /// The text as git stores it (what `findings` line numbers refer to); not UTF-8
    /// parts are shown as U+FFFD.
    pub cleaned: String,
    /// The exemption that applied, if any (no rule findings then).
    pub exempt: Option<String>,
    /// Findings about the cleaned text; lines refer to `cleaned`.
    pub findings: Vec<Item>,
}

/// Checks one message. `trace` is asked for the changed-path set when the message has
/// bullet paths to trace; it gets those paths (see [`rules::traced_paths`]) and returns
/// `None` when tracing is off, or a set for which `bullet-path` finds what it would find
/// against the full one (see [`traced_set`]).
pub fn check<E>(
    raw: &[u8],
    conv: &Convention,
    cleanup: &Cleanup,
    trace: impl FnOnce(&[String]) -> Result<Option<ChangedPaths>, E>,
) -> Result<Checked, E> {
    check_with(raw, conv, cleanup, rules::exemption, trace)
}

/// [`check`] with the exemption decided by `exempt` (a stored commit's is backed by its
/// parents and body, see [`rules::stored_exemption`]).
pub fn check_with<E>(
    raw: &[u8],
    conv: &Convention,
    cleanup: &Cleanup,
    exempt: impl FnOnce(&str, &Convention) -> Option<Exemption>,
    trace: impl FnOnce(&[String]) -> Result<Option<ChangedPaths>, E>,
) -> Result<Checked, E> {
    let stored = clean(raw, cleanup);
    let (cleaned, encoding) = match rules::decode(&stored) {
        Ok(text) => (text.to_owned(), Vec::new()),
        // Not UTF-8 or a NUL byte: one finding at the first bad byte, then the rest is
        // checked as lossy text so the user sees every other problem too.
        Err(f) => (
            String::from_utf8_lossy(&stored).replace('\0', "\u{fffd}"),
            vec![item(f)],
        ),
    };
    if let Some(e) = exempt(&cleaned, conv) {
        let name = serde_json::to_value(e)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_else(|| format!("{e:?}").to_lowercase());
        return Ok(Checked {
            cleaned,
            exempt: Some(name),
            findings: encoding,
        });
    }
    let parsed = jitcommit_core::message::parse(&cleaned);
    let paths = rules::traced_paths(&parsed);
    // No bullet path to trace: the rule would not look at the set, so none is computed
    // (unless `coverage` asks whether every changed path is named).
    let changed = if paths.is_empty() && !conv.coverage {
        None
    } else {
        trace(&paths)?
    };
    let mut findings = encoding;
    findings.extend(
        rules::check_parsed(&cleaned, parsed, conv, changed.as_ref())
            .into_iter()
            .map(item),
    );
    Ok(Checked {
        cleaned,
        exempt: None,
        findings,
    })
}

/// The set to trace `paths` against: the paths themselves when a probe `proved` each one
/// changed (every bullet then passes, as it would against the full set), else the full
/// set from `changes` (which also feeds the "nearest changed paths" hints, and which
/// `coverage` needs: callers do not probe then).
pub fn traced_set<E>(
    paths: &[String],
    proved: bool,
    changes: impl FnOnce() -> Result<Vec<Change>, E>,
) -> Result<ChangedPaths, E> {
    Ok(if proved {
        ChangedPaths::from_paths(paths.iter().cloned())
    } else {
        ChangedPaths::new(&changes()?)
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
    fn the_set_is_asked_for_only_when_a_bullet_names_a_path() {
        let conv = Convention::default();
        let mut asked = Vec::new();
        for msg in [
            &b"fix: y\n\nprose only, no bullets\n"[..],
            b"Merge branch 'x'\n",
            b"fix: y\n\n- Fix: /abs/path \xe2\x80\x94 not traced\n",
            b"fix: y\n\n- Fix: ./src/a.rs/ \xe2\x80\x94 why\n- Move: b \xe2\x86\x92 c/d \xe2\x80\x94 why\n",
        ] {
            check(msg, &conv, &Cleanup::Stored, |paths| {
                asked.push(paths.to_vec());
                Ok::<_, ()>(None)
            })
            .unwrap();
        }
        assert_eq!(asked, vec![vec!["b", "c/d", "src/a.rs"]]);
    }

    #[test]
    fn proved_paths_pass_and_unproved_ones_get_the_full_set() {
        let conv = Convention::default();
        let msg = b"fix: y\n\n- Fix: src/a.rs \xe2\x80\x94 why\n";
        let proved = check(msg, &conv, &Cleanup::Stored, |paths| {
            traced_set(paths, true, || -> Result<Vec<Change>, ()> {
                panic!("a proved set needs no diff")
            })
            .map(Some)
        })
        .unwrap();
        assert!(proved.findings.is_empty());
        let full = check(msg, &conv, &Cleanup::Stored, |paths| {
            traced_set(paths, false, || Ok::<_, ()>(Vec::new())).map(Some)
        })
        .unwrap();
        assert_eq!(full.findings.len(), 1);
        assert_eq!(full.findings[0].rule, "bullet-path");
    }
}
