//! [`ParallelFrameDecoder`]: frames from a `std::io::Read`, the blocks of independent-block
//! frames decoded ahead by the worker threads.
//!
//! The one [`FrameParser`] runs on the caller's thread and sees every unit of the stream in
//! order, exactly as in [`FrameDecoder`](crate::frame::FrameDecoder): it checks every header,
//! block size, block checksum, content size and content checksum, and gives every verdict. When
//! it waits for a block size word of an independent-block frame, the decoder reads ahead: block
//! size words and blocks, each block handed to a worker to decode (into a buffer of its own,
//! behind the dictionary when there is one), until the end mark, the end of the input, an error
//! of the reader or the limit of blocks in flight. The parser then takes those units from the
//! queue one by one; for a block, its sink hands back what the worker decoded. A block the
//! worker could not decode (or any block not read ahead: linked frames, legacy frames) is
//! decoded by the sequential decoder's own sink, so its content or its error is exactly the
//! sequential decoder's. Nothing the parser has not accepted is handed out, and an error of the
//! parser is returned again by every later call, as by `FrameDecoder`.
//!
//! An error of the reader met while reading ahead is kept and returned when the parser reaches
//! the unit it interrupted (after the content of the blocks before it); the unit's bytes read so
//! far are kept, and the next call continues reading it.
//!
//! # Speed
//!
//! `threads` counts the caller's thread, as for the one-shot functions: the blocks go to a
//! [`Queue`] that at most `threads - 1` workers and the caller's thread work on. The caller's
//! thread has serial work of its own (reading the input, the parser, handing the content out and
//! hashing it for the content checksum as it goes, about half as long as decoding the blocks), and
//! when the next block is not decoded yet it decodes the oldest block nobody has claimed instead of
//! waiting. A worker per thread beside it would make 3 runnable threads on 2 cores, the caller
//! waiting for a core (1.2-1.6x the sequential decoder, against 1.85-1.9x in 4 MiB blocks: AMD EPYC
//! family 26 model 2, 2 vCPUs, 2026-12-05, `0b59099`). The window is topped up as soon as a block
//! is taken, before the parser checks it, so the workers have the next blocks meanwhile. Blocks are
//! decoded into the spare capacity of their buffers (fresh memory is not cleared first), and a
//! dropped decoder leaves its buffers to the next one in the process (see [`store`](super::store)).
//!
//! Blocks smaller than 256 KiB go to the workers in batches ([`BATCH_BYTES`]): one job, one
//! result and at most one wake-up for 4 blocks of 64 KiB rather than for each. A batch is
//! handed out when it is full and whenever reading ahead stops (the end mark, the end of the
//! input, an error of the reader, the window), so the parser never waits for a batch that is
//! not being decoded; its job decodes its blocks in order and stops at the first the block
//! decoder rejects (the parser, which reaches that block first, decodes it again for the error
//! and takes nothing after it). The window is counted in blocks, `2 × threads` batches, and
//! reading ahead resumes once a whole batch fits in it.
//!
//! The content checksum is hashed as the caller takes the content ([`BufRead::consume`], a
//! piece at a time in `read_to_end`), in one pass with the hand-out's copy: the copy reads a
//! block another core decoded once, and the hash reads it from the L1 cache (XXH32 is bound by
//! its multiply chain, so the copy beside it is free). Hashing it on the decoding threads
//! instead measured no faster: the cross-core read only moved. The caller's thread decodes a
//! batch instead of waiting only if nobody has started the one it waits for or at least
//! [`HELP_QUEUED`] are unclaimed. 64 MiB of Silesia on 2 threads: 1.84-1.90x `FrameDecoder` in
//! 4 MiB blocks, 1.88-1.92x in 64 KiB blocks (Intel Xeon family 6 model 167, 2 vCPUs,
//! 2026-12-06, `11055a9`; the measurements behind each step are in `asm-notes/parallel.md`).

use std::collections::VecDeque;
use std::io::{self, BufRead, Read};
use std::sync::Arc;
use std::vec::Vec;

