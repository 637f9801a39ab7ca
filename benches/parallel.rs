//! Frames on every core: compression and decompression throughput (MB/s of content) of the
//! parallel frame functions for 1..N worker threads, beside the single-threaded functions, on
//! one input of at least 64 MiB: the Silesia files concatenated, or the built-in generated
//! samples (text, logs, JSON, runs, random) when the corpus is absent.
//!
//! Default frame options (4 MiB independent blocks, content checksum, as `lz4 -1`), and 64 KiB
//! blocks (more, smaller jobs). N is the machine's core count, at least 2
//! (`LZ4_SIMD_BENCH_THREADS=N` overrides it).
//!
//! Bench IDs: `parallel-compress/<blocks>/<threads>`, `parallel-decompress/<blocks>/<threads>`;
//! `<threads>` is `single` for `frame::compress` / `frame::decompress`.
//!
//! Run: `cargo bench --features parallel --bench parallel` (the workspace's `cargo bench`
//! enables the feature through the CLI). Never a timed test: the ratio against `single` is the
//! figure to read, and only on an otherwise idle machine.

#[cfg(feature = "parallel")]
mod bench {
    use std::hint::black_box;
    use std::time::Duration;

    use criterion::{BenchmarkId, Criterion, Throughput};
    use lz4_simd::frame::{self, BlockSize, FrameOptions};
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
                b.iter(|| frame::compress(black_box(&input), &options).len())
            });
            for count in threads.clone() {
                group.bench_function(BenchmarkId::from_parameter(count), |b| {
                    b.iter(|| frame::compress_parallel(black_box(&input), &options, count).len())
                });
            }
            group.finish();

            let mut group = criterion.benchmark_group(format!("parallel-decompress/{blocks}"));
            group.throughput(Throughput::Bytes(input.len() as u64));
            group.bench_function("single", |b| {
                b.iter(|| {
                    frame::decompress(black_box(&framed), input.len())
                        .unwrap()
                        .len()
                })
            });
            for count in threads.clone() {
                group.bench_function(BenchmarkId::from_parameter(count), |b| {
                    b.iter(|| {
                        frame::decompress_parallel(black_box(&framed), input.len(), count)
                            .unwrap()
                            .len()
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
    eprintln!("the parallel bench needs the `parallel` feature: cargo bench --features parallel");
}
