//! Rename pairing as git's `diffcore-rename` does it for `git diff -M` and `git status`,
//! on a diff taken without rename detection. gix pairs each destination with its best
//! source in path order; git first pairs identical contents (preferring a source with
//! the destination's file name), then files whose names are unique on both sides at a
//! higher similarity (75%), then every remaining pair by one global ranking of
//! similarity, with similarity measured on 64-byte-or-line chunks. On large changes the
//! two disagree (crates/core/tests/renames.rs), so this module follows git.
//!
//! Copy detection (`diff.renames = copies`) stays with gix.

use std::collections::HashMap;

use super::patch::{is_binary, spans};
use super::types::Entry;
use super::{ChangeKind, ObjectId, Repo, RepoError, S_IFMT};

/// git's `MAX_SCORE`: similarity 100%.
const MAX_SCORE: u64 = 60_000;
/// git's default `-M` threshold, 50%.
const MIN_SCORE: u64 = 30_000;
/// The threshold for pairs found by unique file names: halfway from 50% to 100%.
const MIN_BASENAME_SCORE: u64 = MIN_SCORE + MAX_SCORE / 4;
/// git keeps this many best sources per destination in its matrix.
const CANDIDATES: usize = 4;

const REGULAR: u32 = 0o100000;
const GITLINK: u32 = 0o160000;

/// A blob as git's similarity estimate sees it: its size and its chunk counts.
struct Content {
    size: u64,
    spans: HashMap<u32, u64>,
}

/// The file name after the last `/`.
fn basename(p: &[u8]) -> &[u8] {
    p.rsplit(|b| *b == b'/').next().unwrap_or(p)
}

struct Side {
    entry: usize,
    id: ObjectId,
    mode: u32,
    paired: bool,
}

