//! The `std::io` adapters of the containers that are streams of blocks: [`Decoder`] (a `Read`
//! and `BufRead`) and [`Encoder`] (a `Write`), instantiated by each container as its own
//! `Decoder<R>` / `Encoder<W>` ([`hadoop`](super::hadoop), [`java`](super::java),
//! [`clickhouse`](super::clickhouse); [`kafka`](super::kafka) has its own on the frame adapters).
//!
//! They run the state machines the one-shot functions run, so they read and write the same
//! bytes with the same checks and errors. A decoder takes two caps: one on each block
//! ([`Decoder::new`]: a block is what it holds in memory) and, optionally, one on the whole
//! content ([`Decoder::max_out`]: the one-shot functions' `max_out`); with both set to the
//! one-shot function's cap, it reaches that function's verdict. Memory is one block's input and
//! one block's content, whatever the stream's length.
//!
//! # Errors and failing readers and writers
//!
//! An error in the data comes back as an `io::Error` wrapping the crate's [`Error`]
//! (`io::Error::get_ref` / `into_inner` + `downcast`), of kind `UnexpectedEof` when the input
//! ended inside the container and `InvalidData` otherwise; it is latched: every later call
//! returns it again. The end of the content (`Ok(0)`) is reported only when the input ended where
//! the container may end and every check passed.
//!
//! An error of the inner reader or writer is returned as it is and loses nothing: input read so
//! far is kept, output not yet written stays pending, and the next call resumes exactly where
//! this one stopped (`Interrupted` is retried at once). `Encoder::write` returns an error only
//! when it accepted none of its input; input it reports as written is delivered by a later call,
//! as with `std::io::BufWriter`.

use std::io::{self, BufRead, Read, Write};
use std::vec::Vec;

use super::{Blocks, Cap, Step, Units};
use crate::frame::read_buffered;
use crate::Error;

/// The most input the decoder asks its reader for beyond what it holds: a unit larger than this
/// is gathered in steps, so the buffer grows with the input that arrives.
const READ_STEP: usize = 1 << 20;

pub(crate) fn io_error(error: Error) -> io::Error {
    let kind = match error {
        Error::ContainerTruncated { .. } | Error::FrameTruncated { .. } => {
            io::ErrorKind::UnexpectedEof
        }
        Error::InvalidArgument { .. } => io::ErrorKind::InvalidInput,
        Error::AllocationFailed { .. } => io::ErrorKind::OutOfMemory,
        _ => io::ErrorKind::InvalidData,
    };
    io::Error::new(kind, error)
}

/// Reads a container's content from the container on the inner reader (see the
/// [module docs](self)). Made by each container's `Decoder::new`, e.g.
/// [`hadoop::Decoder`](super::hadoop::Decoder).
pub struct Decoder<R, U> {
    reader: R,
    units: U,
    /// Input gathered for the next unit: `input[..input_len]` (the buffer keeps its largest
    /// length, so it is not zero-filled per unit).
    input: Vec<u8>,
    input_len: usize,
    /// Input offset of `input[0]`.
    input_pos: u64,
    /// The inner reader reported its end: the units see the rest as the end of the input.
    input_ended: bool,
    /// Decoded content: `content[content_pos..]` is not taken yet.
    content: Vec<u8>,
    content_pos: usize,
    ended: bool,
    failure: Option<Error>,
}

impl<R: Read, U: Units> Decoder<R, U> {
    /// A decoder reading the container from `reader`, refusing any block that declares more
    /// than `max_block` bytes of content (a block is what the decoder holds in memory). The
    /// whole content is not capped unless [`max_out`](Self::max_out) caps it.
    pub fn new(reader: R, max_block: usize) -> Self {
        Self {
            reader,
            units: U::with_cap(Cap::per_block(max_block)),
            input: Vec::new(),
            input_len: 0,
            input_pos: 0,
            input_ended: false,
            content: Vec::new(),
            content_pos: 0,
            ended: false,
            failure: None,
        }
    }

