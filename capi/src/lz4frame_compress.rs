//! liblz4's frame compression: `LZ4F_preferences_t`, the bounds (`LZ4F_compressFrameBound`,
//! `LZ4F_compressBound`), the one-shot `LZ4F_compressFrame` and the compression context
//! (`LZ4F_cctx`: `LZ4F_compressBegin`, `LZ4F_compressUpdate`, `LZ4F_flush`, `LZ4F_compressEnd`),
//! on lz4-simd's `FrameCompressor` (whose frames are LZ4F's byte for byte for the same calls).
//! The context writes liblz4's header itself and drops the compressor's (7 bytes: no content
//! size or dictionary ID is given to it), so that the header is written at `LZ4F_compressBegin`
//! with the flags exactly as liblz4 sets them; `stableSrc` is not used (see docs/c-abi.md).

use std::os::raw::{c_int, c_uint, c_void};

use lz4_simd::block::Dictionary;
use lz4_simd::frame::{BlockMode, BlockSize, FrameCompressor, FrameOptions, Status};

use crate::lz4frame::{
    error, make, unmake, ErrorCode, LZ4F_CustomMem, LZ4F_getBlockSize, Origin, BLOCK_HEADER,
    CHECKSUM, MAX_HEADER,
};
use crate::lz4frame_decompress::LZ4F_frameInfo_t;

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

