//! The static-table cl100k_base path (`jitcommit_drafter::cl100k`) gives tiktoken's
//! exact ids on any text, ASCII or not (letters of every script, digits beyond ASCII,
//! CJK, emoji, combining marks), and declines (`None`) only an over-long pretoken.

use jitcommit_drafter::cl100k;
use jitcommit_drafter::prompt;
use proptest::prelude::*;

fn tiktoken(t: &str) -> Vec<u32> {
    tiktoken_rs::cl100k_base_singleton().encode_ordinary(t)
}

#[test]
fn every_token_of_the_vocabulary_has_its_rank() {
    let bpe = &bpe_openai::cl100k_base().bpe;
    assert_eq!(bpe.num_tokens(), 100_256);
    for id in 0..bpe.num_tokens() {
        let id = u32::try_from(id).unwrap();
        assert_eq!(cl100k::rank(bpe.token_bytes(id)), Some(id), "token {id}");
    }
    assert_eq!(cl100k::rank(b""), None);
    assert_eq!(cl100k::rank(b"not one token at all"), None);
    assert_eq!(cl100k::rank(&[b'a'; 300]), None);
}

/// The vocabulary's tokens by their bytes, as bpe-openai lists them.
fn vocabulary() -> &'static std::collections::HashMap<Vec<u8>, u32> {
    static V: std::sync::OnceLock<std::collections::HashMap<Vec<u8>, u32>> =
        std::sync::OnceLock::new();
    V.get_or_init(|| {
        let bpe = &bpe_openai::cl100k_base().bpe;
        (0u32..)
            .take(bpe.num_tokens())
            .map(|id| (bpe.token_bytes(id).to_vec(), id))
            .collect()
    })
}

#[test]
fn same_ids_as_tiktoken_on_the_prompt_texts() {
    let diff: String = (0..400)
        .map(|i| format!("+    let v{i} = compute({}, {});\n", i % 97, i % 89))
        .collect();
    let texts = [
        String::new(),
        "hello world".into(),
        "  leading spaces\n\n\ntrailing   \n".into(),
        "CRLF line\r\nnext\r\n".into(),
        "'s 're 've 'll 'd I'M YOU'RE we'Ve they'LL it'S 'x ''s '".into(),
        "\t\t\tindent\n \n  \n\x0b\x0c \u{a0}x\u{2028}y\u{2003}".into(),
        "a — b → c … “quoted” ‘single’ × ÷ ≤ ≥ ¡¿ §¶ • ─┼─".into(),
        "12345678901 x1y22z333 0x1F 3.14159 -42 1e10".into(),
        "<evidence source=\"git diff --cached -- a.rs\" trimmed=\"no\">\n</evidence>\n\n".into(),
        "{\"additionalProperties\":false,\"enum\":[\"src\",\"src/m0/f0.rs\"]}\n".into(),
        "    \n\n    }\n}\n\n\n    fn x() {}   ".into(),
        " !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~ \t!!\n??\r\n".into(),
        prompt::CORE_INSTRUCTIONS.into(),
        diff,
        "x".repeat(cl100k::MAX_PIECE),
        format!("{}x", " ".repeat(cl100k::MAX_PIECE)),
        "-".repeat(cl100k::MAX_PIECE),
    ];
    for t in &texts {
        let ours = cl100k::encode(t);
        assert_eq!(
            ours.as_deref(),
            Some(tiktoken(t).as_slice()),
            "{:?}",
            t.chars().take(60).collect::<String>()
        );
        assert_eq!(cl100k::count(t), Some(tiktoken(t).len()));
    }
}

#[test]
fn same_ids_as_tiktoken_beyond_ascii() {
    for t in [
        "naïve",
        "größe",
        "日本語",
        "emoji 🦀",
        "ſ",
        "'ſ 'ſt IT'ſ",
        "µs",
        "²",
        "Ⅻ",
        "ℂ",
        "Ⓐ",
        "ª",
        "\u{301}",
        "e\u{301}te\u{301}",
        "Привет, мир! Grüße aus Köln — 東京 👩‍👩‍👧 ✨ नमस्ते ١٢٣٤ ½",
        "\u{3000}全角\u{3000}空白\u{feff}",
    ] {
        assert_eq!(
            cl100k::encode(t).as_deref(),
            Some(tiktoken(t).as_slice()),
            "{t:?}"
        );
        assert_eq!(cl100k::count(t), Some(tiktoken(t).len()), "{t:?}");
    }
    for long in ["x", " ", "-", "1 ", "é", "日"] {
        let t = long.repeat(cl100k::MAX_PIECE + 1);
        let expect = (long == "1 ").then(|| tiktoken(&t).len());
        assert_eq!(cl100k::count(&t), expect, "{long:?}");
    }
}

