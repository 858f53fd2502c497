//! Reading a few objects without opening gix's object database, inflating each only as
//! far as the caller needs: what a commit-msg check's path probes read (HEAD's commit
//! and the trees down to each bullet's directory).
//!
//! Opening gix's object database for one lookup maps every pack index and checks each
//! one's offset table (`validate_size`): ~170,000 instructions and a page fault per
//! page on the bench's 26,000-object pack, for a handful of objects. And a lookup of one
//! name in an 850-file directory inflated the whole 34 KB tree to read the first fifth
//! of it. Here a pack index is read where git's layout (`gitformat-pack(5)`) says the
//! id is (its fan-out entry, then that bucket of ids, then the offset), the entry's
//! bytes are read from the pack file a block at a time, and inflating stops once
//! `enough` says the output holds what the caller looks for. Loose objects are inflated
//! from their file the same way.
//!
//! Only whole objects are read: a delta entry (whose base must be rebuilt first), a
//! version 1 index, a malformed or truncated entry all read as `None`, and the caller
//! reads the object through gix, which also reports a truly missing or corrupt object.

use std::fs::File;
use std::path::PathBuf;

use gix::object::Kind;
use gix::zlib::{Decompress, FlushDecompress, Status};

/// Bytes inflated between two calls of `enough`.
const STEP: usize = 4096;
/// Compressed bytes read from a pack at a time.
const BLOCK: usize = 16 * 1024;
/// `\377tOc`, then version 2.
const IDX_V2: [u8; 8] = [0xff, b't', b'O', b'c', 0, 0, 0, 2];
const FAN_AT: u64 = 8;
const FAN_LEN: usize = 256 * 4;

/// One pack: its index's fan-out table, read on first use, and the pack file.
struct Pack {
    idx_path: PathBuf,
    /// `None` until opened; `Some(None)` when it cannot be used here.
    open: Option<Option<OpenPack>>,
}

struct OpenPack {
    idx: File,
    pack: File,
    fan: [u32; 256],
}

impl OpenPack {
    fn open(idx_path: &std::path::Path) -> Option<OpenPack> {
        let idx = File::open(idx_path).ok()?;
        let mut head = [0u8; 8 + FAN_LEN];
        read_exact_at(&idx, &mut head, 0)?;
        if head[..8] != IDX_V2 {
            return None;
        }
        let mut fan = [0u32; 256];
        for (f, b) in fan.iter_mut().zip(head[8..].chunks_exact(4)) {
            *f = u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
        }
        // Ordered buckets, and a file long enough for the ids, CRCs and offsets they count
        // (so that no bucket read can ask for more than the file holds).
        let count = u64::from(fan[255]);
        let least = (8 + FAN_LEN as u64).checked_add(count.checked_mul(20 + 8)?)?;
        if fan.windows(2).any(|w| w[0] > w[1]) || idx.metadata().ok()?.len() < least {
            return None;
        }
        let pack = File::open(idx_path.with_extension("pack")).ok()?;
        Some(OpenPack { idx, pack, fan })
    }

    /// The offset of `id`'s entry in the pack, if this pack has it.
    fn offset(&self, id: &[u8]) -> Option<u64> {
        let hash_len = id.len();
        let first = usize::from(id[0]);
        let lo = if first == 0 { 0 } else { self.fan[first - 1] } as usize;
        let hi = self.fan[first] as usize;
        let count = self.fan[255] as u64;
        if lo == hi {
            return None;
        }
        let ids_at = FAN_AT + FAN_LEN as u64;
        let mut bucket = vec![0u8; (hi - lo) * hash_len];
        read_exact_at(&self.idx, &mut bucket, ids_at + (lo * hash_len) as u64)?;
        let (mut a, mut b) = (0, hi - lo);
        let found = loop {
            if a >= b {
                return None;
            }
            let mid = a + (b - a) / 2;
            match bucket[mid * hash_len..(mid + 1) * hash_len].cmp(id) {
                std::cmp::Ordering::Less => a = mid + 1,
                std::cmp::Ordering::Greater => b = mid,
                std::cmp::Ordering::Equal => break lo + mid,
            }
        };
        // After the ids: a CRC32 per object, then the 32-bit offsets, then the 64-bit ones.
        let offsets_at = ids_at + count * hash_len as u64 + count * 4;
        let mut word = [0u8; 4];
        read_exact_at(&self.idx, &mut word, offsets_at + found as u64 * 4)?;
        let small = u32::from_be_bytes(word);
        if small & 0x8000_0000 == 0 {
            return Some(u64::from(small));
        }
        let mut long = [0u8; 8];
        let large_at = offsets_at + count * 4 + u64::from(small & 0x7fff_ffff) * 8;
        read_exact_at(&self.idx, &mut long, large_at)?;
        Some(u64::from_be_bytes(long))
    }
}

