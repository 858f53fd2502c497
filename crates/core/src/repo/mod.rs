//! Repository state via gix: the staged set, `git status --short`, per-file diffs,
//! commit diffs and the walks for ranges and pushes.

mod types;
pub use types::*;
