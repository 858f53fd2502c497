//! Gain: docs/gix-delta-cache.md ("What packs.rs does instead", the probes' side): each
//! tree's entries found in one pass over its bytes, 12 bytes an entry, in place of a
//! 40-byte decoded record an entry, took bench/trace-scaling.sh's 128,000 files from
//! 1.2× `git log --raw`'s CPU time to about half of it (docs/benchmarks.md,
//! `trace-scaling`); decoding the entries once per tree instead of once per path
//! component, with the pack reader's bookkeeping, 884 → 742 M instructions on a traced
//! 2,000-commit range (the same note, "Bookkeeping"). Recorded figures, not re-measured
//! when the reader moved here from repo/probe.rs.
//! Guard: the property test in [`tests`] holds it to gix's `TreeRefIter` entry by
//! entry, malformed trees included; `crates/core/tests/probe.rs` holds the probes
//! built on it to `git diff --raw` on generated histories.
//! Waits for: a gix tree type that keeps an entry's place in the object's bytes (name
//! range and mode, the id read in place) and looks a name up by bisection, so a tree
//! read once serves every lookup without a decoded copy of its entries
//! (`gix::objs::TreeRef::from_bytes` builds a `Vec` of entries on every decode).
//!
//! A tree's entries, read by hand from the tree object's bytes for the path probes and
//! the path history: where each entry's name, mode and id are, found once per tree.

use std::rc::Rc;

use gix::bstr::ByteSlice;
use gix::objs::tree::name_order;

use crate::repo::ObjectId;

/// A tree as the cache keeps it: its data and where its entries are, found once (a walk
/// looks most trees up more than once: as a commit's side, then as its child's parent
/// side). Ids and names stay in the data: a directory of thousands of files costs one
/// pass over its bytes and 12 bytes an entry, not a decoded copy of every entry.
pub(in crate::repo) struct Tree {
    pub(in crate::repo) data: Rc<Vec<u8>>,
    /// In the tree's order; `None` when the tree is malformed.
    entries: Option<Vec<Slot>>,
    hash_len: usize,
}

/// Where one entry of a [`Tree`] is: its name is `data[start..end]`, its id the
/// `hash_len` bytes after the NUL at `end`.
struct Slot {
    start: u32,
    end: u32,
    mode: gix::objs::tree::EntryMode,
}

impl Tree {
    pub(in crate::repo) fn new(data: Rc<Vec<u8>>, hash: gix::hash::Kind) -> Tree {
        let hash_len = hash.len_in_bytes();
        let entries = Self::slots(&data, hash_len);
        Tree {
            data,
            entries,
            hash_len,
        }
    }

    /// Each entry's place in `data`, read as gix reads a tree (`mode SP name NUL id`,
    /// the mode as `EntryMode::from_bytes` accepts it); `None` when an entry is
    /// malformed or the data is too large for 32-bit offsets.
    fn slots(data: &[u8], hash_len: usize) -> Option<Vec<Slot>> {
        u32::try_from(data.len()).ok()?;
        // A tree entry takes at least ~30 bytes (mode, space, name, NUL, id).
        let mut slots = Vec::with_capacity(data.len() / 32 + 1);
        let mut at = 0;
        // The last mode read, with its digits and space: most entries repeat it.
        let mut last: Option<(Prefix, gix::objs::tree::EntryMode)> = None;
        while at < data.len() {
            let rest = &data[at..];
            let (start, mode) = match last {
                Some((digits, mode)) if digits.starts(rest) => (at + digits.len, mode),
                _ => {
                    // gix reads at most seven digits and a space, and whether it takes
                    // the mode can depend on the byte after a short one.
                    let mode = gix::objs::tree::EntryMode::from_bytes(&rest[..rest.len().min(8)])?;
                    let space = rest.iter().take(8).position(|b| *b == b' ')?;
                    // Only a mode of five digits or more decides alone.
                    if space >= 5 {
                        last = Some((Prefix::new(&rest[..=space]), mode));
                    }
                    (at + space + 1, mode)
                }
            };
            let end = start + nul(&data[start..])?;
            let next = end + 1 + hash_len;
            if next > data.len() {
                return None;
            }
            // Offsets fit: the data's length does.
            slots.push(Slot {
                start: start as u32,
                end: end as u32,
                mode,
            });
            at = next;
        }
        Some(slots)
    }

    /// The name of `slot`.
    fn name(&self, slot: &Slot) -> &[u8] {
        &self.data[slot.start as usize..slot.end as usize]
    }

    /// The id of `slot`.
    fn id(&self, slot: &Slot) -> ObjectId {
        let at = slot.end as usize + 1;
        ObjectId::from_bytes_or_panic(&self.data[at..at + self.hash_len])
    }

    /// Its entries in the tree's order, as (name, mode, id); `None` when the tree is
    /// malformed.
    pub(in crate::repo) fn entries(
        &self,
    ) -> Option<impl Iterator<Item = (&[u8], gix::objs::tree::EntryMode, ObjectId)> + '_> {
        let slots = self.entries.as_ref()?;
        Some(slots.iter().map(|s| (self.name(s), s.mode, self.id(s))))
    }

    /// Bytes the cache accounts for it.
    pub(in crate::repo) fn cost(&self) -> usize {
        self.data.len() + self.entries.as_ref().map_or(0, Vec::len) * size_of::<Slot>()
    }

    /// The entry named `name`: a file (or other non-directory) first, then a directory;
    /// `None` when the tree is malformed.
    pub(in crate::repo) fn lookup(&self, name: &[u8]) -> Option<Found> {
        let slots = self.entries.as_ref()?;
        let find = |is_dir: bool| {
            slots
                .binary_search_by(|s| name_order(self.name(s), s.mode.is_tree(), name, is_dir))
                .ok()
        };
        Some(
            find(false)
                .or_else(|| find(true))
                .map(|i| (slots[i].mode, self.id(&slots[i]))),
        )
    }
}

