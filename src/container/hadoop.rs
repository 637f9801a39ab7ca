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
//! [`Decoder`] and [`Encoder`] (with `std`) read and write the same stream through `std::io`,
//! holding one chunk at a time: memory is bounded by the cap on a block's length, whatever the
//! stream's length.
//!
//! A chunk is refused when it is longer than any LZ4 block of what is left of its block could
//! be (`block::compress_bound` of it): Hadoop's writer never makes one, and the rule bounds the
//! memory a streaming reader needs for a chunk by the cap.
//!
//! ```
//! use lz4_simd::container::hadoop;
//! let data = b"hadoop hadoop hadoop hadoop hadoop".repeat(100);
//! let stream = hadoop::compress(&data).unwrap();
//! assert_eq!(stream[..4], (data.len() as u32).to_be_bytes());
//! assert_eq!(hadoop::decompress(&stream, 1 << 20).unwrap(), data);
//! ```

use alloc::vec::Vec;

use super::{
    block_error, compress_block, corrupt, max_block_len, reserve, truncated, Blocks, Cap, Step,
    Units,
};
use crate::block;
use crate::Error;

const NAME: &str = "hadoop";

/// Hadoop's default LZ4 codec buffer size (`io.compression.codec.lz4.buffersize`): 256 KiB.
pub const BUFFER_SIZE: usize = 256 * 1024;

/// The most input bytes the encoder puts in one chunk: the buffer size less LZ4's worst-case
/// expansion (`BUFFER_SIZE - (BUFFER_SIZE / 255 + 16)` = 261 100), as Hadoop's
/// `Lz4Codec` computes it.
pub const MAX_CHUNK_INPUT: usize = BUFFER_SIZE - (BUFFER_SIZE / 255 + 16);

/// After an empty block: a compressed length and the longest chunk that may decode to nothing
/// (`block::compress_bound(0)`), plus one byte to see whether anything follows.
const EMPTY_END_LOOKAHEAD: usize = 4 + 16 + 1;

/// Compresses `src` into a Hadoop `Lz4Codec` stream: one block with one chunk per
/// [`MAX_CHUNK_INPUT`] bytes of input.
///
/// # Examples
///
/// ```
/// use lz4_simd::container::hadoop;
/// let data = b"hadoop hadoop hadoop ".repeat(1000);
/// let stream = hadoop::compress(&data)?;
/// // A block starts with its decompressed length, big-endian.
/// assert_eq!(stream[..4], (data.len() as u32).to_be_bytes());
/// assert_eq!(hadoop::decompress(&stream, 1 << 20)?, data);
/// # Ok::<(), lz4_simd::Error>(())
/// ```
pub fn compress(src: &[u8]) -> Result<Vec<u8>, Error> {
    super::encode_blocks(&mut EncodeState, src)
}

/// The encoder's side of the container (see [`Encoder`]): one block of one chunk per
/// [`MAX_CHUNK_INPUT`] bytes of content.
#[derive(Debug, Default, Clone)]
pub struct EncodeState;

impl Blocks for EncodeState {
    fn block_size(&self) -> usize {
        MAX_CHUNK_INPUT
    }

    /// One block holding one chunk: `[len BE][compressed len BE][block]`.
    fn block(&mut self, content: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
        let compressed = compress_block(content)?;
        out.extend_from_slice(&(content.len() as u32).to_be_bytes());
        out.extend_from_slice(&(compressed.len() as u32).to_be_bytes());
        out.extend_from_slice(&compressed);
        Ok(())
    }

    fn end(&mut self, blocks: u64, out: &mut Vec<u8>) -> Result<(), Error> {
        if blocks == 0 {
            self.block(&[], out)?;
        }
        Ok(())
    }
}

/// Decodes a whole Hadoop `Lz4Codec` stream (single-chunk and nested blocks) into at most
/// `max_out` bytes.
///
/// Each block's length is checked against the cap before its chunks are read; each chunk is
/// decoded with what is left of its block as its capacity, so a chunk that would overrun its
/// block is an error, and the chunks must produce the block's length exactly. An empty block
/// may be followed by one chunk that decodes to nothing if that chunk ends the input (Arrow's
/// form of an empty stream).
///
/// # Examples
///
/// ```
/// use lz4_simd::container::hadoop;
/// let data = b"hadoop hadoop hadoop ".repeat(1000);
/// let stream = hadoop::compress(&data)?;
/// assert_eq!(hadoop::decompress(&stream, 1 << 20)?, data);
/// // A block longer than `max_out` is refused before its chunks are read.
/// assert!(hadoop::decompress(&stream, 1000).is_err());
/// # Ok::<(), lz4_simd::Error>(())
/// ```
pub fn decompress(src: &[u8], max_out: usize) -> Result<Vec<u8>, Error> {
    super::decode_units::<DecodeState>(src, max_out)
}

/// The decoder's side of the container (see [`Decoder`]).
#[derive(Debug, Clone)]
pub struct DecodeState {
    cap: Cap,
    at: At,
    /// Bytes of the current block its chunks have not produced yet.
    block_left: usize,
}

#[derive(Debug, Clone, Copy)]
enum At {
    BlockLength,
    /// After an empty block: Arrow's empty stream ends with one empty chunk.
    AfterEmptyBlock,
    ChunkLength,
    Chunk {
        len: u32,
        pos: u64,
    },
}

impl Units for DecodeState {
    fn with_cap(cap: Cap) -> Self {
        Self {
            cap,
            at: At::BlockLength,
            block_left: 0,
        }
    }

    #[cfg(feature = "std")]
    fn cap_mut(&mut self) -> &mut Cap {
        &mut self.cap
    }

