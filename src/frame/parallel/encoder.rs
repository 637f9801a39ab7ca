//! [`ParallelFrameEncoder`]: one frame onto a `std::io::Write`, its blocks compressed by the
//! worker threads.

use std::boxed::Box;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{self, Write};
use std::vec::Vec;

use super::blocks_depend_on_earlier;
use super::pool::{thread_count, Pending, Queue};
use super::store::ENCODER_BLOCKS;
use crate::block::xxh32::ContentHasher;
use crate::block::{Dictionary, MAX_HISTORY};
use crate::frame::compressor::Stager;
use crate::frame::encode::{frame_layout, BlockWriter, END_MARK};
use crate::frame::{io_error, BlockMode, BlockSize, FrameCompressor, FrameEncoder, FrameOptions};
use crate::Error;

/// The parallel encoder of [`ParallelFrameEncoder`] (more than one thread, or blocks that go
/// through the single-threaded encoder in order).
struct Parallel<W: Write> {
    writer: W,
    options: FrameOptions,
    jobs: Queue,
    /// The most jobs in flight.
    limit: usize,
    blocks: Blocks,
    /// The input gathered for the next block (a dictionary is held by the block writers).
    pending: Vec<u8>,
    /// For blocks that go through the single-threaded encoder in order (linked blocks): where
    /// each write gathered in `pending` ended, and whether auto-flush was on for it. They are
    /// handed to it as the same writes, since liblz4's linked streams depend on how the updates
    /// split a block.
    write_ends: Vec<(usize, bool)>,
    /// Every write ends a block ([`ParallelFrameEncoder::auto_flush`]).
    auto_flush: bool,
    block_len: usize,
    /// Jobs in the order of their output.
    in_flight: VecDeque<Pending<Done>>,
    /// Output the writer has not taken yet (the header, a block, the end mark).
    staging: Stager,
    /// Buffers the jobs gave back, for the next jobs (at most `limit` of each), and those of
    /// earlier encoders.
    spare: SpareBuffers,
    /// The content checksum, of the input gathered so far (hashed as it is copied into
    /// `pending`).
    hasher: Option<ContentHasher>,
    /// The length of the header; the linked encoder's output starts with a header of the same
    /// length (its own, without the content checksum flag) that is skipped.
    header_len: usize,
    /// The linked encoder's header is still to be skipped.
    skip_linked_header: bool,
    /// The last block and the end mark are queued: the frame takes no more input.
    finished: bool,
    consumed: u64,
    peak_in_flight: usize,
}

