//! `block::Dictionary` + `Compressor::compress_into_with_prepared_dictionary` against liblz4 1.10:
//! byte-identical to `LZ4_loadDict` + `LZ4_compress_fast_continue` on a fresh stream (the
//! dictionary in its own buffer), and to `LZ4_attach_dictionary` + `LZ4_compress_fast_continue`,
//! over dictionary sizes around liblz4's edges (under 8 bytes ignored, 64 KiB kept), input sizes
//! around the 13-byte and 4 KiB edges, every acceleration 1 to 20 (sampled) and large ones, one
//! `Dictionary` shared by several threads, and exact / too-small destinations with canaries.
//!
//! liblz4 is called through `testkit::liblz4`.

use lz4_simd::block::{self, Compressor, Dictionary, StreamCompressor};
use lz4_simd::frame::{self, BlockMode, BlockSize, FrameOptions};
use lz4_simd::Error;
use testkit::corpus;
use testkit::liblz4::{self, SavingStream, Stream, Working};
use testkit::liblz4_hc;
use testkit::samples::XorShift as Rng;

/// liblz4's `LZ4_attach_dictionary` path, as LZ4F uses it: a working stream reset with
/// `LZ4_resetStream_fast`, the prepared dictionary stream attached, one `_continue` call.
fn liblz4_attach(
    src: &[u8],
    dict_stream: &Stream,
    working: &mut Working,
    acceleration: i32,
) -> Vec<u8> {
    let mut out = vec![0u8; block::compress_bound(src.len())];
    let n = working.compress_attached(dict_stream, src, &mut out, acceleration);
    assert!(n > 0);
    out.truncate(n);
    out
}

fn ours(src: &[u8], dict: &Dictionary, acceleration: u32) -> Vec<u8> {
    let mut out = vec![0u8; block::compress_bound(src.len())];
    let n = Compressor::new()
        .compress_into_with_prepared_dictionary(src, &mut out, dict, acceleration)
        .unwrap();
    out.truncate(n);
    out
}

/// Text-like bytes: words from a small vocabulary, so that both the dictionary and the input
/// hold many repeats of each other.
fn text(len: usize, seed: u64) -> Vec<u8> {
    const WORDS: [&str; 16] = [
        "the ",
        "lz4 ",
        "block ",
        "dictionary ",
        "page ",
        "record ",
        "GET /api/v1/",
        "user=",
        "id:",
        "\"name\": ",
        "42, ",
        "0x7f, ",
        "ERROR ",
        "INFO ",
        "\n",
        "storage ",
    ];
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut out = Vec::with_capacity(len + 16);
    while out.len() < len {
        out.extend_from_slice(WORDS[rng.below(WORDS.len())].as_bytes());
        if rng.below(8) == 0 {
            out.push(b'a' + rng.below(26) as u8);
        }
    }
    out.truncate(len);
    out
}

/// An input that shares content with `dict`: pieces copied from it (from anywhere, so some from
/// beyond its last 64 KiB), mixed with fresh text and random bytes.
fn related(dict: &[u8], len: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng(seed.wrapping_mul(0xD6E8_FEB8_6659_FD93) | 1);
    let fresh = text(len, seed ^ 0x55);
    let mut out = Vec::with_capacity(len + 64);
    while out.len() < len {
        match rng.below(4) {
            0 | 1 if dict.len() > 8 => {
                let piece = 4 + rng.below(60);
                let at = rng.below(dict.len() - 4);
                out.extend_from_slice(&dict[at..(at + piece).min(dict.len())]);
            }
            2 => {
                let piece = 1 + rng.below(40);
                let at = rng.below(fresh.len().max(1));
                out.extend_from_slice(&fresh[at..(at + piece).min(fresh.len())]);
            }
            _ => out.push(rng.next_u64() as u8),
        }
    }
    out.truncate(len);
    out
}

const KIB: usize = 1024;
const DICT_LENS: [usize; 17] = [
    0,
    1,
    4,
    7,
    8,
    9,
    15,
    100,
    KIB,
    4 * KIB,
    15 * KIB,
    64 * KIB - 1,
    64 * KIB,
    64 * KIB + 1,
    64 * KIB + 3,
    100 * KIB,
    200 * KIB,
];

fn input_lens() -> Vec<usize> {
    let mut lens: Vec<usize> = (0..=20).collect();
    lens.extend([
        100,
        KIB,
        4 * KIB - 1,
        4 * KIB,
        4 * KIB + 1,
        64 * KIB,
        65_547,
    ]);
    lens
}

