//! `-b`: block compression and decompression speed on files, or on built-in generated samples
//! when none is named; `-b -d`: frame decompression speed on `.lz4` files.
//!
//! Each input is cut into blocks of the `-B` size, each compressed independently (like the
//! blocks of an LZ4 frame with independent blocks). One *pass* compresses (or decompresses) every
//! block of an input into buffers allocated beforehand; passes repeat for `-i#` seconds (`-i0`:
//! one pass each way), and the fastest pass is reported, in MB/s of uncompressed data
//! (1 MB = 10^6 bytes). After every decompression pass each block is compared with the original:
//! any difference is an error. With `-d`, a pass decodes a whole file's frames (checksums
//! included). With `-D`, blocks are compressed and decoded with the dictionary (as lz4 1.10's
//! `-b -D`; it refuses `-b -d -D`, which decodes frames with it here).

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use lz4_simd::block;

use crate::codec::Compressor;
use crate::{samples, Failure};

/// Bytes of each built-in sample.
const SAMPLE_LEN: usize = 1 << 20;

/// What `-b` runs.
pub struct Config {
    /// Files to benchmark (read into memory whole); none: the built-in samples.
    pub files: Vec<PathBuf>,
    /// The compression level (`lz4`'s numbering: below 1 is `--fast`, 2-12 HC).
    pub level: i32,
    /// Time spent on each input in each direction, in seconds; 0: one pass.
    pub seconds: f64,
    /// Block size in bytes.
    pub block_size: usize,
    /// `-d`: the files are `.lz4` files whose decompression is measured.
    pub decode_only: bool,
    /// `-D`: every block is compressed and decoded with this dictionary (its last 64 KiB).
    pub dictionary: Option<Vec<u8>>,
}

/// The compressor the bench runs: the fast one at an acceleration, or HC at a level.
pub enum BenchCompressor {
    Fast(block::Compressor, u32, Option<block::Dictionary>),
    Hc(
        Box<block::HcCompressor>,
        u8,
        Option<Box<block::HcDictionary>>,
    ),
}

impl BenchCompressor {
    fn new(level: i32, dictionary: Option<&[u8]>) -> Self {
        match Compressor::from_level(level) {
            Compressor::Hc { level } => BenchCompressor::Hc(
                Box::new(block::HcCompressor::new()),
                level,
                dictionary.map(|d| Box::new(block::HcDictionary::new(d))),
            ),
            Compressor::Fast { acceleration } => BenchCompressor::Fast(
                block::Compressor::new(),
                acceleration,
                dictionary.map(block::Dictionary::new),
            ),
        }
    }

    fn describe(&self) -> String {
        match self {
            BenchCompressor::Fast(_, acceleration, _) => format!(
                "acceleration {}",
                (*acceleration).clamp(1, block::ACCELERATION_MAX)
            ),
            BenchCompressor::Hc(_, level, _) => format!("HC level {level}"),
        }
    }

    fn compress_into(&mut self, src: &[u8], dst: &mut [u8]) -> Result<usize, lz4_simd::Error> {
        match self {
            BenchCompressor::Fast(compressor, acceleration, None) => {
                compressor.compress_into(src, dst, *acceleration)
            }
            BenchCompressor::Fast(compressor, acceleration, Some(dict)) => {
                compressor.compress_into_with_prepared_dictionary(src, dst, dict, *acceleration)
            }
            BenchCompressor::Hc(compressor, level, None) => {
                compressor.compress_into(src, dst, *level)
            }
            BenchCompressor::Hc(compressor, level, Some(dict)) => {
                compressor.compress_into_with_prepared_dictionary(src, dst, dict, *level)
            }
        }
    }
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
    fn is_empty(&self) -> bool {
        self.blocks.is_empty()
    }

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

