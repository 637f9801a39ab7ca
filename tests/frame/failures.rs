//! The streaming adapters over a failing reader or writer: an error of every `io::ErrorKind` (and
//! `Interrupted`, and short reads and writes) at every position of a set of frames. The decoder
//! and the encoder must resume exactly where they stopped when called again: never a silent end
//! of stream, never a lost or repeated byte, and the resumed output equals the original.
//!
//! Self-contained (its own data generator and test reader/writer).

use std::io::{self, BufRead, ErrorKind, Read, Write};

use lz4_simd::frame::{self, BlockMode, BlockSize, FrameDecoder, FrameEncoder, FrameOptions};
use lz4_simd::Error;

/// Every error kind a reader or writer may return (`Interrupted` is retried by the adapters
/// themselves; the others come back to the caller).
const KINDS: &[ErrorKind] = &[
    ErrorKind::WouldBlock,
    ErrorKind::TimedOut,
    ErrorKind::Other,
    ErrorKind::UnexpectedEof,
    ErrorKind::NotFound,
    ErrorKind::PermissionDenied,
    ErrorKind::ConnectionRefused,
    ErrorKind::ConnectionReset,
    ErrorKind::HostUnreachable,
    ErrorKind::NetworkUnreachable,
    ErrorKind::ConnectionAborted,
    ErrorKind::NotConnected,
    ErrorKind::AddrInUse,
    ErrorKind::AddrNotAvailable,
    ErrorKind::NetworkDown,
    ErrorKind::BrokenPipe,
    ErrorKind::AlreadyExists,
    ErrorKind::NotADirectory,
    ErrorKind::IsADirectory,
    ErrorKind::DirectoryNotEmpty,
    ErrorKind::ReadOnlyFilesystem,
    ErrorKind::StaleNetworkFileHandle,
    ErrorKind::InvalidInput,
    ErrorKind::InvalidData,
    ErrorKind::WriteZero,
    ErrorKind::StorageFull,
    ErrorKind::NotSeekable,
    ErrorKind::QuotaExceeded,
    ErrorKind::FileTooLarge,
    ErrorKind::ResourceBusy,
    ErrorKind::ExecutableFileBusy,
    ErrorKind::Deadlock,
    ErrorKind::CrossesDevices,
    ErrorKind::TooManyLinks,
    ErrorKind::InvalidFilename,
    ErrorKind::ArgumentListTooLong,
    ErrorKind::Unsupported,
    ErrorKind::OutOfMemory,
];

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// Text-like content (so blocks compress and linked blocks reach back), or random bytes (so
    /// blocks are stored raw).
    fn content(&mut self, len: usize, compressible: bool) -> Vec<u8> {
        let mut out = Vec::with_capacity(len + 16);
        while out.len() < len {
            if compressible {
                let word =
                    ["alpha ", "beta ", "gamma ", "delta\n", "epsilon "][self.below(5) as usize];
                out.extend_from_slice(word.as_bytes());
                if self.below(8) == 0 {
                    out.extend_from_slice(self.next().to_string().as_bytes());
                }
            } else {
                out.push(self.next() as u8);
            }
        }
        out.truncate(len);
        out
    }
}

/// The error the test reader and writer inject (told apart from the adapters' own errors).
#[derive(Debug)]
struct Injected;

impl std::fmt::Display for Injected {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("injected failure")
    }
}

impl std::error::Error for Injected {}

fn injected(kind: ErrorKind) -> io::Error {
    io::Error::new(kind, Injected)
}

fn is_injected(error: &io::Error) -> bool {
    error.get_ref().is_some_and(|inner| inner.is::<Injected>())
}

/// How a test reader or writer misbehaves.
#[derive(Clone)]
struct Faults {
    /// An error of the kind, once, when the stream position reaches each offset (a read or
    /// write crossing it stops there first). Sorted by offset.
    at: Vec<(usize, ErrorKind)>,
    /// Reads and writes move a random 1-64 bytes.
    short: bool,
    /// About one call in eight fails with `Interrupted` first.
    interrupts: bool,
    seed: u64,
}

