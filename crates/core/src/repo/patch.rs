//! Unified diffs as `git diff --cached` prints them: git's extended headers, Myers with
//! the indent heuristic, 3 lines of context, git's default function-name header or the
//! diff driver's (configured or built in), binary detection (and `-diff`), submodule pointers and symlinks, without the `index abc..def` lines (object
//! ids tell a model nothing). Rendered as the lossy-UTF-8 [`FileDiff`] the prompt uses.

use gix::bstr::{BStr, ByteSlice};
use gix::diff::blob::{Algorithm, Diff, InternedInput};

use super::attrs;
use super::quote::quote_path;
use super::types::Entry;
use super::{Change, ChangeKind, FileDiff, Hunk, Linguist, ObjectId, Repo, RepoError, S_IFMT};

/// Lines of context around a change (`git diff -U3`).
const CONTEXT: u32 = 3;
/// git looks for a NUL in this many leading bytes to call a blob binary.
const FIRST_FEW_BYTES: usize = 8000;
/// git's funcname buffer: longer headers are cut to this many bytes.
const FUNCNAME_MAX: usize = 80;
const GITLINK: u32 = 0o160000;

/// One side of a file pair.
struct Side<'a> {
    path: &'a BStr,
    mode: u32,
    id: ObjectId,
    data: Vec<u8>,
}

/// Where a diff of [`Repo::file_diffs_within`] comes from: its entry, its half (0, or 1
/// for the addition of a type change) and the entry's attributes.
pub(crate) type Origin = (usize, usize, attrs::PathAttrs);

/// One hunk as bytes: the `@@` header without its newline, and the body.
pub(crate) type RawHunk = (Vec<u8>, Vec<u8>);

/// The rendered diff of one file pair: exact bytes plus what [`FileDiff`] reports.
pub(crate) struct Rendered {
    pub header: Vec<u8>,
    pub hunks: Vec<RawHunk>,
    pub added: usize,
    pub removed: usize,
    pub binary: bool,
}

impl Rendered {
    fn to_file_diff(&self, change: Change, linguist: Option<Linguist>) -> FileDiff {
        let submodule = change.old_mode == Some(GITLINK) || change.new_mode == Some(GITLINK);
        FileDiff {
            change,
            header: String::from_utf8_lossy(&self.header).into_owned(),
            hunks: self
                .hunks
                .iter()
                .map(|(h, b)| Hunk {
                    header: String::from_utf8_lossy(h).into_owned(),
                    body: String::from_utf8_lossy(b).into_owned(),
                })
                .collect(),
            added: self.added,
            removed: self.removed,
            binary: self.binary,
            submodule,
            linguist,
            read: true,
        }
    }
}

impl Repo {
    /// Renders each entry; a type change yields two diffs (deletion, then addition), as git does.
    /// `.gitattributes` are read as git reads them for this diff (see [`attrs`]). Only the
    /// blobs of the first `read` entries are read and diffed; the others' diffs are left
    /// unread ([`FileDiff::read`] false). Also returns,
    /// per diff, its entry and half (0, or 1 for the addition of a type change) and the
    /// attributes of each entry, for reading an unread diff later.
    pub(crate) fn file_diffs_within(
        &self,
        entries: &[Entry],
        read: usize,
    ) -> Result<(Vec<FileDiff>, Vec<Origin>), RepoError> {
        let mut out = Vec::with_capacity(entries.len());
        let mut origin = Vec::with_capacity(entries.len());
        let index = self.read_index().ok();
        let mut lookup = index.as_ref().and_then(|i| attrs::Lookup::new(self, i));
        for (n, e) in entries.iter().enumerate() {
            let a = lookup
                .as_mut()
                .map(|l| l.get(e.change.path.as_ref()))
                .unwrap_or_default();
            let linguist = linguist_of(&a);
            if n >= read {
                let split = matches!((e.change.old_mode, e.change.new_mode), (Some(o), Some(n)) if o & S_IFMT != n & S_IFMT);
                for half in 0..if split { 2 } else { 1 } {
                    out.push(unread_diff(halved(&e.change, split, half), linguist));
                    origin.push((n, half, a.clone()));
                }
                continue;
            }
            let rendered = self.render_entry(e, &a)?;
            let split = rendered.len() > 1;
            for (i, r) in rendered.iter().enumerate() {
                out.push(r.to_file_diff(halved(&e.change, split, i), linguist));
                origin.push((n, i, a.clone()));
            }
        }
        Ok((out, origin))
    }

