//! The pack reader against git: every object of generated histories, read through the
//! reader, equals `git cat-file --batch`, for each pack layout git writes — `git
//! fast-import`'s (each version a delta of the one before), `git repack -a -d -f`'s (the
//! newest version the base, chains up to 50 long), REF_DELTA entries, and the thin pack
//! a real `git push` sends, completed by git and read from a pre-receive hook through
//! the quarantine. Objects are read newest first, oldest first and shuffled, with a
//! cache that keeps everything, a tiny one that keeps evicting, and none, so a link
//! resolved against the wrong base or a stale cache entry would show as different bytes.
//! Path probes over every commit, which read their trees through the reader, agree with
//! `git diff-tree`.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::path::Path;

use super::PackStats;
use crate::repo::{GitEnv, ObjectId, Repo};
use jitcommit_testkit::{Rng, Sandbox, assert_ok, run_with_input, write};

/// An object as git prints it: kind name and content.
type Objects = BTreeMap<ObjectId, (String, Vec<u8>)>;

/// Every object in the repository at `dir`, from `git cat-file --batch-all-objects --batch`
/// run through `git` (the sandbox's, or, inside a hook, the hook's environment).
fn cat_all(mut git: std::process::Command) -> Objects {
    let out = git
        .args(["cat-file", "--batch-all-objects", "--batch"])
        .output()
        .unwrap();
    assert_ok(&out, "git cat-file --batch-all-objects --batch");
    let mut objects = Objects::new();
    let mut rest = out.stdout.as_slice();
    while !rest.is_empty() {
        let nl = rest.iter().position(|b| *b == b'\n').unwrap();
        let header = std::str::from_utf8(&rest[..nl]).unwrap();
        let mut parts = header.split(' ');
        let id = ObjectId::from_hex(parts.next().unwrap().as_bytes()).unwrap();
        let kind = parts.next().unwrap().to_owned();
        let size: usize = parts.next().unwrap().parse().unwrap();
        let data = rest[nl + 1..nl + 1 + size].to_vec();
        assert_eq!(rest[nl + 1 + size], b'\n');
        rest = &rest[nl + 2 + size..];
        objects.insert(id, (kind, data));
    }
    objects
}

/// The objects in `git rev-list --objects --all` order: commits newest first, then the
/// trees and blobs as the walk first meets them (newest versions first).
fn newest_first(sb: &Sandbox, r: &Path) -> Vec<ObjectId> {
    sb.git(r, &["rev-list", "--objects", "--all"])
        .lines()
        .map(|l| ObjectId::from_hex(l.split(' ').next().unwrap().as_bytes()).unwrap())
        .collect()
}

/// Reads `order` through `repo`'s pack reader (started over with a cache of `cache`
/// bytes) and compares each object with git's; returns the reader's statistics.
fn read_all(repo: &Repo, objects: &Objects, order: &[ObjectId], cache: usize) -> PackStats {
    repo.reset_pack_reader(cache);
    for id in order {
        let (kind, data) = &objects[id];
        let Some((k, d)) = repo.read_packed(*id) else {
            panic!("{id} ({kind}) was not read from the packs (cache {cache})");
        };
        assert_eq!(k.to_string(), *kind, "{id} (cache {cache})");
        assert!(
            d == *data,
            "{id} ({kind}, cache {cache}): {} bytes read, git has {}",
            d.len(),
            data.len()
        );
    }
    repo.pack_stats()
}

/// Pack entries of each kind in the packs of the object directory `objects`:
/// (full objects, OFS_DELTA, REF_DELTA).
fn entry_kinds(objects: &Path) -> (usize, usize, usize) {
    use gix::odb::pack::data::entry::Header;
    let (mut full, mut ofs, mut refs) = (0, 0, 0);
    for e in std::fs::read_dir(objects.join("pack")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_none_or(|x| x != "idx") {
            continue;
        }
        let bundle = gix::odb::pack::Bundle::at(&p, gix::hash::Kind::Sha1).unwrap();
        for entry in bundle.index.iter() {
            match bundle.pack.entry(entry.pack_offset).unwrap().header {
                Header::OfsDelta { .. } => ofs += 1,
                Header::RefDelta { .. } => refs += 1,
                _ => full += 1,
            }
        }
    }
    (full, ofs, refs)
}

