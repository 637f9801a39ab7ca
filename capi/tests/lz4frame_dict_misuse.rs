//! The frame API with dictionaries under a careless caller: every stage given one byte less
//! than it needs (then what it needs), a CDict shared by two contexts at once and freed while a
//! frame that began with it goes on. Results and bytes are liblz4 1.10's (lz4-sys) where it is
//! defined, and the frames put together from the successful calls decode to the input.

use std::os::raw::{c_int, c_uint, c_void};
use std::ptr;

use lz4_simd_capi as ours;
extern crate testkit;

use ours::LZ4F_preferences_t as Prefs;

#[path = "common/frame_c.rs"]
mod c;

fn is_error(r: usize) -> bool {
    // SAFETY: pure.
    unsafe { c::LZ4F_isError(r) != 0 }
}

fn text(len: usize, seed: u64) -> Vec<u8> {
    testkit::samples::text(len, &mut testkit::Rng::from_state(seed))
}

/// Text, noise (blocks that do not shrink), text.
fn content(len: usize) -> Vec<u8> {
    let mut v = text(len / 2, 1);
    let mut rng = testkit::Rng::from_state(7);
    v.extend(rng.bytes(len / 4));
    v.extend(text(len - v.len(), 2));
    v
}

/// Decodes `frame` with liblz4 and `dict`: the content, or `None` when liblz4 rejects it.
fn decode(frame: &[u8], dict: &[u8]) -> Option<Vec<u8>> {
    let mut d = ptr::null_mut();
    let mut out = Vec::new();
    let mut buf = vec![0u8; 1 << 16];
    let mut ok = true;
    // SAFETY: live context, buffers of the sizes given.
    unsafe {
        assert_eq!(c::LZ4F_createDecompressionContext(&mut d, 100), 0);
        let mut at = 0;
        while at < frame.len() {
            let mut dst_size = buf.len();
            let mut src_size = frame.len() - at;
            let r = c::LZ4F_decompress_usingDict(
                d,
                buf.as_mut_ptr().cast(),
                &mut dst_size,
                frame[at..].as_ptr().cast(),
                &mut src_size,
                dict.as_ptr().cast(),
                dict.len(),
                ptr::null(),
            );
            if is_error(r) {
                ok = false;
                break;
            }
            out.extend_from_slice(&buf[..dst_size]);
            at += src_size;
            if r == 0 {
                break;
            }
        }
        c::LZ4F_freeDecompressionContext(d);
    }
    ok.then_some(out)
}

/// The block size of `id` (4-7; 0 is 4).
fn block_len(id: c_uint) -> usize {
    match id {
        5 => 256 << 10,
        6 => 1 << 20,
        7 => 4 << 20,
        _ => 64 << 10,
    }
}

/// liblz4's room check of `LZ4F_compressUpdate` (`LZ4F_compressBound_internal`) for `n` bytes
/// with `buffered` waiting.
fn update_room(n: usize, p: &Prefs, buffered: usize) -> usize {
    let block = block_len(p.frameInfo.blockSizeID);
    let buffered = buffered.min(block - 1);
    let max_src = n + buffered;
    let full = max_src / block;
    let partial = max_src % block;
    let last = if p.autoFlush != 0 || n == 0 {
        partial
    } else {
        0
    };
    let blocks = full + usize::from(last > 0);
    let block_crc = 4 * p.frameInfo.blockChecksumFlag as usize;
    let end = 4 + 4 * p.frameInfo.contentChecksumFlag as usize;
    (4 + block_crc) * blocks + block * full + last + end
}

fn prefs(id: c_uint, linked: bool, level: c_int, sums: (c_uint, c_uint), auto: c_uint) -> Prefs {
    let mut p = Prefs::default();
    p.frameInfo.blockSizeID = id;
    p.frameInfo.blockMode = c_uint::from(!linked);
    p.frameInfo.contentChecksumFlag = sums.0;
    p.frameInfo.blockChecksumFlag = sums.1;
    p.compressionLevel = level;
    p.autoFlush = auto;
    p
}

/// How a frame begins.
#[derive(Clone, Copy, Debug)]
enum Start {
    CDict,
    Dict,
}

