//! Differential tests against liblz4 1.10 (through `lz4-sys`).
//!
//! - Compression: `block::compress_fast` must produce liblz4's `LZ4_compress_fast` bytes exactly,
//!   at every acceleration (with the same clamping), on Silesia files and chunks and on generated
//!   data of every size around the interesting boundaries; `compress_into` and a reused
//!   `Compressor` must give the same bytes; a too-small `dst` gives the same bytes or
//!   `OutputTooSmall`, never a write past `dst`.
//! - Decompression: each side decodes the other's blocks (fast and HC); and the decoder rule
//!   (see `testkit::decoder_rule::check_decoder_rule`): whenever liblz4 accepts a block that has no offset 0
//!   we accept it with identical output, and a block we accept that liblz4 rejects violates the
//!   end-of-block margins, which a model of liblz4's two decode loops pins down exactly.
//!
//! Debug builds sample the heavy loops (corpus chunks, block counts); release builds run them
//! in full.

use lz4_simd::block;
use lz4_simd::Error;
use testkit::decoder_rule::{check_decoder_rule, RuleStats, SENTINEL, SENTINEL_TAIL};
use testkit::liblz4_model::Lz4Margin;
use testkit::parse::encode_block;
use testkit::samples::{generated, GENERATED_KINDS};
use testkit::{corpus, liblz4, Rng};

const ACCELERATIONS: [u32; 5] = [1, 2, 8, 64, 65537];
const DEBUG: bool = cfg!(debug_assertions);

/// Asserts our bytes equal liblz4's at every acceleration of `ACCELERATIONS`, plus the clamping
/// of out-of-range accelerations: ours(0) == liblz4(1), ours(u32::MAX) == liblz4(65537),
/// ours(1_000_000) == liblz4(1_000_000) (which liblz4 clamps to 65537).
fn assert_compression_matches(src: &[u8], what: &str) {
    let mut at_one = Vec::new();
    let mut at_max = Vec::new();
    for acceleration in ACCELERATIONS {
        let ours = block::compress_fast(src, acceleration).unwrap();
        let theirs = liblz4::compress_fast(src, acceleration as i32);
        assert!(
            ours == theirs,
            "{what} ({} bytes), acceleration {acceleration}: ours {} bytes, liblz4 {} bytes, first difference at {:?}",
            src.len(),
            ours.len(),
            theirs.len(),
            ours.iter().zip(&theirs).position(|(a, b)| a != b)
        );
        if acceleration == 1 {
            at_one = theirs;
        } else if acceleration == 65537 {
            at_max = theirs;
        }
    }
    assert!(
        block::compress_fast(src, 0).unwrap() == at_one,
        "{what}: acceleration 0 must act as 1"
    );
    assert!(
        block::compress(src).unwrap() == at_one,
        "{what}: compress() must be acceleration 1"
    );
    assert!(
        block::compress_fast(src, u32::MAX).unwrap() == at_max,
        "{what}: u32::MAX must act as 65537"
    );
    let liblz4_million = liblz4::compress_fast(src, 1_000_000);
    assert!(
        liblz4_million == at_max,
        "{what}: liblz4 clamps 1_000_000 to 65537"
    );
    assert!(
        block::compress_fast(src, 1_000_000).unwrap() == liblz4_million,
        "{what}: acceleration 1_000_000"
    );
}

/// Round trip both ways at acceleration 1 with exact-size buffers.
fn assert_round_trips(src: &[u8], what: &str) {
    let ours = block::compress(src).unwrap();
    let back = liblz4::decompress_safe(&ours, src.len());
    assert!(
        back.as_deref() == Some(src),
        "{what}: liblz4 does not decode our block to the input"
    );
    let mut dst = vec![0u8; src.len()];
    let n = block::decompress_into(&ours, &mut dst).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        n == src.len() && dst == src,
        "{what}: our decoder does not round trip"
    );
}

