//! `lz4hc.h`: the high-compression block functions.

use std::os::raw::{c_char, c_int, c_void};

use lz4_simd::block;

use crate::compress_stream_hc::{one_shot, LZ4_initStreamHC};
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

/// [`LZ4_compress_HC`] with the state in the caller's memory (`LZ4_sizeofStateHC()` bytes,
/// pointer-aligned), which is initialised first and left as liblz4 leaves it (the input its
/// history): 0 for a null or misaligned state.
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
    if unsafe { LZ4_initStreamHC(state, STREAM_HC_SIZE) }.is_null() {
        return 0;
    }
    // SAFETY: the caller's contract for the buffers; the state is initialised.
    unsafe {
        LZ4_compress_HC_extStateHC_fastReset(
            state,
            src,
            dst,
            src_size,
            dst_capacity,
            compression_level,
        )
    }
}

/// [`LZ4_compress_HC_extStateHC`] on a state already initialised (a stream's, reset as
/// `LZ4_resetStreamHC_fast` resets it, not cleared): 0 for a null or misaligned state.
///
/// # Safety
/// As [`LZ4_compress_HC_extStateHC`], with `state` a valid (initialised) `LZ4_streamHC_t`.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_compress_HC_extStateHC_fastReset(
    state: *mut c_void,
    src: *const c_char,
    dst: *mut c_char,
    src_size: c_int,
    dst_capacity: c_int,
    compression_level: c_int,
) -> c_int {
    let mut size = src_size;
    // SAFETY: the caller's contract.
    unsafe {
        one_shot(
            state,
            src,
            dst,
            &mut size,
            dst_capacity,
            compression_level,
            false,
        )
    }
}

/// Compresses with LZ4 HC as much of `src[..*src_size]` as fits in `dst[..target_dst_size]`:
/// the compressed size, with `*src_size` set to the input consumed; 0 on failure. The state is
/// initialised first and left as liblz4 leaves it.
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
    if src_size.is_null() {
        return 0;
    }
    // SAFETY: non-null, and the caller guarantees a valid `int`.
    let mut size = unsafe { src_size.read() };
    // SAFETY: the caller's contract for the state and the buffers.
    let written = unsafe {
        one_shot(
            state,
            src,
            dst,
            &mut size,
            target_dst_size,
            compression_level,
            true,
        )
    };
    if written > 0 {
        // SAFETY: as above.
        unsafe { src_size.write(size) };
    }
    written
}
