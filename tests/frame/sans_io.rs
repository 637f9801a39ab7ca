//! The sans-IO frame decoder ([`FrameDecompressor`]) against the one-shot decoder: the same
//! content and the same verdict (error and offset) for every way of slicing the input and the
//! output, on valid streams (all frame kinds, concatenated), corrupt and truncated ones; and its
//! single-frame mode, unverified checksums and zero-copy input.

use std::io::Read;

use crate::common as frame_common;

use lz4_simd::frame::{
    self, BlockMode, BlockSize, FrameCompressor, FrameDecoder, FrameDecompressor, FrameOptions,
    Status,
};
use lz4_simd::Error;
use testkit::liblz4;

/// Compressible data with some variety.
fn data(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    let mut out = Vec::with_capacity(len);
    while out.len() < len {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let word = format!("w{} ", x % 97);
        out.extend_from_slice(word.as_bytes());
    }
    out.truncate(len);
    out
}

/// A stream of every frame kind: independent and linked frames with checksums and content
/// size, a skippable frame, a legacy frame, an empty frame.
fn mixed_stream() -> Vec<u8> {
    let mut stream = Vec::new();
    stream.extend(frame::compress(
        &data(200_000, 1),
        &FrameOptions::new()
            .block_size(BlockSize::Max64KB)
            .block_checksum(true)
            .content_size(true),
    ));
    stream.extend(frame::skippable_frame(3, b"skip me").unwrap());
    stream.extend(frame::compress(
        &data(70_000, 2),
        &FrameOptions::new()
            .block_size(BlockSize::Max64KB)
            .block_mode(BlockMode::Linked),
    ));
    stream.extend(frame::compress(b"", &FrameOptions::new()));
    stream.extend(frame::compress_legacy(&data(30_000, 3), 1));
    stream
}

/// Decodes `stream` with input in pieces of `in_step` and output room of `out_step`; returns
/// the content, or the first error (from `decompress` or from `finish`).
fn sans_io(
    stream: &[u8],
    in_step: usize,
    out_step: usize,
    mut decompressor: FrameDecompressor,
) -> Result<Vec<u8>, Error> {
    let mut content = Vec::new();
    let mut out = vec![0u8; out_step];
    for piece in stream.chunks(in_step.max(1)) {
        let mut piece = piece;
        loop {
            let progress = decompressor.decompress(piece, &mut out)?;
            content.extend_from_slice(&out[..progress.produced]);
            piece = &piece[progress.consumed..];
            match progress.status {
                Status::NeedInput => {
                    assert!(piece.is_empty());
                    break;
                }
                // Short of full only when an error follows the content (the next call's).
                Status::OutputFull => assert!(
                    progress.produced == out_step || decompressor.decompress(&[], &mut []).is_err()
                ),
                Status::FrameEnd => return Ok(content),
            }
        }
    }
    // Content decoded from the last unit may wait for room.
    loop {
        let progress = decompressor.decompress(&[], &mut out)?;
        content.extend_from_slice(&out[..progress.produced]);
        if progress.status != Status::OutputFull {
            break;
        }
    }
    decompressor.finish()?;
    Ok(content)
}

/// Decodes through `input_space` / `input_filled` (the zero-copy adapter interface), reading
/// at most `step` bytes at a time.
fn zero_copy(stream: &[u8], step: usize) -> Result<Vec<u8>, Error> {
    let mut decompressor = FrameDecompressor::new();
    let mut content = Vec::new();
    let mut rest = stream;
    loop {
        content.extend_from_slice(decompressor.pending());
        let taken = decompressor.pending().len();
        decompressor.consume(taken);
        let space = decompressor.input_space()?;
        if space.is_empty() {
            continue;
        }
        let n = space.len().min(step).min(rest.len());
        if n == 0 {
            decompressor.finish()?;
            return Ok(content);
        }
        space[..n].copy_from_slice(&rest[..n]);
        rest = &rest[n..];
        decompressor.input_filled(n)?;
    }
}

