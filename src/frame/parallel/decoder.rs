//! [`ParallelFrameDecoder`]: frames from a `std::io::Read`, the blocks of independent-block
//! frames decoded ahead by the worker threads.
//!
//! The one [`FrameParser`] runs on the caller's thread and sees every unit of the stream in
//! order, exactly as in [`FrameDecoder`](crate::frame::FrameDecoder): it checks every header,
//! block size, block checksum, content size and content checksum, and gives every verdict. The
//! content checksum of an independent-block frame is computed beside the decoding (the job that
//! decodes a batch of blocks then hashes them, in order, see [`HashChain`]); the parser compares
//! it with the stored checksum when it reaches it, as with its own hash. When
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
//! thread has serial work of its own (reading the input, the parser and its content checksum,
//! about half as long as decoding the blocks; handing the content out), and when the next block
//! is not decoded yet it decodes the oldest block nobody has claimed instead of waiting. With a
//! worker per thread
//! beside it (as before), 2 threads meant 3 runnable threads on 2 cores: the caller waited for a
//! core, and at equal real-time priority it ran only once the workers had emptied the window,
//! and then alone (1.2-1.6x the sequential decoder on the 2-vCPU CI machine; 1.85-1.9x now with
//! 4 MiB blocks). The window is topped up as soon as a block is taken, before the parser hashes
//! it, so the workers have the next blocks meanwhile. Blocks are decoded into the spare
//! capacity of their buffers (fresh memory is not cleared first), and a dropped decoder leaves
//! its buffers to the next one in the process (see [`Stash`]).
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
//! With 64 KiB blocks on 2 threads the caller's thread is the slower side: of a block's time in
//! the sequential decoder (about 34 µs on the CI machine: decoding half, the content checksum a
//! quarter, handing it out through `io::copy` a sixth), the caller keeps the checksum and the
//! hand-out, and both now read a block another core wrote (each block's 64 KiB and its
//! compressed bytes cross between the cores' L2 caches, which the sequential decoder never
//! pays). That holds the streamed 64 KiB case to about 1.6x (1.4x before the batches).

use std::collections::VecDeque;
use std::io::{self, BufRead, Read};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use std::vec::Vec;
use xxhash_rust::xxh32::Xxh32;

use super::pool::{Pending, Queue};
use crate::block::MAX_HISTORY;
use crate::frame::codec::{
    block_word, reserve_exact, BlockJob, BlockTarget, DataBlock, DictRule, FrameParser, History,
    Sink, Step,
};
use crate::frame::decompressor::{Output, StreamSink};
use crate::frame::header::FrameInfo;
use crate::frame::io_error;
use crate::frame::read::read_buffered;
use crate::frame::BlockMode;
use crate::Error;

/// Decompresses a stream of concatenated frames, as [`FrameDecoder`](crate::frame::FrameDecoder)
/// (same content, same errors, same resumable reader errors), decoding the blocks of
/// independent-block frames ahead on a shared pool of worker threads and on the caller's
/// thread. Linked and legacy frames are decoded on the caller's thread.
///
/// At most twice as many blocks as there are threads are read ahead (of blocks smaller than
/// 256 KiB, that many batches of 256 KiB), so memory is bounded by the block size (each block
/// in flight holds its compressed bytes and a buffer of the block size), not by the content
/// size. Dropping the decoder never waits for the workers; its
/// buffers (up to 24 MiB of each kind) are kept for the next decoder in the process, which
/// then does not pay the first touch of fresh memory again.
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
    /// The content checksum of the frame being decoded, when the decoder computes it (see
    /// [`HashChain`]).
    chain: Arc<HashChain>,
    /// The frame's content is hashed by the [`chain`](Self::chain), not by the parser.
    hashing: bool,
    /// The chain broke in this frame (a block its job could not decode): the parser's sink
    /// hashes every block after it.
    own_hash: bool,
    /// The place in the chain of the next block read ahead.
    seq: u64,
    /// Batches the parser has taken every block of, in order, until the chain has hashed them
    /// (it holds them meanwhile): then their buffers are used again.
    retiring: VecDeque<Blocks>,
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

