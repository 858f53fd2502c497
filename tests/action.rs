//! The GitHub Action (action.yml) through its script, scripts/action.sh, run locally as
//! the runner would: a fake `GITHUB_*` environment, an event file of a pull request and
//! a real repository with its base and head commits. Asserts the annotations it prints
//! and its exit code: findings, a clean pull request, the cached and the fresh build, a
//! shallow checkout, the title check, an event that is not a pull request. Also the CI
//! examples: the workflow uses the action, the GitLab job writes a Code Quality report.
#![allow(clippy::unwrap_used)]

use crate::check_support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::install_support::source_root;
use check_support::*;
use jitcommit_testkit::{Sandbox, write};

/// A pull request: a repository with base and head, and the runner's files.
struct Pr {
    sb: Sandbox,
    repo: PathBuf,
    base: String,
    head: String,
    runner: PathBuf,
}

fn commit(sb: &Sandbox, r: &Path, file: &str, msg: &str) -> String {
    write(r, file, format!("{file}\n"));
    sb.git(r, &["add", file]);
    sb.git(r, &["commit", "-q", "--no-verify", "-m", msg]);
    sb.git(r, &["rev-parse", "HEAD"]).trim().to_string()
}

impl Pr {
    /// base: one good commit; head: `messages` on top (each adds its own file).
    fn new(messages: &[&str]) -> Pr {
        let sb = Sandbox::new();
        let repo = sb.init("workspace");
        let base = commit(&sb, &repo, "a.txt", &good("chore: start", &["a.txt"]));
        let mut head = base.clone();
        for (i, m) in messages.iter().enumerate() {
            head = commit(&sb, &repo, &format!("f{i}.txt"), m);
        }
        let runner = sb.path().join("runner");
        std::fs::create_dir_all(runner.join("bin")).unwrap();
        let pr = Pr {
            sb,
            repo,
            base,
            head,
            runner,
        };
        pr.event("a title");
        // A cargo that must not run: the cached build is used.
        pr.fake_cargo("echo 'cargo was called' >&2\nexit 99\n");
        pr
    }

    /// Writes the event file with `title`.
    fn event(&self, title: &str) {
        let v = serde_json::json!({
            "action": "synchronize",
            "number": 7,
            "pull_request": {
                "number": 7,
                "title": title,
                "base": { "ref": "main", "sha": self.base },
                "head": { "ref": "topic", "sha": self.head },
            },
        });
        std::fs::write(self.runner.join("event.json"), v.to_string()).unwrap();
    }

    fn fake_cargo(&self, body: &str) {
        let path = self.runner.join("bin/cargo");
        std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
        make_executable(&path);
    }

    /// `sh scripts/action.sh STEP` with the runner's environment and `env` on top.
    fn step(&self, step: &str, env: &[(&str, &str)]) -> Output {
        let mut c: Command = self.sb.cmd("sh", &self.runner);
        let path = format!(
            "{}:{}",
            self.runner.join("bin").display(),
            std::env::var("PATH").unwrap_or_default()
        );
        c.arg(source_root().join("scripts/action.sh"))
            .arg(step)
            .env("PATH", path)
            .env("GITHUB_ACTIONS", "true")
            .env("GITHUB_EVENT_NAME", "pull_request")
            .env("GITHUB_EVENT_PATH", self.runner.join("event.json"))
            .env("GITHUB_WORKSPACE", &self.repo)
            .env("GITHUB_OUTPUT", self.runner.join("output"))
            .env("RUNNER_OS", "Linux")
            .env("RUNNER_ARCH", "X64")
            .env("RUNNER_TOOL_CACHE", self.runner.join("tool-cache"))
            .env_remove("INPUT_CHECK_TITLE")
            .env_remove("INPUT_CONFIG")
            .stdin(Stdio::null());
        for (k, v) in env {
            c.env(k, v);
        }
        c.output().unwrap()
    }

