//! The worker threads: one rayon pool per thread count, built on first use and kept for the
//! life of the process, and jobs whose results come back through a channel of their own.
//!
//! Two ways to hand out jobs: [`Workers::scope`] runs helpers beside the caller for the one-shot
//! functions' pipeline, and a [`Queue`] (the streaming encoder and decoder) keeps its jobs until
//! one of at most `threads - 1` workers or the caller's own thread claims it, so that `threads`
//! counts the caller's thread as the pipeline does.

use std::boxed::Box;
use std::collections::VecDeque;
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::vec::Vec;

use rayon::{ThreadPool, ThreadPoolBuilder};

/// The most worker threads a frame may use (`lz4` allows 200; more only adds blocks in flight).
pub(crate) const MAX_THREADS: usize = 256;

/// The number of worker threads `threads` asks for: 0 means one per core (as `lz4 -T0`), and
/// the count is at most [`MAX_THREADS`].
pub(crate) fn thread_count(threads: usize) -> usize {
    let threads = if threads == 0 {
        thread::available_parallelism().map_or(1, usize::from)
    } else {
        threads
    };
    threads.clamp(1, MAX_THREADS)
}

/// The most pools kept at once: a process that asks for many different thread counts keeps the
/// pools of the ones it used last, not one pool (and its threads) for every count it ever used.
const MAX_POOLS: usize = 4;

/// The pools built so far, by thread count, the one used last at the end.
type Pools = Vec<(usize, Arc<ThreadPool>)>;
static POOLS: Mutex<Pools> = Mutex::new(Vec::new());

/// The pool of `threads` workers, built the first time a frame asks for that many and shared by
/// every frame after it (while it is among the [`MAX_POOLS`] used last: an older pool's threads
/// end once the frames using it are done). `None` when the threads cannot be started (jobs
/// then run on the caller's thread).
fn pool(threads: usize) -> Option<Arc<ThreadPool>> {
    let mut pools = POOLS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(at) = pools.iter().position(|(count, _)| *count == threads) {
        let used = pools.remove(at);
        let pool = Arc::clone(&used.1);
        pools.push(used);
        return Some(pool);
    }
    let pool = ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|index| std::format!("lz4-simd-frame-{index}"))
        .build()
        .ok()
        .map(Arc::new)?;
    if pools.len() == MAX_POOLS {
        pools.remove(0);
    }
    pools.push((threads, Arc::clone(&pool)));
    Some(pool)
}

/// Where a frame's jobs run.
pub(crate) struct Workers {
    pool: Option<Arc<ThreadPool>>,
    threads: usize,
}

impl Workers {
    /// The shared pool of [`thread_count(threads)`](thread_count) workers.
    pub(crate) fn new(threads: usize) -> Self {
        let threads = thread_count(threads);
        Self {
            pool: pool(threads),
            threads,
        }
    }

    /// How many workers run jobs.
    pub(crate) fn threads(&self) -> usize {
        self.threads
    }
}

impl Workers {
    /// Runs `caller` on this thread while `helpers` workers of the pool run `helper` (each
    /// once), and returns when all have ended. The helpers may borrow from the caller's stack;
    /// `caller` must not wait for them (without a pool, or while its workers are busy with
    /// other frames, it may be all that runs). A panic of either is raised again here, once all
    /// have ended.
    pub(crate) fn scope<R>(
        &self,
        helpers: usize,
        helper: impl Fn() + Sync,
        caller: impl FnOnce() -> R,
    ) -> R {
        match &self.pool {
            Some(pool) if helpers > 0 => pool.in_place_scope(|scope| {
                let helper = &helper;
                for _ in 0..helpers {
                    scope.spawn(move |_| helper());
                }
                caller()
            }),
            _ => caller(),
        }
    }
}

/// `job` as a closure that sends its result (or its panic) to the returned [`Pending`].
fn with_result<T: Send + 'static>(
    job: impl FnOnce() -> T + Send + 'static,
) -> (impl FnOnce() + Send + 'static, Pending<T>) {
    let (sender, receiver) = mpsc::sync_channel(1);
    let run = move || {
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
        // The receiver is gone when the encoder or decoder was dropped: the result goes with
        // it.
        let _ = sender.send(result);
    };
    (run, Pending(receiver))
}

/// A job of a [`Queue`]: it runs the work and sends the result.
type QueuedJob = Box<dyn FnOnce() + Send>;

/// The jobs of a [`Queue`] no thread has claimed yet, and how many workers are claiming them.
#[derive(Default)]
struct Queued {
    jobs: VecDeque<QueuedJob>,
    helpers: usize,
}

