//! `block::decompress_into_with_dictionary` (dictionary in its own buffer, never copied) against
//! liblz4's `LZ4_decompress_safe_usingDict`, against our own decode with the dictionary placed in
//! front of the output (`decompress_into_with_history`, which defines the verdicts), and across
//! every available kernel: dictionaries of 0, 1, 15, 64 KiB and 100 KiB, matches that straddle
//! the dictionary and the output, offsets 1-64 at the boundary, corrupt and truncated blocks,
//! canaries after `dst`.

use lz4_simd::block::{self, Decoder};
use lz4_simd::{Error, Kernel};
use testkit::parse::encode_block;
use testkit::samples::XorShift as Rng;

/// liblz4's decode with `dict` in its own buffer (extDict mode: `dst` is a separate allocation,
/// so it never directly follows `dict`), or `None` for its error.
fn liblz4_with_dict(src: &[u8], capacity: usize, dict: &[u8]) -> Option<Vec<u8>> {
    testkit::liblz4::decompress_with_dictionary(src, dict, capacity)
}

const CANARY: usize = 64;

fn decoders() -> Vec<Decoder> {
    Kernel::available()
        .into_iter()
        .map(|kernel| Decoder::with_kernel(kernel).unwrap())
        .collect()
}

/// Our decode with `decoder` into `capacity` bytes (pre-filled with `fill`, canaries after).
fn ours(
    decoder: Decoder,
    src: &[u8],
    capacity: usize,
    dict: &[u8],
    fill: u8,
) -> Result<Vec<u8>, Error> {
    let mut buf = vec![fill; capacity + CANARY];
    let result = decoder.decompress_into_with_dictionary(src, &mut buf[..capacity], dict);
    assert!(
        buf[capacity..].iter().all(|&b| b == fill),
        "{:?} wrote past dst",
        decoder.kernel()
    );
    result.map(|n| buf[..n].to_vec())
}

/// The definition: the dictionary's last 64 KiB in front of the output.
fn with_history(src: &[u8], capacity: usize, dict: &[u8]) -> Result<Vec<u8>, Error> {
    let history = &dict[dict.len().saturating_sub(block::MAX_HISTORY)..];
    let mut buf = history.to_vec();
    buf.resize(history.len() + capacity, 0);
    let n = Decoder::with_kernel(Kernel::Scalar)
        .unwrap()
        .decompress_into_with_history(src, &mut buf, history.len())?;
    Ok(buf[history.len()..history.len() + n].to_vec())
}

/// Every kernel and fill agree with the definition (verdict and output); a block liblz4 accepts
/// we accept with the same output (offset 0 aside); `valid` blocks liblz4 must accept.
fn check(decoders: &[Decoder], src: &[u8], capacity: usize, dict: &[u8], valid: bool) {
    let expected = with_history(src, capacity, dict);
    for &decoder in decoders {
        for fill in [0x00, 0x5A] {
            let got = ours(decoder, src, capacity, dict, fill);
            assert_eq!(
                got.as_ref().map_err(|_| ()),
                expected.as_ref().map_err(|_| ()),
                "{:?} differs from the definition: dict {} bytes, capacity {capacity}, block {src:02x?}",
                decoder.kernel(),
                dict.len()
            );
        }
    }
    let theirs = liblz4_with_dict(src, capacity, dict);
    if valid {
        assert!(theirs.is_some(), "liblz4 rejects a valid block");
    }
    if let Some(theirs) = theirs {
        match &expected {
            Ok(ours) => assert_eq!(ours, &theirs, "output differs from liblz4"),
            Err(Error::OffsetZero { .. }) => {}
            Err(e) => panic!(
                "liblz4 accepts, we reject: {e}; dict {}, cap {capacity}, block {src:02x?}",
                dict.len()
            ),
        }
    }
    // The Vec form gives the same.
    let vec = block::decompress_with_dictionary(src, dict, capacity);
    assert_eq!(vec.map_err(|_| ()), expected.map_err(|_| ()));
}

/// Text made of phrases, so a message shares many strings with a dictionary of the same kind.
fn phrases(len: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng(seed | 1);
    let words: [&[u8]; 8] = [
        b"\"user_id\": ",
        b"\"name\": \"",
        b"\"timestamp\": 17",
        b"\"status\": \"ok\", ",
        b"GET /api/v1/items/",
        b" HTTP/1.1\r\n",
        b"aaaaaaaaaaaaaaaaaaaa",
        b"}, {",
    ];
    let mut out = Vec::with_capacity(len + 32);
    while out.len() < len {
        if rng.below(4) == 0 {
            out.push(b'0' + rng.below(10) as u8);
        } else {
            out.extend_from_slice(words[rng.below(words.len())]);
        }
    }
    out.truncate(len);
    out
}

