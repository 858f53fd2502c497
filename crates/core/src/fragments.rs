//! TODO(fragments)
