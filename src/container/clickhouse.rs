//! ClickHouse's compressed blocks: what its MergeTree column files (`.bin`) and its native
//! protocol (with `compression=lz4`) are made of.
//!
//! | bytes | field |
//! | --- | --- |
//! | 16 | checksum: CityHash128 **v1.0.2** of the rest of the block (method byte to end), its two 64-bit halves little-endian, first half first |
//! | 1 | method: `0x82` LZ4, `0x02` none (stored) |
//! | 4 | compressed size, little-endian, *including* these 9 header bytes |
//! | 4 | uncompressed size, little-endian |
//! | ... | the raw LZ4 block (or the stored bytes) |
//!
//! A stream is such blocks one after the other; [`decompress`] decodes it whole, verifying every
//! checksum before decoding its block. ClickHouse's other methods (ZSTD `0x90`, the
//! delta/Gorilla/... codecs, encryption) are refused as unsupported. CityHash128 v1.0.2 comes
//! from the `cityhash-rs` crate (ClickHouse pins that old version; later versions hash
//! differently).
//!
//! Before a block's data is read, its header is checked: the method, the compressed size within
//! 9 bytes..1 GiB and, for LZ4, within `block::compress_bound` of the uncompressed size
//! (ClickHouse compresses into a buffer of that bound), for stored blocks equal to it, and the
//! uncompressed size within the caller's cap. [`Decoder`] (with `std`) so holds one block at a
//! time, whatever the stream's length; [`Encoder`] writes the bytes of [`compress`].
//!
//! ```
//! use lz4_simd::container::clickhouse;
//! let column = b"clickhouse column clickhouse column".repeat(100);
//! let blocks = clickhouse::compress(&column, clickhouse::DEFAULT_BLOCK_SIZE).unwrap();
//! assert_eq!(blocks[16], clickhouse::METHOD_LZ4);
//! assert_eq!(clickhouse::decompress(&blocks, 1 << 20).unwrap(), column);
//! ```

use alloc::vec::Vec;

use super::{
    checksum_error, compress_block, corrupt, decode_exact, max_block_len, reserve, truncated,
    Blocks, Cap, Step, Units,
};
use crate::block;
use crate::Error;

const NAME: &str = "clickhouse";

/// The method byte of an LZ4 block.
pub const METHOD_LZ4: u8 = 0x82;
/// The method byte of a stored (uncompressed) block.
pub const METHOD_NONE: u8 = 0x02;
/// The checksum's length.
pub const CHECKSUM_LEN: usize = 16;
/// The header after the checksum: method, compressed size, uncompressed size.
pub const HEADER_LEN: usize = 9;
/// ClickHouse refuses blocks whose compressed size exceeds 1 GiB
/// (`DBMS_MAX_COMPRESSED_SIZE`); so do the encoder and decoder here.
pub const MAX_COMPRESSED_SIZE: usize = 1 << 30;
/// ClickHouse's default `max_compress_block_size`: 1 MiB of input per block.
pub const DEFAULT_BLOCK_SIZE: usize = 1 << 20;

const HEADER_INCOMPLETE: &str = "the rest of the 25-byte block header";

/// The checksum ClickHouse stores in front of `block` (the method byte to the end of the data):
/// CityHash128 v1.0.2, its first 64-bit half then its second, each little-endian.
pub fn checksum(block: &[u8]) -> [u8; 16] {
    let hash = cityhash_rs::cityhash_102_128(block);
    let mut bytes = [0; 16];
    bytes[..8].copy_from_slice(&((hash >> 64) as u64).to_le_bytes());
    bytes[8..].copy_from_slice(&(hash as u64).to_le_bytes());
    bytes
}

/// Compresses `src` as ClickHouse blocks of at most `block_size` input bytes each (ClickHouse's
/// default is [`DEFAULT_BLOCK_SIZE`]); empty input gives no block. A block size of 0, or one
/// whose compressed form could exceed [`MAX_COMPRESSED_SIZE`], is an
/// [`Error::InvalidArgument`].
///
/// # Examples
///
/// ```
/// use lz4_simd::container::clickhouse;
/// let column = b"2026-12-07 GET /index.html 200\n".repeat(100);
/// let blocks = clickhouse::compress(&column, clickhouse::DEFAULT_BLOCK_SIZE)?;
/// // A block: the 16-byte checksum, then the method byte.
/// assert_eq!(blocks[clickhouse::CHECKSUM_LEN], clickhouse::METHOD_LZ4);
/// assert_eq!(clickhouse::decompress(&blocks, 1 << 20)?, column);
/// # Ok::<(), lz4_simd::Error>(())
/// ```
pub fn compress(src: &[u8], block_size: usize) -> Result<Vec<u8>, Error> {
    super::encode_blocks(&mut EncodeState::new(block_size)?, src)
}

