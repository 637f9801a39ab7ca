//! liblz4 (1.10, built by `lz4-sys`) as the oracle: block compression (fast, HC, with a
//! dictionary), block decompression (safe, with a dictionary) and the frame API (LZ4F: compress,
//! decompress, decompress with a dictionary).
//!
//! Functions `lz4-sys` does not bind are declared here from `lz4.h` / `lz4frame.h`. Sizes liblz4
//! takes as `int` are checked before the call: a larger input is a test bug, not an error case.

use std::os::raw::{c_char, c_int, c_void};

extern "C" {
    fn LZ4_decompress_safe_usingDict(
        src: *const c_char,
        dst: *mut c_char,
        src_size: c_int,
        dst_capacity: c_int,
        dict: *const c_char,
        dict_size: c_int,
    ) -> c_int;
    fn LZ4_loadDict(stream: *mut c_void, dict: *const c_char, dict_size: c_int) -> c_int;
    fn LZ4_compress_fast_continue(
        stream: *mut c_void,
        src: *const c_char,
        dst: *mut c_char,
        src_size: c_int,
        dst_capacity: c_int,
        acceleration: c_int,
    ) -> c_int;
    fn LZ4F_compressFrame(
        dst: *mut c_void,
        dst_capacity: usize,
        src: *const c_void,
        src_size: usize,
        preferences: *const lz4_sys::LZ4FPreferences,
    ) -> usize;
    fn LZ4F_compressFrameBound(
        src_size: usize,
        preferences: *const lz4_sys::LZ4FPreferences,
    ) -> usize;
    fn LZ4F_decompress_usingDict(
        ctx: lz4_sys::LZ4FDecompressionContext,
        dst: *mut u8,
        dst_size: &mut usize,
        src: *const u8,
        src_size: &mut usize,
        dict: *const u8,
        dict_size: usize,
        options: *const lz4_sys::LZ4FDecompressOptions,
    ) -> usize;
}

/// `len` as liblz4's `int`; panics when it does not fit.
fn int(len: usize) -> c_int {
    c_int::try_from(len).unwrap_or_else(|_| panic!("{len} bytes is more than liblz4 takes"))
}

/// `LZ4_compressBound`: the largest compressed size of `len` bytes.
pub fn compress_bound(len: usize) -> usize {
    let len = int(len);
    // SAFETY: a pure function of its argument.
    let bound = unsafe { lz4_sys::LZ4_compressBound(len) };
    usize::try_from(bound).expect("the bound of an int-sized input")
}

/// `LZ4_compress_fast` into `dst` (at least [`compress_bound`] bytes): the compressed length.
/// liblz4 clamps the acceleration itself (below 1 counts as 1, above 65537 as 65537).
pub fn compress_fast_into(src: &[u8], dst: &mut [u8], acceleration: i32) -> usize {
    // SAFETY: `src` is valid for `src.len()` bytes and `dst` for `dst.len()` bytes; liblz4 writes
    // at most `dst.len()`.
    let n = unsafe {
        lz4_sys::LZ4_compress_fast(
            src.as_ptr().cast(),
            dst.as_mut_ptr().cast(),
            int(src.len()),
            int(dst.len()),
            acceleration,
        )
    };
    assert!(
        n > 0 || src.is_empty(),
        "liblz4 failed to compress {} bytes",
        src.len()
    );
    n as usize
}

/// `LZ4_compress_fast` into a bound-sized buffer.
pub fn compress_fast(src: &[u8], acceleration: i32) -> Vec<u8> {
    let mut out = vec![0u8; compress_bound(src.len()).max(1)];
    let n = compress_fast_into(src, &mut out, acceleration);
    out.truncate(n);
    out
}

/// The acceleration liblz4 uses for our API's `acceleration`: below 1 counts as 1, above 65537
/// as 65537 (so a `u32` can be passed to [`compress_fast`]).
pub fn clamp_acceleration(acceleration: u32) -> i32 {
    acceleration.clamp(1, 65537) as i32
}

/// `LZ4_compress_HC` at `level` into `dst` (at least [`compress_bound`] bytes): the compressed
/// length. liblz4 clamps the level itself (below 1 means 9, above 12 means 12).
pub fn compress_hc_into(src: &[u8], dst: &mut [u8], level: i32) -> usize {
    // liblz4's optimal parser (levels 10-12) has no minimum-length guard and computes `end - 12`
    // from the source pointer: an empty input gets a real address, not a dangling one (which
    // would wrap around and make it read unmapped memory).
    let real = [0u8; 1];
    let src_ptr = if src.is_empty() {
        real.as_ptr()
    } else {
        src.as_ptr()
    };
    // SAFETY: `src_ptr` is valid for `src.len()` bytes (0 bytes of `real` for an empty input) and
    // `dst` for `dst.len()` bytes; liblz4 writes at most `dst.len()`.
    let n = unsafe {
        lz4_sys::LZ4_compress_HC(
            src_ptr.cast(),
            dst.as_mut_ptr().cast(),
            int(src.len()),
            int(dst.len()),
            level,
        )
    };
    assert!(n > 0, "liblz4 HC failed to compress {} bytes", src.len());
    n as usize
}

