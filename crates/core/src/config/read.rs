//! Reads a convention from TOML with serde. The `Raw*` structs below are the schema
//! (`deny_unknown_fields`, kebab-case): serde rejects unknown keys, wrong types and
//! unknown choices, toml's spans place the error. What serde cannot say — the words a
//! list may hold, duplicates, ranges, the reserve below the budget, sections of known
//! types — is checked afterwards on the spanned values, and the error nearest the top
//! of the file is the one reported.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::path::Path;

use serde::Deserialize;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::{
    BodyPolicy, BumpLevel, Checks, ConfigError, Convention, Encoding, Exemption, Fact, Loaded,
    Location, Origin, Others, Prereleases, TypeCase, ZeroMajor,
};

type Text = Spanned<String>;
type List = Spanned<Vec<Text>>;
type Table = BTreeMap<Text, Text>;

/// A TOML integer; its own type so a wrong one reads "expected an integer".
#[derive(Clone, Copy)]
struct Int(i64);

impl<'de> Deserialize<'de> for Int {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Int;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an integer")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Int, E> {
                Ok(Int(v))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Int, E> {
                i64::try_from(v)
                    .map(Int)
                    .map_err(|_| E::custom("the integer is too large"))
            }
        }
        d.deserialize_i64(V)
    }
}

/// The convention table: every key optional, defaults from [`Convention::default`].
#[derive(Deserialize, Default)]
#[serde(
    default,
    deny_unknown_fields,
    rename_all = "kebab-case",
    expecting = "a table"
)]
struct RawConvention {
    types: Option<List>,
    type_case: Option<TypeCase>,
    scopes: Option<List>,
    verbs: Option<List>,
    subject_max: Option<Spanned<Int>>,
    subject_period: Option<bool>,
    subject_summary: Option<bool>,
    body: Option<BodyPolicy>,
    body_wrap: Option<Spanned<Int>>,
    trace_paths: Option<bool>,
    strict_separator: Option<bool>,
    coverage: Option<bool>,
    exempt: Option<Spanned<Vec<Spanned<Exemption>>>>,
    placeholders: Option<List>,
    adopted: Option<Text>,
    sections: Option<Table>,
    facts: Option<Table>,
    context: RawContext,
    changelog: RawChangelog,
}

#[derive(Deserialize, Default)]
#[serde(
    default,
    deny_unknown_fields,
    rename_all = "kebab-case",
    expecting = "a table"
)]
struct RawContext {
    budget_tokens: Option<Spanned<Int>>,
    reserve_output_tokens: Option<Spanned<Int>>,
    exclude: Option<List>,
    encoding: Option<Encoding>,
    safety_margin_percent: Option<Spanned<Int>>,
}

#[derive(Deserialize, Default)]
#[serde(
    default,
    deny_unknown_fields,
    rename_all = "kebab-case",
    expecting = "a table"
)]
struct RawChangelog {
    tag_pattern: Option<Text>,
    commit_url: Option<Text>,
    compare_url: Option<Text>,
    others: Option<Others>,
    bump_types: Option<BTreeMap<Text, BumpLevel>>,
    exclude_commits: Option<List>,
    ignore_tags: Option<Text>,
    prereleases: Option<Prereleases>,
    breaking_before_1: Option<ZeroMajor>,
}

/// `pyproject.toml`: only `[tool.commit-convention]` is read, other keys are ignored.
#[derive(Deserialize)]
#[serde(expecting = "a table")]
struct Pyproject {
    tool: Option<Tool>,
}

/// `[tool]` or `[….metadata]`: the table that holds `commit-convention`.
#[derive(Deserialize)]
#[serde(expecting = "a table")]
struct Tool {
    #[serde(rename = "commit-convention")]
    convention: Option<RawConvention>,
}

/// `Cargo.toml`: `[workspace.metadata.commit-convention]`, else the package's.
#[derive(Deserialize)]
#[serde(expecting = "a table")]
struct Cargo {
    workspace: Option<Metadata>,
    package: Option<Metadata>,
}

#[derive(Deserialize)]
#[serde(expecting = "a table")]
struct Metadata {
    metadata: Option<Tool>,
}

/// Which part of a file holds the convention, by the file's name.
#[derive(Clone, Copy)]
pub(super) enum Kind {
    /// `pyproject.toml`
    Pyproject,
    /// `Cargo.toml`
    Cargo,
    /// Any other file is the table itself.
    Whole,
}

