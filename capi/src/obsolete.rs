//! liblz4's older names, kept in its ABI: each is one of the current functions with fixed
//! arguments, as in liblz4.

use std::os::raw::{c_char, c_int, c_void};

use crate::hc::{LZ4_compress_HC, LZ4_compress_HC_extStateHC, STREAM_HC_SIZE};
use crate::{
    LZ4_compressBound, LZ4_compress_default, LZ4_compress_fast_extState, LZ4_decompress_safe,
    STREAM_SIZE,
};

/// `LZ4_compress_default` into a buffer of `LZ4_compressBound(src_size)` bytes.
///
/// # Safety
/// `src[..src_size]` readable, `dst[..LZ4_compressBound(src_size)]` writable.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_compress(
    src: *const c_char,
    dst: *mut c_char,
    src_size: c_int,
) -> c_int {
    // SAFETY: the same contract.
    unsafe { LZ4_compress_default(src, dst, src_size, LZ4_compressBound(src_size)) }
}

/// `LZ4_compress_default`.
///
/// # Safety
/// As `LZ4_compress_default`.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_compress_limitedOutput(
    src: *const c_char,
    dst: *mut c_char,
    src_size: c_int,
    dst_capacity: c_int,
) -> c_int {
    // SAFETY: the same contract.
    unsafe { LZ4_compress_default(src, dst, src_size, dst_capacity) }
}

/// `LZ4_compress_fast_extState` at acceleration 1 into `LZ4_compressBound(src_size)` bytes.
///
/// # Safety
/// As [`LZ4_compress`], and `state` as `LZ4_compress_fast_extState`.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_compress_withState(
    state: *mut c_void,
    src: *const c_char,
    dst: *mut c_char,
    src_size: c_int,
) -> c_int {
    // SAFETY: the same contract.
    unsafe { LZ4_compress_fast_extState(state, src, dst, src_size, LZ4_compressBound(src_size), 1) }
}

/// `LZ4_compress_fast_extState` at acceleration 1.
///
/// # Safety
/// As `LZ4_compress_fast_extState`.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_compress_limitedOutput_withState(
    state: *mut c_void,
    src: *const c_char,
    dst: *mut c_char,
    src_size: c_int,
    dst_capacity: c_int,
) -> c_int {
    // SAFETY: the same contract.
    unsafe { LZ4_compress_fast_extState(state, src, dst, src_size, dst_capacity, 1) }
}

/// `LZ4_decompress_safe`.
///
/// # Safety
/// As `LZ4_decompress_safe`.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_uncompress_unknownOutputSize(
    src: *const c_char,
    dst: *mut c_char,
    compressed_size: c_int,
    dst_capacity: c_int,
) -> c_int {
    // SAFETY: the same contract.
    unsafe { LZ4_decompress_safe(src, dst, compressed_size, dst_capacity) }
}

/// `sizeof(LZ4_stream_t)`.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub extern "C" fn LZ4_sizeofStreamState() -> c_int {
    STREAM_SIZE as c_int
}

/// `sizeof(LZ4_streamHC_t)`.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub extern "C" fn LZ4_sizeofStreamStateHC() -> c_int {
    STREAM_HC_SIZE as c_int
}

/// `LZ4_compress_HC` at the default level into `LZ4_compressBound(src_size)` bytes.
///
/// # Safety
/// As [`LZ4_compress`].
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_compressHC(
    src: *const c_char,
    dst: *mut c_char,
    src_size: c_int,
) -> c_int {
    // SAFETY: the same contract.
    unsafe { LZ4_compress_HC(src, dst, src_size, LZ4_compressBound(src_size), 0) }
}

/// `LZ4_compress_HC` at the default level.
///
/// # Safety
/// As `LZ4_compress_HC`.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_compressHC_limitedOutput(
    src: *const c_char,
    dst: *mut c_char,
    src_size: c_int,
    dst_capacity: c_int,
) -> c_int {
    // SAFETY: the same contract.
    unsafe { LZ4_compress_HC(src, dst, src_size, dst_capacity, 0) }
}

/// `LZ4_compress_HC` into `LZ4_compressBound(src_size)` bytes.
///
/// # Safety
/// As [`LZ4_compress`].
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_compressHC2(
    src: *const c_char,
    dst: *mut c_char,
    src_size: c_int,
    level: c_int,
) -> c_int {
    // SAFETY: the same contract.
    unsafe { LZ4_compress_HC(src, dst, src_size, LZ4_compressBound(src_size), level) }
}

/// `LZ4_compress_HC`.
///
/// # Safety
/// As `LZ4_compress_HC`.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_compressHC2_limitedOutput(
    src: *const c_char,
    dst: *mut c_char,
    src_size: c_int,
    dst_capacity: c_int,
    level: c_int,
) -> c_int {
    // SAFETY: the same contract.
    unsafe { LZ4_compress_HC(src, dst, src_size, dst_capacity, level) }
}

/// `LZ4_compress_HC_extStateHC` at the default level into `LZ4_compressBound(src_size)` bytes.
///
/// # Safety
/// As [`LZ4_compress`], and `state` as `LZ4_compress_HC_extStateHC`.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_compressHC_withStateHC(
    state: *mut c_void,
    src: *const c_char,
    dst: *mut c_char,
    src_size: c_int,
) -> c_int {
    // SAFETY: the same contract.
    unsafe { LZ4_compress_HC_extStateHC(state, src, dst, src_size, LZ4_compressBound(src_size), 0) }
}

/// `LZ4_compress_HC_extStateHC` at the default level.
///
/// # Safety
/// As `LZ4_compress_HC_extStateHC`.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_compressHC_limitedOutput_withStateHC(
    state: *mut c_void,
    src: *const c_char,
    dst: *mut c_char,
    src_size: c_int,
    dst_capacity: c_int,
) -> c_int {
    // SAFETY: the same contract.
    unsafe { LZ4_compress_HC_extStateHC(state, src, dst, src_size, dst_capacity, 0) }
}

/// `LZ4_compress_HC_extStateHC` into `LZ4_compressBound(src_size)` bytes.
///
/// # Safety
/// As [`LZ4_compressHC_withStateHC`].
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_compressHC2_withStateHC(
    state: *mut c_void,
    src: *const c_char,
    dst: *mut c_char,
    src_size: c_int,
    level: c_int,
) -> c_int {
    // SAFETY: the same contract.
    unsafe {
        LZ4_compress_HC_extStateHC(
            state,
            src,
            dst,
            src_size,
            LZ4_compressBound(src_size),
            level,
        )
    }
}

/// `LZ4_compress_HC_extStateHC`.
///
/// # Safety
/// As `LZ4_compress_HC_extStateHC`.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_compressHC2_limitedOutput_withStateHC(
    state: *mut c_void,
    src: *const c_char,
    dst: *mut c_char,
    src_size: c_int,
    dst_capacity: c_int,
    level: c_int,
) -> c_int {
    // SAFETY: the same contract.
    unsafe { LZ4_compress_HC_extStateHC(state, src, dst, src_size, dst_capacity, level) }
}
