//! The frame API's dictionaries (`LZ4F_createCDict`, `LZ4F_compressFrame_usingCDict`,
//! `LZ4F_compressBegin_usingCDict`, `LZ4F_compressBegin_usingDict`), stored blocks
//! (`LZ4F_uncompressedUpdate`) and custom allocators (`LZ4F_create*_advanced`), called through
//! their C signatures against liblz4 1.10 (lz4-sys): every call's result and output byte for
//! byte, and the frames decoded back.

use std::os::raw::{c_int, c_uint, c_void};
use std::ptr;
use std::sync::atomic::{AtomicUsize, Ordering};

use lz4_simd_capi as ours;
// Links liblz4 (lz4-sys, through the test kit).
extern crate testkit;

use ours::LZ4F_preferences_t as Prefs;

/// liblz4's functions, declared from lz4frame.h (lz4-sys links the library).
#[path = "common/frame_c.rs"]
mod c;

fn is_error(r: usize) -> bool {
    // SAFETY: pure.
    unsafe { c::LZ4F_isError(r) != 0 }
}

/// Generated text from `seed`.
fn text(len: usize, seed: u64) -> Vec<u8> {
    testkit::samples::text(len, &mut testkit::Rng::from_state(seed))
}

/// Text, then noise (stored blocks), then text again.
fn content(len: usize) -> Vec<u8> {
    let mut v = text(len / 2, 1);
    let mut rng = testkit::Rng::from_state(7);
    v.extend(rng.bytes(len / 4));
    v.extend(text(len - v.len(), 2));
    v
}

/// A dictionary of `len` bytes that shares much with [`content`] (another seed of the same
/// text).
fn dictionary(len: usize) -> Vec<u8> {
    text(len, 3)
}

fn prefs(id: c_uint, linked: bool, level: c_int, sums: (c_uint, c_uint), auto: c_uint) -> Prefs {
    let mut p = Prefs::default();
    p.frameInfo.blockSizeID = id;
    p.frameInfo.blockMode = c_uint::from(!linked);
    p.frameInfo.contentChecksumFlag = sums.0;
    p.frameInfo.blockChecksumFlag = sums.1;
    p.frameInfo.dictID = 0x5EED;
    p.compressionLevel = level;
    p.autoFlush = auto;
    p.favorDecSpeed = c_uint::from(level == 12);
    p
}

/// `p` for a CDict of `dict`: not favouring decoding speed with an empty one, whose HC blocks
/// differ from liblz4's there (see docs/c-abi.md).
fn cdict_prefs(mut p: Prefs, dict: &[u8]) -> Prefs {
    if dict.is_empty() {
        p.favorDecSpeed = 0;
    }
    p
}

/// Decodes `frames` with liblz4 and `dict`.
fn decode(frames: &[u8], dict: &[u8]) -> Vec<u8> {
    let mut d = ptr::null_mut();
    let mut out = Vec::new();
    let mut buf = vec![0u8; 1 << 16];
    // SAFETY: live context, buffers of the sizes given.
    unsafe {
        assert_eq!(c::LZ4F_createDecompressionContext(&mut d, 100), 0);
        let mut at = 0;
        while at < frames.len() {
            let mut dst_size = buf.len();
            let mut src_size = frames.len() - at;
            let r = c::LZ4F_decompress_usingDict(
                d,
                buf.as_mut_ptr().cast(),
                &mut dst_size,
                frames[at..].as_ptr().cast(),
                &mut src_size,
                dict.as_ptr().cast(),
                dict.len(),
                ptr::null(),
            );
            assert!(!is_error(r), "liblz4 cannot decode the frames");
            out.extend_from_slice(&buf[..dst_size]);
            at += src_size;
            assert!(src_size > 0 || dst_size > 0 || r == 0);
        }
        c::LZ4F_freeDecompressionContext(d);
    }
    out
}

