//! The drafting flow (docs/design.md §2), one pass: settings → repository state → convention
//! → prompt → model → answer → render → validate → (one repair) → message file, with
//! the offline draft as the answer to every failure on the model side.

use std::path::{Path, PathBuf};
use std::time::Instant;

use jitcommit_core::config;
use jitcommit_core::facts;
use jitcommit_core::gitenv::CleanupMode;
use jitcommit_core::invocation;
use jitcommit_core::message;
use jitcommit_core::repo::Repo;
use jitcommit_drafter::draft::{
    READ_FILES, compose, convention, fact_store, partial, path_history, staged_names,
    with_prompt_input,
};
use jitcommit_drafter::{Client, Settings, Window};
use jitcommit_drafter::{DraftError, Drafted, Events, Request, budget, select};

use crate::args::Args;
use crate::msgfile;
use crate::source::{self, Decision, Invocation};
use crate::spinner::Spinner;

/// The hook's ears on the draft loop: lines on stderr, the spinner while the model
/// is asked.
struct Hooked;

impl Events for Hooked {
    fn say(&self, line: &str) {
        say!("{line}");
    }

    fn debug(&self, line: &jitcommit_drafter::redact::Redacted) {
        debug(line);
    }

    fn asking(&self, model: &str) -> Box<dyn std::any::Any> {
        Box::new(Spinner::start(model))
    }
}

