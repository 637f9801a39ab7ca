//! [`FrameDecoder`]: frames from a `std::io::Read`, as a `Read` and `BufRead`. Memory is bounded
//! by the block size (plus 64 KiB of history for linked blocks), whatever the content size.

use std::io::{self, BufRead, Read};
use std::vec::Vec;

use super::codec::{reserve_exact, BlockJob, BlockTarget, FrameParser, History, Sink, Step};
use super::header::FrameInfo;
use super::io_error;
use crate::block::MAX_HISTORY;
use crate::Error;

/// Decompresses a stream of concatenated frames (LZ4 and legacy; skippable frames are skipped)
/// from the inner reader.
///
/// Memory is bounded by the frames' block sizes (at most 4 MiB of compressed and 4 MiB + 64 KiB
/// of decoded data, 8 MiB for legacy frames), never by a content size. Errors in the data come
/// back as `io::Error`s wrapping an [`Error`] (`io::Error::get_ref` / `into_inner` +
/// `downcast`); once one is returned, every later call returns it again.
///
/// An error of the inner reader is returned as it is, and decoding resumes exactly where it
/// stopped on the next call (a partly read header or block is kept): a non-blocking source's
/// `WouldBlock`, a `TimedOut` or any other error loses no byte and repeats none. `Interrupted`
/// is retried at once. The decoder reports the end of the stream (`Ok(0)`) only when the input
/// ends between frames (or after a legacy block) and every check of the last frame passed; when
/// the input ends inside a frame, that is an error ([`Error::FrameTruncated`]). A reader that
/// delivers more input after its end continues the stream.
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
    parser: FrameParser,
    /// The unit the parser needs next is read into `unit[..parser.need()]`; `unit[..unit_len]`
    /// holds what was read of it so far (kept when the reader fails). Kept at its largest
    /// length, so reading a unit costs no zero-fill.
    unit: Vec<u8>,
    unit_len: usize,
    output: Output,
}

/// Decoded content waiting to be read, and the history of the next block.
pub(crate) struct Output {
    /// The last 64 KiB of the dictionary.
    dict: Vec<u8>,
    /// History (linked blocks, dictionary) followed by the current block's content. Kept at its
    /// largest size (stale bytes past `buf_len` are overwritten by the next block), so decoding
    /// a block costs no zero-fill.
    buf: Vec<u8>,
    /// End of the meaningful part of `buf`.
    buf_len: usize,
    /// `buf[out_pos..out_end]` is content not yet read.
    out_pos: usize,
    out_end: usize,
    /// Whether `buf` starts with the dictionary.
    dict_in_front: bool,
}

impl Output {
    /// Empty buffers; `dict` is the last 64 KiB of the dictionary.
    pub(crate) fn new(dict: Vec<u8>) -> Self {
        Self {
            dict,
            buf: Vec::new(),
            buf_len: 0,
            out_pos: 0,
            out_end: 0,
            dict_in_front: false,
        }
    }

    #[cfg(feature = "parallel")]
    /// Content decoded and not read yet.
    pub(crate) fn unread(&self) -> &[u8] {
        &self.buf[self.out_pos..self.out_end]
    }

    #[cfg(feature = "parallel")]
    /// Marks `amount` bytes of [`unread`](Self::unread) as read.
    pub(crate) fn consume(&mut self, amount: usize) {
        self.out_pos = (self.out_pos + amount).min(self.out_end);
    }

    /// Grows `buf` to at least `len` bytes.
    fn grow(&mut self, len: usize) -> Result<(), Error> {
        if self.buf.len() < len {
            let extra = len - self.buf.len();
            reserve_exact(&mut self.buf, extra)?;
            self.buf.resize(len, 0);
        }
        Ok(())
    }

    /// Puts the dictionary at the front of `buf` (if it is not there) and returns its length.
    fn dict_in_front(&mut self) -> Result<usize, Error> {
        let dict_len = self.dict.len();
        if !self.dict_in_front {
            self.grow(dict_len)?;
            self.buf[..dict_len].copy_from_slice(&self.dict);
            self.dict_in_front = true;
        }
        Ok(dict_len)
    }

