//! What the repository's recent history says about some paths: which commit types
//! and scopes touched them, and the subjects people wrote for them. The offline draft
//! asks for the types when the change itself does not say which type it is (a
//! modification with no new file and no new public item); a model draft's prompt
//! shows the counts as evidence and the subjects as examples (docs/draft.md).

use std::collections::{BTreeMap, BTreeSet};

use gix::objs::tree::EntryMode;

use super::commit::{self, Upto};
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

/// A directory's tree on the two sides of a commit (`None` where it is not a directory).
type DirPair = (Option<ObjectId>, Option<ObjectId>);

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
        // The walk gix's breadth-first `rev_walk` makes (each commit's parents queued in
        // order, once), reading of each commit only its tree and parents: its message
        // only when it changed one of the paths or their directories. A commit that
        // cannot be read ends the walk, as it ends gix's.
        let mut heads = Heads::new(self);
        let mut queue = std::collections::VecDeque::from([head]);
        let mut queued: gix::hashtable::HashSet<ObjectId> = Default::default();
        queued.insert(head);
        let empty = ObjectId::empty_tree(self.repo.object_hash());
        let mut seen = 0;
        while let Some(id) = queue.pop_front() {
            if seen >= limit {
                break;
            }
            let Some(Head {
                tree,
                parents,
                start,
                complete,
            }) = heads.take(id)
            else {
                break;
            };
            for &p in &parents {
                if queued.insert(p) {
                    queue.push_back(p);
                }
            }
            if parents.len() > 1 {
                continue;
            }
            seen += 1;
            // Whether it changed the paths (exact) or their directories (near); `None`
            // when that cannot be told here (the first parent unreadable, a tree
            // missing): the message is read first then, as the commit's type decides
            // whether its trees are compared at all.
            let found = match parents.first() {
                None => Some(empty),
                Some(&p) => heads.peek(p).map(|h| h.tree),
            }
            .and_then(|old| self.touches_or_diff(old, tree, &files, &dirs).ok());
            if found == Some((false, false)) {
                continue;
            }
            // The subject and author from the commit's start when it holds them, else
            // from the whole commit.
            let (text, bot) = match lead(&start, complete, self.repo.object_hash()) {
                Some((subject, bot)) => (subject, Some(bot)),
                None => {
                    let (raw, _) = self.commit_message_and_parents(id)?;
                    (String::from_utf8_lossy(&raw).into_owned(), None)
                }
            };
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
            let (exact, near) = match found {
                Some(found) => found,
                None => {
                    let (old, new) = self.trees_of(id)?;
                    self.touches_or_diff(old.unwrap_or(empty), new, &files, &dirs)?
                }
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
                && !bot.unwrap_or_else(|| self.authored_by_bot(id))
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

    /// [`Repo::touches`], or [`Repo::touches_by_diff`] when the trees cannot be trusted.
    fn touches_or_diff(
        &self,
        old: ObjectId,
        new: ObjectId,
        files: &BTreeSet<&str>,
        dirs: &BTreeSet<&str>,
    ) -> Result<(bool, bool), RepoError> {
        match self.touches(old, new, files, dirs)? {
            Some(found) => Ok(found),
            None => self.touches_by_diff(old, new, files, dirs),
        }
    }

    /// The directory `dir` under the trees `old` and `new` (`None` on a side where it
    /// is not a directory), looked up on both sides a level at a time: once the two
    /// sides are the same tree, everything below is the same, and is not read.
    /// `Ok(None)` when the answer cannot be trusted (a malformed tree, a bad path).
    fn dir_pair(
        &self,
        old: ObjectId,
        new: ObjectId,
        dir: &str,
    ) -> Result<Option<DirPair>, RepoError> {
        let (mut a, mut b) = (Some(old), Some(new));
        if dir.is_empty() {
            return Ok(Some((a, b)));
        }
        let Some(parts) = super::probe::components(dir.as_bytes()) else {
            return Ok(None);
        };
        for part in parts {
            if a == b {
                break;
            }
            for side in [&mut a, &mut b] {
                if let Some(t) = *side {
                    *side = match self.tree(t)?.lookup(part) {
                        None => return Ok(None),
                        Some(Some((mode, id))) if mode.is_tree() => Some(id),
                        Some(_) => None,
                    };
                }
            }
        }
        Ok(Some((a, b)))
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
    /// detection would list them, found by looking each directory up on both sides
    /// ([`Repo::dir_pair`]): a directory with the same id on both sides changed nothing,
    /// and only the directories that differ are read, one level deep. `None` when a tree cannot be trusted (the
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
            let Some((a, b)) = self.dir_pair(old, new, dir)? else {
                return Ok(None);
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

/// One commit as a walk reads it.
struct Head {
    tree: ObjectId,
    parents: Vec<ObjectId>,
    /// The commit's first bytes (empty when read from the commit-graph).
    start: Vec<u8>,
    /// `start` is the whole commit.
    complete: bool,
}

/// The first line of the message of commit `start` (what `lines().next()` of the whole
/// message, read lossily, gives) and whether its author is a bot ([`is_bot`]); `None`
/// when `start` ends before that line does or a header does not parse.
fn lead(start: &[u8], complete: bool, hash: gix::hash::Kind) -> Option<(String, bool)> {
    use gix::bstr::ByteSlice;
    let h = commit::read(start, hash, &mut |_| (), Upto::Message)?;
    let (msg, who) = (h.message?, h.author?);
    let line = match msg.find_byte(b'\n') {
        Some(n) => &msg[..=n],
        None if complete => msg,
        None => return None,
    };
    let bot = is_bot(
        &String::from_utf8_lossy(who.name),
        &String::from_utf8_lossy(who.email),
    );
    Some((String::from_utf8_lossy(line).into_owned(), bot))
}

/// The tree and parents of commit `data` (its start, or all of it); `None` when the
/// start does not settle them or a line up to the author does not parse (the whole
/// commit is read then).
fn parse_head(data: &[u8], hash: gix::hash::Kind) -> Option<(ObjectId, Vec<ObjectId>)> {
    let mut parents = Vec::new();
    let tree = commit::tree_and_parents(data, hash, &mut |p| parents.push(p))?;
    Some((tree, parents))
}

/// The tree and parents of the commits of one history walk, each commit read once: from
/// the commit-graph file when there is one and it has the commit (nothing inflated),
/// else the start of a packed commit only ([`commit::head_bytes`]), anything else through gix.
struct Heads<'r> {
    repo: &'r Repo,
    /// The commit-graph, when git would use it (not with replacement refs).
    graph: Option<gix::commitgraph::Graph>,
    /// Commits read ahead of the walk (first parents), not yet taken.
    read: gix::hashtable::HashMap<ObjectId, Head>,
    want: usize,
    /// The packs are not read when replacement refs are on: gix applies them.
    packs: bool,
    buf: Vec<u8>,
}

impl<'r> Heads<'r> {
    fn new(repo: &'r Repo) -> Self {
        let objects = &repo.repo.objects;
        Heads {
            repo,
            graph: repo.repo.commit_graph_if_enabled().ok().flatten(),
            read: Default::default(),
            want: commit::head_bytes(repo.repo.object_hash()),
            packs: objects.ignore_replacements
                || objects.store_ref().replacements().next().is_none(),
            buf: Vec::new(),
        }
    }

    /// The tree and parents of `id`, read now or earlier; `None` when it cannot be read.
    fn take(&mut self, id: ObjectId) -> Option<Head> {
        match self.read.remove(&id) {
            Some(head) => Some(head),
            None => self.read_head(id),
        }
    }

    /// The tree and parents of `id`, kept for [`Heads::take`].
    fn peek(&mut self, id: ObjectId) -> Option<&Head> {
        if !self.read.contains_key(&id) {
            let head = self.read_head(id)?;
            self.read.insert(id, head);
        }
        self.read.get(&id)
    }

    fn read_head(&mut self, id: ObjectId) -> Option<Head> {
        let hash = self.repo.repo.object_hash();
        if id.kind() != hash {
            return None;
        }
        if let Some(g) = &self.graph
            && let Some(c) = g.lookup(id).map(|at| g.commit_at(at))
            && let Ok(parents) = c
                .iter_parents()
                .map(|p| p.map(|p| g.id_at(p).to_owned()))
                .collect::<Result<Vec<_>, _>>()
        {
            return Some(Head {
                tree: c.root_tree_id().to_owned(),
                parents,
                start: Vec::new(),
                complete: false,
            });
        }
        if self.packs
            && self.repo.read_packed_prefix(&id, self.want, &mut self.buf)
                == Some(gix::object::Kind::Commit)
            && let Some((tree, parents)) = parse_head(&self.buf, hash)
        {
            return Some(Head {
                tree,
                parents,
                // Shorter than asked: the whole commit; longer: a delta, decoded whole.
                complete: self.buf.len() != self.want,
                start: std::mem::take(&mut self.buf),
            });
        }
        // gix's walk: the tree, then the parents up to the first other header.
        let c = self.repo.repo.find_commit(id).ok()?;
        let mut parents = Vec::new();
        let tree = commit::read(&c.data, hash, &mut |p| parents.push(p), Upto::Parents)?.tree;
        Some(Head {
            tree,
            parents,
            start: c.data.clone(),
            complete: true,
        })
    }
}

#[cfg(test)]
#[path = "history_tests.rs"]
#[allow(clippy::unwrap_used)]
mod git_tests;
