//! Gain: docs/benchmarks.md, section `check-speed` ("Earlier, at 9e8b70a", issue 32):
//! reading each kept commit's headers through gix's full parser cost 14 M of an
//! untraced `--range`'s 248 M instructions on commitizen's 2,540 commits (every
//! multi-line signature unfolded into a new buffer); with the hand reader and the
//! message taken in place, among the round's other changes, 248 → 207 M. Section
//! `draft-speed-history` ("The path history reads only trees and parents"): the path
//! history reads a commit's tree and parents from its first ~450 bytes. Re-measured
//! when the three parsers became this one, with [`tests::headers_against_gix`]
//! (ignored: `JITCOMMIT_HEADERS_REPO=<git dir> cargo test --release -p jitcommit-core
//! headers_against_gix -- --ignored --nocapture`), on commitizen's 6,394 commits
//! (1,364 signed, 3.25 MB), best of 7 on a shared 2-core machine: the whole headers and
//! message 2.67 ms by hand against 3.60 ms by gix (1.35×), tree and parents 2.03 against
//! 2.68 ms (1.32×). Below the folder's 2×: this reader is to go back to gix's
//! [`by_gix`] (issue 47), which reads a commit's start as safely (it returns nothing
//! unless the author line after the parents parses).
//! Guard: `commit_tests.rs` beside it: against `git log` and `git cat-file` on commits
//! git wrote (merges, an octopus, `encoding` headers, `gpgsig` and `mergetag`
//! headers, a message without a trailing newline, non-UTF-8 messages), and, in
//! [`tests`], against gix's `CommitRefIter` on hand-made and random headers.
//! Waits for: a gix commit parser that skips the extra headers it is not asked for
//! instead of unfolding each multi-line one into a new buffer (`CommitRefIter`'s
//! `ExtraHeader` token is a `Cow` it fills, wanted or not), and that tells a start
//! cut short after the parents from a malformed commit.
//!
//! The one hand-written reader of a commit's headers, for the range walk (parents and
//! committer time, `repo/walk.rs`), the message read (tree, parents, message,
//! `repo/commits.rs`) and the path history (tree and parents of a commit's first bytes,
//! its author and subject, `repo/history.rs`). It takes a commit as git writes it,
//! with gix's header checks and gix's signature parser, and leaves anything less
//! usual to gix ([`by_gix`]): an `encoding` header with continuation lines, a header
//! that is not `name value`, no blank line before the message.

use std::ops::Range;

use gix::bstr::ByteSlice;

use crate::repo::ObjectId;

/// What [`read`] finds in a commit's headers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::repo) struct Headers {
    pub(in crate::repo) tree: ObjectId,
    /// Where the author line's value is (`name <email> time zone`).
    pub(in crate::repo) author: Range<usize>,
    /// The committer's time in seconds, as gix reads it.
    pub(in crate::repo) time: i64,
    /// Where the message starts (after the blank line).
    pub(in crate::repo) message: usize,
}

/// The tree of commit `data` (its start, or all of it) and where the line after the
/// parents starts; each parent is handed to `parent` in order. `None` when the start
/// does not settle the parents (it ends before a line that is not a `parent` one) or a
/// line looks unusual: the parents handed over then are to be dropped.
pub(in crate::repo) fn tree_and_parents(
    data: &[u8],
    kind: gix::hash::Kind,
    parent: &mut impl FnMut(ObjectId),
) -> Option<(ObjectId, usize)> {
    let (tree, mut at) = id_line(data, b"tree", kind)?;
    loop {
        let rest = &data[at..];
        if rest.starts_with(b"parent ") {
            let (id, n) = id_line(rest, b"parent", kind)?;
            parent(id);
            at += n;
        } else if rest.len() >= "parent ".len() {
            return Some((tree, at));
        } else {
            return None;
        }
    }
}

/// Bytes of a commit read for its tree and parents: the `tree` line, two `parent` lines
/// and the start of the line after them, which says whether a third parent follows
/// (then, or when a header is unusual, the commit is read whole), and [`LEAD_BYTES`]
/// more for the author, the committer and the subject.
pub(in crate::repo) fn head_bytes(hash: gix::hash::Kind) -> usize {
    let hex = hash.len_in_hex();
    "tree \n".len() + hex + 2 * ("parent \n".len() + hex) + "parent ".len() + LEAD_BYTES
}

