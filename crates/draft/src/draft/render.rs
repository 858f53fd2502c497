//! Render: the message as the text git gets, with the user's own words in it — the
//! intent as the offline draft's why, or the `-m` words a model draft keeps as its
//! body — wrapped as the convention says.

use jitcommit_core::config::Convention;
use jitcommit_core::message::{self, Message};

use crate::offline;

/// The user's words a draft takes.
#[derive(Debug, Clone, Copy)]
pub enum Words<'a> {
    /// None.
    None,
    /// The intent, as the why of an offline draft ([`intent_as_why`]).
    Intent(&'a str),
    /// The user's `-m` words and trailers, after the model's breaking note.
    Keep(&'a str),
}

/// `m` as text, with `words` in it.
pub fn render(mut m: Message, conv: &Convention, words: Words<'_>) -> String {
    match words {
        Words::None => {}
        Words::Intent(intent) => intent_as_why(&mut m, intent, conv),
        Words::Keep(words) => {
            let (prose, trailers) = user_words(words);
            m.prose = prose;
            m.trailers.extend(trailers);
        }
    }
    message::render_wrapped(&m, conv.body_wrap)
}

/// The user's intent as the offline draft's why (issue 30): each bullet says what the
/// tool knows without the placeholder, the intent's first paragraph becomes the
/// summary where it is one line that fits the subject (its type prefix and final
/// period dropped, its first letter lower-cased unless the second is a capital too),
/// and the rest of the intent — all of it when it is no summary — the body's prose,
/// its closing trailers kept as trailers. Nothing is left for the `<why?>` the user
/// would otherwise write.
fn intent_as_why(m: &mut message::Message, intent: &str, conv: &Convention) {
    let (mut paras, trailers) = user_words(intent);
    if paras.is_empty() && trailers.is_empty() {
        return;
    }
    for b in &mut m.bullets {
        if let Some(what) = b.what_why.strip_suffix(offline::WHY_PLACEHOLDER) {
            b.what_why = what.trim_end().trim_end_matches(';').trim_end().to_owned();
        }
    }
    let prefix = m.subject.kind.chars().count()
        + m.subject
            .scope
            .as_ref()
            .map_or(0, |s| s.chars().count() + 2)
        + 2;
    let room = conv.subject_limit().map(|max| max.saturating_sub(prefix));
    if let Some(first) = paras.first()
        && !first.contains('\n')
    {
        let seed = crate::structure::repair_summary(first, &m.subject.kind, conv, None);
        let mut chars = seed.chars();
        let seed = match (chars.next(), chars.next()) {
            (Some(a), Some(b)) if a.is_uppercase() && !b.is_uppercase() => {
                a.to_lowercase().chain(seed.chars().skip(1)).collect()
            }
            _ => seed,
        };
        let fits = room.is_none_or(|room| seed.chars().count() <= room);
        if fits && crate::structure::has_words(&seed, 2) {
            m.subject.summary = seed;
            paras.remove(0);
        }
    }
    m.prose = paras;
    m.trailers.extend(trailers);
}

/// The user's `-m` words as the body of the draft: prose paragraphs, and a closing
/// paragraph of trailers (`-s`, `--trailer`) kept as trailers.
fn user_words(text: &str) -> (Vec<String>, Vec<message::Trailer>) {
    let mut paras: Vec<String> = text
        .trim()
        .split("\n\n")
        .map(|p| p.trim().to_owned())
        .filter(|p| !p.is_empty())
        .collect();
    let trailers: Option<Vec<message::Trailer>> = paras.last().and_then(|last| {
        last.lines()
            .map(|l| {
                message::parse_trailer(l).map(|(token, value, _)| message::Trailer {
                    token: token.to_owned(),
                    value,
                })
            })
            .collect()
    });
    match trailers {
        Some(t) => {
            paras.pop();
            (paras, t)
        }
        None => (paras, Vec::new()),
    }
}
