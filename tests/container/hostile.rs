//! Hostile input for every container decoder: truncation at every byte, byte flips, caps just
//! below the content, size fields that lie (above the cap, above what the input can decode to,
//! nested chunks that overrun their block), bad checksums, and the formats' own edge cases
//! (Hadoop's nested and empty forms, Kafka's refused flags, lz4-java's header rules, ClickHouse
//! methods, varint prefixes, kernel image trailers). Every failure is an `Error` with a message,
//! never a panic, and nothing is allocated from a size field beyond the caller's cap and what
//! the input could decode to.
#![cfg(feature = "containers")]

use lz4_simd::container::kafka::{AcceptHeaderChecksum, HeaderChecksum};
use lz4_simd::container::prefixed::SizePrefix;
use lz4_simd::container::{clickhouse, hadoop, java, kafka, linux, parquet, prefixed};
use lz4_simd::{block, frame, Error, ErrorKind};
use testkit::alloc::largest_allocation;
use testkit::samples::generated;

/// `unwrap_err` without printing the (possibly large) output of a decode that succeeded.
trait Fails {
    fn fails(self) -> Error;
}

impl<T> Fails for Result<T, Error> {
    #[track_caller]
    fn fails(self) -> Error {
        match self {
            Ok(_) => panic!("accepted"),
            Err(error) => error,
        }
    }
}

type Decode = fn(&[u8], usize, usize) -> Result<Vec<u8>, Error>;

/// A container: its encoder, its decoder (input, content length for the containers whose size
/// lives outside the data, cap), and whether a prefix of a valid input may itself be valid
/// (streams of independent blocks).
struct Case {
    name: &'static str,
    encode: fn(&[u8]) -> Vec<u8>,
    decode: Decode,
    prefixes_valid: bool,
}

fn kernel_image(data: &[u8]) -> Vec<u8> {
    let mut image = frame::compress_legacy(data, 1);
    image.extend_from_slice(&(data.len() as u32).to_le_bytes());
    image.extend_from_slice(&[0; 3]);
    image
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "hadoop",
            encode: |d| hadoop::compress(d).unwrap(),
            decode: |s, _, cap| hadoop::decompress(s, cap),
            prefixes_valid: true,
        },
        Case {
            name: "parquet LZ4",
            encode: |d| parquet::compress_lz4(d).unwrap(),
            decode: parquet::decompress_lz4,
            prefixes_valid: false,
        },
        Case {
            name: "parquet LZ4 as a frame",
            encode: |d| frame::compress(d, &frame::FrameOptions::new()),
            decode: parquet::decompress_lz4,
            prefixes_valid: false,
        },
        Case {
            name: "parquet LZ4_RAW",
            encode: |d| parquet::compress_lz4_raw(d).unwrap(),
            decode: parquet::decompress_lz4_raw,
            prefixes_valid: false,
        },
        Case {
            name: "kafka v0",
            encode: |d| kafka::compress(d, HeaderChecksum::OverMagic),
            decode: |s, _, cap| kafka::decompress(s, AcceptHeaderChecksum::Either, cap),
            prefixes_valid: false,
        },
        Case {
            name: "kafka v1",
            encode: |d| kafka::compress(d, HeaderChecksum::Spec),
            decode: |s, _, cap| kafka::decompress(s, AcceptHeaderChecksum::Spec, cap),
            prefixes_valid: false,
        },
        Case {
            name: "lz4-java",
            encode: |d| java::compress(d, 1000).unwrap(),
            decode: |s, _, cap| java::decompress(s, cap),
            prefixes_valid: true,
        },
        Case {
            name: "prefixed LE32",
            encode: |d| prefixed::compress(d, SizePrefix::Le32).unwrap(),
            decode: |s, _, cap| prefixed::decompress(s, SizePrefix::Le32, cap),
            prefixes_valid: false,
        },
        Case {
            name: "prefixed BE32",
            encode: |d| prefixed::compress(d, SizePrefix::Be32).unwrap(),
            decode: |s, _, cap| prefixed::decompress(s, SizePrefix::Be32, cap),
            prefixes_valid: false,
        },
        Case {
            name: "prefixed varint32",
            encode: |d| prefixed::compress(d, SizePrefix::Varint32).unwrap(),
            decode: |s, _, cap| prefixed::decompress(s, SizePrefix::Varint32, cap),
            prefixes_valid: false,
        },
        Case {
            name: "clickhouse",
            encode: |d| clickhouse::compress(d, 1000).unwrap(),
            decode: |s, _, cap| clickhouse::decompress(s, cap),
            prefixes_valid: true,
        },
        Case {
            name: "linux kernel image",
            encode: kernel_image,
            decode: |s, _, cap| linux::decompress(s, cap),
            prefixes_valid: true,
        },
    ]
}

