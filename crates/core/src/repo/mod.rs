//! Repository state via gix: the staged set, `git status --short`, per-file diffs,
//! commit changes, the path probes of bullet tracing and the walks for ranges and
//! pushes. This module owns opening the repository; `staged` and `commits` the two
//! sides a diff compares, `patch` the rendering, `probe` the path lookups, `commit` a
//! commit's headers (through gix's parser), `fast` the hand-written readers of git's
//! bytes (the only place objects, packs and the index are not read through gix; each
//! says why and what gix change it waits for).
//!
//! [`Repo::discover`] opens the repository the way git hands it to a hook: `GIT_DIR`,
//! `GIT_WORK_TREE`, `GIT_INDEX_FILE`, the `git -c` settings in `GIT_CONFIG_PARAMETERS`
//! and, on a server, the pre-receive quarantine (`GIT_OBJECT_DIRECTORY` with
//! `GIT_ALTERNATE_OBJECT_DIRECTORIES`). Everything else reads through that one handle.

mod attrs;
mod commit;
mod commits;
mod env;
mod fast;
mod history;
mod patch;
mod probe;
mod quote;
mod renames;
mod staged;
mod types;
mod userdiff;
mod walk;

/// A stored message as git presents it, the commit's number of parents, and the
/// encoding it names when this tool cannot decode it ([`Repo::commit_message_as_shown`]).
pub type ShownMessage = (Vec<u8>, usize, Option<String>);

use std::path::{Path, PathBuf};

/// git's file-type bits of a mode.
const S_IFMT: u32 = 0o170000;

/// Bytes of decoded pack entries kept for delta resolution (see [`Repo::discover`]).
const PACK_CACHE_BYTES: usize = 16 * 1024 * 1024;

pub use env::{
    ConfigParametersError, config_key_eq, is_zero_id, parse_bool, parse_config_parameters,
};
pub use gix::ObjectId;
pub use history::{HISTORY_COMMITS, MAX_SUBJECTS, PathHistory, TypeHistory};
pub use patch::similarity_index;
pub use quote::quote_path;
pub use staged::{LazyStaged, status_short};
pub use types::*;

/// A boxed error from gix (its error types vary by call).
pub type GixError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// Why reading the repository failed; each variant names what it was reading.
#[derive(Debug, thiserror::Error)]
pub enum RepoError {
    /// No repository at or above the directory (or at `GIT_DIR`).
    #[error("not a git repository: {dir}")]
    Open {
        /// Where discovery started.
        dir: PathBuf,
        /// gix's reason.
        #[source]
        source: GixError,
    },
    /// `GIT_CONFIG_PARAMETERS` is malformed.
    #[error(transparent)]
    ConfigParameters(#[from] ConfigParametersError),
    /// The quarantine object directory could not be opened.
    #[error("cannot open the object directory {dir}")]
    Quarantine {
        /// `GIT_OBJECT_DIRECTORY`.
        dir: PathBuf,
        /// The reason.
        #[source]
        source: std::io::Error,
    },
    /// The index named by `GIT_INDEX_FILE` (or `.git/index`) could not be read.
    #[error("cannot read the index {path}")]
    Index {
        /// The index file.
        path: PathBuf,
        /// gix's reason.
        #[source]
        source: GixError,
    },
    /// HEAD could not be resolved.
    #[error("cannot resolve HEAD")]
    Head(#[source] GixError),
    /// A revision that does not name an object here (unknown, or cut off by a shallow clone).
    #[error("unknown revision {rev:?}")]
    UnknownRevision {
        /// The revision as given.
        rev: String,
        /// gix's reason, when it gave one.
        #[source]
        source: Option<GixError>,
    },
    /// An object id of another hash kind than the repository's (a SHA-256 id given to a
    /// SHA-1 repository, or the other way round).
    #[error("{id} is not a {repo} object id, which this repository uses")]
    HashKind {
        /// The id given.
        id: ObjectId,
        /// The repository's hash kind.
        repo: String,
    },
    /// An object that should be a commit is something else.
    #[error("{id} is a {kind}, not a commit")]
    NotACommit {
        /// The object.
        id: ObjectId,
        /// What it is.
        kind: String,
    },
    /// A missing or unreadable object, e.g. a parent beyond a shallow clone's boundary.
    #[error("cannot read object {id}{}", if *shallow { " (the repository is a shallow clone)" } else { "" })]
    Object {
        /// The object.
        id: ObjectId,
        /// The repository is shallow, which explains missing history.
        shallow: bool,
        /// gix's reason.
        #[source]
        source: GixError,
    },
    /// Walking the history failed.
    #[error("cannot walk history from {tips:?}{}", if *shallow { " (the repository is a shallow clone)" } else { "" })]
    Walk {
        /// The starting points.
        tips: Vec<ObjectId>,
        /// The repository is shallow.
        shallow: bool,
        /// gix's reason.
        #[source]
        source: GixError,
    },
    /// A range reaches a shallow clone's boundary: its history goes on past what the
    /// clone holds, so it cannot be checked whole.
    #[error(
        "the range reaches {commit}, a boundary of this shallow clone, and goes on into history the clone does not have; fetch more (git fetch --unshallow) to check it"
    )]
    ShallowBoundary {
        /// The boundary commit (its parents are not in the clone).
        commit: ObjectId,
    },
    /// The repository keeps its refs in a format gix cannot read (reftable): HEAD, the
    /// branches and the default branch are out of reach.
    #[error(
        "this repository keeps its refs in {format} (extensions.refStorage), which jitcommit cannot read yet"
    )]
    RefStorage {
        /// The value of `extensions.refStorage`.
        format: String,
    },
    /// Listing the references failed.
    #[error("cannot list references")]
    Refs(#[source] GixError),
    /// A diff (tree against tree or index) failed.
    #[error("cannot diff {what}")]
    Diff {
        /// What was being compared.
        what: String,
        /// gix's reason.
        #[source]
        source: GixError,
    },
}

