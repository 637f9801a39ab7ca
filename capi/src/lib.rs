//! liblz4 1.10's C ABI on lz4-simd: the functions of `lz4.h`, `lz4hc.h` and `lz4frame.h`, with
//! liblz4's prototypes, return values and error conventions, built by cargo-c into
//! `liblz4.so.1`.
//!
//! Each exported function is a thin `extern "C"` wrapper: it checks the sizes and pointers it is
//! given as liblz4 does (a negative size or a null buffer is a failure: 0 from a compressor, a
//! negative value from a decoder), turns the buffers into slices and calls lz4-simd. Nothing is
//! read or written outside the buffers the caller described. Buffers that overlap (in-place
//! use) are handled through a copy of the input.
//!
//! The symbols are unmangled under cargo-c (the `cargo_c` cfg) or the `capi` feature; otherwise
//! the functions keep their C signatures under Rust paths, so that tests can link them beside
//! liblz4 itself and compare.
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks, clippy::missing_safety_doc)]
#![allow(non_snake_case, non_camel_case_types)]

use std::borrow::Cow;
use std::cell::RefCell;
use std::os::raw::{c_char, c_int, c_void};

use lz4_simd::block::{self, hc_c_stream, Compressor, HcCompressor, HcStreamCompressor};

mod compress_stream;
mod compress_stream_hc;
mod fast;
mod hc;
mod lz4file;
mod lz4frame;
mod lz4frame_compress;
mod lz4frame_decompress;
mod obsolete;
mod stream;
pub use compress_stream::*;
pub use compress_stream_hc::*;
pub use fast::*;
pub use hc::*;
pub use lz4file::*;
pub use lz4frame::*;
pub use lz4frame_compress::*;
pub use lz4frame_decompress::*;
pub use obsolete::*;
pub use stream::*;

/// `LZ4_VERSION_NUMBER`: major * 10000 + minor * 100 + release.
pub const VERSION_NUMBER: c_int = 11000;
/// `LZ4_MAX_INPUT_SIZE`.
pub const MAX_INPUT_SIZE: c_int = 0x7E00_0000;
/// `LZ4_ACCELERATION_MAX`.
pub const ACCELERATION_MAX: c_int = 65537;
/// `sizeof(LZ4_stream_t)`, `LZ4_STREAM_MINSIZE`: (1 << 14) + 32.
pub const STREAM_SIZE: usize = 16416;

/// The input `ptr[..len]`, or `None` for a negative length or a null pointer with a length.
///
/// # Safety
/// With `len > 0` and `ptr` non-null, `ptr[..len]` must be readable and not written during `'a`.
pub(crate) unsafe fn input<'a>(ptr: *const c_char, len: c_int) -> Option<&'a [u8]> {
    let len = usize::try_from(len).ok()?;
    if len == 0 {
        return Some(&[]);
    }
    if ptr.is_null() {
        return None;
    }
    // SAFETY: non-null, and the caller guarantees `len` readable bytes (the C contract).
    Some(unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), len) })
}

/// The output `ptr[..len]`, as [`input`].
///
/// # Safety
/// With `len > 0` and `ptr` non-null, `ptr[..len]` must be writable and not otherwise accessed
/// during `'a`.
pub(crate) unsafe fn output<'a>(ptr: *mut c_char, len: c_int) -> Option<&'a mut [u8]> {
    let len = usize::try_from(len).ok()?;
    if len == 0 {
        return Some(&mut []);
    }
    if ptr.is_null() {
        return None;
    }
    // SAFETY: non-null, and the caller guarantees `len` writable bytes used by nobody else.
    Some(unsafe { std::slice::from_raw_parts_mut(ptr.cast::<u8>(), len) })
}

/// Whether the byte ranges `a[..a_len]` and `b[..b_len]` share a byte.
pub(crate) fn overlap(a: *const c_char, a_len: c_int, b: *const c_char, b_len: c_int) -> bool {
    let (a, b) = (a as usize, b as usize);
    let (a_len, b_len) = (a_len.max(0) as usize, b_len.max(0) as usize);
    a_len > 0 && b_len > 0 && a < b.saturating_add(b_len) && b < a.saturating_add(a_len)
}

