//! `block::StreamCompressor` and `block::StreamDecoder` against liblz4 1.10's
//! `LZ4_compress_fast_continue` / `LZ4_decompress_safe_continue`, in the C layouts the API
//! documents:
//!
//! - `compress_into`: every input copied into its own buffer, then `LZ4_saveDict(64 KiB)` (the
//!   `lz4` tool's linked blocks);
//! - `compress_contiguous_into`: consecutive slices of one buffer (prefix mode);
//!
//! over sequences of inputs of mixed sizes (0, 1-20 bytes, 4 KiB, 64 KiB, more), fresh streams
//! and streams with dictionaries of 0, 1-7, 8, 64 KiB and more bytes, several accelerations,
//! bound-sized destinations and destinations one byte shorter than the input (where liblz4 gives
//! up early and keeps the half-done state), and `reset`. The decoder is checked against
//! `LZ4_decompress_safe_continue` decoding into a ring buffer.

use lz4_simd::block::{self, Dictionary, StreamCompressor, StreamDecoder};
use lz4_simd::{Error, Kernel};
use testkit::liblz4::{SavingStream, Stream, StreamDecode};
use testkit::samples::{self, Rng};

/// Input sizes exercising liblz4's edges: empty, tiny (under the 13-byte minimum, under the
/// 4-byte tiny-history rule), around 4 KiB (the attached dictionary's consult/copy switch), and
/// around 64 KiB.
const SIZES: &[usize] = &[
    0, 1, 2, 3, 4, 5, 7, 8, 12, 13, 14, 19, 20, 100, 1000, 4095, 4096, 4097, 65535, 65536, 65547,
    70_000, 150_000,
];

/// Mixed data: text, logs, random bytes and runs, so that blocks match each other, themselves,
/// or nothing.
fn pool(seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut data = samples::text(200_000, &mut rng);
    data.extend(samples::logs(200_000, &mut rng));
    data.extend(samples::random(30_000, &mut rng));
    data.extend(samples::runs(50_000, 300, &mut rng));
    data.extend(samples::json(100_000, &mut rng));
    data
}

/// A sequence of `count` inputs of sizes drawn from [`SIZES`], cut from `data` at drawn places
/// (often repeating earlier content).
fn inputs(data: &[u8], count: usize, seed: u64) -> Vec<Vec<u8>> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let len = *rng.pick(SIZES);
            let at = rng.below((data.len() - len) as u64) as usize;
            data[at..at + len].to_vec()
        })
        .collect()
}

/// Our block (or `None` when we gave up) for a destination of `cap` bytes, with a canary after
/// it.
fn ours_into(
    result: impl FnOnce(&mut [u8]) -> Result<usize, Error>,
    cap: usize,
) -> Option<Vec<u8>> {
    let mut dst = vec![0xA5u8; cap + 16];
    let outcome = result(&mut dst[..cap]);
    assert!(dst[cap..].iter().all(|&b| b == 0xA5), "wrote past dst");
    match outcome {
        Ok(n) => Some(dst[..n].to_vec()),
        Err(Error::OutputTooSmall { .. }) => None,
        Err(error) => panic!("unexpected error {error}"),
    }
}

fn theirs_into(result: impl FnOnce(&mut [u8]) -> usize, cap: usize) -> Option<Vec<u8>> {
    let mut dst = vec![0u8; cap.max(1)];
    let n = result(&mut dst[..cap]);
    (n > 0).then(|| dst[..n].to_vec())
}

/// The capacity to give block `index` of `len` bytes: the bound, or (every third block) one byte
/// less than the input, as a frame encoder does.
fn capacity(index: usize, len: usize) -> usize {
    if index % 3 == 2 {
        len.saturating_sub(1)
    } else {
        block::compress_bound(len)
    }
}