impl Kind {
    pub(super) fn of(file_name: &str) -> Kind {
        match file_name {
            "pyproject.toml" => Kind::Pyproject,
            "Cargo.toml" => Kind::Cargo,
            _ => Kind::Whole,
        }
    }

    /// The tables looked for, in order; empty for a whole-file table.
    pub(super) fn tables(self) -> &'static [&'static str] {
        match self {
            Kind::Pyproject => &[PY],
            Kind::Cargo => &[WORKSPACE, PACKAGE],
            Kind::Whole => &[],
        }
    }
}

const PY: &str = "tool.commit-convention";
const WORKSPACE: &str = "workspace.metadata.commit-convention";
const PACKAGE: &str = "package.metadata.commit-convention";

/// A file's text, to turn byte offsets into lines and columns.
struct Doc<'a> {
    path: &'a Path,
    text: &'a str,
}

impl Doc<'_> {
    fn at(&self, offset: usize) -> Location {
        let offset = offset.min(self.text.len());
        let before = self.text.get(..offset).unwrap_or(self.text);
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        Location {
            path: self.path.to_owned(),
            line: before.matches('\n').count() + 1,
            column: before.get(line_start..).map_or(0, |s| s.chars().count()) + 1,
        }
    }

    /// serde's error, placed by its span and named by the key the span falls in.
    fn serde_error(&self, e: toml::de::Error) -> ConfigError {
        let offset = e.span().map_or(0, |s| s.start);
        let mut key = Vec::new();
        if let Ok(root) = DeTable::parse(self.text) {
            key_at(root.get_ref(), offset, &mut key);
        }
        ConfigError::Invalid {
            at: self.at(offset),
            key: key.join("."),
            message: e.message().trim().to_owned(),
        }
    }
}

/// Pushes onto `path` the dotted key whose name holds `offset`, else the deepest key
/// whose value holds it.
fn key_at(table: &DeTable<'_>, offset: usize, path: &mut Vec<String>) -> bool {
    let holds = |s: Range<usize>| s.start <= offset && offset < s.end.max(s.start + 1);
    for (k, v) in table {
        path.push(k.get_ref().to_string());
        if holds(k.span()) {
            return true;
        }
        let inner = match v.get_ref() {
            DeValue::Table(t) => key_at(t, offset, path),
            DeValue::Array(items) => items.iter().any(|item| match item.get_ref() {
                DeValue::Table(t) => key_at(t, offset, path),
                _ => false,
            }),
            _ => false,
        };
        if inner || holds(v.span()) {
            return true;
        }
        path.pop();
    }
    false
}

/// Parses `bytes` (the file at `path`) and reads the convention from the part of the
/// file `kind` names, each feature's value checked by `checks`. `Ok(None)`: the file
/// holds no convention table.
pub(super) fn load(
    path: &Path,
    bytes: &[u8],
    kind: Kind,
    checks: &Checks,
) -> Result<Option<Loaded>, ConfigError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let valid = bytes.get(..e.valid_up_to()).unwrap_or_default();
        let text = std::str::from_utf8(valid).unwrap_or_default();
        ConfigError::NotUtf8 {
            at: Doc { path, text }.at(text.len()),
        }
    })?;
    let doc = Doc { path, text };
    let de = toml::de::Deserializer::parse(text).map_err(|e| ConfigError::Syntax {
        at: doc.at(e.span().map_or(0, |s| s.start)),
        message: e.message().trim().to_owned(),
    })?;
    let found = match kind {
        Kind::Whole => RawConvention::deserialize(de).map(|raw| Some((None, raw))),
        Kind::Pyproject => Pyproject::deserialize(de)
            .map(|f| f.tool.and_then(|t| t.convention).map(|raw| (Some(PY), raw))),
        Kind::Cargo => Cargo::deserialize(de).map(|f| {
            let of = |m: Option<Metadata>| m.and_then(|m| m.metadata?.convention);
            let workspace = of(f.workspace).map(|raw| (Some(WORKSPACE), raw));
            workspace.or_else(|| of(f.package).map(|raw| (Some(PACKAGE), raw)))
        }),
    };
    let Some((table, raw)) = found.map_err(|e| doc.serde_error(e))? else {
        return Ok(None);
    };
    let mut check = Check {
        doc: &doc,
        prefix: table.unwrap_or(""),
        checks,
        first: None,
    };
    let convention = check.convention(raw);
    match check.first {
        Some((_, err)) => Err(err),
        None => Ok(Some(Loaded {
            convention,
            origin: Origin::File {
                path: path.to_owned(),
                table: table.map(str::to_owned),
            },
        })),
    }
}

