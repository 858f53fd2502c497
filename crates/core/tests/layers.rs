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
