//! `lz4-simd`: the `lz4` command line tool on the `lz4_simd` library, which cannot lose data.
//!
//! It takes `lz4` 1.10's command line (`args.rs`) and writes `lz4`'s formats with `lz4`'s bytes
//! (`codec.rs`), with one difference: no run can destroy a file. Outputs go to a temporary file
//! renamed over the target only when complete and flushed to disk; an existing file is never
//! replaced without `-f`; an input is never an output; `--rm` removes a source only once its
//! output is durable (`output.rs`, `signals.rs`, `jobs.rs`). `-b` benchmarks the codec on
//! files or generated samples (`bench.rs`); `--block` reads and writes one
//! size-prepended block (a 4-byte little-endian size, then one LZ4 block: python-lz4's
//! `lz4.block` and lz4_flex's `compress_prepend_size` format) instead of frames.

// One `unsafe` call, in `stdio.rs` (allowed there): reading the descriptor table before Rust's
// runtime reopens closed standard streams.
#![deny(unsafe_code)]

mod args;
mod bench;
mod codec;
mod container;
mod jobs;
mod list;
// The table also describes the options for the manual and the completions
// (`examples/generate.rs`): what only they use is not dead.
#[allow(dead_code)]
mod options;
mod output;
mod progress;
mod samples;
mod signals;
mod stdio;

use std::ffi::OsString;
use std::io;
use std::process::ExitCode;

use args::{Mode, Parsed, Settings};
use options::USAGE;

/// Why the command failed; printed as `lz4-simd: <message>` with exit code 1.
pub enum Failure {
    Io(String, io::Error),
    Codec(lz4_simd::Error),
    Message(String),
    /// A bad command line: the message, then the usage line.
    Usage(String),
    /// A failure with the file it happened to.
    InFile(String, Box<Failure>),
    /// Failures already printed (with `-m`, as each job ended).
    Reported,
    /// A failure `lz4` ends with its own exit code (a closed standard stream: 40 reading,
    /// 42 writing compressed data, 70 writing decoded data; 27 the dictionary, 10 a benchmark
    /// input).
    Exit(u8, String),
    /// A failure not printed (`-qq`), with its exit code.
    Quiet(u8),
    /// Writing the output failed (a full disk, `/dev/full`): the output's name, the error, and
    /// `lz4` 1.10's exit code for the step that writes (see [`write_failure_code`]).
    Write(u8, String, io::Error),
}

/// `lz4` 1.10's exit code when writing the output fails: 42 for a frame compressed in one call
/// (an input under 4 MiB), 38 for the blocks of a longer frame or of a legacy frame, 70 for
/// decoded content written whole, 73 for decoded content written with holes (`--sparse`, the
/// default to a file); 1 for the formats `lz4` has not (`--block`, containers).
pub fn write_failure_code(settings: &Settings, compress: bool, sparse: bool, read: u64) -> u8 {
    const ONE_CALL: u64 = 4 << 20;
    match (
        compress,
        settings.container.is_some() || settings.prepended_block,
    ) {
        (_, true) => 1,
        (true, false) if settings.legacy || read >= ONE_CALL => 38,
        (true, false) => 42,
        (false, false) if sparse => 73,
        (false, false) => 70,
    }
}

impl Failure {
    /// Names the file a codec error happened in (other failures name their file already).
    pub fn in_file(self, name: &str) -> Failure {
        match self {
            Failure::Codec(_) => Failure::InFile(name.to_string(), Box::new(self)),
            other => other,
        }
    }

