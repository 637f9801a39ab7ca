//! One raw LZ4 block behind its decompressed size, with the size's encoding as a parameter:
//!
//! - [`SizePrefix::Le32`]: a little-endian `u32`: python-lz4's `lz4.block.compress(store_size=True)`
//!   (its default), lz4_flex's `compress_prepend_size`, Cassandra's and ScyllaDB's SSTable
//!   chunks (`LZ4Compressor`).
//! - [`SizePrefix::Be32`]: a big-endian `u32`: the body of a compressed frame of the Cassandra
//!   native protocol up to v4.
//! - [`SizePrefix::Varint32`]: an unsigned LEB128 varint of at most 5 bytes holding a `u32`:
//!   RocksDB's LZ4 blocks with `format_version` ≥ 2.
//!
//! The block must decode to exactly the size in the prefix; the prefix is checked against the
//! caller's cap and against what the block could decode to before anything is allocated.
//!
//! ```
//! use lz4_simd::container::prefixed::{self, SizePrefix};
//! let data = b"abcabcabcabcabcabcabcabc".repeat(10);
//! let packed = prefixed::compress(&data, SizePrefix::Varint32).unwrap();
//! assert_eq!(packed[..2], [0xf0, 0x01]); // 240
//! assert_eq!(prefixed::decompress(&packed, SizePrefix::Varint32, 1 << 20).unwrap(), data);
//! ```

use alloc::vec::Vec;

use super::{check_cap, compress_block, decode_exact, Input};
use crate::Error;

/// How the decompressed size is stored in front of the block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SizePrefix {
    /// Little-endian `u32` (python-lz4 `store_size`, Cassandra / ScyllaDB SSTable chunks).
    Le32,
    /// Big-endian `u32` (Cassandra native protocol ≤ v4).
    Be32,
    /// Unsigned LEB128 varint32, 1-5 bytes (RocksDB, `format_version` ≥ 2).
    Varint32,
}

impl SizePrefix {
    /// The container's name in errors.
    pub const fn name(self) -> &'static str {
        match self {
            SizePrefix::Le32 => "size-prefixed (LE u32)",
            SizePrefix::Be32 => "size-prefixed (BE u32)",
            SizePrefix::Varint32 => "size-prefixed (varint32)",
        }
    }

    /// Appends `size` in this encoding to `out`.
    pub fn write(self, size: u32, out: &mut Vec<u8>) {
        match self {
            SizePrefix::Le32 => out.extend_from_slice(&size.to_le_bytes()),
            SizePrefix::Be32 => out.extend_from_slice(&size.to_be_bytes()),
            SizePrefix::Varint32 => {
                let mut rest = size;
                while rest >= 0x80 {
                    out.push((rest as u8) | 0x80);
                    rest >>= 7;
                }
                out.push(rest as u8);
            }
        }
    }

    /// Reads the prefix at the start of `src`: the declared size and the prefix's length.
    pub fn read(self, src: &[u8]) -> Result<(u32, usize), Error> {
        let mut input = Input::new(self.name(), src);
        let size = match self {
            SizePrefix::Le32 => input.u32_le("the 4-byte little-endian size prefix")?,
            SizePrefix::Be32 => input.u32_be("the 4-byte big-endian size prefix")?,
            SizePrefix::Varint32 => {
                let mut size = 0u32;
                let mut shift = 0;
                loop {
                    let byte = input.u8("the rest of the varint size prefix")?;
                    if shift == 28 && byte > 0x0F {
                        return Err(input.corrupt(
                            input.pos() - 1,
                            "the varint size prefix is longer than 5 bytes or above u32::MAX",
                        ));
                    }
                    size |= u32::from(byte & 0x7F) << shift;
                    if byte & 0x80 == 0 {
                        break;
                    }
                    shift += 7;
                }
                size
            }
        };
        Ok((size, input.pos()))
    }
}

/// Compresses `src` as one block behind its size in `prefix`'s encoding. Inputs above the block
/// format's maximum (`block::MAX_INPUT_SIZE`, which also keeps the size within a `u32`) are
/// [`Error::InputTooLarge`].
///
/// # Examples
///
/// ```
/// use lz4_simd::container::prefixed::{self, SizePrefix};
/// let data = b"sstable chunk sstable chunk ".repeat(10);
/// let packed = prefixed::compress(&data, SizePrefix::Le32)?;
/// assert_eq!(packed[..4], (data.len() as u32).to_le_bytes());
/// assert_eq!(prefixed::decompress(&packed, SizePrefix::Le32, 1 << 20)?, data);
/// # Ok::<(), lz4_simd::Error>(())
/// ```
pub fn compress(src: &[u8], prefix: SizePrefix) -> Result<Vec<u8>, Error> {
    let block = compress_block(src)?;
    let mut out = Vec::with_capacity(block.len() + 5);
    prefix.write(src.len() as u32, &mut out);
    out.extend_from_slice(&block);
    Ok(out)
}

/// Decodes one size-prefixed block into at most `max_out` bytes; it must decode to exactly the
/// size in its prefix. Bytes after the block are part of it (the block ends the input).
///
/// # Examples
///
/// ```
/// use lz4_simd::container::prefixed::{self, SizePrefix};
/// let data = b"sstable chunk sstable chunk ".repeat(10);
/// let packed = prefixed::compress(&data, SizePrefix::Varint32)?;
/// assert_eq!(prefixed::decompress(&packed, SizePrefix::Varint32, 1 << 20)?, data);
/// // A size prefix above `max_out` is refused before anything is allocated.
/// assert!(prefixed::decompress(&packed, SizePrefix::Varint32, 100).is_err());
/// # Ok::<(), lz4_simd::Error>(())
/// ```
pub fn decompress(src: &[u8], prefix: SizePrefix, max_out: usize) -> Result<Vec<u8>, Error> {
    let container = prefix.name();
    let (declared, header_len) = prefix.read(src)?;
    let declared = check_cap(container, 0, 0, u64::from(declared), max_out)?;
    let block = &src[header_len..];
    let mut out = Vec::new();
    if block.is_empty() {
        // Nothing to decode: a size of 0 needs no block, anything else is missing its block.
        return if declared == 0 {
            Ok(out)
        } else {
            Err(Input::new(container, src).truncated("the compressed block"))
        };
    }
    decode_exact(
        container,
        block,
        header_len as u64,
        0,
        declared,
        declared,
        &mut out,
    )?;
    Ok(out)
}
