//! The copy primitives a decode kernel provides to the one fast loop
//! ([`block::fast_decode`](crate::block)).

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
    /// `src` must be valid for reads and `dst` for writes of `WIDTH` bytes, both initialised.
    unsafe fn copy_wide(src: *const u8, dst: *mut u8);

    /// Copies 16 bytes from `src` to `dst`, all loads before all stores.
    ///
    /// # Safety
    ///
    /// `src` must be valid for reads and `dst` for writes of 16 bytes, both initialised.
    unsafe fn copy16(src: *const u8, dst: *mut u8);

    /// Writes `len` bytes at `dst`, each a copy of the byte `offset` positions before it (the
    /// output of an overlapping match), for `1 <= offset < WIDTH` and `len >= 4`. May write up to
    /// `WIDTH - 1` bytes past `dst + len`, and may read up to 16 bytes from `dst - offset`.
    ///
    /// # Safety
    ///
    /// `dst - offset .. dst + len + WIDTH` must lie within one initialised allocation valid for
    /// reads and writes.
    unsafe fn replicate(dst: *mut u8, offset: usize, len: usize);
}
