//! The drafting flow (DESIGN §2), one pass: settings → repository state → convention
//! → prompt → model → answer → render → validate → (one repair) → message file, with
//! the offline draft as the answer to every failure on the model side.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use jitcommit_core::config::{self, Convention};
use jitcommit_core::gitenv::CleanupMode;
use jitcommit_core::invocation;
use jitcommit_core::message;
use jitcommit_drafter::prompt;
use jitcommit_core::repo::{Repo, StagedState, TypeHistory};
use jitcommit_core::rules::{self, ChangedPaths};
use jitcommit_drafter::quality;
use jitcommit_drafter::structure::Structure;
use jitcommit_core::facts;
use jitcommit_drafter::{budget, offline, select};
use jitcommit_drafter::{Client, PromptInput, Settings, Window};

use crate::args::Args;
use crate::msgfile;
use crate::source::{self, Decision, Invocation};
use crate::spinner::Spinner;

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
    /// The staged set is empty.
    #[error("nothing is staged")]
    NothingStaged,
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
    },
    /// The offline draft, and why.
    Offline {
        /// The rendered text.
        text: String,
        /// Why no model draft was used.
        why: String,
    },
}

impl Drafted {
    fn text(&self) -> &str {
        match self {
            Drafted::Model { text, .. } | Drafted::Offline { text, .. } => text,
        }
    }

    /// The footer's lines, without comment prefixes.
    fn footer(&self) -> Vec<String> {
        let lines = match self {
            Drafted::Model {
                model,
                latency,
                tokens,
                omitted,
                repaired,
                tool_bullets,
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
                v
            }
            Drafted::Offline { why, .. } => vec![
                format!("jitcommit: offline draft ({why})."),
                format!(
                    "jitcommit: replace each {} with why you made the change.",
                    offline::WHY_PLACEHOLDER
                ),
            ],
        };
        lines.iter().map(|l| shown(l)).collect()
    }

