//! Data safety: whatever goes wrong, the source and any existing output are byte for byte as
//! they were, and no temporary file is left behind. Each test sets up files, makes the command
//! fail (or refuse), and checks every file in the directory against what it held before.

mod common;

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

use common::{bin, run_in, sample, scratch, stderr};

/// Every regular file in `dir` (by name) and its bytes.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.file_type().unwrap().is_file() {
            files.insert(name, std::fs::read(entry.path()).unwrap());
        } else {
            files.insert(name, b"(not a regular file)".to_vec());
        }
    }
    files
}

/// Runs `args` in a directory holding `files`; it must fail and leave every file as it was.
fn fails_and_changes_nothing(name: &str, files: &[(&str, &[u8])], args: &[&str], needle: &str) {
    let dir = scratch(name);
    for (file, content) in files {
        std::fs::write(dir.join(file), content).unwrap();
    }
    let before = snapshot(&dir);
    let out = run_in(bin().args(args), &dir);
    assert!(!out.status.success(), "{name}: {args:?} succeeded");
    assert!(
        stderr(&out).contains(needle),
        "{name}: {args:?}: expected {needle:?} in {}",
        stderr(&out)
    );
    assert!(
        snapshot(&dir) == before,
        "{name}: {args:?} changed the directory"
    );
}

#[test]
fn input_equal_to_output_is_refused() {
    let data = sample(5_000_000);
    let framed = lz4_simd::frame::compress(&data, &Default::default());
    // The arguments, and the file standard input reads (standard input and the dictionary are
    // inputs too).
    for (args, stdin) in [
        (&["compress", "x", "x"][..], None),
        (&["-f", "x", "x"], None),
        (&["-f", "x", "./x"], None),
        (&["-z", "-f", "x", "hard"], None),
        (&["-z", "-f", "x", "soft"], None),
        (&["-z", "-f", "soft", "x"], None),
        (&["-d", "-f", "x.lz4", "x.lz4"], None),
        (&["decompress", "x.lz4", "x.lz4"], None),
        (&["-d", "-f", "x.lz4", "soft.lz4"], None),
        (&["-f", "-", "x"], Some("x")),
        (&["-f", "stdin", "hard"], Some("x")),
        (&["-d", "-f", "-", "x.lz4"], Some("x.lz4")),
        (&["-d", "-f", "-", "soft.lz4"], Some("x.lz4")),
        (&["-f", "-D", "dict", "x", "dict"], None),
        (&["-d", "-f", "-D", "soft", "x.lz4", "x"], None),
    ] {
        let dir = scratch("same-file");
        std::fs::write(dir.join("x"), &data).unwrap();
        std::fs::write(dir.join("x.lz4"), &framed).unwrap();
        std::fs::write(dir.join("dict"), &data[..1000]).unwrap();
        std::fs::hard_link(dir.join("x"), dir.join("hard")).unwrap();
        std::os::unix::fs::symlink("x", dir.join("soft")).unwrap();
        std::os::unix::fs::symlink("x.lz4", dir.join("soft.lz4")).unwrap();
        let before = snapshot(&dir);
        let stdin = match stdin {
            Some(file) => Stdio::from(std::fs::File::open(dir.join(file)).unwrap()),
            None => Stdio::null(),
        };
        let out = bin()
            .args(args)
            .current_dir(&dir)
            .stdin(stdin)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?}");
        assert!(
            stderr(&out).contains("same file"),
            "{args:?}: {}",
            stderr(&out)
        );
        assert!(snapshot(&dir) == before, "{args:?} changed a file");
    }
    // A dictionary read from standard input would leave no input to compress.
    let out = common::piped(&["-D", "-"], &data);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("both be standard input"),
        "{}",
        stderr(&out)
    );
}

/// Runs `args` in a directory holding `files`; it must fail, name `needle`, leave every file
/// of `files` as it was and no temporary file; returns the directory.
fn fails_but_keeps_inputs(files: &[(&str, &[u8])], args: &[&str], needle: &str) -> PathBuf {
    let dir = scratch("keeps");
    for (file, content) in files {
        std::fs::write(dir.join(file), content).unwrap();
    }
    let out = run_in(bin().args(args), &dir);
    assert!(!out.status.success(), "{args:?} succeeded");
    assert!(stderr(&out).contains(needle), "{args:?}: {}", stderr(&out));
    let after = snapshot(&dir);
    for (file, content) in files {
        assert!(after[*file] == *content, "{args:?} changed {file}");
    }
    assert!(
        after.keys().all(|name| !name.ends_with(".lz4-simd-tmp")),
        "{args:?} left a temporary file"
    );
    dir
}