    /// The `prepare` step's outputs (`dir`, `key`).
    fn prepare(&self) -> (PathBuf, String) {
        let _ = std::fs::remove_file(self.runner.join("output"));
        let o = self.step("prepare", &[]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let out = std::fs::read_to_string(self.runner.join("output")).unwrap();
        let get = |k: &str| {
            out.lines()
                .find_map(|l| l.strip_prefix(&format!("{k}=")))
                .unwrap_or_else(|| panic!("no {k}= in {out}"))
                .to_string()
        };
        (PathBuf::from(get("dir")), get("key"))
    }

    /// What the cache step restores: a build in the prepared directory.
    fn restore_cache(&self) {
        let (dir, _) = self.prepare();
        std::fs::create_dir_all(dir.join("bin")).unwrap();
        std::os::unix::fs::symlink(bin(), dir.join("bin/jitcommit-check")).unwrap();
    }

    fn run(&self, env: &[(&str, &str)]) -> Output {
        self.step("run", env)
    }
}

fn errors(o: &Output) -> Vec<String> {
    stdout(o)
        .lines()
        .filter(|l| l.starts_with("::error"))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_pull_requests_commits_become_annotations_and_fail_the_step() {
    let pr = Pr::new(&[
        &good("feat: add f0", &["f0.txt"]),
        "updated things",
        &good("fix: add f2", &["src/lib.rs"]),
    ]);
    pr.restore_cache();
    let o = pr.run(&[]);
    assert_eq!(code(&o), 1, "{}{}", stdout(&o), stderr(&o));
    let ids = pr
        .sb
        .git(&pr.repo, &["rev-list", "--reverse", "HEAD~3..HEAD"]);
    let ids: Vec<&str> = ids.lines().collect();
    let errs = errors(&o);
    assert!(
        errs.iter()
            .any(|l| l.starts_with(&format!("::error title=subject-format::{} ", &ids[1][..12]))),
        "{errs:#?}"
    );
    assert!(
        errs.iter().any(|l| l.starts_with(&format!(
            "::error title=bullet-path,file=src/lib.rs::{} ",
            &ids[2][..12]
        ))),
        "{errs:#?}"
    );
    assert!(
        !errs.iter().any(|l| l.contains(&ids[0][..12])),
        "the good commit is not annotated: {errs:#?}"
    );
    assert!(!stderr(&o).contains("cargo was called"));
}

#[test]
fn a_clean_pull_request_passes_without_annotations() {
    let pr = Pr::new(&[&good("feat: add f0", &["f0.txt"])]);
    pr.restore_cache();
    let o = pr.run(&[]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert!(errors(&o).is_empty(), "{}", stdout(&o));
}

#[test]
fn without_a_cached_build_the_check_is_built_at_the_actions_ref_once() {
    let pr = Pr::new(&["updated things"]);
    let args = pr.runner.join("cargo-args");
    pr.fake_cargo(&format!(
        "printf '%s\\n' \"$@\" > '{}'\n\
         while [ $# -gt 0 ]; do [ \"$1\" = --root ] && root=$2; shift; done\n\
         mkdir -p \"$root/bin\" && cp '{}' \"$root/bin/jitcommit-check\"\n",
        args.display(),
        bin().display()
    ));
    let (dir, key) = pr.prepare();
    assert!(key.starts_with("jitcommit-check-Linux-X64-"), "{key}");
    assert!(
        dir.starts_with(pr.runner.join("tool-cache")),
        "{}",
        dir.display()
    );
    assert_eq!(pr.prepare(), (dir.clone(), key), "the key is stable");

    let o = pr.run(&[]);
    assert_eq!(code(&o), 1, "{}{}", stdout(&o), stderr(&o));
    assert!(
        errors(&o)
            .iter()
            .any(|l| l.starts_with("::error title=subject-format::"))
    );
    let called = std::fs::read_to_string(&args).unwrap();
    let root = source_root().display().to_string();
    let dir_s = dir.display().to_string();
    assert_eq!(
        called.lines().collect::<Vec<_>>(),
        [
            "install",
            "--path",
            root.as_str(),
            "--no-default-features",
            "--bin",
            "jitcommit-check",
            "--locked",
            "--root",
            dir_s.as_str(),
        ]
    );
    std::fs::remove_file(&args).unwrap();
    let o = pr.run(&[]);
    assert_eq!(code(&o), 1);
    assert!(!args.exists(), "the second run used the build");
}

#[test]
fn a_failed_build_is_an_error_not_a_pass() {
    let pr = Pr::new(&[&good("feat: add f0", &["f0.txt"])]);
    let o = pr.run(&[]);
    assert_eq!(code(&o), 2, "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("::error title=jitcommit::building jitcommit-check failed"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn a_shallow_checkout_is_a_clear_error() {
    let pr = Pr::new(&["updated things", &good("feat: add f1", &["f1.txt"])]);
    pr.restore_cache();
    let url = format!("file://{}", pr.repo.display());
    pr.sb.git(
        pr.sb.path(),
        &["clone", "-q", "--depth", "1", &url, "shallow"],
    );
    let shallow = pr.sb.path().join("shallow");
    let o = pr.run(&[("GITHUB_WORKSPACE", shallow.to_str().unwrap())]);
    assert_eq!(code(&o), 2, "{}{}", stdout(&o), stderr(&o));
    let errs = errors(&o);
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert!(errs[0].contains("the checkout is shallow"), "{errs:#?}");
    assert!(errs[0].contains("fetch-depth: 0"), "{errs:#?}");
}

#[test]
fn the_title_is_checked_as_a_squash_subject_when_asked() {
    let mut pr = Pr::new(&[&good("feat: add f0", &["f0.txt"])]);
    pr.restore_cache();
    pr.event("Update things");
    let o = pr.run(&[]);
    assert_eq!(code(&o), 0, "the title is not checked by default");
    let o = pr.run(&[("INPUT_CHECK_TITLE", "true")]);
    assert_eq!(code(&o), 1, "{}{}", stdout(&o), stderr(&o));
    let errs = errors(&o);
    assert!(
        errs.iter()
            .any(|l| l.starts_with("::error title=subject-format::pull request title: ")),
        "{errs:#?}"
    );
    // A title alone, without bullets, passes: the body of a squash merge is GitHub's.
    pr.event("feat: add the f0 file");
    let o = pr.run(&[("INPUT_CHECK_TITLE", "true")]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert!(errors(&o).is_empty(), "{}", stdout(&o));
    // The repository's convention still holds (its types), as the base has it.
    pr.base = commit_text(
        &pr,
        ".commit-convention.toml",
        "types = [\"fix\"]\n",
        &good("fix: only fixes", &[".commit-convention.toml"]),
    );
    pr.head = pr.base.clone();
    pr.event("feat: add the f0 file");
    let o = pr.run(&[("INPUT_CHECK_TITLE", "true")]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    assert!(
        stdout(&o).contains("pull request title: "),
        "{}",
        stdout(&o)
    );
}

#[test]
fn other_events_are_refused() {
    let pr = Pr::new(&[&good("feat: add f0", &["f0.txt"])]);
    pr.restore_cache();
    let o = pr.run(&[("GITHUB_EVENT_NAME", "push")]);
    assert_eq!(code(&o), 2);
    assert!(
        stdout(&o).contains("this action checks pull requests; the event is \"push\""),
        "{}",
        stdout(&o)
    );
}

#[test]
fn the_action_runs_its_script_with_the_cache_between_the_steps() {
    let yml = std::fs::read_to_string(source_root().join("action.yml")).unwrap();
    assert!(yml.contains("using: composite"), "{yml}");
    let prepare = yml
        .find("scripts/action.sh\" prepare")
        .expect("a prepare step");
    let cache = yml.find("uses: actions/cache@").expect("a cache step");
    let run = yml.find("scripts/action.sh\" run").expect("a run step");
    assert!(prepare < cache && cache < run, "{yml}");
    assert!(
        yml.contains("path: ${{ steps.prepare.outputs.dir }}"),
        "{yml}"
    );
    assert!(
        yml.contains("key: ${{ steps.prepare.outputs.key }}"),
        "{yml}"
    );
    assert!(
        yml.contains("INPUT_CHECK_TITLE: ${{ inputs.check-title }}"),
        "{yml}"
    );
}

#[test]
fn the_workflow_example_uses_the_action_on_a_full_checkout() {
    let yml =
        std::fs::read_to_string(source_root().join("examples/ci/github-actions.yml")).unwrap();
    let action = std::fs::read_to_string(source_root().join("action.yml")).unwrap();
    assert!(yml.lines().any(|l| l.trim() == "pull_request:"), "{yml}");
    assert!(yml.contains("fetch-depth: 0"), "{yml}");
    assert!(yml.contains("/jitcommit@"), "{yml}");
    let with = yml.split_once("with:\n          check-title:").map(|_| ());
    assert!(with.is_some(), "{yml}");
    assert!(action.contains("\n  check-title:\n"), "{action}");
}

#[test]
fn the_gitlab_example_writes_a_code_quality_report() {
    let yml = std::fs::read_to_string(source_root().join("examples/ci/gitlab-ci.yml")).unwrap();
    assert!(
        yml.contains("codequality: gl-code-quality-report.json"),
        "{yml}"
    );
    assert!(yml.contains("GIT_DEPTH: 0"), "{yml}");
    // The check command (a YAML plain scalar over three lines), run on a real range.
    let start = yml.find("- .jitcommit/bin/jitcommit-check").unwrap();
    let cmd: String = yml[start + 2..]
        .lines()
        .take(3)
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        cmd.ends_with("--format gitlab > gl-code-quality-report.json"),
        "{cmd}"
    );
    let pr = Pr::new(&["updated things"]);
    std::fs::create_dir_all(pr.repo.join(".jitcommit/bin")).unwrap();
    std::os::unix::fs::symlink(bin(), pr.repo.join(".jitcommit/bin/jitcommit-check")).unwrap();
    let o = pr
        .sb
        .cmd("sh", &pr.repo)
        .args(["-c", &cmd])
        .env("CI_MERGE_REQUEST_DIFF_BASE_SHA", &pr.base)
        .env("CI_COMMIT_SHA", &pr.head)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let report = std::fs::read_to_string(pr.repo.join("gl-code-quality-report.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&report).unwrap();
    let issues = v.as_array().unwrap();
    assert!(!issues.is_empty());
    assert!(issues.iter().all(|i| i["check_name"].is_string()
        && i["fingerprint"].is_string()
        && i["location"]["lines"]["begin"].is_u64()));
}

/// Commits `text` as `file` with `msg`; returns the new head.
fn commit_text(pr: &Pr, file: &str, text: &str, msg: &str) -> String {
    write(&pr.repo, file, text);
    pr.sb.git(&pr.repo, &["add", file]);
    pr.sb
        .git(&pr.repo, &["commit", "-q", "--no-verify", "-m", msg]);
    pr.sb
        .git(&pr.repo, &["rev-parse", "HEAD"])
        .trim()
        .to_string()
}

const RELAXED: &str = "types = [\"feat\", \"fix\", \"chore\", \"wip\"]\n";

/// The subject-format annotations of `o`, by the short ids they name.
fn flagged(o: &Output, ids: &[&str]) -> Vec<bool> {
    let errs = errors(o);
    ids.iter()
        .map(|id| {
            errs.iter()
                .any(|l| l.starts_with("::error title=subject-type::") && l.contains(&id[..12]))
        })
        .collect()
}

#[test]
fn a_pull_request_that_relaxes_the_convention_is_judged_by_the_bases() {
    // The attack: the first commit adds a `wip` type to the convention, so its own
    // subject and the next commit's pass by the merge commit's convention.
    let mut pr = Pr::new(&[]);
    pr.restore_cache();
    let relax = commit_text(
        &pr,
        ".commit-convention.toml",
        RELAXED,
        &good("wip: relax the convention", &[".commit-convention.toml"]),
    );
    let bad = commit(
        &pr.sb,
        &pr.repo,
        "f1.txt",
        &good("wip: add f1", &["f1.txt"]),
    );
    pr.head = bad.clone();
    pr.event("wip: everything");
    let o = pr.run(&[]);
    assert_eq!(code(&o), 1, "{}{}", stdout(&o), stderr(&o));
    assert_eq!(
        flagged(&o, &[&relax, &bad]),
        [true, true],
        "both answer to the base's convention: {}",
        stdout(&o)
    );
    // The title too: the relaxed convention is not the base's.
    let o = pr.run(&[("INPUT_CHECK_TITLE", "true")]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    assert!(
        errors(&o)
            .iter()
            .any(|l| l.starts_with("::error title=subject-type::pull request title: ")),
        "{}",
        stdout(&o)
    );
    // A pull request that keeps to the base's convention still passes.
    let mut ok = Pr::new(&[&good("feat: add f0", &["f0.txt"])]);
    ok.restore_cache();
    ok.head = commit_text(
        &ok,
        ".commit-convention.toml",
        RELAXED,
        &good("chore: allow wip commits", &[".commit-convention.toml"]),
    );
    ok.event("chore: allow wip commits");
    let o = ok.run(&[("INPUT_CHECK_TITLE", "true")]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
}

#[test]
fn the_config_inputs_file_is_read_as_the_base_has_it() {
    let mut pr = Pr::new(&[]);
    pr.restore_cache();
    let strict = "types = [\"feat\", \"fix\", \"chore\"]\n";
    pr.base = commit_text(
        &pr,
        "ci/convention.toml",
        strict,
        &good("chore: add the ci convention", &["ci/convention.toml"]),
    );
    let relax = commit_text(
        &pr,
        "ci/convention.toml",
        RELAXED,
        &good("wip: relax the ci convention", &["ci/convention.toml"]),
    );
    let bad = commit(
        &pr.sb,
        &pr.repo,
        "f1.txt",
        &good("wip: add f1", &["f1.txt"]),
    );
    pr.head = bad.clone();
    pr.event("a title");
    let o = pr.run(&[("INPUT_CONFIG", "ci/convention.toml")]);
    assert_eq!(code(&o), 1, "{}{}", stdout(&o), stderr(&o));
    assert_eq!(flagged(&o, &[&relax, &bad]), [true, true], "{}", stdout(&o));
    // The base's file decides: one that forbids `feat` flags a feat commit the pull
    // request's own copy allows.
    let mut strict_pr = Pr::new(&[]);
    strict_pr.restore_cache();
    strict_pr.base = commit_text(
        &strict_pr,
        "ci/convention.toml",
        "types = [\"fix\", \"chore\"]\n",
        &good("chore: add the ci convention", &["ci/convention.toml"]),
    );
    let loosen = commit_text(
        &strict_pr,
        "ci/convention.toml",
        RELAXED,
        &good("chore: loosen the ci convention", &["ci/convention.toml"]),
    );
    let feat = commit(
        &strict_pr.sb,
        &strict_pr.repo,
        "f2.txt",
        &good("feat: add f2", &["f2.txt"]),
    );
    strict_pr.head = feat.clone();
    strict_pr.event("a title");
    let o = strict_pr.run(&[("INPUT_CONFIG", "./ci/convention.toml")]);
    assert_eq!(code(&o), 1, "{}{}", stdout(&o), stderr(&o));
    assert_eq!(
        flagged(&o, &[&loosen, &feat]),
        [false, true],
        "{}",
        stdout(&o)
    );
}

#[test]
fn a_config_file_the_pull_request_adds_does_not_judge_it() {
    // The base has no such file: its own discovered convention (here the built-in one)
    // holds, not the file the pull request brings.
    let mut pr = Pr::new(&[]);
    pr.restore_cache();
    let add = commit_text(
        &pr,
        "ci/convention.toml",
        RELAXED,
        &good("wip: add a ci convention", &["ci/convention.toml"]),
    );
    pr.head = add.clone();
    pr.event("a title");
    let o = pr.run(&[("INPUT_CONFIG", "ci/convention.toml")]);
    assert_eq!(code(&o), 1, "{}{}", stdout(&o), stderr(&o));
    assert_eq!(flagged(&o, &[&add]), [true], "{}", stdout(&o));
}
