//! Terminal conventions the binaries follow, read from the environment: `NO_COLOR`
//! (no-color.org: set and non-empty, no colour), `CLICOLOR=0` (no colour) and
//! `CLICOLOR_FORCE` (set, non-empty and not `0`: colour even off a terminal), from
//! bixense.com/clicolors, and `TERM=dumb` (a terminal without cursor control).
//! `NO_COLOR` wins over `CLICOLOR_FORCE`, as in anstream and most tools.

use std::borrow::Cow;
use std::ffi::OsString;

/// A character that must never reach a terminal from data (a subject, a scope, a file
/// name): the control characters (C0, DEL and the C1 range U+0080–U+009F, which start
/// ESC, CSI and OSC sequences on some terminals: OSC 52 writes the clipboard, OSC 8
/// makes links, OSC 0 retitles the window), the Unicode line and paragraph separators,
/// and the bidirectional controls, which reorder what is shown (U+202A–U+202E,
/// U+2066–U+2069, U+200E, U+200F, U+061C). The message renderer, the GitHub log writer
/// and every human output share it.
pub fn is_unprintable(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}'
                | '\u{2029}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2066}'..='\u{2069}'
                | '\u{200E}'
                | '\u{200F}'
                | '\u{061C}'
        )
}

/// `s` as text a terminal shows and never obeys: each [`is_unprintable`] character but
/// the newline and the tab is written as its escape, `\u{1b}`, so the reader sees that
/// it is there. Every human output of the binaries passes data from the repository
/// (subjects, scopes, paths, ref names) through it.
pub fn printable(s: &str) -> Cow<'_, str> {
    let bad = |c: char| c != '\n' && c != '\t' && is_unprintable(c);
    if !s.chars().any(bad) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if bad(c) {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// What the environment says about colour and escape sequences.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TermEnv {
    no_color: bool,
    clicolor_off: bool,
    clicolor_force: bool,
    dumb: bool,
}

impl TermEnv {
    /// The process environment's answer.
    pub fn from_env() -> Self {
        Self::from_lookup(|k| std::env::var_os(k))
    }

    /// The answer of an environment given as a lookup (tests).
    pub fn from_lookup(get: impl Fn(&str) -> Option<OsString>) -> Self {
        let set = |k: &str| get(k).filter(|v| !v.is_empty());
        TermEnv {
            no_color: set("NO_COLOR").is_some(),
            clicolor_off: get("CLICOLOR").is_some_and(|v| v == "0"),
            clicolor_force: set("CLICOLOR_FORCE").is_some_and(|v| v != "0"),
            dumb: get("TERM").is_some_and(|v| v == "dumb"),
        }
    }

    /// Whether output in automatic colour mode is coloured, for a stream that is or is
    /// not a terminal.
    pub fn colour(&self, is_terminal: bool) -> bool {
        if self.no_color {
            false
        } else if self.clicolor_force {
            true
        } else {
            is_terminal && !self.clicolor_off && !self.dumb
        }
    }

    /// `TERM=dumb`: no cursor control, so nothing that redraws a line.
    pub fn dumb(&self) -> bool {
        self.dumb
    }

    /// Whether escape sequences other than colour (clearing a line) may be written: not
    /// on a dumb terminal, nor when the user turned colour off.
    pub fn escapes(&self) -> bool {
        !self.dumb && !self.no_color && !self.clicolor_off
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> TermEnv {
        TermEnv::from_lookup(|k| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| OsString::from(v))
        })
    }

    #[test]
    fn colour_follows_no_color_clicolor_and_clicolor_force() {
        assert!(env(&[]).colour(true));
        assert!(!env(&[]).colour(false));
        assert!(!env(&[("NO_COLOR", "1")]).colour(true));
        assert!(env(&[("NO_COLOR", "")]).colour(true), "empty is unset");
        assert!(!env(&[("CLICOLOR", "0")]).colour(true));
        assert!(env(&[("CLICOLOR", "1")]).colour(true));
        assert!(env(&[("CLICOLOR_FORCE", "1")]).colour(false));
        assert!(env(&[("CLICOLOR_FORCE", "1"), ("CLICOLOR", "0")]).colour(false));
        assert!(!env(&[("CLICOLOR_FORCE", "0")]).colour(false));
        assert!(!env(&[("CLICOLOR_FORCE", "")]).colour(false));
        assert!(!env(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]).colour(false));
        assert!(!env(&[("TERM", "dumb")]).colour(true));
        assert!(env(&[("TERM", "dumb"), ("CLICOLOR_FORCE", "1")]).colour(true));
    }

    #[test]
    fn printable_escapes_every_control_and_bidi_character() {
        assert_eq!(printable("feat: plain — ü"), "feat: plain — ü");
        assert!(matches!(printable("a\nb\tc"), Cow::Borrowed(_)));
        assert_eq!(
            printable("x\u{1b}]52;c;aGk=\u{7}y"),
            "x\\u{1b}]52;c;aGk=\\u{7}y"
        );
        assert_eq!(
            printable("\u{9b}31m\u{9d}0;t\u{9c}"),
            "\\u{9b}31m\\u{9d}0;t\\u{9c}"
        );
        assert_eq!(printable("a\u{202e}b\u{2066}"), "a\\u{202e}b\\u{2066}");
        assert_eq!(printable("\r\u{7f}\u{0}"), "\\u{d}\\u{7f}\\u{0}");
        for c in (0u32..0x110000).filter_map(char::from_u32) {
            let shown = printable(&c.to_string()).into_owned();
            assert!(
                c == '\n' || c == '\t' || !shown.chars().any(is_unprintable),
                "{c:?} -> {shown:?}"
            );
        }
    }

    #[test]
    fn escapes_and_dumb() {
        assert!(env(&[("TERM", "xterm")]).escapes());
        assert!(!env(&[("TERM", "dumb")]).escapes());
        assert!(env(&[("TERM", "dumb")]).dumb());
        assert!(!env(&[("NO_COLOR", "1")]).escapes());
        assert!(!env(&[("CLICOLOR", "0")]).escapes());
        assert!(!env(&[("NO_COLOR", "1")]).dumb());
    }
}
