//! liblz4's frame decompression (`LZ4F_dctx`): contexts, `LZ4F_getFrameInfo`,
//! `LZ4F_decompress` and `LZ4F_decompress_usingDict`.
//!
//! The context is a heap object this library owns (`Box`), a state machine with liblz4's stages,
//! so that every call consumes, produces and hints what liblz4's does: input is taken a unit at
//! a time (a header, a block size, a block, a checksum), from the caller's buffer when the unit
//! is whole there and gathered in the context otherwise; a block is decoded straight into the
//! output when it has room for a whole block, else into the context and handed out as room
//! allows. Blocks are decoded by lz4-simd's block decoder, within slices: nothing is read or
//! written outside the buffers the caller describes.
//!
//! The history of linked blocks (and the dictionary) is the content this call has written to
//! the caller's output so far, read back in place (the next block is decoded right after it,
//! as liblz4 does), and before that a copy of the last 64 KiB kept in the context. The context
//! takes its copy once, when the call ends, never per block: copying every 64 KiB block's
//! history cost 20-25% of `LZ4F_decompress`'s speed on Silesia. Output of earlier calls is
//! never read back (the caller may have reused its buffer), so `stableDst` changes nothing but
//! speed in liblz4 and nothing here.

use std::os::raw::{c_uint, c_void};

use lz4_simd::block;
use xxhash_rust::xxh32::{xxh32, Xxh32};

use crate::lz4frame::{
    error, make, unmake, ErrorCode, LZ4F_CustomMem, LZ4F_headerSize, Origin, BLOCK_HEADER,
    CHECKSUM, HEADER_SIZE_MIN, MAGIC, MAX_HEADER,
};

const SKIPPABLE_MASK: u32 = 0xFFFF_FFF0;
const SKIPPABLE_START: u32 = 0x184D_2A50;
const UNCOMPRESSED: u32 = 0x8000_0000;
const HISTORY: usize = block::MAX_HISTORY;

/// `LZ4F_frameInfo_t`, with liblz4's layout (32 bytes; the enumerations are `unsigned`-sized).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LZ4F_frameInfo_t {
    /// `LZ4F_blockSizeID_t`: 0 (default, 64 KiB) or 4 to 7.
    pub blockSizeID: c_uint,
    /// `LZ4F_blockMode_t`: 0 linked, 1 independent.
    pub blockMode: c_uint,
    /// `LZ4F_contentChecksum_t`: 1 when the frame ends with a content checksum.
    pub contentChecksumFlag: c_uint,
    /// `LZ4F_frameType_t`: 0 an LZ4 frame, 1 a skippable frame.
    pub frameType: c_uint,
    /// The declared content size (a skippable frame's: its payload size); 0 unknown.
    pub contentSize: u64,
    /// The dictionary ID; 0 none.
    pub dictID: c_uint,
    /// `LZ4F_blockChecksum_t`: 1 when every block is followed by a checksum.
    pub blockChecksumFlag: c_uint,
}

/// `LZ4F_decompressOptions_t`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct LZ4F_decompressOptions_t {
    /// The previous 64 KiB of content stay before the output buffer (only a speed hint).
    pub stableDst: c_uint,
    /// Neither compute nor check checksums for the rest of the frame.
    pub skipChecksums: c_uint,
    /// Reserved, zero.
    pub reserved1: c_uint,
    /// Reserved, zero.
    pub reserved0: c_uint,
}

/// liblz4's decoding stages, with its numbers (`LZ4F_freeDecompressionContext` returns the
/// stage).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    GetFrameHeader = 0,
    StoreFrameHeader,
    Init,
    GetBlockHeader,
    StoreBlockHeader,
    CopyDirect,
    GetBlockChecksum,
    GetCBlock,
    StoreCBlock,
    FlushOut,
    GetSuffix,
    StoreSuffix,
    GetSFrameSize,
    StoreSFrameSize,
    SkipSkippable,
}

