//! Deterministic instruction counts (iai-callgrind, under Callgrind): lz4-simd against liblz4
//! (through `lz4-sys`) on fixed inputs, so a change in the decode kernels or the compressor shows
//! up as an exact count difference rather than timing noise.
//!
//! Inputs: the first 256 KiB of Silesia `dickens` and `xml` (from the `*.zip` files in
//! `LZ4_SIMD_CORPUS` or `corpus/`), cut into 64 KiB chunks, each compressed by liblz4 at
//! acceleration 1. When the corpus is absent the same bench IDs run on deterministic generated
//! text and JSON records instead (the CLI's built-in samples; a NOTICE goes to standard error),
//! so counts are only comparable between runs on the same inputs.
//! Loading, compressing and allocating buffers happens in the `setup` functions and is not counted;
//! the inputs are returned from the benchmark functions so that freeing them is not counted either.
//!
//! Benchmarks (each `<function>::<file>`):
//! - `decode_scalar`, `decode_sse2`, `decode_avx2`: `Decoder::decompress_into` with that
//!   kernel over every chunk. A kernel this CPU (or build) cannot run returns at once, so its
//!   count is near zero; `decode_liblz4`: `LZ4_decompress_safe` on the same blocks.
//! - `compress_lz4_simd`: `block::compress_into` (acceleration 1; allocates its hash table per
//!   call); `compress_lz4_simd_reused`: a reused `block::Compressor`; `compress_liblz4`:
//!   `LZ4_compress_fast` at acceleration 1.
//!
//! Run: `cargo install iai-callgrind-runner --version 0.16.1 --locked` once (the runner must match
//! the `iai-callgrind` library version), then `cargo bench --bench instructions`.

use std::hint::black_box;

use iai_callgrind::{library_benchmark, library_benchmark_group, main, LibraryBenchmarkConfig};
use lz4_simd::{block, Kernel};
use testkit::{corpus, liblz4, samples};

const CHUNK: usize = 64 * 1024;
const FILE_CAP: usize = 256 * 1024;

/// The first `FILE_CAP` bytes of `<corpus>/<name>.zip`'s first file, or, when it is absent, a
/// generated stand-in: the built-in JSON records for `xml`, the built-in text otherwise.
fn load(name: &str) -> Vec<u8> {
    corpus::file(name, FILE_CAP).unwrap_or_else(|| {
        eprintln!(
            "NOTICE: no {name}.zip in {}; using generated data",
            corpus::dir().display()
        );
        let stand_in = if name == "xml" { "json" } else { "text" };
        samples::builtin(FILE_CAP)
            .into_iter()
            .find_map(|(sample, data)| (sample == stand_in).then_some(data))
            .expect("a built-in sample")
    })
}

/// Everything a decode benchmark touches, prepared outside the measurement.
struct DecodeInput {
    compressed: Vec<Vec<u8>>,
    outputs: Vec<Vec<u8>>,
}

/// Everything a compression benchmark touches, prepared outside the measurement.
struct CompressInput {
    chunks: Vec<Vec<u8>>,
    dst: Vec<u8>,
    compressor: block::Compressor,
}

fn chunks(name: &str) -> Vec<Vec<u8>> {
    load(name).chunks(CHUNK).map(<[u8]>::to_vec).collect()
}

fn setup_decode(name: &str) -> DecodeInput {
    let chunks = chunks(name);
    let mut scratch = vec![0u8; block::compress_bound(CHUNK)];
    let compressed: Vec<Vec<u8>> = chunks
        .iter()
        .map(|c| {
            let n = liblz4::compress_fast_into(c, &mut scratch, 1);
            scratch[..n].to_vec()
        })
        .collect();
    // Check every available kernel and liblz4 once; this also runs CPU feature detection, so
    // the measured calls find it cached.
    for (chunk, src) in chunks.iter().zip(&compressed) {
        let mut out = vec![0u8; chunk.len()];
        for kernel in Kernel::available() {
            out.fill(0);
            assert_eq!(
                block::Decoder::with_kernel(kernel)
                    .and_then(|decoder| decoder.decompress_into(src, &mut out)),
                Ok(chunk.len())
            );
            assert_eq!(&out, chunk, "{} decoded wrongly", kernel.name());
        }
        out.fill(0);
        assert_eq!(
            liblz4::decompress_safe_into(src, &mut out),
            Some(chunk.len())
        );
        assert_eq!(&out, chunk);
    }
    let outputs = chunks.iter().map(|c| vec![0u8; c.len()]).collect();
    DecodeInput {
        compressed,
        outputs,
    }
}

