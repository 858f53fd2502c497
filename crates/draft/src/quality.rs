//! The draft-quality gate: a model draft has to say something before it is accepted.
//! The convention's rules check the form; a small model can meet every one of them
//! with junk (`fix(breaking)!: {`, `build(breaking)!: stat lines only`,
//! `build(type)!: 1.3.0-beta2`, `build(default)!: BREAKING`). This gate looks at the
//! words: the summary, each bullet's what-and-why and a `BREAKING CHANGE` note.
//!
//! It is applied to model drafts only ([`check_draft`]), not by [`jitcommit_core::rules::check`]:
//! a person's message is theirs to word.

use std::collections::HashSet;

use crate::structure::{has_words, word_stem};
use crate::words::{
    FILLER_OPENINGS, FUNCTION_WORDS, SCAFFOLDING, SELF_REFERENCE, SUMMARY_VERBS, TYPE_NOT_VERB,
};
use jitcommit_core::config::DEFAULT_TYPES;
use jitcommit_core::message::{Pos, Spanned, parse};
use jitcommit_core::repo::StagedState;
use jitcommit_core::rules::Finding;
use jitcommit_core::rules::draft_quality::{DraftQuality, Junk, Part};

/// Whether the normalised `text` holds `phrase` as whole words (`summary of the
/// change` is not in `summary of the changelog`).
fn has_phrase(text: &str, phrase: &str) -> bool {
    text.match_indices(phrase).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + phrase.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// Whether `value` is a list of commit types (`feat, fix, perf`, `feat, diffs, test`):
/// a comma-separated list of at least two type words and at most one other word, or
/// three type words and nothing else. `fix the test docs` is a description.
fn is_type_list(value: &str) -> bool {
    let words: Vec<String> = value
        .split(|c: char| !c.is_alphabetic())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let types = words
        .iter()
        // The built-in types, and the plural the bench's drafts wrote.
        .filter(|w| DEFAULT_TYPES.contains(&w.as_str()) || *w == "tests")
        .count();
    let others = words.len() - types;
    (value.contains(',') && types >= 2 && others <= 1) || (types >= 3 && others == 0)
}

/// Whether `value` repeats a word the way a small model loops (`update crates crates`,
/// `refactor refactor refactores`, `crates, cratess, caches, cratess, …`): the same
/// word twice in a row, or one word that is not a function word three times or more
/// and a third of the words at least.
/// A word is compared without case, its plural endings and a final `e`
/// ([`word_stem`]).
fn repeats_a_word(value: &str) -> bool {
    let mut stems = Vec::new();
    looped(value, &mut stems);
    !stems.is_empty()
}

/// Adds the stems ([`word_stem`]) `value` loops on to `out`, each once, in order;
/// none when it does not loop ([`repeats_a_word`]).
fn looped(value: &str, out: &mut Vec<String>) {
    let words: Vec<(String, String)> = value
        .split(|c: char| !c.is_alphanumeric() && c != '_' && c != '\'')
        .filter(|w| !w.is_empty())
        .map(|w| (w.to_lowercase(), word_stem(w)))
        .collect();
    // Numbers are no words (`+1 −1 lines`): only a word with a letter can loop.
    let words: Vec<(String, String)> = words
        .into_iter()
        .filter(|(w, _)| w.chars().any(char::is_alphabetic))
        .collect();
    let content = |w: &str, stem: &str| stem.len() > 1 && !FUNCTION_WORDS.contains(&w);
    let mut add = |stem: &str| {
        if !out.iter().any(|s| s == stem) {
            out.push(stem.to_owned());
        }
    };
    // The same word twice (`no, no, no`), or two forms of one content word.
    for p in words.windows(2) {
        if p[0].0 == p[1].0
            || (p[0].1 == p[1].1 && content(&p[0].0, &p[0].1) && content(&p[1].0, &p[1].1))
        {
            add(&p[0].1);
        }
    }
    let mut counts: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for (w, stem) in &words {
        if content(w, stem) {
            *counts.entry(stem).or_default() += 1;
        }
    }
    // A long human description may name its subject thrice; a loop fills a third.
    for (stem, &n) in &counts {
        if n >= 3 && n * 3 >= words.len() {
            add(stem);
        }
    }
    // Or a phrase of two content words said three times (SmolLM2-135M on cocogitto's
    // 7015c51: `src's settings.rs and tests's cogs in src's settings.rs and tests's
    // cogs in tests's cogs in …`).
    let mut pairs: std::collections::BTreeMap<(&str, &str), usize> =
        std::collections::BTreeMap::new();
    for p in words.windows(2) {
        if content(&p[0].0, &p[0].1) && content(&p[1].0, &p[1].1) {
            *pairs.entry((&p[0].1, &p[1].1)).or_default() += 1;
        }
    }
    for ((first, _), &n) in &pairs {
        if n >= 3 {
            add(first);
        }
    }
}

/// The summary needs at least this many words of letters, or [`SHORT_SUMMARY_WORDS`]
/// where the gate allows a short summary ([`short_summary_ok`]).
pub const SUMMARY_WORDS: usize = 3;

/// The fewest words of letters a summary may have: two, as humans write them every
/// day (`fix typo`, `add greeting`, `bump deps`).
pub const SHORT_SUMMARY_WORDS: usize = 2;

/// How strict the gate is. [`Gate::Tight`] is for small models (below a billion
/// parameters, or of unknown size: docs/draft.md, "Guards sized to the model"), whose
/// failures it was written against; [`Gate::Ordinary`] for larger ones, which write
/// a short summary or a bullet of common words on purpose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gate {
    /// A two-word summary only as an imperative verb and a word that names something
    /// beyond the staged paths (`fix typo`); a bullet must name something beyond its
    /// path, its types and common words.
    Tight,
    /// Any two words of letters make a summary; a bullet needs words, not names.
    /// Every junk check (scaffolding, JSON, copies, loops, type lists, fillers) stays.
    Ordinary,
}

