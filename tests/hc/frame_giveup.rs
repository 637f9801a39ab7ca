//! HC frames of blocks that compress to just under their size: LZ4F compresses each block into
//! one byte less than its size, with liblz4's conservative room checks, and stores it raw when
//! the compressor gives up; ours must store exactly the same blocks raw.

use lz4_simd::frame::{self, BlockSize, FrameOptions};
use testkit::{liblz4, Rng};

#[test]
fn hc_blocks_at_the_give_up_edge_are_lz4fs() {
    let mut rng = Rng::new(0x6c7a_3468_6367);
    let mut differing = Vec::new();
    // Frames whose one block was stored raw, and frames with a block a few bytes smaller.
    let stored = 7 + 4 + 65536 + 4 + 4;
    let (mut raw, mut edge) = (0, 0);
    for level in [3u8, 9, 12] {
        for run in 240..300 {
            let mut data = vec![0u8; 65536];
            for byte in data.iter_mut() {
                *byte = rng.below(256) as u8;
            }
            let at = rng.below(60000) as usize;
            data[at..at + run].fill(b'z');
            let options = FrameOptions::new()
                .block_size(BlockSize::Max64KB)
                .hc_level(Some(level));
            let ours = frame::compress(&data, &options);
            let mut preferences = liblz4::fast_frame_preferences(4, false, 1);
            preferences.compression_level = u32::from(level);
            let mut theirs = vec![0u8; liblz4::compress_frame_bound(data.len(), &preferences)];
            let n = liblz4::compress_frame(&data, &mut theirs, &preferences);
            raw += usize::from(ours.len() == stored);
            edge += usize::from((stored - 16..stored).contains(&ours.len()));
            if ours != theirs[..n] {
                differing.push((level, run, ours.len(), n));
            }
        }
    }
    assert!(differing.is_empty(), "{differing:?}");
    assert!(
        raw > 0 && edge > 0,
        "the sweep missed the edge: {raw} raw, {edge} near it"
    );
}
