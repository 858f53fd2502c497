//! A project's release tool, read by `jitcommit init` and honoured by `changelog` and
//! `bump` through real git: python-semantic-release, commitizen, git-cliff and
//! release-please configs (each from the tool's own documented example), pre-release
//! tags (`v1.2.0-rc.1` before `v1.2.0`) and `bump --pre`, and the changelog's format
//! (reStructuredText for `.rst`, never one format written into another).
#![allow(clippy::unwrap_used)]

use crate::jitcommit_support;

use jitcommit_support::*;
use jitcommit_testkit::{Sandbox, write};

/// A subject-only commit of `file`.
fn commit(r: &Repo<'_>, file: &str, subject: &str) {
    let n = std::fs::read_to_string(r.dir.join(file)).unwrap_or_default();
    r.commit(file, &format!("{n}{subject}\n"), subject);
}

/// A release's sections: name → the subjects listed.
type Sections = Vec<(String, Vec<String>)>;

/// `jitcommit changelog --format json`: release version → the subjects it lists
/// (`type(scope): summary`), by section name.
fn listed(r: &Repo<'_>) -> Vec<(String, Sections)> {
    let o = r.jc(&["changelog", "--format", "json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let subject = |e: &serde_json::Value| {
        let scope = e["scope"]
            .as_str()
            .map(|s| format!("({s})"))
            .unwrap_or_default();
        format!(
            "{}{scope}: {}",
            e["type"].as_str().unwrap(),
            e["summary"].as_str().unwrap()
        )
    };
    v["releases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|rel| {
            let mut sections: Sections = Vec::new();
            let breaking: Vec<String> = rel["breaking"]
                .as_array()
                .unwrap()
                .iter()
                .map(subject)
                .collect();
            if !breaking.is_empty() {
                sections.push(("Breaking changes".to_owned(), breaking));
            }
            for s in rel["sections"].as_array().unwrap() {
                sections.push((
                    s["name"].as_str().unwrap().to_owned(),
                    s["entries"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(subject)
                        .collect(),
                ));
            }
            (
                rel["version"].as_str().unwrap_or("Unreleased").to_owned(),
                sections,
            )
        })
        .collect()
}

fn owned(v: &[(&str, &[&str])]) -> Sections {
    v.iter()
        .map(|(n, e)| ((*n).to_owned(), e.iter().map(|s| (*s).to_owned()).collect()))
        .collect()
}

/// One release of each kind of commit a release tool treats differently.
fn mixed_history(r: &Repo<'_>) {
    commit(r, "a.py", "feat: add the parser");
    commit(r, "a.py", "fix(cli): keep the exit code");
    commit(r, "a.py", "refactor: split the parser");
    commit(r, "a.py", "docs: explain the flags");
    commit(r, "a.py", "build(deps): bump click to 8.2");
    commit(r, "a.py", "build(ci): cache the wheels");
    commit(r, "a.py", "chore: tidy");
    r.git(&["tag", "v1.0.0"]);
}

/// `file` holding `text`, committed with [`mixed_history`], then `jitcommit init
/// --write`: its stderr (what was imported, mapped and not mapped).
fn adopted(r: &Repo<'_>, file: &str, text: &str) -> String {
    write(&r.dir, file, text);
    r.git(&["add", file]);
    mixed_history(r);
    let o = r.jc(&["init", "--write"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    stderr(&o)
}

/// The changelog of [`mixed_history`]'s one release: these sections.
fn release_1_0(sections: &[(&str, &[&str])]) -> Vec<(String, Sections)> {
    vec![("1.0.0".to_owned(), owned(sections))]
}

/// python-semantic-release's documented `exclude_commit_patterns` (its docs,
/// docs/configuration/configuration.rst, MIT licence), with `major_on_zero` and
/// `tag_format` as documented there.
const PSR: &str = r#"[project]
name = "demo"

[tool.semantic_release]
commit_parser = "conventional"
major_on_zero = false
tag_format = "v{version}"

[tool.semantic_release.changelog]
exclude_commit_patterns = [
  '''chore(?:\([^)]*?\))?: .+''',
  '''ci(?:\([^)]*?\))?: .+''',
  '''refactor(?:\([^)]*?\))?: .+''',
  '''style(?:\([^)]*?\))?: .+''',
  '''test(?:\([^)]*?\))?: .+''',
  '''build\((?!deps\): .+)''',
  '''Merged? .*''',
  '''Initial [Cc]ommit.*''',
]
"#;

#[test]
fn init_reads_python_semantic_release_and_the_changelog_lists_what_it_lists() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    let err = adopted(&r, "pyproject.toml", PSR);
    assert!(
        err.contains("Imported: pyproject.toml [tool.semantic_release]"),
        "{err}"
    );
    assert!(
        err.contains("Mapped: pyproject.toml [tool.semantic_release]: changelog.exclude_commit_patterns (8 patterns) → changelog.exclude-commits"),
        "{err}"
    );
    assert!(
        err.contains("major_on_zero = false → changelog.breaking-before-1 = \"minor\""),
        "{err}"
    );
    // What python-semantic-release lists: the docs and the build(deps) entries, not the
    // refactor, the other build or the chore it excludes.
    assert_eq!(
        listed(&r),
        release_1_0(&[
            ("Features", &["feat: add the parser"]),
            ("Bug Fixes", &["fix(cli): keep the exit code"]),
            ("Build System", &["build(deps): bump click to 8.2"]),
            ("Documentation", &["docs: explain the flags"]),
        ])
    );
    // Excluded commits still count for the next version, as python-semantic-release's do.
    commit(&r, "a.py", "refactor!: drop the old flags");
    let o = r.jc(&["bump"]);
    assert_eq!(stdout(&o), "2.0.0\n", "{}", stderr(&o));
}

#[test]
fn a_broken_release_config_or_exclusion_is_an_error_naming_file_and_line() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    commit(&r, "a.py", "feat: add a");
    write(
        &r.dir,
        "pyproject.toml",
        "[project]\nname = \"x\"\n\n[tool.semantic_release]\nmajor_on_zero = \n",
    );
    let o = r.jc(&["init"]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("pyproject.toml"), "{}", stderr(&o));
    assert!(stderr(&o).contains("line 5"), "{}", stderr(&o));

    write(
        &r.dir,
        ".commit-convention.toml",
        "body = \"free\"\n\n[changelog]\nexclude-commits = [\n  'chore: .+',\n  'build\\((?!deps',\n]\n",
    );
    let o = r.jc(&["changelog"]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains(".commit-convention.toml:6:") && err.contains("changelog.exclude-commits"),
        "{err}"
    );
}

/// commitizen's documented `.cz.toml` (docs/config/configuration_file.md, MIT licence).
const CZ: &str = r#"[tool.commitizen]
name = "cz_conventional_commits"
version = "0.1.0"
tag_format = "v$version"
update_changelog_on_bump = true
major_version_zero = true
"#;

#[test]
fn init_reads_commitizen_sections_and_bump_map() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    let err = adopted(&r, ".cz.toml", CZ);
    assert!(
        err.contains("Imported: .cz.toml [tool.commitizen]"),
        "{err}"
    );
    assert!(err.contains("bump_map → changelog.bump-types (feat = MINOR, fix = PATCH, refactor = PATCH, perf = PATCH)"), "{err}");
    // commitizen lists feat, fix, refactor and perf, in its change_type_order.
    assert_eq!(
        listed(&r),
        release_1_0(&[
            ("Feat", &["feat: add the parser"]),
            ("Fix", &["fix(cli): keep the exit code"]),
            ("Refactor", &["refactor: split the parser"]),
        ])
    );
    // A refactor alone is a patch release to commitizen.
    commit(&r, "a.py", "refactor: inline the reader");
    let o = r.jc(&["bump"]);
    assert_eq!(stdout(&o), "1.0.1\n", "{}", stderr(&o));
}