fn samples() -> Vec<Vec<u8>> {
    vec![
        Vec::new(),
        b"x".to_vec(),
        b"hello hello hello hello".to_vec(),
        generated("log-lines", 3000, 1),
        generated("random", 1500, 2),
        generated("runs", 70_000, 3),
    ]
}

/// Decodes `src` and checks the verdict is an error with a message, or (where prefixes of the
/// stream are themselves valid) a prefix of `data`; never a panic, never more than `cap`.
fn check_verdict(case: &Case, src: &[u8], data: &[u8], cap: usize, what: &str) {
    match (case.decode)(src, data.len(), cap) {
        Ok(out) => {
            assert!(
                out.len() <= cap,
                "{} {what}: output above the cap",
                case.name
            );
            assert!(
                (case.prefixes_valid && data.starts_with(&out))
                    || (data.is_empty() && out.is_empty()),
                "{} {what}: accepted ({} bytes)",
                case.name,
                out.len()
            );
        }
        Err(error) => assert!(!error.to_string().is_empty()),
    }
}

#[test]
fn round_trip_caps_and_truncation_at_every_byte() {
    for case in cases() {
        for data in samples() {
            let encoded = (case.encode)(&data);
            let name = case.name;
            let len = data.len();
            let decoded = (case.decode)(&encoded, len, len)
                .unwrap_or_else(|e| panic!("{name} {len}: round trip: {e}"));
            assert!(decoded == data, "{name} {len}: round trip differs");
            if len > 0 {
                let error = (case.decode)(&encoded, len, len - 1).fails();
                assert_eq!(
                    error.kind(),
                    ErrorKind::LimitExceeded,
                    "{name} {len}: {error}"
                );
            }
            // Every truncation for small inputs; a sample of them (and the last 64) for large.
            let step = if encoded.len() <= 4096 { 1 } else { 61 };
            let cuts = (0..encoded.len())
                .step_by(step)
                .chain(encoded.len().saturating_sub(64)..encoded.len());
            for cut in cuts {
                check_verdict(
                    &case,
                    &encoded[..cut],
                    &data,
                    len,
                    &format!("{len} cut at {cut}"),
                );
            }
        }
    }
}

#[test]
fn byte_flips() {
    for case in cases() {
        for data in samples().into_iter().filter(|d| d.len() <= 3000) {
            let encoded = (case.encode)(&data);
            for pos in 0..encoded.len() {
                for mask in [0x01, 0x80, 0xFF] {
                    let mut flipped = encoded.clone();
                    flipped[pos] ^= mask;
                    let result = (case.decode)(&flipped, data.len(), data.len() + 100);
                    if let Ok(out) = &result {
                        assert!(out.len() <= data.len() + 100);
                    }
                    // Every byte of a ClickHouse block is under its checksum.
                    if case.name == "clickhouse" {
                        assert!(result.is_err(), "flip at {pos} accepted");
                    }
                }
            }
        }
    }
}

/// Decodes with an unlimited cap and requires an error and no allocation above `limit`.
fn refused_without_allocating(
    what: &str,
    limit: usize,
    decode: impl FnOnce() -> Result<Vec<u8>, Error>,
) -> Error {
    let (result, largest) = largest_allocation(decode);
    let error = result.expect_err(what);
    assert!(
        largest <= limit,
        "{what}: allocated {largest} bytes for a lying size ({error})"
    );
    error
}