/// `compress_into` against the saving C stream, for one sequence.
/// Returns how many blocks liblz4 gave up on while the data was compressible (its pessimistic
/// room checks).
fn check_saving(inputs: &[Vec<u8>], dict: Option<&[u8]>, acceleration: u32, what: &str) -> usize {
    let mut early_give_ups = 0;
    let prepared = dict.map(Dictionary::new);
    let own_dict = dict.map(<[u8]>::to_vec);
    let c_stream = match &own_dict {
        Some(dict) => Stream::with_dict(dict),
        None => Stream::new(),
    };
    let mut theirs = SavingStream::new(c_stream);
    let mut ours = match &prepared {
        Some(dict) => StreamCompressor::with_prepared_dictionary(dict),
        None => StreamCompressor::new(),
    };
    let mut decoder = StreamDecoder::with_dictionary(dict.unwrap_or(&[]));
    for (index, src) in inputs.iter().enumerate() {
        let cap = capacity(index, src.len());
        let want = theirs_into(|dst| theirs.compress(src, dst, acceleration as i32), cap);
        let got = ours_into(|dst| ours.compress_into(src, dst, acceleration), cap);
        assert_eq!(
            got.as_ref().map(Vec::len),
            want.as_ref().map(Vec::len),
            "{what}: block {index} ({} bytes, cap {cap})",
            src.len()
        );
        assert!(got == want, "{what}: block {index} differs");
        if got.is_none() && block::compress(src).unwrap().len() < src.len() {
            early_give_ups += 1;
        }
        // Decode it (a block we gave up on is history all the same: feed the decoder the raw
        // bytes through a stored literal block).
        let block = got.unwrap_or_else(|| block::compress(src).unwrap());
        let block = if block.len() > src.len() || cap < block::compress_bound(src.len()) {
            literal_block(src)
        } else {
            block
        };
        let mut out = vec![0u8; src.len()];
        assert_eq!(
            decoder.decompress_into(&block, &mut out).unwrap(),
            src.len()
        );
        assert!(out == *src, "{what}: block {index} decodes wrong");
    }
    early_give_ups
}

/// A block holding `src` as literals only (decodes to `src` with any history).
fn literal_block(src: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let len = src.len();
    if len >= 15 {
        out.push(0xF0);
        let mut rest = len - 15;
        while rest >= 255 {
            out.push(255);
            rest -= 255;
        }
        out.push(rest as u8);
    } else {
        out.push((len as u8) << 4);
    }
    out.extend_from_slice(src);
    out
}

#[test]
fn compress_into_matches_continue_with_save_dict() {
    let data = pool(1);
    let mut early_give_ups = 0;
    for seed in 0..12u64 {
        let inputs = inputs(&data, 14, seed);
        for acceleration in [1u32, 2, 9] {
            let what = format!("seed {seed} accel {acceleration}");
            early_give_ups += check_saving(&inputs, None, acceleration, &what);
        }
    }
    println!("{early_give_ups} blocks given up on although they compress");
}

#[test]
fn compress_into_with_dictionaries_matches_load_dict() {
    let data = pool(2);
    for dict_len in [
        0usize, 1, 4, 7, 8, 9, 100, 4096, 65535, 65536, 65537, 100_000,
    ] {
        let dict = &data[50_000..50_000 + dict_len];
        for seed in 0..4u64 {
            let inputs = inputs(&data, 6, 100 + seed);
            let what = format!("dict {dict_len} seed {seed}");
            check_saving(&inputs, Some(dict), 1, &what);
        }
    }
}