use super::pool::{Pending, Queue};
use super::store::{DECODER_BLOCKS, DECODER_UNITS};
use crate::block::MAX_HISTORY;
use crate::frame::codec::{
    block_word, reserve_exact, BlockJob, BlockTarget, DataBlock, DictRule, FrameParser, History,
    Sink, Step,
};
use crate::frame::decompressor::{Output, StreamSink};
use crate::frame::header::FrameInfo;
use crate::frame::io_error;
use crate::frame::BlockMode;
use crate::Error;

/// Decompresses a stream of concatenated frames, as [`FrameDecoder`](crate::frame::FrameDecoder)
/// (same content, same errors, same resumable reader errors), decoding the blocks of
/// independent-block frames ahead on a shared pool of worker threads and on the caller's
/// thread. Linked and legacy frames are decoded on the caller's thread.
///
/// On one thread nothing is read ahead: blocks are decoded as the sequential decoder does. On
/// more, at most twice as many blocks as there are threads are read ahead (of blocks smaller than
/// 256 KiB, that many batches of 256 KiB), so memory is bounded by the block size (each block
/// in flight holds its compressed bytes and a buffer of the block size), not by the content
/// size. Dropping the decoder never waits for the workers; its
/// buffers (up to 24 MiB of each kind) are kept for the next decoder in the process, which
/// then does not pay the first touch of fresh memory again
/// ([`release_parallel_buffers`](crate::frame::release_parallel_buffers) gives them back).
///
/// Reading ahead waits for the reader: from a source that delivers its input as it is produced
/// (a pipe or socket held open by a live producer), a block that has arrived is handed out only
/// once the window is full, the input ends or the reader fails, so the content lags the input
/// by up to the window. Decode such streams with
/// [`FrameDecoder`](crate::frame::FrameDecoder), which hands each block out as it arrives (the
/// `lz4` command decodes pipes so).
///
/// ```
/// use std::io::Read;
/// use lz4_simd::frame::{self, BlockSize, FrameOptions, ParallelFrameDecoder};
/// let content = b"abc".repeat(100_000);
/// let framed = frame::compress(&content, &FrameOptions::new().block_size(BlockSize::Max64KB));
/// let mut decoded = Vec::new();
/// ParallelFrameDecoder::new(&framed[..], 4).read_to_end(&mut decoded).unwrap();
/// assert_eq!(decoded, content);
/// ```
pub struct ParallelFrameDecoder<R: Read> {
    reader: R,
    parser: FrameParser,
    /// The unit being read: `unit[..unit_len]` (kept when the reader fails).
    unit: Vec<u8>,
    unit_len: usize,
    /// Units read ahead, in order, for the parser.
    queue: VecDeque<Unit>,
    /// The blocks of the queue's [`Unit::Block`]s, in order, in batches (one job each).
    batches: VecDeque<Batch>,
    /// Blocks read ahead for the next batch (handed to a job before `read_ahead` returns).
    forming: Vec<Decoded>,
    /// Reading ahead in an independent-block frame.
    ahead: Option<Ahead>,
    /// An error of the reader met while reading ahead, for when the parser gets there.
    stashed: Option<Stashed>,
    /// The blocks' decoding jobs.
    jobs: Queue,
    limit: usize,
    in_flight: usize,
    peak_in_flight: usize,
    /// The sequential decoder's buffers: blocks decoded on this thread, and the history of
    /// linked blocks.
    output: Output,
    /// The content being handed out.
    current: Current,
    /// The last 64 KiB of the dictionary, when the decoder has one.
    dict: Option<Arc<[u8]>>,

    /// Buffers the jobs gave back, for the next jobs.
    spare_data: Vec<Vec<u8>>,
    spare_blocks: Vec<Vec<u8>>,
}

/// A unit read ahead.
enum Unit {
    /// A block size word (or the end mark).
    Word([u8; 4]),
    /// A block (and its checksum): the next one of [`batches`](ParallelFrameDecoder::batches).
    Block,
    /// The bytes read of a unit before the input ended.
    Ended(Vec<u8>),
}

