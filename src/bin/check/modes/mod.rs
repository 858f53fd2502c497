//! The modes of `jitcommit-check`, one file each: the commit-msg hook and `--stdin`
//! ([`commit_msg`]), CI ranges ([`range`]), the server hooks ([`push`]) and the
//! informational flags ([`info`]). Each returns an [`Outcome`]; `main` maps it to an
//! exit code.

pub mod commit;
pub mod commit_msg;
pub mod info;
pub mod push;
pub mod range;

use std::io::Write as _;

use jitcommit_core::config::{self, Convention, Loaded};
use jitcommit_core::convention;
use jitcommit_core::fit;
use jitcommit_core::repo::{ObjectId, Repo, RepoError, SharedRepo};
use jitcommit_core::rules;

use crate::args::Settings;
use crate::engine;
use crate::error::CheckError;
use crate::output::{Printer, Report};

/// How a run ended, before it becomes an exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Everything checked follows the convention (or nothing needed checking).
    Clean,
    /// At least one finding.
    Findings,
}

/// The directory the hook or command runs in (git runs hooks at the work tree's top, or
/// in the bare repository).
pub fn current_dir() -> Result<std::path::PathBuf, CheckError> {
    std::env::current_dir().map_err(|source| CheckError::File {
        what: "enter",
        path: ".".into(),
        source,
    })
}

/// The convention for a run in a work tree: `--config`, else discovery from the work
/// tree root, else (bare repository) from the default branch, else built-in. Without a
/// convention file, the built-in one fitted to the newest commits of HEAD's history,
/// less the commits of `skip` (a range being checked does not fit its own policy):
/// [`fit::in_force`].
pub fn local_convention(
    settings: &Settings,
    repo: Option<&Repo>,
    skip: &[ObjectId],
) -> Result<Loaded, CheckError> {
    if let Some(rev) = &settings.convention_from {
        return match repo {
            Some(r) => convention_from(r, rev, settings.config.as_deref()),
            None => convention_from(
                &Repo::discover(&current_dir()?)?,
                rev,
                settings.config.as_deref(),
            ),
        };
    }
    if let Some(path) = &settings.config {
        return Ok(convention::load_file(path)?);
    }
    match repo {
        Some(r) => match r.work_dir() {
            Some(root) => {
                let loaded = convention::discover_in_dir(root)?;
                Ok(fit::in_force(r, loaded, r.head_commit(), skip)?)
            }
            // A bare repository's convention is on its default branch, which must be
            // readable: never the built-in one for want of the refs.
            None => {
                r.refs_readable()?;
                match r.default_branch_commit() {
                    Some(c) => policy_at(r, c),
                    None => Ok(builtin()),
                }
            }
        },
        None => Ok(builtin()),
    }
}

/// `--convention-from REV`: the convention as it stood in commit `rev` — discovered
/// there as a server reads the convention from before a push ([`convention_at`]), or,
/// with `--config FILE`, that file as it is in `rev` (a relative path is taken from
/// the repository root). A file `rev` does not have yet is not a convention it had:
/// then `rev`'s discovered one holds, never the file the range itself brings. A
/// `--config` path outside the repository (absolute, or through `..`) is the user's
/// own file and read as it is.
pub fn convention_from(
    repo: &Repo,
    rev: &str,
    config_file: Option<&std::path::Path>,
) -> Result<Loaded, CheckError> {
    let commit = repo.resolve_commit(rev)?;
    if let Some(path) = config_file {
        let outside = path.is_absolute()
            || path
                .components()
                .any(|c| matches!(c, std::path::Component::ParentDir));
        if outside {
            return Ok(convention::load_file(path)?);
        }
        let rel: Vec<String> = path
            .components()
            .filter_map(|c| match c {
                std::path::Component::Normal(n) => Some(n.to_string_lossy().into_owned()),
                _ => None,
            })
            .collect();
        if let Some(bytes) = repo.read_file_at(commit, &rel.join("/"))? {
            return Ok(convention::load_bytes(path, &bytes)?);
        }
    }
    policy_at(repo, commit)
}

