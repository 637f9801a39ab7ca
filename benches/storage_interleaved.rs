//! The storage-engine block API against liblz4, interleaved (every contender in turn within each
//! round, medians, as `interleaved.rs`): our time against liblz4's for each.
//!
//! - `dict-compress/<size>`: 1 KiB and 4 KiB messages with a 64 KiB prepared dictionary, ours
//!   (`Compressor::compress_into_with_prepared_dictionary`) against liblz4's
//!   `LZ4_attach_dictionary` + `LZ4_compress_fast_continue` (`LZ4_resetStream_fast` per
//!   message), and ours without the dictionary (`Compressor::compress_into`). Targets: ≥ liblz4,
//!   and within 1.5× of no dictionary.
//!   The same cost ratio for liblz4 puts the second figure in context: its attach path against
//!   `LZ4_compress_fast_extState` on the same messages (one state, reinitialised per call, as
//!   liblz4's own one-shot compression does).
//! - `dict-decode/<size>`: the same messages decoded with the dictionary, ours
//!   (`block::decompress_into_with_dictionary`, the detected kernel, no dictionary copy) against
//!   `LZ4_decompress_safe_usingDict`. Target: ≥ liblz4.
//! - `stream-compress/<block>`, `stream-decode/<block>`: 1 MiB as a stream of 4 KiB or 64 KiB
//!   blocks, ours (`StreamCompressor`, `StreamDecoder`) against `LZ4_compress_fast_continue` +
//!   `LZ4_saveDict` and `LZ4_decompress_safe_continue`. Target: ≥ liblz4.
//! - `partial/4K-of-64K`: the first 4 KiB of 64 KiB blocks (`block::decompress_partial`) against
//!   decoding the whole blocks (ours). Target: ≥ 8×.
//!
//! Ratios: the reference's time / ours (above 1: ours is faster). Data: Silesia `dickens` (the
//! dictionary is its first 64 KiB, the messages the text after it), generated text without the
//! corpus. `LZ4_SIMD_BENCH_ROUNDS` (default 31) sets the rounds. `LZ4_SIMD_BENCH_CLOCK=cpu` times
//! each run by the thread's CPU time instead of wall time (see `testkit::clock`), which leaves
//! out the time other processes run on a shared machine.
//!
//! Run: `cargo bench --bench storage_interleaved`.
//!
//! Instruction counts (deterministic, unlike the timings on a shared machine): with
//! `LZ4_SIMD_COUNT=1` the bench runs each contender of `dict-compress` and `stream-compress` once
//! (after a warm-up) in an `#[inline(never)]` function named `count_<contender>`, instead of
//! timing them; run it under Callgrind and read each function's inclusive count:
//!
//! ```text
//! cargo bench --bench storage_interleaved --no-run
//! LZ4_SIMD_COUNT=1 valgrind --tool=callgrind --callgrind-out-file=cg.out \
//!     target/release/deps/storage_interleaved-<hash> --bench
//! callgrind_annotate --inclusive=yes cg.out | grep count_
//! ```
//!
//! Each `count_dict_*` compresses 256 messages, each `count_stream_*` 1 MiB.

mod common;

use common::{env_usize, median};

use std::ffi::{c_char, c_int, c_void};
use std::hint::black_box;

use lz4_simd::block::{self, Compressor, Dictionary, StreamCompressor, StreamDecoder};
use testkit::clock;
use testkit::liblz4::{self, SavingStream, Stream, StreamDecode, Working};

// liblz4's one-shot compression into a caller's state (in lz4-sys's static library, which the
// test kit links; declared here as the tests declare what they need).
extern "C" {
    fn LZ4_sizeofState() -> c_int;
    fn LZ4_compress_fast_extState(
        state: *mut c_void,
        src: *const c_char,
        dst: *mut c_char,
        src_size: c_int,
        dst_capacity: c_int,
        acceleration: c_int,
    ) -> c_int;
}