impl Faults {
    fn none() -> Self {
        Self {
            at: Vec::new(),
            short: false,
            interrupts: false,
            seed: 1,
        }
    }

    fn once(at: usize, kind: ErrorKind, messy: bool) -> Self {
        Self {
            at: vec![(at, kind)],
            short: messy,
            interrupts: messy,
            seed: at as u64 + 1,
        }
    }

    /// An error every `step` bytes, cycling through the kinds.
    fn every(step: usize, len: usize, seed: u64) -> Self {
        Self {
            at: (0..=len)
                .step_by(step)
                .enumerate()
                .map(|(index, at)| (at, KINDS[index % KINDS.len()]))
                .collect(),
            short: true,
            interrupts: true,
            seed,
        }
    }

    /// How many bytes the next call at `pos` may move (at most `want`), or the error it returns.
    fn next_call(&mut self, pos: usize, want: usize, rng: &mut Rng) -> io::Result<usize> {
        if let Some(&(at, kind)) = self.at.first() {
            if at == pos {
                self.at.remove(0);
                return Err(injected(kind));
            }
        }
        if self.interrupts && rng.below(8) == 0 {
            return Err(io::Error::new(ErrorKind::Interrupted, "interrupted"));
        }
        let mut n = want;
        if self.short {
            n = n.min(1 + rng.below(64) as usize);
        }
        if let Some(&(at, _)) = self.at.first() {
            n = n.min(at - pos);
        }
        Ok(n)
    }
}

struct FaultyReader<'a> {
    data: &'a [u8],
    pos: usize,
    faults: Faults,
    rng: Rng,
}

impl<'a> FaultyReader<'a> {
    fn new(data: &'a [u8], faults: Faults) -> Self {
        let rng = Rng(faults.seed.wrapping_mul(0x9E37_79B9) | 1);
        Self {
            data,
            pos: 0,
            faults,
            rng,
        }
    }
}

impl Read for FaultyReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let want = buf.len().min(self.data.len() - self.pos);
        let n = self.faults.next_call(self.pos, want, &mut self.rng)?;
        buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// The ways to read a decoder.
#[derive(Debug, Clone, Copy)]
enum ReadMode {
    /// `read` into buffers of uneven sizes.
    Read,
    /// `read_to_end`, called again after each error.
    ReadToEnd,
    /// `fill_buf` / `consume` in uneven steps.
    BufRead,
}

const READ_MODES: [ReadMode; 3] = [ReadMode::Read, ReadMode::ReadToEnd, ReadMode::BufRead];

/// A stream of frames and what it decodes to.
struct Case {
    name: &'static str,
    stream: Vec<u8>,
    content: Vec<u8>,
    dict: Option<(Vec<u8>, u32)>,
}

/// Decodes `case.stream` through a reader failing as `faults` says, calling the decoder again
/// after every error, and returns the content; checks that only injected errors come back and
/// that the end, once reached, stays the end.
fn decode_resuming(case: &Case, faults: Faults, mode: ReadMode) -> Vec<u8> {
    let allowed_errors = faults.at.len();
    let reader = FaultyReader::new(&case.stream, faults);
    let mut decoder = match &case.dict {
        Some((dict, id)) => FrameDecoder::with_dictionary(reader, dict, *id),
        None => FrameDecoder::new(reader),
    };
    let mut rng = Rng(0x5EED_0000 + case.stream.len() as u64);
    let mut out = Vec::new();
    let mut errors = 0;
    loop {
        let result = match mode {
            ReadMode::Read => {
                let mut buf = vec![0u8; 1 + rng.below(300) as usize];
                decoder
                    .read(&mut buf)
                    .inspect(|&n| out.extend_from_slice(&buf[..n]))
            }
            ReadMode::ReadToEnd => decoder.read_to_end(&mut out).map(|_| 0),
            ReadMode::BufRead => match decoder.fill_buf() {
                Ok(available) => {
                    let take = available.len().min(1 + rng.below(300) as usize);
                    out.extend_from_slice(&available[..take]);
                    decoder.consume(take);
                    Ok(take)
                }
                Err(error) => Err(error),
            },
        };
        match result {
            Ok(0) => break,
            Ok(_) => {}
            Err(error) if is_injected(&error) => {
                errors += 1;
                assert!(
                    errors <= allowed_errors,
                    "{}: more errors than injected",
                    case.name
                );
            }
            Err(error) => panic!("{}: {mode:?}: unexpected error {error}", case.name),
        }
    }
    // The end stays the end.
    assert_eq!(decoder.read(&mut [0u8; 16]).unwrap(), 0, "{}", case.name);
    out
}

