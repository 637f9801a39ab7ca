//! The one-shot parallel decoder: each block of an independent-block frame decoded by whichever
//! thread claims it straight into its final place in the output, while the caller's thread runs
//! the sequential [`FrameParser`] over the input in order, behind the decoding (a pipeline).
//!
//! 1. A walk over the block size words (no decoding, no allocation) plans the output: every data
//!    block gets a region of the output as large as the most it may decode to (its
//!    [`room`](crate::frame::codec::DataBlock::room), within the caller's cap and the frame's
//!    declared size), one after the other. Anything the walk does not plan for (legacy or
//!    linked frames, a structural problem, a declared size above the cap) leaves the input to
//!    the sequential decoder. The output is allocated once, for the sum of the regions.
//! 2. The caller's thread and `threads - 1` workers of the pool claim blocks in order (at most
//!    [`DECODE_AHEAD`]` × threads` ahead of the parser) and decode each into its region: no
//!    copy, and the first touch of the fresh output's pages happens on the thread that decodes
//!    there. The thread that decodes a block verifies its block checksum first, and hashes its
//!    content for the frame's content checksum when the [`Chain`] is at it (else the thread
//!    hashing the block before it goes on with it): the content checksum is hashed in order,
//!    but by either thread, mostly on the core that just wrote the block.
//! 3. Meanwhile the caller's thread hands the input to the parser unit by unit, exactly as the
//!    sequential one-shot decoder does, checksums off; for each data block its sink waits for
//!    (or decodes itself) the planned block and returns its content. The parser checks the
//!    structure (headers, content sizes); the planner's walk read the stored content checksums,
//!    which the chain's digests must match once all is decoded.
//!
//! A block that decodes to less than its region (the last block of a frame without a declared
//! size, a block ended early by a flush) leaves a gap: the blocks after it are moved down once
//! all are decoded. Any error, of the parser or of a block, and any block the parser asks for
//! that was not planned, ends the fast path: the caller then decodes the input with the
//! sequential decoder for its verdict, so every error is exactly the sequential decoder's.

use std::collections::VecDeque;
use std::ops::Range;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::vec::Vec;

use xxhash_rust::xxh32::{xxh32, Xxh32};

use super::pipeline::ordered;
use crate::block::{self, MAX_HISTORY};
use crate::frame::codec::{
    block_content_bound, block_word, BlockJob, DictRule, FrameParser, History, Sink, Step,
};
use crate::frame::header::{le32, parse_header, FrameHeader, FrameInfo};
use crate::frame::BlockMode;
use crate::Error;

/// The most separate moves (gaps in the planned output) the fast path keeps track of; a stream
/// with more short blocks goes to the sequential decoder.
const MAX_MOVES: usize = 1 << 12;

/// How many blocks per thread may be decoded ahead of the parser. Decoded blocks take no
/// memory of their own (each is in its place in the output), so the window only bounds how far
/// the decoding runs ahead of the parser and of the content checksum's [`Chain`]: while a
/// thread hashes a run of blocks (in the job of the first of them, whose result the parser then
/// waits for), the others decode on. With 2 blocks per thread the other thread stopped after 3
/// blocks: 64 MiB in 4 MiB blocks on 2 threads took 46-48 ms, against 39-41 ms with 4 (Intel
/// Xeon family 6 model 167, 2 vCPUs, 2026-12-05, `1cf3601`; more in `asm-notes/parallel.md`).
const DECODE_AHEAD: usize = 4;

/// What the fast path made of the input.
pub(super) enum Outcome {
    /// The content, exactly the sequential decoder's.
    Done(Vec<u8>),
    /// An input this path does not plan for (legacy or linked frames, a structural problem, a
    /// declared size above the cap, an output that cannot be allocated at once).
    Unplanned,
    /// Decoding failed (or met what the plan did not foresee): the sequential decoder has the
    /// verdict.
    Failed,
}