/// An open repository, as git presented it to this process.
pub struct Repo {
    repo: gix::Repository,
    /// What this handle was opened from.
    shared: SharedRepo,
    /// The `git -c` settings, in order (later wins).
    params: Vec<(String, Option<String>)>,
    /// Holds the synthetic object directory that joins the quarantine and the repository's
    /// objects; it must outlive every object lookup.
    _quarantine: Option<tempfile::TempDir>,
    /// Tree-diff state reused across commits.
    diff_cache: std::cell::RefCell<commits::DiffCache>,
    /// Parsed trees reused by path probes across commits.
    trees: std::cell::RefCell<probe::TreeCache>,
    /// Objects read straight from the packs with a delta base cache, for path probes;
    /// set up on first use.
    packs: std::cell::RefCell<fast::packs::Packs>,
    /// Each commit's tree and first parent, as read (a walk reads each commit once).
    links: std::cell::RefCell<Links>,
    /// The raw commits the last history walks listed, each kept until its message is
    /// read (see `walk`), so a range inflates each commit once.
    walked: std::cell::RefCell<gix::hashtable::HashMap<ObjectId, Vec<u8>>>,
    /// The index as last read, with the file's size and modification time then: one
    /// commit-msg check asks for it up to four times (the store, its probe, tracing).
    index: std::cell::RefCell<Option<(IndexStamp, std::rc::Rc<gix::index::File>)>>,
}

/// Each commit's tree and first parent, by commit.
type Links = gix::hashtable::HashMap<ObjectId, (ObjectId, Option<ObjectId>)>;

/// What identifies a version of the index file: its size and modification time.
type IndexStamp = (u64, Option<std::time::SystemTime>);

impl std::fmt::Debug for Repo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Repo")
            .field("git_dir", &self.repo.git_dir())
            .finish_non_exhaustive()
    }
}

impl Repo {
    /// Opens the repository a hook or CLI run in `cwd` is about, reading git's environment
    /// from this process (see [`GitEnv`]).
    pub fn discover(cwd: &Path) -> Result<Repo, RepoError> {
        Repo::discover_with(cwd, &GitEnv::process())
    }

    /// Opens the repository a run in `cwd` is about, with git's environment taken from
    /// `env` only: `GIT_DIR`, `GIT_WORK_TREE`, `GIT_INDEX_FILE`, `GIT_CONFIG_PARAMETERS`,
    /// `GIT_OBJECT_DIRECTORY`, `GIT_ALTERNATE_OBJECT_DIRECTORIES`. With an env other than
    /// [`GitEnv::process`], gix reads no `GIT_*` variable of this process either, so a
    /// test run inside a git hook opens the repository it names, not the hook's.
    pub fn discover_with(cwd: &Path, env: &GitEnv) -> Result<Repo, RepoError> {
        let shared = SharedRepo {
            ts: open_thread_safe(cwd, env)?,
            cwd: cwd.to_owned(),
            env: env.clone(),
            links: Default::default(),
        };
        shared.to_thread_local()
    }

