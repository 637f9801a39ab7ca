//! Interoperability with real third-party peers: the `lz4` command line tool (1.9.x) and
//! python-lz4. Frames they write decode with ours; ours decode with them; with matching options
//! ours are byte-identical to `lz4 -1`'s.
//!
//! The peers are found on `PATH` (`lz4`, `python3` with the `lz4` module). When one is missing
//! the test prints a notice and passes, unless `LZ4_SIMD_REQUIRE_PEERS=1` (set by `.ci/run`,
//! which installs them), in which case it fails.

use std::io::Read;
use std::path::PathBuf;
use std::process::Command;

use lz4_simd::block;
use lz4_simd::frame::{self, BlockMode, BlockSize, FrameDecoder, FrameEncoder, FrameOptions};
use testkit::corpus;
use testkit::samples::generated;

fn require_peers() -> bool {
    std::env::var("LZ4_SIMD_REQUIRE_PEERS").is_ok_and(|v| v == "1")
}

fn peer_missing(what: &str) {
    assert!(
        !require_peers(),
        "{what} is not available and LZ4_SIMD_REQUIRE_PEERS=1"
    );
    eprintln!("NOTICE: {what} not found; interop test skipped (set LZ4_SIMD_REQUIRE_PEERS=1 to fail instead)");
}

fn lz4_cli() -> Option<PathBuf> {
    let ok = Command::new("lz4")
        .arg("--version")
        .output()
        .is_ok_and(|out| out.status.success());
    ok.then(|| PathBuf::from("lz4"))
}

fn python_lz4() -> bool {
    Command::new("python3")
        .args(["-c", "import lz4.frame, lz4.block"])
        .output()
        .is_ok_and(|out| out.status.success())
}

/// A fresh scratch directory under the target directory.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("interop-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(cmd: &mut Command) -> Vec<u8> {
    let out = cmd.output().expect("failed to run peer");
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn inputs() -> Vec<(String, Vec<u8>)> {
    let mut inputs = vec![
        ("empty".to_string(), Vec::new()),
        ("hello".to_string(), b"hello hello hello hello".to_vec()),
        ("one byte".to_string(), b"x".to_vec()),
    ];
    for (kind, len) in [
        ("log-lines", 70_000),
        ("runs", 300_000),
        ("random", 100_000),
        ("two-symbol", 65_536),
        ("log-lines", (5 << 20) + 123),
    ] {
        inputs.push((format!("{kind}-{len}"), generated(kind, len, len as u64)));
    }
    // A corpus file over 4 MiB: two blocks at the default block size.
    if let Some((name, data)) = corpus::all().first() {
        inputs.push((name.clone(), data[..data.len().min(4_500_000)].to_vec()));
    }
    inputs
}

fn ours_decode_both_ways(framed: &[u8], expected: &[u8], what: &str) {
    let one_shot = frame::decompress(framed, expected.len())
        .unwrap_or_else(|e| panic!("{what}: ours failed: {e}"));
    assert!(one_shot == expected, "{what}: one-shot output differs");
    let mut streamed = Vec::new();
    FrameDecoder::new(framed)
        .read_to_end(&mut streamed)
        .unwrap_or_else(|e| panic!("{what}: streaming failed: {e}"));
    assert!(streamed == expected, "{what}: streaming output differs");
}

