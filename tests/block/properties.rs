//! Property tests (proptest): round trips at random accelerations with liblz4-identical bytes,
//! and a decoder that never panics, never exceeds its cap, never writes outside `dst`, and
//! agrees with the documented rules (the naive decoder in `testkit::parse`) on arbitrary bytes.

use lz4_simd::block;
use proptest::prelude::*;
use testkit::decoder_rule::{check_decoder_rule, ours_decode_checked, RuleStats};
use testkit::liblz4;
use testkit::parse::naive_decode;

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        ..ProptestConfig::default()
    }
}

/// Inputs with repetition, so matches of every length and offset occur: a series of pieces,
/// each fresh bytes, a run, or a copy of earlier bytes (possibly overlapping).
fn structured_input() -> impl Strategy<Value = Vec<u8>> {
    #[derive(Debug, Clone)]
    enum Piece {
        Fresh(Vec<u8>),
        Run(u8, usize),
        Copy { back: usize, len: usize },
    }
    let piece = prop_oneof![
        prop::collection::vec(any::<u8>(), 0..40).prop_map(Piece::Fresh),
        (any::<u8>(), 1usize..300).prop_map(|(b, n)| Piece::Run(b, n)),
        (1usize..5000, 4usize..500).prop_map(|(back, len)| Piece::Copy { back, len }),
    ];
    prop::collection::vec(piece, 0..40).prop_map(|pieces| {
        let mut out: Vec<u8> = Vec::new();
        for piece in pieces {
            match piece {
                Piece::Fresh(bytes) => out.extend_from_slice(&bytes),
                Piece::Run(byte, n) => out.extend(std::iter::repeat_n(byte, n)),
                Piece::Copy { back, len } => {
                    if !out.is_empty() {
                        let from = out.len() - back.min(out.len());
                        for i in 0..len {
                            out.push(out[from + i]);
                        }
                    }
                }
            }
        }
        out
    })
}

fn acceleration() -> impl Strategy<Value = u32> {
    prop_oneof![
        0u32..=10,
        0u32..=100_000,
        Just(u32::MAX),
        Just(65537),
        Just(65538)
    ]
}

