//! Block decode speed of every available kernel, side by side in one process: on wasm32 built with
//! `simd128`, the simd128 kernel against the scalar decoder. Made for WebAssembly under node
//! (`.ci/wasi-runner.mjs`), where it needs nothing but the library and `std` (no liblz4, no
//! processes, files only through the runner's preopened directories); it runs natively too.
//!
//! ```text
//! rustup target add wasm32-wasip1
//! export CARGO_TARGET_WASM32_WASIP1_RUNNER="node --no-warnings $PWD/.ci/wasi-runner.mjs"
//! RUSTFLAGS="-C target-feature=+simd128" cargo bench --target wasm32-wasip1 \
//!     --bench wasm_decode_speed -- [SIZE [ROUNDS [FILE...]]]
//! ```
//!
//! A bench target without a harness: the `--bench` that `cargo bench` passes is ignored.
//!
//! The inputs, each compressed by `block::compress` in 64 KiB blocks (the frame format's
//! smallest block size): `short-offsets` (runs repeating the last 1 to 15 bytes, 8 to 80 bytes
//! long, between 1 to 4 new bytes: almost every match overlaps itself, the case pattern
//! replication is for), `mixed` (generated English-like text, log lines and JSON records, a few
//! runs and a little noise) and any FILE given (read through WASI: the runner preopens the
//! current and the temporary directory, and those in `WASI_RUNNER_DIRS`). SIZE bytes of each
//! (default 4 MiB); each kernel decodes every input ROUNDS times (default 15), the kernels taking
//! turns round by round so that a load change on the machine hits them alike; the best round
//! counts. Decoded MB/s (10^6 bytes per second).

use std::time::{Duration, Instant};

use lz4_simd::block::{self, Decoder};
use lz4_simd::Kernel;

/// The frame format's smallest block size, what many producers use.
const BLOCK: usize = 64 * 1024;

/// A small deterministic generator (xorshift64), so every run decodes the same bytes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Runs that repeat the last 1-15 bytes (8-80 bytes long) between 1-4 new bytes.
fn short_offsets(len: usize, rng: &mut Rng) -> Vec<u8> {
    let mut data: Vec<u8> = (0..16).map(|_| rng.next() as u8).collect();
    while data.len() < len {
        for _ in 0..1 + rng.below(4) {
            data.push(rng.next() as u8);
        }
        let period = 1 + rng.below(15);
        for _ in 0..8 + rng.below(73) {
            data.push(data[data.len() - period]);
        }
    }
    data.truncate(len);
    data
}

/// English-like text, log lines and JSON records in turn, with a few runs and a little noise.
fn mixed(len: usize, rng: &mut Rng) -> Vec<u8> {
    const WORDS: [&str; 40] = [
        "the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as", "was", "with", "be",
        "by", "on", "not", "he", "this", "are", "or", "his", "from", "at", "which", "but", "have",
        "an", "had", "they", "you", "were", "their", "one", "all", "we", "can", "her", "has",
        "there",
    ];
    const LEVELS: [&str; 4] = ["INFO", "WARN", "DEBUG", "ERROR"];
    let mut data = Vec::with_capacity(len + 256);
    let mut clock = 1_700_000_000u64;
    while data.len() < len {
        match rng.below(10) {
            0..=3 => {
                for _ in 0..8 + rng.below(30) {
                    // Zipf-like: low indices far more often.
                    let limit = 1 + rng.below(WORDS.len());
                    let word = WORDS[rng.below(limit)];
                    data.extend_from_slice(word.as_bytes());
                    data.push(if rng.below(12) == 0 { b'\n' } else { b' ' });
                }
            }
            4..=6 => {
                clock += rng.below(3000) as u64;
                let line = format!(
                    "{clock}.{:03} {} worker-{} request id={:08x} path=/api/v1/items/{} status={} took={}ms\n",
                    rng.below(1000),
                    LEVELS[rng.below(4)],
                    rng.below(16),
                    rng.next() as u32,
                    rng.below(5000),
                    [200, 200, 200, 404, 500][rng.below(5)],
                    rng.below(900)
                );
                data.extend_from_slice(line.as_bytes());
            }
            7 | 8 => {
                let record = format!(
                    "{{\"id\":{},\"name\":\"user{}\",\"active\":{},\"score\":{}.{},\"tags\":[\"a\",\"b{}\"]}}\n",
                    rng.below(100_000),
                    rng.below(1000),
                    rng.below(2) == 0,
                    rng.below(100),
                    rng.below(100),
                    rng.below(9)
                );
                data.extend_from_slice(record.as_bytes());
            }
            _ => {
                if rng.below(2) == 0 {
                    let byte = rng.next() as u8;
                    data.extend(std::iter::repeat_n(byte, 16 + rng.below(200)));
                } else {
                    data.extend((0..8 + rng.below(64)).map(|_| rng.next() as u8));
                }
            }
        }
    }
    data.truncate(len);
    data
}

