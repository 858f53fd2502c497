//! The message grammar: parse and render `type(scope)!: summary`, bullets, trailers.

/// The first line: `type(scope)!: summary`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Subject {
    /// The type, e.g. `feat`.
    pub kind: String,
    /// The scope between parentheses, if any.
    pub scope: Option<String>,
    /// `!` before the colon.
    pub breaking: bool,
    /// The text after `: `.
    pub summary: String,
}

/// What a bullet names: one path, or both sides of a rename or move.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub enum Target {
    /// `path`
    Path(String),
    /// `old → new`
    Move {
        /// The old path.
        from: String,
        /// The new path.
        to: String,
    },
}

/// `- Verb: path — what and why`
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Bullet {
    /// The verb, e.g. `Add`.
    pub verb: String,
    /// The path(s).
    pub target: Target,
    /// The description after the separator.
    pub what_why: String,
}

/// A git trailer, `Token: value` (`BREAKING CHANGE` included).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Trailer {
    /// The token, e.g. `Refs` or `BREAKING CHANGE`.
    pub token: String,
    /// The value.
    pub value: String,
}

/// A whole structured message.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Message {
    /// The subject line.
    pub subject: Subject,
    /// The body's bullets, in order.
    pub bullets: Vec<Bullet>,
    /// The trailers, in order.
    pub trailers: Vec<Trailer>,
}
