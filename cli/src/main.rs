//! `lz4-simd`: benchmark the codec, and compress or decompress size-prepended LZ4 blocks.
//!
//! `compress` and `decompress` read and write the *size-prepended block* format (a 4-byte
//! little-endian decompressed size, then one LZ4 block: what `lz4_simd::block::compress_prepend_size`
//! writes, and what python-lz4's `lz4.block` and lz4_flex's `compress_prepend_size` use), not the
//! LZ4 frame format of the `lz4` command-line tool. Inputs are read into memory whole.

#![forbid(unsafe_code)]

mod bench;
mod samples;

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use lz4_simd::block;

#[derive(Parser)]
#[command(
    name = "lz4-simd",
    version,
    about = "LZ4 block codec: benchmark, compress, decompress"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Compress and decompress generated sample data (and FILES), verify every round trip, and
    /// print sizes, ratios and speeds.
    Bench(bench::BenchArgs),
    /// Compress INPUT (default stdin) to OUTPUT (default stdout) as one size-prepended block: a
    /// 4-byte little-endian size, then the LZ4 block. Not the LZ4 frame format.
    Compress {
        /// Input file; `-` or absent for stdin.
        input: Option<PathBuf>,
        /// Output file; `-` or absent for stdout.
        output: Option<PathBuf>,
        /// Acceleration: 1 (default) compresses best; larger is faster. Clamped to 1..=65537.
        #[arg(short, long, default_value_t = 1)]
        acceleration: u32,
    },
    /// Decompress one size-prepended block from INPUT (default stdin) to OUTPUT (default stdout).
    Decompress {
        /// Input file; `-` or absent for stdin.
        input: Option<PathBuf>,
        /// Output file; `-` or absent for stdout.
        output: Option<PathBuf>,
        /// Refuse blocks whose size prefix declares more than this many bytes.
        #[arg(long, value_name = "BYTES", default_value_t = block::MAX_INPUT_SIZE)]
        max_out: usize,
    },
}

/// Why the command failed; printed as `lz4-simd: <message>` with exit code 1.
enum Failure {
    Io(String, io::Error),
    Codec(lz4_simd::Error),
    Message(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Io(what, err) => write!(f, "{what}: {err}"),
            Failure::Codec(err) => write!(f, "{err}"),
            Failure::Message(message) => f.write_str(message),
        }
    }
}

impl From<lz4_simd::Error> for Failure {
    fn from(err: lz4_simd::Error) -> Self {
        Failure::Codec(err)
    }
}

fn is_stdio(path: Option<&Path>) -> bool {
    path.is_none_or(|p| p == Path::new("-"))
}

fn read_input(path: Option<&Path>) -> Result<Vec<u8>, Failure> {
    if is_stdio(path) {
        let mut data = Vec::new();
        io::stdin()
            .lock()
            .read_to_end(&mut data)
            .map_err(|e| Failure::Io("stdin".into(), e))?;
        Ok(data)
    } else {
        let path = path.unwrap_or(Path::new("-"));
        fs::read(path).map_err(|e| Failure::Io(path.display().to_string(), e))
    }
}

fn write_output(path: Option<&Path>, data: &[u8]) -> Result<(), Failure> {
    if is_stdio(path) {
        let mut stdout = io::stdout().lock();
        stdout
            .write_all(data)
            .and_then(|()| stdout.flush())
            .map_err(|e| Failure::Io("stdout".into(), e))
    } else {
        let path = path.unwrap_or(Path::new("-"));
        fs::write(path, data).map_err(|e| Failure::Io(path.display().to_string(), e))
    }
}

/// The size-prepended block at any acceleration (at acceleration 1 the bytes of
/// `block::compress_prepend_size`). Inputs too large for a block are an error, not empty output.
fn compress_prepend_size(data: &[u8], acceleration: u32) -> Result<Vec<u8>, Failure> {
    let Ok(len) = u32::try_from(data.len()) else {
        return Err(Failure::Codec(lz4_simd::Error::InputTooLarge {
            len: data.len(),
            max: block::MAX_INPUT_SIZE,
        }));
    };
    let mut out = vec![0u8; 4 + block::compress_bound(data.len())];
    out[..4].copy_from_slice(&len.to_le_bytes());
    let compressed_len = block::compress_into(data, &mut out[4..], acceleration)?;
    out.truncate(4 + compressed_len);
    Ok(out)
}

fn run(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        Command::Bench(args) => bench::run(&args),
        Command::Compress {
            input,
            output,
            acceleration,
        } => {
            let data = read_input(input.as_deref())?;
            let compressed = compress_prepend_size(&data, acceleration)?;
            write_output(output.as_deref(), &compressed)
        }
        Command::Decompress {
            input,
            output,
            max_out,
        } => {
            let data = read_input(input.as_deref())?;
            let decompressed = block::decompress_size_prepended(&data, max_out)?;
            write_output(output.as_deref(), &decompressed)
        }
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("lz4-simd: {failure}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cli_parses() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    #[test]
    fn prepend_size_matches_library_at_acceleration_1() {
        let data = samples::generated(64 * 1024);
        for (_, sample) in &data {
            let ours = compress_prepend_size(sample, 1).ok().unwrap();
            assert_eq!(ours, block::compress_prepend_size(sample));
            assert_eq!(
                block::decompress_size_prepended(&ours, sample.len()).unwrap(),
                *sample
            );
        }
    }
}
