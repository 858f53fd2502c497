//! `--commit REV`: one existing commit's stored message, traced against that commit's
//! own diff to its first parent (what `--stdin` cannot do: it traces against what is
//! staged now). The convention comes from the work tree (or `--config`), as for ranges.

use std::io::IsTerminal;

use jitcommit_core::repo::Repo;

use crate::args::Settings;
use crate::error::CheckError;
use crate::modes::{Outcome, check_commits, finish_history, local_convention, tracing};
use crate::output::{Printer, Style};

/// Checks the commit `rev` names.
pub fn run(settings: &Settings, rev: &str) -> Result<Outcome, CheckError> {
    let cwd = super::current_dir()?;
    let repo = Repo::discover(&cwd)?;
    let loaded = local_convention(settings, Some(&repo))?;
    let trace = tracing(settings, &loaded.convention);
    let id = repo.resolve_commit(rev)?;
    let reports = check_commits(&repo, &cwd, &[(id, &loaded.convention, trace)])?;
    let stdout = std::io::stdout();
    let style = Style::new(settings.color, stdout.is_terminal());
    let mut lock = stdout.lock();
    let mut out = Printer::new(&mut lock, settings.format, style);
    for r in &reports {
        out.pushed(r)?;
    }
    let outcome = finish_history(&mut out, &reports, "commits")?;
    out.flush()?;
    Ok(outcome)
}
