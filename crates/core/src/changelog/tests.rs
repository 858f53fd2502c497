//! The release model on hand-built histories: assignment to tags, sections, breaking
//! first, reverts, the others setting, and the region splice.

#![allow(clippy::unwrap_used)]

use super::region::{self, RegionError};
use super::*;

fn id(n: u8) -> ObjectId {
    ObjectId::from_bytes_or_panic(&[n; 20])
}

/// Commits of a linear history, given oldest first; returned newest first.
fn linear(messages: &[&str]) -> Vec<HistoryCommit> {
    let mut out: Vec<HistoryCommit> = Vec::new();
    for (i, m) in messages.iter().enumerate() {
        let n = u8::try_from(i + 1).unwrap();
        out.push(HistoryCommit {
            id: id(n),
            parents: if i == 0 { vec![] } else { vec![id(n - 1)] },
            time: 1_767_225_600 + i64::from(n) * 60,
            message: (*m).to_owned(),
        });
    }
    out.reverse();
    out
}

fn tag(name: &str, commit: u8) -> VersionTag {
    VersionTag {
        name: name.to_owned(),
        version: TagPattern::default().version(name).unwrap(),
        commit: id(commit),
        date: "2026-01-01".to_owned(),
    }
}

fn opts(conv: &Convention) -> Options<'_> {
    Options {
        convention: conv,
        others: Others::Count,
        pending: None,
        through: None,
        is_commit: None,
    }
}

const FEAT: &str = "feat(core): add a thing\n\n- Add: src/a.rs — the thing\n";
const FIX: &str = "fix: mend a thing\n\n- Fix: src/a.rs — it broke\n";
const DOCS: &str = "docs: say more\n\n- Update: README.md — more words\n";
const BREAK: &str =
    "feat!: drop the old flag\n\n- Remove: src/flag.rs — gone\n\nBREAKING CHANGE: --old is gone\n";

#[test]
fn commits_go_to_the_oldest_tag_that_contains_them() {
    let conv = Convention::default();
    let h = linear(&[FEAT, FIX, FEAT, DOCS, FIX]);
    let tags = [tag("v0.1.0", 2), tag("v0.2.0", 4)];
    let log = build(&h, &tags, &opts(&conv));
    let names: Vec<_> = log.releases.iter().map(|r| r.version.clone()).collect();
    assert_eq!(names, [None, Some("0.2.0".into()), Some("0.1.0".into())]);
    let counts: Vec<_> = log.releases.iter().map(|r| r.commits).collect();
    assert_eq!(counts, [1, 2, 2]);
    assert_eq!(log.releases[1].previous_tag.as_deref(), Some("v0.1.0"));
    assert_eq!(log.releases[1].left_out.unlisted_types, 1);
    assert_eq!(log.releases[2].sections.len(), 2, "{:?}", log.releases[2]);
    assert_eq!(log.releases[2].sections[0].name, "Added");
    assert_eq!(log.releases[2].sections[1].name, "Fixed");
}

#[test]
fn a_merge_belongs_with_the_branch_it_closes() {
    let conv = Convention::default();
    // 1 - 2 ---- 4 (merge of 3, tagged)
    //      \- 3 /
    let mut h = linear(&[FEAT, FIX]);
    h.insert(
        0,
        HistoryCommit {
            id: id(3),
            parents: vec![id(1)],
            time: 1_767_300_000,
            message: FEAT.to_owned(),
        },
    );
    h.insert(
        0,
        HistoryCommit {
            id: id(4),
            parents: vec![id(2), id(3)],
            time: 1_767_400_000,
            message: "Merge branch 'x'\n".to_owned(),
        },
    );
    let log = build(&h, &[tag("v1.0.0", 1), tag("v1.1.0", 4)], &opts(&conv));
    assert_eq!(log.releases.len(), 2);
    assert_eq!(log.releases[0].commits, 3);
    assert_eq!(log.releases[0].left_out.merges, 1);
}

#[test]
fn breaking_entries_come_first_and_carry_their_note() {
    let conv = Convention::default();
    let log = build(&linear(&[FEAT, BREAK]), &[], &opts(&conv));
    let r = &log.releases[0];
    assert_eq!(r.breaking.len(), 1);
    assert_eq!(
        r.breaking[0].breaking_note.as_deref(),
        Some("--old is gone")
    );
    assert_eq!(r.sections[0].entries.len(), 1);
    let md = render_markdown(&log, &Links::default());
    let b = md.find("### Breaking changes").unwrap();
    let a = md.find("### Added").unwrap();
    assert!(b < a, "{md}");
}

