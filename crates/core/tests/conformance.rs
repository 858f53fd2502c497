//! The conformance corpus: messages and expected verdicts from other projects' test
//! suites and the Conventional Commits 1.0.0 text, one file per source in
//! `fixtures/conformance/` (each names its repository, paths, commit and licence).
//!
//! Spec-level cases (the spec's grammar decides them) must agree under a permissive
//! convention: any type, a free body, no path tracing, no length or period rule, no
//! exemptions, no placeholders. Policy cases (a peer's own style rule) are a snapshot of
//! what the default convention says about each; docs/check.md explains the differences.

use std::collections::BTreeSet;
use std::path::Path;

use jitcommit_core::config::{BodyPolicy, Convention};
use jitcommit_core::gitenv::cleanup_whitespace;
use jitcommit_core::rules::check;

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Source {
    source: String,
    paths: Vec<String>,
    commit: String,
    licence: String,
    verdicts: String,
    case: Vec<Case>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    message: String,
    verdict: Verdict,
    level: Level,
    note: Option<String>,
}

#[derive(serde::Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "lowercase")]
enum Verdict {
    Valid,
    Invalid,
}

#[derive(serde::Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "lowercase")]
enum Level {
    Spec,
    Policy,
}

fn sources() -> Vec<(String, Source)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/conformance");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| {
            let text =
                std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            let name = p.file_stem().map(|s| s.to_string_lossy().into_owned());
            let src: Source =
                toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (name.unwrap_or_default(), src)
        })
        .collect()
}

/// The spec's grammar and nothing else.
fn permissive() -> Convention {
    Convention {
        types: Vec::new(),
        subject_max: 0,
        subject_period: false,
        subject_summary: false,
        body: BodyPolicy::Free,
        trace_paths: false,
        exempt: Vec::new(),
        placeholders: Vec::new(),
        ..Convention::default()
    }
}

/// What git stores for a message given with `-m`/`-F` (the validator checks stored
/// messages after the same cleanup).
fn stored(message: &str) -> String {
    cleanup_whitespace(message)
}

#[test]
fn spec_level_cases_agree_under_a_permissive_convention() {
    let conv = permissive();
    let mut spec = 0;
    let mut from = BTreeSet::new();
    let mut wrong = Vec::new();
    for (name, src) in sources() {
        assert!(
            !src.source.is_empty()
                && !src.paths.is_empty()
                && !src.commit.is_empty()
                && !src.licence.is_empty()
                && !src.verdicts.is_empty(),
            "{name}: every source names its repository, paths, commit, licence and verdicts"
        );
        for case in src.case.iter().filter(|c| c.level == Level::Spec) {
            spec += 1;
            from.insert(src.source.clone());
            let findings = check(&stored(&case.message), &conv, None);
            let got = if findings.is_empty() {
                Verdict::Valid
            } else {
                Verdict::Invalid
            };
            if got != case.verdict {
                let rules: Vec<_> = findings.iter().map(|f| f.rule()).collect();
                wrong.push(format!(
                    "{name}: {:?}: expected {:?}, got {rules:?} ({})",
                    case.message,
                    case.verdict,
                    case.note.as_deref().unwrap_or("")
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} disagreements:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    assert!(spec >= 200, "only {spec} spec-level cases");
    assert!(from.len() >= 6, "only {} sources: {from:?}", from.len());
}

#[test]
fn policy_cases_under_the_default_convention() {
    let conv = Convention::default();
    let mut out = String::new();
    for (name, src) in sources() {
        for case in src.case.iter().filter(|c| c.level == Level::Policy) {
            let findings = check(&stored(&case.message), &conv, None);
            let rules: BTreeSet<_> = findings.iter().map(|f| f.rule()).collect();
            let subject = case.message.lines().next().unwrap_or("");
            out.push_str(&format!(
                "{name}: {subject:?}\n  {:?} by the source; jitcommit (default convention): {}\n  {}\n",
                case.verdict,
                if rules.is_empty() {
                    "clean".to_string()
                } else {
                    rules.into_iter().collect::<Vec<_>>().join(", ")
                },
                case.note.as_deref().unwrap_or("")
            ));
        }
    }
    insta::assert_snapshot!(out);
}
