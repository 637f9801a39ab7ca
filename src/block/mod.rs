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
//! least 12 bytes before the end) against the size of the output *buffer*, so a block lacking them
//! decodes into a large buffer and fails into an exact-size one. We decode such blocks whatever the
//! buffer size. Every block that liblz4's `LZ4_decompress_safe` accepts and that has no offset 0,
//! we accept with identical output; a block we accept that liblz4 rejects lacks those margins
//! (or is decoded into a zero-capacity buffer, where liblz4 rejects every block but `00`, even
//! a lone token such as `0F` that decodes to nothing).
//!
//! Errors name what was wrong and the input offset (and output position) where it was found; see
//! [`Error`].
//!
//! # Compression
//!
//! [`compress_fast`] produces the bytes of liblz4 1.10's `LZ4_compress_fast` exactly; see the
//! `compress` module's documentation for the decisions that make that so. [`Compressor`] keeps the
//! hash tables between calls so hot paths allocate nothing.
//!
//! [`compress_hc`] and [`compress_hc_into`] compress with LZ4 HC (levels 2 to 12, liblz4 1.10's
//! level semantics: slower, smaller output, same block format); [`HcCompressor`] is their
//! reusable state. See the `hc` module's documentation for the strategies.

use alloc::vec;
use alloc::vec::Vec;
use core::mem::MaybeUninit;

use crate::kernel::KernelToken;
use crate::{Error, Kernel};

mod compress;
#[cfg(feature = "unsafe")]
pub(crate) mod fast_decode;
mod hc;
pub(crate) mod reference;
mod sequence;
#[cfg(feature = "unsafe")]
mod uninit;

pub use compress::{Compressor, ACCELERATION_MAX, HISTORY_STRIDE};
pub use hc::{compress_hc, compress_hc_into, HcCompressor, HC_LEVEL_DEFAULT, HC_LEVEL_MAX};

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

/// The largest compressed size of an input of `len` bytes: `len + len / 255 + 16`.
///
/// Returns 0 for inputs above [`MAX_INPUT_SIZE`], as liblz4 does.
#[inline]
pub const fn compress_bound(len: usize) -> usize {
    if len > MAX_INPUT_SIZE {
        0
    } else {
        len + len / 255 + 16
    }
}

/// Compresses `src` at acceleration 1 (liblz4's default). Same bytes as `LZ4_compress_default`.
///
/// Inputs above [`MAX_INPUT_SIZE`] give an empty `Vec` (liblz4 returns 0 for them); use
/// [`compress_into`] to get an [`Error`] instead.
///
/// ```
/// let block = lz4_simd::block::compress(b"abcabcabcabcabcabcabcabc-end!");
/// assert_eq!(block, [0x3f, 0x61, 0x62, 0x63, 0x03, 0x00, 0x02, 0x50, 0x2d, 0x65, 0x6e, 0x64, 0x21]);
/// ```
pub fn compress(src: &[u8]) -> Vec<u8> {
    compress_fast(src, 1)
}

