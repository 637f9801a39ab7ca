//! One-shot frame decoding (the [`FrameParser`] fed slices of the input, decoding into one
//! `Vec`) and the frame splitter.

use alloc::vec::Vec;

use super::codec::{
    block_content_bound, block_word, is_magic, reserve_exact, BlockJob, BlockTarget, DictRule,
    FrameParser, History, Sink, Step, LEGACY_MAX_COMPRESSED,
};
use super::header::{le32, parse_header, FrameHeader, FrameInfo};
use super::LEGACY_BLOCK_SIZE;
use crate::block::MAX_HISTORY;
use crate::Error;

/// Decompresses every frame in `src` (LZ4 frames, legacy frames; skippable frames are skipped)
/// into one `Vec` of at most `max_out` bytes.
///
/// A frame that declares a content size above `max_out` is refused before anything is decoded.
/// Nothing is allocated beyond `max_out` (plus 256 KiB with a dictionary) and what the input's
/// blocks could possibly decode to, and the returned `Vec`'s capacity is at most `max_out`.
/// Each frame is decoded on its own: a linked block may reference earlier blocks of its frame
/// (and the dictionary), never an earlier frame. Frames with a dictionary ID need
/// [`decompress_with_dictionary`].
///
/// # Examples
///
/// ```
/// use lz4_simd::frame::{self, FrameOptions};
/// let data = b"frame frame frame frame ".repeat(100);
/// let framed = frame::compress(&data, &FrameOptions::default());
/// // `max_out` caps the output (and the memory): the frame's content must fit.
/// assert_eq!(frame::decompress(&framed, 1 << 20)?, data);
/// assert!(frame::decompress(&framed, 100).is_err());
/// // Concatenated frames decode as one stream.
/// let two = [framed.clone(), framed].concat();
/// assert_eq!(frame::decompress(&two, 1 << 20)?.len(), 2 * data.len());
/// # Ok::<(), lz4_simd::Error>(())
/// ```
pub fn decompress(src: &[u8], max_out: usize) -> Result<Vec<u8>, Error> {
    decode_all(src, max_out, &[], DictRule::None, false)
}

/// [`decompress`] with the kernel option of
/// [`FrameDecompressor::kernel_trailer`](super::FrameDecompressor::kernel_trailer): a legacy
/// frame may end with a kernel image's size trailer or with zero padding, as the Linux kernel
/// reads them (the one-shot form behind `container::linux::decompress`).
#[cfg(feature = "containers")]
pub(crate) fn decompress_kernel(src: &[u8], max_out: usize) -> Result<Vec<u8>, Error> {
    decode_all(src, max_out, &[], DictRule::None, true)
}

/// [`decompress`] for frames compressed with a dictionary: `dict` is the dictionary's bytes and
/// `dict_id` its ID, checked against the ID in each frame header (a frame without an ID is
/// decoded with the dictionary as given). Every frame starts from the dictionary.
pub fn decompress_with_dictionary(
    src: &[u8],
    dict: &[u8],
    dict_id: u32,
    max_out: usize,
) -> Result<Vec<u8>, Error> {
    decode_all(src, max_out, dict, DictRule::Id(dict_id), false)
}

/// [`decompress_with_dictionary`] for frames whose dictionary ID is not checked: `dict` serves
/// every frame, whatever ID (or none) its header names, as the `lz4` command's `-D` does. For
/// streams whose frames name IDs that the application does not track; a wrong dictionary then
/// shows as a checksum error or wrong output, not as an ID mismatch.
pub fn decompress_with_any_dictionary(
    src: &[u8],
    dict: &[u8],
    max_out: usize,
) -> Result<Vec<u8>, Error> {
    decode_all(src, max_out, dict, DictRule::AnyId, false)
}

fn decode_all(
    src: &[u8],
    max_out: usize,
    dict: &[u8],
    rule: DictRule,
    kernel: bool,
) -> Result<Vec<u8>, Error> {
    let dict_tail = &dict[dict.len().saturating_sub(MAX_HISTORY)..];
    let mut parser = FrameParser::new(rule);
    parser.set_legacy_trailer(kernel);
    let mut sink = VecSink::new(dict_tail, max_out, stream_content_bound(src))?;
    let mut rest = src;
    loop {
        rest = &rest[parser.skip_padding(rest)..];
        let take = parser.need().min(rest.len());
        let (unit, after) = rest.split_at(take);
        if parser.process(unit, &mut sink)? == Step::End {
            break;
        }
        rest = after;
    }
    Ok(sink.into_content())
}

