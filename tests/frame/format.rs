//! The frame format: exact vectors, every option combination round-tripping through the one-shot
//! and streaming APIs, concatenated / skippable / legacy frames, dictionaries, every error, and
//! corruption sweeps (every byte flipped, every truncation).

use std::io::{BufRead, Read, Write};

use lz4_simd::frame::{
    self, BlockMode, BlockSize, FrameCompressor, FrameDecoder, FrameEncoder, FrameHeader,
    FrameOptions,
};
use lz4_simd::Error;
use testkit::samples::{generated, GENERATED_KINDS};
use testkit::{corpus, liblz4, Rng};

const HELLO: &[u8] = b"hello hello hello hello";
/// `hello hello hello hello` with content size and content checksum, 64 KB independent blocks.
const HELLO_FRAME: [u8; 42] = [
    0x04, 0x22, 0x4d, 0x18, 0x6c, 0x40, 0x17, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x07, 0x0f,
    0x00, 0x00, 0x00, 0x68, 0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x20, 0x06, 0x00, 0x50, 0x68, 0x65, 0x6c,
    0x6c, 0x6f, 0x00, 0x00, 0x00, 0x00, 0xf2, 0x6b, 0x94, 0x0b,
];
/// What `lz4 -1 -c` (1.9.4) writes for the same file with its default options.
const HELLO_FRAME_CLI_DEFAULT: [u8; 34] = [
    0x04, 0x22, 0x4d, 0x18, 0x64, 0x40, 0xa7, 0x0f, 0x00, 0x00, 0x00, 0x68, 0x68, 0x65, 0x6c, 0x6c,
    0x6f, 0x20, 0x06, 0x00, 0x50, 0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x00, 0x00, 0x00, 0x00, 0xf2, 0x6b,
    0x94, 0x0b,
];

fn all_options() -> Vec<FrameOptions> {
    let mut all = Vec::new();
    for block_size in BlockSize::ALL {
        for block_mode in [BlockMode::Independent, BlockMode::Linked] {
            for (content_checksum, block_checksum, content_size) in [
                (true, false, false),
                (false, true, true),
                (true, true, true),
                (false, false, false),
            ] {
                all.push(
                    FrameOptions::new()
                        .block_size(block_size)
                        .block_mode(block_mode)
                        .content_checksum(content_checksum)
                        .block_checksum(block_checksum)
                        .content_size(content_size),
                );
            }
        }
    }
    all
}

fn stream_decode(framed: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    FrameDecoder::new(framed).read_to_end(&mut out)?;
    Ok(out)
}

/// Reads through a reader that hands out at most `chunk` bytes per call.
struct Trickle<'a> {
    data: &'a [u8],
    chunk: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(self.chunk).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

fn frame_error(result: std::io::Result<Vec<u8>>) -> Error {
    let error = result.expect_err("expected an error");
    error
        .get_ref()
        .and_then(|inner| inner.downcast_ref::<Error>())
        .unwrap_or_else(|| panic!("not a frame error: {error}"))
        .clone()
}

#[test]
fn hello_vector_exact_bytes() {
    let options = FrameOptions::new()
        .block_size(BlockSize::Max64KB)
        .content_size(true);
    assert_eq!(frame::compress(HELLO, &options), HELLO_FRAME);
    assert_eq!(frame::decompress(&HELLO_FRAME, 100).unwrap(), HELLO);
    assert_eq!(stream_decode(&HELLO_FRAME).unwrap(), HELLO);
    // The CLI's default options shrink the block size code to 64 KB for a small input.
    assert_eq!(
        frame::compress(HELLO, &FrameOptions::default()),
        HELLO_FRAME_CLI_DEFAULT
    );
    assert_eq!(
        frame::decompress(&HELLO_FRAME_CLI_DEFAULT, 100).unwrap(),
        HELLO
    );
    // The streaming encoder with a declared size writes the same frame.
    let mut encoder = FrameEncoder::with_options(
        Vec::new(),
        FrameOptions::new()
            .block_size(BlockSize::Max64KB)
            .declared_content_size(Some(HELLO.len() as u64)),
    );
    encoder.write_all(HELLO).unwrap();
    assert_eq!(encoder.finish().unwrap(), HELLO_FRAME);

    let info = frame::read_frame_info(&HELLO_FRAME).unwrap();
    assert_eq!(info.block_size, BlockSize::Max64KB);
    assert_eq!(info.block_mode, BlockMode::Independent);
    assert_eq!(info.content_size, Some(23));
    assert!(info.content_checksum && !info.block_checksum);
    assert_eq!(info.dict_id, None);
    assert_eq!(info.header_len, 15);
}

