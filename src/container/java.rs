//! lz4-java's `LZ4BlockOutputStream` / `LZ4BlockInputStream` format: what Spark writes for
//! shuffle, spill and broadcast data with `spark.io.compression.codec=lz4`.
//!
//! A stream is a series of blocks, each behind a 21-byte header:
//!
//! | bytes | field |
//! | --- | --- |
//! | 8 | the magic `LZ4Block` |
//! | 1 | token: the method in the high nibble (`0x10` stored raw, `0x20` LZ4) and, in the low nibble, the stream's block size as `log2(block size) - 10` |
//! | 4 | compressed length, little-endian |
//! | 4 | decompressed length, little-endian (at most the block size the token declares) |
//! | 4 | checksum: xxh32 of the decompressed bytes with seed `0x9747B28C`, masked to its low 28 bits (lz4-java's `StreamingXXHash32.asChecksum`), little-endian |
//!
//! A block whose LZ4 form is not smaller than its input is stored raw. The stream ends with an
//! empty block (raw, both lengths 0, checksum 0). Streams may be concatenated (lz4-java reads
//! them one after the other); every stream must end with its empty block.
//!
//! A block's decompressed length is at most the block size its token declares (at most 32 MiB,
//! lz4-java's rule), and an LZ4 block's compressed length is at most `block::compress_bound` of
//! its decompressed length (lz4-java stores a block raw when LZ4 does not make it smaller): so
//! [`Decoder`] (with `std`) holds at most one such block and its content, whatever the stream's
//! length. [`Encoder`] writes the bytes of [`compress`] through `std::io::Write`.
//!
//! ```
//! use lz4_simd::container::java;
//! let data = b"spark shuffle spark shuffle spark shuffle".repeat(100);
//! let stream = java::compress(&data, java::DEFAULT_BLOCK_SIZE).unwrap();
//! assert_eq!(&stream[..8], b"LZ4Block");
//! assert_eq!(java::decompress(&stream, 1 << 20).unwrap(), data);
//! ```

use alloc::vec::Vec;

use super::{
    checksum_error, compress_block, corrupt, decode_exact, max_block_len, reserve, truncated,
    Blocks, Cap, Step, Units,
};
use crate::Error;

const NAME: &str = "lz4-java";

/// The magic number in front of every block.
pub const MAGIC: &[u8; 8] = b"LZ4Block";
/// The header's length: magic, token, two lengths and the checksum.
pub const HEADER_LEN: usize = 21;
/// The checksum's seed (lz4-java's `DEFAULT_SEED`).
pub const SEED: u32 = 0x9747_B28C;
/// The stored checksum is the xxh32 masked to its low 28 bits.
pub const CHECKSUM_MASK: u32 = 0x0FFF_FFFF;
/// lz4-java's default block size (and Spark's `spark.io.compression.lz4.blockSize`): 64 KiB.
pub const DEFAULT_BLOCK_SIZE: usize = 64 << 10;
/// The smallest block size lz4-java accepts.
pub const MIN_BLOCK_SIZE: usize = 64;
/// The largest block size lz4-java accepts (32 MiB).
pub const MAX_BLOCK_SIZE: usize = 32 << 20;

const METHOD_RAW: u8 = 0x10;
const METHOD_LZ4: u8 = 0x20;
const LEVEL_BASE: u32 = 10;
const HEADER_INCOMPLETE: &str = "the rest of the 21-byte block header";

/// The checksum lz4-java stores for a block's decompressed bytes.
pub fn checksum(data: &[u8]) -> u32 {
    xxhash_rust::xxh32::xxh32(data, SEED) & CHECKSUM_MASK
}

/// Compresses `src` as one lz4-java stream with blocks of `block_size` bytes
/// ([`MIN_BLOCK_SIZE`]..=[`MAX_BLOCK_SIZE`]; lz4-java's default is [`DEFAULT_BLOCK_SIZE`]), as
/// `LZ4BlockOutputStream` with its default fast compressor writes it.
///
/// # Examples
///
/// ```
/// use lz4_simd::container::java;
/// let data = b"spark shuffle spark shuffle ".repeat(100);
/// let stream = java::compress(&data, java::DEFAULT_BLOCK_SIZE)?;
/// assert_eq!(&stream[..8], java::MAGIC);
/// assert_eq!(java::decompress(&stream, 1 << 20)?, data);
/// # Ok::<(), lz4_simd::Error>(())
/// ```
pub fn compress(src: &[u8], block_size: usize) -> Result<Vec<u8>, Error> {
    super::encode_blocks(&mut EncodeState::new(block_size)?, src)
}

