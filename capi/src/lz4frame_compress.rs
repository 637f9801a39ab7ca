//! liblz4's frame compression: `LZ4F_preferences_t`, the bounds (`LZ4F_compressFrameBound`,
//! `LZ4F_compressBound`) and the one-shot `LZ4F_compressFrame`, on lz4-simd's
//! `FrameCompressor` (whose frames are LZ4F's byte for byte for the same calls).

use std::os::raw::{c_int, c_uint, c_void};

use lz4_simd::frame::{BlockMode, BlockSize, FrameCompressor, FrameOptions, Status};

use crate::lz4frame::{error, ErrorCode, LZ4F_getBlockSize};
use crate::lz4frame_decompress::LZ4F_frameInfo_t;

const MAX_HEADER: usize = 19;
const BLOCK_HEADER: usize = 4;
const CHECKSUM: usize = 4;
/// `LZ4HC_CLEVEL_MIN`: levels from here on use LZ4 HC.
const HC_LEVEL_MIN: c_int = 2;
const HC_LEVEL_MAX: c_int = 12;

/// `LZ4F_preferences_t`, with liblz4's layout (56 bytes).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LZ4F_preferences_t {
    /// The frame's parameters (`frameType` is ignored).
    pub frameInfo: LZ4F_frameInfo_t,
    /// Below 2 the fast compressor (negative values accelerate: acceleration `1 - level`), from
    /// 2 LZ4 HC at that level (above 12 counts as 12).
    pub compressionLevel: c_int,
    /// 1: every update ends its last block.
    pub autoFlush: c_uint,
    /// 1: HC levels 10 and above favour decoding speed.
    pub favorDecSpeed: c_uint,
    /// Reserved, zero.
    pub reserved: [c_uint; 3],
}

/// liblz4's preferences for a null pointer: all zero.
fn prefs_or_default(prefs: *const LZ4F_preferences_t) -> LZ4F_preferences_t {
    // SAFETY: null or readable by the caller's contract.
    unsafe { prefs.as_ref() }.copied().unwrap_or_default()
}

/// liblz4's bound of the output of `src_size` bytes of input with `already_buffered` bytes
/// buffered before them, in its arithmetic (wrapping, as its `size_t` and `unsigned`).
fn bound_internal(
    src_size: usize,
    prefs: Option<&LZ4F_preferences_t>,
    already_buffered: usize,
) -> usize {
    let worst = LZ4F_preferences_t {
        frameInfo: LZ4F_frameInfo_t {
            blockSizeID: 4,
            contentChecksumFlag: 1,
            blockChecksumFlag: 1,
            ..Default::default()
        },
        ..Default::default()
    };
    let prefs = prefs.unwrap_or(&worst);
    let flush = prefs.autoFlush != 0 || src_size == 0;
    let block_size = LZ4F_getBlockSize(prefs.frameInfo.blockSizeID);
    let buffered = already_buffered.min(block_size.wrapping_sub(1));
    let max_src = src_size.wrapping_add(buffered);
    let full_blocks = (max_src / block_size) as c_uint as usize;
    let partial = max_src & block_size.wrapping_sub(1);
    let last = if flush { partial } else { 0 };
    let blocks = (full_blocks as c_uint).wrapping_add(c_uint::from(last > 0)) as usize;
    let block_crc = CHECKSUM.wrapping_mul(prefs.frameInfo.blockChecksumFlag as usize);
    let end = BLOCK_HEADER
        .wrapping_add(CHECKSUM.wrapping_mul(prefs.frameInfo.contentChecksumFlag as usize));
    (BLOCK_HEADER.wrapping_add(block_crc))
        .wrapping_mul(blocks)
        .wrapping_add(block_size.wrapping_mul(full_blocks))
        .wrapping_add(last)
        .wrapping_add(end)
}

/// The largest frame `LZ4F_compressFrame` writes for `src_size` bytes with `prefs` (null: the
/// defaults).
///
/// # Safety
/// `prefs` null or readable.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4F_compressFrameBound(
    src_size: usize,
    prefs: *const LZ4F_preferences_t,
) -> usize {
    let mut prefs = prefs_or_default(prefs);
    prefs.autoFlush = 1;
    MAX_HEADER.wrapping_add(bound_internal(src_size, Some(&prefs), 0))
}

/// The most `LZ4F_compressUpdate` (plus the `LZ4F_flush` or `LZ4F_compressEnd` after it) writes
/// for `src_size` bytes, whatever is buffered (null `prefs`: the worst case, both checksums);
/// with `src_size` 0, the most `LZ4F_flush` and `LZ4F_compressEnd` write.
///
/// # Safety
/// `prefs` null or readable.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4F_compressBound(
    src_size: usize,
    prefs: *const LZ4F_preferences_t,
) -> usize {
    // SAFETY: null or readable by the caller's contract.
    let prefs = unsafe { prefs.as_ref() };
    match prefs {
        Some(p) if p.autoFlush != 0 => bound_internal(src_size, Some(p), 0),
        _ => bound_internal(src_size, prefs, usize::MAX),
    }
}

