//! Parallel frames at the seams a review found worth probing:
//!
//! - the buffers a dropped `ParallelFrameDecoder` leaves to the next decoder in the process:
//!   whatever the earlier decoder was (another dictionary or none, dropped mid-stream or at the
//!   end, a corrupt block), the next decoder's content and errors are the sequential decoder's,
//!   and its inner reader is never handed an earlier stream's input;
//! - the one-shot encoder's content checksum, hashed in pieces by whichever thread is idle and by
//!   the caller's thread when it falls `CHECKSUM_LAG` (16) blocks behind: frames of 1-40 blocks
//!   (either side of the lag, inputs a byte either side of a block multiple) are the sequential
//!   encoder's, and liblz4 accepts them.
//!
//! The decoder tests run one at a time (the stash is process-wide): `cargo test --features
//! parallel --test parallel_review`.
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
        None => FrameEncoder::new(Vec::new(), options.clone()),
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