/// Decodes `src` (every frame, as [`decompress`](crate::frame::decompress)) into at most
/// `max_out` bytes with `threads` threads, the caller's among them.
pub(super) fn decompress(
    src: &[u8],
    dict: &[u8],
    rule: DictRule,
    max_out: usize,
    threads: usize,
) -> Outcome {
    let dict = &dict[dict.len().saturating_sub(MAX_HISTORY)..];
    let history = if rule == DictRule::None {
        History::None
    } else {
        History::Dict
    };
    // The plan: only the total is kept (the walk is repeated as blocks are claimed).
    let mut walk = Planner::new(src, max_out);
    let mut blocks = 0usize;
    let total = loop {
        match walk.next() {
            Next::Block(_) => blocks += 1,
            Next::End => break walk.planned,
            Next::Unplanned => return Outcome::Unplanned,
        }
    };
    let Some(mut out) = zeroed(total) else {
        return Outcome::Unplanned;
    };
    // The checksums are verified beside the decoding (the parser skips them): block checksums
    // by the thread that decodes the block, content checksums by the chain.
    let chain = Chain::new();
    let mut planner = Planner::new(src, max_out);
    let mut rest = &mut out[..];
    // Hands out the blocks in order, each with its region of the output.
    let source = move || {
        let Next::Block(planned) = planner.next() else {
            return None;
        };
        let (region, after) = core::mem::take(&mut rest).split_at_mut(planned.room);
        rest = after;
        Some(Claim { planned, region })
    };
    let work = |claim, _: &mut ()| place(claim, src, dict, &chain);
    let moves = ordered(
        threads,
        DECODE_AHEAD,
        source,
        work,
        || false,
        |next| {
            let mut sink = PlacedSink {
                next,
                src,
                history,
                current: &[],
                produced: 0,
                taken: 0,
                max_out,
                moves: Vec::new(),
            };
            let parsed = parse(src, rule, &mut sink);
            // Every planned block went through the parser (as it must, the walk and the parser
            // seeing the same structure).
            (parsed.is_ok() && sink.taken == blocks).then_some((sink.produced, sink.moves))
        },
    );
    let Some((produced, moves)) = moves else {
        return Outcome::Failed;
    };
    if !chain.verify(walk.hashed_blocks, &walk.checksums) {
        return Outcome::Failed;
    }
    // Every block is in its region: close the gaps (in order, each move goes down, onto bytes
    // already moved or no longer needed).
    for (from, to, len) in moves {
        out.copy_within(from..from + len, to);
    }
    out.truncate(produced);
    if out.capacity() - produced > produced / 4 + 4096 {
        out.shrink_to_fit();
    }
    Outcome::Done(out)
}

/// Runs the parser over `src` as the sequential one-shot decoder does (slices of the input),
/// but without checksums: the decoding threads verify them.
fn parse(src: &[u8], rule: DictRule, sink: &mut impl Sink) -> Result<(), Error> {
    let mut parser = FrameParser::new(rule);
    parser.set_verify_checksums(false);
    let mut rest = src;
    loop {
        let take = parser.need().min(rest.len());
        let (unit, after) = rest.split_at(take);
        if parser.process(unit, sink)? == Step::End {
            return Ok(());
        }
        rest = after;
    }
}

/// `len` zero bytes, allocated without touching them (`vec!` of zeros asks the allocator for
/// zeroed memory, which the system maps lazily): the pages are first written, and so faulted in,
/// by the threads that decode there, not by the caller's thread. `None` if the allocation
/// fails: an allocation of that size is tried first, fallibly, as the sequential decoder does
/// (`vec!` itself would abort).
fn zeroed(len: usize) -> Option<Vec<u8>> {
    Vec::<u8>::new().try_reserve_exact(len).ok()?;
    Some(vec![0; len])
}

/// A data block planned for: its bytes in the input and its region of the output.
#[derive(Debug, Clone)]
struct Planned {
    /// The block's bytes in the input (without its checksum).
    data: Range<usize>,
    stored: bool,
    /// The block checksum stored after it, if the frame has them.
    block_checksum: Option<u32>,
    /// In a frame with a content checksum: the block's place in the [`Chain`] (among such
    /// blocks of the stream) and its frame's number.
    hashed: Option<(usize, usize)>,
    /// The frame's block maximum size.
    block_max: usize,
    /// Where its region starts in the output, and its length.
    at: usize,
    room: usize,
}

enum Next {
    Block(Planned),
    /// The input ends (after a whole frame).
    End,
    /// Something this path does not plan for.
    Unplanned,
}