#[test]
fn empty_input_frames() {
    for options in all_options() {
        let framed = frame::compress(&[], &options);
        assert_eq!(frame::decompress(&framed, 0).unwrap(), b"");
        assert_eq!(stream_decode(&framed).unwrap(), b"");
        let encoder = FrameEncoder::with_options(Vec::new(), options.clone());
        let streamed = encoder.finish().unwrap();
        assert_eq!(frame::decompress(&streamed, 0).unwrap(), b"");
    }
    // An empty input is not a frame.
    assert!(matches!(
        frame::decompress(&[], 10),
        Err(Error::FrameTruncated { input_pos: 0, .. })
    ));
    assert!(matches!(
        frame_error(stream_decode(&[])),
        Error::FrameTruncated { .. }
    ));
}

fn sample_inputs() -> Vec<(String, Vec<u8>)> {
    let mut inputs = Vec::new();
    for kind in GENERATED_KINDS {
        for len in [1, 13, 1000, 65_536, 65_537, 300_000] {
            inputs.push((format!("{kind} {len}"), generated(kind, len, len as u64)));
        }
    }
    inputs
}

#[test]
fn every_option_round_trips_one_shot_and_streaming() {
    let inputs = sample_inputs();
    for options in all_options() {
        for (name, data) in &inputs {
            let framed = frame::compress(data, &options);
            let info = frame::read_frame_info(&framed).unwrap();
            assert_eq!(
                info.content_size.is_some(),
                options != options.clone().content_size(false)
            );
            let back = frame::decompress(&framed, data.len())
                .unwrap_or_else(|e| panic!("{name} {options:?}: {e}"));
            assert!(back == *data, "{name} {options:?}");
            assert!(
                stream_decode(&framed).unwrap() == *data,
                "{name} {options:?}"
            );

            // Streamed in uneven writes, with a flush in the middle.
            let mut encoder =
                FrameEncoder::with_options(Vec::new(), options.clone().content_size(false));
            let mut rest = &data[..];
            let mut step = 1usize;
            while !rest.is_empty() {
                let n = step.min(rest.len());
                encoder.write_all(&rest[..n]).unwrap();
                rest = &rest[n..];
                step = step * 7 + 3;
                if step > 200_000 && step < 1_500_000 {
                    encoder.flush().unwrap();
                }
            }
            let streamed = encoder.finish().unwrap();
            assert!(
                frame::decompress(&streamed, data.len()).unwrap() == *data,
                "{name}"
            );
            let mut trickled = Vec::new();
            FrameDecoder::new(Trickle {
                data: &streamed,
                chunk: 4093,
            })
            .read_to_end(&mut trickled)
            .unwrap();
            assert!(trickled == *data, "{name} {options:?}: trickled stream");
        }
    }
}

/// Multi-block inputs at every block size (4 MiB blocks need more than 4 MiB).
#[test]
fn large_inputs_round_trip() {
    let mut inputs = vec![("runs 9 MiB".to_string(), generated("runs", 9 << 20, 5))];
    if let Some((name, data)) = corpus::all().first() {
        inputs.push((name.clone(), data[..data.len().min(5 << 20)].to_vec()));
    }
    for (name, data) in &inputs {
        for block_mode in [BlockMode::Independent, BlockMode::Linked] {
            for block_size in [BlockSize::Max256KB, BlockSize::Max4MB] {
                let options = FrameOptions::new()
                    .block_size(block_size)
                    .block_mode(block_mode)
                    .block_checksum(true);
                let framed = frame::compress(data, &options);
                assert!(
                    frame::decompress(&framed, data.len()).unwrap() == *data,
                    "{name}"
                );
                assert!(stream_decode(&framed).unwrap() == *data, "{name}");
                let mut encoder = FrameEncoder::with_options(Vec::new(), options);
                for chunk in data.chunks(1 << 20) {
                    encoder.write_all(chunk).unwrap();
                }
                assert!(
                    frame::decompress(&encoder.finish().unwrap(), data.len()).unwrap() == *data
                );
            }
        }
    }
}

