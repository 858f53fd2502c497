//! `jitcommit bump`: the next version from the commits since the last version tag;
//! `--tag` creates it as an annotated tag whose message is that release's notes.

use std::ffi::OsString;

use jitcommit_core::changelog::{
    self, BumpLevel, BumpRules, Links, Options, Others, Pending, TagPattern,
};

use crate::error::{Error, text, usage};
use crate::repo::{self, Context};
use crate::{Outcome, print};

const HELP: &str = "\
jitcommit bump: the next version from the commits since the last version tag

USAGE:
    jitcommit bump [OPTIONS]          print the next version
    jitcommit bump --tag [OPTIONS]    create it as an annotated tag (the release notes
                                      are its message); refuses on a dirty work tree

A breaking change bumps the major version, feat the minor, fix and perf the patch;
before 1.0.0 a breaking change bumps the minor version. The convention's
`[changelog] bump-types` table (e.g. `bump-types = { chore = \"patch\" }`, which
`jitcommit init` proposes for a project that released on such commits alone) and then
--bump-type change what a type asks for. Exit 1 when nothing since the last tag asks
for a release.

OPTIONS:
    --bump-type TYPE=LEVEL    what TYPE asks for: major, minor, patch or none
                              (repeatable; over the convention's bump-types)
    --breaking-before-1 minor|major   a breaking change before 1.0.0 (default minor)
    --tag                     create the tag (at HEAD)
    --format text|json        json: {\"current\", \"next\", \"tag\", \"level\"}
    --tag-pattern REGEX       which tags are versions (see `jitcommit changelog --help`)
    --config FILE             use this convention file
    -h, --help                print this help

EXAMPLES:
    jitcommit bump
    jitcommit bump --bump-type docs=patch --format json
    jitcommit bump --tag && git push --follow-tags
";

struct Settings {
    /// `--bump-type` overrides, over the convention's `changelog.bump-types`.
    bump_types: Vec<(String, BumpLevel)>,
    rules: BumpRules,
    tag: bool,
    json: bool,
    tag_pattern: Option<String>,
    config: Option<std::path::PathBuf>,
}

fn parse(args: Vec<OsString>) -> Result<Option<Settings>, Error> {
    use lexopt::prelude::*;
    let mut p = lexopt::Parser::from_args(args);
    let mut s = Settings {
        bump_types: Vec::new(),
        rules: BumpRules::default(),
        tag: false,
        json: false,
        tag_pattern: None,
        config: None,
    };
    while let Some(arg) = p.next()? {
        match arg {
            Long("bump-type") => {
                let v = text(p.value()?, "--bump-type")?;
                let parsed = v
                    .split_once('=')
                    .and_then(|(t, l)| Some((t.to_owned(), BumpLevel::parse(l)?)))
                    .filter(|(t, _)| !t.is_empty());
                let Some((ty, level)) = parsed else {
                    return Err(usage(format!(
                        "--bump-type expects TYPE=major|minor|patch|none (got {v:?})"
                    )));
                };
                s.bump_types.push((ty, level));
            }
            Long("breaking-before-1") => {
                s.rules.zero_major_is_minor = match text(p.value()?, "--breaking-before-1")?
                    .as_str()
                {
                    "minor" => true,
                    "major" => false,
                    other => {
                        return Err(usage(format!(
                            "invalid value {other:?} for --breaking-before-1 (expected minor or major)"
                        )));
                    }
                }
            }
            Long("tag") => s.tag = true,
            Long("format") => {
                s.json = match text(p.value()?, "--format")?.as_str() {
                    "text" => false,
                    "json" => true,
                    other => {
                        return Err(usage(format!(
                            "invalid value {other:?} for --format (expected text or json)"
                        )));
                    }
                }
            }
            Long("tag-pattern") => s.tag_pattern = Some(text(p.value()?, "--tag-pattern")?),
            Long("config") => s.config = Some(p.value()?.into()),
            Short('h') | Long("help") => return Ok(None),
            _ => return Err(arg.unexpected().into()),
        }
    }
    Ok(Some(s))
}

/// Runs `jitcommit bump`.
pub fn run(args: Vec<OsString>) -> Result<Outcome, Error> {
    let Some(mut s) = parse(args)? else {
        return print(HELP);
    };
    let ctx = Context::open(s.config.as_deref())?;
    let zero_major_is_minor = s.rules.zero_major_is_minor;
    s.rules = BumpRules {
        zero_major_is_minor,
        ..BumpRules::for_settings(&ctx.convention.changelog)
    };
    s.rules.types.extend(s.bump_types.drain(..));
    let pattern = TagPattern::new(
        s.tag_pattern
            .as_deref()
            .or(ctx.convention.changelog.tag_pattern.as_deref())
            .unwrap_or(TagPattern::DEFAULT),
    )?;
    let history = repo::history(&ctx.repo, None, &pattern)?;
    let last = history.tags.last();
    let is_commit = |hex: &str| ctx.repo.is_commit(hex);
    let opts = Options {
        convention: &ctx.convention,
        others: Others::Count,
        pending: None,
        through: None,
        is_commit: Some(&is_commit),
    };
    let log = changelog::build(&history.commits, &history.tags, &opts);
    let unreleased = log.releases.first().filter(|r| r.tag.is_none());
    let since = last.map_or("the first commit".to_owned(), |t| t.name.clone());
    let level = unreleased.map_or(BumpLevel::None, |r| s.rules.level(r));
    let Some(next) = changelog::next_version(last.map(|t| &t.version), level, &s.rules) else {
        let n = unreleased.map_or(0, |r| r.commits);
        eprintln!(
            "jitcommit bump: nothing to release since {since}: {n} commit{}, none breaking or of a type that bumps ({})",
            if n == 1 { "" } else { "s" },
            s.rules
                .types
                .iter()
                .filter(|(_, l)| **l != BumpLevel::None)
                .map(|(t, _)| t.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
        return Ok(Outcome::Failed);
    };
    let tag_name = pattern.tag_name(&next, last.map(|t| t.name.as_str()));
    if s.tag {
        let gix = ctx.repo.gix();
        if gix
            .is_dirty()
            .map_err(|e| Error::Git(format!("cannot read the status: {e}")))?
        {
            eprintln!(
                "jitcommit bump: the work tree has uncommitted changes; commit or stash them before tagging {tag_name}"
            );
            return Ok(Outcome::Failed);
        }
        let pending = Pending {
            version: next.clone(),
            tag: tag_name.clone(),
            date: repo::today(),
        };
        let opts = Options {
            pending: Some(pending),
            ..opts
        };
        let mut log = changelog::build(&history.commits, &history.tags, &opts);
        log.releases.truncate(1);
        let cl = &ctx.convention.changelog;
        let links = Links {
            commit: cl.commit_url.clone(),
            compare: cl.compare_url.clone(),
        };
        let notes = changelog::render_markdown(&log, &links);
        let committer = gix
            .committer()
            .ok_or_else(|| {
                Error::Git("no committer identity (set user.name and user.email)".to_owned())
            })?
            .map_err(|e| Error::Git(format!("cannot read the committer identity: {e}")))?;
        gix.tag(
            &tag_name,
            history.tip,
            gix::objs::Kind::Commit,
            Some(committer),
            notes,
            gix::refs::transaction::PreviousValue::MustNotExist,
        )
        .map_err(|e| Error::Git(format!("cannot create tag {tag_name}: {e}")))?;
        eprintln!(
            "jitcommit bump: tagged {} as {tag_name}",
            &history.tip.to_string()[..changelog::SHORT_ID_LEN]
        );
    }
    if s.json {
        let level = serde_json::to_value(level).unwrap_or_default();
        let v = serde_json::json!({
            "current": last.map(|t| t.version.to_string()),
            "next": next.to_string(),
            "tag": tag_name,
            "level": level,
        });
        print(&format!("{v}\n"))
    } else {
        print(&format!("{next}\n"))
    }
}