#[test]
fn lying_sizes_allocate_nothing_for_them() {
    let block = block::compress(b"tiny").unwrap();
    let huge = u32::MAX - 15;

    // Hadoop: a block length of 4 GiB over a 4-byte chunk; a chunk length past the input.
    let mut stream = huge.to_be_bytes().to_vec();
    stream.extend_from_slice(&(block.len() as u32).to_be_bytes());
    stream.extend_from_slice(&block);
    refused_without_allocating("hadoop", 1 << 16, || {
        hadoop::decompress(&stream, usize::MAX)
    });
    let error = hadoop::decompress(&stream, 1 << 20).fails();
    assert!(
        matches!(error, Error::ContainerOutputLimit { input_pos: 0, .. }),
        "{error}"
    );
    let mut stream = 4u32.to_be_bytes().to_vec();
    stream.extend_from_slice(&huge.to_be_bytes());
    stream.extend_from_slice(&block);
    // Refused at the chunk length (longer than any block of 4 bytes), before it is read.
    let error = hadoop::decompress(&stream, usize::MAX).fails();
    assert!(
        matches!(error, Error::ContainerCorrupt { input_pos: 4, .. }),
        "{error}"
    );

    // lz4-java: a 32 MiB block from a 6-byte body.
    let mut stream = java::MAGIC.to_vec();
    stream.push(0x20 | 15);
    stream.extend_from_slice(&(block.len() as u32).to_le_bytes());
    stream.extend_from_slice(&(32u32 << 20).to_le_bytes());
    stream.extend_from_slice(&0u32.to_le_bytes());
    stream.extend_from_slice(&block);
    let error = refused_without_allocating("lz4-java", 1 << 16, || {
        java::decompress(&stream, usize::MAX)
    });
    assert!(matches!(error, Error::ContainerCorrupt { .. }), "{error}");

    // ClickHouse: a 4 GiB block behind a valid checksum.
    let mut body = vec![clickhouse::METHOD_LZ4];
    body.extend_from_slice(&((block.len() + 9) as u32).to_le_bytes());
    body.extend_from_slice(&u32::MAX.to_le_bytes());
    body.extend_from_slice(&block);
    let mut stream = clickhouse::checksum(&body).to_vec();
    stream.extend_from_slice(&body);
    refused_without_allocating("clickhouse", 1 << 16, || {
        clickhouse::decompress(&stream, usize::MAX)
    });

    // Size prefixes of 4 GiB.
    for prefix in [SizePrefix::Le32, SizePrefix::Be32, SizePrefix::Varint32] {
        let mut stream = Vec::new();
        prefix.write(u32::MAX, &mut stream);
        stream.extend_from_slice(&block);
        refused_without_allocating(prefix.name(), 1 << 16, || {
            prefixed::decompress(&stream, prefix, usize::MAX)
        });
    }

    // Parquet: a page that claims 2 GiB.
    for page in [
        hadoop::compress(b"tiny").unwrap(),
        block.clone(),
        frame::compress(b"tiny", &frame::FrameOptions::new()),
    ] {
        refused_without_allocating("parquet", 1 << 16, || {
            parquet::decompress_lz4(&page, 1 << 31, usize::MAX)
        });
        refused_without_allocating("parquet raw", 1 << 16, || {
            parquet::decompress_lz4_raw(&page, 1 << 31, usize::MAX)
        });
    }
}

// ---- Hadoop -----------------------------------------------------------------------------------

/// `[BE total]` then one chunk per part: Hadoop's nested form.
fn nested(parts: &[&[u8]], total: u32) -> Vec<u8> {
    let mut stream = total.to_be_bytes().to_vec();
    for part in parts {
        let compressed = block::compress(part).unwrap();
        stream.extend_from_slice(&(compressed.len() as u32).to_be_bytes());
        stream.extend_from_slice(&compressed);
    }
    stream
}

#[test]
fn hadoop_nested_blocks_and_overruns() {
    let data = generated("log-lines", 600_000, 9);
    let parts: Vec<&[u8]> = data.chunks(hadoop::MAX_CHUNK_INPUT).collect();
    let stream = nested(&parts, data.len() as u32);
    assert_eq!(hadoop::decompress(&stream, data.len()).unwrap(), data);
    // Two nested blocks one after the other, and after a single-chunk block.
    let mut two = stream.clone();
    two.extend_from_slice(&hadoop::compress(b"tail tail tail").unwrap());
    two.extend_from_slice(&stream);
    let mut expected = data.clone();
    expected.extend_from_slice(b"tail tail tail");
    expected.extend_from_slice(&data);
    assert_eq!(hadoop::decompress(&two, usize::MAX).unwrap(), expected);
    // And through the Parquet rule.
    assert_eq!(
        parquet::decompress_lz4(&stream, data.len(), usize::MAX).unwrap(),
        data
    );

    // Chunks that overrun the block's declared length.
    let short = nested(&parts, data.len() as u32 - 1);
    let error = hadoop::decompress(&short, usize::MAX).fails();
    assert!(matches!(error, Error::ContainerBlock { .. }), "{error}");
    assert!(parquet::decompress_lz4(&short, data.len() - 1, usize::MAX).is_err());
    assert!(parquet::decompress_lz4(&short, data.len(), usize::MAX).is_err());
    // Chunks that fall short: the input ends where another chunk is expected.
    let long = nested(&parts, data.len() as u32 + 1);
    let error = hadoop::decompress(&long, usize::MAX).fails();
    assert!(matches!(error, Error::ContainerTruncated { .. }), "{error}");
    // A chunk of 0 bytes inside a block.
    let mut empty_chunk = 10u32.to_be_bytes().to_vec();
    empty_chunk.extend_from_slice(&[0; 4]);
    let error = hadoop::decompress(&empty_chunk, usize::MAX).fails();
    assert!(matches!(error, Error::ContainerCorrupt { .. }), "{error}");
}

