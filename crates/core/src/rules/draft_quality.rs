//! The draft-quality rule: what the draft hook's gate (`jitcommit_drafter::quality`)
//! finds wrong with a model's draft, never run by [`super::check_message`]. Its id,
//! doc and findings live here so `--explain` finds it in a check-only build and every
//! finding is worded in one place.

use std::fmt;

use super::RuleInfo;

#[doc = include_str!("docs/draft-quality.md")]
pub const DRAFT_QUALITY: RuleInfo = RuleInfo {
    id: "draft-quality",
    summary: "a model draft's summary and bullets say something in words of their own",
    doc: include_str!("docs/draft-quality.md"),
};

/// `draft-quality`: a model draft's summary, bullet or breaking-change note says
/// nothing in words of its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DraftQuality {
    /// The draft has no summary.
    NoSummary,
    /// The summary has too few words of letters.
    FewWords {
        /// The summary.
        summary: String,
        /// The fewest words it needs.
        min: usize,
        /// The tight gate, which takes two words only as a verb and what it acts on.
        tight: bool,
    },
    /// The summary opens with the commit type.
    OpensWithType {
        /// The summary.
        summary: String,
        /// The type it opens with.
        kind: String,
    },
    /// The summary opens with a comment on the change (`this commit …`).
    OpensWithFiller {
        /// The summary.
        summary: String,
        /// What it opens with.
        filler: String,
    },
    /// A bullet's description has no words.
    NoWords {
        /// The description.
        description: String,
    },
    /// A bullet's description names only its path, types and common words.
    NamesNothing {
        /// The description.
        description: String,
    },
    /// A part of the draft is junk, not words of its own.
    Junk {
        /// Which part.
        part: Part,
        /// Its text.
        text: String,
        /// What it is instead.
        junk: Junk,
    },
}

/// The part of a draft a [`DraftQuality::Junk`] finding is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// The subject's summary.
    Summary,
    /// A bullet's what-and-why.
    Bullet,
    /// The `BREAKING CHANGE` footer's value.
    BreakingNote,
}

/// What a junk part of a draft is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Junk {
    /// The prompt's scaffolding (the phrase).
    Scaffolding(String),
    /// Talk about the prompt (the phrase).
    SelfReference(String),
    /// JSON syntax.
    Json,
    /// `BREAKING` as content.
    Breaking,
    /// A version string.
    Version,
    /// A list of commit types.
    TypeList,
    /// One word repeated.
    Repeats,
    /// A path.
    Path,
    /// A line copied from the diff.
    DiffLine,
    /// Text copied from the prompt's instructions.
    Prompt,
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Part::Summary => "the summary",
            Part::Bullet => "a bullet's description",
            Part::BreakingNote => "the breaking-change note",
        })
    }
}

impl fmt::Display for Junk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Junk::Scaffolding(s) => write!(f, "holds the prompt's scaffolding {s:?}"),
            Junk::SelfReference(s) => write!(f, "talks about the prompt ({s:?}), not the change"),
            Junk::Json => f.write_str("is JSON syntax, not words"),
            Junk::Breaking => f.write_str(
                "holds \"BREAKING\" as content (a breaking change goes in breaking_change)",
            ),
            Junk::Version => f.write_str("is a version string"),
            Junk::TypeList => f.write_str("is a list of commit types, not a description"),
            Junk::Repeats => f.write_str("repeats a word instead of describing the change"),
            Junk::Path => f.write_str("is a path, not a description"),
            Junk::DiffLine => f.write_str("is a line copied from the diff"),
            Junk::Prompt => f.write_str("is copied from the prompt's instructions"),
        }
    }
}

impl fmt::Display for DraftQuality {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DraftQuality::NoSummary => f.write_str("the draft has no summary"),
            DraftQuality::FewWords {
                summary,
                min,
                tight,
            } => {
                write!(
                    f,
                    "the summary {summary:?} has fewer than {min} words of letters"
                )?;
                if *tight {
                    f.write_str(" (two only as a verb and what it acts on, e.g. \"fix typo\")")?;
                }
                Ok(())
            }
            DraftQuality::OpensWithType { summary, kind } => write!(
                f,
                "the summary {summary:?} opens with the commit type {kind:?}"
            ),
            DraftQuality::OpensWithFiller { summary, filler } => write!(
                f,
                "the summary {summary:?} opens with {filler:?}, a comment, not what the change does"
            ),
            DraftQuality::NoWords { description } => {
                write!(f, "a bullet's description {description:?} has no words")
            }
            DraftQuality::NamesNothing { description } => write!(
                f,
                "a bullet's description {description:?} names only its path, types and common words"
            ),
            DraftQuality::Junk { part, text, junk } => write!(f, "{part} {text:?} {junk}"),
        }
    }
}

impl DraftQuality {
    /// How to fix it.
    pub fn hint(&self) -> Option<String> {
        Some(
            match self {
                DraftQuality::NoSummary | DraftQuality::FewWords { .. } => {
                    "say what the change does in a few words"
                }
                DraftQuality::OpensWithType { .. } => {
                    "the type goes before the colon; say what the change does"
                }
                DraftQuality::OpensWithFiller { .. } => {
                    "start with what the change does, e.g. \"add …\", \"fix …\""
                }
                DraftQuality::NoWords { .. } | DraftQuality::NamesNothing { .. } => {
                    "say what changed in that path and why"
                }
                DraftQuality::Junk { .. } => "describe the change in your own words",
            }
            .to_string(),
        )
    }
}
