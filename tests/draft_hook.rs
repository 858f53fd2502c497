//! Every prepare-commit-msg row of docs/git-hooks.md with real `git commit`s: the hook
//! drafts only for a plain commit and above a template, never replaces text the user
//! or git wrote, keeps the `commit -v` scissors part intact, and respects the comment
//! prefix. No model is configured here: the drafts are offline drafts.
#![allow(clippy::unwrap_used)]

use crate::draft_support;
use draft_support::*;

const PLACEHOLDER: &str = jitcommit_drafter::offline::WHY_PLACEHOLDER;

fn stage(r: &Repo, rel: &str, text: &str) {
    write(&r.dir, rel, text);
    r.git(&["add", rel]);
}

#[test]
fn plain_commit_gets_the_offline_draft_above_gits_comments() {
    let r = Repo::new();
    stage(&r, "src/lib.rs", "pub fn greet() {}\n");
    let err = r.ok(&["commit"]);
    assert_eq!(used(&err), Some("offline"), "{err}");
    let shown = &r.shown()[0];
    let first = shown.lines().next().unwrap();
    assert!(first.starts_with("feat"), "{shown}");
    assert!(shown.contains("- Add: src/lib.rs — "), "{shown}");
    assert!(
        shown.contains("# jitcommit: offline draft"),
        "footer comment: {shown}"
    );
    assert!(
        shown.contains("# Please enter the commit message"),
        "git's comments stay: {shown}"
    );
    let msg = r.last_message();
    assert!(msg.starts_with(first), "{msg}");
    assert!(msg.contains(PLACEHOLDER));
    assert!(!msg.contains("jitcommit:"), "the footer is stripped: {msg}");
}

/// Commits what is staged with `message` as the repository's own history, hooks skipped.
fn commit_as(r: &Repo, message: &str) {
    r.git(&["commit", "-q", "--no-verify", "-m", message]);
}

#[test]
fn the_offline_type_reads_the_history_and_what_the_change_adds() {
    let r = Repo::new();
    // A repository that commits its version bumps as chores.
    for v in ["0.1.0", "0.2.0"] {
        stage(
            &r,
            "Cargo.toml",
            &format!("[package]\nname = \"r\"\nversion = \"{v}\"\n"),
        );
        stage(&r, "CHANGELOG.md", &format!("# Changelog\n\n## {v}\n"));
        commit_as(&r, &format!("chore(version): {v}"));
    }
    stage(
        &r,
        "Cargo.toml",
        "[package]\nname = \"r\"\nversion = \"0.3.0\"\n",
    );
    stage(&r, "CHANGELOG.md", "# Changelog\n\n## 0.3.0\n");
    let err = r.ok(&["commit"]);
    assert_eq!(used(&err), Some("offline"), "{err}");
    let first = r.shown()[0].lines().next().unwrap().to_owned();
    assert!(
        first.starts_with("chore"),
        "a bump, as this history commits one: {first}"
    );

    // Code this history calls perf work: a change that mostly adds code and defines
    // something new is a feature all the same.
    let body = "fn old() -> u32 {\n    1\n}\n";
    stage(&r, "src/lib.rs", body);
    commit_as(&r, "perf: start the library");
    stage(
        &r,
        "src/lib.rs",
        &format!("{body}fn old_twice() -> u32 {{\n    2\n}}\n"),
    );
    commit_as(&r, "perf: a second old function");
    let grown: String = (0..6)
        .map(|i| format!("fn added_{i}() -> u32 {{\n    {i}\n}}\n"))
        .collect();
    stage(
        &r,
        "src/lib.rs",
        &format!("{body}fn old_twice() -> u32 {{\n    2\n}}\n{grown}"),
    );
    r.ok(&["commit"]);
    let first = r.shown()[1].lines().next().unwrap().to_owned();
    assert!(first.starts_with("feat"), "{first}");
    // A rework of the same code keeps the history's type.
    stage(
        &r,
        "src/lib.rs",
        &format!("{body}fn old_twice() -> u32 {{\n    3\n}}\n{grown}"),
    );
    r.ok(&["commit"]);
    let first = r.shown()[2].lines().next().unwrap().to_owned();
    assert!(first.starts_with("perf"), "{first}");
}