    fn label(&self) -> &'static str {
        match self {
            Drafted::Model {
                repaired: false, ..
            } => "model",
            Drafted::Model { repaired: true, .. } => "model-repaired",
            Drafted::Offline { .. } => "offline",
        }
    }
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
    let state = repo.staged()?;
    let settings = settings(&repo, args)?;
    let conv = convention(&repo, Some(&settings))?;
    let intent = intent_from(args);
    let intent = intent.as_deref();
    let store = fact_store(&repo, &conv);
    // With a model configured, the server is asked for its window (no model call).
    let deadline = Instant::now() + settings.timeout;
    let client = Client::new(&settings, Window::of(&conv.context))
        .ok()
        .map(|mut c| {
            c.discover(deadline);
            c
        });
    let history = type_history(&repo, &staged_names(&state));
    let p = with_prompt_input(
        &repo,
        &state,
        &conv,
        &history,
        &store,
        intent,
        |input| match &client {
            Some(c) => c.compose(deadline, input),
            None => input.build(),
        },
    )
    .map_err(RunError::DoesNotFit)?;
    let window = client.as_ref().map(|c| c.budget().1.to_owned());
    let selected = select::select_staged(&store, &state);
    let out = if args.json {
        let v = serde_json::json!({
            "system": p.system,
            "user": p.user,
            "schema": p.schema,
            "report": p.report,
            "facts": selected,
            "window": window,
        });
        serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
    } else {
        format!(
            "=== system ===\n{}\n=== user ===\n{}\n=== schema (the request's constrained-output format) ===\n{}\n{}=== budget ===\n{}",
            p.system.trim_end(),
            p.user.trim_end(),
            serde_json::to_string(&p.schema).unwrap_or_default(),
            facts_text(&store, &selected),
            budget::render_report(&p.report)
        ) + &window.map_or(String::new(), |w| format!("window: {w}\n"))
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

fn settings(repo: &Repo, args: &Args) -> Result<Settings, RunError> {
    let git =
        jitcommit_drafter::settings::git_lookup(|k| repo.config_string(k), |k| repo.config_bool(k));
    Ok(Settings::from_process_env(&args.flags, &git)?)
}

/// The largest context window a repository's `budget-tokens` can ask for; more
/// needs the user's own `jitcommit.budgetTokens` (or its flag or variable).
pub const REPO_BUDGET_CEILING: usize = 32_768;

/// The repository's convention, with the model's context window from the personal
/// settings when they name one (it is a property of the model, not of the repository).
fn convention(repo: &Repo, settings: Option<&Settings>) -> Result<Convention, RunError> {
    let root = repo.work_dir().unwrap_or_else(|| repo.git_dir()).to_owned();
    let mut conv = config::discover_in_dir(&root)?.convention;
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
fn fact_store(repo: &Repo, conv: &Convention) -> facts::Store {
    let root = repo.work_dir().unwrap_or_else(|| repo.git_dir());
    facts::load(root, &conv.facts).unwrap_or_else(|e| {
        say!("jitcommit: the fact store is not used: {}", shown(&e));
        facts::Store::default()
    })
}

/// Produces the draft: the model's when it answers within the deadline with a draft
/// the rules accept (at most one repair request), else the offline draft.
fn draft(
    repo: &Repo,
    args: &Args,
    intent: Option<&str>,
    keep: Option<&str>,
    start: Instant,
) -> Result<Drafted, RunError> {
    let state = repo.staged()?;
    if state.files.is_empty() {
        return Err(RunError::NothingStaged);
    }
    let (settings, settings_err) = match settings(repo, args) {
        Ok(s) => (Some(s), None),
        Err(e) => (None, Some(e.to_string())),
    };
    let conv = convention(repo, settings.as_ref())?;
    let paths = ChangedPaths::new(
        &state
            .files
            .iter()
            .map(|f| f.change.clone())
            .collect::<Vec<_>>(),
    );
    let store = fact_store(repo, &conv);
    // Every draft reads the history once: the offline draft's type and the model
    // draft's type list alike.
    let names = staged_names(&state);
    let history = type_history(repo, &names);
    let offline_draft = |why: String| -> Result<Drafted, RunError> {
        let scope = select::scope_of_all(&store, &names);
        let m = offline::draft_in(&state, &conv, &history, scope)
            .map_err(|_| RunError::NothingStaged)?;
        Ok(Drafted::Offline {
            text: message::render_wrapped(&m, conv.body_wrap),
            why: shown(&why),
        })
    };
    let settings = match (settings, settings_err) {
        (Some(s), _) => s,
        (None, why) => return offline_draft(why.unwrap_or_default()),
    };
    if args.offline {
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
    let p = match with_prompt_input(repo, &state, &conv, &history, &store, intent, |input| {
        client.compose(deadline, input)
    }) {
        Ok(p) => p,
        Err(e) => return offline_draft(format!("the change does not fit the model's budget: {e}")),
    };
    let _spin = Spinner::start(client.model());
    let tokens = (p.report.total, p.report.available);
    let omitted: Vec<String> = p
        .report
        .fragments
        .iter()
        .filter(|f| f.state != jitcommit_drafter::fragments::LevelState::Full)
        .map(|f| format!("{}: {}", f.id, f.note))
        .collect();
    let mut latency = Duration::ZERO;
    let mut user = p.user.clone();
    // After a loop, the repair's schema: its grammar refuses the words looped on.
    let mut repair_schema: Option<serde_json::Value> = None;
    let mut looped: Vec<String> = Vec::new();
    // The prompt's own fixed wording, which a draft must not echo as its content.
    let fixed_texts = [prompt::CORE_INSTRUCTIONS, REPAIR_HEAD, REPAIR_TAIL];
    let evidence = quality::Evidence::new(&state, &fixed_texts)
        .trusting(p.structure.bullets.iter().map(|b| b.tool_words.clone()));
    for attempt in 0..2 {
        if Instant::now() >= deadline {
            return offline_draft("the deadline passed".to_owned());
        }
        let schema = repair_schema.as_ref().unwrap_or(&p.schema);
        let reply = match client.draft(&p.system, &user, schema, deadline) {
            Ok(r) => r,
            Err(e) => return offline_draft(e.to_string()),
        };
        latency += reply.latency;
        let mut gate_failed = false;
        let problems: Vec<String> = match jitcommit_drafter::parse_answer(&reply.content) {
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
                    // The model's own trailer (its breaking note) comes before the user's.
                    let own_trailers = m.trailers.len();
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
                    if gate_failed {
                        looped = quality::looped_words(
                            std::iter::once(m.subject.summary.as_str())
                                .chain(m.bullets.iter().map(|b| b.what_why.as_str()))
                                .chain(m.trailers[..own_trailers].iter().map(|t| t.value.as_str())),
                        );
                    }
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
            if !looped.is_empty() {
                debug(&format!(
                    "jitcommit-draft: the repair's grammar refuses {}",
                    looped.join(", ")
                ));
                repair_schema = Some(prompt::output_schema_refusing(&p.structure, &looped));
            }
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

/// What a prompt is built from, for `--print-context` and the model's draft alike: the
/// staged `state`, the convention, the fact store, the intent, the message's structure
/// (its type list from `history`) and the convention's token counter, handed to `f`.
fn with_prompt_input<T>(
    repo: &Repo,
    state: &StagedState,
    conv: &Convention,
    history: &TypeHistory,
    store: &facts::Store,
    intent: Option<&str>,
    f: impl FnOnce(&PromptInput<'_>) -> T,
) -> T {
    let counter = jitcommit_drafter::tokens::BpeCounter::new(conv.context.encoding);
    let structure = structure_for(repo, state, conv, history, store);
    f(&PromptInput {
        state,
        conv,
        structure: &structure,
        intent,
        counter: &counter,
        store,
    })
}

/// The structure of this draft: the offline draft's bullets, and the scopes the
/// repository's `SCOPE` facts give for the staged paths first (most specific first),
/// then the convention's list or the names derived from the paths and manifests.
fn structure_for(
    repo: &Repo,
    state: &StagedState,
    conv: &Convention,
    history: &TypeHistory,
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
fn staged_names(state: &StagedState) -> Vec<String> {
    state
        .files
        .iter()
        .map(|f| String::from_utf8_lossy(&f.change.path).into_owned())
        .collect()
}

/// The types the recent history used for `paths`: they settle a type the change does
/// not show. Unreadable, the history says nothing.
fn type_history(repo: &Repo, paths: &[String]) -> TypeHistory {
    repo.type_history(paths, jitcommit_core::repo::HISTORY_COMMITS)
        .unwrap_or_default()
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
        s.push_str(&jitcommit_drafter::fragments::neutralise(&message::one_line(
            p,
        )));
        s.push('\n');
    }
    s.push_str(REPAIR_TAIL);
    s
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
