//! Which `git commit` ran this hook, read from the git process's own command line.
//!
//! git tells commit-msg nothing about the commit it is making: for `git commit --amend`
//! its arguments and `GIT_*` environment are those of a plain commit (docs/git-hooks.md). An
//! amend replaces HEAD, so its bullets must be traced against HEAD's first parent, not
//! HEAD; only the git process that runs the hook knows it is amending. On Linux its
//! argv is `/proc/<pid>/cmdline` of the nearest ancestor that is git: the hook's parent
//! under plain git, the grandparent under the pre-commit framework (which runs the hook
//! from its own Python process), and the `git commit --amend` that a rebase's `reword`
//! spawns. A shell alias (`alias.ca = !git commit --amend`) runs a real `git commit`,
//! which is nearer; a plain alias (`alias.ca = commit --amend`) is expanded here with the
//! repository's config, as git expands it.
//!
//! [`parse_commit_args`] is the pure part (tested on argv lists); [`git_commit_args`]
//! reads the process table. Where there is no process table to read, nothing is known
//! and callers keep the plain-commit behaviour.

/// What a `git commit` command line asked for, as far as the hooks care.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CommitArgs {
    /// `--amend` (the last of `--amend` / `--no-amend` wins, as in git).
    pub amend: bool,
    /// The message came from `-m`/`--message` (one or more).
    pub message: bool,
    /// The message came from `-F`/`--file`.
    pub file: bool,
    /// `-c`/`-C`/`--reuse-message`/`--reedit-message`.
    pub reuse: bool,
    /// An editor runs: git's `use_editor` after `-e`/`--edit`, `--no-edit`, and the
    /// options that imply no editor (`-m`, `-F`, `-C`, `--fixup=<commit>`).
    pub editor: bool,
    /// `--cleanup=<mode>`, as given.
    pub cleanup: Option<String>,
    /// `-v`/`--verbose` (`Some(true)`) or `--no-verbose` (`Some(false)`); `None`: as
    /// `commit.verbose` says.
    pub verbose: Option<bool>,
    /// Text from elsewhere besides `-m`: `--fixup`, `--squash`, `-t`/`--template`.
    pub other_source: bool,
}

impl CommitArgs {
    /// A plain `git commit -m …`: the message is the user's own words typed for this
    /// commit, and nothing else (`-F`, `--amend`, `-c`/`-C`, `--fixup`, `--squash`,
    /// `-t`) brings text. git gives the hook the same `message` source for all of them.
    pub fn plain_message(&self) -> bool {
        self.message && !self.file && !self.amend && !self.reuse && !self.other_source
    }
}

/// git's global options that take the next argument as their value.
const GLOBAL_WITH_VALUE: &[&str] = &[
    "-c",
    "-C",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "--config-env",
    "--super-prefix",
    "--attr-source",
    "--exec-path",
];

/// `git commit`'s long options that take a value (as `--opt=v` or `--opt v`).
const COMMIT_LONG_WITH_VALUE: &[&str] = &[
    "--message",
    "--squash",
    "--file",
    "--template",
    "--reuse-message",
    "--reedit-message",
    "--author",
    "--date",
    "--cleanup",
    "--fixup",
    "--trailer",
    "--pathspec-from-file",
];

/// `git commit`'s short options that take a value (attached, `-mtext`, or the next
/// argument).
const COMMIT_SHORT_WITH_VALUE: &[char] = &['m', 'F', 'c', 'C', 't'];

