//! The repository's commit convention as data: its types (every feature reads them,
//! the changelog's [`Others`] included), discovery, strict parsing and defaults.
//!
//! A leaf: it reads no feature module. A value a feature keeps in the convention (a
//! fact, the changelog's tag pattern) is checked by that feature's own `Checks`,
//! which the reader runs where it reads the value, so an error still names the file,
//! key, line and column. The public loaders that pass them in are
//! `crate::convention`'s.

use std::collections::BTreeMap;

/// What the offline draft writes where only the author knows the reason; the
/// validator rejects it (and every other `<…?>`), so a draft cannot be committed
/// unread.
pub const WHY_PLACEHOLDER: &str = "<why?>";

/// Whether a message needs a body of bullets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BodyPolicy {
    /// At least one bullet is required.
    Required,
    /// A subject line alone is fine; a body that has bullets is held to their format.
    Optional,
    /// The body is free text (Conventional Commits' own rule): the subject and the
    /// footers are checked, body lines are never held to the bullet format. For a
    /// project adopting jitcommit on top of an existing history.
    Free,
}

/// Which letter case a subject's type must be in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TypeCase {
    /// Any case: `Feat`, `FEAT` and `feat` are the type `feat` (the spec's rule 16:
    /// its units are not case-sensitive, except `BREAKING CHANGE`).
    Any,
    /// Lower case only: `Feat` gets a `subject-type` finding whose hint says `feat`.
    Lower,
}

/// Kinds of message exempt from the convention.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Exemption {
    /// `Merge branch …`, `Merge pull request …`, `Merge remote-tracking branch …`, `Merge tag …`.
    Merge,
    /// `Revert "…"` as written by `git revert`.
    Revert,
    /// `fixup! …`
    Fixup,
    /// `squash! …`
    Squash,
    /// `amend! …`
    Amend,
    /// A release commit whose subject is a bare version (`v21.2.2`, `1.4.0-rc.1`), as
    /// lerna and `npm version` write them. Not exempt by default: nothing backs the
    /// subject, so a convention that lists it accepts any commit titled with a version
    /// (docs/check.md, "Fitting an existing history").
    Release,
}

/// Which OpenAI BPE encoding token counts use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Encoding {
    /// cl100k_base (the default).
    Cl100k,
    /// o200k_base.
    O200k,
}

/// `[…commit-convention.context]`: how the prompt is fitted to the model.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub struct ContextSettings {
    /// The model's context window, in tokens.
    pub budget_tokens: usize,
    /// Tokens kept free for the model's answer.
    pub reserve_output_tokens: usize,
    /// Globs whose files are shown as stat lines only.
    pub exclude: Vec<String>,
    /// The BPE encoding counted against.
    pub encoding: Encoding,
    /// Extra percent of tokens assumed on top of the BPE count, for model
    /// families whose tokenizers count more than OpenAI's.
    pub safety_margin_percent: u32,
}

/// `[…commit-convention.changelog]`: how `jitcommit changelog` and `bump` read the
/// history. Every key is optional; a command-line flag wins over it.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub struct ChangelogSettings {
    /// Which tags are versions: a regular expression, group `version` (else the whole
    /// match) a semantic version.
    pub tag_pattern: Option<String>,
    /// A commit link: `{id}` (full) and/or `{short}`.
    pub commit_url: Option<String>,
    /// A release link: `{from}` and `{to}` (tag names).
    pub compare_url: Option<String>,
    /// Merges, exempt and non-conforming commits: counted, or listed.
    pub others: Option<Others>,
    /// `bump-types`: the release each type asks for, over the built-in feat → minor,
    /// fix and perf → patch (`chore = "patch"` for a project that releases on
    /// dependency updates).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub bump_types: BTreeMap<String, BumpLevel>,
    /// `exclude-commits`: regular expressions (Python's `re` syntax, lookarounds
    /// included, as python-semantic-release's `exclude_commit_patterns` are written)
    /// matched from the start of a commit's message: a commit one matches is not
    /// listed in the changelog, and still counts for the next version.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub exclude_commits: Vec<String>,
    /// `ignore-tags`: a regular expression; a version tag it matches is not a release,
    /// its commits fall to the next one (git-cliff's `ignore_tags`).
    pub ignore_tags: Option<String>,
    /// `prereleases`: whether a release collects the pre-releases tagged before it
    /// (the default) or each pre-release keeps its own section.
    pub prereleases: Option<Prereleases>,
    /// `breaking-before-1`: what a breaking change asks for before 1.0.0 (the
    /// default `minor`, as Cargo reads `0.x`; `major` as python-semantic-release's
    /// `major_on_zero` does).
    pub breaking_before_1: Option<ZeroMajor>,
}