/// The longest delta chain `git verify-pack -v` reports for the packs in `objects`.
fn longest_chain(sb: &Sandbox, r: &Path, objects: &Path) -> usize {
    let mut longest = 0;
    for e in std::fs::read_dir(objects.join("pack")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "idx") {
            for l in sb
                .git(r, &["verify-pack", "-v", p.to_str().unwrap()])
                .lines()
            {
                if let Some(n) = l.strip_prefix("chain length = ") {
                    longest = longest.max(n.split(':').next().unwrap().parse().unwrap());
                }
            }
        }
    }
    longest
}

/// Checks every object of `r` (a repository whose objects are all packed) in three
/// orders with three cache sizes; returns the number of pack entries read.
fn check_every_object(sb: &Sandbox, r: &Path) -> usize {
    let objects = cat_all(sb.git_cmd(r));
    let mut newest = newest_first(sb, r);
    // A file written twice in one fast-import commit leaves an unreachable blob.
    let seen: HashSet<_> = newest.iter().copied().collect();
    newest.extend(objects.keys().filter(|id| !seen.contains(*id)));
    assert_eq!(newest.len(), objects.len());
    let oldest: Vec<_> = newest.iter().rev().copied().collect();
    let mut shuffled = newest.clone();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for i in (1..shuffled.len()).rev() {
        shuffled.swap(i, rng.below(i + 1));
    }
    let repo = Repo::discover_with(r, &GitEnv::default()).unwrap();
    for order in [&newest, &oldest, &shuffled] {
        // Everything kept: each pack entry is decoded exactly once, whatever the order,
        // so every base and intermediate link went into the cache.
        let all = read_all(&repo, &objects, order, 1 << 30);
        assert_eq!(all.reads, objects.len() as u64);
        assert_eq!(all.fallbacks, 0);
        assert_eq!(all.bases + all.deltas, objects.len() as u64, "{all:?}");
        // Evicting all the time.
        let s = read_all(&repo, &objects, order, 16 * 1024);
        assert_eq!(s.fallbacks, 0);
        assert!(s.bases + s.deltas > all.bases + all.deltas, "{s:?}");
    }
    // No cache at all: every read rebuilds its whole chain.
    let s = read_all(&repo, &objects, &shuffled, 0);
    assert_eq!(s.fallbacks, 0);
    read_prefixes(&repo, &objects, &shuffled);
    objects.len()
}

/// Reads the start of every object in `order` ([`super::PackReader::read_prefix`]), with
/// and without a cache, for several lengths: each one is git's object, cut there.
fn read_prefixes(repo: &Repo, objects: &Objects, order: &[ObjectId]) {
    for cache in [0, 1 << 30] {
        repo.reset_pack_reader(cache);
        let mut buf = Vec::new();
        for (i, id) in order.iter().enumerate() {
            let (kind, data) = &objects[id];
            let want = [0, 1, 149, 100_000][i % 4];
            let Some(k) = repo.read_packed_prefix(id, want, &mut buf) else {
                panic!("{id} ({kind}) was not read from the packs (cache {cache})");
            };
            assert_eq!(k.to_string(), *kind, "{id}");
            // A delta comes whole; a full entry is cut where asked.
            assert!(
                buf.len() >= want.min(data.len()),
                "{id}: {} of {want}",
                buf.len()
            );
            assert!(
                data.starts_with(&buf),
                "{id} ({kind}, want {want}, cache {cache})"
            );
        }
        let s = repo.pack_stats();
        assert!(s.prefixes > 0 && s.fallbacks == 0, "{s:?}");
    }
}

