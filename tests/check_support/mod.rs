//! Shared helpers for the `jitcommit-check` integration tests: the binary, hook
//! installation, an editor stub, client repositories and a server to push to, and
//! snapshot filters for temporary paths.
#![allow(dead_code, clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use jitcommit_testkit::{Sandbox, write};

/// The binary under test.
pub fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_jitcommit-check"))
}

/// A hermetic command running the binary in `cwd`.
pub fn check(sb: &Sandbox, cwd: &Path) -> Command {
    sb.cmd(bin(), cwd)
}

#[allow(unused_imports)] // not every test file that includes this module uses it
pub use jitcommit_testkit::run_with_input as run_with_stdin;

/// Runs `cmd` with stdin closed.
pub fn run(mut cmd: Command) -> Output {
    cmd.stdin(Stdio::null()).output().unwrap()
}

/// stdout as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// stderr as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The exit code (panics on a signal, which is itself a failure).
pub fn code(o: &Output) -> i32 {
    o.status
        .code()
        .unwrap_or_else(|| panic!("killed by a signal: {o:?}"))
}

/// Installs `hook` in `hooks_dir` as a POSIX sh script that execs the binary with `args`
/// followed by the hook's own arguments.
pub fn install_hook(hooks_dir: &Path, hook: &str, args: &str) {
    std::fs::create_dir_all(hooks_dir).unwrap();
    let path = hooks_dir.join(hook);
    let script = format!("#!/bin/sh\nexec '{}' {args} \"$@\"\n", bin().display());
    std::fs::write(&path, script).unwrap();
    make_executable(&path);
}

/// chmod +x.
pub fn make_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let mut perm = std::fs::metadata(path).unwrap().permissions();
    perm.set_mode(0o755);
    std::fs::set_permissions(path, perm).unwrap();
}

/// An editor stub: writes the text in `message_file` above whatever git put in the file
/// (its comments, the `-v` diff), as a user typing at the top would.
pub fn editor(sb: &Sandbox, message: &str) -> String {
    let n = std::fs::read_dir(sb.path()).unwrap().count();
    let msg = sb.path().join(format!("editor-msg-{n}"));
    std::fs::write(&msg, message).unwrap();
    let script = sb.path().join(format!("editor-{n}.sh"));
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\ncat '{}' \"$1\" > \"$1.new\" && mv \"$1.new\" \"$1\"\n",
            msg.display()
        ),
    )
    .unwrap();
    make_executable(&script);
    script.display().to_string()
}

/// A repository `name` with a first commit (made with `--no-verify`) holding `a.txt` and
/// `src/lib.rs`, and the commit-msg hook installed.
pub fn client(sb: &Sandbox, name: &str) -> PathBuf {
    let r = sb.init(name);
    write(&r, "a.txt", "a\n");
    write(&r, "src/lib.rs", "fn a() {}\n");
    sb.git(&r, &["add", "."]);
    sb.git(&r, &["commit", "-q", "--no-verify", "-m", "chore: start"]);
    install_hook(&r.join(".git/hooks"), "commit-msg", "");
    r
}

/// A work tree made with `git init <init_args>` (an object or ref format, or nothing),
/// holding `convention` as `.commit-convention.toml` and `files` in a first commit (made
/// with `--no-verify`), with the commit-msg hook installed.
pub fn convention_client(
    sb: &Sandbox,
    name: &str,
    init_args: &[&str],
    convention: &str,
    files: &[(&str, &str)],
) -> PathBuf {
    let r = sb.path().join(name);
    std::fs::create_dir_all(&r).unwrap();
    let mut init = vec!["init", "-q", "-b", "main"];
    init.extend_from_slice(init_args);
    init.push(".");
    sb.git(&r, &init);
    write(&r, ".commit-convention.toml", convention);
    let mut paths = vec![".commit-convention.toml"];
    for (file, content) in files {
        write(&r, file, content);
        paths.push(file);
    }
    sb.git(&r, &["add", "."]);
    sb.git(
        &r,
        &[
            "commit",
            "-q",
            "--no-verify",
            "-m",
            &good("feat: start", &paths),
        ],
    );
    install_hook(&r.join(".git/hooks"), "commit-msg", "");
    r
}

/// A bare repository `name` made with `git init --bare <init_args>`.
pub fn bare_with(sb: &Sandbox, name: &str, init_args: &[&str]) -> PathBuf {
    let bare = sb.path().join(name);
    std::fs::create_dir_all(&bare).unwrap();
    let mut init = vec!["init", "-q", "--bare", "-b", "main"];
    init.extend_from_slice(init_args);
    init.push(".");
    sb.git(&bare, &init);
    bare
}