const DICT_SIZES: [usize; 6] = [0, 1, 15, 4096, 64 << 10, 100 << 10];

#[test]
fn compressed_with_the_dictionary() {
    let decoders = decoders();
    for (i, &dict_len) in DICT_SIZES.iter().enumerate() {
        let dict = phrases(dict_len, 100 + i as u64);
        for len in [0, 1, 10, 100, 1000, 4096, 70_000] {
            let data = phrases(len, len as u64 + 3);
            let src = block::compress_with_dictionary(&data, &dict, 1).unwrap();
            for capacity in [len, len + 1, len + 100] {
                check(&decoders, &src, capacity, &dict, true);
            }
            if len > 0 {
                check(&decoders, &src, len - 1, &dict, false);
            }
            // Decoded with the free functions and the Vec form.
            let mut out = vec![0u8; len];
            assert_eq!(
                block::decompress_into_with_dictionary(&src, &mut out, &dict).unwrap(),
                len
            );
            assert_eq!(out, data);
            assert_eq!(
                block::decompress_with_dictionary(&src, &dict, len).unwrap(),
                data
            );
        }
    }
}

/// Encodes a block from (literals, offset, match length) sequences and final literals.
fn encode(sequences: &[(&[u8], usize, usize)], last: &[u8]) -> Vec<u8> {
    encode_block(sequences, last, 0)
}

#[test]
fn matches_straddling_the_boundary() {
    let decoders = decoders();
    let text: Vec<u8> = (0..400u32).map(|i| (i * 11 + i / 7) as u8).collect();
    let tail = &text[100..120];
    for dict_len in [1usize, 15, 64, 200, 64 << 10, 100 << 10] {
        let dict: Vec<u8> = (0..dict_len).map(|i| (i * 31 + i / 5) as u8).collect();
        for literal_len in [0usize, 1, 5, 14, 15, 40] {
            let literals = &text[..literal_len];
            for offset in (1..=64).chain([65, 100, 1000, 65535]) {
                for match_len in [4, 5, 8, 15, 18, 19, 32, 64, 100, 270] {
                    // The first match (after `literal_len` literals) reaches `offset` back:
                    // into the dictionary when offset > literal_len, straddling it when the
                    // match is longer than what is left there. A second one repeats it from the
                    // output, a third at the same offset further on.
                    let src = encode(
                        &[
                            (literals, offset, match_len),
                            (&text[200..203], offset, match_len),
                            (&text[..0], offset.min(7), 20),
                        ],
                        tail,
                    );
                    let total = literal_len + match_len + 3 + match_len + 20 + tail.len();
                    let valid = offset <= literal_len + dict_len;
                    for capacity in [total, total + 40] {
                        check(&decoders, &src, capacity, &dict, valid);
                    }
                }
            }
        }
    }
}

#[test]
fn corrupt_and_truncated_blocks() {
    let decoders = decoders();
    let mut rng = Rng(0xd1c7);
    for &dict_len in &DICT_SIZES {
        let dict = phrases(dict_len, dict_len as u64);
        for len in [30, 500, 3000] {
            let data = phrases(len, len as u64 + dict_len as u64);
            let src = block::compress_with_dictionary(&data, &dict, 1).unwrap();
            for round in 0..150 {
                let mut bad = src.clone();
                for _ in 0..1 + round % 3 {
                    let pos = rng.below(bad.len());
                    bad[pos] = rng.next_u64() as u8;
                }
                let cut = rng.below(bad.len() + 1);
                check(&decoders, &bad, len, &dict, false);
                check(&decoders, &bad[..cut], len + 30, &dict, false);
                check(&decoders, &src[..cut], len, &dict, false);
            }
        }
    }
}

#[test]
fn reaching_before_the_dictionary_is_an_error() {
    let dict = b"0123456789";
    // Offset 11 with a 10-byte dictionary and no output yet.
    let src = encode(&[(&[], 11, 4)], b"abcde");
    let mut out = [0u8; 32];
    for decoder in decoders() {
        assert!(matches!(
            decoder.decompress_into_with_dictionary(&src, &mut out, dict),
            Err(Error::OffsetBeforeStart { offset: 11, .. })
        ));
        // Offset 10 reaches the dictionary's first byte.
        let src = encode(&[(&[], 10, 4)], b"abcde");
        assert_eq!(
            decoder.decompress_into_with_dictionary(&src, &mut out, dict),
            Ok(9)
        );
        assert_eq!(&out[..9], b"0123abcde");
    }
}