/// How the changelog reads pre-release tags (`changelog.prereleases`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Prereleases {
    /// A release (`v1.2.0`) lists the commits of the pre-releases of its version
    /// (`v1.2.0-rc.1`, `v1.2.0-rc.2`); a pre-release keeps its own section only until
    /// its release is tagged.
    #[default]
    Collect,
    /// Every pre-release tag is a release of its own, with its own section.
    Own,
}

/// What a breaking change asks for before 1.0.0 (`changelog.breaking-before-1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ZeroMajor {
    /// `0.3.1` → `0.4.0`.
    Minor,
    /// `0.3.1` → `1.0.0`.
    Major,
}

/// How much a commit moves the version (`changelog.bump-types`, `jitcommit bump`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum BumpLevel {
    /// No release for this type alone.
    None,
    /// `x.y.Z`
    Patch,
    /// `x.Y.0`
    Minor,
    /// `X.0.0`
    Major,
}

impl BumpLevel {
    /// `major`, `minor`, `patch` or `none`.
    pub fn parse(s: &str) -> Option<BumpLevel> {
        Some(match s {
            "major" => BumpLevel::Major,
            "minor" => BumpLevel::Minor,
            "patch" => BumpLevel::Patch,
            "none" => BumpLevel::None,
            _ => return None,
        })
    }
}

/// What happens to merges, other exempt commits and non-conforming commits in the
/// changelog (`changelog.others`; the changelog re-exports it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Others {
    /// Left out; each release says how many.
    #[default]
    Count,
    /// Listed under their own heading, by subject.
    List,
}

/// The checks a feature owns on the values it keeps in the convention, each the
/// reason a value as written is not one. The reader runs them where it reads the
/// value, so their errors are placed (and ordered) as its own.
#[derive(Clone, Copy)]
pub(crate) struct Checks {
    /// A `[facts]` entry, `ID = "value"` (the fact store's check).
    pub fact: fn(&str, &str) -> Result<(), String>,
    /// `changelog.tag-pattern` and `changelog.ignore-tags` (the changelog's check).
    pub tag_pattern: fn(&str) -> Result<(), String>,
    /// An entry of `changelog.exclude-commits` (the changelog's check).
    pub commit_pattern: fn(&str) -> Result<(), String>,
}

/// One `[facts]` entry of a convention file.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Fact {
    /// The fact's ID, the key as written (`SCOPE.crates/core/**`).
    pub id: String,
    /// Its value: one line of text.
    pub value: String,
    /// The 1-based line of its key, for error messages.
    pub line: usize,
}

/// The effective convention: what the validator enforces and the prompt teaches.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub struct Convention {
    /// Allowed subject types, in order; empty means any type.
    pub types: Vec<String>,
    /// Whether a type must be written as listed, or may be in any case.
    pub type_case: TypeCase,
    /// Allowed scopes; empty means any scope.
    pub scopes: Vec<String>,
    /// Allowed bullet verbs.
    pub verbs: Vec<String>,
    /// Maximum subject length in characters; 0 turns the length check off.
    pub subject_max: usize,
    /// A summary must not end with a period (`subject-period`).
    pub subject_period: bool,
    /// A summary must be more than a verb, a path or punctuation (`subject-summary`).
    pub subject_summary: bool,
    /// Body policy.
    pub body: BodyPolicy,
    /// Whether, under `body = "optional"`, a body with no bullet may be prose. True
    /// (and no file's key) but in the convention the gates fit to a history that has
    /// no such body ([`crate::fit::in_force`]): there a prose body is `body-missing`,
    /// so that no commit the fitted convention accepts makes the next fit looser
    /// (docs/check.md, "Before the project adopts a convention").
    #[serde(skip)]
    pub body_prose: bool,
    /// Wrap body lines at this many columns (0 = no wrapping asked).
    pub body_wrap: usize,
    /// Each bullet path must be among the commit's changed paths.
    pub trace_paths: bool,
    /// Every changed path is named by a bullet and verbs agree with statuses
    /// (`bullet-coverage`, `bullet-status`); drafts apply it whatever this says.
    pub coverage: bool,
    /// Only ` — ` is accepted as the bullet separator (not ` -- `).
    pub strict_separator: bool,
    /// Message kinds exempt from every rule.
    pub exempt: Vec<Exemption>,
    /// The exact texts the `placeholder` rule rejects (ASCII case ignored): the
    /// draft's own marker and whatever the project's template leaves to fill in.
    pub placeholders: Vec<String>,
    /// The adoption point (docs/check.md, "Adopting an existing history"): a full
    /// commit id; that commit and its ancestors are the history the project had when it
    /// adopted the convention, accepted as they are by `--range` and the server hooks.
    /// Every other commit is held to the convention.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub adopted: Option<String>,
    /// type → CHANGELOG section.
    pub sections: BTreeMap<String, String>,
    /// `[facts]`: the repository's facts kept in the convention (`ID = "value"`), in
    /// file order: the TOML form of the fact store (crate::facts), each checked by
    /// `facts::check_fact` when read.
    #[serde(serialize_with = "facts_table", skip_serializing_if = "Vec::is_empty")]
    pub facts: Vec<Fact>,
    /// Prompt fitting.
    pub context: ContextSettings,
    /// Changelog and version settings.
    #[serde(skip_serializing_if = "ChangelogSettings::is_unset")]
    pub changelog: ChangelogSettings,
}

