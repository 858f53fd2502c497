//! Terminal conventions the binaries follow, read from the environment: `NO_COLOR`
//! (no-color.org: set and non-empty, no colour), `CLICOLOR=0` (no colour) and
//! `CLICOLOR_FORCE` (set, non-empty and not `0`: colour even off a terminal), from
//! bixense.com/clicolors, and `TERM=dumb` (a terminal without cursor control).
//! `NO_COLOR` wins over `CLICOLOR_FORCE`, as in anstream and most tools.

use std::ffi::OsString;

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
    fn escapes_and_dumb() {
        assert!(env(&[("TERM", "xterm")]).escapes());
        assert!(!env(&[("TERM", "dumb")]).escapes());
        assert!(env(&[("TERM", "dumb")]).dumb());
        assert!(!env(&[("NO_COLOR", "1")]).escapes());
        assert!(!env(&[("CLICOLOR", "0")]).escapes());
        assert!(!env(&[("NO_COLOR", "1")]).dumb());
    }
}
