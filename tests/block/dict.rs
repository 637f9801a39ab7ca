//! Blocks with history: `compress_with_dictionary` / `decompress_with_dictionary`, the
//! `Compressor`'s history entry point, and `decompress_into_with_history` on every kernel, checked
//! against liblz4's dictionary decoder (`LZ4_decompress_safe_usingDict`) and its streaming
//! compressor.

use lz4_simd::block::{self, Compressor, MAX_HISTORY};
use lz4_simd::Kernel;
use testkit::parse::parse_block;
use testkit::samples::{generated, GENERATED_KINDS};
use testkit::{liblz4, Rng};

/// Pairs of (dictionary, data that shares content with it).
fn cases() -> Vec<(String, Vec<u8>, Vec<u8>)> {
    let mut cases = Vec::new();
    for kind in GENERATED_KINDS {
        for (dict_len, data_len) in [
            (0, 1000),
            (1, 20),
            (7, 13),
            (100, 0),
            (100, 12),
            (100, 13),
            (5000, 5000),
            (MAX_HISTORY - 1, 3000),
            (MAX_HISTORY, 70_000),
            (MAX_HISTORY + 4000, 2000),
            (200_000, 100_000),
        ] {
            let all = generated(kind, dict_len + data_len, dict_len as u64 + 7);
            let (dict, data) = all.split_at(dict_len);
            cases.push((
                format!("{kind} dict {dict_len} data {data_len}"),
                dict.to_vec(),
                data.to_vec(),
            ));
        }
    }
    // Data that repeats a dictionary from far back: only the last 64 KiB of it can be used.
    let mut rng = Rng::new(99);
    let dict = rng.bytes(3 * MAX_HISTORY);
    let mut data = dict[..2000].to_vec();
    data.extend_from_slice(&dict[dict.len() - 3000..]);
    data.extend_from_slice(&dict[dict.len() - MAX_HISTORY..dict.len() - MAX_HISTORY + 500]);
    cases.push(("far and near dictionary repeats".into(), dict, data));
    cases
}

#[test]
fn empty_dict_is_plain_compression() {
    for kind in GENERATED_KINDS {
        for len in [0, 1, 12, 13, 100, 65_546, 65_547, 200_000] {
            let data = generated(kind, len, 3);
            assert_eq!(
                block::compress_with_dictionary(&data, &[], 1).unwrap(),
                block::compress(&data).unwrap(),
                "{kind} {len}"
            );
            let mut out = vec![0u8; block::compress_bound(len)];
            let n = Compressor::new()
                .compress_into_with_history(&data, 0, &mut out, 4)
                .unwrap();
            assert_eq!(
                &out[..n],
                &block::compress_fast(&data, 4).unwrap()[..],
                "{kind} {len}"
            );
        }
    }
}

#[test]
fn dict_blocks_round_trip_everywhere() {
    let kernels = Kernel::available();
    let mut compressor = Compressor::new();
    for (name, dict, data) in cases() {
        let compressed = block::compress_with_dictionary(&data, &dict, 1).unwrap();
        // The history entry point on a contiguous window gives the same bytes, reused state too.
        let mut window = dict.clone();
        window.extend_from_slice(&data);
        let mut out = vec![0u8; block::compress_bound(data.len())];
        let n = compressor
            .compress_into_with_history(&window, dict.len(), &mut out, 1)
            .unwrap();
        assert_eq!(&out[..n], &compressed[..], "{name}: history entry point");

        // Every offset stays within the data plus the last 64 KiB of dictionary.
        let parsed = parse_block(&compressed);
        assert!(parsed.is_complete(), "{name}");
        let reach = dict.len().min(MAX_HISTORY);
        for seq in parsed.matches() {
            let offset = seq.offset.unwrap();
            assert!(offset >= 1 && offset <= seq.match_start() + reach, "{name}");
        }

        assert_eq!(
            block::decompress_with_dictionary(&compressed, &dict, data.len()).unwrap(),
            data,
            "{name}: ours"
        );
        assert_eq!(
            liblz4::decompress_with_dictionary(&compressed, &dict, data.len()).as_deref(),
            Some(&data[..]),
            "{name}: liblz4"
        );
        // The zero-copy form, every kernel, with spare capacity and with exact capacity.
        for &kernel in &kernels {
            for spare in [0usize, 64] {
                let mut buf = window[..dict.len()].to_vec();
                buf.resize(dict.len() + data.len() + spare, 0xA5);
                let n = block::Decoder::with_kernel(kernel)
                    .and_then(|decoder| {
                        decoder.decompress_into_with_history(&compressed, &mut buf, dict.len())
                    })
                    .unwrap_or_else(|e| panic!("{name}: {kernel:?}: {e}"));
                assert_eq!(n, data.len(), "{name}: {kernel:?}");
                assert_eq!(
                    &buf[dict.len()..dict.len() + n],
                    &data[..],
                    "{name}: {kernel:?}"
                );
                assert_eq!(&buf[..dict.len()], &dict[..], "{name}: history untouched");
            }
        }
    }
}