/// The streaming encoder writes the same bytes as the one-shot `frame::compress` for inputs of
/// more than one block, however the input is cut into writes, in independent mode. Linked frames
/// are LZ4F's (without auto-flush) for the same updates, each `write` call one
/// `LZ4F_compressUpdate` of what it takes: blocks gathered from smaller writes (the last one
/// included) follow the history in LZ4F's buffer (prefix mode), which gives other bytes than the
/// one-shot frame's blocks, each compressed in a buffer of its own as by the `lz4` tool.
#[test]
fn streamed_frames_equal_one_shot_frames() {
    let data = generated("log-lines", (3 << 20) + 12_345, 8);
    for block_mode in [BlockMode::Independent, BlockMode::Linked] {
        for block_size in [BlockSize::Max64KB, BlockSize::Max1MB] {
            let options = FrameOptions::new()
                .block_size(block_size)
                .block_mode(block_mode);
            let one_shot = frame::compress(&data, &options);
            let block_len = block_size.bytes();
            for write_len in [
                block_len,
                3 * block_len + 1,
                block_len - 1,
                100_003,
                data.len(),
            ] {
                let mut encoder = FrameEncoder::with_options(Vec::new(), options.clone());
                for chunk in data.chunks(write_len) {
                    encoder.write_all(chunk).unwrap();
                }
                let streamed = encoder.finish().unwrap();
                let expected = if block_mode == BlockMode::Linked {
                    let takes = liblz4::updates_of_writes(&data, write_len, block_len);
                    let code = if block_size == BlockSize::Max64KB {
                        4
                    } else {
                        6
                    };
                    let mut preferences = liblz4::fast_frame_preferences(code, true, 1);
                    preferences.auto_flush = 0;
                    liblz4::compress_frame_ops(&takes, None, &preferences)
                } else {
                    one_shot.clone()
                };
                assert!(
                    streamed == expected,
                    "{block_mode:?} {block_size:?}, writes of {write_len}: streamed frame differs"
                );
            }
        }
    }
}

#[test]
fn linked_blocks_reference_previous_blocks() {
    // Repeats 1 KiB of random bytes: with 64 KB blocks, linked mode can reference the previous
    // block; independent mode has to start over in each block.
    let unit = Rng::new(5).bytes(40_000);
    let data: Vec<u8> = unit
        .iter()
        .chain(&unit)
        .chain(&unit)
        .chain(&unit)
        .copied()
        .collect();
    let independent = frame::compress(&data, &FrameOptions::new().block_size(BlockSize::Max64KB));
    let linked = frame::compress(
        &data,
        &FrameOptions::new()
            .block_size(BlockSize::Max64KB)
            .block_mode(BlockMode::Linked),
    );
    assert!(
        linked.len() + 20_000 < independent.len(),
        "{} vs {}",
        linked.len(),
        independent.len()
    );
    assert_eq!(frame::decompress(&linked, data.len()).unwrap(), data);
    assert_eq!(stream_decode(&linked).unwrap(), data);
    let info = frame::read_frame_info(&linked).unwrap();
    assert_eq!(info.block_mode, BlockMode::Linked);
}

#[test]
fn incompressible_blocks_are_stored() {
    let data = Rng::new(11).bytes(200_000);
    let options = FrameOptions::new().block_size(BlockSize::Max64KB);
    let framed = frame::compress(&data, &options);
    // Header 7, four blocks of 4 + size, end mark, checksum.
    assert_eq!(framed.len(), 7 + 4 * 4 + data.len() + 4 + 4);
    assert_eq!(framed[7..11], [0x00, 0x00, 0x01, 0x80]);
    assert_eq!(frame::decompress(&framed, data.len()).unwrap(), data);
}