#[test]
fn multiple_inputs_naming_one_file_twice_are_refused() {
    let a = sample(1000);
    let framed = lz4_simd::frame::compress(&a, &Default::default());
    let decode = |bytes: &[u8]| lz4_simd::frame::decompress(bytes, 1 << 20).unwrap();
    // Both would write a.lz4: the first does, the second is refused, the run fails.
    let dir = fails_but_keeps_inputs(&[("a", &a)], &["-m", "a", "./a"], "more than one");
    assert_eq!(decode(&std::fs::read(dir.join("a.lz4")).unwrap()), a);
    // With -f one file named twice is compressed twice to the same output, as lz4 -f does.
    let dir = scratch("twice-forced");
    std::fs::write(dir.join("a"), &a).unwrap();
    let out = run_in(bin().args(["-m", "-f", "a", "./a"]), &dir);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(decode(&std::fs::read(dir.join("a.lz4")).unwrap()), a);
    // Two inputs whose outputs are one file (a link to a.lz4 named b.lz4): refused with -f too.
    let dir = scratch("two-to-one");
    std::fs::write(dir.join("a"), &a).unwrap();
    std::fs::write(dir.join("b"), &framed).unwrap();
    std::fs::write(dir.join("a.lz4"), b"old").unwrap();
    std::os::unix::fs::symlink("a.lz4", dir.join("b.lz4")).unwrap();
    let out = run_in(bin().args(["-m", "-f", "a", "b"]), &dir);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("more than one"), "{}", stderr(&out));
    assert_eq!(decode(&std::fs::read(dir.join("a.lz4")).unwrap()), a);
    // The second input is the first one's output: the first job is refused (with -f too),
    // the second runs.
    let files: &[(&str, &[u8])] = &[("a", &a), ("a.lz4", &framed)];
    let dir = fails_but_keeps_inputs(files, &["-m", "-f", "a", "a.lz4"], "same file");
    assert_eq!(
        decode(&std::fs::read(dir.join("a.lz4.lz4")).unwrap()),
        framed
    );
    let files: &[(&str, &[u8])] = &[("a.lz4", &framed), ("a.lz4.lz4", &framed)];
    let args = ["-d", "-m", "-f", "a.lz4.lz4", "a.lz4"];
    let dir = fails_but_keeps_inputs(files, &args, "same file");
    assert_eq!(std::fs::read(dir.join("a")).unwrap(), a);
}

#[test]
fn recursion_skips_what_it_must_not_touch_and_does_the_rest() {
    let dir = scratch("recursive");
    let tree = dir.join("tree");
    std::fs::create_dir_all(tree.join("sub")).unwrap();
    let (a, b) = (sample(5000), sample(7000));
    let b_framed = lz4_simd::frame::compress(&b, &Default::default());
    std::fs::write(tree.join("a"), &a).unwrap();
    std::fs::write(tree.join("sub/b"), &b).unwrap();
    std::fs::write(tree.join("sub/b.lz4"), &b_framed).unwrap();
    // A loop, a second way to `a`, and a FIFO (reading it would wait forever): not followed.
    std::os::unix::fs::symlink("..", tree.join("sub/up")).unwrap();
    std::os::unix::fs::symlink("a", tree.join("link")).unwrap();
    assert!(Command::new("mkfifo")
        .arg(tree.join("fifo"))
        .status()
        .unwrap()
        .success());
    std::os::unix::fs::symlink("tree/sub", dir.join("named-link")).unwrap();
    let out = run_in(bin().args(["-r", "-f", "tree", "missing"]), &dir);
    // `missing` and sub/b -> sub/b.lz4 (an input of the run) are refused; the rest is done.
    assert!(!out.status.success());
    let text = stderr(&out);
    assert!(
        text.contains("missing") && text.contains("same file"),
        "{text}"
    );
    let decode = |path: &str| {
        lz4_simd::frame::decompress(&std::fs::read(dir.join(path)).unwrap(), 1 << 20).unwrap()
    };
    assert_eq!(decode("tree/a.lz4"), a);
    assert_eq!(decode("tree/sub/b.lz4.lz4"), b_framed);
    assert_eq!(std::fs::read(tree.join("sub/b.lz4")).unwrap(), b_framed);
    for name in ["link.lz4", "fifo.lz4", "sub/up.lz4"] {
        assert!(!tree.join(name).exists(), "{name}");
    }
    // A directory named through a symbolic link is followed.
    let out = run_in(bin().args(["-r", "-t", "named-link"]), &dir);
    assert!(!out.status.success(), "sub/b is not LZ4");
    assert!(stderr(&out).contains("named-link/b:"), "{}", stderr(&out));
}

