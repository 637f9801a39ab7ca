//! An ordered pipeline for the one-shot functions: jobs handed out in order by a source, worked
//! on by whichever thread claims them (the caller's thread and the pool's helpers), and their
//! results taken in order by the caller's thread, which works on jobs itself while the next
//! result is not ready. At most `window` jobs are claimed and not taken, which bounds the memory
//! the results hold.
//!
//! [`ordered`] runs one within a [`Workers::scope`]: the helpers run
//! [`help`](Pipeline::help), the caller's thread holds [`stop_on_drop`](Pipeline::stop_on_drop)
//! and [`take`](Pipeline::take)s results. A job that panics stops the pipeline, and its panic is
//! raised again on the caller's thread (by `take`), so nothing waits forever. The caller's thread never waits for a helper to start: a job nobody
//! claimed is one it works on, so the pipeline ends even when every worker of the pool is busy
//! with other frames. Helpers wait (on a condition variable) only while the window is full,
//! which the caller's thread empties.

use std::any::Any;
use std::boxed::Box;
use std::collections::VecDeque;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

use super::pool::Workers;

/// See the [module documentation](self).
pub(crate) struct Pipeline<S, J, T> {
    state: Mutex<State<S, T>>,
    /// A result was filed or taken, or the pipeline stopped.
    changed: Condvar,
    window: usize,
    job: core::marker::PhantomData<fn() -> J>,
}

struct State<S, T> {
    /// Hands out the jobs, in order (`None`: no more).
    source: S,
    /// Jobs claimed so far, and results taken so far.
    claimed: usize,
    taken: usize,
    /// The jobs claimed and not taken, in order (`None` while being worked on): `slots[i]` is
    /// job `taken + i`.
    slots: VecDeque<Option<T>>,
    /// No more jobs are handed out.
    stop: bool,
    /// The pipeline was stopped before its end (a job panicked, or the caller's thread left):
    /// nothing is wanted of it any more, not even `idle` work.
    halted: bool,
    /// Threads waiting on `changed` (no wake-up call when none is).
    waiting: usize,
    /// A job panicked: the panic, for the caller's thread to raise again.
    panic: Option<Box<dyn Any + Send>>,
}

