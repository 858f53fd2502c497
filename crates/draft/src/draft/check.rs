//! Check: the model's answer against what the tool decided, the convention's rules
//! and the draft-quality gate. A small model's type, breaking note and summary give
//! way to the tool's, a bullet whose words fail the gate to the tool's words; the
//! message is then rendered ([`super::render`]) and the text checked.

use jitcommit_core::config::Convention;
use jitcommit_core::rules::{self, ChangedPaths};

use super::render::{Words, render};
use crate::quality::{self, Evidence};
use crate::structure::Structure;

/// What an answer is checked against.
pub struct Checker<'a> {
    /// The tool's part of the draft.
    pub structure: &'a Structure,
    /// The guards call the model small ([`crate::guards::Guards::small`]).
    pub small: bool,
    /// What the draft-quality gate reads a draft against.
    pub evidence: &'a Evidence<'a>,
    /// The repository's convention.
    pub conv: &'a Convention,
    /// The staged paths the rules check bullets against.
    pub paths: &'a ChangedPaths,
    /// The user's own `-m` words, kept as the body.
    pub keep: Option<&'a str>,
    /// Where the checks' choices go (`JITCOMMIT_DEBUG`).
    pub debug: &'a dyn Fn(&str),
}

/// A draft the checks accept.
pub struct Accepted {
    /// The rendered text.
    pub text: String,
    /// Bullets whose words are the tool's: the model's failed the gate.
    pub tool_bullets: usize,
}

/// Why the checks refused an answer.
pub struct Rejected {
    /// The problems, as the repair request names them.
    pub problems: Vec<String>,
    /// The draft-quality gate was among the checks that refused it.
    pub gate_failed: bool,
}

/// Checks the model's answer `content`.
pub fn check(content: &str, c: &Checker<'_>) -> Result<Accepted, Rejected> {
    let (structure, evidence, debug) = (c.structure, c.evidence, c.debug);
    let rejected = |problems| Rejected {
        problems,
        gate_failed: false,
    };
    // A small model's type and breaking note are not taken: the tool's are
    // (Structure::with_tool_choices); nor its summary (below).
    let json = crate::parse_answer(content)
        .map(|json| {
            if c.small {
                structure.with_tool_choices(&json)
            } else {
                json
            }
        })
        .map_err(|e| {
            rejected(vec![format!(
                "the answer is not the JSON object asked for: {e}"
            )])
        })?;
    let mut m = structure.assemble(c.conv, &json).map_err(rejected)?;
    // A bullet whose words fail the gate says what the tool knows of its
    // path instead: a mechanical fix, not a reason to ask again.
    let mut tool_bullets = 0;
    for (b, fixed) in m.bullets.iter_mut().zip(&structure.bullets) {
        if let Some(why) = quality::bullet_problem(&b.what_why, evidence)
            && !fixed.tool_words.is_empty()
        {
            debug(&format!("jitcommit-draft: the tool's words: {why}"));
            b.what_why = fixed.tool_words.clone();
            tool_bullets += 1;
        }
    }
    // The tool's summary replaces the summary of a model the guards call
    // small (Guards::small), and that of any model that names
    // nothing beyond the staged paths (`update src/cli.py`, `update
    // commitizen providers cargo_provider.py`) where the tool's names
    // the change; no second request. On the bench, a 0.5B model's
    // summaries shared fewer words with the human ones than the tool's,
    // a 135M model's far fewer (docs/benchmarks.md,
    // `draft-small-summary`): a small model may not make the subject
    // worse. The gate trusts the tool's summary as it trusts the tool's
    // bullets.
    if let Some(tool) = &structure.tool_summary
        && *tool != m.subject.summary
    {
        if c.small {
            debug(&format!(
                "jitcommit-draft: the tool's summary {tool:?} for a small model's {:?}",
                m.subject.summary
            ));
            m.subject.summary = tool.clone();
        } else if !evidence.names_something(&m.subject.summary) && evidence.names_something(tool) {
            debug(&format!(
                "jitcommit-draft: the tool's summary: {:?} names only paths",
                m.subject.summary
            ));
            m.subject.summary = tool.clone();
        }
    }
    let text = render(m, c.conv, c.keep.map_or(Words::None, Words::Keep));
    let mut findings = rules::check(&text, c.conv, Some(c.paths));
    let gate = quality::check_draft(&text, evidence);
    let gate_failed = !gate.is_empty();
    findings.extend(gate);
    if findings.is_empty() {
        return Ok(Accepted { text, tool_bullets });
    }
    Err(Rejected {
        problems: findings
            .iter()
            .take(10)
            .map(|f| match &f.hint {
                Some(h) => format!("{}: {} ({h})", f.rule, f.message),
                None => format!("{}: {}", f.rule, f.message),
            })
            .collect(),
        gate_failed,
    })
}
