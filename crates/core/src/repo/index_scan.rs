//! What the index holds at a few paths, read in one pass over the index file without
//! decoding its entries: the commit-msg check needs the entries at and under the paths a
//! message's bullets name, not the whole index.
//!
//! gix decodes every entry (stat data, flags, path) into its own structures before
//! anything can be looked up: on a 5,156-entry index that is about 0.95 M instructions
//! and half a megabyte of fresh memory, a third of a traced commit-msg check. Here an
//! entry costs reading its flags and, when its first byte is one a wanted path starts
//! with, comparing its path, as git's on-disk layout allows (`gitformat-index(5)`):
//! versions 2 and 3 (entries padded to 8 bytes, optional extended flags) and 4
//! (prefix-compressed paths). On that index the whole check went from 3.02 M to 2.54 M
//! instructions and from 351 to 223 page faults.
//!
//! Anything a probe does not answer is [`IndexScan::Unusual`], and the caller falls back
//! to gix's full decode, which then also reports a malformed index: conflicted entries,
//! intent-to-add entries, sparse directory entries, a split index (its entries live in
//! another file), an unknown required extension, a version or layout not listed above.

use std::io::{Read as _, Seek as _};
use std::path::Path;

use gix::ObjectId;

/// What the index holds at one wanted path.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct AtPath {
    /// The entry at exactly this path.
    pub(crate) exact: Option<ObjectId>,
    /// The entries under `path/`, in the index's order (full path, id).
    pub(crate) under: Vec<(Vec<u8>, ObjectId)>,
}

/// The outcome of a scan.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum IndexScan {
    /// For each wanted path, in the order given, what the index holds there.
    Paths(Vec<AtPath>),
    /// The index holds something the scan leaves to a full decode (see the module docs).
    Unusual,
}

/// The 16-bit flags: stage (2 bits), the extended bit and the name length.
const STAGE_MASK: u16 = 0x3000;
const EXTENDED: u16 = 0x4000;
const NAME_MASK: u16 = 0x0fff;
/// Extended flags (version 3 and later): intent-to-add, and the reserved top bit.
const INTENT_TO_ADD: u16 = 0x2000;
const EXTENDED_RESERVED: u16 = 0x8000;
/// Stat data before the object id: ctime, mtime (8 bytes each), dev, ino, mode, uid, gid,
/// size (4 bytes each).
const STAT_LEN: usize = 40;
/// Offset of the mode in an entry.
const MODE_AT: usize = 24;

/// Scans the index file at `path` (a missing file is the empty index) for the entries
/// at and under each of `paths`.
///
/// With `stop_early` the scan ends at the first entry that sorts after every wanted path
/// and everything under it (entries are sorted by path), without reading the rest or the
/// extensions. Only a split index needs them (its `link` extension says which entries
/// live in the shared index), so the caller passes `false` when one may be in use.
///
/// The file is read through a small buffer rather than whole: an index of a few thousand
/// entries is hundreds of kilobytes, and a fresh buffer that size costs a page fault per
/// page, more than the scan itself.
pub(crate) fn scan_file(
    path: &Path,
    hash: gix::hash::Kind,
    paths: &[&[u8]],
    stop_early: bool,
) -> std::io::Result<IndexScan> {
    let mut found: Vec<AtPath> = paths.iter().map(|_| AtPath::default()).collect();
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(IndexScan::Paths(found));
        }
        Err(e) => return Err(e),
    };
    let len = file.metadata()?.len();
    let mut window = Window {
        file,
        buf: vec![0; WINDOW],
        start: 0,
        end: 0,
        consumed: 0,
    };
    Ok(
        match scan_entries(&mut window, len, hash, paths, stop_early, &mut found)? {
            Some(()) => IndexScan::Paths(found),
            None => IndexScan::Unusual,
        },
    )
}

