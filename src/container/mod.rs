//! LZ4 inside other systems' formats: each of them wraps raw LZ4 blocks (or LZ4 frames) in a
//! container of its own.
//!
//! | System | Container | Functions |
//! | --- | --- | --- |
//! | Hadoop `Lz4Codec`, Spark and parquet-java's `LZ4` | big-endian block and chunk lengths | [`hadoop::compress`], [`hadoop::decompress`] |
//! | Parquet `LZ4` (codec 5) and `LZ4_RAW` (codec 7) pages | Hadoop, frame or raw; raw | [`parquet::decompress_lz4`], [`parquet::decompress_lz4_raw`], [`parquet::compress_lz4`], [`parquet::compress_lz4_raw`] |
//! | Kafka message sets (`compression.type=lz4`) | LZ4 frame, 64 KiB independent blocks; v0 header checksum over the magic | [`kafka::compress`], [`kafka::decompress`] |
//! | lz4-java `LZ4BlockOutputStream` (Spark shuffle and spill) | `LZ4Block` blocks with a 28-bit xxh32 | [`java::compress`], [`java::decompress`] |
//! | python-lz4 `store_size`, Cassandra / ScyllaDB SSTables; Cassandra native protocol ≤ v4; RocksDB | one block behind a LE u32, BE u32 or LEB128 size | [`prefixed::compress`], [`prefixed::decompress`] |
//! | ClickHouse compressed blocks (MergeTree parts, native protocol) | CityHash128 v1.0.2, method `0x82`, sizes | [`clickhouse::compress`], [`clickhouse::decompress`] |
//! | Linux kernel images (`CONFIG_KERNEL_LZ4`) | legacy frames + LE u32 size trailer + zero padding | [`linux::decompress`] |
//!
//! Every decoder takes a cap on its output (`max_out`): each size field is checked against the
//! cap and against the input left *before* anything is allocated for it, every declared size is
//! checked against what was decoded, and every checksum the container carries is verified. Bad
//! input is an [`Error`] naming the container, what was wrong and at which input offset; the
//! container variants are `Error::Container*`, and a bad LZ4 block inside a container is
//! [`Error::ContainerBlock`] wrapping the block decoder's error.
//!
//! Every encoder writes what the system's own reader accepts (checked against the real
//! implementations in `tests/container_*.rs`).

#![forbid(unsafe_code)]

pub mod clickhouse;
pub mod hadoop;
pub mod java;
pub mod kafka;
pub mod linux;
pub mod parquet;
pub mod prefixed;

use alloc::boxed::Box;
use alloc::vec::Vec;

use crate::block::{self, MAX_INPUT_SIZE};
use crate::Error;

/// Each compressed byte yields at most this many decompressed bytes (`block::MAX_EXPANSION`).
const MAX_EXPANSION: u64 = 255;

/// A cursor over a container's input that turns every short read into
/// [`Error::ContainerTruncated`].
pub(crate) struct Input<'a> {
    container: &'static str,
    src: &'a [u8],
    pos: usize,
}

impl<'a> Input<'a> {
    pub(crate) fn new(container: &'static str, src: &'a [u8]) -> Self {
        Self {
            container,
            src,
            pos: 0,
        }
    }

    /// Offset of the next unread byte.
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    pub(crate) fn rest(&self) -> &'a [u8] {
        &self.src[self.pos..]
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.pos == self.src.len()
    }

    pub(crate) fn truncated(&self, what: &'static str) -> Error {
        Error::ContainerTruncated {
            container: self.container,
            input_pos: self.src.len() as u64,
            what,
        }
    }

    /// The next `len` bytes, or `ContainerTruncated` naming `what`.
    pub(crate) fn take(&mut self, len: usize, what: &'static str) -> Result<&'a [u8], Error> {
        if len > self.src.len() - self.pos {
            return Err(self.truncated(what));
        }
        let bytes = &self.src[self.pos..self.pos + len];
        self.pos += len;
        Ok(bytes)
    }

    pub(crate) fn array<const N: usize>(&mut self, what: &'static str) -> Result<[u8; N], Error> {
        let bytes = self.take(N, what)?;
        let mut array = [0; N];
        array.copy_from_slice(bytes);
        Ok(array)
    }

    pub(crate) fn u8(&mut self, what: &'static str) -> Result<u8, Error> {
        Ok(self.array::<1>(what)?[0])
    }

    pub(crate) fn u32_le(&mut self, what: &'static str) -> Result<u32, Error> {
        self.array(what).map(u32::from_le_bytes)
    }

    pub(crate) fn u32_be(&mut self, what: &'static str) -> Result<u32, Error> {
        self.array(what).map(u32::from_be_bytes)
    }

    pub(crate) fn corrupt(&self, input_pos: usize, what: &'static str) -> Error {
        Error::ContainerCorrupt {
            container: self.container,
            input_pos: input_pos as u64,
            what,
        }
    }
}

