//! The built-in convention and a fixed set of changed paths for the rule tests.
#![allow(dead_code)]

use jitcommit_core::config::{BodyPolicy, Convention};
use jitcommit_core::repo::{Change, ChangeKind};
use jitcommit_core::rules::ChangedPaths;

/// The built-in convention (docs/design.md §4), body required.
pub fn conv() -> Convention {
    Convention::default()
}

pub fn optional_body() -> Convention {
    Convention {
        body: BodyPolicy::Optional,
        ..conv()
    }
}

/// The changed paths, with statuses: `src/parser.rs` added, `src/lib.rs` and `README.md`
/// modified, `docs/old.md` renamed to `docs/new.md`.
pub fn changed() -> ChangedPaths {
    let c = |kind, path: &str, old: Option<&str>| Change {
        kind,
        path: path.into(),
        old_path: old.map(Into::into),
        old_mode: (kind != ChangeKind::Added).then_some(0o100644),
        new_mode: Some(0o100644),
    };
    ChangedPaths::new(&[
        c(ChangeKind::Added, "src/parser.rs", None),
        c(ChangeKind::Modified, "src/lib.rs", None),
        c(ChangeKind::Renamed, "docs/new.md", Some("docs/old.md")),
        c(ChangeKind::Modified, "README.md", None),
    ])
}