/// Compresses everything written to it into one LZ4 frame on the inner writer, compressing
/// several blocks at once on a shared pool of worker threads. The frame's bytes are those
/// [`FrameEncoder`] writes for the same options and the same writes, flushes and finish, for
/// every thread count. Linked blocks (and HC's favour-decompression-speed) depend on how the
/// writes split a block, as liblz4's linked streams do: each block goes to a single-threaded
/// encoder as the writes that made it. With [`auto_flush`](Self::auto_flush) every write ends a
/// block; written a whole block at a time, content of more than one block gives the `lz4`
/// tool's frames (the command line's `-T` path; the tool writes content of one block or less
/// as an independent frame, which the command line does too).
///
/// Input is gathered into blocks of the frame's block size (and hashed, in order, for the
/// content checksum) on the caller's thread; each full block goes to a queue that `threads - 1`
/// workers and the caller's thread work on (the caller's thread compresses the oldest block
/// nobody has claimed whenever it would otherwise wait); compressed blocks are written in order
/// as they come back. At most twice as many blocks as there are threads
/// are in flight: when that many wait, `write` first waits for the oldest and writes it, so a
/// slow writer slows the encoder down and memory stays bounded by the block size, not the
/// content size. Linked blocks ([`BlockMode::Linked`]) each depend on the one before them (and
/// so do HC blocks with favour-decompression-speed, see
/// [`compress_parallel_with_dictionary`](crate::frame::compress_parallel_with_dictionary)): they
/// are compressed one at a time, in order, by the single-threaded [`FrameEncoder`] on a worker
/// while the caller's thread gathers and hashes the next block and writes the last (see the
/// [module documentation](crate::frame#frames-on-every-core)).
///
/// With one thread (`threads` 1, or 0 on a one-core machine) and independent blocks, it is a
/// [`FrameEncoder`]: the caller's thread would do all the work anyway, and the single-threaded
/// encoder hashes the content checksum inside its parse.
///
/// **Call [`finish`](ParallelFrameEncoder::finish)** (or
/// [`try_finish`](ParallelFrameEncoder::try_finish)): it compresses the last block and writes the
/// end mark and the content checksum. An encoder dropped without it leaves a truncated frame;
/// dropping it never waits for the workers (blocks still being compressed are dropped when they
/// are done).
///
/// Errors are resumable as with [`FrameEncoder`]: output the writer did not take is kept and
/// written first by the next call; `write` returns an error only when it accepted none of its
/// input.
///
/// ```
/// use std::io::Write;
/// use lz4_simd::frame::{BlockSize, FrameEncoder, FrameOptions, ParallelFrameEncoder};
/// let options = FrameOptions::new().block_size(BlockSize::Max64KB);
/// let content = b"streamed content ".repeat(10_000);
/// let mut encoder = ParallelFrameEncoder::with_options(Vec::new(), options.clone(), 4);
/// encoder.write_all(&content).unwrap();
/// let framed = encoder.finish().unwrap();
///
/// let mut single = FrameEncoder::with_options(Vec::new(), options);
/// single.write_all(&content).unwrap();
/// assert_eq!(framed, single.finish().unwrap());
/// ```
pub struct ParallelFrameEncoder<W: Write> {
    inner: Inner<W>,
}

enum Inner<W: Write> {
    Single(FrameEncoder<W>),
    Parallel(Parallel<W>),
}

impl<W: Write> ParallelFrameEncoder<W> {
    /// An encoder writing one frame with the default options ([`FrameOptions::default`]) to
    /// `writer`, on `threads` threads in all (see [`with_options`](Self::with_options)).
    pub fn new(writer: W, threads: usize) -> Self {
        Self::with_options(writer, FrameOptions::default(), threads)
    }

    /// An encoder writing one frame with `options` to `writer`, on `threads` threads in all, the
    /// caller's among them (0: one per core; 1: the caller's thread alone).
    pub fn with_options(writer: W, options: FrameOptions, threads: usize) -> Self {
        Self::with_dictionary(writer, options, &[], threads)
    }

    /// An encoder whose blocks may reference the last 64 KiB of `dict`, as
    /// [`FrameEncoder::with_dictionary`].
    pub fn with_dictionary(writer: W, options: FrameOptions, dict: &[u8], threads: usize) -> Self {
        Self::with_dictionary_parts(writer, options, dict, None, threads)
    }

    /// [`with_dictionary`](Self::with_dictionary) with a dictionary prepared once: the frame is
    /// [`FrameEncoder::with_prepared_dictionary`]'s for the same writes (so, with
    /// [`Dictionary::new_dense`], liblz4 1.10's LZ4F frame with that dictionary's CDict).
    ///
    /// ```
    /// use std::io::Write;
    /// use lz4_simd::block::Dictionary;
    /// use lz4_simd::frame::{BlockSize, FrameEncoder, FrameOptions, ParallelFrameEncoder};
    /// let dict = Dictionary::new_dense(&b"common words, common phrases ".repeat(100));
    /// let options = FrameOptions::new().block_size(BlockSize::Max64KB);
    /// let content = b"common phrases and new words ".repeat(10_000);
    /// let mut encoder =
    ///     ParallelFrameEncoder::with_prepared_dictionary(Vec::new(), options.clone(), &dict, 4);
    /// encoder.write_all(&content).unwrap();
    /// let framed = encoder.finish().unwrap();
    ///
    /// let mut single = FrameEncoder::with_prepared_dictionary(Vec::new(), options, &dict);
    /// single.write_all(&content).unwrap();
    /// assert_eq!(framed, single.finish().unwrap());
    /// ```
    pub fn with_prepared_dictionary(
        writer: W,
        options: FrameOptions,
        dict: &Dictionary,
        threads: usize,
    ) -> Self {
        Self::with_dictionary_parts(writer, options, dict.as_bytes(), Some(dict), threads)
    }