#[test]
fn compress_matches_liblz4_every_size_0_to_300() {
    for kind in GENERATED_KINDS {
        for len in 0..=300 {
            let src = generated(kind, len, len as u64);
            assert_compression_matches(&src, kind);
            assert_round_trips(&src, kind);
        }
    }
    // All-zero and all-same inputs: the longest matches.
    for len in 0..=300 {
        assert_compression_matches(&vec![0u8; len], "zeros");
        assert_compression_matches(&vec![b'x'; len], "x-run");
    }
}

#[test]
fn compress_matches_liblz4_around_table_switch() {
    // 65,546 bytes is the last size with the u16 table, 65,547 the first with the u32 table.
    for kind in GENERATED_KINDS {
        let base = generated(kind, 65_550, 7);
        for len in 65_530..=65_550 {
            assert_compression_matches(&base[..len], kind);
        }
        assert_round_trips(&base, kind);
    }
}

#[test]
fn compress_matches_liblz4_4mib() {
    for kind in GENERATED_KINDS {
        let src = generated(kind, 4 << 20, 4);
        assert_compression_matches(&src, kind);
        assert_round_trips(&src, kind);
    }
}

#[test]
fn compress_matches_liblz4_silesia_chunks() {
    let corpus = corpus::all();
    if corpus.is_empty() {
        eprintln!(
            "NOTICE: Silesia corpus absent, compress_matches_liblz4_silesia_chunks checks nothing"
        );
        return;
    }
    // Debug builds take every 4th 64 KiB chunk; release builds take them all.
    let stride = if DEBUG { 4 } else { 1 };
    let mut chunks = 0;
    for (name, data) in corpus {
        for (i, chunk) in data.chunks(65536).enumerate().step_by(stride) {
            assert_compression_matches(chunk, &format!("{name} chunk {i}"));
            assert_round_trips(chunk, &format!("{name} chunk {i}"));
            chunks += 1;
        }
    }
    eprintln!("compared {chunks} Silesia 64 KiB chunks (stride {stride})");
}

#[test]
fn compress_matches_liblz4_silesia_whole_files() {
    let corpus = corpus::all();
    if corpus.is_empty() {
        eprintln!("NOTICE: Silesia corpus absent, compress_matches_liblz4_silesia_whole_files checks nothing");
        return;
    }
    for (name, data) in corpus {
        assert_compression_matches(data, name);
        assert_round_trips(data, name);
    }
}

#[test]
fn compress_into_exact_bound_and_reused_compressor() {
    let mut inputs: Vec<Vec<u8>> = Vec::new();
    let mut rng = Rng::new(11);
    for i in 0..40u64 {
        let kind = GENERATED_KINDS[i as usize % 4];
        // Alternate small (u16 table) and large (u32 table) inputs.
        let len = if i % 2 == 0 {
            rng.below(3000) as usize
        } else {
            65_547 + rng.below(200_000) as usize
        };
        inputs.push(generated(kind, len, i));
    }
    inputs.push(Vec::new());
    inputs.push(vec![0; 65_546]);
    inputs.push(vec![0; 65_547]);
    let mut compressor = block::Compressor::new();
    for (i, src) in inputs.iter().enumerate() {
        for acceleration in [1u32, 3, 65537] {
            let expected = liblz4::compress_fast(src, acceleration as i32);
            let bound = block::compress_bound(src.len());
            let mut dst = vec![0u8; bound];
            let n = block::compress_into(src, &mut dst, acceleration).unwrap();
            assert!(
                dst[..n] == expected[..],
                "compress_into with a bound-sized dst, input {i}"
            );
            let mut dst2 = vec![0u8; bound];
            let n2 = compressor
                .compress_into(src, &mut dst2, acceleration)
                .unwrap();
            assert!(
                dst2[..n2] == expected[..],
                "reused Compressor::compress_into, input {i}"
            );
            assert!(
                compressor.compress(src, acceleration).unwrap() == expected,
                "reused Compressor::compress, input {i}"
            );
        }
    }
}

