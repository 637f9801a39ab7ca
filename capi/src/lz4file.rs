//! liblz4's file API (`lz4file.h`): LZ4 frames read from and written to a caller's `FILE*`
//! (`LZ4F_readOpen`, `LZ4F_read`, `LZ4F_readClose`, `LZ4F_writeOpen`, `LZ4F_write`,
//! `LZ4F_writeClose`), on this library's own frame functions and the C library's `fread` and
//! `fwrite`. The calls they make, and so the bytes written and the results, are liblz4's, but
//! where liblz4 loses data unnoticed or goes outside its own contract (see docs/c-abi.md):
//! - a file that ends inside a frame, or a failing `fread`, is `ERROR_io_read` (liblz4 returns
//!   the bytes decoded so far, then 0, as at the end of the file);
//! - after a decoding error `LZ4F_read` returns it again (liblz4 calls its decoder again,
//!   which lz4frame.h says is not resumable after an error);
//! - after a failed `LZ4F_write`, later writes and `LZ4F_writeClose` return that error (liblz4
//!   goes on writing and closes with success), and `LZ4F_writeClose` flushes the `FILE*`, so
//!   that a write that fails in the C library's buffer is `ERROR_io_write` too;
//! - a frame shorter than 19 bytes (a header and at most 3 bytes of content) is read (liblz4's
//!   `LZ4F_readOpen` needs 19 bytes and fails with `ERROR_io_read`).
//!
//! The `FILE*` stays the caller's: it is neither closed nor rewound.

use std::os::raw::c_void;
use std::ptr;

use libc::FILE;

use crate::lz4frame::{error, ErrorCode, LZ4F_isError, LZ4F_VERSION};
use crate::lz4frame_compress::{
    LZ4F_cctx, LZ4F_compressBegin, LZ4F_compressBound, LZ4F_compressEnd, LZ4F_compressUpdate,
    LZ4F_createCompressionContext, LZ4F_freeCompressionContext, LZ4F_preferences_t,
};
use crate::lz4frame_decompress::{
    LZ4F_createDecompressionContext, LZ4F_dctx, LZ4F_decompress, LZ4F_frameInfo_t,
    LZ4F_freeDecompressionContext, LZ4F_getFrameInfo,
};

/// `LZ4F_HEADER_SIZE_MAX`: the bytes `LZ4F_readOpen` reads first, and the room
/// `LZ4F_writeOpen` gives the header.
const HEADER_SIZE_MAX: usize = 19;

/// The bytes read or compressed at a time for a block size ID, as liblz4: its block's maximum
/// size (0, the default, is 64 KiB); `None` for an invalid ID. At most 4 MiB, whatever the file
/// says.
fn chunk_size(block_size_id: u32) -> Option<usize> {
    match block_size_id {
        0 | 4 => Some(64 << 10),
        5 => Some(256 << 10),
        6 => Some(1 << 20),
        7 => Some(4 << 20),
        _ => None,
    }
}

/// A zeroed buffer of `len` bytes, or `ERROR_allocation_failed`.
fn buffer(len: usize) -> Result<Vec<u8>, usize> {
    let mut buf = Vec::new();
    buf.try_reserve_exact(len)
        .map_err(|_| error(ErrorCode::AllocationFailed))?;
    buf.resize(len, 0);
    Ok(buf)
}

/// Room for `len` bytes, not initialised (a `Vec` of length 0), or `ERROR_allocation_failed`.
fn uninit_buffer(len: usize) -> Result<Vec<u8>, usize> {
    let mut buf = Vec::new();
    buf.try_reserve_exact(len)
        .map_err(|_| error(ErrorCode::AllocationFailed))?;
    Ok(buf)
}

/// `LZ4_readFile_t`: a decompression context, the caller's `FILE*` and the compressed bytes
/// read ahead of the decoder.
pub struct LZ4_readFile_t {
    dctx: *mut LZ4F_dctx,
    fp: *mut FILE,
    /// Read ahead: `src[pos..len]` is not decoded yet.
    src: Vec<u8>,
    pos: usize,
    len: usize,
    /// The decoder is inside a frame (its last result was a hint, not 0): the end of the file
    /// here truncates that frame.
    in_frame: bool,
    /// The decoder's error, 0 for none: the context is not resumable after an error
    /// (lz4frame.h), so every later call returns it.
    err: usize,
}