fn check_round_trip(src: &[u8], acceleration: u32) -> Result<(), TestCaseError> {
    let ours = block::compress_fast(src, acceleration).unwrap();
    let theirs = liblz4::compress_fast(src, liblz4::clamp_acceleration(acceleration));
    prop_assert!(
        ours == theirs,
        "bytes differ from liblz4 at acceleration {}",
        acceleration
    );
    prop_assert!(ours.len() <= block::compress_bound(src.len()));
    let back =
        block::decompress(&ours, src.len()).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert!(back == src, "round trip failed");
    let mut exact = vec![0u8; src.len()];
    prop_assert_eq!(block::decompress_into(&ours, &mut exact), Ok(src.len()));
    prop_assert!(exact == src);
    // The size-prepended convention.
    let prefixed = block::compress_prepend_size(src).unwrap();
    prop_assert_eq!(&prefixed[4..], &block::compress(src).unwrap()[..]);
    prop_assert_eq!(
        block::decompress_size_prepended(&prefixed, src.len()),
        Ok(src.to_vec())
    );
    Ok(())
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn round_trip_arbitrary(src in prop::collection::vec(any::<u8>(), 0..3000), acceleration in acceleration()) {
        check_round_trip(&src, acceleration)?;
    }

    #[test]
    fn round_trip_structured(src in structured_input(), acceleration in acceleration()) {
        check_round_trip(&src, acceleration)?;
    }

    #[test]
    fn reused_compressor_matches_fresh(
        inputs in prop::collection::vec(structured_input(), 1..6),
        acceleration in acceleration(),
    ) {
        let mut compressor = block::Compressor::new();
        for src in &inputs {
            prop_assert_eq!(compressor.compress(src, acceleration).unwrap(), block::compress_fast(src, acceleration).unwrap());
        }
    }

    /// Arbitrary bytes and capacity: no panic, output within the cap, nothing written past
    /// `dst`, the same verdict and bytes as the naive decoder, and liblz4 agrees per the rule.
    #[test]
    fn decoder_on_arbitrary_bytes(block in prop::collection::vec(any::<u8>(), 0..200), cap in 0usize..3000) {
        let ours = ours_decode_checked(&block, cap);
        if let Ok(out) = &ours {
            prop_assert!(out.len() <= cap);
        }
        prop_assert_eq!(ours.ok(), naive_decode(&block, cap));
        if !block.is_empty() {
            check_decoder_rule(&block, &[cap], &mut RuleStats::default());
        }
    }

    /// Mostly-valid blocks (compressor output with a few bytes changed) at arbitrary caps.
    #[test]
    fn decoder_on_corrupted_blocks(
        src in structured_input(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..4),
        cut in any::<prop::sample::Index>(),
        cap_slack in -20i64..100,
    ) {
        let mut block = block::compress(&src).unwrap();
        for (at, byte) in edits {
            let at = at.index(block.len());
            block[at] = byte;
        }
        if cut.index(8) == 0 {
            let len = cut.index(block.len() + 1);
            block.truncate(len);
        }
        let cap = (src.len() as i64 + cap_slack).max(0) as usize;
        let ours = ours_decode_checked(&block, cap);
        if let Ok(out) = &ours {
            prop_assert!(out.len() <= cap);
        }
        prop_assert_eq!(ours.ok(), naive_decode(&block, cap));
    }

    #[test]
    fn decompress_never_exceeds_max_out(block in prop::collection::vec(any::<u8>(), 0..300), max_out in prop_oneof![0usize..2000, Just(usize::MAX)]) {
        let result = block::decompress(&block, max_out);
        if let Ok(out) = &result {
            prop_assert!(out.len() <= max_out);
        }
        // The same verdict and bytes as decoding into a buffer of that size (every block
        // decodes to at most 255 bytes per input byte, the Vec decoder's own cap).
        let cap = max_out.min(block.len() * 255);
        let mut dst = vec![0u8; cap];
        let into = block::decompress_into(&block, &mut dst).map(|n| dst[..n].to_vec());
        prop_assert_eq!(result.is_ok(), into.is_ok());
        if let (Ok(a), Ok(b)) = (&result, &into) {
            prop_assert_eq!(a, b);
        }
    }

    #[test]
    fn decompress_size_prepended_never_panics(
        block in prop::collection::vec(any::<u8>(), 0..300),
        max_out in prop_oneof![0usize..5000, Just(usize::MAX)],
    ) {
        if let Ok(out) = block::decompress_size_prepended(&block, max_out) {
            prop_assert!(out.len() <= max_out);
            prop_assert_eq!(out.len() as u64, u64::from(u32::from_le_bytes(block[..4].try_into().unwrap())));
        }
    }

    /// A plausible prefix in front of arbitrary bytes reaches the decoder, not just the prefix checks.
    #[test]
    fn decompress_size_prepended_with_small_prefix(
        declared in 0u32..2000,
        body in prop::collection::vec(any::<u8>(), 0..100),
        max_out in 0usize..3000,
    ) {
        let mut src = declared.to_le_bytes().to_vec();
        src.extend_from_slice(&body);
        match block::decompress_size_prepended(&src, max_out) {
            Ok(out) => {
                prop_assert_eq!(out.len(), declared as usize);
                prop_assert!(out.len() <= max_out);
                prop_assert_eq!(Some(out), naive_decode(&body, declared as usize));
            }
            Err(_) => {
                let naive = naive_decode(&body, declared as usize);
                let fits = declared as usize <= max_out && declared as usize <= body.len() * 255;
                prop_assert!(!fits || naive.map(|v| v.len()) != Some(declared as usize));
            }
        }
    }
}