/// What a [`Peek`] did, for tests and measurements.
#[doc(hidden)]
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct PeekStats {
    /// Objects read whole.
    pub whole: u64,
    /// Objects read in part (`enough` held before the end).
    pub partial: u64,
    /// Objects left to gix (`None`).
    pub fallbacks: u64,
}

/// Reads whole objects from loose files and packs (see the module docs).
pub(crate) struct Peek {
    /// The object directories: the repository's, then its alternates'.
    dirs: Vec<PathBuf>,
    packs: Option<Vec<Pack>>,
    hash_len: usize,
    inflate: Decompress,
    pub(crate) stats: PeekStats,
}

/// An object as far as it was read.
pub(crate) struct Peeked {
    pub(crate) kind: Kind,
    pub(crate) data: Vec<u8>,
    /// All of it; else a prefix that `enough` accepted.
    pub(crate) complete: bool,
}

impl Peek {
    pub(crate) fn new(dirs: Vec<PathBuf>, hash: gix::hash::Kind) -> Self {
        Peek {
            dirs,
            packs: None,
            hash_len: hash.len_in_bytes(),
            inflate: Decompress::new(),
            stats: PeekStats::default(),
        }
    }

    /// The object `id`, inflated until its end or until `enough(data so far)` holds
    /// (asked after every few kilobytes); `None` when it is not read here (see the module
    /// docs).
    pub(crate) fn read(
        &mut self,
        id: &gix::oid,
        enough: &mut dyn FnMut(&[u8]) -> bool,
    ) -> Option<Peeked> {
        let read = self.read_inner(id, enough);
        match &read {
            Some(p) if p.complete => self.stats.whole += 1,
            Some(_) => self.stats.partial += 1,
            None => self.stats.fallbacks += 1,
        }
        read
    }

    fn read_inner(
        &mut self,
        id: &gix::oid,
        enough: &mut dyn FnMut(&[u8]) -> bool,
    ) -> Option<Peeked> {
        if id.as_bytes().len() != self.hash_len {
            return None;
        }
        let hex = id.to_hex().to_string();
        for dir in &self.dirs {
            let path = dir.join(&hex[..2]).join(&hex[2..]);
            if let Ok(bytes) = std::fs::read(&path) {
                return self.inflate_loose(bytes, enough);
            }
        }
        let packs = self.packs.get_or_insert_with(|| {
            super::packs::pack_indexes(&self.dirs)
                .into_iter()
                .map(|idx_path| Pack {
                    idx_path,
                    open: None,
                })
                .collect()
        });
        for p in packs.iter_mut() {
            let Some(open) = p
                .open
                .get_or_insert_with(|| OpenPack::open(&p.idx_path))
                .as_ref()
            else {
                continue;
            };
            if let Some(offset) = open.offset(id.as_bytes()) {
                return inflate_packed(&mut self.inflate, &open.pack, offset, enough);
            }
        }
        None
    }