#[test]
fn hadoop_empty_forms() {
    // Ours (Arrow's form): an empty block and one empty chunk.
    let ours = hadoop::compress(&[]).unwrap();
    assert_eq!(ours, [0, 0, 0, 0, 0, 0, 0, 1, 0]);
    assert_eq!(hadoop::decompress(&ours, 0).unwrap(), b"");
    // Empty input, and an empty block alone.
    assert_eq!(hadoop::decompress(&[], 0).unwrap(), b"");
    assert_eq!(hadoop::decompress(&[0; 4], 0).unwrap(), b"");
    // An empty block before data.
    let mut stream = vec![0; 4];
    stream.extend_from_slice(&hadoop::compress(b"data").unwrap());
    assert_eq!(hadoop::decompress(&stream, 100).unwrap(), b"data");
    assert_eq!(parquet::decompress_lz4(&ours, 0, 0).unwrap(), b"");
}

#[test]
fn hadoop_chunks_fit_hadoops_buffer() {
    let data = generated("random", 3 * hadoop::MAX_CHUNK_INPUT + 5, 4);
    let stream = hadoop::compress(&data).unwrap();
    let mut pos = 0;
    let mut blocks = 0;
    while pos < stream.len() {
        let raw = u32::from_be_bytes(stream[pos..pos + 4].try_into().unwrap()) as usize;
        let compressed = u32::from_be_bytes(stream[pos + 4..pos + 8].try_into().unwrap()) as usize;
        assert!(raw <= hadoop::MAX_CHUNK_INPUT);
        assert!(compressed <= hadoop::BUFFER_SIZE);
        pos += 8 + compressed;
        blocks += 1;
    }
    assert_eq!(blocks, 4);
}

// ---- Parquet ----------------------------------------------------------------------------------

#[test]
fn parquet_sizes_must_match_in_every_form() {
    let page = generated("log-lines", 5000, 5);
    let forms = [
        parquet::compress_lz4(&page).unwrap(),
        parquet::compress_lz4_raw(&page).unwrap(),
        frame::compress(&page, &frame::FrameOptions::new()),
    ];
    for form in &forms {
        assert_eq!(
            parquet::decompress_lz4(form, page.len(), usize::MAX).unwrap(),
            page
        );
        for size in [page.len() - 1, page.len() + 1, 0] {
            let error = parquet::decompress_lz4(form, size, usize::MAX).fails();
            assert!(!error.to_string().is_empty());
        }
    }
    let raw = &forms[1];
    for size in [page.len() - 1, page.len() + 1] {
        let error = parquet::decompress_lz4_raw(raw, size, usize::MAX).fails();
        assert_eq!(error.kind(), ErrorKind::CorruptInput, "{error}");
    }
    assert!(parquet::decompress_lz4_raw(&[], 0, 10).is_err());
}

// ---- Kafka ------------------------------------------------------------------------------------

