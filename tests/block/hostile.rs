//! Hostile and edge-case blocks: each malformed input gets its exact `Error` variant and fields,
//! the size-prefix checks happen before anything is allocated for the claimed size, overlapping
//! matches replicate their pattern, and every 1- and 2-byte block (plus a sample of 3- to 6-byte
//! blocks) decodes without panicking and per the decoder rule against liblz4.

use std::alloc::Layout;

use lz4_simd::block::{self, MAX_INPUT_SIZE};
use lz4_simd::Error;
use testkit::alloc::largest_allocation;
use testkit::decoder_rule::{check_decoder_rule, RuleStats};
use testkit::liblz4;
use testkit::liblz4_model::Lz4Margin;
use testkit::parse::encode_block;
use testkit::Rng;

// The binary's global allocator (main.rs) records the largest allocation made by the current
// thread, to show that size prefixes and length fields are checked before anything is allocated
// for them.

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// Decodes with `decompress_into` at capacity `cap` and with `decompress` at `max_out = cap`,
/// requiring the same result from both.
fn decode(block: &[u8], cap: usize) -> Result<Vec<u8>, Error> {
    let mut dst = vec![0u8; cap];
    let into = block::decompress_into(block, &mut dst).map(|n| dst[..n].to_vec());
    // `decompress` caps its buffer at 255 bytes per input byte, which can change the capacity
    // an overflow error reports; compare it only when that cap does not apply.
    if cap <= block.len() * 255 {
        assert_eq!(
            block::decompress(block, cap),
            into,
            "decompress vs decompress_into"
        );
    }
    into
}

/// A valid first sequence: 4 literals `abcd`, then a 4-byte match at offset 4 (7 input bytes,
/// 8 output bytes). A second token starts at input offset 7.
const FIRST: [u8; 7] = [0x40, b'a', b'b', b'c', b'd', 0x04, 0x00];

fn after_first(rest: &[u8]) -> Vec<u8> {
    let mut block = FIRST.to_vec();
    block.extend_from_slice(rest);
    block
}

// ---------------------------------------------------------------------------------------------
// Exact errors
// ---------------------------------------------------------------------------------------------

#[test]
fn empty_input() {
    assert_eq!(decode(&[], 0), Err(Error::EmptyInput));
    assert_eq!(decode(&[], 100), Err(Error::EmptyInput));
    // A size prefix of 0 followed by nothing: the block itself is empty.
    assert_eq!(
        block::decompress_size_prepended(&[0, 0, 0, 0], 10),
        Err(Error::EmptyInput)
    );
}

#[test]
fn the_00_block_decodes_to_nothing() {
    for cap in [0, 1, 5, 100] {
        assert_eq!(decode(&[0x00], cap), Ok(Vec::new()));
    }
    assert_eq!(
        block::decompress_size_prepended(&[0, 0, 0, 0, 0], 0),
        Ok(Vec::new())
    );
    // The last token's match nibble is ignored: `0F` also decodes to nothing.
    assert_eq!(decode(&[0x0F], 0), Ok(Vec::new()));
    assert_eq!(liblz4::decompress_safe(&[0x00], 0), Some(Vec::new()));
}

#[test]
fn offset_zero() {
    assert_eq!(
        decode(&[0x10, b'a', 0x00, 0x00, 0x10, b'b'], 100),
        Err(Error::OffsetZero { input_pos: 2 })
    );
    assert_eq!(
        decode(&after_first(&[0x00, 0x00, 0x00, 0x50, 1, 2, 3, 4, 5]), 100),
        Err(Error::OffsetZero { input_pos: 8 })
    );
    // liblz4 accepts offset 0 (it writes zeros or stale bytes); we do not.
    let block = encode_block(&[(b"0123456789abcdef".to_vec(), 0, 8)], b"end of block", 0);
    assert!(liblz4::decompress_safe(&block, 36).is_some());
    assert_eq!(decode(&block, 36), Err(Error::OffsetZero { input_pos: 18 }));
}

