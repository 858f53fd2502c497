//! TODO(budget)