#[test]
fn kafka_refusals() {
    let data = generated("log-lines", 100_000, 6);
    let v1 = kafka::compress(&data, HeaderChecksum::Spec);
    // Kafka's defaults: FLG version 1 + independent, BD 64 KiB, no content size or checksums.
    assert_eq!(v1[4..6], [0x60, 0x40]);
    let v0 = kafka::compress(&data, HeaderChecksum::OverMagic);
    assert_eq!(v0[..6], v1[..6]);
    assert_eq!(v0[7..], v1[7..]);
    assert_eq!(
        HeaderChecksum::for_message_format(0),
        HeaderChecksum::OverMagic
    );
    assert_eq!(HeaderChecksum::for_message_format(2), HeaderChecksum::Spec);
    // Blocks of at most 64 KiB.
    assert_eq!(
        frame::read_frame_info(&v1).unwrap().block_size,
        frame::BlockSize::Max64KB
    );

    let error = kafka::decompress(&v0, AcceptHeaderChecksum::Spec, usize::MAX).fails();
    assert!(
        matches!(error, Error::ContainerChecksum { input_pos: 6, .. }),
        "{error}"
    );
    let error = kafka::decompress(&v1, AcceptHeaderChecksum::OverMagic, usize::MAX).fails();
    assert!(
        matches!(error, Error::ContainerChecksum { input_pos: 6, .. }),
        "{error}"
    );
    let mut bad = v1.clone();
    bad[6] ^= 0x55;
    assert!(kafka::decompress(&bad, AcceptHeaderChecksum::Either, usize::MAX).is_err());

    // A frame with a dictionary ID, and one with linked blocks: refused as Kafka refuses them.
    let with_dict = frame::compress(&data, &frame::FrameOptions::new().dict_id(Some(7)));
    let error = kafka::decompress(&with_dict, AcceptHeaderChecksum::Either, usize::MAX).fails();
    assert_eq!(error.kind(), ErrorKind::Unsupported, "{error}");
    let linked = frame::compress(
        &data,
        &frame::FrameOptions::new()
            .block_size(frame::BlockSize::Max64KB)
            .block_mode(frame::BlockMode::Linked),
    );
    let error = kafka::decompress(&linked, AcceptHeaderChecksum::Either, usize::MAX).fails();
    assert_eq!(error.kind(), ErrorKind::Unsupported, "{error}");

    // Other frames Kafka's reader accepts: content size, checksums.
    let options = frame::FrameOptions::new()
        .content_size(true)
        .block_checksum(true);
    let framed = frame::compress(&data, &options);
    assert_eq!(
        kafka::decompress(&framed, AcceptHeaderChecksum::Spec, usize::MAX).unwrap(),
        data
    );

    // Bytes after the frame, a second frame, and not a frame at all.
    let mut trailing = v1.clone();
    trailing.push(0);
    let error = kafka::decompress(&trailing, AcceptHeaderChecksum::Spec, usize::MAX).fails();
    assert!(matches!(error, Error::ContainerCorrupt { .. }), "{error}");
    let mut two = v1.clone();
    two.extend_from_slice(&v1);
    assert!(kafka::decompress(&two, AcceptHeaderChecksum::Spec, usize::MAX).is_err());
    let legacy = frame::compress_legacy(&data, 1);
    assert!(kafka::decompress(&legacy, AcceptHeaderChecksum::Either, usize::MAX).is_err());
}

// ---- lz4-java ---------------------------------------------------------------------------------

/// A one-block lz4-java stream with the given header fields (the body follows as is).
fn java_block(token: u8, compressed: u32, original: u32, check: u32, body: &[u8]) -> Vec<u8> {
    let mut stream = java::MAGIC.to_vec();
    stream.push(token);
    stream.extend_from_slice(&compressed.to_le_bytes());
    stream.extend_from_slice(&original.to_le_bytes());
    stream.extend_from_slice(&check.to_le_bytes());
    stream.extend_from_slice(body);
    stream
}

#[test]
fn lz4_java_header_rules() {
    let end = java_block(0x16, 0, 0, 0, &[]);
    let data = b"lz4-java lz4-java lz4-java";
    let check = java::checksum(data);
    assert_eq!(check >> 28, 0, "28-bit checksum");
    let good = [
        java_block(0x10, data.len() as u32, data.len() as u32, check, data),
        end.clone(),
    ]
    .concat();
    assert_eq!(java::decompress(&good, 100).unwrap(), data);

    let corrupt = |stream: Vec<u8>, what: &str| {
        let error = java::decompress(&stream, 1 << 20).fails();
        assert_eq!(error.kind(), ErrorKind::CorruptInput, "{what}: {error}");
    };
    let n = data.len() as u32;
    corrupt(
        [java_block(0x30, n, n, check, data), end.clone()].concat(),
        "unknown method",
    );
    corrupt(
        [java_block(0x10, n, n, check ^ 1, data), end.clone()].concat(),
        "bad checksum",
    );
    corrupt(
        [java_block(0x10, n, n, check | 1 << 28, data), end.clone()].concat(),
        "unmasked checksum",
    );
    corrupt(
        [
            java_block(0x10, n - 1, n, check, &data[..data.len() - 1]),
            end.clone(),
        ]
        .concat(),
        "raw lengths differ",
    );
    corrupt(
        [java_block(0x20, 0, n, check, &[]), end.clone()].concat(),
        "compressed 0",
    );
    corrupt(
        [java_block(0x20, 1 << 31, n, check, data), end.clone()].concat(),
        "negative length",
    );
    corrupt(java_block(0x10, 0, 0, 1, &[]), "end block with a checksum");
    corrupt(java_block(0x10, n, n, check, data), "no end block");
    let mut bad_magic = good.clone();
    bad_magic[0] = b'l';
    corrupt(bad_magic, "magic");
    // A block larger than the token's block size (level 0: 1 KiB).
    let big = vec![7u8; 1025];
    corrupt(
        [
            java_block(0x10, 1025, 1025, java::checksum(&big), &big),
            end.clone(),
        ]
        .concat(),
        "above block size",
    );
    // Concatenated streams, and an empty input.
    let two = [good.clone(), good.clone()].concat();
    assert_eq!(
        java::decompress(&two, 100).unwrap(),
        [&data[..], &data[..]].concat()
    );
    assert_eq!(java::decompress(&[], 0).unwrap(), b"");
    assert_eq!(java::decompress(&end, 0).unwrap(), b"");
    // Block size arguments.
    assert!(java::compress(data, 63).is_err());
    assert!(java::compress(data, (32 << 20) + 1).is_err());
    // The token's level is ceil(log2(block size)) - 10, at least 0.
    for (block_size, level) in [(64, 0), (1024, 0), (1025, 1), (65536, 6), (32 << 20, 15)] {
        assert_eq!(
            java::compress(data, block_size).unwrap()[8] & 0x0F,
            level,
            "{block_size}"
        );
    }
}

