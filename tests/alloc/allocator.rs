//! The global allocator of this binary, shared by its modules. Three layers, each per thread (the
//! tests run on several threads at once, and each measures or limits only its own):
//!
//! - refusal: allocations (and reallocations) above the limit set by [`refusing_above`] fail
//!   (return null, as `GlobalAlloc` allows), for `read_to_end_oom`;
//! - counting: while [`measure`] runs, the bytes allocated, their peak and the largest block, for
//!   `cap`. A `realloc` that grows counts the new block while the old one is still live (the
//!   allocator may copy); one that shrinks counts the smaller size (allocators shrink in place);
//! - `testkit::alloc::LargestAllocation` underneath, the largest allocation for
//!   `testkit::alloc::largest_allocation`, for `block`.

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;

use testkit::alloc::LargestAllocation;

#[derive(Debug, Clone, Copy)]
struct Stats {
    on: bool,
    live: isize,
    peak: isize,
    largest: usize,
}

impl Stats {
    const OFF: Stats = Stats {
        on: false,
        live: 0,
        peak: 0,
        largest: 0,
    };
}

thread_local! {
    static STATS: Cell<Stats> = const { Cell::new(Stats::OFF) };
    /// Allocations of more than this many bytes are refused on this thread; 0: none are.
    static REFUSE_ABOVE: Cell<usize> = const { Cell::new(0) };
}

/// Counts `change` more bytes live (`transient`: also live, but only for the moment),
/// `new_block` bytes in one allocation.
fn note(change: isize, transient: isize, new_block: usize) {
    let _ = STATS.try_with(|cell| {
        let mut stats = cell.get();
        if stats.on {
            stats.peak = stats.peak.max(stats.live + transient.max(change));
            stats.live += change;
            stats.largest = stats.largest.max(new_block);
            cell.set(stats);
        }
    });
}

fn refused(size: usize) -> bool {
    REFUSE_ABOVE
        .try_with(|limit| limit.get() != 0 && size > limit.get())
        .unwrap_or(false)
}

pub struct Shared;

// SAFETY: every call forwards to `LargestAllocation` (which forwards to `System`) with the
// caller's arguments, whose contracts are the caller's, or returns null, which `GlobalAlloc`
// allows for a refused allocation; the counting only reads sizes and touches const-initialised
// thread locals of `Cell`s (no allocation).
unsafe impl GlobalAlloc for Shared {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if refused(layout.size()) {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's contract is `LargestAllocation.alloc`'s.
        let ptr = unsafe { LargestAllocation.alloc(layout) };
        if !ptr.is_null() {
            note(layout.size() as isize, 0, layout.size());
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if refused(layout.size()) {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's contract is `LargestAllocation.alloc_zeroed`'s.
        let ptr = unsafe { LargestAllocation.alloc_zeroed(layout) };
        if !ptr.is_null() {
            note(layout.size() as isize, 0, layout.size());
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is `LargestAllocation.dealloc`'s; `ptr` came from it.
        unsafe { LargestAllocation.dealloc(ptr, layout) };
        note(-(layout.size() as isize), 0, 0);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if refused(new_size) {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's contract is `LargestAllocation.realloc`'s; `ptr` came from it.
        let new = unsafe { LargestAllocation.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            let old = layout.size();
            if new_size > old {
                // Growing may copy: both blocks are live for a moment.
                note(
                    new_size as isize - old as isize,
                    new_size as isize,
                    new_size,
                );
            } else {
                note(new_size as isize - old as isize, 0, 0);
            }
        }
        new
    }
}

#[global_allocator]
static ALLOCATOR: Shared = Shared;

/// What `f` allocated on this thread: the largest single allocation and the peak of live bytes
/// above what was live before (what `f` returns is still live at the end, so it counts).
pub fn measure<R>(f: impl FnOnce() -> R) -> (R, usize, usize) {
    STATS.with(|cell| {
        cell.set(Stats {
            on: true,
            ..Stats::OFF
        })
    });
    let result = f();
    let stats = STATS.with(|cell| cell.replace(Stats::OFF));
    (result, stats.largest, stats.peak.max(0) as usize)
}

/// Runs `f` with allocations of more than `limit` bytes refused on this thread.
pub fn refusing_above<R>(limit: usize, f: impl FnOnce() -> R) -> R {
    REFUSE_ABOVE.with(|cell| cell.set(limit));
    let result = f();
    REFUSE_ABOVE.with(|cell| cell.set(0));
    result
}
