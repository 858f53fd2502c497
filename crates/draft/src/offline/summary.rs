//! The subject's scope and summary: the change, not its files (a rename, a test named
//! as a sentence, a new heading, a new item and its purpose, what the first hunk does,
//! else the module); the directory of a change of many paths.

use std::collections::BTreeMap;

use super::kind::{Class, classify, renamed_modules, renamed_with_references};
use super::source::{
    NAME_CHARS, added_items, defined_name, has_code, hunk_change, signed_lines, split_sign, stem,
};
use super::{MAX_BULLETS, lossy};
use crate::words::{
    CONTAINERS, DOC_COMMENT_MARKERS, PURPOSE_AUXILIARIES, PURPOSE_DETERMINERS, SUMMARY_VERBS,
};
use jitcommit_core::config::Convention;
use jitcommit_core::repo::{ChangeKind, FileDiff, StagedState};

pub(super) fn infer_scope(paths: &[String], conv: &Convention) -> Option<String> {
    let dirs: Vec<Vec<&str>> = paths
        .iter()
        .map(|p| {
            let mut v: Vec<&str> = p.split('/').collect();
            v.pop();
            v
        })
        .collect();
    let first = dirs.first()?;
    let common = (0..first.len())
        .take_while(|&i| dirs.iter().all(|d| d.get(i) == first.get(i)))
        .count();
    let allowed = |s: &str| conv.scopes.is_empty() || conv.scopes.iter().any(|a| a == s);
    let mut candidate = None;
    for seg in &first[..common] {
        if !conv.scopes.is_empty() && allowed(seg) {
            return Some((*seg).to_owned());
        }
        if CONTAINERS.contains(seg) && candidate.is_none() {
            continue;
        }
        candidate = Some(*seg);
        break;
    }
    candidate
        .filter(|s| allowed(s) && !s.starts_with('.'))
        .map(str::to_owned)
}

/// The first Markdown heading a document's diff adds (and does not also remove), as
/// a summary: `## Run the fuzz targets` gives `run the fuzz targets`, `## Releasing
/// with SCM` gives `add Releasing with SCM`. Headings of one word (`## Performance`)
/// say too little and are skipped.
pub(super) fn added_heading(f: &FileDiff) -> Option<String> {
    let path = lossy(&f.change.path).to_ascii_lowercase();
    if f.binary || f.linguist.is_some() || !(path.ends_with(".md") || path.ends_with(".markdown")) {
        return None;
    }
    let heading = |text: &str| -> Option<String> {
        let t = text.trim_start_matches('#');
        if t.len() == text.len() || text.len() - t.len() > 6 || !t.starts_with(' ') {
            return None;
        }
        let words: String = t
            .trim()
            .trim_end_matches('#')
            .chars()
            .filter(|c| !matches!(c, '`' | '*'))
            .collect();
        let words = words.split_whitespace().collect::<Vec<_>>().join(" ");
        (words.split(' ').count() >= 2).then_some(words)
    };
    let mut removed = Vec::new();
    let mut added = Vec::new();
    for h in &f.hunks {
        for line in h.body.lines() {
            match split_sign(line) {
                ("-", text) => removed.extend(heading(text)),
                ("+", text) => added.extend(heading(text)),
                _ => {}
            }
        }
    }
    let first = added.into_iter().find(|h| !removed.contains(h))?;
    // A heading that opens with a verb reads as a summary (`## Add retries`); any
    // other is what the document now covers, added as people write it (`add
    // Releasing with the SCM Version Provider`), never a noun phrase lower-cased into
    // a subject (`documentation Guidelines`).
    let opening = first.split(' ').next()?.to_lowercase();
    if !SUMMARY_VERBS.contains(&opening.as_str()) {
        return Some(format!("add {first}"));
    }
    let mut chars = first.chars();
    let head = chars.next()?;
    // `Why` → `why`; an acronym or a name (`GIT_DIR`, `README`) stays as written.
    let lower = chars.next().is_none_or(|c| !c.is_uppercase());
    Some(if lower {
        head.to_lowercase().chain(first.chars().skip(1)).collect()
    } else {
        first
    })
}

/// The words of a name that reads as a sentence: at least six lower-case words in
/// snake case after a `test_` prefix (`the_validator_links_neither_http_client`,
/// `test_a_tag_without_a_version_is_skipped`); `None` for an ordinary name
/// (`parse_subject`, `max_bytes_lower_bound`, `same_as_the_regex`: on this repository's
/// and cocogitto's commits, names of four or five words were as often a helper's as a
/// description).
pub(super) fn sentence_of(name: &str) -> Option<String> {
    // A name cut at NAME_CHARS may end inside a word: that word goes.
    let cut = name.chars().count() >= NAME_CHARS;
    let name = name.strip_prefix("test_").unwrap_or(name);
    let mut words: Vec<&str> = name.split('_').collect();
    if cut {
        words.pop();
    }
    let plain = |w: &&str| {
        !w.is_empty()
            && w.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
            && w.chars().any(|c| c.is_ascii_lowercase())
    };
    (words.len() >= 6 && words.iter().all(plain)).then(|| words.join(" "))
}