mod error;
mod read;

pub use error::{ConfigError, Location};

use std::io;
use std::path::{Path, PathBuf};

/// `[facts]` as written: a table of `ID = "value"` (the lines are the file's, not data).
fn facts_table<S: serde::Serializer>(facts: &[Fact], s: S) -> Result<S::Ok, S::Error> {
    s.collect_map(facts.iter().map(|f| (&f.id, &f.value)))
}

impl ChangelogSettings {
    fn is_unset(&self) -> bool {
        *self == ChangelogSettings::default()
    }
}

impl Default for ContextSettings {
    fn default() -> Self {
        ContextSettings {
            budget_tokens: 4096,
            reserve_output_tokens: 512,
            exclude: Vec::new(),
            encoding: Encoding::Cl100k,
            safety_margin_percent: 10,
        }
    }
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

/// The Conventional Commits types the built-in convention allows.
pub const DEFAULT_TYPES: &[&str] = &[
    "feat", "fix", "perf", "refactor", "docs", "test", "build", "ci", "chore", "revert", "style",
];

impl Default for Convention {
    /// The built-in convention: Conventional Commits types, the project's bullet
    /// verbs and Keep a Changelog sections, used when a repository configures none.
    fn default() -> Self {
        let sections = [
            ("feat", "Added"),
            ("fix", "Fixed"),
            ("perf", "Changed"),
            ("refactor", "Changed"),
            ("revert", "Removed"),
        ];
        Convention {
            types: strings(DEFAULT_TYPES),
            type_case: TypeCase::Any,
            scopes: Vec::new(),
            verbs: strings(&[
                "Add", "Update", "Fix", "Remove", "Rename", "Move", "Refactor", "Document", "Test",
            ]),
            subject_max: 72,
            subject_period: true,
            subject_summary: true,
            body: BodyPolicy::Required,
            body_prose: true,
            body_wrap: 0,
            trace_paths: true,
            coverage: false,
            strict_separator: false,
            exempt: vec![
                Exemption::Merge,
                Exemption::Revert,
                Exemption::Fixup,
                Exemption::Squash,
                Exemption::Amend,
            ],
            placeholders: strings(&[WHY_PLACEHOLDER, "<what and why>", "<what breaks>"]),
            adopted: None,
            sections: sections
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
            facts: Vec::new(),
            context: ContextSettings::default(),
            changelog: ChangelogSettings::default(),
        }
    }
}

impl Convention {
    /// The convention as the text of a `.commit-convention.toml` that parses back to
    /// `self`: what `jitcommit-check --dump-config` prints, so a user can start a
    /// config file from the effective one.
    pub fn to_toml(&self) -> String {
        // Every field is a string, number, list or table of them: toml cannot fail here.
        toml::to_string(self).unwrap_or_else(|e| format!("# cannot write the convention: {e}\n"))
    }

    /// The longest subject allowed, or `None` when `subject-max = 0` turned the check off.
    pub fn subject_limit(&self) -> Option<usize> {
        (self.subject_max > 0).then_some(self.subject_max)
    }

    /// The allowed type `kind` is, as listed in `types` (`Some(kind)` itself when any
    /// type is allowed), matched in any case; `type-case` is checked on its own.
    pub fn allowed_type<'a>(&'a self, kind: &'a str) -> Option<&'a str> {
        if self.types.is_empty() {
            return Some(kind);
        }
        let found = self.types.iter().find(|t| t.eq_ignore_ascii_case(kind));
        found.map(String::as_str)
    }