#[test]
fn offset_before_start() {
    assert_eq!(
        decode(&[0x10, b'a', 0x02, 0x00, 0x10, b'b'], 100),
        Err(Error::OffsetBeforeStart {
            input_pos: 2,
            offset: 2,
            output_pos: 1
        })
    );
    // A match before any output.
    assert_eq!(
        decode(&[0x00, 0x01, 0x00, 0x10, b'b'], 100),
        Err(Error::OffsetBeforeStart {
            input_pos: 1,
            offset: 1,
            output_pos: 0
        })
    );
    // The largest offset after 100 bytes.
    let block = encode_block(&[(vec![7; 100], 0xFFFF, 4)], b"12345", 0);
    assert_eq!(
        decode(&block, 1000),
        Err(Error::OffsetBeforeStart {
            input_pos: 102,
            offset: 65535,
            output_pos: 100
        })
    );
    // One past what a second sequence can reach (8 bytes decoded before it).
    assert_eq!(
        decode(&after_first(&[0x00, 0x09, 0x00, 0x50, 1, 2, 3, 4, 5]), 100),
        Err(Error::OffsetBeforeStart {
            input_pos: 8,
            offset: 9,
            output_pos: 8
        })
    );
    assert_eq!(
        decode(&after_first(&[0x00, 0x08, 0x00, 0x50, 1, 2, 3, 4, 5]), 100).map(|v| v.len()),
        Ok(17)
    );
}

#[test]
fn truncated_after_a_token() {
    // Literals promised, none there.
    assert_eq!(
        decode(&[0x10], 100),
        Err(Error::LiteralsPastInput {
            input_pos: 1,
            literal_len: 1,
            available: 0
        })
    );
    assert_eq!(
        decode(&[0x50, b'a', b'b'], 100),
        Err(Error::LiteralsPastInput {
            input_pos: 1,
            literal_len: 5,
            available: 2
        })
    );
    assert_eq!(
        decode(&after_first(&[0x30, b'x']), 100),
        Err(Error::LiteralsPastInput {
            input_pos: 8,
            literal_len: 3,
            available: 1
        })
    );
}

#[test]
fn non_final_sequence_at_the_very_end() {
    // The block ends right after a match: the last sequence must be literals only.
    assert_eq!(
        decode(&[0x10, b'a', 0x01, 0x00], 100),
        Err(Error::MissingLastLiterals { input_pos: 4 })
    );
    assert_eq!(
        decode(&FIRST, 100),
        Err(Error::MissingLastLiterals { input_pos: 7 })
    );
    // ... also after a match-length extension.
    assert_eq!(
        decode(&[0x1F, b'a', 0x01, 0x00, 0x05], 100),
        Err(Error::MissingLastLiterals { input_pos: 5 })
    );
    // And liblz4 rejects these too.
    assert_eq!(liblz4::decompress_safe(&FIRST, 100), None);
}

#[test]
fn truncated_inside_a_length_extension() {
    // Literal-length extension.
    assert_eq!(
        decode(&[0xF0], 100),
        Err(Error::TruncatedLength { input_pos: 0 })
    );
    assert_eq!(
        decode(&[0xF0, 0xFF, 0xFF], 100),
        Err(Error::TruncatedLength { input_pos: 0 })
    );
    assert_eq!(
        decode(&after_first(&[0xF0, 0xFF]), 1000),
        Err(Error::TruncatedLength { input_pos: 7 })
    );
    // Match-length extension (the token's position is reported).
    assert_eq!(
        decode(&[0x1F, b'a', 0x01, 0x00], 100),
        Err(Error::TruncatedLength { input_pos: 0 })
    );
    assert_eq!(
        decode(&[0x1F, b'a', 0x01, 0x00, 0xFF, 0xFF], 1000),
        Err(Error::TruncatedLength { input_pos: 0 })
    );
    assert_eq!(
        decode(&after_first(&[0x0F, 0x01, 0x00, 0xFF]), 1000),
        Err(Error::TruncatedLength { input_pos: 7 })
    );
}

#[test]
fn truncated_inside_an_offset() {
    assert_eq!(
        decode(&[0x10, b'a', 0x01], 100),
        Err(Error::TruncatedOffset { input_pos: 2 })
    );
    assert_eq!(
        decode(&after_first(&[0x10, b'x', 0x01]), 100),
        Err(Error::TruncatedOffset { input_pos: 9 })
    );
}

