//! Parallel frames at two seams:
//!
//! - the buffers a dropped `ParallelFrameDecoder` leaves to the next decoder in the process:
//!   whatever the earlier decoder was (another dictionary or none, dropped mid-stream or at the
//!   end, a corrupt block), the next decoder's content and errors are the sequential decoder's,
//!   and its inner reader is never handed an earlier stream's input;
//! - the one-shot encoder's content checksum, hashed in pieces by whichever thread is idle and by
//!   the caller's thread when it falls `CHECKSUM_LAG` (1) block behind: frames of 1-40 blocks
//!   (either side of the lag, inputs a byte either side of a block multiple) are the sequential
//!   encoder's, and liblz4 accepts them.
//!
//! The decoder tests run one at a time (the stash is process-wide; the binary's other tests may
//! take from it meanwhile, which the checks allow): `cargo test --features parallel --test
//! parallel stash_and_lag::`.
#![cfg(feature = "parallel")]

use std::collections::HashSet;
use std::io::{self, ErrorKind, Read};
use std::sync::{Mutex, PoisonError};

use lz4_simd::frame::{self, BlockMode, BlockSize, FrameDecoder, FrameOptions};
use lz4_simd::frame::{FrameEncoder, ParallelFrameDecoder};
use testkit::samples::{self, Rng};

const KIB: usize = 1 << 10;

/// Held by every test: each decoder here takes the whole stash when it is made.
static SERIAL: Mutex<()> = Mutex::new(());

type Outcome = (Vec<u8>, Option<(ErrorKind, String)>);

fn read_all(decoder: &mut impl Read, chunk: usize, stop_after: usize) -> Outcome {
    let mut out = Vec::new();
    let mut buf = vec![0u8; chunk];
    while out.len() < stop_after {
        match decoder.read(&mut buf) {
            Ok(0) => return (out, None),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(error) => return (out, Some((error.kind(), error.to_string()))),
        }
    }
    (out, None)
}

fn framed(data: &[u8], dict: Option<&[u8]>, options: &FrameOptions) -> Vec<u8> {
    let mut encoder = match dict {
        Some(dict) => FrameEncoder::with_dictionary(Vec::new(), options.clone(), dict),
        None => FrameEncoder::with_options(Vec::new(), options.clone()),
    };
    io::Write::write_all(&mut encoder, data).unwrap();
    encoder.finish().unwrap()
}

fn sequential(framed: &[u8], dict: Option<&[u8]>, stop_after: usize) -> Outcome {
    match dict {
        Some(dict) => read_all(
            &mut FrameDecoder::with_dictionary(framed, dict, 7),
            5000,
            stop_after,
        ),
        None => read_all(&mut FrameDecoder::new(framed), 5000, stop_after),
    }
}

fn parallel(framed: &[u8], dict: Option<&[u8]>, threads: usize, stop_after: usize) -> Outcome {
    match dict {
        Some(dict) => read_all(
            &mut ParallelFrameDecoder::with_dictionary(framed, dict, 7, threads),
            5000,
            stop_after,
        ),
        None => read_all(
            &mut ParallelFrameDecoder::new(framed, threads),
            5000,
            stop_after,
        ),
    }
}

