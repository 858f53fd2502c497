//! TODO(offline)