/// Whether a two-word `summary` passes under `gate`: any two words of letters under
/// [`Gate::Ordinary`]; under [`Gate::Tight`] an imperative of
/// [`SUMMARY_VERBS`] and a word that names something ([`Evidence::names_something`]:
/// not a path's word, a commit type, a verb or a function word). `fix typo` and
/// `add greeting` pass; `update src`, `fix tests`, `the parser` do not.
fn short_summary_ok(summary: &str, gate: Gate, ev: &Evidence<'_>) -> bool {
    let words: Vec<&str> = summary.split_whitespace().collect();
    if words.len() != SHORT_SUMMARY_WORDS || !has_words(summary, SHORT_SUMMARY_WORDS) {
        return false;
    }
    match gate {
        Gate::Ordinary => true,
        Gate::Tight => {
            SUMMARY_VERBS.contains(&words[0].to_lowercase().as_str())
                && ev.names_something(words[1])
        }
    }
}

/// Most diff lines remembered for the copy check.
const MAX_DIFF_LINES: usize = 50_000;

/// `1.3.0`, `v2.0`, `1.3.0-beta2`, `0.9.1+build.5`: a version string and nothing else.
fn is_version(s: &str) -> bool {
    let s = s.strip_prefix(['v', 'V']).unwrap_or(s);
    let (core, rest) = match s.find(['-', '+']) {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, ""),
    };
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() >= 2
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
        && rest
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+'))
}

/// What a draft must not copy: the staged paths and their directories and file
/// names, the diff's lines, and the prompt's fixed texts.
pub struct Evidence<'a> {
    names: HashSet<String>,
    /// The stems ([`word_stem`]) of the words of the staged paths (`src`, `cargo`,
    /// `toml`): a bullet of only these says no more than its path.
    path_words: HashSet<String>,
    lines: HashSet<String>,
    prompt: &'a [&'a str],
    /// The tool's own descriptions ([`Evidence::trusting`]), which pass as they are.
    tool: HashSet<String>,
    /// How strict the gate is ([`Evidence::gate`]): tight unless said otherwise.
    gate: Gate,
    /// The user's intent, lower-cased: names it holds are the user's, not made up
    /// ([`Evidence::unknown_names`]).
    intent: String,
}

