//! Helpers shared by the CLI's test files: the binary, scratch directories, sample data, and
//! the `lz4` peer (required when `LZ4_SIMD_REQUIRE_PEERS=1`, skipped with a notice
//! otherwise).

#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_lz4-simd"))
}

/// A fresh directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Log-like text: compressible, not trivially.
pub fn sample(len: usize) -> Vec<u8> {
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

/// Runs `command` with `input` on its stdin, collecting stdout and stderr.
pub fn run_with_stdin(mut command: Command, input: &[u8]) -> Output {
    let mut child = command
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

/// `lz4-simd ARGS` with `input` on stdin.
pub fn piped(args: &[&str], input: &[u8]) -> Output {
    let mut command = bin();
    command.args(args);
    run_with_stdin(command, input)
}

/// Runs `command` in `dir` with stdin empty, stdout and stderr collected.
pub fn run_in(command: &mut Command, dir: &Path) -> Output {
    command
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The `lz4` command, if installed; panics when missing and `LZ4_SIMD_REQUIRE_PEERS=1`.
pub fn lz4() -> Option<Command> {
    let found = Command::new("lz4")
        .arg("-V")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if found {
        return Some(Command::new("lz4"));
    }
    if std::env::var("LZ4_SIMD_REQUIRE_PEERS").is_ok_and(|v| v == "1") {
        panic!("the lz4 command is required (LZ4_SIMD_REQUIRE_PEERS=1) but not found");
    }
    eprintln!("notice: the lz4 command is not installed; skipping the comparison with it");
    None
}

/// Whether the installed `lz4` is older than 1.10, which sends a named file to standard output
/// when that is not a terminal (1.10 writes `FILE.lz4` or `FILE`).
pub fn lz4_before_110() -> bool {
    let Ok(out) = Command::new("lz4").arg("-V").output() else {
        return false;
    };
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &stderr(&out);
    let minor = text
        .split(" v1.")
        .nth(1)
        .and_then(|rest| rest.split('.').next())
        .and_then(|minor| minor.parse::<u32>().ok());
    minor.is_some_and(|minor| minor < 10)
}

/// The size of the temporary output process `pid` is writing in `dir`, once it has one: an
/// unnamed file (`O_TMPFILE`, which `/proc/PID/fd` shows as `DIR/#INODE (deleted)`) or a
/// named `.NAME.XXXXXX.lz4-simd-tmp`.
pub fn temporary_output_len(pid: u32, dir: &Path) -> Option<u64> {
    let dir = std::fs::canonicalize(dir).ok()?;
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd")).ok()?;
    fds.filter_map(Result::ok).find_map(|fd| {
        let target = std::fs::read_link(fd.path()).ok()?;
        let text = target.to_string_lossy();
        let in_dir = target.parent() == Some(&dir);
        let name = target.file_name()?.to_string_lossy();
        let temporary = (name.starts_with('#') && text.ends_with(" (deleted)"))
            || name.ends_with(".lz4-simd-tmp");
        (in_dir && temporary).then(|| std::fs::metadata(fd.path()).map_or(0, |m| m.len()))
    })
}

/// Every name in `dir`, sorted.
pub fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Where process `pid` stands in reading `path` (the offset of a descriptor it holds on it).
pub fn read_position(pid: u32, path: &Path) -> Option<u64> {
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd")).ok()?;
    fds.filter_map(Result::ok).find_map(|fd| {
        if std::fs::read_link(fd.path()).ok()? != path {
            return None;
        }
        let info =
            std::fs::read_to_string(format!("/proc/{pid}/fdinfo/{}", fd.file_name().to_str()?))
                .ok()?;
        info.lines()
            .find_map(|line| line.strip_prefix("pos:"))
            .and_then(|pos| pos.trim().parse().ok())
    })
}