/// The fact store (docs/facts.md) as `read` gives its file (the index, a pushed tree),
/// with the convention's `facts` table, checked against the tree's `paths`: each
/// problem on stderr as `file:line: …` after `whence`; true when there was one.
pub fn store_broken(
    whence: &str,
    bytes: Option<Vec<u8>>,
    conv: &Convention,
    paths: impl FnOnce() -> Result<Vec<String>, RepoError>,
) -> Result<bool, CheckError> {
    use jitcommit_core::facts;
    if bytes.is_none() && conv.facts.is_empty() {
        return Ok(false);
    }
    let paths = paths()?;
    let (_, problems) = facts::check_all(facts::FILE, bytes.as_deref(), conv, Some(&paths));
    let mut err = crate::output::stderr();
    for p in &problems {
        let _ = writeln!(
            err,
            "jitcommit-check: {whence}: {}",
            jitcommit_core::message::one_line(&p.to_string())
        );
    }
    Ok(!problems.is_empty())
}

/// The built-in convention.
pub fn builtin() -> Loaded {
    Loaded {
        convention: Convention::default(),
        origin: config::Origin::Builtin,
    }
}

/// The convention stored in `commit`'s tree.
pub fn convention_at(repo: &Repo, commit: ObjectId) -> Result<Loaded, CheckError> {
    let mut read = |path: &str| {
        repo.read_file_at(commit, path)
            .map_err(std::io::Error::other)
    };
    Ok(convention::discover(&mut read)?)
}

/// The policy a commit's tree states for the commits that follow it: its convention,
/// or without a convention file the built-in one fitted to the newest commits of its
/// history ([`fit::in_force`]).
pub fn policy_at(repo: &Repo, commit: ObjectId) -> Result<Loaded, CheckError> {
    let loaded = convention_at(repo, commit)?;
    Ok(fit::in_force(repo, loaded, Some(commit), &[])?)
}

/// Applies `--no-trace-paths` on top of the convention (a free body has no bullets to trace;
/// `coverage` needs the changed paths even when bullet paths are not traced).
pub fn tracing(settings: &Settings, conv: &Convention) -> bool {
    (conv.trace_paths || conv.coverage)
        && conv.body != config::BodyPolicy::Free
        && !settings.no_trace_paths
}

/// Where a check gets the repository for path tracing: the caller's handle, or this
/// thread's handle on the caller's repository, taken on first use (a worker thread whose
/// commits name no path never takes one).
enum RepoSource<'a> {
    Open(&'a Repo),
    Lazy(&'a SharedRepo, std::cell::OnceCell<Box<Repo>>),
}

impl RepoSource<'_> {
    fn get(&self) -> Result<&Repo, RepoError> {
        match self {
            RepoSource::Open(repo) => Ok(repo),
            RepoSource::Lazy(shared, opened) => match opened.get() {
                Some(repo) => Ok(repo),
                None => {
                    let repo = shared.to_thread_local()?;
                    // A thread of its own checks a long run (see `check_commits`).
                    repo.expect_many_trees();
                    Ok(opened.get_or_init(|| Box::new(repo)))
                }
            },
        }
    }
}

