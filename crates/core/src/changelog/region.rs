//! The generated region of a hand-kept CHANGELOG: the text between two marker lines,
//! replaced on `--write`, compared on `--check`; everything outside is the project's.
//!
//! The begin marker records the commit the region was generated through, so a check
//! can derive the same text from the history later: a commit cannot contain its own id,
//! so the file always lags its own commit by at least that one.

use crate::repo::ObjectId;

/// The start of the begin marker line.
pub const BEGIN: &str = "<!-- jitcommit changelog begin";
/// The end marker line.
pub const END: &str = "<!-- jitcommit changelog end -->";

/// What a fresh CHANGELOG.md holds above the generated region.
pub const PREAMBLE: &str = "# Changelog\n\nAll notable changes to this project, computed from its commit history by\n`jitcommit changelog`. The format follows [Keep a Changelog](https://keepachangelog.com/en/1.1.0/);\nversions follow [Semantic Versioning](https://semver.org/spec/v2.0.0.html).\n\n";

/// The markup of a changelog file: its marker lines are comments of that markup,
/// and a new file starts with its preamble.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Markup {
    /// Markdown: HTML comments.
    Markdown,
    /// reStructuredText: `..` comments.
    Rst,
}

/// The start of the reStructuredText begin marker line.
pub const RST_BEGIN: &str = ".. jitcommit changelog begin";
/// The reStructuredText end marker line.
pub const RST_END: &str = ".. jitcommit changelog end";

/// What a fresh CHANGELOG.rst holds above the generated region.
pub const RST_PREAMBLE: &str = "=========\nChangelog\n=========\n\nAll notable changes to this project, computed from its commit history by\n``jitcommit changelog``. Versions follow `Semantic Versioning <https://semver.org/spec/v2.0.0.html>`_.\n\n";

impl Markup {
    /// The start of the begin marker line.
    pub fn begin(self) -> &'static str {
        match self {
            Markup::Markdown => BEGIN,
            Markup::Rst => RST_BEGIN,
        }
    }

    /// The end marker line.
    pub fn end(self) -> &'static str {
        match self {
            Markup::Markdown => END,
            Markup::Rst => RST_END,
        }
    }

    fn close(self) -> &'static str {
        match self {
            Markup::Markdown => " -->",
            Markup::Rst => "",
        }
    }

    fn preamble(self) -> &'static str {
        match self {
            Markup::Markdown => PREAMBLE,
            Markup::Rst => RST_PREAMBLE,
        }
    }
}

/// A file's text split around its generated region.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Region<'a> {
    /// Everything before the begin marker line.
    pub before: &'a str,
    /// The region, marker lines included (with the end marker's newline, if any).
    pub block: &'a str,
    /// Everything after it.
    pub after: &'a str,
    /// The commit the region was generated through, from the begin marker.
    pub through: Option<ObjectId>,
    /// 1-based line of the begin marker.
    pub line: usize,
}

/// The markers are broken: the error names the line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegionError {
    /// A begin marker with no end marker after it.
    #[error("line {line}: `{begin} …` has no `{end}` after it")]
    Unterminated {
        /// The begin marker's line.
        line: usize,
        /// The begin marker of the file's markup.
        begin: &'static str,
        /// The end marker of the file's markup.
        end: &'static str,
    },
    /// An end marker without a begin marker before it.
    #[error("line {line}: `{end}` has no begin marker before it")]
    StrayEnd {
        /// The end marker's line.
        line: usize,
        /// The end marker of the file's markup.
        end: &'static str,
    },
    /// More than one region.
    #[error("line {line}: a second generated region (only one is kept)")]
    Second {
        /// The second begin marker's line.
        line: usize,
    },
}

/// The begin marker line, in `markup`, for a region generated through `through`.
pub fn begin_line(markup: Markup, through: Option<&ObjectId>) -> String {
    let (begin, close) = (markup.begin(), markup.close());
    match through {
        Some(id) => format!("{begin} (generated through {id}; edit outside these markers){close}"),
        None => format!("{begin} (edit outside these markers){close}"),
    }
}

/// The whole region, in `markup`, for the generated `body`.
pub fn block(markup: Markup, body: &str, through: Option<&ObjectId>) -> String {
    let mut s = begin_line(markup, through);
    s.push_str("\n\n");
    if !body.is_empty() {
        s.push_str(body);
        if !body.ends_with('\n') {
            s.push('\n');
        }
        s.push('\n');
    }
    s.push_str(markup.end());
    s.push('\n');
    s
}

