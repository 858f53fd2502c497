//! A `jitcommit.*` git config key no tool reads (a typo such as `jitcommit.timout`,
//! which git ignores without a word) is named, with the nearest known key, by `jitcommit
//! doctor` and once on stderr by the draft hook, which still never blocks the commit
//! (docs/trust.md, "Settings").
#![allow(clippy::unwrap_used)]

use crate::{draft_support, jitcommit_support};

use draft_support::{Repo, write};

#[test]
fn the_draft_hook_names_a_mistyped_key_once_and_commits() {
    let r = Repo::new();
    r.git(&["config", "jitcommit.timout", "30s"]);
    write(&r.dir, "a.txt", "a\n");
    r.git(&["add", "a.txt"]);
    let err = r.ok(&["-c", "jitcommit.modle=qwen", "commit", "-q"]);
    let said = "git config jitcommit.timout is not a jitcommit setting and is ignored (did you mean jitcommit.timeout?)";
    assert_eq!(err.matches(said).count(), 1, "{err}");
    assert_eq!(
        err.matches("jitcommit.modle is not a jitcommit setting and is ignored (did you mean jitcommit.model?)")
            .count(),
        1,
        "{err}"
    );
    assert_eq!(r.git(&["rev-list", "--count", "HEAD"]).trim(), "2");
    // Known keys, in any case, are never named.
    r.git(&["config", "--unset", "jitcommit.timout"]);
    r.git(&["config", "jitcommit.TimeOut", "30s"]);
    write(&r.dir, "b.txt", "b\n");
    r.git(&["add", "b.txt"]);
    let err = r.ok(&["commit", "-q"]);
    assert!(!err.contains("is not a jitcommit setting"), "{err}");
}

#[test]
fn doctor_names_a_mistyped_key_with_the_fix() {
    let sb = jitcommit_testkit::Sandbox::new();
    let r = jitcommit_support::Repo::new(&sb, "r");
    r.commit("a.txt", "a\n", "feat: start");
    r.git(&["config", "jitcommit.timout", "30s"]);
    let o = r.jc(&["doctor", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let found: Vec<&serde_json::Value> = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["check"] == "git config")
        .collect();
    assert_eq!(found.len(), 1, "{v}");
    assert_eq!(found[0]["status"], "fail");
    let detail = found[0]["detail"].as_str().unwrap();
    assert!(detail.contains("jitcommit.timout"), "{detail}");
    assert!(
        detail.contains("did you mean jitcommit.timeout?"),
        "{detail}"
    );
    assert!(
        found[0]["fix"]
            .as_str()
            .unwrap()
            .contains("git config --unset jitcommit.timout"),
        "{v}"
    );
}

/// Every `jitcommit.*` git config key that jitcommit's own hooks and install.sh read or
/// write (`jitcommit.policy`, `jitcommit.checkFirstPush`, …) is a known one: set them
/// all, and doctor names none of them as a typo.
#[test]
fn the_keys_the_hooks_and_install_sh_read_are_known() {
    let root = crate::install_support::source_root();
    let mut keys = std::collections::BTreeSet::new();
    for f in [
        "install.sh",
        "hooks/pre-receive",
        "hooks/update",
        "hooks/prepare-commit-msg",
    ] {
        let text = std::fs::read_to_string(root.join(f)).unwrap();
        let mut rest = text.as_str();
        while let Some(i) = rest.find("jitcommit.") {
            let after = &rest[i + "jitcommit.".len()..];
            let name: String = after
                .chars()
                .take_while(char::is_ascii_alphanumeric)
                .collect();
            // A key (`jitcommit.policy`), not a file (`jitcommit.toml`) or a sentence's end.
            let before = rest[..i].chars().next_back();
            if !name.is_empty()
                && name.chars().next().is_some_and(|c| c.is_ascii_lowercase())
                && before.is_none_or(|c| !c.is_ascii_alphanumeric() && c != '/' && c != '-')
                && !after[name.len()..].starts_with(['.', '-'])
            {
                keys.insert(format!("jitcommit.{name}"));
            }
            rest = &after[name.len()..];
        }
    }
    assert!(
        keys.contains("jitcommit.checkFirstPush") && keys.contains("jitcommit.policy"),
        "control: the scan finds the server's keys: {keys:?}"
    );
    let sb = jitcommit_testkit::Sandbox::new();
    let r = jitcommit_support::Repo::new(&sb, "r");
    r.commit("a.txt", "a\n", "feat: start");
    for k in &keys {
        r.git(&["config", k, "false"]);
    }
    let o = r.jc(&["doctor", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let typos: Vec<&serde_json::Value> = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["check"] == "git config")
        .collect();
    assert!(typos.is_empty(), "{keys:?}: {typos:?}");
}
