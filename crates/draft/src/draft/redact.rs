//! Redact once: the staged change and the user's intent through the redaction gate
//! ([`crate::redact::gate_change`]) before anything is composed. What the composer
//! takes of the repository is what this returns; the gate's own module is the only
//! maker of its values.

use jitcommit_core::repo::{FileDiff, StagedState};

use crate::redact::{GatedChange, gate_change};

/// The change `state` (its names, headers and branch now, each file's hunk bodies as
/// the composer builds that file) and `intent` through the gate; a file left unread is
/// read with `read` when the composer may show it, and gated as it is read.
pub fn redact<'a>(
    state: &'a StagedState,
    intent: Option<&str>,
    read: &'a dyn Fn(usize) -> Option<FileDiff>,
) -> GatedChange<'a> {
    gate_change(state, intent, Some(read))
}