    /// The repository as opened, for other threads to take their own handles from.
    pub fn shared(&self) -> SharedRepo {
        SharedRepo {
            links: std::sync::Arc::new(self.links.borrow().clone()),
            ..self.shared.clone()
        }
    }

    /// A handle on `shared`'s repository for this thread.
    fn from_shared(shared: &SharedRepo) -> Result<Repo, RepoError> {
        let (ts, cwd, env) = (&shared.ts, shared.cwd.as_path(), &shared.env);
        let params = env.config_parameters()?;
        let mut repo = ts.to_thread_local();
        let quarantine = match env.get("GIT_OBJECT_DIRECTORY") {
            Some(dir) if !dir.is_empty() => {
                let alternates = env
                    .get("GIT_ALTERNATE_OBJECT_DIRECTORIES")
                    .map(|a| std::env::split_paths(&a).collect::<Vec<_>>())
                    .unwrap_or_default();
                Some(attach_object_dirs(
                    &mut repo,
                    cwd,
                    Path::new(&dir),
                    &alternates,
                )?)
            }
            _ => None,
        };
        // A delta-base cache for what gix decodes: commits, and the trees and blobs of
        // full diffs (history walks read their trees through `packs`; see
        // docs/gix-delta-cache.md). gix sets one up only under `max-performance`.
        repo.objects.set_pack_cache(|| {
            Box::new(gix::odb::pack::cache::lru::MemoryCappedHashmap::new(
                PACK_CACHE_BYTES,
            ))
        });
        // Objects that are in no pack (staged blobs are loose) must not make gix list the
        // pack directories again on every lookup: nothing adds packs while a hook runs.
        repo.objects.refresh_never();
        repo.object_cache_size_if_unset(4 * 1024 * 1024);
        Ok(Repo {
            repo,
            shared: shared.clone(),
            params,
            _quarantine: quarantine,
            diff_cache: Default::default(),
            trees: Default::default(),
            packs: Default::default(),
            links: std::cell::RefCell::new(Links::clone(&shared.links)),
            walked: Default::default(),
            index: Default::default(),
        })
    }

    /// The index git names (`GIT_INDEX_FILE`, else the git dir's `index`; none is the
    /// empty index), read as git reads it: without verifying the trailing checksum, which
    /// only `git fsck` does (hashing a large index costs more than decoding it). Read
    /// again only when the file's size or modification time changed.
    pub(crate) fn read_index(&self) -> Result<std::rc::Rc<gix::index::File>, RepoError> {
        let path = self.repo.index_path();
        let err = |source: GixError| RepoError::Index {
            path: path.clone(),
            source,
        };
        let meta = match std::fs::metadata(&path) {
            Ok(m) => Some(m),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(err(Box::new(e))),
        };
        let stamp: IndexStamp = meta
            .as_ref()
            .map_or((0, None), |m| (m.len(), m.modified().ok()));
        if let Some((s, index)) = self.index.borrow().as_ref()
            && *s == stamp
            && stamp.1.is_some()
        {
            return Ok(std::rc::Rc::clone(index));
        }
        let index = if meta.is_none() {
            let state = gix::index::State::new(self.repo.object_hash());
            gix::index::File::from_state(state, path.clone())
        } else {
            gix::index::File::at(
                &path,
                self.repo.object_hash(),
                true,
                gix::index::decode::Options::default(),
            )
            .map_err(|e| err(e.into()))?
        };
        let index = match index.is_sparse() {
            true => self.expand_sparse(&index).map_err(err)?,
            false => index,
        };
        let index = std::rc::Rc::new(index);
        *self.index.borrow_mut() = Some((stamp, std::rc::Rc::clone(&index)));
        Ok(index)
    }