/// `LZ4F_dctx`.
pub struct LZ4F_dctx {
    origin: Origin,
    info: LZ4F_frameInfo_t,
    stage: Stage,
    /// Content still to come when the header declared a size (wrapping, as liblz4's).
    remaining: u64,
    max_block: usize,
    /// A header or a skippable frame's size being gathered; a block checksum being gathered.
    header: [u8; MAX_HEADER],
    /// A block (and its checksum), a block size or the content checksum being gathered.
    tmp_in: Vec<u8>,
    tmp_in_size: usize,
    tmp_in_target: usize,
    /// A block decoded for an output without room for a whole block: `tmp_out[out_start..out_size]`
    /// is still to be handed out.
    tmp_out: Vec<u8>,
    out_start: usize,
    out_size: usize,
    /// What blocks may reference: the dictionary's last 64 KiB, then (linked blocks) the content.
    history: Vec<u8>,
    /// Linked blocks' content written to the output during this call and not yet in `history`:
    /// `dst[fresh_end - fresh..fresh_end]`. Taken into `history` when the call ends, or before
    /// content is added to it another way.
    fresh: usize,
    fresh_end: usize,
    content_hash: Xxh32,
    block_hash: Xxh32,
    skip_checksums: bool,
}

impl LZ4F_dctx {
    fn new(origin: Origin) -> Self {
        Self {
            origin,
            info: LZ4F_frameInfo_t::default(),
            stage: Stage::GetFrameHeader,
            remaining: 0,
            max_block: 0,
            header: [0; MAX_HEADER],
            tmp_in: Vec::new(),
            tmp_in_size: 0,
            tmp_in_target: 0,
            tmp_out: Vec::new(),
            out_start: 0,
            out_size: 0,
            history: Vec::new(),
            fresh: 0,
            fresh_end: 0,
            content_hash: Xxh32::new(0),
            block_hash: Xxh32::new(0),
            skip_checksums: false,
        }
    }

    /// `LZ4F_resetDecompressionContext`: a new frame, no dictionary (buffers kept).
    fn reset(&mut self) {
        self.stage = Stage::GetFrameHeader;
        self.history.clear();
        self.fresh = 0;
        self.skip_checksums = false;
        self.remaining = 0;
    }

    fn linked(&self) -> bool {
        self.info.blockMode == 0
    }

    /// Sets the dictionary (its last 64 KiB), as the frame's first history.
    fn set_dict(&mut self, dict: &[u8]) {
        self.history.clear();
        self.fresh = 0;
        self.history
            .extend_from_slice(&dict[dict.len().saturating_sub(HISTORY)..]);
    }

    /// Appends content to a linked frame's history, keeping at least its last 64 KiB.
    fn remember(&mut self, content: &[u8]) {
        if !self.linked() {
            return;
        }
        if content.len() >= HISTORY {
            self.history.clear();
            self.history
                .extend_from_slice(&content[content.len() - HISTORY..]);
            return;
        }
        if self.history.len() + content.len() > 2 * HISTORY {
            let drop = self.history.len() + content.len() - HISTORY;
            self.history.drain(..drop.min(self.history.len()));
        }
        self.history.extend_from_slice(content);
    }

    /// Records that a linked frame's content was written to `dst[dp..dp + n]`, right after what
    /// the call wrote before (taken into `history` first when it is not right before).
    fn wrote(&mut self, dst: &[u8], dp: usize, n: usize) {
        if !self.linked() {
            return;
        }
        if self.fresh > 0 && self.fresh_end != dp {
            self.commit(dst);
        }
        self.fresh += n;
        self.fresh_end = dp + n;
    }

    /// Takes the content this call wrote to `dst` into `history` (at most its last 64 KiB).
    fn commit(&mut self, dst: &[u8]) {
        if self.fresh > 0 {
            let fresh = std::mem::take(&mut self.fresh);
            self.remember(&dst[self.fresh_end - fresh..self.fresh_end]);
        }
    }