/// The encoder's side of the container (see [`Encoder`]).
#[derive(Debug, Clone)]
pub struct EncodeState {
    block_size: usize,
    /// The token's low nibble: `ceil(log2(block_size)) - 10`, at least 0.
    level: u8,
}

impl EncodeState {
    fn new(block_size: usize) -> Result<Self, Error> {
        if !(MIN_BLOCK_SIZE..=MAX_BLOCK_SIZE).contains(&block_size) {
            return Err(Error::InvalidArgument {
                what: "lz4-java block size must be 64 bytes to 32 MiB",
            });
        }
        let level =
            (usize::BITS - (block_size - 1).leading_zeros()).saturating_sub(LEVEL_BASE) as u8;
        Ok(Self { block_size, level })
    }

    fn header(
        &self,
        out: &mut Vec<u8>,
        method: u8,
        compressed: usize,
        original: usize,
        check: u32,
    ) {
        out.extend_from_slice(MAGIC);
        out.push(method | self.level);
        out.extend_from_slice(&(compressed as u32).to_le_bytes());
        out.extend_from_slice(&(original as u32).to_le_bytes());
        out.extend_from_slice(&check.to_le_bytes());
    }
}

impl Blocks for EncodeState {
    fn block_size(&self) -> usize {
        self.block_size
    }

    fn block(&mut self, content: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
        let compressed = compress_block(content)?;
        let (method, body) = if compressed.len() >= content.len() {
            (METHOD_RAW, content)
        } else {
            (METHOD_LZ4, &compressed[..])
        };
        self.header(out, method, body.len(), content.len(), checksum(content));
        out.extend_from_slice(body);
        Ok(())
    }

    fn end(&mut self, _blocks: u64, out: &mut Vec<u8>) -> Result<(), Error> {
        self.header(out, METHOD_RAW, 0, 0, 0);
        Ok(())
    }
}

/// Decodes one or more concatenated lz4-java streams into at most `max_out` bytes, checking
/// every block's header (magic, method, lengths within the token's block size, raw blocks'
/// lengths equal, an LZ4 block's compressed length within the bound of its decompressed
/// length), its checksum, and that every stream ends with its empty block. Empty input holds no
/// stream and decodes to nothing.
///
/// # Examples
///
/// ```
/// use lz4_simd::container::java;
/// let data = b"spark shuffle spark shuffle ".repeat(100);
/// let stream = java::compress(&data, java::MIN_BLOCK_SIZE)?;
/// assert_eq!(java::decompress(&stream, 1 << 20)?, data);
/// // A stream without its closing empty block is truncated.
/// assert!(java::decompress(&stream[..stream.len() - java::HEADER_LEN], 1 << 20).is_err());
/// # Ok::<(), lz4_simd::Error>(())
/// ```
pub fn decompress(src: &[u8], max_out: usize) -> Result<Vec<u8>, Error> {
    super::decode_units::<DecodeState>(src, max_out)
}

/// The decoder's side of the container (see [`Decoder`]).
#[derive(Debug, Clone)]
pub struct DecodeState {
    cap: Cap,
    /// Inside a stream (after a block that is not the end block).
    in_stream: bool,
    /// The header of the block whose body comes next.
    body: Option<Header>,
}

#[derive(Debug, Clone, Copy)]
struct Header {
    pos: u64,
    raw: bool,
    compressed_len: u32,
    original_len: usize,
    check: u32,
}

impl DecodeState {
    /// Checks a block's header; `None` for the end block.
    fn header(&self, unit: &[u8], pos: u64) -> Result<Option<Header>, Error> {
        let field =
            |at: usize| u32::from_le_bytes([unit[at], unit[at + 1], unit[at + 2], unit[at + 3]]);
        if &unit[..8] != MAGIC {
            return Err(corrupt(NAME, pos, "not the LZ4Block magic"));
        }
        let token = unit[8];
        let (compressed_len, original_len, check) = (field(9), field(13), field(17));
        let method = token & 0xF0;
        let block_size = 1u64 << (LEVEL_BASE + u32::from(token & 0x0F));
        let bad = |what| Err(corrupt(NAME, pos + 8, what));
        if method != METHOD_RAW && method != METHOD_LZ4 {
            return bad("unknown method in the token (0x10 raw or 0x20 LZ4)");
        }
        if compressed_len > i32::MAX as u32 || original_len > i32::MAX as u32 {
            return bad("a negative length");
        }
        if u64::from(original_len) > block_size {
            return bad("the decompressed length is larger than the block size the token declares");
        }
        if (original_len == 0) != (compressed_len == 0) {
            return bad("one length is 0 and the other is not");
        }
        if method == METHOD_RAW && original_len != compressed_len {
            return bad("a raw block whose two lengths differ");
        }
        if original_len == 0 {
            if check != 0 {
                return Err(checksum_error(NAME, pos + 17, 0, u128::from(check)));
            }
            return Ok(None);
        }
        let original_len = self.cap.check(NAME, pos + 13, u64::from(original_len))?;
        if compressed_len as usize > max_block_len(original_len) {
            return bad(
                "the compressed length is more than any LZ4 block of the decompressed length takes",
            );
        }
        Ok(Some(Header {
            pos,
            raw: method == METHOD_RAW,
            compressed_len,
            original_len,
            check,
        }))
    }
}