/// Checks the stored message `raw` of commit `id` (with `parents` parents) against `conv`
/// and builds its report. Exemptions are backed by what git stored (see
/// [`rules::stored_exemption`]); `fixups` says whether `fixup!` and friends may be exempt.
fn check_stored(
    repo: &RepoSource<'_>,
    (id, conv, trace): Job<'_>,
    (raw, parents): &(Vec<u8>, usize),
    fixups: bool,
) -> Result<Report, CheckError> {
    let is_commit = |hex: &str| repo.get().is_ok_and(|r| r.is_commit(hex));
    let facts = rules::CommitFacts {
        parents: *parents,
        fixups,
        is_commit: &is_commit,
    };
    let exempt = |text: &str, conv: &Convention| rules::stored_exemption(text, conv, &facts);
    let checked = rules::check_message(raw, conv, &rules::Cleanup::Stored, exempt, |paths| {
        if !trace {
            return Ok::<_, RepoError>(None);
        }
        let repo = repo.get()?;
        // Coverage needs every changed path with its status: no probe then.
        let proved = !conv.coverage && repo.commit_changes_all(id, paths)?;
        rules::traced_set(paths, proved, || repo.commit_changes_for_tracing(id)).map(Some)
    })?;
    let (cleaned, exempt, findings) = engine::printable(checked);
    let subject = cleaned.lines().next().unwrap_or("").to_string();
    Ok(Report {
        commit: Some(id.to_string()),
        refname: None,
        subject: Some(subject),
        file: None,
        exempt,
        findings,
    })
}

/// The commits each adoption point accepts as they are (docs/check.md, "Adopting an
/// existing history"): the adoption point and its ancestors, walked once per point. The
/// point comes from the convention the run already trusts (the work tree's or
/// `--config` for `--range`; the server's policy for a push), never from the commits
/// being checked; a commit can only be "before the adoption point" by being its
/// ancestor, which its id proves.
#[derive(Default)]
pub struct Adoption {
    points: std::collections::HashMap<String, std::collections::HashSet<ObjectId>>,
}

impl Adoption {
    /// Whether `conv`'s adoption point accepts `id` (false when there is none, or when
    /// its commit is not in the repository).
    pub fn accepts(
        &mut self,
        repo: &Repo,
        conv: &Convention,
        id: ObjectId,
    ) -> Result<bool, CheckError> {
        let Some(point) = &conv.adopted else {
            return Ok(false);
        };
        if !self.points.contains_key(point) {
            let set = match ObjectId::from_hex(point.as_bytes()) {
                Ok(tip) if repo.is_commit(point) => repo.ancestry(tip)?.into_iter().collect(),
                _ => Default::default(),
            };
            self.points.insert(point.clone(), set);
        }
        Ok(self.points.get(point).is_some_and(|set| set.contains(&id)))
    }
}

/// [`check_commits`] for `jobs`, except the commits an adoption point accepts: those are
/// reported as they are, exempt as `adopted`, without a check. Reports come in the
/// order of `jobs`.
pub fn check_adopted_commits(
    repo: &Repo,
    jobs: &[Job<'_>],
    fixups: bool,
) -> Result<Vec<Report>, CheckError> {
    let mut adoption = Adoption::default();
    let mut adopted = Vec::with_capacity(jobs.len());
    for job in jobs {
        adopted.push(adoption.accepts(repo, job.1, job.0)?);
    }
    let todo: Vec<Job<'_>> = jobs
        .iter()
        .zip(&adopted)
        .filter(|(_, a)| !**a)
        .map(|(j, _)| *j)
        .collect();
    let mut checked = check_commits(repo, &todo, fixups)?.into_iter();
    let mut out = Vec::with_capacity(jobs.len());
    for (job, a) in jobs.iter().zip(adopted) {
        if a {
            let (raw, _) = repo.commit_message_and_parents(job.0)?;
            let text = String::from_utf8_lossy(&raw);
            out.push(Report {
                commit: Some(job.0.to_string()),
                refname: None,
                subject: Some(text.lines().next().unwrap_or("").to_owned()),
                file: None,
                exempt: Some("adopted".to_owned()),
                findings: Vec::new(),
            });
        } else if let Some(r) = checked.next() {
            out.push(r);
        }
    }
    Ok(out)
}

/// Below this many commits a history is checked on one thread: opening another
/// repository handle costs more than it saves.
const PARALLEL_MIN_COMMITS: usize = 256;

/// At most this many threads check a history (each holds its own caches, ~32 MB).
const MAX_THREADS: usize = 4;

/// One commit to check, with its convention and whether its paths are traced.
pub type Job<'c> = (ObjectId, &'c Convention, bool);

