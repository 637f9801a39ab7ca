//! Inputs of 4 MiB and more (compressed in 4 MiB chunks, linked blocks on several threads)
//! that misbehave while they are read: a file that grows or shrinks under `--content-size`
//! (lz4 1.10 then writes a frame whose header declares the size the file had, which does not
//! decode), and a standard input whose read fails after some megabytes (lz4 1.10 takes the
//! error for the end of the input). Either way the run must fail with a message and leave no
//! output under the target's name, and what went to standard output must not decode as a
//! whole frame.

mod common;

use std::io::Write;
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use common::{bin, names, read_position, sample, scratch, stderr};

/// Runs `command` in `dir` and, once it has begun reading `dir/source` (so after it took the
/// file's size), calls `change` on the file once. Returns the command's result and whether
/// the change happened while it ran.
fn run_changing(
    command: &mut Command,
    dir: &Path,
    source: &str,
    change: impl FnOnce(&Path) + Send + 'static,
) -> (Output, bool) {
    let path = std::fs::canonicalize(dir.join(source)).unwrap();
    let child = command
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let done = Arc::new(AtomicBool::new(false));
    let changer = {
        let done = Arc::clone(&done);
        std::thread::spawn(move || {
            while !done.load(Ordering::Acquire) {
                if read_position(pid, &path).is_some_and(|pos| pos > 0) {
                    change(&path);
                    return true;
                }
                std::thread::sleep(Duration::from_micros(200));
            }
            false
        })
    };
    let out = child.wait_with_output().unwrap();
    done.store(true, Ordering::Release);
    (out, changer.join().unwrap())
}

const LEN: usize = 12 << 20;

#[test]
fn content_size_of_an_input_that_changes_while_read_is_never_written_wrong() {
    let dir = scratch("linked-changing");
    let content = sample(LEN);
    for args in [
        &["-1", "-BD"][..],
        &["-1", "-BD", "-T2"],
        &["-9", "-B4D"],
        &["-1", "-BI"],
    ] {
        for grow in [true, false] {
            let what = format!("{args:?}, grows {grow}");
            for to_stdout in [false, true] {
                std::fs::write(dir.join("src"), &content).unwrap();
                let _ = std::fs::remove_file(dir.join("src.lz4"));
                let mut command = bin();
                command.args(args).args(["-q", "-f", "--content-size"]);
                if to_stdout {
                    command.args(["-c", "src"]);
                } else {
                    command.args(["src", "src.lz4"]);
                }
                let extra = content[..3 << 20].to_vec();
                let (out, changed) = run_changing(&mut command, &dir, "src", move |path| {
                    let mut file = std::fs::OpenOptions::new().append(true).open(path).unwrap();
                    if grow {
                        file.write_all(&extra).unwrap();
                    } else {
                        file.set_len(5 << 20).unwrap();
                    }
                });
                if !changed {
                    eprintln!("notice: {what}: the input was read before it could change");
                    continue;
                }
                assert!(!out.status.success(), "{what}: succeeded");
                assert!(
                    stderr(&out).contains("content size"),
                    "{what}: {}",
                    stderr(&out)
                );
                if to_stdout {
                    assert!(
                        lz4_simd::frame::decompress(&out.stdout, 1 << 30).is_err(),
                        "{what}: standard output decodes as a whole frame"
                    );
                } else {
                    assert_eq!(names(&dir), ["src"], "{what}: output left");
                }
            }
        }
    }
}

/// `lz4-simd ARGS` reading a socket that carries `content` and then fails (the peer closes
/// with data of its own unread: the next read is ECONNRESET).
fn with_failing_stdin(args: &[&str], dir: &Path, content: &[u8]) -> Output {
    let (ours, theirs) = UnixStream::pair().unwrap();
    let mut to_peer = theirs.try_clone().unwrap();
    let child = bin()
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::from(std::os::fd::OwnedFd::from(theirs)))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Left unread in our end: closing it resets the connection.
    to_peer.write_all(b"!").unwrap();
    drop(to_peer);
    let content = content.to_vec();
    let writer = std::thread::spawn(move || {
        let mut ours = ours;
        let _ = ours.write_all(&content);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

#[test]
fn a_read_error_fails_the_run_and_leaves_no_output() {
    let dir = scratch("linked-read-error");
    let content = sample(13 << 20);
    for len in [2 << 20, 4 << 20, (4 << 20) + 1, 13 << 20] {
        for args in [
            &["-1", "-BD"][..],
            &["-1", "-BD", "-T2"],
            &["-9", "-B4D"],
            &["-1"],
        ] {
            let what = format!("{args:?}, {len} bytes");
            let mut file_args = args.to_vec();
            file_args.extend(["-q", "-f", "-", "out.lz4"]);
            let out = with_failing_stdin(&file_args, &dir, &content[..len]);
            assert!(!out.status.success(), "{what}: succeeded");
            assert!(stderr(&out).contains("reading"), "{what}: {}", stderr(&out));
            assert!(names(&dir).is_empty(), "{what}: output left");

            let mut pipe_args = args.to_vec();
            pipe_args.extend(["-q", "-c"]);
            let out = with_failing_stdin(&pipe_args, &dir, &content[..len]);
            assert!(!out.status.success(), "{what}, -c: succeeded");
            assert!(
                lz4_simd::frame::decompress(&out.stdout, 1 << 30).is_err(),
                "{what}: standard output decodes as a whole frame"
            );
        }
    }
}