#[test]
fn a_revert_cancels_its_commit_within_a_release_only() {
    let conv = Convention::default();
    let revert_of = |n: u8| {
        format!(
            "Revert \"feat(core): add a thing\"\n\nThis reverts commit {}.\n",
            id(n)
        )
    };
    let r3 = revert_of(1);
    let h = linear(&[FEAT, FIX, &r3]);
    let log = build(&h, &[], &opts(&conv));
    let r = &log.releases[0];
    assert_eq!(r.left_out.reverted, 2);
    assert!(r.sections.iter().all(|s| s.name != "Added"), "{r:?}");
    // Across a release: the feature stays in its release, the revert is exempt.
    let log = build(&h, &[tag("1.0.0", 2)], &opts(&conv));
    assert_eq!(log.releases[0].left_out.exempt, 1);
    assert_eq!(log.releases[1].sections[0].name, "Added");
    // A revert of the revert brings the feature back.
    let r4 = format!("Revert \"Revert ...\"\n\nThis reverts commit {}.\n", id(3));
    let h = linear(&[FEAT, FIX, &r3, &r4]);
    let log = build(&h, &[], &opts(&conv));
    assert_eq!(log.releases[0].sections[0].name, "Added");
    assert_eq!(log.releases[0].left_out.reverted, 2);
}

#[test]
fn others_are_counted_or_listed() {
    let conv = Convention::default();
    let h = linear(&["initial import\n", FEAT, "fixup! feat(core): add a thing\n"]);
    let log = build(&h, &[], &opts(&conv));
    let lo = log.releases[0].left_out;
    assert_eq!((lo.non_conforming, lo.exempt), (1, 1));
    let md = render_markdown(&log, &Links::default());
    assert!(
        md.contains("Not listed: 1 exempt commit, 1 commit not following the convention."),
        "{md}"
    );
    let mut o = opts(&conv);
    o.others = Others::List;
    let log = build(&h, &[], &o);
    assert_eq!(log.releases[0].others.len(), 2);
    let md = render_markdown(&log, &Links::default());
    assert!(md.contains("### Other commits\n\n- fixup! feat(core): add a thing (`0303030`; fixup)\n- initial import (`0101010`; not following the convention)\n"), "{md}");
}

#[test]
fn links_come_from_the_patterns() {
    let conv = Convention::default();
    let log = build(&linear(&[FEAT, FIX]), &[tag("v1.0.0", 1)], &opts(&conv));
    let links = Links {
        commit: Some("https://example.com/c/{id}".into()),
        compare: Some("https://example.com/compare/{from}...{to}".into()),
    };
    let md = render_markdown(&log, &links);
    assert!(
        md.starts_with("## [Unreleased](https://example.com/compare/v1.0.0...HEAD)\n"),
        "{md}"
    );
    assert!(
        md.contains(&format!("([`0202020`](https://example.com/c/{}))", id(2))),
        "{md}"
    );
    assert!(md.contains("## [1.0.0] - 2026-01-01\n"), "{md}");
}

#[test]
fn a_pending_tag_renders_the_unreleased_commits_as_a_release() {
    let conv = Convention::default();
    let mut o = opts(&conv);
    o.pending = Some(Pending {
        version: Version::new(1, 1, 0),
        tag: "v1.1.0".into(),
        date: "2026-02-03".into(),
    });
    let log = build(&linear(&[FEAT, FIX]), &[tag("v1.0.0", 1)], &o);
    assert_eq!(log.releases[0].version.as_deref(), Some("1.1.0"));
    assert_eq!(log.releases[0].date.as_deref(), Some("2026-02-03"));
}

