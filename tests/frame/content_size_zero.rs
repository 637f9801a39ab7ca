//! A frame header that declares a content size of 0 over real content. liblz4 1.10's LZ4F reads
//! 0 as "unknown": `LZ4F_decodeHeader` sets the remaining size to the declared 0, which is
//! counted down only when the declared size is not 0 and checked at the end mark (so never
//! here), and `LZ4F_getFrameInfo` reports 0, as for a header without the field; the `lz4` tool
//! decodes such frames and lists their size as unknown. Every decoder of this crate decodes them
//! too, with every other check (block sizes, block and content checksums) as usual, and
//! `FrameInfo::content_size` is `None` for them. Until 2026-12-07 (commit e4b91a7) every decoder
//! rejected them (`FrameContentSizeMismatch { declared: 0, .. }`).
//!
//! The async adapters' part needs the features: `cargo test --features tokio,futures-io --test
//! frame -- content_size_zero::`; the parallel decoders' part the feature `parallel` (on in the
//! workspace's `cargo test`).

use std::io::Read;

#[cfg(feature = "containers")]
use lz4_simd::container::kafka::{self, AcceptHeaderChecksum};
use lz4_simd::frame::{
    self, BlockMode, BlockSize, FrameDecoder, FrameDecompressor, FrameHeader, FrameOptions, Status,
};
use lz4_simd::Error;
use testkit::liblz4;
use testkit::samples::{self, Rng};

/// `hello hello hello` in one stored block, content checksum on, a declared content size of 0.
const HELLO: &str = "04224d186c400000000000000000091100008068656c6c6f2068656c6c6f2068656c6c6f\
                     00000000b1cd9b87";

fn unhex(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap())
        .collect()
}

const MAX_OUT: usize = 1 << 24;

/// The `Error` inside an `io::Error` of a decoder, as text (or the `io::Error` itself).
fn io_text(error: std::io::Error) -> String {
    match error
        .get_ref()
        .and_then(|inner| inner.downcast_ref::<Error>())
    {
        Some(inner) => format!("{inner:?}"),
        None => format!("io: {error:?}"),
    }
}

fn text<T>(result: Result<T, Error>) -> Result<T, String> {
    result.map_err(|error| format!("{error:?}"))
}

/// Everything `reader` gives, read 3 bytes at a time (1021 for long content).
fn read_small(mut reader: impl Read, len: usize) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut buf = vec![0u8; if len < 1000 { 3 } else { 1021 }];
    loop {
        match reader.read(&mut buf) {
            Ok(0) => return Ok(out),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(error) => return Err(io_text(error)),
        }
    }
}

fn read_all(mut reader: impl Read) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    reader.read_to_end(&mut out).map_err(io_text)?;
    Ok(out)
}

/// The sans-IO decompressor, fed 7 bytes at a time into 5-byte outputs (1031 and 1019 for long
/// input).
fn sans_io(framed: &[u8]) -> Result<Vec<u8>, Error> {
    let mut decompressor = FrameDecompressor::new();
    let mut out = Vec::new();
    let long = framed.len() >= 1000;
    let mut buf = vec![0u8; if long { 1019 } else { 5 }];
    let mut input = framed;
    loop {
        let take = input.len().min(if long { 1031 } else { 7 });
        let progress = decompressor.decompress(&input[..take], &mut buf)?;
        out.extend_from_slice(&buf[..progress.produced]);
        input = &input[progress.consumed..];
        if input.is_empty() && progress.status == Status::NeedInput {
            break;
        }
    }
    decompressor.finish()?;
    Ok(out)
}

