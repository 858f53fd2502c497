//! Loading the repository's convention: the entry points the binaries call. They
//! read it with [`config`]'s strict parser and hand that parser each feature's own
//! check on the values the feature keeps in the convention — the fact store's
//! [`facts::check_fact`], the changelog's [`TagPattern`] — so the
//! convention's data types stay a leaf every feature reads, and an invalid value is
//! still reported at its file, key, line and column.

use std::io;
use std::path::Path;

use crate::changelog::TagPattern;
use crate::config::{self, Checks, ConfigError, Loaded};
use crate::facts;

/// Each feature's check on the values it keeps in the convention.
const CHECKS: Checks = Checks {
    fact: facts::check_fact,
    tag_pattern: |p| TagPattern::new(p).map(drop).map_err(|e| e.reason),
    commit_pattern: crate::changelog::check_exclusion,
};

/// Finds the repository's convention through `read`, which returns the bytes of a
/// repo-relative file if it exists. The server passes a reader over a commit's tree,
/// the hooks one over the work tree ([`discover_in_dir`]). The discovery order is
/// docs/design.md §4's; first found wins; none found gives the built-in defaults.
pub fn discover(
    read: &mut dyn FnMut(&str) -> io::Result<Option<Vec<u8>>>,
) -> Result<Loaded, ConfigError> {
    config::discover(read, &CHECKS)
}

/// Finds the convention in the work tree rooted at `root`, read fresh on every call.
pub fn discover_in_dir(root: &Path) -> Result<Loaded, ConfigError> {
    config::discover_in_dir(root, &CHECKS)
}

/// Reads the convention from the file given with `--config FILE`. A file named
/// `pyproject.toml` or `Cargo.toml` is read at its table, which must exist; any other
/// file is the table itself.
pub fn load_file(path: &Path) -> Result<Loaded, ConfigError> {
    config::load_file(path, &CHECKS)
}

/// [`load_file`] of bytes read elsewhere (the file `path` names, in a commit's tree).
pub fn load_bytes(path: &Path, bytes: &[u8]) -> Result<Loaded, ConfigError> {
    config::load_bytes(path, bytes, &CHECKS)
}
