//! Review of the sans-IO frame encoder (issue 19) and the encoders on it.

use lz4_simd::frame::{self, FrameCompressor, FrameOptions, Status};

/// `compress` first writes output still pending into `output`; if it then fails (input after
/// the frame's end), those bytes must still be reported, else the end of the frame is lost.
#[test]
fn compress_after_the_end_keeps_the_output_it_wrote() {
    let content = b"the end of the frame ".repeat(100);
    let mut compressor = FrameCompressor::new(FrameOptions::new());
    let mut framed = Vec::new();
    let mut out = [0u8; 16];
    let progress = compressor.compress(&content, &mut out).unwrap();
    framed.extend_from_slice(&out[..progress.produced]);
    let progress = compressor.finish(&mut out).unwrap();
    framed.extend_from_slice(&out[..progress.produced]);
    assert_eq!(progress.status, Status::OutputFull);
    // Mistaken writes after finishing: they drain the frame's end, then fail; the output they
    // wrote must reach the caller.
    while let Ok(progress) = compressor.compress(b"late", &mut out) {
        framed.extend_from_slice(&out[..progress.produced]);
        assert_eq!(progress.consumed, 0);
    }
    loop {
        let progress = compressor.finish(&mut out).unwrap();
        framed.extend_from_slice(&out[..progress.produced]);
        if progress.status == Status::FrameEnd {
            break;
        }
    }
    assert_eq!(framed, frame::compress(&content, &FrameOptions::new()));
}
