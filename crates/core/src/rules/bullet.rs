//! Bullet rules: each `- Verb: path — what and why` line's shape, verb and
//! separator (the path itself is checked by [`super::paths`]).

use std::fmt;

use super::{Ctx, Finding, Problem, RuleInfo, nearest, nearest_hint, not_allowed};
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

/// `bullet-format`: a bullet is not `- Verb: path — what and why`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BulletFormat {
    /// No space after the `-`.
    MissingSpace,
    /// No `Verb: ` after `- `.
    MissingVerb {
        /// The verb the hint's example bullet starts with.
        verb: String,
    },
    /// No path after `Verb: `.
    MissingPath,
    /// Nothing after the separator.
    EmptyDescription {
        /// `strict-separator` is on (the hint names ` — ` alone).
        strict: bool,
    },
}

impl fmt::Display for BulletFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BulletFormat::MissingSpace => "a bullet starts with \"- \"",
            BulletFormat::MissingVerb { .. } => "expected \"Verb: \" after \"- \"",
            BulletFormat::MissingPath => "the bullet names no path",
            BulletFormat::EmptyDescription { .. } => "nothing after the separator",
        })
    }
}

impl BulletFormat {
    /// How to fix it.
    pub fn hint(&self) -> Option<String> {
        Some(match self {
            BulletFormat::MissingSpace => "put a space after the \"-\"".to_string(),
            BulletFormat::MissingVerb { verb } => {
                format!("write \"- {verb}: path — what and why\"")
            }
            BulletFormat::MissingPath => "name the changed path after \"Verb: \"".to_string(),
            BulletFormat::EmptyDescription { strict: true } => {
                "say what changed and why after \" — \"".to_string()
            }
            BulletFormat::EmptyDescription { strict: false } => {
                "say what changed and why after \" — \" (or \" -- \")".to_string()
            }
        })
    }
}

/// `bullet-verb`: a bullet's verb is not one the convention allows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BulletVerb {
    /// The verb as written.
    pub verb: String,
    /// The convention's verbs.
    pub allowed: Vec<String>,
    /// The allowed verb it is closest to ([`nearest`]), if any.
    pub nearest: Option<String>,
}

impl fmt::Display for BulletVerb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        not_allowed(f, &self.verb, "verb", &self.allowed)
    }
}

impl BulletVerb {
    /// How to fix it.
    pub fn hint(&self) -> Option<String> {
        Some(nearest_hint(
            self.nearest.as_deref(),
            "pick the allowed verb that fits",
        ))
    }
}

/// `bullet-separator`: a bullet's separator (or rename arrow) is not one the
/// convention accepts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BulletSeparator {
    /// No ` — ` between the path and the description.
    Missing {
        /// `strict-separator` is on (the hint names ` — ` alone).
        strict: bool,
    },
    /// ` -- ` under `strict-separator`.
    DoubleHyphen,
    /// A dash that looks like the separator and is not it.
    Lookalike {
        /// `strict-separator` is on (the hint names ` — ` alone).
        strict: bool,
    },
    /// `->` under `strict-separator`.
    AsciiArrow,
}

impl fmt::Display for BulletSeparator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BulletSeparator::Missing { .. } => "no \" — \" between the path and the description",
            BulletSeparator::DoubleHyphen => {
                "\"--\" is not accepted as the separator (strict-separator is on)"
            }
            BulletSeparator::Lookalike { .. } => "this dash is not the separator \" — \" (em dash)",
            BulletSeparator::AsciiArrow => {
                "\"->\" is not accepted as the arrow (strict-separator is on)"
            }
        })
    }
}

impl BulletSeparator {
    /// How to fix it: every separator the convention accepts, canonical first.
    pub fn hint(&self) -> Option<String> {
        Some(match self {
            BulletSeparator::Missing { strict: true }
            | BulletSeparator::Lookalike { strict: true }
            | BulletSeparator::DoubleHyphen => {
                "use \" — \" (em dash) between the path and the description".to_string()
            }
            BulletSeparator::Missing { strict: false }
            | BulletSeparator::Lookalike { strict: false } => {
                "use \" — \" (em dash) or \" -- \" between the path and the description".to_string()
            }
            BulletSeparator::AsciiArrow => {
                "use \" → \" between the old and the new path".to_string()
            }
        })
    }
}

pub(crate) fn check(ctx: &Ctx<'_>, out: &mut Vec<Finding>) {
    let conv = ctx.conv;
    if conv.body == BodyPolicy::Free {
        return;
    }
    let strict = conv.strict_separator;
    let verb_example = conv.verbs.first().map_or("Update", String::as_str);
    for b in ctx.parsed.bullets() {
        if let Some(err) = &b.error {
            let problem: Problem = match err.value {
                BulletError::MissingSpace => BulletFormat::MissingSpace.into(),
                BulletError::MissingVerb => BulletFormat::MissingVerb {
                    verb: verb_example.to_owned(),
                }
                .into(),
                BulletError::MissingPath => BulletFormat::MissingPath.into(),
                BulletError::EmptyDescription => BulletFormat::EmptyDescription { strict }.into(),
                BulletError::MissingSeparator => BulletSeparator::Missing { strict }.into(),
            };
            out.push(Finding::new(err.pos, problem));
        }
        if let Some(verb) = &b.verb
            && !conv.verbs.contains(&verb.value)
        {
            out.push(Finding::new(
                verb.pos,
                BulletVerb {
                    verb: verb.value.clone(),
                    allowed: conv.verbs.clone(),
                    nearest: nearest(&verb.value, &conv.verbs).map(str::to_owned),
                },
            ));
        }
        if let Some(sep) = &b.separator {
            match sep.value {
                Separator::EmDash => {}
                Separator::DoubleHyphen if !strict => {}
                Separator::DoubleHyphen => {
                    out.push(Finding::new(sep.pos, BulletSeparator::DoubleHyphen));
                }
                Separator::Lookalike => {
                    out.push(Finding::new(sep.pos, BulletSeparator::Lookalike { strict }));
                }
            }
        }
        if let Some(arrow) = &b.arrow
            && arrow.value == Arrow::Ascii
            && strict
        {
            out.push(Finding::new(arrow.pos, BulletSeparator::AsciiArrow));
        }
    }
}
