//! The sans-IO frame encoder and the encoders on it, at their edges: output before an
//! error, panics, failing writers.

use lz4_simd::frame::{self, FrameCompressor, FrameOptions, Status};

/// `compress` first writes output still pending into `output`; if it then fails (input after
/// the frame's end), those bytes must still be reported, else the end of the frame is lost.
#[test]
fn compress_after_the_end_keeps_the_output_it_wrote() {
    let content = b"the end of the frame ".repeat(100);
    let mut compressor = FrameCompressor::new();
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

/// The tokio encoder over a writer that fails every third write (after taking input, while
/// delivering its block, and while finishing): every failed call is retried, and the frame
/// that arrives is the one-shot frame, byte for byte. `shutdown` twice is harmless.
#[cfg(feature = "tokio")]
#[test]
fn tokio_encoder_over_a_failing_writer_loses_nothing() {
    use std::pin::Pin;
    use std::task::{Context, Poll};
    use tokio::io::{AsyncWrite, AsyncWriteExt};

    struct Flaky {
        out: Vec<u8>,
        calls: usize,
    }
    impl AsyncWrite for Flaky {
        fn poll_write(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
            buf: &[u8],
        ) -> Poll<std::io::Result<usize>> {
            self.calls += 1;
            if self.calls.is_multiple_of(3) {
                return Poll::Ready(Err(std::io::Error::other("flaky")));
            }
            let n = buf.len().min(1000);
            self.out.extend_from_slice(&buf[..n]);
            Poll::Ready(Ok(n))
        }
        fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
            Poll::Ready(Ok(()))
        }
        fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
            Poll::Ready(Ok(()))
        }
    }

    let content = b"flaky writers lose nothing ".repeat(20_000);
    let options = FrameOptions::new().block_size(frame::BlockSize::Max64KB);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    runtime.block_on(async {
        let flaky = Flaky {
            out: Vec::new(),
            calls: 0,
        };
        let mut encoder = frame::tokio::FrameEncoder::with_options(flaky, options.clone());
        let mut rest = &content[..];
        while !rest.is_empty() {
            if let Ok(n) = encoder.write(&rest[..rest.len().min(5000)]).await {
                rest = &rest[n..];
            }
        }
        while encoder.flush().await.is_err() {}
        while encoder.shutdown().await.is_err() {}
        encoder.shutdown().await.unwrap();
        assert!(encoder.into_inner().out == frame::compress(&content, &options));
    });
}

/// An `AutoFinishEncoder` dropped while a panic unwinds (the code producing the content failed
/// half-way) must not end the frame: a complete, valid frame of half the content would pass for
/// the whole. The frame stays truncated, so every decoder reports it.
#[test]
fn auto_finish_does_not_finish_a_frame_abandoned_by_a_panic() {
    use std::io::Write;
    let mut framed = Vec::new();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut encoder = frame::FrameEncoder::new(&mut framed).auto_finish();
        encoder.write_all(b"the first half ").unwrap();
        panic!("the producer of the second half failed");
    }));
    assert!(result.is_err());
    assert!(
        frame::decompress(&framed, 1 << 20).is_err(),
        "a frame abandoned by a panic decodes as complete"
    );
}