/// Parses a git command line (`argv[0]` included). Returns `None` unless it is a
/// `git commit` (directly, as `git-commit`, or through a non-shell alias that `alias`
/// expands: it gets the alias name and returns its value).
pub fn parse_commit_args(
    argv: &[String],
    alias: &dyn Fn(&str) -> Option<String>,
) -> Option<CommitArgs> {
    let (program, rest) = argv.split_first()?;
    let name = program.rsplit('/').next().unwrap_or(program);
    let name = name.strip_suffix(".exe").unwrap_or(name);
    let args: Vec<String> = match name {
        "git-commit" => rest.to_vec(),
        "git" => {
            let mut i = 0;
            while let Some(a) = rest.get(i) {
                if !a.starts_with('-') {
                    break;
                }
                i += if GLOBAL_WITH_VALUE.contains(&a.as_str()) {
                    2
                } else {
                    1
                };
            }
            let sub = rest.get(i)?;
            let tail = &rest[i + 1..];
            if sub == "commit" {
                tail.to_vec()
            } else {
                let value = alias(sub)?;
                let words = split_alias(&value)?;
                let (first, more) = words.split_first()?;
                if first != "commit" {
                    return None;
                }
                more.iter().cloned().chain(tail.iter().cloned()).collect()
            }
        }
        _ => return None,
    };
    Some(commit_options(&args))
}

/// Reads `git commit`'s options (everything after the subcommand).
fn commit_options(args: &[String]) -> CommitArgs {
    let mut out = CommitArgs::default();
    // `-e`/`--no-edit` as given (the last wins), and whether an option implies no editor.
    let mut edit: Option<bool> = None;
    let mut no_editor_by_source = false;
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        if a == "--" {
            break;
        }
        if let Some(long) = a.strip_prefix("--") {
            let (name, attached) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (long, None),
            };
            // git accepts any unambiguous prefix of a long option.
            let is = |full: &str, min: usize| name.len() >= min && full.starts_with(name);
            let takes_value = COMMIT_LONG_WITH_VALUE
                .iter()
                .any(|o| o.len() > 2 && name.len() >= 3 && o[2..].starts_with(name));
            let value = match attached {
                Some(v) => Some(v.to_owned()),
                None if takes_value => {
                    i += 1;
                    args.get(i - 1).cloned()
                }
                None => None,
            };
            if is("amend", 2) {
                out.amend = true;
            } else if is("no-amend", 4) {
                out.amend = false;
            } else if is("message", 3) {
                out.message = true;
                no_editor_by_source = true;
            } else if name == "file" || (name.len() >= 3 && "file".starts_with(name)) {
                out.file = true;
                no_editor_by_source = true;
            } else if is("reuse-message", 3) {
                out.reuse = true;
                no_editor_by_source = true;
            } else if is("reedit-message", 3) {
                out.reuse = true;
            } else if is("edit", 1) {
                edit = Some(true);
            } else if is("no-edit", 4) {
                edit = Some(false);
            } else if is("cleanup", 2) {
                out.cleanup = value;
            } else if is("verbose", 1) {
                out.verbose = Some(true);
            } else if is("no-verbose", 4) {
                out.verbose = Some(false);
            } else if is("squash", 2) || is("template", 2) {
                out.other_source = true;
            } else if is("fixup", 3) {
                out.other_source = true;
                // `--fixup=amend:<c>` and `reword:<c>` open an editor; a plain fixup does not.
                let v = value.unwrap_or_default();
                if !(v.starts_with("amend:") || v.starts_with("reword:")) {
                    no_editor_by_source = true;
                }
            }
            continue;
        }
        let Some(cluster) = a.strip_prefix('-') else {
            continue; // a pathspec
        };
        for (at, c) in cluster.char_indices() {
            match c {
                'm' => {
                    out.message = true;
                    no_editor_by_source = true;
                }
                'F' => {
                    out.file = true;
                    no_editor_by_source = true;
                }
                'C' => {
                    out.reuse = true;
                    no_editor_by_source = true;
                }
                'c' => out.reuse = true,
                't' => out.other_source = true,
                'e' => edit = Some(true),
                'v' => out.verbose = Some(true),
                _ => {}
            }
            if COMMIT_SHORT_WITH_VALUE.contains(&c) {
                // The value is the rest of the cluster, or the next argument.
                if at + c.len_utf8() == cluster.len() {
                    i += 1;
                }
                break;
            }
        }
    }
    out.editor = edit.unwrap_or(!no_editor_by_source);
    out
}

/// Splits an alias value into words as git's `split_cmdline` does: whitespace
/// separates, single and double quotes group, a backslash escapes. `None` for a shell
/// alias (`!…`) or unbalanced quotes.
fn split_alias(value: &str) -> Option<Vec<String>> {
    if value.trim_start().starts_with('!') {
        return None;
    }
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"') | None, '\\') => {
                word.push(chars.next()?);
                in_word = true;
            }
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return None;
    }
    if in_word {
        words.push(word);
    }
    Some(words)
}

