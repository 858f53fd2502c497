//! The rules: every check the validator runs, each with a stable kebab-case id, a
//! one-line summary and a long explanation (what, why, an example) kept in one
//! `docs/<id>.md` file that both rustdoc and `jitcommit-check --explain` show.
//!
//! Findings are data ([`Finding`]), never errors: where, and what as a [`Problem`], one
//! variant per rule with that rule's own fields, whose `Display` and `hint` are the
//! finding's words (each family words its own). [`check_message`] is the one way from
//! a message's bytes to its findings, used by the commit-msg hook, `--range` and the
//! server hooks: git's cleanup ([`Cleanup`]), [`decode`], the exemption ([`exemption`]
//! for a message not yet committed, [`stored_exemption`] for a stored one), path
//! tracing ([`traced_paths`], [`traced_set`]), then every family. [`check`] is the same
//! for a text that is already what git stores (a rendered draft).
//!
//! Families, one module each: [`subject`], [`body`], [`bullet`], [`paths`],
//! [`coverage`], [`trailer`], [`placeholder`], [`encoding`]; and the draft-quality
//! gate's rule and findings for model drafts ([`draft_quality`], [`DRAFT_RULES`]; the
//! gate is the draft crate's).

pub mod body;
pub mod bullet;
pub mod coverage;
pub mod draft_quality;
pub mod encoding;
mod exempt;
pub mod paths;
pub mod placeholder;
pub mod subject;
pub mod trailer;
mod verdict;

pub use draft_quality::DRAFT_QUALITY;
pub use encoding::decode;
pub use exempt::{CommitFacts, exemption, exemption_kind, stored_exemption};
pub use paths::{ChangedPaths, Side, traced_paths};
pub use placeholder::WHY_PLACEHOLDER;
pub use verdict::{Policy, spec_message};

use std::borrow::{Borrow, Cow};

use crate::config::{Convention, Exemption};
use crate::gitenv::{self, MessageCleanup};
use crate::message::{Message, Parsed, Pos, parse, split_lines};
use crate::repo::Change;

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
    subject::SUBJECT_SUMMARY,
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

/// The rules applied to model drafts only, before the hook accepts one;
/// [`check_message`] does not run them.
pub static DRAFT_RULES: &[RuleInfo] = &[DRAFT_QUALITY];

/// The rule with this id, for `--explain`.
pub fn explain(id: &str) -> Option<&'static RuleInfo> {
    RULES.iter().chain(DRAFT_RULES).find(|r| r.id == id)
}

