//! Compression throughput side by side, interleaved, as `interleaved.rs` measures decoding.
//!
//! Every compressor compresses the same blocks of each file into buffers of the bound's size (lz4_flex's, which is a
//! little larger);
//! each round runs every compressor once over all blocks of a file, one after the other, so the
//! drift of a shared machine falls on all of them alike, and a compressor's time is the median of
//! its rounds. The figures are liblz4's time divided by it (above 1 is faster than liblz4), per
//! file and as the geometric mean over the files.
//!
//! - Fast: our `Compressor` (reused, acceleration 1), liblz4's `LZ4_compress_fast` and lz4_flex's
//!   `compress_into` (its bytes differ; the compressed size is reported beside the speed).
//! - HC: our `HcCompressor` (reused) and liblz4's `LZ4_compress_HC`, at each level of
//!   `LZ4_SIMD_BENCH_HC_LEVELS` (default `3,9,12`; empty for none).
//!
//! - Fast blocks: `LZ4_SIMD_BENCH_FAST=0` skips them.
//! - Frames (`LZ4_SIMD_BENCH_FRAMES=0` skips them): whole files (up to `LZ4_SIMD_BENCH_BYTES`)
//!   as frames with the `lz4` tool's defaults (4 MiB independent blocks, content checksum, fast
//!   level), each ours beside its like in liblz4:
//!   - `ours-frame`, the one-shot `frame::compress` (a new `Vec` each time, as the API returns),
//!     and `LZ4F-alloc`, `LZ4F_compressFrame` into a new zeroed buffer of its bound;
//!   - `ours-into`, `frame::compress_into` into a reused buffer, and `LZ4F`,
//!     `LZ4F_compressFrame` into a reused buffer (the column the ratios are taken against);
//!   - `ours-sans-io`, a `FrameCompressor` reset for each frame, into a reused buffer;
//!   - `ours-encoder`, a `FrameEncoder` reset for each frame onto a reused `Vec`, and
//!     `LZ4F-stream`, a reused LZ4F context (one `LZ4F_compressUpdate` per 4 MiB) appending to a
//!     reused `Vec`.
//!
//! Before timing, every block's output is checked: ours must be liblz4's bytes, lz4_flex's must
//! decode to the input.
//!
//! Settings: `LZ4_SIMD_BENCH_BLOCK` (block size, default 65536; 4194304 for the 4 MiB case),
//! `LZ4_SIMD_BENCH_BYTES` (the first bytes of each file, default 4 MiB; `0` = whole files),
//! `LZ4_SIMD_BENCH_ROUNDS` (default 21 for fast, a quarter of it, at least 3, for HC), and the
//! corpus as in `interleaved.rs` (built-in generated text and logs without it). Code placement
//! moves these ratios by a few percent: confirm on two or three differently built binaries.
//! `LZ4_SIMD_BENCH_COLD=1` evicts the input from every cache level (x86_64 `clflush`) before
//! each timed run, so the compressors read it from memory (the bench otherwise reuses inputs that
//! sit in the last-level cache). `LZ4_SIMD_BENCH_CLOCK=cpu` times each run by the thread's CPU time instead of wall time, which
//! leaves out the time other processes run on a shared machine (see `testkit::clock`).
//!
//! Run: `cargo bench --bench compress_interleaved`.

mod common;

use common::{env_usize, median};

use std::hint::black_box;

use std::io::Write;

use lz4_simd::block::{self, Compressor, HcCompressor};
use lz4_simd::frame::{self, FrameCompressor, FrameEncoder, FrameOptions};
use testkit::{clock, corpus, liblz4, samples};

/// One compressor of the comparison.
#[derive(Clone, Copy, PartialEq)]
enum Codec {
    Ours,
    Liblz4,
    Lz4Flex,
    /// The speed-first parses (`block::compress_speed_into`, `block::compress_speed_lean_into`).
    Speed,
    Lean,
    OursHc(u8),
    Liblz4Hc(u8),
    OursFrame,
    OursFrameInto,
    OursFrameSansIo,
    OursFrameEncoder,
    Lz4f,
    Lz4fAlloc,
    Lz4fStream,
}

