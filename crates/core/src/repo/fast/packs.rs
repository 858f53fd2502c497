//! Gain: docs/gix-delta-cache.md ("The gap", "What packs.rs does instead"): a traced
//! `jitcommit-check --range` over a generated 3,500-commit history after `git repack
//! -adf` took 11.1 billion instructions with gix alone and 2.5 billion with this
//! reader's cache (4.4×); inflating with room past an entry's end, 0.9–1.2 M fewer
//! instructions in a one-file `--print-context` (docs/benchmarks.md, section
//! `print-context-speed`). Recorded figures, not re-measured when the file moved here
//! (the note's "Not re-measured" says what was never run against a gix-only build).
//! Guard: `packs_tests.rs` beside it compares every object and every prefix it reads
//! with `git cat-file`, in each pack layout git writes (offset and ref deltas, thin
//! packs in a pre-receive quarantine, alternates), under every cache size.
//! Waits for: gix caching the links `decode_entry` resolves and inflating with room
//! past an entry's end (docs/gix-delta-cache.md, "The proposal", 1 and 3); then the
//! history walks read through `Repository::find_object` and this file goes.
//!
//! The object path of history walks: trees read straight from the repository's pack
//! files, with a delta-base cache that keeps every link of a chain it resolves, the way
//! git's `delta_base_cache` does. gix's own cache keeps only the objects asked for, so a
//! walk over a repacked history would rebuild ever longer chains from their base again
//! and again (docs/gix-delta-cache.md: the measurements and a proposal for gix).
//!
//! [`PackReader`] walks a chain's headers down only to a cached entry or the full base,
//! rebuilds the chain upwards one delta a step ([`apply_delta`]; gix's is private) and
//! caches every link. It inflates each entry with room past its end ([`FAST_ROOM`]),
//! which gix's entry decoding does not give. Anything it does not handle (a loose object, a
//! REF_DELTA base in no pack, a corrupt entry, an absurd chain) reads as `None`, and the
//! caller asks gix, which reports a truly missing or corrupt object with its own error.

use std::cell::RefMut;
use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::rc::Rc;

use gix::object::Kind;
use gix::odb::pack;
use pack::data::entry::Header;

use crate::repo::Repo;

/// Bytes of decoded entries a reader keeps (one reader per thread, up to 4; the sizes
/// measured are in docs/gix-delta-cache.md).
pub(crate) const CACHE_BYTES: usize = 16 * 1024 * 1024;

/// Entries of the largest size seen the cache makes room for, up to [`CACHE_MAX_BYTES`]:
/// a fixed byte budget would hold fewer links of each chain as a directory's tree grows,
/// and a chain that no longer fits is rebuilt from its base on every read
/// (docs/gix-delta-cache.md, "Large trees").
const CACHE_ENTRIES: usize = 256;

/// The most a reader's cache grows to: git's default `core.deltaBaseCacheLimit`.
const CACHE_MAX_BYTES: usize = 96 * 1024 * 1024;

/// Links a chain may have before the reader leaves it to gix. git writes at most 4095
/// (`pack.depth` is capped there); REF_DELTA links can form a cycle, which this bounds.
const MAX_CHAIN: usize = 4096;

/// Bytes a cache entry costs beyond its data (the maps' bookkeeping), so a cache of many
/// tiny objects stays bounded too.
const ENTRY_OVERHEAD: usize = 64;

/// The object directories gix searches: the store's own, then its alternates' (in a
/// pre-receive hook the store is a private directory whose alternates list the
/// quarantine first, then the repository's objects).
pub(crate) fn object_dirs(repo: &gix::Repository) -> Vec<PathBuf> {
    let store = repo.objects.store_ref();
    let mut dirs = vec![store.path().to_owned()];
    dirs.extend(store.alternate_db_paths().unwrap_or_default());
    dirs
}

