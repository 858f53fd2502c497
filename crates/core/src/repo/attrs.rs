//! What `.gitattributes` says about a staged path, as far as the diff and the prompt
//! care: `-diff` and `binary` (git shows "Binary files … differ"), a diff driver's
//! `xfuncname` or git's built-in driver of that name ([`userdiff`]; git picks hunk
//! headers with it), and GitHub Linguist's
//! `linguist-generated` / `linguist-vendored` (git ignores them; the prompt shows such
//! files as stat lines only, like generated and vendored files it recognises by path).
//!
//! Attributes are read as git reads them when it diffs the index: the work tree's
//! `.gitattributes` files first, then the index's, plus `info/attributes` and
//! `core.attributesFile` (gix's attribute stack). A lookup that fails leaves the path
//! with no attributes: attributes refine the evidence, they never stop a draft.

use std::collections::HashMap;

use gix::bstr::{BStr, ByteSlice};
use regex::bytes::Regex;

use super::{Repo, userdiff};

/// The attributes of one path that change what jitcommit shows of it.
#[derive(Debug, Clone, Default)]
pub(crate) struct PathAttrs {
    /// `-diff` (also through the `binary` macro): no text diff.
    pub no_text_diff: bool,
    /// `linguist-generated` set.
    pub generated: bool,
    /// `linguist-vendored` set.
    pub vendored: bool,
    /// The diff driver's `xfuncname` (or `funcname`), compiled.
    pub funcname: Option<Funcname>,
}

/// A diff driver's funcname pattern: one regex per line of the setting, tried in turn;
/// a `!` line marks the lines it matches as not being headers.
#[derive(Debug, Clone)]
pub(crate) struct Funcname(Vec<(bool, Regex)>);

impl Funcname {
    /// Compiles pattern lines as git's `xdiff_set_find_func` does: a leading `!` negates
    /// a line, and the last line must not be negated. `None` when a line does not
    /// compile or the last one is negated (git refuses such a driver).
    pub(crate) fn compile<'p>(
        lines: impl IntoIterator<Item = &'p str>,
        icase: bool,
    ) -> Option<Self> {
        let mut out = Vec::new();
        for l in lines {
            let (negate, pattern) = match l.strip_prefix('!') {
                Some(rest) => (true, rest),
                None => (false, l),
            };
            let re = regex::bytes::RegexBuilder::new(pattern)
                .case_insensitive(icase)
                // Bytes, as regexec sees them: `.` also matches bytes that are not UTF-8.
                .unicode(false)
                .build()
                .ok()?;
            out.push((negate, re));
        }
        match out.last() {
            Some((false, _)) => Some(Funcname(out)),
            _ => None,
        }
    }

    /// git's funcname for `line` (`ff_regexp`): the line without its newline (and a CR
    /// before it) is tried against each pattern line in turn; a negated line that
    /// matches means "no header here", else the first matching line gives its first
    /// capture group if that matched, or the whole match. At most `max` bytes are kept,
    /// then trailing whitespace is cut.
    pub(crate) fn find<'a>(&self, line: &'a [u8], max: usize) -> Option<&'a [u8]> {
        let line = match line.strip_suffix(b"\n") {
            Some(l) => l.strip_suffix(b"\r").unwrap_or(l),
            None => line,
        };
        let (negate, caps) = self
            .0
            .iter()
            .find_map(|(neg, re)| re.captures(line).map(|c| (*neg, c)))?;
        if negate {
            return None;
        }
        let m = caps.get(1).or_else(|| caps.get(0))?;
        let s = &m.as_bytes()[..m.len().min(max)];
        Some(s.trim_end_with(|c| matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c')))
    }
}

/// One attribute stack for a run of lookups.
pub(crate) struct Lookup<'r> {
    repo: &'r Repo,
    stack: gix::AttributeStack<'r>,
    outcome: gix::attrs::search::Outcome,
    /// Compiled funcname pattern per diff driver (`None`: the driver has none, or it
    /// does not compile).
    drivers: HashMap<String, Option<Funcname>>,
}