    fn decompress_pass(&mut self, dictionary: Option<&[u8]>) -> Result<Duration, Failure> {
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
            let src = black_box(&src[..*len]);
            let written = match dictionary {
                None => block::decompress_into(src, dst)?,
                Some(dict) => block::decompress_into_with_dictionary(src, dst, dict)?,
            };
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
        seconds: f64,
        dictionary: Option<&[u8]>,
    ) -> Result<Measurement, Failure> {
        let budget = Duration::from_secs_f64(seconds);
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
            decompress = decompress.min(self.decompress_pass(dictionary)?);
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
    // `Duration::MAX`: the direction was not measured (`-b -d` compresses nothing).
    if bytes == 0 || seconds <= 0.0 || time == Duration::MAX {
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

/// Writes `text` and a newline to standard output; a write that fails (a full disk, a closed
/// pipe) is the run's failure.
pub fn print_line(text: std::fmt::Arguments) -> Result<(), Failure> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_fmt(format_args!("{text}\n"))
        .and_then(|()| stdout.flush())
        .map_err(|e| Failure::Io("stdout".into(), e))
}

fn print_row(name: &str, m: &Measurement) -> Result<(), Failure> {
    print_line(format_args!(
        "{name:<20} {:>12} {:>12} {:>7} {:>14} {:>16}",
        m.size,
        m.compressed,
        ratio(m.size, m.compressed),
        megabytes_per_second(m.size, m.compress),
        megabytes_per_second(m.size, m.decompress),
    ))
}

/// Reads a file to benchmark, and the name its row shows; `None` for a directory, which is
/// skipped with a message (as lz4 does).
fn read_input(path: &PathBuf) -> Result<Option<(String, Vec<u8>)>, Failure> {
    if path.is_dir() {
        eprintln!("Ignoring {} directory", path.display());
        return Ok(None);
    }
    // lz4's exit code for a benchmark input it cannot open.
    let data =
        std::fs::read(path).map_err(|e| Failure::Exit(10, format!("{}: {e}", path.display())))?;
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    Ok(Some((name, data)))
}

/// lz4's exit code when the named inputs hold no byte to measure (directories, empty files).
fn no_data() -> Failure {
    Failure::Exit(12, "no data to bench".into())
}

fn print_kernel_line() -> Result<(), Failure> {
    let available: Vec<&str> = lz4_simd::Kernel::available()
        .into_iter()
        .map(lz4_simd::Kernel::name)
        .collect();
    print_line(format_args!(
        "decode kernel: {} (available here: {}; LZ4_SIMD_KERNEL=name forces one)",
        lz4_simd::Kernel::detect(),
        available.join(", ")
    ))
}

fn print_header() -> Result<(), Failure> {
    print_line(format_args!(
        "{:<20} {:>12} {:>12} {:>7} {:>14} {:>16}",
        "name", "size", "compressed", "ratio", "compress MB/s", "decompress MB/s"
    ))
}

fn describe_dictionary(dictionary: Option<&[u8]>) -> String {
    dictionary.map_or_else(String::new, |d| {
        format!(", with a dictionary of {} bytes", d.len())
    })
}

fn describe_time(seconds: f64) -> String {
    if seconds > 0.0 {
        format!("{seconds} s per input and direction, fastest pass")
    } else {
        "one pass per input and direction".into()
    }
}

/// Runs one level's benchmark (or, with `decode_only`, the decompression benchmark).
pub fn run(config: &Config) -> Result<(), Failure> {
    if config.decode_only {
        return run_decode(config);
    }
    let mut inputs: Vec<Input> = Vec::new();
    if config.files.is_empty() {
        for (name, data) in samples::generated(SAMPLE_LEN) {
            inputs.push(Input::new(name, &data, config.block_size));
        }
    }
    for path in &config.files {
        if let Some((name, data)) = read_input(path)? {
            inputs.push(Input::new(name, &data, config.block_size));
        }
    }
    if !config.files.is_empty() && inputs.iter().all(|input| input.is_empty()) {
        return Err(no_data());
    }
    let dictionary = config.dictionary.as_deref();
    let mut compressor = BenchCompressor::new(config.level, dictionary);
    print_line(format_args!(
        "lz4-simd {} bench: level {}, {}, block size {} bytes{}, {}; MB = 10^6 bytes",
        env!("CARGO_PKG_VERSION"),
        config.level,
        compressor.describe(),
        config.block_size,
        describe_dictionary(dictionary),
        describe_time(config.seconds),
    ))?;
    print_kernel_line()?;
    print_header()?;
    let mut total = Measurement {
        size: 0,
        compressed: 0,
        compress: Duration::ZERO,
        decompress: Duration::ZERO,
    };
    for input in &mut inputs {
        let measurement = input.measure(&mut compressor, config.seconds, dictionary)?;
        print_row(&input.name, &measurement)?;
        total.size += measurement.size;
        total.compressed += measurement.compressed;
        total.compress += measurement.compress;
        total.decompress += measurement.decompress;
    }
    if inputs.len() > 1 {
        print_row("total", &total)?;
    }
    print_line(format_args!("all round trips verified"))?;
    Ok(())
}

/// `-b -d`: decodes each `.lz4` file's frames, every pass into the same buffer.
fn run_decode(config: &Config) -> Result<(), Failure> {
    if config.files.is_empty() {
        return Err(Failure::Message(
            "-b -d benchmarks the decompression of .lz4 files: name at least one".into(),
        ));
    }
    let inputs = config
        .files
        .iter()
        .filter_map(|path| read_input(path).transpose())
        .collect::<Result<Vec<_>, _>>()?;
    if inputs.iter().all(|(_, data)| data.is_empty()) {
        return Err(no_data());
    }
    print_line(format_args!(
        "lz4-simd {} bench: decompression of LZ4 frames, checksums verified{}, {}; MB = 10^6 bytes",
        env!("CARGO_PKG_VERSION"),
        describe_dictionary(config.dictionary.as_deref()),
        describe_time(config.seconds),
    ))?;
    print_kernel_line()?;
    print_header()?;
    let mut total = Measurement {
        size: 0,
        compressed: 0,
        compress: Duration::MAX,
        decompress: Duration::ZERO,
    };
    let mut decoded = Vec::new();
    for (name, data) in inputs {
        let budget = Duration::from_secs_f64(config.seconds);
        let mut fastest = Duration::MAX;
        let started = Instant::now();
        loop {
            decoded.clear();
            let start = Instant::now();
            let dictionary = config.dictionary.as_deref();
            crate::codec::decompress_frames(
                black_box(&data[..]),
                &mut decoded,
                dictionary,
                false,
                1,
            )
            .map_err(|e| Failure::Io(format!("{name}: not a stream of LZ4 frames (-b -d)"), e))?;
            fastest = fastest.min(start.elapsed());
            if started.elapsed() >= budget {
                break;
            }
        }
        let measurement = Measurement {
            size: decoded.len(),
            compressed: data.len(),
            compress: Duration::MAX,
            decompress: fastest,
        };
        print_row(&name, &measurement)?;
        total.size += measurement.size;
        total.compressed += measurement.compressed;
        total.decompress += measurement.decompress;
    }
    if config.files.len() > 1 {
        print_row("total", &total)?;
    }
    Ok(())
}
