//! Frames on every core (feature `parallel`): compression and decompression of LZ4 frames on a
//! pool of worker threads, with the single-threaded codec's bytes, verdicts and errors.
//!
//! - [`compress_parallel`] / [`compress_parallel_with_dictionary`] and [`ParallelFrameEncoder`] (a
//!   `Write`): the bytes of [`compress`](super::compress) / [`FrameEncoder`](super::FrameEncoder)
//!   for every option and every thread count (for the streaming encoder, for the same writes,
//!   flushes and auto-flush option).
//! - [`decompress_parallel`] / [`decompress_parallel_with_dictionary`] and [`ParallelFrameDecoder`]
//!   (a `Read` and `BufRead` that decodes ahead): the content and the errors of
//!   [`decompress`](super::decompress) / [`FrameDecoder`](super::FrameDecoder).
//!
//! # How
//!
//! A frame with independent blocks is a series of jobs that need nothing from each other: each
//! block is compressed (or decoded) on its own. What must stay in order stays on the caller's
//! thread: gathering input into blocks, the content checksum (xxh32 cannot be combined from
//! pieces, so it is computed over the content in order as it is written, or as the parser
//! accepts decoded blocks), writing compressed blocks in order, and the frame parser itself.
//! Each compressing job uses the single-threaded encoder's [`BlockWriter`](super::encode) (one
//! writer per job in flight, reused), so a block's bytes cannot differ from the single-threaded
//! encoder's; each decoding job decodes one block the way the sequential decoder's sink does, and
//! the sequential [`FrameParser`](super::codec) checks everything around it (see
//! [`ParallelFrameDecoder`]).
//!
//! The one-shot functions know the whole input, so they go further: their blocks are compressed
//! from their place in the input, or decoded straight into their place in the output (a walk
//! over the block size words plans a region for each), by whichever thread claims them next, the
//! caller's thread among `threads` in all; the caller's thread runs the parser (decoding) or
//! appends the compressed blocks (compressing), a few blocks behind, working on blocks itself
//! whenever the next one is not ready (an ordered pipeline, `pipeline.rs`). The decoder's
//! content checksum is hashed in order by the threads that decode, each block mostly by the
//! thread that decoded it (a chain handed between them, `oneshot.rs`); the encoder's is hashed
//! in order by the caller's thread one block behind the blocks it takes, and by whichever
//! thread has no block left to work on (`compress.rs`). No block is copied in or
//! out on the caller's thread, and the output's fresh pages are first touched by the threads
//! that decode there. Silesia, 64 MiB, default options, 2 threads: decompression at 1.9× the
//! sequential decoder (1.1-1.3× without these), compression at 1.85-1.95× (1.6-1.7×) (AMD EPYC
//! family 26 model 2, 2 vCPUs, 2026-12-05, `f51272e`).
//!
//! Memory is bounded: at most `2 × threads` blocks are in flight (being compressed or decoded,
//! or done and waiting for their turn). When that many are, the encoder waits for the oldest and
//! writes it before it takes more input, so a slow writer slows it down, and a failing writer
//! stops it with its error (resumable as with the single-threaded encoder: nothing is lost or
//! written twice). The one-shot decoder decodes up to `4 × threads` blocks ahead of its parser,
//! each in its place in the output, which it allocates once: they hold no memory of their own.
//! Dropping an encoder or a decoder never waits: each job sends its result
//! through a channel of its own, and a job whose receiver is gone drops its result when it ends.
//!
//! # Linked blocks
//!
//! A linked block may reference the 64 KiB before it, and liblz4 (whose bytes the encoder
//! reproduces, `lz4 -BD`) carries one stream across the blocks of a linked frame: each block's
//! bytes depend on the compressor's state after the block before it, not only on the content.
//! Such blocks cannot be compressed apart with the same bytes, so the encoder compresses them in
//! order, one at a time, with the single-threaded [`FrameEncoder`](super::FrameEncoder) itself
//! on a worker (its blocks' bytes are the single-threaded encoder's by construction), while the
//! caller's thread gathers and hashes the next block (the content checksum) and writes the last.
//! The one-shot function calls [`compress_with_dictionary`](super::compress_with_dictionary).
//! Linked frames decode on the caller's thread.
//!
//! The known route to parallel linked frames is the one `lz4` 1.10's command line tool takes:
//! cut the content into chunks (4 MiB), and compress each chunk as a fresh LZ4F stream whose
//! dictionary is the 64 KiB before the chunk. The frame is valid and decodes the same, but its
//! bytes differ from a single stream's at each chunk's start; it would be an option of its own
//! (a third variant of the encoder's `Blocks`), not the default.
//!
//! # Threads
//!
//! The workers are a [rayon](https://docs.rs/rayon) thread pool, one per thread count, built the
//! first time a frame asks for that count and reused by every frame after it in the process
//! (`threads = 0`: one per core, as `lz4 -T0`; the pools of the 4 counts used last are kept). Rayon rather than `std::thread::scope` and a
//! bounded channel: a scope ends with the call that opened it, so a streaming `Write` or `Read`
//! adapter (whose work spans many calls) would need threads of its own, started for every frame;
//! a pool that outlives the frame is what makes the threads reusable, and rayon is the
//! well-kept one. The streaming adapters' jobs never block inside the pool (a worker claims
//! blocks, or batches of blocks, from the adapter's queue until it is empty, and returns; the
//! caller's thread does all the waiting), so a job cannot hold a worker that another job needs.
//! Every function and adapter counts the caller's thread among its `threads`, so none keeps more
//! threads runnable than it was given: the one-shot functions and the streaming encoder
//! compress or decode blocks on the caller's thread instead of waiting. A worker per thread
//! beside the caller's thread gave the streaming encoder 1.73-1.77x the single-threaded encoder
//! in 64 KiB blocks on 2 vCPUs, against 1.86-1.88x (Intel Xeon family 6 model 167, 2026-12-05,
//! `3dc1343`). The one-shot functions' helpers (a rayon `in_place_scope`) wait only while
//! their frame's window is full, which that frame's caller thread empties on its own (it never
//! waits for a helper to start): they may delay other frames' jobs, never stop them. The private
//! pools share no thread with the caller's own rayon work.
//!
//! The choice of a dedicated function over a `threads` option in
//! [`FrameOptions`](super::FrameOptions): the options stay the same with and without the
//! feature, the single-threaded functions keep their signatures and their code paths, and a
//! caller sees where threads are used.