    /// The diff of `entry` (its half `half` when it is a type change), read now.
    pub(crate) fn read_diff(
        &self,
        e: &Entry,
        half: usize,
        a: &attrs::PathAttrs,
    ) -> Result<Option<FileDiff>, RepoError> {
        let rendered = self.render_entry(e, a)?;
        let split = rendered.len() > 1;
        Ok(rendered
            .get(half)
            .map(|r| r.to_file_diff(halved(&e.change, split, half), linguist_of(a))))
    }

    fn side<'a>(
        &self,
        path: &'a BStr,
        mode: Option<u32>,
        id: Option<ObjectId>,
    ) -> Result<Option<Side<'a>>, RepoError> {
        let (Some(mode), Some(id)) = (mode, id) else {
            return Ok(None);
        };
        let data = if mode == GITLINK {
            format!("Subproject commit {id}\n").into_bytes()
        } else {
            self.repo
                .find_object(id)
                .map_err(|e| RepoError::Object {
                    id,
                    shallow: false,
                    source: Box::new(e),
                })?
                .detach()
                .data
        };
        Ok(Some(Side {
            path,
            mode,
            id,
            data,
        }))
    }

    fn render_entry(&self, e: &Entry, a: &attrs::PathAttrs) -> Result<Vec<Rendered>, RepoError> {
        let c = &e.change;
        let new_path: &BStr = c.path.as_ref();
        let old_path: &BStr = c.old_path.as_ref().map_or(new_path, |p| p.as_ref());
        let old = self.side(old_path, c.old_mode, e.old_id)?;
        let new = self.side(new_path, c.new_mode, e.new_id)?;
        if let (Some(o), Some(n)) = (&old, &new)
            && o.mode & S_IFMT != n.mode & S_IFMT
        {
            // git breaks a type change into a deletion and an addition.
            return Ok(vec![
                self.render_pair(Some(o), None, c.kind, a)?,
                self.render_pair(None, Some(n), c.kind, a)?,
            ]);
        }
        Ok(vec![self.render_pair(
            old.as_ref(),
            new.as_ref(),
            c.kind,
            a,
        )?])
    }

    fn render_pair(
        &self,
        old: Option<&Side<'_>>,
        new: Option<&Side<'_>>,
        kind: ChangeKind,
        a: &attrs::PathAttrs,
    ) -> Result<Rendered, RepoError> {
        let a_path = old.or(new).map_or(BStr::new(b""), |s| s.path);
        let b_path = new.or(old).map_or(BStr::new(b""), |s| s.path);
        let mut h = Vec::new();
        let a_name = prefixed("a/", a_path);
        let b_name = prefixed("b/", b_path);
        h.extend_from_slice(format!("diff --git {a_name} {b_name}\n").as_bytes());
        match (old, new) {
            (None, Some(n)) => {
                h.extend_from_slice(format!("new file mode {:06o}\n", n.mode).as_bytes())
            }
            (Some(o), None) => {
                h.extend_from_slice(format!("deleted file mode {:06o}\n", o.mode).as_bytes())
            }
            (Some(o), Some(n)) if o.mode != n.mode => {
                h.extend_from_slice(
                    format!("old mode {:06o}\nnew mode {:06o}\n", o.mode, n.mode).as_bytes(),
                );
            }
            _ => {}
        }
        if let (Some(o), Some(n), true) = (
            old,
            new,
            matches!(kind, ChangeKind::Renamed | ChangeKind::Copied),
        ) {
            let word = if kind == ChangeKind::Renamed {
                "rename"
            } else {
                "copy"
            };
            let sim = if o.id == n.id {
                100
            } else {
                similarity_index(&o.data, &n.data)
            };
            h.extend_from_slice(format!("similarity index {sim}%\n").as_bytes());
            h.extend_from_slice(format!("{word} from {}\n", quote_path(o.path, false)).as_bytes());
            h.extend_from_slice(format!("{word} to {}\n", quote_path(n.path, false)).as_bytes());
        }
        let old_id = old.map(|s| s.id);
        let new_id = new.map(|s| s.id);
        let empty = Vec::new();
        let old_data = old.map_or(&empty, |s| &s.data);
        let new_data = new.map_or(&empty, |s| &s.data);
        let mut r = Rendered {
            header: Vec::new(),
            hunks: Vec::new(),
            added: 0,
            removed: 0,
            binary: false,
        };
        if old_id != new_id {
            let a_label = if old.is_some() {
                a_name.clone()
            } else {
                "/dev/null".to_owned()
            };
            let b_label = if new.is_some() {
                b_name.clone()
            } else {
                "/dev/null".to_owned()
            };
            if a.no_text_diff || is_binary(old_data) || is_binary(new_data) {
                r.binary = true;
                h.extend_from_slice(
                    format!("Binary files {a_label} and {b_label} differ\n").as_bytes(),
                );
            } else {
                let (hunks, added, removed) =
                    unified_hunks(old_data, new_data, a.funcname.as_ref());
                if !hunks.is_empty() {
                    let tab = |p: &BStr| if p.contains(&b' ') { "\t" } else { "" };
                    let a_tab = if old.is_some() { tab(a_path) } else { "" };
                    let b_tab = if new.is_some() { tab(b_path) } else { "" };
                    h.extend_from_slice(
                        format!("--- {a_label}{a_tab}\n+++ {b_label}{b_tab}\n").as_bytes(),
                    );
                }
                r.hunks = hunks;
                r.added = added;
                r.removed = removed;
            }
        }
        r.header = h;
        Ok(r)
    }
}

