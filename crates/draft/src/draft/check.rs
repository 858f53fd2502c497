//! Check: the model's answer against what the tool decided, the convention's rules
//! and the draft-quality gate. A small model's type, breaking note and summary give
//! way to the tool's; so do a summary the gate refuses or that runs past its room, a
//! type off the list, and a bullet whose words fail the gate or name what the change
//! does not hold (with its `<why?>`). Each such part is named for the footer. The
//! message is then rendered ([`super::render`]) and the text checked.

use jitcommit_core::config::Convention;
use jitcommit_core::message::{self, phrase};
use jitcommit_core::rules::{self, ChangedPaths, Problem, WHY_PLACEHOLDER};

use super::render::{Words, render};
use crate::prompt;
use crate::quality::{self, Evidence};
use crate::structure::Structure;

/// What an answer is checked against.
pub struct Checker<'a> {
    /// The tool's part of the draft.
    pub structure: &'a Structure,
    /// The guards call the model small ([`crate::guards::Guards::small`]).
    pub small: bool,
    /// The type the tool settles stands over the model's
    /// ([`crate::guards::Guards::tool_type`]).
    pub tool_type: bool,
    /// What the draft-quality gate reads a draft against.
    pub evidence: &'a Evidence<'a>,
    /// The repository's convention.
    pub conv: &'a Convention,
    /// The staged paths the rules check bullets against.
    pub paths: &'a ChangedPaths,
    /// The user's own `-m` words, kept as the body.
    pub keep: Option<&'a str>,
    /// The user's intent: the why of the tool's bullets, kept as the body where a
    /// bullet is the tool's.
    pub intent: Option<&'a str>,
    /// Where the checks' choices go (`JITCOMMIT_DEBUG`).
    pub debug: &'a dyn Fn(&str),
}

/// A draft the checks accept.
pub struct Accepted {
    /// The rendered text.
    pub text: String,
    /// Each part of the draft that is the tool's words, not the model's, and why: one
    /// line each for the footer (`the summary is the tool's: …`).
    pub tool_words: Vec<String>,
}

/// Why the checks refused an answer.
pub struct Rejected {
    /// The problems, as the repair request names them.
    pub problems: Vec<String>,
    /// The draft-quality gate was among the checks that refused it.
    pub gate_failed: bool,
}

/// The longest reason a footer line quotes.
const REASON_CHARS: usize = 100;

/// `why` on one line, short enough for a comment line.
fn reason(why: &str) -> String {
    let why = jitcommit_core::message::one_line(why);
    if why.chars().count() <= REASON_CHARS {
        return why.into_owned();
    }
    let cut: String = why.chars().take(REASON_CHARS - 1).collect();
    format!("{}…", cut.trim_end())
}