#[test]
fn identical_to_load_dict_and_continue() {
    let mut compressor = Compressor::new();
    for (d, &dict_len) in DICT_LENS.iter().enumerate() {
        let dict_bytes = text(dict_len, d as u64 + 1);
        let dict = Dictionary::new(&dict_bytes);
        // Every byte is kept, a dictionary under 8 bytes too (the fast compressor ignores it,
        // as `LZ4_loadDict`, which the comparison below checks; HC uses it).
        assert_eq!(
            dict.as_bytes(),
            &dict_bytes[dict_len.saturating_sub(64 * KIB)..]
        );
        for (i, len) in input_lens().into_iter().enumerate() {
            let src = related(&dict_bytes, len, (d * 100 + i) as u64);
            for acceleration in [1u32, 1 + (i as u32 % 20), 2 + (d as u32 % 19)] {
                let want = liblz4::compress_with_dict_cap(
                    &src,
                    &dict_bytes,
                    acceleration as i32,
                    block::compress_bound(len),
                )
                .unwrap();
                // A reused compressor (tables full of another input's positions) and a fresh one.
                let mut out = vec![0u8; block::compress_bound(len)];
                let n = compressor
                    .compress_into_with_prepared_dictionary(&src, &mut out, &dict, acceleration)
                    .unwrap();
                assert_eq!(
                    &out[..n],
                    &want[..],
                    "dict {dict_len}, input {len}, acceleration {acceleration}"
                );
                assert_eq!(ours(&src, &dict, acceleration), want);
                // It decodes with the dictionary.
                let back = block::decompress_with_dictionary(&out[..n], &dict_bytes, len).unwrap();
                assert!(back == src, "dict {dict_len}, input {len}: round trip");
            }
        }
    }
}

#[test]
fn every_acceleration_and_large_ones() {
    let dict_bytes = text(64 * KIB, 7);
    let dict = Dictionary::new(&dict_bytes);
    let src = related(&dict_bytes, 20 * KIB, 8);
    let accelerations = (0u32..=20).chain([31, 64, 100, 1000, 65_536, 65_537, 65_538, u32::MAX]);
    for acceleration in accelerations {
        let c_acceleration = acceleration.min(i32::MAX as u32) as i32;
        for piece in [&src[..KIB], &src[..4 * KIB + 1], &src[..]] {
            let want = liblz4::compress_with_dict_cap(
                piece,
                &dict_bytes,
                c_acceleration,
                block::compress_bound(piece.len()),
            )
            .unwrap();
            assert_eq!(
                ours(piece, &dict, acceleration),
                want,
                "acceleration {acceleration}, input {}",
                piece.len()
            );
        }
    }
}

#[test]
fn identical_to_attach_dictionary() {
    let mut working = Working::new();
    for (d, &dict_len) in DICT_LENS.iter().enumerate() {
        let dict_bytes = text(dict_len, d as u64 + 50);
        let dict_stream = Stream::with_dict(&dict_bytes);
        let dict = Dictionary::new(&dict_bytes);
        for len in [0, 5, 13, 20, KIB, 4 * KIB, 4 * KIB + 1, 64 * KIB] {
            let src = related(&dict_bytes, len, (d * 7 + len) as u64);
            for acceleration in [1, 3, 17] {
                let want = liblz4_attach(&src, &dict_stream, &mut working, acceleration);
                assert_eq!(
                    ours(&src, &dict, acceleration as u32),
                    want,
                    "dict {dict_len}, input {len}, acceleration {acceleration}"
                );
            }
        }
    }
}

#[test]
fn large_inputs_and_silesia() {
    let mut samples: Vec<(String, Vec<u8>)> = Vec::new();
    for name in ["dickens", "xml", "ooffice", "osdb", "reymont"] {
        if let Some(data) = corpus::file(name, 1 << 20) {
            samples.push((name.into(), data));
        }
    }
    if samples.is_empty() {
        eprintln!("NOTICE: Silesia corpus not found; generated data only");
    }
    samples.push(("generated".into(), text(1 << 20, 99)));
    for (name, data) in &samples {
        // The dictionary: the sample's first 100 KiB (the last 64 KiB matter); the inputs follow.
        let (dict_bytes, rest) = data.split_at(100 * KIB);
        let dict = Dictionary::new(dict_bytes);
        for len in [KIB, 4 * KIB, 64 * KIB, rest.len()] {
            let src = &rest[..len];
            for acceleration in [1, 4] {
                let want = liblz4::compress_with_dict_cap(
                    src,
                    dict_bytes,
                    acceleration,
                    block::compress_bound(len),
                )
                .unwrap();
                assert_eq!(
                    ours(src, &dict, acceleration as u32),
                    want,
                    "{name}, input {len}, acceleration {acceleration}"
                );
            }
        }
    }
}

