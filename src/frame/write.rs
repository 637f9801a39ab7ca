//! [`FrameEncoder`]: one frame onto a `std::io::Write`. Memory is bounded by the block size
//! (plus 64 KiB of history for linked blocks and dictionaries), whatever the content size.

use std::io::{self, Write};
use std::vec::Vec;

use super::encode::BlockWriter;
use super::header::{write_header, MAX_HEADER_LEN};
use super::{io_error, BlockMode, FrameOptions};
use crate::block::MAX_HISTORY;
use crate::Error;

/// The end mark and the content checksum.
const END_LEN: usize = 8;

/// Compresses everything written to it into one LZ4 frame on the inner writer.
///
/// Input is gathered into blocks of the frame's block size; each full block is compressed and
/// written at once. [`flush`](Write::flush) compresses the partial block too (a smaller block),
/// so everything written so far can be decoded. **Call [`finish`](FrameEncoder::finish)** (or
/// [`try_finish`](FrameEncoder::try_finish)): it writes the last block, the end mark and the
/// content checksum; an encoder dropped without it leaves a truncated frame (nothing is written
/// on drop, where errors could not be reported).
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
/// let mut encoder = FrameEncoder::new(Vec::new(), FrameOptions::new());
/// encoder.write_all(b"streamed ").unwrap();
/// encoder.write_all(b"content").unwrap();
/// let framed = encoder.finish().unwrap();
/// assert_eq!(lz4_simd::frame::decompress(&framed, 100).unwrap(), b"streamed content");
/// ```
pub struct FrameEncoder<W: Write> {
    writer: W,
    options: FrameOptions,
    blocks: BlockWriter,
    /// History (linked blocks, dictionary) followed by the pending input.
    window: Vec<u8>,
    history_len: usize,
    /// The dictionary's length at the front of `window` (independent blocks keep it there).
    dict_len: usize,
    block_len: usize,
    /// Compressed output: `staging[sent..staged]` is what the writer has not taken yet. Zeroed
    /// once to the room a block needs and kept at that length, so no block pays for clearing it.
    staging: Vec<u8>,
    staged: usize,
    sent: usize,
    header_staged: bool,
    /// The end mark (and content checksum) is staged: the frame takes no more input.
    finished: bool,
    consumed: u64,
}

impl<W: Write> FrameEncoder<W> {
    /// An encoder writing one frame with `options` to `writer`.
    pub fn new(writer: W, options: FrameOptions) -> Self {
        Self::with_dictionary(writer, options, &[])
    }

    /// An encoder whose blocks may reference the last 64 KiB of `dict` (every block in
    /// independent mode, the start of the content in linked mode). Set
    /// [`FrameOptions::dict_id`] so decoders can tell which dictionary they need.
    pub fn with_dictionary(writer: W, options: FrameOptions, dict: &[u8]) -> Self {
        let dict = &dict[dict.len().saturating_sub(MAX_HISTORY)..];
        let block_len = options.block_size.bytes();
        let mut window = Vec::with_capacity(dict.len() + block_len);
        window.extend_from_slice(dict);
        Self {
            writer,
            blocks: BlockWriter::new(&options),
            options,
            history_len: dict.len(),
            dict_len: dict.len(),
            window,
            block_len,
            staging: Vec::new(),
            staged: 0,
            sent: 0,
            header_staged: false,
            finished: false,
            consumed: 0,
        }
    }

    /// The inner writer.
    pub fn get_ref(&self) -> &W {
        &self.writer
    }

    /// Makes `staging` hold at least `room` bytes after what is staged.
    fn staging_room(&mut self, room: usize) {
        let needed = self.staged + room;
        if self.staging.len() < needed {
            self.staging.reserve_exact(needed - self.staging.len());
            self.staging.resize(needed, 0);
        }
    }

    /// Stages the header, the first time.
    fn stage_header(&mut self) {
        if !self.header_staged {
            let mut header = Vec::with_capacity(MAX_HEADER_LEN);
            write_header(
                &mut header,
                &self.options,
                self.options.block_size,
                self.options.block_mode,
                self.options.content_size,
            );
            self.stage_bytes(&header);
            self.header_staged = true;
        }
    }

    fn stage_bytes(&mut self, bytes: &[u8]) {
        self.staging_room(bytes.len());
        self.staging[self.staged..self.staged + bytes.len()].copy_from_slice(bytes);
        self.staged += bytes.len();
    }

    /// Compresses `window[history_len..]` as one block into `staging` (with the header before
    /// the first block); `window` is `input`, or the encoder's own window when `None`.
    fn stage_block(&mut self, input: Option<&[u8]>, history_len: usize) {
        self.stage_header();
        let len = input.map_or(self.window.len(), <[u8]>::len) - history_len;
        // Room for the end mark and content checksum too, so finishing never regrows it.
        self.staging_room(BlockWriter::block_room(len) + END_LEN);
        let window = input.unwrap_or(&self.window);
        self.staged =
            self.blocks
                .write_block_at(window, history_len, &mut self.staging, self.staged);
    }

