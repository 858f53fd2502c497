//! The lenient parser: any text gives a [`Parsed`], never an error and never a
//! panic. Every element keeps its 1-based line and column (columns count chars,
//! not bytes) so a rule can point at it; what did not parse is kept as an error
//! value next to what did.

use super::{Bullet, Message, Subject, Target, Trailer};

/// A 1-based position in the message: line, and column counted in chars.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct Pos {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in chars.
    pub column: usize,
}

impl Pos {
    /// A position from its line and column.
    pub fn new(line: usize, column: usize) -> Self {
        Pos { line, column }
    }
}

/// A parsed value and where it starts.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Spanned<T> {
    /// The value.
    pub value: T,
    /// Where it starts.
    pub pos: Pos,
}

impl<T> Spanned<T> {
    fn new(value: T, pos: Pos) -> Self {
        Spanned { value, pos }
    }
}

/// Why the subject line is not `type(scope)!: summary`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum SubjectError {
    /// The line does not start with a type.
    MissingType,
    /// `(` without `)`.
    UnclosedScope,
    /// `()`.
    EmptyScope,
    /// A `(` inside the scope, as in `fix((parser): …`.
    ParenInScope,
    /// No `:` after the type, scope and `!`.
    MissingColon,
    /// `:` not followed by a space.
    MissingSpace,
    /// Nothing after `: `.
    EmptySummary,
    /// More than one space after the colon.
    ExtraSpace,
}

/// The subject line, element by element.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct ParsedSubject {
    /// The whole first line.
    pub raw: String,
    /// The type, when the line starts with one.
    pub kind: Option<Spanned<String>>,
    /// The scope, when there are parentheses.
    pub scope: Option<Spanned<String>>,
    /// Where the `!` is, when there is one.
    pub breaking: Option<Pos>,
    /// The summary after `: `.
    pub summary: Option<Spanned<String>>,
    /// The first thing that did not parse, and where.
    pub error: Option<Spanned<SubjectError>>,
}

/// The separator between a bullet's path and its description.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Separator {
    /// ` — ` (em dash), the canonical form.
    EmDash,
    /// ` -- `, accepted unless `strict-separator`.
    DoubleHyphen,
    /// Something that looks like a separator but is not one: ` – ` (en dash),
    /// ` - `, or an em dash without spaces around it.
    Lookalike,
}

/// The arrow between the two paths of a rename or move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Arrow {
    /// ` → `, the canonical form.
    Unicode,
    /// ` -> `, accepted unless `strict-separator`.
    Ascii,
}

/// Why a bullet is not `- Verb: path — what and why`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum BulletError {
    /// `-` not followed by a space.
    MissingSpace,
    /// No `Verb: ` after `- `.
    MissingVerb,
    /// No separator between the path and the description.
    MissingSeparator,
    /// Nothing between `Verb: ` and the separator (or one side of an arrow empty).
    MissingPath,
    /// Nothing after the separator.
    EmptyDescription,
}

/// One bullet (a line starting with `-`, plus its indented continuation lines).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ParsedBullet {
    /// Where the `-` is.
    pub pos: Pos,
    /// The last line the bullet spans (its continuation lines included).
    pub last_line: usize,
    /// The verb.
    pub verb: Option<Spanned<String>>,
    /// The path, or the old path of a move.
    pub path: Option<Spanned<String>>,
    /// The new path of a move.
    pub to: Option<Spanned<String>>,
    /// The arrow of a move.
    pub arrow: Option<Spanned<Arrow>>,
    /// The separator before the description.
    pub separator: Option<Spanned<Separator>>,
    /// The description.
    pub what_why: Option<Spanned<String>>,
    /// The first thing that did not parse, and where.
    pub error: Option<Spanned<BulletError>>,
}