/// One library's calls on a context (as `*mut c_void`) and a CDict.
struct Lib {
    begin_cdict: unsafe fn(*mut c_void, *mut c_void, usize, *const c_void, &Prefs) -> usize,
    begin_dict: unsafe fn(*mut c_void, *mut c_void, usize, &[u8], &Prefs) -> usize,
    update: unsafe fn(*mut c_void, *mut c_void, usize, &[u8]) -> usize,
    raw: unsafe fn(*mut c_void, *mut c_void, usize, &[u8]) -> usize,
    flush: unsafe fn(*mut c_void, *mut c_void, usize) -> usize,
    end: unsafe fn(*mut c_void, *mut c_void, usize) -> usize,
    frame: unsafe fn(*mut c_void, *mut c_void, usize, &[u8], *const c_void, &Prefs) -> usize,
    new_cctx: fn() -> *mut c_void,
    free_cctx: unsafe fn(*mut c_void),
    new_cdict: fn(&[u8]) -> *mut c_void,
    free_cdict: unsafe fn(*mut c_void),
}

// SAFETY (every function below): the C function's contract, the caller's.
const LIBLZ4: Lib = Lib {
    begin_cdict: |x, d, n, cd, p| unsafe { c::LZ4F_compressBegin_usingCDict(x, d, n, cd, p) },
    begin_dict: |x, d, n, dict, p| unsafe {
        c::LZ4F_compressBegin_usingDict(x, d, n, dict.as_ptr().cast(), dict.len(), p)
    },
    update: |x, d, n, s| unsafe {
        c::LZ4F_compressUpdate(x, d, n, s.as_ptr().cast(), s.len(), ptr::null())
    },
    raw: |x, d, n, s| unsafe {
        c::LZ4F_uncompressedUpdate(x, d, n, s.as_ptr().cast(), s.len(), ptr::null())
    },
    flush: |x, d, n| unsafe { c::LZ4F_flush(x, d, n, ptr::null()) },
    end: |x, d, n| unsafe { c::LZ4F_compressEnd(x, d, n, ptr::null()) },
    frame: |x, d, n, s, cd, p| unsafe {
        c::LZ4F_compressFrame_usingCDict(x, d, n, s.as_ptr().cast(), s.len(), cd, p)
    },
    new_cctx: || {
        let mut x = ptr::null_mut();
        // SAFETY: a writable pointer.
        assert_eq!(unsafe { c::LZ4F_createCompressionContext(&mut x, 100) }, 0);
        x
    },
    free_cctx: |x| unsafe {
        c::LZ4F_freeCompressionContext(x);
    },
    new_cdict: |d| unsafe { c::LZ4F_createCDict(d.as_ptr().cast(), d.len()) },
    free_cdict: |d| unsafe { c::LZ4F_freeCDict(d) },
};

const OURS: Lib = Lib {
    begin_cdict: |x, d, n, cd, p| unsafe {
        ours::LZ4F_compressBegin_usingCDict(x.cast(), d, n, cd.cast(), p)
    },
    begin_dict: |x, d, n, dict, p| unsafe {
        ours::LZ4F_compressBegin_usingDict(x.cast(), d, n, dict.as_ptr().cast(), dict.len(), p)
    },
    update: |x, d, n, s| unsafe {
        ours::LZ4F_compressUpdate(x.cast(), d, n, s.as_ptr().cast(), s.len(), ptr::null())
    },
    raw: |x, d, n, s| unsafe {
        ours::LZ4F_uncompressedUpdate(x.cast(), d, n, s.as_ptr().cast(), s.len(), ptr::null())
    },
    flush: |x, d, n| unsafe { ours::LZ4F_flush(x.cast(), d, n, ptr::null()) },
    end: |x, d, n| unsafe { ours::LZ4F_compressEnd(x.cast(), d, n, ptr::null()) },
    frame: |x, d, n, s, cd, p| unsafe {
        ours::LZ4F_compressFrame_usingCDict(
            x.cast(),
            d,
            n,
            s.as_ptr().cast(),
            s.len(),
            cd.cast(),
            p,
        )
    },
    new_cctx: || {
        let mut x = ptr::null_mut();
        // SAFETY: a writable pointer.
        assert_eq!(
            unsafe { ours::LZ4F_createCompressionContext(&mut x, 100) },
            0
        );
        x.cast()
    },
    free_cctx: |x| unsafe {
        ours::LZ4F_freeCompressionContext(x.cast());
    },
    new_cdict: |d| unsafe { ours::LZ4F_createCDict(d.as_ptr().cast(), d.len()).cast() },
    free_cdict: |d| unsafe { ours::LZ4F_freeCDict(d.cast()) },
};