    /// A loose object: `<kind> <size>\0` then the data, all zlib-compressed.
    fn inflate_loose(
        &mut self,
        mut bytes: Vec<u8>,
        enough: &mut dyn FnMut(&[u8]) -> bool,
    ) -> Option<Peeked> {
        self.inflate.reset();
        let mut head = [0u8; 64];
        let mut got = 0;
        let mut used = 0;
        // The header, a byte at a time: it is a few bytes, and what follows is the data.
        let nul = loop {
            let before = (self.inflate.total_in(), self.inflate.total_out());
            let status = self
                .inflate
                .decompress(&bytes[used..], &mut head[got..=got], FlushDecompress::None)
                .ok()?;
            used += (self.inflate.total_in() - before.0) as usize;
            got += (self.inflate.total_out() - before.1) as usize;
            if got > 0 && head[got - 1] == 0 {
                break got - 1;
            }
            if got == head.len() || status != Status::Ok {
                return None;
            }
        };
        let header = std::str::from_utf8(&head[..nul]).ok()?;
        let (kind, size) = header.split_once(' ')?;
        let kind = Kind::from_bytes(kind.as_bytes()).ok()?;
        let size: usize = size.parse().ok()?;
        let end = bytes.len();
        let (data, complete) = inflate_stream(
            &mut self.inflate,
            &mut bytes,
            used,
            end,
            &mut |_| None,
            size,
            enough,
        )?;
        Some(Peeked {
            kind,
            data,
            complete,
        })
    }
}

/// Inflates the rest of a started stream: the compressed bytes at hand are
/// `buf[pos..end]`, and `refill(buf)` reads the next ones into `buf` (`None`: no more).
/// `Some((data, true))`: all `size` bytes; `Some((prefix, false))`: `enough` accepted a
/// prefix.
fn inflate_stream(
    inflate: &mut Decompress,
    buf: &mut [u8],
    mut pos: usize,
    mut end: usize,
    refill: &mut dyn FnMut(&mut [u8]) -> Option<usize>,
    size: usize,
    enough: &mut dyn FnMut(&[u8]) -> bool,
) -> Option<(Vec<u8>, bool)> {
    // A header's size is not to be trusted with a reservation.
    let mut out = Vec::with_capacity(size.min(1 << 20));
    while out.len() < size {
        if pos == end {
            end = refill(buf)?;
            pos = 0;
        }
        let have = out.len();
        out.resize(have + STEP.min(size - have), 0);
        let before = (inflate.total_in(), inflate.total_out());
        let status = inflate
            .decompress(&buf[pos..end], &mut out[have..], FlushDecompress::None)
            .ok();
        let used = (inflate.total_in() - before.0) as usize;
        let wrote = (inflate.total_out() - before.1) as usize;
        out.truncate(have + wrote);
        pos += used;
        match status? {
            Status::StreamEnd => break,
            Status::BufError => return None,
            Status::Ok if used == 0 && wrote == 0 && pos < end => return None,
            Status::Ok => {}
        }
        if out.len() < size && enough(&out) {
            return Some((out, false));
        }
    }
    (out.len() == size).then_some((out, true))
}

/// A whole object in a pack: its header (type in bits 4–6 of the first byte, size in
/// little-endian base-128), then the zlib stream, read a block at a time.
fn inflate_packed(
    inflate: &mut Decompress,
    pack: &File,
    offset: u64,
    enough: &mut dyn FnMut(&[u8]) -> bool,
) -> Option<Peeked> {
    let mut block = vec![0u8; BLOCK];
    let n = read_some(pack, &mut block, offset)?;
    let first = block[0];
    let kind = match (first >> 4) & 7 {
        1 => Kind::Commit,
        2 => Kind::Tree,
        3 => Kind::Blob,
        4 => Kind::Tag,
        // 6 and 7: deltas.
        _ => return None,
    };
    let mut size = u64::from(first & 0x0f);
    let mut shift = 4;
    let mut at = 1;
    let mut byte = first;
    while byte & 0x80 != 0 {
        if at >= n || shift > 57 {
            return None;
        }
        byte = block[at];
        size |= u64::from(byte & 0x7f) << shift;
        shift += 7;
        at += 1;
    }
    let size = usize::try_from(size).ok()?;
    inflate.reset();
    let mut next = offset + n as u64;
    let mut refill = |buf: &mut [u8]| {
        let got = read_some(pack, buf, next)?;
        next += got as u64;
        Some(got)
    };
    let (data, complete) = inflate_stream(inflate, &mut block, at, n, &mut refill, size, enough)?;
    Some(Peeked {
        kind,
        data,
        complete,
    })
}

/// Reads at most `buf.len()` bytes at `at`; `None` at the end of the file or on an error.
fn read_some(file: &File, buf: &mut [u8], at: u64) -> Option<usize> {
    match read_at(file, buf, at) {
        Ok(0) | Err(_) => None,
        Ok(n) => Some(n),
    }
}

