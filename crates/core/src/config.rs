//! The repository's commit convention: discovery, strict parsing, defaults.

use std::collections::BTreeMap;

/// Whether a message needs a body of bullets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum BodyPolicy {
    /// At least one bullet is required.
    Required,
    /// A subject line alone is fine.
    Optional,
}

/// Kinds of message exempt from the convention.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Exemption {
    /// `Merge branch …`, `Merge pull request …`, `Merge remote-tracking branch …`, `Merge tag …`.
    Merge,
    /// `Revert "…"` as written by `git revert`.
    Revert,
    /// `fixup! …`
    Fixup,
    /// `squash! …`
    Squash,
    /// `amend! …`
    Amend,
}

/// Which OpenAI BPE encoding token counts use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Encoding {
    /// cl100k_base (the default).
    Cl100k,
    /// o200k_base.
    O200k,
}

/// `[…commit-convention.context]`: how the prompt is fitted to the model.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub struct ContextSettings {
    /// The model's context window, in tokens.
    pub budget_tokens: usize,
    /// Tokens kept free for the model's answer.
    pub reserve_output_tokens: usize,
    /// Globs whose files are shown as stat lines only.
    pub exclude: Vec<String>,
    /// The BPE encoding counted against.
    pub encoding: Encoding,
    /// Extra percent of tokens assumed on top of the BPE count, for model
    /// families whose tokenizers count more than OpenAI's.
    pub safety_margin_percent: u32,
}

/// The effective convention: what the validator enforces and the prompt teaches.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub struct Convention {
    /// Allowed subject types, in order.
    pub types: Vec<String>,
    /// Allowed scopes; empty means any scope.
    pub scopes: Vec<String>,
    /// Allowed bullet verbs.
    pub verbs: Vec<String>,
    /// Maximum subject length in characters.
    pub subject_max: usize,
    /// Body policy.
    pub body: BodyPolicy,
    /// Wrap body lines at this many columns (0 = no wrapping asked).
    pub body_wrap: usize,
    /// Each bullet path must be among the commit's changed paths.
    pub trace_paths: bool,
    /// Only ` — ` is accepted as the bullet separator (not ` -- `).
    pub strict_separator: bool,
    /// Message kinds exempt from every rule.
    pub exempt: Vec<Exemption>,
    /// type → CHANGELOG section.
    pub sections: BTreeMap<String, String>,
    /// Prompt fitting.
    pub context: ContextSettings,
}