/// The encoder's side of the container (see [`Encoder`]).
#[derive(Debug, Clone)]
pub struct EncodeState {
    block_size: usize,
}

impl EncodeState {
    fn new(block_size: usize) -> Result<Self, Error> {
        if block_size == 0
            || block::compress_bound(block_size).saturating_add(HEADER_LEN) > MAX_COMPRESSED_SIZE
        {
            return Err(Error::InvalidArgument {
                what: "ClickHouse block size must be 1 byte to about 1 GiB",
            });
        }
        Ok(Self { block_size })
    }
}

impl Blocks for EncodeState {
    fn block_size(&self) -> usize {
        self.block_size
    }

    fn block(&mut self, content: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
        let compressed = compress_block(content)?;
        let start = out.len();
        out.extend_from_slice(&[0; CHECKSUM_LEN]);
        out.push(METHOD_LZ4);
        out.extend_from_slice(&((compressed.len() + HEADER_LEN) as u32).to_le_bytes());
        out.extend_from_slice(&(content.len() as u32).to_le_bytes());
        out.extend_from_slice(&compressed);
        let sum = checksum(&out[start + CHECKSUM_LEN..]);
        out[start..start + CHECKSUM_LEN].copy_from_slice(&sum);
        Ok(())
    }

    fn end(&mut self, _blocks: u64, _out: &mut Vec<u8>) -> Result<(), Error> {
        Ok(())
    }
}

/// Decodes a stream of ClickHouse compressed blocks (LZ4 or stored) into at most `max_out`
/// bytes. Each block's header is checked before its data is read (see the
/// [module docs](self)), its checksum is verified before its data is decoded, and each must
/// decode to exactly its uncompressed size.
///
/// # Examples
///
/// ```
/// use lz4_simd::container::clickhouse;
/// let column = b"2026-12-07 GET /index.html 200\n".repeat(100);
/// let mut blocks = clickhouse::compress(&column, 1000)?;
/// assert_eq!(clickhouse::decompress(&blocks, 1 << 20)?, column);
/// // A changed byte fails the block's checksum.
/// let last = blocks.len() - 1;
/// blocks[last] ^= 1;
/// assert!(clickhouse::decompress(&blocks, 1 << 20).is_err());
/// # Ok::<(), lz4_simd::Error>(())
/// ```
pub fn decompress(src: &[u8], max_out: usize) -> Result<Vec<u8>, Error> {
    super::decode_units::<DecodeState>(src, max_out)
}

/// The decoder's side of the container (see [`Decoder`]).
#[derive(Debug, Clone)]
pub struct DecodeState {
    cap: Cap,
    /// The block whose header was checked: its whole length and uncompressed size. Its unit is
    /// the whole block, header included (the checksum covers the header).
    block: Option<(usize, usize)>,
}

impl DecodeState {
    /// Checks a block's 25-byte header at `pos`: its whole length and uncompressed size.
    fn header(&self, unit: &[u8], pos: u64) -> Result<(usize, usize), Error> {
        let method_pos = pos + CHECKSUM_LEN as u64;
        let size_pos = method_pos + 5;
        let method = unit[CHECKSUM_LEN];
        let field =
            |at: usize| u32::from_le_bytes([unit[at], unit[at + 1], unit[at + 2], unit[at + 3]]);
        let compressed_size = field(CHECKSUM_LEN + 1) as usize;
        let uncompressed_size = field(CHECKSUM_LEN + 5);
        if !(HEADER_LEN..=MAX_COMPRESSED_SIZE).contains(&compressed_size) {
            return Err(corrupt(
                NAME,
                method_pos + 1,
                "the compressed size is below the 9-byte header or above 1 GiB",
            ));
        }
        let data_len = compressed_size - HEADER_LEN;
        let declared = self
            .cap
            .check(NAME, size_pos, u64::from(uncompressed_size))?;
        match method {
            METHOD_LZ4 if data_len > max_block_len(declared) => Err(corrupt(
                NAME,
                method_pos + 1,
                "the compressed size is more than any LZ4 block of the uncompressed size takes",
            )),
            METHOD_NONE if data_len != declared => Err(Error::ContainerSizeMismatch {
                container: NAME,
                input_pos: size_pos,
                declared: declared as u64,
                actual: data_len as u64,
            }),
            METHOD_LZ4 | METHOD_NONE => Ok((CHECKSUM_LEN + compressed_size, declared)),
            _ => Err(Error::ContainerUnsupported {
                container: NAME,
                input_pos: method_pos,
                what: "a compression method other than LZ4 (0x82) or none (0x02)",
            }),
        }
    }
}

