//! Regression tests for the spec defects of issue 13, each a class with its siblings:
//! every message here is one that the Conventional Commits 1.0.0 text and its peers
//! accept, or a finding whose message or hint was wrong.

use crate::rules_common;

use jitcommit_core::config::{BodyPolicy, Convention, TypeCase};
use jitcommit_core::message::parse;
use jitcommit_core::rules::{Finding, check};

fn optional() -> Convention {
    rules_common::optional_body()
}

fn free() -> Convention {
    Convention {
        body: BodyPolicy::Free,
        trace_paths: false,
        ..rules_common::conv()
    }
}

fn rules(findings: &[Finding]) -> Vec<&'static str> {
    findings.iter().map(|f| f.rule()).collect()
}

fn assert_clean(conv: &Convention, text: &str) {
    assert_eq!(check(text, conv, None), [], "{text}");
}

#[test]
fn types_and_scopes_match_in_any_case() {
    let conv = Convention {
        scopes: vec!["core".into(), "cli".into()],
        ..optional()
    };
    for text in [
        "Feat: add a flag\n",
        "FEAT: add a flag\n",
        "FIX: handle empty input\n",
        "CI: cache the toolchain\n",
        "Chore(CORE): bump the version\n",
        "refactor(Cli)!: drop the old flag\n",
    ] {
        assert_clean(&conv, text);
    }
    // Not a matter of case: still rejected.
    assert_eq!(rules(&check("feature: x\n", &conv, None)), ["subject-type"]);
    assert_eq!(
        rules(&check("fix(crore): x\n", &conv, None)),
        ["subject-scope"]
    );
}

#[test]
fn type_case_lower_is_a_finding_with_the_lower_case_hint() {
    let conv = Convention {
        type_case: TypeCase::Lower,
        ..optional()
    };
    for (text, want) in [("Feat: x\n", "write \"feat\""), ("CI: x\n", "write \"ci\"")] {
        let f = check(text, &conv, None);
        assert_eq!(rules(&f), ["subject-type"], "{text}");
        assert!(
            f[0].message().contains("lower case"),
            "{:?}",
            f[0].message()
        );
        assert_eq!(f[0].hint().as_deref(), Some(want), "{text}");
    }
    assert_clean(&conv, "feat: x\n");
}

#[test]
fn footer_values_continue_on_unindented_lines() {
    let conv = optional();
    for text in [
        // cocogitto / convco / conventional-commits-parser all read one footer here.
        "fix: x\n\nBREAKING CHANGE: the config file moved\nto ~/.config/tool/config.toml\n",
        "feat: x\n\nReviewed-by: Z\nand by the whole team\nRefs: #133\n",
        "fix: x\n\nCloses #12\nwhich was filed twice\n",
        "feat: x\n\nNote: the value runs on\n- even over a line that starts with a dash\n",
        // The value on the lines after "Token:" (cocogitto's colon-with-newline separator).
        "style: validate rule configuration\n\nBREAKING CHANGE:\nDue to additional validation\n",
        "fix: x\n\nBREAKING CHANGE:\n\nThe order of the resolution is changed.\n",
        "chore: x\n\nupdated-dependencies:\n- dependency-name: foo\n  dependency-type: direct\n",
    ] {
        assert_clean(&conv, text);
    }
    let m = parse("fix: x\n\nBREAKING CHANGE: moved\nto y\nRefs: #1\n")
        .message()
        .unwrap_or_default();
    let footers: Vec<_> = m
        .trailers
        .iter()
        .map(|t| (t.token.as_str(), t.value.as_str()))
        .collect();
    assert_eq!(footers, [("BREAKING CHANGE", "moved to y"), ("Refs", "#1")]);
}

#[test]
fn footers_may_span_paragraphs() {
    let conv = optional();
    for text in [
        // `git commit -s` on a breaking change.
        "feat!: drop node 6\n\nBREAKING CHANGE: node 6 is gone\n\nSigned-off-by: A <a@example.com>\n",
        "fix: x\n\nRefs: #1\n\nSigned-off-by: A <a@example.com>\n",
        // A breaking change explained over paragraphs, then a reference (AngularJS style).
        "feat(compile): drop the old syntax\n\nSome prose.\n\nBREAKING CHANGE: the old syntax is gone.\n\n\
         To migrate, write the new one.\n\nCloses #1234\n",
    ] {
        assert_clean(&conv, text);
    }
    let p = parse("feat!: x\n\nBREAKING CHANGE: gone\n\nSigned-off-by: A <a@example.com>\n");
    let tokens: Vec<_> = p.trailers.iter().map(|t| t.token.value.as_str()).collect();
    assert_eq!(tokens, ["BREAKING CHANGE", "Signed-off-by"]);
    // A footer before bullets is still not in the footers.
    let f = check(
        "feat: x\n\nBREAKING CHANGE: y\n\n- Add: src/parser.rs — y",
        &rules_common::conv(),
        Some(&rules_common::changed()),
    );
    assert_eq!(rules(&f), ["breaking-change"]);
}

