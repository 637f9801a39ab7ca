//! Standard input and output closed by the caller (`lz4-simd -c f >&-`, `lz4-simd -c <&-`).
//!
//! Rust's runtime reopens a closed descriptor 0, 1 or 2 on `/dev/null` before `main` runs, so a
//! closed output would swallow the frame and a closed input read as empty, both reported as
//! success. Which ones were closed is therefore recorded before the runtime starts, by a
//! function in `.init_array` (run by the C library's start code before the runtime's own
//! initialisation), and a job that reads or writes one fails as `lz4` fails (`jobs.rs`).
//!
//! Why not recognise the runtime's `/dev/null` afterwards (a character device 1:3 open
//! read-write, where `</dev/null` is read-only and `>/dev/null` write-only): a caller may pass
//! such a descriptor on purpose (`<>/dev/null`, and Python's `subprocess.DEVNULL` opens
//! `/dev/null` read-write), and a run discarding its output must not fail. Asking the
//! descriptor table itself before the runtime touches it is exact.

use std::sync::atomic::{AtomicU8, Ordering};

/// Bit `fd` set: descriptor `fd` (0, 1 or 2) was closed when the process started.
static CLOSED_AT_START: AtomicU8 = AtomicU8::new(0);

/// Runs [`record_closed`] before Rust's runtime initialisation (glibc and musl run the
/// `.init_array` functions of the executable before calling `main`, which starts the runtime).
// SAFETY: `.init_array` holds pointers to functions the C library calls once, on one thread,
// before `main`; this entry is such a pointer (`extern "C"`, no arguments read, no return), and
// `record_closed` needs nothing from Rust's runtime: one libc call, one atomic store.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
#[used]
#[link_section = ".init_array"]
static RECORD_CLOSED: extern "C" fn() = record_closed;

#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
extern "C" fn record_closed() {
    let mut closed = 0;
    for fd in 0..3 {
        // SAFETY: `fcntl(fd, F_GETFD)` takes no pointer and changes nothing: for a descriptor
        // that is not open it fails (EBADF). The C library is initialised before `.init_array`
        // functions run.
        if unsafe { libc::fcntl(fd, libc::F_GETFD) } == -1 {
            closed |= 1 << fd;
        }
    }
    CLOSED_AT_START.store(closed, Ordering::Relaxed);
}

/// Whether standard input was closed when the process started.
pub fn stdin_closed() -> bool {
    CLOSED_AT_START.load(Ordering::Relaxed) & 1 != 0
}

/// Whether standard output was closed when the process started.
pub fn stdout_closed() -> bool {
    CLOSED_AT_START.load(Ordering::Relaxed) & 2 != 0
}
