//! Subject rules: the first line's presence, shape (`type(scope)!: summary`),
//! type, scope, length and trailing period.

use super::{Ctx, Finding, RuleInfo, list, nearest, subject_example};
use crate::config::TypeCase;
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

/// What an empty summary is only (`a verb`, `a path`, `punctuation`), or `None` when
/// it says something.
fn says_nothing(summary: &str, verbs: &[String]) -> Option<&'static str> {
    let t = summary.trim();
    if !t.chars().any(char::is_alphanumeric) {
        return Some("punctuation");
    }
    let mut words = t.split_whitespace();
    let (Some(word), None) = (words.next(), words.next()) else {
        return None;
    };
    let word = word
        .trim_end_matches(['.', ',', ';', ':', '!', '?'])
        .trim_matches(['`', '"', '\'']);
    if is_path(word) {
        return Some("a path");
    }
    let known = EMPTY_WORDS.iter().any(|w| w.eq_ignore_ascii_case(word))
        || verbs.iter().any(|v| v.eq_ignore_ascii_case(word));
    known.then_some("a verb or a word that names no change")
}

pub(crate) fn check(ctx: &Ctx<'_>, out: &mut Vec<Finding>) {
    let s = &ctx.parsed.subject;
    let conv = ctx.conv;
    if let Some(err) = &s.error {
        let (message, hint) = match err.value {
            SubjectError::MissingType => (
                "the subject does not start with a type".to_string(),
                subject_example(conv),
            ),
            SubjectError::UnclosedScope => (
                "the scope's \"(\" is never closed".to_string(),
                "close the scope: \"type(scope): summary\"".to_string(),
            ),
            SubjectError::ParenInScope => (
                "a \"(\" inside the scope".to_string(),
                "write one pair of parentheses: \"type(scope): summary\"".to_string(),
            ),
            SubjectError::EmptyScope => (
                "the scope \"()\" is empty".to_string(),
                "name a scope or drop the parentheses".to_string(),
            ),
            SubjectError::MissingColon => {
                let hint = if s.raw.contains(':') {
                    subject_example(conv)
                } else {
                    let kind = conv.types.first().map_or("fix", String::as_str);
                    format!(
                        "start the subject with a type and \": \", e.g. \"{kind}: {}\"",
                        lower_first(s.raw.trim_end_matches('.'))
                    )
                };
                ("expected \":\" after the type".to_string(), hint)
            }
            SubjectError::MissingSpace => (
                "expected one space after \":\"".to_string(),
                "write \": \" between the type and the summary".to_string(),
            ),
            SubjectError::EmptySummary => (
                "the summary after \":\" is empty".to_string(),
                "say what the commit does after \": \"".to_string(),
            ),
            SubjectError::ExtraSpace => (
                "more than one space after \":\"".to_string(),
                "use exactly one space after \":\"".to_string(),
            ),
        };
        out.push(Finding::new(&SUBJECT_FORMAT, err.pos, message, Some(hint)));
    } else {
        if let Some(kind) = &s.kind {
            match conv.allowed_type(&kind.value) {
                None => {
                    let hint = match nearest(&kind.value, &conv.types) {
                        Some(n) => format!("write \"{n}\""),
                        None => "pick the type that fits from the list".to_string(),
                    };
                    out.push(Finding::new(
                        &SUBJECT_TYPE,
                        kind.pos,
                        format!(
                            "\"{}\" is not an allowed type (allowed: {})",
                            kind.value,
                            list(&conv.types, 12)
                        ),
                        Some(hint),
                    ));
                }
                Some(_)
                    if conv.type_case == TypeCase::Lower
                        && kind.value != kind.value.to_lowercase() =>
                {
                    let lower = kind.value.to_lowercase();
                    out.push(Finding::new(
                        &SUBJECT_TYPE,
                        kind.pos,
                        format!(
                            "the type \"{}\" is not in lower case (type-case = \"lower\")",
                            kind.value
                        ),
                        Some(format!("write \"{lower}\"")),
                    ));
                }
                Some(_) => {}
            }
        }
        if let Some(scope) = &s.scope
            && !conv.allows_scope(&scope.value)
        {
            let hint = match nearest(&scope.value, &conv.scopes) {
                Some(n) => format!("write \"{n}\""),
                None => "pick a scope from the list, or drop the scope".to_string(),
            };
            out.push(Finding::new(
                &SUBJECT_SCOPE,
                scope.pos,
                format!(
                    "\"{}\" is not an allowed scope (allowed: {})",
                    scope.value,
                    list(&conv.scopes, 12)
                ),
                Some(hint),
            ));
        }
    }
    if let Some(summary) = &s.summary
        && conv.subject_period
        && summary.value.ends_with('.')
    {
        let column = summary.pos.column + summary.value.chars().count() - 1;
        out.push(Finding::new(
            &SUBJECT_PERIOD,
            Pos::new(1, column),
            "the summary ends with a period",
            Some("drop the trailing \".\"".to_string()),
        ));
    }
    if let Some(summary) = &s.summary
        && conv.subject_summary
        && let Some(only) = says_nothing(&summary.value, &conv.verbs)
    {
        out.push(Finding::new(
            &SUBJECT_SUMMARY,
            summary.pos,
            format!(
                "the summary {:?} is only {only}: it does not say what the commit does",
                summary.value
            ),
            Some(
                "say what changed and where, e.g. \"update the install steps for Debian\""
                    .to_string(),
            ),
        ));
    }
    let len = s.raw.chars().count();
    if let Some(max) = conv.subject_limit()
        && len > max
    {
        out.push(Finding::new(
            &SUBJECT_LENGTH,
            Pos::new(1, max + 1),
            format!("the subject is {len} characters long (at most {max})"),
            Some("shorten the summary; the details belong in the body".to_string()),
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
            let got = says_nothing(summary, &verbs).unwrap_or("nothing");
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