#[test]
fn one_dictionary_shared_by_threads() {
    let dict_bytes = text(80 * KIB, 3);
    let dict = Dictionary::new(&dict_bytes);
    let inputs: Vec<Vec<u8>> = (0..8)
        .map(|i| related(&dict_bytes, 512 + i * 1500, i as u64))
        .collect();
    let wants: Vec<Vec<u8>> = inputs
        .iter()
        .map(|src| {
            liblz4::compress_with_dict_cap(src, &dict_bytes, 1, block::compress_bound(src.len()))
                .unwrap()
        })
        .collect();
    std::thread::scope(|scope| {
        for t in 0..4 {
            let (dict, inputs, wants) = (&dict, &inputs, &wants);
            scope.spawn(move || {
                let mut compressor = Compressor::new();
                for round in 0..20 {
                    let i = (t + round) % inputs.len();
                    let mut out = vec![0u8; block::compress_bound(inputs[i].len())];
                    let n = compressor
                        .compress_into_with_prepared_dictionary(&inputs[i], &mut out, dict, 1)
                        .unwrap();
                    assert_eq!(&out[..n], &wants[i][..], "thread {t}, input {i}");
                }
            });
        }
    });
}

/// Destinations from the exact size down: the same bytes or `OutputTooSmall`, never a byte
/// written past `dst` (canaries); whenever liblz4 succeeds with a capacity, so do we, with the
/// same bytes.
#[test]
fn exact_and_too_small_destinations() {
    const CANARY: u8 = 0xA5;
    let dict_bytes = text(64 * KIB, 11);
    let dict = Dictionary::new(&dict_bytes);
    let mut compressor = Compressor::new();
    for len in [0usize, 1, 12, 13, 14, 20, 100, KIB, 4 * KIB + 1] {
        let src = related(&dict_bytes, len, len as u64);
        let full = ours(&src, &dict, 1);
        let bound = block::compress_bound(len);
        let capacities: Vec<usize> = (0..=full.len() + 2)
            .chain([bound - 1, bound])
            .filter(|&c| c <= bound)
            .collect();
        for cap in capacities {
            let mut buf = vec![CANARY; cap + 32];
            let result =
                compressor.compress_into_with_prepared_dictionary(&src, &mut buf[..cap], &dict, 1);
            assert!(
                buf[cap..].iter().all(|&b| b == CANARY),
                "input {len}, cap {cap}: canary"
            );
            match result {
                Ok(n) => assert_eq!(&buf[..n], &full[..], "input {len}, cap {cap}"),
                Err(Error::OutputTooSmall { .. }) => {
                    assert!(cap < full.len(), "input {len}, cap {cap}")
                }
                Err(e) => panic!("input {len}, cap {cap}: {e}"),
            }
            if let Some(want) = liblz4::compress_with_dict_cap(&src, &dict_bytes, 1, cap) {
                assert_eq!(want, full);
                assert_eq!(
                    result.ok(),
                    Some(full.len()),
                    "liblz4 fits in {cap}, we must"
                );
            }
        }
    }
}

#[test]
fn forms_and_edges() {
    // Send + Sync, cloneable, debug-printable.
    fn shareable<T: Send + Sync + Clone + std::fmt::Debug>(_: &T) {}
    let dict = Dictionary::new(&text(5000, 1));
    shareable(&dict);
    assert!(format!("{dict:?}").contains("5000"));
    // An empty input is the block `00`, with or without dictionary.
    assert_eq!(ours(&[], &dict, 1), [0]);
    let mut out = [0u8; 0];
    assert!(Compressor::new()
        .compress_into_with_prepared_dictionary(&[], &mut out, &dict, 1)
        .is_err());
    // `compress_with_dictionary` keeps working (its own window-based parse).
    let src = text(3000, 2);
    let block = block::compress_with_dictionary(&src, &text(5000, 1), 1).unwrap();
    assert_eq!(
        block::decompress_with_dictionary(&block, &text(5000, 1), 3000).unwrap(),
        src
    );
}

