//! What a line must hold before a redaction rule's pattern can yield a secret on it,
//! derived from the pattern (parsed as `redact` compiles it: bytes, no Unicode). The
//! build script derives it for gitleaks' rules (build/gitleaks.rs), `redact` for its
//! own rules, on first use; `redact`'s tests check over the rules' own matches, near
//! misses and random text that a rule passed over redacts nothing.

use regex_syntax::hir::{Class, Hir, HirKind};

/// How many of the runs every match holds [`need`] keeps, longest first.
const SEQS: usize = 4;

/// What [`need`] derives (`redact`'s `Need` says how a line is checked).
pub struct Derived {
    pub run: Set,
    pub len: usize,
    pub odd: Set,
    pub seqs: Vec<Vec<Set>>,
}

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
pub type Set = [u64; 4];

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
/// repetition of at least one holds, what every branch of an alternation holds, and
/// one byte of the union of what each branch holds.
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
            let branches: Vec<Vec<Vec<Set>>> = v.iter().map(required).collect();
            let Some((first, rest)) = branches.split_first() else {
                return Vec::new();
            };
            let mut out: Vec<Vec<Set>> = first
                .iter()
                .filter(|s| rest.iter().all(|r| r.contains(s)))
                .cloned()
                .collect();
            // Every branch holds a byte of its narrowest required set: a match holds
            // one byte of their union.
            let narrowest = |b: &Vec<Vec<Set>>| {
                b.iter()
                    .flatten()
                    .min_by_key(|s| s.iter().map(|w| w.count_ones()).sum::<u32>())
                    .copied()
            };
            if let Some(sets) = branches.iter().map(narrowest).collect::<Option<Vec<Set>>>() {
                let mut union = [0u64; 4];
                for set in sets {
                    for (u, w) in union.iter_mut().zip(set) {
                        *u |= w;
                    }
                }
                out.push(vec![union]);
            }
            out
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
/// - each of `seqs` ([`required`], the [`SEQS`] longest): bytes every match holds.
///
/// `None` (no condition) for a pattern the regex syntax does not parse.
pub fn need(
    regex: &str,
    secret_group: i64,
    entropy: f64,
    allow: &[impl AsRef<str>],
) -> Option<Derived> {
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
    if let Some(s) = allow.iter().find_map(|p| allowed_bytes(p.as_ref())) {
        for (o, s) in odd.iter_mut().zip(s) {
            *o &= !s;
        }
    }
    let mut seqs = required(&hir);
    seqs.sort_by_key(|s| std::cmp::Reverse(s.len()));
    seqs.dedup();
    seqs.truncate(SEQS);
    Some(Derived {
        run: set,
        len,
        odd,
        seqs,
    })
}
