//! The copy primitives a decode kernel provides to the one fast loop
//! (`block::fast_decode`).
//!
//! The output may be uninitialised memory: a primitive may write anywhere its contract allows,
//! but may read only output bytes that are already written (the contracts say which).

/// Output bytes before a match that [`CopyKernel::replicate`] may read: the 16 bytes ending at
/// the match start hold the repeating pattern for every offset below 16, and reading them reads
/// no byte of the match itself (which may still be uninitialised). The fast loop writes the first
/// bytes of a match starting closer than this to the output's start one by one.
pub(crate) const REPLICATE_HISTORY: usize = 16;

/// Copies `N` bytes (one load, then one store).
///
/// # Safety
///
/// `src` must be valid for reads of `N` initialised bytes and `dst` for writes of `N` bytes.
#[inline(always)]
pub(crate) unsafe fn copy_bytes<const N: usize>(src: *const u8, dst: *mut u8) {
    // SAFETY: the caller's contract; read/write_unaligned take any alignment.
    unsafe {
        dst.cast::<[u8; N]>()
            .write_unaligned(src.cast::<[u8; N]>().read_unaligned())
    }
}

/// Wide copies and pattern replication for one instruction set.
///
/// The fast loop is generic over this trait; each implementation only moves bytes. Every method
/// is `#[inline(always)]` in the implementations so it compiles into the `#[target_feature]`
/// entry point that instantiates the loop.
///
/// # Safety
///
/// Implementations may use instructions of their instruction set: the methods may only run on a
/// CPU that has it. The fast loop is only instantiated inside the kernel's `#[target_feature]`
/// entry point, which is only reachable through a [`KernelToken`](super::KernelToken) proving the
/// features are present.
pub(crate) unsafe trait CopyKernel {
    /// Bytes one wild copy moves. Also the slack the fast loop keeps in both buffers.
    const WIDTH: usize;

    /// Copies `WIDTH` bytes from `src` to `dst`, all loads before all stores (so the ranges may
    /// overlap).
    ///
    /// # Safety
    ///
    /// `src` must be valid for reads of `WIDTH` initialised bytes and `dst` for writes of
    /// `WIDTH` bytes (which may be uninitialised).
    unsafe fn copy_wide(src: *const u8, dst: *mut u8);

    /// Copies 16 bytes from `src` to `dst`, all loads before all stores.
    ///
    /// # Safety
    ///
    /// `src` must be valid for reads of 16 initialised bytes and `dst` for writes of 16 bytes.
    unsafe fn copy16(src: *const u8, dst: *mut u8);

    /// Writes `len` bytes at `dst`, each a copy of the byte `offset` positions before it (the
    /// output of an overlapping match), for `1 <= offset < WIDTH` and `len >= 1`. May write up to
    /// `WIDTH - 1` bytes past `dst + len`. Reads only bytes before the one it writes: the
    /// [`REPLICATE_HISTORY`] bytes before `dst` and bytes it wrote itself.
    ///
    /// # Safety
    ///
    /// `dst - max(offset, REPLICATE_HISTORY) .. dst` must be initialised and valid for reads, and
    /// `dst .. dst + len + WIDTH` valid for writes, all within one allocation.
    unsafe fn replicate(dst: *mut u8, offset: usize, len: usize);

    /// Writes the first 18 (at least) bytes of an overlapping match with `1 <= offset < 16` at
    /// `dst`, the short-match case of [`replicate`](Self::replicate) without its loop: typically
    /// the 16-byte pattern, stored at `dst` and at `dst + STEP[offset]` (a multiple of the
    /// offset, at most 16), so up to 32 bytes are written. Reads only the
    /// [`REPLICATE_HISTORY`] bytes before `dst` and bytes it wrote itself.
    ///
    /// # Safety
    ///
    /// `dst - REPLICATE_HISTORY .. dst` must be initialised and valid for reads, and `dst .. dst
    /// + 32` valid for writes, all within one allocation.
    unsafe fn replicate_short(dst: *mut u8, offset: usize);
}
