//! liblz4's frame compression: `LZ4F_preferences_t`, the bounds (`LZ4F_compressFrameBound`,
//! `LZ4F_compressBound`), the one-shot `LZ4F_compressFrame` and the compression context
//! (`LZ4F_cctx`: `LZ4F_compressBegin`, `LZ4F_compressUpdate`, `LZ4F_flush`, `LZ4F_compressEnd`),
//! on lz4-simd's `FrameCompressor` (whose frames are LZ4F's byte for byte for the same calls).
//! The context writes liblz4's header itself and drops the compressor's (7 bytes: no content
//! size or dictionary ID is given to it), so that the header is written at `LZ4F_compressBegin`
//! with the flags exactly as liblz4 sets them; `stableSrc` is not used (see docs/c-abi.md).

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

/// `LZ4F_compressOptions_t`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct LZ4F_compressOptions_t {
    /// 1: earlier inputs stay in place until the frame ends (a speed hint here, see the docs).
    pub stableSrc: c_uint,
    /// Reserved, zero.
    pub reserved: [c_uint; 3],
}

/// `LZ4F_cctx`: a frame in progress, on lz4-simd's `FrameCompressor`.
pub struct LZ4F_cctx {
    /// Between `LZ4F_compressBegin` and `LZ4F_compressEnd` (liblz4's stage 1).
    started: bool,
    prefs: LZ4F_preferences_t,
    compressor: Option<FrameCompressor>,
    /// Bytes of the compressor's own header still to drop from its output (this context writes
    /// liblz4's header itself at `LZ4F_compressBegin`).
    skip: usize,
    /// Input buffered in a block not yet written (liblz4's `tmpInSize`).
    buffered: usize,
    block_len: usize,
    total: u64,
    /// The content checksum of the last frame (liblz4's digest, which `LZ4F_compressEnd` writes
    /// again when called outside a frame).
    last_checksum: [u8; 4],
}

/// The compressor's header without content size and dictionary ID: magic, FLG, BD, checksum.
const COMPRESSOR_HEADER: usize = 7;

impl LZ4F_cctx {
    /// Moves the compressor's pending output into `dst[*pos..]` (its header dropped): `false`
    /// when `dst` is too small for it.
    fn drain(&mut self, dst: &mut [u8], pos: &mut usize) -> bool {
        let Some(compressor) = self.compressor.as_mut() else {
            return true;
        };
        loop {
            let pending = compressor.pending_output();
            if pending.is_empty() {
                return true;
            }
            if self.skip > 0 {
                let n = self.skip.min(pending.len());
                compressor.consume_output(n);
                self.skip -= n;
                continue;
            }
            let n = pending.len().min(dst.len() - *pos);
            if n == 0 {
                return false;
            }
            dst[*pos..*pos + n].copy_from_slice(&pending[..n]);
            compressor.consume_output(n);
            *pos += n;
        }
    }

    fn flush(&mut self, dst: &mut [u8]) -> Result<usize, ErrorCode> {
        if self.buffered == 0 {
            return Ok(0);
        }
        if !self.started {
            return Err(ErrorCode::CompressionStateUninitialized);
        }
        if dst.len() < self.buffered + BLOCK_HEADER + CHECKSUM {
            return Err(ErrorCode::DstMaxSizeTooSmall);
        }
        let compressor = self
            .compressor
            .as_mut()
            .ok_or(ErrorCode::CompressionStateUninitialized)?;
        compressor.flush(&mut []).map_err(|_| ErrorCode::Generic)?;
        self.buffered = 0;
        let mut pos = 0;
        if !self.drain(dst, &mut pos) {
            return Err(ErrorCode::DstMaxSizeTooSmall);
        }
        Ok(pos)
    }
}

/// Creates a compression context into `*cctx_ptr`: 0, or `ERROR_parameter_null` for a null
/// `cctx_ptr`. `version` is not checked (as liblz4).
///
/// # Safety
/// `cctx_ptr` null or writable.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4F_createCompressionContext(
    cctx_ptr: *mut *mut LZ4F_cctx,
    version: c_uint,
) -> usize {
    let _ = version;
    if cctx_ptr.is_null() {
        return error(ErrorCode::ParameterNull);
    }
    let cctx = Box::into_raw(Box::new(LZ4F_cctx {
        started: false,
        prefs: LZ4F_preferences_t::default(),
        compressor: None,
        skip: 0,
        buffered: 0,
        block_len: 64 << 10,
        total: 0,
        last_checksum: [0; 4],
    }));
    // SAFETY: `cctx_ptr` is non-null (checked above) and writable by the caller's contract.
    unsafe { cctx_ptr.write(cctx) };
    0
}

/// Frees a context from [`LZ4F_createCompressionContext`] (null: nothing); returns 0.
///
/// # Safety
/// `cctx` null or a live context of this library, not used afterwards.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4F_freeCompressionContext(cctx: *mut LZ4F_cctx) -> usize {
    if !cctx.is_null() {
        // SAFETY: a live context made by `Box::into_raw` in `LZ4F_createCompressionContext`,
        // given back once by the caller's contract.
        drop(unsafe { Box::from_raw(cctx) });
    }
    0
}