fn setup_compress(name: &str) -> CompressInput {
    let chunks = chunks(name);
    let mut dst = vec![0u8; block::compress_bound(CHUNK)];
    let mut compressor = block::Compressor::new();
    // Our output must equal liblz4's; this also warms the reused compressor's table.
    let mut reference = vec![0u8; dst.len()];
    for chunk in &chunks {
        let n = liblz4::compress_fast_into(chunk, &mut reference, 1);
        let m = compressor.compress_into(chunk, &mut dst, 1).unwrap();
        assert_eq!(&dst[..m], &reference[..n], "lz4-simd differs from liblz4");
    }
    CompressInput {
        chunks,
        dst,
        compressor,
    }
}

fn decode(kernel: Kernel, mut input: DecodeInput) -> (usize, DecodeInput) {
    if !kernel.is_available() {
        return (0, input);
    }
    let mut total = 0;
    for (src, dst) in input.compressed.iter().zip(input.outputs.iter_mut()) {
        total += block::Decoder::with_kernel(kernel)
            .and_then(|decoder| decoder.decompress_into(black_box(src), dst))
            .unwrap();
    }
    (total, input)
}

#[library_benchmark]
#[benches::file(args = ["dickens", "xml"], setup = setup_decode)]
fn decode_scalar(input: DecodeInput) -> (usize, DecodeInput) {
    decode(Kernel::Scalar, input)
}

#[library_benchmark]
#[benches::file(args = ["dickens", "xml"], setup = setup_decode)]
fn decode_sse2(input: DecodeInput) -> (usize, DecodeInput) {
    decode(Kernel::Sse2, input)
}

#[library_benchmark]
#[benches::file(args = ["dickens", "xml"], setup = setup_decode)]
fn decode_avx2(input: DecodeInput) -> (usize, DecodeInput) {
    decode(Kernel::Avx2, input)
}

#[library_benchmark]
#[benches::file(args = ["dickens", "xml"], setup = setup_decode)]
fn decode_liblz4(mut input: DecodeInput) -> (usize, DecodeInput) {
    let mut total = 0;
    for (src, dst) in input.compressed.iter().zip(input.outputs.iter_mut()) {
        total +=
            liblz4::decompress_safe_into(black_box(src), dst).expect("liblz4 rejected a block");
    }
    (total, input)
}

#[library_benchmark]
#[benches::file(args = ["dickens", "xml"], setup = setup_compress)]
fn compress_lz4_simd(mut input: CompressInput) -> (usize, CompressInput) {
    let mut total = 0;
    for chunk in &input.chunks {
        total += block::compress_into(black_box(chunk), &mut input.dst, 1).unwrap();
    }
    (total, input)
}

#[library_benchmark]
#[benches::file(args = ["dickens", "xml"], setup = setup_compress)]
fn compress_lz4_simd_reused(mut input: CompressInput) -> (usize, CompressInput) {
    let mut total = 0;
    for chunk in &input.chunks {
        total += input
            .compressor
            .compress_into(black_box(chunk), &mut input.dst, 1)
            .unwrap();
    }
    (total, input)
}

#[library_benchmark]
#[benches::file(args = ["dickens", "xml"], setup = setup_compress)]
fn compress_liblz4(mut input: CompressInput) -> (usize, CompressInput) {
    let mut total = 0;
    for chunk in &input.chunks {
        total += liblz4::compress_fast_into(black_box(chunk), &mut input.dst, 1);
    }
    (total, input)
}

library_benchmark_group!(
    name = decompress;
    benchmarks = decode_scalar, decode_sse2, decode_avx2, decode_liblz4
);

library_benchmark_group!(
    name = compress;
    benchmarks = compress_lz4_simd, compress_lz4_simd_reused, compress_liblz4
);

// The runner clears the environment; let `LZ4_SIMD_CORPUS` through.
main!(
    config = LibraryBenchmarkConfig::default().pass_through_env("LZ4_SIMD_CORPUS");
    library_benchmark_groups = decompress, compress
);
