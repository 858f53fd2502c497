//! What git tells a hook through its environment and config: `GIT_CONFIG_PARAMETERS`,
//! the comment prefix, and git's message cleanup.
//!
//! Everything here is a pure function over text: the caller reads the environment
//! and the config files, these functions reproduce what git 2.47 does with them
//! (`config.c` for `core.commentChar` / `core.commentString`, `strbuf_stripspace` and
//! `wt_status_locate_end` for the cleanup), so the validator checks a message as git
//! will store it, and [`as_git_shows`] decodes a stored message as `git log` shows it.
//! `tests/cleanup.rs` checks each claim against the real git.

use std::borrow::Cow;

/// The text git's scissors line carries after the comment prefix and one space.
const CUT_LINE: &str = "------------------------ >8 ------------------------";

/// The characters `core.commentChar=auto` picks from, in git's order (git takes the
/// first that no line of the prepared message starts with).
pub const AUTO_CANDIDATES: &str = "#;@!$%^&|:";

/// The comment prefix git uses for the message file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommentPrefix {
    /// A fixed prefix: `#` by default, or the configured character or string (git ≥ 2.45
    /// allows several characters).
    Fixed(String),
    /// `auto`: git chose a character from [`AUTO_CANDIDATES`] per message; which one
    /// can only be told from git's own comment lines in the file ([`CommentPrefix::resolve`]).
    Auto,
}

impl Default for CommentPrefix {
    fn default() -> Self {
        CommentPrefix::Fixed("#".to_owned())
    }
}

impl CommentPrefix {
    /// The prefix that comment lines of `text` (a message file git prepared) start
    /// with. For [`CommentPrefix::Auto`] it is the candidate that git's own scissors
    /// line or "Lines starting with 'X' will be …" help line shows (the last such line
    /// in the file); `None` when no such line is there, and then no line of `text` is
    /// taken for a comment.
    pub fn resolve(&self, text: &str) -> Option<&str> {
        match self {
            CommentPrefix::Fixed(p) => Some(p),
            CommentPrefix::Auto => detect_auto(text),
        }
    }

    /// The prefix for comment lines a prepare-commit-msg hook adds to `text`, the file
    /// git prepared for it: the one git strips. For [`CommentPrefix::Auto`], the
    /// character git chose for this message, read back from git's own lines when
    /// `git_commented` (git wrote its help and status comments, which
    /// `commit.status=false` turns off): its scissors or help line as in
    /// [`CommentPrefix::resolve`], else the first character of the status comments
    /// closing the file (a translated git's help line is not recognised). When git wrote
    /// no comments, git's own choice for `text`, [`auto_choice`].
    pub fn for_prepared(&self, text: &str, git_commented: bool) -> &str {
        match self {
            CommentPrefix::Fixed(p) => p,
            CommentPrefix::Auto if git_commented => detect_auto(text)
                .or_else(|| closing_comment(text))
                .unwrap_or_else(|| auto_choice(text)),
            CommentPrefix::Auto => auto_choice(text),
        }
    }
}

/// The candidate the last non-blank line of `text` starts with: git appends its status
/// comments after the message, so without `-v` its last line is one of them.
fn closing_comment(text: &str) -> Option<&'static str> {
    let last = text.lines().rev().find(|l| !l.trim().is_empty())?;
    candidates().find(|c| last.starts_with(c))
}

/// The character `core.commentChar=auto` makes git choose for `message` (builtin/commit.c's
/// `adjust_comment_line_char`): the first of [`AUTO_CANDIDATES`] that no line starts
/// with, where a line starts at the beginning or after a `\n` or a `\r`. `#` when every
/// candidate is taken (git then refuses to commit).
pub fn auto_choice(message: &str) -> &'static str {
    let b = message.as_bytes();
    let line_starts = b
        .iter()
        .enumerate()
        .filter(|&(i, _)| i == 0 || matches!(b[i - 1], b'\n' | b'\r'))
        .map(|(_, c)| *c);
    let mut taken = [false; AUTO_CANDIDATES.len()];
    for c in line_starts {
        if let Some(i) = AUTO_CANDIDATES.bytes().position(|x| x == c) {
            taken[i] = true;
        }
    }
    candidates()
        .zip(taken)
        .find_map(|(c, t)| (!t).then_some(c))
        .unwrap_or("#")
}

