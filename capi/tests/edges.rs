//! The compressors at edge sizes, levels, accelerations and output limits, against liblz4 1.10
//! (lz4-sys): the same return values, bytes and consumed sizes.

use std::os::raw::{c_char, c_int, c_void};

mod common;

use common::{cp, len};
use lz4_simd_capi as ours;
use testkit::samples;
use testkit::Rng;

mod c {
    use std::os::raw::{c_char, c_int, c_void};
    extern "C" {
        pub fn LZ4_compress_fast(
            s: *const c_char,
            d: *mut c_char,
            n: c_int,
            cap: c_int,
            a: c_int,
        ) -> c_int;
        pub fn LZ4_compress_destSize_extState(
            st: *mut c_void,
            s: *const c_char,
            d: *mut c_char,
            n: *mut c_int,
            cap: c_int,
            a: c_int,
        ) -> c_int;
        pub fn LZ4_compress_HC(
            s: *const c_char,
            d: *mut c_char,
            n: c_int,
            cap: c_int,
            l: c_int,
        ) -> c_int;
        pub fn LZ4_compress_HC_destSize(
            st: *mut c_void,
            s: *const c_char,
            d: *mut c_char,
            n: *mut c_int,
            cap: c_int,
            l: c_int,
        ) -> c_int;
    }
}

fn small_inputs() -> Vec<Vec<u8>> {
    let mut rng = Rng::new(31);
    let mut all = Vec::new();
    for n in 0..=20 {
        all.push(vec![0u8; n]);
        all.push((0..n).map(|i| b"ab"[i % 2]).collect());
        all.push(samples::random(n, &mut rng));
        all.push(samples::text(n, &mut rng));
    }
    all
}

fn boundary_inputs() -> Vec<Vec<u8>> {
    let mut rng = Rng::new(32);
    let mut all = Vec::new();
    for n in [65535, 65536, 65546, 65547, 65548, 65549, 131_072] {
        all.push(vec![b'x'; n]);
        all.push(samples::text(n, &mut rng));
        all.push(samples::random(n, &mut rng));
    }
    all
}

/// Output limits to try for an input whose compressed size at some setting is `n`.
fn caps(n: usize, bound: usize) -> Vec<usize> {
    let mut caps: Vec<usize> = (0..=20).collect();
    caps.extend([
        n.saturating_sub(2),
        n.saturating_sub(1),
        n,
        n + 1,
        bound - 1,
        bound,
    ]);
    caps.sort_unstable();
    caps.dedup();
    caps
}

fn same_fast(src: &[u8], cap: usize, accel: c_int) -> c_int {
    let (mut a, mut b) = (vec![0xA5u8; cap + 16], vec![0xA5u8; cap + 16]);
    // SAFETY: buffers at least as long as passed.
    let (x, y) = unsafe {
        (
            ours::LZ4_compress_fast(
                cp(src),
                a.as_mut_ptr().cast(),
                len(src),
                cap as c_int,
                accel,
            ),
            c::LZ4_compress_fast(
                cp(src),
                b.as_mut_ptr().cast(),
                len(src),
                cap as c_int,
                accel,
            ),
        )
    };
    assert_eq!(x, y, "fast: len {} cap {cap} accel {accel}", src.len());
    assert_eq!(a[..x as usize], b[..y as usize]);
    assert!(a[cap..].iter().all(|&b| b == 0xA5));
    x
}

fn same_hc(src: &[u8], cap: usize, level: c_int) -> c_int {
    let (mut a, mut b) = (vec![0xA5u8; cap + 16], vec![0xA5u8; cap + 16]);
    // SAFETY: buffers at least as long as passed.
    let (x, y) = unsafe {
        (
            ours::LZ4_compress_HC(
                cp(src),
                a.as_mut_ptr().cast(),
                len(src),
                cap as c_int,
                level,
            ),
            c::LZ4_compress_HC(
                cp(src),
                b.as_mut_ptr().cast(),
                len(src),
                cap as c_int,
                level,
            ),
        )
    };
    assert_eq!(x, y, "HC: len {} cap {cap} level {level}", src.len());
    assert_eq!(a[..x as usize], b[..y as usize]);
    assert!(a[cap..].iter().all(|&b| b == 0xA5));
    x
}

