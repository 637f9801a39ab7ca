//! The streaming parallel encoder's content checksum (feature `parallel`): the caller's thread
//! hashes each write as it gathers it, except the part that completes a block, hashed once the
//! block is queued (beside its compression). These tests put the block boundaries, flushes,
//! failures and drops at every place of that split: writes of odd sizes that end a block, end
//! just short of it, start it or cross it, at every thread count 1-7, against the
//! single-threaded encoder's bytes.
//!
//! Run: `cargo test --features parallel --test parallel encoder_checksum::`.
#![cfg(feature = "parallel")]

use std::io::{self, ErrorKind, Write};

use lz4_simd::frame::{BlockMode, BlockSize, FrameEncoder, FrameOptions, ParallelFrameEncoder};
use testkit::hang::no_hang;
use testkit::io::{retry_would_block, write_through_failures, FailingWriter};
use testkit::samples::{self, Rng};

const KIB: usize = 1 << 10;

/// A flush in a plan.
const FLUSH: usize = usize::MAX;

/// Writes (and flushes) around the boundaries of `block`-byte blocks, covering `len` bytes:
/// pieces that end a block exactly, end one byte before or after it, whole blocks from a
/// boundary, a block and a bit, single bytes, and flushes right after a boundary and mid-block.
fn boundary_plan(len: usize, block: usize, rng: &mut Rng) -> Vec<usize> {
    let mut plan = Vec::new();
    let mut pos = 0;
    while pos < len {
        let to_boundary = block - pos % block;
        let size = match rng.below(9) {
            0 => to_boundary,
            1 => to_boundary.saturating_sub(1).max(1),
            2 => to_boundary + 1,
            3 => block,
            4 => block + 1 + rng.below(17) as usize,
            5 => 1,
            6 => 15 + 2 * rng.below(9) as usize,
            7 => 3 * block + 7,
            _ => rng.below(2 * block as u64) as usize + 1,
        }
        .min(len - pos);
        plan.push(size);
        pos += size;
        if rng.below(10) == 0 {
            plan.push(FLUSH);
        }
    }
    plan
}

fn run_plan(encoder: &mut impl Write, data: &[u8], plan: &[usize]) {
    let mut pos = 0;
    for &step in plan {
        if step == FLUSH {
            encoder.flush().unwrap();
        } else {
            encoder.write_all(&data[pos..pos + step]).unwrap();
            pos += step;
        }
    }
}

fn single(data: &[u8], options: &FrameOptions, plan: &[usize]) -> Vec<u8> {
    let mut encoder = FrameEncoder::with_options(Vec::new(), options.clone());
    run_plan(&mut encoder, data, plan);
    encoder.finish().unwrap()
}