/// Jobs run in the order they were pushed by at most `threads - 1` workers of the pool at once
/// and by the caller's thread, which claims the oldest unclaimed job (with
/// [`run_one`](Queue::run_one)) instead of waiting for a result. So `threads` threads in all
/// work on the jobs, the caller's among them, never more runnable threads than that: a worker
/// per core beside a caller that also has work to do (the content checksum, handing out the
/// content) would leave the caller waiting for a core, or (at equal real-time priority) not
/// scheduled until the workers run out of jobs, while a core sits idle once they have.
///
/// A worker claims jobs until none is left, then ends its pool job (it never waits inside the
/// pool); the next push starts another. Dropping the queue drops the jobs nobody claimed (their
/// results are not wanted) and waits for nothing.
pub(crate) struct Queue {
    workers: Workers,
    /// The most workers that claim jobs at once.
    max_helpers: usize,
    queued: Arc<Mutex<Queued>>,
}

impl Queue {
    /// A queue worked on by `threads` threads in all (0: one per core), the caller's among them.
    pub(crate) fn new(threads: usize) -> Self {
        let threads = thread_count(threads);
        let workers = if threads > 1 {
            Workers::new(threads)
        } else {
            Workers {
                pool: None,
                threads,
            }
        };
        Self {
            max_helpers: if workers.pool.is_some() {
                threads - 1
            } else {
                0
            },
            workers,
            queued: Arc::default(),
        }
    }

    /// How many threads work on the jobs, the caller's among them.
    pub(crate) fn threads(&self) -> usize {
        self.workers.threads
    }

    /// Queues `job`. A panic in it is raised again by [`Pending::wait`] /
    /// [`Pending::try_take`], on the caller's thread.
    pub(crate) fn push<T: Send + 'static>(
        &self,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Pending<T> {
        let (run, pending) = with_result(job);
        let mut queued = lock(&self.queued);
        queued.jobs.push_back(Box::new(run));
        let start = queued.helpers < self.max_helpers;
        if start {
            queued.helpers += 1;
        }
        drop(queued);
        if let (true, Some(pool)) = (start, &self.workers.pool) {
            let queued = Arc::clone(&self.queued);
            pool.spawn(move || help(&queued));
        }
        pending
    }

    /// How many jobs no thread has claimed yet.
    pub(crate) fn unclaimed(&self) -> usize {
        lock(&self.queued).jobs.len()
    }

    /// Runs the oldest job no thread has claimed on this thread. `false` if there is none.
    pub(crate) fn run_one(&self) -> bool {
        let job = lock(&self.queued).jobs.pop_front();
        job.map(|job| job()).is_some()
    }

    /// The result of `pending` (a job of this queue): the caller's thread runs unclaimed jobs
    /// (the oldest first, so `pending`'s own if nobody has claimed it) until it is there, and
    /// waits only while every job left is being run by a worker.
    pub(crate) fn wait<T>(&self, pending: Pending<T>) -> T {
        loop {
            if let Some(result) = pending.try_take() {
                return result;
            }
            if !self.run_one() {
                return pending.wait();
            }
        }
    }
}

impl Drop for Queue {
    fn drop(&mut self) {
        // Taken out of the lock before they are dropped (a job's captures may be large).
        let jobs = core::mem::take(&mut lock(&self.queued).jobs);
        drop(jobs);
    }
}

fn lock(queued: &Mutex<Queued>) -> std::sync::MutexGuard<'_, Queued> {
    queued.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A worker of a [`Queue`]: runs its jobs until none is left.
fn help(queued: &Mutex<Queued>) {
    loop {
        let job = {
            let mut queued = lock(queued);
            match queued.jobs.pop_front() {
                Some(job) => job,
                None => {
                    queued.helpers -= 1;
                    return;
                }
            }
        };
        job();
    }
}

/// A job's result, to come.
pub(crate) struct Pending<T>(Receiver<thread::Result<T>>);

impl<T> Pending<T> {
    /// A result that is there already.
    pub(crate) fn ready(value: T) -> Self {
        let (sender, receiver) = mpsc::sync_channel(1);
        let _ = sender.send(Ok(value));
        Pending(receiver)
    }

    /// Waits for the result.
    pub(crate) fn wait(self) -> T {
        unpack(self.0.recv().map_err(|_| ()))
    }

    /// The result, if the job has ended.
    pub(crate) fn try_take(&self) -> Option<T> {
        match self.0.try_recv() {
            Err(TryRecvError::Empty) => None,
            result => Some(unpack(result.map_err(|_| ()))),
        }
    }
}