/// Whether the index at `index` may be split (`git update-index --split-index`,
/// `core.splitIndex`): a `sharedindex.<id>` file beside it or in the git dir `git_dir`.
/// An unreadable directory counts as "may be".
pub(crate) fn may_be_split(index: &Path, git_dir: &Path) -> bool {
    let shared = |dir: &Path| match std::fs::read_dir(dir) {
        Ok(entries) => entries.filter_map(Result::ok).any(|e| {
            e.file_name()
                .as_encoded_bytes()
                .starts_with(b"sharedindex.")
        }),
        Err(_) => true,
    };
    let beside = index.parent().unwrap_or(git_dir);
    shared(git_dir) || (beside != git_dir && shared(beside))
}

/// Bytes read at a time.
const WINDOW: usize = 64 * 1024;

/// A read-ahead buffer over the index file.
struct Window {
    file: std::fs::File,
    buf: Vec<u8>,
    /// The unread bytes are `buf[start..end]`.
    start: usize,
    end: usize,
    /// File offset of `buf[start]`.
    consumed: u64,
}

impl Window {
    /// The unread bytes, at least `n` of them unless the file ends first.
    #[inline]
    fn fill(&mut self, n: usize) -> std::io::Result<&[u8]> {
        if self.end - self.start < n {
            self.refill(n)?;
        }
        Ok(&self.buf[self.start..self.end])
    }

    #[cold]
    fn refill(&mut self, n: usize) -> std::io::Result<()> {
        {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
            if self.buf.len() < n {
                self.buf.resize(n, 0);
            }
            while self.end < n {
                let read = self.file.read(&mut self.buf[self.end..])?;
                if read == 0 {
                    break;
                }
                self.end += read;
            }
        }
        Ok(())
    }

    fn advance(&mut self, n: usize) {
        self.start += n;
        self.consumed += n as u64;
    }

    /// Moves to the file offset `to`, at or after the current one.
    fn skip_to(&mut self, to: u64) -> std::io::Result<()> {
        let ahead = to - self.consumed;
        if ahead <= (self.end - self.start) as u64 {
            self.advance(ahead as usize);
        } else {
            self.file.seek(std::io::SeekFrom::Start(to))?;
            self.start = 0;
            self.end = 0;
            self.consumed = to;
        }
        Ok(())
    }
}

/// git's offset varint (`decode_varint`): 7 bits a byte, most significant first, each
/// continuation adding one.
fn varint(data: &[u8], at: &mut usize) -> Option<usize> {
    let mut byte = *data.get(*at)?;
    *at += 1;
    let mut value = usize::from(byte & 0x7f);
    while byte & 0x80 != 0 {
        byte = *data.get(*at)?;
        *at += 1;
        value = value.checked_add(1)?.checked_mul(128)? | usize::from(byte & 0x7f);
    }
    Some(value)
}

/// One entry parsed from the front of a buffer.
enum Parsed<'a> {
    Entry {
        /// Its length on disk.
        len: usize,
        id: &'a [u8],
        /// Its path (version 4: the part appended to the previous path's kept prefix).
        name: &'a [u8],
        /// Version 4: how many bytes of the previous path to drop.
        strip: usize,
    },
    /// The buffer ends inside the entry.
    Incomplete,
    /// Unusual or malformed.
    Unusual,
}