/// Decoders of different dictionaries (long, short, under 8 bytes, none), one after another,
/// some dropped mid-stream and some meeting a corrupt block: each reuses the buffers of the one
/// before, whose dictionary sat in front of its blocks, and still gives the sequential decoder's
/// content and error.
#[test]
fn reused_buffers_never_carry_another_decoders_dictionary() {
    let _serial = SERIAL.lock().unwrap_or_else(PoisonError::into_inner);
    let mut rng = Rng::new(41);
    let long = samples::text(80 * KIB, &mut rng);
    let other = samples::logs(70 * KIB, &mut rng);
    let dicts: [Option<&[u8]>; 6] = [
        Some(&long),
        Some(&other[..100]),
        Some(&long[..7]),
        None,
        Some(&other),
        Some(&long[5..]),
    ];
    let options = FrameOptions::new()
        .block_size(BlockSize::Max64KB)
        .block_mode(BlockMode::Independent)
        .content_checksum(true);
    for round in 0..3 {
        for (d, &dict) in dicts.iter().enumerate() {
            // Content that leans on the dictionary: its pieces again and again, with edits.
            let source = dict.filter(|dict| dict.len() > 64).unwrap_or(&long);
            let mut data = Vec::new();
            while data.len() < 12 * 64 * KIB {
                let from = rng.below(source.len() as u64 - 40) as usize;
                let len = (rng.below(3000) as usize + 8).min(source.len() - from);
                data.extend_from_slice(&source[from..from + len]);
                data.push(rng.below(256) as u8);
            }
            let mut framed = framed(&data, dict, &options);
            if round == 2 {
                // A corrupt byte somewhere in the blocks.
                let at = 20 + rng.below(framed.len() as u64 - 40) as usize;
                framed[at] ^= 0x5A;
            }
            let stop_after = if round == 1 {
                rng.below(data.len() as u64) as usize
            } else {
                usize::MAX
            };
            for threads in [2, 3] {
                let want = sequential(&framed, dict, stop_after);
                let got = parallel(&framed, dict, threads, stop_after);
                assert_eq!(
                    got.1, want.1,
                    "round {round}, dictionary {d}, {threads} threads: the error"
                );
                assert!(
                    got.0 == want.0,
                    "round {round}, dictionary {d}, {threads} threads: {} bytes, sequential {}",
                    got.0.len(),
                    want.0.len()
                );
                if round == 0 {
                    assert_eq!(got.0, data);
                }
            }
        }
    }
}

/// A reader that, before it writes, looks at the buffer it is handed for 8-byte words of an
/// earlier stream.
struct Spy<'a> {
    input: &'a [u8],
    earlier: &'a HashSet<u64>,
    seen: usize,
}

impl Read for Spy<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        for word in buf.chunks_exact(8) {
            let word = u64::from_le_bytes(word.try_into().unwrap());
            if self.earlier.contains(&word) {
                self.seen += 1;
            }
        }
        self.input.read(buf)
    }
}

/// The input buffers a dropped decoder leaves are handed to the next decoder's reader to fill:
/// they must not hold the earlier stream's input (another user's data, in a server) any more.
#[test]
fn the_next_decoders_reader_is_not_handed_an_earlier_streams_input() {
    let _serial = SERIAL.lock().unwrap_or_else(PoisonError::into_inner);
    let options = FrameOptions::new()
        .block_size(BlockSize::Max64KB)
        .block_mode(BlockMode::Independent);
    // Incompressible content: its blocks are stored, its bytes in the frame as they are.
    let first = samples::random(16 * 64 * KIB, &mut Rng::new(1));
    let second = samples::random(16 * 64 * KIB + 5, &mut Rng::new(2));
    let earlier: HashSet<u64> = first
        .windows(8)
        .map(|word| u64::from_le_bytes(word.try_into().unwrap()))
        .collect();
    for threads in [2, 3] {
        let framed_first = frame::compress(&first, &options);
        let mut decoder = ParallelFrameDecoder::new(&framed_first[..], threads);
        assert_eq!(read_all(&mut decoder, 1 << 20, usize::MAX).0, first);
        drop(decoder);
        let framed_second = frame::compress(&second, &options);
        let mut decoder = ParallelFrameDecoder::new(
            Spy {
                input: &framed_second,
                earlier: &earlier,
                seen: 0,
            },
            threads,
        );
        assert_eq!(read_all(&mut decoder, 1 << 20, usize::MAX).0, second);
        assert_eq!(
            decoder.get_ref().seen,
            0,
            "{threads} threads: the reader was handed words of the earlier stream"
        );
    }
}