/// The checks after serde: each failure is kept if it is the nearest to the top so far.
struct Check<'a> {
    doc: &'a Doc<'a>,
    prefix: &'a str,
    /// The features' checks on the values they keep here.
    checks: &'a Checks,
    first: Option<(usize, ConfigError)>,
}

impl Check<'_> {
    fn fail(&mut self, span: Range<usize>, name: &str, message: String) {
        if self.first.as_ref().is_some_and(|(at, _)| *at <= span.start) {
            return;
        }
        let key = if self.prefix.is_empty() {
            name.to_owned()
        } else {
            format!("{}.{name}", self.prefix)
        };
        let at = self.doc.at(span.start);
        self.first = Some((span.start, ConfigError::Invalid { at, key, message }));
    }

    /// The text of `span` as written (a list entry, quotes and all).
    fn written(&self, span: Range<usize>) -> &str {
        self.doc.text.get(span).unwrap_or_default()
    }

    /// Reports the second occurrence of any entry.
    fn distinct<T: PartialEq>(&mut self, name: &str, items: &[Spanned<T>]) {
        for (i, item) in items.iter().enumerate() {
            let seen = items.get(..i).unwrap_or_default();
            if seen.iter().any(|s| s.get_ref() == item.get_ref()) {
                let message = format!("duplicate entry {}", self.written(item.span()));
                self.fail(item.span(), name, message);
                return;
            }
        }
    }

    /// A list of distinct strings, each passing `check`; `None` when not given.
    fn list(
        &mut self,
        name: &str,
        list: Option<List>,
        may_be_empty: bool,
        check: fn(&str) -> Result<(), &'static str>,
    ) -> Option<Vec<String>> {
        let list = list?;
        if list.get_ref().is_empty() && !may_be_empty {
            self.fail(list.span(), name, "the list must not be empty".to_owned());
        }
        for item in list.get_ref() {
            if let Err(reason) = check(item.get_ref()) {
                let message = format!("invalid value {:?}: {reason}", item.get_ref());
                self.fail(item.span(), name, message);
            }
        }
        self.distinct(name, list.get_ref());
        Some(
            list.into_inner()
                .into_iter()
                .map(Spanned::into_inner)
                .collect(),
        )
    }

    /// An integer from `min` to `max`; `None` when not given.
    fn int<T: TryFrom<i64>>(
        &mut self,
        name: &str,
        v: &Option<Spanned<Int>>,
        min: i64,
        max: i64,
    ) -> Option<T> {
        let v = v.as_ref()?;
        let n = v.get_ref().0;
        match T::try_from(n) {
            Ok(t) if (min..=max).contains(&n) => Some(t),
            _ => {
                let message =
                    format!("invalid value \"{n}\": expected an integer from {min} to {max}");
                self.fail(v.span(), name, message);
                None
            }
        }
    }

    /// A string table in file order, each value passing `check`.
    fn table(
        &mut self,
        name: &str,
        table: Table,
        check: fn(&str) -> Result<(), &'static str>,
    ) -> Vec<(Text, Text)> {
        let mut entries: Vec<(Text, Text)> = table.into_iter().collect();
        entries.sort_by_key(|(k, _)| k.span().start);
        for (k, v) in &entries {
            if let Err(reason) = check(v.get_ref()) {
                let message = format!("invalid value {:?}: {reason}", v.get_ref());
                self.fail(v.span(), &format!("{name}.{}", k.get_ref()), message);
            }
        }
        entries
    }

    fn convention(&mut self, raw: RawConvention) -> Convention {
        let mut c = Convention::default();
        set(
            &mut c.types,
            self.list("types", raw.types, true, check_type),
        );
        set(&mut c.type_case, raw.type_case);
        set(
            &mut c.scopes,
            self.list("scopes", raw.scopes, true, check_scope),
        );
        set(
            &mut c.verbs,
            self.list("verbs", raw.verbs, false, check_verb),
        );
        set(
            &mut c.subject_max,
            self.int("subject-max", &raw.subject_max, 0, 1000),
        );
        set(&mut c.subject_period, raw.subject_period);
        set(&mut c.subject_summary, raw.subject_summary);
        set(&mut c.body, raw.body);
        set(
            &mut c.body_wrap,
            self.int("body-wrap", &raw.body_wrap, 0, 1000),
        );
        set(&mut c.trace_paths, raw.trace_paths);
        set(&mut c.strict_separator, raw.strict_separator);
        set(&mut c.coverage, raw.coverage);
        if let Some(exempt) = raw.exempt {
            self.distinct("exempt", exempt.get_ref());
            c.exempt = exempt
                .into_inner()
                .into_iter()
                .map(Spanned::into_inner)
                .collect();
        }
        let placeholders = self.list("placeholders", raw.placeholders, true, check_placeholder);
        set(&mut c.placeholders, placeholders);
        if let Some(a) = raw.adopted {
            if let Err(reason) = check_adopted(a.get_ref()) {
                let message = format!("invalid value {:?}: {reason}", a.get_ref());
                self.fail(a.span(), "adopted", message);
            }
            c.adopted = Some(a.into_inner());
        }
        match raw.sections {
            Some(sections) => {
                let entries = self.table("sections", sections, check_section);
                for (ty, _) in &entries {
                    if c.allowed_type(ty.get_ref()).is_none() {
                        let message = format!(
                            "invalid value {:?}: not one of the types ({})",
                            ty.get_ref(),
                            c.types.join(", ")
                        );
                        self.fail(ty.span(), &format!("sections.{}", ty.get_ref()), message);
                    }
                }
                let entries = entries.into_iter();
                c.sections = entries
                    .map(|(k, v)| (k.into_inner(), v.into_inner()))
                    .collect();
            }
            // The built-in sections, for the types this convention keeps: a section for
            // a type it dropped would make `--dump-config` fail to load back.
            None => {
                let types = c.types.clone();
                let kept = |ty: &String| {
                    types.is_empty() || types.iter().any(|t| t.eq_ignore_ascii_case(ty))
                };
                c.sections.retain(|ty, _| kept(ty));
            }
        }
        if let Some(facts) = raw.facts {
            let entries = self.table("facts", facts, check_one_line);
            for (id, value) in &entries {
                if let Err(reason) = (self.checks.fact)(id.get_ref(), value.get_ref()) {
                    self.fail(value.span(), &format!("facts.{}", id.get_ref()), reason);
                }
            }
            c.facts = entries
                .into_iter()
                .map(|(id, value)| Fact {
                    line: self.doc.at(id.span().start).line,
                    id: id.into_inner(),
                    value: value.into_inner(),
                })
                .collect();
        }
        self.context(raw.context, &mut c);
        self.changelog(raw.changelog, &mut c);
        c
    }

    fn context(&mut self, raw: RawContext, c: &mut Convention) {
        let ctx = &mut c.context;
        let budget = self.int(
            "context.budget-tokens",
            &raw.budget_tokens,
            1,
            MAX_BUDGET_TOKENS,
        );
        let reserve = self.int(
            "context.reserve-output-tokens",
            &raw.reserve_output_tokens,
            0,
            MAX_RESERVE_TOKENS,
        );
        let margin = self.int(
            "context.safety-margin-percent",
            &raw.safety_margin_percent,
            0,
            100,
        );
        if let Some(exclude) = &raw.exclude {
            for glob in exclude.get_ref() {
                if let Err(e) = globset::Glob::new(glob.get_ref()) {
                    let message = format!("invalid glob {:?}: {}", glob.get_ref(), e.kind());
                    self.fail(glob.span(), "context.exclude", message);
                }
            }
        }
        let exclude = self.list("context.exclude", raw.exclude, true, |_| Ok(()));
        set(&mut ctx.budget_tokens, budget);
        set(&mut ctx.reserve_output_tokens, reserve);
        set(&mut ctx.safety_margin_percent, margin);
        set(&mut ctx.exclude, exclude);
        set(&mut ctx.encoding, raw.encoding);
        if ctx.reserve_output_tokens >= ctx.budget_tokens {
            let message = format!(
                "reserve-output-tokens ({}) must be less than budget-tokens ({})",
                ctx.reserve_output_tokens, ctx.budget_tokens
            );
            // Blame the value that was set: the reserve, or else the budget.
            match (&raw.reserve_output_tokens, &raw.budget_tokens) {
                (Some(v), _) => self.fail(v.span(), "context.reserve-output-tokens", message),
                (None, Some(v)) => self.fail(v.span(), "context.budget-tokens", message),
                (None, None) => self.fail(0..0, "context.reserve-output-tokens", message),
            }
        }
    }

    fn changelog(&mut self, raw: RawChangelog, c: &mut Convention) {
        let out = &mut c.changelog;
        for (name, pattern) in [
            ("tag-pattern", raw.tag_pattern),
            ("ignore-tags", raw.ignore_tags),
        ] {
            let Some(p) = pattern else { continue };
            if let Err(reason) = (self.checks.tag_pattern)(p.get_ref()) {
                let message = format!("invalid value {:?}: {reason}", p.get_ref());
                self.fail(p.span(), &format!("changelog.{name}"), message);
            }
            match name {
                "tag-pattern" => out.tag_pattern = Some(p.into_inner()),
                _ => out.ignore_tags = Some(p.into_inner()),
            }
        }
        for p in raw
            .exclude_commits
            .map(Spanned::into_inner)
            .unwrap_or_default()
        {
            if let Err(reason) = (self.checks.commit_pattern)(p.get_ref()) {
                let message = format!("invalid value {:?}: {reason}", p.get_ref());
                self.fail(p.span(), "changelog.exclude-commits", message);
            }
            out.exclude_commits.push(p.into_inner());
        }
        out.prereleases = raw.prereleases.or(out.prereleases);
        out.breaking_before_1 = raw.breaking_before_1.or(out.breaking_before_1);
        let urls = [
            ("commit-url", raw.commit_url, &["{id}", "{short}"], " or "),
            ("compare-url", raw.compare_url, &["{from}", "{to}"], " and "),
        ];
        for (name, url, marks, joiner) in urls {
            let Some(url) = url else { continue };
            let has = |m: &&str| url.get_ref().contains(m);
            let ok = if joiner == " or " {
                marks.iter().any(has)
            } else {
                marks.iter().all(has)
            };
            if !ok {
                let message = format!(
                    "invalid value {:?}: the pattern needs {}",
                    url.get_ref(),
                    marks.join(joiner)
                );
                self.fail(url.span(), &format!("changelog.{name}"), message);
            }
            let value = Some(url.into_inner());
            match name {
                "commit-url" => out.commit_url = value,
                _ => out.compare_url = value,
            }
        }
        out.others = raw.others.or(out.others);
        for (ty, level) in raw.bump_types.unwrap_or_default() {
            if c.allowed_type(ty.get_ref()).is_none() {
                let message = format!(
                    "invalid value {:?}: not one of the types ({})",
                    ty.get_ref(),
                    c.types.join(", ")
                );
                self.fail(ty.span(), "changelog.bump-types", message);
            }
            c.changelog.bump_types.insert(ty.into_inner(), level);
        }
    }
}

