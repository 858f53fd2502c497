//! The "should this run draft at all?" decision, made from argv, the environment and
//! git's marker files only — never from the repository's objects or config — so the
//! no-op path (every `-m`, amend, merge, rebase pick) costs about a millisecond.
//!
//! The facts behind each branch are in docs/git-hooks.md's prepare-commit-msg table.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

/// Where the message file's text came from, as git (or the pre-commit framework)
/// tells the hook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A plain `git commit` (or `--no-edit`): no second argument.
    Plain,
    /// `-t` / `commit.template`.
    Template,
    /// `-m`, `-F`, `--fixup`, cherry-pick, revert, rebase picks.
    Message,
    /// `-c`/`-C`, `--amend`, reword: the object name follows.
    Commit(String),
    /// `git merge`, or a commit that concludes a merge.
    Merge,
    /// After `merge --squash`, and `--squash=<c>` (which git reports as `message ""`).
    Squash,
    /// A source this version does not know: treated like a user-written message.
    Other(String),
}

impl Source {
    fn parse(s: &str, object: Option<&str>) -> Source {
        match s {
            "" => Source::Plain,
            "template" => Source::Template,
            "message" => Source::Message,
            "commit" => Source::Commit(object.unwrap_or_default().to_owned()),
            "merge" => Source::Merge,
            "squash" => Source::Squash,
            other => Source::Other(other.to_owned()),
        }
    }
}

/// The hook's invocation after positional arguments and the environment are read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invocation {
    /// The message file.
    pub file: PathBuf,
    /// Where its text came from.
    pub source: Source,
}

/// What the hook does on this invocation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Draft into an empty message (plain commit).
    Draft,
    /// Draft above the template text.
    DraftAboveTemplate,
    /// The user wrote a message with `-m`/`-F`; draft with it as the intent if
    /// `jitcommit.onMessage = intent` says so (which needs the config: decided later).
    MaybeIntent,
    /// Leave the file alone, for the reason given (shown with `JITCOMMIT_DEBUG`).
    Skip(&'static str),
}

/// Turns the positional arguments and the pre-commit framework's variables into an
/// [`Invocation`]. `None` when there is no message file argument.
///
/// git passes `file [source [object]]`; the pre-commit framework passes the file as the
/// only positional argument (after the manifest's flags) and the source and object in
/// `PRE_COMMIT_COMMIT_MSG_SOURCE` / `PRE_COMMIT_COMMIT_OBJECT_NAME`. The framework's call
/// is told by that shape alone: `PRE_COMMIT=1` is exported to everything a hook runs (a
/// hook that commits passes it on to git and to this hook), so it proves nothing, and a
/// source variable inherited the same way comes with git's own two or three arguments.
/// With one argument and no source variable, both readings mean a plain commit.
pub fn invocation(
    positional: &[OsString],
    env: &dyn Fn(&str) -> Option<OsString>,
) -> Option<Invocation> {
    let var = |k: &str| env(k).map(|v| v.to_string_lossy().into_owned());
    let file = positional.first()?;
    if positional.len() == 1
        && let Some(pre_source) = var("PRE_COMMIT_COMMIT_MSG_SOURCE")
    {
        let object = var("PRE_COMMIT_COMMIT_OBJECT_NAME");
        return Some(Invocation {
            file: PathBuf::from(file),
            source: Source::parse(&pre_source, object.as_deref()),
        });
    }
    let source = match positional.get(1) {
        None => Source::Plain,
        // `--squash=<c>` arrives as `message ""`: still a message the user asked for.
        Some(s) => Source::parse(
            &s.to_string_lossy(),
            positional.get(2).and_then(|o| o.to_str()),
        ),
    };
    Some(Invocation {
        file: PathBuf::from(file),
        source,
    })
}

/// The git dir the markers live in: `GIT_DIR` when git set it (linked worktrees,
/// `--git-dir`), else the message file's directory (git always writes
/// `COMMIT_EDITMSG` / `MERGE_MSG` in the per-worktree git dir).
pub fn marker_dir(file: &Path, git_dir_env: Option<&OsStr>) -> PathBuf {
    match git_dir_env {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => match file.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        },
    }
}

