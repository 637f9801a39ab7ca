//! The frame compressor's direct path, tight rooms and `compress_into` at the give-up edge: frames
//! of nearly incompressible blocks, swept across the edge, must equal `frame::compress`'s and
//! LZ4F's for every option, output room and dictionary; `compress_into` below its bound must
//! write nothing.

use lz4_simd::block::{self, Dictionary};
use lz4_simd::frame::{self, BlockMode, BlockSize, FrameCompressor, FrameOptions};
use testkit::samples::Rng;
use testkit::{liblz4, liblz4_hc};

const BLOCK: usize = 64 << 10;

use crate::common as frame_common;

fn sans_io(content: &[u8], compressor: &mut FrameCompressor, room: usize) -> Vec<u8> {
    frame_common::compress_in_pieces(compressor, [content], room)
}

/// Random blocks, each with a run of `run` equal bytes (split in two runs in odd blocks):
/// a block of 64 KiB literals needs about 257 bytes of length extension, so runs of about
/// 250-300 bytes put it from stored raw to a few bytes under its size.
fn nearly(blocks: usize, tail: usize, run: usize, rng: &mut Rng) -> Vec<u8> {
    let mut data = rng.bytes(blocks * BLOCK + tail);
    for b in 0..blocks {
        let at = b * BLOCK + rng.below((BLOCK - 2 * run - 64) as u64) as usize;
        if b % 2 == 0 {
            data[at..at + run].fill(b'z');
        } else {
            let half = run / 2;
            data[at..at + half].fill(b'y');
            let second = at + half + 100;
            data[second..second + run - half].fill(b'x');
        }
    }
    data
}

fn option_sets() -> Vec<(String, FrameOptions)> {
    let mut sets = Vec::new();
    for mode in [BlockMode::Independent, BlockMode::Linked] {
        for checksum in [false, true] {
            for acceleration in [1u32, 4] {
                sets.push((
                    format!("fast a{acceleration} {mode:?} bc {checksum}"),
                    FrameOptions::new()
                        .block_size(BlockSize::Max64KB)
                        .block_mode(mode)
                        .block_checksum(checksum)
                        .acceleration(acceleration),
                ));
            }
            for (level, favor) in [(3u8, false), (9, true), (12, true)] {
                sets.push((
                    format!("hc {level} favor {favor} {mode:?} bc {checksum}"),
                    FrameOptions::new()
                        .block_size(BlockSize::Max64KB)
                        .block_mode(mode)
                        .block_checksum(checksum)
                        .hc_level(Some(level))
                        .favor_dec_speed(favor),
                ));
            }
        }
    }
    sets
}