#[test]
fn bump_follows_the_highest_type_and_the_zero_rule() {
    let conv = Convention::default();
    let rules = BumpRules::default();
    let level = |msgs: &[&str]| rules.level(&build(&linear(msgs), &[], &opts(&conv)).releases[0]);
    assert_eq!(level(&[DOCS]), BumpLevel::None);
    assert_eq!(level(&[FIX, DOCS]), BumpLevel::Patch);
    assert_eq!(level(&[FIX, FEAT]), BumpLevel::Minor);
    assert_eq!(level(&[FIX, BREAK]), BumpLevel::Major);
    let v = |s: &str| Version::parse(s).unwrap();
    assert_eq!(
        next_version(Some(&v("0.3.1")), BumpLevel::Major, &rules),
        Some(v("0.4.0"))
    );
    assert_eq!(
        next_version(Some(&v("1.3.1")), BumpLevel::Major, &rules),
        Some(v("2.0.0"))
    );
    assert_eq!(
        next_version(Some(&v("1.3.1")), BumpLevel::Patch, &rules),
        Some(v("1.3.2"))
    );
    assert_eq!(
        next_version(Some(&v("1.4.0-rc.1")), BumpLevel::Patch, &rules),
        Some(v("1.4.0"))
    );
    assert_eq!(
        next_version(None, BumpLevel::Minor, &rules),
        Some(v("0.1.0"))
    );
    assert_eq!(next_version(None, BumpLevel::None, &rules), None);
    // No overflow at the top of the range.
    let top = Version::new(u64::MAX, 0, 0);
    assert_eq!(
        next_version(Some(&top), BumpLevel::Major, &rules),
        Some(top)
    );
    let strict = BumpRules {
        zero_major_is_minor: false,
        ..BumpRules::default()
    };
    assert_eq!(
        next_version(Some(&v("0.3.1")), BumpLevel::Major, &strict),
        Some(v("1.0.0"))
    );
}

#[test]
fn versions_order_as_semver_and_tags_match_the_pattern() {
    let p = TagPattern::default();
    let mut vs: Vec<Version> = ["1.0.0", "1.0.0-rc.10", "1.0.0-rc.2", "0.9.9", "1.0.0-alpha"]
        .iter()
        .map(|s| Version::parse(s).unwrap())
        .collect();
    vs.sort();
    let s: Vec<String> = vs.iter().map(ToString::to_string).collect();
    assert_eq!(
        s,
        ["0.9.9", "1.0.0-alpha", "1.0.0-rc.2", "1.0.0-rc.10", "1.0.0"]
    );
    assert!(p.version("v1.2.3").is_some());
    assert!(p.version("release-1.2.3").is_none());
    assert!(p.version("v1.2").is_none());
    assert!(p.version("v01.2.3").is_none());
    let custom = TagPattern::new(r"^release-(?P<version>.*)$").unwrap();
    assert_eq!(custom.version("release-2.0.0"), Some(Version::new(2, 0, 0)));
    assert_eq!(
        custom.tag_name(&Version::new(2, 1, 0), Some("release-2.0.0")),
        "release-2.1.0"
    );
    assert_eq!(p.tag_name(&Version::new(2, 1, 0), Some("2.0.0")), "2.1.0");
    assert_eq!(p.tag_name(&Version::new(2, 1, 0), None), "v2.1.0");
    assert!(TagPattern::new("(").is_err());
}

#[test]
fn dates_are_utc_calendar_days() {
    assert_eq!(date_of(0), "1970-01-01");
    assert_eq!(date_of(1_767_225_600), "2026-01-01");
    assert_eq!(date_of(951_782_400), "2000-02-29");
    assert_eq!(date_of(-1), "1969-12-31");
    assert_eq!(date_of(i64::MAX), "1970-01-01", "out of range: no panic");
    assert!(is_date("2024-02-29") && !is_date("2026-02-29") && !is_date("2026-13-01"));
    assert!(!is_date("2026-1-01") && !is_date("20260101") && !is_date("2026-01-01T00"));
}

#[test]
fn the_region_is_found_replaced_and_kept_apart_from_hand_text() {
    let b1 = region::block(region::Markup::Markdown, "## [Unreleased]\n", Some(&id(9)));
    let file = region::splice(region::Markup::Markdown, Some("# Log\n\nhand text\n"), &b1).unwrap();
    assert!(
        file.starts_with("# Log\n\nhand text\n\n<!-- jitcommit changelog begin"),
        "{file}"
    );
    let r = region::find(region::Markup::Markdown, &file)
        .unwrap()
        .unwrap();
    assert_eq!(r.through, Some(id(9)));
    assert_eq!(r.block, b1);
    let b2 = region::block(region::Markup::Markdown, "## [1.0.0]\n", None);
    let again = region::splice(region::Markup::Markdown, Some(&file), &b2).unwrap();
    assert_eq!(again, file.replace(&b1, &b2));
    assert_eq!(
        region::find(
            region::Markup::Markdown,
            "x\n<!-- jitcommit changelog end -->\n"
        ),
        Err(RegionError::StrayEnd {
            line: 2,
            end: region::END
        })
    );
    assert_eq!(
        region::find(region::Markup::Markdown, &format!("{b1}{b1}")),
        Err(RegionError::Second { line: 6 })
    );
    assert_eq!(
        region::find(
            region::Markup::Markdown,
            "<!-- jitcommit changelog begin -->\n"
        ),
        Err(RegionError::Unterminated {
            line: 1,
            begin: region::BEGIN,
            end: region::END
        })
    );
    let fresh = region::splice(region::Markup::Markdown, None, &b2).unwrap();
    assert!(fresh.starts_with(region::PREAMBLE));
}

