//! liblz4 (1.10, built by `lz4-sys`) as the oracle: block compression (fast, HC, with a
//! dictionary), block decompression (safe, partial, with a dictionary) and the frame API (LZ4F: compress,
//! decompress, decompress with a dictionary).
//!
//! Functions `lz4-sys` does not bind are declared here from `lz4.h` / `lz4frame.h`. Sizes liblz4
//! takes as `int` are checked before the call: a larger input is a test bug, not an error case.

use std::marker::PhantomData;
use std::os::raw::{c_char, c_int, c_void};

extern "C" {
    fn LZ4_decompress_safe_partial(
        src: *const c_char,
        dst: *mut c_char,
        src_size: c_int,
        target_output_size: c_int,
        dst_capacity: c_int,
    ) -> c_int;
    fn LZ4_decompress_safe_usingDict(
        src: *const c_char,
        dst: *mut c_char,
        src_size: c_int,
        dst_capacity: c_int,
        dict: *const c_char,
        dict_size: c_int,
    ) -> c_int;
    fn LZ4_createStream() -> *mut c_void;
    fn LZ4_freeStream(stream: *mut c_void) -> c_int;
    fn LZ4_resetStream_fast(stream: *mut c_void);
    fn LZ4_attach_dictionary(working: *mut c_void, dict_stream: *const c_void);
    fn LZ4_loadDict(stream: *mut c_void, dict: *const c_char, dict_size: c_int) -> c_int;
    fn LZ4_loadDictSlow(stream: *mut c_void, dict: *const c_char, dict_size: c_int) -> c_int;
    fn LZ4_saveDict(stream: *mut c_void, safe_buffer: *mut c_char, max_dict_size: c_int) -> c_int;
    fn LZ4F_createCDict(dict: *const c_void, dict_size: usize) -> *mut c_void;
    fn LZ4F_freeCDict(cdict: *mut c_void);
    fn LZ4F_compressBegin_usingCDict(
        ctx: lz4_sys::LZ4FCompressionContext,
        dst: *mut c_void,
        dst_capacity: usize,
        cdict: *const c_void,
        preferences: *const lz4_sys::LZ4FPreferences,
    ) -> usize;
    fn LZ4_compress_fast_continue(
        stream: *mut c_void,
        src: *const c_char,
        dst: *mut c_char,
        src_size: c_int,
        dst_capacity: c_int,
        acceleration: c_int,
    ) -> c_int;
    fn LZ4_compress_destSize(
        src: *const c_char,
        dst: *mut c_char,
        src_size_ptr: *mut c_int,
        target_dst_size: c_int,
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

/// A real address for `bytes`, even when it is empty (liblz4 wants one even when it reads
/// nothing, and some of its paths compute `end - n` from the pointer).
fn real_ptr(bytes: &[u8]) -> *const c_char {
    static ONE: [u8; 1] = [0];
    if bytes.is_empty() {
        ONE.as_ptr().cast()
    } else {
        bytes.as_ptr().cast()
    }
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

/// `LZ4_decompress_safe_partial(src, dst, src.len(), target, target)`: the first `target` bytes
/// of the block into a buffer of exactly `target` bytes; `None` when liblz4 rejects the block.
pub fn decompress_partial(src: &[u8], target: usize) -> Option<Vec<u8>> {
    let mut out = vec![0u8; target];
    let n = decompress_partial_into(src, &mut out)?;
    out.truncate(n);
    Some(out)
}

/// [`decompress_partial`] into `dst` (target = capacity = `dst.len()`): the length decoded.
pub fn decompress_partial_into(src: &[u8], dst: &mut [u8]) -> Option<usize> {
    // SAFETY: `src` is valid for its length and `dst` for its length; liblz4 writes only below
    // `dst_capacity = dst.len()`.
    let n = unsafe {
        LZ4_decompress_safe_partial(
            src.as_ptr().cast(),
            dst.as_mut_ptr().cast(),
            int(src.len()),
            int(dst.len()),
            int(dst.len()),
        )
    };
    usize::try_from(n).ok()
}

/// `LZ4_decompress_safe_usingDict` into a buffer of exactly `capacity` bytes; `None` when liblz4
/// rejects the block.
pub fn decompress_with_dictionary(block: &[u8], dict: &[u8], capacity: usize) -> Option<Vec<u8>> {
    let mut out = vec![0u8; capacity];
    let n = decompress_with_dict_into(block, dict, &mut out)?;
    out.truncate(n);
    Some(out)
}

/// [`decompress_with_dictionary`] into `dst`: the length decoded.
pub fn decompress_with_dict_into(block: &[u8], dict: &[u8], dst: &mut [u8]) -> Option<usize> {
    // SAFETY: all pointers come from live slices with their lengths; liblz4 reads at most
    // `block.len()` and `dict.len()` bytes and writes at most `dst.len()`.
    let n = unsafe {
        LZ4_decompress_safe_usingDict(
            block.as_ptr().cast(),
            dst.as_mut_ptr().cast(),
            int(block.len()),
            int(dst.len()),
            dict.as_ptr().cast(),
            int(dict.len()),
        )
    };
    usize::try_from(n).ok()
}

/// A liblz4 compression stream (`LZ4_createStream`), freed on drop. `'d` is the lifetime of the
/// dictionary loaded with [`Stream::with_dict`].
pub struct Stream<'d> {
    raw: *mut c_void,
    _dict: PhantomData<&'d [u8]>,
}

impl<'d> Stream<'d> {
    /// A fresh stream (`LZ4_createStream`).
    pub fn new() -> Self {
        // SAFETY: no preconditions; checked for null below.
        let raw = unsafe { LZ4_createStream() };
        assert!(!raw.is_null(), "LZ4_createStream failed");
        Stream {
            raw,
            _dict: PhantomData,
        }
    }

    /// A fresh stream with `dict` loaded (`LZ4_loadDict`).
    pub fn with_dict(dict: &'d [u8]) -> Self {
        let stream = Self::new();
        // SAFETY: a live stream and a live slice with its length (a real address when empty);
        // `'d` keeps `dict` alive as long as the stream.
        unsafe { LZ4_loadDict(stream.raw, real_ptr(dict), int(dict.len())) };
        stream
    }

    /// A fresh stream with `dict` loaded by 1.10's `LZ4_loadDictSlow` (every position).
    pub fn with_dict_slow(dict: &'d [u8]) -> Self {
        let stream = Self::new();
        // SAFETY: as in `with_dict`.
        unsafe { LZ4_loadDictSlow(stream.raw, real_ptr(dict), int(dict.len())) };
        stream
    }

    /// A fresh stream with `dict_stream` attached (`LZ4_attach_dictionary`); `'d` keeps the
    /// dictionary stream (and its bytes) alive as long as this one.
    pub fn attached(dict_stream: &'d Stream<'_>) -> Self {
        let stream = Self::new();
        // SAFETY: both streams are live; `'d` keeps the dictionary stream alive and unmoved (it
        // is behind liblz4's own allocation) while this stream may read it.
        unsafe { LZ4_attach_dictionary(stream.raw, dict_stream.raw) };
        stream
    }

    /// `LZ4_saveDict(stream, buf, buf.len())`: the number of bytes saved. The stream reads `buf`
    /// as its history afterwards, so `buf` must stay alive and unmoved until the next save or
    /// the stream's end (the callers keep it in a `Box` beside the stream).
    pub fn save_dict(&mut self, buf: &mut [u8]) -> usize {
        // SAFETY: a live stream and a live buffer with its length; liblz4 writes at most
        // `buf.len()` bytes into it.
        let n = unsafe { LZ4_saveDict(self.raw, buf.as_mut_ptr().cast(), int(buf.len())) };
        n as usize
    }

    /// `LZ4_compress_fast_continue` into `dst` (its full length is the capacity): the compressed
    /// length, 0 when it does not fit. Earlier inputs (and saved dictionaries) must still be
    /// alive and unmoved: liblz4 reads them as history; an input right after the previous one in
    /// memory is compressed in prefix mode.
    pub fn compress(&mut self, src: &[u8], dst: &mut [u8], acceleration: i32) -> usize {
        // SAFETY: a live stream; `src` is valid for its length and `dst` for its length; liblz4
        // writes at most `dst.len()`. An empty `src` keeps its own address (an empty slice of a
        // buffer is where prefix mode expects it; liblz4 reads nothing from it, it only compares
        // it with the history's end).
        let n = unsafe {
            LZ4_compress_fast_continue(
                self.raw,
                src.as_ptr().cast(),
                dst.as_mut_ptr().cast(),
                int(src.len()),
                int(dst.len()),
                acceleration,
            )
        };
        assert!(n >= 0, "LZ4_compress_fast_continue returned {n}");
        n as usize
    }
}

impl Default for Stream<'_> {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for Stream<'_> {
    fn drop(&mut self) {
        // SAFETY: created by `LZ4_createStream` in `new`, freed once.
        unsafe { LZ4_freeStream(self.raw) };
    }
}

/// The `lz4` tool's linked-block stream: every input copied into a buffer of its own, compressed
/// by `LZ4_compress_fast_continue`, then `LZ4_saveDict(64 KiB)` into a saved-history buffer.
pub struct SavingStream<'d> {
    stream: Stream<'d>,
    saved: Box<[u8]>,
}

impl<'d> SavingStream<'d> {
    /// Around a fresh, loaded or attached [`Stream`].
    pub fn new(stream: Stream<'d>) -> Self {
        SavingStream {
            stream,
            saved: vec![0u8; 65536].into_boxed_slice(),
        }
    }

    /// Compresses a copy of `src` into `dst` (its length is the capacity; 0 when liblz4 gives
    /// up), then saves the history.
    pub fn compress(&mut self, src: &[u8], dst: &mut [u8], acceleration: i32) -> usize {
        let own = src.to_vec();
        let n = self.stream.compress(&own, dst, acceleration);
        self.stream.save_dict(&mut self.saved);
        n
    }

    /// [`compress`](Self::compress) without the copy: `src` must be a buffer of its own (not
    /// right after the saved history, which a separately allocated buffer never is).
    pub fn compress_from(&mut self, src: &[u8], dst: &mut [u8], acceleration: i32) -> usize {
        let n = self.stream.compress(src, dst, acceleration);
        self.stream.save_dict(&mut self.saved);
        n
    }

    /// [`Stream::compress`] on `src` where it is, without saving: slices of one live buffer,
    /// consecutive, give liblz4's prefix mode (the saved history stays in use until then).
    pub fn compress_in_place(&mut self, src: &[u8], dst: &mut [u8], acceleration: i32) -> usize {
        self.stream.compress(src, dst, acceleration)
    }
}

/// A liblz4 stream decoder (`LZ4_createStreamDecode`), freed on drop. It remembers pointers into
/// the earlier outputs: the callers keep them alive and unmoved.
pub struct StreamDecode(*mut lz4_sys::LZ4StreamDecode);

impl StreamDecode {
    /// A fresh decoder, with `dict` as the history before the first block (`LZ4_setStreamDecode`;
    /// liblz4 keeps the pointer, so `dict` must outlive the decoder's use).
    pub fn new(dict: &[u8]) -> Self {
        // SAFETY: no preconditions; checked for null below.
        let raw = unsafe { lz4_sys::LZ4_createStreamDecode() };
        assert!(!raw.is_null(), "LZ4_createStreamDecode failed");
        // SAFETY: a live decoder and a live slice with its length.
        unsafe { lz4_sys::LZ4_setStreamDecode(raw, real_ptr(dict).cast(), int(dict.len())) };
        StreamDecode(raw)
    }

    /// `LZ4_decompress_safe_continue(src, dst, src.len(), dst.len())`: the decoded length, or
    /// `None` when liblz4 rejects the block.
    pub fn decompress(&mut self, src: &[u8], dst: &mut [u8]) -> Option<usize> {
        // SAFETY: a live decoder; `src` and `dst` are live slices with their lengths (a real
        // address for an empty `src`); earlier outputs are kept alive by the caller.
        let n = unsafe {
            lz4_sys::LZ4_decompress_safe_continue(
                self.0,
                real_ptr(src).cast(),
                dst.as_mut_ptr().cast(),
                int(src.len()),
                int(dst.len()),
            )
        };
        usize::try_from(n).ok()
    }
}

impl Drop for StreamDecode {
    fn drop(&mut self) {
        // SAFETY: created in `new`, freed once.
        unsafe { lz4_sys::LZ4_freeStreamDecode(self.0) };
    }
}

/// A frame written as the `lz4` tool 1.9.4 writes a file of two blocks or more: one LZ4F
/// context, `LZ4F_compressBegin_usingCDict` (with a CDict of `dict` when given: 1.10's, whose
/// fast levels load it with `LZ4_loadDictSlow`), one `LZ4F_compressUpdate` per `chunk` bytes
/// (no stable source, so linked blocks save their history), `LZ4F_compressEnd`.
pub fn compress_frame_streaming(
    src: &[u8],
    chunk: usize,
    dict: Option<&[u8]>,
    preferences: &lz4_sys::LZ4FPreferences,
) -> Vec<u8> {
    let ops: Vec<FrameOp<'_>> = src.chunks(chunk.max(1)).map(FrameOp::Update).collect();
    compress_frame_ops(&ops, dict, preferences)
}

/// One call on an LZ4F compression context (see [`compress_frame_ops`]).
#[derive(Clone, Copy, Debug)]
pub enum FrameOp<'a> {
    /// `LZ4F_compressUpdate` with these bytes (copied into a buffer of their own first, so no
    /// input is contiguous with the last; no stable source).
    Update(&'a [u8]),
    /// `LZ4F_flush`.
    Flush,
}

/// The updates the `std::io` frame encoder makes of writes of `write_len` bytes (the last one
/// shorter) of `data`: each `write` takes what completes the current block of `block_len`
/// bytes, at most, and is one `LZ4F_compressUpdate` of it.
pub fn updates_of_writes(data: &[u8], write_len: usize, block_len: usize) -> Vec<FrameOp<'_>> {
    let mut updates = Vec::new();
    for (index, chunk) in data.chunks(write_len.max(1)).enumerate() {
        let mut at = index * write_len.max(1);
        let end = at + chunk.len();
        while at < end {
            let take = (end - at).min(block_len - at % block_len);
            updates.push(FrameOp::Update(&data[at..at + take]));
            at += take;
        }
    }
    updates
}

