//! Builds streams of several frames with valid headers from the input (random bytes rarely
//! contain a second valid frame header, so `decode_frame` never reaches what follows a frame):
//! LZ4 frames with options, contents, block modes and a dictionary chosen by the input, written
//! one-shot or streamed with flushes (blocks of every size), skippable and legacy frames between,
//! then optionally corrupts a few bytes. Requires:
//!
//! - the one-shot decoder, the streaming decoder (through a reader that returns short reads,
//!   `Interrupted` and `WouldBlock`, the decoder called again after each `WouldBlock`), the
//!   streaming parallel decoder on 1-3 threads (through such a reader, its content taken by
//!   `read` and by `fill_buf` + `consume` in turn, in pieces of a size the input picks) and the
//!   sans-IO decompressor (input and output in slices of sizes the input picks) and the
//!   one-shot parallel decoder on 1-3 threads give the same verdict: the same content, or the
//!   same error;
//! - an uncorrupted stream decodes to what was compressed, within a cap of exactly its size and
//!   not within one byte less, and liblz4's LZ4F decoder agrees frame by frame.
//!
//! A frame with a content size may declare 0 instead of its size (seed bit 1): LZ4F reads 0 as
//! "unknown" and decodes it, and so must every decoder here.
//!
//! Input layout: a stream byte (frame count, dictionary, corruption count, reader pattern),
//! then per frame a kind-and-options byte, a length byte and a seed byte, then the corruptions,
//! then the bytes contents are made of.
#![no_main]

use std::io::{self, BufRead, Read, Write};

use libfuzzer_sys::fuzz_target;
use lz4_simd::frame::{
    self, BlockMode, BlockSize, FrameDecoder, FrameDecompressor, FrameEncoder, FrameOptions,
    ParallelFrameDecoder, Status,
};
use lz4_simd::Error;
use lz4_simd_fuzz::Bytes;
use testkit::liblz4;

const DICT_ID: u32 = 0xD1C7;

/// `len` bytes made of `material` (repeated, shifted by `seed`), so that contents compress, reach
/// back across blocks and (with a dictionary made of the same material) into the dictionary.
fn make_content(material: &[u8], len: usize, seed: u8) -> Vec<u8> {
    if material.is_empty() {
        return vec![seed; len];
    }
    let mut out = Vec::with_capacity(len);
    let mut pos = usize::from(seed) % material.len();
    while out.len() < len {
        let take = (len - out.len()).min(material.len() - pos);
        out.extend_from_slice(&material[pos..pos + take]);
        pos = (pos + 1 + usize::from(seed)) % material.len();
    }
    out
}

/// One frame of the stream.
struct Part {
    bytes: Vec<u8>,
    content: Vec<u8>,
    /// LZ4F reads it (LZ4 and skippable frames, not legacy ones).
    lz4f: bool,
}

fn lz4_frame(content: &[u8], kind: u8, seed: u8, dict: Option<&[u8]>) -> Vec<u8> {
    let mut options = FrameOptions::new()
        .block_size(if kind & 0x04 != 0 {
            BlockSize::Max256KB
        } else {
            BlockSize::Max64KB
        })
        .block_mode(if kind & 0x08 != 0 {
            BlockMode::Linked
        } else {
            BlockMode::Independent
        })
        .content_checksum(kind & 0x10 != 0)
        .block_checksum(kind & 0x20 != 0);
    if dict.is_some() && seed & 1 != 0 {
        options = options.dict_id(Some(DICT_ID));
    }
    let mut framed = if kind & 0x40 == 0 {
        let options = options.content_size(kind & 0x80 != 0);
        match dict {
            Some(dict) => frame::compress_with_dictionary(content, dict, &options),
            None => frame::compress(content, &options),
        }
    } else {
        streamed(content, kind, seed, dict, options)
    };
    if seed & 2 != 0 {
        declare_zero(&mut framed);
    }
    framed
}

/// Rewrites the content size of the frame `framed` (if its header has the field) to 0, which
/// LZ4F reads as "unknown": the frame still decodes, to the same content.
fn declare_zero(framed: &mut [u8]) {
    let flg = framed[4];
    if flg & 0x08 == 0 {
        return;
    }
    framed[6..14].fill(0);
    let checksum_pos = 14 + if flg & 0x01 != 0 { 4 } else { 0 };
    framed[checksum_pos] = (xxhash_rust::xxh32::xxh32(&framed[4..checksum_pos], 0) >> 8) as u8;
}

fn streamed(
    content: &[u8],
    kind: u8,
    seed: u8,
    dict: Option<&[u8]>,
    mut options: FrameOptions,
) -> Vec<u8> {
    // Streamed, flushed every few thousand bytes: blocks of many sizes (not too many blocks:
    // each costs the compressor a table reset).
    if kind & 0x80 != 0 {
        options = options.declared_content_size(Some(content.len() as u64));
    }
    let piece = 700 + usize::from(seed) * 397;
    let mut encoder = FrameEncoder::with_dictionary(Vec::new(), options, dict.unwrap_or(&[]));
    for (index, chunk) in content.chunks(piece).enumerate() {
        encoder.write_all(chunk).unwrap();
        if index % 3 != 2 {
            encoder.flush().unwrap();
        }
    }
    encoder.finish().unwrap()
}

