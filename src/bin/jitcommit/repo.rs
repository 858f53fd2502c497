//! What `changelog` and `bump` share: the repository, its convention, the history of a
//! range and its version tags, today's date.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use jitcommit_core::changelog::{HistoryCommit, TagPattern, VersionTag, date_of};
use jitcommit_core::config::{self, Convention};
use jitcommit_core::convention;
use jitcommit_core::repo::{ObjectId, Repo};

use crate::error::{Error, usage};
use crate::history;

/// The repository, opened from the current directory, and its convention.
pub struct Context {
    /// The repository.
    pub repo: Repo,
    /// The effective convention.
    pub convention: Convention,
}

/// The repository around the current directory, as git hands it to a command.
pub fn discover_here() -> Result<Repo, Error> {
    let cwd = std::env::current_dir().map_err(|source| Error::File {
        what: "find",
        path: PathBuf::from("."),
        source,
    })?;
    Ok(Repo::discover(&cwd)?)
}

impl Context {
    /// Opens the repository around the current directory; the convention comes from
    /// `config` or else from the work tree (the tree of HEAD in a bare repository).
    pub fn open(config: Option<&Path>) -> Result<Context, Error> {
        let repo = discover_here()?;
        let loaded = match (config, repo.work_dir()) {
            (Some(file), _) => convention::load_file(file)?,
            (None, Some(root)) => convention::discover_in_dir(root)?,
            (None, None) => match repo.head_commit() {
                Some(head) => {
                    let mut read = |name: &str| {
                        repo.read_file_at(head, name)
                            .map_err(|e| std::io::Error::other(e.to_string()))
                    };
                    convention::discover(&mut read)?
                }
                None => config::Loaded {
                    convention: Convention::default(),
                    origin: config::Origin::Builtin,
                },
            },
        };
        Ok(Context {
            repo,
            convention: loaded.convention,
        })
    }

    /// The work tree root, or the git dir of a bare repository.
    pub fn root(&self) -> &Path {
        self.repo.work_dir().unwrap_or(self.repo.git_dir())
    }
}

/// The commits of a range and the version tags among them.
pub struct History {
    /// The range's tip (HEAD unless `--range …B`).
    pub tip: ObjectId,
    /// Newest first.
    pub commits: Vec<HistoryCommit>,
    /// The version tags on those commits, oldest version first.
    pub tags: Vec<VersionTag>,
}

/// Reads `range` (`A..B`, either side empty for HEAD; `None`: all of HEAD's history).
pub fn history(repo: &Repo, range: Option<&str>, pattern: &TagPattern) -> Result<History, Error> {
    let gix = repo.gix();
    let (hidden_rev, tip_rev) = match range {
        None => (None, "HEAD"),
        Some(spec) => match spec.split_once("..") {
            Some((a, b)) if !b.starts_with('.') => (
                Some(if a.is_empty() { "HEAD" } else { a }),
                if b.is_empty() { "HEAD" } else { b },
            ),
            _ => return Err(usage(format!("--range expects A..B (got {spec:?})"))),
        },
    };
    if repo.is_unborn() && tip_rev == "HEAD" {
        return Err(Error::Git("HEAD has no commits yet".to_owned()));
    }
    let tip = repo.resolve_commit(tip_rev)?;
    let hidden: HashSet<ObjectId> = match hidden_rev {
        Some(rev) => {
            let base = repo.resolve_commit(rev)?;
            history::walk(gix, &[base], &HashSet::new())?
                .into_iter()
                .map(|c| c.id)
                .collect()
        }
        None => HashSet::new(),
    };
    let commits = history::walk(gix, &[tip], &hidden)?;
    let ids: HashSet<ObjectId> = commits.iter().map(|c| c.id).collect();
    let tags = history::version_tags(gix, pattern)?
        .into_iter()
        .filter(|t| ids.contains(&t.commit))
        .collect();
    Ok(History { tip, commits, tags })
}

/// Today's date in UTC (`SOURCE_DATE_EPOCH` when set, for reproducible builds).
pub fn today() -> String {
    let secs = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<i64>().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| i64::try_from(d.as_secs()).unwrap_or(0))
                .unwrap_or(0)
        });
    date_of(secs)
}

/// Checks a `--date` value: a calendar date written `YYYY-MM-DD`.
pub fn valid_date(s: &str) -> bool {
    jitcommit_core::changelog::is_date(s)
}

/// A version given on the command line: `1.2.0`, or a tag name the pattern reads.
pub fn parse_version(s: &str, pattern: &TagPattern) -> Option<jitcommit_core::changelog::Version> {
    jitcommit_core::changelog::Version::parse(s)
        .ok()
        .or_else(|| pattern.version(s))
}
