//! One-shot frame decoding, the frame splitter, and the block-level steps the streaming decoder
//! shares.

use alloc::boxed::Box;
use alloc::vec::Vec;

use xxhash_rust::xxh32::{xxh32, Xxh32};

use super::header::{le32, parse_header, FrameHeader, FrameInfo};
use super::{BlockMode, LEGACY_BLOCK_SIZE, LEGACY_MAGIC, MAGIC, SKIPPABLE_MAGIC, STORED_FLAG};
use crate::block::{self, MAX_HISTORY};
use crate::Error;

/// The largest compressed size of a legacy block (`compress_bound` of 8 MiB).
pub(crate) const LEGACY_MAX_COMPRESSED: usize = block::compress_bound(LEGACY_BLOCK_SIZE);

/// Interprets a block size word: `None` for the end mark, else the data length and whether the
/// block is stored raw. Rejects sizes above the frame's block maximum.
pub(crate) fn block_word(
    word: u32,
    block_max: usize,
    input_pos: u64,
    block_index: u64,
) -> Result<Option<(usize, bool)>, Error> {
    if word == 0 {
        return Ok(None);
    }
    let size = (word & !STORED_FLAG) as usize;
    if size > block_max {
        return Err(Error::FrameBlockTooLarge {
            input_pos,
            block_index,
            size: size as u64,
            max: block_max as u64,
        });
    }
    Ok(Some((size, word & STORED_FLAG != 0)))
}

/// Checks a block's xxh32 (computed over its bytes as stored).
pub(crate) fn verify_block_checksum(
    data: &[u8],
    found: u32,
    input_pos: u64,
    block_index: u64,
) -> Result<(), Error> {
    let expected = xxh32(data, 0);
    if expected != found {
        return Err(Error::FrameBlockChecksum {
            input_pos,
            block_index,
            expected,
            found,
        });
    }
    Ok(())
}

/// Whether a legacy frame's next word starts a new frame instead of being a block size.
pub(crate) fn is_magic(word: u32) -> bool {
    word == MAGIC || word == LEGACY_MAGIC || word & 0xFFFF_FFF0 == SKIPPABLE_MAGIC
}

/// Where a block's bytes go and how much it may produce.
pub(crate) struct BlockTarget {
    /// `out[history_from..]` is the history a compressed block may reference.
    pub history_from: usize,
    /// The most bytes the block may decode to under the caller's cap.
    pub cap_left: u64,
    /// The caller's cap, for the error.
    pub max_out: u64,
    /// The frame's block maximum size.
    pub block_max: usize,
}

/// One data block of a frame, as read from the input.
pub(crate) struct DataBlock<'a> {
    /// The block's bytes (compressed, or the content itself when stored).
    pub data: &'a [u8],
    /// Whether the size word's high bit marks it stored raw.
    pub stored: bool,
    /// Input offset of its size word.
    pub input_pos: u64,
    /// Its index in the frame.
    pub index: u64,
}

impl DataBlock<'_> {
    /// How many output bytes the block needs room for: a stored block its length, a compressed
    /// block up to the block maximum (capped by the caller's cap and by what it can produce).
    pub(crate) fn room(&self, target: &BlockTarget) -> Result<usize, Error> {
        let limit = usize::try_from(target.cap_left)
            .unwrap_or(usize::MAX)
            .min(target.block_max);
        if self.stored {
            if self.data.len() > limit {
                return Err(Error::FrameOutputLimit {
                    max_out: target.max_out,
                    declared: None,
                });
            }
            return Ok(self.data.len());
        }
        Ok(limit.min(self.data.len().saturating_mul(255)))
    }

    /// Decodes the block, appending its content to `out` (`out[target.history_from..]` is the
    /// history); returns the number of bytes appended.
    pub(crate) fn append_to(
        &self,
        out: &mut Vec<u8>,
        target: &BlockTarget,
    ) -> Result<usize, Error> {
        let room = self.room(target)?;
        if self.stored {
            out.extend_from_slice(self.data);
            return Ok(room);
        }
        let history_len = out.len() - target.history_from;
        block::decompress_append(self.data, out, history_len, room)
            .map_err(|error| self.error(error, target, room))
    }

    /// Decodes the block into `buf[start..]` (at most [`DataBlock::room`] bytes; whatever `buf`
    /// holds there is overwritten), with `buf[target.history_from..start]` as history. Returns
    /// the decoded length.
    pub(crate) fn decode_at(
        &self,
        buf: &mut [u8],
        start: usize,
        target: &BlockTarget,
    ) -> Result<usize, Error> {
        let room = self.room(target)?;
        if self.stored {
            buf[start..start + room].copy_from_slice(self.data);
            return Ok(room);
        }
        let window = &mut buf[target.history_from..start + room];
        block::decompress_into_with_history(self.data, window, start - target.history_from)
            .map_err(|error| self.error(error, target, room))
    }

    /// The frame-level error for a block the block decoder rejected: hitting the caller's cap is
    /// [`Error::FrameOutputLimit`], anything else a corrupt block.
    fn error(&self, error: Error, target: &BlockTarget, room: usize) -> Error {
        let overflow = matches!(
            error,
            Error::LiteralsOverflowOutput { .. } | Error::MatchOverflowsOutput { .. }
        );
        let limited_by_cap = (target.cap_left as u128) < target.block_max as u128
            && room as u128 == u128::from(target.cap_left);
        if overflow && limited_by_cap {
            Error::FrameOutputLimit {
                max_out: target.max_out,
                declared: None,
            }
        } else {
            Error::FrameBlock {
                input_pos: self.input_pos,
                block_index: self.index,
                error: Box::new(error),
            }
        }
    }
}

