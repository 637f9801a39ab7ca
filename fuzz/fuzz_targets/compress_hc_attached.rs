//! `HcCompressor::compress_into_with_attached_dictionary` (the HC dictCtx search, as LZ4F
//! compresses each block with a dictionary) must produce exactly liblz4's bytes and verdict:
//! `LZ4_resetStreamHC_fast` + `LZ4_attach_HC_dictionary` + `LZ4_compress_HC_continue`, at
//! bound-sized and smaller capacities, and its output must decode back with the dictionary.
//!
//! Input layout: level byte (low nibble; bit 4: favorDecSpeed; bit 5: repeat the input to
//! past 4 KiB, where liblz4 copies the dictionary's state instead of attaching it), 2 bytes of
//! dictionary length (little-endian), 1 capacity selector, then the dictionary, then the input.
//!
//! Public API and liblz4 only (through `testkit::liblz4_hc`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use lz4_simd::block::{self, HcCompressor, HcDictionary};

use testkit::liblz4_hc::{self, HcDictStream};

fuzz_target!(|data: &[u8]| {
    if data.len() < 4 {
        return;
    }
    let level = data[0] & 0x0F;
    let favor = data[0] & 0x10 != 0;
    let dict_len = usize::from(u16::from_le_bytes([data[1], data[2]])).min(data.len() - 4);
    let selector = data[3];
    let dict = &data[4..4 + dict_len];
    let mut src = data[4 + dict_len..].to_vec();
    if data[0] & 0x20 != 0 && !src.is_empty() {
        while src.len() < 6_000 {
            src.extend_from_within(..src.len().min(6_000 - src.len()));
        }
    }

    let prepared = HcDictionary::new(dict);
    let theirs = HcDictStream::new(dict);
    let bound = block::compress_bound(src.len());
    let capacity = match selector & 0x03 {
        0 => bound,
        1 => src.len().saturating_sub(1),
        2 => usize::from(selector >> 2) * src.len() / 63,
        _ => usize::from(selector >> 2),
    };

    let mut compressor = HcCompressor::new();
    compressor.set_favor_dec_speed(favor);
    let mut out = vec![0xA5u8; capacity + 8];
    let got = compressor
        .compress_into_with_attached_dictionary(&src, &mut out[..capacity], &prepared, level)
        .ok()
        .map(|n| out[..n].to_vec());
    assert!(
        out[capacity..].iter().all(|&b| b == 0xA5),
        "wrote past the capacity"
    );
    let want = liblz4_hc::compress_hc_attached(&src, &theirs, i32::from(level), favor, capacity);
    assert!(
        got == want,
        "level {level} favor {favor} dictionary {dict_len}: {} bytes at capacity {capacity} \
         differ from liblz4",
        src.len()
    );
    if let Some(block) = got {
        let mut back = vec![0u8; src.len()];
        let n = block::decompress_into_with_dictionary(&block, &mut back, prepared.as_bytes())
            .expect("our block decodes with its dictionary");
        assert_eq!(&back[..n], &src[..], "round trip");
    }
});