impl Codec {
    fn name(self) -> String {
        match self {
            Codec::Ours => "ours".into(),
            Codec::Liblz4 => "liblz4".into(),
            Codec::Lz4Flex => "lz4_flex".into(),
            Codec::Speed => "speed".into(),
            Codec::Lean => "lean".into(),
            Codec::OursHc(level) => format!("ours-hc{level}"),
            Codec::Liblz4Hc(level) => format!("liblz4-hc{level}"),
            Codec::OursFrame => "ours-frame".into(),
            Codec::OursFrameInto => "ours-into".into(),
            Codec::OursFrameSansIo => "ours-sans-io".into(),
            Codec::OursFrameEncoder => "ours-encoder".into(),
            Codec::Lz4f => "LZ4F".into(),
            Codec::Lz4fAlloc => "LZ4F-alloc".into(),
            Codec::Lz4fStream => "LZ4F-stream".into(),
        }
    }
}

/// The reusable state of our compressors.
struct State {
    fast: Compressor,
    hc: HcCompressor,
    /// Our reused sans-IO compressor and streaming encoder (writing into a reused `Vec`;
    /// `spare` is the other of the two `Vec`s it alternates between).
    sans_io: FrameCompressor,
    encoder: FrameEncoder<Vec<u8>>,
    spare: Vec<u8>,
    /// liblz4's reused LZ4F context.
    lz4f_stream: liblz4::FrameStream,
    lz4f_out: Vec<u8>,
}

/// The frame options of the frame rows: the `lz4` tool's defaults.
fn frame_options() -> FrameOptions {
    FrameOptions::new()
}

/// Our sans-IO frame compressor (reused: reset for each frame) over `src` into `dst` (room for
/// the whole frame): the frame's length.
fn sans_io_frame(compressor: &mut FrameCompressor, src: &[u8], dst: &mut [u8]) -> usize {
    compressor.reset();
    let mut written = 0;
    let mut input = src;
    while !input.is_empty() {
        let progress = compressor
            .compress(input, &mut dst[written..])
            .expect("room");
        input = &input[progress.consumed..];
        written += progress.produced;
    }
    loop {
        let progress = compressor.finish(&mut dst[written..]).expect("room");
        written += progress.produced;
        if compressor.is_finished() && compressor.pending_output().is_empty() {
            return written;
        }
    }
}

/// Compresses every block of `chunks` into `out` (one bound-sized buffer per block); returns
/// the total compressed size.
#[inline(never)]
fn run(codec: Codec, state: &mut State, chunks: &[&[u8]], out: &mut [Vec<u8>]) -> usize {
    let mut total = 0;
    for (chunk, dst) in chunks.iter().zip(out.iter_mut()) {
        let n = match codec {
            Codec::Ours => state
                .fast
                .compress_into(chunk, dst, 1)
                .expect("bound-sized buffer"),
            Codec::Liblz4 => liblz4::compress_fast_into(chunk, dst, 1),
            Codec::Lz4Flex => {
                lz4_flex::block::compress_into(chunk, dst).expect("bound-sized buffer")
            }
            Codec::Speed => block::compress_speed_into(chunk, dst).expect("bound-sized buffer"),
            Codec::Lean => block::compress_speed_lean_into(chunk, dst).expect("bound-sized buffer"),
            Codec::OursHc(level) => state
                .hc
                .compress_into(chunk, dst, level)
                .expect("bound-sized buffer"),
            Codec::Liblz4Hc(level) => liblz4::compress_hc_into(chunk, dst, i32::from(level)),
            Codec::OursFrame => frame::compress(chunk, &frame_options()).len(),
            Codec::OursFrameInto => {
                frame::compress_into(chunk, dst, &frame_options()).expect("LZ4F's bound")
            }
            Codec::OursFrameSansIo => sans_io_frame(&mut state.sans_io, chunk, dst),
            Codec::OursFrameEncoder => {
                let mut out = std::mem::take(&mut state.spare);
                out.clear();
                // Finishes the previous frame (already finished) and starts one into `out`.
                state.spare = state.encoder.reset(out).expect("a Vec takes everything");
                state
                    .encoder
                    .write_all(chunk)
                    .expect("a Vec takes everything");
                state.encoder.try_finish().expect("a Vec takes everything");
                state.encoder.get_ref().len()
            }
            Codec::Lz4f => liblz4::compress_frame(chunk, dst, &liblz4::frame_preferences()),
            Codec::Lz4fAlloc => {
                // As `frame::compress`: a new zeroed buffer of the bound, cut to the frame.
                let preferences = liblz4::frame_preferences();
                let mut out = vec![0u8; liblz4::compress_frame_bound(chunk.len(), &preferences)];
                let n = liblz4::compress_frame(chunk, &mut out, &preferences);
                out.truncate(n);
                black_box(out).len()
            }
            Codec::Lz4fStream => {
                state.lz4f_out.clear();
                state.lz4f_stream.compress(
                    chunk,
                    4 << 20,
                    &liblz4::frame_preferences(),
                    &mut state.lz4f_out,
                );
                state.lz4f_out.len()
            }
        };
        total += black_box(n);
    }
    total
}

