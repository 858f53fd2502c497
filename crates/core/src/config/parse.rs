//! Strict reading of a convention table from TOML text, with the position of every
//! key and value kept so each error can name its line.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::{
    BodyPolicy, ConfigError, ContextSettings, Convention, Encoding, Exemption, Loaded, Location,
    Origin, TypeCase,
};

/// The keys of the convention table, in the order `to_toml` writes them.
pub(super) const KEYS: &[&str] = &[
    "types",
    "type-case",
    "scopes",
    "verbs",
    "subject-max",
    "subject-period",
    "body",
    "body-wrap",
    "trace-paths",
    "coverage",
    "strict-separator",
    "exempt",
    "placeholders",
    "sections",
    "context",
    "changelog",
];

/// The keys of the `changelog` sub-table.
pub(super) const CHANGELOG_KEYS: &[&str] = &["tag-pattern", "commit-url", "compare-url", "others"];

/// The keys of the `context` sub-table.
pub(super) const CONTEXT_KEYS: &[&str] = &[
    "budget-tokens",
    "reserve-output-tokens",
    "exclude",
    "encoding",
    "safety-margin-percent",
];

/// A file's text, to turn byte offsets into lines and columns.
struct Doc<'a> {
    path: &'a Path,
    text: &'a str,
}

impl Doc<'_> {
    fn at(&self, span: &Range<usize>) -> Location {
        location(self.path, self.text, span.start)
    }
}

fn location(path: &Path, text: &str, offset: usize) -> Location {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    Location {
        path: path.to_owned(),
        line: before.matches('\n').count() + 1,
        column: before.get(line_start..).map_or(0, |s| s.chars().count()) + 1,
    }
}

fn dotted(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_owned()
    } else {
        format!("{prefix}.{name}")
    }
}

fn type_name(v: &DeValue<'_>) -> &'static str {
    match v {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a float",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a datetime",
        DeValue::Array(_) => "an array",
        DeValue::Table(_) => "a table",
    }
}

/// Parses `bytes` (the file at `path`) and reads the convention from the first of
/// `tables` that exists, or from the whole file when `tables` is empty. `Ok(None)`: the
/// file holds none of the tables.
pub(super) fn load(
    path: &Path,
    bytes: &[u8],
    tables: &[&[&str]],
) -> Result<Option<Loaded>, ConfigError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let valid = bytes.get(..e.valid_up_to()).unwrap_or_default();
        let text = std::str::from_utf8(valid).unwrap_or_default();
        ConfigError::NotUtf8 {
            at: location(path, text, text.len()),
        }
    })?;
    let doc = Doc { path, text };
    let root = DeTable::parse(text).map_err(|e| ConfigError::Syntax {
        at: doc.at(&e.span().unwrap_or(0..0)),
        message: e.message().trim().to_owned(),
    })?;
    let root = root.get_ref();
    if tables.is_empty() {
        let convention = convention(&doc, root, "")?;
        return Ok(Some(Loaded {
            convention,
            origin: Origin::File {
                path: path.to_owned(),
                table: None,
            },
        }));
    }
    for segments in tables {
        if let Some(table) = find_table(&doc, root, segments)? {
            let prefix = segments.join(".");
            let convention = convention(&doc, table, &prefix)?;
            return Ok(Some(Loaded {
                convention,
                origin: Origin::File {
                    path: path.to_owned(),
                    table: Some(prefix),
                },
            }));
        }
    }
    Ok(None)
}

fn get<'t, 'i>(table: &'t DeTable<'i>, name: &str) -> Option<&'t Spanned<DeValue<'i>>> {
    table
        .iter()
        .find(|(k, _)| k.get_ref().as_ref() == name)
        .map(|(_, v)| v)
}

/// Walks `segments` down from `root`; a segment that exists but is not a table is an
/// error, a missing one means the file has no such table.
fn find_table<'t, 'i>(
    doc: &Doc<'_>,
    root: &'t DeTable<'i>,
    segments: &[&str],
) -> Result<Option<&'t DeTable<'i>>, ConfigError> {
    let mut table = root;
    for (i, seg) in segments.iter().enumerate() {
        let Some(value) = get(table, seg) else {
            return Ok(None);
        };
        match value.get_ref() {
            DeValue::Table(t) => table = t,
            other => {
                return Err(ConfigError::WrongType {
                    at: doc.at(&value.span()),
                    key: segments.get(..=i).unwrap_or(segments).join("."),
                    expected: "a table",
                    found: type_name(other),
                });
            }
        }
    }
    Ok(Some(table))
}