    /// Caps the whole content at `max_out` bytes, as the one-shot `decompress` caps it: a size
    /// field that would bring the content above it is an error
    /// ([`Error::ContainerOutputLimit`], kind `LimitExceeded`) before its block is read, so no
    /// byte beyond the cap is ever delivered.
    pub fn max_out(mut self, max_out: u64) -> Self {
        self.units.cap_mut().set_max_out(max_out);
        self
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

    /// Gives back the inner reader. The decoder reads no further than the unit it needs next
    /// (a header, a block), so at the end of the container the reader is right after it; input
    /// read but not decoded yet is lost with the decoder.
    pub fn into_inner(self) -> R {
        self.reader
    }

    /// Bytes of input taken so far (what the error offsets count from).
    pub fn input_pos(&self) -> u64 {
        self.input_pos + self.input_len as u64
    }

    fn fail(&mut self, error: Error) -> io::Error {
        self.failure = Some(error.clone());
        io_error(error)
    }

    /// Decodes units until some content is available (`true`) or the container ended.
    fn fill(&mut self) -> io::Result<bool> {
        self.content.clear();
        self.content_pos = 0;
        loop {
            if let Some(error) = &self.failure {
                return Err(io_error(error.clone()));
            }
            if self.ended {
                return Ok(false);
            }
            let need = self.units.need();
            if self.input_len >= need || self.input_ended {
                let len = need.min(self.input_len);
                let end = self.input_len < need;
                let step =
                    self.units
                        .unit(&self.input[..len], end, self.input_pos, &mut self.content);
                match step {
                    Ok(Step::Used(used)) => {
                        self.input.copy_within(used..self.input_len, 0);
                        self.input_len -= used;
                        self.input_pos += used as u64;
                    }
                    Ok(Step::End) => self.ended = true,
                    Err(error) => {
                        // Content of a unit that failed (a block whose checksum or size did not
                        // check out) is never delivered.
                        self.content.clear();
                        return Err(self.fail(error));
                    }
                }
                if !self.content.is_empty() {
                    return Ok(true);
                }
                continue;
            }
            // The buffer grows with the input that arrives, not with the size a header
            // declares: a lying header costs no more memory than the input it comes with. Its
            // capacity doubles at most, and never past the unit (amortised doubling took it to
            // 1.2 MB for a 1 MiB block after a 600 KB one).
            if self.input.len().min(need) == self.input_len {
                let len = self.input.len();
                let want = need.min(self.input_len.saturating_add(READ_STEP));
                let doubled = self.input.capacity().saturating_mul(2).min(need).max(want);
                if self.input.try_reserve_exact(doubled - len).is_err()
                    && self.input.try_reserve_exact(want - len).is_err()
                {
                    return Err(self.fail(Error::AllocationFailed { bytes: want }));
                }
                self.input.resize(want, 0);
            }
            let room_end = self.input.len().min(need);
            match self.reader.read(&mut self.input[self.input_len..room_end]) {
                Ok(0) => self.input_ended = true,
                Ok(read) if read <= room_end - self.input_len => self.input_len += read,
                Ok(_) => {
                    return Err(self.fail(Error::InvalidArgument {
                        what: "the inner reader reported reading more bytes than it was asked for",
                    }))
                }
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                // Nothing is lost: what was read stays in `input`.
                Err(error) => return Err(error),
            }
        }
    }
}

impl<R: Read, U: Units> Read for Decoder<R, U> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        read_buffered(self, out)
    }
}

impl<R: Read, U: Units> BufRead for Decoder<R, U> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.content_pos == self.content.len() && !self.fill()? {
            return Ok(&[]);
        }
        Ok(&self.content[self.content_pos..])
    }

    fn consume(&mut self, amount: usize) {
        self.content_pos = (self.content_pos + amount).min(self.content.len());
    }
}

impl<R, U> core::fmt::Debug for Decoder<R, U> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Decoder")
            .field("input_pos", &(self.input_pos + self.input_len as u64))
            .field("ended", &self.ended)
            .field("failure", &self.failure)
            .finish_non_exhaustive()
    }
}

/// Writes everything written to it as a container on the inner writer (see the
/// [module docs](self)). Made by each container's `Encoder::new`, e.g.
/// [`hadoop::Encoder`](super::hadoop::Encoder).
///
/// Content is gathered into blocks of the container's block size; each full block is encoded
/// and written at once, so, unless flushed early, the bytes are those of the container's
/// one-shot `compress`. [`flush`](Write::flush) encodes the partial block too (a shorter block),
/// so everything written so far can be decoded. **Call [`finish`](Encoder::finish)** (or
/// [`try_finish`](Encoder::try_finish)): it writes the last block and what ends the container;
/// nothing is written on drop.
pub struct Encoder<W: Write, B> {
    writer: W,
    blocks: B,
    /// Content of the block being gathered.
    block: Vec<u8>,
    /// Blocks encoded so far.
    count: u64,
    /// Encoded output: `pending[pending_pos..]` is not written yet.
    pending: Vec<u8>,
    pending_pos: usize,
    finished: bool,
    failure: Option<Error>,
}