/// Frames the `lz4` tool writes, in every option combination the issue names, decode with ours;
/// with the default options and with `-B4` ours are byte-identical.
#[test]
fn lz4_cli_frames_decode_with_ours_and_match_bytes() {
    let Some(lz4) = lz4_cli() else {
        return peer_missing("the lz4 command line tool");
    };
    let dir = scratch_dir("cli");
    let option_sets: &[&[&str]] = &[
        &["-1"],
        &["-1", "-B4"],
        &["-1", "-B5"],
        &["-1", "-B6"],
        &["-1", "-B7"],
        &["-1", "-BD"],
        &["-1", "-B4", "-BD"],
        &["-1", "--content-size"],
        &["-1", "--no-frame-crc"],
        &["-1", "-BX"],
        &["-1", "-B4", "-BX", "--content-size", "--no-frame-crc"],
        &["-l"],
        &["-9"],
        &["-9", "-B4", "-BD"],
        &["--fast=8"],
    ];
    let mut identical = 0;
    for (name, data) in inputs() {
        let input = dir.join("input");
        std::fs::write(&input, &data).unwrap();
        let mut concatenated = Vec::new();
        for options in option_sets {
            let framed = run(Command::new(&lz4)
                .args(*options)
                .args(["-c", "-q"])
                .arg(&input));
            let what = format!("{name} lz4 {}", options.join(" "));
            ours_decode_both_ways(&framed, &data, &what);
            concatenated.extend_from_slice(&framed);

            // Ours with the same options.
            let block_size = options
                .iter()
                .find_map(|o| match *o {
                    "-B4" => Some(BlockSize::Max64KB),
                    "-B5" => Some(BlockSize::Max256KB),
                    "-B6" => Some(BlockSize::Max1MB),
                    _ => None,
                })
                .unwrap_or(BlockSize::Max4MB);
            let ours_options = FrameOptions::new()
                .block_size(block_size)
                .block_mode(if options.contains(&"-BD") {
                    BlockMode::Linked
                } else {
                    BlockMode::Independent
                })
                .block_checksum(options.contains(&"-BX"))
                .content_checksum(!options.contains(&"--no-frame-crc"))
                .content_size(options.contains(&"--content-size"))
                .acceleration(if options.contains(&"--fast=8") { 9 } else { 1 });
            let fast_independent =
                !options.contains(&"-9") && !options.contains(&"-BD") && !options.contains(&"-l");
            if fast_independent {
                let ours = frame::compress(&data, &ours_options);
                assert!(
                    ours == framed,
                    "{what}: our frame differs from lz4's ({} vs {} bytes)",
                    ours.len(),
                    framed.len()
                );
                identical += 1;
            }
            if options == &["-9"] {
                // lz4 -9 blocks are liblz4's HC at level 9: so are ours.
                let ours = frame::compress(&data, &ours_options.clone().hc_level(Some(9)));
                assert!(
                    ours == framed,
                    "{what}: our HC frame differs from lz4 -9's ({} vs {} bytes)",
                    ours.len(),
                    framed.len()
                );
                identical += 1;
            }
            if options == &["-l"] {
                let ours = frame::compress_legacy(&data, 1);
                assert!(
                    ours == framed,
                    "{what}: our legacy frame differs from lz4 -l's"
                );
                identical += 1;
            }
        }
        // `cat a.lz4 b.lz4 ...` decodes as the inputs one after the other.
        let expected = data.repeat(option_sets.len());
        ours_decode_both_ways(&concatenated, &expected, &format!("{name} concatenated"));
    }
    assert!(identical > 0);
}

