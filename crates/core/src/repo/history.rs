//! What the repository's recent history says about some paths: which commit types
//! touched them. The offline draft asks when the change itself does not say which type
//! it is (a modification with no new file and no new public item).

use std::collections::{BTreeMap, BTreeSet};

use super::{ObjectId, Repo, RepoError};

/// How many recent commits a draft reads: enough for a project's habits, cheap enough
/// for a hook (one tree diff each, no blob read).
pub const HISTORY_COMMITS: usize = 200;

/// Commit types counted over recent history, for the paths a draft describes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TypeHistory {
    /// type → commits that changed one of the paths themselves.
    pub exact: BTreeMap<String, usize>,
    /// type → commits that changed another file in one of the paths' directories.
    pub near: BTreeMap<String, usize>,
}

impl TypeHistory {
    /// The type counted most, exact matches first, then the directory neighbours; ties
    /// go to the type that sorts first, so the answer is deterministic. Only types
    /// `allowed` accepts count.
    pub fn most_used(&self, allowed: impl Fn(&str) -> bool) -> Option<&str> {
        [&self.exact, &self.near].into_iter().find_map(|counts| {
            counts
                .iter()
                .filter(|(t, _)| allowed(t))
                .max_by(|a, b| a.1.cmp(b.1).then_with(|| b.0.cmp(a.0)))
                .map(|(t, _)| t.as_str())
        })
    }
}

impl Repo {
    /// The types of the last `limit` non-merge commits reachable from HEAD (newest first)
    /// that changed one of `paths` or a file beside one, each commit diffed against its
    /// first parent without rename detection. An unborn HEAD has no history. The type is
    /// the subject's `type` as the grammar reads it, lower-cased; a subject without one
    /// does not count.
    pub fn type_history(&self, paths: &[String], limit: usize) -> Result<TypeHistory, RepoError> {
        let mut out = TypeHistory::default();
        let Some(head) = self.head_commit() else {
            return Ok(out);
        };
        let files: BTreeSet<&str> = paths.iter().map(String::as_str).collect();
        let dirs: BTreeSet<&str> = paths
            .iter()
            .map(|p| p.rsplit_once('/').map_or("", |(d, _)| d))
            .collect();
        let walk = self
            .repo
            .rev_walk([head])
            .all()
            .map_err(|e| RepoError::Walk {
                tips: vec![head],
                shallow: self.is_shallow(),
                source: Box::new(e),
            })?;
        let mut seen = 0;
        for info in walk {
            if seen >= limit {
                break;
            }
            let Ok(info) = info else { break };
            let id: ObjectId = info.id;
            let (raw, parents) = self.commit_message_and_parents(id)?;
            if parents > 1 {
                continue;
            }
            seen += 1;
            let text = String::from_utf8_lossy(&raw);
            let subject = text.lines().next().unwrap_or("");
            let Some(kind) = crate::message::parse(subject).subject.kind else {
                continue;
            };
            let kind = kind.value.to_lowercase();
            let (old, new) = self.trees_of(id)?;
            let changed = self.diff_trees(old, new, None)?;
            let mut exact = false;
            let mut near = false;
            for e in &changed {
                let p = String::from_utf8_lossy(&e.change.path);
                if files.contains(p.as_ref()) {
                    exact = true;
                    break;
                }
                near |= dirs.contains(p.rsplit_once('/').map_or("", |(d, _)| d));
            }
            let counts = if exact {
                &mut out.exact
            } else if near {
                &mut out.near
            } else {
                continue;
            };
            *counts.entry(kind).or_default() += 1;
        }
        Ok(out)
    }
}
