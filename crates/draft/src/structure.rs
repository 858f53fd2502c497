//! What the tool decides about a model draft before the model writes a word, and
//! how the model's words are put into it (docs/design.md §5, issue 14).
//!
//! The repository determines the bullets (verb and path: exactly the offline draft's,
//! [`crate::offline::draft`]), the types and scopes a draft may choose from, and how
//! long its summary may be. The model only writes words: one `what_why` per given
//! bullet, the summary, and its choices of type, scope and `breaking_change`.
//! [`Structure::assemble`] builds the message from them, fixing what the tool can
//! fix itself (a summary too long, ending in a period, repeating the type, or with
//! space around it; a scope not on the list; an empty breaking note, or one where no
//! public item was removed or changed) so that a repair request is only sent for what
//! it cannot.

use crate::answer::DraftJson;
use crate::classify::Classifier;
use crate::redact;
use crate::words::{CODE_KEYWORDS, FUNCTION_WORDS, POINTING_WORDS, SUMMARY_VERBS};
use jitcommit_core::config::{Convention, DEFAULT_TYPES};
use jitcommit_core::message::{self, Bullet, Message, Subject, Target, Trailer};
use jitcommit_core::repo::StagedState;

/// Most scopes of the history of the staged paths offered beside the derived ones.
const HISTORY_SCOPES: usize = 3;

/// Most scope names derived from the staged paths.
pub const MAX_DERIVED_SCOPES: usize = 20;
/// Most directories whose manifest is read for a package name.
const MAX_MANIFEST_DIRS: usize = 64;
/// The type length assumed for the summary's room when any type is allowed.
const ANY_TYPE_CHARS: usize = 10;
/// The summary's room is never below this, however long the enums are.
const MIN_SUMMARY_CHARS: usize = 20;

/// The word shapes of a draft for a grammar-constrained server (llama.cpp's converter
/// takes `pattern` into the grammar, see the model crate's wire), built from the
/// change's own words `bank` ([`change_words`]). A word is a bank word, one of
/// [`FUNCTION_WORDS`] or of [`SUMMARY_VERBS`], each maybe with its plural or
/// possessive ending ([`inflected`]), and maybe a comma between two of them.
///
/// What a small model otherwise writes (`{"type"`, a bare path, a version string or a
/// timestamp, a comment such as `this is …`, the type again, words of no change such
/// as `babyscraping`, the system message's example) cannot be generated; the
/// draft-quality gate still judges the words. Not a rule: the validator never sees
/// these, and other servers are not sent them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WordPatterns {
    /// The summary: one of [`SUMMARY_VERBS`] (`fix` and `test` too), then three to
    /// eleven words (so at least three of letters, which the gate asks for, even
    /// beside a path).
    pub summary: String,
    /// A bullet's `what_why` and a breaking-change note: three to twenty-five words.
    pub what: String,
}

impl WordPatterns {
    /// The patterns for `bank`, without the Conventional Commits types
    /// ([`DEFAULT_TYPES`]) and `types` (the types the draft chooses from) as words
    /// after the summary's opening verb, unless the change holds them itself (a
    /// `docs/` directory): a small model shown the type list repeats it (SmolLM2-135M
    /// wrote the bullets `test, refactor, test` and `fix, refactor, test, build, ci,
    /// style`). Allowing them where none follows another instead kept the model's
    /// drafts as often and agreed with the human's type less often (docs/quality.md).
    pub fn new(bank: &[String], types: &[String]) -> WordPatterns {
        let mut seen = foldhash::HashSet::default();
        let banked: Vec<&str> = bank
            .iter()
            .map(String::as_str)
            .filter(|w| seen.insert(*w))
            .collect();
        seen.extend(DEFAULT_TYPES.iter().copied());
        seen.extend(types.iter().map(String::as_str));
        let words: Vec<String> = banked
            .into_iter()
            .chain(
                FUNCTION_WORDS
                    .iter()
                    .chain(SUMMARY_VERBS)
                    .copied()
                    .filter(|w| seen.insert(*w)),
            )
            .map(regex_literal)
            .collect();
        let word = inflected(&words);
        WordPatterns {
            summary: format!("^({}) {word}(,? {word}){{2,10}}$", SUMMARY_VERBS.join("|")),
            what: format!("^{word}(,? {word}){{2,24}}$"),
        }
    }
}

/// A word as the loop check compares it: lower case, without a possessive, a plural
/// `s` or a final `e` (`Crates`, `crate's` and `crate` are one word).
pub fn word_stem(w: &str) -> String {
    let w = w.to_lowercase();
    let stem = w.trim_end_matches("'s").trim_end_matches('s');
    stem.strip_suffix('e').unwrap_or(stem).to_owned()
}

/// One of `words` (each a pattern literal), maybe with its plural (`-es` after `s`,
/// `x`, `z`, `ch` or `sh`, else `-s`) or possessive ending: `fixes`, `crates`,
/// `parser's`, never `cratess` or `refactores` (which SmolLM2-135M wrote when any word
/// took any ending).
fn inflected(words: &[String]) -> String {
    let (es, s): (Vec<&str>, Vec<&str>) = words
        .iter()
        .map(String::as_str)
        .partition(|w| w.ends_with(['s', 'x', 'z']) || w.ends_with("ch") || w.ends_with("sh"));
    match (es.is_empty(), s.is_empty()) {
        (true, _) => format!("({})(s|'s)?", s.join("|")),
        (_, true) => format!("({})(es|'s)?", es.join("|")),
        _ => format!("(({})(s|'s)?|({})(es|'s)?)", s.join("|"), es.join("|")),
    }
}

/// Most bullets whose words take [`WordPatterns::what`]; the bullets of a larger
/// change get [`WHAT_WHY_PATTERN`], so a grammar does not hold the bank once per
/// bullet (about 10 kB each).
pub const MAX_BANK_BULLETS: usize = 8;

/// `w` as a pattern that matches it and nothing else (a bank word holds letters of
/// any script, digits, `_`, `-` and `.`): the dot as the class `[.]`, since
/// llama-cpp-python's converter copies a `\.` into the grammar, whose parser refuses
/// it (measured: `unknown escape at \.`, and the server's worker died). A letter
/// outside ASCII stays itself: both of llama.cpp's converters copy a literal
/// character into a quoted grammar string, which the grammar's parser reads as UTF-8.
fn regex_literal(w: &str) -> String {
    w.replace('.', "[.]")
}