/// Inputs of varied kinds and sizes for the small-`dst` test.
fn small_dst_inputs() -> Vec<Vec<u8>> {
    let mut inputs = vec![
        Vec::new(),
        vec![0u8; 12],
        vec![0u8; 13],
        vec![0u8; 300],
        b"abcabcabcabcabcabcabcabc-end!".to_vec(),
    ];
    for (i, kind) in GENERATED_KINDS.iter().enumerate() {
        for len in [20usize, 100, 270, 600, 5000] {
            inputs.push(generated(kind, len, (i * 1000 + len) as u64));
        }
    }
    // A literal run needing extension bytes, and a u32-table input.
    inputs.push(generated("random", 1000, 99));
    inputs.push(generated("log-lines", 70_000, 5));
    inputs
}

#[test]
fn compress_into_small_dst_gives_same_bytes_or_output_too_small() {
    const GUARD: usize = 32;
    for src in small_dst_inputs() {
        for acceleration in [1u32, 8] {
            let expected = liblz4::compress_fast(&src, acceleration as i32);
            let bound = block::compress_bound(src.len());
            // Every dst size for small inputs; for large ones every size near the compressed
            // length and a sample elsewhere.
            let sizes: Vec<usize> = if bound <= 2000 {
                (0..=bound).collect()
            } else {
                let near = expected.len().saturating_sub(300)..=(expected.len() + 300).min(bound);
                (0..=bound).step_by(97).chain(near).chain([bound]).collect()
            };
            let mut smallest_ok = usize::MAX;
            for size in sizes {
                let mut backing = vec![SENTINEL; size + GUARD];
                match block::compress_into(&src, &mut backing[..size], acceleration) {
                    Ok(n) => {
                        assert!(
                            backing[..n] == expected[..],
                            "dst {size}: Ok({n}) but different bytes (input {} bytes)",
                            src.len()
                        );
                        smallest_ok = smallest_ok.min(size);
                    }
                    Err(Error::OutputTooSmall { capacity, needed }) => {
                        assert_eq!(capacity, size);
                        assert!(
                            needed > size && needed <= expected.len(),
                            "needed {needed}, dst {size}, compressed {}",
                            expected.len()
                        );
                    }
                    Err(e) => panic!("dst {size}: unexpected error {e:?}"),
                }
                assert!(
                    backing[size..].iter().all(|&b| b == SENTINEL),
                    "compress_into wrote past its dst ({size} bytes)"
                );
            }
            assert_eq!(
                smallest_ok,
                expected.len(),
                "the smallest dst that succeeds is the compressed length"
            );
        }
    }
}

#[test]
fn our_decoder_decodes_liblz4_fast_and_hc() {
    let mut inputs: Vec<(String, Vec<u8>)> = Vec::new();
    for kind in GENERATED_KINDS {
        for len in [0usize, 1, 12, 13, 100, 4097, 65_546, 65_547, 300_000] {
            inputs.push((
                format!("{kind} {len}"),
                generated(kind, len, len as u64 + 3),
            ));
        }
    }
    for (name, data) in corpus::all() {
        let take = if DEBUG { 6 } else { 20 };
        for (i, chunk) in data.chunks(65536).step_by(7).take(take).enumerate() {
            inputs.push((format!("{name} chunk {i}"), chunk.to_vec()));
        }
        if !DEBUG {
            inputs.push((
                format!("{name} 1 MiB"),
                data[..data.len().min(1 << 20)].to_vec(),
            ));
        }
    }
    for (what, src) in &inputs {
        let mut blocks = vec![
            ("fast 1", liblz4::compress_fast(src, 1)),
            ("fast 17", liblz4::compress_fast(src, 17)),
        ];
        if !src.is_empty() {
            for (how, level) in [("hc 3", 3), ("hc 9", 9), ("hc 12", 12)] {
                blocks.push((how, liblz4::compress_hc(src, level)));
            }
        }
        for (how, compressed) in blocks {
            let mut dst = vec![0u8; src.len()];
            let n = block::decompress_into(&compressed, &mut dst)
                .unwrap_or_else(|e| panic!("{what}, liblz4 {how}: {e}"));
            assert!(
                n == src.len() && dst == *src,
                "{what}, liblz4 {how}: wrong output"
            );
            assert_eq!(block::decompress(&compressed, src.len()).unwrap(), *src);
        }
        // And liblz4 decodes ours.
        let ours = block::compress_fast(src, 1).unwrap();
        assert!(
            liblz4::decompress_safe(&ours, src.len()).as_deref() == Some(&src[..]),
            "{what}: liblz4 rejects ours"
        );
    }
}