    fn with_dictionary_parts(
        writer: W,
        options: FrameOptions,
        dict: &[u8],
        prepared: Option<&Dictionary>,
        threads: usize,
    ) -> Self {
        let independent =
            options.block_mode == BlockMode::Independent && !blocks_depend_on_earlier(&options);
        let inner = if independent && thread_count(threads) == 1 {
            Inner::Single(match prepared {
                Some(prepared) => FrameEncoder::with_prepared_dictionary(writer, options, prepared),
                None => FrameEncoder::with_dictionary(writer, options, dict),
            })
        } else {
            Inner::Parallel(Parallel::with_dictionary(
                writer, options, dict, prepared, threads,
            ))
        };
        Self { inner }
    }

    /// Auto-flush (off by default), as [`FrameCompressor::auto_flush`]: every write that takes
    /// input ends a block with it. The frame is then that of a [`FrameEncoder`] with auto-flush
    /// for the same writes (switched on after writes, as there: the next write ends the block in
    /// progress); the command line's `-T` path sets it and writes whole blocks, as `lz4` does.
    pub fn auto_flush(mut self, on: bool) -> Self {
        match &mut self.inner {
            Inner::Single(encoder) => encoder.compressor_mut().set_auto_flush(on),
            // Linked blocks: the single-threaded encoder gets the setting with each write
            // (`write_ends`), as it may be out on a job now.
            Inner::Parallel(encoder) => encoder.auto_flush = on,
        }
        self
    }

    /// The inner writer.
    pub fn get_ref(&self) -> &W {
        match &self.inner {
            Inner::Single(encoder) => encoder.get_ref(),
            Inner::Parallel(encoder) => encoder.get_ref(),
        }
    }

    /// The most blocks that were in flight at once (being compressed or waiting to be written):
    /// at most twice the thread count, 1 for linked blocks and for one thread. For tests of the
    /// memory bound.
    #[doc(hidden)]
    pub fn peak_in_flight(&self) -> usize {
        match &self.inner {
            Inner::Single(_) => 1,
            Inner::Parallel(encoder) => encoder.peak_in_flight(),
        }
    }

    /// Compresses the last block, writes the end mark and the content checksum, and flushes the
    /// writer, keeping the encoder (and its writer). After an error of the writer, calling it
    /// again resumes exactly where it stopped; once it succeeded, the frame is complete and
    /// `write` fails.
    ///
    /// Fails (with [`Error::FrameContentSizeMismatch`] inside the `io::Error`) when the options
    /// declared a content size different from what was written; nothing more is written then.
    pub fn try_finish(&mut self) -> io::Result<()> {
        match &mut self.inner {
            Inner::Single(encoder) => encoder.try_finish(),
            Inner::Parallel(encoder) => encoder.try_finish(),
        }
    }

    /// [`try_finish`](ParallelFrameEncoder::try_finish), then returns the writer.
    pub fn finish(self) -> io::Result<W> {
        match self.inner {
            Inner::Single(encoder) => encoder.finish(),
            Inner::Parallel(encoder) => encoder.finish(),
        }
    }
}

impl<W: Write> Write for ParallelFrameEncoder<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.inner {
            Inner::Single(encoder) => encoder.write(buf),
            Inner::Parallel(encoder) => encoder.write(buf),
        }
    }

    /// Compresses the input gathered so far as a (smaller) block, as [`FrameEncoder`]'s
    /// `flush`, waits for every block in flight, writes them and flushes the writer.
    fn flush(&mut self) -> io::Result<()> {
        match &mut self.inner {
            Inner::Single(encoder) => encoder.flush(),
            Inner::Parallel(encoder) => encoder.flush(),
        }
    }
}

