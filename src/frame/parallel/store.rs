//! Block buffers kept across frames in the process, for the parallel encoders and decoders that
//! come next, each store up to a cap in bytes; [`release`] empties them all
//! ([`release_parallel_buffers`](super::release_parallel_buffers)).
//!
//! A parallel frame holds several block-sized buffers (4 MiB each by default): a 2-thread
//! encoder up to 4 input and 4 output buffers, a decoder up to `2 × threads + 1` input and as
//! many content buffers. With glibc's allocator a freed buffer that large goes back to the
//! system, and fresh memory costs the first touch of each page: a page fault per 4 KiB, about
//! 1.7 µs in the CI VM (asm-notes/compress.md). Allocated afresh for every frame, that was about
//! 2000 faults (3.4 ms) per 64 MiB frame for the one-shot encoder and 6000 (10 ms) for the
//! streaming one, and 4 MiB blocks decoded no faster on 2 threads than on one. Kept here, the
//! next frame starts with warm buffers.
//!
//! A store keeps the largest buffers it is given (up to its cap) and hands out all it holds at
//! once ([`take`]): a frame takes them when it starts and gives back what it has when it ends,
//! so the store's lock is taken twice per frame, never per block. A buffer given back may still hold bytes of the
//! frame it served; each user says, where it gives them back, why no later frame can read them.
//!
//! [`take`]: BufferStore::take

use std::sync::{Mutex, PoisonError};
use std::vec::Vec;

/// Buffers of finished frames, up to a capacity in bytes.
pub(super) struct BufferStore {
    kept: Mutex<Kept>,
    cap: usize,
}

struct Kept {
    buffers: Vec<Vec<u8>>,
    bytes: usize,
}

impl BufferStore {
    /// A store that keeps up to `cap` bytes of buffer capacity.
    const fn new(cap: usize) -> Self {
        Self {
            kept: Mutex::new(Kept {
                buffers: Vec::new(),
                bytes: 0,
            }),
            cap,
        }
    }

    /// Takes every buffer kept.
    pub(super) fn take(&self) -> Vec<Vec<u8>> {
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        kept.bytes = 0;
        core::mem::take(&mut kept.buffers)
    }

    /// Keeps `buffers`, the largest first, while less than the cap is kept; drops the rest.
    pub(super) fn give(&self, mut buffers: Vec<Vec<u8>>) {
        buffers.retain(|buffer| buffer.capacity() > 0);
        buffers.sort_by_key(|buffer| core::cmp::Reverse(buffer.capacity()));
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        for buffer in buffers {
            if kept.bytes + buffer.capacity() <= self.cap {
                kept.bytes += buffer.capacity();
                kept.buffers.push(buffer);
            }
        }
    }

    /// Frees every buffer kept; returns their capacity in bytes.
    fn release(&self) -> usize {
        self.take().iter().map(Vec::capacity).sum()
    }
}

/// The parallel encoders' block buffers, input and output alike (the one-shot encoder's and
/// [`ParallelFrameEncoder`](super::ParallelFrameEncoder)'s): those of a 2-thread streaming
/// encoder with 4 MiB blocks (4 input and 4 output buffers, a little over 4 MiB each; the
/// one-shot encoder holds 4 output buffers).
pub(super) static ENCODER_BLOCKS: BufferStore = BufferStore::new(8 * (4 << 20) + (1 << 20));

/// The parallel decoder's input buffers (one frame unit each): those of a 2-thread decoder with
/// 4 MiB blocks, which holds five at most.
pub(super) static DECODER_UNITS: BufferStore = BufferStore::new(24 << 20);

/// The parallel decoder's content buffers, as [`DECODER_UNITS`].
pub(super) static DECODER_BLOCKS: BufferStore = BufferStore::new(24 << 20);

/// Frees every buffer of every store; returns their capacity in bytes.
pub(super) fn release() -> usize {
    [&ENCODER_BLOCKS, &DECODER_UNITS, &DECODER_BLOCKS]
        .into_iter()
        .map(BufferStore::release)
        .sum()
}
