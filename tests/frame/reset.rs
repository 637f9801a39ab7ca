//! Reused frame encoders (`FrameCompressor::reset`, `FrameEncoder::reset`): every frame after a
//! reset is byte for byte the frame a new encoder writes, for every option, dictionary and
//! content size, and after frames abandoned half-way, finished, or left with output not taken.

use crate::common as frame_common;

use std::io::{self, Write};

use lz4_simd::block::Dictionary;
use lz4_simd::frame::{
    self, BlockMode, BlockSize, FrameCompressor, FrameEncoder, FrameOptions, Status,
};
use testkit::alloc::largest_allocation;
use testkit::liblz4::FrameOp;
use testkit::samples::{self, Rng};

const BLOCK: usize = 64 << 10;

/// Contents of the sizes where frames change shape (empty, tiny, one block less one, one block,
/// one more, several blocks, a block that does not compress), in an order that alternates
/// one-block frames (which switch a linked writer to independent blocks) and longer ones.
fn contents() -> Vec<Vec<u8>> {
    let mut rng = Rng::new(0x5e7);
    let text = samples::text(5 * BLOCK + 123, &mut rng);
    let mut contents: Vec<Vec<u8>> = [3 * BLOCK + 77, 0, BLOCK + 1, 1, 20, BLOCK - 1, BLOCK]
        .iter()
        .map(|&len| text[text.len() - len..].to_vec())
        .collect();
    contents.insert(4, rng.bytes(BLOCK + 10));
    contents.push(text[..2 * BLOCK].to_vec());
    contents
}

fn all_options() -> Vec<(FrameOptions, BlockMode)> {
    let mut all = Vec::new();
    for level in [None, Some(3), Some(9), Some(12)] {
        for mode in [BlockMode::Independent, BlockMode::Linked] {
            for (block_checksum, content_checksum) in [(false, true), (true, false)] {
                all.push((
                    FrameOptions::new()
                        .block_size(BlockSize::Max64KB)
                        .block_mode(mode)
                        .hc_level(level)
                        .block_checksum(block_checksum)
                        .content_checksum(content_checksum)
                        .favor_dec_speed(level == Some(12)),
                    mode,
                ));
            }
        }
    }
    all
}

/// A new compressor per frame and one compressor reset between frames (with the dictionary
/// as bytes, prepared, or none) give the same frames; between them the reused compressor
/// also abandons a frame half-way.
#[test]
fn reset_compressor_writes_the_frames_of_new_ones() {
    let dict_bytes = samples::text(40_000, &mut Rng::new(0xd1c7));
    let prepared = Dictionary::new(&dict_bytes);
    let contents = contents();
    for (options, _) in all_options() {
        for dict in [None, Some(false), Some(true)] {
            let fresh = || match dict {
                None => FrameCompressor::with_options(options.clone()),
                Some(false) => FrameCompressor::with_dictionary(options.clone(), &dict_bytes),
                Some(true) => FrameCompressor::with_prepared_dictionary(options.clone(), &prepared),
            };
            let mut reused = fresh();
            for (i, content) in contents.iter().enumerate() {
                let mut new = fresh();
                let want = frame_common::compress_in_pieces(&mut new, content.chunks(10_000), 4096);
                if i % 2 == 1 {
                    // Abandon a frame half-way: some input taken, some output not taken.
                    let mut out = [0u8; 100];
                    reused
                        .compress(&content[..content.len() / 2], &mut out)
                        .unwrap();
                    reused.reset();
                }
                let got =
                    frame_common::compress_in_pieces(&mut reused, content.chunks(10_000), 4096);
                assert!(
                    got == want,
                    "{options:?} dict {dict:?} content {} bytes: the reused compressor differs",
                    content.len()
                );
                reused.reset();
            }
        }
    }
}

/// A declared content size and auto-flush stay set across resets (every frame must have that
/// size).
#[test]
fn reset_keeps_content_size_and_auto_flush() {
    let content = samples::text(3 * BLOCK + 5, &mut Rng::new(1));
    for (mode, level) in [
        (BlockMode::Independent, None),
        (BlockMode::Linked, None),
        (BlockMode::Linked, Some(9)),
    ] {
        let options = FrameOptions::new()
            .block_size(BlockSize::Max64KB)
            .block_mode(mode)
            .hc_level(level)
            .declared_content_size(Some(content.len() as u64));
        let mut reused = FrameCompressor::with_options(options.clone()).auto_flush(true);
        for chunk in [30_000, 70_000, 150_000] {
            let mut new = FrameCompressor::with_options(options.clone()).auto_flush(true);
            let want = frame_common::compress_in_pieces(&mut new, content.chunks(chunk), 1 << 20);
            let got = frame_common::compress_in_pieces(&mut reused, content.chunks(chunk), 1 << 20);
            assert!(got == want, "{mode:?} {level:?} chunks of {chunk}");
            reused.reset();
        }
    }
}