/// The first clause of the documentation a new item carries — a docstring after its
/// definition, doc comments before it — as words without the final period, or `None`
/// when it is longer than [`PURPOSE_WORDS`] words (a clause cut short says less than
/// the name).
pub(super) fn purpose(f: &FileDiff, name: &str) -> Option<String> {
    let lines: Vec<&str> = signed_lines(f, '+').collect();
    let at = lines
        .iter()
        .position(|t| defined_name(t).as_deref() == Some(name))?;
    // A docstring: the next line that is not blank.
    let after = lines[at + 1..]
        .iter()
        .map(|t| t.trim())
        .find(|t| !t.is_empty());
    let doc = after
        .and_then(|t| {
            let t = t.strip_prefix("\"\"\"").or_else(|| t.strip_prefix("'''"))?;
            let t = t.trim();
            Some(if t.is_empty() {
                lines[at + 1..]
                    .iter()
                    .map(|t| t.trim())
                    .filter(|t| !t.is_empty())
                    .nth(1)
                    .unwrap_or("")
                    .to_owned()
            } else {
                t.to_owned()
            })
        })
        .or_else(|| {
            // Doc comments: the lines just above, past attributes and decorators.
            let mut text = Vec::new();
            for t in lines[..at].iter().rev().map(|t| t.trim()) {
                if t.starts_with("#[") || t.starts_with('@') {
                    continue;
                }
                let Some(c) = DOC_COMMENT_MARKERS.iter().find_map(|m| t.strip_prefix(m)) else {
                    break;
                };
                let c = c.trim().trim_end_matches("*/").trim();
                if !c.is_empty() {
                    text.push(c);
                }
            }
            text.reverse();
            (!text.is_empty()).then(|| text.join(" "))
        })?;
    let doc = doc
        .trim_end_matches("\"\"\"")
        .trim_end_matches("'''")
        .trim();
    // The first clause of the first sentence, without code quotes.
    let doc = doc.replace('`', "");
    let clause = doc
        .split([',', ';', ':', '(', '—'])
        .next()
        .unwrap_or(&doc)
        .split(". ")
        .next()
        .unwrap_or("")
        .trim_end_matches('.');
    let words: Vec<&str> = clause.split_whitespace().collect();
    if words.len() > PURPOSE_WORDS {
        return None;
    }
    let first = words.first()?;
    if !first.chars().all(|c| c.is_ascii_alphabetic()) || words.len() < 2 {
        return None;
    }
    let lower = first.to_ascii_lowercase();
    let rest = words[1..].join(" ");
    if PURPOSE_DETERMINERS.contains(&lower.as_str()) {
        return Some(format!("for {lower} {rest}"));
    }
    if PURPOSE_AUXILIARIES.contains(&lower.as_str()) {
        return None;
    }
    Some(format!("to {} {rest}", imperative(&lower)))
}

/// Most words a docstring gives a summary ([`purpose`]).
pub(super) const PURPOSE_WORDS: usize = 10;

/// A verb as a docstring's third person writes it, in the imperative: `returns` →
/// `return`, `matches` → `match`, `applies` → `apply`; other words as they are.
pub(super) fn imperative(word: &str) -> String {
    if let Some(stem) = word.strip_suffix("ies").filter(|s| s.len() > 1) {
        return format!("{stem}y");
    }
    for ending in ["sses", "shes", "ches", "xes", "zes"] {
        if word.ends_with(ending) {
            return word[..word.len() - 2].to_owned();
        }
    }
    if word == "does" {
        return "do".to_owned();
    }
    match word.strip_suffix('s') {
        Some(stem) if !stem.ends_with(['s', 'u', 'i']) && stem.len() > 2 => stem.to_owned(),
        _ => word.to_owned(),
    }
}

