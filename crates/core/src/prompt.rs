//! The prompt (DESIGN §5) and its output contract: what the model is asked and the
//! JSON shape it must answer with.

/// One change as the model describes it in its JSON answer.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DraftBullet {
    /// One of the convention's verbs.
    pub verb: String,
    /// One of the staged paths (for a rename, the new path).
    pub path: String,
    /// What changed and why, one sentence.
    pub what_why: String,
}

/// The model's whole answer: `{type, scope, breaking, summary, bullets}` (DESIGN §5).
/// jitcommit renders the message text from it; nothing in it is ever executed.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DraftJson {
    /// One of the convention's types.
    #[serde(rename = "type")]
    pub kind: String,
    /// The scope, if any.
    #[serde(default)]
    pub scope: Option<String>,
    /// A breaking change.
    #[serde(default)]
    pub breaking: bool,
    /// The subject's summary.
    pub summary: String,
    /// One bullet per change.
    #[serde(default)]
    pub bullets: Vec<DraftBullet>,
}
