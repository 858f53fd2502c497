//! The draft loop, behind one call: [`draft`] takes the repository, the personal
//! settings and the user's intent and returns the draft with its report
//! ([`Drafted`]): the model's when it answers within the deadline with a draft the
//! rules and the quality gate accept (attempts, one repair request, the tool's words
//! for a bullet the gate rejects), else the offline draft and why.
//!
//! It reads top to bottom as a pipeline, one module per stage, each with one entry:
//!
//! 1. [`gather`](mod@gather): the staged change, the convention, the facts, the
//!    history, and the structure the tool derives from them;
//! 2. [`redact`](mod@redact): the change and the intent through the redaction gate,
//!    once, before anything is composed ([`crate::redact::Redacted`]);
//! 3. [`compose`](mod@compose): the prompt within the model's window;
//! 4. [`ask`](mod@ask): one request, the client sending what it is given;
//! 5. [`check`](mod@check): the answer against the tool's choices, the rules and the
//!    quality gate;
//! 6. [`render`](mod@render): the message as text, with the user's words.
//!
//! It owns what decides the product's draft; the `jitcommit-draft` binary keeps the
//! hook's source decision, the message file, the spinner and printing, and hears of
//! the loop's progress through [`Events`]. Like the rest of this crate it never prints
//! and never exits.

pub mod ask;
pub mod check;
pub mod compose;
pub mod gather;
pub mod redact;
pub mod render;

use std::time::{Duration, Instant};

use jitcommit_core::config;
use jitcommit_core::message;
use jitcommit_core::repo::Repo;

use crate::redact::Redacted;
use crate::{Client, Settings, Window};
use crate::{offline, prompt, quality, select};
use ask::ask;
use check::{Accepted, Checker, Rejected, check};
pub use compose::{compose, with_prompt_input};
pub use gather::{
    READ_FILES, REPO_BUDGET_CEILING, SUBJECTS_ENV, convention, fact_store, gather, partial,
    path_history, staged_names,
};
use render::{Words, render};

/// Why no draft at all was made (the hook then leaves the message file as it was).
#[derive(Debug, thiserror::Error)]
pub enum DraftError {
    /// The repository could not be opened or read.
    #[error("{}", shown(.0))]
    Repo(#[from] jitcommit_core::repo::RepoError),
    /// The repository's convention is broken (its values may hold anything: shown
    /// on one printable line).
    #[error("{}", shown(.0))]
    Config(#[from] config::ConfigError),
    /// The staged set is empty.
    #[error("nothing is staged")]
    NothingStaged,
}

/// What the loop tells its caller while it runs; every method does nothing unless
/// the caller says otherwise (the hook prints, a test may collect).
pub trait Events {
    /// A line for the user (a fact store that is not used).
    fn say(&self, _line: &str) {}
    /// A line for `JITCOMMIT_DEBUG` (which draft, the repair, the tool's words): it
    /// may quote the repository and the model, so it comes through the redaction gate.
    fn debug(&self, _line: &Redacted) {}
    /// The model is being asked: the returned guard lives until the loop ends (the
    /// hook's spinner).
    fn asking(&self, _model: &str) -> Box<dyn std::any::Any> {
        Box::new(())
    }
}

/// Events that go nowhere.
pub struct Quiet;
impl Events for Quiet {}

/// One draft's inputs.
pub struct Request<'a> {
    /// The repository whose staged change is drafted.
    pub repo: &'a Repo,
    /// The personal model settings, or why they could not be read (the draft is
    /// then offline, and says why).
    pub settings: Result<Settings, String>,
    /// `--offline`: no model is asked.
    pub offline: bool,
    /// What the user says the change is for (the prompt's intent).
    pub intent: Option<&'a str>,
    /// The user's own `-m` words, kept as the draft's body.
    pub keep: Option<&'a str>,
    /// When the hook started: the settings' timeout counts from here.
    pub start: Instant,
    /// Where progress goes.
    pub events: &'a dyn Events,
}

/// A value from the repository, a server or the environment as one printable line
/// (for stderr and the message file's comments).
pub(crate) fn shown(v: &dyn std::fmt::Display) -> String {
    message::one_line(&v.to_string()).into_owned()
}

/// The longest model name the footer prints.
const MODEL_NAME_CHARS: usize = 80;

/// Which draft was produced, for the footer and for tests (`JITCOMMIT_DEBUG`).
#[derive(Debug)]
pub enum Drafted {
    /// The model's draft passed the rules (maybe after the one repair request).
    Model {
        /// The rendered text.
        text: String,
        /// The model that answered.
        model: String,
        /// Wall time of the model requests.
        latency: Duration,
        /// Prompt tokens used, and the prompt budget.
        tokens: (usize, usize),
        /// What the composer left out for the budget.
        omitted: Vec<String>,
        /// A repair request was needed.
        repaired: bool,
        /// The parts of the draft in the tool's words, not the model's, each with
        /// why (one footer line each).
        tool_words: Vec<String>,
        /// What the offline analyses did not read of a very large change ([`partial`]).
        partial: Option<String>,
    },
    /// The offline draft, and why.
    Offline {
        /// The rendered text.
        text: String,
        /// Why no model draft was used.
        why: String,
        /// What the offline analyses did not read of a very large change ([`partial`]).
        partial: Option<String>,
    },
}

impl Drafted {
    /// The rendered draft.
    pub fn text(&self) -> &str {
        match self {
            Drafted::Model { text, .. } | Drafted::Offline { text, .. } => text,
        }
    }