/// Path probes over every commit of `r` (through the pack reader once it opens): each
/// path git's diff names is proven changed, and a path it does not name is not.
fn probe_every_commit(sb: &Sandbox, r: &Path) {
    let repo = Repo::discover_with(r, &GitEnv::default()).unwrap();
    for line in sb.git(r, &["rev-list", "main"]).lines() {
        let c = ObjectId::from_hex(line.as_bytes()).unwrap();
        let changed: Vec<String> = sb
            .git(
                r,
                &[
                    "diff-tree",
                    "--root",
                    "--no-commit-id",
                    "--name-only",
                    "-r",
                    line,
                ],
            )
            .lines()
            .map(str::to_owned)
            .collect();
        assert!(repo.commit_changes_all(c, &changed).unwrap(), "{line}");
        // (The root commit adds every file.)
        if let Some(unchanged) = (0..240)
            .step_by(4)
            .map(|i| format!("root{i:03}.txt"))
            .find(|p| !changed.contains(p))
        {
            assert!(!repo.commit_changes_all(c, &[unchanged]).unwrap(), "{line}");
        }
    }
    let s = repo.pack_stats();
    assert!(s.reads > 100 && s.fallbacks == 0, "{s:?}");
}

/// A generated history of `commits` commits written by `git fast-import` into `r`: a
/// wide root, nested directories, a long file edited a line at a time, files added and
/// deleted, so trees and blobs form long delta chains.
fn fast_import(sb: &Sandbox, r: &Path, seed: u64, first: usize, commits: usize) {
    let mut rng = Rng(seed | 1);
    let mut files: HashMap<String, Vec<String>> = HashMap::new();
    let mut stream = String::new();
    let path_of = |i: usize| match i % 4 {
        0 => format!("root{i:03}.txt"),
        1 => format!("src/mod{}/file{i:03}.rs", i % 5),
        2 => format!("src/mod{}/deep/er/f{i:03}.rs", i % 3),
        _ => format!("docs/page{i:03}.md"),
    };
    let lines = |rng: &mut Rng, n: usize| -> Vec<String> {
        (0..n)
            .map(|k| format!("line {k} of {}\n", rng.next_u64()))
            .collect()
    };
    // Continue from the ref when it exists (a second batch on top of the first).
    let parent = sb
        .git_cmd(r)
        .args(["rev-parse", "--verify", "-q", "refs/heads/main"])
        .output()
        .unwrap();
    for c in first..first + commits {
        let mut changes = String::new();
        let mut touch = |rng: &mut Rng, files: &mut HashMap<String, Vec<String>>, p: String| {
            let content = files.entry(p.clone()).or_insert_with(|| lines(rng, 3));
            let at = rng.below(content.len());
            content[at] = format!("edited in {c}: {}\n", rng.next_u64());
            if rng.below(3) == 0 {
                content.push(format!("added in {c}\n"));
            }
            let body: String = content.concat();
            write!(
                changes,
                "M 100644 inline {p}\ndata {}\n{body}\n",
                body.len()
            )
            .unwrap();
        };
        if c == 0 {
            for i in 0..240 {
                let p = path_of(i);
                files.insert(p.clone(), lines(&mut rng, 5));
                touch(&mut rng, &mut files, p);
            }
            let long = lines(&mut rng, 400);
            files.insert("long.txt".into(), long);
        }
        for _ in 0..3 {
            let p = path_of(rng.below(240));
            touch(&mut rng, &mut files, p);
        }
        touch(&mut rng, &mut files, "long.txt".into());
        match rng.below(6) {
            0 => {
                let p = format!("new/n{c}.txt");
                touch(&mut rng, &mut files, p);
            }
            1 => {
                let p = path_of(rng.below(240));
                if files.remove(&p).is_some() {
                    writeln!(changes, "D {p}").unwrap();
                }
            }
            _ => {}
        }
        let msg = format!("commit {c}\n");
        write!(
            stream,
            "commit refs/heads/main\ncommitter C O Mitter <c@example.com> {} +0000\ndata {}\n{msg}",
            1_700_000_000 + c * 60,
            msg.len()
        )
        .unwrap();
        if c == first && parent.status.success() {
            writeln!(
                stream,
                "from {}",
                String::from_utf8_lossy(&parent.stdout).trim()
            )
            .unwrap();
        }
        stream.push_str(&changes);
        stream.push('\n');
    }
    let mut cmd = sb.git_cmd(r);
    cmd.args(["fast-import", "--quiet"]);
    let out = run_with_input(cmd, stream.as_bytes());
    assert_ok(&out, "git fast-import");
}

