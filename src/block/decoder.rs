//! [`Decoder`]: the block decoder's operations for one kernel, and the one implementation behind
//! the block module's free `decompress*` functions.
//!
//! A `Decoder` holds a kernel token (see `kernel`), so every operation dispatches to a kernel
//! this CPU can run. The operations differ only in where the output goes: a new `Vec`, a slice,
//! uninitialised memory, a slice behind history, the end of a `Vec` whose tail is history; and in
//! two variants: with an external dictionary (read in place, never copied), and the partial
//! decode of a block's first bytes.
//!
//! # Allocation
//!
//! The `Vec` operations never allocate more than the caller's cap (`max_out`), never trust a
//! length in the data, and never panic on a size the target cannot address: a reservation the
//! allocator refuses (or that exceeds `isize::MAX` bytes, as `max_out = usize::MAX` can on 32-bit
//! targets) is [`Error::AllocationFailed`]. A block of `n` bytes decodes to at most `255 × n`
//! bytes, so the output cap is `min(max_out, 255 × n)`. When `max_out` is below `255 × n` (the
//! common case: the caller knows the size, or a bound of it) the cap `max_out` is reserved at
//! once and the block is decoded once. Otherwise (`usize::MAX`: "no limit") `255 × n` is a poor
//! guess, so the first reservation is `4 × n` (at least 64 KiB, at most the cap), and a block
//! that overflows it is decoded again into four times the room, up to the cap. Verdicts do not
//! depend on the room (only the overflow error does, and it is only returned at the full cap), so
//! the result is that of one decode into the full cap.

use alloc::vec::Vec;
use core::mem::MaybeUninit;

use super::MAX_EXPANSION;
use super::{dispatch, reference};
use crate::kernel::KernelToken;
use crate::{Error, Kernel};

/// A block decoder bound to one decode kernel: the detected one ([`Decoder::new`]) or a chosen
/// one ([`Decoder::with_kernel`]). Every kernel gives the verdicts and output of the reference
/// decoder; the kernel only decides the speed.
///
/// The free functions [`block::decompress`](super::decompress) and friends are
/// `Decoder::new()`'s operations. A `Decoder` is a small `Copy` value; building one costs an
/// atomic load (detection runs once per process).
///
/// ```
/// use lz4_simd::block::{self, Decoder};
/// use lz4_simd::Kernel;
///
/// let data = b"sensor 7: 21.5C, sensor 8: 21.6C, sensor 9: 21.5C; ".repeat(40);
/// let compressed = block::compress(&data).unwrap();
///
/// // The detected kernel, into a new Vec of at most `max_out` bytes.
/// let decoder = Decoder::new();
/// assert_eq!(decoder.decompress(&compressed, data.len()).unwrap(), data);
///
/// // Every kernel this CPU can run gives the same output; forcing one it cannot run is an
/// // error, never undefined behaviour.
/// for kernel in Kernel::ALL {
///     match Decoder::with_kernel(kernel) {
///         Ok(decoder) => {
///             let mut out = vec![0u8; data.len()];
///             assert_eq!(decoder.decompress_into(&compressed, &mut out).unwrap(), data.len());
///             assert_eq!(out, data);
///         }
///         Err(err) => assert!(matches!(err, lz4_simd::Error::KernelUnavailable { .. })),
///     }
/// }
///
/// // Appending to a Vec whose tail is the history the block may reference (here: none).
/// let mut log = b"header\n".to_vec();
/// let n = decoder.decompress_append(&compressed, &mut log, 0, data.len()).unwrap();
/// assert_eq!(n, data.len());
/// assert_eq!(&log[7..], &data[..]);
/// ```
#[derive(Clone, Copy)]
pub struct Decoder {
    kernel: KernelToken,
}

impl Default for Decoder {
    fn default() -> Self {
        Self::new()
    }
}

impl core::fmt::Debug for Decoder {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Decoder")
            .field("kernel", &self.kernel())
            .finish()
    }
}

impl Decoder {
    /// A decoder with the detected kernel ([`Kernel::detect`]: the best this CPU can run, or
    /// the one `LZ4_SIMD_KERNEL` names).
    #[inline]
    pub fn new() -> Decoder {
        Decoder {
            kernel: KernelToken::detected(),
        }
    }