fn parse_entry(data: &[u8], version: u32, hash_len: usize) -> Parsed<'_> {
    let fixed = STAT_LEN + hash_len + 2;
    let Some(head) = data.get(..fixed) else {
        return Parsed::Incomplete;
    };
    let mode = u32::from_be_bytes([
        head[MODE_AT],
        head[MODE_AT + 1],
        head[MODE_AT + 2],
        head[MODE_AT + 3],
    ]);
    let flags = u16::from_be_bytes([head[fixed - 2], head[fixed - 1]]);
    if flags & STAGE_MASK != 0 || mode & super::S_IFMT == 0o040000 {
        return Parsed::Unusual;
    }
    let id = &head[STAT_LEN..STAT_LEN + hash_len];
    let mut name_at = fixed;
    if flags & EXTENDED != 0 {
        if version < 3 {
            return Parsed::Unusual;
        }
        let Some(ext) = data.get(name_at..name_at + 2) else {
            return Parsed::Incomplete;
        };
        if u16::from_be_bytes([ext[0], ext[1]]) & (INTENT_TO_ADD | EXTENDED_RESERVED) != 0 {
            return Parsed::Unusual;
        }
        name_at += 2;
    }
    let mut strip = 0;
    if version == 4 {
        match varint(data, &mut name_at) {
            Some(n) => strip = n,
            None if data.len() < name_at + 16 => return Parsed::Incomplete,
            None => return Parsed::Unusual,
        }
    }
    // Version 4 and paths of 4,095 bytes or more: up to the NUL; else from the flags.
    let name_len = if version == 4 || flags & NAME_MASK == NAME_MASK {
        match data
            .get(name_at..)
            .and_then(|r| r.iter().position(|b| *b == 0))
        {
            Some(n) => n,
            None => return Parsed::Incomplete,
        }
    } else {
        usize::from(flags & NAME_MASK)
    };
    let len = if version == 4 {
        name_at + name_len + 1
    } else {
        // Padded with 1 to 8 NULs to a multiple of 8 (git's `ondisk_ce_size`).
        (name_at + name_len + 8) & !7
    };
    if data.len() < len {
        return Parsed::Incomplete;
    }
    if data[name_at + name_len] != 0 {
        return Parsed::Unusual;
    }
    Parsed::Entry {
        len,
        id,
        name: &data[name_at..name_at + name_len],
        strip,
    }
}

