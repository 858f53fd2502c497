//! Turns gitleaks' default rule set (rules/gitleaks.toml, MIT, see rules/README.md)
//! into a static table for `redact`: each rule's id, regex, keywords, secret group,
//! entropy threshold and allowlist regexes, plus the global allowlist regexes. The
//! regexes are compiled lazily at run time, only for lines that hold a rule's keyword.
//! Each rule also gets what a line must hold before its regex can yield a secret
//! ([`need`]), so that a line without it is passed over uncompiled.

use std::fmt::Write as _;
use std::path::PathBuf;

fn strings(v: Option<&toml::Value>) -> Vec<String> {
    v.and_then(toml::Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// Allowlist regexes that test the secret (or the whole match), and the stopwords;
/// `line`-target and conditional lists are left out: they only lower false
/// positives, and leaving them out redacts more, never less.
fn allow_lists(t: &toml::Table) -> (Vec<String>, Vec<String>) {
    let (mut out, mut stop) = (Vec::new(), Vec::new());
    let lists: Vec<&toml::Table> = match t.get("allowlists").and_then(toml::Value::as_array) {
        Some(a) => a.iter().filter_map(toml::Value::as_table).collect(),
        None => t
            .get("allowlist")
            .and_then(toml::Value::as_table)
            .into_iter()
            .collect(),
    };
    for l in lists {
        let target = l
            .get("regexTarget")
            .and_then(toml::Value::as_str)
            .unwrap_or("secret");
        if target == "line" || l.get("condition").is_some() {
            continue;
        }
        out.extend(strings(l.get("regexes")));
        stop.extend(
            strings(l.get("stopwords"))
                .iter()
                .map(|w| w.to_ascii_lowercase()),
        );
    }
    (out, stop)
}

use regex_syntax::hir::{Class, Hir, HirKind};

/// Adds every byte `hir` can consume to `set` (a 256-bit set); a Unicode class, which a
/// pattern parsed without Unicode does not hold, adds every byte.
fn bytes_of(hir: &Hir, set: &mut Set) {
    let mut add = |b: u8| set[usize::from(b >> 6)] |= 1 << (b & 63);
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => {}
        HirKind::Literal(l) => l.0.iter().for_each(|&b| add(b)),
        HirKind::Class(Class::Bytes(c)) => {
            for r in c.iter() {
                (r.start()..=r.end()).for_each(&mut add);
            }
        }
        HirKind::Class(Class::Unicode(_)) => (0..=255).for_each(add),
        HirKind::Repetition(r) => bytes_of(&r.sub, set),
        HirKind::Capture(c) => bytes_of(&c.sub, set),
        HirKind::Concat(v) | HirKind::Alternation(v) => v.iter().for_each(|h| bytes_of(h, set)),
    }
}

/// The capture group `index` of `hir` (0 is the whole pattern).
fn group(hir: &Hir, index: u32) -> Option<&Hir> {
    if index == 0 {
        return Some(hir);
    }
    match hir.kind() {
        HirKind::Capture(c) if c.index == index => Some(&c.sub),
        HirKind::Capture(c) => group(&c.sub, index),
        HirKind::Repetition(r) => group(&r.sub, index),
        HirKind::Concat(v) | HirKind::Alternation(v) => v.iter().find_map(|h| group(h, index)),
        _ => None,
    }
}

/// Whether capture group `index` takes part in every match of `hir`.
fn always(hir: &Hir, index: u32) -> bool {
    match hir.kind() {
        HirKind::Capture(c) => c.index == index || always(&c.sub, index),
        HirKind::Concat(v) => v.iter().any(|h| always(h, index)),
        HirKind::Repetition(r) => r.min > 0 && always(&r.sub, index),
        _ => false,
    }
}

/// A set of bytes, 256 bits.
type Set = [u64; 4];

fn set_of(bytes: impl IntoIterator<Item = u8>) -> Set {
    let mut set = [0u64; 4];
    for b in bytes {
        set[usize::from(b >> 6)] |= 1 << (b & 63);
    }
    set
}

/// The byte set of a piece that matches exactly one byte (a literal byte or a class).
fn one_byte(hir: &Hir) -> Option<Vec<Set>> {
    match hir.kind() {
        HirKind::Literal(l) => Some(l.0.iter().map(|&b| set_of([b])).collect()),
        HirKind::Class(Class::Bytes(c)) => {
            Some(vec![set_of(c.iter().flat_map(|r| r.start()..=r.end()))])
        }
        _ => None,
    }
}

/// Runs of bytes every match of `hir` holds, each as the set each of its bytes is in:
/// a literal, consecutive literal bytes and classes of a concatenation, what a
/// repetition of at least one holds, and what every branch of an alternation holds.
fn required(hir: &Hir) -> Vec<Vec<Set>> {
    match hir.kind() {
        HirKind::Literal(_) | HirKind::Class(Class::Bytes(_)) => {
            one_byte(hir).into_iter().collect()
        }
        HirKind::Repetition(r) if r.min > 0 => required(&r.sub),
        HirKind::Capture(c) => required(&c.sub),
        HirKind::Concat(v) => {
            let mut out = Vec::new();
            let mut run: Vec<Set> = Vec::new();
            for h in v {
                match one_byte(h) {
                    Some(b) => run.extend(b),
                    None => {
                        out.extend((!run.is_empty()).then(|| std::mem::take(&mut run)));
                        out.extend(required(h));
                    }
                }
            }
            out.extend((!run.is_empty()).then_some(run));
            out
        }
        HirKind::Alternation(v) => {
            let mut all = v.iter().map(required);
            let first = all.next().unwrap_or_default();
            let rest: Vec<Vec<Vec<Set>>> = all.collect();
            first
                .into_iter()
                .filter(|s| rest.iter().all(|r| r.contains(s)))
                .collect()
        }
        _ => Vec::new(),
    }
}

/// The byte set `S` of an allowlist pattern `^[S]+$`: a secret of only those bytes is
/// allowed (not redacted).
fn allowed_bytes(pattern: &str) -> Option<Set> {
    use regex_syntax::hir::Look;
    let hir = parse(pattern)?;
    let HirKind::Concat(v) = hir.kind() else {
        return None;
    };
    match v.iter().map(Hir::kind).collect::<Vec<_>>().as_slice() {
        [
            HirKind::Look(Look::Start),
            HirKind::Repetition(r),
            HirKind::Look(Look::End),
        ] if r.min >= 1 && r.max.is_none() => one_byte(&r.sub).and_then(|s| match s.as_slice() {
            [set] => Some(*set),
            _ => None,
        }),
        _ => None,
    }
}

fn parse(pattern: &str) -> Option<Hir> {
    regex_syntax::ParserBuilder::new()
        .unicode(false)
        .utf8(false)
        .build()
        .parse(pattern)
        .ok()
}

/// What a line must hold for the rule to redact anything on it (`redact`'s `Need`):
///
/// - a run of at least `len` bytes that all belong to the set `run`, because the secret
///   `redact` takes from a match is one of the capture groups it may pick (the secret
///   group or the one after it; for group 0, the first group that took part, so one up
///   to the first group every match has, else any group or the whole match), which
///   consumes only bytes of the set, is at least as long as the shortest that group
///   matches, never empty, and, with an entropy threshold `e` over an ASCII secret,
///   longer than 2^e bytes (the entropy of `n` bytes is at most log2 `n`; the bound is
///   kept one lower against rounding);
/// - in that run, a byte of `odd`: with an allowlist pattern `^[S]+$`, a secret of
///   only bytes of `S` is allowed, so the secret holds one outside it;
/// - each of `seqs` ([`required`], the two longest): bytes every match holds.
///
/// `None` (no condition) for a pattern the regex syntax does not parse.
fn need(regex: &str, secret_group: i64, entropy: f64, allow: &[String]) -> Option<String> {
    let hir = parse(regex)?;
    let groups: Vec<u32> = if secret_group > 0 {
        let g = u32::try_from(secret_group).ok()?;
        vec![g, g + 1]
    } else {
        let n = hir.properties().explicit_captures_len() as u32;
        match (1..=n).find(|&g| always(&hir, g)) {
            Some(first) => (1..=first).collect(),
            None => (0..=n).collect(),
        }
    };
    let mut set = [0u64; 4];
    let mut len = usize::MAX;
    let mut any = false;
    for g in groups {
        let Some(sub) = group(&hir, g) else { continue };
        any = true;
        bytes_of(sub, &mut set);
        len = len.min(sub.properties().minimum_len().unwrap_or(0));
    }
    if !any {
        return None;
    }
    let mut len = len.max(1);
    if entropy > 0.0 && set[2] == 0 && set[3] == 0 {
        len = len.max(2f64.powf(entropy).floor() as usize);
    }
    let mut odd = set;
    if let Some(s) = allow.iter().find_map(|p| allowed_bytes(p)) {
        for (o, s) in odd.iter_mut().zip(s) {
            *o &= !s;
        }
    }
    let mut seqs = required(&hir);
    seqs.sort_by_key(|s| std::cmp::Reverse(s.len()));
    seqs.dedup();
    seqs.retain(|s| s.len() >= 2);
    seqs.truncate(2);
    let seqs: Vec<String> = seqs.iter().map(|s| format!("&{s:?}")).collect();
    Some(format!(
        "Need {{ run: {set:?}, len: {len}, odd: {odd:?}, seqs: &[{}] }}",
        seqs.join(", ")
    ))
}

#[allow(clippy::expect_used)] // a broken vendored rule file is a build error
pub fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=rules/gitleaks.toml");
    let text = std::fs::read_to_string("rules/gitleaks.toml").expect("rules/gitleaks.toml");
    let doc: toml::Table = text.parse().expect("rules/gitleaks.toml is TOML");
    let mut out = String::from("// @generated by build.rs from rules/gitleaks.toml\n");
    let global = doc
        .get("allowlist")
        .and_then(toml::Value::as_table)
        .map(|t| strings(t.get("regexes")))
        .unwrap_or_default();
    writeln!(
        out,
        "/// The global allowlist's regexes (tested on the secret)."
    )
    .ok();
    writeln!(
        out,
        "pub(crate) static GLOBAL_ALLOW: &[&str] = &{global:?};"
    )
    .ok();
    let mut needs = String::from(
        "/// What a line must hold for each of [`GITLEAKS`] to redact on it: a run of at\n\
         /// least `len` bytes of `run` with one of `odd`, and each of `seqs` (build/gitleaks.rs\n\
         /// says why); `None`: no condition.\npub(crate) static NEEDS: &[Option<Need>] = &[\n",
    );
    writeln!(out, "/// gitleaks' rules that have a regex, in file order.").ok();
    writeln!(out, "pub(crate) static GITLEAKS: &[Rule] = &[").ok();
    for r in doc
        .get("rules")
        .and_then(toml::Value::as_array)
        .expect("[[rules]]")
    {
        let Some(r) = r.as_table() else { continue };
        let Some(regex) = r.get("regex").and_then(toml::Value::as_str) else {
            continue; // path-only rules (file names) are covered by is_secret_file
        };
        let id = r
            .get("id")
            .and_then(toml::Value::as_str)
            .unwrap_or("gitleaks");
        let keywords: Vec<String> = strings(r.get("keywords"))
            .into_iter()
            .map(|k| k.to_ascii_lowercase())
            .collect();
        let group = r
            .get("secretGroup")
            .and_then(toml::Value::as_integer)
            .unwrap_or(0);
        let entropy = r
            .get("entropy")
            .and_then(|e| e.as_float().or_else(|| e.as_integer().map(|i| i as f64)))
            .unwrap_or(0.0);
        let (allow, stopwords) = allow_lists(r);
        match need(regex, group, entropy, &allow) {
            Some(n) => writeln!(needs, "    Some({n}),"),
            None => writeln!(needs, "    None,"),
        }
        .ok();
        writeln!(
            out,
            "    Rule {{ id: {id:?}, regex: {regex:?}, keywords: &{keywords:?}, secret_group: {group}, entropy: {entropy:?}, allow: &{allow:?}, stopwords: &{stopwords:?}, check: None, end: None }},"
        )
        .ok();
    }
    out.push_str("];\n");
    out.push_str(&needs);
    out.push_str("];\n");
    let dest =
        PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("gitleaks_rules.rs");
    std::fs::write(dest, out).expect("write the rule table");
}
