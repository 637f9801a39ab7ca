//! Independent blocks decoded 2 or 4 at a time in one interleaved loop (the prototype
//! `lz4_simd::block::multi::decompress_into_multi`) against the same blocks decoded one at a time
//! by our single-stream kernels and by liblz4 (`LZ4_decompress_safe`): the figures of
//! `asm-notes/multi-block.md`.
//!
//! The method is `interleaved`'s: each round runs every decoder once over all blocks of an input,
//! one after the other, and a decoder's time is the median of its rounds. The inputs are the
//! synthetic classes (`off1-7`, `off8-15`, `off16-64`, `lit-long`, `match-long`, `short-seq`: 4 MiB
//! each in 64 KiB blocks, `common::classes`) and the Silesia files in 64 KiB blocks compressed by
//! liblz4 at acceleration 1 (`LZ4_SIMD_CORPUS`, or `corpus/`; the first `LZ4_SIMD_BENCH_BYTES`
//! of each, default 4 MiB, `0` = whole files). The multi-block decoders take the blocks of an
//! input in consecutive groups of 2 or 4 (a remainder one at a time). `LZ4_SIMD_BENCH_SETS`
//! (`corpus,classes` by default; `probes` adds `interleaved`'s probes, `off16-64`'s sequences
//! at offsets 65-128, 129-512 and 1-16 KiB), `LZ4_SIMD_BENCH_ROUNDS` (default 21), `LZ4_SIMD_BENCH_BLOCK`
//! (default 65536) and `LZ4_SIMD_BENCH_CLOCK=cpu` (thread CPU time) as in `interleaved`. Every
//! decoder's output is checked before it is timed. `LZ4_SIMD_BENCH_FILES` (comma-separated names)
//! keeps only those inputs (for a run under Callgrind, say); `LZ4_SIMD_BENCH_LANES` the lane
//! counts besides 1 (default `2,4`).
//!
//! Each line prints, per decoder, liblz4's time / its time and our single-stream kernel's time
//! (the same kernel) / its time.
//!
//! Run: `cargo bench --bench multi_block`.

use std::hint::black_box;

mod common;

use common::classes::{class_sample, cpu_model, CHUNK, CLASSES, PROBES};
use common::{env_usize, median, Sample};
#[cfg(all(feature = "unsafe", target_arch = "x86_64"))]
use lz4_simd::block::multi::decompress_into_multi;
use lz4_simd::{block, Kernel};
use testkit::{clock, corpus, liblz4};

/// One decoder of the comparison.
#[derive(Clone, Copy)]
enum Decoder {
    /// Our kernel, one block at a time.
    Single(Kernel),
    /// The interleaved prototype with this kernel's copies, `lanes` blocks at a time.
    Multi(Kernel, usize),
    Liblz4,
}

impl Decoder {
    fn name(self) -> String {
        match self {
            Decoder::Single(kernel) => format!("{}x1", kernel.name()),
            Decoder::Multi(kernel, lanes) => format!("{}x{lanes}", kernel.name()),
            Decoder::Liblz4 => "liblz4".into(),
        }
    }

    /// The single-stream decoder of the same kernel (the reference of the second ratio).
    fn single(self) -> Option<Decoder> {
        match self {
            Decoder::Single(kernel) | Decoder::Multi(kernel, _) => Some(Decoder::Single(kernel)),
            Decoder::Liblz4 => None,
        }
    }

    /// Decodes every block of `file` into `out` (one buffer per block, exactly sized).
    #[inline(never)]
    fn run(self, file: &Sample, out: &mut [Vec<u8>]) {
        match self {
            Decoder::Single(kernel) => {
                let decoder = block::Decoder::with_kernel(kernel).expect("kernel available");
                for (compressed, dst) in file.compressed.iter().zip(out.iter_mut()) {
                    let n = decoder
                        .decompress_into(compressed, dst)
                        .expect("our decoder rejected a liblz4 block");
                    black_box(n);
                }
            }
            Decoder::Multi(kernel, 2) => multi::<2>(kernel, file, out),
            Decoder::Multi(kernel, 4) => multi::<4>(kernel, file, out),
            Decoder::Multi(_, lanes) => unreachable!("{lanes} lanes are not measured"),
            Decoder::Liblz4 => {
                for (compressed, dst) in file.compressed.iter().zip(out.iter_mut()) {
                    let n = liblz4::decompress_safe_into(compressed, dst)
                        .expect("liblz4 rejected its own block");
                    black_box(n);
                }
            }
        }
    }
}