    /// Parses a frame header at the start of `src` (`from_header`: the context's own copy), as
    /// liblz4: returns the bytes taken and moves to the next stage.
    fn decode_header(&mut self, src: &[u8], from_header: bool) -> Result<usize, ErrorCode> {
        if src.len() < HEADER_SIZE_MIN {
            return Err(ErrorCode::FrameHeaderIncomplete);
        }
        self.info = LZ4F_frameInfo_t::default();
        let magic = le32(src, 0);
        if magic & SKIPPABLE_MASK == SKIPPABLE_START {
            self.info.frameType = 1;
            if from_header {
                self.tmp_in_size = src.len();
                self.tmp_in_target = 8;
                self.stage = Stage::StoreSFrameSize;
                return Ok(src.len());
            }
            self.stage = Stage::GetSFrameSize;
            return Ok(4);
        }
        if magic != MAGIC {
            return Err(ErrorCode::FrameTypeUnknown);
        }
        let flg = src[4];
        if flg & 0x02 != 0 {
            return Err(ErrorCode::ReservedFlagSet);
        }
        if flg >> 6 != 1 {
            return Err(ErrorCode::HeaderVersionWrong);
        }
        let has_size = flg & 0x08 != 0;
        let has_dict_id = flg & 0x01 != 0;
        let size = HEADER_SIZE_MIN + if has_size { 8 } else { 0 } + if has_dict_id { 4 } else { 0 };
        if src.len() < size {
            if !from_header {
                self.header[..src.len()].copy_from_slice(src);
            }
            self.tmp_in_size = src.len();
            self.tmp_in_target = size;
            self.stage = Stage::StoreFrameHeader;
            return Ok(src.len());
        }
        let bd = src[5];
        let id = (bd >> 4) & 7;
        if bd & 0x80 != 0 {
            return Err(ErrorCode::ReservedFlagSet);
        }
        if id < 4 {
            return Err(ErrorCode::MaxBlockSizeInvalid);
        }
        if bd & 0x0F != 0 {
            return Err(ErrorCode::ReservedFlagSet);
        }
        if (xxh32(&src[4..size - 1], 0) >> 8) as u8 != src[size - 1] {
            return Err(ErrorCode::HeaderChecksumInvalid);
        }
        self.info.blockMode = u32::from((flg >> 5) & 1);
        self.info.blockChecksumFlag = u32::from((flg >> 4) & 1);
        self.info.contentChecksumFlag = u32::from((flg >> 2) & 1);
        self.info.blockSizeID = u32::from(id);
        self.max_block = 1 << (8 + 2 * id);
        if has_size {
            let mut le = [0u8; 8];
            le.copy_from_slice(&src[6..14]);
            self.info.contentSize = u64::from_le_bytes(le);
            self.remaining = self.info.contentSize;
        }
        if has_dict_id {
            self.info.dictID = le32(src, size - 5);
        }
        self.stage = Stage::Init;
        Ok(size)
    }

    /// Decodes a block (`unit`: its bytes, then its checksum if the frame has them) into the
    /// output at `dst[dp..]` when it has room for a whole block, else into `tmp_out`. Returns
    /// the content written to `dst`. On an error the stage and the unit's size are unchanged: a
    /// unit gathered in `tmp_in` is checked again by the next call, and fails again.
    fn decode_block(&mut self, unit: &[u8], dst: &mut [u8], dp: usize) -> Result<usize, ErrorCode> {
        let mut len = unit.len();
        if self.info.blockChecksumFlag != 0 {
            len = len.saturating_sub(CHECKSUM);
            let stored = le32(unit, len);
            if stored != xxh32(&unit[..len], 0) {
                return Err(ErrorCode::BlockChecksumInvalid);
            }
        }
        let block = &unit[..len];
        let direct = dst.len() - dp >= self.max_block;
        if !direct || (self.fresh > 0 && (self.fresh_end != dp || self.fresh < HISTORY)) {
            // The history is in one piece: the context's copy, or the output before `dp`.
            self.commit(dst);
        }
        let history = &self.history[self.history.len().saturating_sub(HISTORY)..];
        let (decoded, content) = if direct && self.fresh > 0 {
            // The last 64 KiB of history are right before `dp`, written by this call.
            let from = dp - HISTORY;
            let buf = &mut dst[from..dp + self.max_block];
            let n = block::decompress_into_with_history(block, buf, HISTORY)
                .map_err(|_| ErrorCode::DecompressionFailed)?;
            (n, &dst[dp..dp + n])
        } else {
            let out: &mut [u8] = if direct {
                &mut dst[dp..dp + self.max_block]
            } else {
                &mut self.tmp_out[..self.max_block]
            };
            let n = if history.is_empty() {
                block::decompress_into(block, out)
            } else {
                block::decompress_into_with_dictionary(block, out, history)
            }
            .map_err(|_| ErrorCode::DecompressionFailed)?;
            (n, &out[..n])
        };
        if self.info.contentChecksumFlag != 0 && !self.skip_checksums {
            self.content_hash.update(content);
        }
        if self.info.contentSize != 0 {
            self.remaining = self.remaining.wrapping_sub(decoded as u64);
        }
        if direct {
            self.wrote(dst, dp, decoded);
            self.stage = Stage::GetBlockHeader;
            Ok(decoded)
        } else {
            let tmp = std::mem::take(&mut self.tmp_out);
            self.remember(&tmp[..decoded]);
            self.tmp_out = tmp;
            self.out_start = 0;
            self.out_size = decoded;
            self.stage = Stage::FlushOut;
            Ok(0)
        }
    }

