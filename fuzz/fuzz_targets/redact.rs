//! Arbitrary text through the redaction gate, as a plain text, a hunk body and every
//! part of a staged state. None of it may panic, and nothing a rule matches may leave:
//! a second pass over what the gate let through finds nothing (the model client's
//! last pass relies on this), and a hunk keeps its number of lines.
#![no_main]

use jitcommit_drafter::redact::{redact_diff_body, redact_state, redact_text};
use jitcommit_core::repo::{Change, ChangeKind, FileDiff, Hunk, StagedState};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let once = redact_text(&text);
    let twice = redact_text(&once.text);
    assert!(
        twice.found.is_empty(),
        "{:?} left {:?}",
        once.text,
        twice.found
    );
    assert_eq!(twice.text, once.text);

    let body = redact_diff_body(&text);
    assert_eq!(body.text.lines().count(), text.lines().count());
    assert!(
        redact_diff_body(&body.text).found.is_empty(),
        "{:?}",
        body.text
    );

    let line = text.lines().next().unwrap_or("").to_owned();
    let state = StagedState {
        branch: Some(line.clone()),
        initial: false,
        files: vec![FileDiff {
            change: Change {
                kind: ChangeKind::Modified,
                path: line.as_str().into(),
                old_path: Some(line.as_str().into()),
                old_mode: None,
                new_mode: None,
            },
            header: format!("diff --git a/{line} b/{line}\n"),
            hunks: vec![Hunk {
                header: format!("@@ -1,2 +1,2 @@ {line}"),
                body: text.to_string(),
            }],
            added: 1,
            removed: 1,
            binary: false,
            submodule: false,
            linguist: None,
            read: true,
        }],
    };
    let (clean, _) = redact_state(&state);
    let (again, found) = redact_state(&clean);
    assert!(found.is_empty(), "{clean:?}");
    assert_eq!(again, clean);
});