#[test]
fn ten_thousand_ff_length_bytes() {
    let mut block = vec![0xF0];
    block.extend(std::iter::repeat_n(0xFF, 10_000));
    // The extension never ends.
    assert_eq!(
        decode(&block, 100),
        Err(Error::TruncatedLength { input_pos: 0 })
    );
    // Ended by a 0: 15 + 255 * 10,000 literals promised, none present.
    block.push(0x00);
    let expected = Error::LiteralsPastInput {
        input_pos: 10_002,
        literal_len: 2_550_015,
        available: 0,
    };
    assert_eq!(decode(&block, 100), Err(expected.clone()));
    let (result, largest) = largest_allocation(|| block::decompress(&block, usize::MAX));
    assert_eq!(result, Err(expected));
    assert!(
        largest <= block.len() * 255,
        "decompress allocated {largest} bytes for a {}-byte block",
        block.len()
    );
    // The same run in a match length is a real 2,550,019-byte match.
    let mut block = vec![0x1F, b'z', 0x01, 0x00];
    block.extend(std::iter::repeat_n(0xFF, 10_000));
    block.extend([0x00, 0x00]);
    assert_eq!(
        decode(&block, 10),
        Err(Error::MatchOverflowsOutput {
            input_pos: 0,
            output_pos: 1,
            match_len: 2_550_019,
            capacity: 10
        })
    );
    let out = block::decompress(&block, usize::MAX).unwrap();
    assert!(out.len() == 2_550_020 && out.iter().all(|&b| b == b'z'));
}

#[test]
fn output_overflow() {
    // abcd, match offset 4 length 8, then 5 literals: 17 bytes.
    let block = [
        0x44, b'a', b'b', b'c', b'd', 0x04, 0x00, 0x50, b'e', b'f', b'g', b'h', b'i',
    ];
    assert_eq!(decode(&block, 17).map(|v| v.len()), Ok(17));
    assert_eq!(
        decode(&block, 6),
        Err(Error::MatchOverflowsOutput {
            input_pos: 0,
            output_pos: 4,
            match_len: 8,
            capacity: 6
        })
    );
    assert_eq!(
        decode(&block, 11),
        Err(Error::MatchOverflowsOutput {
            input_pos: 0,
            output_pos: 4,
            match_len: 8,
            capacity: 11
        })
    );
    assert_eq!(
        decode(&block, 16),
        Err(Error::LiteralsOverflowOutput {
            input_pos: 7,
            output_pos: 12,
            literal_len: 5,
            capacity: 16
        })
    );
    assert_eq!(
        decode(&block, 3),
        Err(Error::LiteralsOverflowOutput {
            input_pos: 0,
            output_pos: 0,
            literal_len: 4,
            capacity: 3
        })
    );
    assert_eq!(
        decode(&[0x50, b'a', b'b', b'c', b'd', b'e'], 0),
        Err(Error::LiteralsOverflowOutput {
            input_pos: 0,
            output_pos: 0,
            literal_len: 5,
            capacity: 0
        })
    );
    // A match (and a final run) ending exactly at the capacity fits; one byte less does not.
    let block = [0x10, b'a', 0x01, 0x00, 0x00];
    assert_eq!(decode(&block, 5), Ok(b"aaaaa".to_vec()));
    assert_eq!(
        decode(&block, 4),
        Err(Error::MatchOverflowsOutput {
            input_pos: 0,
            output_pos: 1,
            match_len: 4,
            capacity: 4
        })
    );
    assert_eq!(
        decode(&[0x50, b'a', b'b', b'c', b'd', b'e'], 5),
        Ok(b"abcde".to_vec())
    );
    // A long literal run into a small buffer.
    let mut block = vec![0xF0, 0xFF, 0xFF, 0x00];
    block.extend(vec![b'q'; 15 + 510]);
    assert_eq!(
        decode(&block, 100),
        Err(Error::LiteralsOverflowOutput {
            input_pos: 0,
            output_pos: 0,
            literal_len: 525,
            capacity: 100
        })
    );
    assert_eq!(decode(&block, 525).map(|v| v.len()), Ok(525));
}