    /// One `LZ4F_decompress` call: `(consumed, produced, hint)`.
    fn decompress(
        &mut self,
        src: &[u8],
        dst: &mut [u8],
    ) -> Result<(usize, usize, usize), ErrorCode> {
        self.fresh = 0;
        let result = self.run(src, dst);
        self.commit(dst);
        result
    }

    /// The stages of [`Self::decompress`].
    fn run(&mut self, src: &[u8], dst: &mut [u8]) -> Result<(usize, usize, usize), ErrorCode> {
        let (mut sp, mut dp, mut hint) = (0usize, 0usize, 1usize);
        loop {
            match self.stage {
                Stage::GetFrameHeader => {
                    if src.len() - sp >= MAX_HEADER {
                        sp += self.decode_header(&src[sp..], false)?;
                        continue;
                    }
                    self.tmp_in_size = 0;
                    if src.len() == sp {
                        return Ok((0, 0, HEADER_SIZE_MIN));
                    }
                    self.tmp_in_target = HEADER_SIZE_MIN;
                    self.stage = Stage::StoreFrameHeader;
                }
                Stage::StoreFrameHeader => {
                    let n = (self.tmp_in_target - self.tmp_in_size).min(src.len() - sp);
                    self.header[self.tmp_in_size..self.tmp_in_size + n]
                        .copy_from_slice(&src[sp..sp + n]);
                    self.tmp_in_size += n;
                    sp += n;
                    if self.tmp_in_size < self.tmp_in_target {
                        hint = self.tmp_in_target - self.tmp_in_size + BLOCK_HEADER;
                        break;
                    }
                    let header = self.header;
                    self.decode_header(&header[..self.tmp_in_target], true)?;
                }
                Stage::Init => {
                    if self.info.contentChecksumFlag != 0 {
                        self.content_hash = Xxh32::new(0);
                    }
                    grow(&mut self.tmp_in, self.max_block + CHECKSUM)?;
                    grow(&mut self.tmp_out, self.max_block)?;
                    self.tmp_in_size = 0;
                    self.tmp_in_target = 0;
                    self.out_start = 0;
                    self.out_size = 0;
                    self.stage = Stage::GetBlockHeader;
                }
                Stage::GetBlockHeader => {
                    if src.len() - sp >= BLOCK_HEADER {
                        let word = le32(src, sp);
                        sp += BLOCK_HEADER;
                        if let Some(h) =
                            self.block_header(word, sp == src.len(), dp == dst.len())?
                        {
                            hint = h;
                            break;
                        }
                    } else {
                        self.tmp_in_size = 0;
                        self.stage = Stage::StoreBlockHeader;
                    }
                }
                Stage::StoreBlockHeader => {
                    let n = (BLOCK_HEADER - self.tmp_in_size).min(src.len() - sp);
                    self.tmp_in[self.tmp_in_size..self.tmp_in_size + n]
                        .copy_from_slice(&src[sp..sp + n]);
                    self.tmp_in_size += n;
                    sp += n;
                    if self.tmp_in_size < BLOCK_HEADER {
                        hint = BLOCK_HEADER - self.tmp_in_size;
                        break;
                    }
                    let word = le32(&self.tmp_in, 0);
                    if let Some(h) = self.block_header(word, sp == src.len(), dp == dst.len())? {
                        hint = h;
                        break;
                    }
                }
                Stage::CopyDirect => {
                    let n = self.tmp_in_target.min(src.len() - sp).min(dst.len() - dp);
                    let piece = &src[sp..sp + n];
                    dst[dp..dp + n].copy_from_slice(piece);
                    if !self.skip_checksums {
                        if self.info.blockChecksumFlag != 0 {
                            self.block_hash.update(piece);
                        }
                        if self.info.contentChecksumFlag != 0 {
                            self.content_hash.update(piece);
                        }
                    }
                    if self.info.contentSize != 0 {
                        self.remaining = self.remaining.wrapping_sub(n as u64);
                    }
                    self.wrote(dst, dp, n);
                    sp += n;
                    dp += n;
                    if n == self.tmp_in_target {
                        if self.info.blockChecksumFlag != 0 {
                            self.tmp_in_size = 0;
                            self.stage = Stage::GetBlockChecksum;
                        } else {
                            self.stage = Stage::GetBlockHeader;
                        }
                        continue;
                    }
                    self.tmp_in_target -= n;
                    hint = self.tmp_in_target
                        + if self.info.blockChecksumFlag != 0 {
                            CHECKSUM
                        } else {
                            0
                        }
                        + BLOCK_HEADER;
                    break;
                }
                Stage::GetBlockChecksum => {
                    let stored = if src.len() - sp >= CHECKSUM && self.tmp_in_size == 0 {
                        sp += CHECKSUM;
                        le32(src, sp - CHECKSUM)
                    } else {
                        let n = (CHECKSUM - self.tmp_in_size).min(src.len() - sp);
                        self.header[self.tmp_in_size..self.tmp_in_size + n]
                            .copy_from_slice(&src[sp..sp + n]);
                        self.tmp_in_size += n;
                        sp += n;
                        if self.tmp_in_size < CHECKSUM {
                            break;
                        }
                        le32(&self.header, 0)
                    };
                    if !self.skip_checksums && stored != self.block_hash.digest() {
                        return Err(ErrorCode::BlockChecksumInvalid);
                    }
                    self.stage = Stage::GetBlockHeader;
                }
                Stage::GetCBlock => {
                    let target = self.tmp_in_target;
                    if src.len() - sp < target {
                        self.tmp_in_size = 0;
                        self.stage = Stage::StoreCBlock;
                        continue;
                    }
                    sp += target;
                    let result = self.decode_block(&src[sp - target..sp], dst, dp);
                    if result.is_err() && self.info.blockChecksumFlag != 0 {
                        // liblz4 has taken the checksum off the unit's size before the error
                        // (the next call reads 4 bytes less in place).
                        self.tmp_in_target = target.saturating_sub(CHECKSUM);
                    }
                    dp += result?;
                }
                Stage::StoreCBlock => {
                    let n = (self.tmp_in_target - self.tmp_in_size).min(src.len() - sp);
                    self.tmp_in[self.tmp_in_size..self.tmp_in_size + n]
                        .copy_from_slice(&src[sp..sp + n]);
                    self.tmp_in_size += n;
                    sp += n;
                    if self.tmp_in_size < self.tmp_in_target {
                        hint = self.tmp_in_target - self.tmp_in_size
                            + if self.info.blockChecksumFlag != 0 {
                                CHECKSUM
                            } else {
                                0
                            }
                            + BLOCK_HEADER;
                        break;
                    }
                    let unit = std::mem::take(&mut self.tmp_in);
                    let result = self.decode_block(&unit[..self.tmp_in_target], dst, dp);
                    self.tmp_in = unit;
                    dp += result?;
                }
                Stage::FlushOut => {
                    let n = (self.out_size - self.out_start).min(dst.len() - dp);
                    dst[dp..dp + n]
                        .copy_from_slice(&self.tmp_out[self.out_start..self.out_start + n]);
                    self.out_start += n;
                    dp += n;
                    if self.out_start == self.out_size {
                        self.stage = Stage::GetBlockHeader;
                        continue;
                    }
                    hint = BLOCK_HEADER;
                    break;
                }
                Stage::GetSuffix => {
                    if self.remaining != 0 {
                        return Err(ErrorCode::FrameSizeWrong);
                    }
                    if self.info.contentChecksumFlag == 0 {
                        hint = 0;
                        self.reset();
                        break;
                    }
                    if src.len() - sp < CHECKSUM {
                        self.tmp_in_size = 0;
                        self.stage = Stage::StoreSuffix;
                        continue;
                    }
                    sp += CHECKSUM;
                    self.check_content(le32(src, sp - CHECKSUM))?;
                    hint = 0;
                    break;
                }
                Stage::StoreSuffix => {
                    let n = (CHECKSUM - self.tmp_in_size).min(src.len() - sp);
                    self.tmp_in[self.tmp_in_size..self.tmp_in_size + n]
                        .copy_from_slice(&src[sp..sp + n]);
                    self.tmp_in_size += n;
                    sp += n;
                    if self.tmp_in_size < CHECKSUM {
                        hint = CHECKSUM - self.tmp_in_size;
                        break;
                    }
                    self.check_content(le32(&self.tmp_in, 0))?;
                    hint = 0;
                    break;
                }
                Stage::GetSFrameSize => {
                    if src.len() - sp >= 4 {
                        sp += 4;
                        self.skippable_size(le32(src, sp - 4));
                    } else {
                        self.tmp_in_size = 4;
                        self.tmp_in_target = 8;
                        self.stage = Stage::StoreSFrameSize;
                    }
                }
                Stage::StoreSFrameSize => {
                    let n = (self.tmp_in_target - self.tmp_in_size).min(src.len() - sp);
                    self.header[self.tmp_in_size..self.tmp_in_size + n]
                        .copy_from_slice(&src[sp..sp + n]);
                    self.tmp_in_size += n;
                    sp += n;
                    if self.tmp_in_size < self.tmp_in_target {
                        hint = self.tmp_in_target - self.tmp_in_size;
                        break;
                    }
                    self.skippable_size(le32(&self.header, 4));
                }
                Stage::SkipSkippable => {
                    let n = self.tmp_in_target.min(src.len() - sp);
                    sp += n;
                    self.tmp_in_target -= n;
                    hint = self.tmp_in_target;
                    if hint == 0 {
                        self.reset();
                    }
                    break;
                }
            }
        }
        Ok((sp, dp, hint))
    }