fn candidates() -> impl Iterator<Item = &'static str> {
    (0..AUTO_CANDIDATES.len()).filter_map(|i| AUTO_CANDIDATES.get(i..=i))
}

/// Finds the `auto` comment character from git's own lines: its scissors line, or
/// the help line of the commit template ("Lines starting with 'X' will be …"). git
/// appends these after the message text, so the last such line is git's, even when
/// the text above quotes a line that looks like one.
fn detect_auto(text: &str) -> Option<&'static str> {
    text.split('\n')
        .rev()
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .find_map(|l| {
            candidates().find(|c| {
                l.starts_with(c)
                    && (l == scissors_line(c)
                        || l.contains(&format!("with '{c}' will be"))
                        || l.starts_with(&format!("{c} Please enter")))
            })
        })
}

/// The comment prefix from `core.commentString` and `core.commentChar`.
///
/// git treats the two keys as synonyms: whichever it reads last wins, and `auto`
/// (any case) means [`CommentPrefix::Auto`]. Given just the two values, without their
/// order, `core.commentString` wins: it is the newer name, and a user who sets it means
/// it over an older `commentChar`. Use [`comment_prefix_from_entries`] when the order is
/// known. An empty value or one with a newline makes git refuse to run; it is ignored
/// here. Neither set: `#`.
pub fn comment_prefix(comment_string: Option<&str>, comment_char: Option<&str>) -> CommentPrefix {
    [comment_string, comment_char]
        .into_iter()
        .flatten()
        .find_map(prefix_value)
        .unwrap_or_default()
}

fn prefix_value(value: &str) -> Option<CommentPrefix> {
    if value.is_empty() || value.contains('\n') {
        None
    } else if value.eq_ignore_ascii_case("auto") {
        Some(CommentPrefix::Auto)
    } else {
        Some(CommentPrefix::Fixed(value.to_owned()))
    }
}

/// The comment prefix from config entries `(key, value)` in the order git reads them
/// (system, global, local, worktree files, then `GIT_CONFIG_PARAMETERS`): the last
/// `core.commentChar` or `core.commentString` wins, as in git. Keys compare
/// case-insensitively; a key without a value (`None`) is an error in git and ignored.
pub fn comment_prefix_from_entries<'a>(
    entries: impl IntoIterator<Item = (&'a str, Option<&'a str>)>,
) -> CommentPrefix {
    entries
        .into_iter()
        .filter(|(k, _)| {
            k.eq_ignore_ascii_case("core.commentchar")
                || k.eq_ignore_ascii_case("core.commentstring")
        })
        .filter_map(|(_, v)| v.and_then(prefix_value))
        .last()
        .unwrap_or_default()
}

/// Why `GIT_CONFIG_PARAMETERS` could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigParametersError {
    /// A single-quoted string was opened and never closed.
    #[error("GIT_CONFIG_PARAMETERS: unterminated quote starting at byte {at}")]
    Unterminated {
        /// Byte offset of the opening quote.
        at: usize,
    },
    /// Something other than a quoted string where git writes one.
    #[error("GIT_CONFIG_PARAMETERS: expected a single-quoted string at byte {at}")]
    ExpectedQuote {
        /// Byte offset of the offending character.
        at: usize,
    },
    /// A key without a dot (`git -c` refuses these, so the variable was not written by git).
    #[error("GIT_CONFIG_PARAMETERS: invalid key {key:?}")]
    InvalidKey {
        /// The key as found.
        key: String,
    },
}