/// The walk over the frames' structure that plans the output.
struct Planner<'a> {
    src: &'a [u8],
    pos: usize,
    /// Inside an LZ4 frame with independent blocks.
    frame: Option<InFrame>,
    /// Output planned so far.
    planned: usize,
    max_out: usize,
    /// LZ4 frames started so far, and blocks planned so far in frames with a content checksum.
    frames: usize,
    hashed_blocks: usize,
    /// The stored content checksum of every frame that has one: (frame, checksum).
    checksums: Vec<(usize, u32)>,
}

struct InFrame {
    /// The frame's number in the stream (among LZ4 frames).
    number: usize,
    block_max: usize,
    block_checksum: bool,
    content_checksum: bool,
    /// What the declared content size leaves (as planned).
    declared_left: Option<u64>,
}

impl<'a> Planner<'a> {
    fn new(src: &'a [u8], max_out: usize) -> Self {
        Self {
            src,
            pos: 0,
            frame: None,
            planned: 0,
            max_out,
            frames: 0,
            hashed_blocks: 0,
            checksums: Vec::new(),
        }
    }

    /// The next data block (skipping headers, end marks and skippable frames).
    fn next(&mut self) -> Next {
        loop {
            let Some(frame) = &mut self.frame else {
                if self.pos == self.src.len() {
                    return Next::End;
                }
                match self.start_frame() {
                    Some(()) => continue,
                    None => return Next::Unplanned,
                }
            };
            let Some(word) = le32(self.src, self.pos) else {
                return Next::Unplanned;
            };
            let (size, stored) = match block_word(word, frame.block_max, 0, 0) {
                Ok(Some(block)) => block,
                Ok(None) => {
                    if frame.content_checksum {
                        let Some(stored) = le32(self.src, self.pos + 4) else {
                            return Next::Unplanned;
                        };
                        self.checksums.push((frame.number, stored));
                    }
                    self.pos += if frame.content_checksum { 8 } else { 4 };
                    if self.pos > self.src.len() {
                        return Next::Unplanned;
                    }
                    self.frame = None;
                    continue;
                }
                Err(_) => return Next::Unplanned,
            };
            let start = self.pos + 4;
            self.pos = start + size + if frame.block_checksum { 4 } else { 0 };
            if self.pos > self.src.len() {
                return Next::Unplanned;
            }
            // As the sequential decoder sizes the block's room: its bound, within the cap (a
            // stored block larger than what the cap leaves is an error there) and, for a
            // compressed block, within what the declared size leaves.
            let bound = block_content_bound(size, stored, frame.block_max);
            let cap_left = self.max_out - self.planned;
            if stored && bound > cap_left {
                return Next::Unplanned;
            }
            let mut room = bound.min(cap_left);
            if let Some(left) = frame.declared_left.as_mut() {
                if !stored {
                    room = room.min(usize::try_from(*left).unwrap_or(usize::MAX));
                }
                *left = left.saturating_sub(room as u64);
            }
            let block_checksum = frame
                .block_checksum
                .then(|| le32(self.src, start + size).unwrap_or(0));
            let hashed = frame.content_checksum.then(|| {
                self.hashed_blocks += 1;
                (self.hashed_blocks - 1, frame.number)
            });
            let planned = Planned {
                data: start..start + size,
                stored,
                block_checksum,
                hashed,
                block_max: frame.block_max,
                at: self.planned,
                room,
            };
            self.planned += room;
            return Next::Block(planned);
        }
    }

    /// Reads the header of the frame at `pos`: `None` if it is not one this path plans for.
    fn start_frame(&mut self) -> Option<()> {
        let (header, header_len) = parse_header(&self.src[self.pos..], 0).ok()?;
        match header {
            FrameHeader::Skippable { payload_len, .. } => {
                self.pos = self
                    .pos
                    .checked_add(header_len)?
                    .checked_add(payload_len as usize)?;
                (self.pos <= self.src.len()).then_some(())
            }
            FrameHeader::Lz4(FrameInfo {
                block_size,
                block_mode: BlockMode::Independent,
                block_checksum,
                content_checksum,
                content_size,
                ..
            }) => {
                // A declared size above what the cap leaves is an error of the sequential
                // decoder.
                if content_size
                    .is_some_and(|declared| declared > (self.max_out - self.planned) as u64)
                {
                    return None;
                }
                self.pos += header_len;
                self.frames += 1;
                self.frame = Some(InFrame {
                    number: self.frames - 1,
                    block_max: block_size.bytes(),
                    block_checksum,
                    content_checksum,
                    declared_left: content_size,
                });
                Some(())
            }
            _ => None,
        }
    }
}