/// The Linguist attribute the prompt shows a file as a stat line for.
fn linguist_of(a: &attrs::PathAttrs) -> Option<Linguist> {
    if a.generated {
        Some(Linguist::Generated)
    } else if a.vendored {
        Some(Linguist::Vendored)
    } else {
        None
    }
}

/// The change of half `half` of a type change split in two (the old side deleted, then
/// the new one added); `change` itself when not `split`.
fn halved(change: &Change, split: bool, half: usize) -> Change {
    let mut change = change.clone();
    if split {
        if half == 0 {
            change.new_mode = None;
        } else {
            change.old_mode = None;
        }
    }
    change
}

/// A diff not read: its change and attributes only.
fn unread_diff(change: Change, linguist: Option<Linguist>) -> FileDiff {
    let submodule = change.old_mode == Some(GITLINK) || change.new_mode == Some(GITLINK);
    FileDiff {
        change,
        header: String::new(),
        hunks: Vec::new(),
        added: 0,
        removed: 0,
        binary: false,
        submodule,
        linguist,
        read: false,
    }
}

/// `prefix` + `path`, quoted as a whole as git's `quote_two` does when the path needs it.
fn prefixed(prefix: &str, path: &BStr) -> String {
    let mut full = prefix.as_bytes().to_vec();
    full.extend_from_slice(path);
    quote_path(full.as_bstr(), false)
}

/// git's binary test (`buffer_is_binary`): a NUL among the first 8000 bytes.
pub(crate) fn is_binary(data: &[u8]) -> bool {
    data[..data.len().min(FIRST_FEW_BYTES)].contains(&0)
}

/// git's default funcname (`def_ff`): a line starting with a letter, `_` or `$`, cut to 80
/// bytes, trailing whitespace trimmed.
fn funcname(line: &[u8]) -> Option<&[u8]> {
    let first = *line.first()?;
    if !(first.is_ascii_alphabetic() || first == b'_' || first == b'$') {
        return None;
    }
    let mut s = &line[..line.len().min(FUNCNAME_MAX)];
    while let Some((&last, rest)) = s.split_last() {
        if matches!(last, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c) {
            s = rest;
        } else {
            break;
        }
    }
    Some(s)
}

