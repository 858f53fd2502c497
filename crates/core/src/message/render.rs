//! Rendering: the canonical text of a [`Message`], optionally with bullets wrapped
//! at a column limit (continuation lines indented two spaces, which [`super::parse`]
//! joins back with one space).

use std::borrow::Cow;

use super::{Bullet, Message, Subject, Target};

// A character that must not reach a message file or a terminal inside one value:
// control characters (newlines, carriage returns, escapes), the Unicode line and
// paragraph separators and the bidirectional controls, as the terminal output escapes
// them: one predicate for both.
use crate::term::is_unprintable as breaks_line;

/// `s` as one printable line: each character of [`breaks_line`] becomes a space.
/// Every value the renderer writes passes through it, so no value from a model (or
/// a file name) can start a line of its own: no forged trailer, comment or scissors
/// line.
pub fn one_line(s: &str) -> Cow<'_, str> {
    if !s.chars().any(breaks_line) {
        return Cow::Borrowed(s);
    }
    Cow::Owned(
        s.chars()
            .map(|c| if breaks_line(c) { ' ' } else { c })
            .collect(),
    )
}

/// The canonical text of `m`, one line per bullet, ending in a newline.
pub fn render(m: &Message) -> String {
    render_wrapped(m, 0)
}

/// Like [`render`], with each bullet wrapped at `width` columns (chars) with a
/// two-space continuation indent; `0` wraps nothing. The head of a bullet
/// (`- Verb: path — ` plus its first word) is never broken, so a long path stays on
/// one line; runs of whitespace in a wrapped description become one space.
pub fn render_wrapped(m: &Message, width: usize) -> String {
    let mut out = subject_line(&m.subject);
    out.push('\n');
    for p in &m.prose {
        out.push('\n');
        out.push_str(p);
        out.push('\n');
    }
    if !m.bullets.is_empty() {
        out.push('\n');
        for b in &m.bullets {
            push_bullet(&mut out, b, width);
        }
    }
    if !m.trailers.is_empty() {
        out.push('\n');
        for t in &m.trailers {
            out.push_str(&t.token);
            out.push_str(": ");
            out.push_str(&t.value);
            out.push('\n');
        }
    }
    out
}

/// `type(scope)!: summary`
pub(crate) fn subject_line(s: &Subject) -> String {
    let mut line = one_line(&s.kind).into_owned();
    if let Some(scope) = &s.scope {
        line.push('(');
        line.push_str(&one_line(scope));
        line.push(')');
    }
    if s.breaking {
        line.push('!');
    }
    line.push_str(": ");
    line.push_str(&one_line(&s.summary));
    line
}

fn push_bullet(out: &mut String, b: &Bullet, width: usize) {
    let mut line = format!("- {}: ", one_line(&b.verb));
    match &b.target {
        Target::Path(p) => line.push_str(&one_line(p)),
        Target::Move { from, to } => {
            line.push_str(&one_line(from));
            line.push_str(" → ");
            line.push_str(&one_line(to));
        }
    }
    line.push_str(" — ");
    let what_why = one_line(&b.what_why);
    if width == 0 {
        line.push_str(&what_why);
        out.push_str(&line);
        out.push('\n');
        return;
    }
    let mut len = line.chars().count();
    let mut first = true;
    for word in what_why.split_whitespace() {
        let wlen = word.chars().count();
        if first {
            first = false;
        } else if len + 1 + wlen > width {
            out.push_str(&line);
            out.push('\n');
            line = String::from("  ");
            len = 2;
        } else {
            line.push(' ');
            len += 1;
        }
        line.push_str(word);
        len += wlen;
    }
    out.push_str(&line);
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_value_starts_a_line_of_its_own() {
        let m = Message {
            subject: Subject {
                kind: "feat".into(),
                scope: Some("x)\n\nSigned-off-by: M <m@x>".into()),
                breaking: false,
                summary: "add a thing\rCo-authored-by: M <m@x>".into(),
            },
            prose: Vec::new(),
            bullets: vec![Bullet {
                verb: "Add".into(),
                target: Target::Path("src/a.rs".into()),
                what_why: "why\n\n# ------------------------ >8 ------------------------\nSigned-off-by: M <m@x>\u{2028}x\u{1b}[2J".into(),
            }],
            trailers: Vec::new(),
        };
        for width in [0, 72] {
            let text = render_wrapped(&m, width);
            for line in text.lines() {
                assert!(!line.starts_with("Signed-off-by"), "{text:?}");
                assert!(!line.starts_with("Co-authored-by"), "{text:?}");
                assert!(!line.starts_with('#'), "{text:?}");
                assert!(!line.chars().any(breaks_line), "{text:?}");
            }
        }
    }
}
