//! `Repo` as git hands a repository to a hook: real `git commit` runs a real
//! prepare-commit-msg hook, and a real `git push` runs a real pre-receive hook. The hook
//! re-runs this test binary's `probe` test, which opens the repository from the hook's
//! environment (`GIT_INDEX_FILE`, `GIT_DIR`, `GIT_CONFIG_PARAMETERS`, the quarantine) and
//! writes what it sees next to what git itself reports in the same hook.
#![allow(clippy::unwrap_used)]

use std::io::Read;
use std::path::Path;

use jitcommit_core::repo::{Repo, is_zero_id, status_short};
use jitcommit_testkit::{Sandbox, write};

/// Not a test of its own: the entry point hooks run (`<test-exe> --exact repo_hooks::probe`). Without
/// `PROBE_OUT` it does nothing.
#[test]
fn probe() {
    let Ok(out) = std::env::var("PROBE_OUT") else {
        return;
    };
    let cwd = std::env::current_dir().unwrap();
    let repo = Repo::discover(&cwd).unwrap();
    let mut report = String::new();
    if std::env::var("PROBE_MODE").as_deref() == Ok("pre-receive") {
        let mut stdin = String::new();
        std::io::stdin().read_to_string(&mut stdin).unwrap();
        let tips: Vec<_> = stdin
            .lines()
            .filter_map(|l| l.split_whitespace().nth(1))
            .filter(|new| !is_zero_id(new))
            .map(|new| jitcommit_core::repo::ObjectId::from_hex(new.as_bytes()).unwrap())
            .collect();
        for c in repo.new_commits(&tips).unwrap() {
            // Reading each commit's changes proves the quarantined objects are reachable.
            let changes = repo.commit_changes(c).unwrap();
            let subject = String::from_utf8_lossy(&repo.commit_message(c).unwrap())
                .lines()
                .next()
                .unwrap_or("")
                .to_owned();
            report.push_str(&format!("{c} {} {subject}\n", changes.len()));
        }
    } else {
        report.push_str(&format!(
            "branch={:?} unborn={} bare={} git_dir={} work_dir={}\n",
            repo.head_branch(),
            repo.is_unborn(),
            repo.is_bare(),
            repo.git_dir().display(),
            repo.work_dir()
                .map(|p| p.display().to_string())
                .unwrap_or_default()
        ));
        for key in std::env::var("PROBE_KEYS")
            .unwrap_or_default()
            .split(',')
            .filter(|k| !k.is_empty())
        {
            report.push_str(&format!("{key}={:?}\n", repo.config_string(key)));
        }
        report.push_str("--status\n");
        report.push_str(&status_short(&repo.staged_changes().unwrap()));
        report.push_str("--patch\n");
        report.push_str(&patch_text(&repo.staged().unwrap()));
    }
    std::fs::write(out, report).unwrap();
}

/// The staged diffs as one patch, as `git diff --cached` prints them.
fn patch_text(state: &jitcommit_core::repo::StagedState) -> String {
    let mut out = String::new();
    for f in &state.files {
        out.push_str(&f.header);
        for h in &f.hunks {
            out.push_str(&h.header);
            out.push('\n');
            out.push_str(&h.body);
        }
    }
    out
}