#[test]
fn standard_output_onto_the_input_is_refused() {
    let dir = scratch("stdout-append");
    let data = sample(100_000);
    std::fs::write(dir.join("x"), &data).unwrap();
    let append = std::fs::OpenOptions::new()
        .append(true)
        .open(dir.join("x"))
        .unwrap();
    let out = bin()
        .args(["-c", "x"])
        .current_dir(&dir)
        .stdin(Stdio::null())
        .stdout(append)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert_eq!(std::fs::read(dir.join("x")).unwrap(), data);
}

#[test]
fn existing_output_is_not_replaced_without_force() {
    let a = sample(10_000);
    let files: &[(&str, &[u8])] = &[("a", &a), ("b", b"precious"), ("a.lz4", b"also precious")];
    for args in [&["a", "b"][..], &["compress", "a", "b"], &["-m", "a"]] {
        fails_and_changes_nothing("no-force", files, args, "already exists");
    }
    // With -f the output is replaced (and the source kept).
    let dir = scratch("force");
    std::fs::write(dir.join("a"), &a).unwrap();
    std::fs::write(dir.join("b"), b"old").unwrap();
    let out = run_in(bin().args(["-f", "a", "b"]), &dir);
    assert!(out.status.success(), "{}", stderr(&out));
    let framed = std::fs::read(dir.join("b")).unwrap();
    assert_eq!(lz4_simd::frame::decompress(&framed, 1 << 20).unwrap(), a);
    assert_eq!(std::fs::read(dir.join("a")).unwrap(), a);
}

#[test]
fn corrupt_and_truncated_input_leave_everything_intact() {
    let data = sample(3_000_000);
    let options =
        lz4_simd::frame::FrameOptions::new().block_size(lz4_simd::frame::BlockSize::Max64KB);
    let framed = lz4_simd::frame::compress(&data, &options);
    let mut corrupt = framed.clone();
    let middle = corrupt.len() / 2;
    corrupt[middle] ^= 0x55;
    let truncated = &framed[..framed.len() - 100];
    for (what, input) in [
        ("corrupt", &corrupt[..]),
        ("truncated", truncated),
        ("garbage", b"not lz4 at all"),
    ] {
        let files: &[(&str, &[u8])] = &[("in.lz4", input), ("out", b"existing output")];
        // On one thread and with blocks decoded ahead on two.
        for args in [
            &["-d", "-f", "in.lz4", "out"][..],
            &["-d", "-f", "--rm", "in.lz4", "out"],
            &["-d", "-T2", "-f", "in.lz4", "out"],
            &["-d", "-T2", "-f", "--rm", "in.lz4", "out"],
        ] {
            fails_and_changes_nothing(what, files, args, "in.lz4");
        }
        // The default name, with --rm: the source stays, no partial `in` appears.
        let files: &[(&str, &[u8])] = &[("in.lz4", input)];
        fails_and_changes_nothing(what, files, &["-d", "-m", "--rm", "in.lz4"], "in.lz4");
    }
}

#[test]
fn remove_source_keeps_it_when_nothing_is_written_to_disk() {
    let data = sample(20_000);
    let framed = lz4_simd::frame::compress(&data, &Default::default());
    for args in [
        &["-f", "--rm", "a", "/dev/null"][..],
        &["-f", "--rm", "a", "null"],
        &["-d", "-f", "--rm", "a.lz4", "/dev/null"],
        &["-t", "--rm", "a.lz4"],
        &["-c", "--rm", "a"],
        &["-m", "-c", "--rm", "a", "a.lz4"],
        // The dictionary itself, compressed with itself: the output needs it to be decoded.
        &["-f", "--rm", "-D", "a", "a", "out.lz4"],
    ] {
        let dir = scratch("rm-kept");
        std::fs::write(dir.join("a"), &data).unwrap();
        std::fs::write(dir.join("a.lz4"), &framed).unwrap();
        let mut before = snapshot(&dir);
        let out = run_in(bin().args(args), &dir);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("kept"), "{args:?}: {}", stderr(&out));
        let mut after = snapshot(&dir);
        after.remove("out.lz4");
        before.remove("out.lz4");
        assert!(after == before, "{args:?} changed the directory");
    }
}