/// Fills `buf` from `at`; `None` when the file ends first or on an error.
fn read_exact_at(file: &File, buf: &mut [u8], at: u64) -> Option<()> {
    let mut done = 0;
    while done < buf.len() {
        done += read_some(file, &mut buf[done..], at + done as u64)?;
    }
    Some(())
}

#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], at: u64) -> std::io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buf, at)
}

#[cfg(not(unix))]
fn read_at(mut file: &File, buf: &mut [u8], at: u64) -> std::io::Result<usize> {
    use std::io::{Read as _, Seek as _};
    file.seek(std::io::SeekFrom::Start(at))?;
    file.read(buf)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use proptest::prelude::*;

    /// A repository with one 20 KB blob, loose or packed, and the blob's id and bytes.
    fn repo(packed: bool) -> (jitcommit_testkit::Sandbox, PathBuf, gix::ObjectId, Vec<u8>) {
        let sb = jitcommit_testkit::Sandbox::new();
        let r = sb.init(if packed { "packed" } else { "loose" });
        let text: String = (0..2000).map(|i| format!("line {i}\n")).collect();
        jitcommit_testkit::write(&r, "a.txt", &text);
        sb.git(&r, &["add", "-A"]);
        sb.git(&r, &["commit", "-qm", "one"]);
        if packed {
            sb.git(&r, &["repack", "-adq"]);
            sb.git(&r, &["prune-packed"]);
        }
        let id = sb.git(&r, &["rev-parse", "HEAD:a.txt"]);
        let id = gix::ObjectId::from_hex(id.trim().as_bytes()).unwrap();
        (sb, r.join(".git/objects"), id, text.into_bytes())
    }

    #[test]
    fn reads_loose_and_packed_objects_whole_or_in_part() {
        for packed in [false, true] {
            let (_sb, objects, id, text) = repo(packed);
            let mut peek = Peek::new(vec![objects], gix::hash::Kind::Sha1);
            let whole = peek.read(&id, &mut |_| false).unwrap();
            assert_eq!((whole.kind, whole.complete), (Kind::Blob, true));
            assert_eq!(whole.data, text, "packed: {packed}");
            let part = peek.read(&id, &mut |d| d.len() >= 5000).unwrap();
            assert!(!part.complete && part.data.len() >= 5000 && part.data.len() < text.len());
            assert!(text.starts_with(&part.data), "packed: {packed}");
            let missing = gix::ObjectId::from_hex(b"1234567890123456789012345678901234567890");
            assert!(peek.read(&missing.unwrap(), &mut |_| false).is_none());
            assert_eq!(
                peek.stats,
                PeekStats {
                    whole: 1,
                    partial: 1,
                    fallbacks: 1
                }
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Damaged objects and indexes (bytes changed, cut short) never panic, and what
        /// reads as complete has the size its header declared.
        #[test]
        fn damaged_objects_do_not_panic(
            packed in any::<bool>(),
            which in 0usize..2,
            edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
            cut in any::<prop::sample::Index>(),
        ) {
            let (_sb, objects, id, text) = repo(packed);
            let file = if packed {
                let idx = super::super::packs::pack_indexes(std::slice::from_ref(&objects));
                let idx = idx[0].clone();
                if which == 0 { idx } else { idx.with_extension("pack") }
            } else {
                let hex = id.to_hex().to_string();
                objects.join(&hex[..2]).join(&hex[2..])
            };
            let mut data = std::fs::read(&file).unwrap();
            for (at, byte) in edits {
                let i = at.index(data.len());
                data[i] = byte;
            }
            data.truncate(cut.index(data.len() + 1).max(1));
            let mut perms = std::fs::metadata(&file).unwrap().permissions();
            #[allow(clippy::permissions_set_readonly_false)]
            perms.set_readonly(false);
            std::fs::set_permissions(&file, perms).unwrap();
            std::fs::write(&file, &data).unwrap();
            let mut peek = Peek::new(vec![objects], gix::hash::Kind::Sha1);
            if let Some(p) = peek.read(&id, &mut |_| false) {
                prop_assert!(p.complete);
                prop_assert_eq!(p.data.len(), text.len());
            }
        }
    }
}
