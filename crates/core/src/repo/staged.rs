//! The staged set: HEAD's tree (or the empty tree) against the index git names in
//! `GIT_INDEX_FILE`, with rename detection as `git diff --cached` does it, and the
//! staged column of `git status --short`.

use super::patch::Origin;
use super::probe::plain_entry;
use super::quote::quote_path;
use super::types::Entry;
use super::{Change, ChangeKind, FileDiff, ObjectId, Repo, RepoError, S_IFMT, StagedState};

impl Repo {
    /// The staged changes, HEAD → index, sorted bytewise by path as git sorts them. Cheap:
    /// no blob is diffed except the candidates of an inexact rename.
    pub fn staged_changes(&self) -> Result<Vec<Change>, RepoError> {
        Ok(self
            .staged_entries(self.rewrites())?
            .into_iter()
            .map(|e| e.change)
            .collect())
    }

    /// The staged changes for path tracing: renames come as a deletion of the old path and
    /// an addition of the new one — the same set of paths as [`Repo::staged_changes`] —
    /// without reading a single blob for rename detection. This is what commit-msg runs on
    /// every commit.
    pub fn staged_changes_for_tracing(&self) -> Result<Vec<Change>, RepoError> {
        Ok(self
            .staged_entries(None)?
            .into_iter()
            .map(|e| e.change)
            .collect())
    }

    /// The changes of the commit `git commit --amend` is about to make, as path tracing
    /// sees them: an amend replaces HEAD, so its changes run from HEAD's first parent
    /// (the empty tree for a root commit) to the index. Renames come as a deletion and an
    /// addition, as in [`Repo::staged_changes_for_tracing`].
    pub fn amend_changes_for_tracing(&self) -> Result<Vec<Change>, RepoError> {
        let tree = self.staged_base(true)?;
        Ok(self
            .entries_against(tree, None, "HEAD's first parent against the index")?
            .into_iter()
            .map(|e| e.change)
            .collect())
    }

    /// The tree the index is compared with: HEAD's (the empty tree when unborn), or for an
    /// amend HEAD's first parent's (the empty tree for a root commit).
    pub(crate) fn staged_base(&self, amend: bool) -> Result<ObjectId, RepoError> {
        if !amend {
            return Ok(self
                .repo
                .head_tree_id_or_empty()
                .map_err(|e| RepoError::Head(Box::new(e)))?
                .detach());
        }
        let parent = match self.head_commit() {
            Some(head) => self.commit_links(head)?.1,
            None => None,
        };
        Ok(match parent {
            Some(p) => self.commit_links(p)?.0,
            None => ObjectId::empty_tree(self.repo.object_hash()),
        })
    }

    /// The changes of [`Repo::staged_changes_for_tracing`] (or, with `amend`, of
    /// [`Repo::amend_changes_for_tracing`]) at the files `paths` only, found by looking each
    /// path up in the index and in the base tree rather than diffing the two: the fact
    /// store's check asks whether the store file changed on every commit. `None` when a
    /// lookup cannot be trusted (a sparse index, a conflicted or intent-to-add entry, a
    /// malformed tree): compute the full diff then.
    pub fn staged_changes_at(
        &self,
        paths: &[String],
        amend: bool,
    ) -> Result<Option<Vec<Change>>, RepoError> {
        let index = self.read_index()?;
        if index.is_sparse() {
            return Ok(None);
        }
        let base = self.staged_base(amend)?;
        let mut out = Vec::new();
        for p in paths {
            let staged = match index.entry_by_path(p.as_str().into()) {
                Some(e) if !plain_entry(e) => return Ok(None),
                Some(e) => e.mode.to_tree_entry_mode().map(|m| (m, e.id)),
                None => None,
            };
            let Some(in_tree) = self.lookup_path(base, p.as_bytes())? else {
                return Ok(None);
            };
            // A directory at the path is no file there (the full diff lists what is under it).
            let in_tree = in_tree.filter(|(m, _)| !m.is_tree());
            let kind = match (in_tree, staged) {
                (None, None) => continue,
                (Some(_), None) => ChangeKind::Deleted,
                (None, Some(_)) => ChangeKind::Added,
                (Some((tm, tid)), Some((sm, sid))) if tid == sid && tm.kind() == sm.kind() => {
                    continue;
                }
                (Some(_), Some(_)) => ChangeKind::Modified,
            };
            out.push(Change {
                kind,
                path: p.as_str().into(),
                old_path: None,
                old_mode: in_tree.map(|(m, _)| u32::from(m.value())),
                new_mode: staged.map(|(m, _)| u32::from(m.value())),
            });
        }
        Ok(Some(out))
    }

