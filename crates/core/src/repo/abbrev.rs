//! Abbreviated object ids as git prints them on a diff's `index` line: at least
//! `core.abbrev` digits (`auto`: from the number of packed objects, at least 7), and one
//! more than the longest prefix the id shares with any other object, loose or packed.
//!
//! gix answers this by listing the object's loose fan-out directory on every call; with
//! thousands of staged (loose) blobs that listing repeats thousands of times and grows
//! with the repository, a quadratic step. Here each fan-out directory is listed once and
//! the pack indexes are searched directly, as git does with its loose-object cache.

use std::collections::HashMap;
use std::path::PathBuf;

use gix::ObjectId;

/// What abbreviating ids needs, read once per process.
pub(crate) struct Abbrev {
    /// The minimum number of hex digits.
    min: usize,
    /// Every loose object directory: the repository's, then its alternates'.
    loose_dirs: Vec<PathBuf>,
    /// Loose ids by fan-out byte, sorted, listed on first use.
    loose: HashMap<u8, Vec<ObjectId>>,
    packs: Vec<gix::odb::pack::index::File>,
}

impl Abbrev {
    /// Reads the pack indexes and `core.abbrev` (`setting`: its value, if set).
    pub(crate) fn new(repo: &gix::Repository, setting: Option<&str>) -> Self {
        let hash = repo.object_hash();
        let loose_dirs = super::packs::object_dirs(repo);
        let packs: Vec<_> = super::packs::pack_indexes(&loose_dirs)
            .iter()
            .filter_map(|p| gix::odb::pack::index::File::at(p, hash).ok())
            .collect();
        let full = hash.len_in_hex();
        let min = match setting.map(str::trim) {
            None | Some("auto") | Some("") => {
                let count: u64 = packs.iter().map(|p| u64::from(p.num_objects())).sum();
                let bits = 64 - count.leading_zeros() as usize;
                bits.div_ceil(2).max(7)
            }
            // git reads a false boolean ("no", "false", "off", "0") as "no abbreviation".
            Some(v) if super::parse_bool(v) == Some(false) => full,
            Some(v) => v.parse::<usize>().map_or(7, |n| n.clamp(4, full)),
        };
        Abbrev {
            min,
            loose_dirs,
            loose: HashMap::new(),
            packs,
        }
    }

    /// The abbreviation of `id`.
    pub(crate) fn short(&mut self, id: &ObjectId) -> String {
        let mut need = self.min;
        let mut widen = |other: &gix::oid| {
            if other != id.as_ref() {
                need = need.max(common_hex_prefix(id.as_bytes(), other.as_bytes()) + 1);
            }
        };
        let fan = id.as_bytes()[0];
        let loose = self
            .loose
            .entry(fan)
            .or_insert_with(|| list_fan_out(&self.loose_dirs, fan, id.kind()));
        let at = loose.partition_point(|x| x < id);
        for other in loose[at.saturating_sub(1)..loose.len().min(at + 2)].iter() {
            widen(other);
        }
        for pack in &self.packs {
            let n = pack.num_objects();
            let (mut lo, mut hi) = (0u32, n);
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                if pack.oid_at_index(mid) < id.as_ref() {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            for i in lo.saturating_sub(1)..n.min(lo + 2) {
                widen(pack.oid_at_index(i));
            }
        }
        id.to_hex_with_len(need.min(id.kind().len_in_hex()))
            .to_string()
    }
}

/// How many leading hex digits `a` and `b` share.
fn common_hex_prefix(a: &[u8], b: &[u8]) -> usize {
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        if x != y {
            return 2 * i + usize::from(x >> 4 == y >> 4);
        }
    }
    2 * a.len().min(b.len())
}

/// The loose ids whose first byte is `fan`, in every loose directory, sorted.
fn list_fan_out(dirs: &[PathBuf], fan: u8, kind: gix::hash::Kind) -> Vec<ObjectId> {
    let mut out = Vec::new();
    let rest_len = kind.len_in_hex() - 2;
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(dir.join(format!("{fan:02x}"))) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name();
            let Some(name) = name.to_str() else { continue };
            if name.len() != rest_len {
                continue;
            }
            if let Ok(id) = ObjectId::from_hex(format!("{fan:02x}{name}").as_bytes()) {
                out.push(id);
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}
