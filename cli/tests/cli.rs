//! The `lz4-simd` binary end to end: frame and size-prepended round trips through files and
//! pipes, byte-identity with the library's one-shot frames, error messages on bad input, and
//! `lz4`'s command-line rules (output names, modes, `--list`).

mod common;

use common::{bin, piped, run_in, sample, scratch, stderr};

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
            &["-B4D", "-BX"][..],
            &["-B5", "--content-size", "--no-content-checksum"][..],
            &["--legacy"][..],
            &["-l", "-9"][..],
            &["--fast=7"][..],
            &["--hc", "9", "-B4", "--linked"][..],
            &["-12", "--favor-decSpeed"][..],
        ] {
            let framed = dir.join("framed");
            let status = bin()
                .arg("compress")
                .arg("-f")
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
            assert!(out.status.success(), "{args:?}: {}", stderr(&out));
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
    assert_eq!(
        out.stdout,
        lz4_simd::block::compress_prepend_size(&data).unwrap()
    );
    let back = piped(&["-d", "--block"], &out.stdout);
    assert!(back.status.success());
    assert!(back.stdout == data);
    let capped = piped(&["decompress", "--block", "--max-out", "1000"], &out.stdout);
    assert!(!capped.status.success());
    let hc = piped(&["-z9", "--block"], &data);
    assert!(hc.status.success());
    assert_eq!(
        &hc.stdout[4..],
        lz4_simd::block::compress_hc(&data, 9).unwrap()
    );
}

#[test]
fn bad_input_is_reported_not_panicked() {
    let raw_block = lz4_simd::block::compress(&sample(5000)).unwrap();
    for (input, needle) in [
        (&b"plain text"[..], "not LZ4 frame data"),
        (&raw_block[..], "raw LZ4 block"),
        (&[0x04, 0x22, 0x4d, 0x18, 0x64][..], "truncated frame"),
    ] {
        let out = piped(&["-d"], input);
        assert!(!out.status.success());
        let stderr = stderr(&out);
        assert!(stderr.contains(needle), "{stderr}");
        assert!(stderr.contains("stdin"), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    // As lz4: --content-size on a pipe (no size known) writes a frame without it.
    let out = piped(&["--content-size"], b"abc");
    assert!(out.status.success());
    let info = lz4_simd::frame::read_frame_info(&out.stdout).unwrap();
    assert_eq!(info.content_size, None);
}

#[test]
fn default_output_names_and_modes() {
    let dir = scratch("names");
    let data = sample(300_000);
    std::fs::write(dir.join("f"), &data).unwrap();
    // -m names outputs as lz4 does: f -> f.lz4, then f.lz4 -> f (which needs -f to replace).
    let out = run_in(bin().args(["-m", "f"]), &dir);
    assert!(out.status.success(), "{}", stderr(&out));
    let framed = std::fs::read(dir.join("f.lz4")).unwrap();
    assert_eq!(lz4_simd::frame::decompress(&framed, 1 << 20).unwrap(), data);
    let out = run_in(bin().args(["-d", "-m", "f.lz4"]), &dir);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("already exists"), "{}", stderr(&out));
    std::fs::remove_file(dir.join("f")).unwrap();
    let out = run_in(bin().args(["-dm", "f.lz4"]), &dir);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read(dir.join("f")).unwrap(), data);
    // Without a mode, a file goes to f.lz4 whatever stdout is (lz4 1.10's rule): an existing
    // one is replaced only with -f.
    let out = run_in(bin().arg("f"), &dir);
    assert!(!out.status.success() && out.stdout.is_empty());
    assert!(stderr(&out).contains("already exists"), "{}", stderr(&out));
    std::fs::remove_file(dir.join("f.lz4")).unwrap();
    let out = run_in(bin().arg("f"), &dir);
    assert!(
        out.status.success() && out.stdout.is_empty(),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read(dir.join("f.lz4")).unwrap(), framed);
    // -t writes nothing and fails on bad data.
    let out = run_in(bin().args(["-t", "f.lz4"]), &dir);
    assert!(out.status.success() && out.stdout.is_empty());
    std::fs::write(dir.join("bad.lz4"), &framed[..framed.len() - 3]).unwrap();
    let out = run_in(bin().args(["-t", "bad.lz4"]), &dir);
    assert!(!out.status.success());
    // -c with --rm keeps the source (stdout is not durable).
    let out = run_in(bin().args(["-c", "--rm", "f"]), &dir);
    assert!(out.status.success());
    assert!(dir.join("f").exists());
    // --rm removes the source once the output file is complete.
    let out = run_in(bin().args(["--rm", "-f", "f", "g.lz4"]), &dir);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!dir.join("f").exists());
    let out = run_in(bin().args(["-d", "g.lz4", "f"]), &dir);
    assert!(out.status.success());
    assert_eq!(std::fs::read(dir.join("f")).unwrap(), data);
}