impl<'a> Evidence<'a> {
    /// The evidence of `state`, with `prompt` the prompt's fixed texts (the system
    /// message, a repair request) whose words a draft must not echo.
    pub fn new(state: &StagedState, prompt: &'a [&'a str]) -> Evidence<'a> {
        let mut names = HashSet::new();
        let mut path_words = HashSet::new();
        let mut lines = HashSet::new();
        for f in &state.files {
            for p in std::iter::once(&f.change.path).chain(f.change.old_path.as_ref()) {
                let p = String::from_utf8_lossy(p).to_lowercase();
                // The words of the path, and its names as a summary writes them
                // (`cargo_provider` of `cargo_provider.py`).
                path_words.extend(
                    p.split(|c: char| !c.is_alphanumeric())
                        .chain(p.split(|c: char| !c.is_alphanumeric() && c != '_'))
                        .filter(|w| !w.is_empty())
                        .map(word_stem),
                );
                let mut d = p.as_str();
                if let Some((_, name)) = d.rsplit_once('/') {
                    names.insert(name.to_owned());
                }
                names.insert(d.to_owned());
                while let Some((parent, _)) = d.rsplit_once('/') {
                    names.insert(parent.to_owned());
                    d = parent;
                }
            }
            for h in &f.hunks {
                for l in h.body.lines() {
                    if lines.len() >= MAX_DIFF_LINES {
                        break;
                    }
                    let l = normal(uncommented(l.get(1..).unwrap_or("")));
                    if l.chars().count() >= 4 {
                        lines.insert(l);
                    }
                }
            }
        }
        Evidence {
            names,
            path_words,
            lines,
            prompt,
            tool: HashSet::new(),
            gate: Gate::Tight,
            intent: String::new(),
        }
    }

    /// The same evidence, with the user's `intent` as a source of names too.
    pub fn intent(mut self, intent: Option<&str>) -> Evidence<'a> {
        self.intent = intent.unwrap_or_default().to_lowercase();
        self
    }

    /// The names in `value` that neither the change (its paths and diff lines) nor
    /// the intent holds: a word written as code (`parse_args`, `Config.load`,
    /// `setup.py`, `serde::Value`, `camelCase`, anything in backticks) or a version
    /// (`2.0.1`). A bullet that names such a thing says what the change does not show
    /// (issue 45: `add a new version of the git cleans`), and takes the tool's words.
    pub fn unknown_names(&self, value: &str) -> Vec<String> {
        let mut out = Vec::new();
        for raw in value.split_whitespace() {
            let quoted = raw.contains('`');
            let w = raw.trim_matches(|c: char| !c.is_alphanumeric() && c != '_');
            if w.is_empty() || !(quoted || is_code_name(w)) {
                continue;
            }
            let low = w.to_lowercase();
            let shown = self.names.iter().any(|n| n.contains(&low))
                || self.intent.contains(&low)
                || self.lines.iter().any(|l| l.contains(&low));
            if !shown && !out.contains(&w.to_owned()) {
                out.push(w.to_owned());
            }
        }
        out
    }

    /// The same evidence, judged by `gate` (the guards sized to the model).
    pub fn gate(mut self, gate: Gate) -> Evidence<'a> {
        self.gate = gate;
        self
    }

    /// The same evidence, with `texts` (the tool's own bullet descriptions and summary,
    /// which the draft puts where the model's words fail or a small model's stood)
    /// passing the checks as they are: the gate is for the model's words.
    pub fn trusting(mut self, texts: impl IntoIterator<Item = String>) -> Evidence<'a> {
        self.tool.extend(texts);
        self
    }

    /// Whether `value` names something beyond its path: a word of letters that is
    /// not a word of the staged paths, a commit type, a summary verb or a function
    /// word (`src, tests, cogs`, `feat, update, add` and `up to new, no more than
    /// new` name nothing; `fix the parser's retry` does).
    pub fn names_something(&self, value: &str) -> bool {
        value
            .split(|c: char| !c.is_alphanumeric() && c != '_')
            .filter(|w| w.chars().any(char::is_alphabetic))
            .any(|w| {
                let low = w.to_lowercase();
                let stem = word_stem(w);
                !(FUNCTION_WORDS.contains(&low.as_str())
                    || DEFAULT_TYPES.iter().any(|t| word_stem(t) == stem)
                    || SUMMARY_VERBS.iter().any(|v| word_stem(v) == stem)
                    || self.path_words.contains(&stem))
            })
    }
}