/// Bytes read past the parents: an author and a committer line and a subject, as most
/// commits have them (a signed commit's signature comes before its subject: its
/// message is read whole).
const LEAD_BYTES: usize = 300;

/// `name <hex id>\n` at the start of `rest`: the id and the line's length.
fn id_line(rest: &[u8], name: &[u8], kind: gix::hash::Kind) -> Option<(ObjectId, usize)> {
    let hex = kind.len_in_hex();
    let r = rest.strip_prefix(name)?.strip_prefix(b" ")?;
    if r.get(hex) != Some(&b'\n') || !r[..hex].iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    Some((ObjectId::from_hex(&r[..hex]).ok()?, name.len() + hex + 2))
}

/// The headers of commit `data` as gix's commit parser reads them, read by hand (see
/// the module docs); each parent is handed to `parent` in order. `None` when the
/// commit is less usual: [`by_gix`] reads it then (the parents handed over are to be
/// dropped). gix would unfold every multi-line header (a signed commit's `gpgsig`) into
/// a new buffer only for it to be dropped here.
pub(in crate::repo) fn read(
    data: &[u8],
    kind: gix::hash::Kind,
    parent: &mut impl FnMut(ObjectId),
) -> Option<Headers> {
    let (tree, mut at) = tree_and_parents(data, kind, parent)?;
    let (mut author, mut time) = (0..0, 0);
    for name in [&b"author"[..], b"committer"] {
        let r = data[at..].strip_prefix(name)?.strip_prefix(b" ")?;
        let end = r.find_byte(b'\n')?;
        let mut value = &r[..end];
        let who = gix::actor::SignatureRef::from_bytes_consuming(&mut value).ok()?;
        if !value.is_empty() {
            return None;
        }
        let start = at + name.len() + 1;
        if name == b"author" {
            author = start..start + end;
        } else {
            time = who.seconds();
        }
        at = start + end + 1;
    }
    loop {
        let rest = &data[at..];
        if rest.first() == Some(&b'\n') {
            return Some(Headers {
                tree,
                author,
                time,
                message: at + 1,
            });
        }
        // `name value\n`, then any continuation lines, each ` more\n`.
        let name_end = rest.find_byteset(b" \n").filter(|&n| n > 0)?;
        if rest[name_end] != b' ' {
            return None;
        }
        let mut n = name_end + 1 + rest[name_end + 1..].find_byte(b'\n')? + 1;
        let single = n;
        while rest.get(n) == Some(&b' ') {
            n += rest[n..].find_byte(b'\n')? + 1;
        }
        if n != single && &rest[..name_end] == b"encoding" {
            return None;
        }
        at += n;
    }
}

/// How far [`by_gix`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::repo) enum Upto {
    /// The tree and the parents, and the token after them.
    Parents,
    /// On to the committer.
    Committer,
    /// Every token, the message last.
    Message,
}

/// What [`by_gix`] read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::repo) struct ByGix<'a> {
    pub(in crate::repo) tree: ObjectId,
    /// The committer's time in seconds (0 when not read).
    pub(in crate::repo) time: i64,
    /// The message (empty when not read).
    pub(in crate::repo) message: &'a [u8],
}

/// The headers of commit `data` by gix's parser (`CommitRefIter`), for the commits
/// [`read`] leaves to it, read as far as `upto` says; each parent is handed to `parent`
/// in order. `None` when a token up to there does not parse or the tree is not first.
pub(in crate::repo) fn by_gix<'a>(
    data: &'a [u8],
    kind: gix::hash::Kind,
    parent: &mut impl FnMut(ObjectId),
    upto: Upto,
) -> Option<ByGix<'a>> {
    use gix::objs::commit::ref_iter::Token;
    let mut tokens = gix::objs::CommitRefIter::from_bytes(data, kind);
    let Some(Ok(Token::Tree { id: tree })) = tokens.next() else {
        return None;
    };
    let mut out = ByGix {
        tree,
        time: 0,
        message: &[],
    };
    for token in tokens {
        match token.ok()? {
            Token::Parent { id } => parent(id),
            _ if upto == Upto::Parents => break,
            Token::Committer { signature } => {
                out.time = signature.seconds();
                if upto == Upto::Committer {
                    break;
                }
            }
            Token::Message(m) => out.message = m,
            _ => {}
        }
    }
    Some(out)
}