impl Units for DecodeState {
    fn with_cap(cap: Cap) -> Self {
        Self {
            cap,
            in_stream: false,
            body: None,
        }
    }

    #[cfg(feature = "std")]
    fn cap_mut(&mut self) -> &mut Cap {
        &mut self.cap
    }

    fn need(&self) -> usize {
        self.body
            .map_or(HEADER_LEN, |header| header.compressed_len as usize)
    }

    fn unit(&mut self, unit: &[u8], end: bool, pos: u64, out: &mut Vec<u8>) -> Result<Step, Error> {
        let input_end = pos + unit.len() as u64;
        let Some(header) = self.body.take() else {
            if end {
                return match (unit.is_empty(), self.in_stream) {
                    (true, false) => Ok(Step::End),
                    (true, true) => Err(truncated(NAME, input_end, "the stream's empty end block")),
                    _ => Err(truncated(NAME, input_end, HEADER_INCOMPLETE)),
                };
            }
            self.body = self.header(unit, pos)?;
            self.in_stream = self.body.is_some();
            return Ok(Step::Used(HEADER_LEN));
        };
        if end {
            return Err(truncated(NAME, input_end, "the rest of a block"));
        }
        let start = out.len();
        if header.raw {
            reserve(out, unit.len(), self.cap.room())?;
            out.extend_from_slice(unit);
        } else {
            let size_pos = header.pos + 13;
            let (declared, room) = (header.original_len, self.cap.room());
            decode_exact(NAME, unit, pos, size_pos, declared, room, out)?;
        }
        let expected = checksum(&out[start..]);
        if expected != header.check {
            return Err(checksum_error(
                NAME,
                header.pos + 17,
                u128::from(expected),
                u128::from(header.check),
            ));
        }
        self.cap.add(header.original_len);
        Ok(Step::Used(unit.len()))
    }
}

/// Reads lz4-java streams (one or more, concatenated) as their content, one block at a time
/// (`std::io::Read`, see [`stream::Decoder`](super::stream::Decoder)).
///
/// # Examples
///
/// ```
/// use std::io::Read;
/// use lz4_simd::container::java;
/// let data = b"spark spill ".repeat(50_000);
/// let stream = java::compress(&data, java::DEFAULT_BLOCK_SIZE).unwrap();
/// let mut decoded = Vec::new();
/// java::Decoder::new(&stream[..], java::MAX_BLOCK_SIZE).read_to_end(&mut decoded).unwrap();
/// assert_eq!(decoded, data);
/// ```
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub type Decoder<R> = super::stream::Decoder<R, DecodeState>;

/// Writes an lz4-java stream, the bytes of [`compress`] (`std::io::Write`, see
/// [`stream::Encoder`](super::stream::Encoder)); call `finish`, which writes the end block.
///
/// # Examples
///
/// ```
/// use std::io::Write;
/// use lz4_simd::container::java;
/// let data = b"spark spill ".repeat(50_000);
/// let mut encoder = java::Encoder::new(Vec::new(), java::DEFAULT_BLOCK_SIZE).unwrap();
/// encoder.write_all(&data).unwrap();
/// let stream = encoder.finish().unwrap();
/// assert_eq!(stream, java::compress(&data, java::DEFAULT_BLOCK_SIZE).unwrap());
/// ```
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub type Encoder<W> = super::stream::Encoder<W, EncodeState>;

#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
impl<W: std::io::Write> Encoder<W> {
    /// An encoder writing one lz4-java stream of `block_size`-byte blocks to `writer` (see
    /// [`compress`] for the sizes allowed).
    pub fn new(writer: W, block_size: usize) -> Result<Self, Error> {
        Ok(Self::with_blocks(writer, EncodeState::new(block_size)?))
    }
}
