//! The commit-header reader (gix's parser) against git, on commits git itself wrote: a root commit,
//! merges (one of three parents), a commit signed by git (`gpgsig`, an SSH signature
//! over several lines), the merge of a signed tag (`mergetag`, the tag and its
//! signature folded into the header), messages in ISO-8859-1 under an `encoding`
//! header and in Latin-1 bytes without one (written by `git hash-object`: git's own
//! commit turns such bytes into UTF-8), a message without a trailing newline, an empty
//! message; in a SHA-1 and a SHA-256 repository.
//!
//! git is the ground truth: `git log --format` for the tree, the parents, the
//! committer time, the `encoding` header and the author, and `git cat-file commit`
//! for the message (what follows the first empty line, where git's own
//! `find_commit_subject` looks). [`read`] must take every one of these commits and read
//! them as git does, as far as each caller reads them; [`tree_and_parents`] must read
//! the same tree and parents from every start of them that shows the author line after
//! the parents whole, and nothing from a shorter one. The `encoding` header, read by
//! hand ([`of_commit`]), must be the one git names.

use std::path::Path;

use super::{Upto, read, tree_and_parents};
use crate::repo::ObjectId;
use crate::repo::fast::encoding::of_commit;
use jitcommit_testkit::{Sandbox, assert_ok, write};

/// git's bytes for `args` in `r`.
fn git_bytes(sb: &Sandbox, r: &Path, args: &[&str]) -> Vec<u8> {
    let out = sb.git_cmd(r).args(args).output().unwrap();
    assert_ok(&out, &args.join(" "));
    out.stdout
}

/// `git commit` in `r` with `extra` arguments and the message in the file `msg` (bytes
/// as given).
fn commit(sb: &Sandbox, r: &Path, extra: &[&str], msg: &[u8]) {
    write(r, ".git/msg", msg);
    let mut args = vec!["commit", "-q", "--allow-empty", "-F", ".git/msg"];
    args.extend(extra);
    git_bytes(sb, r, &args);
}

/// A history with every kind of commit header git writes, in a repository of
/// `format`; the SSH key signs commits and tags.
fn history(sb: &Sandbox, name: &str, format: &str) -> std::path::PathBuf {
    let r = sb.path().join(name);
    std::fs::create_dir_all(&r).unwrap();
    sb.git(
        &r,
        &["init", "-q", "-b", "main", "--object-format", format, "."],
    );
    let key = r.join(".git/key");
    let out = std::process::Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-C", "k", "-f"])
        .arg(&key)
        .output()
        .unwrap();
    assert_ok(&out, "ssh-keygen");
    sb.git(&r, &["config", "gpg.format", "ssh"]);
    sb.git(&r, &["config", "user.signingkey", key.to_str().unwrap()]);
    write(&r, "a.txt", "a\n");
    sb.git(&r, &["add", "a.txt"]);
    commit(sb, &r, &[], b"feat: the root\n");
    for b in ["one", "two"] {
        sb.git(&r, &["checkout", "-qb", b, "main"]);
        write(&r, &format!("{b}.txt"), b);
        sb.git(&r, &["add", "-A"]);
        commit(sb, &r, &[], format!("feat: {b}\n\nbody\n").as_bytes());
    }
    sb.git(&r, &["checkout", "-q", "main"]);
    // An octopus: three parents.
    sb.git(
        &r,
        &["merge", "-q", "--no-ff", "-m", "merge two", "one", "two"],
    );
    sb.git(&r, &["checkout", "-qb", "three", "main~1"]);
    commit(sb, &r, &[], b"fix: three\n");
    sb.git(&r, &["checkout", "-q", "main"]);
    sb.git(
        &r,
        &["merge", "-q", "--no-ff", "-m", "merge three", "three"],
    );
    // Signed by git: a multi-line `gpgsig` header.
    commit(sb, &r, &["-S"], b"feat: signed\n\nthe body\n");
    // A signed tag on a side commit, merged: a `mergetag` header.
    sb.git(&r, &["checkout", "-qb", "tagged", "main~1"]);
    commit(sb, &r, &[], b"docs: tagged\n");
    sb.git(&r, &["tag", "-s", "-m", "a signed tag", "v1"]);
    sb.git(&r, &["checkout", "-q", "main"]);
    sb.git(&r, &["merge", "-q", "--no-ff", "-m", "merge v1", "v1"]);
    // ISO-8859-1 under an `encoding` header, then Latin-1 bytes without one.
    let latin = b"fix: caf\xe9 cr\xe8me\n\nna\xefve\n";
    commit(sb, &r, &[], b"chore: before\n");
    let mut c = sb.git_cmd(&r);
    c.args(["-c", "i18n.commitEncoding=ISO-8859-1"]);
    write(&r, ".git/msg", latin);
    c.args(["commit", "-q", "--allow-empty", "-F", ".git/msg"]);
    assert_ok(&c.output().unwrap(), "commit in ISO-8859-1");
    // git turns a message's Latin-1 bytes into UTF-8 when it commits without an
    // `encoding` header (`verify_utf8`): such a commit, as older tools wrote them, goes
    // in through `hash-object`.
    let (tree, head) = (
        sb.git(&r, &["rev-parse", "HEAD^{tree}"]),
        sb.git(&r, &["rev-parse", "HEAD"]),
    );
    let who = "A U Thor <a@example.com> 1700000000 +0000";
    let mut raw = format!(
        "tree {}\nparent {}\nauthor {who}\ncommitter {who}\n\n",
        tree.trim(),
        head.trim()
    )
    .into_bytes();
    raw.extend_from_slice(latin);
    write(&r, ".git/raw", &raw);
    let id = sb.git(&r, &["hash-object", "-t", "commit", "-w", ".git/raw"]);
    sb.git(&r, &["update-ref", "HEAD", id.trim()]);
    // A message without a trailing newline, and an empty one (`commit-tree` writes the
    // message as given).
    let tree = sb.git(&r, &["rev-parse", "HEAD^{tree}"]);
    for msg in [&b"feat: no newline"[..], b""] {
        write(&r, ".git/msg", msg);
        let id = sb.git(
            &r,
            &["commit-tree", tree.trim(), "-p", "HEAD", "-F", ".git/msg"],
        );
        sb.git(&r, &["update-ref", "HEAD", id.trim()]);
    }
    commit(sb, &r, &["-S"], b"feat: signed last");
    r
}

