//! Subject rules: the first line's presence, shape (`type(scope)!: summary`),
//! type, scope, length and trailing period.

use std::fmt;

use super::{Ctx, Finding, RuleInfo, nearest, nearest_hint, not_allowed};
use crate::config::{Convention, TypeCase};
use crate::message::{Pos, SubjectError};

#[doc = include_str!("docs/subject-empty.md")]
pub const SUBJECT_EMPTY: RuleInfo = RuleInfo {
    id: "subject-empty",
    summary: "the message has a subject line",
    doc: include_str!("docs/subject-empty.md"),
};

#[doc = include_str!("docs/subject-format.md")]
pub const SUBJECT_FORMAT: RuleInfo = RuleInfo {
    id: "subject-format",
    summary: "the subject is `type(scope)!: summary`",
    doc: include_str!("docs/subject-format.md"),
};

#[doc = include_str!("docs/subject-type.md")]
pub const SUBJECT_TYPE: RuleInfo = RuleInfo {
    id: "subject-type",
    summary: "the subject's type is one of the convention's types",
    doc: include_str!("docs/subject-type.md"),
};

#[doc = include_str!("docs/subject-scope.md")]
pub const SUBJECT_SCOPE: RuleInfo = RuleInfo {
    id: "subject-scope",
    summary: "the subject's scope is one of the convention's scopes",
    doc: include_str!("docs/subject-scope.md"),
};

#[doc = include_str!("docs/subject-length.md")]
pub const SUBJECT_LENGTH: RuleInfo = RuleInfo {
    id: "subject-length",
    summary: "the subject fits in subject-max characters",
    doc: include_str!("docs/subject-length.md"),
};

#[doc = include_str!("docs/subject-period.md")]
pub const SUBJECT_PERIOD: RuleInfo = RuleInfo {
    id: "subject-period",
    summary: "the summary does not end with a period",
    doc: include_str!("docs/subject-period.md"),
};

#[doc = include_str!("docs/subject-summary.md")]
pub const SUBJECT_SUMMARY: RuleInfo = RuleInfo {
    id: "subject-summary",
    summary: "the summary is more than a verb, a path or punctuation",
    doc: include_str!("docs/subject-summary.md"),
};

/// Words that make no summary on their own: the verbs commits start with, and the
/// fillers that stand for no change in particular. Matched in any case, with the
/// convention's bullet verbs.
const EMPTY_WORDS: &[&str] = &[
    "add", "added", "adds", "adjust", "bump", "change", "changed", "changes", "clean", "cleanup",
    "correct", "delete", "document", "edit", "fix", "fixed", "fixes", "format", "improve", "lint",
    "minor", "misc", "modify", "more", "move", "refactor", "remove", "rename", "stuff", "temp",
    "test", "tests", "tmp", "tweak", "tweaks", "update", "updated", "updates", "wip", "work",
];

/// Whether `word` looks like a path: a `/` in it, a dotfile, or a file name with an
/// extension (`README.md`; not a version such as `v1.2`).
fn is_path(word: &str) -> bool {
    if word.contains('/') && !word.contains("://") {
        return true;
    }
    let ext_like = |e: &str| {
        (1..=8).contains(&e.len())
            && e.chars().all(|c| c.is_ascii_alphanumeric())
            && e.chars().any(|c| c.is_ascii_alphabetic())
    };
    match word.rsplit_once('.') {
        Some(("", name)) => {
            (1..=32).contains(&name.len())
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        }
        Some((stem, ext)) => {
            ext_like(ext)
                && stem
                    .chars()
                    .all(|c| c.is_alphanumeric() || "._-".contains(c))
        }
        None => false,
    }
}

/// What a summary that says nothing is only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Only {
    /// No letter or digit at all.
    Punctuation,
    /// One word that looks like a path.
    Path,
    /// One verb, or a filler that names no change.
    Verb,
}

