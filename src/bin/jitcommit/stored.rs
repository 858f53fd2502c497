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

/// `bytes`, the work tree's content of `path`, as `git add` would store them.
fn to_git(repo: &Repo, path: &Path, bytes: Vec<u8>) -> Result<Vec<u8>, Error> {
    let Some(rel) = relative(repo, path) else {
        return Ok(bytes);
    };
    let (mut pipeline, index) = repo
        .gix()
        .filter_pipeline(None)
        .map_err(|e| git_error(path, e))?;
    let mut out = Vec::new();
    pipeline
        .convert_to_git(&bytes[..], &rel, &index)
        .map_err(|e| git_error(path, e))?
        .read_to_end(&mut out)
        .map_err(|e| git_error(path, e))?;
    Ok(out)
}

/// `bytes`, as git stores `path`, as `git checkout` would write them.
fn to_worktree(repo: &Repo, path: &Path, bytes: &[u8]) -> Result<Vec<u8>, Error> {
    let Some(rel) = relative(repo, path) else {
        return Ok(bytes.to_vec());
    };
    let Ok(rel) = gix::path::into_bstr(rel.as_path()).map(|p| p.into_owned()) else {
        return Ok(bytes.to_vec());
    };
    let (mut pipeline, _) = repo
        .gix()
        .filter_pipeline(None)
        .map_err(|e| git_error(path, e))?;
    let mut out = Vec::new();
    pipeline
        .convert_to_worktree(bytes, rel.as_ref(), Default::default())
        .map_err(|e| git_error(path, e))?
        .read_to_end(&mut out)
        .map_err(|e| git_error(path, e))?;
    Ok(out)
}

/// The work tree's `text` of `path` as git stores it. Not UTF-8 after the conversion
/// is an error that names the file.
pub fn read(repo: &Repo, path: &Path, text: String) -> Result<Stored, Error> {
    let bytes = to_git(repo, path, text.into_bytes())?;
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
        to_worktree(repo, path, stored.as_bytes())
    }
}