#[test]
fn a_full_disk_fails_cleanly() {
    let data = sample(200_000);
    let files: &[(&str, &[u8])] = &[("a", &data)];
    fails_and_changes_nothing("dev-full", files, &["-f", "a", "/dev/full"], "/dev/full");
    fails_and_changes_nothing(
        "dev-full-rm",
        files,
        &["-f", "--rm", "a", "/dev/full"],
        "/dev/full",
    );
    // Decoding, on one thread and on two (with blocks in flight: 64 KiB blocks).
    let options =
        lz4_simd::frame::FrameOptions::new().block_size(lz4_simd::frame::BlockSize::Max64KB);
    let framed = lz4_simd::frame::compress(&data, &options);
    let framed_files: &[(&str, &[u8])] = &[("a.lz4", &framed)];
    for threads in ["-T1", "-T2"] {
        fails_and_changes_nothing(
            "dev-full-decode",
            framed_files,
            &["-d", threads, "-f", "--rm", "a.lz4", "/dev/full"],
            "/dev/full",
        );
    }
    // Without -f an existing device is not written either.
    fails_and_changes_nothing(
        "dev-full-noforce",
        files,
        &["a", "/dev/full"],
        "already exists",
    );
}

#[test]
fn a_file_size_limit_removes_the_temporary_file() {
    let data = sample(4_000_000);
    for args in [
        "-f a b",
        "-f --rm a b",
        "-d -f a.lz4 b",
        "-d -T2 -f --rm a.lz4 b",
    ] {
        let dir = scratch("fsize");
        std::fs::write(dir.join("a"), &data).unwrap();
        // 64 KiB blocks: with -T2, blocks are in flight when the limit is hit.
        let options =
            lz4_simd::frame::FrameOptions::new().block_size(lz4_simd::frame::BlockSize::Max64KB);
        std::fs::write(
            dir.join("a.lz4"),
            lz4_simd::frame::compress(&data, &options),
        )
        .unwrap();
        std::fs::write(dir.join("b"), b"existing output").unwrap();
        let before = snapshot(&dir);
        // 100 blocks of 512 bytes: the output cannot be written whole.
        let script = format!(
            "ulimit -f 100; exec '{}' {args}",
            env!("CARGO_BIN_EXE_lz4-simd")
        );
        let out = run_in(Command::new("sh").args(["-c", &script]), &dir);
        assert!(!out.status.success(), "{args}");
        assert!(
            stderr(&out).contains("too large"),
            "{args}: {}",
            stderr(&out)
        );
        assert!(snapshot(&dir) == before, "{args}: changed the directory");
    }
}

#[test]
fn long_names_are_written_through_a_short_temporary_name() {
    let dir = scratch("long-name");
    let data = sample(10_000);
    // 250 bytes: the output (254) is a valid name; `.NAME.XXXXXX.lz4-simd-tmp` would not be.
    let name = "n".repeat(250);
    std::fs::write(dir.join(&name), &data).unwrap();
    let out = run_in(bin().args(["-m", &name]), &dir);
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::remove_file(dir.join(&name)).unwrap();
    let out = run_in(bin().args(["-d", "-m", &format!("{name}.lz4")]), &dir);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read(dir.join(&name)).unwrap(), data);
    // A directory that is missing is named in the message.
    let out = run_in(bin().args(["-f", &name, "missing-dir/out"]), &dir);
    assert!(!out.status.success());
    let text = stderr(&out);
    assert!(text.contains("temporary file in missing-dir"), "{text}");
    assert!(!text.contains("lz4-simd-tmp"), "{text}");
}

