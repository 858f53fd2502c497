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

Pre-releases: the next release is computed from the last release that is not a
pre-release, over every commit since it, so `bump` after `v1.2.0-rc.1` proposes
1.2.0 (or more, if a later commit asks for it). `--pre rc` proposes the next
pre-release of that version instead: `1.2.0-rc.2` after `v1.2.0-rc.1`, `1.2.0-rc.1`
when none of its version is tagged yet; it needs a commit since the last tag that
asks for a release.

OPTIONS:
    --bump-type TYPE=LEVEL    what TYPE asks for: major, minor, patch or none
                              (repeatable; over the convention's bump-types)
    --breaking-before-1 minor|major   a breaking change before 1.0.0 (default minor,
                              or the convention's changelog.breaking-before-1)
    --pre TOKEN               propose the next pre-release (TOKEN: rc, beta, alpha…)
    --tag                     create the tag (at HEAD)
    --format text|json        json: {\"current\", \"next\", \"tag\", \"level\"}
    --tag-pattern REGEX       which tags are versions (see `jitcommit changelog --help`)
    --config FILE             use this convention file
    -h, --help                print this help

EXAMPLES:
    jitcommit bump
    jitcommit bump --bump-type docs=patch --format json
    jitcommit bump --pre rc --tag
    jitcommit bump --tag && git push --follow-tags
";

struct Settings {
    /// `--bump-type` overrides, over the convention's `changelog.bump-types`.
    bump_types: Vec<(String, BumpLevel)>,
    rules: BumpRules,
    /// `--breaking-before-1`, over the convention's.
    zero_major_is_minor: Option<bool>,
    /// `--pre TOKEN`.
    pre: Option<String>,
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
        zero_major_is_minor: None,
        pre: None,
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
                s.zero_major_is_minor = match text(p.value()?, "--breaking-before-1")?.as_str() {
                    "minor" => Some(true),
                    "major" => Some(false),
                    other => {
                        return Err(usage(format!(
                            "invalid value {other:?} for --breaking-before-1 (expected minor or major)"
                        )));
                    }
                }
            }
            Long("tag") => s.tag = true,
            Long("pre") => {
                let v = text(p.value()?, "--pre")?;
                let ok = !v.is_empty()
                    && v.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
                    && !v.bytes().all(|b| b.is_ascii_digit());
                if !ok {
                    return Err(usage(format!(
                        "--pre expects a pre-release name such as rc, beta or alpha (got {v:?})"
                    )));
                }
                s.pre = Some(v);
            }
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
    s.rules = BumpRules::for_settings(&ctx.convention.changelog);
    if let Some(z) = s.zero_major_is_minor {
        s.rules.zero_major_is_minor = z;
    }
    s.rules.types.extend(s.bump_types.drain(..));
    let pattern = TagPattern::new(
        s.tag_pattern
            .as_deref()
            .or(ctx.convention.changelog.tag_pattern.as_deref())
            .unwrap_or(TagPattern::DEFAULT),
    )?;
    let history = repo::history(&ctx.repo, None, &pattern)?;
    // Every tag that names a release (ignore-tags applied), pre-releases included.
    let tags = changelog::release_tags(
        &history.tags,
        &changelog::ChangelogSettings {
            prereleases: Some(changelog::Prereleases::Own),
            ..ctx.convention.changelog.clone()
        },
        None,
    );
    let last = tags.last();
    let is_commit = |hex: &str| ctx.repo.is_commit(hex);
    let opts = Options {
        convention: &ctx.convention,
        others: Others::Count,
        pending: None,
        through: None,
        is_commit: Some(&is_commit),
    };
    let level_since = |tags: &[changelog::VersionTag]| {
        let log = changelog::build(&history.commits, tags, &opts);
        let unreleased = log.releases.into_iter().next().filter(|r| r.tag.is_none());
        let n = unreleased.as_ref().map_or(0, |r| r.commits);
        (unreleased.map_or(BumpLevel::None, |r| s.rules.level(&r)), n)
    };
    // The next release counts every commit since the last one that is not a
    // pre-release: a pre-release's commits are the release's too.
    let finals: Vec<_> = tags
        .iter()
        .filter(|t| t.version.pre.is_empty())
        .cloned()
        .collect();
    let last_final = finals.last();
    let (level, _) = level_since(&finals);
    // What the commits since the last tag of any kind ask for.
    let (new_level, n) = level_since(&tags);
    let base_of = |v: &changelog::Version| changelog::Version::new(v.major, v.minor, v.patch);
    let release =
        changelog::next_version(last_final.map(|t| &t.version), level, &s.rules).map(|next| {
            match last.filter(|t| !t.version.pre.is_empty()) {
                // A pre-release already names a later version (given by hand): keep it.
                Some(pre) if base_of(&pre.version) > next => base_of(&pre.version),
                _ => next,
            }
        });
    let since = last.map_or("the first commit".to_owned(), |t| t.name.clone());
    let next = match (&s.pre, release) {
        (Some(token), Some(release)) if new_level != BumpLevel::None => {
            let n = tags
                .iter()
                .filter(|t| base_of(&t.version) == release)
                .filter_map(|t| pre_number(&t.version, token))
                .max()
                .unwrap_or(0);
            let mut v = release;
            v.pre = changelog::Prerelease::new(&format!("{token}.{}", n.saturating_add(1)))
                .map_err(|e| usage(format!("--pre {token:?}: {e}")))?;
            Some(v)
        }
        (Some(_), _) => None,
        (None, release) => release,
    };
    let Some(next) = next else {
        let (n, since) = if s.pre.is_some() || last_final.is_none() {
            (n, since)
        } else {
            let f = last_final.map_or("the first commit".to_owned(), |t| t.name.clone());
            (level_since(&finals).1, f)
        };
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
    let level = if s.pre.is_some() { new_level } else { level };
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
        let mut log = changelog::build(&history.commits, &tags, &opts);
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

/// N of a pre-release `TOKEN.N` (`rc.3` → 3; a bare `rc` is 0).
fn pre_number(v: &changelog::Version, token: &str) -> Option<u64> {
    let rest = v.pre.as_str().strip_prefix(token)?;
    if rest.is_empty() {
        return Some(0);
    }
    rest.strip_prefix('.')?.parse().ok()
}
