//! The integration tests of jitcommit-core.
//!
//! One test binary for the whole crate (as ripgrep and cocogitto lay theirs out):
//! every area is a module, so the crate and its dependencies are linked once.

mod rules_common;

mod cleanup;
mod config;
mod conformance;
mod history;
mod layers;
mod message;
mod probe;
mod renames;
mod repo;
mod repo_hooks;
mod rules;
mod rules_snapshots;
mod rules_spec;
mod spec_defects;
mod walk_skew;