/// What git says of commit `id`: tree, parents, committer time, encoding header,
/// author name and e-mail, and the raw commit.
struct ByGit {
    tree: ObjectId,
    parents: Vec<ObjectId>,
    time: i64,
    encoding: Option<Vec<u8>>,
    author: (Vec<u8>, Vec<u8>),
    raw: Vec<u8>,
}

fn by_git(sb: &Sandbox, r: &Path, id: &str) -> ByGit {
    let out = git_bytes(
        sb,
        r,
        &[
            "log",
            "-1",
            "--format=%T%x00%P%x00%ct%x00%e%x00%an%x00%ae",
            id,
        ],
    );
    let mut f = out.strip_suffix(b"\n").unwrap().split(|b| *b == 0);
    let mut next = || f.next().unwrap().to_vec();
    let oid = |s: &[u8]| ObjectId::from_hex(s).unwrap();
    let tree = oid(&next());
    let parents = next();
    let parents = parents
        .split(|b| *b == b' ')
        .filter(|p| !p.is_empty())
        .map(oid)
        .collect();
    let time = String::from_utf8(next()).unwrap().parse().unwrap();
    let encoding = Some(next()).filter(|e| !e.is_empty());
    let author = (next(), next());
    let raw = git_bytes(sb, r, &["cat-file", "commit", id]);
    ByGit {
        tree,
        parents,
        time,
        encoding,
        author,
        raw,
    }
}

#[test]
fn commits_git_wrote_are_read_as_git_reads_them() {
    let sb = Sandbox::new();
    for format in ["sha1", "sha256"] {
        let r = history(&sb, format, format);
        let kind = match format {
            "sha1" => gix::hash::Kind::Sha1,
            _ => gix::hash::Kind::Sha256,
        };
        let ids = sb.git(&r, &["rev-list", "--all"]);
        let mut seen = [0usize; 8];
        for id in ids.lines() {
            let git = by_git(&sb, &r, id);
            let raw = &git.raw;
            let at = raw.windows(2).position(|w| w == b"\n\n").unwrap();
            let (headers, message) = (&raw[..at + 1], &raw[at + 2..]);
            let has = |h: &[u8]| headers.split(|b| *b == b'\n').any(|l| l.starts_with(h));
            for (i, seen_here) in [
                git.parents.len() > 2,
                has(b"gpgsig"),
                has(b"mergetag "),
                git.encoding.is_some(),
                !message.is_empty() && !message.ends_with(b"\n"),
                std::str::from_utf8(message).is_err() && git.encoding.is_none(),
                std::str::from_utf8(message).is_err() && git.encoding.is_some(),
                message.is_empty(),
            ]
            .into_iter()
            .enumerate()
            {
                seen[i] += usize::from(seen_here);
            }

            assert_eq!(of_commit(raw), git.encoding, "{id}");

            // As far as each caller reads: the path history (parents), the range walk
            // (committer), the message read (message).
            for upto in [Upto::Parents, Upto::Committer, Upto::Message] {
                let mut by = Vec::new();
                let h = read(raw, kind, &mut |p| by.push(p), upto).unwrap_or_else(|| {
                    panic!("{id} {upto:?} unread:\n{}", String::from_utf8_lossy(raw))
                });
                assert_eq!((h.tree, &by), (git.tree, &git.parents), "{id} {upto:?}");
                let who = h.author.unwrap();
                assert_eq!(
                    (who.name.to_vec(), who.email.to_vec()),
                    git.author,
                    "{id} {upto:?}"
                );
                let time = if upto == Upto::Parents { 0 } else { git.time };
                assert_eq!(h.time, time, "{id} {upto:?}");
                let msg = (upto == Upto::Message).then_some(message);
                assert_eq!(h.message, msg, "{id} {upto:?}");
            }

            // Every start of the commit: the tree and parents once the author line after
            // them shows whole, nothing before.
            let hex = kind.len_in_hex();
            let after = "tree \n".len() + hex + git.parents.len() * ("parent \n".len() + hex);
            let author_end = after + raw[after..].iter().position(|b| *b == b'\n').unwrap() + 1;
            for cut in 0..=raw.len() {
                let mut by = Vec::new();
                let got = tree_and_parents(&raw[..cut], kind, &mut |p| by.push(p));
                if cut >= author_end {
                    assert_eq!(got, Some(git.tree), "{id} cut at {cut}");
                    assert_eq!(by, git.parents, "{id} cut at {cut}");
                } else {
                    assert_eq!(got, None, "{id} cut at {cut}");
                }
            }
        }
        assert!(
            seen.iter().all(|n| *n > 0),
            "control: every kind of commit was written ({format}): {seen:?}"
        );
    }
}