// ---- ClickHouse -------------------------------------------------------------------------------

fn clickhouse_block(method: u8, compressed_size: u32, size: u32, data: &[u8]) -> Vec<u8> {
    let mut body = vec![method];
    body.extend_from_slice(&compressed_size.to_le_bytes());
    body.extend_from_slice(&size.to_le_bytes());
    body.extend_from_slice(data);
    [clickhouse::checksum(&body).to_vec(), body].concat()
}

#[test]
fn clickhouse_methods_and_sizes() {
    let data = b"clickhouse";
    let n = data.len() as u32;
    let stored = clickhouse_block(clickhouse::METHOD_NONE, n + 9, n, data);
    assert_eq!(clickhouse::decompress(&stored, 100).unwrap(), data);
    let error = clickhouse::decompress(
        &clickhouse_block(clickhouse::METHOD_NONE, n + 9, n + 1, data),
        100,
    )
    .fails();
    assert!(
        matches!(error, Error::ContainerSizeMismatch { .. }),
        "{error}"
    );
    let error = clickhouse::decompress(&clickhouse_block(0x90, n + 9, n, data), 100).fails();
    assert_eq!(error.kind(), ErrorKind::Unsupported, "{error}");
    let error =
        clickhouse::decompress(&clickhouse_block(clickhouse::METHOD_LZ4, 8, 0, &[]), 100).fails();
    assert!(matches!(error, Error::ContainerCorrupt { .. }), "{error}");
    // An LZ4 block that decodes to less than declared.
    let compressed = block::compress(data).unwrap();
    let lying = clickhouse_block(
        clickhouse::METHOD_LZ4,
        compressed.len() as u32 + 9,
        n + 1,
        &compressed,
    );
    let error = clickhouse::decompress(&lying, 100).fails();
    assert!(
        matches!(error, Error::ContainerSizeMismatch { .. }),
        "{error}"
    );
    // The checksum covers the header: a size changed without it is caught first.
    let mut forged = clickhouse::compress(data, 1000).unwrap();
    forged[21] ^= 1;
    let error = clickhouse::decompress(&forged, 100).fails();
    assert!(
        matches!(error, Error::ContainerChecksum { input_pos: 0, .. }),
        "{error}"
    );
    assert!(clickhouse::compress(data, 0).is_err());
    // Block sizes whose LZ4 bound passes ClickHouse's 1 GiB limit only if the bound were 0 (as
    // liblz4's LZ4_compressBound is above MAX_INPUT_SIZE): refused at construction.
    for block_size in [block::MAX_INPUT_SIZE, block::MAX_INPUT_SIZE + 1, usize::MAX] {
        assert!(
            clickhouse::compress(data, block_size).is_err(),
            "{block_size}"
        );
        assert!(
            clickhouse::Encoder::new(Vec::new(), block_size).is_err(),
            "{block_size}"
        );
    }
    assert!(clickhouse::decompress(&[], 0).unwrap().is_empty());
}

// ---- Size prefixes ----------------------------------------------------------------------------

