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
//! cap and against the input left *before* anything is allocated for it, the output's capacity
//! never grows past the cap, every declared size is checked against what was decoded, and every
//! checksum the container carries is verified. Bad input is an [`Error`] naming the container,
//! what was wrong and at which input offset; the container variants are `Error::Container*`, and
//! a bad LZ4 block inside a container is [`Error::ContainerBlock`] wrapping the block decoder's
//! error.
//!
//! Every encoder writes what the system's own reader accepts (checked against the real
//! implementations in `tests/container/`).
//!
//! # Streaming
//!
//! The containers that are streams of blocks also read and write through `std::io` (feature
//! `std`): [`hadoop`], [`java`] and [`clickhouse`] have a `Decoder<R>` and an `Encoder<W>` (the
//! generic [`stream::Decoder`] and [`stream::Encoder`], which run the one-shot functions' own
//! state machines), and [`kafka`] has its own on the frame module's adapters. They write the
//! one-shot functions' bytes and reach their verdicts, with memory bounded by one block whatever
//! the stream's length. They take a cap on each block (`Decoder::new`) and one on the whole
//! output (`max_out`, as the one-shot functions' cap). [`prefixed`],
//! [`parquet`] and [`linux`] hold one block, one page or one image, and stay one-shot.

#![forbid(unsafe_code)]

pub mod clickhouse;
pub mod hadoop;
pub mod java;
pub mod kafka;
pub mod linux;
pub mod parquet;
pub mod prefixed;
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub mod stream;

use alloc::boxed::Box;
use alloc::vec::Vec;

pub(crate) use sealed::{Blocks, Cap, Step, Units};

use crate::block::{self, MAX_INPUT_SIZE};
use crate::Error;

/// The state machines the one-shot functions and the streaming adapters ([`stream`]) share, so
/// both read and write the same bytes with the same checks. Sealed: only this crate's
/// containers implement them.
mod sealed {
    use alloc::vec::Vec;

    use crate::Error;

    /// The caller's caps on a decoder's output: on the whole output (`max_out`: the one-shot
    /// functions' cap, and the streaming decoders' with `max_out`) and on each block
    /// (`max_block`: what a streaming decoder holds in memory). Every size field is checked
    /// against both before anything is allocated for it.
    #[derive(Debug, Clone, Copy)]
    pub struct Cap {
        max_block: usize,
        max_out: u64,
        produced: u64,
    }

    impl Cap {
        /// A cap on the whole output (which also bounds each block).
        pub fn total(max_out: usize) -> Self {
            Self {
                max_block: usize::MAX,
                max_out: max_out as u64,
                produced: 0,
            }
        }

        /// A cap on each block, none on the whole output.
        #[cfg(feature = "std")]
        #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
        pub fn per_block(max_block: usize) -> Self {
            Self {
                max_block,
                max_out: u64::MAX,
                produced: 0,
            }
        }

        /// Caps the whole output at `max_out` bytes too.
        #[cfg(feature = "std")]
        #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
        pub fn set_max_out(&mut self, max_out: u64) {
            self.max_out = max_out;
        }

        /// Checks a size field at `input_pos` declaring `declared` more bytes of output against
        /// the block cap and, with what was produced before, against the total cap; returns
        /// the size as a `usize`.
        pub fn check(
            &self,
            container: &'static str,
            input_pos: u64,
            declared: u64,
        ) -> Result<usize, Error> {
            // The total first: with both caps equal, the error is the one-shot function's.
            let total = self.produced.saturating_add(declared);
            if total > self.max_out {
                return Err(Error::ContainerOutputLimit {
                    container,
                    input_pos,
                    declared: total,
                    max_out: self.max_out,
                });
            }
            if declared > self.max_block as u64 {
                return Err(Error::ContainerOutputLimit {
                    container,
                    input_pos,
                    declared,
                    max_out: self.max_block as u64,
                });
            }
            // `declared` is within both caps, and one of them is a `usize`.
            Ok(declared as usize)
        }

        /// The most output the next block may still take: what is left of the total cap, and
        /// at most the block cap.
        pub fn room(&self) -> usize {
            let left = self.max_out.saturating_sub(self.produced);
            usize::try_from(left).map_or(self.max_block, |left| left.min(self.max_block))
        }

        /// Counts `len` bytes of output.
        pub fn add(&mut self, len: usize) {
            self.produced += len as u64;
        }
    }

    /// What [`Units::unit`] did with the bytes it was given.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Step {
        /// The first `n` bytes were used; the rest (if any) is handed in again, at the front of
        /// the next unit.
        Used(usize),
        /// The container ended where it may end (only at the end of the input).
        End,
    }

    /// A container decoder as a series of *units* (a header, a block's body), each of a size
    /// known before it is read.
    pub trait Units {
        /// The decoder, with its caps.
        fn with_cap(cap: Cap) -> Self;

        /// Its caps (for the streaming decoders' `max_out`).
        #[cfg(feature = "std")]
        fn cap_mut(&mut self) -> &mut Cap;

        /// Bytes the next unit takes. A unit may be a look-ahead that uses fewer bytes than it
        /// asks for ([`Step::Used`]).
        fn need(&self) -> usize;

        /// Handles the next unit: `unit` holds [`need`](Self::need) bytes, or fewer when the
        /// input ended (`end`: then the container must end here, or the unit is an error, or
        /// the state changes so that a later call decides). `pos` is the input offset of
        /// `unit[0]`. Content is appended to `out`.
        fn unit(
            &mut self,
            unit: &[u8],
            end: bool,
            pos: u64,
            out: &mut Vec<u8>,
        ) -> Result<Step, Error>;
    }

    /// A container encoder as a series of blocks of the content.
    pub trait Blocks {
        /// The content bytes of each block (the last may be shorter).
        fn block_size(&self) -> usize;

        /// Appends the container's form of one block of content (`1..=block_size` bytes, or
        /// fewer when flushed) to `out`.
        fn block(&mut self, content: &[u8], out: &mut Vec<u8>) -> Result<(), Error>;

        /// Appends what ends the container, after `blocks` blocks.
        fn end(&mut self, blocks: u64, out: &mut Vec<u8>) -> Result<(), Error>;
    }
}