    /// Whether `scope` is allowed: any scope when `scopes` is empty, else one of them in
    /// any case (the spec's units are not case-sensitive).
    pub fn allows_scope(&self, scope: &str) -> bool {
        self.scopes.is_empty() || self.scopes.iter().any(|s| s.eq_ignore_ascii_case(scope))
    }
}

/// A convention and where it came from, so messages can say which file set a rule.
#[derive(Debug, Clone, PartialEq)]
pub struct Loaded {
    /// The effective convention.
    pub convention: Convention,
    /// The file (and table) it was read from, or the built-in defaults.
    pub origin: Origin,
}

/// Where a [`Loaded`] convention came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// A config file; `table` is the dotted table inside it (`tool.commit-convention`),
    /// or `None` when the whole file is the table (`.commit-convention.toml`).
    File {
        /// The file, repo-relative for [`crate::convention::discover`], as found for the other loaders.
        path: PathBuf,
        /// The dotted table the convention was read from.
        table: Option<String>,
    },
    /// No config file: [`Convention::default`].
    Builtin,
    /// No config file: [`Convention::default`] fitted to the newest `commits` commits of
    /// the history before the commit checked (the `fit` module): what the gates hold a
    /// project to before it adopts a convention.
    Fitted {
        /// How many commits it was fitted to.
        commits: usize,
    },
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Origin::File {
                path,
                table: Some(t),
            } => write!(f, "{} [{t}]", path.display()),
            Origin::File { path, table: None } => write!(f, "{}", path.display()),
            Origin::Builtin => f.write_str("built-in defaults"),
            Origin::Fitted { commits } => write!(
                f,
                "built-in defaults fitted to the last {commits} commits (no convention file)"
            ),
        }
    }
}

/// The discovery order of docs/design.md §4; first found wins.
const SOURCES: [&str; 3] = [".commit-convention.toml", "pyproject.toml", "Cargo.toml"];

/// Finds the repository's convention through `read`, which returns the bytes of a
/// repo-relative file if it exists. The server passes a reader over a commit's tree,
/// the hooks one over the work tree ([`discover_in_dir`]).
pub(crate) fn discover(
    read: &mut dyn FnMut(&str) -> io::Result<Option<Vec<u8>>>,
    checks: &Checks,
) -> Result<Loaded, ConfigError> {
    discover_named(read, &|name| PathBuf::from(name), checks)
}

/// Finds the convention in the work tree rooted at `root`, read fresh on every call.
pub(crate) fn discover_in_dir(root: &Path, checks: &Checks) -> Result<Loaded, ConfigError> {
    // A link that leaves the work tree is refused, not followed (crate::tree_file).
    let mut read = |name: &str| crate::tree_file::read_in_tree(root, &root.join(name));
    discover_named(&mut read, &|name| root.join(name), checks)
}

/// The last key of every table a manifest may hold the convention in.
const TABLE_NAME: &[u8] = b"commit-convention";

/// Whether `needle` occurs in `bytes`: a substring search (bstr's, over memchr's
/// `memmem`), where comparing every window took a tenth of an untraced check's
/// instructions on a 20 KB `Cargo.toml`.
fn mentions(bytes: &[u8], needle: &[u8]) -> bool {
    use gix::bstr::ByteSlice;
    bytes.find(needle).is_some()
}

fn discover_named(
    read: &mut dyn FnMut(&str) -> io::Result<Option<Vec<u8>>>,
    path_of: &dyn Fn(&str) -> PathBuf,
    checks: &Checks,
) -> Result<Loaded, ConfigError> {
    for name in SOURCES {
        let path = path_of(name);
        let bytes = match read(name) {
            Ok(Some(bytes)) => bytes,
            Ok(None) => continue,
            Err(source) => return Err(ConfigError::Read { path, source }),
        };
        let kind = read::Kind::of(name);
        // A manifest without the table name anywhere holds no convention: skip parsing
        // it (a 20 KB `Cargo.toml` took a third of a traced commit-msg check).
        if !kind.tables().is_empty() && !mentions(&bytes, TABLE_NAME) {
            continue;
        }
        if let Some(loaded) = read::load(&path, &bytes, kind, checks)? {
            return Ok(loaded);
        }
    }
    Ok(Loaded {
        convention: Convention::default(),
        origin: Origin::Builtin,
    })
}

/// Reads the convention from the file given with `--config FILE`. A file named
/// `pyproject.toml` or `Cargo.toml` is read at its table, which must exist; any other
/// file is the table itself.
pub(crate) fn load_file(path: &Path, checks: &Checks) -> Result<Loaded, ConfigError> {
    let bytes = std::fs::read(path).map_err(|source| ConfigError::Read {
        path: path.to_owned(),
        source,
    })?;
    load_bytes(path, &bytes, checks)
}

/// [`load_file`] of bytes read elsewhere (the file `path` names, in a commit's tree).
pub(crate) fn load_bytes(
    path: &Path,
    bytes: &[u8],
    checks: &Checks,
) -> Result<Loaded, ConfigError> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let kind = read::Kind::of(name);
    match read::load(path, bytes, kind, checks)? {
        Some(loaded) => Ok(loaded),
        None => Err(ConfigError::MissingTable {
            path: path.to_owned(),
            tables: kind
                .tables()
                .iter()
                .map(|t| format!("[{t}]"))
                .collect::<Vec<_>>()
                .join(" or "),
        }),
    }
}

#[cfg(test)]
mod tests;
