//! Gain: docs/benchmarks.md, section `check-speed` ("After (the staged probe reads only
//! the index entries at the bullet paths …)", A/B at 08a6c80): `jitcommit-check --stdin`
//! 6.00 → 5.11 ms CPU on a 15,690-file work tree, 1.04× → 0.88× `git diff --cached
//! --name-only`; and section `check-speed-history` (a 1.5 MB index read whole cost 370
//! page faults, more than half of the check's). Recorded figures, not re-measured when
//! the file moved here.
//! Guard: `rawindex_tests.rs` beside it, entry by entry against `git ls-files --stage
//! --debug` and gix on indexes git wrote, and [`at_paths`] against the expanded index.
//! Waits for: a gix-index lookup of the entries at and under a few paths that neither
//! decodes every entry nor maps the whole file (today `gix::index::File::at` builds all
//! entries, copies every path and decodes the cache-tree); and gix reading names of
//! 4,095 bytes or more (gix-index 0.58 misreads them, the test says when that changes).
//!
//! The index entries at a few bullet paths, read straight from the index file's bytes
//! for the staged-set probe (see [`super::probe`]). Decoding the whole index with gix
//! builds every entry, copies every path and decodes the cache tree: on a 15,000-file
//! work tree that was a fifth of a traced commit-msg check, for the handful of entries
//! a message's bullets name. This reader walks the entries in place and keeps only the
//! ones at or under the wanted paths.
//!
//! It streams the file through a small buffer (reading a 1.5 MB index whole faulted in
//! a page per 4 KB, two fifths of a traced check's page faults), and, when the caller
//! knows the index is not split ([`Stop::AfterPaths`]), stops at the first entry that
//! sorts after every wanted path: git keeps the entries sorted by path, so none at or
//! under a wanted path can follow.
//!
//! It reads index versions 2 and 3 only, and gives up (`None`: the caller decodes the
//! index with gix) on anything else: version 4's compressed paths, a split index (its
//! `link` extension), a sparse index (its `sdir` extension or a directory entry), a
//! path of 4,095 bytes or more, or a file that does not parse. Like git, it does not verify the trailing checksum.
//!
//! `rawindex_tests.rs` holds it to git and gix, entry by entry, on indexes git wrote:
//! every version, split, sparse, the extended flags, conflict stages, the extensions
//! git writes, SHA-256, long and non-ASCII paths; and it checks that [`at_paths`]
//! answers what the expanded index holds, or gives up.

use std::io::Read;
use std::ops::ControlFlow;

use crate::repo::ObjectId;

/// What the index holds at one bullet path.
#[derive(Debug, Default, PartialEq, Eq)]
pub(in crate::repo) struct AtPath {
    /// The entry at exactly this path.
    pub(in crate::repo) exact: Option<ObjectId>,
    /// The entries under `path/`, in the index's order (full path, id).
    pub(in crate::repo) under: Vec<(Vec<u8>, ObjectId)>,
}

/// One wanted path's findings while the entries are walked: `None` once an entry the
/// probe leaves to the full diff was met there (a conflict stage, an intent-to-add
/// entry, two entries at the same path).
type Slot = Option<AtPath>;

/// How far the entries are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::repo) enum Stop {
    /// Every entry and the extensions: the only way to see a split index's `link`.
    AtEnd,
    /// Up to the first entry past every wanted path; for an index known not to be split
    /// (a split one holds only some of the entries, the rest are in its shared index).
    AfterPaths,
}

/// Stage bits of an entry's flags.
const STAGE_MASK: u16 = 0x3000;
/// The flag saying extended flags follow (version 3 and later).
const EXTENDED: u16 = 0x4000;
/// The flag of an assume-unchanged entry (`update-index --assume-unchanged`).
#[cfg(test)]
pub(in crate::repo) const ASSUME_VALID: u16 = 0x8000;
/// The extended flag of a skip-worktree entry.
#[cfg(test)]
pub(in crate::repo) const SKIP_WORKTREE: u16 = 0x4000;
/// The name-length bits of the flags; this value means "longer, NUL-terminated".
const NAME_MASK: u16 = 0x0fff;
/// The extended flag of an intent-to-add entry.
pub(in crate::repo) const INTENT_TO_ADD: u16 = 0x2000;
/// The file-type bits of an entry's mode, and the value of a directory (sparse index).
const TYPE_MASK: u32 = 0o170_000;
const DIRECTORY: u32 = 0o040_000;
/// Bytes the file is read by: many entries (at most about 4 KB each) at a time.
const CHUNK: usize = 64 * 1024;

