//! SIGINT, SIGTERM, SIGHUP and SIGQUIT: remove the temporary outputs, then die of the signal.
//!
//! Outputs are written to temporary files (see `output.rs`) that are renamed over their targets
//! only when complete. A signal must not leave such a file behind, so every named temporary file
//! (an unnamed one, Linux's `O_TMPFILE`, goes with the process) is registered here from the moment it exists until it is renamed or deleted. A dedicated thread
//! waits for the signals; when one arrives it takes the registry's lock, deletes every
//! registered file and re-raises the signal with its default action, so the parent sees the
//! process die of it, as it would see `lz4` die. Renaming a finished output happens under the
//! same lock, so a signal either finds the temporary file (and deletes it: the target is
//! untouched) or finds it already renamed (the output is complete): never half of each.
//!
//! Why `signal-hook`: a signal handler may only do async-signal-safe work (no locks, no
//! allocation, no file removal), and writing one needs `unsafe`, which this crate forbids.
//! `signal-hook` is the well-kept crate that installs a minimal handler (it writes to a
//! self-pipe) and delivers the signals to an ordinary thread through a safe iterator, where
//! taking a lock and removing files is allowed (and catches SIGXFSZ safely, see [`install`]);
//! it also re-raises a signal with its default
//! action (`emulate_default_handler`). (`ctrlc` would do for SIGINT and SIGTERM, but not SIGHUP,
//! and offers no way to die of the signal afterwards.)

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use signal_hook::consts::{SIGHUP, SIGINT, SIGPIPE, SIGQUIT, SIGTERM, SIGXFSZ};
use signal_hook::iterator::Signals;
use signal_hook::low_level::emulate_default_handler;

/// Temporary files that exist now and must go if a signal ends the process.
static TEMPORARIES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Locks the registry (a panic elsewhere does not stop the cleanup).
pub fn registry() -> MutexGuard<'static, Vec<PathBuf>> {
    TEMPORARIES.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Forgets `path` (it was renamed or deleted); the caller holds the registry's lock.
pub fn unregister(registry: &mut Vec<PathBuf>, path: &Path) {
    registry.retain(|registered| registered != path);
}

/// Starts the thread that handles SIGINT, SIGTERM, SIGHUP and SIGQUIT, and catches SIGXFSZ. Without it
/// (if installing the handlers fails) the signals keep their default action and a temporary
/// file may be left behind, but never an incomplete output under the target's name.
pub fn install() {
    // Exceeding the file-size limit (`ulimit -f`) must fail the write (EFBIG), which removes the
    // temporary file like any write error, instead of killing the process mid-write.
    let _ = signal_hook::flag::register(SIGXFSZ, Arc::new(AtomicBool::new(false)));
    // A signal the process was started with ignored stays ignored: `nohup lz4-simd ...` must
    // survive the hangup, as `lz4` (which installs no handler) does.
    let ignored = ignored_at_start();
    let handled = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
        .into_iter()
        .filter(|&signal| {
            let bit = u32::try_from(signal - 1).map_or(0, |bit| 1u64.checked_shl(bit).unwrap_or(0));
            ignored & bit == 0
        });
    let Ok(mut signals) = Signals::new(handled) else {
        return;
    };
    let spawned = std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                let registry = registry();
                for path in registry.iter() {
                    let _ = std::fs::remove_file(path);
                }
                // Dies here, still holding the lock: no rename can follow the cleanup.
                let _ = emulate_default_handler(signal);
                std::process::exit(128 + signal);
            }
        });
    drop(spawned);
}

/// The signals ignored when the process started (`nohup` ignores SIGHUP; a shell without job
/// control ignores SIGINT in background commands), as the mask Linux shows in
/// `/proc/self/status` (bit `n - 1` for signal `n`). Elsewhere none is known to be ignored.
/// (Asking `sigaction` would need `unsafe`, which this crate forbids; Rust's runtime changes
/// only SIGPIPE's disposition, which is not among those handled here.)
fn ignored_at_start() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|line| line.strip_prefix("SigIgn:"))
                .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        })
        .unwrap_or(0)
}

/// Ends the process as a write to a closed pipe would have without Rust's `SIG_IGN`: quietly,
/// killed by SIGPIPE (what `lz4 ... | head` does).
pub fn die_of_broken_pipe() -> ! {
    let _ = emulate_default_handler(SIGPIPE);
    std::process::exit(128 + SIGPIPE);
}
