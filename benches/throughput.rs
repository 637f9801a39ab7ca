//! Block compression and decompression throughput: lz4-simd against liblz4 (through `lz4-sys`)
//! and lz4_flex, on the Silesia files when `LZ4_SIMD_CORPUS` (or `corpus/`) holds them,
//! otherwise on generated data.
//!
//! Each file (its first 4 MiB) is cut into 64 KiB chunks, each an independent block, and one
//! iteration compresses or decompresses every chunk. Throughput is reported in uncompressed bytes
//! per second, so rows of a group compare directly. Every codec writes into buffers allocated
//! before the measurement; every decoder decodes the chunks liblz4 compressed (at acceleration 1)
//! into exact-size buffers. `memcpy` (copying the uncompressed chunks) is the decompression
//! ceiling.
//!
//! Groups: `compress` (64 KiB chunks), `decompress` (64 KiB chunks) and `decompress-4MiB` (each
//! file as one 4 MiB block: long matches reach 64 KiB back). Besides the corpus files (or, when
//! the corpus is absent, the built-in generated text, logs, JSON and random bytes that the CLI's
//! `-b` measures), the decode groups always include two generated samples that stress the overlapping-match paths: `runs` (runs of one byte, 1-200
//! long: offset-1 matches) and `short-offsets` (patterns of period 2-15 repeated 16-135 bytes,
//! a few literals between: pattern replication).
//!
//! Bench IDs are `<group>/<codec>/<file>`, e.g. `decompress/avx2/dickens` (one decode row per
//! available kernel: `scalar`, `sse2`, `avx2`, `avx512`, `neon`). lz4_flex
//! runs with its default features (its safe encoder and decoder); its compressor does not aim at
//! liblz4-identical output.
//!
//! The `hc` group compresses the first 512 KiB of each file (64 KiB chunks) with LZ4 HC at levels
//! 3, 9 and 12, ours against liblz4's `LZ4_compress_HC` (`hc/ours/L9/dickens`,
//! `hc/liblz4/L9/dickens`); the compressed sizes of both are printed first.
//!
//! Run: `cargo bench --bench throughput` (add a filter such as `-- decompress/` to run a subset).

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
mod common;

use common::Sample;
use lz4_simd::block;
use testkit::{corpus, liblz4, samples};

const CHUNK: usize = 64 * 1024;
const FILE_CAP: usize = 4 * 1024 * 1024;

fn samples() -> Vec<Sample> {
    let mut files = corpus::load(FILE_CAP);
    if files.is_empty() {
        eprintln!(
            "NOTICE: no Silesia corpus in {}; benchmarking generated data instead",
            corpus::dir().display()
        );
        files = samples::builtin(FILE_CAP);
        // The built-in samples have their own run sample; the stress pair replaces it.
        files.retain(|(name, _)| name != "runs");
    }
    files
        .into_iter()
        .map(|(name, data)| Sample::new(name, &data[..data.len().min(FILE_CAP)], CHUNK))
        .collect()
}

/// Checks once, before measuring, that every codec round-trips every chunk.
fn verify(sample: &Sample) {
    let mut compressor = block::Compressor::new();
    for (chunk, compressed) in sample.chunks.iter().zip(&sample.compressed) {
        let mut scratch = vec![0u8; block::compress_bound(chunk.len())];
        let n = compressor.compress_into(chunk, &mut scratch, 1).unwrap();
        assert_eq!(
            &scratch[..n],
            &compressed[..],
            "lz4-simd differs from liblz4"
        );
        let mut out = vec![0u8; chunk.len()];
        assert_eq!(
            block::decompress_into(compressed, &mut out),
            Ok(chunk.len())
        );
        assert_eq!(&out, chunk);
        out.fill(0);
        assert_eq!(
            lz4_flex::block::decompress_into(compressed, &mut out).unwrap(),
            chunk.len()
        );
        assert_eq!(&out, chunk);
    }
}

fn bench_compress(c: &mut Criterion, samples: &[Sample]) {
    let mut group = c.benchmark_group("compress");
    // lz4_flex refuses a destination smaller than its own (larger) worst-case bound.
    let dst_len = block::compress_bound(CHUNK).max(lz4_flex::block::get_maximum_output_size(CHUNK));
    let mut dst = vec![0u8; dst_len];
    let mut compressor = block::Compressor::new();
    for sample in samples {
        group.throughput(Throughput::Bytes(sample.len() as u64));
        group.bench_function(BenchmarkId::new("lz4-simd", &sample.name), |b| {
            b.iter(|| {
                let mut total = 0;
                for chunk in &sample.chunks {
                    total += compressor
                        .compress_into(black_box(chunk), &mut dst, 1)
                        .unwrap();
                }
                total
            })
        });
        group.bench_function(BenchmarkId::new("liblz4", &sample.name), |b| {
            b.iter(|| {
                let mut total = 0;
                for chunk in &sample.chunks {
                    total += liblz4::compress_fast_into(black_box(chunk), &mut dst, 1);
                }
                total
            })
        });
        group.bench_function(BenchmarkId::new("lz4_flex", &sample.name), |b| {
            b.iter(|| {
                let mut total = 0;
                for chunk in &sample.chunks {
                    total += lz4_flex::block::compress_into(black_box(chunk), &mut dst).unwrap();
                }
                total
            })
        });
    }
    group.finish();
}