/// The input `ptr[..len]`, copied if it overlaps the output `dst[..dst_len]` (a slice may not
/// alias the output's); `None` for an invalid input.
///
/// # Safety
/// As [`input`], except that `ptr[..len]` may overlap `dst[..dst_len]`.
pub(crate) unsafe fn input_apart<'a>(
    ptr: *const c_char,
    len: c_int,
    dst: *const c_char,
    dst_len: c_int,
) -> Option<Cow<'a, [u8]>> {
    // SAFETY: the caller's contract for `ptr[..len]`; when it overlaps the output the slice is
    // only read to make the copy, before any output slice exists.
    let src = unsafe { input(ptr, len) }?;
    if overlap(ptr, len, dst, dst_len) {
        Some(Cow::Owned(src.to_vec()))
    } else {
        Some(Cow::Borrowed(src))
    }
}

/// Clamps a C acceleration as liblz4: below 1 is 1, above 65537 is 65537.
fn acceleration(acceleration: c_int) -> u32 {
    acceleration.clamp(1, ACCELERATION_MAX) as u32
}

/// A length known to fit (at most one of the caller's `int` sizes) as a C `int`.
pub(crate) fn c_len(len: usize) -> c_int {
    c_int::try_from(len).unwrap_or(c_int::MAX)
}

thread_local! {
    static FAST: RefCell<Option<Compressor>> = const { RefCell::new(None) };
    static HC: RefCell<Option<HcCompressor>> = const { RefCell::new(None) };
    static HC_SCRATCH: RefCell<Option<hc_c_stream::Scratch>> = const { RefCell::new(None) };
}

/// Runs `f` with this thread's compressor (a fresh one if it is in use or the thread is ending):
/// the fast compressors' tables are allocated once per thread, not per call.
fn with_cached<T, R>(
    key: &'static std::thread::LocalKey<RefCell<Option<T>>>,
    new: fn() -> T,
    f: impl FnOnce(&mut T) -> R,
) -> R {
    let mut f = Some(f);
    let mut run = |t: &mut T| f.take().map(|f| f(t));
    let cached = key
        .try_with(|cell| {
            cell.try_borrow_mut()
                .ok()
                .and_then(|mut slot| run(slot.get_or_insert_with(new)))
        })
        .ok()
        .flatten();
    match cached {
        Some(r) => r,
        None => run(&mut new()).expect("the closure runs once"),
    }
}

pub(crate) fn with_fast<R>(f: impl FnOnce(&mut Compressor) -> R) -> R {
    with_cached(&FAST, Compressor::new, f)
}

pub(crate) fn with_hc<R>(f: impl FnOnce(&mut HcCompressor) -> R) -> R {
    with_cached(&HC, HcCompressor::new, f)
}

/// Runs `f` with this thread's working memory for the HC stream functions.
pub(crate) fn with_hc_scratch<R>(f: impl FnOnce(&mut hc_c_stream::Scratch) -> R) -> R {
    with_cached(&HC_SCRATCH, hc_c_stream::Scratch::new, f)
}

pub(crate) fn new_hc_stream(level: u8) -> HcStreamCompressor {
    HcStreamCompressor::new(level)
}

/// The library's version number, 11000 for 1.10.0.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub extern "C" fn LZ4_versionNumber() -> c_int {
    VERSION_NUMBER
}

/// The library's version, "1.10.0".
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub extern "C" fn LZ4_versionString() -> *const c_char {
    c"1.10.0".as_ptr()
}

/// The most a block of `input_size` bytes compresses to; 0 for a size above `LZ4_MAX_INPUT_SIZE`
/// or negative.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub extern "C" fn LZ4_compressBound(input_size: c_int) -> c_int {
    if !(0..=MAX_INPUT_SIZE).contains(&input_size) {
        0
    } else {
        input_size + input_size / 255 + 16
    }
}

