//! The async frame encoders and decoders (`frame::tokio`, `frame::futures`) on real I/O: a tokio
//! duplex pipe and a loopback TCP socket fed in small, uneven writes; cancellation (a read or
//! write future dropped while waiting) leaving the adapter usable; back-pressure (a small pipe);
//! the blocking decoder's verdicts on corrupt and truncated streams, and the one-shot bytes.
//!
//! Needs the features tokio and futures-io (default features of lz4-simd-tests):
//! `cargo test --test frame_async`.

use std::time::Duration;

use lz4_simd::frame::{self, BlockMode, BlockSize, FrameDecompressor, FrameOptions};
use lz4_simd::Error;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn content(len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(len);
    let mut n = 7u64;
    while out.len() < len {
        n = n.wrapping_mul(6364136223846793005).wrapping_add(1);
        out.extend_from_slice(format!("event {} at {}\n", n >> 50, n % 1000).as_bytes());
    }
    out.truncate(len);
    out
}

/// Frames of several kinds, concatenated.
fn stream(data: &[u8]) -> Vec<u8> {
    let mut framed = frame::compress(
        data,
        &FrameOptions::new()
            .block_size(BlockSize::Max64KB)
            .block_checksum(true),
    );
    framed.extend(frame::skippable_frame(1, b"meta").unwrap());
    framed.extend(frame::compress(
        data,
        &FrameOptions::new()
            .block_size(BlockSize::Max64KB)
            .block_mode(BlockMode::Linked),
    ));
    framed
}

/// Writes `bytes` to `writer` in uneven pieces (1, 2, ..., 700 bytes, then again).
async fn write_unevenly(mut writer: impl tokio::io::AsyncWrite + Unpin, bytes: Vec<u8>) {
    let mut rest = &bytes[..];
    let mut step = 1;
    while !rest.is_empty() {
        let n = step.min(rest.len());
        writer.write_all(&rest[..n]).await.unwrap();
        rest = &rest[n..];
        step = step % 700 + 37;
    }
    writer.shutdown().await.unwrap();
}

/// The error inside an `io::Error` from a decoder.
fn frame_error(error: std::io::Error) -> Error {
    *error
        .into_inner()
        .expect("a frame error")
        .downcast::<Error>()
        .expect("a frame error")
}

#[tokio::test]
async fn tokio_decoder_over_a_duplex_pipe_with_uneven_writes() {
    let data = content(300_000);
    let framed = stream(&data);
    // A small pipe: the writer waits on the reader (back-pressure).
    let (writer, reader) = tokio::io::duplex(1000);
    let feeder = tokio::spawn(write_unevenly(writer, framed));
    let mut decoder = frame::tokio::FrameDecoder::new(reader);
    let mut got = Vec::new();
    // Small, uneven reads too.
    let mut buf = [0u8; 333];
    loop {
        let n = decoder.read(&mut buf).await.unwrap();
        if n == 0 {
            break;
        }
        got.extend_from_slice(&buf[..n]);
    }
    feeder.await.unwrap();
    assert!(got == [&data[..], &data[..]].concat());
}

#[tokio::test]
async fn tokio_decoder_over_loopback_tcp() {
    let data = content(500_000);
    let framed = stream(&data);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let sender = tokio::spawn(async move {
        let (socket, _) = listener.accept().await.unwrap();
        write_unevenly(socket, framed).await;
    });
    let socket = tokio::net::TcpStream::connect(address).await.unwrap();
    let mut decoder = frame::tokio::FrameDecoder::new(socket);
    let mut got = Vec::new();
    decoder.read_to_end(&mut got).await.unwrap();
    sender.await.unwrap();
    assert!(got == [&data[..], &data[..]].concat());

    // The encoder on the sending side too, in uneven writes.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let input = data.clone();
    let sender = tokio::spawn(async move {
        let (socket, _) = listener.accept().await.unwrap();
        let options = FrameOptions::new().block_size(BlockSize::Max64KB);
        let mut encoder = frame::tokio::FrameEncoder::with_options(socket, options);
        for piece in input.chunks(1013) {
            encoder.write_all(piece).await.unwrap();
        }
        encoder.shutdown().await.unwrap();
    });
    let socket = tokio::net::TcpStream::connect(address).await.unwrap();
    let mut got = Vec::new();
    frame::tokio::FrameDecoder::new(socket)
        .read_to_end(&mut got)
        .await
        .unwrap();
    sender.await.unwrap();
    assert!(got == data);
}