fn verdict(result: &Result<Vec<u8>, Error>) -> String {
    match result {
        Ok(content) => format!("ok, {} bytes", content.len()),
        Err(error) => format!("{error:?}"),
    }
}

#[test]
fn every_slicing_gives_the_one_shot_content() {
    let stream = mixed_stream();
    let want = frame::decompress(&stream, 1 << 30).unwrap();
    for in_step in [1, 3, 4, 7, 100, 4096, 65_539, stream.len()] {
        for out_step in [1, 5, 4096, 1 << 20] {
            if in_step.saturating_mul(out_step) < 64 {
                continue; // byte by byte both ways: covered by the next pairs, and slow
            }
            let got = sans_io(&stream, in_step, out_step, FrameDecompressor::new()).unwrap();
            assert!(got == want, "in {in_step}, out {out_step}");
        }
        assert!(
            zero_copy(&stream, in_step).unwrap() == want,
            "zero copy {in_step}"
        );
    }
}

#[test]
fn corrupt_and_truncated_streams_get_the_one_shot_verdict() {
    let stream = mixed_stream();
    let mut positions: Vec<usize> = (0..64).collect();
    positions.extend((64..stream.len()).step_by(997));
    for &at in &positions {
        // One byte flipped.
        let mut bad = stream.clone();
        bad[at] ^= 0x5A;
        let want = verdict(&frame::decompress(&bad, 1 << 30));
        for (in_step, out_step) in [(13, 4096), (stream.len(), 1 << 20)] {
            let got = verdict(&sans_io(&bad, in_step, out_step, FrameDecompressor::new()));
            assert_eq!(got, want, "flip at {at}, in {in_step}");
        }
        assert_eq!(
            verdict(&zero_copy(&bad, 1000)),
            want,
            "zero copy, flip at {at}"
        );
        // Cut there.
        let cut = &stream[..at];
        let want = verdict(&frame::decompress(cut, 1 << 30));
        let got = verdict(&sans_io(cut, 17, 4096, FrameDecompressor::new()));
        assert_eq!(got, want, "cut at {at}");
    }
}

#[test]
fn errors_are_latched() {
    let mut bad = mixed_stream();
    bad[4] ^= 0xFF; // the first frame's descriptor
    let mut decompressor = FrameDecompressor::new();
    let mut out = [0u8; 100];
    let first = decompressor.decompress(&bad, &mut out).unwrap_err();
    for _ in 0..3 {
        assert_eq!(decompressor.decompress(&bad, &mut out).unwrap_err(), first);
        assert_eq!(decompressor.finish().unwrap_err(), first);
        assert_eq!(decompressor.input_space().unwrap_err(), first);
    }
}

#[test]
fn single_frame_mode_stops_after_one_frame_of_each_kind() {
    let tail = b"\x00\x01 whatever follows the frame".to_vec();
    let content = data(150_000, 9);
    let cases: Vec<(Vec<u8>, Vec<u8>)> = vec![
        (
            frame::compress(&content, &FrameOptions::new()),
            content.clone(),
        ),
        (
            frame::compress(
                &content,
                &FrameOptions::new()
                    .block_size(BlockSize::Max64KB)
                    .block_mode(BlockMode::Linked)
                    .content_checksum(false),
            ),
            content.clone(),
        ),
        (frame::compress(b"", &FrameOptions::new()), Vec::new()),
        (frame::skippable_frame(0, b"payload").unwrap(), Vec::new()),
        (frame::skippable_frame(15, b"").unwrap(), Vec::new()),
    ];
    for (framed, want) in &cases {
        let mut stream = framed.clone();
        stream.extend_from_slice(&tail);
        for in_step in [1, 5, 4096, stream.len()] {
            let mut decompressor = FrameDecompressor::new().single_frame(true);
            let mut consumed = 0;
            let mut got = Vec::new();
            let mut out = vec![0u8; 3000];
            loop {
                let end = (consumed + in_step).min(stream.len());
                let progress = decompressor
                    .decompress(&stream[consumed..end], &mut out)
                    .unwrap();
                consumed += progress.consumed;
                got.extend_from_slice(&out[..progress.produced]);
                if progress.status == Status::FrameEnd {
                    break;
                }
            }
            assert_eq!(consumed, framed.len(), "in {in_step}");
            assert!(got == *want);
            assert!(decompressor.is_finished());
            assert_eq!(decompressor.read_ahead(), None);
            decompressor.finish().unwrap();
        }
        // The blocking decoder leaves its reader right after the frame.
        let mut decoder = FrameDecoder::with_decompressor(
            &stream[..],
            FrameDecompressor::new().single_frame(true),
        );
        let mut got = Vec::new();
        decoder.read_to_end(&mut got).unwrap();
        assert!(got == *want);
        let (rest, unused) = decoder.into_parts();
        assert!(unused.is_empty());
        assert_eq!(rest, &tail[..]);
    }
}

