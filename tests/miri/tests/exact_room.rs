//! The exact-room sequence writer's whole-word literal copies under Miri.
//! Every `dst` from one byte under the block to one byte under the compress bound, each its own
//! exact-size allocation, so any word written past `dst` (or read past `src`) is reported.

use lz4_simd::block;

fn noise(len: usize, seed: u64, repeat_every: usize) -> Vec<u8> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut out: Vec<u8> = (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect();
    if repeat_every > 0 {
        let mut i = 0;
        while i + 30 < len {
            let n = 4 + i % 7;
            out.copy_within(i..i + n, i + 13);
            i += repeat_every;
        }
    }
    out
}

#[test]
fn exact_room_word_copies_stay_in_dst() {
    let mut inputs = Vec::new();
    for len in [13usize, 16, 20, 27, 40, 64, 150, 290] {
        for repeat in [0usize, 9, 23, 61] {
            inputs.push(noise(len, len as u64 * 31 + repeat as u64, repeat));
        }
    }
    for input in &inputs {
        let bound = block::compress_bound(input.len());
        let want = block::compress(input).unwrap();
        let low = want.len().saturating_sub(2).max(1);
        for cap in low..bound {
            let mut dst = vec![0u8; cap];
            match block::compress_into(input, &mut dst, 1) {
                Ok(n) => assert_eq!(dst[..n], want[..], "len {} cap {cap}", input.len()),
                Err(_) => assert!(cap < want.len() + 1, "len {} cap {cap}", input.len()),
            }
        }
    }
}