    /// The files of [`Repo::staged_changes_for_tracing`] (or, with `amend`,
    /// [`Repo::amend_changes_for_tracing`]) that are deletions: the base tree's files the
    /// index git names no longer holds. Only the directories the index's cache tree (its
    /// `TREE` extension, which git keeps for every directory a commit did not touch since)
    /// does not vouch for are read, as `git diff --cached` skips them; without a cache
    /// tree, every directory. `None` for a sparse index.
    pub fn staged_removals(&self, amend: bool) -> Result<Option<Vec<Change>>, RepoError> {
        let index = self.read_index()?;
        if index.is_sparse() {
            return Ok(None);
        }
        let base = self.staged_base(amend)?;
        let mut out = Vec::new();
        let mut removed = |path: &[u8], mode: gix::objs::tree::EntryMode, _| {
            if index.entry_by_path(path.into()).is_none() {
                out.push(Change {
                    kind: ChangeKind::Deleted,
                    path: path.into(),
                    old_path: None,
                    old_mode: Some(u32::from(mode.value())),
                    new_mode: None,
                });
            }
        };
        let trusted = self.walk_files(base, index.tree(), &mut Vec::new(), &mut removed, 0)?;
        Ok(trusted.then_some(out))
    }

    /// The staged changes with the object ids on both sides; `rewrites: None` turns rename
    /// detection off.
    pub(crate) fn staged_entries(
        &self,
        rewrites: Option<gix::diff::Rewrites>,
    ) -> Result<Vec<Entry>, RepoError> {
        let tree = self.staged_base(false)?;
        self.entries_against(tree, rewrites, "HEAD against the index")
    }

    /// `tree` against the index git names, sorted by path: through the index's
    /// cache-tree, as git reads it, where that can answer (`cachetree`), else through gix.
    fn entries_against(
        &self,
        tree: ObjectId,
        rewrites: Option<gix::diff::Rewrites>,
        what: &str,
    ) -> Result<Vec<Entry>, RepoError> {
        // Renames are paired as git pairs them (see `renames`); copies are left to gix.
        if let Some(r) = rewrites.filter(|r| r.copies.is_none()) {
            let entries = self.entries_against(tree, None, what)?;
            let mut out = self.pair_renames(entries, r.limit)?;
            sort_entries(&mut out);
            return Ok(out);
        }
        let index = self.read_index()?;
        if rewrites.is_none()
            && let Some(mut out) = self.tree_index_changes(tree, &index)
        {
            sort_entries(&mut out);
            return Ok(out);
        }
        self.gix_entries_against(tree, &index, rewrites, what)
    }

    /// [`Repo::entries_against`] through gix's `tree_index_status`, which reads every
    /// tree under `tree`.
    pub(crate) fn gix_entries_against(
        &self,
        tree: ObjectId,
        index: &gix::index::State,
        rewrites: Option<gix::diff::Rewrites>,
        what: &str,
    ) -> Result<Vec<Entry>, RepoError> {
        let mut out = Vec::new();
        self.repo
            .tree_index_status(
                &tree,
                index,
                None,
                match rewrites {
                    Some(r) => gix::status::tree_index::TrackRenames::Given(r),
                    None => gix::status::tree_index::TrackRenames::Disabled,
                },
                |change, _, _| {
                    out.push(change_from_index(&change));
                    Ok(gix::diff::index::Action::Continue(()))
                },
            )
            .map_err(|e| RepoError::Diff {
                what: what.into(),
                source: Box::new(e),
            })?;
        sort_entries(&mut out);
        Ok(out)
    }

