//! Body rules: the blank line after the subject, and the bullets a
//! `body = "required"` convention asks for.

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

pub(crate) fn check(ctx: &Ctx<'_>, out: &mut Vec<Finding>) {
    let parsed = &ctx.parsed;
    if let Some(pos) = parsed.missing_blank_line {
        out.push(Finding::new(
            &BODY_BLANK_LINE,
            pos,
            "line 2 is not blank: a blank line separates the subject from the body",
            Some("insert an empty line after the subject".to_string()),
        ));
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
    if prose_only {
        let verb = ctx.conv.verbs.first().map_or("Update", String::as_str);
        out.push(Finding::new(
            &BODY_MISSING,
            parsed.body.first().map_or(Pos::new(2, 1), |item| match item {
                BodyItem::Prose(p) => p.pos,
                BodyItem::Bullet(b) => b.pos,
            }),
            "the body is prose with no bullet; the convention fitted to this project's history, which has no such body, takes a subject alone or bullets",
            Some(format!(
                "drop the body, or write \"- {verb}: path — what and why\" for each change (a convention file with body = \"optional\" or \"free\" takes prose)"
            )),
        ));
    }
    if ctx.conv.body == BodyPolicy::Required && !has_bullet {
        let pos = match parsed.body.first() {
            Some(BodyItem::Prose(p)) => p.pos,
            Some(BodyItem::Bullet(b)) => b.pos,
            None => Pos::new(1, parsed.subject.raw.chars().count() + 1),
        };
        let verb = ctx.conv.verbs.first().map_or("Update", String::as_str);
        out.push(Finding::new(
            &BODY_MISSING,
            pos,
            "the body has no bullets; this convention asks for one per changed path",
            Some(format!(
                "after a blank line, add \"- {verb}: path — what and why\" for each change"
            )),
        ));
    }
}
