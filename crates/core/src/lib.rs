//! jitcommit-core: what the validator and the changelog need, and the draft reads —
//! the convention ([`config`] its data, [`convention`] its loading), the message grammar ([`message`]), the rules
//! ([`rules`]), git's environment ([`gitenv`], [`invocation`]), repository reading
//! ([`repo`], [`paths`]), the fact store ([`facts`]) and the changelog
//! ([`changelog`]), as pure stages with plain data between them.
//!
//! The data flows one way (docs/design.md §2), and so do the modules
//! (tests/layers.rs keeps it so). Everything only a draft
//! needs (prompt, budget, redaction, offline draft, quality gate, model client) is
//! in jitcommit-drafter, which the validator never compiles. This crate never prints
//! and never exits; it links neither an HTTP client nor a tokenizer.
#![deny(missing_docs)]

pub mod changelog;
pub mod config;
pub mod convention;
pub mod facts;
pub mod fit;
pub mod gitenv;
pub mod invocation;
pub mod message;
pub mod paths;
pub mod repo;
pub mod rules;
pub mod term;
pub mod tree_file;
pub mod workflow;
