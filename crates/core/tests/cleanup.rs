//! `gitenv::cleanup` against the real git: each tricky message goes through
//! `git commit` (an editor stub types it above git's own comment lines, a commit-msg
//! hook saves the file as the hook sees it), and the stored message must equal our
//! cleanup of the saved file.
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;

use jitcommit_core::gitenv::{
    self, CleanupMode, CommentPrefix, MessageCleanup, cleanup, cleanup_whitespace, cut_at_scissors,
    stripspace,
};
use jitcommit_testkit::{Sandbox, write};
use proptest::prelude::*;

/// Messages that exercise every branch of git's cleanup.
const INPUTS: &[&str] = &[
    "feat: plain\n\n- Add: a.rs — why\n",
    "feat: crlf\r\n\r\n- Add: a.rs — why\r\n",
    "subject with trailing  \t\n\nbody   \n",
    "\n\n\nsubject\n\n\n\nbody\n\n\n",
    "subject\n# a comment\nbody\n\n# another\n\nmore\n",
    "subject\n#\nbody\n",
    "subject\n\n  # indented is kept\n\t#so is this\n",
    "#include <stdio.h>\nsubject after include\n",
    "subject\n# ------------------------ >8 ------------------------\ntext after scissors\n",
    "subject\n; ------------------------ >8 ------------------------\nafter semicolon scissors\n",
    "subject\n// ------------------------ >8 ------------------------\nafter slash scissors\n",
    "subject\n; a semicolon line\n// a slash line\n",
    "subject\r\n# ------------------------ >8 ------------------------\r\nafter crlf scissors\r\n",
    "subject\u{a0}\n\nnbsp stays\n",
    "subject\x0c\n\nform feed\n",
    "# only a comment\n",
    "   \n\t\n",
];

struct Repo {
    sb: Sandbox,
    dir: PathBuf,
    n: usize,
}

