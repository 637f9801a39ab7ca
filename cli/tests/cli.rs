//! The `lz4-simd` binary end to end: frame and size-prepended round trips through files and
//! pipes, byte-identity with the library's one-shot frames, and error messages on bad input.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_lz4-simd"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn sample(len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(len + 64);
    let mut n = 0u64;
    while out.len() < len {
        n = n
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        out.extend_from_slice(
            format!("segment {} flushed to shard {}\n", n >> 40, n % 7).as_bytes(),
        );
    }
    out.truncate(len);
    out
}

fn piped(args: &[&str], input: &[u8]) -> std::process::Output {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

#[test]
fn frames_round_trip_through_files_and_pipes() {
    let dir = scratch("frames");
    for len in [0usize, 23, 70_000, 5_000_000] {
        let data = sample(len);
        let input = dir.join("input");
        std::fs::write(&input, &data).unwrap();
        for args in [
            &[][..],
            &["-B4", "--linked", "--block-checksum"][..],
            &["-B5", "--content-size", "--no-content-checksum"][..],
            &["--legacy"][..],
            &["-a", "8"][..],
            &["--hc", "9", "-B4", "--linked"][..],
        ] {
            let framed = dir.join("framed");
            let status = bin()
                .arg("compress")
                .args(args)
                .arg(&input)
                .arg(&framed)
                .status()
                .unwrap();
            assert!(status.success(), "{args:?}");
            let framed_bytes = std::fs::read(&framed).unwrap();
            if args.is_empty() {
                // Small and large inputs alike: the bytes of the one-shot library frame.
                let library =
                    lz4_simd::frame::compress(&data, &lz4_simd::frame::FrameOptions::new());
                assert!(
                    framed_bytes == library,
                    "len {len}: CLI frame differs from frame::compress"
                );
            }
            let out = piped(&["decompress"], &framed_bytes);
            assert!(
                out.status.success(),
                "{args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(out.stdout == data, "len {len} {args:?}: round trip differs");
        }
        // Piped compression (stdin has no size).
        let out = piped(&["compress"], &data);
        assert!(out.status.success());
        assert!(lz4_simd::frame::decompress(&out.stdout, len).unwrap() == data);
    }
}

#[test]
fn size_prepended_blocks_with_block_flag() {
    let data = sample(100_000);
    let out = piped(&["compress", "--block"], &data);
    assert!(out.status.success());
    assert_eq!(out.stdout, lz4_simd::block::compress_prepend_size(&data));
    let back = piped(&["decompress", "--block"], &out.stdout);
    assert!(back.status.success());
    assert!(back.stdout == data);
    let capped = piped(&["decompress", "--block", "--max-out", "1000"], &out.stdout);
    assert!(!capped.status.success());
}

#[test]
fn bad_input_is_reported_not_panicked() {
    let raw_block = lz4_simd::block::compress(&sample(5000));
    for (input, needle) in [
        (&b"plain text"[..], "not LZ4 frame data"),
        (&raw_block[..], "raw LZ4 block"),
        (&[0x04, 0x22, 0x4d, 0x18, 0x64][..], "truncated frame"),
    ] {
        let out = piped(&["decompress"], input);
        assert!(!out.status.success());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(needle), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    let out = piped(&["compress", "--content-size"], b"abc");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("file input"));
}
