//! Frame compression and decompression throughput: lz4-simd against liblz4's frame API (LZ4F,
//! through `lz4-sys`) and lz4_flex's frame, on the Silesia files (whole files up to 16 MiB) or
//! generated text when the corpus is absent.
//!
//! Options for every codec: 4 MiB independent blocks, content checksum on, no block checksums,
//! fast level (acceleration 1), as the `lz4` tool writes. Every decoder decodes liblz4's frame.
//! The `xxh32` row hashes the uncompressed data alone: its throughput against the decode rows
//! gives the checksum's share of frame decoding.
//!
//! Bench IDs: `frame-compress/<codec>/<file>`, `frame-decompress/<codec>/<file>`;
//! `lz4-simd-stream` is the `std::io` streaming API (`FrameEncoder` / `FrameDecoder`).
//!
//! Run: `cargo bench --bench frame`.

use std::hint::black_box;
use std::io::{Read, Write};
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use lz4_simd::frame::{self, FrameOptions};
use testkit::{corpus, liblz4, samples};

const FILE_CAP: usize = 16 << 20;

struct Sample {
    name: String,
    data: Vec<u8>,
    /// liblz4's frame of `data`.
    framed: Vec<u8>,
}

fn samples() -> Vec<Sample> {
    let mut files = corpus::load(FILE_CAP);
    if files.is_empty() {
        eprintln!(
            "NOTICE: no Silesia corpus in {}; benchmarking generated text instead",
            corpus::dir().display()
        );
        files = samples::builtin(8 << 20);
        files.retain(|(name, _)| name == "text");
    }
    let prefs = liblz4::frame_preferences();
    files
        .into_iter()
        .map(|(name, data)| {
            let mut framed = vec![0u8; liblz4::compress_frame_bound(data.len(), &prefs)];
            let n = liblz4::compress_frame(&data, &mut framed, &prefs);
            framed.truncate(n);
            Sample { name, data, framed }
        })
        .collect()
}

/// Before measuring: every codec's frame decodes with every decoder to the input, and ours is
/// byte-identical to liblz4's.
fn verify(sample: &Sample) {
    let ours = frame::compress(&sample.data, &FrameOptions::default());
    assert!(
        ours == sample.framed,
        "{}: our frame differs from LZ4F_compressFrame's",
        sample.name
    );
    assert!(frame::decompress(&sample.framed, sample.data.len()).unwrap() == sample.data);
    let mut flex = Vec::new();
    lz4_flex::frame::FrameDecoder::new(&sample.framed[..])
        .read_to_end(&mut flex)
        .unwrap();
    assert!(flex == sample.data);
    let mut dst = vec![0u8; sample.data.len()];
    assert_eq!(
        liblz4::FrameDecoder::new().decode(&sample.framed, &mut dst),
        sample.data.len()
    );
    assert!(dst == sample.data);
}

fn flex_frame_info() -> lz4_flex::frame::FrameInfo {
    lz4_flex::frame::FrameInfo::new()
        .block_size(lz4_flex::frame::BlockSize::Max4MB)
        .block_mode(lz4_flex::frame::BlockMode::Independent)
        .content_checksum(true)
}

fn bench_compress(c: &mut Criterion, samples: &[Sample]) {
    let mut group = c.benchmark_group("frame-compress");
    for sample in samples {
        group.throughput(Throughput::Bytes(sample.data.len() as u64));
        let options = FrameOptions::default();
        group.bench_function(BenchmarkId::new("lz4-simd", &sample.name), |b| {
            b.iter(|| black_box(frame::compress(black_box(&sample.data), &options)).len())
        });
        let mut out = Vec::with_capacity(sample.framed.len() * 2);
        group.bench_function(BenchmarkId::new("lz4-simd-stream", &sample.name), |b| {
            b.iter(|| {
                out.clear();
                let mut encoder = frame::FrameEncoder::with_options(&mut out, options.clone());
                encoder.write_all(black_box(&sample.data)).unwrap();
                encoder.finish().unwrap();
                out.len()
            })
        });
        let prefs = liblz4::frame_preferences();
        let mut dst = vec![0u8; liblz4::compress_frame_bound(sample.data.len(), &prefs)];
        group.bench_function(BenchmarkId::new("liblz4", &sample.name), |b| {
            b.iter(|| liblz4::compress_frame(black_box(&sample.data), &mut dst, &prefs))
        });
        group.bench_function(BenchmarkId::new("lz4_flex", &sample.name), |b| {
            b.iter(|| {
                out.clear();
                let mut encoder =
                    lz4_flex::frame::FrameEncoder::with_frame_info(flex_frame_info(), &mut out);
                encoder.write_all(black_box(&sample.data)).unwrap();
                encoder.finish().unwrap();
                out.len()
            })
        });
    }
    group.finish();
}

fn bench_decompress(c: &mut Criterion, samples: &[Sample]) {
    let mut group = c.benchmark_group("frame-decompress");
    for sample in samples {
        group.throughput(Throughput::Bytes(sample.data.len() as u64));
        group.bench_function(BenchmarkId::new("lz4-simd", &sample.name), |b| {
            b.iter(|| {
                frame::decompress(black_box(&sample.framed), sample.data.len())
                    .unwrap()
                    .len()
            })
        });
        let mut out = Vec::with_capacity(sample.data.len());
        group.bench_function(BenchmarkId::new("lz4-simd-stream", &sample.name), |b| {
            b.iter(|| {
                out.clear();
                frame::FrameDecoder::new(black_box(&sample.framed[..]))
                    .read_to_end(&mut out)
                    .unwrap()
            })
        });
        let mut decoder = liblz4::FrameDecoder::new();
        let mut dst = vec![0u8; sample.data.len()];
        group.bench_function(BenchmarkId::new("liblz4", &sample.name), |b| {
            b.iter(|| decoder.decode(black_box(&sample.framed), &mut dst))
        });
        group.bench_function(BenchmarkId::new("lz4_flex", &sample.name), |b| {
            b.iter(|| {
                out.clear();
                lz4_flex::frame::FrameDecoder::new(black_box(&sample.framed[..]))
                    .read_to_end(&mut out)
                    .unwrap()
            })
        });
        group.bench_function(BenchmarkId::new("xxh32", &sample.name), |b| {
            b.iter(|| xxhash_rust::xxh32::xxh32(black_box(&sample.data), 0))
        });
    }
    group.finish();
}

fn frames(c: &mut Criterion) {
    let samples = samples();
    for sample in &samples {
        verify(sample);
    }
    bench_compress(c, &samples);
    bench_decompress(c, &samples);
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sample_size(10)
}

criterion_group! {
    name = benches;
    config = config();
    targets = frames
}
criterion_main!(benches);