/// The index file's bytes from `src`, through a buffer of [`CHUNK`] bytes.
struct Stream<R> {
    src: R,
    buf: Vec<u8>,
    /// The unread bytes are `buf[start..filled]`.
    start: usize,
    filled: usize,
    /// The file offset of `buf[start]`.
    pos: u64,
}

impl<R: Read> Stream<R> {
    /// The next `n` bytes (`n` ≤ [`CHUNK`]), without consuming them; `None` at the end of
    /// the file or on a read error.
    fn peek(&mut self, n: usize) -> Option<&[u8]> {
        if self.filled - self.start < n {
            self.buf.copy_within(self.start..self.filled, 0);
            self.filled -= self.start;
            self.start = 0;
            while self.filled < n {
                match self.src.read(&mut self.buf[self.filled..]) {
                    Ok(0) => return None,
                    Ok(k) => self.filled += k,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(_) => return None,
                }
            }
        }
        self.buf.get(self.start..self.start + n)
    }

    /// Consumes `n` bytes, reading past the buffer when need be; `None` when the file ends first.
    fn skip(&mut self, mut n: u64) -> Option<()> {
        loop {
            let here = (self.filled - self.start) as u64;
            let k = here.min(n);
            self.start += usize::try_from(k).ok()?;
            self.pos += k;
            n -= k;
            if n == 0 {
                return Some(());
            }
            let want = usize::try_from(n.min(CHUNK as u64)).ok()?;
            self.peek(want)?;
        }
    }
}

/// One entry as the index file holds it, borrowed from the read buffer.
#[derive(Debug, Clone, Copy)]
pub(in crate::repo) struct RawEntry<'a> {
    /// The path, as stored (a sparse directory's ends with `/`).
    pub(in crate::repo) name: &'a [u8],
    /// The mode: a file type and permission bits (`0o040_000` for a sparse directory).
    pub(in crate::repo) mode: u32,
    /// The 16 bits of flags: assume-valid (`0x8000`), extended (`0x4000`), the stage
    /// (`0x3000`) and the name's length.
    pub(in crate::repo) flags: u16,
    /// The extended flags (version 3): skip-worktree (`0x4000`), intent-to-add
    /// (`0x2000`); 0 when there are none.
    pub(in crate::repo) extended: u16,
    /// The object id's bytes.
    pub(in crate::repo) id: &'a [u8],
}

impl RawEntry<'_> {
    /// The conflict stage, 0 to 3.
    #[cfg(test)]
    pub(in crate::repo) fn stage(&self) -> u16 {
        (self.flags & STAGE_MASK) >> 12
    }

    /// A sparse index's directory entry.
    pub(in crate::repo) fn is_dir(&self) -> bool {
        self.mode & TYPE_MASK == DIRECTORY
    }

    /// An entry the probe can answer for: not a conflict stage, not intent-to-add (the
    /// full diff skips both).
    fn plain(&self) -> bool {
        self.flags & STAGE_MASK == 0 && self.extended & INTENT_TO_ADD == 0
    }
}

/// How a walk of the entries ended.
#[derive(Debug, PartialEq, Eq)]
pub(in crate::repo) enum Walked {
    /// `visit` asked to stop; the rest of the file was not read.
    Stopped,
    /// Every entry and every extension was read; `sparse`: one of them was `sdir`, the
    /// sparse index's.
    Whole { sparse: bool },
}

