//! HC streams (`LZ4_streamHC_t`) in states a careless caller leaves: tables and indices
//! overwritten with garbage after initialisation, levels outside 1-12 stored in the state,
//! dictionaries attached to streams that hold an external dictionary. Every block must decode
//! to its input with the history the caller kept (no panic, no read outside the history), and
//! where liblz4 1.10 is defined the bytes are liblz4's.

use std::os::raw::{c_char, c_int, c_void};

use lz4_simd_capi as ours;
use testkit::samples;
use testkit::Rng;

mod c {
    use std::os::raw::{c_char, c_int, c_void};
    extern "C" {
        pub fn LZ4_initStreamHC(buffer: *mut c_void, size: usize) -> *mut c_void;
        pub fn LZ4_loadDictHC(s: *mut c_void, d: *const c_char, n: c_int) -> c_int;
        pub fn LZ4_attach_HC_dictionary(s: *mut c_void, d: *const c_void);
        pub fn LZ4_setCompressionLevel(s: *mut c_void, level: c_int);
        pub fn LZ4_compress_HC_continue(
            s: *mut c_void,
            src: *const c_char,
            dst: *mut c_char,
            n: c_int,
            cap: c_int,
        ) -> c_int;
        pub fn LZ4_compressHC2_continue(
            s: *mut c_void,
            src: *const c_char,
            dst: *mut c_char,
            n: c_int,
            level: c_int,
        ) -> c_int;
        pub fn LZ4_decompress_safe_usingDict(
            src: *const c_char,
            dst: *mut c_char,
            n: c_int,
            cap: c_int,
            dict: *const c_char,
            dict_size: c_int,
        ) -> c_int;
        pub fn LZ4_compressBound(n: c_int) -> c_int;
    }
}

/// `sizeof(LZ4_streamHC_t)`.
const STATE: usize = 262_200;
/// Offsets in the state: the tables, then `end`, `prefixStart`, `dictStart` (pointers),
/// `dictLimit`, `lowLimit`, `nextToUpdate` (`u32`), `compressionLevel` (`i16`).
const TABLES: usize = 2 * 131_072;
const DICT_LIMIT: usize = TABLES + 24;
const LOW_LIMIT: usize = DICT_LIMIT + 4;
const NEXT_TO_UPDATE: usize = LOW_LIMIT + 4;
const LEVEL: usize = NEXT_TO_UPDATE + 4;

/// A pointer-aligned `LZ4_streamHC_t`.
struct State(Vec<u64>);

impl State {
    fn new() -> Self {
        State(vec![0; STATE / 8 + 1])
    }
    fn ptr(&mut self) -> *mut c_void {
        self.0.as_mut_ptr().cast()
    }
    fn bytes(&mut self) -> &mut [u8] {
        // SAFETY: the vector's `STATE + 8` bytes, borrowed mutably through `self`.
        unsafe { std::slice::from_raw_parts_mut(self.0.as_mut_ptr().cast(), STATE) }
    }
    fn put_u32(&mut self, at: usize, v: u32) {
        self.bytes()[at..at + 4].copy_from_slice(&v.to_ne_bytes());
    }
    fn get_u32(&mut self, at: usize) -> u32 {
        u32::from_ne_bytes(self.bytes()[at..at + 4].try_into().unwrap())
    }
}

fn data(len: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut out = samples::text(len / 2, &mut rng);
    out.extend_from_slice(&samples::logs(len / 4, &mut rng));
    out.extend_from_slice(&b"abcabcabd".repeat(len / 36 + 1));
    out.extend_from_slice(&samples::text(len, &mut rng));
    out.truncate(len);
    out
}

fn bound(n: usize) -> usize {
    // SAFETY: no pointer argument.
    unsafe { c::LZ4_compressBound(n as c_int) as usize }
}

/// Decodes `block` with liblz4, `dict` as the history, and checks it is `expected`.
fn check_decodes(block: &[u8], dict: &[u8], expected: &[u8], what: &str) {
    let mut out = vec![0u8; expected.len() + 16];
    // SAFETY: the slices' lengths are passed.
    let n = unsafe {
        c::LZ4_decompress_safe_usingDict(
            block.as_ptr().cast(),
            out.as_mut_ptr().cast(),
            block.len() as c_int,
            out.len() as c_int,
            dict.as_ptr().cast(),
            dict.len() as c_int,
        )
    };
    assert_eq!(n, expected.len() as c_int, "{what}: decoded size");
    assert!(out[..expected.len()] == *expected, "{what}: decoded bytes");
}

