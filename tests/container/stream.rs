//! The containers' streaming adapters (`hadoop`, `java`, `clickhouse`, `kafka` `Decoder` /
//! `Encoder`) against their one-shot functions: the same bytes written whatever the slicing of
//! the writes, the same content and the same verdict read whatever the slicing of the reads;
//! readers and writers that fail at every position lose and repeat nothing; hostile input
//! (truncations, byte flips) gets the one-shot decoder's verdict, latched; memory stays bounded
//! by a block, and the cap applies to each block.
#![cfg(all(feature = "containers", feature = "std"))]

use std::io::{self, BufRead, ErrorKind, Read, Write};

use lz4_simd::container::kafka::{AcceptHeaderChecksum, HeaderChecksum};
use lz4_simd::container::{clickhouse, hadoop, java, kafka};
use lz4_simd::{Error, ErrorKind as Kind};
use testkit::alloc::largest_allocation;
use testkit::samples::generated;

type OneShotDecode = fn(&[u8], usize) -> Result<Vec<u8>, Error>;
type StreamDecode = for<'a> fn(Box<dyn Read + 'a>, usize) -> Box<dyn BufRead + 'a>;
type TotalCapped = for<'a> fn(Box<dyn Read + 'a>, u64) -> Box<dyn BufRead + 'a>;
type StreamEncode = for<'a> fn(Box<dyn Write + 'a>) -> Box<dyn Finish + 'a>;

/// An encoder behind a box: `Write` plus `try_finish`.
trait Finish: Write {
    fn try_finish(&mut self) -> io::Result<()>;
}

impl<W: Write> Finish for hadoop::Encoder<W> {
    fn try_finish(&mut self) -> io::Result<()> {
        hadoop::Encoder::try_finish(self)
    }
}
impl<W: Write> Finish for java::Encoder<W> {
    fn try_finish(&mut self) -> io::Result<()> {
        java::Encoder::try_finish(self)
    }
}
impl<W: Write> Finish for clickhouse::Encoder<W> {
    fn try_finish(&mut self) -> io::Result<()> {
        clickhouse::Encoder::try_finish(self)
    }
}
impl<W: Write> Finish for kafka::Encoder<W> {
    fn try_finish(&mut self) -> io::Result<()> {
        kafka::Encoder::try_finish(self)
    }
}

struct Case {
    name: &'static str,
    compress: fn(&[u8]) -> Vec<u8>,
    decompress: OneShotDecode,
    decoder: StreamDecode,
    /// The stream decoder with no cap on each block and `max_out` on the whole content.
    total_capped: TotalCapped,
    encoder: StreamEncode,
    /// The errors are the one-shot decoder's (same state machine); Kafka's stream decoder is the
    /// frame module's, whose errors name the frame.
    same_errors: bool,
}