/// The table's entries in the order they appear in the file, so the first error in
/// the file is the one reported.
fn entries<'t, 'i>(
    table: &'t DeTable<'i>,
) -> Vec<(
    &'t Spanned<std::borrow::Cow<'i, str>>,
    &'t Spanned<DeValue<'i>>,
)> {
    let mut v: Vec<_> = table.iter().collect();
    v.sort_by_key(|(k, _)| k.span().start);
    v
}

fn convention(doc: &Doc<'_>, table: &DeTable<'_>, prefix: &str) -> Result<Convention, ConfigError> {
    let mut c = Convention::default();
    let mut sections_at: Option<BTreeMap<String, Range<usize>>> = None;
    let mut budget_at = None;
    let mut reserve_at = None;
    for (k, v) in entries(table) {
        let name = k.get_ref().as_ref();
        let key = dotted(prefix, name);
        match name {
            "types" => c.types = list(doc, &key, v, true, check_type)?,
            "type-case" => {
                c.type_case = choice(
                    doc,
                    &key,
                    v,
                    &[("any", TypeCase::Any), ("lower", TypeCase::Lower)],
                )?;
            }
            "subject-period" => c.subject_period = boolean(doc, &key, v)?,
            "placeholders" => c.placeholders = list(doc, &key, v, true, check_placeholder)?,
            "scopes" => c.scopes = list(doc, &key, v, true, check_scope)?,
            "verbs" => c.verbs = list(doc, &key, v, false, check_verb)?,
            "subject-max" => c.subject_max = int(doc, &key, v, 0, 1000)?,
            "body" => {
                c.body = choice(
                    doc,
                    &key,
                    v,
                    &[
                        ("required", BodyPolicy::Required),
                        ("optional", BodyPolicy::Optional),
                        ("free", BodyPolicy::Free),
                    ],
                )?;
            }
            "body-wrap" => c.body_wrap = int(doc, &key, v, 0, 1000)?,
            "trace-paths" => c.trace_paths = boolean(doc, &key, v)?,
            "coverage" => c.coverage = boolean(doc, &key, v)?,
            "strict-separator" => c.strict_separator = boolean(doc, &key, v)?,
            "exempt" => {
                let names = list(doc, &key, v, true, |_| Ok(()))?;
                let mut out = Vec::with_capacity(names.len());
                let items = array(doc, &key, v)?;
                for (n, item) in names.iter().zip(items) {
                    out.push(choice_str(doc, &key, n, &item.span(), EXEMPTIONS)?);
                }
                c.exempt = out;
            }
            "sections" => {
                let t = sub_table(doc, &key, v)?;
                let mut map = BTreeMap::new();
                let mut spans = BTreeMap::new();
                for (sk, sv) in entries(t) {
                    let skey = dotted(&key, sk.get_ref());
                    let value = string(doc, &skey, sv)?;
                    if value.trim().is_empty() {
                        return Err(invalid(
                            doc,
                            &skey,
                            sv,
                            &value,
                            "a section name must not be empty",
                        ));
                    }
                    if let Err(reason) = check_line_start(&value) {
                        return Err(invalid(doc, &skey, sv, &value, reason));
                    }
                    map.insert(sk.get_ref().to_string(), value);
                    spans.insert(sk.get_ref().to_string(), sk.span());
                }
                c.sections = map;
                sections_at = Some(spans);
            }
            "context" => {
                let t = sub_table(doc, &key, v)?;
                (budget_at, reserve_at) = context(doc, t, &key, &mut c.context)?;
            }
            "changelog" => changelog(doc, sub_table(doc, &key, v)?, &key, &mut c.changelog)?,
            _ => return Err(unknown(doc, &key, name, &k.span(), KEYS)),
        }
    }
    if sections_at.is_none() {
        // The built-in sections, for the types this convention keeps: a section for a
        // type it dropped would make the effective convention (`--dump-config`,
        // `to_toml`) fail to load back.
        let dropped: Vec<String> = c
            .sections
            .keys()
            .filter(|ty| c.allowed_type(ty).is_none())
            .cloned()
            .collect();
        for ty in dropped {
            c.sections.remove(&ty);
        }
    }
    if let Some(spans) = sections_at {
        for (ty, span) in spans {
            if c.allowed_type(&ty).is_none() {
                return Err(ConfigError::InvalidValue {
                    at: doc.at(&span),
                    key: dotted(&dotted(prefix, "sections"), &ty),
                    value: ty,
                    reason: format!("not one of the types ({})", c.types.join(", ")),
                });
            }
        }
    }
    let ctx = &c.context;
    if ctx.reserve_output_tokens >= ctx.budget_tokens {
        let context = dotted(prefix, "context");
        let (span, name) = match (reserve_at, budget_at) {
            (Some(s), _) => (s, "reserve-output-tokens"),
            (None, Some(s)) => (s, "budget-tokens"),
            (None, None) => (0..0, "reserve-output-tokens"),
        };
        return Err(ConfigError::ReserveNotBelowBudget {
            at: doc.at(&span),
            key: dotted(&context, name),
            reserve: ctx.reserve_output_tokens,
            budget: ctx.budget_tokens,
        });
    }
    Ok(c)
}