#[test]
fn frames_at_the_give_up_edge() {
    let mut rng = Rng::new(0x5eed_0012);
    let mut failures = Vec::new();
    // Repeat densities that put 64 KiB noise blocks from "stored raw" to "16 bytes smaller".
    // Every third density in release builds; a sample of them in debug builds (HC 12 there is
    // slow), which still spans stored raw to 16 bytes under it.
    let step = if cfg!(debug_assertions) { 17 } else { 3 };
    for copies in (250usize..=420).step_by(step) {
        let content = nearly(2, 3000, copies, &mut rng);
        for (name, options) in option_sets() {
            let want = frame::compress(&content, &options);
            // compress_into at its bound and one byte under.
            let bound = frame::compress_bound(content.len(), &options);
            let mut dst = vec![0xA5u8; bound];
            match frame::compress_into(&content, &mut dst, &options) {
                Ok(n) if dst[..n] == want[..] => {}
                other => failures.push(format!(
                    "{name} copies {copies}: compress_into at bound {other:?}"
                )),
            }
            let mut short = vec![0xA5u8; bound - 1];
            if frame::compress_into(&content, &mut short, &options).is_ok()
                || short.iter().any(|&b| b != 0xA5)
            {
                failures.push(format!(
                    "{name} copies {copies}: bound - 1 accepted or written"
                ));
            }
            // The sans-IO compressor around every threshold of the direct path.
            let stored = 4 + BLOCK;
            let bound_block = 4 + block::compress_bound(BLOCK) + 4;
            for room in [
                stored + 19,
                stored + 23,
                stored + 27,
                bound_block + 18,
                bound_block + 19,
                1 << 20,
            ] {
                let got = sans_io(
                    &content,
                    &mut FrameCompressor::with_options(options.clone()),
                    room,
                );
                if got != want {
                    failures.push(format!("{name} copies {copies}: sans-io room {room}"));
                }
            }
        }
        // LZ4F for the fast options it can express.
        for linked in [false, true] {
            for checksum in [false, true] {
                let options = FrameOptions::new()
                    .block_size(BlockSize::Max64KB)
                    .block_mode(if linked {
                        BlockMode::Linked
                    } else {
                        BlockMode::Independent
                    })
                    .block_checksum(checksum)
                    .content_size(checksum);
                // LZ4F without block checksums (a checksum only follows each block's bytes).
                let mut p = liblz4::fast_frame_preferences(4, linked, 1);
                p.frame_info.content_size = if checksum { content.len() as u64 } else { 0 };
                let want_plain = frame::compress(&content, &options.clone().block_checksum(false));
                let mut lz4f = vec![0u8; liblz4::compress_frame_bound(content.len(), &p)];
                let n = liblz4::compress_frame(&content, &mut lz4f, &p);
                if want_plain != lz4f[..n] {
                    failures.push(format!(
                        "copies {copies} linked {linked} cs {checksum}: LZ4F differs"
                    ));
                }
                if frame::compress_bound(content.len(), &options.clone().block_checksum(false))
                    != lz4f.len()
                {
                    failures.push(format!(
                        "copies {copies} linked {linked} bc {checksum}: bound {} vs LZ4F {}",
                        frame::compress_bound(content.len(), &options),
                        lz4f.len()
                    ));
                }
                for level in [3u32, 9, 12] {
                    let options = options.clone().hc_level(Some(level as u8));
                    let mut p = liblz4::fast_frame_preferences(4, linked, 1);
                    p.frame_info.content_size = if checksum { content.len() as u64 } else { 0 };
                    p.compression_level = level;
                    let want = frame::compress(&content, &options.clone().block_checksum(false));
                    let mut lz4f = vec![0u8; liblz4::compress_frame_bound(content.len(), &p)];
                    let n = liblz4::compress_frame(&content, &mut lz4f, &p);
                    if want != lz4f[..n] {
                        failures.push(format!("copies {copies} hc {level} linked {linked} bc {checksum}: LZ4F differs"));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn dictionary_frames_direct_and_into() {
    let mut rng = Rng::new(0xd1c7_0012);
    let dict_bytes = {
        let mut d = rng.bytes(70_000);
        // Some of the dictionary recurs in the content.
        d[1000..1100].fill(b'q');
        d
    };
    let dict = Dictionary::new(&dict_bytes);
    let mut failures = Vec::new();
    for copies in (250usize..=290).step_by(4) {
        let mut content = nearly(2, 500, copies, &mut rng);
        content[70_000..70_040].copy_from_slice(&dict_bytes[50_000..50_040]);
        for (name, options) in option_sets() {
            let want = frame::compress_with_prepared_dictionary(&content, &dict, &options);
            let bound = frame::compress_bound(content.len(), &options);
            let mut dst = vec![0u8; bound];
            match frame::compress_into_with_prepared_dictionary(&content, &mut dst, &dict, &options)
            {
                Ok(n) if dst[..n] == want[..] => {}
                other => failures.push(format!("{name} copies {copies}: into with dict {other:?}")),
            }
            for room in [
                4 + BLOCK + 19,
                4 + BLOCK + 27,
                4 + block::compress_bound(BLOCK) + 27,
                1 << 20,
            ] {
                let mut compressor = FrameCompressor::with_dictionary(options.clone(), &dict_bytes);
                let got = sans_io(&content, &mut compressor, room);
                if got != want {
                    failures.push(format!("{name} copies {copies}: sans-io dict room {room}"));
                }
            }
        }
        for checksum in [false, true] {
            let options = FrameOptions::new()
                .block_size(BlockSize::Max64KB)
                .block_checksum(checksum);
            let want = frame::compress_with_prepared_dictionary(&content, &dict, &options);
            let p = liblz4::fast_frame_preferences(4, false, 1);
            let want = if checksum { continue } else { want };
            let lz4f = liblz4_hc::compress_frame_cdict(&content, &dict_bytes, &p);
            if want != lz4f {
                failures.push(format!("copies {copies} bc {checksum}: LZ4F cdict differs"));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Auto-flush with chunks of more than a block: the whole block of each chunk takes the direct
/// path (tight room at the fast levels), the rest is gathered and flushed; the frame must be
/// LZ4F's with one `LZ4F_compressUpdate` per chunk (auto-flush on).
#[test]
fn auto_flush_chunks_direct_and_lz4f() {
    auto_flush_chunks(&[None], &[false, true]);
    auto_flush_chunks(&[Some(3), Some(9), Some(12)], &[false]);
}

/// HC linked frames whose blocks are cut by auto-flush (chunks of 70,000 bytes into 64 KiB
/// blocks: blocks of 65,536 and 4,464 bytes alternate) are LZ4F's: the rest of an update follows
/// its full block in the caller's buffer (prefix mode), and the history is saved once per update.
/// (It differed by a byte before `6324234`, 2026-12-05, when every block saved its history.)
#[test]
fn hc_linked_auto_flush_matches_lz4f() {
    auto_flush_chunks(&[Some(3), Some(9), Some(12)], &[true]);
}

fn auto_flush_chunks(levels: &[Option<u8>], modes: &[bool]) {
    let mut rng = Rng::new(0xa7f1_0012);
    let mut failures = Vec::new();
    for run in [250usize, 280, 300, 320, 340, 380] {
        let content = nearly(4, 12_345, run, &mut rng);
        for chunk in [65_536usize, 70_000, 100_000, 140_000] {
            for &linked in modes {
                for &level in levels {
                    let options = FrameOptions::new()
                        .block_size(BlockSize::Max64KB)
                        .block_mode(if linked {
                            BlockMode::Linked
                        } else {
                            BlockMode::Independent
                        })
                        .hc_level(level);
                    let mut p = liblz4::fast_frame_preferences(4, linked, 1);
                    p.compression_level = level.map_or(0, u32::from);
                    let want = liblz4::compress_frame_streaming(&content, chunk, None, &p);
                    for room in [
                        4 + BLOCK + 19,
                        4 + BLOCK + 23,
                        4 + block::compress_bound(BLOCK) + 27,
                        1 << 20,
                    ] {
                        let mut compressor =
                            FrameCompressor::with_options(options.clone()).auto_flush(true);
                        let framed = frame_common::compress_in_pieces(
                            &mut compressor,
                            content.chunks(chunk),
                            room,
                        );
                        if framed != want {
                            failures.push(format!(
                                "run {run} chunk {chunk} linked {linked} level {level:?} room {room}: ours {} LZ4F {}",
                                framed.len(),
                                want.len()
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Localising the mismatch above: block by block, `HcStreamCompressor` equals liblz4's HC
/// stream (`LZ4_compress_HC_continue` into one byte less than the block, then
/// `LZ4_saveDictHC(64 KiB)` after every block) on the same block sequence (65,536 and 4,464 bytes
/// alternating, then 64,489). LZ4F differs from this: with auto-flush it compresses the
/// remainder of an update right after the update's full block, contiguous with it in the
/// caller's buffer, and saves the dictionary once per update, not once per block.
#[test]
fn hc_stream_blocks_match_liblz4() {
    let mut rng = Rng::new(0xa7f1_0012);
    let _ = nearly(4, 12_345, 250, &mut rng);
    let content = nearly(4, 12_345, 280, &mut rng);
    let mut cuts = Vec::new();
    for start in (0..content.len()).step_by(70_000) {
        let end = (start + 70_000).min(content.len());
        cuts.push((start, (start + BLOCK).min(end)));
        if start + BLOCK < end {
            cuts.push((start + BLOCK, end));
        }
    }
    let mut failures = Vec::new();
    for level in [3u8, 9] {
        let mut ours = block::HcStreamCompressor::new(level);
        let mut theirs = liblz4_hc::HcStream::new(i32::from(level), false);
        for (i, &(start, end)) in cuts.iter().enumerate() {
            let piece = content[start..end].to_vec();
            let mut dst = vec![0u8; piece.len() - 1];
            let got = ours
                .compress_into(&piece, &mut dst)
                .ok()
                .map(|n| dst[..n].to_vec());
            let want = theirs.compress(&piece, piece.len() - 1);
            if got != want {
                failures.push(format!(
                    "level {level} block {i} ({start}..{end}): ours {:?} liblz4 {:?}",
                    got.map(|g| g.len()),
                    want.map(|w| w.len())
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
