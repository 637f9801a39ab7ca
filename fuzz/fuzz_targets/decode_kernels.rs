//! Decodes arbitrary bytes as an LZ4 block with every kernel in `Kernel::available()` and
//! requires each to give exactly the scalar reference decoder's verdict (the whole `Error`) and
//! output. Each kernel decodes four times:
//!
//! - from the fuzz input itself (libFuzzer's exact-size copy, so ASan flags any read past `src`)
//!   into `dst` at `front` in a guard buffer pre-filled with one byte value;
//! - from a copy of the input followed by `0xFF` bytes (a decoder that let them matter would
//!   differ) into a guard buffer pre-filled with another byte value, `dst` at its start;
//! - into an exact-size `Vec` pre-filled with a third value (ASan flags any write past `dst`);
//! - into an exact-size buffer of uninitialised memory (`Decoder::decompress_into_uninit`).
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

use libfuzzer_sys::fuzz_target;
use lz4_simd::Kernel;
use lz4_simd_fuzz::{capacity_and_front, Bytes};
use testkit::kernels::{
    assert_same, check_exact_size, check_vec_api, decode_guarded, Outcome, Setup,
};

/// `decode_guarded`, panicking when the decode writes outside `dst` or returns more than `cap`.
fn guarded(setup: Setup, src: &[u8], cap: usize, front: usize) -> Outcome {
    decode_guarded(setup, src, cap, front).unwrap_or_else(|breach| panic!("{breach}"))
}

fuzz_target!(|data: &[u8]| {
    let mut bytes = Bytes(data);
    let (cap, front) = capacity_and_front(&mut bytes);
    let src = bytes.rest();
    // No block decodes to more than 255 bytes per input byte, and 64 bytes of room beyond that
    // is more than any kernel's fast loop asks for: larger capacities cannot change a verdict, an
    // output or a kernel's path, they only cost time to fill.
    let cap = cap.min(src.len().saturating_mul(256).saturating_add(64));

    let expected = guarded(Setup::plain(Kernel::Scalar, 0x00), src, cap, front);
    for (index, kernel) in Kernel::available().into_iter().enumerate() {
        let fills = [0xA5 ^ index as u8, 0x5A ^ index as u8, 0xFF ^ index as u8];
        // From the fuzz input itself, `dst` at `front`.
        let in_place = guarded(Setup::plain(kernel, fills[0]), src, cap, front);
        assert_same(format_args!("{kernel} in place"), &expected, &in_place);
        // From a copy of the input followed by `0xFF` bytes, `dst` at the buffer's start: the
        // verdict and output must not depend on the bytes after `src` or on `dst`'s prior
        // contents.
        let copy = Setup {
            around_src: Some(0xFF),
            ..Setup::plain(kernel, fills[1])
        };
        let copied = guarded(copy, src, cap, 0);
        assert_same(format_args!("{kernel} from a copy"), &expected, &copied);
        // Into exact-size destinations: a Vec pre-filled with a third value and uninitialised
        // memory (the path `block::decompress` takes into a Vec's spare capacity).
        check_exact_size("fuzz input", kernel, src, cap, Some(fills[2]), &expected);
    }
    // The Vec API (the detected kernel, the Vec's spare capacity).
    check_vec_api("fuzz input", src, cap, &expected);
});