fn check_decode(case: &Case, faults: Faults, mode: ReadMode, what: &str) {
    let out = decode_resuming(case, faults, mode);
    assert!(
        out == case.content,
        "{}: {mode:?}, {what}: {} bytes decoded, {} expected (first difference at {:?})",
        case.name,
        out.len(),
        case.content.len(),
        out.iter().zip(&case.content).position(|(a, b)| a != b)
    );
}

/// Streams whose blocks are small (an encoder flushed every few hundred bytes), so that failing
/// at every position of them is quick.
fn small_cases() -> Vec<Case> {
    let mut rng = Rng(0x00F0_0D5E);
    let text = rng.content(2_500, true);
    let noise = rng.content(900, false);
    let dict = rng.content(3_000, true);
    let streamed = |options: FrameOptions, content: &[u8], dict: &[u8], piece: usize| {
        let mut encoder = FrameEncoder::with_dictionary(Vec::new(), options, dict);
        for chunk in content.chunks(piece) {
            encoder.write_all(chunk).unwrap();
            encoder.flush().unwrap();
        }
        encoder.finish().unwrap()
    };
    let independent = streamed(
        FrameOptions::new().block_size(BlockSize::Max64KB),
        &text,
        &[],
        400,
    );
    let linked = streamed(
        FrameOptions::new()
            .block_mode(BlockMode::Linked)
            .block_checksum(true)
            .content_checksum(false)
            .declared_content_size(Some(text.len() as u64)),
        &text,
        &[],
        300,
    );
    let stored = streamed(FrameOptions::new().block_checksum(true), &noise, &[], 200);
    let legacy = frame::compress_legacy(&text, 1);
    let with_dict = streamed(
        FrameOptions::new()
            .block_mode(BlockMode::Linked)
            .dict_id(Some(77)),
        &text,
        &dict,
        500,
    );
    let independent_dict = streamed(
        FrameOptions::new().dict_id(Some(77)),
        &text[..1_200],
        &dict,
        250,
    );
    let one_shot = frame::compress(
        &text,
        &FrameOptions::new().content_size(true).block_checksum(true),
    );
    let mut concatenated = frame::skippable_frame(5, b"metadata").unwrap();
    concatenated.extend_from_slice(&one_shot);
    concatenated.extend_from_slice(&frame::compress(b"", &FrameOptions::new()));
    concatenated.extend_from_slice(&stored);
    concatenated.extend_from_slice(&legacy);
    concatenated.extend_from_slice(&linked);
    concatenated.extend_from_slice(&frame::skippable_frame(0, b"").unwrap());
    let concatenated_content = [&text[..], &noise, &text, &text].concat();
    vec![
        Case {
            name: "independent, content checksum",
            stream: independent,
            content: text.clone(),
            dict: None,
        },
        Case {
            name: "linked, block checksums, content size",
            stream: linked,
            content: text.clone(),
            dict: None,
        },
        Case {
            name: "stored blocks",
            stream: stored,
            content: noise,
            dict: None,
        },
        Case {
            name: "legacy",
            stream: legacy,
            content: text.clone(),
            dict: None,
        },
        Case {
            name: "linked with a dictionary",
            stream: with_dict,
            content: text.clone(),
            dict: Some((dict.clone(), 77)),
        },
        Case {
            name: "independent with a dictionary",
            stream: independent_dict,
            content: text[..1_200].to_vec(),
            dict: Some((dict, 77)),
        },
        Case {
            name: "skippable, one-shot, empty, stored, legacy, linked, skippable",
            stream: concatenated,
            content: concatenated_content,
            dict: None,
        },
    ]
}

