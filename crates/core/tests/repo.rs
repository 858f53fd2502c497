//! `Repo` against real git: the commit side (ranges, pushes, peeling, file lookup, bad
//! input) and a differential test of the staged patch on generated repositories.
#![allow(clippy::unwrap_used)]

use std::path::Path;

use jitcommit_core::repo::{GitEnv, ObjectId, Repo, RepoError, status_short};
use jitcommit_testkit::{Rng, Sandbox, write};

fn oid(s: &str) -> ObjectId {
    ObjectId::from_hex(s.trim().as_bytes()).unwrap()
}

fn commit(sb: &Sandbox, r: &Path, file: &str, body: &str, msg: &str) -> ObjectId {
    write(r, file, body);
    sb.git(r, &["add", "-A"]);
    sb.git(r, &["commit", "-qm", msg]);
    oid(&sb.git(r, &["rev-parse", "HEAD"]))
}

#[test]
fn ranges_match_git_rev_list() {
    let sb = Sandbox::new();
    let r = sb.init("r");
    let c1 = commit(&sb, &r, "a", "1\n", "one");
    commit(&sb, &r, "a", "2\n", "two");
    sb.git(&r, &["checkout", "-qb", "side", "HEAD~1"]);
    commit(&sb, &r, "b", "b\n", "side");
    sb.git(&r, &["checkout", "-q", "main"]);
    sb.git(&r, &["merge", "-q", "--no-ff", "-m", "merge side", "side"]);
    commit(&sb, &r, "a", "3\n", "three");
    let repo = Repo::discover_with(&r, &GitEnv::default()).unwrap();
    for spec in [
        "main",
        "HEAD~3..HEAD",
        "side..main",
        "main..side",
        &format!("{c1}.."),
    ] {
        let mut want: Vec<ObjectId> = sb.git(&r, &["rev-list", spec]).lines().map(oid).collect();
        let mut got = repo.rev_range(spec).unwrap();
        assert_eq!(got.first(), want.last(), "{spec}: oldest first");
        want.sort_unstable();
        got.sort_unstable();
        assert_eq!(got, want, "{spec}");
    }
    assert!(matches!(
        repo.rev_range("nope..main"),
        Err(RepoError::UnknownRevision { .. })
    ));
    assert!(matches!(
        repo.rev_range("main...side"),
        Err(RepoError::UnknownRevision { .. })
    ));
    // The merge's changes are against its first parent.
    let merge = oid(&sb.git(&r, &["rev-parse", "HEAD~1"]));
    let parents = sb.git(&r, &["rev-list", "--parents", "-n1", &merge.to_string()]);
    assert_eq!(parents.split_whitespace().count(), 3, "a merge: {parents}");
    assert_eq!(repo.commit_message_and_parents(merge).unwrap().1, 2);
    let ch = repo.commit_changes(merge).unwrap();
    assert_eq!(status_short(&ch), "A  b\n");
    assert_eq!(repo.commit_message(merge).unwrap(), b"merge side\n");
    // A root commit against the empty tree.
    assert_eq!(status_short(&repo.commit_changes(c1).unwrap()), "A  a\n");
}