/// A batch of blocks once decoded, shared by the parser (which hands them out) and the
/// [`HashChain`] (which hashes them).
type Blocks = Arc<Vec<Decoded>>;

/// A batch of blocks read ahead, decoded by one job.
enum Batch {
    Pending(Pending<Blocks>),
    /// Decoded: `blocks[next..]` are the blocks the parser has not taken.
    Done {
        blocks: Blocks,
        next: usize,
    },
}

/// Where reading ahead is.
struct Ahead {
    block_max: usize,
    checksum_len: usize,
    /// The size and stored flag of the block whose bytes come next (after its word).
    block: Option<(usize, bool)>,
    /// The blocks of one job (see [`BATCH_BYTES`]).
    batch: usize,
    /// The jobs hash the blocks for the frame's content checksum.
    hash: bool,
}

/// The content a batch of blocks read ahead holds at most: blocks smaller than this go to the
/// jobs in batches of `BATCH_BYTES / block size` (4 blocks of 64 KiB), so that a job is not a
/// hand-off and a wake-up for every block. The window grows with it: `2 × threads` batches in
/// flight, so at most `2 × threads × max(block size, BATCH_BYTES)` of content (and as much
/// compressed input) whatever the block size. Measured with 64 KiB blocks on 2 threads (the
/// 2-vCPU CI machine, real-time priority, against 1.72-1.76 GiB/s for the sequential decoder):
/// single blocks 2.4-2.5 GiB/s, 128 KiB batches 2.58-2.61, 256 KiB 2.80-2.85, 512 KiB
/// 2.38-2.56, 1 MiB 1.86-1.97 (the caller's thread, which decodes the oldest unclaimed batch
/// when its block is not ready, then leaves its own serial work for longer, and the blocks in
/// flight no longer fit in the 2 MiB L2).
const BATCH_BYTES: usize = 256 << 10;

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
    /// The block's place in the [`HashChain`], and whether the chain hashes it.
    seq: u64,
    hash: bool,
}

impl Decoded {
    /// The block's content, if it was decoded.
    fn content(&self) -> Option<&[u8]> {
        self.len
            .map(|len| &self.block[self.start..self.start + len])
    }
}

/// The content being handed out: `blocks[index].block[pos..end]`, or the sequential decoder's
/// buffers.
struct Current {
    from_output: bool,
    blocks: Option<Blocks>,
    index: usize,
    pos: usize,
    end: usize,
}

impl Current {
    /// The content left to hand out of a block decoded ahead.
    fn decoded(&self) -> &[u8] {
        self.blocks
            .as_ref()
            .map_or(&[], |blocks| &blocks[self.index].block[self.pos..self.end])
    }
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

