//! Adversarial checks of `block::StreamCompressor` and `block::StreamDecoder` against liblz4
//! 1.10 (`LZ4_compress_fast_continue`, `LZ4_decompress_safe_continue`), at the edges
//! `tests/stream/layouts.rs` samples only now and then:
//!
//! - every destination size from 0 to past the bound, with canaries, for a block after a history
//!   (saved-history layout, contiguous layout, attached dictionary);
//! - matches exactly 65,535 bytes back (and 65,536, which must not be taken) across block
//!   boundaries and from the input into dictionaries of 65,535 / 65,536 / 65,537 bytes;
//! - `reset` in the middle of a contiguous stream, then slices that start anywhere;
//! - slices passed to `compress_contiguous_into` that are not the earlier inputs (the caller
//!   breaking the contract: no panic, and the block decodes against the bytes it was given);
//! - runs of 1-20 byte blocks (liblz4's tiny-history rule) and empty blocks in both layouts;
//! - accelerations 0, 1, 65,536, 65,537, 65,538 and `u32::MAX`;
//! - the decoder into a C-style ring buffer that wraps, into exact, short and long destinations
//!   with canaries.

use lz4_simd::block::{self, Compressor, Dictionary, StreamCompressor, StreamDecoder};
use lz4_simd::Error;
use testkit::liblz4::{self, SavingStream, Stream, StreamDecode, Working};
use testkit::samples::{self, Rng};

const CANARY: u8 = 0xA5;

/// Our result into a destination of `cap` bytes followed by canaries: the block, or `None` for
/// `OutputTooSmall`.
fn ours_into(
    result: impl FnOnce(&mut [u8]) -> Result<usize, Error>,
    cap: usize,
) -> Option<Vec<u8>> {
    let mut dst = vec![CANARY; cap + 32];
    let outcome = result(&mut dst[..cap]);
    assert!(dst[cap..].iter().all(|&b| b == CANARY), "wrote past dst");
    match outcome {
        Ok(n) => Some(dst[..n].to_vec()),
        Err(Error::OutputTooSmall { .. }) => None,
        Err(error) => panic!("unexpected error {error}"),
    }
}

/// A fresh C stream, with `dict` loaded when `with_dict`.
fn c_stream(with_dict: bool, dict: &[u8]) -> Stream<'_> {
    if with_dict {
        Stream::with_dict(dict)
    } else {
        Stream::new()
    }
}

/// A fresh stream of ours, with `dict` when `with_dict`.
fn our_stream(with_dict: bool, dict: &Dictionary) -> StreamCompressor<'_> {
    if with_dict {
        StreamCompressor::with_prepared_dictionary(dict)
    } else {
        StreamCompressor::new()
    }
}

fn theirs_into(result: impl FnOnce(&mut [u8]) -> usize, cap: usize) -> Option<Vec<u8>> {
    let mut dst = vec![0u8; cap.max(1)];
    let n = result(&mut dst[..cap]);
    (n > 0).then(|| dst[..n].to_vec())
}

fn mixed(len: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut data = samples::text(len / 2, &mut rng);
    data.extend(samples::logs(len / 4, &mut rng));
    data.extend(samples::random(len / 8, &mut rng));
    data.extend(samples::json(len - data.len().min(len), &mut rng));
    data.truncate(len);
    data
}

/// The capacities to try for a block of `len` bytes: all of them up to the bound for short
/// blocks, a sweep around the interesting ones for long blocks.
fn capacities(len: usize, full: usize) -> Vec<usize> {
    let bound = block::compress_bound(len);
    if bound <= 1200 {
        return (0..=bound + 2).collect();
    }
    let mut caps: Vec<usize> = (0..64).collect();
    caps.extend(full.saturating_sub(80)..=full + 80);
    caps.extend(len.saturating_sub(20)..=len + 20);
    caps.extend(bound - 4..=bound + 2);
    caps.extend((0..bound).step_by(97));
    caps.sort_unstable();
    caps.dedup();
    caps
}

