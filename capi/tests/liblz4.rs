//! The exported functions, called through their C signatures, against liblz4 1.10 (lz4-sys):
//! same bytes, same return values, same `*srcSizePtr`. The crate is built here without the
//! `capi` feature, so its symbols are mangled and link beside liblz4's.

use std::os::raw::{c_char, c_int, c_void};
use std::ptr;

mod common;

use common::{cp, len};
use lz4_simd_capi as ours;
use testkit::samples;
use testkit::Rng;

/// liblz4's functions, declared from lz4.h / lz4hc.h (lz4-sys links the library).
mod c {
    use std::os::raw::{c_char, c_int, c_void};
    extern "C" {
        pub fn LZ4_versionNumber() -> c_int;
        pub fn LZ4_compressBound(n: c_int) -> c_int;
        pub fn LZ4_sizeofState() -> c_int;
        pub fn LZ4_sizeofStateHC() -> c_int;
        pub fn LZ4_sizeofStreamState() -> c_int;
        pub fn LZ4_sizeofStreamStateHC() -> c_int;
        pub fn LZ4_decoderRingBufferSize(n: c_int) -> c_int;
        pub fn LZ4_compress_fast(
            s: *const c_char,
            d: *mut c_char,
            n: c_int,
            cap: c_int,
            a: c_int,
        ) -> c_int;
        pub fn LZ4_compress_fast_extState(
            st: *mut c_void,
            s: *const c_char,
            d: *mut c_char,
            n: c_int,
            cap: c_int,
            a: c_int,
        ) -> c_int;
        pub fn LZ4_compress_destSize(
            s: *const c_char,
            d: *mut c_char,
            n: *mut c_int,
            cap: c_int,
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
        pub fn LZ4_decompress_safe_usingDict(
            s: *const c_char,
            d: *mut c_char,
            n: c_int,
            cap: c_int,
            dict: *const c_char,
            dict_n: c_int,
        ) -> c_int;
        pub fn LZ4_decompress_safe_partial_usingDict(
            s: *const c_char,
            d: *mut c_char,
            n: c_int,
            target: c_int,
            cap: c_int,
            dict: *const c_char,
            dict_n: c_int,
        ) -> c_int;
    }
}

fn inputs() -> Vec<Vec<u8>> {
    let mut rng = Rng::new(7);
    let mut all = vec![
        Vec::new(),
        b"a".to_vec(),
        b"abcabcabcabcabcabcabcabc-end!".to_vec(),
        vec![0u8; 100_000],
    ];
    for len in [13, 200, 5000, 70_000, 300_000] {
        all.push(samples::text(len, &mut rng));
        all.push(samples::logs(len, &mut rng));
        all.push(samples::random(len, &mut rng));
    }
    all
}

fn mp(v: &mut [u8]) -> *mut c_char {
    v.as_mut_ptr().cast()
}

#[test]
fn constants() {
    // SAFETY: functions of no arguments.
    unsafe {
        assert_eq!(ours::LZ4_versionNumber(), c::LZ4_versionNumber());
        assert_eq!(ours::LZ4_sizeofState(), c::LZ4_sizeofState());
        assert_eq!(ours::LZ4_sizeofStateHC(), c::LZ4_sizeofStateHC());
        let version = std::ffi::CStr::from_ptr(ours::LZ4_versionString());
        assert_eq!(version.to_str().unwrap(), "1.10.0");
    }
    // SAFETY: functions of no arguments.
    unsafe {
        assert_eq!(ours::LZ4_sizeofStreamState(), c::LZ4_sizeofStreamState());
        assert_eq!(
            ours::LZ4_sizeofStreamStateHC(),
            c::LZ4_sizeofStreamStateHC()
        );
    }
    let sizes = [
        -1,
        0,
        1,
        15,
        16,
        255,
        1 << 20,
        0x7E00_0000,
        0x7E00_0001,
        c_int::MAX,
        c_int::MIN,
    ];
    for n in sizes {
        // SAFETY: a pure function of its argument.
        let ring = unsafe { c::LZ4_decoderRingBufferSize(n) };
        assert_eq!(ours::LZ4_decoderRingBufferSize(n), ring, "{n}");
        // SAFETY: a pure function of its argument.
        assert_eq!(
            ours::LZ4_compressBound(n),
            unsafe { c::LZ4_compressBound(n) },
            "{n}"
        );
    }
}

/// Compresses `src` into `cap` bytes with both: same return value and bytes.
fn same_fast(src: &[u8], cap: usize, accel: c_int) {
    let (mut a, mut b) = (vec![0u8; cap], vec![0u8; cap]);
    // SAFETY: buffers of the lengths passed.
    let (x, y) = unsafe {
        (
            ours::LZ4_compress_fast(cp(src), mp(&mut a), len(src), cap as c_int, accel),
            c::LZ4_compress_fast(cp(src), mp(&mut b), len(src), cap as c_int, accel),
        )
    };
    assert_eq!(x, y, "len {} cap {cap} accel {accel}", src.len());
    assert_eq!(a[..x as usize], b[..y as usize]);
}

#[test]
fn compress_fast_and_default() {
    let mut state = vec![0u64; ours::STREAM_SIZE / 8];
    for src in inputs() {
        let bound = ours::LZ4_compressBound(len(&src)) as usize;
        for accel in [-5, 0, 1, 2, 17, 65537, c_int::MAX] {
            same_fast(&src, bound, accel);
        }
        // Output limits around the compressed size: liblz4's give-up verdicts.
        let mut full = vec![0u8; bound];
        // SAFETY: buffers of the lengths passed.
        let n = unsafe {
            ours::LZ4_compress_default(cp(&src), mp(&mut full), len(&src), bound as c_int)
        };
        assert!(n > 0);
        for cap in [
            0,
            1,
            n as usize / 2,
            n as usize - 1,
            n as usize,
            n as usize + 1,
            bound - 1,
        ] {
            same_fast(&src, cap, 1);
        }
        // The state form: the same bytes, the table left zeroed and the fields liblz4's (the
        // index and the history's length, the input's; the `u16` or `u32` table kind).
        let mut out = vec![0u8; bound];
        state.fill(u64::MAX);
        // SAFETY: `state` holds `STREAM_SIZE` aligned bytes; buffers of the lengths passed.
        let m = unsafe {
            ours::LZ4_compress_fast_extState(
                state.as_mut_ptr().cast(),
                cp(&src),
                mp(&mut out),
                len(&src),
                bound as c_int,
                1,
            )
        };
        assert_eq!((m, &out[..m as usize]), (n, &full[..n as usize]));
        let kind = match src.len() {
            0 => 0,
            1..65547 => 3,
            _ => 2,
        };
        let fields = src.len() as u64 | kind << 32;
        assert_eq!(state[2048 + 2..], [fields, src.len() as u64]);
        if kind == 2 {
            // The `u32` table is the state's own, as liblz4's.
            let mut theirs = vec![u64::MAX; ours::STREAM_SIZE / 8];
            // SAFETY: as above.
            unsafe {
                c::LZ4_compress_fast_extState(
                    theirs.as_mut_ptr().cast(),
                    cp(&src),
                    mp(&mut out),
                    len(&src),
                    bound as c_int,
                    1,
                )
            };
            assert!(state == theirs);
        } else {
            assert!(state[..2048 + 2].iter().all(|&w| w == 0));
        }
    }
}

#[test]
fn compress_dest_size() {
    for src in inputs() {
        for cap in [0, 1, 2, 10, 100, 1000, 65536, 400_000] {
            let (mut a, mut b) = (vec![0u8; cap], vec![0u8; cap]);
            let (mut na, mut nb) = (len(&src), len(&src));
            // SAFETY: buffers of the lengths passed, live size variables.
            let (x, y) = unsafe {
                (
                    ours::LZ4_compress_destSize(cp(&src), mp(&mut a), &mut na, cap as c_int),
                    c::LZ4_compress_destSize(cp(&src), mp(&mut b), &mut nb, cap as c_int),
                )
            };
            assert_eq!((x, na), (y, nb), "len {} cap {cap}", src.len());
            assert_eq!(a[..x as usize], b[..y as usize]);
        }
    }
}

#[test]
fn compress_hc() {
    let mut state_a = vec![0u64; ours::STREAM_HC_SIZE / 8];
    let mut state_b = vec![0u64; ours::STREAM_HC_SIZE / 8];
    for src in inputs().into_iter().filter(|s| s.len() <= 70_000) {
        let bound = ours::LZ4_compressBound(len(&src)) as usize;
        for level in [-1, 0, 1, 2, 3, 9, 10, 12, 13] {
            let mut caps = vec![bound];
            if level == 9 || level == 12 {
                let n = {
                    let mut out = vec![0u8; bound];
                    // SAFETY: buffers of the lengths passed.
                    unsafe {
                        c::LZ4_compress_HC(cp(&src), mp(&mut out), len(&src), bound as c_int, level)
                    }
                } as usize;
                caps.extend([0, n / 2, n.saturating_sub(1), n, n + 1, bound - 1]);
            }
            for cap in caps {
                let (mut a, mut b) = (vec![0u8; cap], vec![0u8; cap]);
                // SAFETY: buffers of the lengths passed.
                let (x, y) = unsafe {
                    (
                        ours::LZ4_compress_HC(cp(&src), mp(&mut a), len(&src), cap as c_int, level),
                        c::LZ4_compress_HC(cp(&src), mp(&mut b), len(&src), cap as c_int, level),
                    )
                };
                assert_eq!(x, y, "len {} cap {cap} level {level}", src.len());
                assert_eq!(a[..x as usize], b[..y as usize]);
            }
            for cap in [1, 100, 4000] {
                let (mut a, mut b) = (vec![0u8; cap], vec![0u8; cap]);
                let (mut na, mut nb) = (len(&src), len(&src));
                // SAFETY: states of `STREAM_HC_SIZE` aligned bytes, buffers of the lengths passed.
                let (x, y) = unsafe {
                    (
                        ours::LZ4_compress_HC_destSize(
                            state_a.as_mut_ptr().cast(),
                            cp(&src),
                            mp(&mut a),
                            &mut na,
                            cap as c_int,
                            level,
                        ),
                        c::LZ4_compress_HC_destSize(
                            state_b.as_mut_ptr().cast(),
                            cp(&src),
                            mp(&mut b),
                            &mut nb,
                            cap as c_int,
                            level,
                        ),
                    )
                };
                assert_eq!(
                    (x, na),
                    (y, nb),
                    "len {} cap {cap} level {level}",
                    src.len()
                );
                assert_eq!(a[..x as usize], b[..y as usize]);
            }
        }
    }
}

/// Decodes with both into `cap` bytes: same return value and output.
fn same_decode(block: &[u8], cap: usize, target: Option<usize>, dict: &[u8]) {
    let (mut a, mut b) = (vec![0u8; cap], vec![0u8; cap]);
    let cap_c = cap as c_int;
    // SAFETY: buffers of the lengths passed.
    let (x, y) = unsafe {
        match target {
            None => (
                ours::LZ4_decompress_safe_usingDict(
                    cp(block),
                    mp(&mut a),
                    len(block),
                    cap_c,
                    cp(dict),
                    len(dict),
                ),
                c::LZ4_decompress_safe_usingDict(
                    cp(block),
                    mp(&mut b),
                    len(block),
                    cap_c,
                    cp(dict),
                    len(dict),
                ),
            ),
            Some(t) => (
                ours::LZ4_decompress_safe_partial_usingDict(
                    cp(block),
                    mp(&mut a),
                    len(block),
                    t as c_int,
                    cap_c,
                    cp(dict),
                    len(dict),
                ),
                c::LZ4_decompress_safe_partial_usingDict(
                    cp(block),
                    mp(&mut b),
                    len(block),
                    t as c_int,
                    cap_c,
                    cp(dict),
                    len(dict),
                ),
            ),
        }
    };
    assert_eq!(
        x < 0,
        y < 0,
        "block {} cap {cap} target {target:?}: {x} vs {y}",
        block.len()
    );
    if x >= 0 {
        assert_eq!(x, y);
        assert_eq!(a[..x as usize], b[..y as usize]);
    }
}

#[test]
fn decompress() {
    let mut rng = Rng::new(3);
    let dict = samples::text(20_000, &mut rng);
    for src in inputs() {
        let plain = lz4_simd::block::compress(&src).unwrap();
        let with_dict = lz4_simd::block::compress_with_dictionary(&src, &dict, 1).unwrap();
        let n = src.len();
        for cap in [0, 1, n / 2, n.saturating_sub(1), n, n + 100] {
            same_decode(&plain, cap, None, &[]);
            same_decode(&with_dict, cap, None, &dict);
            for target in [0, 1, n / 3, n] {
                same_decode(&plain, cap, Some(target), &[]);
                same_decode(&with_dict, cap, Some(target), &dict);
            }
        }
        let mut out = vec![0u8; n];
        // SAFETY: buffers of the lengths passed.
        let m =
            unsafe { ours::LZ4_decompress_safe(cp(&plain), mp(&mut out), len(&plain), len(&out)) };
        assert_eq!((m as usize, &out), (n, &src));
        // Truncated and damaged blocks fail in both.
        for cut in [0, 1, plain.len() / 2, plain.len().saturating_sub(1)] {
            same_decode(&plain[..cut], n + 100, None, &[]);
        }
    }
}

#[test]
fn dictionary_in_front_of_the_output() {
    // The dictionary is the output buffer's own prefix (liblz4's contiguous case).
    let mut rng = Rng::new(5);
    let dict = samples::text(70_000, &mut rng);
    let src = samples::text(30_000, &mut rng);
    let block = lz4_simd::block::compress_with_dictionary(&src, &dict, 1).unwrap();
    let mut buf = dict.clone();
    buf.resize(dict.len() + src.len(), 0);
    let (head, tail) = buf.split_at_mut(dict.len());
    // SAFETY: `head` and `tail` are adjacent parts of one buffer of the lengths passed.
    let n = unsafe {
        ours::LZ4_decompress_safe_usingDict(
            cp(&block),
            mp(tail),
            len(&block),
            len(tail),
            cp(head),
            len(head),
        )
    };
    assert_eq!(n as usize, src.len());
    assert_eq!(&buf[dict.len()..], &src[..]);
}

#[test]
fn invalid_arguments() {
    let block = lz4_simd::block::compress(b"hello hello hello hello").unwrap();
    let mut out = [0u8; 64];
    // SAFETY: every pointer is null or valid for the length passed with it.
    unsafe {
        // Compression: 0.
        assert_eq!(
            ours::LZ4_compress_default(ptr::null(), mp(&mut out), 10, 64),
            0
        );
        assert_eq!(
            ours::LZ4_compress_default(cp(b"abc"), ptr::null_mut(), 3, 64),
            0
        );
        assert_eq!(
            ours::LZ4_compress_default(cp(b"abc"), mp(&mut out), -1, 64),
            0
        );
        assert_eq!(
            ours::LZ4_compress_default(cp(b"abc"), mp(&mut out), 3, -1),
            0
        );
        assert_eq!(
            ours::LZ4_compress_default(ptr::null(), mp(&mut out), 0, 64),
            1
        );
        assert_eq!(out[0], 0);
        let mut n = 3;
        assert_eq!(
            ours::LZ4_compress_destSize(cp(b"abc"), mp(&mut out), ptr::null_mut(), 64),
            0
        );
        assert_eq!(
            ours::LZ4_compress_destSize(cp(b"abc"), mp(&mut out), &mut n, -5),
            0
        );
        assert_eq!(
            ours::LZ4_compress_fast_extState(ptr::null_mut(), cp(b"abc"), mp(&mut out), 3, 64, 1),
            0
        );
        let mut state = vec![0u64; ours::STREAM_SIZE / 8 + 1];
        let misaligned = state.as_mut_ptr().cast::<u8>().add(1).cast::<c_void>();
        assert_eq!(
            ours::LZ4_compress_fast_extState(misaligned, cp(b"abc"), mp(&mut out), 3, 64, 1),
            0
        );
        assert_eq!(
            ours::LZ4_compress_HC(cp(b"abc"), mp(&mut out), -3, 64, 9),
            0
        );
        // Decompression: negative.
        let n = len(&block);
        assert!(ours::LZ4_decompress_safe(ptr::null(), mp(&mut out), n, 64) < 0);
        assert!(ours::LZ4_decompress_safe(cp(&block), mp(&mut out), n, -1) < 0);
        assert!(ours::LZ4_decompress_safe(cp(&block), mp(&mut out), -1, 64) < 0);
        assert!(ours::LZ4_decompress_safe(cp(&block), ptr::null_mut(), n, 64) < 0);
        assert!(
            ours::LZ4_decompress_safe_usingDict(cp(&block), mp(&mut out), n, 64, ptr::null(), 5)
                < 0
        );
        assert!(
            ours::LZ4_decompress_safe_usingDict(cp(&block), mp(&mut out), n, 64, cp(b"ab"), -2) < 0
        );
        assert_eq!(
            ours::LZ4_decompress_safe_partial(cp(&block), mp(&mut out), n, 0, 64),
            0
        );
        assert_eq!(
            ours::LZ4_decompress_safe(cp(&[0]), ptr::null_mut(), 1, 0),
            0
        );
        assert!(ours::LZ4_decompress_safe(cp(&[0x0f]), ptr::null_mut(), 1, 0) < 0);
    }
}

#[test]
fn in_place_buffers() {
    // Overlapping input and output are allowed (the input is copied first).
    let src = b"in place, in place, in place, in place, in place".to_vec();
    let bound = ours::LZ4_compressBound(len(&src)) as usize;
    let mut buf = vec![0u8; bound + src.len()];
    buf[..src.len()].copy_from_slice(&src);
    let p = buf.as_mut_ptr().cast::<c_char>();
    // SAFETY: both ranges lie in `buf`.
    let n = unsafe { ours::LZ4_compress_default(p, p, len(&src), bound as c_int) };
    assert_eq!(
        &buf[..n as usize],
        &lz4_simd::block::compress(&src).unwrap()[..]
    );
    // SAFETY: both ranges lie in `buf` (the block at its end, the output at its start).
    let back = unsafe {
        let at = buf.len() - n as usize;
        std::ptr::copy(p, p.add(at), n as usize);
        ours::LZ4_decompress_safe(p.add(at), p, n, len(&src))
    };
    assert_eq!(&buf[..back as usize], &src[..]);
}

#[test]
fn older_names() {
    let src = samples::text(50_000, &mut Rng::new(9));
    let bound = ours::LZ4_compressBound(len(&src));
    let mut expect = vec![0u8; bound as usize];
    let mut got = vec![0u8; bound as usize];
    let mut state = vec![0u64; ours::STREAM_HC_SIZE / 8];
    let st = state.as_mut_ptr().cast::<c_void>();
    let n = len(&src);
    // SAFETY: buffers of `bound` bytes, a state of `STREAM_HC_SIZE` aligned bytes (enough for both
    // kinds).
    unsafe {
        let fast = ours::LZ4_compress_default(cp(&src), mp(&mut expect), n, bound);
        let fast_out = expect[..fast as usize].to_vec();
        for r in [
            ours::LZ4_compress(cp(&src), mp(&mut got), n),
            ours::LZ4_compress_limitedOutput(cp(&src), mp(&mut got), n, bound),
            ours::LZ4_compress_withState(st, cp(&src), mp(&mut got), n),
            ours::LZ4_compress_limitedOutput_withState(st, cp(&src), mp(&mut got), n, bound),
            ours::LZ4_compress_fast_extState_fastReset(st, cp(&src), mp(&mut got), n, bound, 1),
        ] {
            assert_eq!((r, &got[..r as usize]), (fast, &fast_out[..]));
        }
        for level in [0, 4, 9, 12] {
            let hc = c::LZ4_compress_HC(cp(&src), mp(&mut expect), n, bound, level);
            let hc_out = expect[..hc as usize].to_vec();
            let mut results = vec![
                ours::LZ4_compressHC2(cp(&src), mp(&mut got), n, level),
                ours::LZ4_compressHC2_limitedOutput(cp(&src), mp(&mut got), n, bound, level),
                ours::LZ4_compressHC2_withStateHC(st, cp(&src), mp(&mut got), n, level),
                ours::LZ4_compressHC2_limitedOutput_withStateHC(
                    st,
                    cp(&src),
                    mp(&mut got),
                    n,
                    bound,
                    level,
                ),
                ours::LZ4_compress_HC_extStateHC_fastReset(
                    st,
                    cp(&src),
                    mp(&mut got),
                    n,
                    bound,
                    level,
                ),
            ];
            if level == 0 {
                results.extend([
                    ours::LZ4_compressHC(cp(&src), mp(&mut got), n),
                    ours::LZ4_compressHC_limitedOutput(cp(&src), mp(&mut got), n, bound),
                    ours::LZ4_compressHC_withStateHC(st, cp(&src), mp(&mut got), n),
                    ours::LZ4_compressHC_limitedOutput_withStateHC(
                        st,
                        cp(&src),
                        mp(&mut got),
                        n,
                        bound,
                    ),
                ]);
            }
            for r in results {
                assert_eq!(r, hc, "level {level}");
            }
            let r = ours::LZ4_compressHC2(cp(&src), mp(&mut got), n, level);
            assert_eq!(&got[..r as usize], &hc_out[..]);
        }
        let c = ours::LZ4_compress(cp(&src), mp(&mut expect), n);
        let mut back = vec![0u8; src.len()];
        assert_eq!(
            ours::LZ4_uncompress_unknownOutputSize(cp(&expect), mp(&mut back), c, n),
            n
        );
        assert_eq!(back, src);
    }
}

mod cstream {
    use std::os::raw::{c_char, c_int, c_void};
    extern "C" {
        pub fn LZ4_setStreamDecode(s: *mut c_void, dict: *const c_char, n: c_int) -> c_int;
        pub fn LZ4_decompress_safe_continue(
            s: *mut c_void,
            src: *const c_char,
            dst: *mut c_char,
            n: c_int,
            cap: c_int,
        ) -> c_int;
        pub fn LZ4_decompress_safe_withPrefix64k(
            src: *const c_char,
            dst: *mut c_char,
            n: c_int,
            cap: c_int,
        ) -> c_int;
    }
}

/// Linked blocks of `data` (each may reference the one before), from `dict` on.
fn linked_blocks(data: &[u8], block: usize, dict: &[u8]) -> Vec<(Vec<u8>, usize)> {
    let prepared = lz4_simd::block::Dictionary::new(dict);
    let mut stream = if dict.is_empty() {
        lz4_simd::block::StreamCompressor::new()
    } else {
        lz4_simd::block::StreamCompressor::with_prepared_dictionary(&prepared)
    };
    data.chunks(block)
        .map(|chunk| {
            let mut out = vec![0u8; lz4_simd::block::compress_bound(chunk.len())];
            let n = stream.compress_into(chunk, &mut out, 1).unwrap();
            out.truncate(n);
            (out, chunk.len())
        })
        .collect()
}

#[derive(Clone, Copy, Debug)]
enum Placement {
    Contiguous,
    Ring,
    Alternate,
}

/// Decodes the blocks with both libraries into arenas at the same places: same results.
fn same_stream(blocks: &[(Vec<u8>, usize)], dict: &[u8], placement: Placement, max_block: usize) {
    const ARENA: usize = 1 << 20;
    let (mut a, mut b, mut c) = (vec![0u8; ARENA], vec![0u8; ARENA], vec![0u8; ARENA]);
    let mut state_a = [0u64; 4];
    let heap = ours::LZ4_createStreamDecode();
    let mut state_b = [0u64; 4];
    let ring = ours::LZ4_decoderRingBufferSize(max_block as c_int) as usize;
    let mut at = 0;
    // SAFETY: states of 32 bytes, dictionary and arenas valid for the lengths passed; each block
    // is decoded where the earlier output it references still is.
    unsafe {
        let sa = state_a.as_mut_ptr().cast::<c_void>();
        let sb = state_b.as_mut_ptr().cast::<c_void>();
        assert_eq!(ours::LZ4_setStreamDecode(sa.cast(), cp(dict), len(dict)), 1);
        assert_eq!(ours::LZ4_setStreamDecode(heap, cp(dict), len(dict)), 1);
        assert_eq!(cstream::LZ4_setStreamDecode(sb, cp(dict), len(dict)), 1);
        for (i, (block, n)) in blocks.iter().enumerate() {
            at = match placement {
                Placement::Contiguous => at,
                Placement::Ring if at + n > ring => 0,
                Placement::Ring => at,
                Placement::Alternate => (i % 2) * (ARENA / 2),
            };
            let pa = a.as_mut_ptr().add(at).cast::<c_char>();
            let pb = b.as_mut_ptr().add(at).cast::<c_char>();
            let x = ours::LZ4_decompress_safe_continue(
                sa.cast(),
                cp(block),
                pa,
                len(block),
                *n as c_int,
            );
            let y =
                cstream::LZ4_decompress_safe_continue(sb, cp(block), pb, len(block), *n as c_int);
            assert_eq!(
                (x, &a[at..at + n]),
                (y, &b[at..at + n]),
                "{placement:?} block {i}"
            );
            assert_eq!(x as usize, *n);
            // The allocated stream, into its own arena at the same place.
            let pc = c.as_mut_ptr().add(at).cast::<c_char>();
            let z =
                ours::LZ4_decompress_safe_continue(heap, cp(block), pc, len(block), *n as c_int);
            assert_eq!((z, &c[at..at + n]), (x, &a[at..at + n]));
            at += n;
        }
        assert_eq!(ours::LZ4_freeStreamDecode(heap), 0);
        assert_eq!(ours::LZ4_freeStreamDecode(std::ptr::null_mut()), 0);
    }
}

#[test]
fn stream_decode() {
    let mut rng = Rng::new(11);
    let data = samples::logs(400_000, &mut rng);
    let dict = samples::logs(30_000, &mut rng);
    for block in [1000, 4096, 20_000, 65536] {
        for placement in [Placement::Contiguous, Placement::Ring, Placement::Alternate] {
            same_stream(&linked_blocks(&data, block, &[]), &[], placement, block);
            if !matches!(placement, Placement::Ring) {
                same_stream(&linked_blocks(&data, block, &dict), &dict, placement, block);
            }
        }
    }
}

#[test]
fn stream_decode_errors_leave_the_stream() {
    let data = samples::text(50_000, &mut Rng::new(2));
    let blocks = linked_blocks(&data, 10_000, &[]);
    let mut out = vec![0u8; data.len()];
    let mut state = [0u64; 4];
    let s = state.as_mut_ptr().cast();
    // SAFETY: a 32-byte state, buffers valid for the lengths passed.
    unsafe {
        let mut at = 0;
        for (block, n) in &blocks {
            let p = out.as_mut_ptr().add(at).cast::<c_char>();
            // A truncated block fails and changes nothing; the whole one then decodes.
            assert!(
                ours::LZ4_decompress_safe_continue(s, cp(block), p, len(block) - 1, *n as c_int)
                    < 0
            );
            assert!(
                ours::LZ4_decompress_safe_continue(s, cp(block), p, len(block), *n as c_int - 1)
                    < 0
            );
            assert_eq!(
                ours::LZ4_decompress_safe_continue(s, cp(block), p, len(block), *n as c_int),
                *n as c_int
            );
            at += n;
        }
        assert!(
            ours::LZ4_decompress_safe_continue(
                std::ptr::null_mut(),
                cp(&blocks[0].0),
                out.as_mut_ptr().cast(),
                10,
                10
            ) < 0
        );
    }
    assert_eq!(out, data);
}

#[test]
fn prefix_64k() {
    let mut rng = Rng::new(4);
    let dict = samples::text(70_000, &mut rng);
    let src = samples::text(20_000, &mut rng);
    let block = lz4_simd::block::compress_with_dictionary(&src, &dict, 1).unwrap();
    let (mut a, mut b) = (dict.clone(), dict.clone());
    a.resize(dict.len() + src.len(), 0);
    b.resize(dict.len() + src.len(), 0);
    // SAFETY: 64 KiB and more before the output in both buffers.
    let (x, y) = unsafe {
        (
            ours::LZ4_decompress_safe_withPrefix64k(
                cp(&block),
                a.as_mut_ptr().add(dict.len()).cast(),
                len(&block),
                len(&src),
            ),
            cstream::LZ4_decompress_safe_withPrefix64k(
                cp(&block),
                b.as_mut_ptr().add(dict.len()).cast(),
                len(&block),
                len(&src),
            ),
        )
    };
    assert_eq!((x, &a), (y, &b));
    assert_eq!(&a[dict.len()..], &src[..]);
}

mod cfast {
    use std::os::raw::{c_char, c_int, c_void};
    extern "C" {
        pub fn LZ4_decompress_safe_partial_forceExtDict(
            src: *const c_char,
            dst: *mut c_char,
            n: c_int,
            target: c_int,
            cap: c_int,
            dict: *const c_void,
            dict_n: usize,
        ) -> c_int;
        pub fn LZ4_decompress_fast(src: *const c_char, dst: *mut c_char, n: c_int) -> c_int;
        pub fn LZ4_decompress_fast_usingDict(
            src: *const c_char,
            dst: *mut c_char,
            n: c_int,
            dict: *const c_char,
            dict_n: c_int,
        ) -> c_int;
        pub fn LZ4_decompress_fast_continue(
            s: *mut c_void,
            src: *const c_char,
            dst: *mut c_char,
            n: c_int,
        ) -> c_int;
    }
}

#[test]
fn decompress_fast() {
    let mut rng = Rng::new(8);
    let dict = samples::text(30_000, &mut rng);
    for src in inputs() {
        let n = src.len();
        let plain = lz4_simd::block::compress(&src).unwrap();
        let with_dict = lz4_simd::block::compress_with_dictionary(&src, &dict, 1).unwrap();
        for size in [n, n.saturating_sub(1), n.saturating_sub(5), 0] {
            let (mut a, mut b) = (vec![0u8; size], vec![0u8; size]);
            // SAFETY: complete blocks, outputs of `size` bytes; sizes below the block's make both
            // stop before its end.
            unsafe {
                let x = ours::LZ4_decompress_fast(cp(&plain), mp(&mut a), size as c_int);
                let y = cfast::LZ4_decompress_fast(cp(&plain), mp(&mut b), size as c_int);
                assert_eq!(x < 0, y < 0, "len {n} size {size}: {x} vs {y}");
                if x >= 0 {
                    assert_eq!((x, &a), (y, &b));
                }
                let x = ours::LZ4_decompress_fast_usingDict(
                    cp(&with_dict),
                    mp(&mut a),
                    size as c_int,
                    cp(&dict),
                    len(&dict),
                );
                let y = cfast::LZ4_decompress_fast_usingDict(
                    cp(&with_dict),
                    mp(&mut b),
                    size as c_int,
                    cp(&dict),
                    len(&dict),
                );
                assert_eq!(x < 0, y < 0, "dict: len {n} size {size}: {x} vs {y}");
                if x >= 0 {
                    assert_eq!((x, &a), (y, &b));
                }
            }
        }
    }
    // A stream, contiguous.
    let data = samples::logs(200_000, &mut rng);
    let blocks = linked_blocks(&data, 7000, &[]);
    let (mut a, mut b) = (vec![0u8; data.len()], vec![0u8; data.len()]);
    let (mut sa, mut sb) = ([0u64; 4], [0u64; 4]);
    let mut at = 0;
    for (block, n) in &blocks {
        // SAFETY: 32-byte states, complete blocks, outputs in place after the earlier ones.
        unsafe {
            let x = ours::LZ4_decompress_fast_continue(
                sa.as_mut_ptr().cast(),
                cp(block),
                a.as_mut_ptr().add(at).cast(),
                *n as c_int,
            );
            let y = cfast::LZ4_decompress_fast_continue(
                sb.as_mut_ptr().cast(),
                cp(block),
                b.as_mut_ptr().add(at).cast(),
                *n as c_int,
            );
            assert_eq!((x, len(block)), (y, len(block)));
        }
        at += n;
    }
    assert_eq!((&a, &b), (&data, &data));
}

#[test]
fn force_ext_dict() {
    let mut rng = Rng::new(12);
    let dict = samples::text(100_000, &mut rng);
    let src = samples::text(40_000, &mut rng);
    let block = lz4_simd::block::compress_with_dictionary(&src, &dict, 1).unwrap();
    let d = dict.as_ptr().cast::<c_void>();
    for (target, cap) in [
        (src.len(), src.len()),
        (1000, src.len()),
        (src.len(), 10),
        (0, 5),
    ] {
        let (mut a, mut b) = (vec![0u8; cap], vec![0u8; cap]);
        // SAFETY: buffers valid for the lengths passed.
        let (x, y) = unsafe {
            (
                ours::LZ4_decompress_safe_partial_forceExtDict(
                    cp(&block),
                    mp(&mut a),
                    len(&block),
                    target as c_int,
                    cap as c_int,
                    d,
                    dict.len(),
                ),
                cfast::LZ4_decompress_safe_partial_forceExtDict(
                    cp(&block),
                    mp(&mut b),
                    len(&block),
                    target as c_int,
                    cap as c_int,
                    d,
                    dict.len(),
                ),
            )
        };
        assert_eq!((x, &a), (y, &b), "target {target} cap {cap}");
    }
    let mut out = vec![0u8; src.len()];
    // SAFETY: buffers valid for the lengths passed.
    let n = unsafe {
        ours::LZ4_decompress_safe_forceExtDict(
            cp(&block),
            mp(&mut out),
            len(&block),
            len(&src),
            d,
            dict.len(),
        )
    };
    assert_eq!((n as usize, &out), (src.len(), &src));
}

#[test]
fn compress_dest_size_accelerated() {
    let mut state_a = vec![0u64; ours::STREAM_SIZE / 8];
    let mut state_b = vec![0u64; ours::STREAM_SIZE / 8];
    for src in inputs() {
        for accel in [1, 2, 5, 100, 65537] {
            for cap in [1, 100, 5000, 400_000] {
                let (mut a, mut b) = (vec![0u8; cap], vec![0u8; cap]);
                let (mut na, mut nb) = (len(&src), len(&src));
                // SAFETY: states of `STREAM_SIZE` aligned bytes, buffers of the lengths passed.
                let (x, y) = unsafe {
                    (
                        ours::LZ4_compress_destSize_extState(
                            state_a.as_mut_ptr().cast(),
                            cp(&src),
                            mp(&mut a),
                            &mut na,
                            cap as c_int,
                            accel,
                        ),
                        c::LZ4_compress_destSize_extState(
                            state_b.as_mut_ptr().cast(),
                            cp(&src),
                            mp(&mut b),
                            &mut nb,
                            cap as c_int,
                            accel,
                        ),
                    )
                };
                assert_eq!(
                    (x, na),
                    (y, nb),
                    "len {} cap {cap} accel {accel}",
                    src.len()
                );
                assert_eq!(a[..x as usize], b[..y as usize]);
            }
        }
    }
}