#[test]
fn decoding_into_oversized_buffers() {
    // `decompress_into` documents that nothing outside `dst` is written and that bytes of `dst`
    // past the returned length may be overwritten; the decoded bytes must not depend on what
    // `dst` held before. Bytes of a larger backing buffer past the `dst` slice stay untouched.
    let mut max_scribble = 0usize;
    for kind in GENERATED_KINDS {
        for len in [0usize, 5, 13, 100, 1000, 70_000] {
            let src = generated(kind, len, 21);
            let compressed = block::compress(&src).unwrap();
            for slack in [0usize, 1, 7, 16, 63, 64, 1000] {
                let cap = src.len() + slack;
                for fill in [SENTINEL, 0x00, 0xFF] {
                    let mut backing = vec![fill; cap + SENTINEL_TAIL];
                    let n = block::decompress_into(&compressed, &mut backing[..cap]).unwrap();
                    assert_eq!(n, src.len());
                    assert!(
                        backing[..n] == src[..],
                        "{kind} {len}: wrong output with slack {slack}"
                    );
                    assert!(
                        backing[cap..].iter().all(|&b| b == fill),
                        "{kind} {len}: bytes past dst were written (slack {slack})"
                    );
                    if let Some(last) = backing[n..cap].iter().rposition(|&b| b != fill) {
                        max_scribble = max_scribble.max(last + 1);
                    }
                }
            }
        }
    }
    eprintln!(
        "largest overwrite past the decoded length (allowed by the API): {max_scribble} bytes"
    );
}

// ---------------------------------------------------------------------------------------------
// The decoder differential rule
// ---------------------------------------------------------------------------------------------

// What liblz4 1.10's `LZ4_decompress_safe` checks beyond our rules, established empirically:
// `testkit::liblz4_model` follows its two loops and must predict liblz4's verdict on *every*
// block we accept, at every capacity tried (asserted in `check_decoder_rule`; it has never
// disagreed). With `S` the input size and `C` the output capacity:
//
// - `C == 0`: only the block `00` is accepted (not e.g. `0F`, which decodes to nothing too and
//   which liblz4 accepts once `C >= 1`). [`ZeroCapacity`]
// - While at least 64 bytes of capacity remain, liblz4's fast loop decodes a sequence's literals
//   without margin checks if they are short (< 15) with at least 17 input bytes after the token,
//   or long and end at least 32 bytes before both `C` and `S`; and its match without checks if
//   it ends more than 64 bytes before `C`. Anything else drops, for good, to the checked loop.
// - The checked loop decodes a short sequence (< 15 literals, more than 16 input bytes after the
//   token, literals starting at or before `C - 32`) without checks too, and its match if short
//   (< 19 bytes) with offset >= 8.
// - Otherwise, a non-final sequence whose literals end after `C - 12` (MFLIMIT)
//   [`LiteralsInOutputMargin`] or after `S - 8` (offset + token + LASTLITERALS)
//   [`LiteralsInInputMargin`] is taken for the last one and fails; a match ending after
//   `C - 5` (LASTLITERALS) fails [`MatchInLastLiterals`].
// - In either loop, a match-length extension must end at least 4 bytes before `S`
//   [`MatchLengthInInputMargin`] (a literal-length extension at least 15, which any block whose
//   literals fit satisfies [`LiteralLengthInInputMargin`, never seen]).
//
// Every one of these is an end-of-block margin measured against the buffers: a block satisfying
// the format's margins measured against its decoded size `D` (last literal run >= 5, last match
// starting >= 12 bytes before `D`) passes all of them for any `C >= D`, `C > 0`; the rule check
// asserts that every block we accept and liblz4 rejects violates them (or is the `C == 0` case).
// Offset 0 is the one other difference: liblz4 accepts it, we return `OffsetZero`.