/// Ranges over a generated history of merges, with committer times that grow with each
/// commit: the walk lists what `git rev-list` lists, in its order, and the message read
/// after it (from the commits the walk kept) is the stored one.
#[test]
fn ranges_match_git_rev_list_order_on_a_merged_history() {
    let sb = Sandbox::new();
    let r = sb.init("r");
    let root = commit(&sb, &r, "a", "1\n", "root");
    let tree = sb.git(&r, &["rev-parse", "HEAD^{tree}"]).trim().to_owned();
    let mut rng = Rng(0x5eed_0032);
    let mut ids = vec![root];
    for i in 0..150u64 {
        let p1 = ids[ids.len() - 1 - rng.below(ids.len().min(6))];
        let mut args = vec![
            "commit-tree".to_owned(),
            tree.clone(),
            "-p".into(),
            p1.to_string(),
        ];
        let p2 = ids[rng.below(ids.len())];
        if rng.below(3) == 0 && p2 != p1 {
            args.extend(["-p".into(), p2.to_string()]);
        }
        args.extend(["-m".into(), format!("c{i}\n\nbody {i}\n")]);
        let out = sb
            .git_cmd(&r)
            .args(&args)
            .env(
                "GIT_COMMITTER_DATE",
                format!("{} +0000", 1_800_000_000 + i * 60),
            )
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        ids.push(oid(&String::from_utf8_lossy(&out.stdout)));
    }
    let repo = Repo::discover_with(&r, &GitEnv::default()).unwrap();
    let mut listed = 0;
    for _ in 0..60 {
        let (a, b) = (ids[rng.below(ids.len())], ids[rng.below(ids.len())]);
        for spec in [format!("{a}..{b}"), b.to_string()] {
            let want: Vec<ObjectId> = sb
                .git(&r, &["rev-list", "--reverse", &spec])
                .lines()
                .map(oid)
                .collect();
            let got = repo.rev_range(&spec).unwrap();
            assert_eq!(got, want, "{spec}");
            listed += got.len();
            for id in got {
                let raw = sb.git(&r, &["cat-file", "commit", &id.to_string()]);
                let parents = raw.lines().filter(|l| l.starts_with("parent ")).count();
                let msg = raw.split_once("\n\n").unwrap().1;
                let read = repo.commit_message_and_parents(id).unwrap();
                assert_eq!(
                    (read.0.as_slice(), read.1),
                    (msg.as_bytes(), parents),
                    "{id}"
                );
            }
        }
    }
    assert!(listed > 1000, "the ranges list commits: {listed}");
}

#[test]
fn commit_changes_match_git_name_status() {
    let sb = Sandbox::new();
    let r = sb.init("r");
    write(
        &r,
        "big.txt",
        (0..40).map(|i| format!("line {i}\n")).collect::<String>(),
    );
    write(&r, "gone.txt", "x\n");
    write(&r, "mode.sh", "echo\n");
    write(&r, "d/f", "file in dir\n");
    commit(&sb, &r, "keep", "k\n", "base");
    sb.git(&r, &["mv", "big.txt", "moved.txt"]);
    let moved = std::fs::read_to_string(r.join("moved.txt"))
        .unwrap()
        .replace("line 3\n", "LINE 3\n");
    write(&r, "moved.txt", moved);
    std::fs::remove_file(r.join("gone.txt")).unwrap();
    sb.git(&r, &["update-index", "--chmod=+x", "mode.sh"]);
    std::fs::remove_dir_all(r.join("d")).unwrap();
    write(&r, "d", "now a file\n");
    let c = commit(&sb, &r, "z new", "new\n", "edit");
    let repo = Repo::discover_with(&r, &GitEnv::default()).unwrap();
    let got: Vec<String> = repo
        .commit_changes(c)
        .unwrap()
        .iter()
        .map(|c| match &c.old_path {
            Some(o) => format!("{}\t{o}\t{}", c.kind.letter(), c.path),
            None => format!("{}\t{}", c.kind.letter(), c.path),
        })
        .collect();
    let want: Vec<String> = sb
        .git(
            &r,
            &[
                "diff-tree",
                "-r",
                "--name-status",
                "-M",
                "--no-commit-id",
                "HEAD",
            ],
        )
        .lines()
        .map(|l| {
            if l.starts_with('R') {
                format!("R{}", &l[4..])
            } else {
                l.to_owned()
            }
        })
        .collect();
    let mut want_sorted = want.clone();
    want_sorted.sort_by(|a, b| a.rsplit('\t').next().cmp(&b.rsplit('\t').next()));
    assert_eq!(got, want_sorted);
    // Path tracing needs the paths only: without rename detection a rename is a deletion
    // plus an addition, which names the same paths as git's `--no-renames` listing.
    let traced: Vec<String> = repo
        .commit_changes_for_tracing(c)
        .unwrap()
        .iter()
        .map(|c| format!("{}\t{}", c.kind.letter(), c.path))
        .collect();
    let mut want_plain: Vec<String> = sb
        .git(
            &r,
            &[
                "diff-tree",
                "-r",
                "--name-status",
                "--no-renames",
                "--no-commit-id",
                "HEAD",
            ],
        )
        .lines()
        .map(str::to_owned)
        .collect();
    want_plain.sort_by(|a, b| a.rsplit('\t').next().cmp(&b.rsplit('\t').next()));
    assert_eq!(traced, want_plain);
    let full: std::collections::BTreeSet<String> = repo
        .commit_changes(c)
        .unwrap()
        .iter()
        .flat_map(|c| {
            std::iter::once(c.path.to_string()).chain(c.old_path.as_ref().map(|p| p.to_string()))
        })
        .collect();
    let fast: std::collections::BTreeSet<String> = traced
        .iter()
        .map(|l| l.split('\t').nth(1).unwrap().to_owned())
        .collect();
    assert_eq!(
        full, fast,
        "tracing sees the same paths with and without rename detection"
    );

    // The staged side: stage a rename and compare with `git diff --cached --no-renames`.
    sb.git(&r, &["mv", "moved.txt", "again.txt"]);
    let repo = Repo::discover_with(&r, &GitEnv::default()).unwrap();
    let staged: Vec<String> = repo
        .staged_changes_for_tracing()
        .unwrap()
        .iter()
        .map(|c| format!("{}\t{}", c.kind.letter(), c.path))
        .collect();
    let want_staged: Vec<String> = sb
        .git(&r, &["diff", "--cached", "--name-status", "--no-renames"])
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(staged, want_staged);
}