    /// A block size word: the next stage, and `Some(hint)` when the call stops there.
    fn block_header(
        &mut self,
        word: u32,
        src_done: bool,
        dst_full: bool,
    ) -> Result<Option<usize>, ErrorCode> {
        if word == 0 {
            self.stage = Stage::GetSuffix;
            return Ok(None);
        }
        let size = (word & !UNCOMPRESSED) as usize;
        let crc = if self.info.blockChecksumFlag != 0 {
            CHECKSUM
        } else {
            0
        };
        if size > self.max_block {
            return Err(ErrorCode::MaxBlockSizeInvalid);
        }
        if word & UNCOMPRESSED != 0 {
            self.tmp_in_target = size;
            if crc != 0 {
                self.block_hash = Xxh32::new(0);
            }
            self.stage = Stage::CopyDirect;
            return Ok(None);
        }
        self.tmp_in_target = size + crc;
        self.stage = Stage::GetCBlock;
        if dst_full || src_done {
            return Ok(Some(BLOCK_HEADER + size + crc));
        }
        Ok(None)
    }

    /// The content checksum: checked (unless checksums are skipped); the frame is done.
    fn check_content(&mut self, stored: u32) -> Result<(), ErrorCode> {
        if !self.skip_checksums && stored != self.content_hash.digest() {
            return Err(ErrorCode::ContentChecksumInvalid);
        }
        self.reset();
        Ok(())
    }

