//! Trailer rules: the trailer block's lines follow git's trailer syntax, and
//! breaking-change footers are spelled and placed so tools find them.

use std::fmt;

use super::{Ctx, Finding, RuleInfo};
use crate::message::parse::is_breaking_attempt;
use crate::message::{Pos, parse_trailer};

#[doc = include_str!("docs/trailer-format.md")]
pub const TRAILER_FORMAT: RuleInfo = RuleInfo {
    id: "trailer-format",
    summary: "footers are `Token: value` or `Token #value`, in their own paragraphs",
    doc: include_str!("docs/trailer-format.md"),
};

#[doc = include_str!("docs/breaking-change.md")]
pub const BREAKING_CHANGE: RuleInfo = RuleInfo {
    id: "breaking-change",
    summary: "breaking-change footers are `BREAKING CHANGE: …` in the trailer block",
    doc: include_str!("docs/breaking-change.md"),
};

/// Every accepted spelling of a breaking-change footer, canonical first.
const BREAKING_FORMS: &str =
    "\"BREAKING CHANGE: <what breaks>\" (or \"BREAKING-CHANGE: …\", \"BREAKING CHANGE #…\")";

/// `trailer-format`: a line of the trailer block is not a trailer to git.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TrailerFormat {
    /// An indented line with no trailer before it to continue.
    Indented,
    /// A line that is not `Token: value` nor `Token #value`.
    NotATrailer {
        /// The line.
        line: String,
    },
    /// A trailer glued to the bullets, with no blank line before it.
    Glued,
}

impl fmt::Display for TrailerFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrailerFormat::Indented => f.write_str("an indented line with no trailer before it"),
            TrailerFormat::NotATrailer { line } => {
                write!(f, "\"{}\" is not a trailer", shorten(line))
            }
            TrailerFormat::Glued => {
                f.write_str("a trailer glued to the bullets is not a trailer to git")
            }
        }
    }
}

impl TrailerFormat {
    /// How to fix it.
    pub fn hint(&self) -> Option<String> {
        Some(match self {
            TrailerFormat::Indented => {
                "remove the indentation, or join it to the trailer it continues".to_string()
            }
            TrailerFormat::NotATrailer { .. } => {
                "write \"Token: value\" or \"Token #value\" (a token without spaces, e.g. \
                 \"Reviewed-by: Z\", \"Refs #12\"), or put prose before a blank line"
                    .to_string()
            }
            TrailerFormat::Glued => "put a blank line before the trailers".to_string(),
        })
    }
}

/// `breaking-change`: a breaking-change footer misspelt or out of place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BreakingChange {
    /// Not the token `BREAKING CHANGE` (or `BREAKING-CHANGE`) in upper case.
    WrongToken {
        /// The token as written.
        token: String,
    },
    /// Not in the footers at the end of the message.
    NotInFooters,
    /// No `:` after the token.
    NoSeparator,
    /// A space before the `:` or `#`.
    SpaceBeforeSeparator,
    /// Nothing after the separator.
    NoDescription,
    /// Not one space after the `:`.
    NoSpaceAfterColon,
}

impl fmt::Display for BreakingChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BreakingChange::WrongToken { token } => {
                write!(f, "\"{token}\" is not the breaking-change token")
            }
            BreakingChange::NotInFooters => {
                f.write_str("the breaking-change footer is not in the footers at the end")
            }
            BreakingChange::NoSeparator => {
                f.write_str("the breaking-change footer has no \":\" after its token")
            }
            BreakingChange::SpaceBeforeSeparator => {
                f.write_str("a space before the breaking-change footer's separator")
            }
            BreakingChange::NoDescription => {
                f.write_str("the breaking-change footer has no description")
            }
            BreakingChange::NoSpaceAfterColon => {
                f.write_str("expected one space after the breaking-change footer's \":\"")
            }
        }
    }
}

impl BreakingChange {
    /// How to fix it.
    pub fn hint(&self) -> Option<String> {
        Some(match self {
            BreakingChange::WrongToken { .. } => format!("write {BREAKING_FORMS}, in upper case"),
            BreakingChange::NotInFooters => {
                "move it to the footers, after a blank line".to_string()
            }
            BreakingChange::NoSeparator | BreakingChange::NoSpaceAfterColon => {
                format!("write {BREAKING_FORMS}")
            }
            BreakingChange::SpaceBeforeSeparator => {
                format!("write {BREAKING_FORMS}, with no space before the \":\"")
            }
            BreakingChange::NoDescription => {
                "write \"BREAKING CHANGE: \" followed by what breaks and how to migrate".to_string()
            }
        })
    }
}

