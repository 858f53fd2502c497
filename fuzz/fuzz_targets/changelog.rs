//! Arbitrary commit text through the changelog's escaping, read back as a CommonMark
//! renderer reads it, inside a list item as the changelog writes one: no raw HTML, no
//! image, no link but to http(s), mailto or a relative path, and no `@name` in plain
//! text (a mention GitHub would ping).
#![no_main]

use jitcommit_core::changelog::{code_span, escape_text};
use libfuzzer_sys::fuzz_target;
use pulldown_cmark::{Event, Parser, Tag, TagEnd};

fn mention(text: &str) -> bool {
    let b = text.as_bytes();
    text.match_indices('@').any(|(i, _)| {
        let word = i
            .checked_sub(1)
            .is_some_and(|j| b[j].is_ascii_alphanumeric() || matches!(b[j], b'_' | b'/' | b'.'));
        !word && b.get(i + 1).is_some_and(u8::is_ascii_alphanumeric)
    })
}

fuzz_target!(|data: &[u8]| {
    let t = String::from_utf8_lossy(data);
    let md = format!(
        "- **{}:** {} (`abc`)\n  - Add {} — {}\n",
        escape_text(&t),
        escape_text(&t),
        code_span(&t),
        escape_text(&t)
    );
    let mut text = String::new();
    let mut in_block = false;
    for ev in Parser::new(&md) {
        match ev {
            Event::Start(Tag::CodeBlock(_)) => in_block = true,
            Event::End(TagEnd::CodeBlock) => in_block = false,
            Event::Text(s) if !in_block => {
                text.push_str(&s);
                continue;
            }
            Event::Html(h) | Event::InlineHtml(h) => panic!("html {h:?} in {md:?}"),
            Event::Start(Tag::Image { .. }) => panic!("image in {md:?}"),
            Event::Start(Tag::Link { dest_url, .. }) => {
                let d = dest_url.to_ascii_lowercase();
                let scheme = d
                    .split_once(':')
                    .is_some_and(|(s, _)| !s.contains(['/', '?', '#']));
                assert!(
                    !scheme
                        || d.starts_with("http://")
                        || d.starts_with("https://")
                        || d.starts_with("mailto:"),
                    "link {dest_url:?} in {md:?}"
                );
            }
            _ => {}
        }
        assert!(!mention(&text), "mention in {text:?} of {md:?}");
        text.clear();
    }
    assert!(!mention(&text), "mention in {text:?} of {md:?}");
});