/// Checks every block of `codec`'s output: ours must be liblz4's bytes; lz4_flex's must decode
/// to the input.
fn check(codec: Codec, state: &mut State, chunks: &[&[u8]], out: &mut [Vec<u8>], file: &str) {
    for (chunk, dst) in chunks.iter().zip(out.iter_mut()) {
        let n = run(codec, state, &[chunk], std::slice::from_mut(dst));
        let ours = &dst[..n.min(dst.len())];
        match codec {
            Codec::Ours => assert!(
                ours == liblz4::compress_fast(chunk, 1),
                "{file}: our fast bytes differ from liblz4's"
            ),
            Codec::OursHc(level) => assert!(
                ours == liblz4::compress_hc(chunk, i32::from(level)),
                "{file}: our HC {level} bytes differ from liblz4's"
            ),
            Codec::Lz4Flex | Codec::Speed | Codec::Lean => assert!(
                block::decompress(ours, chunk.len()).ok().as_deref() == Some(*chunk),
                "{file}: {}'s block does not decode",
                codec.name()
            ),
            Codec::OursFrame
            | Codec::OursFrameInto
            | Codec::OursFrameSansIo
            | Codec::OursFrameEncoder => {
                let mut lz4f = vec![0; dst.len()];
                let lz4f_len =
                    liblz4::compress_frame(chunk, &mut lz4f, &liblz4::frame_preferences());
                let ours = match codec {
                    Codec::OursFrame => frame::compress(chunk, &frame_options()),
                    Codec::OursFrameEncoder => state.encoder.get_ref().clone(),
                    _ => ours.to_vec(),
                };
                assert!(
                    ours == lz4f[..lz4f_len],
                    "{file}: our frame differs from LZ4F's"
                );
            }
            Codec::Liblz4
            | Codec::Liblz4Hc(_)
            | Codec::Lz4f
            | Codec::Lz4fAlloc
            | Codec::Lz4fStream => {}
        }
    }
}

/// Evicts `data` from every cache level (`LZ4_SIMD_BENCH_COLD=1`: each compressor then reads
/// its input from memory, as a compressor of data not touched for a while does); untimed.
fn evict(data: &[u8]) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_clflush, _mm_mfence};
        for line in data.chunks(64) {
            // SAFETY: SSE2 is part of every x86_64 target; `line` is a live, readable slice,
            // and a flush changes no byte of it.
            unsafe { _mm_clflush(line.as_ptr()) };
        }
        // SAFETY: as above (SSE2).
        unsafe { _mm_mfence() };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = data;
}