/// Whether `w` is written as code: with `_` or `::` inside, a `.` between two parts of
/// which the last has two characters or more (`setup.py`, `Config.load`; not `e.g`), a
/// version (`2.0.1`), a path (`src/lib.rs`, `a/b/c`; not the prose of `and/or`, `read/write` or
/// `CI/CD`), or camel case that starts small (`parseArgs`; not a name such as `GitHub`,
/// `JavaScript` or `macOS`, which a capable model writes in plain English).
fn is_code_name(w: &str) -> bool {
    let parts = |sep: char| {
        let p: Vec<&str> = w.split(sep).collect();
        (p.len() > 1 && p.iter().all(|p| !p.is_empty())).then_some(p)
    };
    let dotted = parts('.').is_some_and(|p| {
        p.last().is_some_and(|l| l.chars().count() >= 2)
            // A version (`2.0.1`, `v1.10`), which the doc comment of unknown_names names.
            || p.iter().enumerate().all(|(i, part)| {
                let part = if i == 0 { part.trim_start_matches('v') } else { part };
                !part.is_empty() && part.chars().all(|c| c.is_ascii_digit())
            })
    });
    let path = parts('/').is_some_and(|p| p.len() > 2 || p.last().is_some_and(|l| l.contains('.')));
    let c: Vec<char> = w.chars().collect();
    let camel = c.first().is_some_and(|f| f.is_lowercase())
        && c.windows(3)
            .any(|t| t[0].is_lowercase() && t[1].is_uppercase() && t[2].is_lowercase());
    w.contains('_') || w.contains("::") || dotted || path || camel
}

/// A line without a comment marker around it (`//`, `#`, `--`, `/*`, `*/`, `*`).
fn uncommented(l: &str) -> &str {
    let l = l.trim();
    let l = ["//", "#", "--", "/*", "*", ";"]
        .iter()
        .find_map(|m| l.strip_prefix(m))
        .unwrap_or(l);
    l.strip_suffix("*/").unwrap_or(l).trim()
}