/// The size of the state `LZ4_compress_fast_extState` takes.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub extern "C" fn LZ4_sizeofState() -> c_int {
    STREAM_SIZE as c_int
}

/// Compresses `src[..src_size]` into `dst[..dst_capacity]` at `acceleration`; the compressed size,
/// or 0 if it does not fit or the arguments are invalid.
///
/// # Safety
/// `src[..src_size]` readable, `dst[..dst_capacity]` writable (either may be null when its size
/// is 0).
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_compress_fast(
    src: *const c_char,
    dst: *mut c_char,
    src_size: c_int,
    dst_capacity: c_int,
    acceleration: c_int,
) -> c_int {
    if src_size > MAX_INPUT_SIZE {
        return 0;
    }
    let accel = self::acceleration(acceleration);
    // SAFETY: the caller's contract for `src[..src_size]`, overlap with `dst` handled.
    let Some(src) = (unsafe { input_apart(src, src_size, dst, dst_capacity) }) else {
        return 0;
    };
    // SAFETY: the caller's contract for `dst[..dst_capacity]`; `src` does not alias it.
    let Some(dst) = (unsafe { output(dst, dst_capacity) }) else {
        return 0;
    };
    with_fast(|c| c.compress_into(&src, dst, accel)).map_or(0, c_len)
}

/// [`LZ4_compress_fast`] at acceleration 1.
///
/// # Safety
/// As [`LZ4_compress_fast`].
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_compress_default(
    src: *const c_char,
    dst: *mut c_char,
    src_size: c_int,
    dst_capacity: c_int,
) -> c_int {
    // SAFETY: the same contract.
    unsafe { LZ4_compress_fast(src, dst, src_size, dst_capacity, 1) }
}

/// Leaves `state` as liblz4 does after a one-shot call: zeroed (an initialised stream).
///
/// # Safety
/// `state` null or `STREAM_SIZE` writable bytes.
unsafe fn clear_state(state: *mut c_void) -> bool {
    if state.is_null() || state.align_offset(std::mem::align_of::<*const c_void>()) != 0 {
        return false;
    }
    // SAFETY: non-null, aligned, and the caller's contract gives `STREAM_SIZE` bytes.
    unsafe { std::ptr::write_bytes(state.cast::<u8>(), 0, STREAM_SIZE) };
    true
}

/// [`LZ4_compress_fast`] with the state in the caller's memory (`LZ4_sizeofState()` bytes,
/// pointer-aligned): 0 for a null or misaligned state. The state is left as liblz4 leaves it
/// (its index, table kind and history fields; the table cleared): the compressor's tables
/// themselves are this thread's (see the crate's documentation).
///
/// # Safety
/// As [`LZ4_compress_fast`], and `state` null or `LZ4_sizeofState()` writable bytes.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_compress_fast_extState(
    state: *mut c_void,
    src: *const c_char,
    dst: *mut c_char,
    src_size: c_int,
    dst_capacity: c_int,
    acceleration: c_int,
) -> c_int {
    // SAFETY: the caller's contract for `state`.
    if !unsafe { clear_state(state) } {
        return 0;
    }
    let accel = self::acceleration(acceleration);
    // SAFETY: the caller's contract for the state (cleared above) and the buffers.
    let on_table = unsafe {
        compress_stream::one_shot_on_table(state, src, dst, src_size, dst_capacity, accel)
    };
    // SAFETY: the caller's contract for the buffers.
    let result = on_table.unwrap_or_else(|| unsafe {
        LZ4_compress_fast(src, dst, src_size, dst_capacity, acceleration)
    });
    // SAFETY: `state` is a valid `LZ4_stream_t` (the caller's contract), cleared above.
    unsafe { compress_stream::after_one_shot(state, src_size) };
    result
}