/// A reader handing out the stream in pieces of 1-`max_piece` bytes, failing now and then with
/// `Interrupted` or `WouldBlock` (before or after a short read).
struct Flaky<'a> {
    data: &'a [u8],
    pattern: u8,
    calls: usize,
}

impl Read for Flaky<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.calls += 1;
        let tick = self.calls.wrapping_mul(usize::from(self.pattern) | 1);
        match tick % 11 {
            3 if self.pattern & 1 != 0 => {
                return Err(io::Error::new(io::ErrorKind::WouldBlock, "not yet"))
            }
            7 if self.pattern & 2 != 0 => {
                return Err(io::Error::new(io::ErrorKind::Interrupted, "signal"))
            }
            _ => {}
        }
        let max_piece = 1 + (tick % (1 + usize::from(self.pattern >> 2) * 97));
        let n = buf.len().min(self.data.len()).min(max_piece);
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

fn frame_error(error: io::Error) -> Error {
    match error
        .get_ref()
        .and_then(|inner| inner.downcast_ref::<Error>())
    {
        Some(error) => error.clone(),
        None => panic!("the decoder returned an error that is not a frame error: {error}"),
    }
}

fn streaming(stream: &[u8], dict: Option<&[u8]>, pattern: u8) -> Result<Vec<u8>, Error> {
    let reader = Flaky {
        data: stream,
        pattern,
        calls: 0,
    };
    let mut decoder = match dict {
        Some(dict) => FrameDecoder::with_dictionary(reader, dict, DICT_ID),
        None => FrameDecoder::new(reader),
    };
    let mut out = Vec::new();
    loop {
        match decoder.read_to_end(&mut out) {
            Ok(_) => return Ok(out),
            Err(error) if error.kind() == io::ErrorKind::WouldBlock => {
                assert!(
                    error.get_ref().is_none_or(|inner| !inner.is::<Error>()),
                    "a WouldBlock of the decoder's own"
                );
            }
            Err(error) => return Err(frame_error(error)),
        }
    }
}

/// The streaming parallel decoder on 1-3 threads, its content taken by `read` and by `fill_buf`
/// + `consume` in turn, in pieces of a size `pattern` picks; called again after a `WouldBlock`.
fn parallel(stream: &[u8], dict: Option<&[u8]>, pattern: u8) -> Result<Vec<u8>, Error> {
    let reader = Flaky {
        data: stream,
        pattern: pattern.rotate_left(3),
        calls: 0,
    };
    let threads = 1 + usize::from(pattern % 3);
    let mut decoder = match dict {
        Some(dict) => ParallelFrameDecoder::with_dictionary(reader, dict, DICT_ID, threads),
        None => ParallelFrameDecoder::new(reader, threads),
    };
    let step = 1 + usize::from(pattern) * 53 % 9_001;
    let mut buf = vec![0u8; step];
    let mut out = Vec::new();
    for call in 0usize.. {
        let taken = if call % 2 == 0 {
            decoder.read(&mut buf).map(|read| {
                out.extend_from_slice(&buf[..read]);
                read
            })
        } else {
            match decoder.fill_buf() {
                Ok(available) => {
                    let read = available.len().min(step);
                    out.extend_from_slice(&available[..read]);
                    decoder.consume(read);
                    Ok(read)
                }
                Err(error) => Err(error),
            }
        };
        match taken {
            Ok(0) => return Ok(out),
            Ok(_) => {}
            Err(error) if error.kind() == io::ErrorKind::WouldBlock => {
                assert!(
                    error.get_ref().is_none_or(|inner| !inner.is::<Error>()),
                    "a WouldBlock of the parallel decoder's own"
                );
            }
            Err(error) => return Err(frame_error(error)),
        }
    }
    unreachable!()
}

/// The sans-IO decompressor, fed `in_step` bytes at a time with `out_step` bytes of room.
fn sans_io(stream: &[u8], dict: Option<&[u8]>, pattern: u8) -> Result<Vec<u8>, Error> {
    let mut decompressor = match dict {
        Some(dict) => FrameDecompressor::with_dictionary(dict, DICT_ID),
        None => FrameDecompressor::new(),
    };
    let in_step = 1 + usize::from(pattern) * 37 % 5_003;
    let mut out = vec![0u8; 1 + usize::from(pattern) * 131 % 70_001];
    let mut content = Vec::new();
    for piece in stream.chunks(in_step) {
        let mut piece = piece;
        loop {
            let progress = decompressor.decompress(piece, &mut out)?;
            content.extend_from_slice(&out[..progress.produced]);
            piece = &piece[progress.consumed..];
            if progress.status == Status::NeedInput {
                break;
            }
        }
    }
    loop {
        let progress = decompressor.decompress(&[], &mut out)?;
        content.extend_from_slice(&out[..progress.produced]);
        if progress.status != Status::OutputFull {
            break;
        }
    }
    decompressor.finish()?;
    Ok(content)
}