/// After `prior` inputs, the block of `target` at every capacity: saved-history layout against
/// liblz4's continue + saveDict, with and without a dictionary.
#[test]
fn saved_layout_every_capacity() {
    let data = mixed(300_000, 1);
    let dict_bytes = data[200_000..265_536].to_vec();
    let dict = Dictionary::new(&dict_bytes);
    let cases: &[(&[usize], usize)] = &[
        (&[], 0),
        (&[], 1),
        (&[], 13),
        (&[1000], 20),
        (&[5], 300),
        (&[3, 0], 900),
        (&[4096], 4096),
        (&[70_000], 5000),
        (&[20], 70_000),
    ];
    for (case, &(prior, target_len)) in cases.iter().enumerate() {
        let mut at = 7 * case;
        let priors: Vec<&[u8]> = prior
            .iter()
            .map(|&len| {
                let input = &data[at..at + len];
                at += len / 2 + 1;
                input
            })
            .collect();
        let target = &data[at..at + target_len];
        for with_dict in [false, true] {
            let make = || {
                let mut theirs = SavingStream::new(c_stream(with_dict, &dict_bytes));
                let mut ours = our_stream(with_dict, &dict);
                for input in &priors {
                    let cap = block::compress_bound(input.len());
                    let want = theirs_into(|dst| theirs.compress(input, dst, 1), cap);
                    let got = ours_into(|dst| ours.compress_into(input, dst, 1), cap);
                    assert!(got == want);
                }
                (theirs, ours)
            };
            let full = {
                let (_, mut ours) = make();
                let cap = block::compress_bound(target_len);
                ours_into(|dst| ours.compress_into(target, dst, 1), cap)
                    .unwrap()
                    .len()
            };
            for cap in capacities(target_len, full) {
                let (mut theirs, mut ours) = make();
                let want = theirs_into(|dst| theirs.compress(target, dst, 1), cap);
                let got = ours_into(|dst| ours.compress_into(target, dst, 1), cap);
                assert!(
                    got == want,
                    "case {case} dict {with_dict} cap {cap}: ours {:?} theirs {:?}",
                    got.map(|b| b.len()),
                    want.map(|b| b.len())
                );
                // And the state after it: the next block must agree too.
                let next = &data[at + 10..at + 2010];
                let cap = block::compress_bound(next.len());
                let want = theirs_into(|dst| theirs.compress(next, dst, 1), cap);
                let got = ours_into(|dst| ours.compress_into(next, dst, 1), cap);
                assert!(got == want, "case {case} dict {with_dict} cap {cap}: next");
            }
        }
    }
}

/// The contiguous layout at every capacity for the second slice of a buffer.
#[test]
fn contiguous_layout_every_capacity() {
    let data = mixed(200_000, 2);
    let own = data.clone();
    for &(first, second) in &[
        (0usize, 19usize),
        (5, 700),
        (3000, 1000),
        (70_000, 3000),
        (1, 66_000),
    ] {
        let full = {
            let mut ours = StreamCompressor::new();
            let mut dst = vec![0u8; block::compress_bound(first.max(second))];
            ours.compress_contiguous_into(&data[..first], 0, &mut dst, 1)
                .unwrap();
            ours.compress_contiguous_into(&data[..first + second], first, &mut dst, 1)
                .unwrap()
        };
        for cap in capacities(second, full) {
            let mut theirs = Stream::new();
            let mut ours = StreamCompressor::new();
            let cap0 = block::compress_bound(first);
            let want = theirs_into(|dst| theirs.compress(&own[..first], dst, 1), cap0);
            let got = ours_into(
                |dst| ours.compress_contiguous_into(&data[..first], 0, dst, 1),
                cap0,
            );
            assert!(got == want);
            let want = theirs_into(
                |dst| theirs.compress(&own[first..first + second], dst, 1),
                cap,
            );
            let got = ours_into(
                |dst| ours.compress_contiguous_into(&data[..first + second], first, dst, 1),
                cap,
            );
            assert!(got == want, "{first}+{second} cap {cap}");
            let end = first + second + 1500;
            let cap = block::compress_bound(1500);
            let want = theirs_into(
                |dst| theirs.compress(&own[first + second..end], dst, 1),
                cap,
            );
            let got = ours_into(
                |dst| ours.compress_contiguous_into(&data[..end], first + second, dst, 1),
                cap,
            );
            assert!(got == want, "{first}+{second} cap {cap}: next");
        }
    }
}