/// Bytes likely to be tokens and small lengths, to reach well-formed blocks more often than
/// uniform bytes do.
const BIASED: [u8; 20] = [
    0x00, 0x01, 0x02, 0x03, 0x04, 0x08, 0x0F, 0x10, 0x11, 0x1F, 0x20, 0x30, 0x40, 0x50, 0x80, 0xF0,
    0xFF, 0xFE, 0x12, 0x44,
];

fn random_block(rng: &mut Rng) -> Vec<u8> {
    let len = 1 + rng.below(48) as usize;
    let biased = rng.below(2) == 0;
    (0..len)
        .map(|_| {
            if biased && rng.below(3) != 0 {
                BIASED[rng.below(BIASED.len() as u64) as usize]
            } else {
                rng.next_u64() as u8
            }
        })
        .collect()
}

fn mutated_block(rng: &mut Rng) -> Vec<u8> {
    let kind = GENERATED_KINDS[rng.below(4) as usize];
    let max_len = if rng.below(4) == 0 { 3000 } else { 200 };
    let len = 13 + rng.below(max_len) as usize;
    let src = generated(kind, len, rng.next_u64());
    let mut compressed = match rng.below(4) {
        0 => liblz4::compress_hc(&src, 9),
        1 => block::compress_fast(&src, 2).unwrap(),
        _ => block::compress(&src).unwrap(),
    };
    for _ in 0..1 + rng.below(3) {
        let len = compressed.len();
        match rng.below(6) {
            0 if len > 0 => {
                let at = rng.below(len as u64) as usize;
                compressed[at] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let at = rng.below(len as u64) as usize;
                compressed[at] = if rng.below(2) == 0 {
                    BIASED[rng.below(20) as usize]
                } else {
                    rng.next_u64() as u8
                };
            }
            2 => compressed.truncate(rng.below(len as u64 + 1) as usize),
            3 => {
                let at = rng.below(len as u64 + 1) as usize;
                for _ in 0..1 + rng.below(3) {
                    compressed.insert(at, rng.next_u64() as u8);
                }
            }
            4 if len > 0 => {
                let at = rng.below(len as u64) as usize;
                let end = (at + 1 + rng.below(3) as usize).min(len);
                compressed.drain(at..end);
            }
            _ => {
                // Cut a few bytes off the end: sequences ending near the block's end.
                compressed.truncate(len.saturating_sub(1 + rng.below(6) as usize));
            }
        }
    }
    if compressed.is_empty() {
        compressed.push(0x00);
    }
    compressed
}

/// A literal length: mostly short, sometimes needing an extension, rarely long.
fn random_literal_len(rng: &mut Rng) -> usize {
    match rng.below(10) {
        0..=4 => rng.below(5) as usize,
        5..=7 => 5 + rng.below(10) as usize,
        8 => 15 + rng.below(20) as usize,
        _ => 250 + rng.below(300) as usize,
    }
}

fn random_match_len(rng: &mut Rng) -> usize {
    match rng.below(10) {
        0..=6 => 4 + rng.below(15) as usize,
        7..=8 => 19 + rng.below(30) as usize,
        _ => 250 + rng.below(400) as usize,
    }
}

