//! Writing results: human lines (`FILE:LINE:COL: rule-id: message` + the hint), JSON
//! Lines (one object per checked message), or a CI system's own format (GitHub Actions
//! workflow commands, a GitLab Code Quality report, reviewdog's rdjsonl); colour only
//! when asked for or on a terminal.
//!
//! Everything here writes to a `dyn Write` so tests see the same bytes a user does.
//! Writing never fails a check: a gate's exit code comes from its verdict alone, so a
//! closed pipe or a full disk on stdout (`git commit … 2>&1 | head -1`) stops the
//! printing, and the verdict still decides whether the commit or push goes through.

use std::io::{self, Write};
use std::sync::OnceLock;

use jitcommit_core::rules::{Finding, Problem};
use jitcommit_core::term::{TermEnv, printable};

use crate::args::{ColorChoice, Format};

/// The `--line-prefix` of this run, set once after the arguments are read.
static LINE_PREFIX: OnceLock<String> = OnceLock::new();

/// Starts every line this process writes through [`stdout`] and [`stderr`] with
/// `prefix` (GitLab's `GL-HOOK-ERR: `). Only the first call counts.
pub fn set_line_prefix(prefix: &str) {
    let _ = LINE_PREFIX.set(prefix.to_string());
}

/// Set under `--format github`: every line [`stderr`] writes is made inert first.
static GITHUB_INERT: OnceLock<()> = OnceLock::new();

/// Makes every line [`stderr`] writes from now on inert for GitHub's runner
/// ([`github_inert`]): under `--format github` the log is parsed for workflow commands,
/// and text from the repository (a convention key, a path, a subject) must stay text.
pub fn set_github_inert() {
    let _ = GITHUB_INERT.set(());
}

/// A line of log text that GitHub's runner shows and never runs (see
/// [`jitcommit_core::workflow::inert_line`]).
pub fn github_inert(line: &str) -> String {
    jitcommit_core::workflow::inert_line(line)
}

/// Standard output, each line prefixed with the run's `--line-prefix`.
pub fn stdout() -> Prefixed<io::StdoutLock<'static>> {
    Prefixed::new(
        io::stdout().lock(),
        LINE_PREFIX.get().map_or("", String::as_str),
    )
}

/// Standard error, each line prefixed with the run's `--line-prefix` (and inert under
/// `--format github`: the tool writes no workflow command there, so every line is
/// data). Every message of the check binary to stderr goes through it.
pub fn stderr() -> Prefixed<io::StderrLock<'static>> {
    let mut p = Prefixed::new(
        io::stderr().lock(),
        LINE_PREFIX.get().map_or("", String::as_str),
    );
    p.inert = GITHUB_INERT.get().is_some();
    p
}

/// A writer that puts `prefix` at the start of every line, and with `inert` holds each
/// line until it ends to write it through [`github_inert`].
pub struct Prefixed<W: Write> {
    inner: W,
    prefix: &'static str,
    at_line_start: bool,
    inert: bool,
    line: Vec<u8>,
}

impl<W: Write> Prefixed<W> {
    /// Wraps `inner`; an empty prefix passes the bytes through.
    pub fn new(inner: W, prefix: &'static str) -> Self {
        Prefixed {
            inner,
            prefix,
            at_line_start: true,
            inert: false,
            line: Vec::new(),
        }
    }

    /// Writes the held line, made inert, with its prefix.
    fn write_held(&mut self) -> io::Result<()> {
        if self.line.is_empty() {
            return Ok(());
        }
        let held = std::mem::take(&mut self.line);
        let (text, nl) = match held.strip_suffix(b"\n") {
            Some(t) => (t, true),
            None => (&held[..], false),
        };
        let text = github_inert(&String::from_utf8_lossy(text));
        if self.at_line_start {
            self.inner.write_all(self.prefix.as_bytes())?;
        }
        self.inner.write_all(text.as_bytes())?;
        if nl {
            self.inner.write_all(b"\n")?;
        }
        self.at_line_start = nl;
        Ok(())
    }
}

impl<W: Write> Drop for Prefixed<W> {
    fn drop(&mut self) {
        let _ = self.write_held();
    }
}

