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
