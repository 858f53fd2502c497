//! `jitcommit-draft`: git's prepare-commit-msg hook. It fills the message file with a
//! structured draft on a plain `git commit` and never gets in the way: every failure
//! exits 0 with one line on stderr, because a non-zero exit would abort the commit.
//!
//! `main` only dispatches: the source decision ([`source`]) runs first, from argv,
//! the environment and marker files, so the no-op path opens neither the repository
//! nor any config; the drafting flow is in [`run`].
//!
//! Nothing here may abort a commit: every line goes through [`say!`], which ignores a
//! stderr that cannot be written (`2>/dev/full`, a closed pipe) where `eprintln!` would
//! panic, and a panic anywhere is caught and still exits 0.
#![deny(clippy::print_stderr, clippy::print_stdout)]

/// One line on stderr, never failing: a hook whose stderr is gone still exits 0.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod args;
mod msgfile;
mod run;
mod source;
mod spinner;

use std::ffi::OsString;
use std::process::ExitCode;

fn main() -> ExitCode {
    // A bug must not block a commit: the panic's message is tried on stderr by the
    // default hook (which ignores a failed write), and the exit is 0 all the same.
    let _ = std::panic::catch_unwind(real_main);
    ExitCode::SUCCESS
}

/// Writes `text` to stdout, ignoring a reader that is gone.
fn print_out(text: &str) {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

fn real_main() -> ExitCode {
    let args = match args::parse(std::env::args_os().skip(1)) {
        Ok(a) => a,
        Err(e) => {
            say!("jitcommit-draft: {e} (see --help); leaving the message as it is");
            return ExitCode::SUCCESS;
        }
    };
    if args.help {
        print_out(args::HELP);
        return ExitCode::SUCCESS;
    }
    if args.version {
        print_out(&format!("jitcommit-draft {}\n", env!("CARGO_PKG_VERSION")));
        return ExitCode::SUCCESS;
    }
    let env = |k: &str| -> Option<OsString> { std::env::var_os(k) };
    if args.print_context {
        return finish(run::print_context(&args));
    }
    let inv = source::invocation(&args.positional, &env);
    let decision = match &inv {
        Some(inv) => source::decide(inv, &env),
        None if args.dry_run => source::Decision::Draft,
        None => {
            say!("jitcommit-draft: no message file given (see --help)");
            return ExitCode::SUCCESS;
        }
    };
    // Only git's message file is ever rewritten: a regular file. A device node, a FIFO
    // (which would block the read), a directory or a symlink is left alone.
    if let Some(inv) = &inv
        && !matches!(decision, source::Decision::Skip(_))
        && let Err(why) = msgfile::regular_file(&inv.file)
    {
        say!("jitcommit-draft: {why}; leaving it alone");
        return ExitCode::SUCCESS;
    }
    match decision {
        source::Decision::Skip(why) => {
            if std::env::var_os("JITCOMMIT_DEBUG").is_some() {
                say!("jitcommit-draft: not drafting: {why}");
            }
            ExitCode::SUCCESS
        }
        source::Decision::MaybeIntent if !args.dry_run => match &inv {
            Some(inv)
                if source::may_ask_for_intent(
                    &source::marker_dir(&inv.file, env("GIT_DIR").as_deref()),
                    &env,
                ) =>
            {
                finish(run::hook(&args, inv, decision))
            }
            _ => ExitCode::SUCCESS,
        },
        d => match (&inv, args.dry_run) {
            (Some(inv), false) => finish(run::hook(&args, inv, d)),
            _ => finish(run::dry_run(&args)),
        },
    }
}

/// Prints a run's one-line failure and exits 0 regardless.
fn finish(r: Result<(), run::RunError>) -> ExitCode {
    if let Err(e) = r {
        say!("jitcommit-draft: {e}; leaving the message as it is");
    }
    ExitCode::SUCCESS
}
