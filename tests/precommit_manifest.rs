//! `.pre-commit-hooks.yaml` asks for the pre-commit release whose features the hooks
//! need (2.21.0: `language: rust` installs a toolchain when none is there; 2.20.0
//! already exports PRE_COMMIT_COMMIT_MSG_SOURCE), and the guide's pre-commit section
//! (docs/guide.md; the README's first hour links it) opens with the `pre-commit install --hook-type …` line people forget. (The real
//! framework runs the hooks in tests/precommit.rs, a release build.)
#![allow(clippy::unwrap_used)]

use crate::install_support::source_root;

use yaml_rust2::{Yaml, YamlLoader};

const NEEDED: (u64, u64, u64) = (2, 21, 0);
const INSTALL: &str = "pre-commit install --hook-type prepare-commit-msg --hook-type commit-msg";

fn version(s: &str) -> (u64, u64, u64) {
    let mut it = s.split('.').map(|p| p.parse::<u64>().unwrap());
    (
        it.next().unwrap(),
        it.next().unwrap_or(0),
        it.next().unwrap_or(0),
    )
}

#[test]
fn every_hook_names_a_minimum_pre_commit_version_with_rust_support() {
    let text = std::fs::read_to_string(source_root().join(".pre-commit-hooks.yaml")).unwrap();
    let docs = YamlLoader::load_from_str(&text).unwrap();
    let hooks = docs[0].as_vec().unwrap();
    assert_eq!(hooks.len(), 4);
    for hook in hooks {
        let id = hook["id"].as_str().unwrap();
        let min = match &hook["minimum_pre_commit_version"] {
            Yaml::String(s) => s.clone(),
            Yaml::Real(s) => s.clone(),
            other => panic!("{id}: minimum_pre_commit_version is {other:?}"),
        };
        assert!(version(&min) >= NEEDED, "{id}: {min} is older than 2.21.0");
    }
}

/// Issue 48: beside each hook that builds (`language: rust`), one with its own id that
/// runs the installed binary (`language: system`), same entry and stage.
#[test]
fn each_building_hook_has_a_system_twin() {
    let text = std::fs::read_to_string(source_root().join(".pre-commit-hooks.yaml")).unwrap();
    let docs = YamlLoader::load_from_str(&text).unwrap();
    let hooks = docs[0].as_vec().unwrap();
    let mut ids: Vec<&str> = hooks.iter().map(|h| h["id"].as_str().unwrap()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), hooks.len(), "distinct ids: {ids:?}");
    for (bin, stage) in [
        ("jitcommit-draft", "prepare-commit-msg"),
        ("jitcommit-check", "commit-msg"),
    ] {
        for (id, language) in [
            (bin.to_owned(), "rust"),
            (format!("{bin}-system"), "system"),
        ] {
            let h = hooks
                .iter()
                .find(|h| h["id"].as_str() == Some(id.as_str()))
                .unwrap_or_else(|| panic!("no hook {id}"));
            assert_eq!(h["language"].as_str(), Some(language), "{id}");
            assert_eq!(h["entry"].as_str(), Some(bin), "{id}");
            assert_eq!(h["stages"][0].as_str(), Some(stage), "{id}");
            assert_eq!(h["always_run"].as_bool(), Some(true), "{id}");
        }
    }
    let guide = std::fs::read_to_string(source_root().join("docs/guide.md")).unwrap();
    assert!(
        guide.contains("jitcommit-draft-system") && guide.contains("jitcommit-check-system"),
        "the guide says which pair to pick"
    );
}

#[test]
fn the_guides_pre_commit_section_opens_with_the_install_line() {
    let guide = std::fs::read_to_string(source_root().join("docs/guide.md")).unwrap();
    let section = guide.split_once("## The pre-commit framework\n").unwrap().1;
    let first: Vec<&str> = section
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(3)
        .collect();
    assert_eq!(first, ["```sh", INSTALL, "```"], "{section}");
}
