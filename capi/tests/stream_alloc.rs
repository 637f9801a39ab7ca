//! `LZ4_decompress_safe_continue` allocates by the history it copies, not by the output's
//! capacity: a caller may pass the whole of a large output buffer as `dstCapacity`. The
//! streaming compressor allocates nothing at all (its state is the caller's `LZ4_stream_t`); the HC
//! streaming compressor allocates by its inputs only (its working memory once per thread).

use std::alloc::{GlobalAlloc, Layout, System};
use std::os::raw::{c_char, c_int};
use std::sync::atomic::{AtomicUsize, Ordering};

use lz4_simd_capi as ours;

/// The system allocator, recording the largest allocation since the last reset, made by a
/// thread that records (the test's own: the harness allocates on its threads meanwhile).
struct Largest;

thread_local! {
    static RECORDING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether this thread's allocations are recorded.
fn recording() -> bool {
    RECORDING.try_with(std::cell::Cell::get).unwrap_or(false)
}

/// Records this thread's allocations from now on.
fn record_this_thread() {
    RECORDING.with(|recording| recording.set(true));
}

static LARGEST: AtomicUsize = AtomicUsize::new(0);
/// The number of allocations (and reallocations).
static COUNT: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed to the system allocator unchanged.
unsafe impl GlobalAlloc for Largest {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if recording() {
            COUNT.fetch_add(1, Ordering::Relaxed);
            LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        }
        // SAFETY: the caller's contract, passed on.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if recording() {
            COUNT.fetch_add(1, Ordering::Relaxed);
            LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        }
        // SAFETY: the caller's contract, passed on.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if recording() {
            COUNT.fetch_add(1, Ordering::Relaxed);
            LARGEST.fetch_max(new_size, Ordering::Relaxed);
        }
        // SAFETY: the caller's contract, passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Largest = Largest;

/// One test at a time: the record is the process's.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn two_segment_history_with_a_large_capacity() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    record_this_thread();
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