/// The one-shot decoder's sink: the content of every frame, one after the other, in one `Vec`
/// (after the dictionary, while the content is too short to hold a block's history). Blocks are
/// decoded straight into its spare capacity, with their history in front of them.
///
/// Its capacity is reserved once, for what the input's blocks can decode to (their stored
/// sizes, block maximum sizes, declared content sizes) but never beyond the caller's cap; it
/// grows again only for frames that lie about their content size.
struct VecSink<'d> {
    out: Vec<u8>,
    /// `out[..prefix]` is the dictionary, the history of the first blocks; it is removed once the
    /// content itself can hold a block's history (64 KiB).
    prefix: usize,
    /// The last 64 KiB of the dictionary.
    dict: &'d [u8],
    max_out: usize,
    /// A small block whose history includes the dictionary is decoded here behind its history
    /// and copied into place; for a large one, the content that the dictionary covers while it
    /// decodes is kept here meanwhile. At most 64 KiB of history and 128 KiB of block.
    scratch: Vec<u8>,
    /// `scratch` starts with the whole dictionary (as independent blocks need it).
    scratch_is_dict: bool,
}

impl<'d> VecSink<'d> {
    fn new(dict: &'d [u8], max_out: usize, content_bound: u64) -> Result<Self, Error> {
        let mut out = Vec::new();
        let content = usize::try_from(content_bound)
            .unwrap_or(usize::MAX)
            .min(max_out);
        if out
            .try_reserve_exact(dict.len().saturating_add(content))
            .is_err()
        {
            // A bound too large to reserve at once (flushed blocks of highly compressible data
            // on a 32-bit target): grow as blocks come instead.
            reserve_exact(&mut out, dict.len())?;
        }
        out.extend_from_slice(dict);
        Ok(Self {
            out,
            prefix: dict.len(),
            dict,
            max_out,
            scratch: Vec::new(),
            scratch_is_dict: false,
        })
    }

    fn produced(&self) -> usize {
        self.out.len() - self.prefix
    }

    /// Makes room for `extra` more bytes: growing geometrically (so a `Vec` that must grow does
    /// not grow block by block), but never past what the cap allows.
    fn reserve(&mut self, extra: usize) -> Result<(), Error> {
        let len = self.out.len();
        if self.out.capacity() - len >= extra {
            return Ok(());
        }
        let limit = self.prefix.saturating_add(self.max_out);
        let wanted = self
            .out
            .capacity()
            .saturating_mul(2)
            .min(limit)
            .max(len + extra);
        if self.out.try_reserve_exact(wanted - len).is_err() {
            reserve_exact(&mut self.out, extra)?;
        }
        Ok(())
    }

    /// Decodes the compressed block of `job` into at most `room` bytes after the content, with
    /// its history in front of it. Returns the block decoder's error.
    fn decode_compressed(&mut self, job: &BlockJob<'_>, room: usize) -> Result<usize, Error> {
        self.reserve(room)?;
        // The history: `from_content` bytes of the frame's own content (already in place in
        // `out`), after `from_dict` bytes of the dictionary.
        let (from_content, from_dict) = match job.history {
            History::None => (0, 0),
            History::Dict => (0, self.dict.len()),
            History::Linked => {
                let from_content = usize::try_from(job.frame_produced)
                    .unwrap_or(usize::MAX)
                    .min(MAX_HISTORY);
                (
                    from_content,
                    self.dict.len().min(MAX_HISTORY - from_content),
                )
            }
        };
        let history_len = from_content + from_dict;
        let len = self.out.len();
        let dict_at = len - from_content;
        if from_dict == 0 || dict_at == self.prefix {
            // The history is already in place (for the first frame's first blocks it is the
            // dictionary at the front).
            return job.block.append_to(&mut self.out, history_len, room);
        }
        let dict: &'d [u8] = self.dict;
        let dict_part = &dict[dict.len() - from_dict..];
        if room <= 2 * from_dict {
            // Small block: decode it behind a copy of its history (independent blocks reuse the
            // dictionary already there) and copy it into place: one copy of the block, as many
            // bytes as laying the dictionary over the content would move.
            if !(from_content == 0 && from_dict == dict.len() && self.scratch_is_dict) {
                self.scratch.clear();
                reserve_exact(&mut self.scratch, history_len + room)?;
                self.scratch.extend_from_slice(dict_part);
                self.scratch.extend_from_slice(&self.out[dict_at..len]);
                self.scratch_is_dict = from_content == 0 && from_dict == dict.len();
            }
            self.scratch.truncate(history_len);
            reserve_exact(&mut self.scratch, room)?;
            let decoded = job.block.append_to(&mut self.scratch, history_len, room)?;
            self.out.extend_from_slice(&self.scratch[history_len..]);
            return Ok(decoded);
        }
        // Large block: lay the dictionary over the content before the frame's own history for
        // the time of the decode (`dict_at >= from_dict`: `out` holds the dictionary prefix or
        // at least 64 KiB of content), keeping that content in `scratch` meanwhile.
        let covered = dict_at - from_dict..dict_at;
        self.scratch.clear();
        self.scratch_is_dict = false;
        reserve_exact(&mut self.scratch, from_dict)?;
        self.scratch.extend_from_slice(&self.out[covered.clone()]);
        self.out[covered.clone()].copy_from_slice(dict_part);
        let result = job.block.append_to(&mut self.out, history_len, room);
        self.out[covered].copy_from_slice(&self.scratch);
        result
    }

