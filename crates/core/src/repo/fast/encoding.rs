//! Gain: not speed but git's own reading. git finds a commit's `encoding` header as its
//! `find_commit_header` does (commit.c): the first header line named so, wherever it
//! stands among the headers, its first line only. gix's parser reads an `encoding`
//! token only right after the committer, anything later as an extra header (a
//! multi-line one unfolded), and nothing past a header it cannot parse; a message
//! would then be shown in another encoding than `git log` shows it in. Not measured
//! against gix: it reads a few lines of bytes already in memory.
//! Guard: `repo/commit_tests.rs`, against `git log --format=%e` on commits git wrote
//! (an ISO-8859-1 `encoding` header; none on merges, `gpgsig` and `mergetag` commits).
//! Waits for: a gix lookup of a header by name as git's `find_commit_header` reads it.
//!
//! The `encoding` header of a commit, read by hand, for the message read
//! (`repo/commits.rs`): the name under which git shows the message.

/// The value of the `encoding` header of commit `data` as git finds it (the first
/// header line named so; the headers end at the first empty line, and a continuation
/// line starts with a space and is no header of its own).
pub(in crate::repo) fn of_commit(data: &[u8]) -> Option<Vec<u8>> {
    for line in data.split(|&b| b == b'\n') {
        if line.is_empty() {
            return None;
        }
        if let Some(value) = line.strip_prefix(b"encoding ") {
            return Some(value.to_vec());
        }
    }
    None
}
