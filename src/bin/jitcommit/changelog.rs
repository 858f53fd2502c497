//! `jitcommit changelog`: Keep a Changelog markdown or JSON from the history; `--write`
//! replaces the generated region of a file, `--check` is the drift guard.

use std::ffi::OsString;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use jitcommit_core::changelog::region::Markup;
use jitcommit_core::changelog::{
    self, Changelog, Links, Options, Others, Pending, TagPattern, region,
};

use crate::error::{Error, text, usage};
use crate::repo::{self, Context};
use crate::stored;
use crate::{Outcome, print};

const HELP: &str = "\
jitcommit changelog: Keep a Changelog 1.1.0 (or reStructuredText) from the history

USAGE:
    jitcommit changelog [OPTIONS]                   print the changelog
    jitcommit changelog --write [FILE]              replace FILE's generated region
    jitcommit changelog --check [FILE]              exit 1 with a diff when FILE drifted

One release per version tag, `Unreleased` for the commits after the last one;
sections from the convention's `sections` map, breaking changes first; each entry
is a commit's subject with its bullets and short id. The tag pattern, link patterns
and --others can also be set in the convention's [changelog] table (tag-pattern,
commit-url, compare-url, others); a flag wins. FILE defaults to CHANGELOG.md
at the work tree root; its name says its format (.md Markdown, .rst
reStructuredText in python-semantic-release's layout), and a name that says none
needs --format. One format is never written into a file of another. Only the text
between the markers is generated; the begin marker records the commit it was
generated through, and --check compares the file with the history as it stood at
that commit (tags made since included), so commits that do not touch the file keep
the check green until the next release.

OPTIONS:
    --range A..B            only the commits of A..B (either side empty: HEAD)
    --unreleased            only the commits after the last version tag
    --tag VERSION           render the unreleased commits as release VERSION
                            (with --unreleased: only that release, the notes)
    --date YYYY-MM-DD       the date of the --tag release (default: today, UTC)
    --format markdown|rst|json  output format (json: the release data; rst:
                            reStructuredText)
    --others count|list     merges, exempt and non-conforming commits: counted
                            (default) or listed under their own heading
    --tag-pattern REGEX     which tags are versions (group `version`, default semver
                            with an optional `v`)
    --commit-url PATTERN    link each id: PATTERN with {id} (full) or {short}
    --compare-url PATTERN   link each release: PATTERN with {from} and {to}
    --config FILE           use this convention file
    -h, --help              print this help

EXAMPLES:
    jitcommit changelog --unreleased
    jitcommit changelog --tag 1.4.0 --write
    jitcommit changelog --check CHANGELOG.md          # in CI
    jitcommit changelog --write CHANGELOG.rst
    jitcommit changelog --write NEWS --format markdown
    jitcommit changelog --format json --range v1.0.0..
    jitcommit changelog --commit-url 'https://git.example.com/x/commit/{id}' \\
        --compare-url 'https://git.example.com/x/compare/{from}...{to}'
";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Markdown,
    Rst,
    Json,
}

