//! The integration tests of the jitcommit binaries, driven through real git.
//!
//! One test binary for the whole crate (as ripgrep and cocogitto lay theirs out):
//! every area is a module, so the crate and its dependencies are linked once.

mod check_support;
mod draft_support;
mod install_support;
mod jitcommit_support;

mod action;
mod benchmarks_page;
mod check_amend;
mod check_cli;
mod check_commit_msg;
mod check_commit_rev;
mod check_coverage;
mod check_formats;
mod check_formats_ci;
mod check_gate;
mod check_history_walk;
mod check_index_kinds;
mod check_push;
mod check_range;
mod check_rejected_reset;
mod check_summary;
mod config_typos;
mod docs_refs;
mod draft_attacks;
mod draft_context;
mod draft_facts;
mod draft_hook;
mod draft_large;
mod draft_model;
mod draft_never_blocks;
mod draft_offline_words;
mod draft_server;
mod draft_structure;
mod draft_words;
mod examples;
mod first_hour;
mod help_examples;
mod install;
mod install_forges;
mod install_managers;
mod jitcommit_bump;
mod jitcommit_changelog;
mod jitcommit_changelog_eol;
mod jitcommit_doctor;
mod jitcommit_facts;
mod jitcommit_init;
mod jitcommit_init_loads;
mod jitcommit_release_tools;
mod jitcommit_tmp_files;
mod jitcommit_window;
mod lean;
mod own_repository;
mod precommit;
mod precommit_manifest;
mod readme;
mod readme_sequence;
mod terminal;
mod terminal_escapes;
mod test_tools;
