//! Hermetic git for tests, the way gitoxide's fixture runner does it: no system or
//! global config, a private HOME, pinned author and committer dates, and none of the
//! test runner's own `GIT_*` variables leaking in.
#![allow(clippy::unwrap_used, clippy::missing_panics_doc)]

pub mod layers;
pub mod model_server;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Variables removed from every command so an outer git (a hook running the test
/// suite, a worktree) cannot change what the test sees.
const SCRUBBED: &[&str] = &[
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_QUARANTINE_PATH",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
    "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR",
    "GIT_REFLOG_ACTION",
    "GIT_PREFIX",
    "GIT_CEILING_DIRECTORIES",
    "EDITOR",
    "VISUAL",
    "NO_COLOR",
    "JITCOMMIT_SKIP",
    "JITCOMMIT_INTENT",
    "JITCOMMIT_URL",
    "JITCOMMIT_MODEL",
    "JITCOMMIT_PROVIDER",
    "JITCOMMIT_TIMEOUT",
    "JITCOMMIT_API_KEY",
    "JITCOMMIT_API_KEY_ENV",
    "JITCOMMIT_BUDGET_TOKENS",
    "JITCOMMIT_ALLOW_REMOTE",
    "PRE_COMMIT_COMMIT_MSG_SOURCE",
    "PRE_COMMIT_COMMIT_OBJECT_NAME",
];

/// A temporary sandbox: a private HOME and a place for repositories.
pub struct Sandbox {
    dir: tempfile::TempDir,
}

impl Default for Sandbox {
    fn default() -> Self {
        Self::new()
    }
}

impl Sandbox {
    /// A new empty sandbox.
    pub fn new() -> Self {
        let dir = tempfile::Builder::new()
            .prefix("jitcommit-test-")
            .tempdir()
            .unwrap();
        std::fs::create_dir_all(dir.path().join("home")).unwrap();
        Sandbox { dir }
    }

    /// The sandbox's root directory.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// The private HOME.
    pub fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    /// A hermetic command for `program` (git, a built binary, `sh`) run in `cwd`.
    pub fn cmd(&self, program: impl AsRef<OsStr>, cwd: &Path) -> Command {
        let mut c = Command::new(program);
        c.current_dir(cwd);
        hermetic(&mut c, &self.home());
        c
    }

    /// A hermetic `git` command run in `cwd`.
    pub fn git_cmd(&self, cwd: &Path) -> Command {
        self.cmd("git", cwd)
    }

    /// Runs git and returns its stdout; panics with git's stderr on failure.
    pub fn git(&self, cwd: &Path, args: &[&str]) -> String {
        let out = self
            .git_cmd(cwd)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_ok(&out, &format!("git {}", args.join(" ")));
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// A side branch `branch` off `base` whose one commit (`subject`) writes `content`
    /// to `file`, merged back into the current branch with `--no-ff` (`merge the side`).
    pub fn merge_side(
        &self,
        repo: &Path,
        branch: &str,
        base: &str,
        (file, content): (&str, &str),
        subject: &str,
    ) {
        self.git(repo, &["checkout", "-qb", branch, base]);
        let path = repo.join(file);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).unwrap();
        }
        std::fs::write(path, content).unwrap();
        self.git(repo, &["add", "-A"]);
        self.git(repo, &["commit", "-qm", subject]);
        self.git(repo, &["checkout", "-q", "-"]);
        self.git(
            repo,
            &["merge", "-q", "--no-ff", "-m", "merge the side", branch],
        );
    }

    /// `git commit-tree <tree>` in `repo` with `parents` and message `msg`, authored and
    /// committed at `time` seconds after 1,700,000,000 (a time may go backwards from
    /// parent to child, as skewed clocks make it); returns the new commit's id.
    pub fn commit_tree_at(
        &self,
        repo: &Path,
        tree: &str,
        msg: &str,
        time: i64,
        parents: &[&str],
    ) -> String {
        let mut c = self.git_cmd(repo);
        c.args(["commit-tree", tree, "-m", msg]);
        for p in parents {
            c.args(["-p", p]);
        }
        let date = format!("@{} +0000", 1_700_000_000 + time);
        let out = c
            .env("GIT_COMMITTER_DATE", &date)
            .env("GIT_AUTHOR_DATE", &date)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_ok(&out, "git commit-tree");
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    }

    /// `git init` of a new repository `name` inside the sandbox (branch `main`).
    pub fn init(&self, name: &str) -> PathBuf {
        let p = self.dir.path().join(name);
        std::fs::create_dir_all(&p).unwrap();
        self.git(&p, &["init", "-q", "-b", "main", "."]);
        p
    }

    /// `git init --bare` of a new repository `name` inside the sandbox.
    pub fn init_bare(&self, name: &str) -> PathBuf {
        let p = self.dir.path().join(name);
        std::fs::create_dir_all(&p).unwrap();
        self.git(&p, &["init", "-q", "--bare", "-b", "main", "."]);
        p
    }
}

