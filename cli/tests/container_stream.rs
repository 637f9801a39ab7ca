//! `-z` / `-d --container NAME` for the containers that stream (hadoop, kafka, kafka-v0,
//! lz4-java, clickhouse): the real peers both ways on files and pipes (kafka-python,
//! clickhouse-cityhash with python-lz4, lz4-java), more than 64 MiB through a pipe in bounded
//! memory, and hostile input through the streaming path (an error naming the container, no
//! output file left, never a silent short output).

mod common;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::{bin, piped, run_in, sample, scratch, stderr};

fn require_peers() -> bool {
    std::env::var("LZ4_SIMD_REQUIRE_PEERS").is_ok_and(|v| v == "1")
}

fn peer_missing(what: &str) {
    assert!(
        !require_peers(),
        "{what} is not available and LZ4_SIMD_REQUIRE_PEERS=1"
    );
    eprintln!("NOTICE: {what} not found; test skipped (set LZ4_SIMD_REQUIRE_PEERS=1 to fail)");
}

fn peers_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/container/peers")
}

/// `python3 tests/container/peers/containers.py ARGS` with `input` on stdin.
fn python(args: &[&str], input: &[u8]) -> Vec<u8> {
    let mut command = Command::new("python3");
    command.arg(peers_dir().join("containers.py")).args(args);
    let out = common::run_with_stdin(command, input);
    assert!(out.status.success(), "peer {args:?}: {}", stderr(&out));
    out.stdout
}

fn python_peers() -> bool {
    Command::new("python3")
        .arg(peers_dir().join("containers.py"))
        .arg("check")
        .output()
        .is_ok_and(|out| out.status.success())
}

/// `lz4-simd ARGS` on `input` through a pipe; its stdout, or a panic with its stderr.
fn ours(args: &[&str], input: &[u8]) -> Vec<u8> {
    let out = piped(args, input);
    assert!(out.status.success(), "lz4-simd {args:?}: {}", stderr(&out));
    out.stdout
}

/// Every name `--container` takes.
const ALL: [&str; 11] = [
    "hadoop",
    "kafka",
    "kafka-v0",
    "lz4-java",
    "clickhouse",
    "prefixed-le32",
    "prefixed-be32",
    "prefixed-varint",
    "linux",
    "parquet-lz4",
    "parquet-lz4-raw",
];

fn inputs() -> Vec<Vec<u8>> {
    vec![Vec::new(), b"x".to_vec(), sample(70_000), sample(3 << 20)]
}

#[test]
fn kafka_and_clickhouse_with_python_peers_through_pipes_and_files() {
    if !python_peers() {
        return peer_missing("python3 with kafka-python, clickhouse-cityhash and python-lz4");
    }
    let dir = scratch("container-stream-peers");
    for (i, data) in inputs().iter().enumerate() {
        for (name, version) in [("kafka", "v1"), ("kafka-v0", "v0")] {
            let packed = ours(&["-zc", "--container", name], data);
            let back = python(&["kafka-decompress", version], &packed);
            assert!(
                back == *data,
                "{name} {i}: kafka-python reads ours differently"
            );
            let theirs = python(&["kafka-compress", version], data);
            assert!(
                ours(&["-dc", "--container", name], &theirs) == *data,
                "{name} {i}: kafka-python's"
            );
        }
        // ClickHouse: python-lz4 blocks behind clickhouse-cityhash checksums, 1 MiB blocks as
        // ClickHouse writes them: the same bytes both ways.
        let theirs = python(&["clickhouse-compress", &(1 << 20).to_string()], data);
        let packed = ours(&["-zc", "--container", "clickhouse"], data);
        assert!(packed == theirs, "clickhouse {i}: bytes differ");
        assert!(python(&["clickhouse-decompress"], &packed) == *data);
        // Files: write theirs, decode to a file.
        std::fs::write(dir.join("in.ch"), &theirs).unwrap();
        let out = run_in(
            bin().args(["-d", "-f", "--container", "clickhouse", "in.ch", "out"]),
            &dir,
        );
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(std::fs::read(dir.join("out")).unwrap() == *data);
    }
}

