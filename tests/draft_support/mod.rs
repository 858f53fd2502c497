//! Shared set-up for the draft hook's integration tests: a hermetic repository with
//! `jitcommit-draft` installed as `.git/hooks/prepare-commit-msg`, and an editor stub
//! that records what the editor was shown.
#![allow(dead_code, clippy::unwrap_used, missing_docs)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub use jitcommit_testkit::{Sandbox, assert_ok, cargo_bin, write};

/// A repository with the hook installed and one commit.
pub struct Repo {
    pub sb: Sandbox,
    pub dir: PathBuf,
    pub editor: PathBuf,
}

/// The editor stub: copies the file it is given to `$SHOWN` (appending a numbered
/// copy), then, if `$EDIT_APPEND` is set, appends that text (a user typing).
const EDITOR: &str = r#"#!/bin/sh
n=0
while [ -e "$SHOWN.$n" ]; do n=$((n+1)); done
cp "$1" "$SHOWN.$n"
if [ -n "$EDIT_REPLACE" ]; then printf '%s\n' "$EDIT_REPLACE" > "$1"; fi
exit 0
"#;

impl Repo {
    /// A new repository `r` with README.md committed (hook not yet run for it).
    pub fn new() -> Repo {
        let sb = Sandbox::new();
        let dir = sb.init("r");
        write(&dir, "README.md", "# r\n");
        sb.git(&dir, &["add", "README.md"]);
        sb.git(
            &dir,
            &[
                "commit",
                "-q",
                "--no-verify",
                "-m",
                "docs: start",
                "-m",
                "- Add: README.md — a start",
            ],
        );
        let editor = sb.path().join("editor.sh");
        std::fs::write(&editor, EDITOR).unwrap();
        chmod_x(&editor);
        let r = Repo { sb, dir, editor };
        r.install_hook();
        r
    }

    pub fn install_hook(&self) {
        let hooks = self.dir.join(".git/hooks");
        std::fs::create_dir_all(&hooks).unwrap();
        let hook = hooks.join("prepare-commit-msg");
        std::fs::write(
            &hook,
            format!(
                "#!/bin/sh\nexec '{}' \"$@\"\n",
                cargo_bin("jitcommit-draft").display()
            ),
        )
        .unwrap();
        chmod_x(&hook);
    }

    pub fn git(&self, args: &[&str]) -> String {
        self.sb.git(&self.dir, args)
    }

    /// A git command with the editor stub and a 2 s deadline.
    pub fn git_cmd(&self) -> Command {
        let mut c = self.sb.git_cmd(&self.dir);
        c.env("GIT_EDITOR", &self.editor)
            .env("SHOWN", self.shown_base())
            .env("JITCOMMIT_TIMEOUT", "2s")
            .env("JITCOMMIT_DEBUG", "1")
            .stdin(Stdio::null());
        c
    }

    pub fn run(&self, args: &[&str]) -> Output {
        self.git_cmd().args(args).output().unwrap()
    }

    /// Runs git, asserting success, and returns its stderr (where the hook speaks).
    pub fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert_ok(&out, &format!("git {}", args.join(" ")));
        String::from_utf8_lossy(&out.stderr).into_owned()
    }

    fn shown_base(&self) -> PathBuf {
        self.sb.path().join("shown")
    }

    /// What the editor was shown, in order.
    pub fn shown(&self) -> Vec<String> {
        (0..)
            .map(|n| self.shown_base().with_extension(n.to_string()))
            .take_while(|p| p.exists())
            .map(|p| std::fs::read_to_string(p).unwrap())
            .collect()
    }

    /// The last commit's full message.
    pub fn last_message(&self) -> String {
        self.git(&["log", "-1", "--format=%B"])
    }

    /// The binary run directly in the repository.
    pub fn draft_cmd(&self) -> Command {
        let mut c = self.sb.cmd(cargo_bin("jitcommit-draft"), &self.dir);
        c.stdin(Stdio::null());
        c
    }

    /// `jitcommit-draft --print-context ARGS` run directly in the repository: its
    /// standard output, after asserting that it succeeded.
    pub fn print_context(&self, args: &[&str]) -> String {
        let out = self
            .draft_cmd()
            .arg("--print-context")
            .args(args)
            .output()
            .unwrap();
        assert_ok(&out, "--print-context");
        String::from_utf8(out.stdout).unwrap()
    }

    /// Points the repository at a model server.
    pub fn use_model(&self, url: &str, provider: &str) {
        self.git(&["config", "jitcommit.model", "test-model"]);
        self.git(&["config", "jitcommit.url", url]);
        self.git(&["config", "jitcommit.provider", provider]);
    }
}

pub fn chmod_x(p: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

/// Which draft the hook says it used (`JITCOMMIT_DEBUG`).
pub fn used(stderr: &str) -> Option<&str> {
    stderr
        .lines()
        .find_map(|l| l.strip_prefix("jitcommit-draft: used the "))
        .and_then(|l| l.strip_suffix(" draft"))
}