impl<W: Write> Write for Prefixed<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.inert {
            for part in buf.split_inclusive(|&b| b == b'\n') {
                self.line.extend_from_slice(part);
                if part.ends_with(b"\n") {
                    self.write_held()?;
                }
            }
            return Ok(buf.len());
        }
        if self.prefix.is_empty() {
            return self.inner.write(buf);
        }
        for line in buf.split_inclusive(|&b| b == b'\n') {
            if self.at_line_start {
                self.inner.write_all(self.prefix.as_bytes())?;
            }
            self.inner.write_all(line)?;
            self.at_line_start = line.ends_with(b"\n");
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.write_held()?;
        self.inner.flush()
    }
}

/// The result for one message: a file, stdin, or a commit.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Report {
    /// The full commit id, for commits.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// The ref a pushed commit arrived with (server modes).
    #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
    pub refname: Option<String>,
    /// The subject line, for commits.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    /// The message file, for commit-msg and `--stdin` (`<stdin>`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The exemption that skipped the checks (`merge`, `revert`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exempt: Option<String>,
    /// The findings, in line order; a message file's lines are the lines of the file
    /// the user edited. As JSON each is the library's (`rule`, `line`, `column`,
    /// `message`, `hint`).
    pub findings: Vec<Finding>,
}

impl Report {
    /// The label in front of each human line: the file, or the commit's short id.
    fn label(&self) -> String {
        if let Some(f) = &self.file {
            f.clone()
        } else if let Some(c) = &self.commit {
            short(c).to_string()
        } else {
            String::from("<message>")
        }
    }
}

/// A commit id shortened the way people read them (12 hex digits).
pub fn short(id: &str) -> &str {
    id.get(..12).unwrap_or(id)
}

/// Colour decisions for one stream.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    color: bool,
}

impl Style {
    /// Resolves `--color` against the stream and the environment: in `auto`, colour on
    /// a terminal unless `NO_COLOR`, `CLICOLOR=0` or `TERM=dumb`, and off a terminal
    /// with `CLICOLOR_FORCE=1` (see [`TermEnv`]).
    pub fn new(choice: ColorChoice, is_terminal: bool) -> Self {
        Self::resolve(choice, is_terminal, TermEnv::from_env())
    }

    fn resolve(choice: ColorChoice, is_terminal: bool, env: TermEnv) -> Self {
        let color = match choice {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => env.colour(is_terminal),
        };
        Style { color }
    }

    /// No colour at all (server output, snapshots).
    pub fn plain() -> Self {
        Style { color: false }
    }

    fn paint<T: std::fmt::Display>(&self, code: &'static str, s: T) -> Painted<T> {
        Painted {
            code: self.color.then_some(code),
            s,
        }
    }
}

/// `s` as [`Style::paint`] writes it: in the colour `code`, if any (written where it
/// goes, never built as a string first).
struct Painted<T> {
    code: Option<&'static str>,
    s: T,
}

impl<T: std::fmt::Display> std::fmt::Display for Painted<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.code {
            Some(code) => write!(f, "\x1b[{code}m{}\x1b[0m", self.s),
            None => self.s.fmt(f),
        }
    }
}

/// A finding's place, `label:line:column:`.
struct Loc<'a>(&'a str, usize, usize);

impl std::fmt::Display for Loc<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}:", self.0, self.1, self.2)
    }
}

/// Writes reports in the chosen format. After the first failed write it writes nothing
/// more (the reader is gone or the disk is full) and says so to no one: the caller's
/// verdict is unaffected.
pub struct Printer<'a> {
    out: &'a mut dyn Write,
    format: Format,
    style: Style,
    failed: bool,
    /// GitLab's report is one JSON array: its issues wait here until [`Printer::flush`].
    gitlab: Vec<serde_json::Value>,
    /// The GitLab array was written (it is written once, even if empty).
    finished: bool,
}

impl<'a> Printer<'a> {
    /// A printer over `out`.
    pub fn new(out: &'a mut dyn Write, format: Format, style: Style) -> Self {
        Printer {
            out,
            format,
            style,
            failed: false,
            gitlab: Vec::new(),
            finished: false,
        }
    }

    /// Runs one write unless an earlier one failed, and remembers a failure.
    fn attempt(&mut self, write: impl FnOnce(&mut Self) -> io::Result<()>) {
        if !self.failed && write(self).is_err() {
            self.failed = true;
        }
    }

    /// Writes one report: in JSON always (one line), in human form only its findings.
    pub fn report(&mut self, r: &Report) {
        self.attempt(|p| p.write_report(r));
    }

