//! Arbitrary repository text through the GitHub log formatter (`--format github`): a
//! line made inert never starts (after blanks) with `::`, never holds `##[` or a control
//! character; a command field holds no CR, LF, `##[` or control character, every `%` is
//! one of the escapes, and a property field no raw `:` or `,` either. So
//! `::error title=RULE,file=FIELD::FIELD` stays one command the tool wrote.
#![no_main]

use jitcommit_core::workflow::{command_data, command_property, inert_line};
use libfuzzer_sys::fuzz_target;

fn escapes_ok(v: &str, property: bool) -> bool {
    v.match_indices('%').all(|(i, _)| {
        let esc = &v[i..];
        ["%25", "%0D", "%0A", "%3A", "%2C"]
            .iter()
            .any(|e| esc.starts_with(e) && (property || !matches!(*e, "%3A" | "%2C")))
    })
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for line in text.split('\n') {
        let l = inert_line(line);
        assert!(!l.trim_start().starts_with("::"), "{l:?}");
        assert!(!l.contains("##["), "{l:?}");
        assert!(!l.chars().any(char::is_control), "{l:?}");
    }
    let d = command_data(&text);
    assert!(!d.contains("##[") && !d.chars().any(char::is_control), "{d:?}");
    assert!(escapes_ok(&d, false), "{d:?}");
    let p = command_property(&text);
    assert!(!p.contains([':', ',']) && !p.contains("##["), "{p:?}");
    assert!(!p.chars().any(char::is_control) && escapes_ok(&p, true), "{p:?}");
    let cmd = format!("::error title=rule,file={p}::{d}");
    assert_eq!(cmd.lines().count(), 1, "{cmd:?}");
});
