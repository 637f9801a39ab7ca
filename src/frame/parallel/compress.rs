//! The one-shot parallel encoder of independent-block frames: each block compressed straight
//! from the input by whichever thread claims it (the caller's thread and `threads - 1` workers,
//! at most `2 × threads` blocks ahead), into a buffer of the block's room; the caller's thread
//! appends the compressed blocks in order, working on blocks itself while the next one is not
//! ready. The content checksum runs in order over the input, a piece at a time, on whichever
//! thread has no block to work on ([`Checksum`]), and by the caller's thread up to
//! [`CHECKSUM_LAG`] blocks behind the blocks it has taken.
//!
//! Fresh block buffers are allocated zeroed (mapped lazily, not cleared): with that and the
//! checksum left to the threads that run out of blocks, 4 MiB blocks on 2 threads went from
//! 1.79x the single-threaded encoder to 1.85-1.9x (AMD EPYC family 26 model 2, 2 vCPUs,
//! 2026-12-05, `bd0dd90`); [`CHECKSUM_LAG`] says why the caller's thread keeps up with it too.
//!
//! Each block is compressed by a [`BlockWriter`] as [`compress_with_dictionary`] compresses it (the
//! same writer options, nothing in front of the block), so the frame's bytes are the single-threaded
//! encoder's.
//!
//! [`compress_with_dictionary`]: crate::frame::compress_with_dictionary

use std::sync::{Mutex, PoisonError};
use std::vec::Vec;

use super::pipeline::ordered;
use super::store::ENCODER_BLOCKS;
use crate::block::xxh32::ContentHasher;
use crate::frame::encode::{BlockWriter, END_MARK};
use crate::frame::header::encode_header;
use crate::frame::{BlockMode, FrameOptions};

/// A thread's block writer, made on its first block. Every block is compressed on its own, with
/// nothing in front of it (a dictionary is held by the writer, attached, as LZ4F does).
#[derive(Default)]
struct Context {
    writer: Option<BlockWriter>,
}

/// [`compress_with_dictionary`](crate::frame::compress_with_dictionary) of an input longer than one
/// block into a frame of independent blocks, on `threads` threads (the caller's among them).
pub(super) fn compress(src: &[u8], dict: &[u8], options: &FrameOptions, threads: usize) -> Vec<u8> {
    debug_assert!(
        options.block_mode == BlockMode::Independent && src.len() > options.block_size.bytes()
    );
    let block_len = options.block_size.bytes();
    let blocks = src.len().div_ceil(block_len);
    let content_size = options.content_size.map(|_| src.len() as u64);
    let (header, header_len) = encode_header(
        options,
        options.block_size,
        BlockMode::Independent,
        content_size,
    );
    let header = &header[..header_len];
    // The writers hash nothing: the caller's thread hashes the content in order.
    let unhashed = options.clone().content_checksum(false);
    // Block buffers the caller's thread has copied out, for the next blocks: those of earlier
    // frames first.
    let spare: Mutex<Vec<Vec<u8>>> = Mutex::new(ENCODER_BLOCKS.take());
    let work = |index: usize, context: &mut Context| {
        let block = &src[index * block_len..((index + 1) * block_len).min(src.len())];
        let room = BlockWriter::block_room(block.len());
        let mut out = spare
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop()
            .unwrap_or_default();
        // Kept at its largest length: a reused buffer is not cleared again. A new one is
        // allocated zeroed, which the system maps lazily: no pass to clear it, its pages are
        // first touched by the compressor, on this thread.
        if out.len() < room {
            out = vec![0; room];
        }
        let writer = context.writer.get_or_insert_with(|| {
            BlockWriter::with_dictionary(&unhashed, BlockMode::Independent, dict, None)
        });
        let len = writer.write_block_at(block, &mut out, 0);
        (out, len)
    };
    let mut next = 0;
    let source = move || {
        let index = next;
        next += 1;
        (index < blocks).then_some(index)
    };
    let checksum = options
        .content_checksum
        .then(|| Checksum::new(src, block_len));
    let idle = || checksum.as_ref().is_some_and(Checksum::help);
    // At most 2 blocks per thread ahead: each holds a buffer of the block's room.
    ordered(threads, 2, source, work, idle, |next| {
        // As much as the single-threaded encoder reserves.
        let room = header.len()
            + (blocks - 1) * BlockWriter::block_room(block_len)
            + BlockWriter::block_room(src.len() - (blocks - 1) * block_len)
            + END_MARK.len()
            + 4;
        let mut framed = Vec::with_capacity(room);
        framed.extend_from_slice(header);
        for index in 0..blocks {
            // The checksum keeps up to within `CHECKSUM_LAG` blocks of the blocks taken: the
            // rest is left for the threads that run out of blocks at the end.
            if let (Some(checksum), Some(upto)) =
                (checksum.as_ref(), index.checked_sub(CHECKSUM_LAG))
            {
                checksum.advance_to(upto * block_len);
            }
            let Some((out, len)) = next() else {
                unreachable!("every block of the input is handed out")
            };
            framed.extend_from_slice(&out[..len]);
            spare
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(out);
        }
        framed.extend_from_slice(&END_MARK);
        if let Some(checksum) = &checksum {
            framed.extend_from_slice(&checksum.finish().to_le_bytes());
        }
        // Every block is taken: the buffers are all back.
        ENCODER_BLOCKS.give(core::mem::take(
            &mut *spare.lock().unwrap_or_else(PoisonError::into_inner),
        ));
        framed
    })
}

