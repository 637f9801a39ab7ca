//! What lz4 1.10 changed or defines and `lz4-simd` follows: a named file never goes to standard
//! output without `-c`; the names `lz4cat`, `unlz4` and `lz4c`; `-D stdin`; the benchmark modes
//! (`-b` on built-in samples, levels, `-i0`, `-b -d`); `--list`'s table; `-B#` in bytes;
//! `--sparse` on standard output; exit codes; the usage text only after usage errors. Where the reference
//! `lz4` 1.10 binary is named by `LZ4_SIMD_LZ4_110=/path/to/lz4`, outputs are compared with
//! its; without it those comparisons are skipped with a notice.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{bin, piped, run_in, run_with_stdin, sample, scratch, stderr};

/// The reference `lz4` 1.10 binary, if `LZ4_SIMD_LZ4_110` names one.
fn reference() -> Option<PathBuf> {
    match std::env::var_os("LZ4_SIMD_LZ4_110") {
        Some(path) if Path::new(&path).is_file() => Some(PathBuf::from(path)),
        _ => {
            // CI names the binary and requires the peers: a wrong name must fail there, not
            // skip every comparison.
            if std::env::var("LZ4_SIMD_REQUIRE_PEERS").is_ok_and(|v| v == "1") {
                panic!("LZ4_SIMD_LZ4_110 names no lz4 1.10 binary (LZ4_SIMD_REQUIRE_PEERS=1)");
            }
            eprintln!("notice: LZ4_SIMD_LZ4_110 names no lz4 1.10 binary; comparison skipped");
            None
        }
    }
}

/// `lz4-simd` under another name: a symbolic link `name` in `dir`.
fn named(dir: &Path, name: &str) -> Command {
    let link = dir.join(name);
    if !link.exists() {
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_lz4-simd"), &link).unwrap();
    }
    Command::new(link)
}

fn ok(out: &Output, what: &str) {
    assert!(out.status.success(), "{what}: {}", stderr(out));
}

#[test]
fn a_named_file_goes_to_a_file_whatever_stdout_is() {
    let dir = scratch("no-implicit-stdout");
    let data = sample(50_000);
    std::fs::write(dir.join("f"), &data).unwrap();
    // stdout is a pipe here: lz4 before 1.10 wrote there, 1.10 writes f.lz4.
    let out = run_in(bin().args(["--rm", "-f", "f"]), &dir);
    ok(&out, "--rm -f f");
    assert!(out.stdout.is_empty());
    assert!(!dir.join("f").exists() && dir.join("f.lz4").exists());
    let out = run_in(bin().args(["-d", "f.lz4"]), &dir);
    ok(&out, "-d f.lz4");
    assert!(out.stdout.is_empty());
    assert_eq!(std::fs::read(dir.join("f")).unwrap(), data);
    // Standard input still goes to standard output.
    let out = piped(&[], &data);
    ok(&out, "stdin");
    assert_eq!(
        lz4_simd::frame::decompress(&out.stdout, 1 << 20).unwrap(),
        data
    );
}

#[test]
fn lz4cat_unlz4_and_lz4c_are_lz4s() {
    let dir = scratch("names-argv0");
    let data = sample(40_000);
    std::fs::write(dir.join("f"), &data).unwrap();
    ok(&run_in(bin().args(["f", "f.lz4"]), &dir), "compress");
    let framed = std::fs::read(dir.join("f.lz4")).unwrap();
    // lz4cat: every input decoded to stdout; what is not LZ4 is copied; stdin without a file.
    let out = run_in(named(&dir, "lz4cat").args(["f.lz4", "f"]), &dir);
    ok(&out, "lz4cat f.lz4 f");
    assert_eq!(out.stdout, [&data[..], &data[..]].concat());
    let out = run_with_stdin(named(&dir, "lz4cat"), &framed);
    ok(&out, "lz4cat < f.lz4");
    assert_eq!(out.stdout, data);
    let out = run_with_stdin(named(&dir, "lz4cat"), b"plain text\n");
    ok(&out, "lz4cat < plain");
    assert_eq!(out.stdout, b"plain text\n");
    // With an extension (lz4cat.sh), as lz4 matches it.
    let out = run_in(named(&dir, "lz4cat.sh").arg("f.lz4"), &dir);
    ok(&out, "lz4cat.sh");
    assert_eq!(out.stdout, data);
    // unlz4: decompresses to the name without .lz4, not to stdout; never compresses again.
    std::fs::remove_file(dir.join("f")).unwrap();
    let out = run_in(named(&dir, "unlz4").args(["--rm", "f.lz4"]), &dir);
    ok(&out, "unlz4 --rm f.lz4");
    assert!(out.stdout.is_empty());
    assert_eq!(std::fs::read(dir.join("f")).unwrap(), data);
    assert!(!dir.join("f.lz4").exists() && !dir.join("f.lz4.lz4").exists());
    let out = run_with_stdin(named(&dir, "unlz4"), &framed);
    ok(&out, "unlz4 < f.lz4");
    assert_eq!(out.stdout, data);
    // lz4c: the old options -hc (level 12) and -y (overwrite).
    ok(&run_in(bin().args(["-12", "f", "hc.lz4"]), &dir), "-12");
    std::fs::write(dir.join("old.lz4"), b"old").unwrap();
    let out = run_in(
        named(&dir, "lz4c").args(["-hc", "-y", "f", "old.lz4"]),
        &dir,
    );
    ok(&out, "lz4c -hc -y");
    assert_eq!(
        std::fs::read(dir.join("old.lz4")).unwrap(),
        std::fs::read(dir.join("hc.lz4")).unwrap()
    );
    // Under its own name, -hc is -h then -c: help.
    let out = run_in(bin().arg("-hc"), &dir);
    ok(&out, "-hc");
    assert!(String::from_utf8_lossy(&out.stdout).contains("Usage"));
}