/// Most words of the change a summary's grammar takes ([`change_words`]), the most
/// frequent first.
pub const MAX_BANK_WORDS: usize = 300;

/// Most bytes of changed lines read for [`change_words`]: more than a default prompt
/// shows (a 4,096-token prompt holds about 14 KB of evidence), and a large change's
/// redaction and word count stay a small part of its draft (a 500-file
/// `--print-context` spent 147 M instructions on 512 KB, docs/draft.md).
const MAX_BANK_BYTES: usize = 32 * 1024;

/// The change's own words, the most frequent first, at most [`MAX_BANK_WORDS`]: the
/// names of the staged paths (directories, file names and their stems, old paths of
/// renames too), the scope choices `scopes`, and the identifiers of the added and
/// removed lines with their snake- and camel-case parts (`parse_answer`, `parse`,
/// `answer`; `LazyLock`, `lazy`, `lock`), each at least two letters long. Paths and
/// lines are redacted first, and only the hunks of files `shown` lets a prompt show
/// are read, so no word a prompt would not show is taken. Function
/// words, [`SUMMARY_VERBS`], [`CODE_KEYWORDS`] and [`POINTING_WORDS`] are left out
/// (the first two are in every summary's grammar anyway).
pub fn change_words(state: &StagedState, scopes: &[String], shown: &Classifier) -> Vec<String> {
    // word → (weight, first seen), so the order is deterministic.
    let mut seen: foldhash::HashMap<String, (usize, usize)> = foldhash::HashMap::default();
    // Words judged not to be bank words: most identifiers repeat, so each is judged once.
    let mut refused: foldhash::HashSet<String> = foldhash::HashSet::default();
    let left_out: foldhash::HashSet<&str> = FUNCTION_WORDS
        .iter()
        .chain(SUMMARY_VERBS)
        .chain(CODE_KEYWORDS)
        .chain(POINTING_WORDS)
        .copied()
        .collect();
    let mut add = |w: &str, weight: usize| {
        let w = w.trim_matches(|c: char| matches!(c, '.' | '-' | '_'));
        if let Some(entry) = seen.get_mut(w) {
            entry.0 += weight;
            return;
        }
        if refused.contains(w) {
            return;
        }
        // Letters of any script: a change's identifiers, paths and comments may be
        // German or Japanese, and its summary may name them.
        let letters = w.chars().filter(|c| c.is_alphabetic()).count();
        let ok = letters >= 2
            && w.chars().count() <= 30
            && w.starts_with(char::is_alphabetic)
            && w.chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '.' | '-' | '_'));
        if !ok || left_out.contains(w.to_lowercase().as_str()) {
            refused.insert(w.to_owned());
            return;
        }
        let next = seen.len();
        seen.insert(w.to_owned(), (weight, next));
    };
    // A path's names count as much as many lines: the summary most often names them.
    const PATH_WEIGHT: usize = 1000;
    for s in scopes {
        add(s, PATH_WEIGHT);
    }
    for f in &state.files {
        let paths = std::iter::once(&f.change.path).chain(f.change.old_path.as_ref());
        for p in paths {
            let p = redact::gate(&String::from_utf8_lossy(p));
            for seg in p.split('/') {
                add(seg, PATH_WEIGHT);
                if let Some((stem, _)) = seg.rsplit_once('.') {
                    add(stem, PATH_WEIGHT);
                }
            }
        }
    }
    let mut bytes = 0;
    // Only the hunks a prompt may show: never those of a key or environment file, an
    // excluded, generated, vendored or lock file.
    let shown_files = state
        .files
        .iter()
        .filter(|f| !shown.classify(f).stat_only());
    'files: for f in shown_files {
        for (len, gate) in redact::hunk_bodies(f) {
            bytes += len;
            if bytes > MAX_BANK_BYTES {
                break 'files;
            }
            let body = gate();
            for line in body.lines() {
                let Some(line) = line.strip_prefix(['+', '-']) else {
                    continue;
                };
                for ident in line
                    .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .filter(|t| !t.is_empty())
                {
                    add(ident, 1);
                    let parts = ident_parts(ident);
                    if parts.len() > 1 {
                        for part in parts {
                            add(&part.to_lowercase(), 1);
                        }
                    }
                }
            }
        }
    }
    let mut words: Vec<(String, (usize, usize))> = seen.into_iter().collect();
    words.sort_by(|a, b| b.1.0.cmp(&a.1.0).then(a.1.1.cmp(&b.1.1)));
    words
        .into_iter()
        .take(MAX_BANK_WORDS)
        .map(|(w, _)| w)
        .collect()
}

/// The snake- and camel-case parts of an identifier: `parse_answer` → `parse`,
/// `answer`; `LazyLock` → `Lazy`, `Lock`; `HTTPClient` → `HTTPClient` (no lower-case
/// letter before the upper-case one).
fn ident_parts(ident: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    for snake in ident.split('_').filter(|s| !s.is_empty()) {
        let mut start = 0;
        let mut prev_lower = false;
        for (i, c) in snake.char_indices() {
            if c.is_uppercase() && prev_lower {
                parts.push(&snake[start..i]);
                start = i;
            }
            prev_lower = c.is_lowercase() || c.is_ascii_digit();
        }
        parts.push(&snake[start..]);
    }
    parts
}

/// A bullet's `what_why` for a grammar-constrained server:
/// a word of letters first, then two to twenty-four more words (identifiers, paths and
/// `#;:` allowed after the first), so a description is never a bare path, a number or
/// JSON.
pub const WHAT_WHY_PATTERN: &str = concat!(
    "^[a-zA-Z\u{c0}-\u{ffff}][A-Za-z0-9'\u{c0}-\u{ffff}-]{0,23}",
    "( [A-Za-z0-9'.,/()_#;:\u{c0}-\u{ffff}-]{1,40}){2,24}$"
);

/// One bullet of the structure: the tool's verb and target, and the key the model
/// sees it by (the bullet's path as it leaves the machine: redacted).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FixedBullet {
    /// The verb, from the status (or the change).
    pub verb: String,
    /// The path or rename, as the message shows it.
    pub target: Target,
    /// The schema's property name for this bullet's `what_why`.
    pub key: String,
    /// The offline draft's description of the path, without its `<why?>`: what the
    /// draft says when the model's words for this bullet fail the gate.
    #[serde(skip)]
    pub tool_words: String,
}

