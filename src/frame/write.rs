//! [`FrameEncoder`]: one frame onto a `std::io::Write`. Memory is bounded by the block size
//! (plus 64 KiB of history for linked blocks and dictionaries), whatever the content size.

use std::io::{self, Write};
use std::vec::Vec;

use super::encode::BlockWriter;
use super::header::write_header;
use super::{io_error as invalid, BlockMode, FrameOptions};
use crate::block::MAX_HISTORY;
use crate::Error;

/// Compresses everything written to it into one LZ4 frame on the inner writer.
///
/// Input is gathered into blocks of the frame's block size; each full block is compressed and
/// written at once. [`flush`](Write::flush) compresses the partial block too (a smaller block),
/// so everything written so far can be decoded. **Call [`finish`](FrameEncoder::finish)**: it
/// writes the last block, the end mark and the content checksum; an encoder dropped without it
/// leaves a truncated frame (nothing is written on drop, where errors could not be reported).
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
    /// The header and the frame's end, before they are written.
    out: Vec<u8>,
    /// Where each block is compressed before it is written: zeroed once to a block's room and
    /// kept at that length, so no block pays for clearing it.
    staging: Vec<u8>,
    header_written: bool,
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
            out: Vec::new(),
            staging: Vec::new(),
            header_written: false,
            consumed: 0,
        }
    }

    /// The inner writer.
    pub fn get_ref(&self) -> &W {
        &self.writer
    }

    fn write_header_once(&mut self) {
        if !self.header_written {
            write_header(
                &mut self.out,
                &self.options,
                self.options.block_size,
                self.options.block_mode,
                self.options.content_size,
            );
            self.header_written = true;
        }
    }

    /// Compresses `block` (a whole block of input that needs no history: independent blocks
    /// without a dictionary) straight from the caller's buffer, and writes everything produced
    /// so far.
    fn emit_direct_block(&mut self, block: &[u8]) -> io::Result<()> {
        debug_assert!(self.window.is_empty() && self.options.block_mode == BlockMode::Independent);
        self.write_header_once();
        self.write_out()?;
        Self::stage_and_write(
            &mut self.blocks,
            &mut self.staging,
            &mut self.writer,
            block,
            0,
        )
    }

    /// Writes and clears what `out` holds (the header, once).
    fn write_out(&mut self) -> io::Result<()> {
        if !self.out.is_empty() {
            self.writer.write_all(&self.out)?;
            self.out.clear();
        }
        Ok(())
    }

    /// Compresses `window[history_len..]` as one block into `staging` (grown, never shrunk, to
    /// the block's room) and writes it. (Takes the fields it needs, so `window` may be the
    /// encoder's own.)
    fn stage_and_write(
        blocks: &mut BlockWriter,
        staging: &mut Vec<u8>,
        writer: &mut W,
        window: &[u8],
        history_len: usize,
    ) -> io::Result<()> {
        let room = BlockWriter::block_room(window.len() - history_len);
        if staging.len() < room {
            staging.resize(room, 0);
        }
        let end = blocks.write_block_at(window, history_len, staging, 0);
        writer.write_all(&staging[..end])
    }

    /// Compresses the pending input as one block and writes everything produced so far.
    fn emit_block(&mut self) -> io::Result<()> {
        self.write_header_once();
        self.write_out()?;
        if self.window.len() > self.history_len {
            Self::stage_and_write(
                &mut self.blocks,
                &mut self.staging,
                &mut self.writer,
                &self.window,
                self.history_len,
            )?;
            match self.options.block_mode {
                BlockMode::Independent => self.window.truncate(self.dict_len),
                BlockMode::Linked => {
                    let excess = self.window.len().saturating_sub(MAX_HISTORY);
                    self.window.drain(..excess);
                }
            }
            self.history_len = self.window.len();
        }
        Ok(())
    }

    /// Writes the last block, the end mark and the content checksum, and returns the writer.
    ///
    /// Fails (with [`Error::FrameContentSizeMismatch`] inside the `io::Error`) when the options
    /// declared a content size different from what was written.
    pub fn finish(mut self) -> io::Result<W> {
        if let Some(declared) = self.options.content_size {
            if declared != self.consumed {
                return Err(invalid(Error::FrameContentSizeMismatch {
                    declared,
                    actual: self.consumed,
                }));
            }
        }
        self.emit_block()?;
        self.blocks.finish(&mut self.out);
        self.writer.write_all(&self.out)?;
        self.writer.flush()?;
        Ok(self.writer)
    }
}

impl<W: Write> Write for FrameEncoder<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut rest = buf;
        while !rest.is_empty() {
            if self.window.is_empty()
                && self.options.block_mode == BlockMode::Independent
                && rest.len() >= self.block_len
            {
                // Nothing pending and no history to put in front: a whole block is compressed
                // where it is, without gathering it into `window` first.
                let (block, after) = rest.split_at(self.block_len);
                self.emit_direct_block(block)?;
                rest = after;
                continue;
            }
            let pending = self.window.len() - self.history_len;
            let take = rest.len().min(self.block_len - pending);
            self.window.extend_from_slice(&rest[..take]);
            rest = &rest[take..];
            if pending + take == self.block_len {
                self.emit_block()?;
            }
        }
        self.consumed += buf.len() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.window.len() > self.history_len {
            self.emit_block()?;
        }
        self.writer.flush()
    }
}

impl<W: Write> core::fmt::Debug for FrameEncoder<W> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("FrameEncoder")
            .field("options", &self.options)
            .field("consumed", &self.consumed)
            .finish_non_exhaustive()
    }
}
