//! The informational flags: `--dump-config`, `--list-rules`, `--explain RULE`,
//! `--help`, `--version`. They check nothing and exit 0 (2 for an unknown rule).

use std::io::Write;

use jitcommit_core::repo::{Repo, RepoError};

use crate::args::{Format, HELP, Settings};
use crate::engine;
use crate::error::CheckError;
use crate::modes::{Outcome, local_convention};

/// `--dump-config`: the effective convention (as a `.commit-convention.toml`) and its origin.
pub fn dump_config(settings: &Settings) -> Result<Outcome, CheckError> {
    let cwd = super::current_dir()?;
    let repo = match Repo::discover(&cwd) {
        Ok(r) => Some(r),
        Err(RepoError::Open { .. }) => None,
        Err(e) => return Err(e.into()),
    };
    let loaded = local_convention(settings, repo.as_ref(), &[])?;
    let conv = &loaded.convention;
    // What no file key says: the fitted convention's refusal of a prose body.
    let prose = if !conv.body_prose && conv.body == jitcommit_core::config::BodyPolicy::Optional {
        "# a body with no bullet must not be prose: the history fitted to has no such body\n"
    } else {
        ""
    };
    let header = format!(
        "# effective commit convention, from: {}\n{prose}",
        loaded.origin
    );
    let mut out = std::io::stdout().lock();
    match settings.format {
        // The CI formats annotate findings; a dumped convention is for people.
        Format::Human | Format::Gitlab | Format::Rdjsonl => {
            out.write_all(header.as_bytes())?;
            out.write_all(conv.to_toml().as_bytes())?;
        }
        // In a GitHub log the repository's values (scopes, a path) stay data.
        Format::Github => {
            let text = format!("{header}{}", conv.to_toml());
            for line in text.lines() {
                writeln!(out, "{}", crate::output::github_inert(line))?;
            }
        }
        Format::Json => {
            let v = serde_json::json!({
                "origin": loaded.origin.to_string(),
                "convention": loaded.convention,
            });
            writeln!(out, "{v}")?;
        }
    }
    out.flush()?;
    Ok(Outcome::Clean)
}

/// `--list-rules`: every rule id and its summary.
pub fn list_rules() -> Result<Outcome, CheckError> {
    let mut out = std::io::stdout().lock();
    let rules = engine::rules_list();
    let width = rules.iter().map(|(id, _)| id.len()).max().unwrap_or(0);
    for (id, summary) in rules {
        writeln!(out, "{id:width$}  {summary}")?;
    }
    out.flush()?;
    Ok(Outcome::Clean)
}

/// `--explain RULE`: what the rule checks, why, and an example.
pub fn explain(rule: &str) -> Result<Outcome, CheckError> {
    let text = engine::explain(rule).ok_or_else(|| CheckError::UnknownRule(rule.into()))?;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    if !text.ends_with('\n') {
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(Outcome::Clean)
}

/// `--help`.
pub fn help() -> Result<Outcome, CheckError> {
    let mut out = std::io::stdout().lock();
    out.write_all(HELP.as_bytes())?;
    out.flush()?;
    Ok(Outcome::Clean)
}

/// `--version`.
pub fn version() -> Result<Outcome, CheckError> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "jitcommit-check {}", env!("CARGO_PKG_VERSION"))?;
    out.flush()?;
    Ok(Outcome::Clean)
}