/// A frame written by one LZ4F context: `LZ4F_compressBegin_usingCDict` (with a CDict of `dict`
/// when given), then `ops` in order, then `LZ4F_compressEnd`. Each update's bytes are copied
/// into a buffer of their own first (as the tool's read buffer), so no input is contiguous with
/// the last.
pub fn compress_frame_ops(
    ops: &[FrameOp<'_>],
    dict: Option<&[u8]>,
    preferences: &lz4_sys::LZ4FPreferences,
) -> Vec<u8> {
    let mut ctx = lz4_sys::LZ4FCompressionContext(std::ptr::null_mut());
    // SAFETY: creates a context, freed below.
    let code = unsafe { lz4_sys::LZ4F_createCompressionContext(&mut ctx, lz4_sys::LZ4F_VERSION) };
    check_frame_code(code, "LZ4F_createCompressionContext");
    let cdict = match dict {
        // SAFETY: a live slice with its length; liblz4 copies what it keeps.
        Some(dict) => unsafe { LZ4F_createCDict(dict.as_ptr().cast(), dict.len()) },
        None => std::ptr::null_mut(),
    };
    // The largest update's bound (which counts a buffered block), and the header's room.
    let largest = ops
        .iter()
        .map(|op| match op {
            FrameOp::Update(piece) => piece.len(),
            FrameOp::Flush => 0,
        })
        .max()
        .unwrap_or(0);
    // SAFETY: a pure function of its arguments; `preferences` outlives the call.
    let bound = unsafe { lz4_sys::LZ4F_compressBound(largest, preferences) };
    let mut out = Vec::new();
    let mut buf = vec![0u8; bound + 64];
    run_frame(
        ctx,
        cdict,
        &mut buf,
        ops.iter().copied(),
        true,
        preferences,
        &mut out,
    );
    // SAFETY: created above, freed once; the context no longer uses the CDict.
    unsafe {
        lz4_sys::LZ4F_freeCompressionContext(ctx);
        if !cdict.is_null() {
            LZ4F_freeCDict(cdict);
        }
    }
    out
}

/// Writes one frame with the context `ctx` onto `out`: `LZ4F_compressBegin_usingCDict` (`cdict`
/// may be null), `ops` in order, `LZ4F_compressEnd`. `buf` is the output room of every call (at
/// least `LZ4F_compressBound` of the largest update, plus the header's); with `copy_updates`
/// each update is first copied into a buffer of its own.
fn run_frame<'a>(
    ctx: lz4_sys::LZ4FCompressionContext,
    cdict: *mut core::ffi::c_void,
    buf: &mut [u8],
    ops: impl IntoIterator<Item = FrameOp<'a>>,
    copy_updates: bool,
    preferences: &lz4_sys::LZ4FPreferences,
    out: &mut Vec<u8>,
) {
    // SAFETY: a live context, a buffer with its length, a CDict (or null) and the preferences.
    let n = unsafe {
        LZ4F_compressBegin_usingCDict(ctx, buf.as_mut_ptr().cast(), buf.len(), cdict, preferences)
    };
    check_frame_code(n, "LZ4F_compressBegin_usingCDict");
    out.extend_from_slice(&buf[..n]);
    let mut own = Vec::new();
    for op in ops {
        let n = match op {
            FrameOp::Update(mut piece) => {
                if copy_updates {
                    own.clear();
                    own.extend_from_slice(piece);
                    piece = &own;
                }
                // SAFETY: live buffers with their lengths; null options.
                let n = unsafe {
                    lz4_sys::LZ4F_compressUpdate(
                        ctx,
                        buf.as_mut_ptr(),
                        buf.len(),
                        piece.as_ptr(),
                        piece.len(),
                        std::ptr::null(),
                    )
                };
                check_frame_code(n, "LZ4F_compressUpdate");
                n
            }
            FrameOp::Flush => {
                // SAFETY: a live context and buffer with its length; null options.
                let n = unsafe {
                    lz4_sys::LZ4F_flush(ctx, buf.as_mut_ptr(), buf.len(), std::ptr::null())
                };
                check_frame_code(n, "LZ4F_flush");
                n
            }
        };
        out.extend_from_slice(&buf[..n]);
    }
    // SAFETY: as above.
    let n =
        unsafe { lz4_sys::LZ4F_compressEnd(ctx, buf.as_mut_ptr(), buf.len(), std::ptr::null()) };
    check_frame_code(n, "LZ4F_compressEnd");
    out.extend_from_slice(&buf[..n]);
}