/// A batch of blocks read ahead, decoded by one job.
enum Batch {
    Pending(Pending<Vec<Decoded>>),
    /// Decoded: the blocks the parser has not taken.
    Done(VecDeque<Decoded>),
}

/// Where reading ahead is.
struct Ahead {
    block_max: usize,
    checksum_len: usize,
    /// The size and stored flag of the block whose bytes come next (after its word).
    block: Option<(usize, bool)>,
    /// The blocks of one job (see [`BATCH_BYTES`]).
    batch: usize,
}

/// The content a batch of blocks read ahead holds at most: blocks smaller than this go to the
/// jobs in batches of `BATCH_BYTES / block size` (4 blocks of 64 KiB), so that a job is not a
/// hand-off and a wake-up for every block. The window grows with it: `2 × threads` batches in
/// flight, so at most `2 × threads × max(block size, BATCH_BYTES)` of content (and as much
/// compressed input) whatever the block size. Measured with 64 KiB blocks on 2 threads (Intel
/// Xeon family 6 model 167, 2 vCPUs, 2026-12-05, `314cd93`; real-time priority; the sequential
/// decoder 1.72-1.76 GiB/s):
/// single blocks 2.4-2.5 GiB/s, 128 KiB batches 2.58-2.61, 256 KiB 2.80-2.85, 512 KiB
/// 2.38-2.56, 1 MiB 1.86-1.97 (the caller's thread, which decodes the oldest unclaimed batch
/// when its block is not ready, then leaves its own serial work for longer, and the blocks in
/// flight no longer fit in the 2 MiB L2).
const BATCH_BYTES: usize = 256 << 10;

/// The fewest unclaimed batches for which the caller's thread decodes one instead of waiting
/// for a worker (see [`ParallelFrameDecoder::wait`]).
const HELP_QUEUED: usize = 2;

enum Stashed {
    Io(io::Error),
    /// The reader reported reading more than it was asked for.
    Overlong,
}

/// A block decoded by a worker: `block[start..start + len]` (`None` if the block decoder
/// rejected it), with the unit it came from (`data[..unit_len]`).
struct Decoded {
    data: Vec<u8>,
    unit_len: usize,
    block_len: usize,
    stored: bool,
    block_max: usize,
    /// Decoded behind the dictionary (the decoder has one: its frames' independent blocks may
    /// reference it).
    with_dict: bool,
    block: Vec<u8>,
    start: usize,
    len: Option<usize>,
}

/// The content being handed out: `block[pos..end]`, or the sequential decoder's buffers.
struct Current {
    from_output: bool,
    block: Vec<u8>,
    pos: usize,
    end: usize,
}

impl<R: Read> ParallelFrameDecoder<R> {
    /// A decoder reading frames from `reader`, on `threads` threads in all, the caller's among
    /// them (0: one per core; 1: the caller's thread alone).
    pub fn new(reader: R, threads: usize) -> Self {
        Self::with_parts(reader, FrameParser::new(DictRule::None), None, threads)
    }

    /// A decoder for frames compressed with the dictionary `dict` whose ID is `dict_id`, as
    /// [`FrameDecoder::with_dictionary`](crate::frame::FrameDecoder::with_dictionary).
    pub fn with_dictionary(reader: R, dict: &[u8], dict_id: u32, threads: usize) -> Self {
        Self::with_parts(
            reader,
            FrameParser::new(DictRule::Id(dict_id)),
            Some(dict),
            threads,
        )
    }

    /// A decoder whose dictionary `dict` serves every frame, whatever dictionary ID (or none)
    /// its header names, as
    /// [`FrameDecoder::with_any_dictionary`](crate::frame::FrameDecoder::with_any_dictionary)
    /// (the `lz4` command's `-D`).
    pub fn with_any_dictionary(reader: R, dict: &[u8], threads: usize) -> Self {
        Self::with_parts(
            reader,
            FrameParser::new(DictRule::AnyId),
            Some(dict),
            threads,
        )
    }