/// `git commit -q -m msg` of what is staged, through the hooks, which may reject it.
pub fn try_commit(sb: &Sandbox, r: &Path, msg: &str) -> Output {
    git_try(sb, r, &["commit", "-q", "-m", msg], &[])
}

/// Writes `file`, stages it and commits it with `msg` through the hooks (whose output
/// git prints on stderr).
pub fn try_commit_file(sb: &Sandbox, r: &Path, file: &str, msg: &str) -> Output {
    write(r, file, "x\n");
    sb.git(r, &["add", file]);
    try_commit(sb, r, msg)
}

/// A bare server seeded with one good commit on main holding a convention, a client
/// clone of it, and a server hook.
pub struct Server {
    /// The sandbox holding all three repositories.
    pub sb: Sandbox,
    /// The bare server repository.
    pub bare: PathBuf,
    /// The client clone that pushes.
    pub client: PathBuf,
}

impl Server {
    /// The server with `convention` on main and `hook` installed with `args`.
    pub fn with(convention: &str, hook: &str, args: &str) -> Self {
        let sb = Sandbox::new();
        let bare = sb.init_bare("server.git");
        let seed = sb.init("seed");
        write(&seed, ".commit-convention.toml", convention);
        write(&seed, "a.txt", "a\n");
        sb.git(&seed, &["add", "."]);
        sb.git(
            &seed,
            &[
                "commit",
                "-q",
                "-m",
                &good("feat: start", &[".commit-convention.toml", "a.txt"]),
            ],
        );
        sb.git(&seed, &["push", "-q", bare.to_str().unwrap(), "main"]);
        install_hook(&bare.join("hooks"), hook, args);
        let url = bare.to_str().unwrap().to_string();
        sb.git(sb.path(), &["clone", "-q", &url, "client"]);
        let client = sb.path().join("client");
        Server { sb, bare, client }
    }

    /// Writes and stages `file` in the client and commits it with `msg` (no client
    /// hook); returns the new commit's id.
    pub fn commit(&self, file: &str, content: &str, msg: &str) -> String {
        write(&self.client, file, content);
        self.sb.git(&self.client, &["add", file]);
        self.sb.git(&self.client, &["commit", "-q", "-m", msg]);
        self.sb
            .git(&self.client, &["rev-parse", "HEAD"])
            .trim()
            .to_string()
    }

    /// `git push origin <args>` from the client.
    pub fn push(&self, args: &[&str]) -> Output {
        let mut a = vec!["push", "origin"];
        a.extend_from_slice(args);
        git_try(&self.sb, &self.client, &a, &[])
    }

    /// The server's value of `rev`, `None` when it does not resolve.
    pub fn server_rev(&self, rev: &str) -> Option<String> {
        let o = git_try(
            &self.sb,
            &self.bare,
            &["rev-parse", "--verify", "-q", rev],
            &[],
        );
        o.status.success().then(|| stdout(&o).trim().to_string())
    }

    /// The `remote:` lines of a push, without the prefix.
    pub fn remote(o: &Output) -> String {
        stderr(o)
            .lines()
            .filter_map(|l| l.strip_prefix("remote: "))
            .map(|l| format!("{}\n", l.trim_end()))
            .collect()
    }
}

/// `git <args>` without asserting success, for commits the hook may reject.
pub fn git_try(sb: &Sandbox, cwd: &Path, args: &[&str], envs: &[(&str, &str)]) -> Output {
    let mut c = sb.git_cmd(cwd);
    c.args(args).stdin(Stdio::null());
    for (k, v) in envs {
        c.env(k, v);
    }
    c.output().unwrap()
}

/// The subject of HEAD's commit (`git log -1 --format=%B`).
pub fn head_message(sb: &Sandbox, repo: &Path) -> String {
    sb.git(repo, &["log", "-1", "--format=%B"])
}

/// Number of commits reachable from HEAD.
pub fn count(sb: &Sandbox, repo: &Path, rev: &str) -> usize {
    sb.git(repo, &["rev-list", "--count", rev])
        .trim()
        .parse()
        .unwrap()
}

/// insta settings that replace the sandbox's path with `[SANDBOX]`.
pub fn filters(sb: &Sandbox) -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    let root = sb.path().display().to_string();
    s.add_filter(&regex_escape(&root), "[SANDBOX]");
    if let Ok(canon) = sb.path().canonicalize() {
        s.add_filter(&regex_escape(&canon.display().to_string()), "[SANDBOX]");
    }
    s.set_prepend_module_to_snapshot(false);
    s
}

fn regex_escape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if "\\.+*?()|[]{}^$".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A good message whose bullets name `paths`.
pub fn good(subject: &str, paths: &[&str]) -> String {
    let mut m = format!("{subject}\n\n");
    for p in paths {
        m.push_str(&format!("- Update: {p} — keep the example honest\n"));
    }
    m
}