#[test]
fn concatenated_skippable_and_legacy_frames() {
    let a = generated("log-lines", 100_000, 1);
    let b = generated("runs", 9_000_000, 2);
    let c = generated("random", 5000, 3);
    let mut stream = frame::compress(&a, &FrameOptions::new());
    stream.extend(frame::skippable_frame(0, b"skip me").unwrap());
    stream.extend(frame::compress_legacy(&b, 1));
    stream.extend(frame::skippable_frame(15, &[]).unwrap());
    stream.extend(frame::compress_legacy(&c, 1));
    stream.extend(frame::compress(
        &c,
        &FrameOptions::new().block_checksum(true),
    ));
    let expected: Vec<u8> = [&a[..], &b[..], &c[..], &c[..]].concat();
    assert!(frame::decompress(&stream, expected.len()).unwrap() == expected);
    assert!(stream_decode(&stream).unwrap() == expected);
    let mut trickled = Vec::new();
    FrameDecoder::new(Trickle {
        data: &stream,
        chunk: 3,
    })
    .read_to_end(&mut trickled)
    .unwrap();
    assert!(trickled == expected);

    let found: Vec<_> = frame::frames(&stream).collect::<Result<_, _>>().unwrap();
    assert_eq!(found.len(), 6);
    assert_eq!(found[1].skippable_payload(), Some(&b"skip me"[..]));
    assert_eq!(
        found[1].header,
        FrameHeader::Skippable {
            magic_nibble: 0,
            payload_len: 7
        }
    );
    assert_eq!(found[2].header, FrameHeader::Legacy);
    assert_eq!(found[3].skippable_payload(), Some(&b""[..]));
    assert_eq!(
        found.iter().map(|f| f.bytes.len()).sum::<usize>(),
        stream.len()
    );
    assert!(frame::decompress(found[2].bytes, b.len()).unwrap() == b);
    assert_eq!(found[5].offset + found[5].bytes.len(), stream.len());

    // Legacy frames: 8 MiB blocks, the magic alone for an empty input.
    let legacy = frame::compress_legacy(&b, 1);
    assert_eq!(legacy[..4], [0x02, 0x21, 0x4c, 0x18]);
    assert_eq!(frame::compress_legacy(&[], 1), [0x02, 0x21, 0x4c, 0x18]);
    assert_eq!(
        frame::decompress(&frame::compress_legacy(&[], 1), 0).unwrap(),
        b""
    );
    assert!(matches!(
        frame::skippable_frame(16, b""),
        Err(Error::InvalidArgument { .. })
    ));
}

#[test]
fn dictionaries() {
    // Data made of pieces of a random dictionary: each block can find them all in the dictionary
    // but only some in itself.
    let mut rng = Rng::new(7);
    let dict = rng.bytes(100_000);
    let mut data = Vec::new();
    while data.len() < 300_000 {
        let start = 40_000 + rng.below(59_000) as usize;
        let len = 50 + rng.below(950) as usize;
        data.extend_from_slice(&dict[start..(start + len).min(dict.len())]);
    }
    for block_mode in [BlockMode::Independent, BlockMode::Linked] {
        for block_size in [BlockSize::Max64KB, BlockSize::Max4MB] {
            let options = FrameOptions::new()
                .block_size(block_size)
                .block_mode(block_mode)
                .dict_id(Some(0xDEC0_DE42));
            let framed = frame::compress_with_dictionary(&data, &dict, &options);
            let plain = frame::compress(&data, &options.clone().dict_id(None));
            assert!(
                framed.len() < plain.len(),
                "{block_mode:?} {block_size:?}: {} vs {}",
                framed.len(),
                plain.len()
            );
            assert_eq!(
                frame::read_frame_info(&framed).unwrap().dict_id,
                Some(0xDEC0_DE42)
            );
            assert!(
                frame::decompress_with_dictionary(&framed, &dict, 0xDEC0_DE42, data.len()).unwrap()
                    == data
            );
            let mut out = Vec::new();
            FrameDecoder::with_dictionary(&framed[..], &dict, 0xDEC0_DE42)
                .read_to_end(&mut out)
                .unwrap();
            assert!(out == data, "{block_mode:?} {block_size:?}");
            // The streaming encoder with the dictionary decodes the same way.
            let mut encoder = FrameEncoder::with_dictionary(Vec::new(), options.clone(), &dict);
            for chunk in data.chunks(10_007) {
                encoder.write_all(chunk).unwrap();
            }
            let streamed = encoder.finish().unwrap();
            assert!(
                frame::decompress_with_dictionary(&streamed, &dict, 0xDEC0_DE42, data.len())
                    .unwrap()
                    == data
            );
            // Missing or wrong dictionary.
            assert_eq!(
                frame::decompress(&framed, data.len()),
                Err(Error::FrameMissingDictionary {
                    dict_id: 0xDEC0_DE42
                })
            );
            assert_eq!(
                frame::decompress_with_dictionary(&framed, &dict, 7, data.len()),
                Err(Error::FrameDictIdMismatch {
                    frame: 0xDEC0_DE42,
                    supplied: 7
                })
            );
            assert_eq!(
                frame_error(stream_decode(&framed)),
                Error::FrameMissingDictionary {
                    dict_id: 0xDEC0_DE42
                }
            );
        }
    }
}

