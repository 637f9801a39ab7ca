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
//! ```
//! use lz4_simd::container::clickhouse;
//! let column = b"clickhouse column clickhouse column".repeat(100);
//! let blocks = clickhouse::compress(&column, clickhouse::DEFAULT_BLOCK_SIZE).unwrap();
//! assert_eq!(blocks[16], clickhouse::METHOD_LZ4);
//! assert_eq!(clickhouse::decompress(&blocks, 1 << 20).unwrap(), column);
//! ```

use alloc::vec::Vec;

use super::{check_cap, checksum_error, compress_block, decode_exact, reserve, Input};
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
pub fn compress(src: &[u8], block_size: usize) -> Result<Vec<u8>, Error> {
    if block_size == 0
        || crate::block::compress_bound(block_size) + HEADER_LEN > MAX_COMPRESSED_SIZE
    {
        return Err(Error::InvalidArgument {
            what: "ClickHouse block size must be 1 byte to about 1 GiB",
        });
    }
    let mut out = Vec::new();
    for chunk in src.chunks(block_size) {
        let compressed = compress_block(chunk)?;
        let start = out.len();
        out.extend_from_slice(&[0; CHECKSUM_LEN]);
        out.push(METHOD_LZ4);
        out.extend_from_slice(&((compressed.len() + HEADER_LEN) as u32).to_le_bytes());
        out.extend_from_slice(&(chunk.len() as u32).to_le_bytes());
        out.extend_from_slice(&compressed);
        let sum = checksum(&out[start + CHECKSUM_LEN..]);
        out[start..start + CHECKSUM_LEN].copy_from_slice(&sum);
    }
    Ok(out)
}

/// Decodes a stream of ClickHouse compressed blocks (LZ4 or stored) into at most `max_out`
/// bytes. Each block's checksum is verified before its data is decoded; each must decode to
/// exactly its uncompressed size.
pub fn decompress(src: &[u8], max_out: usize) -> Result<Vec<u8>, Error> {
    let mut input = Input::new(NAME, src);
    let mut out = Vec::new();
    while !input.is_empty() {
        let block_pos = input.pos();
        let stored: [u8; CHECKSUM_LEN] = input.array("the rest of the 25-byte block header")?;
        let method_pos = input.pos();
        let method = input.u8("the rest of the 25-byte block header")?;
        let compressed_size = input.u32_le("the rest of the 25-byte block header")? as usize;
        let uncompressed_size = input.u32_le("the rest of the 25-byte block header")?;
        if !(HEADER_LEN..=MAX_COMPRESSED_SIZE).contains(&compressed_size) {
            return Err(input.corrupt(
                method_pos + 1,
                "the compressed size is below the 9-byte header or above 1 GiB",
            ));
        }
        let data = input.take(compressed_size - HEADER_LEN, "the rest of a block's data")?;
        let expected = checksum(&src[method_pos..input.pos()]);
        if expected != stored {
            return Err(checksum_error(
                NAME,
                block_pos,
                u128::from_le_bytes(expected),
                u128::from_le_bytes(stored),
            ));
        }
        let size_pos = method_pos + 5;
        let declared = check_cap(
            NAME,
            size_pos,
            out.len(),
            u64::from(uncompressed_size),
            max_out,
        )?;
        match method {
            METHOD_LZ4 => decode_exact(NAME, data, method_pos + 9, size_pos, declared, &mut out)?,
            METHOD_NONE => {
                if data.len() != declared {
                    return Err(Error::ContainerSizeMismatch {
                        container: NAME,
                        input_pos: size_pos as u64,
                        declared: declared as u64,
                        actual: data.len() as u64,
                    });
                }
                reserve(&mut out, data.len())?;
                out.extend_from_slice(data);
            }
            _ => {
                return Err(Error::ContainerUnsupported {
                    container: NAME,
                    input_pos: method_pos as u64,
                    what: "a compression method other than LZ4 (0x82) or none (0x02)",
                })
            }
        }
    }
    Ok(out)
}
