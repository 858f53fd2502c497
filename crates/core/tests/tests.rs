//! The integration tests of jitcommit-core.
//!
//! One test binary for the whole crate (as ripgrep and cocogitto lay theirs out):
//! every area is a module, so the crate and its dependencies are linked once.

mod rules_common;

mod budget;
mod cleanup;
mod config;
mod conformance;
mod coverage;
mod history;
mod message;
mod offline_replay;
mod probe;
mod prompt;
mod redact;
mod renames;
mod repo;
mod repo_hooks;
mod rules;
mod rules_snapshots;
mod rules_spec;
mod spec_defects;
