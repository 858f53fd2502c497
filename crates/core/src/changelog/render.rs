//! Keep a Changelog 1.1.0 markdown and JSON from a [`Changelog`], byte-for-byte
//! deterministic.
//!
//! Commit text is not Markdown the project wrote: a subject, scope, note, path or
//! what-and-why goes through [`escape_text`] (or [`code_span`] for paths), so that a
//! renderer (GitHub's cmark-gfm, a forge's release notes) shows it as the text it is
//! and runs nothing: no raw HTML, no link to a `javascript:` or `data:` URL, no image,
//! no `@mention` that pings someone. Code spans in commit text stay code spans.

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
            let why = other_why(o.kind);
            let _ = writeln!(
                out,
                "- {} ({}; {why})",
                escape_text(&o.subject),
                id_link(&o.commit, &o.short, links)
            );
        }
    }
    closing(out, r);
}

/// Why a commit listed under "Other commits" is not an entry.
fn other_why(kind: OtherKind) -> &'static str {
    match kind {
        OtherKind::Merge => "merge",
        OtherKind::Revert => "revert",
        OtherKind::Fixup => "fixup",
        OtherKind::Release => "release",
        OtherKind::NonConforming => "not following the convention",
    }
}

/// A release's last line, the same in both formats: what it leaves out, counted, or
/// that it has no changes.
fn closing(out: &mut String, r: &Release) {
    match not_listed(r) {
        Some(parts) => {
            let _ = write!(out, "\nNot listed: {parts}.\n");
        }
        None if r.breaking.is_empty() && r.sections.is_empty() && r.others.is_empty() => {
            out.push_str("\nNo changes.\n");
        }
        None => {}
    }
}

/// What a release leaves out, counted, for its "Not listed:" line (`None`: nothing).
fn not_listed(r: &Release) -> Option<String> {
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
        lo.excluded,
        "commit excluded by exclude-commits",
        "commits excluded by exclude-commits",
    );
    count(
        lo.reverted,
        "commit reverted within the release",
        "commits reverted within the release",
    );
    (!parts.is_empty()).then(|| parts.join(", "))
}
/// Commit text as Markdown that renders as that text (docs/trust.md, "What the
/// changelog renders"): inline code spans are kept as they are (a backtick that opens
/// none is escaped); outside them a `<`
/// becomes `&lt;` (raw HTML, `<details>`, autolinks), `![` becomes `!\[` (no image),
/// a link's `](` becomes `]\(` unless its destination is an `http:`/`https:`/`mailto:`
/// URL or a relative path (no `javascript:`, `data:`, entity or escape tricks), `]:`
/// becomes `\]:` (no link definition), and an `@name` mention becomes the code span
/// `` `@name` `` (GitHub pings no one from code). Line breaks become spaces and other control characters are dropped, so the
/// text stays on its list item's line.
pub fn escape_text(text: &str) -> String {
    let text: String = text
        .chars()
        .filter_map(|c| match c {
            '\n' | '\r' => Some(' '),
            '\t' => Some(c),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'`' {
            let n = run_len(b, i, b'`');
            // A code span: the next run of exactly n backticks closes it.
            let mut j = i + n;
            let mut close = None;
            while j < b.len() {
                if b[j] == b'`' {
                    let m = run_len(b, j, b'`');
                    if m == n {
                        close = Some(j + m);
                        break;
                    }
                    j += m;
                } else {
                    j += 1;
                }
            }
            match close {
                Some(end) => {
                    out.push_str(&text[i..end]);
                    i = end;
                }
                // An unclosed run is literal backticks: escaped, so that no backtick
                // written later (a mention's code span) closes it.
                None => {
                    out.push_str(&"\\`".repeat(n));
                    i += n;
                }
            }
            continue;
        }
        match c {
            // An escape pair stays one (an escaped backtick opens no code span); before
            // an `@` the backslash is itself escaped, so it cannot undo the mention's
            // code span.
            b'\\' => match b.get(i + 1) {
                Some(b'@') => out.push_str("\\\\"),
                Some(p) if p.is_ascii_punctuation() => {
                    out.push_str(&text[i..i + 2]);
                    i += 2;
                    continue;
                }
                _ => out.push('\\'),
            },
            b'<' => out.push_str("&lt;"),
            b'!' if b.get(i + 1) == Some(&b'[') => {
                out.push_str("!\\[");
                i += 2;
                continue;
            }
            // `[label]: url` would define a link for the whole document.
            b']' if b.get(i + 1) == Some(&b':') => {
                out.push_str("\\]:");
                i += 2;
                continue;
            }
            b']' if b.get(i + 1) == Some(&b'(') && !safe_destination(&text[i + 2..]) => {
                out.push_str("]\\(");
                i += 2;
                continue;
            }
            b'@' if mention_at(b, i) => {
                let end = mention_end(b, i + 1);
                // A backtick next to the span's own would make one longer run.
                if out.ends_with('`') {
                    out.push(' ');
                }
                out.push('`');
                out.push_str(&text[i..end]);
                out.push('`');
                if b.get(end) == Some(&b'`') {
                    out.push(' ');
                }
                i = end;
                continue;
            }
            _ => {
                // Whole characters: copy up to the next byte that may need escaping.
                let next = b[i + 1..]
                    .iter()
                    .position(|x| matches!(x, b'`' | b'<' | b'!' | b']' | b'@' | b'\\'))
                    .map_or(b.len(), |p| i + 1 + p);
                out.push_str(&text[i..next]);
                i = next;
                continue;
            }
        }
        i += 1;
    }
    out
}

fn run_len(b: &[u8], at: usize, of: u8) -> usize {
    b[at..].iter().take_while(|&&x| x == of).count()
}

/// A link destination a renderer may follow: http(s), mailto, or a relative path.
fn safe_destination(rest: &str) -> bool {
    let d = rest.trim_start_matches([' ', '<']);
    let lower = d.get(..8).unwrap_or(d).to_ascii_lowercase();
    let scheme = ["http://", "https://", "mailto:"]
        .iter()
        .any(|p| lower.starts_with(p));
    let relative = (d.starts_with('/') && !d.starts_with("//"))
        || d.starts_with("./")
        || d.starts_with("../")
        || d.starts_with('#');
    let plain = d
        .split([')', ' '])
        .next()
        .is_some_and(|u| !u.contains(['&', '\\', '<', '>']));
    (scheme || relative) && plain
}

/// An `@` GitHub may read as a mention: not inside a word or an address, followed by
/// a name character.
fn mention_at(b: &[u8], i: usize) -> bool {
    // Not after a letter or digit (an address); after `_` or `*` it may open
    // emphasis, which a renderer takes away.
    let before_ok = i == 0 || !b[i - 1].is_ascii_alphanumeric();
    before_ok && b.get(i + 1).is_some_and(|c| c.is_ascii_alphanumeric())
}

/// The end of the name (and `/team`) after a mention's `@`.
fn mention_end(b: &[u8], mut i: usize) -> usize {
    // `@a@b` is one span: a second `@` right after the first span would start a text
    // of its own.
    let name = |c: &u8| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'@');
    while i < b.len() && name(&b[i]) {
        i += 1;
    }
    if b.get(i) == Some(&b'/') && b.get(i + 1).is_some_and(|c| c.is_ascii_alphanumeric()) {
        i += 1;
        while i < b.len() && (name(&b[i]) || b[i] == b'.') {
            i += 1;
        }
    }
    i
}