    /// Read legacy frames as the Linux kernel does (off by default), as
    /// [`FrameDecompressor::kernel_trailer`](crate::frame::FrameDecompressor::kernel_trailer):
    /// a kernel image's size trailer (a little-endian u32 equal to the content size of the
    /// whole stream, then zero padding, to the end of the input), and zero padding after a
    /// legacy frame (fewer than 4 zeros at the end of the input, or a block size of 0, then
    /// zeros up to the end or to another legacy frame). Set it before the first read.
    pub fn kernel_trailer(mut self, on: bool) -> Self {
        self.parser.set_legacy_trailer(on);
        self
    }

    fn with_parts(reader: R, mut parser: FrameParser, dict: Option<&[u8]>, threads: usize) -> Self {
        // The content is hashed as it is handed out (see `consume`).
        parser.set_caller_hashes(true);
        let tail = dict.map(|dict| &dict[dict.len().saturating_sub(MAX_HISTORY)..]);
        let jobs = Queue::new(threads);
        let mut spare_data = DECODER_UNITS.take();
        // The first unit is read into a buffer of the last decoder too (fresh memory would cost
        // its first touch: about 1 ms for a 4 MiB block's 2 MiB of input).
        let unit = spare_data.pop().unwrap_or_default();
        Self {
            reader,
            parser,
            unit,
            unit_len: 0,
            queue: VecDeque::new(),
            batches: VecDeque::new(),
            forming: Vec::new(),
            ahead: None,
            stashed: None,
            limit: 2 * jobs.threads(),
            jobs,
            in_flight: 0,
            peak_in_flight: 0,
            output: Output::new(tail.unwrap_or_default().to_vec()),
            current: Current {
                from_output: true,
                block: Vec::new(),
                pos: 0,
                end: 0,
            },
            dict: tail.map(Arc::from),
            spare_data,
            spare_blocks: DECODER_BLOCKS.take(),
        }
    }

    /// The descriptor of the LZ4 frame the parser is in, if inside one (the frame of the last
    /// block handed out; blocks read ahead may be further on).
    pub fn frame_info(&self) -> Option<&FrameInfo> {
        self.parser.frame_info()
    }

    /// The inner reader.
    pub fn get_ref(&self) -> &R {
        &self.reader
    }

    /// The most blocks that were read ahead at once: at most twice the thread count times the
    /// blocks of a batch (1 for blocks of 256 KiB or more, 4 for 64 KiB blocks).
    /// For tests of the memory bound.
    #[doc(hidden)]
    pub fn peak_in_flight(&self) -> usize {
        self.peak_in_flight
    }

    /// Reads the unit of `need` bytes into `unit` (continuing what an earlier call read of it).
    /// `Ok(false)`: the input ended first (`unit[..unit_len]` is what there was).
    fn read_unit(&mut self, need: usize) -> Result<bool, Stashed> {
        if self.unit.len() < need {
            let extra = need - self.unit.len();
            reserve_exact(&mut self.unit, extra).map_err(|error| Stashed::Io(io_error(error)))?;
            self.unit.resize(need, 0);
        }
        while self.unit_len < need {
            match self.reader.read(&mut self.unit[self.unit_len..need]) {
                Ok(0) => return Ok(false),
                Ok(read) if read <= need - self.unit_len => self.unit_len += read,
                Ok(_) => return Err(Stashed::Overlong),
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => return Err(Stashed::Io(error)),
            }
        }
        Ok(true)
    }

