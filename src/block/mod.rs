//! The LZ4 block format: compression (liblz4-identical) and decompression.
//!
//! A block is a series of *sequences*. Each sequence is a token byte (high nibble: literal
//! length, low nibble: match length − 4, each 15 meaning "more follows"), the literal-length
//! extension (bytes of 255 then a final byte below 255, all added), the literals, a 2-byte
//! little-endian match offset, and the match-length extension. The last sequence stops after its
//! literals.
//!
//! # What the decoder accepts
//!
//! A block is accepted exactly when all of these hold:
//!
//! 1. The input is not empty (the empty block is the single byte `00`).
//! 2. Every length extension is complete, and every length fits in `usize` (checked additions,
//!    so the rule holds on 32-bit targets too).
//! 3. Every literal run lies within the input; every non-final sequence has its complete 2-byte
//!    offset after its literals.
//! 4. No offset is 0. (liblz4 accepts offset 0 and writes zeros, or leaves stale bytes in its
//!    partial decoder; we reject it.)
//! 5. No offset reaches before the start of the output.
//! 6. No literal run or match writes past the output capacity (`dst.len()` or `max_out`).
//! 7. The last sequence is literals only and the input ends exactly after them: a block that ends
//!    right after a match is rejected. The match nibble of the last token is ignored (liblz4 does
//!    the same).
//!
//! Nothing else is checked. In particular the verdict does not depend on spare output capacity:
//! liblz4 enforces the format's end-of-block margins (last 5 bytes literals, last match starting at
//! least 12 bytes before the end) as limits of its fast loops, against the end of the output
//! *buffer* and the end of the input: a block lacking them fails in an exact-size output, and
//! some fail in an output of any size (a 14-byte block of two sequences whose last match ends 3
//! bytes before the input's end, for one). We decode such blocks whatever the buffer size. Every block that liblz4's `LZ4_decompress_safe` accepts and that has no offset 0,
//! we accept with identical output; a block we accept that liblz4 rejects lacks those margins
//! (or is decoded into a zero-capacity buffer, where liblz4 rejects every block but `00`, even
//! a lone token such as `0F` that decodes to nothing).
//!
//! Errors name what was wrong and the input offset (and output position) where it was found; see
//! [`Error`].
//!
//! # Decoding
//!
//! The free functions ([`decompress`], [`decompress_into`], [`decompress_into_uninit`],
//! [`decompress_into_with_history`], [`decompress_append`], [`decompress_with_dictionary`],
//! [`decompress_into_with_dictionary`], [`decompress_partial`], [`decompress_size_prepended`])
//! decode with the detected kernel ([`Kernel::detect`](crate::Kernel::detect)). A [`Decoder`]
//! has the same operations for a kernel of your choice ([`Decoder::with_kernel`], the one place
//! a kernel is chosen). The decoders, bottom up:
//! `reference` (the oracle, and every decoder's careful tail), `scalar` (the tuned safe decoder),
//! `fast_decode` (the one SIMD loop and its entry points per kernel), `dispatch` (kernel token →
//! entry point), `decoder` ([`Decoder`], the one implementation behind the free functions).
//!
//! # Compression
//!
//! [`compress_fast`] produces the bytes of liblz4 1.10's `LZ4_compress_fast` exactly; see the
//! `compress` module's documentation for the decisions that make that so. [`Compressor`] keeps the
//! hash tables between calls so hot paths allocate nothing.
//!
//! [`StreamCompressor`] compresses a stream of blocks, each able to reference the ones before it
//! (liblz4's `LZ4_compress_fast_continue`, byte for byte, in the two C buffer layouts it documents),
//! and [`StreamDecoder`] decodes such a stream into any buffers (`LZ4_decompress_safe_continue`).
//!
//! [`compress_hc`] and [`compress_hc_into`] compress with LZ4 HC (levels 2 to 12, liblz4 1.10's
//! level semantics: slower, smaller output, same block format); [`HcCompressor`] is their
//! reusable state. See the `hc` module's documentation for the strategies.

use alloc::vec;
use alloc::vec::Vec;
use core::mem::MaybeUninit;

use crate::Error;