/// A state for `LZ4_compress_fast_extState` (which initialises it on every call, as
/// `LZ4_compress_fast` does with one on its stack).
struct ExtState(Vec<u64>);

impl ExtState {
    fn new() -> Self {
        // SAFETY: a pure query.
        let size = unsafe { LZ4_sizeofState() } as usize;
        // `u64`s: liblz4 needs the state 8-byte aligned.
        ExtState(vec![0u64; size.div_ceil(8)])
    }

    /// `LZ4_compress_fast_extState(state, src, dst, ...)`: the compressed length (0: no room).
    fn compress(&mut self, src: &[u8], dst: &mut [u8], acceleration: i32) -> usize {
        // SAFETY: a live, aligned state of `LZ4_sizeofState()` bytes; `src` and `dst` are live
        // slices passed with their lengths (both far below `c_int::MAX` here); liblz4 writes at
        // most `dst.len()` bytes.
        let n = unsafe {
            LZ4_compress_fast_extState(
                self.0.as_mut_ptr().cast(),
                src.as_ptr().cast(),
                dst.as_mut_ptr().cast(),
                src.len() as c_int,
                dst.len() as c_int,
                acceleration,
            )
        };
        n.max(0) as usize
    }
}

const DICT_LEN: usize = 64 * 1024;

/// Runs each closure `rounds` times, interleaved; returns the median seconds of each.
fn interleaved(rounds: usize, runs: &mut [&mut dyn FnMut()]) -> Vec<f64> {
    for run in runs.iter_mut() {
        run(); // warm-up
    }
    let mut times = vec![Vec::with_capacity(rounds); runs.len()];
    for _ in 0..rounds {
        for (run, times) in runs.iter_mut().zip(times.iter_mut()) {
            let started = clock::Stamp::now();
            run();
            times.push(started.elapsed_secs());
        }
    }
    times.iter_mut().map(|t| median(t)).collect()
}

