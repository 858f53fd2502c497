//! Shared helpers for the `jitcommit` integration tests: the binary, and a real history
//! with tags (annotated and lightweight), a merge, a revert, a fixup and commits that
//! predate the convention.
#![allow(dead_code, clippy::unwrap_used)]

use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use jitcommit_testkit::{Sandbox, assert_ok, write};

/// The binary under test.
pub fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_jitcommit"))
}

/// Runs `jitcommit ARGS` in `cwd`, stdin closed.
pub fn jc(sb: &Sandbox, cwd: &Path, args: &[&str]) -> Output {
    sb.cmd(bin(), cwd)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// stdout as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// stderr as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The exit code.
pub fn code(o: &Output) -> i32 {
    o.status.code().unwrap()
}

/// A repository whose commits get increasing dates, one minute apart.
pub struct Repo<'a> {
    /// The sandbox.
    pub sb: &'a Sandbox,
    /// The work tree.
    pub dir: PathBuf,
    minute: Cell<u32>,
}

impl<'a> Repo<'a> {
    /// `git init` of `name`.
    pub fn new(sb: &'a Sandbox, name: &str) -> Self {
        Repo {
            sb,
            dir: sb.init(name),
            minute: Cell::new(0),
        }
    }

    /// The repository already at `dir` (a clone).
    pub fn at(sb: &'a Sandbox, dir: PathBuf) -> Self {
        Repo {
            sb,
            dir,
            minute: Cell::new(100),
        }
    }

    fn date(&self) -> String {
        let m = self.minute.get() + 1;
        self.minute.set(m);
        format!(
            "2026-01-{:02}T{:02}:{:02}:00Z",
            1 + m / 600,
            (m / 60) % 10 + 8,
            m % 60
        )
    }

    /// Git in the work tree, dated by the next minute.
    pub fn git_cmd(&self) -> Command {
        let d = self.date();
        let mut c = self.sb.git_cmd(&self.dir);
        c.env("GIT_AUTHOR_DATE", &d).env("GIT_COMMITTER_DATE", &d);
        c
    }

    /// Runs git, panics on failure, returns stdout.
    pub fn git(&self, args: &[&str]) -> String {
        let out = self
            .git_cmd()
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_ok(&out, &format!("git {}", args.join(" ")));
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Writes `file`, stages it and commits with `msg`.
    pub fn commit(&self, file: &str, content: &str, msg: &str) {
        write(&self.dir, file, content);
        self.git(&["add", file]);
        self.git(&["commit", "-q", "--no-verify", "-m", msg]);
    }

    /// `git rev-parse REV`.
    pub fn rev(&self, rev: &str) -> String {
        self.git(&["rev-parse", rev]).trim().to_owned()
    }

    /// Runs `jitcommit ARGS` here.
    pub fn jc(&self, args: &[&str]) -> Output {
        jc(self.sb, &self.dir, args)
    }
}

/// A structured message: subject, then one bullet per path.
pub fn msg(subject: &str, bullets: &[(&str, &str, &str)]) -> String {
    let mut s = format!("{subject}\n\n");
    for (verb, path, why) in bullets {
        s.push_str(&format!("- {verb}: {path} — {why}\n"));
    }
    s
}

/// The shared history:
///
/// ```text
/// initial import                        (before the convention)
/// feat(parser): parse the header        v0.1.0 (annotated)
/// fix: keep trailing blank lines
///   topic: feat(cli): add --verbose ─┐
/// docs: explain the flags            │
/// Merge branch 'topic'  ─────────────┘
/// feat(cli)!: rename --out to --output  (BREAKING CHANGE trailer)
/// perf: read the file once              v1.0.0 (lightweight)
/// feat: colour the output
/// Revert "feat: colour the output"      (cancels it: same release)
/// fixup! perf: read the file once
/// wip                                   (does not follow the convention)
/// fix(parser): accept CRLF
/// ```
pub fn history(sb: &Sandbox) -> Repo<'_> {
    let r = Repo::new(sb, "r");
    r.commit("README.md", "# demo\n", "initial import");
    r.commit(
        "src/parser.rs",
        "fn header() {}\n",
        &msg(
            "feat(parser): parse the header",
            &[("Add", "src/parser.rs", "reads the header line")],
        ),
    );
    r.git(&["tag", "-a", "-m", "first", "v0.1.0"]);
    r.commit(
        "src/parser.rs",
        "fn header() { /* keep */ }\n",
        &msg(
            "fix: keep trailing blank lines",
            &[("Fix", "src/parser.rs", "they were dropped")],
        ),
    );
    r.git(&["checkout", "-q", "-b", "topic"]);
    r.commit(
        "src/cli.rs",
        "fn verbose() {}\n",
        &msg(
            "feat(cli): add --verbose",
            &[("Add", "src/cli.rs", "prints each step")],
        ),
    );
    r.git(&["checkout", "-q", "main"]);
    r.commit(
        "docs/flags.md",
        "# flags\n",
        &msg(
            "docs: explain the flags",
            &[("Add", "docs/flags.md", "one line each")],
        ),
    );
    r.git(&["merge", "-q", "--no-ff", "--no-edit", "topic"]);
    r.commit(
        "src/cli.rs",
        "fn verbose() {}\nfn output() {}\n",
        &format!(
            "{}\nBREAKING CHANGE: scripts that pass --out must pass --output\n",
            msg(
                "feat(cli)!: rename --out to --output",
                &[("Update", "src/cli.rs", "the flag says what it names")],
            )
        ),
    );
    r.commit(
        "src/io.rs",
        "fn read() {}\n",
        &msg(
            "perf: read the file once",
            &[("Add", "src/io.rs", "one read, not three")],
        ),
    );
    r.git(&["tag", "v1.0.0"]);
    r.commit(
        "src/colour.rs",
        "fn colour() {}\n",
        &msg(
            "feat: colour the output",
            &[("Add", "src/colour.rs", "red for errors")],
        ),
    );
    r.git(&["revert", "--no-edit", "HEAD"]);
    r.commit(
        "src/io.rs",
        "fn read() { }\n",
        "fixup! perf: read the file once",
    );
    r.commit("notes.txt", "todo\n", "wip");
    r.commit(
        "src/parser.rs",
        "fn header() { /* keep, crlf */ }\n",
        &msg(
            "fix(parser): accept CRLF",
            &[("Fix", "src/parser.rs", "Windows files end lines in CRLF")],
        ),
    );
    r
}

