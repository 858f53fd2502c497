//! The README's rules table is generated from the rule docs (`crates/core/src/rules/docs`,
//! the same text `jitcommit-check --explain` prints); this test keeps the two from
//! drifting. On failure it prints the table to paste.

use jitcommit_core::rules::{RULES, RuleInfo};

const START: &str = "<!-- rules:start -->\n";
const END: &str = "<!-- rules:end -->";

/// The first fenced example in a rule's doc (its "Bad:" example), lines joined by " ↵ ",
/// as inline code (double backticks when the example holds one).
fn example(rule: &RuleInfo) -> Option<String> {
    let after_fence = rule.doc.split_once("```text\n")?.1;
    let block = after_fence.split_once("```")?.0;
    let text = block
        .lines()
        .collect::<Vec<_>>()
        .join(" ↵ ")
        .replace('|', "\\|");
    if text.trim().is_empty() {
        return None;
    }
    Some(if text.contains('`') {
        format!("`` {text} ``")
    } else {
        format!("`{text}`")
    })
}

fn expected_table() -> String {
    let mut t =
        String::from("| rule | what it checks | a message it rejects |\n| --- | --- | --- |\n");
    for rule in RULES {
        let ex = example(rule).unwrap_or_default();
        t.push_str(&format!(
            "| `{}` | {} | {} |\n",
            rule.id,
            rule.summary.replace('|', "\\|"),
            ex
        ));
    }
    t
}

#[test]
fn readme_rules_table_matches_the_rule_docs() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md at the root");
    let start = readme
        .find(START)
        .expect("README.md has a <!-- rules:start --> marker");
    let end = readme
        .find(END)
        .expect("README.md has a <!-- rules:end --> marker");
    let table = &readme[start + START.len()..end];
    let want = expected_table();
    assert_eq!(
        table, want,
        "README.md's rules table is stale; replace it with:\n{want}"
    );
}

#[test]
fn every_rule_doc_has_an_example() {
    for rule in RULES {
        assert!(
            example(rule).is_some(),
            "{} has no ```text example in its doc",
            rule.id
        );
    }
}