const CANARY: usize = 32;

/// Calls `f` with an output of `cap` bytes and canary bytes after it; returns the result and
/// the bytes written (none on error).
fn call(cap: usize, f: impl FnOnce(*mut c_void, usize) -> usize) -> (usize, Vec<u8>) {
    let mut dst = vec![0xA5u8; cap + CANARY];
    let r = f(dst.as_mut_ptr().cast(), cap);
    assert!(
        dst[cap..].iter().all(|&b| b == 0xA5),
        "written past the output"
    );
    dst.truncate(if is_error(r) { 0 } else { r });
    (r, dst)
}

/// The pieces a frame is fed in: sizes that leave 0, 1 and most of a block buffered.
fn pieces(data: &[u8], block: usize) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut at = 0;
    for n in [1, block - 1, 5000, 1, block + 3, 70_000, 12_345]
        .into_iter()
        .cycle()
    {
        if at >= data.len() {
            break;
        }
        let n = n.min(data.len() - at);
        out.push(&data[at..at + n]);
        at += n;
    }
    out
}

/// A frame through every stage, each called first with one byte less than it needs (which
/// must fail, as liblz4's, and change nothing), then with what it needs. `raw` alternates
/// stored updates (independent blocks). Returns every call's result and bytes, and the frame.
fn one_short(
    lib: &Lib,
    dict: &[u8],
    data: &[u8],
    p: &Prefs,
    start: Start,
    raw: bool,
) -> Vec<(usize, Vec<u8>)> {
    let mut trace = Vec::new();
    let cctx = (lib.new_cctx)();
    let cdict = (lib.new_cdict)(dict);
    let mut frame = Vec::new();
    // SAFETY: live objects; every output's size is the one passed.
    unsafe {
        for cap in [18, 19] {
            let r = call(cap, |d, n| match start {
                Start::CDict => (lib.begin_cdict)(cctx, d, n, cdict, p),
                Start::Dict => (lib.begin_dict)(cctx, d, n, dict, p),
            });
            frame.extend_from_slice(&r.1);
            trace.push(r);
        }
        let block = block_len(p.frameInfo.blockSizeID);
        let mut buffered = 0usize;
        let mut raw_mode = false;
        for (i, piece) in pieces(data, block).into_iter().enumerate() {
            let stored = raw && i % 3 == 1;
            let room = update_room(piece.len(), p, buffered);
            let need = room.max(if stored { piece.len() } else { 0 });
            let switch = stored != raw_mode && buffered > 0;
            // A call that changes mode writes the buffered block first, as its own block, which
            // liblz4's room check does not count (it can write past the output, or add its
            // flush's error code to its output pointer): such calls get room for both here, and
            // `mode_change_without_room_for_the_buffered_block` checks what less room does.
            let caps = if switch {
                vec![
                    need - 1,
                    need.max(buffered + 8 + update_room(piece.len(), p, 0)),
                ]
            } else {
                vec![need - 1, need]
            };
            for cap in caps {
                let r = call(cap, |d, n| {
                    if stored {
                        (lib.raw)(cctx, d, n, piece)
                    } else {
                        (lib.update)(cctx, d, n, piece)
                    }
                });
                frame.extend_from_slice(&r.1);
                trace.push(r);
            }
            if switch {
                buffered = 0;
            }
            raw_mode = stored;
            buffered = if p.autoFlush != 0 {
                0
            } else {
                (buffered + piece.len()) % block
            };
            if i % 4 == 2 && buffered > 0 {
                for cap in [buffered + 7, buffered + 8] {
                    let r = call(cap, |d, n| (lib.flush)(cctx, d, n));
                    frame.extend_from_slice(&r.1);
                    trace.push(r);
                }
                buffered = 0;
            }
        }
        let need = if buffered > 0 { buffered + 8 } else { 0 };
        // SAFETY: pure.
        let bound = c::LZ4F_compressBound(0, p);
        for cap in [need.saturating_sub(1), bound] {
            let r = call(cap, |d, n| (lib.end)(cctx, d, n));
            frame.extend_from_slice(&r.1);
            trace.push(r);
        }
        (lib.free_cdict)(cdict);
        (lib.free_cctx)(cctx);
    }
    trace.push((0, frame));
    trace
}