impl<W: Write, B: Blocks> Encoder<W, B> {
    pub(crate) fn with_blocks(writer: W, blocks: B) -> Self {
        Self {
            writer,
            blocks,
            block: Vec::new(),
            count: 0,
            pending: Vec::new(),
            pending_pos: 0,
            finished: false,
            failure: None,
        }
    }

    /// The inner writer.
    pub fn get_ref(&self) -> &W {
        &self.writer
    }

    /// The inner writer, mutably (writing to it directly puts bytes inside the container).
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.writer
    }

    /// Gives back the inner writer without finishing: what was not written yet is lost.
    pub fn into_inner(self) -> W {
        self.writer
    }

    /// Writes what is pending. On an error, what the writer did not take stays pending.
    fn deliver(&mut self) -> io::Result<()> {
        while self.pending_pos < self.pending.len() {
            match self.writer.write(&self.pending[self.pending_pos..]) {
                Ok(0) => {
                    return Err(io::Error::new(
                        io::ErrorKind::WriteZero,
                        "the inner writer accepted no bytes of the container",
                    ))
                }
                Ok(written) => {
                    self.pending_pos += written.min(self.pending.len() - self.pending_pos)
                }
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => return Err(error),
            }
        }
        self.pending.clear();
        self.pending_pos = 0;
        Ok(())
    }

    /// Encodes `content` (or, with `None`, the gathered block) as one block into `pending`.
    fn encode(&mut self, content: Option<&[u8]>) -> io::Result<()> {
        let content = content.unwrap_or(&self.block);
        if let Err(error) = self.blocks.block(content, &mut self.pending) {
            self.failure = Some(error.clone());
            return Err(io_error(error));
        }
        self.count += 1;
        self.block.clear();
        Ok(())
    }

    fn check(&self) -> io::Result<()> {
        match &self.failure {
            Some(error) => Err(io_error(error.clone())),
            None => Ok(()),
        }
    }

    /// Writes the last block and what ends the container, and flushes the writer, keeping the
    /// encoder (and its writer). After an error of the writer, calling it again resumes exactly
    /// where it stopped; once it succeeded, `write` fails.
    pub fn try_finish(&mut self) -> io::Result<()> {
        self.check()?;
        if !self.finished {
            // Earlier output first, so pending holds only the last block and the end.
            self.deliver()?;
            if !self.block.is_empty() {
                self.encode(None)?;
            }
            if let Err(error) = self.blocks.end(self.count, &mut self.pending) {
                self.failure = Some(error.clone());
                return Err(io_error(error));
            }
            self.finished = true;
        }
        self.deliver()?;
        self.writer.flush()
    }

    /// [`try_finish`](Self::try_finish), then returns the writer.
    pub fn finish(mut self) -> io::Result<W> {
        self.try_finish()?;
        Ok(self.writer)
    }
}

impl<W: Write, B: Blocks> Write for Encoder<W, B> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.check()?;
        if self.finished {
            return Err(io_error(Error::InvalidArgument {
                what: "write after the container was finished",
            }));
        }
        if buf.is_empty() {
            return Ok(0);
        }
        // Output the writer did not take yet goes first; if it still cannot, none of `buf` is
        // taken.
        self.deliver()?;
        let block_size = self.blocks.block_size();
        let taken = if self.block.is_empty() && buf.len() >= block_size {
            // A whole block in `buf`: encoded from there, without a copy.
            self.encode(Some(&buf[..block_size]))?;
            block_size
        } else {
            let taken = (block_size - self.block.len()).min(buf.len());
            if self.block.capacity() < block_size
                && self
                    .block
                    .try_reserve_exact(block_size - self.block.len())
                    .is_err()
            {
                return Err(io_error(Error::AllocationFailed { bytes: block_size }));
            }
            self.block.extend_from_slice(&buf[..taken]);
            if self.block.len() == block_size {
                self.encode(None)?;
            }
            taken
        };
        // The input is taken: its output is delivered now or, if the writer fails, by the next
        // call (which then reports the error if it persists).
        let _ = self.deliver();
        Ok(taken)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.check()?;
        self.deliver()?;
        if !self.finished && !self.block.is_empty() {
            self.encode(None)?;
            self.deliver()?;
        }
        self.writer.flush()
    }
}

impl<W: Write, B> core::fmt::Debug for Encoder<W, B> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Encoder")
            .field("blocks", &self.count)
            .field("pending", &(self.pending.len() - self.pending_pos))
            .field("finished", &self.finished)
            .field("failure", &self.failure)
            .finish_non_exhaustive()
    }
}