#[test]
fn lz4_java_both_ways_through_files() {
    let jar = PathBuf::from("/usr/share/java/lz4-java.jar");
    let java = Command::new("java").arg("-version").output();
    if !jar.exists() || !java.is_ok_and(|out| out.status.success()) {
        return peer_missing("java with lz4-java (Debian package liblz4-java)");
    }
    let dir = scratch("container-stream-java");
    let path = |name: &str| dir.join(name).display().to_string();
    let inputs = inputs();
    let mut compress = vec!["compress".to_string(), (64 << 10).to_string()];
    let mut decompress = vec!["decompress".to_string()];
    for (i, data) in inputs.iter().enumerate() {
        std::fs::write(path(&format!("{i}")), data).unwrap();
        compress.extend([path(&format!("{i}")), path(&format!("{i}.theirs"))]);
        let out = run_in(
            bin().args([
                "-f",
                "--container",
                "lz4-java",
                &format!("{i}"),
                &format!("{i}.ours"),
            ]),
            &dir,
        );
        assert!(out.status.success(), "{}", stderr(&out));
        decompress.extend([path(&format!("{i}.ours")), path(&format!("{i}.back"))]);
    }
    for args in [compress, decompress] {
        let out = Command::new("java")
            .arg("-cp")
            .arg(&jar)
            .arg(peers_dir().join("Lz4BlockPeer.java"))
            .args(&args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "lz4-java: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    for (i, data) in inputs.iter().enumerate() {
        let back = std::fs::read(dir.join(format!("{i}.back"))).unwrap();
        assert!(back == *data, "{i}: lz4-java reads ours differently");
        let out = run_in(
            bin().args([
                "-d",
                "-f",
                "--container",
                "lz4-java",
                &format!("{i}.theirs"),
                "out",
            ]),
            &dir,
        );
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(
            std::fs::read(dir.join("out")).unwrap() == *data,
            "{i}: lz4-java's"
        );
    }
}

/// `lz4-simd -zc --container NAME | lz4-simd -dc --container NAME` on `len` bytes of generated
/// content fed through a pipe, compared as it comes out; returns the decoder's peak resident
/// memory in KiB when `/usr/bin/time` can tell.
fn through_pipes(name: &str, len: usize) -> Option<u64> {
    let timed = Path::new("/usr/bin/time").exists();
    let mut compressor = bin()
        .args(["-zc", "--container", name])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut decoder = if timed {
        let mut command = Command::new("/usr/bin/time");
        command
            .args(["-f", "%M"])
            .arg(env!("CARGO_BIN_EXE_lz4-simd"));
        command
    } else {
        bin()
    };
    let mut decompressor = decoder
        .args(["-dc", "--container", name])
        .stdin(Stdio::from(compressor.stdout.take().unwrap()))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = compressor.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        // The same content `expected` regenerates, in pieces.
        let piece = sample(1 << 20);
        let mut left = len;
        while left > 0 {
            let n = left.min(piece.len());
            stdin.write_all(&piece[..n]).unwrap();
            left -= n;
        }
    });
    let mut stdout = decompressor.stdout.take().unwrap();
    let piece = sample(1 << 20);
    let mut buf = vec![0; 1 << 16];
    let mut pos = 0usize;
    loop {
        let n = stdout.read(&mut buf).unwrap();
        if n == 0 {
            break;
        }
        for (k, &byte) in buf[..n].iter().enumerate() {
            let at = pos + k;
            assert_eq!(
                byte,
                piece[at % piece.len()],
                "{name}: content differs at {at}"
            );
        }
        pos += n;
    }
    feeder.join().unwrap();
    assert!(
        compressor.wait().unwrap().success(),
        "{name}: compressor failed"
    );
    let out = decompressor.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "{name}: decompressor failed: {err}");
    assert_eq!(pos, len, "{name}: content length");
    timed
        .then(|| err.lines().last().and_then(|line| line.trim().parse().ok()))
        .flatten()
}

#[test]
fn more_than_64_mib_through_pipes_in_bounded_memory() {
    // 72 MiB through the block containers with the smallest blocks (the sample), and a few MiB
    // through the others.
    for (name, len) in [
        ("lz4-java", 72 << 20),
        ("hadoop", 72 << 20),
        ("clickhouse", 9 << 20),
        ("kafka", 9 << 20),
        ("kafka-v0", 3 << 20),
    ] {
        if let Some(peak_kib) = through_pipes(name, len) {
            eprintln!("{name}: {len} bytes, peak memory of the decoder {peak_kib} KiB");
            // Far below the content: the process, its buffers and one block.
            assert!(
                peak_kib < 48 << 10,
                "{name}: peak memory {peak_kib} KiB for {len} bytes"
            );
        }
    }
}

