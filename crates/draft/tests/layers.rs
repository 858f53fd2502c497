//! One direction between the crate's modules (docs/design.md §1): no module reaches
//! back, through `crate::` paths, to a module that reaches it. The cycles still to
//! break are named here, so a new one fails the test and a broken one must be struck
//! off the list.

use std::path::Path;

/// The cycles between modules not yet broken, as `jitcommit_testkit::layers::cycles`
/// prints them: none left. The structure reads the answer's type from `answer` and
/// a file's worth from `classify`, two leaves, and never the prompt's pieces.
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

fn src() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The modules that talk to a model server: they send what they are given.
const CLIENT: &[&str] = &["client", "ollama", "openai", "wire", "discover"];

/// What builds prompt text: the client modules reach none of it.
const PROMPT_BUILDERS: &[&str] = &["prompt", "fragments", "budget", "structure", "select"];

#[test]
fn the_client_sends_what_it_is_given() {
    let graph = jitcommit_testkit::layers::graph(&src());
    for m in CLIENT {
        let reached = graph.get(*m).cloned().unwrap_or_default();
        let builders: Vec<&String> = reached
            .iter()
            .filter(|r| PROMPT_BUILDERS.contains(&r.as_str()))
            .collect();
        assert!(builders.is_empty(), "{m} reaches {builders:?}");
    }
    assert!(
        graph.get("client").is_some_and(|r| r.contains("redact")),
        "control: the client takes the gate's type: {graph:?}"
    );
    // Nor does it redact: what it is handed went through the gate already.
    for c in jitcommit_testkit::layers::code(&src()) {
        if CLIENT.contains(&c.top.as_str()) {
            for call in ["gate(", "gate_json(", "redact_text(", "redact_diff_body("] {
                assert!(!c.text.contains(call), "{}: {call}", c.path.display());
            }
        }
    }
}

/// The redactors under the gate, which hand back plain strings and diffs.
const RAW_REDACTORS: &[&str] = &[
    "redact_text(",
    "redact_diff_body(",
    "redact_state(",
    "redact_names(",
    "redact_file_names(",
    "redact_bodies(",
    "Redacted(",
];

#[test]
fn only_the_gate_turns_repository_text_into_prompt_text() {
    let code = jitcommit_testkit::layers::code(&src());
    let gate = Path::new("redact.rs");
    for c in code.iter().filter(|c| c.path != gate) {
        for raw in RAW_REDACTORS {
            // `crate::redact::Redacted(`, `redact_text(`: a call or a construction.
            let found = c
                .text
                .match_indices(raw)
                .any(|(i, _)| !c.text[..i].ends_with(|ch: char| ch.is_alphanumeric() || ch == '_'));
            assert!(!found, "{} calls {raw} outside the gate", c.path.display());
        }
    }
    assert!(
        code.iter()
            .any(|c| c.path == gate && c.text.contains("pub fn gate(")),
        "control: the gate is in redact.rs"
    );
    // The composer's inputs hold the change only as the gate let it through: no
    // staged state, diff or intent of the repository's own.
    for (file, item) in [
        ("prompt.rs", "pub struct PromptInput"),
        ("fragments.rs", "pub struct Sources"),
    ] {
        let text = &code
            .iter()
            .find(|c| c.path == Path::new(file))
            .unwrap_or_else(|| panic!("{file}"))
            .text;
        let start = text.find(item).unwrap_or_else(|| panic!("{item}"));
        let body = &text[start..start + text[start..].find("\n}").unwrap_or(0)];
        assert!(body.contains("GatedChange"), "{item}: {body}");
        for raw in ["StagedState", "FileDiff", "LazyStaged", "intent:"] {
            assert!(!body.contains(raw), "{item} takes {raw}: {body}");
        }
    }
}

/// Where a staged file's hunk bodies may be read as they are: the gate, the offline
/// analyses (the offline draft and its words, whose names reach a prompt only through
/// the gate: `redact::found_in_gated`), and the quality gate, which judges the model's
/// words against the diff and builds no prompt text. Every other module reads a body
/// through the gate's types (`GatedFile::bodies`, `redact::hunk_bodies`).
const RAW_BODY_READERS: &[&str] = &["redact", "offline", "change_words", "quality", "fixtures"];

#[test]
fn hunk_bodies_are_read_only_through_the_gate() {
    let code = jitcommit_testkit::layers::code(&src());
    let mut readers = std::collections::BTreeSet::new();
    for c in &code {
        // A hunk's text is reached by the `.hunks` field of a diff (the method
        // `.hunks()` is the gate's, on a file it redacted) or by naming `Hunk`.
        let field = c.text.match_indices(".hunks").any(|(i, _)| {
            let after = c.text[i + ".hunks".len()..].chars().next();
            !after.is_some_and(|ch| ch.is_alphanumeric() || ch == '_' || ch == '(')
        });
        let named = c.text.match_indices("Hunk").any(|(i, _)| {
            let after = c.text[i + "Hunk".len()..].chars().next();
            !c.text[..i].ends_with(|ch: char| ch.is_alphanumeric() || ch == '_')
                && !after.is_some_and(|ch| ch.is_alphanumeric() || ch == '_')
        });
        if field || named {
            readers.insert(c.top.clone());
            assert!(
                RAW_BODY_READERS.contains(&c.top.as_str()),
                "{} reads hunk bodies outside the gate",
                c.path.display()
            );
        }
    }
    assert!(
        readers.contains("redact") && readers.contains("offline"),
        "control: the gate and the offline analyses read bodies: {readers:?}"
    );
    // The composer's view of the change is the gate's: `GatedChange::state` hands out
    // no staged state.
    let gate = code
        .iter()
        .find(|c| c.path == Path::new("redact.rs"))
        .expect("redact.rs");
    assert!(
        gate.text.contains("pub fn state(&self) -> GatedState<'_>"),
        "GatedChange::state gives the gated view"
    );
    // Nor do the pieces and the facts' selection take one of their own.
    for file in ["fragments.rs", "select.rs"] {
        let text = &code
            .iter()
            .find(|c| c.path == Path::new(file))
            .unwrap_or_else(|| panic!("{file}"))
            .text;
        assert!(!text.contains("StagedState"), "{file} takes a staged state");
    }
}
