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
use std::os::raw::{c_char, c_int, c_void};
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use lz4_simd::block::{self, Compressor, Dictionary};

// liblz4's streaming functions (linked through the test kit, which also finds the corpus).
extern "C" {
    fn LZ4_createStream() -> *mut c_void;
    fn LZ4_freeStream(stream: *mut c_void) -> c_int;
    fn LZ4_loadDict(stream: *mut c_void, dict: *const c_char, dict_size: c_int) -> c_int;
    fn LZ4_attach_dictionary(working: *mut c_void, dict_stream: *const c_void);
    fn LZ4_resetStream_fast(stream: *mut c_void);
    fn LZ4_compress_fast_continue(
        stream: *mut c_void,
        src: *const c_char,
        dst: *mut c_char,
        src_size: c_int,
        dst_capacity: c_int,
        acceleration: c_int,
    ) -> c_int;
}

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

/// A liblz4 stream, freed on drop.
struct Stream(*mut c_void);

impl Stream {
    fn new() -> Self {
        // SAFETY: no preconditions; checked for null.
        let stream = unsafe { LZ4_createStream() };
        assert!(!stream.is_null());
        Self(stream)
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        // SAFETY: created by LZ4_createStream, freed once.
        unsafe { LZ4_freeStream(self.0) };
    }
}

fn dict_compress(c: &mut Criterion) {
    let data = sample();
    let (dict_bytes, text) = data.split_at(DICT_LEN);
    let dict = Dictionary::new(dict_bytes);
    let dict_stream = Stream::new();
    // SAFETY: a live stream; `dict_bytes` outlives every use of the stream.
    unsafe { LZ4_loadDict(dict_stream.0, dict_bytes.as_ptr().cast(), DICT_LEN as c_int) };
    let working = Stream::new();
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
        // SAFETY: live streams and slices with their lengths.
        let n = unsafe {
            LZ4_resetStream_fast(working.0);
            LZ4_attach_dictionary(working.0, dict_stream.0);
            LZ4_compress_fast_continue(
                working.0,
                message.as_ptr().cast(),
                theirs.as_mut_ptr().cast(),
                len as c_int,
                theirs.len() as c_int,
                1,
            )
        };
        assert_eq!(&theirs[..n as usize], &ours[..]);

        group.bench_with_input(BenchmarkId::new("lz4-simd-dict", len), &message, |b, m| {
            b.iter(|| {
                compressor
                    .compress_with_dictionary_into(black_box(m), &mut dst, &dict, 1)
                    .unwrap()
            })
        });
        group.bench_with_input(BenchmarkId::new("liblz4-attach", len), &message, |b, m| {
            b.iter(|| {
                // SAFETY: live streams (the dictionary stream and its bytes outlive the call) and
                // slices with their lengths.
                unsafe {
                    LZ4_resetStream_fast(working.0);
                    LZ4_attach_dictionary(working.0, dict_stream.0);
                    LZ4_compress_fast_continue(
                        working.0,
                        black_box(m).as_ptr().cast(),
                        theirs.as_mut_ptr().cast(),
                        m.len() as c_int,
                        theirs.len() as c_int,
                        1,
                    )
                }
            })
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
