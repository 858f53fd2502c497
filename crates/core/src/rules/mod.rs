//! The rules: every check the validator runs, each with a stable kebab-case id, a
//! one-line summary and a long explanation (what, why, an example) kept in one
//! `docs/<id>.md` file that both rustdoc and `jitcommit-check --explain` show.
//!
//! Findings are data ([`Finding`]), never errors. [`check`] runs every family on a
//! cleaned message; [`check_bytes`] and [`decode`] handle raw bytes that may not be
//! UTF-8; [`exemption`] recognises the messages git writes itself (merges, reverts,
//! `fixup!` …) that the convention leaves alone.
//!
//! Families, one module each: [`subject`], [`body`], [`bullet`], [`paths`],
//! [`coverage`], [`trailer`], [`placeholder`], [`encoding`]; and [`quality`], the
//! draft-quality gate for model drafts ([`DRAFT_RULES`]).

pub mod body;
pub mod bullet;
pub mod coverage;
pub mod encoding;
mod exempt;
pub mod paths;
pub mod placeholder;
pub mod quality;
pub mod subject;
pub mod trailer;

pub use encoding::decode;
pub use exempt::{CommitFacts, exemption, exemption_kind, stored_exemption};
pub use paths::{ChangedPaths, Side, traced_paths};
pub use placeholder::WHY_PLACEHOLDER;

use crate::config::Convention;
use crate::message::{Parsed, Pos, parse, split_lines};

/// One rule's identity and documentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct RuleInfo {
    /// The stable kebab-case id printed with each finding.
    pub id: &'static str,
    /// One line saying what the rule checks.
    pub summary: &'static str,
    /// What it checks, why, and an example (Markdown), as `--explain` prints it.
    pub doc: &'static str,
}

/// Every rule, in the order the families run. Ids never change once released.
pub static RULES: &[RuleInfo] = &[
    subject::SUBJECT_EMPTY,
    subject::SUBJECT_FORMAT,
    subject::SUBJECT_TYPE,
    subject::SUBJECT_SCOPE,
    subject::SUBJECT_LENGTH,
    subject::SUBJECT_PERIOD,
    body::BODY_BLANK_LINE,
    body::BODY_MISSING,
    bullet::BULLET_FORMAT,
    bullet::BULLET_VERB,
    bullet::BULLET_SEPARATOR,
    paths::BULLET_PATH,
    coverage::BULLET_COVERAGE,
    coverage::BULLET_STATUS,
    trailer::TRAILER_FORMAT,
    trailer::BREAKING_CHANGE,
    placeholder::PLACEHOLDER,
    encoding::MESSAGE_ENCODING,
];

/// The rules applied to model drafts only, before the hook accepts one
/// ([`quality::check_draft`]); [`check`] does not run them.
pub static DRAFT_RULES: &[RuleInfo] = &[quality::DRAFT_QUALITY];

/// The rule with this id, for `--explain`.
pub fn explain(id: &str) -> Option<&'static RuleInfo> {
    RULES.iter().chain(DRAFT_RULES).find(|r| r.id == id)
}

/// One problem in a message: which rule, where (1-based line, column in chars),
/// what is wrong, and how to fix it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Finding {
    /// The rule id, e.g. `bullet-verb`.
    pub rule: &'static str,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in chars.
    pub column: usize,
    /// What is wrong.
    pub message: String,
    /// How to fix it, when there is something concrete to say.
    pub hint: Option<String>,
}

impl Finding {
    pub(crate) fn new(
        rule: &RuleInfo,
        pos: Pos,
        message: impl Into<String>,
        hint: Option<String>,
    ) -> Self {
        Finding {
            rule: rule.id,
            line: pos.line,
            column: pos.column,
            message: message.into(),
            hint,
        }
    }
}

/// What every family sees.
pub(crate) struct Ctx<'a> {
    pub(crate) lines: Vec<&'a str>,
    pub(crate) parsed: Parsed,
    pub(crate) conv: &'a Convention,
    pub(crate) changed: Option<&'a ChangedPaths>,
    /// `bullet-coverage` and `bullet-status` run (the convention's `coverage`, or a draft).
    pub(crate) coverage: bool,
}

/// Checks a cleaned message (git's cleanup already applied, see `gitenv`) against
/// the convention. `changed` is the commit's changed paths for `bullet-path`
/// tracing (`None`: not traced). Exempt messages give no findings. The findings come
/// sorted by line, then column. Never panics.
pub fn check(text: &str, conv: &Convention, changed: Option<&ChangedPaths>) -> Vec<Finding> {
    if exemption(text, conv).is_some() {
        return Vec::new();
    }
    check_parsed(text, parse(text), conv, changed)
}