/// Parses `GIT_CONFIG_PARAMETERS` as git writes it for `git -c k=v`: whitespace-separated
/// entries `'key'='value'` (value shell-quoted, `'\''` for a quote), `'key'=` for a key
/// given without `=` (git's implicit `true`, returned as `None`), and the older `'key=value'`
/// and `'key'` forms. Keys come back as typed; compare them with [`config_key_eq`].
pub fn parse_config_parameters(
    text: &str,
) -> Result<Vec<(String, Option<String>)>, ConfigParametersError> {
    let b = text.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= b.len() {
            break;
        }
        let (first, next) = dequote(text, i)?;
        i = next;
        let (key, value) = if i < b.len() && b[i] == b'=' {
            // New form: 'key'='value' or 'key'= (no value).
            i += 1;
            if i >= b.len() || b[i].is_ascii_whitespace() {
                (first, None)
            } else {
                let (v, next) = dequote(text, i)?;
                i = next;
                (first, Some(v))
            }
        } else {
            // Old form: 'key=value' or 'key'.
            match first.split_once('=') {
                Some((k, v)) => (k.to_owned(), Some(v.to_owned())),
                None => (first, None),
            }
        };
        if i < b.len() && !b[i].is_ascii_whitespace() {
            return Err(ConfigParametersError::ExpectedQuote { at: i });
        }
        if !key.contains('.') || key.starts_with('.') || key.ends_with('.') {
            return Err(ConfigParametersError::InvalidKey { key });
        }
        out.push((key, value));
    }
    Ok(out)
}

/// Reads one shell-quoted word starting at `start` (`'a'\''b'` → `a'b`), returning it and the
/// offset after it. The word ends at whitespace, `=` or the end.
fn dequote(text: &str, start: usize) -> Result<(String, usize), ConfigParametersError> {
    let b = text.as_bytes();
    let mut i = start;
    let mut out = String::new();
    if b.get(i) != Some(&b'\'') {
        return Err(ConfigParametersError::ExpectedQuote { at: i });
    }
    loop {
        match b.get(i) {
            Some(b'\'') => {
                let open = i;
                i += 1;
                let Some(len) = b[i..].iter().position(|&c| c == b'\'') else {
                    return Err(ConfigParametersError::Unterminated { at: open });
                };
                // Quotes are ASCII, so these offsets are char boundaries.
                out.push_str(&text[i..i + len]);
                i += len + 1;
            }
            Some(b'\\') if matches!(b.get(i + 1), Some(b'\'' | b'!')) => {
                out.push(char::from(b[i + 1]));
                i += 2;
            }
            _ => return Ok((out, i)),
        }
    }
}

/// git's scissors line for `prefix`: the line `commit -v` and `--cleanup=scissors`
/// cut the message at.
pub fn scissors_line(prefix: &str) -> String {
    format!("{prefix} {CUT_LINE}")
}

/// `text` up to (not including) the scissors line for `prefix`. As in git, the line
/// must be exactly the scissors line ending in `\n` (a `\r\n` ending does not count).
/// Bytes, which need not be UTF-8: the cut is just after a `\n`, so a UTF-8 text
/// stays UTF-8.
pub fn cut_at_scissors<'a>(text: &'a [u8], prefix: &str) -> &'a [u8] {
    let line = format!("{}\n", scissors_line(prefix));
    let line = line.as_bytes();
    if text.starts_with(line) {
        return &[];
    }
    let mut at = 0;
    for piece in text.split_inclusive(|b| *b == b'\n') {
        if piece == line {
            return &text[..at];
        }
        at += piece.len();
    }
    text
}

/// git's `strbuf_stripspace`: drops lines starting with `comment` (when given),
/// strips trailing whitespace (space, tab, CR) from each line, collapses runs of
/// blank lines into one, drops leading and trailing blank lines and ends the text
/// with one `\n` (or returns an empty string when nothing is left).
pub fn stripspace(text: &str, comment: Option<&str>) -> String {
    // Dropping whole lines and trailing ASCII whitespace keeps UTF-8 valid.
    String::from_utf8_lossy(&stripspace_bytes(text.as_bytes(), comment)).into_owned()
}