/// `Compressor::compress_into_with_prepared_dictionary` at every capacity: the bound's bytes or
/// `OutputTooSmall`, never a write past `dst`; and at least every capacity liblz4's attach path
/// fits into.
#[test]
fn dictionary_every_capacity() {
    let data = mixed(200_000, 3);
    let dict_bytes = &data[..65536];
    let dict = Dictionary::new(dict_bytes);
    let dict_stream = Stream::with_dict(dict_bytes);
    let mut working = Working::new();
    let mut compressor = Compressor::new();
    for &(at, len) in &[
        (70_000usize, 0usize),
        (70_000, 12),
        (70_000, 200),
        (100, 1000),
        (90_000, 4097),
    ] {
        let src = &data[at..at + len];
        let bound = block::compress_bound(len);
        let full = ours_into(
            |dst| compressor.compress_into_with_prepared_dictionary(src, dst, &dict, 1),
            bound,
        )
        .unwrap();
        for cap in capacities(len, full.len()) {
            let got = ours_into(
                |dst| compressor.compress_into_with_prepared_dictionary(src, dst, &dict, 1),
                cap,
            );
            let want = theirs_into(
                |dst| working.compress_attached(&dict_stream, src, dst, 1),
                cap,
            );
            match &got {
                Some(block) => assert_eq!(block, &full, "len {len} cap {cap}"),
                None => assert!(cap < full.len(), "len {len} cap {cap}: gave up"),
            }
            if let Some(want) = want {
                assert_eq!(want, full, "len {len} cap {cap}: liblz4");
            }
        }
    }
}

/// Data in which every byte repeats `distance` bytes later: every match is exactly that far
/// back.
fn periodic(len: usize, distance: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let period = samples::random(distance, &mut rng);
    period.iter().copied().cycle().take(len).collect()
}

/// Matches exactly 65,535 back across block boundaries (4 KiB and odd-sized blocks), and data
/// whose only repeats are 65,536 back (never a match), in both layouts.
#[test]
fn matches_at_the_window_edge_across_blocks() {
    for distance in [65_535usize, 65_536, 65_534] {
        let data = periodic(200_000, distance, distance as u64);
        for block_len in [4096usize, 3001, 65_535, 65_536] {
            // Contiguous.
            let own = data.clone();
            let mut theirs = Stream::new();
            let mut ours = StreamCompressor::new();
            let mut decoded = vec![0u8; data.len()];
            let mut start = 0;
            let mut matched = false;
            while start < data.len() {
                let end = (start + block_len).min(data.len());
                let cap = block::compress_bound(end - start);
                let want = theirs_into(|dst| theirs.compress(&own[start..end], dst, 1), cap);
                let got = ours_into(
                    |dst| ours.compress_contiguous_into(&data[..end], start, dst, 1),
                    cap,
                )
                .unwrap();
                assert!(
                    Some(&got) == want.as_ref(),
                    "{distance} {block_len} at {start}"
                );
                matched |= got.len() < (end - start) / 2;
                let n =
                    block::decompress_into_with_history(&got, &mut decoded[..end], start).unwrap();
                assert_eq!(n, end - start);
                start = end;
            }
            assert_eq!(decoded, data);
            assert_eq!(matched, distance <= 65_535, "{distance} {block_len}");
            // Saved history: each block sees the previous one only.
            let mut theirs = SavingStream::new(Stream::new());
            let mut ours = StreamCompressor::new();
            let mut decoder = StreamDecoder::new();
            let mut c_decoder = StreamDecode::new(&[]);
            let mut c_out = vec![0u8; data.len()];
            let mut at = 0;
            for piece in data.chunks(block_len) {
                let cap = block::compress_bound(piece.len());
                let want = theirs_into(|dst| theirs.compress(piece, dst, 1), cap);
                let got = ours_into(|dst| ours.compress_into(piece, dst, 1), cap).unwrap();
                assert!(Some(&got) == want.as_ref(), "{distance} {block_len} saved");
                let mut out = vec![CANARY; piece.len() + 8];
                assert_eq!(
                    decoder
                        .decompress_into(&got, &mut out[..piece.len()])
                        .unwrap(),
                    piece.len()
                );
                assert_eq!(&out[..piece.len()], piece);
                assert!(out[piece.len()..].iter().all(|&b| b == CANARY));
                let n = c_decoder
                    .decompress(&got, &mut c_out[at..at + piece.len()])
                    .unwrap();
                assert_eq!(&c_out[at..at + n], piece);
                at += n;
            }
        }
    }
}