impl ParsedBullet {
    /// The bullet as model data, when it parsed completely with an accepted separator.
    pub fn bullet(&self) -> Option<Bullet> {
        if self.error.is_some() {
            return None;
        }
        if self.separator.as_ref()?.value == Separator::Lookalike {
            return None;
        }
        let path = self.path.as_ref()?.value.clone();
        let target = match &self.to {
            Some(to) => Target::Move {
                from: path,
                to: to.value.clone(),
            },
            None => Target::Path(path),
        };
        Some(Bullet {
            verb: self.verb.as_ref()?.value.clone(),
            target,
            what_why: self.what_why.as_ref()?.value.clone(),
        })
    }
}

/// One trailer line (`Token: value` or `Token #value`) and its continuation lines.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ParsedTrailer {
    /// The token and where the line starts.
    pub token: Spanned<String>,
    /// The value (`#value` for the `Token #value` form).
    pub value: Spanned<String>,
}

/// A piece of the body, in the order written.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub enum BodyItem {
    /// Consecutive prose lines, joined by `\n`.
    Prose(Spanned<String>),
    /// A bullet (boxed: it is much larger than a prose item).
    Bullet(Box<ParsedBullet>),
}

/// Everything [`parse`] found, with positions.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Parsed {
    /// The first line.
    pub subject: ParsedSubject,
    /// Line 2 when it should be blank and is not.
    pub missing_blank_line: Option<Pos>,
    /// Prose and bullets between the subject and the trailers.
    pub body: Vec<BodyItem>,
    /// The trailers of the last paragraph.
    pub trailers: Vec<ParsedTrailer>,
    /// Lines of the trailer paragraph that are not trailers.
    pub malformed_trailers: Vec<Spanned<String>>,
    /// Trailer-shaped lines glued to a bullet paragraph (no blank line before them).
    pub misplaced_trailers: Vec<Pos>,
    /// How many lines the message has.
    pub line_count: usize,
}

impl Parsed {
    /// The bullets, in order.
    pub fn bullets(&self) -> impl Iterator<Item = &ParsedBullet> {
        self.body.iter().filter_map(|item| match item {
            BodyItem::Bullet(b) => Some(&**b),
            BodyItem::Prose(_) => None,
        })
    }

    /// The message as model data, when every part of it parsed.
    pub fn message(&self) -> Option<Message> {
        let s = &self.subject;
        if s.error.is_some() || !self.malformed_trailers.is_empty() {
            return None;
        }
        let subject = Subject {
            kind: s.kind.as_ref()?.value.clone(),
            scope: s.scope.as_ref().map(|x| x.value.clone()),
            breaking: s.breaking.is_some(),
            summary: s.summary.as_ref()?.value.clone(),
        };
        let mut prose = Vec::new();
        let mut bullets = Vec::new();
        for item in &self.body {
            match item {
                BodyItem::Prose(p) => prose.push(p.value.clone()),
                BodyItem::Bullet(b) => bullets.push(b.bullet()?),
            }
        }
        Some(Message {
            subject,
            prose,
            bullets,
            trailers: self.trailer_values(),
        })
    }

    /// The trailers as the message model holds them, without their positions.
    pub fn trailer_values(&self) -> Vec<Trailer> {
        self.trailers
            .iter()
            .map(|t| Trailer {
                token: t.token.value.clone(),
                value: t.value.value.clone(),
            })
            .collect()
    }
}

/// The message's lines, without their `\n` or `\r\n`; a final newline adds no line. A
/// run of carriage returns before a line end is part of it (as trailing whitespace git's
/// cleanup strips), so a line never ends in one and a rendered message parses back to
/// the same lines.
pub fn split_lines(text: &str) -> Vec<&str> {
    let body = text.strip_suffix('\n').unwrap_or(text);
    if text.is_empty() {
        return Vec::new();
    }
    body.split('\n').map(|l| l.trim_end_matches('\r')).collect()
}