/// [`stripspace`] over bytes that need not be UTF-8, as git does it.
pub fn stripspace_bytes(text: &[u8], comment: Option<&str>) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() + 1);
    let mut empties = 0usize;
    let mut lines = text.split(|b| *b == b'\n');
    // A final "\n" leaves an empty last piece that is not a line.
    if text.ends_with(b"\n") || text.is_empty() {
        lines.next_back();
    }
    for line in lines {
        if comment.is_some_and(|c| line.starts_with(c.as_bytes())) {
            continue;
        }
        let end = line
            .iter()
            .rposition(|b| !matches!(b, b' ' | b'\t' | b'\r'))
            .map_or(0, |i| i + 1);
        let kept = &line[..end];
        if kept.is_empty() {
            empties += 1;
            continue;
        }
        if empties > 0 && !out.is_empty() {
            out.push(b'\n');
        }
        empties = 0;
        out.extend_from_slice(kept);
        out.push(b'\n');
    }
    out
}

/// git's cleanup modes (`--cleanup=`, `commit.cleanup`), after `default` is resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CleanupMode {
    /// `strip`: comment lines dropped, whitespace stripped (`default` when an editor ran).
    Strip,
    /// `whitespace`: whitespace stripped, comment lines kept (`default` without an editor).
    Whitespace,
    /// `scissors`: like `whitespace`, but the text is cut at the scissors line.
    Scissors,
    /// `verbatim`: stored as it is.
    Verbatim,
}

impl CleanupMode {
    /// The mode a `--cleanup=` value or `commit.cleanup` names; `default` (or an unknown
    /// value, which git refuses) resolves by whether an editor runs.
    pub fn from_setting(value: Option<&str>, editor: bool) -> CleanupMode {
        match value.map(str::trim) {
            Some("strip") => CleanupMode::Strip,
            Some("whitespace") => CleanupMode::Whitespace,
            Some("scissors") => CleanupMode::Scissors,
            Some("verbatim") => CleanupMode::Verbatim,
            _ if editor => CleanupMode::Strip,
            _ => CleanupMode::Whitespace,
        }
    }
}

/// Everything git's `cleanup_message` needs: the mode, whether `-v` (`commit.verbose`)
/// put a diff below a scissors line, and the comment prefix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageCleanup {
    /// The resolved mode.
    pub mode: CleanupMode,
    /// `git commit -v`: the text is cut at the scissors line whatever the mode.
    pub verbose: bool,
    /// The comment prefix.
    pub prefix: CommentPrefix,
}

impl MessageCleanup {
    /// The message git will store from the raw message file `raw` (sequencer.c's
    /// `cleanup_message`): cut at the scissors line with `-v` or in scissors mode, then
    /// strip whitespace (and comments in strip mode) unless verbatim. Bytes in, bytes out:
    /// whether what git stores is UTF-8 is decided on this, not on the raw file.
    pub fn apply(&self, raw: &[u8]) -> Vec<u8> {
        let lossy = String::from_utf8_lossy(raw);
        let prefix = self.prefix.resolve(&lossy);
        let cut = match prefix {
            Some(p) if self.verbose || self.mode == CleanupMode::Scissors => {
                cut_at_scissors(raw, p)
            }
            _ => raw,
        };
        match self.mode {
            CleanupMode::Verbatim => cut.to_vec(),
            CleanupMode::Strip => stripspace_bytes(cut, prefix),
            CleanupMode::Whitespace | CleanupMode::Scissors => stripspace_bytes(cut, None),
        }
    }
}

/// git's default cleanup of a message that went through an editor (`strip` mode) with
/// `-v`: cut at the scissors line, drop comment lines, strip whitespace. This is the text
/// git stores, so it is what the validator checks: [`MessageCleanup::apply`] on text.
pub fn cleanup(text: &str, prefix: &CommentPrefix) -> String {
    let how = MessageCleanup {
        mode: CleanupMode::Strip,
        verbose: true,
        prefix: prefix.clone(),
    };
    // Dropping whole lines and trailing ASCII whitespace keeps UTF-8 valid.
    String::from_utf8_lossy(&how.apply(text.as_bytes())).into_owned()
}

