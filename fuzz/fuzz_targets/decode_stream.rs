//! Stream decoding against liblz4's `LZ4_decompress_safe_continue`, on every kernel in
//! `Kernel::available()`, and stream compression against `LZ4_compress_fast_continue`.
//!
//! - Decode: a dictionary (size chosen by the first byte) and a series of blocks, each behind a
//!   2-byte length and a 2-byte output capacity. liblz4 decodes them one after the other into one
//!   contiguous buffer (the dictionary set with `LZ4_setStreamDecode`); every kernel's
//!   `StreamDecoder` decodes them into buffers pre-filled with different bytes, guard bytes after.
//!   All kernels must agree; where liblz4 accepts a block we accept it with the same output
//!   (offset 0 aside: liblz4 accepts it, we return `Error::OffsetZero`); where it rejects one we
//!   may accept it only by lacking liblz4's end-of-block margins (they are checked against the
//!   buffer size). The series stops at the first block where the verdicts differ (the histories
//!   would differ after it).
//! - Compress: the same bytes cut into inputs (at the block lengths) compressed by a
//!   `StreamCompressor` (`compress_into`, after the dictionary) and by liblz4's stream with
//!   `LZ4_saveDict` after each input; equal blocks, and they decode back through both decoders.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lz4_simd::block::{self, Dictionary, StreamCompressor, StreamDecoder};
use lz4_simd::Error;
use lz4_simd_fuzz::Bytes;
use testkit::liblz4::{SavingStream, Stream};

const DICT_SIZES: [usize; 8] = [0, 1, 7, 8, 1000, 65535, 65536, 100_000];

fuzz_target!(|data: &[u8]| {
    let mut bytes = Bytes(data);
    let dict = lz4_simd_fuzz::stream_decode::dictionary(&mut bytes, &DICT_SIZES);
    let mut blocks = Vec::new();
    while !bytes.0.is_empty() && blocks.len() < 64 {
        let len = usize::from(bytes.u16() % 4096);
        let cap = usize::from(bytes.u16());
        let rest = bytes.0;
        let block = &rest[..len.min(rest.len())];
        bytes.0 = &rest[block.len()..];
        blocks.push((block, cap));
    }

    // Decode: liblz4 into one contiguous buffer, every kernel into fresh buffers.
    lz4_simd_fuzz::stream_decode::check_against_liblz4(&dict, &blocks);

    // Compress: the fuzz bytes cut at the block lengths, after the dictionary.
    let prepared = Dictionary::new(&dict);
    let mut ours = StreamCompressor::with_prepared_dictionary(&prepared);
    // `LZ4_loadDict` even of an empty dictionary moves the indices 64 KiB in (no phantom
    // position 0), as attaching one does.
    let mut theirs = SavingStream::new(Stream::with_dict(&dict));
    let mut decoder = StreamDecoder::with_dictionary(&dict);
    for &(input, cap) in &blocks {
        let cap = if cap % 2 == 0 {
            block::compress_bound(input.len())
        } else {
            cap % (input.len() + 1)
        };
        let mut got = vec![0u8; cap];
        let got = ours
            .compress_into(input, &mut got, 1)
            .map(|n| got[..n].to_vec());
        let mut want = vec![0u8; cap.max(1)];
        let n = theirs.compress(input, &mut want[..cap], 1);
        match got {
            Ok(got) => {
                assert!(
                    n > 0 && got == want[..n],
                    "stream block differs from liblz4"
                );
                let mut out = vec![0u8; input.len()];
                let len = decoder.decompress_into(&got, &mut out).unwrap();
                assert!(
                    len == input.len() && out == input,
                    "stream round trip differs"
                );
            }
            Err(Error::OutputTooSmall { .. }) => {
                assert_eq!(n, 0, "liblz4 fit a block we did not");
                // Given up on (a frame stores it raw): still the history, and in this layout
                // the only history the next block sees.
                decoder = StreamDecoder::with_dictionary(input);
            }
            Err(error) => panic!("stream compression failed: {error}"),
        }
    }
});