type Spans = (Option<Range<usize>>, Option<Range<usize>>);

fn context(
    doc: &Doc<'_>,
    table: &DeTable<'_>,
    prefix: &str,
    ctx: &mut ContextSettings,
) -> Result<Spans, ConfigError> {
    let (mut budget_at, mut reserve_at) = (None, None);
    for (k, v) in entries(table) {
        let name = k.get_ref().as_ref();
        let key = dotted(prefix, name);
        match name {
            "budget-tokens" => {
                ctx.budget_tokens = int(doc, &key, v, 1, MAX_BUDGET_TOKENS)?;
                budget_at = Some(v.span());
            }
            "reserve-output-tokens" => {
                ctx.reserve_output_tokens = int(doc, &key, v, 0, MAX_RESERVE_TOKENS)?;
                reserve_at = Some(v.span());
            }
            "exclude" => {
                let globs = list(doc, &key, v, true, |_| Ok(()))?;
                for (g, item) in globs.iter().zip(array(doc, &key, v)?) {
                    if let Err(e) = globset::Glob::new(g) {
                        return Err(ConfigError::BadGlob {
                            at: doc.at(&item.span()),
                            key: key.clone(),
                            glob: g.clone(),
                            message: e.kind().to_string(),
                        });
                    }
                }
                ctx.exclude = globs;
            }
            "encoding" => {
                ctx.encoding = choice(
                    doc,
                    &key,
                    v,
                    &[("cl100k", Encoding::Cl100k), ("o200k", Encoding::O200k)],
                )?;
            }
            "safety-margin-percent" => ctx.safety_margin_percent = int(doc, &key, v, 0, 100)?,
            _ => return Err(unknown(doc, &key, name, &k.span(), CONTEXT_KEYS)),
        }
    }
    Ok((budget_at, reserve_at))
}

fn changelog(
    doc: &Doc<'_>,
    table: &DeTable<'_>,
    prefix: &str,
    out: &mut super::ChangelogSettings,
) -> Result<(), ConfigError> {
    use crate::changelog::Others;
    for (k, v) in entries(table) {
        let name = k.get_ref().as_ref();
        let key = dotted(prefix, name);
        let need = |value: &str, marks: &[&str], all: bool| {
            let ok = if all {
                marks.iter().all(|m| value.contains(m))
            } else {
                marks.iter().any(|m| value.contains(m))
            };
            if ok {
                Ok(value.to_owned())
            } else {
                let reason = format!(
                    "the pattern needs {}",
                    marks.join(if all { " and " } else { " or " })
                );
                Err(invalid(doc, &key, v, value, &reason))
            }
        };
        match name {
            "tag-pattern" => {
                let p = string(doc, &key, v)?;
                if let Err(e) = crate::changelog::TagPattern::new(&p) {
                    return Err(invalid(doc, &key, v, &p, &e.reason));
                }
                out.tag_pattern = Some(p);
            }
            "commit-url" => {
                out.commit_url = Some(need(&string(doc, &key, v)?, &["{id}", "{short}"], false)?)
            }
            "compare-url" => {
                out.compare_url = Some(need(&string(doc, &key, v)?, &["{from}", "{to}"], true)?)
            }
            "others" => {
                out.others = Some(choice(
                    doc,
                    &key,
                    v,
                    &[("count", Others::Count), ("list", Others::List)],
                )?);
            }
            _ => return Err(unknown(doc, &key, name, &k.span(), CHANGELOG_KEYS)),
        }
    }
    Ok(())
}