#[test]
fn size_prefix_too_large_is_refused_before_allocating() {
    let (result, largest) = largest_allocation(|| {
        block::decompress_size_prepended(&[0xFF, 0xFF, 0xFF, 0xFF, 0x00], 1000)
    });
    assert_eq!(
        result,
        Err(Error::SizePrefixTooLarge {
            declared: 0xFFFF_FFFF,
            max_out: 1000
        })
    );
    assert!(largest < 1000, "allocated {largest} bytes");
    let (result, largest) = largest_allocation(|| {
        block::decompress_size_prepended(&[0x01, 0x00, 0x00, 0x00, 0x10, b'a'], 0)
    });
    assert_eq!(
        result,
        Err(Error::SizePrefixTooLarge {
            declared: 1,
            max_out: 0
        })
    );
    assert!(largest < 1000, "allocated {largest} bytes");
}

#[test]
fn size_prefix_impossible_is_refused_before_allocating() {
    // 4 GB claimed by a 1-byte block, with no cap.
    let (result, largest) = largest_allocation(|| {
        block::decompress_size_prepended(&[0xFF, 0xFF, 0xFF, 0xFF, 0x00], usize::MAX)
    });
    assert_eq!(
        result,
        Err(Error::SizePrefixImpossible {
            declared: 0xFFFF_FFFF,
            compressed_len: 1
        })
    );
    assert!(largest < 4096, "allocated {largest} bytes");
    // 255 bytes per compressed byte is the limit: 5 bytes can produce at most 1275.
    let body = [0x10, b'a', 0x01, 0x00, 0x00];
    let mut src = 1276u32.to_le_bytes().to_vec();
    src.extend_from_slice(&body);
    assert_eq!(
        block::decompress_size_prepended(&src, 1_000_000),
        Err(Error::SizePrefixImpossible {
            declared: 1276,
            compressed_len: 5
        })
    );
    // 1275 passes the check (and then fails to decode to that size).
    src[..4].copy_from_slice(&1275u32.to_le_bytes());
    assert_eq!(
        block::decompress_size_prepended(&src, 1_000_000),
        Err(Error::SizeMismatch {
            declared: 1275,
            actual: 5
        })
    );
}

#[test]
fn size_prefix_mismatch() {
    let mut src = block::compress_prepend_size(b"hello world").unwrap();
    assert_eq!(
        block::decompress_size_prepended(&src, 100).unwrap(),
        b"hello world"
    );
    // Declared larger than the block decodes to.
    src[..4].copy_from_slice(&20u32.to_le_bytes());
    assert_eq!(
        block::decompress_size_prepended(&src, 100),
        Err(Error::SizeMismatch {
            declared: 20,
            actual: 11
        })
    );
    // Declared smaller: the block overflows the declared size.
    src[..4].copy_from_slice(&5u32.to_le_bytes());
    assert_eq!(
        block::decompress_size_prepended(&src, 100),
        Err(Error::LiteralsOverflowOutput {
            input_pos: 0,
            output_pos: 0,
            literal_len: 11,
            capacity: 5
        })
    );
}

#[test]
fn truncated_size_prefix() {
    for len in 0..4 {
        let src = vec![0u8; len];
        assert_eq!(
            block::decompress_size_prepended(&src, 100),
            Err(Error::TruncatedSizePrefix { len })
        );
    }
}

#[test]
fn offset_one_run_replication() {
    // 'x', then a match at offset 1 of 15 + 81 + 4 = 100 bytes, then 5 literals.
    let block = [
        0x1F, b'x', 0x01, 0x00, 81, 0x50, b'y', b'y', b'y', b'y', b'y',
    ];
    let out = decode(&block, 106).unwrap();
    let mut expected = vec![b'x'; 101];
    expected.extend_from_slice(b"yyyyy");
    assert_eq!(out, expected);
    assert_eq!(liblz4::decompress_safe(&block, 106), Some(expected));
}

