//! The draft hook never aborts a commit and never replaces a file that isn't git's
//! message file: a stderr that cannot be written (`/dev/full`, a closed pipe) changes
//! nothing, a path that is not a regular file is left alone, and `PRE_COMMIT=1` inherited
//! from a parent process never makes the hook write into the work tree.
#![allow(clippy::unwrap_used)]

use crate::draft_support;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use draft_support::*;

fn broken(kind: &str) -> Stdio {
    match kind {
        "full" => std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap()
            .into(),
        _ => {
            let (reader, writer) = std::io::pipe().unwrap();
            drop(reader);
            writer.into()
        }
    }
}

/// Runs `c` with a deadline (a FIFO read would block forever); `None` when it had to
/// be killed.
fn run_bounded(mut c: Command) -> Option<std::process::ExitStatus> {
    let mut child = c.spawn().unwrap();
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        if start.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_stderr_that_cannot_be_written_never_aborts_the_commit() {
    for kind in ["full", "closed"] {
        let r = Repo::new();
        write(&r.dir, "a.txt", "a\n");
        r.git(&["add", "a.txt"]);
        let before = r.git(&["rev-parse", "HEAD"]);
        // JITCOMMIT_DEBUG makes the hook speak on every path (here: "not drafting").
        let mut c = r.git_cmd();
        c.args(["commit", "-q", "-m", "feat: add a"])
            .stdout(broken(kind))
            .stderr(broken(kind));
        let status = run_bounded(c).expect("git commit finished");
        assert!(status.success(), "{kind}: {status:?}");
        assert_ne!(r.git(&["rev-parse", "HEAD"]), before, "{kind}: committed");

        // The binary itself: a usage error, a skip and a draft, each with stderr gone.
        let msg = r.sb.path().join("COMMIT_EDITMSG");
        for args in [
            vec!["--no-such-flag".to_string()],
            vec![msg.display().to_string(), "message".into()],
            vec![msg.display().to_string()],
            vec!["--version".into()],
        ] {
            std::fs::write(&msg, "\n# git's comments\n").unwrap();
            let mut c = r.draft_cmd();
            c.args(&args)
                .env("JITCOMMIT_DEBUG", "1")
                .env("JITCOMMIT_URL", "http://127.0.0.1:9")
                .stdout(broken(kind))
                .stderr(broken(kind));
            let status = run_bounded(c).expect("finished");
            assert_eq!(status.code(), Some(0), "{kind} {args:?}");
        }
    }
}

#[cfg(unix)]
#[test]
fn only_a_regular_file_is_ever_rewritten() {
    use std::os::unix::fs::FileTypeExt;
    let r = Repo::new();
    write(&r.dir, "a.txt", "a\n");
    r.git(&["add", "a.txt"]);
    let dir = r.sb.path();

    let fifo = dir.join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success(), "mkfifo");
    let target = r.dir.join("kept.txt");
    std::fs::write(&target, "mine\n").unwrap();
    let link = dir.join("link");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let subdir = dir.join("subdir");
    std::fs::create_dir(&subdir).unwrap();
    let mut paths = vec![fifo.clone(), link.clone(), subdir.clone()];
    // A character device of our own (as root; /dev/null itself is never touched here).
    let dev = dir.join("devnull");
    let is_root = Command::new("mknod")
        .arg(&dev)
        .args(["c", "1", "3"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if is_root {
        paths.push(dev.clone());
    }
    for p in &paths {
        let mut c = r.draft_cmd();
        c.arg(p)
            .env("JITCOMMIT_URL", "http://127.0.0.1:9")
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        let status = run_bounded(c).unwrap_or_else(|| panic!("{} blocked the hook", p.display()));
        assert_eq!(status.code(), Some(0), "{}", p.display());
    }
    assert!(
        std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo()
    );
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "mine\n");
    assert!(subdir.is_dir());
    assert_eq!(std::fs::read_dir(&subdir).unwrap().count(), 0);
    if is_root {
        assert!(
            std::fs::symlink_metadata(&dev)
                .unwrap()
                .file_type()
                .is_char_device()
        );
    }
    // The stderr line says why.
    let out = r
        .draft_cmd()
        .arg(&link)
        .env("JITCOMMIT_URL", "http://127.0.0.1:9")
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("symbolic link"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn an_inherited_pre_commit_variable_never_writes_into_the_work_tree() {
    let r = Repo::new();
    // Work-tree files named like git's arguments: the old reading took the last
    // argument (`message`, `HEAD`) for the message file and drafted into them.
    for stray in ["message", "HEAD"] {
        write(&r.dir, stray, "project file\n");
    }
    r.git(&["add", "message", "HEAD"]);
    r.git(&["commit", "-q", "--no-verify", "-m", "chore: files"]);
    for (i, vars) in [
        vec![("PRE_COMMIT", "1")],
        vec![
            ("PRE_COMMIT", "1"),
            ("PRE_COMMIT_COMMIT_MSG_SOURCE", "message"),
        ],
    ]
    .into_iter()
    .enumerate()
    {
        let name = format!("f{i}.txt");
        write(&r.dir, &name, "x\n");
        r.git(&["add", &name]);
        let mut c = r.git_cmd();
        c.args(["commit", "-q", "-m", &format!("feat: add {name}")])
            .env("JITCOMMIT_URL", "http://127.0.0.1:9");
        for (k, v) in &vars {
            c.env(k, v);
        }
        let out = c.output().unwrap();
        assert_ok(&out, "git commit -m");
        let mut c = r.git_cmd();
        c.args(["commit", "-q", "--amend", "--no-edit"])
            .env("JITCOMMIT_URL", "http://127.0.0.1:9");
        for (k, v) in &vars {
            c.env(k, v);
        }
        let out = c.output().unwrap();
        assert_ok(&out, "git commit --amend");
        for stray in ["message", "HEAD"] {
            assert_eq!(
                std::fs::read_to_string(r.dir.join(stray)).unwrap(),
                "project file\n",
                "{vars:?}: the hook wrote ./{stray}"
            );
        }
        assert!(!r.dir.join("commit").exists());
        assert_eq!(r.git(&["status", "--porcelain"]), "", "{vars:?}");
    }
}