// liblz4's stream parse on a caller-owned table, for the C ABI (`capi/`): not a public interface.
#[doc(hidden)]
pub mod c_stream;
mod compress;
mod decoder;
mod dict;
mod dispatch;
// The SIMD kernels' fast loop, on the targets that have one.
#[cfg(simd_kernels)]
pub(crate) mod fast_decode;
mod hc;
pub(crate) mod reference;
mod scalar;
mod sequence;
mod speed;
mod stream;
#[cfg(simd_kernels)]
mod uninit;
pub(crate) mod xxh32;

pub use compress::{Compressor, ACCELERATION_MAX, HISTORY_STRIDE};
pub use decoder::Decoder;
pub use dict::Dictionary;
#[doc(hidden)]
pub use hc::c_stream as hc_c_stream;
pub use hc::{
    compress_hc, compress_hc_dest_size, compress_hc_into, HcCompressor, HcDictionary,
    HcStreamCompressor, HC_LEVEL_DEFAULT, HC_LEVEL_MAX,
};
pub(crate) use stream::StreamState;
pub use stream::{StreamCompressor, StreamDecoder};
// A speed-first parse (other bytes than liblz4's), a prototype: not public API yet.
#[doc(hidden)]
pub use speed::{compress_speed_into, compress_speed_lean_into};

/// Minimum match length: a match nibble of 0 means 4 bytes (spec: "minmatch").
pub const MINMATCH: usize = 4;
/// The last 5 bytes of a block are always literals (spec: "End of block conditions").
pub const LASTLITERALS: usize = 5;
/// The last match must start at least 12 bytes before the end of the block (spec: "End of
/// block conditions").
pub const MFLIMIT: usize = 12;
/// The most history a block can reference: its largest offset is 65,535, so the last 64 KiB of
/// previous data (or of a dictionary) is all that matters.
pub const MAX_HISTORY: usize = 65536;
/// The largest match offset: offsets are 2-byte little-endian fields (spec: "Offset").
pub(crate) const MAX_DISTANCE: usize = 65535;
/// The largest input a block may hold (liblz4's `LZ4_MAX_INPUT_SIZE`).
pub const MAX_INPUT_SIZE: usize = 0x7E00_0000;
/// A literal-length nibble of 15 is followed by an extension.
pub(crate) const RUN_MASK: usize = 15;
/// A match-length nibble of 15 is followed by an extension.
pub(crate) const ML_MASK: usize = 15;
/// Marks the path that calls it as unlikely, so the compiler lays the common path out straight and
/// gives it the registers. (`core::hint::cold_path` is newer than the crate's minimum Rust
/// version; this form compiles to the same code, checked on the decoders' listings.)
#[cold]
#[inline(always)]
pub(crate) fn cold_path() {}

/// Each compressed byte yields at most this many decompressed bytes (a length-extension byte of
/// 255). Used to refuse size prefixes no block could honour before allocating for them.
pub(crate) const MAX_EXPANSION: usize = 255;

/// The largest compressed size of an input of `len` bytes: `len + len / 255 + 16`, saturating at
/// `usize::MAX`.
///
/// Never 0: above [`MAX_INPUT_SIZE`], where liblz4's `LZ4_compressBound` returns 0, this is still
/// the formula's value, and the compressors refuse such an input with [`Error::InputTooLarge`]
/// whatever the room given to them. A size check written as `compress_bound(len) <= limit` so stays
/// correct for every `len`.
#[inline]
pub const fn compress_bound(len: usize) -> usize {
    len.saturating_add(len / 255).saturating_add(16)
}

/// Compresses `src` at acceleration 1 (liblz4's default). Same bytes as `LZ4_compress_default`.
///
/// Inputs above [`MAX_INPUT_SIZE`] are [`Error::InputTooLarge`] (liblz4 returns 0 for them).
///
/// # Examples
///
/// ```
/// let block = lz4_simd::block::compress(b"abcabcabcabcabcabcabcabc-end!")?;
/// // A literal run "abc", a match of 23 bytes at offset 3, the last 5 bytes as literals.
/// assert_eq!(block, [0x3f, 0x61, 0x62, 0x63, 0x03, 0x00, 0x02, 0x50, 0x2d, 0x65, 0x6e, 0x64, 0x21]);
/// // A block does not record its size: keep it to decompress (see [`decompress`]).
/// assert_eq!(lz4_simd::block::decompress(&block, 29)?, b"abcabcabcabcabcabcabcabc-end!");
/// # Ok::<(), lz4_simd::Error>(())
/// ```
pub fn compress(src: &[u8]) -> Result<Vec<u8>, Error> {
    compress_fast(src, 1)
}