#[test]
fn single_frame_mode_ends_a_legacy_frame_at_the_next_magic_number() {
    let content = data(100_000, 4);
    let legacy = frame::compress_legacy(&content, 1);
    let next = frame::compress(b"next frame", &FrameOptions::new());
    let mut stream = legacy.clone();
    stream.extend_from_slice(&next);
    let mut decoder =
        FrameDecoder::with_decompressor(&stream[..], FrameDecompressor::new().single_frame(true));
    let mut got = Vec::new();
    decoder.read_to_end(&mut got).unwrap();
    assert!(got == content);
    let (rest, unused) = decoder.into_parts();
    assert_eq!(unused, next[..4]);
    let mut after = unused;
    after.extend_from_slice(rest);
    assert_eq!(after, next);
    // At the end of the input, a legacy frame simply ends.
    let got = sans_io(
        &legacy,
        1000,
        4096,
        FrameDecompressor::new().single_frame(true),
    )
    .unwrap();
    assert!(got == content);
}

#[test]
fn checksums_can_be_left_unverified_for_trusted_data() {
    let content = data(100_000, 5);
    let options = FrameOptions::new()
        .block_size(BlockSize::Max64KB)
        .block_checksum(true);
    let framed = frame::compress(&content, &options);
    let mut bad_block_sum = framed.clone();
    // The first block's checksum: after the 7-byte header, the size word and the block.
    let size = u32::from_le_bytes(framed[7..11].try_into().unwrap()) & 0x7FFF_FFFF;
    bad_block_sum[11 + size as usize] ^= 1;
    let mut bad_content_sum = framed.clone();
    let last = bad_content_sum.len() - 1;
    bad_content_sum[last] ^= 1;
    for bad in [&bad_block_sum, &bad_content_sum] {
        assert!(frame::decompress(bad, 1 << 20).is_err());
        let verified = sans_io(bad, 4096, 4096, FrameDecompressor::new());
        assert!(verified.is_err());
        let trusted = sans_io(
            bad,
            4096,
            4096,
            FrameDecompressor::new().verify_checksums(false),
        )
        .unwrap();
        assert!(trusted == content);
    }
    // Structure is still checked: a corrupt block is still an error.
    let mut bad_block = framed.clone();
    bad_block[11] ^= 0xFF;
    assert!(sans_io(
        &bad_block,
        4096,
        4096,
        FrameDecompressor::new().verify_checksums(false)
    )
    .is_err());
}