/// The tool's part of a model draft.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Structure {
    /// The bullets, in the offline draft's order.
    pub bullets: Vec<FixedBullet>,
    /// The types the draft chooses from (empty: any).
    pub types: Vec<String>,
    /// The scopes the draft chooses from (empty: no scope).
    pub scopes: Vec<String>,
    /// The summary's limit in chars: what is left of `subject-max` after the longest
    /// `type(scope)!: ` the lists allow; `None` when the subject has no limit.
    pub summary_max: Option<usize>,
    /// The change's own words a summary may use ([`change_words`]).
    pub words: Vec<String>,
    /// The public items the change removes or alters
    /// ([`crate::offline::changed_public_items`]): when empty, the evidence shows no
    /// breaking change, and the draft has no `breaking_change` note to write.
    pub breaking_evidence: Vec<String>,
    /// What the tool knows for the type and scope, one line each, in the tool's words
    /// with repository text only as quoted, capped data, and what those lines cut
    /// ([`crate::choices::evidence`]): shown to the model, never imposed on it.
    pub evidence: crate::choices::ChoiceEvidence,
    /// The offline draft's type, when it is one of [`Structure::types`]: the type a
    /// small model's draft keeps ([`Structure::with_tool_choices`]).
    #[serde(skip)]
    pub tool_type: Option<String>,
    /// The change or its paths' history settles [`Structure::tool_type`]
    /// ([`crate::offline::Drafted::type_settled`]), where it is no rule of thumb.
    #[serde(skip)]
    pub tool_type_settled: bool,
    /// The offline draft's summary: what a model draft keeps when the guards call the
    /// model small, or its own summary names nothing beyond the staged paths and this
    /// one does ([`crate::quality::Evidence::names_something`]).
    #[serde(skip)]
    pub tool_summary: Option<String>,
    /// The offline draft's breaking note ([`crate::offline::rename_note`]): what a
    /// small model's draft keeps ([`Structure::with_tool_choices`]).
    #[serde(skip)]
    pub tool_breaking: Option<String>,
    /// [`Structure::tool_breaking`] as the output contract shows it: of the renames
    /// found in the hunk bodies as the gate lets them through
    /// ([`redact::found_in_gated_state`]), redacted.
    #[serde(skip)]
    pub shown_breaking: Option<redact::Redacted>,
    /// The repository's recent subjects for the staged paths, unredacted (the
    /// prompt's fragment redacts them, [`crate::fragments::subjects_fragment`]); empty
    /// when switched off.
    pub subjects: Vec<String>,
}

impl Structure {
    /// The structure of a draft for `state` under `conv`: the offline draft's bullets,
    /// the types the change does not rule out ([`crate::choices::type_choices`]), and
    /// the scopes `first` (the repository's `SCOPE` facts for the staged paths), then
    /// [`scope_choices`] with manifests read through `read`, then the scopes
    /// `history` used for these paths where the convention lists none; what the tool
    /// knows for one type or scope is [`Structure::evidence`]. The offline draft is
    /// computed once for all.
    pub fn new(
        state: &StagedState,
        conv: &Convention,
        history: &jitcommit_core::repo::PathHistory,
        first: Vec<String>,
        read: &dyn Fn(&str) -> Option<String>,
    ) -> Structure {
        let drafted = crate::offline::drafted(state, conv, &history.types, None).ok();
        let tool_type_settled = drafted.as_ref().is_some_and(|d| d.type_settled);
        let offline = drafted.map(|d| d.message);
        let mut scopes = first;
        let offline_scope = offline.as_ref().and_then(|m| m.subject.scope.as_deref());
        for s in scope_choices(state, conv, offline_scope, read) {
            if !scopes.contains(&s) {
                scopes.push(s);
            }
        }
        if conv.scopes.is_empty() {
            let mut used: Vec<(&String, &usize)> = history.scopes.iter().collect();
            used.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
            for (s, _) in used.into_iter().take(HISTORY_SCOPES) {
                if crate::datum::is_name(s) && !scopes.contains(s) {
                    scopes.push(s.clone());
                }
            }
        }
        // Every candidate is repository text (a fact's scope, a directory, a package's
        // name, the convention's list, the history's): one the gate would change is no
        // scope to offer, in the prompt's contract or the schema.
        scopes.retain(|s| *redact::gate(s) == *s);
        let types = crate::choices::type_choices(
            state,
            conv,
            offline.as_ref().map(|m| m.subject.kind.as_str()),
        );
        let evidence = crate::choices::evidence(
            state,
            history,
            offline.as_ref().map(|m| (m, tool_type_settled)),
            conv,
        );
        let tool_type = offline
            .as_ref()
            .map(|m| m.subject.kind.clone())
            .filter(|t| types.is_empty() || types.contains(t));
        let tool_summary = offline.as_ref().map(|m| m.subject.summary.clone());
        let tool_breaking = offline.as_ref().and_then(|m| {
            m.trailers
                .iter()
                .find(|t| t.token == "BREAKING CHANGE")
                .map(|t| t.value.clone())
        });
        let bullets = offline
            .map(|m| m.bullets)
            .unwrap_or_default()
            .into_iter()
            .map(|b| {
                let path = match &b.target {
                    Target::Path(p) => p.clone(),
                    Target::Move { to, .. } => to.clone(),
                };
                let tool_words = b
                    .what_why
                    .strip_suffix(crate::offline::WHY_PLACEHOLDER)
                    .map_or(b.what_why.as_str(), |w| w.trim_end().trim_end_matches(';'))
                    .to_owned();
                FixedBullet {
                    verb: b.verb,
                    target: b.target,
                    key: redact::gate(&path).into_inner(),
                    tool_words,
                }
            })
            .collect();
        let longest_type = if types.is_empty() {
            ANY_TYPE_CHARS
        } else {
            types.iter().map(|t| t.chars().count()).max().unwrap_or(0)
        };
        let scope_chars = scopes
            .iter()
            .map(|s| s.chars().count() + 2)
            .max()
            .unwrap_or(0);
        let summary_max = conv.subject_limit().map(|max| {
            max.saturating_sub(longest_type + scope_chars + "!: ".len())
                .max(MIN_SUMMARY_CHARS)
                .min(max)
        });
        let shown = Classifier::new(&conv.context.exclude);
        let words = change_words(state, &scopes, &shown);
        // The note the contract shows: of the renames the gate lets through (the
        // message keeps the offline draft's own, `tool_breaking`).
        let gated = redact::GatedBodies::new();
        let shown_breaking = tool_breaking.as_ref().and_then(|_| {
            let renames = redact::found_in_gated_state(
                state,
                &gated,
                |s| crate::offline::renamed_public_items(s, &shown),
                |(old, new)| vec![old.as_str(), new.as_str()],
            );
            crate::offline::rename_note(&renames).map(|n| redact::gate(&n))
        });
        Structure {
            bullets,
            types,
            scopes,
            summary_max,
            words,
            breaking_evidence: redact::found_in_gated_state(
                state,
                &gated,
                |s| crate::offline::changed_public_items(s, &shown),
                |n| vec![n.as_str()],
            )
            .into_inner(),
            evidence,
            subjects: history.subjects.clone(),
            tool_type,
            tool_type_settled,
            tool_summary,
            tool_breaking,
            shown_breaking,
        }
    }

