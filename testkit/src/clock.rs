//! The interleaved benches' clock: wall time by default; with `LZ4_SIMD_BENCH_CLOCK=cpu`, the
//! calling thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`), which leaves out the time the thread
//! waits while other processes run: on a machine shared with other work (builds, other
//! benches), the time-slicing then falls outside the measurement instead of into whichever
//! contender ran when it happened. What it cannot leave out is the caches those other processes
//! cool, so a quiet machine and wall time remain the reference figures.
//!
//! Why `libc` and not a crate for it: one `clock_gettime` call; `std` has no thread CPU clock.

use std::time::{Duration, Instant};

/// A point on the chosen clock.
#[derive(Clone, Copy)]
pub enum Stamp {
    Wall(Instant),
    Cpu(Duration),
}

/// Whether `LZ4_SIMD_BENCH_CLOCK=cpu` asks for the thread's CPU time.
pub fn cpu_clock() -> bool {
    std::env::var("LZ4_SIMD_BENCH_CLOCK").is_ok_and(|v| v == "cpu")
}

/// The name of the clock in use, for the benches' headers.
pub fn name() -> &'static str {
    if cpu_clock() {
        "thread CPU time"
    } else {
        "wall time"
    }
}

/// The calling thread's CPU time.
#[cfg(unix)]
fn thread_cpu_time() -> Duration {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid, writable timespec; the clock id is a constant the C library
    // knows.
    let code = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    assert_eq!(code, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

#[cfg(not(unix))]
fn thread_cpu_time() -> Duration {
    panic!("LZ4_SIMD_BENCH_CLOCK=cpu needs a Unix thread CPU clock")
}

impl Stamp {
    /// Now, on the clock `LZ4_SIMD_BENCH_CLOCK` chooses.
    pub fn now() -> Self {
        if cpu_clock() {
            Stamp::Cpu(thread_cpu_time())
        } else {
            Stamp::Wall(Instant::now())
        }
    }

    /// Seconds since this stamp, on its clock.
    pub fn elapsed_secs(self) -> f64 {
        match self {
            Stamp::Wall(start) => start.elapsed().as_secs_f64(),
            Stamp::Cpu(start) => (thread_cpu_time() - start).as_secs_f64(),
        }
    }
}