mod compress;
mod decoder;
mod encoder;
mod oneshot;
mod pipeline;
mod pool;
mod store;

use std::vec::Vec;

pub use decoder::ParallelFrameDecoder;
pub use encoder::ParallelFrameEncoder;

use super::codec::DictRule;
use super::{BlockMode, FrameOptions};
use crate::Error;
use oneshot::Outcome;

/// [`compress`](super::compress) on `threads` worker threads (0: one per core): the same bytes
/// for every option and thread count.
///
/// An input of one block (or less), linked blocks and `threads == 1` are compressed on the
/// caller's thread by [`compress`](super::compress) itself (see
/// [Frames on every core](crate::frame#frames-on-every-core)).
///
/// ```
/// use lz4_simd::frame::{self, FrameOptions, BlockSize};
/// let data = b"parallel frames ".repeat(50_000);
/// let options = FrameOptions::new().block_size(BlockSize::Max64KB).content_size(true);
/// let framed = frame::compress_parallel(&data, &options, 4);
/// assert_eq!(framed, frame::compress(&data, &options));
/// ```
pub fn compress_parallel(src: &[u8], options: &FrameOptions, threads: usize) -> Vec<u8> {
    compress_parallel_with_dictionary(src, &[], options, threads)
}

/// [`compress_with_dictionary`](super::compress_with_dictionary) on `threads` worker threads.
///
/// HC with favour-decompression-speed is compressed on the caller's thread: there liblz4's
/// blocks depend on the blocks before them even when independent (a block's options depend on
/// whether an earlier one failed), and the bytes stay LZ4F's.
pub fn compress_parallel_with_dictionary(
    src: &[u8],
    dict: &[u8],
    options: &FrameOptions,
    threads: usize,
) -> Vec<u8> {
    // One thread: the single-threaded encoder is that, with its content checksum hashed inside
    // the parse.
    if src.len() <= options.block_size.bytes()
        || options.block_mode == BlockMode::Linked
        || blocks_depend_on_earlier(options)
        || pool::thread_count(threads) == 1
    {
        return super::compress_with_dictionary(src, dict, options);
    }
    compress::compress(src, dict, options, threads)
}