    /// A decoder with the chosen kernel, for tests, benchmarks and debugging. A kernel this CPU
    /// or build cannot run is [`Error::KernelUnavailable`]. Without the `unsafe` feature every
    /// kernel is the scalar decoder (the only one compiled in), so this never fails.
    ///
    /// ```
    /// use lz4_simd::{block::Decoder, Kernel};
    /// let decoder = Decoder::with_kernel(Kernel::Scalar).unwrap();
    /// assert_eq!(decoder.kernel(), Kernel::Scalar);
    /// ```
    pub fn with_kernel(kernel: Kernel) -> Result<Decoder, Error> {
        Ok(Decoder {
            kernel: kernel.require()?,
        })
    }

    /// The kernel this decoder runs.
    pub fn kernel(&self) -> Kernel {
        self.kernel.kernel()
    }

    /// Decompresses the block `src` into `dst`, returning the number of bytes written. See
    /// [`block::decompress_into`](super::decompress_into).
    pub fn decompress_into(&self, src: &[u8], dst: &mut [u8]) -> Result<usize, Error> {
        dispatch::decode(self.kernel, src, dst, 0)
    }

    /// Decompresses the block `src` into `dst`, which may be uninitialised memory; on `Ok(n)`,
    /// `dst[..n]` is initialised. See
    /// [`block::decompress_into_uninit`](super::decompress_into_uninit).
    pub fn decompress_into_uninit(
        &self,
        src: &[u8],
        dst: &mut [MaybeUninit<u8>],
    ) -> Result<usize, Error> {
        decode_into_uninit(self.kernel, src, dst)
    }

    /// Decompresses the block `src` into `buf[history_len..]`, with `buf[..history_len]` as the
    /// history its matches may reference, returning the number of bytes written after the
    /// history. See
    /// [`block::decompress_into_with_history`](super::decompress_into_with_history).
    pub fn decompress_into_with_history(
        &self,
        src: &[u8],
        buf: &mut [u8],
        history_len: usize,
    ) -> Result<usize, Error> {
        let history_len = history_len.min(buf.len());
        let end = dispatch::decode(self.kernel, src, buf, history_len)?;
        Ok(end - history_len)
    }

    /// Decompresses the block `src` into a new `Vec` of at most `max_out` bytes. See
    /// [`block::decompress`](super::decompress) and the allocation rules in the type's module.
    pub fn decompress(&self, src: &[u8], max_out: usize) -> Result<Vec<u8>, Error> {
        let mut out = Vec::new();
        self.decompress_append(src, &mut out, 0, max_out)?;
        shrink_if_oversized(&mut out);
        Ok(out)
    }

    /// Decompresses a block behind a 4-byte little-endian size prefix; the block must decode to
    /// exactly the declared size. See
    /// [`block::decompress_size_prepended`](super::decompress_size_prepended).
    pub fn decompress_size_prepended(&self, src: &[u8], max_out: usize) -> Result<Vec<u8>, Error> {
        let (declared, block) = read_size_prefix(src, max_out)?;
        let mut out = Vec::new();
        let len = self.decompress_append(block, &mut out, 0, declared)?;
        if len != declared {
            return Err(Error::SizeMismatch {
                declared,
                actual: len,
            });
        }
        Ok(out)
    }

    /// Decompresses a block compressed with `dict` as history into a new `Vec` of at most
    /// `max_out` bytes. See
    /// [`block::decompress_with_dictionary`](super::decompress_with_dictionary).
    pub fn decompress_with_dictionary(
        &self,
        src: &[u8],
        dict: &[u8],
        max_out: usize,
    ) -> Result<Vec<u8>, Error> {
        let mut out = Vec::new();
        self.append(src, &mut out, 0, max_out, dict)?;
        shrink_if_oversized(&mut out);
        Ok(out)
    }

    /// Decompresses the block `src` into `dst` with `dict` as the data before `dst[0]`: matches
    /// may read the dictionary's last bytes (up to 64 KiB back), or start there and continue in
    /// `dst`. The dictionary is not copied. Returns the number of bytes written. See
    /// [`block::decompress_into_with_dictionary`](super::decompress_into_with_dictionary).
    pub fn decompress_into_with_dictionary(
        &self,
        src: &[u8],
        dst: &mut [u8],
        dict: &[u8],
    ) -> Result<usize, Error> {
        dispatch::decode_special(self.kernel, src, dst, dict, false)
    }