/// An operation in progress in `git_dir`, by its marker file, if any.
pub fn in_progress(git_dir: &Path) -> Option<&'static str> {
    const MARKERS: &[(&str, &str)] = &[
        ("rebase-merge", "a rebase is in progress"),
        ("rebase-apply", "a rebase is in progress"),
        ("CHERRY_PICK_HEAD", "a cherry-pick is in progress"),
        ("REVERT_HEAD", "a revert is in progress"),
        ("MERGE_HEAD", "a merge is in progress"),
    ];
    MARKERS
        .iter()
        .find(|(name, _)| git_dir.join(name).symlink_metadata().is_ok())
        .map(|(_, why)| *why)
}

/// The whole pre-repository decision.
pub fn decide(inv: &Invocation, env: &dyn Fn(&str) -> Option<OsString>) -> Decision {
    let skip = env("JITCOMMIT_SKIP").map(|v| v.to_string_lossy().trim().to_owned());
    if skip.is_some_and(|v| !v.is_empty() && v != "0" && !v.eq_ignore_ascii_case("false")) {
        return Decision::Skip("JITCOMMIT_SKIP is set");
    }
    let base = match &inv.source {
        Source::Plain => Decision::Draft,
        Source::Template => Decision::DraftAboveTemplate,
        Source::Message => Decision::MaybeIntent,
        Source::Commit(_) => return Decision::Skip("the message comes from an existing commit"),
        Source::Merge => return Decision::Skip("the message is a merge's"),
        Source::Squash => return Decision::Skip("the message is a squash's"),
        Source::Other(_) => return Decision::Skip("unknown message source"),
    };
    if env("GIT_REFLOG_ACTION").is_some_and(|a| a.to_string_lossy().starts_with("rebase")) {
        return Decision::Skip("a rebase is in progress");
    }
    let git_dir = marker_dir(&inv.file, env("GIT_DIR").as_deref());
    if let Some(why) = in_progress(&git_dir) {
        return Decision::Skip(why);
    }
    base
}

/// Whether any git config this run can see might set `jitcommit.onMessage`: a cheap
/// text scan of the config files and `git -c` values, so a `-m` commit without the
/// setting stays on the no-op path. False positives only cost the full config read
/// that follows; an `include` anywhere counts as "might".
pub fn may_ask_for_intent(git_dir: &Path, env: &dyn Fn(&str) -> Option<OsString>) -> bool {
    let hit = |text: &str| {
        let t = text.to_ascii_lowercase();
        t.contains("onmessage") || t.contains("include")
    };
    if let Some(p) = env("GIT_CONFIG_PARAMETERS")
        && hit(&p.to_string_lossy())
    {
        return true;
    }
    if env("GIT_CONFIG_COUNT").is_some() {
        return true;
    }
    let mut files: Vec<PathBuf> = vec![git_dir.join("config")];
    if let Ok(common) = std::fs::read_to_string(git_dir.join("commondir")) {
        files.push(git_dir.join(common.trim()).join("config"));
    }
    let home = env("HOME").map(PathBuf::from);
    match env("GIT_CONFIG_GLOBAL") {
        Some(g) => files.push(PathBuf::from(g)),
        None => {
            if let Some(h) = &home {
                files.push(h.join(".gitconfig"));
            }
            match (env("XDG_CONFIG_HOME"), &home) {
                (Some(x), _) if !x.is_empty() => files.push(PathBuf::from(x).join("git/config")),
                (_, Some(h)) => files.push(h.join(".config/git/config")),
                _ => {}
            }
        }
    }
    if env("GIT_CONFIG_NOSYSTEM").is_none() {
        files.push(
            env("GIT_CONFIG_SYSTEM").map_or_else(|| PathBuf::from("/etc/gitconfig"), PathBuf::from),
        );
    }
    files
        .iter()
        .any(|f| std::fs::read(f).is_ok_and(|b| hit(&String::from_utf8_lossy(&b))))
}