/// [`LZ4_compress_fast_extState`] on a state already initialised (not cleared again): 0 for a
/// null state. The state's fields are left as liblz4's `LZ4_prepareTable` and compression leave
/// them (its table cleared where liblz4 clears it, else untouched).
///
/// # Safety
/// As [`LZ4_compress_fast_extState`].
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_compress_fast_extState_fastReset(
    state: *mut c_void,
    src: *const c_char,
    dst: *mut c_char,
    src_size: c_int,
    dst_capacity: c_int,
    acceleration: c_int,
) -> c_int {
    if state.is_null() {
        return 0;
    }
    // SAFETY: `state` is a valid, initialised `LZ4_stream_t` (the caller's contract).
    let no_match = unsafe { compress_stream::prepare_one_shot(state, src_size) };
    let accel = self::acceleration(acceleration);
    // SAFETY: the caller's contract for the state (prepared above) and the buffers.
    let on_table = unsafe {
        compress_stream::one_shot_on_table(state, src, dst, src_size, dst_capacity, accel)
    };
    let result = match on_table {
        Some(result) => result,
        // SAFETY: the caller's contract for the buffers.
        None if no_match && src_size > 0 => unsafe {
            compress_stream::literal_block(src, dst, src_size, dst_capacity)
        },
        // SAFETY: the caller's contract for the buffers.
        None => unsafe { LZ4_compress_fast(src, dst, src_size, dst_capacity, acceleration) },
    };
    // SAFETY: as above.
    unsafe { compress_stream::after_one_shot(state, src_size) };
    result
}

/// The ring buffer size that lets `LZ4_decompress_safe_continue` decode blocks of up to
/// `max_block_size` bytes in place: 65536 + 14 + max(max_block_size, 16); 0 for a negative size
/// or one above `LZ4_MAX_INPUT_SIZE`.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub extern "C" fn LZ4_decoderRingBufferSize(max_block_size: c_int) -> c_int {
    if !(0..=MAX_INPUT_SIZE).contains(&max_block_size) {
        return 0;
    }
    65536 + 14 + max_block_size.max(16)
}

/// Compresses as much of `src[..*src_size]` as fits in `dst[..target_dst_size]`: the compressed
/// size, with `*src_size` set to the input consumed; 0 on failure (`*src_size` unchanged).
///
/// # Safety
/// `src_size` null or a valid `int`; the buffers as [`LZ4_compress_fast`].
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_compress_destSize(
    src: *const c_char,
    dst: *mut c_char,
    src_size: *mut c_int,
    target_dst_size: c_int,
) -> c_int {
    // SAFETY: the same contract.
    unsafe { dest_size(src, dst, src_size, target_dst_size, 1) }
}

/// [`LZ4_compress_destSize`] at `acceleration` (clamped to 1..=65537), with the state in the
/// caller's memory as for [`LZ4_compress_fast_extState`].
///
/// # Safety
/// As [`LZ4_compress_destSize`], and `state` as for [`LZ4_compress_fast_extState`].
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_compress_destSize_extState(
    state: *mut c_void,
    src: *const c_char,
    dst: *mut c_char,
    src_size: *mut c_int,
    target_dst_size: c_int,
    acceleration: c_int,
) -> c_int {
    // SAFETY: the caller's contract for `state`.
    if !unsafe { clear_state(state) } {
        return 0;
    }
    // SAFETY: the caller's contract for the buffers.
    unsafe {
        dest_size(
            src,
            dst,
            src_size,
            target_dst_size,
            self::acceleration(acceleration),
        )
    }
}

