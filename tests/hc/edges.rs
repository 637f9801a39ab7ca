//! Adversarial edges of the HC dictionary, stream and dest-size forms against liblz4 1.10:
//! one compressor reused across every form (no state may leak from one call into the next),
//! dictionaries of 0 to 5 bytes and around 64 KiB, streams of many tiny blocks at random
//! capacities (liblz4's give-up leaves half-filled tables), the favour option switched between
//! blocks, `reset`, and dest-size at tiny capacities with canaries.

use lz4_simd::block::{self, HcCompressor, HcDictionary, HcStreamCompressor};
use testkit::liblz4_hc::{self, HcStream};
use testkit::samples::generated;
use testkit::Rng;

use crate::common as hc_common;
use hc_common::against;

const DEBUG: bool = cfg!(debug_assertions);

fn levels() -> Vec<u8> {
    if DEBUG {
        vec![1, 2, 3, 4, 9, 10, 12]
    } else {
        (1..=12).collect()
    }
}

fn first_difference(a: &[u8], b: &[u8]) -> usize {
    a.iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()))
}

/// One `HcCompressor` for everything: dictionary calls at every capacity near the result,
/// interleaved with plain and dest-size calls, must each equal liblz4's fresh-state result.
#[test]
fn one_compressor_every_form() {
    let mut rng = Rng::new(17);
    let base = generated("log-lines", 140_000, 5);
    let dict_sizes = [0usize, 1, 3, 4, 5, 12, 13, 65_535, 65_536, 65_537, 131_000];
    let input_sizes: Vec<usize> = (0..=20).chain([64, 4096, 4097]).collect();
    let mut compressor = HcCompressor::new();
    for level in levels() {
        for &dict_len in &dict_sizes {
            let dict = &base[base.len() - dict_len..];
            let prepared = HcDictionary::new(dict);
            for &len in &input_sizes {
                if DEBUG && len > 20 && dict_len % 2 == 0 {
                    continue;
                }
                let src = against(prepared.as_bytes(), len, &mut rng);
                let bound = block::compress_bound(len);
                let full = liblz4_hc::compress_hc_with_dict(&src, dict, level.into(), false, bound)
                    .expect("bound always fits");
                let mut capacities = vec![bound, len.saturating_sub(1)];
                capacities.extend((0..4).map(|d| full.len().saturating_sub(d)));
                for favor in [false, true] {
                    if favor && level < 10 {
                        continue;
                    }
                    compressor.set_favor_dec_speed(favor);
                    for &capacity in &capacities {
                        let want = liblz4_hc::compress_hc_with_dict(
                            &src,
                            dict,
                            level.into(),
                            favor,
                            capacity,
                        );
                        let mut out = vec![0xA5u8; capacity + 8];
                        let got = compressor
                            .compress_into_with_prepared_dictionary(
                                &src,
                                &mut out[..capacity],
                                &prepared,
                                level,
                            )
                            .ok();
                        assert!(out[capacity..].iter().all(|&b| b == 0xA5), "canary");
                        let got = got.map(|n| out[..n].to_vec());
                        if got != want {
                            panic!(
                                "level {level} dict {dict_len} len {len} favor {favor} capacity \
                                 {capacity}: ours {:?} liblz4 {:?}, first difference {}",
                                got.as_ref().map(Vec::len),
                                want.as_ref().map(Vec::len),
                                first_difference(
                                    got.as_deref().unwrap_or(&[]),
                                    want.as_deref().unwrap_or(&[])
                                )
                            );
                        }
                    }
                }
                compressor.set_favor_dec_speed(false);
                // A plain call and a dest-size call in between: their own results.
                assert_eq!(
                    compressor.compress(&src, level).unwrap(),
                    block::compress_hc(&src, level).unwrap()
                );
                let page = rng.below(70) as usize;
                let mut dst = vec![0u8; page];
                let got = compressor.compress_dest_size(&src, &mut dst, level).ok();
                let (consumed, want) = liblz4_hc::compress_hc_dest_size(&src, page, level.into());
                // liblz4's 0 (an empty page) is an error here.
                assert_eq!(
                    got,
                    (!want.is_empty()).then_some((consumed, want.len())),
                    "dest size level {level} page {page}"
                );
                assert_eq!(&dst[..want.len()], &want[..]);
            }
        }
    }
}