/// The 1-based char column of byte offset `byte` in `line` (clamped to the line).
pub(crate) fn column(line: &str, byte: usize) -> usize {
    let mut b = byte.min(line.len());
    while !line.is_char_boundary(b) {
        b -= 1;
    }
    line[..b].chars().count() + 1
}

fn is_blank(line: &str) -> bool {
    line.trim().is_empty()
}

fn is_indented(line: &str) -> bool {
    line.starts_with([' ', '\t'])
}

/// A line that starts a bullet: `- …`, or `-` directly followed by a letter.
pub(crate) fn is_bullet_start(line: &str) -> bool {
    line.starts_with("- ")
        || line
            .strip_prefix('-')
            .is_some_and(|r| r.starts_with(char::is_alphabetic))
}

/// `Token: value`, `Token #value`, `BREAKING CHANGE: value` or `BREAKING CHANGE #value`
/// (the spec's two separators, for every token): (token, value, value byte offset).
pub fn parse_trailer(line: &str) -> Option<(&str, String, usize)> {
    let (token, rest) = match line.strip_prefix("BREAKING CHANGE") {
        Some(rest) if rest.starts_with(": ") || rest.starts_with(" #") => ("BREAKING CHANGE", rest),
        _ => {
            let first = line.chars().next()?;
            if !first.is_ascii_alphanumeric() {
                return None;
            }
            let end = line
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                .unwrap_or(line.len());
            (&line[..end], &line[end..])
        }
    };
    let end = token.len();
    if let Some(v) = rest.strip_prefix(": ") {
        let trimmed = v.trim_start();
        let start = line.len() - trimmed.len();
        (!trimmed.is_empty()).then(|| (token, trimmed.to_string(), start))
    } else if let Some(v) = rest.strip_prefix(" #") {
        (!v.is_empty() && !v.starts_with(char::is_whitespace))
            .then(|| (token, format!("#{v}"), end + 1))
    } else {
        None
    }
}

/// `Token:` alone on its line, its value on the lines after it (cocogitto's
/// "colon with newline" separator; `BREAKING CHANGE:` and a paragraph is how Angular-style
/// histories write a breaking change): the token.
fn open_trailer(line: &str) -> Option<&str> {
    let token = line.trim_end().strip_suffix(':')?;
    let ok = token == "BREAKING CHANGE"
        || (!token.is_empty()
            && token.starts_with(|c: char| c.is_ascii_alphanumeric())
            && token.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'));
    ok.then_some(token)
}

/// A line that tries to be a breaking-change footer, in any spelling: `breaking`, an
/// optional space, `_` or `-`, `change` or `changes`, optional whitespace, then `:` or
/// `#` (what `(?i)^breaking[ _-]?changes?\s*[:#]` matches); or exactly the token
/// `BREAKING CHANGE` / `BREAKING-CHANGE` alone on its line. Prose that merely starts
/// with the words (`BREAKING CHANGE was discussed…`, `Breaking changes are listed…`,
/// a heading `Breaking changes`) is not one. A hand scan: the regex's compilation was
/// a quarter of a commit-msg check's instructions.
pub(crate) fn is_breaking_attempt(line: &str) -> bool {
    fn strip_ci<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
        let head = s.get(..prefix.len())?;
        head.eq_ignore_ascii_case(prefix)
            .then(|| &s[prefix.len()..])
    }
    if matches!(line.trim_end(), "BREAKING CHANGE" | "BREAKING-CHANGE") {
        return true;
    }
    let Some(rest) = strip_ci(line, "breaking") else {
        return false;
    };
    let rest = rest.strip_prefix([' ', '_', '-']).unwrap_or(rest);
    let Some(rest) = strip_ci(rest, "change") else {
        return false;
    };
    let rest = strip_ci(rest, "s").unwrap_or(rest);
    rest.trim_start().starts_with([':', '#'])
}

