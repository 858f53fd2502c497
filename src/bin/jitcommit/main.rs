//! `jitcommit`: the command people type (also as `git jitcommit`). `main` dispatches to
//! one module per subcommand and maps the outcome to an exit code: 0 ok, 1 a check
//! failed, 2 usage or internal error.

mod bump;
mod changelog;
mod doctor;
mod error;
mod facts;
mod fit;
mod history;
mod import;
mod init;
mod proposal;
mod repo;
mod stored;

use std::ffi::OsString;
use std::io::Write as _;
use std::process::ExitCode;

use error::Error;
use jitcommit_core::term::printable;

/// How a subcommand ended when it did not fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// All good.
    Ok,
    /// A check failed (exit 1).
    Failed,
}

const HELP: &str = "\
jitcommit: release notes, versions and setup from a structured commit history

USAGE:
    jitcommit <COMMAND> [OPTIONS]
    git jitcommit <COMMAND> [OPTIONS]

COMMANDS:
    changelog   render Keep a Changelog markdown (or JSON) from the history
    bump        print the next version; --tag creates the annotated tag
    init        write the repository's convention, importing commitlint/cog/.versionrc
    doctor      check the hooks, binaries, convention and model settings
    facts       list, select and check the repository's fact store (.commit-context.md)

Run `jitcommit <COMMAND> --help` for a command's options and examples.

EXIT STATUS:
    0 ok, 1 a check failed (drift, nothing to release, a problem found), 2 usage or
    internal error
";

fn main() -> ExitCode {
    let mut args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let result = if args.is_empty() {
        Err(error::usage(
            "no command given (changelog, bump, init, doctor or facts)",
        ))
    } else {
        let cmd = args.remove(0);
        match cmd.to_str() {
            Some("changelog") => changelog::run(args),
            Some("bump") => bump::run(args),
            Some("init") => init::run(args),
            Some("doctor") => doctor::run(args),
            Some("facts") => facts::run(args),
            Some("-h" | "--help" | "help") => print(HELP),
            Some("-V" | "--version") => {
                print(&format!("jitcommit {}\n", env!("CARGO_PKG_VERSION")))
            }
            _ => Err(error::usage(format!(
                "unknown command {:?} (changelog, bump, init, doctor or facts)",
                cmd.to_string_lossy()
            ))),
        }
    };
    match result {
        Ok(Outcome::Ok) => ExitCode::from(0),
        Ok(Outcome::Failed) => ExitCode::from(1),
        Err(Error::Output(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::from(0),
        Err(e) => {
            report(&e);
            ExitCode::from(2)
        }
    }
}

/// Writes `text` to stdout.
pub fn print(text: &str) -> Result<Outcome, Error> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(Outcome::Ok)
}

fn report(e: &Error) {
    let mut err = std::io::stderr().lock();
    // An error may quote a path, a tag or a value of the repository.
    let _ = writeln!(err, "jitcommit: error: {}", printable(&e.to_string()));
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        let _ = writeln!(err, "  caused by: {}", printable(&s.to_string()));
        source = s.source();
    }
    if matches!(e, Error::Usage(_) | Error::Lexopt(_)) {
        let _ = writeln!(err, "run `jitcommit --help` for usage");
    }
}