#[test]
fn the_dictionary_may_come_from_stdin() {
    let dir = scratch("dict-stdin");
    let dict = sample(70_000);
    let data = sample(100_000)[30_000..].to_vec();
    std::fs::write(dir.join("dict"), &dict).unwrap();
    std::fs::write(dir.join("data"), &data).unwrap();
    let mut command = bin();
    command
        .current_dir(&dir)
        .args(["-D", "stdin", "data", "-c"]);
    let out = run_with_stdin(command, &dict);
    ok(&out, "-D stdin");
    let with_file = run_in(bin().args(["-D", "dict", "data", "-c"]), &dir);
    assert_eq!(out.stdout, with_file.stdout);
    std::fs::write(dir.join("data.lz4"), &out.stdout).unwrap();
    let back = run_in(bin().args(["-d", "-D", "dict", "data.lz4", "-c"]), &dir);
    ok(&back, "-d -D dict");
    assert_eq!(back.stdout, data);
}

#[test]
fn benchmark_modes() {
    let dir = scratch("bench-modes");
    std::fs::write(dir.join("f"), sample(200_000)).unwrap();
    // No file: the built-in samples, one pass with -i0.
    let out = run_in(bin().args(["-bi0"]), &dir);
    ok(&out, "-bi0");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    for row in [
        "text",
        "logs",
        "json",
        "runs",
        "random",
        "total",
        "decode kernel",
    ] {
        assert!(text.contains(row), "{row}: {text}");
    }
    // A range of levels, on a file: one table each.
    let out = run_in(bin().args(["-b1e3i0", "-B4", "f"]), &dir);
    ok(&out, "-b1e3i0");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    for level in ["level 1,", "level 2,", "level 3,"] {
        assert!(text.contains(level), "{level}: {text}");
    }
    assert!(text.contains("block size 65536"), "{text}");
    // -b -d: the decompression of a .lz4 file, which is neither written nor replaced.
    ok(&run_in(bin().args(["f", "f.lz4"]), &dir), "compress");
    for args in [&["-bdi0", "f.lz4"][..], &["-d", "-b", "-i0", "f.lz4"]] {
        let out = run_in(bin().args(args), &dir);
        ok(&out, &format!("{args:?}"));
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let row = text.lines().find(|l| l.starts_with("f.lz4")).unwrap();
        assert!(row.contains(" 200000 "), "{text}");
    }
    assert_eq!(std::fs::read(dir.join("f")).unwrap(), sample(200_000));
    // Not LZ4: an error.
    assert!(!run_in(bin().args(["-bdi0", "f"]), &dir).status.success());
    // -D: blocks compressed and decoded with the dictionary, fast and HC; -b -d decodes frames
    // with it.
    std::fs::write(dir.join("dict"), sample(300_000)).unwrap();
    for level in ["-b1i0", "-b9i0"] {
        let out = run_in(bin().args([level, "-D", "dict", "f"]), &dir);
        ok(&out, level);
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(text.contains("with a dictionary of 65536 bytes"), "{text}");
        assert!(text.contains("all round trips verified"), "{text}");
    }
    ok(
        &run_in(bin().args(["-D", "dict", "f", "fd.lz4"]), &dir),
        "-D",
    );
    let out = run_in(bin().args(["-bdi0", "-D", "dict", "fd.lz4"]), &dir);
    ok(&out, "-bdi0 -D");
    assert!(String::from_utf8_lossy(&out.stdout).contains(" 200000 "));
    // `bench` with no file of that name is the benchmark (`-b`) on the built-in samples.
    let out = run_in(bin().args(["bench", "-i0"]), &dir);
    ok(&out, "lz4-simd bench -i0");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("kernel"),
        "{out:?}"
    );
    // With a file named `bench` there, it is that file, as for lz4.
    std::fs::write(dir.join("bench"), b"a file named bench").unwrap();
    ok(&run_in(bin().arg("bench"), &dir), "lz4-simd bench");
    let framed = std::fs::read(dir.join("bench.lz4")).unwrap();
    assert_eq!(
        lz4_simd::frame::decompress(&framed, 100).unwrap(),
        b"a file named bench"
    );
}