/// The context behind `cctx` and the output `dst[..dst_capacity]`.
///
/// # Safety
/// `cctx` null or a live context used by no one else during the call; `dst[..dst_capacity]`
/// null or writable and used by no one else during the call.
unsafe fn parts<'a>(
    cctx: *mut LZ4F_cctx,
    dst: *mut c_void,
    dst_capacity: usize,
) -> Result<(&'a mut LZ4F_cctx, &'a mut [u8]), ErrorCode> {
    // SAFETY: null or a live context (the caller's contract).
    let cctx = unsafe { cctx.as_mut() }.ok_or(ErrorCode::ParameterNull)?;
    let dst: &mut [u8] = if dst_capacity == 0 {
        &mut []
    } else if dst.is_null() {
        return Err(ErrorCode::ParameterNull);
    } else {
        // SAFETY: non-null, `dst_capacity` writable bytes by the caller's contract.
        unsafe { std::slice::from_raw_parts_mut(dst.cast::<u8>(), dst_capacity) }
    };
    Ok((cctx, dst))
}

/// Starts a frame with `prefs` (null: the defaults) and writes its header into
/// `dst[..dst_capacity]` (at least 19 bytes): returns its size, or an error code.
///
/// # Safety
/// `cctx` a live context; `dst[..dst_capacity]` writable; `prefs` null or readable.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4F_compressBegin(
    cctx: *mut LZ4F_cctx,
    dst: *mut c_void,
    dst_capacity: usize,
    prefs: *const LZ4F_preferences_t,
) -> usize {
    if dst_capacity < MAX_HEADER {
        return error(ErrorCode::DstMaxSizeTooSmall);
    }
    let mut prefs = prefs_or_default(prefs);
    // SAFETY: the caller's contract.
    let (cctx, dst) = match unsafe { parts(cctx, dst, dst_capacity) } {
        Ok(parts) => parts,
        Err(e) => return error(e),
    };
    if prefs.frameInfo.blockSizeID == 0 {
        prefs.frameInfo.blockSizeID = 4;
    }
    let (Some(options), Some(block)) = (
        options(&prefs, None),
        block_size(prefs.frameInfo.blockSizeID),
    ) else {
        return error(ErrorCode::MaxBlockSizeInvalid);
    };
    let info = &prefs.frameInfo;
    let block_len = block.bytes();
    let compressor =
        FrameCompressor::with_options(options.dict_id(None)).auto_flush(prefs.autoFlush != 0);
    // liblz4's header: each flag's low bit, the content size and dictionary ID when non-zero.
    let mut header = [0u8; MAX_HEADER];
    header[..4].copy_from_slice(&0x184D_2204u32.to_le_bytes());
    header[4] = 0x40
        | ((info.blockMode & 1) as u8) << 5
        | ((info.blockChecksumFlag & 1) as u8) << 4
        | u8::from(info.contentSize > 0) << 3
        | ((info.contentChecksumFlag & 1) as u8) << 2
        | u8::from(info.dictID > 0);
    header[5] = ((info.blockSizeID & 7) as u8) << 4;
    let mut len = 6;
    if info.contentSize > 0 {
        header[len..len + 8].copy_from_slice(&info.contentSize.to_le_bytes());
        len += 8;
    }
    if info.dictID > 0 {
        header[len..len + 4].copy_from_slice(&info.dictID.to_le_bytes());
        len += 4;
    }
    header[len] = (xxhash_rust::xxh32::xxh32(&header[4..len], 0) >> 8) as u8;
    len += 1;
    dst[..len].copy_from_slice(&header[..len]);
    *cctx = LZ4F_cctx {
        started: true,
        prefs,
        compressor: Some(compressor),
        skip: COMPRESSOR_HEADER,
        buffered: 0,
        block_len,
        total: 0,
        last_checksum: cctx.last_checksum,
    };
    len
}