#[test]
fn one_shot_content_checksum_either_side_of_the_lag() {
    let data = samples::text(40 * 64 * KIB + 1, &mut Rng::new(8));
    let options = FrameOptions::new()
        .block_size(BlockSize::Max64KB)
        .content_checksum(true)
        .block_checksum(true);
    for blocks in [1usize, 2, 15, 16, 17, 18, 33, 40] {
        for delta in [-1isize, 0, 1] {
            let len = (blocks * 64 * KIB).saturating_add_signed(delta);
            let src = &data[..len];
            let want = frame::compress(src, &options);
            for threads in [1, 2, 3, 5] {
                let got = frame::compress_parallel(src, &options, threads);
                assert!(got == want, "{len} bytes, {threads} threads");
            }
            assert_eq!(
                testkit::liblz4::decompress_frame(&want, None).as_deref(),
                Some(src),
                "{len} bytes: liblz4"
            );
        }
    }
}

/// Decoders on several threads at once, each made after others were dropped (the stash passes
/// between threads, the pool's workers serve every decoder's queue): each gives the sequential
/// decoder's content and error.
#[test]
fn concurrent_decoders_share_the_stash_and_the_pool() {
    let _serial = SERIAL.lock().unwrap_or_else(PoisonError::into_inner);
    let long = samples::text(80 * KIB, &mut Rng::new(12));
    let options = FrameOptions::new()
        .block_size(BlockSize::Max64KB)
        .block_checksum(true)
        .content_checksum(true);
    std::thread::scope(|scope| {
        for t in 0..4u64 {
            let long = &long;
            let options = &options;
            scope.spawn(move || {
                let mut rng = Rng::new(100 + t);
                for round in 0..6 {
                    let dict_len = [0, 9, 1000, 80 * KIB][rng.below(4) as usize];
                    let dict = (dict_len > 0).then(|| &long[long.len() - dict_len..]);
                    let mut data = Vec::new();
                    while data.len() < 6 * 64 * KIB {
                        let from = rng.below(long.len() as u64 - 600) as usize;
                        data.extend_from_slice(&long[from..from + rng.below(500) as usize + 8]);
                        data.push(rng.below(256) as u8);
                    }
                    let mut framed = framed(&data, dict, options);
                    if rng.below(3) == 0 {
                        let at = 20 + rng.below(framed.len() as u64 - 40) as usize;
                        framed[at] ^= 0x21;
                    }
                    let stop_after = if rng.below(3) == 0 {
                        rng.below(data.len() as u64) as usize
                    } else {
                        usize::MAX
                    };
                    let threads = 2 + rng.below(2) as usize;
                    let want = sequential(&framed, dict, stop_after);
                    let got = parallel(&framed, dict, threads, stop_after);
                    assert_eq!(got.1, want.1, "thread {t}, round {round}: the error");
                    assert!(got.0 == want.0, "thread {t}, round {round}: the content");
                }
            });
        }
    });
}

/// A reader of `input` that gives at most 7,000 bytes a call and fails once, with
/// `ErrorKind::Other`, at the call that would reach past `fail_at`.
struct FailOnce<'a> {
    input: &'a [u8],
    pos: usize,
    fail_at: usize,
    failed: bool,
}

impl Read for FailOnce<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let len = buf.len().min(7000).min(self.input.len() - self.pos);
        if !self.failed && self.pos + len > self.fail_at {
            self.failed = true;
            return Err(io::Error::other("the reader fails once"));
        }
        buf[..len].copy_from_slice(&self.input[self.pos..self.pos + len]);
        self.pos += len;
        Ok(len)
    }
}

/// Everything `decoder` hands out, calling again after each error of the reader: the content
/// before the first error, the rest, and the errors' kinds and messages.
fn read_resuming(decoder: &mut impl Read) -> (Vec<u8>, Vec<u8>, Vec<(ErrorKind, String)>) {
    let mut parts = [Vec::new(), Vec::new()];
    let mut errors = Vec::new();
    let mut buf = vec![0u8; 5000];
    loop {
        match decoder.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => parts[usize::from(!errors.is_empty())].extend_from_slice(&buf[..n]),
            Err(error) => {
                errors.push((error.kind(), error.to_string()));
                if errors.len() > 3 {
                    break;
                }
            }
        }
    }
    let [before, after] = parts;
    (before, after, errors)
}

