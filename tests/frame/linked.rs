//! Linked-block frames and frame dictionaries at the fast levels, byte-identical to the installed
//! `lz4` tool (1.9.4): `lz4 -BD` (`-B4`..`-B7`, `-1` and `--fast=N`, block checksums, content
//! checksum on and off), `lz4 -D dict` (independent and linked blocks), for inputs around the
//! block boundaries, incompressible and nearly incompressible ones (raw blocks, and the give-ups
//! that leave liblz4's stream half-filled), generated samples and the Silesia corpus; the
//! one-shot `frame::compress` and the streaming `FrameEncoder` (fed in several chunk sizes) alike.
//! Without a dictionary the frames also equal LZ4F's through `lz4-sys` driven as the tool drives
//! it.
//!
//! When the `lz4` tool is missing, the tool comparisons print a notice and pass, unless
//! `LZ4_SIMD_REQUIRE_PEERS=1`.

use std::io::Write;
use std::path::PathBuf;
use std::process::Command;

use lz4_simd::frame::{self, BlockMode, BlockSize, FrameEncoder, FrameOptions};
use testkit::corpus;
use testkit::liblz4;
use testkit::samples::{self, Rng};

fn lz4_cli() -> Option<&'static str> {
    let ok = Command::new("lz4")
        .arg("--version")
        .output()
        .is_ok_and(|out| out.status.success());
    if !ok {
        assert!(
            !std::env::var("LZ4_SIMD_REQUIRE_PEERS").is_ok_and(|v| v == "1"),
            "the lz4 tool is not available and LZ4_SIMD_REQUIRE_PEERS=1"
        );
        eprintln!("NOTICE: the lz4 command line tool was not found; comparison skipped");
    }
    ok.then_some("lz4")
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("frame-linked-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `lz4 <args> -c -q input` with `data` as the input file; `None` when the tool fails (1.9.4
/// fails on some incompressible one-block files with `-BD`: `ERROR_dstMaxSize_tooSmall`).
fn lz4_frame(dir: &std::path::Path, data: &[u8], args: &[&str]) -> Option<Vec<u8>> {
    let input = dir.join("input");
    std::fs::write(&input, data).unwrap();
    let out = Command::new("lz4")
        .args(args)
        .args(["-c", "-q"])
        .arg(&input)
        .output()
        .expect("failed to run lz4");
    if !out.status.success() {
        eprintln!(
            "NOTICE: lz4 {args:?} failed on {} bytes ({}); not compared",
            data.len(),
            String::from_utf8_lossy(&out.stderr).trim()
        );
        return None;
    }
    Some(out.stdout)
}

/// Our options for the tool's arguments.
fn options_for(args: &[&str]) -> FrameOptions {
    let mut options = FrameOptions::new();
    for arg in args {
        options = match *arg {
            "-B4" => options.block_size(BlockSize::Max64KB),
            "-B5" => options.block_size(BlockSize::Max256KB),
            "-B6" => options.block_size(BlockSize::Max1MB),
            "-B7" => options.block_size(BlockSize::Max4MB),
            "-BD" => options.block_mode(BlockMode::Linked),
            "-BX" => options.block_checksum(true),
            "--no-frame-crc" => options.content_checksum(false),
            "--content-size" => options.content_size(true),
            fast if fast.starts_with("--fast=") => {
                options.acceleration(fast["--fast=".len()..].parse::<u32>().unwrap() + 1)
            }
            _ => options,
        };
    }
    options
}

/// Our frame three ways (one-shot, and the streaming encoder fed in chunks of two sizes); all
/// must be equal; returns it.
fn ours(data: &[u8], dict: Option<&[u8]>, options: &FrameOptions, what: &str) -> Vec<u8> {
    let one_shot = match dict {
        Some(dict) => frame::compress_with_dictionary(data, dict, options),
        None => frame::compress(data, options),
    };
    for chunk in [1000usize, 65536 + 17] {
        let mut encoder =
            FrameEncoder::with_dictionary(Vec::new(), options.clone(), dict.unwrap_or(&[]));
        for piece in data.chunks(chunk) {
            encoder.write_all(piece).unwrap();
        }
        let streamed = encoder.finish().unwrap();
        if format!("{options:?}").contains("Linked") {
            // Linked frames are LZ4F's for the same updates (tests/lz4f_updates.rs), which
            // differ from the one-shot frame's: here the round trip.
            let back = match dict {
                Some(dict) => frame::decompress_with_dictionary(&streamed, dict, 0, data.len()),
                None => frame::decompress(&streamed, data.len()),
            };
            assert!(back.unwrap() == data, "{what}: streamed chunks of {chunk}");
        } else {
            assert!(
                streamed == one_shot,
                "{what}: the streaming encoder (chunks of {chunk}) differs from the one-shot"
            );
        }
    }
    let back = match dict {
        Some(dict) => frame::decompress_with_dictionary(&one_shot, dict, 0, data.len()),
        None => frame::decompress(&one_shot, data.len()),
    };
    assert!(back.unwrap() == data, "{what}: does not decode");
    one_shot
}

/// Near-incompressible data with a compressible tail every `period` bytes: blocks that are
/// stored raw after the compressor gave up partway, followed by blocks that match into them.
fn give_up_prone(len: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(len);
    while out.len() < len {
        out.extend(samples::random(20_000, &mut rng));
        let from = out.len() - 300;
        let echo: Vec<u8> = out[from..from + 200].to_vec();
        out.extend(samples::text(300, &mut rng).into_iter().take(300));
        out.extend(echo);
    }
    out.truncate(len);
    out
}

fn inputs() -> Vec<(String, Vec<u8>)> {
    let text = samples::builtin(600_000);
    let mut inputs = vec![
        ("empty".to_string(), Vec::new()),
        ("one byte".to_string(), b"x".to_vec()),
        ("hello".to_string(), b"hello hello hello hello".to_vec()),
    ];
    for (name, data) in &text {
        for len in [
            65535usize, 65536, 65537, 131_072, 131_073, 262_143, 262_144, 262_145, 600_000,
        ] {
            if name == "random" && len > 131_073 {
                continue;
            }
            inputs.push((format!("{name}-{len}"), data[..len].to_vec()));
        }
    }
    inputs.push(("give-up-prone".to_string(), give_up_prone(700_000, 1)));
    for (name, data) in corpus::all().iter().take(4) {
        inputs.push((name.clone(), data[..data.len().min(1_500_000)].to_vec()));
    }
    inputs
}

#[test]
fn linked_frames_match_lz4_bd() {
    let Some(_) = lz4_cli() else { return };
    let dir = scratch_dir("bd");
    let option_sets: &[&[&str]] = &[
        &["-1", "-BD", "-B4"],
        &["-1", "-BD", "-B5"],
        &["-1", "-BD", "-B6", "-BX"],
        &["-1", "-BD", "-B7", "--no-frame-crc"],
        &["--fast=3", "-BD", "-B4"],
        &["--fast=17", "-BD", "-B4", "-BX", "--no-frame-crc"],
    ];
    let mut compared = 0;
    for (name, data) in inputs() {
        for args in option_sets {
            // Inputs far below the block size say nothing new about linking.
            if data.len() < 65535 && args.contains(&"-B6") {
                continue;
            }
            let what = format!("{name} lz4 {}", args.join(" "));
            let Some(theirs) = lz4_frame(&dir, &data, args) else {
                continue;
            };
            let ours = ours(&data, None, &options_for(args), &what);
            assert!(
                ours == theirs,
                "{what}: ours {} bytes, lz4 {} bytes",
                ours.len(),
                theirs.len()
            );
            compared += 1;
        }
    }
    assert!(compared > 50);

    // Several 4 MiB blocks (-B7 -BD), the tool's default block size.
    let mut rng = Rng::new(3);
    let mut big = samples::logs(6 << 20, &mut rng);
    big.extend(give_up_prone(3 << 20, 2));
    for args in [&["-1", "-BD"][..], &["--fast=2", "-BD", "-B7", "-BX"][..]] {
        let what = format!("9 MiB lz4 {}", args.join(" "));
        let theirs = lz4_frame(&dir, &big, args).expect("lz4 -BD on 9 MiB");
        assert!(
            ours(&big, None, &options_for(args), &what) == theirs,
            "{what}"
        );
    }
}

/// Without the tool: the same call pattern through LZ4F (lz4-sys): `LZ4F_compressBegin`, one
/// `LZ4F_compressUpdate` per block-sized read, `LZ4F_compressEnd`, for inputs of two blocks or
/// more (shorter ones go through `LZ4F_compressFrame` in the tool).
#[test]
fn linked_frames_match_lz4f_streaming() {
    for (name, data) in inputs() {
        for (size, id) in [(BlockSize::Max64KB, 4), (BlockSize::Max256KB, 5)] {
            if data.len() < size.bytes() {
                continue;
            }
            for acceleration in [1u32, 5] {
                let preferences = liblz4::fast_frame_preferences(id, true, acceleration);
                let theirs =
                    liblz4::compress_frame_streaming(&data, size.bytes(), None, &preferences);
                let options = FrameOptions::new()
                    .block_size(size)
                    .block_mode(BlockMode::Linked)
                    .acceleration(acceleration);
                let what = format!("{name} {size:?} acceleration {acceleration}");
                assert!(ours(&data, None, &options, &what) == theirs, "{what}");
            }
        }
    }
}

/// `lz4 -D dict`, independent and linked blocks, dictionaries of several sizes.
#[test]
fn dictionary_frames_match_lz4_d() {
    let Some(_) = lz4_cli() else { return };
    let dir = scratch_dir("dict");
    let mut rng = Rng::new(5);
    let logs = samples::logs(900_000, &mut rng);
    let dict_file = dir.join("dict");
    let mut compared = 0;
    for dict_len in [1usize, 7, 8, 100, 4096, 65536, 100_000] {
        let dict = &logs[..dict_len];
        std::fs::write(&dict_file, dict).unwrap();
        let dict_arg = dict_file.to_str().unwrap().to_string();
        for (name, data) in [
            ("small", &logs[200_000..200_100]),
            ("4k", &logs[200_000..204_096]),
            ("block", &logs[200_000..265_536]),
            ("several", &logs[200_000..600_000]),
        ] {
            for mode in [&["-BD"][..], &[][..]] {
                for level in ["-1", "--fast=4"] {
                    let mut args = vec![level, "-B4", "-D", dict_arg.as_str()];
                    args.extend_from_slice(mode);
                    let what = format!("dict {dict_len} {name} lz4 {}", args.join(" "));
                    let theirs = lz4_frame(&dir, data, &args).expect("lz4 -D");
                    let ours = ours(data, Some(dict), &options_for(&args), &what);
                    assert!(
                        ours == theirs,
                        "{what}: ours {} bytes, lz4 {} bytes",
                        ours.len(),
                        theirs.len()
                    );
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 0);
}

/// A dictionary prepared as liblz4 1.10's `LZ4_loadDictSlow` (`Dictionary::new_dense`) gives the
/// frames of LZ4F 1.10 with a CDict (`LZ4F_compressBegin_usingCDict`, the tool's call pattern),
/// independent and linked; one from `Dictionary::new` gives those of `compress_with_dictionary`.
#[test]
fn prepared_dictionary_frames_match_lz4f_cdict() {
    let mut rng = Rng::new(11);
    let logs = samples::logs(700_000, &mut rng);
    for dict_len in [8usize, 100, 4096, 65536, 100_000] {
        let dict = &logs[..dict_len];
        let slow = lz4_simd::block::Dictionary::new_dense(dict);
        let fast = lz4_simd::block::Dictionary::new(dict);
        for (name, data) in [
            ("block", &logs[200_000..265_536]),
            ("several", &logs[200_000..500_000]),
        ] {
            for linked in [false, true] {
                for acceleration in [1u32, 3] {
                    let preferences = liblz4::fast_frame_preferences(4, linked, acceleration);
                    let theirs =
                        liblz4::compress_frame_streaming(data, 65536, Some(dict), &preferences);
                    let options = FrameOptions::new()
                        .block_size(BlockSize::Max64KB)
                        .block_mode(if linked {
                            BlockMode::Linked
                        } else {
                            BlockMode::Independent
                        })
                        .acceleration(acceleration);
                    let what =
                        format!("dict {dict_len} {name} linked {linked} accel {acceleration}");
                    let ours = frame::compress_with_prepared_dictionary(data, &slow, &options);
                    assert!(
                        ours == theirs,
                        "{what}: ours {} bytes, LZ4F {}",
                        ours.len(),
                        theirs.len()
                    );
                    let mut encoder =
                        FrameEncoder::with_prepared_dictionary(Vec::new(), options.clone(), &slow);
                    for piece in data.chunks(5000) {
                        encoder.write_all(piece).unwrap();
                    }
                    // Linked frames: LZ4F's for the same updates (each write one of what it
                    // takes).
                    let theirs_streamed = if linked {
                        let updates = liblz4::updates_of_writes(data, 5000, 65536);
                        let mut preferences = preferences;
                        preferences.auto_flush = 0;
                        liblz4::compress_frame_ops(&updates, Some(dict), &preferences)
                    } else {
                        theirs.clone()
                    };
                    assert!(
                        encoder.finish().unwrap() == theirs_streamed,
                        "{what}: streaming differs"
                    );
                    assert!(
                        frame::compress_with_prepared_dictionary(data, &fast, &options)
                            == frame::compress_with_dictionary(data, dict, &options),
                        "{what}: Dictionary::new differs from compress_with_dictionary"
                    );
                }
            }
        }
    }
}
