//! HC dictionaries, streams and dest-size must produce exactly liblz4's bytes:
//! `HcStreamCompressor` (optionally with an `HcDictionary`) against `LZ4_loadDictHC` +
//! `LZ4_compress_HC_continue` + `LZ4_saveDictHC(64 KiB)` per block, at bound-sized and smaller
//! capacities (liblz4's give-up verdicts included, since they decide the next blocks), and
//! `block::compress_hc_dest_size` against `LZ4_compress_HC_destSize`.
//!
//! Input layout: level byte (low nibble; bit 4: favorDecSpeed), 2 bytes of dictionary length
//! (little-endian), then the dictionary, then blocks, each a header of 3 bytes (2 of length,
//! little-endian, capped by what is left, and 1 capacity selector) and its bytes. A block may
//! be repeated to reach past 64 KiB.
//!
//! Public API and liblz4 only (through `testkit::liblz4_hc`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use lz4_simd::block::{self, HcDictionary, HcStreamCompressor};

use testkit::liblz4_hc::{self, HcStream};

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let level = data[0] & 0x0F;
    let favor = data[0] & 0x10 != 0;
    let dict_len = usize::from(u16::from_le_bytes([data[1], data[2]])).min(data.len() - 3);
    let dict = &data[3..3 + dict_len];
    let mut rest = &data[3 + dict_len..];

    let (mut ours, mut theirs) = if data[0] & 0x20 != 0 {
        (
            HcStreamCompressor::with_prepared_dictionary(level, &HcDictionary::new(dict)),
            HcStream::with_dict(i32::from(level), favor, dict),
        )
    } else {
        (
            HcStreamCompressor::new(level),
            HcStream::new(i32::from(level), favor),
        )
    };
    ours.set_favor_dec_speed(favor);

    let mut blocks = 0;
    while rest.len() >= 3 && blocks < 8 {
        blocks += 1;
        let len = usize::from(u16::from_le_bytes([rest[0], rest[1]])).min(rest.len() - 3);
        let selector = rest[2];
        let mut src = rest[3..3 + len].to_vec();
        rest = &rest[3 + len..];
        if selector & 0x80 != 0 && !src.is_empty() {
            while src.len() < 70_000 {
                src.extend_from_within(..src.len().min(70_000 - src.len()));
            }
        }
        let bound = block::compress_bound(src.len());
        let capacity = match selector & 0x03 {
            0 => bound,
            1 => src.len().saturating_sub(1),
            2 => usize::from(selector >> 2) * src.len() / 31,
            _ => usize::from(selector >> 2),
        };
        let mut out = vec![0xA5u8; capacity + 8];
        let got = ours
            .compress_into(&src, &mut out[..capacity])
            .ok()
            .map(|n| out[..n].to_vec());
        assert!(
            out[capacity..].iter().all(|&b| b == 0xA5),
            "wrote past the capacity"
        );
        let want = theirs.compress(&src, capacity);
        assert!(
            got == want,
            "level {level} favor {favor} dictionary {dict_len}: block {blocks} ({} bytes, \
             capacity {capacity}) differs from liblz4",
            src.len()
        );

        // Dest-size on the same input, at the same capacity.
        if selector & 0x40 != 0 {
            let (want_consumed, want_block) =
                liblz4_hc::compress_hc_dest_size(&src, capacity, i32::from(level));
            let mut page = vec![0xA5u8; capacity + 8];
            // No room for a block (an empty page) is an error; liblz4 returns 0.
            let (consumed, written) =
                block::compress_hc_dest_size(&src, &mut page[..capacity], level)
                    .unwrap_or_default();
            assert!(
                page[capacity..].iter().all(|&b| b == 0xA5),
                "dest-size wrote past the page"
            );
            assert_eq!(
                (consumed, &page[..written]),
                (want_consumed, &want_block[..])
            );
            if written > 0 {
                let back = block::decompress(&page[..written], consumed).unwrap();
                assert_eq!(&back[..], &src[..consumed]);
            }
        }
    }
});