/// A reused LZ4F compression context and output buffer, writing whole frames with one
/// `LZ4F_compressUpdate` per `chunk` bytes taken straight from the source: LZ4F's streaming API
/// at its cheapest (no context, buffer or copy of the input per frame), the comparison for a
/// reused streaming encoder.
pub struct FrameStream {
    ctx: lz4_sys::LZ4FCompressionContext,
    buf: Vec<u8>,
}

impl FrameStream {
    pub fn new() -> Self {
        let mut ctx = lz4_sys::LZ4FCompressionContext(std::ptr::null_mut());
        // SAFETY: creates a context, freed on drop.
        let code =
            unsafe { lz4_sys::LZ4F_createCompressionContext(&mut ctx, lz4_sys::LZ4F_VERSION) };
        check_frame_code(code, "LZ4F_createCompressionContext");
        Self {
            ctx,
            buf: Vec::new(),
        }
    }

    /// Appends the frame of `src` to `out`.
    pub fn compress(
        &mut self,
        src: &[u8],
        chunk: usize,
        preferences: &lz4_sys::LZ4FPreferences,
        out: &mut Vec<u8>,
    ) {
        let bound = compress_frame_bound(chunk.max(1), preferences) + 64;
        if self.buf.len() < bound {
            self.buf = vec![0u8; bound];
        }
        let ops = src.chunks(chunk.max(1)).map(FrameOp::Update);
        run_frame(
            self.ctx,
            std::ptr::null_mut(),
            &mut self.buf,
            ops,
            false,
            preferences,
            out,
        );
    }
}