/// How many ancestors are looked at for the git process (hook → framework → shim → git).
const MAX_ANCESTORS: usize = 6;

/// The options of the `git commit` that runs this hook: the nearest ancestor process
/// that is git. `None` when that is not a `git commit` (or cannot be read: no process
/// table, another operating system). `alias` expands `alias.<name>`.
pub fn git_commit_args(alias: &dyn Fn(&str) -> Option<String>) -> Option<CommitArgs> {
    let mut pid = parent_pid()?;
    for _ in 0..MAX_ANCESTORS {
        if pid <= 1 {
            return None;
        }
        let argv = cmdline(pid)?;
        if is_git(&argv) {
            return parse_commit_args(&argv, alias);
        }
        pid = parent_of(pid)?;
    }
    None
}

fn is_git(argv: &[String]) -> bool {
    argv.first().is_some_and(|p| {
        let name = p.rsplit('/').next().unwrap_or(p);
        let name = name.strip_suffix(".exe").unwrap_or(name);
        name == "git" || name.starts_with("git-")
    })
}

#[cfg(unix)]
fn parent_pid() -> Option<u32> {
    Some(std::os::unix::process::parent_id())
}

#[cfg(not(unix))]
fn parent_pid() -> Option<u32> {
    None
}

/// `/proc/<pid>/cmdline`, NUL-separated; `None` where there is no /proc.
fn cmdline(pid: u32) -> Option<Vec<String>> {
    let raw = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
    let args: Vec<String> = raw
        .split(|b| *b == 0)
        .filter(|a| !a.is_empty())
        .map(|a| String::from_utf8_lossy(a).into_owned())
        .collect();
    (!args.is_empty()).then_some(args)
}

