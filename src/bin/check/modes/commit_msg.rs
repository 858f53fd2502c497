//! The commit-msg hook (`jitcommit-check FILE`) and `--stdin`: one message, cleaned the
//! way git will clean it, checked against the staged paths of the index git names.
//!
//! A rejected message is copied into the git dir so the user's text survives the failed
//! commit, and the error prints the command that brings it back into the editor.

use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

use jitcommit_core::repo::{Repo, RepoError};

use crate::args::Settings;
use crate::engine::{self, Cleanup};
use crate::error::CheckError;
use crate::modes::{Outcome, local_convention, tracing};
use crate::output::{Printer, Report, Style, line_map};

/// Where a rejected message is kept, relative to the git dir.
pub const REJECTED: &str = "jitcommit/REJECTED_EDITMSG";

/// Checks the message in `file` (commit-msg) or on stdin (`file` = `None`).
pub fn run(settings: &Settings, file: Option<&Path>) -> Result<Outcome, CheckError> {
    let raw = match file {
        Some(path) => std::fs::read(path).map_err(|source| CheckError::File {
            what: "read",
            path: path.to_owned(),
            source,
        })?,
        None => {
            let mut buf = Vec::new();
            std::io::stdin()
                .lock()
                .read_to_end(&mut buf)
                .map_err(CheckError::Stdin)?;
            buf
        }
    };
    let cwd = super::current_dir()?;
    let repo = open_optional(&cwd)?;
    let loaded = local_convention(settings, repo.as_ref())?;
    let conv = &loaded.convention;
    let cleanup = cleanup_for(repo.as_ref());
    let checked = engine::check(&raw, conv, &cleanup, |paths| match &repo {
        Some(r) if tracing(settings, conv) => {
            // Tracing needs HEAD. A client hook never blocks a commit for the tool's own
            // limitation: it checks the rest and says what it could not.
            if let Err(e) = r.refs_readable() {
                let _ = writeln!(
                    std::io::stderr(),
                    "jitcommit-check: bullet paths not traced: {e}; the rest of the message was checked"
                );
                return Ok(None);
            }
            let proved = r.staged_changes_all(paths)?;
            engine::traced_set(paths, proved, || r.staged_changes_for_tracing()).map(Some)
        }
        _ => Ok::<_, RepoError>(None),
    })?;

    // Findings point at the lines the user edited, not at the cleaned text.
    let mut findings = checked.findings;
    let map = line_map(&String::from_utf8_lossy(&raw), &checked.cleaned);
    for f in &mut findings {
        if let Some(&l) = f.line.checked_sub(1).and_then(|i| map.get(i)) {
            f.line = l;
        }
    }
    findings.splice(0..0, checked.raw_findings);
    findings.sort_by_key(|f| (f.line, f.column));
    let report = Report {
        commit: None,
        refname: None,
        subject: None,
        file: Some(file.map_or_else(|| "<stdin>".to_string(), |p| p.display().to_string())),
        exempt: checked.exempt,
        findings,
    };
    let stdout = std::io::stdout();
    let style = Style::new(settings.color, stdout.is_terminal());
    let mut lock = stdout.lock();
    let mut out = Printer::new(&mut lock, settings.format, style);
    out.report(&report)?;
    out.flush()?;
    if report.findings.is_empty() {
        return Ok(Outcome::Clean);
    }
    if let (Some(repo), Some(_)) = (&repo, file) {
        let saved = save_rejected(repo.git_dir(), &raw)?;
        let mut err = std::io::stderr().lock();
        writeln!(
            err,
            "jitcommit-check: commit message rejected; your text is saved in {}\n\
             jitcommit-check: edit it and commit again with: git commit -e -F {}",
            saved.display(),
            shell_quote(&saved.display().to_string())
        )?;
    }
    Ok(Outcome::Findings)
}

/// The repository around `cwd`, or `None` when there is none (then: defaults, no tracing).
fn open_optional(cwd: &Path) -> Result<Option<Repo>, CheckError> {
    match Repo::discover(cwd) {
        Ok(r) => Ok(Some(r)),
        Err(RepoError::Open { .. }) if std::env::var_os("GIT_DIR").is_none() => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// git's cleanup as the hook can know it: `commit.cleanup` from config (the hook cannot
/// see `--cleanup=` on git's command line), else git's default with an editor: strip.
fn cleanup_for(repo: Option<&Repo>) -> Cleanup {
    let Some(repo) = repo else {
        return Cleanup::Strip(engine::prefix(None, None));
    };
    let prefix = engine::prefix(
        repo.config_string("core.commentString").as_deref(),
        repo.config_string("core.commentChar").as_deref(),
    );
    match repo.config_string("commit.cleanup").as_deref() {
        Some("whitespace" | "verbatim" | "scissors") => Cleanup::Whitespace(prefix),
        _ => Cleanup::Strip(prefix),
    }
}

/// Copies the message (up to a scissors line, so `-e -F` does not bring back a `-v` diff)
/// to `<git-dir>/jitcommit/REJECTED_EDITMSG`.
fn save_rejected(git_dir: &Path, raw: &[u8]) -> Result<PathBuf, CheckError> {
    let path = git_dir.join(REJECTED);
    let path = std::path::absolute(&path).unwrap_or(path);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|source| CheckError::File {
            what: "create",
            path: dir.to_owned(),
            source,
        })?;
    }
    std::fs::write(&path, cut_at_scissors(raw)).map_err(|source| CheckError::File {
        what: "write",
        path: path.clone(),
        source,
    })?;
    Ok(path)
}

/// The bytes before git's scissors line (`<comment> ------------------------ >8 ---…`),
/// whatever the comment prefix.
pub fn cut_at_scissors(raw: &[u8]) -> &[u8] {
    const CUT: &[u8] = b" ------------------------ >8 ------------------------";
    let mut start = 0;
    for line in raw.split_inclusive(|b| *b == b'\n') {
        let trimmed = line.strip_suffix(b"\n").unwrap_or(line);
        let trimmed = trimmed.strip_suffix(b"\r").unwrap_or(trimmed);
        if trimmed.len() > CUT.len()
            && trimmed.ends_with(CUT)
            && !trimmed[..trimmed.len() - CUT.len()]
                .iter()
                .any(u8::is_ascii_whitespace)
        {
            return &raw[..start];
        }
        start += line.len();
    }
    raw
}

/// Quotes a path for a POSIX shell when it needs it.
pub fn shell_quote(s: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "/._-+:@,=%".contains(c);
    if !s.is_empty() && s.chars().all(safe) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scissors_cut_for_any_prefix() {
        let m =
            b"feat: x\n\n# c\n# ------------------------ >8 ------------------------\ndiff --git\n";
        assert_eq!(cut_at_scissors(m), b"feat: x\n\n# c\n");
        let m = b"feat: x\n// ------------------------ >8 ------------------------\r\nd\n";
        assert_eq!(cut_at_scissors(m), b"feat: x\n");
        assert_eq!(cut_at_scissors(b"feat: x\n"), b"feat: x\n");
        let m = b"a\n ------------------------ >8 ------------------------\n";
        assert_eq!(cut_at_scissors(m), m);
    }

    #[test]
    fn quoting() {
        assert_eq!(
            shell_quote("/tmp/a/.git/jitcommit/REJECTED_EDITMSG"),
            "/tmp/a/.git/jitcommit/REJECTED_EDITMSG"
        );
        assert_eq!(shell_quote("/tmp/my repo/x"), "'/tmp/my repo/x'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
    }
}
