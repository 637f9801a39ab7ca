//! [`FrameDecoder`]: frames from a `std::io::Read`, as a `Read` and `BufRead`. Memory is bounded
//! by the block size (plus 64 KiB of history for linked blocks), whatever the content size.

use std::io::{self, BufRead, Read};
use std::vec::Vec;

use super::codec::Step;
use super::decompressor::FrameDecompressor;
use super::header::FrameInfo;
use super::io_error;
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
/// # Examples
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
    /// The frame logic (the sans-IO decompressor); input units are read into its buffer.
    inner: FrameDecompressor,
}

impl<R: Read> FrameDecoder<R> {
    /// A decoder reading frames from `reader`.
    pub fn new(reader: R) -> Self {
        Self::with_decompressor(reader, FrameDecompressor::new())
    }

    /// A decoder for frames compressed with the dictionary `dict` whose ID is `dict_id` (checked
    /// against each frame's header).
    pub fn with_dictionary(reader: R, dict: &[u8], dict_id: u32) -> Self {
        Self::with_decompressor(reader, FrameDecompressor::with_dictionary(dict, dict_id))
    }

    /// A decoder whose dictionary `dict` serves every frame, whatever dictionary ID (or none)
    /// its header names: IDs are not checked, as the `lz4` command's `-D` does not check them
    /// (see [`decompress_with_any_dictionary`](super::decompress_with_any_dictionary)).
    pub fn with_any_dictionary(reader: R, dict: &[u8]) -> Self {
        Self::with_decompressor(reader, FrameDecompressor::with_any_dictionary(dict))
    }

    /// A decoder reading from `reader` with the settings of `decompressor` (a dictionary,
    /// single-frame mode, checksums not verified), which must not have been used yet.
    ///
    /// ```
    /// use std::io::Read;
    /// use lz4_simd::frame::{self, FrameDecoder, FrameDecompressor, FrameOptions};
    /// // A frame embedded in other data: decode it, then read what follows it.
    /// let mut data = frame::compress(b"the frame", &FrameOptions::new());
    /// data.extend_from_slice(b"what follows");
    /// let single = FrameDecompressor::new().single_frame(true);
    /// let mut decoder = FrameDecoder::with_decompressor(&data[..], single);
    /// let mut content = Vec::new();
    /// decoder.read_to_end(&mut content).unwrap();
    /// assert_eq!(content, b"the frame");
    /// let (rest, read_ahead) = decoder.into_parts();
    /// assert_eq!(read_ahead, b"");
    /// assert_eq!(rest, b"what follows");
    /// ```
    pub fn with_decompressor(reader: R, decompressor: FrameDecompressor) -> Self {
        Self {
            reader,
            inner: decompressor,
        }
    }

    /// The descriptor of the LZ4 frame being decoded, if inside one.
    pub fn frame_info(&self) -> Option<&FrameInfo> {
        self.inner.frame_info()
    }

    /// The inner reader.
    pub fn get_ref(&self) -> &R {
        &self.reader
    }

