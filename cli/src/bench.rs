//! `lz4-simd bench`: block compression and decompression speed on generated samples and files.
//!
//! Each input is cut into blocks of `--block-size` bytes, each compressed independently (like the
//! blocks of an LZ4 frame with independent blocks). One *pass* compresses (or decompresses) every
//! block of an input into buffers allocated beforehand; passes repeat until `--seconds` have gone
//! by (at least one pass each way), and the fastest pass is reported, in MB/s of uncompressed data
//! (1 MB = 10^6 bytes). After every decompression pass each block is compared with the original:
//! any difference is an error.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use lz4_simd::block;

use crate::{samples, Failure};

/// Bytes of each built-in sample.
const SAMPLE_LEN: usize = 1 << 20;

#[derive(Args)]
pub struct BenchArgs {
    /// Files to benchmark besides the built-in samples (read into memory whole).
    files: Vec<PathBuf>,
    /// Acceleration: 1 compresses best; larger is faster. Clamped to 1..=65537.
    #[arg(short, long, default_value_t = 1)]
    acceleration: u32,
    /// Time spent on each input in each direction, in seconds.
    #[arg(short, long, default_value_t = 0.5, value_parser = parse_seconds)]
    seconds: f64,
    /// Block size in bytes (suffixes K and M are powers of 1024, e.g. 64K, 4M).
    #[arg(short = 'B', long, value_name = "BYTES", default_value = "64K", value_parser = parse_block_size)]
    block_size: usize,
    /// Skip the built-in samples (benchmark only FILES).
    #[arg(long)]
    no_samples: bool,
    /// Compress with LZ4 HC at this level (2-12) instead of the fast compressor.
    #[arg(long, value_name = "LEVEL", value_parser = clap::value_parser!(u8).range(2..=12))]
    hc: Option<u8>,
}

/// The compressor the bench runs: the fast one at an acceleration, or HC at a level.
pub enum BenchCompressor {
    Fast(block::Compressor, u32),
    Hc(Box<block::HcCompressor>, u8),
}

impl BenchCompressor {
    fn new(args: &BenchArgs) -> Self {
        match args.hc {
            Some(level) => BenchCompressor::Hc(Box::new(block::HcCompressor::new()), level),
            None => BenchCompressor::Fast(block::Compressor::new(), args.acceleration),
        }
    }

    fn compress_into(&mut self, src: &[u8], dst: &mut [u8]) -> Result<usize, lz4_simd::Error> {
        match self {
            BenchCompressor::Fast(compressor, acceleration) => {
                compressor.compress_into(src, dst, *acceleration)
            }
            BenchCompressor::Hc(compressor, level) => compressor.compress_into(src, dst, *level),
        }
    }
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(seconds) if seconds.is_finite() && seconds > 0.0 && seconds <= 3600.0 => Ok(seconds),
        _ => Err(format!("`{text}` is not a number of seconds in (0, 3600]")),
    }
}

fn parse_block_size(text: &str) -> Result<usize, String> {
    let trimmed = text.trim();
    let (digits, multiplier) = match trimmed.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        None => (trimmed, 1),
        Some((at, _)) => match trimmed[at..].to_ascii_uppercase().as_str() {
            "K" | "KB" | "KIB" => (&trimmed[..at], 1 << 10),
            "M" | "MB" | "MIB" => (&trimmed[..at], 1 << 20),
            _ => return Err(format!("`{text}`: expected bytes, optionally with K or M")),
        },
    };
    let size = digits
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_mul(multiplier))
        .ok_or_else(|| format!("`{text}` is not a block size"))?;
    if size == 0 || size > block::MAX_INPUT_SIZE {
        return Err(format!(
            "block size must be between 1 and {} bytes",
            block::MAX_INPUT_SIZE
        ));
    }
    Ok(size)
}

/// One input cut into blocks, with its compressed blocks and decode buffers.
struct Input {
    name: String,
    blocks: Vec<Vec<u8>>,
    compressed: Vec<Vec<u8>>,
    compressed_lens: Vec<usize>,
    decoded: Vec<Vec<u8>>,
}

struct Measurement {
    size: usize,
    compressed: usize,
    compress: Duration,
    decompress: Duration,
}

impl Input {
    fn new(name: String, data: &[u8], block_size: usize) -> Self {
        let blocks: Vec<Vec<u8>> = data.chunks(block_size).map(<[u8]>::to_vec).collect();
        let compressed = blocks
            .iter()
            .map(|b| vec![0u8; block::compress_bound(b.len())])
            .collect();
        let decoded = blocks.iter().map(|b| vec![0u8; b.len()]).collect();
        Input {
            name,
            compressed_lens: vec![0; blocks.len()],
            blocks,
            compressed,
            decoded,
        }
    }

    fn size(&self) -> usize {
        self.blocks.iter().map(Vec::len).sum()
    }

    fn compress_pass(&mut self, compressor: &mut BenchCompressor) -> Result<Duration, Failure> {
        let start = Instant::now();
        for ((src, dst), len) in self
            .blocks
            .iter()
            .zip(self.compressed.iter_mut())
            .zip(self.compressed_lens.iter_mut())
        {
            *len = compressor.compress_into(black_box(src), dst)?;
        }
        Ok(start.elapsed())
    }

