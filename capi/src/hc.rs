//! `lz4hc.h`: the high-compression block functions.

use std::os::raw::{c_char, c_int, c_void};

use lz4_simd::block;

use crate::{c_len, input_apart, new_hc_stream, output, with_hc, MAX_INPUT_SIZE};

/// `sizeof(LZ4_streamHC_t)`, `LZ4_STREAMHC_MINSIZE`.
pub const STREAM_HC_SIZE: usize = 262_200;

/// A C level as liblz4 takes it: below 1 is the default (9), above 12 is 12.
pub(crate) fn level(level: c_int) -> u8 {
    if level < 1 {
        0
    } else {
        level.min(block::HC_LEVEL_MAX as c_int) as u8
    }
}

/// The size of the state `LZ4_compress_HC_extStateHC` takes.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub extern "C" fn LZ4_sizeofStateHC() -> c_int {
    STREAM_HC_SIZE as c_int
}

/// Compresses `src[..src_size]` into `dst[..dst_capacity]` with LZ4 HC at `compression_level`:
/// the compressed size, or 0 if it does not fit (liblz4's verdict, which may give up a little
/// before the output is full) or the arguments are invalid.
///
/// # Safety
/// `src[..src_size]` readable, `dst[..dst_capacity]` writable.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_compress_HC(
    src: *const c_char,
    dst: *mut c_char,
    src_size: c_int,
    dst_capacity: c_int,
    compression_level: c_int,
) -> c_int {
    if src_size > MAX_INPUT_SIZE {
        return 0;
    }
    let level = level(compression_level);
    // SAFETY: the caller's contract for `src[..src_size]`, overlap with `dst` handled.
    let Some(src) = (unsafe { input_apart(src, src_size, dst, dst_capacity) }) else {
        return 0;
    };
    // SAFETY: the caller's contract for `dst[..dst_capacity]`; `src` does not alias it.
    let Some(dst) = (unsafe { output(dst, dst_capacity) }) else {
        return 0;
    };
    if dst.len() >= block::compress_bound(src.len()) {
        with_hc(|c| c.compress_into(&src, dst, level))
    } else {
        // A stream's first block gives up where liblz4's limited output does.
        new_hc_stream(level).compress_into(&src, dst)
    }
    .map_or(0, c_len)
}

/// Leaves an HC state zeroed (initialised), as liblz4; false for a null or misaligned state.
///
/// # Safety
/// `state` null or `STREAM_HC_SIZE` writable bytes.
unsafe fn clear_state_hc(state: *mut c_void) -> bool {
    if state.is_null() || state.align_offset(std::mem::align_of::<*const c_void>()) != 0 {
        return false;
    }
    // SAFETY: non-null, aligned, and the caller's contract gives `STREAM_HC_SIZE` bytes.
    unsafe { std::ptr::write_bytes(state.cast::<u8>(), 0, STREAM_HC_SIZE) };
    true
}

/// [`LZ4_compress_HC`] with the state in the caller's memory (`LZ4_sizeofStateHC()` bytes,
/// pointer-aligned): 0 for a null or misaligned state.
///
/// # Safety
/// As [`LZ4_compress_HC`], and `state` null or `LZ4_sizeofStateHC()` writable bytes.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_compress_HC_extStateHC(
    state: *mut c_void,
    src: *const c_char,
    dst: *mut c_char,
    src_size: c_int,
    dst_capacity: c_int,
    compression_level: c_int,
) -> c_int {
    // SAFETY: the caller's contract for `state`.
    if !unsafe { clear_state_hc(state) } {
        return 0;
    }
    // SAFETY: the caller's contract for the buffers.
    unsafe { LZ4_compress_HC(src, dst, src_size, dst_capacity, compression_level) }
}

/// [`LZ4_compress_HC_extStateHC`] on a state already initialised (not cleared again): 0 for a
/// null or misaligned state.
///
/// # Safety
/// As [`LZ4_compress_HC_extStateHC`].
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_compress_HC_extStateHC_fastReset(
    state: *mut c_void,
    src: *const c_char,
    dst: *mut c_char,
    src_size: c_int,
    dst_capacity: c_int,
    compression_level: c_int,
) -> c_int {
    if state.is_null() || state.align_offset(std::mem::align_of::<*const c_void>()) != 0 {
        return 0;
    }
    // SAFETY: the caller's contract for the buffers.
    unsafe { LZ4_compress_HC(src, dst, src_size, dst_capacity, compression_level) }
}

/// Compresses with LZ4 HC as much of `src[..*src_size]` as fits in `dst[..target_dst_size]`:
/// the compressed size, with `*src_size` set to the input consumed; 0 on failure.
///
/// # Safety
/// `state` as [`LZ4_compress_HC_extStateHC`], `src_size` null or a valid `int`, the buffers as
/// [`LZ4_compress_HC`].
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_compress_HC_destSize(
    state: *mut c_void,
    src: *const c_char,
    dst: *mut c_char,
    src_size: *mut c_int,
    target_dst_size: c_int,
    compression_level: c_int,
) -> c_int {
    // SAFETY: the caller's contract for `state`.
    if src_size.is_null() || !unsafe { clear_state_hc(state) } {
        return 0;
    }
    // SAFETY: non-null, and the caller guarantees a valid `int`.
    let len = unsafe { src_size.read() };
    if len > MAX_INPUT_SIZE {
        return 0;
    }
    let level = level(compression_level);
    // SAFETY: the caller's contract for `src[..len]`, overlap with `dst` handled.
    let Some(src) = (unsafe { input_apart(src, len, dst, target_dst_size) }) else {
        return 0;
    };
    // SAFETY: the caller's contract for `dst[..target_dst_size]`; `src` does not alias it.
    let Some(dst) = (unsafe { output(dst, target_dst_size) }) else {
        return 0;
    };
    let result = with_hc(|c| c.compress_dest_size(&src, dst, level)).ok();
    match result {
        Some((consumed, written)) => {
            // SAFETY: checked non-null above; a valid `int` by the caller's contract.
            unsafe { src_size.write(c_len(consumed)) };
            c_len(written)
        }
        None => 0,
    }
}