    /// A sparse index (`git sparse-checkout set --sparse-index`) as git expands it when a
    /// command needs every path (`ensure_full_index`): each directory entry replaced by
    /// the files of its tree, marked skip-worktree as the directory was. gix diffs no
    /// sparse index, and each reader of the index would otherwise need a second kind of
    /// entry; expanded, a sparse index gives every reader what the full index gives.
    fn expand_sparse(&self, index: &gix::index::File) -> Result<gix::index::File, GixError> {
        let mut full = gix::index::State::new(self.repo.object_hash());
        for e in index.entries() {
            let path = e.path(index);
            if !e.mode.is_sparse() {
                full.dangerously_push_entry(e.stat, e.id, e.flags, e.mode, path);
                continue;
            }
            let mut files = gix::traverse::tree::Recorder::default();
            self.repo
                .find_tree(e.id)?
                .traverse()
                .breadthfirst(&mut files)?;
            let mut dir = path.to_vec();
            if !dir.ends_with(b"/") {
                dir.push(b'/');
            }
            for f in files.records.iter().filter(|f| !f.mode.is_tree()) {
                let mut p = dir.clone();
                p.extend_from_slice(&f.filepath);
                let mode = fast::cachetree::index_mode(f.mode);
                full.dangerously_push_entry(e.stat, f.oid, e.flags, mode, p.as_slice().into());
            }
        }
        full.sort_entries();
        Ok(gix::index::File::from_state(full, index.path().to_owned()))
    }

    /// The gix repository, for what this wrapper does not cover.
    pub fn gix(&self) -> &gix::Repository {
        &self.repo
    }

    /// A config value as git would see it: the last `git -c` setting for `key`, else the
    /// repository's configuration (local, global, system). `Some("")` for a `git -c key`
    /// given without `=` (git's implicit true; `git config` prints an empty line for it too).
    pub fn config_string(&self, key: &str) -> Option<String> {
        if let Some((_, v)) = self
            .params
            .iter()
            .rev()
            .find(|(k, _)| config_key_eq(k, key))
        {
            return Some(v.clone().unwrap_or_default());
        }
        self.repo
            .config_snapshot()
            .string(key)
            .map(|v| v.to_string())
    }

    /// A boolean config value with git's spellings (`true/yes/on/1`, `false/no/off/0`, and a
    /// key without a value meaning true); `None` when unset or not a boolean.
    pub fn config_bool(&self, key: &str) -> Option<bool> {
        if let Some((_, v)) = self
            .params
            .iter()
            .rev()
            .find(|(k, _)| config_key_eq(k, key))
        {
            return match v {
                None => Some(true),
                Some(v) => parse_bool(v),
            };
        }
        self.repo.config_snapshot().boolean(key)
    }

    /// Every key set in the config section `section` (`jitcommit`), from `git -c` and
    /// the configuration files, as written: `section.name`, or `section.sub.name` for a
    /// subsection. For naming the keys a tool does not read (a typo is ignored by git).
    pub fn config_keys(&self, section: &str) -> Vec<String> {
        let mut out: Vec<String> = self
            .params
            .iter()
            .map(|(k, _)| k.clone())
            .filter(|k| {
                k.split('.')
                    .next()
                    .is_some_and(|s| s.eq_ignore_ascii_case(section))
            })
            .collect();
        let snapshot = self.repo.config_snapshot();
        if let Some(sections) = snapshot.plumbing().sections_by_name(section) {
            for s in sections {
                let sub = s.header().subsection_name().map(ToString::to_string);
                for name in s.value_names() {
                    out.push(match &sub {
                        Some(sub) => format!("{section}.{sub}.{name}"),
                        None => format!("{section}.{name}"),
                    });
                }
            }
        }
        out.sort_by_key(|k| k.to_ascii_lowercase());
        out.dedup_by(|a, b| a.eq_ignore_ascii_case(b));
        out
    }

    /// The git dir (`.git`, `.git/worktrees/<name>` in a linked worktree, the repository
    /// itself when bare): where rejected messages and markers live.
    pub fn git_dir(&self) -> &Path {
        self.repo.git_dir()
    }

    /// The top of the work tree, `None` for a bare repository.
    pub fn work_dir(&self) -> Option<&Path> {
        self.repo.workdir()
    }

    /// A bare repository (a server).
    pub fn is_bare(&self) -> bool {
        self.repo.is_bare()
    }

    /// The short name of the branch HEAD points to (also when unborn), `None` when detached.
    pub fn head_branch(&self) -> Option<String> {
        let name = self.repo.head_name().ok()??;
        let full = name.as_bstr();
        let short = full.strip_prefix(b"refs/heads/".as_slice())?;
        Some(String::from_utf8_lossy(short).into_owned())
    }