/// Installs `hook` as a shell script that runs git's own view into `<out>.git` and the
/// probe into `<out>`.
fn install_hook(hooks_dir: &Path, hook: &str, out: &Path, mode: &str, keys: &str, git_side: &str) {
    let exe = std::env::current_exe().unwrap();
    let script = format!(
        "#!/bin/sh\n{git_side}\nPROBE_OUT='{out}' PROBE_MODE={mode} PROBE_KEYS='{keys}' '{exe}' --exact repo_hooks::probe --test-threads=1 >'{out}.log' 2>&1 || {{ echo probe failed >&2; cat '{out}.log' >&2; exit 1; }}\n",
        out = out.display(),
        exe = exe.display(),
    );
    std::fs::create_dir_all(hooks_dir).unwrap();
    let path = hooks_dir.join(hook);
    std::fs::write(&path, script).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

const GIT_DIFF_SIDE: &str = "git diff --cached > \"$PROBE_GIT\"";

struct Capture {
    report: String,
    git_diff: String,
}

fn capture(out: &Path) -> Capture {
    let report = std::fs::read_to_string(out).unwrap();
    let git_diff = std::fs::read_to_string(format!("{}.git", out.display())).unwrap_or_default();
    // The prompt's diffs carry no `index abc..def` lines.
    let git_diff = git_diff
        .split_inclusive('\n')
        .filter(|l| !l.starts_with("index "))
        .collect();
    Capture { report, git_diff }
}

impl Capture {
    fn section(&self, name: &str) -> &str {
        let start = self.report.find(&format!("--{name}\n")).unwrap() + name.len() + 3;
        let rest = &self.report[start..];
        rest.find("\n--").map_or(rest, |e| &rest[..=e])
    }
    fn patch(&self) -> &str {
        let start = self.report.find("--patch\n").unwrap() + 8;
        &self.report[start..]
    }
}

/// A repository with a first commit and a prepare-commit-msg probe writing to `out`.
fn setup(sb: &Sandbox, keys: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let r = sb.init("r");
    write(&r, "a.txt", "one\ntwo\nthree\n");
    write(&r, "b.txt", "bee\n");
    write(
        &r,
        "keep.txt",
        (1..=30).map(|i| format!("line {i}\n")).collect::<String>(),
    );
    write(&r, "tc", "was a file\n");
    sb.git(&r, &["add", "-A"]);
    sb.git(&r, &["commit", "-qm", "init"]);
    let out = sb.path().join("probe.out");
    let git_side = GIT_DIFF_SIDE.replace("$PROBE_GIT", &format!("{}.git", out.display()));
    install_hook(
        &r.join(".git/hooks"),
        "prepare-commit-msg",
        &out,
        "staged",
        keys,
        &git_side,
    );
    (r, out)
}

#[test]
fn plain_commit_sees_the_index_git_names() {
    let sb = Sandbox::new();
    let (r, out) = setup(&sb, "");
    write(&r, "a.txt", "one\nTWO\nthree\n");
    sb.git(&r, &["mv", "keep.txt", "kept.txt"]);
    std::fs::remove_file(r.join("tc")).unwrap();
    std::os::unix::fs::symlink("a.txt", r.join("tc")).unwrap();
    write(&r, "bin.dat", b"\x00\x01binary");
    write(&r, "dir/new file.txt", "spaced\n");
    sb.git(&r, &["add", "-A"]);
    // An unstaged edit must not show.
    write(&r, "b.txt", "unstaged\n");
    sb.git(&r, &["commit", "-qm", "x"]);
    let c = capture(&out);
    assert_eq!(
        c.section("status"),
        "M  a.txt\nA  bin.dat\nA  \"dir/new file.txt\"\nR  keep.txt -> kept.txt\nT  tc\n"
    );
    assert_eq!(c.patch(), c.git_diff);
    assert!(
        c.report
            .contains("branch=Some(\"main\") unborn=false bare=false")
    );
}

#[test]
fn commit_all_reads_index_lock() {
    let sb = Sandbox::new();
    let (r, out) = setup(&sb, "");
    write(&r, "b.txt", "changed by -a\n");
    sb.git(&r, &["commit", "-qam", "x"]);
    let c = capture(&out);
    assert_eq!(c.section("status"), "M  b.txt\n");
    assert_eq!(c.patch(), c.git_diff);
}

#[test]
fn commit_with_paths_reads_next_index_lock() {
    let sb = Sandbox::new();
    let (r, out) = setup(&sb, "");
    write(&r, "a.txt", "only a\n");
    write(&r, "b.txt", "not b\n");
    sb.git(&r, &["add", "b.txt"]);
    sb.git(&r, &["commit", "-qm", "x", "--", "a.txt"]);
    let c = capture(&out);
    assert_eq!(c.section("status"), "M  a.txt\n");
    assert_eq!(c.patch(), c.git_diff);
}

#[test]
fn git_c_parameters_reach_config_and_rename_detection() {
    let sb = Sandbox::new();
    let (r, out) = setup(&sb, "jit.k,x.y,core.commentChar,flag.on,jit.missing");
    sb.git(&r, &["config", "jit.k", "from-repo"]);
    sb.git(&r, &["config", "core.commentChar", "%"]);
    sb.git(&r, &["mv", "keep.txt", "kept.txt"]);
    sb.git(
        &r,
        &[
            "-c",
            "jit.k=first",
            "-c",
            "jit.k=last",
            "-c",
            "x.y=it's",
            "-c",
            "CORE.COMMENTCHAR=;",
            "-c",
            "flag.on",
            "-c",
            "diff.renames=false",
            "commit",
            "-qm",
            "x",
        ],
    );
    let c = capture(&out);
    assert!(c.report.contains("jit.k=Some(\"last\")\n"), "{}", c.report);
    assert!(c.report.contains("x.y=Some(\"it's\")\n"), "{}", c.report);
    assert!(
        c.report.contains("core.commentChar=Some(\";\")\n"),
        "{}",
        c.report
    );
    assert!(c.report.contains("flag.on=Some(\"\")\n"), "{}", c.report);
    assert!(c.report.contains("jit.missing=None\n"), "{}", c.report);
    assert_eq!(c.section("status"), "D  keep.txt\nA  kept.txt\n");
    assert_eq!(c.patch(), c.git_diff);
}

#[test]
fn linked_worktree_through_git_dir() {
    let sb = Sandbox::new();
    let (r, out) = setup(&sb, "");
    let wt = sb.path().join("wt");
    sb.git(
        &r,
        &["worktree", "add", "-q", "-b", "side", wt.to_str().unwrap()],
    );
    write(&wt, "a.txt", "in the worktree\n");
    sb.git(&wt, &["commit", "-qam", "x"]);
    let c = capture(&out);
    assert!(c.report.contains("branch=Some(\"side\")"), "{}", c.report);
    assert!(c.report.contains(".git/worktrees/wt "), "{}", c.report);
    assert!(
        c.report.contains(&format!(
            "work_dir={}",
            wt.canonicalize().unwrap().display()
        )) || c.report.contains(&format!("work_dir={}", wt.display())),
        "{}",
        c.report
    );
    assert_eq!(c.section("status"), "M  a.txt\n");
    assert_eq!(c.patch(), c.git_diff);
}

#[test]
fn unborn_head_compares_with_the_empty_tree() {
    let sb = Sandbox::new();
    let r = sb.init("r");
    let out = sb.path().join("probe.out");
    let git_side = GIT_DIFF_SIDE.replace("$PROBE_GIT", &format!("{}.git", out.display()));
    install_hook(
        &r.join(".git/hooks"),
        "prepare-commit-msg",
        &out,
        "staged",
        "",
        &git_side,
    );
    write(&r, "z.txt", "z\n");
    write(&r, "a.txt", "");
    sb.git(&r, &["add", "-A"]);
    sb.git(&r, &["commit", "-qm", "first"]);
    let c = capture(&out);
    assert!(
        c.report.contains("branch=Some(\"main\") unborn=true"),
        "{}",
        c.report
    );
    assert_eq!(c.section("status"), "A  a.txt\nA  z.txt\n");
    assert_eq!(c.patch(), c.git_diff);
}

#[test]
fn pre_receive_lists_new_commits_from_the_quarantine() {
    let sb = Sandbox::new();
    let server = sb.init_bare("server.git");
    let out = sb.path().join("push.out");
    let rev_list = format!(
        "tips=''; while read old new ref; do case $new in *[!0]*) tips=\"$tips $new\";; esac; echo \"$old $new $ref\" >> '{o}.stdin'; done\n\
         [ -n \"$tips\" ] && git rev-list --reverse $tips --not --all > '{o}.git' || : > '{o}.git'\n\
         exec < '{o}.stdin'",
        o = out.display()
    );
    install_hook(
        &server.join("hooks"),
        "pre-receive",
        &out,
        "pre-receive",
        "",
        &rev_list,
    );

    let r = sb.init("client");
    let url = server.to_str().unwrap();
    write(&r, "a.txt", "1\n");
    sb.git(&r, &["add", "-A"]);
    sb.git(&r, &["commit", "-qm", "one"]);
    sb.git(&r, &["push", "-q", url, "main"]);
    let first = std::fs::read_to_string(&out).unwrap();
    let want = std::fs::read_to_string(format!("{}.git", out.display())).unwrap();
    assert_eq!(
        first
            .lines()
            .map(|l| l.split(' ').next().unwrap())
            .collect::<Vec<_>>()
            .join("\n")
            + "\n",
        want
    );
    assert!(first.ends_with(" 1 one\n"), "{first}");

    // A new branch with two commits, a tag on the second, and main moved on: shared
    // commits are listed once, old ones never.
    let _ = std::fs::remove_file(format!("{}.stdin", out.display()));
    sb.git(&r, &["checkout", "-qb", "topic"]);
    for i in 2..=3 {
        write(&r, &format!("f{i}.txt"), format!("{i}\n"));
        sb.git(&r, &["add", "-A"]);
        sb.git(&r, &["commit", "-qm", &format!("c{i}")]);
    }
    sb.git(&r, &["tag", "-a", "-m", "tagged", "v1"]);
    sb.git(&r, &["checkout", "-q", "main"]);
    sb.git(&r, &["merge", "-q", "--ff-only", "topic"]);
    write(&r, "a.txt", "main moves\n");
    sb.git(&r, &["commit", "-qam", "c4"]);
    sb.git(&r, &["push", "-q", url, "main", "topic", "v1"]);
    let got = std::fs::read_to_string(&out).unwrap();
    let want = std::fs::read_to_string(format!("{}.git", out.display())).unwrap();
    let ids: Vec<&str> = got.lines().map(|l| l.split(' ').next().unwrap()).collect();
    assert_eq!(ids.len(), 3, "{got}");
    let mut sorted_want: Vec<&str> = want.lines().collect();
    let mut sorted_got = ids.clone();
    sorted_want.sort_unstable();
    sorted_got.sort_unstable();
    assert_eq!(sorted_got, sorted_want);
    assert!(
        got.contains(" c2\n") && got.contains(" c3\n") && got.contains(" c4\n"),
        "{got}"
    );

    // A deletion alone brings nothing.
    let _ = std::fs::remove_file(format!("{}.stdin", out.display()));
    sb.git(&r, &["push", "-q", url, ":topic"]);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "");
}
