//! The streaming parallel decoder ([`ParallelFrameDecoder`]) and content checksums: in a stream
//! of several independent-block frames (64 KiB blocks in batches, 256 KiB blocks one per job), a
//! wrong stored content checksum in any one frame gives [`FrameDecoder`]'s content (every byte
//! before the error, none of a later frame) and its error, at every thread count from 1 to 7;
//! the same through an inner reader that returns a few bytes at a time; an inner reader that
//! fails once mid-frame costs no byte and changes no verdict (the next call resumes); and a
//! decoder dropped mid-frame, with blocks decoded and not handed out, neither hangs nor leaks
//! its jobs' work into the next decoder.
//!
//! Run: `cargo test --features parallel --test parallel stream_checksum::`.
#![cfg(feature = "parallel")]

use std::io::{self, BufRead, ErrorKind, Read};

use lz4_simd::frame::{
    self, BlockMode, BlockSize, FrameDecoder, FrameOptions, ParallelFrameDecoder,
};
use testkit::io::assert_same_stream;
use testkit::samples::{self, Rng};

const KIB: usize = 1 << 10;

/// Three frames with a content checksum (64 KiB, 256 KiB and 64 KiB blocks), a frame without
/// one between; returns the stream and where each frame's stored content checksum sits.
fn stream() -> (Vec<u8>, Vec<usize>) {
    let mut rng = Rng::new(18);
    let text = samples::text(1100 * KIB + 5, &mut rng);
    let random = samples::random(300 * KIB, &mut rng);
    let small = FrameOptions::new().block_size(BlockSize::Max64KB);
    let frames = [
        (&text[..], small.clone()),
        (&random[..], small.clone().content_checksum(false)),
        (
            &text[3..900 * KIB],
            FrameOptions::new().block_size(BlockSize::Max256KB),
        ),
        (&text[KIB..], small.clone().block_checksum(true)),
    ];
    let mut framed = Vec::new();
    let mut checksums = Vec::new();
    for (content, options) in frames {
        let bytes = frame::compress(content, &options);
        if frame::read_frame_info(&bytes).unwrap().content_checksum {
            checksums.push(framed.len() + bytes.len() - 4);
        }
        framed.extend_from_slice(&bytes);
    }
    (framed, checksums)
}

/// A reader that returns at most `chunk` bytes per call, and fails once (with `TimedOut`) when
/// it reaches `fail_at`.
struct Trickle<'a> {
    data: &'a [u8],
    at: usize,
    chunk: usize,
    fail_at: Option<usize>,
}

impl<'a> Trickle<'a> {
    fn new(data: &'a [u8], chunk: usize, fail_at: Option<usize>) -> Self {
        Self {
            data,
            at: 0,
            chunk,
            fail_at,
        }
    }
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut end = (self.at + self.chunk.min(buf.len())).min(self.data.len());
        if let Some(fail_at) = self.fail_at {
            if self.at == fail_at {
                self.fail_at = None;
                return Err(io::Error::new(ErrorKind::TimedOut, "the reader fails once"));
            }
            if self.at < fail_at {
                end = end.min(fail_at);
            }
        }
        let len = end - self.at;
        buf[..len].copy_from_slice(&self.data[self.at..end]);
        self.at = end;
        Ok(len)
    }
}

/// Reads everything, resuming after each error of the reader (at most 3); stops at the first
/// error that repeats (the decoder's own, which is latched). Returns the content and every
/// error (kind and text).
fn read_resuming(decoder: &mut impl Read) -> (Vec<u8>, Vec<(ErrorKind, String)>) {
    let mut content = Vec::new();
    let mut errors = Vec::new();
    let mut buf = vec![0; 5000];
    loop {
        match decoder.read(&mut buf) {
            Ok(0) => return (content, errors),
            Ok(len) => content.extend_from_slice(&buf[..len]),
            Err(error) => {
                let error = (error.kind(), error.to_string());
                let repeated = errors.last() == Some(&error);
                errors.push(error);
                if repeated || errors.len() > 3 {
                    return (content, errors);
                }
            }
        }
    }
}

#[test]
fn a_wrong_content_checksum_in_any_frame_is_the_sequential_decoders_verdict() {
    let (framed, checksums) = stream();
    for (frame, &at) in checksums.iter().enumerate() {
        let mut bad = framed.clone();
        bad[at] ^= 0x20;
        let expected = read_resuming(&mut FrameDecoder::new(&bad[..]));
        assert!(
            expected.1.len() == 2 && expected.1[0].0 == ErrorKind::InvalidData,
            "frame {frame}: {:?}",
            expected.1
        );
        for threads in 1..=7 {
            let parallel = read_resuming(&mut ParallelFrameDecoder::new(&bad[..], threads));
            assert_same_stream(
                format!("frame {frame}, {threads} threads"),
                &parallel,
                &expected,
            );
            // Through a reader of a few bytes at a time: the same.
            for chunk in [1, 4099] {
                if chunk == 1 && threads > 2 {
                    continue;
                }
                let trickled = read_resuming(&mut ParallelFrameDecoder::new(
                    Trickle::new(&bad, chunk, None),
                    threads,
                ));
                let context = format!("frame {frame}, {threads} threads, reads of {chunk}");
                assert_same_stream(context, &trickled, &expected);
            }
        }
    }
}

