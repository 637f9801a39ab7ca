//! The cost of compressing small messages with a prepared dictionary: 1 KiB and 4 KiB messages
//! with a 64 KiB dictionary, lz4-simd's `Compressor::compress_into_with_prepared_dictionary`
//! against liblz4's `LZ4_attach_dictionary` + `LZ4_compress_fast_continue` (on a working stream
//! reset with `LZ4_resetStream_fast` per message, as LZ4F does), and against lz4-simd compressing
//! the same message without a dictionary (`Compressor::compress_into`). The targets: at
//! least liblz4's speed, and within 1.5x of the dictionary-less time.
//!
//! Data: the dictionary is the first 64 KiB of Silesia `dickens` (`testkit::corpus`), the
//! messages are cut from the text after it; generated text when the corpus is absent (a NOTICE
//! goes to standard error).
//!
//! Bench IDs: `dict-compress/<codec>/<message size>`, codecs `lz4-simd-dict`, `liblz4-attach`,
//! `lz4-simd-no-dict`.
//!
//! Streams: 1 MiB of the same text as a stream of 4 KiB or 64 KiB blocks, each block able to
//! reference the previous ones. Compression: `StreamCompressor::compress_into` against liblz4's
//! `LZ4_compress_fast_continue` + `LZ4_saveDict(64 KiB)` (the same C layout, the same bytes);
//! decoding: `StreamDecoder::decompress_into` (detected kernel, named in the ID) against
//! `LZ4_decompress_safe_continue` into one contiguous buffer. Bench IDs:
//! `stream-compress/<codec>/<block size>`, `stream-decode/<codec>/<block size>`, codecs
//! `lz4-simd` (`lz4-simd-<kernel>` for decoding) and `liblz4-continue`; throughput is of the
//! uncompressed stream.
//!
//! Run: `cargo bench --bench dict`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use lz4_simd::block::{self, Compressor, Dictionary, StreamCompressor, StreamDecoder};
use lz4_simd::Kernel;
use testkit::liblz4::{SavingStream, Stream, StreamDecode, Working};

const DICT_LEN: usize = 64 * 1024;
const MESSAGE_LENS: [usize; 2] = [1024, 4096];

/// The dictionary and the text the messages are cut from.
fn sample() -> Vec<u8> {
    let from_corpus = testkit::corpus::file("dickens", 1 << 20);
    from_corpus.unwrap_or_else(|| {
        eprintln!("NOTICE: Silesia corpus not found; generated text instead");
        const WORDS: [&str; 12] = [
            "the ", "of ", "and ", "a ", "to ", "in ", "he ", "was ", "that ", "it ", "his ", ".\n",
        ];
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut out = Vec::with_capacity(1 << 20);
        while out.len() < 1 << 20 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            out.extend_from_slice(WORDS[(state % WORDS.len() as u64) as usize].as_bytes());
        }
        out
    })
}

fn dict_compress(c: &mut Criterion) {
    let data = sample();
    let (dict_bytes, text) = data.split_at(DICT_LEN);
    let dict = Dictionary::new(dict_bytes);
    let dict_stream = Stream::with_dict(dict_bytes);
    let mut working = Working::new();
    let mut compressor = Compressor::new();

    let mut group = c.benchmark_group("dict-compress");
    for len in MESSAGE_LENS {
        // A message from well after the dictionary, in its own buffer.
        let message = text[100_000..100_000 + len].to_vec();
        let mut dst = vec![0u8; block::compress_bound(len)];
        group.throughput(Throughput::Bytes(len as u64));

        // Same bytes from both before timing anything.
        let ours = compressor
            .compress_into_with_prepared_dictionary(&message, &mut dst, &dict, 1)
            .unwrap();
        let ours = dst[..ours].to_vec();
        let mut theirs = vec![0u8; dst.len()];
        let n = working.compress_attached(&dict_stream, &message, &mut theirs, 1);
        assert_eq!(&theirs[..n], &ours[..]);

        group.bench_with_input(BenchmarkId::new("lz4-simd-dict", len), &message, |b, m| {
            b.iter(|| {
                compressor
                    .compress_into_with_prepared_dictionary(black_box(m), &mut dst, &dict, 1)
                    .unwrap()
            })
        });
        group.bench_with_input(BenchmarkId::new("liblz4-attach", len), &message, |b, m| {
            b.iter(|| working.compress_attached(&dict_stream, black_box(m), &mut theirs, 1))
        });
        group.bench_with_input(
            BenchmarkId::new("lz4-simd-no-dict", len),
            &message,
            |b, m| b.iter(|| compressor.compress_into(black_box(m), &mut dst, 1).unwrap()),
        );
    }
    group.finish();
}

const STREAM_LEN: usize = 1 << 20;
const STREAM_BLOCKS: [usize; 2] = [4096, 65536];

fn stream(c: &mut Criterion) {
    let data = sample();
    let text = &data[..STREAM_LEN.min(data.len())];
    let kernel = Kernel::detect().name();
    for block_len in STREAM_BLOCKS {
        let chunks: Vec<Vec<u8>> = text.chunks(block_len).map(<[u8]>::to_vec).collect();
        let mut dst = vec![0u8; block::compress_bound(block_len)];
        // The stream, compressed by both (the same bytes, checked here).
        let mut ours = StreamCompressor::new();
        let mut theirs = SavingStream::new(Stream::new());
        let mut blocks = Vec::new();
        for chunk in &chunks {
            let n = ours.compress_into(chunk, &mut dst, 1).unwrap();
            let mut want = vec![0u8; dst.len()];
            let m = theirs.compress_from(chunk, &mut want, 1);
            assert_eq!(&dst[..n], &want[..m]);
            blocks.push(dst[..n].to_vec());
        }

        let mut group = c.benchmark_group("stream-compress");
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function(BenchmarkId::new("lz4-simd", block_len), |b| {
            b.iter(|| {
                ours.reset();
                for chunk in &chunks {
                    black_box(ours.compress_into(black_box(chunk), &mut dst, 1).unwrap());
                }
            })
        });
        group.bench_function(BenchmarkId::new("liblz4-continue", block_len), |b| {
            b.iter(|| {
                let mut theirs = SavingStream::new(Stream::new());
                for chunk in &chunks {
                    black_box(theirs.compress_from(black_box(chunk), &mut dst, 1));
                }
            })
        });
        group.finish();

        let mut group = c.benchmark_group("stream-decode");
        group.throughput(Throughput::Bytes(text.len() as u64));
        let mut decoder = StreamDecoder::new();
        let mut out = vec![0u8; block_len];
        group.bench_function(
            BenchmarkId::new(format!("lz4-simd-{kernel}"), block_len),
            |b| {
                b.iter(|| {
                    decoder.reset();
                    for block in &blocks {
                        black_box(decoder.decompress_into(black_box(block), &mut out).unwrap());
                    }
                })
            },
        );
        let mut contiguous = vec![0u8; text.len()];
        group.bench_function(BenchmarkId::new("liblz4-continue", block_len), |b| {
            b.iter(|| {
                let mut theirs = StreamDecode::new(&[]);
                let mut at = 0;
                for block in &blocks {
                    let end = (at + block_len).min(contiguous.len());
                    at += theirs
                        .decompress(black_box(block), &mut contiguous[at..end])
                        .unwrap();
                }
            })
        });
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .measurement_time(Duration::from_secs(1))
        .sample_size(20);
    targets = dict_compress, stream
}
criterion_main!(benches);