/// The streaming decoder hands blocks under 256 KiB to its workers in batches (4 blocks of
/// 64 KiB): frames whose block count is not a multiple of the batch (1-13 blocks, a byte either
/// side of a block multiple, tiny and empty contents), a corrupt block at every place in a
/// batch, and a reader failing once at every place in a batch give the sequential decoder's
/// content, errors and content before the error, on 2 and 3 threads.
#[test]
fn batches_of_small_blocks_match_the_sequential_decoder() {
    let _serial = SERIAL.lock().unwrap_or_else(PoisonError::into_inner);
    let mut rng = Rng::new(18);
    let text = samples::text(14 * 64 * KIB, &mut rng);
    for block_checksum in [false, true] {
        let options = FrameOptions::new()
            .block_size(BlockSize::Max64KB)
            .block_checksum(block_checksum);
        let mut lens = vec![0, 1, 100];
        for blocks in 1..=13 {
            lens.extend([
                blocks * 64 * KIB - 1,
                blocks * 64 * KIB,
                blocks * 64 * KIB + 1,
            ]);
        }
        for len in lens {
            let framed = framed(&text[..len], None, &options);
            let expected = sequential(&framed, None, usize::MAX);
            assert_eq!(expected.0, &text[..len]);
            for threads in [2, 3] {
                assert!(
                    parallel(&framed, None, threads, usize::MAX) == expected,
                    "{len} bytes, {threads} threads, block checksum {block_checksum}"
                );
            }
        }

        // 11 blocks: batches of 4, 4 and 3. The size word of each block (header of 7 bytes:
        // no content size, no dictionary).
        let len = 11 * 64 * KIB - 3;
        let framed = framed(&text[..len], None, &options);
        let mut words = Vec::new();
        let mut at = 7;
        loop {
            let word = u32::from_le_bytes(framed[at..at + 4].try_into().unwrap());
            if word == 0 {
                break;
            }
            words.push(at);
            at += 4 + (word & 0x7FFF_FFFF) as usize + if block_checksum { 4 } else { 0 };
        }
        assert_eq!(words.len(), 11);
        for (index, &word) in words.iter().enumerate() {
            // A corrupt block: bytes of its middle changed (a block decoder error, a block
            // checksum error, or content the content checksum rejects).
            let mut corrupt = framed.clone();
            let size = (u32::from_le_bytes(framed[word..word + 4].try_into().unwrap())
                & 0x7FFF_FFFF) as usize;
            for byte in &mut corrupt[word + 4 + size / 3..word + 4 + size / 3 + 16] {
                *byte ^= 0xA5;
            }
            let expected = sequential(&corrupt, None, usize::MAX);
            assert!(expected.1.is_some(), "block {index}");
            for threads in [2, 3] {
                assert!(
                    parallel(&corrupt, None, threads, usize::MAX) == expected,
                    "corrupt block {index}, {threads} threads, block checksum {block_checksum}"
                );
            }

            // The reader fails once: at the block's size word, and inside its bytes.
            for fail_at in [word, word + 4 + size / 2] {
                let reader = || FailOnce {
                    input: &framed,
                    pos: 0,
                    fail_at,
                    failed: false,
                };
                let expected = read_resuming(&mut FrameDecoder::new(reader()));
                assert_eq!(expected.2.len(), 1);
                for threads in [2, 3] {
                    let got = read_resuming(&mut ParallelFrameDecoder::new(reader(), threads));
                    assert!(
                        got == expected,
                        "reader failing at {fail_at} (block {index}), {threads} threads"
                    );
                }
            }
        }
    }
}
