//! Arbitrary model strings through the renderer: whatever the type, scope, summary,
//! verbs, paths and what-and-why hold, the rendered message is a subject line and
//! bullet lines only — no value starts a line of its own (no forged trailer, comment
//! or scissors line), and no control or line-separator character is written.
#![no_main]

use jitcommit_core::message::{Bullet, Message, Subject, Target, render_wrapped};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut parts = text.split('\u{1}').map(str::to_owned);
    let mut next = || parts.next().unwrap_or_default();
    let subject = Subject {
        kind: format!("feat{}", next()),
        scope: Some(next()).filter(|s| !s.is_empty()),
        breaking: data.first().is_some_and(|b| b & 1 == 1),
        summary: next(),
    };
    let mut bullets = Vec::new();
    for _ in 0..3 {
        let (verb, path, what_why) = (next(), next(), next());
        let target = if path.contains('>') {
            Target::Move {
                from: path.clone(),
                to: what_why.clone(),
            }
        } else {
            Target::Path(path)
        };
        bullets.push(Bullet {
            verb: format!("Add{verb}"),
            target,
            what_why,
        });
    }
    let m = Message {
        subject,
        prose: Vec::new(),
        bullets,
        trailers: Vec::new(),
    };
    for width in [0, 1, 20, 72] {
        let out = render_wrapped(&m, width);
        for (i, line) in out.lines().enumerate() {
            assert!(
                !line.chars().any(|c| c.is_control()
                    || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')),
                "{out:?}"
            );
            let ok = i == 0 || line.is_empty() || line.starts_with("- ") || line.starts_with("  ");
            assert!(ok, "line {i} starts on its own: {line:?} in {out:?}");
        }
        assert!(out.starts_with("feat"), "{out:?}");
    }
});
