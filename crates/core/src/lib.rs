//! jitcommit-core: everything jitcommit does between reading the repository and
//! writing a message, as pure stages with plain data between them.
//!
//! The data flows one way (DESIGN.md §2):
//! [`config`] and [`repo`] read the outside world; [`message`] and [`rules`]
//! parse and check messages; [`redact`], [`fragments`], [`budget`] and
//! [`prompt`] turn the repository state into a prompt that fits a token budget;
//! [`offline`] drafts a message from the repository alone; [`changelog`] turns a
//! walked history into releases (the data behind `jitcommit changelog` and `bump`). This crate never
//! prints and never exits; it links neither an HTTP client nor a tokenizer (token
//! counting comes in through [`budget::TokenCounter`]).
#![deny(missing_docs)]

pub mod changelog;
pub mod config;
pub mod facts;
pub mod gitenv;
pub mod invocation;
pub mod message;
pub mod paths;
pub mod repo;
pub mod rules;
pub mod term;
