//! [`FrameEncoder`]: one frame onto a `std::io::Write`. Memory is bounded by the block size
//! (plus 64 KiB of history for linked blocks and dictionaries), whatever the content size.

use std::io::{self, Write};

use super::compressor::FrameCompressor;
use super::{io_error, FrameOptions};
use crate::block::Dictionary;

/// Compresses everything written to it into one LZ4 frame on the inner writer.
///
/// Input is gathered into blocks of the frame's block size; each full block is compressed and
/// written at once. [`flush`](Write::flush) compresses the partial block too (a smaller block),
/// so everything written so far can be decoded.
///
/// Unless flushed early, a frame of independent blocks has the bytes of the one-shot
/// [`compress`](super::compress) of the same content, and so of the `lz4` tool (1.9.4) at the
/// fast levels, dictionaries (`lz4 -D`) included. Linked blocks are LZ4F's for the same calls
/// (each `write` one `LZ4F_compressUpdate` of what it takes, see
/// [`FrameCompressor`](super::FrameCompressor)), which are the one-shot frame's (`lz4 -BD`) only
/// for writes of whole blocks with auto-flush. Content shorter than one block is written at
/// [`finish`](FrameEncoder::finish) as the tool writes it (the smallest block size code that
/// holds it, independent). A `flush` before the first full block writes the header as the
/// options give it. **Call [`finish`](FrameEncoder::finish)** (or
/// [`try_finish`](FrameEncoder::try_finish)): it writes the last block, the end mark and the
/// content checksum; an encoder dropped without it leaves a truncated frame (nothing is written
/// on drop, where errors could not be reported), unless it was made with
/// [`auto_finish`](FrameEncoder::auto_finish), which finishes on drop and ignores errors there.
///
/// When the inner writer fails, nothing is lost or written twice: compressed output the writer
/// did not take is kept and written first by the next call (`write`, `flush`, `try_finish`), so
/// after a `WouldBlock` or a `TimedOut` the caller simply calls again. `write` returns an error
/// only when it accepted none of its input (it could not deliver earlier output); input it
/// reports as written is delivered by a later call, as with `std::io::BufWriter`.
///
/// ```
/// use std::io::Write;
/// use lz4_simd::frame::{FrameEncoder, FrameOptions};
/// let mut encoder = FrameEncoder::new(Vec::new());
/// encoder.write_all(b"streamed ").unwrap();
/// encoder.write_all(b"content").unwrap();
/// let framed = encoder.finish().unwrap();
/// assert_eq!(lz4_simd::frame::decompress(&framed, 100).unwrap(), b"streamed content");
/// ```
pub struct FrameEncoder<W: Write> {
    writer: W,
    /// The frame logic (the sans-IO compressor); its pending output goes to `writer`.
    inner: FrameCompressor,
}

impl<W: Write> FrameEncoder<W> {
    /// An encoder writing one frame with the default options ([`FrameOptions::default`]) to
    /// `writer`.
    pub fn new(writer: W) -> Self {
        Self::with_options(writer, FrameOptions::default())
    }

    /// An encoder writing one frame with `options` to `writer`.
    pub fn with_options(writer: W, options: FrameOptions) -> Self {
        Self::with_compressor(writer, FrameCompressor::with_options(options))
    }

    /// An encoder whose blocks may reference the last 64 KiB of `dict` (every block in
    /// independent mode, the start of the content in linked mode). Set
    /// [`FrameOptions::dict_id`] so decoders can tell which dictionary they need.
    ///
    /// At the fast levels the frame is that of `lz4 -D dict` (see
    /// [`compress_with_dictionary`](super::compress_with_dictionary)).
    pub fn with_dictionary(writer: W, options: FrameOptions, dict: &[u8]) -> Self {
        Self::with_compressor(writer, FrameCompressor::with_dictionary(options, dict))
    }

    /// [`with_dictionary`](Self::with_dictionary) with a dictionary prepared once (see
    /// [`compress_with_prepared_dictionary`](super::compress_with_prepared_dictionary):
    /// [`Dictionary::new`] gives `lz4 -D`'s frames, [`Dictionary::new_dense`] liblz4 1.10 LZ4F's).
    pub fn with_prepared_dictionary(writer: W, options: FrameOptions, dict: &Dictionary) -> Self {
        Self::with_compressor(
            writer,
            FrameCompressor::with_prepared_dictionary(options, dict),
        )
    }