    fn write_report(&mut self, r: &Report) -> io::Result<()> {
        match self.format {
            Format::Json => {
                serde_json::to_writer(&mut *self.out, r).map_err(io::Error::other)?;
                self.out.write_all(b"\n")
            }
            Format::Human => self.human(r, false),
            Format::Github => self.github(r),
            Format::Gitlab => {
                self.gitlab
                    .extend(r.findings.iter().map(|f| gitlab_issue(r, f)));
                Ok(())
            }
            Format::Rdjsonl => {
                for f in &r.findings {
                    serde_json::to_writer(&mut *self.out, &rdjson_diagnostic(r, f))
                        .map_err(io::Error::other)?;
                    self.out.write_all(b"\n")?;
                }
                Ok(())
            }
        }
    }

    /// Writes one pushed commit: its short id and subject, then its findings (human).
    pub fn pushed(&mut self, r: &Report) {
        self.attempt(|p| match p.format {
            Format::Human if r.findings.is_empty() => Ok(()),
            Format::Human => p.human(r, true),
            Format::Json | Format::Github | Format::Gitlab | Format::Rdjsonl => p.write_report(r),
        });
    }

    /// Human lines: every value from the repository (the file name, the subject, the
    /// ref, the findings' text, which quote the message) is [`printable`], so no escape
    /// sequence in a subject or a path reaches the terminal (docs/trust.md).
    fn human(&mut self, r: &Report, heading: bool) -> io::Result<()> {
        let label = r.label();
        let label = printable(&label);
        if heading {
            let id = r.commit.as_deref().map(short).unwrap_or("");
            let subject = printable(r.subject.as_deref().unwrap_or(""));
            let on = r
                .refname
                .as_deref()
                .map(|s| format!(" ({})", printable(s)))
                .unwrap_or_default();
            writeln!(self.out, "{} {subject}{on}", self.style.paint("1;33", id))?;
        }
        let indent = if heading { "  " } else { "" };
        for f in &r.findings {
            let loc = Loc(&label, f.line, f.column);
            writeln!(
                self.out,
                "{indent}{} {}: {}",
                self.style.paint("1", loc),
                self.style.paint("1;31", f.rule()),
                printable(&f.message())
            )?;
            if let Some(hint) = f.hint() {
                for l in hint.lines() {
                    let l = printable(l);
                    writeln!(self.out, "{indent}    {}", self.style.paint("36", l))?;
                }
            }
        }
        Ok(())
    }

    /// One workflow command per finding. Without a file to point at, GitHub shows the
    /// annotation on the run and the pull request's checks, not on a line.
    fn github(&mut self, r: &Report) -> io::Result<()> {
        for f in &r.findings {
            let mut props = format!("title={}", github_property(f.rule()));
            let (path, line) = place(r, f);
            if let Some(path) = path {
                props.push_str(&format!(",file={}", github_property(path)));
            }
            if let Some(line) = line {
                props.push_str(&format!(",line={line},col={}", f.column));
            }
            let text = text(r, f, "\n", "\n");
            writeln!(self.out, "::error {props}::{}", github_data(&text))?;
        }
        Ok(())
    }

    /// Writes a free-form line: in human output, and in GitHub's (where a line that is
    /// not a workflow command is plain log text). JSON, GitLab's report and rdjsonl stay
    /// machine-readable.
    pub fn note(&mut self, line: &str) {
        match self.format {
            Format::Human => self.attempt(|p| writeln!(p.out, "{}", printable(line))),
            Format::Github => {
                for l in line.split('\n') {
                    let l = github_inert(l);
                    self.attempt(|p| writeln!(p.out, "{l}"));
                }
            }
            Format::Json | Format::Gitlab | Format::Rdjsonl => {}
        }
    }

    /// Writes what waits for the end (GitLab's array, `[]` when nothing was found) and
    /// flushes the stream. Every mode calls it once its verdict is reached; a run that
    /// ends in an error writes no report, so an empty one never stands for a check that
    /// did not happen.
    pub fn flush(&mut self) {
        if self.format == Format::Gitlab && !self.finished {
            self.finished = true;
            let issues = std::mem::take(&mut self.gitlab);
            self.attempt(|p| {
                serde_json::to_writer(&mut *p.out, &issues).map_err(io::Error::other)?;
                p.out.write_all(b"\n")
            });
        }
        self.attempt(|p| p.out.flush());
    }
}

