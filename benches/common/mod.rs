//! Shared by the decode benches: one input cut into blocks, with liblz4's compressed form of each.
//! (liblz4, the corpus and the generated samples come from the test kit, `testkit/`.)

#![allow(dead_code)] // each bench uses part of it

use testkit::liblz4;

pub mod classes;

/// One input cut into `chunk`-byte blocks, with liblz4's compressed form (acceleration 1) of each:
/// what the decode benches decode.
pub struct Sample {
    pub name: String,
    pub chunks: Vec<Vec<u8>>,
    pub compressed: Vec<Vec<u8>>,
}

impl Sample {
    pub fn new(name: String, data: &[u8], chunk: usize) -> Self {
        let chunks: Vec<Vec<u8>> = data.chunks(chunk).map(<[u8]>::to_vec).collect();
        let compressed = chunks
            .iter()
            .map(|chunk| liblz4::compress_fast(chunk, 1))
            .collect();
        Sample {
            name,
            chunks,
            compressed,
        }
    }

    /// Uncompressed bytes.
    pub fn len(&self) -> usize {
        self.chunks.iter().map(Vec::len).sum()
    }

    pub fn compressed_len(&self) -> usize {
        self.compressed.iter().map(Vec::len).sum()
    }
}

/// The median of `times` (sorts them): what the interleaved benches report, robust to the
/// occasional round in which one contender alone runs on a quiet machine.
pub fn median(times: &mut [f64]) -> f64 {
    times.sort_by(f64::total_cmp);
    let mid = times.len() / 2;
    if times.len() % 2 == 1 {
        times[mid]
    } else {
        (times[mid - 1] + times[mid]) / 2.0
    }
}

/// A numeric setting from the environment, `default` when unset.
pub fn env_usize(name: &str, default: usize) -> usize {
    match std::env::var(name) {
        Ok(value) => value
            .parse()
            .unwrap_or_else(|_| panic!("{name} must be a number, not {value:?}")),
        Err(_) => default,
    }
}