/// `FrameEncoder::reset` finishes the frame on the old writer and writes the next on the new
/// one: every frame equals the frame a new encoder writes for the same writes (the one-shot
/// frame in independent mode; linked frames follow the writes, as LZ4F's do).
#[test]
fn reset_encoder_finishes_and_starts_over() {
    fn written(encoder: &mut FrameEncoder<Vec<u8>>, content: &[u8]) {
        for piece in content.chunks(25_000) {
            encoder.write_all(piece).unwrap();
        }
    }
    let contents = contents();
    for (options, mode) in all_options() {
        let want = |content: &[u8]| {
            let mut new = FrameEncoder::with_options(Vec::new(), options.clone());
            written(&mut new, content);
            let framed = new.finish().unwrap();
            if mode == BlockMode::Independent {
                assert!(framed == frame::compress(content, &options));
            }
            framed
        };
        let mut encoder = FrameEncoder::with_options(Vec::new(), options.clone());
        let mut previous: Option<&Vec<u8>> = None;
        for content in &contents {
            let finished = encoder.reset(Vec::new()).unwrap();
            if let Some(previous) = previous {
                assert!(finished == want(previous), "{options:?}");
            }
            written(&mut encoder, content);
            previous = Some(content);
        }
        let last = encoder.finish().unwrap();
        assert!(last == want(contents.last().unwrap()));
    }
}

/// A writer that fails once, then takes everything.
struct FailsOnce {
    failed: bool,
    out: Vec<u8>,
}