#[test]
fn peeling_reading_and_new_commits() {
    let sb = Sandbox::new();
    let r = sb.init("r");
    let c1 = commit(
        &sb,
        &r,
        ".commit-convention.toml",
        "types = [\"feat\"]\n",
        "one",
    );
    sb.git(&r, &["tag", "-a", "-m", "annotated", "v1"]);
    let tree = sb.git(&r, &["rev-parse", "HEAD^{tree}"]);
    sb.git(&r, &["tag", "-a", "-m", "tree tag", "treetag", tree.trim()]);
    let repo = Repo::discover_with(&r, &GitEnv::default()).unwrap();
    let v1 = oid(&sb.git(&r, &["rev-parse", "v1"]));
    assert_ne!(v1, c1);
    assert_eq!(repo.peel_to_commit(v1).unwrap(), Some(c1));
    assert_eq!(
        repo.peel_to_commit(oid(&sb.git(&r, &["rev-parse", "treetag"])))
            .unwrap(),
        None
    );
    assert!(repo.peel_to_commit(oid(&"ab".repeat(20))).is_err());
    assert_eq!(
        repo.read_file_at(c1, ".commit-convention.toml")
            .unwrap()
            .unwrap(),
        b"types = [\"feat\"]\n"
    );
    assert_eq!(repo.read_file_at(c1, "missing.toml").unwrap(), None);
    assert_eq!(repo.default_branch_commit(), Some(c1));

    // Commits not reachable from any ref: what `git rev-list <tips> --not --all` prints.
    sb.git(&r, &["checkout", "-qb", "tmp"]);
    let c2 = commit(&sb, &r, "x", "2\n", "two");
    let c3 = commit(&sb, &r, "x", "3\n", "three");
    sb.git(&r, &["checkout", "-q", "main"]);
    sb.git(&r, &["branch", "-D", "tmp"]);
    let repo = Repo::discover_with(&r, &GitEnv::default()).unwrap();
    assert_eq!(repo.new_commits(&[c3]).unwrap(), vec![c2, c3]);
    assert_eq!(
        repo.new_commits(&[c3, c2]).unwrap(),
        vec![c2, c3],
        "one walk, no duplicates"
    );
    assert_eq!(repo.new_commits(&[c1, v1]).unwrap(), Vec::<ObjectId>::new());
}

#[test]
fn shallow_clone_and_bad_input_give_errors() {
    let sb = Sandbox::new();
    let r = sb.init("r");
    commit(&sb, &r, "a", "1\n", "one");
    commit(&sb, &r, "a", "2\n", "two");
    let url = format!("file://{}", r.display());
    sb.git(sb.path(), &["clone", "-q", "--depth", "1", &url, "shallow"]);
    let s = sb.path().join("shallow");
    let repo = Repo::discover_with(&s, &GitEnv::default()).unwrap();
    assert!(repo.is_shallow());
    let head = repo.resolve_commit("HEAD").unwrap();
    // The parent is beyond the boundary: an error that says so, not a panic.
    match repo.commit_changes(head) {
        Err(e @ RepoError::Object { shallow: true, .. }) => {
            assert!(e.to_string().contains("shallow"))
        }
        other => panic!("{other:?}"),
    }
    // A range that reaches past the boundary cannot be checked whole: an error, never a
    // shorter list.
    assert!(matches!(
        repo.rev_range("HEAD"),
        Err(RepoError::ShallowBoundary { commit }) if commit == head
    ));
    assert!(matches!(
        repo.resolve_commit("HEAD~5"),
        Err(RepoError::UnknownRevision { .. })
    ));
    let not_repo = sb.path().join("plain");
    std::fs::create_dir_all(&not_repo).unwrap();
    assert!(matches!(
        Repo::discover_with(&sb.path().join("nowhere"), &GitEnv::default()),
        Err(RepoError::Open { .. })
    ));
}

