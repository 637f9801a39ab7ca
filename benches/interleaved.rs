//! Decode throughput side by side, interleaved: the method behind the figures in README.md and
//! `asm-notes/`.
//!
//! Every decoder (each decode kernel this CPU has, liblz4's `LZ4_decompress_safe`, lz4_flex's
//! safe decoder, and `memcpy` of the output as the ceiling) decodes the same 64 KiB blocks, which
//! liblz4 compressed at acceleration 1, into exact-size buffers. Each round runs every decoder once
//! over all blocks of a file, one after the other, so the drift of a shared, noisy machine (its
//! clock and its neighbours) falls on all of them alike; sequential benchmarks such as criterion's
//! measure one decoder for seconds and then the next, and there that drift shows as ±10-20%
//! ratios. A decoder's time is the median of its rounds (robust to the occasional round in which
//! one decoder alone runs with the machine quiet: the fastest round then flatters it); the figures
//! are liblz4's time divided by it (above 1 is faster than liblz4), per file and as the geometric
//! mean over the Silesia files.
//!
//! Code placement moves these ratios too (up to ±5-10% between binaries with the same source): run
//! it for two or three differently built binaries before trusting a small difference, e.g.
//! `RUSTFLAGS="-C llvm-args=-align-all-functions=6" CARGO_TARGET_DIR=target/al cargo bench
//! --bench interleaved`, and several processes each.
//!
//! Inputs: the Silesia files of `LZ4_SIMD_CORPUS` (or `corpus/`), the first
//! `LZ4_SIMD_BENCH_BYTES` bytes of each (default 4 MiB; `0` means whole files), or the built-in
//! generated text and logs when the corpus is absent; and the generated stress samples `runs` and
//! `short-offsets` (reported against lz4_flex too). `LZ4_SIMD_BENCH_ROUNDS` (default 21) sets the
//! rounds. Every decoder's output is checked against the input before it is timed.
//! `LZ4_SIMD_BENCH_CLOCK=cpu` times each run by the thread's CPU time instead of wall time, which
//! leaves out the time other processes run on a shared machine (see `testkit::clock`).
//!
//! `LZ4_SIMD_BENCH_BLOCK` sets the block size of the corpus files (default 64 KiB; e.g. 4194304
//! for the 4 MiB case). `LZ4_SIMD_BENCH_SETS` picks what is measured, a comma-separated list of
//! `corpus`, `stress` and `classes` (default all three). `classes` are synthetic blocks built
//! sequence by sequence (not by a compressor), one decode cost each, so a kernel's cost can be
//! measured class by class: `off1-7`, `off8-15` and `off16-64` (short matches at those offsets,
//! the last reading output written a few sequences earlier), `lit-long` (literal runs of 32-400
//! bytes), `match-long` (matches of 65-600 bytes) and `short-seq` (runs of short sequences, 0-4
//! literals and 4-7-byte matches from 64 B to 16 KiB back). Each is 4 MiB in 64 KiB blocks. The set
//! `probes` (not in the default) holds `off16-64`'s sequences at offsets 65-128, 129-512 and
//! 1-16 KiB: what reading recently stored output costs.
//!
//! Run: `cargo bench --bench interleaved`.

use std::hint::black_box;

mod common;

use common::classes::{class_sample, cpu_model, CHUNK, CLASSES, PROBES};
use common::{env_usize, median, Sample};
use lz4_simd::{block, Kernel};
use testkit::{clock, corpus, liblz4, samples};

/// One decoder of the comparison.
#[derive(Clone, Copy)]
enum Decoder {
    Ours(Kernel),
    Liblz4,
    Lz4Flex,
    Memcpy,
}