    /// Reads units ahead of the parser while it is in an independent-block frame, handing each
    /// block to a worker. Never fails: an error of the reader is stashed.
    fn read_ahead(&mut self) {
        // On one thread the blocks are decoded as the sequential decoder does (reading ahead
        // only adds copies: 64 MiB in 4 MiB blocks took 41-49 ms against its 37 ms).
        if self.stashed.is_some() || self.jobs.threads() <= 1 {
            return;
        }
        if self.ahead.is_none() && self.queue.is_empty() {
            if let Some(info) = self.parser.at_block_word() {
                if info.block_mode == BlockMode::Independent {
                    let block_max = info.block_size.bytes();
                    self.ahead = Some(Ahead {
                        block_max,
                        checksum_len: if info.block_checksum { 4 } else { 0 },
                        block: None,
                        batch: (BATCH_BYTES / block_max).max(1),
                    });
                }
            }
        }
        self.read_batches();
        // Whatever stopped the reading, the blocks read go to a job.
        self.submit();
    }

    /// [`read_ahead`](Self::read_ahead)'s loop: reads batches while the window has room for
    /// one.
    fn read_batches(&mut self) {
        while let Some(ahead) = &self.ahead {
            let limit = self.limit * ahead.batch;
            if self.in_flight >= limit
                || (self.forming.is_empty() && self.in_flight + ahead.batch > limit)
            {
                return;
            }
            let block = ahead.block;
            let need = block.map_or(4, |(size, _)| size + ahead.checksum_len);
            match self.read_unit(need) {
                Ok(true) => {}
                Ok(false) => {
                    self.submit();
                    let ended = self.unit[..self.unit_len].to_vec();
                    self.unit_len = 0;
                    self.queue.push_back(Unit::Ended(ended));
                    self.ahead = None;
                    return;
                }
                Err(stashed) => {
                    self.stashed = Some(stashed);
                    return;
                }
            }
            self.unit_len = 0;
            match block {
                None => self.read_word(),
                Some((size, stored)) => self.read_block(need, size, stored),
            }
        }
    }

    /// Queues the block size word in `unit[..4]` and says what comes next.
    fn read_word(&mut self) {
        let word = [self.unit[0], self.unit[1], self.unit[2], self.unit[3]];
        self.queue.push_back(Unit::Word(word));
        let Some(ahead) = self.ahead.as_mut() else {
            return;
        };
        // The parser gives the verdict on the word (and its position and index); here it only
        // says whether a block follows.
        match block_word(u32::from_le_bytes(word), ahead.block_max, 0, 0) {
            // A stored block of 0 bytes is processed with its word.
            Ok(Some((size, stored))) if size + ahead.checksum_len > 0 => {
                ahead.block = Some((size, stored));
            }
            Ok(Some(_)) => {}
            Ok(None) | Err(_) => self.ahead = None,
        }
    }

    /// Queues the block in `unit[..unit_len]` for the next batch, and hands the batch to a job
    /// when it is full.
    fn read_block(&mut self, unit_len: usize, block_len: usize, stored: bool) {
        let Some(ahead) = self.ahead.as_mut() else {
            return;
        };
        ahead.block = None;
        let block_max = ahead.block_max;
        let batch = ahead.batch;
        let spare = self.spare_data.pop().unwrap_or_default();
        let data = core::mem::replace(&mut self.unit, spare);
        let block = self.spare_blocks.pop().unwrap_or_default();
        self.forming.push(Decoded {
            data,
            unit_len,
            block_len,
            stored,
            block_max,
            with_dict: self.dict.is_some(),
            block,
            start: self.dict.as_ref().map_or(0, |dict| dict.len()),
            len: None,
        });
        self.queue.push_back(Unit::Block);
        self.in_flight += 1;
        self.peak_in_flight = self.peak_in_flight.max(self.in_flight);
        if self.forming.len() >= batch {
            self.submit();
        }
    }

    /// Hands the blocks read for the next batch (if any) to a job: it decodes them in order, up
    /// to the first the block decoder rejects (the parser stops there).
    fn submit(&mut self) {
        if self.forming.is_empty() {
            return;
        }
        let mut batch = core::mem::take(&mut self.forming);
        let dict = self.dict.clone();
        let pending = self.jobs.push(move || {
            let dict = dict.as_deref().unwrap_or_default();
            for decoded in &mut batch {
                decoded.len = decode_block(decoded, dict);
                if decoded.len.is_none() {
                    break;
                }
            }
            batch
        });
        self.batches.push_back(Batch::Pending(pending));
    }