/// What Dependabot writes: a prose body, a Markdown list of links, a YAML block and a
/// sign-off.
pub const DEPENDABOT: &str = "chore(deps): bump serde from 1.0.1 to 1.0.2

Bumps [serde](https://github.com/serde-rs/serde) from 1.0.1 to 1.0.2.
- [Release notes](https://github.com/serde-rs/serde/releases)
- [Commits](https://github.com/serde-rs/serde/compare/v1.0.1...v1.0.2)

---
updated-dependencies:
- dependency-name: serde
  dependency-type: direct:production
  update-type: version-update:semver-patch
...

Signed-off-by: dependabot[bot] <support@github.com>
";

/// A human's feature: a Markdown list for a body and a `Co-authored-by` trailer.
pub const MARKDOWN_LIST: &str = "feat(config): read overrides from the environment

Adds:
- `APP_COLOR` to force colour on or off
- `APP_PAGER` to pick the pager

Co-authored-by: Jane Doe <jane@example.com>
";

/// A Conventional Commits history as most projects have it before they adopt
/// jitcommit: prose bodies or none, a Dependabot commit, one commit that follows no
/// convention.
///
/// ```text
/// chore: initial commit                    v1.0.0
/// feat(cli): add a --quiet flag            (prose body)
/// chore(deps): bump serde …                (Dependabot)
/// feat(config): read overrides …           (Markdown list, Co-authored-by)
/// Update the readme                        (no convention)
/// fix: keep the last line                  (no body)
/// ```
pub fn adopting(sb: &Sandbox) -> Repo<'_> {
    let r = Repo::new(sb, "adopting");
    r.commit("README.md", "# demo\n", "chore: initial commit");
    r.git(&["tag", "-a", "-m", "first", "v1.0.0"]);
    r.commit(
        "src/cli.rs",
        "fn quiet() {}\n",
        "feat(cli): add a --quiet flag\n\nScripts want no output on success, so --quiet\nsilences everything but errors.\n",
    );
    r.commit("Cargo.lock", "serde 1.0.2\n", DEPENDABOT);
    r.commit("src/config.rs", "fn env() {}\n", MARKDOWN_LIST);
    r.commit("README.md", "# demo\n\nmore\n", "Update the readme");
    r.commit("src/io.rs", "fn last() {}\n", "fix: keep the last line");
    r
}