impl Decoder {
    fn name(self) -> &'static str {
        match self {
            Decoder::Ours(kernel) => kernel.name(),
            Decoder::Liblz4 => "liblz4",
            Decoder::Lz4Flex => "lz4_flex",
            Decoder::Memcpy => "memcpy",
        }
    }

    /// Decodes every block of `file` into `out` (one buffer per block, exactly sized).
    #[inline(never)]
    fn run(self, file: &Sample, out: &mut [Vec<u8>]) {
        let blocks = file.compressed.iter().zip(&file.chunks).zip(out.iter_mut());
        match self {
            Decoder::Ours(kernel) => {
                for ((compressed, _), dst) in blocks {
                    let n = block::Decoder::with_kernel(kernel)
                        .and_then(|decoder| decoder.decompress_into(compressed, dst))
                        .expect("our decoder rejected a liblz4 block");
                    black_box(n);
                }
            }
            Decoder::Liblz4 => {
                for ((compressed, _), dst) in blocks {
                    let n = liblz4::decompress_safe_into(compressed, dst)
                        .expect("liblz4 rejected its own block");
                    black_box(n);
                }
            }
            Decoder::Lz4Flex => {
                for ((compressed, _), dst) in blocks {
                    let n = lz4_flex::block::decompress_into(compressed, dst)
                        .expect("lz4_flex rejected a liblz4 block");
                    black_box(n);
                }
            }
            Decoder::Memcpy => {
                for ((_, chunk), dst) in blocks {
                    dst.copy_from_slice(chunk);
                    black_box(&dst);
                }
            }
        }
    }
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` passes nothing and expects a quick
    // run: measure only when asked to bench.
    if !std::env::args().any(|arg| arg == "--bench") {
        return;
    }
    let rounds = env_usize("LZ4_SIMD_BENCH_ROUNDS", 21).max(1);
    let cap = match env_usize("LZ4_SIMD_BENCH_BYTES", 4 << 20) {
        0 => usize::MAX,
        bytes => bytes,
    };
    let block_size = env_usize("LZ4_SIMD_BENCH_BLOCK", CHUNK).max(1);
    let sets = std::env::var("LZ4_SIMD_BENCH_SETS").unwrap_or("corpus,stress,classes".into());
    let wanted = |set: &str| sets.split(',').any(|s| s.trim() == set);
    let mut corpus = Vec::new();
    let mut generated = false;
    if wanted("corpus") {
        corpus = corpus::load(cap);
        generated = corpus.is_empty();
        if generated {
            eprintln!("NOTICE: no Silesia corpus found; measuring generated text and logs instead");
            corpus = samples::builtin(4 << 20);
            corpus.retain(|(name, _)| name == "text" || name == "logs");
        }
    }
    // The corpus in `block_size` blocks, then the stress samples and classes in 64 KiB blocks.
    let mut files: Vec<Sample> = corpus
        .iter()
        .map(|(name, data)| Sample::new(name.clone(), data, block_size))
        .collect();
    let counted_files = files.len();
    if wanted("stress") {
        for (name, data) in samples::stress(4 << 20) {
            files.push(Sample::new(name, &data, CHUNK));
        }
    }
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

    let mut decoders: Vec<Decoder> = Kernel::available().into_iter().map(Decoder::Ours).collect();
    decoders.extend([Decoder::Liblz4, Decoder::Lz4Flex, Decoder::Memcpy]);
    let liblz4 = decoders
        .iter()
        .position(|d| matches!(d, Decoder::Liblz4))
        .expect("liblz4 is in the list");
    let flex = liblz4 + 1;

    println!(
        "ratio = liblz4's time / the decoder's (medians of {rounds} interleaved rounds; corpus in {} KiB blocks by liblz4 -1; clock: {}; CPU: {})",
        block_size / 1024,
        clock::name(),
        cpu_model()
    );
    let mut log_sums = vec![0.0f64; decoders.len()];
    let mut counted = 0usize;
    for (index, file) in files.iter().enumerate() {
        let mut out: Vec<Vec<u8>> = file.chunks.iter().map(|c| vec![0u8; c.len()]).collect();
        // Every decoder must reproduce the input (this pass also warms the caches and the clock).
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
        let mut line = format!("{:14}", file.name);
        for (decoder, &t) in decoders.iter().zip(&time) {
            line += &format!(
                " {}={:.3} ({:.0} MB/s)",
                decoder.name(),
                time[liblz4] / t,
                file.len() as f64 / t / 1e6
            );
        }
        if index >= counted_files {
            line += &format!(
                "  | vs lz4_flex:{}",
                decoders
                    .iter()
                    .zip(&time)
                    .filter(|(d, _)| matches!(d, Decoder::Ours(_)))
                    .map(|(d, &t)| format!(" {}={:.2}", d.name(), time[flex] / t))
                    .collect::<String>()
            );
        } else {
            counted += 1;
            for (sum, &t) in log_sums.iter_mut().zip(&time) {
                *sum += (time[liblz4] / t).ln();
            }
        }
        println!("{line}");
    }
    if counted == 0 {
        return;
    }
    let label = if generated { "generated" } else { "Silesia" };
    let mut line = format!("geomean ({label}, {counted} files):");
    for (decoder, sum) in decoders.iter().zip(&log_sums) {
        line += &format!(" {}={:.3}", decoder.name(), (sum / counted as f64).exp());
    }
    println!("{line}");
}