    /// Decodes the first `dst.len()` bytes of the block `src` (all of it if it is shorter) into
    /// `dst` and stops; returns the number of bytes written. See
    /// [`block::decompress_partial`](super::decompress_partial).
    pub fn decompress_partial(&self, src: &[u8], dst: &mut [u8]) -> Result<usize, Error> {
        dispatch::decode_special(self.kernel, src, dst, &[], true)
    }

    /// [`Decoder::decompress_partial`] of a block compressed with `dict` as history. See
    /// [`block::decompress_partial_with_dictionary`](super::decompress_partial_with_dictionary).
    pub fn decompress_partial_with_dictionary(
        &self,
        src: &[u8],
        dst: &mut [u8],
        dict: &[u8],
    ) -> Result<usize, Error> {
        if dict.is_empty() {
            return self.decompress_partial(src, dst);
        }
        // The careful loop alone: the fast loops take a dictionary or the partial mode, not both.
        reference::decode_careful::<[u8], { reference::PARTIAL }>(src, dst, dict, 0, 0, 0)
    }

    /// Decodes the block `src` and appends its output (at most `max_out` bytes) to `out`, whose
    /// last `history_len` bytes are history the block's matches may reference. Returns the number
    /// of bytes appended; after an error `out` is unchanged (its capacity may have grown). See
    /// [`block::decompress_append`](super::decompress_append).
    pub fn decompress_append(
        &self,
        src: &[u8],
        out: &mut Vec<u8>,
        history_len: usize,
        max_out: usize,
    ) -> Result<usize, Error> {
        self.append(src, out, history_len, max_out, &[])
    }

    /// [`decompress_append`](Self::decompress_append), with `dict` (if not empty) as the history
    /// before the output instead of `out`'s tail (`history_len` is then 0).
    fn append(
        &self,
        src: &[u8],
        out: &mut Vec<u8>,
        history_len: usize,
        max_out: usize,
        dict: &[u8],
    ) -> Result<usize, Error> {
        debug_assert!(dict.is_empty() || history_len == 0);
        let cap = output_cap(src.len(), max_out);
        let mut room = first_room(src.len(), max_out);
        loop {
            match self.append_within(src, out, history_len, room, dict) {
                Err(error) if error.is_output_overflow() && room < cap => {
                    room = cap.min(room.saturating_mul(ROOM_GROWTH));
                }
                result => return result,
            }
        }
    }