/// The parent of `pid`, from `/proc/<pid>/stat` (the field after the parenthesised
/// command name, which may itself hold spaces and parentheses).
fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after = &stat[stat.rfind(')')? + 1..];
    after.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &[&str]) -> Option<CommitArgs> {
        let argv: Vec<String> = line.iter().map(|s| s.to_string()).collect();
        parse_commit_args(&argv, &|name| match name {
            "ca" => Some("commit --amend".into()),
            "cm" => Some("commit -m".into()),
            "st" => Some("status".into()),
            "sh" => Some("!git commit --amend".into()),
            _ => None,
        })
    }

    fn amend(line: &[&str]) -> bool {
        parse(line).is_some_and(|a| a.amend)
    }

    #[test]
    fn amend_is_found_where_git_would_read_it() {
        for yes in [
            &["git", "commit", "--amend"][..],
            &["git", "commit", "--amend", "--no-edit"],
            &[
                "/usr/lib/git-core/git",
                "commit",
                "--amend",
                "--no-gpg-sign",
                "-e",
            ],
            &["git", "-C", "dir", "-c", "a.b=c", "commit", "-a", "--amend"],
            &["git", "--no-pager", "commit", "--amen"],
            &["git", "commit", "-m", "x", "--amend"],
            &["git", "commit", "-amx", "--amend"],
            &["git", "ca"],
            &["git", "ca", "-m", "new words"],
            &["git-commit", "--amend"],
            &["git", "commit", "--no-amend", "--amend"],
        ] {
            assert!(amend(yes), "{yes:?}");
        }
        for no in [
            &["git", "commit"][..],
            &["git", "commit", "-m", "--amend"],
            &["git", "commit", "--message", "--amend"],
            &["git", "commit", "--message=--amend"],
            &["git", "commit", "-F", "--amend"],
            &["git", "commit", "-m--amend"],
            &["git", "commit", "--", "--amend"],
            &["git", "commit", "--amend", "--no-amend"],
            &["git", "commit", "--fixup=amend:HEAD"],
            &["git", "commit", "--fixup", "amend:HEAD"],
            &["git", "-c", "commit", "status"],
            &["git", "st"],
            &["git", "sh"],
            &["git", "rebase", "-i", "HEAD~2"],
            &["python3", "-mpre_commit", "hook-impl", "--amend"],
            &["git"],
            &[],
        ] {
            assert!(!amend(no), "{no:?}");
        }
    }

    #[test]
    fn message_sources_are_told_apart() {
        let m = parse(&["git", "commit", "-am", "x"]).unwrap();
        assert!(m.message && !m.file && !m.amend);
        let f = parse(&["git", "commit", "-F", "msg.txt"]).unwrap();
        assert!(f.file && !f.message);
        let f = parse(&["git", "commit", "--file=msg.txt"]).unwrap();
        assert!(f.file);
        let am = parse(&["git", "cm", "words", "--amend"]).unwrap();
        assert!(am.message && am.amend);
        let c = parse(&["git", "commit", "-C", "HEAD"]).unwrap();
        assert!(c.reuse && !c.amend);
    }

    #[test]
    fn only_a_plain_dash_m_is_the_users_own_message() {
        let plain = |s: &str| {
            let argv: Vec<&str> = s.split(' ').collect();
            parse(&argv).is_some_and(|a| a.plain_message())
        };
        for yes in [
            "git commit -m x",
            "git commit -am x",
            "git -c a=b commit -q --message=x",
            "/usr/bin/git commit --message x -s",
            "git commit -m -F",
            "git cm words",
        ] {
            assert!(plain(yes), "{yes}");
        }
        for no in [
            "git commit -F msg",
            "git commit --file=msg",
            "git commit --amend -m x",
            "git commit -m x --amend",
            "git commit -aF msg",
            "git commit -C HEAD -m x",
            "git commit -c HEAD",
            "git commit --fixup HEAD -m x",
            "git commit --squash=HEAD -m x",
            "git commit --squash HEAD -m x",
            "git commit -t tpl -m x",
            "git commit",
            "git ci -m x",
        ] {
            assert!(!plain(no), "{no}");
        }
    }

    #[test]
    fn editor_cleanup_and_verbose_follow_git() {
        let editor = |line: &[&str]| parse(line).unwrap().editor;
        assert!(editor(&["git", "commit"]));
        assert!(editor(&["git", "commit", "--amend"]));
        assert!(editor(&["git", "commit", "-c", "HEAD"]));
        assert!(editor(&["git", "commit", "-m", "x", "-e"]));
        assert!(editor(&["git", "commit", "--fixup=amend:HEAD"]));
        assert!(!editor(&["git", "commit", "-m", "x"]));
        assert!(!editor(&["git", "commit", "-F", "-"]));
        assert!(!editor(&["git", "commit", "--amend", "--no-edit"]));
        assert!(!editor(&["git", "commit", "-e", "--no-edit"]));
        assert!(!editor(&["git", "commit", "--fixup", "HEAD"]));
        let a = parse(&["git", "commit", "--cleanup=scissors", "-v"]).unwrap();
        assert_eq!(a.cleanup.as_deref(), Some("scissors"));
        assert_eq!(a.verbose, Some(true));
        let a = parse(&["git", "commit", "--cleanup", "verbatim", "--no-verbose"]).unwrap();
        assert_eq!(a.cleanup.as_deref(), Some("verbatim"));
        assert_eq!(a.verbose, Some(false));
        assert_eq!(parse(&["git", "commit"]).unwrap().verbose, None);
    }

    #[test]
    fn aliases_split_like_git() {
        assert_eq!(
            split_alias(r#"commit -m "two words" --amend"#).unwrap(),
            vec!["commit", "-m", "two words", "--amend"]
        );
        assert_eq!(
            split_alias("commit 'a b'\\ c").unwrap(),
            vec!["commit", "a b c"]
        );
        assert_eq!(split_alias("!git commit"), None);
        assert_eq!(split_alias("commit 'open"), None);
    }

    #[test]
    fn parent_is_read_past_a_command_name_with_parentheses() {
        // This test process has a parent; its stat line parses.
        #[cfg(target_os = "linux")]
        assert!(parent_of(std::process::id()).is_some());
    }
}
