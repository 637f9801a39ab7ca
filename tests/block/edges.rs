//! Edges of three block-level paths, each against an oracle:
//!
//! - dictionary messages around the 4 KiB line where the compressor switches from the cleared
//!   8 KiB `u16` working table (the dictionary's table consulted in place) to a copy of the
//!   dictionary's table, on inputs whose positions collide in the table (runs, short periods,
//!   pieces of the dictionary), against `LZ4_loadDict` + `_continue` and `LZ4_attach_dictionary`;
//! - `StreamDecoder`'s bounded buffer over a long stream with bad blocks in it (the stream goes
//!   on after each), blocks that need the second attempt, and a dictionary, against the one-shot
//!   decoder given the same history and output cap;
//! - blocks built from literal runs (14, 15, 16, 63-65, 270 bytes) and matches at offsets 1-64
//!   right up to the block's end, with every kernel, into exact, short and oversized outputs
//!   with guards, against liblz4 and the bytes the block builder tracked.

use lz4_simd::block::{self, Compressor, Dictionary, StreamCompressor, StreamDecoder};
use lz4_simd::Kernel;
use testkit::block_builder::BlockBuilder;
use testkit::kernels::{self, Setup};
use testkit::liblz4::{self, Stream, Working};
use testkit::samples::{self, Rng};

const KIB: usize = 1 << 10;

/// An input of `len` bytes of `kind`, with pieces of `dict` where the kind takes them.
fn input(kind: usize, len: usize, dict: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut out = Vec::with_capacity(len + 64);
    match kind {
        0 => out.resize(len, 0),
        1 => out.extend((0..len).map(|i| b"abc"[i % 3])),
        2 => out = rng.bytes(len),
        3 => {
            // Pieces of the dictionary (its end above all, where matches are nearest), edited.
            while out.len() < len {
                if dict.len() > 16 {
                    let from = if rng.below(2) == 0 {
                        dict.len() - 1 - rng.below(dict.len().min(300) as u64 - 8) as usize
                    } else {
                        rng.below(dict.len() as u64 - 8) as usize
                    };
                    let take = (rng.below(200) as usize + 4).min(dict.len() - from);
                    out.extend_from_slice(&dict[from..from + take]);
                }
                out.push(rng.below(256) as u8);
            }
        }
        _ => out = samples::runs(len, 40, rng),
    }
    out.truncate(len);
    out
}

#[test]
fn dictionary_messages_around_4_kib_are_liblz4s() {
    let mut rng = Rng::new(77);
    let base = samples::text(70 * KIB, &mut rng);
    let mut reused = Compressor::new();
    let mut working = Working::new();
    for dict_len in [8, 9, 13, 100, 4 * KIB, 64 * KIB - 1, 64 * KIB, 70 * KIB] {
        let dict_bytes = &base[base.len() - dict_len..];
        let dict = Dictionary::new(dict_bytes);
        let dict_stream = Stream::with_dict(dict_bytes);
        for len in (4090..=4100).chain([0, 1, 12, 13, 2048, 8192]) {
            for kind in 0..5 {
                let src = input(kind, len, dict_bytes, &mut rng);
                for acceleration in [1, 2, 9] {
                    let what = format!(
                        "dict {dict_len}, input {len} of kind {kind}, acceleration {acceleration}"
                    );
                    let bound = block::compress_bound(len);
                    let want =
                        liblz4::compress_with_dict_cap(&src, dict_bytes, acceleration, bound)
                            .unwrap();
                    let mut attached = vec![0u8; bound.max(1)];
                    let n = working.compress_attached(
                        &dict_stream,
                        &src,
                        &mut attached[..bound],
                        acceleration,
                    );
                    assert_eq!(&attached[..n], &want[..], "{what}: liblz4's two modes");
                    let mut out = vec![0u8; bound];
                    let n = reused
                        .compress_into_with_prepared_dictionary(
                            &src,
                            &mut out,
                            &dict,
                            acceleration as u32,
                        )
                        .unwrap();
                    assert_eq!(&out[..n], &want[..], "{what}");
                    // One byte short of the output: liblz4 gives up, and so do we.
                    if !want.is_empty() {
                        let short = reused.compress_into_with_prepared_dictionary(
                            &src,
                            &mut out[..want.len() - 1],
                            &dict,
                            acceleration as u32,
                        );
                        assert!(short.is_err(), "{what}: one byte short");
                    }
                    assert_eq!(
                        block::decompress_with_dictionary(&want, dict_bytes, len).unwrap(),
                        src,
                        "{what}: round trip"
                    );
                }
            }
        }
    }
}