/// `Ok(None)`: unusual or malformed.
fn scan_entries(
    window: &mut Window,
    file_len: u64,
    hash: gix::hash::Kind,
    paths: &[&[u8]],
    stop_early: bool,
    found: &mut [AtPath],
) -> std::io::Result<Option<()>> {
    let hash_len = hash.len_in_bytes();
    let header = window.fill(12)?;
    if header.get(..4) != Some(b"DIRC".as_slice()) || header.len() < 12 {
        return Ok(None);
    }
    let version = u32::from_be_bytes([header[4], header[5], header[6], header[7]]);
    let count = u32::from_be_bytes([header[8], header[9], header[10], header[11]]);
    if !(2..=4).contains(&version) {
        return Ok(None);
    }
    window.advance(12);
    // The entries and extensions end before the trailing checksum.
    let Some(end) = file_len.checked_sub(hash_len as u64) else {
        return Ok(None);
    };
    // Entries sort by path: once one sorts after the greatest `path/`, none that follows
    // is at or under a wanted path.
    let last: Option<Vec<u8>> = paths
        .iter()
        .filter(|_| stop_early)
        .map(|p| [*p, b"/"].concat())
        .max();
    let mut firsts = [false; 256];
    for p in paths {
        if let Some(b) = p.first() {
            firsts[usize::from(*b)] = true;
        }
    }
    // Version 4: the previous entry's path, which the next one's is relative to.
    let mut v4_path: Vec<u8> = Vec::new();
    let mut want = STAT_LEN + hash_len + 2 + 8;
    let mut left = count;
    while left > 0 {
        let data = window.fill(want)?;
        let (len, id, name, strip) = match parse_entry(data, version, hash_len) {
            Parsed::Entry {
                len,
                id,
                name,
                strip,
            } => (len, id, name, strip),
            Parsed::Unusual => return Ok(None),
            Parsed::Incomplete if data.len() < want => return Ok(None),
            Parsed::Incomplete => {
                want = want.saturating_mul(2);
                continue;
            }
        };
        want = STAT_LEN + hash_len + 2 + 8;
        let path = if version == 4 {
            let Some(keep) = v4_path.len().checked_sub(strip) else {
                return Ok(None);
            };
            v4_path.truncate(keep);
            v4_path.extend_from_slice(name);
            v4_path.as_slice()
        } else {
            name
        };
        if let Some(key) = &last {
            let n = path.len().min(key.len());
            if path[..n] > key[..n] {
                return Ok(Some(()));
            }
        }
        // Most entries start with a byte no wanted path starts with.
        if path.first().is_some_and(|b| firsts[usize::from(*b)]) {
            for (w, out) in paths.iter().zip(found.iter_mut()) {
                if path.len() < w.len() || path.first() != w.first() {
                    continue;
                }
                match path.get(w.len()) {
                    None if path == *w => out.exact = Some(ObjectId::from_bytes_or_panic(id)),
                    Some(b'/') if path.starts_with(w) => out
                        .under
                        .push((path.to_vec(), ObjectId::from_bytes_or_panic(id))),
                    _ => {}
                }
            }
        }
        window.advance(len);
        left -= 1;
        if window.consumed > end {
            return Ok(None);
        }
    }
    // The extensions: a split index keeps its entries elsewhere, a sparse one has
    // directory entries, and git refuses any other required (lowercase) one it does not
    // know; only optional ones are safe to pass over.
    while window.consumed < end {
        let head = window.fill(8)?;
        if head.len() < 8 || !head[0].is_ascii_uppercase() {
            return Ok(None);
        }
        let size = u64::from(u32::from_be_bytes([head[4], head[5], head[6], head[7]]));
        let next = window.consumed + 8 + size;
        if next > end {
            return Ok(None);
        }
        window.skip_to(next)?;
    }
    Ok((window.consumed == end).then_some(()))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use proptest::prelude::*;

    /// A real index of each version, written by git.
    fn indexes() -> &'static [Vec<u8>] {
        static INDEXES: std::sync::OnceLock<Vec<Vec<u8>>> = std::sync::OnceLock::new();
        INDEXES.get_or_init(|| {
            let sb = jitcommit_testkit::Sandbox::new();
            ["2", "3", "4"]
                .iter()
                .map(|v| {
                    let r = sb.init(&format!("v{v}"));
                    for f in ["a.rs", "b/c.rs", "b/d/e.rs", "b-x/y.rs", "b0"] {
                        jitcommit_testkit::write(&r, f, f);
                    }
                    sb.git(&r, &["add", "-A"]);
                    if *v == "3" {
                        sb.git(&r, &["update-index", "--skip-worktree", "a.rs"]);
                    } else {
                        sb.git(&r, &["update-index", "--index-version", v]);
                    }
                    sb.git(&r, &["write-tree"]);
                    std::fs::read(r.join(".git/index")).unwrap()
                })
                .collect()
        })
    }

    fn scan_with(data: &[u8], paths: &[&[u8]], stop_early: bool) -> IndexScan {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("index");
        std::fs::write(&path, data).unwrap();
        scan_file(&path, gix::hash::Kind::Sha1, paths, stop_early).unwrap()
    }

    fn scan_bytes(data: &[u8]) -> IndexScan {
        scan_with(data, &[b"b", b"a.rs", b"b/d/e.rs"], false)
    }

    #[test]
    fn reads_every_version() {
        for data in indexes() {
            let IndexScan::Paths(found) = scan_bytes(data) else {
                panic!("unusual: version {}", data[7]);
            };
            assert_eq!(found[0].under.len(), 2, "version {}", data[7]);
            assert!(found[1].exact.is_some() && found[2].exact.is_some());
        }
    }

    /// Stopping at the first entry past the wanted paths finds what the whole scan finds,
    /// with names that sort around `/` (`b-x/` before `b/`, `b0` after).
    #[test]
    fn stopping_early_finds_the_same() {
        let sets: &[&[&[u8]]] = &[
            &[b"b"],
            &[b"a.rs"],
            &[b"b/d"],
            &[b"b-x"],
            &[b"b", b"b-x"],
            &[b"b/d/e.rs", b"a.rs"],
            &[b"b0", b"b"],
            &[b"zzz"],
        ];
        for data in indexes() {
            for set in sets {
                assert_eq!(
                    scan_with(data, set, true),
                    scan_with(data, set, false),
                    "version {}: {set:?}",
                    data[7]
                );
            }
        }
    }

    proptest! {
        /// Damaged indexes (bytes changed, cut short) never panic: they read as some
        /// answer or as unusual, which sends the caller to gix's full decode.
        #[test]
        fn damaged_indexes_do_not_panic(
            which in 0usize..3,
            edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8),
            cut in any::<prop::sample::Index>(),
        ) {
            let mut data = indexes()[which].clone();
            for (at, byte) in edits {
                let i = at.index(data.len());
                data[i] = byte;
            }
            data.truncate(cut.index(data.len() + 1).max(1));
            let _ = scan_bytes(&data);
        }
    }
}