#[test]
fn writes_around_block_boundaries_are_byte_identical_at_every_thread_count() {
    let mut rng = Rng::new(18);
    for (block_size, block) in [
        (BlockSize::Max64KB, 64 * KIB),
        (BlockSize::Max256KB, 256 * KIB),
    ] {
        // Under a block, one block, one more byte, several blocks and a tail.
        for len in [0, 1, block - 1, block, block + 1, 5 * block + 4099] {
            let data = samples::logs(len, &mut rng);
            for round in 0..2 {
                let options = FrameOptions::new()
                    .block_size(block_size)
                    .content_checksum(true)
                    .block_checksum(round == 1);
                let plan = boundary_plan(len, block, &mut rng);
                let expected = single(&data, &options, &plan);
                for threads in 1..=7 {
                    let mut encoder =
                        ParallelFrameEncoder::with_options(Vec::new(), options.clone(), threads);
                    run_plan(&mut encoder, &data, &plan);
                    assert!(
                        encoder.finish().unwrap() == expected,
                        "{len} bytes, {block}-byte blocks, {threads} threads, plan {plan:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn default_blocks_with_odd_writes_are_byte_identical() {
    // 4 MiB blocks (the default), 2-3 threads: a few blocks and a tail, in writes of odd sizes.
    let data = samples::text(3 * 4096 * KIB + 12_345, &mut Rng::new(5));
    let options = FrameOptions::new();
    let mut rng = Rng::new(6);
    let plan = boundary_plan(data.len(), 4096 * KIB, &mut rng);
    let expected = single(&data, &options, &plan);
    for threads in [2, 3] {
        let mut encoder = ParallelFrameEncoder::with_options(Vec::new(), options.clone(), threads);
        run_plan(&mut encoder, &data, &plan);
        assert!(encoder.finish().unwrap() == expected, "{threads} threads");
    }
}

/// A write the writer fails takes none of its input: nothing of it is hashed, and retried, the
/// frame is the single-threaded encoder's (the failure lands on every write, the ones that
/// complete a block among them, and on flushes and the finish).
#[test]
fn a_failing_writer_anywhere_leaves_the_checksum_right() {
    let block = 64 * KIB;
    let data = samples::json(7 * block + 333, &mut Rng::new(11));
    let options = FrameOptions::new()
        .block_size(BlockSize::Max64KB)
        .content_checksum(true);
    let plan = boundary_plan(data.len(), block, &mut Rng::new(12));
    let expected = single(&data, &options, &plan);
    for threads in [1, 2, 3, 7] {
        for fail_at in 1..=40 {
            let writer = FailingWriter {
                out: Vec::new(),
                calls: 0,
                fail_at,
                persistent: false,
                step: 20_000,
            };
            let mut encoder = ParallelFrameEncoder::with_options(writer, options.clone(), threads);
            let mut pos = 0;
            let mut failures = 0;
            for &step in &plan {
                if step == FLUSH {
                    failures += retry_would_block(|| encoder.flush()).1;
                    continue;
                }
                failures += write_through_failures(&mut encoder, &data[pos..pos + step]);
                pos += step;
            }
            failures += retry_would_block(|| encoder.try_finish()).1;
            assert!(failures <= 1);
            let out = encoder.finish().unwrap().out;
            assert!(out == expected, "fail at call {fail_at}, {threads} threads");
        }
    }
}

/// A writer that keeps failing stops the encoder (no hang, input no longer taken); dropping
/// the encoder then, or mid-stream with blocks queued and a block partly gathered and hashed,
/// neither hangs nor panics.
#[test]
fn failing_and_dropping_mid_stream_neither_hang() {
    let block = 64 * KIB;
    let data = samples::text(20 * block + 5, &mut Rng::new(13));
    for threads in 1..=7 {
        for mode in [BlockMode::Independent, BlockMode::Linked] {
            for fail_at in [1, 2, 4] {
                let data = data.clone();
                no_hang("failing writer", move || {
                    let writer = FailingWriter {
                        out: Vec::new(),
                        calls: 0,
                        fail_at,
                        persistent: true,
                        step: usize::MAX,
                    };
                    let options = FrameOptions::new()
                        .block_size(BlockSize::Max64KB)
                        .block_mode(mode)
                        .content_checksum(true);
                    let mut encoder = ParallelFrameEncoder::with_options(writer, options, threads);
                    let mut result = Ok(());
                    for piece in data.chunks(block / 3 + 1) {
                        result = encoder.write_all(piece);
                        if result.is_err() {
                            break;
                        }
                    }
                    assert_eq!(result.unwrap_err().kind(), ErrorKind::WouldBlock);
                    assert!(encoder.try_finish().is_err());
                    drop(encoder);
                });
            }
            for stop in [1, block / 2, block, block + 17, 7 * block - 1] {
                let data = data.clone();
                no_hang("drop mid-stream", move || {
                    let options = FrameOptions::new()
                        .block_size(BlockSize::Max64KB)
                        .block_mode(mode)
                        .content_checksum(true);
                    let mut encoder =
                        ParallelFrameEncoder::with_options(io::sink(), options, threads);
                    for piece in data[..stop].chunks(1000 + stop % 7) {
                        encoder.write_all(piece).unwrap();
                    }
                    drop(encoder);
                });
            }
        }
    }
}