/// Built where the prototype is (x86_64, the `unsafe` feature).
const PROTOTYPE: bool = cfg!(all(feature = "unsafe", target_arch = "x86_64"));

/// The prototype on `N` blocks.
#[cfg(all(feature = "unsafe", target_arch = "x86_64"))]
fn interleaved<const N: usize>(
    kernel: Kernel,
    srcs: [&[u8]; N],
    dsts: [&mut [u8]; N],
) -> [Result<usize, lz4_simd::Error>; N] {
    decompress_into_multi(kernel, srcs, dsts)
}

/// Where the prototype is not built: never called (`main` stops first), so that the bench
/// builds on every target and feature set.
#[cfg(not(all(feature = "unsafe", target_arch = "x86_64")))]
fn interleaved<const N: usize>(
    _: Kernel,
    _: [&[u8]; N],
    _: [&mut [u8]; N],
) -> [Result<usize, lz4_simd::Error>; N] {
    unreachable!("the multi-block prototype is built on x86_64 with the unsafe feature only")
}

/// The blocks of `file` decoded `N` at a time by the prototype, the remainder one at a time.
fn multi<const N: usize>(kernel: Kernel, file: &Sample, out: &mut [Vec<u8>]) {
    let groups = file.compressed.chunks_exact(N).zip(out.chunks_exact_mut(N));
    for (srcs, dsts) in groups {
        let srcs: [&[u8]; N] = std::array::from_fn(|i| srcs[i].as_slice());
        let dsts: &mut [Vec<u8>; N] = dsts.try_into().expect("chunks of N");
        let results = interleaved(kernel, srcs, dsts.each_mut().map(Vec::as_mut_slice));
        for result in results {
            black_box(result.expect("the prototype rejected a liblz4 block"));
        }
    }
    let done = file.compressed.len() / N * N;
    let decoder = block::Decoder::with_kernel(kernel).expect("kernel available");
    for (compressed, dst) in file.compressed[done..].iter().zip(&mut out[done..]) {
        black_box(
            decoder
                .decompress_into(compressed, dst)
                .expect("valid block"),
        );
    }
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` expects a quick run.
    if !std::env::args().any(|arg| arg == "--bench") {
        return;
    }
    if !PROTOTYPE {
        eprintln!("multi_block: the prototype is built on x86_64 with the unsafe feature only");
        return;
    }
    let rounds = env_usize("LZ4_SIMD_BENCH_ROUNDS", 21).max(1);
    let cap = match env_usize("LZ4_SIMD_BENCH_BYTES", 4 << 20) {
        0 => usize::MAX,
        bytes => bytes,
    };
    let block_size = env_usize("LZ4_SIMD_BENCH_BLOCK", CHUNK).max(1);
    let sets = std::env::var("LZ4_SIMD_BENCH_SETS").unwrap_or("corpus,classes".into());
    let wanted = |set: &str| sets.split(',').any(|s| s.trim() == set);
    let mut files: Vec<Sample> = Vec::new();
    if wanted("classes") {
        files.extend(
            CLASSES
                .iter()
                .map(|&(name, sequence)| class_sample(name, sequence)),
        );
    }
    if wanted("probes") {
        files.extend(
            PROBES
                .iter()
                .map(|&(name, sequence)| class_sample(name, sequence)),
        );
    }
    // `LZ4_SIMD_BENCH_FILES`: only the inputs so named (comma-separated), e.g. for Callgrind.
    let only = std::env::var("LZ4_SIMD_BENCH_FILES").ok();
    let keep = |file: &Sample| {
        only.as_ref()
            .is_none_or(|names| names.split(',').any(|n| n.trim() == file.name))
    };
    files.retain(keep);
    let classes = files.len();
    if wanted("corpus") {
        let corpus = corpus::load(cap);
        if corpus.is_empty() {
            eprintln!("NOTICE: no Silesia corpus found (set LZ4_SIMD_CORPUS)");
        }
        files.extend(
            corpus
                .iter()
                .map(|(name, data)| Sample::new(name.clone(), data, block_size))
                .filter(keep),
        );
    }

    // `LZ4_SIMD_BENCH_LANES`: the lane counts measured besides 1 (default `2,4`).
    let lanes = std::env::var("LZ4_SIMD_BENCH_LANES").unwrap_or("2,4".into());
    let mut decoders = Vec::new();
    for kernel in [Kernel::Avx2, Kernel::Sse2] {
        if kernel.is_available() {
            decoders.push(Decoder::Single(kernel));
            for n in [2, 4] {
                if lanes.split(',').any(|l| l.trim() == n.to_string()) {
                    decoders.push(Decoder::Multi(kernel, n));
                }
            }
        }
    }
    decoders.push(Decoder::Liblz4);
    let liblz4 = decoders.len() - 1;
    let index_of = |wanted: Decoder| {
        decoders
            .iter()
            .position(|d| d.name() == wanted.name())
            .expect("listed")
    };

    println!(
        "each decoder: liblz4's time / its time, then [x1's time / its time] (medians of {rounds} interleaved rounds; corpus in {} KiB blocks by liblz4 -1; clock: {}; CPU: {})",
        block_size / 1024,
        clock::name(),
        cpu_model()
    );
    let mut log_sums = vec![(0.0f64, 0.0f64); decoders.len()];
    let mut counted = 0usize;
    for (index, file) in files.iter().enumerate() {
        let mut out: Vec<Vec<u8>> = file.chunks.iter().map(|c| vec![0u8; c.len()]).collect();
        for decoder in &decoders {
            for dst in out.iter_mut() {
                dst.fill(0);
            }
            decoder.run(file, &mut out);
            assert!(
                out.iter().zip(&file.chunks).all(|(o, c)| o == c),
                "{} decoded {} wrongly",
                decoder.name(),
                file.name
            );
        }
        let mut times = vec![Vec::with_capacity(rounds); decoders.len()];
        for _ in 0..rounds {
            for (decoder, times) in decoders.iter().zip(times.iter_mut()) {
                let started = clock::Stamp::now();
                decoder.run(file, &mut out);
                times.push(started.elapsed_secs());
            }
        }
        let time: Vec<f64> = times.iter_mut().map(|times| median(times)).collect();
        let mut line = format!("{:11}", file.name);
        for (i, (decoder, &t)) in decoders.iter().zip(&time).enumerate() {
            let vs_lib = time[liblz4] / t;
            let vs_single = decoder.single().map_or(1.0, |s| time[index_of(s)] / t);
            line += &format!(" {}={vs_lib:.3}", decoder.name());
            if matches!(decoder, Decoder::Multi(..)) {
                line += &format!(" [{vs_single:.3}]");
            }
            if index >= classes {
                log_sums[i].0 += vs_lib.ln();
                log_sums[i].1 += vs_single.ln();
            }
        }
        line += &format!("  ({:.0} MB/s x1)", file.len() as f64 / time[0] / 1e6);
        if index >= classes {
            counted += 1;
        }
        println!("{line}");
    }
    if counted == 0 {
        return;
    }
    let mut line = format!("geomean (Silesia, {counted} files):");
    for (decoder, (lib, single)) in decoders.iter().zip(&log_sums) {
        line += &format!(" {}={:.3}", decoder.name(), (lib / counted as f64).exp());
        if matches!(decoder, Decoder::Multi(..)) {
            line += &format!(" [{:.3}]", (single / counted as f64).exp());
        }
    }
    println!("{line}");
}
