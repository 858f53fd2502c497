//! The binary's error type: every way a run can fail before it has a verdict. All of
//! them exit 2 with the cause chain on stderr; findings are never errors.

use std::path::PathBuf;

use jitcommit_core::config::ConfigError;
use jitcommit_core::repo::RepoError;

use crate::args::UsageError;

/// A failed run.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// Bad command line.
    #[error(transparent)]
    Usage(#[from] UsageError),
    /// The convention could not be read.
    #[error("cannot load the commit convention")]
    Config(#[from] ConfigError),
    /// The repository could not be read.
    #[error("cannot read the repository")]
    Repo(#[from] RepoError),
    /// A file could not be read or written.
    #[error("cannot {what} {path}")]
    File {
        /// `read`, `write`, …
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// The reason.
        #[source]
        source: std::io::Error,
    },
    /// stdin could not be read.
    #[error("cannot read standard input")]
    Stdin(#[source] std::io::Error),
    /// A pre-receive line that is not `<old> <new> <ref>`.
    #[error("stdin line {line}: {problem} (expected `<old-id> <new-id> <ref>`): {text:?}")]
    PushLine {
        /// 1-based line number.
        line: usize,
        /// What is wrong with it.
        problem: &'static str,
        /// The line as read.
        text: String,
    },
    /// An `--update` argument that is not an object id.
    #[error("--update: {what} {value:?} is not an object id")]
    UpdateId {
        /// `OLD` or `NEW`.
        what: &'static str,
        /// What was given.
        value: String,
    },
    /// `--explain` of an unknown rule.
    #[error("unknown rule {0:?} (see --list-rules)")]
    UnknownRule(String),
    /// The error was already printed, with what the user can do about it.
    #[error("(reported above)")]
    Reported,
    /// Writing the output failed (other than a closed pipe).
    #[error("cannot write output")]
    Output(#[source] std::io::Error),
}

impl From<std::io::Error> for CheckError {
    fn from(e: std::io::Error) -> Self {
        CheckError::Output(e)
    }
}
