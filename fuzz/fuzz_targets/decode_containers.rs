//! Decodes arbitrary bytes with one of the container decoders (`lz4_simd::container`), chosen by
//! the first byte, and requires:
//!
//! - no panic, no out-of-bounds access (AddressSanitizer), no output beyond the cap;
//! - what a decoder accepts survives a round trip: our encoder's form of the output decodes
//!   back to it;
//! - the streaming decoders (`hadoop`, `java`, `clickhouse`, `kafka` `Decoder`), reading the
//!   input in slices of a size taken from the selector byte, reach the one-shot decoder's
//!   verdict: the same content, or an error (the same error, except Kafka's), never a silent
//!   end, and the error stays latched; with the one-shot's cap as their cap on the whole content
//!   (`max_out`), the same verdict at that cap.
//!
//! Input layout: a container selector byte, a cap selector byte, two bytes of declared size
//! (Parquet pages carry their size outside the data), then the container's bytes.
#![no_main]

use std::io::{self, Read};

use libfuzzer_sys::fuzz_target;
use lz4_simd::container::kafka::{AcceptHeaderChecksum, HeaderChecksum};
use lz4_simd::container::prefixed::SizePrefix;
use lz4_simd::container::{clickhouse, hadoop, java, kafka, linux, parquet, prefixed};
use lz4_simd::Error;
use lz4_simd_fuzz::{Bytes, MAX_CAP};

type Codec = (
    fn(&[u8], usize, usize) -> Result<Vec<u8>, Error>,
    fn(&[u8]) -> Vec<u8>,
);

const CODECS: [Codec; 12] = [
    (
        |s, _, cap| hadoop::decompress(s, cap),
        |d| hadoop::compress(d).unwrap(),
    ),
    (parquet::decompress_lz4, |d| {
        parquet::compress_lz4(d).unwrap()
    }),
    (parquet::decompress_lz4_raw, |d| {
        parquet::compress_lz4_raw(d).unwrap()
    }),
    (
        |s, _, cap| kafka::decompress(s, AcceptHeaderChecksum::Either, cap),
        |d| kafka::compress(d, HeaderChecksum::OverMagic),
    ),
    (
        |s, _, cap| kafka::decompress(s, AcceptHeaderChecksum::Spec, cap),
        |d| kafka::compress(d, HeaderChecksum::Spec),
    ),
    (
        |s, _, cap| java::decompress(s, cap),
        |d| java::compress(d, 256).unwrap(),
    ),
    (
        |s, _, cap| prefixed::decompress(s, SizePrefix::Le32, cap),
        |d| prefixed::compress(d, SizePrefix::Le32).unwrap(),
    ),
    (
        |s, _, cap| prefixed::decompress(s, SizePrefix::Be32, cap),
        |d| prefixed::compress(d, SizePrefix::Be32).unwrap(),
    ),
    (
        |s, _, cap| prefixed::decompress(s, SizePrefix::Varint32, cap),
        |d| prefixed::compress(d, SizePrefix::Varint32).unwrap(),
    ),
    (
        |s, _, cap| clickhouse::decompress(s, cap),
        |d| clickhouse::compress(d, 4096).unwrap(),
    ),
    (
        |s, _, cap| linux::decompress(s, cap),
        |d| {
            let mut image = lz4_simd::frame::compress_legacy(d, 1);
            image.extend_from_slice(&(d.len() as u32).to_le_bytes());
            image
        },
    ),
    // Kafka's v0 checksum only.
    (
        |s, _, cap| kafka::decompress(s, AcceptHeaderChecksum::OverMagic, cap),
        |d| kafka::compress(d, HeaderChecksum::OverMagic),
    ),
];

/// Reads at most `step` bytes per call.
struct Slices<'a> {
    data: &'a [u8],
    step: usize,
}

