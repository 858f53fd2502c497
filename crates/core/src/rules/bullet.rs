//! Bullet rules: each `- Verb: path — what and why` line's shape, verb and
//! separator (the path itself is checked by [`super::paths`]).

use super::{Ctx, Finding, RuleInfo, list, nearest};
use crate::config::BodyPolicy;
use crate::message::{Arrow, BulletError, Separator};

#[doc = include_str!("docs/bullet-format.md")]
pub const BULLET_FORMAT: RuleInfo = RuleInfo {
    id: "bullet-format",
    summary: "each bullet is `- Verb: path — what and why`",
    doc: include_str!("docs/bullet-format.md"),
};

#[doc = include_str!("docs/bullet-verb.md")]
pub const BULLET_VERB: RuleInfo = RuleInfo {
    id: "bullet-verb",
    summary: "each bullet's verb is one of the convention's verbs",
    doc: include_str!("docs/bullet-verb.md"),
};

#[doc = include_str!("docs/bullet-separator.md")]
pub const BULLET_SEPARATOR: RuleInfo = RuleInfo {
    id: "bullet-separator",
    summary: "\" — \" separates a bullet's path from its description",
    doc: include_str!("docs/bullet-separator.md"),
};

/// The separator hint, naming every form the convention accepts, canonical first.
fn separator_hint(strict: bool) -> String {
    if strict {
        "use \" — \" (em dash) between the path and the description".to_string()
    } else {
        "use \" — \" (em dash) or \" -- \" between the path and the description".to_string()
    }
}

pub(crate) fn check(ctx: &Ctx<'_>, out: &mut Vec<Finding>) {
    let conv = ctx.conv;
    if conv.body == BodyPolicy::Free {
        return;
    }
    let sep_hint = separator_hint(conv.strict_separator);
    let verb_example = conv.verbs.first().map_or("Update", String::as_str);
    for b in ctx.parsed.bullets() {
        if let Some(err) = &b.error {
            let (rule, message, hint) = match err.value {
                BulletError::MissingSpace => (
                    &BULLET_FORMAT,
                    "a bullet starts with \"- \"".to_string(),
                    "put a space after the \"-\"".to_string(),
                ),
                BulletError::MissingVerb => (
                    &BULLET_FORMAT,
                    "expected \"Verb: \" after \"- \"".to_string(),
                    format!("write \"- {verb_example}: path — what and why\""),
                ),
                BulletError::MissingPath => (
                    &BULLET_FORMAT,
                    "the bullet names no path".to_string(),
                    "name the changed path after \"Verb: \"".to_string(),
                ),
                BulletError::EmptyDescription => (
                    &BULLET_FORMAT,
                    "nothing after the separator".to_string(),
                    if conv.strict_separator {
                        "say what changed and why after \" — \"".to_string()
                    } else {
                        "say what changed and why after \" — \" (or \" -- \")".to_string()
                    },
                ),
                BulletError::MissingSeparator => (
                    &BULLET_SEPARATOR,
                    "no \" — \" between the path and the description".to_string(),
                    sep_hint.clone(),
                ),
            };
            out.push(Finding::new(rule, err.pos, message, Some(hint)));
        }
        if let Some(verb) = &b.verb
            && !conv.verbs.contains(&verb.value)
        {
            let hint = match nearest(&verb.value, &conv.verbs) {
                Some(n) => format!("write \"{n}\""),
                None => "pick the allowed verb that fits".to_string(),
            };
            out.push(Finding::new(
                &BULLET_VERB,
                verb.pos,
                format!(
                    "\"{}\" is not an allowed verb (allowed: {})",
                    verb.value,
                    list(&conv.verbs, 12)
                ),
                Some(hint),
            ));
        }
        if let Some(sep) = &b.separator {
            match sep.value {
                Separator::EmDash => {}
                Separator::DoubleHyphen if !conv.strict_separator => {}
                Separator::DoubleHyphen => out.push(Finding::new(
                    &BULLET_SEPARATOR,
                    sep.pos,
                    "\"--\" is not accepted as the separator (strict-separator is on)",
                    Some(sep_hint.clone()),
                )),
                Separator::Lookalike => out.push(Finding::new(
                    &BULLET_SEPARATOR,
                    sep.pos,
                    "this dash is not the separator \" — \" (em dash)",
                    Some(sep_hint.clone()),
                )),
            }
        }
        if let Some(arrow) = &b.arrow
            && arrow.value == Arrow::Ascii
            && conv.strict_separator
        {
            out.push(Finding::new(
                &BULLET_SEPARATOR,
                arrow.pos,
                "\"->\" is not accepted as the arrow (strict-separator is on)",
                Some("use \" → \" between the old and the new path".to_string()),
            ));
        }
    }
}
