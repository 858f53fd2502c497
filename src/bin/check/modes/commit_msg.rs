//! The commit-msg hook (`jitcommit-check FILE`) and `--stdin`: one message, cleaned the
//! way git will clean it, checked against the paths the commit changes: HEAD → the index
//! git names, or HEAD's first parent → the index for an amend (which replaces HEAD).
//!
//! A rejected message — by the rules, or because the convention itself is broken — is
//! saved in the git dir as git would store it, so the user's text survives the failed
//! commit, and the error prints the command that brings it back into the editor: an
//! amend for an amend (and `git rebase --continue` after it when a rebase made the
//! commit). A file checked by hand is never saved (docs/check.md).

use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

use jitcommit_core::config::{Convention, Loaded, Origin};
use jitcommit_core::gitenv::{self, CleanupMode, MessageCleanup};
use jitcommit_core::invocation::{self, CommitArgs};
use jitcommit_core::repo::{Change, Repo, RepoError};
use jitcommit_core::rules::{self, ChangedPaths, Cleanup};
use jitcommit_core::term::printable;

use crate::args::Settings;
use crate::engine;
use crate::error::CheckError;
use crate::modes::{Outcome, local_convention, tracing};
use crate::output::{Printer, Report, Style, line_map};

/// Where the newest rejected message is kept, relative to the git dir; older ones are
/// `REJECTED_EDITMSG.1` (the one before) up to `.{KEPT_REJECTED}`.
pub const REJECTED: &str = "jitcommit/REJECTED_EDITMSG";

/// How many earlier rejected messages are kept beside the newest.
const KEPT_REJECTED: usize = 4;

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
    // The git command that runs the hook, when it can be read: it says what git will
    // store (`--cleanup`, `-v`, an editor or not) and whether this is an amend.
    let commit = match (&repo, file) {
        (Some(r), Some(_)) => {
            invocation::git_commit_args(&|name| r.config_string(&format!("alias.{name}")))
        }
        _ => None,
    };
    let cleanup = cleanup_for(repo.as_ref(), commit.as_ref(), file.is_some());
    // Only the message of a commit git is making is saved: a file checked by hand is
    // the user's own copy, and must not replace a rejected message waiting for reuse.
    let saver = match (&repo, file) {
        (Some(r), Some(f)) if is_commit_in_progress(r, f) => {
            let amend = commit.as_ref().is_some_and(|c| c.amend);
            Some(Saver {
                git_dir: r.git_dir(),
                text: clean_for_saving(&raw, &cleanup),
                amend,
                rebase: amend && run_by_rebase(r),
            })
        }
        _ => None,
    };
    let loaded = match local_convention(settings, repo.as_ref(), &[]) {
        Ok(l) => l,
        Err(e) => {
            // The convention is broken: the commit cannot be checked, but the user's
            // words must not be lost with it.
            if let Some(saver) = &saver {
                crate::report_error(&e);
                saver.save_and_tell("the commit convention could not be read");
                return Err(CheckError::Reported);
            }
            return Err(e);
        }
    };
    let conv = &loaded.convention;
    let amend = commit.as_ref().is_some_and(|c| c.amend);
    // The paths the commit changes, as tracing sees them (renames as a deletion and an
    // addition): computed once, for the store's check and for tracing.
    let computed = std::cell::OnceCell::new();
    let changes = |r: &Repo| -> Result<Vec<Change>, RepoError> {
        if let Some(c) = computed.get() {
            return Ok(Vec::clone(c));
        }
        let c = if amend {
            r.amend_changes_for_tracing()?
        } else {
            r.staged_changes_for_tracing()?
        };
        Ok(computed.get_or_init(|| c).clone())
    };
    // A broken fact store never lands: the staged one is checked with the message when
    // the commit can change its verdict (docs/facts.md), so a store that was already
    // broken never blocks an unrelated commit.
    let store_broken = match &repo {
        Some(r) if has_store(r, conv) && store_affected(r, &loaded, amend) => {
            let staged = r.read_staged(jitcommit_core::facts::FILE)?;
            super::store_broken("the staged fact store", staged, conv, || r.index_paths())?
        }
        _ => false,
    };
    let trace = |paths: &[String]| match &repo {
        Some(r) if tracing(settings, conv) => {
            // Tracing needs HEAD. A client hook never blocks a commit for the tool's own
            // limitation: it checks the rest and says what it could not.
            if let Err(e) = r.refs_readable() {
                let _ = writeln!(
                    crate::output::stderr(),
                    "jitcommit-check: bullet paths not traced: {e}; the rest of the message was checked"
                );
                return Ok(None);
            }
            if amend {
                return Ok(Some(ChangedPaths::new(&changes(r)?)));
            }
            // Coverage needs every changed path with its status: no probe then.
            let proved = !conv.coverage && r.staged_changes_all(paths)?;
            rules::traced_set(paths, proved, || changes(r)).map(Some)
        }
        _ => Ok::<_, RepoError>(None),
    };
    let checked = rules::check_message(&raw, conv, &cleanup, rules::exemption, trace)?;

    // Findings point at the lines the user edited, not at the cleaned text.
    let (cleaned, exempt, mut findings) = engine::printable(checked);
    let map = line_map(&String::from_utf8_lossy(&raw), &cleaned);
    for f in &mut findings {
        if let Some(&l) = f.line.checked_sub(1).and_then(|i| map.get(i)) {
            f.line = l;
        }
    }
    findings.sort_by_key(|f| (f.line, f.column));
    let report = Report {
        commit: None,
        refname: None,
        subject: None,
        file: Some(file.map_or_else(|| "<stdin>".to_string(), |p| p.display().to_string())),
        exempt,
        findings,
    };
    let stdout = std::io::stdout();
    let style = Style::new(settings.color, stdout.is_terminal());
    let mut lock = stdout.lock();
    let mut out = Printer::new(&mut lock, settings.format, style);
    out.report(&report);
    out.flush();
    if report.findings.is_empty() && !store_broken {
        // The commit goes through with this text: a message rejected before it is no
        // longer waiting for reuse, and the next rejection must not point at it.
        if let Some(saver) = &saver {
            saver.forget();
        }
        return Ok(Outcome::Clean);
    }
    if let Some(saver) = &saver {
        saver.save_and_tell(if report.findings.is_empty() {
            "the staged fact store is broken"
        } else {
            "commit message rejected"
        });
    }
    Ok(Outcome::Findings)
}

