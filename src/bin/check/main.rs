//! `jitcommit-check`: the validator. commit-msg hook, `--stdin`, `--range A..B` for CI,
//! `--pre-receive` / `--update` on servers. `main` only parses the arguments into
//! settings, dispatches to a mode and maps the outcome to an exit code:
//! 0 clean, 1 findings, 2 usage or internal error — decided by the verdict alone: a
//! closed pipe or a full disk on stdout never turns findings into a pass.

mod args;
mod engine;
mod error;
mod modes;
mod output;

use std::io::Write;
use std::process::ExitCode;

use args::Mode;
use error::CheckError;
use modes::Outcome;

fn main() -> ExitCode {
    match run() {
        Ok(Outcome::Clean) => ExitCode::from(0),
        Ok(Outcome::Findings) => ExitCode::from(1),
        // `--help | head -1`: the informational modes have no verdict to lose.
        Err(CheckError::Output(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            ExitCode::from(0)
        }
        Err(CheckError::Reported) => ExitCode::from(2),
        Err(e) => {
            report_error(&e);
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<Outcome, CheckError> {
    // A usage error under `--format github` is written inert too.
    let argv: Vec<_> = std::env::args_os().skip(1).collect();
    let github = argv
        .windows(2)
        .any(|w| w[0] == "--format" && w[1] == "github")
        || argv.iter().any(|a| a == "--format=github");
    if github {
        output::set_github_inert();
    }
    let settings = args::parse(argv)?;
    if let Some(prefix) = &settings.line_prefix {
        output::set_line_prefix(prefix);
    }
    if settings.format == args::Format::Github {
        output::set_github_inert();
    }
    match &settings.mode {
        Mode::File(path) => modes::commit_msg::run(&settings, Some(path)),
        Mode::Stdin => modes::commit_msg::run(&settings, None),
        Mode::Range(spec) => modes::range::run(&settings, spec),
        Mode::Commit(rev) => modes::commit::run(&settings, rev),
        Mode::PreReceive => modes::push::pre_receive(&settings),
        Mode::Update { refname, old, new } => modes::push::update(&settings, refname, old, new),
        Mode::DumpConfig => modes::info::dump_config(&settings),
        Mode::Explain(rule) => modes::info::explain(rule),
        Mode::ListRules => modes::info::list_rules(),
        Mode::Help => modes::info::help(),
        Mode::Version => modes::info::version(),
    }
}

/// Prints the error and its cause chain; usage errors point at `--help`.
pub(crate) fn report_error(e: &CheckError) {
    use jitcommit_core::term::printable;
    // An error may name a path, a ref or a convention value of the repository.
    let mut err = output::stderr();
    let _ = writeln!(err, "jitcommit-check: error: {}", printable(&e.to_string()));
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        let _ = writeln!(err, "  caused by: {}", printable(&s.to_string()));
        source = s.source();
    }
    if matches!(e, CheckError::Usage(_)) {
        let _ = writeln!(err, "run `jitcommit-check --help` for usage");
    }
}