/// The path CI formats that need one (GitLab, reviewdog) give a finding about a commit
/// message: Gerrit's name for the message of the change under review. The description
/// starts with the commit's short id.
pub const COMMIT_MSG_PATH: &str = "COMMIT_MSG";

/// The label `--stdin` reports carry; not a file a CI system can show.
const STDIN: &str = "<stdin>";

/// Where a finding points in a CI system: the file a `bullet-path` finding names (no
/// line: the bullet is in the message, not in that file), else the message file and
/// its line; nothing for a commit's or stdin's message.
fn place<'r>(r: &'r Report, f: &'r Finding) -> (Option<&'r str>, Option<usize>) {
    if let Some(named) = named_path(f) {
        return (Some(named), None);
    }
    match r.file.as_deref() {
        Some(file) if file != STDIN => (Some(file), Some(f.line)),
        _ => (None, None),
    }
}

/// The path and 1-based line for formats that require both: [`place`], else
/// [`COMMIT_MSG_PATH`] and the message's line; a named file's first line.
fn place_required<'r>(r: &'r Report, f: &'r Finding) -> (&'r str, usize, Option<usize>) {
    match place(r, f) {
        (Some(path), Some(line)) => (path, line, Some(f.column)),
        (Some(path), None) => (path, 1, None),
        (None, _) => (COMMIT_MSG_PATH, f.line, Some(f.column)),
    }
}

/// The file a `bullet-path` finding says is not among the commit's changed paths.
fn named_path(f: &Finding) -> Option<&str> {
    match &f.problem {
        Problem::BulletPath(p) => p.unchanged(),
        _ => None,
    }
}

/// A finding's text for a CI system: the commit's short id first, for commits; the
/// message; then the hint, if any, after `sep`, its line breaks written as `newline`.
fn text(r: &Report, f: &Finding, sep: &str, newline: &str) -> String {
    let mut text = match &r.commit {
        Some(id) => format!("{} {}", short(id), f.message()),
        None => f.message(),
    };
    if let Some(hint) = f.hint() {
        text.push_str(sep);
        text.push_str(&hint.replace('\n', newline));
    }
    text
}

/// A workflow command's message, escaped as GitHub's toolkit does (`%`, CR, LF), and
/// inert (no other control character, no `##[`).
fn github_data(s: &str) -> String {
    jitcommit_core::workflow::command_data(s)
}

/// A workflow command's property value: the message escapes, and `:` and `,`.
fn github_property(s: &str) -> String {
    jitcommit_core::workflow::command_property(s)
}

/// One GitLab Code Quality issue (the fields GitLab requires, and `type`/`categories`
/// of the Code Climate spec it extends).
fn gitlab_issue(r: &Report, f: &Finding) -> serde_json::Value {
    let (path, line, _) = place_required(r, f);
    let subject = r.commit.as_deref().or(r.file.as_deref()).unwrap_or("");
    let key = format!("{subject}\0{}\0{}\0{}", f.rule(), f.line, f.message());
    serde_json::json!({
        "type": "issue",
        "check_name": f.rule(),
        "description": text(r, f, " — ", " "),
        "categories": ["Style"],
        "fingerprint": format!("{:016x}", fnv1a64(key.as_bytes())),
        "severity": "major",
        "location": { "path": path, "lines": { "begin": line } },
    })
}

/// One reviewdog Diagnostic (rdjson's `Diagnostic` message).
fn rdjson_diagnostic(r: &Report, f: &Finding) -> serde_json::Value {
    let (path, line, column) = place_required(r, f);
    let message = text(r, f, "\n", "\n");
    let mut start = serde_json::json!({ "line": line });
    if let Some(c) = column {
        start["column"] = c.into();
    }
    serde_json::json!({
        "message": message,
        "location": { "path": path, "range": { "start": start } },
        "severity": "ERROR",
        "source": { "name": "jitcommit-check" },
        "code": { "value": f.rule() },
    })
}