/// `compress_contiguous_into` on consecutive slices of one buffer, against C on consecutive
/// slices of one buffer.
fn check_contiguous(buffer: &[u8], cuts: &[usize], dict: Option<&[u8]>, acceleration: u32) {
    let prepared = dict.map(Dictionary::new);
    let own_dict = dict.map(<[u8]>::to_vec);
    let own_buffer = buffer.to_vec();
    let mut theirs = match &own_dict {
        Some(dict) => Stream::with_dict(dict),
        None => Stream::new(),
    };
    let mut ours = match &prepared {
        Some(dict) => StreamCompressor::with_prepared_dictionary(dict),
        None => StreamCompressor::new(),
    };
    let mut out = vec![0u8; buffer.len()];
    let mut start = 0;
    for (index, &end) in cuts.iter().enumerate() {
        let src = &own_buffer[start..end];
        let cap = capacity(index, src.len());
        let want = theirs_into(|dst| theirs.compress(src, dst, acceleration as i32), cap);
        let got = ours_into(
            |dst| ours.compress_contiguous_into(&buffer[..end], start, dst, acceleration),
            cap,
        );
        assert!(
            got == want,
            "contiguous block {index} ({start}..{end}, cap {cap}, dict {:?}) differs",
            dict.map(<[u8]>::len)
        );
        // Decode in place when it fit (with the dictionary only the first block may use it).
        if let Some(block) = got {
            let n = match dict {
                Some(dict) if index == 0 => {
                    block::decompress_into_with_dictionary(&block, &mut out[start..end], dict)
                        .unwrap()
                }
                _ => block::decompress_into_with_history(&block, &mut out[..end], start).unwrap(),
            };
            assert_eq!(n, end - start);
        } else {
            out[start..end].copy_from_slice(src);
        }
        assert_eq!(&out[start..end], src);
        start = end;
    }
}

fn cuts(len: usize, count: usize, seed: u64) -> Vec<usize> {
    let mut rng = Rng::new(seed);
    let mut at = 0;
    let mut cuts = Vec::new();
    for _ in 0..count {
        at = (at + *rng.pick(SIZES)).min(len);
        cuts.push(at);
    }
    cuts
}

#[test]
fn contiguous_slices_match_prefix_mode() {
    let data = pool(3);
    for seed in 0..12u64 {
        let cuts = cuts(data.len(), 12, 200 + seed);
        for acceleration in [1u32, 4] {
            check_contiguous(&data, &cuts, None, acceleration);
        }
    }
    for dict_len in [0usize, 3, 8, 1000, 65536, 70_000] {
        let dict = data[300_000..300_000 + dict_len].to_vec();
        for seed in 0..3u64 {
            let cuts = cuts(200_000, 8, 300 + seed);
            check_contiguous(&data[..200_000], &cuts, Some(&dict), 1);
        }
    }
}

/// `reset_with_history` then consecutive slices after the history in the same buffer: C loads
/// the history with `LZ4_loadDict` right before the first slice (prefix mode from the start, as
/// `lz4` 1.10 compresses each 4 MiB chunk of a linked frame), on a fresh stream and on one that
/// compressed other blocks first (the load resets it); histories of 0-7 bytes (too short to
/// load), 8, 64 KiB and more (its last 64 KiB).
#[test]
fn contiguous_slices_after_a_loaded_history_match_prefix_mode() {
    let data = pool(5);
    for (round, history_len) in [0usize, 3, 7, 8, 9, 1000, 65_535, 65_536, 70_000]
        .into_iter()
        .enumerate()
    {
        for acceleration in [1u32, 3] {
            let buffer = &data[round * 20_000..round * 20_000 + history_len + 300_000];
            let own_buffer = buffer.to_vec();
            let theirs = Stream::with_dict(&own_buffer[..history_len]);
            let mut ours = StreamCompressor::new();
            if round % 2 == 1 {
                // Blocks first, forgotten by the load.
                let mut scratch = vec![0u8; block::compress_bound(5000)];
                ours.compress_into(&data[..5000], &mut scratch, 1).unwrap();
                ours.compress_contiguous_into(&data[..9000], 5000, &mut scratch, 1)
                    .unwrap();
            }
            ours.reset_with_history(&buffer[..history_len]);
            let mut theirs = theirs;
            let mut start = history_len;
            let cut = cuts(300_000, 10, 400 + round as u64);
            for (index, end) in cut.iter().map(|cut| history_len + cut).enumerate() {
                let src = &own_buffer[start..end];
                let cap = capacity(index, src.len());
                let want = theirs_into(|dst| theirs.compress(src, dst, acceleration as i32), cap);
                let got = ours_into(
                    |dst| ours.compress_contiguous_into(&buffer[..end], start, dst, acceleration),
                    cap,
                );
                assert!(
                    got == want,
                    "history {history_len}, block {index} ({start}..{end}, cap {cap}) differs"
                );
                if let Some(block) = got {
                    let mut out = buffer[..start].to_vec();
                    out.resize(end, 0);
                    let n = block::decompress_into_with_history(&block, &mut out, start).unwrap();
                    assert_eq!(&out[start..start + n], src);
                }
                start = end;
            }
        }
    }
}

