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
    /// A key the convention does not know (a typo, most often).
    #[error(
        "{at}: unknown key \"{name}\" in {table} (known: {known})",
        table = table_of(key, name),
        known = known.join(", ")
    )]
    UnknownKey {
        /// The key's position.
        at: Location,
        /// The dotted key, e.g. `tool.commit-convention.type`.
        key: String,
        /// The key's last segment as written.
        name: String,
        /// The keys its table accepts.
        known: &'static [&'static str],
    },
    /// A value of the wrong TOML type.
    #[error("{at}: {key}: expected {expected}, found {found}")]
    WrongType {
        /// The value's position.
        at: Location,
        /// The dotted key.
        key: String,
        /// The type the key takes.
        expected: &'static str,
        /// The type found.
        found: &'static str,
    },
    /// A list that must have entries (types, verbs) is empty.
    #[error("{at}: {key}: the list must not be empty")]
    EmptyList {
        /// The list's position.
        at: Location,
        /// The dotted key.
        key: String,
    },
    /// A list holds the same entry twice.
    #[error("{at}: {key}: duplicate entry {value:?}")]
    Duplicate {
        /// The second occurrence's position.
        at: Location,
        /// The dotted key.
        key: String,
        /// The repeated entry.
        value: String,
    },
    /// A value of the right type that the key does not accept.
    #[error("{at}: {key}: invalid value {value:?}: {reason}")]
    InvalidValue {
        /// The value's position.
        at: Location,
        /// The dotted key.
        key: String,
        /// The value as written.
        value: String,
        /// What is accepted.
        reason: String,
    },
    /// A glob in `context.exclude` that does not compile.
    #[error("{at}: {key}: invalid glob {glob:?}: {message}")]
    BadGlob {
        /// The glob's position.
        at: Location,
        /// The dotted key.
        key: String,
        /// The glob.
        glob: String,
        /// globset's message.
        message: String,
    },
    /// `reserve-output-tokens` leaves no room for the prompt.
    #[error(
        "{at}: {key}: reserve-output-tokens ({reserve}) must be less than budget-tokens ({budget})"
    )]
    ReserveNotBelowBudget {
        /// The position of the value that was set (the reserve, or else the budget).
        at: Location,
        /// The dotted key of that value.
        key: String,
        /// The reserve.
        reserve: usize,
        /// The budget.
        budget: usize,
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

/// `[tool.commit-convention]` for the key `tool.commit-convention.<name>`, or "the top
/// level" for a key of a whole-file table.
fn table_of(key: &str, name: &str) -> String {
    match key.strip_suffix(name).and_then(|t| t.strip_suffix('.')) {
        Some(table) if !table.is_empty() => format!("[{table}]"),
        _ => "the top level".to_owned(),
    }
}

impl ConfigError {
    /// The file the error concerns.
    pub fn path(&self) -> &Path {
        match self {
            ConfigError::Read { path, .. } | ConfigError::MissingTable { path, .. } => path,
            ConfigError::NotUtf8 { at }
            | ConfigError::Syntax { at, .. }
            | ConfigError::UnknownKey { at, .. }
            | ConfigError::WrongType { at, .. }
            | ConfigError::EmptyList { at, .. }
            | ConfigError::Duplicate { at, .. }
            | ConfigError::InvalidValue { at, .. }
            | ConfigError::BadGlob { at, .. }
            | ConfigError::ReserveNotBelowBudget { at, .. } => &at.path,
        }
    }

    /// The position in the file, when the file's text is at fault.
    pub fn location(&self) -> Option<&Location> {
        match self {
            ConfigError::Read { .. } | ConfigError::MissingTable { .. } => None,
            ConfigError::NotUtf8 { at }
            | ConfigError::Syntax { at, .. }
            | ConfigError::UnknownKey { at, .. }
            | ConfigError::WrongType { at, .. }
            | ConfigError::EmptyList { at, .. }
            | ConfigError::Duplicate { at, .. }
            | ConfigError::InvalidValue { at, .. }
            | ConfigError::BadGlob { at, .. }
            | ConfigError::ReserveNotBelowBudget { at, .. } => Some(at),
        }
    }

    /// The dotted key at fault, when one is.
    pub fn key(&self) -> Option<&str> {
        match self {
            ConfigError::UnknownKey { key, .. }
            | ConfigError::WrongType { key, .. }
            | ConfigError::EmptyList { key, .. }
            | ConfigError::Duplicate { key, .. }
            | ConfigError::InvalidValue { key, .. }
            | ConfigError::BadGlob { key, .. }
            | ConfigError::ReserveNotBelowBudget { key, .. } => Some(key),
            _ => None,
        }
    }
}