/// FNV-1a, 64 bits: a fingerprint that stays the same across runs, builds and Rust
/// versions (GitLab compares a merge request's report with its target branch's).
fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Maps line numbers of the cleaned-up message back to the file the user edited.
///
/// git's cleanup only drops lines (comments, leading and repeated blank lines, all after
/// the scissors) and trims line ends, so every cleaned line is a trimmed raw line, in
/// order: the earliest matching raw line is the one the user sees.
pub fn line_map(raw: &str, cleaned: &str) -> Vec<usize> {
    let raw_lines: Vec<&str> = raw.lines().map(str::trim_end).collect();
    let mut map = Vec::new();
    let mut at = 0;
    for c in cleaned.lines() {
        let c = c.trim_end();
        let found = raw_lines[at.min(raw_lines.len())..]
            .iter()
            .position(|r| *r == c);
        match found {
            Some(off) => {
                at += off;
                map.push(at + 1);
                at += 1;
            }
            None => map.push(map.last().copied().unwrap_or(0) + 1),
        }
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;
    use jitcommit_core::message::{Pos, SubjectError};
    use jitcommit_core::rules::paths::BulletPath;
    use jitcommit_core::rules::subject::{SubjectFormat, SubjectType};

    #[test]
    fn prefixed_starts_every_line_across_writes() {
        let mut w = Prefixed::new(Vec::new(), "GL-HOOK-ERR: ");
        w.write_all(b"one\ntw").unwrap();
        w.write_all(b"o\n\nthree").unwrap();
        assert_eq!(
            String::from_utf8(w.inner.clone()).unwrap(),
            "GL-HOOK-ERR: one\nGL-HOOK-ERR: two\nGL-HOOK-ERR: \nGL-HOOK-ERR: three"
        );
        let mut plain = Prefixed::new(Vec::new(), "");
        plain.write_all(b"a\nb\n").unwrap();
        assert_eq!(plain.inner, b"a\nb\n");
    }

    #[test]
    fn inert_lines_are_whole_lines_across_writes() {
        // A command split over writes (as `writeln!` with arguments writes) is still
        // seen whole: `:` then `:error::`, `#` then `#[`.
        let mut w = Prefixed::new(Vec::new(), "P: ");
        w.inert = true;
        w.write_all(b":").unwrap();
        w.write_all(b":error::x\nsee #").unwrap();
        w.write_all(b"#[error]\x1b[31m\nrest").unwrap();
        w.flush().unwrap();
        assert_eq!(
            String::from_utf8(w.inner.clone()).unwrap(),
            "P: : :error::x\nP: see # #[error][31m\nP: rest"
        );
    }

    /// `"KIND" is not an allowed type (allowed: feat, fix)`, hinted `write "feat"`.
    fn wrong_type(kind: &str, line: usize) -> Finding {
        let allowed = vec!["feat".to_owned(), "fix".to_owned()];
        let nearest = Some("feat".to_owned());
        let kind = kind.to_owned();
        Finding::new(
            Pos::new(line, 1),
            SubjectType::NotAllowed {
                kind,
                allowed,
                nearest,
            },
        )
    }

    /// A finding with no hint (the reader's).
    fn unhinted(line: usize) -> Finding {
        Finding::new(
            Pos::new(line, 1),
            SubjectFormat::NotSpec(SubjectError::MissingType),
        )
    }

    /// `"PATH" is not among the commit's changed paths`.
    fn unchanged(path: &str) -> Finding {
        let path = path.to_owned();
        Finding::new(
            Pos::new(3, 1),
            BulletPath::NotChanged {
                path,
                nearest: None,
            },
        )
    }

    fn render(format: Format, color: bool, heading: bool, r: &Report) -> String {
        let mut buf = Vec::new();
        let mut p = Printer::new(&mut buf, format, Style { color });
        if heading {
            p.pushed(r)
        } else {
            p.report(r)
        }
        p.flush();
        drop(p);
        String::from_utf8(buf).unwrap()
    }

    fn file_report() -> Report {
        Report {
            commit: None,
            refname: None,
            subject: None,
            file: Some(".git/COMMIT_EDITMSG".into()),
            exempt: None,
            findings: vec![wrong_type("feature", 1), unhinted(3)],
        }
    }

    #[test]
    fn human_lines_carry_file_line_col_and_hint() {
        assert_eq!(
            render(Format::Human, false, false, &file_report()),
            ".git/COMMIT_EDITMSG:1:1: subject-type: \"feature\" is not an allowed type (allowed: feat, fix)\n    write \"feat\"\n\
             .git/COMMIT_EDITMSG:3:1: subject-format: the subject is not \"type(scope): description\" (no type)\n"
        );
    }

    #[test]
    fn colour_only_when_on() {
        assert!(!render(Format::Human, false, false, &file_report()).contains('\x1b'));
        assert!(
            render(Format::Human, true, false, &file_report())
                .contains("\x1b[1;31msubject-type\x1b[0m")
        );
    }

    #[test]
    fn json_is_one_line_per_report() {
        let s = render(Format::Json, true, false, &file_report());
        assert_eq!(s.lines().count(), 1);
        let v: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(v["file"], ".git/COMMIT_EDITMSG");
        assert_eq!(v["findings"][0]["rule"], "subject-type");
        assert!(v["findings"][1].get("hint").is_none());
        assert!(v.get("commit").is_none());
        assert!(!s.contains('\x1b'));
    }

    #[test]
    fn pushed_commit_heading() {
        let r = Report {
            commit: Some("0123456789abcdef0123".into()),
            refname: Some("refs/heads/x".into()),
            subject: Some("oops".into()),
            file: None,
            exempt: None,
            findings: vec![Finding::new(
                Pos::new(1, 1),
                SubjectFormat::Grammar {
                    error: SubjectError::MissingColon,
                    example: "feat".into(),
                    subject: "oops".into(),
                },
            )],
        };
        assert_eq!(
            render(Format::Human, false, true, &r),
            "0123456789ab oops (refs/heads/x)\n  0123456789ab:1:1: subject-format: expected \":\" after the type\n      start the subject with a type and \": \", e.g. \"feat: oops\"\n"
        );
        let clean = Report {
            findings: vec![],
            ..r
        };
        assert_eq!(render(Format::Human, false, true, &clean), "");
    }

    /// A writer that takes `room` bytes and then fails, as a closed pipe or a full disk.
    struct Full {
        room: usize,
        writes_after_failure: usize,
        failed: bool,
    }

    impl Write for Full {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.failed {
                self.writes_after_failure += 1;
            }
            if self.room == 0 {
                self.failed = true;
                return Err(io::Error::from(io::ErrorKind::BrokenPipe));
            }
            let n = buf.len().min(self.room);
            self.room -= n;
            Ok(n)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_failed_write_stops_the_printing_and_nothing_else() {
        let mut full = Full {
            room: 10,
            writes_after_failure: 0,
            failed: false,
        };
        let mut p = Printer::new(&mut full, Format::Human, Style::plain());
        for _ in 0..3 {
            p.report(&file_report());
            p.pushed(&file_report());
            p.note("a note");
        }
        p.flush();
        assert!(p.failed);
        drop(p);
        assert_eq!(full.writes_after_failure, 0);
    }

    fn commit_report() -> Report {
        Report {
            commit: Some("0123456789abcdef0123".into()),
            refname: None,
            subject: Some("oops".into()),
            file: None,
            exempt: None,
            findings: vec![
                wrong_type("100% wrong, really: yes\r\nsecond", 1),
                unchanged("src/a,b:c.rs"),
            ],
        }
    }

    #[test]
    fn github_escapes_data_and_properties_and_points_at_named_files() {
        assert_eq!(
            render(Format::Github, true, true, &commit_report()),
            "::error title=subject-type::0123456789ab \"100%25 wrong, really: yes%0D%0Asecond\" is not an allowed type (allowed: feat, fix)%0Awrite \"feat\"\n\
             ::error title=bullet-path,file=src/a%2Cb%3Ac.rs::0123456789ab \"src/a,b:c.rs\" is not among the commit's changed paths%0Aname a changed path or its directory\n"
        );
        assert_eq!(
            render(Format::Github, false, false, &file_report()),
            "::error title=subject-type,file=.git/COMMIT_EDITMSG,line=1,col=1::\"feature\" is not an allowed type (allowed: feat, fix)%0Awrite \"feat\"\n\
             ::error title=subject-format,file=.git/COMMIT_EDITMSG,line=3,col=1::the subject is not \"type(scope): description\" (no type)\n"
        );
        let stdin = Report {
            file: Some(STDIN.into()),
            ..file_report()
        };
        assert!(!render(Format::Github, false, false, &stdin).contains("file="));
    }

    #[test]
    fn gitlab_is_one_array_written_at_the_end() {
        let mut buf = Vec::new();
        let mut p = Printer::new(&mut buf, Format::Gitlab, Style::plain());
        p.pushed(&commit_report());
        p.note("not in the report");
        p.report(&file_report());
        p.flush();
        p.flush();
        drop(p);
        let s = String::from_utf8(buf).unwrap();
        assert_eq!(s.lines().count(), 1);
        let v: serde_json::Value = serde_json::from_str(&s).unwrap();
        let issues = v.as_array().unwrap();
        assert_eq!(issues.len(), 4);
        assert_eq!(issues[0]["location"]["path"], COMMIT_MSG_PATH);
        assert_eq!(issues[1]["location"]["path"], "src/a,b:c.rs");
        assert_eq!(issues[1]["location"]["lines"]["begin"], 1);
        assert_eq!(issues[3]["location"]["lines"]["begin"], 3);
        let prints: Vec<_> = issues.iter().map(|i| &i["fingerprint"]).collect();
        assert_eq!(prints.len(), 4);
        assert!(
            prints
                .iter()
                .enumerate()
                .all(|(i, a)| prints[..i].iter().all(|b| b != a))
        );
        // The same finding gets the same fingerprint in another run.
        assert_eq!(
            gitlab_issue(&commit_report(), &commit_report().findings[0])["fingerprint"],
            issues[0]["fingerprint"]
        );
        assert_eq!(
            render(
                Format::Gitlab,
                false,
                false,
                &Report {
                    findings: vec![],
                    ..file_report()
                }
            ),
            "[]\n"
        );
    }

    #[test]
    fn rdjsonl_is_one_diagnostic_per_line() {
        let s = render(Format::Rdjsonl, false, true, &commit_report());
        let d: Vec<serde_json::Value> = s
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(d.len(), 2);
        assert_eq!(d[0]["code"]["value"], "subject-type");
        assert_eq!(d[0]["location"]["range"]["start"]["column"], 1);
        assert_eq!(d[1]["location"]["path"], "src/a,b:c.rs");
        assert!(d[1]["location"]["range"]["start"].get("column").is_none());
    }

    #[test]
    fn named_path_only_for_a_path_not_changed() {
        assert_eq!(named_path(&unchanged("./docs/")), Some("docs"));
        assert_eq!(named_path(&unchanged("./")), None);
        let nothing = BulletPath::NothingChanged {
            path: "src/x.rs".into(),
        };
        assert_eq!(
            named_path(&Finding::new(Pos::new(3, 1), nothing)),
            Some("src/x.rs")
        );
        let absolute = BulletPath::NotRelative {
            path: "/etc/x".into(),
        };
        assert_eq!(named_path(&Finding::new(Pos::new(3, 1), absolute)), None);
        assert_eq!(named_path(&wrong_type("docs", 1)), None);
    }

    #[test]
    fn style_respects_choice() {
        assert!(Style::new(ColorChoice::Always, false).color);
        assert!(!Style::new(ColorChoice::Never, true).color);
        let env = |k: &'static str, v: &'static str| {
            TermEnv::from_lookup(move |n| (n == k).then(|| v.into()))
        };
        let auto = |t, e| Style::resolve(ColorChoice::Auto, t, e).color;
        assert!(!auto(false, TermEnv::default()));
        assert!(auto(true, TermEnv::default()));
        assert!(!auto(true, env("NO_COLOR", "1")));
        assert!(!auto(true, env("CLICOLOR", "0")));
        assert!(auto(false, env("CLICOLOR_FORCE", "1")));
        // An explicit flag beats the environment.
        assert!(!Style::resolve(ColorChoice::Never, true, env("CLICOLOR_FORCE", "1")).color);
        assert!(Style::resolve(ColorChoice::Always, false, env("NO_COLOR", "1")).color);
    }

    #[test]
    fn line_map_skips_comments_and_blank_runs() {
        let raw = "\n\nfeat: x  \n# comment\n\n\n- Add: a — b\n# ------------------------ >8 ------------------------\ndiff\n";
        let cleaned = "feat: x\n\n- Add: a — b\n";
        assert_eq!(line_map(raw, cleaned), vec![3, 5, 7]);
        assert_eq!(line_map("a\r\nb\r\n", "a\nb\n"), vec![1, 2]);
        assert_eq!(line_map("", "x\ny"), vec![1, 2]);
    }
}
