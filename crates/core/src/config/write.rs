//! Writes a convention back out as a `.commit-convention.toml`, for `--dump-config`.

use std::fmt::Write as _;

use super::{BodyPolicy, Convention, Encoding, Exemption, TypeCase};

/// A TOML basic string for `s`, escaped so any text round-trips.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A key, bare when TOML allows it.
fn key(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        s.to_owned()
    } else {
        quote(s)
    }
}

fn list<'a>(items: impl IntoIterator<Item = &'a str>) -> String {
    let items: Vec<String> = items.into_iter().map(quote).collect();
    format!("[{}]", items.join(", "))
}

pub(super) fn exemption_name(e: Exemption) -> &'static str {
    match e {
        Exemption::Merge => "merge",
        Exemption::Revert => "revert",
        Exemption::Fixup => "fixup",
        Exemption::Squash => "squash",
        Exemption::Amend => "amend",
    }
}

pub(super) fn to_toml(c: &Convention) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "types = {}", list(c.types.iter().map(String::as_str)));
    let case = match c.type_case {
        TypeCase::Any => "any",
        TypeCase::Lower => "lower",
    };
    let _ = writeln!(s, "type-case = {}", quote(case));
    let _ = writeln!(s, "scopes = {}", list(c.scopes.iter().map(String::as_str)));
    let _ = writeln!(s, "verbs = {}", list(c.verbs.iter().map(String::as_str)));
    let _ = writeln!(s, "subject-max = {}", c.subject_max);
    let _ = writeln!(s, "subject-period = {}", c.subject_period);
    let body = match c.body {
        BodyPolicy::Required => "required",
        BodyPolicy::Optional => "optional",
        BodyPolicy::Free => "free",
    };
    let _ = writeln!(s, "body = {}", quote(body));
    let _ = writeln!(s, "body-wrap = {}", c.body_wrap);
    let _ = writeln!(s, "trace-paths = {}", c.trace_paths);
    if c.coverage {
        let _ = writeln!(s, "coverage = true");
    }
    let _ = writeln!(s, "strict-separator = {}", c.strict_separator);
    let _ = writeln!(
        s,
        "exempt = {}",
        list(c.exempt.iter().map(|e| exemption_name(*e)))
    );
    let _ = writeln!(
        s,
        "placeholders = {}",
        list(c.placeholders.iter().map(String::as_str))
    );
    s.push_str("\n[sections]\n");
    for (ty, section) in &c.sections {
        let _ = writeln!(s, "{} = {}", key(ty), quote(section));
    }
    let ctx = &c.context;
    s.push_str("\n[context]\n");
    let _ = writeln!(s, "budget-tokens = {}", ctx.budget_tokens);
    let _ = writeln!(s, "reserve-output-tokens = {}", ctx.reserve_output_tokens);
    let _ = writeln!(
        s,
        "exclude = {}",
        list(ctx.exclude.iter().map(String::as_str))
    );
    let encoding = match ctx.encoding {
        Encoding::Cl100k => "cl100k",
        Encoding::O200k => "o200k",
    };
    let _ = writeln!(s, "encoding = {}", quote(encoding));
    let _ = writeln!(s, "safety-margin-percent = {}", ctx.safety_margin_percent);
    // Only what is set: every changelog key is optional.
    let cl = &c.changelog;
    if *cl != super::ChangelogSettings::default() {
        s.push_str("\n[changelog]\n");
        let keys = [
            ("tag-pattern", &cl.tag_pattern),
            ("commit-url", &cl.commit_url),
            ("compare-url", &cl.compare_url),
        ];
        for (k, v) in keys {
            if let Some(v) = v {
                let _ = writeln!(s, "{k} = {}", quote(v));
            }
        }
        if let Some(o) = cl.others {
            let o = match o {
                crate::changelog::Others::Count => "count",
                crate::changelog::Others::List => "list",
            };
            let _ = writeln!(s, "others = {}", quote(o));
        }
    }
    s
}