/// Sequences with random literal and match lengths and offsets; about half respect the
/// end-of-block margins, the rest end with a short literal run or a late match. A few use
/// offset 0 or an offset before the start.
fn hand_built_block(rng: &mut Rng) -> Vec<u8> {
    let respect_margins = rng.below(2) == 0;
    let count = rng.below(6) as usize;
    let mut seqs = Vec::new();
    let mut out_len = 0usize;
    let mut last_match_len = 0;
    for _ in 0..count {
        let literal_len = random_literal_len(rng);
        let mut literals = rng.bytes(literal_len);
        if out_len + literals.len() == 0 && rng.below(4) != 0 {
            literals.push(b'L');
        }
        let have = out_len + literals.len();
        let offset = match rng.below(40) {
            0 => 0,
            1 => (have + 1 + rng.below(5) as usize).min(65535),
            _ if have == 0 => 1,
            2..=20 => 1 + rng.below(have.min(20) as u64) as usize,
            _ => 1 + rng.below(have.min(65535) as u64) as usize,
        };
        let match_len = random_match_len(rng);
        out_len = have + match_len;
        last_match_len = match_len;
        seqs.push((literals, offset, match_len));
    }
    let final_len = if respect_margins && !seqs.is_empty() {
        5usize.max(12usize.saturating_sub(last_match_len)) + rng.below(12) as usize
    } else if rng.below(8) == 0 {
        random_literal_len(rng)
    } else {
        rng.below(8) as usize
    };
    let final_literals = rng.bytes(final_len);
    let nibble = if rng.below(4) == 0 {
        rng.below(16) as u8
    } else {
        0
    };
    encode_block(&seqs, &final_literals, nibble)
}

fn run_rule(label: &str, count: usize, seed: u64, generate: fn(&mut Rng) -> Vec<u8>) -> RuleStats {
    let mut rng = Rng::new(seed);
    let mut stats = RuleStats::default();
    for _ in 0..count {
        let block = generate(&mut rng);
        check_decoder_rule(&block, &[], &mut stats);
    }
    stats.print(label);
    stats
}

#[test]
fn decoder_rule_random_bytes() {
    let stats = run_rule(
        "random bytes",
        if DEBUG { 100_000 } else { 1_000_000 },
        1,
        random_block,
    );
    // Short random blocks rarely carry a match that decodes: they reach the zero-capacity case
    // and plain rejections; the margin categories come from the other two generators.
    assert!(stats.both_accept > 0 && stats.both_reject > 0);
    assert!(stats.offset_zero_both_reject > 0);
    assert!(stats.rejects_for(Lz4Margin::ZeroCapacity) > 0);
    assert_eq!(stats.rejects_for(Lz4Margin::LiteralLengthInInputMargin), 0);
}

#[test]
fn decoder_rule_mutated_blocks() {
    let stats = run_rule(
        "mutated compressor output",
        if DEBUG { 30_000 } else { 300_000 },
        2,
        mutated_block,
    );
    assert!(stats.both_accept > 0 && stats.both_reject > 0);
    assert!(
        stats.offset_zero_liblz4_accepts > 0,
        "no block reached 'liblz4 accepts offset 0'"
    );
    assert!(stats.margins_violated_liblz4_accepts > 0);
    assert!(stats.rejects_for(Lz4Margin::LiteralsInOutputMargin) > 0);
    assert_eq!(stats.rejects_for(Lz4Margin::LiteralLengthInInputMargin), 0);
}

#[test]
fn decoder_rule_hand_built_sequences() {
    let stats = run_rule(
        "hand-built sequences",
        if DEBUG { 50_000 } else { 500_000 },
        3,
        hand_built_block,
    );
    assert!(stats.both_accept > 0 && stats.both_reject > 0);
    assert!(stats.margins_ok_decodes > 0);
    assert!(
        stats.margins_violated_liblz4_accepts > 0,
        "no margin-violating block decoded by liblz4 thanks to spare capacity"
    );
    assert!(stats.offset_zero_liblz4_accepts > 0 && stats.offset_zero_both_reject > 0);
    for margin in [
        Lz4Margin::LiteralsInOutputMargin,
        Lz4Margin::LiteralsInInputMargin,
        Lz4Margin::MatchInLastLiterals,
        Lz4Margin::MatchLengthInInputMargin,
    ] {
        assert!(
            stats.rejects_for(margin) > 0,
            "category {margin:?} never reached"
        );
    }
    assert_eq!(stats.rejects_for(Lz4Margin::LiteralLengthInInputMargin), 0);
}