    fn need(&self) -> usize {
        match self.at {
            At::BlockLength | At::ChunkLength => 4,
            At::AfterEmptyBlock => EMPTY_END_LOOKAHEAD,
            At::Chunk { len, .. } => len as usize,
        }
    }

    fn unit(&mut self, unit: &[u8], end: bool, pos: u64, out: &mut Vec<u8>) -> Result<Step, Error> {
        let input_end = pos + unit.len() as u64;
        match self.at {
            At::BlockLength => {
                if end {
                    return if unit.is_empty() {
                        Ok(Step::End)
                    } else {
                        Err(truncated(
                            NAME,
                            input_end,
                            "the 4-byte big-endian uncompressed length of a block",
                        ))
                    };
                }
                let len = u32::from_be_bytes([unit[0], unit[1], unit[2], unit[3]]);
                self.block_left = self.cap.check(NAME, pos, u64::from(len))?;
                self.at = if len == 0 {
                    At::AfterEmptyBlock
                } else {
                    At::ChunkLength
                };
                Ok(Step::Used(4))
            }
            At::AfterEmptyBlock => {
                if end && is_empty_chunk(unit) {
                    return Ok(Step::End);
                }
                // Not the end: the bytes are the next block.
                self.at = At::BlockLength;
                Ok(Step::Used(0))
            }
            At::ChunkLength => {
                if end {
                    return Err(truncated(
                        NAME,
                        input_end,
                        "the 4-byte big-endian compressed length of a chunk",
                    ));
                }
                let len = u32::from_be_bytes([unit[0], unit[1], unit[2], unit[3]]);
                if len == 0 {
                    return Err(corrupt(
                        NAME,
                        pos,
                        "a chunk of 0 compressed bytes inside a block that is not complete",
                    ));
                }
                if len as usize > max_block_len(self.block_left) {
                    return Err(corrupt(
                        NAME,
                        pos,
                        "a chunk longer than any LZ4 block of what is left of its block",
                    ));
                }
                self.at = At::Chunk { len, pos: pos + 4 };
                Ok(Step::Used(4))
            }
            At::Chunk {
                len,
                pos: chunk_pos,
            } => {
                if end {
                    return Err(truncated(NAME, input_end, "the rest of a compressed chunk"));
                }
                if !out.is_empty() {
                    // After content (the one-shot decoder's output): room for what the chunk may
                    // decode to, grown geometrically within the cap. Growing by each chunk's
                    // exact size took 257 reallocations that moved 3.2 GiB for 64 MiB of content
                    // (glibc, 2026-12-07, commit e4b91a7); now 9.
                    let most = self.block_left.min(unit.len().saturating_mul(255));
                    reserve(out, most, self.cap.room())?;
                }
                let decoded = block::decompress_append(unit, out, 0, self.block_left)
                    .map_err(|error| block_error(NAME, chunk_pos, error))?;
                self.cap.add(decoded);
                self.block_left -= decoded;
                self.at = if self.block_left == 0 {
                    At::BlockLength
                } else {
                    At::ChunkLength
                };
                Ok(Step::Used(len as usize))
            }
        }
    }
}

/// Whether `rest` is exactly one chunk that decodes to nothing (a compressed length and the
/// empty block `00`).
fn is_empty_chunk(rest: &[u8]) -> bool {
    rest.len() > 4
        && u32::from_be_bytes([rest[0], rest[1], rest[2], rest[3]]) as usize == rest.len() - 4
        && block::decompress(&rest[4..], 0).is_ok_and(|decoded| decoded.is_empty())
}

/// Reads a Hadoop `Lz4Codec` stream as its content, one chunk at a time (`std::io::Read`, see
/// [`stream::Decoder`](super::stream::Decoder)); each block's length is checked against the
/// caps given to [`new`](super::stream::Decoder::new) (each block) and
/// [`max_out`](super::stream::Decoder::max_out) (the whole content).
///
/// # Examples
///
/// ```
/// use std::io::Read;
/// use lz4_simd::container::hadoop;
/// let data = b"hadoop stream ".repeat(50_000);
/// let stream = hadoop::compress(&data).unwrap();
/// let mut decoded = Vec::new();
/// hadoop::Decoder::new(&stream[..], 1 << 20).read_to_end(&mut decoded).unwrap();
/// assert_eq!(decoded, data);
/// // The whole content capped one byte short of it: an error, not a short output.
/// let mut capped = hadoop::Decoder::new(&stream[..], 1 << 20).max_out(data.len() as u64 - 1);
/// assert!(capped.read_to_end(&mut Vec::new()).is_err());
/// ```
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub type Decoder<R> = super::stream::Decoder<R, DecodeState>;

/// Writes a Hadoop `Lz4Codec` stream, the bytes of [`compress`] (`std::io::Write`, see
/// [`stream::Encoder`](super::stream::Encoder)); call `finish`.
///
/// # Examples
///
/// ```
/// use std::io::Write;
/// use lz4_simd::container::hadoop;
/// let data = b"hadoop stream ".repeat(50_000);
/// let mut encoder = hadoop::Encoder::new(Vec::new());
/// encoder.write_all(&data).unwrap();
/// assert_eq!(encoder.finish().unwrap(), hadoop::compress(&data).unwrap());
/// ```
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub type Encoder<W> = super::stream::Encoder<W, EncodeState>;

#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
impl<W: std::io::Write> Encoder<W> {
    /// An encoder writing a Hadoop stream (chunks of [`MAX_CHUNK_INPUT`] bytes) to `writer`.
    pub fn new(writer: W) -> Self {
        Self::with_blocks(writer, EncodeState)
    }
}
