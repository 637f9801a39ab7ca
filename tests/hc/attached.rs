//! `HcCompressor::compress_into_with_attached_dictionary` against liblz4 1.10's
//! `LZ4_resetStreamHC_fast` + `LZ4_attach_HC_dictionary` + `LZ4_compress_HC_continue` (the
//! dictionary stream prepared as LZ4F's CDict prepares it: `LZ4_loadDictHC` at level 9), at
//! every level, dictionary sizes from 0 to above 64 KiB, inputs of 0-20 bytes, 1 KiB, 4 KiB,
//! 4 KiB + 1 and 64 KiB, with and without favorDecSpeed, at the bound and below it.

use lz4_simd::block::{self, HcCompressor, HcDictionary};
use testkit::liblz4_hc::{self, HcDictStream};
use testkit::samples::generated;
use testkit::Rng;

use crate::common as hc_common;
use hc_common::against;

const DEBUG: bool = cfg!(debug_assertions);

#[test]
fn attached_dictionary_every_level() {
    let source = generated("log-lines", 300_000, 3);
    let dict_sizes = [0usize, 1, 3, 4, 5, 8, 100, 4096, 65_535, 65_536, 100_000];
    let input_sizes: Vec<usize> = (0..=20)
        .chain([100, 1024, 4095, 4096, 4097, 5000, 65_536])
        .collect();
    let levels: Vec<u8> = if DEBUG {
        vec![2, 3, 9, 10, 12]
    } else {
        (1..=12).collect()
    };
    let mut rng = Rng::new(5);
    let mut compressor = HcCompressor::new();
    for &dict_len in &dict_sizes {
        let dict = &source[source.len() - dict_len..];
        let prepared = HcDictionary::new(dict);
        let theirs_dict = HcDictStream::new(dict);
        for &len in &input_sizes {
            let src = against(prepared.as_bytes(), len, &mut rng);
            for &level in &levels {
                if DEBUG && len > 5000 && level > 9 {
                    continue;
                }
                for favor in [false, true] {
                    if favor && level < 10 {
                        continue;
                    }
                    compressor.set_favor_dec_speed(favor);
                    let bound = block::compress_bound(len);
                    for capacity in [bound, len.saturating_sub(1)] {
                        let want = liblz4_hc::compress_hc_attached(
                            &src,
                            &theirs_dict,
                            level.into(),
                            favor,
                            capacity,
                        );
                        let mut out = vec![0xA5u8; capacity + 8];
                        let got = compressor
                            .compress_into_with_attached_dictionary(
                                &src,
                                &mut out[..capacity],
                                &prepared,
                                level,
                            )
                            .ok()
                            .map(|n| out[..n].to_vec());
                        assert!(out[capacity..].iter().all(|&b| b == 0xA5), "canary");
                        let what = format!(
                            "level {level} dict {dict_len} len {len} favor {favor} capacity {capacity}"
                        );
                        if got != want {
                            let (a, b) = (
                                got.clone().unwrap_or_default(),
                                want.clone().unwrap_or_default(),
                            );
                            let at = a.iter().zip(&b).position(|(x, y)| x != y);
                            panic!(
                                "{what}: ours {:?} liblz4 {:?}, first difference at {at:?}",
                                got.map(|v| v.len()),
                                want.map(|v| v.len())
                            );
                        }
                        if let Some(block) = got {
                            let mut back = vec![0u8; len];
                            let n = block::decompress_into_with_dictionary(
                                &block,
                                &mut back,
                                prepared.as_bytes(),
                            )
                            .unwrap();
                            assert_eq!(&back[..n], &src[..], "{what}: round trip");
                        }
                    }
                }
            }
        }
    }
}