impl Only {
    /// How a message says it: `punctuation`, `a path` …
    pub fn as_str(self) -> &'static str {
        match self {
            Only::Punctuation => "punctuation",
            Only::Path => "a path",
            Only::Verb => "a verb or a word that names no change",
        }
    }
}

/// What an empty summary is only, or `None` when it says something.
fn says_nothing(summary: &str, verbs: &[String]) -> Option<Only> {
    let t = summary.trim();
    if !t.chars().any(char::is_alphanumeric) {
        return Some(Only::Punctuation);
    }
    let mut words = t.split_whitespace();
    let (Some(word), None) = (words.next(), words.next()) else {
        return None;
    };
    let word = word
        .trim_end_matches(['.', ',', ';', ':', '!', '?'])
        .trim_matches(['`', '"', '\'']);
    if is_path(word) {
        return Some(Only::Path);
    }
    let known = EMPTY_WORDS.iter().any(|w| w.eq_ignore_ascii_case(word))
        || verbs.iter().any(|v| v.eq_ignore_ascii_case(word));
    known.then_some(Only::Verb)
}

/// `subject-empty`: the message has no subject line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubjectEmpty {
    /// The type the hint's example starts with; `None` under the reader's policy,
    /// which gives no hint.
    pub example: Option<String>,
}

impl fmt::Display for SubjectEmpty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the message has no subject line")
    }
}

impl SubjectEmpty {
    /// How to fix it.
    pub fn hint(&self) -> Option<String> {
        self.example.as_deref().map(example_hint)
    }
}

/// `subject-format`: the subject is not `type(scope)!: summary`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SubjectFormat {
    /// The gate: what the grammar found wrong, the type the hint's example starts with,
    /// and the subject as written (a missing `:` gets it back with a type in front).
    Grammar {
        /// What is wrong.
        error: SubjectError,
        /// The convention's first type (`fix` when it has none).
        example: String,
        /// The whole subject line.
        subject: String,
    },
    /// The reader: not the spec's `type(scope): description` (never
    /// [`SubjectError::ExtraSpace`], which every peer parser reads).
    NotSpec(SubjectError),
    /// The reader: the type is not a word.
    TypeNotWord {
        /// The type as written.
        kind: String,
    },
}

impl fmt::Display for SubjectFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SubjectFormat::Grammar { error, .. } => f.write_str(match error {
                SubjectError::MissingType => "the subject does not start with a type",
                SubjectError::UnclosedScope => "the scope's \"(\" is never closed",
                SubjectError::ParenInScope => "a \"(\" inside the scope",
                SubjectError::EmptyScope => "the scope \"()\" is empty",
                SubjectError::MissingColon => "expected \":\" after the type",
                SubjectError::MissingSpace => "expected one space after \":\"",
                SubjectError::EmptySummary => "the summary after \":\" is empty",
                SubjectError::ExtraSpace => "more than one space after \":\"",
            }),
            SubjectFormat::NotSpec(error) => write!(
                f,
                "the subject is not \"type(scope): description\" ({})",
                match error {
                    SubjectError::MissingType => "no type",
                    SubjectError::UnclosedScope => "the scope is not closed",
                    SubjectError::EmptyScope => "the scope is empty",
                    SubjectError::ParenInScope => "a \"(\" in the scope",
                    SubjectError::MissingColon => "no \": \" after the type",
                    SubjectError::MissingSpace => "no space after the colon",
                    SubjectError::EmptySummary => "no description",
                    SubjectError::ExtraSpace => "",
                }
            ),
            SubjectFormat::TypeNotWord { kind } => write!(f, "the type {kind:?} is not a word"),
        }
    }
}