/// A tree entry's mode and space (six to eight bytes) as one word, compared with the
/// next entry's first eight bytes at once: called for each entry, a slice comparison
/// was a third of parsing a tree.
#[derive(Clone, Copy)]
struct Prefix {
    word: u64,
    mask: u64,
    len: usize,
}

impl Prefix {
    /// `bytes`: at most 8.
    fn new(bytes: &[u8]) -> Prefix {
        let mut word = [0u8; 8];
        word[..bytes.len()].copy_from_slice(bytes);
        Prefix {
            word: u64::from_le_bytes(word),
            mask: u64::MAX
                .checked_shr(8 * (8 - bytes.len() as u32))
                .unwrap_or(0),
            len: bytes.len(),
        }
    }

    /// Whether `data` starts with these bytes.
    fn starts(&self, data: &[u8]) -> bool {
        match data.first_chunk::<8>() {
            Some(head) => u64::from_le_bytes(*head) & self.mask == self.word,
            None => data.len() >= self.len && Prefix::new(&data[..self.len]).word == self.word,
        }
    }
}

/// Where the first NUL of `data` is, eight bytes a step (a tree entry's name is short,
/// and a call to `memchr` per entry cost more than the search).
fn nul(data: &[u8]) -> Option<usize> {
    const LOW: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut at = 0;
    while let Some(chunk) = data.get(at..).and_then(<[u8]>::first_chunk::<8>) {
        let w = u64::from_le_bytes(*chunk);
        // The lowest set high bit marks the first zero byte (borrows only run upwards).
        let zero = w.wrapping_sub(LOW) & !w & HIGH;
        if zero != 0 {
            return Some(at + (zero.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    data[at..].find_byte(0).map(|i| at + i)
}

/// What a lookup found at a path: an entry's mode and id.
pub(in crate::repo) type Found = Option<(gix::objs::tree::EntryMode, ObjectId)>;

#[cfg(test)]
mod tests {
    use super::Tree;
    use proptest::prelude::*;
    use std::rc::Rc;

    /// What gix reads from `data`: every entry as (name, mode, id), or `None` when it
    /// finds the tree malformed.
    type Read = Option<Vec<(Vec<u8>, u16, gix::ObjectId)>>;

    fn by_gix(data: &[u8]) -> Read {
        gix::objs::TreeRefIter::from_bytes(data, gix::hash::Kind::Sha1)
            .map(|e| {
                e.ok()
                    .map(|e| (e.filename.to_vec(), e.mode.value(), e.oid.to_owned()))
            })
            .collect()
    }

    fn by_probe(data: &[u8]) -> Read {
        let tree = Tree::new(Rc::new(data.to_vec()), gix::hash::Kind::Sha1);
        Some(
            tree.entries()?
                .map(|(name, mode, id)| (name.to_vec(), mode.value(), id))
                .collect(),
        )
    }

    /// One tree entry, well formed or not: a mode among the usual ones and some odd ones
    /// (too long, not octal, empty), a name, maybe its NUL, an id maybe cut short.
    fn entry() -> impl Strategy<Value = Vec<u8>> {
        let modes = prop::sample::select(vec![
            &b"100644 "[..],
            b"100755 ",
            b"40000 ",
            b"040000 ",
            b"120000 ",
            b"160000 ",
            b"644 ",
            b" ",
            b"1000644 ",
            b"10064 4",
            b"100844 ",
            b"100644",
        ]);
        let name = prop::collection::vec(prop::sample::select(b"ab /\0 7".to_vec()), 0..5);
        let id = prop::collection::vec(any::<u8>(), 18..22);
        (modes, name, any::<bool>(), id).prop_map(|(mode, name, nul, id)| {
            let mut e = mode.to_vec();
            e.extend(name);
            if nul {
                e.push(0);
            }
            e.extend(id);
            e
        })
    }

    proptest! {
        // The probes read a tree's entries themselves: they must read exactly what gix
        // reads, and call malformed exactly the trees gix cannot read.
        #[test]
        fn trees_are_read_as_gix_reads_them(
            entries in prop::collection::vec(entry(), 0..6),
            noise in prop::collection::vec(any::<u8>(), 0..3),
        ) {
            let mut data = entries.concat();
            data.extend(noise);
            prop_assert_eq!(by_probe(&data), by_gix(&data));
        }

        // The word-at-a-time search finds the first NUL wherever it is (high bytes and
        // 0x01 bytes around it, which a careless zero-byte test mistakes for one).
        #[test]
        fn the_first_nul_is_found(
            data in prop::collection::vec(prop::sample::select(vec![0u8, 1, 0x7f, 0x80, 0xff, b'a']), 0..40),
        ) {
            prop_assert_eq!(super::nul(&data), data.iter().position(|b| *b == 0));
        }
    }
}