/// Hunks of `old` → `new` as git's xdiff emits them with `-U3`: Myers with the indent
/// heuristic, changes closer than 2×3 unchanged lines merged, `@@ -a,b +c,d @@ func`.
/// Returns (header without newline, body) per hunk, and the added and removed counts.
pub(crate) fn unified_hunks(
    old: &[u8],
    new: &[u8],
    driver: Option<&attrs::Funcname>,
) -> (Vec<RawHunk>, usize, usize) {
    let input = InternedInput::new(old, new);
    let mut diff = Diff::compute(Algorithm::Myers, &input);
    diff.postprocess_lines(&input);
    let old_lines: Vec<&[u8]> = old.split_inclusive(|&b| b == b'\n').collect();
    let new_lines: Vec<&[u8]> = new.split_inclusive(|&b| b == b'\n').collect();
    let changes: Vec<gix::diff::blob::Hunk> = diff.hunks().collect();
    let mut out = Vec::new();
    let (mut added, mut removed) = (0usize, 0usize);
    let mut func: Option<&[u8]> = None;
    let mut func_searched_to: i64 = -1;
    let mut i = 0;
    while i < changes.len() {
        // Group changes whose gap is at most 2 × context.
        let mut j = i;
        while j + 1 < changes.len()
            && changes[j + 1].before.start - changes[j].before.end <= 2 * CONTEXT
        {
            j += 1;
        }
        let first = &changes[i];
        let last = &changes[j];
        let s1 = first.before.start.saturating_sub(CONTEXT);
        let e1 = (last.before.end + CONTEXT).min(old_lines.len() as u32);
        let lead = first.before.start - s1;
        let s2 = first.after.start - lead;
        let trail = e1 - last.before.end;
        let e2 = last.after.end + trail;
        // The function line: the nearest matching old line before the hunk's first line,
        // searched only back to where the previous hunk's search started (git keeps the
        // previous one otherwise).
        let mut l = i64::from(s1) - 1;
        while l > func_searched_to && l >= 0 {
            let line = old_lines.get(l as usize).copied();
            let found = line.and_then(|line| match driver {
                Some(d) => d.find(line, FUNCNAME_MAX),
                None => funcname(line),
            });
            if let Some(f) = found {
                func = Some(f);
                break;
            }
            l -= 1;
        }
        func_searched_to = i64::from(s1) - 1;
        let (c1, c2) = (e1 - s1, e2 - s2);
        let mut header = b"@@ -".to_vec();
        header.extend_from_slice(range(s1, c1).as_bytes());
        header.extend_from_slice(b" +");
        header.extend_from_slice(range(s2, c2).as_bytes());
        header.extend_from_slice(b" @@");
        if let Some(f) = func.filter(|f| !f.is_empty()) {
            header.push(b' ');
            header.extend_from_slice(f);
        }
        // git cuts the hunk header line at the first invalid UTF-8 sequence
        // (diff.c's sane_truncate_line).
        if let Err(e) = std::str::from_utf8(&header) {
            header.truncate(e.valid_up_to());
        }
        let mut body = Vec::new();
        let mut pos = s1;
        for ch in &changes[i..=j] {
            for k in pos..ch.before.start {
                line(&mut body, b' ', old_lines[k as usize]);
            }
            for k in ch.before.clone() {
                line(&mut body, b'-', old_lines[k as usize]);
                removed += 1;
            }
            for k in ch.after.clone() {
                line(&mut body, b'+', new_lines[k as usize]);
                added += 1;
            }
            pos = ch.before.end;
        }
        for k in pos..e1 {
            line(&mut body, b' ', old_lines[k as usize]);
        }
        out.push((header, body));
        i = j + 1;
    }
    (out, added, removed)
}

/// `start,count` in git's hunk header form (1-based; `N` alone for one line; `N-1,0` when empty).
fn range(start0: u32, count: u32) -> String {
    match count {
        0 => format!("{start0},0"),
        1 => format!("{}", start0 + 1),
        n => format!("{},{n}", start0 + 1),
    }
}

fn line(body: &mut Vec<u8>, prefix: u8, text: &[u8]) {
    body.push(prefix);
    body.extend_from_slice(text);
    if text.last() != Some(&b'\n') {
        body.extend_from_slice(b"\n\\ No newline at end of file\n");
    }
}

/// git's similarity score of a rename or copy in percent (diffcore-rename's estimate):
/// the share of `old`'s content, hashed in newline- or 64-byte-delimited spans, that
/// survives in `new`, over the larger size.
pub fn similarity_index(old: &[u8], new: &[u8]) -> u32 {
    const MAX_SCORE: f64 = 60000.0;
    let max_size = old.len().max(new.len());
    if max_size == 0 {
        return 100;
    }
    if new.is_empty() {
        return 0;
    }
    // git hashes each side as text unless that side is binary (diffcore-delta).
    let src = spans(old, !is_binary(old));
    let dst = spans(new, !is_binary(new));
    let mut copied: u64 = 0;
    for (h, &sc) in &src {
        if let Some(&dc) = dst.get(h) {
            copied += sc.min(dc);
        }
    }
    let score = (copied as f64 * MAX_SCORE / max_size as f64) as i64;
    (score as f64 * 100.0 / MAX_SCORE) as u32
}

