//! What the repository's recent history says about some paths: which commit types
//! and scopes touched them, and the subjects people wrote for them. The offline draft
//! asks for the types when the change itself does not say which type it is (a
//! modification with no new file and no new public item); a model draft's prompt
//! shows the counts as evidence and the subjects as examples (docs/draft.md).

use std::collections::{BTreeMap, BTreeSet};

use gix::objs::tree::EntryMode;

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
    /// The type at least [`AGREEING`] commits gave and more than half of the commits
    /// of `allowed` types counted with it, exact matches first, then the directory neighbours;
    /// `None` when no type is that clear (one earlier commit never decides alone).
    pub fn agreed(&self, allowed: impl Fn(&str) -> bool) -> Option<&str> {
        [&self.exact, &self.near].into_iter().find_map(|counts| {
            let total: usize = counts
                .iter()
                .filter(|(t, _)| allowed(t))
                .map(|(_, n)| n)
                .sum();
            counts
                .iter()
                .filter(|(t, n)| allowed(t) && **n >= AGREEING && **n * 2 > total)
                .max_by(|a, b| a.1.cmp(b.1).then_with(|| b.0.cmp(a.0)))
                .map(|(t, _)| t.as_str())
        })
    }
}

/// How many earlier commits must agree on a type before [`TypeHistory::agreed`] gives it.
pub const AGREEING: usize = 2;

/// Most subjects [`Repo::path_history`] keeps.
pub const MAX_SUBJECTS: usize = 8;

/// The longest subject kept, in bytes (longer ones are skipped: no convention's).
const SUBJECT_BYTES: usize = 200;

/// One walk of recent history for some paths: the types ([`TypeHistory`]), the
/// scopes, and the subjects of the commits that changed them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PathHistory {
    /// The commit types.
    pub types: TypeHistory,
    /// scope → commits that changed one of the paths themselves (lower-cased).
    pub scopes: BTreeMap<String, usize>,
    /// The subjects of the most recent human commits that changed one of the paths
    /// themselves, newest first, then of those that changed a file beside one, at
    /// most [`MAX_SUBJECTS`]: each one line that the grammar reads as a
    /// `type(scope): summary`, never a bot's (an author name or e-mail with `[bot]`,
    /// `dependabot` or `renovate`), never repeated. Unredacted: repository text.
    pub subjects: Vec<String>,
}

/// An author that is a bot, whose subjects teach nothing about the project's words.
fn is_bot(name: &str, email: &str) -> bool {
    let (name, email) = (name.to_ascii_lowercase(), email.to_ascii_lowercase());
    [&name, &email]
        .iter()
        .any(|s| s.contains("[bot]") || s.contains("dependabot") || s.contains("renovate-bot"))
        || name == "renovate"
}

impl Repo {
    /// The types of the last `limit` non-merge commits reachable from HEAD (newest first)
    /// that changed one of `paths` or a file beside one, each commit diffed against its
    /// first parent without rename detection. An unborn HEAD has no history. The type is
    /// the subject's `type` as the grammar reads it, lower-cased; a subject without one
    /// does not count.
    pub fn type_history(&self, paths: &[String], limit: usize) -> Result<TypeHistory, RepoError> {
        Ok(self.path_history(paths, limit)?.types)
    }