#[test]
fn decoder_resumes_after_an_error_at_every_position() {
    for case in small_cases() {
        for at in 0..=case.stream.len() {
            // Rotate the kinds, the ways of reading, and plain and messy readers (short reads,
            // interruptions) over the positions.
            let kind = KINDS[at % KINDS.len()];
            let mode = READ_MODES[at % READ_MODES.len()];
            let messy = at % 4 < 2;
            check_decode(
                &case,
                Faults::once(at, kind, messy),
                mode,
                &format!("{kind:?} at {at}"),
            );
        }
    }
}

#[test]
fn decoder_resumes_after_every_kind_of_error() {
    for case in small_cases() {
        for at in [0, 3, 4, 5, 7, case.stream.len() / 2, case.stream.len()] {
            for &kind in KINDS {
                for mode in READ_MODES {
                    check_decode(
                        &case,
                        Faults::once(at, kind, false),
                        mode,
                        &format!("{kind:?} at {at}"),
                    );
                }
            }
        }
    }
}

#[test]
fn decoder_resumes_after_many_errors() {
    for case in small_cases() {
        for step in [1, 2, 5, 13] {
            for mode in READ_MODES {
                check_decode(
                    &case,
                    Faults::every(step, case.stream.len(), step as u64),
                    mode,
                    &format!("an error every {step} bytes"),
                );
            }
        }
    }
}

/// Big blocks (64 KiB, linked, direct decoding into `read_to_end`'s `Vec`): failures at sampled
/// positions, block boundaries among them.
#[test]
fn decoder_resumes_inside_large_blocks() {
    let mut rng = Rng(99);
    let content = rng.content(300_000, true);
    let mut cases = Vec::new();
    for mode in [BlockMode::Independent, BlockMode::Linked] {
        let options = FrameOptions::new()
            .block_size(BlockSize::Max64KB)
            .block_mode(mode)
            .content_size(true);
        cases.push(Case {
            name: "64 KiB blocks",
            stream: frame::compress(&content, &options),
            content: content.clone(),
            dict: None,
        });
    }
    for case in &cases {
        let frames: Vec<_> = frame::frames(&case.stream)
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(frames.len(), 1);
        let mut positions: Vec<usize> = (0..15)
            .map(|_| rng.below(case.stream.len() as u64 + 1) as usize)
            .collect();
        positions.extend([
            0,
            4,
            7,
            15,
            19,
            20,
            case.stream.len() - 4,
            case.stream.len(),
        ]);
        for at in positions {
            for mode in READ_MODES {
                check_decode(
                    case,
                    Faults::once(at, KINDS[at % KINDS.len()], false),
                    mode,
                    &format!("at {at}"),
                );
            }
        }
        check_decode(
            case,
            Faults::every(997, case.stream.len(), 5),
            ReadMode::ReadToEnd,
            "an error every 997 bytes",
        );
    }
}

/// A truncated stream is an error, and stays one: no retry turns it into an end of stream.
#[test]
fn truncation_is_an_error_on_every_later_call() {
    for case in small_cases() {
        for len in [1, 4, 6, case.stream.len() / 2, case.stream.len() - 1] {
            let truncated = &case.stream[..len];
            let mut decoder = match &case.dict {
                Some((dict, id)) => FrameDecoder::with_dictionary(truncated, dict, *id),
                None => FrameDecoder::new(truncated),
            };
            let mut out = Vec::new();
            let first = decoder.read_to_end(&mut out);
            let Err(first) = first else {
                // A legacy frame may end after any block: only a cut inside one is an error.
                assert!(
                    case.name == "legacy" && len <= 4,
                    "{}: cut at {len} accepted",
                    case.name
                );
                continue;
            };
            let error = first
                .get_ref()
                .and_then(|inner| inner.downcast_ref::<Error>());
            assert!(
                matches!(error, Some(Error::FrameTruncated { .. })),
                "{}: {first}",
                case.name
            );
            for _ in 0..3 {
                assert!(decoder.read(&mut [0u8; 64]).is_err(), "{}", case.name);
                assert!(decoder.fill_buf().is_err(), "{}", case.name);
            }
        }
    }
}