    /// The inner reader, mutably (reading from it directly skips input the decoder would have
    /// read).
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.reader
    }

    /// Gives back the inner reader, positioned wherever decoding stopped: the decoder reads
    /// exactly the units it decodes, so after a single frame ([`FrameDecompressor::single_frame`])
    /// the reader is right after it. Input read but not decoded yet (a partly read unit), and a
    /// legacy frame's read-ahead magic number, are lost with the decoder: see
    /// [`into_parts`](Self::into_parts).
    pub fn into_inner(self) -> R {
        self.reader
    }

    /// Gives back the inner reader and the bytes the decoder read from it but did not use: the
    /// 4 bytes of the magic number that ended a legacy frame in single-frame mode, or a partly
    /// read unit. Reading these, then the reader, gives the input after what was decoded.
    pub fn into_parts(self) -> (R, Vec<u8>) {
        let unused = self.inner.unused_input();
        (self.reader, unused)
    }

    /// Decodes until some content is available or the input ends. Returns `false` at the end
    /// (of the stream, or of the single frame).
    ///
    /// With `direct`, a block that needs no history may be decoded straight onto the end of
    /// that `Vec` (nothing is left pending); others are decoded into the decompressor's buffer.
    fn fill(&mut self, mut direct: Option<&mut Vec<u8>>) -> io::Result<bool> {
        loop {
            if self.inner.parser.is_done() {
                return Ok(false);
            }
            if self.inner.unit_complete() {
                let need = self.inner.parser.need();
                match self
                    .inner
                    .process_unit(need, direct.as_deref_mut())
                    .map_err(io_error)?
                {
                    Step::Output(len) if len > 0 => return Ok(true),
                    Step::End => return Ok(false),
                    _ => continue,
                }
            }
            let space = self.inner.input_space().map_err(io_error)?;
            let room = space.len();
            match self.reader.read(space) {
                Ok(0) => {
                    // The input ended: between frames that is the end of the stream, inside one
                    // an error.
                    let gathered = self.inner.unit_len();
                    match self
                        .inner
                        .process_unit(gathered, direct.as_deref_mut())
                        .map_err(io_error)?
                    {
                        Step::End => return Ok(false),
                        _ => continue,
                    }
                }
                Ok(read) if read <= room => self.inner.note_filled(read),
                Ok(_) => {
                    let error = self.inner.parser.fail(Error::InvalidArgument {
                        what: "the inner reader reported reading more bytes than it was asked for",
                    });
                    return Err(io_error(error));
                }
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                // Nothing is lost: the bytes read so far stay in the unit buffer, and the next
                // call continues reading where this one stopped.
                Err(error) => return Err(error),
            }
        }
    }
}

impl<R: Read> Read for FrameDecoder<R> {
    /// Decodes blocks under 1 MiB that need no history (independent blocks without a
    /// dictionary, legacy blocks) straight onto the end of `buf` when it has the room, without
    /// the copy `read` makes. Larger blocks are decoded into the decoder's buffer (one block of
    /// memory besides `buf`) and copied in L1-sized pieces, each hashed for the content checksum
    /// as it is copied: 4 MiB blocks decode faster that way (1.52-1.57 of LZ4F against 1.05-1.09
    /// decoded straight into `buf`: Intel Xeon family 6 model 167, 2026-12-05, `d0869e8`). As
    /// `Read::read_to_end` promises, content decoded before an error stays appended.
    fn read_to_end(&mut self, buf: &mut Vec<u8>) -> io::Result<usize> {
        let start = buf.len();
        loop {
            // In pieces, each hashed for the content checksum right after its copy.
            self.inner.take_append(buf).map_err(io_error)?;
            if !self.fill(Some(buf))? {
                return Ok(buf.len() - start);
            }
        }
    }

    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if out.is_empty() {
            return Ok(0);
        }
        if self.fill_buf()?.is_empty() {
            return Ok(0);
        }
        // In pieces, each hashed for the content checksum right after its copy.
        Ok(self.inner.take_into(out))
    }
}

/// `Read::read` for a `BufRead`: a copy of what `fill_buf` holds.
/// (Used by the containers' `std::io` adapters.)
#[cfg(feature = "containers")]
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
        while self.inner.pending().is_empty() {
            if !self.fill(None)? {
                return Ok(&[]);
            }
        }
        Ok(self.inner.pending())
    }

    /// The content consumed is hashed for the frame's content checksum (the verdict comes
    /// when all of the frame's content was consumed and the decoder reads on).
    fn consume(&mut self, amount: usize) {
        self.inner.consume(amount);
    }
}

impl<R: Read> core::fmt::Debug for FrameDecoder<R> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("FrameDecoder")
            .field("input_pos", &self.inner.input_pos())
            .field("frame_info", &self.frame_info())
            .field("failure", &self.inner.parser.failure())
            .finish_non_exhaustive()
    }
}