#[test]
fn init_reads_commitizen_json() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    write(
        &r.dir,
        "cz.json",
        r#"{"commitizen": {"name": "cz_conventional_commits", "tag_format": "$version",
  "change_type_map": {"feat": "Added", "fix": "Fixed"}, "changelog_merge_prerelease": true}}"#,
    );
    commit(&r, "a.py", "feat: add a");
    let o = r.jc(&["init"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let (out, err) = (stdout(&o), stderr(&o));
    assert!(err.contains("Imported: cz.json [commitizen]"), "{err}");
    assert!(out.contains("feat = \"Added\"\nfix = \"Fixed\"\n"), "{out}");
    assert!(out.contains("prereleases = \"collect\""), "{out}");
}

/// git-cliff's default `cliff.toml` (`git cliff --init`, MIT/Apache-2.0 licence), its
/// `[git]` table, with `ignore_tags` set to leave pre-releases out.
const CLIFF: &str = r##"[changelog]
header = "# Changelog\n"
body = "{% for group, commits in commits | group_by(attribute=\"group\") %}{{ group }}{% endfor %}"

[git]
conventional_commits = true
filter_unconventional = true
split_commits = false
commit_parsers = [
  { message = "^feat", group = "<!-- 0 -->🚀 Features" },
  { message = "^fix", group = "<!-- 1 -->🐛 Bug Fixes" },
  { message = "^doc", group = "<!-- 3 -->📚 Documentation" },
  { message = "^perf", group = "<!-- 4 -->⚡ Performance" },
  { message = "^refactor", group = "<!-- 2 -->🚜 Refactor" },
  { message = "^style", group = "<!-- 5 -->🎨 Styling" },
  { message = "^test", group = "<!-- 6 -->🧪 Testing" },
  { message = "^chore\\(release\\): prepare for", skip = true },
  { message = "^chore\\(deps.*\\)", skip = true },
  { message = "^chore\\(pr\\)", skip = true },
  { message = "^chore\\(pull\\)", skip = true },
  { message = "^chore|^ci", group = "<!-- 7 -->⚙️ Miscellaneous Tasks" },
  { body = ".*security", group = "<!-- 8 -->🛡️ Security" },
  { message = "^revert", group = "<!-- 9 -->◀️ Revert" },
]
protect_breaking_commits = false
filter_commits = false
tag_pattern = "v[0-9].*"
skip_tags = ""
ignore_tags = "rc"
topo_order = false
sort_commits = "oldest"
"##;

#[test]
fn init_reads_git_cliff_parsers_skips_and_tags() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    write(&r.dir, "cliff.toml", CLIFF);
    r.git(&["add", "cliff.toml"]);
    commit(&r, "a.rs", "feat: add the parser");
    commit(&r, "a.rs", "chore(deps): bump serde");
    r.git(&["tag", "v1.0.0-rc.1"]);
    commit(&r, "a.rs", "chore: tidy");
    commit(&r, "a.rs", "docs: explain");
    commit(&r, "a.rs", "build: pin the toolchain");
    r.git(&["tag", "v1.0.0"]);
    let o = r.jc(&["init", "--write"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("Imported: cliff.toml"), "{err}");
    assert!(
        err.contains("Not mapped: cliff.toml: git.commit_parsers[12] matches no message"),
        "{err}"
    );
    assert!(
        err.contains("git.ignore_tags \"rc\" → changelog.ignore-tags"),
        "{err}"
    );
    assert_eq!(
        listed(&r),
        release_1_0(&[
            ("🚀 Features", &["feat: add the parser"]),
            ("📚 Documentation", &["docs: explain"]),
            ("⚙️ Miscellaneous Tasks", &["chore: tidy"]),
        ])
    );
}

/// release-please's documented manifest config (docs/manifest-releaser.md,
/// Apache-2.0 licence).
const RELEASE_PLEASE: &str = r#"{
  "release-type": "python",
  "bump-minor-pre-major": true,
  "changelog-sections": [
    {"type": "feat", "section": "Features"},
    {"type": "fix", "section": "Bug Fixes"},
    {"type": "chore", "section": "Miscellaneous", "hidden": true},
    {"type": "docs", "section": "Documentation"}
  ],
  "packages": {
    ".": {}
  }
}
"#;