/// Compresses `src` at the given acceleration: larger is faster and compresses less. Values below
/// 1 count as 1 and values above [`ACCELERATION_MAX`] as that. The output is byte-identical to
/// liblz4 1.10's `LZ4_compress_fast(src, dst, len, bound, acceleration)`.
///
/// Inputs above [`MAX_INPUT_SIZE`] are [`Error::InputTooLarge`].
pub fn compress_fast(src: &[u8], acceleration: u32) -> Result<Vec<u8>, Error> {
    // Before the allocation: the bound of an oversized input is gigabytes.
    sequence::check_input_size(src)?;
    let mut out = vec![0u8; compress_bound(src.len())];
    let len = compress::compress_once(src, &mut out, acceleration)?;
    out.truncate(len);
    Ok(out)
}

/// Compresses `src` into `dst`, returning the compressed length.
///
/// With `dst.len() >= compress_bound(src.len())` this always succeeds (for inputs up to
/// [`MAX_INPUT_SIZE`]). With a smaller `dst` it either writes the same bytes as into a large
/// buffer or returns [`Error::OutputTooSmall`]; it never writes past `dst`.
pub fn compress_into(src: &[u8], dst: &mut [u8], acceleration: u32) -> Result<usize, Error> {
    compress::compress_once(src, dst, acceleration)
}

/// Compresses `src` at acceleration 1 behind a 4-byte little-endian prefix holding `src.len()`:
/// the size-prepended convention of python-lz4's `lz4.block.compress` and lz4_flex.
///
/// Inputs above [`MAX_INPUT_SIZE`] are [`Error::InputTooLarge`].
pub fn compress_prepend_size(src: &[u8]) -> Result<Vec<u8>, Error> {
    sequence::check_input_size(src)?;
    let mut out = vec![0u8; 4 + compress_bound(src.len())];
    out[..4].copy_from_slice(&(src.len() as u32).to_le_bytes());
    let len = compress::compress_once(src, &mut out[4..], 1)?;
    out.truncate(4 + len);
    Ok(out)
}

/// Compresses `src` at the given acceleration with `dict` as history: matches may reference the
/// last [`MAX_HISTORY`] bytes of `dict`. The block must be decoded with the same dictionary
/// ([`decompress_with_dictionary`]). With an empty `dict` this is [`compress_fast`].
///
/// Inputs above [`MAX_INPUT_SIZE`] are [`Error::InputTooLarge`].
///
/// ```
/// use lz4_simd::block;
/// let dict = b"GET /index.html HTTP/1.1\r\nHost: example.com\r\n";
/// let request = b"GET /about.html HTTP/1.1\r\nHost: example.com\r\n\r\n";
/// let with_dict = block::compress_with_dictionary(request, dict, 1).unwrap();
/// assert!(with_dict.len() < block::compress(request).unwrap().len());
/// assert_eq!(block::decompress_with_dictionary(&with_dict, dict, 1000).unwrap(), request);
/// ```
pub fn compress_with_dictionary(
    src: &[u8],
    dict: &[u8],
    acceleration: u32,
) -> Result<Vec<u8>, Error> {
    sequence::check_input_size(src)?;
    let history = &dict[dict.len().saturating_sub(MAX_HISTORY)..];
    let mut window = Vec::with_capacity(history.len() + src.len());
    window.extend_from_slice(history);
    window.extend_from_slice(src);
    let mut out = vec![0u8; compress_bound(src.len())];
    let len = Compressor::new().compress_into_with_history(
        &window,
        history.len(),
        &mut out,
        acceleration,
    )?;
    out.truncate(len);
    Ok(out)
}