#[test]
fn list_prints_lz4s_table() {
    let dir = scratch("list-110");
    let data = sample(300_000);
    std::fs::write(dir.join("d"), &data).unwrap();
    for (args, name) in [
        (&["--content-size"][..], "sized.lz4"),
        (&["-l"], "legacy.lz4"),
        (&["-BD", "-B5", "--no-frame-crc"], "linked.lz4"),
    ] {
        ok(
            &run_in(bin().args(args).args(["-f", "d", name]), &dir),
            name,
        );
    }
    let all: Vec<u8> = ["sized.lz4", "legacy.lz4", "linked.lz4"]
        .iter()
        .flat_map(|name| std::fs::read(dir.join(name)).unwrap())
        .collect();
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("sub/all.lz4"), all).unwrap();
    let files = ["sized.lz4", "legacy.lz4", "linked.lz4", "sub/all.lz4"];
    let out = run_in(bin().arg("--list").args(files), &dir);
    ok(&out, "--list");
    let text = String::from_utf8(out.stdout).unwrap();
    let sized_len = std::fs::metadata(dir.join("sized.lz4")).unwrap().len();
    let expected = format!(
        "{:>10} {:>14} {:>5} {:>11} {:>13} {:>8}   {}\n",
        "Frames", "Type", "Block", "Compressed", "Uncompressed", "Ratio", "Filename"
    );
    assert!(text.starts_with(&expected), "{text}");
    // The ratio is followed by two spaces and the name by one; folders are left out.
    let ratio = sized_len as f64 * 100.0 / 300_000.0;
    assert!(
        text.contains(&format!("292.97K {ratio:>8.2}%  sized.lz4 \n")),
        "{text}"
    );
    assert!(text.ends_with(&format!("{:>8}   all.lz4\n", "-")), "{text}");
    let verbose = run_in(bin().args(["--list", "-v"]).args(files), &dir);
    ok(&verbose, "--list -v");
    let verbose = String::from_utf8(verbose.stdout).unwrap();
    assert!(verbose.starts_with("sized.lz4(1/4)\n     Frame           Type Block Checksum"));
    // Without a file name lz4 lists nothing (the header alone) and succeeds.
    let mut command = bin();
    command.arg("--list");
    let out = run_with_stdin(command, b"");
    ok(&out, "--list < empty");
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected);
    let Some(lz4) = reference() else { return };
    for args in [&["--list"][..], &["--list", "-v"], &["--list", "-m"]] {
        let ours = run_in(bin().args(args).args(files), &dir);
        let theirs = run_in(Command::new(&lz4).args(args).args(files), &dir);
        assert_eq!(
            String::from_utf8_lossy(&ours.stdout),
            String::from_utf8_lossy(&theirs.stdout),
            "{args:?}"
        );
    }
}

#[test]
fn block_sizes_in_bytes_pick_the_frame_block_size() {
    let dir = scratch("block-bytes");
    std::fs::write(dir.join("f"), sample(600_000)).unwrap();
    // As lz4 1.10: the frame of -B# is that of the smallest -B4..-B7 holding # bytes.
    for (bytes, code) in [
        ("32", "4"),
        ("65536", "4"),
        ("100000", "5"),
        ("2000000", "7"),
    ] {
        let ours = run_in(bin().args([&format!("-B{bytes}"), "-c", "f"]), &dir);
        ok(&ours, bytes);
        let named = run_in(bin().args([&format!("-B{code}"), "-c", "f"]), &dir);
        assert!(ours.stdout == named.stdout, "-B{bytes} is not -B{code}");
        if let Some(lz4) = reference() {
            let theirs = run_in(
                Command::new(lz4).args([&format!("-B{bytes}"), "-c", "f"]),
                &dir,
            );
            assert!(
                ours.stdout == theirs.stdout,
                "-B{bytes}: bytes differ from lz4's"
            );
        }
    }
    for bad in ["-B3", "-B8", "-B31"] {
        assert!(
            !run_in(bin().args([bad, "-c", "f"]), &dir).status.success(),
            "{bad}"
        );
    }
}

#[test]
fn sparse_on_standard_output_only_when_asked() {
    use std::os::unix::fs::MetadataExt;
    let dir = scratch("sparse-stdout");
    let mut data = sample(100_000);
    data.extend(vec![0u8; 8 << 20]);
    data.extend(sample(1000));
    data.extend(vec![0u8; 1 << 20]);
    std::fs::write(dir.join("z"), &data).unwrap();
    ok(&run_in(bin().args(["z", "z.lz4"]), &dir), "compress");
    let blocks = |name: &str| std::fs::metadata(dir.join(name)).unwrap().blocks() * 512;
    // A file output is sparse by default: where the file system keeps no holes, only the
    // content is compared.
    ok(&run_in(bin().args(["-d", "z.lz4", "by-name"]), &dir), "-d");
    let holes = blocks("by-name") < (4 << 20);
    for (args, name, sparse) in [
        (&["-d", "-c", "--sparse", "z.lz4"][..], "sparse", true),
        (&["-d", "-c", "z.lz4"], "default", false),
    ] {
        let file = std::fs::File::create(dir.join(name)).unwrap();
        let out = bin()
            .args(args)
            .current_dir(&dir)
            .stdout(file)
            .output()
            .unwrap();
        ok(&out, name);
        assert!(std::fs::read(dir.join(name)).unwrap() == data, "{name}");
        if holes {
            assert_eq!(
                blocks(name) < (4 << 20),
                sparse,
                "{name}: {} bytes",
                blocks(name)
            );
        }
    }
    // On a pipe, --sparse writes the zeros (lz4 1.10 fails there with exit 69).
    let out = run_in(bin().args(["-d", "-c", "--sparse", "z.lz4"]), &dir);
    ok(&out, "--sparse to a pipe");
    assert!(out.stdout == data);
}

