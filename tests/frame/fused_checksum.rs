//! The content checksum of frames with independent fast blocks is hashed inside the block
//! parse (a private XXH32 whose lanes the parse advances). These frames must equal LZ4F's and
//! carry the XXH32 of their content for every length around a stripe (16 bytes), around block
//! sizes, over several blocks, after partial blocks (a flushed `FrameEncoder`, whose next block
//! starts mid-stripe), for stored (incompressible) blocks, and with dictionaries (hashed apart).

use std::io::Write;

use lz4_simd::frame::{self, BlockSize, FrameCompressor, FrameEncoder, FrameOptions};
use testkit::liblz4;
use testkit::samples::{self, Rng};
use xxhash_rust::xxh32::xxh32;

/// The frame's content checksum (its last 4 bytes).
fn checksum(framed: &[u8]) -> u32 {
    u32::from_le_bytes(framed[framed.len() - 4..].try_into().unwrap())
}

/// Every frame-writing path on `data`: one-shot, into a buffer, sans-IO (one piece), and the
/// streaming encoder fed in `piece`-byte writes; all equal, checksum included.
fn ours(data: &[u8], options: &FrameOptions, piece: usize, what: &str) -> Vec<u8> {
    let one_shot = frame::compress(data, options);
    assert_eq!(checksum(&one_shot), xxh32(data, 0), "{what}: checksum");
    let mut buf = vec![0u8; frame::compress_bound(data.len(), options)];
    let n = frame::compress_into(data, &mut buf, options).unwrap();
    assert!(buf[..n] == one_shot[..], "{what}: compress_into differs");
    let mut encoder = FrameEncoder::with_options(Vec::new(), options.clone());
    for chunk in data.chunks(piece.max(1)) {
        encoder.write_all(chunk).unwrap();
    }
    let streamed = encoder.finish().unwrap();
    assert_eq!(
        checksum(&streamed),
        xxh32(data, 0),
        "{what}: streamed checksum"
    );
    let mut sans_io = FrameCompressor::with_options(options.clone());
    let mut out = vec![0u8; frame::compress_bound(data.len(), options) + 64];
    let mut written = 0;
    let mut input = data;
    loop {
        let progress = sans_io.compress(input, &mut out[written..]).unwrap();
        input = &input[progress.consumed..];
        written += progress.produced;
        if input.is_empty() {
            break;
        }
    }
    loop {
        let progress = sans_io.finish(&mut out[written..]).unwrap();
        written += progress.produced;
        if sans_io.is_finished() {
            break;
        }
    }
    assert_eq!(
        checksum(&out[..written]),
        xxh32(data, 0),
        "{what}: sans-IO checksum"
    );
    one_shot
}

fn inputs(len: usize, rng: &mut Rng) -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("logs", samples::logs(len, rng)),
        ("text", samples::text(len, rng)),
        ("random", rng.bytes(len)),
        ("zeros", vec![0u8; len]),
    ]
}

#[test]
fn fused_checksum_frames_equal_lz4f() {
    let mut rng = Rng::new(18);
    let block = 65536;
    let mut lengths: Vec<usize> = (0..=40).collect();
    lengths.extend([63, 64, 65, 1000, 4095, 4096, 4097, 65_535, 65_547, 65_548]);
    for blocks in [1usize, 2, 3] {
        for delta in [-17isize, -16, -1, 0, 1, 15, 16, 17] {
            lengths.push((blocks * block).checked_add_signed(delta).unwrap());
        }
    }
    let mut compared = 0;
    for &len in &lengths {
        for (name, data) in inputs(len, &mut rng) {
            for acceleration in [1u32, 4] {
                // 64 KiB blocks: several blocks, through LZ4F as the tool drives it.
                let options = FrameOptions::new()
                    .block_size(BlockSize::Max64KB)
                    .acceleration(acceleration);
                let what = format!("{name} {len} B4 accel {acceleration}");
                let framed = ours(&data, &options, 7777, &what);
                if len > block {
                    let preferences = liblz4::fast_frame_preferences(4, false, acceleration);
                    let theirs = liblz4::compress_frame_streaming(&data, block, None, &preferences);
                    assert!(framed == theirs, "{what}: differs from LZ4F");
                    compared += 1;
                }
                // The tool's defaults (4 MiB blocks), one shot through LZ4F_compressFrame.
                let options = FrameOptions::new().acceleration(acceleration);
                let what = format!("{name} {len} B7 accel {acceleration}");
                let framed = ours(&data, &options, 5000, &what);
                let mut preferences = liblz4::fast_frame_preferences(7, false, acceleration);
                preferences.frame_info.block_size_id =
                    liblz4::frame_preferences().frame_info.block_size_id;
                let mut theirs = vec![0u8; liblz4::compress_frame_bound(data.len(), &preferences)];
                let n = liblz4::compress_frame(&data, &mut theirs, &preferences);
                assert!(framed[..] == theirs[..n], "{what}: differs from LZ4F");
                compared += 1;
            }
        }
    }
    assert!(compared > 0);
}

/// Two 4 MiB blocks and a partial third: the stripes continue across blocks.
#[test]
fn fused_checksum_across_large_blocks() {
    let mut rng = Rng::new(19);
    let data = samples::logs((8 << 20) + 4099, &mut rng);
    let framed = ours(&data, &FrameOptions::new(), 1 << 20, "9 MiB");
    let preferences = liblz4::frame_preferences();
    let theirs = liblz4::compress_frame_streaming(&data, 4 << 20, None, &preferences);
    assert!(framed == theirs, "differs from LZ4F");
}

/// A flushed encoder writes partial blocks, so later blocks start mid-stripe (hashed apart).
#[test]
fn fused_checksum_after_flushed_partial_blocks() {
    let mut rng = Rng::new(20);
    let data = samples::logs(300_000, &mut rng);
    for cuts in [
        &[5usize, 100_000][..],
        &[16, 32, 70_001],
        &[65_536, 131_072],
        &[1, 2, 3],
    ] {
        let options = FrameOptions::new().block_size(BlockSize::Max64KB);
        let mut encoder = FrameEncoder::with_options(Vec::new(), options);
        let mut at = 0;
        for &cut in cuts {
            encoder.write_all(&data[at..cut]).unwrap();
            encoder.flush().unwrap();
            at = cut;
        }
        encoder.write_all(&data[at..]).unwrap();
        let framed = encoder.finish().unwrap();
        assert_eq!(checksum(&framed), xxh32(&data, 0), "cuts {cuts:?}");
        assert_eq!(
            frame::decompress(&framed, data.len()).unwrap(),
            data,
            "cuts {cuts:?}"
        );
    }
}

/// Dictionaries (not fused) keep their checksums.
#[test]
fn dictionary_frames_keep_their_checksum() {
    let mut rng = Rng::new(21);
    let logs = samples::logs(400_000, &mut rng);
    let dict = &logs[..20_000];
    for len in [0usize, 15, 16, 17, 65_535, 65_536, 65_537, 200_000] {
        let data = &logs[100_000..100_000 + len];
        let options = FrameOptions::new().block_size(BlockSize::Max64KB);
        let framed = frame::compress_with_dictionary(data, dict, &options);
        assert_eq!(checksum(&framed), xxh32(data, 0), "len {len}");
    }
}