/// Checks a frame's content size and content checksum once its blocks are decoded.
pub(crate) fn finish_content(
    info: &FrameInfo,
    produced: u64,
    hasher: Option<Xxh32>,
    stored_checksum: Option<(u32, u64)>,
) -> Result<(), Error> {
    if let Some(declared) = info.content_size {
        if declared != produced {
            return Err(Error::FrameContentSizeMismatch {
                declared,
                actual: produced,
            });
        }
    }
    if let (Some(hasher), Some((found, input_pos))) = (hasher, stored_checksum) {
        let expected = hasher.digest();
        if expected != found {
            return Err(Error::FrameContentChecksum {
                input_pos,
                expected,
                found,
            });
        }
    }
    Ok(())
}

/// Checks the caller's dictionary against the frame's dictionary ID.
pub(crate) fn check_dictionary(info: &FrameInfo, dict: Option<(&[u8], u32)>) -> Result<(), Error> {
    match (info.dict_id, dict) {
        (Some(dict_id), None) => Err(Error::FrameMissingDictionary { dict_id }),
        (Some(frame), Some((_, supplied))) if frame != supplied => {
            Err(Error::FrameDictIdMismatch { frame, supplied })
        }
        _ => Ok(()),
    }
}

/// Decompresses every frame in `src` (LZ4 frames, legacy frames; skippable frames are skipped)
/// into one `Vec` of at most `max_out` bytes.
///
/// A frame that declares a content size above `max_out` is refused before anything is decoded,
/// and nothing is allocated beyond `max_out` (and what the input could possibly decode to).
/// Frames with a dictionary ID need [`decompress_with_dict`].
pub fn decompress(src: &[u8], max_out: usize) -> Result<Vec<u8>, Error> {
    decode_all(src, max_out, None)
}

/// [`decompress`] for frames compressed with a dictionary: `dict` is the dictionary's bytes and
/// `dict_id` its ID, checked against the ID in each frame header (a frame without an ID is
/// decoded with the dictionary as given).
pub fn decompress_with_dict(
    src: &[u8],
    dict: &[u8],
    dict_id: u32,
    max_out: usize,
) -> Result<Vec<u8>, Error> {
    decode_all(src, max_out, Some((dict, dict_id)))
}