fn compare(theirs: &[(usize, Vec<u8>)], mine: &[(usize, Vec<u8>)], what: &str) {
    for (i, (t, m)) in theirs.iter().zip(mine).enumerate() {
        assert!(
            t == m,
            "{what}: call {i}: liblz4 {} ({} bytes), ours {} ({} bytes)",
            t.0 as isize,
            t.1.len(),
            m.0 as isize,
            m.1.len()
        );
    }
    assert_eq!(theirs.len(), mine.len(), "{what}");
}

#[test]
fn every_stage_one_byte_short_then_enough() {
    let data = content(600_000);
    let dict = text(70_000, 3);
    for level in [1, 3, 9] {
        for linked in [true, false] {
            for (id, sums, auto) in [(4, (1, 1), 0), (5, (0, 0), 0), (4, (1, 0), 1)] {
                for start in [Start::CDict, Start::Dict] {
                    for raw in [false, true] {
                        if raw && linked {
                            continue;
                        }
                        let p = prefs(id, linked, level, sums, auto);
                        let what = format!(
                            "level {level}, linked {linked}, id {id}, sums {sums:?}, auto {auto}, {start:?}, raw {raw}"
                        );
                        let theirs = one_short(&LIBLZ4, &dict, &data, &p, start, raw);
                        let mine = one_short(&OURS, &dict, &data, &p, start, raw);
                        compare(&theirs, &mine, &what);
                        let frame = &mine.last().unwrap().1;
                        let decoded = decode(frame, &dict).expect(&what);
                        assert!(decoded == data, "{what}: decoded content");
                    }
                }
            }
        }
    }
}

/// `LZ4F_compressFrame_usingCDict` one byte short of `LZ4F_compressFrameBound`, then with it,
/// on a context left in the middle of a frame.
#[test]
fn frame_using_cdict_one_byte_short() {
    let data = content(300_000);
    let dict = text(20_000, 3);
    for level in [1, 9] {
        for linked in [true, false] {
            let p = prefs(4, linked, level, (1, 1), 0);
            let run = |lib: &Lib| {
                let cctx = (lib.new_cctx)();
                let cdict = (lib.new_cdict)(&dict);
                let mut trace = Vec::new();
                // SAFETY: live objects, outputs of the sizes passed.
                unsafe {
                    trace.push(call(19, |d, n| (lib.begin_cdict)(cctx, d, n, cdict, &p)));
                    trace.push(call(update_room(1000, &p, 0), |d, n| {
                        (lib.update)(cctx, d, n, &data[..1000])
                    }));
                    let bound = c::LZ4F_compressFrameBound(data.len(), &p);
                    for cap in [bound - 1, bound] {
                        trace.push(call(cap, |d, n| (lib.frame)(cctx, d, n, &data, cdict, &p)));
                    }
                    (lib.free_cdict)(cdict);
                    (lib.free_cctx)(cctx);
                }
                trace
            };
            let theirs = run(&LIBLZ4);
            let mine = run(&OURS);
            compare(&theirs, &mine, &format!("level {level}, linked {linked}"));
            assert!(decode(&mine[3].1, &dict).unwrap() == data);
        }
    }
}

