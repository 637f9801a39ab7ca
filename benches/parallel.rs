//! Frames on every core: compression and decompression throughput (MB/s of content) of the
//! parallel frame functions for 1..N worker threads, beside the single-threaded functions, on
//! one input of at least 64 MiB: the Silesia files concatenated, or the built-in generated
//! samples (text, logs, JSON, runs, random) when the corpus is absent.
//!
//! Default frame options (4 MiB independent blocks, content checksum, as `lz4 -1`), and 64 KiB
//! blocks (more, smaller jobs). N is the machine's core count, at least 2
//! (`LZ4_SIMD_BENCH_THREADS=N` overrides it).
//!
//! Bench IDs: `parallel-compress/<blocks>/<threads>`, `parallel-decompress/<blocks>/<threads>`
//! (the one-shot functions), and `parallel-encode-stream/<blocks>/<threads>` (1 MiB writes
//! into a `Vec`), `parallel-decode-stream/<blocks>/<threads>` (`io::copy` into `io::sink()`)
//! for the streaming adapters; `<threads>` is `single` for the single-threaded function or
//! adapter.
//!
//! The one-shot functions' results are dropped outside the measurement (`iter_with_large_drop`):
//! giving 64 MiB back to the system takes the caller's thread a few milliseconds, the same for
//! every function, which is not decoding.
//!
//! Run: `cargo bench --bench parallel` (`parallel` is one of lz4-simd-tests' default features).
//! Never a timed test: the ratio against `single` is the
//! figure to read, and only on an otherwise idle machine. On a shared one, run the binary under
//! `chrt -f 50` (real-time priority) and repeat it: figures still swing between runs, because
//! the other processes share caches, memory bandwidth and the page-fault path.
//!
//! `<threads>` counts the caller's thread, for the one-shot functions and the streaming adapters
//! alike (`1`: the caller's thread alone).

#[cfg(feature = "parallel")]
mod bench {
    use std::hint::black_box;
    use std::io::{self, Write};
    use std::time::Duration;

    use criterion::{BenchmarkId, Criterion, Throughput};
    use lz4_simd::frame::{
        self, BlockSize, FrameDecoder, FrameEncoder, FrameOptions, ParallelFrameDecoder,
        ParallelFrameEncoder,
    };
    use testkit::{corpus, samples};

    const INPUT_LEN: usize = 64 << 20;

    /// At least 64 MiB: the corpus files one after the other (repeated if short), else the
    /// built-in samples.
    fn input() -> Vec<u8> {
        let files = corpus::load(usize::MAX);
        let mut input = Vec::with_capacity(INPUT_LEN);
        if files.is_empty() {
            eprintln!(
                "NOTICE: no Silesia corpus in {}; benchmarking generated samples instead",
                corpus::dir().display()
            );
            for (_, data) in samples::builtin(INPUT_LEN / 5 + 1) {
                input.extend_from_slice(&data);
            }
        } else {
            while input.len() < INPUT_LEN {
                for (_, data) in &files {
                    input.extend_from_slice(data);
                }
            }
        }
        input.truncate(INPUT_LEN);
        input
    }

    /// Writes `input` in 1 MiB pieces.
    fn write_pieces(encoder: &mut impl Write, input: &[u8]) {
        for piece in input.chunks(1 << 20) {
            encoder.write_all(black_box(piece)).unwrap();
        }
    }

    fn max_threads() -> usize {
        std::env::var("LZ4_SIMD_BENCH_THREADS")
            .ok()
            .and_then(|value| value.parse().ok())
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, usize::from))
            .max(2)
    }

    pub fn run() {
        let mut criterion = Criterion::default()
            .sample_size(10)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(4))
            .configure_from_args();
        let input = input();
        let threads = 1..=max_threads();
        for (blocks, block_size) in [("4M", BlockSize::Max4MB), ("64K", BlockSize::Max64KB)] {
            let options = FrameOptions::new().block_size(block_size);
            let framed = frame::compress(&input, &options);
            assert!(frame::compress_parallel(&input, &options, 2) == framed);
            assert!(frame::decompress_parallel(&framed, input.len(), 2).unwrap() == input);

            let mut group = criterion.benchmark_group(format!("parallel-compress/{blocks}"));
            group.throughput(Throughput::Bytes(input.len() as u64));
            group.bench_function("single", |b| {
                b.iter_with_large_drop(|| frame::compress(black_box(&input), &options))
            });
            for count in threads.clone() {
                group.bench_function(BenchmarkId::from_parameter(count), |b| {
                    b.iter_with_large_drop(|| {
                        frame::compress_parallel(black_box(&input), &options, count)
                    })
                });
            }
            group.finish();

            let mut group = criterion.benchmark_group(format!("parallel-decompress/{blocks}"));
            group.throughput(Throughput::Bytes(input.len() as u64));
            group.bench_function("single", |b| {
                b.iter_with_large_drop(|| {
                    frame::decompress(black_box(&framed), input.len()).unwrap()
                })
            });
            for count in threads.clone() {
                group.bench_function(BenchmarkId::from_parameter(count), |b| {
                    b.iter_with_large_drop(|| {
                        frame::decompress_parallel(black_box(&framed), input.len(), count).unwrap()
                    })
                });
            }
            group.finish();

            let mut group = criterion.benchmark_group(format!("parallel-encode-stream/{blocks}"));
            group.throughput(Throughput::Bytes(input.len() as u64));
            group.bench_function("single", |b| {
                b.iter(|| {
                    let mut encoder = FrameEncoder::with_options(Vec::new(), options.clone());
                    write_pieces(&mut encoder, &input);
                    encoder.finish().unwrap().len()
                })
            });
            for count in threads.clone() {
                group.bench_function(BenchmarkId::from_parameter(count), |b| {
                    b.iter(|| {
                        let mut encoder =
                            ParallelFrameEncoder::with_options(Vec::new(), options.clone(), count);
                        write_pieces(&mut encoder, &input);
                        encoder.finish().unwrap().len()
                    })
                });
            }
            group.finish();

            let mut group = criterion.benchmark_group(format!("parallel-decode-stream/{blocks}"));
            group.throughput(Throughput::Bytes(input.len() as u64));
            group.bench_function("single", |b| {
                b.iter(|| {
                    io::copy(
                        &mut FrameDecoder::new(black_box(&framed[..])),
                        &mut io::sink(),
                    )
                })
            });
            for count in threads.clone() {
                group.bench_function(BenchmarkId::from_parameter(count), |b| {
                    b.iter(|| {
                        let mut decoder = ParallelFrameDecoder::new(black_box(&framed[..]), count);
                        io::copy(&mut decoder, &mut io::sink())
                    })
                });
            }
            group.finish();
        }
        criterion.final_summary();
    }
}

fn main() {
    #[cfg(feature = "parallel")]
    bench::run();
    #[cfg(not(feature = "parallel"))]
    eprintln!("the parallel bench needs the `parallel` feature of lz4-simd-tests (on by default)");
}