    /// The next block read ahead, decoded (waiting for its batch, or decoding it on this
    /// thread).
    fn next_decoded(&mut self) -> Decoded {
        loop {
            let Some(batch) = self.batches.front_mut() else {
                unreachable!("every block read ahead is in a batch")
            };
            match batch {
                Batch::Pending(_) => {
                    let Some(Batch::Pending(pending)) = self.batches.pop_front() else {
                        unreachable!()
                    };
                    let decoded = self.wait(pending);
                    self.batches.push_front(Batch::Done(decoded.into()));
                }
                Batch::Done(blocks) => {
                    let decoded = blocks.pop_front();
                    if blocks.is_empty() {
                        self.batches.pop_front();
                    }
                    if let Some(decoded) = decoded {
                        return decoded;
                    }
                }
            }
        }
    }

    /// The blocks of the oldest batch, `pending` (taken from the front of `batches`). While
    /// they are not decoded, this thread decodes the oldest batch nobody has claimed instead of
    /// waiting, if it is `pending` itself (no worker has started on it) or if at least
    /// [`HELP_QUEUED`] are unclaimed; with fewer, it waits, so that a worker finishing `pending`
    /// soon is not left idle at the end of the input while this thread decodes the last batch
    /// and then hands out both.
    fn wait(&self, pending: Pending<Vec<Decoded>>) -> Vec<Decoded> {
        loop {
            if let Some(decoded) = pending.try_take() {
                return decoded;
            }
            let unclaimed = self.jobs.unclaimed();
            // Jobs are claimed in order: `pending` is unclaimed if all of them are.
            let others = self
                .batches
                .iter()
                .filter(|batch| matches!(batch, Batch::Pending(_)))
                .count();
            let help = unclaimed > others || unclaimed >= HELP_QUEUED;
            if !(help && self.jobs.run_one()) {
                return pending.wait();
            }
        }
    }

    /// Hands the parser a unit; `decoded` is what a worker made of it.
    fn process(&mut self, unit: &[u8], decoded: Option<&mut Decoded>) -> io::Result<Step> {
        let mut sink = ParallelSink {
            output: &mut self.output,
            current: &mut self.current,
            decoded,
        };
        self.parser.process(unit, &mut sink).map_err(io_error)
    }

    /// Decodes until some content is available or the input ends. Returns `false` at the end.
    fn fill(&mut self) -> io::Result<bool> {
        loop {
            if let Some(error) = self.parser.failure() {
                return Err(io_error(error.clone()));
            }
            self.read_ahead();
            let step = match self.queue.pop_front() {
                Some(Unit::Word(word)) => self.process(&word, None)?,
                Some(Unit::Ended(bytes)) => self.process(&bytes, None)?,
                Some(Unit::Block) => {
                    let mut decoded = self.next_decoded();
                    self.in_flight -= 1;
                    // The next block goes to the workers before this one is checked and
                    // handed out, so they have work while this one is handed out and hashed.
                    self.read_ahead();
                    let unit = core::mem::take(&mut decoded.data);
                    let step = self.process(&unit[..decoded.unit_len], Some(&mut decoded));
                    self.spare_data.push(unit);
                    if decoded.block.capacity() > 0 {
                        self.spare_blocks.push(decoded.block);
                    }
                    step?
                }
                None => self.read_here()?,
            };
            match step {
                Step::Output(len) if len > 0 => return Ok(true),
                Step::End => return Ok(false),
                _ => {}
            }
        }
    }