fn through_of(line: &str) -> Option<ObjectId> {
    let rest = &line[line.find("generated through ")? + "generated through ".len()..];
    let hex: String = rest.chars().take_while(char::is_ascii_hexdigit).collect();
    ObjectId::from_hex(hex.as_bytes()).ok()
}

/// Finds the region of `text`, written in `markup`; `Ok(None)` when it has none.
pub fn find(markup: Markup, text: &str) -> Result<Option<Region<'_>>, RegionError> {
    let (begin_marker, end_marker) = (markup.begin(), markup.end());
    let mut offset = 0;
    let mut begin: Option<(usize, usize, &str)> = None;
    let mut found: Option<Region<'_>> = None;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        let no = n + 1;
        let bare = line.trim_end_matches(['\n', '\r']);
        let start = offset;
        offset += line.len();
        if bare.starts_with(begin_marker) {
            if begin.is_some() || found.is_some() {
                return Err(RegionError::Second { line: no });
            }
            begin = Some((start, no, bare));
        } else if bare == end_marker {
            let Some((b, line, marker)) = begin.take() else {
                return Err(RegionError::StrayEnd {
                    line: no,
                    end: end_marker,
                });
            };
            found = Some(Region {
                before: &text[..b],
                block: &text[b..offset],
                after: &text[offset..],
                through: through_of(marker),
                line,
            });
        }
    }
    if let Some((_, line, _)) = begin {
        return Err(RegionError::Unterminated {
            line,
            begin: begin_marker,
            end: end_marker,
        });
    }
    Ok(found)
}

/// `existing` (the file's text, `None` when there is no file yet) with its region, in
/// `markup`, replaced by `block`; a file without a region gets it appended, a new file
/// gets the markup's preamble ([`PREAMBLE`], [`RST_PREAMBLE`]) before it.
pub fn splice(markup: Markup, existing: Option<&str>, block: &str) -> Result<String, RegionError> {
    let Some(text) = existing else {
        return Ok(format!("{}{block}", markup.preamble()));
    };
    Ok(match find(markup, text)? {
        Some(r) => format!("{}{block}{}", r.before, r.after),
        None if text.is_empty() => block.to_owned(),
        None if text.ends_with("\n\n") => format!("{text}{block}"),
        None if text.ends_with('\n') => format!("{text}\n{block}"),
        None => format!("{text}\n\n{block}"),
    })
}

/// A unified diff (3 lines of context) from `old` to `new`, labelled `a` and `b`;
/// empty when they are equal. gix's [`UnifiedDiff`](gix::diff::blob::UnifiedDiff)
/// groups the hunks; this only writes them.
pub fn diff(old: &str, new: &str, a: &str, b: &str) -> String {
    use gix::diff::blob::unified_diff::{ConsumeHunk, ContextSize, DiffLineKind, HunkHeader};
    use gix::diff::blob::{Algorithm, Diff, InternedInput, UnifiedDiff};

    /// Writes each hunk as `diff -u` does, marking a last line without a newline.
    struct Text(String);
    impl ConsumeHunk for Text {
        type Out = String;
        fn consume_hunk(
            &mut self,
            header: HunkHeader,
            lines: &[(DiffLineKind, &[u8])],
        ) -> std::io::Result<()> {
            // An empty side starts at the line before it, as git and diff -u write it.
            let at = |start: u32, len: u32| {
                if len == 0 {
                    start.saturating_sub(1)
                } else {
                    start
                }
            };
            self.0.push_str(&format!(
                "@@ -{},{} +{},{} @@\n",
                at(header.before_hunk_start, header.before_hunk_len),
                header.before_hunk_len,
                at(header.after_hunk_start, header.after_hunk_len),
                header.after_hunk_len
            ));
            for (kind, line) in lines {
                let line = String::from_utf8_lossy(line);
                self.0.push(kind.to_prefix());
                self.0.push_str(&line);
                if !line.ends_with('\n') {
                    self.0.push_str("\n\\ No newline at end of file\n");
                }
            }
            Ok(())
        }
        fn finish(self) -> String {
            self.0
        }
    }

    if old == new {
        return String::new();
    }
    let input = InternedInput::new(old.as_bytes(), new.as_bytes());
    let mut d = Diff::compute(Algorithm::Myers, &input);
    d.postprocess_lines(&input);
    let head = Text(format!("--- {a}\n+++ {b}\n"));
    // Writing into a String cannot fail.
    UnifiedDiff::new(&d, &input, head, ContextSize::symmetrical(3))
        .consume()
        .unwrap_or_default()
}
