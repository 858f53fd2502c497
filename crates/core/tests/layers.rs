//! One direction between the crate's modules (docs/design.md §1): no module reaches
//! back, through `crate::` paths, to a module that reaches it. The cycles still to
//! break are named here, so a new one fails the test and a broken one must be struck
//! off the list.

use std::path::Path;

/// The cycles between modules not yet broken, as `jitcommit_testkit::layers::cycles`
/// prints them: none left. `config` is a leaf; the features' checks on the values
/// they keep in it reach its reader through `convention`.
const KNOWN: &[&str] = &[];

#[test]
fn modules_reference_each_other_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = jitcommit_testkit::layers::graph(&src);
    assert!(
        graph.len() > 3,
        "control: the graph has the crate's modules: {graph:?}"
    );
    let found = jitcommit_testkit::layers::cycles(&graph);
    assert_eq!(found, KNOWN, "module cycles (graph: {graph:#?})");
}

/// What reading git's bytes by hand looks like in the source, each with what it reads
/// (test fixtures that write a commit's text are not reading it: the names here are
/// the byte strings a reader matches):
/// the index's signature, a commit's `encoding` header name as bytes, zlib (an
/// object's compressed data), a pack entry's delta header, a tree entry's mode from its
/// bytes. The other header names went back to gix with their reader ([`BACK_TO_GIX`]).
/// gix's own parsers (`CommitRefIter`, `TreeRefIter`, `index::File`) are not hand
/// reading and may be used anywhere.
const BY_HAND: &[(&str, &str)] = &[
    ("DIRC", "the index file"),
    ("b\"encoding", "a commit's headers"),
    ("zlib::", "an object's compressed data"),
    ("OfsDelta", "a pack entry"),
    ("EntryMode::from_bytes", "a tree's entries"),
];

/// What reading git's bytes by hand looked like for the readers that went back to gix
/// (issue 47, `repo/commit.rs`): a commit's header names as bytes. No reader names them
/// any more, in `repo/fast/` or out of it; only the fixtures of `repo/fast/`'s tests
/// (`*_tests.rs`, which write such text) may.
const BACK_TO_GIX: &[(&str, &str)] = &[
    ("b\"tree", "a commit's headers"),
    ("b\"parent", "a commit's headers"),
    ("b\"author", "a commit's headers"),
    ("b\"committer", "a commit's headers"),
];

/// The crate's, the drafter's and the binaries' source files: (path, text).
#[allow(clippy::unwrap_used)]
fn sources(core: &Path) -> Vec<(std::path::PathBuf, String)> {
    let crates = core.parent().unwrap();
    let mut out = Vec::new();
    let mut stack = vec![core.join("src"), crates.join("draft/src")];
    stack.push(crates.parent().unwrap().join("src"));
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs")
                && let Ok(text) = std::fs::read_to_string(&p)
            {
                out.push((p, text));
            }
        }
    }
    out
}

/// Nothing outside `repo/fast/` reads git's bytes by hand (docs/gix-delta-cache.md is
/// the model of what a hand-written reader there states): each signature in
/// [`BY_HAND`] is named only there. Every other module reads through gix, or through a
/// reader in `repo/fast/`.
#[test]
fn only_the_fast_readers_read_git_bytes_by_hand() {
    let core = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fast = core.join("src/repo/fast");
    let files = sources(core);
    assert!(
        files.len() > 20 && files.iter().any(|(p, _)| p.ends_with("repo/walk.rs")),
        "control: the sources are read"
    );
    let mut outside = Vec::new();
    for (sig, what) in BY_HAND {
        let named: Vec<_> = files.iter().filter(|(_, t)| t.contains(sig)).collect();
        assert!(
            named.iter().any(|(p, _)| p.starts_with(&fast)),
            "control: a reader in repo/fast/ names {sig:?}"
        );
        outside.extend(
            named
                .iter()
                .filter(|(p, _)| !p.starts_with(&fast))
                .map(|(p, _)| format!("{} ({sig:?}: {what})", p.display())),
        );
    }
    assert!(
        outside.is_empty(),
        "git's bytes read by hand outside repo/fast/: {outside:#?}"
    );
}

/// The readers that went back to gix ([`BACK_TO_GIX`]) stay gone: their signatures are
/// named nowhere, in `repo/fast/` or out of it, but in the fixtures of its tests.
#[test]
fn the_readers_back_in_gix_stay_gone() {
    let core = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fast = core.join("src/repo/fast");
    let files = sources(core);
    assert!(
        files.iter().any(|(p, _)| p.ends_with("repo/commit.rs")),
        "control: the sources are read"
    );
    let fixture = |p: &Path| {
        p.starts_with(&fast)
            && p.file_name()
                .is_some_and(|n| n.to_string_lossy().ends_with("_tests.rs"))
    };
    let mut found = Vec::new();
    for (sig, what) in BACK_TO_GIX {
        assert!(
            !BY_HAND.iter().any(|(s, _)| s == sig),
            "{sig:?} is a live reader's or a gone one's, not both"
        );
        found.extend(
            files
                .iter()
                .filter(|(p, t)| t.contains(sig) && !fixture(p))
                .map(|(p, _)| format!("{} ({sig:?}: {what})", p.display())),
        );
    }
    assert!(
        found.is_empty(),
        "git's bytes read by hand again where gix reads them: {found:#?}"
    );
}