    /// The full name of the ref HEAD points to (also when unborn), `None` when detached.
    pub fn head_ref(&self) -> Option<String> {
        let name = self.repo.head_name().ok()??;
        Some(String::from_utf8_lossy(name.as_bstr()).into_owned())
    }

    /// HEAD names a branch without commits yet: the staged set is compared with the empty tree.
    pub fn is_unborn(&self) -> bool {
        self.repo.head().map(|h| h.is_unborn()).unwrap_or(false)
    }

    /// HEAD's commit, `None` when unborn or unresolvable.
    pub fn head_commit(&self) -> Option<ObjectId> {
        self.repo.head_id().ok().map(|id| id.detach())
    }

    /// An error when the refs are stored in a format gix cannot read
    /// (`extensions.refStorage = reftable`): every ref lookup would fail, or quietly find
    /// nothing.
    pub fn refs_readable(&self) -> Result<(), RepoError> {
        match self.config_string("extensions.refStorage") {
            Some(format) if !format.eq_ignore_ascii_case("files") => {
                Err(RepoError::RefStorage { format })
            }
            _ => Ok(()),
        }
    }

    /// The repository is a shallow clone (history stops at its boundary commits).
    pub fn is_shallow(&self) -> bool {
        self.repo.is_shallow().unwrap_or(false)
    }
}

/// A repository opened once, from which each thread takes its own [`Repo`] (a handle
/// and its caches are per thread) without discovering the repository again.
#[derive(Clone)]
pub struct SharedRepo {
    ts: gix::ThreadSafeRepository,
    cwd: PathBuf,
    env: GitEnv,
    /// The links the handle it was taken from had read (a range reads every message
    /// first): each thread starts with them instead of reading the commits again.
    links: std::sync::Arc<Links>,
}

impl SharedRepo {
    /// A handle for this thread, with the quarantine attached as for the first.
    pub fn to_thread_local(&self) -> Result<Repo, RepoError> {
        Repo::from_shared(self)
    }
}

/// The process environment of git's hooks, or one given explicitly (tests): the
/// variables [`Repo::discover_with`] reads.
#[derive(Debug, Clone, Default)]
pub struct GitEnv {
    vars: Vec<(String, std::ffi::OsString)>,
    /// This process's environment: gix may read the `GIT_*` variables it knows too
    /// (`GIT_CONFIG_GLOBAL`, `GIT_CEILING_DIRECTORIES`, ...).
    process: bool,
}

impl GitEnv {
    /// This process's environment.
    pub fn process() -> GitEnv {
        GitEnv {
            vars: std::env::vars_os()
                .filter_map(|(k, v)| Some((k.into_string().ok()?, v)))
                .filter(|(k, _)| k.starts_with("GIT_"))
                .collect(),
            process: true,
        }
    }

    /// An environment holding exactly `vars` (none: git's defaults).
    pub fn new<K: Into<String>, V: Into<std::ffi::OsString>>(
        vars: impl IntoIterator<Item = (K, V)>,
    ) -> GitEnv {
        GitEnv {
            vars: vars
                .into_iter()
                .map(|(k, v)| (k.into(), v.into()))
                .collect(),
            process: false,
        }
    }

    /// The value of `key`, if set.
    pub fn get(&self, key: &str) -> Option<&std::ffi::OsStr> {
        self.vars
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_os_str())
    }

    /// A path variable, absolute against `cwd`; `None` when unset or empty.
    fn path(&self, key: &str, cwd: &Path) -> Option<PathBuf> {
        let v = self.get(key).filter(|v| !v.is_empty())?;
        Some(cwd.join(v))
    }

    /// The `git -c` settings of `GIT_CONFIG_PARAMETERS`, in order.
    fn config_parameters(&self) -> Result<Vec<(String, Option<String>)>, RepoError> {
        match self.get("GIT_CONFIG_PARAMETERS").and_then(|v| v.to_str()) {
            Some(text) => Ok(parse_config_parameters(text)?),
            None => Ok(Vec::new()),
        }
    }
}