/// Streams of hundreds of 0-20 byte blocks (and a few larger), with and without tiny
/// dictionaries, each block at a random capacity from 0 to past the bound, the favour option
/// switched at random between blocks, and `reset` / `reset_with_prepared_dictionary` in the middle.
#[test]
fn tiny_block_streams() {
    let blocks_per_stream = if DEBUG { 120 } else { 400 };
    for level in levels() {
        for (seed, dict_len) in [0usize, 1, 3, 4, 5, 40, 70_000].into_iter().enumerate() {
            let mut rng = Rng::new(seed as u64 * 1000 + u64::from(level));
            let source = generated("log-lines", 200_000, seed as u64);
            let dict = &source[..dict_len];
            let prepared = HcDictionary::new(dict);
            let mut ours = HcStreamCompressor::with_prepared_dictionary(level, &prepared);
            let mut theirs = HcStream::with_dict(level.into(), false, dict);
            let mut history = prepared.as_bytes().to_vec();
            let mut at = dict_len;
            for i in 0..blocks_per_stream {
                let len = match rng.below(20) {
                    0 => 4096 + rng.below(3) as usize - 1,
                    1 => rng.below(2000) as usize,
                    _ => rng.below(21) as usize,
                };
                if at + len > source.len() {
                    at = dict_len;
                }
                let src = &source[at..at + len];
                at += len - rng.below(len as u64 / 2 + 1) as usize;
                if level >= 10 && rng.below(8) == 0 {
                    let favor = rng.below(2) == 1;
                    ours.set_favor_dec_speed(favor);
                    theirs.set_favor(favor);
                }
                match rng.below(60) {
                    0 => {
                        ours.reset();
                        theirs = HcStream::new(level.into(), ours.favor_dec_speed());
                        history.clear();
                    }
                    1 => {
                        ours.reset_with_prepared_dictionary(&prepared);
                        theirs = HcStream::with_dict(level.into(), ours.favor_dec_speed(), dict);
                        history = prepared.as_bytes().to_vec();
                    }
                    _ => {}
                }
                let bound = block::compress_bound(len);
                let capacity = match rng.below(3) {
                    0 => bound,
                    1 => len.saturating_sub(1),
                    _ => rng.below(bound as u64 + 2) as usize,
                };
                let mut out = vec![0xA5u8; capacity + 8];
                let got = ours.compress_into(src, &mut out[..capacity]).ok();
                assert!(out[capacity..].iter().all(|&b| b == 0xA5), "canary");
                let got = got.map(|n| out[..n].to_vec());
                let want = theirs.compress(src, capacity);
                assert_eq!(
                    got.as_ref().map(Vec::len),
                    want.as_ref().map(Vec::len),
                    "level {level} dict {dict_len} block {i} len {len} capacity {capacity}"
                );
                assert_eq!(got, want, "level {level} dict {dict_len} block {i}");
                if let Some(block) = got {
                    let mut back = vec![0u8; len];
                    let n = block::decompress_into_with_dictionary(&block, &mut back, &history)
                        .unwrap();
                    assert_eq!(&back[..n], src);
                }
                history = src[len.saturating_sub(65_536)..].to_vec();
                assert_eq!(ours.history(), &history[..]);
            }
        }
    }
}

/// Dest-size at capacities 0 to 64, levels 0 to 13 and beyond, inputs of every small length,
/// with canaries after the capacity.
#[test]
fn dest_size_tiny_pages_every_level() {
    let mut compressor = HcCompressor::new();
    let kinds = ["log-lines", "runs", "random", "two-symbol"];
    for level in (0..=13u8).chain([200]) {
        for (k, kind) in kinds.iter().enumerate() {
            for len in [0usize, 1, 4, 12, 13, 14, 30, 64, 200, 5000] {
                let src = generated(kind, len, (k * 100 + len) as u64);
                for page in 0..=64usize {
                    let (consumed, want) =
                        liblz4_hc::compress_hc_dest_size(&src, page, i32::from(level));
                    let mut dst = vec![0x5Au8; page + 16];
                    let got = compressor
                        .compress_dest_size(&src, &mut dst[..page], level)
                        .ok();
                    assert!(dst[page..].iter().all(|&b| b == 0x5A), "canary");
                    // liblz4's 0 (an empty page) is an error here.
                    assert_eq!(
                        got,
                        (!want.is_empty()).then_some((consumed, want.len())),
                        "level {level} {kind} len {len} page {page}"
                    );
                    assert_eq!(
                        &dst[..want.len()],
                        &want[..],
                        "level {level} {kind} len {len} page {page}"
                    );
                }
            }
        }
    }
}
