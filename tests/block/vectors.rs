//! Exact byte vectors for the block compressor and decoder.

use lz4_simd::block;

const ABC_END: &[u8] = b"abcabcabcabcabcabcabcabc-end!";

#[test]
fn abc_end_vector() {
    assert_eq!(ABC_END.len(), 29);
    let expected = [
        0x3f, 0x61, 0x62, 0x63, 0x03, 0x00, 0x02, 0x50, 0x2d, 0x65, 0x6e, 0x64, 0x21,
    ];
    assert_eq!(block::compress(ABC_END).unwrap(), expected);
    assert_eq!(block::decompress(&expected, 29).unwrap(), ABC_END);
}

#[test]
fn abc_times_ten_vector() {
    let input = b"abc".repeat(10);
    let expected = [
        0x3f, 0x61, 0x62, 0x63, 0x03, 0x00, 0x03, 0x50, 0x62, 0x63, 0x61, 0x62, 0x63,
    ];
    assert_eq!(block::compress(&input).unwrap(), expected);
    assert_eq!(block::decompress(&expected, 30).unwrap(), input);
}

#[test]
fn empty_input_vector() {
    assert_eq!(block::compress(b"").unwrap(), [0x00]);
    assert_eq!(block::decompress(&[0x00], 0).unwrap(), b"");
    assert_eq!(block::decompress(&[0x00], 100).unwrap(), b"");
    assert_eq!(block::compress_prepend_size(b"").unwrap(), [0, 0, 0, 0, 0]);
}

#[test]
fn prepended_vector() {
    let prefixed = block::compress_prepend_size(ABC_END).unwrap();
    assert_eq!(&prefixed[..4], &[0x1d, 0x00, 0x00, 0x00]);
    assert_eq!(&prefixed[4..], &block::compress(ABC_END).unwrap()[..]);
    assert_eq!(
        block::decompress_size_prepended(&prefixed, 29).unwrap(),
        ABC_END
    );
}

#[test]
fn compress_bound_formula() {
    for len in [
        0usize,
        1,
        254,
        255,
        256,
        65536,
        1 << 20,
        block::MAX_INPUT_SIZE,
    ] {
        assert_eq!(block::compress_bound(len), len + len / 255 + 16);
    }
    // Never 0 (liblz4 returns 0 above MAX_INPUT_SIZE): the formula, then saturation; the
    // compressors refuse such inputs themselves.
    let above = block::MAX_INPUT_SIZE + 1;
    assert_eq!(block::compress_bound(above), above + above / 255 + 16);
    assert_eq!(block::compress_bound(usize::MAX), usize::MAX);
    assert_eq!(block::compress_bound(usize::MAX - 20), usize::MAX);
}
