//! Paths quoted as git prints them (`core.quotePath=true`), for status lines and diff
//! headers alike.

use gix::bstr::{BStr, ByteSlice};

/// Quotes `path` as git does with `core.quotePath=true`: unchanged when it is plain,
/// otherwise in double quotes with C escapes (`\t`, `\n`, `\"`, `\\`) and octal for
/// control bytes, DEL and every byte ≥ 0x80. `quote_space` is what `git status` adds: a
/// path with a space is quoted too (diff headers do not do that).
pub fn quote_path(path: &BStr, quote_space: bool) -> String {
    let needs = |b: u8| b < 0x20 || b == b'"' || b == b'\\' || b >= 0x7f;
    if !path.iter().any(|&b| needs(b) || (quote_space && b == b' ')) {
        return path.to_str_lossy().into_owned();
    }
    let mut out = String::from("\"");
    for &b in path.iter() {
        match b {
            0x07 => out.push_str("\\a"),
            0x08 => out.push_str("\\b"),
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            0x0b => out.push_str("\\v"),
            0x0c => out.push_str("\\f"),
            b'\r' => out.push_str("\\r"),
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b if needs(b) => out.push_str(&format!("\\{b:03o}")),
            b => out.push(char::from(b)),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_matches_git() {
        let cases: &[(&[u8], bool, &str)] = &[
            (b"src/main.rs", true, "src/main.rs"),
            (b"a b", true, "\"a b\""),
            (b"a b", false, "a b"),
            (b"tab\there", false, "\"tab\\there\""),
            (b"q\"uote", false, "\"q\\\"uote\""),
            (b"back\\slash", false, "\"back\\\\slash\""),
            ("ü.txt".as_bytes(), false, "\"\\303\\274.txt\""),
            (b"\xff.bin", false, "\"\\377.bin\""),
            (b"del\x7f", false, "\"del\\177\""),
            (b"nl\n", false, "\"nl\\n\""),
        ];
        for (p, sp, want) in cases {
            assert_eq!(quote_path(p.as_bstr(), *sp), *want, "{:?}", p.as_bstr());
        }
    }
}