/// Every decoder's verdict on `framed`: (decoder, content or error as text).
fn decoders(framed: &[u8]) -> Vec<(String, Result<Vec<u8>, String>)> {
    // Extended only with the features below.
    #[allow(unused_mut)]
    let mut all: Vec<(String, Result<Vec<u8>, String>)> = vec![
        (
            "decompress".into(),
            text(frame::decompress(framed, MAX_OUT)),
        ),
        (
            "decompress_with_dict".into(),
            text(frame::decompress_with_dictionary(framed, b"", 0, MAX_OUT)),
        ),
        (
            "decompress_with_any_dict".into(),
            text(frame::decompress_with_any_dictionary(framed, b"", MAX_OUT)),
        ),
        (
            "FrameDecoder read_to_end".into(),
            read_all(FrameDecoder::new(framed)),
        ),
        (
            "FrameDecoder read".into(),
            read_small(FrameDecoder::new(framed), framed.len()),
        ),
        ("FrameDecompressor".into(), text(sans_io(framed))),
    ];
    #[cfg(feature = "parallel")]
    for threads in [1, 2] {
        use lz4_simd::frame::ParallelFrameDecoder;
        all.extend([
            (
                format!("decompress_parallel, {threads} threads"),
                text(frame::decompress_parallel(framed, MAX_OUT, threads)),
            ),
            (
                format!("decompress_parallel_with_dict, {threads} threads"),
                text(frame::decompress_parallel_with_dictionary(
                    framed, b"", 0, MAX_OUT, threads,
                )),
            ),
            (
                format!("ParallelFrameDecoder read_to_end, {threads} threads"),
                read_all(ParallelFrameDecoder::new(framed, threads)),
            ),
            (
                format!("ParallelFrameDecoder read, {threads} threads"),
                read_small(ParallelFrameDecoder::new(framed, threads), framed.len()),
            ),
        ]);
    }
    #[cfg(feature = "tokio")]
    {
        use tokio::io::AsyncReadExt;
        let mut out = Vec::new();
        let result = futures_executor::block_on(
            frame::tokio::FrameDecoder::new(framed).read_to_end(&mut out),
        );
        all.push(("tokio".into(), result.map(|_| out).map_err(io_text)));
    }
    #[cfg(feature = "futures-io")]
    {
        use futures_util::io::AsyncReadExt;
        let mut out = Vec::new();
        let result = futures_executor::block_on(
            frame::futures::FrameDecoder::new(framed).read_to_end(&mut out),
        );
        all.push(("futures-io".into(), result.map(|_| out).map_err(io_text)));
    }
    all
}

/// The Kafka container's decoders on `framed` (a frame of independent blocks without a
/// dictionary, which Kafka takes as it is); none without the `containers` feature.
#[cfg(not(feature = "containers"))]
fn kafka_decoders(_framed: &[u8]) -> Vec<(String, Result<Vec<u8>, String>)> {
    Vec::new()
}

/// The Kafka container's decoders on `framed` (a frame of independent blocks without a
/// dictionary, which Kafka takes as it is).
#[cfg(feature = "containers")]
fn kafka_decoders(framed: &[u8]) -> Vec<(String, Result<Vec<u8>, String>)> {
    vec![
        (
            "kafka::decompress".into(),
            text(kafka::decompress(
                framed,
                AcceptHeaderChecksum::Either,
                MAX_OUT,
            )),
        ),
        (
            "kafka::Decoder".into(),
            read_all(kafka::Decoder::new(framed, AcceptHeaderChecksum::Either)),
        ),
    ]
}

/// `framed` (a frame without a content size field or a dictionary ID: a 7-byte header) with
/// the field added, declaring `declared`.
fn declaring(framed: &[u8], declared: u64) -> Vec<u8> {
    assert_eq!(framed[4] & 0x09, 0, "no content size or dictionary ID");
    let mut out = framed[..4].to_vec();
    out.extend_from_slice(&[framed[4] | 0x08, framed[5]]);
    out.extend_from_slice(&declared.to_le_bytes());
    out.push((xxhash_rust::xxh32::xxh32(&out[4..], 0) >> 8) as u8);
    out.extend_from_slice(&framed[7..]);
    out
}

#[test]
fn the_hello_frame_decodes_in_every_decoder() {
    let framed = unhex(HELLO);
    assert_eq!(framed.len(), 44);
    let content = b"hello hello hello".to_vec();
    // liblz4's verdict, and its frame info.
    assert_eq!(
        liblz4::decompress_frame(&framed, None),
        Some(content.clone())
    );
    assert_eq!(liblz4::frame_info_content_size(&framed), Some(0));
    let mut all = decoders(&framed);
    all.extend(kafka_decoders(&framed));
    for (name, result) in all {
        assert_eq!(result, Ok(content.clone()), "{name}");
    }
    // The header: the field is there (15 bytes), its 0 reads as no size.
    let info = frame::read_frame_info(&framed).unwrap();
    assert_eq!(info.content_size, None);
    assert_eq!(info.header_len, 15);
    let (header, len) = frame::read_frame_header(&framed).unwrap();
    assert_eq!((header, len), (FrameHeader::Lz4(info.clone()), 15));
    let found: Vec<_> = frame::frames(&framed).collect::<Result<_, _>>().unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].header, FrameHeader::Lz4(info.clone()));
    // The streaming decoders' view of the frame being decoded.
    let mut decoder = FrameDecoder::new(&framed[..]);
    let mut first = [0u8; 1];
    decoder.read_exact(&mut first).unwrap();
    assert_eq!(decoder.frame_info(), Some(&info));
    let mut decompressor = FrameDecompressor::new();
    decompressor.decompress(&framed, &mut first).unwrap();
    assert_eq!(decompressor.frame_info(), Some(&info));
}