/// A block to decode, with its region of the output.
struct Claim<'o> {
    planned: Planned,
    region: &'o mut [u8],
}

/// A block decoded in its region: `region[..len]` is its content (`None`: the block decoder
/// rejected it).
struct Placed<'o> {
    planned: Planned,
    region: &'o [u8],
    len: Option<usize>,
}

/// Decodes a claimed block in its region (once its block checksum, if any, is verified) and
/// offers its content to the content checksum's chain.
fn place<'o>(claim: Claim<'o>, src: &[u8], dict: &[u8], chain: &Chain<'o>) -> Placed<'o> {
    let Claim { planned, region } = claim;
    let data = &src[planned.data.clone()];
    let len = planned
        .block_checksum
        .is_none_or(|stored| xxh32(data, 0) == stored)
        .then(|| decode_block(data, &planned, region, dict))
        .flatten();
    // Decoded: the region is only read from now on.
    let region: &'o [u8] = region;
    if let (Some(len), Some((index, frame))) = (len, planned.hashed) {
        chain.offer(index, frame, &region[..len]);
    }
    Placed {
        planned,
        region,
        len,
    }
}

/// The content checksums of the stream's frames: each frame's decoded blocks hashed in order by
/// whichever thread decoded the block the chain is at (so the block is hashed on the core that
/// just wrote it, while it is in its caches), and by the thread that hashed the block before it
/// when the next one is already decoded (the chain is handed over).
///
/// Hashed by the caller's thread in the parser instead, behind the decoding, xxh32 took 2 ms of
/// each 4 MiB block's 2.8 ms of decoding, and the caller's thread, hashing every block the other
/// core decoded, ended 5-6 ms after it; with the chain, 4 MiB blocks on 2 threads went from
/// 1.65-1.69x the sequential decoder to 1.80-1.95x (Intel Xeon family 6 model 167, 2 vCPUs,
/// 2026-12-05, `1cf3601`).
struct Chain<'o> {
    state: Mutex<ChainState<'o>>,
}

struct ChainState<'o> {
    /// The next block to hash once the one being hashed (if any) is done (in the order of
    /// [`Planned::hashed`]).
    next: usize,
    /// Blocks decoded and not hashed yet: `waiting[i]` is block `next + i` (content, frame).
    waiting: VecDeque<Option<(&'o [u8], usize)>>,
    /// The frame being hashed and its state; `None` while a thread hashes outside the lock.
    hasher: Option<(usize, Xxh32)>,
    /// The digests of the frames hashed so far: (frame, digest).
    digests: Vec<(usize, u32)>,
}

