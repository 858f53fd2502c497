//! The hand-written git readers: each reads, in place of gix, data git wrote, where gix
//! was measured to cost more than the check can afford. Each file says at its top the
//! bench that shows its gain, the differential test that guards it against data git
//! itself wrote, and the gix change it waits for (docs/gix-delta-cache.md is the model);
//! when that change lands, the file goes and gix reads again. Nothing outside this
//! folder parses the index file by hand (crates/core/tests/layers.rs).
//!
//! - [`tree`]: a tree's entries in place, for the path probes and the path history.
//! - [`rawindex`]: the index entries at and under a few paths, for the staged probe.
//! - [`cachetree`]: HEAD's tree against the index through the index's cache-tree.
//! - [`commit`]: a commit's headers, for the range walk, the message read and the path
//!   history.
//! - [`packs`]: objects straight from the pack files, with a delta-base cache that keeps
//!   every link of a chain, for the trees and commits of history walks.

pub(in crate::repo) mod cachetree;
pub(in crate::repo) mod commit;
pub(in crate::repo) mod packs;
pub(in crate::repo) mod rawindex;
pub(in crate::repo) mod tree;
