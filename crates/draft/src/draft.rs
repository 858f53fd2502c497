//! The draft loop, behind one call: [`draft`] takes the repository, the personal
//! settings and the user's intent and returns the draft with its report
//! ([`Drafted`]): the model's when it answers within the deadline with a draft the
//! rules and the quality gate accept (attempts, one repair request, the tool's words
//! for a bullet the gate rejects), else the offline draft and why.
//!
//! It owns what decides the product's draft; the `jitcommit-draft` binary keeps the
//! hook's source decision, the message file, the spinner and printing, and hears of
//! the loop's progress through [`Events`]. Like the rest of this crate it never prints
//! and never exits.

use std::time::{Duration, Instant};

use jitcommit_core::config::{self, Convention};
use jitcommit_core::convention;
use jitcommit_core::facts;
use jitcommit_core::message;
use jitcommit_core::repo::{LazyStaged, PathHistory, Repo, StagedState};
use jitcommit_core::rules::{self, ChangedPaths};

use crate::structure::Structure;
use crate::{Client, PromptInput, Settings, Window};
use crate::{offline, prompt, quality, select};

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
    /// A line for `JITCOMMIT_DEBUG` (which draft, the repair, the tool's words).
    fn debug(&self, _line: &str) {}
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
fn shown(v: &dyn std::fmt::Display) -> String {
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
        /// Bullets whose words are the tool's: the model's failed the gate.
        tool_bullets: usize,
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
                tool_bullets,
                partial,
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
                if *tool_bullets > 0 {
                    v.push(format!(
                        "jitcommit: {} in the tool's words (the model's said nothing).",
                        match tool_bullets {
                            1 => "one bullet".to_owned(),
                            n => format!("{n} bullets"),
                        }
                    ));
                }
                if !omitted.is_empty() {
                    v.push(format!(
                        "jitcommit: omitted for the budget: {}",
                        omitted.join("; ")
                    ));
                }
                v.extend(partial.iter().map(|p| format!("jitcommit: {p}")));
                v
            }
            Drafted::Offline { why, text, partial } => {
                let mut v = vec![format!("jitcommit: offline draft ({why}).")];
                v.extend(partial.iter().map(|p| format!("jitcommit: {p}")));
                // With the user's intent as the why, no placeholder is left.
                if text.contains(offline::WHY_PLACEHOLDER) {
                    v.push(format!(
                        "jitcommit: replace each {} with why you made the change.",
                        offline::WHY_PLACEHOLDER
                    ));
                }
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

/// The largest context window a repository's `budget-tokens` can ask for; more
/// needs the user's own `jitcommit.budgetTokens` (or its flag or variable).
pub const REPO_BUDGET_CEILING: usize = 32_768;

/// The repository's convention, with the model's context window from the personal
/// settings when they name one (it is a property of the model, not of the repository).
pub fn convention(repo: &Repo, settings: Option<&Settings>) -> Result<Convention, DraftError> {
    let root = repo.work_dir().unwrap_or_else(|| repo.git_dir()).to_owned();
    let mut conv = convention::discover_in_dir(&root)?.convention;
    let asked = conv.context.budget_tokens;
    match settings.and_then(|s| s.budget_tokens) {
        // The user's window; a repository that says it wants less gets less (the
        // server's window narrows it again: Client::discover).
        Some(b) if asked != config::ContextSettings::default().budget_tokens => {
            conv.context.budget_tokens = b.min(asked);
        }
        Some(b) => conv.context.budget_tokens = b,
        // The repository may ask for a smaller window, never for more of the
        // user's machine than REPO_BUDGET_CEILING without the user's own setting.
        None => conv.context.budget_tokens = conv.context.budget_tokens.min(REPO_BUDGET_CEILING),
    }
    let ctx = &mut conv.context;
    ctx.reserve_output_tokens = ctx.reserve_output_tokens.min(ctx.budget_tokens / 2);
    Ok(conv)
}

/// The work tree's fact store (docs/facts.md). A broken store never blocks a draft:
/// it is said on stderr and left out (`jitcommit facts --check` shows every problem).
pub fn fact_store(repo: &Repo, conv: &Convention, events: &dyn Events) -> facts::Store {
    let root = repo.work_dir().unwrap_or_else(|| repo.git_dir());
    facts::load(root, &conv.facts).unwrap_or_else(|e| {
        events.say(&format!(
            "jitcommit: the fact store is not used: {}",
            shown(&e)
        ));
        facts::Store::default()
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
    let debug = |line: &str| events.debug(line);
    let staged = repo.staged_lazy(READ_FILES)?;
    let state = &staged.state;
    if state.files.is_empty() {
        return Err(DraftError::NothingStaged);
    }
    let (settings, settings_err) = match &req.settings {
        Ok(s) => (Some(s.clone()), None),
        Err(e) => (None, Some(e.clone())),
    };
    let conv = convention(repo, settings.as_ref())?;
    let paths = ChangedPaths::new(
        &state
            .files
            .iter()
            .map(|f| f.change.clone())
            .collect::<Vec<_>>(),
    );
    let store = fact_store(repo, &conv, events);
    // Every draft reads the history once: the offline draft's type and the model
    // draft's type list alike.
    let names = staged_names(state);
    let partial = partial(state);
    let history = path_history(repo, &names);
    let offline_draft = |why: String| -> Result<Drafted, DraftError> {
        let scope = select::scope_of_all(&store, &names);
        let mut m = offline::draft_in(state, &conv, &history.types, scope)
            .map_err(|_| DraftError::NothingStaged)?;
        if let Some(intent) = intent {
            intent_as_why(&mut m, intent, &conv);
        }
        Ok(Drafted::Offline {
            text: message::render_wrapped(&m, conv.body_wrap),
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
    let p = match with_prompt_input(repo, &staged, &conv, &history, &store, intent, |input| {
        client.compose(deadline, input)
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
    let fixed_texts = [prompt::CORE_INSTRUCTIONS, REPAIR_HEAD, REPAIR_TAIL];
    let guards = client.guards().clone();
    let evidence = quality::Evidence::new(state, &fixed_texts)
        .gate(guards.gate())
        .trusting(
            p.structure
                .bullets
                .iter()
                .map(|b| b.tool_words.clone())
                .chain(p.structure.tool_summary.clone())
                .chain(p.structure.tool_breaking.clone()),
        );
    for attempt in 0..2 {
        if Instant::now() >= deadline {
            return offline_draft("the deadline passed".to_owned());
        }
        let reply = match client.draft(&p.system, &user, &p.schema, deadline) {
            Ok(r) => r,
            Err(e) => return offline_draft(e.to_string()),
        };
        latency += reply.latency;
        let mut gate_failed = false;
        // A small model's type and breaking note are not taken: the tool's are
        // (Structure::with_tool_choices); nor its summary (below).
        let answer = crate::parse_answer(&reply.content).map(|json| {
            if guards.small {
                p.structure.with_tool_choices(&json)
            } else {
                json
            }
        });
        let problems: Vec<String> = match answer {
            Err(e) => vec![format!("the answer is not the JSON object asked for: {e}")],
            Ok(json) => match p.structure.assemble(&conv, &json) {
                Err(missing) => missing,
                Ok(mut m) => {
                    // A bullet whose words fail the gate says what the tool knows of its
                    // path instead: a mechanical fix, not a reason to ask again.
                    let mut tool_bullets = 0;
                    for (b, fixed) in m.bullets.iter_mut().zip(&p.structure.bullets) {
                        if let Some(why) = quality::bullet_problem(&b.what_why, &evidence)
                            && !fixed.tool_words.is_empty()
                        {
                            debug(&format!("jitcommit-draft: the tool's words: {why}"));
                            b.what_why = fixed.tool_words.clone();
                            tool_bullets += 1;
                        }
                    }
                    // The tool's summary replaces the summary of a model the guards call
                    // small (Guards::small), and that of any model that names
                    // nothing beyond the staged paths (`update src/cli.py`, `update
                    // commitizen providers cargo_provider.py`) where the tool's names
                    // the change; no second request. On the bench, a 0.5B model's
                    // summaries shared fewer words with the human ones than the tool's,
                    // a 135M model's far fewer (docs/benchmarks.md,
                    // `draft-small-summary`): a small model may not make the subject
                    // worse. The gate trusts the tool's summary as it trusts the tool's
                    // bullets.
                    if let Some(tool) = &p.structure.tool_summary
                        && *tool != m.subject.summary
                    {
                        if guards.small {
                            debug(&format!(
                                "jitcommit-draft: the tool's summary {tool:?} for a small model's {:?}",
                                m.subject.summary
                            ));
                            m.subject.summary = tool.clone();
                        } else if !evidence.names_something(&m.subject.summary)
                            && evidence.names_something(tool)
                        {
                            debug(&format!(
                                "jitcommit-draft: the tool's summary: {:?} names only paths",
                                m.subject.summary
                            ));
                            m.subject.summary = tool.clone();
                        }
                    }
                    if let Some(words) = keep {
                        // The user's words and trailers, after the model's breaking note.
                        let (prose, trailers) = user_words(words);
                        m.prose = prose;
                        m.trailers.extend(trailers);
                    }
                    let text = message::render_wrapped(&m, conv.body_wrap);
                    let mut findings = rules::check(&text, &conv, Some(&paths));
                    let gate = quality::check_draft(&text, &evidence);
                    gate_failed = !gate.is_empty();
                    findings.extend(gate);
                    if findings.is_empty() {
                        return Ok(Drafted::Model {
                            text,
                            model: reply.model,
                            latency,
                            tokens,
                            omitted,
                            repaired: attempt > 0,
                            tool_bullets,
                            partial: partial.clone(),
                        });
                    }
                    findings
                        .iter()
                        .take(10)
                        .map(|f| match &f.hint {
                            Some(h) => format!("{}: {} ({h})", f.rule, f.message),
                            None => format!("{}: {}", f.rule, f.message),
                        })
                        .collect()
                }
            },
        };
        if attempt == 0 {
            debug(&format!(
                "jitcommit-draft: repair request for: {}",
                problems.join(" | ")
            ));
            user = repair_prompt(&p.user, &problems);
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

/// The files whose diffs a draft reads before its prompt is composed: the offline
/// analyses (type, breaking evidence, word bank, the tool's words) see these, the first
/// by path. A larger change's other files are read only when the composer may take
/// their stat line ([`Repo::staged_lazy`]), and the footer and `--print-context` say
/// what the analyses did not read ([`partial`]).
pub const READ_FILES: usize = 100;

/// What the offline analyses did not read of `state`, in words (`the offline analyses
/// read 300 of 5,000 staged files …`); `None` when they read every file.
pub fn partial(state: &StagedState) -> Option<String> {
    let read = state.files.iter().filter(|f| f.read).count();
    (read < state.files.len()).then(|| {
        format!(
            "the offline analyses read {} of {} staged files (the first by path); the others' diffs were read only where the prompt shows them",
            thousands(read),
            thousands(state.files.len())
        )
    })
}

/// `5000` as `5,000`.
fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// What a prompt is built from, for `--print-context` and the model's draft alike: the
/// staged `state`, the convention, the fact store, the intent, the message's structure
/// (its type list from `history`) and the convention's token counter, handed to `f`.
pub fn with_prompt_input<T>(
    repo: &Repo,
    staged: &LazyStaged,
    conv: &Convention,
    history: &PathHistory,
    store: &facts::Store,
    intent: Option<&str>,
    f: impl FnOnce(&PromptInput<'_>) -> T,
) -> T {
    let state = &staged.state;
    let counter = crate::tokens::BpeCounter::new(conv.context.encoding);
    let structure = structure_for(repo, state, conv, history, store);
    // A file left unread is read here, when the composer may show it; unreadable, it
    // is left out (listed in the status list).
    let read = |i: usize| staged.read(repo, i).ok().flatten();
    f(&PromptInput {
        state,
        conv,
        structure: &structure,
        intent,
        counter: &counter,
        store,
        read: Some(&read),
    })
}

/// The structure of this draft: the offline draft's bullets, and the scopes the
/// repository's `SCOPE` facts give for the staged paths first (most specific first),
/// then the convention's list or the names derived from the paths and manifests.
fn structure_for(
    repo: &Repo,
    state: &StagedState,
    conv: &Convention,
    history: &PathHistory,
    store: &facts::Store,
) -> Structure {
    let paths = staged_names(state);
    Structure::new(
        state,
        conv,
        history,
        select::scopes_for(store, &paths),
        &|p| read_manifest(repo, p),
    )
}

/// The staged paths, as text.
pub fn staged_names(state: &StagedState) -> Vec<String> {
    state
        .files
        .iter()
        .map(|f| String::from_utf8_lossy(&f.change.path).into_owned())
        .collect()
}

/// The environment variable that leaves the repository's recent subjects out of the
/// prompt when set to `0` or `off` (the quality bench measures what they add,
/// docs/quality.md).
pub const SUBJECTS_ENV: &str = "JITCOMMIT_SUBJECTS";

/// What the recent history says about `paths`, in one bounded walk
/// ([`Repo::path_history`]): the types that settle a type the change does not show for
/// the offline draft, and the types, scopes and subjects a model draft's prompt shows
/// as evidence and examples (without the subjects when [`SUBJECTS_ENV`] says so).
/// Unreadable, the history says nothing.
pub fn path_history(repo: &Repo, paths: &[String]) -> PathHistory {
    let mut h = repo
        .path_history(paths, jitcommit_core::repo::HISTORY_COMMITS)
        .unwrap_or_default();
    if std::env::var(SUBJECTS_ENV).is_ok_and(|v| matches!(v.trim(), "0" | "off" | "false")) {
        h.subjects.clear();
    }
    h
}

/// The largest manifest read for a scope name.
const MANIFEST_BYTES: u64 = 256 * 1024;

/// A manifest (`Cargo.toml`, `package.json`, `pyproject.toml`) of the work tree, for
/// the scopes a draft may choose from; `None` when absent, large or unreadable.
fn read_manifest(repo: &Repo, rel: &str) -> Option<String> {
    let path = repo.work_dir()?.join(rel);
    let meta = std::fs::symlink_metadata(&path).ok()?;
    if !meta.is_file() || meta.len() > MANIFEST_BYTES {
        return None;
    }
    std::fs::read_to_string(path).ok()
}

/// The repair request's fixed wording, before and after the problems. It names
/// checks, never gives a sentence a draft could take as its own: the draft-quality
/// gate rejects a draft that copies it.
const REPAIR_HEAD: &str = "# Checks the earlier answer failed\n\
These checks of the tool rejected an earlier answer to this task (quoted as data):\n";
const REPAIR_TAIL: &str = "Answer again with the JSON object for the staged changes; \
the list of checks above is not content for the commit message.\n";

/// The repair request: the same fresh prompt plus the checks that failed — never
/// the earlier answer, never a conversation.
fn repair_prompt(user: &str, problems: &[String]) -> String {
    let mut s = user.trim_end().to_owned();
    s.push_str("\n\n");
    s.push_str(REPAIR_HEAD);
    for p in problems {
        // The findings quote the model's answer: data, on one line, no block tags.
        s.push_str("- ");
        s.push_str(&crate::fragments::neutralise(&message::one_line(p)));
        s.push('\n');
    }
    s.push_str(REPAIR_TAIL);
    s
}

/// The user's intent as the offline draft's why (issue 30): each bullet says what the
/// tool knows without the placeholder, the intent's first paragraph becomes the
/// summary where it is one line that fits the subject (its type prefix and final
/// period dropped, its first letter lower-cased unless the second is a capital too),
/// and the rest of the intent — all of it when it is no summary — the body's prose,
/// its closing trailers kept as trailers. Nothing is left for the `<why?>` the user
/// would otherwise write.
pub fn intent_as_why(m: &mut message::Message, intent: &str, conv: &Convention) {
    let (mut paras, trailers) = user_words(intent);
    if paras.is_empty() && trailers.is_empty() {
        return;
    }
    for b in &mut m.bullets {
        if let Some(what) = b.what_why.strip_suffix(offline::WHY_PLACEHOLDER) {
            b.what_why = what.trim_end().trim_end_matches(';').trim_end().to_owned();
        }
    }
    let prefix = m.subject.kind.chars().count()
        + m.subject
            .scope
            .as_ref()
            .map_or(0, |s| s.chars().count() + 2)
        + 2;
    let room = conv.subject_limit().map(|max| max.saturating_sub(prefix));
    if let Some(first) = paras.first()
        && !first.contains('\n')
    {
        let seed = crate::structure::repair_summary(first, &m.subject.kind, conv, None);
        let mut chars = seed.chars();
        let seed = match (chars.next(), chars.next()) {
            (Some(a), Some(b)) if a.is_uppercase() && !b.is_uppercase() => {
                a.to_lowercase().chain(seed.chars().skip(1)).collect()
            }
            _ => seed,
        };
        let fits = room.is_none_or(|room| seed.chars().count() <= room);
        if fits && crate::structure::has_words(&seed, 2) {
            m.subject.summary = seed;
            paras.remove(0);
        }
    }
    m.prose = paras;
    m.trailers.extend(trailers);
}

/// The user's `-m` words as the body of the draft: prose paragraphs, and a closing
/// paragraph of trailers (`-s`, `--trailer`) kept as trailers.
fn user_words(text: &str) -> (Vec<String>, Vec<message::Trailer>) {
    let mut paras: Vec<String> = text
        .trim()
        .split("\n\n")
        .map(|p| p.trim().to_owned())
        .filter(|p| !p.is_empty())
        .collect();
    let trailers: Option<Vec<message::Trailer>> = paras.last().and_then(|last| {
        last.lines()
            .map(|l| {
                message::parse_trailer(l).map(|(token, value, _)| message::Trailer {
                    token: token.to_owned(),
                    value,
                })
            })
            .collect()
    });
    match trailers {
        Some(t) => {
            paras.pop();
            (paras, t)
        }
        None => (paras, Vec::new()),
    }
}