#[derive(Clone, Copy)]
enum Op<'a> {
    /// `LZ4F_compressBegin`.
    Begin(&'a Prefs),
    /// `LZ4F_compressBegin_usingCDict` with the run's dictionary (`true`) or null.
    BeginCDict(&'a Prefs, bool),
    /// `LZ4F_compressBegin_usingDict` with these bytes (null for `None`).
    BeginDict(&'a Prefs, Option<&'a [u8]>),
    /// `LZ4F_compressFrame_usingCDict` of these bytes, with the dictionary or null.
    Frame(&'a [u8], Option<&'a Prefs>, bool),
    /// `LZ4F_compressUpdate` of a copy of these bytes (into `LZ4F_compressBound`).
    Update(&'a [u8]),
    /// `LZ4F_uncompressedUpdate` of a copy of these bytes (into `LZ4F_compressBound`).
    Raw(&'a [u8]),
    /// `LZ4F_uncompressedUpdate` into this much room.
    RawInto(&'a [u8], usize),
    Flush,
    End,
}

impl std::fmt::Debug for Op<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Op::Begin(_) => write!(f, "Begin"),
            Op::BeginCDict(_, with) => write!(f, "BeginCDict({with})"),
            Op::BeginDict(_, d) => write!(f, "BeginDict({:?})", d.map(<[u8]>::len)),
            Op::Frame(d, p, with) => write!(f, "Frame({}, {}, {with})", d.len(), p.is_some()),
            Op::Update(d) => write!(f, "Update({})", d.len()),
            Op::Raw(d) => write!(f, "Raw({})", d.len()),
            Op::RawInto(d, cap) => write!(f, "RawInto({}, {cap})", d.len()),
            Op::Flush => write!(f, "Flush"),
            Op::End => write!(f, "End"),
        }
    }
}

const CANARY: usize = 64;

/// Runs `ops` on a new context of each library, with a CDict of `dict` in each: every call's
/// result and output.
///
/// Each library writes into one buffer for all its calls, grown as a call needs and kept filled
/// with 0xA5: the canary after the call's room is set anew, and what a call returns is copied
/// out, then filled again. `LZ4F_compressBound` with 4 MiB blocks is over 4 MiB even for a
/// 1000-byte update, and a new buffer of that size for each call spent nine tenths of these
/// tests' time clearing fresh pages.
fn run(dict: &[u8], ops: &[Op<'_>]) -> [Vec<(usize, Vec<u8>)>; 2] {
    let mut results = [Vec::new(), Vec::new()];
    let mut buffers = [Vec::new(), Vec::new()];
    let mut theirs = ptr::null_mut();
    let mut mine = ptr::null_mut();
    // SAFETY: pointers writable, `dict` readable.
    let (their_dict, my_dict) = unsafe {
        assert_eq!(c::LZ4F_createCompressionContext(&mut theirs, 100), 0);
        assert_eq!(ours::LZ4F_createCompressionContext(&mut mine, 100), 0);
        (
            c::LZ4F_createCDict(dict.as_ptr().cast(), dict.len()),
            ours::LZ4F_createCDict(dict.as_ptr().cast(), dict.len()),
        )
    };
    assert!(!their_dict.is_null() && !my_dict.is_null());
    let mut current = Prefs::default();
    for op in ops {
        let cap = match *op {
            Op::Begin(p) | Op::BeginCDict(p, _) | Op::BeginDict(p, _) => {
                current = *p;
                19
            }
            // SAFETY: pure.
            Op::Frame(data, p, _) => unsafe {
                c::LZ4F_compressFrameBound(data.len(), p.map_or(ptr::null(), |p| p))
            },
            // SAFETY: pure.
            Op::Update(data) | Op::Raw(data) => unsafe {
                c::LZ4F_compressBound(data.len(), &current)
            },
            Op::RawInto(_, cap) => cap,
            // SAFETY: pure.
            Op::Flush | Op::End => unsafe { c::LZ4F_compressBound(0, &current) },
        };
        for (lib, (out, dst)) in results.iter_mut().zip(&mut buffers).enumerate() {
            if dst.len() < cap + CANARY {
                *dst = vec![0xA5u8; cap + CANARY];
            }
            dst[cap..cap + CANARY].fill(0xA5);
            let d = dst.as_mut_ptr().cast::<c_void>();
            let (cctx, cdict) = if lib == 0 {
                (theirs, their_dict.cast_const())
            } else {
                (mine.cast::<c_void>(), my_dict.cast_const().cast::<c_void>())
            };
            // SAFETY: `dst[..cap]` writable, the inputs readable, live contexts and
            // dictionaries (ours are cast back to their types).
            let r = unsafe {
                match (*op, lib) {
                    (Op::Begin(p), 0) => c::LZ4F_compressBegin(cctx, d, cap, p),
                    (Op::Begin(p), _) => ours::LZ4F_compressBegin(cctx.cast(), d, cap, p),
                    (Op::BeginCDict(p, with), lib) => {
                        let cdict = if with { cdict } else { ptr::null() };
                        if lib == 0 {
                            c::LZ4F_compressBegin_usingCDict(cctx, d, cap, cdict, p)
                        } else {
                            ours::LZ4F_compressBegin_usingCDict(
                                cctx.cast(),
                                d,
                                cap,
                                cdict.cast(),
                                p,
                            )
                        }
                    }
                    (Op::BeginDict(p, bytes), lib) => {
                        let (b, n) =
                            bytes.map_or((ptr::null(), 0), |b| (b.as_ptr().cast(), b.len()));
                        if lib == 0 {
                            c::LZ4F_compressBegin_usingDict(cctx, d, cap, b, n, p)
                        } else {
                            ours::LZ4F_compressBegin_usingDict(cctx.cast(), d, cap, b, n, p)
                        }
                    }
                    (Op::Frame(data, p, with), lib) => {
                        let cdict = if with { cdict } else { ptr::null() };
                        let p = p.map_or(ptr::null(), |p| p as *const Prefs);
                        let s = data.as_ptr().cast();
                        if lib == 0 {
                            c::LZ4F_compressFrame_usingCDict(cctx, d, cap, s, data.len(), cdict, p)
                        } else {
                            ours::LZ4F_compressFrame_usingCDict(
                                cctx.cast(),
                                d,
                                cap,
                                s,
                                data.len(),
                                cdict.cast(),
                                p,
                            )
                        }
                    }
                    (Op::Update(data), lib) => {
                        let copy = data.to_vec();
                        let s = copy.as_ptr().cast();
                        if lib == 0 {
                            c::LZ4F_compressUpdate(cctx, d, cap, s, copy.len(), ptr::null())
                        } else {
                            ours::LZ4F_compressUpdate(
                                cctx.cast(),
                                d,
                                cap,
                                s,
                                copy.len(),
                                ptr::null(),
                            )
                        }
                    }
                    (Op::Raw(data) | Op::RawInto(data, _), lib) => {
                        let copy = data.to_vec();
                        let s = copy.as_ptr().cast();
                        if lib == 0 {
                            c::LZ4F_uncompressedUpdate(cctx, d, cap, s, copy.len(), ptr::null())
                        } else {
                            ours::LZ4F_uncompressedUpdate(
                                cctx.cast(),
                                d,
                                cap,
                                s,
                                copy.len(),
                                ptr::null(),
                            )
                        }
                    }
                    (Op::Flush, 0) => c::LZ4F_flush(cctx, d, cap, ptr::null()),
                    (Op::Flush, _) => ours::LZ4F_flush(cctx.cast(), d, cap, ptr::null()),
                    (Op::End, 0) => c::LZ4F_compressEnd(cctx, d, cap, ptr::null()),
                    (Op::End, _) => ours::LZ4F_compressEnd(cctx.cast(), d, cap, ptr::null()),
                }
            };
            assert!(
                dst[cap..cap + CANARY].iter().all(|&b| b == 0xA5),
                "written past the output: {op:?}"
            );
            let written = if is_error(r) { 0 } else { r.min(cap) };
            out.push((r, dst[..written].to_vec()));
            dst[..written].fill(0xA5);
        }
    }
    // SAFETY: live objects, freed once.
    unsafe {
        c::LZ4F_freeCDict(their_dict);
        ours::LZ4F_freeCDict(my_dict);
        c::LZ4F_freeCompressionContext(theirs);
        ours::LZ4F_freeCompressionContext(mine);
    }
    results
}

/// Runs `ops` on both libraries and asserts the same results and bytes; returns our output.
fn same(dict: &[u8], ops: &[Op<'_>], what: &str) -> Vec<u8> {
    let [theirs, mine] = run(dict, ops);
    for (i, (t, m)) in theirs.iter().zip(&mine).enumerate() {
        if t != m {
            let first = t.1.iter().zip(&m.1).position(|(a, b)| a != b);
            let at = first.unwrap_or(0);
            panic!(
                "{what}: call {i} ({:?}): liblz4 {} ({} bytes), ours {} ({} bytes), first difference at {first:?}: {:02x?} / {:02x?}",
                ops[i],
                t.0 as isize,
                t.1.len(),
                m.0 as isize,
                m.1.len(),
                &t.1[at..(at + 16).min(t.1.len())],
                &m.1[at..(at + 16).min(m.1.len())],
            );
        }
    }
    mine.iter()
        .map(|(_, bytes)| &bytes[..])
        .collect::<Vec<_>>()
        .concat()
}

const LEVELS: [c_int; 6] = [-5, 1, 2, 3, 9, 12];

fn dict_sizes() -> Vec<Vec<u8>> {
    [0usize, 1, 100, 64 << 10, 100_000]
        .iter()
        .map(|&n| dictionary(n))
        .collect()
}

/// Over one 4 MiB block, with a second block longer than the 64 KiB it links back over.
const BIG: usize = (4 << 20) + 100_000;

#[test]
fn compress_frame_using_cdict_as_liblz4() {
    let big = content(BIG);
    for dict in dict_sizes() {
        for level in LEVELS {
            for &n in &[0usize, 1, 1000, 300_000, BIG] {
                let src = &big[..n];
                for (id, linked, sums) in [(4, true, (1, 0)), (4, false, (0, 1)), (7, true, (1, 1))]
                {
                    // The large input for the 4 MiB blocks (300 KB already spans five 64 KiB
                    // ones), at the fast levels and HC 3, with the largest dictionary.
                    if n == BIG && (id != 7 || level >= 9 || dict.len() != 100_000) {
                        continue;
                    }
                    let p = cdict_prefs(prefs(id, linked, level, sums, 0), &dict);
                    let what = format!(
                        "dict {} level {level} n {n} id {id} linked {linked}",
                        dict.len()
                    );
                    // Several frames on one context and one dictionary, then a null one.
                    let ops = [
                        Op::Frame(src, Some(&p), true),
                        Op::Frame(src, Some(&p), true),
                        Op::Frame(src, Some(&p), false),
                        Op::Frame(src, Some(&p), true),
                    ];
                    let out = same(&dict, &ops, &what);
                    if n <= 300_000 {
                        assert_eq!(decode(&out, &dict), src.repeat(4), "{what}");
                    }
                }
            }
            let what = format!("dict {} level {level} default preferences", dict.len());
            let out = same(&dict, &[Op::Frame(&big[..1000], None, true)], &what);
            assert_eq!(decode(&out, &dict), &big[..1000], "{what}");
        }
    }
}

/// Streams `data` in `pieces` after `begin`, with a flush after every third piece.
fn stream_ops<'a>(begin: Op<'a>, data: &'a [u8], piece: usize) -> Vec<Op<'a>> {
    let mut ops = vec![begin];
    for (i, chunk) in data.chunks(piece.max(1)).enumerate() {
        ops.push(Op::Update(chunk));
        if i % 3 == 2 {
            ops.push(Op::Flush);
        }
    }
    ops.push(Op::End);
    ops
}

#[test]
fn compress_begin_using_cdict_as_liblz4() {
    let data = content(300_000);
    for dict in dict_sizes() {
        for level in LEVELS {
            for (id, linked) in [(4, true), (4, false), (7, true), (7, false)] {
                for auto in [0, 1] {
                    for piece in [1000usize, 70_000, 300_000] {
                        if level == 12 && piece < 70_000 {
                            continue;
                        }
                        let p = cdict_prefs(prefs(id, linked, level, (1, (auto ^ 1)), auto), &dict);
                        let what = format!(
                            "dict {} level {level} id {id} linked {linked} auto {auto} piece {piece}",
                            dict.len()
                        );
                        let mut ops = stream_ops(Op::BeginCDict(&p, true), &data, piece);
                        // A second frame on the same context, then one with a null dictionary.
                        ops.extend(stream_ops(Op::BeginCDict(&p, true), &data[..1000], 500));
                        ops.extend(stream_ops(Op::BeginCDict(&p, false), &data[..1000], 1000));
                        let out = same(&dict, &ops, &what);
                        // The null-dictionary frame decodes with any dictionary.
                        let mut want = data.clone();
                        want.extend_from_slice(&data[..1000]);
                        want.extend_from_slice(&data[..1000]);
                        assert_eq!(decode(&out, &dict), want, "{what}");
                    }
                }
            }
        }
    }
}

#[test]
fn compress_begin_using_dict_as_liblz4() {
    let data = content(300_000);
    for dict in dict_sizes() {
        for level in LEVELS {
            for (id, linked) in [(4, true), (4, false), (7, true)] {
                for piece in [1000usize, 300_000] {
                    if level == 12 && piece < 70_000 {
                        continue;
                    }
                    let p = prefs(id, linked, level, (1, 0), 0);
                    let what = format!(
                        "dict {} level {level} id {id} linked {linked} piece {piece}",
                        dict.len()
                    );
                    let mut ops = stream_ops(Op::BeginDict(&p, Some(&dict)), &data, piece);
                    ops.extend(stream_ops(Op::BeginDict(&p, None), &data[..1000], 1000));
                    let out = same(&dict, &ops, &what);
                    let mut want = data.clone();
                    want.extend_from_slice(&data[..1000]);
                    assert_eq!(decode(&out, &dict), want, "{what}");
                }
            }
        }
    }
}

/// The content `ops` hand in.
fn fed(ops: &[Op<'_>]) -> Vec<u8> {
    let mut content = Vec::new();
    for op in ops {
        if let Op::Update(d) | Op::Raw(d) | Op::RawInto(d, _) | Op::Frame(d, ..) = op {
            content.extend_from_slice(d);
        }
    }
    content
}

/// A dictionary under 8 bytes at the fast levels with independent blocks: liblz4 stores the
/// first compressed block when it is under 64 KiB + 11 bytes, whatever comes before it.
#[test]
fn using_dict_tiny_first_block_as_liblz4() {
    let data = content(600_000);
    let d = &data[..];
    for dict_len in [0usize, 1, 7, 8] {
        let dict = dictionary(dict_len);
        for level in [-5, 1] {
            for id in [4, 5, 7] {
                for auto in [0, 1] {
                    let p = prefs(id, false, level, (1, 1), auto);
                    let begin = Op::BeginDict(&p, Some(&dict));
                    let sequences: [&[Op<'_>]; 7] = [
                        &[begin, Op::Update(&d[..100_000]), Op::End],
                        &[
                            begin,
                            Op::Update(&d[..1000]),
                            Op::Flush,
                            Op::Update(&d[..70_000]),
                            Op::End,
                        ],
                        &[begin, Op::Update(&d[..65_546]), Op::End],
                        &[begin, Op::Update(&d[..65_547]), Op::End],
                        &[
                            begin,
                            Op::Update(&d[..30_000]),
                            Op::Update(&d[..40_000]),
                            Op::Flush,
                            Op::End,
                        ],
                        &[
                            begin,
                            Op::Update(&d[..600_000]),
                            Op::Update(&d[..5]),
                            Op::End,
                        ],
                        &[
                            begin,
                            Op::Raw(&d[..500]),
                            Op::Raw(&d[..70_000]),
                            Op::Update(&d[..1000]),
                            Op::Update(&d[..2000]),
                            Op::End,
                        ],
                    ];
                    for (i, ops) in sequences.iter().enumerate() {
                        let what = format!(
                            "dict {dict_len} level {level} id {id} auto {auto} sequence {i}"
                        );
                        let out = same(&dict, ops, &what);
                        assert_eq!(decode(&out, &dict), fed(ops), "{what}");
                    }
                    // Then a second frame on the same context.
                    let ops = [
                        begin,
                        Op::Update(&d[..5000]),
                        Op::End,
                        begin,
                        Op::Update(&d[..5000]),
                        Op::End,
                    ];
                    let out = same(&dict, &ops, "second frame");
                    assert_eq!(decode(&out, &dict), d[..5000].repeat(2));
                }
            }
        }
    }
}

#[test]
fn uncompressed_update_as_liblz4() {
    let data = content(300_000);
    for level in [1, 9] {
        for id in [4, 7] {
            for auto in [0, 1] {
                for sums in [(0, 0), (1, 1)] {
                    let p = prefs(id, false, level, sums, auto);
                    let what = format!("level {level} id {id} auto {auto} sums {sums:?}");
                    let mut ops = vec![Op::Begin(&p)];
                    let mut at = 0;
                    for (i, n) in [1usize, 1000, 70_000, 5, 100_000, 3, 65_536, 20_000]
                        .into_iter()
                        .cycle()
                        .enumerate()
                    {
                        let n = n.min(data.len() - at);
                        if n == 0 {
                            break;
                        }
                        let piece = &data[at..at + n];
                        at += n;
                        ops.push(if i % 3 == 1 {
                            Op::Update(piece)
                        } else {
                            Op::Raw(piece)
                        });
                        if i % 4 == 3 {
                            ops.push(Op::Flush);
                        }
                    }
                    ops.push(Op::End);
                    // The next frame starts in the mode the last update left.
                    ops.extend(stream_ops(Op::Begin(&p), &data[..5000], 2000));
                    ops.push(Op::Begin(&p));
                    ops.push(Op::Raw(&data[..0]));
                    ops.push(Op::Raw(&data[..10]));
                    ops.push(Op::End);
                    let out = same(&[], &ops, &what);
                    let mut want = data.clone();
                    want.extend_from_slice(&data[..5000]);
                    want.extend_from_slice(&data[..10]);
                    assert_eq!(decode(&out, &[]), want, "{what}");
                }
            }
        }
    }
    // Room: below the input's size, and exactly it.
    let p = prefs(4, false, 1, (0, 0), 1);
    // SAFETY: pure.
    let bound = unsafe { c::LZ4F_compressBound(100, &p) };
    same(
        &[],
        &[
            Op::Begin(&p),
            Op::RawInto(&data[..100], bound - 1),
            Op::Begin(&p),
            Op::RawInto(&data[..100], bound),
            Op::End,
        ],
        "room",
    );
    // Before any frame.
    let [theirs, mine] = run(&[], &[Op::Raw(&data[..10])]);
    assert_eq!(theirs, mine, "no frame begun");
}

/// Linked blocks are refused: liblz4 does not check, and writes frames whose linked blocks
/// after stored ones may reference the wrong bytes.
#[test]
fn uncompressed_update_refuses_linked_blocks() {
    let data = content(1000);
    let p = prefs(4, true, 1, (0, 0), 0);
    let mut cctx = ptr::null_mut();
    let mut dst = vec![0u8; 4096];
    // SAFETY: live context, buffers of the sizes given.
    unsafe {
        assert_eq!(ours::LZ4F_createCompressionContext(&mut cctx, 100), 0);
        let d = dst.as_mut_ptr().cast();
        assert!(!is_error(ours::LZ4F_compressBegin(cctx, d, 4096, &p)));
        let r =
            ours::LZ4F_uncompressedUpdate(cctx, d, 4096, data.as_ptr().cast(), 1000, ptr::null());
        assert_eq!(ours::LZ4F_getErrorCode(r), 3, "ERROR_blockMode_invalid");
        ours::LZ4F_freeCompressionContext(cctx);
    }
}

/// Allocations and frees through a counting allocator (its state: `[allocations, frees]`), or
/// through one that always fails.
unsafe extern "C" fn counting_alloc(state: *mut c_void, size: usize) -> *mut c_void {
    // SAFETY: the state is the test's `[AtomicUsize; 2]`.
    let counts = unsafe { &*state.cast::<[AtomicUsize; 2]>() };
    counts[0].fetch_add(1, Ordering::Relaxed);
    // SAFETY: any size.
    unsafe { libc_malloc(size) }
}

unsafe extern "C" fn counting_free(state: *mut c_void, p: *mut c_void) {
    // SAFETY: the state is the test's `[AtomicUsize; 2]`.
    let counts = unsafe { &*state.cast::<[AtomicUsize; 2]>() };
    counts[1].fetch_add(1, Ordering::Relaxed);
    // SAFETY: from `counting_alloc`.
    unsafe { libc_free(p) }
}

unsafe extern "C" fn failing_alloc(_: *mut c_void, _: usize) -> *mut c_void {
    ptr::null_mut()
}

extern "C" {
    #[link_name = "malloc"]
    fn libc_malloc(size: usize) -> *mut c_void;
    #[link_name = "free"]
    fn libc_free(p: *mut c_void);
}

fn cmem(counts: &[AtomicUsize; 2], calloc: bool) -> ours::LZ4F_CustomMem {
    ours::LZ4F_CustomMem {
        customAlloc: (!calloc).then_some(counting_alloc as _),
        customCalloc: calloc.then_some(counting_alloc as _),
        customFree: Some(counting_free),
        opaqueState: ptr::from_ref(counts).cast_mut().cast(),
    }
}

#[test]
fn custom_allocators() {
    let data = content(200_000);
    let dict = dictionary(5000);
    for calloc in [false, true] {
        let counts = [AtomicUsize::new(0), AtomicUsize::new(0)];
        let m = cmem(&counts, calloc);
        // SAFETY: the allocator's state outlives the objects; buffers of the sizes given.
        unsafe {
            let cctx = ours::LZ4F_createCompressionContext_advanced(m, 100);
            let dctx = ours::LZ4F_createDecompressionContext_advanced(m, 100);
            let cdict = ours::LZ4F_createCDict_advanced(m, dict.as_ptr().cast(), dict.len());
            assert!(!cctx.is_null() && !dctx.is_null() && !cdict.is_null());
            assert_eq!(counts[0].load(Ordering::Relaxed), 3);
            // The frames are those of contexts made the plain way.
            let p = prefs(4, true, 9, (1, 0), 0);
            let bound = ours::LZ4F_compressFrameBound(data.len(), &p);
            let mut frame = vec![0u8; bound];
            let n = ours::LZ4F_compressFrame_usingCDict(
                cctx,
                frame.as_mut_ptr().cast(),
                bound,
                data.as_ptr().cast(),
                data.len(),
                cdict,
                &p,
            );
            assert!(!is_error(n));
            frame.truncate(n);
            let ops = [Op::Frame(&data, Some(&p), true)];
            let [theirs, _] = run(&dict, &ops);
            assert_eq!(frame, theirs[0].1);
            let mut out = vec![0u8; data.len()];
            let (mut dst_size, mut src_size) = (out.len(), frame.len());
            let r = ours::LZ4F_decompress_usingDict(
                dctx,
                out.as_mut_ptr().cast(),
                &mut dst_size,
                frame.as_ptr().cast(),
                &mut src_size,
                dict.as_ptr().cast(),
                dict.len(),
                ptr::null(),
            );
            assert_eq!((r, dst_size, src_size), (0, data.len(), frame.len()));
            assert_eq!(out, data);
            ours::LZ4F_freeCDict(cdict);
            assert_eq!(ours::LZ4F_freeDecompressionContext(dctx), 0);
            assert_eq!(ours::LZ4F_freeCompressionContext(cctx), 0);
            assert_eq!(counts[0].load(Ordering::Relaxed), 3);
            assert_eq!(counts[1].load(Ordering::Relaxed), 3);
        }
    }
    // An allocator that fails: null objects, as liblz4's.
    let failing = ours::LZ4F_CustomMem {
        customAlloc: Some(failing_alloc),
        customCalloc: None,
        customFree: None,
        opaqueState: ptr::null_mut(),
    };
    // SAFETY: the allocator takes any state; null results are only compared.
    unsafe {
        assert!(ours::LZ4F_createCompressionContext_advanced(failing, 100).is_null());
        assert!(ours::LZ4F_createDecompressionContext_advanced(failing, 100).is_null());
        assert!(ours::LZ4F_createCDict_advanced(failing, dict.as_ptr().cast(), 10).is_null());
        assert!(c::LZ4F_createCompressionContext_advanced(failing, 100).is_null());
        assert!(c::LZ4F_createDecompressionContext_advanced(failing, 100).is_null());
    }
    // The C library's functions (all null, `LZ4F_defaultCMem`).
    let default = ours::LZ4F_CustomMem {
        customAlloc: None,
        customCalloc: None,
        customFree: None,
        opaqueState: ptr::null_mut(),
    };
    // SAFETY: created and freed once.
    unsafe {
        let cctx = ours::LZ4F_createCompressionContext_advanced(default, 100);
        assert!(!cctx.is_null());
        ours::LZ4F_freeCompressionContext(cctx);
        let dctx = ours::LZ4F_createDecompressionContext_advanced(default, 100);
        assert!(!dctx.is_null());
        ours::LZ4F_freeDecompressionContext(dctx);
    }
}

#[test]
fn null_dictionary_bytes() {
    // SAFETY: a null dictionary of some size is refused; of no size, it is empty.
    unsafe {
        assert!(ours::LZ4F_createCDict(ptr::null(), 10).is_null());
        let empty = ours::LZ4F_createCDict(ptr::null(), 0);
        assert!(!empty.is_null());
        ours::LZ4F_freeCDict(empty);
        ours::LZ4F_freeCDict(ptr::null_mut());
    }
}