/// Compresses `src` at the given acceleration: larger is faster and compresses less. Values below
/// 1 count as 1 and values above [`ACCELERATION_MAX`] as that. The output is byte-identical to
/// liblz4 1.10's `LZ4_compress_fast(src, dst, len, bound, acceleration)`.
///
/// Inputs above [`MAX_INPUT_SIZE`] give an empty `Vec`; use [`compress_into`] to get an error.
pub fn compress_fast(src: &[u8], acceleration: u32) -> Vec<u8> {
    let mut out = vec![0u8; compress_bound(src.len())];
    match compress::compress_once(src, &mut out, acceleration) {
        Ok(len) => {
            out.truncate(len);
            out
        }
        Err(_) => Vec::new(),
    }
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
/// Inputs above [`MAX_INPUT_SIZE`] give an empty `Vec`.
pub fn compress_prepend_size(src: &[u8]) -> Vec<u8> {
    if src.len() > MAX_INPUT_SIZE {
        return Vec::new();
    }
    let mut out = vec![0u8; 4 + compress_bound(src.len())];
    out[..4].copy_from_slice(&(src.len() as u32).to_le_bytes());
    match compress::compress_once(src, &mut out[4..], 1) {
        Ok(len) => {
            out.truncate(4 + len);
            out
        }
        Err(_) => Vec::new(),
    }
}

/// Compresses `src` at the given acceleration with `dict` as history: matches may reference the
/// last [`MAX_HISTORY`] bytes of `dict`. The block must be decoded with the same dictionary
/// ([`decompress_with_dict`]). With an empty `dict` this is [`compress_fast`].
///
/// Inputs above [`MAX_INPUT_SIZE`] give an empty `Vec`.
///
/// ```
/// use lz4_simd::block;
/// let dict = b"GET /index.html HTTP/1.1\r\nHost: example.com\r\n";
/// let request = b"GET /about.html HTTP/1.1\r\nHost: example.com\r\n\r\n";
/// let with_dict = block::compress_with_dict(request, dict, 1);
/// assert!(with_dict.len() < block::compress(request).len());
/// assert_eq!(block::decompress_with_dict(&with_dict, dict, 1000).unwrap(), request);
/// ```
pub fn compress_with_dict(src: &[u8], dict: &[u8], acceleration: u32) -> Vec<u8> {
    if src.len() > MAX_INPUT_SIZE {
        return Vec::new();
    }
    let history = &dict[dict.len().saturating_sub(MAX_HISTORY)..];
    let mut window = Vec::with_capacity(history.len() + src.len());
    window.extend_from_slice(history);
    window.extend_from_slice(src);
    let mut out = vec![0u8; compress_bound(src.len())];
    match Compressor::new().compress_with_history_into(
        &window,
        history.len(),
        &mut out,
        acceleration,
    ) {
        Ok(len) => {
            out.truncate(len);
            out
        }
        Err(_) => Vec::new(),
    }
}

/// Decompresses the block `src` into `buf[history_len..]`, where `buf[..history_len]` holds the
/// data that preceded the block (the previous blocks of a linked frame, or a dictionary), and
/// returns the number of bytes written after the history. Matches may reach into the history but
/// not before `buf[0]`. The output cap is `buf.len() - history_len`.
///
/// This is the zero-copy form of [`decompress_with_dict`] for streaming decoders that keep the
/// history in front of the output.
pub fn decompress_into_with_history(
    src: &[u8],
    buf: &mut [u8],
    history_len: usize,
) -> Result<usize, Error> {
    let history_len = history_len.min(buf.len());
    let end = KernelToken::detected().decode(src, buf, history_len)?;
    Ok(end - history_len)
}

/// [`decompress_into_with_history`] with a chosen decode kernel, for tests, benchmarks and
/// debugging. Returns [`Error::KernelUnavailable`] for a kernel this CPU or build cannot run.
pub fn decompress_into_with_history_kernel(
    kernel: Kernel,
    src: &[u8],
    buf: &mut [u8],
    history_len: usize,
) -> Result<usize, Error> {
    let history_len = history_len.min(buf.len());
    let end = kernel.require()?.decode(src, buf, history_len)?;
    Ok(end - history_len)
}

/// Decodes the block `src` and appends its output (at most `max_out` bytes) to `out`, whose last
/// `history_len` bytes are history the block's matches may reference (the previous blocks of a
/// linked frame, or a dictionary placed in front). Returns the number of bytes appended; after
/// an error `out` is unchanged.
///
/// With the `unsafe` feature the block is decoded straight into `out`'s spare capacity: no
/// zero-fill, no copy. `history_len` above `out.len()` counts as `out.len()`.
pub fn decompress_append(
    src: &[u8],
    out: &mut Vec<u8>,
    history_len: usize,
    max_out: usize,
) -> Result<usize, Error> {
    let start = out.len();
    let history_len = history_len.min(start);
    let history_from = start - history_len;
    let room = max_out.min(src.len().saturating_mul(MAX_EXPANSION));
    #[cfg(feature = "unsafe")]
    {
        out.reserve(room);
        let window_len = history_len + room;
        // SAFETY: `reserve` made the capacity at least `start + room = history_from +
        // window_len`, so the window lies inside the allocation; viewing initialised or
        // uninitialised `u8`s as `MaybeUninit<u8>` is always valid, and nothing else borrows
        // `out` while the window lives.
        let window = unsafe {
            core::slice::from_raw_parts_mut(
                out.as_mut_ptr().add(history_from).cast::<MaybeUninit<u8>>(),
                window_len,
            )
        };
        // SAFETY: window[..history_len] is out[history_from..start], initialised bytes of `out`.
        let end = unsafe { KernelToken::detected().decode_uninit(src, window, history_len)? };
        // SAFETY: decode_uninit returned Ok(end): window[..end] is initialised, so `out` is
        // initialised up to history_from + end <= start + room <= capacity.
        unsafe { out.set_len(history_from + end) };
        Ok(end - history_len)
    }
    #[cfg(not(feature = "unsafe"))]
    {
        out.resize(start + room, 0);
        let result = KernelToken::detected().decode(src, &mut out[history_from..], history_len);
        match result {
            Ok(end) => {
                out.truncate(history_from + end);
                Ok(end - history_len)
            }
            Err(error) => {
                out.truncate(start);
                Err(error)
            }
        }
    }
}

/// Decompresses a block compressed with `dict` as history ([`compress_with_dict`]) into a new
/// `Vec` of at most `max_out` bytes. With an empty `dict` this is [`decompress`].
pub fn decompress_with_dict(src: &[u8], dict: &[u8], max_out: usize) -> Result<Vec<u8>, Error> {
    let history = &dict[dict.len().saturating_sub(MAX_HISTORY)..];
    let cap = max_out.min(src.len().saturating_mul(MAX_EXPANSION));
    let mut buf = Vec::with_capacity(history.len() + cap);
    buf.extend_from_slice(history);
    decompress_append(src, &mut buf, history.len(), cap)?;
    buf.drain(..history.len());
    if buf.capacity() - buf.len() > buf.len() / 4 + 4096 {
        buf.shrink_to_fit();
    }
    Ok(buf)
}

/// Decompresses the block `src` into `dst`, returning the number of bytes written.
///
/// `dst.len()` is the output cap: a block that would decode to more is an error. Nothing outside
/// `dst` is ever read or written; bytes of `dst` past the returned length may be overwritten (the
/// fast loop copies in fixed-size chunks), and after an error the contents of `dst` are
/// unspecified. See the module documentation for the rules.
pub fn decompress_into(src: &[u8], dst: &mut [u8]) -> Result<usize, Error> {
    KernelToken::detected().decode(src, dst, 0)
}

/// [`decompress_into`] with a chosen decode kernel, for tests, benchmarks and debugging.
///
/// Returns [`Error::KernelUnavailable`] for a kernel this CPU or build cannot run. Every kernel
/// gives the same verdict and output as [`Kernel::Scalar`].
pub fn decompress_into_with(kernel: Kernel, src: &[u8], dst: &mut [u8]) -> Result<usize, Error> {
    kernel.require()?.decode(src, dst, 0)
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
/// safe reference decoder into initialised memory first: a temporary buffer of at most
/// `dst.len()` bytes in the safe build, a zero-fill of `dst` with the scalar kernel.
pub fn decompress_into_uninit(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> Result<usize, Error> {
    decode_into_uninit(KernelToken::detected(), src, dst)
}

/// [`decompress_into_uninit`] with a chosen decode kernel (see [`decompress_into_with`]).
pub fn decompress_into_uninit_with(
    kernel: Kernel,
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
) -> Result<usize, Error> {
    decode_into_uninit(kernel.require()?, src, dst)
}

/// Decodes `src` into uninitialised `dst` (no history) with `kernel`; `dst[..n]` is initialised
/// on `Ok(n)`.
#[cfg(feature = "unsafe")]
fn decode_into_uninit(
    kernel: KernelToken,
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
) -> Result<usize, Error> {
    // SAFETY: out_start = 0: there is no history to be initialised.
    unsafe { kernel.decode_uninit(src, dst, 0) }
}

/// Safe build: decode into an initialised temporary, then copy the result out. The temporary
/// holds what `src` can possibly decode to (255 bytes per input byte) when that is less than
/// `dst.len()`; only when the block overflows it (so the error must name the real capacity) is the
/// decode repeated into `dst.len()` bytes.
#[cfg(not(feature = "unsafe"))]
fn decode_into_uninit(
    kernel: KernelToken,
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
) -> Result<usize, Error> {
    let cap = dst.len();
    let mut scratch = vec![0u8; cap.min(src.len().saturating_mul(MAX_EXPANSION))];
    let result = match kernel.decode(src, &mut scratch, 0) {
        Err(Error::LiteralsOverflowOutput { .. } | Error::MatchOverflowsOutput { .. })
            if scratch.len() < cap =>
        {
            scratch = vec![0u8; cap];
            kernel.decode(src, &mut scratch, 0)
        }
        result => result,
    };
    let len = result?;
    for (to, &byte) in dst.iter_mut().zip(&scratch[..len]) {
        to.write(byte);
    }
    Ok(len)
}

/// Decodes `src` into a new `Vec` of capacity `cap` with the detected kernel: into the spare
/// capacity (no zero-fill) with the `unsafe` feature, into a zeroed `Vec` without it.
fn decode_to_vec(src: &[u8], cap: usize) -> Result<Vec<u8>, Error> {
    #[cfg(feature = "unsafe")]
    {
        let mut out = Vec::with_capacity(cap);
        let len = decompress_into_uninit(src, &mut out.spare_capacity_mut()[..cap])?;
        // SAFETY: decompress_into_uninit returned Ok(len): the first `len` bytes of the spare
        // capacity (the whole allocation: `out` was empty) are initialised, and len <= cap <=
        // capacity.
        unsafe { out.set_len(len) };
        Ok(out)
    }
    #[cfg(not(feature = "unsafe"))]
    {
        let mut out = vec![0u8; cap];
        let len = KernelToken::detected().decode(src, &mut out, 0)?;
        out.truncate(len);
        Ok(out)
    }
}

/// Decompresses the block `src` into a new `Vec` of at most `max_out` bytes.
///
/// The allocation is bounded by `max_out` and by what `src` can possibly decode to (255 bytes per
/// input byte), never by anything the block claims. With the `unsafe` feature the block is
/// decoded straight into the allocation's uninitialised memory (no zero-fill first).
pub fn decompress(src: &[u8], max_out: usize) -> Result<Vec<u8>, Error> {
    let cap = max_out.min(src.len().saturating_mul(MAX_EXPANSION));
    let mut out = decode_to_vec(src, cap)?;
    let len = out.len();
    // Do not hand back a large reservation the block did not need.
    if out.capacity() - len > len / 4 + 4096 {
        out.shrink_to_fit();
    }
    Ok(out)
}

/// Decompresses a block behind a 4-byte little-endian size prefix (see
/// [`compress_prepend_size`]).
///
/// The prefix is checked against `max_out` and against what the block could possibly decode to
/// *before* anything is allocated, and the block must decode to exactly the declared size. As
/// [`decompress`], it decodes into uninitialised memory with the `unsafe` feature.
pub fn decompress_size_prepended(src: &[u8], max_out: usize) -> Result<Vec<u8>, Error> {
    let (declared, block) = read_size_prefix(src, max_out)?;
    let out = decode_to_vec(block, declared)?;
    if out.len() != declared {
        return Err(Error::SizeMismatch {
            declared,
            actual: out.len(),
        });
    }
    Ok(out)
}

/// Splits a size-prepended block into its declared size and the block, validating the size
/// before anything is allocated for it.
fn read_size_prefix(src: &[u8], max_out: usize) -> Result<(usize, &[u8]), Error> {
    let Some((prefix, block)) = src.split_first_chunk::<4>() else {
        return Err(Error::TruncatedSizePrefix { len: src.len() });
    };
    let declared64 = u64::from(u32::from_le_bytes(*prefix));
    let declared = usize::try_from(declared64).unwrap_or(usize::MAX);
    if declared > max_out {
        return Err(Error::SizePrefixTooLarge {
            declared: declared64,
            max_out,
        });
    }
    if declared > block.len().saturating_mul(MAX_EXPANSION) {
        return Err(Error::SizePrefixImpossible {
            declared: declared64,
            compressed_len: block.len(),
        });
    }
    Ok((declared, block))
}