/// Our frames, in every option combination (and legacy, skippable, concatenated, dictionary
/// frames), decode with `lz4 -d`.
#[test]
fn our_frames_decode_with_lz4_cli() {
    let Some(lz4) = lz4_cli() else {
        return peer_missing("the lz4 command line tool");
    };
    let dir = scratch_dir("ours");
    let framed_path = dir.join("framed.lz4");
    let data_sets: Vec<(String, Vec<u8>)> = inputs()
        .into_iter()
        .filter(|(_, d)| d.len() <= 5 << 20)
        .collect();
    for (name, data) in &data_sets {
        for block_size in BlockSize::ALL {
            for block_mode in [BlockMode::Independent, BlockMode::Linked] {
                // Every combination of the three flags on the smaller inputs; two on the large.
                let flag_sets: Vec<(bool, bool, bool)> = if data.len() <= 300_000 {
                    (0..8)
                        .map(|b| (b & 1 != 0, b & 2 != 0, b & 4 != 0))
                        .collect()
                } else {
                    vec![(true, false, false), (false, true, true)]
                };
                for (content_checksum, block_checksum, content_size) in flag_sets {
                    let options = FrameOptions::new()
                        .block_size(block_size)
                        .block_mode(block_mode)
                        .content_checksum(content_checksum)
                        .block_checksum(block_checksum)
                        .content_size(content_size);
                    let what = format!("{name} {options:?}");
                    let framed = frame::compress(data, &options);
                    std::fs::write(&framed_path, &framed).unwrap();
                    let out = run(Command::new(&lz4)
                        .args(["-d", "-c", "-q"])
                        .arg(&framed_path));
                    assert!(out == *data, "{what}: lz4 -d output differs");
                }
            }
        }
        // Streaming encoder output, legacy, and a stream with skippable frames.
        let mut encoder = FrameEncoder::with_options(
            Vec::new(),
            FrameOptions::new()
                .block_mode(BlockMode::Linked)
                .block_size(BlockSize::Max64KB),
        );
        for chunk in data.chunks(33_333) {
            std::io::Write::write_all(&mut encoder, chunk).unwrap();
        }
        let mut stream = frame::skippable_frame(5, b"ignored").unwrap();
        stream.extend(encoder.finish().unwrap());
        stream.extend(frame::compress_legacy(data, 1));
        std::fs::write(&framed_path, &stream).unwrap();
        let out = run(Command::new(&lz4)
            .args(["-d", "-c", "-q"])
            .arg(&framed_path));
        assert!(
            out == data.repeat(2),
            "{name}: streamed + legacy with lz4 -d"
        );
    }

    // A dictionary frame decodes with `lz4 -d -D dict`.
    let dict = generated("log-lines", 50_000, 1);
    let data = generated("log-lines", 200_000, 2);
    let dict_path = dir.join("dict");
    std::fs::write(&dict_path, &dict).unwrap();
    for block_mode in [BlockMode::Independent, BlockMode::Linked] {
        let framed = frame::compress_with_dictionary(
            &data,
            &dict,
            &FrameOptions::new()
                .block_size(BlockSize::Max64KB)
                .block_mode(block_mode),
        );
        std::fs::write(&framed_path, &framed).unwrap();
        let out = run(Command::new(&lz4)
            .args(["-d", "-c", "-q", "-D"])
            .arg(&dict_path)
            .arg(&framed_path));
        assert!(
            out == data,
            "{block_mode:?} dictionary frame with lz4 -d -D"
        );
        // And lz4's dictionary frames decode with ours.
        let input = dir.join("dict-input");
        std::fs::write(&input, &data).unwrap();
        let mode_flag: &[&str] = if block_mode == BlockMode::Linked {
            &["-BD"]
        } else {
            &[]
        };
        let theirs = run(Command::new(&lz4)
            .args(["-1", "-B4", "-c", "-q", "-D"])
            .arg(&dict_path)
            .args(mode_flag)
            .arg(&input));
        let info = frame::read_frame_info(&theirs).unwrap();
        let id = info.dict_id.unwrap_or(0);
        assert!(frame::decompress_with_dictionary(&theirs, &dict, id, data.len()).unwrap() == data);
    }
}

