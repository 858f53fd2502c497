//! A test convention until `Convention` has `impl Default`: DESIGN §4's defaults.
#![allow(dead_code)]

use std::collections::BTreeMap;

use jitcommit_core::config::{BodyPolicy, ContextSettings, Convention, Encoding, Exemption};
use jitcommit_core::rules::ChangedPaths;

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

pub fn conv() -> Convention {
    Convention {
        types: strings(&[
            "feat", "fix", "perf", "refactor", "docs", "test", "build", "ci", "chore", "revert",
        ]),
        scopes: Vec::new(),
        verbs: strings(&[
            "Add", "Update", "Fix", "Remove", "Rename", "Move", "Refactor", "Document", "Test",
        ]),
        subject_max: 72,
        body: BodyPolicy::Required,
        body_wrap: 0,
        trace_paths: true,
        strict_separator: false,
        exempt: vec![
            Exemption::Merge,
            Exemption::Revert,
            Exemption::Fixup,
            Exemption::Squash,
            Exemption::Amend,
        ],
        sections: BTreeMap::new(),
        context: ContextSettings {
            budget_tokens: 4096,
            reserve_output_tokens: 512,
            exclude: Vec::new(),
            encoding: Encoding::Cl100k,
            safety_margin_percent: 0,
        },
    }
}

pub fn optional_body() -> Convention {
    Convention {
        body: BodyPolicy::Optional,
        ..conv()
    }
}

pub fn changed() -> ChangedPaths {
    ChangedPaths::from_paths([
        "src/parser.rs",
        "src/lib.rs",
        "docs/old.md",
        "docs/new.md",
        "README.md",
    ])
}
