//! One verdict on a message, under a stated [`Policy`] (docs/check.md, "Reading a
//! history"): the gate (`Policy::Gate`) holds a new message to the whole convention
//! (bullets, tracing, lengths, placeholders); the reader (`Policy::Spec`) accepts every
//! message the Conventional Commits grammar accepts. `jitcommit-check` (every mode),
//! `jitcommit changelog` and `jitcommit bump` all ask [`super::verdict`], so two
//! commands never disagree on one message under one policy; a message the gate
//! accepts, the reader accepts too.

use super::Finding;
use super::subject::{SubjectEmpty, SubjectFormat};
use crate::config::Convention;
use crate::message::{BodyItem, Message, Parsed, Pos, Subject, SubjectError};

/// Which level a message is judged at.
#[derive(Debug, Clone, Copy)]
pub enum Policy<'a> {
    /// A gate for new commits: every rule of the convention.
    Gate(&'a Convention),
    /// A reader of a history: the spec's grammar only; the convention gives the
    /// exemptions (merges, reverts, fixups) and nothing else.
    Spec(&'a Convention),
}

impl<'a> Policy<'a> {
    /// The convention the policy was stated with.
    pub fn convention(&self) -> &'a Convention {
        match self {
            Policy::Gate(c) | Policy::Spec(c) => c,
        }
    }
}

/// A type the spec's grammar accepts: a word (letters, digits, `_`, `-`), as
/// conventional-changelog's `^(\w*)` and cocogitto's grammar read it.
fn is_word(kind: &str) -> bool {
    !kind.is_empty()
        && kind
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

/// What the spec's grammar finds wrong with `parsed` (empty: it is a Conventional
/// Commit). The subject is `type(scope)!: description`, the type a word; a body, prose
/// or bullets, and footers are free. One space too many after the colon is read, as
/// every peer parser reads it.
pub(crate) fn spec_findings(parsed: &Parsed) -> Vec<Finding> {
    let s = &parsed.subject;
    if s.raw.trim().is_empty() {
        return vec![Finding::new(Pos::new(1, 1), SubjectEmpty { example: None })];
    }
    let problem = match (&s.error, &s.kind) {
        (Some(e), _) if e.value != SubjectError::ExtraSpace => {
            Some((e.pos, SubjectFormat::NotSpec(e.value)))
        }
        (_, Some(k)) if !is_word(&k.value) => Some((
            k.pos,
            SubjectFormat::TypeNotWord {
                kind: k.value.clone(),
            },
        )),
        _ => None,
    };
    problem
        .map(|(pos, problem)| Finding::new(pos, problem))
        .into_iter()
        .collect()
}

/// The message as a reader sees it, when [`spec_findings`] is empty: the type in lower
/// case (the spec's units are not case-sensitive), the bullets that parse as bullets,
/// every other body line as prose, and the footers that parse as footers.
pub fn spec_message(parsed: &Parsed) -> Option<Message> {
    let s = &parsed.subject;
    let subject = Subject {
        kind: s.kind.as_ref()?.value.to_lowercase(),
        scope: s.scope.as_ref().map(|x| x.value.clone()),
        breaking: s.breaking.is_some(),
        summary: s.summary.as_ref()?.value.clone(),
    };
    let mut prose = Vec::new();
    let mut bullets = Vec::new();
    for item in &parsed.body {
        match item {
            BodyItem::Prose(p) => prose.push(p.value.clone()),
            BodyItem::Bullet(b) => bullets.extend(b.bullet()),
        }
    }
    Some(Message {
        subject,
        prose,
        bullets,
        trailers: parsed.trailer_values(),
    })
}
