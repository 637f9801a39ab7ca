//! The one-shot parallel encoder of independent-block frames: each block compressed straight
//! from the input by whichever thread claims it (the caller's thread and `threads - 1` workers,
//! at most `2 × threads` blocks ahead), into a buffer of the block's room; the caller's thread
//! hashes the content block by block for the content checksum and appends the compressed
//! blocks in order, working on blocks itself while the next one is not ready.
//!
//! Each block is compressed by a [`BlockWriter`] as [`compress_with_dict`] compresses it (the
//! same writer options, nothing in front of the block), so the frame's bytes are the single-threaded
//! encoder's.
//!
//! [`compress_with_dict`]: crate::frame::compress_with_dict

use std::sync::{Mutex, PoisonError};
use std::vec::Vec;

use xxhash_rust::xxh32::Xxh32;

use super::pipeline::ordered;
use crate::frame::encode::{BlockWriter, END_MARK};
use crate::frame::header::{write_header, MAX_HEADER_LEN};
use crate::frame::{BlockMode, FrameOptions};

/// A thread's block writer, made on its first block. Every block is compressed on its own, with
/// nothing in front of it: the only writer that reads history in front of the block
/// ([`BlockWriter::needs_history`], plain HC) is made for frames without a dictionary (HC with
/// a dictionary holds it itself, attached, as LZ4F does), and an independent block of such a
/// frame references nothing before it.
#[derive(Default)]
struct Context {
    writer: Option<BlockWriter>,
}

/// [`compress_with_dict`](crate::frame::compress_with_dict) of an input longer than one block
/// into a frame of independent blocks, on `threads` threads (the caller's among them).
pub(super) fn compress(src: &[u8], dict: &[u8], options: &FrameOptions, threads: usize) -> Vec<u8> {
    debug_assert!(
        options.block_mode == BlockMode::Independent && src.len() > options.block_size.bytes()
    );
    let block_len = options.block_size.bytes();
    let blocks = src.len().div_ceil(block_len);
    let mut header = Vec::with_capacity(MAX_HEADER_LEN);
    let content_size = options.content_size.map(|_| src.len() as u64);
    write_header(
        &mut header,
        options,
        options.block_size,
        BlockMode::Independent,
        content_size,
    );
    // The writers hash nothing: the caller's thread hashes the content in order.
    let unhashed = options.clone().content_checksum(false);
    // Block buffers the caller's thread has copied out, for the next blocks.
    let spare: Mutex<Vec<Vec<u8>>> = Mutex::new(Vec::new());
    let work = |index: usize, context: &mut Context| {
        let block = &src[index * block_len..((index + 1) * block_len).min(src.len())];
        let room = BlockWriter::block_room(block.len());
        let mut out = spare
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop()
            .unwrap_or_default();
        // Kept at its largest length: a reused buffer is not cleared again.
        if out.len() < room {
            out.resize(room, 0);
        }
        let writer = context.writer.get_or_insert_with(|| {
            BlockWriter::with_dictionary(&unhashed, BlockMode::Independent, dict, None)
        });
        debug_assert!(!writer.needs_history() || dict.is_empty());
        let len = writer.write_block_at(block, 0, &mut out, 0);
        (out, len)
    };
    let mut next = 0;
    let source = move || {
        let index = next;
        next += 1;
        (index < blocks).then_some(index)
    };
    ordered(threads, source, work, |next| {
        // As much as the single-threaded encoder reserves.
        let room = header.len()
            + (blocks - 1) * BlockWriter::block_room(block_len)
            + BlockWriter::block_room(src.len() - (blocks - 1) * block_len)
            + END_MARK.len()
            + 4;
        let mut framed = Vec::with_capacity(room);
        framed.extend_from_slice(&header);
        let mut hasher = options.content_checksum.then(|| Xxh32::new(0));
        for block in src.chunks(block_len) {
            // Hashed while the workers compress the blocks after it.
            if let Some(hasher) = hasher.as_mut() {
                hasher.update(block);
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
        if let Some(hasher) = hasher {
            framed.extend_from_slice(&hasher.digest().to_le_bytes());
        }
        framed
    })
}
