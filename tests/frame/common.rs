//! What several frame tests share: driving the sans-IO frame compressor.

#![allow(dead_code)] // each test crate uses its own part

use lz4_simd::frame::{FrameCompressor, Status};
use testkit::liblz4::FrameOp;

/// Hands `pieces` to `compressor` in turn, each whole, with `room` bytes of output per call,
/// then finishes the frame; returns the frame. The compressor must take every piece in full
/// before it asks for more input.
pub fn compress_in_pieces<'a>(
    compressor: &mut FrameCompressor,
    pieces: impl IntoIterator<Item = &'a [u8]>,
    room: usize,
) -> Vec<u8> {
    compress_ops(compressor, pieces.into_iter().map(FrameOp::Update), room)
}

/// Runs `ops` through `compressor` with `room` bytes of output per call (each update handed over
/// whole, each flush drained), then finishes the frame; returns the frame. The compressor must
/// take every update in full before it asks for more input.
pub fn compress_ops<'a>(
    compressor: &mut FrameCompressor,
    ops: impl IntoIterator<Item = FrameOp<'a>>,
    room: usize,
) -> Vec<u8> {
    let mut framed = Vec::new();
    let mut out = vec![0u8; room];
    for op in ops {
        match op {
            FrameOp::Update(mut piece) => loop {
                let progress = compressor.compress(piece, &mut out).unwrap();
                framed.extend_from_slice(&out[..progress.produced]);
                piece = &piece[progress.consumed..];
                if progress.status == Status::NeedInput {
                    assert!(
                        piece.is_empty(),
                        "asked for input with {} left",
                        piece.len()
                    );
                    break;
                }
            },
            FrameOp::Flush => loop {
                let progress = compressor.flush(&mut out).unwrap();
                framed.extend_from_slice(&out[..progress.produced]);
                if progress.status == Status::NeedInput {
                    break;
                }
            },
        }
    }
    loop {
        let progress = compressor.finish(&mut out).unwrap();
        framed.extend_from_slice(&out[..progress.produced]);
        if progress.status == Status::FrameEnd {
            break;
        }
    }
    assert!(compressor.is_finished());
    framed
}