/// Lower case, runs of whitespace as one space, trimmed.
fn normal(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// The gate's findings on a rendered model draft (none: it passes). Looks at the
/// summary, each bullet's what-and-why and the `BREAKING CHANGE` trailer's value;
/// prose (the user's own words) is not the model's and is left alone.
pub fn check_draft(text: &str, evidence: &Evidence<'_>) -> Vec<Finding> {
    let parsed = parse(text);
    let mut out = Vec::new();
    match &parsed.subject.summary {
        Some(s) if evidence.tool.contains(s.value.trim()) => {}
        Some(s) => {
            if !has_words(&s.value, SUMMARY_WORDS)
                && !short_summary_ok(&s.value, evidence.gate, evidence)
            {
                let tight = evidence.gate == Gate::Tight;
                let min = if tight {
                    SUMMARY_WORDS
                } else {
                    SHORT_SUMMARY_WORDS
                };
                let summary = s.value.clone();
                out.push(Finding::new(
                    s.pos,
                    DraftQuality::FewWords {
                        summary,
                        min,
                        tight,
                    },
                ));
            }
            junk(s, Part::Summary, evidence, &mut out);
            let n = normal(&s.value);
            let first = n.split(|c: char| !c.is_alphanumeric()).next().unwrap_or("");
            if TYPE_NOT_VERB.contains(&first) {
                let (summary, kind) = (s.value.clone(), first.to_owned());
                out.push(Finding::new(
                    s.pos,
                    DraftQuality::OpensWithType { summary, kind },
                ));
            }
            if let Some(o) = FILLER_OPENINGS.iter().find(|o| n.starts_with(*o)) {
                let (summary, filler) = (s.value.clone(), o.trim_end().to_owned());
                out.push(Finding::new(
                    s.pos,
                    DraftQuality::OpensWithFiller { summary, filler },
                ));
            }
        }
        None => out.push(Finding::new(Pos::new(1, 1), DraftQuality::NoSummary)),
    }
    for b in parsed.bullets() {
        let Some(w) = &b.what_why else { continue };
        check_bullet(w, evidence, &mut out);
    }
    for t in &parsed.trailers {
        if t.token.value.eq_ignore_ascii_case("BREAKING CHANGE")
            || t.token.value.eq_ignore_ascii_case("BREAKING-CHANGE")
        {
            junk(&t.value, Part::BreakingNote, evidence, &mut out);
        }
    }
    out
}

/// A bullet's what-and-why: words, and no junk ([`junk`]).
fn check_bullet(w: &Spanned<String>, evidence: &Evidence<'_>, out: &mut Vec<Finding>) {
    if evidence.tool.contains(w.value.trim()) {
        return;
    }
    let before = out.len();
    let description = || w.value.clone();
    if !has_words(&w.value, 1) {
        let description = description();
        out.push(Finding::new(w.pos, DraftQuality::NoWords { description }));
    }
    junk(w, Part::Bullet, evidence, out);
    if out.len() == before && evidence.gate == Gate::Tight && !evidence.names_something(&w.value) {
        let description = description();
        out.push(Finding::new(
            w.pos,
            DraftQuality::NamesNothing { description },
        ));
    }
}

/// What the gate finds wrong with one bullet's what-and-why taken alone (`None`: it
/// passes), as [`check_draft`] would say it: the draft can then put the tool's own
/// words in that bullet instead of asking the model again.
pub fn bullet_problem(what_why: &str, evidence: &Evidence<'_>) -> Option<String> {
    let mut out = Vec::new();
    check_bullet(
        &Spanned {
            value: what_why.to_owned(),
            pos: Pos::new(1, 1),
        },
        evidence,
        &mut out,
    );
    out.into_iter().next().map(|f| f.message())
}

/// Scaffolding, `BREAKING` as content, a version string, a path, a diff line or
/// the prompt's own text.
fn junk(at: &Spanned<String>, part: Part, ev: &Evidence<'_>, out: &mut Vec<Finding>) {
    let value = at.value.trim();
    let n = normal(value);
    let junk = if let Some(s) = SCAFFOLDING.iter().find(|s| n.contains(*s)) {
        Some(Junk::Scaffolding((*s).to_owned()))
    } else if let Some(s) = SELF_REFERENCE.iter().find(|s| has_phrase(&n, s)) {
        Some(Junk::SelfReference((*s).to_owned()))
    } else if value.starts_with(['{', '[', '"']) || value.contains("\":") {
        Some(Junk::Json)
    } else if value
        .split(|c: char| !c.is_alphanumeric() && c != '_')
        .any(|w| w == "BREAKING")
    {
        Some(Junk::Breaking)
    } else if is_version(value) {
        Some(Junk::Version)
    } else if is_type_list(value) {
        Some(Junk::TypeList)
    } else if repeats_a_word(value) {
        Some(Junk::Repeats)
    } else if ev.names.contains(&n) {
        Some(Junk::Path)
    } else if ev.lines.contains(&n) {
        Some(Junk::DiffLine)
    } else if n.chars().count() >= 12
        && ev
            .prompt
            .iter()
            .any(|p| normal(p).contains(&n) || prompt_lines(p).any(|l| n.contains(&l)))
    {
        Some(Junk::Prompt)
    } else {
        None
    };
    if let Some(junk) = junk {
        let text = at.value.clone();
        out.push(Finding::new(
            at.pos,
            DraftQuality::Junk { part, text, junk },
        ));
    }
}

/// The longer lines of a prompt text, normalised: a draft holding one whole copied it.
fn prompt_lines(p: &str) -> impl Iterator<Item = String> + '_ {
    p.lines()
        .map(|l| normal(l.trim_start_matches(['-', '#', ' '])))
        .filter(|l| l.chars().count() >= 16)
}

