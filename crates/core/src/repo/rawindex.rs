//! The index entries at a few bullet paths, read straight from the index file's bytes
//! for the staged-set probe (see [`super::probe`]). Decoding the whole index with gix
//! builds every entry, copies every path and decodes the cache tree: on a 15,000-file
//! work tree that was a fifth of a traced commit-msg check, for the handful of entries
//! a message's bullets name. This reader walks the entries in place and keeps only the
//! ones at or under the wanted paths.
//!
//! It reads index versions 2 and 3 only, and gives up (`None`: the caller decodes the
//! index with gix) on anything else: version 4's compressed paths, a split index (its
//! `link` extension), a sparse index (its `sdir` extension or a directory entry), a
//! path of 4,095 bytes or more, or a file that does not parse. Like git, it does not verify the trailing checksum.

use super::ObjectId;

/// What the index holds at one bullet path.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct AtPath {
    /// The entry at exactly this path.
    pub(super) exact: Option<ObjectId>,
    /// The entries under `path/`, in the index's order (full path, id).
    pub(super) under: Vec<(Vec<u8>, ObjectId)>,
}

/// One wanted path's findings while the entries are walked: `None` once an entry the
/// probe leaves to the full diff was met there (a conflict stage, an intent-to-add
/// entry, two entries at the same path).
type Slot = Option<AtPath>;

/// Stage bits of an entry's flags.
const STAGE_MASK: u16 = 0x3000;
/// The flag saying extended flags follow (version 3 and later).
const EXTENDED: u16 = 0x4000;
/// The name-length bits of the flags; this value means "longer, NUL-terminated".
const NAME_MASK: u16 = 0x0fff;
/// The extended flag of an intent-to-add entry.
const INTENT_TO_ADD: u16 = 0x2000;
/// The file-type bits of an entry's mode, and the value of a directory (sparse index).
const TYPE_MASK: u32 = 0o170_000;
const DIRECTORY: u32 = 0o040_000;

/// The entries of the index `data` (the file's bytes, `hash_len` the object id's length)
/// at or under each of `paths`, in `paths`' order; `None` when the file is one this
/// reader leaves to gix. An inner `None`: that path holds an entry the probe cannot
/// answer for.
pub(super) fn at_paths(
    data: &[u8],
    hash_len: usize,
    paths: &[&[u8]],
) -> Option<Vec<Option<AtPath>>> {
    if data.get(..4)? != b"DIRC" {
        return None;
    }
    let version = u32_at(data, 4)?;
    if !(2..=3).contains(&version) {
        return None;
    }
    let count = u32_at(data, 8)? as usize;
    let end = data.len().checked_sub(hash_len)?;
    let mut slots: Vec<Slot> = paths.iter().map(|_| Some(AtPath::default())).collect();
    let mut at = 12usize;
    for _ in 0..count {
        let mode = u32_at(data, at + 24)?;
        let id_at = at + 40;
        let flags = u16_at(data, id_at + hash_len)?;
        let mut name_at = id_at + hash_len + 2;
        let mut extended = 0u16;
        if flags & EXTENDED != 0 {
            if version < 3 {
                return None;
            }
            extended = u16_at(data, name_at)?;
            name_at += 2;
        }
        let rest = data.get(name_at..end)?;
        // A name of 4,095 bytes or more (NUL-terminated) is left to gix, which reports
        // such an index unreadable: the verdicts stay those of the full diff.
        let len = match flags & NAME_MASK {
            NAME_MASK => return None,
            n => usize::from(n),
        };
        let name = rest.get(..len)?;
        // git pads each entry with 1 to 8 NULs to a multiple of 8 bytes.
        let next = at + ((name_at - at + len + 8) & !7);
        if next > end {
            return None;
        }
        if mode & TYPE_MASK == DIRECTORY {
            return None;
        }
        let plain = flags & STAGE_MASK == 0 && extended & INTENT_TO_ADD == 0;
        for (slot, want) in slots.iter_mut().zip(paths) {
            let Some(found) = slot else { continue };
            let exact = name == *want;
            let under = !exact
                && name.len() > want.len()
                && name.starts_with(want)
                && name[want.len()] == b'/';
            if !(exact || under) {
                continue;
            }
            let id = ObjectId::try_from(data.get(id_at..id_at + hash_len)?).ok()?;
            if !plain || (exact && found.exact.is_some()) {
                *slot = None;
            } else if exact {
                found.exact = Some(id);
            } else {
                found.under.push((name.to_vec(), id));
            }
        }
        at = next;
    }
    // The extensions: a split or sparse index is left to gix.
    while at < end {
        let sig = data.get(at..at + 4)?;
        if sig == b"link" || sig == b"sdir" {
            return None;
        }
        let size = u32_at(data, at + 4)? as usize;
        at = at.checked_add(8)?.checked_add(size)?;
    }
    (at == end).then_some(slots)
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
            out.extend([u8::try_from(i).unwrap() + 1; 20]);
            out.extend((u16::try_from(name.len()).unwrap() | stage).to_be_bytes());
            out.extend(name.as_bytes());
            let len = (out.len() - start + 8) & !7;
            out.resize(start + len, 0);
        }
        out.extend([0u8; 20]);
        out
    }

    fn id(n: u8) -> ObjectId {
        ObjectId::try_from(&[n; 20][..]).unwrap()
    }

    #[test]
    fn finds_the_entries_at_and_under_each_path() {
        let data = index(&["a.rs", "b/c.rs", "b/d/e.rs", "bb.rs"], 0);
        let found = at_paths(&data, 20, &[b"b", b"a.rs", b"x"]).unwrap();
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
        assert_eq!(at_paths(&conflicted, 20, &[b"a.rs"]).unwrap(), vec![None]);
    }

    #[test]
    fn a_cut_or_foreign_file_is_left_to_gix() {
        let data = index(&["a.rs", "b/c.rs", "b/d/e.rs", "bb.rs"], 0);
        for cut in 0..data.len() {
            assert_eq!(at_paths(&data[..cut], 20, &[b"b"]), None, "{cut}");
        }
        let mut v4 = data.clone();
        v4[7] = 4;
        assert_eq!(at_paths(&v4, 20, &[b"b"]), None);
        let mut split = data[..data.len() - 20].to_vec();
        split.extend(b"link");
        split.extend(0u32.to_be_bytes());
        split.extend([0u8; 20]);
        assert_eq!(at_paths(&split, 20, &[b"b"]), None);
    }
}
