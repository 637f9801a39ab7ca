//! liblz4's frame API (`lz4frame.h`, `LZ4F_*`): error codes, version and sizes.
//!
//! LZ4F reports errors in its `size_t` results: an error is minus its code (`LZ4F_errorCodes`,
//! 1 to 23) as a `size_t`, so every result above `(size_t)-24` is an error and every other value
//! is a size or a hint.

use std::os::raw::{c_char, c_int, c_uint, c_void};

/// `LZ4F_VERSION`: the frame API's version, which contexts are created with.
pub const LZ4F_VERSION: c_uint = 100;
/// `LZ4F_MIN_SIZE_TO_KNOW_HEADER_LENGTH`: magic number and FLG byte.
pub const MIN_SIZE_TO_KNOW_HEADER_LENGTH: usize = 5;
/// `LZ4F_HEADER_SIZE_MIN`: magic, FLG, BD and the header checksum.
pub const HEADER_SIZE_MIN: usize = 7;
/// The frame magic number, `LZ4F_MAGICNUMBER`.
pub(crate) const MAGIC: u32 = 0x184D_2204;
/// The longest frame header (`LZ4F_HEADER_SIZE_MAX`).
pub(crate) const MAX_HEADER: usize = 19;
/// A block's size word.
pub(crate) const BLOCK_HEADER: usize = 4;
/// A block or content checksum.
pub(crate) const CHECKSUM: usize = 4;
/// The lowest skippable-frame magic number (the low 4 bits are free).
const MAGIC_SKIPPABLE_START: u32 = 0x184D_2A50;

/// `LZ4F_errorCodes`: the codes of `lz4frame.h`, in its order (the value is the code).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum ErrorCode {
    OkNoError = 0,
    Generic,
    MaxBlockSizeInvalid,
    BlockModeInvalid,
    ParameterInvalid,
    CompressionLevelInvalid,
    HeaderVersionWrong,
    BlockChecksumInvalid,
    ReservedFlagSet,
    AllocationFailed,
    SrcSizeTooLarge,
    DstMaxSizeTooSmall,
    FrameHeaderIncomplete,
    FrameTypeUnknown,
    FrameSizeWrong,
    SrcPtrWrong,
    DecompressionFailed,
    HeaderChecksumInvalid,
    ContentChecksumInvalid,
    FrameDecodingAlreadyStarted,
    CompressionStateUninitialized,
    ParameterNull,
    IoWrite,
    IoRead,
    /// One past the last code: `LZ4F_ERROR_maxCode`.
    MaxCode,
}

/// The names `LZ4F_getErrorName` gives, indexed by code (liblz4's enumerator names without
/// their `LZ4F_` prefix).
const ERROR_NAMES: [&std::ffi::CStr; ErrorCode::MaxCode as usize + 1] = [
    c"OK_NoError",
    c"ERROR_GENERIC",
    c"ERROR_maxBlockSize_invalid",
    c"ERROR_blockMode_invalid",
    c"ERROR_parameter_invalid",
    c"ERROR_compressionLevel_invalid",
    c"ERROR_headerVersion_wrong",
    c"ERROR_blockChecksum_invalid",
    c"ERROR_reservedFlag_set",
    c"ERROR_allocation_failed",
    c"ERROR_srcSize_tooLarge",
    c"ERROR_dstMaxSize_tooSmall",
    c"ERROR_frameHeader_incomplete",
    c"ERROR_frameType_unknown",
    c"ERROR_frameSize_wrong",
    c"ERROR_srcPtr_wrong",
    c"ERROR_decompressionFailed",
    c"ERROR_headerChecksum_invalid",
    c"ERROR_contentChecksum_invalid",
    c"ERROR_frameDecoding_alreadyStarted",
    c"ERROR_compressionState_uninitialized",
    c"ERROR_parameter_null",
    c"ERROR_io_write",
    c"ERROR_io_read",
    c"ERROR_maxCode",
];

/// The `size_t` result that reports `code`: minus the code.
pub(crate) fn error(code: ErrorCode) -> usize {
    (code as usize).wrapping_neg()
}

/// The block maximum sizes of block size IDs 4 to 7.
const BLOCK_SIZES: [usize; 4] = [64 << 10, 256 << 10, 1 << 20, 4 << 20];

/// Whether `code` (any LZ4F function's result) is an error: minus a code from 1 to 23.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub extern "C" fn LZ4F_isError(code: usize) -> c_uint {
    c_uint::from(code > error(ErrorCode::MaxCode))
}

