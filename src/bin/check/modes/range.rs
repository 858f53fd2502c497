//! `--range A..B` for CI: every commit of the range, oldest first, each traced against its
//! diff to its first parent; the convention comes from the work tree (or `--config`).
//! Commits the convention's adoption point accepts (it and its ancestors) are reported
//! as `adopted`, unchecked.

use std::io::IsTerminal;

use jitcommit_core::repo::{ObjectId, Repo, RepoError};

use crate::args::Settings;
use crate::error::CheckError;
use crate::modes::{Outcome, check_adopted_commits, finish_history, local_convention, tracing};
use crate::output::{Printer, Style};

/// Checks every commit of `spec`.
pub fn run(settings: &Settings, spec: &str) -> Result<Outcome, CheckError> {
    run_ids(settings, |repo| repo.rev_range(spec))
}

/// Checks the commits `select` picks in the repository (`--range`, `--commit`).
pub fn run_ids(
    settings: &Settings,
    select: impl FnOnce(&Repo) -> Result<Vec<ObjectId>, RepoError>,
) -> Result<Outcome, CheckError> {
    let cwd = super::current_dir()?;
    let repo = Repo::discover(&cwd)?;
    let ids = select(&repo)?;
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
    let reports = check_adopted_commits(&repo, &jobs, true)?;
    for r in &reports {
        out.pushed(r);
    }
    let outcome = finish_history(&mut out, &reports, "commits");
    out.flush();
    Ok(outcome)
}
