//! From a kernel token to a decode entry point: the one `match` per block.
//!
//! A [`KernelToken`] proves its kernel can run on this CPU (`kernel` makes one only after the
//! availability check), so the SIMD entry points in `fast_decode`, which carry the kernel's
//! `#[target_feature]`, are reached only on CPUs that have the features. The scalar decoder
//! (`scalar`) needs no proof; it is also what every token maps to in the build without the
//! `unsafe` feature.

#[cfg(feature = "unsafe")]
use core::mem::MaybeUninit;

use super::scalar;
use crate::kernel::KernelToken;
use crate::Error;
// Used by the SIMD arms, which exist on the targets with a SIMD kernel.
#[cfg(simd_kernels)]
use {super::fast_decode, crate::Kernel};

/// Decodes the block `src` into `dst[out_start..]` (`dst[..out_start]` is history) with the
/// token's kernel. Verdict and output are the reference decoder's for every kernel.
#[inline]
pub(crate) fn decode(
    kernel: KernelToken,
    src: &[u8],
    dst: &mut [u8],
    out_start: usize,
) -> Result<usize, Error> {
    debug_assert!(out_start <= dst.len());
    match kernel.kernel() {
        #[cfg(simd_kernels)]
        Kernel::Sse2 | Kernel::Avx2 | Kernel::Avx512 | Kernel::Neon | Kernel::Simd128 => {
            // SAFETY: the kernels write only copies of initialised bytes (block::fast_decode,
            // block::uninit); all of `dst` is initialised, its history prefix included.
            unsafe { decode_uninit(kernel, src, as_uninit(dst), out_start) }
        }
        _ => scalar::decode(src, dst, out_start),
    }
}

/// `dst` viewed as possibly uninitialised bytes, for the SIMD kernels' entry points.
///
/// # Safety
///
/// Only initialised bytes may be written through the view, so that `dst` stays initialised.
#[cfg(simd_kernels)]
#[inline(always)]
unsafe fn as_uninit(dst: &mut [u8]) -> &mut [MaybeUninit<u8>] {
    // SAFETY: `[u8]` and `[MaybeUninit<u8>]` have the same layout; the caller writes only
    // initialised bytes (this function's contract).
    unsafe { &mut *(core::ptr::from_mut::<[u8]>(dst) as *mut [MaybeUninit<u8>]) }
}

/// [`decode`] into uninitialised memory: decodes `src` into `dst[out_start..]`, where
/// `dst[..out_start]` is (initialised) history. On success `dst[..returned length]` is
/// initialised; bytes after it may have been written (with copies of initialised bytes) but are
/// unspecified. Nothing outside `dst` is written.
///
/// The SIMD kernels decode in place without initialising anything first. The scalar decoder is
/// safe code over `&mut [u8]`: it first zero-fills `dst[out_start..]` (the price of the `Vec`
/// API on targets without a SIMD kernel, or when `scalar` is forced).
///
/// # Safety
///
/// `out_start <= dst.len()` and `dst[..out_start]` is initialised.
#[cfg(feature = "unsafe")]
#[inline]
pub(crate) unsafe fn decode_uninit(
    kernel: KernelToken,
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
    out_start: usize,
) -> Result<usize, Error> {
    debug_assert!(out_start <= dst.len());
    match kernel.kernel() {
        #[cfg(x86_kernels)]
        // SAFETY: SSE2 is baseline on x86_64; history: this function's contract.
        Kernel::Sse2 => unsafe { fast_decode::decode_sse2(src, dst, out_start) },
        #[cfg(x86_kernels)]
        // SAFETY: the token exists, so AVX2 was detected (Kernel::token / detect); history: this
        // function's contract.
        Kernel::Avx2 => unsafe { fast_decode::decode_avx2(src, dst, out_start) },
        #[cfg(x86_kernels)]
        // SAFETY: the token exists, so AVX-512 F, BW and VBMI were detected (Kernel::token /
        // detect); history: this function's contract.
        Kernel::Avx512 => unsafe { fast_decode::decode_avx512(src, dst, out_start) },
        #[cfg(neon_kernel)]
        // SAFETY: the token exists, so NEON was detected; history: this function's contract.
        Kernel::Neon => unsafe { fast_decode::decode_neon(src, dst, out_start) },
        #[cfg(wasm_kernel)]
        // SAFETY: simd128 is enabled at compile time (the entry exists only then); history: this
        // function's contract.
        Kernel::Simd128 => unsafe { fast_decode::decode_simd128(src, dst, out_start) },
        _ => {
            dst[out_start..].fill(MaybeUninit::new(0));
            // SAFETY: dst[..out_start] is initialised (this function's contract) and the rest
            // was just filled; `[MaybeUninit<u8>]` and `[u8]` have the same layout.
            let dst = unsafe { &mut *(core::ptr::from_mut(dst) as *mut [u8]) };
            scalar::decode(src, dst, out_start)
        }
    }
}

