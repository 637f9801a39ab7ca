//! The sans-IO frame decoder at its edges: content decoded before an error, input
//! reported beyond the space offered.

use std::io::Read;

use lz4_simd::frame::{self, BlockSize, FrameDecoder, FrameDecompressor, FrameOptions, Status};

/// `decompress` that delivers content into `output` and then meets an error in a later unit
/// of the same input must not drop the delivered content: the caller is told how much was
/// produced (and gets the error on the next call), as `FrameDecoder::read` hands out the good
/// blocks before the error.
#[test]
fn content_delivered_before_an_error_is_reported() {
    let content: Vec<u8> = (0..200_000u32)
        .map(|i| (i % 251) as u8 ^ (i / 997) as u8)
        .collect();
    let mut framed = frame::compress(
        &content,
        &FrameOptions::new()
            .block_size(BlockSize::Max64KB)
            .block_checksum(true),
    );
    // A byte flipped inside the last block: the blocks before it are good.
    let at = framed.len() - 20;
    framed[at] ^= 0x55;
    // The blocking decoder hands out the good blocks first.
    let mut blocking = Vec::new();
    let mut decoder = FrameDecoder::new(&framed[..]);
    let mut buf = [0u8; 1 << 20];
    let error = loop {
        match decoder.read(&mut buf) {
            Ok(0) => panic!("no error"),
            Ok(n) => blocking.extend_from_slice(&buf[..n]),
            Err(e) => break e,
        }
    };
    assert!(!blocking.is_empty());
    // The sans-IO decoder, the whole input and a large output in one call.
    let mut decompressor = FrameDecompressor::new();
    let mut out = vec![0u8; 1 << 20];
    let mut got = Vec::new();
    let mut input = &framed[..];
    let sans_io_error = loop {
        match decompressor.decompress(input, &mut out) {
            Ok(progress) => {
                got.extend_from_slice(&out[..progress.produced]);
                input = &input[progress.consumed..];
                assert_ne!(progress.status, Status::FrameEnd);
                if progress.status == Status::NeedInput {
                    panic!("no error");
                }
            }
            Err(e) => break e,
        }
    };
    assert_eq!(sans_io_error.to_string(), error.to_string());
    assert_eq!(
        got.len(),
        blocking.len(),
        "content before the error was dropped"
    );
    assert_eq!(got, blocking);
}

/// `input_filled` may only record input in the space `input_space` offered: while content is
/// pending that space is empty, so reporting bytes filled is an error. (Accepted, the stale bytes
/// of the unit buffer became input, and the completed unit was never decoded: `decompress` then
/// answered `NeedInput` without taking the input it was given.)
#[test]
fn input_filled_beyond_the_offered_space_is_refused() {
    let content = b"sans-IO ".repeat(30_000);
    let framed = frame::compress(&content, &frame::FrameOptions::new());
    let mut decompressor = FrameDecompressor::new();
    // Through the zero-copy interface until content is pending.
    let mut rest = &framed[..];
    while decompressor.pending().is_empty() {
        let space = decompressor.input_space().unwrap();
        let n = space.len().min(rest.len());
        space[..n].copy_from_slice(&rest[..n]);
        rest = &rest[n..];
        decompressor.input_filled(n).unwrap();
    }
    assert!(decompressor.input_space().unwrap().is_empty());
    assert!(decompressor.input_filled(3).is_err());
}