/// Declares [`Problem`]: one variant per rule, holding that rule's own finding type,
/// and the rule each variant belongs to, so a finding's rule id cannot disagree with
/// what it says.
macro_rules! problems {
    ($($(#[$doc:meta])* $variant:ident($ty:ty) => $rule:expr,)*) => {
        /// What is wrong, as data: one variant per rule ([`RULES`] and [`DRAFT_RULES`]),
        /// each with its fields. Its `Display` is the finding's message, [`Problem::hint`]
        /// its hint: every finding is worded here, once.
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub enum Problem {
            $($(#[$doc])* $variant($ty),)*
        }

        impl Problem {
            /// The rule this problem breaks.
            pub fn rule(&self) -> &'static RuleInfo {
                match self {
                    $(Problem::$variant(_) => &$rule,)*
                }
            }

            /// How to fix it, when there is something concrete to say.
            pub fn hint(&self) -> Option<String> {
                match self {
                    $(Problem::$variant(p) => p.hint(),)*
                }
            }
        }

        impl std::fmt::Display for Problem {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                match self {
                    $(Problem::$variant(p) => p.fmt(f),)*
                }
            }
        }

        $(impl From<$ty> for Problem {
            fn from(p: $ty) -> Self {
                Problem::$variant(p)
            }
        })*

        /// The rule of each [`Problem`] variant, in declaration order.
        pub static PROBLEM_RULES: &[&RuleInfo] = &[$(&$rule,)*];
    };
}

problems! {
    /// `subject-empty`.
    SubjectEmpty(subject::SubjectEmpty) => subject::SUBJECT_EMPTY,
    /// `subject-format`.
    SubjectFormat(subject::SubjectFormat) => subject::SUBJECT_FORMAT,
    /// `subject-type`.
    SubjectType(subject::SubjectType) => subject::SUBJECT_TYPE,
    /// `subject-scope`.
    SubjectScope(subject::SubjectScope) => subject::SUBJECT_SCOPE,
    /// `subject-length`.
    SubjectLength(subject::SubjectLength) => subject::SUBJECT_LENGTH,
    /// `subject-period`.
    SubjectPeriod(subject::SubjectPeriod) => subject::SUBJECT_PERIOD,
    /// `subject-summary`.
    SubjectSummary(subject::SubjectSummary) => subject::SUBJECT_SUMMARY,
    /// `body-blank-line`.
    BodyBlankLine(body::BodyBlankLine) => body::BODY_BLANK_LINE,
    /// `body-missing`.
    BodyMissing(body::BodyMissing) => body::BODY_MISSING,
    /// `bullet-format`.
    BulletFormat(bullet::BulletFormat) => bullet::BULLET_FORMAT,
    /// `bullet-verb`.
    BulletVerb(bullet::BulletVerb) => bullet::BULLET_VERB,
    /// `bullet-separator`.
    BulletSeparator(bullet::BulletSeparator) => bullet::BULLET_SEPARATOR,
    /// `bullet-path`.
    BulletPath(paths::BulletPath) => paths::BULLET_PATH,
    /// `bullet-coverage`.
    BulletCoverage(coverage::BulletCoverage) => coverage::BULLET_COVERAGE,
    /// `bullet-status`.
    BulletStatus(coverage::BulletStatus) => coverage::BULLET_STATUS,
    /// `trailer-format`.
    TrailerFormat(trailer::TrailerFormat) => trailer::TRAILER_FORMAT,
    /// `breaking-change`.
    BreakingChange(trailer::BreakingChange) => trailer::BREAKING_CHANGE,
    /// `placeholder`.
    Placeholder(placeholder::Placeholder) => placeholder::PLACEHOLDER,
    /// `message-encoding`.
    MessageEncoding(encoding::MessageEncoding) => encoding::MESSAGE_ENCODING,
    /// `draft-quality`.
    DraftQuality(draft_quality::DraftQuality) => draft_quality::DRAFT_QUALITY,
}

/// One problem in a message: where (1-based line, column in chars) and what
/// ([`Problem`]), which gives the rule, the message and the hint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in chars.
    pub column: usize,
    /// What is wrong.
    pub problem: Problem,
}

impl Finding {
    /// A finding of `problem` at `pos` (the draft crate's quality gate makes its own).
    pub fn new(pos: Pos, problem: impl Into<Problem>) -> Self {
        Finding {
            line: pos.line,
            column: pos.column,
            problem: problem.into(),
        }
    }

    /// The rule id, e.g. `bullet-verb`.
    pub fn rule(&self) -> &'static str {
        self.problem.rule().id
    }

    /// What is wrong.
    pub fn message(&self) -> String {
        self.problem.to_string()
    }

    /// How to fix it, when there is something concrete to say.
    pub fn hint(&self) -> Option<String> {
        self.problem.hint()
    }
}

/// A finding as JSON: `rule`, `line`, `column`, `message`, and `hint` when there is
/// one (docs/check.md, "Output").
impl serde::Serialize for Finding {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let hint = self.hint();
        let mut out = s.serialize_struct("Finding", if hint.is_some() { 5 } else { 4 })?;
        out.serialize_field("rule", self.rule())?;
        out.serialize_field("line", &self.line)?;
        out.serialize_field("column", &self.column)?;
        out.serialize_field("message", &self.message())?;
        match &hint {
            Some(h) => out.serialize_field("hint", h)?,
            None => out.skip_field("hint")?,
        }
        out.end()
    }
}

/// What every family sees.
pub(crate) struct Ctx<'a> {
    pub(crate) lines: Vec<&'a str>,
    pub(crate) parsed: Parsed,
    pub(crate) conv: &'a Convention,
    pub(crate) changed: Option<&'a ChangedPaths>,
}

/// How a message's bytes are cleaned before they are checked.
#[derive(Debug, Clone)]
pub enum Cleanup {
    /// A message file before git cleans it (commit-msg, `--stdin`), cleaned the way git
    /// will clean it.
    Hook(MessageCleanup),
    /// A stored commit message: git cleaned it when it was written; whitespace is
    /// stripped again for commits written without git's cleanup.
    Stored,
    /// Checked as it is: the text is already what git stores (a rendered draft).
    Verbatim,
}

