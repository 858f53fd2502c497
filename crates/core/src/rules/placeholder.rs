//! The placeholder rule: no unfilled template or draft placeholder (`<why?>`,
//! `<what and why>`, …) anywhere in the message.

use std::fmt;

use super::{Ctx, Finding, RuleInfo};
use crate::message::Pos;
use crate::message::parse::column;

pub use crate::config::WHY_PLACEHOLDER;

#[doc = include_str!("docs/placeholder.md")]
pub const PLACEHOLDER: RuleInfo = RuleInfo {
    id: "placeholder",
    summary: "no unfilled placeholder such as `<why?>` is left",
    doc: include_str!("docs/placeholder.md"),
};

/// The placeholders of `conv.placeholders` in `line`, as byte ranges (ASCII case
/// ignored), in order and not overlapping. Only what the convention lists counts: an
/// HTML tag such as `<summary>` or `<details>` in a release note is text, not a
/// placeholder.
fn placeholders<'a>(
    line: &'a str,
    listed: &'a [String],
) -> impl Iterator<Item = std::ops::Range<usize>> + 'a {
    let mut from = 0;
    std::iter::from_fn(move || {
        while let Some(rel) = line.get(from..)?.find('<') {
            let start = from + rel;
            from = start + 1;
            let rest = &line[start..];
            if let Some(p) = listed.iter().find(|p| {
                rest.get(..p.len())
                    .is_some_and(|head| head.eq_ignore_ascii_case(p))
            }) {
                from = start + p.len();
                return Some(start..from);
            }
        }
        None
    })
}

/// `placeholder`: an unfilled placeholder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placeholder {
    /// The placeholder as written (`<why?>`).
    pub text: String,
}

impl fmt::Display for Placeholder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unfilled placeholder \"{}\"", self.text)
    }
}

impl Placeholder {
    /// How to fix it.
    pub fn hint(&self) -> Option<String> {
        Some(if self.text == WHY_PLACEHOLDER {
            "replace it with the reason for the change".to_string()
        } else {
            "replace the placeholder with the real text".to_string()
        })
    }
}

pub(crate) fn check(ctx: &Ctx<'_>, out: &mut Vec<Finding>) {
    for (idx, line) in ctx.lines.iter().enumerate() {
        for range in placeholders(line, &ctx.conv.placeholders) {
            out.push(Finding::new(
                Pos::new(idx + 1, column(line, range.start)),
                Placeholder {
                    text: line[range].to_owned(),
                },
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn table() {
        let listed: Vec<String> = crate::config::Convention::default().placeholders;
        let cases: &[(&str, &[&str])] = &[
            ("- Update: a — <why?>", &["<why?>"]),
            ("<WHY?> and <What and why>", &["<WHY?>", "<What and why>"]),
            ("<what breaks><why?>", &["<what breaks>", "<why?>"]),
            ("<details><summary>Release notes</summary>", &[]),
            ("<type>(<scope>): <summary>", &[]),
            ("<?xml version=\"1.0\"?> and <really?>", &[]),
            ("Vec<u8> and x < y > z", &[]),
            ("<why", &[]),
        ];
        for (line, want) in cases {
            let got: Vec<&str> = super::placeholders(line, &listed)
                .map(|r| &line[r])
                .collect();
            assert_eq!(&got, want, "{line}");
        }
        let template = vec!["<type>".to_string(), "<summary>".to_string()];
        let line = "<type>: <summary>";
        let got: Vec<&str> = super::placeholders(line, &template)
            .map(|r| &line[r])
            .collect();
        assert_eq!(got, ["<type>", "<summary>"]);
    }
}
