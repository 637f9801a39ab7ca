//! Frame headers: parsing (with every check the format allows) and writing.

use super::{BlockMode, BlockSize, FrameOptions, LEGACY_MAGIC, MAGIC, SKIPPABLE_MAGIC};
use crate::Error;

const FLG_VERSION_SHIFT: u8 = 6;
const FLG_BLOCK_INDEPENDENCE: u8 = 1 << 5;
const FLG_BLOCK_CHECKSUM: u8 = 1 << 4;
const FLG_CONTENT_SIZE: u8 = 1 << 3;
const FLG_CONTENT_CHECKSUM: u8 = 1 << 2;
const FLG_RESERVED: u8 = 1 << 1;
const FLG_DICT_ID: u8 = 1;
const BD_SIZE_SHIFT: u8 = 4;
const BD_RESERVED: u8 = 0x8F;
/// The largest general frame header: magic, FLG, BD, content size, dictionary ID, checksum.
pub(crate) const MAX_HEADER_LEN: usize = 4 + 2 + 8 + 4 + 1;
/// The smallest: magic, FLG, BD, checksum.
pub(crate) const MIN_HEADER_LEN: usize = 7;

/// The descriptor of an LZ4 frame, as its header states it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameInfo {
    /// The largest size a block decodes to.
    pub block_size: BlockSize,
    /// Independent or linked blocks.
    pub block_mode: BlockMode,
    /// Whether every block is followed by an xxh32 of its bytes.
    pub block_checksum: bool,
    /// Whether the frame ends with an xxh32 of the content.
    pub content_checksum: bool,
    /// The content size, when the header records one other than 0. A recorded size of 0 reads
    /// as `None`, as liblz4 1.10 reads it (`LZ4F_getFrameInfo` reports 0, its "unknown"): the
    /// frame's content is then not checked against it, and a frame that declares 0 over real
    /// content decodes as LZ4F and the `lz4` tool decode it. (`header_len` still counts the
    /// field's 8 bytes.)
    pub content_size: Option<u64>,
    /// The dictionary ID, when the header records one.
    pub dict_id: Option<u32>,
    /// Length of the header in bytes (magic to header checksum, 7 to 19).
    pub header_len: usize,
}

/// What a frame's first bytes announce.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum FrameHeader {
    /// An LZ4 frame.
    Lz4(FrameInfo),
    /// A skippable frame: `magic_nibble` is the low 4 bits of its magic number; `payload_len`
    /// bytes follow the 8-byte header.
    Skippable {
        /// The low 4 bits of the magic number (`0x184D2A50 | magic_nibble`).
        magic_nibble: u8,
        /// Length of the payload after the 8-byte header.
        payload_len: u32,
    },
    /// A legacy frame (`lz4 -l`); the 4-byte magic is its whole header.
    Legacy,
}

#[inline]
pub(crate) fn le32(bytes: &[u8], pos: usize) -> Option<u32> {
    let word: [u8; 4] = bytes.get(pos..pos.checked_add(4)?)?.try_into().ok()?;
    Some(u32::from_le_bytes(word))
}

/// Parses the header at the start of `src`; `base` is its offset in the whole input (for error
/// positions). Returns the header and its length.
pub fn read_frame_header(src: &[u8]) -> Result<(FrameHeader, usize), Error> {
    parse_header(src, 0)
}

/// Parses the header of the LZ4 frame at the start of `src` without decoding anything.
///
/// A skippable or legacy frame gives [`Error::InvalidArgument`] (use [`read_frame_header`] to
/// accept every kind).
pub fn read_frame_info(src: &[u8]) -> Result<FrameInfo, Error> {
    match parse_header(src, 0)? {
        (FrameHeader::Lz4(info), _) => Ok(info),
        (FrameHeader::Skippable { .. }, _) => Err(Error::InvalidArgument {
            what: "the input starts with a skippable frame, which has no frame descriptor",
        }),
        (_, _) => Err(Error::InvalidArgument {
            what: "the input starts with a legacy frame, which has no frame descriptor",
        }),
    }
}