    /// The footer's lines, without comment prefixes.
    pub fn footer(&self) -> Vec<String> {
        let lines = match self {
            Drafted::Model {
                model,
                latency,
                tokens,
                omitted,
                repaired,
                tool_words,
                partial,
                text,
                ..
            } => {
                // The server names the model: one printable line, and short.
                let model: String = message::one_line(model)
                    .chars()
                    .take(MODEL_NAME_CHARS)
                    .collect();
                let mut v = vec![format!(
                    "jitcommit: drafted by {model} in {:.1} s{}; prompt {} of {} tokens",
                    latency.as_secs_f64(),
                    if *repaired { " (after one repair)" } else { "" },
                    tokens.0,
                    tokens.1
                )];
                v.extend(tool_words.iter().map(|w| format!("jitcommit: {w}")));
                if !omitted.is_empty() {
                    v.push(format!(
                        "jitcommit: omitted for the budget: {}",
                        omitted.join("; ")
                    ));
                }
                v.extend(partial.iter().map(|p| format!("jitcommit: {p}")));
                v.extend(placeholder_line(text));
                v
            }
            Drafted::Offline { why, text, partial } => {
                let mut v = vec![format!("jitcommit: offline draft ({why}).")];
                v.extend(partial.iter().map(|p| format!("jitcommit: {p}")));
                v.extend(placeholder_line(text));
                v
            }
        };
        lines.iter().map(|l| shown(l)).collect()
    }

    /// Which draft this is, for `JITCOMMIT_DEBUG`: model, model-repaired or offline.
    pub fn label(&self) -> &'static str {
        match self {
            Drafted::Model {
                repaired: false, ..
            } => "model",
            Drafted::Model { repaired: true, .. } => "model-repaired",
            Drafted::Offline { .. } => "offline",
        }
    }
}

/// The footer's line asking for the why, when `text` holds a `<why?>` (with the
/// user's intent as the why, none is left).
fn placeholder_line(text: &str) -> Option<String> {
    text.contains(offline::WHY_PLACEHOLDER).then(|| {
        format!(
            "jitcommit: replace each {} with why you made the change.",
            offline::WHY_PLACEHOLDER
        )
    })
}

