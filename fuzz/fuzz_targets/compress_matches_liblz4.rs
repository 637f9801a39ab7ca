//! Our `compress_fast` must produce exactly the bytes of liblz4's `LZ4_compress_fast` at the same
//! acceleration (both clamp below 1 to 1 and above 65537 to 65537).
//!
//! Input layout: an acceleration selector (1-3 bytes, see `lz4_simd_fuzz::acceleration`), a mode
//! byte (input expansion past the `u16`-table limit), then the data.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lz4_simd::block;
use lz4_simd_fuzz::{acceleration, acceleration_u32, compress_input, Bytes};
use testkit::liblz4;

fuzz_target!(|data: &[u8]| {
    let mut bytes = Bytes(data);
    let accel = acceleration(&mut bytes);
    let mode = bytes.u8();
    let input = compress_input(bytes.rest(), mode);

    let ours = block::compress_fast(&input, acceleration_u32(accel)).unwrap();
    let theirs = liblz4::compress_fast(&input, accel);
    if ours != theirs {
        let first = ours.iter().zip(&theirs).position(|(a, b)| a != b);
        panic!(
            "compressed bytes differ from liblz4 (acceleration {accel}, input {} bytes): ours {} bytes, liblz4 {} bytes, first difference at {first:?}",
            input.len(),
            ours.len(),
            theirs.len()
        );
    }
});
