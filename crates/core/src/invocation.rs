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

/// What an option of `git commit` takes after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Takes {
    /// Nothing: a switch.
    Nothing,
    /// A value: `--opt=v` or `--opt v`; `-xv` or `-x v`.
    Value,
    /// An optional value, attached only: `--opt=v`; `-xv`.
    Optional,
}

/// One option of `git commit`: long name, short letter, what it takes, and whether
/// git accepts `--no-<name>` (parse-options' `PARSE_OPT_NONEG` unset).
struct Opt {
    long: &'static str,
    short: Option<char>,
    takes: Takes,
    negatable: bool,
}

const fn opt(long: &'static str, short: Option<char>, takes: Takes) -> Opt {
    Opt {
        long,
        short,
        takes,
        negatable: true,
    }
}

/// `git commit`'s options as git 2.47 declares them (builtin/commit.c; the list
/// `git commit --git-completion-helper-all` prints), in git's order: an abbreviation
/// is resolved against all of them, as git does, so `--me` is `--message` and `--ver`
/// is ambiguous (`--verbose`, `--verify`).
const COMMIT_OPTIONS: &[Opt] = &[
    opt("quiet", Some('q'), Takes::Nothing),
    opt("verbose", Some('v'), Takes::Nothing),
    opt("file", Some('F'), Takes::Value),
    opt("author", None, Takes::Value),
    opt("date", None, Takes::Value),
    opt("message", Some('m'), Takes::Value),
    opt("reedit-message", Some('c'), Takes::Value),
    opt("reuse-message", Some('C'), Takes::Value),
    opt("fixup", None, Takes::Value),
    opt("squash", None, Takes::Value),
    opt("reset-author", None, Takes::Nothing),
    Opt {
        long: "trailer",
        short: None,
        takes: Takes::Value,
        negatable: false,
    },
    opt("signoff", Some('s'), Takes::Nothing),
    opt("template", Some('t'), Takes::Value),
    opt("edit", Some('e'), Takes::Nothing),
    opt("cleanup", None, Takes::Value),
    opt("status", None, Takes::Nothing),
    opt("gpg-sign", Some('S'), Takes::Optional),
    opt("all", Some('a'), Takes::Nothing),
    opt("include", Some('i'), Takes::Nothing),
    opt("interactive", None, Takes::Nothing),
    opt("patch", Some('p'), Takes::Nothing),
    opt("only", Some('o'), Takes::Nothing),
    opt("no-verify", Some('n'), Takes::Nothing),
    opt("dry-run", None, Takes::Nothing),
    opt("short", None, Takes::Nothing),
    opt("branch", None, Takes::Nothing),
    opt("ahead-behind", None, Takes::Nothing),
    opt("porcelain", None, Takes::Nothing),
    opt("long", None, Takes::Nothing),
    opt("null", Some('z'), Takes::Nothing),
    opt("amend", None, Takes::Nothing),
    opt("no-post-rewrite", None, Takes::Nothing),
    opt("untracked-files", Some('u'), Takes::Optional),
    opt("pathspec-from-file", None, Takes::Value),
    opt("pathspec-file-nul", None, Takes::Nothing),
    opt("allow-empty", None, Takes::Nothing),
    opt("allow-empty-message", None, Takes::Nothing),
];

/// A long option as git's `parse_long_opt` resolves it (parse-options.c): an exact
/// name wins; otherwise any unambiguous prefix of a name, of `no-<name>`, or, for an
/// option named `no-x`, of `x`. Returns the option and whether it was negated;
/// `None` for an unknown or ambiguous one (git refuses the command then).
fn long_option(arg: &str) -> Option<(&'static Opt, bool)> {
    let name = arg.split_once('=').map_or(arg, |(n, _)| n);
    let mut abbrev: Option<(&'static Opt, bool)> = None;
    let mut ambiguous = false;
    let mut found = |o: &'static Opt, unset: bool| {
        if abbrev.is_some() {
            ambiguous = true;
        }
        abbrev = Some((o, unset));
    };
    for o in COMMIT_OPTIONS {
        let mut long = o.long;
        let mut positive_of_no = false;
        if !arg.starts_with("no-")
            && o.negatable
            && let Some(rest) = long.strip_prefix("no-")
        {
            long = rest;
            positive_of_no = true;
        }
        if name == long {
            return Some((o, positive_of_no));
        }
        if long.starts_with(name) {
            found(o, positive_of_no);
            continue;
        }
        if !o.negatable {
            continue;
        }
        if "no-".starts_with(arg) {
            found(o, !positive_of_no);
            continue;
        }
        let Some(rest) = arg.strip_prefix("no-") else {
            continue;
        };
        let rest_name = rest.split_once('=').map_or(rest, |(n, _)| n);
        if rest_name == long {
            return Some((o, !positive_of_no));
        }
        if long.starts_with(rest) {
            found(o, !positive_of_no);
        }
    }
    if ambiguous { None } else { abbrev }
}

