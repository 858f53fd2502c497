//! The rules: each check with a stable kebab-case id; findings are data.