/// The block size of a valid `blockSizeID` (0 is 64 KiB), `None` for any other.
fn block_size(id: c_uint) -> Option<BlockSize> {
    match id {
        0 => Some(BlockSize::Max64KB),
        _ => BlockSize::from_code(u8::try_from(id).ok()?),
    }
}

/// lz4-simd's frame options for LZ4F's preferences (`None` for an invalid block size ID),
/// with `content_size` declared when given.
pub(crate) fn options(
    prefs: &LZ4F_preferences_t,
    content_size: Option<u64>,
) -> Option<FrameOptions> {
    let info = &prefs.frameInfo;
    let mut options = FrameOptions::new()
        .block_size(block_size(info.blockSizeID)?)
        .block_mode(if info.blockMode == 0 {
            BlockMode::Linked
        } else {
            BlockMode::Independent
        })
        .content_checksum(info.contentChecksumFlag == 1)
        .block_checksum(info.blockChecksumFlag != 0)
        .declared_content_size(content_size)
        .dict_id((info.dictID != 0).then_some(info.dictID));
    let level = prefs.compressionLevel;
    if level < HC_LEVEL_MIN {
        let acceleration = if level < 0 {
            (1 - i64::from(level)).min(i64::from(u32::MAX)) as u32
        } else {
            1
        };
        options = options.acceleration(acceleration);
    } else {
        options = options
            .hc_level(Some(level.min(HC_LEVEL_MAX) as u8))
            .favor_dec_speed(prefs.favorDecSpeed != 0);
    }
    Some(options)
}

/// Compresses `src[..src_size]` into one frame in `dst[..dst_capacity]`, as liblz4: the
/// smallest block size that holds the input (up to the one asked for), independent blocks when
/// there is one, the content size when asked for (any non-zero `contentSize`). Returns the
/// frame's size, or an error code (`ERROR_dstMaxSize_tooSmall` below
/// `LZ4F_compressFrameBound`).
///
/// # Safety
/// `dst[..dst_capacity]` writable, `src[..src_size]` readable, apart from each other; `prefs`
/// null or readable.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4F_compressFrame(
    dst: *mut c_void,
    dst_capacity: usize,
    src: *const c_void,
    src_size: usize,
    prefs: *const LZ4F_preferences_t,
) -> usize {
    let mut prefs = prefs_or_default(prefs);
    if prefs.frameInfo.contentSize != 0 {
        prefs.frameInfo.contentSize = src_size as u64;
    }
    // The smallest block size that holds the input, up to the one asked for.
    let mut id = 4;
    let mut size = 64usize << 10;
    while prefs.frameInfo.blockSizeID > id && src_size > size {
        id += 1;
        size <<= 2;
    }
    if prefs.frameInfo.blockSizeID > id {
        prefs.frameInfo.blockSizeID = id;
    }
    prefs.autoFlush = 1;
    let Some(max_block) = block_size(prefs.frameInfo.blockSizeID) else {
        return error(ErrorCode::MaxBlockSizeInvalid);
    };
    if src_size <= max_block.bytes() {
        prefs.frameInfo.blockMode = 1;
    }
    // SAFETY: a pure function of its arguments (`prefs` is a local).
    if dst_capacity < unsafe { LZ4F_compressFrameBound(src_size, &prefs) } {
        return error(ErrorCode::DstMaxSizeTooSmall);
    }
    if (src.is_null() && src_size > 0) || dst.is_null() {
        return error(ErrorCode::ParameterNull);
    }
    let content_size = (prefs.frameInfo.contentSize != 0).then_some(src_size as u64);
    let Some(options) = options(&prefs, content_size) else {
        return error(ErrorCode::MaxBlockSizeInvalid);
    };
    let input: &[u8] = if src_size == 0 {
        &[]
    } else {
        // SAFETY: non-null (checked above), `src_size` readable bytes by the caller's contract,
        // not written during the call (apart from the output).
        unsafe { std::slice::from_raw_parts(src.cast::<u8>(), src_size) }
    };
    // SAFETY: non-null (checked above), `dst_capacity` writable bytes by the caller's contract,
    // used by no one else during the call.
    let output = unsafe { std::slice::from_raw_parts_mut(dst.cast::<u8>(), dst_capacity) };
    let mut compressor = FrameCompressor::with_options(options).auto_flush(true);
    let Ok(taken) = compressor.compress(input, output) else {
        return error(ErrorCode::Generic);
    };
    let mut written = taken.produced;
    if taken.consumed != input.len() {
        return error(ErrorCode::DstMaxSizeTooSmall);
    }
    match compressor.finish(&mut output[written..]) {
        Ok(end) if end.status == Status::FrameEnd => {
            written += end.produced;
            written
        }
        Ok(_) => error(ErrorCode::DstMaxSizeTooSmall),
        Err(_) => error(ErrorCode::Generic),
    }
}