fn random_text(rng: &mut Rng, lines: usize) -> Vec<u8> {
    const WORDS: &[&str] = &[
        "fn main() {",
        "    let x = 1;",
        "}",
        "",
        "\tindented",
        "return y;",
        "_private:",
        "$dollar",
        "# comment",
        "x",
    ];
    let mut out = Vec::new();
    for _ in 0..lines {
        out.extend_from_slice(WORDS[rng.below(WORDS.len())].as_bytes());
        match rng.below(20) {
            0 => out.extend_from_slice(b"\r\n"),
            1 => out.extend_from_slice(b" caf\xe9\n"),
            _ => out.push(b'\n'),
        }
    }
    if rng.below(5) == 0 {
        out.pop();
    }
    out
}

fn mutate(rng: &mut Rng, old: &[u8]) -> Vec<u8> {
    let mut lines: Vec<Vec<u8>> = old
        .split_inclusive(|&b| b == b'\n')
        .map(<[u8]>::to_vec)
        .collect();
    for _ in 0..=rng.below(4) {
        let at = rng.below(lines.len() + 1);
        match rng.below(3) {
            0 if at < lines.len() => {
                lines.remove(at);
            }
            1 => {
                let n = 1 + rng.below(3);
                lines.insert(at, random_text(rng, n));
            }
            _ if at < lines.len() => lines[at] = random_text(rng, 1),
            _ => {}
        }
    }
    let mut out = lines.concat();
    if rng.below(6) == 0 && out.last() == Some(&b'\n') {
        out.pop();
    }
    out
}

/// Generated repositories: the staged diffs read as `git diff --cached` (its `index`
/// lines aside), and their counts equal git's numstat.
#[test]
fn differential_against_git_diff_cached() {
    let sb = Sandbox::new();
    let names: &[&[u8]] = &[
        b"src/a.rs",
        b"src/b.rs",
        b"docs/read me.md",
        b"caf\xc3\xa9.txt",
        b"raw\xff.txt",
        b"tab\tname",
        b"empty",
        b"link",
        b"bin.dat",
    ];
    for seed in 1..=12u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let r = sb.init(&format!("gen{seed}"));
        use std::os::unix::ffi::OsStrExt;
        let p = |n: &[u8]| r.join(std::ffi::OsStr::from_bytes(n));
        for n in names {
            let path = p(n);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            match *n {
                b"empty" => std::fs::write(&path, "").unwrap(),
                b"link" => std::os::unix::fs::symlink("src/a.rs", &path).unwrap(),
                b"bin.dat" => std::fs::write(&path, b"\x00\x01\x02bin").unwrap(),
                _ => {
                    let len = 5 + rng.below(30);
                    std::fs::write(&path, random_text(&mut rng, len)).unwrap();
                }
            }
        }
        sb.git(&r, &["add", "-A"]);
        sb.git(&r, &["commit", "-qm", "base"]);
        for n in names {
            let path = p(n);
            match rng.below(7) {
                0 => {
                    let _ = std::fs::remove_file(&path);
                }
                1 if *n != b"link" => {
                    let mut to = n.to_vec();
                    to.extend_from_slice(b".moved");
                    let old = std::fs::read(&path).unwrap_or_default();
                    let _ = std::fs::remove_file(&path);
                    std::fs::write(
                        p(&to),
                        if rng.below(2) == 0 {
                            old.clone()
                        } else {
                            mutate(&mut rng, &old)
                        },
                    )
                    .unwrap();
                }
                2 if *n != b"link" => {
                    sb.git(&r, &["add", "-A"]);
                    let _ = sb
                        .git_cmd(&r)
                        .args(["update-index", "--chmod=+x", "--"])
                        .arg(std::ffi::OsStr::from_bytes(n))
                        .output();
                }
                3 if *n == b"bin.dat" => std::fs::write(&path, b"\x00changed").unwrap(),
                _ if *n == b"link" => {
                    std::fs::remove_file(&path).unwrap();
                    std::os::unix::fs::symlink("elsewhere", &path).unwrap();
                }
                _ if *n == b"empty" => std::fs::write(&path, "now text\n").unwrap(),
                _ => {
                    let old = std::fs::read(&path).unwrap();
                    std::fs::write(&path, mutate(&mut rng, &old)).unwrap();
                }
            }
        }
        sb.git(&r, &["add", "-A"]);
        let repo = Repo::discover_with(&r, &GitEnv::default()).unwrap();
        let patch = patch_text(&repo.staged().unwrap());
        assert_eq!(patch, git_patch(&sb, &r), "seed {seed}");

        // Per-file +/- counts equal numstat (binary files as "-").
        let numstat = sb
            .git_cmd(&r)
            .args(["diff", "--cached", "--numstat", "-z"])
            .output()
            .unwrap()
            .stdout;
        let mut want: Vec<(String, String)> = Vec::new();
        let mut fields = numstat.split(|&b| b == 0).filter(|f| !f.is_empty());
        while let Some(f) = fields.next() {
            let f = String::from_utf8_lossy(f).into_owned();
            let mut parts = f.splitn(3, '\t');
            let (a, d, path) = (
                parts.next().unwrap(),
                parts.next().unwrap(),
                parts.next().unwrap_or(""),
            );
            let path = if path.is_empty() {
                // A rename: source and destination follow as their own fields.
                fields.next();
                String::from_utf8_lossy(fields.next().unwrap()).into_owned()
            } else {
                path.to_owned()
            };
            want.push((path, format!("{a}\t{d}")));
        }
        let staged = repo.staged().unwrap();
        let mut got: Vec<(String, String)> = Vec::new();
        for f in &staged.files {
            let counts = if f.binary {
                "-\t-".to_owned()
            } else {
                format!("{}\t{}", f.added, f.removed)
            };
            let path = String::from_utf8_lossy(&f.change.path).into_owned();
            // A type change is two diffs in the patch but one numstat line.
            if let Some(last) = got.last_mut().filter(|l| l.0 == path) {
                let (a1, d1) = last.1.split_once('\t').unwrap();
                let (a2, d2) = counts.split_once('\t').unwrap();
                last.1 = format!(
                    "{}\t{}",
                    a1.parse::<usize>().unwrap() + a2.parse::<usize>().unwrap(),
                    d1.parse::<usize>().unwrap() + d2.parse::<usize>().unwrap()
                );
            } else {
                got.push((path, counts));
            }
        }
        assert_eq!(got, want, "seed {seed}");
    }
}