impl Cleanup {
    /// The text git stores for `raw`: bytes, because whether that text is UTF-8 is
    /// decided on what git keeps (a Latin-1 line below the scissors or in a comment is
    /// cut off).
    pub fn apply<'a>(&self, raw: &'a [u8]) -> Cow<'a, [u8]> {
        match self {
            Cleanup::Hook(how) => Cow::Owned(how.apply(raw)),
            Cleanup::Stored => Cow::Owned(gitenv::stripspace_bytes(raw, None)),
            Cleanup::Verbatim => Cow::Borrowed(raw),
        }
    }
}

/// What checking one message found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    /// The text as git stores it (what the findings' lines refer to); bytes that are not
    /// UTF-8, and NUL bytes, are shown as U+FFFD.
    pub cleaned: String,
    /// The exemption that applied, if any (no rule findings then).
    pub exempt: Option<Exemption>,
    /// The findings, sorted by line, then column; lines refer to `cleaned`.
    pub findings: Vec<Finding>,
    /// The message as a reader sees it ([`spec_message`]), when it is accepted and not
    /// exempt.
    pub message: Option<Message>,
}

impl Checked {
    /// Whether the message passed: exempt, or no finding.
    pub fn accepted(&self) -> bool {
        self.findings.is_empty()
    }
}

/// Checks the message `raw` against `conv` as a gate: [`verdict`] under
/// [`Policy::Gate`].
pub fn check_message<P: Borrow<ChangedPaths>, E>(
    raw: &[u8],
    conv: &Convention,
    cleanup: &Cleanup,
    exempt: impl FnOnce(&str, &Convention) -> Option<Exemption>,
    trace: impl FnOnce(&[String]) -> Result<Option<P>, E>,
) -> Result<Checked, E> {
    verdict(raw, Policy::Gate(conv), cleanup, exempt, trace)
}

/// The one verdict on the message `raw` under `policy` (docs/check.md, "Reading a
/// history"): cleans it as `cleanup` says, decodes it (not UTF-8 or a NUL byte: under
/// the gate, one `message-encoding` finding at the first bad byte, and the rest is
/// checked as lossy text so every other problem shows too; a reader reads the lossy
/// text), asks `exempt` whether the convention leaves it alone ([`exemption`], or
/// [`stored_exemption`] for a stored commit), then judges it: [`Policy::Gate`] runs
/// every rule, [`Policy::Spec`] the spec's grammar only. A message the gate accepts,
/// the reader accepts too.
///
/// `trace` (the gate only) is asked for the changed-path set only when the message has
/// bullet paths to trace (or `coverage` is on); it gets those paths (see
/// [`traced_paths`]) and returns `None` when tracing is off, or a set for which
/// `bullet-path` finds what it would find against the full one (see [`traced_set`]).
/// Its error is returned as it is. Never panics.
pub fn verdict<P: Borrow<ChangedPaths>, E>(
    raw: &[u8],
    policy: Policy<'_>,
    cleanup: &Cleanup,
    exempt: impl FnOnce(&str, &Convention) -> Option<Exemption>,
    trace: impl FnOnce(&[String]) -> Result<Option<P>, E>,
) -> Result<Checked, E> {
    let conv = policy.convention();
    let stored = cleanup.apply(raw);
    let (cleaned, encoding) = match decode(&stored) {
        Ok(text) => (text.to_owned(), None),
        Err(f) => (
            String::from_utf8_lossy(&stored).replace('\0', "\u{fffd}"),
            Some(f),
        ),
    };
    let encoding = encoding.filter(|_| matches!(policy, Policy::Gate(_)));
    if let Some(e) = exempt(&cleaned, conv) {
        return Ok(Checked {
            cleaned,
            exempt: Some(e),
            findings: encoding.into_iter().collect(),
            message: None,
        });
    }
    let parsed = parse(&cleaned);
    let spec = verdict::spec_findings(&parsed);
    let message = if spec.is_empty() {
        spec_message(&parsed)
    } else {
        None
    };
    let mut findings = match policy {
        Policy::Spec(_) => spec,
        Policy::Gate(_) => {
            let paths = traced_paths(&parsed);
            // No bullet path to trace: the rule would not look at the set, so none is
            // computed (unless `coverage` asks whether every changed path is named).
            let changed = if paths.is_empty() && !conv.coverage {
                None
            } else {
                trace(&paths)?
            };
            let mut gate =
                check_parsed(&cleaned, parsed, conv, changed.as_ref().map(Borrow::borrow));
            // The gate holds everything the reader holds.
            if gate.is_empty() {
                gate = spec;
            }
            gate
        }
    };
    findings.extend(encoding);
    let message = message.filter(|_| findings.is_empty());
    Ok(Checked {
        cleaned,
        exempt: None,
        findings: sorted(findings),
        message,
    })
}

