//! Tests of what could hang (a pipeline stopped by a failing writer, a dropped encoder): the
//! work runs on a thread of its own, and the test fails if it has not ended in [`HANG`].

use std::sync::mpsc;
use std::time::Duration;

/// How long a test that could hang waits before it fails (not a timing assertion: a working
/// pipeline ends in milliseconds, a deadlock never does).
pub const HANG: Duration = Duration::from_secs(120);

/// Runs `f` on a thread of its own and returns its result; panics, naming `what`, if it does
/// not end within [`HANG`] (or panicked).
pub fn no_hang<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = sender.send(f());
    });
    receiver
        .recv_timeout(HANG)
        .unwrap_or_else(|_| panic!("{what}: hung (or panicked)"))
}
