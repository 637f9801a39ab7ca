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
use std::os::raw::c_void;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
mod common;

use common::{corpus_dir, load_corpus, Rng, WORDS};
use lz4_simd::frame::{self, FrameOptions};

const FILE_CAP: usize = 16 << 20;

extern "C" {
    fn LZ4F_compressFrame(
        dst: *mut c_void,
        dst_capacity: usize,
        src: *const c_void,
        src_size: usize,
        preferences: *const lz4_sys::LZ4FPreferences,
    ) -> usize;
    fn LZ4F_compressFrameBound(
        src_size: usize,
        preferences: *const lz4_sys::LZ4FPreferences,
    ) -> usize;
}

fn liblz4_preferences() -> lz4_sys::LZ4FPreferences {
    lz4_sys::LZ4FPreferences {
        frame_info: lz4_sys::LZ4FFrameInfo {
            block_size_id: lz4_sys::BlockSize::Max4MB,
            block_mode: lz4_sys::BlockMode::Independent,
            content_checksum_flag: lz4_sys::ContentChecksum::ChecksumEnabled,
            frame_type: lz4_sys::FrameType::Frame,
            content_size: 0,
            dict_id: 0,
            block_checksum_flag: lz4_sys::BlockChecksum::NoBlockChecksum,
        },
        compression_level: 0,
        auto_flush: 1,
        favor_dec_speed: 0,
        reserved: [0; 3],
    }
}

/// liblz4 `LZ4F_compressFrame` into `dst` (sized by `LZ4F_compressFrameBound`).
fn liblz4_compress_frame(src: &[u8], dst: &mut [u8]) -> usize {
    let prefs = liblz4_preferences();
    // SAFETY: `dst` and `src` are valid for the lengths passed; `prefs` outlives the call.
    let n = unsafe {
        LZ4F_compressFrame(
            dst.as_mut_ptr().cast(),
            dst.len(),
            src.as_ptr().cast(),
            src.len(),
            &prefs,
        )
    };
    // SAFETY: a pure function of the code.
    assert!(
        unsafe { lz4_sys::LZ4F_isError(n) } == 0,
        "LZ4F_compressFrame failed"
    );
    n
}

/// A reusable liblz4 frame decompression context.
struct LibDecoder(lz4_sys::LZ4FDecompressionContext);

impl LibDecoder {
    fn new() -> Self {
        let mut ctx = lz4_sys::LZ4FDecompressionContext(std::ptr::null_mut());
        // SAFETY: creates a context owned by this struct, freed in Drop.
        let code =
            unsafe { lz4_sys::LZ4F_createDecompressionContext(&mut ctx, lz4_sys::LZ4F_VERSION) };
        // SAFETY: a pure function of the code.
        assert!(unsafe { lz4_sys::LZ4F_isError(code) } == 0);
        LibDecoder(ctx)
    }

    /// Decodes the whole frame `src` into `dst` (large enough), returning the decoded length.
    fn decode(&mut self, src: &[u8], dst: &mut [u8]) -> usize {
        let (mut in_pos, mut out_pos) = (0usize, 0usize);
        loop {
            let mut src_size = src.len() - in_pos;
            let mut dst_size = dst.len() - out_pos;
            // SAFETY: the pointers and sizes describe the unread part of `src` and the unwritten
            // part of `dst`; liblz4 stays within them.
            let hint = unsafe {
                lz4_sys::LZ4F_decompress(
                    self.0,
                    dst.as_mut_ptr().add(out_pos),
                    &mut dst_size,
                    src.as_ptr().add(in_pos),
                    &mut src_size,
                    std::ptr::null(),
                )
            };
            // SAFETY: a pure function of the code.
            assert!(
                unsafe { lz4_sys::LZ4F_isError(hint) } == 0,
                "LZ4F_decompress failed"
            );
            in_pos += src_size;
            out_pos += dst_size;
            if hint == 0 {
                return out_pos;
            }
        }
    }
}

impl Drop for LibDecoder {
    fn drop(&mut self) {
        // SAFETY: the context was created in `new` and is freed once.
        unsafe { lz4_sys::LZ4F_freeDecompressionContext(self.0) };
    }
}

struct Sample {
    name: String,
    data: Vec<u8>,
    /// liblz4's frame of `data`.
    framed: Vec<u8>,
}

fn samples() -> Vec<Sample> {
    let mut files = load_corpus(FILE_CAP);
    if files.is_empty() {
        eprintln!(
            "NOTICE: no Silesia corpus in {}; benchmarking generated text instead",
            corpus_dir().display()
        );
        let mut rng = Rng(0x5DEE_CE66_D1CE_4E5B);
        let mut text = Vec::new();
        while text.len() < 8 << 20 {
            text.extend_from_slice(WORDS[rng.below(WORDS.len() as u64) as usize].as_bytes());
            text.push(if rng.below(12) == 0 { b'\n' } else { b' ' });
        }
        files = vec![("text".to_string(), text)];
    }
    files
        .into_iter()
        .map(|(name, data)| {
            let prefs = liblz4_preferences();
            // SAFETY: a pure function of its arguments.
            let bound = unsafe { LZ4F_compressFrameBound(data.len(), &prefs) };
            let mut framed = vec![0u8; bound];
            let n = liblz4_compress_frame(&data, &mut framed);
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
        LibDecoder::new().decode(&sample.framed, &mut dst),
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
                let mut encoder = frame::FrameEncoder::new(&mut out, options.clone());
                encoder.write_all(black_box(&sample.data)).unwrap();
                encoder.finish().unwrap();
                out.len()
            })
        });
        let prefs = liblz4_preferences();
        // SAFETY: a pure function of its arguments.
        let mut dst = vec![0u8; unsafe { LZ4F_compressFrameBound(sample.data.len(), &prefs) }];
        group.bench_function(BenchmarkId::new("liblz4", &sample.name), |b| {
            b.iter(|| liblz4_compress_frame(black_box(&sample.data), &mut dst))
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
        let mut decoder = LibDecoder::new();
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