    fn decompress_pass(&mut self) -> Result<Duration, Failure> {
        for dst in &mut self.decoded {
            dst.fill(0);
        }
        let start = Instant::now();
        for ((src, len), dst) in self
            .compressed
            .iter()
            .zip(&self.compressed_lens)
            .zip(self.decoded.iter_mut())
        {
            let written = block::decompress_into(black_box(&src[..*len]), dst)?;
            if written != dst.len() {
                return Err(Failure::Message(format!(
                    "round trip failed on {}: a block decoded to {written} bytes instead of {}",
                    self.name,
                    dst.len()
                )));
            }
        }
        let elapsed = start.elapsed();
        for (index, (original, decoded)) in self.blocks.iter().zip(&self.decoded).enumerate() {
            if original != decoded {
                let at = original.iter().zip(decoded).position(|(a, b)| a != b);
                return Err(Failure::Message(format!(
                    "round trip failed on {}: block {index} differs from the original (first difference at byte {})",
                    self.name,
                    at.unwrap_or(0)
                )));
            }
        }
        Ok(elapsed)
    }

    fn measure(
        &mut self,
        compressor: &mut BenchCompressor,
        args: &BenchArgs,
    ) -> Result<Measurement, Failure> {
        let budget = Duration::from_secs_f64(args.seconds);
        let mut compress = Duration::MAX;
        let started = Instant::now();
        loop {
            compress = compress.min(self.compress_pass(compressor)?);
            if started.elapsed() >= budget {
                break;
            }
        }
        let mut decompress = Duration::MAX;
        let started = Instant::now();
        loop {
            decompress = decompress.min(self.decompress_pass()?);
            if started.elapsed() >= budget {
                break;
            }
        }
        Ok(Measurement {
            size: self.size(),
            compressed: self.compressed_lens.iter().sum(),
            compress,
            decompress,
        })
    }
}

fn megabytes_per_second(bytes: usize, time: Duration) -> String {
    let seconds = time.as_secs_f64();
    if bytes == 0 || seconds <= 0.0 {
        "-".to_string()
    } else {
        format!("{:.1}", bytes as f64 / seconds / 1e6)
    }
}

fn ratio(size: usize, compressed: usize) -> String {
    if compressed == 0 {
        "-".to_string()
    } else {
        format!("{:.3}", size as f64 / compressed as f64)
    }
}

fn print_row(name: &str, m: &Measurement) {
    println!(
        "{name:<20} {:>12} {:>12} {:>7} {:>14} {:>16}",
        m.size,
        m.compressed,
        ratio(m.size, m.compressed),
        megabytes_per_second(m.size, m.compress),
        megabytes_per_second(m.size, m.decompress),
    );
}

pub fn run(args: &BenchArgs) -> Result<(), Failure> {
    let mut inputs: Vec<Input> = Vec::new();
    if !args.no_samples {
        for (name, data) in samples::generated(SAMPLE_LEN) {
            inputs.push(Input::new(name, &data, args.block_size));
        }
    }
    for path in &args.files {
        let data = std::fs::read(path).map_err(|e| Failure::Io(path.display().to_string(), e))?;
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        inputs.push(Input::new(name, &data, args.block_size));
    }
    if inputs.is_empty() {
        return Err(Failure::Message(
            "nothing to benchmark (--no-samples and no FILES)".into(),
        ));
    }

    println!(
        "lz4-simd {} bench: block size {} bytes, {}, {} s per input and direction, fastest pass; MB = 10^6 bytes",
        env!("CARGO_PKG_VERSION"),
        args.block_size,
        match args.hc {
            Some(level) => format!("HC level {level}"),
            None => format!("acceleration {}", args.acceleration.clamp(1, block::ACCELERATION_MAX)),
        },
        args.seconds,
    );
    let available: Vec<&str> = lz4_simd::Kernel::available()
        .into_iter()
        .map(lz4_simd::Kernel::name)
        .collect();
    println!(
        "decode kernel: {} (available here: {}; LZ4_SIMD_KERNEL=name forces one)",
        lz4_simd::Kernel::detect(),
        available.join(", ")
    );
    println!(
        "{:<20} {:>12} {:>12} {:>7} {:>14} {:>16}",
        "name", "size", "compressed", "ratio", "compress MB/s", "decompress MB/s"
    );
    let mut compressor = BenchCompressor::new(args);
    let mut total = Measurement {
        size: 0,
        compressed: 0,
        compress: Duration::ZERO,
        decompress: Duration::ZERO,
    };
    for input in &mut inputs {
        let measurement = input.measure(&mut compressor, args)?;
        print_row(&input.name, &measurement);
        total.size += measurement.size;
        total.compressed += measurement.compressed;
        total.compress += measurement.compress;
        total.decompress += measurement.decompress;
    }
    if inputs.len() > 1 {
        print_row("total", &total);
    }
    println!("all round trips verified");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_sizes() {
        assert_eq!(parse_block_size("65536"), Ok(65536));
        assert_eq!(parse_block_size("64K"), Ok(65536));
        assert_eq!(parse_block_size("4m"), Ok(4 << 20));
        assert_eq!(parse_block_size("1KiB"), Ok(1024));
        assert!(parse_block_size("0").is_err());
        assert!(parse_block_size("4G").is_err());
        assert!(parse_block_size("x").is_err());
    }
}
