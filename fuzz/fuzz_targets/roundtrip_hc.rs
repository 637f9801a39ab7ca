//! Compresses arbitrary bytes with LZ4 HC and checks:
//!
//! - the block is at most `compress_bound` bytes, keeps the end-of-block margins, and decodes to
//!   the input with the scalar reference and every available kernel (exact-size buffers inside
//!   guarded buffers) and with liblz4 `LZ4_decompress_safe`;
//! - a reused `HcCompressor` gives the bytes of a fresh `compress_hc`;
//! - without `favor_dec_speed`, the bytes equal liblz4 `LZ4_compress_HC` at the same level;
//!   with it, levels 10-12 give liblz4's bytes with `LZ4_favorDecompressionSpeed` (a fresh HC
//!   stream) and lower levels are unaffected;
//! - `compress_hc_into` a smaller buffer writes the same bytes or returns `OutputTooSmall`
//!   (never for an exact-size buffer), and writes nothing outside it.
//!
//! Input layout: a level byte (mostly 0-13, sometimes any `u8`), a mode byte (bit 7:
//! favor_dec_speed; low 3 bits: input expansion as in `compress_input`; bits 3-6: the small
//! buffer's size), then the data.
#![no_main]

use std::cell::RefCell;

use libfuzzer_sys::fuzz_target;
use lz4_simd::{block, Error, Kernel};
use lz4_simd_fuzz::{compress_input, Bytes};
use testkit::kernels::{decode_guarded, Setup};
use testkit::parse::parse_block;
use testkit::{liblz4, liblz4_hc};

thread_local! {
    static PLAIN: RefCell<block::HcCompressor> = RefCell::new(block::HcCompressor::new());
    static FAVORED: RefCell<block::HcCompressor> =
        RefCell::new(block::HcCompressor::with_favor_dec_speed(true));
}

const GUARD: usize = 32;
const FILL: u8 = 0xC3;

fuzz_target!(|data: &[u8]| {
    let mut bytes = Bytes(data);
    let level_byte = bytes.u8();
    let level = if level_byte >= 224 {
        level_byte
    } else {
        level_byte % 14
    };
    let mode = bytes.u8();
    let favor = mode & 0x80 != 0;
    let input = compress_input(bytes.rest(), mode);
    let input = &input[..];

    let compressor = if favor { &FAVORED } else { &PLAIN };
    let compressed = compressor.with(|c| c.borrow_mut().compress(input, level).unwrap());
    assert!(compressed.len() <= block::compress_bound(input.len()));
    let parsed = parse_block(&compressed);
    assert!(
        parsed.is_complete() && parsed.decoded_len == input.len(),
        "malformed block"
    );
    assert!(parsed.satisfies_margins(), "end-of-block margins");
    assert!(!parsed.has_offset_zero(), "offset 0");

    for kernel in std::iter::once(Kernel::Scalar).chain(Kernel::available()) {
        for fill in [0x00, 0xA5] {
            let (result, out) =
                decode_guarded(Setup::plain(kernel, fill), &compressed, input.len(), 7)
                    .unwrap_or_else(|breach| panic!("{breach}"));
            assert_eq!(result, Ok(input.len()), "{kernel} rejects our block");
            assert!(out == input, "{kernel} decodes different bytes");
        }
    }
    assert!(
        liblz4::decompress_safe(&compressed, input.len()).as_deref() == Some(input),
        "liblz4 does not decode our block to the input"
    );

    let fresh = if favor {
        block::HcCompressor::with_favor_dec_speed(true)
            .compress(input, level)
            .unwrap()
    } else {
        block::compress_hc(input, level).unwrap()
    };
    assert!(
        fresh == compressed,
        "reused HcCompressor differs from a fresh one"
    );

    let effective = match level {
        0 => 9,
        l => l.min(12),
    };
    if favor {
        if effective >= 10 {
            if !input.is_empty() {
                let theirs = liblz4_hc::HcStream::new(i32::from(level), true)
                    .compress(input, block::compress_bound(input.len()));
                assert!(
                    theirs.as_deref() == Some(&compressed[..]),
                    "level {level} favor_dec_speed: bytes differ from liblz4's"
                );
            }
        } else {
            let plain = PLAIN.with(|c| c.borrow_mut().compress(input, level).unwrap());
            assert!(
                plain == compressed,
                "favor_dec_speed changed a level below 10"
            );
        }
    } else if !input.is_empty() {
        let theirs = liblz4::compress_hc(input, i32::from(level));
        if theirs != compressed {
            let first = compressed.iter().zip(&theirs).position(|(a, b)| a != b);
            panic!(
                "level {level}: bytes differ from liblz4 (input {} bytes): ours {}, liblz4 {}, first difference at {first:?}",
                input.len(),
                compressed.len(),
                theirs.len()
            );
        }
    }

    // A destination of some size up to the compressed length (inclusive), with guards.
    let small = compressed.len() * usize::from(16 - ((mode >> 3) & 15)) / 16;
    let small = if mode & 0x40 != 0 {
        compressed.len().saturating_sub(usize::from(mode & 7))
    } else {
        small
    };
    let mut buf = vec![FILL; GUARD + small + GUARD];
    let result = if favor {
        FAVORED.with(|c| {
            c.borrow_mut()
                .compress_into(input, &mut buf[GUARD..GUARD + small], level)
        })
    } else {
        block::compress_hc_into(input, &mut buf[GUARD..GUARD + small], level)
    };
    assert!(buf[..GUARD].iter().all(|&b| b == FILL), "wrote before dst");
    assert!(
        buf[GUARD + small..].iter().all(|&b| b == FILL),
        "wrote past dst of {small} bytes"
    );
    match result {
        Ok(len) => assert!(
            buf[GUARD..GUARD + len] == compressed[..],
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
