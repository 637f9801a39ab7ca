//! The parallel encoders' block buffers are kept across frames in the process (one-shot and
//! streaming share them): a frame compressed into buffers an earlier frame left (with other
//! block sizes, other content, incompressible blocks stored raw, an encoder dropped unfinished
//! with blocks in flight) has the single-threaded encoder's bytes, and nothing of the earlier
//! frames.
//!
//! Run: `cargo test --features parallel --test parallel spares::`.
#![cfg(feature = "parallel")]

use std::io::Write;

use lz4_simd::frame::{
    self, BlockMode, BlockSize, FrameEncoder, FrameOptions, ParallelFrameEncoder,
};
use testkit::samples::{self, Rng};

const KIB: usize = 1 << 10;

fn single(content: &[u8], options: &FrameOptions) -> Vec<u8> {
    let mut encoder = FrameEncoder::with_options(Vec::new(), options.clone());
    encoder.write_all(content).unwrap();
    encoder.finish().unwrap()
}

/// The single-threaded encoder given the content in the same pieces as `streamed`: with linked
/// blocks the frame depends on where the writes end (liblz4's linked streams do), so a streamed
/// frame is compared with this, not with the one-shot frame.
fn single_in_pieces(content: &[u8], options: &FrameOptions, piece: usize) -> Vec<u8> {
    let mut encoder = FrameEncoder::with_options(Vec::new(), options.clone());
    for piece in content.chunks(piece) {
        encoder.write_all(piece).unwrap();
    }
    encoder.finish().unwrap()
}

fn streamed(content: &[u8], options: &FrameOptions, threads: usize, piece: usize) -> Vec<u8> {
    let mut encoder = ParallelFrameEncoder::with_options(Vec::new(), options.clone(), threads);
    for piece in content.chunks(piece) {
        encoder.write_all(piece).unwrap();
    }
    encoder.finish().unwrap()
}

/// Frames one after the other, each on the buffers the ones before left: every frame is the
/// single-threaded encoder's (for the same writes), whatever came before it.
#[test]
fn frames_after_other_frames_are_the_single_threaded_bytes() {
    let mut rng = Rng::new(0x05A8_E518);
    // Incompressible content fills whole buffers (blocks stored raw); short compressible content
    // after it leaves most of each buffer as the earlier frame wrote it.
    let random = samples::random(9 * 64 * KIB + 4321, &mut rng);
    let text = samples::text(9 * 64 * KIB + 17, &mut rng);
    let runs = samples::runs(3 * 256 * KIB + 5, 300, &mut rng);
    let contents = [&random, &text, &runs, &random, &runs, &text];
    let options = [
        FrameOptions::new().block_size(BlockSize::Max64KB),
        FrameOptions::new().block_size(BlockSize::Max256KB),
        FrameOptions::new()
            .block_size(BlockSize::Max64KB)
            .block_checksum(true)
            .content_checksum(false),
        FrameOptions::new()
            .block_size(BlockSize::Max64KB)
            .block_mode(BlockMode::Linked),
        FrameOptions::new()
            .block_size(BlockSize::Max256KB)
            .hc_level(Some(9)),
    ];
    for round in 0..3 {
        for (at, content) in contents.iter().enumerate() {
            let options = &options[(at + round) % options.len()];
            let expected = frame::compress(content, options);
            assert_eq!(single(content, options), expected);
            for threads in [1, 2, 3, 5] {
                let what = format!("round {round}, content {at}, {threads} threads");
                assert!(
                    frame::compress_parallel(content, options, threads) == expected,
                    "{what}: one-shot"
                );
                let piece = [1000, 64 * KIB, 100 * KIB][(at + threads) % 3];
                assert!(
                    streamed(content, options, threads, piece)
                        == single_in_pieces(content, options, piece),
                    "{what}: streamed"
                );
            }
            // An encoder dropped with blocks in flight and content gathered: its buffers come
            // back (or not) while the next frames run.
            let mut dropped = ParallelFrameEncoder::with_options(Vec::new(), options.clone(), 3);
            dropped
                .write_all(&content[..content.len() * 2 / 3])
                .unwrap();
            drop(dropped);
        }
    }
}
