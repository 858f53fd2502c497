//! A commit's headers, read by gix's parser (`CommitRefIter`), for the range walk
//! (parents and committer time, `repo/walk.rs`), the message read (tree, parents,
//! message, `repo/commits.rs`) and the path history (tree and parents of a commit's
//! first bytes, its author and subject, `repo/history.rs`). Each reads only as far as
//! it needs ([`Upto`]): gix's iterator parses a token at a time.
//!
//! Why gix and not a hand reader (issue 47, "Git reading: gix first": a hand reader in
//! `repo/fast/` must show a gain of 2× or more on realistic material): the hand reader
//! these callers used until 2026-12-07 (`repo/fast/commit.rs`) was measured against
//! this one on commitizen's history, 6,394 commits (1,364 signed, 3.25 MB), best of 7
//! on a shared 2-core machine with an optimised build: the whole headers and message
//! 2.67 ms by hand against 3.60 ms by gix (1.35×), tree and parents 2.03 against
//! 2.68 ms (1.32×). Below the 2× bar, it went back to gix; the measurement went with
//! it (the ignored test `fast::commit::tests::headers_against_gix`, at 5a1604d).
//!
//! Guard: `commit_tests.rs` beside it, against `git log` and `git cat-file` on commits
//! git wrote (merges, an octopus, `encoding` headers, `gpgsig` and `mergetag` headers,
//! a message without a trailing newline, an empty message, non-UTF-8 messages, SHA-1
//! and SHA-256), every start of each commit included.

use crate::repo::ObjectId;

/// How far [`read`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::repo) enum Upto {
    /// The tree and the parents, and the token after them (the author).
    Parents,
    /// On to the committer.
    Committer,
    /// Every token, the message last.
    Message,
}

/// What [`read`] read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::repo) struct Headers<'a> {
    pub(in crate::repo) tree: ObjectId,
    /// The author, when read: the line after the parents, read at every [`Upto`]
    /// unless the commit ends before it.
    pub(in crate::repo) author: Option<gix::actor::SignatureRef<'a>>,
    /// The committer's time in seconds (0 when not read, or the commit has no
    /// committer line).
    pub(in crate::repo) time: i64,
    /// The message, what follows the empty line after the headers; `None` when not
    /// read, or the commit ends before that line.
    pub(in crate::repo) message: Option<&'a [u8]>,
}

/// The headers of commit `data` by gix's parser, read as far as `upto` says; each
/// parent is handed to `parent` in order. `None` when a token up to there does not
/// parse or the tree is not first (the parents handed over are then to be dropped).
/// A commit that ends early (no author, no committer, no message) is read as far as it
/// goes, as gix's walk reads it: what a caller needs, it checks ([`tree_and_parents`]).
pub(in crate::repo) fn read<'a>(
    data: &'a [u8],
    kind: gix::hash::Kind,
    parent: &mut impl FnMut(ObjectId),
    upto: Upto,
) -> Option<Headers<'a>> {
    use gix::objs::commit::ref_iter::Token;
    let mut tokens = gix::objs::CommitRefIter::from_bytes(data, kind);
    let Some(Ok(Token::Tree { id: tree })) = tokens.next() else {
        return None;
    };
    let mut out = Headers {
        tree,
        author: None,
        time: 0,
        message: None,
    };
    for token in tokens {
        match token.ok()? {
            Token::Parent { id } => parent(id),
            Token::Author { signature } => {
                out.author = Some(signature);
                if upto == Upto::Parents {
                    break;
                }
            }
            Token::Committer { signature } => {
                out.time = signature.seconds();
                if upto == Upto::Committer {
                    break;
                }
            }
            Token::Message(m) => out.message = Some(m),
            Token::Encoding(_) | Token::ExtraHeader(_) | Token::Tree { .. } => {}
        }
    }
    Some(out)
}

/// The tree of commit `start` (its first bytes, or all of it); each parent is handed
/// to `parent` in order. `None` when the start does not settle the parents: it must
/// show the author line after them whole (a start that ends at the end of a parent
/// line may have more parents past it), or when a line up to there does not parse. The
/// parents handed over are then to be dropped.
pub(in crate::repo) fn tree_and_parents(
    start: &[u8],
    kind: gix::hash::Kind,
    parent: &mut impl FnMut(ObjectId),
) -> Option<ObjectId> {
    let h = read(start, kind, parent, Upto::Parents)?;
    h.author.map(|_| h.tree)
}

