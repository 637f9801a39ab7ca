//! The multi-block prototype (`block::multi::decompress_into_multi`, 2 and 4 blocks interleaved
//! in one loop) against decoding each block alone with the same kernel: per block the same
//! `Result` (the whole `Error` value) and the same bytes in the whole `dst` (including what wide
//! copies leave past the decoded length, as the loop is the single-stream one, sequence by
//! sequence; for `Kernel::Avx512`, whose interleaved entry copies with AVX2's width, the bytes of
//! the AVX2 kernel), and nothing written outside `dst`. Inputs: random valid blocks of mixed sizes,
//! liblz4 blocks of generated text and logs (long enough for the interleaved loop to run for
//! thousands of sequences), one corrupted or truncated block among valid ones, empty inputs and
//! outputs, and too-small outputs.

use lz4_simd::block::multi::decompress_into_multi;
use lz4_simd::{block, Error, Kernel};
use testkit::{liblz4, samples, Rng};

use crate::blocks::{mutate, random_block};
use crate::rounds;

/// Guard bytes on each side of every `dst`.
const GUARD: usize = 64;

/// The kernels with an interleaved entry (AVX2, SSE2), the scalar one (blocks decoded one at a
/// time) and AVX-512 (AVX2's entry), where available.
fn kernels() -> Vec<Kernel> {
    [Kernel::Avx2, Kernel::Sse2, Kernel::Avx512, Kernel::Scalar]
        .into_iter()
        .filter(|k| k.is_available())
        .collect()
}

/// One block to decode: its input and the size of its output.
struct Case {
    src: Vec<u8>,
    cap: usize,
}

/// Decodes `cases` (N of them) with the prototype and each alone, both into `dst`s filled with
/// `fill` inside guards, and asserts the same result and bytes per block.
fn check<const N: usize>(kernel: Kernel, cases: &[Case], fill: u8, what: &str) {
    assert_eq!(cases.len(), N);
    let fresh = |cap: usize| vec![fill; cap + 2 * GUARD];
    let mut multi: Vec<Vec<u8>> = cases.iter().map(|c| fresh(c.cap)).collect();
    let results = {
        let srcs: [&[u8]; N] = std::array::from_fn(|i| cases[i].src.as_slice());
        let mut bufs = multi.iter_mut();
        let dsts: [&mut [u8]; N] = std::array::from_fn(|i| {
            let buf = bufs.next().expect("N buffers");
            &mut buf[GUARD..GUARD + cases[i].cap]
        });
        decompress_into_multi(kernel, srcs, dsts)
    };
    let decoder = block::Decoder::with_kernel(kernel).expect("available");
    // The interleaved entry for AVX-512 copies with AVX2's width: its bytes past the decoded
    // length are AVX2's (the result and the decoded bytes are every kernel's).
    let same_copies = if kernel == Kernel::Avx512 {
        Kernel::Avx2
    } else {
        kernel
    };
    let same_copies = block::Decoder::with_kernel(same_copies).expect("available");
    for (i, case) in cases.iter().enumerate() {
        let mut own = fresh(case.cap);
        let own_result = decoder.decompress_into(&case.src, &mut own[GUARD..GUARD + case.cap]);
        let mut alone = fresh(case.cap);
        let expected: Result<usize, Error> =
            same_copies.decompress_into(&case.src, &mut alone[GUARD..GUARD + case.cap]);
        assert_eq!(own_result, expected, "{what}: {kernel:?} against AVX2");
        if let Ok(n) = expected {
            assert_eq!(
                own[..GUARD + n],
                alone[..GUARD + n],
                "{what}: {kernel:?} against AVX2"
            );
        }
        assert_eq!(
            results[i],
            expected,
            "{what}: {kernel:?} x{N}, block {i} of {N} ({} bytes into {}): result",
            case.src.len(),
            case.cap
        );
        assert!(
            multi[i] == alone,
            "{what}: {kernel:?} x{N}, block {i} of {N}: output (or guard) bytes differ"
        );
        assert!(
            multi[i][..GUARD]
                .iter()
                .chain(&multi[i][GUARD + case.cap..])
                .all(|&b| b == fill),
            "{what}: {kernel:?} x{N}, block {i}: a write outside dst"
        );
    }
}

/// A value in `0..n` (`n > 0`).
fn pick(rng: &mut Rng, n: usize) -> usize {
    rng.below(n as u64) as usize
}

/// A random valid block with a capacity: mostly its size, sometimes more, sometimes less.
fn random_case(rng: &mut Rng, max_sequences: u64) -> Case {
    let (src, decoded) = random_block(rng, max_sequences);
    let n = decoded.len();
    let cap = match pick(rng, 8) {
        0 => n + pick(rng, 100),
        1 if n > 0 => pick(rng, n),
        _ => n,
    };
    Case { src, cap }
}

