//! HC frames with favour-decompression-speed and no dictionary against LZ4F: a block stored raw
//! (liblz4 gave up on it) marks LZ4F's working stream dirty, and the next block's reset
//! re-initialises it completely, favour included.

use lz4_simd::frame::{self, BlockSize, FrameOptions};
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