    /// [`Repo::type_history`], with the scopes and the subjects of the same walk
    /// ([`PathHistory`]): one walk of at most `limit` commits.
    pub fn path_history(&self, paths: &[String], limit: usize) -> Result<PathHistory, RepoError> {
        let mut all = PathHistory::default();
        let mut near_subjects = Vec::new();
        let Some(head) = self.head_commit() else {
            return Ok(all);
        };
        let out = &mut all.types;
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
            let parsed = crate::message::parse(subject).subject;
            let Some(kind) = parsed.kind else {
                continue;
            };
            let kind = kind.value.to_lowercase();
            let scope = parsed.scope.map(|s| s.value.to_lowercase());
            let well_formed = parsed.summary.is_some_and(|s| !s.value.trim().is_empty())
                && subject.len() <= SUBJECT_BYTES
                && !subject.chars().any(char::is_control);
            let (old, new) = self.trees_of(id)?;
            let old = old.unwrap_or_else(|| ObjectId::empty_tree(new.kind()));
            let (exact, near) = match self.touches(old, new, &files, &dirs)? {
                Some(found) => found,
                None => self.touches_by_diff(old, new, &files, &dirs)?,
            };
            let counts = if exact {
                &mut out.exact
            } else if near {
                &mut out.near
            } else {
                continue;
            };
            *counts.entry(kind).or_default() += 1;
            if exact && let Some(scope) = scope {
                *all.scopes.entry(scope).or_default() += 1;
            }
            let kept = if exact {
                &mut all.subjects
            } else {
                &mut near_subjects
            };
            if well_formed
                && kept.len() < MAX_SUBJECTS
                && !kept.iter().any(|s| s == subject)
                && !self.authored_by_bot(id)
            {
                kept.push(subject.to_owned());
            }
        }
        for s in near_subjects {
            if all.subjects.len() >= MAX_SUBJECTS {
                break;
            }
            if !all.subjects.contains(&s) {
                all.subjects.push(s);
            }
        }
        Ok(all)
    }

    /// The commit's author is a bot ([`is_bot`]); an unreadable commit is taken for one.
    fn authored_by_bot(&self, id: ObjectId) -> bool {
        let Ok(c) = self.repo.find_commit(id) else {
            return true;
        };
        let Ok(a) = c.author() else {
            return true;
        };
        is_bot(
            &String::from_utf8_lossy(a.name),
            &String::from_utf8_lossy(a.email),
        )
    }

    /// Whether going from tree `old` to `new` changes one of `files` (exact) or another
    /// file directly in one of `dirs` (near), as a diff of the two trees without rename
    /// detection would list them, found by looking each directory up on both sides: a
    /// directory with the same id on both sides changed nothing, and only the directories
    /// that differ are read, one level deep. `None` when a tree cannot be trusted (the
    /// caller diffs the trees then).
    fn touches(
        &self,
        old: ObjectId,
        new: ObjectId,
        files: &BTreeSet<&str>,
        dirs: &BTreeSet<&str>,
    ) -> Result<Option<(bool, bool)>, RepoError> {
        let mut near = false;
        for dir in dirs {
            let (a, b) = if dir.is_empty() {
                (Some(old), Some(new))
            } else {
                let side = |root| -> Result<Option<Option<ObjectId>>, RepoError> {
                    Ok(match self.lookup_path(root, dir.as_bytes())? {
                        None => None,
                        Some(Some((mode, id))) if mode.is_tree() => Some(Some(id)),
                        Some(_) => Some(None),
                    })
                };
                let (Some(a), Some(b)) = (side(old)?, side(new)?) else {
                    return Ok(None);
                };
                (a, b)
            };
            if a == b {
                continue;
            }
            // The directory's own non-directory entries on each side, in byte order (a
            // tree sorts its files by name; only directories sort as `name/`).
            let hash = self.repo.object_hash();
            let (ta, tb) = (
                self.tree(a.unwrap_or_else(|| ObjectId::empty_tree(hash)))?,
                self.tree(b.unwrap_or_else(|| ObjectId::empty_tree(hash)))?,
            );
            let (Some(ea), Some(eb)) = (ta.entries(), tb.entries()) else {
                return Ok(None);
            };
            let (fa, fb) = (files_of(ea), files_of(eb));
            let (mut i, mut j) = (0, 0);
            while i < fa.len() || j < fb.len() {
                let name = match (fa.get(i), fb.get(j)) {
                    (Some(x), Some(y)) if x.0 == y.0 => {
                        (i, j) = (i + 1, j + 1);
                        if x.1 == y.1 {
                            continue;
                        }
                        x.0
                    }
                    (Some(x), Some(y)) if x.0 < y.0 => {
                        i += 1;
                        x.0
                    }
                    (Some(x), None) => {
                        i += 1;
                        x.0
                    }
                    (_, Some(y)) => {
                        j += 1;
                        y.0
                    }
                    (None, None) => break,
                };
                let name = String::from_utf8_lossy(name);
                let path = if dir.is_empty() {
                    name.into_owned()
                } else {
                    format!("{dir}/{name}")
                };
                if files.contains(path.as_str()) {
                    return Ok(Some((true, true)));
                }
                near = true;
            }
        }
        Ok(Some((false, near)))
    }

    /// [`Repo::touches`] by diffing the two trees.
    fn touches_by_diff(
        &self,
        old: ObjectId,
        new: ObjectId,
        files: &BTreeSet<&str>,
        dirs: &BTreeSet<&str>,
    ) -> Result<(bool, bool), RepoError> {
        let mut near = false;
        for e in &self.diff_trees(Some(old), new, None)? {
            let p = String::from_utf8_lossy(&e.change.path);
            if files.contains(p.as_ref()) {
                return Ok((true, true));
            }
            near |= dirs.contains(p.rsplit_once('/').map_or("", |(d, _)| d));
        }
        Ok((false, near))
    }
}

/// The non-directory entries of a tree's entries, as (name, (mode, id)).
fn files_of<'a>(
    entries: impl Iterator<Item = (&'a [u8], EntryMode, ObjectId)>,
) -> Vec<(&'a [u8], (u16, ObjectId))> {
    entries
        .filter(|(_, mode, _)| !mode.is_tree())
        .map(|(name, mode, id)| (name, (mode.value(), id)))
        .collect()
}
