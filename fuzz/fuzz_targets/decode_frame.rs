//! Decodes arbitrary bytes as a stream of frames, one-shot and streaming (through a reader that
//! hands out a few bytes at a time), and requires:
//!
//! - no panic, no out-of-bounds access (AddressSanitizer), no allocation beyond the cap;
//! - the one-shot and streaming decoders agree: same output when the one-shot decoder accepts,
//!   an error from both otherwise (except when only the one-shot decoder's cap was hit);
//! - a stream the decoder accepts splits into frames (`frames`) that cover it exactly.
//!
//! Input layout: a cap selector byte, a read-size byte, then the stream.
#![no_main]

use std::io::Read;

use libfuzzer_sys::fuzz_target;
use lz4_simd::{frame, Error};
use lz4_simd_fuzz::{Bytes, Trickle};

fuzz_target!(|data: &[u8]| {
    let mut bytes = Bytes(data);
    let cap = match bytes.u8() {
        0 => 0,
        selector @ 1..=127 => usize::from(selector) * 97,
        _ => 1 << 22,
    };
    let chunk = usize::from(bytes.u8()) + 1;
    let stream = bytes.rest();

    let one_shot = frame::decompress(stream, cap);
    let mut streamed = Vec::new();
    let streaming = frame::FrameDecoder::new(Trickle {
        data: stream,
        chunk,
    })
    .take(cap as u64 + 1)
    .read_to_end(&mut streamed);

    match one_shot {
        Ok(out) => {
            assert!(out.len() <= cap);
            assert!(
                streaming.is_ok(),
                "streaming failed where one-shot decoded: {streaming:?}"
            );
            assert!(streamed == out, "streaming output differs");
            let frames: Vec<_> = frame::frames(stream)
                .collect::<Result<_, _>>()
                .expect("frames() rejected a stream the decoder accepted");
            assert_eq!(
                frames.iter().map(|f| f.bytes.len()).sum::<usize>(),
                stream.len()
            );
        }
        Err(Error::FrameOutputLimit { .. }) => {}
        Err(error) => {
            assert!(!error.to_string().is_empty());
            // The streaming decoder has no cap, so it may only get further; `take` stops it at
            // cap + 1 bytes, before it could have failed.
            if streamed.len() <= cap {
                assert!(
                    streaming.is_err(),
                    "streaming accepted what one-shot rejected with {error}"
                );
            }
        }
    }
});
