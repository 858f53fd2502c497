//! Command-line arguments: raw argv → a validated [`Settings`], the way ripgrep does it,
//! so the rest of the program never re-checks a string.
//!
//! git calls a hook with positional arguments (`commit-msg FILE`, `update REF OLD NEW`),
//! the pre-commit framework appends the message file as the last argument after the
//! hook's own `args:`, and CI or a server call the flags. lexopt keeps the build small.

use std::ffi::OsString;
use std::path::PathBuf;

/// What the run does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    /// commit-msg: check the message file git (or pre-commit) names.
    File(PathBuf),
    /// Check the message on stdin.
    Stdin,
    /// Check every commit of `A..B` (CI).
    Range(String),
    /// Check one existing commit's message against its own diff.
    Commit(String),
    /// pre-receive: `<old> <new> <ref>` lines on stdin.
    PreReceive,
    /// update: one ref, from argv.
    Update {
        /// The ref being updated, e.g. `refs/heads/main`.
        refname: String,
        /// Its old id (zeros on create).
        old: String,
        /// Its new id (zeros on delete).
        new: String,
    },
    /// Print the effective convention and where it came from.
    DumpConfig,
    /// Print one rule's documentation.
    Explain(String),
    /// Print every rule id with its one-line summary.
    ListRules,
    /// Print the usage text.
    Help,
    /// Print the version.
    Version,
}

/// How findings are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `FILE:LINE:COL: rule-id: message` and the hint, for people.
    Human,
    /// One JSON object per checked message, one per line (JSON Lines).
    Json,
    /// GitHub Actions workflow commands (`::error title=RULE,file=…,line=…::…`).
    Github,
    /// GitLab Code Quality: one JSON array of issues, written at the end.
    Gitlab,
    /// reviewdog's rdjsonl: one Diagnostic per finding, one per line.
    Rdjsonl,
}

/// When to colour human output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColorChoice {
    /// On a terminal unless `NO_COLOR`, `CLICOLOR=0` or `TERM=dumb`; anywhere with
    /// `CLICOLOR_FORCE=1`.
    Auto,
    /// Always (for tests and `less -R`).
    Always,
    /// Never.
    Never,
}

/// The validated settings of one run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// What to do.
    pub mode: Mode,
    /// Output format.
    pub format: Format,
    /// An explicit convention file; on servers it is the policy.
    pub config: Option<PathBuf>,
    /// `--convention-from REV`: take the convention from commit REV (CI judges a pull
    /// request by its base's convention, as a server judges a push by the convention
    /// from before it); with `--config`, that file as it is in REV.
    pub convention_from: Option<String>,
    /// `--no-trace-paths`: skip the changed-path check whatever the convention says.
    pub no_trace_paths: bool,
    /// Colour choice for human output.
    pub color: ColorChoice,
    /// `--line-prefix TEXT`: every line written starts with it (GitLab shows a server
    /// hook's lines in its web UI only when they start with `GL-HOOK-ERR: `).
    pub line_prefix: Option<String>,
    /// `--check-first-push`: on a server, check the commits of the first push into an
    /// empty repository too (by default they are the project's history, accepted as
    /// they are).
    pub check_first_push: bool,
}

/// A usage error: the message says what was wrong and what to do.
#[derive(Debug, thiserror::Error)]
pub enum UsageError {
    /// lexopt's own errors (unknown flag, missing value, …).
    #[error(transparent)]
    Lexopt(#[from] lexopt::Error),
    /// More than one mode was asked for.
    #[error("{0} and {1} cannot be used together")]
    Conflict(String, String),
    /// A flag value outside its set.
    #[error("invalid value {value:?} for {flag} (expected {expected})")]
    BadValue {
        /// The flag.
        flag: &'static str,
        /// What was given.
        value: String,
        /// What is accepted.
        expected: &'static str,
    },
    /// `--range` without `..`.
    #[error("--range expects A..B, either side may be empty for HEAD (got {0:?})")]
    BadRange(String),
    /// `--update` needs three values.
    #[error("--update expects REF OLD NEW")]
    UpdateArity,
    /// Nothing to check.
    #[error(
        "no message file given (use FILE, --stdin, --commit, --range, --pre-receive or --update)"
    )]
    NoMode,
    /// Extra positional arguments.
    #[error("unexpected argument {0:?} (only one message file is checked)")]
    ExtraPositional(String),
    /// A value that is not valid UTF-8 where text is needed.
    #[error("{0} must be valid UTF-8")]
    NotUtf8(&'static str),
    /// A `--line-prefix` that would break the lines it prefixes.
    #[error("--line-prefix must be printable text on one line (got {0:?})")]
    BadPrefix(String),
}

