//! `git-jitcommit`: what git runs for `git jitcommit …`. It runs the `jitcommit`
//! installed beside it with the same arguments. It is a binary of the same package,
//! not a link, so `cargo uninstall jitcommit` removes it with the others and leaves no
//! dangling link behind; a copy left alone says what to do instead of failing dumbly.

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, ExitCode};

/// The `jitcommit` beside this executable (symlinks to this one resolved).
fn sibling() -> Result<PathBuf, String> {
    let me = std::env::current_exe().map_err(|e| format!("cannot find itself: {e}"))?;
    let dir = me
        .parent()
        .ok_or_else(|| format!("{} has no directory", me.display()))?;
    let target = dir.join(format!("jitcommit{}", std::env::consts::EXE_SUFFIX));
    if target.is_file() {
        Ok(target)
    } else {
        Err(format!(
            "{} is gone (uninstalled?): reinstall jitcommit (install.sh), or remove this \
             leftover: rm {}",
            target.display(),
            me.display()
        ))
    }
}

fn main() -> ExitCode {
    let target = match sibling() {
        Ok(t) => t,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "git-jitcommit: {e}");
            return ExitCode::FAILURE;
        }
    };
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let mut cmd = Command::new(&target);
    cmd.args(&args);
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let err = cmd.exec();
        let _ = writeln!(
            std::io::stderr(),
            "git-jitcommit: cannot run {}: {err}",
            target.display()
        );
        ExitCode::FAILURE
    }
    #[cfg(not(unix))]
    match cmd.status() {
        Ok(s) => ExitCode::from(u8::try_from(s.code().unwrap_or(1)).unwrap_or(1)),
        Err(err) => {
            let _ = writeln!(
                std::io::stderr(),
                "git-jitcommit: cannot run {}: {err}",
                target.display()
            );
            ExitCode::FAILURE
        }
    }
}