/// Makes `c` hermetic: scrubbed `GIT_*`, no system or global config, `HOME` = `home`,
/// pinned identities and dates.
pub fn hermetic(c: &mut Command, home: &Path) {
    scrub_git_env(c);
    c.env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "A U Thor")
        .env("GIT_AUTHOR_EMAIL", "author@example.com")
        .env("GIT_COMMITTER_NAME", "C O Mitter")
        .env("GIT_COMMITTER_EMAIL", "committer@example.com")
        .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
        .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("LC_ALL", "C")
        .env("TZ", "UTC");
}

/// Removes from `c` the `GIT_*` variables that point git at another repository, index
/// or object store, or change what it does (a test started from a git hook inherits
/// them); the user's own configuration stays.
pub fn scrub_git_env(c: &mut Command) -> &mut Command {
    for v in SCRUBBED {
        c.env_remove(v);
    }
    c
}

/// Panics with the command's output unless it succeeded.
pub fn assert_ok(out: &Output, what: &str) {
    assert!(
        out.status.success(),
        "{what} failed ({}):\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Writes `content` to `root/rel`, creating parent directories.
pub fn write(root: &Path, rel: &str, content: impl AsRef<[u8]>) {
    let p = root.join(rel);
    if let Some(parent) = p.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(p, content).unwrap();
}

/// [`write`], unless a file stands where one of `rel`'s directories would, or a
/// directory where `rel` would: whether it wrote (random file trees that must stay
/// writable, as git's index tests generate them).
pub fn write_ok(root: &Path, rel: &str, content: impl AsRef<[u8]>) -> bool {
    let mut at = root.to_owned();
    let dirs = rel.rsplit_once('/').map_or("", |(d, _)| d);
    for part in dirs.split('/').filter(|p| !p.is_empty()) {
        at.push(part);
        if at.is_file() {
            return false;
        }
    }
    if root.join(rel).is_dir() {
        return false;
    }
    write(root, rel, content);
    true
}

/// Installs the client shims from the source tree's hooks/ into `hooks_dir`, with
/// `bin_dir` (where the binaries under test are) recorded in them, as install.sh does.
pub fn install_client_shims(hooks_dir: &Path, bin_dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../hooks");
    std::fs::create_dir_all(hooks_dir).unwrap();
    for hook in ["prepare-commit-msg", "commit-msg"] {
        let src = std::fs::read_to_string(source.join(hook)).unwrap();
        let text = src.replace(
            "JITCOMMIT_BIN_DIR=''",
            &format!("JITCOMMIT_BIN_DIR='{}'", bin_dir.display()),
        );
        assert_ne!(text, src, "the shim records its binary directory");
        let p = hooks_dir.join(hook);
        std::fs::write(&p, text).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

/// The path of a binary of this workspace built by cargo for integration tests
/// (`CARGO_BIN_EXE_<name>` is only set for the package's own tests; this finds it next
/// to the test executable otherwise).
pub fn cargo_bin(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().unwrap();
    let dir = if dir.ends_with("deps") {
        dir.parent().unwrap()
    } else {
        dir
    };
    dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX))
}

/// Runs `cmd` with `input` on its stdin (written from a thread, so a command that answers
/// while it reads cannot block on a full pipe) and returns its output. A command that
/// exits before reading everything is fine.
pub fn run_with_input(mut cmd: Command, input: &[u8]) -> Output {
    use std::io::Write;
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    let _ = writer.join();
    out
}

/// xorshift64*: a small fixed-seed generator, so generated repositories and histories
/// are the same on every machine and every run.
#[derive(Debug, Clone)]
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// One of `xs` (not empty).
    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

/// xorshift (13, 7, 17): the generator the draft benchmark and the token tests were
/// written with. Kept beside [`Rng`] so their generated changes, and the figures
/// measured on them, stay the same.
#[derive(Debug, Clone)]
pub struct XorShift(pub u64);

impl XorShift {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// One of `xs` (not empty).
    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[(self.next_u64() % xs.len() as u64) as usize]
    }
}
