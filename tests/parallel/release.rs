//! [`frame::release_parallel_buffers`]: the block buffers that parallel encoders and decoders
//! keep for the next ones in the process are freed (and counted), the next frames allocate
//! afresh and are still right, and nothing is kept beyond the documented caps (33 MiB for
//! compression, 24 MiB of each kind for decompression). The test runs in a child process of its
//! own (`testkit::process::rerun_test`): no other test's frames fill the stores meanwhile.
//!
//! Run: `cargo test --features parallel --test parallel release::`.
#![cfg(feature = "parallel")]

use std::io::{Read, Write};

use lz4_simd::frame::{self, FrameOptions, ParallelFrameDecoder, ParallelFrameEncoder};
use testkit::process::rerun_test;
use testkit::samples::{self, Rng};

const MIB: usize = 1 << 20;
const CHILD: &str = "release::kept_buffers_are_freed_and_capped";
const CHILD_ENV: &str = "LZ4_SIMD_TEST_RELEASE_CHILD";

#[test]
fn kept_buffers_are_freed_and_capped() {
    if std::env::var_os(CHILD_ENV).is_none() {
        let output = rerun_test(CHILD, |command| {
            command.env(CHILD_ENV, "1");
        });
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        let context = format!("--- stdout\n{stdout}\n--- stderr\n{stderr}");
        assert!(output.status.success(), "child failed: {context}");
        assert!(
            stdout.contains("kept buffers checked"),
            "child did not run: {context}"
        );
        return;
    }
    let content = samples::logs(40 * MIB, &mut Rng::new(41));
    let options = FrameOptions::new();
    assert_eq!(
        frame::release_parallel_buffers(),
        0,
        "a fresh process keeps nothing"
    );
    for round in 0..3 {
        let framed = frame::compress_parallel(&content, &options, 3);
        let mut encoder = ParallelFrameEncoder::with_options(Vec::new(), options.clone(), 3);
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
    println!("kept buffers checked");
}