/// How many blocks the content checksum may lag behind the blocks the caller's thread has
/// taken: the caller's thread hashes up to there before it takes the next block, and the threads
/// with no block left hash the rest (a piece at a time, [`Checksum::help`]).
///
/// One block: left for the end (a lag of 16), the checksum was hashed by the caller's thread
/// alone after the last block (16 blocks of 4 MiB on 2 threads: compression done at 79 ms, the
/// frame at 112 ms); with a lag of 1 both threads end within 1-5 ms of each other, 1.70x ->
/// 1.90-1.94x the single-threaded encoder. With the input read ahead for the hash, 4 MiB blocks on
/// 2 threads run at 1.93-1.98x (Intel Xeon family 6 model 167, 2 vCPUs, 2026-12-05, `937355e`
/// and `77f5a95`; the measurements are in `asm-notes/parallel.md`).
const CHECKSUM_LAG: usize = 1;

/// The content checksum of a one-shot frame: computed in order over `src`, a piece at a time,
/// by whichever thread has nothing else to do (the pipeline's `idle` work) or by the caller's
/// thread when it falls behind.
struct Checksum<'a> {
    src: &'a [u8],
    piece: usize,
    /// The state and how much of `src` it has taken.
    state: Mutex<(ContentHasher, usize)>,
}

impl<'a> Checksum<'a> {
    fn new(src: &'a [u8], block_len: usize) -> Self {
        Self {
            src,
            // Short enough that a thread that wants the state waits little for it.
            piece: block_len.min(1 << 20),
            state: Mutex::new((ContentHasher::new(), 0)),
        }
    }

    /// Hashes the next piece unless another thread is hashing or all is hashed; returns
    /// whether it did.
    fn help(&self) -> bool {
        let Ok(mut state) = self.state.try_lock() else {
            return false;
        };
        let (hasher, hashed) = &mut *state;
        if *hashed == self.src.len() {
            return false;
        }
        let end = (*hashed + self.piece).min(self.src.len());
        hasher.update_ahead(&self.src[*hashed..end]);
        *hashed = end;
        true
    }

    /// Hashes up to `src[..end]` if not yet.
    fn advance_to(&self, end: usize) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let (hasher, hashed) = &mut *state;
        if *hashed < end {
            hasher.update_ahead(&self.src[*hashed..end]);
            *hashed = end;
        }
    }

    /// The checksum of the whole content.
    fn finish(&self) -> u32 {
        self.advance_to(self.src.len());
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .0
            .digest()
    }
}