impl<'o> Chain<'o> {
    fn new() -> Self {
        Self {
            state: Mutex::new(ChainState {
                next: 0,
                waiting: VecDeque::new(),
                hasher: Some((0, Xxh32::new(0))),
                digests: Vec::new(),
            }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, ChainState<'o>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Block `index` of the chain (of frame `frame`) is decoded: hashes it if the chain is at
    /// it, and then every decoded block after it.
    fn offer(&self, index: usize, frame: usize, content: &'o [u8]) {
        let mut state = self.lock();
        let at = index - state.next;
        if state.waiting.len() <= at {
            state.waiting.resize(at + 1, None);
        }
        state.waiting[at] = Some((content, frame));
        loop {
            let Some(Some((content, frame))) = state.waiting.front().copied() else {
                return;
            };
            // Another thread is hashing the block before: it goes on with this one.
            let Some((mut hashing, mut hasher)) = state.hasher.take() else {
                return;
            };
            state.waiting.pop_front();
            state.next += 1;
            drop(state);
            if frame != hashing {
                let digest = core::mem::replace(&mut hasher, Xxh32::new(0)).digest();
                self.lock().digests.push((hashing, digest));
                hashing = frame;
            }
            hasher.update(content);
            state = self.lock();
            state.hasher = Some((hashing, hasher));
        }
    }

    /// Whether every frame's content checksum in `expected` ((frame, stored checksum)) matches
    /// its content, once all `blocks` are hashed.
    fn verify(self, blocks: usize, expected: &[(usize, u32)]) -> bool {
        let mut state = self
            .state
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        let Some((frame, hasher)) = state.hasher.take() else {
            return false;
        };
        if state.next != blocks {
            return false;
        }
        state.digests.push((frame, hasher.digest()));
        let empty = Xxh32::new(0).digest();
        expected.iter().all(|&(frame, stored)| {
            let digest = state
                .digests
                .iter()
                .find(|(hashed, _)| *hashed == frame)
                .map_or(empty, |(_, digest)| *digest);
            digest == stored
        })
    }
}

/// Decodes a planned block into its region, as the sequential decoder's sink would (behind the
/// dictionary when there is one). `None` if the block decoder rejects it.
///
/// With a dictionary the block is decoded in its region with the dictionary where it lies (no
/// copy): a scratch buffer of the dictionary and the region, as before 2026-12-07 (commit
/// e4b91a7), took up to 4 MiB + 64 KiB per thread on top of the output, past the caller's cap.
fn decode_block(data: &[u8], planned: &Planned, region: &mut [u8], dict: &[u8]) -> Option<usize> {
    if planned.stored {
        region.get_mut(..data.len())?.copy_from_slice(data);
        return Some(data.len());
    }
    block::decompress_into_with_dictionary(data, region, dict).ok()
}

/// The parser's sink: hands out the planned blocks, decoded in their regions (`next` takes the
/// next from the pipeline).
struct PlacedSink<'a, 'o, N> {
    next: N,
    src: &'a [u8],
    /// The history every block of the stream has (independent blocks only).
    history: History,
    current: &'o [u8],
    /// Content handed out so far.
    produced: usize,
    max_out: usize,
    /// Blocks handed out so far.
    taken: usize,
    /// Blocks to move down once all are decoded: (from, to, len), in order.
    moves: Vec<(usize, usize, usize)>,
}

/// The sink's error when the parser asks for a block the fast path did not plan for, or one
/// the block decoder rejected: the fast path ends (and the sequential decoder gives the
/// verdict).
fn unplanned() -> Error {
    Error::InvalidArgument {
        what: "a block the parallel decoder did not plan for",
    }
}

impl<'o, N: FnMut() -> Option<Placed<'o>>> Sink for PlacedSink<'_, 'o, N> {
    fn begin_frame(&mut self, info: &FrameInfo) -> Result<(), Error> {
        // As the sequential one-shot decoder: a declared size above what the cap leaves fails.
        match info.content_size {
            Some(declared) if declared > (self.max_out - self.produced) as u64 => {
                Err(Error::FrameOutputLimit {
                    max_out: self.max_out as u64,
                    declared: Some(declared),
                })
            }
            _ => Ok(()),
        }
    }

    fn decode(&mut self, job: &BlockJob<'_>) -> Result<&[u8], Error> {
        let Some(Placed {
            planned,
            region,
            len,
        }) = (self.next)()
        else {
            return Err(unplanned());
        };
        let src = self.src;
        let matches = core::ptr::eq(job.block.data, &src[planned.data.clone()])
            && job.block.stored == planned.stored
            && job.block_max == planned.block_max
            && job.history == self.history;
        let Some(len) = len.filter(|_| matches) else {
            return Err(unplanned());
        };
        if len > self.max_out - self.produced {
            return Err(unplanned());
        }
        if planned.at != self.produced {
            // Merged with the last move when it continues it.
            let full = self.moves.len() == MAX_MOVES;
            match self.moves.last_mut() {
                Some((from, to, moved))
                    if *from + *moved == planned.at && *to + *moved == self.produced =>
                {
                    *moved += len;
                }
                _ if full => return Err(unplanned()),
                _ => self.moves.push((planned.at, self.produced, len)),
            }
        }
        self.produced += len;
        self.taken += 1;
        self.current = region;
        Ok(&self.current[..len])
    }
}