#[test]
fn every_layout_reads_as_git_reads_it() {
    let sb = Sandbox::new();
    let r = sb.init("r");
    fast_import(&sb, &r, 7, 0, 120);
    let objects = r.join(".git/objects");

    // fast-import: each version a delta of the one before it.
    let (_, ofs, refs) = entry_kinds(&objects);
    assert!(ofs > 500 && refs == 0, "{ofs} {refs}");
    let n = check_every_object(&sb, &r);
    probe_every_commit(&sb, &r);
    let reachable = newest_first(&sb, &r).len();
    assert!(n >= reachable && reachable > 1200, "{n} {reachable}");

    // git's own layout: the newest version the base, chains of up to 50.
    sb.git(&r, &["repack", "-a", "-d", "-f", "--depth=50", "-q"]);
    assert!(longest_chain(&sb, &r, &objects) >= 40);
    let (_, ofs, refs) = entry_kinds(&objects);
    assert!(ofs > 500 && refs == 0, "{ofs} {refs}");
    assert_eq!(check_every_object(&sb, &r), reachable);
    probe_every_commit(&sb, &r);

    // Bases named by id.
    sb.git(
        &r,
        &[
            "-c",
            "repack.useDeltaBaseOffset=false",
            "repack",
            "-adf",
            "-q",
        ],
    );
    let (_, ofs, refs) = entry_kinds(&objects);
    assert!(ofs == 0 && refs > 500, "{ofs} {refs}");
    assert_eq!(check_every_object(&sb, &r), reachable);
    probe_every_commit(&sb, &r);
}

#[test]
fn a_loose_object_is_left_to_gix() {
    let sb = Sandbox::new();
    let r = sb.init("r");
    fast_import(&sb, &r, 11, 0, 5);
    write(&r, "loose.txt", "not in any pack\n");
    let id = sb.git(&r, &["hash-object", "-w", "loose.txt"]);
    let id = ObjectId::from_hex(id.trim().as_bytes()).unwrap();
    let missing = ObjectId::from_hex(b"0123456789abcdef0123456789abcdef01234567").unwrap();
    let repo = Repo::discover_with(&r, &GitEnv::default()).unwrap();
    assert_eq!(repo.read_packed(id), None);
    assert_eq!(repo.read_packed(missing), None);
    // A packed one still reads.
    let head = sb.git(&r, &["rev-parse", "HEAD^{tree}"]);
    let head = ObjectId::from_hex(head.trim().as_bytes()).unwrap();
    assert!(repo.read_packed(head).is_some());
    let s = repo.pack_stats();
    assert_eq!((s.reads, s.fallbacks), (3, 2));
}

/// Not a test of its own: the entry point the pre-receive hook runs (`<test-exe> --exact
/// repo::fast::packs::git_tests::pushed_pack_hook`). Without `PACKS_OUT` it does nothing. It reads every object git
/// sees in the hook (the quarantined push and the repository's own) through the pack
/// reader and writes what the quarantine's packs hold.
#[test]
fn pushed_pack_hook() {
    let Ok(out) = std::env::var("PACKS_OUT") else {
        return;
    };
    let cwd = std::env::current_dir().unwrap();
    let objects = cat_all(std::process::Command::new("git"));
    // Run by the pre-receive hook: the repository is the one git names in this environment.
    let repo = Repo::discover(&cwd).unwrap();
    let order: Vec<_> = objects.keys().rev().copied().collect();
    for cache in [1 << 30, 16 * 1024, 0] {
        let s = read_all(&repo, &objects, &order, cache);
        assert_eq!(s.fallbacks, 0);
    }
    let quarantine = std::env::var("GIT_QUARANTINE_PATH").unwrap();
    let (full, ofs, refs) = entry_kinds(Path::new(&quarantine));
    std::fs::write(
        out,
        format!(
            "objects={} full={full} ofs={ofs} ref={refs}\n",
            objects.len()
        ),
    )
    .unwrap();
}

