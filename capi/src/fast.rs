//! `LZ4_decompress_fast*`: decoding a block of known decoded size whose compressed size is not
//! given. The block is first measured, reading its tokens and length bytes one at a time from
//! the pointer (the bytes liblz4 reads, no further), then decoded as a block of that size by
//! the safe decoders. liblz4 deprecates these functions: the caller must vouch for the input.

use std::os::raw::{c_char, c_int};

use crate::stream::{LZ4_decompress_safe_continue, LZ4_decompress_safe_withPrefix64k};
use crate::{LZ4_decompress_safe, LZ4_decompress_safe_usingDict, LZ4_streamDecode_t};

/// The compressed size of the block at `src` that decodes to `size` bytes, by liblz4's reading
/// of it; `None` where liblz4 fails (output overflow, a bad end of block).
///
/// # Safety
/// `src` must hold a block: every byte up to its end (as measured) readable.
unsafe fn measure(src: *const u8, size: usize) -> Option<usize> {
    // SAFETY: the caller guarantees the block's bytes; only bytes before its end are read.
    let byte = |at: usize| unsafe { src.add(at).read() };
    let length = |at: &mut usize| {
        let mut sum = 0usize;
        loop {
            let b = byte(*at);
            *at += 1;
            sum = sum.saturating_add(b as usize);
            if b != 255 {
                return sum;
            }
        }
    };
    let (mut ip, mut op) = (0usize, 0usize);
    loop {
        let token = byte(ip);
        ip += 1;
        let mut literals = (token >> 4) as usize;
        if literals == 15 {
            literals = literals.saturating_add(length(&mut ip));
        }
        if size - op < literals {
            return None;
        }
        op += literals;
        ip = ip.checked_add(literals)?;
        if size - op < 12 {
            return (op == size).then_some(ip);
        }
        ip += 2;
        let mut matched = (token & 15) as usize;
        if matched == 15 {
            matched = matched.saturating_add(length(&mut ip));
        }
        matched = matched.saturating_add(4);
        if size - op < matched {
            return None;
        }
        op += matched;
    }
}

/// Measures the block and runs `decode(compressed_size)`, which must decode exactly
/// `original_size` bytes: the compressed size, or -1.
///
/// # Safety
/// As [`measure`].
unsafe fn fast(
    src: *const c_char,
    original_size: c_int,
    decode: impl FnOnce(c_int) -> c_int,
) -> c_int {
    let Ok(size) = usize::try_from(original_size) else {
        return -1;
    };
    if src.is_null() {
        return -1;
    }
    // SAFETY: the caller's contract.
    let Some(len) = (unsafe { measure(src.cast(), size) }) else {
        return -1;
    };
    let len = match c_int::try_from(len) {
        Ok(len) => len,
        Err(_) => return -1,
    };
    if size == 0 {
        // A block that decodes to nothing: nothing to write.
        return len;
    }
    if decode(len) == original_size {
        len
    } else {
        -1
    }
}

/// Decodes the block at `src` into exactly `dst[..original_size]`: the number of input bytes
/// read, or a negative value.
///
/// # Safety
/// `src` holds a complete block (the function reads up to its end); `dst[..original_size]`
/// writable.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_decompress_fast(
    src: *const c_char,
    dst: *mut c_char,
    original_size: c_int,
) -> c_int {
    // SAFETY: the caller's contract; the measured block is readable.
    unsafe {
        fast(src, original_size, |n| {
            LZ4_decompress_safe(src, dst, n, original_size)
        })
    }
}

/// `LZ4_decompress_fast`.
///
/// # Safety
/// As [`LZ4_decompress_fast`].
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_uncompress(
    src: *const c_char,
    dst: *mut c_char,
    original_size: c_int,
) -> c_int {
    // SAFETY: the same contract.
    unsafe { LZ4_decompress_fast(src, dst, original_size) }
}

/// [`LZ4_decompress_fast`] with the dictionary `dict[..dict_size]`.
///
/// # Safety
/// As [`LZ4_decompress_fast`], and `dict[..dict_size]` readable.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_decompress_fast_usingDict(
    src: *const c_char,
    dst: *mut c_char,
    original_size: c_int,
    dict: *const c_char,
    dict_size: c_int,
) -> c_int {
    // SAFETY: the caller's contract; the measured block is readable.
    unsafe {
        fast(src, original_size, |n| {
            LZ4_decompress_safe_usingDict(src, dst, n, original_size, dict, dict_size)
        })
    }
}

/// [`LZ4_decompress_fast`] with the 64 KiB before `dst` as history.
///
/// # Safety
/// As [`LZ4_decompress_fast`], and the 64 KiB before `dst` readable.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_decompress_fast_withPrefix64k(
    src: *const c_char,
    dst: *mut c_char,
    original_size: c_int,
) -> c_int {
    // SAFETY: the caller's contract; the measured block is readable.
    unsafe {
        fast(src, original_size, |n| {
            LZ4_decompress_safe_withPrefix64k(src, dst, n, original_size)
        })
    }
}

/// The next block of a stream, as [`LZ4_decompress_fast`] (see `LZ4_decompress_safe_continue`).
///
/// # Safety
/// As [`LZ4_decompress_fast`], and `stream` as for `LZ4_decompress_safe_continue`.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_decompress_fast_continue(
    stream: *mut LZ4_streamDecode_t,
    src: *const c_char,
    dst: *mut c_char,
    original_size: c_int,
) -> c_int {
    if stream.is_null() {
        return -1;
    }
    // SAFETY: the caller's contract; the measured block is readable.
    unsafe {
        fast(src, original_size, |n| {
            LZ4_decompress_safe_continue(stream, src, dst, n, original_size)
        })
    }
}
