//! Streaming decompression (`LZ4_streamDecode_t`): blocks that reference the blocks decoded
//! before them, which stay in the caller's memory where they were decoded.
//!
//! The state is liblz4's, in the caller's 32 bytes: where the previous output ends and how long
//! it is (the prefix), and an older segment (the external dictionary). A block decoded right
//! after the prefix sees the prefix (and the older segment behind it); a block decoded elsewhere
//! turns the prefix into the external dictionary.

use std::alloc::{alloc_zeroed, dealloc, Layout};
use std::os::raw::{c_char, c_int};

use lz4_simd::block::{self, MAX_HISTORY};

use crate::{c_len, decode, input_apart, output, DECODE_ERROR};

/// `sizeof(LZ4_streamDecode_t)`, `LZ4_STREAMDECODE_MINSIZE`.
pub const STREAM_DECODE_SIZE: usize = 32;

/// The caller's `LZ4_streamDecode_t`, opaque.
#[repr(C, align(8))]
pub struct LZ4_streamDecode_t {
    _state: [u8; STREAM_DECODE_SIZE],
}

/// The state kept in an `LZ4_streamDecode_t`.
#[derive(Clone, Copy)]
#[repr(C)]
struct DecodeState {
    prefix_end: *const u8,
    prefix_size: usize,
    ext_dict: *const u8,
    ext_size: usize,
}

const _: () = assert!(std::mem::size_of::<DecodeState>() <= STREAM_DECODE_SIZE);

fn layout() -> Layout {
    Layout::new::<LZ4_streamDecode_t>()
}

/// A new decoding stream (zeroed: no history), or null if memory is short.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub extern "C" fn LZ4_createStreamDecode() -> *mut LZ4_streamDecode_t {
    // SAFETY: the layout has a non-zero size.
    unsafe { alloc_zeroed(layout()) }.cast()
}

/// Frees a stream from `LZ4_createStreamDecode` (null is allowed); returns 0.
///
/// # Safety
/// `stream` null or from `LZ4_createStreamDecode`, not freed before.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_freeStreamDecode(stream: *mut LZ4_streamDecode_t) -> c_int {
    if !stream.is_null() {
        // SAFETY: allocated by `LZ4_createStreamDecode` with this layout (the caller's contract).
        unsafe { dealloc(stream.cast(), layout()) };
    }
    0
}

/// Starts the stream from `dict[..dict_size]` (no history when `dict_size` is 0); returns 1, or
/// 0 for a null stream or a negative size.
///
/// # Safety
/// `stream` null or a valid `LZ4_streamDecode_t`; `dict[..dict_size]` must stay readable and
/// unchanged while the stream uses it.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_setStreamDecode(
    stream: *mut LZ4_streamDecode_t,
    dict: *const c_char,
    dict_size: c_int,
) -> c_int {
    let Ok(size) = usize::try_from(dict_size) else {
        return 0;
    };
    if stream.is_null() || (size > 0 && dict.is_null()) {
        return 0;
    }
    let state = DecodeState {
        prefix_end: dict.cast::<u8>().wrapping_add(size),
        prefix_size: size,
        ext_dict: std::ptr::null(),
        ext_size: 0,
    };
    // SAFETY: `stream` is non-null and holds `STREAM_DECODE_SIZE` writable bytes.
    unsafe { stream.cast::<DecodeState>().write_unaligned(state) };
    1
}

/// Decodes the next block of the stream into `dst[..dst_capacity]`: the decoded size, or a
/// negative value (the stream is then unchanged). The blocks decoded before must still be where
/// they were decoded, unchanged (the last 64 KiB of them).
///
/// # Safety
/// `stream` a valid `LZ4_streamDecode_t` whose history is still in place;
/// `src[..compressed_size]` readable, `dst[..dst_capacity]` writable.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_decompress_safe_continue(
    stream: *mut LZ4_streamDecode_t,
    src: *const c_char,
    dst: *mut c_char,
    compressed_size: c_int,
    dst_capacity: c_int,
) -> c_int {
    if stream.is_null() {
        return DECODE_ERROR;
    }
    // SAFETY: non-null, `STREAM_DECODE_SIZE` readable bytes (the caller's contract).
    let mut state = unsafe { stream.cast::<DecodeState>().read_unaligned() };
    let dst_u8 = dst.cast::<u8>().cast_const();
    let result = if state.prefix_size == 0 {
        // SAFETY: the caller's contract for the buffers.
        unsafe {
            decode(
                src,
                dst,
                compressed_size,
                dst_capacity,
                std::ptr::null(),
                0,
                false,
            )
        }
    } else if state.prefix_end == dst_u8 {
        // SAFETY: the prefix lies right before `dst` (the caller's contract for the stream).
        unsafe { decode_after_prefix(&state, src, dst, compressed_size, dst_capacity) }
    } else {
        let ext = state.prefix_end.wrapping_sub(state.prefix_size);
        let ext_size = c_len(state.prefix_size.min(MAX_HISTORY));
        let ext_tail = state.prefix_end.wrapping_sub(ext_size as usize);
        // SAFETY: the previous output is readable where it was decoded (the caller's contract).
        let r = unsafe {
            decode(
                src,
                dst,
                compressed_size,
                dst_capacity,
                ext_tail.cast(),
                ext_size,
                false,
            )
        };
        if r > 0 {
            state.ext_dict = ext;
            state.ext_size = state.prefix_size;
            state.prefix_size = 0;
        }
        r
    };
    if result <= 0 {
        return result;
    }
    if state.prefix_end == dst_u8 {
        state.prefix_size += result as usize;
    } else {
        state.prefix_size = result as usize;
    }
    state.prefix_end = dst_u8.wrapping_add(result as usize);
    // SAFETY: as the read above.
    unsafe { stream.cast::<DecodeState>().write_unaligned(state) };
    result
}

