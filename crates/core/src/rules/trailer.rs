//! Trailer rules: the trailer block's lines follow git's trailer syntax, and
//! breaking-change footers are spelled and placed so tools find them.

use super::{Ctx, Finding, RuleInfo};
use crate::message::{Pos, parse_trailer};

#[doc = include_str!("docs/trailer-format.md")]
pub const TRAILER_FORMAT: RuleInfo = RuleInfo {
    id: "trailer-format",
    summary: "trailers are `Token: value` in the last paragraph",
    doc: include_str!("docs/trailer-format.md"),
};

#[doc = include_str!("docs/breaking-change.md")]
pub const BREAKING_CHANGE: RuleInfo = RuleInfo {
    id: "breaking-change",
    summary: "breaking-change footers are `BREAKING CHANGE: …` in the trailer block",
    doc: include_str!("docs/breaking-change.md"),
};

/// Anything that means to be a breaking-change footer, in any spelling.
/// A line that tries to be a breaking-change footer, in any spelling: `breaking`, an
/// optional space, `_` or `-`, `change` or `changes`, optional whitespace, then `:`, `#`
/// or the end (what `(?i)^breaking[ _-]?changes?\s*(:|#|$)` matches). A hand scan: the
/// regex's compilation was a quarter of a commit-msg check's instructions.
fn is_breaking_attempt(line: &str) -> bool {
    fn strip_ci<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
        let head = s.get(..prefix.len())?;
        head.eq_ignore_ascii_case(prefix)
            .then(|| &s[prefix.len()..])
    }
    let Some(rest) = strip_ci(line, "breaking") else {
        return false;
    };
    let rest = rest.strip_prefix([' ', '_', '-']).unwrap_or(rest);
    let Some(rest) = strip_ci(rest, "change") else {
        return false;
    };
    let rest = strip_ci(rest, "s").unwrap_or(rest);
    let rest = rest.trim_start();
    rest.is_empty() || rest.starts_with([':', '#'])
}

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
                "write \"Token: value\" (a token without spaces, e.g. \"Reviewed-by: Z\"), \
                 indent a continuation line, or put prose before a blank line"
                    .to_string(),
            )
        };
        out.push(Finding::new(&TRAILER_FORMAT, bad.pos, message, Some(hint)));
    }
    for pos in &parsed.misplaced_trailers {
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
        let token_ok = line.starts_with("BREAKING CHANGE") || line.starts_with("BREAKING-CHANGE");
        let parsed_ok = parse_trailer(line)
            .is_some_and(|(t, _, _)| t == "BREAKING CHANGE" || t == "BREAKING-CHANGE");
        let after = line.get(15..).unwrap_or("");
        let finding = if !token_ok || !after.starts_with(':') {
            Some((
                format!(
                    "\"{}\" is not the breaking-change token",
                    line.split([':', '#']).next().unwrap_or(line).trim_end()
                ),
                "write \"BREAKING CHANGE: <what breaks>\" in upper case".to_string(),
            ))
        } else if !parsed_ok {
            Some((
                "the breaking-change footer has no description".to_string(),
                "write \"BREAKING CHANGE: \" followed by what breaks and how to migrate"
                    .to_string(),
            ))
        } else if !footer_lines.contains(&(idx + 1)) {
            Some((
                "the breaking-change footer is not in the trailer block at the end".to_string(),
                "move it to the last paragraph, after a blank line".to_string(),
            ))
        } else {
            None
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
        regex::Regex::new(r"(?i)^breaking[ _-]?changes?\s*(:|#|$)")
            .expect("the old pattern compiles")
            .is_match(line)
    }

    #[test]
    fn table() {
        for (line, want) in [
            ("BREAKING CHANGE: x", true),
            ("Breaking change: x", true),
            ("BREAKING-CHANGES #12", true),
            ("breakingchange", true),
            ("BREAKING_CHANGE   :", true),
            ("BREAKING  CHANGE: x", false),
            ("breaking changed: x", false),
            ("Breaking news", false),
            ("", false),
        ] {
            assert_eq!(super::is_breaking_attempt(line), want, "{line:?}");
            assert_eq!(by_regex(line), want, "{line:?}");
        }
    }

    proptest! {
        #[test]
        fn same_as_the_regex(line in "(breaking|BREAKING|Breaking|change|CHANGE|s|S|[ _:#\t-]|x){0,8}") {
            prop_assert_eq!(super::is_breaking_attempt(&line), by_regex(&line));
        }
    }
}