/// Opens (discovers, or at `GIT_DIR` opens) the repository of a run in `cwd` with git's
/// environment `env`; each thread then takes its handle with [`Repo::from_thread_safe`].
pub(crate) fn open_thread_safe(
    cwd: &Path,
    env: &GitEnv,
) -> Result<gix::ThreadSafeRepository, RepoError> {
    let params = env.config_parameters()?;
    let mut overrides: Vec<String> = params
        .iter()
        .map(|(k, v)| match v {
            Some(v) => format!("{k}={v}"),
            None => k.clone(),
        })
        .collect();
    let index = env.path("GIT_INDEX_FILE", cwd);
    let work_tree = env.path("GIT_WORK_TREE", cwd);
    let git_dir = env.path("GIT_DIR", cwd);
    let open = |overrides: &[String]| {
        let mut trust: gix::sec::trust::Mapping<gix::open::Options> = Default::default();
        for opts in [&mut trust.full, &mut trust.reduced] {
            let mut o = std::mem::take(opts).cli_overrides(overrides.iter().map(String::as_str));
            if let Some(index) = &index {
                o = o.config_overrides([format!("gitoxide.core.indexFile={}", index.display())]);
            }
            if !env.process {
                let mut perms = gix::open::Permissions::default();
                perms.env.git_prefix = gix::sec::Permission::Deny;
                o = o.permissions(perms);
            }
            *opts = o;
        }
        match &git_dir {
            Some(dir) => gix::ThreadSafeRepository::open_opts(dir, trust.full)
                .map_err(|e| -> GixError { Box::new(e) }),
            None => {
                let mut upwards = gix::discover::upwards::Options::default();
                if env.process {
                    // `GIT_CEILING_DIRECTORIES`, `GIT_DISCOVERY_ACROSS_FILESYSTEM`.
                    upwards = upwards.apply_environment();
                }
                gix::ThreadSafeRepository::discover_opts(cwd, upwards, trust)
            }
            .map_err(|e| -> GixError { Box::new(e) }),
        }
    };
    let mut ts = match open(&overrides) {
        Ok(r) => r,
        // A malformed `git -c` value must not lock the user out: retry without them
        // (config_string still answers from the parsed parameters).
        Err(_) if !overrides.is_empty() => {
            overrides.clear();
            open(&overrides)
        }
        .map_err(|source| RepoError::Open {
            dir: cwd.to_owned(),
            source,
        })?,
        Err(source) => {
            return Err(RepoError::Open {
                dir: cwd.to_owned(),
                source,
            });
        }
    };
    if let Some(dir) = work_tree {
        let mut repo = ts.to_thread_local();
        repo.set_workdir(dir).map_err(|e| RepoError::Open {
            dir: cwd.to_owned(),
            source: Box::new(e),
        })?;
        ts = repo.into_sync();
    }
    Ok(ts)
}

/// Points `repo`'s object database at git's pre-receive quarantine: a private directory
/// whose `info/alternates` lists the quarantine first and then every alternate git named,
/// so gix's store finds pushed objects and existing ones (loose and packed) alike. The
/// quarantine itself is never written to: git migrates every file in it into the
/// repository after the hook, so an alternates file there would be copied into `objects/`.
fn attach_object_dirs(
    repo: &mut gix::Repository,
    cwd: &Path,
    objects: &Path,
    alternates: &[PathBuf],
) -> Result<tempfile::TempDir, RepoError> {
    let err = |source| RepoError::Quarantine {
        dir: objects.to_owned(),
        source,
    };
    let abs = |p: &Path| {
        if p.is_absolute() {
            p.to_owned()
        } else {
            cwd.join(p)
        }
    };
    let tmp = tempfile::Builder::new()
        .prefix("jitcommit-odb-")
        .tempdir()
        .map_err(err)?;
    let info = tmp.path().join("info");
    std::fs::create_dir(&info).map_err(err)?;
    let mut list = String::new();
    for dir in std::iter::once(objects.to_owned()).chain(alternates.iter().cloned()) {
        let dir = abs(&dir);
        let Some(s) = dir.to_str() else {
            return Err(err(std::io::Error::other(format!(
                "object directory {} is not valid UTF-8",
                dir.display()
            ))));
        };
        if s.contains('\n') {
            return Err(err(std::io::Error::other(
                "object directory contains a newline",
            )));
        }
        list.push_str(s);
        list.push('\n');
    }
    std::fs::write(info.join("alternates"), list).map_err(err)?;
    let handle = gix::odb::at(tmp.path(), repo.object_hash()).map_err(err)?;
    repo.objects = gix::odb::memory::Proxy::from(handle).with_write_passthrough();
    Ok(tmp)
}