#[test]
fn init_reads_release_please_sections_hidden_and_pre_major() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    let err = adopted(&r, "release-please-config.json", RELEASE_PLEASE);
    r.git(&["tag", "v0.4.0"]);
    assert!(
        err.contains("bump-minor-pre-major = true → changelog.breaking-before-1 = \"minor\""),
        "{err}"
    );
    assert_eq!(
        listed(&r)[0].1,
        owned(&[
            ("Features", &["feat: add the parser"]),
            ("Bug Fixes", &["fix(cli): keep the exit code"]),
            ("Documentation", &["docs: explain the flags"]),
        ])
    );
    r.git(&["tag", "-d", "v1.0.0"]);
    commit(&r, "a.py", "feat!: new flags");
    assert_eq!(stdout(&r.jc(&["bump"])), "0.5.0\n");
}

/// v1.0.0, then a feature tagged v1.1.0-rc.1, a fix tagged v1.1.0-rc.2, a fix tagged v1.1.0.
fn pre_released(r: &Repo<'_>) {
    commit(r, "a.rs", "feat: start");
    r.git(&["tag", "v1.0.0"]);
    commit(r, "a.rs", "feat: add the parser");
    r.git(&["tag", "v1.1.0-rc.1"]);
    commit(r, "a.rs", "fix: keep the exit code");
    r.git(&["tag", "v1.1.0-rc.2"]);
    commit(r, "a.rs", "fix: read CRLF");
    r.git(&["tag", "v1.1.0"]);
}