impl<W: Write> core::fmt::Debug for ParallelFrameEncoder<W> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match &self.inner {
            Inner::Single(encoder) => f
                .debug_struct("ParallelFrameEncoder")
                .field("threads", &1)
                .field("single", encoder)
                .finish(),
            Inner::Parallel(encoder) => f
                .debug_struct("ParallelFrameEncoder")
                .field("parallel", encoder)
                .finish(),
        }
    }
}

/// An encoder's spare block buffers: taken from those earlier encoders left
/// ([`ENCODER_BLOCKS`], shared with the one-shot encoder), left there when the
/// encoder is dropped. Fresh 4 MiB buffers otherwise cost the first touch of each page on every
/// encoder (a page fault per 4 KiB, about 1.7 µs in the CI VM): a 2-thread encoder holds up to
/// 4 input and 4 output buffers, about 6000 faults (10 ms) per frame.
struct SpareBuffers {
    inputs: Vec<Vec<u8>>,
    outputs: Vec<Vec<u8>>,
}

impl SpareBuffers {
    fn new() -> Self {
        // The earlier encoders' buffers, each used as an input or an output buffer, whichever
        // is wanted first.
        Self {
            inputs: Vec::new(),
            outputs: ENCODER_BLOCKS.take(),
        }
    }

    /// A buffer for a block's input: empty, with the capacity of one block of `block_len`.
    fn input(&mut self, block_len: usize) -> Vec<u8> {
        let mut input = self
            .inputs
            .pop()
            .or_else(|| self.outputs.pop())
            .unwrap_or_default();
        // The input buffers of an earlier frame hold its content: nothing is kept.
        input.clear();
        input.reserve_exact(block_len);
        input
    }

    /// A buffer for a block's output (its contents are of no interest).
    fn output(&mut self) -> Vec<u8> {
        self.outputs
            .pop()
            .or_else(|| self.inputs.pop())
            .unwrap_or_default()
    }
}

impl Drop for SpareBuffers {
    fn drop(&mut self) {
        let mut buffers = core::mem::take(&mut self.inputs);
        // An input buffer holds content: cleared, so that what a later frame does not
        // overwrite is never this frame's content.
        for input in &mut buffers {
            input.clear();
        }
        buffers.append(&mut self.outputs);
        ENCODER_BLOCKS.give(buffers);
    }
}

/// How blocks are compressed.
enum Blocks {
    /// Independent blocks: each job compresses one with a [`BlockWriter`] of its own (writers
    /// are reused by later jobs; each holds a compressor's tables). The writers hash nothing:
    /// the caller's thread hashes the content in order.
    Independent {
        options: FrameOptions,
        /// The last 64 KiB of the dictionary (each writer prepares its own).
        dict: Vec<u8>,
        /// The dictionary prepared, if the caller gave it so.
        prepared: Option<Dictionary>,
        writers: Vec<BlockWriter>,
    },
    /// Blocks that depend on the ones before them (linked blocks, and the independent ones of
    /// [`blocks_depend_on_earlier`]): the single-threaded encoder, handed one block at a time
    /// (`None` while a job has it). It runs without the content checksum (hashed on the caller's thread, while
    /// it compresses): its header is replaced by the frame's and the checksum appended to its end
    /// mark. A chunked scheme (see the module documentation) would be a third variant.
    Linked(Option<Box<FrameEncoder<Collected>>>),
}

/// The linked encoder's writer: keeps what it is given, for the job to hand back.
struct Collected(RefCell<Vec<u8>>);

impl Write for Collected {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.get_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// What the linked encoder does after taking its input.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Then {
    Nothing,
    Flush,
    Finish,
}

/// A job's output (`output[..len]`), with what it borrowed.
struct Done {
    output: Vec<u8>,
    len: usize,
    /// The block's input, given back for the next blocks.
    input: Vec<u8>,
    returned: Returned,
}

enum Returned {
    Nothing,
    Writer(BlockWriter),
    Linked(Box<FrameEncoder<Collected>>, io::Result<()>),
}

