//! Stream decoding of blocks larger than 64 KiB into oversized destinations, against liblz4's
//! `LZ4_decompress_safe_continue`, on every kernel in `Kernel::available()`: the path of
//! `StreamDecoder`'s bounded buffer where a block is first decoded with the room recent blocks
//! needed (at least 64 KiB) and, only if that fails, again with all the room `dst` allows.
//! (`decode_stream`'s blocks and capacities stay under 64 KiB, so they never take it.)
//!
//! Blocks are made by liblz4's stream (`LZ4_compress_fast_continue` + `LZ4_saveDict`) from the
//! fuzz bytes repeated up to 256 KiB, then optionally corrupted, and decoded into a destination
//! of the content's size, one byte less, or up to 512 KiB more. liblz4 decodes them one after the
//! other into one contiguous buffer; every kernel's `StreamDecoder` into a fresh buffer each time,
//! pre-filled, with guard bytes after. Verdicts and outputs must be liblz4's, with
//! `decode_stream`'s two allowances (offset 0: liblz4 accepts it, we return
//! `Error::OffsetZero`; a block we accept that liblz4 rejects lacks liblz4's end-of-block margins,
//! which it checks against the buffer), where the series stops (the histories would differ).
//! A failed block leaves `dst` untouched.
//!
//! Input layout: a dictionary selector byte, then blocks, each a header of 6 bytes (2 of length
//! modulo 4096, little-endian, 1 repeat count, 1 capacity selector, 2 of corruption position,
//! 0: none) and that many bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lz4_simd::block;
use lz4_simd_fuzz::Bytes;
use testkit::liblz4::{SavingStream, Stream};

const DICT_SIZES: [usize; 4] = [0, 8, 65536, 100_000];
const MAX_BLOCKS: usize = 12;

fuzz_target!(|data: &[u8]| {
    let mut bytes = Bytes(data);
    let dict = lz4_simd_fuzz::stream_decode::dictionary(&mut bytes, &DICT_SIZES);
    // (block, content length, capacity)
    let mut blocks = Vec::new();
    let mut compressor = SavingStream::new(Stream::with_dict(&dict));
    while !bytes.0.is_empty() && blocks.len() < MAX_BLOCKS {
        let len = usize::from(bytes.u16() % 4096);
        let repeat = usize::from(bytes.u8() % 64) + 1;
        let cap_selector = bytes.u8();
        let corrupt_at = usize::from(bytes.u16());
        let rest = bytes.0;
        let piece = &rest[..len.min(rest.len())];
        bytes.0 = &rest[piece.len()..];
        let content = piece.repeat(repeat);
        let mut compressed = vec![0u8; block::compress_bound(content.len())];
        let n = compressor.compress(&content, &mut compressed, 1);
        assert!(n > 0, "liblz4 failed at the bound");
        compressed.truncate(n);
        if corrupt_at != 0 && !compressed.is_empty() {
            let at = corrupt_at % compressed.len();
            compressed[at] ^= (corrupt_at >> 8) as u8 | 1;
        }
        let cap = match cap_selector % 4 {
            0 => content.len(),
            1 => content.len().saturating_sub(1),
            _ => content.len() + usize::from(cap_selector) * 2048,
        };
        blocks.push((compressed, cap));
    }

    let blocks: Vec<(&[u8], usize)> = blocks.iter().map(|(b, cap)| (&b[..], *cap)).collect();
    lz4_simd_fuzz::stream_decode::check_against_liblz4(&dict, &blocks);
});