    fn skippable_size(&mut self, size: u32) {
        self.info.contentSize = u64::from(size);
        self.tmp_in_target = size as usize;
        self.stage = Stage::SkipSkippable;
    }
}

/// Little-endian u32 at `bytes[pos..pos + 4]` (0 for bytes missing, which callers rule out).
fn le32(bytes: &[u8], pos: usize) -> u32 {
    bytes
        .get(pos..pos + 4)
        .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Makes `buf` at least `len` bytes long (zeroed), or `ERROR_allocation_failed`.
fn grow(buf: &mut Vec<u8>, len: usize) -> Result<(), ErrorCode> {
    if buf.len() < len {
        buf.try_reserve_exact(len - buf.len())
            .map_err(|_| ErrorCode::AllocationFailed)?;
        buf.resize(len, 0);
    }
    Ok(())
}

/// Creates a decompression context into `*dctx_ptr`: 0, or `ERROR_parameter_null` for a null
/// `dctx_ptr`. `version` is recorded by liblz4 and not checked; it is ignored here.
///
/// # Safety
/// `dctx_ptr` null or writable.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4F_createDecompressionContext(
    dctx_ptr: *mut *mut LZ4F_dctx,
    version: c_uint,
) -> usize {
    let _ = version;
    if dctx_ptr.is_null() {
        return error(ErrorCode::ParameterNull);
    }
    // SAFETY: a boxed context (no caller's function).
    let dctx = unsafe { make(Origin::Boxed, LZ4F_dctx::new(Origin::Boxed)) };
    // SAFETY: `dctx_ptr` is non-null (checked above) and writable by the caller's contract.
    unsafe { dctx_ptr.write(dctx) };
    0
}