/// Times `codecs` over every file, interleaved; `reference` is the index of the codec the
/// ratios divide by.
fn compare(
    title: &str,
    codecs: &[Codec],
    reference: usize,
    files: &[(String, Vec<u8>)],
    block_size: usize,
    rounds: usize,
) {
    let cold = env_usize("LZ4_SIMD_BENCH_COLD", 0) != 0;
    if cold {
        println!("cold input: evicted from every cache level before each run (clflush)");
    }
    println!("{title}: ratio = liblz4's time / the compressor's (medians of {rounds} interleaved rounds), MB/s, compressed %");
    let mut state = State {
        fast: Compressor::new(),
        hc: HcCompressor::new(),
        sans_io: FrameCompressor::with_options(frame_options()),
        encoder: FrameEncoder::with_options(Vec::new(), frame_options()),
        spare: Vec::new(),
        lz4f_stream: liblz4::FrameStream::new(),
        lz4f_out: Vec::new(),
    };
    let mut log_sums = vec![0.0f64; codecs.len()];
    for (name, data) in files {
        let chunks: Vec<&[u8]> = data.chunks(block_size).collect();
        let mut out: Vec<Vec<u8>> = chunks
            .iter()
            .map(|c| {
                // lz4_flex asks for a little more room than LZ4's bound.
                let room = liblz4::compress_bound(c.len())
                    .max(lz4_flex::block::get_maximum_output_size(c.len()))
                    .max(liblz4::compress_frame_bound(
                        c.len(),
                        &liblz4::frame_preferences(),
                    ));
                vec![0u8; room]
            })
            .collect();
        let mut sizes = vec![0usize; codecs.len()];
        for (codec, size) in codecs.iter().zip(sizes.iter_mut()) {
            check(*codec, &mut state, &chunks, &mut out, name);
            *size = run(*codec, &mut state, &chunks, &mut out);
        }
        let mut times = vec![Vec::with_capacity(rounds); codecs.len()];
        for _ in 0..rounds {
            for (codec, times) in codecs.iter().zip(times.iter_mut()) {
                if cold {
                    evict(data);
                }
                let started = clock::Stamp::now();
                run(*codec, &mut state, &chunks, &mut out);
                times.push(started.elapsed_secs());
            }
        }
        let time: Vec<f64> = times.iter_mut().map(|times| median(times)).collect();
        let mut line = format!("{name:10}");
        for ((codec, &t), &size) in codecs.iter().zip(&time).zip(&sizes) {
            line += &format!(
                " {}={:.3} ({:.0} MB/s, {:.2}%)",
                codec.name(),
                time[reference] / t,
                data.len() as f64 / t / 1e6,
                size as f64 * 100.0 / data.len() as f64
            );
        }
        println!("{line}");
        for (sum, &t) in log_sums.iter_mut().zip(&time) {
            *sum += (time[reference] / t).ln();
        }
    }
    let mut line = format!("geomean ({} files):", files.len());
    for (codec, sum) in codecs.iter().zip(&log_sums) {
        line += &format!(" {}={:.3}", codec.name(), (sum / files.len() as f64).exp());
    }
    println!("{line}\n");
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` passes nothing and expects a quick
    // run: measure only when asked to bench.
    if !std::env::args().any(|arg| arg == "--bench") {
        return;
    }
    let block_size = env_usize("LZ4_SIMD_BENCH_BLOCK", 64 << 10).max(1);
    let rounds = env_usize("LZ4_SIMD_BENCH_ROUNDS", 21).max(1);
    let cap = match env_usize("LZ4_SIMD_BENCH_BYTES", 4 << 20) {
        0 => usize::MAX,
        bytes => bytes,
    };
    let mut files = corpus::load(cap);
    if files.is_empty() {
        eprintln!("NOTICE: no Silesia corpus found; measuring generated text and logs instead");
        files = samples::builtin(4 << 20);
        files.retain(|(name, _)| name == "text" || name == "logs");
    }
    println!("blocks of {block_size} bytes; clock: {}", clock::name());
    if env_usize("LZ4_SIMD_BENCH_FAST", 1) != 0 {
        compare(
            "fast, acceleration 1",
            &[
                Codec::Ours,
                Codec::Liblz4,
                Codec::Lz4Flex,
                Codec::Speed,
                Codec::Lean,
            ],
            1,
            &files,
            block_size,
            rounds,
        );
    }
    if env_usize("LZ4_SIMD_BENCH_FRAMES", 1) != 0 {
        // One frame per file: the whole (capped) file is one chunk.
        compare(
            "frames (4 MiB independent blocks, content checksum), whole files",
            &[
                Codec::OursFrame,
                Codec::OursFrameInto,
                Codec::OursFrameSansIo,
                Codec::OursFrameEncoder,
                Codec::Lz4f,
                Codec::Lz4fAlloc,
                Codec::Lz4fStream,
            ],
            4,
            &files,
            usize::MAX,
            rounds,
        );
    }
    let levels = std::env::var("LZ4_SIMD_BENCH_HC_LEVELS").unwrap_or_else(|_| "3,9,12".into());
    for level in levels.split(',').filter(|l| !l.is_empty()) {
        let level: u8 = level
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("bad HC level {level:?}"));
        compare(
            &format!("HC level {level}"),
            &[Codec::OursHc(level), Codec::Liblz4Hc(level)],
            1,
            &files,
            block_size,
            (rounds / 4).max(3),
        );
    }
}
