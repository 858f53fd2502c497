//! What a staged file's diff is worth to the prompt (docs/design.md §6): its
//! [`FileClass`], by the convention's `context.exclude`, git's `linguist-*`
//! attributes, the secret-file list and the path alone ([`Classifier`],
//! [`classify_path`]). A leaf the fragments, the structure and the offline draft all
//! read; the fragments re-export it.

use globset::{Glob, GlobSet, GlobSetBuilder};

use crate::redact;
use jitcommit_core::repo::FileDiff;

/// What a file's diff is worth per token, best first; the last ones are stat-only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FileClass {
    /// Program source.
    Source,
    /// Tests.
    Test,
    /// Documentation.
    Docs,
    /// Configuration and build files.
    Config,
    /// Lock files (stat only).
    Lock,
    /// Generated output (stat only).
    Generated,
    /// Vendored third-party code (stat only).
    Vendored,
    /// Binary files and submodule pointers (stat only).
    Binary,
    /// Matched the convention's `context.exclude` (stat only).
    Excluded,
    /// Key and environment files: contents never shown (stat only).
    Secret,
}

impl FileClass {
    /// Stat line only, never hunks.
    pub fn stat_only(self) -> bool {
        self >= FileClass::Lock
    }

    /// The priority of the file's hunks in the budget, best highest (0: stat only).
    pub(crate) fn rank(self) -> u32 {
        match self {
            FileClass::Source => 500,
            FileClass::Test => 400,
            FileClass::Docs => 300,
            FileClass::Config => 290,
            _ => 0,
        }
    }

    /// The class as the prompt's stat line names it.
    pub(crate) fn word(self) -> &'static str {
        match self {
            FileClass::Source => "source",
            FileClass::Test => "test",
            FileClass::Docs => "docs",
            FileClass::Config => "config",
            FileClass::Lock => "lock file",
            FileClass::Generated => "generated file",
            FileClass::Vendored => "vendored file",
            FileClass::Binary => "binary",
            FileClass::Excluded => "excluded by context.exclude",
            FileClass::Secret => "may hold secrets",
        }
    }
}

/// Classifies staged files; built once per run from the convention's excludes.
#[derive(Debug, Clone)]
pub struct Classifier {
    exclude: GlobSet,
}

impl Classifier {
    /// Compiles `context.exclude`; a bad glob is ignored here (the config reader
    /// rejects it with its file and line before we get here).
    pub fn new(exclude: &[String]) -> Self {
        let mut b = GlobSetBuilder::new();
        for g in exclude {
            if let Ok(g) = Glob::new(g) {
                b.add(g);
            }
        }
        Classifier {
            exclude: b.build().unwrap_or_else(|_| GlobSet::empty()),
        }
    }

    /// What a file is worth to the prompt.
    pub fn classify(&self, f: &FileDiff) -> FileClass {
        self.classify_by(&f.change.path, f.binary || f.submodule, f.linguist)
    }

    /// [`Classifier::classify`] for a file of the gated change.
    pub fn classify_gated(&self, f: redact::GatedFile<'_>) -> FileClass {
        self.classify_by(&f.change().path, f.binary() || f.submodule(), f.linguist())
    }

    fn classify_by(
        &self,
        path: &[u8],
        binary: bool,
        linguist: Option<jitcommit_core::repo::Linguist>,
    ) -> FileClass {
        let path = String::from_utf8_lossy(path).into_owned();
        if redact::is_secret_file(&path) {
            return FileClass::Secret;
        }
        if binary {
            return FileClass::Binary;
        }
        if self.exclude.is_match(&path) {
            return FileClass::Excluded;
        }
        match linguist {
            Some(jitcommit_core::repo::Linguist::Generated) => FileClass::Generated,
            Some(jitcommit_core::repo::Linguist::Vendored) => FileClass::Vendored,
            None => classify_path(&path),
        }
    }
}

/// Classification by path alone, from [`jitcommit_core::paths::path_facts`]: what no budget
/// should spend hunks on first (lock, vendored, generated), then tests, docs, and
/// config, which takes CI and build files (shown after the source they build).
pub fn classify_path(path: &str) -> FileClass {
    let p = jitcommit_core::paths::path_facts(path);
    if p.lock {
        FileClass::Lock
    } else if p.vendored {
        FileClass::Vendored
    } else if p.generated {
        FileClass::Generated
    } else if p.test {
        FileClass::Test
    } else if p.docs {
        FileClass::Docs
    } else if p.config || p.build || p.ci {
        FileClass::Config
    } else {
        FileClass::Source
    }
}