/// Creates a decompression context whose own memory (the context itself) comes from `cmem`'s
/// functions, the C library's where they are null; null when that allocation fails. Its
/// buffers come from the process's allocator (see docs/c-abi.md). `version` is ignored.
///
/// # Safety
/// `cmem`'s functions callable with its `opaqueState` until the context is freed.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4F_createDecompressionContext_advanced(
    cmem: LZ4F_CustomMem,
    version: c_uint,
) -> *mut LZ4F_dctx {
    let _ = version;
    let origin = Origin::Custom(cmem);
    // SAFETY: the caller's contract.
    unsafe { make(origin, LZ4F_dctx::new(origin)) }
}

/// Frees a context from [`LZ4F_createDecompressionContext`] or
/// [`LZ4F_createDecompressionContext_advanced`] (null: nothing). Returns its stage: 0 when it
/// was between frames, as liblz4.
///
/// # Safety
/// `dctx` null or a live context of this library, not used afterwards.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4F_freeDecompressionContext(dctx: *mut LZ4F_dctx) -> usize {
    // SAFETY: null or a live context (the caller's contract).
    let Some((origin, stage)) = (unsafe { dctx.as_ref() }).map(|d| (d.origin, d.stage as usize))
    else {
        return 0;
    };
    // SAFETY: made by `make` with the origin it recorded, given back once by the caller's
    // contract.
    unsafe { unmake(origin, dctx) };
    stage
}

/// Starts a new frame on `dctx`, dropping any frame in progress and its dictionary.
///
/// # Safety
/// `dctx` null (nothing is done) or a live context.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4F_resetDecompressionContext(dctx: *mut LZ4F_dctx) {
    // SAFETY: null or a live context used by no one else during the call (the caller's contract).
    if let Some(dctx) = unsafe { dctx.as_mut() } {
        dctx.reset();
    }
}

/// The frame's descriptor, into `*frame_info`. Before decoding starts, the header at
/// `src[..*src_size]` is decoded and consumed (`*src_size` becomes its length; 0 on error);
/// afterwards nothing is read (`*src_size` becomes 0) and the descriptor is the frame's. Returns
/// the hint of the next input size, or an error code (`ERROR_frameDecoding_alreadyStarted` in
/// the middle of a header).
///
/// # Safety
/// `dctx` a live context; `frame_info` writable; `src_size` readable and writable;
/// `src[..*src_size]` readable.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4F_getFrameInfo(
    dctx: *mut LZ4F_dctx,
    frame_info: *mut LZ4F_frameInfo_t,
    src: *const c_void,
    src_size: *mut usize,
) -> usize {
    // SAFETY: null or a live context used by no one else during the call (the caller's contract).
    let Some(dctx) = (unsafe { dctx.as_mut() }) else {
        return error(ErrorCode::ParameterNull);
    };
    if frame_info.is_null() || src_size.is_null() {
        return error(ErrorCode::ParameterNull);
    }
    // SAFETY: non-null (checked above), readable and writable by the caller's contract.
    let size = unsafe { &mut *src_size };
    let put = |info: LZ4F_frameInfo_t| {
        // SAFETY: non-null (checked above) and writable by the caller's contract.
        unsafe { frame_info.write(info) }
    };
    if dctx.stage > Stage::StoreFrameHeader {
        *size = 0;
        put(dctx.info);
        return hint_or_error(dctx.decompress(&[], &mut []));
    }
    if dctx.stage == Stage::StoreFrameHeader {
        *size = 0;
        return error(ErrorCode::FrameDecodingAlreadyStarted);
    }
    // SAFETY: the caller's contract for `src[..*size]` (a null `src` is an error there).
    let header_size = unsafe { LZ4F_headerSize(src, *size) };
    if crate::LZ4F_isError(header_size) != 0 {
        *size = 0;
        return header_size;
    }
    if *size < header_size {
        *size = 0;
        return error(ErrorCode::FrameHeaderIncomplete);
    }
    // SAFETY: `src` is non-null (`LZ4F_headerSize` checked it) and `header_size <= *size`
    // bytes of it are readable by the caller's contract.
    let header = unsafe { std::slice::from_raw_parts(src.cast::<u8>(), header_size) };
    let result = match dctx.decode_header(header, false) {
        Ok(taken) => {
            *size = taken;
            BLOCK_HEADER
        }
        Err(e) => {
            *size = 0;
            error(e)
        }
    };
    put(dctx.info);
    result
}

fn hint_or_error(result: Result<(usize, usize, usize), ErrorCode>) -> usize {
    result.map_or_else(error, |(_, _, hint)| hint)
}