/// `compress_into` first, then consecutive slices: C saves the history, then compresses slices
/// of another buffer (external-dictionary mode for the first, prefix mode after).
#[test]
fn saved_history_then_contiguous_slices() {
    let data = pool(4);
    for seed in 0..6u64 {
        let firsts = inputs(&data, 3, 400 + seed);
        let buffer = &data[100_000..300_000];
        let cuts = cuts(buffer.len(), 6, 500 + seed);
        let mut theirs = SavingStream::new(Stream::new());
        let mut ours = StreamCompressor::new();
        for src in &firsts {
            let cap = block::compress_bound(src.len());
            let want = theirs_into(|dst| theirs.compress(src, dst, 1), cap);
            let got = ours_into(|dst| ours.compress_into(src, dst, 1), cap);
            assert!(got == want);
        }
        let own = buffer.to_vec();
        let mut start = 0;
        for &end in &cuts {
            let cap = block::compress_bound(end - start);
            let want = theirs_into(
                |dst| theirs.compress_in_place(&own[start..end], dst, 1),
                cap,
            );
            let got = ours_into(
                |dst| ours.compress_contiguous_into(&buffer[..end], start, dst, 1),
                cap,
            );
            assert!(got == want, "seed {seed}: slice {start}..{end} differs");
            start = end;
        }
        // The history is the caller's now: `compress_into` refuses until a reset.
        let mut dst = vec![0u8; 64];
        assert!(matches!(
            ours.compress_into(b"more", &mut dst, 1),
            Err(Error::InvalidArgument { .. })
        ));
    }
}

/// `reset` gives the bytes of a fresh stream (with and without a dictionary).
#[test]
fn reset_is_a_fresh_stream() {
    let data = pool(5);
    let dict = Dictionary::new(&data[..65536]);
    for prepared in [None, Some(&dict)] {
        let fresh = || match prepared {
            Some(dict) => StreamCompressor::with_prepared_dictionary(dict),
            None => StreamCompressor::new(),
        };
        let mut reused = fresh();
        for seed in 0..5u64 {
            let inputs = inputs(&data, 5, 600 + seed);
            let mut new = fresh();
            for src in &inputs {
                let cap = block::compress_bound(src.len());
                let a = ours_into(|dst| new.compress_into(src, dst, 1), cap);
                let b = ours_into(|dst| reused.compress_into(src, dst, 1), cap);
                assert!(a == b, "seed {seed}");
            }
            reused.reset();
        }
    }
}

/// Errors that change nothing: a start past the buffer, too little history before the input.
#[test]
fn contiguous_argument_errors() {
    let data = pool(6);
    let mut stream = StreamCompressor::new();
    let mut dst = vec![0u8; block::compress_bound(2000)];
    assert!(matches!(
        stream.compress_contiguous_into(&data[..10], 11, &mut dst, 1),
        Err(Error::InvalidArgument { .. })
    ));
    stream
        .compress_contiguous_into(&data[..1000], 0, &mut dst, 1)
        .unwrap();
    // The next input must follow the 1000 bytes of history.
    assert!(matches!(
        stream.compress_contiguous_into(&data[500..2000], 500, &mut dst, 1),
        Err(Error::InvalidArgument { .. })
    ));
    let n = stream
        .compress_contiguous_into(&data[..2000], 1000, &mut dst, 1)
        .unwrap();
    let mut out = data[..1000].to_vec();
    out.resize(2000, 0);
    block::decompress_into_with_history(&dst[..n], &mut out, 1000).unwrap();
    assert_eq!(out, &data[..2000]);
}

