//! TODO(prompt)
