//! The errors of reading a convention: each names the file, and where the file's text
//! is at fault, the line, the column and the dotted key.

use std::path::{Path, PathBuf};

/// A place in a config file, shown as `path:line:column` (1-based; the column counts
/// characters).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// The config file.
    pub path: PathBuf,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.path.display(), self.line, self.column)
    }
}

/// Why a convention could not be read. A broken config is always an error, never a
/// silent fallback to the defaults.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// The file exists (or was named) but could not be read.
    #[error("{}: cannot read: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What the OS said.
        #[source]
        source: std::io::Error,
    },
    /// The file is not UTF-8 text.
    #[error("{at}: not UTF-8 text (a config file must be UTF-8)")]
    NotUtf8 {
        /// The first byte that is not UTF-8.
        at: Location,
    },
    /// The file is not valid TOML.
    #[error("{at}: invalid TOML: {message}")]
    Syntax {
        /// Where the parser stopped.
        at: Location,
        /// The parser's message.
        message: String,
    },
    /// A key or value the convention does not accept: an unknown key (serde's
    /// `deny_unknown_fields`), a wrong type, an unknown choice, or a value check.
    #[error("{at}: {key}: {message}")]
    Invalid {
        /// The key's or value's position.
        at: Location,
        /// The dotted key, e.g. `tool.commit-convention.types`.
        key: String,
        /// What is wrong and what is accepted.
        message: String,
    },
    /// A file given with `--config` that has no convention table.
    #[error("{}: no {tables} table", path.display())]
    MissingTable {
        /// The file.
        path: PathBuf,
        /// The tables looked for, e.g. `[tool.commit-convention]`.
        tables: String,
    },
}

impl ConfigError {
    /// The file the error concerns.
    pub fn path(&self) -> &Path {
        match self {
            ConfigError::Read { path, .. } | ConfigError::MissingTable { path, .. } => path,
            ConfigError::NotUtf8 { at }
            | ConfigError::Syntax { at, .. }
            | ConfigError::Invalid { at, .. } => &at.path,
        }
    }

    /// The position in the file, when the file's text is at fault.
    pub fn location(&self) -> Option<&Location> {
        match self {
            ConfigError::Read { .. } | ConfigError::MissingTable { .. } => None,
            ConfigError::NotUtf8 { at }
            | ConfigError::Syntax { at, .. }
            | ConfigError::Invalid { at, .. } => Some(at),
        }
    }

    /// The dotted key at fault, when one is.
    pub fn key(&self) -> Option<&str> {
        match self {
            ConfigError::Invalid { key, .. } => Some(key),
            _ => None,
        }
    }
}
