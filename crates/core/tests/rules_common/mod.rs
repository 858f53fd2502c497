//! The built-in convention and a fixed set of changed paths for the rule tests.
#![allow(dead_code)]

use jitcommit_core::config::{BodyPolicy, Convention};
use jitcommit_core::rules::ChangedPaths;

/// The built-in convention (DESIGN §4), body required.
pub fn conv() -> Convention {
    Convention::default()
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
