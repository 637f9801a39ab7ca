//! The careful loop's [`Output`] over uninitialised memory.
//!
//! [`UninitOutput`] wraps a `&mut [MaybeUninit<u8>]` and the length of its initialised prefix.
//! Literal writes and match copies check their ranges against the slice and, for the bytes a
//! match reads, against that prefix, so no call (even one the careful loop never makes) can read
//! an uninitialised byte or touch memory outside the slice; each write extends the prefix when it
//! starts inside it. These checks are one comparison per sequence of the block's careful tail.

use core::mem::MaybeUninit;
use core::ptr;

use super::reference::Output;

/// Uninitialised output whose first `init` bytes are initialised.
pub(crate) struct UninitOutput<'a> {
    buf: &'a mut [MaybeUninit<u8>],
    init: usize,
}

impl<'a> UninitOutput<'a> {
    /// Wraps `buf`, of which `buf[..init]` is initialised.
    ///
    /// # Safety
    ///
    /// `init <= buf.len()` and the first `init` bytes of `buf` are initialised.
    pub(crate) unsafe fn new(buf: &'a mut [MaybeUninit<u8>], init: usize) -> Self {
        debug_assert!(init <= buf.len());
        UninitOutput { buf, init }
    }

    /// Records that `at..end` was just written: the initialised prefix grows if the write started
    /// inside it.
    #[inline]
    fn written(&mut self, at: usize, end: usize) {
        if at <= self.init && end > self.init {
            self.init = end;
        }
    }
}

impl Output for UninitOutput<'_> {
    #[inline]
    fn capacity(&self) -> usize {
        self.buf.len()
    }

    #[inline]
    fn write_literals(&mut self, at: usize, bytes: &[u8]) {
        let to = &mut self.buf[at..at + bytes.len()];
        // SAFETY: `to` is a live, exclusively borrowed range of exactly `bytes.len()` bytes (the
        // indexing above checked it); `bytes` is a shared borrow, so the two do not overlap.
        unsafe {
            ptr::copy_nonoverlapping(bytes.as_ptr(), to.as_mut_ptr().cast::<u8>(), bytes.len())
        };
        self.written(at, at + bytes.len());
    }

    #[inline]
    fn copy_match(&mut self, at: usize, offset: usize, match_len: usize) {
        // The careful loop checked all three (see `Output::copy_match`); checked again here
        // because reading `buf[at - offset..at]` is only sound inside the initialised prefix.
        assert!(
            offset >= 1 && offset <= at && at <= self.init && match_len <= self.buf.len() - at,
            "careful loop broke the Output contract"
        );
        let end = at + match_len;
        let base = self.buf.as_mut_ptr().cast::<u8>();
        let start = at - offset;
        if offset == 1 {
            // SAFETY: `start < at <= init` is an initialised byte inside `buf`; `at..end` lies in
            // `buf` (asserted above).
            unsafe {
                let byte = *base.add(start);
                ptr::write_bytes(base.add(at), byte, match_len);
            }
        } else {
            // Doubling chunks, as the reference's `copy_match`: each chunk copies from `start` as
            // many bytes as lie between `start` and the write position (a whole number of
            // periods, all initialised) and never overlaps its destination.
            let mut pos = at;
            while pos < end {
                let chunk = (pos - start).min(end - pos);
                // SAFETY: the source `start..start + chunk` ends at or before `pos`, so it is
                // initialised (bytes before `at` by the assertion, `at..pos` by earlier chunks)
                // and does not overlap the destination `pos..pos + chunk`, which ends at or
                // before `end <= buf.len()`.
                unsafe { ptr::copy_nonoverlapping(base.add(start), base.add(pos), chunk) };
                pos += chunk;
            }
        }
        self.written(at, end);
    }
}
