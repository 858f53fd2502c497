//! Plain data the repository reader hands to the pure stages.

use gix::ObjectId;
use gix::bstr::BString;

/// What happened to one path, as `git status --short` letters it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub enum ChangeKind {
    /// `A`
    Added,
    /// `M`
    Modified,
    /// `D`
    Deleted,
    /// `R` (with `old_path`)
    Renamed,
    /// `C` (with `old_path`)
    Copied,
    /// `T`: the type changed (file ↔ symlink ↔ submodule).
    TypeChanged,
}

impl ChangeKind {
    /// The status letter git prints.
    pub fn letter(self) -> char {
        match self {
            ChangeKind::Added => 'A',
            ChangeKind::Modified => 'M',
            ChangeKind::Deleted => 'D',
            ChangeKind::Renamed => 'R',
            ChangeKind::Copied => 'C',
            ChangeKind::TypeChanged => 'T',
        }
    }
}

/// One changed path of the staged set (or of a commit against its first parent).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Change {
    /// What happened.
    pub kind: ChangeKind,
    /// The repo-relative path after the change (the new name for renames and copies).
    #[serde(serialize_with = "ser_lossy")]
    pub path: BString,
    /// The source of a rename or copy.
    #[serde(serialize_with = "ser_lossy_opt")]
    pub old_path: Option<BString>,
    /// git's mode before, e.g. `0o100644`; `None` when added.
    pub old_mode: Option<u32>,
    /// git's mode after; `None` when deleted.
    pub new_mode: Option<u32>,
}

/// One hunk of a unified diff, as git prints it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Hunk {
    /// `@@ -a,b +c,d @@ function header`, without the newline.
    pub header: String,
    /// The hunk's lines (` `, `-`, `+`, `\ No newline at end of file`), each ending in `\n`.
    pub body: String,
}

/// The unified diff of one changed file, HEAD → index.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FileDiff {
    /// The change this diff is of.
    pub change: Change,
    /// git's extended header: `diff --git`, mode lines, `new file mode`, `deleted file mode`,
    /// `similarity index`, `rename from/to`, `index`, `---`, `+++` (or `Binary files … differ`),
    /// each line ending in `\n`.
    pub header: String,
    /// The hunks, in order.
    pub hunks: Vec<Hunk>,
    /// Lines added (`--numstat`'s first column); 0 for binary files.
    pub added: usize,
    /// Lines removed; 0 for binary files.
    pub removed: usize,
    /// git would call it binary.
    pub binary: bool,
    /// A submodule pointer change (mode 160000 on either side).
    pub submodule: bool,
    /// What `.gitattributes` marks the file as for GitHub Linguist
    /// (`linguist-generated`, `linguist-vendored`): shown as a stat line only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub linguist: Option<Linguist>,
    /// Its blobs were read and diffed. A file of a very large change that was not
    /// ([`crate::repo::LazyStaged`]) has no header and no hunks, its counts are 0 and
    /// `binary` is unknown (false): only its change, modes and attributes are known.
    #[serde(skip)]
    pub read: bool,
}

/// A Linguist attribute that makes a file a stat line only in the prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Linguist {
    /// `linguist-generated`: produced by a tool.
    Generated,
    /// `linguist-vendored`: third-party code kept in the tree.
    Vendored,
}

/// The repository as it is at this instant, as far as a draft needs it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct StagedState {
    /// The current branch's short name, `None` when detached.
    pub branch: Option<String>,
    /// No commit yet: the staged set is compared with the empty tree.
    pub initial: bool,
    /// Every staged file's diff, sorted by path as git sorts them (bytewise).
    pub files: Vec<FileDiff>,
}

fn ser_lossy<S: serde::Serializer>(p: &BString, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&String::from_utf8_lossy(p))
}

fn ser_lossy_opt<S: serde::Serializer>(p: &Option<BString>, s: S) -> Result<S::Ok, S::Error> {
    match p {
        Some(p) => s.serialize_some(&String::from_utf8_lossy(p)),
        None => s.serialize_none(),
    }
}

/// One changed path with the object ids on both sides, as the diff needs them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    pub(crate) change: Change,
    pub(crate) old_id: Option<ObjectId>,
    pub(crate) new_id: Option<ObjectId>,
}