pub(crate) fn check(ctx: &Ctx<'_>, out: &mut Vec<Finding>) {
    let parsed = &ctx.parsed;
    for bad in &parsed.malformed_trailers {
        if is_breaking_attempt(&bad.value) {
            continue;
        }
        let problem = if bad.value.starts_with([' ', '\t']) {
            TrailerFormat::Indented
        } else {
            TrailerFormat::NotATrailer {
                line: bad.value.clone(),
            }
        };
        out.push(Finding::new(bad.pos, problem));
    }
    // In a free body nothing is a bullet, so nothing is glued to one.
    let glued = if ctx.conv.body == crate::config::BodyPolicy::Free {
        &[][..]
    } else {
        &parsed.misplaced_trailers[..]
    };
    for pos in glued {
        if ctx
            .lines
            .get(pos.line - 1)
            .is_some_and(|l| is_breaking_attempt(l))
        {
            continue;
        }
        out.push(Finding::new(*pos, TrailerFormat::Glued));
    }
    let footer_lines: Vec<usize> = parsed.trailers.iter().map(|t| t.token.pos.line).collect();
    for (idx, line) in ctx.lines.iter().enumerate().skip(1) {
        if !is_breaking_attempt(line) {
            continue;
        }
        let pos = Pos::new(idx + 1, 1);
        let after = ["BREAKING CHANGE", "BREAKING-CHANGE"]
            .iter()
            .find_map(|t| line.strip_prefix(t))
            .filter(|rest| !rest.starts_with(char::is_alphanumeric));
        let footer = parsed.trailers.iter().find(|t| {
            t.token.pos.line == idx + 1
                && (t.token.value == "BREAKING CHANGE" || t.token.value == "BREAKING-CHANGE")
        });
        let parsed_ok = parse_trailer(line)
            .is_some_and(|(t, _, _)| t == "BREAKING CHANGE" || t == "BREAKING-CHANGE");
        let problem = match after {
            Some(_) if footer.is_some_and(|t| !t.value.value.is_empty()) => None,
            None => Some(BreakingChange::WrongToken {
                token: line
                    .split([':', '#'])
                    .next()
                    .unwrap_or(line)
                    .trim_end()
                    .to_owned(),
            }),
            Some(_) if parsed_ok => {
                (!footer_lines.contains(&(idx + 1))).then_some(BreakingChange::NotInFooters)
            }
            Some(rest) if rest.trim().is_empty() => Some(BreakingChange::NoSeparator),
            Some(rest) if rest.starts_with(char::is_whitespace) => {
                Some(BreakingChange::SpaceBeforeSeparator)
            }
            Some(rest) if matches!(rest.trim_end(), ":" | "#") => {
                Some(BreakingChange::NoDescription)
            }
            Some(_) => Some(BreakingChange::NoSpaceAfterColon),
        };
        if let Some(problem) = problem {
            out.push(Finding::new(pos, problem));
        }
    }
}

fn shorten(s: &str) -> String {
    if s.chars().count() > 60 {
        let head: String = s.chars().take(57).collect();
        format!("{head}…")
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    fn by_regex(line: &str) -> bool {
        regex::Regex::new(r"(?i:^breaking[ _-]?changes?\s*[:#])|^BREAKING[ -]CHANGE\s*$")
            .expect("the old pattern compiles")
            .is_match(line)
    }

    #[test]
    fn table() {
        for (line, want) in [
            ("BREAKING CHANGE: x", true),
            ("Breaking change: x", true),
            ("BREAKING-CHANGES #12", true),
            ("breakingchange:", true),
            ("breakingchange", false),
            ("BREAKING CHANGE", true),
            ("BREAKING-CHANGE  ", true),
            ("Breaking changes", false),
            ("BREAKING CHANGE was discussed at length", false),
            ("Breaking changes are listed below", false),
            ("BREAKING_CHANGE   :", true),
            ("BREAKING  CHANGE: x", false),
            ("breaking changed: x", false),
            ("Breaking news", false),
            ("", false),
        ] {
            assert_eq!(
                crate::message::parse::is_breaking_attempt(line),
                want,
                "{line:?}"
            );
            assert_eq!(by_regex(line), want, "{line:?}");
        }
    }

    proptest! {
        #[test]
        fn same_as_the_regex(line in "(breaking|BREAKING|Breaking|change|CHANGE|s|S|[ _:#\t-]|x){0,8}") {
            prop_assert_eq!(crate::message::parse::is_breaking_attempt(&line), by_regex(&line));
        }
    }
}