#[test]
fn output_cap_is_enforced_before_allocating() {
    let data = generated("runs", 1_000_000, 4);
    let framed = frame::compress(&data, &FrameOptions::new().content_size(true));
    assert_eq!(
        frame::decompress(&framed, data.len() - 1),
        Err(Error::FrameOutputLimit {
            max_out: data.len() as u64 - 1,
            declared: Some(data.len() as u64)
        })
    );
    let unsized_frame = frame::compress(&data, &FrameOptions::new());
    assert_eq!(
        frame::decompress(&unsized_frame, 1000),
        Err(Error::FrameOutputLimit {
            max_out: 1000,
            declared: None
        })
    );
    assert!(frame::decompress(&unsized_frame, data.len()).is_ok());
    // A header claiming an absurd content size with a generous cap allocates by the input.
    let mut lying = HELLO_FRAME;
    lying[6..14].copy_from_slice(&(1u64 << 40).to_le_bytes());
    let checksum = (xxhash_rust::xxh32::xxh32(&lying[4..14], 0) >> 8) as u8;
    lying[14] = checksum;
    assert_eq!(
        frame::decompress(&lying, usize::MAX),
        Err(Error::FrameContentSizeMismatch {
            declared: 1 << 40,
            actual: 23
        })
    );
}

/// Builds a frame header with a correct checksum.
fn header(flg: u8, bd: u8, extra: &[u8]) -> Vec<u8> {
    let mut out = vec![0x04, 0x22, 0x4d, 0x18, flg, bd];
    out.extend_from_slice(extra);
    out.push((xxhash_rust::xxh32::xxh32(&out[4..], 0) >> 8) as u8);
    out
}

