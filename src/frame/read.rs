//! [`FrameDecoder`]: frames from a `std::io::Read`, as a `Read` and `BufRead`. Memory is bounded
//! by the block size (plus 64 KiB of history for linked blocks), whatever the content size.

use std::io::{self, BufRead, Read};
use std::vec::Vec;

use xxhash_rust::xxh32::Xxh32;

use super::decode::{
    block_word, check_dictionary, finish_content, is_magic, verify_block_checksum, BlockTarget,
    DataBlock, LEGACY_MAX_COMPRESSED,
};
use super::header::{parse_header, FrameHeader, FrameInfo, MIN_HEADER_LEN};
use super::{io_error as invalid, BlockMode, LEGACY_BLOCK_SIZE, SKIPPABLE_MAGIC};
use crate::block::MAX_HISTORY;
use crate::Error;

/// Where the decoder is in the stream.
enum State {
    /// Expecting a frame magic number (or the end of the input).
    Magic,
    /// Inside an LZ4 frame, expecting a block size or the end mark.
    Blocks {
        info: FrameInfo,
        block_index: u64,
        produced: u64,
        hasher: Option<Xxh32>,
    },
    /// Inside a legacy frame.
    Legacy { block_index: u64 },
    /// The input is exhausted.
    Done,
    /// An error was returned; it is returned again.
    Failed(Error),
}

/// Decompresses a stream of concatenated frames (LZ4 and legacy; skippable frames are skipped)
/// from the inner reader.
///
/// Memory is bounded by the frames' block sizes (at most 4 MiB of compressed and 4 MiB + 64 KiB
/// of decoded data, 8 MiB for legacy frames), never by a content size. Errors come back as
/// `io::Error`s wrapping an [`Error`] (`io::Error::get_ref` / `into_inner` + `downcast`).
///
/// ```
/// use std::io::Read;
/// use lz4_simd::frame::{self, FrameDecoder, FrameOptions};
/// let framed = frame::compress(&b"abc".repeat(1000), &FrameOptions::new());
/// let mut decoded = Vec::new();
/// FrameDecoder::new(&framed[..]).read_to_end(&mut decoded).unwrap();
/// assert_eq!(decoded, b"abc".repeat(1000));
/// ```
pub struct FrameDecoder<R: Read> {
    reader: R,
    dict: Option<(Vec<u8>, u32)>,
    state: State,
    compressed: Vec<u8>,
    /// History (linked blocks, dictionary) followed by the current block's content. Kept at its
    /// largest size (stale bytes past `buf_len` are overwritten by the next block), so decoding
    /// a block costs no zero-fill.
    buf: Vec<u8>,
    /// End of the meaningful part of `buf`.
    buf_len: usize,
    out_pos: usize,
    out_end: usize,
    input_pos: u64,
    /// A magic number read while looking for the next legacy block.
    pending_magic: Option<[u8; 4]>,
    frames_seen: u64,
}

impl<R: Read> FrameDecoder<R> {
    /// A decoder reading frames from `reader`.
    pub fn new(reader: R) -> Self {
        Self {
            reader,
            dict: None,
            state: State::Magic,
            compressed: Vec::new(),
            buf: Vec::new(),
            buf_len: 0,
            out_pos: 0,
            out_end: 0,
            input_pos: 0,
            pending_magic: None,
            frames_seen: 0,
        }
    }

    /// A decoder for frames compressed with the dictionary `dict` whose ID is `dict_id` (checked
    /// against each frame's header).
    pub fn with_dictionary(reader: R, dict: &[u8], dict_id: u32) -> Self {
        let mut decoder = Self::new(reader);
        let tail = &dict[dict.len().saturating_sub(MAX_HISTORY)..];
        decoder.dict = Some((tail.to_vec(), dict_id));
        decoder
    }

    /// The descriptor of the LZ4 frame being decoded, if inside one.
    pub fn frame_info(&self) -> Option<&FrameInfo> {
        match &self.state {
            State::Blocks { info, .. } => Some(info),
            _ => None,
        }
    }

    /// The inner reader.
    pub fn get_ref(&self) -> &R {
        &self.reader
    }

    /// Gives back the inner reader (positioned wherever decoding stopped).
    pub fn into_inner(self) -> R {
        self.reader
    }