#[test]
fn dictionaries_work_as_in_the_one_shot_decoder() {
    let dict = data(80_000, 6);
    let content = dict[10_000..70_000].to_vec();
    let framed =
        frame::compress_with_dictionary(&content, &dict, &FrameOptions::new().dict_id(Some(5)));
    let got = sans_io(
        &framed,
        999,
        4096,
        FrameDecompressor::with_dictionary(&dict, 5),
    )
    .unwrap();
    assert!(got == content);
    let got = sans_io(
        &framed,
        999,
        4096,
        FrameDecompressor::with_any_dictionary(&dict),
    )
    .unwrap();
    assert!(got == content);
    let wrong = sans_io(
        &framed,
        999,
        4096,
        FrameDecompressor::with_dictionary(&dict, 6),
    );
    assert!(matches!(wrong, Err(Error::FrameDictIdMismatch { .. })));
    let missing = sans_io(&framed, 999, 4096, FrameDecompressor::new());
    assert!(matches!(missing, Err(Error::FrameMissingDictionary { .. })));
}

/// A kernel image's trailer after a legacy frame (`kernel_trailer`): the content size as a
/// little-endian u32, then zero padding, accepted to the end of the input (small frames, whose
/// trailer reads as a block size, and large ones, whose trailer is above any block size), as
/// `container::linux::decompress` accepts it; refused without the option, with a wrong size,
/// with data after it.
#[test]
fn kernel_image_trailers_are_accepted_when_asked() {
    for len in [100_000usize, 9 << 20] {
        let content = data(len, 11);
        let legacy = frame::compress_legacy(&content, 1);
        for padding in [0usize, 3, 12, 9000] {
            let mut image = legacy.clone();
            image.extend_from_slice(&(len as u32).to_le_bytes());
            image.extend(std::iter::repeat_n(0u8, padding));
            let asked = FrameDecompressor::new().kernel_trailer(true);
            let got = sans_io(&image, 4096, 1 << 16, asked).unwrap();
            assert!(got == content, "{len}, padding {padding}");
            let mut streamed = Vec::new();
            FrameDecoder::with_decompressor(
                &image[..],
                FrameDecompressor::new().kernel_trailer(true),
            )
            .read_to_end(&mut streamed)
            .unwrap();
            assert!(streamed == content);
            #[cfg(feature = "containers")]
            assert!(lz4_simd::container::linux::decompress(&image, 1 << 30).unwrap() == content);
            assert!(sans_io(&image, 4096, 1 << 16, FrameDecompressor::new()).is_err());
        }
        let bad_cases = [
            ((len as u32 + 1).to_le_bytes().to_vec(), "a wrong size"),
            (
                [&(len as u32).to_le_bytes()[..], &[0, 0, 7]].concat(),
                "data after",
            ),
        ];
        for (tail, what) in bad_cases {
            let mut image = legacy.clone();
            image.extend_from_slice(&tail);
            let asked = FrameDecompressor::new().kernel_trailer(true);
            assert!(
                sans_io(&image, 4096, 1 << 16, asked).is_err(),
                "{len}: {what}"
            );
        }
    }
}

/// Compresses `content` with the sans-IO compressor, input in pieces of `in_step`, output room
/// `out_step`; returns the frame.
fn sans_io_compress(
    content: &[u8],
    in_step: usize,
    out_step: usize,
    mut compressor: FrameCompressor,
) -> Vec<u8> {
    frame_common::compress_in_pieces(&mut compressor, content.chunks(in_step.max(1)), out_step)
}