/// Inputs that start with the dictionary's bytes from offset 0, 1 and 2, against dictionaries
/// of 65,535, 65,536 and 65,537 bytes: the first input byte may reach exactly 65,535 back.
#[test]
fn dictionary_window_edge() {
    let mut rng = Rng::new(11);
    let source = samples::random(70_000, &mut rng);
    for dict_len in [65_535usize, 65_536, 65_537, 131_072] {
        let dict_bytes = periodic(dict_len, 70_000, 0)
            .iter()
            .zip(source.iter().cycle())
            .map(|(_, &b)| b)
            .collect::<Vec<u8>>();
        let dict = Dictionary::new(&dict_bytes);
        let dict_stream = Stream::with_dict(&dict_bytes);
        let kept = dict.as_bytes();
        for skip in 0..4usize {
            for len in [13usize, 20, 100, 4096, 4097, 20_000] {
                let mut src = kept[skip..].to_vec();
                src.truncate(len);
                src.extend_from_slice(&samples::random(len.saturating_sub(src.len()), &mut rng));
                let cap = block::compress_bound(len);
                let want = liblz4::compress_with_dict_cap(&src, &dict_bytes, 1, cap).unwrap();
                let got = ours_into(
                    |dst| {
                        Compressor::new()
                            .compress_into_with_prepared_dictionary(&src, dst, &dict, 1)
                    },
                    cap,
                )
                .unwrap();
                assert_eq!(got, want, "dict {dict_len} skip {skip} len {len}");
                let mut working = Working::new();
                let attached = theirs_into(
                    |dst| working.compress_attached(&dict_stream, &src, dst, 1),
                    cap,
                );
                assert_eq!(Some(&got), attached.as_ref());
                // As the first block of a stream, in both layouts.
                let got = ours_into(
                    |dst| {
                        StreamCompressor::with_prepared_dictionary(&dict)
                            .compress_into(&src, dst, 1)
                    },
                    cap,
                );
                assert_eq!(got.as_ref(), Some(&want));
                let got = ours_into(
                    |dst| {
                        StreamCompressor::with_prepared_dictionary(&dict)
                            .compress_contiguous_into(&src, 0, dst, 1)
                    },
                    cap,
                );
                assert_eq!(got.as_ref(), Some(&want));
                let back = block::decompress_with_dictionary(&want, &dict_bytes, len).unwrap();
                assert_eq!(back, src);
            }
        }
    }
}

/// `reset` in the middle of a contiguous stream: the next slice, wherever it starts, gives the
/// bytes a fresh C stream gives it; the history before it is not used.
#[test]
fn reset_mid_contiguous_stream() {
    let data = mixed(400_000, 4);
    let own = data.clone();
    let dict_bytes = data[300_000..330_000].to_vec();
    let dict = Dictionary::new(&dict_bytes);
    for with_dict in [false, true] {
        let mut ours = our_stream(with_dict, &dict);
        let mut dst = vec![0u8; block::compress_bound(70_000)];
        let mut start = 0;
        for (round, &len) in [3000usize, 70_000, 10, 4096, 0, 5000].iter().enumerate() {
            ours.compress_contiguous_into(&data[..start + 20_000], start, &mut dst, 1)
                .unwrap();
            start += 20_000;
            ours.reset();
            let mut theirs = c_stream(with_dict, &dict_bytes);
            for piece in 0..3 {
                let (from, to) = (start + piece * len, start + (piece + 1) * len);
                let cap = block::compress_bound(len);
                let want = theirs_into(|dst| theirs.compress(&own[from..to], dst, 1), cap);
                let got = ours_into(
                    |dst| ours.compress_contiguous_into(&data[..to], from, dst, 1),
                    cap,
                );
                assert!(got == want, "dict {with_dict} round {round} piece {piece}");
            }
            start += 3 * len;
            ours.reset();
        }
    }
}