/// The pack indexes (`pack/*.idx`) in `dirs`, in the order of `dirs`, each directory's
/// sorted by name.
pub(crate) fn pack_indexes(dirs: &[PathBuf]) -> Vec<PathBuf> {
    let mut all = Vec::new();
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(dir.join("pack")) else {
            continue;
        };
        let mut idx: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "idx"))
            .collect();
        idx.sort();
        all.extend(idx);
    }
    all
}

/// What a reader did: the tests (`packs_tests.rs`) check with it that a walk hits the
/// cache and falls back to gix where it should.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PackStats {
    /// Objects asked for.
    pub reads: u64,
    /// Of those, the ones left to gix (not in a pack, or not decodable here).
    pub fallbacks: u64,
    /// Lookups answered by the cache (the object itself or a chain's lowest cached link).
    pub hits: u64,
    /// Full (non-delta) entries inflated.
    pub bases: u64,
    /// Deltas applied.
    pub deltas: u64,
    /// Full entries of which only a prefix was inflated ([`PackReader::read_prefix`]).
    pub prefixes: u64,
}

/// One pack, opened on first lookup.
struct Pack {
    idx: PathBuf,
    /// `None` until opened; `Some(None)` when it cannot be opened.
    bundle: Option<Option<pack::Bundle>>,
}

/// The pack with index `i` of `packs`, opened if need be.
fn bundle(packs: &mut [Pack], hash: gix::hash::Kind, i: usize) -> Option<&pack::Bundle> {
    let p = packs.get_mut(i)?;
    p.bundle
        .get_or_insert_with(|| pack::Bundle::at(&p.idx, hash).ok())
        .as_ref()
}

/// The compressed data of `entry` in pack `i` (to the pack's end: the stream says where
/// it stops) and the size its header gives it.
fn entry_data<'a>(
    packs: &'a mut [Pack],
    hash: gix::hash::Kind,
    i: usize,
    entry: &pack::data::Entry,
) -> Option<(&'a [u8], usize)> {
    let b = bundle(packs, hash, i)?;
    let input = b
        .pack
        .entry_slice(entry.data_offset..b.pack.pack_end() as u64)?;
    Some((input, usize::try_from(entry.decompressed_size).ok()?))
}

/// Where a cached entry is: (pack index in the reader, data offset of the entry).
type Key = (usize, u64);