/// `text` as one inline code span, whatever backticks it holds (its fence is longer
/// than any run inside), on one line.
pub fn code_span(text: &str) -> String {
    let text: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
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
        let _ = write!(out, "**{}:** ", escape_text(scope));
    }
    let _ = writeln!(
        out,
        "{} ({})",
        escape_text(&e.summary),
        id_link(&e.commit, &e.short, links)
    );
    if let Some(note) = &e.breaking_note {
        let _ = writeln!(out, "  - **BREAKING CHANGE:** {}", escape_text(note));
    }
    for c in &e.changes {
        let (verb, path, what) = (
            escape_text(&c.verb),
            code_span(&c.path),
            escape_text(&c.what_why),
        );
        match &c.to {
            Some(to) => {
                let _ = writeln!(out, "  - {verb} {path} → {} — {what}", code_span(to));
            }
            None => {
                let _ = writeln!(out, "  - {verb} {path} — {what}");
            }
        }
    }
}

/// The reStructuredText of every release, newest first, in the layout
/// python-semantic-release's `.rst` changelog uses: a target and a `=`-underlined
/// title per release (`v1.2.0 (2026-01-31)`), a `-`-underlined subsection per changelog
/// section, `*` entries with their bullets nested. Commit text goes through
/// [`escape_rst`], so it renders as the text it is.
pub fn render_rst(log: &Changelog, links: &Links) -> String {
    let mut out = String::new();
    for (i, r) in log.releases.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        rst_release(&mut out, r, links);
    }
    out
}

/// A title and its underline, which is never shorter than the title (a character
/// outside ASCII counts two columns, as a wide one does in docutils).
fn rst_title(out: &mut String, title: &str, mark: char) {
    let width: usize = title
        .chars()
        .map(|c| if c.is_ascii() { 1 } else { 2 })
        .sum();
    let _ = writeln!(out, "{title}\n{}", mark.to_string().repeat(width.max(1)));
}