/// Parses any text leniently. `text` is the cleaned message (see `gitenv`); CRLF
/// line ends are accepted.
pub fn parse(text: &str) -> Parsed {
    let lines = split_lines(text);
    let mut parsed = Parsed {
        line_count: lines.len(),
        ..Parsed::default()
    };
    let Some(first) = lines.first() else {
        return parsed;
    };
    parsed.subject = parse_subject(first);
    if lines.len() > 1 && !is_blank(lines[1]) {
        parsed.missing_blank_line = Some(Pos::new(2, 1));
    }

    // Paragraphs of the body as (first index, end index) into `lines`.
    let mut paragraphs: Vec<(usize, usize)> = Vec::new();
    let mut i = 1;
    while i < lines.len() {
        if is_blank(lines[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < lines.len() && !is_blank(lines[i]) {
            i += 1;
        }
        paragraphs.push((start, i));
    }

    // The footers: from the first paragraph that opens with a footer and after which
    // no paragraph starts with a `- Verb: …` bullet, to the end. A footer's value may run over following
    // lines and paragraphs (the spec allows newlines in it), so `BREAKING CHANGE: …`,
    // a blank line and `Signed-off-by: …` (what `git commit -s` writes) are one block.
    let footer_from = paragraphs
        .iter()
        .enumerate()
        .position(|(k, &(start, end))| {
            is_footer(&lines[start..end])
                && paragraphs[k + 1..]
                    .iter()
                    .all(|&(s, _)| !is_verb_bullet(lines[s]))
        });
    let body_paragraphs = match footer_from {
        Some(k) => {
            let (start, end) = (paragraphs[k].0, paragraphs[paragraphs.len() - 1].1);
            parse_footer(&lines, start, end, &mut parsed);
            &paragraphs[..k]
        }
        None => paragraphs.as_slice(),
    };
    for &(start, end) in body_paragraphs {
        parse_body_paragraph(&lines, start, end, &mut parsed);
    }
    parsed
}

/// `- Word: …`: a line that starts one of the body's bullets rather than continuing a
/// footer's value.
fn is_verb_bullet(line: &str) -> bool {
    line.strip_prefix("- ").is_some_and(|rest| {
        rest.split_once(": ")
            .is_some_and(|(verb, _)| !verb.is_empty() && !verb.contains(char::is_whitespace))
    })
}

/// A paragraph that opens the footers: its first line is a footer (or a misspelt
/// breaking-change footer, so the lines after it are checked as footers), or every
/// line not indented is one.
fn is_footer(par: &[&str]) -> bool {
    let first_is_trailer = par.first().is_some_and(|l| {
        parse_trailer(l).is_some() || open_trailer(l).is_some() || is_breaking_attempt(l)
    });
    if first_is_trailer {
        return true;
    }
    if par.iter().any(|l| is_bullet_start(l)) {
        return false;
    }
    let mut heads = par.iter().filter(|l| !is_indented(l)).peekable();
    heads.peek().is_some() && heads.all(|l| parse_trailer(l).is_some())
}

/// Reads the footer lines `start..end` (blank lines included): each footer is a token
/// line and every line after it up to the next token line, indented or not.
fn parse_footer(lines: &[&str], start: usize, end: usize, parsed: &mut Parsed) {
    let mut open: Option<ParsedTrailer> = None;
    // After a misspelt breaking-change footer (reported by its own rule), the lines that
    // continue its value are not trailer errors of their own.
    let mut misspelt = false;
    for (idx, line) in lines.iter().enumerate().take(end).skip(start) {
        let lineno = idx + 1;
        if is_blank(line) {
            continue;
        }
        if let Some((token, value, vstart)) = parse_trailer(line) {
            misspelt = false;
            parsed.trailers.extend(open.take());
            open = Some(ParsedTrailer {
                token: Spanned::new(token.to_string(), Pos::new(lineno, 1)),
                value: Spanned::new(value, Pos::new(lineno, column(line, vstart))),
            });
            continue;
        }
        if let Some(token) = open_trailer(line) {
            misspelt = false;
            parsed.trailers.extend(open.take());
            open = Some(ParsedTrailer {
                token: Spanned::new(token.to_string(), Pos::new(lineno, 1)),
                value: Spanned::new(String::new(), Pos::new(lineno, line.len() + 1)),
            });
            continue;
        }
        if let Some(t) = open.as_mut()
            && !is_breaking_attempt(line)
        {
            if t.value.value.is_empty() {
                t.value.pos = Pos::new(lineno, column(line, line.len() - line.trim_start().len()));
                t.value.value.push_str(line.trim());
                continue;
            }
            t.value.value.push(' ');
            t.value.value.push_str(line.trim());
            continue;
        }
        parsed.trailers.extend(open.take());
        if misspelt && !is_breaking_attempt(line) {
            continue;
        }
        misspelt = is_breaking_attempt(line);
        parsed
            .malformed_trailers
            .push(Spanned::new((*line).to_string(), Pos::new(lineno, 1)));
    }
    parsed.trailers.extend(open);
}

fn parse_body_paragraph(lines: &[&str], start: usize, end: usize, parsed: &mut Parsed) {
    let mut prose: Option<(Pos, String)> = None;
    let mut seen_bullet = false;
    let mut idx = start;
    while idx < end {
        let line = lines[idx];
        if is_bullet_start(line) {
            if let Some((pos, text)) = prose.take() {
                parsed.body.push(BodyItem::Prose(Spanned::new(text, pos)));
            }
            let mut last = idx + 1;
            while last < end && is_indented(lines[last]) {
                last += 1;
            }
            parsed.body.push(BodyItem::Bullet(Box::new(parse_bullet(
                &lines[idx..last],
                idx + 1,
            ))));
            seen_bullet = true;
            idx = last;
            continue;
        }
        if seen_bullet && parse_trailer(line).is_some() {
            parsed.misplaced_trailers.push(Pos::new(idx + 1, 1));
        }
        match prose.as_mut() {
            Some((_, text)) => {
                text.push('\n');
                text.push_str(line);
            }
            None => prose = Some((Pos::new(idx + 1, 1), line.to_string())),
        }
        idx += 1;
    }
    if let Some((pos, text)) = prose {
        parsed.body.push(BodyItem::Prose(Spanned::new(text, pos)));
    }
}

fn parse_subject(line: &str) -> ParsedSubject {
    let mut s = ParsedSubject {
        raw: line.to_string(),
        ..ParsedSubject::default()
    };
    let at = |b: usize| Pos::new(1, column(line, b));
    let end = line
        .find(|c: char| matches!(c, '(' | ')' | '!' | ':') || c.is_whitespace())
        .unwrap_or(line.len());
    if end == 0 {
        s.error = Some(Spanned::new(SubjectError::MissingType, at(0)));
        return s;
    }
    s.kind = Some(Spanned::new(line[..end].to_string(), at(0)));
    let mut i = end;
    if line[i..].starts_with('(') {
        let Some(close) = line[i..].find(')') else {
            s.error = Some(Spanned::new(SubjectError::UnclosedScope, at(i)));
            return s;
        };
        let scope = &line[i + 1..i + close];
        s.scope = Some(Spanned::new(scope.to_string(), at(i + 1)));
        if scope.trim().is_empty() {
            s.error = Some(Spanned::new(SubjectError::EmptyScope, at(i)));
            return s;
        }
        if let Some(k) = scope.find('(') {
            s.error = Some(Spanned::new(SubjectError::ParenInScope, at(i + 1 + k)));
            return s;
        }
        i += close + 1;
    }
    if line[i..].starts_with('!') {
        s.breaking = Some(at(i));
        i += 1;
    }
    if !line[i..].starts_with(':') {
        s.error = Some(Spanned::new(SubjectError::MissingColon, at(i)));
        return s;
    }
    i += 1;
    if i == line.len() {
        s.error = Some(Spanned::new(SubjectError::EmptySummary, at(i)));
        return s;
    }
    if !line[i..].starts_with(' ') {
        s.error = Some(Spanned::new(SubjectError::MissingSpace, at(i)));
        return s;
    }
    i += 1;
    let summary = &line[i..];
    if summary.trim().is_empty() {
        s.error = Some(Spanned::new(SubjectError::EmptySummary, at(i)));
        return s;
    }
    if summary.starts_with(char::is_whitespace) {
        s.error = Some(Spanned::new(SubjectError::ExtraSpace, at(i)));
    }
    s.summary = Some(Spanned::new(summary.trim().to_string(), at(i)));
    s
}

/// Maps byte offsets of a bullet's joined text back to lines and columns.
struct Joined<'a> {
    text: String,
    /// (byte start in `text`, line number, byte offset in the line, the line)
    segments: Vec<(usize, usize, usize, &'a str)>,
}

impl Joined<'_> {
    fn pos(&self, byte: usize) -> Pos {
        let seg = self
            .segments
            .iter()
            .rev()
            .find(|s| s.0 <= byte)
            .or(self.segments.first());
        match seg {
            Some(&(start, lineno, offset, line)) => {
                Pos::new(lineno, column(line, offset + (byte - start)))
            }
            None => Pos::new(1, 1),
        }
    }
}

/// `hay.find(needle)` for the short separators of a bullet: a scan for the needle's
/// first byte, then a compare (a needle's first byte never continues a character, so a
/// match starts on a character boundary). `str::find` sets up a two-way search per
/// call, which cost more than the search on a bullet's line.
fn find(hay: &str, needle: &str) -> Option<usize> {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    let Some(&first) = n.first() else {
        return Some(0);
    };
    let mut from = 0;
    while let Some(i) = h[from..].iter().position(|&b| b == first) {
        let at = from + i;
        if h[at..].starts_with(n) {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

fn parse_bullet(lines: &[&str], first_lineno: usize) -> ParsedBullet {
    let mut joined = Joined {
        text: String::new(),
        segments: Vec::new(),
    };
    for (k, line) in lines.iter().enumerate() {
        if k == 0 {
            joined.segments.push((0, first_lineno, 0, line));
            joined.text.push_str(line.trim_end());
        } else {
            let content = line.trim_start();
            joined.text.push(' ');
            joined.segments.push((
                joined.text.len(),
                first_lineno + k,
                line.len() - content.len(),
                line,
            ));
            joined.text.push_str(content.trim_end());
        }
    }
    let mut b = ParsedBullet {
        pos: Pos::new(first_lineno, 1),
        last_line: first_lineno + lines.len().saturating_sub(1),
        verb: None,
        path: None,
        to: None,
        arrow: None,
        separator: None,
        what_why: None,
        error: None,
    };
    let t = joined.text.as_str();
    let fail = |b: &mut ParsedBullet, e: BulletError, at: usize| {
        b.error = Some(Spanned::new(e, joined.pos(at)));
    };
    if !t.starts_with("- ") {
        fail(&mut b, BulletError::MissingSpace, 1);
        return b;
    }
    let rest = &t[2..];
    let Some(colon) = find(rest, ": ") else {
        fail(&mut b, BulletError::MissingVerb, 2);
        return b;
    };
    let verb = &rest[..colon];
    if verb.is_empty() || verb.contains(char::is_whitespace) {
        fail(&mut b, BulletError::MissingVerb, 2);
        return b;
    }
    b.verb = Some(Spanned::new(verb.to_string(), joined.pos(2)));
    let region_start = 2 + colon + 2;
    let region = &t[region_start..];
    const SEPARATORS: [(&str, Separator); 5] = [
        (" — ", Separator::EmDash),
        (" -- ", Separator::DoubleHyphen),
        (" – ", Separator::Lookalike),
        (" - ", Separator::Lookalike),
        ("—", Separator::Lookalike),
    ];
    // A separator at the very end (its trailing space stripped by cleanup) is a
    // separator with an empty description, not a lookalike.
    let at_end = [(" —", Separator::EmDash), (" --", Separator::DoubleHyphen)]
        .iter()
        .find_map(|(s, kind)| {
            region
                .ends_with(s)
                .then(|| (region.len() - s.len(), s.len(), *kind))
        });
    let found = SEPARATORS
        .iter()
        .take(2)
        .find_map(|(s, kind)| find(region, s).map(|at| (at, s.len(), *kind)))
        .or(at_end)
        .or_else(|| {
            SEPARATORS
                .iter()
                .skip(2)
                .find_map(|(s, kind)| find(region, s).map(|at| (at, s.len(), *kind)))
        });
    let Some((sep_at, sep_len, kind)) = found else {
        let at = region.find(char::is_whitespace).unwrap_or(region.len());
        fail(&mut b, BulletError::MissingSeparator, region_start + at);
        return b;
    };
    // Point at the dash itself, not the space before it.
    let sep_pos = if region[sep_at..].starts_with(' ') {
        sep_at + 1
    } else {
        sep_at
    };
    b.separator = Some(Spanned::new(kind, joined.pos(region_start + sep_pos)));
    let target = &region[..sep_at];
    let arrow = [(" → ", Arrow::Unicode), (" -> ", Arrow::Ascii)]
        .iter()
        .find_map(|(s, kind)| find(target, s).map(|at| (at, s.len(), *kind)));
    match arrow {
        Some((at, len, kind)) => {
            let from = target[..at].trim();
            let to = target[at + len..].trim();
            b.arrow = Some(Spanned::new(kind, joined.pos(region_start + at + 1)));
            b.path = Some(Spanned::new(from.to_string(), joined.pos(region_start)));
            b.to = Some(Spanned::new(
                to.to_string(),
                joined.pos(region_start + at + len),
            ));
            if from.is_empty() {
                fail(&mut b, BulletError::MissingPath, region_start);
                return b;
            }
            if to.is_empty() {
                fail(&mut b, BulletError::MissingPath, region_start + at + len);
                return b;
            }
        }
        None => {
            let path = target.trim();
            b.path = Some(Spanned::new(path.to_string(), joined.pos(region_start)));
            if path.is_empty() {
                fail(&mut b, BulletError::MissingPath, region_start);
                return b;
            }
        }
    }
    let desc_start = region_start + sep_at + sep_len;
    let desc = t[desc_start..].trim();
    if desc.is_empty() {
        fail(&mut b, BulletError::EmptyDescription, desc_start);
        return b;
    }
    let lead = t[desc_start..].len() - t[desc_start..].trim_start().len();
    b.what_why = Some(Spanned::new(
        desc.to_string(),
        joined.pos(desc_start + lead),
    ));
    b
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    #[test]
    fn find_table() {
        for (hay, needle) in [
            ("Add: a — b", " — "),
            ("Add: a —— b", "—"),
            ("a -- b -> c", " -> "),
            ("a – b", " - "),
            ("", ": "),
            ("x", ""),
            ("é: ", ": "),
            ("ab", "abc"),
        ] {
            assert_eq!(
                super::find(hay, needle),
                hay.find(needle),
                "{hay:?} {needle:?}"
            );
        }
    }

    proptest! {
        #[test]
        fn find_same_as_str_find(
            hay in "[ a:—–>→-]{0,24}",
            needle in prop_oneof![
                Just(": "), Just(" — "), Just(" -- "), Just(" – "), Just(" - "), Just("—"),
                Just(" → "), Just(" -> "),
            ],
        ) {
            prop_assert_eq!(super::find(&hay, needle), hay.find(needle));
        }
    }
}