#[test]
fn a_reader_failing_mid_frame_costs_no_byte() {
    let (framed, checksums) = stream();
    let mut content = Vec::new();
    FrameDecoder::new(&framed[..])
        .read_to_end(&mut content)
        .unwrap();
    // Inside the first frame's blocks, at its stored checksum, inside the 256 KiB frame, and
    // at the last frame's checksum.
    let places = [
        framed.len() / 9,
        checksums[0],
        checksums[1] - 100_000,
        checksums[2] + 1,
    ];
    for fail_at in places {
        for threads in 1..=7 {
            for chunk in [usize::MAX, 777] {
                let mut decoder =
                    ParallelFrameDecoder::new(Trickle::new(&framed, chunk, Some(fail_at)), threads);
                let (decoded, errors) = read_resuming(&mut decoder);
                assert_eq!(
                    errors.iter().map(|error| error.0).collect::<Vec<_>>(),
                    [ErrorKind::TimedOut],
                    "at {fail_at}, {threads} threads, reads of {chunk}"
                );
                assert!(
                    decoded == content,
                    "at {fail_at}, {threads} threads, reads of {chunk}: content"
                );
            }
        }
    }
    // With a wrong checksum after the failure: the reader's error, then the frame's.
    let mut bad = framed.clone();
    bad[checksums[2]] ^= 1;
    let expected = read_resuming(&mut FrameDecoder::new(Trickle::new(
        &bad,
        usize::MAX,
        Some(checksums[1] + 10),
    )));
    assert_eq!(expected.1.len(), 3, "{:?}", expected.1);
    for threads in 1..=7 {
        let parallel = read_resuming(&mut ParallelFrameDecoder::new(
            Trickle::new(&bad, usize::MAX, Some(checksums[1] + 10)),
            threads,
        ));
        assert_same_stream(format!("{threads} threads"), &parallel, &expected);
    }
}

#[test]
fn dropping_mid_frame_neither_hangs_nor_taints_the_next_decoder() {
    let (framed, _) = stream();
    let mut content = Vec::new();
    FrameDecoder::new(&framed[..])
        .read_to_end(&mut content)
        .unwrap();
    for threads in 1..=7 {
        for stop in [1, 70_000, 300_000, 1_200_000, 2_000_000] {
            let mut decoder = ParallelFrameDecoder::new(&framed[..], threads);
            let mut head = vec![0; stop];
            decoder.read_exact(&mut head).unwrap();
            assert!(
                head[..] == content[..stop],
                "{threads} threads, {stop} bytes"
            );
            drop(decoder);
        }
        // The next decoder, given the buffers the dropped ones left, decodes the same.
        let mut again = Vec::new();
        ParallelFrameDecoder::new(&framed[..], threads)
            .read_to_end(&mut again)
            .unwrap();
        assert!(again == content, "{threads} threads: after the drops");
    }
}

/// How a caller takes the content out of a decoder.
#[derive(Debug, Clone, Copy)]
enum Taker {
    /// `read` into a buffer of this many bytes.
    Read(usize),
    /// `read_to_end`.
    ToEnd,
    /// `fill_buf`, then `consume` of this many bytes (more than there is, at times).
    Consume(usize),
}

/// Takes everything (up to the first error) out of `decoder` as `taker` says; returns the
/// content and the error, if any.
fn take_all(decoder: &mut impl BufRead, taker: Taker) -> (Vec<u8>, Option<String>) {
    let mut content = Vec::new();
    let mut buf = vec![0; 70_000];
    loop {
        let result = match taker {
            Taker::Read(len) => decoder
                .read(&mut buf[..len])
                .inspect(|&read| content.extend_from_slice(&buf[..read])),
            Taker::ToEnd => {
                return match decoder.read_to_end(&mut content) {
                    Ok(_) => (content, None),
                    Err(error) => (content, Some(error.to_string())),
                }
            }
            Taker::Consume(len) => match decoder.fill_buf() {
                Ok(available) => {
                    let read = available.len().min(len);
                    content.extend_from_slice(&available[..read]);
                    let over = if read < len { 3 } else { 0 };
                    decoder.consume(read + over);
                    Ok(read)
                }
                Err(error) => Err(error),
            },
        };
        match result {
            Ok(0) => return (content, None),
            Ok(_) => {}
            Err(error) => return (content, Some(error.to_string())),
        }
    }
}

/// The decoder hashes the content checksum from the content as the caller takes it (whichever
/// way it is taken: `read` of any size, `read_to_end`, `fill_buf` and `consume`, consuming more
/// than there is), in independent frames (read ahead) and linked ones (decoded in place): a
/// right checksum passes, a wrong one in any frame is the sequential decoder's verdict.
#[test]
fn the_content_checksum_covers_the_content_however_it_is_taken() {
    let (mut framed, mut checksums) = stream();
    let text = samples::text(300 * KIB + 7, &mut Rng::new(19));
    let linked = FrameOptions::new()
        .block_size(BlockSize::Max64KB)
        .block_mode(BlockMode::Linked);
    let bytes = frame::compress(&text, &linked);
    checksums.push(framed.len() + bytes.len() - 4);
    framed.extend_from_slice(&bytes);
    let takers = [
        Taker::Read(1),
        Taker::Read(4096),
        Taker::Read(65_537),
        Taker::ToEnd,
        Taker::Consume(1000),
        Taker::Consume(usize::MAX),
    ];
    for bad in [None].into_iter().chain(checksums.iter().map(Some)) {
        let mut input = framed.clone();
        if let Some(&at) = bad {
            input[at] ^= 0x01;
        }
        let expected = take_all(&mut FrameDecoder::new(&input[..]), Taker::ToEnd);
        assert_eq!(expected.1.is_some(), bad.is_some());
        for threads in [1, 2, 3] {
            for taker in takers {
                if matches!(taker, Taker::Read(1)) && (threads > 2 || bad.is_some()) {
                    continue;
                }
                let got = take_all(&mut ParallelFrameDecoder::new(&input[..], threads), taker);
                assert_same_stream(
                    format!("{bad:?}, {threads} threads, {taker:?}"),
                    &got,
                    &expected,
                );
            }
        }
    }
}
