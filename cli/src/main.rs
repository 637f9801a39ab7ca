//! `lz4-simd`: the `lz4` command line tool on the `lz4_simd` library, which cannot lose data.
//!
//! It takes `lz4` 1.10's command line (`args.rs`) and writes `lz4`'s formats with `lz4`'s bytes
//! (`codec.rs`), with one difference: no run can destroy a file. Outputs go to a temporary file
//! renamed over the target only when complete and flushed to disk; an existing file is never
//! replaced without `-f`; an input is never an output; `--rm` removes a source only once its
//! output is durable (`output.rs`, `signals.rs`, `jobs.rs`). `lz4-simd bench` benchmarks the
//! codec on generated samples and files (`bench.rs`); `--block` reads and writes one
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
mod output;
mod progress;
mod samples;
mod signals;
mod stdio;

use std::ffi::OsString;
use std::io;
use std::process::ExitCode;

use clap::Parser;

use args::{Mode, Parsed, Settings};

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
    /// 42 writing compressed data, 70 writing decoded data).
    Exit(u8, String),
    /// A failure not printed (`-qq`), with its exit code.
    Quiet(u8),
}

impl Failure {
    /// Names the file a codec error happened in (other failures name their file already).
    pub fn in_file(self, name: &str) -> Failure {
        match self {
            Failure::Codec(_) => Failure::InFile(name.to_string(), Box::new(self)),
            other => other,
        }
    }