#[test]
fn varint_prefixes() {
    for value in [
        0,
        1,
        127,
        128,
        16_383,
        16_384,
        (1 << 21) - 1,
        1 << 28,
        u32::MAX,
    ] {
        let mut bytes = Vec::new();
        SizePrefix::Varint32.write(value, &mut bytes);
        let expected_len = match value {
            0..=0x7F => 1,
            0x80..=0x3FFF => 2,
            0x4000..=0x1F_FFFF => 3,
            0x20_0000..=0xFFF_FFFF => 4,
            _ => 5,
        };
        assert_eq!(bytes.len(), expected_len, "{value}");
        assert_eq!(
            SizePrefix::Varint32.read(&bytes).unwrap(),
            (value, bytes.len())
        );
    }
    // Non-canonical (padded) varints are accepted as RocksDB accepts them.
    assert_eq!(
        SizePrefix::Varint32.read(&[0x85, 0x80, 0x00]).unwrap(),
        (5, 3)
    );
    // Above u32::MAX, longer than 5 bytes, truncated.
    for bad in [
        &[0xFF, 0xFF, 0xFF, 0xFF, 0x1F][..],
        &[0x80, 0x80, 0x80, 0x80, 0x80, 0x00],
        &[0x80],
    ] {
        let error = SizePrefix::Varint32.read(bad).fails();
        assert_eq!(error.kind(), ErrorKind::CorruptInput, "{bad:?}: {error}");
    }
    // The declared size must be exactly what the block decodes to.
    for prefix in [SizePrefix::Le32, SizePrefix::Be32, SizePrefix::Varint32] {
        let block = block::compress(b"prefixed prefixed").unwrap();
        for declared in [16, 18] {
            let mut stream = Vec::new();
            prefix.write(declared, &mut stream);
            stream.extend_from_slice(&block);
            assert!(
                prefixed::decompress(&stream, prefix, 100).is_err(),
                "{prefix:?} {declared}"
            );
        }
        // A size prefix alone: 0 is empty, anything else misses its block.
        let mut zero = Vec::new();
        prefix.write(0, &mut zero);
        assert_eq!(prefixed::decompress(&zero, prefix, 0).unwrap(), b"");
        let mut five = Vec::new();
        prefix.write(5, &mut five);
        assert!(prefixed::decompress(&five, prefix, 10).is_err());
    }
    // The big-endian prefix is big-endian.
    assert_eq!(
        prefixed::compress(b"ab", SizePrefix::Be32).unwrap()[..4],
        [0, 0, 0, 2]
    );
}

// ---- Kernel images ----------------------------------------------------------------------------

#[test]
fn kernel_image_trailers() {
    let data = generated("log-lines", 20_000, 7);
    let legacy = frame::compress_legacy(&data, 1);
    for padding in [0, 1, 2, 3, 4, 5, 100] {
        let mut image = legacy.clone();
        image.extend_from_slice(&(data.len() as u32).to_le_bytes());
        image.resize(image.len() + padding, 0);
        assert_eq!(
            linux::decompress(&image, data.len()).unwrap(),
            data,
            "{padding}"
        );
        assert!(frame::decompress(&image, data.len()).is_err());
        // (A trailer of 0 is a size word of 0: zero padding, which ends the image; see
        // `kernel_padding`.)
        for wrong in [data.len() - 1, data.len() + 1] {
            let mut lying = legacy.clone();
            lying.extend_from_slice(&(wrong as u32).to_le_bytes());
            lying.resize(lying.len() + padding, 0);
            assert!(
                linux::decompress(&lying, usize::MAX).is_err(),
                "{padding} {wrong}"
            );
        }
    }
    // Two legacy frames, then the trailer of the whole.
    let mut image = [legacy.clone(), legacy.clone()].concat();
    image.extend_from_slice(&(2 * data.len() as u32).to_le_bytes());
    assert_eq!(
        linux::decompress(&image, usize::MAX).unwrap(),
        [&data[..], &data[..]].concat()
    );
    // Only after a legacy frame.
    let mut not_legacy = frame::compress(&data, &frame::FrameOptions::new());
    not_legacy.extend_from_slice(&(data.len() as u32).to_le_bytes());
    assert!(linux::decompress(&not_legacy, usize::MAX).is_err());
    // Non-zero bytes after the trailer.
    let mut dirty = legacy.clone();
    dirty.extend_from_slice(&(data.len() as u32).to_le_bytes());
    dirty.extend_from_slice(&[0, 0, 1]);
    assert!(linux::decompress(&dirty, usize::MAX).is_err());
    // The cap holds.
    let mut image = legacy.clone();
    image.extend_from_slice(&(data.len() as u32).to_le_bytes());
    let error = linux::decompress(&image, data.len() - 1).fails();
    assert_eq!(error.kind(), ErrorKind::LimitExceeded, "{error}");
}

// ---- checksums --------------------------------------------------------------------------------