/// The preferences a one-shot frame of `src_size` bytes is written with, as liblz4's: the
/// content size when asked for (any non-zero `contentSize`), the smallest block size that holds
/// the input (up to the one asked for), independent blocks when there is one, auto-flush.
fn frame_prefs(mut prefs: LZ4F_preferences_t, src_size: usize) -> LZ4F_preferences_t {
    if prefs.frameInfo.contentSize != 0 {
        prefs.frameInfo.contentSize = src_size as u64;
    }
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
    if src_size <= LZ4F_getBlockSize(prefs.frameInfo.blockSizeID) {
        prefs.frameInfo.blockMode = 1;
    }
    prefs
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
    let prefs = frame_prefs(prefs_or_default(prefs), src_size);
    if block_size(prefs.frameInfo.blockSizeID).is_none() {
        return error(ErrorCode::MaxBlockSizeInvalid);
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
    origin: Origin,
    /// The last update was `LZ4F_uncompressedUpdate` (liblz4's `blockCompressMode`, kept from
    /// frame to frame): what is buffered is in `raw` and is written stored.
    raw_mode: bool,
    /// The input buffered in uncompressed mode, or before the first compressed block while
    /// `first_stored` (less than a block).
    raw: Vec<u8>,
    /// The frame's first compressed block is stored when under [`FIRST_STORED_LIMIT`] bytes:
    /// liblz4's `LZ4F_compressBegin_usingDict` at the fast levels with independent blocks and a
    /// dictionary under 8 bytes leaves its stream 64 KiB in (`LZ4_loadDict`) with no table
    /// type, and its one-block compressor then uses 16-bit indices from there, which reach no
    /// match: the block does not shrink.
    first_stored: bool,
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

/// The blocks liblz4's fast one-block compressor handles with 16-bit indices: below 64 KiB + 11
/// bytes (`LZ4_64Klimit`).
const FIRST_STORED_LIMIT: usize = (64 << 10) + 11;

/// The compressor's header without content size and dictionary ID: magic, FLG, BD, checksum.
const COMPRESSOR_HEADER: usize = 7;

impl LZ4F_cctx {
    fn new(origin: Origin) -> Self {
        Self {
            origin,
            raw_mode: false,
            raw: Vec::new(),
            first_stored: false,
            started: false,
            prefs: LZ4F_preferences_t::default(),
            compressor: None,
            skip: 0,
            buffered: 0,
            block_len: 64 << 10,
            total: 0,
            last_checksum: [0; 4],
        }
    }

    /// Writes `content` as a stored block into `dst[*pos..]`.
    fn store(&mut self, content: &[u8], dst: &mut [u8], pos: &mut usize) -> Result<(), ErrorCode> {
        let compressor = self
            .compressor
            .as_mut()
            .ok_or(ErrorCode::CompressionStateUninitialized)?;
        compressor
            .store_block(content)
            .map_err(|_| ErrorCode::Generic)?;
        if self.drain(dst, pos) {
            Ok(())
        } else {
            Err(ErrorCode::DstMaxSizeTooSmall)
        }
    }

    /// Writes the frame's first compressed block, `content`, into `dst[*pos..]` while
    /// `first_stored`: stored under [`FIRST_STORED_LIMIT`] bytes, else compressed.
    fn first_block(
        &mut self,
        content: &[u8],
        dst: &mut [u8],
        pos: &mut usize,
    ) -> Result<(), ErrorCode> {
        self.first_stored = false;
        if content.len() < FIRST_STORED_LIMIT {
            return self.store(content, dst, pos);
        }
        let mut rest = content;
        loop {
            let compressor = self
                .compressor
                .as_mut()
                .ok_or(ErrorCode::CompressionStateUninitialized)?;
            let progress = compressor
                .compress(rest, &mut [])
                .map_err(|_| ErrorCode::Generic)?;
            rest = &rest[progress.consumed..];
            if !self.drain(dst, pos) {
                return Err(ErrorCode::DstMaxSizeTooSmall);
            }
            if progress.status == Status::NeedInput {
                break;
            }
        }
        let compressor = self
            .compressor
            .as_mut()
            .ok_or(ErrorCode::CompressionStateUninitialized)?;
        compressor.flush(&mut []).map_err(|_| ErrorCode::Generic)?;
        if self.drain(dst, pos) {
            Ok(())
        } else {
            Err(ErrorCode::DstMaxSizeTooSmall)
        }
    }

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
        if self.raw_mode || self.first_stored {
            let raw = std::mem::take(&mut self.raw);
            let mut pos = 0;
            let written = if self.raw_mode {
                self.store(&raw, dst, &mut pos)
            } else {
                self.first_block(&raw, dst, &mut pos)
            };
            self.raw = raw;
            self.raw.clear();
            self.buffered = 0;
            return written.map(|()| pos);
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

/// The room an update of `src_size` bytes needs: liblz4's bound of the input with what is
/// buffered; and when the update changes between compressed and stored blocks with data
/// buffered, also that data's block of its own (at most its size, a block header and a
/// checksum) before the bound of the input alone. (liblz4 1.10 checks its bound only, and writes past
/// the output when the two blocks do not fit in it; here the update fails first, changing
/// nothing.)
fn update_room(state: &LZ4F_cctx, src_size: usize, stored: bool) -> usize {
    let bound = bound_internal(src_size, Some(&state.prefs), state.buffered);
    if state.raw_mode != stored && state.buffered > 0 {
        let own_block = state.buffered + BLOCK_HEADER + CHECKSUM;
        let input_alone = bound_internal(src_size, Some(&state.prefs), 0);
        bound.max(own_block.saturating_add(input_alone))
    } else {
        bound
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
    // SAFETY: a boxed context (no caller's function).
    let cctx = unsafe { make(Origin::Boxed, LZ4F_cctx::new(Origin::Boxed)) };
    // SAFETY: `cctx_ptr` is non-null (checked above) and writable by the caller's contract.
    unsafe { cctx_ptr.write(cctx) };
    0
}

/// Creates a compression context whose own memory (the context itself) comes from `cmem`'s
/// functions, the C library's where they are null; null when that allocation fails. The
/// buffers and block compressors a frame needs come from the process's allocator (see
/// docs/c-abi.md). `version` is not checked (as liblz4).
///
/// # Safety
/// `cmem`'s functions callable with its `opaqueState` until the context is freed.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4F_createCompressionContext_advanced(
    cmem: LZ4F_CustomMem,
    version: c_uint,
) -> *mut LZ4F_cctx {
    let _ = version;
    let origin = Origin::Custom(cmem);
    // SAFETY: the caller's contract.
    unsafe { make(origin, LZ4F_cctx::new(origin)) }
}

/// Frees a context from [`LZ4F_createCompressionContext`] or
/// [`LZ4F_createCompressionContext_advanced`] (null: nothing); returns 0.
///
/// # Safety
/// `cctx` null or a live context of this library, not used afterwards.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4F_freeCompressionContext(cctx: *mut LZ4F_cctx) -> usize {
    // SAFETY: null or a live context (the caller's contract).
    if let Some(origin) = unsafe { cctx.as_ref() }.map(|c| c.origin) {
        // SAFETY: made by `make` with the origin it recorded, given back once by the caller's
        // contract.
        unsafe { unmake(origin, cctx) };
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

/// The dictionary a frame starts with.
#[derive(Clone, Copy)]
enum BeginDict<'a> {
    None,
    /// `LZ4F_compressBegin_usingCDict`: attached to each independent block or to the first
    /// linked one.
    Prepared(&'a Dictionary),
    /// `LZ4F_compressBegin_usingDict`: loaded once into the context's stream.
    Once(&'a [u8]),
}

/// Starts a frame with `prefs` (null: the defaults) and `dict`, and writes its header into
/// `dst[..dst_capacity]`: returns its size, or an error code.
///
/// # Safety
/// `cctx` null or a live context; `dst[..dst_capacity]` writable; `prefs` null or readable.
unsafe fn begin(
    cctx: *mut LZ4F_cctx,
    dst: *mut c_void,
    dst_capacity: usize,
    prefs: *const LZ4F_preferences_t,
    dict: BeginDict<'_>,
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
    let options = options.dict_id(None);
    let hc = prefs.compressionLevel >= HC_LEVEL_MIN;
    let compressor = match dict {
        BeginDict::None => FrameCompressor::with_options(options),
        BeginDict::Prepared(dict) => FrameCompressor::with_prepared_dictionary(options, dict),
        BeginDict::Once(dict) if dict.len() > c_int::MAX as usize => {
            return error(ErrorCode::ParameterInvalid);
        }
        // liblz4 loads the dictionary into the context's stream once: linked blocks start from
        // it (`LZ4_loadDict` at the fast levels, `LZ4_loadDictHC` at the HC ones), and each
        // independent block resets the stream without it. `LZ4_loadDictHC` starts from a new
        // stream, which does not favour decoding speed, and so neither does the whole frame.
        BeginDict::Once(dict) => {
            let options = if hc {
                options.favor_dec_speed(false)
            } else {
                options
            };
            FrameCompressor::with_loaded_dictionary(options, dict)
        }
    }
    .auto_flush(prefs.autoFlush != 0);
    let info = &prefs.frameInfo;
    let block_len = block.bytes();
    // liblz4's header: each flag's low bit, the content size and dictionary ID when non-zero.
    let mut header = [0u8; MAX_HEADER];
    header[..4].copy_from_slice(&crate::lz4frame::MAGIC.to_le_bytes());
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
    cctx.started = true;
    cctx.prefs = prefs;
    cctx.compressor = Some(compressor);
    cctx.skip = COMPRESSOR_HEADER;
    cctx.buffered = 0;
    cctx.raw.clear();
    cctx.first_stored =
        matches!(dict, BeginDict::Once(d) if d.len() < 8) && !hc && prefs.frameInfo.blockMode != 0;
    cctx.block_len = block_len;
    cctx.total = 0;
    len
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
    // SAFETY: the caller's contract.
    unsafe { begin(cctx, dst, dst_capacity, prefs, BeginDict::None) }
}

/// [`LZ4F_compressBegin`] with the dictionary `dict[..dict_size]` (its last 64 KiB; null: none),
/// as liblz4 1.10: loaded once into the context's stream, so linked blocks start from it and
/// independent blocks do not use it (see docs/c-abi.md). `dict` must stay in place until the
/// frame ends.
///
/// # Safety
/// `cctx` a live context; `dst[..dst_capacity]` writable; `dict[..dict_size]` null or readable
/// until the frame ends; `prefs` null or readable.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4F_compressBegin_usingDict(
    cctx: *mut LZ4F_cctx,
    dst: *mut c_void,
    dst_capacity: usize,
    dict: *const c_void,
    dict_size: usize,
    prefs: *const LZ4F_preferences_t,
) -> usize {
    if dict.is_null() {
        // SAFETY: the caller's contract.
        return unsafe { begin(cctx, dst, dst_capacity, prefs, BeginDict::None) };
    }
    if dict_size > c_int::MAX as usize {
        // liblz4 checks this after the output's room.
        if dst_capacity < MAX_HEADER {
            return error(ErrorCode::DstMaxSizeTooSmall);
        }
        return error(ErrorCode::ParameterInvalid);
    }
    // SAFETY: non-null, `dict_size` readable bytes by the caller's contract (the bytes are
    // copied by the compressor before this returns).
    let dict = unsafe { std::slice::from_raw_parts(dict.cast::<u8>(), dict_size) };
    // SAFETY: the caller's contract.
    unsafe { begin(cctx, dst, dst_capacity, prefs, BeginDict::Once(dict)) }
}

/// `LZ4F_CDict`: a dictionary prepared once (its last 64 KiB, as `LZ4_loadDictSlow` and
/// `LZ4_loadDictHC` prepare them) for any number of frames, read-only once made.
pub struct LZ4F_CDict {
    origin: Origin,
    dict: Dictionary,
}

/// The bytes `dict[..dict_size]` (null: none, when `dict_size` is 0), or `None`.
///
/// # Safety
/// `dict[..dict_size]` null or readable.
unsafe fn dict_bytes<'a>(dict: *const c_void, dict_size: usize) -> Option<&'a [u8]> {
    if dict_size == 0 {
        Some(&[])
    } else if dict.is_null() {
        None
    } else {
        // SAFETY: non-null, `dict_size` readable bytes by the caller's contract.
        Some(unsafe { std::slice::from_raw_parts(dict.cast::<u8>(), dict_size) })
    }
}

/// Prepares the dictionary `dict[..dict_size]` (its last 64 KiB are copied: `dict` may go
/// once this returns) for [`LZ4F_compressFrame_usingCDict`] and
/// [`LZ4F_compressBegin_usingCDict`]. Null for a null `dict` of some size.
///
/// # Safety
/// `dict[..dict_size]` null or readable.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4F_createCDict(
    dict: *const c_void,
    dict_size: usize,
) -> *mut LZ4F_CDict {
    // SAFETY: the caller's contract.
    let Some(bytes) = (unsafe { dict_bytes(dict, dict_size) }) else {
        return std::ptr::null_mut();
    };
    let cdict = LZ4F_CDict {
        origin: Origin::Boxed,
        dict: Dictionary::new_dense(bytes),
    };
    // SAFETY: boxed (no caller's function).
    unsafe { make(Origin::Boxed, cdict) }
}

/// [`LZ4F_createCDict`] whose own memory (the object itself) comes from `cmem`'s functions
/// (the C library's where they are null); null when that allocation fails. The prepared
/// table and bytes come from the process's allocator (see docs/c-abi.md).
///
/// # Safety
/// `dict[..dict_size]` null or readable; `cmem`'s functions callable with its `opaqueState`
/// until the dictionary is freed.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4F_createCDict_advanced(
    cmem: LZ4F_CustomMem,
    dict: *const c_void,
    dict_size: usize,
) -> *mut LZ4F_CDict {
    // SAFETY: the caller's contract.
    let Some(bytes) = (unsafe { dict_bytes(dict, dict_size) }) else {
        return std::ptr::null_mut();
    };
    let origin = Origin::Custom(cmem);
    let cdict = LZ4F_CDict {
        origin,
        dict: Dictionary::new_dense(bytes),
    };
    // SAFETY: the caller's contract.
    unsafe { make(origin, cdict) }
}

/// Frees a dictionary from [`LZ4F_createCDict`] or [`LZ4F_createCDict_advanced`] (null:
/// nothing).
///
/// # Safety
/// `cdict` null or a live dictionary of this library, used by no frame afterwards.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4F_freeCDict(cdict: *mut LZ4F_CDict) {
    // SAFETY: null or live (the caller's contract).
    if let Some(origin) = unsafe { cdict.as_ref() }.map(|c| c.origin) {
        // SAFETY: made by `make` with the origin it recorded, given back once.
        unsafe { unmake(origin, cdict) };
    }
}

/// [`LZ4F_compressBegin`] with the prepared dictionary `cdict` (null: none) for the whole
/// frame: each independent block, or the first of linked blocks, may reference it.
///
/// # Safety
/// `cctx` a live context; `dst[..dst_capacity]` writable; `cdict` null or live; `prefs` null
/// or readable.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4F_compressBegin_usingCDict(
    cctx: *mut LZ4F_cctx,
    dst: *mut c_void,
    dst_capacity: usize,
    cdict: *const LZ4F_CDict,
    prefs: *const LZ4F_preferences_t,
) -> usize {
    // SAFETY: null or live (the caller's contract); the compressor copies what it needs.
    let dict = match unsafe { cdict.as_ref() } {
        Some(cdict) => BeginDict::Prepared(&cdict.dict),
        None => BeginDict::None,
    };
    // SAFETY: the caller's contract.
    unsafe { begin(cctx, dst, dst_capacity, prefs, dict) }
}

/// [`LZ4F_compressFrame`] on the context `cctx` with the prepared dictionary `cdict` (null:
/// none): one frame of `src[..src_size]` into `dst[..dst_capacity]` (at least
/// `LZ4F_compressFrameBound`). Returns the frame's size, or an error code.
///
/// # Safety
/// `cctx` a live context; `dst[..dst_capacity]` writable, `src[..src_size]` readable, apart
/// from each other; `cdict` null or live; `prefs` null or readable.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4F_compressFrame_usingCDict(
    cctx: *mut LZ4F_cctx,
    dst: *mut c_void,
    dst_capacity: usize,
    src: *const c_void,
    src_size: usize,
    cdict: *const LZ4F_CDict,
    prefs: *const LZ4F_preferences_t,
) -> usize {
    let prefs = frame_prefs(prefs_or_default(prefs), src_size);
    // SAFETY: a pure function of its arguments (`prefs` is a local).
    if dst_capacity < unsafe { LZ4F_compressFrameBound(src_size, &prefs) } {
        return error(ErrorCode::DstMaxSizeTooSmall);
    }
    let options = LZ4F_compressOptions_t {
        stableSrc: 1,
        ..Default::default()
    };
    let mut written = 0;
    // SAFETY: the caller's contract; each call writes within `dst[..dst_capacity]`, the next
    // starting after what the previous wrote (`written` stays within it: each result is at
    // most the room it was given).
    unsafe {
        let header = LZ4F_compressBegin_usingCDict(cctx, dst, dst_capacity, cdict, &prefs);
        if crate::lz4frame::LZ4F_isError(header) != 0 {
            return header;
        }
        written += header;
        for step in 0..2 {
            let out = dst.cast::<u8>().add(written).cast::<c_void>();
            let room = dst_capacity - written;
            let n = if step == 0 {
                LZ4F_compressUpdate(cctx, out, room, src, src_size, &options)
            } else {
                LZ4F_compressEnd(cctx, out, room, &options)
            };
            if crate::lz4frame::LZ4F_isError(n) != 0 {
                return n;
            }
            written += n;
        }
    }
    written
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
    if dst_capacity < update_room(state, src_size, false) {
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
    if cctx.raw_mode {
        // The data buffered by `LZ4F_uncompressedUpdate` is written first, stored.
        match cctx.flush(dst) {
            Ok(n) => pos = n,
            Err(e) => return error(e),
        }
        cctx.raw_mode = false;
    }
    if cctx.first_stored {
        // The first block is gathered here, to be written stored (see `first_stored`).
        let need = cctx.block_len - cctx.raw.len();
        if rest.len() < need && cctx.prefs.autoFlush == 0 {
            cctx.raw.extend_from_slice(rest);
            cctx.buffered = cctx.raw.len();
            cctx.total = cctx.total.wrapping_add(src_size as u64);
            return pos;
        }
        let take = need.min(rest.len());
        let mut first = std::mem::take(&mut cctx.raw);
        first.extend_from_slice(&rest[..take]);
        rest = &rest[take..];
        let written = cctx.first_block(&first, dst, &mut pos);
        first.clear();
        cctx.raw = first;
        if let Err(e) = written {
            return error(e);
        }
    }
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

/// [`LZ4F_compressUpdate`] that stores `src[..src_size]` in blocks stored raw (uncompressed):
/// whole blocks, and with auto-flush the rest, are written into `dst[..dst_capacity]`, which
/// must hold `LZ4F_compressBound(src_size, prefs)` bytes and at least `src_size`; the rest
/// waits in the context. What a compressing update left buffered is written first (compressed),
/// as what this one leaves is by the next compressing update (stored). Only for independent
/// blocks: with linked blocks it is `ERROR_blockMode_invalid` (liblz4 does not check, and the
/// linked blocks after it could reference the wrong bytes). Returns the bytes written, or an
/// error code.
///
/// # Safety
/// `cctx` a live context; `dst[..dst_capacity]` writable, `src[..src_size]` readable, apart
/// from each other; `options` null or readable.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4F_uncompressedUpdate(
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
    if dst_capacity < update_room(state, src_size, true) || dst_capacity < src_size {
        return error(ErrorCode::DstMaxSizeTooSmall);
    }
    if state.prefs.frameInfo.blockMode == 0 {
        return error(ErrorCode::BlockModeInvalid);
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
    if !cctx.raw_mode {
        match cctx.flush(dst) {
            Ok(n) => pos = n,
            Err(e) => return error(e),
        }
        cctx.raw_mode = true;
    }
    let block = cctx.block_len;
    let mut raw = std::mem::take(&mut cctx.raw);
    let result = (|| {
        if !raw.is_empty() {
            let take = (block - raw.len()).min(rest.len());
            raw.extend_from_slice(&rest[..take]);
            rest = &rest[take..];
            if raw.len() == block {
                cctx.store(&raw, &mut dst[..], &mut pos)?;
                raw.clear();
            }
        }
        while rest.len() >= block {
            cctx.store(&rest[..block], &mut dst[..], &mut pos)?;
            rest = &rest[block..];
        }
        if cctx.prefs.autoFlush != 0 && !rest.is_empty() {
            cctx.store(rest, &mut dst[..], &mut pos)?;
            rest = &[];
        }
        raw.extend_from_slice(rest);
        Ok::<(), ErrorCode>(())
    })();
    cctx.buffered = raw.len();
    cctx.raw = raw;
    if let Err(e) = result {
        return error(e);
    }
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