/// The value of the `encoding` header of commit `data` as git finds it (the first
/// header line named so; the headers end at the first empty line, and a continuation
/// line starts with a space and is no header of its own).
pub(in crate::repo) fn encoding(data: &[u8]) -> Option<Vec<u8>> {
    for line in data.split(|&b| b == b'\n') {
        if line.is_empty() {
            return None;
        }
        if let Some(value) = line.strip_prefix(b"encoding ") {
            return Some(value.to_vec());
        }
    }
    None
}

#[cfg(test)]
#[path = "commit_tests.rs"]
#[allow(clippy::unwrap_used)]
mod git_tests;

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::{ObjectId, Upto, by_gix};
    use gix::bstr::ByteSlice;
    use proptest::prelude::*;

    const SHA1: gix::hash::Kind = gix::hash::Kind::Sha1;

    /// (tree, parents, committer time, message) as a reader gives them.
    type Read = (ObjectId, Vec<ObjectId>, i64, Vec<u8>);

    /// What the hand reader gives.
    fn by_hand(data: &[u8]) -> Option<Read> {
        let mut parents = Vec::new();
        let h = super::read(data, SHA1, &mut |p| parents.push(p))?;
        Some((h.tree, parents, h.time, data[h.message..].to_vec()))
    }

    /// What gix's parser gives.
    fn gix(data: &[u8]) -> Option<Read> {
        let mut parents = Vec::new();
        let g = by_gix(data, SHA1, &mut |p| parents.push(p), Upto::Message)?;
        Some((g.tree, parents, g.time, g.message.to_vec()))
    }

    const TREE: &str = "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n";
    const P1: &str = "parent 1111111111111111111111111111111111111111\n";
    const P2: &str = "parent 2222222222222222222222222222222222222222\n";
    const WHO: &str = "A U Thor <a@example.com> 1700000000 +0100\n";

    fn commit(parents: &str, extra: &str, rest: &str) -> Vec<u8> {
        format!("{TREE}{parents}author {WHO}committer {WHO}{extra}{rest}").into_bytes()
    }

    #[test]
    fn reads_what_gix_reads() {
        let sig = "gpgsig -----BEGIN PGP SIGNATURE-----\n \n abc\n -----END PGP SIGNATURE-----\n";
        for (data, read) in [
            (commit("", "", "\nfeat: x\n"), true),
            (commit(P1, "", "\nfeat: x\n\nbody\n"), true),
            (commit(&format!("{P1}{P2}"), "", "\nMerge\n"), true),
            (commit(P1, sig, "\nsigned\n"), true),
            (commit(P1, "encoding ISO-8859-1\n", "\nlatin\n"), true),
            (
                commit(
                    P1,
                    &format!("encoding UTF-8\n{sig}mergetag object 1\n x\n"),
                    "\nm\n",
                ),
                true,
            ),
            (commit(P1, "", "\n"), true),
            (commit(P1, "", "\n\n\nlate\n"), true),
            (commit(P1, "", ""), false),
            (commit(P1, "", "no blank line\n"), false),
            (commit(P1, "encoding UTF-8\n more\n", "\nm\n"), false),
            (commit(P1, " leading space\n", "\nm\n"), false),
            (commit(P1, "gpgsig x\n cut", ""), false),
            (commit(P1, "novalue\n", "\nm\n"), false),
            (
                format!("{TREE}parent 12\nauthor {WHO}committer {WHO}\nm\n").into_bytes(),
                false,
            ),
            (
                format!("{TREE}author {WHO}committer nobody\n\nm\n").into_bytes(),
                false,
            ),
            (
                format!("{P1}{TREE}author {WHO}committer {WHO}\nm\n").into_bytes(),
                false,
            ),
        ] {
            let text = String::from_utf8_lossy(&data);
            assert_eq!(by_hand(&data).is_some(), read, "{text}");
            if read {
                assert_eq!(by_hand(&data), gix(&data), "{text}");
                assert_eq!(by_hand(&data).unwrap().2, 1_700_000_000, "{text}");
            }
        }
    }

    #[test]
    fn a_start_settles_the_parents_only_past_them() {
        let data = commit(&format!("{P1}{P2}"), "", "\nm\n");
        let whole = TREE.len() + P1.len() + P2.len();
        for cut in 0..data.len() {
            let mut parents = Vec::new();
            let read = super::tree_and_parents(&data[..cut], SHA1, &mut |p| parents.push(p));
            // Settled once seven bytes of the author line show (no parent line can
            // start there).
            if cut >= whole + "parent ".len() {
                assert_eq!(read.map(|r| r.1), Some(whole), "{cut}");
                assert_eq!(parents.len(), 2);
            } else {
                assert_eq!(read, None, "{cut}");
            }
        }
    }

    proptest! {
        /// Whatever the hand reader takes, gix's parser reads the same way; and gix
        /// read as far as the parents or the committer gives the same parents.
        #[test]
        fn takes_nothing_gix_reads_otherwise(
            parts in proptest::collection::vec(prop_oneof![
                Just(TREE.to_owned()), Just(P1.to_owned()), Just(format!("author {WHO}")),
                Just(format!("committer {WHO}")), Just("encoding UTF-8\n".to_owned()),
                Just("gpgsig a\n".to_owned()), Just(" b\n".to_owned()), Just(" \n".to_owned()),
                Just("\n".to_owned()), Just("x".to_owned()), Just("author x\n".to_owned()),
                Just("k v".to_owned()),
            ], 0..10),
        ) {
            let data = format!("{TREE}{P1}author {WHO}committer {WHO}{}", parts.concat())
                .into_bytes();
            if let Some(read) = by_hand(&data) {
                prop_assert_eq!(Some(read.clone()), gix(&data));
                for upto in [Upto::Parents, Upto::Committer] {
                    let mut parents = Vec::new();
                    let g = by_gix(&data, SHA1, &mut |p| parents.push(p), upto).unwrap();
                    prop_assert_eq!((g.tree, &parents), (read.0, &read.1));
                }
            }
        }
    }

    /// A micro-measure of this reader against gix's on a repository's commits (its
    /// packs and loose objects, every commit `git rev-list --all` lists): ignored,
    /// run by hand with `JITCOMMIT_HEADERS_REPO` naming a git directory, in a build
    /// with optimisations (`cargo test --release -p jitcommit-core headers_against_gix
    /// -- --ignored --nocapture`, without the tests' build configuration).
    #[test]
    #[ignore = "a measurement, run by hand"]
    fn headers_against_gix() {
        let Some(dir) = std::env::var_os("JITCOMMIT_HEADERS_REPO") else {
            return;
        };
        let repo = gix::open(&dir).unwrap();
        let out = std::process::Command::new("git")
            .arg("--git-dir")
            .arg(&dir)
            .args(["rev-list", "--all"])
            .output()
            .unwrap();
        let commits: Vec<Vec<u8>> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| {
                let id = ObjectId::from_hex(l.as_bytes()).unwrap();
                repo.find_object(id).unwrap().data.clone()
            })
            .collect();
        let kind = repo.object_hash();
        let bytes: usize = commits.iter().map(Vec::len).sum();
        let time = |f: &dyn Fn(&[u8]) -> usize| {
            let mut best = std::time::Duration::MAX;
            for _ in 0..7 {
                let t = std::time::Instant::now();
                let n: usize = commits.iter().map(|c| f(c)).sum();
                best = best.min(t.elapsed());
                std::hint::black_box(n);
            }
            best
        };
        let hand_msg = time(&|c| {
            let mut n = 0;
            super::read(c, kind, &mut |_| n += 1).map_or(0, |h| h.message + n)
        });
        let gix_msg = time(&|c| {
            let mut n = 0;
            by_gix(c, kind, &mut |_| n += 1, Upto::Message).map_or(0, |g| g.message.len() + n)
        });
        let hand_start = time(&|c| {
            let mut n = 0;
            super::tree_and_parents(c, kind, &mut |_| n += 1).map_or(0, |r| r.1 + n)
        });
        let gix_start = time(&|c| {
            let mut n = 0;
            by_gix(c, kind, &mut |_| n += 1, Upto::Parents).map_or(0, |_| n)
        });
        let signed = commits.iter().filter(|c| c.find(b"\ngpgsig ").is_some());
        println!(
            "{} commits ({} signed, {bytes} bytes), best of 7:\n\
             message and parents: hand {hand_msg:?}, gix {gix_msg:?} ({:.2}x)\n\
             tree and parents: hand {hand_start:?}, gix {gix_start:?} ({:.2}x)",
            commits.len(),
            signed.count(),
            gix_msg.as_secs_f64() / hand_msg.as_secs_f64(),
            gix_start.as_secs_f64() / hand_start.as_secs_f64(),
        );
    }
}