/// Checks the model's answer `content`. Where the tool's words are as good as a
/// second request could make them — a summary that fails the gate or runs past its
/// room, a bullet that fails the gate or names what the change does not hold, a type
/// off the list — they are taken, and each such part is named in
/// [`Accepted::tool_words`]; only what the tool cannot word (an answer that is no
/// JSON, an empty summary with no tool summary, bullets for other paths, the
/// convention's findings) is refused, for one repair request.
pub fn check(content: &str, c: &Checker<'_>) -> Result<Accepted, Rejected> {
    let (structure, evidence, debug) = (c.structure, c.evidence, c.debug);
    let rejected = |problems| Rejected {
        problems,
        gate_failed: false,
    };
    let mut tool_words = Vec::new();
    let mut json = crate::parse_answer(content).map_err(|e| {
        rejected(vec![format!(
            "the answer is not the JSON object asked for: {e}"
        )])
    })?;
    // A small model's type and breaking note are not taken: the tool's are
    // (Structure::with_tool_choices); nor its summary (below).
    if c.small {
        let tool = structure.with_tool_choices(&json);
        if !tool.kind.eq_ignore_ascii_case(json.kind.trim()) {
            tool_words.push(format!(
                "the type is the tool's ({}): a small model's ({}) is not taken",
                tool.kind,
                reason(&json.kind)
            ));
        }
        json = tool;
    } else if c.tool_type
        && structure.tool_type_settled
        && let Some(t) = &structure.tool_type
        && !t.eq_ignore_ascii_case(json.kind.trim())
    {
        // A model of this size chose types less well than the tool's settled ones
        // (guards::TOOL_TYPE_MODEL_PARAMS).
        tool_words.push(format!(
            "the type is the tool's ({t}), which the change settles: a model below 7B parameters chose {}",
            reason(&json.kind)
        ));
        json.kind = t.clone();
    } else if let Some(t) = &structure.tool_type
        && structure.types.len() > 1
        && !structure
            .types
            .iter()
            .any(|k| k.eq_ignore_ascii_case(json.kind.trim()))
    {
        // A type off the list (a server without the schema's grammar): the tool's.
        tool_words.push(format!(
            "the type is the tool's ({t}): the model's ({}) is not one the change allows",
            reason(&json.kind)
        ));
        json.kind = t.clone();
    }
    if json.summary.trim().is_empty()
        && let Some(t) = &structure.tool_summary
    {
        tool_words.push("the summary is the tool's: the model's summary was empty".to_owned());
        json.summary = t.clone();
    }
    let (mut m, summary_cut) = structure.assemble(c.conv, &json).map_err(rejected)?;
    // Each bullet: the model's words ended where a phrase ends when a grammar's bound
    // cut them; the tool's words where they fail the gate or name what the change does
    // not hold. The tool's words keep the `<why?>` the offline draft has (nobody gave
    // the reason), unless the user's intent is the why.
    let mut tool_bullet = false;
    for (b, fixed) in m.bullets.iter_mut().zip(&structure.bullets) {
        let mut words = b.what_why.clone();
        let mut why = None;
        if words.chars().count() >= prompt::BULLET_BOUND {
            match phrase::within(&words, prompt::BULLET_BOUND - 1) {
                Some(kept) => words = kept,
                None => why = Some("it was cut at its length bound mid-phrase".to_owned()),
            }
        } else {
            words = phrase::tidy_end(&words);
        }
        let why = why
            .or_else(|| quality::bullet_problem(&words, evidence))
            .or_else(|| {
                let unknown = evidence.unknown_names(&words);
                (!unknown.is_empty()).then(|| {
                    format!(
                        "it names {} that the change does not hold",
                        unknown.join(", ")
                    )
                })
            });
        match why {
            Some(why) if !fixed.tool_words.is_empty() => {
                debug(&format!("jitcommit-draft: the tool's words: {why}"));
                b.what_why = tool_bullet_words(&fixed.tool_words, c.intent);
                tool_bullet = true;
                tool_words.push(format!(
                    "the bullet for {} is the tool's: {}",
                    fixed.key,
                    reason(&why)
                ));
            }
            _ => b.what_why = words,
        }
    }
    if let Some(note) = m.trailers.iter_mut().find(|t| t.token == "BREAKING CHANGE") {
        note.value = if note.value.chars().count() >= prompt::NOTE_BOUND {
            phrase::within(&note.value, prompt::NOTE_BOUND - 1)
                .unwrap_or_else(|| message::shorten(&note.value, prompt::NOTE_BOUND - 1))
        } else {
            phrase::tidy_end(&note.value)
        };
    }
    // The tool's summary replaces the summary of a model the guards call
    // small (Guards::small), one that ran past its room with no phrase ending within
    // it, and that of any model that names nothing beyond the staged paths (`update
    // src/cli.py`, `update commitizen providers cargo_provider.py`) where the tool's
    // names the change; no second request. On the bench, a 0.5B model's
    // summaries shared fewer words with the human ones than the tool's,
    // a 135M model's far fewer (docs/benchmarks.md,
    // `draft-small-summary`): a small model may not make the subject
    // worse. The gate trusts the tool's summary as it trusts the tool's
    // bullets.
    let mut tool_summary = |m: &mut message::Message, why: String| {
        if let Some(tool) = &structure.tool_summary
            && *tool != m.subject.summary
        {
            debug(&format!(
                "jitcommit-draft: the tool's summary {tool:?} for {:?}: {why}",
                m.subject.summary
            ));
            tool_words.push(format!("the summary is the tool's: {}", reason(&why)));
            m.subject.summary = tool.clone();
            true
        } else {
            false
        }
    };
    if c.small {
        tool_summary(&mut m, "a small model's summary is not taken".to_owned());
    } else if let Some(why) = summary_cut {
        if !tool_summary(&mut m, format!("the model's summary {why}")) {
            // No tool summary: the model's, cut at a word and tidied.
            m.subject.summary = phrase::tidy_end(&m.subject.summary);
        }
    } else if structure
        .tool_summary
        .as_ref()
        .is_some_and(|t| evidence.names_something(t))
        && !evidence.names_something(&m.subject.summary)
    {
        tool_summary(
            &mut m,
            "the model's summary names only the staged paths".to_owned(),
        );
    }
    let words = match (c.keep, c.intent) {
        (Some(keep), _) => Words::Keep(keep),
        // The intent is the why of the tool's bullets: kept as the body.
        (None, Some(intent)) if tool_bullet => Words::Keep(intent),
        _ => Words::None,
    };
    let mut text = render(m.clone(), c.conv, words);
    let mut gate = quality::check_draft(&text, evidence);
    // A summary the gate refuses: the tool's, where it has one, not a second request.
    if let Some(f) = gate.iter().find(|f| f.line == 1)
        && tool_summary(
            &mut m,
            format!(
                "the model's summary failed the draft-quality gate: {}",
                f.message()
            ),
        )
    {
        text = render(m, c.conv, words);
        gate = quality::check_draft(&text, evidence);
    }
    let mut findings = rules::check(&text, c.conv, Some(c.paths));
    // The `<why?>` of the tool's bullets is the user's to fill, as in the offline draft.
    findings.retain(
        |f| !matches!(&f.problem, Problem::Placeholder(p) if p.text.contains(WHY_PLACEHOLDER)),
    );
    let gate_failed = !gate.is_empty();
    findings.extend(gate);
    if findings.is_empty() {
        return Ok(Accepted { text, tool_words });
    }
    Err(Rejected {
        problems: findings
            .iter()
            .take(10)
            .map(|f| match f.hint() {
                Some(h) => format!("{}: {} ({h})", f.rule(), f.message()),
                None => format!("{}: {}", f.rule(), f.message()),
            })
            .collect(),
        gate_failed,
    })
}

/// A bullet in the tool's words: what the tool knows of its path, and the
/// `<why?>` nobody filled; with the user's intent, which is the why, no placeholder.
pub fn tool_bullet_words(tool_words: &str, intent: Option<&str>) -> String {
    match intent.filter(|i| !i.trim().is_empty()) {
        Some(_) => tool_words.to_owned(),
        None => format!("{tool_words}; {WHY_PLACEHOLDER}"),
    }
}