#[test]
fn prose_that_starts_with_breaking_words_is_prose() {
    let conv = optional();
    for text in [
        "feat: x\n\nBREAKING CHANGE was discussed at length, and we kept the old key.\n",
        "feat: x\n\nBreaking changes are listed in the changelog.\n",
        "feat: x\n\nBreaking changes\nnone in this release, the old key still works.\n",
        "feat: x\n\nBreaking change or not, it was worth it.\n",
    ] {
        assert_clean(&conv, text);
    }
}

#[test]
fn a_breaking_change_missing_its_colon_says_so() {
    let conv = optional();
    for (text, message) in [
        (
            "feat: x\n\nBREAKING CHANGE\n",
            "has no \":\" after its token",
        ),
        (
            "feat: x\n\nBREAKING-CHANGE\n",
            "has no \":\" after its token",
        ),
        (
            "feat: x\n\nBREAKING CHANGE : the key",
            "a space before the breaking-change footer's separator",
        ),
        (
            "feat: x\n\nBREAKING CHANGE:the key",
            "expected one space after",
        ),
        ("feat: x\n\nBREAKING CHANGE:", "has no description"),
        (
            "feat: x\n\nBREAKING CHANGE\nthe key moved",
            "has no \":\" after its token",
        ),
    ] {
        let f = check(text, &conv, None);
        assert_eq!(rules(&f), ["breaking-change"], "{text}");
        assert!(
            f[0].message().contains(message),
            "{text}: {:?}",
            f[0].message()
        );
        let hint = f[0].hint().unwrap_or_default();
        assert!(!hint.contains("upper case"), "{text}: {hint}");
    }
    // Only a misspelt token gets the upper-case hint.
    let f = check("feat: x\n\nBreaking change: the key", &conv, None);
    assert!(f[0].hint().as_deref().unwrap_or("").contains("upper case"));
    // `token #value` is a footer for every token, BREAKING CHANGE included.
    assert_clean(&conv, "feat!: x\n\nBREAKING CHANGE #12\n");
}

#[test]
fn html_tags_are_not_placeholders() {
    let conv = optional();
    for text in [
        "chore(deps): update dependency x to v2\n\n<details>\n<summary>Release Notes</summary>\n\n\
         - fixes a crash\n</details>\n",
        "docs: explain <path> and <type> elements of the SVG\n",
        "fix: parse <?xml version=\"1.0\"?> headers\n",
        "feat: accept <br> and <kbd>Ctrl</kbd>\n",
    ] {
        assert_eq!(check(text, &free(), None), [], "{text}");
        assert!(
            !rules(&check(text, &conv, None)).contains(&"placeholder"),
            "{text}"
        );
    }
    // The draft's own marker still is one.
    assert_eq!(
        rules(&check("feat: x\n\n<why?>\n", &conv, None)),
        ["placeholder"]
    );
}

#[test]
fn a_free_body_is_not_held_to_bullets() {
    let conv = free();
    for text in [
        "fix: x\n\n- bumped the version\n- Changed: the readme\n-no space\n",
        "feat: x\n\n- Update: src/nowhere.rs - a lookalike dash\n\nRefs: #1\n",
        "feat: x\n\n* star bullets\n- dash bullets\nSigned-off-by: glued, and that is fine\n",
    ] {
        assert_clean(&conv, text);
    }
    // The subject and the footers are still checked.
    assert_eq!(rules(&check("Fixed it\n", &conv, None)), ["subject-format"]);
    assert_eq!(
        rules(&check("fix: x\n\nBreaking change: y\n", &conv, None)),
        ["breaking-change"]
    );
    assert_eq!(
        rules(&check("fix: x\nno blank line\n", &conv, None)),
        ["body-blank-line"]
    );
}

#[test]
fn policy_rules_can_be_turned_off() {
    let long = format!("feat: {}.\n", "a".repeat(100));
    let off = Convention {
        subject_max: 0,
        subject_period: false,
        ..optional()
    };
    assert_clean(&off, &long);
    assert_eq!(
        rules(&check(&long, &optional(), None)),
        ["subject-length", "subject-period"]
    );
    let any_type = Convention {
        types: Vec::new(),
        ..optional()
    };
    assert_clean(&any_type, "wip: anything goes\n");
}

#[test]
fn hints_name_every_accepted_form() {
    let f = check(
        "feat: x\n\n- Add: src/parser.rs - y",
        &rules_common::conv(),
        Some(&rules_common::changed()),
    );
    let hint = f[0].hint().unwrap_or_default();
    assert!(
        hint.find("\" — \"") < hint.find("\" -- \"") && hint.contains("\" -- \""),
        "{hint}"
    );
    let f = check("feat: x\n\nBreaking change: y", &optional(), None);
    let hint = f[0].hint().unwrap_or_default();
    assert!(
        hint.contains("BREAKING CHANGE: ") && hint.contains("BREAKING-CHANGE: "),
        "{hint}"
    );
}