/// The one-shot decoder's verdict for `block` with `history` (its last 64 KiB) in front and an
/// output cap of `cap`.
fn one_shot(block: &[u8], history: &[u8], cap: usize) -> (Result<usize, lz4_simd::Error>, Vec<u8>) {
    let history = &history[history.len().saturating_sub(64 * KIB)..];
    let mut dst = vec![0u8; cap];
    let result = block::decompress_into_with_dictionary(block, &mut dst, history);
    let out = result.as_ref().map_or(Vec::new(), |&n| dst[..n].to_vec());
    (result, out)
}

/// A long stream of blocks of mixed sizes (many far above 64 KiB, so the buffer grows, shrinks
/// back and slides), each block decoded into a destination of a random size (exact, a byte
/// short, far larger), with bad blocks between them (corrupt, truncated, too little room, a
/// match before the history): every call gives the one-shot decoder's verdict and bytes, a
/// failed call leaves `dst` and the history as they were, and the stream goes on.
#[test]
fn stream_decoder_goes_on_after_errors_with_the_one_shot_verdict() {
    let mut rng = Rng::new(5);
    let pool = samples::text(1 << 20, &mut rng);
    for dict_len in [0, 5000, 64 * KIB + 3] {
        let dict_bytes = &pool[pool.len() - dict_len..];
        let dict = Dictionary::new(dict_bytes);
        let mut compressor = if dict_len > 0 {
            StreamCompressor::with_prepared_dictionary(&dict)
        } else {
            StreamCompressor::new()
        };
        let mut decoder = StreamDecoder::with_dictionary(dict_bytes);
        let mut history = dict_bytes.to_vec();
        let mut decoded_blocks = 0;
        for step in 0..70 {
            let len = match rng.below(5) {
                0 => rng.below(20) as usize,
                1 => rng.below(5000) as usize,
                2 => 64 * KIB + rng.below(3) as usize - 1,
                _ => rng.below(400_000) as usize + 66_000,
            };
            let from = rng.below((pool.len() - len) as u64) as usize;
            let src = &pool[from..from + len];
            let mut block = vec![0u8; block::compress_bound(len)];
            let n = compressor.compress_into(src, &mut block, 1).unwrap();
            block.truncate(n);
            let mut bad = block.clone();
            let bad_kind = rng.below(6);
            match bad_kind {
                0 if n > 2 => {
                    let at = rng.below(n as u64) as usize;
                    bad[at] ^= 1 << rng.below(8);
                }
                1 if n > 2 => bad.truncate(n - 1 - rng.below(n as u64 / 2) as usize),
                2 => {
                    // A literal-free match at the largest offset, after the history.
                    bad = vec![0x0F, 0xFF, 0xFF, 0x10, b'x'];
                }
                _ => {}
            }
            let cap = match rng.below(4) {
                0 => len,
                1 => len.saturating_sub(1),
                2 => len + rng.below(100) as usize,
                _ => len + 300_000,
            };
            for (what, block) in [("bad", &bad), ("good", &block)] {
                let want = one_shot(block, &history, cap);
                let mut dst = vec![0xC3u8; cap + 32];
                let got = decoder.decompress_into(block, &mut dst[..cap]);
                let context =
                    format!("dict {dict_len}, step {step}, {what} block of {len} into {cap}");
                assert_eq!(got, want.0, "{context}: the verdict");
                assert!(dst[cap..].iter().all(|&b| b == 0xC3), "{context}: past dst");
                match got {
                    Ok(written) => {
                        assert_eq!(Ok(written), want.0, "{context}");
                        assert!(dst[..written] == want.1[..], "{context}: bytes");
                        history.extend_from_slice(&dst[..written]);
                        decoded_blocks += 1;
                    }
                    Err(_) => assert!(dst.iter().all(|&b| b == 0xC3), "{context}: dst touched"),
                }
                if what == "good" && cap < len {
                    // The good block did not fit: it comes again with room, as a caller does.
                    // (Against the one-shot decoder: a corrupt block the decoder accepted
                    // went into the history, which the compressor does not know.)
                    let want = one_shot(block, &history, len);
                    let mut dst = vec![0u8; len];
                    let got = decoder.decompress_into(block, &mut dst);
                    assert_eq!(got, want.0, "{context}: again with room");
                    if let Ok(written) = got {
                        assert!(dst[..written] == want.1[..], "{context}: again with room");
                        history.extend_from_slice(&dst[..written]);
                    }
                }
            }
            // The history is all a block can reference: keep the test's copy short.
            if history.len() > 4 << 20 {
                history.drain(..history.len() - 64 * KIB);
            }
        }
        assert!(
            decoded_blocks > 50,
            "dict {dict_len}: {decoded_blocks} blocks decoded"
        );
    }
}

