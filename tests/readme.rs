//! The guide's rules table (docs/guide.md, "Rules") is generated from the rule docs
//! (`crates/core/src/rules/docs`, the same text `jitcommit-check --explain` prints);
//! this test keeps the two from drifting. On failure it prints the table to paste.
//! And the README's example model name is the one every user-facing file uses.

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
fn guide_rules_table_matches_the_rule_docs() {
    let guide = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/guide.md"))
        .expect("docs/guide.md");
    let start = guide
        .find(START)
        .expect("docs/guide.md has a <!-- rules:start --> marker");
    let end = guide
        .find(END)
        .expect("docs/guide.md has a <!-- rules:end --> marker");
    let table = &guide[start + START.len()..end];
    let want = expected_table();
    assert_eq!(
        table, want,
        "docs/guide.md's rules table is stale; replace it with:\n{want}"
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

/// Every file a user reads for setting up a model: the README, docs/ (but the measured
/// runs of docs/benchmarks.md, which name the models they ran), the examples, install.sh,
/// the hooks and the sources (every `--help` text and hint is in src/).
fn user_facing_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("readable source tree")
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            user_facing_files(&p, out);
        } else if !p.ends_with("docs/benchmarks.md") {
            out.push(p);
        }
    }
}

#[test]
fn one_example_model_name_everywhere() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md"), root.join("install.sh")];
    for d in ["docs", "examples", "hooks", "src"] {
        user_facing_files(&root.join(d), &mut files);
    }
    let mut names = std::collections::BTreeMap::<String, Vec<String>>::new();
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        for (n, line) in text.lines().enumerate() {
            for pat in ["git config jitcommit.model ", "--global jitcommit.model "] {
                for (i, _) in line.match_indices(pat) {
                    let name: String = line[i + pat.len()..]
                        .chars()
                        .take_while(|c| !c.is_whitespace() && !"`;)\"'".contains(*c))
                        .collect();
                    // NAME, <model>: placeholders, not examples.
                    if name.is_empty()
                        || name.starts_with('<')
                        || name.chars().all(|c| c.is_ascii_uppercase())
                    {
                        continue;
                    }
                    let at = format!("{}:{}", f.strip_prefix(root).unwrap_or(f).display(), n + 1);
                    names.entry(name).or_default().push(at);
                }
            }
        }
    }
    assert!(
        names.contains_key("qwen2.5-coder:7b"),
        "the README's example is gone: {names:?}"
    );
    assert_eq!(
        names.len(),
        1,
        "more than one example model name (README.md says qwen2.5-coder:7b): {names:#?}"
    );
}