impl<W: Write> Parallel<W> {
    /// An encoder whose blocks may reference the last 64 KiB of `dict`, as
    /// [`FrameEncoder::with_dictionary`]; `prepared`, if given, is `dict` prepared.
    pub fn with_dictionary(
        writer: W,
        options: FrameOptions,
        dict: &[u8],
        prepared: Option<&Dictionary>,
        threads: usize,
    ) -> Self {
        let dict = &dict[dict.len().saturating_sub(MAX_HISTORY)..];
        let jobs = Queue::new(threads);
        // Blocks that depend on the ones before them go, in order, through the single-threaded
        // encoder on a worker: linked blocks, and the rare independent ones of
        // `blocks_depend_on_earlier`.
        let in_order =
            options.block_mode == BlockMode::Linked || blocks_depend_on_earlier(&options);
        let (blocks, limit) = if in_order {
            let collected = Collected(RefCell::new(Vec::new()));
            let unhashed = options.clone().content_checksum(false);
            // Handed the caller's writes as they were made (`write_ends`), it writes the frame a
            // single-threaded encoder writes for them.
            let compressor = match prepared {
                Some(prepared) => FrameCompressor::with_prepared_dictionary(unhashed, prepared),
                None => FrameCompressor::with_dictionary(unhashed, dict),
            };
            let encoder = FrameEncoder::with_compressor(collected, compressor);
            (Blocks::Linked(Some(Box::new(encoder))), 1)
        } else {
            let options = options.clone().content_checksum(false);
            let blocks = Blocks::Independent {
                options,
                dict: dict.to_vec(),
                prepared: prepared.cloned(),
                writers: Vec::new(),
            };
            (blocks, 2 * jobs.threads())
        };
        let hasher = options.content_checksum.then(ContentHasher::new);
        let skip_linked_header = in_order;
        Self {
            writer,
            block_len: options.block_size.bytes(),
            options,
            jobs,
            limit,
            blocks,
            pending: Vec::new(),
            write_ends: Vec::new(),
            auto_flush: false,
            in_flight: VecDeque::new(),
            staging: Stager::default(),
            spare: SpareBuffers::new(),
            hasher,
            header_len: 0,
            skip_linked_header,
            finished: false,
            consumed: 0,
            peak_in_flight: 0,
        }
    }

    /// The inner writer.
    pub fn get_ref(&self) -> &W {
        &self.writer
    }

    /// The most blocks that were in flight at once (being compressed or waiting to be written):
    /// at most twice the thread count, 1 for linked blocks. For tests of the memory bound.
    #[doc(hidden)]
    pub fn peak_in_flight(&self) -> usize {
        self.peak_in_flight
    }

    /// Stages the header, the first time, for blocks of the frame's size and mode.
    fn stage_header(&mut self) {
        self.stage_header_as(self.options.block_size, self.options.block_mode);
    }

    /// Stages the header, the first time, with this block size and mode.
    fn stage_header_as(&mut self, block_size: BlockSize, block_mode: BlockMode) {
        if !self.staging.header_staged() {
            self.header_len = self
                .staging
                .stage_header(&self.options, block_size, block_mode);
        }
    }

    /// Writes what is staged. On an error, what the writer did not take stays staged.
    fn deliver(&mut self) -> io::Result<()> {
        while !self.staging.pending().is_empty() {
            match self.writer.write(self.staging.pending()) {
                Ok(0) => {
                    return Err(io::Error::new(
                        io::ErrorKind::WriteZero,
                        "the inner writer accepted no bytes of the compressed frame",
                    ))
                }
                Ok(written) => self.staging.consume(written),
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => return Err(error),
            }
        }
        Ok(())
    }

