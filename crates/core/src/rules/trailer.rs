//! Trailer rules: the trailer block's lines follow git's trailer syntax, and
//! breaking-change footers are spelled and placed so tools find them.

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

pub(crate) fn check(ctx: &Ctx<'_>, out: &mut Vec<Finding>) {
    let parsed = &ctx.parsed;
    for bad in &parsed.malformed_trailers {
        if is_breaking_attempt(&bad.value) {
            continue;
        }
        let (message, hint) = if bad.value.starts_with([' ', '\t']) {
            (
                "an indented line with no trailer before it".to_string(),
                "remove the indentation, or join it to the trailer it continues".to_string(),
            )
        } else {
            (
                format!("\"{}\" is not a trailer", shorten(&bad.value)),
                "write \"Token: value\" or \"Token #value\" (a token without spaces, e.g. \
                 \"Reviewed-by: Z\", \"Refs #12\"), or put prose before a blank line"
                    .to_string(),
            )
        };
        out.push(Finding::new(&TRAILER_FORMAT, bad.pos, message, Some(hint)));
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
        out.push(Finding::new(
            &TRAILER_FORMAT,
            *pos,
            "a trailer glued to the bullets is not a trailer to git",
            Some("put a blank line before the trailers".to_string()),
        ));
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
        let finding = match after {
            Some(_) if footer.is_some_and(|t| !t.value.value.is_empty()) => None,
            None => Some((
                format!(
                    "\"{}\" is not the breaking-change token",
                    line.split([':', '#']).next().unwrap_or(line).trim_end()
                ),
                format!("write {BREAKING_FORMS}, in upper case"),
            )),
            Some(_) if parsed_ok => (!footer_lines.contains(&(idx + 1))).then(|| {
                (
                    "the breaking-change footer is not in the footers at the end".to_string(),
                    "move it to the footers, after a blank line".to_string(),
                )
            }),
            Some(rest) if rest.trim().is_empty() => Some((
                "the breaking-change footer has no \":\" after its token".to_string(),
                format!("write {BREAKING_FORMS}"),
            )),
            Some(rest) if rest.starts_with(char::is_whitespace) => Some((
                "a space before the breaking-change footer's separator".to_string(),
                format!("write {BREAKING_FORMS}, with no space before the \":\""),
            )),
            Some(rest) if matches!(rest.trim_end(), ":" | "#") => Some((
                "the breaking-change footer has no description".to_string(),
                "write \"BREAKING CHANGE: \" followed by what breaks and how to migrate"
                    .to_string(),
            )),
            Some(_) => Some((
                "expected one space after the breaking-change footer's \":\"".to_string(),
                format!("write {BREAKING_FORMS}"),
            )),
        };
        if let Some((message, hint)) = finding {
            out.push(Finding::new(&BREAKING_CHANGE, pos, message, Some(hint)));
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