impl<S, J, T> Pipeline<S, J, T>
where
    S: FnMut() -> Option<J>,
{
    /// A pipeline of the jobs `source` hands out, at most `window` (at least 1) ahead of the
    /// caller.
    pub(crate) fn new(source: S, window: usize) -> Self {
        Self {
            state: Mutex::new(State {
                source,
                claimed: 0,
                taken: 0,
                slots: VecDeque::new(),
                stop: false,
                halted: false,
                waiting: 0,
                panic: None,
            }),
            changed: Condvar::new(),
            window: window.max(1),
            job: core::marker::PhantomData,
        }
    }

    fn lock(&self) -> MutexGuard<'_, State<S, T>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn wait<'g>(&self, mut guard: MutexGuard<'g, State<S, T>>) -> MutexGuard<'g, State<S, T>> {
        guard.waiting += 1;
        let mut guard = self
            .changed
            .wait(guard)
            .unwrap_or_else(PoisonError::into_inner);
        guard.waiting -= 1;
        guard
    }

    /// Wakes the waiting threads, if any (`state` is released first).
    fn changed(&self, state: MutexGuard<'_, State<S, T>>) {
        let waiting = state.waiting > 0;
        drop(state);
        if waiting {
            self.changed.notify_all();
        }
    }

    /// Claims the next job, if the window allows one and the source has one.
    fn claim(&self, state: &mut State<S, T>) -> Option<(usize, J)> {
        if state.stop || state.claimed - state.taken >= self.window {
            return None;
        }
        let Some(job) = (state.source)() else {
            state.stop = true;
            return None;
        };
        let index = state.claimed;
        state.claimed += 1;
        state.slots.push_back(None);
        Some((index, job))
    }

    /// Works on a claimed job and files its result. A panic stops the pipeline (nobody waits
    /// for a result that will not come) and is kept for the caller's thread.
    fn run<C>(&self, (index, job): (usize, J), work: &impl Fn(J, &mut C) -> T, context: &mut C) {
        let result = panic::catch_unwind(AssertUnwindSafe(|| work(job, context)));
        let mut state = self.lock();
        match result {
            Ok(result) => {
                let at = index - state.taken;
                if let Some(slot) = state.slots.get_mut(at) {
                    *slot = Some(result);
                }
            }
            Err(payload) => {
                state.stop = true;
                state.halted = true;
                state.panic.get_or_insert(payload);
            }
        }
        self.changed(state);
    }

    /// A helper: works on jobs until none is left or the pipeline stops, and on `idle` work
    /// whenever it has no job (see [`ordered`]).
    pub(crate) fn help<C: Default>(
        &self,
        work: &impl Fn(J, &mut C) -> T,
        idle: &impl Fn() -> bool,
    ) {
        let mut context = C::default();
        loop {
            let mut state = self.lock();
            let mut idle_tried = false;
            let claimed = loop {
                if let Some(claimed) = self.claim(&mut state) {
                    break claimed;
                }
                if state.halted {
                    return;
                }
                if !idle_tried {
                    drop(state);
                    idle_tried = !idle();
                    state = self.lock();
                    continue;
                }
                if state.stop {
                    return;
                }
                // The window is full: the caller's thread empties it.
                state = self.wait(state);
                idle_tried = false;
            };
            drop(state);
            self.run(claimed, work, &mut context);
        }
    }

    /// The next result, in order (the caller's thread): waits for it, working on jobs (or on
    /// `idle` work) meanwhile. `None` when no job is left.
    pub(crate) fn take<C>(
        &self,
        work: &impl Fn(J, &mut C) -> T,
        idle: &impl Fn() -> bool,
        context: &mut C,
    ) -> Option<T> {
        let mut state = self.lock();
        let mut idle_tried = false;
        loop {
            if let Some(payload) = state.panic.take() {
                drop(state);
                panic::resume_unwind(payload);
            }
            if let Some(Some(_)) = state.slots.front() {
                let result = state.slots.pop_front().flatten();
                state.taken += 1;
                self.changed(state);
                return result;
            }
            if let Some(claimed) = self.claim(&mut state) {
                drop(state);
                self.run(claimed, work, context);
                state = self.lock();
                continue;
            }
            if state.slots.is_empty() {
                return None;
            }
            if !idle_tried {
                drop(state);
                idle_tried = !idle();
                state = self.lock();
                continue;
            }
            state = self.wait(state);
            idle_tried = false;
        }
    }

    /// Hands out no more jobs, and no more `idle` work: helpers end after the job (or the piece
    /// of idle work) they are working on. The caller's thread holds this from the start, so that
    /// its own panic ends the helpers too.
    pub(crate) fn stop_on_drop(&self) -> StopOnDrop<'_, S, J, T> {
        StopOnDrop(self)
    }
}

/// Stops the pipeline when dropped; see [`Pipeline::stop_on_drop`].
pub(crate) struct StopOnDrop<'p, S, J, T>(&'p Pipeline<S, J, T>);

impl<S, J, T> Drop for StopOnDrop<'_, S, J, T> {
    fn drop(&mut self) {
        let mut state = self.0.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.stop = true;
        state.halted = true;
        let waiting = state.waiting > 0;
        drop(state);
        if waiting {
            self.0.changed.notify_all();
        }
    }
}

/// Runs the jobs `source` hands out on `threads` threads (0: one per core), the caller's among
/// them, at most `ahead × threads` ahead (jobs claimed and not taken): `caller` runs on this thread and gets `next`, which
/// returns the results in order (`None` once all are taken), working on jobs meanwhile. Each
/// thread works with a context of its own (`C::default()` first).
///
/// A thread that has no job to work on (none left to claim, or the window full) calls `idle`
/// before it waits or ends: work that is not a job (the content checksum, which must run in
/// order), done a piece at a time; `idle` returns whether it did some (it is called again
/// then). The last jobs otherwise leave threads with nothing to do while the others end theirs.
/// Once the pipeline is halted (a job panicked, or `caller` returned or panicked), `idle` is not
/// called again: a helper ends after the piece it is doing, instead of doing all that is left
/// (the rest of the content checksum) for a result nobody takes.
pub(crate) fn ordered<S, J, T, C, R>(
    threads: usize,
    ahead: usize,
    source: S,
    work: impl Fn(J, &mut C) -> T + Sync,
    idle: impl Fn() -> bool + Sync,
    caller: impl FnOnce(&mut dyn FnMut() -> Option<T>) -> R,
) -> R
where
    S: FnMut() -> Option<J> + Send,
    T: Send,
    C: Default,
{
    let workers = Workers::new(threads);
    let pipeline = Pipeline::new(source, ahead * workers.threads());
    workers.scope(
        workers.threads() - 1,
        || pipeline.help(&work, &idle),
        || {
            // The helpers end (after their job) however the caller's thread leaves.
            let _stop = pipeline.stop_on_drop();
            let mut context = C::default();
            caller(&mut || pipeline.take(&work, &idle, &mut context))
        },
    )
}