/// The release step of the guide (docs/guide.md, "Changelog and releases"):
/// `jitcommit changelog --tag 0.2.0 --write`, a version bump beside it, and the commit
/// is drafted `chore(release): 0.2.0`.
#[test]
fn the_release_commit_is_drafted_as_the_guide_says() {
    let r = Repo::new();
    stage(
        &r,
        "Cargo.toml",
        "[package]\nname = \"r\"\nversion = \"0.1.0\"\n",
    );
    stage(&r, "src/lib.rs", "pub fn greet() {}\n");
    commit_as(&r, "feat: greet\n\n- Add: src/lib.rs — a greeting");
    r.git(&["tag", "-a", "-m", "0.1.0", "v0.1.0"]);
    stage(&r, "src/lib.rs", "pub fn greet() {}\npub fn wave() {}\n");
    commit_as(&r, "feat: wave\n\n- Update: src/lib.rs — a wave");

    let changelog = |args: &[&str]| {
        let o =
            r.sb.cmd(cargo_bin("jitcommit"), &r.dir)
                .arg("changelog")
                .args(args)
                .output()
                .unwrap();
        assert_ok(&o, &format!("jitcommit changelog {args:?}"));
    };
    // The changelog as it stood at 0.1.0, committed; then the release.
    changelog(&["--write"]);
    r.git(&["add", "CHANGELOG.md"]);
    commit_as(&r, "docs: the changelog\n\n- Add: CHANGELOG.md — generated");
    changelog(&["--tag", "0.2.0", "--write"]);
    r.git(&["add", "CHANGELOG.md"]);
    r.ok(&["commit"]);
    let first = r.shown()[0].lines().next().unwrap().to_owned();
    assert_eq!(first, "chore(release): 0.2.0");
    r.git(&["tag", "-a", "-m", "0.2.0", "v0.2.0"]);

    // The next release, with the version bump staged beside it.
    stage(&r, "src/lib.rs", "pub fn greet() {}\npub fn wave() { }\n");
    commit_as(&r, "fix: wave\n\n- Fix: src/lib.rs — spaced");
    changelog(&["--tag", "0.3.0", "--write"]);
    r.git(&["add", "CHANGELOG.md"]);
    stage(
        &r,
        "Cargo.toml",
        "[package]\nname = \"r\"\nversion = \"0.3.0\"\n",
    );
    r.ok(&["commit"]);
    let first = r.shown()[1].lines().next().unwrap().to_owned();
    assert_eq!(first, "chore(release): 0.3.0");
}

#[test]
fn the_offline_summary_is_a_sentence_named_test_or_a_new_heading() {
    let r = Repo::new();
    stage(&r, "docs/guide.md", "# Guide\n\nIntro.\n");
    r.ok(&["commit"]);
    stage(
        &r,
        "docs/guide.md",
        "# Guide\n\nIntro.\n\n## How the hook reads the index\n\nOnce.\n",
    );
    r.ok(&["commit"]);
    stage(
        &r,
        "tests/lean.rs",
        "fn binary() {}\n\n#[test]\nfn the_validator_links_neither_http_client_nor_tokenizer() {}\n",
    );
    r.ok(&["commit"]);
    let subjects: Vec<String> = r
        .shown()
        .iter()
        .map(|m| m.lines().next().unwrap().to_owned())
        .collect();
    assert!(
        subjects[1].ends_with(": add How the hook reads the index"),
        "{subjects:?}"
    );
    assert!(
        subjects[2].ends_with(": the validator links neither http client nor tokenizer"),
        "{subjects:?}"
    );
}

/// A heading is repository text: as a summary it stays one printable subject line, and
/// no trailer, comment or second line comes out of it.
#[test]
fn a_hostile_heading_stays_in_the_subject_as_data() {
    let r = Repo::new();
    stage(
        &r,
        "docs/guide.md",
        "## Fix it\u{202e}desrever \u{2028}Signed-off-by: Evil <e@x> # not a comment\r\n",
    );
    r.ok(&["commit"]);
    let msg = r.last_message();
    let subject = msg.lines().next().unwrap();
    assert!(
        subject.contains(": fix it desrever Signed-off-by: Evil"),
        "{msg}"
    );
    assert!(
        !msg.chars()
            .any(|c| matches!(c, '\u{202e}' | '\u{2028}' | '\r')),
        "{msg:?}"
    );
    let trailers = r.git(&["log", "-1", "--format=%(trailers:only,unfold)"]);
    assert!(trailers.trim().is_empty(), "{trailers:?}");
}

