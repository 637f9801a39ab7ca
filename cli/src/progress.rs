//! The progress bar (`indicatif`), and the counting reader that feeds it.
//!
//! A bar appears only when standard error is a terminal, the display level is the default or
//! higher (`-q` silences it), and the job has run for a second: short jobs print nothing, and
//! nothing of it reaches a pipe or a file. It shows bytes read (of the input's size when
//! known), the ratio so far and the speed, one bar per file with `-m`, and is cleared at the
//! end.

use std::io::{self, IsTerminal, Read};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::args::Settings;

/// How long a job runs before its bar appears.
const SHOW_AFTER: Duration = Duration::from_secs(1);

/// A job's bar, drawn only once [`SHOW_AFTER`] has passed.
pub struct Progress {
    bar: ProgressBar,
    start: Instant,
    shown: bool,
    written: Arc<AtomicU64>,
}

impl Progress {
    /// A bar for reading `name` (of `length` bytes when known), or `None` where none may show.
    pub fn start(
        settings: &Settings,
        name: &str,
        length: Option<u64>,
        written: Arc<AtomicU64>,
    ) -> Option<Progress> {
        if !settings.progress_bar || !io::stderr().is_terminal() {
            return None;
        }
        let bar = ProgressBar::with_draw_target(length, ProgressDrawTarget::hidden());
        let template = if length.is_some() {
            "{prefix} [{bar:30}] {bytes}/{total_bytes} {msg} {binary_bytes_per_sec} {eta}"
        } else {
            "{prefix} {bytes} {msg} {binary_bytes_per_sec}"
        };
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_prefix(name.to_string());
        Some(Progress {
            bar,
            start: Instant::now(),
            shown: false,
            written,
        })
    }

    fn update(&mut self, read: u64) {
        if !self.shown {
            if self.start.elapsed() < SHOW_AFTER {
                return;
            }
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.shown = true;
        }
        let written = self.written.load(Ordering::Relaxed);
        if read > 0 {
            self.bar
                .set_message(format!("{:.2}%", written as f64 * 100.0 / read as f64));
        }
        self.bar.set_position(read);
    }
}

/// A reader that counts what it reads, remembers whether it failed (so an error can be blamed
/// on the right side), and moves the progress bar.
pub struct Counted<R> {
    inner: R,
    name: String,
    bytes: u64,
    failed: bool,
    progress: Option<Progress>,
}

impl<R: Read> Counted<R> {
    pub fn new(inner: R, name: String, progress: Option<Progress>) -> Self {
        Counted {
            inner,
            name,
            bytes: 0,
            failed: false,
            progress,
        }
    }

    pub fn bytes_read(&self) -> u64 {
        self.bytes
    }

    pub fn failed(&self) -> bool {
        self.failed
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Clears the bar (if it was shown).
    pub fn finish_progress(&mut self) {
        if let Some(progress) = self.progress.take() {
            progress.bar.finish_and_clear();
        }
    }
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.inner.read(buf) {
            Ok(n) => {
                self.bytes += n as u64;
                if let Some(progress) = &mut self.progress {
                    progress.update(self.bytes);
                }
                Ok(n)
            }
            Err(e) => {
                if e.kind() != io::ErrorKind::Interrupted {
                    self.failed = true;
                }
                Err(e)
            }
        }
    }
}
