//! The offline draft: a message drafted from the staged state and the convention
//! alone, with no model. It is what a fresh install writes before any model is set
//! up, and what the draft hook falls back to when the model is unreachable, too slow
//! or keeps answering something the rules reject.
//!
//! It says only what the repository can prove (which paths changed, how, and in which
//! items) and leaves the why to the user as an explicit placeholder that the
//! `body-placeholder` rule rejects, so an offline draft cannot be committed unread.
//! What it chooses, and why, is docs/draft.md's "The offline draft":
//!
//! - [`kind`]: the type; [`summary`]: the scope and the summary;
//! - [`bullets`]: one per path (per directory beyond [`MAX_BULLETS`] paths);
//! - [`source`]: what the diff's source lines define and do, which all three read.

mod bullets;
mod kind;
mod source;
mod summary;
#[cfg(test)]
mod tests;

use jitcommit_core::config::Convention;
use jitcommit_core::message::{Message, Subject};
use jitcommit_core::repo::{StagedState, TypeHistory};
/// The why the user has to write; `jitcommit-check` rejects a message that still holds it.
pub use jitcommit_core::rules::WHY_PLACEHOLDER;

use crate::change_words::lossy;
use bullets::{directory_bullets, file_bullet};
use kind::{RELEASE_SCOPE, infer_type, release_version};
pub use source::{changed_public_items, new_public_items, rename_note, renamed_public_items};
use summary::{infer_scope, summarize};

/// Above this many changed paths the draft describes directories instead of files.
pub const MAX_BULLETS: usize = 50;

/// Why there is no offline draft.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OfflineError {
    /// The staged set is empty: there is nothing to describe.
    #[error("nothing is staged: there is nothing to describe")]
    NothingStaged,
}

/// Drafts a message for `state` under `conv`, without a model.
pub fn draft(state: &StagedState, conv: &Convention) -> Result<Message, OfflineError> {
    draft_with(state, conv, &TypeHistory::default())
}

/// [`draft`], with the types the repository's recent history used for these paths
/// ([`jitcommit_core::repo::Repo::type_history`]) to settle a type the change does not show.
pub fn draft_with(
    state: &StagedState,
    conv: &Convention,
    history: &TypeHistory,
) -> Result<Message, OfflineError> {
    draft_in(state, conv, history, None)
}

/// [`draft_with`], in `scope` when the repository says which scope the staged paths
/// belong to (its `SCOPE` facts: [`crate::select::scope_of_all`]); else the scope is
/// inferred from the paths.
pub fn draft_in(
    state: &StagedState,
    conv: &Convention,
    history: &TypeHistory,
    scope: Option<String>,
) -> Result<Message, OfflineError> {
    drafted(state, conv, history, scope).map(|d| d.message)
}

/// An offline draft, and whether its type is settled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Drafted {
    /// The message.
    pub message: Message,
    /// The change or the history settles the type (a new source file is a feature,
    /// documents alone are docs, a rename is a refactor, the paths' commits agree);
    /// `false` for a rule of thumb (a modification that adds nothing the rules read
    /// is a fix).
    pub type_settled: bool,
}

/// [`draft_in`], saying whether the type is settled ([`Drafted::type_settled`]).
pub fn drafted(
    state: &StagedState,
    conv: &Convention,
    history: &TypeHistory,
    scope: Option<String>,
) -> Result<Drafted, OfflineError> {
    if state.files.is_empty() {
        return Err(OfflineError::NothingStaged);
    }
    let paths: Vec<String> = state.files.iter().map(|f| lossy(&f.change.path)).collect();
    let (kind, guess) = infer_type(state, &paths, conv, history);
    let type_settled = guess == kind::Guess::Settled;
    let message = message_of(state, conv, &paths, kind, scope);
    Ok(Drafted {
        message,
        type_settled,
    })
}

/// The offline message for `state` of type `kind`: a release's version, else the
/// scope, the bullets, a breaking note for renamed public items and the summary.
fn message_of(
    state: &StagedState,
    conv: &Convention,
    paths: &[String],
    kind: String,
    scope: Option<String>,
) -> Message {
    if let Some(version) = release_version(state, paths) {
        let (scope, summary) = if conv.allows_scope(RELEASE_SCOPE) {
            (Some(RELEASE_SCOPE.to_owned()), version)
        } else {
            (None, format!("release {version}"))
        };
        let bullets = state.files.iter().map(|f| file_bullet(f, conv)).collect();
        return Message {
            subject: Subject {
                kind,
                scope,
                breaking: false,
                summary,
            },
            prose: Vec::new(),
            bullets,
            trailers: Vec::new(),
        };
    }
    let scope = scope
        .or_else(|| infer_scope(paths, conv))
        .filter(|s| *s != kind);
    let bullets = if state.files.len() <= MAX_BULLETS {
        state.files.iter().map(|f| file_bullet(f, conv)).collect()
    } else {
        directory_bullets(state, conv)
    };
    let shown = crate::classify::Classifier::new(&conv.context.exclude);
    let breaking = rename_note(&renamed_public_items(state, &shown));
    let prefix_len = kind.chars().count()
        + scope.as_ref().map_or(0, |s| s.chars().count() + 2)
        + usize::from(breaking.is_some())
        + 2;
    let room = conv
        .subject_limit()
        .map_or(usize::MAX, |max| max.saturating_sub(prefix_len).max(8));
    // A dependency bump, a move or images say what changed first.
    let summary =
        crate::change_words::summary(&state.files, room).unwrap_or_else(|| summarize(state, paths));
    // No URL or link, no bare verb, shortened at a phrase boundary.
    let summary = crate::change_words::finish(&summary, room)
        .unwrap_or_else(|| crate::change_words::fallback(paths, room));
    Message {
        subject: Subject {
            kind,
            scope,
            breaking: breaking.is_some(),
            summary,
        },
        prose: Vec::new(),
        bullets,
        trailers: breaking
            .map(|value| jitcommit_core::message::Trailer {
                token: "BREAKING CHANGE".to_owned(),
                value,
            })
            .into_iter()
            .collect(),
    }
}