#[test]
fn no_edit_writes_no_comment_lines() {
    let r = Repo::new();
    stage(&r, "src/lib.rs", "pub fn greet() {}\n");
    r.ok(&["commit", "--no-edit"]);
    assert!(r.shown().is_empty(), "no editor ran");
    let msg = r.last_message();
    assert!(msg.starts_with("feat"), "{msg}");
    assert!(
        msg.lines().all(|l| !l.starts_with('#')),
        "no comment in the commit: {msg}"
    );
}

#[test]
fn user_messages_are_never_replaced() {
    let r = Repo::new();
    stage(&r, "a.txt", "a\n");
    r.ok(&["commit", "-m", "my own words"]);
    assert_eq!(r.last_message(), "my own words\n\n");

    stage(&r, "b.txt", "b\n");
    write(r.sb.path(), "msg.txt", "from a file\n");
    let f = r.sb.path().join("msg.txt");
    r.ok(&["commit", "-F", f.to_str().unwrap()]);
    assert_eq!(r.last_message(), "from a file\n\n");

    stage(&r, "c.txt", "c\n");
    r.ok(&["commit", "--fixup", "HEAD"]);
    assert_eq!(r.last_message(), "fixup! from a file\n\n");

    stage(&r, "d.txt", "d\n");
    r.ok(&["commit", "--squash", "HEAD~1", "--no-edit"]);
    assert!(
        r.last_message().starts_with("squash! from a file"),
        "{}",
        r.last_message()
    );

    // -c / -C reuse a commit's message; --amend keeps the old one.
    stage(&r, "e.txt", "e\n");
    r.ok(&["commit", "-C", "HEAD~2"]);
    assert_eq!(r.last_message(), "from a file\n\n");
    stage(&r, "f.txt", "f\n");
    r.ok(&["commit", "-c", "HEAD~4"]);
    assert_eq!(r.last_message(), "my own words\n\n");
    stage(&r, "g.txt", "g\n");
    r.ok(&["commit", "--amend"]);
    assert_eq!(r.last_message(), "my own words\n\n");
    for shown in r.shown() {
        assert!(!shown.contains(PLACEHOLDER), "no draft was shown: {shown}");
    }
}

#[test]
fn template_keeps_its_text_below_the_draft() {
    let r = Repo::new();
    write(
        r.sb.path(),
        "template.txt",
        "Template line the team wants\n",
    );
    stage(&r, "docs/guide.md", "# Guide\n");
    let t = r.sb.path().join("template.txt");
    let err = r.ok(&["commit", "-t", t.to_str().unwrap()]);
    assert_eq!(used(&err), Some("offline"), "{err}");
    let msg = r.last_message();
    assert!(msg.starts_with("docs"), "{msg}");
    let draft_at = msg.find("- Add: docs/guide.md").unwrap();
    let template_at = msg.find("Template line the team wants").unwrap();
    assert!(draft_at < template_at, "draft above the template: {msg}");

    // commit.template behaves the same.
    r.git(&["config", "commit.template", t.to_str().unwrap()]);
    stage(&r, "docs/more.md", "# More\n");
    r.ok(&["commit"]);
    let msg = r.last_message();
    assert!(
        msg.starts_with("docs") && msg.contains("Template line the team wants"),
        "{msg}"
    );
}

