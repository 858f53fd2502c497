//! The encoding rule: a message is UTF-8 without NUL bytes. [`decode`] turns raw
//! bytes into text or a finding at the first bad byte. A stored commit whose `encoding`
//! header names another encoding is judged as git presents it
//! ([`crate::gitenv::as_git_shows`]): the message decoded from that encoding, or, when
//! this tool cannot decode it, a finding ([`undecodable`]) rather than a verdict on bytes
//! nobody sees.

use std::fmt;

use super::{Finding, RuleInfo};
use crate::message::Pos;

#[doc = include_str!("docs/message-encoding.md")]
pub const MESSAGE_ENCODING: RuleInfo = RuleInfo {
    id: "message-encoding",
    summary: "the message is UTF-8 without NUL bytes",
    doc: include_str!("docs/message-encoding.md"),
};

/// `message-encoding`: the message is not UTF-8, holds a NUL byte, or is stored in an
/// encoding this tool cannot decode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MessageEncoding {
    /// A byte that is not UTF-8.
    NotUtf8 {
        /// The first such byte.
        byte: u8,
    },
    /// A NUL byte.
    Nul,
    /// The commit's `encoding` header names an encoding this tool cannot decode.
    Undecodable {
        /// The encoding's name, without control characters, at most 64 chars.
        name: String,
    },
}

impl fmt::Display for MessageEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MessageEncoding::NotUtf8 { byte } => {
                write!(f, "the message is not valid UTF-8 (byte 0x{byte:02x})")
            }
            MessageEncoding::Nul => f.write_str("the message contains a NUL byte"),
            MessageEncoding::Undecodable { name } => write!(
                f,
                "the commit's encoding header names {name:?}, which jitcommit cannot decode: \
                 git shows the message re-encoded from it, not as stored"
            ),
        }
    }
}

impl MessageEncoding {
    /// How to fix it.
    pub fn hint(&self) -> Option<String> {
        Some(match self {
            MessageEncoding::NotUtf8 { .. } => {
                "save the message as UTF-8 (or set i18n.commitEncoding for another encoding)"
                    .to_string()
            }
            MessageEncoding::Nul => {
                "remove the NUL byte; git does not allow it in a commit message".to_string()
            }
            MessageEncoding::Undecodable { .. } => {
                "write the message in UTF-8 (unset i18n.commitEncoding) or in an encoding \
                 such as ISO-8859-1, Shift_JIS or GBK, and amend the commit"
                    .to_string()
            }
        })
    }
}

/// The message as text, or a `message-encoding` finding at the first byte that is
/// not UTF-8 or is NUL.
pub fn decode(raw: &[u8]) -> Result<&str, Finding> {
    match std::str::from_utf8(raw) {
        Ok(text) => match text.find('\0') {
            Some(at) => Err(nul_finding(text, at)),
            None => Ok(text),
        },
        Err(e) => {
            let valid = e.valid_up_to();
            let prefix = String::from_utf8_lossy(&raw[..valid]);
            let pos = position(&prefix, prefix.len());
            let byte = raw.get(valid).copied().unwrap_or(0);
            Err(Finding::new(pos, MessageEncoding::NotUtf8 { byte }))
        }
    }
}

/// Adds a finding for the first NUL in `text`.
pub(crate) fn check_nul(text: &str, out: &mut Vec<Finding>) {
    if let Some(at) = text.find('\0') {
        out.push(nul_finding(text, at));
    }
}

fn nul_finding(text: &str, at: usize) -> Finding {
    Finding::new(position(text, at), MessageEncoding::Nul)
}

/// Line and char column of byte `at` of `text`.
fn position(text: &str, at: usize) -> Pos {
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    Pos::new(line, before[line_start..].chars().count() + 1)
}

/// The `message-encoding` finding for a stored commit whose `encoding` header names an
/// encoding this tool cannot decode (`encoding IBM037`): git shows its message
/// re-encoded from that encoding, which no verdict on the stored bytes describes.
pub fn undecodable(name: &str) -> Finding {
    let name: String = name.chars().filter(|c| !c.is_control()).take(64).collect();
    Finding::new(Pos::new(1, 1), MessageEncoding::Undecodable { name })
}