impl Format {
    fn name(self) -> &'static str {
        match self {
            Format::Markdown => "markdown",
            Format::Rst => "rst",
            Format::Json => "json",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Action {
    Print,
    Write(Option<PathBuf>),
    Check(Option<PathBuf>),
}

/// The validated command line.
pub struct Settings {
    action: Action,
    range: Option<String>,
    unreleased: bool,
    tag: Option<String>,
    date: Option<String>,
    /// `--format`, when given.
    format: Option<Format>,
    others: Option<Others>,
    tag_pattern: Option<String>,
    links: Links,
    config: Option<PathBuf>,
}

fn parse(args: Vec<OsString>) -> Result<Option<Settings>, Error> {
    use lexopt::prelude::*;
    let mut p = lexopt::Parser::from_args(args);
    let mut s = Settings {
        action: Action::Print,
        range: None,
        unreleased: false,
        tag: None,
        date: None,
        format: None,
        others: None,
        tag_pattern: None,
        links: Links::default(),
        config: None,
    };
    let mut file_flag: Option<&'static str> = None;
    while let Some(arg) = p.next()? {
        match arg {
            Long("write") | Long("check") => {
                let name = if arg == Long("write") {
                    "--write"
                } else {
                    "--check"
                };
                if let Some(f) = file_flag {
                    return Err(usage(format!("{f} and {name} cannot be used together")));
                }
                file_flag = Some(name);
                let file = p.optional_value().map(PathBuf::from);
                s.action = if name == "--write" {
                    Action::Write(file)
                } else {
                    Action::Check(file)
                };
            }
            Value(v) => {
                let file = PathBuf::from(v);
                s.action = match s.action {
                    Action::Write(None) => Action::Write(Some(file)),
                    Action::Check(None) => Action::Check(Some(file)),
                    _ => {
                        return Err(usage(format!(
                            "unexpected argument {:?} (a FILE goes after --write or --check)",
                            file.display()
                        )));
                    }
                };
            }
            Long("range") => s.range = Some(text(p.value()?, "--range")?),
            Long("unreleased") => s.unreleased = true,
            Long("tag") => s.tag = Some(text(p.value()?, "--tag")?),
            Long("date") => {
                let d = text(p.value()?, "--date")?;
                if !repo::valid_date(&d) {
                    return Err(usage(format!("--date expects YYYY-MM-DD (got {d:?})")));
                }
                s.date = Some(d);
            }
            Long("format") => {
                s.format = Some(match text(p.value()?, "--format")?.as_str() {
                    "markdown" => Format::Markdown,
                    "rst" => Format::Rst,
                    "json" => Format::Json,
                    other => {
                        return Err(usage(format!(
                            "invalid value {other:?} for --format (expected markdown, rst or json)"
                        )));
                    }
                })
            }
            Long("others") => {
                s.others = match text(p.value()?, "--others")?.as_str() {
                    "count" => Some(Others::Count),
                    "list" => Some(Others::List),
                    other => {
                        return Err(usage(format!(
                            "invalid value {other:?} for --others (expected count or list)"
                        )));
                    }
                }
            }
            Long("tag-pattern") => s.tag_pattern = Some(text(p.value()?, "--tag-pattern")?),
            Long("commit-url") => s.links.commit = Some(text(p.value()?, "--commit-url")?),
            Long("compare-url") => s.links.compare = Some(text(p.value()?, "--compare-url")?),
            Long("config") => s.config = Some(PathBuf::from(p.value()?)),
            Short('h') | Long("help") => return Ok(None),
            _ => return Err(arg.unexpected().into()),
        }
    }
    if s.format == Some(Format::Json) && s.action != Action::Print {
        return Err(usage(
            "--format json prints the release data; --write and --check keep markdown or rst",
        ));
    }
    if s.date.is_some() && s.tag.is_none() {
        return Err(usage(
            "--date dates the --tag release; give --tag VERSION too",
        ));
    }
    Ok(Some(s))
}

/// Runs `jitcommit changelog`.
pub fn run(args: Vec<OsString>) -> Result<Outcome, Error> {
    let Some(mut s) = parse(args)? else {
        return print(HELP);
    };
    let ctx = Context::open(s.config.as_deref())?;
    // Flags first, then the convention's [changelog] table, then the defaults.
    let cl = &ctx.convention.changelog;
    let others = s.others.or(cl.others).unwrap_or_default();
    s.links.commit = s.links.commit.take().or_else(|| cl.commit_url.clone());
    s.links.compare = s.links.compare.take().or_else(|| cl.compare_url.clone());
    let pattern = TagPattern::new(
        s.tag_pattern
            .as_deref()
            .or(cl.tag_pattern.as_deref())
            .unwrap_or(TagPattern::DEFAULT),
    )?;
    let history = repo::history(&ctx.repo, s.range.as_deref(), &pattern)?;
    let pending = match &s.tag {
        None => None,
        Some(v) => {
            let version = repo::parse_version(v, &pattern)
                .ok_or_else(|| usage(format!("--tag {v:?} is not a version (e.g. 1.4.0)")))?;
            let last = history.tags.last();
            if let Some(last) = last
                && version <= last.version
            {
                return Err(usage(format!(
                    "--tag {version} is not after the last version tag {} ({})",
                    last.name, last.version
                )));
            }
            Some(Pending {
                tag: pattern.tag_name(&version, last.map(|t| t.name.as_str())),
                version,
                date: s.date.clone().unwrap_or_else(repo::today),
            })
        }
    };
    let is_commit = |hex: &str| ctx.repo.is_commit(hex);
    let opts = |through| Options {
        convention: &ctx.convention,
        others,
        pending: pending.clone(),
        through,
        is_commit: Some(&is_commit),
    };
    // --unreleased keeps the release the tags do not have yet (the --tag one).
    let select = |mut log: Changelog| {
        if s.unreleased {
            log.releases.retain(|r| {
                r.tag.is_none()
                    || pending
                        .as_ref()
                        .is_some_and(|p| r.tag.as_deref() == Some(&p.tag))
            });
        }
        log
    };
    match &s.action {
        Action::Print => {
            let log = select(changelog::build(
                &history.commits,
                &history.tags,
                &opts(None),
            ));
            match s.format.unwrap_or(Format::Markdown) {
                Format::Markdown => print(&changelog::render_markdown(&log, &s.links)),
                Format::Rst => print(&changelog::render_rst(&log, &s.links)),
                Format::Json => print(&changelog::render_json(&log)),
            }
        }
        Action::Write(file) => {
            let path = file_path(&ctx, file.as_deref());
            let markup = markup_of(&path, s.format)?;
            let log = select(changelog::build(
                &history.commits,
                &history.tags,
                &opts(None),
            ));
            let body = render(markup, &log, &s.links);
            let block = region::block(markup, &body, Some(&history.tip));
            let existing = read_optional(ctx.root(), &path)?;
            // Spliced as git stores the file, written back in the work tree's endings.
            let stored = match &existing {
                Some(text) => Some(stored::read(&ctx.repo, &path, text.clone())?),
                None => None,
            };
            let new = region::splice(markup, stored.as_ref().map(|s| s.text.as_str()), &block)
                .map_err(|problem| Error::Region {
                    path: path.clone(),
                    problem,
                })?;
            let bytes = stored
                .unwrap_or_else(stored::new_file)
                .worktree_bytes(&ctx.repo, &path, &new)?;
            if existing.as_ref().map(String::as_bytes) != Some(&bytes[..]) {
                write_atomic(&ctx, &path, &bytes)?;
            }
            Ok(Outcome::Ok)
        }
        Action::Check(file) => {
            let path = file_path(&ctx, file.as_deref());
            let markup = markup_of(&path, s.format)?;
            let shown = file
                .clone()
                .unwrap_or_else(|| PathBuf::from("CHANGELOG.md"));
            let shown = shown.display();
            let mut err = std::io::stderr().lock();
            let fix = format!("run `jitcommit changelog --write {shown}` and commit it");
            let Some(text) = read_optional(ctx.root(), &path)? else {
                let _ = writeln!(err, "{shown}: no such file; {fix}");
                return Ok(Outcome::Failed);
            };
            // Compared as git stores it: a CRLF checkout of a committed file matches.
            let text = stored::read(&ctx.repo, &path, text)?.text;
            let found = match region::find(markup, &text) {
                Ok(Some(r)) => r,
                Ok(None) => {
                    let _ = writeln!(
                        err,
                        "{shown}: no generated region (`{}` … `{}`); {fix}",
                        markup.begin(),
                        markup.end()
                    );
                    return Ok(Outcome::Failed);
                }
                Err(problem) => {
                    let _ = writeln!(err, "{shown}:{problem}");
                    return Ok(Outcome::Failed);
                }
            };
            let through = found.through.unwrap_or(history.tip);
            let newer = match history.commits.iter().position(|c| c.id == through) {
                Some(_) => history
                    .commits
                    .iter()
                    .take_while(|c| c.id != through)
                    .count(),
                None => {
                    let _ = writeln!(
                        err,
                        "{shown}:{}: generated through {through}, which is not in the history checked (rewritten history, or another branch); {fix}",
                        found.line
                    );
                    return Ok(Outcome::Failed);
                }
            };
            let log = select(changelog::build(
                &history.commits,
                &history.tags,
                &opts(Some(through)),
            ));
            let body = render(markup, &log, &s.links);
            let expected = region::block(markup, &body, found.through.as_ref());
            if expected == found.block {
                let short: String = through
                    .to_string()
                    .chars()
                    .take(changelog::SHORT_ID_LEN)
                    .collect();
                let _ = writeln!(
                    err,
                    "{shown}: matches the history through {short} ({newer} newer commit{} not in it yet)",
                    if newer == 1 { "" } else { "s" }
                );
                return Ok(Outcome::Ok);
            }
            let diff = region::diff(
                found.block,
                &expected,
                &format!("{shown} (committed)"),
                &format!("{shown} (from the history)"),
            );
            let _ = std::io::stdout().lock().write_all(diff.as_bytes());
            let _ = writeln!(
                err,
                "{shown}:{}: the generated region differs from what the history derives; {fix}",
                found.line
            );
            Ok(Outcome::Failed)
        }
    }
}

fn render(markup: Markup, log: &Changelog, links: &Links) -> String {
    match markup {
        Markup::Markdown => changelog::render_markdown(log, links),
        Markup::Rst => changelog::render_rst(log, links),
    }
}

/// The markup of the changelog file `path`: its extension's (`.md`, `.markdown`;
/// `.rst`), or `--format`'s for a name that says none. A format that contradicts the
/// name, or a name that says none without `--format`, is refused: one format is never
/// written into a file of another.
fn markup_of(path: &Path, given: Option<Format>) -> Result<Markup, Error> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let by_name = match ext.as_deref() {
        Some("md" | "markdown" | "mdown" | "mkd") => Some(Format::Markdown),
        Some("rst" | "rest") => Some(Format::Rst),
        _ => None,
    };
    let format = match (by_name, given) {
        (Some(n), None) => n,
        (Some(n), Some(g)) if n == g => n,
        (Some(n), Some(g)) => {
            return Err(usage(format!(
                "{}: the name says {}; --format {} would write one format into another (drop --format, or name the file for its format)",
                path.display(),
                n.name(),
                g.name()
            )));
        }
        (None, Some(g)) => g,
        (None, None) => {
            return Err(usage(format!(
                "{}: the file name does not say the changelog's format (.md or .rst); give --format markdown or --format rst",
                path.display()
            )));
        }
    };
    Ok(match format {
        Format::Rst => Markup::Rst,
        _ => Markup::Markdown,
    })
}

fn file_path(ctx: &Context, file: Option<&Path>) -> PathBuf {
    match file {
        Some(f) => f.to_owned(),
        None => ctx.root().join("CHANGELOG.md"),
    }
}

/// Reads the changelog; a link that leaves the work tree is refused
/// (`jitcommit_core::tree_file`).
fn read_optional(root: &Path, path: &Path) -> Result<Option<String>, Error> {
    match jitcommit_core::tree_file::read_in_tree(root, path) {
        Ok(Some(bytes)) => String::from_utf8(bytes).map(Some).map_err(|_| Error::File {
            what: "read (not UTF-8)",
            path: path.to_owned(),
            source: std::io::Error::from(std::io::ErrorKind::InvalidData),
        }),
        Ok(None) => Ok(None),
        Err(source) => Err(Error::File {
            what: "read",
            path: path.to_owned(),
            source,
        }),
    }
}

/// Replaces the changelog by rename, keeping its mode, never through a link.
fn write_atomic(ctx: &Context, path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let scratch = ctx.repo.git_dir();
    jitcommit_core::tree_file::write_in_tree(ctx.root(), scratch, path, bytes).map_err(|source| {
        Error::File {
            what: "write",
            path: path.to_owned(),
            source,
        }
    })
}
