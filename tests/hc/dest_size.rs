//! `compress_hc_dest_size` against liblz4 1.10's `LZ4_compress_HC_destSize`: the same bytes and
//! the same consumed length at every level and at every capacity from 0 up to past the bound
//! (sampled in steps on large inputs), and the block decodes to the consumed prefix.

use lz4_simd::block::{self, HcCompressor};
use testkit::liblz4_hc;
use testkit::samples::{generated, GENERATED_KINDS};
use testkit::Rng;

const DEBUG: bool = cfg!(debug_assertions);

fn check(src: &[u8], capacity: usize, level: u8, compressor: &mut HcCompressor, what: &str) {
    let (want_consumed, want) = liblz4_hc::compress_hc_dest_size(src, capacity, i32::from(level));
    // Canary bytes after the capacity.
    let mut dst = vec![0xA5u8; capacity + 16];
    let (consumed, written) =
        compress_hc_dest_size_with(compressor, src, &mut dst, capacity, level);
    assert!(
        dst[capacity..].iter().all(|&b| b == 0xA5),
        "{what}: wrote past the capacity"
    );
    let ours = &dst[..written];
    if (consumed, ours) != (want_consumed, &want[..]) {
        let at = ours.iter().zip(&want).position(|(a, b)| a != b);
        panic!(
            "{what} capacity {capacity}: consumed {consumed} written {written}, liblz4 consumed \
             {want_consumed} written {} (first difference at {at:?})",
            want.len()
        );
    }
    if written > 0 {
        let back = block::decompress(ours, consumed).unwrap();
        assert_eq!(
            &back[..],
            &src[..consumed],
            "{what} capacity {capacity}: round trip"
        );
    }
}

/// Through the method of a reused compressor, and (at some capacities, it allocates 320 KiB of
/// tables per call) the free function, which must give the same.
fn compress_hc_dest_size_with(
    compressor: &mut HcCompressor,
    src: &[u8],
    dst: &mut [u8],
    capacity: usize,
    level: u8,
) -> (usize, usize) {
    let reused = compressor.compress_dest_size(src, &mut dst[..capacity], level);
    let written = reused.as_ref().map_or(0, |&(_, written)| written);
    if capacity.is_multiple_of(16) {
        let reused_bytes = dst[..written].to_vec();
        let fresh = block::compress_hc_dest_size(src, &mut dst[..capacity], level);
        assert_eq!(fresh, reused);
        assert_eq!(&reused_bytes[..], &dst[..written]);
    }
    // An empty page holds no block: an error, where liblz4 returns 0.
    reused.unwrap_or_else(|error| {
        assert_eq!(capacity, 0, "{error}");
        (0, 0)
    })
}

fn levels() -> Vec<u8> {
    if DEBUG {
        vec![0, 1, 2, 3, 9, 10, 12]
    } else {
        (0..=13).collect()
    }
}

#[test]
fn small_inputs_every_capacity() {
    let mut compressor = HcCompressor::new();
    let mut rng = Rng::new(5);
    for level in levels() {
        for len in (0..=40).chain([64, 100, 300]) {
            let src: Vec<u8> = if len % 2 == 0 {
                (0..len).map(|i| b"abcab"[i % 5]).collect()
            } else {
                rng.bytes(len)
            };
            let bound = block::compress_bound(len);
            for capacity in 0..=bound + 2 {
                check(
                    &src,
                    capacity,
                    level,
                    &mut compressor,
                    &format!("level {level} len {len}"),
                );
            }
        }
    }
}

#[test]
fn larger_inputs_sampled_capacities() {
    let mut compressor = HcCompressor::new();
    let len = if DEBUG { 20_000 } else { 60_000 };
    for kind in GENERATED_KINDS {
        let src = generated(kind, len, 3);
        for level in levels()
            .into_iter()
            .filter(|level| ![5, 7, 8, 13].contains(level))
        {
            let bound = block::compress_bound(len);
            // About 12 capacities from 0 past the bound (odd steps, so that every size class
            // of the output's last sequence turns up across levels and kinds).
            let step = bound / 12 + 1 + usize::from(level);
            let mut capacities: Vec<usize> = (0..=bound + step).step_by(step).collect();
            // Every capacity near a few page sizes.
            for page in [256usize, 4096, 16_384] {
                capacities.extend(page - 8..page + 8);
            }
            for capacity in capacities {
                check(
                    &src,
                    capacity,
                    level,
                    &mut compressor,
                    &format!("{kind} level {level}"),
                );
            }
        }
    }
}