#[cfg(test)]
mod tests {
    use std::vec::Vec;

    use super::ordered;

    /// Idle work is done in pieces by threads without a job, beside the jobs, and never
    /// stops the results from coming in order.
    #[test]
    fn idle_work_fills_the_gaps() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        for threads in [1, 2, 3, 7] {
            let pieces = AtomicUsize::new(0);
            let idle = || {
                pieces
                    .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |done| {
                        (done < 1000).then_some(done + 1)
                    })
                    .is_ok()
            };
            let mut next = 0;
            let source = move || {
                next += 1;
                (next <= 100).then_some(next - 1)
            };
            let taken = ordered(
                threads,
                2,
                source,
                |job: usize, _: &mut ()| job * 3,
                idle,
                |next| {
                    let mut taken = Vec::new();
                    while let Some(result) = next() {
                        taken.push(result);
                    }
                    taken
                },
            );
            assert_eq!(taken, (0..100).map(|job| job * 3).collect::<Vec<_>>());
            // Whatever is left is the caller's to finish (the checksum's `finish`).
            assert!(pieces.load(Ordering::Relaxed) <= 1000);
        }
    }

    /// Once a job has panicked, idle work stops: helpers end after the piece they are on,
    /// instead of doing all that is left (the encoder's content checksum of the rest of the
    /// input). The failing job waits until idle work has started (on a helper or on the caller's
    /// thread), so the pipeline has halted while most of it is left; without the check, it
    /// would all be done before the helpers end.
    #[test]
    fn idle_work_stops_when_the_pipeline_halts() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        const PIECES: usize = 1 << 20;
        for threads in [2, 3, 7] {
            let pieces = AtomicUsize::new(0);
            // Each piece takes a few microseconds, so that the time the failing job takes to
            // unwind (a backtrace printed first, with RUST_BACKTRACE set) is worth few pieces
            // whatever the build's optimisation: an atomic increment alone ran 11 million
            // pieces in that time at opt-level 2.
            let idle = || {
                let took = pieces
                    .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |done| {
                        (done < PIECES).then_some(done + 1)
                    })
                    .is_ok();
                if took {
                    for _ in 0..1000 {
                        std::hint::spin_loop();
                    }
                }
                took
            };
            let mut next = 0;
            let source = move || {
                next += 1;
                (next <= 1).then_some(())
            };
            let work = |(), _: &mut ()| {
                while pieces.load(Ordering::Relaxed) == 0 {
                    std::thread::yield_now();
                }
                panic!("the job fails");
            };
            let failed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                ordered(
                    threads,
                    2,
                    source,
                    work,
                    idle,
                    |next| while next().is_some() {},
                )
            }));
            assert!(failed.is_err(), "{threads} threads");
            // Far from all: each thread stops after the piece it was on when the job failed.
            let done = pieces.load(Ordering::Relaxed);
            assert!(done < PIECES / 2, "{threads} threads: {done} pieces");
        }
    }

    /// Runs 100 jobs (squares) on `threads` threads; `bad` panics. Returns the results taken.
    fn run(threads: usize, bad: Option<usize>) -> Vec<usize> {
        let mut next = 0;
        let source = move || {
            next += 1;
            (next <= 100).then_some(next - 1)
        };
        let work = |job: usize, _: &mut ()| {
            assert!(Some(job) != bad, "job {job} fails");
            job * job
        };
        ordered(
            threads,
            2,
            source,
            work,
            || false,
            |next| {
                let mut taken = Vec::new();
                while let Some(result) = next() {
                    taken.push(result);
                }
                taken
            },
        )
    }

    #[test]
    fn results_come_in_order() {
        for threads in [1, 2, 3, 7] {
            let expected: Vec<usize> = (0..100).map(|job| job * job).collect();
            assert_eq!(run(threads, None), expected);
        }
    }

    #[test]
    fn a_panicking_job_is_raised_on_the_caller_and_nothing_hangs() {
        for threads in [1, 2, 3, 7] {
            for bad in [0, 1, 50, 99] {
                let result = std::panic::catch_unwind(|| run(threads, Some(bad)));
                assert!(result.is_err(), "{threads} threads, job {bad}");
            }
        }
    }
}