fn decode_all(src: &[u8], max_out: usize, dict: Option<(&[u8], u32)>) -> Result<Vec<u8>, Error> {
    if src.is_empty() {
        return Err(Error::FrameTruncated {
            input_pos: 0,
            what: "a 4-byte frame magic number (the input is empty)",
        });
    }
    let dict_tail = dict.map_or(&[][..], |(bytes, _)| {
        &bytes[bytes.len().saturating_sub(MAX_HISTORY)..]
    });
    // `out` starts with the dictionary (history for linked blocks); it is removed at the end.
    let prefix = dict_tail.len();
    let mut out =
        Vec::with_capacity(prefix + max_out.min(src.len().saturating_mul(4)).min(1 << 26));
    out.extend_from_slice(dict_tail);
    let mut pos = 0usize;
    while pos < src.len() {
        let (header, header_len) = parse_header(&src[pos..], pos as u64)?;
        let produced_before = out.len() - prefix;
        match header {
            FrameHeader::Skippable { payload_len, .. } => {
                let end = (pos + header_len).saturating_add(payload_len as usize);
                if end > src.len() {
                    return Err(Error::FrameTruncated {
                        input_pos: src.len() as u64,
                        what: "the rest of a skippable frame's payload",
                    });
                }
                pos = end;
            }
            FrameHeader::Legacy => {
                pos += header_len;
                let mut block_index = 0u64;
                while let Some(word) = le32(src, pos) {
                    if is_magic(word) {
                        break;
                    }
                    let size = word as usize;
                    let word_pos = pos as u64;
                    if size > LEGACY_MAX_COMPRESSED {
                        return Err(Error::FrameBlockTooLarge {
                            input_pos: word_pos,
                            block_index,
                            size: size as u64,
                            max: LEGACY_MAX_COMPRESSED as u64,
                        });
                    }
                    let data = src
                        .get(pos + 4..pos + 4 + size)
                        .ok_or(Error::FrameTruncated {
                            input_pos: src.len() as u64,
                            what: "the rest of a legacy block",
                        })?;
                    let target = BlockTarget {
                        history_from: out.len(),
                        cap_left: (max_out - (out.len() - prefix)) as u64,
                        max_out: max_out as u64,
                        block_max: LEGACY_BLOCK_SIZE,
                    };
                    DataBlock {
                        data,
                        stored: false,
                        input_pos: word_pos,
                        index: block_index,
                    }
                    .append_to(&mut out, &target)?;
                    pos += 4 + size;
                    block_index += 1;
                }
                if pos < src.len() && pos + 4 > src.len() {
                    return Err(Error::FrameTruncated {
                        input_pos: src.len() as u64,
                        what: "a 4-byte legacy block size",
                    });
                }
            }
            FrameHeader::Lz4(info) => {
                check_dictionary(&info, dict)?;
                if let Some(declared) = info.content_size {
                    if declared > (max_out - produced_before) as u64 {
                        return Err(Error::FrameOutputLimit {
                            max_out: max_out as u64,
                            declared: Some(declared),
                        });
                    }
                    // Trust the declared size only as far as the input could produce it.
                    let plausible = (src.len() - pos).saturating_mul(255) as u64;
                    out.reserve(declared.min(plausible) as usize);
                }
                pos += header_len;
                pos = decode_frame_blocks(src, pos, &info, &mut out, prefix, max_out, dict_tail)?;
            }
        }
    }
    out.drain(..prefix);
    Ok(out)
}

/// Decodes the blocks, end mark and content checksum of the frame `info` whose first block is at
/// `src[pos..]`, appending to `out` (whose first `prefix` bytes are the dictionary). Returns the
/// position after the frame.
fn decode_frame_blocks(
    src: &[u8],
    mut pos: usize,
    info: &FrameInfo,
    out: &mut Vec<u8>,
    prefix: usize,
    max_out: usize,
    dict_tail: &[u8],
) -> Result<usize, Error> {
    let block_max = info.block_size.bytes();
    let frame_start = out.len();
    let mut hasher = info.content_checksum.then(|| Xxh32::new(0));
    // Independent blocks with a dictionary each see only the dictionary: decode them behind a
    // copy of it.
    let mut scratch = (info.block_mode == BlockMode::Independent && !dict_tail.is_empty())
        .then(|| dict_tail.to_vec());
    let mut block_index = 0u64;
    loop {
        let word_pos = pos as u64;
        let word = le32(src, pos).ok_or(Error::FrameTruncated {
            input_pos: src.len() as u64,
            what: "a 4-byte block size or the end mark",
        })?;
        pos += 4;
        let Some((size, stored)) = block_word(word, block_max, word_pos, block_index)? else {
            break;
        };
        let data = src.get(pos..pos + size).ok_or(Error::FrameTruncated {
            input_pos: src.len() as u64,
            what: "the rest of a data block",
        })?;
        pos += size;
        if info.block_checksum {
            let found = le32(src, pos).ok_or(Error::FrameTruncated {
                input_pos: src.len() as u64,
                what: "a 4-byte block checksum",
            })?;
            pos += 4;
            verify_block_checksum(data, found, word_pos, block_index)?;
        }
        let block = DataBlock {
            data,
            stored,
            input_pos: word_pos,
            index: block_index,
        };
        let cap_left = (max_out - (out.len() - prefix)) as u64;
        let appended_from = out.len();
        match scratch.as_mut() {
            Some(scratch) => {
                scratch.truncate(dict_tail.len());
                let target = BlockTarget {
                    history_from: 0,
                    cap_left,
                    max_out: max_out as u64,
                    block_max,
                };
                block.append_to(scratch, &target)?;
                out.extend_from_slice(&scratch[dict_tail.len()..]);
            }
            None => {
                let history_from = match info.block_mode {
                    BlockMode::Independent => out.len(),
                    BlockMode::Linked => out.len().saturating_sub(MAX_HISTORY),
                };
                let target = BlockTarget {
                    history_from,
                    cap_left,
                    max_out: max_out as u64,
                    block_max,
                };
                block.append_to(out, &target)?;
            }
        }
        if let Some(hasher) = hasher.as_mut() {
            hasher.update(&out[appended_from..]);
        }
        block_index += 1;
    }
    let stored_checksum = if info.content_checksum {
        let found = le32(src, pos).ok_or(Error::FrameTruncated {
            input_pos: src.len() as u64,
            what: "the 4-byte content checksum",
        })?;
        pos += 4;
        Some((found, pos as u64 - 4))
    } else {
        None
    };
    finish_content(
        info,
        (out.len() - frame_start) as u64,
        hasher,
        stored_checksum,
    )?;
    Ok(pos)
}