    /// [`append`](Self::append) with exactly `room` bytes of output room (reserved exactly,
    /// fallibly).
    fn append_within(
        &self,
        src: &[u8],
        out: &mut Vec<u8>,
        history_len: usize,
        room: usize,
        dict: &[u8],
    ) -> Result<usize, Error> {
        let start = out.len();
        let history_len = history_len.min(start);
        let history_from = start - history_len;
        #[cfg(feature = "unsafe")]
        {
            reserve(out, 0, room)?;
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
            let end = if dict.is_empty() {
                // SAFETY: window[..history_len] is out[history_from..start], initialised bytes of
                // `out`.
                unsafe { dispatch::decode_uninit(self.kernel, src, window, history_len)? }
            } else {
                dispatch::decode_special_uninit(self.kernel, src, window, dict, false)?
            };
            // SAFETY: decode_uninit returned Ok(end): window[..end] is initialised, so `out` is
            // initialised up to history_from + end <= start + room <= capacity.
            unsafe { out.set_len(history_from + end) };
            Ok(end - history_len)
        }
        #[cfg(not(feature = "unsafe"))]
        {
            if out.capacity() == 0 {
                // A fresh Vec: zeroed memory from the allocator (fresh pages need no fill).
                *out = zeroed(room)?;
            } else {
                reserve(out, 0, room)?;
                out.resize(start + room, 0);
            }
            let window = &mut out[history_from..];
            let result = if dict.is_empty() {
                dispatch::decode(self.kernel, src, window, history_len)
            } else {
                dispatch::decode_special(self.kernel, src, window, dict, false)
            };
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
}

/// The factor by which the room grows after a decode overflowed it (see the module
/// documentation).
const ROOM_GROWTH: usize = 4;
/// When `max_out` is larger than what the block can produce, the first room is this many bytes
/// per input byte ...
const FIRST_ROOM_EXPANSION: usize = 4;
/// ... but at least this many (small blocks are decoded once).
const FIRST_ROOM_MIN: usize = 64 << 10;

/// The most a block of `src_len` bytes may decode to under the cap `max_out`.
#[inline]
fn output_cap(src_len: usize, max_out: usize) -> usize {
    max_out.min(src_len.saturating_mul(MAX_EXPANSION))
}

/// The room of the first decode attempt: the whole cap when the caller's `max_out` is what
/// limits it, otherwise a guess (see the module documentation). (Strictly below: when `255 × n`
/// saturates, `max_out = usize::MAX` is no limit.)
#[inline]
fn first_room(src_len: usize, max_out: usize) -> usize {
    if max_out < src_len.saturating_mul(MAX_EXPANSION) {
        return max_out;
    }
    output_cap(src_len, max_out).min(
        src_len
            .saturating_mul(FIRST_ROOM_EXPANSION)
            .max(FIRST_ROOM_MIN),
    )
}

/// Makes room for `more + room` bytes after `out`'s length, exactly (no amortised doubling: the
/// `Vec` never grows past what the caller's cap allows), or the error naming the size.
#[inline]
fn reserve(out: &mut Vec<u8>, more: usize, room: usize) -> Result<(), Error> {
    let additional = more.saturating_add(room);
    out.try_reserve_exact(additional)
        .map_err(|_| Error::AllocationFailed { bytes: additional })
}

/// `len` zero bytes, allocated zeroed (`vec!` asks the allocator for zeroed memory, which for
/// large sizes needs no fill), or the error naming the size. (`vec!` panics only when the size
/// exceeds `isize::MAX`, which is checked first.)
#[cfg(not(feature = "unsafe"))]
fn zeroed(len: usize) -> Result<Vec<u8>, Error> {
    if isize::try_from(len).is_err() {
        return Err(Error::AllocationFailed { bytes: len });
    }
    Ok(alloc::vec![0u8; len])
}

/// Gives back a large reservation the block did not need.
#[inline]
fn shrink_if_oversized(out: &mut Vec<u8>) {
    let len = out.len();
    if out.capacity() - len > len / 4 + 4096 {
        out.shrink_to_fit();
    }
}

/// Decodes `src` into uninitialised `dst` (no history) with `kernel`; `dst[..n]` is initialised
/// on `Ok(n)`.
#[cfg(feature = "unsafe")]
#[inline]
fn decode_into_uninit(
    kernel: KernelToken,
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
) -> Result<usize, Error> {
    // SAFETY: out_start = 0: there is no history to be initialised.
    unsafe { dispatch::decode_uninit(kernel, src, dst, 0) }
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
    let mut scratch = zeroed(output_cap(src.len(), cap))?;
    let result = match dispatch::decode(kernel, src, &mut scratch, 0) {
        Err(error) if error.is_output_overflow() && scratch.len() < cap => {
            scratch = zeroed(cap)?;
            dispatch::decode(kernel, src, &mut scratch, 0)
        }
        result => result,
    };
    let len = result?;
    for (to, &byte) in dst.iter_mut().zip(&scratch[..len]) {
        to.write(byte);
    }
    Ok(len)
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

#[cfg(test)]
mod tests {
    use super::{first_room, output_cap, FIRST_ROOM_MIN};

    #[test]
    fn first_room_trusts_a_binding_cap_and_guesses_otherwise() {
        // max_out binds (the exact-size case): the whole cap at once.
        assert_eq!(first_room(1000, 5000), 5000);
        assert_eq!(first_room(1000, 254_999), 254_999);
        assert_eq!(first_room(1000, 255_000), FIRST_ROOM_MIN);
        // 255 × n saturates (32-bit, huge input): usize::MAX is still no limit.
        assert_eq!(
            first_room(usize::MAX / 200, usize::MAX),
            usize::MAX / 200 * 4
        );
        // max_out above what the block can produce: a guess, within the cap.
        assert_eq!(first_room(1000, usize::MAX), FIRST_ROOM_MIN);
        assert_eq!(first_room(1 << 20, usize::MAX), 4 << 20);
        assert_eq!(first_room(10, usize::MAX), 2550);
        assert_eq!(output_cap(usize::MAX, usize::MAX), usize::MAX);
        assert_eq!(first_room(usize::MAX / 2, usize::MAX), usize::MAX);
        assert_eq!(first_room(usize::MAX / 2, usize::MAX - 1), usize::MAX - 1);
        assert_eq!(first_room(0, usize::MAX), 0);
    }
}