    /// `d` with the tool's type and breaking note in place of the model's: what a draft of a model the
    /// guards call small keeps (docs/draft.md, "Guards sized to the model"). Offered
    /// every type, SmolLM2-135M and Qwen2.5-Coder-0.5B agreed with the human's type
    /// far less often than the offline draft's evidence does (docs/benchmarks.md,
    /// `draft-merged`), so their choice is not taken; the prompt and the schema stay
    /// the same for every model.
    ///
    /// The breaking note is the tool's too: none, unless the change renames a public
    /// item its users' files name ([`crate::offline::renamed_public_items`]).
    pub fn with_tool_choices(&self, d: &DraftJson) -> DraftJson {
        let mut d = d.clone();
        if let Some(t) = &self.tool_type {
            d.kind = t.clone();
        }
        d.breaking_change = self.tool_breaking.clone();
        d
    }

    /// The message from the model's words, deterministically repaired, and why its
    /// summary is not the model's to keep (it ran past its room with no phrase ending
    /// within it: [`fit_summary`]); `Err` lists what only the model can fix (a bullet
    /// without words, a type not on the list, an empty summary).
    pub fn assemble(
        &self,
        conv: &Convention,
        d: &DraftJson,
    ) -> Result<(Message, Option<String>), Vec<String>> {
        let mut problems = Vec::new();
        let kind = if self.types.is_empty() {
            d.kind.trim().to_owned()
        } else if let [settled] = self.types.as_slice() {
            // The change settles the type: the tool's, whatever a server without the
            // schema's grammar answered.
            settled.clone()
        } else {
            match self
                .types
                .iter()
                .find(|t| t.eq_ignore_ascii_case(d.kind.trim()))
            {
                Some(t) => t.clone(),
                None => {
                    problems.push(format!(
                        "type {:?} is not one of: {}",
                        message::one_line(&d.kind),
                        self.types.join(", ")
                    ));
                    String::new()
                }
            }
        };
        if kind.is_empty() && self.types.is_empty() {
            problems.push("type is empty".to_owned());
        }
        let scope = d.scope.as_deref().and_then(|s| {
            self.scopes
                .iter()
                .find(|a| a.eq_ignore_ascii_case(s.trim()))
                .cloned()
        });
        // No public item removed or changed: a note is dropped (the schema allows
        // only null then; a server without the schema's grammar may still write one).
        let breaking = d
            .breaking_change
            .as_deref()
            .filter(|_| !self.breaking_evidence.is_empty())
            .map(|t| message::one_line(t).trim().to_owned())
            .filter(|t| has_words(t, 2));
        let bullets: Vec<Bullet> = self
            .bullets
            .iter()
            .map(|b| {
                let words = d
                    .bullets
                    .iter()
                    .find(|(k, _)| answer_key(k) == b.key)
                    .map(|(_, w)| message::one_line(w).trim().to_owned())
                    .unwrap_or_default();
                if words.is_empty() {
                    problems.push(format!("bullets: the value for {:?} is empty", b.key));
                }
                Bullet {
                    verb: b.verb.clone(),
                    target: b.target.clone(),
                    what_why: words,
                }
            })
            .collect();
        for (k, _) in &d.bullets {
            if !self.bullets.iter().any(|b| b.key == answer_key(k)) {
                problems.push(format!(
                    "bullets: {:?} is not one of the given bullet paths",
                    message::one_line(k)
                ));
            }
        }
        let prefix = kind.chars().count()
            + scope.as_ref().map_or(0, |s| s.chars().count() + 2)
            + usize::from(breaking.is_some())
            + 2;
        let room = conv
            .subject_limit()
            .map(|max| max.saturating_sub(prefix).max(MIN_SUMMARY_CHARS));
        let (summary, at_phrase) = fit_summary(&cleaned_summary(&d.summary, &kind, conv), room);
        let summary_note = (!at_phrase).then(|| {
            format!(
                "ran past {} characters with no phrase ending within them",
                room.unwrap_or_default()
            )
        });
        if summary.is_empty() {
            problems.push("summary is empty".to_owned());
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        let m = Message {
            subject: Subject {
                kind,
                scope,
                breaking: breaking.is_some(),
                summary,
            },
            prose: Vec::new(),
            bullets,
            trailers: breaking
                .map(|value| Trailer {
                    token: "BREAKING CHANGE".to_owned(),
                    value,
                })
                .into_iter()
                .collect(),
        };
        Ok((m, summary_note))
    }
}

/// The bullet key a model meant: `./` and a `- Verb: ` or `old → ` before it dropped
/// (a model without the schema's grammar writes the bullet as the contract lists it).
fn answer_key(k: &str) -> &str {
    let mut k = k.trim();
    k = k.strip_prefix("- ").unwrap_or(k);
    if let Some((head, rest)) = k.split_once(": ")
        && !head.contains('/')
        && head.chars().all(char::is_alphabetic)
    {
        k = rest.trim();
    }
    if let Some((_, to)) = k.split_once(" → ") {
        k = to.trim();
    }
    k.strip_prefix("./").unwrap_or(k)
}

/// True when `text` holds at least `n` words of letters ([`is_word`]).
pub fn has_words(text: &str, n: usize) -> bool {
    text.split_whitespace().filter(|w| is_word(w)).count() >= n
}

/// A word of letters: with the punctuation around it trimmed, only letters, digits,
/// `-`, `_` and `'`, and letters at least half of it
/// (`parse_answer` and `don't` are words; `1.3.0-beta2`, `src/lib.rs` and `{` are
/// not).
pub fn is_word(w: &str) -> bool {
    let w = w.trim_matches(|c: char| ".,;:!?()[]\"'`«»“”".contains(c));
    let letters = w.chars().filter(|c| c.is_alphabetic()).count();
    letters >= 1
        && letters * 2 >= w.chars().count()
        && w.chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '\''))
}