    /// The exit status, by `lz4` 1.10's codes where it has one for the failure: 44 input that
    /// is not LZ4 (40 when 1 to 3 bytes long), 26 a truncated frame (63 a truncated legacy
    /// frame), 34 a damaged frame or data after a frame that starts no frame,
    /// 27 a dictionary that cannot be read, 10 a benchmark input that cannot be read, 40/42/70
    /// closed standard streams, 38/42/70/73 an output that cannot be written; 1 for the rest
    /// (usage errors, missing inputs, refusals).
    pub fn exit_code(&self) -> u8 {
        match self {
            Failure::Exit(code, _) | Failure::Quiet(code) | Failure::Write(code, ..) => *code,
            Failure::InFile(_, inner) => inner.exit_code(),
            Failure::Codec(err) => match err {
                lz4_simd::Error::FrameBadMagic { input_pos: 0, .. } => 44,
                // After a frame, 4 bytes that start no frame: the frame type is unknown.
                lz4_simd::Error::FrameBadMagic { .. } => 34,
                // 1 to 3 bytes of input: no magic number to read.
                lz4_simd::Error::FrameTruncated {
                    input_pos: 1..=3,
                    what: "a 4-byte frame magic number",
                } => 40,
                lz4_simd::Error::FrameTruncated { what, .. } if what.contains("legacy") => 63,
                lz4_simd::Error::FrameTruncated { .. } => 26,
                lz4_simd::Error::EmptyInput => 1,
                err if err.kind() == lz4_simd::ErrorKind::CorruptInput => 34,
                _ => 1,
            },
            _ => 1,
        }
    }

    /// Standard output's reader went away (`lz4-simd -dc f | head`): not an error to report.
    pub fn is_broken_pipe(&self) -> bool {
        match self {
            Failure::Io(_, err) | Failure::Write(_, _, err) => {
                err.kind() == io::ErrorKind::BrokenPipe
            }
            Failure::InFile(_, inner) => inner.is_broken_pipe(),
            _ => false,
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Io(what, err) | Failure::Write(_, what, err) => write!(f, "{what}: {err}"),
            Failure::Codec(err) => write!(f, "{err}"),
            Failure::Message(message) | Failure::Usage(message) => f.write_str(message),
            Failure::InFile(name, inner) => write!(f, "{name}: {inner}"),
            Failure::Reported | Failure::Quiet(_) => f.write_str("some files failed"),
            Failure::Exit(_, message) => f.write_str(message),
        }
    }
}

impl From<lz4_simd::Error> for Failure {
    fn from(err: lz4_simd::Error) -> Self {
        Failure::Codec(err)
    }
}

/// `-h` (`long`: `-H`): the option table of `options.rs`.
fn help(long: bool) -> String {
    options::render_help(long, env!("CARGO_PKG_VERSION"))
}

/// Runs what the `lz4`-style command line asks for.
fn run_lz4(program: &std::ffi::OsStr, args: &[OsString]) -> Result<(), Failure> {
    let mut settings: Settings = match args::parse_as(program, args) {
        Ok(Parsed::Run(settings)) => *settings,
        Ok(Parsed::Help) => {
            return bench::print_line(format_args!("{}", help(false).trim_end_matches('\n')));
        }
        Ok(Parsed::LongHelp) => {
            return bench::print_line(format_args!("{}", help(true).trim_end_matches('\n')));
        }
        Ok(Parsed::Version) => {
            return bench::print_line(format_args!(
                "*** lz4-simd command line interface {}-bits v{}, the lz4 1.10 format ***",
                usize::BITS,
                env!("CARGO_PKG_VERSION")
            ));
        }
        Err(args::Usage(message, args::UsageText::Shown)) => return Err(Failure::Usage(message)),
        Err(args::Usage(message, args::UsageText::Omitted)) => {
            return Err(Failure::Message(message))
        }
    };
    if let Some(warning) = kernel_override_warning() {
        jobs::display(&settings, 2, &warning);
    }
    let result = match settings.mode {
        Mode::List => list::run(
            &settings.inputs,
            settings.display_level >= 3,
            settings.container,
            settings.max_out,
        ),
        Mode::Bench => run_lz4_bench(&settings),
        _ => match jobs::plan(&mut settings) {
            Ok(jobs) => {
                signals::install();
                jobs::run(&settings, &jobs)
            }
            Err(failure) => Err(failure),
        },
    };
    match result {
        // `-qq`: errors too are silent, as `lz4`'s display level 0 makes them; the exit status
        // still says the run failed.
        Err(failure) if settings.display_level == 0 && !failure.is_broken_pipe() => {
            Err(Failure::Quiet(failure.exit_code()))
        }
        result => result,
    }
}

