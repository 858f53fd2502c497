//! Table-driven tests for every rule: each failing case lists the exact findings
//! (rule, line, column); each passing case gives none.

use crate::rules_common;

use jitcommit_core::config::{Convention, Exemption, TypeCase};
use jitcommit_core::gitenv::{CleanupMode, CommentPrefix, MessageCleanup};
use jitcommit_core::repo::{Change, ChangeKind};
use jitcommit_core::rules::{
    ChangedPaths, Checked, Cleanup, DRAFT_RULES, PROBLEM_RULES, RULES, WHY_PLACEHOLDER, check,
    check_message, decode, exemption, exemption_kind, explain, traced_set,
};
use rules_common::{changed, conv, optional_body};

struct Case {
    name: &'static str,
    with: fn() -> Convention,
    text: &'static str,
    expect: &'static [(&'static str, usize, usize)],
}

fn strict() -> Convention {
    Convention {
        strict_separator: true,
        ..conv()
    }
}
fn core_scope() -> Convention {
    Convention {
        scopes: vec!["core".into(), "cli".into()],
        ..conv()
    }
}
fn short_subject() -> Convention {
    Convention {
        subject_max: 20,
        ..conv()
    }
}
fn untraced() -> Convention {
    Convention {
        trace_paths: false,
        ..conv()
    }
}
fn covered() -> Convention {
    Convention {
        coverage: true,
        ..conv()
    }
}
fn lower_case() -> Convention {
    Convention {
        type_case: TypeCase::Lower,
        ..conv()
    }
}
fn template() -> Convention {
    Convention {
        placeholders: vec!["<summary>".into()],
        ..conv()
    }
}
fn nothing_exempt() -> Convention {
    Convention {
        exempt: Vec::new(),
        ..conv()
    }
}

