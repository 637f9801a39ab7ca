//! HC frames with favour-decompression-speed and no dictionary against LZ4F: a block stored raw
//! (liblz4 gave up on it) marks LZ4F's working stream dirty, and the next block's reset
//! re-initialises it completely, favour included.

use lz4_simd::frame::{self, BlockMode, BlockSize, FrameOptions};
use testkit::{liblz4, samples, Rng};

#[test]
fn favour_after_a_stored_block_matches_lz4f() {
    let mut rng = Rng::new(12);
    let mut data = samples::random(64 << 10, &mut rng);
    data.extend(samples::text(3 * (64 << 10) + 3000, &mut rng));
    for level in [10u8, 11, 12] {
        let options = FrameOptions::new()
            .block_size(BlockSize::Max64KB)
            .hc_level(Some(level))
            .favor_dec_speed(true);
        let ours = frame::compress(&data, &options);
        let mut preferences = liblz4::fast_frame_preferences(4, false, 1);
        preferences.compression_level = u32::from(level);
        preferences.favor_dec_speed = 1;
        let mut theirs = vec![0; liblz4::compress_frame_bound(data.len(), &preferences)];
        let n = liblz4::compress_frame(&data, &mut theirs, &preferences);
        assert!(
            ours == theirs[..n],
            "level {level}: ours {} bytes, LZ4F {n}",
            ours.len()
        );
    }
}

/// Runs of a short period, whose matches have offsets below 8: liblz4's run shortcut takes them
/// even with favour-decompression-speed, and so do ours, in independent and linked frames
/// (before `4b15952`, 2026-12-06, the one-shot form kept them out, up to 50% larger than LZ4F's
/// and the `lz4` tool's frames).
#[test]
fn favour_on_short_period_runs_matches_lz4f() {
    let mut rng = Rng::new(17);
    let mut data = samples::runs(100_000, 300, &mut rng);
    for period in [1usize, 2, 3, 5, 7] {
        let pattern: Vec<u8> = (0..period).map(|i| b'a' + i as u8).collect();
        data.extend(pattern.repeat(9000 / period));
        data.extend(samples::text(3000, &mut rng));
    }
    for level in [10u8, 11, 12] {
        for linked in [false, true] {
            let options = FrameOptions::new()
                .block_size(BlockSize::Max64KB)
                .block_mode(if linked {
                    BlockMode::Linked
                } else {
                    BlockMode::Independent
                })
                .hc_level(Some(level))
                .favor_dec_speed(true);
            let ours = frame::compress(&data, &options);
            let mut preferences = liblz4::fast_frame_preferences(4, linked, 1);
            preferences.compression_level = u32::from(level);
            preferences.favor_dec_speed = 1;
            // As the `lz4` tool writes it: one update per block (linked frames depend on it).
            let theirs = liblz4::compress_frame_streaming(&data, 64 << 10, None, &preferences);
            assert!(
                ours == theirs,
                "level {level}, linked {linked}: ours {} bytes, LZ4F {}",
                ours.len(),
                theirs.len()
            );
        }
    }
}
