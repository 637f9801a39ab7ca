//! `frame::decompress_parallel` allocates within the caller's cap, as `frame::decompress` does:
//! a counting global allocator (all threads: the workers decode too) records the peak of live
//! memory while it decodes legacy, linked, mixed and dictionary streams under caps below, at
//! and above the content size, and the peak may exceed the cap by [`SLACK`] at most; the result
//! (content or error, variant and offset) is `frame::decompress`'s.
//!
//! Before 2026-12-07 (commit e4b91a7), streams with a legacy or linked frame went through the
//! streaming decoder, which decoded a whole block into a buffer of its own before the cap was
//! checked: with a cap of 100 bytes a 33 KB legacy input (8 MiB of content) took 8.4 MB, and a
//! linked frame of 4 MiB blocks took the cap plus a block; independent blocks with a dictionary
//! were decoded behind a copy of it in a buffer of the block's size per thread.
//!
//! A binary of its own, with its own allocator: the counts are of every thread (the workers
//! allocate too), so no other test may run beside these; they also run one at a time
//! ([`serial`]). `tests/alloc` counts per thread, with its tests running at once.
#![cfg(feature = "parallel")]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use lz4_simd::frame::{self, BlockMode, BlockSize, FrameOptions};
use testkit::samples;

/// What the decoder may use beyond the cap: `frame::decompress`'s own slack (an error message's
/// look at the data, small allocations, the parser's state) and the parallel path's plan and
/// pipeline; far below one block of the streams here (4 MiB, legacy 8 MiB).
const SLACK: usize = 320 << 10;

static ON: AtomicBool = AtomicBool::new(false);
static LIVE: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicIsize = AtomicIsize::new(0);
/// One test at a time: the counts are global, and another test's allocations would count.
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Counts `change` more bytes live, and `transient` live for the moment (a growing `realloc`).
fn note(change: isize, transient: isize) {
    if ON.load(Ordering::Relaxed) {
        let live = LIVE.fetch_add(change, Ordering::Relaxed);
        PEAK.fetch_max(live + transient.max(change), Ordering::Relaxed);
    }
}

struct Counting;

// SAFETY: every call is passed to `System` unchanged; the counting only reads sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is `System.alloc`'s.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            note(layout.size() as isize, 0);
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is `System.alloc_zeroed`'s.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            note(layout.size() as isize, 0);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is `System.dealloc`'s.
        unsafe { System.dealloc(ptr, layout) };
        note(-(layout.size() as isize), 0);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract is `System.realloc`'s.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            let old = layout.size();
            // Growing may copy: both blocks are live for a moment.
            let transient = if new_size > old { new_size as isize } else { 0 };
            note(new_size as isize - old as isize, transient);
        }
        new
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// What `f` returns, and the peak of live bytes above what was live before (counted on every
/// thread; what `f` returns is still live at the end, so it counts).
fn measure<R>(f: impl FnOnce() -> R) -> (R, usize) {
    // Buffers the parallel decoders keep for the next ones would be freed inside (or not).
    frame::release_parallel_buffers();
    LIVE.store(0, Ordering::Relaxed);
    PEAK.store(0, Ordering::Relaxed);
    ON.store(true, Ordering::Relaxed);
    let result = f();
    ON.store(false, Ordering::Relaxed);
    (result, PEAK.load(Ordering::Relaxed).max(0) as usize)
}

/// Caps well below, just below, at and above `len`.
fn caps(len: usize) -> [usize; 5] {
    [100, len - 1, len, len + 1, len + len / 2]
}

/// Decodes `framed` with `decompress_parallel` on 1, 2 and 3 threads under every cap: the peak
/// stays within the cap and [`SLACK`], and the result is `frame::decompress`'s.
fn check(name: &str, framed: &[u8], expected: &[u8]) {
    // The pools are built (and kept) before anything is counted.
    for threads in [1, 2, 3] {
        let _ = frame::decompress_parallel(b"", 0, threads);
    }
    for cap in caps(expected.len()) {
        let sequential = frame::decompress(framed, cap);
        assert_eq!(
            sequential.is_ok(),
            cap >= expected.len(),
            "{name}, cap {cap}: {sequential:?}"
        );
        for threads in [1, 2, 3] {
            let (result, peak) = measure(|| frame::decompress_parallel(framed, cap, threads));
            assert!(
                peak <= cap + SLACK,
                "{name}, cap {cap}, {threads} threads: {peak} bytes live at the peak \
                 (allowed: {})",
                cap + SLACK
            );
            match (&result, &sequential) {
                (Ok(out), Ok(_)) => {
                    assert!(out == expected, "{name}, cap {cap}, {threads} threads")
                }
                _ => assert_eq!(result, sequential, "{name}, cap {cap}, {threads} threads"),
            }
        }
    }
}

