//! The integration tests of jitcommit-model.
//!
//! One test binary for the whole crate (as ripgrep and cocogitto lay theirs out):
//! every area is a module, so the crate and its dependencies are linked once.

mod cl100k;
mod client;
mod tokens;