fn rst_release(out: &mut String, r: &Release, links: &Links) {
    let name = r.tag.as_deref().unwrap_or("Unreleased");
    let target: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let _ = writeln!(out, ".. _changelog-{target}:\n");
    let title = match &r.date {
        Some(date) => format!("{} ({date})", escape_rst(name)),
        None => escape_rst(name),
    };
    rst_title(out, &title, '=');
    let to = r.tag.as_deref().unwrap_or("HEAD");
    if let (Some(pattern), Some(from)) = (&links.compare, &r.previous_tag) {
        let url = pattern.replace("{from}", from).replace("{to}", to);
        let _ = writeln!(
            out,
            "\n`Compare {} <{}>`__",
            escape_rst(&format!("{from}...{to}")),
            rst_url(&url)
        );
    }
    if !r.breaking.is_empty() {
        out.push('\n');
        rst_title(out, "Breaking changes", '-');
        for e in &r.breaking {
            rst_entry(out, e, links);
        }
    }
    for s in &r.sections {
        out.push('\n');
        rst_title(out, &escape_rst(&s.name), '-');
        for e in &s.entries {
            rst_entry(out, e, links);
        }
    }
    if !r.others.is_empty() {
        out.push('\n');
        rst_title(out, "Other commits", '-');
        for o in &r.others {
            let why = other_why(o.kind);
            let _ = writeln!(
                out,
                "\n* {} ({}; {why})",
                escape_rst(&o.subject),
                rst_id(&o.commit, &o.short, links)
            );
        }
    }
    closing(out, r);
}

fn rst_id(full: &str, short: &str, links: &Links) -> String {
    match &links.commit {
        Some(p) => format!(
            "`{short} <{}>`__",
            rst_url(&p.replace("{id}", full).replace("{short}", short))
        ),
        None => format!("``{short}``"),
    }
}

/// A URL inside `<…>`: no `<`, `>`, backtick, space or control character.
fn rst_url(url: &str) -> String {
    url.chars()
        .filter(|c| !matches!(c, '<' | '>' | '`') && !c.is_whitespace() && !c.is_control())
        .collect()
}

fn rst_entry(out: &mut String, e: &Entry, links: &Links) {
    out.push_str("\n* ");
    if let Some(scope) = &e.scope {
        let _ = write!(out, "**{}**: ", escape_rst(scope));
    }
    let _ = writeln!(
        out,
        "{} ({})",
        escape_rst(&e.summary),
        rst_id(&e.commit, &e.short, links)
    );
    if e.breaking_note.is_none() && e.changes.is_empty() {
        return;
    }
    out.push('\n');
    if let Some(note) = &e.breaking_note {
        let _ = writeln!(out, "  * **BREAKING CHANGE:** {}", escape_rst(note));
    }
    for c in &e.changes {
        let (verb, path, what) = (
            escape_rst(&c.verb),
            rst_literal(&c.path),
            escape_rst(&c.what_why),
        );
        match &c.to {
            Some(to) => {
                let _ = writeln!(out, "  * {verb} {path} → {} — {what}", rst_literal(to));
            }
            None => {
                let _ = writeln!(out, "  * {verb} {path} — {what}");
            }
        }
    }
}

/// Commit text as reStructuredText that renders as that text: a `` `code` `` span
/// becomes an inline literal (``` ``code`` ```, as python-semantic-release writes
/// them), and outside them every character that can open markup (emphasis, literals,
/// references, substitutions, roles, targets, footnotes) is escaped with a backslash.
/// Line breaks and other control characters become spaces, so the text stays on its
/// list item's line.
pub fn escape_rst(text: &str) -> String {
    let text: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let parts: Vec<&str> = text.split('`').collect();
    // Code spans only where every backtick pairs up.
    if parts.len() < 3 || parts.len().is_multiple_of(2) {
        return escape_rst_plain(&text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for (i, part) in parts.iter().enumerate() {
        if i % 2 == 0 {
            out.push_str(&escape_rst_plain(part));
            continue;
        }
        let literal = !part.is_empty()
            && !part.starts_with(' ')
            && !part.ends_with(' ')
            && !part.contains("``");
        if !literal {
            out.push_str("\\`");
            out.push_str(&escape_rst_plain(part));
            out.push_str("\\`");
            continue;
        }
        // A literal must follow a space or a start, and be followed by a space, an end
        // or punctuation; an escaped space (which renders as nothing) joins it to text.
        let before = parts[i - 1].chars().next_back();
        let after = parts.get(i + 1).and_then(|p| p.chars().next());
        if before.is_some_and(|c| !c.is_whitespace() && !matches!(c, '-' | '/' | ':')) {
            out.push_str("\\ ");
        }
        out.push_str("``");
        out.push_str(part);
        out.push_str("``");
        if after.is_some_and(|c| {
            !c.is_whitespace() && !matches!(c, '-' | '/' | ':' | '.' | ',' | ';' | '!' | '?' | ')')
        }) {
            out.push_str("\\ ");
        }
    }
    out
}

/// [`escape_rst`] for text with no code span: every markup character escaped.
fn escape_rst_plain(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' | '`' | '*' | '_' | '|' | '[' | ']' | '<' | '>' | ':' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A path as an inline literal (``` ``path`` ```), or as escaped text where a literal
/// cannot hold it (a "``" inside, or space at either end).
fn rst_literal(text: &str) -> String {
    let clean: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if clean.is_empty()
        || clean.contains("``")
        || clean.starts_with(' ')
        || clean.ends_with(' ')
        || clean.ends_with('`')
        || clean.starts_with('`')
    {
        escape_rst(&clean)
    } else {
        format!("``{clean}``")
    }
}