impl SubjectFormat {
    /// How to fix it (the reader gives no hint).
    pub fn hint(&self) -> Option<String> {
        let SubjectFormat::Grammar {
            error,
            example,
            subject,
        } = self
        else {
            return None;
        };
        Some(match error {
            SubjectError::MissingType => example_hint(example),
            SubjectError::UnclosedScope => "close the scope: \"type(scope): summary\"".to_string(),
            SubjectError::ParenInScope => {
                "write one pair of parentheses: \"type(scope): summary\"".to_string()
            }
            SubjectError::EmptyScope => "name a scope or drop the parentheses".to_string(),
            SubjectError::MissingColon if subject.contains(':') => example_hint(example),
            SubjectError::MissingColon => format!(
                "start the subject with a type and \": \", e.g. \"{example}: {}\"",
                lower_first(subject.trim_end_matches('.'))
            ),
            SubjectError::MissingSpace => {
                "write \": \" between the type and the summary".to_string()
            }
            SubjectError::EmptySummary => "say what the commit does after \": \"".to_string(),
            SubjectError::ExtraSpace => "use exactly one space after \":\"".to_string(),
        })
    }
}

/// `subject-type`: the type is not one the convention allows, or not in its case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SubjectType {
    /// Not among the convention's types.
    NotAllowed {
        /// The type as written.
        kind: String,
        /// The convention's types.
        allowed: Vec<String>,
        /// The allowed type it is closest to ([`nearest`]), if any.
        nearest: Option<String>,
    },
    /// An allowed type, not in lower case under `type-case = "lower"`.
    NotLowerCase {
        /// The type as written.
        kind: String,
    },
}

impl fmt::Display for SubjectType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SubjectType::NotAllowed { kind, allowed, .. } => not_allowed(f, kind, "type", allowed),
            SubjectType::NotLowerCase { kind } => write!(
                f,
                "the type \"{kind}\" is not in lower case (type-case = \"lower\")"
            ),
        }
    }
}

impl SubjectType {
    /// How to fix it.
    pub fn hint(&self) -> Option<String> {
        Some(match self {
            SubjectType::NotAllowed { nearest, .. } => {
                nearest_hint(nearest.as_deref(), "pick the type that fits from the list")
            }
            SubjectType::NotLowerCase { kind } => format!("write \"{}\"", kind.to_lowercase()),
        })
    }
}

/// `subject-scope`: the scope is not one the convention allows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubjectScope {
    /// The scope as written.
    pub scope: String,
    /// The convention's scopes.
    pub allowed: Vec<String>,
    /// The allowed scope it is closest to ([`nearest`]), if any.
    pub nearest: Option<String>,
}

impl fmt::Display for SubjectScope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        not_allowed(f, &self.scope, "scope", &self.allowed)
    }
}

impl SubjectScope {
    /// How to fix it.
    pub fn hint(&self) -> Option<String> {
        Some(nearest_hint(
            self.nearest.as_deref(),
            "pick a scope from the list, or drop the scope",
        ))
    }
}

/// `subject-length`: the subject is longer than `subject-max`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubjectLength {
    /// Its length, in chars.
    pub length: usize,
    /// The most the convention allows.
    pub max: usize,
}

impl fmt::Display for SubjectLength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the subject is {} characters long (at most {})",
            self.length, self.max
        )
    }
}

impl SubjectLength {
    /// How to fix it.
    pub fn hint(&self) -> Option<String> {
        Some("shorten the summary; the details belong in the body".to_string())
    }
}

/// `subject-period`: the summary ends with a period.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubjectPeriod;

impl fmt::Display for SubjectPeriod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the summary ends with a period")
    }
}

impl SubjectPeriod {
    /// How to fix it.
    pub fn hint(&self) -> Option<String> {
        Some("drop the trailing \".\"".to_string())
    }
}

/// `subject-summary`: the summary is only a verb, a path or punctuation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubjectSummary {
    /// The summary as written.
    pub summary: String,
    /// What it is only.
    pub only: Only,
}

impl fmt::Display for SubjectSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the summary {:?} is only {}: it does not say what the commit does",
            self.summary,
            self.only.as_str()
        )
    }
}