#[cfg(test)]
mod tests {
    use super::*;
    use jitcommit_core::repo::{Change, ChangeKind, FileDiff, Hunk};

    fn state() -> StagedState {
        StagedState {
            branch: Some("main".into()),
            initial: false,
            files: vec![FileDiff {
                change: Change {
                    kind: ChangeKind::Modified,
                    path: "crates/core/Cargo.toml".into(),
                    old_path: None,
                    old_mode: None,
                    new_mode: None,
                },
                header: String::new(),
                hunks: vec![Hunk {
                    header: "@@ -1,3 +1,3 @@ [package]".into(),
                    body: "-version = \"1.2.0\"\n+version = \"1.3.0-beta2\"\n name = \"core\"\n+# raise for the beta testers\n"
                        .into(),
                }],
                added: 1,
                removed: 1,
                binary: false,
                submodule: false,
                linguist: None,
                read: true,
            }],
        }
    }

    const REPAIR: &str = "# Rejected answer\nA previous answer was rejected by the checks below.\n";

    fn rules_hit(text: &str) -> Vec<Finding> {
        let s = state();
        let prompt = [crate::prompt::CORE_INSTRUCTIONS, REPAIR];
        check_draft(text, &Evidence::new(&s, &prompt))
    }

    #[test]
    fn junk_drafts_from_the_benchmark_fail() {
        let bullet = "\n\n- Update: crates/core/Cargo.toml — raise the version for the beta\n";
        for subject in [
            "fix(breaking)!: {",
            "build(breaking)!: stat lines only",
            "build(type)!: 1.3.0-beta2",
            "build(default)!: BREAKING",
            "feat!: Fix these problems in your answer:",
            "build: crates/core/Cargo.toml",
            "build: version = \"1.3.0-beta2\"",
            "build: BREAKING change to the version",
            "feat: describe what the staged changes do and why",
            "build: raise for the beta testers",
            "refactor(crates): feat, diffs trimmed: 48",
            "docs: trimmed: 3 of 9 hunks omitted in the docs",
            "chore: shown as stat lines only for the docs",
            "refactor(crates): feat, fix, perf",
            // SmolLM2-135M under the word patterns (docs/quality.md): words, no content.
            "fix: this is the summary of the evidence",
            "refactor(crates): this is a bug",
            "refactor!: this has been changed and we need to make sure that",
            "refactor(crates): the summary of this change was that it broke users",
            "refactor(bin): this is just another example of how you can break your",
            "fix: there is a bug in the code",
            "fix: feat 1024853967-babyscraping-git-hq build-branch refcount",
            "chore(crates): feat-test-test-check-cli -p jitcommit --test-run-time",
            "feat: perf of the reader is better",
        ] {
            let f = rules_hit(&format!("{subject}{bullet}"));
            assert!(
                f.iter().any(|f| f.rule() == "draft-quality" && f.line == 1),
                "{subject:?} passed: {f:?}"
            );
        }
    }