/// Whether a frame's independent blocks still depend on the blocks before them, so that they
/// must be compressed in order: HC with favour-decompression-speed. LZ4F's working stream
/// (which the single-threaded encoder reproduces) loses that option for the rest of the frame
/// once a block has failed (stored raw: the stream is re-initialised at the next block) or, with
/// a dictionary, copied the dictionary's state (above 4 KiB, levels 3-12); later blocks at
/// levels 10-12 are compressed with or without it accordingly, and whether an earlier block
/// failed is known only once it is compressed. A rare combination: it is compressed by the
/// single-threaded encoder, as linked blocks are.
pub(crate) fn blocks_depend_on_earlier(options: &FrameOptions) -> bool {
    options.hc_level.is_some() && options.favor_dec_speed
}

/// [`decompress`](super::decompress) on `threads` worker threads (0: one per core): the same
/// content, and the same error for every input.
///
/// The blocks of independent-block frames are decoded straight into their place in the output,
/// by the workers and the caller's thread (`threads` in all), while the caller's thread checks
/// them in order with the sequential decoder's parser (and computes the content checksum)
/// behind the decoding. A stream with a linked or legacy frame (whose blocks decode on the
/// caller's thread in every decoder) is decoded by [`decompress`](super::decompress) itself, as
/// is an input the planning walk over its block sizes finds bad (or whose declared content size
/// exceeds `max_out`). When the input turns out to be bad while decoding (or the content larger
/// than `max_out`), it is decoded again by [`decompress`](super::decompress) for its verdict, so
/// the error is exactly the sequential decoder's. As there, nothing is allocated beyond
/// `max_out` and what the input's blocks can decode to.
///
/// ```
/// use lz4_simd::frame::{self, FrameOptions, BlockSize};
/// let data = b"decoded ahead ".repeat(50_000);
/// let framed = frame::compress(&data, &FrameOptions::new().block_size(BlockSize::Max64KB));
/// assert_eq!(frame::decompress_parallel(&framed, 1 << 20, 4).unwrap(), data);
/// assert!(frame::decompress_parallel(&framed, 1000, 4).is_err());
/// ```
pub fn decompress_parallel(src: &[u8], max_out: usize, threads: usize) -> Result<Vec<u8>, Error> {
    match oneshot::decompress(src, &[], DictRule::None, max_out, threads) {
        Outcome::Done(content) => Ok(content),
        // The sequential decoder decodes each block within what the cap leaves, into the one
        // output `Vec` (a streaming decoder's block buffer would come on top of it: a legacy
        // block decodes to up to 8 MiB, whatever the cap).
        Outcome::Unplanned | Outcome::Failed => super::decompress(src, max_out),
    }
}

/// [`decompress_with_dictionary`](super::decompress_with_dictionary) on `threads` worker threads.
pub fn decompress_parallel_with_dictionary(
    src: &[u8],
    dict: &[u8],
    dict_id: u32,
    max_out: usize,
    threads: usize,
) -> Result<Vec<u8>, Error> {
    match oneshot::decompress(src, dict, DictRule::Id(dict_id), max_out, threads) {
        Outcome::Done(content) => Ok(content),
        Outcome::Unplanned | Outcome::Failed => {
            super::decompress_with_dictionary(src, dict, dict_id, max_out)
        }
    }
}

/// Frees the buffers that the parallel encoders and decoders of this process keep for the next
/// ones, and returns their capacity in bytes.
///
/// A 4 MiB block buffer is fresh memory on every frame otherwise (the system allocator gives
/// buffers that large back when they are freed), and fresh memory costs a page fault per 4 KiB
/// first touched, a tenth or more of a frame's time in a virtual machine. So the block buffers
/// of finished frames and dropped decoders are kept, up to 33 MiB for compression and 24 MiB of
/// each kind (input, content) for decompression, and the next parallel frame starts with warm
/// buffers. A long-running process that is done with parallel frames for a while can give that
/// memory back with this; the next parallel frame then allocates afresh. The worker threads are
/// kept (see [Frames on every core](crate::frame#frames-on-every-core)).
///
/// ```
/// use lz4_simd::frame::{self, FrameOptions};
/// let content = b"abc".repeat(3_000_000);
/// let framed = frame::compress_parallel(&content, &FrameOptions::new(), 2);
/// assert_eq!(frame::decompress_parallel(&framed, content.len(), 2).unwrap(), content);
/// frame::release_parallel_buffers();
/// assert_eq!(frame::release_parallel_buffers(), 0);
/// ```
pub fn release_parallel_buffers() -> usize {
    store::release()
}