impl Drop for LZ4_readFile_t {
    fn drop(&mut self) {
        // SAFETY: `dctx` is null or the live context `LZ4F_readOpen` created, freed only here.
        unsafe { LZ4F_freeDecompressionContext(self.dctx) };
    }
}

/// `LZ4_writeFile_t`: a compression context, the caller's `FILE*`, the output buffer and the
/// first error met.
pub struct LZ4_writeFile_t {
    cctx: *mut LZ4F_cctx,
    fp: *mut FILE,
    /// `LZ4F_compressBound` of one chunk, `cap` bytes: room for any update or the frame's end.
    /// Allocated, not initialised (as liblz4's `malloc`: for a `blockChecksumFlag` far above 1
    /// liblz4's bound is gigabytes, never written); the compressor writes into it.
    dst: Vec<u8>,
    cap: usize,
    /// The input compressed by one `LZ4F_compressUpdate`: the block size.
    chunk: usize,
    /// The first error of `LZ4F_write`, 0 for none.
    err: usize,
}

impl LZ4_writeFile_t {
    /// Writes `dst[..n]` to the stream: `false` for a short write.
    ///
    /// # Safety
    /// `dst[..n]` was written by the last compression call (`n`, its result, is at most `cap`).
    unsafe fn write_out(&self, n: usize) -> bool {
        // SAFETY: `dst[..n]` is within the allocation (`cap` bytes) and initialised (the
        // caller's contract).
        let out = unsafe { std::slice::from_raw_parts(self.dst.as_ptr(), n.min(self.cap)) };
        // SAFETY: `fp` is the handle's live stream.
        unsafe { write_all(self.fp, out) }
    }
}

impl Drop for LZ4_writeFile_t {
    fn drop(&mut self) {
        // SAFETY: `cctx` is null or the live context `LZ4F_writeOpen` created, freed only here.
        unsafe { LZ4F_freeCompressionContext(self.cctx) };
    }
}

/// Whether `fp`'s error indicator is set.
///
/// # Safety
/// `fp` a live `FILE*`.
unsafe fn failed(fp: *mut FILE) -> bool {
    // SAFETY: a live stream (the caller's contract).
    unsafe { libc::ferror(fp) != 0 }
}

/// Writes all of `buf` to `fp`: `false` for a short write.
///
/// # Safety
/// `fp` a live `FILE*` open for writing or not (a stream not open for writing fails).
unsafe fn write_all(fp: *mut FILE, buf: &[u8]) -> bool {
    if buf.is_empty() {
        return true;
    }
    // SAFETY: `buf` is a live slice of `buf.len()` readable bytes; `fp` by the caller's contract.
    unsafe { libc::fwrite(buf.as_ptr().cast::<c_void>(), 1, buf.len(), fp) == buf.len() }
}

/// Opens the frame at `fp`'s position for reading: reads its header (and up to 19 bytes in
/// all) and makes `*lz4f_read` a handle for [`LZ4F_read`]. Returns 0, or an error code with
/// `*lz4f_read` null: `ERROR_parameter_null` (then `*lz4f_read` is not written),
/// `ERROR_io_read` (the file ends inside the header, or `fread` fails), the header's error
/// (`ERROR_frameType_unknown`, `ERROR_headerChecksum_invalid`, ...).
///
/// # Safety
/// `lz4f_read` null or writable; `fp` null or a live `FILE*` open for reading, used by no one
/// else until [`LZ4F_readClose`].
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4F_readOpen(
    lz4f_read: *mut *mut LZ4_readFile_t,
    fp: *mut FILE,
) -> usize {
    if lz4f_read.is_null() || fp.is_null() {
        return error(ErrorCode::ParameterNull);
    }
    // SAFETY: `fp` is non-null (checked above) and a live stream by the caller's contract.
    let result = unsafe { open_read(fp) };
    let (handle, code) = match result {
        Ok(handle) => (Box::into_raw(handle), 0),
        Err(code) => (ptr::null_mut(), code),
    };
    // SAFETY: `lz4f_read` is non-null (checked above) and writable by the caller's contract.
    unsafe { lz4f_read.write(handle) };
    code
}

