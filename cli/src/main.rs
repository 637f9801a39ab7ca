//! `lz4-simd`: benchmark the codec, and compress or decompress LZ4 frames or size-prepended blocks.
//!
//! `compress` and `decompress` stream the LZ4 *frame* format of the `lz4` command line tool
//! (memory bounded by the block size; with the default options the output is byte-identical to
//! `lz4 -1`'s). With `--block` they read and write one *size-prepended block* instead (a 4-byte
//! little-endian decompressed size, then one LZ4 block: what python-lz4's `lz4.block` and
//! lz4_flex's `compress_prepend_size` use); that input is read into memory whole.

#![forbid(unsafe_code)]

mod bench;
mod samples;

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use lz4_simd::block;
use lz4_simd::frame::{self, BlockMode, BlockSize, FrameOptions};

#[derive(Parser)]
#[command(
    name = "lz4-simd",
    version,
    about = "LZ4 codec: benchmark, compress, decompress (frames, as the lz4 tool, or size-prepended blocks)"
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
    /// Compress INPUT (default stdin) to OUTPUT (default stdout) as an LZ4 frame (the `lz4`
    /// tool's format), or with `--block` as one size-prepended block.
    Compress {
        /// Input file; `-` or absent for stdin.
        input: Option<PathBuf>,
        /// Output file; `-` or absent for stdout.
        output: Option<PathBuf>,
        /// Acceleration: 1 (default) compresses best; larger is faster. Clamped to 1..=65537.
        #[arg(short, long, default_value_t = 1)]
        acceleration: u32,
        #[command(flatten)]
        frame: FrameArgs,
        /// Write one size-prepended block (4-byte LE size + block) instead of a frame.
        #[arg(long, conflicts_with_all = ["block_size_code", "linked", "block_checksum", "no_content_checksum", "content_size", "legacy", "hc"])]
        block: bool,
    },
    /// Decompress LZ4 frames (any mix of frames, skippable and legacy frames, concatenated) from
    /// INPUT (default stdin) to OUTPUT (default stdout), or with `--block` one size-prepended block.
    Decompress {
        /// Input file; `-` or absent for stdin.
        input: Option<PathBuf>,
        /// Output file; `-` or absent for stdout.
        output: Option<PathBuf>,
        /// With `--block`: refuse blocks whose size prefix declares more than this many bytes.
        #[arg(long, value_name = "BYTES", default_value_t = block::MAX_INPUT_SIZE)]
        max_out: usize,
        /// Read one size-prepended block instead of frames.
        #[arg(long)]
        block: bool,
    },
}

/// Frame options, named as the `lz4` tool names them.
#[derive(Args)]
struct FrameArgs {
    /// Block maximum size code: 4 = 64 KB, 5 = 256 KB, 6 = 1 MB, 7 = 4 MB (as `lz4 -B4..-B7`).
    #[arg(short = 'B', long = "block-size", value_name = "CODE", default_value_t = 7, value_parser = clap::value_parser!(u8).range(4..=7))]
    block_size_code: u8,
    /// Linked blocks: each may reference the previous 64 KB (as `lz4 -BD`).
    #[arg(long)]
    linked: bool,
    /// Add an xxh32 checksum after every block (as `lz4 -BX`).
    #[arg(long)]
    block_checksum: bool,
    /// Leave out the content checksum (as `lz4 --no-frame-crc`).
    #[arg(long)]
    no_content_checksum: bool,
    /// Record the content size in the header (as `lz4 --content-size`; needs a file input).
    #[arg(long)]
    content_size: bool,
    /// Write a legacy frame (as `lz4 -l`, fast compressor only).
    #[arg(short, long, conflicts_with = "hc")]
    legacy: bool,
    /// Compress with LZ4 HC at this level (2-12; `lz4 -9` is 9) instead of the fast compressor.
    #[arg(long, value_name = "LEVEL", value_parser = clap::value_parser!(u8).range(2..=12))]
    hc: Option<u8>,
}