    fn with_parts(reader: R, parser: FrameParser, dict: Option<&[u8]>, threads: usize) -> Self {
        let tail = dict.map(|dict| &dict[dict.len().saturating_sub(MAX_HISTORY)..]);
        let jobs = Queue::new(threads);
        Self {
            reader,
            parser,
            unit: Vec::new(),
            unit_len: 0,
            queue: VecDeque::new(),
            batches: VecDeque::new(),
            forming: Vec::new(),
            ahead: None,
            stashed: None,
            limit: 2 * jobs.threads(),
            jobs,
            chain: Arc::new(HashChain::default()),
            hashing: false,
            own_hash: false,
            seq: 0,
            retiring: VecDeque::new(),
            in_flight: 0,
            peak_in_flight: 0,
            output: Output::new(tail.unwrap_or_default().to_vec()),
            current: Current {
                from_output: true,
                blocks: None,
                index: 0,
                pos: 0,
                end: 0,
            },
            dict: tail.map(Arc::from),
            spare_data: Stash::take(&STASHED_UNITS),
            spare_blocks: Stash::take(&STASHED_BLOCKS),
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

    /// Takes back the buffers of the batches the chain has hashed, and returns how many blocks
    /// of the others the chain still holds (they count in the window); `taking` is the batch of
    /// the block the parser is taking, if any.
    fn recycle(&mut self, taking: Option<&Blocks>) -> usize {
        while let Some(front) = self.retiring.front() {
            if Arc::strong_count(front) > 1 {
                break;
            }
            let Some(blocks) = self.retiring.pop_front().and_then(Arc::into_inner) else {
                break;
            };
            for decoded in blocks {
                self.spare_data.push(decoded.data);
                if decoded.block.capacity() > 0 {
                    self.spare_blocks.push(decoded.block);
                }
            }
        }
        let current = self.current.blocks.as_ref();
        self.retiring
            .iter()
            .filter(|blocks| held_by_chain(blocks, [current, taking]))
            .map(|blocks| blocks.len())
            .sum()
    }

    /// Reads units ahead of the parser while it is in an independent-block frame, handing each
    /// block to a worker. Never fails: an error of the reader is stashed.
    fn read_ahead(&mut self, taking: Option<&Blocks>) {
        let held = self.recycle(taking);
        if self.stashed.is_some() {
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
                        hash: self.hashing && !self.own_hash,
                    });
                }
            }
        }
        self.read_batches(held);
        // Whatever stopped the reading, the blocks read go to a job.
        self.submit();
    }

    /// [`read_ahead`](Self::read_ahead)'s loop: reads batches while the window has room for
    /// one (`held`: blocks the parser has taken that the chain still holds).
    fn read_batches(&mut self, held: usize) {
        while let Some(ahead) = &self.ahead {
            let limit = self.limit * ahead.batch;
            let used = self.in_flight + held;
            if used >= limit || (self.forming.is_empty() && used + ahead.batch > limit) {
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

    /// The word read in `unit[..4]` and says what comes next.
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
        let hash = ahead.hash;
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
            seq: self.seq,
            hash,
        });
        self.seq += 1;
        self.queue.push_back(Unit::Block);
        self.in_flight += 1;
        self.peak_in_flight = self.peak_in_flight.max(self.in_flight);
        if self.forming.len() >= batch {
            self.submit();
        }
    }

    /// Hands the blocks read for the next batch (if any) to a job: it decodes them in order, up
    /// to the first the block decoder rejects (the parser stops there), and offers them to the
    /// chain.
    fn submit(&mut self) {
        if self.forming.is_empty() {
            return;
        }
        let mut batch = core::mem::take(&mut self.forming);
        let dict = self.dict.clone();
        let chain = batch[0].hash.then(|| Arc::clone(&self.chain));
        let caller = std::thread::current().id();
        let pending = self.jobs.push(move || {
            let dict = dict.as_deref().unwrap_or_default();
            for decoded in &mut batch {
                decoded.len = decode_block(decoded, dict);
                if decoded.len.is_none() {
                    break;
                }
            }
            let blocks = Arc::new(batch);
            if let Some(chain) = chain {
                // The caller's thread hashes its own batch only (see `HashChain::offer`).
                chain.offer(&blocks, std::thread::current().id() != caller);
            }
            blocks
        });
        self.batches.push_back(Batch::Pending(pending));
    }

    /// The next block read ahead, decoded (waiting for its batch, or decoding it on this
    /// thread): its batch and its place there.
    fn next_decoded(&mut self) -> (Blocks, usize) {
        loop {
            let Some(batch) = self.batches.front_mut() else {
                unreachable!("every block read ahead is in a batch")
            };
            match batch {
                Batch::Pending(_) => {
                    let Some(Batch::Pending(pending)) = self.batches.pop_front() else {
                        unreachable!()
                    };
                    let blocks = self.jobs.wait(pending);
                    self.batches.push_front(Batch::Done { blocks, next: 0 });
                }
                Batch::Done { blocks, next } => {
                    let index = *next;
                    *next += 1;
                    let taken = (index < blocks.len()).then(|| Arc::clone(blocks));
                    if *next >= blocks.len() {
                        let Some(Batch::Done { blocks, .. }) = self.batches.pop_front() else {
                            unreachable!()
                        };
                        self.retiring.push_back(blocks);
                    }
                    if let Some(blocks) = taken {
                        return (blocks, index);
                    }
                }
            }
        }
    }

    /// Hands the parser a unit; `decoded` is what a worker made of it (`blocks[index]`).
    fn process(&mut self, unit: &[u8], decoded: Option<(&Blocks, usize)>) -> io::Result<Step> {
        let mut sink = ParallelSink {
            output: &mut self.output,
            current: &mut self.current,
            decoded,
            chain: &self.chain,
            hashing: &mut self.hashing,
            own_hash: &mut self.own_hash,
            seq: self.seq,
        };
        self.parser.process(unit, &mut sink).map_err(io_error)
    }

    /// Decodes until some content is available or the input ends. Returns `false` at the end.
    fn fill(&mut self) -> io::Result<bool> {
        loop {
            if let Some(error) = self.parser.failure() {
                return Err(io_error(error.clone()));
            }
            self.read_ahead(None);
            let step = match self.queue.pop_front() {
                Some(Unit::Word(word)) => self.process(&word, None)?,
                Some(Unit::Ended(bytes)) => self.process(&bytes, None)?,
                Some(Unit::Block) => {
                    let (blocks, index) = self.next_decoded();
                    self.in_flight -= 1;
                    // The next block goes to the workers before this one is checked and
                    // handed out, so they have work while the parser checks this one.
                    self.read_ahead(Some(&blocks));
                    let unit = &blocks[index].data[..blocks[index].unit_len];
                    self.process(unit, Some((&blocks, index)))?
                }
                None if self.ahead.is_some() && self.stashed.is_none() => {
                    // The window is full of blocks handed out that the chain has not hashed
                    // yet (a thread is hashing them): their buffers come back then.
                    self.wait_for_chain();
                    continue;
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

    /// Waits until the chain has hashed the oldest batch it holds that the parser has taken.
    fn wait_for_chain(&mut self) {
        let current = self.current.blocks.as_ref();
        let held = self
            .retiring
            .iter()
            .find(|blocks| held_by_chain(blocks, [current, None]));
        if let Some(last) = held.and_then(|blocks| blocks.last()) {
            drop(self.chain.wait_until(last.seq + 1));
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

/// Whether the chain still holds `blocks` (a batch of `retiring`): more references to it than
/// the parser's own (`retiring`'s, and those of `parser` that are the same batch).
fn held_by_chain(blocks: &Blocks, parser: [Option<&Blocks>; 2]) -> bool {
    let own = parser
        .iter()
        .flatten()
        .filter(|held| Arc::ptr_eq(held, blocks))
        .count();
    Arc::strong_count(blocks) > 1 + own
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
    decoded: Option<(&'a Blocks, usize)>,
    chain: &'a HashChain,
    hashing: &'a mut bool,
    own_hash: &'a mut bool,
    /// The place in the chain of the next block read ahead.
    seq: u64,
}

impl Sink for ParallelSink<'_> {
    fn begin_frame(&mut self, info: &FrameInfo) -> Result<(), Error> {
        let _ = info;
        *self.hashing = false;
        *self.own_hash = false;
        Ok(())
    }

    /// The content of an independent-block frame is hashed through the [`HashChain`] by the
    /// jobs that decode its blocks read ahead, and by this sink for any other block.
    fn hashes_content(&mut self, info: &FrameInfo) -> bool {
        if info.block_mode != BlockMode::Independent {
            return false;
        }
        // No block is read ahead between frames: the chain has nothing to hash.
        self.chain.reset(self.seq);
        *self.hashing = true;
        true
    }

    fn content_digest(&mut self) -> u32 {
        // Every block of the frame was handed to the parser, so every job that offered one
        // has finished; the chain may still be hashing the last ones.
        self.chain.digest(self.seq)
    }

    fn decode(&mut self, job: &BlockJob<'_>) -> Result<&[u8], Error> {
        let mut read_ahead = None;
        if let Some((blocks, index)) = self.decoded.take() {
            let decoded = &blocks[index];
            read_ahead = Some(decoded.seq);
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
                self.current.from_output = false;
                self.current.blocks = Some(Arc::clone(blocks));
                self.current.index = index;
                self.current.pos = decoded.start;
                self.current.end = decoded.start + len;
                let content = &blocks[index].block[decoded.start..decoded.start + len];
                if *self.hashing && (*self.own_hash || !decoded.hash) {
                    // The chain broke before it: hashed here, in order.
                    self.chain.hash_here(content, Some(decoded.seq), self.seq);
                }
                return Ok(self.current.decoded());
            }
            // Unreachable with a decoded block the chain hashes: its size, stored flag, block
            // maximum and history are those it was read ahead with. (Were it reached, the
            // content would be hashed twice and the frame would fail its checksum: an error,
            // never a wrong byte.)
            debug_assert!(decoded.len.is_none() || !decoded.hash);
        }
        self.current.from_output = true;
        self.current.blocks = None;
        // Without a `Vec` to decode into, the sequential sink decodes into `output`: what it
        // returns is what `output` holds unread.
        StreamSink {
            output: self.output,
            direct: None,
        }
        .decode(job)?;
        if *self.hashing {
            if read_ahead.is_some() {
                // A block its job could not decode (a failed allocation): the chain broke
                // there, and this sink hashes the rest of the frame.
                *self.own_hash = true;
            }
            self.chain
                .hash_here(self.output.unread(), read_ahead, self.seq);
        }
        Ok(self.output.unread())
    }
}

/// The content checksum of an independent-block frame, computed beside the decoding, in the
/// order of the blocks (their `seq`): the job that decodes a batch hashes it if the chain is at
/// its first block, and then every batch after it that is already decoded and waiting; else it
/// leaves its batch waiting, for the thread hashing the batches before it (the one-shot
/// decoder's rule, so no job ever waits for another). The parser's sink keeps a batch it has
/// handed out until the chain has hashed it, and waits for the chain only at the frame's
/// content checksum (or when the window is full of such batches).
///
/// A block its job could not decode breaks the chain there: it drops the batches waiting, and
/// the jobs after that hash nothing; the parser's sink, which decodes that block again, hashes
/// it and every block after it itself, in order (once the chain has hashed the blocks before).
#[derive(Default)]
struct HashChain {
    state: Mutex<ChainState>,
    /// The chain hashed a batch or broke, and the parser waits.
    hashed: Condvar,
}

struct ChainState {
    /// The frame's hash state; `None` while a thread hashes outside the lock.
    hasher: Option<Xxh32>,
    /// The place of the next block to hash.
    next: u64,
    /// Decoded batches not hashed yet, in order.
    waiting: VecDeque<Blocks>,
    broken: bool,
    /// The parser waits on [`HashChain::hashed`].
    waiters: usize,
}

impl Default for ChainState {
    fn default() -> Self {
        Self {
            hasher: Some(Xxh32::new(0)),
            next: 0,
            waiting: VecDeque::new(),
            broken: false,
            waiters: 0,
        }
    }
}

impl HashChain {
    fn lock(&self) -> MutexGuard<'_, ChainState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A new frame, whose first block read ahead will be `next`.
    fn reset(&self, next: u64) {
        let mut state = self.lock();
        state.hasher = Some(Xxh32::new(0));
        state.next = next;
        state.waiting.clear();
        state.broken = false;
    }

    /// A job decoded `blocks`: leaves them waiting in the chain, and hashes what is ready (the
    /// chain at the first batch waiting, and nobody hashing): with `all`, every batch ready
    /// (a worker), else `blocks` alone, if it is the one ready (the caller's thread, whose own
    /// work comes first: the next job's offer, or the parser when it waits, hashes the rest).
    fn offer(&self, blocks: &Blocks, all: bool) {
        let Some(first) = blocks.first().map(|decoded| decoded.seq) else {
            return;
        };
        let mut state = self.lock();
        if state.broken || first < state.next {
            return;
        }
        let at = state
            .waiting
            .iter()
            .position(|waiting| waiting[0].seq > first)
            .unwrap_or(state.waiting.len());
        state.waiting.insert(at, Arc::clone(blocks));
        let only = (!all).then_some(blocks);
        while let Some(next) = self.hash_ready(state, only) {
            state = next;
        }
    }

    /// Hashes the first batch waiting if it is ready (and, with `only`, is that batch).
    /// Returns the lock again if it did (more may be ready), `None` if nothing was ready.
    fn hash_ready<'a>(
        &'a self,
        mut state: MutexGuard<'a, ChainState>,
        only: Option<&Blocks>,
    ) -> Option<MutexGuard<'a, ChainState>> {
        let next = state.next;
        let ready = !state.broken
            && state.hasher.is_some()
            && state.waiting.front().is_some_and(|waiting| {
                waiting[0].seq == next && only.is_none_or(|only| Arc::ptr_eq(only, waiting))
            });
        if !ready {
            return None;
        }
        let batch = state.waiting.pop_front()?;
        let mut hasher = state.hasher.take()?;
        drop(state);
        let mut hashed = 0;
        let mut complete = true;
        for decoded in batch.iter() {
            let Some(content) = decoded.content() else {
                complete = false;
                break;
            };
            hasher.update(content);
            hashed += 1;
        }
        // Released before the chain moves on: the parser takes the buffers back once the
        // chain is past them.
        drop(batch);
        let mut state = self.lock();
        state.hasher = Some(hasher);
        state.next += hashed;
        if !complete {
            state.broken = true;
            state.waiting.clear();
        }
        if state.waiters > 0 {
            self.hashed.notify_all();
        }
        Some(state)
    }

    /// Waits (on the parser's thread) until `done` holds of the chain, which is not hashing;
    /// hashes the batches ready meanwhile.
    fn wait_for(&self, done: impl Fn(&ChainState) -> bool) -> MutexGuard<'_, ChainState> {
        let mut state = self.lock();
        loop {
            if state.hasher.is_some() && done(&state) {
                return state;
            }
            state = match self.hash_ready(state, None) {
                Some(state) => state,
                None => {
                    let mut state = self.lock();
                    if state.hasher.is_some() && done(&state) {
                        return state;
                    }
                    state.waiters += 1;
                    state = self
                        .hashed
                        .wait(state)
                        .unwrap_or_else(PoisonError::into_inner);
                    state.waiters -= 1;
                    state
                }
            };
        }
    }

    /// Waits until the chain has hashed the blocks before `seq` (or broke), and is not hashing.
    fn wait_until(&self, seq: u64) -> MutexGuard<'_, ChainState> {
        self.wait_for(|state| state.next >= seq || state.broken)
    }

    /// Hashes `content` on the parser's thread, after the blocks before it: block `seq` read
    /// ahead, or (`None`) a block after all those read ahead so far (`read` of them).
    fn hash_here(&self, content: &[u8], seq: Option<u64>, read: u64) {
        // The blocks before are hashed (by the chain, or here after it broke).
        let before = seq.unwrap_or(read);
        let mut state = self.wait_for(|state| state.next >= before);
        if let Some(hasher) = state.hasher.as_mut() {
            hasher.update(content);
        }
        if seq.is_some() {
            state.next += 1;
        }
    }

    /// The frame's digest, once every block before `seq` is hashed.
    fn digest(&self, seq: u64) -> u32 {
        let state = self.wait_until(seq);
        // After a break the parser hashed the rest: the chain is complete either way.
        debug_assert_eq!(state.next, seq);
        state.hasher.as_ref().map_or(0, Xxh32::digest)
    }
}

impl<R: Read> Read for ParallelFrameDecoder<R> {
    /// As `Read::read_to_end` promises, content decoded before an error stays appended.
    fn read_to_end(&mut self, buf: &mut Vec<u8>) -> io::Result<usize> {
        let start = buf.len();
        loop {
            let available = self.fill_buf()?;
            if available.is_empty() {
                return Ok(buf.len() - start);
            }
            let len = available.len();
            if buf.try_reserve(len).is_err() {
                return Err(io_error(Error::AllocationFailed {
                    bytes: buf.len().saturating_add(len),
                }));
            }
            buf.extend_from_slice(available);
            self.consume(len);
        }
    }

    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        read_buffered(self, out)
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
            self.current.decoded()
        })
    }

    fn consume(&mut self, amount: usize) {
        if self.current.from_output {
            self.output.consume(amount);
        } else {
            self.current.pos = (self.current.pos + amount).min(self.current.end);
        }
    }
}

