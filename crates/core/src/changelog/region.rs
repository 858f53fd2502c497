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
    #[error("line {line}: `{BEGIN} …` has no `{END}` after it")]
    Unterminated {
        /// The begin marker's line.
        line: usize,
    },
    /// An end marker without a begin marker before it.
    #[error("line {line}: `{END}` has no begin marker before it")]
    StrayEnd {
        /// The end marker's line.
        line: usize,
    },
    /// More than one region.
    #[error("line {line}: a second generated region (only one is kept)")]
    Second {
        /// The second begin marker's line.
        line: usize,
    },
}

/// The begin marker line for a region generated through `through`.
pub fn begin_line(through: Option<&ObjectId>) -> String {
    match through {
        Some(id) => format!("{BEGIN} (generated through {id}; edit outside these markers) -->"),
        None => format!("{BEGIN} (edit outside these markers) -->"),
    }
}

/// The whole region for the generated `body`.
pub fn block(body: &str, through: Option<&ObjectId>) -> String {
    let mut s = begin_line(through);
    s.push_str("\n\n");
    if !body.is_empty() {
        s.push_str(body);
        if !body.ends_with('\n') {
            s.push('\n');
        }
        s.push('\n');
    }
    s.push_str(END);
    s.push('\n');
    s
}

fn through_of(line: &str) -> Option<ObjectId> {
    let rest = &line[line.find("generated through ")? + "generated through ".len()..];
    let hex: String = rest.chars().take_while(char::is_ascii_hexdigit).collect();
    ObjectId::from_hex(hex.as_bytes()).ok()
}

/// Finds the region of `text`; `Ok(None)` when it has none.
pub fn find(text: &str) -> Result<Option<Region<'_>>, RegionError> {
    let mut offset = 0;
    let mut begin: Option<(usize, usize, &str)> = None;
    let mut found: Option<Region<'_>> = None;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        let no = n + 1;
        let bare = line.trim_end_matches(['\n', '\r']);
        let start = offset;
        offset += line.len();
        if bare.starts_with(BEGIN) {
            if begin.is_some() || found.is_some() {
                return Err(RegionError::Second { line: no });
            }
            begin = Some((start, no, bare));
        } else if bare == END {
            let Some((b, line, marker)) = begin.take() else {
                return Err(RegionError::StrayEnd { line: no });
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
        return Err(RegionError::Unterminated { line });
    }
    Ok(found)
}

/// `existing` (the file's text, `None` when there is no file yet) with its region
/// replaced by `block`; a file without a region gets it appended, a new file gets
/// [`PREAMBLE`] before it.
pub fn splice(existing: Option<&str>, block: &str) -> Result<String, RegionError> {
    let Some(text) = existing else {
        return Ok(format!("{PREAMBLE}{block}"));
    };
    Ok(match find(text)? {
        Some(r) => format!("{}{block}{}", r.before, r.after),
        None if text.is_empty() => block.to_owned(),
        None if text.ends_with("\n\n") => format!("{text}{block}"),
        None if text.ends_with('\n') => format!("{text}\n{block}"),
        None => format!("{text}\n\n{block}"),
    })
}

/// A unified diff (3 lines of context) from `old` to `new`, labelled `a` and `b`;
/// empty when they are equal.
pub fn diff(old: &str, new: &str, a: &str, b: &str) -> String {
    use gix::diff::blob::{Algorithm, Diff, InternedInput};
    if old == new {
        return String::new();
    }
    let input = InternedInput::new(old.as_bytes(), new.as_bytes());
    let mut d = Diff::compute(Algorithm::Myers, &input);
    d.postprocess_lines(&input);
    let old_lines: Vec<&str> = old.split_inclusive('\n').collect();
    let new_lines: Vec<&str> = new.split_inclusive('\n').collect();
    let hunks: Vec<gix::diff::blob::Hunk> = d.hunks().collect();
    let mut out = format!("--- {a}\n+++ {b}\n");
    const CONTEXT: u32 = 3;
    let mut i = 0;
    while i < hunks.len() {
        let mut j = i;
        while j + 1 < hunks.len() && hunks[j + 1].before.start - hunks[j].before.end <= 2 * CONTEXT
        {
            j += 1;
        }
        let s1 = hunks[i].before.start.saturating_sub(CONTEXT);
        let e1 = (hunks[j].before.end + CONTEXT).min(old_lines.len() as u32);
        let s2 = hunks[i].after.start - (hunks[i].before.start - s1);
        let e2 = (hunks[j].after.end + (e1 - hunks[j].before.end)).min(new_lines.len() as u32);
        let _ = std::fmt::Write::write_fmt(
            &mut out,
            format_args!("@@ -{},{} +{},{} @@\n", s1 + 1, e1 - s1, s2 + 1, e2 - s2),
        );
        let mut pos = s1;
        let push = |out: &mut String, sign: char, line: &str| {
            out.push(sign);
            out.push_str(line);
            if !line.ends_with('\n') {
                out.push_str("\n\\ No newline at end of file\n");
            }
        };
        for h in &hunks[i..=j] {
            for l in pos..h.before.start {
                push(
                    &mut out,
                    ' ',
                    old_lines.get(l as usize).copied().unwrap_or(""),
                );
            }
            for l in h.before.clone() {
                push(
                    &mut out,
                    '-',
                    old_lines.get(l as usize).copied().unwrap_or(""),
                );
            }
            for l in h.after.clone() {
                push(
                    &mut out,
                    '+',
                    new_lines.get(l as usize).copied().unwrap_or(""),
                );
            }
            pos = h.before.end;
        }
        for l in pos..e1 {
            push(
                &mut out,
                ' ',
                old_lines.get(l as usize).copied().unwrap_or(""),
            );
        }
        i = j + 1;
    }
    out
}