/// Compresses `input[at..at + n]` as the next block of `state` (ours) into the bound, and
/// checks it decodes with the history `input[..at]`.
fn next_block(state: &mut State, input: &[u8], at: usize, n: usize, what: &str) -> Vec<u8> {
    let mut out = vec![0u8; bound(n)];
    // SAFETY: the buffers' lengths are passed; the history is `input`, in place.
    let r = unsafe {
        ours::LZ4_compress_HC_continue(
            state.ptr().cast(),
            input[at..].as_ptr().cast(),
            out.as_mut_ptr().cast(),
            n as c_int,
            out.len() as c_int,
        )
    };
    assert!(r > 0, "{what}: compression failed");
    out.truncate(r as usize);
    let history = &input[at.saturating_sub(65_536)..at];
    check_decodes(&out, history, &input[at..at + n], what);
    out
}

const LEVELS: [c_int; 5] = [2, 4, 9, 10, 12];

/// Tables overwritten with random bytes after a first block: the next blocks (prefix mode,
/// then apart, which enters the prefix into the tables as the external dictionary) still
/// decode to their input.
#[test]
fn garbage_tables() {
    let input = data(400_000, 1);
    for level in LEVELS {
        for seed in 0..4u64 {
            let mut rng = Rng::new(seed + 100);
            let mut s = State::new();
            // SAFETY: `STATE` writable, aligned bytes.
            unsafe { ours::LZ4_initStreamHC(s.ptr(), STATE) };
            // SAFETY: an initialised state.
            unsafe { ours::LZ4_setCompressionLevel(s.ptr().cast(), level) };
            let what = format!("level {level}, seed {seed}");
            next_block(&mut s, &input, 0, 30_000, &what);
            for b in &mut s.bytes()[..TABLES] {
                *b = rng.next_u64() as u8;
            }
            next_block(&mut s, &input, 30_000, 50_000, &what);
            for b in &mut s.bytes()[..TABLES] {
                *b = rng.next_u64() as u8;
            }
            // Apart: the input at 200_000, the history the block before (its last 64 KiB).
            let mut out = vec![0u8; bound(40_000)];
            // SAFETY: as in `next_block`.
            let r = unsafe {
                ours::LZ4_compress_HC_continue(
                    s.ptr().cast(),
                    input[200_000..].as_ptr().cast(),
                    out.as_mut_ptr().cast(),
                    40_000,
                    out.len() as c_int,
                )
            };
            assert!(r > 0, "{what}");
            // A decoder given the previous block (its last 64 KiB) as the dictionary.
            check_decodes(
                &out[..r as usize],
                &input[80_000 - 65_536..80_000],
                &input[200_000..240_000],
                &what,
            );
            for b in &mut s.bytes()[..TABLES] {
                *b = rng.next_u64() as u8;
            }
            next_block(&mut s, &input, 240_000, 70_000, &what);
        }
    }
}

/// Indices overwritten (the pointers left valid): `nextToUpdate` anywhere, `dictLimit` and
/// `lowLimit` at the ends of the index space or crossed. No panic, and every block decodes.
#[test]
fn garbage_indices() {
    let input = data(300_000, 2);
    let values = [
        0u32,
        1,
        65_535,
        65_536,
        1 << 30,
        (1 << 31) - 1,
        1 << 31,
        u32::MAX - 70_000,
        u32::MAX - 1,
        u32::MAX,
    ];
    for level in LEVELS {
        for (k, &v) in values.iter().enumerate() {
            for field in [NEXT_TO_UPDATE, DICT_LIMIT, LOW_LIMIT, usize::MAX] {
                let mut s = State::new();
                // SAFETY: `STATE` writable, aligned bytes.
                unsafe { ours::LZ4_initStreamHC(s.ptr(), STATE) };
                // SAFETY: an initialised state.
                unsafe { ours::LZ4_setCompressionLevel(s.ptr().cast(), level) };
                let what = format!("level {level}, value {v}, field {field}");
                next_block(&mut s, &input, 0, 20_000, &what);
                if field == usize::MAX {
                    // All three, as a state moved by a constant would have them.
                    let dict_limit = s.get_u32(DICT_LIMIT);
                    for f in [NEXT_TO_UPDATE, DICT_LIMIT, LOW_LIMIT] {
                        let old = s.get_u32(f);
                        s.put_u32(f, old.wrapping_sub(dict_limit).wrapping_add(v));
                    }
                } else {
                    s.put_u32(field, v);
                    if field == DICT_LIMIT {
                        s.put_u32(LOW_LIMIT, values[(k + 3) % values.len()]);
                    }
                }
                if field == NEXT_TO_UPDATE || field == usize::MAX {
                    // The history is the previous block: the blocks must decode with it.
                    next_block(&mut s, &input, 20_000, 30_000, &what);
                    next_block(&mut s, &input, 50_000, 70_000, &what);
                } else {
                    // Crossed limits put the history anywhere: only no panic and a result that
                    // decodes with the history the stream can have (its last 64 KiB) or 0.
                    let mut out = vec![0u8; bound(30_000)];
                    // SAFETY: the buffers' lengths are passed; the prefix is in place.
                    let _ = unsafe {
                        ours::LZ4_compress_HC_continue(
                            s.ptr().cast(),
                            input[20_000..].as_ptr().cast(),
                            out.as_mut_ptr().cast(),
                            30_000,
                            out.len() as c_int,
                        )
                    };
                }
            }
        }
    }
}