/// `-b#` (`-e#`, `-i#`, `-d`): `lz4`'s benchmark mode, run by `bench.rs` once per level: block
/// compression and decompression of the files (or of the built-in samples when none is given)
/// in blocks of the `-B` size; with `-d`, decompression of `.lz4` files.
fn run_lz4_bench(settings: &Settings) -> Result<(), Failure> {
    let levels = if settings.bench_decode {
        settings.level..=settings.level
    } else {
        bench_levels(settings)
    };
    let dictionary = match &settings.dictionary {
        Some(path) => Some(jobs::read_dictionary(path)?),
        None => None,
    };
    for level in levels {
        bench::run(&bench::Config {
            files: settings.inputs.clone(),
            level,
            // As lz4: 3 s by default, `-i0` one pass.
            seconds: f64::from(settings.bench_seconds.unwrap_or(3).min(3600)),
            block_size: settings
                .bench_block
                .unwrap_or_else(|| settings.block_size.bytes()),
            decode_only: settings.bench_decode,
            dictionary: dictionary.clone(),
        })?;
    }
    Ok(())
}

/// The levels `-b#` (`-e#`) runs; as lz4, a level above the highest is the highest
/// (`-b1e99` runs 1 to 12, once each).
fn bench_levels(settings: &Settings) -> std::ops::RangeInclusive<i32> {
    let highest = i32::from(lz4_simd::block::HC_LEVEL_MAX);
    let first = settings.level.min(highest);
    first..=settings.level_last.unwrap_or(first).clamp(first, highest)
}

/// The library never prints: when `LZ4_SIMD_KERNEL` names no kernel, or one this CPU cannot run,
/// it detects instead and reports that as a value. This is the warning for the user (`-q` hides
/// it, as `lz4`'s other warnings).
fn kernel_override_warning() -> Option<String> {
    match lz4_simd::Kernel::override_status() {
        lz4_simd::KernelOverride::NotSet | lz4_simd::KernelOverride::Used(_) => None,
        ignored => Some(format!("lz4-simd: warning: {ignored}")),
    }
}

fn main() -> ExitCode {
    let mut argv = std::env::args_os();
    let program = argv.next().unwrap_or_default();
    let args: Vec<OsString> = argv.collect();
    let result = run_lz4(&program, &args);
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) if failure.is_broken_pipe() => signals::die_of_broken_pipe(),
        Err(Failure::Reported) => ExitCode::FAILURE,
        Err(Failure::Quiet(code)) => ExitCode::from(code),
        Err(Failure::Usage(message)) => {
            eprintln!("lz4-simd: {message}\nIncorrect parameters\n{USAGE}\n(lz4-simd -h for help)");
            ExitCode::FAILURE
        }
        // Other failures: the message alone (the usage text is for usage errors).
        Err(failure) => {
            eprintln!("lz4-simd: {failure}");
            ExitCode::from(failure.exit_code())
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn help_keeps_its_columns() {
        let text = super::help(true);
        // Labels in one column, descriptions from column 18 (continuations too), 79 wide.
        assert!(
            text.contains("\n  -V              print the version"),
            "{text}"
        );
        assert!(
            text.contains("\n                  or # bytes from 32 up"),
            "{text}"
        );
        assert!(
            text.contains("\n  --favor-decSpeed\n                  output"),
            "{text}"
        );
        assert!(text.lines().all(|line| line.len() <= 79), "{text}");
    }

    #[test]
    fn bench_levels_stop_at_the_highest() {
        let levels = |args: &[&str]| {
            let args: Vec<super::OsString> = args.iter().map(Into::into).collect();
            match super::args::parse(&args) {
                Ok(super::Parsed::Run(settings)) => super::bench_levels(&settings),
                _ => panic!("{args:?}"),
            }
        };
        assert_eq!(levels(&["-b1e99"]), 1..=12);
        assert_eq!(levels(&["-b99"]), 12..=12);
        assert_eq!(levels(&["-b9e3"]), 9..=9);
        assert_eq!(levels(&["-b", "--fast=2"]), -2..=-2);
    }
}