/// A change of 300 files (renames, deletions, additions, a binary file): the diffs come
/// out in git's order and read as `git diff --cached`.
#[test]
fn many_staged_files_read_as_git_diff_cached() {
    let sb = Sandbox::new();
    let r = sb.init("many");
    let mut rng = Rng(0x5eed_0300);
    for i in 0..300 {
        let len = 3 + rng.below(40);
        write(
            &r,
            &format!("d{}/f{i}.txt", i % 7),
            random_text(&mut rng, len),
        );
    }
    write(&r, "bin.dat", b"\x00\x01bin");
    sb.git(&r, &["add", "-A"]);
    sb.git(&r, &["commit", "-qm", "base"]);
    for i in 0..300 {
        let path = r.join(format!("d{}/f{i}.txt", i % 7));
        match i % 10 {
            0 => std::fs::remove_file(&path).unwrap(),
            1 => {
                let old = std::fs::read(&path).unwrap();
                std::fs::remove_file(&path).unwrap();
                std::fs::write(r.join(format!("moved-f{i}.txt")), old).unwrap();
            }
            2 => {}
            _ => {
                let old = std::fs::read(&path).unwrap();
                std::fs::write(&path, mutate(&mut rng, &old)).unwrap();
            }
        }
        if i % 25 == 0 {
            write(&r, &format!("new/n{i}.md"), random_text(&mut rng, 4));
        }
    }
    write(&r, "bin.dat", b"\x00changed");
    sb.git(&r, &["add", "-A"]);
    let repo = Repo::discover_with(&r, &GitEnv::default()).unwrap();
    let staged = repo.staged().unwrap();
    assert!(staged.files.len() > 250, "{} files", staged.files.len());
    assert_eq!(patch_text(&staged), git_patch(&sb, &r));
}

/// `git diff --cached` in `r`, without its `index` lines.
fn git_patch(sb: &Sandbox, r: &Path) -> String {
    let out = sb.git_cmd(r).args(["diff", "--cached"]).output().unwrap();
    without_index_lines(&String::from_utf8_lossy(&out.stdout))
}

