//! Compresses arbitrary bytes and checks the round trips:
//!
//! - `compress_fast` then `decompress_into` an exact-size buffer gives the input back, and
//!   `decompress` with the exact size agrees;
//! - a reused `Compressor` gives the same bytes as `compress_fast`;
//! - `compress_prepend_size` / `decompress_size_prepended` round-trip, and a cap one byte short
//!   is refused;
//! - `compress_into` a too-small buffer either writes the same bytes or returns
//!   `OutputTooSmall`, and never writes past the buffer; an exact-size buffer succeeds.
//!
//! Input layout: an acceleration selector (1-3 bytes, see `lz4_simd_fuzz::acceleration`), a mode
//! byte (input expansion, too-small buffer size), then the data.
#![no_main]

use std::cell::RefCell;

use libfuzzer_sys::fuzz_target;
use lz4_simd::{block, Error};
use lz4_simd_fuzz::{acceleration, acceleration_u32, compress_input, Bytes};

thread_local! {
    static COMPRESSOR: RefCell<block::Compressor> = RefCell::new(block::Compressor::new());
}

const GUARD: usize = 32;
const FILL: u8 = 0xC3;

fuzz_target!(|data: &[u8]| {
    let mut bytes = Bytes(data);
    let accel = acceleration_u32(acceleration(&mut bytes));
    let mode = bytes.u8();
    let input = compress_input(bytes.rest(), mode);
    let input = &input[..];

    let compressed = block::compress_fast(input, accel).unwrap();
    assert!(compressed.len() <= block::compress_bound(input.len()));

    let mut out = vec![0u8; input.len()];
    assert_eq!(
        block::decompress_into(&compressed, &mut out),
        Ok(input.len())
    );
    assert!(out == input, "round trip differs");
    assert_eq!(
        block::decompress(&compressed, input.len()).as_deref(),
        Ok(input)
    );

    let reused = COMPRESSOR.with(|c| c.borrow_mut().compress(input, accel).unwrap());
    assert_eq!(
        reused, compressed,
        "reused Compressor differs from compress_fast"
    );

    let prepended = block::compress_prepend_size(input).unwrap();
    assert_eq!(&prepended[..4], &(input.len() as u32).to_le_bytes());
    if accel <= 1 {
        assert_eq!(&prepended[4..], &compressed[..], "prepended block differs");
    }
    assert_eq!(
        block::decompress_size_prepended(&prepended, input.len()).as_deref(),
        Ok(input)
    );
    if !input.is_empty() {
        assert!(matches!(
            block::decompress_size_prepended(&prepended, input.len() - 1),
            Err(Error::SizePrefixTooLarge { .. })
        ));
    }

    // A destination of some size up to the compressed length (inclusive), with guards around it.
    let fraction = usize::from(bytes_selector(mode));
    let small = compressed.len() * fraction / 255;
    let mut buf = vec![FILL; GUARD + small + GUARD];
    let result = block::compress_into(input, &mut buf[GUARD..GUARD + small], accel);
    assert!(buf[..GUARD].iter().all(|&b| b == FILL), "wrote before dst");
    assert!(
        buf[GUARD + small..].iter().all(|&b| b == FILL),
        "wrote past dst of {small} bytes"
    );
    match result {
        Ok(len) => assert_eq!(
            &buf[GUARD..GUARD + len],
            &compressed[..],
            "different bytes into a small dst"
        ),
        Err(Error::OutputTooSmall { capacity, .. }) => {
            assert_eq!(capacity, small);
            assert!(
                small < compressed.len(),
                "exact-size dst of {small} bytes refused"
            );
        }
        Err(other) => panic!("unexpected error {other:?}"),
    }
});

/// The too-small-buffer fraction (0..=255 of 255) from the mode byte: mostly near the full size,
/// where the capacity checks are tightest.
fn bytes_selector(mode: u8) -> u8 {
    match mode >> 3 {
        0 => 255,
        1..=7 => 255 - (mode >> 3),
        _ => mode.wrapping_mul(37),
    }
}
