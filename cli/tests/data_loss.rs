//! Runs that used to lose data and must not: a source that grows or is rewritten while `--rm`
//! compresses it, standard input or output closed by the caller, a process killed with
//! SIGKILL (which no handler sees) in the middle of a job, and `--sparse` onto a standard output
//! that holds bytes of its own where the zeros go.

mod common;

use std::io::Write;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{bin, names, read_position, sample, scratch, stderr};

/// Runs `command` in `dir` while another thread appends `piece(n)` to `dir/source` (the `n`th
/// piece) whenever the command has read to within 1 MiB of its end, until the command has
/// exited: so the command reaches the end of the file, and pieces are appended after it did
/// (while its output is made durable). Returns the command's result and every byte appended.
fn run_while_growing(
    command: &mut Command,
    dir: &Path,
    source: &str,
    piece: impl Fn(usize) -> Vec<u8> + Send + 'static,
) -> (Output, Vec<u8>) {
    let path = std::fs::canonicalize(dir.join(source)).unwrap();
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    let child = command
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let done = Arc::new(AtomicBool::new(false));
    let writer = {
        let done = Arc::clone(&done);
        std::thread::spawn(move || {
            let mut appended = Vec::new();
            let mut size = file.metadata().unwrap().len();
            let mut n = 0;
            while !done.load(Ordering::Acquire) {
                if read_position(pid, &path).is_some_and(|pos| pos + (1 << 20) >= size) {
                    let bytes = piece(n);
                    file.write_all(&bytes).unwrap();
                    appended.extend_from_slice(&bytes);
                    size += bytes.len() as u64;
                    n += 1;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
            appended
        })
    };
    let out = child.wait_with_output().unwrap();
    done.store(true, Ordering::Release);
    (out, writer.join().unwrap())
}

/// The source appended to while it was compressed or decompressed must still be there with
/// every byte; the output (complete for what was read) stays, the run succeeds and says why
/// the source was kept, also with `-q`.
fn kept_whole(out: &Output, dir: &Path, source: &str, initial: &[u8], appended: &[u8]) {
    assert!(out.status.success(), "{:?}: {}", out.status, stderr(out));
    assert!(!appended.is_empty());
    let now = std::fs::read(dir.join(source))
        .unwrap_or_else(|e| panic!("{source} was removed while it grew ({e})"));
    assert!(
        now.len() == initial.len() + appended.len(),
        "{source}: bytes lost"
    );
    assert!(now[..initial.len()] == *initial && now[initial.len()..] == *appended);
    assert!(
        stderr(out).contains(&format!("{source}: kept (it changed")),
        "{}",
        stderr(out)
    );
}

#[test]
fn rm_keeps_a_source_that_grows_while_compressed() {
    let dir = scratch("grows-compress");
    let initial = sample(8 << 20);
    std::fs::write(dir.join("live.log"), &initial).unwrap();
    let (out, appended) = run_while_growing(
        bin().args(["-q", "--rm", "-f", "live.log", "live.log.lz4"]),
        &dir,
        "live.log",
        |n| sample(100_000 + n),
    );
    kept_whole(&out, &dir, "live.log", &initial, &appended);
    // The output holds what was read: the initial content and some of what came after.
    let framed = std::fs::read(dir.join("live.log.lz4")).unwrap();
    let content = lz4_simd::frame::decompress(&framed, 1 << 30).unwrap();
    let whole = [&initial[..], &appended[..]].concat();
    assert!(content.len() >= initial.len() && whole.starts_with(&content));
}

/// A skippable frame of `len` bytes (at least 8) whose payload bytes are `fill`.
fn skippable(len: usize, fill: u8) -> Vec<u8> {
    let mut frame = 0x184D_2A50u32.to_le_bytes().to_vec();
    frame.extend_from_slice(&(len as u32 - 8).to_le_bytes());
    frame.resize(len, fill);
    frame
}

#[test]
fn rm_keeps_a_source_that_grows_while_decompressed() {
    // Appended whole 4 KiB pages, each a skippable frame, onto a file of whole pages: a read
    // sees a page entirely or not at all, so the decoder never meets half a frame.
    let dir = scratch("grows-decompress");
    let content = sample(8 << 20);
    let mut initial = lz4_simd::frame::compress(&content, &Default::default());
    let pad = match 4096 - initial.len() % 4096 {
        4096 => 0,
        short @ 0..8 => short + 4096,
        pad => pad,
    };
    if pad > 0 {
        initial.extend_from_slice(&skippable(pad, 0));
    }
    std::fs::write(dir.join("live.lz4"), &initial).unwrap();
    let (out, appended) = run_while_growing(
        bin().args(["-q", "-d", "--rm", "-f", "live.lz4", "live"]),
        &dir,
        "live.lz4",
        |n| skippable(4096, n as u8),
    );
    kept_whole(&out, &dir, "live.lz4", &initial, &appended);
    assert!(std::fs::read(dir.join("live")).unwrap() == content);
}

#[test]
fn rm_with_several_inputs_keeps_only_the_one_that_grows() {
    let dir = scratch("grows-multiple");
    let initial = sample(8 << 20);
    let still = sample(1 << 20);
    std::fs::write(dir.join("live.log"), &initial).unwrap();
    std::fs::write(dir.join("still.log"), &still).unwrap();
    let (out, appended) = run_while_growing(
        bin().args(["-q", "-m", "--rm", "still.log", "live.log"]),
        &dir,
        "live.log",
        |n| sample(100_000 + n),
    );
    kept_whole(&out, &dir, "live.log", &initial, &appended);
    assert_eq!(
        names(&dir),
        ["live.log", "live.log.lz4", "still.log.lz4"],
        "{}",
        stderr(&out)
    );
    let framed = std::fs::read(dir.join("still.log.lz4")).unwrap();
    assert!(lz4_simd::frame::decompress(&framed, 1 << 30).unwrap() == still);
}

/// SIGKILL in the middle of a job (which no handler sees) leaves the directory as it was: no
/// temporary output, and an existing target (`-f`) untouched.
#[test]
fn sigkill_leaves_no_temporary_file() {
    // HC at level 12 on one thread: seconds for 24 MB even in a release build.
    let data = sample(24 << 20);
    for existing in [false, true] {
        let dir = scratch(&format!("sigkill-{existing}"));
        std::fs::write(dir.join("big"), &data).unwrap();
        if existing {
            std::fs::write(dir.join("big.lz4"), b"existing output").unwrap();
        }
        let mut child = bin()
            .args(["-12", "-T1", "-f", "--rm", "big", "big.lz4"])
            .current_dir(&dir)
            .stdin(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Killed once its temporary output exists.
        let start = Instant::now();
        while common::temporary_output_len(child.id(), &dir).is_none() {
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "no temporary output"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        child.kill().unwrap();
        let status = child.wait().unwrap();
        assert_eq!(status.signal(), Some(9), "{status:?}");
        let expected: &[&str] = if existing {
            &["big", "big.lz4"]
        } else {
            &["big"]
        };
        assert_eq!(names(&dir), expected, "existing target: {existing}");
        assert!(std::fs::read(dir.join("big")).unwrap() == data);
        if existing {
            assert_eq!(
                std::fs::read(dir.join("big.lz4")).unwrap(),
                b"existing output"
            );
        }
    }
}

/// Runs `program ARGS` in `dir` through `sh`, with `redirect` (`>&-`, `<&-`, ...) applied to it;
/// standard output and error collected (where not closed).
fn run_redirected(program: &std::ffi::OsStr, args: &[&str], redirect: &str, dir: &Path) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!("exec \"$0\" \"$@\" {redirect}"))
        .arg(program)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn closed_standard_streams_fail_when_used() {
    let dir = scratch("closed-stdio");
    let data = sample(300_000);
    let framed = lz4_simd::frame::compress(&data, &Default::default());
    std::fs::write(dir.join("x"), &data).unwrap();
    std::fs::write(dir.join("x.lz4"), &framed).unwrap();
    let program = bin().get_program().to_owned();
    // lz4's exit codes: 40 reading, 42 writing a frame, 70 writing decoded data.
    let cases: &[(&[&str], &str, i32)] = &[
        (&["-c", "x"], ">&-", 42),
        (&["-c"], "<&-", 40),
        (&["-d", "-c", "x.lz4"], ">&-", 70),
        // lz4 reads a closed input as empty here (and exits 0).
        (&["-d", "-c"], "<&-", 40),
        (&["-qq", "-c", "x"], ">&-", 42),
        (&["-c", "--rm", "x"], ">&-", 42),
        (&["-f", "-D", "-", "x", "y.lz4"], "<&-", 40),
    ];
    for (args, redirect, code) in cases {
        let out = run_redirected(&program, args, redirect, &dir);
        assert_eq!(
            out.status.code(),
            Some(*code),
            "{args:?} {redirect}: {}",
            stderr(&out)
        );
        assert!(out.stdout.is_empty(), "{args:?} {redirect}");
        assert_eq!(names(&dir), ["x", "x.lz4"], "{args:?} {redirect}");
        assert!(std::fs::read(dir.join("x")).unwrap() == data);
    }
    // The same codes as lz4 where it fails.
    if common::lz4().is_some() {
        for (args, redirect, code) in &cases[..3] {
            let out = run_redirected("lz4".as_ref(), args, redirect, &dir);
            assert_eq!(out.status.code(), Some(*code), "lz4 {args:?} {redirect}");
        }
    }
    // A closed stream the run does not use is no failure.
    let out = run_redirected(&program, &["x", "y.lz4"], ">&-", &dir);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = run_redirected(&program, &["-d", "y.lz4", "y"], "<&- >&-", &dir);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::read(dir.join("y")).unwrap() == data);
    // /dev/null opened read-write on purpose (`<>`, as Python's subprocess.DEVNULL opens it) is
    // an output like any other: the runtime's own /dev/null is told apart.
    let out = run_redirected(&program, &["-c", "x"], "1<>/dev/null", &dir);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = run_redirected(&program, &["-c"], "0<>/dev/null >empty.lz4", &dir);
    assert!(out.status.success(), "{}", stderr(&out));
    let framed = std::fs::read(dir.join("empty.lz4")).unwrap();
    assert!(lz4_simd::frame::decompress(&framed, 1 << 20)
        .unwrap()
        .is_empty());
}

/// `--list` writes its table to standard output: a closed one (which the runtime reopens on
/// /dev/null) fails the run as a full one does, instead of reporting success with nothing shown.
#[test]
fn list_to_a_closed_stdout_fails() {
    let dir = scratch("closed-stdout-list");
    let framed = lz4_simd::frame::compress(&sample(10_000), &Default::default());
    std::fs::write(dir.join("x.lz4"), &framed).unwrap();
    let program = bin().get_program().to_owned();
    for args in [&["--list", "x.lz4"][..], &["-v", "--list", "x.lz4"]] {
        let full = run_redirected(&program, args, ">/dev/full", &dir);
        assert_eq!(full.status.code(), Some(1), "{args:?} >/dev/full");
        let closed = run_redirected(&program, args, ">&-", &dir);
        assert_eq!(closed.status.code(), Some(1), "{args:?} >&-");
        assert!(stderr(&closed).contains("stdout"), "{}", stderr(&closed));
        let open = run_redirected(&program, args, "", &dir);
        assert!(open.status.success(), "{}", stderr(&open));
        assert!(String::from_utf8_lossy(&open.stdout).contains("x.lz4"));
    }
}

/// A source rewritten in place with the same size just after it was read (a database page, a
/// config file saved over) must be kept by `--rm`, whatever the file system's time stamps: where
/// they are coarse (ext2, or any file system before Linux 6.13), the rewrite usually falls in
/// the clock tick of the open and leaves size and times as they were. Such a directory is named
/// by `LZ4_SIMD_COARSE_TIME_DIR` (for example an ext2 image mounted with `-o loop`); without it
/// the test runs in a scratch directory, where fine-grained time stamps may hide the fault.
#[test]
fn rm_keeps_a_source_rewritten_with_the_same_size() {
    use std::os::unix::fs::{FileExt, MetadataExt};
    let dir = match std::env::var_os("LZ4_SIMD_COARSE_TIME_DIR") {
        Some(dir) => {
            let dir = Path::new(&dir).join(format!("rewritten-{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            dir
        }
        None => {
            eprintln!("LZ4_SIMD_COARSE_TIME_DIR not set: same-size rewrites on this file system");
            scratch("rewritten")
        }
    };
    let source = dir.join("s");
    let (mut rewritten, mut lost) = (0, Vec::new());
    for round in 0..100u8 {
        let old = vec![b'A' + round % 26; 4001];
        let new = vec![b'a' + round % 26; 4001];
        std::fs::write(&source, &old).unwrap();
        let _ = std::fs::remove_file(dir.join("s.lz4"));
        let mut child = bin()
            .args(["-q", "--rm", "s", "s.lz4"])
            .current_dir(&dir)
            .stdin(Stdio::null())
            .spawn()
            .unwrap();
        // Rewritten as soon as the run has read it all, while the name still stands for it.
        let mut linked_when_written = false;
        while child.try_wait().unwrap().is_none() {
            if read_position(child.id(), &source).is_some_and(|pos| pos >= old.len() as u64) {
                if let Ok(file) = std::fs::OpenOptions::new().write(true).open(&source) {
                    file.write_all_at(&new, 0).unwrap();
                    linked_when_written = file.metadata().unwrap().nlink() == 1;
                }
                break;
            }
        }
        assert!(child.wait().unwrap().success());
        if !linked_when_written {
            continue;
        }
        rewritten += 1;
        if std::fs::read(&source).ok() != Some(new) {
            lost.push(round);
        }
    }
    // How many rewrites land before the run ends depends on the machine's load: the test needs
    // one, and asserts nothing about the count.
    assert!(rewritten > 0, "no rewrite made in time in 100 rounds");
    assert!(
        lost.is_empty(),
        "rewrites lost in rounds {lost:?} of {rewritten}"
    );
    if std::env::var_os("LZ4_SIMD_COARSE_TIME_DIR").is_some() {
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// Whether the tool under test pauses for `LZ4_SIMD_TEST_REMOVAL_PAUSE_MS` and
/// `LZ4_SIMD_TEST_REMOVED_PAUSE_MS`: in debug builds only (as this test is built, so is the
/// tool). Elsewhere the tests that act in those pauses are skipped with a notice.
fn removal_pauses() -> bool {
    if !cfg!(debug_assertions) {
        eprintln!("notice: a release build has no removal pauses; test skipped");
    }
    cfg!(debug_assertions)
}

/// A write landing between `--rm`'s last check of the source and its removal (the debug build
/// pauses there for `LZ4_SIMD_TEST_REMOVAL_PAUSE_MS`): the source is restored, with the new
/// bytes and its permissions, from the file the run still holds open.
#[test]
fn rm_restores_a_source_written_to_while_it_was_removed() {
    if !removal_pauses() {
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("written-while-removed");
    let source = dir.join("s");
    let old = sample(50_000);
    std::fs::write(&source, &old).unwrap();
    std::fs::set_permissions(&source, std::fs::Permissions::from_mode(0o640)).unwrap();
    let child = bin()
        .args(["--rm", "s", "s.lz4"])
        .current_dir(&dir)
        .env("LZ4_SIMD_TEST_REMOVAL_PAUSE_MS", "1500")
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The output is renamed into place before the check; the pause follows it.
    while !dir.join("s.lz4").exists() {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    let file = std::fs::OpenOptions::new()
        .append(true)
        .open(&source)
        .unwrap();
    (&file).write_all(b"appended while it was removed").unwrap();
    drop(file);
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("restored"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut want = old.clone();
    want.extend_from_slice(b"appended while it was removed");
    assert_eq!(std::fs::read(&source).unwrap(), want);
    let mode = std::fs::metadata(&source).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
    // The output holds what was read.
    let frame = std::fs::read(dir.join("s.lz4")).unwrap();
    let decoded = lz4_simd::frame::decompress(&frame, old.len()).unwrap();
    assert_eq!(decoded, old);
}

/// Starts `lz4-simd ARGS` in `dir` with `pause` (`LZ4_SIMD_TEST_REMOVAL_PAUSE_MS` before the
/// removal of the source, `LZ4_SIMD_TEST_REMOVED_PAUSE_MS` after it) set to 1.5 s, and returns
/// once `output` exists (the output is renamed into place before the removal).
fn spawn_paused(dir: &Path, args: &[&str], pause: &str, output: &str) -> std::process::Child {
    let child = bin()
        .args(args)
        .current_dir(dir)
        .env(pause, "1500")
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    while !dir.join(output).exists() {
        std::thread::sleep(Duration::from_millis(5));
    }
    child
}

/// A file renamed over the source between `--rm`'s last check and its removal (a config file
/// saved by rename) is another file, never removed: it stays under the source's name.
#[test]
fn rm_never_removes_a_file_renamed_over_the_source() {
    if !removal_pauses() {
        return;
    }
    let dir = scratch("renamed-over-source");
    std::fs::write(dir.join("s"), sample(50_000)).unwrap();
    std::fs::write(dir.join("new"), b"saved over the source").unwrap();
    let child = spawn_paused(
        &dir,
        &["-q", "--rm", "s", "s.lz4"],
        "LZ4_SIMD_TEST_REMOVAL_PAUSE_MS",
        "s.lz4",
    );
    std::thread::sleep(Duration::from_millis(300));
    std::fs::rename(dir.join("new"), dir.join("s")).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(names(&dir), ["s", "s.lz4"], "{}", stderr(&out));
    assert_eq!(
        std::fs::read(dir.join("s")).unwrap(),
        b"saved over the source"
    );
    assert!(stderr(&out).contains("kept"), "{}", stderr(&out));
}

/// A write through a descriptor opened before the run, landing after the source was removed,
/// then SIGINT: the source is restored before the process dies of the signal (its last copy
/// was the file the process held open).
#[test]
fn sigint_after_the_removal_still_restores_the_source() {
    if !removal_pauses() {
        return;
    }
    let dir = scratch("sigint-after-removal");
    let old = sample(50_000);
    std::fs::write(dir.join("s"), &old).unwrap();
    std::fs::set_permissions(
        dir.join("s"),
        std::os::unix::fs::PermissionsExt::from_mode(0o640),
    )
    .unwrap();
    let writer = std::fs::OpenOptions::new()
        .append(true)
        .open(dir.join("s"))
        .unwrap();
    let child = spawn_paused(
        &dir,
        &["-q", "--rm", "s", "s.lz4"],
        "LZ4_SIMD_TEST_REMOVED_PAUSE_MS",
        "s.lz4",
    );
    while dir.join("s").exists() {
        std::thread::sleep(Duration::from_millis(5));
    }
    (&writer).write_all(b"written after the removal").unwrap();
    let pid = child.id().to_string();
    assert!(Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap()
        .success());
    let out = child.wait_with_output().unwrap();
    // The signal still ends the run, once the source is back.
    assert_eq!(
        out.status.signal(),
        Some(2),
        "{:?}: {}",
        out.status,
        stderr(&out)
    );
    let mut want = old.clone();
    want.extend_from_slice(b"written after the removal");
    let restored = std::fs::read(dir.join("s")).ok();
    assert!(
        restored.as_ref() == Some(&want),
        "{:?} bytes at s, want {}: {:?}: {}",
        restored.map(|bytes| bytes.len()),
        want.len(),
        out.status,
        stderr(&out)
    );
    let mode = std::fs::metadata(dir.join("s")).unwrap().permissions();
    assert_eq!(
        std::os::unix::fs::PermissionsExt::mode(&mode) & 0o777,
        0o640
    );
}

/// A restore that cannot be completed (here: the file-size limit, `ulimit -f`, below the
/// source's size) fails the run and leaves no truncated copy under the source's name, where it
/// would pass for the source.
#[test]
fn a_failed_restore_leaves_no_truncated_source() {
    if !removal_pauses() {
        return;
    }
    let dir = scratch("failed-restore");
    let old = sample(200_000);
    std::fs::write(dir.join("s"), &old).unwrap();
    let writer = std::fs::OpenOptions::new()
        .append(true)
        .open(dir.join("s"))
        .unwrap();
    // 150 KiB (`ulimit -f` counts 512-byte blocks): more than the output (about 63 KB), less
    // than the source.
    let script = format!(
        "ulimit -f 300; exec '{}' -q --rm s s.lz4",
        env!("CARGO_BIN_EXE_lz4-simd")
    );
    let child = Command::new("sh")
        .args(["-c", &script])
        .current_dir(&dir)
        .env("LZ4_SIMD_TEST_REMOVED_PAUSE_MS", "1500")
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !dir.join("s.lz4").exists() || dir.join("s").exists() {
        assert!(start.elapsed() < Duration::from_secs(30), "no removal");
        std::thread::sleep(Duration::from_millis(5));
    }
    (&writer).write_all(b"written after the removal").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(!out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("restored"), "{}", stderr(&out));
    for name in names(&dir) {
        let len = std::fs::metadata(dir.join(&name)).unwrap().len();
        assert!(
            name == "s.lz4" || len == old.len() as u64 + 25,
            "{name}: {len} bytes left: {}",
            stderr(&out)
        );
    }
}

/// `--sparse` onto standard output opened on an existing file without truncating it (`1<>file`):
/// the file already holds bytes where the decoded zeros go, so a zero run skipped with a seek
/// would leave them in place of the zeros. Every byte of the content must be there.
#[test]
fn sparse_standard_output_over_existing_bytes_writes_the_zeros() {
    let dir = scratch("sparse-over-bytes");
    let mut data = sample(5000);
    data.extend(vec![0u8; 100_000]);
    data.extend(sample(3000));
    std::fs::write(dir.join("z"), &data).unwrap();
    let out = bin()
        .args(["-q", "z", "z.lz4"])
        .current_dir(&dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let target = dir.join("out");
    let old = vec![0xFFu8; 2 * data.len()];
    std::fs::write(&target, &old).unwrap();
    // Opened for writing at offset 0, its bytes kept (the shell's `1<>out`).
    let stdout = std::fs::OpenOptions::new()
        .write(true)
        .open(&target)
        .unwrap();
    let out = bin()
        .args(["-q", "-d", "-c", "--sparse", "z.lz4"])
        .current_dir(&dir)
        .stdin(Stdio::null())
        .stdout(stdout)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let written = std::fs::read(&target).unwrap();
    assert!(
        written[..data.len()] == data[..],
        "the content is not in the first {} bytes: {} of them differ",
        data.len(),
        written[..data.len()]
            .iter()
            .zip(&data)
            .filter(|(a, b)| a != b)
            .count()
    );
    // What follows the content is the file's own.
    assert!(written[data.len()..] == old[data.len()..]);
}