/// A liblz4 block of `len` bytes of generated text or logs.
fn compressed_case(rng: &mut Rng, len: usize) -> Case {
    let data = if pick(rng, 2) == 0 {
        samples::text(len, rng)
    } else {
        samples::logs(len, rng)
    };
    let start = pick(rng, data.len() / 2 + 1);
    let data = &data[start..];
    Case {
        src: liblz4::compress_fast(data, 1 + pick(rng, 4) as i32),
        cap: data.len(),
    }
}

/// Runs `body` for N = 2 and 4 and every kernel.
fn sweep(seed: u64, count: usize, mut body: impl FnMut(&mut Rng, Kernel, usize)) {
    for kernel in kernels() {
        let mut rng = Rng::new(seed);
        for round in 0..count {
            body(&mut rng, kernel, round);
        }
    }
}

fn check_lanes(kernel: Kernel, cases: Vec<Case>, fill: u8, what: &str) {
    match cases.len() {
        2 => check::<2>(kernel, &cases, fill, what),
        4 => check::<4>(kernel, &cases, fill, what),
        n => unreachable!("{n} lanes"),
    }
}

#[test]
fn multi_random_valid_blocks() {
    sweep(11, rounds(600, 6000), |rng, kernel, round| {
        let lanes = if round % 2 == 0 { 2 } else { 4 };
        // Mixed sizes: each lane draws its own sequence count.
        let cases = (0..lanes)
            .map(|_| {
                let sequences = 1 + pick(rng, 60) as u64;
                random_case(rng, sequences)
            })
            .collect();
        check_lanes(kernel, cases, round as u8, "random valid blocks");
    });
}

#[test]
fn multi_long_blocks_mixed_sizes() {
    sweep(12, rounds(24, 120), |rng, kernel, round| {
        let lanes = if round % 2 == 0 { 2 } else { 4 };
        let cases = (0..lanes)
            .map(|_| match pick(rng, 4) {
                0 => random_case(rng, 200),
                _ => {
                    let len = [1 << 10, 16 << 10, 64 << 10][pick(rng, 3)];
                    compressed_case(rng, len)
                }
            })
            .collect();
        check_lanes(kernel, cases, 0xA5, "long blocks of mixed sizes");
    });
}

#[test]
fn multi_one_hostile_lane() {
    sweep(13, rounds(600, 6000), |rng, kernel, round| {
        let lanes = if round % 2 == 0 { 2 } else { 4 };
        let bad = pick(rng, lanes);
        let cases = (0..lanes)
            .map(|lane| {
                let mut case = if pick(rng, 3) == 0 {
                    compressed_case(rng, 8 << 10)
                } else {
                    random_case(rng, 40)
                };
                if lane == bad {
                    case.src = if pick(rng, 3) == 0 {
                        // A truncation.
                        let keep = pick(rng, case.src.len() + 1);
                        case.src[..keep].to_vec()
                    } else {
                        mutate(rng, &case.src)
                    };
                }
                case
            })
            .collect();
        check_lanes(kernel, cases, 0x5A, "one hostile lane");
    });
}

#[test]
fn multi_every_truncation_in_one_lane() {
    for kernel in kernels() {
        let mut rng = Rng::new(14);
        let other = compressed_case(&mut rng, 4 << 10);
        let victim = compressed_case(&mut rng, 2 << 10);
        let step = if crate::DEBUG { 7 } else { 1 };
        for keep in (0..=victim.src.len()).step_by(step) {
            let cut = || Case {
                src: victim.src[..keep].to_vec(),
                cap: victim.cap,
            };
            let copy = |c: &Case| Case {
                src: c.src.clone(),
                cap: c.cap,
            };
            check::<2>(kernel, &[cut(), copy(&other)], 0, "truncated first lane");
            check::<4>(
                kernel,
                &[copy(&other), copy(&other), cut(), copy(&other)],
                0,
                "truncated third lane",
            );
        }
    }
}

#[test]
fn multi_empty_and_tiny() {
    for kernel in kernels() {
        let mut rng = Rng::new(15);
        let long = || compressed_case(&mut Rng::new(16), 16 << 10);
        let empty = Case {
            src: Vec::new(),
            cap: 0,
        };
        let zero_token = Case {
            src: vec![0],
            cap: 0,
        };
        check::<2>(kernel, &[empty, long()], 1, "empty input");
        check::<4>(
            kernel,
            &[long(), zero_token, random_case(&mut rng, 3), long()],
            2,
            "tiny blocks",
        );
        let short_dst = Case { cap: 100, ..long() };
        check::<2>(kernel, &[long(), short_dst], 3, "a too-small dst");
    }
}
