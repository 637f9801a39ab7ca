//! Hadoop's `Lz4Codec` block stream (`BlockCompressorStream` / `BlockDecompressorStream`), which
//! Hadoop, Spark and parquet-java's `LZ4` codec write.
//!
//! The stream is a series of *blocks*: a big-endian `u32`, the number of bytes the block
//! decodes to, then one or more *chunks*, each a big-endian `u32` compressed length and a raw
//! LZ4 block, until the chunks have produced the block's length. Hadoop writes one chunk per
//! block when its writes fit the codec's buffer, and the *nested* form (one block length over
//! several chunks) when one write is larger than the buffer: both decode here. (Arrow C++'s
//! reader handles only the first form, apache/arrow#43745.)
//!
//! The encoder writes one chunk per block, each of at most [`MAX_CHUNK_INPUT`] input bytes, the
//! largest input whose worst-case compressed size fits Hadoop's default 256 KiB codec buffer
//! (`io.compression.codec.lz4.buffersize`): what Hadoop itself writes, so Hadoop, Spark and
//! every Parquet reader read it. (Arrow C++ writes a whole page as one chunk, which Hadoop
//! rejects once a page exceeds the buffer, apache/arrow#49642.) Empty input is written as an
//! empty block followed by one empty chunk (`00000000 00000001 00`), as Arrow writes it: readers
//! that stop at an empty block (Hadoop) and readers that expect a chunk (Arrow) both accept it.
//!
//! ```
//! use lz4_simd::container::hadoop;
//! let data = b"hadoop hadoop hadoop hadoop hadoop".repeat(100);
//! let stream = hadoop::compress(&data).unwrap();
//! assert_eq!(stream[..4], (data.len() as u32).to_be_bytes());
//! assert_eq!(hadoop::decompress(&stream, 1 << 20).unwrap(), data);
//! ```

use alloc::vec::Vec;

use super::{block_error, check_cap, compress_block, Input};
use crate::block;
use crate::Error;

const NAME: &str = "hadoop";

/// Hadoop's default LZ4 codec buffer size (`io.compression.codec.lz4.buffersize`): 256 KiB.
pub const BUFFER_SIZE: usize = 256 * 1024;

/// The most input bytes the encoder puts in one chunk: the buffer size less LZ4's worst-case
/// expansion (`BUFFER_SIZE - (BUFFER_SIZE / 255 + 16)` = 261 100), as Hadoop's
/// `Lz4Codec` computes it.
pub const MAX_CHUNK_INPUT: usize = BUFFER_SIZE - (BUFFER_SIZE / 255 + 16);

/// Compresses `src` into a Hadoop `Lz4Codec` stream: one block with one chunk per
/// [`MAX_CHUNK_INPUT`] bytes of input.
pub fn compress(src: &[u8]) -> Result<Vec<u8>, Error> {
    let mut out = Vec::with_capacity(block::compress_bound(src.len().min(MAX_CHUNK_INPUT)) + 16);
    if src.is_empty() {
        write_chunk(&mut out, &[])?;
    }
    for chunk in src.chunks(MAX_CHUNK_INPUT) {
        write_chunk(&mut out, chunk)?;
    }
    Ok(out)
}

/// Appends one block holding one chunk: `[len BE][compressed len BE][block]`.
fn write_chunk(out: &mut Vec<u8>, chunk: &[u8]) -> Result<(), Error> {
    let compressed = compress_block(chunk)?;
    out.extend_from_slice(&(chunk.len() as u32).to_be_bytes());
    out.extend_from_slice(&(compressed.len() as u32).to_be_bytes());
    out.extend_from_slice(&compressed);
    Ok(())
}

/// Decodes a whole Hadoop `Lz4Codec` stream (single-chunk and nested blocks) into at most
/// `max_out` bytes.
///
/// Each block's length is checked against the cap before its chunks are read; each chunk is
/// decoded with what is left of its block as its capacity, so a chunk that would overrun its
/// block is an error, and the chunks must produce the block's length exactly. An empty block
/// may be followed by one chunk that decodes to nothing if that chunk ends the input (Arrow's
/// form of an empty stream).
pub fn decompress(src: &[u8], max_out: usize) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    decompress_append(src, max_out, &mut out)?;
    Ok(out)
}

/// [`decompress`], appending to `out` (whose length counts against `max_out`).
pub(crate) fn decompress_append(
    src: &[u8],
    max_out: usize,
    out: &mut Vec<u8>,
) -> Result<(), Error> {
    let mut input = Input::new(NAME, src);
    while !input.is_empty() {
        let header_pos = input.pos();
        let block_len = input.u32_be("the 4-byte big-endian uncompressed length of a block")?;
        let block_len = check_cap(NAME, header_pos, out.len(), u64::from(block_len), max_out)?;
        if block_len == 0 && is_empty_chunk(input.rest()) {
            break;
        }
        let block_end = out.len() + block_len;
        while out.len() < block_end {
            let chunk_pos = input.pos();
            let chunk_len = input.u32_be("the 4-byte big-endian compressed length of a chunk")?;
            let chunk = input.take(chunk_len as usize, "the rest of a compressed chunk")?;
            let room = block_end - out.len();
            if chunk.is_empty() {
                return Err(input.corrupt(
                    chunk_pos,
                    "a chunk of 0 compressed bytes inside a block that is not complete",
                ));
            }
            block::decompress_append(chunk, out, 0, room)
                .map_err(|error| block_error(NAME, chunk_pos + 4, error))?;
        }
    }
    Ok(())
}

/// Whether `rest` is exactly one chunk that decodes to nothing (a compressed length and the
/// empty block `00`).
fn is_empty_chunk(rest: &[u8]) -> bool {
    rest.len() > 4
        && u32::from_be_bytes([rest[0], rest[1], rest[2], rest[3]]) as usize == rest.len() - 4
        && block::decompress(&rest[4..], 0).is_ok_and(|decoded| decoded.is_empty())
}
