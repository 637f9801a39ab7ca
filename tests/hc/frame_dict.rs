//! Frames with a dictionary at the HC levels against LZ4F 1.10 with a CDict, in the `lz4` tool's
//! call patterns (1.9.4's, which `lz4 -# -D dict` uses): an input shorter than the block size is
//! one `LZ4F_compressFrame_usingCDict`; a longer one is `LZ4F_compressBegin_usingCDict` and one
//! `LZ4F_compressUpdate` per block. LZ4F attaches the dictionary to every independent block
//! (and to the first linked block): small blocks search it in place (liblz4's dictCtx), larger
//! ones copy its state. Every level 2-12, independent and linked, favorDecSpeed on and off,
//! dictionaries of several sizes, inputs of 0-20 bytes, 1 KiB, 4 KiB, 4 KiB + 1, 64 KiB and
//! several blocks with a last block of at most 4 KiB; one-shot and streaming encoders.

use std::io::Write;

use lz4_simd::frame::{self, BlockMode, BlockSize, FrameEncoder, FrameOptions};
use testkit::samples::generated;
use testkit::{liblz4, liblz4_hc};

const DEBUG: bool = cfg!(debug_assertions);

/// 64 KiB blocks at HC `level`, as `lz4 -# -B4 [-BD] [--favor-decSpeed]`.
fn options(level: u8, linked: bool, favor: bool) -> FrameOptions {
    FrameOptions::new()
        .block_size(BlockSize::Max64KB)
        .block_mode(if linked {
            BlockMode::Linked
        } else {
            BlockMode::Independent
        })
        .hc_level(Some(level))
        .favor_dec_speed(favor)
}

#[test]
fn hc_dictionary_frames_match_lz4f() {
    let text = generated("log-lines", 600_000, 9);
    let dict_sizes = [1usize, 4, 5, 100, 4096, 65_536, 100_000];
    let mut input_sizes: Vec<usize> = (0..=20).collect();
    input_sizes.extend([
        1024,
        4096,
        4097,
        65_536,
        3 * 65_536 + 4096,
        2 * 65_536 + 1000,
    ]);
    let levels: Vec<u8> = if DEBUG {
        vec![2, 3, 9, 10, 12]
    } else {
        (2..=12).collect()
    };
    let mut compared = 0;
    for &dict_len in &dict_sizes {
        let dict = &text[..dict_len];
        for &len in &input_sizes {
            if DEBUG && len > 70_000 && dict_len != 65_536 {
                continue;
            }
            // The input shares material with the dictionary's end.
            let src = &text[dict_len.saturating_sub(len / 3)..][..len];
            for &level in &levels {
                for linked in [false, true] {
                    for favor in [false, true] {
                        if favor && level < 10 {
                            continue;
                        }
                        let theirs =
                            liblz4_hc::lz4_tool_frame_with_dict(src, dict, level, linked, favor);
                        let options = options(level, linked, favor);
                        let what = format!(
                            "level {level} dict {dict_len} len {len} linked {linked} favor {favor}"
                        );
                        let ours = frame::compress_with_dictionary(src, dict, &options);
                        if ours != theirs {
                            let at = ours.iter().zip(&theirs).position(|(a, b)| a != b);
                            panic!(
                                "{what}: ours {} bytes, LZ4F {} (first difference at {at:?})",
                                ours.len(),
                                theirs.len()
                            );
                        }
                        let mut encoder =
                            FrameEncoder::with_dictionary(Vec::new(), options.clone(), dict);
                        for piece in src.chunks(7000) {
                            encoder.write_all(piece).unwrap();
                        }
                        // Linked frames: LZ4F's for the same updates (each write one of what
                        // it takes).
                        let theirs_streamed = if linked && len > 65_536 {
                            let mut preferences = liblz4::fast_frame_preferences(4, true, 1);
                            preferences.auto_flush = 0;
                            preferences.compression_level = u32::from(level);
                            preferences.favor_dec_speed = u32::from(favor);
                            let updates = liblz4::updates_of_writes(src, 7000, 65536);
                            liblz4::compress_frame_ops(&updates, Some(dict), &preferences)
                        } else {
                            theirs.clone()
                        };
                        assert!(
                            encoder.finish().unwrap() == theirs_streamed,
                            "{what}: streaming differs"
                        );
                        let back =
                            frame::decompress_with_dictionary(&ours, dict, 0, len + 1).unwrap();
                        assert!(back == src, "{what}: round trip");
                        compared += 1;
                    }
                }
            }
        }
    }
    assert!(compared > 0);
}

/// The installed `lz4` tool (1.9.4), when there is one: `lz4 -# -D dict -B4 [-BD]
/// [--favor-decSpeed]` gives our frames at levels 3-12. (Its level 2 is the fast compressor:
/// liblz4 1.9.4 had no level-2 HC strategy.)
#[test]
fn lz4_tool_dictionary_frames() {
    let version = std::process::Command::new("lz4").arg("-V").output();
    let Ok(version) = version else {
        eprintln!("no lz4 tool installed: skipped");
        return;
    };
    eprintln!("{}", String::from_utf8_lossy(&version.stdout).trim());
    let dir = std::env::temp_dir().join(format!("hc_frame_dict_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = generated("log-lines", 400_000, 21);
    let dict = &text[..70_000];
    let dict_path = dir.join("dict");
    std::fs::write(&dict_path, dict).unwrap();
    let levels: Vec<u8> = if DEBUG {
        vec![3, 9, 12]
    } else {
        (3..=12).collect()
    };
    for len in [0usize, 13, 1000, 4096, 4097, 65_536, 200_000] {
        let src = &text[50_000..50_000 + len];
        let input = dir.join("input");
        std::fs::write(&input, src).unwrap();
        for &level in &levels {
            for linked in [false, true] {
                for favor in [false, true] {
                    if favor && level < 10 {
                        continue;
                    }
                    let mut command = std::process::Command::new("lz4");
                    command
                        .arg(format!("-{level}"))
                        .arg("-B4")
                        .arg("-D")
                        .arg(&dict_path)
                        .arg("-c")
                        .arg("-q");
                    if linked {
                        command.arg("-BD");
                    }
                    if favor {
                        command.arg("--favor-decSpeed");
                    }
                    let output = command.arg(&input).output().unwrap();
                    assert!(output.status.success(), "lz4 failed");
                    let options = options(level, linked, favor);
                    // The tool keeps the dictionary file's last 64 KiB.
                    let ours = frame::compress_with_dictionary(src, dict, &options);
                    assert!(
                        ours == output.stdout,
                        "level {level} len {len} linked {linked} favor {favor}: ours {} bytes, \
                         lz4 {}",
                        ours.len(),
                        output.stdout.len()
                    );
                }
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