/// The usage text for `--help`.
pub const HELP: &str = "\
jitcommit-check: check commit messages against the repository's convention

USAGE:
    jitcommit-check [OPTIONS] FILE            commit-msg hook (FILE is git's message file)
    jitcommit-check [OPTIONS] --stdin         check the message on stdin (bullet paths are
                                              traced against what is staged now)
    jitcommit-check [OPTIONS] --commit REV    check a commit's message against its own diff
    jitcommit-check [OPTIONS] --range A..B    check every commit of a range (CI)
    jitcommit-check [OPTIONS] --pre-receive   server hook: <old> <new> <ref> lines on stdin
    jitcommit-check [OPTIONS] --update REF OLD NEW    server update hook

OPTIONS:
    --format human|json|github|gitlab|rdjsonl
                          output format (json: one object per message, one per line;
                          github: workflow-command annotations; gitlab: a Code Quality
                          report; rdjsonl: reviewdog diagnostics)
    --config FILE         use this convention file (on a server: the policy)
    --convention-from REV take the convention from commit REV, as it stood there (with
                          --config: that file in REV); CI passes the pull request's base
    --no-trace-paths      do not require bullet paths to be among the changed paths
    --check-first-push    on a server: check the first push into an empty repository
                          too (by default its history is accepted as it is)
    --color auto|always|never   colour human output (auto: on a terminal, unless
                          NO_COLOR, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it)
    --line-prefix TEXT    start every line written with TEXT (a GitLab server hook:
                          --line-prefix 'GL-HOOK-ERR: ' shows the lines in the web UI)
    --dump-config         print the effective convention and where it came from
    --list-rules          list every rule id
    --explain RULE        explain one rule, with an example
    -h, --help            print this help
    -V, --version         print the version

EXIT STATUS:
    0 every message follows the convention, 1 findings, 2 usage or internal error

EXAMPLES:
    # as .git/hooks/commit-msg
    exec jitcommit-check \"$1\"
    # in CI, every commit of a pull request, judged by the base branch's convention
    jitcommit-check --convention-from origin/main --range origin/main..HEAD --format json
    # as hooks/pre-receive in a bare repository
    exec jitcommit-check --pre-receive --config /etc/jitcommit/convention.toml
    # a GitLab server hook (custom_hooks/pre-receive.d/): rejections in the web UI
    exec jitcommit-check --pre-receive --line-prefix 'GL-HOOK-ERR: '
    # the last commit, traced against its own diff
    jitcommit-check --commit HEAD
    # a quick try (the default convention wants a bullet per change)
    printf 'feat: add x\\n\\n- Add: x.txt — the new file\\n' | jitcommit-check --stdin --no-trace-paths
";

/// Parses the process arguments (without argv\[0\]).
pub fn parse<I>(args: I) -> Result<Settings, UsageError>
where
    I: IntoIterator,
    I::Item: Into<OsString>,
{
    use lexopt::prelude::*;
    let mut p = lexopt::Parser::from_args(args);
    let mut modes: Vec<(String, Mode)> = Vec::new();
    let mut files: Vec<OsString> = Vec::new();
    let mut format = Format::Human;
    let mut color = ColorChoice::Auto;
    let mut config = None;
    let mut convention_from = None;
    let mut no_trace_paths = false;
    let mut line_prefix = None;
    let mut check_first_push = false;
    while let Some(arg) = p.next()? {
        match arg {
            Long("stdin") => modes.push(("--stdin".into(), Mode::Stdin)),
            Long("range") => {
                let v = utf8(p.value()?, "--range")?;
                let ok = v
                    .split_once("..")
                    .is_some_and(|(a, b)| !b.starts_with('.') && (!a.is_empty() || !b.is_empty()));
                if !ok {
                    return Err(UsageError::BadRange(v));
                }
                modes.push(("--range".into(), Mode::Range(v)));
            }
            Long("commit") => {
                let v = utf8(p.value()?, "--commit")?;
                modes.push(("--commit".into(), Mode::Commit(v)));
            }
            Long("pre-receive") => modes.push(("--pre-receive".into(), Mode::PreReceive)),
            Long("update") => {
                let vals: Vec<OsString> = p
                    .values()
                    .map_err(|_| UsageError::UpdateArity)?
                    .take(3)
                    .collect();
                if vals.len() != 3 {
                    return Err(UsageError::UpdateArity);
                }
                let mut it = vals.into_iter();
                let mut next = || utf8(it.next().unwrap_or_default(), "--update");
                let (refname, old, new) = (next()?, next()?, next()?);
                modes.push(("--update".into(), Mode::Update { refname, old, new }));
            }
            Long("dump-config") => modes.push(("--dump-config".into(), Mode::DumpConfig)),
            Long("list-rules") => modes.push(("--list-rules".into(), Mode::ListRules)),
            Long("explain") => {
                let v = utf8(p.value()?, "--explain")?;
                modes.push(("--explain".into(), Mode::Explain(v)));
            }
            Long("format") => {
                let v = utf8(p.value()?, "--format")?;
                format = match v.as_str() {
                    "human" => Format::Human,
                    "json" => Format::Json,
                    "github" => Format::Github,
                    "gitlab" => Format::Gitlab,
                    "rdjsonl" => Format::Rdjsonl,
                    _ => {
                        return Err(bad("--format", v, "human, json, github, gitlab or rdjsonl"));
                    }
                };
            }
            Long("color") | Long("colour") => {
                let v = utf8(p.value()?, "--color")?;
                color = match v.as_str() {
                    "auto" => ColorChoice::Auto,
                    "always" => ColorChoice::Always,
                    "never" => ColorChoice::Never,
                    _ => return Err(bad("--color", v, "auto, always or never")),
                };
            }
            Long("config") => config = Some(PathBuf::from(p.value()?)),
            Long("convention-from") => {
                convention_from = Some(utf8(p.value()?, "--convention-from")?);
            }
            Long("no-trace-paths") => no_trace_paths = true,
            Long("check-first-push") => check_first_push = true,
            Long("line-prefix") => {
                let v = utf8(p.value()?, "--line-prefix")?;
                if v.chars().any(char::is_control) {
                    return Err(UsageError::BadPrefix(v));
                }
                line_prefix = Some(v).filter(|v| !v.is_empty());
            }
            Short('h') | Long("help") => return Ok(info(Mode::Help)),
            Short('V') | Long("version") => return Ok(info(Mode::Version)),
            Value(v) => files.push(v),
            _ => return Err(arg.unexpected().into()),
        }
    }
    // The message file is the last positional: pre-commit appends it after the hook's args.
    if let Some(file) = files.pop() {
        if let Some(extra) = files.first() {
            return Err(UsageError::ExtraPositional(
                extra.to_string_lossy().into_owned(),
            ));
        }
        modes.push(("FILE".into(), Mode::File(PathBuf::from(file))));
    }
    let mode = match modes.len() {
        0 => return Err(UsageError::NoMode),
        1 => modes.remove(0).1,
        _ => return Err(UsageError::Conflict(modes[0].0.clone(), modes[1].0.clone())),
    };
    // A server's policy is the convention from before the push, per ref: one commit for
    // every ref would be a second, weaker policy.
    let server = match mode {
        Mode::PreReceive => Some("--pre-receive"),
        Mode::Update { .. } => Some("--update"),
        _ => None,
    };
    if let (Some(server), Some(_)) = (server, &convention_from) {
        return Err(UsageError::Conflict(
            "--convention-from".into(),
            server.into(),
        ));
    }
    Ok(Settings {
        mode,
        format,
        config,
        convention_from,
        no_trace_paths,
        color,
        line_prefix,
        check_first_push,
    })
}

fn info(mode: Mode) -> Settings {
    Settings {
        mode,
        format: Format::Human,
        config: None,
        convention_from: None,
        no_trace_paths: false,
        color: ColorChoice::Auto,
        line_prefix: None,
        check_first_push: false,
    }
}

fn bad(flag: &'static str, value: String, expected: &'static str) -> UsageError {
    UsageError::BadValue {
        flag,
        value,
        expected,
    }
}

fn utf8(v: OsString, flag: &'static str) -> Result<String, UsageError> {
    v.into_string().map_err(|_| UsageError::NotUtf8(flag))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(args: &[&str]) -> Settings {
        match parse(args.iter().copied()) {
            Ok(s) => s,
            Err(e) => panic!("{args:?}: {e}"),
        }
    }

    fn err(args: &[&str]) -> String {
        match parse(args.iter().copied()) {
            Ok(s) => panic!("{args:?} parsed: {s:?}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn file_is_the_commit_msg_mode() {
        assert_eq!(
            ok(&[".git/COMMIT_EDITMSG"]).mode,
            Mode::File(".git/COMMIT_EDITMSG".into())
        );
    }

    #[test]
    fn pre_commit_appends_the_file_after_the_hook_args() {
        let s = ok(&[
            "--format",
            "json",
            "--no-trace-paths",
            ".git/COMMIT_EDITMSG",
        ]);
        assert_eq!(s.mode, Mode::File(".git/COMMIT_EDITMSG".into()));
        assert_eq!(s.format, Format::Json);
        assert!(s.no_trace_paths);
    }

    #[test]
    fn two_files_are_an_error() {
        assert!(err(&["a", "b"]).contains("unexpected argument \"a\""));
    }

    #[test]
    fn every_mode_flag() {
        assert_eq!(ok(&["--stdin"]).mode, Mode::Stdin);
        assert_eq!(
            ok(&["--range", "main..HEAD"]).mode,
            Mode::Range("main..HEAD".into())
        );
        assert_eq!(ok(&["--range=..b"]).mode, Mode::Range("..b".into()));
        assert_eq!(
            ok(&["--commit", "HEAD~2"]).mode,
            Mode::Commit("HEAD~2".into())
        );
        assert!(err(&["--commit", "HEAD", "--stdin"]).contains("cannot be used together"));
        assert!(err(&["--commit"]).contains("--commit"));
        assert!(err(&["--range", "a...b"]).contains("A..B"));
        assert_eq!(ok(&["--pre-receive"]).mode, Mode::PreReceive);
        assert_eq!(
            ok(&["--update", "refs/heads/x", "0000", "1111"]).mode,
            Mode::Update {
                refname: "refs/heads/x".into(),
                old: "0000".into(),
                new: "1111".into()
            }
        );
        assert_eq!(ok(&["--dump-config"]).mode, Mode::DumpConfig);
        assert_eq!(ok(&["--list-rules"]).mode, Mode::ListRules);
        assert_eq!(
            ok(&["--explain", "subject-type"]).mode,
            Mode::Explain("subject-type".into())
        );
        assert_eq!(ok(&["--help"]).mode, Mode::Help);
        assert_eq!(ok(&["-h"]).mode, Mode::Help);
        assert_eq!(ok(&["--version"]).mode, Mode::Version);
        assert_eq!(ok(&["-V"]).mode, Mode::Version);
    }

    #[test]
    fn convention_from_is_for_ci_not_for_servers() {
        let s = ok(&["--range", "a..b", "--convention-from", "a"]);
        assert_eq!(s.convention_from.as_deref(), Some("a"));
        assert_eq!(ok(&["--stdin"]).convention_from, None);
        let e = err(&["--pre-receive", "--convention-from", "a"]);
        assert!(e.contains("--convention-from and --pre-receive"), "{e}");
        let e = err(&["--update", "r", "o", "n", "--convention-from", "a"]);
        assert!(e.contains("--update"), "{e}");
    }

    #[test]
    fn options() {
        let s = ok(&["--stdin", "--config", "c.toml", "--color", "always"]);
        assert_eq!(s.config, Some(PathBuf::from("c.toml")));
        assert_eq!(s.color, ColorChoice::Always);
        assert_eq!(s.format, Format::Human);
        assert!(!s.no_trace_paths);
        assert_eq!(ok(&["--stdin", "--color=never"]).color, ColorChoice::Never);
        for (name, f) in [
            ("github", Format::Github),
            ("gitlab", Format::Gitlab),
            ("rdjsonl", Format::Rdjsonl),
        ] {
            assert_eq!(ok(&["--stdin", "--format", name]).format, f);
        }
    }

    #[test]
    fn usage_errors() {
        assert!(err(&[]).contains("no message file"));
        assert!(err(&["--stdin", "--pre-receive"]).contains("--stdin and --pre-receive"));
        assert!(err(&["--stdin", "FILE"]).contains("cannot be used together"));
        assert!(
            err(&["--format", "xml", "--stdin"]).contains("human, json, github, gitlab or rdjsonl")
        );
        assert!(err(&["--color", "sometimes", "--stdin"]).contains("auto, always or never"));
        assert!(err(&["--range", "main"]).contains("A..B"));
        assert!(err(&["--update", "refs/heads/x", "0000"]).contains("REF OLD NEW"));
        assert!(err(&["--frobnicate"]).contains("--frobnicate"));
        assert!(err(&["--explain"]).contains("missing argument"));
        assert!(err(&["--pre-receive", "--line-prefix", "a\nb"]).contains("one line"));
    }

    #[test]
    fn line_prefix_is_kept_and_empty_means_none() {
        let s = ok(&["--pre-receive", "--line-prefix", "GL-HOOK-ERR: "]);
        assert_eq!(s.line_prefix.as_deref(), Some("GL-HOOK-ERR: "));
        assert_eq!(ok(&["--pre-receive", "--line-prefix="]).line_prefix, None);
        assert_eq!(ok(&["--pre-receive"]).line_prefix, None);
    }
}