#[rustfmt::skip]
const CASES: &[Case] = &[
    // subject-empty
    Case { name: "empty message", with: conv, text: "", expect: &[("subject-empty", 1, 1)] },
    Case { name: "blank message", with: conv, text: "\n\n", expect: &[("subject-empty", 1, 1)] },
    // subject-format
    Case { name: "no type", with: conv, text: "Fix parser\n\n- Fix: src/parser.rs — x", expect: &[("subject-format", 1, 4)] },
    Case { name: "no type at all", with: conv, text: ": x\n\n- Fix: src/parser.rs — x", expect: &[("subject-format", 1, 1)] },
    Case { name: "unclosed scope", with: conv, text: "fix(parser: x\n\n- Fix: src/parser.rs — x", expect: &[("subject-format", 1, 4)] },
    Case { name: "empty scope", with: conv, text: "fix(): x\n\n- Fix: src/parser.rs — x", expect: &[("subject-format", 1, 4)] },
    Case { name: "no space after colon", with: conv, text: "fix:x\n\n- Fix: src/parser.rs — x", expect: &[("subject-format", 1, 5)] },
    Case { name: "empty summary", with: conv, text: "fix:\n\n- Fix: src/parser.rs — x", expect: &[("subject-format", 1, 5)] },
    Case { name: "two spaces", with: conv, text: "fix:  x\n\n- Fix: src/parser.rs — x", expect: &[("subject-format", 1, 6)] },
    Case { name: "a verb alone", with: conv, text: "docs: update\n\n- Fix: src/parser.rs — x", expect: &[("subject-summary", 1, 7)] },
    Case { name: "a verb alone with a period", with: conv, text: "docs: Update.\n\n- Fix: src/parser.rs — x", expect: &[("subject-summary", 1, 7), ("subject-period", 1, 13)] },
    Case { name: "a verb and its object", with: conv, text: "docs: update guide\n\n- Fix: src/parser.rs — x", expect: &[] },
    Case { name: "bang after scope", with: conv, text: "fix(core)!: x\n\n- Fix: src/parser.rs — x", expect: &[] },
    // subject-type
    Case { name: "unknown type", with: conv, text: "feature: x\n\n- Fix: src/parser.rs — x", expect: &[("subject-type", 1, 1)] },
    Case { name: "upper-case type under type-case = lower", with: lower_case, text: "Feat: x\n\n- Fix: src/parser.rs — x", expect: &[("subject-type", 1, 1)] },
    Case { name: "spec revert type", with: conv, text: "revert: x\n\n- Fix: src/parser.rs — x", expect: &[] },
    // subject-scope
    Case { name: "unknown scope", with: core_scope, text: "fix(croe): x\n\n- Fix: src/parser.rs — x", expect: &[("subject-scope", 1, 5)] },
    Case { name: "known scope", with: core_scope, text: "fix(core): x\n\n- Fix: src/parser.rs — x", expect: &[] },
    Case { name: "any scope", with: conv, text: "fix(whatever): x\n\n- Fix: src/parser.rs — x", expect: &[] },
    // subject-length
    Case { name: "too long", with: short_subject, text: "feat: a summary that is too long\n\n- Fix: src/parser.rs — x", expect: &[("subject-length", 1, 21)] },
    Case { name: "exactly the limit", with: short_subject, text: "feat: fourteen chars\n\n- Fix: src/parser.rs — x", expect: &[] },
    Case { name: "length counts chars", with: short_subject, text: "feat: äöüäöüäöüäöü\n\n- Fix: src/parser.rs — x", expect: &[] },
    // subject-period
    Case { name: "period", with: conv, text: "feat: add parser.\n\n- Fix: src/parser.rs — x", expect: &[("subject-period", 1, 17)] },
    Case { name: "period after unicode", with: conv, text: "feat: äöü.\n\n- Fix: src/parser.rs — x", expect: &[("subject-period", 1, 10)] },
    // subject-summary
    Case { name: "summary of a verb", with: conv, text: "docs: update\n\n- Update: src/parser.rs — x", expect: &[("subject-summary", 1, 7)] },
    Case { name: "summary of a path", with: conv, text: "fix(parser): src/parser.rs\n\n- Fix: src/parser.rs — x", expect: &[("subject-summary", 1, 14)] },
    Case { name: "summary of punctuation", with: conv, text: "fix: ...\n\n- Fix: src/parser.rs — x", expect: &[("subject-summary", 1, 6), ("subject-period", 1, 8)] },
    Case { name: "summary of a verb and its object", with: conv, text: "docs: update the parser notes\n\n- Update: src/parser.rs — x", expect: &[] },
    // body-blank-line
    Case { name: "no blank line", with: conv, text: "feat: x\n- Add: src/parser.rs — y", expect: &[("body-blank-line", 2, 1)] },
    // body-missing
    Case { name: "subject only", with: conv, text: "feat: x", expect: &[("body-missing", 1, 8)] },
    Case { name: "prose only", with: conv, text: "feat: x\n\nsome prose", expect: &[("body-missing", 3, 1)] },
    Case { name: "subject only, optional", with: optional_body, text: "feat: x", expect: &[] },
    Case { name: "prose and bullets", with: conv, text: "feat: x\n\nWhy this.\n\n- Add: src/parser.rs — y", expect: &[] },
    // bullet-format
    Case { name: "no space after dash", with: conv, text: "feat: x\n\n-Add: src/parser.rs — y", expect: &[("bullet-format", 3, 2)] },
    Case { name: "no verb", with: conv, text: "feat: x\n\n- src/parser.rs — y", expect: &[("bullet-format", 3, 3)] },
    Case { name: "sentence as verb", with: conv, text: "feat: x\n\n- Added the thing: src/parser.rs — y", expect: &[("bullet-format", 3, 3)] },
    Case { name: "no path", with: conv, text: "feat: x\n\n- Add:  — y", expect: &[("bullet-format", 3, 8)] },
    Case { name: "no description", with: conv, text: "feat: x\n\n- Add: src/parser.rs —", expect: &[("bullet-format", 3, 23)] },
    Case { name: "wrapped bullet", with: conv, text: "feat: x\n\n- Add: src/parser.rs — parse\n  messages leniently", expect: &[] },
    // bullet-verb
    Case { name: "past tense verb", with: conv, text: "feat: x\n\n- Added: src/parser.rs — y", expect: &[("bullet-verb", 3, 3)] },
    Case { name: "second bullet verb", with: conv, text: "feat: x\n\n- Add: src/parser.rs — y\n- Changed: src/lib.rs — z", expect: &[("bullet-verb", 4, 3)] },
    // bullet-separator
    Case { name: "ascii separator", with: conv, text: "feat: x\n\n- Add: src/parser.rs -- y", expect: &[] },
    Case { name: "ascii separator, strict", with: strict, text: "feat: x\n\n- Add: src/parser.rs -- y", expect: &[("bullet-separator", 3, 22)] },
    Case { name: "hyphen separator", with: conv, text: "feat: x\n\n- Add: src/parser.rs - y", expect: &[("bullet-separator", 3, 22)] },
    Case { name: "en dash separator", with: conv, text: "feat: x\n\n- Add: src/parser.rs – y", expect: &[("bullet-separator", 3, 22)] },
    Case { name: "colon separator", with: conv, text: "feat: x\n\n- Add: src/parser.rs: y", expect: &[("bullet-separator", 3, 22)] },
    Case { name: "ascii arrow", with: conv, text: "feat: x\n\n- Rename: docs/old.md -> docs/new.md — y", expect: &[] },
    Case { name: "ascii arrow, strict", with: strict, text: "feat: x\n\n- Rename: docs/old.md -> docs/new.md — y", expect: &[("bullet-separator", 3, 23)] },
    Case { name: "unicode arrow, strict", with: strict, text: "feat: x\n\n- Rename: docs/old.md → docs/new.md — y", expect: &[] },
    // bullet-path
    Case { name: "unchanged path", with: conv, text: "feat: x\n\n- Add: src/lexer.rs — y", expect: &[("bullet-path", 3, 8)] },
    Case { name: "unchanged move target", with: conv, text: "feat: x\n\n- Move: docs/old.md → docs/gone.md — y", expect: &[("bullet-path", 3, 23)] },
    Case { name: "directory", with: conv, text: "feat: x\n\n- Add: src — y\n- Add: src/ — y\n- Add: ./src/parser.rs — y", expect: &[] },
    Case { name: "prefix is not a directory", with: conv, text: "feat: x\n\n- Add: src/pars — y", expect: &[("bullet-path", 3, 8)] },
    Case { name: "absolute path", with: untraced, text: "feat: x\n\n- Add: /etc/passwd — y", expect: &[("bullet-path", 3, 8)] },
    Case { name: "parent path", with: untraced, text: "feat: x\n\n- Add: src/../x — y", expect: &[("bullet-path", 3, 8)] },
    Case { name: "tracing off", with: untraced, text: "feat: x\n\n- Add: src/lexer.rs — y", expect: &[] },
    // bullet-coverage, bullet-status
    Case { name: "every path named", with: covered, text: "feat: x\n\n- Add: src/parser.rs — y\n- Update: src/lib.rs — y\n- Rename: docs/old.md → docs/new.md — y\n- Update: README.md — y", expect: &[] },
    Case { name: "named through directories", with: covered, text: "feat: x\n\n- Update: src — y\n- Move: docs — y\n- Document: README.md — y", expect: &[] },
    Case { name: "a rename named by its old path", with: covered, text: "feat: x\n\n- Update: src — y\n- Update: docs/old.md — y\n- Update: README.md — y", expect: &[] },
    Case { name: "paths left out", with: covered, text: "feat: x\n\n- Add: src/parser.rs — y", expect: &[("bullet-coverage", 3, 1)] },
    Case { name: "coverage off", with: conv, text: "feat: x\n\n- Add: src/parser.rs — y", expect: &[] },
    Case { name: "add for a modified file", with: covered, text: "feat: x\n\n- Add: src — y\n- Update: docs — y\n- Update: README.md — y", expect: &[("bullet-status", 3, 3)] },
    Case { name: "remove for a file that stays", with: covered, text: "feat: x\n\n- Remove: src/lib.rs — y\n- Add: src/parser.rs — y\n- Add: docs/new.md — y\n- Remove: docs/old.md — y\n- Update: README.md — y", expect: &[("bullet-status", 3, 3)] },
    Case { name: "rename the wrong way round", with: covered, text: "feat: x\n\n- Update: src — y\n- Rename: docs/new.md → docs/old.md — y\n- Update: README.md — y", expect: &[("bullet-status", 4, 3), ("bullet-status", 4, 3)] },
    Case { name: "rename of a modified file", with: covered, text: "feat: x\n\n- Update: src — y\n- Update: docs — y\n- Rename: README.md — y", expect: &[("bullet-status", 5, 3)] },
    // trailer-format
    Case { name: "indented line before any trailer", with: conv, text: "feat: x\n\n- Add: src/parser.rs — y\n\n  Reviewed-by: Z\nRefs: #12", expect: &[("trailer-format", 5, 1)] },
    Case { name: "trailer glued to bullets", with: conv, text: "feat: x\n\n- Add: src/parser.rs — y\nRefs: #12", expect: &[("trailer-format", 4, 1)] },
    Case { name: "good trailers", with: conv, text: "feat: x\n\n- Add: src/parser.rs — y\n\nReviewed-by: Z\nRefs #133\nSigned-off-by: A <a@example.com>\nCo-authored-by: B <b@example.com>\n  continued", expect: &[] },
    // breaking-change
    Case { name: "lower-case breaking change", with: conv, text: "feat: x\n\n- Add: src/parser.rs — y\n\nBreaking change: the key", expect: &[("breaking-change", 5, 1)] },
    Case { name: "plural breaking change", with: conv, text: "feat: x\n\n- Add: src/parser.rs — y\n\nBREAKING CHANGES: the key", expect: &[("breaking-change", 5, 1)] },
    Case { name: "empty breaking change", with: conv, text: "feat: x\n\n- Add: src/parser.rs — y\n\nBREAKING CHANGE:", expect: &[("breaking-change", 5, 1)] },
    Case { name: "breaking change mid-body", with: conv, text: "feat: x\n\nBREAKING CHANGE: y\n\n- Add: src/parser.rs — y", expect: &[("breaking-change", 3, 1)] },
    Case { name: "breaking change footers", with: conv, text: "feat!: x\n\n- Add: src/parser.rs — y\n\nBREAKING CHANGE: a\nBREAKING-CHANGE: b", expect: &[] },
    // placeholder
    Case { name: "why placeholder", with: conv, text: "feat: x\n\n- Add: src/parser.rs — <why?>", expect: &[("placeholder", 3, 24)] },
    Case { name: "placeholder on a continuation line", with: conv, text: "feat: x\n\n- Add: src/parser.rs — does\n  <why?>", expect: &[("placeholder", 4, 3)] },
    Case { name: "template placeholder the convention lists", with: template, text: "feat: <summary>\n\n- Add: src/parser.rs — y", expect: &[("placeholder", 1, 7)] },
    Case { name: "generics are fine", with: conv, text: "feat: x\n\n- Add: src/parser.rs — return Vec<u8> and Option<String>", expect: &[] },
    // message-encoding
    Case { name: "nul", with: conv, text: "feat: x\0\n\n- Add: src/parser.rs — y", expect: &[("message-encoding", 1, 8)] },
    // exemptions
    Case { name: "merge", with: conv, text: "Merge branch 'topic'", expect: &[] },
    Case { name: "merge, not exempt", with: nothing_exempt, text: "Merge branch 'topic'", expect: &[("subject-format", 1, 6), ("body-missing", 1, 21)] },
    Case { name: "revert", with: conv, text: "Revert \"feat: x\"\n\nThis reverts commit 0123456.", expect: &[] },
    Case { name: "fixup", with: conv, text: "fixup! feat: x", expect: &[] },
    // CRLF
    Case { name: "crlf", with: conv, text: "feat: x\r\n\r\n- Add: src/parser.rs — y\r\n", expect: &[] },
];