fn same_dest_size(src: &[u8], cap: usize, accel: c_int) {
    let mut state_a = vec![u64::MAX; ours::STREAM_SIZE / 8];
    let mut state_b = vec![0u64; ours::STREAM_SIZE / 8];
    let (mut a, mut b) = (vec![0xA5u8; cap + 16], vec![0xA5u8; cap + 16]);
    let (mut na, mut nb) = (len(src), len(src));
    // SAFETY: states of `STREAM_SIZE` aligned bytes, buffers at least as long as passed.
    let (x, y) = unsafe {
        (
            ours::LZ4_compress_destSize_extState(
                state_a.as_mut_ptr().cast::<c_void>(),
                cp(src),
                a.as_mut_ptr().cast(),
                &mut na,
                cap as c_int,
                accel,
            ),
            c::LZ4_compress_destSize_extState(
                state_b.as_mut_ptr().cast::<c_void>(),
                cp(src),
                b.as_mut_ptr().cast(),
                &mut nb,
                cap as c_int,
                accel,
            ),
        )
    };
    assert_eq!(
        (x, na),
        (y, nb),
        "destSize: len {} cap {cap} accel {accel}",
        src.len()
    );
    assert_eq!(a[..x as usize], b[..y as usize]);
    assert!(a[cap..].iter().all(|&b| b == 0xA5));
}

fn same_hc_dest_size(src: &[u8], cap: usize, level: c_int) {
    let mut state_a = vec![u64::MAX; ours::STREAM_HC_SIZE / 8];
    let mut state_b = vec![0u64; ours::STREAM_HC_SIZE / 8];
    let (mut a, mut b) = (vec![0xA5u8; cap + 16], vec![0xA5u8; cap + 16]);
    let (mut na, mut nb) = (len(src), len(src));
    // SAFETY: states of `STREAM_HC_SIZE` aligned bytes, buffers at least as long as passed.
    let (x, y) = unsafe {
        (
            ours::LZ4_compress_HC_destSize(
                state_a.as_mut_ptr().cast::<c_void>(),
                cp(src),
                a.as_mut_ptr().cast(),
                &mut na,
                cap as c_int,
                level,
            ),
            c::LZ4_compress_HC_destSize(
                state_b.as_mut_ptr().cast::<c_void>(),
                cp(src),
                b.as_mut_ptr().cast(),
                &mut nb,
                cap as c_int,
                level,
            ),
        )
    };
    assert_eq!(
        (x, na),
        (y, nb),
        "HC destSize: len {} cap {cap} level {level}",
        src.len()
    );
    assert_eq!(a[..x as usize], b[..y as usize]);
    assert!(a[cap..].iter().all(|&b| b == 0xA5));
}

const ACCELS: [c_int; 11] = [
    c_int::MIN,
    -1,
    0,
    1,
    2,
    3,
    8,
    65536,
    65537,
    65538,
    c_int::MAX,
];
const LEVELS: [c_int; 18] = [
    c_int::MIN,
    -1,
    0,
    1,
    2,
    3,
    4,
    5,
    6,
    7,
    8,
    9,
    10,
    11,
    12,
    13,
    100,
    c_int::MAX,
];

#[test]
fn fast_at_edge_sizes() {
    for src in small_inputs().iter().chain(&boundary_inputs()) {
        let bound = ours::LZ4_compressBound(len(src)) as usize;
        for accel in ACCELS {
            let n = same_fast(src, bound, accel) as usize;
            for cap in caps(n, bound) {
                same_fast(src, cap, accel);
            }
        }
    }
}

#[test]
fn dest_size_at_edge_sizes() {
    for src in small_inputs().iter().chain(&boundary_inputs()) {
        let bound = ours::LZ4_compressBound(len(src)) as usize;
        // liblz4 passes this acceleration unclamped (docs/c-abi.md): compared within 1..=65538
        // only, where its result is the clamped one's.
        for accel in [1, 2, 65537, 65538] {
            for cap in caps(src.len() / 2, bound) {
                same_dest_size(src, cap, accel);
            }
        }
    }
}