#[test]
fn exit_codes_are_lz4s() {
    let dir = scratch("exit-codes");
    let data = sample(200_000);
    std::fs::write(dir.join("f"), &data).unwrap();
    ok(&run_in(bin().args(["f", "f.lz4"]), &dir), "compress");
    ok(&run_in(bin().args(["-l", "f", "legacy.lz4"]), &dir), "-l");
    let framed = std::fs::read(dir.join("f.lz4")).unwrap();
    let legacy = std::fs::read(dir.join("legacy.lz4")).unwrap();
    let mut corrupt = framed.clone();
    corrupt[100] ^= 0xff;
    let mut checksum = framed.clone();
    let at = checksum.len() - 2;
    checksum[at] ^= 0xff;
    for (name, bytes) in [
        ("cut.lz4", &framed[..20]),
        ("corrupt.lz4", &corrupt[..]),
        ("checksum.lz4", &checksum[..]),
        ("legacy-cut.lz4", &legacy[..50]),
        ("garbage.lz4", b"garbage here"),
    ] {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    // (arguments, lz4 1.10's exit code, whether it is a usage error)
    let cases: &[(&[&str], i32, bool)] = &[
        (&["-d", "garbage.lz4", "o"], 44, false),
        (&["-qq", "-d", "garbage.lz4", "o"], 44, false),
        (&["-d", "cut.lz4", "o"], 26, false),
        (&["-t", "corrupt.lz4"], 34, false),
        (&["-d", "checksum.lz4", "o"], 34, false),
        (&["-d", "legacy-cut.lz4", "o"], 63, false),
        (&["-m", "miss1", "miss2", "miss3"], 3, false),
        (&["-D", "nodict", "f", "-c"], 27, false),
        (&["-bi0", "nofile"], 10, false),
        (&["missing"], 1, false),
        (&["f", "f.lz4"], 1, false),
        (&["-d", "f"], 1, true),
        (&["-B3", "f"], 1, true),
        (&["--fast=0", "f"], 1, true),
    ];
    let lz4 = reference();
    for (args, code, usage) in cases {
        let out = run_in(bin().args(*args), &dir);
        let _ = std::fs::remove_file(dir.join("o"));
        assert_eq!(out.status.code(), Some(*code), "{args:?}: {}", stderr(&out));
        assert_eq!(
            stderr(&out).contains("Usage"),
            *usage,
            "{args:?}: {}",
            stderr(&out)
        );
        if let Some(lz4) = &lz4 {
            let theirs = run_in(Command::new(lz4).args(*args), &dir);
            let _ = std::fs::remove_file(dir.join("o"));
            assert_eq!(theirs.status.code(), Some(*code), "lz4 {args:?}");
        }
    }
}

/// lz4 1.10's exit codes where the input is not a whole stream of frames: 1 to 3 bytes (no magic
/// number to read: 40), and a frame followed by 4 bytes that start no frame (34, the frame type
/// unknown); a frame followed by 1 to 3 bytes is truncated (26).
#[test]
fn exit_codes_of_short_inputs_and_data_after_a_frame_are_lz4s() {
    let dir = scratch("exit-codes-after-frame");
    let data = sample(10_000);
    std::fs::write(dir.join("f"), &data).unwrap();
    ok(&run_in(bin().args(["f", "f.lz4"]), &dir), "compress");
    let framed = std::fs::read(dir.join("f.lz4")).unwrap();
    for (name, bytes) in [
        ("two.lz4", b"ab".to_vec()),
        ("zeros-after.lz4", [&framed[..], &[0u8; 16][..]].concat()),
        (
            "text-after.lz4",
            [&framed[..], &b"garbage text"[..]].concat(),
        ),
        ("cut-magic-after.lz4", [&framed[..], &b"ab"[..]].concat()),
    ] {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    let cases: &[(&[&str], i32)] = &[
        (&["-d", "two.lz4", "o"], 40),
        (&["-t", "two.lz4"], 40),
        (&["-d", "zeros-after.lz4", "o"], 34),
        (&["-t", "text-after.lz4"], 34),
        (&["-d", "cut-magic-after.lz4", "o"], 26),
    ];
    let lz4 = reference();
    for (args, code) in cases {
        let out = run_in(bin().args(*args), &dir);
        assert_eq!(out.status.code(), Some(*code), "{args:?}: {}", stderr(&out));
        assert!(!dir.join("o").exists(), "{args:?} left an output");
        if let Some(lz4) = &lz4 {
            let theirs = run_in(Command::new(lz4).args(*args), &dir);
            let _ = std::fs::remove_file(dir.join("o"));
            assert_eq!(theirs.status.code(), Some(*code), "lz4 {args:?}");
        }
    }
}

/// lz4 1.10's exit codes when the output cannot be written (`/dev/full`): 42 for a frame
/// compressed in one call (an input under 4 MiB), 38 for the blocks of a longer frame or of a
/// legacy frame, 73 for decoded content written with holes (the default to a file), 70 without
/// them (`--no-sparse`, standard output). Outputs of 1 MB and more: `lz4` does not check the
/// last buffered bytes it closes its output with, so smaller failures pass there unseen.
#[test]
fn exit_codes_of_outputs_that_cannot_be_written_are_lz4s() {
    let full = Path::new("/dev/full");
    if !full.exists() {
        eprintln!("notice: no /dev/full; write failures not tested");
        return;
    }
    let dir = scratch("exit-codes-write");
    std::fs::write(dir.join("small"), sample(1_500_000)).unwrap();
    std::fs::write(dir.join("large"), sample(5 << 20)).unwrap();
    ok(
        &run_in(bin().args(["small", "small.lz4"]), &dir),
        "compress",
    );
    let cases: &[(&[&str], bool, i32)] = &[
        (&["-f", "small", "/dev/full"], false, 42),
        (&["-c", "small"], true, 42),
        (&["-f", "large", "/dev/full"], false, 38),
        (&["-c", "-T2", "large"], true, 38),
        (&["-l", "-f", "small", "/dev/full"], false, 38),
        (&["-d", "-f", "small.lz4", "/dev/full"], false, 73),
        (
            &["-d", "--no-sparse", "-f", "small.lz4", "/dev/full"],
            false,
            70,
        ),
        (&["-dc", "small.lz4"], true, 70),
        (&["-dc", "-T2", "small.lz4"], true, 70),
    ];
    let lz4 = reference();
    let run = |mut command: Command, to_stdout: bool| {
        if to_stdout {
            command.stdout(std::fs::OpenOptions::new().write(true).open(full).unwrap());
        }
        run_in(&mut command, &dir)
    };
    for (args, to_stdout, code) in cases {
        let mut ours = bin();
        ours.args(*args);
        let out = run(ours, *to_stdout);
        assert_eq!(out.status.code(), Some(*code), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("No space left"),
            "{args:?}: {}",
            stderr(&out)
        );
        if let Some(lz4) = &lz4 {
            let mut theirs = Command::new(lz4);
            theirs.args(*args);
            assert_eq!(
                run(theirs, *to_stdout).status.code(),
                Some(*code),
                "lz4 {args:?}"
            );
        }
    }
}

/// lz4 1.10's exit codes of `-b` with nothing to measure (directories, which are skipped, and
/// empty files: 12) and of `--list` on a file whose last frame is followed by 1 to 3 bytes (no
/// magic number to read: 40).
#[test]
fn exit_codes_of_benchmarks_without_data_and_lists_cut_short_are_lz4s() {
    let dir = scratch("exit-codes-bench-list");
    std::fs::create_dir_all(dir.join("d")).unwrap();
    std::fs::write(dir.join("empty"), b"").unwrap();
    std::fs::write(dir.join("f"), sample(10_000)).unwrap();
    ok(&run_in(bin().args(["f", "f.lz4"]), &dir), "compress");
    let framed = std::fs::read(dir.join("f.lz4")).unwrap();
    std::fs::write(dir.join("cut.lz4"), [&framed[..], &b"ab"[..]].concat()).unwrap();
    let cases: &[(&[&str], i32)] = &[
        (&["-b1", "-i0", "d"], 12),
        (&["-b1", "-i0", "empty"], 12),
        (&["-b1", "-i0", "d", "empty"], 12),
        (&["-b1", "-i0", "d", "f"], 0),
        (&["--list", "cut.lz4"], 40),
        (&["--list", "f.lz4", "cut.lz4"], 40),
    ];
    let lz4 = reference();
    for (args, code) in cases {
        let out = run_in(bin().args(*args), &dir);
        assert_eq!(out.status.code(), Some(*code), "{args:?}: {}", stderr(&out));
        if let Some(lz4) = &lz4 {
            let theirs = run_in(Command::new(lz4).args(*args), &dir);
            assert_eq!(theirs.status.code(), Some(*code), "lz4 {args:?}");
        }
    }
}

/// `--rm` where the source's directory refuses the removal: lz4 1.10's exit codes, 50 after
/// compressing and 45 after decompressing, with the source and the complete output kept. Run
/// as `nobody` (through `setpriv`) when the tests run as root, whom no permission stops.
#[test]
fn rm_refused_by_the_directory_exits_as_lz4_110() {
    use std::os::unix::fs::{chown, PermissionsExt};
    let root = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|line| line.strip_prefix("Uid:"))
                .map(|uids| uids.split_whitespace().next() == Some("0"))
        })
        .unwrap_or(false);
    let has_setpriv = Command::new("setpriv").arg("--version").output().is_ok();
    if root && !has_setpriv {
        eprintln!("notice: running as root without setpriv; test skipped");
        return;
    }
    let dir = scratch("rm-refused");
    let sources = dir.join("sources");
    let outputs = dir.join("outputs");
    std::fs::create_dir_all(&sources).unwrap();
    std::fs::create_dir_all(&outputs).unwrap();
    let data = sample(20_000);
    std::fs::write(sources.join("s"), &data).unwrap();
    let framed = run_in(bin().args(["-c", "s"]), &sources);
    ok(&framed, "-c s");
    std::fs::write(sources.join("f.lz4"), &framed.stdout).unwrap();
    std::fs::set_permissions(&outputs, std::fs::Permissions::from_mode(0o777)).unwrap();
    if root {
        for name in ["s", "f.lz4"] {
            chown(sources.join(name), Some(65534), Some(65534)).unwrap();
        }
    }
    std::fs::set_permissions(&sources, std::fs::Permissions::from_mode(0o555)).unwrap();
    let as_user = |args: &[&str]| {
        let mut command = if root {
            let mut command = Command::new("setpriv");
            command
                .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
                .arg(env!("CARGO_BIN_EXE_lz4-simd"));
            command
        } else {
            bin()
        };
        command.args(args);
        run_in(&mut command, &sources)
    };
    let out_s = outputs.join("s.lz4");
    let out_f = outputs.join("f");
    let compressed = as_user(&["-q", "--rm", "s", out_s.to_str().unwrap()]);
    let decompressed = as_user(&["-q", "-d", "--rm", "f.lz4", out_f.to_str().unwrap()]);
    std::fs::set_permissions(&sources, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(
        compressed.status.code(),
        Some(50),
        "{}",
        stderr(&compressed)
    );
    assert_eq!(
        decompressed.status.code(),
        Some(45),
        "{}",
        stderr(&decompressed)
    );
    assert!(std::fs::read(sources.join("s")).unwrap() == data);
    assert!(std::fs::read(sources.join("f.lz4")).unwrap() == framed.stdout);
    assert!(std::fs::read(&out_s).unwrap() == framed.stdout);
    assert!(std::fs::read(&out_f).unwrap() == data);
}