/// [`check_message`] for a text that is already what git stores, with the exemptions
/// of a message not yet committed and `changed` as the commit's changed paths (`None`:
/// not traced).
pub fn check(text: &str, conv: &Convention, changed: Option<&ChangedPaths>) -> Vec<Finding> {
    let Ok(checked) = check_message(text.as_bytes(), conv, &Cleanup::Verbatim, exemption, |_| {
        Ok::<_, std::convert::Infallible>(changed)
    });
    checked.findings
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

/// Every rule on `text` already parsed as `parsed`, with no exemption: the caller has
/// decided that none applies. Findings are sorted.
pub(crate) fn check_parsed(
    text: &str,
    parsed: Parsed,
    conv: &Convention,
    changed: Option<&ChangedPaths>,
) -> Vec<Finding> {
    let mut out = Vec::new();
    encoding::check_nul(text, &mut out);
    let lines = split_lines(text);
    if lines.first().is_none_or(|l| l.trim().is_empty()) {
        let example = Some(subject::example_type(conv));
        out.push(Finding::new(
            Pos::new(1, 1),
            subject::SubjectEmpty { example },
        ));
        return sorted(out);
    }
    let ctx = Ctx {
        parsed,
        lines,
        conv,
        changed,
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

fn sorted(mut out: Vec<Finding>) -> Vec<Finding> {
    out.sort_by(|a, b| (a.line, a.column, a.rule()).cmp(&(b.line, b.column, b.rule())));
    out
}

/// The message of a word off the convention's list: `"chores" is not an allowed type
/// (allowed: feat, fix, …)`, for a type, a scope or a verb.
pub(crate) fn not_allowed(
    f: &mut std::fmt::Formatter<'_>,
    word: &str,
    noun: &str,
    allowed: &[String],
) -> std::fmt::Result {
    write!(
        f,
        "\"{word}\" is not an allowed {noun} (allowed: {})",
        list(allowed, 12)
    )
}

/// The hint for a word off the list: `write "feat"` for the allowed word it is
/// closest to, else `otherwise`.
pub(crate) fn nearest_hint(nearest: Option<&str>, otherwise: &str) -> String {
    match nearest {
        Some(n) => format!("write \"{n}\""),
        None => otherwise.to_owned(),
    }
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
    // Short ASCII words (what hints measure) on the stack, a byte per cell.
    const SHORT: usize = 64;
    if a.len() <= SHORT && b.len() <= SHORT && a.is_ascii() && b.is_ascii() {
        let (a, b) = (a.as_bytes(), b.as_bytes());
        let mut rows = [[0u8; SHORT + 1]; 2];
        let [prev, cur] = &mut rows;
        let (mut prev, mut cur) = (&mut prev[..=b.len()], &mut cur[..=b.len()]);
        for (j, p) in (0u8..).zip(prev.iter_mut()) {
            *p = j;
        }
        for (i, ca) in (1u8..).zip(a) {
            cur[0] = i;
            for (j, cb) in b.iter().enumerate() {
                let sub = prev[j] + u8::from(ca != cb);
                cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
            }
            std::mem::swap(&mut prev, &mut cur);
        }
        return usize::from(prev[b.len()]);
    }
    edit_distance_chars(a, b)
}

/// [`edit_distance`] of any text, a char per cell on the heap.
fn edit_distance_chars(a: &str, b: &str) -> usize {
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
pub fn nearest<'a>(word: &str, allowed: &'a [String]) -> Option<&'a str> {
    let lower = word.to_lowercase();
    // Each allowed word lowered once (most are lower case already), with its length.
    let lowered: Vec<(std::borrow::Cow<'_, str>, usize)> = allowed
        .iter()
        .map(|a| {
            let l = lowercase(a);
            let n = l.chars().count();
            (l, n)
        })
        .collect();
    let same = |w: &str| {
        allowed
            .iter()
            .zip(&lowered)
            .find(|(_, (l, _))| l == w)
            .map(|(a, _)| a.as_str())
    };
    if let Some(a) = same(&lower) {
        return Some(a);
    }
    for suffix in ["ed", "d", "es", "s", "ing"] {
        if let Some(stem) = lower.strip_suffix(suffix)
            && let Some(a) = same(stem)
        {
            return Some(a);
        }
    }
    if let Some((a, _)) = allowed.iter().zip(&lowered).find(|(_, (l, n))| {
        *n >= 3 && (lower.starts_with(l.as_ref()) || l.starts_with(lower.as_str()))
    }) {
        return Some(a);
    }
    // The distance is at least the difference in length: a word further off than
    // its bound in length alone is not measured.
    let len = lower.chars().count();
    allowed
        .iter()
        .zip(&lowered)
        .filter_map(|(a, (l, n))| {
            let bound = 2.min(a.chars().count() / 2);
            if len.abs_diff(*n) > bound {
                return None;
            }
            let d = edit_distance(&lower, l);
            (d <= bound).then_some((d, a))
        })
        .min_by_key(|(d, _)| *d)
        .map(|(_, a)| a.as_str())
}

/// `s` in lower case (`str::to_lowercase`), borrowed when it already is.
fn lowercase(s: &str) -> std::borrow::Cow<'_, str> {
    if s.bytes().all(|b| b.is_ascii() && !b.is_ascii_uppercase()) {
        std::borrow::Cow::Borrowed(s)
    } else {
        std::borrow::Cow::Owned(s.to_lowercase())
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    /// `nearest` as it was written first: every allowed word lowered and measured on
    /// every call.
    fn nearest_plain<'a>(word: &str, allowed: &'a [String]) -> Option<&'a str> {
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
            .map(|a| (super::edit_distance(&lower, &a.to_lowercase()), a))
            .filter(|(d, a)| *d <= 2.min(a.chars().count() / 2))
            .min_by_key(|(d, _)| *d)
            .map(|(_, a)| a.as_str())
    }

    fn words() -> Vec<String> {
        [
            "Add", "Update", "Fix", "Remove", "Rename", "Move", "feat", "fix", "docs", "ci", "İx",
            "ΣΑΣ", "Straße", "a", "",
        ]
        .map(String::from)
        .to_vec()
    }

    #[test]
    fn table() {
        let allowed = words();
        for (word, want) in [
            ("fixed", Some("Fix")),
            ("Adds", Some("Add")),
            ("updated", Some("Update")),
            ("updating", None),
            ("remvoe", Some("Remove")),
            ("feature", Some("feat")),
            ("doc", Some("docs")),
            ("xyzzy", None),
            ("strasse", Some("Straße")),
            ("STRASE", Some("Straße")),
            ("σας", Some("ΣΑΣ")),
        ] {
            assert_eq!(super::nearest(word, &allowed), want, "{word}");
            assert_eq!(nearest_plain(word, &allowed), want, "{word}");
        }
    }

    // The edit distance of any text (the heap path), which the short ASCII path on
    // the stack must agree with.
    use super::edit_distance_chars as edit_distance_plain;

    #[test]
    fn edit_distance_gives_up_past_256_chars() {
        let (a, b) = ("é".repeat(256), "é".repeat(257));
        assert_eq!(super::edit_distance(&a, "e"), 256);
        assert_eq!(super::edit_distance(&a, &a), 0);
        assert_eq!(super::edit_distance(&b, "e"), usize::MAX);
        assert_eq!(super::edit_distance("e", &b), usize::MAX);
        assert_eq!(super::edit_distance("", ""), 0);
    }

    proptest! {
        #[test]
        fn edit_distance_same_as_the_plain_one(a in "[abcé]{0,300}|[abc]{0,70}", b in "[abcé]{0,12}|[abc]{60,66}") {
            prop_assert_eq!(super::edit_distance(&a, &b), edit_distance_plain(&a, &b));
            prop_assert_eq!(super::edit_distance(&b, &a), edit_distance_plain(&b, &a));
        }

        #[test]
        fn same_as_the_plain_one(
            word in "(a|A|d|D|e|fix|FIX|s|ing|ed|ci|İ|ß|Σ|σ|x|o|c){0,7}",
            pick in proptest::collection::vec(0usize..15, 0..8),
        ) {
            let all = words();
            let allowed: Vec<String> = pick.iter().map(|&i| all[i].clone()).collect();
            prop_assert_eq!(super::nearest(&word, &allowed), nearest_plain(&word, &allowed));
        }
    }
}
