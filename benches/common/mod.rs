//! Shared by the decode benches: one input cut into blocks, with liblz4's compressed form of each.
//! (liblz4, the corpus and the generated samples come from the test kit, `testkit/`.)

#![allow(dead_code)] // each bench uses part of it

use testkit::liblz4;

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