/// `--content-size` over a file whose size the system gives as 0 though it has content (a file
/// of `/proc`): lz4 1.10 takes 0 as "unknown" and declares no content size, whatever the block
/// options.
#[test]
fn content_size_of_a_file_sized_zero_is_not_declared() {
    let Some(lz4) = reference() else { return };
    let source = Path::new("/proc/version");
    if std::fs::metadata(source).map_or(true, |meta| meta.len() != 0) {
        eprintln!("notice: no /proc/version of size 0; comparison skipped");
        return;
    }
    let dir = scratch("content-size-sized-zero");
    for extra in [&[][..], &["-BD", "-B4"], &["-BX"], &["-D", "/proc/version"]] {
        let mut args = vec!["--content-size", "-c"];
        args.extend_from_slice(extra);
        args.push("/proc/version");
        let ours = run_in(bin().args(&args), &dir);
        ok(&ours, &format!("{args:?}"));
        let theirs = run_in(Command::new(&lz4).args(&args), &dir);
        ok(&theirs, &format!("lz4 {args:?}"));
        assert!(
            ours.stdout == theirs.stdout,
            "{args:?}: bytes differ from lz4 1.10 (frame descriptor {:02x?}, lz4 1.10 {:02x?})",
            &ours.stdout[4..6],
            &theirs.stdout[4..6]
        );
    }
}