    /// Writes finished blocks in order, waiting for the oldest while more than `keep` jobs are
    /// in flight. On an error of the writer, what it did not take stays staged.
    fn pump(&mut self, keep: usize) -> io::Result<()> {
        loop {
            self.deliver()?;
            let done = if self.in_flight.len() > keep {
                let jobs = &self.jobs;
                self.in_flight.pop_front().map(|pending| jobs.wait(pending))
            } else {
                match self.in_flight.front().and_then(Pending::try_take) {
                    Some(done) => {
                        self.in_flight.pop_front();
                        Some(done)
                    }
                    None => None,
                }
            };
            let Some(done) = done else {
                return Ok(());
            };
            self.accept(done)?;
        }
    }

    /// Takes a job's output as what is staged (the staging is empty) and keeps what it lent.
    fn accept(&mut self, done: Done) -> io::Result<()> {
        let Done {
            output,
            len,
            input,
            returned,
        } = done;
        let staging = self.staging.replace(output, len);
        if staging.capacity() > 0 {
            self.spare.outputs.push(staging);
        }
        if input.capacity() > 0 {
            self.spare.inputs.push(input);
        }
        match (returned, &mut self.blocks) {
            (Returned::Writer(writer), Blocks::Independent { writers, .. }) => writers.push(writer),
            (Returned::Linked(encoder, result), Blocks::Linked(slot)) => {
                *slot = Some(encoder);
                if self.skip_linked_header && len > 0 {
                    debug_assert!(len >= self.header_len);
                    self.staging.consume(self.header_len.min(len));
                    self.skip_linked_header = false;
                }
                result?;
            }
            _ => {}
        }
        Ok(())
    }

    /// Sends the gathered input to a worker (the caller made room in the queue).
    fn submit(&mut self, then: Then) {
        debug_assert!(self.in_flight.len() < self.limit);
        self.stage_header();
        let next = self.spare.input(self.block_len);
        let input = core::mem::replace(&mut self.pending, next);
        let mut output = self.spare.output();
        let pending = match &mut self.blocks {
            Blocks::Independent {
                options,
                dict,
                prepared,
                writers,
            } => {
                let mut writer = writers.pop().unwrap_or_else(|| {
                    BlockWriter::with_dictionary(
                        options,
                        BlockMode::Independent,
                        dict,
                        prepared.as_ref(),
                    )
                });
                self.jobs.push(move || {
                    let room = BlockWriter::block_room(input.len());
                    // Kept at its largest length: a reused buffer is not cleared again.
                    if output.len() < room {
                        output.resize(room, 0);
                    }
                    let len = writer.write_block_at(&input, &mut output, 0);
                    Done {
                        output,
                        len,
                        input,
                        returned: Returned::Writer(writer),
                    }
                })
            }
            Blocks::Linked(slot) => {
                let Some(mut encoder) = slot.take() else {
                    unreachable!("a linked block is submitted only once the last one is back")
                };
                let write_ends = core::mem::take(&mut self.write_ends);
                self.jobs.push(move || {
                    // The caller's writes, one by one (each within the block), each with the
                    // auto-flush setting it was made with.
                    let mut start = 0;
                    let mut result = Ok(());
                    for (end, auto_flush) in write_ends {
                        encoder.compressor_mut().set_auto_flush(auto_flush);
                        result = encoder.write_all(&input[start..end]);
                        start = end;
                        if result.is_err() {
                            break;
                        }
                    }
                    if result.is_ok() {
                        result = match then {
                            Then::Nothing => Ok(()),
                            Then::Flush => encoder.flush(),
                            Then::Finish => encoder.try_finish(),
                        };
                    }
                    output.clear();
                    output.append(&mut encoder.get_ref().0.borrow_mut());
                    Done {
                        len: output.len(),
                        output,
                        input,
                        returned: Returned::Linked(encoder, result),
                    }
                })
            }
        };
        self.in_flight.push_back(pending);
        self.peak_in_flight = self.peak_in_flight.max(self.in_flight.len());
    }

    /// Whether input is gathered that no job has yet.
    fn has_pending(&self) -> bool {
        !self.pending.is_empty()
    }