    /// Decodes the block into `buf`, behind its history.
    fn decode(
        &mut self,
        job: &BlockJob<'_>,
        target: &BlockTarget,
        room: usize,
    ) -> Result<&[u8], Error> {
        let start = match job.history {
            History::None => {
                self.dict_in_front &= self.dict.is_empty();
                0
            }
            History::Dict => self.dict_in_front()?,
            History::Linked if job.frame_produced == 0 => self.dict_in_front()?,
            History::Linked => {
                // `buf[..buf_len]` is the dictionary and this frame's content: keep the last
                // 64 KiB of it.
                let excess = self.buf_len.saturating_sub(MAX_HISTORY);
                if excess > 0 {
                    self.buf.copy_within(excess..self.buf_len, 0);
                    self.dict_in_front = false;
                }
                self.buf_len - excess
            }
        };
        self.grow(start + room)?;
        let len = job.block.decode_at(&mut self.buf, start, room, target)?;
        self.out_pos = start;
        self.out_end = start + len;
        self.buf_len = self.out_end;
        Ok(&self.buf[start..self.out_end])
    }
}

/// The streaming decoder's sink: blocks that need no history go straight onto the end of the
/// caller's `Vec` when `read_to_end` gives one with room for them; others are decoded into the
/// decoder's buffer.
pub(crate) struct StreamSink<'a> {
    pub(crate) output: &'a mut Output,
    pub(crate) direct: Option<&'a mut Vec<u8>>,
}

impl Sink for StreamSink<'_> {
    fn decode(&mut self, job: &BlockJob<'_>) -> Result<&[u8], Error> {
        let target = BlockTarget::uncapped(job.block_max);
        let room = job.block.room(&target)?;
        if let (History::None, Some(out)) = (job.history, self.direct.as_deref_mut()) {
            // Only into room the `Vec` already has: a `Vec` sized for the content is not
            // doubled for the last block's worst case.
            if out.capacity() - out.len() >= room {
                let from = out.len();
                job.block
                    .append_to(out, 0, room)
                    .map_err(|error| job.block.error(error, &target, room))?;
                self.output.out_pos = 0;
                self.output.out_end = 0;
                return Ok(&out[from..]);
            }
        }
        self.output.decode(job, &target, room)
    }
}

impl<R: Read> FrameDecoder<R> {
    /// A decoder reading frames from `reader`.
    pub fn new(reader: R) -> Self {
        Self::with_parts(reader, FrameParser::new(None), Vec::new())
    }

    /// A decoder for frames compressed with the dictionary `dict` whose ID is `dict_id` (checked
    /// against each frame's header).
    pub fn with_dictionary(reader: R, dict: &[u8], dict_id: u32) -> Self {
        let tail = &dict[dict.len().saturating_sub(MAX_HISTORY)..];
        Self::with_parts(reader, FrameParser::new(Some(dict_id)), tail.to_vec())
    }

    fn with_parts(reader: R, parser: FrameParser, dict: Vec<u8>) -> Self {
        Self {
            reader,
            parser,
            unit: Vec::new(),
            unit_len: 0,
            output: Output::new(dict),
        }
    }

    /// The descriptor of the LZ4 frame being decoded, if inside one.
    pub fn frame_info(&self) -> Option<&FrameInfo> {
        self.parser.frame_info()
    }

    /// The inner reader.
    pub fn get_ref(&self) -> &R {
        &self.reader
    }

    /// Gives back the inner reader (positioned wherever decoding stopped; input the decoder
    /// read but did not decode yet is lost with the decoder).
    pub fn into_inner(self) -> R {
        self.reader
    }

    /// Hands the parser the first `len` bytes of `unit` (the whole unit, or what the input held
    /// of it before it ended).
    fn process_unit(&mut self, len: usize, direct: Option<&mut Vec<u8>>) -> io::Result<Step> {
        let mut sink = StreamSink {
            output: &mut self.output,
            direct,
        };
        let result = self.parser.process(&self.unit[..len], &mut sink);
        self.unit_len = 0;
        result.map_err(io_error)
    }