/// Sets `field` to `v` when the file gave one.
fn set<T>(field: &mut T, v: Option<T>) {
    if let Some(v) = v {
        *field = v;
    }
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

fn check_section(s: &str) -> Result<(), &'static str> {
    if s.trim().is_empty() {
        return Err("a section name must not be empty");
    }
    check_line_start(s)
}

/// The adoption point: a full commit id (40 or 64 hex digits), never a name that a
/// pusher could move.
fn check_adopted(s: &str) -> Result<(), &'static str> {
    if matches!(s.len(), 40 | 64) && s.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(())
    } else {
        Err("expected a full commit id (40 or 64 hex digits)")
    }
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

/// A fact's value: data for the prompt, so one line without control characters.
fn check_one_line(s: &str) -> Result<(), &'static str> {
    if s.trim().is_empty() || s.chars().any(char::is_control) {
        return Err("a fact is non-empty text on one line");
    }
    Ok(())
}

fn check_scope(s: &str) -> Result<(), &'static str> {
    if s.is_empty() || s.chars().any(|c| c.is_whitespace() || "()".contains(c)) {
        return Err("a scope is a non-empty word without spaces, '(' or ')'");
    }
    check_prompt_value(s)?;
    // A drafted subject carries the scope: it must read back as itself (an invisible
    // or bidi control would be rendered as a space, a scope nobody configured).
    if !crate::message::reads_back_as_scope(s) {
        return Err(
            "a scope reads back from `type(scope): …` as itself: no invisible or bidi control characters",
        );
    }
    Ok(())
}

fn check_verb(s: &str) -> Result<(), &'static str> {
    if s.is_empty() || s.chars().any(|c| c.is_whitespace() || c == ':') {
        return Err("a verb is a non-empty word without spaces or ':'");
    }
    check_prompt_value(s)
}