#[test]
fn every_character_is_classed_as_tiktoken_does() {
    // The scalar values of the BMP and the supplementary planes in use, next to
    // letters, digits, spaces, newlines and itself; 24 characters per text. Every value
    // below U+3000 (the scripts and punctuation commits are written in) and, above it,
    // every value where a class changes (letter, number, space, as std's Unicode tables
    // see them) with its neighbours, and every 7th between: all 262,000 values took
    // 27 s of the test command on 2 cores, and a table is wrong at its edges.
    let class =
        |c: u32| char::from_u32(c).map(|c| (c.is_alphabetic(), c.is_numeric(), c.is_whitespace()));
    let chars: Vec<char> = (0x80..=0x3_FFFF)
        .chain(0xE_0000..=0xE_01EF)
        .filter(|&c| {
            c < 0x3000
                || c % 7 == 0
                || class(c) != class(c - 1)
                || class(c) != class(c + 1)
                || class(c + 1) != class(c + 2)
                || class(c - 1) != class(c - 2)
        })
        .filter_map(char::from_u32)
        .collect();
    let around = |c: char| format!("a{c}b {c}x {c}{c} 1{c}2 \n{c}\n {c}'s{c} {c}|");
    let mut accepted = 0;
    for group in chars.chunks(24) {
        let t: String = group.iter().map(|c| around(*c)).collect();
        match cl100k::encode(&t) {
            Some(ours) => {
                accepted += group.len();
                if ours != tiktoken(&t) {
                    for c in group {
                        let one = around(*c);
                        assert_eq!(
                            cl100k::encode(&one),
                            Some(tiktoken(&one)),
                            "U+{:04X}",
                            u32::from(*c)
                        );
                    }
                    panic!("a group differs but none of its characters alone");
                }
            }
            None => assert_eq!(cl100k::count(&t), None),
        }
    }
    assert!(
        accepted > chars.len() * 9 / 10,
        "{accepted} of {}",
        chars.len()
    );
}

/// Characters where cl100k's pattern is subtle: contractions in any case, every
/// kind of whitespace, the newline classes, punctuation next to letters and digits,
/// and the non-ASCII punctuation the fast path accepts.
const SURE: &[&str] = &[
    "a", "b", "s", "t", "m", "d", "r", "e", "v", "l", "S", "T", "M", "D", "R", "E", "V", "L", "x",
    "Q", "0", "1", "9", "'", "'", " ", " ", " ", "\t", "\n", "\r", "\r\n", "\x0b", "\x0c",
    "\u{a0}", "\u{2028}", "\u{2003}", ".", ",", "(", ")", "{", "}", "\"", "/", "-", "_", "#", "<",
    ">", "=", ":", ";", "!", "?", "@", "$", "%", "^", "&", "*", "+", "|", "\\", "`", "~", "[", "]",
    "—", "→", "…", "“", "×", "§", "\u{ad}",
];
/// Characters beyond ASCII whose class needs the Unicode tables.
const UNICODE: &[&str] = &[
    "é", "ж", "日", "🦀", "ſ", "²", "\u{301}", "\u{3000}", "Ⅻ", "١", "\u{200d}",
];

/// Cases per property: 500 in the test command (3,000 took most of this file's 44 s on
/// 2 cores); `PROPTEST_CASES=3000` for a deeper run.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(500)
}

fn text(alphabet: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(alphabet), 0..100).prop_map(|v| v.concat())
}

fn mixed() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![3 => prop::sample::select(SURE), 1 => prop::sample::select(UNICODE)],
        0..100,
    )
    .prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    /// The table lookup finds exactly the vocabulary's byte strings: short strings of
    /// a few letters hit tokens often, near misses (a token and one byte more or less)
    /// are drawn too.
    #[test]
    fn rank_finds_exactly_the_vocabulary(
        t in proptest::collection::vec(prop_oneof![Just(b' '), Just(b'e'), Just(b'n'), Just(b't'), Just(b'\n'), any::<u8>()], 0..8),
        id in 0u32..100_256,
        cut in any::<bool>(),
        more in any::<u8>(),
    ) {
        prop_assert_eq!(cl100k::rank(&t), vocabulary().get(&t).copied());
        let bpe = &bpe_openai::cl100k_base().bpe;
        let mut near = bpe.token_bytes(id).to_vec();
        if cut {
            near.pop();
        } else {
            near.push(more);
        }
        prop_assert_eq!(cl100k::rank(&near), vocabulary().get(&near).copied());
    }

    #[test]
    fn same_ids_as_tiktoken_on_tricky_text(t in text(SURE)) {
        let theirs = tiktoken(&t);
        prop_assert_eq!(cl100k::encode(&t), Some(theirs.clone()));
        prop_assert_eq!(cl100k::count(&t), Some(theirs.len()));
    }

    #[test]
    fn same_ids_as_tiktoken_on_mixed_scripts(t in mixed()) {
        let theirs = tiktoken(&t);
        prop_assert_eq!(cl100k::encode(&t), Some(theirs.clone()));
        prop_assert_eq!(cl100k::count(&t), Some(theirs.len()));
    }

    #[test]
    fn same_ids_as_tiktoken_on_ascii(t in "[\\x00-\\x7f]{0,300}") {
        let theirs = tiktoken(&t);
        prop_assert_eq!(cl100k::encode(&t), Some(theirs.clone()));
        prop_assert_eq!(cl100k::count(&t), Some(theirs.len()));
    }

    #[test]
    fn same_ids_as_tiktoken_on_words_and_code(t in "(( ?[a-zA-Z]{1,12}| ?[0-9]{1,7}| ?[!-/:-@\\[-`{-~]{1,3}|'[a-zA-Z]{1,3}|[ \\t]{1,5}|\\r?\\n{1,3})){0,60}") {
        let theirs = tiktoken(&t);
        prop_assert_eq!(cl100k::encode(&t), Some(theirs.clone()));
        // Twice: the second count is answered from the pretokens counted before.
        prop_assert_eq!(cl100k::count(&t), Some(theirs.len()));
        prop_assert_eq!(cl100k::count(&t), Some(theirs.len()));
    }
}
