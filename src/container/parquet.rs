//! Parquet pages compressed with the `LZ4` codec (codec 5, deprecated) and `LZ4_RAW` (codec 7).
//!
//! # `LZ4_RAW`
//! The page is one raw LZ4 block; the page header's `uncompressed_page_size` is its size:
//! [`decompress_lz4_raw`], [`compress_lz4_raw`].
//!
//! # `LZ4`: which bytes a page holds
//! The format never said which LZ4 container codec 5 meant, and writers disagreed: parquet-java
//! and Spark write Hadoop's `Lz4Codec` stream ([`hadoop`]), old parquet-cpp wrote
//! bare blocks, and old arrow-rs wrote LZ4 frames. Readers have guessed since, with bugs: Arrow
//! C++ reads only single-chunk Hadoop blocks and not the nested form Hadoop writes for large
//! pages (apache/arrow#43745), Arrow C++ writes a large page as one chunk that Hadoop's reader
//! rejects (apache/arrow#49642), and arrow-rs's fallback loop looks likely to reject valid
//! multi-chunk Hadoop pages. [`decompress_lz4`] applies one rule, in this order:
//!
//! 1. **Hadoop framing**, when the page parses as a whole as Hadoop blocks (single-chunk or
//!    nested): every chunk must decode within its block, every block must decode to exactly
//!    its declared length, the chunks must consume the page exactly, and the total must equal
//!    the page's `uncompressed_size`;
//! 2. else an **LZ4 frame** (the page starts with the frame magic `04 22 4D 18`), which must
//!    decode to exactly `uncompressed_size`;
//! 3. else a **raw block**, which must decode to exactly `uncompressed_size`.
//!
//! A raw block or a frame cannot pass step 1 by accident unless its bytes happen to form a
//! complete Hadoop stream whose blocks decode to exactly the page's size. The writer form,
//! [`compress_lz4`], is Hadoop framing in chunks Hadoop accepts ([`hadoop::compress`]), readable
//! by parquet-java, Spark, Arrow C++ and arrow-rs.
//!
//! ```
//! use lz4_simd::container::parquet;
//! let page = b"parquet page parquet page parquet page".repeat(50);
//! let compressed = parquet::compress_lz4(&page).unwrap();
//! assert_eq!(parquet::decompress_lz4(&compressed, page.len(), 1 << 20).unwrap(), page);
//! // A bare block (old parquet-cpp) under codec 5 decodes too.
//! let raw = parquet::compress_lz4_raw(&page).unwrap();
//! assert_eq!(parquet::decompress_lz4(&raw, page.len(), 1 << 20).unwrap(), page);
//! ```
//!
//! [`hadoop::compress`]: super::hadoop::compress

use alloc::vec::Vec;

use super::{check_cap, compress_block, decode_exact, hadoop};
use crate::{block, frame, Error};

const NAME: &str = "parquet";
const NAME_RAW: &str = "parquet LZ4_RAW";

/// Compresses a page for the `LZ4_RAW` codec: one raw block.
///
/// # Examples
///
/// ```
/// use lz4_simd::container::parquet;
/// let page = b"parquet page parquet page ".repeat(50);
/// let compressed = parquet::compress_lz4_raw(&page)?;
/// assert_eq!(parquet::decompress_lz4_raw(&compressed, page.len(), 1 << 20)?, page);
/// # Ok::<(), lz4_simd::Error>(())
/// ```
pub fn compress_lz4_raw(page: &[u8]) -> Result<Vec<u8>, Error> {
    compress_block(page)
}

/// Decodes an `LZ4_RAW` page: one raw block that must decode to exactly `uncompressed_size`
/// bytes (the page header's `uncompressed_page_size`), which must be within `max_out`.
///
/// # Examples
///
/// ```
/// use lz4_simd::container::parquet;
/// let page = b"parquet page parquet page ".repeat(50);
/// let compressed = parquet::compress_lz4_raw(&page)?;
/// assert_eq!(parquet::decompress_lz4_raw(&compressed, page.len(), 1 << 20)?, page);
/// // The page must decode to exactly its header's size.
/// assert!(parquet::decompress_lz4_raw(&compressed, page.len() + 1, 1 << 20).is_err());
/// # Ok::<(), lz4_simd::Error>(())
/// ```
pub fn decompress_lz4_raw(
    src: &[u8],
    uncompressed_size: usize,
    max_out: usize,
) -> Result<Vec<u8>, Error> {
    let declared = check_cap(NAME_RAW, 0, 0, uncompressed_size as u64, max_out)?;
    let mut out = Vec::new();
    decode_exact(NAME_RAW, src, 0, 0, declared, declared, &mut out)?;
    Ok(out)
}