/// [`LZ4F_readOpen`]'s handle for `fp`, or its error code.
///
/// # Safety
/// `fp` a live `FILE*`.
unsafe fn open_read(fp: *mut FILE) -> Result<Box<LZ4_readFile_t>, usize> {
    let mut handle = Box::new(LZ4_readFile_t {
        dctx: ptr::null_mut(),
        fp,
        src: Vec::new(),
        pos: 0,
        len: 0,
        in_frame: true,
        err: 0,
    });
    // SAFETY: `handle.dctx` is a writable pointer.
    let r = unsafe { LZ4F_createDecompressionContext(&mut handle.dctx, LZ4F_VERSION) };
    if LZ4F_isError(r) != 0 {
        return Err(r);
    }
    let mut header = [0u8; HEADER_SIZE_MAX];
    // SAFETY: `header` is 19 writable bytes; `fp` by the caller's contract.
    let got = unsafe { libc::fread(header.as_mut_ptr().cast::<c_void>(), 1, header.len(), fp) };
    // SAFETY: as above.
    if got != header.len() && unsafe { failed(fp) } {
        return Err(error(ErrorCode::IoRead));
    }
    let mut info = LZ4F_frameInfo_t::default();
    let mut consumed = got;
    // SAFETY: a live context (created above), `info` and `consumed` writable, `header[..got]`
    // readable.
    let r = unsafe {
        LZ4F_getFrameInfo(
            handle.dctx,
            &mut info,
            header.as_ptr().cast::<c_void>(),
            &mut consumed,
        )
    };
    if LZ4F_isError(r) != 0 {
        // A short file is liblz4's `ERROR_io_read`, whatever its few bytes are.
        return Err(if got < header.len() {
            error(ErrorCode::IoRead)
        } else {
            r
        });
    }
    let size = chunk_size(info.blockSizeID).ok_or(error(ErrorCode::MaxBlockSizeInvalid))?;
    handle.src = buffer(size)?;
    // `consumed` is at most `got` (the header decoded from `header[..got]`), `got` at most 19.
    let rest = &header[consumed.min(got)..got];
    handle.src[..rest.len()].copy_from_slice(rest);
    handle.len = rest.len();
    Ok(handle)
}

/// Decodes up to `size` bytes of content into `buf`: returns the bytes written, fewer than
/// `size` only at the end of the file (0 then), or an error code: `ERROR_parameter_null`,
/// `ERROR_io_read` (`fread` failed, or the file ends inside a frame), the frame's error
/// (`ERROR_decompressionFailed`, `ERROR_contentChecksum_invalid`, ...), which later calls
/// return again. Frames that follow each other are read as one content; skippable frames are
/// skipped.
///
/// # Safety
/// `lz4f_read` null or a handle from [`LZ4F_readOpen`] used by no one else during the call;
/// `buf[..size]` null or writable.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4F_read(
    lz4f_read: *mut LZ4_readFile_t,
    buf: *mut c_void,
    size: usize,
) -> usize {
    // SAFETY: null or a live handle used by no one else (the caller's contract).
    let Some(h) = (unsafe { lz4f_read.as_mut() }) else {
        return error(ErrorCode::ParameterNull);
    };
    if buf.is_null() {
        return error(ErrorCode::ParameterNull);
    }
    if h.err != 0 {
        return h.err;
    }
    let out = buf.cast::<u8>();
    let mut done = 0;
    while done < size {
        if h.pos == h.len {
            // SAFETY: `h.src` is `h.src.len()` writable bytes; `h.fp` is live (the handle's).
            let got =
                unsafe { libc::fread(h.src.as_mut_ptr().cast::<c_void>(), 1, h.src.len(), h.fp) };
            if got == 0 {
                // SAFETY: as above.
                if h.in_frame || unsafe { failed(h.fp) } {
                    return error(ErrorCode::IoRead);
                }
                break;
            }
            h.pos = 0;
            h.len = got;
        }
        let mut src_size = h.len - h.pos;
        let mut dst_size = size - done;
        // SAFETY: a live context; `out[done..size]` is writable by the caller's contract and
        // apart from `h.src[h.pos..h.len]`, which is readable (`pos <= len <= src.len()`).
        let r = unsafe {
            LZ4F_decompress(
                h.dctx,
                out.add(done).cast::<c_void>(),
                &mut dst_size,
                h.src.as_ptr().add(h.pos).cast::<c_void>(),
                &mut src_size,
                ptr::null(),
            )
        };
        if LZ4F_isError(r) != 0 {
            h.err = r;
            return r;
        }
        h.in_frame = r != 0;
        // The decoder reports no more than it was given: `src_size <= len - pos`,
        // `dst_size <= size - done`.
        h.pos += src_size.min(h.len - h.pos);
        done += dst_size.min(size - done);
    }
    done
}