    /// The stems `texts` loop on, each once, in order.
    fn looped_words<'a>(texts: impl IntoIterator<Item = &'a str>) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for text in texts {
            looped(text, &mut out);
        }
        out
    }

    #[test]
    fn a_loop_names_the_words_it_loops_on() {
        assert_eq!(looped_words(["no, no, no"]), ["no"]);
        assert_eq!(
            looped_words(["update crates crates", "crates, cratess, caches, cratess"]),
            ["crat"]
        );
        assert_eq!(
            looped_words([
                "CACHE_BYTES, CACHE_BYTES and more",
                "order, type, type, order"
            ]),
            ["cache_byt", "typ"]
        );
        assert_eq!(
            looped_words([
                "src's settings.rs and tests's cogs in src's settings.rs and tests's cogs in tests's cogs in tests's cogs"
            ]),
            ["test"]
        );
        // A word thrice in a long text is no loop; words that do not loop are not named.
        assert!(
            looped_words([
                "the cache keeps the cache small so that the cache is read once per commit",
                "greet new users with a welcome",
            ])
            .is_empty()
        );
    }

    #[test]
    fn junk_bullets_fail() {
        for what in [
            "{",
            "stat lines only",
            "1.3.0-beta2",
            "what_why",
            "name = \"core\"",
            "feat, fix, perf",
            "feat, diffs, test",
            // What SmolLM2-135M wrote under the word bank: loops over one word.
            "crates, cratess, caches, cratess, cratess, cratess",
            "update crates crates",
            "refactor the refactor of refactores",
            "no, no, no",
            // … and lists of the path's words, types and verbs (cocogitto, run T).
            "crates, core, cargo",
            "feat, update, add",
            "up to no more than new",
            "fix tests",
        ] {
            let f = rules_hit(&format!(
                "build: raise the core version\n\n- Update: crates/core/Cargo.toml — {what}\n"
            ));
            assert!(
                f.iter().any(|f| f.rule() == "draft-quality" && f.line == 3),
                "{what:?} passed: {f:?}"
            );
        }
        let f = rules_hit(
            "build!: raise the core version\n\n- Update: crates/core/Cargo.toml — new beta\n\nBREAKING CHANGE: stat lines only\n",
        );
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].line, 5);
    }

    #[test]
    fn a_bullet_is_judged_alone_and_the_tool_own_words_pass() {
        let s = state();
        let prompt = [crate::prompt::CORE_INSTRUCTIONS];
        let ev = Evidence::new(&s, &prompt);
        let problem = |w: &str, ev: &Evidence<'_>| bullet_problem(w, ev).unwrap_or_default();
        assert!(problem("no, no, no", &ev).contains("repeats a word"));
        assert!(problem("", &ev).contains("has no words"));
        assert!(problem("in core", &ev).contains("names only its path"));
        assert_eq!(bullet_problem("raise the version for the beta", &ev), None);
        // Numbers are no words: the offline draft's line counts do not loop.
        assert_eq!(bullet_problem("+1 −1 lines", &ev), None);
        assert!(!repeats_a_word("1 1 11 lines"));
        // The tool's description of the path passes as it is; nothing else does.
        let ev = ev.trusting(["in core".to_owned()]);
        assert_eq!(bullet_problem("in core", &ev), None);
        assert!(problem("in the core", &ev).contains("names only its path"));
    }

    fn gated(text: &str, gate: Gate) -> Vec<Finding> {
        let s = state();
        let prompt = [crate::prompt::CORE_INSTRUCTIONS, REPAIR];
        check_draft(text, &Evidence::new(&s, &prompt).gate(gate))
    }

    #[test]
    fn names_written_as_code_and_the_plain_english_a_capable_model_writes() {
        for w in [
            "parse_args",
            "Config.load",
            "setup.py",
            "serde::Value",
            "parseArgs",
            "src/lib.rs",
            "a/b/c",
            "2.0.1",
        ] {
            assert!(is_code_name(w), "{w} is written as code");
        }
        for w in [
            "GitHub",
            "JavaScript",
            "TypeScript",
            "macOS",
            "iOS",
            "and/or",
            "read/write",
            "CI/CD",
            "e.g",
            "README",
            "v1",
            "plain",
        ] {
            assert!(!is_code_name(w), "{w} is plain English");
        }
    }

    #[test]
    fn a_file_name_as_a_summary_writes_it_names_nothing() {
        let mut st = state();
        st.files[0].change.path = "commitizen/providers/cargo_provider.py".into();
        let ev = Evidence::new(&st, &[]);
        assert!(!ev.names_something("update commitizen providers cargo_provider.py"));
        assert!(!ev.names_something("update commitizen/providers/cargo_provider.py"));
        assert!(ev.names_something("reduce the indentation of cargo_provider"));
        assert!(ev.names_something("add CargoProvider.write_version"));
    }

    #[test]
    fn two_word_human_summaries_pass_and_two_words_of_nothing_do_not() {
        let bullet = "\n\n- Update: crates/core/Cargo.toml — raise the version for the beta\n";
        for gate in [Gate::Tight, Gate::Ordinary] {
            for subject in [
                "fix: fix typo",
                "feat: add greeting",
                "build: bump serde",
                "fix: handle timeouts",
            ] {
                let f = gated(&format!("{subject}{bullet}"), gate);
                assert_eq!(f, Vec::new(), "{subject} under {gate:?}");
            }
            // Junk stays junk, however short.
            for subject in [
                "build: stat lines",
                "build: BREAKING change",
                "feat: feat greeting",
                "build: 1.3.0-beta2",
                "fix: typo",
                "fix: fix src/lib.rs",
                "fix: {\"type\"",
                "refactor: crates, crates",
            ] {
                let f = gated(&format!("{subject}{bullet}"), gate);
                assert!(
                    f.iter().any(|f| f.rule() == "draft-quality" && f.line == 1),
                    "{subject:?} passed under {gate:?}: {f:?}"
                );
            }
        }
        // A small model's two words must be a verb and something beyond the paths.
        for subject in [
            "build: update cargo",
            "fix: fix tests",
            "docs: the parser",
            "fix: greeting added",
            "build: update the",
        ] {
            let f = gated(&format!("{subject}{bullet}"), Gate::Tight);
            assert!(
                f.iter().any(|f| f.rule() == "draft-quality" && f.line == 1),
                "{subject:?} passed: {f:?}"
            );
            assert_eq!(
                gated(&format!("{subject}{bullet}"), Gate::Ordinary),
                Vec::new(),
                "{subject}"
            );
        }
    }

    #[test]
    fn the_ordinary_gate_takes_common_words_and_still_refuses_junk() {
        for what in ["update the tests", "fix tests", "crates, core, cargo"] {
            let text = format!(
                "build: raise the core version\n\n- Update: crates/core/Cargo.toml — {what}\n"
            );
            assert!(!gated(&text, Gate::Tight).is_empty(), "{what}");
            assert_eq!(gated(&text, Gate::Ordinary), Vec::new(), "{what}");
        }
        for what in [
            "{",
            "stat lines only",
            "1.3.0-beta2",
            "no, no, no",
            "feat, fix, perf",
        ] {
            let text = format!(
                "build: raise the core version\n\n- Update: crates/core/Cargo.toml — {what}\n"
            );
            assert!(!gated(&text, Gate::Ordinary).is_empty(), "{what}");
        }
    }

    #[test]
    fn real_drafts_pass() {
        for text in [
            "build(core): raise the version to the first beta\n\n- Update: crates/core/Cargo.toml — 1.3.0-beta2, so testers can pin it\n",
            "fix: handle an empty staged set\n\n- Fix: crates/core/Cargo.toml — name the core crate's feature\n",
            "feat!: drop the --old flag\n\n- Update: crates/core/Cargo.toml — the flag is gone\n\nBREAKING CHANGE: scripts that pass --old fail\n",
            "docs: explain parse_answer's leniency\n",
            "docs: fix the test docs\n\n- Update: crates/core/Cargo.toml — fix the tests' feature flags\n",
            // Human subjects of this repository that are noun phrases, not imperatives.
            "docs: the threat model, the rules' source and intent mode's limits\n",
            "feat: a summary line for each range check\n",
            "fix: thisis ok, this isn't an opening\n",
            "test: test the reader on a packed history\n",
            "build: build the fuzz crate outside the workspace\n",
            "refactor: move the parser to the core of the crate, as the docs say\n",
            "test: a 600-file directory loose, packed and as a delta, with bullet sets\n",
            "feat: features behind a flag for the reader\n",
            "docs: a summary of the changelog's sections\n",
        ] {
            assert_eq!(rules_hit(text), Vec::new(), "{text}");
        }
    }
}