/// One CDict used by two contexts in turn, block by block: each frame is the one a context
/// alone makes (the CDict is read-only). Ours may also be freed once the frames began (its
/// content is copied); liblz4 does not allow that, so only ours is run so.
#[test]
fn cdict_shared_by_two_contexts_and_freed_early() {
    let data = content(400_000);
    let dict = text(65_536, 3);
    for level in [1, 2, 9, 12] {
        for linked in [true, false] {
            let p = prefs(4, linked, level, (1, 0), 0);
            let run = |lib: &Lib, free_early: bool| {
                let a = (lib.new_cctx)();
                let b = (lib.new_cctx)();
                let cdict = (lib.new_cdict)(&dict);
                let mut frames = [Vec::new(), Vec::new()];
                // SAFETY: live objects (the CDict until it is freed), outputs of the sizes
                // passed.
                unsafe {
                    for (k, x) in [a, b].into_iter().enumerate() {
                        frames[k].extend(call(19, |d, n| (lib.begin_cdict)(x, d, n, cdict, &p)).1);
                    }
                    if free_early {
                        (lib.free_cdict)(cdict);
                    }
                    for piece in data.chunks(30_000) {
                        for (k, x) in [a, b].into_iter().enumerate() {
                            let cap = c::LZ4F_compressBound(piece.len(), &p);
                            let r = call(cap, |d, n| (lib.update)(x, d, n, piece));
                            assert!(!is_error(r.0));
                            frames[k].extend(r.1);
                        }
                    }
                    for (k, x) in [a, b].into_iter().enumerate() {
                        let cap = c::LZ4F_compressBound(0, &p);
                        frames[k].extend(call(cap, |d, n| (lib.end)(x, d, n)).1);
                    }
                    if !free_early {
                        (lib.free_cdict)(cdict);
                    }
                    (lib.free_cctx)(a);
                    (lib.free_cctx)(b);
                }
                frames
            };
            let what = format!("level {level}, linked {linked}");
            let theirs = run(&LIBLZ4, false);
            let mine = run(&OURS, false);
            assert!(theirs == mine, "{what}");
            assert!(run(&OURS, true) == mine, "{what}: freed early");
            assert!(decode(&mine[0], &dict).unwrap() == data, "{what}");
        }
    }
}

/// A call that changes between compressed and stored blocks with data buffered writes that
/// data as a block of its own first, which the room liblz4 checks (its bound of the input with
/// the buffered data, as if they made one block) does not count: with that room and
/// incompressible data liblz4 1.10 writes past the output. Here such a call either writes a
/// frame that decodes, or fails having changed nothing, so that the same call with more room
/// goes on.
#[test]
fn mode_change_without_room_for_the_buffered_block() {
    let mut rng = testkit::Rng::from_state(11);
    let noise = rng.bytes(200_000);
    for sums in [(0, 0), (1, 1)] {
        for (first_stored, first, second) in [
            (false, 1usize, 65_539usize),
            (true, 5000, 65_539),
            (false, 100, 131_072),
            (true, 3, 65_536),
        ] {
            let p = prefs(4, false, 1, sums, 0);
            let what =
                format!("sums {sums:?}, first stored {first_stored} ({first}), then {second}");
            let cctx = (OURS.new_cctx)();
            let mut frame = Vec::new();
            let update = |stored: bool, d: *mut c_void, n: usize, piece: &[u8]| {
                // SAFETY: a live context, the output's size is the one passed.
                unsafe {
                    if stored {
                        (OURS.raw)(cctx, d, n, piece)
                    } else {
                        (OURS.update)(cctx, d, n, piece)
                    }
                }
            };
            // SAFETY: a live context, outputs of the sizes passed.
            unsafe {
                frame.extend(call(19, |d, n| (OURS.begin_dict)(cctx, d, n, &[], &p)).1);
            }
            let r = call(update_room(first, &p, 0).max(first), |d, n| {
                update(first_stored, d, n, &noise[..first])
            });
            assert!(!is_error(r.0), "{what}");
            frame.extend(r.1);
            let piece = &noise[first..first + second];
            // liblz4's room, then one byte more each time until the call succeeds.
            let mut cap = update_room(second, &p, first).max(second);
            loop {
                let r = call(cap, |d, n| update(!first_stored, d, n, piece));
                if !is_error(r.0) {
                    frame.extend(r.1);
                    break;
                }
                cap += 1;
                assert!(cap < 400_000, "{what}");
            }
            // SAFETY: pure; then a live context and an output of the size passed.
            let end = unsafe {
                let bound = c::LZ4F_compressBound(0, &p);
                call(bound, |d, n| (OURS.end)(cctx, d, n))
            };
            assert!(!is_error(end.0), "{what}");
            frame.extend(end.1);
            // SAFETY: live, freed once.
            unsafe { (OURS.free_cctx)(cctx) };
            let decoded = decode(&frame, &[]).unwrap_or_else(|| panic!("{what}: not decodable"));
            assert!(
                decoded == noise[..first + second],
                "{what}: decoded content"
            );
        }
    }
}