/// Literal run lengths at the edges of the token nibble, the 16-byte and 64-byte copies, and
/// an extension byte of 255.
const LITERAL_LENS: [usize; 20] = [
    0, 1, 7, 8, 13, 14, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 270, 300,
];
const MATCH_LENS: [usize; 16] = [
    4, 5, 7, 8, 15, 16, 18, 19, 20, 32, 36, 64, 65, 100, 270, 1000,
];

/// A block of 1-4 sequences with lengths and offsets from the edges, its last literals (0-70
/// bytes: blocks without liblz4's end margins too).
fn edge_block(rng: &mut Rng) -> (Vec<u8>, Vec<u8>) {
    let mut builder = BlockBuilder::default();
    let sequences = rng.below(4) + 1;
    for s in 0..sequences {
        let literals = *rng.pick(&LITERAL_LENS);
        let literals = if s == 0 { literals.max(1) } else { literals };
        builder.sequence(&rng.bytes(literals), 1, 4);
        // The match above is a filler so every offset up to 64 is in reach; now the real one.
        let reach = builder.decoded.len().min(64);
        let offset = rng.below(reach as u64) as usize + 1;
        let match_len = *rng.pick(&MATCH_LENS);
        let literals = *rng.pick(&LITERAL_LENS);
        builder.sequence(&rng.bytes(literals), offset, match_len);
    }
    let last = match rng.below(3) {
        0 => rng.below(6) as usize,
        1 => rng.below(20) as usize,
        _ => *rng.pick(&LITERAL_LENS),
    };
    builder.finish(&rng.bytes(last))
}

/// Every kernel on blocks built at the edges, into outputs from a few bytes short to 64 bytes
/// over the exact size (guards on both sides, the input surrounded by other bytes, uninitialised
/// memory): the built bytes or an error exactly when they do not fit, and liblz4's bytes
/// whenever liblz4 accepts the block.
#[test]
fn edge_blocks_with_every_kernel_near_the_end_of_the_output() {
    let mut rng = Rng::new(1234);
    let available = kernels::under_test();
    for i in 0..1500 {
        let (block, decoded) = edge_block(&mut rng);
        let exact = decoded.len();
        for cap in [
            exact.saturating_sub(5),
            exact - exact.min(1),
            exact,
            exact + 1,
            exact + 15,
            exact + 64,
        ] {
            let liblz4 = liblz4::decompress_safe(&block, cap);
            for &kernel in &available {
                let what = format!("block {i} ({} bytes out), {kernel}, cap {cap}", exact);
                for setup in [
                    Setup::plain(kernel, 0xE7),
                    Setup {
                        kernel,
                        around_src: Some(0x00),
                        fill: 0x3C,
                        uninit: true,
                    },
                ] {
                    let (result, out) = kernels::decode_guarded(setup, &block, cap, 3)
                        .unwrap_or_else(|breach| panic!("{what}: {breach}"));
                    if cap >= exact {
                        assert_eq!(result, Ok(exact), "{what} ({setup:?})");
                        assert!(out == decoded, "{what} ({setup:?}): bytes");
                    } else {
                        assert!(result.is_err(), "{what} ({setup:?}): {result:?}");
                    }
                    if let Some(want) = &liblz4 {
                        assert!(*want == out, "{what} ({setup:?}): liblz4 accepts");
                    }
                }
                let exact_size = kernels::decode_exact(kernel, &block, cap, None);
                if cap >= exact {
                    assert_eq!(exact_size.0, Ok(exact), "{what}: exact-size uninit");
                    assert!(exact_size.1 == decoded, "{what}: exact-size uninit bytes");
                } else {
                    assert!(exact_size.0.is_err(), "{what}: exact-size uninit");
                }
            }
        }
    }
    assert!(available.contains(&Kernel::Scalar));
}