/// The dest-size compressors' common body.
///
/// # Safety
/// As [`LZ4_compress_destSize`].
unsafe fn dest_size(
    src: *const c_char,
    dst: *mut c_char,
    src_size: *mut c_int,
    target_dst_size: c_int,
    acceleration: u32,
) -> c_int {
    if src_size.is_null() {
        return 0;
    }
    // SAFETY: non-null, and the caller guarantees a valid `int`.
    let len = unsafe { src_size.read() };
    if len > MAX_INPUT_SIZE {
        return 0;
    }
    // SAFETY: the caller's contract for `src[..len]`, overlap with `dst` handled.
    let Some(src) = (unsafe { input_apart(src, len, dst, target_dst_size) }) else {
        return 0;
    };
    // SAFETY: the caller's contract for `dst[..target_dst_size]`; `src` does not alias it.
    let Some(dst) = (unsafe { output(dst, target_dst_size) }) else {
        return 0;
    };
    match block::compress_fast_dest_size(&src, dst, acceleration) {
        Ok((consumed, written)) => {
            // SAFETY: checked non-null above; a valid `int` by the caller's contract.
            unsafe { src_size.write(c_len(consumed)) };
            c_len(written)
        }
        Err(_) => 0,
    }
}

/// A decoder's failure: liblz4 returns a negative value.
pub(crate) const DECODE_ERROR: c_int = -1;

/// Decodes the block `src[..compressed_size]` into `dst[..dst_capacity]`: the decoded size, or a
/// negative value for a malformed block, one that does not fit, or invalid arguments.
///
/// # Safety
/// `src[..compressed_size]` readable, `dst[..dst_capacity]` writable.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_decompress_safe(
    src: *const c_char,
    dst: *mut c_char,
    compressed_size: c_int,
    dst_capacity: c_int,
) -> c_int {
    // SAFETY: the same contract, with an empty dictionary.
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
}

/// Decodes the first `min(target_output_size, dst_capacity)` bytes of the block (fewer if it
/// decodes to less): the number written, or a negative value.
///
/// # Safety
/// As [`LZ4_decompress_safe`].
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_decompress_safe_partial(
    src: *const c_char,
    dst: *mut c_char,
    compressed_size: c_int,
    target_output_size: c_int,
    dst_capacity: c_int,
) -> c_int {
    let capacity = target_output_size.min(dst_capacity);
    // SAFETY: `capacity` is at most the caller's `dst_capacity`.
    unsafe {
        decode(
            src,
            dst,
            compressed_size,
            capacity,
            std::ptr::null(),
            0,
            true,
        )
    }
}

/// [`LZ4_decompress_safe`] of a block compressed with the dictionary `dict[..dict_size]`.
///
/// # Safety
/// As [`LZ4_decompress_safe`], and `dict[..dict_size]` readable.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_decompress_safe_usingDict(
    src: *const c_char,
    dst: *mut c_char,
    compressed_size: c_int,
    dst_capacity: c_int,
    dict: *const c_char,
    dict_size: c_int,
) -> c_int {
    // SAFETY: the same contract.
    unsafe {
        decode(
            src,
            dst,
            compressed_size,
            dst_capacity,
            dict,
            dict_size,
            false,
        )
    }
}

/// [`LZ4_decompress_safe_partial`] of a block compressed with the dictionary `dict[..dict_size]`.
///
/// # Safety
/// As [`LZ4_decompress_safe_usingDict`].
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_decompress_safe_partial_usingDict(
    src: *const c_char,
    dst: *mut c_char,
    compressed_size: c_int,
    target_output_size: c_int,
    dst_capacity: c_int,
    dict: *const c_char,
    dict_size: c_int,
) -> c_int {
    let capacity = target_output_size.min(dst_capacity);
    // SAFETY: `capacity` is at most the caller's `dst_capacity`.
    unsafe { decode(src, dst, compressed_size, capacity, dict, dict_size, true) }
}

/// [`LZ4_decompress_safe_usingDict`] with the dictionary always treated as separate memory
/// (liblz4's internal entry point, which its tests call; the result is the same).
///
/// # Safety
/// As [`LZ4_decompress_safe_usingDict`].
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_decompress_safe_forceExtDict(
    src: *const c_char,
    dst: *mut c_char,
    compressed_size: c_int,
    dst_capacity: c_int,
    dict: *const c_void,
    dict_size: usize,
) -> c_int {
    let (dict, keep) = dict_tail(dict, dict_size);
    // SAFETY: the same contract; `dict[..keep]` is the dictionary's tail.
    unsafe { decode(src, dst, compressed_size, dst_capacity, dict, keep, false) }
}

