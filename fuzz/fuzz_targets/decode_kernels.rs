//! Decodes arbitrary bytes as an LZ4 block with every kernel in `Kernel::available()` and
//! requires each to give exactly the scalar reference decoder's verdict (the whole `Error`) and
//! output. Each kernel decodes four times:
//!
//! - from the fuzz input itself (libFuzzer's exact-size copy, so ASan flags any read past `src`)
//!   into `dst` at `front` in a guard buffer pre-filled with one byte value;
//! - from a copy of the input followed by `0xFF` bytes (a decoder that let them matter would
//!   differ) into a guard buffer pre-filled with another byte value, `dst` at its start;
//! - into an exact-size `Vec` pre-filled with a third value (ASan flags any write past `dst`);
//! - into an exact-size buffer of uninitialised memory (`decompress_into_uninit_with`).
//!
//! `block::decompress` (the detected kernel into a `Vec`'s spare capacity) must agree too.
//!
//! The guard bytes around `dst` must stay untouched, and since the fills differ, no stale byte of
//! `dst` can reach the output unnoticed.
//!
//! Input layout as `decode_block`: one selector byte (capacity range, `dst` front), 1-3 capacity
//! bytes, then the block. The capacity is clamped to what the block could possibly need plus 64
//! bytes.
#![no_main]

use std::mem::MaybeUninit;

use libfuzzer_sys::fuzz_target;
use lz4_simd::{block, Kernel};
use lz4_simd_fuzz::{capacity_and_front, decode_guarded_with, Bytes};

/// Bytes after the copied input that no decoder may read.
const SRC_TAIL: usize = 64;

fuzz_target!(|data: &[u8]| {
    let mut bytes = Bytes(data);
    let (cap, front) = capacity_and_front(&mut bytes);
    let src = bytes.rest();
    // No block decodes to more than 255 bytes per input byte, and 64 bytes of room beyond that
    // is more than any kernel's fast loop asks for: larger capacities cannot change a verdict, an
    // output or a kernel's path, they only cost time to fill.
    let cap = cap.min(src.len().saturating_mul(256).saturating_add(64));
    let mut padded = Vec::with_capacity(src.len() + SRC_TAIL);
    padded.extend_from_slice(src);
    padded.resize(src.len() + SRC_TAIL, 0xFF);
    let padded_src = &padded[..src.len()];

    let expected = decode_guarded_with(Kernel::Scalar, src, cap, front, 0x00);
    for (index, kernel) in Kernel::available().into_iter().enumerate() {
        let fills = [0xA5 ^ index as u8, 0x5A ^ index as u8, 0xFF ^ index as u8];
        let in_place = decode_guarded_with(kernel, src, cap, front, fills[0]);
        assert_eq!(
            in_place.0, expected.0,
            "{kernel}: verdict differs from scalar"
        );
        assert!(
            in_place.1 == expected.1,
            "{kernel}: output differs from scalar"
        );
        let copied = decode_guarded_with(kernel, padded_src, cap, 0, fills[1]);
        assert_eq!(
            copied.0, expected.0,
            "{kernel}: verdict depends on the bytes after src or on dst's prior contents"
        );
        assert!(
            copied.1 == expected.1,
            "{kernel}: output depends on the bytes after src or on dst's prior contents"
        );
        let mut exact = vec![fills[2]; cap];
        let result = block::decompress_into_with(kernel, src, &mut exact);
        assert_eq!(
            result, expected.0,
            "{kernel}: verdict into an exact-size Vec"
        );
        if let Ok(len) = result {
            assert!(
                exact[..len] == expected.1[..],
                "{kernel}: output into an exact-size Vec"
            );
        }
        // Into uninitialised memory (the path `block::decompress` takes into a Vec's spare
        // capacity): same verdict and output.
        let mut uninit: Vec<MaybeUninit<u8>> = Vec::with_capacity(cap);
        uninit.resize_with(cap, MaybeUninit::uninit);
        let result = block::decompress_into_uninit_with(kernel, src, &mut uninit);
        assert_eq!(
            result, expected.0,
            "{kernel}: verdict into uninitialised memory"
        );
        if let Ok(len) = result {
            // SAFETY: on Ok(len) the decoder has initialised uninit[..len].
            let produced: Vec<u8> = uninit[..len]
                .iter()
                .map(|byte| unsafe { byte.assume_init() })
                .collect();
            assert!(
                produced == expected.1,
                "{kernel}: output into uninitialised memory"
            );
        }
    }
    // The Vec API (the detected kernel, the Vec's spare capacity).
    assert_eq!(
        block::decompress(src, cap),
        expected.0.clone().map(|_| expected.1.clone()),
        "block::decompress"
    );
});