/// The subject's summary: what happens to the dominant file (the source file with the
/// most changed lines, else any file) and its main symbol, and how many other files
/// change with it; for a change described by directories, the directory.
pub(super) fn summarize(state: &StagedState, paths: &[String]) -> String {
    let kinds: Vec<ChangeKind> = state.files.iter().map(|f| f.change.kind).collect();
    let action = if kinds
        .iter()
        .all(|k| matches!(k, ChangeKind::Added | ChangeKind::Copied))
    {
        "add"
    } else if kinds.iter().all(|k| *k == ChangeKind::Deleted) {
        "remove"
    } else if kinds.iter().all(|k| *k == ChangeKind::Renamed) {
        "rename"
    } else {
        "update"
    };
    // A renamed module names the change when the change is the rename: its references
    // updated at most.
    let all: Vec<&FileDiff> = state.files.iter().collect();
    let renames_only = all
        .iter()
        .all(|f| matches!(f.change.kind, ChangeKind::Renamed | ChangeKind::Deleted));
    if (renames_only || renamed_with_references(&all))
        && let Some((old, new)) = renamed_modules(&all).first()
    {
        return format!("rename {old} to {new}");
    }
    if state.files.len() > MAX_BULLETS {
        return match dominant_directory(paths) {
            Some(dir) => format!("{action} {} files in {dir}", paths.len()),
            None => format!("{action} {} files", paths.len()),
        };
    }
    // Code first; then anything but configuration: a new tutorial of 71 lines names
    // the change, the line that lists it in `mkdocs.yml` does not.
    let weight = |f: &FileDiff| {
        let path = lossy(&f.change.path);
        let class = classify(&path);
        (
            f.linguist.is_none(),
            class == Class::Source && has_code(f),
            !jitcommit_core::paths::path_facts(&path).config,
            f.added + f.removed + 1,
        )
    };
    let Some(main) = state.files.iter().max_by_key(|f| weight(f)) else {
        return action.to_owned();
    };
    let path = lossy(&main.change.path);
    let name = path.rsplit('/').next().unwrap_or(&path).to_owned();
    // Code names its module (`report`), anything else its file (`Cargo.toml`).
    let module = if has_code(main) {
        stem(&path).to_owned()
    } else {
        name.clone()
    };
    // A generated or vendored file's lines name nothing worth a summary.
    let items = if main.linguist.is_some() {
        Vec::new()
    } else {
        added_items(main, false)
    };
    // A test named as a sentence says what the change proves, in the author's words;
    // a new heading says what a document now covers.
    if let Some(sentence) = items.iter().find_map(|n| sentence_of(n)) {
        return sentence;
    }
    if let Some(heading) = added_heading(main) {
        return heading;
    }
    // A new item: its name, and its purpose when its documentation says it.
    let add = |sym: &str| match purpose(main, sym) {
        Some(p) => format!("add {sym} {p}"),
        None => format!("add {sym}"),
    };
    match (main.change.kind, &main.change.old_path) {
        // A file added or removed whole by what it holds, a move by both places (60:
        // about what a subject leaves a summary).
        (ChangeKind::Added | ChangeKind::Copied, _) => match items.first() {
            Some(sym) => add(sym),
            None => crate::change_words::docs::whole_file(&path, &main.hunks, '+')
                .unwrap_or_else(|| format!("add {module}")),
        },
        (ChangeKind::Deleted, _) => crate::change_words::docs::whole_file(&path, &main.hunks, '-')
            .unwrap_or_else(|| format!("remove {module}")),
        (ChangeKind::Renamed, Some(old)) => crate::change_words::moved(&lossy(old), &path, 60)
            .unwrap_or_else(|| format!("move {name}")),
        _ => match items.first() {
            Some(sym) => add(sym),
            None => main
                .hunks
                .iter()
                .filter(|_| has_code(main))
                .find_map(|h| hunk_change(main, h))
                .map(|d| {
                    // An edit that names no item names its module.
                    let named = d.contains(" in ")
                        || d.contains(" to ")
                        || d.starts_with("changed ")
                            && !matches!(d.as_str(), "changed text" | "changed imports");
                    let s = edit_summary(&d);
                    if named { s } else { format!("{s} in {module}") }
                })
                // A document's link or section, a configuration's keys.
                .or_else(|| crate::change_words::file_summary(&path, &main.hunks, usize::MAX))
                .unwrap_or_else(|| format!("update {module}")),
        },
    }
}

/// A bullet's description of an edit ([`hunk_change`]) as a summary, in the
/// imperative: `added parameter tax to total` → `add parameter tax to total`,
/// `new branch in parse` → `add a branch to parse`, `comments in parse` → `document
/// parse`, `changed parse` → `update parse`.
pub(super) fn edit_summary(d: &str) -> String {
    if let Some(rest) = d.strip_prefix("added ") {
        format!("add {rest}")
    } else if let Some(rest) = d.strip_prefix("new branch in ") {
        format!("add a branch to {rest}")
    } else if d == "new branch" {
        "add a branch".to_owned()
    } else if let Some(rest) = d.strip_prefix("comments in ") {
        format!("document {rest}")
    } else if d == "comments" {
        "update comments".to_owned()
    } else if let Some(rest) = d.strip_prefix("changed ") {
        if rest.starts_with("constant ") || rest.starts_with("text") || rest == "imports" {
            format!("change {rest}")
        } else {
            format!("update {rest}")
        }
    } else {
        d.to_owned()
    }
}

/// The directory holding most of `paths` (two levels at most), when it holds at least
/// half of them; `None` otherwise.
pub(super) fn dominant_directory(paths: &[String]) -> Option<String> {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for p in paths {
        let segs: Vec<&str> = p.split('/').collect();
        for depth in 1..segs.len().min(3) {
            *counts.entry(segs[..depth].join("/")).or_default() += 1;
        }
    }
    // The deepest directory that still holds half: `docs/website` over `docs`.
    let half = paths.len().div_ceil(2);
    counts
        .into_iter()
        .filter(|(_, n)| *n >= half)
        .max_by_key(|(d, n)| (d.matches('/').count(), *n))
        .map(|(d, _)| d)
}