/// A writer failing as `faults` says (positions count the bytes it accepted), and its `flush`
/// failing every `flush_fails`-th call.
struct FaultyWriter {
    out: Vec<u8>,
    faults: Faults,
    rng: Rng,
    flush_fails: usize,
    flushes: usize,
}

impl FaultyWriter {
    fn new(faults: Faults, flush_fails: usize) -> Self {
        let rng = Rng(faults.seed.wrapping_mul(0x2545_F491) | 1);
        Self {
            out: Vec::new(),
            faults,
            rng,
            flush_fails,
            flushes: 0,
        }
    }
}

impl Write for FaultyWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self
            .faults
            .next_call(self.out.len(), buf.len(), &mut self.rng)?;
        self.out.extend_from_slice(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.flushes += 1;
        if self.flush_fails > 0 && self.flushes.is_multiple_of(self.flush_fails) {
            return Err(injected(ErrorKind::TimedOut));
        }
        Ok(())
    }
}

/// What the encoder is asked to do.
#[derive(Debug, Clone)]
enum Op {
    Write(std::ops::Range<usize>),
    Flush,
}

/// Runs `script` on an encoder over `writer`, calling again after every injected error, and
/// finishes the frame the same way; returns what the writer received.
fn encode_resuming(
    options: &FrameOptions,
    dict: &[u8],
    content: &[u8],
    script: &[Op],
    writer: FaultyWriter,
) -> Vec<u8> {
    let mut encoder = FrameEncoder::with_dictionary(writer, options.clone(), dict);
    let retry = |result: io::Result<()>| match result {
        Ok(()) => true,
        Err(error) if is_injected(&error) => false,
        Err(error) => panic!("unexpected error {error}"),
    };
    for op in script {
        match op {
            Op::Write(range) => {
                let mut rest = &content[range.clone()];
                while !rest.is_empty() {
                    match encoder.write(rest) {
                        Ok(n) => rest = &rest[n..],
                        Err(error) => assert!(!retry(Err(error))),
                    }
                }
            }
            Op::Flush => while !retry(encoder.flush()) {},
        }
    }
    while !retry(encoder.try_finish()) {}
    encoder.get_ref().out.clone()
}

/// What an encoder is given: options, a dictionary, the content and a script of writes (some of
/// whole blocks, which go the direct path) and flushes.
struct EncoderCase {
    options: FrameOptions,
    dict: Vec<u8>,
    content: Vec<u8>,
    script: Vec<Op>,
}

impl EncoderCase {
    /// The frame, through a writer failing as `writer` says.
    fn encode(&self, writer: FaultyWriter) -> Vec<u8> {
        encode_resuming(
            &self.options,
            &self.dict,
            &self.content,
            &self.script,
            writer,
        )
    }
}

fn encoder_cases() -> Vec<EncoderCase> {
    let mut rng = Rng(0xE7C0);
    let mut cases = Vec::new();
    for (options, dict_len, len) in [
        (FrameOptions::new().block_size(BlockSize::Max64KB), 0, 3_000),
        (
            FrameOptions::new()
                .block_mode(BlockMode::Linked)
                .block_checksum(true)
                .content_checksum(false)
                .declared_content_size(Some(2_000)),
            0,
            2_000,
        ),
        (FrameOptions::new().dict_id(Some(3)), 2_000, 2_500),
        (
            FrameOptions::new()
                .content_checksum(false)
                .hc_level(Some(9)),
            0,
            1_500,
        ),
        (
            FrameOptions::new().block_size(BlockSize::Max64KB),
            0,
            150_000,
        ),
    ] {
        let dict = rng.content(dict_len, true);
        let compressible = len < 100_000 || rng.below(2) == 0;
        let content = rng.content(len, compressible);
        let mut script = Vec::new();
        let mut pos = 0;
        while pos < len {
            let piece = if len > 100_000 && rng.below(3) == 0 {
                70_000
            } else {
                1 + rng.below(700) as usize
            };
            let end = (pos + piece).min(len);
            script.push(Op::Write(pos..end));
            if rng.below(3) == 0 {
                script.push(Op::Flush);
            }
            pos = end;
        }
        cases.push(EncoderCase {
            options,
            dict,
            content,
            script,
        });
    }
    cases
}