fn main() {
    if !std::env::args().any(|arg| arg == "--bench") {
        return;
    }
    let rounds = env_usize("LZ4_SIMD_BENCH_ROUNDS", 31).max(1);
    let text = testkit::corpus::file("dickens", 4 << 20).unwrap_or_else(|| {
        eprintln!("NOTICE: no Silesia corpus found; measuring generated text instead");
        testkit::samples::builtin(4 << 20)
            .into_iter()
            .find(|(name, _)| name == "text")
            .expect("generated text")
            .1
    });
    let (dict_bytes, body) = text.split_at(DICT_LEN);
    if std::env::var_os("LZ4_SIMD_COUNT").is_some() {
        count(dict_bytes, body);
        return;
    }
    println!(
        "ratio = the reference's time / ours (medians of {rounds} interleaved rounds; clock: {})",
        clock::name()
    );

    // Messages with a prepared dictionary.
    let dict = Dictionary::new(dict_bytes);
    let dict_stream = Stream::with_dict(dict_bytes);
    for size in [1024usize, 4096] {
        let messages: Vec<&[u8]> = body.chunks(size).take(256).collect();
        let mut out = vec![0u8; block::compress_bound(size)];
        let mut ours = Compressor::new();
        let mut plain = Compressor::new();
        let mut working = Working::new();
        let mut ext_state = ExtState::new();
        let mut compressed_ours = Vec::new();
        for message in &messages {
            let n = ours
                .compress_into_with_prepared_dictionary(message, &mut out, &dict, 1)
                .unwrap();
            let mut theirs = vec![0u8; block::compress_bound(size)];
            let m = working.compress_attached(&dict_stream, message, &mut theirs, 1);
            assert!(theirs[..m] == out[..n], "not liblz4's bytes");
            compressed_ours.push(out[..n].to_vec());
            // The no-dictionary contenders make the same bytes too.
            let n = plain.compress_into(message, &mut out, 1).unwrap();
            let m = ext_state.compress(message, &mut theirs, 1);
            assert!(
                theirs[..m] == out[..n],
                "not liblz4's bytes without a dictionary"
            );
        }
        let times = interleaved(
            rounds,
            &mut [
                &mut || {
                    for message in &messages {
                        black_box(
                            ours.compress_into_with_prepared_dictionary(
                                message, &mut out, &dict, 1,
                            )
                            .unwrap(),
                        );
                    }
                },
                &mut || {
                    let mut dst = vec![0u8; block::compress_bound(size)];
                    for message in &messages {
                        black_box(working.compress_attached(&dict_stream, message, &mut dst, 1));
                    }
                },
                &mut || {
                    let mut dst = vec![0u8; block::compress_bound(size)];
                    for message in &messages {
                        black_box(plain.compress_into(message, &mut dst, 1).unwrap());
                    }
                },
                &mut || {
                    let mut dst = vec![0u8; block::compress_bound(size)];
                    for message in &messages {
                        black_box(ext_state.compress(message, &mut dst, 1));
                    }
                },
            ],
        );
        let per_message = |t: f64| t / messages.len() as f64 * 1e6;
        println!(
            "dict-compress/{size}: vs liblz4 attach {:.2}, cost vs no dictionary {:.2}x \
             (liblz4: attach vs extState {:.2}x); us/message: ours {:.3} (no dict {:.3}), \
             liblz4 {:.3} (extState {:.3})",
            times[1] / times[0],
            times[0] / times[2],
            times[1] / times[3],
            per_message(times[0]),
            per_message(times[2]),
            per_message(times[1]),
            per_message(times[3]),
        );
        let mut back = vec![0u8; size];
        let times = interleaved(
            rounds,
            &mut [
                &mut || {
                    for block in &compressed_ours {
                        black_box(
                            block::decompress_into_with_dictionary(block, &mut back, dict_bytes)
                                .unwrap(),
                        );
                    }
                },
                &mut || {
                    let mut dst = vec![0u8; size];
                    for block in &compressed_ours {
                        black_box(
                            liblz4::decompress_with_dict_into(block, dict_bytes, &mut dst).unwrap(),
                        );
                    }
                },
            ],
        );
        println!(
            "dict-decode/{size}: vs liblz4 usingDict {:.2} ({:.3} us/message)",
            times[1] / times[0],
            times[0] / messages.len() as f64 * 1e6
        );
    }

    // Streams of blocks.
    let stream_text = &body[..1 << 20];
    for block_len in [4096usize, 65536] {
        let blocks: Vec<&[u8]> = stream_text.chunks(block_len).collect();
        let mut dst = vec![0u8; block::compress_bound(block_len)];
        let mut ours_blocks = Vec::new();
        let mut stream = StreamCompressor::new();
        for b in &blocks {
            let n = stream.compress_into(b, &mut dst, 1).unwrap();
            ours_blocks.push(dst[..n].to_vec());
        }
        let times = interleaved(
            rounds,
            &mut [
                &mut || {
                    let mut stream = StreamCompressor::new();
                    let mut dst = vec![0u8; block::compress_bound(block_len)];
                    for b in &blocks {
                        black_box(stream.compress_into(b, &mut dst, 1).unwrap());
                    }
                },
                &mut || {
                    let mut stream = SavingStream::new(Stream::new());
                    let mut dst = vec![0u8; block::compress_bound(block_len)];
                    for b in &blocks {
                        black_box(stream.compress(b, &mut dst, 1));
                    }
                },
            ],
        );
        println!(
            "stream-compress/{block_len}: vs liblz4 continue + saveDict {:.2} ({:.0} MB/s)",
            times[1] / times[0],
            stream_text.len() as f64 / times[0] / 1e6
        );
        let mut out = vec![0u8; stream_text.len()];
        let mut out_c = vec![0u8; stream_text.len()];
        let times = interleaved(
            rounds,
            &mut [
                &mut || {
                    let mut decoder = StreamDecoder::new();
                    let mut at = 0;
                    for b in &ours_blocks {
                        at += decoder
                            .decompress_into(b, &mut out[at..at + block_len])
                            .unwrap();
                    }
                    black_box(at);
                },
                &mut || {
                    let mut decoder = StreamDecode::new(&[]);
                    let mut at = 0;
                    for b in &ours_blocks {
                        let end = (at + block_len).min(out_c.len());
                        at += decoder.decompress(b, &mut out_c[at..end]).unwrap();
                    }
                    black_box(at);
                },
            ],
        );
        println!(
            "stream-decode/{block_len}: vs liblz4 decompress_safe_continue {:.2} ({:.0} MB/s)",
            times[1] / times[0],
            stream_text.len() as f64 / times[0] / 1e6
        );
    }

    // Partial decoding: the first 4 KiB of 64 KiB blocks.
    let pages: Vec<Vec<u8>> = body
        .chunks(65536)
        .take(32)
        .map(|page| block::compress(page).unwrap())
        .collect();
    let mut prefix = vec![0u8; 4096];
    let mut whole = vec![0u8; 65536];
    let times = interleaved(
        rounds,
        &mut [
            &mut || {
                for page in &pages {
                    black_box(block::decompress_partial(page, &mut prefix).unwrap());
                }
            },
            &mut || {
                for page in &pages {
                    black_box(block::decompress_into(page, &mut whole).unwrap());
                }
            },
            &mut || {
                let mut dst = vec![0u8; 4096];
                for page in &pages {
                    black_box(liblz4::decompress_partial_into(page, &mut dst).unwrap());
                }
            },
        ],
    );
    println!(
        "partial/4K-of-64K: {:.1}x faster than the whole block; vs liblz4 partial {:.2}",
        times[1] / times[0],
        times[2] / times[0]
    );
}