/// The name of the error `code` reports ("ERROR_frameType_unknown", ...), or
/// "Unspecified error code" for a result that is no error.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub extern "C" fn LZ4F_getErrorName(code: usize) -> *const c_char {
    if LZ4F_isError(code) != 0 {
        ERROR_NAMES[code.wrapping_neg()].as_ptr()
    } else {
        c"Unspecified error code".as_ptr()
    }
}

/// The code of the error `result` reports (`LZ4F_errorCodes`), 0 (`LZ4F_OK_NoError`) if it
/// reports none.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub extern "C" fn LZ4F_getErrorCode(result: usize) -> c_int {
    if LZ4F_isError(result) != 0 {
        result.wrapping_neg() as c_int
    } else {
        ErrorCode::OkNoError as c_int
    }
}

/// `LZ4F_VERSION` (100).
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub extern "C" fn LZ4F_getVersion() -> c_uint {
    LZ4F_VERSION
}

/// The highest compression level (12, LZ4 HC's maximum).
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub extern "C" fn LZ4F_compressionLevel_max() -> c_int {
    12
}

/// The block maximum size of a block size ID (`LZ4F_blockSizeID_t`: 0 is 64 KiB, 4 to 7 are
/// 64 KiB to 4 MiB), or `ERROR_maxBlockSize_invalid` for any other value.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub extern "C" fn LZ4F_getBlockSize(block_size_id: c_uint) -> usize {
    match block_size_id {
        0 => BLOCK_SIZES[0],
        4..=7 => BLOCK_SIZES[block_size_id as usize - 4],
        _ => error(ErrorCode::MaxBlockSizeInvalid),
    }
}

/// The length of the frame header at `src` (7 to 19; 8 for a skippable frame's magic and size),
/// from its first 5 bytes: `ERROR_srcPtr_wrong` for a null `src`,
/// `ERROR_frameHeader_incomplete` for fewer than 5 bytes, `ERROR_frameType_unknown` for a magic
/// number that is neither. The rest of the header is not checked.
///
/// # Safety
/// `src[..src_size]` readable (`src` may be null).
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4F_headerSize(src: *const c_void, src_size: usize) -> usize {
    if src.is_null() {
        return error(ErrorCode::SrcPtrWrong);
    }
    if src_size < MIN_SIZE_TO_KNOW_HEADER_LENGTH {
        return error(ErrorCode::FrameHeaderIncomplete);
    }
    let mut head = [0u8; MIN_SIZE_TO_KNOW_HEADER_LENGTH];
    // SAFETY: `src` is non-null (checked above) and the caller guarantees `src_size` readable
    // bytes, at least the 5 copied here (checked above); `head` is a local array apart from it.
    unsafe { std::ptr::copy_nonoverlapping(src.cast::<u8>(), head.as_mut_ptr(), head.len()) };
    let magic = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
    if magic & 0xFFFF_FFF0 == MAGIC_SKIPPABLE_START {
        return 8;
    }
    if magic != MAGIC {
        return error(ErrorCode::FrameTypeUnknown);
    }
    let flg = head[4];
    HEADER_SIZE_MIN + if flg & 0x08 != 0 { 8 } else { 0 } + if flg & 0x01 != 0 { 4 } else { 0 }
}

/// `LZ4F_AllocFunction` and `LZ4F_CallocFunction`: `size` bytes for the caller's `opaqueState`,
/// or null.
pub type LZ4F_AllocFunction = Option<unsafe extern "C" fn(*mut c_void, usize) -> *mut c_void>;
/// `LZ4F_FreeFunction`: gives back what an allocation function returned.
pub type LZ4F_FreeFunction = Option<unsafe extern "C" fn(*mut c_void, *mut c_void)>;

/// `LZ4F_CustomMem`: the functions the `_advanced` constructors allocate a context's own memory
/// with. A null allocation function is the C library's (`calloc`), a null free function `free`,
/// as liblz4; `customCalloc` is used when set, else `customAlloc` and zeroes.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct LZ4F_CustomMem {
    /// Allocates (used when `customCalloc` is null).
    pub customAlloc: LZ4F_AllocFunction,
    /// Allocates zeroed memory.
    pub customCalloc: LZ4F_AllocFunction,
    /// Frees.
    pub customFree: LZ4F_FreeFunction,
    /// Passed to each function.
    pub opaqueState: *mut c_void,
}

