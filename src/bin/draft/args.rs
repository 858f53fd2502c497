//! Command-line arguments, parsed with lexopt into plain values: git's positional
//! `file [source [object]]` plus the flags a person uses by hand.

use std::ffi::OsString;

use jitcommit_drafter::settings::Flags;

/// What the user (or git) asked for.
#[derive(Debug, Default)]
pub struct Args {
    /// git's positional arguments: the message file, the source, the object name.
    pub positional: Vec<OsString>,
    /// `--dry-run`: print the draft on stdout, write nothing.
    pub dry_run: bool,
    /// `--print-context`: print the prompt and its budget table, call no model.
    pub print_context: bool,
    /// `--json` with `--print-context`.
    pub json: bool,
    /// `--offline`: skip the model, write the offline draft.
    pub offline: bool,
    /// `--intent TEXT`.
    pub intent: Option<String>,
    /// Model settings given as flags (highest priority).
    pub flags: Flags,
    /// `--help`.
    pub help: bool,
    /// `--version`.
    pub version: bool,
}

/// The `--help` text.
pub const HELP: &str = "\
jitcommit-draft — drafts a structured commit message (git's prepare-commit-msg hook)

USAGE:
    jitcommit-draft <MSG-FILE> [SOURCE [OBJECT]]     as git runs it
    jitcommit-draft --dry-run [--intent TEXT]          print a draft of what is staged
    jitcommit-draft --print-context [--json]           print the prompt and its token budget

It drafts only for a plain `git commit` and above a commit template; it leaves
-m/-F/--fixup, amend, -c/-C, merges, squashes, cherry-picks, reverts and rebases
alone. It always exits 0: a failure never blocks a commit.

OPTIONS:
    --dry-run              print the draft on stdout, write nothing
    --print-context        print the exact prompt and the budget table; no model call
    --json                 with --print-context: the same as JSON
    --intent TEXT          why you made the change (also JITCOMMIT_INTENT)
    --offline              do not call a model: write the offline draft
    --model NAME           model name (JITCOMMIT_MODEL, git config jitcommit.model)
    --url URL              model server (JITCOMMIT_URL, jitcommit.url)
    --provider P           ollama | openai (JITCOMMIT_PROVIDER, jitcommit.provider)
    --timeout DURATION     deadline for the whole run, e.g. 20s (jitcommit.timeout)
    --budget-tokens N      the model's context window (jitcommit.budgetTokens)
    --keep-alive D         how long Ollama keeps the model loaded (jitcommit.keepAlive)
    --guards MODE          auto | small | large: the word grammar, tight gate and the
                           tool's type, summary and breaking note by the model's
                           size, always, or never (jitcommit.guards)
    --api-key-env VAR      environment variable holding the API key
    --allow-remote         allow a non-loopback (https) model server
    -h, --help             this text
    -V, --version          the version

ENVIRONMENT:
    JITCOMMIT_SKIP=1       do nothing (also: git config jitcommit.enabled false)
    JITCOMMIT_INTENT       the intent hint

EXAMPLES:
    ln -s \"$(command -v jitcommit-draft)\" .git/hooks/prepare-commit-msg
    git config jitcommit.model qwen2.5-coder:7b       # Ollama on 127.0.0.1:11434
    git commit                                         # the editor opens on a draft
    jitcommit-draft --dry-run --intent 'users asked for JSON output'
    jitcommit-draft --print-context --json | jq .report
    git config jitcommit.onMessage intent; git commit -m 'why I did it'
";

/// Parses `argv` (without the program name).
pub fn parse(argv: impl IntoIterator<Item = OsString>) -> Result<Args, lexopt::Error> {
    use lexopt::prelude::*;
    let mut a = Args::default();
    let mut p = lexopt::Parser::from_args(argv);
    while let Some(arg) = p.next()? {
        match arg {
            Long("dry-run") => a.dry_run = true,
            Long("print-context") => a.print_context = true,
            Long("json") => a.json = true,
            Long("offline") => a.offline = true,
            Long("intent") => a.intent = Some(p.value()?.string()?),
            Long("model") => a.flags.model = Some(p.value()?.string()?),
            Long("url") => a.flags.url = Some(p.value()?.string()?),
            Long("provider") => a.flags.provider = Some(p.value()?.string()?),
            Long("timeout") => a.flags.timeout = Some(p.value()?.string()?),
            Long("budget-tokens") => a.flags.budget_tokens = Some(p.value()?.string()?),
            Long("api-key-env") => a.flags.api_key_env = Some(p.value()?.string()?),
            Long("keep-alive") => a.flags.keep_alive = Some(p.value()?.string()?),
            Long("guards") => a.flags.guards = Some(p.value()?.string()?),
            Long("allow-remote") => a.flags.allow_remote = Some(true),
            Short('h') | Long("help") => a.help = true,
            Short('V') | Long("version") => a.version = true,
            Value(v) => a.positional.push(v),
            _ => return Err(arg.unexpected()),
        }
    }
    Ok(a)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: &[&str]) -> Result<Args, lexopt::Error> {
        parse(v.iter().map(OsString::from))
    }

    #[test]
    fn git_positionals() {
        let a = args(&[".git/COMMIT_EDITMSG", "message", ""]).expect("parses");
        assert_eq!(
            a.positional,
            vec![
                OsString::from(".git/COMMIT_EDITMSG"),
                "message".into(),
                "".into()
            ]
        );
        assert!(!a.dry_run && !a.print_context);
    }

    #[test]
    fn each_flag() {
        let a = args(&[
            "--dry-run",
            "--print-context",
            "--json",
            "--offline",
            "--intent",
            "why",
            "--model",
            "m",
            "--url",
            "http://127.0.0.1:1",
            "--provider",
            "openai",
            "--timeout",
            "2s",
            "--budget-tokens",
            "4096",
            "--api-key-env",
            "K",
            "--allow-remote",
            "-h",
            "-V",
        ])
        .expect("parses");
        assert!(a.dry_run && a.print_context && a.json && a.offline && a.help && a.version);
        assert_eq!(a.intent.as_deref(), Some("why"));
        assert_eq!(a.flags.model.as_deref(), Some("m"));
        assert_eq!(a.flags.url.as_deref(), Some("http://127.0.0.1:1"));
        assert_eq!(a.flags.provider.as_deref(), Some("openai"));
        assert_eq!(a.flags.timeout.as_deref(), Some("2s"));
        assert_eq!(a.flags.budget_tokens.as_deref(), Some("4096"));
        assert_eq!(a.flags.api_key_env.as_deref(), Some("K"));
        assert_eq!(a.flags.allow_remote, Some(true));
        assert_eq!(
            args(&["--intent=x y"]).expect("parses").intent.as_deref(),
            Some("x y")
        );
    }

    /// `--help` names every personal setting's flag, and each one parses.
    #[test]
    fn help_names_every_setting_and_each_flag_parses() {
        for row in jitcommit_drafter::settings::SETTINGS {
            assert!(HELP.contains(row.flag_name()), "{} not in --help", row.flag);
            let mut argv = vec![row.flag_name()];
            if row.flag.contains(' ') {
                argv.push("1");
            }
            assert!(args(&argv).is_ok(), "{}", row.flag);
        }
        let a = args(&["--keep-alive", "10m"]).expect("parses");
        assert_eq!(a.flags.keep_alive.as_deref(), Some("10m"));
    }

    #[test]
    fn errors() {
        assert!(args(&["--bogus"]).is_err());
        assert!(args(&["--intent"]).is_err());
    }
}