#[tokio::test]
async fn a_dropped_read_loses_nothing() {
    let data = content(200_000);
    let framed = stream(&data);
    let (mut writer, reader) = tokio::io::duplex(1 << 20);
    let mut decoder = frame::tokio::FrameDecoder::new(reader);
    let mut got = Vec::new();
    let mut buf = vec![0u8; 10_000];
    // Feed in pieces; after each, read until the decoder waits, and drop that waiting read.
    for piece in framed.chunks(777) {
        writer.write_all(piece).await.unwrap();
        // A timeout drops the read future while it waits for input.
        while let Ok(n) =
            tokio::time::timeout(Duration::from_millis(2), decoder.read(&mut buf)).await
        {
            got.extend_from_slice(&buf[..n.unwrap()]);
        }
    }
    drop(writer);
    decoder.read_to_end(&mut got).await.unwrap();
    assert!(got == [&data[..], &data[..]].concat());
}

#[tokio::test]
async fn corrupt_and_truncated_streams_get_the_blocking_verdict() {
    let data = content(100_000);
    let framed = stream(&data);
    for at in (0..framed.len())
        .step_by(1531)
        .chain([0, 3, 4, 6, framed.len() - 1])
    {
        let mut bad = framed.clone();
        bad[at] ^= 0x21;
        let want = frame::decompress(&bad, 1 << 30).map_err(|e| format!("{e:?}"));
        let mut got = Vec::new();
        let result = frame::tokio::FrameDecoder::new(&bad[..])
            .read_to_end(&mut got)
            .await;
        let got = result
            .map(|_| got)
            .map_err(|e| format!("{:?}", frame_error(e)));
        assert_eq!(got.is_ok(), want.is_ok(), "flip at {at}");
        if let (Err(got), Err(want)) = (&got, &want) {
            assert_eq!(got, want, "flip at {at}");
        }
        let cut = &framed[..at];
        let want = frame::decompress(cut, 1 << 30).map_err(|e| format!("{e:?}"));
        let mut got = Vec::new();
        let result = frame::tokio::FrameDecoder::new(cut)
            .read_to_end(&mut got)
            .await;
        let got = result
            .map(|_| got)
            .map_err(|e| format!("{:?}", frame_error(e)));
        assert_eq!(got, want, "cut at {at}");
    }
}

#[tokio::test]
async fn single_frame_mode_leaves_the_rest_to_the_caller() {
    let mut bytes = frame::compress(b"header frame", &FrameOptions::new());
    bytes.extend_from_slice(b"raw trailer");
    let single = FrameDecompressor::new().single_frame(true);
    let mut decoder = frame::tokio::FrameDecoder::with_decompressor(&bytes[..], single);
    let mut got = Vec::new();
    decoder.read_to_end(&mut got).await.unwrap();
    assert_eq!(got, b"header frame");
    let (mut rest, unused) = decoder.into_parts();
    assert!(unused.is_empty());
    let mut trailer = Vec::new();
    rest.read_to_end(&mut trailer).await.unwrap();
    assert_eq!(trailer, b"raw trailer");
}

#[test]
fn futures_decoder_reads_what_the_blocking_decoder_reads() {
    use futures_util::io::{AsyncReadExt as _, Cursor};
    let data = content(250_000);
    let framed = stream(&data);
    futures_executor::block_on(async {
        let mut decoder = frame::futures::FrameDecoder::new(Cursor::new(framed.clone()));
        let mut got = Vec::new();
        decoder.read_to_end(&mut got).await.unwrap();
        assert!(got == [&data[..], &data[..]].concat());
        let cut = framed[..framed.len() - 3].to_vec();
        let mut decoder = frame::futures::FrameDecoder::new(Cursor::new(cut));
        let error = decoder.read_to_end(&mut Vec::new()).await.unwrap_err();
        assert!(matches!(frame_error(error), Error::FrameTruncated { .. }));
    });
}