/// One frame of a stream, as [`frames`] finds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame<'a> {
    /// Offset of the frame in the input.
    pub offset: usize,
    /// The whole frame, header to last checksum.
    pub bytes: &'a [u8],
    /// What kind of frame it is, with its descriptor.
    pub header: FrameHeader,
}

impl<'a> Frame<'a> {
    /// The payload of a skippable frame (`None` for other frames).
    pub fn skippable_payload(&self) -> Option<&'a [u8]> {
        match self.header {
            FrameHeader::Skippable { .. } => self.bytes.get(8..),
            _ => None,
        }
    }
}

/// Iterator over the frames of a stream; see [`frames`].
#[derive(Debug, Clone)]
pub struct Frames<'a> {
    src: &'a [u8],
    pos: usize,
    failed: bool,
}

/// Splits a stream of concatenated frames (any mix of LZ4, skippable and legacy frames) into its
/// frames without decoding them: the way to reach skippable frames' payloads, or to hand frames
/// to different threads. Checks the structure (headers, block sizes, the input's length); a
/// problem ends the iteration with its error.
///
/// ```
/// use lz4_simd::frame;
/// let mut stream = frame::skippable_frame(3, b"metadata").unwrap();
/// stream.extend(frame::compress(b"payload", &frame::FrameOptions::new()));
/// let found: Vec<_> = frame::frames(&stream).collect::<Result<_, _>>().unwrap();
/// assert_eq!(found[0].skippable_payload(), Some(&b"metadata"[..]));
/// assert_eq!(frame::decompress(found[1].bytes, 100).unwrap(), b"payload");
/// ```
pub fn frames(src: &[u8]) -> Frames<'_> {
    Frames {
        src,
        pos: 0,
        failed: false,
    }
}

impl<'a> Iterator for Frames<'a> {
    type Item = Result<Frame<'a>, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed || self.pos >= self.src.len() {
            return None;
        }
        let result = frame_end(self.src, self.pos);
        match result {
            Ok((header, end)) => {
                let frame = Frame {
                    offset: self.pos,
                    bytes: &self.src[self.pos..end],
                    header,
                };
                self.pos = end;
                Some(Ok(frame))
            }
            Err(error) => {
                self.failed = true;
                Some(Err(error))
            }
        }
    }
}

/// Finds the end of the frame starting at `src[start..]`.
fn frame_end(src: &[u8], start: usize) -> Result<(FrameHeader, usize), Error> {
    let (header, header_len) = parse_header(&src[start..], start as u64)?;
    let truncated = |what| Error::FrameTruncated {
        input_pos: src.len() as u64,
        what,
    };
    let mut pos = start + header_len;
    match header {
        FrameHeader::Skippable { payload_len, .. } => {
            pos = pos.saturating_add(payload_len as usize);
            if pos > src.len() {
                return Err(truncated("the rest of a skippable frame's payload"));
            }
        }
        FrameHeader::Legacy => {
            while let Some(word) = le32(src, pos) {
                if is_magic(word) {
                    break;
                }
                if word as usize > LEGACY_MAX_COMPRESSED {
                    return Err(Error::FrameBlockTooLarge {
                        input_pos: pos as u64,
                        block_index: 0,
                        size: u64::from(word),
                        max: LEGACY_MAX_COMPRESSED as u64,
                    });
                }
                pos += 4 + word as usize;
                if pos > src.len() {
                    return Err(truncated("the rest of a legacy block"));
                }
            }
            if pos != src.len() && le32(src, pos).is_none() {
                return Err(truncated("a 4-byte legacy block size"));
            }
        }
        FrameHeader::Lz4(ref info) => {
            let block_max = info.block_size.bytes();
            let checksum_len = if info.block_checksum { 4 } else { 0 };
            let mut block_index = 0;
            loop {
                let word = le32(src, pos)
                    .ok_or_else(|| truncated("a 4-byte block size or the end mark"))?;
                let Some((size, _)) = block_word(word, block_max, pos as u64, block_index)? else {
                    pos += 4;
                    break;
                };
                pos += 4 + size + checksum_len;
                if pos > src.len() {
                    return Err(truncated("the rest of a data block"));
                }
                block_index += 1;
            }
            if info.content_checksum {
                pos += 4;
                if pos > src.len() {
                    return Err(truncated("the 4-byte content checksum"));
                }
            }
        }
    }
    Ok((header, pos))
}