/// `data` compressed in [`BLOCK`]-byte blocks: (compressed block, decoded size).
fn blocks(data: &[u8]) -> Vec<(Vec<u8>, usize)> {
    data.chunks(BLOCK)
        .map(|chunk| (block::compress(chunk).unwrap(), chunk.len()))
        .collect()
}

/// Decodes every block once with `decoder` into `out`; returns the time taken.
fn decode_all(decoder: &Decoder, blocks: &[(Vec<u8>, usize)], out: &mut [u8]) -> Duration {
    let start = Instant::now();
    for (compressed, size) in blocks {
        let written = decoder
            .decompress_into(compressed, &mut out[..*size])
            .expect("a block we compressed decodes");
        assert_eq!(written, *size);
    }
    start.elapsed()
}

fn main() {
    let mut args = std::env::args().skip(1).filter(|arg| arg != "--bench");
    let size: usize = args
        .next()
        .map_or(4 << 20, |arg| arg.parse().expect("SIZE: a byte count"));
    let rounds: usize = args
        .next()
        .map_or(15, |arg| arg.parse().expect("ROUNDS: a count"));
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut inputs = vec![
        ("short-offsets".to_string(), short_offsets(size, &mut rng)),
        ("mixed".to_string(), mixed(size, &mut rng)),
    ];
    for path in args {
        let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let name = path.rsplit('/').next().unwrap_or(&path).to_string();
        inputs.push((name, data[..data.len().min(size)].to_vec()));
    }

    let kernels = Kernel::available();
    let decoders: Vec<Decoder> = kernels
        .iter()
        .map(|&kernel| Decoder::with_kernel(kernel).expect("available"))
        .collect();
    println!(
        "target {}, simd128 compiled in: {}, kernels {:?}; best of {rounds} rounds, 64 KiB blocks",
        std::env::consts::ARCH,
        cfg!(target_feature = "simd128"),
        kernels.iter().map(|k| k.name()).collect::<Vec<_>>()
    );
    let mut out = vec![0u8; BLOCK];
    for (name, data) in &inputs {
        let blocks = blocks(data);
        let compressed: usize = blocks.iter().map(|(block, _)| block.len()).sum();
        // Every kernel must produce the input (and warms up).
        for decoder in &decoders {
            let mut decoded = Vec::with_capacity(data.len());
            for (block, size) in &blocks {
                decoded.extend(decoder.decompress(block, *size).expect("decodes"));
            }
            assert!(
                decoded == *data,
                "{} decodes {name} wrong",
                decoder.kernel()
            );
        }
        let mut best = vec![Duration::MAX; decoders.len()];
        for _ in 0..rounds {
            for (decoder, best) in decoders.iter().zip(&mut best) {
                *best = (*best).min(decode_all(decoder, &blocks, &mut out));
            }
        }
        let line: Vec<String> = kernels
            .iter()
            .zip(&best)
            .map(|(kernel, time)| {
                let mbps = data.len() as f64 / time.as_secs_f64().max(1e-9) / 1e6;
                format!("{kernel} {mbps:.0} MB/s")
            })
            .collect();
        println!(
            "{name:>14}: {} bytes, ratio {:.2}: {}",
            data.len(),
            data.len() as f64 / compressed.max(1) as f64,
            line.join(", ")
        );
    }
}