/// A whole state of random bytes (pointers included) is usable after `LZ4_resetStreamHC_fast`
/// and by `LZ4_compress_HC_extStateHC_fastReset`, which reset every pointer and index: only the
/// tables keep garbage, which must not reach the output.
#[test]
fn random_state_after_fast_reset() {
    let input = data(200_000, 3);
    for level in LEVELS {
        for seed in 0..6u64 {
            let mut rng = Rng::new(seed + 7);
            let what = format!("level {level}, seed {seed}");
            let mut s = State::new();
            for b in s.bytes() {
                *b = rng.next_u64() as u8;
            }
            // `dirty` off for one half (the tables kept), on for the other.
            s.bytes()[LEVEL + 3] = (seed % 2) as u8;
            let mut out = vec![0u8; bound(50_000)];
            // SAFETY: a state "initialised" in the caller's eyes; the buffers' lengths passed.
            let r = unsafe {
                ours::LZ4_compress_HC_extStateHC_fastReset(
                    s.ptr(),
                    input.as_ptr().cast(),
                    out.as_mut_ptr().cast(),
                    50_000,
                    out.len() as c_int,
                    level,
                )
            };
            assert!(r > 0, "{what}");
            check_decodes(&out[..r as usize], &[], &input[..50_000], &what);

            for b in s.bytes() {
                *b = rng.next_u64() as u8;
            }
            s.bytes()[LEVEL + 3] = (seed % 2) as u8;
            // SAFETY: as above.
            unsafe { ours::LZ4_resetStreamHC_fast(s.ptr().cast(), level) };
            let mut out = vec![0u8; bound(60_000)];
            // SAFETY: as above.
            let r = unsafe {
                ours::LZ4_compress_HC_continue(
                    s.ptr().cast(),
                    input[100_000..].as_ptr().cast(),
                    out.as_mut_ptr().cast(),
                    60_000,
                    out.len() as c_int,
                )
            };
            assert!(r > 0, "{what}");
            check_decodes(&out[..r as usize], &[], &input[100_000..160_000], &what);
            next_block(&mut s, &input, 160_000, 30_000, &what);
        }
    }
}

/// One library's calls for the differential cases below.
struct Lib {
    init: unsafe fn(*mut c_void, usize) -> *mut c_void,
    load: unsafe fn(*mut c_void, *const c_char, c_int) -> c_int,
    attach: unsafe fn(*mut c_void, *const c_void),
    cont: unsafe fn(*mut c_void, *const c_char, *mut c_char, c_int, c_int) -> c_int,
    hc2: unsafe fn(*mut c_void, *const c_char, *mut c_char, c_int, c_int) -> c_int,
    level: unsafe fn(*mut c_void, c_int),
}

const LIBLZ4: Lib = Lib {
    // SAFETY (each): the C function's contract, the caller's.
    init: |b, n| unsafe { c::LZ4_initStreamHC(b, n) },
    load: |s, d, n| unsafe { c::LZ4_loadDictHC(s, d, n) },
    attach: |s, d| unsafe { c::LZ4_attach_HC_dictionary(s, d) },
    cont: |s, a, b, n, m| unsafe { c::LZ4_compress_HC_continue(s, a, b, n, m) },
    hc2: |s, a, b, n, l| unsafe { c::LZ4_compressHC2_continue(s, a, b, n, l) },
    level: |s, l| unsafe { c::LZ4_setCompressionLevel(s, l) },
};

const OURS: Lib = Lib {
    init: |b, n| unsafe { ours::LZ4_initStreamHC(b, n).cast() },
    load: |s, d, n| unsafe { ours::LZ4_loadDictHC(s.cast(), d, n) },
    attach: |s, d| unsafe { ours::LZ4_attach_HC_dictionary(s.cast(), d.cast()) },
    cont: |s, a, b, n, m| unsafe { ours::LZ4_compress_HC_continue(s.cast(), a, b, n, m) },
    hc2: |s, a, b, n, l| unsafe { ours::LZ4_compressHC2_continue(s.cast(), a, b, n, l) },
    level: |s, l| unsafe { ours::LZ4_setCompressionLevel(s.cast(), l) },
};