/// Bytes of a commit read for its tree and parents: the `tree` line, two `parent` lines
/// and the start of the line after them, and [`LEAD_BYTES`] more for the author (which
/// settles the parents, [`tree_and_parents`]), the committer and the subject. A third
/// parent, an author line longer than that, or a signed commit's subject (its
/// signature comes before it) needs the commit whole.
pub(in crate::repo) fn head_bytes(hash: gix::hash::Kind) -> usize {
    let hex = hash.len_in_hex();
    "tree \n".len() + hex + 2 * ("parent \n".len() + hex) + "parent ".len() + LEAD_BYTES
}

/// Bytes read past the parents: an author and a committer line and a subject, as most
/// commits have them.
const LEAD_BYTES: usize = 300;

#[cfg(test)]
#[path = "commit_tests.rs"]
#[allow(clippy::unwrap_used)]
mod git_tests;

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::{Upto, read, tree_and_parents};

    const SHA1: gix::hash::Kind = gix::hash::Kind::Sha1;
    const TREE: &str = "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n";
    const P1: &str = "parent 1111111111111111111111111111111111111111\n";
    const P2: &str = "parent 2222222222222222222222222222222222222222\n";
    const WHO: &str = "A U Thor <a@example.com> 1700000000 +0100\n";

    /// What each depth reads of `data`: (parents, committer time, message) or `None`.
    fn at(data: &str, upto: Upto) -> Option<(usize, i64, Option<Vec<u8>>)> {
        let mut n = 0;
        let h = read(data.as_bytes(), SHA1, &mut |_| n += 1, upto)?;
        Some((n, h.time, h.message.map(<[u8]>::to_vec)))
    }

    #[test]
    fn reads_as_far_as_asked_and_no_further() {
        let whole = format!("{TREE}{P1}{P2}author {WHO}committer {WHO}\nfeat: x\n");
        assert_eq!(at(&whole, Upto::Parents), Some((2, 0, None)));
        assert_eq!(at(&whole, Upto::Committer), Some((2, 1_700_000_000, None)));
        assert_eq!(
            at(&whole, Upto::Message),
            Some((2, 1_700_000_000, Some(b"feat: x\n".to_vec())))
        );
        // A malformed line past where a caller stops is not read; up to there, it is.
        let bad_extra = format!("{TREE}{P1}author {WHO}committer {WHO}x\n\nm\n");
        assert!(at(&bad_extra, Upto::Committer).is_some());
        assert_eq!(at(&bad_extra, Upto::Message), None);
        let bad_committer = format!("{TREE}{P1}author {WHO}committer nobody\n\nm\n");
        assert!(at(&bad_committer, Upto::Parents).is_some());
        assert_eq!(at(&bad_committer, Upto::Committer), None);
        for bad in [
            format!("{P1}{TREE}author {WHO}committer {WHO}\nm\n"),
            format!("{TREE}parent 12\nauthor {WHO}committer {WHO}\nm\n"),
            format!("{TREE}{P1}author nobody\ncommitter {WHO}\nm\n"),
        ] {
            assert_eq!(at(&bad, Upto::Parents), None, "{bad}");
        }
        // A commit that ends early is read as far as it goes (as gix's walk reads it).
        let no_message = format!("{TREE}{P1}author {WHO}committer {WHO}");
        assert_eq!(
            at(&no_message, Upto::Message),
            Some((1, 1_700_000_000, None))
        );
        assert_eq!(
            at(&format!("{TREE}{P1}"), Upto::Committer),
            Some((1, 0, None))
        );
    }

    #[test]
    fn a_start_settles_the_parents_only_once_the_author_line_shows() {
        let data = format!("{TREE}{P1}{P2}author {WHO}committer {WHO}\nm\n");
        let author_end = TREE.len() + P1.len() + P2.len() + "author ".len() + WHO.len();
        for cut in 0..=data.len() {
            let mut parents = Vec::new();
            let got = tree_and_parents(&data.as_bytes()[..cut], SHA1, &mut |p| parents.push(p));
            if cut >= author_end {
                assert!(got.is_some(), "{cut}");
                assert_eq!(parents.len(), 2, "{cut}");
            } else {
                assert_eq!(got, None, "{cut}");
            }
        }
    }
}
