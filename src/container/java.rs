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
//! ```
//! use lz4_simd::container::java;
//! let data = b"spark shuffle spark shuffle spark shuffle".repeat(100);
//! let stream = java::compress(&data, java::DEFAULT_BLOCK_SIZE).unwrap();
//! assert_eq!(&stream[..8], b"LZ4Block");
//! assert_eq!(java::decompress(&stream, 1 << 20).unwrap(), data);
//! ```

use alloc::vec::Vec;

use super::{check_cap, checksum_error, compress_block, decode_exact, Input};
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

/// The checksum lz4-java stores for a block's decompressed bytes.
pub fn checksum(data: &[u8]) -> u32 {
    xxhash_rust::xxh32::xxh32(data, SEED) & CHECKSUM_MASK
}

/// Compresses `src` as one lz4-java stream with blocks of `block_size` bytes
/// ([`MIN_BLOCK_SIZE`]..=[`MAX_BLOCK_SIZE`]; lz4-java's default is [`DEFAULT_BLOCK_SIZE`]), as
/// `LZ4BlockOutputStream` with its default fast compressor writes it.
pub fn compress(src: &[u8], block_size: usize) -> Result<Vec<u8>, Error> {
    if !(MIN_BLOCK_SIZE..=MAX_BLOCK_SIZE).contains(&block_size) {
        return Err(Error::InvalidArgument {
            what: "lz4-java block size must be 64 bytes to 32 MiB",
        });
    }
    // The token's level: ceil(log2(block_size)) - 10, at least 0.
    let level = (usize::BITS - (block_size - 1).leading_zeros()).saturating_sub(LEVEL_BASE) as u8;
    let mut out = Vec::new();
    for chunk in src.chunks(block_size) {
        let compressed = compress_block(chunk)?;
        let (method, body) = if compressed.len() >= chunk.len() {
            (METHOD_RAW, chunk)
        } else {
            (METHOD_LZ4, &compressed[..])
        };
        write_header(
            &mut out,
            method | level,
            body.len(),
            chunk.len(),
            checksum(chunk),
        );
        out.extend_from_slice(body);
    }
    write_header(&mut out, METHOD_RAW | level, 0, 0, 0);
    Ok(out)
}

fn write_header(out: &mut Vec<u8>, token: u8, compressed: usize, original: usize, check: u32) {
    out.extend_from_slice(MAGIC);
    out.push(token);
    out.extend_from_slice(&(compressed as u32).to_le_bytes());
    out.extend_from_slice(&(original as u32).to_le_bytes());
    out.extend_from_slice(&check.to_le_bytes());
}

/// Decodes one or more concatenated lz4-java streams into at most `max_out` bytes, checking
/// every block's header (magic, method, lengths within the token's block size, raw blocks'
/// lengths equal), its checksum, and that every stream ends with its empty block. Empty input
/// holds no stream and decodes to nothing.
pub fn decompress(src: &[u8], max_out: usize) -> Result<Vec<u8>, Error> {
    let mut input = Input::new(NAME, src);
    let mut out = Vec::new();
    let mut in_stream = false;
    while !input.is_empty() {
        in_stream = true;
        let header_pos = input.pos();
        let magic: [u8; 8] = input.array("the rest of the 21-byte block header")?;
        if &magic != MAGIC {
            return Err(input.corrupt(header_pos, "not the LZ4Block magic"));
        }
        let token = input.u8("the rest of the 21-byte block header")?;
        let compressed_len = input.u32_le("the rest of the 21-byte block header")?;
        let original_len = input.u32_le("the rest of the 21-byte block header")?;
        let check_pos = input.pos();
        let check = input.u32_le("the rest of the 21-byte block header")?;
        let method = token & 0xF0;
        let block_size = 1u64 << (LEVEL_BASE + u32::from(token & 0x0F));
        let corrupt = |what| input.corrupt(header_pos + 8, what);
        if method != METHOD_RAW && method != METHOD_LZ4 {
            return Err(corrupt(
                "unknown method in the token (0x10 raw or 0x20 LZ4)",
            ));
        }
        if compressed_len > i32::MAX as u32 || original_len > i32::MAX as u32 {
            return Err(corrupt("a negative length"));
        }
        if u64::from(original_len) > block_size {
            return Err(corrupt(
                "the decompressed length is larger than the block size the token declares",
            ));
        }
        if (original_len == 0) != (compressed_len == 0) {
            return Err(corrupt("one length is 0 and the other is not"));
        }
        if method == METHOD_RAW && original_len != compressed_len {
            return Err(corrupt("a raw block whose two lengths differ"));
        }
        if original_len == 0 {
            if check != 0 {
                return Err(checksum_error(NAME, check_pos, 0, u128::from(check)));
            }
            in_stream = false;
            continue;
        }
        let original_len = check_cap(
            NAME,
            header_pos + 13,
            out.len(),
            u64::from(original_len),
            max_out,
        )?;
        let body_pos = input.pos();
        let body = input.take(compressed_len as usize, "the rest of a block")?;
        let start = out.len();
        if method == METHOD_RAW {
            super::reserve(&mut out, body.len())?;
            out.extend_from_slice(body);
        } else {
            decode_exact(
                NAME,
                body,
                body_pos,
                header_pos + 13,
                original_len,
                &mut out,
            )?;
        }
        let expected = checksum(&out[start..]);
        if expected != check {
            return Err(checksum_error(
                NAME,
                check_pos,
                u128::from(expected),
                u128::from(check),
            ));
        }
    }
    if in_stream {
        return Err(input.truncated("the stream's empty end block"));
    }
    Ok(out)
}
