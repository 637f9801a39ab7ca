//! The sans-IO frame compressor's zero-copy path: a whole block handed in with room in the
//! caller's output for it stored raw is compressed straight into that output (at the fast
//! levels even in less room than the block bound, where the sequence writer checks its room).
//! The frames must be those of the staged path (`frame::compress`) and of liblz4's LZ4F, for
//! output rooms around every threshold of that path, on compressible, incompressible and nearly
//! incompressible blocks.

use lz4_simd::block;
use lz4_simd::frame::{self, BlockMode, BlockSize, FrameCompressor, FrameOptions};
use testkit::liblz4;
use testkit::samples::{self, Rng};

use crate::common as frame_common;

/// The frame of `content`, handed in at once, with `room` bytes of output per call.
fn sans_io(content: &[u8], options: &FrameOptions, room: usize) -> Vec<u8> {
    let mut compressor = FrameCompressor::with_options(options.clone());
    frame_common::compress_in_pieces(&mut compressor, [content], room)
}

/// Blocks of 64 KiB: text, random bytes (stored raw), random bytes with short repeats (compressed
/// to within a few bytes of the block, where LZ4F's conservative room checks decide).
fn contents() -> Vec<(&'static str, Vec<u8>)> {
    let mut rng = Rng::new(18);
    let block = 64 << 10;
    let mut nearly = rng.bytes(3 * block + 1000);
    for i in (0..nearly.len() - 40).step_by(331) {
        let len = 4 + i % 9;
        nearly.copy_within(i..i + len, i + 17);
    }
    vec![
        ("text", samples::text(3 * block + 4321, &mut rng)),
        ("random", rng.bytes(2 * block + 77)),
        ("nearly", nearly),
        ("one block", samples::text(block, &mut rng)),
    ]
}

#[test]
fn direct_blocks_match_the_staged_frames_and_lz4f() {
    let block = 64 << 10;
    let stored = 4 + block;
    // Below, at and above the room the path takes: the header's 19 bytes (the first block), the
    // size word and the block stored raw, its checksum, the compress bound.
    let bound = 4 + block::compress_bound(block) + 4;
    let rooms = [
        stored - 1,
        stored,
        stored + 3,
        stored + 4,
        stored + 18,
        stored + 19,
        stored + 23,
        stored + 24,
        bound - 1,
        bound,
        bound + 19,
        bound + 64,
        1 << 20,
    ];
    for (name, content) in contents() {
        for acceleration in [1u32, 9] {
            for (mode, checksums) in [
                (BlockMode::Independent, false),
                (BlockMode::Independent, true),
                (BlockMode::Linked, false),
                (BlockMode::Linked, true),
            ] {
                let options = FrameOptions::new()
                    .block_size(BlockSize::Max64KB)
                    .block_mode(mode)
                    .block_checksum(checksums)
                    .acceleration(acceleration);
                let want = frame::compress(&content, &options);
                for room in rooms {
                    assert!(
                        sans_io(&content, &options, room) == want,
                        "{name}, acceleration {acceleration}, {mode:?}, block checksums \
                         {checksums}, room {room}"
                    );
                }
                if mode == BlockMode::Independent && !checksums {
                    let preferences = liblz4::fast_frame_preferences(4, false, acceleration);
                    let mut lz4f =
                        vec![0u8; liblz4::compress_frame_bound(content.len(), &preferences)];
                    let len = liblz4::compress_frame(&content, &mut lz4f, &preferences);
                    assert!(want == lz4f[..len], "{name}: LZ4F differs");
                    // LZ4F's own bound as the room: the smallest a caller of LZ4F would give.
                    let room = lz4f.len();
                    assert!(
                        sans_io(&content, &options, room) == want,
                        "{name}, acceleration {acceleration}, LZ4F's bound"
                    );
                }
            }
        }
        // HC blocks take the path only with the bound's room; their frames are the same.
        let options = FrameOptions::new()
            .block_size(BlockSize::Max64KB)
            .hc_level(Some(9));
        let want = frame::compress(&content, &options);
        for room in [stored, bound - 1, bound + 19, 1 << 20] {
            assert!(
                sans_io(&content, &options, room) == want,
                "{name}, HC 9, room {room}"
            );
        }
    }
}
