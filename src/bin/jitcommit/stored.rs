//! A work-tree file the way git stores it, and back: `changelog --check` compares and
//! `--write` splices the text a commit would hold, whatever the checkout's line endings
//! (`core.autocrlf`, `core.eol`, `.gitattributes` `text`/`eol`), by gix's filter
//! pipeline, the conversion `git add` and `git checkout` make. A file stored with CRLF
//! is read as LF lines and written back with CRLF on every line, never mixed.

use std::io::Read as _;
use std::path::{Path, PathBuf};

use jitcommit_core::repo::Repo;

use crate::error::Error;

/// A file's text as lines ending in `\n`, and how to write it back.
pub struct Stored {
    /// The text as git stores it, CRLF read as LF.
    pub text: String,
    /// Git stores the file with CRLF line endings.
    crlf: bool,
}

/// `path` relative to the work tree, when it lies in one.
fn relative(repo: &Repo, path: &Path) -> Option<PathBuf> {
    let root = repo.work_dir()?.canonicalize().ok()?;
    let abs = std::path::absolute(path).ok()?;
    let dir = abs.parent()?.canonicalize().ok()?;
    let rel = dir
        .join(abs.file_name()?)
        .strip_prefix(&root)
        .ok()?
        .to_owned();
    Some(rel)
}

fn git_error(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::Git(format!(
        "{}: cannot convert its line endings: {e}",
        path.display()
    ))
}

/// Which way [`convert`] goes.
#[derive(Clone, Copy)]
enum Way {
    /// The work tree's content as `git add` would store it.
    ToGit,
    /// The stored content as `git checkout` would write it.
    ToWorktree,
}

/// `bytes` of `path` converted `way` by the filters git would apply there; unchanged
/// for a path outside the work tree.
fn convert(repo: &Repo, path: &Path, bytes: &[u8], way: Way) -> Result<Vec<u8>, Error> {
    let Some(rel) = relative(repo, path) else {
        return Ok(bytes.to_vec());
    };
    let (mut pipeline, index) = repo
        .gix()
        .filter_pipeline(None)
        .map_err(|e| git_error(path, e))?;
    let mut out = Vec::new();
    let read = match way {
        Way::ToGit => pipeline
            .convert_to_git(bytes, &rel, &index)
            .map_err(|e| git_error(path, e))?
            .read_to_end(&mut out),
        Way::ToWorktree => {
            let Ok(rel) = gix::path::into_bstr(rel.as_path()).map(|p| p.into_owned()) else {
                return Ok(bytes.to_vec());
            };
            pipeline
                .convert_to_worktree(bytes, rel.as_ref(), Default::default())
                .map_err(|e| git_error(path, e))?
                .read_to_end(&mut out)
        }
    };
    read.map_err(|e| git_error(path, e))?;
    Ok(out)
}

/// The work tree's `text` of `path` as git stores it. Not UTF-8 after the conversion
/// is an error that names the file.
pub fn read(repo: &Repo, path: &Path, text: String) -> Result<Stored, Error> {
    let bytes = convert(repo, path, text.as_bytes(), Way::ToGit)?;
    let text = String::from_utf8(bytes).map_err(|_| Error::File {
        what: "read (not UTF-8)",
        path: path.to_owned(),
        source: std::io::Error::from(std::io::ErrorKind::InvalidData),
    })?;
    let crlf = text.contains("\r\n");
    let text = if crlf {
        text.replace("\r\n", "\n")
    } else {
        text
    };
    Ok(Stored { text, crlf })
}

/// A new file `path` (no earlier text): stored with LF.
pub fn new_file() -> Stored {
    Stored {
        text: String::new(),
        crlf: false,
    }
}

impl Stored {
    /// `text` (lines ending in `\n`) as the work tree holds it: CRLF on every line when
    /// git stores the file so, then what checkout makes of it.
    pub fn worktree_bytes(&self, repo: &Repo, path: &Path, text: &str) -> Result<Vec<u8>, Error> {
        let stored = if self.crlf {
            text.replace("\r\n", "\n").replace('\n', "\r\n")
        } else {
            text.to_owned()
        };
        convert(repo, path, stored.as_bytes(), Way::ToWorktree)
    }
}