    /// Compresses the pending input (if any) as one block into `staging`, keeping the history
    /// the next block may use.
    fn stage_pending(&mut self) {
        if self.window.len() == self.history_len {
            return;
        }
        self.stage_block(None, self.history_len);
        match self.options.block_mode {
            BlockMode::Independent => self.window.truncate(self.dict_len),
            BlockMode::Linked => {
                let excess = self.window.len().saturating_sub(MAX_HISTORY);
                self.window.drain(..excess);
            }
        }
        self.history_len = self.window.len();
    }

    /// Writes what is staged. On an error, what the writer did not take stays staged.
    fn deliver(&mut self) -> io::Result<()> {
        write_staged(
            &mut self.writer,
            &self.staging[..self.staged],
            &mut self.sent,
        )?;
        self.sent = 0;
        self.staged = 0;
        Ok(())
    }

    /// Writes the last block, the end mark and the content checksum, and flushes the writer,
    /// keeping the encoder (and its writer). After an error of the writer, calling it again
    /// resumes exactly where it stopped; once it succeeded, the frame is complete and `write`
    /// fails.
    ///
    /// Fails (with [`Error::FrameContentSizeMismatch`] inside the `io::Error`) when the options
    /// declared a content size different from what was written; nothing more is written then.
    pub fn try_finish(&mut self) -> io::Result<()> {
        if !self.finished {
            if let Some(declared) = self.options.content_size {
                if declared != self.consumed {
                    return Err(io_error(Error::FrameContentSizeMismatch {
                        declared,
                        actual: self.consumed,
                    }));
                }
            }
            // Earlier output first, so `staging` has room for the last block.
            self.deliver()?;
            self.stage_header();
            self.stage_pending();
            let mut end = Vec::with_capacity(END_LEN);
            self.blocks.finish(&mut end);
            self.stage_bytes(&end);
            self.finished = true;
        }
        self.deliver()?;
        self.writer.flush()
    }

    /// [`try_finish`](FrameEncoder::try_finish), then returns the writer.
    pub fn finish(mut self) -> io::Result<W> {
        self.try_finish()?;
        Ok(self.writer)
    }
}

/// Writes `staged[*sent..]` to `writer`, advancing `sent` by what it takes (retrying
/// `Interrupted`). On an error, `staged[*sent..]` is what it did not take.
pub(crate) fn write_staged<W: Write>(
    writer: &mut W,
    staged: &[u8],
    sent: &mut usize,
) -> io::Result<()> {
    while *sent < staged.len() {
        match writer.write(&staged[*sent..]) {
            Ok(0) => {
                return Err(io::Error::new(
                    io::ErrorKind::WriteZero,
                    "the inner writer accepted no bytes of the compressed frame",
                ))
            }
            Ok(written) => *sent += written.min(staged.len() - *sent),
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    }
    Ok(())
}

impl<W: Write> Write for FrameEncoder<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.finished {
            return Err(io_error(Error::InvalidArgument {
                what: "the frame is finished: no more input can be written to it",
            }));
        }
        if buf.is_empty() {
            return Ok(0);
        }
        // Output the writer did not take yet goes first; if it still cannot, none of `buf` is
        // taken.
        self.deliver()?;
        let taken = if self.window.is_empty()
            && self.options.block_mode == BlockMode::Independent
            && buf.len() >= self.block_len
        {
            // Nothing pending and no history to put in front: a whole block is compressed
            // where it is, without gathering it into `window` first.
            self.stage_block(Some(&buf[..self.block_len]), 0);
            self.block_len
        } else {
            let pending = self.window.len() - self.history_len;
            let take = buf.len().min(self.block_len - pending);
            self.window.extend_from_slice(&buf[..take]);
            if pending + take == self.block_len {
                self.stage_pending();
            }
            take
        };
        self.consumed += taken as u64;
        // The input is taken: its output is delivered now or, if the writer fails, by the next
        // call (which then reports the error if it persists).
        let _ = self.deliver();
        Ok(taken)
    }

    fn flush(&mut self) -> io::Result<()> {
        if !self.finished {
            self.deliver()?;
            self.stage_pending();
        }
        self.deliver()?;
        self.writer.flush()
    }
}

impl<W: Write> core::fmt::Debug for FrameEncoder<W> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("FrameEncoder")
            .field("options", &self.options)
            .field("consumed", &self.consumed)
            .field("finished", &self.finished)
            .finish_non_exhaustive()
    }
}