/// Runs `f` for both libraries on fresh states (the working one, the dictionary one) and the
/// same input buffer, and compares what it records plus the final states.
fn differential(
    what: &str,
    input: &[u8],
    f: impl Fn(&Lib, *mut c_void, *mut c_void, &[u8], &mut Vec<Vec<u8>>),
) {
    let mut traces = Vec::new();
    for lib in [&LIBLZ4, &OURS] {
        let mut s = State::new();
        let mut d = State::new();
        let mut trace = Vec::new();
        // SAFETY: `STATE` writable, aligned bytes each.
        unsafe {
            (lib.init)(s.ptr(), STATE);
            (lib.init)(d.ptr(), STATE);
        }
        f(lib, s.ptr(), d.ptr(), input, &mut trace);
        trace.push(s.bytes().to_vec());
        traces.push(trace);
    }
    let (a, b) = (&traces[0], &traces[1]);
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        if x != y {
            let first = x
                .iter()
                .zip(y)
                .position(|(p, q)| p != q)
                .unwrap_or(x.len().min(y.len()));
            panic!(
                "{what}: record {i} differs at byte {first} of {} / {} (liblz4 left, lz4-simd right)",
                x.len(),
                y.len()
            );
        }
    }
    assert_eq!(a.len(), b.len(), "{what}");
}

/// Compresses `input[at..at + n]` with `lib` into the bound; records the output.
fn block(lib: &Lib, s: *mut c_void, input: &[u8], at: usize, n: usize, trace: &mut Vec<Vec<u8>>) {
    let mut out = vec![0u8; bound(n)];
    // SAFETY: the buffers' lengths are passed; the history is in `input`, in place.
    let r = unsafe {
        (lib.cont)(
            s,
            input[at..].as_ptr().cast(),
            out.as_mut_ptr().cast(),
            n as c_int,
            out.len() as c_int,
        )
    };
    out.truncate(r.max(0) as usize);
    trace.push(out);
}

/// A dictionary attached to a stream that holds an external dictionary (a block compressed
/// apart from the one before, and less than 64 KiB in all): liblz4 searches both.
#[test]
fn attached_to_a_stream_with_an_external_dictionary() {
    let input = data(300_000, 4);
    for level in LEVELS {
        differential(
            &format!("level {level}"),
            &input,
            |lib, s, d, input, trace| {
                // SAFETY: initialised states; the dictionary stays in `input`.
                unsafe {
                    (lib.level)(d, 9);
                    (lib.load)(d, input[100_000..].as_ptr().cast(), 30_000);
                    (lib.level)(s, level);
                }
                block(lib, s, input, 0, 2000, trace);
                block(lib, s, input, 10_000, 3000, trace);
                // SAFETY: both initialised, the dictionary in place.
                unsafe { (lib.attach)(s, d.cast_const()) };
                block(lib, s, input, 20_000, 3000, trace);
                block(lib, s, input, 23_000, 5000, trace);
            },
        );
    }
}

/// Levels outside 1-12 stored in the state (`LZ4_compressHC2_continue` with an attached
/// dictionary stores its level as given), then `LZ4_loadDictHC`, which keeps the level as
/// `LZ4_setCompressionLevel` takes it.
#[test]
fn unclamped_level_in_the_state() {
    let input = data(300_000, 5);
    for level in [-5, 0, 13, 100, 40_000] {
        differential(
            &format!("level {level}"),
            &input,
            |lib, s, d, input, trace| {
                // SAFETY: initialised states; the dictionary stays in `input`.
                unsafe { (lib.load)(d, input[100_000..].as_ptr().cast(), 30_000) };
                // SAFETY: both initialised, the dictionary in place.
                unsafe { (lib.attach)(s, d.cast_const()) };
                let mut out = vec![0u8; bound(10_000)];
                // SAFETY: the output holds the bound.
                let r = unsafe {
                    (lib.hc2)(
                        s,
                        input.as_ptr().cast(),
                        out.as_mut_ptr().cast(),
                        10_000,
                        level,
                    )
                };
                out.truncate(r.max(0) as usize);
                trace.push(out);
                let mut st = State::new();
                // SAFETY: a copy of the state as it is, then the dictionary loaded again.
                unsafe {
                    std::ptr::copy_nonoverlapping(s.cast::<u8>(), st.ptr().cast::<u8>(), STATE);
                }
                trace.push(st.bytes().to_vec());
                // SAFETY: an initialised state; the dictionary in `input`.
                let r = unsafe { (lib.load)(s, input[150_000..].as_ptr().cast(), 20_000) };
                trace.push(r.to_ne_bytes().to_vec());
                block(lib, s, input, 170_000, 20_000, trace);
            },
        );
    }
}