/// python-lz4's frames and size-prefixed blocks decode with ours, and ours with python-lz4. The
/// peer's work runs in two python processes (every compression, then every decompression of
/// ours), each line of its job file one job: `OP INPUT OUTPUT [ARGS]`.
#[test]
fn python_lz4_interop() {
    if !python_lz4() {
        return peer_missing("python3 with the lz4 module (pip install lz4)");
    }
    let dir = scratch_dir("python");
    let jobs_script = r#"
import sys, lz4.frame, lz4.block
for line in open(sys.argv[1]):
    op, src, dst, *a = line.split()
    data = open(src, 'rb').read()
    if op == 'compress-frame':
        kw = dict(block_size=int(a[0]), block_linked=a[1] == '1', content_checksum=a[2] == '1',
                  block_checksum=a[3] == '1', store_size=a[4] == '1', compression_level=int(a[5]))
        out = lz4.frame.compress(data, **kw)
    elif op == 'decompress-frame':
        out = lz4.frame.decompress(data)
    elif op == 'compress-block':
        out = lz4.block.compress(data)
    elif op == 'decompress-block':
        out = lz4.block.decompress(data)
    else:
        sys.exit('unknown job ' + op)
    open(dst, 'wb').write(out)
"#;
    let run_jobs = |jobs: &str| {
        let file = dir.join("jobs");
        std::fs::write(&file, jobs).unwrap();
        run(Command::new("python3")
            .arg("-c")
            .arg(jobs_script)
            .arg(&file));
    };
    // python-lz4 block sizes: 0 default, 4..7 the codes; linked, content checksum, block
    // checksum, content size, level.
    let configs = ["0 0 0 0 1 0", "4 1 1 1 0 0", "5 0 1 0 1 9", "7 1 0 1 1 -3"];
    let our_options = [
        FrameOptions::new(),
        FrameOptions::new()
            .block_size(BlockSize::Max64KB)
            .block_mode(BlockMode::Linked)
            .block_checksum(true)
            .content_size(true),
    ];
    let inputs: Vec<(String, Vec<u8>)> = inputs()
        .into_iter()
        .filter(|(_, d)| d.len() <= 5 << 20)
        .collect();
    let path = |name: String| dir.join(name).display().to_string();
    let (mut theirs, mut back) = (String::new(), String::new());
    for (i, (_, data)) in inputs.iter().enumerate() {
        std::fs::write(path(format!("in-{i}")), data).unwrap();
        for (k, config) in configs.iter().enumerate() {
            theirs += &format!(
                "compress-frame {} {} {config}\n",
                path(format!("in-{i}")),
                path(format!("frame-{i}-{k}"))
            );
        }
        theirs += &format!(
            "compress-block {} {}\n",
            path(format!("in-{i}")),
            path(format!("block-{i}"))
        );
        for (k, options) in our_options.iter().enumerate() {
            std::fs::write(
                path(format!("ours-{i}-{k}")),
                frame::compress(data, options),
            )
            .unwrap();
            back += &format!(
                "decompress-frame {} {}\n",
                path(format!("ours-{i}-{k}")),
                path(format!("back-{i}-{k}"))
            );
        }
        std::fs::write(
            path(format!("ours-block-{i}")),
            block::compress_prepend_size(data).unwrap(),
        )
        .unwrap();
        back += &format!(
            "decompress-block {} {}\n",
            path(format!("ours-block-{i}")),
            path(format!("back-block-{i}"))
        );
    }
    run_jobs(&theirs);
    run_jobs(&back);
    for (i, (name, data)) in inputs.iter().enumerate() {
        for (k, config) in configs.iter().enumerate() {
            let framed = std::fs::read(path(format!("frame-{i}-{k}"))).unwrap();
            ours_decode_both_ways(&framed, data, &format!("{name} python-lz4 frame {config}"));
        }
        let block = std::fs::read(path(format!("block-{i}"))).unwrap();
        assert!(
            block::decompress_size_prepended(&block, data.len()).unwrap() == *data,
            "{name}: lz4.block"
        );
        for k in 0..our_options.len() {
            assert!(
                std::fs::read(path(format!("back-{i}-{k}"))).unwrap() == *data,
                "{name}: lz4.frame.decompress of ours ({k})"
            );
        }
        assert!(
            std::fs::read(path(format!("back-block-{i}"))).unwrap() == *data,
            "{name}: lz4.block.decompress of ours"
        );
    }
}