impl Units for DecodeState {
    fn with_cap(cap: Cap) -> Self {
        Self { cap, block: None }
    }

    #[cfg(feature = "std")]
    fn cap_mut(&mut self) -> &mut Cap {
        &mut self.cap
    }

    fn need(&self) -> usize {
        self.block.map_or(CHECKSUM_LEN + HEADER_LEN, |(len, _)| len)
    }

    fn unit(&mut self, unit: &[u8], end: bool, pos: u64, out: &mut Vec<u8>) -> Result<Step, Error> {
        let input_end = pos + unit.len() as u64;
        let Some((len, declared)) = self.block.take() else {
            if end {
                return if unit.is_empty() {
                    Ok(Step::End)
                } else {
                    Err(truncated(NAME, input_end, HEADER_INCOMPLETE))
                };
            }
            // The header is read again as the start of the block's unit.
            self.block = Some(self.header(unit, pos)?);
            return Ok(Step::Used(0));
        };
        if end {
            return Err(truncated(NAME, input_end, "the rest of a block's data"));
        }
        let expected = checksum(&unit[CHECKSUM_LEN..]);
        if expected[..] != unit[..CHECKSUM_LEN] {
            let mut stored = [0; CHECKSUM_LEN];
            stored.copy_from_slice(&unit[..CHECKSUM_LEN]);
            return Err(checksum_error(
                NAME,
                pos,
                u128::from_le_bytes(expected),
                u128::from_le_bytes(stored),
            ));
        }
        let data = &unit[CHECKSUM_LEN + HEADER_LEN..];
        let data_pos = pos + (CHECKSUM_LEN + HEADER_LEN) as u64;
        if unit[CHECKSUM_LEN] == METHOD_LZ4 {
            let size_pos = pos + CHECKSUM_LEN as u64 + 5;
            let room = self.cap.room();
            decode_exact(NAME, data, data_pos, size_pos, declared, room, out)?;
        } else {
            reserve(out, data.len(), self.cap.room())?;
            out.extend_from_slice(data);
        }
        self.cap.add(declared);
        Ok(Step::Used(len))
    }
}

/// Reads a stream of ClickHouse compressed blocks as their content, one block at a time
/// (`std::io::Read`, see [`stream::Decoder`](super::stream::Decoder)).
///
/// # Examples
///
/// ```
/// use std::io::Read;
/// use lz4_simd::container::clickhouse;
/// let column = b"clickhouse column ".repeat(100_000);
/// let blocks = clickhouse::compress(&column, clickhouse::DEFAULT_BLOCK_SIZE).unwrap();
/// let mut decoded = Vec::new();
/// clickhouse::Decoder::new(&blocks[..], 1 << 20).read_to_end(&mut decoded).unwrap();
/// assert_eq!(decoded, column);
/// ```
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub type Decoder<R> = super::stream::Decoder<R, DecodeState>;

/// Writes ClickHouse compressed blocks, the bytes of [`compress`] (`std::io::Write`, see
/// [`stream::Encoder`](super::stream::Encoder)); call `finish`.
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub type Encoder<W> = super::stream::Encoder<W, EncodeState>;

#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
impl<W: std::io::Write> Encoder<W> {
    /// An encoder writing blocks of at most `block_size` input bytes to `writer` (see
    /// [`compress`] for the sizes allowed).
    pub fn new(writer: W, block_size: usize) -> Result<Self, Error> {
        Ok(Self::with_blocks(writer, EncodeState::new(block_size)?))
    }
}