/// Every rule on `text` already parsed as `parsed`, with no exemption: the caller has
/// decided that none applies ([`exemption`], or [`stored_exemption`] for a stored
/// commit), and parses once when it first asks [`traced_paths`].
pub fn check_parsed(
    text: &str,
    parsed: Parsed,
    conv: &Convention,
    changed: Option<&ChangedPaths>,
) -> Vec<Finding> {
    check_all(text, parsed, conv, changed, conv.coverage)
}

/// Every rule on a drafted message, with `bullet-coverage` and `bullet-status` on
/// whatever the convention says: a draft names every staged path in `changed` (built
/// from the staged changes, so it knows their statuses) and gives each the verb its
/// status allows. Exempt messages give no findings, as in [`check`].
pub fn check_draft(text: &str, conv: &Convention, changed: &ChangedPaths) -> Vec<Finding> {
    if exemption(text, conv).is_some() {
        return Vec::new();
    }
    check_all(text, parse(text), conv, Some(changed), true)
}

fn check_all(
    text: &str,
    parsed: Parsed,
    conv: &Convention,
    changed: Option<&ChangedPaths>,
    coverage: bool,
) -> Vec<Finding> {
    let mut out = Vec::new();
    encoding::check_nul(text, &mut out);
    let lines = split_lines(text);
    if lines.first().is_none_or(|l| l.trim().is_empty()) {
        out.push(Finding::new(
            &subject::SUBJECT_EMPTY,
            Pos::new(1, 1),
            "the message has no subject line",
            Some(subject_example(conv)),
        ));
        return sorted(out);
    }
    let ctx = Ctx {
        parsed,
        lines,
        conv,
        changed,
        coverage,
    };
    subject::check(&ctx, &mut out);
    body::check(&ctx, &mut out);
    bullet::check(&ctx, &mut out);
    paths::check(&ctx, &mut out);
    coverage::check(&ctx, &mut out);
    trailer::check(&ctx, &mut out);
    placeholder::check(&ctx, &mut out);
    sorted(out)
}

/// Like [`check`], for raw bytes: invalid UTF-8 gives a `message-encoding` finding
/// at the first bad byte, and the rest is checked as lossily decoded text.
pub fn check_bytes(raw: &[u8], conv: &Convention, changed: Option<&ChangedPaths>) -> Vec<Finding> {
    match std::str::from_utf8(raw) {
        Ok(text) => check(text, conv, changed),
        Err(_) => {
            let mut out: Vec<Finding> = decode(raw).err().into_iter().collect();
            let lossy = String::from_utf8_lossy(raw);
            out.extend(
                check(&lossy, conv, changed)
                    .into_iter()
                    .filter(|f| f.rule != encoding::MESSAGE_ENCODING.id),
            );
            sorted(out)
        }
    }
}

fn sorted(mut out: Vec<Finding>) -> Vec<Finding> {
    out.sort_by(|a, b| (a.line, a.column, a.rule).cmp(&(b.line, b.column, b.rule)));
    out
}

/// `write the subject as "type(scope): summary", e.g. "fix(parser): …"`.
pub(crate) fn subject_example(conv: &Convention) -> String {
    let kind = conv.types.first().map_or("fix", String::as_str);
    format!("write the subject as \"type(scope): summary\", e.g. \"{kind}: handle empty input\"")
}

/// `a, b, c` for a message, cut after `max` items with `…`.
pub(crate) fn list(items: &[String], max: usize) -> String {
    let mut s = items
        .iter()
        .take(max)
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(", ");
    if items.len() > max {
        s.push_str(", …");
    }
    s
}

/// Levenshtein distance in chars, giving up (returning `usize::MAX`) on long input
/// so a 10 MB line cannot make a hint quadratic.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len() > 256 || b.len() > 256 {
        return usize::MAX;
    }
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The allowed word closest to `word`: same letters in another case, a past
/// tense or third person of it (`Fixed`, `Adds`), or within a small edit distance.
pub(crate) fn nearest<'a>(word: &str, allowed: &'a [String]) -> Option<&'a str> {
    let lower = word.to_lowercase();
    if let Some(a) = allowed.iter().find(|a| a.to_lowercase() == lower) {
        return Some(a);
    }
    for suffix in ["ed", "d", "es", "s", "ing"] {
        if let Some(stem) = lower.strip_suffix(suffix)
            && let Some(a) = allowed.iter().find(|a| a.to_lowercase() == stem)
        {
            return Some(a);
        }
    }
    if let Some(a) = allowed.iter().find(|a| {
        let a = a.to_lowercase();
        a.chars().count() >= 3 && (lower.starts_with(&a) || a.starts_with(&lower))
    }) {
        return Some(a);
    }
    allowed
        .iter()
        .map(|a| (edit_distance(&lower, &a.to_lowercase()), a))
        .filter(|(d, a)| *d <= 2.min(a.chars().count() / 2))
        .min_by_key(|(d, _)| *d)
        .map(|(_, a)| a.as_str())
}