#[test]
fn merges_and_squashes_are_left_alone() {
    let r = Repo::new();
    r.git(&["checkout", "-q", "-b", "x"]);
    stage(&r, "x.txt", "x\n");
    r.git(&["commit", "-q", "--no-verify", "-m", "on x"]);
    r.git(&["checkout", "-q", "main"]);
    stage(&r, "m.txt", "m\n");
    r.git(&["commit", "-q", "--no-verify", "-m", "on main"]);
    r.ok(&["merge", "--no-ff", "x"]);
    assert_eq!(r.last_message(), "Merge branch 'x'\n\n");

    // A conflicted merge concluded with `git commit` (source `merge`).
    r.git(&["checkout", "-q", "-b", "y"]);
    stage(&r, "c.txt", "y\n");
    r.git(&["commit", "-q", "--no-verify", "-m", "y side"]);
    r.git(&["checkout", "-q", "main"]);
    stage(&r, "c.txt", "main\n");
    r.git(&["commit", "-q", "--no-verify", "-m", "main side"]);
    let out = r.run(&["merge", "y"]);
    assert!(!out.status.success(), "conflict expected");
    stage(&r, "c.txt", "resolved\n");
    r.ok(&["commit"]);
    assert!(
        r.last_message().starts_with("Merge branch 'y'"),
        "{}",
        r.last_message()
    );

    // merge --squash, then commit (source `squash`).
    r.git(&["checkout", "-q", "-b", "z"]);
    stage(&r, "z.txt", "z\n");
    r.git(&["commit", "-q", "--no-verify", "-m", "z work"]);
    r.git(&["checkout", "-q", "main"]);
    r.ok(&["merge", "--squash", "z"]);
    r.ok(&["commit"]);
    assert!(
        r.last_message()
            .starts_with("Squashed commit of the following"),
        "{}",
        r.last_message()
    );
    for shown in r.shown() {
        assert!(!shown.contains(PLACEHOLDER), "no draft: {shown}");
    }
}

#[test]
fn cherry_pick_revert_and_rebase_are_left_alone() {
    let r = Repo::new();
    r.git(&["checkout", "-q", "-b", "x"]);
    stage(&r, "x.txt", "x\n");
    r.git(&["commit", "-q", "--no-verify", "-m", "picked text"]);
    r.git(&["checkout", "-q", "main"]);
    r.ok(&["cherry-pick", "x"]);
    assert_eq!(r.last_message(), "picked text\n\n");
    r.ok(&["revert", "--no-edit", "HEAD"]);
    assert!(
        r.last_message().starts_with("Revert \"picked text\""),
        "{}",
        r.last_message()
    );
    // An interactive rebase that rewords one commit and picks another.
    stage(&r, "y.txt", "y\n");
    r.git(&["commit", "-q", "--no-verify", "-m", "to reword"]);
    let seq = r.sb.path().join("seq.sh");
    std::fs::write(&seq, "#!/bin/sh\nsed -i '1s/^pick/reword/' \"$1\"\n").unwrap();
    chmod_x(&seq);
    let out = r
        .git_cmd()
        .env("GIT_SEQUENCE_EDITOR", &seq)
        .args(["rebase", "-i", "HEAD~2"])
        .output()
        .unwrap();
    assert_ok(&out, "rebase -i");
    let log = r.git(&["log", "-3", "--format=%s"]);
    assert_eq!(log, "to reword\nRevert \"picked text\"\npicked text\n");
    for shown in r.shown() {
        assert!(!shown.contains(PLACEHOLDER), "no draft: {shown}");
    }
}

#[test]
fn commit_a_and_commit_paths_describe_exactly_what_is_committed() {
    let r = Repo::new();
    stage(&r, "staged.txt", "s\n");
    r.git(&["commit", "-q", "--no-verify", "-m", "base"]);
    write(&r.dir, "staged.txt", "s2\n");
    r.git(&["add", "staged.txt"]);
    write(&r.dir, "README.md", "# r changed\n");
    // `commit <paths>`: only README.md, though staged.txt is staged.
    r.ok(&["commit", "README.md"]);
    let msg = r.last_message();
    assert!(
        msg.contains("README.md") && !msg.contains("staged.txt"),
        "{msg}"
    );
    assert_eq!(r.git(&["diff", "--cached", "--name-only"]), "staged.txt\n");
    // `commit -a`: the staged file and the tracked, unstaged change.
    write(&r.dir, "README.md", "# r changed again\n");
    r.ok(&["commit", "-a"]);
    let msg = r.last_message();
    assert!(
        msg.contains("- Update: README.md") && msg.contains("- Update: staged.txt"),
        "{msg}"
    );
}