#[test]
fn a_pushed_thin_pack_reads_from_the_quarantine() {
    let sb = Sandbox::new();
    let server = sb.init_bare("server.git");
    // Keep every push as a pack (git unpacks small pushes into loose objects).
    sb.git(&server, &["config", "receive.unpackLimit", "1"]);
    let client = sb.init("client");
    fast_import(&sb, &client, 13, 0, 60);
    let url = server.to_str().unwrap();
    sb.git(&client, &["push", "-q", url, "main"]);

    let out = sb.path().join("packs.out");
    let exe = std::env::current_exe().unwrap();
    let hook = server.join("hooks/pre-receive");
    std::fs::write(
        &hook,
        format!(
            "#!/bin/sh\nPACKS_OUT='{out}' '{exe}' --exact repo::fast::packs::git_tests::pushed_pack_hook --test-threads=1 >'{out}.log' 2>&1 || {{ cat '{out}.log' >&2; exit 1; }}\n",
            out = out.display(),
            exe = exe.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();

    // More versions of the same trees and files: the push sends them as deltas of
    // objects the server has (a thin pack), which git completes in the quarantine.
    fast_import(&sb, &client, 17, 60, 40);
    sb.git(&client, &["push", "-q", url, "main"]);
    let report = std::fs::read_to_string(&out).unwrap();
    let field = |name: &str| -> usize {
        report
            .split_whitespace()
            .find_map(|f| f.strip_prefix(&format!("{name}=")))
            .unwrap()
            .parse()
            .unwrap()
    };
    assert!(field("objects") > 1000, "{report}");
    // Deltas against the server's objects came by id, and git appended their bases.
    assert!(field("ref") > 0 && field("full") > 0, "{report}");
}

/// Damaged pack data never panics the reader: every object still reads as git's bytes or
/// as `None` (left to gix, which reports the damage).
#[test]
fn a_damaged_pack_is_left_to_gix() {
    let sb = Sandbox::new();
    let r = sb.init("r");
    fast_import(&sb, &r, 19, 0, 25);
    sb.git(&r, &["repack", "-a", "-d", "-f", "-q"]);
    let objects = cat_all(sb.git_cmd(&r));
    let dir = r.join(".git/objects/pack");
    let pack = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "pack"))
        .unwrap();
    let good = std::fs::read(&pack).unwrap();
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let (mut read, mut left) = (0, 0);
    for _ in 0..40 {
        let mut bad = good.clone();
        // Past the 12-byte header, before the 20-byte trailer.
        for _ in 0..1 + rng.below(4) {
            let at = 12 + rng.below(bad.len() - 32);
            bad[at] ^= 1 << rng.below(8);
        }
        std::fs::write(&pack, &bad).unwrap();
        let repo = Repo::discover_with(&r, &GitEnv::default()).unwrap();
        for id in objects.keys() {
            match repo.read_packed(*id) {
                Some(_) => read += 1,
                None => left += 1,
            }
        }
    }
    std::fs::write(&pack, &good).unwrap();
    assert!(read > 0 && left > 0, "{read} {left}");
}

/// The history of bench/trace-scaling.sh in small: `dirs` directories of `per_dir`
/// files, then `commits` commits each changing one file, repacked as clones are.
fn wide_dirs(sb: &Sandbox, r: &Path, dirs: usize, per_dir: usize, commits: usize) {
    let mut stream = String::new();
    let commit = |stream: &mut String, n: usize, changes: &str| {
        let msg = format!("commit {n}\n");
        write!(
            stream,
            "commit refs/heads/main\ncommitter C <c@example.com> {} +0000\ndata {}\n{msg}{changes}\n",
            1_700_000_000 + n * 60,
            msg.len()
        )
        .unwrap();
    };
    let file = |f: usize, body: &str| {
        format!(
            "M 100644 inline d{}/f{f:06}.txt\ndata {}\n{body}\n",
            f % dirs,
            body.len()
        )
    };
    let all: String = (0..dirs * per_dir)
        .map(|f| file(f, &format!("file {f}\n")))
        .collect();
    commit(&mut stream, 0, &all);
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    for n in 1..=commits {
        let f = rng.below(dirs * per_dir);
        commit(&mut stream, n, &file(f, &format!("file {f} version {n}\n")));
    }
    let mut cmd = sb.git_cmd(r);
    cmd.args(["fast-import", "--quiet"]);
    assert_ok(&run_with_input(cmd, stream.as_bytes()), "git fast-import");
    sb.git(r, &["repack", "-a", "-d", "-f", "-q"]);
}