#[test]
fn every_function_with_a_large_capacity() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    record_this_thread();
    let src: Vec<u8> = b"one block of text, compressed and decoded, with a long output buffer\n"
        .iter()
        .copied()
        .cycle()
        .take(5000)
        .collect();
    let dict = &src[..2000];
    let plain = lz4_simd::block::compress(&src).unwrap();
    let with_dict = lz4_simd::block::compress_with_dictionary(&src, dict, 1).unwrap();
    const CAP: usize = 256 << 20;
    let mut buf = vec![0u8; CAP + 65536];
    let (hist, out) = buf.split_at_mut(65536);
    let p = out.as_mut_ptr().cast::<c_char>();
    let cap = CAP as c_int;
    let n = src.len() as c_int;
    let check = |what: &str, r: c_int, expect: c_int| {
        let largest = LARGEST.swap(0, Ordering::Relaxed);
        assert_eq!(r, expect, "{what}");
        assert!(largest <= 1 << 20, "{what}: a {largest}-byte allocation");
    };
    let mut state = vec![0u64; ours::STREAM_HC_SIZE / 8];
    let st = state.as_mut_ptr().cast();
    // SAFETY: every buffer is valid for the length passed with it; the 64 KiB before `out` are
    // readable.
    unsafe {
        let (b, bl) = (plain.as_ptr().cast(), plain.len() as c_int);
        let (d, dl) = (with_dict.as_ptr().cast(), with_dict.len() as c_int);
        let (k, kl) = (dict.as_ptr().cast(), dict.len() as c_int);
        LARGEST.store(0, Ordering::Relaxed);
        check("safe", ours::LZ4_decompress_safe(b, p, bl, cap), n);
        check(
            "partial",
            ours::LZ4_decompress_safe_partial(b, p, bl, cap, cap),
            n,
        );
        check(
            "usingDict",
            ours::LZ4_decompress_safe_usingDict(d, p, dl, cap, k, kl),
            n,
        );
        check(
            "partial_usingDict",
            ours::LZ4_decompress_safe_partial_usingDict(d, p, dl, cap, cap, k, kl),
            n,
        );
        check(
            "forceExtDict",
            ours::LZ4_decompress_safe_forceExtDict(d, p, dl, cap, k.cast(), dict.len()),
            n,
        );
        check(
            "withPrefix64k",
            ours::LZ4_decompress_safe_withPrefix64k(b, p, bl, cap),
            n,
        );
        hist[65536 - dict.len()..].copy_from_slice(dict);
        let adjacent = hist.as_ptr().add(65536 - dict.len()).cast();
        check(
            "usingDict, adjacent",
            ours::LZ4_decompress_safe_usingDict(d, p, dl, cap, adjacent, kl),
            n,
        );
        let mut sd = [0u64; 4];
        let s = sd.as_mut_ptr().cast();
        ours::LZ4_setStreamDecode(s, adjacent, kl);
        check(
            "continue, prefix",
            ours::LZ4_decompress_safe_continue(s, d, p, dl, cap),
            n,
        );
        ours::LZ4_setStreamDecode(s, k, kl);
        check(
            "continue, elsewhere",
            ours::LZ4_decompress_safe_continue(s, d, p, dl, cap),
            n,
        );
        let s0 = src.as_ptr().cast();
        LARGEST.store(0, Ordering::Relaxed);
        let r = ours::LZ4_compress_fast(s0, p, n, cap, 1);
        check("compress_fast", r, plain.len() as c_int);
        let r = ours::LZ4_compress_fast_extState(st, s0, p, n, cap, 1);
        check("compress_fast_extState", r, plain.len() as c_int);
        for level in [2, 9, 12] {
            let r = ours::LZ4_compress_HC(s0, p, n, cap, level);
            let largest = LARGEST.swap(0, Ordering::Relaxed);
            assert!(r > 0);
            // The HC tables themselves are allocated once per thread; nothing by capacity.
            assert!(
                largest < 64 << 20,
                "HC {level}: a {largest}-byte allocation"
            );
        }
    }
}

/// The streaming compressor on states in the caller's memory allocates nothing: loading,
/// attaching, compressing in every mode (with a large output capacity and with too small a
/// one), saving the history, resetting.
#[test]
fn stream_compressor_allocates_nothing() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    record_this_thread();
    let text: Vec<u8> = b"records of a log, compressed as a stream of linked blocks\n"
        .iter()
        .copied()
        .cycle()
        .take(300_000)
        .collect();
    const CAP: usize = 64 << 20;
    let mut out = vec![0u8; CAP];
    let mut saved = vec![0u8; 65536];
    let mut working = vec![0u64; ours::STREAM_SIZE / 8];
    let mut dict_stream = vec![0u64; ours::STREAM_SIZE / 8];
    let t = text.as_ptr().cast::<c_char>();
    let o = out.as_mut_ptr().cast::<c_char>();
    COUNT.store(0, Ordering::Relaxed);
    LARGEST.store(0, Ordering::Relaxed);
    // SAFETY: the states hold `STREAM_SIZE` aligned bytes; every buffer is valid for the length
    // passed with it and stays in place while the streams use it.
    unsafe {
        let w = ours::LZ4_initStream(working.as_mut_ptr().cast(), ours::STREAM_SIZE);
        let d = ours::LZ4_initStream(dict_stream.as_mut_ptr().cast(), ours::STREAM_SIZE);
        assert!(!w.is_null() && !d.is_null());
        assert_eq!(ours::LZ4_loadDictSlow(d, t, 20_000), 20_000);
        ours::LZ4_attach_dictionary(w, d);
        let mut at = 20_000usize;
        for (i, n) in [1000usize, 3000, 70_000, 5000, 100, 60_000]
            .into_iter()
            .enumerate()
        {
            let cap = if i == 4 { 10 } else { CAP as c_int };
            let src = t.add(at + if i % 2 == 1 { 7 } else { 0 });
            let r = ours::LZ4_compress_fast_continue(w, src, o, n as c_int, cap, 1);
            assert!(r > 0 || i == 4, "block {i}");
            if i == 3 {
                assert!(ours::LZ4_saveDict(w, saved.as_mut_ptr().cast(), 65536) > 0);
            }
            at += n + 7;
        }
        ours::LZ4_resetStream_fast(w);
        assert!(ours::LZ4_compress_fast_continue(w, t, o, 200_000, CAP as c_int, 7) > 0);
        assert!(
            ours::LZ4_compress_fast_extState_fastReset(w.cast(), t, o, 100_000, CAP as c_int, 1)
                > 0
        );
    }
    assert_eq!(
        (
            COUNT.load(Ordering::Relaxed),
            LARGEST.load(Ordering::Relaxed)
        ),
        (0, 0),
        "allocations"
    );
}