/// diffcore-delta's span hashes (`hash_chars`): byte counts per hash of each line (or
/// 64-byte chunk), a CR before a LF skipped in `text`, and a last chunk without its
/// newline counted too (git 2.44 and later).
pub(crate) fn spans(data: &[u8], text: bool) -> std::collections::HashMap<u32, u64> {
    const HASHBASE: u32 = 107927;
    let mut map = std::collections::HashMap::new();
    let (mut acc1, mut acc2, mut n): (u32, u32, u64) = (0, 0, 0);
    let mut i = 0;
    while i < data.len() {
        let c = data[i];
        i += 1;
        if text && c == b'\r' && data.get(i) == Some(&b'\n') {
            continue;
        }
        let old1 = acc1;
        acc1 = (acc1 << 7) ^ (acc2 >> 25);
        acc2 = (acc2 << 7) ^ (old1 >> 25);
        acc1 = acc1.wrapping_add(u32::from(c));
        n += 1;
        if n < 64 && c != b'\n' {
            continue;
        }
        let h = acc1.wrapping_add(acc2.wrapping_mul(0x61)) % HASHBASE;
        *map.entry(h).or_insert(0) += n;
        (acc1, acc2, n) = (0, 0, 0);
    }
    if n > 0 {
        let h = acc1.wrapping_add(acc2.wrapping_mul(0x61)) % HASHBASE;
        *map.entry(h).or_insert(0) += n;
    }
    map
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::type_complexity)]
mod tests {
    use super::*;

    fn render(old: &str, new: &str) -> String {
        let (hunks, _, _) = unified_hunks(old.as_bytes(), new.as_bytes(), None);
        let mut s = String::new();
        for (h, b) in hunks {
            s.push_str(&String::from_utf8_lossy(&h));
            s.push('\n');
            s.push_str(&String::from_utf8_lossy(&b));
        }
        s
    }

    #[test]
    fn hunk_header_forms() {
        assert_eq!(render("a\n", ""), "@@ -1 +0,0 @@\n-a\n");
        assert_eq!(render("", "a\nb\n"), "@@ -0,0 +1,2 @@\n+a\n+b\n");
        assert_eq!(
            render("a", "a\n"),
            "@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n"
        );
    }

    #[test]
    fn funcname_is_the_nearest_preceding_identifier_line() {
        let old = "fn main() {\n  1\n  2\n  3\n  4\n  5\n}\n";
        let new = "fn main() {\n  1\n  2\n  3\n  4\n  X\n}\n";
        assert_eq!(
            render(old, new),
            "@@ -3,5 +3,5 @@ fn main() {\n   2\n   3\n   4\n-  5\n+  X\n }\n"
        );
        let long = format!("{}   \n", "x".repeat(100));
        assert_eq!(funcname(long.as_bytes()).map(<[u8]>::len), Some(80));
        assert_eq!(funcname(b"  indented\n"), None);
        assert_eq!(funcname(b"$var = 1 \r\n"), Some(&b"$var = 1"[..]));
    }

    #[test]
    fn close_changes_share_a_hunk() {
        let old: String = (1..=20).map(|i| format!("{i}\n")).collect();
        let new = old.replace("5\n", "five\n").replace("12\n", "twelve\n");
        let out = render(&old, &new);
        assert_eq!(out.matches("@@ -").count(), 1, "{out}");
        let new = old.replace("5\n", "five\n").replace("13\n", "thirteen\n");
        assert_eq!(render(&old, &new).matches("@@ -").count(), 2);
    }

    #[test]
    fn similarity() {
        assert_eq!(similarity_index(b"a\nb\nc\nd\n", b"a\nb\nc\nd\n"), 100);
        assert_eq!(similarity_index(b"a\nb\nc\nd\n", b"a\nb\nc\nX\n"), 75);
        assert!(is_binary(b"a\0b"));
        assert!(!is_binary(b"plain"));
    }
}
