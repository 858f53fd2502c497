//! Snapshots of the findings, as JSON, for a few realistic bad messages.

use crate::rules_common;

use jitcommit_core::rules::check;

fn snap(text: &str) -> Vec<jitcommit_core::rules::Finding> {
    check(text, &rules_common::conv(), Some(&rules_common::changed()))
}

#[test]
fn sloppy_human_message() {
    insta::assert_json_snapshot!(snap(
        "Fixed the parser.\n\
         - changed src/parser.rs to handle empty input\n\
         - Updated: README.md - mention it\n"
    ));
}

#[test]
fn unread_offline_draft() {
    insta::assert_json_snapshot!(snap(
        "feat(core): <summary>\n\n\
         - Add: src/parser.rs — <why?>\n\
         - Update: src/lexer.rs — <why?>\n"
    ));
}

#[test]
fn almost_right_message() {
    insta::assert_json_snapshot!(snap(
        "feature(parser): handle empty input and report the position of every error it finds.\n\n\
         - Fix: src/parser.rs -- return an empty tree\n\
         - Changed: docs/old.md -> docs/new.md — say where the grammar lives\n\n\
         Breaking change: parse() returns Parsed\n\
         Signed-off-by Alice <alice@example.com>\n"
    ));
}