/// Compresses as much of `src` as fits into `dst` (a fixed-size page) at acceleration 1, and
/// returns `(consumed, written)`: the block in `dst[..written]` decodes to exactly
/// `src[..consumed]`. Byte-identical to liblz4 1.10's `LZ4_compress_destSize` (its `*srcSizePtr`
/// afterwards is `consumed`).
///
/// When `dst` holds [`compress_bound`]`(src.len())` the whole input is compressed as by
/// [`compress`]. An empty `src` gives the block `00` (`(0, 1)`). An input above
/// [`MAX_INPUT_SIZE`] is [`Error::InputTooLarge`]; an empty `dst`, which holds no block, is
/// [`Error::OutputTooSmall`].
///
/// ```
/// use lz4_simd::block;
/// let log = b"GET /a 200\nGET /b 200\nGET /c 404\n".repeat(100);
/// let mut page = [0u8; 64];
/// let (consumed, written) = block::compress_dest_size(&log, &mut page).unwrap();
/// assert!(written <= 64 && consumed > 64);
/// let back = block::decompress(&page[..written], consumed).unwrap();
/// assert_eq!(back, &log[..consumed]);
/// ```
pub fn compress_dest_size(src: &[u8], dst: &mut [u8]) -> Result<(usize, usize), Error> {
    compress::compress_dest_size(src, dst, 1)
}

/// [`compress_dest_size`] at `acceleration` (clamped to `1..=65537`, as in [`compress_fast`]):
/// byte-identical to liblz4 1.10's `LZ4_compress_destSize_extState`.
///
/// ```
/// use lz4_simd::block;
/// let log = b"GET /a 200\nGET /b 200\nGET /c 404\n".repeat(100);
/// let mut page = [0u8; 64];
/// let (consumed, written) = block::compress_fast_dest_size(&log, &mut page, 8).unwrap();
/// assert_eq!(block::decompress(&page[..written], consumed).unwrap(), &log[..consumed]);
/// ```
pub fn compress_fast_dest_size(
    src: &[u8],
    dst: &mut [u8],
    acceleration: u32,
) -> Result<(usize, usize), Error> {
    compress::compress_dest_size(src, dst, acceleration)
}

/// Decompresses the block `src` into `buf[history_len..]`, where `buf[..history_len]` holds the
/// data that preceded the block (the previous blocks of a linked frame, or a dictionary), and
/// returns the number of bytes written after the history. Matches may reach into the history but
/// not before `buf[0]`. The output cap is `buf.len() - history_len`.
///
/// This is the zero-copy form of [`decompress_with_dictionary`] for streaming decoders that keep
/// the history in front of the output. ([`Decoder::decompress_into_with_history`] with the detected
/// kernel.)
pub fn decompress_into_with_history(
    src: &[u8],
    buf: &mut [u8],
    history_len: usize,
) -> Result<usize, Error> {
    Decoder::new().decompress_into_with_history(src, buf, history_len)
}

/// Decodes the block `src` and appends its output (at most `max_out` bytes) to `out`, whose last
/// `history_len` bytes are history the block's matches may reference (the previous blocks of a
/// linked frame, or a dictionary placed in front). Returns the number of bytes appended; after
/// an error `out` is unchanged (its capacity may have grown).
///
/// With the `unsafe` feature the block is decoded straight into `out`'s spare capacity: no
/// zero-fill, no copy. `history_len` above `out.len()` counts as `out.len()`. The `Vec` grows by
/// exact reservations, never past `out.len() + max_out` (no amortised doubling: a caller
/// appending many blocks reserves ahead itself); see [`Decoder`] for how much is reserved.
pub fn decompress_append(
    src: &[u8],
    out: &mut Vec<u8>,
    history_len: usize,
    max_out: usize,
) -> Result<usize, Error> {
    Decoder::new().decompress_append(src, out, history_len, max_out)
}