fn bench_decompress(c: &mut Criterion, group_name: &str, samples: &[Sample]) {
    let mut group = c.benchmark_group(group_name);
    for sample in samples {
        let mut outputs: Vec<Vec<u8>> = sample.chunks.iter().map(|c| vec![0u8; c.len()]).collect();
        group.throughput(Throughput::Bytes(sample.len() as u64));
        // One row per decode kernel this CPU can run (`decompress/avx2/dickens`, ...).
        for kernel in lz4_simd::Kernel::available() {
            group.bench_function(BenchmarkId::new(kernel.name(), &sample.name), |b| {
                b.iter(|| {
                    let mut total = 0;
                    for (src, dst) in sample.compressed.iter().zip(outputs.iter_mut()) {
                        total += block::Decoder::with_kernel(kernel)
                            .and_then(|decoder| decoder.decompress_into(black_box(src), dst))
                            .unwrap();
                    }
                    total
                })
            });
        }
        group.bench_function(BenchmarkId::new("liblz4", &sample.name), |b| {
            b.iter(|| {
                let mut total = 0;
                for (src, dst) in sample.compressed.iter().zip(outputs.iter_mut()) {
                    total += liblz4::decompress_safe_into(black_box(src), dst)
                        .expect("liblz4 rejected a block");
                }
                total
            })
        });
        group.bench_function(BenchmarkId::new("lz4_flex", &sample.name), |b| {
            b.iter(|| {
                let mut total = 0;
                for (src, dst) in sample.compressed.iter().zip(outputs.iter_mut()) {
                    total += lz4_flex::block::decompress_into(black_box(src), dst).unwrap();
                }
                total
            })
        });
        group.bench_function(BenchmarkId::new("memcpy", &sample.name), |b| {
            b.iter(|| {
                for (src, dst) in sample.chunks.iter().zip(outputs.iter_mut()) {
                    dst.copy_from_slice(black_box(src));
                }
                black_box(&mut outputs);
            })
        });
    }
    group.finish();
}

/// HC levels benchmarked side by side with liblz4.
const HC_LEVELS: [u8; 3] = [3, 9, 12];
/// Bytes of each file the HC group compresses (HC is 10-100 times slower than the fast mode).
const HC_FILE_CAP: usize = 512 * 1024;

fn bench_hc(c: &mut Criterion, samples: &[Sample]) {
    let mut group = c.benchmark_group("hc");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(300));
    group.measurement_time(Duration::from_secs(1));
    let mut dst = vec![0u8; block::compress_bound(CHUNK)];
    let mut compressor = block::HcCompressor::new();
    for sample in samples {
        let chunks: Vec<&[u8]> = sample
            .chunks
            .iter()
            .take(HC_FILE_CAP / CHUNK)
            .map(Vec::as_slice)
            .collect();
        let len: usize = chunks.iter().map(|c| c.len()).sum();
        group.throughput(Throughput::Bytes(len as u64));
        for level in HC_LEVELS {
            let (mut ours, mut theirs) = (0, 0);
            for chunk in &chunks {
                ours += compressor.compress_into(chunk, &mut dst, level).unwrap();
                theirs += liblz4::compress_hc_into(chunk, &mut dst, i32::from(level));
            }
            eprintln!(
                "hc L{level} {}: {len} bytes -> ours {ours} (ratio {:.3}), liblz4 {theirs} (ratio {:.3})",
                sample.name,
                len as f64 / ours as f64,
                len as f64 / theirs as f64
            );
            group.bench_function(
                BenchmarkId::new(format!("ours/L{level}"), &sample.name),
                |b| {
                    b.iter(|| {
                        let mut total = 0;
                        for chunk in &chunks {
                            total += compressor
                                .compress_into(black_box(chunk), &mut dst, level)
                                .unwrap();
                        }
                        total
                    })
                },
            );
            group.bench_function(
                BenchmarkId::new(format!("liblz4/L{level}"), &sample.name),
                |b| {
                    b.iter(|| {
                        let mut total = 0;
                        for chunk in &chunks {
                            total += liblz4::compress_hc_into(
                                black_box(chunk),
                                &mut dst,
                                i32::from(level),
                            );
                        }
                        total
                    })
                },
            );
        }
    }
    group.finish();
}

fn throughput(c: &mut Criterion) {
    let samples = samples();
    for sample in &samples {
        verify(sample);
        eprintln!(
            "{}: {} bytes in {} chunks, liblz4 ratio {:.3}",
            sample.name,
            sample.len(),
            sample.chunks.len(),
            sample.len() as f64 / sample.compressed_len() as f64
        );
    }
    bench_compress(c, &samples);

    // Decode: the same files plus the stress samples, in 64 KiB blocks and as 4 MiB blocks.
    let mut decode_inputs: Vec<(String, Vec<u8>)> = samples
        .iter()
        .map(|sample| (sample.name.clone(), sample.chunks.concat()))
        .collect();
    decode_inputs.extend(samples::stress(FILE_CAP));
    let small: Vec<Sample> = decode_inputs
        .iter()
        .map(|(name, data)| Sample::new(name.clone(), &data[..data.len().min(FILE_CAP)], CHUNK))
        .collect();
    let large: Vec<Sample> = decode_inputs
        .into_iter()
        .map(|(name, data)| Sample::new(name, &data[..data.len().min(FILE_CAP)], FILE_CAP))
        .collect();
    for sample in small.iter().chain(&large).skip(samples.len()) {
        verify(sample);
    }
    bench_decompress(c, "decompress", &small);
    bench_decompress(c, "decompress-4MiB", &large);
    bench_hc(c, &samples);
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(1))
        .sample_size(20)
}

criterion_group! {
    name = benches;
    config = config();
    targets = throughput
}
criterion_main!(benches);
