//! Re-running a test of the current test binary in a child process, for what is decided once
//! per process (the `LZ4_SIMD_KERNEL` override).

use std::process::{Command, Output};

/// Optional command (with arguments) that runs the test binary, for cross runners without
/// binfmt_misc, e.g. `qemu-aarch64-static -L /usr/aarch64-linux-gnu`.
pub const RUNNER_ENV: &str = "LZ4_SIMD_TEST_RUNNER";

/// Runs the test named `test` (its full path in the binary, e.g. `api::kernel_env_child`) of
/// the running test binary alone, in a child process (prefixed by `LZ4_SIMD_TEST_RUNNER` when
/// set), with its output uncaptured; `configure` sets the child's environment. Panics when the
/// child cannot be started; the caller checks its status and output.
pub fn rerun_test(test: &str, configure: impl FnOnce(&mut Command)) -> Output {
    let exe = std::env::current_exe().expect("current_exe");
    let runner = std::env::var(RUNNER_ENV).unwrap_or_default();
    let runner: Vec<&str> = runner.split_whitespace().collect();
    let mut command = match runner.split_first() {
        Some((program, args)) => {
            let mut command = Command::new(program);
            command.args(args).arg(&exe);
            command
        }
        None => Command::new(&exe),
    };
    command.args(["--exact", test, "--nocapture", "--test-threads=1"]);
    configure(&mut command);
    command.output().unwrap_or_else(|err| {
        panic!(
            "cannot run {} ({err}); under a cross runner set {RUNNER_ENV}",
            exe.display()
        )
    })
}