/// Whether the repository keeps a fact store: [`FILE`](jitcommit_core::facts::FILE) in
/// the work tree, or a `facts` table in the convention.
fn has_store(r: &Repo, conv: &Convention) -> bool {
    !conv.facts.is_empty()
        || r.work_dir()
            .is_some_and(|d| d.join(jitcommit_core::facts::FILE).exists())
}

/// Whether the commit can change the store's verdict: it changes the store (the file,
/// or the convention file that holds the `facts` table), or removes a path one of its
/// globs matches. Asked on every commit, so the two files are looked up in the index
/// and the base tree, and the removals are computed only for a store with globs (the
/// index's cache tree skips the directories the commit does not touch). When the
/// changes cannot be computed, the store is checked, as before this rule.
fn store_affected(r: &Repo, loaded: &Loaded, amend: bool) -> bool {
    use jitcommit_core::facts;
    let convention_file = match (&loaded.origin, r.work_dir()) {
        (Origin::File { path, .. }, Some(root)) => path
            .strip_prefix(root)
            .ok()
            .map(|p| p.to_string_lossy().replace('\\', "/")),
        _ => None,
    };
    let mut paths = vec![facts::FILE.to_owned()];
    paths.extend(convention_file.clone());
    let Ok(Some(changed)) = r.staged_changes_at(&paths, amend) else {
        return true;
    };
    let store = || {
        let bytes = r.read_staged(facts::FILE).ok().flatten();
        let parsed = bytes
            .map(|b| facts::parse(facts::FILE, &b).0)
            .unwrap_or_default();
        parsed
            .merge(facts::Store::from_table(&loaded.convention.facts))
            .0
    };
    if facts::commit_affects(&changed, convention_file.as_deref(), facts::Store::default) {
        return true;
    }
    // Only a removal a glob matches is left, and only a store with globs has one.
    let store = store();
    if !store.facts.iter().any(|f| f.glob().is_some()) {
        return false;
    }
    let Ok(Some(removed)) = r.staged_removals(amend) else {
        return true;
    };
    facts::commit_affects(&removed, None, || store)
}