/// Calls `visit` on each entry of the index read from `src` (`len` bytes long;
/// `hash_len` the object id's length), in the file's order, until it breaks; then, if it
/// never did, reads the extensions through. `None` when the file is one this reader
/// leaves to gix: not version 2 or 3, split (its `link` extension: the entries are
/// only part of the index), a name of 4,095 bytes or more, or one that does not parse.
/// Entries already visited then count for nothing.
pub(in crate::repo) fn walk(
    src: impl Read,
    len: u64,
    hash_len: usize,
    mut visit: impl FnMut(&RawEntry) -> ControlFlow<()>,
) -> Option<Walked> {
    let mut s = Stream {
        src,
        buf: vec![0; CHUNK],
        start: 0,
        filled: 0,
        pos: 0,
    };
    let header = s.peek(12)?;
    if header.get(..4)? != b"DIRC" {
        return None;
    }
    let version = u32_at(header, 4)?;
    if !(2..=3).contains(&version) {
        return None;
    }
    let count = u32_at(header, 8)?;
    s.skip(12)?;
    let end = len.checked_sub(hash_len as u64)?;
    let fixed = 40 + hash_len + 2;
    for _ in 0..count {
        let head = s.peek(fixed)?;
        let mode = u32_at(head, 24)?;
        let flags = u16_at(head, fixed - 2)?;
        let mut name_at = fixed;
        if flags & EXTENDED != 0 {
            if version < 3 {
                return None;
            }
            name_at += 2;
        }
        // A name of 4,095 bytes or more (NUL-terminated) is left to gix (and, as gix
        // misreads it, in the end to the full diff, which reports the index unreadable).
        let name_len = match flags & NAME_MASK {
            NAME_MASK => return None,
            n => usize::from(n),
        };
        // git pads each entry with 1 to 8 NULs to a multiple of 8 bytes.
        let size = (name_at + name_len + 8) & !7;
        if s.pos + size as u64 > end {
            return None;
        }
        let entry = s.peek(size)?;
        let extended = if name_at > fixed {
            u16_at(entry, fixed)?
        } else {
            0
        };
        let raw = RawEntry {
            name: entry.get(name_at..name_at + name_len)?,
            mode,
            flags,
            extended,
            id: entry.get(40..40 + hash_len)?,
        };
        if visit(&raw).is_break() {
            return Some(Walked::Stopped);
        }
        s.skip(size as u64)?;
    }
    let mut sparse = false;
    while s.pos < end {
        let ext = s.peek(8)?;
        let sig = ext.get(..4)?;
        if sig == b"link" {
            return None;
        }
        sparse |= sig == b"sdir";
        let size = u64::from(u32_at(ext, 4)?);
        s.skip(8 + size)?;
    }
    (s.pos == end).then_some(Walked::Whole { sparse })
}

/// The entries of the index read from `src` (`len` bytes long; `hash_len` the object id's
/// length) at or under each of `paths`, in `paths`' order; `None` when the file is one
/// this reader leaves to gix (see [`walk`]) or a sparse index (one with a directory
/// entry, or, read to the end, its `sdir` extension). An inner `None`: that path holds
/// an entry the probe cannot answer for.
pub(in crate::repo) fn at_paths(
    src: impl Read,
    len: u64,
    hash_len: usize,
    paths: &[&[u8]],
    stop: Stop,
) -> Option<Vec<Option<AtPath>>> {
    let mut slots: Vec<Slot> = paths.iter().map(|_| Some(AtPath::default())).collect();
    // Each wanted path with a slash: the entries under it start with that.
    let dirs: Vec<Vec<u8>> = paths.iter().map(|p| [p, &b"/"[..]].concat()).collect();
    let mut sparse = false;
    let mut bad_id = false;
    let walked = walk(src, len, hash_len, |e| {
        if e.is_dir() {
            sparse = true;
            return ControlFlow::Break(());
        }
        let name = e.name;
        let plain = e.plain();
        let mut past = 0;
        for ((slot, want), dir) in slots.iter_mut().zip(paths).zip(&dirs) {
            // Cheap rejections first: most entries share no prefix with a wanted path.
            let exact = name.len() == want.len() && name == *want;
            let under = !exact && name.len() > dir.len() && name.starts_with(dir);
            if !(exact || under) {
                if name > dir.as_slice() {
                    past += 1;
                }
                continue;
            }
            let Some(found) = slot else { continue };
            let Ok(id) = ObjectId::try_from(e.id) else {
                bad_id = true;
                return ControlFlow::Break(());
            };
            if !plain || (exact && found.exact.is_some()) {
                *slot = None;
            } else if exact {
                found.exact = Some(id);
            } else {
                found.under.push((name.to_vec(), id));
            }
        }
        if stop == Stop::AfterPaths && past == paths.len() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })?;
    match walked {
        _ if sparse || bad_id => None,
        Walked::Whole { sparse: true } => None,
        Walked::Stopped | Walked::Whole { sparse: false } => Some(slots),
    }
}

fn u32_at(data: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(
        data.get(at..at.checked_add(4)?)?.try_into().ok()?,
    ))
}

fn u16_at(data: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes(
        data.get(at..at.checked_add(2)?)?.try_into().ok()?,
    ))
}

#[cfg(test)]
#[path = "rawindex_tests.rs"]
#[allow(clippy::unwrap_used)]
mod git_tests;

#[cfg(test)]
mod tests {
    use super::*;