/// Two staged blobs gone from the object store: the error names the first of them in
/// the diff's order, every time.
#[test]
fn a_missing_blob_among_many_files_is_the_first_one_reported() {
    let sb = Sandbox::new();
    let r = sb.init("missing");
    for i in 0..200 {
        write(&r, &format!("f{i:03}.txt"), format!("base {i}\n"));
    }
    sb.git(&r, &["add", "-A"]);
    sb.git(&r, &["commit", "-qm", "base"]);
    for i in 0..200 {
        write(
            &r,
            &format!("f{i:03}.txt"),
            format!("base {i}\nstaged {i}\n"),
        );
    }
    sb.git(&r, &["add", "-A"]);
    let blob = |i: usize| {
        sb.git(&r, &["rev-parse", &format!(":f{i:03}.txt")])
            .trim()
            .to_string()
    };
    let (first, later) = (blob(130), blob(170));
    for id in [&first, &later] {
        std::fs::remove_file(r.join(".git/objects").join(&id[..2]).join(&id[2..])).unwrap();
    }
    let repo = Repo::discover_with(&r, &GitEnv::default()).unwrap();
    for _ in 0..5 {
        match repo.staged() {
            Err(RepoError::Object { id, .. }) => assert_eq!(id.to_string(), first),
            other => panic!("expected the missing object, got {other:?}"),
        }
    }
}

/// The staged diffs as one patch, the way `git diff --cached` prints them (without its
/// `index` lines, which the prompt does not carry).
fn patch_text(state: &jitcommit_core::repo::StagedState) -> String {
    let mut out = String::new();
    for f in &state.files {
        out.push_str(&f.header);
        for h in &f.hunks {
            out.push_str(&h.header);
            out.push('\n');
            out.push_str(&h.body);
        }
    }
    out
}

/// `git diff` output without its `index abc..def` lines.
fn without_index_lines(patch: &str) -> String {
    patch
        .split_inclusive('\n')
        .filter(|l| !l.starts_with("index "))
        .collect()
}

/// `.gitattributes` as `git diff --cached` applies them: `-diff` and the `binary` macro
/// give "Binary files … differ", a driver's `xfuncname` (in the repository's config,
/// with a capture group, and as two pattern lines) picks the hunk headers, a driver
/// without a pattern keeps git's default, attributes from `info/attributes` count, and
/// `linguist-generated` / `linguist-vendored` (which git ignores) mark the file for
/// the prompt.
#[test]
fn gitattributes_shape_the_diff_as_git_does() {
    let sb = Sandbox::new();
    let r = sb.init("r");
    let body = |marker: &str| {
        let mut s = String::from("package main\n\n");
        for i in 0..12 {
            s.push_str(&format!(
                "sub handler_{i} {{\n  call()\n  value {i}\n  more\n  lines\n}}\n"
            ));
            s.push_str(&format!(
                "  [section {i}]\n  key = {i}\n  other = x\n  y\n  z\n"
            ));
        }
        s.push_str(marker);
        s
    };
    for f in [
        "a.pl",
        "b.ini",
        "c.txt",
        "d.bin",
        "e.dat",
        "gen/out.js",
        "vendor/lib.js",
        "f.own",
    ] {
        write(&r, f, body(""));
    }
    write(
        &r,
        ".gitattributes",
        "*.pl diff=perlish\n*.ini diff=twoline\n*.dat -diff\n*.bin binary\n\
         gen/** linguist-generated\nvendor/** linguist-vendored=true\n*.own diff=nopattern\n",
    );
    std::fs::create_dir_all(r.join(".git/info")).unwrap();
    std::fs::write(r.join(".git/info/attributes"), "c.txt diff=perlish\n").unwrap();
    sb.git(
        &r,
        &["config", "diff.perlish.xfuncname", "^sub ([a-z_0-9]+)"],
    );
    sb.git(
        &r,
        &[
            "config",
            "diff.twoline.xfuncname",
            "^  \\[(section [0-9]+)\\]\n^sub .*",
        ],
    );
    sb.git(&r, &["add", "-A"]);
    sb.git(&r, &["commit", "-q", "-m", "base"]);
    for f in [
        "a.pl",
        "b.ini",
        "c.txt",
        "d.bin",
        "e.dat",
        "gen/out.js",
        "vendor/lib.js",
        "f.own",
    ] {
        let text = body("")
            .replace("value 7", "value seven")
            .replace("key = 3", "key = three");
        write(&r, f, text);
    }
    sb.git(&r, &["add", "-A"]);
    let repo = Repo::discover_with(&r, &GitEnv::default()).unwrap();
    let staged = repo.staged().unwrap();
    let git_patch = sb
        .git_cmd(&r)
        .args(["diff", "--cached"])
        .output()
        .unwrap()
        .stdout;
    let git_patch = without_index_lines(&String::from_utf8_lossy(&git_patch));
    assert_eq!(patch_text(&staged), git_patch);
    assert!(git_patch.contains("@@ sub handler_7 {") || git_patch.contains("@@ handler_"));
    assert!(git_patch.contains("Binary files a/e.dat and b/e.dat differ"));
    assert!(git_patch.contains("Binary files a/d.bin and b/d.bin differ"));

    use jitcommit_core::repo::Linguist;
    let linguist: Vec<(String, Option<Linguist>)> = staged
        .files
        .iter()
        .map(|f| {
            (
                String::from_utf8_lossy(&f.change.path).into_owned(),
                f.linguist,
            )
        })
        .filter(|(_, l)| l.is_some())
        .collect();
    assert_eq!(
        linguist,
        vec![
            ("gen/out.js".to_owned(), Some(Linguist::Generated)),
            ("vendor/lib.js".to_owned(), Some(Linguist::Vendored)),
        ]
    );
}