    /// Every path in the index git names (stage 0 and conflicts alike).
    pub fn index_paths(&self) -> Result<Vec<String>, RepoError> {
        let index = self.read_index()?;
        Ok(index
            .entries()
            .iter()
            .map(|e| String::from_utf8_lossy(e.path(&index)).into_owned())
            .collect())
    }

    /// The staged content of `path` (stage 0 of the index git names), `None` when the
    /// index has no such file: what a commit being made will hold.
    pub fn read_staged(&self, path: &str) -> Result<Option<Vec<u8>>, RepoError> {
        let index = self.read_index()?;
        let Some(entry) = index.entry_by_path(path.into()) else {
            return Ok(None);
        };
        let id = entry.id;
        let blob = self
            .repo
            .find_object(id)
            .map_err(|e| self.object_err(id, e))?;
        Ok(Some(blob.detach().data))
    }

    /// The staged set with a unified diff per file (HEAD → index) and the facts a draft needs.
    pub fn staged(&self) -> Result<StagedState, RepoError> {
        Ok(self.staged_lazy(usize::MAX)?.state)
    }

    /// [`Repo::staged`] for a change of any size: the staged set (name and status, no
    /// blob read but for rename detection), with the diffs of its first `read` files
    /// read and the others' left unread ([`FileDiff::read`]) until [`LazyStaged::read`]
    /// asks for one. A change of at most `read` files is read whole, as by
    /// [`Repo::staged`].
    pub fn staged_lazy(&self, read: usize) -> Result<LazyStaged, RepoError> {
        let entries = self.staged_entries(self.rewrites())?;
        let (files, origin) = self.file_diffs_within(&entries, read)?;
        Ok(LazyStaged {
            state: StagedState {
                branch: self.head_branch(),
                initial: self.is_unborn(),
                files,
            },
            entries,
            origin,
        })
    }

    /// Rename tracking as `git diff` configures it: `diff.renames` (default on since git
    /// 2.9, `copies` adds copy detection), 50% similarity, `diff.renameLimit`.
    pub(crate) fn rewrites(&self) -> Option<gix::diff::Rewrites> {
        let setting = self.config_string("diff.renames");
        let copies = match setting.as_deref().map(str::to_ascii_lowercase).as_deref() {
            None => false,
            Some("copies" | "copy") => true,
            Some(v) => {
                if super::parse_bool(v) == Some(false) {
                    return None;
                }
                false
            }
        };
        let mut r = gix::diff::Rewrites {
            copies: copies.then(gix::diff::rewrites::Copies::default),
            percentage: Some(0.5),
            limit: 1000,
            track_empty: true,
        };
        if let Some(limit) = self
            .config_string("diff.renameLimit")
            .and_then(|v| v.trim().parse().ok())
        {
            r.limit = limit;
        }
        Some(r)
    }
}

fn mode_bits(m: gix::index::entry::Mode) -> u32 {
    m.bits()
}