    /// A version 2 index of `names` (sorted), each entry's id its position repeated.
    fn index(names: &[&str], stage: u16) -> Vec<u8> {
        let mut out = b"DIRC".to_vec();
        out.extend(2u32.to_be_bytes());
        out.extend(u32::try_from(names.len()).unwrap().to_be_bytes());
        for (i, name) in names.iter().enumerate() {
            let start = out.len();
            out.extend([0u8; 24]);
            out.extend(0o100_644u32.to_be_bytes());
            out.extend([0u8; 12]);
            out.extend([u8::try_from(i % 250).unwrap() + 1; 20]);
            out.extend((u16::try_from(name.len()).unwrap() | stage).to_be_bytes());
            out.extend(name.as_bytes());
            let len = (out.len() - start + 8) & !7;
            out.resize(start + len, 0);
        }
        out.extend([0u8; 20]);
        out
    }

    /// [`at_paths`] over `data` in memory.
    fn read(data: &[u8], paths: &[&[u8]], stop: Stop) -> Option<Vec<Option<AtPath>>> {
        at_paths(data, data.len() as u64, 20, paths, stop)
    }

    fn id(n: u8) -> ObjectId {
        ObjectId::try_from(&[n; 20][..]).unwrap()
    }

    #[test]
    fn finds_the_entries_at_and_under_each_path() {
        let data = index(&["a.rs", "b/c.rs", "b/d/e.rs", "bb.rs"], 0);
        let found = read(&data, &[b"b", b"a.rs", b"x"], Stop::AtEnd).unwrap();
        let under = vec![(b"b/c.rs".to_vec(), id(2)), (b"b/d/e.rs".to_vec(), id(3))];
        assert_eq!(found[0], Some(AtPath { exact: None, under }));
        assert_eq!(
            found[1],
            Some(AtPath {
                exact: Some(id(1)),
                under: vec![]
            })
        );
        assert_eq!(found[2], Some(AtPath::default()));
        // A conflict stage is left to the full diff.
        let conflicted = index(&["a.rs"], 0x1000);
        assert_eq!(
            read(&conflicted, &[b"a.rs"], Stop::AtEnd).unwrap(),
            vec![None]
        );
    }

    #[test]
    fn a_cut_or_foreign_file_is_left_to_gix() {
        let data = index(&["a.rs", "b/c.rs", "b/d/e.rs", "bb.rs"], 0);
        for cut in 0..data.len() {
            assert_eq!(read(&data[..cut], &[b"b"], Stop::AtEnd), None, "{cut}");
        }
        let mut v4 = data.clone();
        v4[7] = 4;
        assert_eq!(read(&v4, &[b"b"], Stop::AtEnd), None);
        let mut split = data[..data.len() - 20].to_vec();
        split.extend(b"link");
        split.extend(0u32.to_be_bytes());
        split.extend([0u8; 20]);
        assert_eq!(read(&split, &[b"b"], Stop::AtEnd), None);
    }

    #[test]
    fn stopping_after_the_paths_finds_what_the_whole_walk_finds() {
        let names = [
            "a.rs", "b-x.rs", "b.rs", "b/c.rs", "b/d/e.rs", "b0.rs", "c/d.rs", "z",
        ];
        let data = index(&names, 0);
        let sets: [&[&[u8]]; 6] = [
            &[b"b"],
            &[b"b.rs", b"a.rs"],
            &[b"z", b"b"],
            &[b"b/d", b"c"],
            &[b"nothing"],
            &[b"0", b"zz"],
        ];
        for paths in sets {
            assert_eq!(
                read(&data, paths, Stop::AfterPaths),
                read(&data, paths, Stop::AtEnd),
                "{paths:?}"
            );
        }
        // It stops there: what follows the last wanted path is never read.
        let cut = &data[..data.len() - 20 - 8];
        assert_eq!(read(cut, &[b"b"], Stop::AtEnd), None);
        let found = read(cut, &[b"b"], Stop::AfterPaths).unwrap();
        assert_eq!(found[0].as_ref().unwrap().under.len(), 2);
    }

    #[test]
    fn an_index_larger_than_the_buffer_is_read_whole() {
        let names: Vec<String> = (0..5000).map(|i| format!("dir/file{i:05}.rs")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let mut data = index(&refs, 0);
        // A made-up extension longer than the buffer is skipped.
        let trailer = data.split_off(data.len() - 20);
        data.extend(b"ZZZZ");
        data.extend(u32::try_from(3 * CHUNK).unwrap().to_be_bytes());
        data.extend(vec![7u8; 3 * CHUNK]);
        data.extend(trailer);
        assert!(data.len() > 4 * CHUNK);
        let found = read(&data, &[b"dir/file04999.rs", b"dir"], Stop::AtEnd).unwrap();
        assert!(found[0].as_ref().unwrap().exact.is_some());
        assert_eq!(found[1].as_ref().unwrap().under.len(), 5000);
    }
}