/// Buffers of dropped decoders, for the next decoders in the process: see [`Stash`].
static STASHED_UNITS: Mutex<Stash> = Mutex::new(Stash::new());
static STASHED_BLOCKS: Mutex<Stash> = Mutex::new(Stash::new());

/// The most buffer capacity each stash keeps (the input and the block buffers of one decoder
/// of two threads with 4 MiB blocks, which holds five of each at most).
const STASH_BYTES: usize = 24 << 20;

/// Buffers a dropped decoder leaves for the next one, up to [`STASH_BYTES`] of capacity.
///
/// A decoder holds up to `2 × threads + 1` block buffers and as many input buffers, each as
/// large as a block (4 MiB by default), so one decoder's fresh memory is a third of a 64 MiB
/// content or more. Fresh memory costs its first touch (a page fault per 4 KiB page, each
/// slower in a virtual machine), and with glibc's allocator a dropped decoder's buffers go back
/// to the system, so every decoder paid it again: on the 2-vCPU CI machine, 4 MiB blocks
/// decoded no faster on 2 threads than on one (the sequential decoder, which holds one of each,
/// pays it too, less). Kept here, the next decoder in the process starts with warm buffers.
struct Stash {
    buffers: Vec<Vec<u8>>,
    bytes: usize,
}