/// Checks `jobs` and returns their reports in the same order; `fixups` says whether
/// `fixup!`, `squash!` and `amend!` commits may be exempt. The messages are read on
/// this thread (the walk that listed the commits left them in the object cache). A long
/// history is then checked in contiguous runs, one per core (up to [`MAX_THREADS`]):
/// a run that traces paths takes its own handle on `repo`'s repository (a handle and its
/// caches are per thread), and consecutive commits keep its delta-base and tree caches
/// warm. The reports equal those of a one-by-one check.
pub fn check_commits(
    repo: &Repo,
    jobs: &[Job<'_>],
    fixups: bool,
) -> Result<Vec<Report>, CheckError> {
    let messages = jobs
        .iter()
        .map(|job| repo.commit_message_and_parents(job.0))
        .collect::<Result<Vec<_>, _>>()?;
    // Each run is checked newest first (the jobs come oldest first) and its reports put
    // back in order. A repacked pack stores a tree's newest version whole and each older
    // one as a delta against the next newer one, so newest first each tree is one delta
    // from the tree read just before, still in the pack reader's cache. Oldest first,
    // every tree needs its chain from the base rebuilt, and once a directory's tree is
    // large enough that a chain no longer fits the cache the cost grows with the tree
    // size times the chain length (bench/trace-scaling.sh: 6.4x `git log --raw` at 64k
    // files, against 0.69x at 16k).
    let run = |source: RepoSource<'_>, jobs: &[Job<'_>], messages: &[(Vec<u8>, usize)]| {
        let mut reports = jobs
            .iter()
            .zip(messages)
            .rev()
            .map(|(job, stored)| check_stored(&source, *job, stored, fixups))
            .collect::<Result<Vec<_>, CheckError>>()?;
        reports.reverse();
        Ok::<_, CheckError>(reports)
    };
    if jobs.len() >= PARALLEL_MIN_COMMITS {
        repo.expect_many_trees();
    }
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_THREADS));
    if threads < 2 || jobs.len() < PARALLEL_MIN_COMMITS {
        return run(RepoSource::Open(repo), jobs, &messages);
    }
    let chunk = jobs.len().div_ceil(threads);
    let shared = repo.shared();
    let shared = &shared;
    std::thread::scope(|scope| {
        let others: Vec<_> = jobs[chunk..]
            .chunks(chunk)
            .zip(messages[chunk..].chunks(chunk))
            .map(|(jobs, messages)| {
                scope.spawn(move || {
                    run(RepoSource::Lazy(shared, Default::default()), jobs, messages)
                })
            })
            .collect();
        let mut reports = run(RepoSource::Open(repo), &jobs[..chunk], &messages[..chunk])?;
        for handle in others {
            match handle.join() {
                Ok(run) => reports.extend(run?),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        Ok(reports)
    })
}

/// Writes the summary line of a history check; returns its outcome (from the reports,
/// whatever happened to the output). Commits are counted once each, also when a push
/// checked one under two refs' policies.
pub fn finish_history(out: &mut Printer<'_>, reports: &[Report], what: &str) -> Outcome {
    let distinct = |bad: bool| {
        let mut ids: Vec<_> = reports
            .iter()
            .filter(|r| !bad || !r.findings.is_empty())
            .map(|r| r.commit.as_deref())
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids.len()
    };
    let bad = distinct(true);
    let findings: usize = reports.iter().map(|r| r.findings.len()).sum();
    if bad == 0 {
        return Outcome::Clean;
    }
    out.note(&format!(
        "jitcommit-check: {bad} of {} {what} do not follow the convention ({findings} finding{})",
        distinct(false),
        if findings == 1 { "" } else { "s" }
    ));
    Outcome::Findings
}
