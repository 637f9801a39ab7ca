//! Frames on every core, adversarially: the one-shot parallel decoder (blocks decoded straight
//! into their place in the output) and the streaming one against the sequential decoder on the
//! inputs that break a placement plan: concatenated frames with and without content sizes,
//! blocks ended early by flushes, stored blocks, dishonest content sizes, caps at every block
//! boundary, many tiny frames, every byte corrupted and every cut of a small stream; readers
//! that are interrupted or short at every call; many frames decoded at once on the shared pool.
//!
//! Run: `cargo test --features parallel --test parallel adversarial::`.
#![cfg(feature = "parallel")]

use std::io::{self, ErrorKind, Read, Write};
use std::sync::mpsc;
use std::time::Duration;

use lz4_simd::frame::{
    self, BlockMode, BlockSize, FrameDecoder, FrameEncoder, FrameOptions, ParallelFrameDecoder,
};
use testkit::alloc::largest_allocation;
use testkit::samples::{self, Rng};

const KIB: usize = 1 << 10;
const THREADS: [usize; 4] = [1, 2, 3, 7];

/// A frame written by the streaming encoder with `flushes` (content offsets where a block is
/// ended early).
fn flushed(data: &[u8], options: &FrameOptions, flushes: &[usize]) -> Vec<u8> {
    let mut encoder = FrameEncoder::with_options(Vec::new(), options.clone());
    let mut pos = 0;
    for &at in flushes {
        encoder.write_all(&data[pos..at]).unwrap();
        encoder.flush().unwrap();
        pos = at;
    }
    encoder.write_all(&data[pos..]).unwrap();
    encoder.finish().unwrap()
}

/// Streams whose blocks do not all fill their room: concatenated frames without content sizes,
/// flushed blocks, stored blocks, declared sizes, skippable frames between.
fn streams() -> Vec<(&'static str, Vec<u8>)> {
    let mut rng = Rng::new(21);
    let text = samples::text(300 * KIB + 17, &mut rng);
    let random = samples::random(150 * KIB, &mut rng);
    let small = FrameOptions::new().block_size(BlockSize::Max64KB);
    let sized = small.clone().content_size(true);
    let checked = small.clone().block_checksum(true).content_checksum(false);
    let mut streams = vec![
        ("one frame", frame::compress(&text, &small)),
        ("one frame, sized", frame::compress(&text, &sized)),
        ("stored blocks", frame::compress(&random, &sized)),
        (
            "flushed",
            flushed(&text, &small, &[10, 70 * KIB, 70 * KIB + 1, 200 * KIB]),
        ),
        (
            "flushed, sized",
            flushed(
                &text,
                &small.clone().declared_content_size(Some(text.len() as u64)),
                &[5000, 150 * KIB],
            ),
        ),
        ("empty frame", frame::compress(b"", &small)),
    ];
    let mut concatenated = Vec::new();
    for (i, options) in [&small, &sized, &checked, &small].into_iter().enumerate() {
        concatenated.extend(frame::compress(&text[..(i + 1) * 70 * KIB + i], options));
        concatenated.extend(frame::skippable_frame(i as u8, &[i as u8; 9]).unwrap());
        concatenated.extend(frame::compress(&random[..i * 1000], options));
    }
    streams.push(("concatenated", concatenated.clone()));
    let mut with_linked = concatenated.clone();
    with_linked.extend(frame::compress(
        &text,
        &small.clone().block_mode(BlockMode::Linked),
    ));
    streams.push(("with a linked frame", with_linked));
    let mut with_legacy = concatenated;
    with_legacy.extend(frame::compress_legacy(&text[..9000], 1));
    streams.push(("with a legacy frame", with_legacy));
    streams
}

/// Every cap that matters: around the end of each frame's content, and a few others.
fn caps(content_len: usize) -> Vec<usize> {
    let mut caps = vec![0, 1, 64 * KIB, 64 * KIB + 1, content_len * 2, usize::MAX];
    for delta in 0..3 {
        caps.push(content_len.saturating_sub(delta));
    }
    caps.push(content_len + 1);
    caps
}

#[test]
fn one_shot_matches_the_sequential_decoder_at_every_cap() {
    for (name, framed) in streams() {
        let content = frame::decompress(&framed, usize::MAX).unwrap();
        let mut caps = caps(content.len());
        // Every 64 KiB boundary (each block's end, when blocks are full).
        caps.extend((1..=content.len() / (64 * KIB)).map(|k| k * 64 * KIB - 1));
        for cap in caps {
            let expected = frame::decompress(&framed, cap);
            for threads in THREADS {
                assert_eq!(
                    frame::decompress_parallel(&framed, cap, threads),
                    expected,
                    "{name}: cap {cap}, {threads} threads"
                );
            }
        }
    }
}

