//! The binary's side of the library's message pipeline ([`rules::check_message`]): a
//! checked message as the modes print it, and the rule table for `--list-rules` and
//! `--explain`.

use jitcommit_core::rules::{self, Checked, Finding};

/// A checked message as the modes print it: the text as git stores it, the exemption's
/// name (`merge`, `revert`, …) and the findings.
pub fn printable(checked: Checked) -> (String, Option<String>, Vec<Finding>) {
    let exempt = checked.exempt.map(|e| {
        serde_json::to_value(e)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_else(|| format!("{e:?}").to_lowercase())
    });
    (checked.cleaned, exempt, checked.findings)
}

/// Every rule id with its one-line summary.
pub fn rules_list() -> Vec<(&'static str, &'static str)> {
    rules::RULES.iter().map(|r| (r.id, r.summary)).collect()
}

/// The documentation of one rule: what it checks, why, and an example.
pub fn explain(id: &str) -> Option<String> {
    rules::explain(id).map(|r| format!("{}: {}\n\n{}", r.id, r.summary, r.doc.trim_end()))
}
