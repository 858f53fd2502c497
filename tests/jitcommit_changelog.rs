//! `jitcommit changelog` through a real history: tags (annotated and lightweight), a
//! merge, a revert, a fixup, commits that do not follow the convention; markdown and
//! JSON snapshotted; `--write` / `--check` as a project uses them; the region
//! round-trips whatever hand text surrounds it.
#![allow(clippy::unwrap_used)]

use crate::jitcommit_support;

use jitcommit_support::*;
use jitcommit_testkit::{Sandbox, write};

#[test]
fn markdown_of_a_real_history() {
    let sb = Sandbox::new();
    let r = history(&sb);
    let o = r.jc(&["changelog"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    insta::assert_snapshot!("changelog_markdown", stdout(&o));
}

#[test]
fn json_is_the_release_data() {
    let sb = Sandbox::new();
    let r = history(&sb);
    let o = r.jc(&["changelog", "--format", "json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let versions: Vec<_> = v["releases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["version"].clone())
        .collect();
    assert_eq!(
        versions,
        [serde_json::Value::Null, "1.0.0".into(), "0.1.0".into()]
    );
    let breaking = &v["releases"][1]["breaking"][0];
    assert_eq!(breaking["commit"], r.rev("v1.0.0~1"));
    assert_eq!(breaking["changes"][0]["path"], "src/cli.rs");
    insta::assert_snapshot!("changelog_json", stdout(&o));
}

#[test]
fn others_can_be_listed_under_their_own_heading() {
    let sb = Sandbox::new();
    let r = history(&sb);
    let o = r.jc(&["changelog", "--others", "list"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let md = stdout(&o);
    assert!(md.contains("### Other commits\n\n"), "{md}");
    assert!(md.contains("- wip (`"), "{md}");
    assert!(md.contains("; not following the convention)"), "{md}");
    assert!(md.contains("- Merge branch 'topic' (`"), "{md}");
    assert!(md.contains("- initial import (`"), "{md}");
    // The revert and the commit it reverts cancel out: neither is listed.
    assert!(!md.contains("colour"), "{md}");
}

#[test]
fn range_unreleased_and_tag_select_releases() {
    let sb = Sandbox::new();
    let r = history(&sb);
    let o = r.jc(&["changelog", "--range", "v0.1.0..v1.0.0"]);
    let md = stdout(&o);
    assert!(md.starts_with("## [1.0.0] - 2026-01-01\n"), "{md}");
    assert!(!md.contains("## [0.1.0]"), "{md}");
    assert!(!md.contains("Unreleased"), "{md}");

    let o = r.jc(&["changelog", "--unreleased"]);
    let md = stdout(&o);
    assert!(md.starts_with("## [Unreleased]\n"), "{md}");
    assert_eq!(md.matches("## [").count(), 1, "{md}");

    let o = r.jc(&["changelog", "--tag", "1.1.0", "--date", "2026-02-03"]);
    let md = stdout(&o);
    assert!(
        md.starts_with("## [1.1.0] - 2026-02-03\n\n### Fixed\n\n- **parser:** accept CRLF"),
        "{md}"
    );

    let o = r.jc(&["changelog", "--tag", "0.9.0"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("not after the last version tag v1.0.0"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn links_come_from_flags_only() {
    let sb = Sandbox::new();
    let r = history(&sb);
    r.git(&["remote", "add", "origin", "https://forge.example/x/y.git"]);
    let o = r.jc(&["changelog"]);
    assert!(
        !stdout(&o).contains("https://"),
        "links guessed from the remote"
    );
    let o = r.jc(&[
        "changelog",
        "--commit-url",
        "https://forge.example/x/y/commit/{id}",
        "--compare-url",
        "https://forge.example/x/y/compare/{from}...{to}",
    ]);
    let md = stdout(&o);
    assert!(
        md.starts_with("## [Unreleased](https://forge.example/x/y/compare/v1.0.0...HEAD)\n"),
        "{md}"
    );
    assert!(
        md.contains("## [1.0.0](https://forge.example/x/y/compare/v0.1.0...v1.0.0) - 2026-01-01\n"),
        "{md}"
    );
    let head = r.rev("HEAD");
    assert!(
        md.contains(&format!(
            "([`{}`](https://forge.example/x/y/commit/{head}))",
            &head[..7]
        )),
        "{md}"
    );
}

#[test]
fn the_convention_sets_links_and_the_tag_pattern_and_flags_win() {
    let sb = Sandbox::new();
    let r = history(&sb);
    r.git(&["tag", "release-2.0.0", "HEAD"]);
    write(
        &r.dir,
        ".commit-convention.toml",
        "[changelog]\ntag-pattern = '^release-(?P<version>.+)$'\ncommit-url = 'https://forge.example/c/{short}'\nothers = 'list'\n",
    );
    let md = stdout(&r.jc(&["changelog"]));
    assert!(md.starts_with("## [2.0.0] - 2026-01-01\n"), "{md}");
    assert!(md.contains("([`"), "{md}");
    assert!(md.contains("](https://forge.example/c/"), "{md}");
    assert!(md.contains("### Other commits"), "{md}");
    let md = stdout(&r.jc(&[
        "changelog",
        "--others",
        "count",
        "--tag-pattern",
        "^v(?P<version>.+)$",
    ]));
    assert!(md.starts_with("## [Unreleased]\n"), "{md}");
    assert!(!md.contains("### Other commits"), "{md}");
    write(
        &r.dir,
        ".commit-convention.toml",
        "[changelog]\ncompare-url = 'https://x/{from}'\n",
    );
    let o = r.jc(&["changelog"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains(".commit-convention.toml:2:15: changelog.compare-url"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_tag_pattern_chooses_the_version_tags() {
    let sb = Sandbox::new();
    let r = history(&sb);
    r.git(&["tag", "release-2.0.0", "HEAD"]);
    let o = r.jc(&["changelog", "--tag-pattern", "^release-(?P<version>.+)$"]);
    let md = stdout(&o);
    assert!(md.starts_with("## [2.0.0] - 2026-01-01\n"), "{md}");
    assert_eq!(md.matches("## [").count(), 1, "{md}");
    let o = r.jc(&["changelog", "--tag-pattern", "("]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("tag pattern \"(\""), "{}", stderr(&o));
}

#[test]
fn write_keeps_hand_text_and_check_guards_the_region() {
    let sb = Sandbox::new();
    let r = history(&sb);
    // A fresh file: preamble, then the region.
    let o = r.jc(&["changelog", "--write"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let file = std::fs::read_to_string(r.dir.join("CHANGELOG.md")).unwrap();
    assert!(file.starts_with("# Changelog\n"), "{file}");
    assert!(
        file.contains(&format!("generated through {}", r.rev("HEAD"))),
        "{file}"
    );
    // Hand text above and below survives a rewrite.
    let edited = file.replace("# Changelog\n", "# Changelog\n\nHand-written note.\n")
        + "\n[links]: https://example.com\n";
    write(&r.dir, "CHANGELOG.md", &edited);
    r.commit(
        "CHANGELOG.md",
        &edited,
        &msg(
            "docs: the changelog",
            &[("Add", "CHANGELOG.md", "generated")],
        ),
    );
    let o = r.jc(&["changelog", "--check"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert!(
        stderr(&o).contains("1 newer commit not in it yet"),
        "{}",
        stderr(&o)
    );

    // More commits that do not touch the file: still current through its commit.
    r.commit(
        "src/x.rs",
        "x\n",
        &msg("feat: add x", &[("Add", "src/x.rs", "for y")]),
    );
    let o = r.jc(&["changelog", "--check", "CHANGELOG.md"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));

    // A hand edit inside the region fails, with a diff.
    let tampered = edited.replace("accept CRLF", "accept CRLF and more");
    write(&r.dir, "CHANGELOG.md", &tampered);
    let o = r.jc(&["changelog", "--check"]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(
        stdout(&o).contains("-- **parser:** accept CRLF and more"),
        "{}",
        stdout(&o)
    );
    assert!(
        stdout(&o).contains("+- **parser:** accept CRLF ("),
        "{}",
        stdout(&o)
    );
    assert!(
        stderr(&o).contains("jitcommit changelog --write CHANGELOG.md"),
        "{}",
        stderr(&o)
    );

    // --write brings it back; the hand text is untouched.
    let o = r.jc(&["changelog", "--write", "CHANGELOG.md"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let now = std::fs::read_to_string(r.dir.join("CHANGELOG.md")).unwrap();
    assert!(now.contains("Hand-written note.\n"));
    assert!(now.ends_with("\n[links]: https://example.com\n"), "{now}");
    assert!(now.contains("- add x ("), "{now}");
    let o = r.jc(&["changelog", "--check"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
}

#[test]
fn a_release_tagged_without_regenerating_fails_the_check() {
    let sb = Sandbox::new();
    let r = history(&sb);
    r.jc(&["changelog", "--write"]);
    let text = std::fs::read_to_string(r.dir.join("CHANGELOG.md")).unwrap();
    r.commit(
        "CHANGELOG.md",
        &text,
        &msg(
            "docs: the changelog",
            &[("Add", "CHANGELOG.md", "generated")],
        ),
    );
    assert_eq!(code(&r.jc(&["changelog", "--check"])), 0);
    r.git(&["tag", "v1.1.0"]);
    let o = r.jc(&["changelog", "--check"]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(
        stdout(&o).contains("+## [1.1.0] - 2026-01-01"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn the_release_flow_keeps_the_check_green() {
    let sb = Sandbox::new();
    let r = history(&sb);
    // Release commit: notes rendered as the coming version, then tagged.
    let o = r.jc(&[
        "changelog",
        "--tag",
        "1.1.0",
        "--date",
        "2026-01-01",
        "--write",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = std::fs::read_to_string(r.dir.join("CHANGELOG.md")).unwrap();
    assert!(text.contains("## [1.1.0] - 2026-01-01\n"), "{text}");
    r.commit(
        "CHANGELOG.md",
        &text,
        &msg(
            "chore(release): 1.1.0",
            &[("Update", "CHANGELOG.md", "notes of 1.1.0")],
        ),
    );
    r.git(&["tag", "v1.1.0"]);
    let o = r.jc(&["changelog", "--check"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
}

#[test]
fn a_rewritten_history_fails_the_check_with_the_fix() {
    let sb = Sandbox::new();
    let r = history(&sb);
    r.jc(&["changelog", "--write"]);
    let text = std::fs::read_to_string(r.dir.join("CHANGELOG.md")).unwrap();
    r.git(&["reset", "-q", "--hard", "HEAD~1"]);
    write(&r.dir, "CHANGELOG.md", &text);
    let o = r.jc(&["changelog", "--check"]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("which is not in the history checked"),
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains("run `jitcommit changelog --write CHANGELOG.md`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn broken_markers_and_missing_files_fail_the_check() {
    let sb = Sandbox::new();
    let r = history(&sb);
    let o = r.jc(&["changelog", "--check"]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("CHANGELOG.md: no such file"),
        "{}",
        stderr(&o)
    );
    write(
        &r.dir,
        "CHANGELOG.md",
        "# Log\n\n<!-- jitcommit changelog begin -->\n",
    );
    let o = r.jc(&["changelog", "--check"]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("CHANGELOG.md:line 3: "),
        "{}",
        stderr(&o)
    );
    let o = r.jc(&["changelog", "--write"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("CHANGELOG.md: line 3: "),
        "{}",
        stderr(&o)
    );
}

#[test]
fn usage_errors_exit_2() {
    let sb = Sandbox::new();
    let r = history(&sb);
    for args in [
        &["changelog", "--bogus"][..],
        &["changelog", "--format", "json", "--write"],
        &["changelog", "--format", "yaml"],
        &["changelog", "--others", "some"],
        &["changelog", "--date", "2026-02-03"],
        &["changelog", "--write", "--check"],
        &["frobnicate"],
        &[],
    ] {
        let o = r.jc(args);
        assert_eq!(code(&o), 2, "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("jitcommit: error: "),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    for cmd in ["changelog", "bump", "init", "doctor"] {
        let o = r.jc(&[cmd, "--help"]);
        assert_eq!(code(&o), 0, "{cmd}");
        assert!(
            stdout(&o).contains("EXAMPLES:"),
            "{cmd} --help has no examples"
        );
    }
    assert!(stdout(&r.jc(&["--help"])).contains("doctor"));
}

#[test]
fn output_is_byte_for_byte_deterministic() {
    let sb = Sandbox::new();
    let r = history(&sb);
    let a = r.jc(&["changelog", "--format", "json"]).stdout;
    let b = r.jc(&["changelog", "--format", "json"]).stdout;
    assert_eq!(a, b);
    // A second repository built the same way gives the same bytes.
    let sb2 = Sandbox::new();
    let r2 = history(&sb2);
    assert_eq!(r.jc(&["changelog"]).stdout, r2.jc(&["changelog"]).stdout);
}

/// `git jitcommit` runs the installed `git-jitcommit`, a binary of its own beside
/// `jitcommit` (as cargo installs them); without its `jitcommit` (uninstalled) it says
/// so and names the leftover, never a dangling link's "command not found".
#[test]
fn git_runs_it_as_git_jitcommit() {
    let sb = Sandbox::new();
    let r = history(&sb);
    let bindir = sb.path().join("bin");
    std::fs::create_dir_all(&bindir).unwrap();
    std::fs::copy(bin(), bindir.join("jitcommit")).unwrap();
    let git_jc = bindir.join("git-jitcommit");
    std::fs::copy(env!("CARGO_BIN_EXE_git-jitcommit"), &git_jc).unwrap();
    let path = format!(
        "{}:{}",
        bindir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let run = || {
        sb.git_cmd(&r.dir)
            .env("PATH", &path)
            .args(["jitcommit", "changelog", "--unreleased"])
            .output()
            .unwrap()
    };
    let o = run();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("## [Unreleased]\n"),
        "{}",
        stdout(&o)
    );

    std::fs::remove_file(bindir.join("jitcommit")).unwrap();
    let o = run();
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!("or remove this leftover: rm {}", git_jc.display())),
        "{}",
        stderr(&o)
    );
}

mod round_trip {
    use super::*;
    use proptest::prelude::*;

    fn hand_text() -> impl Strategy<Value = String> {
        // Lines of markdown-ish text, markers excluded (a marker line is the region's).
        proptest::collection::vec("[ -~]{0,20}|## [0-9.]{1,5}|<!-- note -->|", 0..6)
            .prop_map(|lines| lines.into_iter().map(|l| l + "\n").collect::<String>())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]
        /// Writing into any file keeps the text around the region; writing again is a
        /// no-op; the region is what `changelog` prints; `--check` passes.
        #[test]
        fn the_write_region_round_trips(before in hand_text(), after in hand_text()) {
            let sb = Sandbox::new();
            let r = history(&sb);
            let path = r.dir.join("CHANGELOG.md");
            std::fs::write(&path, &before).unwrap();
            prop_assert_eq!(code(&r.jc(&["changelog", "--write"])), 0);
            let once = std::fs::read_to_string(&path).unwrap();
            prop_assert!(once.starts_with(&before));
            // Hand text added after the region stays there.
            let with_after = format!("{once}{after}");
            std::fs::write(&path, &with_after).unwrap();
            prop_assert_eq!(code(&r.jc(&["changelog", "--write"])), 0);
            let twice = std::fs::read_to_string(&path).unwrap();
            prop_assert_eq!(&twice, &with_after);
            let printed = stdout(&r.jc(&["changelog"]));
            let inner = twice.split_once("edit outside these markers) -->\n\n").unwrap().1;
            prop_assert!(inner.starts_with(&printed));
            let o = r.jc(&["changelog", "--check"]);
            prop_assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
        }
    }
}

/// Issue 28: a Conventional Commits history with prose bodies is read at the spec's
/// level: its features and fixes are entries under the default convention; what is
/// left out is counted with its reason.
#[test]
fn a_history_with_prose_bodies_lists_its_features_and_fixes() {
    let sb = Sandbox::new();
    let r = adopting(&sb);
    let o = r.jc(&["changelog", "--format", "json", "--others", "list"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let unreleased = &v["releases"][0];
    assert_eq!(unreleased["version"], serde_json::Value::Null);
    let summaries: Vec<&str> = unreleased["sections"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["entries"].as_array().unwrap())
        .map(|e| e["summary"].as_str().unwrap())
        .collect();
    assert_eq!(
        summaries,
        [
            "read overrides from the environment",
            "add a --quiet flag",
            "keep the last line"
        ]
    );
    // The Dependabot commit is a conforming chore (no section), the readme commit is
    // the one left out as non-conforming, with its reason.
    assert_eq!(unreleased["types"]["chore"], 1);
    assert_eq!(unreleased["left_out"]["non_conforming"], 1, "{unreleased}");
    let other = &unreleased["others"][0];
    assert_eq!(other["subject"], "Update the readme");
    assert!(
        other["reason"]
            .as_str()
            .unwrap()
            .contains("type(scope): description"),
        "{other}"
    );
    let md = stdout(&r.jc(&["changelog"]));
    assert!(md.contains("- **cli:** add a --quiet flag"), "{md}");
    assert!(md.contains("- keep the last line"), "{md}");
}

/// Issue 28, one verdict: under one convention `jitcommit-check --commit`, `changelog`
/// and `bump` agree on a Dependabot message and on a Markdown-list body with
/// `Co-authored-by`.
#[test]
fn check_changelog_and_bump_give_one_verdict() {
    let sb = Sandbox::new();
    let r = adopting(&sb);
    write(
        &r.dir,
        ".commit-convention.toml",
        "body = \"free\"\ntrace-paths = false\nsubject-max = 0\n",
    );
    let check = |rev: &str| {
        sb.cmd(
            std::path::PathBuf::from(env!("CARGO_BIN_EXE_jitcommit-check")),
            &r.dir,
        )
        .args(["--commit", rev])
        .output()
        .unwrap()
    };
    for rev in ["HEAD~3", "HEAD~2"] {
        let o = check(rev);
        assert_eq!(code(&o), 0, "{rev}: {}", stdout(&o));
    }
    assert_eq!(code(&check("HEAD~1")), 1, "the readme commit is refused");
    let o = r.jc(&["changelog", "--format", "json", "--others", "list"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let listed: Vec<String> = v["releases"][0]["others"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["commit"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(listed, [r.rev("HEAD~1")], "only the commit check refuses");
    assert_eq!(v["releases"][0]["types"]["chore"], 1);
    assert_eq!(v["releases"][0]["types"]["feat"], 2);
    assert_eq!(stdout(&r.jc(&["bump"])), "1.1.0\n");
}

/// A revert whose reverted commit is outside the range read is still exempt: the
/// repository backs it, as it does for `jitcommit-check`.
#[test]
fn a_revert_of_a_commit_outside_the_range_is_exempt_as_check_says() {
    let sb = Sandbox::new();
    let r = adopting(&sb);
    r.git(&["revert", "--no-edit", "HEAD~1"]);
    let o = r.jc(&[
        "changelog",
        "--format",
        "json",
        "--others",
        "list",
        "--range",
        "HEAD~1..HEAD",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["releases"][0]["others"][0]["kind"], "revert", "{v}");
}

/// `changelog --write` neither copies a linked file from outside the work tree into the
/// tracked one nor writes through the link, and keeps the mode of the file it replaces
/// (docs/trust.md, "Links in the repository").
#[cfg(unix)]
#[test]
fn changelog_write_follows_no_link_out_of_the_tree_and_keeps_the_mode() {
    use std::os::unix::fs::PermissionsExt;
    let sb = Sandbox::new();
    let r = history(&sb);
    let outside = sb.path().join("secret.md");
    let secret = "# Changelog\n\nsecret text from outside the tree\n";
    std::fs::write(&outside, secret).unwrap();
    std::os::unix::fs::symlink(&outside, r.dir.join("CHANGELOG.md")).unwrap();
    for action in ["--write", "--check"] {
        let o = r.jc(&["changelog", action]);
        assert_ne!(code(&o), 0, "{action}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("leaves the work tree"),
            "{}",
            stderr(&o)
        );
    }
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), secret);
    // Through a linked directory too.
    std::fs::remove_file(r.dir.join("CHANGELOG.md")).unwrap();
    std::os::unix::fs::symlink(sb.path(), r.dir.join("out")).unwrap();
    let o = r.jc(&["changelog", "--write", "out/secret.md"]);
    assert_ne!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), secret);

    // A real file keeps its mode across a rewrite.
    let o = r.jc(&["changelog", "--write"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let path = r.dir.join("CHANGELOG.md");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o664)).unwrap();
    let first = std::fs::read_to_string(&path).unwrap();
    r.commit("b.txt", "b\n", &msg("fix: b", &[("Add", "b.txt", "more")]));
    let o = r.jc(&["changelog", "--write"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_ne!(std::fs::read_to_string(&path).unwrap(), first, "rewritten");
    let mode = std::fs::metadata(&path).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o664, "{mode:o}");
}