#[test]
fn hc_at_edge_sizes() {
    for src in small_inputs() {
        let bound = ours::LZ4_compressBound(len(&src)) as usize;
        for level in LEVELS {
            let n = same_hc(&src, bound, level) as usize;
            for cap in caps(n, bound) {
                same_hc(&src, cap, level);
                same_hc_dest_size(&src, cap, level);
            }
        }
    }
}

#[test]
fn hc_at_64k_boundaries() {
    for src in boundary_inputs() {
        let bound = ours::LZ4_compressBound(len(&src)) as usize;
        for level in LEVELS {
            let n = same_hc(&src, bound, level) as usize;
            for cap in [n - 1, n, bound - 1] {
                same_hc(&src, cap, level);
            }
            for cap in [1, 12, 13, 100, n / 2, n - 1, n] {
                same_hc_dest_size(&src, cap, level);
            }
        }
    }
}

#[test]
fn threads_compress_as_liblz4() {
    // Each thread has its own tables: calls from several threads at once, on different inputs
    // and settings, give liblz4's bytes.
    let handles: Vec<_> = (0..4u64)
        .map(|t| {
            std::thread::spawn(move || {
                let mut rng = Rng::new(40 + t);
                for i in 0..12 {
                    let n = [100, 5000, 65536, 70_000][(i + t as usize) % 4];
                    let src = if i % 2 == 0 {
                        samples::text(n, &mut rng)
                    } else {
                        samples::logs(n, &mut rng)
                    };
                    let bound = ours::LZ4_compressBound(len(&src)) as usize;
                    same_fast(&src, bound, 1 + (i as c_int % 3));
                    same_fast(&src, bound / 3, 1);
                    same_hc(&src, bound, [2, 9, 12][i % 3]);
                    same_hc(&src, bound / 3, [2, 9, 12][i % 3]);
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
}

mod creset {
    use std::os::raw::{c_char, c_int, c_void};
    extern "C" {
        pub fn LZ4_compress_fast_extState_fastReset(
            st: *mut c_void,
            s: *const c_char,
            d: *mut c_char,
            n: c_int,
            cap: c_int,
            a: c_int,
        ) -> c_int;
        pub fn LZ4_compress_HC_extStateHC_fastReset(
            st: *mut c_void,
            s: *const c_char,
            d: *mut c_char,
            n: c_int,
            cap: c_int,
            l: c_int,
        ) -> c_int;
        pub fn LZ4_initStream(st: *mut c_void, size: usize) -> *mut c_void;
        pub fn LZ4_initStreamHC(st: *mut c_void, size: usize) -> *mut c_void;
    }
}

#[test]
fn fast_reset_on_a_reused_state() {
    // One state, initialised once, then used by call after call on different inputs.
    let mut rng = Rng::new(50);
    let mut inputs = Vec::new();
    for n in [5000, 300, 70_000, 20, 65536, 1000, 100_000, 4000, 12_000] {
        inputs.push(samples::text(n, &mut rng));
        inputs.push(samples::logs(n, &mut rng));
    }
    let mut state_a = vec![0u64; ours::STREAM_SIZE / 8];
    let mut state_b = vec![0u64; ours::STREAM_SIZE / 8];
    let mut hc_a = vec![0u64; ours::STREAM_HC_SIZE / 8];
    let mut hc_b = vec![0u64; ours::STREAM_HC_SIZE / 8];
    // SAFETY: states of their sizes, aligned.
    unsafe {
        assert!(!creset::LZ4_initStream(state_b.as_mut_ptr().cast(), ours::STREAM_SIZE).is_null());
        assert!(
            !creset::LZ4_initStreamHC(hc_b.as_mut_ptr().cast(), ours::STREAM_HC_SIZE).is_null()
        );
    }
    for (i, src) in inputs.iter().enumerate() {
        let bound = ours::LZ4_compressBound(len(src)) as usize;
        for cap in [bound, bound / 2] {
            let (mut a, mut b) = (vec![0u8; cap], vec![0u8; cap]);
            // SAFETY: states of their sizes, buffers of the lengths passed.
            let (x, y) = unsafe {
                (
                    ours::LZ4_compress_fast_extState_fastReset(
                        state_a.as_mut_ptr().cast(),
                        cp(src),
                        a.as_mut_ptr().cast(),
                        len(src),
                        cap as c_int,
                        1,
                    ),
                    creset::LZ4_compress_fast_extState_fastReset(
                        state_b.as_mut_ptr().cast(),
                        cp(src),
                        b.as_mut_ptr().cast(),
                        len(src),
                        cap as c_int,
                        1,
                    ),
                )
            };
            assert_eq!(x, y, "fast, call {i}, len {} cap {cap}", src.len());
            assert_eq!(
                a[..x as usize],
                b[..y as usize],
                "fast, call {i}, len {}",
                src.len()
            );
            for level in [2, 9, 12] {
                // SAFETY: states of their sizes, buffers of the lengths passed.
                let (x, y) = unsafe {
                    (
                        ours::LZ4_compress_HC_extStateHC_fastReset(
                            hc_a.as_mut_ptr().cast(),
                            cp(src),
                            a.as_mut_ptr().cast(),
                            len(src),
                            cap as c_int,
                            level,
                        ),
                        creset::LZ4_compress_HC_extStateHC_fastReset(
                            hc_b.as_mut_ptr().cast(),
                            cp(src),
                            b.as_mut_ptr().cast(),
                            len(src),
                            cap as c_int,
                            level,
                        ),
                    )
                };
                assert_eq!(x, y, "HC {level}, call {i}, len {} cap {cap}", src.len());
                assert_eq!(a[..x as usize], b[..y as usize], "HC {level}, call {i}");
            }
        }
    }
}

#[test]
fn null_buffers_of_size_0_as_liblz4() {
    let mut out = [0xA5u8; 64];
    let mut theirs = [0xA5u8; 64];
    let d = out.as_mut_ptr().cast::<c_char>();
    let t = theirs.as_mut_ptr().cast::<c_char>();
    let null = std::ptr::null::<c_char>();
    let null_mut = std::ptr::null_mut::<c_char>();
    // SAFETY: null pointers with size 0 only (liblz4 takes them there); outputs of 64 bytes.
    unsafe {
        for cap in [0, 1, 64] {
            let (x, y) = (
                ours::LZ4_compress_fast(null, d, 0, cap, 1),
                c::LZ4_compress_fast(null, t, 0, cap, 1),
            );
            assert_eq!((x, out), (y, theirs), "fast, cap {cap}");
            for level in [0, 1, 2, 3, 9] {
                let (x, y) = (
                    ours::LZ4_compress_HC(null, d, 0, cap, level),
                    c::LZ4_compress_HC(null, t, 0, cap, level),
                );
                assert_eq!((x, out), (y, theirs), "HC {level}, cap {cap}");
            }
            let mut state_a = vec![0u64; ours::STREAM_SIZE / 8];
            let mut state_b = vec![0u64; ours::STREAM_SIZE / 8];
            let (mut na, mut nb) = (0, 0);
            let (x, y) = (
                ours::LZ4_compress_destSize_extState(
                    state_a.as_mut_ptr().cast(),
                    null,
                    d,
                    &mut na,
                    cap,
                    1,
                ),
                c::LZ4_compress_destSize_extState(
                    state_b.as_mut_ptr().cast(),
                    null,
                    t,
                    &mut nb,
                    cap,
                    1,
                ),
            );
            assert_eq!((x, na, out), (y, nb, theirs), "destSize, cap {cap}");
        }
        assert_eq!(
            ours::LZ4_compress_fast(null, null_mut, 0, 0, 1),
            c::LZ4_compress_fast(null, null_mut, 0, 0, 1)
        );
    }
}