#[test]
fn each_error_names_the_problem() {
    let cases: Vec<(&str, Vec<u8>, Error)> = vec![
        (
            "version 0",
            header(0x20, 0x40, &[]),
            Error::FrameUnsupportedVersion {
                input_pos: 4,
                version: 0,
            },
        ),
        (
            "reserved FLG bit",
            header(0x62, 0x40, &[]),
            Error::FrameReservedBitSet {
                input_pos: 4,
                field: "FLG",
                value: 0x62,
            },
        ),
        (
            "reserved BD bit",
            header(0x60, 0x41, &[]),
            Error::FrameReservedBitSet {
                input_pos: 5,
                field: "BD",
                value: 0x41,
            },
        ),
        (
            "block size code 3",
            header(0x60, 0x30, &[]),
            Error::FrameBadBlockSizeCode {
                input_pos: 5,
                code: 3,
            },
        ),
        (
            "header checksum",
            {
                let mut h = header(0x60, 0x40, &[]);
                h[6] ^= 1;
                h
            },
            Error::FrameHeaderChecksum {
                input_pos: 6,
                expected: header(0x60, 0x40, &[])[6],
                found: header(0x60, 0x40, &[])[6] ^ 1,
            },
        ),
        (
            "block too large",
            [header(0x60, 0x40, &[]), vec![0x01, 0x00, 0x01, 0x00]].concat(),
            Error::FrameBlockTooLarge {
                input_pos: 7,
                block_index: 0,
                size: 65_537,
                max: 65_536,
            },
        ),
    ];
    for (name, bytes, expected) in cases {
        let got = frame::decompress(&bytes, 1 << 20).expect_err(name);
        if name == "header checksum" {
            assert!(
                matches!(got, Error::FrameHeaderChecksum { input_pos: 6, .. }),
                "{name}: {got}"
            );
        } else {
            assert_eq!(got, expected, "{name}");
        }
        assert_eq!(frame_error(stream_decode(&bytes)), got, "{name}: streaming");
        assert!(!got.to_string().is_empty());
    }

    // Block checksum, content checksum, content size: corrupt a frame that has all three.
    let data = generated("log-lines", 5000, 9);
    let options = FrameOptions::new()
        .block_checksum(true)
        .content_size(true)
        .block_size(BlockSize::Max64KB);
    let framed = frame::compress(&data, &options);
    let block_size = u32::from_le_bytes(framed[15..19].try_into().unwrap()) as usize;
    let mut bad_block = framed.clone();
    bad_block[19 + block_size] ^= 0xFF; // the block checksum
    assert!(matches!(
        frame::decompress(&bad_block, 1 << 20),
        Err(Error::FrameBlockChecksum {
            input_pos: 15,
            block_index: 0,
            ..
        })
    ));
    let mut bad_content = framed.clone();
    let last = bad_content.len() - 1;
    bad_content[last] ^= 0x01;
    assert!(matches!(
        frame::decompress(&bad_content, 1 << 20),
        Err(Error::FrameContentChecksum { .. })
    ));
    assert!(matches!(
        frame_error(stream_decode(&bad_content)),
        Error::FrameContentChecksum { .. }
    ));
    // A wrong declared size (header re-checksummed so only the size is wrong).
    let mut bad_size = framed.clone();
    bad_size[6..14].copy_from_slice(&(data.len() as u64 + 1).to_le_bytes());
    bad_size[14] = (xxhash_rust::xxh32::xxh32(&bad_size[4..14], 0) >> 8) as u8;
    assert_eq!(
        frame::decompress(&bad_size, 1 << 20),
        Err(Error::FrameContentSizeMismatch {
            declared: data.len() as u64 + 1,
            actual: data.len() as u64
        })
    );
    // A corrupt compressed block says which block and where.
    let mut bad_data = frame::compress(&data, &FrameOptions::new().content_checksum(false));
    let block_start = 7 + 4;
    bad_data[block_start] = 0xF0; // a token claiming a long literal run
    bad_data[block_start + 1] = 0xFF;
    let got = frame::decompress(&bad_data, 1 << 20).unwrap_err();
    assert!(
        matches!(
            got,
            Error::FrameBlock {
                input_pos: 7,
                block_index: 0,
                ..
            }
        ),
        "{got}"
    );
    // Streaming encoder with a wrong declared size.
    let mut encoder = FrameEncoder::with_options(
        Vec::new(),
        FrameOptions::new().declared_content_size(Some(10)),
    );
    encoder.write_all(b"only nine").unwrap();
    let error = encoder.finish().unwrap_err();
    assert_eq!(error.kind(), std::io::ErrorKind::InvalidInput);
}

#[test]
fn bad_magic_says_what_the_data_looks_like() {
    let data = generated("log-lines", 3000, 1);
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (
            lz4_simd::block::compress_prepend_size(&data).unwrap(),
            "size-prefixed",
        ),
        (lz4_simd::block::compress(&data).unwrap(), "raw LZ4 block"),
        (vec![0x1f, 0x8b, 8, 0, 0, 0], "gzip"),
        (vec![0x28, 0xb5, 0x2f, 0xfd, 0, 0], "zstd"),
        (b"plain text, not compressed at all".to_vec(), "not LZ4"),
    ];
    for (bytes, hint) in cases {
        let error = frame::decompress(&bytes, 1 << 20).unwrap_err();
        let Error::FrameBadMagic {
            input_pos: 0,
            found,
            ..
        } = error
        else {
            panic!("{hint}: {error}");
        };
        assert_eq!(found, bytes[..4]);
        assert!(error.to_string().contains(hint), "{hint}: {error}");
    }
    // Trailing garbage after a valid frame is reported at its offset.
    let mut stream = HELLO_FRAME.to_vec();
    stream.extend_from_slice(b"junk");
    assert!(matches!(
        frame::decompress(&stream, 100),
        Err(Error::FrameBadMagic { input_pos: 42, .. })
    ));
}