#[test]
fn overlapping_matches_replicate_their_period() {
    let mut rng = Rng::new(5);
    for offset in 2..=20usize {
        for match_len in [(offset + 1).max(4), 2 * offset + 3, 31, 64, 100, 1000, 5000] {
            for lead in [0usize, 1, 7, 15, 33] {
                let literals = rng.bytes(lead + offset);
                let block = encode_block(&[(literals.clone(), offset, match_len)], b"!tail", 0);
                // The expected output, byte by byte.
                let mut expected = literals.clone();
                for _ in 0..match_len {
                    expected.push(expected[expected.len() - offset]);
                }
                expected.extend_from_slice(b"!tail");
                for slack in [0usize, 1, 64] {
                    let out = decode(&block, expected.len() + slack).unwrap();
                    assert!(
                        out == expected,
                        "offset {offset}, match length {match_len}, {lead} leading literals"
                    );
                }
                if match_len >= 7 {
                    // With 5 trailing literals the match starts >= 12 bytes before the end.
                    assert_eq!(
                        liblz4::decompress_safe(&block, expected.len()),
                        Some(expected)
                    );
                }
            }
        }
    }
}

#[test]
fn display_names_the_position() {
    let cases: Vec<(Error, Vec<&str>)> = vec![
        (Error::EmptyInput, vec!["empty"]),
        (Error::TruncatedLength { input_pos: 1201 }, vec!["1201"]),
        (Error::TruncatedOffset { input_pos: 1202 }, vec!["1202"]),
        (Error::MissingLastLiterals { input_pos: 1203 }, vec!["1203"]),
        (
            Error::LiteralsPastInput {
                input_pos: 1204,
                literal_len: 2204,
                available: 3204,
            },
            vec!["1204", "2204", "3204"],
        ),
        (Error::OffsetZero { input_pos: 1205 }, vec!["1205"]),
        (
            Error::OffsetBeforeStart {
                input_pos: 1206,
                offset: 2206,
                output_pos: 3206,
            },
            vec!["1206", "2206", "3206"],
        ),
        (
            Error::LiteralsOverflowOutput {
                input_pos: 1207,
                output_pos: 2207,
                literal_len: 3207,
                capacity: 4207,
            },
            vec!["1207", "2207", "3207", "4207"],
        ),
        (
            Error::MatchOverflowsOutput {
                input_pos: 1208,
                output_pos: 2208,
                match_len: 3208,
                capacity: 4208,
            },
            vec!["1208", "2208", "3208", "4208"],
        ),
        (Error::LengthOverflow { input_pos: 1209 }, vec!["1209"]),
        (
            Error::OutputTooSmall {
                capacity: 1210,
                needed: 2210,
            },
            vec!["1210", "2210"],
        ),
        (
            Error::InputTooLarge {
                len: 1211,
                max: 2211,
            },
            vec!["1211", "2211"],
        ),
        (Error::TruncatedSizePrefix { len: 1212 }, vec!["1212"]),
        (
            Error::SizePrefixTooLarge {
                declared: 1213,
                max_out: 2213,
            },
            vec!["1213", "2213"],
        ),
        (
            Error::SizePrefixImpossible {
                declared: 1214,
                compressed_len: 2214,
            },
            vec!["1214", "2214"],
        ),
        (
            Error::SizeMismatch {
                declared: 1215,
                actual: 2215,
            },
            vec!["1215", "2215"],
        ),
    ];
    for (error, needles) in cases {
        let text = error.to_string();
        for needle in needles {
            assert!(
                text.contains(needle),
                "Display of {error:?} does not mention {needle}: {text}"
            );
        }
        // And it is a std error.
        let _: &dyn std::error::Error = &error;
    }
}