/// `StreamDecoder` against `LZ4_decompress_safe_continue` decoding into a ring buffer of
/// `LZ4_decoderRingBufferSize(max block)` bytes, on streams from both of our layouts, with every
/// available kernel.
#[test]
fn decoder_matches_continue_on_a_ring_buffer() {
    let data = pool(7);
    for seed in 0..6u64 {
        let max_block = [4096usize, 65536][seed as usize % 2];
        let inputs: Vec<Vec<u8>> = inputs(&data, 30, 700 + seed)
            .into_iter()
            .map(|mut input| {
                input.truncate(max_block);
                input
            })
            .collect();
        let dict = &data[1000..1000 + [0usize, 5, 8, 30_000, 65536][seed as usize % 5]];
        let prepared = Dictionary::new(dict);
        let mut compressor = StreamCompressor::with_prepared_dictionary(&prepared);
        let blocks: Vec<Vec<u8>> = inputs
            .iter()
            .map(|src| {
                let mut dst = vec![0u8; block::compress_bound(src.len())];
                let n = compressor.compress_into(src, &mut dst, 1).unwrap();
                dst.truncate(n);
                dst
            })
            .collect();
        // liblz4 into a ring buffer.
        let ring_len = 65536 + 14 + max_block;
        let mut ring = vec![0u8; ring_len];
        let mut theirs = StreamDecode::new(dict);
        let mut at = 0;
        let mut want = Vec::new();
        for (block, src) in blocks.iter().zip(&inputs) {
            if at + max_block > ring_len {
                at = 0;
            }
            let n = theirs
                .decompress(block, &mut ring[at..at + max_block])
                .expect("liblz4 decodes our stream");
            assert_eq!(&ring[at..at + n], &src[..]);
            want.push(ring[at..at + n].to_vec());
            at += n;
        }
        for kernel in Kernel::available() {
            let mut ours = StreamDecoder::with_dictionary(dict)
                .with_decoder(block::Decoder::with_kernel(kernel).unwrap());
            let mut small_ring = vec![0u8; max_block + 7];
            for (index, block) in blocks.iter().enumerate() {
                // Alternate between the front and the end of our own small ring.
                let off = if index % 2 == 0 { 0 } else { 7 };
                let n = ours.decompress_into(block, &mut small_ring[off..]).unwrap();
                assert_eq!(&small_ring[off..off + n], &want[index][..], "{kernel:?}");
            }
            // A reset decoder decodes the stream again from the start.
            ours.reset();
            let mut out = vec![0u8; max_block];
            let n = ours.decompress_into(&blocks[0], &mut out).unwrap();
            assert_eq!(&out[..n], &want[0][..]);
        }
    }
}

/// A failed block leaves the decoder's history as it was, so the right block decodes next.
#[test]
fn decoder_error_changes_nothing() {
    let data = pool(8);
    let mut compressor = StreamCompressor::new();
    let mut blocks = Vec::new();
    for src in [&data[..5000], &data[..5000], &data[2000..9000]] {
        let mut dst = vec![0u8; block::compress_bound(src.len())];
        let n = compressor.compress_into(src, &mut dst, 1).unwrap();
        blocks.push(dst[..n].to_vec());
    }
    let mut decoder = StreamDecoder::new();
    let mut out = vec![0u8; 7000];
    assert_eq!(decoder.decompress_into(&blocks[0], &mut out).unwrap(), 5000);
    // Too small a destination, then a corrupt block: errors.
    assert!(decoder
        .decompress_into(&blocks[1], &mut out[..100])
        .is_err());
    let mut corrupt = blocks[1].clone();
    corrupt.truncate(corrupt.len() - 3);
    assert!(decoder.decompress_into(&corrupt, &mut out).is_err());
    assert_eq!(decoder.decompress_into(&blocks[1], &mut out).unwrap(), 5000);
    assert_eq!(&out[..5000], &data[..5000]);
    assert_eq!(decoder.decompress_into(&blocks[2], &mut out).unwrap(), 7000);
    assert_eq!(&out[..7000], &data[2000..9000]);
}