/// [`LZ4_decompress_safe_partial_usingDict`] as [`LZ4_decompress_safe_forceExtDict`].
///
/// # Safety
/// As [`LZ4_decompress_safe_usingDict`].
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_decompress_safe_partial_forceExtDict(
    src: *const c_char,
    dst: *mut c_char,
    compressed_size: c_int,
    target_output_size: c_int,
    dst_capacity: c_int,
    dict: *const c_void,
    dict_size: usize,
) -> c_int {
    let (dict, keep) = dict_tail(dict, dict_size);
    let capacity = target_output_size.min(dst_capacity);
    // SAFETY: `capacity` is at most the caller's `dst_capacity`; `dict[..keep]` is the
    // dictionary's tail.
    unsafe { decode(src, dst, compressed_size, capacity, dict, keep, true) }
}

/// The last 64 KiB of `dict[..size]` (all a block can reference).
/// A null `dict` stays null (and is rejected by [`decode`] when `size` is not 0).
fn dict_tail(dict: *const c_void, size: usize) -> (*const c_char, c_int) {
    let keep = size.min(block::MAX_HISTORY);
    if dict.is_null() {
        return (std::ptr::null(), keep as c_int);
    }
    (
        dict.cast::<c_char>().wrapping_add(size - keep),
        keep as c_int,
    )
}

/// The decoders' common body.
///
/// # Safety
/// `src[..src_size]` and `dict[..dict_size]` readable, `dst[..capacity]` writable.
pub(crate) unsafe fn decode(
    src: *const c_char,
    dst: *mut c_char,
    src_size: c_int,
    capacity: c_int,
    dict: *const c_char,
    dict_size: c_int,
    partial: bool,
) -> c_int {
    if src.is_null() || capacity < 0 || src_size < 0 || dict_size < 0 {
        return DECODE_ERROR;
    }
    // Checked before the dictionary's tail is taken: past 64 KiB, the tail of a null dictionary
    // would be a non-null address.
    if dict.is_null() && dict_size > 0 {
        return DECODE_ERROR;
    }
    if capacity == 0 {
        // liblz4: an empty output takes only the empty block (anything, when partial).
        if partial {
            return 0;
        }
        // SAFETY: `src` non-null; `src_size >= 1` readable bytes by the caller's contract.
        let empty_block = src_size == 1 && unsafe { src.cast::<u8>().read() } == 0;
        return if empty_block { 0 } else { DECODE_ERROR };
    }
    // Only the dictionary's last 64 KiB can be referenced.
    let keep = dict_size.min(block::MAX_HISTORY as c_int);
    let dict = if keep == 0 {
        std::ptr::null()
    } else {
        // `dict_size - keep` is within the caller's dictionary.
        dict.wrapping_add((dict_size - keep) as usize)
    };
    // SAFETY: the caller's contract for `dict[..dict_size]`, of which this is the tail;
    // overlap with `dst` handled.
    let Some(dict) = (unsafe { input_apart(dict, keep, dst, capacity) }) else {
        return DECODE_ERROR;
    };
    // SAFETY: the caller's contract for `src[..src_size]`; overlap with `dst` handled.
    let Some(src) = (unsafe { input_apart(src, src_size, dst, capacity) }) else {
        return DECODE_ERROR;
    };
    // SAFETY: the caller's contract for `dst[..capacity]`; no input aliases it.
    let Some(dst) = (unsafe { output(dst, capacity) }) else {
        return DECODE_ERROR;
    };
    match (partial, dict.is_empty()) {
        (false, true) => block::decompress_into(&src, dst),
        (false, false) => block::decompress_into_with_dictionary(&src, dst, &dict),
        (true, true) => block::decompress_partial(&src, dst),
        (true, false) => block::decompress_partial_with_dictionary(&src, dst, &dict),
    }
    .map_or(DECODE_ERROR, c_len)
}