/// The caller passes slices that are not the earlier inputs (other bytes before `start`, or a
/// different buffer): no panic, no error, and the block decodes against the bytes it was given.
#[test]
fn contiguous_with_foreign_history_decodes_against_it() {
    let a = mixed(100_000, 5);
    let b = mixed(100_000, 6);
    let mut ours = StreamCompressor::new();
    let mut dst = vec![0u8; block::compress_bound(20_000)];
    let mut start = 0;
    for (index, len) in [5000usize, 3, 20_000, 7, 0, 9000, 1]
        .into_iter()
        .enumerate()
    {
        let buffer = if index % 2 == 0 { &a } else { &b };
        let end = start + len;
        let n = ours
            .compress_contiguous_into(&buffer[..end], start, &mut dst, 1)
            .unwrap();
        let mut out = buffer[..start].to_vec();
        out.resize(end, 0);
        assert_eq!(
            block::decompress_into_with_history(&dst[..n], &mut out, start).unwrap(),
            len
        );
        assert_eq!(out, &buffer[..end], "block {index}");
        start = end;
    }
}

/// Many tiny and empty blocks (liblz4's tiny-history rule: a history under 4 bytes is dropped
/// by a non-contiguous input) in both layouts, with and without a dictionary.
#[test]
fn tiny_and_empty_blocks() {
    let data = mixed(20_000, 7);
    let own = data.clone();
    let mut rng = Rng::new(8);
    let dict_bytes = data[10_000..12_000].to_vec();
    let dict = Dictionary::new(&dict_bytes);
    for round in 0..40u64 {
        let lens: Vec<usize> = (0..30).map(|_| rng.below(21) as usize).collect();
        let with_dict = round % 2 == 1;
        // Saved layout.
        let mut theirs = SavingStream::new(c_stream(with_dict, &dict_bytes));
        let mut ours = our_stream(with_dict, &dict);
        let mut decoder = StreamDecoder::with_dictionary(if with_dict { &dict_bytes } else { &[] });
        let mut start = 0;
        for (index, &len) in lens.iter().enumerate() {
            let src = &data[start..start + len];
            // Exact capacities too (an empty input into no room at all).
            let cap = if index % 4 == 3 {
                len
            } else {
                block::compress_bound(len)
            };
            let want = theirs_into(|dst| theirs.compress(src, dst, 1), cap);
            let got = ours_into(|dst| ours.compress_into(src, dst, 1), cap);
            assert!(
                got == want,
                "round {round} saved block {index} ({len}, cap {cap})"
            );
            if let Some(block) = &got {
                let mut out = vec![CANARY; len + 4];
                assert_eq!(
                    decoder.decompress_into(block, &mut out[..len]).unwrap(),
                    len
                );
                assert_eq!(&out[..len], src);
            } else {
                // Keep the decoder in step: a stored literal block of the same bytes.
                let mut literal = if len >= 15 {
                    vec![0xF0, (len - 15) as u8]
                } else {
                    vec![(len as u8) << 4]
                };
                literal.extend_from_slice(src);
                assert_eq!(
                    decoder
                        .decompress_into(&literal, &mut vec![0; len])
                        .unwrap(),
                    len
                );
            }
            start = (start + len / 2 + 1) % 10_000;
        }
        // Contiguous layout.
        let mut theirs = c_stream(with_dict, &dict_bytes);
        let mut ours = our_stream(with_dict, &dict);
        let mut start = 0;
        for (index, &len) in lens.iter().enumerate() {
            let end = start + len;
            let cap = block::compress_bound(len);
            let want = theirs_into(|dst| theirs.compress(&own[start..end], dst, 1), cap);
            let got = ours_into(
                |dst| ours.compress_contiguous_into(&data[..end], start, dst, 1),
                cap,
            );
            assert!(
                got == want,
                "round {round} contiguous block {index} ({len})"
            );
            start = end;
        }
    }
}