/// The body of `LZ4F_decompress` and `LZ4F_decompress_usingDict`.
///
/// # Safety
/// As [`LZ4F_decompress`]; `dict` as [`LZ4F_decompress_usingDict`]'s when given.
unsafe fn decompress(
    dctx: *mut LZ4F_dctx,
    dst: *mut c_void,
    dst_size: *mut usize,
    src: *const c_void,
    src_size: *mut usize,
    dict: Option<(*const c_void, usize)>,
    options: *const LZ4F_decompressOptions_t,
) -> usize {
    // SAFETY: null or a live context used by no one else during the call (the caller's contract).
    let Some(dctx) = (unsafe { dctx.as_mut() }) else {
        return error(ErrorCode::ParameterNull);
    };
    if dst_size.is_null() || src_size.is_null() {
        return error(ErrorCode::ParameterNull);
    }
    // SAFETY: non-null (checked above), readable and writable by the caller's contract.
    let (dst_len, src_len) = unsafe { (&mut *dst_size, &mut *src_size) };
    // SAFETY: null or readable by the caller's contract.
    let skip = unsafe { options.as_ref() }.is_some_and(|o| o.skipChecksums != 0);
    let src_slice: &[u8] = if src.is_null() || *src_len == 0 {
        &[]
    } else {
        // SAFETY: non-null, `*src_len` readable bytes by the caller's contract, not written
        // during the call (the output may not overlap the input: liblz4's contract).
        unsafe { std::slice::from_raw_parts(src.cast::<u8>(), *src_len) }
    };
    let dst_slice: &mut [u8] = if dst.is_null() || *dst_len == 0 {
        &mut []
    } else {
        // SAFETY: non-null, `*dst_len` writable bytes by the caller's contract, used by no one
        // else during the call.
        unsafe { std::slice::from_raw_parts_mut(dst.cast::<u8>(), *dst_len) }
    };
    if let Some((dict, dict_size)) = dict {
        if dctx.stage <= Stage::Init {
            let dict: &[u8] = if dict.is_null() || dict_size == 0 {
                &[]
            } else {
                // SAFETY: non-null, `dict_size` readable bytes by the caller's contract; only
                // read here (its tail is copied into the context).
                unsafe { std::slice::from_raw_parts(dict.cast::<u8>(), dict_size) }
            };
            dctx.set_dict(dict);
        }
    }
    dctx.skip_checksums |= skip;
    *src_len = 0;
    *dst_len = 0;
    match dctx.decompress(src_slice, dst_slice) {
        Ok((consumed, produced, hint)) => {
            *src_len = consumed;
            *dst_len = produced;
            hint
        }
        Err(e) => error(e),
    }
}

/// Decodes frames from `src[..*src_size]` into `dst[..*dst_size]`, as liblz4: `*src_size`
/// becomes the input consumed and `*dst_size` the content written; the result is the hint of
/// the next input size (0 once a frame is complete: the call stops at its end), or an error code
/// (both sizes 0). Skippable frames are skipped; checksums are checked unless
/// `options->skipChecksums`. A null `dst` is an output of 0 bytes, a null `src` an empty input.
///
/// # Safety
/// `dctx` a live context; `dst_size`, `src_size` readable and writable; `dst[..*dst_size]`
/// writable and `src[..*src_size]` readable, apart from each other; `options` null or readable.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4F_decompress(
    dctx: *mut LZ4F_dctx,
    dst: *mut c_void,
    dst_size: *mut usize,
    src: *const c_void,
    src_size: *mut usize,
    options: *const LZ4F_decompressOptions_t,
) -> usize {
    // SAFETY: the same contract.
    unsafe { decompress(dctx, dst, dst_size, src, src_size, None, options) }
}

/// [`LZ4F_decompress`] of frames compressed with the dictionary `dict[..dict_size]`: taken when
/// a frame starts (its last 64 KiB are copied into the context; it need not stay afterwards).
///
/// # Safety
/// As [`LZ4F_decompress`]; `dict[..dict_size]` readable (`dict` may be null when 0).
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4F_decompress_usingDict(
    dctx: *mut LZ4F_dctx,
    dst: *mut c_void,
    dst_size: *mut usize,
    src: *const c_void,
    src_size: *mut usize,
    dict: *const c_void,
    dict_size: usize,
    options: *const LZ4F_decompressOptions_t,
) -> usize {
    // SAFETY: the same contract.
    unsafe {
        decompress(
            dctx,
            dst,
            dst_size,
            src,
            src_size,
            Some((dict, dict_size)),
            options,
        )
    }
}