/// lz4 1.10 compresses an input shorter than 4 MiB in one `LZ4F_compressFrame` call: linked
/// blocks (`-BD`) each continue the one before in the same buffer. Two blocks and more, fast and
/// HC levels, with and without a dictionary, on one and two threads.
#[test]
fn linked_frames_under_4_mib_are_lz4_110s() {
    let Some(lz4) = reference() else { return };
    let dir = scratch("linked-110");
    std::fs::write(dir.join("dict"), sample(70_000)).unwrap();
    for (len, name) in [(140_000usize, "a"), (1_000_000, "b"), ((4 << 20) - 1, "c")] {
        std::fs::write(dir.join(name), sample(len)).unwrap();
        for level in ["-1", "--fast=3", "-3", "-9"] {
            for extra in [&[][..], &["-D", "dict"], &["-BX", "--content-size"]] {
                for threads in ["-T1", "-T2"] {
                    let mut args = vec![level, "-B4D", threads, "-c"];
                    args.extend_from_slice(extra);
                    args.push(name);
                    let ours = run_in(bin().args(&args), &dir);
                    ok(&ours, &format!("{args:?}"));
                    let theirs = run_in(Command::new(&lz4).args(&args), &dir);
                    ok(&theirs, &format!("lz4 {args:?}"));
                    assert!(
                        ours.stdout == theirs.stdout,
                        "{args:?}: bytes differ from lz4 1.10"
                    );
                }
            }
        }
    }
}

/// lz4 1.10 compresses a longer input in 4 MiB chunks: with linked blocks (`-BD`) each chunk
/// after the first starts from the previous chunk's last 64 KiB loaded as a dictionary
/// (`LZ4_loadDict`, `LZ4_loadDictHC`, which turns `--favor-decSpeed` off). Exactly one chunk,
/// two and a byte, several and a part; fast and HC levels (the middle parser, hash chains,
/// optimal parsing), block sizes, checksums, content size, a dictionary (the first chunk's), two
/// threads, standard input; every frame decodes to the input.
#[test]
fn linked_frames_of_4_mib_and_more_are_lz4_110s() {
    let Some(lz4) = reference() else { return };
    let dir = scratch("linked-chunks-110");
    std::fs::write(dir.join("dict"), sample(70_000)).unwrap();
    let cases: &[&[&str]] = &[
        &["-1", "-BD"],
        &["-1", "-B4D", "-T2"],
        &["--fast=5", "-B5D", "-BX"],
        &["-1", "-B6D", "--content-size", "--no-frame-crc"],
        &["-1", "-B4D", "-D", "dict"],
    ];
    // HC levels on the input of two chunks and a byte.
    let hc_cases: &[&[&str]] = &[
        &["-9", "-BD"],
        &["-2", "-B5D", "-BX"],
        &["-3", "-B4D", "-T2"],
        &["-12", "-B4D", "--favor-decSpeed"],
        &["-10", "-B6D", "--content-size"],
        &["-9", "-B4D", "-D", "dict"],
    ];
    for (len, name) in [(4usize << 20, "a"), ((8 << 20) + 1, "b"), (13_000_000, "c")] {
        let content = sample(len);
        std::fs::write(dir.join(name), &content).unwrap();
        let hc = if name == "b" { hc_cases } else { &[] };
        for case in cases.iter().chain(hc) {
            let mut args = case.to_vec();
            args.extend(["-c", name]);
            let ours = run_in(bin().args(&args), &dir);
            ok(&ours, &format!("{args:?}"));
            let theirs = run_in(Command::new(&lz4).args(&args), &dir);
            ok(&theirs, &format!("lz4 {args:?}"));
            assert!(
                ours.stdout == theirs.stdout,
                "{args:?}: bytes differ from lz4 1.10"
            );
            let decoded = match case.contains(&"dict") {
                true => {
                    let dict = std::fs::read(dir.join("dict")).unwrap();
                    lz4_simd::frame::decompress_with_dictionary(&ours.stdout, &dict, 0, len)
                }
                false => lz4_simd::frame::decompress(&ours.stdout, len),
            };
            assert!(
                decoded.unwrap() == content,
                "{args:?}: does not decode to the input"
            );
        }
    }
    // From standard input (no size known, read until it ends).
    let content = std::fs::read(dir.join("b")).unwrap();
    let mut ours = bin();
    ours.args(["-1", "-BD", "-c"]);
    let mut theirs = Command::new(&lz4);
    theirs.args(["-1", "-BD", "-c"]);
    let (ours, theirs) = (
        run_with_stdin(ours, &content),
        run_with_stdin(theirs, &content),
    );
    assert!(
        ours.stdout == theirs.stdout,
        "stdin: bytes differ from lz4 1.10"
    );
}

