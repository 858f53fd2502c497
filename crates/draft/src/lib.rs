//! jitcommit-model: the draft side's pieces the validator must not link —
//! exact BPE token counting and the model clients.

pub mod answer;
pub mod budget;
pub mod cl100k;
pub mod client;
pub mod discover;
pub mod draft;
pub mod fragments;
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

pub use answer::{AnswerError, parse_answer};
pub use client::{Client, ClientError, PromptInput, Reply};
pub use discover::{ServerInfo, ServerKind};
pub use draft::{DraftError, Drafted, Events, Quiet, Request, draft};
pub use openai::JsonMode;
pub use settings::{ApiKey, Flags, Provider, Settings, SettingsError, Source};
pub use wire::{Usage, Window};
