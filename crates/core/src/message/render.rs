//! Rendering: the canonical text of a [`Message`], optionally with bullets wrapped
//! at a column limit (continuation lines indented two spaces, which [`super::parse`]
//! joins back with one space).

use super::{Bullet, Message, Subject, Target};

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
    let mut line = s.kind.clone();
    if let Some(scope) = &s.scope {
        line.push('(');
        line.push_str(scope);
        line.push(')');
    }
    if s.breaking {
        line.push('!');
    }
    line.push_str(": ");
    line.push_str(&s.summary);
    line
}

fn push_bullet(out: &mut String, b: &Bullet, width: usize) {
    let mut line = format!("- {}: ", b.verb);
    match &b.target {
        Target::Path(p) => line.push_str(p),
        Target::Move { from, to } => {
            line.push_str(from);
            line.push_str(" → ");
            line.push_str(to);
        }
    }
    line.push_str(" — ");
    if width == 0 {
        line.push_str(&b.what_why);
        out.push_str(&line);
        out.push('\n');
        return;
    }
    let mut len = line.chars().count();
    let mut first = true;
    for word in b.what_why.split_whitespace() {
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