/// Hashes a [`Key`] by mixing its two numbers (SipHash, the default, cost 2% of a traced
/// range's instructions for keys no one can choose).
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(u64::from(*b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

/// The cache's map.
type Slots = HashMap<Key, Slot, std::hash::BuildHasherDefault<KeyHasher>>;

/// A decoded object in the cache.
struct Slot {
    kind: Kind,
    data: Rc<Vec<u8>>,
    tick: u64,
    /// Found in the cache since it was put there: it served as a chain's base (or was
    /// asked for again), so it is kept ahead of entries decoded once.
    reused: bool,
}

/// The share of the cache's bytes its reused entries may fill (in quarters); the rest
/// holds what was decoded last, until it is reused or evicted.
const REUSED_QUARTERS: usize = 3;

/// Decoded entries by [`Key`], in two parts, each least recently used first: entries
/// decoded and not found again since, evicted first once over `limit` bytes (which grows
/// with the largest entry, see [`CACHE_ENTRIES`]), and entries found again, which may
/// fill [`REUSED_QUARTERS`] of the limit (beyond that the least recently used go back
/// to the first part).
///
/// A walk over a repacked history asks for thousands of trees, most of them at the
/// pack's greatest delta depth: no other entry is built on them, and a cache that kept
/// the last ones read whatever they are lost the few bases they share once the trees
/// were large (at 128,000 files, 700 KB trees, a run rebuilt twice as many deltas as at
/// 64,000 files; bench/trace-scaling.sh). git's own delta-base cache keeps only the
/// bases it applied a delta to, for the same reason.
struct Cache {
    limit: usize,
    /// What `limit` may grow to.
    most: usize,
    bytes: usize,
    /// Bytes of the reused entries.
    reused_bytes: usize,
    tick: u64,
    slots: Slots,
    /// Every use of an entry not reused yet as (tick, key), oldest first; a use whose
    /// tick is no longer its slot's is stale and skipped (cheaper than reordering a map
    /// on every use).
    fresh: VecDeque<(u64, Key)>,
    /// The same for the reused entries.
    reused: VecDeque<(u64, Key)>,
}

impl Cache {
    fn new(limit: usize, most: usize) -> Self {
        Cache {
            limit,
            most: most.max(limit),
            bytes: 0,
            reused_bytes: 0,
            tick: 0,
            slots: Slots::default(),
            fresh: VecDeque::new(),
            reused: VecDeque::new(),
        }
    }

    /// What an entry of `data` costs.
    fn cost(data: &[u8]) -> usize {
        data.len() + ENTRY_OVERHEAD
    }

    /// Drops the stale uses once they outnumber the live ones (each slot has one).
    fn compact(&mut self) {
        if self.fresh.len() + self.reused.len() > 2 * self.slots.len() + 64 {
            let slots = &self.slots;
            let live = |(t, k): &(u64, Key)| slots.get(k).is_some_and(|s| s.tick == *t);
            self.fresh.retain(live);
            self.reused.retain(live);
        }
    }

    /// The least recently used live entry of `fresh` (or of `reused`), taken off its
    /// list; its slot stays.
    fn oldest(&mut self, reused: bool) -> Option<Key> {
        let list = if reused {
            &mut self.reused
        } else {
            &mut self.fresh
        };
        while let Some((tick, key)) = list.pop_front() {
            if self.slots.get(&key).is_some_and(|s| s.tick == tick) {
                return Some(key);
            }
        }
        None
    }

    fn get(&mut self, key: Key) -> Option<(Kind, Rc<Vec<u8>>)> {
        self.tick += 1;
        let tick = self.tick;
        let slot = self.slots.get_mut(&key)?;
        slot.tick = tick;
        let hit = (slot.kind, Rc::clone(&slot.data));
        if !slot.reused {
            slot.reused = true;
            self.reused_bytes += Self::cost(&slot.data);
        }
        self.reused.push_back((tick, key));
        // Over its share, the least recently reused go back to the fresh entries, as
        // their most recent.
        while self.reused_bytes > self.limit / 4 * REUSED_QUARTERS {
            let Some(old) = self.oldest(true) else {
                break;
            };
            self.tick += 1;
            let tick = self.tick;
            if let Some(s) = self.slots.get_mut(&old) {
                s.reused = false;
                s.tick = tick;
                self.reused_bytes -= Self::cost(&s.data);
                self.fresh.push_back((tick, old));
            }
        }
        self.compact();
        Some(hit)
    }

    fn put(&mut self, key: Key, kind: Kind, data: Rc<Vec<u8>>) {
        let cost = Self::cost(&data);
        self.limit = self
            .limit
            .max(cost.saturating_mul(CACHE_ENTRIES).min(self.most));
        if cost > self.limit || self.slots.contains_key(&key) {
            return;
        }
        while self.bytes + cost > self.limit {
            let Some(old) = self.oldest(false).or_else(|| self.oldest(true)) else {
                break;
            };
            if let Some(slot) = self.slots.remove(&old) {
                self.bytes -= Self::cost(&slot.data);
                if slot.reused {
                    self.reused_bytes -= Self::cost(&slot.data);
                }
            }
        }
        self.tick += 1;
        let tick = self.tick;
        self.fresh.push_back((tick, key));
        let reused = false;
        self.slots.insert(
            key,
            Slot {
                kind,
                data,
                tick,
                reused,
            },
        );
        self.bytes += cost;
        self.compact();
    }
}

/// Bytes of room zlib needs past an entry's end to decode all of it in its fast loop:
/// one length/distance pair writes up to 258 bytes, so inflate leaves its fast loop once
/// fewer are free and decodes the rest a bit at a time, several times slower per byte.
/// An output buffer sized exactly to the entry (as gix's `decompress_entry` sizes it)
/// sends the last 257 bytes of every object through that slow loop.
const FAST_ROOM: usize = 258;

/// Objects up to this size are inflated whole when only their start is asked for: with
/// [`FAST_ROOM`] the whole object costs fewer instructions than a prefix whose last 257
/// bytes take the slow loop (measured on commits: docs/benchmarks.md, section
/// `print-context-speed`).
const WHOLE_BELOW: usize = 1024;

/// The kind of a whole object's entry; `None` for a delta.
fn kind_of(header: &Header) -> Option<Kind> {
    match header {
        Header::Commit => Some(Kind::Commit),
        Header::Tree => Some(Kind::Tree),
        Header::Blob => Some(Kind::Blob),
        Header::Tag => Some(Kind::Tag),
        Header::OfsDelta { .. } | Header::RefDelta { .. } => None,
    }
}

/// Inflates the zlib stream at the start of `input`, which must hold exactly `size`
/// bytes, into `out` (cleared first). `None` when it is corrupt, ends early or runs past
/// `size`: a pack's entry header is not trusted.
fn inflate_exact(
    inflate: &mut gix::zlib::Inflate,
    input: &[u8],
    size: usize,
    out: &mut Vec<u8>,
) -> Option<()> {
    out.clear();
    // Deflate expands at most 1032:1: a header promising more than the rest of the pack
    // can hold is corrupt, and its buffer is never allocated.
    if size / 1032 > input.len() {
        return None;
    }
    let room = size.checked_add(FAST_ROOM)?;
    out.try_reserve_exact(room).ok()?;
    out.resize(room, 0);
    inflate.reset();
    let (status, _, written) = inflate.prefix(input, out).ok()?;
    if status != gix::zlib::Status::StreamEnd || written != size {
        out.clear();
        return None;
    }
    out.truncate(size);
    Some(())
}

/// Reads objects from the packs of a repository and its alternates (see the module docs).
pub(crate) struct PackReader {
    hash: gix::hash::Kind,
    packs: Vec<Pack>,
    /// The pack of the last object found, searched first.
    last: usize,
    cache: Cache,
    inflate: gix::zlib::Inflate,
    /// An inflated delta.
    delta: Vec<u8>,
    stats: PackStats,
}

impl PackReader {
    /// A reader of `repo`'s packs (listed now, opened on first lookup) keeping up to
    /// `cache_bytes` of decoded entries at first and `most_bytes` once entries are large
    /// (see [`CACHE_ENTRIES`]).
    pub(crate) fn new(repo: &gix::Repository, cache_bytes: usize, most_bytes: usize) -> Self {
        let packs = pack_indexes(&object_dirs(repo))
            .into_iter()
            .map(|idx| Pack { idx, bundle: None })
            .collect();
        PackReader {
            hash: repo.object_hash(),
            packs,
            last: 0,
            cache: Cache::new(cache_bytes, most_bytes),
            inflate: Default::default(),
            delta: Vec::new(),
            stats: PackStats::default(),
        }
    }

    /// The object `id` and its kind, shared with the cache (no copy); `None` when it is in
    /// no pack or cannot be decoded here: the caller asks gix.
    pub(crate) fn read(&mut self, id: &gix::oid) -> Option<(Kind, Rc<Vec<u8>>)> {
        self.stats.reads += 1;
        let found = self
            .locate(id)
            .and_then(|(pack, offset)| self.decode(pack, offset));
        if found.is_none() {
            self.stats.fallbacks += 1;
        }
        found
    }

    /// The kind of object `id` and at least its first `want` bytes into `out` (all of it
    /// when it is shorter), inflating no more of a full entry than that: a commit's tree
    /// and parents are its first hundred bytes, its messages and signatures can be
    /// thousands. An entry under [`WHOLE_BELOW`] bytes, a delta, or an entry the cache
    /// holds, is decoded whole. `None` as for [`PackReader::read`].
    pub(crate) fn read_prefix(
        &mut self,
        id: &gix::oid,
        want: usize,
        out: &mut Vec<u8>,
    ) -> Option<Kind> {
        out.clear();
        let (pack, offset) = self.locate(id)?;
        let (_, entry) = self.entry(pack, offset)?;
        let Some(kind) = kind_of(&entry.header)
            .filter(|_| !self.cache.slots.contains_key(&(pack, entry.data_offset)))
        else {
            self.stats.reads += 1;
            let Some((kind, data)) = self.decode(pack, offset) else {
                self.stats.fallbacks += 1;
                return None;
            };
            out.extend_from_slice(&data);
            return Some(kind);
        };
        self.stats.reads += 1;
        let (input, size) = entry_data(&mut self.packs, self.hash, pack, &entry)?;
        if size < WHOLE_BELOW {
            if inflate_exact(&mut self.inflate, input, size, out).is_none() {
                self.stats.fallbacks += 1;
                return None;
            }
            self.stats.prefixes += 1;
            return Some(kind);
        }
        let n = size.min(want);
        out.resize(n, 0);
        self.inflate.reset();
        let (status, _, written) = self.inflate.prefix(input, out).ok()?;
        // The whole object must end the stream where its header says it does.
        if written != n || (n == size && status != gix::zlib::Status::StreamEnd) {
            out.clear();
            self.stats.fallbacks += 1;
            return None;
        }
        self.stats.prefixes += 1;
        Some(kind)
    }

    #[cfg(test)]
    fn stats(&self) -> PackStats {
        self.stats
    }

    /// The pack holding `id` and the offset of its entry.
    fn locate(&mut self, id: &gix::oid) -> Option<(usize, u64)> {
        let first = self.last;
        for i in std::iter::once(first).chain((0..self.packs.len()).filter(|i| *i != first)) {
            let Some(b) = bundle(&mut self.packs, self.hash, i) else {
                continue;
            };
            if let Some(at) = b.index.lookup(id) {
                self.last = i;
                return Some((i, b.index.pack_offset_at_index(at)));
            }
        }
        None
    }

    /// The header of the entry at `offset` of pack `pack`.
    fn entry(&mut self, pack: usize, offset: u64) -> Option<(usize, pack::data::Entry)> {
        let b = bundle(&mut self.packs, self.hash, pack)?;
        Some((pack, b.pack.entry(offset).ok()?))
    }

    /// Decodes the entry at `offset` of pack `pack`: its chain is walked down to a cached
    /// entry or a full object, then rebuilt upwards, caching every link.
    fn decode(&mut self, pack: usize, offset: u64) -> Option<(Kind, Rc<Vec<u8>>)> {
        let mut chain = Vec::new();
        let mut at = self.entry(pack, offset)?;
        let (kind, mut data) = loop {
            if let Some(hit) = self.cache.get((at.0, at.1.data_offset)) {
                self.stats.hits += 1;
                break hit;
            }
            let below = match at.1.header {
                // Always before the delta (the distance is positive): no cycle.
                Header::OfsDelta { base_distance } => {
                    let base = at.1.checked_base_pack_offset(base_distance)?;
                    self.entry(at.0, base)?
                }
                Header::RefDelta { base_id } => {
                    let (p, o) = self.locate(&base_id)?;
                    self.entry(p, o)?
                }
                _ => {
                    let kind = kind_of(&at.1.header)?;
                    let (input, size) = entry_data(&mut self.packs, self.hash, at.0, &at.1)?;
                    let mut buf = Vec::new();
                    inflate_exact(&mut self.inflate, input, size, &mut buf)?;
                    self.stats.bases += 1;
                    let data = Rc::new(buf);
                    self.cache
                        .put((at.0, at.1.data_offset), kind, Rc::clone(&data));
                    break (kind, data);
                }
            };
            chain.push(std::mem::replace(&mut at, below));
            if chain.len() > MAX_CHAIN {
                return None;
            }
        };
        while let Some(delta) = chain.pop() {
            let (input, size) = entry_data(&mut self.packs, self.hash, delta.0, &delta.1)?;
            inflate_exact(&mut self.inflate, input, size, &mut self.delta)?;
            data = Rc::new(apply_delta(&data, &self.delta)?);
            self.stats.deltas += 1;
            self.cache
                .put((delta.0, delta.1.data_offset), kind, Rc::clone(&data));
        }
        Some((kind, data))
    }
}

/// The pack reader of a [`Repo`], opened once the probes have read [`WARM_UP_READS`]
/// trees through gix.
#[derive(Default)]
pub(crate) struct Packs {
    asked: u32,
    reader: Option<PackReader>,
}

/// Trees the path probes read through gix before they open the pack reader: opening it
/// reads each pack index again (gix holds its own copy), which a check of a few commits
/// does not win back; a range reads thousands.
const WARM_UP_READS: u32 = 16;

impl Repo {
    /// The pack reader, created on first use.
    fn packs(&self) -> RefMut<'_, PackReader> {
        RefMut::map(self.packs.borrow_mut(), |p| {
            p.reader
                .get_or_insert_with(|| PackReader::new(&self.repo, CACHE_BYTES, CACHE_MAX_BYTES))
        })
    }

    /// Says that the probes will read many trees (a range of hundreds of commits): the
    /// pack reader answers from the first, not after [`WARM_UP_READS`] trees read by gix,
    /// whose cache keeps no chain's links (at 128,000 files those reads, two threads'
    /// worth, cost a fifth of a 500-commit range's instructions).
    pub fn expect_many_trees(&self) {
        let mut p = self.packs.borrow_mut();
        p.asked = p.asked.max(WARM_UP_READS);
    }

    /// Reads `id` from the packs for a path probe (see [`PackReader::read`]); `None` also
    /// for the first [`WARM_UP_READS`] calls, which gix answers.
    pub(crate) fn read_packed_tree(&self, id: &gix::oid) -> Option<(Kind, Rc<Vec<u8>>)> {
        {
            let mut p = self.packs.borrow_mut();
            if p.reader.is_none() && p.asked < WARM_UP_READS {
                p.asked += 1;
                return None;
            }
        }
        self.packs().read(id)
    }

    /// The kind and at least the first `want` bytes of `id` from the packs, into `out`
    /// (see [`PackReader::read_prefix`]): `None` when gix must read it.
    pub(crate) fn read_packed_prefix(
        &self,
        id: &gix::oid,
        want: usize,
        out: &mut Vec<u8>,
    ) -> Option<Kind> {
        self.packs().read_prefix(id, want, out)
    }

    /// Reads `id` through the pack reader: `None` when it would fall back to gix. For
    /// the tests, which compare every object read with `git cat-file`.
    #[cfg(test)]
    fn read_packed(&self, id: gix::ObjectId) -> Option<(Kind, Vec<u8>)> {
        let (kind, data) = self.packs().read(&id)?;
        Some((kind, data.as_ref().clone()))
    }

    /// Starts the pack reader over with a cache of `bytes`. For the tests, which read
    /// the same objects under every cache size.
    #[cfg(test)]
    fn reset_pack_reader(&self, bytes: usize) {
        self.packs.borrow_mut().reader = Some(PackReader::new(&self.repo, bytes, bytes));
    }

    /// What the pack reader did so far. For the tests.
    #[cfg(test)]
    pub(crate) fn pack_stats(&self) -> PackStats {
        self.packs().stats()
    }
}

/// A size in a delta's header (little-endian base-128) and the bytes after it.
fn delta_size(d: &[u8]) -> Option<(u64, &[u8])> {
    let mut size = 0u64;
    for (i, b) in d.iter().enumerate().take(10) {
        size |= u64::from(b & 0x7f) << (7 * i);
        if b & 0x80 == 0 {
            return Some((size, &d[i + 1..]));
        }
    }
    None
}

/// The object the inflated delta `delta` makes of `base` (git's patch-delta.c); `None`
/// when the delta is malformed or does not fit `base`.
fn apply_delta(base: &[u8], delta: &[u8]) -> Option<Vec<u8>> {
    let (base_size, d) = delta_size(delta)?;
    let (size, mut d) = delta_size(d)?;
    if base_size != base.len() as u64 {
        return None;
    }
    let size = usize::try_from(size).ok()?;
    let mut out = Vec::new();
    out.try_reserve_exact(size).ok()?;
    while let Some((&cmd, rest)) = d.split_first() {
        d = rest;
        if cmd & 0x80 != 0 {
            // Copy from the base: offset and length bytes as the low bits say.
            let mut field = |bits: u8, width: u32| -> Option<usize> {
                let mut v = 0usize;
                for k in 0..width {
                    if cmd & (bits << k) != 0 {
                        let (&b, rest) = d.split_first()?;
                        d = rest;
                        v |= usize::from(b) << (8 * k);
                    }
                }
                Some(v)
            };
            let offset = field(0x01, 4)?;
            let len = match field(0x10, 3)? {
                0 => 0x10000,
                n => n,
            };
            out.extend_from_slice(base.get(offset..offset.checked_add(len)?)?);
        } else if cmd != 0 {
            let (insert, rest) = d.split_at_checked(usize::from(cmd))?;
            out.extend_from_slice(insert);
            d = rest;
        } else {
            return None;
        }
        if out.len() > size {
            return None;
        }
    }
    (out.len() == size).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::{CACHE_ENTRIES, Cache, Kind, apply_delta};
    use std::rc::Rc;

    #[test]
    fn the_cache_evicts_the_least_recently_used_and_stays_bounded() {
        let cost = 10 + super::ENTRY_OVERHEAD;
        let mut c = Cache::new(3 * cost, 3 * cost);
        for k in 0..3 {
            c.put((0, k), Kind::Tree, Rc::new(vec![0; 10]));
        }
        // Many uses of 0 and 2 (past the compaction of stale uses), none of 1.
        for _ in 0..500 {
            assert!(c.get((0, 0)).is_some());
            assert!(c.get((0, 2)).is_some());
        }
        c.put((0, 3), Kind::Tree, Rc::new(vec![0; 10]));
        assert!(c.get((0, 1)).is_none(), "the least recently used went");
        assert!(c.get((0, 0)).is_some() && c.get((0, 2)).is_some());
        // Then 3 is the least recently used.
        c.put((0, 4), Kind::Tree, Rc::new(vec![0; 10]));
        assert!(c.get((0, 3)).is_none());
        assert_eq!((c.slots.len(), c.bytes), (3, 3 * cost));
        assert!(c.fresh.len() + c.reused.len() <= 2 * c.slots.len() + 64);
    }

    #[test]
    fn entries_found_again_outlast_a_flood_of_new_ones_and_stay_bounded() {
        let cost = 10 + super::ENTRY_OVERHEAD;
        let mut c = Cache::new(8 * cost, 8 * cost);
        let bounded = |c: &Cache| {
            let held: usize = c
                .slots
                .values()
                .map(|s| s.data.len() + super::ENTRY_OVERHEAD)
                .sum();
            let reused: usize = (c.slots.values().filter(|s| s.reused))
                .map(|s| s.data.len() + super::ENTRY_OVERHEAD)
                .sum();
            assert_eq!((c.bytes, c.reused_bytes), (held, reused));
            assert!(c.bytes <= c.limit && c.reused_bytes <= c.limit / 4 * super::REUSED_QUARTERS);
            assert!(c.fresh.len() + c.reused.len() <= 2 * c.slots.len() + 64);
        };
        // Two bases, each found again once.
        for k in [0, 1] {
            c.put((0, k), Kind::Tree, Rc::new(vec![k as u8; 10]));
            assert!(c.get((0, k)).is_some());
        }
        // Then a thousand entries read once each: they evict each other, not the bases.
        for k in 2..1000 {
            c.put((0, k), Kind::Tree, Rc::new(vec![0; 10]));
            bounded(&c);
        }
        assert_eq!(c.get((0, 0)).map(|(_, d)| d[0]), Some(0));
        assert_eq!(c.get((0, 1)).map(|(_, d)| d[0]), Some(1));
        assert!(c.get((0, 500)).is_none() && c.get((0, 999)).is_some());
        // Everything found again: the reused part stays within its share, the least
        // recently used going back among the new entries, then out.
        for round in 0..3 {
            for k in 1000..1020 {
                c.put((0, k), Kind::Tree, Rc::new(vec![0; 10]));
                assert!(c.get((0, k)).is_some(), "{round} {k}");
                bounded(&c);
            }
        }
        assert_eq!(c.slots.len(), 8);
        assert_eq!(c.slots.values().filter(|s| s.reused).count(), 6);
        assert!(c.get((0, 0)).is_none() && c.get((0, 1019)).is_some());
    }

    #[test]
    fn the_cache_makes_room_for_large_entries_up_to_its_most() {
        let mut c = Cache::new(1000, 1 << 20);
        c.put((0, 0), Kind::Tree, Rc::new(vec![0; 100]));
        assert_eq!(c.limit, (100 + super::ENTRY_OVERHEAD) * CACHE_ENTRIES);
        // Every one of CACHE_ENTRIES such entries stays.
        for i in 1..CACHE_ENTRIES as u64 {
            c.put((0, i), Kind::Tree, Rc::new(vec![0; 100]));
        }
        assert_eq!(c.slots.len(), CACHE_ENTRIES);
        c.put((0, 9999), Kind::Tree, Rc::new(vec![0; 10_000]));
        assert_eq!(c.limit, 1 << 20, "capped at its most");
        let mut fixed = Cache::new(1000, 1000);
        fixed.put((0, 0), Kind::Tree, Rc::new(vec![0; 100]));
        assert_eq!(fixed.limit, 1000);
    }

    #[test]
    fn deltas_apply_and_malformed_ones_are_refused() {
        let base = b"hello, world";
        // base 12, result 9: copy 5 bytes at 7 ("world"), insert " ok!".
        let delta = [12, 9, 0x80 | 0x01 | 0x10, 7, 5, 4, b' ', b'o', b'k', b'!'];
        assert_eq!(
            apply_delta(base, &delta).as_deref(),
            Some(&b"world ok!"[..])
        );
        let bad: &[&[u8]] = &[
            &[],
            &[12],
            &[11, 9, 0x91, 7, 5, 4, b' ', b'o', b'k', b'!'], // wrong base size
            &[12, 8, 0x91, 7, 5, 4, b' ', b'o', b'k', b'!'], // result too long
            &[12, 10, 0x91, 7, 5, 4, b' ', b'o', b'k', b'!'], // result too short
            &[12, 5, 0x91, 8, 5],                            // copy past the base
            &[12, 5, 0x91, 7],                               // truncated copy
            &[12, 5, 0x91, 0xff, 0xff, 0xff, 0xff, 0xff],    // offset far out
            &[12, 4, 5, b'a'],                               // truncated insert
            &[12, 1, 0],                                     // reserved command
            &[
                12, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 1,
            ], // size overlong
            &[
                12, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 0x91, 7, 5,
            ], // huge result
        ];
        for d in bad {
            assert_eq!(apply_delta(base, d), None, "{d:?}");
        }
    }
}

#[cfg(test)]
#[path = "packs_tests.rs"]
#[allow(clippy::unwrap_used)]
mod git_tests;