#[test]
fn every_case_gives_exactly_its_findings() {
    let changed = changed();
    let mut failures = Vec::new();
    for case in CASES {
        let findings = check(case.text, &(case.with)(), Some(&changed));
        let got: Vec<(&str, usize, usize)> = findings
            .iter()
            .map(|f| (f.rule(), f.line, f.column))
            .collect();
        if got != case.expect {
            failures.push(format!(
                "{}: expected {:?}, got {:#?}",
                case.name, case.expect, findings
            ));
        }
        for f in &findings {
            assert!(
                explain(f.rule()).is_some(),
                "{}: unknown rule {}",
                case.name,
                f.rule()
            );
            assert!(
                f.hint().is_some(),
                "{}: {} has no hint",
                case.name,
                f.rule()
            );
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_rule_has_a_failing_case() {
    for rule in RULES {
        let covered = CASES
            .iter()
            .any(|c| c.expect.iter().any(|e| e.0 == rule.id));
        assert!(covered, "no failing case for {}", rule.id);
    }
}

#[test]
fn rule_table_is_well_formed() {
    let mut ids: Vec<&str> = RULES.iter().map(|r| r.id).collect();
    for rule in RULES {
        assert!(
            rule.id.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
            "{} is not kebab-case",
            rule.id
        );
        assert!(rule.doc.contains("Why:"), "{} does not say why", rule.id);
        assert!(rule.doc.contains("Bad"), "{} has no example", rule.id);
        assert_eq!(explain(rule.id), Some(rule));
    }
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), RULES.len(), "duplicate rule ids");
    assert_eq!(explain("no-such-rule"), None);
}

/// Every rule of the table (`--list-rules`, and the draft gate's) has exactly one
/// `Problem` variant, and every variant's rule is in the table once: no finding has a
/// rule `--explain` does not know, and no rule lacks a finding type.
#[test]
fn every_rule_has_one_problem_variant_and_every_variant_one_rule() {
    let table: Vec<&str> = RULES.iter().chain(DRAFT_RULES).map(|r| r.id).collect();
    let variants: Vec<&str> = PROBLEM_RULES.iter().map(|r| r.id).collect();
    for id in &table {
        let n = variants.iter().filter(|v| *v == id).count();
        assert_eq!(n, 1, "{id}: {n} Problem variants");
    }
    for id in &variants {
        let n = table.iter().filter(|t| *t == id).count();
        assert_eq!(n, 1, "the Problem variant of {id}: {n} rules in the table");
    }
    for rule in PROBLEM_RULES {
        assert_eq!(explain(rule.id), Some(*rule), "{}", rule.id);
    }
}

#[test]
fn verb_message_lists_the_allowed_verbs() {
    let f = check(
        "feat: x\n\n- Changed: src/parser.rs — y",
        &conv(),
        Some(&changed()),
    );
    assert_eq!(f.len(), 1);
    assert_eq!(
        f[0].message(),
        "\"Changed\" is not an allowed verb (allowed: Add, Update, Fix, Remove, Rename, Move, \
         Refactor, Document, Test)"
    );
    let f = check(
        "feat: x\n\n- Fixed: src/parser.rs — y",
        &conv(),
        Some(&changed()),
    );
    assert_eq!(f[0].hint().as_deref(), Some("write \"Fix\""));
}

#[test]
fn separator_hint_shows_the_em_dash() {
    let f = check(
        "feat: x\n\n- Add: src/parser.rs - y",
        &conv(),
        Some(&changed()),
    );
    assert_eq!(
        f[0].hint().as_deref(),
        Some("use \" — \" (em dash) or \" -- \" between the path and the description")
    );
    let f = check(
        "feat: x\n\n- Add: src/parser.rs - y",
        &strict(),
        Some(&changed()),
    );
    assert_eq!(
        f[0].hint().as_deref(),
        Some("use \" — \" (em dash) between the path and the description")
    );
}

#[test]
fn path_hint_names_the_nearest_changed_paths() {
    let f = check(
        "feat: x\n\n- Fix: src/parsr.rs — y",
        &conv(),
        Some(&changed()),
    );
    let hint = f[0].hint().unwrap_or_default();
    assert!(hint.contains("\"src/parser.rs\""), "{hint}");
}

#[test]
fn changed_paths_from_changes_include_old_paths() {
    let change = |kind, path: &str, old: Option<&str>| Change {
        kind,
        path: path.into(),
        old_path: old.map(Into::into),
        old_mode: None,
        new_mode: None,
    };
    let set = ChangedPaths::new(&[
        change(ChangeKind::Renamed, "lib/new.rs", Some("src/old.rs")),
        change(ChangeKind::Deleted, "docs/gone.md", None),
    ]);
    for p in [
        "lib/new.rs",
        "src/old.rs",
        "src",
        "src/",
        "./lib",
        "docs/gone.md",
        "docs",
    ] {
        assert!(set.contains(p), "{p}");
    }
    for p in ["", ".", "./", "lib/new", "li", "docs/gone"] {
        assert!(!set.contains(p), "{p}");
    }
}

#[test]
fn untraced_when_no_changed_paths_are_given() {
    let f = check("feat: x\n\n- Add: src/lexer.rs — y", &conv(), None);
    assert!(f.is_empty(), "{f:?}");
}

#[test]
fn exemption_kinds() {
    let cases = [
        ("Merge branch 'a' into main", Some(Exemption::Merge)),
        ("Merge branches 'a' and 'b'", Some(Exemption::Merge)),
        (
            "Merge remote-tracking branch 'origin/main'",
            Some(Exemption::Merge),
        ),
        ("Merge tag 'v1.0'", Some(Exemption::Merge)),
        ("Merge commit 'abc123'", Some(Exemption::Merge)),
        ("Merge pull request #12 from a/b", Some(Exemption::Merge)),
        ("Revert \"feat: x\"", Some(Exemption::Revert)),
        ("Reapply \"feat: x\"", Some(Exemption::Revert)),
        ("fixup! feat: x", Some(Exemption::Fixup)),
        ("squash! feat: x", Some(Exemption::Squash)),
        ("amend! feat: x", Some(Exemption::Amend)),
        (
            "revert: let us never again speak of the noodle incident",
            None,
        ),
        ("Merge the parsers", None),
        ("fixup!feat", None),
        ("", None),
    ];
    for (text, kind) in cases {
        assert_eq!(exemption_kind(text), kind, "{text}");
    }
    let only_merges = Convention {
        exempt: vec![Exemption::Merge],
        ..conv()
    };
    assert_eq!(exemption("fixup! feat: x", &only_merges), None);
    assert_eq!(
        exemption("Merge tag 'v1'", &only_merges),
        Some(Exemption::Merge)
    );
}

#[test]
fn decode_points_at_the_first_bad_byte() {
    assert_eq!(decode(b"feat: ok\n"), Ok("feat: ok\n"));
    let f = decode(b"feat: caf\xe9")
        .err()
        .map(|f| (f.rule(), f.line, f.column));
    assert_eq!(f, Some(("message-encoding", 1, 10)));
    let f = decode("feat: x\n\nä\0".as_bytes())
        .err()
        .map(|f| (f.rule(), f.line, f.column));
    assert_eq!(f, Some(("message-encoding", 3, 2)));
}

/// [`check_message`] with the given cleanup, the client's exemptions and a fixed set.
fn check_raw(raw: &[u8], cleanup: &Cleanup, changed: Option<&ChangedPaths>) -> Checked {
    let Ok(checked) = check_message(raw, &conv(), cleanup, exemption, |_| {
        Ok::<_, std::convert::Infallible>(changed)
    });
    checked
}

fn hook_cleanup() -> Cleanup {
    Cleanup::Hook(MessageCleanup {
        mode: CleanupMode::Strip,
        verbose: true,
        prefix: CommentPrefix::Fixed("#".into()),
    })
}

#[test]
fn raw_bytes_report_encoding_and_the_rest() {
    let raw = b"feat: ok\n\n- Changed: src/parser.rs \xe2\x80\x94 caf\xe9\n";
    let got: Vec<_> = check_raw(raw, &Cleanup::Stored, Some(&changed()))
        .findings
        .into_iter()
        .map(|f| (f.rule(), f.line, f.column))
        .collect();
    assert_eq!(got, [("bullet-verb", 3, 3), ("message-encoding", 3, 31)]);
}

#[test]
fn the_hook_cleanup_decides_what_is_checked() {
    // Latin-1 in a comment and below the scissors line: git drops both, so what it
    // stores is UTF-8 and only the verb is wrong, on the line git keeps.
    let raw = b"\n# caf\xe9\nfeat: ok\n\n- Changed: src/parser.rs \xe2\x80\x94 why\n\
# ------------------------ >8 ------------------------\ncaf\xe9\n";
    let checked = check_raw(raw, &hook_cleanup(), Some(&changed()));
    assert_eq!(
        checked.cleaned,
        "feat: ok\n\n- Changed: src/parser.rs \u{2014} why\n"
    );
    let got: Vec<_> = checked
        .findings
        .iter()
        .map(|f| (f.rule(), f.line, f.column))
        .collect();
    assert_eq!(got, [("bullet-verb", 3, 3)]);
    // A stored message is not cut: the scissors line is text, the Latin-1 byte a finding.
    let stored = check_raw(raw, &Cleanup::Stored, Some(&changed()));
    assert!(
        stored
            .findings
            .iter()
            .any(|f| f.rule() == "message-encoding" && f.line == 1)
    );
}

#[test]
fn an_exempt_message_gives_its_kind_and_only_an_encoding_finding() {
    let checked = check_raw(b"Merge branch 'x' caf\xe9\n", &Cleanup::Stored, None);
    assert_eq!(checked.exempt, Some(Exemption::Merge));
    let got: Vec<_> = checked.findings.iter().map(|f| f.rule()).collect();
    assert_eq!(got, ["message-encoding"]);
    assert_eq!(checked.cleaned, "Merge branch 'x' caf\u{fffd}\n");
}

#[test]
fn the_set_is_asked_for_only_when_a_bullet_names_a_path() {
    let conv = conv();
    let mut asked = Vec::new();
    for msg in [
        &b"fix: y\n\nprose only, no bullets\n"[..],
        b"Merge branch 'x'\n",
        b"fix: y\n\n- Fix: /abs/path \xe2\x80\x94 not traced\n",
        b"fix: y\n\n- Fix: ./src/a.rs/ \xe2\x80\x94 why\n- Move: b \xe2\x86\x92 c/d \xe2\x80\x94 why\n",
    ] {
        check_message(msg, &conv, &Cleanup::Stored, exemption, |paths| {
            asked.push(paths.to_vec());
            Ok::<Option<ChangedPaths>, ()>(None)
        })
        .unwrap();
    }
    assert_eq!(asked, vec![vec!["b", "c/d", "src/a.rs"]]);
    // Coverage needs the set even without a bullet path.
    let coverage = Convention {
        coverage: true,
        ..conv
    };
    let mut asked = 0;
    check_message(
        b"fix: y\n\nprose only\n",
        &coverage,
        &Cleanup::Stored,
        exemption,
        |_| {
            asked += 1;
            Ok::<Option<ChangedPaths>, ()>(None)
        },
    )
    .unwrap();
    assert_eq!(asked, 1);
}

#[test]
fn a_tracing_error_is_returned_as_it_is() {
    let got = check_message(
        b"fix: y\n\n- Fix: src/a.rs \xe2\x80\x94 why\n",
        &conv(),
        &Cleanup::Stored,
        exemption,
        |_| Err::<Option<ChangedPaths>, _>("no HEAD"),
    );
    assert_eq!(got, Err("no HEAD"));
}

#[test]
fn proved_paths_pass_and_unproved_ones_get_the_full_set() {
    let conv = conv();
    let msg = b"fix: y\n\n- Fix: src/a.rs \xe2\x80\x94 why\n";
    let proved = check_message(msg, &conv, &Cleanup::Stored, exemption, |paths| {
        traced_set(paths, true, || -> Result<Vec<Change>, ()> {
            panic!("a proved set needs no diff")
        })
        .map(Some)
    })
    .unwrap();
    assert!(proved.findings.is_empty());
    let full = check_message(msg, &conv, &Cleanup::Stored, exemption, |paths| {
        traced_set(paths, false, || Ok::<_, ()>(Vec::new())).map(Some)
    })
    .unwrap();
    let got: Vec<_> = full.findings.iter().map(|f| f.rule()).collect();
    assert_eq!(got, ["bullet-path"]);
}

#[test]
fn the_why_placeholder_is_rejected() {
    let text = format!("feat: x\n\n- Add: src/parser.rs — {WHY_PLACEHOLDER}");
    let f = check(&text, &conv(), Some(&changed()));
    assert_eq!(
        f.iter().map(|f| f.rule()).collect::<Vec<_>>(),
        ["placeholder"]
    );
}

#[test]
fn huge_and_strange_input_does_not_panic() {
    let conv = conv();
    let changed = changed();
    let long_line = format!("feat: {}", "ä".repeat(10 << 20));
    let f = check(&long_line, &conv, Some(&changed));
    assert!(
        f.iter()
            .any(|f| f.rule() == "subject-length" && f.column == 73)
    );
    let mut many = String::from("feat: x\n\n");
    // 1 MB of findings-heavy bullets (debug builds check it in a few seconds; the
    // 10 MB line above covers the size).
    while many.len() < 1 << 20 {
        many.push_str("- Changed: src/nope.rs — y <why?>\n");
    }
    let f = check(&many, &conv, Some(&changed));
    assert!(f.len() > 80_000);
    assert!(
        f.windows(2)
            .all(|w| (w[0].line, w[0].column) <= (w[1].line, w[1].column))
    );
    for text in [
        "\u{feff}feat: x",
        "feat(\u{0}): x",
        "-",
        "- ",
        "-a",
        "- a:",
        "- a: b —",
        "- a: →  — x",
        "\n- a",
        "(",
        "!:",
        "feat!",
        "a\r",
        "\r\n\r\n",
        "BREAKING CHANGE",
        "\u{202e}fix: x",
        "fix: x\n\n  - indented",
        "fix: x\n\n\tBREAKING CHANGE: y",
        "fix: 👍🏽\n\n- Add: 👍🏽 — 👍🏽",
    ] {
        let _ = check(text, &conv, Some(&changed));
        for cleanup in [Cleanup::Stored, hook_cleanup()] {
            let _ = check_raw(text.as_bytes(), &cleanup, Some(&changed));
        }
    }
}
