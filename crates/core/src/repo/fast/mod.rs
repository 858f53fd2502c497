//! The hand-written git readers: each reads, in place of gix, data git wrote, where gix
//! was measured to cost more than the check can afford, or reads it otherwise than git
//! does. Each file says at its top the bench that shows its gain (or the git reading
//! it keeps), the differential test that guards it against data git itself wrote, and
//! the gix change it waits for (docs/gix-delta-cache.md is the model); when that change
//! lands, the file goes and gix reads again. A speed reader whose gain falls below 2×
//! goes back to gix (issue 47; `repo/commit.rs` says how the commit headers did).
//! Nothing outside this folder parses the index file, a tree, a pack entry or a
//! commit's headers by hand (crates/core/tests/layers.rs).
//!
//! - [`tree`]: a tree's entries in place, for the path probes and the path history.
//! - [`rawindex`]: the index entries at and under a few paths, for the staged probe.
//! - [`cachetree`]: HEAD's tree against the index through the index's cache-tree.
//! - [`encoding`]: a commit's `encoding` header as git finds it, for the message read.
//! - [`packs`]: objects straight from the pack files, with a delta-base cache that keeps
//!   every link of a chain, for the trees and commits of history walks.

pub(in crate::repo) mod cachetree;
pub(in crate::repo) mod encoding;
pub(in crate::repo) mod packs;
pub(in crate::repo) mod rawindex;
pub(in crate::repo) mod tree;