#[test]
fn verbose_commit_keeps_the_scissors_part() {
    let r = Repo::new();
    stage(&r, "src/lib.rs", "pub fn greet() {}\n");
    r.ok(&["commit", "-v"]);
    let shown = &r.shown()[0];
    assert!(shown.starts_with("feat"), "{shown}");
    let cut = shown
        .find("# ------------------------ >8 ------------------------")
        .unwrap();
    let tail = &shown[cut..];
    assert!(
        tail.contains("diff --git a/src/lib.rs b/src/lib.rs\nnew file mode 100644"),
        "{tail}"
    );
    assert!(tail.ends_with("+pub fn greet() {}\n"), "{tail}");
    assert!(
        !tail.contains(PLACEHOLDER),
        "nothing added below the scissors"
    );
    assert_eq!(
        shown.matches(&format!("; {PLACEHOLDER}")).count(),
        1,
        "one draft bullet"
    );
    assert!(!r.last_message().contains("diff --git"));
}

#[test]
fn comment_prefix_variants() {
    for (key, value, prefix) in [
        ("core.commentChar", ";", ";"),
        ("core.commentString", "//", "//"),
        ("core.commentChar", "auto", "#"),
    ] {
        let r = Repo::new();
        r.git(&["config", key, value]);
        stage(&r, "src/lib.rs", "pub fn greet() {}\n");
        r.ok(&["commit"]);
        let shown = &r.shown()[0];
        assert!(
            shown.contains(&format!("\n{prefix} jitcommit: offline draft")),
            "{key}={value}: {shown}"
        );
        assert!(shown.contains(&format!("{prefix} Please enter")), "{shown}");
        let msg = r.last_message();
        assert!(
            !msg.contains("jitcommit:") && !msg.contains("Please enter"),
            "{key}={value}: {msg}"
        );
    }
    // auto with a template whose lines start with '#': git picks ';', and so do we.
    let r = Repo::new();
    r.git(&["config", "core.commentChar", "auto"]);
    write(r.sb.path(), "t.txt", "#hashtag kept\n");
    stage(&r, "src/lib.rs", "pub fn greet() {}\n");
    let t = r.sb.path().join("t.txt");
    r.ok(&["commit", "-t", t.to_str().unwrap()]);
    let shown = &r.shown()[0];
    assert!(shown.contains("\n; jitcommit: offline draft"), "{shown}");
    let msg = r.last_message();
    assert!(
        msg.contains("#hashtag kept") && !msg.contains("jitcommit:"),
        "{msg}"
    );
}

