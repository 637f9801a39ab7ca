//! The fast compressor's word after a match, taken from the bytes the match
//! count read (both tables: the u16 one's 12-byte shift and the u32 one's five bytes, short
//! matches and the long path whose 8-byte read ends at most at the input's end), and the length
//! bytes of long literal runs and matches written unchecked within the bound, under Miri: each
//! `dst` is an allocation of exactly its room, so a byte written past it (or read past `src`)
//! is reported.

use lz4_simd::block;

fn noise(len: usize, seed: u64) -> Vec<u8> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect()
}

/// `input` compressed into exact-size rooms: the bound, one under it, the block's size and one
/// under that (which must fail), each the bytes of `block::compress`.
fn check_rooms(input: &[u8]) {
    let want = block::compress(input).unwrap();
    assert_eq!(block::decompress(&want, input.len()).unwrap(), input);
    let bound = block::compress_bound(input.len());
    for room in [bound, bound - 1, want.len(), want.len().saturating_sub(1)] {
        let mut dst = vec![0u8; room];
        match block::compress_into(input, &mut dst, 1) {
            Ok(n) => assert_eq!(dst[..n], want[..]),
            Err(_) => assert!(room < want.len()),
        }
    }
}

/// Inputs above 64 KiB + 11 bytes (the u32 table): one match running to the end limit (the long
/// path), and short repeats with 9-byte matches ending 5 to 13 bytes before the end.
#[test]
fn u32_table_match_ends() {
    let len = 65_548;
    let mut zeros = vec![0u8; len];
    zeros[..3].copy_from_slice(&[1, 2, 3]);
    check_rooms(&zeros);
    let mut repeats = vec![5u8; len - 400];
    repeats.extend_from_slice(&noise(400, 7));
    let mut at = len - 400;
    let mut k = 0;
    while at + 30 < len {
        let m = 4 + k % 9;
        repeats.copy_within(at..at + m, at + 13);
        at += 17;
        k += 1;
    }
    for back in 5..=13 {
        let at = len - back - 9;
        repeats.copy_within(at - 40..at - 31, at);
    }
    check_rooms(&repeats);
}

/// Literal runs of 15 and 270 bytes (one and two length bytes), then matches of 19, 274 bytes
/// (the same), then 5, 12 or 13 bytes before the end; and short inputs whose matches start at
/// the input's start (the catch-up's lower edge). Also through a stream (external dictionary)
/// and HC 9 at the bound, which share the sequence writer.
#[test]
fn length_bytes_and_starts() {
    let mut inputs = Vec::new();
    for literals in [15usize, 270] {
        for matched in [19usize, 274] {
            for tail in [5usize, 12, 13] {
                let mut input = noise(literals, (literals * 7 + matched) as u64);
                input.extend(std::iter::repeat_n(0x41u8, matched + 1));
                input.extend(noise(tail, 99 + tail as u64));
                inputs.push(input);
            }
        }
    }
    for len in (0..40usize).step_by(3) {
        inputs.push(vec![7u8; len]);
        let mut input = noise(len, len as u64);
        if len > 20 {
            let (front, back) = input.split_at_mut(len / 2);
            back[..8].copy_from_slice(&front[..8]);
        }
        inputs.push(input);
    }
    for input in &inputs {
        check_rooms(input);
    }
    let mut stream = block::StreamCompressor::new();
    for input in inputs.iter().step_by(4) {
        let mut dst = vec![0u8; block::compress_bound(input.len())];
        stream.compress_into(input, &mut dst, 1).unwrap();
    }
    for input in inputs.iter().step_by(6) {
        let mut dst = vec![0u8; block::compress_bound(input.len())];
        let n = block::compress_hc_into(input, &mut dst, 9).unwrap();
        assert_eq!(block::decompress(&dst[..n], input.len()).unwrap(), *input);
    }
}