/// Compresses a page for the `LZ4` codec as parquet-java and Spark write it: Hadoop framing
/// ([`hadoop::compress`]).
///
/// # Examples
///
/// ```
/// use lz4_simd::container::{hadoop, parquet};
/// let page = b"parquet page parquet page ".repeat(50);
/// let compressed = parquet::compress_lz4(&page)?;
/// assert_eq!(compressed, hadoop::compress(&page)?);
/// assert_eq!(parquet::decompress_lz4(&compressed, page.len(), 1 << 20)?, page);
/// # Ok::<(), lz4_simd::Error>(())
/// ```
pub fn compress_lz4(page: &[u8]) -> Result<Vec<u8>, Error> {
    hadoop::compress(page)
}

/// Decodes a page of the `LZ4` codec (codec 5): Hadoop framing, else an LZ4 frame, else a raw
/// block (the rule in the [module docs](self)); the result is exactly `uncompressed_size` bytes
/// (the page header's `uncompressed_page_size`), which must be within `max_out`.
///
/// One form is held at a time: a Hadoop parse of another size is freed before the next form is
/// tried, so at most `uncompressed_size` bytes of output are live.
///
/// When no form fits, the error is the one of the form the page looks most like:
/// 1. the page parsed whole as Hadoop framing but its total is not `uncompressed_size`:
///    [`Error::ContainerSizeMismatch`] with the Hadoop total (what Arrow C++ reports too: its
///    Hadoop reader returns the total, and its page reader refuses a page that "didn't
///    decompress to expected size");
/// 2. else, the page starts with the frame magic: the frame decoder's error;
/// 3. else, the page's first block length is `uncompressed_size`: the Hadoop error;
/// 4. else the raw block's error (Arrow C++'s too: its Hadoop reader falls back to a raw block
///    on any failure, and reports the raw block's error).
///
/// # Examples
///
/// ```
/// use lz4_simd::container::parquet;
/// use lz4_simd::frame::{self, FrameOptions};
/// let page = b"parquet page parquet page ".repeat(50);
/// // Each writer's form: Hadoop framing, an LZ4 frame, a raw block.
/// for compressed in [
///     parquet::compress_lz4(&page)?,
///     frame::compress(&page, &FrameOptions::default()),
///     parquet::compress_lz4_raw(&page)?,
/// ] {
///     assert_eq!(parquet::decompress_lz4(&compressed, page.len(), 1 << 20)?, page);
/// }
/// # Ok::<(), lz4_simd::Error>(())
/// ```
pub fn decompress_lz4(
    src: &[u8],
    uncompressed_size: usize,
    max_out: usize,
) -> Result<Vec<u8>, Error> {
    let size = check_cap(NAME, 0, 0, uncompressed_size as u64, max_out)?;
    // A Hadoop parse of another size keeps its length only: its output is freed here.
    let hadoop = match hadoop::decompress(src, size) {
        Ok(out) if out.len() == size => return Ok(out),
        Ok(out) => Ok(out.len()),
        Err(error) => Err(error),
    };
    let is_frame = src.starts_with(&frame::MAGIC.to_le_bytes());
    let other = if is_frame {
        frame::decompress(src, size)
    } else {
        block::decompress(src, size).map_err(|error| super::block_error(NAME, 0, error))
    };
    let other_error = match other {
        Ok(out) if out.len() == size => return Ok(out),
        Ok(out) => size_mismatch(size, out.len()),
        Err(error) => error,
    };
    let looks_hadoop = src.len() >= 8 && src[..4] == (size as u32).to_be_bytes();
    Err(match hadoop {
        Ok(len) => size_mismatch(size, len),
        Err(hadoop_error) if !is_frame && looks_hadoop => hadoop_error,
        Err(_) => other_error,
    })
}

fn size_mismatch(size: usize, actual: usize) -> Error {
    Error::ContainerSizeMismatch {
        container: NAME,
        input_pos: 0,
        declared: size as u64,
        actual: actual as u64,
    }
}