impl Stash {
    const fn new() -> Self {
        Self {
            buffers: Vec::new(),
            bytes: 0,
        }
    }

    /// Takes every buffer.
    fn take(stash: &Mutex<Self>) -> Vec<Vec<u8>> {
        let mut stash = stash.lock().unwrap_or_else(PoisonError::into_inner);
        stash.bytes = 0;
        core::mem::take(&mut stash.buffers)
    }

    /// Keeps `buffers` (the largest first) while the stash holds less than [`STASH_BYTES`].
    fn give(stash: &Mutex<Self>, mut buffers: Vec<Vec<u8>>) {
        buffers.retain(|buffer| buffer.capacity() > 0);
        buffers.sort_by_key(|buffer| core::cmp::Reverse(buffer.capacity()));
        let mut stash = stash.lock().unwrap_or_else(PoisonError::into_inner);
        for buffer in buffers {
            if stash.bytes + buffer.capacity() <= STASH_BYTES {
                stash.bytes += buffer.capacity();
                stash.buffers.push(buffer);
            }
        }
    }
}

impl<R: Read> Drop for ParallelFrameDecoder<R> {
    /// Leaves the buffers to the next decoder (blocks still being decoded or hashed keep
    /// theirs: nothing waits for them).
    fn drop(&mut self) {
        let mut blocks = core::mem::take(&mut self.spare_blocks);
        let mut units = core::mem::take(&mut self.spare_data);
        units.push(core::mem::take(&mut self.unit));
        self.current.blocks = None;
        let done = self.batches.drain(..).filter_map(|batch| match batch {
            Batch::Done { blocks, .. } => Some(blocks),
            Batch::Pending(_) => None,
        });
        for batch in done.chain(self.retiring.drain(..)) {
            // Those the chain still holds are left to it.
            for decoded in Arc::into_inner(batch).into_iter().flatten() {
                blocks.push(decoded.block);
                units.push(decoded.data);
            }
        }
        // A block buffer starts with the dictionary of the decoder that filled it: the next
        // decoder writes its own (`decode_block` on an empty buffer).
        for block in &mut blocks {
            block.clear();
        }
        Stash::give(&STASHED_BLOCKS, blocks);
        // Input buffers hold this stream's compressed bytes, and `read_unit` hands a buffer's
        // initialised part to the inner reader to fill: cleared, so the next decoder's reader is
        // given zeroes (`read_unit` writes them over warm memory), never this stream's input.
        for unit in &mut units {
            unit.clear();
        }
        Stash::give(&STASHED_UNITS, units);
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