#[test]
fn hostile_input_through_the_stream_is_an_error_and_leaves_no_output() {
    let dir = scratch("container-stream-hostile");
    let data = sample(300_000);
    for name in ["hadoop", "kafka", "kafka-v0", "lz4-java", "clickhouse"] {
        let packed = ours(&["-zc", "--container", name], &data);
        let mut cases = vec![
            ("truncated", packed[..packed.len() - 1].to_vec()),
            ("truncated early", packed[..packed.len() / 2].to_vec()),
            ("trailing byte", [&packed[..], b"!"].concat()),
        ];
        let mut flipped = packed.clone();
        let last = flipped.len() - 30;
        flipped[last] ^= 0x55;
        cases.push(("corrupt near the end", flipped));
        for (what, bad) in cases {
            // Through a pipe: a failure, never a silent success.
            let out = piped(&["-dc", "--container", name], &bad);
            assert!(!out.status.success(), "{name} {what}: accepted");
            assert!(!stderr(&out).is_empty(), "{name} {what}: no message");
            // To a file: the partial output is removed.
            std::fs::write(dir.join("bad"), &bad).unwrap();
            let out = run_in(
                bin().args(["-d", "-f", "--container", name, "bad", "out"]),
                &dir,
            );
            assert!(!out.status.success(), "{name} {what}: accepted from a file");
            // The error names the container (Kafka's are the frame decoder's errors, as the
            // one-shot function's are).
            let named = name.starts_with("kafka") || stderr(&out).contains(name);
            assert!(named, "{name} {what}: {}", stderr(&out));
            assert!(
                !dir.join("out").exists(),
                "{name} {what}: output left behind"
            );
        }
    }
}

/// `--max-out` caps the whole content of every container, streamed or not: with the content's
/// length it decodes; below it (above each block of the streamed containers: 1 MiB ClickHouse
/// blocks, 261 100-byte Hadoop blocks, 64 KiB lz4-java and Kafka blocks) it fails naming
/// `--max-out`, writes nothing past the cap to a pipe, and leaves no output file.
#[test]
fn max_out_caps_the_whole_content_of_every_container() {
    let dir = scratch("container-max-out");
    let data = sample((5 << 20) / 2);
    std::fs::write(dir.join("data"), &data).unwrap();
    let len = data.len();
    for name in ALL {
        let packed = format!("data.{name}");
        let out = run_in(
            bin().args(["-f", "-z", "--container", name, "data", &packed]),
            &dir,
        );
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        let packed_bytes = std::fs::read(dir.join(&packed)).unwrap();
        for cap in [len, len - 1, (1 << 20) + 1, 1000] {
            let ok = cap >= len;
            let cap_text = cap.to_string();
            let _ = std::fs::remove_file(dir.join("out"));
            let args = ["-f", "-d", "--container", name, "--max-out", &cap_text];
            let out = run_in(bin().args(args).args([&packed, "out"]), &dir);
            let what = format!("{name} --max-out {cap}");
            assert_eq!(out.status.success(), ok, "{what}: {}", stderr(&out));
            if ok {
                assert!(std::fs::read(dir.join("out")).unwrap() == data, "{what}");
                continue;
            }
            // The error names the cap and the input it was found in.
            assert!(
                stderr(&out).contains("--max-out"),
                "{what}: {}",
                stderr(&out)
            );
            assert!(stderr(&out).contains(&packed), "{what}: {}", stderr(&out));
            assert!(!dir.join("out").exists(), "{what}: output left behind");
            // Through a pipe: the content written before the error is within the cap.
            let out = piped(
                &["-dc", "--container", name, "--max-out", &cap_text],
                &packed_bytes,
            );
            assert!(!out.status.success(), "{what}: accepted through a pipe");
            assert!(
                out.stdout.len() <= cap,
                "{what}: {} bytes written",
                out.stdout.len()
            );
            assert!(
                out.stdout == data[..out.stdout.len()],
                "{what}: not the content"
            );
        }
    }
}

/// `-z --container NAME` through a pipe writes the bytes it writes to a file, for every
/// container (the one-shot ones read the pipe whole), and `-d` reads them back from a pipe.
#[test]
fn every_container_compresses_through_pipes_as_to_files() {
    let dir = scratch("container-pipes");
    let data = sample(700_000);
    std::fs::write(dir.join("data"), &data).unwrap();
    for name in ALL {
        let out = run_in(
            bin().args(["-f", "-z", "--container", name, "data", "packed"]),
            &dir,
        );
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        let from_file = std::fs::read(dir.join("packed")).unwrap();
        let from_pipe = ours(&["-zc", "--container", name], &data);
        assert!(from_pipe == from_file, "{name}: the pipe's bytes differ");
        assert!(
            ours(&["-dc", "--container", name], &from_pipe) == data,
            "{name}"
        );
    }
}