/// Frees a handle from [`LZ4F_readOpen`] (not its `FILE*`): 0, or `ERROR_parameter_null`.
///
/// # Safety
/// `lz4f_read` null or a handle from [`LZ4F_readOpen`], not used afterwards.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4F_readClose(lz4f_read: *mut LZ4_readFile_t) -> usize {
    if lz4f_read.is_null() {
        return error(ErrorCode::ParameterNull);
    }
    // SAFETY: a handle made by `Box::into_raw` in `LZ4F_readOpen`, given back once.
    drop(unsafe { Box::from_raw(lz4f_read) });
    0
}

/// Starts a frame with `prefs` (null: the defaults) on `fp`: writes its header and makes
/// `*lz4f_write` a handle for [`LZ4F_write`]. Returns 0, or an error code with `*lz4f_write`
/// null: `ERROR_parameter_null` (then `*lz4f_write` is not written),
/// `ERROR_maxBlockSize_invalid`, `LZ4F_compressBegin`'s error, `ERROR_io_write` (a short
/// `fwrite`).
///
/// # Safety
/// `lz4f_write` null or writable; `fp` null or a live `FILE*`, used by no one else until
/// [`LZ4F_writeClose`]; `prefs` null or readable.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4F_writeOpen(
    lz4f_write: *mut *mut LZ4_writeFile_t,
    fp: *mut FILE,
    prefs: *const LZ4F_preferences_t,
) -> usize {
    if lz4f_write.is_null() || fp.is_null() {
        return error(ErrorCode::ParameterNull);
    }
    // SAFETY: `fp` is non-null (checked above) and live, `prefs` null or readable, by the
    // caller's contract.
    let result = unsafe { open_write(fp, prefs) };
    let (handle, code) = match result {
        Ok(handle) => (Box::into_raw(handle), 0),
        Err(code) => (ptr::null_mut(), code),
    };
    // SAFETY: `lz4f_write` is non-null (checked above) and writable by the caller's contract.
    unsafe { lz4f_write.write(handle) };
    code
}

/// [`LZ4F_writeOpen`]'s handle for `fp`, or its error code.
///
/// # Safety
/// `fp` a live `FILE*`; `prefs` null or readable.
unsafe fn open_write(
    fp: *mut FILE,
    prefs: *const LZ4F_preferences_t,
) -> Result<Box<LZ4_writeFile_t>, usize> {
    // SAFETY: null or readable (the caller's contract).
    let block_size_id = unsafe { prefs.as_ref() }.map_or(0, |p| p.frameInfo.blockSizeID);
    let chunk = chunk_size(block_size_id).ok_or(error(ErrorCode::MaxBlockSizeInvalid))?;
    // SAFETY: `prefs` null or readable.
    let bound = unsafe { LZ4F_compressBound(chunk, prefs) };
    let mut handle = Box::new(LZ4_writeFile_t {
        cctx: ptr::null_mut(),
        fp,
        dst: uninit_buffer(bound)?,
        cap: bound,
        chunk,
        err: 0,
    });
    // SAFETY: `handle.cctx` is a writable pointer.
    let r = unsafe { LZ4F_createCompressionContext(&mut handle.cctx, LZ4F_VERSION) };
    if LZ4F_isError(r) != 0 {
        return Err(r);
    }
    let mut header = [0u8; HEADER_SIZE_MAX];
    // SAFETY: a live context, `header` 19 writable bytes, `prefs` null or readable.
    let n = unsafe {
        LZ4F_compressBegin(
            handle.cctx,
            header.as_mut_ptr().cast::<c_void>(),
            header.len(),
            prefs,
        )
    };
    if LZ4F_isError(n) != 0 {
        return Err(n);
    }
    // SAFETY: `fp` by the caller's contract; the header is at most the 19 bytes given.
    if !unsafe { write_all(fp, &header[..n.min(header.len())]) } {
        return Err(error(ErrorCode::IoWrite));
    }
    Ok(handle)
}