#[test]
fn a_release_collects_its_pre_releases_or_each_keeps_its_own_section() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    write(&r.dir, ".commit-convention.toml", "body = \"optional\"\n");
    r.git(&["add", "."]);
    pre_released(&r);
    let versions = |l: &[(String, Sections)]| l.iter().map(|(v, _)| v.clone()).collect::<Vec<_>>();
    let l = listed(&r);
    assert_eq!(versions(&l), ["1.1.0", "1.0.0"]);
    assert_eq!(
        l[0].1,
        owned(&[
            ("Added", &["feat: add the parser"]),
            ("Fixed", &["fix: read CRLF", "fix: keep the exit code"]),
        ])
    );
    write(
        &r.dir,
        ".commit-convention.toml",
        "body = \"optional\"\n\n[changelog]\nprereleases = \"own\"\n",
    );
    let l = listed(&r);
    assert_eq!(versions(&l), ["1.1.0", "1.1.0-rc.2", "1.1.0-rc.1", "1.0.0"]);
    assert_eq!(l[0].1, owned(&[("Fixed", &["fix: read CRLF"])]));
    assert_eq!(l[2].1, owned(&[("Added", &["feat: add the parser"])]));
}

#[test]
fn a_pre_release_not_yet_released_keeps_its_section_until_the_release() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    write(&r.dir, ".commit-convention.toml", "body = \"optional\"\n");
    r.git(&["add", "."]);
    commit(&r, "a.rs", "feat: start");
    r.git(&["tag", "v1.0.0"]);
    commit(&r, "a.rs", "feat: add the parser");
    r.git(&["tag", "v1.1.0-rc.1"]);
    let l = listed(&r);
    assert_eq!(l[0].0, "1.1.0-rc.1");
    // The release notes of the release about to be tagged collect the pre-release.
    let o = r.jc(&["changelog", "--tag", "1.1.0", "--unreleased"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).contains("## [1.1.0]"), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("feat: add the parser") || stdout(&o).contains("add the parser"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn bump_after_a_pre_release_proposes_the_release_and_pre_proposes_the_next_one() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    write(&r.dir, ".commit-convention.toml", "body = \"optional\"\n");
    r.git(&["add", "."]);
    commit(&r, "a.rs", "feat: start");
    r.git(&["tag", "v1.0.0"]);
    commit(&r, "a.rs", "feat: add the parser");
    let o = r.jc(&["bump", "--pre", "rc"]);
    assert_eq!(stdout(&o), "1.1.0-rc.1\n", "{}", stderr(&o));
    let o = r.jc(&["bump", "--pre", "rc", "--tag"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(r.rev("v1.1.0-rc.1^{commit}"), r.rev("HEAD"));
    // Right after the rc: the release, not "nothing to release".
    let o = r.jc(&["bump"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o), "1.1.0\n");
    // Nothing new since the rc: no next rc.
    let o = r.jc(&["bump", "--pre", "rc"]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    assert!(
        stderr(&o).contains("nothing to release since v1.1.0-rc.1"),
        "{}",
        stderr(&o)
    );
    commit(&r, "a.rs", "fix: keep the exit code");
    assert_eq!(stdout(&r.jc(&["bump", "--pre", "rc"])), "1.1.0-rc.2\n");
    assert_eq!(stdout(&r.jc(&["bump"])), "1.1.0\n");
    let o = r.jc(&["bump", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        v,
        serde_json::json!({"current": "1.1.0-rc.1", "next": "1.1.0", "tag": "v1.1.0", "level": "minor"})
    );
    // A breaking change after the rc: the first rc of the next major version.
    commit(&r, "a.rs", "feat!: drop the old flags");
    assert_eq!(stdout(&r.jc(&["bump", "--pre", "rc"])), "2.0.0-rc.1\n");
    assert_eq!(stdout(&r.jc(&["bump"])), "2.0.0\n");
    let o = r.jc(&["bump", "--pre", "1"]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
}

#[test]
fn changelog_writes_restructuredtext_into_an_rst_file_and_checks_it() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    write(&r.dir, ".commit-convention.toml", "body = \"optional\"\n");
    r.git(&["add", "."]);
    commit(&r, "a.rs", "feat(cli): add *all* the_flags");
    commit(&r, "a.rs", "fix: keep `exit` codes");
    r.git(&["tag", "v1.0.0"]);
    write(
        &r.dir,
        "CHANGELOG.rst",
        "Our changes\n===========\n\nKept by hand.\n",
    );
    let o = r.jc(&["changelog", "--write", "CHANGELOG.rst"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = std::fs::read_to_string(r.dir.join("CHANGELOG.rst")).unwrap();
    assert!(text.starts_with("Our changes\n===========\n\nKept by hand.\n\n.. jitcommit changelog begin (generated through "), "{text}");
    assert!(
        !text.contains("## ") && !text.contains("<!--"),
        "Markdown in the .rst file:\n{text}"
    );
    let date = r.git(&["log", "-1", "--format=%cs", "v1.0.0"]);
    let title = format!("v1.0.0 ({})", date.trim());
    assert!(
        text.contains(&format!(
            ".. _changelog-v1.0.0:\n\n{title}\n{}\n",
            "=".repeat(title.len())
        )),
        "{text}"
    );
    assert!(
        text.contains("\nAdded\n-----\n\n* **cli**: add \\*all\\* the\\_flags (``"),
        "{text}"
    );
    assert!(
        text.contains("\nFixed\n-----\n\n* keep ``exit`` codes (``"),
        "{text}"
    );
    assert!(text.ends_with(".. jitcommit changelog end\n"), "{text}");
    // Every title's underline is at least as long as the title.
    let lines: Vec<&str> = text.lines().collect();
    for w in lines.windows(2) {
        if !w[1].is_empty() && w[1].chars().all(|c| c == '=' || c == '-') && !w[0].is_empty() {
            assert!(
                w[1].len() >= w[0].chars().count(),
                "short underline under {:?}",
                w[0]
            );
        }
    }
    r.git(&["add", "CHANGELOG.rst"]);
    r.git(&["commit", "-q", "--no-verify", "-m", "docs: the changelog"]);
    let o = r.jc(&["changelog", "--check", "CHANGELOG.rst"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    commit(&r, "a.rs", "feat: add more");
    r.git(&["tag", "v1.1.0"]);
    let o = r.jc(&["changelog", "--check", "CHANGELOG.rst"]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(stdout(&o).contains("+v1.1.0 ("), "{}", stdout(&o));
}

#[test]
fn changelog_never_writes_one_format_into_another() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    write(&r.dir, ".commit-convention.toml", "body = \"optional\"\n");
    r.git(&["add", "."]);
    commit(&r, "a.rs", "feat: add a");
    write(&r.dir, "CHANGELOG.rst", "Changes\n=======\n");
    let o = r.jc(&[
        "changelog",
        "--write",
        "CHANGELOG.rst",
        "--format",
        "markdown",
    ]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("CHANGELOG.rst: the name says rst"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read_to_string(r.dir.join("CHANGELOG.rst")).unwrap(),
        "Changes\n=======\n"
    );
    let o = r.jc(&["changelog", "--write", "NEWS.txt"]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("NEWS.txt: the file name does not say the changelog's format"),
        "{}",
        stderr(&o)
    );
    assert!(!r.dir.join("NEWS.txt").exists());
    let o = r.jc(&["changelog", "--check", "NEWS.txt"]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    let o = r.jc(&["changelog", "--write", "NEWS.txt", "--format", "rst"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = std::fs::read_to_string(r.dir.join("NEWS.txt")).unwrap();
    assert!(
        text.starts_with("=========\nChangelog\n=========\n"),
        "{text}"
    );
    let o = r.jc(&["changelog", "--check", "NEWS.txt", "--format", "rst"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

/// cocogitto lists every built-in type under its own title unless cog.toml omits it
/// (cocogitto's own cog.toml omits chore and test, MIT licence).
#[test]
fn init_gives_cog_types_cocogitto_s_sections() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    adopted(
        &r,
        "cog.toml",
        "[commit_types]\nchore = { omit_from_changelog = true }\ntest = { omit_from_changelog = true }\n",
    );
    assert_eq!(
        listed(&r),
        release_1_0(&[
            ("Features", &["feat: add the parser"]),
            ("Bug Fixes", &["fix(cli): keep the exit code"]),
            ("Documentation", &["docs: explain the flags"]),
            (
                "Build system",
                &[
                    "build(ci): cache the wheels",
                    "build(deps): bump click to 8.2"
                ]
            ),
            ("Refactoring", &["refactor: split the parser"]),
        ])
    );
}