/// 256 messages of `size` bytes compressed with `dict` (ours).
fn dict_ours(compressor: &mut Compressor, messages: &[&[u8]], dict: &Dictionary, dst: &mut [u8]) {
    for message in messages {
        black_box(
            compressor
                .compress_into_with_prepared_dictionary(message, dst, dict, 1)
                .unwrap(),
        );
    }
}

/// The same messages through liblz4's attach path.
fn dict_liblz4(working: &mut Working, messages: &[&[u8]], dict: &Stream<'_>, dst: &mut [u8]) {
    for message in messages {
        black_box(working.compress_attached(dict, message, dst, 1));
    }
}

/// The same messages without a dictionary, liblz4's one-shot path.
fn dict_liblz4_plain(state: &mut ExtState, messages: &[&[u8]], dst: &mut [u8]) {
    for message in messages {
        black_box(state.compress(message, dst, 1));
    }
}

/// The same messages without a dictionary (ours).
fn dict_plain(compressor: &mut Compressor, messages: &[&[u8]], dst: &mut [u8]) {
    for message in messages {
        black_box(compressor.compress_into(message, dst, 1).unwrap());
    }
}

fn stream_ours(blocks: &[&[u8]], dst: &mut [u8]) {
    let mut stream = StreamCompressor::new();
    for b in blocks {
        black_box(stream.compress_into(b, dst, 1).unwrap());
    }
}

fn stream_liblz4(blocks: &[&[u8]], dst: &mut [u8]) {
    let mut stream = SavingStream::new(Stream::new());
    for b in blocks {
        black_box(stream.compress(b, dst, 1));
    }
}