/// Decodes into `dst`, right after the prefix `dst[-prefix_size..0]`, with the external
/// dictionary behind the prefix when the prefix is shorter than 64 KiB.
///
/// # Safety
/// `state`'s prefix readable right before `dst`, its external dictionary readable;
/// `src[..src_size]` readable, `dst[..capacity]` writable.
unsafe fn decode_after_prefix(
    state: &DecodeState,
    src: *const c_char,
    dst: *mut c_char,
    src_size: c_int,
    capacity: c_int,
) -> c_int {
    if src.is_null() || src_size < 0 || capacity <= 0 {
        // SAFETY: the caller's contract for `src`; no output byte is written.
        return unsafe { decode(src, dst, src_size, capacity, std::ptr::null(), 0, false) };
    }
    let cap = capacity as usize;
    let prefix = state.prefix_size.min(MAX_HISTORY);
    let ext = if state.prefix_size >= MAX_HISTORY - 1 {
        0
    } else {
        state.ext_size.min(MAX_HISTORY - prefix)
    };
    let start = dst.wrapping_sub(prefix);
    let span = c_len(prefix + cap);
    // SAFETY: the caller's contract for `src`; overlap with the prefix and `dst` handled.
    let Some(src) = (unsafe { input_apart(src, src_size, start, span) }) else {
        return DECODE_ERROR;
    };
    let result = if ext == 0 {
        // SAFETY: `start[..prefix]` is the prefix and `start[prefix..]` is `dst[..cap]`, one
        // buffer of the caller's; `src` does not alias it. The prefix is only read.
        let Some(buf) = (unsafe { output(start, span) }) else {
            return DECODE_ERROR;
        };
        block::decompress_into_with_history(&src, buf, prefix)
    } else {
        // Two segments: a copy of both (at most 64 KiB) is the dictionary, and the block is
        // decoded straight into `dst` (no buffer of the output's capacity).
        let mut dict = Vec::with_capacity(ext + prefix);
        let ext_tail = state.ext_dict.wrapping_add(state.ext_size - ext);
        // SAFETY: the external dictionary's tail and the prefix are readable (the caller's
        // contract); they are copied before `dst` is written, and the slices end here.
        unsafe {
            dict.extend_from_slice(std::slice::from_raw_parts(ext_tail, ext));
            dict.extend_from_slice(std::slice::from_raw_parts(start.cast::<u8>(), prefix));
        }
        // SAFETY: the caller's contract for `dst[..capacity]`; `src` does not alias it (copied
        // above if it did), and the dictionary is a copy.
        let Some(out) = (unsafe { output(dst, capacity) }) else {
            return DECODE_ERROR;
        };
        block::decompress_into_with_dictionary(&src, out, &dict)
    };
    result.map_or(DECODE_ERROR, c_len)
}

/// Decodes a block whose history is the 64 KiB right before `dst` (an older form of
/// `LZ4_decompress_safe_usingDict`).
///
/// # Safety
/// `dst[-65536..dst_capacity]` the caller's buffer, its first 64 KiB readable;
/// `src[..compressed_size]` readable.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_decompress_safe_withPrefix64k(
    src: *const c_char,
    dst: *mut c_char,
    compressed_size: c_int,
    dst_capacity: c_int,
) -> c_int {
    let state = DecodeState {
        prefix_end: dst.cast::<u8>(),
        prefix_size: MAX_HISTORY,
        ext_dict: std::ptr::null(),
        ext_size: 0,
    };
    // SAFETY: the 64 KiB before `dst` are the prefix (the caller's contract).
    unsafe { decode_after_prefix(&state, src, dst, compressed_size, dst_capacity) }
}
