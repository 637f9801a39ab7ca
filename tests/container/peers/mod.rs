//! What the container tests share: running the real peers (tests/container/peers/containers.py on
//! python3 with python-lz4, kafka-python, clickhouse-cityhash and pyarrow; lz4-java through
//! tests/container/peers/Lz4BlockPeer.java), the rule for a missing peer, and the sample inputs.
//!
//! A missing peer makes a test print a notice and pass, unless `LZ4_SIMD_REQUIRE_PEERS=1` (set by
//! `.ci/run`, which installs them), in which case it fails.

#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use testkit::samples::generated;

pub fn require_peers() -> bool {
    std::env::var("LZ4_SIMD_REQUIRE_PEERS").is_ok_and(|v| v == "1")
}

/// Fails under `LZ4_SIMD_REQUIRE_PEERS=1`, else prints a notice (the caller then returns).
pub fn peer_missing(what: &str) {
    assert!(
        !require_peers(),
        "{what} is not available and LZ4_SIMD_REQUIRE_PEERS=1"
    );
    eprintln!("NOTICE: {what} not found; container interop test skipped (set LZ4_SIMD_REQUIRE_PEERS=1 to fail instead)");
}

fn peers_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("container/peers")
}

/// Whether python3 has every module tests/container/peers/containers.py uses.
pub fn python_peers() -> bool {
    python(&["check"], b"").is_ok()
}

/// lz4-java's jar, from the Debian package liblz4-java, when it and `java` are installed.
pub fn lz4_java_jar() -> Option<PathBuf> {
    let jar = PathBuf::from("/usr/share/java/lz4-java.jar");
    let java = Command::new("java")
        .arg("-version")
        .output()
        .is_ok_and(|out| out.status.success());
    (java && jar.exists()).then_some(jar)
}

/// Runs `cmd` with `input` on stdin; returns stdout, or `Err(stderr)` when it fails.
pub fn run_with_input(cmd: &mut Command, input: &[u8]) -> Result<Vec<u8>, String> {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        // A peer that fails early closes its stdin: its exit status tells.
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// One `containers.py serve` process for the test binary, shared by its tests (one request at a
/// time): its modules (pyarrow, kafka-python, ...) are imported once, not at every request.
struct PythonServer {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: std::process::ChildStdout,
}

impl PythonServer {
    fn start() -> std::io::Result<PythonServer> {
        let mut child = Command::new("python3")
            .arg(peers_dir().join("containers.py"))
            .arg("serve")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()?;
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        Ok(PythonServer {
            child,
            stdin,
            stdout,
        })
    }

    /// Sends one request and reads its answer (see `serve` in containers.py).
    fn call(&mut self, args: &[&str], input: &[u8]) -> std::io::Result<Result<Vec<u8>, String>> {
        use std::io::Read;
        let word = |len: usize| u32::try_from(len).unwrap().to_le_bytes();
        let mut request = word(args.len()).to_vec();
        for arg in args {
            request.extend_from_slice(&word(arg.len()));
            request.extend_from_slice(arg.as_bytes());
        }
        request.extend_from_slice(&word(input.len()));
        request.extend_from_slice(input);
        self.stdin.write_all(&request)?;
        self.stdin.flush()?;
        let mut head = [0u8; 5];
        self.stdout.read_exact(&mut head)?;
        let len = u32::from_le_bytes(head[1..5].try_into().unwrap()) as usize;
        let mut out = vec![0u8; len];
        self.stdout.read_exact(&mut out)?;
        Ok(match head[0] {
            0 => Ok(out),
            _ => Err(String::from_utf8_lossy(&out).into_owned()),
        })
    }
}

impl Drop for PythonServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// tests/container/peers/containers.py's command `args` with `input`: its output, or
/// `Err(message)` when it fails. Runs in the binary's `serve` process, started at the first call
/// (and again if it ended).
pub fn python(args: &[&str], input: &[u8]) -> Result<Vec<u8>, String> {
    use std::sync::{Mutex, OnceLock};
    static SERVER: OnceLock<Mutex<Option<PythonServer>>> = OnceLock::new();
    let mut server = SERVER
        .get_or_init(|| Mutex::new(None))
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if server.is_none() {
        *server = Some(PythonServer::start().map_err(|e| format!("python3: {e}"))?);
    }
    match server.as_mut().unwrap().call(args, input) {
        Ok(answer) => answer,
        Err(e) => {
            // The process ended or broke the protocol: the next call starts another.
            *server = None;
            Err(format!("containers.py serve: {e}"))
        }
    }
}

/// lz4-java's LZ4Block streams through tests/container/peers/Lz4BlockPeer.java, compiled once
/// per test binary with `javac` (run from its source by `java` when that fails: slower, it is
/// compiled at every run).
pub fn lz4_java(jar: &Path, args: &[String], input: &[u8]) -> Result<Vec<u8>, String> {
    use std::sync::OnceLock;
    static CLASSES: OnceLock<Option<PathBuf>> = OnceLock::new();
    let classes = CLASSES.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("lz4-java-peer-{}", std::process::id()));
        let compiled = Command::new("javac")
            .arg("-cp")
            .arg(jar)
            .arg("-d")
            .arg(&dir)
            .arg(peers_dir().join("Lz4BlockPeer.java"))
            .output()
            .is_ok_and(|out| out.status.success());
        compiled.then_some(dir)
    });
    let mut command = Command::new("java");
    match classes {
        Some(dir) => {
            let path = std::env::join_paths([jar, dir.as_path()]).unwrap();
            command.arg("-cp").arg(path).arg("Lz4BlockPeer");
        }
        None => {
            command
                .arg("-cp")
                .arg(jar)
                .arg(peers_dir().join("Lz4BlockPeer.java"));
        }
    }
    run_with_input(command.args(args), input)
}

/// A fresh scratch directory under the target directory.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("container-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Inputs for the round trips: the edges (empty, one byte, short) and a few kinds of data of
/// sizes around the containers' block sizes (64 KiB, Hadoop's 261 100-byte chunks, 1 MiB).
pub fn inputs() -> Vec<(String, Vec<u8>)> {
    let mut inputs = vec![
        ("empty".to_string(), Vec::new()),
        ("one byte".to_string(), b"x".to_vec()),
        ("hello".to_string(), b"hello hello hello hello".to_vec()),
    ];
    for (kind, len) in [
        ("log-lines", 70_000),
        ("random", 65_537),
        ("runs", 261_101),
        ("two-symbol", 300_000),
        ("log-lines", (1 << 20) + 3),
    ] {
        inputs.push((format!("{kind}-{len}"), generated(kind, len, len as u64)));
    }
    inputs
}