#[test]
fn the_diff_is_unified() {
    let d = region::diff("a\nb\nc\n", "a\nB\nc\n", "old", "new");
    assert_eq!(d, "--- old\n+++ new\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
    assert_eq!(region::diff("x\n", "x\n", "a", "b"), "");
}

/// The hunks are git's: grouped as `git diff --no-index` groups them (changes 6 lines
/// apart share a hunk, 7 apart do not), a last line without a newline marked.
#[test]
fn the_diff_hunks_are_gits() {
    let lines = |n: usize, changed: &[usize], tail: &str| {
        let mut t: String = (1..=n)
            .map(|i| {
                if changed.contains(&i) {
                    format!("changed {i}\n")
                } else {
                    format!("line {i}\n")
                }
            })
            .collect();
        t.push_str(tail);
        t
    };
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (lines(30, &[], ""), lines(30, &[5, 12], "")),
        (lines(30, &[], ""), lines(30, &[5, 13], "")),
        (lines(30, &[], ""), lines(30, &[1, 30], "")),
        (lines(10, &[], "end"), lines(10, &[2], "END")),
        (lines(10, &[], ""), lines(12, &[], "")),
        (String::new(), lines(3, &[], "")),
    ];
    for (old, new) in cases {
        std::fs::write(dir.path().join("old"), &old).unwrap();
        std::fs::write(dir.path().join("new"), &new).unwrap();
        let out = std::process::Command::new("git")
            .args(["diff", "--no-index", "--no-color", "-U3", "old", "new"])
            .current_dir(dir.path())
            .output()
            .unwrap();
        let git = String::from_utf8(out.stdout).unwrap();
        let git_hunks = &git[git.find("\n@@").unwrap() + 1..];
        let ours = region::diff(&old, &new, "a", "b");
        let our_hunks = &ours[ours.find("\n@@").unwrap() + 1..];
        // git drops a length of 1 (`@@ -5 +5 @@`) and names a function after the
        // ranges; the ranges and lines are otherwise the same.
        let normal = |h: &str| {
            h.lines()
                .map(|l| match l.strip_prefix("@@ ") {
                    Some(r) => r.split(" @@").next().unwrap_or("").replace(",1 ", " "),
                    None => l.to_owned(),
                })
                .map(|l| {
                    if l.ends_with(",1") {
                        l[..l.len() - 2].to_owned()
                    } else {
                        l
                    }
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(normal(our_hunks), normal(git_hunks), "{old:?} → {new:?}");
    }
}

#[test]
fn through_leaves_out_later_commits_but_keeps_later_tags() {
    let conv = Convention::default();
    let h = linear(&[FEAT, FIX, DOCS]);
    let mut o = opts(&conv);
    o.through = Some(id(2));
    let log = build(&h, &[], &o);
    assert_eq!(log.releases[0].commits, 2);
    // A tag on the commit after `through` claims the commits before it.
    let log = build(&h, &[tag("v1.0.0", 3)], &o);
    assert_eq!(log.releases.len(), 1);
    assert_eq!(log.releases[0].version.as_deref(), Some("1.0.0"));
    assert_eq!(log.releases[0].commits, 2);
}

fn convention_from(text: &str) -> Result<Convention, crate::config::ConfigError> {
    let text = text.to_owned();
    let mut read =
        |name: &str| Ok((name == ".commit-convention.toml").then(|| text.clone().into_bytes()));
    crate::convention::discover(&mut read).map(|l| l.convention)
}

#[test]
fn the_convention_holds_the_changelog_settings() {
    let c = convention_from(
        "[changelog]\ntag-pattern = '^rel-(?P<version>.+)$'\ncommit-url = 'https://x/c/{id}'\ncompare-url = 'https://x/{from}..{to}'\nothers = 'list'\n",
    )
    .unwrap();
    assert_eq!(
        c.changelog.tag_pattern.as_deref(),
        Some("^rel-(?P<version>.+)$")
    );
    assert_eq!(c.changelog.others, Some(Others::List));
    // It writes back and parses to the same.
    assert_eq!(convention_from(&c.to_toml()).unwrap(), c);
    // Unset, nothing is written.
    assert!(!Convention::default().to_toml().contains("[changelog]"));
    for (text, needle) in [
        (
            "[changelog]\ntag-pattern = '('\n",
            ".commit-convention.toml:2:15: changelog.tag-pattern",
        ),
        (
            "[changelog]\ncommit-url = 'https://x/c/'\n",
            "needs {id} or {short}",
        ),
        (
            "[changelog]\ncompare-url = 'https://x/{from}'\n",
            "needs {from} and {to}",
        ),
        (
            "[changelog]\nothers = 'all'\n",
            "changelog.others: unknown variant `all`, expected `count` or `list`",
        ),
        (
            "[changelog]\nlinks = 1\n",
            "changelog.links: unknown field `links`",
        ),
    ] {
        let e = convention_from(text).unwrap_err().to_string();
        assert!(e.contains(needle), "{text:?}: {e}");
    }
}

/// What a CommonMark renderer makes of `md` that commit text must never make: raw
/// HTML, an image, a link to anything but http(s), mailto or a relative path, and an
/// `@name` in plain text (GitHub pings whoever it names; code is left alone).
fn rendered_problems(md: &str) -> Vec<String> {
    use pulldown_cmark::{Event, Parser, Tag};
    let mut problems = Vec::new();
    let mut text = String::new();
    let check_text = |text: &mut String, problems: &mut Vec<String>| {
        let b = text.as_bytes();
        for (i, _) in text.match_indices('@') {
            let before = i.checked_sub(1).map(|j| b[j]);
            let word = before
                .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'/' | b'.'));
            if !word && b.get(i + 1).is_some_and(u8::is_ascii_alphanumeric) {
                problems.push(format!("mention in {text:?}"));
            }
        }
        text.clear();
    };
    let mut in_code_block = false;
    for ev in Parser::new(md) {
        match ev {
            // A code block (a summary that starts with spaces) is shown verbatim.
            Event::Start(Tag::CodeBlock(_)) => in_code_block = true,
            Event::End(pulldown_cmark::TagEnd::CodeBlock) => in_code_block = false,
            Event::Text(_) if in_code_block => {}
            Event::Text(t) => {
                text.push_str(&t);
                continue;
            }
            Event::Html(h) | Event::InlineHtml(h) => problems.push(format!("html {h:?}")),
            Event::Start(Tag::Image { dest_url, .. }) => {
                problems.push(format!("image {dest_url:?}"))
            }
            Event::Start(Tag::Link { dest_url, .. }) => {
                let d = dest_url.to_ascii_lowercase();
                let scheme = d
                    .split_once(':')
                    .is_some_and(|(s, _)| !s.contains(['/', '?', '#']));
                let ok = !scheme
                    || d.starts_with("http://")
                    || d.starts_with("https://")
                    || d.starts_with("mailto:");
                if !ok {
                    problems.push(format!("link {dest_url:?}"));
                }
            }
            _ => {}
        }
        check_text(&mut text, &mut problems);
    }
    check_text(&mut text, &mut problems);
    problems
}

/// Attacker text in every field commit text reaches: the summary, scope, breaking
/// note, a bullet's verb-free what-and-why, its path, and a non-conforming subject.
const HOSTILE: &[&str] = &[
    "<img src=x onerror=alert(1)>",
    "<details><summary>x</summary>",
    "<script>alert(1)</script>",
    "[x](javascript:alert(1))",
    "[x]( javascript:alert(1))",
    "[x](<javascript:alert(1)>)",
    "[x](JaVaScRiPt:alert(1))",
    "[x](data:text/html;base64,PHNjcmlwdD4=)",
    "[x](vbscript:msgbox)",
    "[x](&#106;avascript:alert(1))",
    "[x](java\\script:alert(1))",
    "[x](javascript&#58;alert(1))",
    "![t](https://evil.example/pixel.png)",
    "![t](javascript:alert(1))",
    "<javascript:alert(1)>",
    "<https://evil.example>",
    "[x]: javascript:alert(1)",
    "ping @octocat and @org/team",
    "(@admin) cc:@someone",
    "\\@escaped",
    "\\`<img src=x onerror=alert(1)>\\`",
    "`code` <b>bold</b> `more`",
    "``x`` <i>i</i>",
    "a`<img src=x>",
    "line\n<img src=x>\r\n[d]: javascript:x",
];

#[test]
fn commit_text_renders_as_text_in_the_changelog() {
    let conv = Convention::default();
    let mut messages = Vec::new();
    for h in HOSTILE {
        let one_line = h.replace(['\n', '\r'], " ");
        messages.push(format!(
            "feat(core): add {one_line}\n\n- Add: src/a.rs — {h}\n\nBREAKING CHANGE: {h}\n"
        ));
        messages.push(format!("{one_line}\n"));
        messages.push(format!(
            "fix: mend it\n\n- Fix: src/a`{one_line}`.rs — {one_line}\n"
        ));
    }
    let refs: Vec<&str> = messages.iter().map(String::as_str).collect();
    let h = linear(&refs);
    let mut o = opts(&conv);
    o.others = Others::List;
    let log = build(&h, &[], &o);
    let md = render_markdown(&log, &Links::default());
    let problems = rendered_problems(&md);
    assert!(problems.is_empty(), "{problems:#?}\n{md}");
    // The text is still there to read.
    assert!(md.contains("&lt;img src=x onerror=alert(1)>"), "{md}");
    assert!(md.contains("`@octocat`"), "{md}");
}

#[test]
fn the_renderer_check_sees_each_attack_in_raw_text() {
    // The check is not blind: the same text unescaped is caught.
    for h in HOSTILE
        .iter()
        .filter(|h| !h.starts_with('`') && !h.starts_with("``"))
    {
        let raw = format!("- {h} (`abc`)\n");
        let escaped = format!("- {} (`abc`)\n", escape_text(h));
        assert!(rendered_problems(&escaped).is_empty(), "{escaped}");
        if !h.contains("\\@")
            && !h.contains("\\`")
            && !h.starts_with("a`")
            && !h.contains("<https")
            && !h.starts_with("[x]:")
        {
            assert!(!rendered_problems(&raw).is_empty(), "not caught raw: {raw}");
        }
    }
}

#[test]
fn safe_text_and_code_spans_are_kept() {
    for t in [
        "add the `<T>` parameter",
        "see [the docs](https://example.org/a_(b))",
        "see [the guide](docs/guide.md#part)",
        "mail user@example.com about a@b",
        "50% of `a` and ``x`y``",
        "plain words, [brackets] and ! marks",
    ] {
        let e = escape_text(t);
        assert!(rendered_problems(&e).is_empty(), "{e}");
        if !t.contains('<') && !t.contains("](docs") {
            assert_eq!(e, t);
        }
    }
    assert_eq!(
        escape_text("add the `<T>` parameter"),
        "add the `<T>` parameter"
    );
    assert_eq!(code_span("a`b"), "``a`b``");
    assert_eq!(code_span("`a"), "`` `a ``");
    assert_eq!(code_span("src/a.rs"), "`src/a.rs`");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 3000, ..Default::default() })]
    /// Any text made of the characters that matter renders without HTML, images, unsafe
    /// links or mentions, inside a list item as the changelog writes it.
    #[test]
    fn any_escaped_text_renders_inert(
        parts in proptest::collection::vec(proptest::sample::select(vec![
            "<", ">", "`", "``", "\\", "@", "a", " ", "[", "]", "(", ")", "!", ":", "&",
            "#", "javascript:", "data:", "img src=x", "/", "\n", "*", "_", "\"", "'",
        ]), 0..40)
    ) {
        let t: String = parts.concat();
        let md = format!("- {} (`abc`)\n  - Add {} — {}\n", escape_text(&t), code_span(&t), escape_text(&t));
        let problems = rendered_problems(&md);
        proptest::prop_assert!(problems.is_empty(), "{:?}\n{}", problems, md);
    }
}

/// Commit text in reStructuredText: code spans become inline literals joined to the
/// text around them by escaped spaces where needed, every other markup character is
/// escaped, and an unpaired backtick stays a backtick.
#[test]
fn rst_text_renders_as_the_text_it_is() {
    let cases = [
        ("use `x` here", "use ``x`` here"),
        ("(`x`)", "(\\ ``x``)"),
        ("a`x`b", "a\\ ``x``\\ b"),
        ("`x`.", "``x``."),
        ("one ` tick", "one \\` tick"),
        ("`` x ``", "\\`\\` x \\`\\`"),
        (
            "*bold* _u_ |s| [1]_ <a>",
            "\\*bold\\* \\_u\\_ \\|s\\| \\[1\\]\\_ \\<a\\>",
        ),
        ("line\nbreak", "line break"),
    ];
    for (text, want) in cases {
        assert_eq!(super::escape_rst(text), want, "{text:?}");
    }
}
