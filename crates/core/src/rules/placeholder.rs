//! The placeholder rule: no unfilled template or draft placeholder (`<why?>`,
//! `<what and why>`, …) anywhere in the message.

use super::{Ctx, Finding, RuleInfo};
use crate::message::Pos;
use crate::message::parse::column;

/// What the offline draft writes where only the author knows the reason; the
/// validator rejects it (and every other `<…?>`), so a draft cannot be committed
/// unread.
pub const WHY_PLACEHOLDER: &str = "<why?>";

#[doc = include_str!("docs/placeholder.md")]
pub const PLACEHOLDER: RuleInfo = RuleInfo {
    id: "placeholder",
    summary: "no unfilled placeholder such as `<why?>` is left",
    doc: include_str!("docs/placeholder.md"),
};

/// Template words that stand for text the author has to write.
const KEYWORDS: &[&str] = &[
    "type",
    "scope",
    "summary",
    "description",
    "verb",
    "path",
    "old",
    "new",
    "what and why",
    "what_and_why",
    "why",
    "what breaks",
];

/// The placeholders in `line` as byte ranges: `<…?>` with 1 to 40 characters before
/// the `?` (no `<`, `>` or newline inside), or `<keyword>` (any case). A hand scan,
/// not a regex: compiling a case-insensitive Unicode regex cost two thirds of a
/// commit-msg check's instructions.
fn placeholders(line: &str) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
    let mut from = 0;
    std::iter::from_fn(move || {
        while let Some(rel) = line.get(from..)?.find('<') {
            let start = from + rel;
            from = start + 1;
            let rest = line.get(start + 1..)?;
            let Some(len) = rest.find(['<', '>', '\n']) else {
                continue;
            };
            if !rest[len..].starts_with('>') {
                continue;
            }
            let inner = &rest[..len];
            let chars = inner.chars().count();
            let is_question = inner.ends_with('?') && (2..=41).contains(&chars);
            let is_keyword = KEYWORDS.iter().any(|k| k.eq_ignore_ascii_case(inner));
            if is_question || is_keyword {
                let end = start + 1 + len + 1;
                from = end;
                return Some(start..end);
            }
        }
        None
    })
}

pub(crate) fn check(ctx: &Ctx<'_>, out: &mut Vec<Finding>) {
    for (idx, line) in ctx.lines.iter().enumerate() {
        for range in placeholders(line) {
            let text = &line[range.clone()];
            out.push(Finding::new(
                &PLACEHOLDER,
                Pos::new(idx + 1, column(line, range.start)),
                format!("unfilled placeholder \"{text}\""),
                Some(if text == WHY_PLACEHOLDER {
                    "replace it with the reason for the change".to_string()
                } else {
                    "replace the placeholder with the real text".to_string()
                }),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    /// The regex the hand scan replaced: the scan must find exactly what it found.
    fn by_regex(line: &str) -> Vec<std::ops::Range<usize>> {
        let re = regex::Regex::new(
            r"(?i)<(?:[^<>\n]{1,40}\?|type|scope|summary|description|verb|path|old|new|what and why|what_and_why|why|what breaks)>",
        )
        .expect("the old pattern compiles");
        re.find_iter(line).map(|m| m.range()).collect()
    }

    #[test]
    fn table() {
        let cases: &[(&str, &[&str])] = &[
            ("- Update: a — <why?>", &["<why?>"]),
            (
                "<TYPE>(<scope>): <Summary>",
                &["<TYPE>", "<scope>", "<Summary>"],
            ),
            ("a <b <c?> d>", &["<c?>"]),
            ("<?>", &[]),
            ("<why> and <what and why>", &["<why>", "<what and why>"]),
            ("Vec<u8> and x < y > z", &[]),
            ("<ünïcödé?>", &["<ünïcödé?>"]),
        ];
        for (line, want) in cases {
            let got: Vec<&str> = super::placeholders(line).map(|r| &line[r]).collect();
            assert_eq!(&got, want, "{line}");
            assert_eq!(
                super::placeholders(line).collect::<Vec<_>>(),
                by_regex(line),
                "{line}"
            );
        }
    }

    proptest! {
        #[test]
        fn same_as_the_regex(line in "([<>?a-zA-Z ü\\n]|why|type|what and why){0,60}") {
            prop_assert_eq!(super::placeholders(&line).collect::<Vec<_>>(), by_regex(&line));
        }
    }
}