pub(super) fn change_from_index(change: &gix::diff::index::ChangeRef<'_, '_>) -> Entry {
    use gix::diff::index::ChangeRef as C;
    match change {
        C::Addition {
            location,
            entry_mode,
            id,
            ..
        } => Entry {
            change: Change {
                kind: ChangeKind::Added,
                path: location.as_ref().to_owned(),
                old_path: None,
                old_mode: None,
                new_mode: Some(mode_bits(*entry_mode)),
            },
            old_id: None,
            new_id: Some(id.as_ref().to_owned()),
        },
        C::Deletion {
            location,
            entry_mode,
            id,
            ..
        } => Entry {
            change: Change {
                kind: ChangeKind::Deleted,
                path: location.as_ref().to_owned(),
                old_path: None,
                old_mode: Some(mode_bits(*entry_mode)),
                new_mode: None,
            },
            old_id: Some(id.as_ref().to_owned()),
            new_id: None,
        },
        C::Modification {
            location,
            previous_entry_mode,
            entry_mode,
            previous_id,
            id,
            ..
        } => {
            let (old, new) = (mode_bits(*previous_entry_mode), mode_bits(*entry_mode));
            let change = Change {
                kind: if old & S_IFMT == new & S_IFMT {
                    ChangeKind::Modified
                } else {
                    ChangeKind::TypeChanged
                },
                path: location.as_ref().to_owned(),
                old_path: None,
                old_mode: Some(old),
                new_mode: Some(new),
            };
            Entry {
                change,
                old_id: Some(previous_id.as_ref().to_owned()),
                new_id: Some(id.as_ref().to_owned()),
            }
        }
        C::Rewrite {
            source_location,
            source_entry_mode,
            location,
            entry_mode,
            copy,
            source_id,
            id,
            ..
        } => Entry {
            change: Change {
                kind: if *copy {
                    ChangeKind::Copied
                } else {
                    ChangeKind::Renamed
                },
                path: location.as_ref().to_owned(),
                old_path: Some(source_location.as_ref().to_owned()),
                old_mode: Some(mode_bits(*source_entry_mode)),
                new_mode: Some(mode_bits(*entry_mode)),
            },
            old_id: Some(source_id.as_ref().to_owned()),
            new_id: Some(id.as_ref().to_owned()),
        },
    }
}

/// The staged set of [`Repo::staged_lazy`]: its files' diffs read up to a bound, each
/// of the others read when asked for.
#[derive(Debug, Clone)]
pub struct LazyStaged {
    /// The staged set; the files not read yet have [`FileDiff::read`] false.
    pub state: StagedState,
    entries: Vec<Entry>,
    origin: Vec<Origin>,
}

impl LazyStaged {
    /// The diff of `state.files[i]`, read from `repo` now (the file itself when it was
    /// read already); `None` for no such file.
    pub fn read(&self, repo: &Repo, i: usize) -> Result<Option<FileDiff>, RepoError> {
        let Some(f) = self.state.files.get(i) else {
            return Ok(None);
        };
        if f.read {
            return Ok(Some(f.clone()));
        }
        let (n, half, a) = &self.origin[i];
        repo.read_diff(&self.entries[*n], *half, a)
    }
}

/// Sorts as git's diff queue and `git status` do: bytewise by the (new) path.
pub(crate) fn sort_entries(entries: &mut [Entry]) {
    entries.sort_by(|a, b| {
        let (a, b) = (&a.change, &b.change);
        a.path
            .cmp(&b.path)
            .then_with(|| a.old_path.cmp(&b.old_path))
    });
}

/// The staged column of `git status --short` for `changes` (`M  path`, `R  old -> new`),
/// one line each ending in `\n`, paths quoted as git quotes them with the default
/// `core.quotePath=true` (status also quotes paths containing a space).
pub fn status_short(changes: &[Change]) -> String {
    let mut out = String::new();
    for c in changes {
        out.push(c.kind.letter());
        out.push_str("  ");
        if let Some(old) = &c.old_path {
            out.push_str(&quote_path(old.as_ref(), true));
            out.push_str(" -> ");
        }
        out.push_str(&quote_path(c.path.as_ref(), true));
        out.push('\n');
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::type_complexity)]
mod tests {
    use super::*;

    #[test]
    fn status_lines() {
        let changes = vec![
            Change {
                kind: ChangeKind::Renamed,
                path: "new name".into(),
                old_path: Some("old".into()),
                old_mode: Some(0o100644),
                new_mode: Some(0o100644),
            },
            Change {
                kind: ChangeKind::Added,
                path: "z".into(),
                old_path: None,
                old_mode: None,
                new_mode: Some(0o100644),
            },
        ];
        assert_eq!(status_short(&changes), "R  old -> \"new name\"\nA  z\n");
    }
}