/// The repository around `cwd`, or `None` when there is none (then: defaults, no tracing).
fn open_optional(cwd: &Path) -> Result<Option<Repo>, CheckError> {
    match Repo::discover(cwd) {
        Ok(r) => Ok(Some(r)),
        Err(RepoError::Open { .. }) if std::env::var_os("GIT_DIR").is_none() => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// git's cleanup as the hook can know it. The mode is `--cleanup=` from the git command
/// line when it can be read, else `commit.cleanup`, else git's default: strip when an
/// editor runs, whitespace when none does (`-m`, `-F`, `--no-edit`: git then exports
/// `GIT_EDITOR=:`). The text is cut at the scissors line with `-v` (`commit.verbose`);
/// when the command line cannot be read, a scissors line in the file is taken to be
/// git's, as `-v` writes it.
fn cleanup_for(repo: Option<&Repo>, commit: Option<&CommitArgs>, hook: bool) -> Cleanup {
    let Some(repo) = repo else {
        return Cleanup::Hook(MessageCleanup {
            mode: CleanupMode::Strip,
            verbose: true,
            prefix: gitenv::comment_prefix(None, None),
        });
    };
    let prefix = gitenv::comment_prefix(
        repo.config_string("core.commentString").as_deref(),
        repo.config_string("core.commentChar").as_deref(),
    );
    let editor = match commit {
        Some(c) => c.editor,
        None if hook => std::env::var_os("GIT_EDITOR").is_none_or(|e| e != ":"),
        None => true,
    };
    let setting = commit
        .and_then(|c| c.cleanup.clone())
        .or_else(|| repo.config_string("commit.cleanup"));
    let verbose = match commit {
        Some(c) => c
            .verbose
            .unwrap_or_else(|| repo.config_bool("commit.verbose").unwrap_or(false)),
        None => true,
    };
    Cleanup::Hook(MessageCleanup {
        mode: CleanupMode::from_setting(setting.as_deref(), editor),
        verbose,
        prefix,
    })
}

/// The text to save for `git commit -e -F` / `-F`: what git would store (no comment
/// block, no `-v` diff); in whitespace mode, where comments stay, cut at the scissors
/// line all the same, so a diff never comes back as message text.
fn clean_for_saving(raw: &[u8], cleanup: &Cleanup) -> Vec<u8> {
    match cleanup {
        Cleanup::Hook(how) => MessageCleanup {
            verbose: true,
            ..how.clone()
        }
        .apply(raw),
        Cleanup::Stored | Cleanup::Verbatim => raw.to_vec(),
    }
}

/// Whether `file` is the message of a commit git is making now: git runs commit-msg
/// with its own message file in the git dir (`COMMIT_EDITMSG`; `MERGE_MSG` for `git
/// merge`), and exports `GIT_INDEX_FILE` to the hook (through pre-commit, husky and
/// lefthook alike). Anything else is a file checked by hand.
fn is_commit_in_progress(repo: &Repo, file: &Path) -> bool {
    if std::env::var_os("GIT_INDEX_FILE").is_none() {
        return false;
    }
    let (Ok(file), Ok(git_dir)) = (
        std::fs::canonicalize(file),
        std::fs::canonicalize(repo.git_dir()),
    ) else {
        return false;
    };
    let name = file.file_name().and_then(|n| n.to_str());
    file.parent() == Some(git_dir.as_path()) && matches!(name, Some("COMMIT_EDITMSG" | "MERGE_MSG"))
}

/// Whether a rebase made this commit (a `reword`, a `squash`): git names it in
/// `GIT_REFLOG_ACTION` and keeps its state in the git dir. The rebase stops when the
/// hook rejects the message; the amend that reuses it lets the rebase continue.
fn run_by_rebase(repo: &Repo) -> bool {
    std::env::var("GIT_REFLOG_ACTION").is_ok_and(|a| a.starts_with("rebase"))
        && ["rebase-merge", "rebase-apply"]
            .iter()
            .any(|d| repo.git_dir().join(d).is_dir())
}

/// Saves a rejected message and tells the user how to get it back.
struct Saver<'a> {
    git_dir: &'a Path,
    text: Vec<u8>,
    /// The rejected commit was an amend (`git commit --amend`, a rebase's `reword`):
    /// the reuse must amend too, or it makes a new commit (or has nothing to commit).
    amend: bool,
    /// A rebase made the commit and stopped: it goes on after the amend.
    rebase: bool,
}

impl Saver<'_> {
    /// Removes the rejected message waiting for reuse: its commit was accepted with
    /// this text. The older ones stay on disk; the next rejection names none of them.
    fn forget(&self) {
        let _ = std::fs::remove_file(self.git_dir.join(REJECTED));
    }

    /// Saves the text (keeping the earlier ones) and prints where it went and the
    /// command that reuses it. A failure to save is said, never fatal: the verdict stands.
    fn save_and_tell(&self, why: &str) {
        let mut err = crate::output::stderr();
        if self.text.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        match save_rejected(self.git_dir, &self.text) {
            Ok((saved, older)) => {
                let shown = printable(&shell_quote(&saved.display().to_string())).into_owned();
                let (again, amend) = if self.amend {
                    ("amend again", "--amend ")
                } else {
                    ("commit again", "")
                };
                let then = if self.rebase {
                    ", then: git rebase --continue"
                } else {
                    ""
                };
                let _ = writeln!(
                    err,
                    "jitcommit-check: {why}; your text is saved in {}\n\
                     jitcommit-check: edit it and {again} with: git commit {amend}-e -F {shown}{then}",
                    printable(&saved.display().to_string())
                );
                if let Some(older) = older {
                    let _ = writeln!(
                        err,
                        "jitcommit-check: the message rejected before it is in {}",
                        printable(&older.display().to_string())
                    );
                }
            }
            Err(e) => {
                let _ = writeln!(
                    err,
                    "jitcommit-check: could not save your message: {}",
                    printable(&e.to_string())
                );
            }
        }
    }
}