/// The tokio encoder, through a small duplex pipe to the tokio decoder: uneven writes, a flush
/// in the middle, `shutdown` ending the frame; the bytes are the one-shot frame's in independent
/// mode, and in linked mode the `std::io` encoder's for the same writes (LZ4F's for the same
/// updates, which differ from the one-shot frame's).
#[tokio::test]
async fn tokio_encoder_to_decoder_through_a_pipe() {
    let data = content(400_000);
    for (linked, options) in [
        (false, FrameOptions::new()),
        (
            true,
            FrameOptions::new()
                .block_size(BlockSize::Max64KB)
                .block_mode(BlockMode::Linked)
                .block_checksum(true),
        ),
    ] {
        let (writer, reader) = tokio::io::duplex(4096);
        let mut encoder = frame::tokio::FrameEncoder::with_options(writer, options.clone());
        let input = data.clone();
        let sender = tokio::spawn(async move {
            let mut rest = &input[..];
            let mut step = 1;
            while !rest.is_empty() {
                let n = step.min(rest.len());
                encoder.write_all(&rest[..n]).await.unwrap();
                rest = &rest[n..];
                step = step * 3 % 9001 + 1;
            }
            encoder.shutdown().await.unwrap();
        });
        let mut raw = Vec::new();
        let mut reader = reader;
        reader.read_to_end(&mut raw).await.unwrap();
        sender.await.unwrap();
        let expected = if linked {
            let mut encoder = frame::FrameEncoder::with_options(Vec::new(), options.clone());
            let (mut rest, mut step) = (&data[..], 1);
            while !rest.is_empty() {
                let n = step.min(rest.len());
                std::io::Write::write_all(&mut encoder, &rest[..n]).unwrap();
                rest = &rest[n..];
                step = step * 3 % 9001 + 1;
            }
            encoder.finish().unwrap()
        } else {
            frame::compress(&data, &options)
        };
        assert!(raw == expected, "{options:?}");
        let mut decoded = Vec::new();
        frame::tokio::FrameDecoder::new(&raw[..])
            .read_to_end(&mut decoded)
            .await
            .unwrap();
        assert!(decoded == data);
    }
}

/// A write future dropped while the writer waits loses nothing: the encoder goes on and the
/// frame is whole.
#[tokio::test]
async fn a_dropped_write_loses_nothing() {
    let data = content(300_000);
    let (writer, mut reader) = tokio::io::duplex(1000);
    let mut encoder = frame::tokio::FrameEncoder::new(writer);
    let mut raw = Vec::new();
    let mut rest = &data[..];
    let mut buf = vec![0u8; 100_000];
    while !rest.is_empty() {
        // Writes until the pipe is full and the write waits; the timeout drops it there.
        while let Ok(written) =
            tokio::time::timeout(Duration::from_millis(2), encoder.write(rest)).await
        {
            rest = &rest[written.unwrap()..];
            if rest.is_empty() {
                break;
            }
        }
        // Drain the pipe.
        while let Ok(n) =
            tokio::time::timeout(Duration::from_millis(2), reader.read(&mut buf)).await
        {
            raw.extend_from_slice(&buf[..n.unwrap()]);
        }
    }
    let finisher = tokio::spawn(async move {
        encoder.shutdown().await.unwrap();
    });
    reader.read_to_end(&mut raw).await.unwrap();
    finisher.await.unwrap();
    assert!(raw == frame::compress(&data, &FrameOptions::new()));
}

#[test]
fn futures_encoder_writes_the_blocking_bytes() {
    use futures_util::io::{AsyncWriteExt as _, Cursor};
    let data = content(200_000);
    futures_executor::block_on(async {
        let mut encoder = frame::futures::FrameEncoder::new(Cursor::new(Vec::new()));
        for piece in data.chunks(777) {
            encoder.write_all(piece).await.unwrap();
        }
        encoder.close().await.unwrap();
        let framed = encoder.into_inner().into_inner();
        assert!(framed == frame::compress(&data, &FrameOptions::new()));
    });
}