/// The short option `c` of `git commit`.
fn short_option(c: char) -> Option<&'static Opt> {
    COMMIT_OPTIONS.iter().find(|o| o.short == Some(c))
}

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

/// The state `git commit`'s options leave, as far as the hooks care.
#[derive(Default)]
struct Seen {
    amend: bool,
    message: bool,
    file: bool,
    reuse: bool,
    reedit: bool,
    edit: Option<bool>,
    cleanup: Option<String>,
    verbose: Option<bool>,
    squash: bool,
    template: bool,
    fixup: Option<String>,
}

impl Seen {
    /// One option, negated or not, with its value.
    fn apply(&mut self, o: &Opt, unset: bool, value: Option<String>) {
        let set = !unset;
        match o.long {
            "amend" => self.amend = set,
            "message" => self.message = set,
            "file" => self.file = set,
            "reuse-message" => self.reuse = set,
            "reedit-message" => self.reedit = set,
            "edit" => self.edit = Some(set),
            "cleanup" => self.cleanup = value.filter(|_| set),
            "verbose" => self.verbose = Some(set),
            "squash" => self.squash = set,
            "template" => self.template = set,
            "fixup" => self.fixup = set.then(|| value.unwrap_or_default()),
            _ => {}
        }
    }
}

/// Reads `git commit`'s options (everything after the subcommand) as git's
/// parse-options does: long options by any unambiguous prefix, `--no-` forms, short
/// options clustered (`-am msg`, `-uno`, `-Skey`), an option that takes a value
/// taking the rest of its cluster or else the next argument (an optional value only
/// the rest of the cluster or `=v`), and `--` ending the options.
fn commit_options(args: &[String]) -> CommitArgs {
    let mut seen = Seen::default();
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        if a == "--" {
            break;
        }
        if let Some(long) = a.strip_prefix("--") {
            let Some((o, unset)) = long_option(long) else {
                continue; // git refuses an unknown or ambiguous option
            };
            let attached = long.split_once('=').map(|(_, v)| v.to_owned());
            let value = match (o.takes, unset, attached) {
                (_, true, _) | (Takes::Nothing, _, _) => None,
                (_, false, Some(v)) => Some(v),
                (Takes::Value, false, None) => {
                    i += 1;
                    args.get(i - 1).cloned()
                }
                (Takes::Optional, false, None) => None,
            };
            seen.apply(o, unset, value);
            continue;
        }
        let Some(cluster) = a.strip_prefix('-').filter(|c| !c.is_empty()) else {
            continue; // a pathspec (or `-`)
        };
        for (at, c) in cluster.char_indices() {
            let Some(o) = short_option(c) else {
                break; // git refuses an unknown switch
            };
            let rest = &cluster[at + c.len_utf8()..];
            match o.takes {
                Takes::Nothing => seen.apply(o, false, None),
                Takes::Optional => {
                    seen.apply(o, false, (!rest.is_empty()).then(|| rest.to_owned()));
                    break;
                }
                Takes::Value => {
                    let value = if rest.is_empty() {
                        i += 1;
                        args.get(i - 1).cloned()
                    } else {
                        Some(rest.to_owned())
                    };
                    seen.apply(o, false, value);
                    break;
                }
            }
        }
    }
    // `--fixup=amend:<c>` and `reword:<c>` open an editor; a plain fixup does not.
    let plain_fixup = seen
        .fixup
        .as_deref()
        .is_some_and(|v| !(v.starts_with("amend:") || v.starts_with("reword:")));
    let no_editor_by_source = seen.message || seen.file || seen.reuse || plain_fixup;
    CommitArgs {
        amend: seen.amend,
        message: seen.message,
        file: seen.file,
        reuse: seen.reuse || seen.reedit,
        editor: seen.edit.unwrap_or(!no_editor_by_source),
        cleanup: seen.cleanup,
        verbose: seen.verbose,
        other_source: seen.squash || seen.template || seen.fixup.is_some(),
    }
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

    /// Each command line with what git makes of it: (argv after `git commit`, message,
    /// file, amend, editor). Checked against git 2.47's parse-options.
    #[test]
    fn options_resolve_as_git_resolves_them() {
        let table: &[(&[&str], bool, bool, bool, bool)] = &[
            // Every prefix of --message git accepts, with the value in the next word.
            (&["--m", "# h"], true, false, false, false),
            (&["--me", "# h"], true, false, false, false),
            (&["--mes=# h"], true, false, false, false),
            (&["--message", "--amend"], true, false, false, false),
            // --no-message forgets the ones before it.
            (&["-m", "x", "--no-message"], false, false, false, true),
            (&["-m", "x", "--no-mess"], false, false, false, true),
            // --f and --fi are --file or --fixup: ambiguous, git refuses them.
            (&["--f", "msg"], false, false, false, true),
            (&["--fi", "msg"], false, false, false, true),
            (&["--fil", "msg"], false, true, false, false),
            // --a is --author, --all, --amend, ...: ambiguous.
            (&["--a"], false, false, false, true),
            (&["--am"], false, false, true, true),
            (&["--no-am", "--amend", "--no-a"], false, false, true, true),
            (&["--amend", "--no-am"], false, false, false, true),
            // --e is --edit; --no-e is --no-edit.
            (&["-m", "x", "--e"], true, false, false, true),
            (&["--amend", "--no-e"], false, false, true, false),
            // --verify is no-verify's positive form, so --ver is ambiguous, --verb is not.
            (&["--ver", "-m", "x"], true, false, false, false),
            // Clusters: an option that takes a value takes the rest of the cluster.
            (&["-am", "x"], true, false, false, false),
            (&["-uno", "-e"], false, false, false, true),
            (&["-unom"], false, false, false, true),
            (&["-Skeym"], false, false, false, true),
            (&["-Sm", "x"], false, false, false, true),
            (&["-S", "-m", "x"], true, false, false, false),
            (&["-qsF", "f"], false, true, false, false),
            (&["-Fm"], false, true, false, false),
            (&["-mF"], true, false, false, false),
            (&["-m", "-F"], true, false, false, false),
            // An optional value is never the next word.
            (&["--gpg-sign", "-m", "x"], true, false, false, false),
            (&["--untracked-files", "-m", "x"], true, false, false, false),
            (
                &["--untracked-files=no", "--amend"],
                false,
                false,
                true,
                true,
            ),
            // Unknown switches stop a cluster, as git stops the command.
            (&["-xm", "x"], false, false, false, true),
            (&["--", "-m", "x"], false, false, false, true),
            (&["--trailer", "--amend"], false, false, false, true),
            (&["--no-trailer", "--amend"], false, false, true, true),
        ];
        for (args, message, file, amend, editor) in table {
            let mut argv = vec!["git", "commit"];
            argv.extend_from_slice(args);
            let a = parse(&argv).unwrap();
            assert_eq!(
                (a.message, a.file, a.amend, a.editor),
                (*message, *file, *amend, *editor),
                "{args:?}"
            );
        }
        assert_eq!(
            long_option("verb").map(|(o, u)| (o.long, u)),
            Some(("verbose", false))
        );
        assert_eq!(
            long_option("verify").map(|(o, u)| (o.long, u)),
            Some(("no-verify", true))
        );
        assert_eq!(
            long_option("no-verify").map(|(o, u)| (o.long, u)),
            Some(("no-verify", false))
        );
        assert!(long_option("ver").is_none());
        assert!(long_option("no").is_none());
        assert!(long_option("").is_none());
        let c = parse(&["git", "commit", "--cl", "verbatim"]).unwrap();
        assert_eq!(c.cleanup.as_deref(), Some("verbatim"));
        let c = parse(&["git", "commit", "--cleanup=scissors", "--no-cleanup"]).unwrap();
        assert_eq!(c.cleanup, None);
        assert_eq!(
            parse(&["git", "commit", "--verb"]).unwrap().verbose,
            Some(true)
        );
        assert_eq!(
            parse(&["git", "commit", "-vv"]).unwrap().verbose,
            Some(true)
        );
        assert_eq!(
            parse(&["git", "commit", "--no-verb"]).unwrap().verbose,
            Some(false)
        );
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
