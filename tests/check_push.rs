//! `jitcommit-check --pre-receive` and `--update` as real server hooks: `git push` into a
//! bare repository, asserting on the pusher's `remote:` lines and on what the server
//! holds afterwards. Every row of docs/git-hooks.md's pre-receive section.
#![allow(clippy::unwrap_used)]

use crate::check_support;

use std::path::Path;
use std::process::Output;

use check_support::*;
use jitcommit_testkit::{Sandbox, write};

const CONVENTION: &str = "types = [\"feat\", \"fix\", \"docs\"]\n";

/// The server of these tests: `CONVENTION` on main and `hook` installed with `args`.
fn server(hook: &str, args: &str) -> Server {
    Server::with(CONVENTION, hook, args)
}

#[test]
fn new_branch_with_good_commits_is_accepted() {
    let s = server("pre-receive", "--pre-receive");
    s.sb.git(&s.client, &["checkout", "-q", "-b", "feature"]);
    s.commit("b.txt", "b\n", &good("feat: add b", &["b.txt"]));
    let tip = s.commit("c.txt", "c\n", &good("fix: add c", &["c.txt"]));
    let o = s.push(&["feature"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        s.server_rev("refs/heads/feature").as_deref(),
        Some(tip.as_str())
    );
}

#[test]
fn new_branch_with_a_bad_commit_is_rejected_with_id_subject_and_findings() {
    let s = server("pre-receive", "--pre-receive");
    s.sb.git(&s.client, &["checkout", "-q", "-b", "feature"]);
    s.commit("b.txt", "b\n", &good("feat: add b", &["b.txt"]));
    let bad = s.commit("c.txt", "c\n", "added c\n");
    s.commit("d.txt", "d\n", &good("chore: add d", &["d.txt"]));
    let o = s.push(&["feature"]);
    assert_ne!(code(&o), 0);
    assert_eq!(
        s.server_rev("refs/heads/feature"),
        None,
        "nothing was stored"
    );
    let remote = Server::remote(&o);
    assert!(
        remote.contains(&format!("{} added c (refs/heads/feature)", &bad[..12])),
        "{remote}"
    );
    assert!(
        remote.contains("chore"),
        "chore is not among the server's types: {remote}"
    );
    assert!(remote.contains("2 of 3 new commits"), "{remote}");
    assert!(!remote.contains('\x1b'), "plain text for remote: lines");
    filters(&s.sb).bind(|| insta::assert_snapshot!("push_rejected_human", remote));
}

#[test]
fn force_push_is_checked_and_a_rejected_one_changes_nothing() {
    let s = server("pre-receive", "--pre-receive");
    let before = s.server_rev("refs/heads/main").unwrap();
    s.sb.git(
        &s.client,
        &["commit", "-q", "--amend", "-m", "rewrote history\n"],
    );
    let o = s.push(&["--force", "main"]);
    assert_ne!(code(&o), 0);
    assert!(
        Server::remote(&o).contains("rewrote history"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        s.server_rev("refs/heads/main").as_deref(),
        Some(before.as_str())
    );

    s.sb.git(
        &s.client,
        &[
            "commit",
            "-q",
            "--amend",
            "-m",
            &good("feat: start over", &["a.txt"]),
        ],
    );
    let o = s.push(&["--force", "main"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_ne!(
        s.server_rev("refs/heads/main").as_deref(),
        Some(before.as_str())
    );
}

#[test]
fn tags_are_peeled() {
    let s = server("pre-receive", "--pre-receive");
    // Tags of commits the server has: nothing new to check.
    s.sb.git(&s.client, &["tag", "-a", "-m", "v1", "v1"]);
    s.sb.git(&s.client, &["tag", "light1"]);
    let o = s.push(&["v1", "light1"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(s.server_rev("refs/tags/v1").is_some());

    // A lightweight and an annotated tag of a new, bad commit on no branch.
    s.commit("b.txt", "b\n", "tagged junk\n");
    s.sb.git(&s.client, &["tag", "light2"]);
    let o = s.push(&["light2"]);
    assert_ne!(code(&o), 0);
    assert!(
        Server::remote(&o).contains("tagged junk (refs/tags/light2)"),
        "{}",
        stderr(&o)
    );
    s.sb.git(&s.client, &["tag", "-a", "-m", "v2", "v2"]);
    let o = s.push(&["v2"]);
    assert_ne!(code(&o), 0);
    assert!(
        Server::remote(&o).contains("tagged junk (refs/tags/v2)"),
        "{}",
        stderr(&o)
    );
    assert_eq!(s.server_rev("refs/tags/v2"), None);
    assert_eq!(s.server_rev("refs/tags/light2"), None);

    // An annotated tag of a new, good commit.
    s.sb.git(&s.client, &["reset", "-q", "--hard", "HEAD~1"]);
    s.commit("b.txt", "b\n", &good("feat: add b", &["b.txt"]));
    s.sb.git(&s.client, &["tag", "-a", "-m", "v3", "v3"]);
    let o = s.push(&["v3"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

#[test]
fn deletion_is_skipped() {
    let s = server("pre-receive", "--pre-receive");
    // A branch with a bad commit that got onto the server before the hook existed.
    let hook = s.bare.join("hooks/pre-receive");
    std::fs::rename(&hook, s.bare.join("hooks/off")).unwrap();
    s.sb.git(&s.client, &["checkout", "-q", "-b", "old"]);
    s.commit("b.txt", "b\n", "legacy junk\n");
    assert_eq!(code(&s.push(&["old"])), 0);
    std::fs::rename(s.bare.join("hooks/off"), &hook).unwrap();
    let o = s.push(&[":old"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(s.server_rev("refs/heads/old"), None);
}

#[test]
fn a_push_cannot_loosen_the_convention_it_is_checked_against() {
    let s = server("pre-receive", "--pre-receive");
    s.commit(
        ".commit-convention.toml",
        "types = [\"feat\", \"fix\", \"docs\", \"chore\"]\n",
        &good("feat: allow chore", &[".commit-convention.toml"]),
    );
    s.commit("b.txt", "b\n", &good("chore: tidy b", &["b.txt"]));
    let before = s.server_rev("refs/heads/main").unwrap();
    let o = s.push(&["main"]);
    assert_ne!(code(&o), 0);
    let remote = Server::remote(&o);
    assert!(remote.contains("chore: tidy b"), "{remote}");
    assert!(
        !remote.contains("allow chore ("),
        "the editing commit itself is fine: {remote}"
    );
    assert!(
        remote.contains(".commit-convention.toml"),
        "names the policy: {remote}"
    );
    assert_eq!(
        s.server_rev("refs/heads/main").as_deref(),
        Some(before.as_str())
    );

    // A new branch is checked against the default branch's convention.
    let o = s.push(&["HEAD:refs/heads/loose"]);
    assert_ne!(code(&o), 0);
    assert!(
        Server::remote(&o).contains("chore: tidy b"),
        "{}",
        stderr(&o)
    );
}

/// The release exemption (a subject that is a bare version) is off by default, and a
/// push cannot turn it on for itself: the convention it adds the exemption in is not
/// the policy its own commits answer to.
#[test]
fn a_push_cannot_exempt_its_own_version_titled_commits() {
    let s = server("pre-receive", "--pre-receive");
    s.commit(
        ".commit-convention.toml",
        "exempt = [\"merge\", \"revert\", \"release\"]\n",
        &good(
            "chore: exempt release commits",
            &[".commit-convention.toml"],
        ),
    );
    s.commit("b.txt", "anything\n", "v9.9.9");
    let before = s.server_rev("refs/heads/main").unwrap();
    let o = s.push(&["main"]);
    assert_ne!(code(&o), 0);
    let remote = Server::remote(&o);
    assert!(remote.contains("v9.9.9"), "{remote}");
    assert_eq!(
        s.server_rev("refs/heads/main").as_deref(),
        Some(before.as_str())
    );
}

#[test]
fn config_flag_is_the_policy() {
    let s = server("pre-receive", "--pre-receive");
    let policy = s.sb.path().join("policy.toml");
    std::fs::write(&policy, "types = [\"feat\"]\nbody = \"optional\"\n").unwrap();
    install_hook(
        &s.bare.join("hooks"),
        "pre-receive",
        &format!("--pre-receive --config '{}'", policy.display()),
    );
    s.commit("b.txt", "b\n", &good("fix: b", &["b.txt"]));
    let o = s.push(&["main"]);
    assert_ne!(code(&o), 0);
    assert!(Server::remote(&o).contains("policy.toml"), "{}", stderr(&o));
    s.sb.git(&s.client, &["commit", "-q", "--amend", "-m", "feat: b"]);
    let o = s.push(&["main"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

#[test]
fn shared_commits_are_checked_once() {
    let s = server("pre-receive", "--pre-receive");
    let bad = s.commit("b.txt", "b\n", "shared junk\n");
    s.sb.git(&s.client, &["branch", "one"]);
    s.sb.git(&s.client, &["branch", "two"]);
    let o = s.push(&["one", "two"]);
    assert_ne!(code(&o), 0);
    let remote = Server::remote(&o);
    assert_eq!(
        remote.lines().filter(|l| l.starts_with(&bad[..12])).count(),
        1,
        "{remote}"
    );
    assert!(remote.contains("1 of 1 new commits"), "{remote}");
}

#[test]
fn a_rejected_pre_receive_rejects_every_ref_of_the_push() {
    let s = server("pre-receive", "--pre-receive");
    s.sb.git(&s.client, &["checkout", "-q", "-b", "fine"]);
    s.commit("b.txt", "b\n", &good("feat: add b", &["b.txt"]));
    s.sb.git(&s.client, &["checkout", "-q", "-b", "broken"]);
    s.commit("c.txt", "c\n", "junk c\n");
    let o = s.push(&["fine", "broken"]);
    assert_ne!(code(&o), 0);
    assert_eq!(s.server_rev("refs/heads/fine"), None);
    assert_eq!(s.server_rev("refs/heads/broken"), None);
}

#[test]
fn json_format_on_the_server() {
    let s = server("pre-receive", "--pre-receive --format json");
    s.commit("b.txt", "b\n", "junk b\n");
    let o = s.push(&["main"]);
    assert_ne!(code(&o), 0);
    let remote = Server::remote(&o);
    let v: serde_json::Value = serde_json::from_str(remote.lines().next().unwrap()).unwrap();
    assert_eq!(v["subject"], "junk b");
    assert_eq!(v["ref"], "refs/heads/main");
    filters(&s.sb).bind(|| insta::assert_snapshot!("push_rejected_json", remote));
}

#[test]
fn update_hook_checks_each_ref() {
    let s = server("update", "--update");
    s.sb.git(&s.client, &["checkout", "-q", "-b", "good"]);
    let good_tip = s.commit("b.txt", "b\n", &good("feat: add b", &["b.txt"]));
    s.sb.git(&s.client, &["checkout", "-q", "-b", "bad"]);
    s.commit("c.txt", "c\n", "junk c\n");
    let o = s.push(&["good", "bad"]);
    assert_ne!(code(&o), 0);
    assert!(
        Server::remote(&o).contains("junk c (refs/heads/bad)"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        s.server_rev("refs/heads/good").as_deref(),
        Some(good_tip.as_str())
    );
    assert_eq!(s.server_rev("refs/heads/bad"), None);
}

/// Issue 48: the first push into an empty repository is the project's history,
/// accepted as it is; `--check-first-push` (the admin's stricter start) checks it
/// against the built-in convention.
#[test]
fn first_push_into_an_empty_repository_is_the_projects_history() {
    let sb = Sandbox::new();
    let c = sb.init("c");
    write(&c, "a.txt", "a\n");
    sb.git(&c, &["add", "."]);
    sb.git(&c, &["commit", "-q", "-m", "chore: start"]);
    let open = sb.init_bare("open.git");
    install_hook(&open.join("hooks"), "pre-receive", "--pre-receive");
    let o = git_try(&sb, &c, &["push", open.to_str().unwrap(), "main"], &[]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("accepted as they are"),
        "{}",
        stderr(&o)
    );

    let bare = sb.init_bare("server.git");
    install_hook(
        &bare.join("hooks"),
        "pre-receive",
        "--pre-receive --check-first-push",
    );
    let o = git_try(&sb, &c, &["push", bare.to_str().unwrap(), "main"], &[]);
    assert_ne!(code(&o), 0, "the built-in convention wants a body");
    assert!(stderr(&o).contains("built-in"), "{}", stderr(&o));
    sb.git(
        &c,
        &[
            "commit",
            "-q",
            "--amend",
            "-m",
            &good("chore: start", &["a.txt"]),
        ],
    );
    let o = git_try(&sb, &c, &["push", bare.to_str().unwrap(), "main"], &[]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

fn pre_receive_direct(sb: &Sandbox, bare: &Path, stdin: &str) -> Output {
    let mut c = check(sb, bare);
    c.arg("--pre-receive").env("GIT_DIR", ".");
    run_with_stdin(c, stdin.as_bytes())
}

#[test]
fn bad_stdin_and_unknown_objects_exit_2() {
    let s = server("pre-receive", "--pre-receive");
    let main = s.server_rev("refs/heads/main").unwrap();
    let o = pre_receive_direct(&s.sb, &s.bare, "garbage\n");
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("line 1"), "{}", stderr(&o));
    let o = pre_receive_direct(&s.sb, &s.bare, &format!("{main} refs/heads/x\n"));
    assert_eq!(code(&o), 2, "{}", stderr(&o));

    let unknown = "1234567890123456789012345678901234567890";
    let o = pre_receive_direct(
        &s.sb,
        &s.bare,
        &format!("{main} {unknown} refs/heads/main\n"),
    );
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains(unknown), "{}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"));

    // An id of the other hash kind is an error, not a crash.
    let o = pre_receive_direct(
        &s.sb,
        &s.bare,
        &format!("{} {} refs/heads/main\n", "0".repeat(64), "ab".repeat(32)),
    );
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("not a sha1 object id"),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    // SHA-256-length zero ids: a deletion brings nothing to check (an old id that names
    // no commit here leaves no policy to keep).
    let z64 = "0".repeat(64);
    let o = pre_receive_direct(
        &s.sb,
        &s.bare,
        &format!("{} {z64} refs/heads/gone\n", "ab".repeat(32)),
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // And the update hook's argv is validated.
    let o = run({
        let mut c = check(&s.sb, &s.bare);
        c.args(["--update", "refs/heads/main", "nothex", &main])
            .env("GIT_DIR", ".");
        c
    });
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("nothex"), "{}", stderr(&o));
}

#[test]
fn unborn_head_and_no_default_branch() {
    // A bare repository whose HEAD names a branch that never existed.
    let s = server("pre-receive", "--pre-receive");
    s.sb.git(&s.bare, &["symbolic-ref", "HEAD", "refs/heads/nothing"]);
    s.sb.git(&s.client, &["checkout", "-q", "-b", "new"]);
    s.commit("b.txt", "b\n", &good("chore: add b", &["b.txt"]));
    let o = s.push(&["new"]);
    // No old commit and no default branch: the built-in convention (chore allowed).
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

/// A push long enough to be checked on several threads (256 commits and up), with
/// bullets to trace: the worker threads read the pushed objects from git's quarantine
/// too. One commit in the second half names a path it did not change; after it is
/// fixed, the same history is accepted.
#[test]
fn a_long_push_is_traced_from_the_quarantine_on_every_thread() {
    let s = server("pre-receive", "--pre-receive");
    let history = |branch: &str, bad: Option<usize>| {
        let mut script = String::new();
        for i in 1..=300usize {
            let file = format!("d{}/f{i}.txt", i % 5);
            let named = if Some(i) == bad {
                "d0/never.txt".to_string()
            } else {
                file.clone()
            };
            let msg = good(&format!("feat: step {i}"), &[&named]);
            script.push_str(&format!(
                "commit refs/heads/{branch}\ncommitter C <c@example.com> {} +0000\ndata {}\n{msg}\n",
                1_700_000_000 + i * 60,
                msg.len()
            ));
            if i == 1 {
                script.push_str("from refs/heads/main^0\n");
            }
            script.push_str(&format!("M 100644 inline {file}\ndata 2\n{}\n\n", i % 10));
        }
        let o = run_with_stdin(
            {
                let mut c = s.sb.git_cmd(&s.client);
                c.args(["fast-import", "--quiet"]);
                c
            },
            script.as_bytes(),
        );
        assert!(o.status.success(), "{}", stderr(&o));
    };

    history("long", Some(250));
    let o = s.push(&["long"]);
    assert_ne!(code(&o), 0);
    let remote = Server::remote(&o);
    assert!(remote.contains("feat: step 250"), "{remote}");
    assert!(remote.contains("bullet-path"), "{remote}");
    assert!(remote.contains("1 of 300 new commits"), "{remote}");
    assert_eq!(s.server_rev("refs/heads/long"), None);

    history("fixed", None);
    let o = s.push(&["fixed"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(s.server_rev("refs/heads/fixed").is_some());
}

// ---- The policy model (docs/check.md, "Policy model"): no sequence of pushes gets a
// commit onto a ref whose policy rejects it.

/// A convention that also allows `chore`, which the seed's convention does not.
const LAX: &str = "types = [\"feat\", \"fix\", \"docs\", \"chore\"]\n";

impl Server {
    /// Pushes `lax` in two steps, as the attack does: first a conforming commit that
    /// relaxes the convention, then (under lax's own, relaxed rules) a `chore` commit
    /// main's convention rejects. Returns the chore commit.
    fn lax_branch(&self) -> String {
        self.sb.git(&self.client, &["checkout", "-q", "-b", "lax"]);
        self.commit(
            ".commit-convention.toml",
            LAX,
            &good("feat: allow chore on lax", &[".commit-convention.toml"]),
        );
        let o = self.push(&["lax"]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let chore = self.commit("b.txt", "b\n", &good("chore: tidy b", &["b.txt"]));
        let o = self.push(&["lax"]);
        assert_eq!(code(&o), 0, "lax's own rules allow chore: {}", stderr(&o));
        chore
    }
}

#[test]
fn fast_forwarding_main_onto_commits_already_on_the_server_checks_them() {
    let s = server("pre-receive", "--pre-receive");
    let chore = s.lax_branch();
    let before = s.server_rev("refs/heads/main").unwrap();
    // main moves onto commits the repository already has: they are new to main.
    let o = s.push(&["lax:main"]);
    assert_ne!(code(&o), 0, "{}", stderr(&o));
    let remote = Server::remote(&o);
    assert!(
        remote.contains(&format!("{} chore: tidy b (refs/heads/main)", &chore[..12])),
        "{remote}"
    );
    assert!(
        remote.contains("refs/heads/main before the push"),
        "{remote}"
    );
    assert_eq!(s.server_rev("refs/heads/main"), Some(before));
}

#[test]
fn a_commit_pushed_to_two_refs_answers_to_both_policies() {
    let s = server("pre-receive", "--pre-receive");
    s.lax_branch();
    // One new commit that lax allows and main does not, pushed to both at once, lax
    // named first.
    let new = s.commit("c.txt", "c\n", &good("chore: tidy c", &["c.txt"]));
    s.sb.git(&s.client, &["branch", "-f", "main", "lax"]);
    let o = s.push(&["lax", "main"]);
    assert_ne!(code(&o), 0, "{}", stderr(&o));
    let remote = Server::remote(&o);
    assert!(
        remote.contains(&format!("{} chore: tidy c (refs/heads/main)", &new[..12])),
        "{remote}"
    );
    assert!(
        !remote.contains("(refs/heads/lax)"),
        "lax's own rules allow it: {remote}"
    );
    assert_ne!(
        s.server_rev("refs/heads/lax").as_deref(),
        Some(new.as_str())
    );
    // lax alone still takes it.
    let o = s.push(&["lax"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

#[test]
fn a_deleted_branch_keeps_its_convention_when_pushed_again() {
    let s = server("pre-receive", "--pre-receive");
    s.sb.git(&s.client, &["checkout", "-q", "-b", "strict"]);
    s.commit(
        ".commit-convention.toml",
        "types = [\"feat\"]\n",
        &good(
            "feat: only features on strict",
            &[".commit-convention.toml"],
        ),
    );
    let o = s.push(&["strict"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let fix = s.commit("b.txt", "b\n", &good("fix: b", &["b.txt"]));
    let o = s.push(&["strict"]);
    assert_ne!(code(&o), 0, "strict allows only feat: {}", stderr(&o));

    let o = s.push(&[":strict"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(s.server_rev("refs/heads/strict"), None);
    let o = s.push(&["strict"]);
    assert_ne!(code(&o), 0, "{}", stderr(&o));
    let remote = Server::remote(&o);
    assert!(
        remote.contains(&format!("{} fix: b (refs/heads/strict)", &fix[..12])),
        "{remote}"
    );
    assert!(remote.contains("had when it was deleted"), "{remote}");
    assert_eq!(s.server_rev("refs/heads/strict"), None);

    // Without the fix commit the branch comes back as it was.
    s.sb.git(&s.client, &["reset", "-q", "--hard", "HEAD~1"]);
    let o = s.push(&["strict"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

#[test]
fn deleting_the_default_branch_and_pushing_it_again_keeps_its_policy() {
    let s = server("pre-receive", "--pre-receive");
    s.lax_branch();
    s.sb.git(&s.bare, &["config", "receive.denyDeleteCurrent", "ignore"]);
    let o = s.push(&[":main"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = s.push(&["lax:main"]);
    assert_ne!(code(&o), 0, "{}", stderr(&o));
    assert!(
        Server::remote(&o).contains("chore: tidy b"),
        "{}",
        stderr(&o)
    );
    assert_eq!(s.server_rev("refs/heads/main"), None);
}

#[test]
fn a_push_that_brings_an_invalid_convention_is_rejected_before_it_lands() {
    let s = server("pre-receive", "--pre-receive");
    let before = s.server_rev("refs/heads/main").unwrap();
    s.commit(
        ".commit-convention.toml",
        "typs = [\"feat\", \"fix\", \"docs\"]\n",
        &good("fix: tidy the convention", &[".commit-convention.toml"]),
    );
    let o = s.push(&["main"]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let remote = Server::remote(&o);
    assert!(remote.contains("refs/heads/main at"), "{remote}");
    assert!(remote.contains("typs"), "names the bad key: {remote}");
    assert_eq!(s.server_rev("refs/heads/main"), Some(before));
    // The same on a new branch.
    let o = s.push(&["HEAD:refs/heads/other"]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert_eq!(s.server_rev("refs/heads/other"), None);

    // Fixed on top, the branch moves on.
    s.commit(
        ".commit-convention.toml",
        CONVENTION,
        &good("fix: spell types right", &[".commit-convention.toml"]),
    );
    let o = s.push(&["main"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

#[test]
fn notes_are_not_project_history() {
    let s = server("pre-receive", "--pre-receive");
    s.sb.git(&s.client, &["notes", "add", "-m", "reviewed", "HEAD"]);
    let o = s.push(&["refs/notes/commits"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(s.server_rev("refs/notes/commits").is_some());
    // A note ref's commits vouch for nothing: main still checks them.
    let notes = s.server_rev("refs/notes/commits").unwrap();
    let o = s.push(&[&format!("{notes}:refs/heads/main")]);
    assert_ne!(code(&o), 0, "{}", stderr(&o));
}

/// Commits whose subjects look like git's own but whose records do not back them.
#[test]
fn exemptions_on_the_server_are_backed_by_what_git_writes() {
    let s = server("pre-receive", "--pre-receive");
    let forged = [
        "Merge branch 'topic'",
        "fixup! feat: start",
        "squash! feat: start",
        "amend! feat: start\n\nfeat: start",
        "Revert \"feat: start\"",
        "Reapply \"feat: start\"",
        "Revert \"feat: start\"\n\nThis reverts commit 1111111111111111111111111111111111111111.",
    ];
    for (i, msg) in forged.iter().enumerate() {
        s.sb.git(&s.client, &["reset", "-q", "--hard", "origin/main"]);
        s.commit(&format!("f{i}.txt"), "x\n", msg);
        let o = s.push(&["--force", "HEAD:refs/heads/forged"]);
        assert_ne!(
            code(&o),
            0,
            "{msg:?} is not what git writes: {}",
            stderr(&o)
        );
    }

    // What git does write passes: a real merge and a real revert.
    s.sb.git(&s.client, &["reset", "-q", "--hard", "origin/main"]);
    s.sb.git(&s.client, &["checkout", "-q", "-b", "topic"]);
    s.commit("t.txt", "t\n", &good("feat: add t", &["t.txt"]));
    s.sb.git(&s.client, &["checkout", "-q", "main"]);
    s.commit("m.txt", "m\n", &good("feat: add m", &["m.txt"]));
    s.sb.git(&s.client, &["merge", "-q", "--no-edit", "--no-ff", "topic"]);
    s.sb.git(&s.client, &["revert", "--no-edit", "HEAD~1"]);
    assert!(head_message(&s.sb, &s.client).starts_with("Revert \"feat: add m\""));
    let o = s.push(&["main"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

#[test]
fn a_server_policy_may_exempt_fixups() {
    let s = server("pre-receive", "--pre-receive");
    let policy = s.sb.path().join("policy.toml");
    std::fs::write(&policy, "exempt = [\"merge\", \"fixup\"]\n").unwrap();
    install_hook(
        &s.bare.join("hooks"),
        "pre-receive",
        &format!("--pre-receive --config '{}'", policy.display()),
    );
    s.commit("b.txt", "b\n", "fixup! feat: start");
    let o = s.push(&["main"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    s.commit("c.txt", "c\n", "squash! feat: start");
    let o = s.push(&["main"]);
    assert_ne!(
        code(&o),
        0,
        "squash is not in the policy's list: {}",
        stderr(&o)
    );
}

/// Issue 28: an existing project pushed into a fresh server whose policy names the
/// project's adoption point is accepted, history and all; a later commit that breaks the
/// house style is refused. The point comes from the server's policy: the same history
/// pushed without it is refused.
#[test]
fn an_existing_project_is_pushed_into_a_new_server_from_its_adoption_point() {
    let sb = Sandbox::new();
    let c = sb.init("c");
    for (file, msg) in [
        ("a.txt", "initial import"),
        (
            "b.txt",
            "feat: add b\n\nA prose body, as before jitcommit.\n",
        ),
        ("c.txt", "Fix the thing"),
    ] {
        write(&c, file, "x\n");
        sb.git(&c, &["add", "."]);
        sb.git(&c, &["commit", "-q", "--no-verify", "-m", msg]);
    }
    let point = sb.git(&c, &["rev-parse", "HEAD"]).trim().to_owned();

    let strict = sb.init_bare("strict.git");
    install_hook(
        &strict.join("hooks"),
        "pre-receive",
        "--pre-receive --check-first-push",
    );
    let o = git_try(&sb, &c, &["push", strict.to_str().unwrap(), "main"], &[]);
    assert_ne!(code(&o), 0, "no adoption point: the old history is refused");

    // A pusher cannot name the point: the pushed convention is not the policy.
    write(
        &c,
        ".commit-convention.toml",
        format!("adopted = \"{point}\"\n"),
    );
    sb.git(&c, &["add", "."]);
    sb.git(
        &c,
        &[
            "commit",
            "-q",
            "--no-verify",
            "-m",
            &good("chore: adopt jitcommit", &[".commit-convention.toml"]),
        ],
    );
    let o = git_try(&sb, &c, &["push", strict.to_str().unwrap(), "main"], &[]);
    assert_ne!(code(&o), 0, "{}", stderr(&o));

    let bare = sb.init_bare("server.git");
    let policy = sb.path().join("policy.toml");
    std::fs::write(&policy, format!("adopted = \"{point}\"\n")).unwrap();
    install_hook(
        &bare.join("hooks"),
        "pre-receive",
        &format!("--pre-receive --config '{}'", policy.display()),
    );
    let o = git_try(&sb, &c, &["push", bare.to_str().unwrap(), "main"], &[]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));

    write(&c, "d.txt", "d\n");
    sb.git(&c, &["add", "."]);
    sb.git(
        &c,
        &[
            "commit",
            "-q",
            "--no-verify",
            "-m",
            "feat: add d\n\nprose\n",
        ],
    );
    let o = git_try(&sb, &c, &["push", bare.to_str().unwrap(), "main"], &[]);
    assert_ne!(code(&o), 0, "after the point the house style holds");
    assert!(stderr(&o).contains("feat: add d"), "{}", stderr(&o));
}

// ---- An unborn default branch (`git init --bare` names master, the project pushes
// main): the push that creates it makes its history every ref's accepted history, so
// it answers to every ref's policy (docs/check.md, "Policy model").

/// The server of `server`, with HEAD naming `refs/heads/master`, which does not exist.
fn server_with_unborn_head(hook: &str, args: &str) -> Server {
    let s = server(hook, args);
    s.sb.git(&s.bare, &["symbolic-ref", "HEAD", "refs/heads/master"]);
    s
}

#[test]
fn creating_an_unborn_default_branch_answers_to_the_other_refs_policies() {
    for (hook, args) in [("pre-receive", "--pre-receive"), ("update", "--update")] {
        let s = server_with_unborn_head(hook, args);
        let main = s.server_rev("refs/heads/main").unwrap();
        s.sb.git(&s.client, &["checkout", "-q", "-b", "master"]);
        // The built-in convention allows chore; main's does not.
        let chore = s.commit("b.txt", "b\n", &good("chore: tidy b", &["b.txt"]));
        let o = s.push(&["master"]);
        assert_ne!(code(&o), 0, "{hook}: {}", stderr(&o));
        let remote = Server::remote(&o);
        assert!(
            remote.contains(&format!("{} chore: tidy b", &chore[..12])),
            "{hook}: {remote}"
        );
        assert!(
            remote.contains("refs/heads/main after the push"),
            "{remote}"
        );
        assert_eq!(s.server_rev("refs/heads/master"), None, "{hook}");
        // So it never becomes accepted history that main would skip.
        let o = s.push(&["HEAD:main"]);
        assert_ne!(code(&o), 0, "{hook}: {}", stderr(&o));
        assert_eq!(
            s.server_rev("refs/heads/main"),
            Some(main.clone()),
            "{hook}"
        );

        // A default branch that main's rules accept is created as before.
        s.sb.git(&s.client, &["reset", "-q", "--hard", "origin/main"]);
        s.commit("c.txt", "c\n", &good("fix: tidy c", &["c.txt"]));
        let o = s.push(&["master"]);
        assert_eq!(code(&o), 0, "{hook}: {}", stderr(&o));
        assert!(s.server_rev("refs/heads/master").is_some());
    }
}

#[test]
fn one_push_creating_a_ref_and_the_unborn_default_branch_answers_to_both() {
    let sb = Sandbox::new();
    let bare = sb.init_bare("server.git");
    sb.git(&bare, &["symbolic-ref", "HEAD", "refs/heads/master"]);
    install_hook(
        &bare.join("hooks"),
        "pre-receive",
        "--pre-receive --check-first-push",
    );
    let c = sb.init("c");
    write(&c, ".commit-convention.toml", CONVENTION);
    sb.git(&c, &["add", "."]);
    sb.git(
        &c,
        &[
            "commit",
            "-q",
            "-m",
            &good("feat: start", &[".commit-convention.toml"]),
        ],
    );
    sb.git(&c, &["branch", "-f", "master"]);
    sb.git(&c, &["checkout", "-q", "master"]);
    write(&c, "b.txt", "b\n");
    sb.git(&c, &["add", "."]);
    sb.git(
        &c,
        &["commit", "-q", "-m", &good("chore: tidy b", &["b.txt"])],
    );
    let url = bare.to_str().unwrap();
    // main brings a convention without chore; master, HEAD's branch, a chore commit on
    // top of it: once accepted, `master:main` would skip it.
    let o = git_try(&sb, &c, &["push", url, "main", "master"], &[]);
    assert_ne!(code(&o), 0, "{}", stderr(&o));
    assert!(
        Server::remote(&o).contains("chore: tidy b"),
        "{}",
        stderr(&o)
    );
    // Pushed in the other order, one at a time, the same.
    let o = git_try(&sb, &c, &["push", url, "main"], &[]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = git_try(&sb, &c, &["push", url, "master"], &[]);
    assert_ne!(code(&o), 0, "{}", stderr(&o));
    let o = git_try(&sb, &c, &["push", url, "master:main"], &[]);
    assert_ne!(code(&o), 0, "{}", stderr(&o));
}

#[test]
fn an_unborn_default_branch_answers_to_the_policy_of_a_deleted_ref() {
    let s = server_with_unborn_head("pre-receive", "--pre-receive");
    s.sb.git(&s.client, &["checkout", "-q", "-b", "strict"]);
    s.commit(
        ".commit-convention.toml",
        "types = [\"feat\"]\n",
        &good(
            "feat: only features on strict",
            &[".commit-convention.toml"],
        ),
    );
    let o = s.push(&["strict"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = s.push(&[":strict"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let fix = s.commit("b.txt", "b\n", &good("fix: b", &["b.txt"]));
    // main's rules allow fix, strict's (kept) do not: master would carry it back.
    let o = s.push(&["HEAD:master"]);
    assert_ne!(code(&o), 0, "{}", stderr(&o));
    let remote = Server::remote(&o);
    assert!(
        remote.contains(&format!("{} fix: b", &fix[..12])),
        "{remote}"
    );
    assert!(remote.contains("had when it was deleted"), "{remote}");
    assert_eq!(s.server_rev("refs/heads/master"), None);
}
