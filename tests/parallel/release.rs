//! [`frame::release_parallel_buffers`]: the block buffers that parallel encoders and decoders
//! keep for the next ones in the process are freed (and counted), the next frames allocate
//! afresh and are still right, and nothing is kept beyond the documented caps (33 MiB for
//! compression, 24 MiB of each kind for decompression). One test in its own process: no other
//! test's frames fill the stores meanwhile.
//!
//! Run: `cargo test --features parallel --test parallel_release`.
#![cfg(feature = "parallel")]

use std::io::{Read, Write};

use lz4_simd::frame::{self, FrameOptions, ParallelFrameDecoder, ParallelFrameEncoder};
use testkit::samples::{self, Rng};

const MIB: usize = 1 << 20;

#[test]
fn kept_buffers_are_freed_and_capped() {
    let content = samples::logs(40 * MIB, &mut Rng::new(41));
    let options = FrameOptions::new();
    assert_eq!(
        frame::release_parallel_buffers(),
        0,
        "a fresh process keeps nothing"
    );
    for round in 0..3 {
        let framed = frame::compress_parallel(&content, &options, 3);
        let mut encoder = ParallelFrameEncoder::new(Vec::new(), options.clone(), 3);
        encoder.write_all(&content).unwrap();
        assert!(encoder.finish().unwrap() == framed, "round {round}");
        assert!(frame::decompress_parallel(&framed, content.len(), 3).unwrap() == content);
        let mut decoded = Vec::new();
        ParallelFrameDecoder::new(&framed[..], 3)
            .read_to_end(&mut decoded)
            .unwrap();
        assert!(decoded == content, "round {round}");
        if round == 1 {
            continue;
        }
        let freed = frame::release_parallel_buffers();
        assert!(
            (4 * MIB..=33 * MIB + 48 * MIB).contains(&freed),
            "round {round}: {freed} bytes"
        );
        assert_eq!(frame::release_parallel_buffers(), 0, "round {round}");
    }
}
