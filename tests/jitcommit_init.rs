//! `jitcommit init` in real repositories: where the convention goes, what it imports
//! from commitlint (JSON and YAML), cog.toml and .versionrc, what it lists as unmapped,
//! and that it shows first and never overwrites without `--force`.
#![allow(clippy::unwrap_used)]

use crate::jitcommit_support;

use jitcommit_support::*;
use jitcommit_testkit::{Sandbox, write};

fn check_dump(sb: &Sandbox, dir: &std::path::Path) -> String {
    let o = sb
        .cmd(jitcommit_testkit::cargo_bin("jitcommit-check"), dir)
        .arg("--dump-config")
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    stdout(&o)
}

#[test]
fn shows_first_then_writes_a_commitlint_yaml_import() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    write(
        &r.dir,
        ".commitlintrc.yml",
        "extends: ['@commitlint/config-conventional']\nrules:\n  type-enum: [2, always, [feat, fix, chore, hotfix]]\n  scope-enum:\n    - 2\n    - always\n    - [core, cli]\n  header-max-length: [2, always, 100]\n  subject-case: [2, never, [sentence-case]]\n",
    );
    let o = r.jc(&["init"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let shown = stdout(&o);
    assert!(
        shown.starts_with(
            "# .commit-convention.toml\ntypes = [\"feat\", \"fix\", \"chore\", \"hotfix\"]\n"
        ),
        "{shown}"
    );
    assert!(
        shown.contains("\nscopes = [\"core\", \"cli\"]\n"),
        "{shown}"
    );
    assert!(shown.contains("subject-max = 100\n"), "{shown}");
    assert!(
        stderr(&o).contains("Imported: .commitlintrc.yml"),
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains("Not mapped: .commitlintrc.yml: rule subject-case"),
        "{}",
        stderr(&o)
    );
    assert!(
        !r.dir.join(".commit-convention.toml").exists(),
        "init without --write wrote"
    );

    let o = r.jc(&["init", "--write"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let dump = check_dump(&sb, &r.dir);
    assert!(
        dump.contains("types = [\"feat\", \"fix\", \"chore\", \"hotfix\"]"),
        "{dump}"
    );
    assert!(dump.contains("subject-max = 100"), "{dump}");

    // Never overwrites without --force.
    let before = std::fs::read_to_string(r.dir.join(".commit-convention.toml")).unwrap();
    std::fs::remove_file(r.dir.join(".commitlintrc.yml")).unwrap();
    let o = r.jc(&["init", "--write"]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("a convention already exists: .commit-convention.toml"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read_to_string(r.dir.join(".commit-convention.toml")).unwrap(),
        before
    );
    let o = r.jc(&["init", "--write", "--force"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(check_dump(&sb, &r.dir).contains("subject-max = 72"));
}

#[test]
fn pyproject_gets_its_table_and_keeps_the_rest() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    write(
        &r.dir,
        "pyproject.toml",
        "[project]\nname = \"demo\"\n\n[tool.ruff]\nline-length = 100\n",
    );
    write(
        &r.dir,
        ".commitlintrc.json",
        r#"{"rules": {"type-enum": [2, "always", ["feat", "fix"]], "body-max-line-length": [2, "always", 80]}}"#,
    );
    let o = r.jc(&["init", "--write"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = std::fs::read_to_string(r.dir.join("pyproject.toml")).unwrap();
    assert!(text.starts_with("[project]\nname = \"demo\"\n\n[tool.ruff]\nline-length = 100\n\n[tool.commit-convention]\ntypes = [\"feat\", \"fix\"]\n"), "{text}");
    assert!(
        text.contains("[tool.commit-convention.sections]\n"),
        "{text}"
    );
    let dump = check_dump(&sb, &r.dir);
    assert!(
        dump.contains("pyproject.toml [tool.commit-convention]"),
        "{dump}"
    );
    assert!(dump.contains("body-wrap = 80"), "{dump}");
    // --force replaces the table, keeps the others.
    std::fs::remove_file(r.dir.join(".commitlintrc.json")).unwrap();
    let o = r.jc(&["init", "--write", "--force"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = std::fs::read_to_string(r.dir.join("pyproject.toml")).unwrap();
    assert_eq!(
        text.matches("[tool.commit-convention]").count(),
        1,
        "{text}"
    );
    assert!(text.contains("[tool.ruff]\nline-length = 100\n"), "{text}");
    assert!(check_dump(&sb, &r.dir).contains("body-wrap = 0"));
}

#[test]
fn a_cargo_workspace_gets_workspace_metadata_from_cog_toml() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    write(&r.dir, "Cargo.toml", "[workspace]\nmembers = []\n");
    write(
        &r.dir,
        "cog.toml",
        "tag_prefix = \"v\"\nscopes = [\"core\"]\n[commit_types]\nhotfix = { changelog_title = \"Hotfixes\" }\nchore = { omit_from_changelog = true }\n",
    );
    let o = r.jc(&["init", "--write"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("Not mapped: cog.toml: tag_prefix"),
        "{}",
        stderr(&o)
    );
    let dump = check_dump(&sb, &r.dir);
    assert!(
        dump.contains("Cargo.toml [workspace.metadata.commit-convention]"),
        "{dump}"
    );
    assert!(dump.contains("hotfix = \"Hotfixes\""), "{dump}");
    assert!(dump.contains("scopes = [\"core\"]"), "{dump}");
    assert!(dump.contains("\"hotfix\"]"), "{dump}");
}

/// cocogitto's own cog.toml titles a type with a sentence longer than a section name
/// may be: init lists it as not mapped and shows (and writes) a convention that loads,
/// where it used to show one that `bump` and `jitcommit-check` then refuse.
#[test]
fn an_imported_value_the_convention_refuses_is_listed_not_written() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    write(
        &r.dir,
        "cog.toml",
        "[commit_types]\nex = { changelog_title = \"This is the markdown title for `ex` commit type\" }\nhotfix = { changelog_title = \"Hotfixes\" }\n",
    );
    let o = r.jc(&["init", "--write"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("Not mapped: the changelog section of ex: invalid value \"This is the markdown title for `ex` commit type\": at most 40 characters"),
        "{}",
        stderr(&o)
    );
    let dump = check_dump(&sb, &r.dir);
    assert!(dump.contains("hotfix = \"Hotfixes\""), "{dump}");
    assert!(!dump.contains("markdown title"), "{dump}");
}

#[test]
fn versionrc_types_and_sections_are_imported() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    write(
        &r.dir,
        ".versionrc",
        r#"{"types": [{"type": "feat", "section": "Features"}, {"type": "fix", "section": "Bug Fixes"}, {"type": "chore", "hidden": true}], "tagPrefix": "release-"}"#,
    );
    let o = r.jc(&["init"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let shown = stdout(&o);
    assert!(
        shown.contains("feat = \"Features\"\nfix = \"Bug Fixes\"\n"),
        "{shown}"
    );
    assert!(
        stderr(&o).contains("Not mapped: .versionrc: tagPrefix"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_js_config_without_npx_is_listed_as_not_read() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    write(
        &r.dir,
        "commitlint.config.js",
        "module.exports = {extends: ['@commitlint/config-conventional']};\n",
    );
    let o = sb
        .cmd(bin(), &r.dir)
        .arg("init")
        .env("PATH", "/nonexistent")
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("commitlint.config.js: not read"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn broken_imports_and_flags_exit_2() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    write(&r.dir, "cog.toml", "[commit_types\n");
    let o = r.jc(&["init"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("cog.toml: "), "{}", stderr(&o));
    assert_eq!(code(&r.jc(&["init", "--to", "yaml"])), 2);
}

/// Issue 28: init reads the history it adopts, proposes the convention that fits it
/// and the adoption point, and writes both; `--range` then accepts the old history and
/// holds the commits after it to the convention.
#[test]
fn init_reads_the_history_and_writes_the_convention_and_adoption_point() {
    let sb = Sandbox::new();
    let r = adopting(&sb);
    let head = r.rev("HEAD");
    let o = r.jc(&["init"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("History: the last 6 commits: 0 pass the convention as imported, 5 the Conventional Commits grammar, 5 the proposed convention"),
        "{err}"
    );
    assert!(err.contains("Types used: chore 2, feat 2, fix 1"), "{err}");
    assert!(
        err.contains("Scopes used: cli 1, config 1, deps 1"),
        "{err}"
    );
    assert!(err.contains(&format!("Adoption point: {head}")), "{err}");
    let shown = stdout(&o);
    assert!(shown.contains("body = \"free\""), "{shown}");
    assert!(shown.contains(&format!("adopted = \"{head}\"")), "{shown}");

    let o = r.jc(&["init", "--write"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let dump = check_dump(&sb, &r.dir);
    assert!(dump.contains(&format!("adopted = \"{head}\"")), "{dump}");
    assert!(dump.contains("body = \"free\""), "{dump}");

    let range = |r: &Repo<'_>| {
        sb.cmd(jitcommit_testkit::cargo_bin("jitcommit-check"), &r.dir)
            .args(["--range", "v1.0.0..HEAD"])
            .output()
            .unwrap()
    };
    let o = range(&r);
    assert_eq!(code(&o), 0, "the adopted history passes: {}", stdout(&o));
    r.commit(
        ".commit-convention.toml",
        &std::fs::read_to_string(r.dir.join(".commit-convention.toml")).unwrap(),
        "chore: adopt jitcommit\n\nThe history so far is accepted.\n",
    );
    assert_eq!(code(&range(&r)), 0, "{}", stdout(&range(&r)));
    r.commit("x.txt", "x\n", "Update x");
    let o = range(&r);
    assert_eq!(code(&o), 1, "after the point the convention holds");
    assert!(stdout(&o).contains("Update x"), "{}", stdout(&o));
}

/// A JavaScript config is a program of the repository: init runs nothing of it, not
/// even through an `npx` that would prefer the repository's own
/// `node_modules/.bin/commitlint` (docs/trust.md, "Programs in the repository").
#[cfg(unix)]
#[test]
fn a_js_config_is_never_run_and_says_how_to_convert_it() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    let marker = sb.path().join("ran");
    for name in [
        "commitlint.config.js",
        ".commitlintrc.cjs",
        "commitlint.config.ts",
    ] {
        write(
            &r.dir,
            name,
            format!(
                "require('fs').writeFileSync({:?}, 'x');\nmodule.exports = {{}};\n",
                marker.display().to_string()
            ),
        );
    }
    // The repository's own commitlint, and an npx that runs it as npx does.
    let planted = format!("#!/bin/sh\ntouch '{}'\necho '{{}}'\n", marker.display());
    write(&r.dir, "node_modules/.bin/commitlint", &planted);
    let bin_dir = sb.path().join("fake-bin");
    write(
        &bin_dir,
        "npx",
        "#!/bin/sh\nwhile [ \"${1#-}\" != \"$1\" ]; do shift; done\ncmd=$1; shift\nexec ./node_modules/.bin/$cmd \"$@\"\n",
    );
    for f in [
        bin_dir.join("npx"),
        r.dir.join("node_modules/.bin/commitlint"),
    ] {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap());
    for args in [&["init"][..], &["init", "--write"]] {
        let o = sb
            .cmd(bin(), &r.dir)
            .args(args)
            .env("PATH", &path)
            .output()
            .unwrap();
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        assert!(!marker.exists(), "{args:?} ran the repository's code");
        let err = stderr(&o);
        assert!(err.contains("commitlint.config.js: not read"), "{err}");
        assert!(err.contains(".commitlintrc.json"), "{err}");
    }
}

/// Files committed as links out of the work tree are neither read nor written through:
/// a `pyproject.toml` pointing at a file outside keeps that file as it was.
#[cfg(unix)]
#[test]
fn init_neither_reads_nor_writes_through_a_link_out_of_the_tree() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    let outside = sb.path().join("outside.toml");
    let before = "[tool.other]\nkeep = true\n";
    std::fs::write(&outside, before).unwrap();
    std::os::unix::fs::symlink(&outside, r.dir.join("pyproject.toml")).unwrap();
    write(
        &r.dir,
        ".commitlintrc.yml",
        "rules:\n  type-enum: [2, always, [evil]]\n",
    );
    let o = r.jc(&["init", "--write", "--force"]);
    assert_ne!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("leaves the work tree"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), before);
    // An imported config linked outside is not read either.
    std::fs::remove_file(r.dir.join("pyproject.toml")).unwrap();
    std::fs::remove_file(r.dir.join(".commitlintrc.yml")).unwrap();
    let secret = sb.path().join("secret.json");
    std::fs::write(
        &secret,
        "{\"rules\": {\"type-enum\": [2, \"always\", [\"leak\"]]}}",
    )
    .unwrap();
    std::os::unix::fs::symlink(&secret, r.dir.join(".commitlintrc.json")).unwrap();
    let o = r.jc(&["init"]);
    assert_ne!(code(&o), 0, "{}", stderr(&o));
    assert!(!stdout(&o).contains("leak"), "{}", stdout(&o));
}

/// `init --write` replaces the file and keeps its mode.
#[cfg(unix)]
#[test]
fn init_write_keeps_the_mode_of_the_file_it_replaces() {
    use std::os::unix::fs::PermissionsExt;
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    write(&r.dir, "pyproject.toml", "[project]\nname = \"x\"\n");
    let path = r.dir.join("pyproject.toml");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o664)).unwrap();
    let o = r.jc(&["init", "--write"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let m = std::fs::metadata(&path).unwrap();
    assert_eq!(m.permissions().mode() & 0o777, 0o664);
    assert!(
        std::fs::read_to_string(&path)
            .unwrap()
            .contains("[project]")
    );
}

/// A commitlint YAML nested thousands of levels deep (block mappings, one column of
/// indentation a level) is refused with its name, not a stack overflow.
#[test]
fn a_config_nested_too_deep_is_refused_not_a_crash() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    let mut deep = String::from("a:\n");
    for i in 1..4000 {
        deep.push_str(&format!("{}b:\n", " ".repeat(i)));
    }
    for text in [
        deep,
        format!("{}x\n", "- ".repeat(100_000)),
        "[".repeat(100_000),
    ] {
        write(&r.dir, ".commitlintrc.yml", &text);
        let o = r.jc(&["init"]);
        assert_eq!(code(&o), 2, "{}", stderr(&o));
        assert!(stderr(&o).contains(".commitlintrc.yml"), "{}", stderr(&o));
    }
}

/// A lerna-style history: releases titled with a bare version, and one release tagged
/// on `chore` commits alone ("Version bump only"). `init` proposes `exempt = [… "release"]`
/// and `bump-types = { chore = "patch" }`; under what it writes `--range` accepts the
/// version subjects and `bump` predicts the patch release such a project makes. Under
/// the default convention neither holds.
#[test]
fn init_fits_release_commits_and_releases_made_on_chores() {
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "lerna");
    r.commit("README.md", "# demo\n", "chore: initial commit");
    r.commit("lerna.json", "{\"version\": \"1.0.0\"}\n", "v1.0.0");
    r.git(&["tag", "-a", "-m", "v1.0.0", "v1.0.0"]);
    r.commit("src/a.js", "a\n", "feat: add a");
    r.commit("lerna.json", "{\"version\": \"1.1.0\"}\n", "v1.1.0");
    r.git(&["tag", "-a", "-m", "v1.1.0", "v1.1.0"]);
    r.commit(
        "yarn.lock",
        "x 1\n",
        "chore(deps): update dependency x to v1",
    );
    r.commit("lerna.json", "{\"version\": \"1.1.1\"}\n", "v1.1.1");
    r.git(&["tag", "-a", "-m", "v1.1.1", "v1.1.1"]);
    r.commit(
        "yarn.lock",
        "x 2\n",
        "chore(deps): update dependency x to v2",
    );

    let bump = |r: &Repo<'_>| r.jc(&["bump"]);
    let o = bump(&r);
    assert_eq!(
        code(&o),
        1,
        "the default rules ask for nothing: {}",
        stdout(&o)
    );
    let range = |r: &Repo<'_>, config: bool| {
        let mut c = sb.cmd(jitcommit_testkit::cargo_bin("jitcommit-check"), &r.dir);
        c.args(["--range", "HEAD~2..HEAD"]);
        if !config {
            c.args(["--config", "/dev/null"]);
        }
        c.output().unwrap()
    };
    let o = r.jc(&["init"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains(
            "Release commits: 3 titled with a bare version (v1.2.3): exempt = [… \"release\"]"
        ),
        "{err}"
    );
    assert!(
        err.contains("Releases: 1 of the last 10 tagged releases held only commits that ask for no release (chore 1): bump-types = { chore = \"patch\" }"),
        "{err}"
    );
    assert!(
        err.contains("History: the last 7 commits: 0 pass the convention as imported, 4 the Conventional Commits grammar, 7 the proposed convention"),
        "{err}"
    );
    let o = r.jc(&["init", "--write", "--to", "file"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let written = std::fs::read_to_string(r.dir.join(".commit-convention.toml")).unwrap();
    assert!(written.contains("\"amend\", \"release\"]"), "{written}");
    assert!(
        written.contains("[changelog.bump-types]\nchore = \"patch\""),
        "{written}"
    );
    // After the adoption point: the next release commit passes, a stray subject does not.
    r.commit(
        ".commit-convention.toml",
        &written,
        "chore: adopt jitcommit\n\nThe history so far is accepted.\n",
    );
    r.commit("lerna.json", "{\"version\": \"1.1.2\"}\n", "v1.1.2");
    let o = range(&r, true);
    assert_eq!(
        code(&o),
        0,
        "a bare version subject is exempt: {}",
        stdout(&o)
    );
    let o = range(&r, false);
    assert_eq!(
        code(&o),
        1,
        "not under the default exemptions: {}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("v1.1.2"), "{}", stdout(&o));
    r.commit(
        "lerna.json",
        "{\"version\": \"1.1.3\"}\n",
        "v1.1.3 and more",
    );
    let o = range(&r, true);
    assert_eq!(code(&o), 1, "only a bare version is exempt: {}", stdout(&o));
    r.git(&["reset", "-q", "--hard", "HEAD~2"]);

    let o = bump(&r);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o), "1.1.2\n");
    // A flag still wins over the convention's table.
    let o = r.jc(&["bump", "--bump-type", "chore=none"]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    // The changelog counts the release commits apart from the non-conforming ones.
    let o = r.jc(&["changelog", "--others", "list", "--format", "json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let log: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let kinds: Vec<String> = log["releases"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["others"].as_array().unwrap().iter())
        .map(|o| o["kind"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        kinds.iter().filter(|k| *k == "release").count(),
        3,
        "{kinds:?}"
    );
    assert!(!kinds.iter().any(|k| k == "non-conforming"), "{kinds:?}");
}

/// Issue 48: with a model configured, init proposes the budget from the model's window
/// as its server says it (a 4096-token default left no diff in the prompt of a
/// 21-file change); without one, the default stays.
#[test]
fn the_budget_is_the_configured_models_window() {
    use jitcommit_testkit::model_server::{ModelServer, servers};
    let sb = Sandbox::new();
    let r = Repo::new(&sb, "r");
    r.commit("a.txt", "a\n", "feat: add a");
    let o = r.jc(&["init"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stdout(&o).contains("budget-tokens = 4096"),
        "{}",
        stdout(&o)
    );
    let srv = ModelServer::with_routes(
        servers::ollama("qwen3:1.7b", 40960, None, Some(16384), false),
        Vec::new(),
    );
    r.git(&["config", "jitcommit.model", "qwen3:1.7b"]);
    r.git(&["config", "jitcommit.url", &srv.url()]);
    let o = r.jc(&["init"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stdout(&o).contains("budget-tokens = 16384"),
        "{}",
        stdout(&o)
    );
    assert!(
        stderr(&o).contains("Budget: the configured model's window is 16384 tokens"),
        "{}",
        stderr(&o)
    );
}