#[test]
fn dictionary_compression_writes_lz4_110s_bytes() {
    // lz4 1.10 prepares the dictionary with `LZ4F_createCDict` (`LZ4_loadDictSlow` at the fast
    // levels, so 1.9.4's bytes differ there); inputs shorter and longer than a block.
    let Some(lz4) = reference() else { return };
    let dir = scratch("dict-110");
    std::fs::write(dir.join("dict"), sample(100_000).repeat(2)).unwrap();
    let inputs = [(1000usize, "short"), (300_000, "mid"), (5_000_000, "long")];
    for (len, name) in inputs {
        std::fs::write(dir.join(name), sample(len)).unwrap();
    }
    let levels: &[&str] = &["-1", "-3", "-9", "-12", "--fast=4"];
    let blocks: &[&[&str]] = &[
        &[],
        &["-BD"],
        &["-B4"],
        &["-B4", "-BD"],
        &["-BX"],
        &["-B4", "-BX", "--content-size"],
        &["--content-size"],
    ];
    for (len, name) in inputs {
        for level in levels {
            // HC at 5 MB is slow in a debug build; -B4 covers HC over several blocks.
            if len > 1 << 20 && !matches!(*level, "-1" | "--fast=4") {
                continue;
            }
            for block in blocks {
                // Linked blocks over several blocks differ from lz4 1.10's with or without a
                // dictionary (its multi-threaded reader); one linked block is compared.
                let block_len = if block.contains(&"-B4") {
                    64 << 10
                } else {
                    4 << 20
                };
                if block.contains(&"-BD") && len > block_len {
                    continue;
                }
                for threads in ["-T1", "-T2"] {
                    let mut args = vec![*level, threads, "-D", "dict"];
                    args.extend_from_slice(block);
                    args.extend(["-c", name]);
                    let ours = run_in(bin().args(&args), &dir);
                    ok(&ours, &format!("{args:?}"));
                    let theirs = run_in(Command::new(&lz4).args(&args), &dir);
                    ok(&theirs, &format!("lz4 {args:?}"));
                    assert!(
                        ours.stdout == theirs.stdout,
                        "{args:?}: {} bytes, lz4 1.10 {}",
                        ours.stdout.len(),
                        theirs.stdout.len()
                    );
                }
            }
        }
    }
}

/// An input of exactly one block (64 KiB with `-B4D`, 256 KiB with `-B5D`, 1 MiB with `-B6D`)
/// is one frame of one block, which lz4 1.10 writes in one call (`LZ4F_compressFrame`: a file
/// shorter than 4 MiB) with independent blocks, since no block follows to link to: the FLG
/// byte's block independence bit is set, with or without a dictionary, at every level. At
/// 4 MiB, 1.10 streams the file and keeps `-BD`.
#[test]
fn one_block_inputs_with_linked_blocks_are_written_as_lz4_110_writes_them() {
    let dir = scratch("one-block-linked");
    std::fs::write(dir.join("dict"), sample(100_000)).unwrap();
    let lz4 = reference();
    for (len, block, independent) in [
        (64usize << 10, "-B4D", true),
        (256 << 10, "-B5D", true),
        (1 << 20, "-B6D", true),
        (4 << 20, "-B7D", false),
        ((64 << 10) - 1, "-B4D", true),
    ] {
        std::fs::write(dir.join("f"), sample(len)).unwrap();
        for extra in [
            &[][..],
            &["-9"],
            &["-D", "dict"],
            &["--content-size", "-BX"],
        ] {
            let mut args = vec!["-c", block];
            args.extend_from_slice(extra);
            args.push("f");
            let out = run_in(bin().args(&args), &dir);
            ok(&out, &format!("{args:?}"));
            // FLG: bit 5 is block independence.
            assert_eq!(
                out.stdout[4] & 0x20 != 0,
                independent,
                "{len} bytes, {args:?}: FLG {:#04x}",
                out.stdout[4]
            );
            if let Some(lz4) = &lz4 {
                let theirs = run_in(Command::new(lz4).args(&args), &dir);
                assert!(theirs.stdout == out.stdout, "{len} bytes, {args:?}");
            }
        }
    }
}