/// Flips every byte of small frames in turn and truncates them at every length. Each must give
/// an error or, where no checksum covers the byte, possibly wrong data; never a panic. The test
/// documents which bytes are covered.
#[test]
fn corruption_sweep() {
    let data = generated("log-lines", 700, 3);
    for (checksums, options) in [
        (
            true,
            FrameOptions::new()
                .block_checksum(true)
                .content_size(true)
                .block_size(BlockSize::Max64KB),
        ),
        (false, FrameOptions::new().content_checksum(false)),
    ] {
        let framed = frame::compress(&data, &options);
        for len in 0..framed.len() {
            assert!(
                frame::decompress(&framed[..len], 1 << 20).is_err(),
                "truncated at {len}"
            );
            assert!(
                stream_decode(&framed[..len]).is_err(),
                "truncated at {len}: streaming"
            );
        }
        let mut silent = 0;
        for pos in 0..framed.len() {
            for flip in [0x01u8, 0x80, 0xFF] {
                let mut bad = framed.clone();
                bad[pos] ^= flip;
                let one_shot = frame::decompress(&bad, 1 << 20);
                let streamed = stream_decode(&bad);
                assert_eq!(one_shot.is_ok(), streamed.is_ok(), "byte {pos} ^ {flip:#x}");
                match one_shot {
                    Err(_) => {}
                    Ok(out) => {
                        // With checksums every change is caught; without them only a change
                        // inside the compressed block (a literal, an offset) can pass.
                        assert!(
                            !checksums,
                            "byte {pos} ^ {flip:#x} passed a checksummed frame"
                        );
                        // The header is covered by its checksum. (The block size word's top bit,
                        // "stored raw", can flip silently: the compressed bytes come out as
                        // content.)
                        assert!(pos >= 7, "header byte {pos} ^ {flip:#x} passed");
                        assert_eq!(streamed.unwrap(), out);
                        silent += 1;
                    }
                }
            }
        }
        if !checksums {
            assert!(
                silent > 0,
                "a flipped literal should decode to wrong data silently"
            );
        }
    }
}

#[test]
fn buf_read_and_frame_info_while_streaming() {
    let data = generated("log-lines", 200_000, 12);
    let framed = frame::compress(
        &data,
        &FrameOptions::new()
            .block_size(BlockSize::Max64KB)
            .block_mode(BlockMode::Linked),
    );
    let mut decoder = FrameDecoder::new(&framed[..]);
    let mut lines = 0;
    let mut line = String::new();
    while decoder.read_line(&mut line).unwrap() > 0 {
        lines += 1;
        if lines == 1 {
            assert_eq!(decoder.frame_info().unwrap().block_mode, BlockMode::Linked);
        }
        line.clear();
    }
    assert_eq!(
        lines,
        data.iter().filter(|&&b| b == b'\n').count() + usize::from(!data.ends_with(b"\n"))
    );
}