fn unpack<T>(result: Result<thread::Result<T>, ()>) -> T {
    match result {
        Ok(Ok(value)) => value,
        Ok(Err(panic)) => std::panic::resume_unwind(panic),
        // Rayon runs every job it was given; a job's sender is dropped only after it sent.
        Err(()) => panic!("a frame worker ended without a result"),
    }
}

impl<T> core::fmt::Debug for Pending<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Pending")
    }
}

#[cfg(test)]
mod tests {
    use super::{pool, PoisonError, Queue, MAX_POOLS, POOLS};

    /// A queue's results come back in the order they are waited for, whichever thread ran the
    /// job (a worker, or the caller's thread claiming the oldest); a job's panic is raised when
    /// its own result is waited for, not when the caller's thread happened to run it for a later
    /// one; dropping the queue with jobs unclaimed and running neither hangs nor runs them.
    #[test]
    fn queue_results_in_order_and_panics_at_their_job() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        use std::sync::Arc;
        for threads in [1, 2, 3] {
            let queue = Queue::new(threads);
            let ran = Arc::new(AtomicUsize::new(0));
            let pending: Vec<_> = (0..40usize)
                .map(|job| {
                    let ran = Arc::clone(&ran);
                    queue.push(move || {
                        ran.fetch_add(1, Ordering::Relaxed);
                        assert!(job != 17, "job {job} fails");
                        job * 7
                    })
                })
                .collect();
            let mut pending = pending.into_iter();
            for (job, pending) in pending.by_ref().take(17).enumerate() {
                assert_eq!(queue.wait(pending), job * 7, "{threads} threads");
            }
            let failed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                queue.wait(pending.next().unwrap())
            }));
            assert!(failed.is_err(), "{threads} threads: job 17's panic");
            assert_eq!(queue.wait(pending.next().unwrap()), 18 * 7);
            // The rest are dropped unwaited, with the queue: nothing waits for them.
            let more: Vec<_> = (0..100).map(|job| queue.push(move || job)).collect();
            drop(queue);
            drop(more);
            drop(pending);
            assert!(ran.load(Ordering::Relaxed) >= 19);
        }
    }

    /// A streaming decoder whose pool's workers are all busy elsewhere (so its jobs are never
    /// claimed by a worker) decodes every block on the caller's thread: it waits for a worker
    /// only for a job a worker has claimed (`ParallelFrameDecoder::wait`), never for one nobody
    /// has started, however few are left unclaimed.
    #[test]
    fn a_streaming_decoder_ends_while_every_worker_is_busy() {
        use std::io::Read;
        use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
        use std::sync::Arc;

        use crate::frame::{self, BlockSize, FrameOptions, ParallelFrameDecoder};
        // A count no other test uses, so that blocking its workers delays nobody else.
        const THREADS: usize = 5;
        let content: Vec<u8> = (0..(3 << 20) + 12_345u32)
            .map(|i| ((i % 251) ^ (i / 4099)) as u8)
            .collect();
        for block_size in [BlockSize::Max64KB, BlockSize::Max1MB] {
            let options = FrameOptions::new()
                .block_size(block_size)
                .content_checksum(true);
            let framed = frame::compress(&content, &options);
            let pool = pool(THREADS).unwrap();
            let started = Arc::new(AtomicUsize::new(0));
            let release = Arc::new(AtomicBool::new(false));
            for _ in 0..THREADS {
                let (started, release) = (Arc::clone(&started), Arc::clone(&release));
                pool.spawn(move || {
                    started.fetch_add(1, Ordering::SeqCst);
                    while !release.load(Ordering::SeqCst) {
                        std::thread::yield_now();
                    }
                });
            }
            while started.load(Ordering::SeqCst) < THREADS {
                std::thread::yield_now();
            }
            let mut decoded = Vec::new();
            let result = ParallelFrameDecoder::new(&framed[..], THREADS).read_to_end(&mut decoded);
            release.store(true, Ordering::SeqCst);
            assert_eq!(result.unwrap(), content.len());
            assert!(decoded == content);
        }
    }

    #[test]
    fn pools_are_reused_and_bounded() {
        let first = pool(3).unwrap();
        assert!(std::sync::Arc::ptr_eq(&first, &pool(3).unwrap()));
        for threads in 1..=20 {
            let _ = pool(threads);
            let pools = POOLS.lock().unwrap_or_else(PoisonError::into_inner);
            assert!(pools.len() <= MAX_POOLS);
            // (Other tests may use pools meanwhile: at most three other counts.)
            assert!(pools.iter().any(|(count, _)| *count == threads));
        }
        // A pool dropped from the list still serves whoever holds it.
        assert_eq!(first.install(|| 7), 7);
    }
}
