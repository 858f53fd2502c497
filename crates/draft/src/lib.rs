//! jitcommit-drafter: the draft side, which the validator never links (a check-only
//! build does not compile it: tests/lean.rs). It owns everything only a draft needs,
//! behind one call, [`draft()`]: repository state → prompt → model → gate → message.
//!
//! - [`draft`](mod@draft): the loop (attempts, one repair request, the quality gate,
//!   the tool's words for a bullet, the offline fallbacks) and its report, read top to
//!   bottom as a pipeline of one module per stage: gather → redact → compose → ask →
//!   check → render.
//! - [`structure`]: what the repository determines of a message (type list, scopes,
//!   the offline bullets) and the assembly of the model's answer into a message;
//!   [`choices`]: the types a change cannot be, and the evidence the model chooses by.
//! - [`fragments`], [`budget`], [`prompt`]: the prompt's pieces, the token budget
//!   composer and the prompt's wording; [`classify`]: what a staged file's diff is
//!   worth, which the pieces, the structure and the offline draft read; [`select`]: the facts that apply to a change;
//!   [`redact`]: secrets out of everything sent (gitleaks' rules, rules/), the one
//!   gate whose [`redact::Redacted`] values are all of the repository a prompt, a
//!   request or a debug line holds; [`datum`]: repository text where the prompt
//!   speaks in the tool's voice, quoted and capped.
//! - [`offline`]: the draft from the repository alone; [`change_words`]: its words for
//!   what a dependency bump, a move, a document or a configuration change does;
//!   [`quality`]: the draft-quality gate (its rule id and doc are core's, for
//!   `--explain`); [`words`]: the word lists and verb tables both read (data/words.toml).
//! - [`tokens`], [`cl100k`]: exact BPE token counting; [`client`], [`discover`],
//!   [`openai`], [`wire`], [`answer`], [`settings`]: the model clients and their
//!   personal settings.
//!
//! It reads the convention, messages, rules and the repository through
//! jitcommit-core, never the other way. Like core it never prints and never exits:
//! the hook hears of the loop through [`Events`].

pub mod answer;
pub mod budget;
pub mod change_words;
pub mod choices;
pub mod cl100k;
pub mod classify;
pub mod client;
pub mod datum;
pub mod discover;
pub mod draft;
#[cfg(test)]
mod fixtures;
pub mod fragments;
pub mod guards;
pub mod offline;
mod ollama;
pub mod openai;
pub mod prompt;
pub mod quality;
pub mod redact;
pub mod select;
pub mod settings;
pub mod structure;
pub mod tokens;
pub mod wire;
pub mod words;

pub use answer::{AnswerError, parse_answer};
pub use client::{Client, ClientError, Reply};
pub use discover::{ServerInfo, ServerKind};
pub use draft::{DraftError, Drafted, Events, Quiet, Request, draft};
pub use openai::JsonMode;
pub use prompt::PromptInput;
pub use settings::{ApiKey, Flags, Provider, Settings, SettingsError, Source};
pub use wire::{Usage, Window};