/// Compresses `buf[..size]` into the frame, block by block, writing what is compressed:
/// returns `size`, or an error code: `ERROR_parameter_null`, `LZ4F_compressUpdate`'s error,
/// `ERROR_io_write` (a short `fwrite`), or the error of an earlier call (the frame is then
/// broken).
///
/// # Safety
/// `lz4f_write` null or a handle from [`LZ4F_writeOpen`] used by no one else during the call;
/// `buf[..size]` null or readable.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4F_write(
    lz4f_write: *mut LZ4_writeFile_t,
    buf: *const c_void,
    size: usize,
) -> usize {
    // SAFETY: null or a live handle used by no one else (the caller's contract).
    let Some(h) = (unsafe { lz4f_write.as_mut() }) else {
        return error(ErrorCode::ParameterNull);
    };
    if buf.is_null() {
        return error(ErrorCode::ParameterNull);
    }
    if h.err != 0 {
        return h.err;
    }
    let src = buf.cast::<u8>();
    let mut done = 0;
    while done < size {
        let chunk = (size - done).min(h.chunk);
        // SAFETY: a live context; `h.dst` has `h.cap` writable bytes, apart from the caller's
        // `buf[done..done + chunk]` (readable by the caller's contract).
        let n = unsafe {
            LZ4F_compressUpdate(
                h.cctx,
                h.dst.as_mut_ptr().cast::<c_void>(),
                h.cap,
                src.add(done).cast::<c_void>(),
                chunk,
                ptr::null(),
            )
        };
        if LZ4F_isError(n) != 0 {
            h.err = n;
            return n;
        }
        // SAFETY: `LZ4F_compressUpdate` wrote its result's `n` bytes.
        if !unsafe { h.write_out(n) } {
            h.err = error(ErrorCode::IoWrite);
            return h.err;
        }
        done += chunk;
    }
    size
}

/// Ends the frame (the last block, the end mark, the content checksum), writes it, flushes the
/// `FILE*` (not closed) and frees the handle: returns the bytes of that end (as liblz4: not 0),
/// or an error code:
/// `ERROR_parameter_null`, `LZ4F_compressEnd`'s error (`ERROR_frameSize_wrong` for a content
/// size other than declared), `ERROR_io_write` (a short `fwrite` or a failed `fflush`), or the
/// error of an earlier [`LZ4F_write`] (the frame is then broken and not ended). The handle is
/// freed in every case but the null one.
///
/// # Safety
/// `lz4f_write` null or a handle from [`LZ4F_writeOpen`], not used afterwards.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4F_writeClose(lz4f_write: *mut LZ4_writeFile_t) -> usize {
    if lz4f_write.is_null() {
        return error(ErrorCode::ParameterNull);
    }
    // SAFETY: a handle made by `Box::into_raw` in `LZ4F_writeOpen`, given back once.
    let mut h = unsafe { Box::from_raw(lz4f_write) };
    if h.err != 0 {
        return h.err;
    }
    // SAFETY: a live context; `h.dst` has `h.cap` writable bytes.
    let n = unsafe {
        LZ4F_compressEnd(
            h.cctx,
            h.dst.as_mut_ptr().cast::<c_void>(),
            h.cap,
            ptr::null(),
        )
    };
    if LZ4F_isError(n) != 0 {
        return n;
    }
    // SAFETY: `LZ4F_compressEnd` wrote its result's `n` bytes.
    if !unsafe { h.write_out(n) } {
        return error(ErrorCode::IoWrite);
    }
    // SAFETY: as above.
    if unsafe { libc::fflush(h.fp) } != 0 {
        return error(ErrorCode::IoWrite);
    }
    n
}