/// Writes `text` to `<git-dir>/jitcommit/REJECTED_EDITMSG`. The one saved before moves
/// to `.1` (and `.1` to `.2`, …, up to [`KEPT_REJECTED`]) unless it holds the same text,
/// so a second rejection (a failed reword, then a failed `git commit --amend`) never
/// destroys the first. Returns the path written and the previous message's, if kept.
fn save_rejected(git_dir: &Path, text: &[u8]) -> Result<(PathBuf, Option<PathBuf>), CheckError> {
    let path = git_dir.join(REJECTED);
    let path = std::path::absolute(&path).unwrap_or(path);
    let numbered = |n: usize| {
        let mut p = path.clone().into_os_string();
        p.push(format!(".{n}"));
        PathBuf::from(p)
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|source| CheckError::File {
            what: "create",
            path: dir.to_owned(),
            source,
        })?;
    }
    let previous = std::fs::read(&path).ok();
    let older = match previous {
        Some(p) if p != text => {
            for n in (1..KEPT_REJECTED).rev() {
                let _ = std::fs::rename(numbered(n), numbered(n + 1));
            }
            std::fs::rename(&path, numbered(1)).map_err(|source| CheckError::File {
                what: "keep",
                path: path.clone(),
                source,
            })?;
            Some(numbered(1))
        }
        _ => None,
    };
    std::fs::write(&path, text).map_err(|source| CheckError::File {
        what: "write",
        path: path.clone(),
        source,
    })?;
    Ok((path, older))
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
    fn rejected_messages_are_kept_newest_first() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (p, older) = save_rejected(dir.path(), b"first\n").expect("save");
        assert_eq!(older, None);
        let (_, older) = save_rejected(dir.path(), b"first\n").expect("save");
        assert_eq!(older, None, "the same text twice is kept once");
        for n in 2..=7 {
            let (_, older) =
                save_rejected(dir.path(), format!("msg {n}\n").as_bytes()).expect("save");
            assert!(older.is_some());
        }
        let read = |suffix: &str| {
            std::fs::read_to_string(format!("{}{suffix}", p.display())).unwrap_or_default()
        };
        assert_eq!(read(""), "msg 7\n");
        assert_eq!(read(".1"), "msg 6\n");
        assert_eq!(read(".4"), "msg 3\n");
        assert_eq!(read(".5"), "", "at most four older ones");
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