/// With `-m`, every input skipped because its output cannot be named (no `.lz4` to strip) counts
/// in the exit status as a failed input does, as lz4 1.10 counts them: 2 for two such inputs.
#[test]
fn inputs_skipped_for_their_names_count_in_the_exit_status() {
    let dir = scratch("skipped-count");
    let data = sample(10_000);
    for name in ["a", "b"] {
        std::fs::write(dir.join(name), &data).unwrap();
    }
    ok(&run_in(bin().args(["a", "x.lz4"]), &dir), "compress");
    let lz4 = reference();
    for args in [
        &["-d", "-m", "a", "b"][..],
        &["-d", "-m", "a", "b", "x.lz4"],
    ] {
        let _ = std::fs::remove_file(dir.join("x"));
        let out = run_in(bin().args(args), &dir);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        if let Some(lz4) = &lz4 {
            let _ = std::fs::remove_file(dir.join("x"));
            let theirs = run_in(Command::new(lz4).args(args), &dir);
            assert_eq!(theirs.status.code(), Some(2), "lz4 {args:?}");
        }
    }
}

/// `-l` (legacy frames) at the levels below 3 and `--fast=N`: lz4 1.10 compresses a legacy
/// block with the fast compressor below level 3 (`-l -2` too, where frames use HC), at
/// acceleration N for `--fast=N` (frames use N + 1) and 1 otherwise.
#[test]
fn legacy_frames_at_fast_levels_are_lz4_110s() {
    let dir = scratch("legacy-fast");
    let data = sample(300_000);
    std::fs::write(dir.join("f"), &data).unwrap();
    let lz4 = reference();
    for (level, acceleration) in [
        ("-1", 1u32),
        ("-2", 1),
        ("--fast=1", 1),
        ("--fast=2", 2),
        ("--fast=7", 7),
    ] {
        let args = ["-c", "-l", level, "f"];
        let out = run_in(bin().args(args), &dir);
        ok(&out, &format!("{args:?}"));
        assert!(
            out.stdout == lz4_simd::frame::compress_legacy(&data, acceleration),
            "{args:?}: not the legacy frame at acceleration {acceleration}"
        );
        if let Some(lz4) = &lz4 {
            let theirs = run_in(Command::new(lz4).args(args), &dir);
            assert!(theirs.stdout == out.stdout, "{args:?}");
        }
    }
}

/// The line lz4 1.10 prints after each file at the default level, which scripts read:
/// `Compressed N bytes into M bytes ==> R%` (R: M / N in percent, N taken as 1 when 0), and
/// `NAME : decoded N bytes ` (the name padded or cut to 30 columns) after `-d` and `-t`; as
/// the last line of standard error, after the progress line lz4 clears with `\r`.
#[test]
fn the_line_after_each_file_is_lz4_110s() {
    let dir = scratch("summary-line");
    std::fs::write(dir.join("f"), sample(100_000)).unwrap();
    std::fs::write(dir.join("empty"), b"").unwrap();
    let last_line = |out: &Output| {
        let text = stderr(out);
        let line = text.lines().last().unwrap_or("").to_string();
        line.rsplit('\r').next().unwrap_or("").to_string()
    };
    let lz4 = reference();
    for (args, output) in [
        (&["f", "f.lz4"][..], Some("f.lz4")),
        (&["-l", "f", "legacy.lz4"], Some("legacy.lz4")),
        (&["empty", "empty.lz4"], Some("empty.lz4")),
        (&["-d", "f.lz4", "back"], None),
        (&["-t", "f.lz4"], None),
    ] {
        for name in ["f.lz4", "legacy.lz4", "empty.lz4", "back"] {
            if output == Some(name) || (name == "back" && args[0] == "-d") {
                let _ = std::fs::remove_file(dir.join(name));
            }
        }
        let out = run_in(bin().args(args), &dir);
        ok(&out, &format!("{args:?}"));
        let expected = match output {
            Some(name) => {
                let read = std::fs::metadata(dir.join(args[args.len() - 2]))
                    .unwrap()
                    .len();
                let written = std::fs::metadata(dir.join(name)).unwrap().len();
                let ratio = written as f64 / read.max(1) as f64 * 100.0;
                let space = if args[0] == "-l" { " " } else { "" };
                format!("Compressed {read} bytes into {written} bytes ==> {ratio:.2}%{space}")
            }
            None => format!("{:<30} : decoded 100000 bytes ", "f.lz4"),
        };
        assert_eq!(last_line(&out), expected, "{args:?}");
        if let Some(lz4) = &lz4 {
            if let Some(name) = output {
                std::fs::remove_file(dir.join(name)).unwrap();
            }
            let _ = std::fs::remove_file(dir.join("back"));
            let theirs = run_in(Command::new(lz4).args(args), &dir);
            assert_eq!(last_line(&theirs), expected, "lz4 {args:?}");
        }
    }
}

/// `stdin` names standard input also as the one input of `-m` and `lz4cat` (as `-` does), as
/// lz4 1.10 reads it there: `lz4cat stdin < f.lz4` decodes standard input.
#[test]
fn stdin_as_the_one_input_of_a_list_is_standard_input() {
    let dir = scratch("stdin-in-list");
    let data = sample(20_000);
    let framed = lz4_simd::frame::compress(&data, &lz4_simd::frame::FrameOptions::default());
    for (program, args) in [("lz4cat", &["stdin"][..]), ("lz4cat", &["-"])] {
        let mut command = named(&dir, program);
        command.args(args).current_dir(&dir);
        let out = run_with_stdin(command, &framed);
        ok(&out, &format!("{program} {args:?}"));
        assert!(out.stdout == data, "{program} {args:?}");
    }
    let mut command = bin();
    command.args(["-d", "-m", "-c", "stdin"]).current_dir(&dir);
    let out = run_with_stdin(command, &framed);
    ok(&out, "-d -m -c stdin");
    assert!(out.stdout == data);
}