/// Compresses `src[..src_size]` into the frame: every whole block, and (with auto-flush) the
/// rest, is written into `dst[..dst_capacity]`, at least `LZ4F_compressBound(src_size, prefs)`
/// bytes; the rest waits in the context. Returns the bytes written, or an error code.
///
/// # Safety
/// `cctx` a live context; `dst[..dst_capacity]` writable, `src[..src_size]` readable, apart
/// from each other; `options` null or readable.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4F_compressUpdate(
    cctx: *mut LZ4F_cctx,
    dst: *mut c_void,
    dst_capacity: usize,
    src: *const c_void,
    src_size: usize,
    options: *const LZ4F_compressOptions_t,
) -> usize {
    let _ = options;
    // SAFETY: null or a live context (the caller's contract), only read here.
    let Some(state) = (unsafe { cctx.as_ref() }) else {
        return error(ErrorCode::ParameterNull);
    };
    if !state.started {
        return error(ErrorCode::CompressionStateUninitialized);
    }
    if dst_capacity < bound_internal(src_size, Some(&state.prefs), state.buffered) {
        return error(ErrorCode::DstMaxSizeTooSmall);
    }
    if src_size == 0 && dst.is_null() {
        // Nothing to write (liblz4 leaves the output untouched).
        return 0;
    }
    // SAFETY: the caller's contract.
    let (cctx, dst) = match unsafe { parts(cctx, dst, dst_capacity) } {
        Ok(parts) => parts,
        Err(e) => return error(e),
    };
    let mut rest: &[u8] = if src_size == 0 {
        &[]
    } else if src.is_null() {
        return error(ErrorCode::ParameterNull);
    } else {
        // SAFETY: non-null, `src_size` readable bytes by the caller's contract, apart from
        // `dst`.
        unsafe { std::slice::from_raw_parts(src.cast::<u8>(), src_size) }
    };
    let mut pos = 0;
    loop {
        let Some(compressor) = cctx.compressor.as_mut() else {
            return error(ErrorCode::CompressionStateUninitialized);
        };
        let Ok(progress) = compressor.compress(rest, &mut []) else {
            return error(ErrorCode::Generic);
        };
        rest = &rest[progress.consumed..];
        if !cctx.drain(dst, &mut pos) {
            return error(ErrorCode::DstMaxSizeTooSmall);
        }
        if progress.status == Status::NeedInput {
            break;
        }
    }
    cctx.buffered = if cctx.prefs.autoFlush != 0 {
        0
    } else {
        cctx.buffered.wrapping_add(src_size) % cctx.block_len
    };
    cctx.total = cctx.total.wrapping_add(src_size as u64);
    pos
}

/// Writes the block buffered in the context (if any) into `dst[..dst_capacity]` (its size, 4
/// and a block checksum at most): returns the bytes written (0 with nothing buffered), or an
/// error code.
///
/// # Safety
/// `cctx` a live context; `dst[..dst_capacity]` writable; `options` null or readable.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4F_flush(
    cctx: *mut LZ4F_cctx,
    dst: *mut c_void,
    dst_capacity: usize,
    options: *const LZ4F_compressOptions_t,
) -> usize {
    let _ = options;
    // SAFETY: null or a live context (the caller's contract), only read here.
    if unsafe { cctx.as_ref() }.is_some_and(|state| state.buffered == 0) {
        // Nothing to write (liblz4 leaves the output untouched).
        return 0;
    }
    // SAFETY: the caller's contract.
    let (cctx, dst) = match unsafe { parts(cctx, dst, dst_capacity) } {
        Ok(parts) => parts,
        Err(e) => return error(e),
    };
    cctx.flush(dst).unwrap_or_else(error)
}

/// Ends the frame: the buffered block, the end mark and the content checksum go into
/// `dst[..dst_capacity]`. Returns the bytes written, or an error code
/// (`ERROR_frameSize_wrong` when the content size declared at `LZ4F_compressBegin` is not the
/// input's). The context can then begin another frame.
///
/// # Safety
/// `cctx` a live context; `dst[..dst_capacity]` writable; `options` null or readable.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4F_compressEnd(
    cctx: *mut LZ4F_cctx,
    dst: *mut c_void,
    dst_capacity: usize,
    options: *const LZ4F_compressOptions_t,
) -> usize {
    let _ = options;
    // SAFETY: the caller's contract.
    let (cctx, dst) = match unsafe { parts(cctx, dst, dst_capacity) } {
        Ok(parts) => parts,
        Err(e) => return error(e),
    };
    let mut pos = match cctx.flush(dst) {
        Ok(n) => n,
        Err(e) => return error(e),
    };
    let room = dst.len() - pos;
    if room < BLOCK_HEADER
        || (cctx.prefs.frameInfo.contentChecksumFlag == 1 && room < BLOCK_HEADER + CHECKSUM)
    {
        return error(ErrorCode::DstMaxSizeTooSmall);
    }
    let with_checksum = cctx.prefs.frameInfo.contentChecksumFlag == 1;
    match cctx.compressor.as_mut() {
        Some(compressor) if cctx.started => {
            if compressor.finish(&mut []).is_err() {
                return error(ErrorCode::Generic);
            }
            if !cctx.drain(dst, &mut pos) {
                return error(ErrorCode::DstMaxSizeTooSmall);
            }
            if with_checksum && pos >= CHECKSUM {
                cctx.last_checksum
                    .copy_from_slice(&dst[pos - CHECKSUM..pos]);
            }
        }
        // Outside a frame, liblz4 writes an end mark (and the last frame's checksum) anyway.
        _ => {
            dst[pos..pos + BLOCK_HEADER].fill(0);
            pos += BLOCK_HEADER;
            if with_checksum {
                dst[pos..pos + CHECKSUM].copy_from_slice(&cctx.last_checksum);
                pos += CHECKSUM;
            }
        }
    }
    cctx.started = false;
    let declared = cctx.prefs.frameInfo.contentSize;
    if declared != 0 && declared != cctx.total {
        return error(ErrorCode::FrameSizeWrong);
    }
    pos
}