impl SubjectSummary {
    /// How to fix it.
    pub fn hint(&self) -> Option<String> {
        Some("say what changed and where, e.g. \"update the install steps for Debian\"".to_string())
    }
}

/// The type a subject's example starts with: the convention's first, else `fix`.
pub(crate) fn example_type(conv: &Convention) -> String {
    conv.types.first().map_or("fix", String::as_str).to_owned()
}

/// `write the subject as "type(scope): summary", e.g. "fix: handle empty input"`.
fn example_hint(kind: &str) -> String {
    format!("write the subject as \"type(scope): summary\", e.g. \"{kind}: handle empty input\"")
}

pub(crate) fn check(ctx: &Ctx<'_>, out: &mut Vec<Finding>) {
    let s = &ctx.parsed.subject;
    let conv = ctx.conv;
    if let Some(err) = &s.error {
        let problem = SubjectFormat::Grammar {
            error: err.value,
            example: example_type(conv),
            subject: s.raw.clone(),
        };
        out.push(Finding::new(err.pos, problem));
    } else {
        if let Some(kind) = &s.kind {
            match conv.allowed_type(&kind.value) {
                None => out.push(Finding::new(
                    kind.pos,
                    SubjectType::NotAllowed {
                        kind: kind.value.clone(),
                        allowed: conv.types.clone(),
                        nearest: nearest(&kind.value, &conv.types).map(str::to_owned),
                    },
                )),
                Some(_)
                    if conv.type_case == TypeCase::Lower
                        && kind.value != kind.value.to_lowercase() =>
                {
                    out.push(Finding::new(
                        kind.pos,
                        SubjectType::NotLowerCase {
                            kind: kind.value.clone(),
                        },
                    ));
                }
                Some(_) => {}
            }
        }
        if let Some(scope) = &s.scope
            && !conv.allows_scope(&scope.value)
        {
            out.push(Finding::new(
                scope.pos,
                SubjectScope {
                    scope: scope.value.clone(),
                    allowed: conv.scopes.clone(),
                    nearest: nearest(&scope.value, &conv.scopes).map(str::to_owned),
                },
            ));
        }
    }
    if let Some(summary) = &s.summary
        && conv.subject_period
        && summary.value.ends_with('.')
    {
        let column = summary.pos.column + summary.value.chars().count() - 1;
        out.push(Finding::new(Pos::new(1, column), SubjectPeriod));
    }
    if let Some(summary) = &s.summary
        && conv.subject_summary
        && let Some(only) = says_nothing(&summary.value, &conv.verbs)
    {
        out.push(Finding::new(
            summary.pos,
            SubjectSummary {
                summary: summary.value.clone(),
                only,
            },
        ));
    }
    let length = s.raw.chars().count();
    if let Some(max) = conv.subject_limit()
        && length > max
    {
        out.push(Finding::new(
            Pos::new(1, max + 1),
            SubjectLength { length, max },
        ));
    }
}

fn lower_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::says_nothing;

    #[test]
    fn a_summary_of_one_verb_path_or_punctuation_says_nothing() {
        let verbs = ["Document".to_owned()];
        for (summary, only) in [
            ("update", "a verb"),
            ("Update.", "a verb"),
            ("fix", "a verb"),
            ("wip", "a verb"),
            ("document", "a verb"),
            ("README.md", "a path"),
            ("`src/parser.rs`", "a path"),
            ("docs/", "a path"),
            (".gitignore", "a path"),
            ("...", "punctuation"),
            ("-", "punctuation"),
            ("!!! ???", "punctuation"),
        ] {
            let got = says_nothing(summary, &verbs).map_or("nothing", super::Only::as_str);
            assert!(got.starts_with(only), "{summary:?}: {got}");
        }
        for summary in [
            "update the install steps",
            "typo",
            "v1.2",
            "1.2.3",
            "support https://example.com",
            "handle README.md links",
            "dark-mode",
        ] {
            assert_eq!(says_nothing(summary, &verbs), None, "{summary:?}");
        }
    }
}