/// Decompresses a block compressed with `dict` as history ([`compress_with_dictionary`]) into a new
/// `Vec` of at most `max_out` bytes. With an empty `dict` this is [`decompress`]. The dictionary
/// is not copied (see [`decompress_into_with_dictionary`]).
pub fn decompress_with_dictionary(
    src: &[u8],
    dict: &[u8],
    max_out: usize,
) -> Result<Vec<u8>, Error> {
    Decoder::new().decompress_with_dictionary(src, dict, max_out)
}

// Dictionary and partial decoding.

/// Decompresses the block `src` into `dst` with `dict` as the data that preceded it, returning
/// the number of bytes written: matches may read the last 65,535 bytes of `dict`, or start there
/// and continue in `dst`, as liblz4's `LZ4_decompress_safe_usingDict` (with the dictionary in its
/// own buffer). The dictionary is not copied. With an empty `dict` this is [`decompress_into`].
///
/// Verdicts and output are those of [`decompress_into`] with the dictionary's last 64 KiB in
/// front of the output (a match reaching before the dictionary is
/// [`Error::OffsetBeforeStart`]); the rules of the module documentation apply, so blocks that
/// lack the end-of-block margins decode here and fail in liblz4, and offset 0 is rejected. Bytes
/// of `dst` past the returned length may be overwritten.
///
/// Every kernel decodes the sequences that copy only from `dst` with its fast loop; a sequence
/// whose match reaches into the dictionary is decoded by the careful loop, after which the fast
/// loop resumes.
///
/// ```
/// use lz4_simd::block;
/// let dict = b"GET /index.html HTTP/1.1\r\nHost: example.com\r\n";
/// let request = b"GET /about.html HTTP/1.1\r\nHost: example.com\r\n\r\n";
/// let compressed = block::compress_with_dictionary(request, dict, 1).unwrap();
/// let mut out = [0u8; 64];
/// let n = block::decompress_into_with_dictionary(&compressed, &mut out, dict).unwrap();
/// assert_eq!(&out[..n], request);
/// ```
pub fn decompress_into_with_dictionary(
    src: &[u8],
    dst: &mut [u8],
    dict: &[u8],
) -> Result<usize, Error> {
    Decoder::new().decompress_into_with_dictionary(src, dst, dict)
}

/// Decodes only the first `dst.len()` bytes of the block `src` (all of it if it decodes to
/// less) and stops, returning the number of bytes written: `min(dst.len(), decoded size)` for a
/// valid block. The work is proportional to the prefix: nothing after the sequence that fills
/// `dst` is read. Nothing outside `dst` is written; bytes of `dst` past the returned length may
/// be overwritten (only when the block is shorter than `dst`).
///
/// Output and verdict are those of liblz4 1.10's `LZ4_decompress_safe_partial(src, dst,
/// src.len(), dst.len(), dst.len())`, which is more lenient than the full decode: a block whose
/// input ends inside a literal run (or within 2 bytes after one) succeeds with what it decoded,
/// the end-of-block rules are not checked, and anything after the prefix may be corrupt. It
/// does check what the prefix needs: the offsets of the matches it copies (even one cut at the
/// end of `dst`), length extensions (a literal-length extension must leave 15 input bytes, a
/// match-length one 4, as liblz4's read limits) and an empty input (unless `dst` is empty: then
/// the result is 0 without reading anything). One deviation: offset 0, which liblz4 accepts
/// (copying stale bytes of `dst`), is [`Error::OffsetZero`] here.
///
/// ```
/// use lz4_simd::block;
/// let page = b"key=0001;value=alpha;".repeat(100);
/// let compressed = block::compress(&page).unwrap();
/// let mut head = [0u8; 30];
/// assert_eq!(block::decompress_partial(&compressed, &mut head).unwrap(), 30);
/// assert_eq!(&head, &page[..30]);
/// // A `dst` longer than the block decodes all of it.
/// let mut all = vec![0u8; page.len() + 10];
/// assert_eq!(block::decompress_partial(&compressed, &mut all).unwrap(), page.len());
/// ```
pub fn decompress_partial(src: &[u8], dst: &mut [u8]) -> Result<usize, Error> {
    Decoder::new().decompress_partial(src, dst)
}