/// Starts `command` in `dir` and waits until its temporary output holds at least `at_least`
/// bytes (the job is under way). If none does within 60 s, the job is killed and its messages
/// are shown.
fn start_job(command: &mut Command, dir: &Path, at_least: u64) -> std::process::Child {
    let mut child = command
        .current_dir(dir)
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(60) {
        let written = common::temporary_output_len(child.id(), dir);
        if written.is_some_and(|written| written >= at_least) {
            return child;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = child.kill();
    let out = child.wait_with_output().unwrap();
    panic!(
        "no temporary output of {at_least} bytes appeared: {:?}, {}",
        out.status,
        stderr(&out)
    );
}

/// Sends `signal` (a `kill` option: `-TERM`) to process `pid`.
fn send(signal: &str, pid: u32) {
    let status = Command::new("kill")
        .args([signal, &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success(), "kill {signal} {pid}");
}

/// Whether this process has signal `number` ignored (`SigIgn` in `/proc/self/status`), as a
/// child started from here inherits it.
fn ignored_here(number: i32) -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("SigIgn:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .is_some_and(|mask| mask & (1 << (number - 1)) != 0)
}

/// Runs `command` in a new directory `name` holding `files`, sends it SIG`signal` (`number`)
/// once its temporary output holds `at_least` bytes, and checks that it died of the signal and
/// left every file as it was (the temporary output gone). Tests nothing if this process has the
/// signal ignored.
fn killed_mid_job(
    name: &str,
    files: &[(&str, &[u8])],
    command: &mut Command,
    signal: (&str, i32),
    at_least: u64,
) {
    let (signal, number) = signal;
    if ignored_here(number) {
        // Started under `nohup` (SIGHUP) or as a background job (SIGINT, SIGQUIT): the job
        // inherits the signal ignored and rightly keeps it so (see the next test).
        eprintln!("notice: SIG{signal} is ignored in this environment; not tested");
        return;
    }
    let dir = scratch(&format!("{name}-{signal}"));
    for (file, content) in files {
        std::fs::write(dir.join(file), content).unwrap();
    }
    let before = snapshot(&dir);
    let child = start_job(command, &dir, at_least);
    send(&format!("-{signal}"), child.id());
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.signal(),
        Some(number),
        "{name} {signal}: {:?}",
        out.status
    );
    assert!(
        snapshot(&dir) == before,
        "{name} {signal}: changed the directory"
    );
}

#[test]
fn signals_in_the_middle_of_a_job_remove_the_temporary_file() {
    // HC at level 12 on 24 MB takes seconds even in a release build.
    let data = sample(24 << 20);
    let files: &[(&str, &[u8])] = &[("big", &data), ("big.lz4", b"existing output")];
    for signal in [("TERM", 15), ("INT", 2), ("HUP", 1), ("QUIT", 3)] {
        // Through `sh` with core dumps off (SIGQUIT's default action dumps core, which would
        // leave a `core` file in the directory); `exec` keeps the pid.
        let program = bin().get_program().to_owned();
        killed_mid_job(
            "signal",
            files,
            Command::new("sh")
                .args(["-c", "ulimit -c 0; exec \"$0\" \"$@\""])
                .arg(program)
                // One thread: the job must still be running when the signal arrives.
                .args(["-12", "-T1", "-f", "--rm", "big", "big.lz4"]),
            signal,
            0,
        );
    }
}

/// The same while blocks are decoded ahead on two threads: the signal may reach any thread of
/// the process, and the temporary output still goes.
#[test]
fn signals_while_decoding_on_threads_remove_the_temporary_file() {
    // 1 GiB of content (256 copies of one 4 MiB block, 7 MB compressed) written out whole
    // (`--no-sparse`): long enough that the job is still running when the signal arrives.
    let mut block = sample(60_000).repeat(70);
    block.truncate(4 << 20);
    let compressed = lz4_simd::block::compress(&block).unwrap();
    let options = lz4_simd::frame::FrameOptions::new()
        .block_size(lz4_simd::frame::BlockSize::Max4MB)
        .content_checksum(false);
    // The header of a frame of this block: independent 4 MiB blocks, no checksum, no size.
    let mut framed = lz4_simd::frame::compress(&block, &options)[..7].to_vec();
    assert_eq!(framed[4..6], [0x60, 0x70]);
    for _ in 0..256 {
        framed.extend_from_slice(&(compressed.len() as u32).to_le_bytes());
        framed.extend_from_slice(&compressed);
    }
    framed.extend_from_slice(&[0; 4]);
    let files: &[(&str, &[u8])] = &[("big.lz4", &framed), ("big", b"existing output")];
    for signal in [("TERM", 15), ("INT", 2)] {
        killed_mid_job(
            "signal-decode",
            files,
            bin().args(["-d", "-T2", "--no-sparse", "-f", "--rm", "big.lz4", "big"]),
            signal,
            // Blocks are being decoded on both threads by then.
            64 << 20,
        );
    }
}

#[test]
fn a_signal_ignored_at_start_stays_ignored() {
    // nohup ignores SIGHUP: the job must survive it (and still clean up on SIGTERM).
    let dir = scratch("nohup");
    std::fs::write(dir.join("big"), sample(24 << 20)).unwrap();
    let before = snapshot(&dir);
    let script = format!(
        "trap '' HUP; exec '{}' -12 -f big big.lz4",
        env!("CARGO_BIN_EXE_lz4-simd")
    );
    let mut child = start_job(Command::new("sh").args(["-c", &script]), &dir, 0);
    send("-HUP", child.id());
    // Still at work: no death by SIGHUP (a job that ends first must end well).
    std::thread::sleep(Duration::from_millis(300));
    if let Some(status) = child.try_wait().unwrap() {
        assert!(status.success(), "SIGHUP ended a nohup job: {status:?}");
        return;
    }
    send("-TERM", child.id());
    let status = child.wait().unwrap();
    assert_eq!(status.signal(), Some(15), "{status:?}");
    assert!(snapshot(&dir) == before, "changed the directory");
}

#[test]
fn output_keeps_the_source_permissions_and_times() {
    let dir = scratch("metadata");
    let data = sample(50_000);
    std::fs::write(dir.join("a"), &data).unwrap();
    std::fs::set_permissions(dir.join("a"), std::fs::Permissions::from_mode(0o640)).unwrap();
    let old = SystemTime::UNIX_EPOCH + Duration::from_secs(1_500_000_000);
    std::fs::File::options()
        .write(true)
        .open(dir.join("a"))
        .unwrap()
        .set_modified(old)
        .unwrap();
    for args in [&["a", "a.lz4"][..], &["-d", "a.lz4", "b"]] {
        let out = run_in(bin().args(args), &dir);
        assert!(out.status.success(), "{}", stderr(&out));
        let written = std::fs::metadata(dir.join(args[args.len() - 1])).unwrap();
        assert_eq!(written.permissions().mode() & 0o7777, 0o640, "{args:?}");
        assert_eq!(written.modified().unwrap(), old, "{args:?}");
    }
    assert_eq!(std::fs::read(dir.join("b")).unwrap(), data);
    // From standard input (no source file), a replaced file keeps its permissions (a private
    // file stays private, as lz4 -f, which writes into it, leaves it).
    std::fs::set_permissions(dir.join("b"), std::fs::Permissions::from_mode(0o600)).unwrap();
    let out = common::run_with_stdin(
        {
            let mut command = bin();
            command.args(["-f", "-", "b"]).current_dir(&dir);
            command
        },
        &data,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let written = std::fs::metadata(dir.join("b")).unwrap();
    assert_eq!(written.permissions().mode() & 0o777, 0o600);
}

/// A symbolic link as output is followed as `lz4` follows it: a dangling link (also through a
/// chain, also relative to the link's directory) gets the file it names created, with or
/// without `-f`, and stays a link; a link loop counts as an existing file (refused without
/// `-f`).
#[test]
fn dangling_symbolic_link_outputs_create_the_file_they_name() {
    use std::os::unix::fs::symlink;
    let dir = scratch("dangling");
    let data = sample(10_000);
    std::fs::write(dir.join("a"), &data).unwrap();
    std::fs::create_dir(dir.join("sub")).unwrap();
    symlink("../named", dir.join("sub/link")).unwrap();
    symlink("sub/link", dir.join("chain")).unwrap();
    for force in [false, true] {
        let _ = std::fs::remove_file(dir.join("named"));
        let mut command = bin();
        if force {
            command.arg("-f");
        }
        let out = run_in(command.args(["-q", "a", "chain"]), &dir);
        assert!(out.status.success(), "force {force}: {}", stderr(&out));
        assert!(std::fs::symlink_metadata(dir.join("chain"))
            .unwrap()
            .file_type()
            .is_symlink());
        assert!(std::fs::symlink_metadata(dir.join("sub/link"))
            .unwrap()
            .file_type()
            .is_symlink());
        let framed = std::fs::read(dir.join("named")).unwrap();
        assert_eq!(lz4_simd::frame::decompress(&framed, 1 << 20).unwrap(), data);
    }
    symlink("loop2", dir.join("loop1")).unwrap();
    symlink("loop1", dir.join("loop2")).unwrap();
    let out = run_in(bin().args(["-q", "a", "loop1"]), &dir);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("already exists"), "{}", stderr(&out));
}