/// The built-in diff drivers (`diff=<lang>` with no pattern in the config) pick the hunk
/// headers `git diff --cached` picks, for every language jitcommit has a driver for:
/// one fixture per language under tests/fixtures/userdiff/ with typical definitions,
/// nested and indented ones and lines that must not be picked, each changed deep inside.
/// The same texts under an unknown driver get git's default rule (checked against git
/// too), and each driver must pick at least one header the default rule would not, so a
/// driver that silently falls back cannot pass.
#[test]
fn builtin_diff_drivers_pick_the_headers_git_picks() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/userdiff");
    let mut names: Vec<String> = std::fs::read_dir(&fixtures)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.len() >= 15, "{names:?}");
    let sb = Sandbox::new();
    let r = sb.init("r");
    let mut attributes = String::from("*.default diff=no-such-driver\n");
    for n in &names {
        let (lang, ext) = n.split_once('.').unwrap();
        attributes.push_str(&format!("*.{ext} diff={lang}\n"));
        let text = std::fs::read_to_string(fixtures.join(n)).unwrap();
        assert!(
            text.matches("ChangeMe").count() >= 4,
            "{n}: too few changes"
        );
        write(&r, n, &text);
        write(&r, &format!("{n}.default"), &text);
    }
    write(&r, ".gitattributes", &attributes);
    sb.git(&r, &["add", "-A"]);
    sb.git(&r, &["commit", "-q", "-m", "base"]);
    for n in &names {
        for f in [n.clone(), format!("{n}.default")] {
            let text = std::fs::read_to_string(r.join(&f)).unwrap();
            write(&r, &f, text.replace("ChangeMe", "Changed"));
        }
    }
    sb.git(&r, &["add", "-A"]);
    let repo = Repo::discover_with(&r, &GitEnv::default()).unwrap();
    let staged = repo.staged().unwrap();
    let headers = |path: &str| -> Vec<String> {
        let f = staged
            .files
            .iter()
            .find(|f| f.change.path == path.as_bytes())
            .unwrap();
        f.hunks.iter().map(|h| h.header.clone()).collect()
    };
    let mut wrong = Vec::new();
    for n in &names {
        for f in [n.clone(), format!("{n}.default")] {
            let git = sb
                .git_cmd(&r)
                .args(["diff", "--cached", "--", &f])
                .output()
                .unwrap()
                .stdout;
            let git_headers: Vec<String> = String::from_utf8_lossy(&git)
                .lines()
                .filter(|l| l.starts_with("@@ "))
                .map(str::to_owned)
                .collect();
            let ours = headers(&f);
            assert_eq!(ours.len(), git_headers.len(), "{f}");
            for (o, g) in ours.iter().zip(&git_headers) {
                if o != g {
                    wrong.push(format!("{f}:\n  git:       {g}\n  jitcommit: {o}"));
                }
            }
        }
        let (with, without) = (headers(n), headers(&format!("{n}.default")));
        assert!(
            with != without,
            "{n}: the driver picks nothing the default rule does not"
        );
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    let git = without_index_lines(&sb.git(&r, &["diff", "--cached"]));
    assert_eq!(patch_text(&staged), git);
}