/// A declared 0 is no size at all for the caller's cap too: a cap below the content fails as
/// for a frame without a size (`declared: None`), once the content reaches it.
#[test]
fn a_declared_zero_is_no_size_under_a_cap() {
    let framed = unhex(HELLO);
    let expected = Err(Error::FrameOutputLimit {
        max_out: 10,
        declared: None,
    });
    assert_eq!(frame::decompress(&framed, 10), expected);
    #[cfg(feature = "containers")]
    assert_eq!(
        kafka::decompress(&framed, AcceptHeaderChecksum::Either, 10),
        expected
    );
    #[cfg(feature = "parallel")]
    for threads in [1, 2] {
        assert_eq!(frame::decompress_parallel(&framed, 10, threads), expected);
    }
    assert_eq!(
        frame::decompress(&framed, 17).unwrap(),
        b"hello hello hello"
    );
}

/// Frames with a declared size of 0 (and, beside them, the true size, one more and 1) over
/// content of several sizes, linked and independent blocks, with and without block and content
/// checksums: every decoder gives liblz4's LZ4F verdict (its content, or an error where it
/// fails), and `read_frame_info` its content size (0 as `None`). A declared 0 with a damaged
/// content checksum fails in both.
#[test]
fn every_decoder_agrees_with_lz4f() {
    let mut rng = Rng::new(0x7a65_726f);
    let mut cases = 0;
    for len in [0, 1, 17, 4096, 65_536, 65_537, 300_000] {
        let content = samples::text(len, &mut rng);
        for mode in [BlockMode::Independent, BlockMode::Linked] {
            for (block_checksum, content_checksum) in [(false, false), (false, true), (true, true)]
            {
                let options = FrameOptions::new()
                    .block_size(BlockSize::Max64KB)
                    .block_mode(mode)
                    .block_checksum(block_checksum)
                    .content_checksum(content_checksum);
                let plain = frame::compress(&content, &options);
                let mut frames: Vec<Vec<u8>> = [0, len as u64, len as u64 + 1, 1]
                    .iter()
                    .map(|&declared| declaring(&plain, declared))
                    .collect();
                if content_checksum {
                    let mut damaged = declaring(&plain, 0);
                    let last = damaged.len() - 1;
                    damaged[last] ^= 1;
                    frames.push(damaged);
                }
                for framed in frames {
                    let name = format!(
                        "{len} bytes, {mode:?}, block checksum {block_checksum}, content \
                         checksum {content_checksum}, declared {:?}",
                        &framed[6..14]
                    );
                    let lz4f = liblz4::decompress_frame(&framed, None);
                    let declared_zero = framed[6..14] == [0; 8];
                    if declared_zero && framed[framed.len() - 1] == plain[plain.len() - 1] {
                        assert_eq!(lz4f.as_ref(), Some(&content), "{name}: LZ4F");
                    }
                    let info = frame::read_frame_info(&framed).unwrap();
                    assert_eq!(
                        liblz4::frame_info_content_size(&framed),
                        Some(info.content_size.unwrap_or(0)),
                        "{name}"
                    );
                    let mut all = decoders(&framed);
                    if mode == BlockMode::Independent {
                        all.extend(kafka_decoders(&framed));
                    }
                    let sequential = all[0].1.clone();
                    for (decoder, result) in all {
                        match &lz4f {
                            Some(expected) => {
                                assert_eq!(result.as_ref(), Ok(expected), "{name}: {decoder}")
                            }
                            None => assert!(result.is_err(), "{name}: {decoder}: {result:?}"),
                        }
                        // The same error everywhere (the frame decoders': Kafka's wraps none).
                        assert_eq!(result, sequential, "{name}: {decoder}");
                    }
                    cases += 1;
                }
            }
        }
    }
    assert_eq!(cases, 7 * 2 * (3 * 4 + 2));
}

/// A frame that declares 0 in a stream of frames: the frames after it decode too.
#[test]
fn a_stream_goes_on_after_a_declared_zero() {
    let mut rng = Rng::new(5);
    let first = samples::text(100_000, &mut rng);
    let second = samples::text(5_000, &mut rng);
    let options = FrameOptions::new().block_size(BlockSize::Max64KB);
    let mut stream = declaring(&frame::compress(&first, &options), 0);
    stream.extend(frame::compress(
        &second,
        &options.clone().content_size(true),
    ));
    stream.extend(unhex(HELLO));
    let mut expected = first;
    expected.extend(second);
    expected.extend(b"hello hello hello");
    for (name, result) in decoders(&stream) {
        assert_eq!(result.as_ref(), Ok(&expected), "{name}");
    }
}