/// Accelerations at and past both ends of liblz4's range, in both layouts and with a
/// dictionary.
#[test]
fn acceleration_extremes() {
    let data = mixed(300_000, 9);
    let own = data.clone();
    let dict_bytes = data[250_000..].to_vec();
    let dict = Dictionary::new(&dict_bytes);
    for acceleration in [0u32, 1, 2, 63, 64, 65, 65_536, 65_537, 65_538, u32::MAX] {
        let c_acceleration = liblz4::clamp_acceleration(acceleration);
        let mut theirs = SavingStream::new(Stream::with_dict(&dict_bytes));
        let mut ours = StreamCompressor::with_prepared_dictionary(&dict);
        let mut contiguous_theirs = Stream::new();
        let mut contiguous_ours = StreamCompressor::new();
        let mut start = 0;
        for len in [1000usize, 5000, 70_000, 13, 4096, 100_000] {
            let end = start + len;
            let src = &data[start..end];
            let cap = block::compress_bound(len);
            let want = theirs_into(|dst| theirs.compress(src, dst, c_acceleration), cap);
            let got = ours_into(|dst| ours.compress_into(src, dst, acceleration), cap);
            assert!(got == want, "acceleration {acceleration} saved {len}");
            let want = theirs_into(
                |dst| contiguous_theirs.compress(&own[start..end], dst, c_acceleration),
                cap,
            );
            let got = ours_into(
                |dst| {
                    contiguous_ours.compress_contiguous_into(&data[..end], start, dst, acceleration)
                },
                cap,
            );
            assert!(got == want, "acceleration {acceleration} contiguous {len}");
            let want = liblz4::compress_with_dict_cap(src, &dict_bytes, c_acceleration, cap);
            let got = ours_into(
                |dst| {
                    Compressor::new().compress_into_with_prepared_dictionary(
                        src,
                        dst,
                        &dict,
                        acceleration,
                    )
                },
                cap,
            );
            assert!(got == want, "acceleration {acceleration} dictionary {len}");
            start = end;
        }
    }
}

/// The C ring-buffer pattern: liblz4 decodes into a ring of 64 KiB + 14 + the largest block,
/// wrapping when the next block may not fit; ours decodes into the same ring positions (and
/// into destinations exactly the block's size, one byte short, and oversized, with canaries).
/// A failed block changes nothing.
#[test]
fn decoder_ring_buffer_wraps_and_exact_destinations() {
    let data = mixed(600_000, 10);
    let mut rng = Rng::new(12);
    for max_block in [4096usize, 16_384, 65_536] {
        let mut compressor = StreamCompressor::new();
        let mut inputs = Vec::new();
        let mut blocks = Vec::new();
        let mut at = 0;
        while at + max_block < data.len() && inputs.len() < 60 {
            let len = match rng.below(4) {
                0 => max_block,
                1 => rng.below(21) as usize,
                _ => rng.below(max_block as u64 + 1) as usize,
            };
            let src = &data[at..at + len];
            let mut dst = vec![0u8; block::compress_bound(len)];
            let n = compressor.compress_into(src, &mut dst, 1).unwrap();
            dst.truncate(n);
            inputs.push(src.to_vec());
            blocks.push(dst);
            at += len;
        }
        let ring_len = 65_536 + 14 + max_block;
        let mut c_ring = vec![0u8; ring_len];
        let mut ring = vec![0u8; ring_len];
        let mut c_decoder = StreamDecode::new(&[]);
        let mut decoder = StreamDecoder::new();
        let mut pos = 0;
        for (index, (block, src)) in blocks.iter().zip(&inputs).enumerate() {
            if pos + max_block > ring_len {
                pos = 0;
            }
            let n = c_decoder
                .decompress(block, &mut c_ring[pos..pos + max_block])
                .unwrap();
            assert_eq!(&c_ring[pos..pos + n], &src[..]);
            let len = src.len();
            // Short destination first: an error that changes nothing.
            if len > 0 {
                let mut short = vec![CANARY; len - 1 + 8];
                assert!(decoder
                    .decompress_into(block, &mut short[..len - 1])
                    .is_err());
                assert!(
                    short.iter().all(|&b| b == CANARY),
                    "block {index}: short dst written"
                );
            }
            let m = match index % 3 {
                0 => decoder.decompress_into(block, &mut ring[pos..pos + max_block]),
                1 => decoder.decompress_into(block, &mut ring[pos..pos + len]),
                _ => decoder.decompress_into(block, &mut ring[pos..]),
            }
            .unwrap();
            assert_eq!(m, n, "block {index}");
            assert_eq!(&ring[pos..pos + m], &src[..], "block {index}");
            pos += n;
        }
    }
}