/// Nearly incompressible inputs whose blocks come out around their size, each followed by an
/// input that repeats parts of it: liblz4 gives up on a block that does not fit into one byte
/// less than its size in the middle of the parse, and its table keeps the positions entered until
/// then; the next block, which finds its matches through that table, must see the same table.
/// (The room checks reserve at least what the rest of a block needs, so no block that would fit
/// is given up on; what differs from compressing fully and storing raw is the table.)
#[test]
fn give_ups_keep_liblz4s_half_done_table() {
    let mut rng = Rng::new(9);
    let mut give_ups = 0;
    let edge_input = |rng: &mut Rng| loop {
        let len = *rng.pick(&[40usize, 300, 1000, 4096, 20_000, 70_000]);
        let mut input = samples::random(len, rng);
        let repeats = rng.below(2 + len as u64 / 600) as usize;
        for _ in 0..repeats {
            let from = rng.below(len as u64 - 24) as usize;
            let to = rng.below(len as u64 - 24) as usize;
            let piece = input[from..from + 12].to_vec();
            input[to..to + 12].copy_from_slice(&piece);
        }
        // A match near the end, where a parse that runs out of room stops.
        if len > 200 {
            let to = len - 24 - rng.below(130) as usize;
            let from = rng.below(to as u64 - 12) as usize;
            let piece = input[from..from + 12].to_vec();
            input[to..to + 12].copy_from_slice(&piece);
        }
        let bound = block::compress_bound(len);
        let full = ours_into(
            |dst| StreamCompressor::new().compress_into(&input, dst, 1),
            bound,
        );
        if full.is_some_and(|full| full.len() + 4 >= len && full.len() <= len + 12) {
            return input;
        }
    };
    for round in 0..40u64 {
        let mut inputs = Vec::new();
        for _ in 0..4 {
            let edge = if round % 2 == 0 {
                edge_input(&mut rng)
            } else {
                // Incompressible, then a compressible tail: the parse runs out of room at the
                // tail's first sequence, before entering the tail's positions.
                let len = *rng.pick(&[20_000usize, 70_000]);
                let mut input = samples::random(len - 200, &mut rng);
                input.extend(samples::text(200, &mut rng).into_iter().take(200));
                input
            };
            // Pieces of the edge block's end (where the parse stopped), in a different order.
            let mut echo = Vec::new();
            let tail = edge.len() - edge.len().min(200);
            while echo.len() < edge.len() {
                let from = tail + rng.below((edge.len() - tail) as u64) as usize;
                let to = (from + 8 + rng.below(40) as usize).min(edge.len());
                echo.extend_from_slice(&edge[from..to]);
            }
            inputs.push(edge);
            inputs.push(echo);
        }
        let mut theirs = SavingStream::new(Stream::new());
        let mut ours = StreamCompressor::new();
        for (index, src) in inputs.iter().enumerate() {
            let cap = src.len() - 1;
            let want = theirs_into(|dst| theirs.compress(src, dst, 1), cap);
            let got = ours_into(|dst| ours.compress_into(src, dst, 1), cap);
            assert!(got == want, "round {round} block {index}");
            give_ups += usize::from(got.is_none() && index % 2 == 0);
        }
    }
    println!("{give_ups} give-ups");
    assert!(give_ups > 20, "too few blocks exercised liblz4's give-up");
}

/// `Dictionary::new_dense` (liblz4 1.10's `LZ4_loadDictSlow`) in a stream.
#[test]
fn slow_dictionary_matches_load_dict_slow() {
    let data = pool(10);
    for dict_len in [8usize, 9, 1000, 65536, 80_000] {
        let dict = data[10_000..10_000 + dict_len].to_vec();
        let prepared = Dictionary::new_dense(&dict);
        for seed in 0..4u64 {
            let inputs = inputs(&data, 5, 900 + seed);
            let mut theirs = SavingStream::new(Stream::with_dict_slow(&dict));
            let mut ours = StreamCompressor::with_prepared_dictionary(&prepared);
            for (index, src) in inputs.iter().enumerate() {
                let cap = capacity(index, src.len());
                let want = theirs_into(|dst| theirs.compress(src, dst, 1), cap);
                let got = ours_into(|dst| ours.compress_into(src, dst, 1), cap);
                assert!(got == want, "dict {dict_len} seed {seed} block {index}");
            }
        }
    }
}