/// `LZ4_compress_HC` at `level` into a bound-sized buffer.
pub fn compress_hc(src: &[u8], level: i32) -> Vec<u8> {
    let mut out = vec![0u8; compress_bound(src.len()).max(1)];
    let n = compress_hc_into(src, &mut out, level);
    out.truncate(n);
    out
}

/// `LZ4_decompress_safe` into `dst` (the whole slice is the capacity): the decoded length, or
/// `None` when liblz4 rejects the block (or a size exceeds its `int`).
pub fn decompress_safe_into(src: &[u8], dst: &mut [u8]) -> Option<usize> {
    let src_size = c_int::try_from(src.len()).ok()?;
    let dst_capacity = c_int::try_from(dst.len()).ok()?;
    // SAFETY: `src` is valid for `src_size` bytes and `dst` for `dst_capacity` bytes; liblz4's
    // safe decoder stays within both.
    let n = unsafe {
        lz4_sys::LZ4_decompress_safe(
            src.as_ptr().cast(),
            dst.as_mut_ptr().cast(),
            src_size,
            dst_capacity,
        )
    };
    usize::try_from(n).ok()
}

/// `LZ4_decompress_safe` into a buffer of exactly `capacity` bytes; `None` when liblz4 rejects
/// the block.
pub fn decompress_safe(src: &[u8], capacity: usize) -> Option<Vec<u8>> {
    let mut out = vec![0u8; capacity];
    let n = decompress_safe_into(src, &mut out)?;
    out.truncate(n);
    Some(out)
}

/// `LZ4_decompress_safe_usingDict` into a buffer of exactly `capacity` bytes; `None` when liblz4
/// rejects the block.
pub fn decompress_with_dict(block: &[u8], dict: &[u8], capacity: usize) -> Option<Vec<u8>> {
    let mut out = vec![0u8; capacity];
    // SAFETY: all pointers come from live slices with their lengths; liblz4 reads at most
    // `block.len()` and `dict.len()` bytes and writes at most `capacity`.
    let n = unsafe {
        LZ4_decompress_safe_usingDict(
            block.as_ptr().cast(),
            out.as_mut_ptr().cast(),
            int(block.len()),
            int(out.len()),
            dict.as_ptr().cast(),
            int(dict.len()),
        )
    };
    let n = usize::try_from(n).ok()?;
    out.truncate(n);
    Some(out)
}

/// `src` compressed at acceleration 1 by a stream that loaded `dict` (`LZ4_loadDict`, then
/// `LZ4_compress_fast_continue`).
pub fn compress_with_dict(src: &[u8], dict: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; compress_bound(src.len()) + 16];
    // SAFETY: the stream comes from liblz4 and is freed once, after its last use; `dict`, `src`
    // and `out` are live slices passed with their lengths and outlive the calls.
    let n = unsafe {
        let stream = lz4_sys::LZ4_createStream();
        assert!(!stream.is_null(), "LZ4_createStream failed");
        LZ4_loadDict(stream.cast(), dict.as_ptr().cast(), int(dict.len()));
        let n = LZ4_compress_fast_continue(
            stream.cast(),
            src.as_ptr().cast(),
            out.as_mut_ptr().cast(),
            int(src.len()),
            int(out.len()),
            1,
        );
        lz4_sys::LZ4_freeStream(stream);
        n
    };
    assert!(n > 0, "liblz4 failed to compress with a dictionary");
    out.truncate(n as usize);
    out
}

/// Frame preferences as the `lz4` tool writes by default: 4 MiB independent blocks, content
/// checksum on, no block checksums, fast level.
pub fn frame_preferences() -> lz4_sys::LZ4FPreferences {
    lz4_sys::LZ4FPreferences {
        frame_info: lz4_sys::LZ4FFrameInfo {
            block_size_id: lz4_sys::BlockSize::Max4MB,
            block_mode: lz4_sys::BlockMode::Independent,
            content_checksum_flag: lz4_sys::ContentChecksum::ChecksumEnabled,
            frame_type: lz4_sys::FrameType::Frame,
            content_size: 0,
            dict_id: 0,
            block_checksum_flag: lz4_sys::BlockChecksum::NoBlockChecksum,
        },
        compression_level: 0,
        auto_flush: 1,
        favor_dec_speed: 0,
        reserved: [0; 3],
    }
}

/// `LZ4F_compressFrameBound`: the largest frame [`compress_frame`] writes for `len` bytes.
pub fn compress_frame_bound(len: usize, preferences: &lz4_sys::LZ4FPreferences) -> usize {
    // SAFETY: a pure function of its arguments; `preferences` outlives the call.
    unsafe { LZ4F_compressFrameBound(len, preferences) }
}