impl<'r> Lookup<'r> {
    /// The attribute stack of `repo` over `index`; `None` when it cannot be set up.
    pub(crate) fn new(repo: &'r Repo, index: &gix::index::State) -> Option<Self> {
        use gix::worktree::stack::state::attributes::Source;
        let source = if repo.repo.workdir().is_some() {
            Source::WorktreeThenIdMapping
        } else {
            Source::IdMapping
        };
        let stack = repo.repo.attributes_only(index, source).ok()?;
        let outcome =
            stack.selected_attribute_matches(["diff", "linguist-generated", "linguist-vendored"]);
        Some(Lookup {
            repo,
            stack,
            outcome,
            drivers: HashMap::new(),
        })
    }

    /// The attributes of the file at `path` (relative to the work tree root).
    pub(crate) fn get(&mut self, path: &BStr) -> PathAttrs {
        use gix::attrs::StateRef;
        let mut out = PathAttrs::default();
        let Ok(platform) = self.stack.at_entry(path, None) else {
            return out;
        };
        if !platform.matching_attributes(&mut self.outcome) {
            return out;
        }
        let mut driver = None;
        for m in self.outcome.iter_selected() {
            let set = matches!(m.assignment.state, StateRef::Set)
                || matches!(m.assignment.state, StateRef::Value(v) if v.as_bstr() != "false");
            match m.assignment.name.as_str() {
                "diff" => match m.assignment.state {
                    StateRef::Unset => out.no_text_diff = true,
                    StateRef::Value(v) => driver = Some(v.as_bstr().to_str_lossy().into_owned()),
                    _ => {}
                },
                "linguist-generated" => out.generated = set,
                "linguist-vendored" => out.vendored = set,
                _ => {}
            }
        }
        if let Some(d) = driver {
            out.no_text_diff |= self.repo.config_bool(&format!("diff.{d}.binary")) == Some(true);
            out.funcname = self.funcname(&d);
        }
        out
    }

    /// `diff.<driver>.xfuncname` (an extended regex), else `diff.<driver>.funcname`,
    /// else the built-in driver of that name ([`userdiff`]): one pattern per line. The
    /// config wins over the built-in driver, as in git; an unknown name without a
    /// pattern (or a pattern that does not compile) gets git's default rule.
    fn funcname(&mut self, driver: &str) -> Option<Funcname> {
        if let Some(r) = self.drivers.get(driver) {
            return r.clone();
        }
        let pattern = self
            .repo
            .config_string(&format!("diff.{driver}.xfuncname"))
            .or_else(|| self.repo.config_string(&format!("diff.{driver}.funcname")));
        let compiled = match pattern {
            Some(p) => Funcname::compile(p.split('\n').filter(|l| !l.is_empty()), false),
            None => userdiff::builtin(driver)
                .and_then(|(lines, icase)| Funcname::compile(lines.iter().copied(), icase)),
        };
        self.drivers.insert(driver.to_string(), compiled.clone());
        compiled
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn funcname_takes_the_group_or_the_match_of_the_first_matching_line() {
        let f = Funcname::compile([r"^sub ([a-z]+)", r"!^fn main", r"^fn .*"], false).unwrap();
        assert_eq!(f.find(b"sub foo {\n", 80), Some(&b"foo"[..]));
        assert_eq!(f.find(b"fn x()  \n", 80), Some(&b"fn x()"[..]));
        assert_eq!(f.find(b"  fn x()\n", 80), None);
        assert_eq!(f.find(b"fn abcdef\n", 4), Some(&b"fn a"[..]));
        assert_eq!(f.find(b"fn main()\n", 80), None);
        assert_eq!(f.find(b"fn x()\r\n", 80), Some(&b"fn x()"[..]));
        // Cut to the limit first, then trimmed: git's order.
        assert_eq!(f.find(b"fn ab cd\n", 6), Some(&b"fn ab"[..]));
        assert!(Funcname::compile(["^a", "!^b"], false).is_none());
        assert!(Funcname::compile(["(unclosed"], false).is_none());
        let f = Funcname::compile(["^é(.*)"], false).unwrap();
        assert_eq!(f.find(b"\xc3\xa9x\xff\n", 80), Some(&b"x\xff"[..]));
    }
}