    /// An encoder writing to `writer` with the settings of `compressor` (a dictionary,
    /// [auto-flush](FrameCompressor::auto_flush)), which must not have been used yet.
    ///
    /// ```
    /// use std::io::Write;
    /// use lz4_simd::frame::{self, FrameCompressor, FrameEncoder, FrameOptions};
    /// // Every write is a block of its own: each message can be decoded as soon as it is sent.
    /// let compressor = FrameCompressor::new().auto_flush(true);
    /// let mut encoder = FrameEncoder::with_compressor(Vec::new(), compressor);
    /// encoder.write_all(b"first message").unwrap();
    /// let so_far = encoder.get_ref().clone();
    /// let mut decoder = frame::FrameDecoder::new(&so_far[..]);
    /// let mut first = [0u8; 13];
    /// std::io::Read::read_exact(&mut decoder, &mut first).unwrap();
    /// assert_eq!(&first, b"first message");
    /// ```
    pub fn with_compressor(writer: W, compressor: FrameCompressor) -> Self {
        Self {
            writer,
            inner: compressor,
        }
    }

    /// The inner writer.
    pub fn get_ref(&self) -> &W {
        &self.writer
    }

    /// The compressor, for the parallel encoder's options (before any input).
    #[cfg(feature = "parallel")]
    pub(crate) fn compressor_mut(&mut self) -> &mut FrameCompressor {
        &mut self.inner
    }

    /// The inner writer, mutably (writing to it directly puts bytes inside the frame).
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.writer
    }

    /// Gives back the inner writer without finishing the frame: what was not written yet is
    /// lost and the frame is truncated. To end the frame first, use
    /// [`finish`](Self::finish).
    pub fn into_inner(self) -> W {
        self.writer
    }

    /// An encoder that finishes the frame when dropped (opt-in: errors on drop cannot be
    /// reported and are ignored; call [`AutoFinishEncoder::finish`] to see them).
    pub fn auto_finish(self) -> AutoFinishEncoder<W> {
        AutoFinishEncoder {
            encoder: Some(self),
        }
    }

    /// Writes what is pending. On an error, what the writer did not take stays pending.
    fn deliver(&mut self) -> io::Result<()> {
        write_pending(&mut self.writer, &mut self.inner)
    }

    /// Writes the last block, the end mark and the content checksum, and flushes the writer,
    /// keeping the encoder (and its writer). After an error of the writer, calling it again
    /// resumes exactly where it stopped; once it succeeded, the frame is complete and `write`
    /// fails.
    ///
    /// Fails (with [`Error::FrameContentSizeMismatch`](crate::Error::FrameContentSizeMismatch)
    /// inside the `io::Error`) when the options declared a content size different from what was
    /// written; nothing more is written then.
    pub fn try_finish(&mut self) -> io::Result<()> {
        if !self.inner.is_finished() {
            // Earlier output first, so the staging buffer has room for the last block.
            self.deliver()?;
            self.inner.end_frame().map_err(io_error)?;
        }
        self.deliver()?;
        self.writer.flush()
    }

    /// Finishes the frame on the current writer (as [`try_finish`](Self::try_finish)), then
    /// starts a new frame with the same options and dictionary on `writer`, keeping the
    /// encoder's buffers and compressor memory; returns the previous writer. For many frames
    /// (one per message, per file, per page) without allocating for each.
    ///
    /// If finishing fails, the error is returned and nothing changes: the encoder keeps the
    /// frame and the writer it had (calling `reset` or `try_finish` again resumes), and `writer`
    /// is dropped.
    ///
    /// ```
    /// use std::io::Write;
    /// use lz4_simd::frame::{self, FrameEncoder, FrameOptions};
    /// let mut encoder = FrameEncoder::new(Vec::new());
    /// encoder.write_all(b"first frame").unwrap();
    /// let first = encoder.reset(Vec::new()).unwrap();
    /// encoder.write_all(b"second frame").unwrap();
    /// let second = encoder.finish().unwrap();
    /// assert_eq!(frame::decompress(&first, 100).unwrap(), b"first frame");
    /// assert_eq!(frame::decompress(&second, 100).unwrap(), b"second frame");
    /// ```
    pub fn reset(&mut self, writer: W) -> io::Result<W> {
        self.try_finish()?;
        self.inner.reset();
        Ok(core::mem::replace(&mut self.writer, writer))
    }

    /// [`try_finish`](FrameEncoder::try_finish), then returns the writer.
    pub fn finish(mut self) -> io::Result<W> {
        self.try_finish()?;
        Ok(self.writer)
    }
}