/// Checks that `declared` more bytes of output, after the `produced` bytes already decoded,
/// stay within `max_out`. Returns the declared size as a `usize`.
pub(crate) fn check_cap(
    container: &'static str,
    input_pos: usize,
    produced: usize,
    declared: u64,
    max_out: usize,
) -> Result<usize, Error> {
    let total = (produced as u64).saturating_add(declared);
    if total > max_out as u64 {
        return Err(Error::ContainerOutputLimit {
            container,
            input_pos: input_pos as u64,
            declared: total,
            max_out: max_out as u64,
        });
    }
    // `total <= max_out`, so `declared` fits a `usize`.
    Ok(declared as usize)
}

/// Decodes the raw block `block` (at input offset `block_pos`), which its container says
/// decodes to exactly `declared` bytes (a size field at `size_pos`, already checked against the
/// caller's cap), appending the output to `out`.
///
/// A size no block of this length could decode to is refused before anything is allocated;
/// the block is decoded with `declared` as its output capacity, so it can neither write past
/// its declared size nor fall short of it unnoticed.
pub(crate) fn decode_exact(
    container: &'static str,
    block: &[u8],
    block_pos: usize,
    size_pos: usize,
    declared: usize,
    out: &mut Vec<u8>,
) -> Result<(), Error> {
    if declared as u64 > (block.len() as u64).saturating_mul(MAX_EXPANSION) {
        return Err(Error::ContainerCorrupt {
            container,
            input_pos: size_pos as u64,
            what: "the declared uncompressed size is more than the compressed block could decode to (255 bytes per byte)",
        });
    }
    let decoded = block::decompress_append(block, out, 0, declared)
        .map_err(|error| block_error(container, block_pos, error))?;
    if decoded != declared {
        return Err(Error::ContainerSizeMismatch {
            container,
            input_pos: size_pos as u64,
            declared: declared as u64,
            actual: decoded as u64,
        });
    }
    Ok(())
}

/// [`Error::ContainerChecksum`]: the stored checksum at `input_pos` is `found`, the data hashes
/// to `expected`.
pub(crate) fn checksum_error(
    container: &'static str,
    input_pos: usize,
    expected: u128,
    found: u128,
) -> Error {
    Error::ContainerChecksum {
        container,
        input_pos: input_pos as u64,
        expected,
        found,
    }
}

/// Wraps a block decoder's error with the container and the block's input offset.
pub(crate) fn block_error(container: &'static str, block_pos: usize, error: Error) -> Error {
    Error::ContainerBlock {
        container,
        input_pos: block_pos as u64,
        error: Box::new(error),
    }
}

/// Compresses `src` as one raw block (liblz4's bytes at acceleration 1), refusing inputs the
/// block format cannot hold.
pub(crate) fn compress_block(src: &[u8]) -> Result<Vec<u8>, Error> {
    if src.len() > MAX_INPUT_SIZE {
        return Err(Error::InputTooLarge {
            len: src.len(),
            max: MAX_INPUT_SIZE,
        });
    }
    Ok(block::compress(src))
}

/// Reserves room for `additional` more bytes, as [`Error::AllocationFailed`] when refused.
pub(crate) fn reserve(out: &mut Vec<u8>, additional: usize) -> Result<(), Error> {
    out.try_reserve(additional)
        .map_err(|_| Error::AllocationFailed {
            bytes: out.len().saturating_add(additional),
        })
}
