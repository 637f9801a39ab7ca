//! The stream-decode check `decode_stream` and `decode_stream_large` share: a series of blocks
//! decoded by liblz4's `LZ4_decompress_safe_continue` into one contiguous buffer and by every
//! kernel's `StreamDecoder` into fresh buffers.

use lz4_simd::block::{Decoder, StreamDecoder};
use lz4_simd::{Error, Kernel};
use testkit::liblz4::StreamDecode;

const GUARD: usize = 32;

/// A dictionary of one of `sizes` bytes (chosen by the next fuzz byte), of a fixed pattern.
pub fn dictionary(bytes: &mut crate::Bytes<'_>, sizes: &[usize]) -> Vec<u8> {
    let len = sizes[usize::from(bytes.u8()) % sizes.len()];
    (0..len)
        .map(|i| (i * 7 / 5) as u8 ^ (i >> 9) as u8)
        .collect()
}

/// Decodes `blocks` (each with its output capacity) after `dict` with liblz4 and with every
/// kernel's `StreamDecoder` (each into a buffer pre-filled with its own byte, guard bytes
/// after). All kernels must agree and write nothing past `dst`, and nothing at all for a
/// failed block; where liblz4 accepts a block we accept it with the same output (offset 0
/// aside: liblz4 accepts it, we return `Error::OffsetZero`); where it rejects one we may accept
/// it only by lacking liblz4's end-of-block margins (they are checked against the buffer
/// size). The series stops at the first block where the verdicts differ (the histories would
/// differ after it).
pub fn check_against_liblz4(dict: &[u8], blocks: &[(&[u8], usize)]) {
    let total: usize = blocks.iter().map(|&(_, cap)| cap).sum();
    let mut contiguous = vec![0u8; total + 1];
    let mut theirs = StreamDecode::new(dict);
    let mut decoders: Vec<StreamDecoder> = Kernel::available()
        .into_iter()
        .map(|kernel| {
            StreamDecoder::with_dictionary(dict).with_decoder(Decoder::with_kernel(kernel).unwrap())
        })
        .collect();
    let mut at = 0;
    for &(block, cap) in blocks {
        let want = theirs
            .decompress(block, &mut contiguous[at..at + cap])
            .map(|n| contiguous[at..at + n].to_vec());
        let mut first: Option<Result<Vec<u8>, Error>> = None;
        for (index, decoder) in decoders.iter_mut().enumerate() {
            let fill = 0xA5 ^ index as u8;
            let mut buf = vec![fill; cap + GUARD];
            let got = decoder
                .decompress_into(block, &mut buf[..cap])
                .map(|n| buf[..n].to_vec());
            assert!(buf[cap..].iter().all(|&b| b == fill), "wrote past dst");
            if got.is_err() {
                assert!(
                    buf.iter().all(|&b| b == fill),
                    "a failed block wrote to dst"
                );
            }
            match &first {
                None => first = Some(got),
                Some(first) => assert_eq!(
                    got.as_ref().map_err(|_| ()),
                    first.as_ref().map_err(|_| ()),
                    "kernels differ"
                ),
            }
        }
        let ours = first.expect("the scalar kernel is always available");
        match (&ours, &want) {
            (Ok(ours), Some(want)) => {
                assert!(ours == want, "output differs from liblz4");
                at += want.len();
            }
            (Err(_), None) => {}
            (Err(Error::OffsetZero { .. }), Some(_)) | (Ok(_), None) => break,
            (Err(error), Some(_)) => panic!("liblz4 accepts a block we reject: {error}"),
        }
    }
}
