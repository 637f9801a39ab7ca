//! Frame decoding through each adapter, interleaved (every decoder in turn within each round,
//! medians, as `interleaved.rs`): the one-shot decoder, the blocking `FrameDecoder` (with
//! `read_to_end`, which decodes straight into the `Vec`, and with `read` into a 64 KiB buffer),
//! the sans-IO `FrameDecompressor` (64 KiB input pieces, 64 KiB output), the tokio and
//! futures-io decoders over an in-memory reader and the tokio decoder over a `tokio::io::duplex`
//! pipe fed by a writer task (features `tokio`, `futures-io`; its blocking counterpart: the read
//! loop over an OS pipe fed by a writer thread), and liblz4's
//! LZ4F. Ratios are LZ4F's time over each decoder's (above 1 is faster than LZ4F), and the
//! blocking `read` loop's over the async adapters'.
//!
//! Frames: liblz4's, 4 MiB independent blocks with a content checksum (`lz4 -1`'s defaults), of
//! the Silesia files (first `LZ4_SIMD_BENCH_BYTES`, default 16 MiB) or generated text and logs.
//!
//! `LZ4_SIMD_BENCH_BLOCK` (4-7, default 7) sets the block size code (4: 64 KiB ... 7: 4 MiB);
//! `LZ4_SIMD_BENCH_CLOCK=cpu` times each run by the thread's CPU time (see `testkit::clock`).
//!
//! Run: `cargo bench --bench frame_adapters` (the async rows need the features tokio and
//! futures-io, on by default in lz4-simd-tests).

mod common;

use common::{env_usize, median};

use std::hint::black_box;
use std::io::Read;

use lz4_simd::frame::{self, FrameDecoder, FrameDecompressor, Status};
use testkit::{clock, corpus, liblz4, samples};

const PIECE: usize = 64 << 10;

#[derive(Clone, Copy, PartialEq)]
enum Decoder {
    OneShot,
    ReadToEnd,
    ReadLoop,
    PipeLoop,
    SansIo,
    #[cfg(feature = "tokio")]
    Tokio,
    #[cfg(feature = "tokio")]
    TokioDuplex,
    #[cfg(feature = "futures-io")]
    Futures,
    Lz4f,
}

impl Decoder {
    fn name(self) -> &'static str {
        match self {
            Decoder::OneShot => "one-shot",
            Decoder::ReadToEnd => "read_to_end",
            Decoder::ReadLoop => "read-loop",
            Decoder::PipeLoop => "pipe-read-loop",
            Decoder::SansIo => "sans-io",
            #[cfg(feature = "tokio")]
            Decoder::Tokio => "tokio",
            #[cfg(feature = "tokio")]
            Decoder::TokioDuplex => "tokio-duplex",
            #[cfg(feature = "futures-io")]
            Decoder::Futures => "futures-io",
            Decoder::Lz4f => "LZ4F",
        }
    }

    /// Decodes `framed`; returns the content's length.
    fn run(self, framed: &[u8], len: usize, buf: &mut [u8], out: &mut Vec<u8>) -> usize {
        out.clear();
        match self {
            Decoder::OneShot => frame::decompress(framed, len).unwrap().len(),
            Decoder::ReadToEnd => FrameDecoder::new(framed).read_to_end(out).unwrap(),
            Decoder::ReadLoop => read_all(FrameDecoder::new(framed), buf),
            Decoder::PipeLoop => {
                // The frame arrives through an OS pipe from a writer thread: the blocking
                // counterpart of the tokio decoder over a duplex pipe.
                let (reader, mut writer) = std::io::pipe().unwrap();
                std::thread::scope(|scope| {
                    scope.spawn(move || {
                        use std::io::Write;
                        writer.write_all(framed).unwrap();
                    });
                    read_all(FrameDecoder::new(reader), buf)
                })
            }
            Decoder::SansIo => {
                let mut decompressor = FrameDecompressor::new();
                let mut total = 0;
                for piece in framed.chunks(PIECE) {
                    let mut piece = piece;
                    loop {
                        let progress = decompressor.decompress(piece, buf).unwrap();
                        black_box(&buf[..progress.produced]);
                        total += progress.produced;
                        piece = &piece[progress.consumed..];
                        if progress.status == Status::NeedInput {
                            break;
                        }
                    }
                }
                decompressor.finish().unwrap();
                total
            }
            #[cfg(feature = "tokio")]
            Decoder::Tokio => {
                use tokio::io::AsyncReadExt;
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .build()
                    .unwrap();
                runtime.block_on(async {
                    let mut decoder = frame::tokio::FrameDecoder::new(framed);
                    let mut total = 0;
                    loop {
                        let n = decoder.read(buf).await.unwrap();
                        if n == 0 {
                            return total;
                        }
                        black_box(&buf[..n]);
                        total += n;
                    }
                })
            }
            #[cfg(feature = "tokio")]
            Decoder::TokioDuplex => {
                // The frame arrives through an in-memory pipe from a writer task.
                use tokio::io::{AsyncReadExt, AsyncWriteExt};
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .build()
                    .unwrap();
                runtime.block_on(async {
                    let (mut writer, reader) = tokio::io::duplex(PIECE);
                    let frame = framed.to_vec();
                    let feeder = tokio::spawn(async move {
                        writer.write_all(&frame).await.unwrap();
                        writer.shutdown().await.unwrap();
                    });
                    let mut decoder = frame::tokio::FrameDecoder::new(reader);
                    let mut total = 0;
                    loop {
                        let n = decoder.read(buf).await.unwrap();
                        if n == 0 {
                            break;
                        }
                        black_box(&buf[..n]);
                        total += n;
                    }
                    feeder.await.unwrap();
                    total
                })
            }
            #[cfg(feature = "futures-io")]
            Decoder::Futures => {
                use futures_util::io::AsyncReadExt;
                futures_executor::block_on(async {
                    let mut decoder = frame::futures::FrameDecoder::new(framed);
                    let mut total = 0;
                    loop {
                        let n = decoder.read(buf).await.unwrap();
                        if n == 0 {
                            return total;
                        }
                        black_box(&buf[..n]);
                        total += n;
                    }
                })
            }
            Decoder::Lz4f => liblz4::decompress_frame(framed, None).unwrap().len(),
        }
    }
}