#[test]
fn hc_frames() {
    let data = generated("log-lines", 300_000, 21);
    let fast = frame::compress(&data, &FrameOptions::new().block_size(BlockSize::Max64KB));
    for level in [2u8, 3, 9, 12] {
        for block_mode in [BlockMode::Independent, BlockMode::Linked] {
            let options = FrameOptions::new()
                .block_size(BlockSize::Max64KB)
                .block_mode(block_mode)
                .hc_level(Some(level))
                .favor_dec_speed(level == 12);
            let framed = frame::compress(&data, &options);
            assert!(
                framed.len() < fast.len(),
                "level {level}: {} vs fast {}",
                framed.len(),
                fast.len()
            );
            assert!(
                frame::decompress(&framed, data.len()).unwrap() == data,
                "level {level}"
            );
            let mut encoder = FrameEncoder::with_options(Vec::new(), options);
            for chunk in data.chunks(50_000) {
                encoder.write_all(chunk).unwrap();
            }
            let streamed = encoder.finish().unwrap();
            assert!(
                stream_decode(&streamed).unwrap() == data,
                "level {level} streamed"
            );
        }
    }
    // Linked HC blocks use the previous block as history.
    let unit = Rng::new(9).bytes(30_000);
    let repeated: Vec<u8> = unit.iter().chain(&unit).chain(&unit).copied().collect();
    let independent = frame::compress(
        &repeated,
        &FrameOptions::new()
            .block_size(BlockSize::Max64KB)
            .hc_level(Some(9)),
    );
    let linked = frame::compress(
        &repeated,
        &FrameOptions::new()
            .block_size(BlockSize::Max64KB)
            .block_mode(BlockMode::Linked)
            .hc_level(Some(9)),
    );
    assert!(
        linked.len() + 10_000 < independent.len(),
        "{} vs {}",
        linked.len(),
        independent.len()
    );
    assert!(frame::decompress(&linked, repeated.len()).unwrap() == repeated);
}

/// `read_to_end` decodes independent blocks straight into the caller's `Vec`; `read` (through
/// `io::copy`'s small buffer) and a mix of both give the same bytes, on every kind of frame.
#[test]
fn read_and_read_to_end_agree() {
    let a = generated("log-lines", 200_000, 31);
    let b = generated("runs", 150_000, 32);
    let dict = generated("log-lines", 20_000, 33);
    let mut stream = frame::compress(&a, &FrameOptions::new().block_size(BlockSize::Max64KB));
    stream.extend(frame::compress(
        &b,
        &FrameOptions::new()
            .block_size(BlockSize::Max64KB)
            .block_mode(BlockMode::Linked),
    ));
    stream.extend(frame::compress_legacy(&a, 1));
    stream.extend(frame::compress(
        &b,
        &FrameOptions::new().block_checksum(true),
    ));
    let expected = [&a[..], &b[..], &a[..], &b[..]].concat();

    let mut copied = Vec::new();
    std::io::copy(&mut FrameDecoder::new(&stream[..]), &mut copied).unwrap();
    assert!(copied == expected);
    for first in [0usize, 1, 1000, 65_536, 250_000] {
        let mut decoder = FrameDecoder::new(&stream[..]);
        let mut out = vec![0u8; first];
        decoder.read_exact(&mut out).unwrap();
        // A Vec with unrelated content in front: read_to_end appends.
        let mut rest = b"prefix".to_vec();
        decoder.read_to_end(&mut rest).unwrap();
        out.extend_from_slice(&rest[6..]);
        assert!(out == expected, "first {first}");
    }
    // Independent blocks with a dictionary keep the dictionary as history.
    let framed = frame::compress_with_dictionary(
        &a,
        &dict,
        &FrameOptions::new()
            .block_size(BlockSize::Max64KB)
            .dict_id(Some(5)),
    );
    let mut out = Vec::new();
    FrameDecoder::with_dictionary(&framed[..], &dict, 5)
        .read_to_end(&mut out)
        .unwrap();
    assert!(out == a);
}

/// `FrameEncoder::new(writer)` and `FrameCompressor::new()` take the default options: their
/// frames are `frame::compress`'s with `FrameOptions::default()`.
#[test]
fn new_encoders_take_the_default_options() {
    let content = generated(GENERATED_KINDS[0], 300_000, 7);
    let want = frame::compress(&content, &FrameOptions::default());
    let mut encoder = FrameEncoder::new(Vec::new());
    encoder.write_all(&content).unwrap();
    assert!(encoder.finish().unwrap() == want, "FrameEncoder::new");
    let mut compressor = FrameCompressor::new();
    let mut out = vec![0u8; frame::compress_bound(content.len(), &FrameOptions::default())];
    let mut written = 0;
    let progress = compressor.compress(&content, &mut out).unwrap();
    assert_eq!(progress.consumed, content.len());
    written += progress.produced;
    written += compressor.finish(&mut out[written..]).unwrap().produced;
    assert!(out[..written] == want[..], "FrameCompressor::new");
}