/// Writes `compressor`'s pending output to `writer`. On an error, what the writer did not take
/// stays pending; `Interrupted` is retried.
pub(crate) fn write_pending(
    writer: &mut impl Write,
    compressor: &mut FrameCompressor,
) -> io::Result<()> {
    while !compressor.pending_output().is_empty() {
        match writer.write(compressor.pending_output()) {
            Ok(0) => {
                return Err(io::Error::new(
                    io::ErrorKind::WriteZero,
                    "the inner writer accepted no bytes of the compressed frame",
                ))
            }
            Ok(written) => compressor.consume_output(written),
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    }
    Ok(())
}

impl<W: Write> Write for FrameEncoder<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.inner.is_finished() {
            // The compressor reports it.
            return self.inner.take_input(buf).map_err(io_error);
        }
        if buf.is_empty() {
            return Ok(0);
        }
        // Output the writer did not take yet goes first; if it still cannot, none of `buf` is
        // taken.
        self.deliver()?;
        let taken = self.inner.take_input(buf).map_err(io_error)?;
        // The input is taken: its output is delivered now or, if the writer fails, by the next
        // call (which then reports the error if it persists).
        let _ = self.deliver();
        Ok(taken)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.deliver()?;
        self.inner.end_block();
        self.deliver()?;
        self.writer.flush()
    }
}

impl<W: Write> core::fmt::Debug for FrameEncoder<W> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("FrameEncoder")
            .field("compressor", &self.inner)
            .finish_non_exhaustive()
    }
}

/// A [`FrameEncoder`] that finishes its frame when dropped ([`FrameEncoder::auto_finish`]):
/// for code paths that cannot call `finish`. Errors on drop are ignored; call
/// [`finish`](Self::finish) to see them. Dropped while a panic unwinds, it leaves the frame
/// unfinished (truncated), so that part of the content never passes for all of it.
///
/// ```
/// use std::io::Write;
/// use lz4_simd::frame::{self, FrameEncoder, FrameOptions};
/// let mut framed = Vec::new();
/// {
///     let mut encoder = FrameEncoder::new(&mut framed).auto_finish();
///     encoder.write_all(b"finished on drop").unwrap();
/// }
/// assert_eq!(frame::decompress(&framed, 100).unwrap(), b"finished on drop");
/// ```
#[derive(Debug)]
pub struct AutoFinishEncoder<W: Write> {
    encoder: Option<FrameEncoder<W>>,
}

impl<W: Write> AutoFinishEncoder<W> {
    /// Finishes the frame and returns the writer (errors reported, not ignored).
    pub fn finish(mut self) -> io::Result<W> {
        match self.encoder.take() {
            Some(encoder) => encoder.finish(),
            None => Err(io::Error::other("the encoder was already finished")),
        }
    }

    /// The encoder, to write to or to stop auto-finishing
    /// ([`into_encoder`](Self::into_encoder)).
    pub fn encoder_mut(&mut self) -> Option<&mut FrameEncoder<W>> {
        self.encoder.as_mut()
    }

    /// The encoder back, without finishing on drop.
    pub fn into_encoder(mut self) -> Option<FrameEncoder<W>> {
        self.encoder.take()
    }
}

impl<W: Write> Write for AutoFinishEncoder<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self.encoder.as_mut() {
            Some(encoder) => encoder.write(buf),
            None => Err(io::Error::other("the encoder was already finished")),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.encoder.as_mut() {
            Some(encoder) => encoder.flush(),
            None => Ok(()),
        }
    }
}

impl<W: Write> Drop for AutoFinishEncoder<W> {
    fn drop(&mut self) {
        // Not while a panic unwinds: the content was abandoned half-way, and a complete frame
        // of part of it would pass for the whole; the frame stays truncated (an error to read).
        if std::thread::panicking() {
            return;
        }
        if let Some(encoder) = self.encoder.as_mut() {
            let _ = encoder.try_finish();
        }
    }
}
