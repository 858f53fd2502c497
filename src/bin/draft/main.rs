//! `jitcommit-draft`: git's prepare-commit-msg hook. It fills the message file with a
//! structured draft on a plain `git commit` and never gets in the way: every failure
//! exits 0 with one line on stderr, because a non-zero exit would abort the commit.
//!
//! `main` only dispatches: the source decision ([`source`]) runs first, from argv,
//! the environment and marker files, so the no-op path opens neither the repository
//! nor any config; the drafting flow is in [`run`].

mod args;
mod msgfile;
mod run;
mod source;
mod spinner;

use std::ffi::OsString;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = match args::parse(std::env::args_os().skip(1)) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("jitcommit-draft: {e} (see --help); leaving the message as it is");
            return ExitCode::SUCCESS;
        }
    };
    if args.help {
        print!("{}", args::HELP);
        return ExitCode::SUCCESS;
    }
    if args.version {
        println!("jitcommit-draft {}", env!("CARGO_PKG_VERSION"));
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
            eprintln!("jitcommit-draft: no message file given (see --help)");
            return ExitCode::SUCCESS;
        }
    };
    match decision {
        source::Decision::Skip(why) => {
            if std::env::var_os("JITCOMMIT_DEBUG").is_some() {
                eprintln!("jitcommit-draft: not drafting: {why}");
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
        eprintln!("jitcommit-draft: {e}; leaving the message as it is");
    }
    ExitCode::SUCCESS
}
