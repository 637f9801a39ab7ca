//! Prepared-dictionary compression and dest-size compression must produce exactly liblz4's bytes:
//! `Compressor::compress_into_with_prepared_dictionary` against `LZ4_loadDict` +
//! `LZ4_compress_fast_continue` (a bound-sized destination, and a smaller one: whenever liblz4
//! fits, we fit with the same bytes; otherwise the same bytes or an error, never a write past
//! `dst`), and `block::compress_dest_size` against `LZ4_compress_destSize` (same consumed / written
//! / bytes, decoding to the consumed prefix).
//!
//! Input layout: acceleration byte, 2 bytes of dictionary length (little-endian), 2 bytes of
//! destination size (little-endian), a repeat byte (the input is repeated to reach past 64 KiB and
//! the 4 KiB / u16-table edges), then the dictionary and the input.
//!
//! Public API and liblz4 only (through `testkit::liblz4`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use lz4_simd::block::{self, Compressor, Dictionary};

use testkit::liblz4;

const CANARY: u8 = 0xA5;

fuzz_target!(|data: &[u8]| {
    if data.len() < 6 {
        return;
    }
    let acceleration = match data[0] {
        250..=255 => 65_530 + u32::from(data[0] - 250) * 2,
        a => u32::from(a % 24),
    };
    let dict_len = usize::from(u16::from_le_bytes([data[1], data[2]]));
    let cap_hint = usize::from(u16::from_le_bytes([data[3], data[4]]));
    let repeat = usize::from(data[5] % 8);
    let rest = &data[6..];
    let dict_len = dict_len.min(rest.len());
    let dict_bytes = rest[..dict_len].to_vec();
    let mut src = rest[dict_len..].to_vec();
    if repeat > 0 && !src.is_empty() {
        let target = [4096, 4097, 65_546, 65_547, 70_000, 140_000, 300_000][repeat - 1];
        while src.len() < target {
            src.extend_from_within(..src.len().min(target - src.len()));
        }
    }

    // Prepared dictionary, bound-sized destination.
    let dict = Dictionary::new(&dict_bytes);
    let bound = block::compress_bound(src.len());
    let mut compressor = Compressor::new();
    let mut out = vec![0u8; bound];
    let n = compressor
        .compress_into_with_prepared_dictionary(&src, &mut out, &dict, acceleration)
        .unwrap();
    let c_acceleration = acceleration.min(i32::MAX as u32) as i32;
    let want = liblz4::compress_with_dict_cap(&src, &dict_bytes, c_acceleration, bound).unwrap();
    assert!(
        out[..n] == want[..],
        "dictionary {dict_len} bytes, input {} bytes, acceleration {acceleration}: differs from liblz4",
        src.len()
    );

    // A smaller destination.
    let cap = cap_hint % (bound + 1);
    let mut small = vec![CANARY; cap + 16];
    let result = compressor.compress_into_with_prepared_dictionary(
        &src,
        &mut small[..cap],
        &dict,
        acceleration,
    );
    assert!(small[cap..].iter().all(|&b| b == CANARY), "wrote past dst");
    if let Ok(m) = result {
        assert!(small[..m] == want[..]);
    }
    if liblz4::compress_with_dict_cap(&src, &dict_bytes, c_acceleration, cap).is_some() {
        assert_eq!(
            result.ok(),
            Some(want.len()),
            "liblz4 fits in {cap} bytes, we must"
        );
    }

    // Dest-size.
    let mut page = vec![CANARY; cap + 16];
    // No room for a block (an empty page) is an error; liblz4 returns 0.
    let (consumed, written) = block::compress_dest_size(&src, &mut page[..cap]).unwrap_or_default();
    assert!(
        page[cap..].iter().all(|&b| b == CANARY),
        "dest-size wrote past dst"
    );
    let (their_consumed, their_written, theirs) = liblz4::compress_dest_size(&src, cap);
    assert_eq!(
        (consumed, written),
        (their_consumed, their_written),
        "dest-size into {cap}"
    );
    assert!(
        page[..written] == theirs[..their_written],
        "dest-size bytes into {cap}"
    );
    if written > 0 {
        let back = block::decompress(&page[..written], consumed).unwrap();
        assert!(back == src[..consumed], "dest-size round trip");
    }
});