/// Rewrites the content size in the header of the frame at the start of `framed` (which has
/// one) and fixes the header checksum.
fn declare(framed: &mut [u8], size: u64) {
    let info = frame::read_frame_info(framed).unwrap();
    assert!(info.content_size.is_some());
    framed[6..14].copy_from_slice(&size.to_le_bytes());
    let end = info.header_len - 1;
    framed[end] = (xxhash_rust::xxh32::xxh32(&framed[4..end], 0) >> 8) as u8;
}

#[test]
fn a_dishonest_content_size_reports_what_the_sequential_decoder_reports() {
    let data = samples::logs(200 * KIB + 3, &mut Rng::new(22));
    let options = FrameOptions::new()
        .block_size(BlockSize::Max64KB)
        .content_size(true);
    let honest = frame::compress(&data, &options);
    let len = data.len() as u64;
    for declared in [0, 1, len - 65_536, len - 1, len + 1, len + 65_536, 1 << 40] {
        let mut framed = honest.clone();
        declare(&mut framed, declared);
        for cap in [data.len(), data.len() + 100 * KIB, usize::MAX] {
            let expected = frame::decompress(&framed, cap);
            // A declared 0 reads as no size (as liblz4 reads it): that frame decodes.
            assert_eq!(expected.is_err(), declared != 0);
            for threads in THREADS {
                assert_eq!(
                    frame::decompress_parallel(&framed, cap, threads),
                    expected,
                    "declared {declared}, cap {cap}, {threads} threads"
                );
            }
        }
    }
}

#[test]
fn many_tiny_frames() {
    // More frames than the one-shot decoder keeps moves for (each frame's last block leaves a
    // gap), and as many with declared sizes (no gaps).
    let mut rng = Rng::new(23);
    for sized in [false, true] {
        let options = FrameOptions::new().content_size(sized);
        let mut framed = Vec::new();
        let mut content = Vec::new();
        for _ in 0..5000 {
            let piece = samples::text(rng.below(300) as usize + 1, &mut rng);
            framed.extend(frame::compress(&piece, &options));
            content.extend(piece);
        }
        for threads in THREADS {
            assert!(
                frame::decompress_parallel(&framed, content.len(), threads).unwrap() == content,
                "sized {sized}, {threads} threads"
            );
        }
    }
}

/// A small stream of three frames (checksums, a skippable frame between, short blocks).
fn small_stream() -> Vec<u8> {
    let mut rng = Rng::new(24);
    let data = samples::json(6 * KIB, &mut rng);
    let options = FrameOptions::new()
        .block_size(BlockSize::Max64KB)
        .block_checksum(true)
        .declared_content_size(Some(data.len() as u64));
    let mut framed = flushed(&data, &options, &[1000, 2500]);
    framed.extend(frame::skippable_frame(3, b"meta").unwrap());
    framed.extend(flushed(&data[..3000], &FrameOptions::new(), &[700]));
    framed
}

#[test]
fn every_corrupt_byte_and_every_cut_reports_what_the_sequential_decoder_reports() {
    let framed = small_stream();
    let mut inputs = Vec::new();
    for at in 0..framed.len() {
        for flip in [0x01, 0x80] {
            let mut bad = framed.clone();
            bad[at] ^= flip;
            inputs.push((format!("byte {at} ^ {flip:#x}"), bad));
        }
        inputs.push((format!("cut at {at}"), framed[..at].to_vec()));
    }
    for (what, bad) in inputs {
        let expected = frame::decompress(&bad, 1 << 20);
        let streamed = read_all(FrameDecoder::new(&bad[..]));
        for threads in [1, 2, 3] {
            assert_eq!(
                frame::decompress_parallel(&bad, 1 << 20, threads),
                expected,
                "{what}, {threads} threads"
            );
            assert!(
                read_all(ParallelFrameDecoder::new(&bad[..], threads)) == streamed,
                "{what}, {threads} threads, streaming"
            );
        }
    }
}

/// Everything a reader hands out and how it ends (the error's kind and text).
fn read_all(mut reader: impl Read) -> (Vec<u8>, Option<(ErrorKind, String)>) {
    let mut out = Vec::new();
    let mut buf = [0u8; 777];
    loop {
        match reader.read(&mut buf) {
            Ok(0) => return (out, None),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(error) => return (out, Some((error.kind(), error.to_string()))),
        }
    }
}

/// A reader that gives `steps[i % len]` bytes at its `i`th call and is interrupted at every
/// `interrupt`th call.
struct Choppy<'a> {
    data: &'a [u8],
    calls: usize,
    steps: &'a [usize],
    interrupt: usize,
}

impl Read for Choppy<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.calls += 1;
        if self.calls.is_multiple_of(self.interrupt) {
            return Err(io::Error::new(ErrorKind::Interrupted, "interrupted"));
        }
        let n = buf
            .len()
            .min(self.steps[self.calls % self.steps.len()])
            .min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