/// A `-m` text that is not the user's own words about this change: git's fixup,
/// squash, amend, revert and merge messages (never treated as an intent).
pub fn is_generated_message(text: &str) -> bool {
    let first = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim_start();
    [
        "fixup! ",
        "squash! ",
        "amend! ",
        "Revert \"",
        "Merge ",
        "Reapply \"",
    ]
    .iter()
    .any(|p| first.starts_with(p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn os(v: &[&str]) -> Vec<OsString> {
        v.iter().map(OsString::from).collect()
    }

    fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<OsString> + use<> {
        let m: HashMap<String, OsString> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), OsString::from(v)))
            .collect();
        move |k| m.get(k).cloned()
    }

    #[test]
    fn git_argv_rows() {
        let none = env_of(&[]);
        let cases: &[(&[&str], Source)] = &[
            (&[".git/COMMIT_EDITMSG"], Source::Plain),
            (&[".git/COMMIT_EDITMSG", "message"], Source::Message),
            (&[".git/COMMIT_EDITMSG", "message", ""], Source::Message),
            (&[".git/COMMIT_EDITMSG", "template"], Source::Template),
            (
                &[".git/COMMIT_EDITMSG", "commit", "HEAD~1"],
                Source::Commit("HEAD~1".into()),
            ),
            (&[".git/MERGE_MSG", "merge"], Source::Merge),
            (&[".git/COMMIT_EDITMSG", "squash"], Source::Squash),
            (
                &[".git/COMMIT_EDITMSG", "bogus"],
                Source::Other("bogus".into()),
            ),
        ];
        for (argv, want) in cases {
            let inv = invocation(&os(argv), &none).expect("a file");
            assert_eq!(&inv.source, want, "{argv:?}");
            assert_eq!(inv.file, PathBuf::from(argv[0]));
        }
        assert_eq!(invocation(&[], &none), None);
    }

    #[test]
    fn pre_commit_framework_passes_source_in_env() {
        let env = env_of(&[
            ("PRE_COMMIT_COMMIT_MSG_SOURCE", "commit"),
            ("PRE_COMMIT_COMMIT_OBJECT_NAME", "HEAD"),
        ]);
        let inv = invocation(&os(&[".git/COMMIT_EDITMSG"]), &env).expect("a file");
        assert_eq!(inv.file, PathBuf::from(".git/COMMIT_EDITMSG"));
        assert_eq!(inv.source, Source::Commit("HEAD".into()));
        let env = env_of(&[("PRE_COMMIT", "1")]);
        let inv = invocation(&os(&[".git/COMMIT_EDITMSG"]), &env).expect("a file");
        assert_eq!(inv.source, Source::Plain);
    }

    #[test]
    fn variables_inherited_from_the_framework_do_not_override_git() {
        // A hook run by the framework commits: git calls this hook directly with its
        // own arguments, and the framework's variables are still in the environment.
        for env in [
            env_of(&[("PRE_COMMIT", "1")]),
            env_of(&[
                ("PRE_COMMIT", "1"),
                ("PRE_COMMIT_COMMIT_MSG_SOURCE", "commit"),
                ("PRE_COMMIT_COMMIT_OBJECT_NAME", "HEAD"),
            ]),
        ] {
            let inv = invocation(&os(&[".git/COMMIT_EDITMSG", "message"]), &env).expect("a file");
            assert_eq!(inv.file, PathBuf::from(".git/COMMIT_EDITMSG"));
            assert_eq!(inv.source, Source::Message);
            let inv =
                invocation(&os(&[".git/COMMIT_EDITMSG", "commit", "HEAD"]), &env).expect("a file");
            assert_eq!(inv.file, PathBuf::from(".git/COMMIT_EDITMSG"));
            assert_eq!(inv.source, Source::Commit("HEAD".into()));
        }
    }

    #[test]
    fn decisions_by_source() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("COMMIT_EDITMSG");
        let none = env_of(&[]);
        let d = |source: Source| {
            decide(
                &Invocation {
                    file: file.clone(),
                    source,
                },
                &none,
            )
        };
        assert_eq!(d(Source::Plain), Decision::Draft);
        assert_eq!(d(Source::Template), Decision::DraftAboveTemplate);
        assert_eq!(d(Source::Message), Decision::MaybeIntent);
        assert!(matches!(
            d(Source::Commit("HEAD".into())),
            Decision::Skip(_)
        ));
        assert!(matches!(d(Source::Merge), Decision::Skip(_)));
        assert!(matches!(d(Source::Squash), Decision::Skip(_)));
    }

    #[test]
    fn markers_and_env_turn_it_off() {
        let none = env_of(&[]);
        for marker in ["CHERRY_PICK_HEAD", "REVERT_HEAD", "MERGE_HEAD"] {
            let dir = tempfile::tempdir().expect("tempdir");
            std::fs::write(dir.path().join(marker), "x").expect("write");
            let inv = Invocation {
                file: dir.path().join("COMMIT_EDITMSG"),
                source: Source::Plain,
            };
            assert!(matches!(decide(&inv, &none), Decision::Skip(_)), "{marker}");
        }
        for marker in ["rebase-merge", "rebase-apply"] {
            let dir = tempfile::tempdir().expect("tempdir");
            std::fs::create_dir(dir.path().join(marker)).expect("mkdir");
            let inv = Invocation {
                file: dir.path().join("COMMIT_EDITMSG"),
                source: Source::Plain,
            };
            assert!(matches!(decide(&inv, &none), Decision::Skip(_)), "{marker}");
        }
        let dir = tempfile::tempdir().expect("tempdir");
        let inv = Invocation {
            file: dir.path().join("COMMIT_EDITMSG"),
            source: Source::Plain,
        };
        assert!(matches!(
            decide(&inv, &env_of(&[("GIT_REFLOG_ACTION", "rebase (pick)")])),
            Decision::Skip(_)
        ));
        assert!(matches!(
            decide(&inv, &env_of(&[("JITCOMMIT_SKIP", "1")])),
            Decision::Skip(_)
        ));
        assert_eq!(
            decide(&inv, &env_of(&[("JITCOMMIT_SKIP", "0")])),
            Decision::Draft
        );
        // GIT_DIR wins over the file's directory (linked worktrees).
        let gd = tempfile::tempdir().expect("tempdir");
        std::fs::write(gd.path().join("MERGE_HEAD"), "x").expect("write");
        let env = env_of(&[("GIT_DIR", gd.path().to_str().expect("utf-8"))]);
        assert!(matches!(decide(&inv, &env), Decision::Skip(_)));
    }

    #[test]
    fn intent_prefilter_reads_config_text() {
        let gd = tempfile::tempdir().expect("tempdir");
        let home = tempfile::tempdir().expect("tempdir");
        let h = home.path().to_str().expect("utf-8").to_owned();
        let env = env_of(&[("HOME", &h), ("GIT_CONFIG_NOSYSTEM", "1")]);
        std::fs::write(gd.path().join("config"), "[core]\n\tbare = false\n").expect("write");
        assert!(!may_ask_for_intent(gd.path(), &env));
        std::fs::write(
            home.path().join(".gitconfig"),
            "[jitcommit]\n\tonMessage = intent\n",
        )
        .expect("write");
        assert!(may_ask_for_intent(gd.path(), &env));
        let env = env_of(&[
            ("HOME", &h),
            ("GIT_CONFIG_NOSYSTEM", "1"),
            ("GIT_CONFIG_GLOBAL", "/dev/null"),
        ]);
        assert!(!may_ask_for_intent(gd.path(), &env));
        let env = env_of(&[
            ("GIT_CONFIG_NOSYSTEM", "1"),
            ("GIT_CONFIG_GLOBAL", "/dev/null"),
            ("GIT_CONFIG_PARAMETERS", "'jitcommit.onmessage'='intent'"),
        ]);
        assert!(may_ask_for_intent(gd.path(), &env));
    }

    #[test]
    fn generated_messages() {
        for m in [
            "fixup! feat: x",
            "squash! x",
            "amend! x",
            "Revert \"feat: x\"\n\nThis reverts",
            "Merge branch 'x'",
        ] {
            assert!(is_generated_message(m), "{m}");
        }
        assert!(!is_generated_message("users asked for JSON output"));
    }
}