/// A driver the config defines wins over the built-in driver of the same name, as in git
/// (`diff.python.xfuncname` here), and `!` lines in a configured pattern exclude what
/// they match.
#[test]
fn configured_driver_wins_over_the_builtin_one() {
    let sb = Sandbox::new();
    let r = sb.init("r");
    let mut text = String::new();
    for i in 0..6 {
        text.push_str(&format!(
            "def f{i}():\n    # section {i}\n    # skip {i}\n    a = 1\n    b = 2\n    c = 3\n    d = ChangeMe\n    e = 5\n    f = 6\n    g = 7\n"
        ));
    }
    write(&r, "m.py", &text);
    write(&r, ".gitattributes", "*.py diff=python\n");
    sb.git(&r, &["add", "-A"]);
    sb.git(&r, &["commit", "-q", "-m", "base"]);
    write(&r, "m.py", text.replace("ChangeMe", "Changed"));
    sb.git(&r, &["add", "-A"]);
    let patch = |sb: &Sandbox| {
        let repo = Repo::discover_with(&r, &GitEnv::default()).unwrap();
        let ours = patch_text(&repo.staged().unwrap());
        let git = without_index_lines(&sb.git(&r, &["diff", "--cached"]));
        assert_eq!(ours, git);
        ours
    };
    let builtin = patch(&sb);
    assert!(builtin.contains("@@ def f3():\n"), "{builtin}");
    sb.git(
        &r,
        &[
            "config",
            "diff.python.xfuncname",
            "!^    # skip\n^    # (section [0-9]+)|^    # skip",
        ],
    );
    let configured = patch(&sb);
    assert!(configured.contains(" @@ section 3\n"), "{configured}");
    assert!(!configured.contains("def f"), "{configured}");
}

/// Each commit's message and parent count as git stores them: a root, a merge, an empty
/// message, and commits with an encoding header and a multi-line signature header.
#[test]
fn commit_messages_and_parents_match_git() {
    let sb = Sandbox::new();
    let r = sb.init("r");
    let root = commit(&sb, &r, "a", "1\n", "one\n\nbody\n\n- Update: a — why");
    sb.git(&r, &["checkout", "-qb", "side"]);
    commit(&sb, &r, "b", "b\n", "side");
    sb.git(&r, &["checkout", "-q", "main"]);
    commit(&sb, &r, "a", "2\n", "two");
    sb.git(&r, &["merge", "-q", "--no-ff", "-m", "merge side", "side"]);
    sb.git(
        &r,
        &[
            "commit",
            "-q",
            "--allow-empty",
            "--allow-empty-message",
            "-m",
            "",
        ],
    );
    let head = sb.git(&r, &["rev-parse", "HEAD"]);
    let tree = sb.git(&r, &["rev-parse", "HEAD^{tree}"]);
    let raw = format!(
        "tree {}\nparent {}\nauthor A <a@x> 1 +0000\ncommitter C <c@x> 2 +0000\nencoding ISO-8859-1\ngpgsig -----BEGIN-----\n line\n \n -----END-----\n\nsigned\n\nbody\n",
        tree.trim(),
        head.trim()
    );
    let path = r.join("raw-commit");
    std::fs::write(&path, raw).unwrap();
    let signed = sb.git(
        &r,
        &["hash-object", "-t", "commit", "-w", path.to_str().unwrap()],
    );
    let repo = Repo::discover_with(&r, &GitEnv::default()).unwrap();
    let mut ids: Vec<ObjectId> = sb.git(&r, &["rev-list", "main"]).lines().map(oid).collect();
    ids.push(oid(&signed));
    assert!(ids.contains(&root));
    for id in ids {
        let stored = sb.git(&r, &["cat-file", "commit", &id.to_string()]);
        let (headers, message) = stored.split_once("\n\n").unwrap();
        let parents = headers.lines().filter(|l| l.starts_with("parent ")).count();
        let (got, got_parents) = repo.commit_message_and_parents(id).unwrap();
        assert_eq!(String::from_utf8(got).unwrap(), message, "{id}");
        assert_eq!(got_parents, parents, "{id}");
    }
}