const EXEMPTIONS: &[(&str, Exemption)] = &[
    ("merge", Exemption::Merge),
    ("revert", Exemption::Revert),
    ("fixup", Exemption::Fixup),
    ("squash", Exemption::Squash),
    ("amend", Exemption::Amend),
];

fn unknown(
    doc: &Doc<'_>,
    key: &str,
    name: &str,
    span: &Range<usize>,
    known: &'static [&'static str],
) -> ConfigError {
    ConfigError::UnknownKey {
        at: doc.at(span),
        key: key.to_owned(),
        name: name.to_owned(),
        known,
    }
}

fn wrong(
    doc: &Doc<'_>,
    key: &str,
    v: &Spanned<DeValue<'_>>,
    expected: &'static str,
) -> ConfigError {
    ConfigError::WrongType {
        at: doc.at(&v.span()),
        key: key.to_owned(),
        expected,
        found: type_name(v.get_ref()),
    }
}

fn invalid(
    doc: &Doc<'_>,
    key: &str,
    v: &Spanned<DeValue<'_>>,
    value: &str,
    reason: &str,
) -> ConfigError {
    ConfigError::InvalidValue {
        at: doc.at(&v.span()),
        key: key.to_owned(),
        value: value.to_owned(),
        reason: reason.to_owned(),
    }
}

fn sub_table<'t, 'i>(
    doc: &Doc<'_>,
    key: &str,
    v: &'t Spanned<DeValue<'i>>,
) -> Result<&'t DeTable<'i>, ConfigError> {
    match v.get_ref() {
        DeValue::Table(t) => Ok(t),
        _ => Err(wrong(doc, key, v, "a table")),
    }
}

fn array<'t, 'i>(
    doc: &Doc<'_>,
    key: &str,
    v: &'t Spanned<DeValue<'i>>,
) -> Result<&'t [Spanned<DeValue<'i>>], ConfigError> {
    match v.get_ref() {
        DeValue::Array(a) => Ok(a),
        _ => Err(wrong(doc, key, v, "an array of strings")),
    }
}

fn string(doc: &Doc<'_>, key: &str, v: &Spanned<DeValue<'_>>) -> Result<String, ConfigError> {
    match v.get_ref() {
        DeValue::String(s) => Ok(s.to_string()),
        _ => Err(wrong(doc, key, v, "a string")),
    }
}

fn boolean(doc: &Doc<'_>, key: &str, v: &Spanned<DeValue<'_>>) -> Result<bool, ConfigError> {
    match v.get_ref() {
        DeValue::Boolean(b) => Ok(*b),
        _ => Err(wrong(doc, key, v, "a boolean")),
    }
}

fn int<T: TryFrom<i64>>(
    doc: &Doc<'_>,
    key: &str,
    v: &Spanned<DeValue<'_>>,
    min: i64,
    max: i64,
) -> Result<T, ConfigError> {
    let DeValue::Integer(i) = v.get_ref() else {
        return Err(wrong(doc, key, v, "an integer"));
    };
    let reason = format!("expected an integer from {min} to {max}");
    let n = i64::from_str_radix(i.as_str(), i.radix())
        .map_err(|_| invalid(doc, key, v, i.as_str(), &reason))?;
    if n < min || n > max {
        return Err(invalid(doc, key, v, &n.to_string(), &reason));
    }
    T::try_from(n).map_err(|_| invalid(doc, key, v, &n.to_string(), &reason))
}

fn choice<T: Copy>(
    doc: &Doc<'_>,
    key: &str,
    v: &Spanned<DeValue<'_>>,
    options: &[(&str, T)],
) -> Result<T, ConfigError> {
    let s = string(doc, key, v)?;
    choice_str(doc, key, &s, &v.span(), options)
}