    /// Compresses the last block, writes the end mark and the content checksum, and flushes the
    /// writer, keeping the encoder (and its writer). After an error of the writer, calling it
    /// again resumes exactly where it stopped; once it succeeded, the frame is complete and
    /// `write` fails.
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
            // Room for the last job (and earlier output first, as `write`).
            self.pump(self.limit - 1)?;
            // All the content is pending, less than a block: the `lz4` tool's one-block frame,
            // as the single-threaded encoder writes it (the linked encoder does the same).
            let (block_size, block_mode) = frame_layout(&self.options, self.pending.len());
            self.stage_header_as(block_size, block_mode);
            if self.has_pending() || matches!(self.blocks, Blocks::Linked(_)) {
                // The linked encoder finishes its frame: the last block and the end mark.
                self.submit(Then::Finish);
            }
            let mut end = Vec::with_capacity(8);
            if matches!(self.blocks, Blocks::Independent { .. }) {
                end.extend_from_slice(&END_MARK);
            }
            if let Some(hasher) = self.hasher.take() {
                end.extend_from_slice(&hasher.digest().to_le_bytes());
            }
            let len = end.len();
            self.in_flight.push_back(Pending::ready(Done {
                output: end,
                len,
                input: Vec::new(),
                returned: Returned::Nothing,
            }));
            self.finished = true;
        }
        self.pump(0)?;
        self.writer.flush()
    }

    /// [`try_finish`](ParallelFrameEncoder::try_finish), then returns the writer.
    pub fn finish(mut self) -> io::Result<W> {
        self.try_finish()?;
        // The queue is empty: the workers hold nothing of this encoder.
        Ok(self.writer)
    }
}

impl<W: Write> Write for Parallel<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.finished {
            return Err(io_error(Error::InvalidArgument {
                what: "the frame is finished: no more input can be written to it",
            }));
        }
        if buf.is_empty() {
            return Ok(0);
        }
        let gathered = self.pending.len();
        let take = buf.len().min(self.block_len - gathered);
        // With auto-flush, every write ends a block.
        let completes = gathered + take == self.block_len || self.auto_flush;
        // Earlier output goes first and, when this input completes a block, a place in the
        // queue is made for it; if either fails, none of `buf` is taken.
        self.pump(if completes {
            self.limit - 1
        } else {
            self.limit
        })?;
        // Hashed as it is copied, in one pass (see `ContentHasher::extend_hashing`): the copy
        // runs in the slack of the hash, which is bound by its multiplies. 64 MiB of Silesia in
        // 4 MiB blocks on 2 threads: 11.7-13.3 ms of the caller's thread against 19.6-19.9 ms
        // copied then hashed, 1.96-2.00x the single-threaded encoder against 1.80-1.82x (Intel
        // Xeon family 6 model 167, 2 vCPUs, 2026-12-06, `ae4e153`).
        match self.hasher.as_mut() {
            Some(hasher) => hasher.extend_hashing(&mut self.pending, &buf[..take], take),
            None => self.pending.extend_from_slice(&buf[..take]),
        }
        self.consumed += take as u64;
        if matches!(self.blocks, Blocks::Linked(_)) {
            self.write_ends.push((self.pending.len(), self.auto_flush));
        }
        if completes {
            self.submit(Then::Nothing);
        }
        // The input is taken: finished blocks are written now or, if the writer fails, by the
        // next call (which then reports the error if it persists).
        let _ = self.pump(self.limit);
        Ok(take)
    }

    /// Compresses the input gathered so far as a (smaller) block, as [`FrameEncoder`]'s
    /// `flush`, waits for every block in flight, writes them and flushes the writer.
    fn flush(&mut self) -> io::Result<()> {
        if !self.finished && self.has_pending() {
            self.pump(self.limit - 1)?;
            self.submit(Then::Flush);
        }
        self.pump(0)?;
        self.writer.flush()
    }
}

impl<W: Write> core::fmt::Debug for Parallel<W> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Parallel")
            .field("options", &self.options)
            .field("threads", &self.jobs.threads())
            .field("in_flight", &self.in_flight.len())
            .field("consumed", &self.consumed)
            .field("finished", &self.finished)
            .finish_non_exhaustive()
    }
}
