//! The message grammar (docs/design.md §3): the [`Message`] model, a lenient [`parse`] that
//! keeps the 1-based line and column of every element so the rules can point at
//! them, and [`render`] / [`render_wrapped`], which write the canonical text.
//!
//! ```text
//! <type>(<scope>)!: <summary>
//!
//! free prose paragraphs (optional)
//!
//! - <Verb>: <path> — <what and why>
//! - <Verb>: <old> → <new> — <why>
//!
//! Refs: #12
//! BREAKING CHANGE: <what breaks>
//! ```

pub(crate) mod parse;
pub mod phrase;
mod render;

pub use parse::{
    Arrow, BodyItem, BulletError, Parsed, ParsedBullet, ParsedSubject, ParsedTrailer, Pos,
    Separator, Spanned, SubjectError, parse, parse_trailer, split_lines,
};
pub use render::{one_line, render, render_wrapped};

/// The first line: `type(scope)!: summary`.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
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
    /// The description after the separator (a wrapped bullet's lines joined by one space).
    pub what_why: String,
}

/// A git trailer, `Token: value` (`BREAKING CHANGE` included).
///
/// The Conventional Commits form `Token #value` (`Refs #133`) is kept as the value
/// `#133` and rendered canonically as `Refs: #133`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Trailer {
    /// The token, e.g. `Refs` or `BREAKING CHANGE`.
    pub token: String,
    /// The value (continuation lines joined by one space).
    pub value: String,
}

/// A whole structured message.
///
/// Rendered in this order: subject, prose paragraphs, bullets, trailers, each group
/// after one blank line.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Message {
    /// The subject line.
    pub subject: Subject,
    /// Free prose paragraphs of the body (Conventional Commits allows them), each
    /// with its lines joined by `\n`.
    pub prose: Vec<String>,
    /// The body's bullets, in order.
    pub bullets: Vec<Bullet>,
    /// The trailers, in order.
    pub trailers: Vec<Trailer>,
}

/// Whether `scope`, rendered in a subject as a draft is and parsed back by the validator,
/// is a well-formed subject's scope equal to `scope`.
pub fn reads_back_as_scope(scope: &str) -> bool {
    let m = Message {
        subject: Subject {
            kind: "x".to_owned(),
            scope: Some(scope.to_owned()),
            breaking: false,
            summary: "x".to_owned(),
        },
        prose: Vec::new(),
        bullets: Vec::new(),
        trailers: Vec::new(),
    };
    let parsed = parse(&render(&m)).subject;
    parsed.error.is_none() && parsed.scope.is_some_and(|s| s.value == scope)
}

/// `summary` within `room` chars: as it is when it fits; else cut at the last word
/// boundary, or at a clause break (`, `, `; `, ` — `) in the second half, and never
/// ending on a word that needs another after it (`… for the`, `… so it`). A summary
/// with no boundary in reach is cut at `room`.
pub fn shorten(summary: &str, room: usize) -> String {
    if summary.chars().count() <= room {
        return summary.to_owned();
    }
    let cut: String = summary.chars().take(room + 1).collect();
    let at = match cut.rfind(char::is_whitespace) {
        Some(i) if i > 0 => i,
        _ => cut.char_indices().nth(room).map_or(cut.len(), |(i, _)| i),
    };
    let mut kept = &cut[..at];
    // A clause break in the second half is a better end than the word limit.
    if let Some(i) = [", ", "; ", " — ", " - "]
        .iter()
        .filter_map(|b| kept.rfind(b))
        .max()
        && kept[..i].chars().count() * 2 >= room
    {
        kept = &kept[..i];
    }
    kept = kept.trim_end_matches(|c: char| c.is_whitespace() || ",;:-—–.".contains(c));
    while let Some((head, last)) = kept.rsplit_once(' ')
        && DANGLING.contains(&last.to_lowercase().as_str())
        && head.contains(' ')
    {
        kept = head.trim_end_matches(|c: char| c.is_whitespace() || ",;:".contains(c));
    }
    kept.to_owned()
}

/// Words a shortened summary does not end on (`… so it`, `… for the`).
const DANGLING: &[&str] = &[
    "a", "an", "the", "and", "or", "but", "so", "to", "of", "for", "in", "on", "at", "by", "with",
    "from", "as", "that", "which", "it", "its", "is", "are", "be", "than", "into", "when", "if",
    "while", "because", "must", "can", "will", "not", "no",
];
