//! `StreamCompressor::compress_contiguous_into` (consecutive slices of one buffer, no copy)
//! must produce exactly liblz4's bytes: `LZ4_compress_fast_continue` on the same slices of one
//! buffer (its prefix mode), after an optional dictionary (`LZ4_loadDict`, ours prepared), at
//! bound-sized and smaller capacities (liblz4's give-up verdicts included, since they decide the
//! next blocks), and every block decodes in place behind the slices before it.
//!
//! Input layout: a dictionary selector byte, an acceleration byte, a repeat byte (the data is
//! repeated with a changing separator up to 200 KiB, to cross 64 KiB of history), then cuts, each
//! 3 bytes (2 of length, little-endian, 1 capacity selector), then the data (what is left).
#![no_main]

use libfuzzer_sys::fuzz_target;
use lz4_simd::block::{self, Dictionary, StreamCompressor};
use lz4_simd::Error;
use lz4_simd_fuzz::Bytes;
use testkit::liblz4::Stream;

const DICT_SIZES: [usize; 6] = [0, 3, 8, 1000, 65536, 70_000];
const MAX_CUTS: usize = 16;

fuzz_target!(|data: &[u8]| {
    let mut bytes = Bytes(data);
    let dict = lz4_simd_fuzz::stream_decode::dictionary(&mut bytes, &DICT_SIZES);
    let acceleration = u32::from(bytes.u8() % 20);
    let repeat = usize::from(bytes.u8());
    let mut cuts = Vec::new();
    for _ in 0..usize::from(bytes.u8()) % MAX_CUTS + 1 {
        cuts.push((usize::from(bytes.u16()), bytes.u8()));
    }
    let piece = bytes.rest();
    let mut buffer = piece.to_vec();
    let mut counter = 0u8;
    while !piece.is_empty() && buffer.len() < repeat * 800 && buffer.len() < 200 << 10 {
        buffer.push(counter);
        buffer.extend_from_slice(piece);
        counter = counter.wrapping_add(1);
    }

    let prepared = Dictionary::new(&dict);
    let mut ours = if dict.is_empty() {
        StreamCompressor::new()
    } else {
        StreamCompressor::with_prepared_dictionary(&prepared)
    };
    let mut theirs = if dict.is_empty() {
        Stream::new()
    } else {
        Stream::with_dict(&dict)
    };
    let mut out = vec![0u8; buffer.len()];
    let mut start = 0;
    for (index, &(len, cap_selector)) in cuts.iter().enumerate() {
        // Lengths mostly small, sometimes past 64 KiB (scaled), always inside the buffer.
        let len = if cap_selector & 0x80 != 0 {
            len * 3
        } else {
            len % 5000
        };
        let end = (start + len).min(buffer.len());
        let src = &buffer[start..end];
        let bound = block::compress_bound(src.len());
        let cap = match cap_selector % 4 {
            0 | 1 => bound,
            2 => src.len(),
            _ => usize::from(cap_selector) % (src.len() + 1),
        };
        let mut got = vec![0xA5u8; cap + 16];
        let result =
            ours.compress_contiguous_into(&buffer[..end], start, &mut got[..cap], acceleration);
        assert!(got[cap..].iter().all(|&b| b == 0xA5), "wrote past dst");
        let mut want = vec![0u8; cap.max(1)];
        let n = theirs.compress(src, &mut want[..cap], acceleration as i32);
        match result {
            Ok(written) => {
                assert!(
                    n > 0 && got[..written] == want[..n],
                    "block {index} differs from liblz4"
                );
                let decoded = if index == 0 && !dict.is_empty() {
                    block::decompress_into_with_dictionary(
                        &got[..written],
                        &mut out[start..end],
                        &dict,
                    )
                } else {
                    block::decompress_into_with_history(&got[..written], &mut out[..end], start)
                };
                assert_eq!(decoded.unwrap(), src.len());
                assert!(out[start..end] == *src, "block {index}: round trip");
            }
            Err(Error::OutputTooSmall { .. }) => {
                assert_eq!(n, 0, "liblz4 fit block {index}, we did not");
                out[start..end].copy_from_slice(src);
            }
            Err(error) => panic!("contiguous compression failed: {error}"),
        }
        start = end;
    }
});