/// Small blocks, so that short samples hold many.
const JAVA_BLOCK: usize = 1000;
const CLICKHOUSE_BLOCK: usize = 3000;

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "hadoop",
            compress: |d| hadoop::compress(d).unwrap(),
            decompress: hadoop::decompress,
            decoder: |r, cap| Box::new(hadoop::Decoder::new(r, cap)),
            total_capped: |r, cap| Box::new(hadoop::Decoder::new(r, usize::MAX).max_out(cap)),
            encoder: |w| Box::new(hadoop::Encoder::new(w)),
            same_errors: true,
        },
        Case {
            name: "lz4-java",
            compress: |d| java::compress(d, JAVA_BLOCK).unwrap(),
            decompress: java::decompress,
            decoder: |r, cap| Box::new(java::Decoder::new(r, cap)),
            total_capped: |r, cap| Box::new(java::Decoder::new(r, usize::MAX).max_out(cap)),
            encoder: |w| Box::new(java::Encoder::new(w, JAVA_BLOCK).unwrap()),
            same_errors: true,
        },
        Case {
            name: "clickhouse",
            compress: |d| clickhouse::compress(d, CLICKHOUSE_BLOCK).unwrap(),
            decompress: clickhouse::decompress,
            decoder: |r, cap| Box::new(clickhouse::Decoder::new(r, cap)),
            total_capped: |r, cap| Box::new(clickhouse::Decoder::new(r, usize::MAX).max_out(cap)),
            encoder: |w| Box::new(clickhouse::Encoder::new(w, CLICKHOUSE_BLOCK).unwrap()),
            same_errors: true,
        },
        Case {
            name: "kafka v0",
            compress: |d| kafka::compress(d, HeaderChecksum::OverMagic),
            decompress: |s, cap| kafka::decompress(s, AcceptHeaderChecksum::Either, cap),
            decoder: |r, _| Box::new(kafka::Decoder::new(r, AcceptHeaderChecksum::Either)),
            total_capped: |r, cap| {
                Box::new(kafka::Decoder::new(r, AcceptHeaderChecksum::Either).max_out(cap))
            },
            encoder: |w| Box::new(kafka::Encoder::new(w, HeaderChecksum::OverMagic)),
            same_errors: false,
        },
        Case {
            name: "kafka v1",
            compress: |d| kafka::compress(d, HeaderChecksum::Spec),
            decompress: |s, cap| kafka::decompress(s, AcceptHeaderChecksum::Spec, cap),
            decoder: |r, _| Box::new(kafka::Decoder::new(r, AcceptHeaderChecksum::Spec)),
            total_capped: |r, cap| {
                Box::new(kafka::Decoder::new(r, AcceptHeaderChecksum::Spec).max_out(cap))
            },
            encoder: |w| Box::new(kafka::Encoder::new(w, HeaderChecksum::Spec)),
            same_errors: false,
        },
    ]
}

fn samples() -> Vec<Vec<u8>> {
    vec![
        Vec::new(),
        b"x".to_vec(),
        b"hello hello hello hello".to_vec(),
        generated("log-lines", JAVA_BLOCK, 1),
        generated("random", CLICKHOUSE_BLOCK + 1, 2),
        generated("log-lines", 9000, 3),
        generated("runs", 300_000, 4),
    ]
}

/// A reader over `data` that returns at most `step` bytes per call and, once, an error of
/// `kind` instead of the read that would pass `fail_at`.
struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    step: usize,
    fail_at: Option<(usize, ErrorKind)>,
}