/// Every checksum a container carries is verified, and a bad one is named as such at its
/// offset, by the one-shot decoders and the streaming ones alike: lz4-java's block checksums,
/// ClickHouse's CityHash128 (every byte of it), Kafka's header checksum in both forms and the
/// block and content checksums of frames that carry them. (Hadoop, the size-prefixed blocks and
/// Parquet pages carry none: their sizes are their checks.)
#[test]
#[cfg(feature = "std")]
fn every_checksum_is_verified_and_named() {
    use std::io::Read;
    let data = generated("log-lines", 5000, 9);
    let stream_error = |mut decoder: Box<dyn Read + '_>| -> Error {
        let error = decoder.read_to_end(&mut Vec::new()).unwrap_err();
        error
            .into_inner()
            .unwrap()
            .downcast::<Error>()
            .map(|e| *e)
            .unwrap()
    };

    // lz4-java: 1000-byte blocks, LZ4 method; the checksum field of each block.
    let stream = java::compress(&data, 1000).unwrap();
    let mut pos = 0;
    let mut blocks = 0;
    while pos + java::HEADER_LEN <= stream.len() {
        let compressed = u32::from_le_bytes(stream[pos + 9..pos + 13].try_into().unwrap());
        if compressed == 0 {
            break;
        }
        let mut bad = stream.clone();
        bad[pos + 17] ^= 0x01;
        let error = java::decompress(&bad, usize::MAX).fails();
        let at = (pos + 17) as u64;
        assert!(
            matches!(error, Error::ContainerChecksum { input_pos, .. } if input_pos == at),
            "lz4-java block at {pos}: {error}"
        );
        let streamed = stream_error(Box::new(java::Decoder::new(&bad[..], usize::MAX)));
        assert_eq!(streamed, error);
        pos += java::HEADER_LEN + compressed as usize;
        blocks += 1;
    }
    assert_eq!(blocks, 5);

    // ClickHouse: every byte of every block's checksum.
    let stream = clickhouse::compress(&data, 2000).unwrap();
    let mut pos = 0;
    while pos < stream.len() {
        let size = u32::from_le_bytes(stream[pos + 17..pos + 21].try_into().unwrap()) as usize;
        for byte in pos..pos + clickhouse::CHECKSUM_LEN {
            let mut bad = stream.clone();
            bad[byte] ^= 0x80;
            let error = clickhouse::decompress(&bad, usize::MAX).fails();
            assert!(
                matches!(error, Error::ContainerChecksum { input_pos, .. } if input_pos == pos as u64),
                "clickhouse checksum byte {byte}: {error}"
            );
            let streamed = stream_error(Box::new(clickhouse::Decoder::new(&bad[..], usize::MAX)));
            assert_eq!(streamed, error);
        }
        pos += clickhouse::CHECKSUM_LEN + size;
    }

    // Kafka: the header checksum in either form (each refused where only the other is
    // accepted, both refused when neither matches), then a frame with block and content
    // checksums (Kafka's reader accepts them).
    for (checksum, accept) in [
        (HeaderChecksum::Spec, AcceptHeaderChecksum::OverMagic),
        (HeaderChecksum::OverMagic, AcceptHeaderChecksum::Spec),
    ] {
        let frame = kafka::compress(&data, checksum);
        for (frame, accept) in [
            (frame.clone(), accept),
            (
                [&frame[..6], &[frame[6] ^ 0x55], &frame[7..]].concat(),
                AcceptHeaderChecksum::Either,
            ),
        ] {
            let error = kafka::decompress(&frame, accept, usize::MAX).fails();
            assert!(
                matches!(error, Error::ContainerChecksum { input_pos: 6, .. }),
                "{checksum:?}: {error}"
            );
            let streamed = stream_error(Box::new(kafka::Decoder::new(&frame[..], accept)));
            assert_eq!(streamed, error);
        }
    }
    let options = frame::FrameOptions::new()
        .block_size(frame::BlockSize::Max64KB)
        .content_checksum(true)
        .block_checksum(true);
    let framed = frame::compress(&data, &options);
    let block_len = u32::from_le_bytes(framed[7..11].try_into().unwrap()) as usize & 0x7FFF_FFFF;
    let block_checksum = 7 + 4 + block_len;
    let content_checksum = framed.len() - 4;
    for (at, what) in [(block_checksum, "block"), (content_checksum, "content")] {
        let mut bad = framed.clone();
        bad[at] ^= 0x01;
        let error = kafka::decompress(&bad, AcceptHeaderChecksum::Spec, usize::MAX).fails();
        let named = match what {
            "block" => matches!(error, Error::FrameBlockChecksum { .. }),
            _ => matches!(error, Error::FrameContentChecksum { .. }),
        };
        assert!(named, "kafka {what} checksum: {error}");
        let streamed = stream_error(Box::new(kafka::Decoder::new(
            &bad[..],
            AcceptHeaderChecksum::Spec,
        )));
        assert_eq!(streamed.kind(), error.kind(), "kafka {what}: {streamed}");
    }
}