impl FrameArgs {
    fn options(&self, acceleration: u32) -> FrameOptions {
        FrameOptions::new()
            .block_size(BlockSize::from_code(self.block_size_code).unwrap_or_default())
            .block_mode(if self.linked {
                BlockMode::Linked
            } else {
                BlockMode::Independent
            })
            .block_checksum(self.block_checksum)
            .content_checksum(!self.no_content_checksum)
            .acceleration(acceleration)
            .hc_level(self.hc)
    }
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

fn open_input(path: Option<&Path>) -> Result<Box<dyn Read>, Failure> {
    if is_stdio(path) {
        Ok(Box::new(io::stdin().lock()))
    } else {
        let path = path.unwrap_or(Path::new("-"));
        let file = fs::File::open(path).map_err(|e| Failure::Io(path.display().to_string(), e))?;
        Ok(Box::new(file))
    }
}

fn open_output(path: Option<&Path>) -> Result<Box<dyn Write>, Failure> {
    if is_stdio(path) {
        Ok(Box::new(io::BufWriter::with_capacity(
            1 << 20,
            io::stdout().lock(),
        )))
    } else {
        let path = path.unwrap_or(Path::new("-"));
        let file =
            fs::File::create(path).map_err(|e| Failure::Io(path.display().to_string(), e))?;
        Ok(Box::new(io::BufWriter::with_capacity(1 << 20, file)))
    }
}

/// An io error from the frame layer: a codec error inside is reported as such.
fn stream_failure(what: &str, err: io::Error) -> Failure {
    match err
        .get_ref()
        .and_then(|inner| inner.downcast_ref::<lz4_simd::Error>())
    {
        Some(codec) => Failure::Codec(codec.clone()),
        None => Failure::Io(what.into(), err),
    }
}

fn compress_frame(
    input: Option<&Path>,
    output: Option<&Path>,
    args: &FrameArgs,
    acceleration: u32,
) -> Result<(), Failure> {
    if args.legacy {
        let data = read_input(input)?;
        return write_output(output, &frame::compress_legacy(&data, acceleration));
    }
    let mut options = args.options(acceleration);
    if args.content_size {
        if is_stdio(input) {
            return Err(Failure::Message(
                "--content-size needs a file input (the size must be known up front)".into(),
            ));
        }
        let path = input.unwrap_or(Path::new("-"));
        let len = fs::metadata(path)
            .map_err(|e| Failure::Io(path.display().to_string(), e))?
            .len();
        // liblz4 writes no size field for empty content.
        options = options.declared_content_size((len > 0).then_some(len));
    }
    let mut reader = open_input(input)?;
    // Like the lz4 tool: an input smaller than one block is compressed in one shot (which picks
    // the smallest block size code that holds it), anything larger is streamed.
    let block_len = BlockSize::from_code(args.block_size_code)
        .unwrap_or_default()
        .bytes();
    let mut first = Vec::with_capacity(block_len);
    (&mut reader)
        .take(block_len as u64)
        .read_to_end(&mut first)
        .map_err(|e| Failure::Io("input".into(), e))?;
    if first.len() < block_len {
        return write_output(output, &frame::compress(&first, &options));
    }
    let mut encoder = frame::FrameEncoder::new(open_output(output)?, options);
    encoder
        .write_all(&first)
        .map_err(|e| stream_failure("compress", e))?;
    drop(first);
    io::copy(&mut reader, &mut encoder).map_err(|e| stream_failure("compress", e))?;
    let mut writer = encoder
        .finish()
        .map_err(|e| stream_failure("compress", e))?;
    writer.flush().map_err(|e| Failure::Io("output".into(), e))
}

fn decompress_frames(input: Option<&Path>, output: Option<&Path>) -> Result<(), Failure> {
    let mut decoder =
        frame::FrameDecoder::new(io::BufReader::with_capacity(1 << 20, open_input(input)?));
    let mut writer = open_output(output)?;
    io::copy(&mut decoder, &mut writer).map_err(|e| stream_failure("decompress", e))?;
    writer.flush().map_err(|e| Failure::Io("output".into(), e))
}

fn run(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        Command::Bench(args) => bench::run(&args),
        Command::Compress {
            input,
            output,
            acceleration,
            frame,
            block,
        } => {
            if block {
                let data = read_input(input.as_deref())?;
                let compressed = compress_prepend_size(&data, acceleration)?;
                write_output(output.as_deref(), &compressed)
            } else {
                compress_frame(input.as_deref(), output.as_deref(), &frame, acceleration)
            }
        }
        Command::Decompress {
            input,
            output,
            max_out,
            block,
        } => {
            if block {
                let data = read_input(input.as_deref())?;
                let decompressed = block::decompress_size_prepended(&data, max_out)?;
                write_output(output.as_deref(), &decompressed)
            } else {
                decompress_frames(input.as_deref(), output.as_deref())
            }
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