/// `core.commentChar=auto` picks the character git picked, as the real git shows: from
/// git's own scissors line (not a quoted one above it), and, when git wrote no comments
/// (`commit.status=false`), by git's rule, where a line also starts after a `\r`.
#[test]
fn comment_char_auto_follows_git() {
    let quoted_cut = "Fix it\n# ------------------------ >8 ------------------------\nquoted\n";
    let cases: &[(&str, &str, &str, &[&str])] = &[
        // git writes its comments with ';' and its own scissors line last.
        ("auto", "true", quoted_cut, &["-v"]),
        // No comments from git: it chose ';' because '#' starts a line.
        ("auto", "false", "#hashtag kept\n", &[]),
        ("auto", "false", "a\r#b\n", &[]),
        // git reads `auto` in any case.
        ("AUTO", "true", "#hashtag kept\n", &[]),
    ];
    let mut wrong = Vec::new();
    for (value, status, template, extra) in cases {
        let r = Repo::new();
        r.git(&["config", "core.commentChar", value]);
        r.git(&["config", "commit.status", status]);
        write(r.sb.path(), "t.txt", template);
        stage(&r, "src/lib.rs", "pub fn greet() {}\n");
        let t = r.sb.path().join("t.txt");
        let mut args = vec!["commit", "-t", t.to_str().unwrap()];
        args.extend_from_slice(extra);
        r.ok(&args);
        let shown = &r.shown()[0];
        let msg = r.last_message();
        if !shown.contains("\n; jitcommit: offline draft") || msg.contains("jitcommit:") {
            wrong.push(format!("{value} {template:?}:\n{shown}\n-> {msg}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

#[test]
fn turned_off_by_env_and_config() {
    let r = Repo::new();
    stage(&r, "a.txt", "a\n");
    let out = r
        .git_cmd()
        .env("JITCOMMIT_SKIP", "1")
        .args(["commit"])
        .output()
        .unwrap();
    assert!(!out.status.success(), "empty message aborts");
    assert!(r.shown()[0].starts_with('\n'), "no draft: {}", r.shown()[0]);
    r.git(&["config", "jitcommit.enabled", "false"]);
    let out = r.run(&["commit"]);
    assert!(!out.status.success(), "empty message aborts");
    assert!(r.shown()[1].starts_with('\n'), "no draft: {}", r.shown()[1]);
}

#[test]
fn linked_worktree_drafts_from_its_own_index() {
    let r = Repo::new();
    let wt = r.sb.path().join("wt");
    r.git(&["worktree", "add", "-q", "-b", "side", wt.to_str().unwrap()]);
    write(&wt, "side.rs", "fn side() {}\n");
    r.sb.git(&wt, &["add", "side.rs"]);
    let out = r
        .git_cmd()
        .current_dir(&wt)
        .args(["commit", "--no-edit"])
        .output()
        .unwrap();
    assert_ok(&out, "commit in worktree");
    let msg = r.sb.git(&wt, &["log", "-1", "--format=%B"]);
    assert!(msg.contains("- Add: side.rs"), "{msg}");
}

#[test]
fn dry_run_prints_and_writes_nothing() {
    let r = Repo::new();
    stage(&r, "src/lib.rs", "pub fn greet() {}\n");
    let msg_file = r.dir.join(".git/COMMIT_EDITMSG");
    let before = std::fs::read(&msg_file).unwrap();
    let out = r.draft_cmd().arg("--dry-run").output().unwrap();
    assert_ok(&out, "--dry-run");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("feat") && text.contains("- Add: src/lib.rs"),
        "{text}"
    );
    assert_eq!(std::fs::read(&msg_file).unwrap(), before, "nothing written");
}

#[test]
fn nothing_staged_leaves_a_note_and_exits_zero() {
    let r = Repo::new();
    let out = r.run(&["commit", "--allow-empty"]);
    assert!(!out.status.success(), "empty message aborts");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("jitcommit-draft: nothing is staged"), "{err}");
    assert!(
        r.shown()[0].contains("# jitcommit: no draft: nothing is staged"),
        "{}",
        r.shown()[0]
    );
}

#[test]
fn broken_arguments_never_block() {
    let r = Repo::new();
    let out = r.draft_cmd().arg("--bogus").output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--bogus"));
    let out = r.draft_cmd().arg("--help").output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("EXAMPLES"));
    let out = r.draft_cmd().arg("--version").output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("jitcommit-draft "));
}

#[test]
fn the_footer_never_ends_up_in_a_stored_commit() {
    // `--cleanup=scissors` (on the command line, which the hook reads from git's own
    // argv) and `verbatim` keep comment lines: the footer is left out there.
    for how in [
        vec!["commit", "-q", "--cleanup=scissors"],
        vec!["commit", "-q", "--cleanup", "verbatim"],
        vec!["-c", "commit.cleanup=whitespace", "commit", "-q"],
        vec!["commit", "-q", "-v", "--cleanup=scissors"],
    ] {
        let r = Repo::new();
        write(&r.dir, "a.txt", "a\n");
        r.git(&["add", "a.txt"]);
        r.ok(&how);
        let stored = r.last_message();
        assert!(stored.starts_with("docs: add a.txt"), "{stored:?}");
        assert!(
            !stored.contains("# jitcommit"),
            "{how:?} stored the footer: {stored:?}"
        );
    }
}

/// Issue 30's young repository, commit by commit through the hook: a small Python
/// package whose history starts with one `docs` commit, and whose every drafted message
/// is committed as it stands, so each draft's type becomes the next one's history. Each
/// type comes from what the change shows: one earlier commit's type never decides.
#[test]
fn a_young_python_package_is_typed_from_each_change_not_from_one_earlier_commit() {
    let r = Repo::new();
    let report = |low: &str, doc: &str, extra: &str| {
        format!(
            "\"\"\"Stock reports.\"\"\"\n\n\ndef low_stock({low}):\n    \"\"\"{doc}\"\"\"\n    \
             return [i for i in items if i.count < threshold]\n\n\nclass Report:\n    \
             def __init__(self, items):\n        self.items = items\n{extra}"
        )
    };
    let cli = |module: &str, label: &str| {
        format!(
            "from shop.{module} import low_stock\n\n\ndef main(items):\n    \
             print(\"{label}\", low_stock(items))\n"
        )
    };
    stage(&r, "shop/__init__.py", "");
    stage(
        &r,
        "shop/report.py",
        &report("items, threshold=3", "Items below the threshold.", ""),
    );
    stage(&r, "shop/cli.py", &cli("report", "Low stock:"));
    stage(&r, ".gitattributes", "docs/api/** linguist-generated\n");
    stage(
        &r,
        "pyproject.toml",
        "[project]\nname = \"shop\"\nversion = \"0.1.0\"\n",
    );
    commit_as(&r, "feat: a stock report");
    r.git(&["tag", "-a", "-m", "0.1.0", "v0.1.0"]);

    let mut n = 0;
    let mut draft = |what: &str, want: &str, summary: Option<&str>| {
        let err = r.ok(&["commit"]);
        assert_eq!(used(&err), Some("offline"), "{what}: {err}");
        let shown = r.shown()[n].clone();
        n += 1;
        let first = shown.lines().next().unwrap().to_owned();
        let kind = first.split([':', '(']).next().unwrap();
        assert_eq!(kind, want, "{what}: {shown}");
        if let Some(s) = summary {
            assert!(first.ends_with(&format!(": {s}")), "{what}: {first}");
        }
    };
    // A docstring edit: documentation.
    stage(
        &r,
        "shop/report.py",
        &report(
            "items, threshold=3",
            "The items whose count is below the threshold.",
            "",
        ),
    );
    draft("a docstring edit", "docs", None);
    // The next change to the same file adds a keyword argument to a public function:
    // a feature, though the file's one earlier commit was `docs`.
    stage(
        &r,
        "shop/report.py",
        &report(
            "items, threshold=3, *, include_zero=False",
            "The items whose count is below the threshold.",
            "",
        ),
    );
    draft(
        "a new keyword argument",
        "feat",
        Some("add parameter include_zero to low_stock"),
    );
    // A user-visible string: nothing says feature or documentation, and one earlier
    // commit's type does not decide.
    stage(&r, "shop/cli.py", &cli("report", "Running low:"));
    draft("a user-visible string", "fix", None);
    // A new public method.
    let method = "\n    def total(self):\n        \"\"\"Returns the number of items in stock.\"\"\"\n        \
                  return sum(i.count for i in self.items)\n";
    let doc = "The items whose count is below the threshold.";
    stage(
        &r,
        "shop/report.py",
        &report("items, threshold=3, *, include_zero=False", doc, method),
    );
    draft(
        "a new public method",
        "feat",
        Some("add total to return the number of items in stock"),
    );
    // A docstring edit inside the method, after two features.
    let method2 = method.replace("Returns the number", "Return the number");
    stage(
        &r,
        "shop/report.py",
        &report("items, threshold=3, *, include_zero=False", doc, &method2),
    );
    draft("a docstring edit after features", "docs", None);
    // A module rename with its import updated.
    r.git(&["mv", "shop/report.py", "shop/stock_report.py"]);
    stage(&r, "shop/cli.py", &cli("stock_report", "Running low:"));
    draft(
        "a rename with its import",
        "refactor",
        Some("rename report to stock_report"),
    );
    // A generated index (`.gitattributes` says so).
    stage(
        &r,
        "docs/api/index.json",
        "{\"modules\": [\"stock_report\"]}\n",
    );
    draft("a generated index", "chore", None);
    // The release: the changelog written for the first time, the version bumped.
    let o =
        r.sb.cmd(cargo_bin("jitcommit"), &r.dir)
            .args(["changelog", "--tag", "0.2.0", "--write"])
            .output()
            .unwrap();
    assert_ok(&o, "jitcommit changelog --tag 0.2.0 --write");
    r.git(&["add", "CHANGELOG.md"]);
    stage(
        &r,
        "pyproject.toml",
        "[project]\nname = \"shop\"\nversion = \"0.2.0\"\n",
    );
    let err = r.ok(&["commit"]);
    assert_eq!(used(&err), Some("offline"), "{err}");
    let first = r.shown()[7].lines().next().unwrap().to_owned();
    assert_eq!(first, "chore(release): 0.2.0", "{}", r.shown()[7]);
}
