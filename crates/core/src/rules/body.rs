//! Body rules: the blank line after the subject, and the bullets a
//! `body = "required"` convention asks for.

use std::fmt;

use super::{Ctx, Finding, RuleInfo};
use crate::config::BodyPolicy;
use crate::message::{BodyItem, Pos};

#[doc = include_str!("docs/body-blank-line.md")]
pub const BODY_BLANK_LINE: RuleInfo = RuleInfo {
    id: "body-blank-line",
    summary: "a blank line separates the subject from the body",
    doc: include_str!("docs/body-blank-line.md"),
};

#[doc = include_str!("docs/body-missing.md")]
pub const BODY_MISSING: RuleInfo = RuleInfo {
    id: "body-missing",
    summary: "the body has bullets when the convention requires them",
    doc: include_str!("docs/body-missing.md"),
};

/// `body-blank-line`: line 2 is not blank.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BodyBlankLine;

impl fmt::Display for BodyBlankLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("line 2 is not blank: a blank line separates the subject from the body")
    }
}

impl BodyBlankLine {
    /// How to fix it.
    pub fn hint(&self) -> Option<String> {
        Some("insert an empty line after the subject".to_string())
    }
}

/// `body-missing`: the body has no bullet where the convention asks for them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BodyMissing {
    /// Prose and no bullet, under a convention fitted to a history with no prose body.
    ProseOnly {
        /// The verb the hint's example bullet starts with.
        verb: String,
    },
    /// No bullet under `body = "required"`.
    NoBullets {
        /// The verb the hint's example bullet starts with.
        verb: String,
    },
}

impl fmt::Display for BodyMissing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BodyMissing::ProseOnly { .. } => {
                "the body is prose with no bullet; the convention fitted to this project's history, which has no such body, takes a subject alone or bullets"
            }
            BodyMissing::NoBullets { .. } => {
                "the body has no bullets; this convention asks for one per changed path"
            }
        })
    }
}

impl BodyMissing {
    /// How to fix it.
    pub fn hint(&self) -> Option<String> {
        Some(match self {
            BodyMissing::ProseOnly { verb } => format!(
                "drop the body, or write \"- {verb}: path — what and why\" for each change (a convention file with body = \"optional\" or \"free\" takes prose)"
            ),
            BodyMissing::NoBullets { verb } => {
                format!("after a blank line, add \"- {verb}: path — what and why\" for each change")
            }
        })
    }
}

pub(crate) fn check(ctx: &Ctx<'_>, out: &mut Vec<Finding>) {
    let parsed = &ctx.parsed;
    if let Some(pos) = parsed.missing_blank_line {
        out.push(Finding::new(pos, BodyBlankLine));
    }
    let has_bullet = parsed
        .body
        .iter()
        .any(|item| matches!(item, BodyItem::Bullet(_)));
    let prose_only = !has_bullet
        && !ctx.conv.body_prose
        && ctx.conv.body == BodyPolicy::Optional
        && parsed
            .body
            .iter()
            .any(|item| matches!(item, BodyItem::Prose(_)));
    let verb = || {
        ctx.conv
            .verbs
            .first()
            .map_or("Update", String::as_str)
            .to_owned()
    };
    if prose_only {
        out.push(Finding::new(
            parsed
                .body
                .first()
                .map_or(Pos::new(2, 1), |item| match item {
                    BodyItem::Prose(p) => p.pos,
                    BodyItem::Bullet(b) => b.pos,
                }),
            BodyMissing::ProseOnly { verb: verb() },
        ));
    }
    if ctx.conv.body == BodyPolicy::Required && !has_bullet {
        let pos = match parsed.body.first() {
            Some(BodyItem::Prose(p)) => p.pos,
            Some(BodyItem::Bullet(b)) => b.pos,
            None => Pos::new(1, parsed.subject.raw.chars().count() + 1),
        };
        out.push(Finding::new(pos, BodyMissing::NoBullets { verb: verb() }));
    }
}