/// `size` zeroed bytes from `cmem` (liblz4's `LZ4F_calloc`), or null.
///
/// # Safety
/// `cmem`'s functions callable with its `opaqueState`.
unsafe fn cmem_calloc(cmem: &LZ4F_CustomMem, size: usize) -> *mut c_void {
    match (cmem.customCalloc, cmem.customAlloc) {
        // SAFETY: the caller's function, by the caller's contract.
        (Some(calloc), _) => unsafe { calloc(cmem.opaqueState, size) },
        // SAFETY: the C library's allocator takes any size.
        (None, None) => unsafe { libc::calloc(1, size) },
        (None, Some(alloc)) => {
            // SAFETY: the caller's function, by the caller's contract.
            let p = unsafe { alloc(cmem.opaqueState, size) };
            if !p.is_null() {
                // SAFETY: `p` is a fresh allocation of `size` bytes.
                unsafe { std::ptr::write_bytes(p.cast::<u8>(), 0, size) };
            }
            p
        }
    }
}

/// Gives `p` back to `cmem` (liblz4's `LZ4F_free`); null: nothing.
///
/// # Safety
/// `p` null or from [`cmem_calloc`] with the same `cmem`, not used afterwards.
unsafe fn cmem_free(cmem: &LZ4F_CustomMem, p: *mut c_void) {
    if p.is_null() {
        return;
    }
    match cmem.customFree {
        // SAFETY: the caller's function, by the caller's contract.
        Some(free) => unsafe { free(cmem.opaqueState, p) },
        // SAFETY: `p` came from the C library's allocator (the caller's contract).
        None => unsafe { libc::free(p) },
    }
}

/// Moves `value` into memory from `cmem`: null (dropping `value`) when the allocation fails or
/// is not aligned for `T`.
///
/// # Safety
/// `cmem`'s functions callable with its `opaqueState`.
pub(crate) unsafe fn new_in<T>(cmem: &LZ4F_CustomMem, value: T) -> *mut T {
    // SAFETY: the caller's contract.
    let p = unsafe { cmem_calloc(cmem, std::mem::size_of::<T>()) }.cast::<T>();
    if p.is_null() {
        return p;
    }
    if !p.is_aligned() {
        // SAFETY: just allocated by `cmem`, not used.
        unsafe { cmem_free(cmem, p.cast()) };
        return std::ptr::null_mut();
    }
    // SAFETY: non-null, aligned (both checked above), `size_of::<T>()` bytes allocated.
    unsafe { p.write(value) };
    p
}

/// Drops `*p` and gives its memory back to `cmem`.
///
/// # Safety
/// `p` from [`new_in`] with the same `cmem`, live, not used afterwards.
pub(crate) unsafe fn free_in<T>(cmem: &LZ4F_CustomMem, p: *mut T) {
    // SAFETY: a live value made by `new_in` (the caller's contract), dropped once.
    unsafe { std::ptr::drop_in_place(p) };
    // SAFETY: from `cmem_calloc` with this `cmem` (through `new_in`).
    unsafe { cmem_free(cmem, p.cast()) };
}

/// Where an object of the frame API was allocated: by Rust (the plain constructors), or by the
/// caller's functions (the `_advanced` ones).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Origin {
    Boxed,
    Custom(LZ4F_CustomMem),
}

/// An object for `origin` made from `value`: boxed, or in `cmem`'s memory (null when that fails).
///
/// # Safety
/// For [`Origin::Custom`], its functions callable with its `opaqueState`.
pub(crate) unsafe fn make<T>(origin: Origin, value: T) -> *mut T {
    match origin {
        Origin::Boxed => Box::into_raw(Box::new(value)),
        // SAFETY: the caller's contract.
        Origin::Custom(cmem) => unsafe { new_in(&cmem, value) },
    }
}

/// Frees an object from [`make`] with the `origin` it recorded (read before calling).
///
/// # Safety
/// `p` live, from [`make`] with `origin`, not used afterwards.
pub(crate) unsafe fn unmake<T>(origin: Origin, p: *mut T) {
    match origin {
        // SAFETY: from `Box::into_raw` in `make` (the caller's contract).
        Origin::Boxed => drop(unsafe { Box::from_raw(p) }),
        // SAFETY: from `new_in` with this `cmem` (the caller's contract).
        Origin::Custom(cmem) => unsafe { free_in(&cmem, p) },
    }
}