/// [`decompress_partial`] of a block compressed with `dict` as history (liblz4's
/// `LZ4_decompress_safe_partial_usingDict`): matches may reach into the dictionary's last 64 KiB.
///
/// ```
/// use lz4_simd::block;
/// let dict = b"key=0001;value=alpha;";
/// let compressed = block::compress_with_dictionary(&dict.repeat(4), dict, 1).unwrap();
/// let mut head = [0u8; 10];
/// assert_eq!(block::decompress_partial_with_dictionary(&compressed, &mut head, dict).unwrap(), 10);
/// assert_eq!(&head, &dict[..10]);
/// ```
pub fn decompress_partial_with_dictionary(
    src: &[u8],
    dst: &mut [u8],
    dict: &[u8],
) -> Result<usize, Error> {
    Decoder::new().decompress_partial_with_dictionary(src, dst, dict)
}

/// Decompresses the block `src` into `dst`, returning the number of bytes written.
///
/// `dst.len()` is the output cap: a block that would decode to more is an error. Nothing outside
/// `dst` is ever read or written; bytes of `dst` past the returned length may be overwritten (the
/// fast loop copies in fixed-size chunks), and after an error the contents of `dst` are
/// unspecified. See the module documentation for the rules.
pub fn decompress_into(src: &[u8], dst: &mut [u8]) -> Result<usize, Error> {
    Decoder::new().decompress_into(src, dst)
}

/// Decompresses the block `src` into `dst`, which may be uninitialised memory (a reused buffer,
/// a `Vec`'s spare capacity), returning the number of bytes written.
///
/// On success `dst[..n]` (`n` the returned length) is initialised and holds the decoded block, so
/// the caller may `assume_init` it (or `Vec::set_len(n)` after decoding into spare capacity).
/// Nothing outside `dst` is written; bytes of `dst` past `n` may have been written with
/// unspecified (initialised) values; after an error the contents of `dst` are unspecified.
/// Verdicts are exactly those of [`decompress_into`].
///
/// The SIMD kernels decode without initialising `dst` first and never read a byte they have not
/// written. Without the `unsafe` feature (or with the scalar kernel) the block is decoded by the
/// safe scalar decoder into initialised memory first: a temporary buffer of at most `dst.len()`
/// bytes in the safe build, a zero-fill of `dst` with the scalar kernel.
pub fn decompress_into_uninit(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> Result<usize, Error> {
    Decoder::new().decompress_into_uninit(src, dst)
}

/// Decompresses the block `src` into a new `Vec` of at most `max_out` bytes.
///
/// The allocation is bounded by `max_out` and by what `src` can possibly decode to (255 bytes per
/// input byte), never by anything the block claims; a size the allocator refuses (or this target
/// cannot address) is [`Error::AllocationFailed`], never a panic. With a `max_out` above what the
/// block can produce (`usize::MAX`), a smaller first reservation is grown as needed (see
/// [`Decoder`]). With the `unsafe` feature the block is decoded straight into the allocation's
/// uninitialised memory (no zero-fill first).
///
/// # Examples
///
/// ```
/// use lz4_simd::block;
/// let data = b"block block block block ".repeat(100);
/// let compressed = block::compress(&data)?;
/// // The caller keeps the decompressed size (a raw block does not record it) and caps with it.
/// assert_eq!(block::decompress(&compressed, data.len())?, data);
/// // A cap below the content is an error, never a truncated result.
/// assert!(block::decompress(&compressed, data.len() - 1).is_err());
/// # Ok::<(), lz4_simd::Error>(())
/// ```
pub fn decompress(src: &[u8], max_out: usize) -> Result<Vec<u8>, Error> {
    Decoder::new().decompress(src, max_out)
}

/// Decompresses a block behind a 4-byte little-endian size prefix (see
/// [`compress_prepend_size`]).
///
/// The prefix is checked against `max_out` and against what the block could possibly decode to
/// *before* anything is allocated, and the block must decode to exactly the declared size. As
/// [`decompress`], it decodes into uninitialised memory with the `unsafe` feature.
pub fn decompress_size_prepended(src: &[u8], max_out: usize) -> Result<Vec<u8>, Error> {
    Decoder::new().decompress_size_prepended(src, max_out)
}