impl Repo {
    /// Pairs the deletions and additions of `entries` (a diff without rename detection)
    /// into renames the way `git diff -M` does, with `limit` as `diff.renameLimit`
    /// (0: no limit). Other entries are kept as they are; the result is unsorted.
    // Sources and destinations are read and marked by index on both sides at once.
    #[allow(clippy::needless_range_loop)]
    pub(crate) fn pair_renames(
        &self,
        entries: Vec<Entry>,
        limit: usize,
    ) -> Result<Vec<Entry>, RepoError> {
        // git walks sources and destinations in path order.
        let mut entries = entries;
        super::staged::sort_entries(&mut entries);
        let mut srcs: Vec<Side> = Vec::new();
        let mut dsts: Vec<Side> = Vec::new();
        for (i, e) in entries.iter().enumerate() {
            match (
                e.change.kind,
                e.change.old_mode,
                e.old_id,
                e.change.new_mode,
                e.new_id,
            ) {
                (ChangeKind::Deleted, Some(mode), Some(id), _, _) if mode & S_IFMT != GITLINK => {
                    srcs.push(Side {
                        entry: i,
                        id,
                        mode,
                        paired: false,
                    })
                }
                (ChangeKind::Added, _, _, Some(mode), Some(id)) if mode & S_IFMT != GITLINK => dsts
                    .push(Side {
                        entry: i,
                        id,
                        mode,
                        paired: false,
                    }),
                _ => {}
            }
        }
        let mut pairs: Vec<(usize, usize)> = Vec::new(); // (src, dst) indices
        if !srcs.is_empty() && !dsts.is_empty() {
            let path = |s: &Side| entries[s.entry].change.path.as_slice();
            // 1. Identical contents; a source with the destination's name first, then the
            // first in path order.
            let mut by_id: HashMap<ObjectId, Vec<usize>> = HashMap::new();
            for (j, s) in srcs.iter().enumerate() {
                by_id.entry(s.id).or_default().push(j);
            }
            for d in 0..dsts.len() {
                let Some(cands) = by_id.get(&dsts[d].id) else {
                    continue;
                };
                let mut best: Option<(usize, u8)> = None;
                for &j in cands.iter().take(100) {
                    let s = &srcs[j];
                    if s.paired {
                        continue;
                    }
                    let both_regular =
                        s.mode & S_IFMT == REGULAR && dsts[d].mode & S_IFMT == REGULAR;
                    if !both_regular && s.mode != dsts[d].mode {
                        continue;
                    }
                    let score = 1 + u8::from(basename(path(s)) == basename(path(&dsts[d])));
                    if best.is_none_or(|(_, b)| score > b) {
                        best = Some((j, score));
                        if score == 2 {
                            break;
                        }
                    }
                }
                if let Some((j, _)) = best {
                    srcs[j].paired = true;
                    dsts[d].paired = true;
                    pairs.push((j, d));
                }
            }
            let mut contents: HashMap<ObjectId, Content> = HashMap::new();
            // 2. Names unique among the remaining sources and among the remaining
            // destinations, at 75%.
            let unique = |sides: &[Side]| {
                let mut m: HashMap<&[u8], Option<usize>> = HashMap::new();
                for (i, s) in sides.iter().enumerate().filter(|(_, s)| !s.paired) {
                    m.entry(basename(path(s)))
                        .and_modify(|v| *v = None)
                        .or_insert(Some(i));
                }
                m
            };
            let src_names = unique(&srcs);
            let dst_names = unique(&dsts);
            for j in 0..srcs.len() {
                if srcs[j].paired {
                    continue;
                }
                let name = basename(path(&srcs[j]));
                let (Some(Some(_)), Some(Some(d))) = (src_names.get(name), dst_names.get(name))
                else {
                    continue;
                };
                let d = *d;
                if dsts[d].paired {
                    continue;
                }
                let score =
                    self.similarity(&mut contents, &srcs[j], &dsts[d], MIN_BASENAME_SCORE)?;
                if score >= MIN_BASENAME_SCORE {
                    srcs[j].paired = true;
                    dsts[d].paired = true;
                    pairs.push((j, d));
                }
            }
            // 3. Every remaining pair, ranked once, within the rename limit.
            let left_src: Vec<usize> = (0..srcs.len()).filter(|&j| !srcs[j].paired).collect();
            let left_dst: Vec<usize> = (0..dsts.len()).filter(|&d| !dsts[d].paired).collect();
            let limit = if limit == 0 { 32_767 } else { limit as u64 };
            let (ns, nd) = (left_src.len() as u64, left_dst.len() as u64);
            let fits = (nd <= limit || ns <= limit) && nd * ns <= limit * limit;
            if fits && ns > 0 && nd > 0 {
                // (score, same name, dst, src), best CANDIDATES per destination.
                let mut matrix: Vec<(u64, bool, usize, usize)> = Vec::new();
                for &d in &left_dst {
                    let mut best: Vec<(u64, bool, usize, usize)> = Vec::new();
                    for &j in &left_src {
                        let score =
                            self.similarity(&mut contents, &srcs[j], &dsts[d], MIN_SCORE)?;
                        let same = basename(path(&srcs[j])) == basename(path(&dsts[d]));
                        let this = (score, same, d, j);
                        let better =
                            |a: &(u64, bool, usize, usize), b: &(u64, bool, usize, usize)| {
                                (a.0, a.1) > (b.0, b.1)
                            };
                        if best.len() < CANDIDATES {
                            best.push(this);
                        } else {
                            // The first of the worst is replaced by a strictly better one.
                            let mut worst = 0;
                            for i in 1..best.len() {
                                if better(&best[worst], &best[i]) {
                                    worst = i;
                                }
                            }
                            if better(&this, &best[worst]) {
                                best[worst] = this;
                            }
                        }
                    }
                    matrix.extend(best);
                }
                // Stable: equal candidates keep destination order.
                matrix.sort_by_key(|c| std::cmp::Reverse((c.0, c.1)));
                for (score, _, d, j) in matrix {
                    if score < MIN_SCORE {
                        break;
                    }
                    if dsts[d].paired || srcs[j].paired {
                        continue;
                    }
                    srcs[j].paired = true;
                    dsts[d].paired = true;
                    pairs.push((j, d));
                }
            }
        }
        if pairs.is_empty() {
            return Ok(entries);
        }
        let mut drop = vec![false; entries.len()];
        let mut renamed: Vec<Entry> = Vec::with_capacity(pairs.len());
        for (j, d) in pairs {
            let (src, dst) = (&entries[srcs[j].entry], &entries[dsts[d].entry]);
            drop[srcs[j].entry] = true;
            drop[dsts[d].entry] = true;
            let mut e = dst.clone();
            e.change.kind = ChangeKind::Renamed;
            e.change.old_path = Some(src.change.path.clone());
            e.change.old_mode = src.change.old_mode;
            e.old_id = src.old_id;
            renamed.push(e);
        }
        let mut out: Vec<Entry> = entries
            .into_iter()
            .zip(drop)
            .filter_map(|(e, d)| (!d).then_some(e))
            .collect();
        out.extend(renamed);
        Ok(out)
    }

    /// git's `estimate_similarity`: 0 for anything but two regular files or when the
    /// sizes alone rule out `min`, else the bytes of `dst` found in `src`'s chunks per
    /// `MAX_SCORE` of the larger size.
    fn similarity(
        &self,
        contents: &mut HashMap<ObjectId, Content>,
        src: &Side,
        dst: &Side,
        min: u64,
    ) -> Result<u64, RepoError> {
        if src.mode & S_IFMT != REGULAR || dst.mode & S_IFMT != REGULAR {
            return Ok(0);
        }
        for id in [src.id, dst.id] {
            if let std::collections::hash_map::Entry::Vacant(v) = contents.entry(id) {
                let data = self
                    .repo
                    .find_object(id)
                    .map_err(|e| RepoError::Object {
                        id,
                        shallow: false,
                        source: Box::new(e),
                    })?
                    .detach()
                    .data;
                v.insert(Content {
                    size: data.len() as u64,
                    spans: spans(&data, !is_binary(&data)),
                });
            }
        }
        let (sc, dc) = (&contents[&src.id], &contents[&dst.id]);
        let (max, base) = (sc.size.max(dc.size), sc.size.min(dc.size));
        if dc.size == 0 || max * (MAX_SCORE - min) < (max - base) * MAX_SCORE {
            return Ok(0);
        }
        let copied: u64 = dc
            .spans
            .iter()
            .map(|(h, n)| sc.spans.get(h).map_or(0, |m| (*m).min(*n)))
            .sum();
        Ok(copied * MAX_SCORE / max)
    }
}