    /// Reads the parser's next unit (nothing is read ahead) and hands it over, as
    /// `FrameDecoder` does.
    fn read_here(&mut self) -> io::Result<Step> {
        // Reading ahead restarts from the parser's state.
        self.ahead = None;
        let need = self.parser.need();
        let complete = match self
            .stashed
            .take()
            .map_or_else(|| self.read_unit(need), Err)
        {
            Ok(complete) => complete,
            Err(Stashed::Io(error)) => return Err(error),
            Err(Stashed::Overlong) => {
                let error = self.parser.fail(Error::InvalidArgument {
                    what: "the inner reader reported reading more bytes than it was asked for",
                });
                return Err(io_error(error));
            }
        };
        let len = if complete { need } else { self.unit_len };
        self.unit_len = 0;
        let unit = core::mem::take(&mut self.unit);
        let step = self.process(&unit[..len], None);
        self.unit = unit;
        step
    }
}

/// Decodes a block read ahead (as the sequential decoder's sink would, without its history
/// buffer) into `decoded.block[start..]`, behind the dictionary. `None` if the block decoder
/// rejects it: the parser's sink then decodes it again on the caller's thread, for the error.
fn decode_block(decoded: &mut Decoded, dict: &[u8]) -> Option<usize> {
    let block = DataBlock {
        data: &decoded.data[..decoded.block_len],
        stored: decoded.stored,
        // Only for errors, which are not kept.
        input_pos: 0,
        index: 0,
    };
    let room = block.room(&BlockTarget::uncapped(decoded.block_max)).ok()?;
    let start = decoded.start;
    let buf = &mut decoded.block;
    if buf.len() < start {
        // A fresh buffer: the dictionary goes in front (kept there while it is reused).
        buf.clear();
        reserve_exact(buf, start + room).ok()?;
        buf.extend_from_slice(dict);
    }
    buf.truncate(start);
    if buf.capacity() - start < room {
        reserve_exact(buf, room).ok()?;
    }
    // Into the spare capacity: fresh memory is not cleared first, only written by the decoder.
    block.append_to(buf, start, room).ok()
}

/// The parser's sink: a block a worker decoded is handed out from its buffer; any other goes to
/// the sequential decoder's sink.
struct ParallelSink<'a> {
    output: &'a mut Output,
    current: &'a mut Current,
    decoded: Option<&'a mut Decoded>,
}

impl Sink for ParallelSink<'_> {
    fn decode(&mut self, job: &BlockJob<'_>) -> Result<&[u8], Error> {
        if let Some(decoded) = self.decoded.take() {
            let expected_history = if decoded.with_dict {
                History::Dict
            } else {
                History::None
            };
            if let (Some(len), true) = (
                decoded.len,
                job.history == expected_history
                    && job.block.data.len() == decoded.block_len
                    && job.block.stored == decoded.stored
                    && job.block_max == decoded.block_max,
            ) {
                core::mem::swap(&mut self.current.block, &mut decoded.block);
                self.current.from_output = false;
                self.current.pos = decoded.start;
                self.current.end = decoded.start + len;
                return Ok(&self.current.block[self.current.pos..self.current.end]);
            }
        }
        self.current.from_output = true;
        // Without a `Vec` to decode into, the sequential sink decodes into `output`: what it
        // returns is what `output` holds unread.
        StreamSink {
            output: self.output,
            direct: None,
        }
        .decode(job)?;
        Ok(self.output.unread())
    }
}

impl<R: Read> Read for ParallelFrameDecoder<R> {
    /// As `Read::read_to_end` promises, content decoded before an error stays appended.
    fn read_to_end(&mut self, buf: &mut Vec<u8>) -> io::Result<usize> {
        let start = buf.len();
        loop {
            let available = self.fill_buf()?.len();
            if available == 0 {
                return Ok(buf.len() - start);
            }
            // A piece at a time, appended and hashed in one pass (see `read`).
            let len = available.min(HAND_OUT_PIECE);
            if buf.try_reserve(len).is_err() {
                return Err(io_error(Error::AllocationFailed {
                    bytes: buf.len().saturating_add(len),
                }));
            }
            self.hand_out(len, |parser, content| {
                parser.append_hashed(content, len, buf)
            });
        }
    }

