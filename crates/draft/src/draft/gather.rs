//! Gather: what the repository says about the staged change, read once per draft —
//! the staged state (the diffs of its first [`READ_FILES`] files), the convention with
//! the model's window, the fact store, the recent history of the staged paths — and
//! the structure the tool derives from them. All of it is the repository's own text,
//! which reaches a prompt only through the next stage, the redaction gate
//! ([`super::redact`]).

use jitcommit_core::config::{self, Convention};
use jitcommit_core::convention;
use jitcommit_core::facts;
use jitcommit_core::repo::{LazyStaged, PathHistory, Repo, StagedState};
use jitcommit_core::rules::ChangedPaths;

use super::{DraftError, Events, shown};
use crate::Settings;
use crate::select;
use crate::structure::Structure;

/// What a draft reads of the repository ([`gather`]).
pub struct Gathered {
    /// The staged change, its first [`READ_FILES`] files read.
    pub staged: LazyStaged,
    /// The convention, with the model's window ([`convention`]).
    pub conv: Convention,
    /// The staged paths as the rules check a message against them.
    pub paths: ChangedPaths,
    /// The fact store ([`fact_store`]).
    pub store: facts::Store,
    /// The staged paths, as text.
    pub names: Vec<String>,
    /// What the offline analyses did not read ([`partial`]).
    pub partial: Option<String>,
    /// The recent history of the staged paths ([`path_history`]).
    pub history: PathHistory,
}

/// Reads what a draft needs of `repo`: nothing staged is no draft at all. Every draft
/// reads the history once: the offline draft's type and the model draft's type list
/// alike.
pub fn gather(
    repo: &Repo,
    settings: Option<&Settings>,
    events: &dyn Events,
) -> Result<Gathered, DraftError> {
    let staged = repo.staged_lazy(READ_FILES)?;
    let state = &staged.state;
    if state.files.is_empty() {
        return Err(DraftError::NothingStaged);
    }
    let conv = convention(repo, settings)?;
    let paths = ChangedPaths::new(
        &state
            .files
            .iter()
            .map(|f| f.change.clone())
            .collect::<Vec<_>>(),
    );
    let store = fact_store(repo, &conv, events);
    let names = staged_names(state);
    let partial = partial(state);
    let history = path_history(repo, &names);
    Ok(Gathered {
        staged,
        conv,
        paths,
        store,
        names,
        partial,
        history,
    })
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

/// The structure of this draft: the offline draft's bullets, and the scopes the
/// repository's `SCOPE` facts give for the staged paths first (most specific first),
/// then the convention's list or the names derived from the paths and manifests.
pub(super) fn structure(
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