#[test]
fn encoder_resumes_after_an_error_at_every_position() {
    for (index, case) in encoder_cases().iter().enumerate() {
        let reference = case.encode(FaultyWriter::new(Faults::none(), 0));
        let decoded =
            frame::decompress_with_dictionary(&reference, &case.dict, 3, case.content.len())
                .unwrap();
        assert!(
            decoded == case.content,
            "case {index}: the reference does not round-trip"
        );
        let positions: Vec<usize> = if reference.len() < 5_000 {
            (0..=reference.len()).collect()
        } else {
            let mut rng = Rng(index as u64 + 7);
            (0..100)
                .map(|_| rng.below(reference.len() as u64 + 1) as usize)
                .chain([0, 1, 7, reference.len() - 8, reference.len()])
                .collect()
        };
        for at in positions {
            let kind = KINDS[at % KINDS.len()];
            let faults = Faults::once(at, kind, at % 2 == 0);
            let flush_fails = if at % 3 == 0 { 2 } else { 0 };
            let got = case.encode(FaultyWriter::new(faults, flush_fails));
            assert!(
                got == reference,
                "case {index}: {kind:?} at {at}: {} bytes written, {} expected (first difference at {:?})",
                got.len(),
                reference.len(),
                got.iter().zip(&reference).position(|(a, b)| a != b)
            );
        }
        for step in [1, 3, 40] {
            let faults = Faults::every(step, reference.len(), step as u64);
            let got = case.encode(FaultyWriter::new(faults, 3));
            assert!(
                got == reference,
                "case {index}: an error every {step} bytes"
            );
        }
    }
}

/// A writer that breaks for good: the encoder never reports the frame finished, and what the
/// writer received is the start of the frame (no block skipped), which no decoder accepts.
#[test]
fn a_broken_writer_never_yields_a_complete_looking_frame() {
    let case = encoder_cases().swap_remove(0);
    let reference = case.encode(FaultyWriter::new(Faults::none(), 0));
    for broken_at in (0..reference.len()).step_by(7) {
        let faults = Faults {
            at: vec![(broken_at, ErrorKind::BrokenPipe); 10_000],
            short: false,
            interrupts: false,
            seed: 1,
        };
        let mut encoder = FrameEncoder::with_dictionary(
            FaultyWriter::new(faults, 0),
            case.options.clone(),
            &case.dict,
        );
        for op in &case.script {
            // Give up on the first error, as a caller would.
            let result = match op {
                Op::Write(range) => encoder.write_all(&case.content[range.clone()]),
                Op::Flush => encoder.flush(),
            };
            if result.is_err() {
                break;
            }
        }
        assert!(encoder.try_finish().is_err(), "broken at {broken_at}");
        assert!(encoder.try_finish().is_err(), "broken at {broken_at}");
        let got = &encoder.get_ref().out;
        assert!(
            reference.starts_with(got),
            "broken at {broken_at}: the output is not the start of the frame"
        );
        assert!(frame::decompress(got, case.content.len()).is_err());
    }
}

#[test]
fn writing_after_finish_is_an_error() {
    let mut encoder = FrameEncoder::new(Vec::new());
    encoder.write_all(b"content").unwrap();
    encoder.try_finish().unwrap();
    assert!(encoder.write(b"more").is_err());
    encoder.try_finish().unwrap();
    let framed = encoder.finish().unwrap();
    assert_eq!(frame::decompress(&framed, 100).unwrap(), b"content");
}