    /// Decodes until some content is available or the input ends. Returns `false` at the end.
    ///
    /// With `direct`, a block that needs no history may be decoded straight onto the end of
    /// that `Vec` (nothing is left pending); others are decoded into the decoder's buffer.
    fn fill(&mut self, mut direct: Option<&mut Vec<u8>>) -> io::Result<bool> {
        loop {
            if let Some(error) = self.parser.failure() {
                return Err(io_error(error.clone()));
            }
            let need = self.parser.need();
            if self.unit_len == need {
                match self.process_unit(need, direct.as_deref_mut())? {
                    Step::Output(len) if len > 0 => return Ok(true),
                    Step::End => return Ok(false),
                    _ => continue,
                }
            }
            if self.unit.len() < need {
                let extra = need - self.unit.len();
                reserve_exact(&mut self.unit, extra).map_err(io_error)?;
                self.unit.resize(need, 0);
            }
            match self.reader.read(&mut self.unit[self.unit_len..need]) {
                Ok(0) => {
                    // The input ended: between frames that is the end of the stream, inside one
                    // an error.
                    match self.process_unit(self.unit_len, direct.as_deref_mut())? {
                        Step::End => return Ok(false),
                        _ => continue,
                    }
                }
                Ok(read) if read <= need - self.unit_len => self.unit_len += read,
                Ok(_) => {
                    let error = self.parser.fail(Error::InvalidArgument {
                        what: "the inner reader reported reading more bytes than it was asked for",
                    });
                    return Err(io_error(error));
                }
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                // Nothing is lost: the bytes read so far stay in `unit`, and the next call
                // continues reading where this one stopped.
                Err(error) => return Err(error),
            }
        }
    }
}

impl<R: Read> Read for FrameDecoder<R> {
    /// Decodes blocks that need no history (independent blocks without a dictionary, legacy
    /// blocks) straight onto the end of `buf` when it has the room, without the copy `read`
    /// makes. As `Read::read_to_end` promises, content decoded before an error stays appended.
    fn read_to_end(&mut self, buf: &mut Vec<u8>) -> io::Result<usize> {
        let start = buf.len();
        loop {
            let pending = &self.output.buf[self.output.out_pos..self.output.out_end];
            buf.try_reserve(pending.len()).map_err(|_| {
                io_error(Error::AllocationFailed {
                    bytes: buf.len().saturating_add(pending.len()),
                })
            })?;
            buf.extend_from_slice(pending);
            self.output.out_pos = self.output.out_end;
            if !self.fill(Some(buf))? {
                return Ok(buf.len() - start);
            }
        }
    }

    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        read_buffered(self, out)
    }
}

/// `Read::read` for a `BufRead`: a copy of what `fill_buf` holds.
pub(crate) fn read_buffered(reader: &mut impl BufRead, out: &mut [u8]) -> io::Result<usize> {
    if out.is_empty() {
        return Ok(0);
    }
    let available = reader.fill_buf()?;
    let n = available.len().min(out.len());
    out[..n].copy_from_slice(&available[..n]);
    reader.consume(n);
    Ok(n)
}

impl<R: Read> BufRead for FrameDecoder<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.output.out_pos == self.output.out_end {
            if !self.fill(None)? {
                return Ok(&[]);
            }
        }
        Ok(&self.output.buf[self.output.out_pos..self.output.out_end])
    }

    fn consume(&mut self, amount: usize) {
        self.output.out_pos = (self.output.out_pos + amount).min(self.output.out_end);
    }
}

impl<R: Read> core::fmt::Debug for FrameDecoder<R> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("FrameDecoder")
            .field(
                "input_pos",
                &(self.parser.input_pos() + self.unit_len as u64),
            )
            .field("frame_info", &self.frame_info())
            .field("failure", &self.parser.failure())
            .finish_non_exhaustive()
    }
}