#[test]
fn a_walk_keeps_the_shared_bases_of_large_trees() {
    // A range walk newest first reads each commit's trees; in a repacked history most
    // directory trees are at the greatest delta depth, built on a few shared bases.
    let sb = Sandbox::new();
    let r = sb.init("r");
    let (dirs, per_dir) = (7, 400);
    wide_dirs(&sb, &r, dirs, per_dir, 1500);
    let objects = cat_all(sb.git_cmd(&r));
    let mut order = Vec::new();
    for line in sb
        .git(
            &r,
            &["log", "-t", "--raw", "--no-abbrev", "--format=%T", "main"],
        )
        .lines()
    {
        let id = match line.strip_prefix(':') {
            Some(raw) if raw.ends_with(['0', '1', '2', '3', '4', '5', '6']) => {
                raw.split(' ').nth(3).unwrap()
            }
            Some(_) => continue,
            None if line.is_empty() => continue,
            None => line,
        };
        order.push(ObjectId::from_hex(id.as_bytes()).unwrap());
    }
    let dir_tree = objects[&order[1]].1.len();
    assert!(dir_tree > 15_000, "{dir_tree}");
    let repo = Repo::discover_with(&r, &GitEnv::default()).unwrap();
    // Everything kept: each entry decoded once.
    let all = read_all(&repo, &objects, &order, 1 << 30);
    // Room for 48 directory trees (a fixed byte budget against large trees): the trees
    // read once each must not push out the bases they share. The least-recently-used
    // cache this replaced applied 52,359 deltas and inflated 2,252 full trees here, 18
    // times what a cache keeping everything did; this one 3,507 and 91.
    let s = read_all(&repo, &objects, &order, 48 * dir_tree);
    assert_eq!(s.fallbacks, 0);
    assert!(
        (s.bases + s.deltas) * 2 < (all.bases + all.deltas) * 3,
        "{s:?} against {all:?}"
    );
}

/// `data` as one zlib stream, as a pack entry holds it.
fn deflated(data: &[u8]) -> Vec<u8> {
    use std::io::Write as _;
    let mut w = gix::zlib::stream::deflate::Write::new(Vec::new(), gix::zlib::Compression::DEFAULT);
    w.write_all(data).unwrap();
    // Ends the stream.
    w.flush().unwrap();
    w.into_inner()
}

proptest::proptest! {
    /// An entry inflated with room past its end reads as its bytes exactly, whatever
    /// its size and whatever follows it in the pack; a header that says more or fewer
    /// bytes than the stream holds, or a stream cut short, reads as `None`.
    #[test]
    fn an_entry_inflates_to_exactly_its_size(
        data in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..3000),
        repeat in 1usize..4,
        tail in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..40),
        off in 1usize..300,
    ) {
        let data = data.repeat(repeat);
        let stream = deflated(&data);
        let mut input = stream.clone();
        input.extend_from_slice(&tail);
        let mut inflate = gix::zlib::Inflate::default();
        let mut out = vec![7; 5];
        proptest::prop_assert!(super::inflate_exact(&mut inflate, &input, data.len(), &mut out).is_some());
        proptest::prop_assert_eq!(&out, &data);
        let more = data.len() + off;
        proptest::prop_assert!(super::inflate_exact(&mut inflate, &input, more, &mut out).is_none());
        proptest::prop_assert!(out.is_empty());
        if let Some(fewer) = data.len().checked_sub(off) {
            proptest::prop_assert!(super::inflate_exact(&mut inflate, &input, fewer, &mut out).is_none());
        }
        let cut = &stream[..stream.len().saturating_sub(off.min(stream.len()))];
        proptest::prop_assert!(super::inflate_exact(&mut inflate, cut, data.len(), &mut out).is_none());
    }
}

/// A header promising more than deflate can expand the rest of the pack to is turned
/// down before any buffer is allocated for it.
#[test]
fn an_absurd_size_is_not_allocated() {
    let stream = deflated(b"tree 0123\n");
    let mut inflate = gix::zlib::Inflate::default();
    let mut out = Vec::new();
    assert!(super::inflate_exact(&mut inflate, &stream, usize::MAX - 10, &mut out).is_none());
    assert!(super::inflate_exact(&mut inflate, &stream, 1 << 40, &mut out).is_none());
    assert_eq!(out.capacity(), 0);
}