/// Reads `decoder` to its end through `buf` (a caller's read loop); returns the content's
/// length.
fn read_all(mut decoder: impl Read, buf: &mut [u8]) -> usize {
    let mut total = 0;
    loop {
        let n = decoder.read(buf).unwrap();
        if n == 0 {
            return total;
        }
        black_box(&buf[..n]);
        total += n;
    }
}

fn main() {
    if !std::env::args().any(|arg| arg == "--bench") {
        return;
    }
    let rounds = env_usize("LZ4_SIMD_BENCH_ROUNDS", 15).max(1);
    let cap = match env_usize("LZ4_SIMD_BENCH_BYTES", 16 << 20) {
        0 => usize::MAX,
        bytes => bytes,
    };
    let mut files = corpus::load(cap);
    if files.is_empty() {
        eprintln!("NOTICE: no Silesia corpus found; measuring generated text and logs instead");
        files = samples::builtin(8 << 20);
        files.retain(|(name, _)| name == "text" || name == "logs");
    }
    let decoders = [
        Decoder::OneShot,
        Decoder::ReadToEnd,
        Decoder::ReadLoop,
        Decoder::PipeLoop,
        Decoder::SansIo,
        #[cfg(feature = "tokio")]
        Decoder::Tokio,
        #[cfg(feature = "tokio")]
        Decoder::TokioDuplex,
        #[cfg(feature = "futures-io")]
        Decoder::Futures,
        Decoder::Lz4f,
    ];
    let lz4f = decoders.len() - 1;
    let read_loop = 2;
    let block_code = env_usize("LZ4_SIMD_BENCH_BLOCK", 7).clamp(4, 7) as u8;
    println!(
        "ratio = LZ4F's time / the decoder's (medians of {rounds} interleaved rounds; {} KiB blocks; clock: {}); [vs read-loop]",
        64 << (2 * (block_code - 4)),
        clock::name()
    );
    let mut log_sums = vec![0.0f64; decoders.len()];
    let mut buf = vec![0u8; PIECE];
    let mut out = Vec::new();
    for (name, data) in &files {
        let preferences = liblz4::fast_frame_preferences(block_code, false, 1);
        let mut framed = vec![0u8; liblz4::compress_frame_bound(data.len(), &preferences)];
        let framed_len = liblz4::compress_frame(data, &mut framed, &preferences);
        framed.truncate(framed_len);
        for decoder in decoders {
            assert_eq!(
                decoder.run(&framed, data.len(), &mut buf, &mut out),
                data.len()
            );
        }
        let mut times = vec![Vec::with_capacity(rounds); decoders.len()];
        for _ in 0..rounds {
            for (decoder, times) in decoders.iter().zip(times.iter_mut()) {
                let started = clock::Stamp::now();
                black_box(decoder.run(&framed, data.len(), &mut buf, &mut out));
                times.push(started.elapsed_secs());
            }
        }
        let time: Vec<f64> = times.iter_mut().map(|t| median(t)).collect();
        let mut line = format!("{name:10}");
        for (decoder, &t) in decoders.iter().zip(&time) {
            line += &format!(
                " {}={:.3} ({:.0} MB/s) [{:.2}]",
                decoder.name(),
                time[lz4f] / t,
                data.len() as f64 / t / 1e6,
                time[read_loop] / t
            );
        }
        println!("{line}");
        for (sum, &t) in log_sums.iter_mut().zip(&time) {
            *sum += (time[lz4f] / t).ln();
        }
    }
    let mut line = format!("geomean ({} files):", files.len());
    for (decoder, sum) in decoders.iter().zip(&log_sums) {
        line += &format!(
            " {}={:.3}",
            decoder.name(),
            (sum / files.len() as f64).exp()
        );
    }
    println!("{line}");
}