/// Dictionaries under 8 bytes (`Dictionary::MIN_LEN`), as liblz4 treats them: the fast
/// compressor ignores them (`LZ4_loadDict` keeps none: blocks, streams and fast LZ4F frames are
/// those of no dictionary), HC uses every byte (`LZ4_loadDictHC`: LZ4F frames at the HC levels
/// made with the prepared `Dictionary` are LZ4F's with a CDict of those bytes, which an empty
/// `as_bytes()` made them not be).
#[test]
fn tiny_dictionaries_as_liblz4_and_lz4f() {
    let body = text(3000, 77);
    for dict_len in [0usize, 1, 3, 4, 5, 7, 8, 9, 12] {
        // The dictionary is the input's own start, so that HC finds matches in it (each in its
        // own buffer: liblz4 behaves differently when they overlap).
        let (dict_bytes, src) = (body[..dict_len].to_vec(), body[..1500].to_vec());
        let (dict_bytes, src) = (&dict_bytes[..], &src[..]);
        for slow in [false, true] {
            let (dict, dict_stream) = if slow {
                let stream = Stream::with_dict_slow(dict_bytes);
                (Dictionary::new_dense(dict_bytes), stream)
            } else {
                (Dictionary::new(dict_bytes), Stream::with_dict(dict_bytes))
            };
            assert_eq!(dict.as_bytes(), dict_bytes);
            // Fast blocks: `LZ4_loadDict[Slow]` + `LZ4_attach_dictionary` + `_continue`.
            let want = liblz4_attach(src, &dict_stream, &mut Working::new(), 1);
            assert_eq!(ours(src, &dict, 1), want, "dict {dict_len}: block");
            if dict_len < 8 {
                assert_eq!(want, liblz4::compress_with_dictionary(src, &[]));
            }
            // A stream with the dictionary attached.
            let theirs_stream = if slow {
                Stream::with_dict_slow(dict_bytes)
            } else {
                Stream::with_dict(dict_bytes)
            };
            let mut theirs = SavingStream::new(theirs_stream);
            let mut stream = StreamCompressor::with_prepared_dictionary(&dict);
            for piece in src.chunks(600) {
                let mut a = vec![0u8; block::compress_bound(piece.len())];
                let mut b = a.clone();
                let n = stream.compress_into(piece, &mut a, 1).unwrap();
                let m = theirs.compress(piece, &mut b, 1);
                assert_eq!(a[..n], b[..m], "dict {dict_len}: stream");
            }
            for linked in [false, true] {
                let mode = if linked {
                    BlockMode::Linked
                } else {
                    BlockMode::Independent
                };
                let options = FrameOptions::new()
                    .block_size(BlockSize::Max64KB)
                    .block_mode(mode);
                // HC frames: LZ4F with a CDict of the bytes (the `lz4` tool's `-# -D`).
                for level in [3u8, 9, 12] {
                    let theirs =
                        liblz4_hc::lz4_tool_frame_with_dict(src, dict_bytes, level, linked, false);
                    let options = options.clone().hc_level(Some(level));
                    let ours = frame::compress_with_prepared_dictionary(src, &dict, &options);
                    assert!(
                        ours == theirs,
                        "dict {dict_len}, level {level}, linked {linked}: HC frame"
                    );
                    assert_eq!(
                        ours,
                        frame::compress_with_dictionary(src, dict_bytes, &options)
                    );
                    let back = frame::decompress_with_dictionary(&ours, dict.as_bytes(), 0, 2000);
                    assert_eq!(back.unwrap(), src);
                }
                // Fast frames: LZ4F 1.10 with a CDict (`LZ4_loadDictSlow`, which ignores the
                // bytes too).
                let preferences = liblz4::fast_frame_preferences(4, linked, 1);
                let theirs = liblz4_hc::compress_frame_cdict(src, dict_bytes, &preferences);
                let ours = frame::compress_with_prepared_dictionary(src, &dict, &options);
                if slow {
                    assert!(
                        ours == theirs,
                        "dict {dict_len}, linked {linked}: fast frame"
                    );
                }
                let back = frame::decompress_with_dictionary(&ours, dict.as_bytes(), 0, 2000);
                assert_eq!(back.unwrap(), src);
            }
        }
    }
}
