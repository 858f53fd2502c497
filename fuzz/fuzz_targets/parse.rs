//! Arbitrary bytes through the whole validator path (`rules::check_message`: git's
//! cleanup as the hook or a stored commit sees it, decode, parse, check with and without
//! path tracing), then render. None of it may panic; a message that parsed
//! completely must survive a render → parse round trip.
#![no_main]

use std::collections::BTreeMap;

use jitcommit_core::config::{
    BodyPolicy, ChangelogSettings, ContextSettings, Convention, Encoding, Exemption, Fact, TypeCase,
};
use jitcommit_core::gitenv::{CleanupMode, CommentPrefix, MessageCleanup};
use jitcommit_core::message::{parse, render, render_wrapped};
use jitcommit_core::rules::{ChangedPaths, Cleanup, check, check_message, decode, exemption};
use libfuzzer_sys::fuzz_target;

fn convention(strict: bool) -> Convention {
    let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    Convention {
        types: strings(&["feat", "fix", "docs", "revert"]),
        scopes: if strict {
            strings(&["core"])
        } else {
            Vec::new()
        },
        verbs: strings(&["Add", "Update", "Fix", "Remove", "Rename", "Move"]),
        type_case: if strict {
            TypeCase::Lower
        } else {
            TypeCase::Any
        },
        subject_max: if strict { 50 } else { 0 },
        subject_period: strict,
        subject_summary: strict,
        body_prose: !strict,
        placeholders: strings(&["<why?>", "<summary>"]),
        body: if strict {
            BodyPolicy::Required
        } else {
            BodyPolicy::Optional
        },
        body_wrap: 0,
        adopted: None,
        trace_paths: true,
        coverage: strict,
        strict_separator: strict,
        exempt: if strict {
            Vec::new()
        } else {
            vec![Exemption::Merge, Exemption::Fixup]
        },
        sections: BTreeMap::new(),
        // The rules never read the fact store; a table is here so that a convention that
        // holds one is checked like any other.
        facts: vec![Fact {
            id: "SCOPE.src/**".to_string(),
            value: "core".to_string(),
            line: 1,
        }],
        context: ContextSettings {
            budget_tokens: 4096,
            reserve_output_tokens: 512,
            exclude: Vec::new(),
            encoding: Encoding::Cl100k,
            safety_margin_percent: 0,
        },
        changelog: ChangelogSettings::default(),
    }
}

fuzz_target!(|data: &[u8]| {
    let changed = ChangedPaths::from_paths(["src/lib.rs", "src/parser.rs", "docs/a b.md"]);
    let strict = data.first().is_some_and(|b| b & 1 == 1);
    let conv = convention(strict);
    // The second bit: a message file before git's cleanup (comments, scissors), else a
    // stored message.
    let cleanup = if data.first().is_some_and(|b| b & 2 == 2) {
        Cleanup::Hook(MessageCleanup {
            mode: CleanupMode::Strip,
            verbose: true,
            prefix: CommentPrefix::default(),
        })
    } else {
        Cleanup::Stored
    };
    let Ok(checked) = check_message(data, &conv, &cleanup, exemption, |_| {
        Ok::<_, std::convert::Infallible>(Some(&changed))
    });
    let findings = checked.findings;
    assert!(
        findings
            .windows(2)
            .all(|w| (w[0].line, w[0].column) <= (w[1].line, w[1].column))
    );
    for f in &findings {
        assert!(f.line >= 1 && f.column >= 1, "{f:?}");
    }
    let Ok(text) = decode(data) else { return };
    let _ = check(text, &conv, None);
    let parsed = parse(text);
    if let Some(m) = parsed.message() {
        let rendered = render(&m);
        // Rendering normalises (e.g. `Token #v` → `Token: #v`), but what it writes
        // must parse back to the same message.
        assert_eq!(
            parse(&rendered).message().as_ref(),
            Some(&m),
            "round trip of {rendered:?}"
        );
        let _ = render_wrapped(&m, 20);
    }
});
