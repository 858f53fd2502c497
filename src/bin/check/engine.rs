//! The one place the binary calls the library's message pipeline: decode, git's cleanup,
//! exemptions, the rules and path tracing. Modes hand it bytes and get printable items.

use jitcommit_core::config::Convention;
use jitcommit_core::gitenv::{self, CommentPrefix};
use jitcommit_core::repo::Change;

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
    /// The text as git stores it (what line numbers refer to).
    pub cleaned: String,
    /// The exemption that applied, if any (no findings then).
    pub exempt: Option<String>,
    /// The findings; lines refer to `cleaned`.
    pub findings: Vec<Item>,
}

/// Checks one message. `changes` is the changed-path set when tracing is on.
pub fn check(
    raw: &[u8],
    conv: &Convention,
    cleanup: &Cleanup,
    changes: Option<&[Change]>,
) -> Checked {
    let (text, mut findings) = decode(raw);
    let cleaned = clean(&text, cleanup);
    if let Some(e) = exemption(&cleaned, conv) {
        return Checked {
            cleaned,
            exempt: Some(e.into()),
            findings,
        };
    }
    findings.extend(rules(&cleaned, conv, changes));
    Checked {
        cleaned,
        exempt: None,
        findings,
    }
}

/// Every rule id with its one-line summary.
pub fn rules_list() -> Vec<(String, String)> {
    RULES
        .iter()
        .map(|(id, s)| (id.to_string(), s.to_string()))
        .collect()
}

/// The documentation of one rule.
pub fn explain(id: &str) -> Option<String> {
    RULES
        .iter()
        .find(|(r, _)| *r == id)
        .map(|(r, s)| format!("{r}: {s}\n"))
}

// ---- provisional pipeline, replaced by jitcommit_core::{gitenv, rules} when they land ----

const RULES: &[(&str, &str)] = &[
    ("message-encoding", "the message is UTF-8 without NUL bytes"),
    ("subject-format", "the subject is `type(scope)!: summary`"),
    ("subject-type", "the type is one of the convention's types"),
    ("body-missing", "a body of bullets is required"),
    ("body-path-untraced", "each bullet path is a changed path"),
];

fn decode(raw: &[u8]) -> (String, Vec<Item>) {
    let mut f = Vec::new();
    if let Some(at) = raw.iter().position(|b| *b == 0) {
        f.push(item(
            "message-encoding",
            1,
            at + 1,
            "the message contains a NUL byte",
            "remove it",
        ));
    }
    let text = match std::str::from_utf8(raw) {
        Ok(t) => t.to_string(),
        Err(e) => {
            f.push(item(
                "message-encoding",
                1,
                e.valid_up_to() + 1,
                "the message is not valid UTF-8",
                "save it as UTF-8",
            ));
            String::from_utf8_lossy(raw).into_owned()
        }
    };
    (text.replace('\0', ""), f)
}

fn exemption(text: &str, conv: &Convention) -> Option<&'static str> {
    use jitcommit_core::config::Exemption as E;
    let first = text.lines().next().unwrap_or("");
    let on = |e: E| conv.exempt.contains(&e);
    if !on(E::Merge) && first.starts_with("Merge ") {
        None
    } else if !on(E::Revert) && first.starts_with("Revert \"") {
        None
    } else if first.starts_with("Merge ") {
        Some("merge")
    } else if first.starts_with("Revert \"") {
        Some("revert")
    } else if first.starts_with("fixup! ") {
        Some("fixup")
    } else if first.starts_with("squash! ") {
        Some("squash")
    } else if first.starts_with("amend! ") {
        Some("amend")
    } else {
        None
    }
}

fn rules(text: &str, conv: &Convention, changes: Option<&[Change]>) -> Vec<Item> {
    let mut f = Vec::new();
    let subject = text.lines().next().unwrap_or("");
    let head = subject.split_once(": ").map(|(h, _)| h);
    match head {
        None => f.push(item(
            "subject-format",
            1,
            1,
            "the subject is not `type(scope): summary`",
            "e.g. feat(core): add x",
        )),
        Some(h) => {
            let ty = h.split(['(', '!']).next().unwrap_or("");
            if !conv.types.iter().any(|t| t == ty) {
                f.push(item(
                    "subject-type",
                    1,
                    1,
                    &format!("{ty:?} is not an allowed type"),
                    &format!("use one of: {}", conv.types.join(", ")),
                ));
            }
        }
    }
    let bullets: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .skip(1)
        .filter(|(_, l)| l.starts_with("- "))
        .collect();
    if bullets.is_empty() && conv.body == jitcommit_core::config::BodyPolicy::Required {
        f.push(item(
            "body-missing",
            1,
            1,
            "the message has no body",
            "add `- Verb: path — what and why` bullets",
        ));
    }
    if let Some(changes) = changes {
        for (n, b) in bullets {
            let path = b.split_once(": ").map(|(_, r)| r).unwrap_or("");
            let path = path
                .split(" — ")
                .next()
                .unwrap_or("")
                .split(" -- ")
                .next()
                .unwrap_or("");
            let ok = changes.iter().any(|c| {
                let p = String::from_utf8_lossy(&c.path);
                p == path || p.starts_with(&format!("{}/", path.trim_end_matches('/')))
            });
            if !ok {
                f.push(item(
                    "body-path-untraced",
                    n + 1,
                    1,
                    &format!("{path:?} is not among the changed paths"),
                    "name a staged path",
                ));
            }
        }
    }
    f
}

fn item(rule: &str, line: usize, column: usize, message: &str, hint: &str) -> Item {
    Item {
        rule: rule.into(),
        line,
        column,
        message: message.into(),
        hint: hint.into(),
    }
}