impl Read for Slices<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = out.len().min(self.step).min(self.data.len());
        out[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// The streaming decoder of codec `index` (if it streams) over `src` read `step` bytes at a
/// time, with each block capped at `cap` and the whole content at `max_out`: its content or its
/// error, which must be latched.
fn stream(
    index: usize,
    src: &[u8],
    step: usize,
    cap: usize,
    max_out: u64,
) -> Option<Result<Vec<u8>, Error>> {
    let reader = Slices { data: src, step };
    let mut decoder: Box<dyn Read + '_> = match index {
        0 => Box::new(hadoop::Decoder::new(reader, cap).max_out(max_out)),
        3 => Box::new(kafka::Decoder::new(reader, AcceptHeaderChecksum::Either).max_out(max_out)),
        4 => Box::new(kafka::Decoder::new(reader, AcceptHeaderChecksum::Spec).max_out(max_out)),
        5 => Box::new(java::Decoder::new(reader, cap).max_out(max_out)),
        9 => Box::new(clickhouse::Decoder::new(reader, cap).max_out(max_out)),
        11 => {
            Box::new(kafka::Decoder::new(reader, AcceptHeaderChecksum::OverMagic).max_out(max_out))
        }
        _ => return None,
    };
    let mut content = Vec::new();
    let mut buf = [0; 777];
    loop {
        match decoder.read(&mut buf[..1 + step % 777]) {
            Ok(0) => return Some(Ok(content)),
            Ok(n) => content.extend_from_slice(&buf[..n]),
            Err(error) => {
                let again = decoder.read(&mut buf).expect_err("the error is latched");
                assert_eq!(again.to_string(), error.to_string());
                let inner = error.into_inner().expect("a data error");
                return Some(Err(*inner.downcast::<Error>().expect("a crate error")));
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut bytes = Bytes(data);
    let selector = usize::from(bytes.u8());
    let index = selector % CODECS.len();
    let (decode, encode) = CODECS[index];
    let cap = match bytes.u8() {
        0 => 0,
        selector @ 1..=127 => usize::from(selector) * 97,
        _ => MAX_CAP,
    };
    let declared = usize::from(bytes.u16());
    let src = bytes.rest();

    match decode(src, declared, cap) {
        Ok(out) => {
            assert!(out.len() <= cap);
            let again = decode(&encode(&out), out.len(), out.len())
                .expect("our encoding of accepted output does not decode");
            assert!(again == out, "round trip differs");
        }
        Err(error) => assert!(!error.to_string().is_empty()),
    }

    // The one-shot cap is on the whole output, the stream's on each block: compare both
    // uncapped (within the fuzz cap on each block).
    let step = 1 + selector / CODECS.len();
    if let Some(streamed) = stream(index, src, step, MAX_CAP, u64::MAX) {
        match (decode(src, declared, usize::MAX), streamed) {
            (Ok(expected), Ok(content)) => assert!(content == expected, "stream content differs"),
            (Err(expected), Err(error)) => {
                // Kafka's stream errors are the frame decoder's; a block above the fuzz cap
                // is refused by the stream before the one-shot decoder finds what else is
                // wrong.
                let kafka = matches!(index, 3 | 4 | 11);
                let capped = error.kind() == lz4_simd::ErrorKind::LimitExceeded;
                assert!(kafka || capped || error == expected, "{error} / {expected}");
            }
            (Ok(_), Err(error)) => {
                // Only the stream's cap on each block (a block above the fuzz cap) may refuse
                // what the uncapped one-shot decoder accepts.
                assert_eq!(error.kind(), lz4_simd::ErrorKind::LimitExceeded, "{error}");
            }
            (Err(error), Ok(_)) => panic!("the stream accepted what the one-shot refused: {error}"),
        }
    }

    // With the one-shot's cap on the whole content and on each block, the same verdict: the
    // same content, or an error (the same error, except Kafka's).
    if let Some(streamed) = stream(index, src, step, cap, cap as u64) {
        match (decode(src, declared, cap), streamed) {
            (Ok(expected), Ok(content)) => assert!(content == expected, "capped content differs"),
            (Err(expected), Err(error)) => {
                let kafka = matches!(index, 3 | 4 | 11);
                assert!(kafka || error == expected, "{error} / {expected}");
            }
            (Ok(_), Err(error)) => {
                panic!("the capped stream refused what the one-shot accepted: {error}")
            }
            (Err(error), Ok(_)) => {
                panic!("the capped stream accepted what the one-shot refused: {error}")
            }
        }
    }
});