/// Random dictionary messages (dictionaries of 0-70,000 bytes, inputs of 0-9,000 bytes with
/// runs, repeats and pieces of the dictionary, any acceleration, destinations of any size up to
/// the bound) through one reused compressor: liblz4's bytes, or an error exactly when liblz4
/// does not fit.
#[test]
fn random_dictionary_messages_through_one_compressor() {
    let mut rng = Rng::new(2024);
    let base = samples::text(70 * KIB, &mut rng);
    let mut reused = Compressor::new();
    for i in 0..3000 {
        let dict_len = match rng.below(4) {
            0 => rng.below(20) as usize,
            1 => rng.below(5000) as usize,
            2 => 64 * KIB,
            _ => rng.below(70_000) as usize,
        };
        let dict_bytes = &base[base.len() - dict_len..];
        let dict = Dictionary::new(dict_bytes);
        let len = match rng.below(3) {
            0 => rng.below(30) as usize,
            1 => 4080 + rng.below(30) as usize,
            _ => rng.below(9000) as usize,
        };
        let mut src = Vec::new();
        while src.len() < len {
            match rng.below(4) {
                0 if dict_len > 20 => {
                    let from = rng.below(dict_len as u64 - 10) as usize;
                    let take = (rng.below(100) as usize + 4).min(dict_len - from);
                    src.extend_from_slice(&dict_bytes[from..from + take]);
                }
                1 => {
                    let byte = rng.below(256) as u8;
                    let run = rng.below(50) as usize;
                    src.extend(std::iter::repeat_n(byte, run));
                }
                2 if !src.is_empty() => {
                    let from = rng.below(src.len() as u64) as usize;
                    let take = (rng.below(60) as usize + 1).min(src.len() - from);
                    src.extend_from_within(from..from + take);
                }
                _ => {
                    let count = rng.below(20) as usize;
                    src.extend(rng.bytes(count));
                }
            }
        }
        src.truncate(len);
        let acceleration = *rng.pick(&[1, 1, 2, 5, 17, 65_537]);
        let bound = block::compress_bound(len);
        let cap = if rng.below(3) == 0 {
            rng.below(bound as u64 + 1) as usize
        } else {
            bound
        };
        let want = liblz4::compress_with_dict_cap(&src, dict_bytes, acceleration, cap);
        let mut out = vec![0u8; cap];
        let got = reused.compress_into_with_prepared_dictionary(
            &src,
            &mut out,
            &dict,
            acceleration as u32,
        );
        let what = format!(
            "message {i}: dict {dict_len}, input {len}, acceleration {acceleration}, cap {cap}"
        );
        match (want, got) {
            (Some(want), Ok(n)) => assert_eq!(&out[..n], &want[..], "{what}"),
            (None, Err(_)) => {}
            (want, got) => panic!(
                "{what}: liblz4 {:?} bytes, ours {got:?}",
                want.map(|w| w.len())
            ),
        }
    }
}