#[test]
fn dictionary_helps_and_matches_liblz4_ratio() {
    // Log lines compressed alone vs with the previous lines as dictionary.
    let all = generated("log-lines", 40_000, 5);
    let (dict, data) = all.split_at(32_000);
    let alone = block::compress(data).unwrap().len();
    let ours = block::compress_with_dictionary(data, dict, 1).unwrap();
    let theirs = liblz4::compress_with_dictionary(data, dict);
    assert!(
        ours.len() < alone,
        "dictionary did not help: {} vs {alone}",
        ours.len()
    );
    // Indexing every third history position (as liblz4's LZ4_loadDict does) stays close to it.
    assert!(
        ours.len() * 100 <= theirs.len() * 103,
        "ours {} vs liblz4 {}",
        ours.len(),
        theirs.len()
    );
    // liblz4's dictionary blocks decode with ours.
    assert_eq!(
        block::decompress_with_dictionary(&theirs, dict, data.len()).unwrap(),
        data
    );
}

#[test]
fn matches_cannot_reach_before_the_history() {
    // `01 00` at output position 0 with no history is an offset past the start; with one byte of
    // history it repeats that byte.
    let block = [0x00, 0x01, 0x00, 0x50, b'a', b'b', b'c', b'd', b'e'];
    assert!(block::decompress(&block, 100).is_err());
    assert!(block::decompress_with_dictionary(&block, &[], 100).is_err());
    assert_eq!(
        block::decompress_with_dictionary(&block, b"z", 100).unwrap(),
        b"zzzzabcde"
    );
    for kernel in Kernel::available() {
        let mut buf = [b'q', 0, 0, 0, 0, 0, 0, 0, 0, 0];
        assert_eq!(
            block::Decoder::with_kernel(kernel)
                .and_then(|decoder| decoder.decompress_into_with_history(&block, &mut buf, 1))
                .unwrap(),
            9
        );
        assert_eq!(&buf, b"qqqqqabcde");
        let mut short = [b'q'; 9];
        assert!(
            block::Decoder::with_kernel(kernel)
                .and_then(|decoder| decoder.decompress_into_with_history(&block, &mut short, 1))
                .is_err(),
            "{kernel:?}: output cap is the space after the history"
        );
        // Offset 2 with one byte of history reaches before it.
        let far = [0x00, 0x02, 0x00, 0x50, b'a', b'b', b'c', b'd', b'e'];
        assert!(block::Decoder::with_kernel(kernel)
            .and_then(|decoder| decoder.decompress_into_with_history(&far, &mut buf, 1))
            .is_err());
    }
}

#[test]
fn random_dict_round_trips() {
    let mut rng = Rng::new(2026);
    for round in 0..200 {
        let dict_len = rng.below(3000) as usize;
        let data_len = rng.below(3000) as usize;
        let alphabet = 1 + rng.below(6) as u8;
        let all: Vec<u8> = (0..dict_len + data_len)
            .map(|_| b'a' + (rng.below(alphabet as u64) as u8))
            .collect();
        let (dict, data) = all.split_at(dict_len);
        let acceleration = 1 + rng.below(20) as u32;
        let compressed = block::compress_with_dictionary(data, dict, acceleration).unwrap();
        assert!(compressed.len() <= block::compress_bound(data.len()));
        assert_eq!(
            block::decompress_with_dictionary(&compressed, dict, data.len()).unwrap(),
            data,
            "round {round}"
        );
        assert_eq!(
            liblz4::decompress_with_dictionary(&compressed, dict, data.len()).as_deref(),
            Some(data),
            "round {round}: liblz4"
        );
    }
}

#[test]
fn decompress_append_uses_the_vec_tail_as_history() {
    for (name, dict, data) in cases() {
        let compressed = block::compress_with_dictionary(&data, &dict, 1).unwrap();
        // Some unrelated bytes, then the dictionary, then the block's output.
        let mut out = b"unrelated prefix".to_vec();
        out.extend_from_slice(&dict);
        let before = out.clone();
        let n = block::decompress_append(&compressed, &mut out, dict.len(), data.len())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(n, data.len(), "{name}");
        assert!(out[..before.len()] == before[..], "{name}: history changed");
        assert!(out[before.len()..] == data[..], "{name}");
        if !data.is_empty() {
            // A cap one byte short fails and leaves `out` as it was.
            let mut short = before.clone();
            assert!(
                block::decompress_append(&compressed, &mut short, dict.len(), data.len() - 1)
                    .is_err()
            );
            assert!(short == before, "{name}: failed append changed the Vec");
        }
    }
}