impl Repo {
    fn new() -> Repo {
        let sb = Sandbox::new();
        let dir = sb.init("r");
        write(&dir, "f", "0\n");
        sb.git(&dir, &["add", "f"]);
        sb.git(&dir, &["commit", "-q", "-m", "start"]);
        let saved = sb.path().join("saved");
        let hook = format!("#!/bin/sh\ncp \"$1\" '{}'\n", saved.display());
        write(&dir, ".git/hooks/commit-msg", hook);
        let editor = format!(
            "#!/bin/sh\ncat '{}' \"$1\" > \"$1.tmp\" && mv \"$1.tmp\" \"$1\"\n",
            sb.path().join("input").display()
        );
        write(sb.path(), "editor", editor);
        for f in [dir.join(".git/hooks/commit-msg"), sb.path().join("editor")] {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(f, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        Repo { sb, dir, n: 0 }
    }

    /// Commits with `input` typed into the editor (or given with `-F` when `args`
    /// has it); returns what the commit-msg hook saw and what git stored (`None`
    /// when git aborted on an empty message).
    fn commit(&mut self, config: &[&str], args: &[&str], input: &str) -> (String, Option<String>) {
        self.n += 1;
        write(&self.dir, "f", format!("{}\n", self.n));
        self.sb.git(&self.dir, &["add", "f"]);
        write(self.sb.path(), "input", input);
        let saved = self.sb.path().join("saved");
        let _ = std::fs::remove_file(&saved);
        let before = self.head();
        let mut cmd = self.sb.git_cmd(&self.dir);
        for c in config {
            cmd.args(["-c", c]);
        }
        let out = cmd
            .args(["commit", "-q"])
            .args(args)
            .env("GIT_EDITOR", self.sb.path().join("editor"))
            .output()
            .unwrap();
        let seen = std::fs::read_to_string(&saved).unwrap_or_default();
        if !out.status.success() {
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains("empty commit message"), "git failed: {err}");
            assert_eq!(self.head(), before);
            return (seen, None);
        }
        let raw = self.sb.git(&self.dir, &["cat-file", "commit", "HEAD"]);
        let (_, message) = raw.split_once("\n\n").unwrap();
        (seen, Some(message.to_owned()))
    }

    fn head(&self) -> String {
        self.sb.git(&self.dir, &["rev-parse", "HEAD"])
    }

    fn file(&self, name: &str, text: &str) -> String {
        write(self.sb.path(), name, text);
        self.sb.path().join(name).display().to_string()
    }
}

fn stored_or_empty(stored: Option<String>) -> String {
    stored.unwrap_or_default()
}

fn check(repo: &mut Repo, config: &[&str], args: &[&str], ours: &dyn Fn(&str) -> String) {
    for input in INPUTS {
        let (seen, stored) = repo.commit(config, args, input);
        // The editor typed the input above git's own lines.
        assert!(seen.starts_with(input), "{seen:?}");
        let want = stored_or_empty(stored);
        assert_eq!(
            ours(&seen),
            want,
            "config {config:?} args {args:?} input {input:?}\nhook saw {seen:?}"
        );
    }
}

fn fixed(p: &str) -> CommentPrefix {
    CommentPrefix::Fixed(p.to_owned())
}

#[test]
fn editor_default_cleanup_matches_git() {
    let mut repo = Repo::new();
    let cases: &[(&[&str], CommentPrefix)] = &[
        (&[], fixed("#")),
        (&["core.commentChar=;"], fixed(";")),
        (&["core.commentString=//"], fixed("//")),
        (&["core.commentChar=auto"], CommentPrefix::Auto),
        // Both set: git takes the last one it reads.
        (&["core.commentString=//", "core.commentChar=;"], fixed(";")),
    ];
    for (config, prefix) in cases {
        // `commit -v`: git cuts at the scissors line, as `cleanup` always does.
        check(&mut repo, config, &["-v"], &|seen| cleanup(seen, prefix));
        // Without -v git does not cut at a scissors line the user typed; `cleanup`
        // cannot see -v and cuts (docs/design.md §3). Everywhere else the two agree.
        for input in INPUTS {
            let (seen, stored) = repo.commit(config, &[], input);
            let stored = stored_or_empty(stored);
            let p = prefix.resolve(&seen).unwrap();
            assert_eq!(stripspace(&seen, Some(p)), stored, "{config:?} {input:?}");
            if cut_at_scissors(seen.as_bytes(), p) == seen.as_bytes() {
                assert_eq!(cleanup(&seen, prefix), stored, "{config:?} {input:?}");
            } else {
                assert_eq!(
                    cleanup(&seen, prefix).as_bytes(),
                    gitenv::stripspace_bytes(cut_at_scissors(seen.as_bytes(), p), Some(p))
                );
            }
        }
    }
}

#[test]
fn auto_picks_another_char_when_the_message_starts_with_hash() {
    // `-F` then `-e`: git prepares a message whose lines start with '#', so `auto`
    // picks ';' for its comment lines; the editor then adds the tricky input on top.
    let mut repo = Repo::new();
    let init = repo.file("init", "#12 is the issue\n");
    for v in [&[][..], &["-v"][..]] {
        let mut args = vec!["-e", "-F", init.as_str()];
        args.extend_from_slice(v);
        for input in INPUTS {
            let (seen, stored) = repo.commit(&["core.commentChar=auto"], &args, input);
            assert_eq!(CommentPrefix::Auto.resolve(&seen), Some(";"), "{seen:?}");
            let stored = stored_or_empty(stored);
            if v.is_empty() {
                // No -v: git strips ';' comments but does not cut (see above).
                assert_eq!(stripspace(&seen, Some(";")), stored, "{seen:?}");
            }
            if !v.is_empty() || cut_at_scissors(seen.as_bytes(), ";") == seen.as_bytes() {
                assert_eq!(cleanup(&seen, &CommentPrefix::Auto), stored, "{seen:?}");
            }
        }
    }
}

#[test]
fn other_cleanup_modes_match_git() {
    let mut repo = Repo::new();
    // `--cleanup=scissors` with an editor: cut, then whitespace only.
    for (config, prefix) in [(&[][..], "#"), (&["core.commentString=//"][..], "//")] {
        let how = MessageCleanup {
            mode: CleanupMode::Scissors,
            verbose: false,
            prefix: CommentPrefix::Fixed(prefix.to_owned()),
        };
        check(&mut repo, config, &["--cleanup=scissors"], &|seen| {
            String::from_utf8_lossy(&how.apply(seen.as_bytes())).into_owned()
        });
    }
    check(&mut repo, &[], &["--cleanup=whitespace"], &|seen| {
        cleanup_whitespace(seen)
    });
    // `-F file --cleanup=strip` (no editor, no -v): comments dropped, no cut. git
    // already strips whitespace before the commit-msg hook sees the file.
    for (config, prefix) in [(&[][..], "#"), (&["core.commentChar=;"][..], ";")] {
        for input in INPUTS {
            let file = repo.file("msg", input);
            let (seen, stored) = repo.commit(config, &["-F", &file, "--cleanup=strip"], input);
            assert_eq!(seen, cleanup_whitespace(input));
            assert_eq!(
                stripspace(&seen, Some(prefix)),
                stored_or_empty(stored),
                "{input:?}"
            );
        }
        // With -v, git cuts at the scissors line even for -F.
        for input in INPUTS {
            let file = repo.file("msg", input);
            let (seen, stored) =
                repo.commit(config, &["-v", "-F", &file, "--cleanup=strip"], input);
            assert_eq!(
                cleanup(&seen, &fixed(prefix)),
                stored_or_empty(stored),
                "{input:?}"
            );
        }
    }
}

#[test]
fn the_scissors_line_is_gits() {
    // `commit -v` writes the scissors line into the file the hook sees.
    let mut repo = Repo::new();
    for (config, prefix) in [(&[][..], "#"), (&["core.commentString=//"][..], "//")] {
        let (seen, _) = repo.commit(config, &["-v"], "subject\n");
        assert!(
            seen.lines().any(|l| l == gitenv::scissors_line(prefix)),
            "{seen}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn cleanup_is_idempotent_and_total(
        text in "([a-z#;/ \t\r\u{a0}]{0,6}(\n|\r\n)?|# -{24} >8 -{24}\n){0,12}",
        prefix in prop_oneof![
            Just(CommentPrefix::Fixed("#".into())),
            Just(CommentPrefix::Fixed("//".into())),
            Just(CommentPrefix::Auto),
        ],
    ) {
        let once = cleanup(&text, &prefix);
        prop_assert_eq!(cleanup(&once, &prefix), once.clone());
        prop_assert!(once.is_empty() || once.ends_with('\n'));
        prop_assert!(!once.starts_with('\n') && !once.contains("\n\n\n"));
        let ws = cleanup_whitespace(&text);
        prop_assert_eq!(cleanup_whitespace(&ws), ws);
    }

    #[test]
    fn cleanup_never_panics(text in any::<String>(), p in any::<String>()) {
        let _ = cleanup(&text, &CommentPrefix::Fixed(p));
        let _ = cleanup(&text, &CommentPrefix::Auto);
        let _ = gitenv::parse_config_parameters(&text);
    }
}
