//! Keep a Changelog 1.1.0 markdown and JSON from a [`Changelog`], byte-for-byte
//! deterministic.

use std::fmt::Write as _;

use super::{Changelog, Entry, OtherKind, Release};

/// Link patterns, from the user's settings; never guessed from a remote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Links {
    /// A commit URL with `{id}` (the full id) and/or `{short}`.
    pub commit: Option<String>,
    /// A compare URL with `{from}` and `{to}` (tag names; `HEAD` for Unreleased).
    pub compare: Option<String>,
}

/// The markdown of every release, newest first, each `## ` heading after one blank line.
pub fn render_markdown(log: &Changelog, links: &Links) -> String {
    let mut out = String::new();
    for (i, r) in log.releases.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        release(&mut out, r, links);
    }
    out
}

/// The release data as pretty JSON, ending in a newline.
pub fn render_json(log: &Changelog) -> String {
    let mut s = serde_json::to_string_pretty(log).unwrap_or_else(|_| "{}".to_owned());
    s.push('\n');
    s
}

fn release(out: &mut String, r: &Release, links: &Links) {
    let name = r.version.as_deref().unwrap_or("Unreleased");
    let to = r.tag.as_deref().unwrap_or("HEAD");
    let compare = match (&links.compare, &r.previous_tag) {
        (Some(pattern), Some(from)) => Some(pattern.replace("{from}", from).replace("{to}", to)),
        _ => None,
    };
    match compare {
        Some(url) => {
            let _ = write!(out, "## [{name}]({url})");
        }
        None => {
            let _ = write!(out, "## [{name}]");
        }
    }
    if let Some(date) = &r.date {
        let _ = write!(out, " - {date}");
    }
    out.push('\n');
    if !r.breaking.is_empty() {
        out.push_str("\n### Breaking changes\n\n");
        for e in &r.breaking {
            entry(out, e, links);
        }
    }
    for s in &r.sections {
        let _ = write!(out, "\n### {}\n\n", s.name);
        for e in &s.entries {
            entry(out, e, links);
        }
    }
    if !r.others.is_empty() {
        out.push_str("\n### Other commits\n\n");
        for o in &r.others {
            let why = match o.kind {
                OtherKind::Merge => "merge",
                OtherKind::Revert => "revert",
                OtherKind::Fixup => "fixup",
                OtherKind::NonConforming => "not following the convention",
            };
            let _ = writeln!(
                out,
                "- {} ({}; {why})",
                o.subject,
                id_link(&o.commit, &o.short, links)
            );
        }
    }
    let lo = &r.left_out;
    let mut parts = Vec::new();
    let mut count = |n: usize, one: &str, many: &str| {
        if n > 0 {
            parts.push(format!("{n} {}", if n == 1 { one } else { many }));
        }
    };
    count(
        lo.unlisted_types,
        "commit of a type without a section",
        "commits of types without a section",
    );
    if r.others.is_empty() {
        count(lo.merges, "merge", "merges");
        count(lo.exempt, "exempt commit", "exempt commits");
        count(
            lo.non_conforming,
            "commit not following the convention",
            "commits not following the convention",
        );
    }
    count(
        lo.reverted,
        "commit reverted within the release",
        "commits reverted within the release",
    );
    if !parts.is_empty() {
        let _ = write!(out, "\nNot listed: {}.\n", parts.join(", "));
    } else if r.breaking.is_empty() && r.sections.is_empty() && r.others.is_empty() {
        out.push_str("\nNo changes.\n");
    }
}

fn id_link(full: &str, short: &str, links: &Links) -> String {
    match &links.commit {
        Some(p) => format!(
            "[`{short}`]({})",
            p.replace("{id}", full).replace("{short}", short)
        ),
        None => format!("`{short}`"),
    }
}

fn entry(out: &mut String, e: &Entry, links: &Links) {
    out.push_str("- ");
    if let Some(scope) = &e.scope {
        let _ = write!(out, "**{scope}:** ");
    }
    let _ = writeln!(
        out,
        "{} ({})",
        e.summary,
        id_link(&e.commit, &e.short, links)
    );
    if let Some(note) = &e.breaking_note {
        let _ = writeln!(out, "  - **BREAKING CHANGE:** {note}");
    }
    for c in &e.changes {
        match &c.to {
            Some(to) => {
                let _ = writeln!(out, "  - {} `{}` → `{to}` — {}", c.verb, c.path, c.what_why);
            }
            None => {
                let _ = writeln!(out, "  - {} `{}` — {}", c.verb, c.path, c.what_why);
            }
        }
    }
}
