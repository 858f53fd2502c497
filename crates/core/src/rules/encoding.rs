//! The encoding rule: a message is UTF-8 without NUL bytes. [`decode`] turns raw
//! bytes into text or a finding at the first bad byte. A stored commit whose `encoding`
//! header names another encoding is judged as git presents it ([`as_git_shows`]): the
//! message decoded from that encoding, or, when this tool cannot decode it, a finding
//! ([`undecodable`]) rather than a verdict on bytes nobody sees.

use std::borrow::Cow;

use super::{Finding, RuleInfo};
use crate::message::Pos;

#[doc = include_str!("docs/message-encoding.md")]
pub const MESSAGE_ENCODING: RuleInfo = RuleInfo {
    id: "message-encoding",
    summary: "the message is UTF-8 without NUL bytes",
    doc: include_str!("docs/message-encoding.md"),
};

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
            Err(Finding::new(
                &MESSAGE_ENCODING,
                pos,
                format!("the message is not valid UTF-8 (byte 0x{byte:02x})"),
                Some(
                    "save the message as UTF-8 (or set i18n.commitEncoding for another encoding)"
                        .to_string(),
                ),
            ))
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
    Finding::new(
        &MESSAGE_ENCODING,
        position(text, at),
        "the message contains a NUL byte",
        Some("remove the NUL byte; git does not allow it in a commit message".to_string()),
    )
}

/// Line and char column of byte `at` of `text`.
fn position(text: &str, at: usize) -> Pos {
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    Pos::new(line, before[line_start..].chars().count() + 1)
}

/// A commit message as git presents it (`git log`, `git show`: re-encoded from the
/// commit's `encoding` header to UTF-8), from its stored bytes `raw` and that header's
/// value: `Ok` with the text's bytes (unchanged when there is no header, it names
/// UTF-8, or the bytes do not decode, where git too shows them as stored), or
/// `Err(name)` when the header names an encoding this tool cannot decode.
pub fn as_git_shows<'a>(raw: &'a [u8], encoding: Option<&[u8]>) -> Result<Cow<'a, [u8]>, String> {
    let Some(label) = encoding else {
        return Ok(Cow::Borrowed(raw));
    };
    let name = String::from_utf8_lossy(label).trim().to_owned();
    let lower = name.to_ascii_lowercase();
    // git's `is_encoding_utf8`.
    if lower == "utf-8" || lower == "utf8" {
        return Ok(Cow::Borrowed(raw));
    }
    // iconv's ISO-8859-1 maps every byte to the code point of its value; the WHATWG
    // label of that name is windows-1252, which differs at 0x80..=0x9f.
    if matches!(
        lower.as_str(),
        "iso-8859-1" | "iso8859-1" | "iso_8859-1" | "latin1" | "latin-1" | "l1"
    ) {
        return Ok(Cow::Owned(
            raw.iter()
                .map(|&b| char::from(b))
                .collect::<String>()
                .into_bytes(),
        ));
    }
    let Some(enc) = encoding_rs::Encoding::for_label_no_replacement(name.as_bytes()) else {
        return Err(name);
    };
    if enc == encoding_rs::UTF_8 || enc == encoding_rs::UTF_16LE || enc == encoding_rs::UTF_16BE {
        // UTF-16 cannot hold a commit message git wrote (every other byte a NUL).
        return match enc == encoding_rs::UTF_8 {
            true => Ok(Cow::Borrowed(raw)),
            false => Err(name),
        };
    }
    match enc.decode_without_bom_handling_and_without_replacement(raw) {
        Some(text) => Ok(Cow::Owned(text.into_owned().into_bytes())),
        None => Ok(Cow::Borrowed(raw)),
    }
}

/// The `message-encoding` finding for a stored commit whose `encoding` header names an
/// encoding this tool cannot decode (`encoding IBM037`): git shows its message
/// re-encoded from that encoding, which no verdict on the stored bytes describes.
pub fn undecodable(name: &str) -> Finding {
    let name: String = name.chars().filter(|c| !c.is_control()).take(64).collect();
    Finding::new(
        &MESSAGE_ENCODING,
        Pos::new(1, 1),
        format!(
            "the commit's encoding header names {name:?}, which jitcommit cannot decode: \
             git shows the message re-encoded from it, not as stored"
        ),
        Some(
            "write the message in UTF-8 (unset i18n.commitEncoding) or in an encoding \
             such as ISO-8859-1, Shift_JIS or GBK, and amend the commit"
                .to_string(),
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::as_git_shows;

    #[test]
    fn messages_read_as_git_presents_them() {
        let utf8 = "fix: café\n".as_bytes();
        assert_eq!(as_git_shows(utf8, None).unwrap(), utf8);
        assert_eq!(as_git_shows(utf8, Some(b"UTF-8")).unwrap(), utf8);
        assert_eq!(as_git_shows(utf8, Some(b"utf8")).unwrap(), utf8);
        // Latin-1 bytes, decoded by code point (0x80..=0x9f included).
        assert_eq!(
            as_git_shows(b"fix: caf\xe9 \x85\n", Some(b"ISO-8859-1")).unwrap(),
            "fix: café \u{85}\n".as_bytes()
        );
        assert_eq!(
            as_git_shows(b"fix: \x82\xa0\n", Some(b"Shift_JIS")).unwrap(),
            "fix: あ\n".as_bytes()
        );
        // Bytes that do not decode are shown as stored, as git shows them.
        assert_eq!(
            as_git_shows(b"fix: \x82\n", Some(b"Shift_JIS")).unwrap(),
            &b"fix: \x82\n"[..]
        );
        for name in ["IBM037", "EBCDIC-US", "UTF-16", "no-such-encoding", ""] {
            assert_eq!(
                as_git_shows(b"fix: x\n", Some(name.as_bytes())),
                Err(name.to_owned()),
                "{name}"
            );
        }
    }
}