/// Runs a `U` decoder over the whole of `src`, its output capped at `max_out` (the one-shot
/// decoders).
pub(crate) fn decode_units<U: Units>(src: &[u8], max_out: usize) -> Result<Vec<u8>, Error> {
    let mut units = U::with_cap(Cap::total(max_out));
    let mut out = Vec::new();
    let mut pos = 0;
    loop {
        let need = units.need();
        let rest = &src[pos..];
        let (unit, end) = match rest.get(..need) {
            Some(unit) => (unit, false),
            None => (rest, true),
        };
        match units.unit(unit, end, pos as u64, &mut out)? {
            Step::Used(used) => pos += used,
            Step::End => return Ok(out),
        }
    }
}

/// Runs `blocks` over the whole of `src` (the one-shot encoders).
pub(crate) fn encode_blocks(blocks: &mut impl Blocks, src: &[u8]) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    let mut count = 0;
    for content in src.chunks(blocks.block_size()) {
        blocks.block(content, &mut out)?;
        count += 1;
    }
    blocks.end(count, &mut out)?;
    Ok(out)
}

/// [`Error::ContainerTruncated`]: the input ended at `input_pos`, inside `what`.
pub(crate) fn truncated(container: &'static str, input_pos: u64, what: &'static str) -> Error {
    Error::ContainerTruncated {
        container,
        input_pos,
        what,
    }
}

/// [`Error::ContainerCorrupt`] at `input_pos`.
pub(crate) fn corrupt(container: &'static str, input_pos: u64, what: &'static str) -> Error {
    Error::ContainerCorrupt {
        container,
        input_pos,
        what,
    }
}

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
/// caller's cap), appending the output to `out`, which the cap lets take `room` more bytes in
/// all (`room >= declared`; see [`reserve`]).
///
/// A size no block of this length could decode to is refused before anything is allocated;
/// the block is decoded with `declared` as its output capacity, so it can neither write past
/// its declared size nor fall short of it unnoticed.
pub(crate) fn decode_exact(
    container: &'static str,
    block: &[u8],
    block_pos: u64,
    size_pos: u64,
    declared: usize,
    room: usize,
    out: &mut Vec<u8>,
) -> Result<(), Error> {
    if declared as u64 > (block.len() as u64).saturating_mul(MAX_EXPANSION) {
        return Err(Error::ContainerCorrupt {
            container,
            input_pos: size_pos,
            what: "the declared uncompressed size is more than the compressed block could decode to (255 bytes per byte)",
        });
    }
    reserve(out, declared, room)?;
    let decoded = block::decompress_append(block, out, 0, declared)
        .map_err(|error| block_error(container, block_pos, error))?;
    if decoded != declared {
        return Err(Error::ContainerSizeMismatch {
            container,
            input_pos: size_pos,
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
    input_pos: u64,
    expected: u128,
    found: u128,
) -> Error {
    Error::ContainerChecksum {
        container,
        input_pos,
        expected,
        found,
    }
}

/// Wraps a block decoder's error with the container and the block's input offset.
pub(crate) fn block_error(container: &'static str, block_pos: u64, error: Error) -> Error {
    Error::ContainerBlock {
        container,
        input_pos: block_pos,
        error: Box::new(error),
    }
}

/// The longest LZ4 block of `content` bytes of content: `block::compress_bound`, for content
/// within the block format's largest input (a larger content is never one block, but may be many
/// chunks of a Hadoop block). No valid block is longer, whoever wrote it: a sequence costs at most
/// its bytes of content plus one byte per 255 literals beyond the first 15, and the last
/// literals at most 2 bytes more, so a block of `n` bytes of content takes at most
/// `n + n / 255 + 2` bytes. Refusing longer lengths refuses nothing valid, and bounds by the cap
/// what a decoder holds before it has decoded anything.
pub(crate) fn max_block_len(content: usize) -> usize {
    block::compress_bound(content.min(MAX_INPUT_SIZE))
}

/// Compresses `src` as one raw block (liblz4's bytes at acceleration 1), refusing inputs the
/// block format cannot hold.
pub(crate) fn compress_block(src: &[u8]) -> Result<Vec<u8>, Error> {
    block::compress(src)
}

/// Makes room for `additional` more bytes in `out`, which the caller's cap lets take `room` more
/// bytes in all (`room >= additional`), as [`Error::AllocationFailed`] when refused. A `Vec`
/// holding content grows geometrically, so one taking many blocks is not copied block by block,
/// but never past `out.len() + room`: amortised doubling (`try_reserve`) held 8 MiB for 4 MiB +
/// 64 KiB of lz4-java blocks under a cap of that size. An empty one (a streaming decoder's
/// block) grows to `additional` exactly.
pub(crate) fn reserve(out: &mut Vec<u8>, additional: usize, room: usize) -> Result<(), Error> {
    let len = out.len();
    if out.capacity() - len >= additional {
        return Ok(());
    }
    let doubled = if len == 0 {
        0
    } else {
        out.capacity().saturating_mul(2) - len
    };
    let more = doubled.min(room).max(additional);
    if more > additional && out.try_reserve_exact(more).is_ok() {
        return Ok(());
    }
    out.try_reserve_exact(additional)
        .map_err(|_| Error::AllocationFailed {
            bytes: len.saturating_add(additional),
        })
}