/// The summary as the tool fixes it: one line, trimmed; a repeated type at the
/// start (`feat: feat: …`, `feat(cli)!: …`) removed; a final period dropped (when
/// the convention forbids it); within `room` chars where a phrase ends, its end
/// tidied ([`fit_summary`]).
pub fn repair_summary(summary: &str, kind: &str, conv: &Convention, room: Option<usize>) -> String {
    fit_summary(&cleaned_summary(summary, kind, conv), room).0
}

/// `summary` within `room` chars, never cut mid-word or mid-phrase where a phrase
/// ends within it (issue 45): its trailing clauses dropped
/// ([`message::phrase::within`]), its end never a dangling `and`, comma, preposition
/// or open bracket ([`message::phrase::tidy_end`]). The flag is false when no phrase
/// ends within `room`: the text is then cut at a word ([`message::shorten`]), and a
/// model's draft takes the tool's summary instead.
pub fn fit_summary(summary: &str, room: Option<usize>) -> (String, bool) {
    if room.is_none_or(|room| summary.chars().count() <= room) {
        // It fits: only its end is tidied (and a text that is all unclosed brackets is
        // left for the gate to refuse).
        let tidy = message::phrase::tidy_end(summary);
        return match tidy.is_empty() {
            true => (summary.trim().to_owned(), true),
            false => (tidy, true),
        };
    }
    let room = room.unwrap_or_default();
    match message::phrase::within(summary, room) {
        Some(kept) => (kept, true),
        None => (message::shorten(summary, room), false),
    }
}

/// The summary as one line, without a repeated type prefix and (where the convention
/// forbids it) a final period.
fn cleaned_summary(summary: &str, kind: &str, conv: &Convention) -> String {
    let mut s = message::one_line(summary).trim().to_owned();
    loop {
        let stripped = strip_type_prefix(&s, kind, conv);
        if stripped.len() == s.len() {
            break;
        }
        s = stripped.trim_start().to_owned();
    }
    if conv.subject_period {
        while s.ends_with('.') && !s.ends_with("...") {
            s.pop();
            s = s.trim_end().to_owned();
        }
    }
    s
}

/// `s` without a leading `type(scope)!:` whose type is `kind` or one of the
/// convention's types; `s` itself otherwise.
fn strip_type_prefix<'a>(s: &'a str, kind: &str, conv: &Convention) -> &'a str {
    let Some((head, rest)) = s.split_once(':') else {
        return s;
    };
    let head = head.trim_end_matches('!');
    let name = match head.split_once('(') {
        Some((n, scope)) if scope.ends_with(')') => n,
        Some(_) => return s,
        None => head,
    };
    let known =
        name.eq_ignore_ascii_case(kind) || conv.types.iter().any(|t| t.eq_ignore_ascii_case(name));
    if known && !name.is_empty() { rest } else { s }
}

/// The scopes a draft may choose from: the convention's list; else names derived
/// from the staged paths (the offline draft's scope `offline`, top-level directories,
/// and the package names in the `Cargo.toml`, `package.json` or `pyproject.toml` of
/// each directory holding a staged path, read through `read`, which is given a path
/// relative to the repository root); else none. Never free text.
pub fn scope_choices(
    state: &StagedState,
    conv: &Convention,
    offline: Option<&str>,
    read: &dyn Fn(&str) -> Option<String>,
) -> Vec<String> {
    if !conv.scopes.is_empty() {
        return conv.scopes.clone();
    }
    let mut out: Vec<String> = Vec::new();
    let push = |name: &str, out: &mut Vec<String>| {
        let name = name.rsplit('/').next().unwrap_or(name).trim();
        if crate::datum::is_name(name) && !out.iter().any(|s| s == name) {
            out.push(name.to_owned());
        }
    };
    if let Some(s) = offline {
        push(s, &mut out);
    }
    let paths: Vec<String> = state
        .files
        .iter()
        .flat_map(|f| std::iter::once(&f.change.path).chain(f.change.old_path.as_ref()))
        .map(|p| String::from_utf8_lossy(p).into_owned())
        .collect();
    for p in &paths {
        if let Some((top, _)) = p.split_once('/')
            && !top.starts_with('.')
        {
            push(top, &mut out);
        }
    }
    let mut dirs: Vec<String> = Vec::new();
    for p in &paths {
        let mut d = p.as_str();
        while let Some((parent, _)) = d.rsplit_once('/') {
            if !dirs.iter().any(|x| x == parent) {
                dirs.push(parent.to_owned());
            }
            d = parent;
        }
    }
    dirs.sort_by(|a, b| {
        b.matches('/')
            .count()
            .cmp(&a.matches('/').count())
            .then(a.cmp(b))
    });
    dirs.push(String::new());
    for dir in dirs.iter().take(MAX_MANIFEST_DIRS) {
        let at = |file: &str| {
            if dir.is_empty() {
                file.to_owned()
            } else {
                format!("{dir}/{file}")
            }
        };
        if let Some(name) = read(&at("Cargo.toml")).and_then(|t| toml_name(&t, &[&["package"]])) {
            push(&name, &mut out);
        }
        if let Some(name) = read(&at("pyproject.toml"))
            .and_then(|t| toml_name(&t, &[&["project"], &["tool", "poetry"]]))
        {
            push(&name, &mut out);
        }
        if let Some(name) = read(&at("package.json")).and_then(|t| {
            serde_json::from_str::<serde_json::Value>(&t)
                .ok()?
                .get("name")?
                .as_str()
                .map(str::to_owned)
        }) {
            push(&name, &mut out);
        }
    }
    out.truncate(MAX_DERIVED_SCOPES);
    out
}

