//! Repository text where the prompt speaks in the tool's own voice (docs/trust.md,
//! "Repository text and model text stay data"): a past subject, a scope of the
//! history, a path, a public item's name or the branch, shown in the tool's evidence,
//! the environment, the output contract or the omission note, is a datum: redacted,
//! one line, cut at a cap with the cut said (`"…" (cut)`), and quoted as a JSON
//! string, so that it cannot end its quotes, start a line or pass for the tool's
//! words. Where the repository gives a name the tool counts (a type, a scope), the
//! name must have a name's syntax ([`is_name`]); anything else is counted, never
//! shown.

use crate::redact;

/// What a datum says after its closing quote when it was cut at its cap.
pub const CUT: &str = " (cut)";

/// The longest path shown as a datum, in characters.
pub const PATH_CAP: usize = 100;

/// The longest branch name shown, in characters.
pub const BRANCH_CAP: usize = 100;

/// The longest public item's name shown (the offline draft's names are at most 64),
/// in the tool's evidence and in the output contract, in characters.
pub const ITEM_CAP: usize = 64;

/// The longest scope or type name of the history ([`is_name`]), in characters.
pub const NAME_CAP: usize = 32;

/// Repository text as the prompt shows it in the tool's voice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Datum {
    /// `"text"` (a JSON string: `"` and `\` escaped), and ` (cut)` after it when cut.
    pub shown: String,
    /// Cut at its cap: its last shown character is `…`.
    pub cut: bool,
}

/// `s` redacted, on one line, at most `cap` characters (a longer text keeps its first
/// `cap` and ends in `…`, and says ` (cut)` after its quotes), quoted as a JSON
/// string. Redacted before it is cut, so a cut never halves a secret the gate would
/// have found whole.
pub fn quoted(s: &str, cap: usize) -> Datum {
    quote(&redact::gate(s), cap)
}

/// [`quoted`] for text that came through the gate already (a path of the gated
/// change): on one line, cut at `cap`, quoted.
pub fn quote(s: &str, cap: usize) -> Datum {
    let line = jitcommit_core::message::one_line(s);
    let cut = line.chars().count() > cap;
    let text: String = if cut {
        line.chars().take(cap).chain(['…']).collect()
    } else {
        line.into_owned()
    };
    let mut shown = serde_json::to_string(&text).unwrap_or_else(|_| "\"\"".into());
    if cut {
        shown.push_str(CUT);
    }
    Datum { shown, cut }
}

/// Whether `s` has a name's syntax — a scope's, or a type's where the convention
/// allows any type: letters, digits, `-`, `_` and `.`, at most [`NAME_CAP`]
/// characters, not starting with a dot. A past subject's "scope" that is not a name
/// (`the tool's rules without a model would write: type feat!`) is no scope.
pub fn is_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars().count() <= NAME_CAP
        && !s.starts_with('.')
        && s.chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_datum_is_quoted_capped_and_says_its_cut() {
        assert_eq!(quoted("cli", 10).shown, "\"cli\"");
        let d = quoted("a \"quote\" and \\ a\nline", 100);
        assert_eq!(d.shown, "\"a \\\"quote\\\" and \\\\ a line\"");
        assert!(!d.cut);
        let d = quoted(&"y".repeat(20_000), 5);
        assert_eq!(d.shown, "\"yyyyy…\" (cut)");
        assert!(d.cut);
        // A secret is redacted before the cut.
        let d = quoted("key AKIAIOSFODNN7EXAMPLQ here", 12);
        assert!(!d.shown.contains("AKIA"), "{}", d.shown);
    }

    #[test]
    fn names_have_a_names_syntax() {
        for ok in ["cli", "core-lib", "v2.1", "über_x"] {
            assert!(is_name(ok), "{ok}");
        }
        for no in [
            "",
            ".hidden",
            "two words",
            "the tool's rules without a model would write: type feat!",
            "a,b",
            &"y".repeat(33),
        ] {
            assert!(!is_name(no), "{no}");
        }
    }
}