    /// Copies the content out and hashes it for the content checksum in one pass
    /// (`ContentHasher::update_copying`):
    /// the hash is bound by the latency of its multiplications, and the copy's loads and stores
    /// fit beside it, where `read_buffered` then `consume` would read the content twice.
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if out.is_empty() {
            return Ok(0);
        }
        let available = self.fill_buf()?.len();
        let len = available.min(out.len());
        self.hand_out(len, |parser, content| {
            parser.copy_hashed(content, &mut out[..len])
        });
        Ok(len)
    }
}

impl<R: Read> ParallelFrameDecoder<R> {
    /// Hands out the next `len` bytes of the content being handed out (which holds at least as
    /// many), hashing them: [`consume`](BufRead::consume) with a copy, which `copy` makes (and
    /// hashes, through the parser) from the unread content (`len` bytes and what comes after).
    fn hand_out(&mut self, len: usize, copy: impl FnOnce(&mut FrameParser, &[u8])) {
        if self.current.from_output {
            copy(&mut self.parser, self.output.unread());
            self.output.consume(len);
        } else {
            let content = &self.current.block[self.current.pos..self.current.end];
            copy(&mut self.parser, content);
            self.current.pos += len;
        }
    }
}

impl<R: Read> BufRead for ParallelFrameDecoder<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        loop {
            let empty = if self.current.from_output {
                self.output.unread().is_empty()
            } else {
                self.current.pos == self.current.end
            };
            if !empty {
                break;
            }
            if !self.fill()? {
                return Ok(&[]);
            }
        }
        Ok(if self.current.from_output {
            self.output.unread()
        } else {
            &self.current.block[self.current.pos..self.current.end]
        })
    }

    /// Hashes the content consumed for the frame's content checksum (the parser's verdict on
    /// it comes once all of the frame's content was consumed: `fill` hands the parser the next
    /// unit only then). The caller may not have read it (a write to `/dev/null`), so each line is
    /// asked for ahead of the hash: it may be in the cache of the core that decoded it.
    fn consume(&mut self, amount: usize) {
        let taken = if self.current.from_output {
            let unread = self.output.unread();
            &unread[..amount.min(unread.len())]
        } else {
            let end = (self.current.pos + amount).min(self.current.end);
            &self.current.block[self.current.pos..end]
        };
        self.parser.hash_content_ahead(taken);
        let taken = taken.len();
        if self.current.from_output {
            self.output.consume(taken);
        } else {
            self.current.pos += taken;
        }
    }
}

/// The most content `read_to_end` appends and hashes in one pass (see
/// [`read`](ParallelFrameDecoder::read)) at a time: well within the L1 cache.
const HAND_OUT_PIECE: usize = 16 << 10;

impl<R: Read> Drop for ParallelFrameDecoder<R> {
    /// Leaves the buffers to the next decoder (blocks still being decoded keep theirs: nothing
    /// waits for them).
    fn drop(&mut self) {
        let mut blocks = core::mem::take(&mut self.spare_blocks);
        blocks.push(core::mem::take(&mut self.current.block));
        // A block buffer starts with the dictionary of the decoder that filled it: the next
        // decoder writes its own (`decode_block` on an empty buffer).
        for block in &mut blocks {
            block.clear();
        }
        DECODER_BLOCKS.give(blocks);
        // Input buffers hold this stream's compressed bytes, and `read_unit` hands a buffer's
        // initialised part to the inner reader to fill: cleared, so the next decoder's reader is
        // given zeroes (`read_unit` writes them over warm memory), never this stream's input.
        let mut units = core::mem::take(&mut self.spare_data);
        units.push(core::mem::take(&mut self.unit));
        for unit in &mut units {
            unit.clear();
        }
        DECODER_UNITS.give(units);
    }
}

impl<R: Read> core::fmt::Debug for ParallelFrameDecoder<R> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ParallelFrameDecoder")
            .field("input_pos", &self.parser.input_pos())
            .field("frame_info", &self.frame_info())
            .field("failure", &self.parser.failure())
            .field("threads", &self.jobs.threads())
            .field("in_flight", &self.in_flight)
            .finish_non_exhaustive()
    }
}