#[test]
fn the_compressor_writes_the_one_shot_bytes_for_every_slicing() {
    let dict = data(70_000, 21);
    for (len, seed) in [(0usize, 1u64), (1, 2), (65_536, 3), (300_000, 4)] {
        let content = data(len, seed);
        for options in [
            FrameOptions::new(),
            FrameOptions::new()
                .block_size(BlockSize::Max64KB)
                .block_mode(BlockMode::Linked)
                .block_checksum(true),
            FrameOptions::new()
                .block_size(BlockSize::Max64KB)
                // (An empty one-shot frame leaves the size out: liblz4 reads 0 as "absent".)
                .declared_content_size((len > 0).then_some(len as u64))
                .content_checksum(false),
            FrameOptions::new()
                .block_size(BlockSize::Max64KB)
                .block_mode(BlockMode::Linked)
                .hc_level(Some(9)),
        ] {
            let one_shot = frame::compress(&content, &options);
            let debug = format!("{options:?}");
            for (in_step, out_step) in [(1, 7), (1000, 1), (65_536, 100_000), (1 << 20, 1 << 20)] {
                if len > 70_000 && (in_step == 1 || out_step == 1) {
                    continue; // byte by byte: the small inputs cover it
                }
                // Linked frames of more than a block are LZ4F's for the same updates (one per
                // piece handed in).
                let want = if debug.contains("Linked") && len > 65_536 {
                    let mut preferences = liblz4::fast_frame_preferences(4, true, 1);
                    preferences.auto_flush = 0;
                    if debug.contains("hc_level: Some(9)") {
                        preferences.compression_level = 9;
                    }
                    liblz4::set_block_checksum(
                        &mut preferences,
                        debug.contains("block_checksum: true"),
                    );
                    let updates: Vec<_> = content
                        .chunks(in_step)
                        .map(liblz4::FrameOp::Update)
                        .collect();
                    liblz4::compress_frame_ops(&updates, None, &preferences)
                } else {
                    one_shot.clone()
                };
                let got = sans_io_compress(
                    &content,
                    in_step,
                    out_step,
                    FrameCompressor::with_options(options.clone()),
                );
                assert!(
                    got == want,
                    "{len} bytes, {options:?}, in {in_step}, out {out_step}"
                );
            }
            let want = frame::compress_with_dictionary(&content, &dict, &options);
            let got = sans_io_compress(
                &content,
                4096,
                4096,
                FrameCompressor::with_dictionary(options.clone(), &dict),
            );
            if debug.contains("Linked") && len > 65_536 {
                // LZ4F's bytes for these updates (tests/lz4f_updates.rs); here the round trip.
                let back = frame::decompress_with_dictionary(&got, &dict, 0, len).unwrap();
                assert!(
                    back == content,
                    "{len} bytes with a dictionary, {options:?}"
                );
            } else {
                assert!(got == want, "{len} bytes with a dictionary, {options:?}");
            }
        }
    }
}

#[test]
fn flush_and_auto_flush_make_everything_taken_decodable() {
    let content = data(50_000, 8);
    let mut compressor = FrameCompressor::new();
    let mut framed = Vec::new();
    let mut out = vec![0u8; 1 << 20];
    let progress = compressor.compress(&content[..1234], &mut out).unwrap();
    assert_eq!((progress.consumed, progress.produced), (1234, 0)); // a partial block waits
    let progress = compressor.flush(&mut out).unwrap();
    framed.extend_from_slice(&out[..progress.produced]);
    let mut decompressor = FrameDecompressor::new();
    let mut back = vec![0u8; 4096];
    let progress = decompressor.decompress(&framed, &mut back).unwrap();
    assert_eq!(&back[..progress.produced], &content[..1234]);
    // Auto-flush: each call is a block.
    let mut compressor = FrameCompressor::new().auto_flush(true);
    let progress = compressor.compress(&content[..10], &mut out).unwrap();
    let mut decompressor = FrameDecompressor::new();
    let decoded = decompressor
        .decompress(&out[..progress.produced], &mut back)
        .unwrap();
    assert_eq!(&back[..decoded.produced], &content[..10]);
}

#[test]
fn the_compressor_refuses_what_the_frame_cannot_hold() {
    let mut out = vec![0u8; 1 << 16];
    let options = FrameOptions::new().declared_content_size(Some(10));
    let mut compressor = FrameCompressor::with_options(options);
    compressor.compress(b"only nine", &mut out).unwrap();
    assert!(matches!(
        compressor.finish(&mut out),
        Err(Error::FrameContentSizeMismatch {
            declared: 10,
            actual: 9
        })
    ));
    let mut compressor = FrameCompressor::new();
    compressor.finish(&mut out).unwrap();
    assert!(matches!(
        compressor.compress(b"late", &mut out),
        Err(Error::InvalidArgument { .. })
    ));
}
