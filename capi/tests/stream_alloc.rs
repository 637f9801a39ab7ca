//! `LZ4_decompress_safe_continue` allocates by the history it copies, not by the output's
//! capacity: a caller may pass the whole of a large output buffer as `dstCapacity`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::os::raw::{c_char, c_int};
use std::sync::atomic::{AtomicUsize, Ordering};

use lz4_simd_capi as ours;

/// The system allocator, recording the largest allocation since the last reset.
struct Largest;

static LARGEST: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed to the system allocator unchanged.
unsafe impl GlobalAlloc for Largest {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's contract, passed on.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's contract, passed on.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LARGEST.fetch_max(new_size, Ordering::Relaxed);
        // SAFETY: the caller's contract, passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Largest = Largest;

#[test]
fn two_segment_history_with_a_large_capacity() {
    let text: Vec<u8> = b"a stream of lines, line after line, in blocks that link\n"
        .iter()
        .copied()
        .cycle()
        .take(3000)
        .collect();
    let (first, second) = text.split_at(1000);
    // Three linked blocks: the dictionary (1000 bytes), then two blocks that reference it.
    let dict = first;
    let prepared = lz4_simd::block::Dictionary::new(dict);
    let mut stream = lz4_simd::block::StreamCompressor::with_prepared_dictionary(&prepared);
    let blocks: Vec<Vec<u8>> = second
        .chunks(1000)
        .map(|chunk| {
            let mut out = vec![0u8; lz4_simd::block::compress_bound(chunk.len())];
            let n = stream.compress_into(chunk, &mut out, 1).unwrap();
            out.truncate(n);
            out
        })
        .collect();
    // The output: a large buffer, zeroed lazily by the system (its pages are not touched).
    const CAP: usize = 256 << 20;
    let mut out = vec![0u8; CAP];
    let mut state = [0u64; 4];
    let s = state.as_mut_ptr().cast();
    // SAFETY: a 32-byte state; the dictionary and the output stay in place; every capacity
    // passed is within `out`.
    unsafe {
        assert_eq!(
            ours::LZ4_setStreamDecode(s, dict.as_ptr().cast(), dict.len() as c_int),
            1
        );
        // Elsewhere than after the dictionary: the dictionary becomes the older segment.
        let p = out.as_mut_ptr().cast::<c_char>();
        let n = ours::LZ4_decompress_safe_continue(
            s,
            blocks[0].as_ptr().cast(),
            p,
            blocks[0].len() as c_int,
            1000,
        );
        assert_eq!(n, 1000);
        // Right after it: history in two segments, and the rest of the buffer as capacity.
        LARGEST.store(0, Ordering::Relaxed);
        let m = ours::LZ4_decompress_safe_continue(
            s,
            blocks[1].as_ptr().cast(),
            p.add(1000),
            blocks[1].len() as c_int,
            (CAP - 1000) as c_int,
        );
        let largest = LARGEST.load(Ordering::Relaxed);
        assert_eq!(m, 1000);
        assert_eq!(&out[..2000], second);
        assert!(
            largest <= 1 << 20,
            "a {largest}-byte allocation for a 1000-byte block"
        );
    }
}
