//! Staged states built in memory for the crate's unit tests: one file diff per path,
//! one added line each, hunks only where a test names their headers.

use jitcommit_core::repo::{Change, ChangeKind, FileDiff, Hunk, StagedState};

/// A file diff of `kind` at `path` (renamed from `old`), one hunk per header in
/// `headers`, each adding one line.
pub fn file(kind: ChangeKind, path: &str, old: Option<&str>, headers: &[&str]) -> FileDiff {
    FileDiff {
        change: Change {
            kind,
            path: path.into(),
            old_path: old.map(Into::into),
            old_mode: (kind != ChangeKind::Added).then_some(0o100644),
            new_mode: (kind != ChangeKind::Deleted).then_some(0o100644),
        },
        header: String::new(),
        hunks: headers
            .iter()
            .map(|h| Hunk {
                header: (*h).to_owned(),
                body: "+x\n".to_owned(),
            })
            .collect(),
        added: 1,
        removed: 0,
        binary: false,
        submodule: false,
        linguist: None,
        read: true,
    }
}

/// The staged state of `files` on branch `main`.
pub fn state(files: Vec<FileDiff>) -> StagedState {
    StagedState {
        branch: Some("main".into()),
        initial: false,
        files,
    }
}

/// The staged state of `paths`, each with the status given and no hunks.
pub fn of_paths(paths: &[(ChangeKind, &str)]) -> StagedState {
    state(paths.iter().map(|(k, p)| file(*k, p, None, &[])).collect())
}