    /// The content: without the dictionary, its capacity within the cap and not much above its
    /// length.
    fn into_content(mut self) -> Vec<u8> {
        self.out.drain(..self.prefix);
        let len = self.out.len();
        if self.out.capacity() > self.max_out || self.out.capacity() - len > len / 4 + 4096 {
            self.out.shrink_to_fit();
        }
        self.out
    }
}

impl Sink for VecSink<'_> {
    fn begin_frame(&mut self, info: &FrameInfo) -> Result<(), Error> {
        match info.content_size {
            Some(declared) if declared > (self.max_out - self.produced()) as u64 => {
                Err(Error::FrameOutputLimit {
                    max_out: self.max_out as u64,
                    declared: Some(declared),
                })
            }
            _ => Ok(()),
        }
    }

    fn decode(&mut self, job: &BlockJob<'_>) -> Result<&[u8], Error> {
        if self.prefix > 0 && self.produced() >= MAX_HISTORY {
            // The content now holds any block's history: drop the dictionary from the front
            // (one move of at most 64 KiB and a block).
            self.out.drain(..self.prefix);
            self.prefix = 0;
        }
        let target = BlockTarget {
            cap_left: (self.max_out - self.produced()) as u64,
            max_out: self.max_out as u64,
            block_max: job.block_max,
        };
        let room = job.block.room(&target)?;
        let from = self.out.len();
        if job.block.stored {
            self.reserve(room)?;
            self.out.extend_from_slice(job.block.data);
            return Ok(&self.out[from..]);
        }
        // An honest frame's blocks produce no more than its declared size: asking for no more
        // room keeps the last block within the reservation. A block that produces more is
        // decoded again with its full room, for the verdict the streaming decoder gives.
        let declared_left = job.declared_left.map_or(usize::MAX, |left| {
            usize::try_from(left).unwrap_or(usize::MAX)
        });
        let result = match self.decode_compressed(job, room.min(declared_left)) {
            Err(error) if declared_left < room && error.is_output_overflow() => {
                self.decode_compressed(job, room)
            }
            result => result,
        };
        result.map_err(|error| job.block.error(error, &target, room))?;
        Ok(&self.out[from..])
    }
}

/// An upper bound of the content the frames in `src` can decode to, found by walking their
/// block size words (up to the first structural problem, where decoding stops too).
pub(crate) fn stream_content_bound(src: &[u8]) -> u64 {
    let mut bound = 0u64;
    let mut pos = 0;
    while pos < src.len() {
        match frame_end(src, pos, &mut bound) {
            Ok((_, end)) => pos = end,
            Err(_) => break,
        }
    }
    bound
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
        let result = frame_end(self.src, self.pos, &mut 0);
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

/// Finds the end of the frame starting at `src[start..]`, adding to `content_bound` the most
/// content its blocks can decode to (as far as they are well formed).
fn frame_end(
    src: &[u8],
    start: usize,
    content_bound: &mut u64,
) -> Result<(FrameHeader, usize), Error> {
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
                *content_bound = content_bound.saturating_add(block_content_bound(
                    word as usize,
                    false,
                    LEGACY_BLOCK_SIZE,
                ) as u64);
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
            // An honest frame decodes to no more than its declared size.
            let mut frame_bound = 0u64;
            let declared = info.content_size.unwrap_or(u64::MAX);
            let result = loop {
                let Some(word) = le32(src, pos) else {
                    break Err(truncated("a 4-byte block size or the end mark"));
                };
                let (size, stored) = match block_word(word, block_max, pos as u64, block_index) {
                    Ok(Some(block)) => block,
                    Ok(None) => {
                        pos += 4;
                        break Ok(());
                    }
                    Err(error) => break Err(error),
                };
                frame_bound =
                    frame_bound.saturating_add(block_content_bound(size, stored, block_max) as u64);
                pos += 4 + size + checksum_len;
                if pos > src.len() {
                    break Err(truncated("the rest of a data block"));
                }
                block_index += 1;
            };
            *content_bound = content_bound.saturating_add(frame_bound.min(declared));
            result?;
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