/// Why a run left the message file as it was; printed as one line.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The repository could not be opened or read.
    #[error("{}", shown(.0))]
    Repo(#[from] jitcommit_core::repo::RepoError),
    /// The repository's convention is broken (its values may hold anything: shown
    /// on one printable line).
    #[error("{}", shown(.0))]
    Config(#[from] config::ConfigError),
    /// The personal model settings are invalid.
    #[error("{}", shown(.0))]
    Settings(#[from] jitcommit_drafter::SettingsError),
    /// Reading or writing a file.
    #[error("{}: {source}", shown(&path.display()))]
    Io {
        /// The file.
        path: PathBuf,
        /// What the OS said.
        source: std::io::Error,
    },
    /// The message file is not UTF-8 (git writes it in the user's encoding).
    #[error("{0}: the message file is not UTF-8")]
    NotUtf8(PathBuf),
    /// No draft was made (the draft crate says why).
    #[error("{0}")]
    Draft(#[from] DraftError),
    /// Even the prompt's floors exceed the budget (`--print-context` only; the hook
    /// drafts offline instead).
    #[error("{0}")]
    DoesNotFit(budget::DoesNotFit),
    /// Writing the prompt to stdout failed (a closed pipe).
    #[error("writing to stdout: {0}")]
    Stdout(std::io::Error),
}

/// A value from the repository, a server or the environment as one printable line
/// (for stderr and the message file's comments).
fn shown(v: &dyn std::fmt::Display) -> String {
    message::one_line(&v.to_string()).into_owned()
}

/// The hook: decide the remaining questions that need the repository, draft, write.
pub fn hook(args: &Args, inv: &Invocation, decision: Decision) -> Result<(), RunError> {
    let start = Instant::now();
    let original = read_message(&inv.file)?;
    let cwd = std::env::current_dir().map_err(|e| RunError::Io {
        path: PathBuf::from("."),
        source: e,
    })?;
    let repo = Repo::discover(&cwd)?;
    if repo.config_bool("jitcommit.enabled") == Some(false) {
        return Ok(());
    }
    warn_unknown_keys(&repo);
    // The git command that runs the hook, when it can be read (Linux: its argv).
    let commit = invocation::git_commit_args(&|name| repo.config_string(&format!("alias.{name}")));
    let from_message = decision == Decision::MaybeIntent;
    let intent = if from_message {
        let on = repo
            .config_string("jitcommit.onMessage")
            .unwrap_or_default();
        if !on.trim().eq_ignore_ascii_case("intent") || source::is_generated_message(&original) {
            return Ok(());
        }
        let text = original.trim();
        if text.is_empty() {
            return Ok(());
        }
        // -F, --amend -m, -c/-C with -m all arrive as `message`: draft only around a
        // plain `git commit -m`, and keep its words (run::draft puts them in the body).
        if !commit
            .as_ref()
            .is_some_and(invocation::CommitArgs::plain_message)
        {
            debug("jitcommit-draft: not a plain `git commit -m`: the message is kept");
            return Ok(());
        }
        Some(text.to_owned())
    } else {
        intent_from(args)
    };
    // Comment lines (the footer, the "no draft" note) are written only where git is
    // sure to drop them: strip mode, which needs an editor. The git command line says
    // `--cleanup=` and whether an editor runs; without it, `commit.cleanup` and
    // `GIT_EDITOR=:` (git's mark for "no editor") decide.
    let editor = match &commit {
        Some(c) => c.editor,
        None => std::env::var_os("GIT_EDITOR").is_none_or(|e| e != ":"),
    };
    let cleanup = commit
        .and_then(|c| c.cleanup)
        .or_else(|| repo.config_string("commit.cleanup"))
        .map(|c| c.to_ascii_lowercase());
    let comments = !from_message
        && CleanupMode::from_setting(cleanup.as_deref(), editor) == CleanupMode::Strip;
    let prefix = comment_prefix(&repo, &original);

    let keep = if from_message {
        intent.as_deref()
    } else {
        None
    };
    let drafted = match draft(&repo, args, intent.as_deref(), keep, start) {
        Ok(d) => d,
        Err(e) => {
            if comments {
                let note = vec![msgfile::comment_line(
                    &prefix,
                    &format!("jitcommit: no draft: {e}"),
                )];
                write(&inv.file, &msgfile::prepend_comments(&original, &note))?;
            }
            return Err(e);
        }
    };
    debug(&format!(
        "jitcommit-draft: used the {} draft",
        drafted.label()
    ));
    if from_message && matches!(drafted, Drafted::Offline { .. }) {
        // The user's own words beat a placeholder draft.
        say!(
            "jitcommit-draft: {}; keeping the -m message",
            offline_why(&drafted)
        );
        return Ok(());
    }
    if let Drafted::Offline { why, .. } = &drafted
        && !comments
    {
        say!("jitcommit-draft: offline draft ({why})");
    }
    let footer: Vec<String> = if comments {
        drafted
            .footer()
            .iter()
            .map(|l| msgfile::comment_line(&prefix, l))
            .collect()
    } else {
        Vec::new()
    };
    let base = if from_message { "" } else { original.as_str() };
    write(&inv.file, &msgfile::compose(base, drafted.text(), &footer))
}

/// `--dry-run`: the draft on stdout, the footer on stderr, nothing written.
pub fn dry_run(args: &Args) -> Result<(), RunError> {
    let start = Instant::now();
    let cwd = std::env::current_dir().map_err(|e| RunError::Io {
        path: PathBuf::from("."),
        source: e,
    })?;
    let repo = Repo::discover(&cwd)?;
    let d = draft(&repo, args, intent_from(args).as_deref(), None, start)?;
    for l in d.footer() {
        say!("{l}");
    }
    use std::io::Write;
    std::io::stdout()
        .write_all(d.text().as_bytes())
        .map_err(RunError::Stdout)
}

/// `--print-context [--json]`: the exact prompt and the budget table; no model call.
pub fn print_context(args: &Args) -> Result<(), RunError> {
    let cwd = std::env::current_dir().map_err(|e| RunError::Io {
        path: PathBuf::from("."),
        source: e,
    })?;
    let repo = Repo::discover(&cwd)?;
    let staged = repo.staged_lazy(READ_FILES)?;
    let state = &staged.state;
    let settings = settings(&repo, args)?;
    let conv = convention(&repo, Some(&settings))?;
    let intent = intent_from(args);
    let intent = intent.as_deref();
    let store = fact_store(&repo, &conv, &Hooked);
    // With a model configured, the server is asked for its window (no model call).
    let deadline = Instant::now() + settings.timeout;
    let client = Client::new(&settings, Window::of(&conv.context))
        .ok()
        .map(|mut c| {
            c.discover(deadline);
            c
        });
    let history = path_history(&repo, &staged_names(state));
    let p = with_prompt_input(&repo, &staged, &conv, &history, &store, intent, |input| {
        compose(client.as_ref(), deadline, input)
    })
    .map_err(RunError::DoesNotFit)?;
    let window = client.as_ref().map(|c| c.budget().1.to_owned());
    // Which guards the request would carry, and why (the model's size and where it
    // came from, or the setting).
    let guards = match &client {
        Some(c) => c.guards().line(),
        None => "none: no model will be asked (the offline draft)".to_owned(),
    };
    // The facts the prompt's selection gives: of the change as the gate lets it through.
    let gated = jitcommit_drafter::redact::gate_change(state, None, None);
    let selected = select::select_staged(&store, gated.state());
    let partial = partial(state);
    let out = if args.json {
        let v = serde_json::json!({
            "system": p.system,
            "user": p.user,
            "schema": p.schema,
            "report": p.report,
            "facts": selected,
            "window": window,
            "guards": guards,
            "partial": partial,
        });
        serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
    } else {
        let text = format!(
            "=== system ===\n{}\n=== user ===\n{}\n=== schema (the request's constrained-output format) ===\n{}\n{}=== budget ===\n{}",
            p.system.trim_end(),
            p.user.trim_end(),
            serde_json::to_string(&p.schema).unwrap_or_default(),
            facts_text(&store, &selected),
            budget::render_report(&p.report)
        ) + &window.map_or(String::new(), |w| format!("window: {w}\n"))
            + &format!("guards: {}\n", shown(&guards))
            + &partial.map_or(String::new(), |p| format!("read: {p}\n"));
        // File names, hunks and subjects are the repository's: a terminal shows their
        // control characters as escapes and never obeys them (`--json` has the bytes).
        jitcommit_core::term::printable(&text).into_owned()
    };
    use std::io::Write;
    std::io::stdout()
        .write_all(out.as_bytes())
        .map_err(RunError::Stdout)
}

/// `--print-context`'s facts section: each selected fact's source and why (the path
/// or word that matched); nothing without a store.
fn facts_text(store: &facts::Store, selected: &[select::Selected]) -> String {
    if store.facts.is_empty() {
        return String::new();
    }
    let mut s = format!(
        "=== facts ({} of {} selected, and why) ===\n",
        selected.len(),
        store.facts.len()
    );
    for x in selected {
        s.push_str(&format!("{}: {}\n", shown(&x.fact.source()), shown(&x.why)));
    }
    s
}

fn intent_from(args: &Args) -> Option<String> {
    args.intent
        .clone()
        .or_else(|| std::env::var("JITCOMMIT_INTENT").ok())
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
}

fn debug(line: &str) {
    if std::env::var_os("JITCOMMIT_DEBUG").is_some() {
        say!("{}", shown(&line));
    }
}

fn offline_why(d: &Drafted) -> String {
    match d {
        Drafted::Offline { why, .. } => format!("no model draft ({why})"),
        Drafted::Model { .. } => String::new(),
    }
}

fn read_message(path: &Path) -> Result<String, RunError> {
    let bytes = std::fs::read(path).map_err(|e| RunError::Io {
        path: path.to_owned(),
        source: e,
    })?;
    String::from_utf8(bytes).map_err(|_| RunError::NotUtf8(path.to_owned()))
}

fn write(path: &Path, text: &str) -> Result<(), RunError> {
    msgfile::write_atomic(path, text).map_err(|e| RunError::Io {
        path: path.to_owned(),
        source: e,
    })
}

/// The comment prefix git strips from the file it gave the hook: `core.commentString`,
/// else `core.commentChar`, else `#`; `auto` is read back from the file (git wrote no
/// comments to read with `commit.status=false`).
fn comment_prefix(repo: &Repo, file_text: &str) -> String {
    let configured = jitcommit_core::gitenv::comment_prefix(
        repo.config_string("core.commentString").as_deref(),
        repo.config_string("core.commentChar").as_deref(),
    );
    let git_commented = repo.config_bool("commit.status") != Some(false);
    configured.for_prepared(file_text, git_commented).to_owned()
}

/// Names, once per run, each `jitcommit.*` git config key no tool reads (a typo git
/// ignores without a word), with the nearest known key. Never blocks the commit.
fn warn_unknown_keys(repo: &Repo) {
    let keys = repo.config_keys("jitcommit");
    for (key, near) in jitcommit_drafter::settings::unknown_git_keys(&keys) {
        let near = near.map_or(String::new(), |n| format!(" (did you mean {n}?)"));
        let key = jitcommit_core::term::printable(&key);
        say!("jitcommit-draft: git config {key} is not a jitcommit setting and is ignored{near}");
    }
}

fn settings(repo: &Repo, args: &Args) -> Result<Settings, RunError> {
    let git =
        jitcommit_drafter::settings::git_lookup(|k| repo.config_string(k), |k| repo.config_bool(k));
    Ok(Settings::from_process_env(&args.flags, &git)?)
}

/// The draft for this run: the hook's settings and `--offline` handed to the draft
/// crate's one call.
fn draft(
    repo: &Repo,
    args: &Args,
    intent: Option<&str>,
    keep: Option<&str>,
    start: Instant,
) -> Result<Drafted, RunError> {
    Ok(jitcommit_drafter::draft(&Request {
        repo,
        settings: settings(repo, args).map_err(|e| e.to_string()),
        offline: args.offline,
        intent,
        keep,
        start,
        events: &Hooked,
    })?)
}
