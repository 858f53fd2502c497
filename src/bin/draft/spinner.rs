//! A spinner with the elapsed time and the model's name on stderr while the model
//! works — only when stderr is a terminal (git gives the hook the user's terminal as
//! stderr; in a pipe or a log it would be noise) that can redraw a line (not
//! `TERM=dumb`). With `NO_COLOR` or `CLICOLOR=0` it writes no escape sequence: its line
//! is cleared with spaces.

use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use jitcommit_core::term::TermEnv;

/// A running spinner; stopped and its line cleared when dropped.
pub struct Spinner {
    stop: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

impl Spinner {
    /// Starts a spinner labelled with `model`, or nothing when stderr is not a terminal.
    pub fn start(model: &str) -> Spinner {
        let stop = Arc::new(AtomicBool::new(false));
        let env = TermEnv::from_env();
        if !std::io::stderr().is_terminal() || env.dumb() {
            return Spinner { stop, handle: None };
        }
        let escapes = env.escapes();
        let flag = Arc::clone(&stop);
        let label = model.to_owned();
        let handle = std::thread::spawn(move || {
            const FRAMES: [char; 10] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
            let t0 = Instant::now();
            let mut i = 0usize;
            let mut width = 0;
            while !flag.load(Ordering::Relaxed) {
                let line = format!(
                    "{} jitcommit: drafting with {label} {:.1}s ",
                    FRAMES[i % FRAMES.len()],
                    t0.elapsed().as_secs_f64()
                );
                width = width.max(line.chars().count());
                let mut err = std::io::stderr().lock();
                let _ = write!(err, "\r{line}");
                let _ = err.flush();
                drop(err);
                i += 1;
                std::thread::sleep(Duration::from_millis(100));
            }
            let _ = if escapes {
                write!(std::io::stderr(), "\r\x1b[2K")
            } else {
                write!(std::io::stderr(), "\r{:width$}\r", "")
            };
        });
        Spinner {
            stop,
            handle: Some(handle),
        }
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}