/// Produces the draft: the model's when it answers within the deadline with a draft
/// the rules accept (at most one repair request), else the offline draft.
pub fn draft(req: &Request<'_>) -> Result<Drafted, DraftError> {
    let Request {
        repo,
        intent,
        keep,
        start,
        events,
        ..
    } = *req;
    let debug = |line: &str| events.debug(&crate::redact::gate(line));
    let (settings, settings_err) = match &req.settings {
        Ok(s) => (Some(s.clone()), None),
        Err(e) => (None, Some(e.clone())),
    };
    // Gather.
    let g = gather(repo, settings.as_ref(), events)?;
    let (conv, history, partial) = (&g.conv, &g.history, &g.partial);
    let state = &g.staged.state;
    let offline_draft = |why: String| -> Result<Drafted, DraftError> {
        let scope = select::scope_of_all(&g.store, &g.names);
        let m = offline::draft_in(state, conv, &history.types, scope)
            .map_err(|_| DraftError::NothingStaged)?;
        Ok(Drafted::Offline {
            text: render(m, conv, intent.map_or(Words::None, Words::Intent)),
            why: shown(&why),
            partial: partial.clone(),
        })
    };
    let settings = match (settings, settings_err) {
        (Some(s), _) => s,
        (None, why) => return offline_draft(why.unwrap_or_default()),
    };
    if req.offline {
        return offline_draft("--offline".to_owned());
    }
    if !settings.model_configured() {
        return offline_draft("no model configured: git config jitcommit.model NAME".to_owned());
    }
    let deadline = start + settings.timeout;
    let mut client = match Client::new(&settings, Window::of(&conv.context)) {
        Ok(c) => c,
        Err(e) => return offline_draft(e.to_string()),
    };
    client.discover(deadline);
    debug(&format!("jitcommit-draft: budget {}", client.budget().1));
    debug(&format!(
        "jitcommit-draft: guards {}",
        client.guards().line()
    ));
    // Redact once, then compose.
    let p = match with_prompt_input(repo, &g.staged, conv, history, &g.store, intent, |input| {
        compose(Some(&client), deadline, input)
    }) {
        Ok(p) => p,
        Err(e) => return offline_draft(format!("the change does not fit the model's budget: {e}")),
    };
    let _asking = events.asking(client.model());
    let tokens = (p.report.total, p.report.available);
    let omitted: Vec<String> = p
        .report
        .fragments
        .iter()
        .filter(|f| f.state != crate::fragments::LevelState::Full)
        .map(|f| format!("{}: {}", f.id, f.note))
        .collect();
    let mut latency = Duration::ZERO;
    let mut user = p.user.clone();
    // The prompt's own fixed wording, which a draft must not echo as its content.
    let fixed_texts = [
        prompt::CORE_INSTRUCTIONS,
        ask::REPAIR_HEAD,
        ask::REPAIR_TAIL,
    ];
    let guards = client.guards().clone();
    let evidence = quality::Evidence::new(state, &fixed_texts)
        .gate(guards.gate())
        .intent(intent)
        .trusting(
            p.structure
                .bullets
                .iter()
                .flat_map(|b| {
                    [
                        b.tool_words.clone(),
                        check::tool_bullet_words(&b.tool_words, None),
                    ]
                })
                .chain(p.structure.tool_summary.clone())
                .chain(p.structure.tool_breaking.clone()),
        );
    let checker = Checker {
        structure: &p.structure,
        small: guards.small,
        tool_type: guards.tool_type,
        evidence: &evidence,
        conv,
        paths: &g.paths,
        keep,
        intent,
        debug: &debug,
    };
    for attempt in 0..2 {
        if Instant::now() >= deadline {
            return offline_draft("the deadline passed".to_owned());
        }
        // Ask, then check (which renders what it checks).
        let reply = match ask(&mut client, &p, &user, deadline) {
            Ok(r) => r,
            Err(e) => return offline_draft(e.to_string()),
        };
        latency += reply.latency;
        let Rejected {
            problems,
            gate_failed,
        } = match check(&reply.content, &checker) {
            Ok(Accepted { text, tool_words }) => {
                return Ok(Drafted::Model {
                    text,
                    model: reply.model,
                    latency,
                    tokens,
                    omitted,
                    repaired: attempt > 0,
                    tool_words,
                    partial: partial.clone(),
                });
            }
            Err(rejected) => rejected,
        };
        if attempt == 0 {
            debug(&format!(
                "jitcommit-draft: repair request for: {}",
                problems.join(" | ")
            ));
            user = ask::repair_prompt(&p.user, &problems);
        } else {
            let what = if gate_failed {
                "failed the draft-quality gate"
            } else {
                "broke the convention"
            };
            return offline_draft(format!(
                "the model's draft {what} twice: {}",
                problems.join("; ")
            ));
        }
    }
    offline_draft("no valid answer".to_owned())
}