/// Panics when an LZ4F return value is an error code.
fn check_frame_code(code: usize, what: &str) {
    // SAFETY: a pure function of the code.
    assert!(unsafe { lz4_sys::LZ4F_isError(code) } == 0, "{what} failed");
}

/// `LZ4F_compressFrame` into `dst` (at least [`compress_frame_bound`] bytes): the frame's length.
pub fn compress_frame(src: &[u8], dst: &mut [u8], preferences: &lz4_sys::LZ4FPreferences) -> usize {
    // SAFETY: `dst` and `src` are valid for the lengths passed; `preferences` outlives the call.
    let n = unsafe {
        LZ4F_compressFrame(
            dst.as_mut_ptr().cast(),
            dst.len(),
            src.as_ptr().cast(),
            src.len(),
            preferences,
        )
    };
    check_frame_code(n, "LZ4F_compressFrame");
    n
}

/// A reusable liblz4 frame decompression context.
pub struct FrameDecoder(lz4_sys::LZ4FDecompressionContext);

impl FrameDecoder {
    pub fn new() -> Self {
        let mut ctx = lz4_sys::LZ4FDecompressionContext(std::ptr::null_mut());
        // SAFETY: creates a context owned by the returned value, freed in `Drop`.
        let code =
            unsafe { lz4_sys::LZ4F_createDecompressionContext(&mut ctx, lz4_sys::LZ4F_VERSION) };
        check_frame_code(code, "LZ4F_createDecompressionContext");
        FrameDecoder(ctx)
    }

    /// Decodes the whole frame `src` into `dst` (large enough): the decoded length.
    pub fn decode(&mut self, src: &[u8], dst: &mut [u8]) -> usize {
        let (mut in_pos, mut out_pos) = (0usize, 0usize);
        loop {
            let mut src_size = src.len() - in_pos;
            let mut dst_size = dst.len() - out_pos;
            // SAFETY: the pointers and sizes describe the unread part of `src` and the unwritten
            // part of `dst` (both offsets are within the slices); liblz4 stays within them.
            let hint = unsafe {
                lz4_sys::LZ4F_decompress(
                    self.0,
                    dst.as_mut_ptr().add(out_pos),
                    &mut dst_size,
                    src.as_ptr().add(in_pos),
                    &mut src_size,
                    std::ptr::null(),
                )
            };
            check_frame_code(hint, "LZ4F_decompress");
            in_pos += src_size;
            out_pos += dst_size;
            if hint == 0 {
                return out_pos;
            }
        }
    }
}

/// One whole frame (LZ4 or skippable) decoded by a fresh liblz4 context, with `dict` when given
/// (`LZ4F_decompress_usingDict`; `LZ4F_decompress` without): its content, or `None` when liblz4
/// rejects the frame, it ends before the frame does, or bytes follow it.
pub fn decompress_frame(framed: &[u8], dict: Option<&[u8]>) -> Option<Vec<u8>> {
    let decoder = FrameDecoder::new();
    let mut out = Vec::new();
    let mut chunk = vec![0u8; 1 << 16];
    let mut pos = 0;
    loop {
        let mut dst_size = chunk.len();
        let mut src_size = framed.len() - pos;
        // SAFETY: `chunk` is valid for `dst_size` bytes and `framed[pos..]` for `src_size`; the
        // dictionary is a live slice with its length and outlives the context (dropped below).
        let hint = unsafe {
            match dict {
                Some(dict) => LZ4F_decompress_usingDict(
                    decoder.0,
                    chunk.as_mut_ptr(),
                    &mut dst_size,
                    framed[pos..].as_ptr(),
                    &mut src_size,
                    dict.as_ptr(),
                    dict.len(),
                    std::ptr::null(),
                ),
                None => lz4_sys::LZ4F_decompress(
                    decoder.0,
                    chunk.as_mut_ptr(),
                    &mut dst_size,
                    framed[pos..].as_ptr(),
                    &mut src_size,
                    std::ptr::null(),
                ),
            }
        };
        out.extend_from_slice(&chunk[..dst_size]);
        pos += src_size;
        // SAFETY: a pure function of the code.
        if unsafe { lz4_sys::LZ4F_isError(hint) } != 0 {
            return None;
        }
        if hint == 0 {
            return (pos == framed.len()).then_some(out);
        }
        if src_size == 0 && dst_size == 0 {
            // The input ended inside the frame.
            return None;
        }
    }
}

impl Default for FrameDecoder {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for FrameDecoder {
    fn drop(&mut self) {
        // SAFETY: the context was created in `new` and is freed once.
        unsafe { lz4_sys::LZ4F_freeDecompressionContext(self.0) };
    }
}
