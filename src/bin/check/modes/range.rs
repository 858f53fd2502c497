//! `--range A..B` for CI: every commit of the range, oldest first, each traced against its
//! diff to its first parent; the convention comes from the work tree (or `--config`).
//! Commits the convention's adoption point accepts (it and its ancestors) are reported
//! as `adopted`, unchecked.

use std::io::IsTerminal;

use jitcommit_core::repo::{ObjectId, Repo, RepoError};

use crate::args::Settings;
use crate::error::CheckError;
use crate::modes::{
    Outcome, adopted, check_adopted_commits, finish_history, local_convention, tracing,
};
use crate::output::{Printer, Style};

/// Commits to check, oldest first, and the walk that lists them: from `tips`, hiding
/// `hidden` (what an adoption point is judged against).
pub struct Selection {
    /// The commits.
    pub ids: Vec<ObjectId>,
    /// Where the walk starts.
    pub tips: Vec<ObjectId>,
    /// Where it stops.
    pub hidden: Vec<ObjectId>,
}

/// Checks every commit of `spec`.
pub fn run(settings: &Settings, spec: &str) -> Result<Outcome, CheckError> {
    run_ids(settings, |repo| {
        let (tips, hidden) = repo.range_ends(spec)?;
        Ok(Selection {
            ids: repo.range_between(&tips, &hidden)?,
            tips,
            hidden,
        })
    })
}

/// Checks the commits `select` picks in the repository (`--range`, `--commit`).
pub fn run_ids(
    settings: &Settings,
    select: impl FnOnce(&Repo) -> Result<Selection, RepoError>,
) -> Result<Outcome, CheckError> {
    let cwd = super::current_dir()?;
    let repo = Repo::discover(&cwd)?;
    let Selection { ids, tips, hidden } = select(&repo)?;
    let loaded = local_convention(settings, Some(&repo), &ids)?;
    let trace = tracing(settings, &loaded.convention);
    let stdout = std::io::stdout();
    let style = Style::new(settings.color, stdout.is_terminal());
    // Every report is known before the first line: written in one go, not a line at a
    // time (a long range prints thousands of lines).
    let mut lock = std::io::BufWriter::with_capacity(64 * 1024, stdout.lock());
    let mut out = Printer::new(&mut lock, settings.format, style);
    let jobs: Vec<_> = ids
        .iter()
        .map(|&id| (id, &loaded.convention, trace))
        .collect();
    // CI checks a range before it lands: `fixup!` and friends are exempt as the
    // convention says (a server decides for itself).
    let adopted = adopted(&repo, &loaded.convention, &ids, &tips, &hidden)?;
    let reports = check_adopted_commits(&repo, &jobs, &adopted, true)?;
    for r in &reports {
        out.pushed(r);
    }
    let outcome = finish_history(&mut out, &reports, "commits");
    out.flush();
    Ok(outcome)
}