impl Read for Reader<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = out.len().min(self.step).min(self.data.len() - self.pos);
        if let Some((at, kind)) = self.fail_at {
            if self.pos + n >= at && n > 0 || self.pos >= at {
                self.fail_at = None;
                return Err(io::Error::new(kind, "injected"));
            }
        }
        out[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// Reads `decoder` to its end `step` bytes at a time, retrying after errors of the injected
/// kinds (at most `retries` of them); returns the content or the first data error.
fn drain(decoder: &mut dyn BufRead, step: usize, mut retries: usize) -> Result<Vec<u8>, io::Error> {
    let mut content = Vec::new();
    let mut buf = vec![0; step];
    loop {
        match decoder.read(&mut buf) {
            Ok(0) => return Ok(content),
            Ok(n) => content.extend_from_slice(&buf[..n]),
            Err(e) if retries > 0 && e.get_ref().is_some_and(|i| i.to_string() == "injected") => {
                retries -= 1
            }
            Err(e) => return Err(e),
        }
    }
}

/// The crate error inside an `io::Error` of a decoder.
fn inner(error: &io::Error) -> &Error {
    error
        .get_ref()
        .and_then(|e| e.downcast_ref::<Error>())
        .unwrap_or_else(|| panic!("not a data error: {error}"))
}

#[test]
fn encoders_write_the_one_shot_bytes_whatever_the_write_sizes() {
    for case in cases() {
        for data in samples() {
            let expected = (case.compress)(&data);
            for step in [1, 7, 4096, usize::MAX] {
                let mut out = Vec::new();
                {
                    let mut encoder = (case.encoder)(Box::new(&mut out));
                    for piece in data.chunks(step.min(data.len().max(1))) {
                        encoder.write_all(piece).unwrap();
                    }
                    encoder.try_finish().unwrap();
                    // Finished: further writes fail, finishing again is harmless.
                    assert!(encoder.write(b"more").is_err(), "{}", case.name);
                    encoder.try_finish().unwrap();
                }
                assert!(
                    out == expected,
                    "{} {} bytes in writes of {step}",
                    case.name,
                    data.len()
                );
            }
        }
    }
}

#[test]
fn decoders_read_the_one_shot_content_whatever_the_read_sizes() {
    for case in cases() {
        for data in samples() {
            let encoded = (case.compress)(&data);
            assert!((case.decompress)(&encoded, usize::MAX).unwrap() == data);
            for (input_step, output_step) in [(1, 1), (1, 1 << 16), (13, 5), (usize::MAX, 1 << 20)]
            {
                let reader = Reader {
                    data: &encoded,
                    pos: 0,
                    step: input_step,
                    fail_at: None,
                };
                let mut decoder = (case.decoder)(Box::new(reader), usize::MAX);
                let content = drain(&mut *decoder, output_step, 0).unwrap();
                assert!(
                    content == data,
                    "{} {} bytes, reads of {input_step} / {output_step}",
                    case.name,
                    data.len()
                );
                // The end is stable.
                assert_eq!(decoder.read(&mut [0; 8]).unwrap(), 0);
            }
        }
    }
}

#[test]
fn failing_readers_lose_nothing() {
    let kinds = [ErrorKind::WouldBlock, ErrorKind::TimedOut, ErrorKind::Other];
    for case in cases() {
        for data in samples() {
            let encoded = (case.compress)(&data);
            let step = if encoded.len() <= 3000 { 1 } else { 509 };
            for fail_at in (0..=encoded.len()).step_by(step) {
                let kind = kinds[fail_at % kinds.len()];
                let reader = Reader {
                    data: &encoded,
                    pos: 0,
                    step: 1 + fail_at % 97,
                    fail_at: Some((fail_at, kind)),
                };
                let mut decoder = (case.decoder)(Box::new(reader), usize::MAX);
                let content = drain(&mut *decoder, 1 + fail_at % 4096, 1)
                    .unwrap_or_else(|e| panic!("{} failing at {fail_at}: {e}", case.name));
                assert!(content == data, "{} failing at {fail_at}", case.name);
            }
        }
    }
}

/// A writer that takes at most `step` bytes per call and, once, fails the write that would
/// pass `fail_at`.
struct Writer {
    out: Vec<u8>,
    step: usize,
    fail_at: Option<usize>,
}

impl Write for Writer {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = buf.len().min(self.step);
        if let Some(at) = self.fail_at {
            if self.out.len() + n >= at {
                self.fail_at = None;
                return Err(io::Error::new(ErrorKind::WouldBlock, "injected"));
            }
        }
        self.out.extend_from_slice(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn failing_writers_lose_nothing() {
    for case in cases() {
        for data in samples() {
            let expected = (case.compress)(&data);
            let step = if expected.len() <= 3000 { 1 } else { 211 };
            for fail_at in (0..=expected.len()).step_by(step) {
                let mut writer = Writer {
                    out: Vec::new(),
                    step: 1 + fail_at % 1000,
                    fail_at: Some(fail_at),
                };
                {
                    let mut encoder = (case.encoder)(Box::new(&mut writer));
                    let mut rest = &data[..];
                    let write_size = 1 + fail_at % 5000;
                    while !rest.is_empty() {
                        match encoder.write(&rest[..write_size.min(rest.len())]) {
                            Ok(n) => rest = &rest[n..],
                            Err(e) => assert_eq!(e.kind(), ErrorKind::WouldBlock),
                        }
                    }
                    while let Err(e) = encoder.try_finish() {
                        assert_eq!(e.kind(), ErrorKind::WouldBlock);
                    }
                }
                assert!(
                    writer.out == expected,
                    "{} {} bytes, failing at {fail_at}",
                    case.name,
                    data.len()
                );
            }
        }
    }
}

/// The stream decoder's verdict on `src` is the one-shot decoder's: the same content, or an
/// error (the same error where both run the same state machine), latched.
fn same_verdict(case: &Case, src: &[u8], what: &str) {
    let one_shot = (case.decompress)(src, usize::MAX);
    let reader = Reader {
        data: src,
        pos: 0,
        step: 1 + src.len() % 13,
        fail_at: None,
    };
    let mut decoder = (case.decoder)(Box::new(reader), usize::MAX);
    match (one_shot, drain(&mut *decoder, 4096, 0)) {
        (Ok(expected), Ok(content)) => assert!(content == expected, "{} {what}", case.name),
        (Err(expected), Err(error)) => {
            if case.same_errors {
                assert_eq!(inner(&error), &expected, "{} {what}", case.name);
            }
            let again = match decoder.read(&mut [0; 16]) {
                Ok(n) => panic!("{} {what}: {n} bytes after {error}", case.name),
                Err(again) => again,
            };
            assert_eq!(again.to_string(), error.to_string(), "{} {what}", case.name);
        }
        (Ok(_), Err(error)) => panic!("{} {what}: stream refused: {error}", case.name),
        (Err(error), Ok(_)) => panic!("{} {what}: stream accepted, one-shot: {error}", case.name),
    }
}

#[test]
fn hostile_input_gets_the_one_shot_verdict() {
    for case in cases() {
        for data in samples() {
            let encoded = (case.compress)(&data);
            let step = if encoded.len() <= 3000 { 1 } else { 97 };
            for cut in (0..encoded.len()).step_by(step) {
                same_verdict(&case, &encoded[..cut], &format!("cut at {cut}"));
            }
            for pos in (0..encoded.len()).step_by(step.max(3)) {
                let mut flipped = encoded.clone();
                flipped[pos] ^= 1 << (pos % 8);
                same_verdict(&case, &flipped, &format!("flip at {pos}"));
            }
            // Concatenated: two streams (lz4-java, Hadoop, ClickHouse) or trailing bytes
            // (Kafka).
            let twice = [&encoded[..], &encoded[..]].concat();
            same_verdict(&case, &twice, "twice");
        }
    }
}

#[test]
fn errors_name_the_truncation_as_unexpected_eof() {
    for case in cases() {
        let encoded = (case.compress)(b"truncated truncated truncated");
        let mut decoder = (case.decoder)(Box::new(&encoded[..encoded.len() - 1]), usize::MAX);
        let error = drain(&mut *decoder, 100, 0).expect_err(case.name);
        assert_eq!(
            error.kind(),
            ErrorKind::UnexpectedEof,
            "{}: {error}",
            case.name
        );
    }
}

#[test]
fn the_cap_applies_to_each_block() {
    let data = generated("log-lines", 100_000, 7);
    // lz4-java: blocks of 1000 bytes, a cap of 1000 per block; 999 refuses the first.
    let stream = java::compress(&data, JAVA_BLOCK).unwrap();
    let mut decoded = Vec::new();
    java::Decoder::new(&stream[..], JAVA_BLOCK)
        .read_to_end(&mut decoded)
        .unwrap();
    assert!(decoded == data);
    let error = java::Decoder::new(&stream[..], JAVA_BLOCK - 1)
        .read_to_end(&mut Vec::new())
        .unwrap_err();
    assert_eq!(inner(&error).kind(), Kind::LimitExceeded, "{error}");

    let stream = clickhouse::compress(&data, CLICKHOUSE_BLOCK).unwrap();
    let mut decoder = clickhouse::Decoder::new(&stream[..], CLICKHOUSE_BLOCK);
    assert_eq!(
        io::copy(&mut decoder, &mut io::sink()).unwrap(),
        data.len() as u64
    );
    let error = clickhouse::Decoder::new(&stream[..], CLICKHOUSE_BLOCK - 1)
        .read_to_end(&mut Vec::new())
        .unwrap_err();
    assert_eq!(inner(&error).kind(), Kind::LimitExceeded, "{error}");

    let big = generated("log-lines", 3 * hadoop::MAX_CHUNK_INPUT, 8);
    let stream = hadoop::compress(&big).unwrap();
    let mut decoder = hadoop::Decoder::new(&stream[..], hadoop::MAX_CHUNK_INPUT);
    assert_eq!(
        io::copy(&mut decoder, &mut io::sink()).unwrap(),
        big.len() as u64
    );
    let error = hadoop::Decoder::new(&stream[..], hadoop::MAX_CHUNK_INPUT - 1)
        .read_to_end(&mut Vec::new())
        .unwrap_err();
    assert_eq!(inner(&error).kind(), Kind::LimitExceeded, "{error}");
}

/// `max_out` caps the whole content as the one-shot functions' cap does: the same verdict at
/// every cap around the content's length and the block boundaries, in particular when every
/// block is under the cap but their total is not; what is delivered before the error is a
/// prefix of the content within the cap.
#[test]
fn max_out_caps_the_whole_content() {
    let data = generated("log-lines", 300_000, 21);
    for case in cases() {
        let src = (case.compress)(&data);
        let mut caps = vec![0, 1, data.len() - 1, data.len(), data.len() + 1];
        // Every block boundary of the content, and one byte on either side of it.
        for block in [
            JAVA_BLOCK,
            CLICKHOUSE_BLOCK,
            64 << 10,
            hadoop::MAX_CHUNK_INPUT,
        ] {
            for end in (block..data.len()).step_by(block).take(4) {
                caps.extend([end - 1, end, end + 1]);
            }
        }
        for cap in caps {
            let one_shot = (case.decompress)(&src, cap);
            let mut decoder = (case.total_capped)(Box::new(&src[..]), cap as u64);
            let mut delivered = Vec::new();
            let streamed = loop {
                match decoder.fill_buf() {
                    Ok([]) => break Ok(()),
                    Ok(available) => {
                        let n = available.len().min(777);
                        delivered.extend_from_slice(&available[..n]);
                        decoder.consume(n);
                    }
                    Err(error) => break Err(inner(&error).clone()),
                }
            };
            let what = format!("{} cap {cap}", case.name);
            assert!(delivered.len() <= cap, "{what}: delivered past the cap");
            assert!(delivered == data[..delivered.len()], "{what}: not a prefix");
            match (one_shot, streamed) {
                (Ok(out), Ok(())) => assert!(out == delivered && out == data, "{what}"),
                (Err(expected), Err(error)) => {
                    assert_eq!(error.kind(), Kind::LimitExceeded, "{what}: {error}");
                    assert!(!case.same_errors || error == expected, "{what}: {error}");
                    assert!(cap < data.len(), "{what}");
                    // Latched.
                    let again = decoder.read(&mut [0; 10]).unwrap_err();
                    assert_eq!(inner(&again), &error, "{what}");
                }
                (one_shot, streamed) => {
                    panic!("{what}: one-shot {one_shot:?}, stream {streamed:?}")
                }
            }
        }
    }
}

#[test]
fn memory_is_bounded_by_a_block() {
    // 24 MiB of content through each decoder and encoder: no allocation near that size.
    let data = generated("log-lines", 24 << 20, 11);
    let limit = 4 << 20;
    for (name, encoded) in [
        ("hadoop", hadoop::compress(&data).unwrap()),
        (
            "lz4-java",
            java::compress(&data, java::DEFAULT_BLOCK_SIZE).unwrap(),
        ),
        (
            "clickhouse",
            clickhouse::compress(&data, clickhouse::DEFAULT_BLOCK_SIZE).unwrap(),
        ),
        ("kafka", kafka::compress(&data, HeaderChecksum::Spec)),
    ] {
        let (copied, largest) = largest_allocation(|| {
            let reader: Box<dyn Read> = Box::new(&encoded[..]);
            let mut decoder: Box<dyn Read> = match name {
                "hadoop" => Box::new(hadoop::Decoder::new(reader, usize::MAX)),
                "lz4-java" => Box::new(java::Decoder::new(reader, usize::MAX)),
                "clickhouse" => Box::new(clickhouse::Decoder::new(reader, usize::MAX)),
                _ => Box::new(kafka::Decoder::new(reader, AcceptHeaderChecksum::Spec)),
            };
            io::copy(&mut decoder, &mut io::sink()).unwrap()
        });
        assert_eq!(copied, data.len() as u64, "{name}");
        assert!(largest < limit, "{name} decoder: allocated {largest} bytes");
    }
    let (_, largest) = largest_allocation(|| {
        let mut hadoop_encoder = hadoop::Encoder::new(io::sink());
        let mut java_encoder = java::Encoder::new(io::sink(), java::DEFAULT_BLOCK_SIZE).unwrap();
        let mut clickhouse_encoder =
            clickhouse::Encoder::new(io::sink(), clickhouse::DEFAULT_BLOCK_SIZE).unwrap();
        let mut kafka_encoder = kafka::Encoder::new(io::sink(), HeaderChecksum::OverMagic);
        for piece in data.chunks(100_000) {
            hadoop_encoder.write_all(piece).unwrap();
            java_encoder.write_all(piece).unwrap();
            clickhouse_encoder.write_all(piece).unwrap();
            kafka_encoder.write_all(piece).unwrap();
        }
        hadoop_encoder.finish().unwrap();
        java_encoder.finish().unwrap();
        clickhouse_encoder.finish().unwrap();
        kafka_encoder.finish().unwrap();
    });
    assert!(largest < limit, "encoders: allocated {largest} bytes");
}

#[test]
fn lying_headers_allocate_nothing_for_them() {
    // Headers that declare large blocks over a few bytes of input: refused (or truncated)
    // without allocating for the declared size.
    let block = lz4_simd::block::compress(b"tiny").unwrap();
    let mut hadoop_stream = (u32::MAX - 15).to_be_bytes().to_vec();
    hadoop_stream.extend_from_slice(&u32::MAX.to_be_bytes());
    hadoop_stream.extend_from_slice(&block);
    let mut java_stream = java::MAGIC.to_vec();
    java_stream.push(0x20 | 15);
    java_stream.extend_from_slice(&(i32::MAX as u32).to_le_bytes());
    java_stream.extend_from_slice(&(32u32 << 20).to_le_bytes());
    java_stream.extend_from_slice(&0u32.to_le_bytes());
    java_stream.extend_from_slice(&block);
    let mut clickhouse_stream = [0; 16].to_vec();
    clickhouse_stream.push(clickhouse::METHOD_LZ4);
    clickhouse_stream.extend_from_slice(&(1u32 << 30).to_le_bytes());
    clickhouse_stream.extend_from_slice(&(1u32 << 20).to_le_bytes());
    clickhouse_stream.extend_from_slice(&block);
    // Headers within a large cap that declare a 1 GiB unit over 100 bytes of input: the input
    // buffer grows with the input that arrives, not with the declared size.
    let gib = 1u32 << 30;
    let mut hadoop_gib = gib.to_be_bytes().to_vec();
    hadoop_gib.extend_from_slice(&(gib + (gib >> 8)).to_be_bytes());
    hadoop_gib.extend_from_slice(&[7; 100]);
    let mut clickhouse_gib = [0; 16].to_vec();
    clickhouse_gib.push(clickhouse::METHOD_NONE);
    clickhouse_gib.extend_from_slice(&gib.to_le_bytes());
    clickhouse_gib.extend_from_slice(&(gib - 9).to_le_bytes());
    clickhouse_gib.extend_from_slice(&[7; 100]);
    for (name, stream) in [
        ("hadoop", &hadoop_stream),
        ("lz4-java", &java_stream),
        ("clickhouse", &clickhouse_stream),
        ("hadoop", &hadoop_gib),
        ("clickhouse", &clickhouse_gib),
    ] {
        let (result, largest) = largest_allocation(|| {
            let reader: Box<dyn Read> = Box::new(&stream[..]);
            let mut decoder: Box<dyn Read> = match name {
                "hadoop" => Box::new(hadoop::Decoder::new(reader, usize::MAX)),
                "lz4-java" => Box::new(java::Decoder::new(reader, usize::MAX)),
                _ => Box::new(clickhouse::Decoder::new(reader, usize::MAX)),
            };
            decoder.read_to_end(&mut Vec::new())
        });
        let error = result.expect_err(name);
        assert!(
            largest <= (1 << 20) + (1 << 16),
            "{name}: allocated {largest} bytes ({error})"
        );
    }
    // A Hadoop block above the block format's largest input (only nested chunks can fill it):
    // its chunks are bounded by the largest input's bound, not refused.
    let mut big_block = 0x7F00_0000u32.to_be_bytes().to_vec();
    big_block.extend_from_slice(&(block.len() as u32).to_be_bytes());
    big_block.extend_from_slice(&block);
    for error in [
        hadoop::decompress(&big_block, usize::MAX).unwrap_err(),
        *hadoop::Decoder::new(&big_block[..], usize::MAX)
            .read_to_end(&mut Vec::new())
            .unwrap_err()
            .into_inner()
            .unwrap()
            .downcast::<Error>()
            .unwrap(),
    ] {
        let at_end = matches!(error, Error::ContainerTruncated { input_pos, .. } if input_pos == big_block.len() as u64);
        assert!(at_end, "{error}");
    }
}

/// One-shot and stream verdicts on `src` with the cap `cap` (the input holds one block, so the
/// cap on the whole output and the cap on each block are the same): equal, never a panic.
fn same_verdict_capped(name: &str, src: &[u8], cap: usize) -> Result<Vec<u8>, Error> {
    let (one_shot, reader): (_, Box<dyn Read>) = (
        match name {
            "hadoop" => hadoop::decompress(src, cap),
            "lz4-java" => java::decompress(src, cap),
            _ => clickhouse::decompress(src, cap),
        },
        Box::new(src),
    );
    let mut decoder: Box<dyn Read> = match name {
        "hadoop" => Box::new(hadoop::Decoder::new(reader, cap)),
        "lz4-java" => Box::new(java::Decoder::new(reader, cap)),
        _ => Box::new(clickhouse::Decoder::new(reader, cap)),
    };
    let mut content = Vec::new();
    let streamed = decoder
        .read_to_end(&mut content)
        .map(|_| content)
        .map_err(|e| inner(&e).clone());
    assert_eq!(streamed, one_shot, "{name} cap {cap}");
    one_shot
}

#[test]
fn size_fields_at_their_limits() {
    let data = b"size fields size fields size fields".repeat(30);
    let n = data.len() as u32;
    let block = lz4_simd::block::compress(&data).unwrap();
    let b = block.len() as u32;
    // Hadoop: the block length at 0, the content's length -1 / +1, the cap, u32::MAX; the chunk
    // length at 0, short, long, u32::MAX.
    for (block_len, chunk_len) in [
        (n, b),
        (0, b),
        (n - 1, b),
        (n + 1, b),
        (u32::MAX, b),
        (n, 0),
        (n, b - 1),
        (n, b + 1),
        (n, u32::MAX),
    ] {
        let mut stream = block_len.to_be_bytes().to_vec();
        stream.extend_from_slice(&chunk_len.to_be_bytes());
        stream.extend_from_slice(&block);
        for cap in [0, n as usize - 1, n as usize, n as usize + 1, usize::MAX] {
            let verdict = same_verdict_capped("hadoop", &stream, cap);
            let valid = (block_len, chunk_len) == (n, b) && cap >= n as usize;
            assert_eq!(
                verdict.is_ok(),
                valid,
                "hadoop {block_len} {chunk_len} cap {cap}"
            );
        }
    }
    // lz4-java: the decompressed length at 0, -1, +1, the token's block size and above it,
    // i32::MAX, u32::MAX; the compressed length likewise.
    let sum = java::checksum(&data);
    for (compressed, original) in [
        (b, n),
        (b, 0),
        (b, n - 1),
        (b, n + 1),
        (b, 2048),
        (b, 2049),
        (b, i32::MAX as u32),
        (b, u32::MAX),
        (0, n),
        (b - 1, n),
        (b + 1, n),
        (u32::MAX, n),
    ] {
        let mut stream = java::MAGIC.to_vec();
        stream.push(0x20 | 1); // LZ4, blocks of 2 KiB
        stream.extend_from_slice(&compressed.to_le_bytes());
        stream.extend_from_slice(&original.to_le_bytes());
        stream.extend_from_slice(&sum.to_le_bytes());
        stream.extend_from_slice(&block);
        stream.extend_from_slice(&java::compress(&[], 2048).unwrap());
        for cap in [0, n as usize - 1, n as usize, usize::MAX] {
            let verdict = same_verdict_capped("lz4-java", &stream, cap);
            let valid = (compressed, original) == (b, n) && cap >= n as usize;
            assert_eq!(
                verdict.is_ok(),
                valid,
                "lz4-java {compressed} {original} cap {cap}"
            );
        }
    }
    // ClickHouse: the compressed size at 0, 8, 9, -1, +1, 1 GiB, u32::MAX; the uncompressed size
    // at 0, -1, +1, u32::MAX. The checksum is right for each header, so the sizes are what is
    // tested.
    for (compressed_size, size) in [
        (b + 9, n),
        (0, n),
        (8, n),
        (9, n),
        (b + 8, n),
        (b + 10, n),
        (1 << 30, n),
        (u32::MAX, n),
        (b + 9, 0),
        (b + 9, n - 1),
        (b + 9, n + 1),
        (b + 9, u32::MAX),
    ] {
        let mut body = vec![clickhouse::METHOD_LZ4];
        body.extend_from_slice(&compressed_size.to_le_bytes());
        body.extend_from_slice(&size.to_le_bytes());
        body.extend_from_slice(&block);
        let stream = [clickhouse::checksum(&body).to_vec(), body].concat();
        for cap in [0, n as usize - 1, n as usize, usize::MAX] {
            let verdict = same_verdict_capped("clickhouse", &stream, cap);
            let valid = (compressed_size, size) == (b + 9, n) && cap >= n as usize;
            assert_eq!(
                verdict.is_ok(),
                valid,
                "clickhouse {compressed_size} {size} cap {cap}"
            );
        }
    }
}

#[test]
fn flush_makes_everything_written_so_far_decodable() {
    let data = generated("log-lines", 10_000, 12);
    let (first, second) = data.split_at(4321);
    let mut hadoop_encoder = hadoop::Encoder::new(Vec::new());
    let mut java_encoder = java::Encoder::new(Vec::new(), JAVA_BLOCK * 8).unwrap();
    let mut clickhouse_encoder =
        clickhouse::Encoder::new(Vec::new(), CLICKHOUSE_BLOCK * 8).unwrap();
    for encoder in [
        &mut hadoop_encoder as &mut dyn Write,
        &mut java_encoder,
        &mut clickhouse_encoder,
    ] {
        encoder.write_all(first).unwrap();
        encoder.flush().unwrap();
    }
    assert_eq!(
        hadoop::decompress(hadoop_encoder.get_ref(), usize::MAX).unwrap(),
        first
    );
    let java_so_far = [
        java_encoder.get_ref().clone(),
        java::compress(&[], 64).unwrap(),
    ]
    .concat();
    assert_eq!(java::decompress(&java_so_far, usize::MAX).unwrap(), first);
    assert_eq!(
        clickhouse::decompress(clickhouse_encoder.get_ref(), usize::MAX).unwrap(),
        first
    );
    // And the rest after it: a shorter block where the flush was, the same content.
    hadoop_encoder.write_all(second).unwrap();
    java_encoder.write_all(second).unwrap();
    clickhouse_encoder.write_all(second).unwrap();
    let streams = [
        hadoop::decompress(&hadoop_encoder.finish().unwrap(), usize::MAX),
        java::decompress(&java_encoder.finish().unwrap(), usize::MAX),
        clickhouse::decompress(&clickhouse_encoder.finish().unwrap(), usize::MAX),
    ];
    for content in streams {
        assert!(content.unwrap() == data);
    }
}
