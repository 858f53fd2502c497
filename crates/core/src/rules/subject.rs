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
    // A verb with nothing after it (`docs: update`) says nothing of what changed.
    if let Some(summary) = &s.summary {
        let word = summary.value.trim().trim_end_matches('.');
        if !word.is_empty()
            && !word.contains(char::is_whitespace)
            && conv.verbs.iter().any(|v| v.eq_ignore_ascii_case(word))
        {
            out.push(Finding::new(
                &SUBJECT_FORMAT,
                summary.pos,
                format!("the summary \"{word}\" is a verb with nothing after it"),
                Some(format!(
                    "say what it does to what, e.g. \"{} the install guide\"",
                    word.to_lowercase()
                )),
            ));
        }
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