/// The partial and dictionary decodes, into `dst` from its start: the first `dst.len()` bytes of
/// the block when `partial` (with an empty `dict`), or the whole block with `dict` as the history
/// before `dst[0]`. Verdict and output are the reference decoder's for every kernel.
#[inline]
pub(crate) fn decode_special(
    kernel: KernelToken,
    src: &[u8],
    dst: &mut [u8],
    dict: &[u8],
    partial: bool,
) -> Result<usize, Error> {
    match kernel.kernel() {
        #[cfg(simd_kernels)]
        Kernel::Sse2 | Kernel::Avx2 | Kernel::Avx512 | Kernel::Neon | Kernel::Simd128 => {
            // SAFETY: the kernels write only copies of initialised bytes (block::fast_decode,
            // block::uninit).
            decode_special_uninit(kernel, src, unsafe { as_uninit(dst) }, dict, partial)
        }
        _ if partial => scalar::decode_partial(src, dst),
        _ => scalar::decode_with_dict(src, dst, dict),
    }
}

/// [`decode_special`] into uninitialised memory. On success `dst[..returned length]` is
/// initialised; bytes after it may have been written (with copies of initialised bytes) but are
/// unspecified. The scalar decoder first zero-fills `dst`, as in [`decode_uninit`].
#[cfg(feature = "unsafe")]
#[inline]
pub(crate) fn decode_special_uninit(
    kernel: KernelToken,
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
    dict: &[u8],
    partial: bool,
) -> Result<usize, Error> {
    match kernel.kernel() {
        #[cfg(x86_kernels)]
        // SAFETY: SSE2 is baseline on x86_64.
        Kernel::Sse2 => unsafe { fast_decode::decode_special_sse2(src, dst, dict, partial) },
        #[cfg(x86_kernels)]
        // SAFETY: the token exists, so AVX2 was detected (Kernel::token / detect).
        Kernel::Avx2 => unsafe { fast_decode::decode_special_avx2(src, dst, dict, partial) },
        #[cfg(x86_kernels)]
        // SAFETY: the token exists, so AVX-512 F, BW and VBMI were detected (Kernel::token /
        // detect).
        Kernel::Avx512 => unsafe { fast_decode::decode_special_avx512(src, dst, dict, partial) },
        #[cfg(neon_kernel)]
        // SAFETY: the token exists, so NEON was detected.
        Kernel::Neon => unsafe { fast_decode::decode_special_neon(src, dst, dict, partial) },
        #[cfg(wasm_kernel)]
        // SAFETY: simd128 is enabled at compile time (the entry exists only then).
        Kernel::Simd128 => unsafe { fast_decode::decode_special_simd128(src, dst, dict, partial) },
        _ => {
            dst.fill(MaybeUninit::new(0));
            // SAFETY: `dst` was just filled; `[MaybeUninit<u8>]` and `[u8]` have the same layout.
            let dst = unsafe { &mut *(core::ptr::from_mut(dst) as *mut [u8]) };
            if partial {
                scalar::decode_partial(src, dst)
            } else {
                scalar::decode_with_dict(src, dst, dict)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec;
    use alloc::vec::Vec;

    use super::{decode, decode_special};
    use crate::block::{compress, reference};
    use crate::Kernel;

    /// Data repeating a period of `period` bytes, with a changed byte every 97 bytes so that
    /// matches have every offset below, at and above the period: long matches at short offsets
    /// (the kernels' replication loop) and others.
    fn periodic(period: usize, len: usize) -> Vec<u8> {
        (0..len)
            .map(|i| (i % period) as u8 ^ if i % 97 == 0 { 0x5a } else { 0 })
            .collect()
    }

    /// Short matches at short offsets (the kernels' `replicate_short`): runs of 5 noise bytes
    /// (16 at first), each followed by 4 to 22 bytes repeating the last `period` (< 16) bytes.
    fn short_repeats(period: usize, state: &mut u64) -> Vec<u8> {
        let mut data = Vec::new();
        while data.len() < 900 {
            for _ in 0..if data.is_empty() { 16 } else { 5 } {
                data.push(xorshift(state) as u8);
            }
            let run = 4 + (xorshift(state) % 19) as usize;
            for _ in 0..run {
                data.push(data[data.len() - period]);
            }
        }
        data
    }

    fn xorshift(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    /// Every available kernel (on wasm32 with `simd128`, the simd128 kernel; there the crate's
    /// other tests need liblz4) against the reference decoder, through each dispatch entry: the
    /// whole block, behind history, partial, with a dictionary; valid, corrupted and truncated
    /// blocks, into exact, larger and too small buffers. Same verdict (the whole `Error`) and
    /// same output.
    #[test]
    fn every_kernel_matches_the_reference() {
        let mut blocks = Vec::new();
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for period in (1..=20).chain([31, 32, 33, 63, 64, 65, 70]) {
            let data = periodic(period, 700 + period);
            blocks.push((compress(&data).unwrap(), data.len()));
            if period < 16 {
                let data = short_repeats(period, &mut state);
                blocks.push((compress(&data).unwrap(), data.len()));
            }
        }
        let mut inputs = Vec::new();
        for (block, len) in &blocks {
            inputs.push((block.clone(), *len));
            for _ in 0..12 {
                xorshift(&mut state);
                let mut bad = block.clone();
                let pos = (state % bad.len() as u64) as usize;
                bad[pos] = (state >> 32) as u8;
                let cut = ((state >> 40) as usize) % (bad.len() + 1);
                inputs.push((bad.clone(), *len));
                inputs.push((bad[..cut].to_vec(), *len));
            }
        }
        let history = periodic(13, 40);
        for kernel in Kernel::available() {
            let token = kernel.token().expect("available");
            for (src, len) in &inputs {
                for cap in [*len, len + 1, len + 64, len.saturating_sub(1), len / 2] {
                    let mut ours = vec![0xAAu8; history.len() + cap];
                    let mut theirs = vec![0x55u8; history.len() + cap];
                    for start in [0, history.len()] {
                        ours[..start].copy_from_slice(&history[..start]);
                        theirs[..start].copy_from_slice(&history[..start]);
                        let size = start + cap;
                        let got = decode(token, src, &mut ours[..size], start);
                        let want = reference::decode(src, &mut theirs[..size], start);
                        assert_eq!(
                            got, want,
                            "{kernel}, history {start}, cap {cap}: {src:02x?}"
                        );
                        if let Ok(end) = want {
                            assert_eq!(ours[..end], theirs[..end], "{kernel}, history {start}");
                        }
                    }
                    let got = decode_special(token, src, &mut ours[..cap], &[], true);
                    let want = reference::decode_partial(src, &mut theirs[..cap]);
                    assert_eq!(got, want, "{kernel}, partial, cap {cap}: {src:02x?}");
                    if let Ok(end) = want {
                        assert_eq!(ours[..end], theirs[..end], "{kernel}, partial");
                    }
                    let got = decode_special(token, src, &mut ours[..cap], &history, false);
                    let want = reference::decode_with_dict(src, &mut theirs[..cap], &history);
                    assert_eq!(got, want, "{kernel}, dictionary, cap {cap}: {src:02x?}");
                    if let Ok(end) = want {
                        assert_eq!(ours[..end], theirs[..end], "{kernel}, dictionary");
                    }
                }
            }
        }
    }
}
