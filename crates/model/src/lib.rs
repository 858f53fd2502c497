//! jitcommit-model: the draft side's pieces the validator must not link —
//! exact BPE token counting and the model clients.

pub mod tokens;