    /// Reads up to `buf.len()` bytes, stopping early only at the end of the input.
    fn read_upto(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut filled = 0;
        while filled < buf.len() {
            match self.reader.read(&mut buf[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        self.input_pos += filled as u64;
        Ok(filled)
    }

    /// Reads exactly `buf.len()` bytes; the end of the input is a truncated frame (`what`).
    fn read_exact_or(&mut self, buf: &mut [u8], what: &'static str) -> io::Result<()> {
        if self.read_upto(buf)? < buf.len() {
            return Err(invalid(Error::FrameTruncated {
                input_pos: self.input_pos,
                what,
            }));
        }
        Ok(())
    }

    fn read_word(&mut self, what: &'static str) -> io::Result<u32> {
        let mut word = [0u8; 4];
        self.read_exact_or(&mut word, what)?;
        Ok(u32::from_le_bytes(word))
    }

    /// Decodes until some content is available or the input ends. Returns `false` at the end.
    ///
    /// With `direct`, a block that needs no history is decoded straight onto the end of that
    /// `Vec` (nothing is left pending); others are decoded into `self.buf` as usual.
    fn fill(&mut self, mut direct: Option<&mut Vec<u8>>) -> io::Result<bool> {
        loop {
            match std::mem::replace(&mut self.state, State::Done) {
                State::Done => return Ok(false),
                State::Failed(error) => {
                    self.state = State::Failed(error.clone());
                    return Err(invalid(error));
                }
                State::Magic => self.start_frame()?,
                State::Blocks {
                    info,
                    block_index,
                    produced,
                    hasher,
                } => {
                    if self.next_block(
                        info,
                        block_index,
                        produced,
                        hasher,
                        direct.as_deref_mut(),
                    )? {
                        return Ok(true);
                    }
                }
                State::Legacy { block_index } => {
                    if self.next_legacy_block(block_index, direct.as_deref_mut())? {
                        return Ok(true);
                    }
                }
            }
        }
    }

    /// Reads a frame header and sets the state for its content.
    fn start_frame(&mut self) -> io::Result<()> {
        let frame_pos = self.input_pos - if self.pending_magic.is_some() { 4 } else { 0 };
        let mut header = [0u8; super::header::MAX_HEADER_LEN];
        if let Some(magic) = self.pending_magic.take() {
            header[..4].copy_from_slice(&magic);
        } else {
            let got = self.read_upto(&mut header[..4])?;
            if got == 0 {
                if self.frames_seen == 0 {
                    return Err(invalid(Error::FrameTruncated {
                        input_pos: 0,
                        what: "a 4-byte frame magic number (the input is empty)",
                    }));
                }
                self.state = State::Done;
                return Ok(());
            }
            if got < 4 {
                return Err(invalid(Error::FrameTruncated {
                    input_pos: self.input_pos,
                    what: "a 4-byte frame magic number",
                }));
            }
        }
        self.frames_seen += 1;
        let magic = u32::from_le_bytes([header[0], header[1], header[2], header[3]]);
        let len = if magic & 0xFFFF_FFF0 == SKIPPABLE_MAGIC {
            8
        } else if magic == super::MAGIC {
            // FLG and BD say how long the rest is.
            self.read_exact_or(&mut header[4..6], "the frame descriptor (FLG and BD bytes)")?;
            let flg = header[4];
            MIN_HEADER_LEN + if flg & 8 != 0 { 8 } else { 0 } + if flg & 1 != 0 { 4 } else { 0 }
        } else if magic == super::LEGACY_MAGIC {
            4
        } else {
            // Not a frame: read a little more so the error can say what the data looks like.
            let mut sample = header[..4].to_vec();
            (&mut self.reader).take(1 << 16).read_to_end(&mut sample)?;
            let error = match parse_header(&sample, frame_pos) {
                Err(error) => error,
                // Unreachable: the magic is none of the frame magics.
                Ok(_) => Error::FrameBadMagic {
                    input_pos: frame_pos,
                    found: magic.to_le_bytes(),
                    hint: "unknown data",
                },
            };
            return Err(invalid(error));
        };
        let have = if magic == super::MAGIC { 6 } else { 4 };
        // A version or reserved-bit problem is reported before reading on.
        if len > have {
            if let Err(error) = parse_header(&header[..have], frame_pos) {
                if !matches!(error, Error::FrameTruncated { .. }) {
                    return Err(invalid(error));
                }
            }
            self.read_exact_or(&mut header[have..len], "the rest of the frame header")?;
        }
        let (parsed, _) = parse_header(&header[..len], frame_pos).map_err(invalid)?;
        match parsed {
            FrameHeader::Skippable { payload_len, .. } => {
                let skipped = io::copy(
                    &mut (&mut self.reader).take(u64::from(payload_len)),
                    &mut io::sink(),
                )?;
                self.input_pos += skipped;
                if skipped < u64::from(payload_len) {
                    return Err(invalid(Error::FrameTruncated {
                        input_pos: self.input_pos,
                        what: "the rest of a skippable frame's payload",
                    }));
                }
                self.state = State::Magic;
            }
            FrameHeader::Legacy => {
                self.buf_len = 0;
                self.state = State::Legacy { block_index: 0 };
            }
            FrameHeader::Lz4(info) => {
                let dict = self.dict.as_ref().map(|(bytes, id)| (&bytes[..], *id));
                check_dictionary(&info, dict).map_err(invalid)?;
                self.buf_len = 0;
                if let Some((bytes, _)) = &self.dict {
                    self.buf.truncate(0);
                    self.buf.extend_from_slice(bytes);
                    self.buf_len = bytes.len();
                }
                self.state = State::Blocks {
                    hasher: info.content_checksum.then(|| Xxh32::new(0)),
                    info,
                    block_index: 0,
                    produced: 0,
                };
            }
        }
        Ok(())
    }

    /// Reads and decodes the next block of an LZ4 frame (or its end). Returns whether content
    /// is available.
    fn next_block(
        &mut self,
        info: FrameInfo,
        block_index: u64,
        produced: u64,
        mut hasher: Option<Xxh32>,
        direct: Option<&mut Vec<u8>>,
    ) -> io::Result<bool> {
        let word_pos = self.input_pos;
        let block_max = info.block_size.bytes();
        let word = self.read_word("a 4-byte block size or the end mark")?;
        let Some((size, stored)) =
            block_word(word, block_max, word_pos, block_index).map_err(invalid)?
        else {
            let stored_checksum = if info.content_checksum {
                let found = self.read_word("the 4-byte content checksum")?;
                Some((found, self.input_pos - 4))
            } else {
                None
            };
            finish_content(&info, produced, hasher, stored_checksum).map_err(invalid)?;
            self.state = State::Magic;
            return Ok(false);
        };
        let mut compressed = std::mem::take(&mut self.compressed);
        compressed.resize(size, 0);
        let result = self.read_exact_or(&mut compressed, "the rest of a data block");
        self.compressed = compressed;
        result?;
        if info.block_checksum {
            let found = self.read_word("a 4-byte block checksum")?;
            verify_block_checksum(&self.compressed, found, word_pos, block_index)
                .map_err(invalid)?;
        }
        // Keep only the history this block may use.
        let dict_len = self.dict.as_ref().map_or(0, |(bytes, _)| bytes.len());
        let start = match info.block_mode {
            BlockMode::Independent => dict_len,
            BlockMode::Linked => {
                let excess = self.buf_len.saturating_sub(MAX_HISTORY);
                self.buf.copy_within(excess..self.buf_len, 0);
                self.buf_len - excess
            }
        };
        let target = BlockTarget {
            history_from: 0,
            cap_left: u64::MAX,
            max_out: u64::MAX,
            block_max,
        };
        // Linked blocks keep their content in `self.buf` as the next block's history.
        let direct = direct.filter(|_| info.block_mode == BlockMode::Independent);
        let len = self.decode_block(
            start,
            &target,
            stored,
            word_pos,
            block_index,
            hasher.as_mut(),
            direct,
        )?;
        self.state = State::Blocks {
            produced: produced + len as u64,
            info,
            block_index: block_index + 1,
            hasher,
        };
        Ok(len > 0)
    }

    /// Reads and decodes the next block of a legacy frame, or notices the frame's end.
    fn next_legacy_block(
        &mut self,
        block_index: u64,
        direct: Option<&mut Vec<u8>>,
    ) -> io::Result<bool> {
        let word_pos = self.input_pos;
        let mut word = [0u8; 4];
        match self.read_upto(&mut word)? {
            0 => {
                self.state = State::Done;
                return Ok(false);
            }
            4 => {}
            _ => {
                return Err(invalid(Error::FrameTruncated {
                    input_pos: self.input_pos,
                    what: "a 4-byte legacy block size",
                }))
            }
        }
        let size = u32::from_le_bytes(word);
        if is_magic(size) {
            self.pending_magic = Some(word);
            self.state = State::Magic;
            return Ok(false);
        }
        let size = size as usize;
        if size > LEGACY_MAX_COMPRESSED {
            return Err(invalid(Error::FrameBlockTooLarge {
                input_pos: word_pos,
                block_index,
                size: size as u64,
                max: LEGACY_MAX_COMPRESSED as u64,
            }));
        }
        let mut compressed = std::mem::take(&mut self.compressed);
        compressed.resize(size, 0);
        let result = self.read_exact_or(&mut compressed, "the rest of a legacy block");
        self.compressed = compressed;
        result?;
        let target = BlockTarget {
            history_from: 0,
            cap_left: u64::MAX,
            max_out: u64::MAX,
            block_max: LEGACY_BLOCK_SIZE,
        };
        let len = self.decode_block(0, &target, false, word_pos, block_index, None, direct)?;
        self.state = State::Legacy {
            block_index: block_index + 1,
        };
        Ok(len > 0)
    }

    /// Decodes the block in `self.compressed` and feeds its content to `hasher`: onto the end of
    /// `direct` when given and the block has no history (`start == 0`), else into
    /// `self.buf[start..]` (grown once to hold it), setting the readable range. Returns the
    /// decoded length.
    #[allow(clippy::too_many_arguments)]
    fn decode_block(
        &mut self,
        start: usize,
        target: &BlockTarget,
        stored: bool,
        word_pos: u64,
        block_index: u64,
        hasher: Option<&mut Xxh32>,
        direct: Option<&mut Vec<u8>>,
    ) -> io::Result<usize> {
        let block = DataBlock {
            data: &self.compressed,
            stored,
            input_pos: word_pos,
            index: block_index,
        };
        if let (Some(out), 0) = (direct, start) {
            let from = out.len();
            let direct_target = BlockTarget {
                history_from: from,
                ..*target
            };
            let len = block.append_to(out, &direct_target).map_err(invalid)?;
            if let Some(hasher) = hasher {
                hasher.update(&out[from..]);
            }
            self.out_pos = 0;
            self.out_end = 0;
            self.buf_len = 0;
            return Ok(len);
        }
        let room = block.room(target).map_err(invalid)?;
        if self.buf.len() < start + room {
            self.buf.resize(start + room, 0);
        }
        let len = block
            .decode_at(&mut self.buf, start, target)
            .map_err(invalid)?;
        if let Some(hasher) = hasher {
            hasher.update(&self.buf[start..start + len]);
        }
        self.out_pos = start;
        self.out_end = start + len;
        self.buf_len = self.out_end;
        Ok(len)
    }

    fn fill_or_fail(&mut self, direct: Option<&mut Vec<u8>>) -> io::Result<bool> {
        match self.fill(direct) {
            Ok(more) => Ok(more),
            Err(error) => {
                if let Some(inner) = error.get_ref().and_then(|e| e.downcast_ref::<Error>()) {
                    self.state = State::Failed(inner.clone());
                }
                Err(error)
            }
        }
    }
}

impl<R: Read> Read for FrameDecoder<R> {
    /// Decodes blocks that need no history (independent blocks without a dictionary, legacy
    /// blocks) straight onto the end of `buf`, without the copy `read` makes.
    fn read_to_end(&mut self, buf: &mut Vec<u8>) -> io::Result<usize> {
        let start = buf.len();
        loop {
            buf.extend_from_slice(&self.buf[self.out_pos..self.out_end]);
            self.out_pos = self.out_end;
            if !self.fill_or_fail(Some(buf))? {
                return Ok(buf.len() - start);
            }
        }
    }

    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if out.is_empty() {
            return Ok(0);
        }
        let available = self.fill_buf()?;
        let n = available.len().min(out.len());
        out[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: Read> BufRead for FrameDecoder<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.out_pos == self.out_end {
            if !self.fill_or_fail(None)? {
                return Ok(&[]);
            }
        }
        Ok(&self.buf[self.out_pos..self.out_end])
    }

    fn consume(&mut self, amount: usize) {
        self.out_pos = (self.out_pos + amount).min(self.out_end);
    }
}

impl<R: Read> core::fmt::Debug for FrameDecoder<R> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("FrameDecoder")
            .field("input_pos", &self.input_pos)
            .field("frame_info", &self.frame_info())
            .finish_non_exhaustive()
    }
}