impl Write for FailsOnce {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if !self.failed {
            self.failed = true;
            return Err(io::Error::other("transient"));
        }
        self.out.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// When finishing fails, `reset` reports it and changes nothing: calling it again completes the
/// frame on the old writer, and nothing of the next frame reaches it.
#[test]
fn reset_encoder_failing_writer_keeps_the_frame() {
    let content = samples::text(2 * BLOCK + 9, &mut Rng::new(2));
    let options = FrameOptions::new().block_size(BlockSize::Max64KB);
    let mut encoder = FrameEncoder::with_options(
        FailsOnce {
            failed: true,
            out: Vec::new(),
        },
        options.clone(),
    );
    encoder.write_all(&content).unwrap();
    encoder.get_mut().failed = false;
    let spare = FailsOnce {
        failed: true,
        out: Vec::new(),
    };
    assert!(encoder.reset(spare).is_err());
    let spare = FailsOnce {
        failed: true,
        out: Vec::new(),
    };
    let old = encoder.reset(spare).unwrap();
    assert_eq!(old.out, frame::compress(&content, &options));
    encoder.write_all(b"next").unwrap();
    let next = encoder.finish().unwrap();
    assert_eq!(next.out, frame::compress(b"next", &options));
}

/// A block given up on (or any HC block with an attached dictionary) switches
/// favouring decompression speed off for the rest of a frame; a reset must switch it on again,
/// as LZ4F does for each frame (it changes the bytes at levels 10-12).
#[test]
fn reset_restores_favour_dec_speed() {
    let mut rng = Rng::new(0xfa70);
    let random = rng.bytes(BLOCK);
    let text = samples::text(3 * BLOCK, &mut rng);
    let dict_bytes = samples::text(30_000, &mut rng);
    for mode in [BlockMode::Independent, BlockMode::Linked] {
        let options = FrameOptions::new()
            .block_size(BlockSize::Max64KB)
            .block_mode(mode)
            .hc_level(Some(12))
            .favor_dec_speed(true);
        for with_dict in [false, true] {
            // Linked blocks with auto-flush: a first block of 20,000 bytes with an attached
            // dictionary is compressed from a copy of it, which switches the option off (as
            // liblz4's `LZ4_loadDictHC`); the next frame's first block of 3,000 bytes is not.
            let fresh = || {
                let compressor = if with_dict {
                    FrameCompressor::with_dictionary(options.clone(), &dict_bytes)
                } else {
                    FrameCompressor::with_options(options.clone())
                };
                compressor.auto_flush(mode == BlockMode::Linked)
            };
            let cases: [(&[u8], &[u8], usize); 3] = [
                (&random, &text, 1 << 20),
                (&text[..10_000], &text[..2_000], 1 << 20),
                (&text[..20_000], &text[..9_000], 3_000),
            ];
            for (first, second, piece) in cases {
                let mut reused = fresh();
                frame_common::compress_in_pieces(&mut reused, first.chunks(piece), 1 << 20);
                reused.reset();
                let got =
                    frame_common::compress_in_pieces(&mut reused, second.chunks(piece), 1 << 20);
                let want =
                    frame_common::compress_in_pieces(&mut fresh(), second.chunks(piece), 1 << 20);
                assert!(
                    got == want,
                    "{mode:?} dict {with_dict}: the reset frame differs"
                );
            }
        }
    }
}

/// A linked frame made with an empty prepared dictionary starts its stream 64 KiB
/// in (as liblz4 attaching an empty dictionary); a reset must start it the same way.
#[test]
fn reset_keeps_an_empty_prepared_dictionary() {
    let mut rng = Rng::new(0xe4);
    let mut block = b"x".to_vec();
    block.extend_from_slice(&samples::text(BLOCK - 1, &mut rng));
    let empty = Dictionary::new(b"");
    let options = FrameOptions::new()
        .block_size(BlockSize::Max64KB)
        .block_mode(BlockMode::Linked);
    let pieces = [&b"abcdefgh"[..], &block[..]];
    let fresh =
        || FrameCompressor::with_prepared_dictionary(options.clone(), &empty).auto_flush(true);
    let want = frame_common::compress_in_pieces(&mut fresh(), pieces, 1 << 20);
    let mut reused = fresh();
    frame_common::compress_in_pieces(&mut reused, pieces, 1 << 20);
    reused.reset();
    let got = frame_common::compress_in_pieces(&mut reused, pieces, 1 << 20);
    assert!(got == want);
}

/// What `reset` promises of memory: once a compressor has written a frame of each shape, reset
/// and another frame of any shape allocate nothing (its tables, streams, dictionaries and
/// buffers are kept), for independent and linked blocks, fast and HC, with and without a
/// dictionary.
#[test]
fn reset_allocates_nothing_after_warm_up() {
    fn frame(compressor: &mut FrameCompressor, content: &[u8], out: &mut [u8]) -> usize {
        compressor.reset();
        let mut len = 0;
        let mut rest = content;
        while !rest.is_empty() {
            let progress = compressor.compress(rest, &mut out[len..]).unwrap();
            len += progress.produced;
            rest = &rest[progress.consumed..];
        }
        loop {
            let progress = compressor.finish(&mut out[len..]).unwrap();
            len += progress.produced;
            if progress.status == lz4_simd::frame::Status::FrameEnd {
                return len;
            }
        }
    }
    let mut rng = Rng::new(0xa110c);
    let text = samples::text(3 * BLOCK + 77, &mut rng);
    let dict_bytes = samples::text(30_000, &mut rng);
    let shapes: [&[u8]; 3] = [&text, &text[..20], &text[..BLOCK + 1]];
    let mut out = vec![0u8; 4 * BLOCK];
    for (options, mode) in all_options() {
        for with_dict in [false, true] {
            let mut compressor = if with_dict {
                FrameCompressor::with_dictionary(options.clone(), &dict_bytes)
            } else {
                FrameCompressor::with_options(options.clone())
            };
            for content in shapes {
                frame(&mut compressor, content, &mut out);
            }
            for content in shapes.iter().rev().chain(&shapes) {
                let (len, largest) =
                    largest_allocation(|| frame(&mut compressor, content, &mut out));
                assert!(
                    largest == 0,
                    "{mode:?} {options:?} dict {with_dict}, {} bytes: allocated {largest} bytes",
                    content.len()
                );
                assert!(len > 0);
            }
        }
    }
}

/// Runs `ops` as one frame after a reset, output into `out` (taken in pieces of its length);
/// returns the frame's length.
fn frame_of_ops(compressor: &mut FrameCompressor, ops: &[FrameOp<'_>], out: &mut [u8]) -> usize {
    compressor.reset();
    let mut total = 0;
    for op in ops {
        match *op {
            FrameOp::Update(mut piece) => loop {
                let progress = compressor.compress(piece, out).unwrap();
                total += progress.produced;
                piece = &piece[progress.consumed..];
                if progress.status == Status::NeedInput {
                    break;
                }
            },
            FrameOp::Flush => loop {
                let progress = compressor.flush(out).unwrap();
                total += progress.produced;
                if progress.status == Status::NeedInput {
                    break;
                }
            },
        }
    }
    loop {
        let progress = compressor.finish(out).unwrap();
        total += progress.produced;
        if progress.status == Status::FrameEnd {
            return total;
        }
    }
}

/// Frames after a warm-up of other shapes or fed otherwise must not allocate
/// either. Linked fast blocks of 256 KiB (the history buffers take turns), staging first
/// skipped (whole blocks into a large output) then used (small updates), an HC stream keeping
/// its dictionary attached through small flushed blocks before a full one, and the parked
/// independent HC compressor warmed by a tiny one-block frame, then given a long one.
#[test]
fn reset_allocates_nothing_whatever_the_warm_up() {
    let mut rng = Rng::new(0xa11c);
    let big = 256 << 10;
    let text = samples::text(3 * big + 77, &mut rng);
    let dict_bytes = samples::text(40_000, &mut rng);
    let mut out = vec![0u8; 4 * big];
    let shapes = |block: usize| -> Vec<Vec<FrameOp<'_>>> {
        [3 * block + 77, 20, block + 1]
            .iter()
            .map(|&len| vec![FrameOp::Update(&text[..len])])
            .collect()
    };
    let small_updates: Vec<FrameOp<'_>> = text[..3 * BLOCK]
        .chunks(1000)
        .map(FrameOp::Update)
        .collect();
    let mut flushed: Vec<FrameOp<'_>> = Vec::new();
    for i in 0..15 {
        flushed.push(FrameOp::Update(&text[i * 4000..(i + 1) * 4000]));
        flushed.push(FrameOp::Flush);
    }
    flushed.push(FrameOp::Update(&text[60_000..90_000]));
    flushed.push(FrameOp::Update(&text[90_000..130_000]));
    let one_block = vec![FrameOp::Update(&text[..BLOCK - 1])];
    // (what, options, dictionary, warm-up frames, frames that must not allocate)
    type Frames<'a> = Vec<Vec<FrameOp<'a>>>;
    let cases: Vec<(&str, FrameOptions, bool, Frames<'_>, Frames<'_>)> = vec![
        (
            "fast linked 256 KiB blocks",
            FrameOptions::new()
                .block_size(BlockSize::Max256KB)
                .block_mode(BlockMode::Linked),
            false,
            shapes(big),
            shapes(big).into_iter().rev().chain(shapes(big)).collect(),
        ),
        (
            "staging after the direct path",
            FrameOptions::new().block_size(BlockSize::Max64KB),
            false,
            shapes(BLOCK),
            vec![small_updates.clone()],
        ),
        (
            "HC 9 linked, dictionary kept through flushed blocks",
            FrameOptions::new()
                .block_size(BlockSize::Max64KB)
                .block_mode(BlockMode::Linked)
                .hc_level(Some(9)),
            true,
            shapes(BLOCK)
                .into_iter()
                .chain([small_updates.clone()])
                .collect(),
            vec![flushed.clone()],
        ),
        (
            "HC 9 linked, parked independent compressor",
            FrameOptions::new()
                .block_size(BlockSize::Max64KB)
                .block_mode(BlockMode::Linked)
                .hc_level(Some(9)),
            true,
            shapes(BLOCK),
            vec![one_block.clone()],
        ),
        (
            "fast linked, parked independent compressor",
            FrameOptions::new()
                .block_size(BlockSize::Max64KB)
                .block_mode(BlockMode::Linked),
            true,
            shapes(BLOCK),
            vec![one_block.clone()],
        ),
    ];
    for (what, options, with_dict, warm_up, frames) in cases {
        let mut compressor = if with_dict {
            FrameCompressor::with_dictionary(options, &dict_bytes)
        } else {
            FrameCompressor::with_options(options)
        };
        for ops in &warm_up {
            frame_of_ops(&mut compressor, ops, &mut out);
        }
        for (i, ops) in frames.iter().enumerate() {
            let (_, largest) = largest_allocation(|| frame_of_ops(&mut compressor, ops, &mut out));
            assert!(largest == 0, "{what}, frame {i}: allocated {largest} bytes");
        }
    }
}