/// The HC streaming compressor allocates nothing by the output's capacity: its working memory
/// (the tables it runs on, the window of history and input) is allocated once per thread and
/// grows with the inputs only.
#[test]
fn hc_stream_allocates_by_input_only() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    record_this_thread();
    let text: Vec<u8> = b"records of a log, compressed as a stream of linked HC blocks\n"
        .iter()
        .copied()
        .cycle()
        .take(300_000)
        .collect();
    const CAP: usize = 64 << 20;
    let mut out = vec![0u8; CAP];
    let mut saved = vec![0u8; 65536];
    let mut working = vec![0u64; ours::STREAM_HC_SIZE / 8];
    let mut dict_stream = vec![0u64; ours::STREAM_HC_SIZE / 8];
    let t = text.as_ptr().cast::<c_char>();
    let o = out.as_mut_ptr().cast::<c_char>();
    // SAFETY: the states hold `STREAM_HC_SIZE` aligned bytes; every buffer is valid for the
    // length passed with it and stays in place while the streams use it.
    unsafe {
        let w = ours::LZ4_initStreamHC(working.as_mut_ptr().cast(), ours::STREAM_HC_SIZE);
        let d = ours::LZ4_initStreamHC(dict_stream.as_mut_ptr().cast(), ours::STREAM_HC_SIZE);
        assert!(!w.is_null() && !d.is_null());
        // A first block allocates this thread's working memory.
        assert!(ours::LZ4_compress_HC_continue(w, t, o, 100_000, CAP as c_int) > 0);
        COUNT.store(0, Ordering::Relaxed);
        LARGEST.store(0, Ordering::Relaxed);
        assert_eq!(ours::LZ4_loadDictHC(d, t, 20_000), 20_000);
        for level in [2, 9, 12] {
            ours::LZ4_resetStreamHC_fast(w, level);
            ours::LZ4_attach_HC_dictionary(w, d);
            let mut at = 20_000usize;
            for (i, n) in [1000usize, 3000, 70_000, 5000, 100, 60_000]
                .into_iter()
                .enumerate()
            {
                let cap = if i == 4 { 10 } else { CAP as c_int };
                let src = t.add(at + if i % 2 == 1 { 7 } else { 0 });
                let r = ours::LZ4_compress_HC_continue(w, src, o, n as c_int, cap);
                assert!(r > 0 || i == 4, "block {i}");
                if i == 3 {
                    assert!(ours::LZ4_saveDictHC(w, saved.as_mut_ptr().cast(), 65536) > 0);
                }
                at += n + 7;
            }
            let mut size = 50_000;
            assert!(ours::LZ4_compress_HC_continue_destSize(w, t, o, &mut size, CAP as c_int) > 0);
        }
    }
    let largest = LARGEST.load(Ordering::Relaxed);
    assert!(largest < 1 << 20, "a {largest}-byte allocation");
}