/// Every block compressor on an input above MAX_INPUT_SIZE. The input is a zeroed allocation the
/// kernel maps lazily, so this costs no memory or time as long as the size check comes first.
#[test]
fn input_too_large() {
    let len = MAX_INPUT_SIZE + 1;
    let Ok(layout) = Layout::array::<u8>(len) else {
        return;
    };
    // SAFETY: the layout has a non-zero size.
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
    if ptr.is_null() {
        eprintln!("NOTICE: could not reserve {len} bytes of address space; input_too_large checks nothing");
        return;
    }
    // SAFETY: `ptr` is a live, zero-initialised allocation of `len` bytes, freed below.
    let src = unsafe { std::slice::from_raw_parts(ptr, len) };
    let mut dst = [0u8; 64];
    let expected = Err(Error::InputTooLarge {
        len,
        max: MAX_INPUT_SIZE,
    });
    assert_eq!(block::compress_into(src, &mut dst, 1), expected);
    assert_eq!(
        block::Compressor::new().compress_into(src, &mut dst, 1),
        expected
    );
    // The `Vec` and dest-size forms name the size too (they gave an empty `Vec` or `(0, 0)`).
    let expected = Err(Error::InputTooLarge {
        len,
        max: MAX_INPUT_SIZE,
    });
    assert_eq!(block::compress(src), expected);
    assert_eq!(block::compress_fast(src, 8), expected);
    assert_eq!(block::compress_prepend_size(src), expected);
    assert_eq!(
        block::compress_with_dictionary(src, b"dictionary", 1),
        expected
    );
    assert_eq!(block::Compressor::new().compress(src, 1), expected);
    assert_eq!(block::compress_hc(src, 9), expected);
    assert_eq!(block::HcCompressor::new().compress(src, 9), expected);
    let expected = Err(Error::InputTooLarge {
        len,
        max: MAX_INPUT_SIZE,
    });
    assert_eq!(block::compress_dest_size(src, &mut dst), expected);
    assert_eq!(block::compress_hc_dest_size(src, &mut dst, 9), expected);
    // The bound stays the formula (liblz4 returns 0 here): no size check built on it passes.
    assert_eq!(block::compress_bound(len), len + len / 255 + 16);
    // SAFETY: allocated above with this layout.
    unsafe { std::alloc::dealloc(ptr, layout) };
}

// ---------------------------------------------------------------------------------------------
// Small domains
// ---------------------------------------------------------------------------------------------

/// Never panics; the size-prefixed and `Vec` decoders agree with `decompress_into`.
fn other_entry_points(block: &[u8]) {
    for max_out in [0usize, 1, 16, 300, usize::MAX] {
        if let Ok(out) = block::decompress(block, max_out) {
            assert!(out.len() <= max_out);
        }
        if let Ok(out) = block::decompress_size_prepended(block, max_out) {
            assert!(out.len() <= max_out);
            assert_eq!(
                out.len() as u64,
                u64::from(u32::from_le_bytes(block[..4].try_into().unwrap()))
            );
        }
    }
}

#[test]
fn every_one_and_two_byte_block() {
    let mut stats = RuleStats::default();
    for a in 0..=255u8 {
        check_decoder_rule(&[a], &[2, 3, 4], &mut stats);
        other_entry_points(&[a]);
        for b in 0..=255u8 {
            check_decoder_rule(&[a, b], &[], &mut stats);
            other_entry_points(&[a, b]);
        }
    }
    stats.print("all 1- and 2-byte blocks");
    // Literal-only blocks of 0 and 1 bytes are accepted by both, `0F`-like tokens only by us
    // at capacity 0, everything else is rejected by both.
    assert!(stats.both_accept > 0 && stats.both_reject > 0);
    assert!(stats.rejects_for(Lz4Margin::ZeroCapacity) > 0);
    assert_eq!(stats.offset_zero_liblz4_accepts, 0);
}

#[test]
fn sampled_three_to_six_byte_blocks() {
    let count = if cfg!(debug_assertions) {
        300_000
    } else {
        3_000_000
    };
    let mut rng = Rng::new(36);
    let mut stats = RuleStats::default();
    for _ in 0..count {
        let len = 3 + rng.below(4) as usize;
        let block = rng.bytes(len);
        check_decoder_rule(&block, &[], &mut stats);
        other_entry_points(&block);
    }
    stats.print("sampled 3- to 6-byte blocks");
    assert!(stats.both_accept > 0 && stats.both_reject > 0);
}
