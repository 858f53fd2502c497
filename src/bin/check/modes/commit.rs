//! `--commit REV`: one existing commit's stored message, traced against that commit's
//! own diff to its first parent (what `--stdin` cannot do: it traces against what is
//! staged now). The convention comes from the work tree (or `--config`), and the output
//! is that of `--range`.

use crate::args::Settings;
use crate::error::CheckError;
use crate::modes::Outcome;

/// Checks the commit `rev` names.
pub fn run(settings: &Settings, rev: &str) -> Result<Outcome, CheckError> {
    super::range::run_ids(settings, |repo| {
        let id = repo.resolve_commit(rev)?;
        // The walk that lists it alone: from it, hiding its parents.
        Ok(super::range::Selection {
            ids: vec![id],
            tips: vec![id],
            hidden: repo.parent_ids(id)?,
        })
    })
}