#[test]
fn interrupted_and_short_reads_at_every_call_lose_nothing() {
    for (name, framed) in streams() {
        let expected = read_all(FrameDecoder::new(&framed[..]));
        for (steps, interrupt) in [
            (&[1, 2, 3, 5, 7][..], 2),
            (&[3, 4000][..], 3),
            (&[65 * KIB][..], 2),
            (&[usize::MAX][..], 1000),
        ] {
            for threads in [1, 2, 7] {
                let reader = Choppy {
                    data: &framed,
                    calls: 0,
                    steps,
                    interrupt,
                };
                assert!(
                    read_all(ParallelFrameDecoder::new(reader, threads)) == expected,
                    "{name}: steps {steps:?}, {threads} threads"
                );
            }
        }
    }
}

#[test]
fn many_frames_at_once_on_the_shared_pool() {
    let data = samples::text(2 << 20, &mut Rng::new(25));
    let options = FrameOptions::new().block_size(BlockSize::Max64KB);
    let framed = frame::compress(&data, &options);
    let (sender, receiver) = mpsc::channel();
    for i in 0..6 {
        let (data, framed, sender) = (data.clone(), framed.clone(), sender.clone());
        let options = options.clone();
        std::thread::spawn(move || {
            for round in 0..4 {
                let threads = [2, 3, 7][(i + round) % 3];
                let ok = frame::decompress_parallel(&framed, data.len(), threads).unwrap() == data
                    && frame::compress_parallel(&data, &options, threads) == framed;
                sender.send(ok).unwrap();
            }
        });
    }
    drop(sender);
    for _ in 0..24 {
        // Not a timing assertion: the work ends in seconds; a deadlock never does.
        let ok = receiver
            .recv_timeout(Duration::from_secs(300))
            .expect("decoding on the shared pool hung");
        assert!(ok);
    }
}

#[test]
fn one_shot_stays_within_the_cap_and_the_content() {
    let data = samples::logs(40 * 64 * KIB, &mut Rng::new(26));
    for options in [
        FrameOptions::new().block_size(BlockSize::Max64KB),
        FrameOptions::new().block_size(BlockSize::Max4MB),
    ] {
        let framed = frame::compress(&data, &options);
        let decoded = frame::decompress_parallel(&framed, data.len(), 2).unwrap();
        assert!(decoded == data);
        assert!(decoded.capacity() <= data.len());
        assert_eq!(
            frame::decompress_parallel(&framed, data.len() - 1, 2),
            frame::decompress(&framed, data.len() - 1)
        );
    }
}

#[test]
fn one_shot_compression_is_byte_identical_for_every_option_and_thread_count() {
    let mut rng = Rng::new(27);
    let data = [
        samples::text(200 * KIB, &mut rng),
        samples::random(70 * KIB, &mut rng),
    ]
    .concat();
    let dict = samples::text(90 * KIB, &mut rng);
    for level in [None, Some(3), Some(9)] {
        for with_dict in [false, true] {
            for (block_checksum, content_checksum, content_size) in [
                (false, true, false),
                (true, false, true),
                (true, true, true),
            ] {
                let options = FrameOptions::new()
                    .block_size(BlockSize::Max64KB)
                    .hc_level(level)
                    .block_checksum(block_checksum)
                    .content_checksum(content_checksum)
                    .content_size(content_size)
                    .dict_id(with_dict.then_some(7));
                let dict: &[u8] = if with_dict { &dict } else { &[] };
                let expected = frame::compress_with_dictionary(&data, dict, &options);
                for threads in THREADS {
                    assert!(
                        frame::compress_parallel_with_dictionary(&data, dict, &options, threads)
                            == expected,
                        "{options:?}, {threads} threads"
                    );
                }
                assert!(
                    frame::decompress_parallel_with_dictionary(&expected, dict, 7, data.len(), 3)
                        .unwrap()
                        == data
                );
            }
        }
    }
}

#[test]
fn one_shot_allocations_on_the_callers_thread_are_the_sequential_functions() {
    let data = samples::logs(30 * 64 * KIB + 9, &mut Rng::new(28));
    for options in [
        FrameOptions::new().block_size(BlockSize::Max64KB),
        FrameOptions::new()
            .block_size(BlockSize::Max256KB)
            .content_size(true),
    ] {
        let (framed, sequential) = largest_allocation(|| frame::compress(&data, &options));
        for threads in THREADS {
            let (parallel, largest) =
                largest_allocation(|| frame::compress_parallel(&data, &options, threads));
            assert!(parallel == framed);
            assert!(largest <= sequential, "{largest} > {sequential}");
        }
        let (_, sequential) = largest_allocation(|| frame::decompress(&framed, data.len()));
        for threads in THREADS {
            let (decoded, largest) =
                largest_allocation(|| frame::decompress_parallel(&framed, data.len(), threads));
            assert!(decoded.unwrap() == data);
            assert!(
                largest <= sequential.max(data.len()),
                "{largest} > {sequential}"
            );
        }
    }
}
