//! A spinner with the elapsed time and the model's name on stderr while the model
//! works — only when stderr is a terminal (git gives the hook the user's terminal as
//! stderr; in a pipe or a log it would be noise).

use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A running spinner; stopped and its line cleared when dropped.
pub struct Spinner {
    stop: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

impl Spinner {
    /// Starts a spinner labelled with `model`, or nothing when stderr is not a terminal.
    pub fn start(model: &str) -> Spinner {
        let stop = Arc::new(AtomicBool::new(false));
        if !std::io::stderr().is_terminal() {
            return Spinner { stop, handle: None };
        }
        let flag = Arc::clone(&stop);
        let label = model.to_owned();
        let handle = std::thread::spawn(move || {
            const FRAMES: [char; 10] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
            let t0 = Instant::now();
            let mut i = 0usize;
            while !flag.load(Ordering::Relaxed) {
                let mut err = std::io::stderr().lock();
                let _ = write!(
                    err,
                    "\r{} jitcommit: drafting with {label} {:.1}s ",
                    FRAMES[i % FRAMES.len()],
                    t0.elapsed().as_secs_f64()
                );
                let _ = err.flush();
                drop(err);
                i += 1;
                std::thread::sleep(Duration::from_millis(100));
            }
            let _ = write!(std::io::stderr(), "\r\x1b[2K");
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