#[test]
fn names_are_bytes_not_text() {
    use std::os::unix::ffi::OsStrExt;
    let dir = scratch("bytes");
    let data = sample(1000);
    let name = std::ffi::OsStr::from_bytes(b"\xff\xfe");
    std::fs::write(dir.join(name), &data).unwrap();
    let out = run_in(bin().arg("-m").arg(name), &dir);
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::remove_file(dir.join(name)).unwrap();
    let out = run_in(
        bin()
            .args(["-d", "-m"])
            .arg(dir.join(name).with_extension("lz4")),
        &dir,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    // The same two bytes, not two U+FFFD.
    assert_eq!(std::fs::read(dir.join(name)).unwrap(), data);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
}

#[test]
fn no_line_per_file_on_stdout_or_with_several_inputs() {
    let dir = scratch("quiet");
    std::fs::write(dir.join("f"), sample(10_000)).unwrap();
    std::fs::write(dir.join("g"), sample(20_000)).unwrap();
    // As lz4: nothing on stderr when writing to stdout or with -m (unless -v).
    for args in [
        &["-c", "f"][..],
        &["-m", "f", "g"],
        &["-d", "-m", "-f", "f.lz4", "g.lz4"],
    ] {
        let out = run_in(bin().args(args), &dir);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        assert_eq!(stderr(&out), "", "{args:?}");
    }
    let out = run_in(bin().args(["-v", "-c", "f"]), &dir);
    assert!(stderr(&out).contains("Compressed"), "{}", stderr(&out));
}

#[test]
fn decompress_force_stdout_passes_other_data_through() {
    let text = sample(5000);
    // lz4 -dcf: data that is not LZ4 is copied as it is (as zcat -f does).
    let out = piped(&["-dcf"], &text);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(out.stdout == text);
    // Only with both -c and -f, and only when the input does not start with a frame.
    for args in [&["-dc"][..], &["-df"], &["-tcf"]] {
        assert!(!piped(args, &text).status.success(), "{args:?}");
    }
    assert!(!piped(&["-dcf"], b"ab").status.success());
    let mut trailing = lz4_simd::frame::compress(&text, &Default::default());
    trailing.extend_from_slice(b"garbage after the frame");
    assert!(!piped(&["-dcf"], &trailing).status.success());
    let framed = lz4_simd::frame::compress(&text, &Default::default());
    assert!(piped(&["-dcf"], &framed).stdout == text);
}

#[test]
fn a_dictionary_frame_header_may_arrive_in_pieces() {
    use std::io::Write;
    let dict = sample(70_000);
    let data = sample(100_000);
    let options = lz4_simd::frame::FrameOptions::new().dict_id(Some(7));
    let framed = lz4_simd::frame::compress_with_dictionary(&data, &dict, &options);
    let dir = scratch("dict-pieces");
    std::fs::write(dir.join("dict"), &dict).unwrap();
    let mut child = bin()
        .args(["-d", "-D", "dict"])
        .current_dir(&dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        // The magic and FLG first, the rest of the header later.
        stdin.write_all(&framed[..5]).unwrap();
        stdin.flush().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(200));
        stdin.write_all(&framed[5..]).unwrap();
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(out.stdout == data);
}

#[test]
fn usage_errors_and_help() {
    for args in [&["-y"][..], &["--nope"], &["-B3"]] {
        let out = piped(args, b"");
        assert!(!out.status.success(), "{args:?}");
        assert!(stderr(&out).contains("Incorrect parameters"), "{args:?}");
    }
    // Operands lz4 1.10 refuses without its usage text.
    for args in [&["a", "b", "c"][..], &["-c", "a", "b"]] {
        let out = piped(args, b"");
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(
            !stderr(&out).contains("Usage"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    for args in [&["-h"][..], &["-H"], &["-V"], &["--help"], &["--version"]] {
        let out = piped(args, b"");
        assert!(out.status.success(), "{args:?}");
        assert!(!out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn list_reads_headers_of_every_frame_kind() {
    let dir = scratch("list");
    let data = sample(300_000);
    let options = lz4_simd::frame::FrameOptions::new()
        .block_checksum(true)
        .content_size(true);
    let mut mixed = lz4_simd::frame::compress(&data, &options);
    mixed.extend(lz4_simd::frame::skippable_frame(3, b"meta").unwrap());
    mixed.extend(lz4_simd::frame::compress_legacy(&data, 1));
    std::fs::write(dir.join("mixed.lz4"), &mixed).unwrap();
    std::fs::write(
        dir.join("sized.lz4"),
        lz4_simd::frame::compress(&data, &options),
    )
    .unwrap();
    std::fs::write(dir.join("cut.lz4"), &mixed[..1000]).unwrap();
    let out = run_in(bin().args(["--list", "sized.lz4", "mixed.lz4"]), &dir);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<Vec<&str>> = text
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(lines[0][0], "Frames");
    assert_eq!(lines[1][..3], ["1", "LZ4Frame", "B6I"]);
    assert_eq!(lines[1][4..], ["292.97K", lines[1][5], "sized.lz4"]);
    // What the frames do not share shows as `-`, as in lz4's table.
    assert_eq!(&lines[2][..3], ["3", "-", "-"]);
    assert_eq!(lines[2][4], "-");
    let out = run_in(bin().args(["--list", "-v", "mixed.lz4"]), &dir);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("SkippableFrame") && text.contains("LegacyFrame"),
        "{text}"
    );
    let out = run_in(bin().args(["--list", "cut.lz4"]), &dir);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("truncated"), "{}", stderr(&out));
    // Offsets count from the start of the file.
    let mut trailing = lz4_simd::frame::compress(b"abc", &Default::default());
    let end = trailing.len();
    trailing.extend_from_slice(b"junk");
    std::fs::write(dir.join("trailing.lz4"), &trailing).unwrap();
    let out = run_in(bin().args(["--list", "trailing.lz4"]), &dir);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains(&format!("offset {end}:")),
        "{}",
        stderr(&out)
    );
    // What has no frames to walk is refused (a FIFO without waiting for a writer).
    std::fs::write(dir.join("empty"), b"").unwrap();
    assert!(std::process::Command::new("mkfifo")
        .arg(dir.join("fifo"))
        .status()
        .unwrap()
        .success());
    for (file, needle) in [
        ("empty", "empty"),
        ("fifo", "not a regular file"),
        ("/dev/null", "not a regular file"),
    ] {
        let out = run_in(bin().args(["--list", file]), &dir);
        assert!(!out.status.success(), "{file}");
        assert!(stderr(&out).contains(needle), "{file}: {}", stderr(&out));
    }
}

/// Runs `command` (a shell command line) under a pseudo-terminal (`script`), so that stdin,
/// stdout and stderr are a terminal; returns the exit status and everything the terminal got.
fn under_pty(dir: &std::path::Path, command: &str) -> Option<(bool, String)> {
    let out = std::process::Command::new("script")
        .args(["-qefc", command, "/dev/null"])
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .output()
        .ok()?;
    Some((
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    ))
}

#[test]
fn terminals_are_refused_and_the_progress_bar_shows_only_there() {
    let dir = scratch("tty");
    if under_pty(&dir, "true").is_none() {
        eprintln!("notice: `script` (util-linux) is not installed; skipping the terminal tests");
        return;
    }
    let exe = env!("CARGO_BIN_EXE_lz4-simd");
    std::fs::write(dir.join("f"), sample(100_000)).unwrap();
    // Output to a terminal: refused without -c, written with it (as lz4 1.10).
    let (ok, text) = under_pty(&dir, &format!("'{exe}' -z < f")).unwrap();
    assert!(!ok && text.contains("without -c"), "{text}");
    let (ok, text) = under_pty(&dir, &format!("'{exe}' -c f")).unwrap();
    assert!(ok && text.contains("\"M\u{18}"), "{text:?}");
    // Input from a terminal: refused, even with -f.
    for args in ["-d", "-df", "-f -c"] {
        let (ok, text) = under_pty(&dir, &format!("'{exe}' {args}")).unwrap();
        assert!(
            !ok && text.contains("refusing to read from a console"),
            "{args}: {text}"
        );
    }
    // With stdout a terminal, `f` is compressed to f.lz4 and `f.lz4` decompressed (unlz4).
    let (ok, text) = under_pty(&dir, &format!("'{exe}' f && rm f && '{exe}' f.lz4")).unwrap();
    assert!(ok, "{text}");
    assert_eq!(std::fs::read(dir.join("f")).unwrap(), sample(100_000));
    // A job of more than a second (its input stays open for 1.5 s, whatever the machine's
    // speed) shows a bar on a terminal, and nothing in a pipe.
    let slow_job = format!("(cat f; sleep 1.5) | '{exe}' -f - slow.lz4");
    let (ok, text) = under_pty(&dir, &slow_job).unwrap();
    assert!(ok, "{text}");
    assert!(
        text.contains("stdin ") && text.contains("/s"),
        "no progress bar on a terminal: {text:?}"
    );
    let out = run_in(
        std::process::Command::new("sh").args(["-c", &slow_job]),
        &dir,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stderr(&out).contains("/s"), "{}", stderr(&out));
}

/// Decompressed output to a file is sparse by default (whole aligned 4 KiB zero units become
/// holes), written whole with `--no-sparse`, and reads back identical either way: zero runs at
/// the start, in the middle, at the end, and shorter than a unit.
#[test]
fn decompressed_files_are_sparse_unless_no_sparse() {
    use std::os::unix::fs::MetadataExt;
    let dir = scratch("sparse");
    let mut data = vec![0u8; 3 << 20];
    data.extend(sample(100_000));
    data.extend(vec![0u8; 5000]);
    data.extend(sample(4095));
    data.extend(vec![0u8; (2 << 20) + 17]);
    let input = dir.join("data");
    std::fs::write(&input, &data).unwrap();
    let framed = dir.join("data.lz4");
    let out = run_in(bin().args(["-f", "data", "data.lz4"]), &dir);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut allocated = Vec::new();
    for (name, args) in [
        ("sparse", &["-d", "-f"][..]),
        ("explicit", &["-d", "-f", "--sparse"][..]),
        ("whole", &["-d", "-f", "--no-sparse"][..]),
    ] {
        let out = run_in(bin().args(args).arg(&framed).arg(name), &dir);
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        let path = dir.join(name);
        assert_eq!(std::fs::read(&path).unwrap(), data, "{name}");
        allocated.push(std::fs::metadata(&path).unwrap().blocks() * 512);
    }
    // `--no-sparse` allocates every byte; where the file system makes holes (most do), the
    // sparse outputs take at least 4 MiB less.
    assert!(allocated[2] >= data.len() as u64, "{allocated:?}");
    let probe = dir.join("probe");
    let file = std::fs::File::create(&probe).unwrap();
    file.set_len(1 << 20).unwrap();
    if std::fs::metadata(&probe).unwrap().blocks() == 0 {
        assert!(allocated[0] + (4 << 20) <= allocated[2], "{allocated:?}");
        assert_eq!(allocated[0], allocated[1]);
    }
    // To standard output the bytes are written whole (and the same).
    let out = piped(&["-dc"], &std::fs::read(&framed).unwrap());
    assert!(out.status.success());
    assert_eq!(out.stdout, data);
}

/// `-d -D`: the dictionary serves every frame whatever dictionary ID its header names (as in
/// `lz4`), also frames after the first naming other IDs.
#[test]
fn a_dictionary_decodes_frames_naming_any_id() {
    use lz4_simd::frame::{self, FrameOptions};
    let dir = scratch("dict-any-id");
    let dict = sample(80_000);
    let content = dict[5_000..60_000].to_vec();
    let mut stream = Vec::new();
    for id in [Some(7), None, Some(0xDEAD_BEEF)] {
        stream.extend(frame::compress_with_dictionary(
            &content,
            &dict,
            &FrameOptions::new().dict_id(id),
        ));
    }
    std::fs::write(dir.join("dict"), &dict).unwrap();
    std::fs::write(dir.join("s.lz4"), &stream).unwrap();
    let out = run_in(bin().args(["-d", "-D", "dict", "s.lz4", "s"]), &dir);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read(dir.join("s")).unwrap(), content.repeat(3));
}

/// `--container NAME`: every container through files and pipes, `-t` on each, `--list`
/// recognising lz4-java and ClickHouse files by themselves and the others when named; Kafka
/// frames decode with `lz4`; `lz4 -l` output with a kernel's size trailer decodes with
/// `--container linux`.
#[test]
fn containers_round_trip_and_are_listed() {
    let dir = scratch("containers");
    let data = sample(700_000);
    std::fs::write(dir.join("data"), &data).unwrap();
    let names = [
        "hadoop",
        "kafka",
        "kafka-v0",
        "lz4-java",
        "prefixed-le32",
        "prefixed-be32",
        "prefixed-varint",
        "clickhouse",
        "linux",
    ];
    for name in names {
        let packed = format!("data.{name}");
        let out = run_in(
            bin().args(["-f", "--container", name, "data", &packed]),
            &dir,
        );
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        let out = run_in(
            bin().args(["-d", "-f", &format!("--container={name}"), &packed, "back"]),
            &dir,
        );
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        assert!(std::fs::read(dir.join("back")).unwrap() == data, "{name}");
        let out = run_in(bin().args(["-t", "--container", name, &packed]), &dir);
        assert!(out.status.success(), "{name} -t: {}", stderr(&out));
        // Through pipes.
        let bytes = std::fs::read(dir.join(&packed)).unwrap();
        let out = piped(&["-dc", "--container", name], &bytes);
        assert!(out.status.success(), "{name} pipe: {}", stderr(&out));
        assert!(out.stdout == data, "{name} pipe");
        // Listed: by itself (java, clickhouse) or when named.
        let recognised = matches!(name, "lz4-java" | "clickhouse");
        let mut list = bin();
        list.arg("--list");
        if !recognised {
            list.args(["--container", name]);
        }
        let out = run_in(list.arg(&packed), &dir);
        assert!(out.status.success(), "{name} --list: {}", stderr(&out));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains(name), "{name} --list: {text}");
    }
    // A corrupt container is an error naming it, and leaves no output.
    let mut bad = std::fs::read(dir.join("data.clickhouse")).unwrap();
    bad[20] ^= 1;
    std::fs::write(dir.join("bad.clickhouse"), &bad).unwrap();
    let out = run_in(
        bin().args(["-d", "--container", "clickhouse", "bad.clickhouse", "bad"]),
        &dir,
    );
    assert!(!out.status.success());
    assert!(!dir.join("bad").exists());
    let out = run_in(bin().args(["--container", "zip", "data"]), &dir);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("unknown container"),
        "{}",
        stderr(&out)
    );
    // Peers: Kafka frames are LZ4 frames; `lz4 -l` plus a size trailer is a kernel image.
    if let Some(mut lz4) = common::lz4() {
        let out = run_in(lz4.args(["-dc", "data.kafka"]), &dir);
        assert!(
            out.status.success() && out.stdout == data,
            "lz4 -d of kafka"
        );
        let out = run_in(
            common::lz4().unwrap().args(["-l", "-f", "data", "kernel"]),
            &dir,
        );
        assert!(out.status.success());
        let mut image = std::fs::read(dir.join("kernel")).unwrap();
        image.extend_from_slice(&(data.len() as u32).to_le_bytes());
        image.extend_from_slice(&[0u8; 12]);
        std::fs::write(dir.join("kernel"), &image).unwrap();
        let out = run_in(bin().args(["-dc", "--container", "linux", "kernel"]), &dir);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(out.stdout == data);
        // Plain -d accepts the trailer of legacy input too (`lz4` refuses it, `unlz4` not).
        let out = run_in(bin().args(["-dc", "kernel"]), &dir);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(out.stdout == data);
        let out = run_in(common::lz4().unwrap().args(["-dc", "kernel"]), &dir);
        assert!(!out.status.success(), "lz4 1.9.4 refuses the trailer");
    }
}

/// `-T#`: the same bytes for every thread count (independent and linked blocks, HC).
#[test]
fn thread_counts_write_the_same_bytes() {
    let dir = scratch("threads");
    std::fs::write(dir.join("data"), sample(3_000_000)).unwrap();
    for args in [&["-B4"][..], &["-B4D"][..], &["-B5", "-9", "-BX"][..]] {
        let mut outputs = Vec::new();
        for threads in ["-T1", "-T2", "-T0", "-T3"] {
            let out = run_in(bin().args(args).args([threads, "-f", "-c", "data"]), &dir);
            assert!(out.status.success(), "{args:?} {threads}: {}", stderr(&out));
            outputs.push(out.stdout);
        }
        assert!(outputs.windows(2).all(|w| w[0] == w[1]), "{args:?}");
    }
}

/// `-d -T#`: every thread count decodes to the same bytes with the same verdict: independent
/// blocks of 64 KiB and 4 MiB (decoded ahead on the other threads), linked blocks, `-D`,
/// a legacy frame with a kernel image's trailer, and corrupt inputs (a block, the content
/// checksum, a truncated frame), to stdout and to a file (left untouched on failure).
#[test]
fn thread_counts_decode_the_same() {
    let dir = scratch("threads-decode");
    let data = sample(5_000_000);
    std::fs::write(dir.join("data"), &data).unwrap();
    std::fs::write(dir.join("dict"), sample(70_000)).unwrap();
    let mut inputs = Vec::new();
    for (name, args) in [
        ("b4", &["-B4"][..]),
        ("b7", &["-B7"][..]),
        ("b4d", &["-B4D"][..]),
        ("dict", &["-B4", "-D", "dict"][..]),
        ("legacy", &["-l"][..]),
    ] {
        let out = run_in(bin().args(args).args(["-f", "-c", "data"]), &dir);
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        inputs.push((name, out.stdout));
    }
    let mut kernel = inputs[4].1.clone();
    kernel.extend_from_slice(&(data.len() as u32).to_le_bytes());
    kernel.extend_from_slice(&[0; 9]);
    inputs.push(("kernel", kernel));
    let b4 = inputs[0].1.clone();
    let mut bad_block = b4.clone();
    bad_block[200_000] ^= 0x40;
    inputs.push(("bad-block", bad_block));
    let mut bad_checksum = b4.clone();
    *bad_checksum.last_mut().unwrap() ^= 1;
    inputs.push(("bad-checksum", bad_checksum));
    inputs.push(("truncated", b4[..b4.len() - 1000].to_vec()));
    for (name, framed) in &inputs {
        std::fs::write(dir.join(format!("{name}.lz4")), framed).unwrap();
        let dict_args: &[&str] = if *name == "dict" {
            &["-D", "dict"]
        } else {
            &[]
        };
        let mut results = Vec::new();
        for threads in ["-T1", "-T2", "-T0", "-T4"] {
            let input = format!("{name}.lz4");
            let out = run_in(
                bin().args(dict_args).args(["-d", threads, "-c", &input]),
                &dir,
            );
            let ok = out.status.success();
            assert_eq!(
                ok,
                !name.starts_with("bad") && *name != "truncated",
                "{name} {threads}"
            );
            if ok {
                assert!(out.stdout == data, "{name} {threads}");
            }
            // To a file: on failure the existing file is left as it was.
            std::fs::write(dir.join("out"), b"before").unwrap();
            let to_file = run_in(
                bin()
                    .args(dict_args)
                    .args(["-d", "-f", threads, &input, "out"]),
                &dir,
            );
            assert_eq!(to_file.status.success(), ok, "{name} {threads}");
            let written = std::fs::read(dir.join("out")).unwrap();
            assert!(
                if ok {
                    written == data
                } else {
                    written == b"before"
                },
                "{name} {threads}"
            );
            let message = stderr(&out);
            results.push((out.status.code(), out.stdout, message));
        }
        for (result, threads) in results[1..].iter().zip(["-T2", "-T0", "-T4"]) {
            assert!(result.1 == results[0].1, "{name} {threads}: content");
            assert_eq!(
                (result.0, &result.2),
                (results[0].0, &results[0].2),
                "{name} {threads}"
            );
        }
    }
}

/// `-vv` says what `-T` came to for a file, so the tests can tell that the threads `-T` asks for
/// reach the decoder: `-T2` and `-T4` on several, `-T1` on one, a pipe on one whatever `-T`
/// says (reading ahead would hold back blocks that have arrived), and without `-T` a file
/// smaller than 64 MiB on one.
#[test]
fn very_verbose_says_how_many_threads_decode() {
    let dir = scratch("threads-verbose");
    let data = sample(3_000_000);
    std::fs::write(dir.join("data"), &data).unwrap();
    let framed = run_in(bin().args(["-f", "-c", "data"]), &dir).stdout;
    std::fs::write(dir.join("data.lz4"), &framed).unwrap();
    let several = "threads for frames of independent blocks";
    for (threads, expected) in [
        (Some("-T2"), format!("data.lz4: 2 {several}")),
        (Some("-T4"), format!("data.lz4: 4 {several}")),
        (Some("-T1"), "data.lz4: one thread".to_owned()),
        (None, "data.lz4: one thread".to_owned()),
    ] {
        let out = run_in(
            bin().args(["-vv", "-d", "-c", "data.lz4"]).args(threads),
            &dir,
        );
        assert!(out.status.success(), "{threads:?}: {}", stderr(&out));
        assert!(out.stdout == data, "{threads:?}");
        let message = stderr(&out);
        assert!(message.contains(&expected), "{threads:?}: {message}");
        // From a pipe: one thread.
        let out = piped(
            &[&["-vv", "-d", "-c"][..], threads.as_slice()].concat(),
            &framed,
        );
        assert!(out.status.success() && out.stdout == data, "{threads:?}");
        assert!(stderr(&out).contains(": one thread"), "{threads:?}: pipe");
    }
    // At -v, nothing is said (as `lz4 -v`, which names the file only in its summary).
    let verbose = run_in(bin().args(["-v", "-d", "-T2", "-c", "data.lz4"]), &dir);
    assert!(!stderr(&verbose).contains("thread"));
}

/// A kernel image whose legacy frame follows an LZ4 frame, with the size trailer of the whole
/// content: `--list` reads it as `-d` does.
#[test]
fn list_reads_a_kernel_image_that_decode_reads() {
    let dir = scratch("list-mixed-image");
    let first = sample(100_000);
    let second = sample(120_000);
    let mut image = lz4_simd::frame::compress(&first, &Default::default());
    image.extend_from_slice(&lz4_simd::frame::compress_legacy(&second, 1));
    image.extend_from_slice(&((first.len() + second.len()) as u32).to_le_bytes());
    image.extend_from_slice(&[0; 12]);
    std::fs::write(dir.join("mixed.img"), &image).unwrap();
    let decoded = run_in(bin().args(["-d", "-c", "mixed.img"]), &dir);
    assert!(decoded.status.success(), "-d: {}", stderr(&decoded));
    assert!(decoded.stdout == [first, second].concat());
    let listed = run_in(bin().args(["--list", "mixed.img"]), &dir);
    assert!(listed.status.success(), "--list: {}", stderr(&listed));
}

/// Outputs larger than several early-writeback windows (8 MiB: the writeback thread starts and
/// runs while the output is written) are complete and identical, sparse or not, compressed or
/// decompressed; a zero run longer than a window, a window boundary inside a hole, and a file
/// ending in a hole included.
#[test]
fn outputs_spanning_writeback_windows_are_complete() {
    let dir = scratch("writeback");
    let mut data = sample(9 << 20);
    data.extend(vec![0u8; (9 << 20) + 4096]);
    data.extend(sample(3 << 20));
    data.extend(vec![0u8; 1 << 20]);
    std::fs::write(dir.join("data"), &data).unwrap();
    let out = run_in(bin().args(["-f", "-B4", "data", "data.lz4"]), &dir);
    assert!(out.status.success(), "{}", stderr(&out));
    let framed = std::fs::read(dir.join("data.lz4")).unwrap();
    assert_eq!(
        lz4_simd::frame::decompress(&framed, 64 << 20).unwrap(),
        data
    );
    for (name, args) in [
        ("sparse", &["-d", "-f"][..]),
        ("whole", &["-d", "-f", "--no-sparse"][..]),
    ] {
        let out = run_in(bin().args(args).arg("data.lz4").arg(name), &dir);
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        assert!(std::fs::read(dir.join(name)).unwrap() == data, "{name}");
    }
}

/// `-qq` silences errors too (as `lz4`'s display level 0), single job or several, and the exit
/// status still reports the failure; `-q` keeps them.
#[test]
fn errors_are_silent_only_with_qq() {
    let dir = scratch("qq");
    std::fs::write(dir.join("bad.lz4"), b"garbage").unwrap();
    std::fs::write(dir.join("kept"), b"old").unwrap();
    for args in [
        &["-qq", "-d", "bad.lz4", "out"][..],
        &["-qq", "-d", "-m", "bad.lz4"][..],
        &["-qq", "-z", "bad.lz4", "kept"][..],
    ] {
        let out = run_in(bin().args(args), &dir);
        assert!(!out.status.success(), "{args:?}");
        assert_eq!(stderr(&out), "", "{args:?}");
    }
    let out = run_in(bin().args(["-q", "-d", "bad.lz4", "out"]), &dir);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("bad.lz4"), "{}", stderr(&out));
    assert_eq!(std::fs::read(dir.join("kept")).unwrap(), b"old");
    assert!(!dir.join("out").exists() && !dir.join("bad").exists());
}

/// What `-b`, `-h`, `-H` and `-V` print on standard output cannot be written (`> /dev/full`):
/// the run fails with a message naming standard output, and does not panic.
#[test]
fn printing_to_a_full_standard_output_fails_without_a_panic() {
    let dir = scratch("print-full");
    std::fs::write(dir.join("f"), sample(10_000)).unwrap();
    for args in [&["-b1", "-i0", "f"][..], &["-h"], &["-H"], &["-V"]] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = bin()
            .args(args)
            .current_dir(&dir)
            .stdin(std::process::Stdio::null())
            .stdout(full)
            .env("RUST_BACKTRACE", "0")
            .output()
            .unwrap();
        let text = stderr(&out);
        assert!(!out.status.success(), "{args:?}: {text}");
        assert!(!text.contains("panicked"), "{args:?}: {text}");
        assert!(text.contains("stdout"), "{args:?}: {text}");
    }
}