/// The string `name` of the first of `tables` (each a path of keys) that has one, in a
/// TOML manifest; `None` when the manifest is no valid TOML. The document is parsed
/// once and read in place: a manifest's other tables are never built as values (a
/// 20 KB `Cargo.toml` cost twice the instructions so).
fn toml_name(text: &str, tables: &[&[&str]]) -> Option<String> {
    let doc = toml::de::DeTable::parse(text).ok()?;
    tables.iter().find_map(|path| {
        let mut t = doc.get_ref();
        for k in *path {
            t = t.get(*k)?.get_ref().as_table()?;
        }
        t.get("name")?.get_ref().as_str().map(str::to_owned)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conv() -> Convention {
        Convention::default()
    }

    #[test]
    fn a_manifest_names_its_project() {
        let cargo = "[workspace]\nmembers = [\"a\"]\n\n[package]\nname = \"jitcommit\"\nversion = \"0.1.0\"\n\n[dependencies]\nname = \"not this\"\n";
        assert_eq!(
            toml_name(cargo, &[&["package"]]).as_deref(),
            Some("jitcommit")
        );
        let pep621 = "[project]\nname = \"commitizen\"\n[tool.poetry]\nname = \"old\"\n";
        let both: &[&[&str]] = &[&["project"], &["tool", "poetry"]];
        assert_eq!(toml_name(pep621, both).as_deref(), Some("commitizen"));
        let poetry = "[tool.ruff]\nline-length = 88\n[tool.poetry]\nname = \"cz\"\n";
        assert_eq!(toml_name(poetry, both).as_deref(), Some("cz"));
        // A name that is no string, or a table that is no table, passes to the next.
        let odd = "project = 3\n[tool.poetry]\nname = \"cz\"\n";
        assert_eq!(toml_name(odd, both).as_deref(), Some("cz"));
        let number = "[project]\nname = 7\n[tool.poetry]\nname = \"cz\"\n";
        assert_eq!(toml_name(number, both).as_deref(), Some("cz"));
        assert_eq!(
            toml_name("[package]\nversion = \"1\"\n", &[&["package"]]),
            None
        );
        assert_eq!(toml_name("name = \"top\"\n", &[&["package"]]), None);
        // Not TOML (a duplicate key), not read.
        assert_eq!(
            toml_name("[package]\nname = \"a\"\nname = \"b\"\n", &[&["package"]]),
            None
        );
        assert_eq!(toml_name("[package\nname = \"a\"", &[&["package"]]), None);
    }

    #[test]
    fn summary_repairs() {
        let c = conv();
        let cases = [
            ("  add the parser.  ", "feat", None, "add the parser"),
            ("feat: feat: add the parser", "feat", None, "add the parser"),
            (
                "fix(cli)!: handle empty input",
                "fix",
                None,
                "handle empty input",
            ),
            ("docs: add notes", "feat", None, "add notes"),
            ("note: keep this", "feat", None, "note: keep this"),
            (
                "add a parser for the convention file and its defaults",
                "feat",
                Some(30),
                "add a parser",
            ),
            (
                "the validator runs on every commit and every push, so it must stay lean",
                "test",
                Some(56),
                "the validator runs on every commit and every push",
            ),
            (
                "read the config in one pass",
                "feat",
                Some(16),
                "read the config",
            ),
            ("wait...", "feat", None, "wait..."),
        ];
        for (input, kind, room, want) in cases {
            assert_eq!(repair_summary(input, kind, &c, room), want, "{input}");
        }
        let long = "x".repeat(50);
        assert_eq!(
            repair_summary(&long, "feat", &c, Some(20)).chars().count(),
            20
        );
    }

    #[test]
    fn the_grammar_patterns_take_words_and_refuse_what_small_models_write() {
        let humans = [
            "match placeholders and breaking footers without regexes",
            "prove bullet paths by lookup before diffing whole trees",
            "add path filter to avoid uneeded builds on doc PRs",
            "rename hooks to pre_bump_hooks",
            "add commit order doc",
            "set explicit binstall pkg-url, bin-dir and pkg-fmt",
            "add worktree support by using git_dir instead of repo dir",
            "check all tags at once when building cache",
            "open repo at path",
            "skip the model when the budget cannot hold the floors",
            "regenerate the changelog through the review's mends",
            "retry failed requests in the http client",
        ];
        // A human subject with a type word after its verb (cocogitto ecfddeb).
        let dog = "remove dog fooding test which does not apply to monorepo";
        // The bank as if every word of these subjects were the change's own, less
        // the verbs, which `change_words` leaves out.
        let bank: Vec<String> = humans
            .iter()
            .chain([&dog])
            .flat_map(|h| h.split(' '))
            .map(|w| w.trim_end_matches(',').to_owned())
            .filter(|w| !SUMMARY_VERBS.contains(&w.as_str()))
            .collect();
        let summary = regex::Regex::new(&WordPatterns::new(&bank, &[]).summary).unwrap();
        let what = regex::Regex::new(WHAT_WHY_PATTERN).unwrap();
        // The system message's own example answer fits them.
        let example = crate::prompt::CORE_INSTRUCTIONS
            .lines()
            .find(|l| l.starts_with("{\"bullets\""))
            .unwrap();
        let example: serde_json::Value = serde_json::from_str(example).unwrap();
        assert!(summary.is_match(example["summary"].as_str().unwrap()));
        for (_, w) in example["bullets"].as_object().unwrap() {
            assert!(what.is_match(w.as_str().unwrap()), "{w}");
        }
        for ok in [
            "prove the validator links neither HTTP client nor tokenizer",
            "trace a 300-commit push from the quarantine",
            "lire la configuration déjà écrite",
        ] {
            assert!(what.is_match(ok), "{ok}");
        }
        // Human subjects of real histories that open with a verb are all taken,
        // unless a type word follows the verb: the price of refusing type lists.
        for human in humans {
            assert!(summary.is_match(human), "{human}");
        }
        assert!(!summary.is_match(dog));
        // The filler SmolLM2-135M wrote once the grammar forced words: it opens with
        // no verb, so it cannot be generated.
        for filler in [
            "this is a bug that has been fixed",
            "this is just another example of how you can break your",
            "this has been changed and we need to make sure that",
            "there is a fix for the parser",
            "feat 1024853967-babyscraping-git-hq build-branch refcount",
            "fix: this is the summary of the evidence",
            "the breakable section of the changelog is broken",
            "feature-branch-1.0.23:57689 x y",
            "Add the parser to the crate",
            "addition of a parser here",
        ] {
            assert!(!summary.is_match(filler), "summary {filler:?}");
        }
        assert!(what.is_match("add tests for lean.rs: the_validator_links_neither passes"));
        for junk in [
            "{\"type\"",
            "crates/core/src/rules/placeholder.rs",
            "1.3.0-beta2",
            "1234567890-1234567890 a b",
            "Fix",
            "BREAKING",
            "feat: add a thing",
            "{{bullets}}, {{type}}, x",
            "two words",
            "line one\nline two here",
            " leading space here",
        ] {
            assert!(!summary.is_match(junk), "summary {junk:?}");
        }
        for junk in [
            "{\"type\"",
            "src/bin/check/probe.rs",
            "1.0.23.69-b87d4f5eabdaa",
            "Fix",
            "- x y z",
        ] {
            assert!(!what.is_match(junk), "what_why {junk:?}");
        }
    }

    #[test]
    fn a_bullet_takes_the_change_own_words_and_never_a_list_of_types() {
        let bank: Vec<String> = ["CI.yml", "workflow", "paths", "docs", "builds"]
            .iter()
            .map(|w| (*w).to_owned())
            .collect();
        let p = WordPatterns::new(&bank, &["feat".to_owned(), "fix".to_owned()]);
        let what = regex::Regex::new(&p.what).unwrap();
        for ok in [
            "skip the workflow for docs paths only",
            "add paths to CI.yml, so builds skip docs",
            "use workflow paths because builds skip docs",
        ] {
            assert!(what.is_match(ok), "{ok}");
        }
        // What SmolLM2-135M wrote in free bullets: lists of the prompt's types,
        // timestamps, the system message's example, too few words.
        for junk in [
            "test, refactor, test",
            "fix, refactor, test, build, ci, style",
            "cog-bump-test-1234567890 2023-01-01T00:00:00Z 2023-01-01T00:00:00Z",
            "retry a failed request twice so that a dropped connection does not fail the sync",
            "add the fix to the workflow",
            "update CI.yml",
        ] {
            assert!(!what.is_match(junk), "{junk:?}");
        }
        // Each word takes its own plural only.
        assert!(what.is_match("add workflows and paths for the builds"));
        for doubled in ["add the pathss of builds", "skip the workflowes for docs"] {
            assert!(!what.is_match(doubled), "{doubled:?}");
        }
        let p = WordPatterns::new(&["cache".to_owned(), "match".to_owned()], &[]);
        let what = regex::Regex::new(&p.what).unwrap();
        assert!(what.is_match("matches the caches in one run"));
        assert!(!what.is_match("matchs the cachees in one run"));
        let p = WordPatterns::new(&bank, &["feat".to_owned(), "fix".to_owned()]);
        // The summary still opens with `fix` or `test`, and uses no type word after.
        let summary = regex::Regex::new(&p.summary).unwrap();
        assert!(summary.is_match("fix the workflow paths for docs"));
        assert!(summary.is_match("test the workflow paths for docs"));
        assert!(!summary.is_match("fix refactor test build"));
        assert!(!summary.is_match("update CI.yml, test"));
    }

    #[test]
    fn the_word_bank_holds_the_change_own_names_and_parts() {
        let mut state = jitcommit_testkit_free_state(&["crates/core/src/rules/placeholder.rs"]);
        state.files[0].hunks.push(jitcommit_core::repo::Hunk {
            header: "@@ -1,2 +1,2 @@".into(),
            body: concat!(
                " fn unchanged_context_line() {}\n",
                "-static PLACEHOLDER_RE: LazyLock<Regex> = LazyLock::new(|| regex());\n",
                "+fn find_placeholder(line: &str) -> Option<usize> { footers(line) }\n",
                "+let key = \"AKIAIOSFODNN7EXAMPLQ\";\n",
            )
            .into(),
        });
        let words = change_words(&state, &["core".to_owned()], &Classifier::new(&[]));
        // Path names first (scope, directories, file name and stem), then the lines'
        // identifiers by frequency, with their parts.
        let mut first: Vec<&str> = words[..6].iter().map(String::as_str).collect();
        first.sort_unstable();
        assert_eq!(
            first,
            [
                "core",
                "crates",
                "placeholder",
                "placeholder.rs",
                "rules",
                "src"
            ]
        );
        for w in [
            "LazyLock",
            "lazy",
            "lock",
            "find_placeholder",
            "find",
            "footers",
            "Regex",
        ] {
            assert!(words.iter().any(|x| x == w), "{w} in {words:?}");
        }
        // Context lines, keywords, function words, the verbs and redacted secrets are
        // not the change's words.
        for w in ["unchanged_context_line", "fn", "str", "the", "use"] {
            assert!(!words.iter().any(|x| x == w), "{w} in {words:?}");
        }
        assert!(
            !words.iter().any(|x| x.to_lowercase().contains("akia")),
            "{words:?}"
        );
    }

    #[test]
    fn the_change_own_words_in_any_script_are_bank_words() {
        let mut state = jitcommit_testkit_free_state(&["src/größe/設定.rs"]);
        state.files[0].hunks.push(jitcommit_core::repo::Hunk {
            header: "@@ -1 +1,2 @@".into(),
            body: concat!(
                "-fn alte_Größe() {}\n",
                "+// Lädt die Konfiguration beim Start\n",
                "+fn lade_Konfiguration(設定: &str) -> Größe { 読み込む(設定) }\n",
            )
            .into(),
        });
        let words = change_words(&state, &[], &Classifier::new(&[]));
        for w in [
            "größe",
            "設定",
            "設定.rs",
            "Lädt",
            "Konfiguration",
            "lade_Konfiguration",
            "lade",
            "Größe",
            "読み込む",
            "alte_Größe",
        ] {
            assert!(words.iter().any(|x| x == w), "{w} in {words:?}");
        }
        let p = WordPatterns::new(&words, &[]);
        let summary = regex::Regex::new(&p.summary).unwrap();
        let what = regex::Regex::new(&p.what).unwrap();
        for ok in [
            "add lade_Konfiguration for the Größe",
            "read 設定 with 読み込む at Start",
            "update Lädt, Konfiguration and Größe",
        ] {
            assert!(summary.is_match(ok), "{ok}");
            assert!(what.is_match(ok), "{ok}");
        }
        // Only the change's own: other words of those scripts stay out.
        for junk in ["add the Straße for Größe", "read 東京 with 設定 now"] {
            assert!(!summary.is_match(junk), "{junk}");
        }
        // Literal characters only: no class or escape a converter could misread.
        assert!(!p.summary.contains('\\'), "{}", p.summary);
    }

    #[test]
    fn a_summary_of_the_change_own_words_is_all_a_grammar_takes() {
        let mut state = jitcommit_testkit_free_state(&["crates/core/src/rules/placeholder.rs"]);
        state.files[0].hunks.push(jitcommit_core::repo::Hunk {
            header: "@@ -1 +1 @@".into(),
            body: concat!(
                "-let footer = by_regex(breaking);\n",
                "+// fix this in the next commit\n",
                "+let placeholder = scan(line);\n",
            )
            .into(),
        });
        let s = Structure::new(
            &state,
            &conv(),
            &Default::default(),
            vec!["core".into()],
            &|_| None,
        );
        let summary = regex::Regex::new(&WordPatterns::new(&s.words, &s.types).summary).unwrap();
        for ok in [
            "match placeholders and breaking footers without regexes",
            "check each line for a placeholder instead of a regex",
            "remove by_regex from the core rules",
            "fix the placeholder in the next commit",
        ] {
            assert!(summary.is_match(ok), "{ok}");
        }
        for junk in [
            "this is a bug that has been fixed",
            "fix the bug that has been fixed",
            // What SmolLM2-135M wrote with the bank before POINTING_WORDS.
            "update this to fix this",
            "fix this in the next commit",
            "update this, but its not a new one",
            "add 1024853967-babyscraping-git-hq build-branch refcount",
            "update the summary of the evidence",
            "fix feature-branch-1.0.23:57689 in core",
            "add placeholder.rs",
        ] {
            assert!(!summary.is_match(junk), "{junk:?}");
        }
        // Every bank word goes into the grammar as a literal: a word with a regex
        // character matches itself only.
        assert!(summary.is_match("update placeholder.rs and its rules"));
        assert!(!summary.is_match("update placeholderXrs and its rules"));
        // No escape: llama-cpp-python's converter copies one into a grammar its
        // parser refuses.
        let p = WordPatterns::new(&s.words, &s.types);
        assert!(!p.summary.contains('\\') && !p.what.contains('\\'));
    }

    #[test]
    fn words_of_letters() {
        assert!(has_words("add the parser", 3));
        assert!(has_words("add a thing", 3));
        assert!(has_words("add parse_answer fallback", 3));
        assert!(!has_words("1.3.0-beta2", 1));
        assert!(!has_words("{", 1));
        assert!(!has_words("BREAKING", 2));
        assert!(!has_words("update src/lib.rs", 2));
        assert!(has_words("don't re-run it.", 3));
    }

    #[test]
    fn derived_scopes_are_names_never_free_text() {
        let state = jitcommit_testkit_free_state(&[
            "crates/core/src/a.rs",
            "web/src/x.ts",
            ".github/w.yml",
        ]);
        let read = |p: &str| match p {
            "crates/core/Cargo.toml" => Some("[package]\nname = \"jitcommit-core\"\n".to_owned()),
            "web/package.json" => Some("{\"name\": \"@acme/web-ui\"}".to_owned()),
            "Cargo.toml" => Some("[workspace]\n".to_owned()),
            _ => None,
        };
        let offline = crate::offline::draft(&state, &conv())
            .unwrap()
            .subject
            .scope;
        let s = scope_choices(&state, &conv(), offline.as_deref(), &read);
        assert_eq!(s, ["crates", "web", "jitcommit-core", "web-ui"]);
        let mut listed = conv();
        listed.scopes = vec!["api".into()];
        assert_eq!(
            scope_choices(&state, &listed, offline.as_deref(), &read),
            ["api"]
        );
    }

    #[test]
    fn assemble_fills_the_fixed_bullets_and_repairs_what_it_can() {
        let state = jitcommit_testkit_free_state(&["src/a.rs", "src/b.rs"]);
        let c = conv();
        let s = Structure::new(&state, &c, &Default::default(), vec!["src".into()], &|_| {
            None
        });
        assert_eq!(s.scopes, ["src"]);
        assert_eq!(s.summary_max, Some(72 - "refactor(src)!: ".len()));
        let d = DraftJson {
            bullets: vec![
                ("src/b.rs".into(), "grows b\nSigned-off-by: x".into()),
                ("- Update: src/a.rs".into(), "grows a".into()),
            ],
            summary: "Feat: grow both files.".into(),
            kind: "FEAT".into(),
            scope: Some("made up".into()),
            breaking_change: Some("BREAKING".into()),
        };
        let (m, _) = s.assemble(&c, &d).expect("assembles");
        assert_eq!(
            message::render(&m),
            "feat: grow both files\n\n- Update: src/a.rs — grows a\n- Update: src/b.rs — grows b Signed-off-by: x\n"
        );
        let bad = DraftJson {
            bullets: vec![("src/c.rs".into(), "invented".into())],
            kind: "chores".into(),
            ..d.clone()
        };
        let problems = s.assemble(&c, &bad).expect_err("cannot be fixed");
        assert_eq!(problems.len(), 4, "{problems:?}");
        // A note is kept only where a public item was removed or changed.
        let noted = DraftJson {
            breaking_change: Some("callers of parse must pass a flag".into()),
            ..d.clone()
        };
        let (m, _) = s.assemble(&c, &noted).expect("assembles");
        assert!(!m.subject.breaking && m.trailers.is_empty(), "{m:?}");
        let s = Structure {
            breaking_evidence: vec!["parse".into()],
            ..s
        };
        let (m, _) = s.assemble(&c, &noted).expect("assembles");
        assert!(m.subject.breaking, "{m:?}");
        assert_eq!(m.trailers[0].value, "callers of parse must pass a flag");
        assert!(problems[0].starts_with("type \"chores\" is not one of"));
        assert!(
            problems
                .iter()
                .any(|p| p.contains("\"src/c.rs\" is not one of"))
        );
    }

    fn jitcommit_testkit_free_state(paths: &[&str]) -> StagedState {
        use jitcommit_core::repo::ChangeKind::Modified;
        let paths: Vec<_> = paths.iter().map(|p| (Modified, *p)).collect();
        crate::fixtures::of_paths(&paths)
    }
}