fn one_shot(stream: &[u8], dict: Option<&[u8]>, cap: usize) -> Result<Vec<u8>, Error> {
    match dict {
        Some(dict) => frame::decompress_with_dictionary(stream, dict, DICT_ID, cap),
        None => frame::decompress(stream, cap),
    }
}

fuzz_target!(|data: &[u8]| {
    let mut input = Bytes(data);
    let shape = input.u8();
    let frame_count = 1 + usize::from(shape & 3);
    let use_dict = shape & 4 != 0;
    let corruptions = usize::from(shape >> 3 & 3);
    let pattern = input.u8();
    let specs: Vec<[u8; 3]> = (0..frame_count)
        .map(|_| [input.u8(), input.u8(), input.u8()])
        .collect();
    let flips: Vec<[u8; 3]> = (0..corruptions)
        .map(|_| [input.u8(), input.u8(), input.u8()])
        .collect();
    let material = input.0;
    let dict = use_dict.then(|| make_content(material, 1 + material.len() * 3 % 70_000, 1));
    let dict = dict.as_deref();

    let mut parts = Vec::new();
    for [kind, length, seed] in specs {
        // Mostly small contents; now and then several blocks.
        let len = match length >> 6 {
            0 => usize::from(length & 63),
            1 => usize::from(length & 63) * 97,
            2 => usize::from(length & 63) * 1_531,
            _ => usize::from(length & 63) * 4_153,
        };
        let content = make_content(material, len, seed);
        parts.push(match kind & 3 {
            0 => Part {
                bytes: frame::skippable_frame(seed & 15, &content[..len.min(100)]).unwrap(),
                content: Vec::new(),
                lz4f: true,
            },
            1 if dict.is_none() => Part {
                bytes: frame::compress_legacy(&content, 1 + u32::from(seed >> 5)),
                content,
                lz4f: false,
            },
            _ => Part {
                bytes: lz4_frame(&content, kind, seed, dict),
                content,
                lz4f: true,
            },
        });
    }
    let mut stream: Vec<u8> = parts.iter().flat_map(|part| part.bytes.clone()).collect();
    let expected: Vec<u8> = parts.iter().flat_map(|part| part.content.clone()).collect();
    let mut corrupted = false;
    for [low, high, mask] in flips {
        if !stream.is_empty() && mask != 0 {
            let at = (usize::from(high) << 8 | usize::from(low)) * 7 % stream.len();
            stream[at] ^= mask;
            corrupted = true;
        }
    }

    let one = one_shot(&stream, dict, 1 << 26);
    let streamed = streaming(&stream, dict, pattern);
    assert!(
        one == streamed,
        "one-shot and streaming disagree: {:?} vs {:?}",
        one.as_ref().map(Vec::len),
        streamed.as_ref().map(Vec::len)
    );
    let ahead = parallel(&stream, dict, pattern);
    assert!(
        one == ahead,
        "one-shot and parallel streaming disagree: {:?} vs {:?}",
        one.as_ref().map(Vec::len),
        ahead.as_ref().map(Vec::len)
    );
    let pushed = sans_io(&stream, dict, pattern);
    assert!(
        one == pushed,
        "one-shot and sans-IO disagree: {:?} vs {:?}",
        one.as_ref().map(Vec::len),
        pushed.as_ref().map(Vec::len)
    );
    let threads = 1 + usize::from(pattern / 3 % 3);
    let planned = match dict {
        Some(dict) => {
            frame::decompress_parallel_with_dictionary(&stream, dict, DICT_ID, 1 << 26, threads)
        }
        None => frame::decompress_parallel(&stream, 1 << 26, threads),
    };
    assert!(
        one == planned,
        "one-shot and one-shot parallel disagree: {:?} vs {:?}",
        one.as_ref().map(Vec::len),
        planned.as_ref().map(Vec::len)
    );
    if corrupted {
        return;
    }
    assert!(
        one.as_deref() == Ok(&expected[..]),
        "a valid stream decoded wrongly: {:?}",
        one.as_ref().map(Vec::len)
    );
    assert!(one_shot(&stream, dict, expected.len()).as_deref() == Ok(&expected[..]));
    if !expected.is_empty() {
        assert!(matches!(
            one_shot(&stream, dict, expected.len() - 1),
            Err(Error::FrameOutputLimit { .. })
        ));
    }
    for part in &parts {
        if part.lz4f {
            assert!(
                liblz4::decompress_frame(&part.bytes, dict).as_deref() == Some(&part.content[..]),
                "liblz4 disagrees on a frame"
            );
        }
    }
});