/// git's `whitespace` cleanup mode (a message given with `-m` or `-F` and no editor):
/// whitespace is stripped, comment lines are kept.
pub fn cleanup_whitespace(text: &str) -> String {
    stripspace(text, None)
}

/// A commit message as git presents it (`git log`, `git show`: re-encoded from the
/// commit's `encoding` header to UTF-8), from its stored bytes `raw` and that header's
/// value: `Ok` with the text's bytes (unchanged when there is no header, it names
/// UTF-8, or the bytes do not decode, where git too shows them as stored), or
/// `Err(name)` when the header names an encoding this tool cannot decode.
pub fn as_git_shows<'a>(raw: &'a [u8], encoding: Option<&[u8]>) -> Result<Cow<'a, [u8]>, String> {
    let Some(label) = encoding else {
        return Ok(Cow::Borrowed(raw));
    };
    let name = String::from_utf8_lossy(label).trim().to_owned();
    let lower = name.to_ascii_lowercase();
    // git's `is_encoding_utf8`.
    if lower == "utf-8" || lower == "utf8" {
        return Ok(Cow::Borrowed(raw));
    }
    // iconv's ISO-8859-1 maps every byte to the code point of its value; the WHATWG
    // label of that name is windows-1252, which differs at 0x80..=0x9f.
    if matches!(
        lower.as_str(),
        "iso-8859-1" | "iso8859-1" | "iso_8859-1" | "latin1" | "latin-1" | "l1"
    ) {
        return Ok(Cow::Owned(
            raw.iter()
                .map(|&b| char::from(b))
                .collect::<String>()
                .into_bytes(),
        ));
    }
    let Some(enc) = encoding_rs::Encoding::for_label_no_replacement(name.as_bytes()) else {
        return Err(name);
    };
    if enc == encoding_rs::UTF_8 || enc == encoding_rs::UTF_16LE || enc == encoding_rs::UTF_16BE {
        // UTF-16 cannot hold a commit message git wrote (every other byte a NUL).
        return match enc == encoding_rs::UTF_8 {
            true => Ok(Cow::Borrowed(raw)),
            false => Err(name),
        };
    }
    match enc.decode_without_bom_handling_and_without_replacement(raw) {
        Some(text) => Ok(Cow::Owned(text.into_owned().into_bytes())),
        None => Ok(Cow::Borrowed(raw)),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn fixed(p: &str) -> CommentPrefix {
        CommentPrefix::Fixed(p.to_owned())
    }

    #[test]
    fn comment_prefix_precedence() {
        let cases: &[(Option<&str>, Option<&str>, CommentPrefix)] = &[
            (None, None, fixed("#")),
            (None, Some(";"), fixed(";")),
            (Some("//"), None, fixed("//")),
            (Some("//"), Some(";"), fixed("//")),
            (None, Some("auto"), CommentPrefix::Auto),
            (Some("AUTO"), Some(";"), CommentPrefix::Auto),
            (Some(""), Some(";"), fixed(";")),
            (Some("a\nb"), None, fixed("#")),
        ];
        for (s, c, want) in cases {
            assert_eq!(&comment_prefix(*s, *c), want, "{s:?} {c:?}");
        }
    }

    #[test]
    fn last_config_entry_wins() {
        type Entries<'a> = &'a [(&'a str, Option<&'a str>)];
        let cases: &[(Entries<'_>, CommentPrefix)] = &[
            (&[], fixed("#")),
            (
                &[
                    ("core.commentString", Some("//")),
                    ("core.commentchar", Some(";")),
                ],
                fixed(";"),
            ),
            (
                &[
                    ("core.commentChar", Some(";")),
                    ("CORE.COMMENTSTRING", Some("//")),
                ],
                fixed("//"),
            ),
            (
                &[
                    ("core.commentChar", Some(";")),
                    ("core.commentChar", Some("auto")),
                ],
                CommentPrefix::Auto,
            ),
            (
                &[("core.commentChar", Some(";")), ("core.commentChar", None)],
                fixed(";"),
            ),
            (&[("core.editor", Some("vi"))], fixed("#")),
        ];
        for (entries, want) in cases {
            assert_eq!(
                &comment_prefix_from_entries(entries.iter().copied()),
                want,
                "{entries:?}"
            );
        }
    }

    #[test]
    fn config_parameters_parse_like_git_writes_them() {
        // As printed by git 2.47 for: -c alias.p='!…' -c core.commentChar=';'
        // -c core.commentString="it's" -c foo.Bar.baz -c x.y=
        let value = r#"'alias.p'=''\!'printf "%s\n"' 'core.commentChar'=';' 'core.commentString'='it'\''s' 'foo.Bar.baz'= 'x.y'='' 'old.style=v=w' 'old.bool'"#;
        let got = parse_config_parameters(value).unwrap();
        let want: Vec<(String, Option<String>)> = [
            ("alias.p", Some("!printf \"%s\\n\"")),
            ("core.commentChar", Some(";")),
            ("core.commentString", Some("it's")),
            ("foo.Bar.baz", None),
            ("x.y", Some("")),
            ("old.style", Some("v=w")),
            ("old.bool", None),
        ]
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.map(str::to_owned)))
        .collect();
        assert_eq!(got, want);
        assert_eq!(parse_config_parameters("").unwrap(), []);
        for bad in ["'unterminated", "noquote", "'a''b'x", "'a'='b'c"] {
            assert!(parse_config_parameters(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn auto_is_told_from_gits_own_lines() {
        let cases: &[(&str, Option<&str>)] = &[
            (
                "x\n\n# Please enter the commit message for your changes. Lines starting\n# with '#' will be ignored, and an empty message aborts the commit.\n",
                Some("#"),
            ),
            (
                "#1 x\n\n; Please enter the commit message for your changes. Lines starting\n; with ';' will be ignored, and an empty message aborts the commit.\n",
                Some(";"),
            ),
            (
                "x\n@ ------------------------ >8 ------------------------\ndiff\n",
                Some("@"),
            ),
            (
                "x\r\n; ------------------------ >8 ------------------------\r\n",
                Some(";"),
            ),
            ("x\n# just a line\n", None),
            // A quoted scissors line above git's own lines does not fool it.
            (
                "x\n# ------------------------ >8 ------------------------\ny\n; with ';' will be ignored\n",
                Some(";"),
            ),
        ];
        for (text, want) in cases {
            assert_eq!(CommentPrefix::Auto.resolve(text), *want, "{text:?}");
        }
        assert_eq!(cleanup("x\n# kept\n", &CommentPrefix::Auto), "x\n# kept\n");
    }

    #[test]
    fn a_hook_gets_the_prefix_git_chose() {
        let plain = "\n# Please enter the commit message for your changes. Lines starting\n# with '#' will be ignored.\n#\n# Changes to be committed:\n#\tnew file:   a\n#\n";
        // As git 2.39 writes it with LC_ALL=de_DE.UTF-8: the help line is translated.
        let german = "#hashtag\n\n; Bitte geben Sie eine Commit-Beschreibung f\u{fc}r Ihre \u{c4}nderungen ein. Zeilen,\n; die mit ';' beginnen, werden ignoriert, und eine leere Beschreibung\n; bricht den Commit ab.\n;\n; Auf Branch master\n;\n; Zum Commit vorgemerkte \u{c4}nderungen:\n;\tneue Datei:     a\n;\n";
        let quoted_cut = "Fix it\n# ------------------------ >8 ------------------------\n\n; Please enter\n;\n; ------------------------ >8 ------------------------\n; x\ndiff\n+y\n";
        let cases: &[(&str, bool, &str)] = &[
            (plain, true, "#"),
            (&plain.replace('#', ";"), true, ";"),
            (german, true, ";"),
            (
                &german
                    .replacen(';', "#", 99)
                    .replacen("#hashtag", "text", 1),
                true,
                "#",
            ),
            // git's own scissors line is its last one.
            (quoted_cut, true, ";"),
            // No comments from git: its own choice.
            ("", true, "#"),
            ("", false, "#"),
            ("#tag\nplain\n", true, ";"),
            ("#tag\n", false, ";"),
            ("a\r#b\n", false, ";"),
            ("a # b\n", false, "#"),
            ("#\n;\n@\n!\n$\n%\n^\n&\n|\n:\n", false, "#"),
        ];
        for (text, commented, want) in cases {
            assert_eq!(
                CommentPrefix::Auto.for_prepared(text, *commented),
                *want,
                "{text:?} {commented}"
            );
        }
        assert_eq!(fixed("//").for_prepared("; x\n", true), "//");
    }

    #[test]
    fn stripspace_table() {
        let cases: &[(&str, Option<&str>, &str)] = &[
            ("", Some("#"), ""),
            ("\n\n  \n", None, ""),
            ("a", None, "a\n"),
            ("a  \t\r\n\n\n\nb\n\n", None, "a\n\nb\n"),
            ("# c\na\n#\n\n#x\n\nb\n", Some("#"), "a\n\nb\n"),
            ("a\n # indented\n", Some("#"), "a\n # indented\n"),
            ("a\n// c\n/ not\n", Some("//"), "a\n/ not\n"),
            ("a\u{a0}\n", None, "a\u{a0}\n"),
        ];
        for (text, comment, want) in cases {
            assert_eq!(stripspace(text, *comment), *want, "{text:?}");
        }
    }

    #[test]
    fn scissors_cut_needs_the_whole_line() {
        let s = scissors_line("#");
        let cut = |text: String| {
            String::from_utf8_lossy(cut_at_scissors(text.as_bytes(), "#")).into_owned()
        };
        assert_eq!(cut(format!("a\n{s}\nb\n")), "a\n");
        assert_eq!(cut(format!("{s}\nb\n")), "");
        assert_eq!(cut(format!("a\n{s} \nb\n")), format!("a\n{s} \nb\n"));
        assert_eq!(cut(format!("a\n{s}")), format!("a\n{s}"));
        assert_eq!(cut(format!("a\n {s}\nb\n")), format!("a\n {s}\nb\n"));
        // Not UTF-8 on either side: the cut is on bytes.
        assert_eq!(
            cut_at_scissors(&[b"a\xe9\n", s.as_bytes(), b"\n\xff\n"].concat(), "#"),
            b"a\xe9\n"
        );
    }
}

#[cfg(test)]
mod encoding_tests {
    use super::as_git_shows;

    #[test]
    fn messages_read_as_git_presents_them() {
        let utf8 = "fix: café\n".as_bytes();
        assert_eq!(as_git_shows(utf8, None).unwrap(), utf8);
        assert_eq!(as_git_shows(utf8, Some(b"UTF-8")).unwrap(), utf8);
        assert_eq!(as_git_shows(utf8, Some(b"utf8")).unwrap(), utf8);
        // Latin-1 bytes, decoded by code point (0x80..=0x9f included).
        assert_eq!(
            as_git_shows(b"fix: caf\xe9 \x85\n", Some(b"ISO-8859-1")).unwrap(),
            "fix: café \u{85}\n".as_bytes()
        );
        assert_eq!(
            as_git_shows(b"fix: \x82\xa0\n", Some(b"Shift_JIS")).unwrap(),
            "fix: あ\n".as_bytes()
        );
        // Bytes that do not decode are shown as stored, as git shows them.
        assert_eq!(
            as_git_shows(b"fix: \x82\n", Some(b"Shift_JIS")).unwrap(),
            &b"fix: \x82\n"[..]
        );
        for name in ["IBM037", "EBCDIC-US", "UTF-16", "no-such-encoding", ""] {
            assert_eq!(
                as_git_shows(b"fix: x\n", Some(name.as_bytes())),
                Err(name.to_owned()),
                "{name}"
            );
        }
    }
}
