//! The cost of compressing small messages with a prepared dictionary: 1 KiB and 4 KiB messages
//! with a 64 KiB dictionary, lz4-simd's `Compressor::compress_with_dictionary_into` against
//! liblz4's `LZ4_attach_dictionary` + `LZ4_compress_fast_continue` (on a working stream reset with
//! `LZ4_resetStream_fast` per message, as LZ4F does), and against lz4-simd compressing the same
//! message without a dictionary (`Compressor::compress_into`). The targets: at least
//! liblz4's speed, and within 1.5x of the dictionary-less time.
//!
//! Data: the dictionary is the first 64 KiB of Silesia `dickens` (`testkit::corpus`), the
//! messages are cut from the text after it; generated text when the corpus is absent (a NOTICE
//! goes to standard error).
//!
//! Bench IDs: `dict-compress/<codec>/<message size>`, codecs `lz4-simd-dict`, `liblz4-attach`,
//! `lz4-simd-no-dict`.
//!
//! Run: `cargo bench --bench dict`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use lz4_simd::block::{self, Compressor, Dictionary};
use testkit::liblz4::{Stream, Working};

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
            .compress_with_dictionary_into(&message, &mut dst, &dict, 1)
            .unwrap();
        let ours = dst[..ours].to_vec();
        let mut theirs = vec![0u8; dst.len()];
        let n = working.compress_attached(&dict_stream, &message, &mut theirs, 1);
        assert_eq!(&theirs[..n], &ours[..]);

        group.bench_with_input(BenchmarkId::new("lz4-simd-dict", len), &message, |b, m| {
            b.iter(|| {
                compressor
                    .compress_with_dictionary_into(black_box(m), &mut dst, &dict, 1)
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

criterion_group! {
    name = benches;
    config = Criterion::default()
        .measurement_time(Duration::from_secs(1))
        .sample_size(20);
    targets = dict_compress
}
criterion_main!(benches);