#[inline(never)]
fn count_dict_ours_1k(c: &mut Compressor, m: &[&[u8]], d: &Dictionary, dst: &mut [u8]) {
    black_box(1);
    dict_ours(c, m, d, dst)
}
#[inline(never)]
fn count_dict_ours_4k(c: &mut Compressor, m: &[&[u8]], d: &Dictionary, dst: &mut [u8]) {
    black_box(2);
    dict_ours(c, m, d, dst)
}
#[inline(never)]
fn count_dict_liblz4_1k(w: &mut Working, m: &[&[u8]], d: &Stream<'_>, dst: &mut [u8]) {
    black_box(3);
    dict_liblz4(w, m, d, dst)
}
#[inline(never)]
fn count_dict_liblz4_4k(w: &mut Working, m: &[&[u8]], d: &Stream<'_>, dst: &mut [u8]) {
    black_box(4);
    dict_liblz4(w, m, d, dst)
}
#[inline(never)]
fn count_dict_plain_1k(c: &mut Compressor, m: &[&[u8]], dst: &mut [u8]) {
    black_box(5);
    dict_plain(c, m, dst)
}
#[inline(never)]
fn count_dict_plain_4k(c: &mut Compressor, m: &[&[u8]], dst: &mut [u8]) {
    black_box(6);
    dict_plain(c, m, dst)
}
#[inline(never)]
fn count_dict_liblz4plain_1k(s: &mut ExtState, m: &[&[u8]], dst: &mut [u8]) {
    black_box(11);
    dict_liblz4_plain(s, m, dst)
}
#[inline(never)]
fn count_dict_liblz4plain_4k(s: &mut ExtState, m: &[&[u8]], dst: &mut [u8]) {
    black_box(12);
    dict_liblz4_plain(s, m, dst)
}
#[inline(never)]
fn count_stream_ours_4k(b: &[&[u8]], dst: &mut [u8]) {
    black_box(7);
    stream_ours(b, dst)
}
#[inline(never)]
fn count_stream_ours_64k(b: &[&[u8]], dst: &mut [u8]) {
    black_box(8);
    stream_ours(b, dst)
}
#[inline(never)]
fn count_stream_liblz4_4k(b: &[&[u8]], dst: &mut [u8]) {
    black_box(9);
    stream_liblz4(b, dst)
}
#[inline(never)]
fn count_stream_liblz4_64k(b: &[&[u8]], dst: &mut [u8]) {
    black_box(10);
    stream_liblz4(b, dst)
}

/// `LZ4_SIMD_COUNT` mode: each contender once after a warm-up, for Callgrind (see the module
/// docs).
fn count(dict_bytes: &[u8], body: &[u8]) {
    let dict = Dictionary::new(dict_bytes);
    let dict_stream = Stream::with_dict(dict_bytes);
    let mut dst = vec![0u8; block::compress_bound(1 << 16)];
    let mut ours = Compressor::new();
    let mut plain = Compressor::new();
    let mut working = Working::new();
    let mut ext_state = ExtState::new();
    for size in [1024usize, 4096] {
        let messages: Vec<&[u8]> = body.chunks(size).take(256).collect();
        dict_ours(&mut ours, &messages, &dict, &mut dst);
        dict_liblz4(&mut working, &messages, &dict_stream, &mut dst);
        dict_plain(&mut plain, &messages, &mut dst);
        dict_liblz4_plain(&mut ext_state, &messages, &mut dst);
        if size == 1024 {
            count_dict_ours_1k(&mut ours, &messages, &dict, &mut dst);
            count_dict_liblz4_1k(&mut working, &messages, &dict_stream, &mut dst);
            count_dict_plain_1k(&mut plain, &messages, &mut dst);
            count_dict_liblz4plain_1k(&mut ext_state, &messages, &mut dst);
        } else {
            count_dict_ours_4k(&mut ours, &messages, &dict, &mut dst);
            count_dict_liblz4_4k(&mut working, &messages, &dict_stream, &mut dst);
            count_dict_plain_4k(&mut plain, &messages, &mut dst);
            count_dict_liblz4plain_4k(&mut ext_state, &messages, &mut dst);
        }
    }
    let stream_text = &body[..1 << 20];
    for block_len in [4096usize, 65536] {
        let blocks: Vec<&[u8]> = stream_text.chunks(block_len).collect();
        stream_ours(&blocks, &mut dst);
        stream_liblz4(&blocks, &mut dst);
        if block_len == 4096 {
            count_stream_ours_4k(&blocks, &mut dst);
            count_stream_liblz4_4k(&blocks, &mut dst);
        } else {
            count_stream_ours_64k(&blocks, &mut dst);
            count_stream_liblz4_64k(&blocks, &mut dst);
        }
    }
}
