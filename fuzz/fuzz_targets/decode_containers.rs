//! Decodes arbitrary bytes with one of the container decoders (`lz4_simd::container`), chosen by
//! the first byte, and requires:
//!
//! - no panic, no out-of-bounds access (AddressSanitizer), no output beyond the cap;
//! - what a decoder accepts survives a round trip: our encoder's form of the output decodes
//!   back to it.
//!
//! Input layout: a container selector byte, a cap selector byte, two bytes of declared size
//! (Parquet pages carry their size outside the data), then the container's bytes.
#![no_main]

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

fuzz_target!(|data: &[u8]| {
    let mut bytes = Bytes(data);
    let (decode, encode) = CODECS[usize::from(bytes.u8()) % CODECS.len()];
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
});