fn choice_str<T: Copy>(
    doc: &Doc<'_>,
    key: &str,
    s: &str,
    span: &Range<usize>,
    options: &[(&str, T)],
) -> Result<T, ConfigError> {
    options
        .iter()
        .find(|(name, _)| *name == s)
        .map(|(_, t)| *t)
        .ok_or_else(|| ConfigError::InvalidValue {
            at: doc.at(span),
            key: key.to_owned(),
            value: s.to_owned(),
            reason: format!(
                "expected one of: {}",
                options
                    .iter()
                    .map(|(n, _)| *n)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        })
}

/// An array of distinct strings, each passing `check`; `may_be_empty` says whether
/// `[]` is allowed.
fn list(
    doc: &Doc<'_>,
    key: &str,
    v: &Spanned<DeValue<'_>>,
    may_be_empty: bool,
    check: fn(&str) -> Result<(), &'static str>,
) -> Result<Vec<String>, ConfigError> {
    let items = array(doc, key, v)?;
    if items.is_empty() && !may_be_empty {
        return Err(ConfigError::EmptyList {
            at: doc.at(&v.span()),
            key: key.to_owned(),
        });
    }
    let mut out: Vec<String> = Vec::with_capacity(items.len());
    for item in items {
        let s = match item.get_ref() {
            DeValue::String(s) => s.to_string(),
            _ => return Err(wrong(doc, key, item, "an array of strings")),
        };
        if let Err(reason) = check(&s) {
            return Err(invalid(doc, key, item, &s, reason));
        }
        if out.contains(&s) {
            return Err(ConfigError::Duplicate {
                at: doc.at(&item.span()),
                key: key.to_owned(),
                value: s,
            });
        }
        out.push(s);
    }
    Ok(out)
}

/// The largest `context.budget-tokens` a convention may name (1 Mi tokens): a
/// repository cannot size the model server's context beyond any real model.
const MAX_BUDGET_TOKENS: i64 = 1 << 20;
/// The largest `context.reserve-output-tokens`.
const MAX_RESERVE_TOKENS: i64 = 1 << 16;
/// The longest word or section name that enters the prompt's convention section.
const MAX_PROMPT_VALUE: usize = 40;

/// A repository value that goes into the prompt outside evidence (the convention
/// section, the schema's enums): one printable line, at most [`MAX_PROMPT_VALUE`]
/// characters, and no markup (`<`, `>`, `` ` ``), so a
/// committed convention cannot add a section, a block tag or an instruction.
fn check_prompt_value(s: &str) -> Result<(), &'static str> {
    if s.chars().count() > MAX_PROMPT_VALUE {
        return Err("at most 40 characters");
    }
    if s.chars().any(|c| {
        c.is_control() || matches!(c, '<' | '>' | '`' | '\u{2028}' | '\u{2029}' | '\u{FF1C}')
    }) {
        return Err("one line of text without control characters, '<', '>' or '`'");
    }
    Ok(())
}

/// A value that may start a line (a type starts the subject; a section name is a
/// heading elsewhere): no leading comment or markup character either.
fn check_line_start(s: &str) -> Result<(), &'static str> {
    check_prompt_value(s)?;
    if s.trim_start().starts_with([
        '#', '-', '*', '=', '|', ';', '@', '!', '$', '%', '^', '&', ':',
    ]) {
        return Err("must not start with a markup or comment character");
    }
    Ok(())
}

fn check_type(s: &str) -> Result<(), &'static str> {
    if s.is_empty() || s.chars().any(|c| c.is_whitespace() || "():!".contains(c)) {
        return Err("a type is a non-empty word without spaces, '(', ')', ':' or '!'");
    }
    check_line_start(s)
}

fn check_placeholder(s: &str) -> Result<(), &'static str> {
    if s.trim().is_empty() || s.contains('\n') {
        return Err("a placeholder is non-empty text on one line");
    }
    Ok(())
}

fn check_scope(s: &str) -> Result<(), &'static str> {
    if s.is_empty() || s.chars().any(|c| c.is_whitespace() || "()".contains(c)) {
        return Err("a scope is a non-empty word without spaces, '(' or ')'");
    }
    check_prompt_value(s)
}

fn check_verb(s: &str) -> Result<(), &'static str> {
    if s.is_empty() || s.chars().any(|c| c.is_whitespace() || c == ':') {
        return Err("a verb is a non-empty word without spaces or ':'");
    }
    check_prompt_value(s)
}