impl Default for FrameStream {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for FrameStream {
    fn drop(&mut self) {
        // SAFETY: created in `new`, freed once.
        unsafe { lz4_sys::LZ4F_freeCompressionContext(self.ctx) };
    }
}

/// A working stream for liblz4's attached-dictionary path, as LZ4F uses it per block. It only
/// compresses through [`Working::compress_attached`], which resets it and attaches the dictionary
/// stream first: the pointer to that stream it keeps afterwards is never used again.
pub struct Working(Stream<'static>);

impl Working {
    pub fn new() -> Self {
        Working(Stream::new())
    }

    /// `LZ4_resetStream_fast`, `LZ4_attach_dictionary(dict_stream)`, then
    /// [`Stream::compress`]: the compressed length, 0 when it does not fit.
    pub fn compress_attached(
        &mut self,
        dict_stream: &Stream<'_>,
        src: &[u8],
        dst: &mut [u8],
        acceleration: i32,
    ) -> usize {
        // SAFETY: both streams are live and the dictionary stream (and its bytes) outlive the
        // call; after it, this stream is only reset and re-attached before any other use.
        unsafe {
            LZ4_resetStream_fast(self.0.raw);
            LZ4_attach_dictionary(self.0.raw, dict_stream.raw);
        }
        self.0.compress(src, dst, acceleration)
    }
}

impl Default for Working {
    fn default() -> Self {
        Self::new()
    }
}

/// `LZ4_loadDict` + `LZ4_compress_fast_continue` on a fresh stream into a destination of `cap`
/// bytes: `None` when it does not fit. The input is copied into its own buffer first, so it never
/// sits right after the dictionary (which would be liblz4's prefix mode, not extDict).
pub fn compress_with_dict_cap(
    src: &[u8],
    dict: &[u8],
    acceleration: i32,
    cap: usize,
) -> Option<Vec<u8>> {
    let own_src = src.to_vec();
    let mut out = vec![0u8; cap.max(1)];
    let n = Stream::with_dict(dict).compress(&own_src, &mut out[..cap], acceleration);
    (n > 0).then(|| {
        out.truncate(n);
        out
    })
}

/// `src` compressed at acceleration 1 by a stream that loaded `dict` (`LZ4_loadDict`, then
/// `LZ4_compress_fast_continue`).
pub fn compress_with_dictionary(src: &[u8], dict: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; compress_bound(src.len()) + 16];
    let n = Stream::with_dict(dict).compress(src, &mut out, 1);
    assert!(n > 0, "liblz4 failed to compress with a dictionary");
    out.truncate(n);
    out
}

/// `LZ4_compress_destSize` into a destination of `cap` bytes: (consumed, written, the block).
/// Consumed is 0 when nothing was written.
pub fn compress_dest_size(src: &[u8], cap: usize) -> (usize, usize, Vec<u8>) {
    let mut out = vec![0u8; cap.max(1)];
    let mut consumed = int(src.len());
    // SAFETY: `src` is valid for its length (a real address when empty), `out` for at least
    // `cap` bytes, and `consumed` is a live int; liblz4 writes at most `cap` bytes.
    let written = unsafe {
        LZ4_compress_destSize(
            real_ptr(src),
            out.as_mut_ptr().cast(),
            &mut consumed,
            int(cap),
        )
    };
    assert!(written >= 0, "LZ4_compress_destSize returned {written}");
    let written = written as usize;
    let consumed = if written == 0 { 0 } else { consumed as usize };
    out.truncate(written);
    (consumed, written, out)
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

/// [`frame_preferences`] with the block size code `block_code` (4-7), linked or independent
/// blocks, and the fast level of `acceleration` (LZ4F's level `1 - acceleration`; lz4-sys types
/// the level unsigned, so it is passed as its two's complement).
pub fn fast_frame_preferences(
    block_code: u8,
    linked: bool,
    acceleration: u32,
) -> lz4_sys::LZ4FPreferences {
    let mut preferences = frame_preferences();
    preferences.frame_info.block_size_id = match block_code {
        4 => lz4_sys::BlockSize::Max64KB,
        5 => lz4_sys::BlockSize::Max256KB,
        6 => lz4_sys::BlockSize::Max1MB,
        _ => lz4_sys::BlockSize::Max4MB,
    };
    if linked {
        preferences.frame_info.block_mode = lz4_sys::BlockMode::Linked;
    }
    preferences.compression_level = (1 - acceleration as i32) as u32;
    preferences
}

/// LZ4F's preferences (`LZ4F_preferences_t`), for tests that do not depend on lz4-sys.
pub type FramePreferences = lz4_sys::LZ4FPreferences;

/// Turns block checksums on or off in `preferences`.
pub fn set_block_checksum(preferences: &mut lz4_sys::LZ4FPreferences, on: bool) {
    preferences.frame_info.block_checksum_flag = if on {
        lz4_sys::BlockChecksum::BlockChecksumEnabled
    } else {
        lz4_sys::BlockChecksum::NoBlockChecksum
    };
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

/// The content size `LZ4F_getFrameInfo` reports for the frame header at the start of `framed`
/// (0: the header records none, or records 0, which liblz4 reads as unknown), or `None` when
/// liblz4 rejects the header.
pub fn frame_info_content_size(framed: &[u8]) -> Option<u64> {
    let decoder = FrameDecoder::new();
    let mut info = frame_preferences().frame_info;
    let mut src_size = framed.len();
    // SAFETY: the context is live (dropped after the call); `framed` is valid for `src_size`
    // bytes; `info` is a writable frame descriptor.
    let code =
        unsafe { lz4_sys::LZ4F_getFrameInfo(decoder.0, &mut info, framed.as_ptr(), &mut src_size) };
    // SAFETY: a pure function of the code.
    (unsafe { lz4_sys::LZ4F_isError(code) } == 0).then_some(info.content_size)
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
