//! The integration tests of jitcommit-drafter.
//!
//! One test binary for the whole crate (as ripgrep and cocogitto lay theirs out):
//! every area is a module, so the crate and its dependencies are linked once.

mod budget;
mod cl100k;
mod client;
mod coverage;
mod layers;
mod offline_linguist;
mod offline_replay;
mod prompt;
mod redact;
mod tokens;
