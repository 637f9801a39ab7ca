//! Partial and dictionary decoding against liblz4, on every kernel in `Kernel::available()`.
//!
//! - Partial: `Decoder::decompress_partial` into `target` bytes (pre-filled, guard bytes after)
//!   must give liblz4's `LZ4_decompress_safe_partial(src, dst, len, target, target)` verdict and
//!   output, except offset 0 (liblz4 accepts it, we return `Error::OffsetZero`); every kernel the
//!   same result, whatever `dst` held.
//! - Dictionary: `Decoder::decompress_into_with_dictionary` must give the verdict and output of our
//!   decode with the dictionary's last 64 KiB in front of the output
//!   (`decompress_into_with_history`, the definition), on every kernel; a block liblz4's
//!   `LZ4_decompress_safe_usingDict` (dictionary in its own buffer) accepts we accept with the same
//!   output (offset 0 aside). And the fuzz input compressed with the dictionary
//!   (`compress_with_dictionary`) decodes back to itself.
//!
//! Input layout: a mode byte (bit 0: partial or dictionary; bits 1-3: dictionary size choice),
//! two little-endian bytes of target length or capacity, then the block.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lz4_simd::block::{self, Decoder};
use lz4_simd::{Error, Kernel};
use testkit::liblz4;

const GUARD: usize = 32;
const DICT_SIZES: [usize; 8] = [0, 1, 15, 16, 1000, 65535, 65536, 100_000];

/// Decodes with `decode` into `len` bytes pre-filled with `fill` and followed by guard bytes,
/// which must stay untouched; returns the verdict and the output.
fn guarded(
    len: usize,
    fill: u8,
    decode: impl FnOnce(&mut [u8]) -> Result<usize, Error>,
) -> Result<Vec<u8>, Error> {
    let mut buf = vec![fill; len + GUARD];
    let result = decode(&mut buf[..len]);
    assert!(buf[len..].iter().all(|&b| b == fill), "wrote past dst");
    result.map(|n| buf[..n].to_vec())
}

/// Our verdict against liblz4's: equal outputs, or offset 0 (ours) where liblz4 succeeds; an
/// error of liblz4's may be a success of ours only when `lenient` (full decodes: liblz4 enforces
/// the end-of-block margins against the buffer size, we do not).
fn compare(ours: &Result<Vec<u8>, Error>, theirs: &Option<Vec<u8>>, lenient: bool) {
    match (ours, theirs) {
        (Ok(ours), Some(theirs)) => assert!(ours == theirs, "output differs from liblz4"),
        (Err(_), None) => {}
        (Err(Error::OffsetZero { .. }), Some(_)) => {}
        (Ok(_), None) if lenient => {}
        _ => panic!(
            "verdict differs from liblz4: ours {:?}, liblz4 {:?}",
            ours.as_ref().map(Vec::len),
            theirs.as_ref().map(Vec::len)
        ),
    }
}

fuzz_target!(|data: &[u8]| {
    let [mode, len_lo, len_hi, rest @ ..] = data else {
        return;
    };
    let len = usize::from(u16::from_le_bytes([*len_lo, *len_hi]));
    let src = rest;
    let decoders: Vec<Decoder> = Kernel::available()
        .into_iter()
        .map(|kernel| Decoder::with_kernel(kernel).unwrap())
        .collect();

    if mode & 1 == 0 {
        let expected = guarded(len, 0, |dst| decoders[0].decompress_partial(src, dst));
        for (index, decoder) in decoders.iter().enumerate() {
            let got = guarded(len, 0xA5 ^ index as u8, |dst| {
                decoder.decompress_partial(src, dst)
            });
            assert_eq!(got, expected, "{:?} differs", decoder.kernel());
        }
        let theirs = liblz4::decompress_partial(src, len);
        compare(&expected, &theirs, false);
        return;
    }

    let dict_len = DICT_SIZES[usize::from(mode >> 1) % DICT_SIZES.len()];
    let dict: Vec<u8> = (0..dict_len)
        .map(|i| src.get(i % src.len().max(1)).copied().unwrap_or(0) ^ (i / 251) as u8)
        .collect();
    let history = &dict[dict.len().saturating_sub(block::MAX_HISTORY)..];
    let expected = guarded(len, 0, |dst| {
        let mut buf = history.to_vec();
        buf.resize(history.len() + dst.len(), 0);
        let n = Decoder::with_kernel(Kernel::Scalar)
            .unwrap()
            .decompress_into_with_history(src, &mut buf, history.len())?;
        dst[..n].copy_from_slice(&buf[history.len()..history.len() + n]);
        Ok(n)
    });
    for (index, decoder) in decoders.iter().enumerate() {
        let got = guarded(len, 0x5A ^ index as u8, |dst| {
            decoder.decompress_into_with_dictionary(src, dst, &dict)
        });
        assert_eq!(
            got.as_ref().map_err(|_| ()),
            expected.as_ref().map_err(|_| ()),
            "{:?} differs from the history form",
            decoder.kernel()
        );
    }
    let theirs = liblz4::decompress_with_dictionary(src, &dict, len);
    compare(&expected, &theirs, true);

    // The input as data: compressed with the dictionary, it decodes back with it.
    let compressed = block::compress_with_dictionary(src, &dict, 1).unwrap();
    for decoder in &decoders {
        let mut out = vec![0u8; src.len()];
        let n = decoder
            .decompress_into_with_dictionary(&compressed, &mut out, &dict)
            .expect("round trip with the dictionary failed");
        assert!(n == src.len() && out == src, "round trip differs");
    }
});
