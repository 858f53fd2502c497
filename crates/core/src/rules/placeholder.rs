//! The placeholder rule: no unfilled template or draft placeholder (`<why?>`,
//! `<what and why>`, …) anywhere in the message.

use std::sync::LazyLock;

use regex::Regex;

use super::{Ctx, Finding, RuleInfo};
use crate::message::Pos;
use crate::message::parse::column;

/// What the offline draft writes where only the author knows the reason; the
/// validator rejects it (and every other `<…?>`), so a draft cannot be committed
/// unread.
pub const WHY_PLACEHOLDER: &str = "<why?>";

#[doc = include_str!("docs/placeholder.md")]
pub const PLACEHOLDER: RuleInfo = RuleInfo {
    id: "placeholder",
    summary: "no unfilled placeholder such as `<why?>` is left",
    doc: include_str!("docs/placeholder.md"),
};

static PATTERN: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        r"(?i)<(?:[^<>\n]{1,40}\?|type|scope|summary|description|verb|path|old|new|what and why|what_and_why|why|what breaks)>",
    )
    .ok()
});

pub(crate) fn check(ctx: &Ctx<'_>, out: &mut Vec<Finding>) {
    let Some(re) = PATTERN.as_ref() else { return };
    for (idx, line) in ctx.lines.iter().enumerate() {
        for m in re.find_iter(line) {
            out.push(Finding::new(
                &PLACEHOLDER,
                Pos::new(idx + 1, column(line, m.start())),
                format!("unfilled placeholder \"{}\"", m.as_str()),
                Some(if m.as_str() == WHY_PLACEHOLDER {
                    "replace it with the reason for the change".to_string()
                } else {
                    "replace the placeholder with the real text".to_string()
                }),
            ));
        }
    }
}
