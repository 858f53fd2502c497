//! Writing results: human lines (`FILE:LINE:COL: rule-id: message` + the hint) or JSON
//! Lines (one object per checked message), colour only when asked for or on a terminal.
//!
//! Everything here writes to a `dyn Write` so tests see the same bytes a user does.
//! Writing never fails a check: a gate's exit code comes from its verdict alone, so a
//! closed pipe or a full disk on stdout (`git commit … 2>&1 | head -1`) stops the
//! printing, and the verdict still decides whether the commit or push goes through.

use std::io::{self, Write};

use crate::args::{ColorChoice, Format};

/// One finding as printed: the library's finding, with the line mapped back to the file.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Item {
    /// Stable kebab-case rule id.
    pub rule: String,
    /// 1-based line in what the user sees (the message file, or the commit message).
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong.
    pub message: String,
    /// How to fix it.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub hint: String,
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
    /// The findings, in line order.
    pub findings: Vec<Item>,
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
    /// Resolves `--color` against the stream and `NO_COLOR` (set and non-empty disables).
    pub fn new(choice: ColorChoice, is_terminal: bool) -> Self {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let color = match choice {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => is_terminal && !no_color,
        };
        Style { color }
    }

    /// No colour at all (server output, snapshots).
    pub fn plain() -> Self {
        Style { color: false }
    }

    fn paint(&self, code: &str, s: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_string()
        }
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
}

impl<'a> Printer<'a> {
    /// A printer over `out`.
    pub fn new(out: &'a mut dyn Write, format: Format, style: Style) -> Self {
        Printer {
            out,
            format,
            style,
            failed: false,
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
        }
    }

    /// Writes one pushed commit: its short id and subject, then its findings (human).
    pub fn pushed(&mut self, r: &Report) {
        self.attempt(|p| match p.format {
            Format::Json => p.write_report(r),
            Format::Human if r.findings.is_empty() => Ok(()),
            Format::Human => p.human(r, true),
        });
    }

    fn human(&mut self, r: &Report, heading: bool) -> io::Result<()> {
        let label = r.label();
        if heading {
            let id = r.commit.as_deref().map(short).unwrap_or("");
            let subject = r.subject.as_deref().unwrap_or("");
            let on = r
                .refname
                .as_deref()
                .map(|s| format!(" ({s})"))
                .unwrap_or_default();
            writeln!(self.out, "{} {subject}{on}", self.style.paint("1;33", id))?;
        }
        let indent = if heading { "  " } else { "" };
        for f in &r.findings {
            let loc = format!("{label}:{}:{}:", f.line, f.column);
            writeln!(
                self.out,
                "{indent}{} {}: {}",
                self.style.paint("1", &loc),
                self.style.paint("1;31", &f.rule),
                f.message
            )?;
            if !f.hint.is_empty() {
                for l in f.hint.lines() {
                    writeln!(self.out, "{indent}    {}", self.style.paint("36", l))?;
                }
            }
        }
        Ok(())
    }

    /// Writes a free-form line (human only; JSON output stays machine-readable).
    pub fn note(&mut self, line: &str) {
        if self.format == Format::Human {
            self.attempt(|p| writeln!(p.out, "{line}"));
        }
    }

    /// Flushes the stream.
    pub fn flush(&mut self) {
        self.attempt(|p| p.out.flush());
    }
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

    fn item(rule: &str, line: usize, hint: &str) -> Item {
        Item {
            rule: rule.into(),
            line,
            column: 1,
            message: "bad".into(),
            hint: hint.into(),
        }
    }

    fn render(format: Format, color: bool, heading: bool, r: &Report) -> String {
        let mut buf = Vec::new();
        let mut p = Printer::new(&mut buf, format, Style { color });
        if heading {
            p.pushed(r)
        } else {
            p.report(r)
        }
        String::from_utf8(buf).unwrap()
    }

    fn file_report() -> Report {
        Report {
            commit: None,
            refname: None,
            subject: None,
            file: Some(".git/COMMIT_EDITMSG".into()),
            exempt: None,
            findings: vec![
                item("subject-type", 1, "use one of: feat, fix"),
                item("body-missing", 3, ""),
            ],
        }
    }

    #[test]
    fn human_lines_carry_file_line_col_and_hint() {
        assert_eq!(
            render(Format::Human, false, false, &file_report()),
            ".git/COMMIT_EDITMSG:1:1: subject-type: bad\n    use one of: feat, fix\n\
             .git/COMMIT_EDITMSG:3:1: body-missing: bad\n"
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
            findings: vec![item("subject-format", 1, "write type: summary")],
        };
        assert_eq!(
            render(Format::Human, false, true, &r),
            "0123456789ab oops (refs/heads/x)\n  0123456789ab:1:1: subject-format: bad\n      write type: summary\n"
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
        assert_eq!(full.writes_after_failure, 0);
    }

    #[test]
    fn style_respects_choice() {
        assert!(Style::new(ColorChoice::Always, false).color);
        assert!(!Style::new(ColorChoice::Never, true).color);
        assert!(!Style::new(ColorChoice::Auto, false).color);
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
