//! Arbitrary bytes as a `.commit-context.md`: the fact store's scanner and parser never
//! panic; every fact they keep has a valid, unique ID and a value of one line within the
//! cap; a kept `SCOPE` value reads back from a subject as itself; every problem names a
//! line of the input; the generated index holds exactly the parsed facts; writing the
//! facts back as bare lines parses to the same facts; and the selection over a few paths
//! stays within the store.
#![no_main]

use std::collections::BTreeSet;

use jitcommit_core::facts::{self, FILE, MAX_ID, MAX_VALUE, Store};
use jitcommit_core::message;
use jitcommit_drafter::select;
use libfuzzer_sys::fuzz_target;

/// The fields that survive a round trip (the line moves when the text is rewritten).
fn kept(store: &Store) -> Vec<(&str, &str, &str, &str)> {
    let mut v: Vec<_> = store
        .facts
        .iter()
        .map(|f| {
            (
                f.id.as_str(),
                f.class.as_str(),
                f.key.as_str(),
                f.value.as_str(),
            )
        })
        .collect();
    v.sort();
    v
}

fuzz_target!(|data: &[u8]| {
    let (store, problems) = facts::parse(FILE, data);
    let lines = data.split(|&b| b == b'\n').count();
    for p in &problems {
        assert!(p.line >= 1 && p.line <= lines, "{p:?} of {lines} lines");
        assert_eq!(p.file, FILE);
    }
    let mut ids = BTreeSet::new();
    for f in &store.facts {
        assert!(ids.insert(f.id.as_str()), "duplicate ID kept: {}", f.id);
        assert_eq!(facts::check_fact(&f.id, &f.value), Ok(()), "{f:?}");
        assert_eq!(f.id, format!("{}.{}", f.class, f.key));
        assert!(f.id.chars().count() <= MAX_ID, "{f:?}");
        assert!(f.value.chars().count() <= MAX_VALUE, "{f:?}");
        assert!(!f.value.is_empty() && f.value == f.value.trim(), "{f:?}");
        assert!(!f.value.chars().any(char::is_control), "{f:?}");
        assert!(!f.value.contains(['\u{2028}', '\u{2029}']), "{f:?}");
        assert!(f.line >= 1 && f.line <= lines, "{f:?}");
        // A kept scope is one a drafted subject shows as itself.
        if f.class == "SCOPE" {
            assert!(message::reads_back_as_scope(&f.value), "{f:?}");
        }
    }

    // The generated index holds exactly the parsed facts, keyed by ID, sorted.
    let index = store.index();
    let map: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(&index).expect("the index is a JSON object");
    assert_eq!(map.len(), store.facts.len());
    assert!(
        map.keys().zip(map.keys().skip(1)).all(|(a, b)| a < b),
        "sorted by ID"
    );
    for f in &store.facts {
        let entry = &map[&f.id];
        assert_eq!(entry["class"], f.class.as_str());
        assert_eq!(entry["value"], f.value.as_str());
        assert_eq!(entry["file"], FILE);
    }

    // The facts written back one per line, bare, are read as the same facts.
    let rewritten: String = store
        .facts
        .iter()
        .map(|f| format!("{}={}\n", f.id, f.value))
        .collect();
    let (again, problems) = facts::parse(FILE, rewritten.as_bytes());
    assert!(problems.is_empty(), "{problems:?} in {rewritten:?}");
    assert_eq!(kept(&again), kept(&store), "{rewritten:?}");
    assert_eq!(again.index(), index);

    // Selection over a few paths (and the input as the diff) keeps to the store.
    let paths = ["src/lib.rs", "docs/guide.md", "README.md"].map(String::from);
    let text = String::from_utf8_lossy(data);
    let selected = select::select(&store, &paths, &[("src/lib.rs".to_string(), &text)]);
    for s in &selected {
        assert!(ids.contains(s.fact.id.as_str()), "{s:?}");
    }
    let _ = select::fragment(&selected, 64);
    let _ = select::scopes_for(&store, &paths);
});