    /// Standard output's reader went away (`lz4-simd -dc f | head`): not an error to report.
    pub fn is_broken_pipe(&self) -> bool {
        match self {
            Failure::Io(_, err) => err.kind() == io::ErrorKind::BrokenPipe,
            Failure::InFile(_, inner) => inner.is_broken_pipe(),
            _ => false,
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Io(what, err) => write!(f, "{what}: {err}"),
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

/// `lz4-simd bench ...`: the codec benchmark (clap parses its options).
#[derive(Parser)]
#[command(name = "lz4-simd bench", version)]
struct BenchCommand {
    #[command(flatten)]
    args: bench::BenchArgs,
}

const USAGE: &str = "Usage : lz4-simd [arg] [input] [output]";

fn help(long: bool) -> String {
    let mut text = format!(
        "lz4-simd {}: the lz4 command line, on a codec that cannot lose data\n\
{USAGE}\n\n\
input   : a filename (with no FILE, or when FILE is - : read standard input)\n\
Arguments :\n\
 -1     : fast compression (default)\n\
 -9     : high compression (levels 2-12 are LZ4 HC)\n\
 -d     : decompression (default for .lz4 extension)\n\
 -z     : force compression\n\
 -D FILE: use FILE as dictionary\n\
 -f     : overwrite output without prompting\n\
 -k     : preserve source files (default)\n\
--rm    : remove source file(s) after successful de/compression\n\
 -h/-H  : display help/long help and exit\n\n\
Advanced arguments :\n\
 -V     : display version number and exit\n\
 -v     : verbose mode\n\
 -q     : suppress warnings; specify twice to suppress errors too\n\
 -c     : force write to standard output, even if it is the console\n\
 -t     : test compressed file integrity\n\
 -m     : multiple input files (implies automatic output filenames)\n\
 -r     : operate recursively on directories (sets also -m)\n\
 -l     : compress using Legacy format (Linux kernel compression)\n\
 -B#    : cut file into blocks of size # bytes [32+]\n\
          or predefined block size [4-7] (default: 7)\n\
 -BI    : Block Independence (default)\n\
 -BD    : Block dependency (improves compression ratio)\n\
 -BX    : enable block checksum (default:disabled)\n\
--no-frame-crc : disable stream checksum (default:enabled)\n\
--content-size : compressed frame includes original size (default:not present)\n\
--list FILE : lists information about .lz4 files (useful for files compressed with --content-size flag)\n\
--[no-]sparse  : sparse mode (default:enabled on file, disabled on stdout)\n\
--favor-decSpeed: compressed files decompress faster, but are less compressed\n\
--fast[=#]: switch to ultra fast compression level (default: 1)\n\
--best  : same as -12\n\
-T#     : use # threads (default: 0 = one per core; same output for any #)\n\
Benchmark arguments :\n\
 -b#    : benchmark file(s), using # compression level (default : 1)\n\
 -e#    : test all compression levels from -bX to # (default : 1)\n\
 -i#    : minimum evaluation time in seconds (default : 3s)\n\n\
lz4-simd extras :\n\
 bench [--help] : benchmark the codec on built-in samples and files\n\
 compress / decompress : the same as -z / -d\n\
--block : one size-prepended block (4-byte size + block) instead of frames\n\
--max-out N : with --block or --container -d, the most content to decode (the whole\n\
          output, every container; default: the block format's largest input, none for\n\
          the streamed hadoop, kafka, lz4-java, clickhouse)\n\
--container NAME : read/write LZ4 inside another system's format instead of frames:\n\
          hadoop, kafka, kafka-v0, lz4-java, prefixed-le32, prefixed-be32,\n\
          prefixed-varint, clickhouse, linux (legacy frame + size trailer or zero\n\
          padding, also read by plain -d), parquet-lz4, parquet-lz4-raw (one page); --list recognises kafka-v0, lz4-java, clickhouse and linux\n\
          files by themselves, the others when named\n",
        env!("CARGO_PKG_VERSION")
    );
    if long {
        text.push_str(
            "\nWhich parameters can be used as aggregated short options: -9BD, -dc, -BX -B5.\n\
Never loses data: outputs are written to a temporary file and renamed when complete,\n\
an existing file is replaced only with -f, and --rm removes a source only once its\n\
output is on disk, and keeps it (a warning, exit status 0) if it changed while it was read.\n\
A standard input or output the caller closed fails the run that uses it, with lz4's exit\n\
codes: 40 reading (also with -d), 42 writing compressed data, 70 writing decoded data.\n",
        );
    }
    text
}

/// Runs what the `lz4`-style command line asks for.
fn run_lz4(args: &[OsString]) -> Result<(), Failure> {
    let mut settings: Settings = match args::parse(args) {
        Ok(Parsed::Run(settings)) => *settings,
        Ok(Parsed::Help) => {
            print!("{}", help(false));
            return Ok(());
        }
        Ok(Parsed::LongHelp) => {
            print!("{}", help(true));
            return Ok(());
        }
        Ok(Parsed::Version) => {
            println!(
                "*** lz4-simd command line interface {}-bits v{}, the lz4 1.10 format ***",
                usize::BITS,
                env!("CARGO_PKG_VERSION")
            );
            return Ok(());
        }
        Err(args::Usage(message)) => return Err(Failure::Usage(message)),
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
            Err(match failure {
                Failure::Exit(code, _) => Failure::Quiet(code),
                _ => Failure::Reported,
            })
        }
        result => result,
    }
}

/// `-b#` (`-e#`, `-i#`): `lz4`'s benchmark mode, run by `bench.rs` once per level: block
/// compression and decompression of the files (or of the built-in samples when none is given)
/// in blocks of the `-B` size.
fn run_lz4_bench(settings: &Settings) -> Result<(), Failure> {
    for level in bench_levels(settings) {
        let mut argv: Vec<OsString> = vec!["lz4-simd bench".into()];
        match codec::Compressor::from_level(level) {
            codec::Compressor::Fast { acceleration } => {
                argv.extend(["-a".into(), acceleration.to_string().into()])
            }
            codec::Compressor::Hc { level } => {
                argv.extend(["--hc".into(), level.to_string().into()])
            }
        }
        argv.extend([
            "--seconds".into(),
            settings
                .bench_seconds
                .unwrap_or(3)
                .clamp(1, 3600)
                .to_string()
                .into(),
            "-B".into(),
            settings.block_size.bytes().to_string().into(),
        ]);
        if !settings.inputs.is_empty() {
            argv.push("--no-samples".into());
            argv.extend(settings.inputs.iter().map(OsString::from));
        }
        println!("level {level}:");
        let command =
            BenchCommand::try_parse_from(argv).map_err(|e| Failure::Usage(e.to_string()))?;
        bench::run(&command.args)?;
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

fn run_bench_subcommand(args: &[OsString]) -> Result<(), Failure> {
    if let Some(warning) = kernel_override_warning() {
        eprintln!("{warning}");
    }
    let argv = std::iter::once(OsString::from("lz4-simd bench")).chain(args.iter().cloned());
    let command = BenchCommand::parse_from(argv);
    bench::run(&command.args)
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
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let result = match args.first() {
        Some(word) if word == "bench" => run_bench_subcommand(&args[1..]),
        _ => run_lz4(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) if failure.is_broken_pipe() => signals::die_of_broken_pipe(),
        Err(Failure::Reported) => ExitCode::FAILURE,
        Err(Failure::Quiet(code)) => ExitCode::from(code),
        Err(Failure::Exit(code, message)) => {
            eprintln!("lz4-simd: {message}");
            ExitCode::from(code)
        }
        Err(Failure::Usage(message)) => {
            eprintln!("lz4-simd: {message}\nIncorrect parameters\n{USAGE}\n(lz4-simd -h for help)");
            ExitCode::FAILURE
        }
        Err(failure) => {
            eprintln!("lz4-simd: {failure}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
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

    #[test]
    fn bench_command_parses() {
        use clap::CommandFactory;
        super::BenchCommand::command().debug_assert();
    }
}