/// The decoder's bounded buffer (a block is first decoded with the room recent blocks needed,
/// at least 64 KiB, and again with all the room `dst` allows only if that fails): blocks larger
/// than 64 KiB among small ones, into destinations far larger than the blocks, decode as
/// `LZ4_decompress_safe_continue` decodes them into consecutive places of one buffer; and bad
/// blocks (truncated, corrupt, one byte too little room, or large ones that need the second
/// attempt) get liblz4's verdict.
#[test]
fn decoder_bounded_buffer_against_liblz4() {
    let data = pool(21);
    let lens = [
        1000usize, 200_000, 10, 4096, 300_000, 65_536, 65_537, 70_000, 5, 150_000, 4096,
    ];
    let mut compressor = StreamCompressor::new();
    let mut inputs = Vec::new();
    let mut blocks = Vec::new();
    let mut at = 0;
    for &len in &lens {
        let src = data[at..at + len].to_vec();
        at = (at + len / 2) % (data.len() - 300_000);
        let mut dst = vec![0u8; block::compress_bound(len)];
        let n = compressor.compress_into(&src, &mut dst, 1).unwrap();
        blocks.push(dst[..n].to_vec());
        inputs.push(src);
    }
    let total: usize = lens.iter().sum();
    // Each bad variant replaces block `at` (liblz4's state after an error is not specified, so
    // each variant replays the stream from the start).
    let variants: Vec<(usize, Vec<u8>, usize)> = (0..blocks.len())
        .flat_map(|i| {
            let good = blocks[i].clone();
            let mut corrupt = good.clone();
            let mid = corrupt.len() / 2;
            corrupt[mid] ^= 0x5A;
            let truncated = good[..good.len().saturating_sub(3)].to_vec();
            [
                (i, good.clone(), usize::MAX),
                (i, good, lens[i].saturating_sub(1)),
                (i, corrupt, usize::MAX),
                (i, truncated, usize::MAX),
            ]
        })
        .collect();
    for (bad_at, bad, cap) in variants {
        let mut ours = StreamDecoder::new();
        let mut theirs_out = vec![0u8; total + 1_000_000];
        let mut theirs = StreamDecode::new(&[]);
        let mut place = 0;
        for (i, good) in blocks.iter().enumerate().take(bad_at + 1) {
            let block = if i == bad_at { &bad[..] } else { &good[..] };
            let cap = if i == bad_at { cap } else { usize::MAX };
            // Ours into a fresh, oversized destination; liblz4 into the rest of one buffer.
            let room = cap.min(theirs_out.len() - place);
            let mut dst = vec![0xA5u8; room + 16];
            let got = ours.decompress_into(block, &mut dst[..room]);
            let want = theirs.decompress(block, &mut theirs_out[place..place + room]);
            match (got, want) {
                (Ok(n), Some(m)) => {
                    assert_eq!(n, m, "block {i} (variant at {bad_at})");
                    assert!(dst[..n] == theirs_out[place..place + m], "block {i}");
                    assert!(dst[room..].iter().all(|&b| b == 0xA5), "canary");
                    if i < bad_at {
                        assert!(dst[..n] == inputs[i][..]);
                    }
                    place += m;
                }
                (Err(_), None) => {
                    assert!(
                        dst.iter().all(|&b| b == 0xA5),
                        "dst touched by a failed block"
                    );
                    break;
                }
                (got, want) => {
                    panic!("block {i} (variant at {bad_at}): ours {got:?}, liblz4 {want:?}")
                }
            }
        }
    }
}
