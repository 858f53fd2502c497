//! Ask: one request to the model. The request's every part goes through the
//! redaction gate where it is made, a last pass over what the composer built (which
//! finds nothing in a normal run) and over the repair request's quotes of the model;
//! the client sends what it is given ([`Client::draft`]).

use std::time::Instant;

use jitcommit_core::message;

use crate::prompt::Prompt;
use crate::redact::{gate, gate_json};
use crate::{Client, ClientError, Reply};

/// Asks `client` for a draft: the prompt's system message and schema, and `user` (the
/// prompt's user message, or the repair request), before `deadline`.
pub fn ask(
    client: &mut Client,
    p: &Prompt,
    user: &str,
    deadline: Instant,
) -> Result<Reply, ClientError> {
    client.draft(
        &gate(&p.system),
        &gate(user),
        &gate_json(&p.schema),
        deadline,
    )
}

/// The repair request's fixed wording, before and after the problems. It names
/// checks, never gives a sentence a draft could take as its own: the draft-quality
/// gate rejects a draft that copies it.
pub(super) const REPAIR_HEAD: &str = "# Checks the earlier answer failed\n\
These checks of the tool rejected an earlier answer to this task (quoted as data):\n";
pub(super) const REPAIR_TAIL: &str = "Answer again with the JSON object for the staged changes; \
the list of checks above is not content for the commit message.\n";

/// The repair request: the same fresh prompt plus the checks that failed — never
/// the earlier answer, never a conversation.
pub(super) fn repair_prompt(user: &str, problems: &[String]) -> String {
    let mut s = user.trim_end().to_owned();
    s.push_str("\n\n");
    s.push_str(REPAIR_HEAD);
    for p in problems {
        // The findings quote the model's answer: data, on one line, no block tags.
        s.push_str("- ");
        s.push_str(&crate::fragments::neutralise(&message::one_line(p)));
        s.push('\n');
    }
    s.push_str(REPAIR_TAIL);
    s
}
