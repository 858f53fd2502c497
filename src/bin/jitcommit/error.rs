//! Every way a `jitcommit` run fails before it has a verdict: exit 2, with the cause
//! chain on stderr. A failed check is not an error (it is exit 1).

use std::path::PathBuf;

use jitcommit_core::changelog::TagPatternError;
use jitcommit_core::changelog::region::RegionError;
use jitcommit_core::config::ConfigError;
use jitcommit_core::repo::RepoError;

/// A failed run.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad command line.
    #[error("{0}")]
    Usage(String),
    /// lexopt's own errors.
    #[error(transparent)]
    Lexopt(#[from] lexopt::Error),
    /// The convention could not be read.
    #[error("cannot load the commit convention")]
    Config(#[from] ConfigError),
    /// The repository could not be opened or read.
    #[error("cannot read the repository")]
    Repo(#[from] RepoError),
    /// A git operation failed; the message names the object or ref.
    #[error("{0}")]
    Git(String),
    /// Anything else, said in full.
    #[error("{0}")]
    Message(String),
    /// A bad `--tag-pattern`.
    #[error(transparent)]
    TagPattern(#[from] TagPatternError),
    /// A file could not be read or written.
    #[error("cannot {what} {}", path.display())]
    File {
        /// `read`, `write`, …
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// The reason.
        #[source]
        source: std::io::Error,
    },
    /// The generated region's markers are broken.
    #[error("{}: {problem}", path.display())]
    Region {
        /// The file.
        path: PathBuf,
        /// What is wrong (with its line).
        problem: RegionError,
    },
    /// Writing the output failed.
    #[error("cannot write output")]
    Output(#[from] std::io::Error),
}

/// A usage error from text.
pub fn usage(msg: impl Into<String>) -> Error {
    Error::Usage(msg.into())
}

/// A flag's value as text; a usage error naming `flag` when it is not UTF-8.
pub fn text(v: std::ffi::OsString, flag: &str) -> Result<String, Error> {
    v.into_string()
        .map_err(|_| usage(format!("{flag} must be valid UTF-8")))
}
