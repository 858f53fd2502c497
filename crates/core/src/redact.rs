//! TODO(redact)