pub(crate) fn parse_header(src: &[u8], base: u64) -> Result<(FrameHeader, usize), Error> {
    let Some(magic) = le32(src, 0) else {
        return Err(Error::FrameTruncated {
            input_pos: base + src.len() as u64,
            what: "a 4-byte frame magic number",
        });
    };
    if magic & 0xFFFF_FFF0 == SKIPPABLE_MAGIC {
        let Some(payload_len) = le32(src, 4) else {
            return Err(Error::FrameTruncated {
                input_pos: base + src.len() as u64,
                what: "the 4-byte size of a skippable frame",
            });
        };
        let magic_nibble = (magic & 0xF) as u8;
        return Ok((
            FrameHeader::Skippable {
                magic_nibble,
                payload_len,
            },
            8,
        ));
    }
    if magic == LEGACY_MAGIC {
        return Ok((FrameHeader::Legacy, 4));
    }
    if magic != MAGIC {
        return Err(Error::FrameBadMagic {
            input_pos: base,
            found: magic.to_le_bytes(),
            hint: guess_format(src),
        });
    }
    let (Some(&flg), Some(&bd)) = (src.get(4), src.get(5)) else {
        return Err(Error::FrameTruncated {
            input_pos: base + src.len() as u64,
            what: "the frame descriptor (FLG and BD bytes)",
        });
    };
    let version = flg >> FLG_VERSION_SHIFT;
    if version != 1 {
        return Err(Error::FrameUnsupportedVersion {
            input_pos: base + 4,
            version,
        });
    }
    if flg & FLG_RESERVED != 0 {
        return Err(Error::FrameReservedBitSet {
            input_pos: base + 4,
            field: "FLG",
            value: flg,
        });
    }
    if bd & BD_RESERVED != 0 {
        return Err(Error::FrameReservedBitSet {
            input_pos: base + 5,
            field: "BD",
            value: bd,
        });
    }
    let code = bd >> BD_SIZE_SHIFT;
    let Some(block_size) = BlockSize::from_code(code) else {
        return Err(Error::FrameBadBlockSizeCode {
            input_pos: base + 5,
            code,
        });
    };
    let mut len = 6;
    let content_size_pos = len;
    if flg & FLG_CONTENT_SIZE != 0 {
        len += 8;
    }
    let dict_id_pos = len;
    if flg & FLG_DICT_ID != 0 {
        len += 4;
    }
    let checksum_pos = len;
    len += 1;
    if src.len() < len {
        return Err(Error::FrameTruncated {
            input_pos: base + src.len() as u64,
            what: "the rest of the frame header",
        });
    }
    // A declared 0 is "unknown" to LZ4F (`LZ4F_decodeHeader` leaves the remaining size at 0,
    // which it neither counts down nor checks at the end mark): no size, as without the field.
    let content_size = (flg & FLG_CONTENT_SIZE != 0)
        .then(|| {
            let bytes: [u8; 8] = src[content_size_pos..content_size_pos + 8]
                .try_into()
                .unwrap_or([0; 8]);
            u64::from_le_bytes(bytes)
        })
        .filter(|&size| size != 0);
    let dict_id = (flg & FLG_DICT_ID != 0).then(|| le32(src, dict_id_pos).unwrap_or(0));
    let expected = header_checksum(&src[4..checksum_pos]);
    if src[checksum_pos] != expected {
        return Err(Error::FrameHeaderChecksum {
            input_pos: base + checksum_pos as u64,
            expected,
            found: src[checksum_pos],
        });
    }
    let info = FrameInfo {
        block_size,
        block_mode: if flg & FLG_BLOCK_INDEPENDENCE != 0 {
            BlockMode::Independent
        } else {
            BlockMode::Linked
        },
        block_checksum: flg & FLG_BLOCK_CHECKSUM != 0,
        content_checksum: flg & FLG_CONTENT_CHECKSUM != 0,
        content_size,
        dict_id,
        header_len: len,
    };
    Ok((FrameHeader::Lz4(info), len))
}

