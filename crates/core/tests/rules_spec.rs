//! Every example message of the Conventional Commits 1.0.0 specification
//! (https://www.conventionalcommits.org/en/v1.0.0/, typed in from its "Examples"
//! section and its FAQ) passes with `body = "optional"` and the default types.

use crate::rules_common;

use jitcommit_core::message::parse;
use jitcommit_core::rules::check;

const EXAMPLES: &[&str] = &[
    "feat: allow provided config object to extend other configs\n\n\
     BREAKING CHANGE: `extends` key in config file is now used for extending other config files\n",
    "refactor!: drop support for Node 6\n",
    "refactor(runtime)!: drop support for Node 6\n",
    "refactor!: drop support for Node 6\n\n\
     BREAKING CHANGE: refactor to use JavaScript features not available in Node 6.\n",
    "docs: correct spelling of CHANGELOG\n",
    "feat(lang): add polish language\n",
    "fix: correct minor typos in code\n\n\
     see the issue for details\n\n\
     on typos fixed.\n\n\
     Reviewed-by: Z\n\
     Refs #133\n",
    "revert: let us never again speak of the noodle incident\n\n\
     Refs: 676104e, a215868\n",
];

#[test]
fn spec_examples_pass() {
    let conv = rules_common::optional_body();
    let changed = rules_common::changed();
    for text in EXAMPLES {
        assert_eq!(check(text, &conv, Some(&changed)), [], "{text}");
        assert!(parse(text).message().is_some(), "{text}");
    }
}

#[test]
fn spec_examples_parse_into_their_parts() {
    let m = parse(EXAMPLES[6]).message().unwrap_or_default();
    assert_eq!(m.subject.kind, "fix");
    assert_eq!(m.prose, ["see the issue for details", "on typos fixed."]);
    let trailers: Vec<_> = m
        .trailers
        .iter()
        .map(|t| (t.token.as_str(), t.value.as_str()))
        .collect();
    assert_eq!(trailers, [("Reviewed-by", "Z"), ("Refs", "#133")]);

    let m = parse(EXAMPLES[2]).message().unwrap_or_default();
    assert_eq!(m.subject.scope.as_deref(), Some("runtime"));
    assert!(m.subject.breaking);

    let m = parse(EXAMPLES[0]).message().unwrap_or_default();
    assert_eq!(
        m.trailers.first().map(|t| t.token.as_str()),
        Some("BREAKING CHANGE")
    );
}

#[test]
fn spec_examples_need_bullets_when_the_body_is_required() {
    let conv = rules_common::conv();
    for text in EXAMPLES {
        let rules: Vec<_> = check(text, &conv, None)
            .into_iter()
            .map(|f| f.rule())
            .collect();
        assert_eq!(rules, ["body-missing"], "{text}");
    }
}