/// A legacy frame (8 MiB blocks): 8 MiB of content in 33 KB, and 3 MiB of log lines.
#[test]
fn legacy_frames_stay_within_the_cap() {
    let _serial = serial();
    let zeros = vec![0u8; 8 << 20];
    let framed = frame::compress_legacy(&zeros, 1);
    assert!(framed.len() < 40_000, "{}", framed.len());
    check("legacy, 8 MiB of zeros", &framed, &zeros);
    let data = samples::tenfold_logs(3 << 20, 1);
    check("legacy, 3 MiB", &frame::compress_legacy(&data, 1), &data);
}

/// Linked 4 MiB blocks, with and without a declared content size, and a stream that mixes an
/// independent frame with a linked one.
#[test]
fn linked_frames_stay_within_the_cap() {
    let _serial = serial();
    let data = samples::tenfold_logs(10 << 20, 2);
    let linked = FrameOptions::new()
        .block_size(BlockSize::Max4MB)
        .block_mode(BlockMode::Linked);
    check("linked", &frame::compress(&data, &linked), &data);
    check(
        "linked, content size",
        &frame::compress(&data, &linked.clone().content_size(true)),
        &data,
    );
    let half = data.len() / 2;
    let independent = FrameOptions::new().block_size(BlockSize::Max4MB);
    let mut mixed = frame::compress(&data[..half], &independent);
    mixed.extend(frame::compress(&data[half..], &linked));
    check("independent then linked", &mixed, &data);
}

/// Independent 4 MiB blocks with a dictionary: each decoded in its place in the output.
#[test]
fn independent_frames_with_a_dictionary_stay_within_the_cap() {
    let _serial = serial();
    let dict = samples::tenfold_logs(100_000, 3);
    let data = samples::tenfold_logs(10 << 20, 4);
    let options = FrameOptions::new()
        .block_size(BlockSize::Max4MB)
        .dict_id(Some(7));
    let framed = frame::compress_with_dictionary(&data, &dict, &options);
    for threads in [1, 2, 3] {
        let _ = frame::decompress_parallel(b"", 0, threads);
    }
    for cap in caps(data.len()) {
        let sequential = frame::decompress_with_dictionary(&framed, &dict, 7, cap);
        for threads in [1, 2, 3] {
            let (result, peak) = measure(|| {
                frame::decompress_parallel_with_dictionary(&framed, &dict, 7, cap, threads)
            });
            assert!(
                peak <= cap + SLACK,
                "cap {cap}, {threads} threads: {peak} bytes live at the peak (allowed: {})",
                cap + SLACK
            );
            assert_eq!(result, sequential, "cap {cap}, {threads} threads");
        }
    }
}

/// Independent 4 MiB blocks (the planned path) under caps below the content, under a header
/// that declares far more than the cap, and 20 000 two-byte blocks of one byte each (a region
/// planned per block, more gaps than the planned path keeps): within the cap, with
/// `frame::decompress`'s result.
#[test]
fn independent_frames_and_hostile_headers_stay_within_the_cap() {
    let _serial = serial();
    let zeros = vec![0u8; 12 << 20];
    let options = FrameOptions::new().block_size(BlockSize::Max4MB);
    let framed = frame::compress(&zeros, &options);
    check("independent, 12 MiB of zeros", &framed, &zeros);
    // The same frame declaring 1 TiB: the field added to the 7-byte header.
    let mut huge = framed[..4].to_vec();
    huge.extend_from_slice(&[framed[4] | 0x08, framed[5]]);
    huge.extend_from_slice(&(1u64 << 40).to_le_bytes());
    huge.push((xxhash_rust::xxh32::xxh32(&huge[4..], 0) >> 8) as u8);
    huge.extend_from_slice(&framed[7..]);
    for cap in [100, 20 << 20] {
        let (result, peak) = measure(|| frame::decompress_parallel(&huge, cap, 2));
        assert!(peak <= cap + SLACK, "declared 1 TiB, cap {cap}: {peak}");
        assert_eq!(
            result,
            frame::decompress(&huge, cap),
            "declared 1 TiB, cap {cap}"
        );
    }
    let mut tiny = frame::compress(b"", &options.content_checksum(false));
    tiny.truncate(tiny.len() - 4);
    for _ in 0..20_000 {
        tiny.extend_from_slice(&[2, 0, 0, 0, 0x10, b'a']);
    }
    tiny.extend_from_slice(&[0; 4]);
    check("20 000 one-byte blocks", &tiny, &[b'a'; 20_000]);
}