/// The header checksum: the second byte of the xxh32 (seed 0) of the descriptor (FLG to the end
/// of the dictionary ID). The magic number is not included.
fn header_checksum(descriptor: &[u8]) -> u8 {
    (xxhash_rust::xxh32::xxh32(descriptor, 0) >> 8) as u8
}

/// The header of a frame with `options` (content size `content_size`), in a fixed array: the array and the header's length.
pub(crate) fn encode_header(
    options: &FrameOptions,
    block_size: BlockSize,
    block_mode: BlockMode,
    content_size: Option<u64>,
) -> ([u8; MAX_HEADER_LEN], usize) {
    let mut out = [0u8; MAX_HEADER_LEN];
    out[..4].copy_from_slice(&MAGIC.to_le_bytes());
    let mut flg = 1 << FLG_VERSION_SHIFT;
    if block_mode == BlockMode::Independent {
        flg |= FLG_BLOCK_INDEPENDENCE;
    }
    if options.block_checksum {
        flg |= FLG_BLOCK_CHECKSUM;
    }
    if content_size.is_some() {
        flg |= FLG_CONTENT_SIZE;
    }
    if options.content_checksum {
        flg |= FLG_CONTENT_CHECKSUM;
    }
    if options.dict_id.is_some() {
        flg |= FLG_DICT_ID;
    }
    out[4] = flg;
    out[5] = block_size.code() << BD_SIZE_SHIFT;
    let mut len = 6;
    if let Some(size) = content_size {
        out[len..len + 8].copy_from_slice(&size.to_le_bytes());
        len += 8;
    }
    if let Some(id) = options.dict_id {
        out[len..len + 4].copy_from_slice(&id.to_le_bytes());
        len += 4;
    }
    out[len] = header_checksum(&out[4..len]);
    (out, len + 1)
}

/// What the bytes at the start of `src` (not a frame magic) look like, for error messages.
fn guess_format(src: &[u8]) -> &'static str {
    match src {
        [0x1f, 0x8b, ..] => "this looks like gzip data",
        [0x28, 0xb5, 0x2f, 0xfd, ..] => "this looks like a zstd frame",
        [0xfd, b'7', b'z', b'X', b'Z', ..] => "this looks like xz data",
        [b'B', b'Z', b'h', ..] => "this looks like bzip2 data",
        [b'P', b'K', 3, 4, ..] => "this looks like a zip archive",
        _ => {
            if looks_like_size_prefixed_block(src) {
                "this looks like a size-prefixed LZ4 block (python-lz4 lz4.block, lz4_flex \
                 compress_prepend_size): use block::decompress_size_prepended"
            } else if looks_like_block(src, GUESS_CAP) {
                "this looks like a raw LZ4 block without a frame: use block::decompress"
            } else {
                "this is not LZ4 frame data (nor a raw or size-prefixed LZ4 block)"
            }
        }
    }
}

/// How much a format guess may decode (a bounded trial, so an error message costs little).
const GUESS_CAP: usize = 1 << 16;

/// Whether `src` decodes as a block, or at least its first [`GUESS_CAP`] bytes of output do.
fn looks_like_block(src: &[u8], cap: usize) -> bool {
    let mut out = alloc::vec![0u8; cap];
    match crate::block::decompress_into(src, &mut out) {
        Ok(_) => true,
        Err(error) if error.is_output_overflow() => cap == GUESS_CAP,
        Err(_) => false,
    }
}

fn looks_like_size_prefixed_block(src: &[u8]) -> bool {
    let Some(declared) = le32(src, 0) else {
        return false;
    };
    let block = &src[4..];
    let declared = declared as usize;
    declared <= block.len().saturating_mul(255)
        && looks_like_block(block, declared.min(GUESS_CAP))
        && (declared > GUESS_CAP
            || crate::block::decompress(block, declared).is_ok_and(|out| out.len() == declared))
}
