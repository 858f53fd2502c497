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

/// Nothing outside `repo/fast/` parses the index file by hand (docs/gix-delta-cache.md
/// is the model of what a hand-written reader there states): the index's signature,
/// `DIRC`, is named only there. Every other module reads the index through gix.
#[test]
fn only_the_fast_readers_parse_the_index_file() {
    let core = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fast = core.join("src/repo/fast");
    let crates = core.parent().unwrap();
    let mut named = Vec::new();
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
                && std::fs::read_to_string(&p).is_ok_and(|s| s.contains("DIRC"))
            {
                named.push(p);
            }
        }
    }
    assert!(
        named.iter().any(|p| p.starts_with(&fast)),
        "control: the reader in repo/fast/ names it: {named:?}"
    );
    let outside: Vec<_> = named.iter().filter(|p| !p.starts_with(&fast)).collect();
    assert!(
        outside.is_empty(),
        "the index parsed outside repo/fast/: {outside:?}"
    );
}
