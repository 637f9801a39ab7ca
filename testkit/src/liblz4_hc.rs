//! liblz4's HC streams and HC dest-size as the oracle for [`HcStreamCompressor`],
//! [`HcCompressor::compress_into_with_prepared_dictionary`] and `compress_hc_dest_size`.
//!
//! [`HcStream`] fixes the C layout those are defined by (the `lz4` CLI's and LZ4F's for linked
//! blocks): each block copied into its own buffer, compressed with `LZ4_compress_HC_continue`,
//! then `LZ4_saveDictHC(stream, saved, 65536)` into a buffer of the stream's own.
//!
//! [`HcStreamCompressor`]: lz4_simd::block::HcStreamCompressor
//! [`HcCompressor::compress_into_with_prepared_dictionary`]: lz4_simd::block::HcCompressor::compress_into_with_prepared_dictionary

use std::os::raw::{c_char, c_int, c_void};

extern "C" {
    fn LZ4_createStreamHC() -> *mut c_void;
    fn LZ4_freeStreamHC(stream: *mut c_void) -> c_int;
    fn LZ4_setCompressionLevel(stream: *mut c_void, level: c_int);
    fn LZ4_favorDecompressionSpeed(stream: *mut c_void, favor: c_int);
    fn LZ4_loadDictHC(stream: *mut c_void, dict: *const c_char, dict_size: c_int) -> c_int;
    fn LZ4_compress_HC_continue(
        stream: *mut c_void,
        src: *const c_char,
        dst: *mut c_char,
        src_size: c_int,
        dst_capacity: c_int,
    ) -> c_int;
    fn LZ4_saveDictHC(stream: *mut c_void, safe_buffer: *mut c_char, max_dict_size: c_int)
        -> c_int;
    fn LZ4_sizeofStateHC() -> c_int;
    fn LZ4_resetStreamHC_fast(stream: *mut c_void, level: c_int);
    fn LZ4_attach_HC_dictionary(working: *mut c_void, dict_stream: *const c_void);
    fn LZ4F_createCDict(dict: *const c_void, dict_size: usize) -> *mut c_void;
    fn LZ4F_freeCDict(cdict: *mut c_void);
    fn LZ4F_compressFrame_usingCDict(
        ctx: lz4_sys::LZ4FCompressionContext,
        dst: *mut c_void,
        dst_capacity: usize,
        src: *const c_void,
        src_size: usize,
        cdict: *const c_void,
        preferences: *const lz4_sys::LZ4FPreferences,
    ) -> usize;
    fn LZ4_compress_HC_destSize(
        state: *mut c_void,
        src: *const c_char,
        dst: *mut c_char,
        src_size_ptr: *mut c_int,
        target_dst_size: c_int,
        level: c_int,
    ) -> c_int;
}

/// `len` as liblz4's `int`; panics when it does not fit (a test bug).
fn c_len(len: usize) -> c_int {
    c_int::try_from(len).unwrap_or_else(|_| panic!("{len} bytes is more than liblz4 takes"))
}

/// A heap copy of `bytes` in a buffer of its own (at least one byte, so that the pointer is
/// real and not adjacent to any other buffer's end).
fn own_buffer(bytes: &[u8]) -> Vec<u8> {
    let mut buffer = Vec::with_capacity(bytes.len() + 1);
    buffer.extend_from_slice(bytes);
    buffer
}

/// The history liblz4 saves after each block.
const SAVED: usize = 64 * 1024;

/// A liblz4 HC stream in the CLI's layout (see the module documentation).
pub struct HcStream {
    stream: *mut c_void,
    /// `LZ4_saveDictHC`'s buffer (with a spare byte, so no block buffer can start at its end).
    saved: Vec<u8>,
    /// The loaded dictionary, alive (and unmoved) until the first block has used it.
    _dict: Vec<u8>,
}

impl HcStream {
    /// A fresh stream at `level` (liblz4 clamps it), with `LZ4_favorDecompressionSpeed(favor)`.
    pub fn new(level: i32, favor: bool) -> Self {
        Self::build(level, favor, None)
    }

    /// A stream at `level` after `LZ4_loadDictHC(dict)` (then the favour option, which the
    /// load resets).
    pub fn with_dict(level: i32, favor: bool, dict: &[u8]) -> Self {
        Self::build(level, favor, Some(dict))
    }

    fn build(level: i32, favor: bool, dict: Option<&[u8]>) -> Self {
        // SAFETY: no preconditions; checked for NULL below.
        let stream = unsafe { LZ4_createStreamHC() };
        assert!(!stream.is_null(), "LZ4_createStreamHC failed");
        let load = dict.is_some();
        let dict = own_buffer(dict.unwrap_or(&[]));
        // SAFETY: `stream` is a live HC stream; `dict` is valid for its length and outlives the
        // stream's use of it (kept in the returned value).
        unsafe {
            LZ4_setCompressionLevel(stream, level);
            if load {
                LZ4_loadDictHC(stream, dict.as_ptr().cast(), c_len(dict.len()));
            }
            LZ4_favorDecompressionSpeed(stream, c_int::from(favor));
        }
        Self {
            stream,
            saved: vec![0u8; SAVED + 1],
            _dict: dict,
        }
    }

    /// `LZ4_favorDecompressionSpeed(favor)` between blocks.
    pub fn set_favor(&mut self, favor: bool) {
        // SAFETY: `stream` is a live HC stream.
        unsafe { LZ4_favorDecompressionSpeed(self.stream, c_int::from(favor)) };
    }

    /// `LZ4_compress_HC_continue` of a copy of `src` into `capacity` bytes, then
    /// `LZ4_saveDictHC(65536)`. `None` when liblz4 returned 0 (gave up).
    pub fn compress(&mut self, src: &[u8], capacity: usize) -> Option<Vec<u8>> {
        let input = own_buffer(src);
        let mut out = vec![0u8; capacity + 1];
        // SAFETY: `input` is valid for `src.len()` bytes, `out` for `capacity` (liblz4 writes at
        // most that); `saved` holds 64 KiB; `stream` is live.
        let written = unsafe {
            let written = LZ4_compress_HC_continue(
                self.stream,
                input.as_ptr().cast(),
                out.as_mut_ptr().cast(),
                c_len(src.len()),
                c_len(capacity),
            );
            LZ4_saveDictHC(self.stream, self.saved.as_mut_ptr().cast(), c_len(SAVED));
            written
        };
        assert_eq!(out[capacity], 0, "liblz4 wrote past the capacity");
        (written > 0).then(|| {
            out.truncate(written as usize);
            out
        })
    }
}

/// liblz4's HC prefix mode: `LZ4_loadDictHC(buffer[..history])` (nothing loaded when `history`
/// is 0), then `LZ4_compress_HC_continue` on the consecutive slices `buffer[history..cuts[0]]`,
/// `buffer[cuts[0]..cuts[1]]`, ... of one buffer, each into `capacity(index, len)` bytes, with
/// no `LZ4_saveDictHC` between them. `None` where liblz4 gave up.
pub fn prefix_blocks(
    level: i32,
    buffer: &[u8],
    history: usize,
    cuts: &[usize],
    capacity: impl Fn(usize, usize) -> usize,
) -> Vec<Option<Vec<u8>>> {
    let buffer = own_buffer(buffer);
    // SAFETY: no preconditions; checked for NULL below.
    let stream = unsafe { LZ4_createStreamHC() };
    assert!(!stream.is_null(), "LZ4_createStreamHC failed");
    // SAFETY: `stream` is live; `buffer[..history]` is valid and outlives the stream's use.
    unsafe {
        LZ4_setCompressionLevel(stream, level);
        if history > 0 {
            LZ4_loadDictHC(stream, buffer.as_ptr().cast(), c_len(history));
        }
    }
    let mut start = history;
    let mut blocks = Vec::new();
    for (index, &end) in cuts.iter().enumerate() {
        let cap = capacity(index, end - start);
        let mut out = vec![0u8; cap + 1];
        // SAFETY: `buffer[start..end]` is valid, `out` holds `cap` bytes and a canary; the
        // earlier slices stay in place (liblz4 reads them as the prefix).
        let written = unsafe {
            LZ4_compress_HC_continue(
                stream,
                buffer[start..].as_ptr().cast(),
                out.as_mut_ptr().cast(),
                c_len(end - start),
                c_len(cap),
            )
        };
        assert_eq!(out[cap], 0, "liblz4 wrote past the capacity");
        out.truncate(written.max(0) as usize);
        blocks.push((written > 0).then_some(out));
        start = end;
    }
    // SAFETY: created above, freed once.
    unsafe { LZ4_freeStreamHC(stream) };
    blocks
}

impl Drop for HcStream {
    fn drop(&mut self) {
        // SAFETY: created by `LZ4_createStreamHC`, freed once.
        unsafe { LZ4_freeStreamHC(self.stream) };
    }
}

/// `LZ4_loadDictHC(dict)` + one `LZ4_compress_HC_continue(src)` into `capacity` bytes (the
/// dictionary and the input in separate buffers).
pub fn compress_hc_with_dict(
    src: &[u8],
    dict: &[u8],
    level: i32,
    favor: bool,
    capacity: usize,
) -> Option<Vec<u8>> {
    HcStream::with_dict(level, favor, dict).compress(src, capacity)
}

/// `LZ4_compress_HC_destSize` at `level` into `capacity` bytes: `(consumed, block)`.
pub fn compress_hc_dest_size(src: &[u8], capacity: usize, level: i32) -> (usize, Vec<u8>) {
    // SAFETY: a pure query.
    let state_size = unsafe { LZ4_sizeofStateHC() } as usize;
    let mut state = vec![0u64; state_size.div_ceil(8)];
    let input = own_buffer(src);
    let mut out = vec![0u8; capacity + 1];
    let mut consumed = c_len(src.len());
    // SAFETY: `state` is 8-byte aligned and large enough; `input` is valid for `src.len()`
    // bytes, `out` for `capacity` (liblz4 writes at most that).
    let written = unsafe {
        LZ4_compress_HC_destSize(
            state.as_mut_ptr().cast(),
            input.as_ptr().cast(),
            out.as_mut_ptr().cast(),
            &mut consumed,
            c_len(capacity),
            level,
        )
    };
    assert_eq!(out[capacity], 0, "liblz4 wrote past the capacity");
    out.truncate(written.max(0) as usize);
    let consumed = if written > 0 { consumed as usize } else { 0 };
    (consumed, out)
}

/// A dictionary stream as LZ4F's CDict prepares it for the HC levels (`LZ4_initStreamHC`,
/// `LZ4_setCompressionLevel(9)`, `LZ4_loadDictHC`), for [`compress_hc_attached`].
pub struct HcDictStream(HcStream);

impl HcDictStream {
    pub fn new(dict: &[u8]) -> Self {
        Self(HcStream::with_dict(9, false, dict))
    }
}

/// What LZ4F does per independent block with a CDict: on a fresh working stream,
/// `LZ4_resetStreamHC_fast(level)`, `LZ4_attach_HC_dictionary(dict)`,
/// `LZ4_favorDecompressionSpeed(favor)`, then one `LZ4_compress_HC_continue` of a copy of
/// `src` into `capacity` bytes. `None` when liblz4 gave up.
pub fn compress_hc_attached(
    src: &[u8],
    dict: &HcDictStream,
    level: i32,
    favor: bool,
    capacity: usize,
) -> Option<Vec<u8>> {
    let mut working = HcStream::new(level, false);
    // SAFETY: both streams are live; the dictionary stream outlives this call, the only one
    // that uses the attachment.
    unsafe {
        LZ4_resetStreamHC_fast(working.stream, level);
        LZ4_attach_HC_dictionary(working.stream, dict.0.stream);
        LZ4_favorDecompressionSpeed(working.stream, c_int::from(favor));
    }
    working.compress(src, capacity)
}

/// `LZ4F_compressFrame_usingCDict` with a CDict of `dict` (what the `lz4` tool does with `-D`
/// for a file shorter than one block): the whole frame.
pub fn compress_frame_cdict(
    src: &[u8],
    dict: &[u8],
    preferences: &lz4_sys::LZ4FPreferences,
) -> Vec<u8> {
    let mut ctx = lz4_sys::LZ4FCompressionContext(std::ptr::null_mut());
    // SAFETY: creates a context, freed below.
    let code = unsafe { lz4_sys::LZ4F_createCompressionContext(&mut ctx, lz4_sys::LZ4F_VERSION) };
    // SAFETY: a pure query.
    let failed = unsafe { lz4_sys::LZ4F_isError(code) };
    assert_eq!(failed, 0, "LZ4F_createCompressionContext failed");
    // SAFETY: a live slice with its length; liblz4 copies what it keeps.
    let cdict = unsafe { LZ4F_createCDict(dict.as_ptr().cast(), dict.len()) };
    assert!(!cdict.is_null());
    let mut out = vec![0u8; src.len() + src.len() / 255 + 1024];
    let input = own_buffer(src);
    // SAFETY: live buffers with their lengths, a live context, CDict and preferences.
    let n = unsafe {
        LZ4F_compressFrame_usingCDict(
            ctx,
            out.as_mut_ptr().cast(),
            out.len(),
            input.as_ptr().cast(),
            src.len(),
            cdict,
            preferences,
        )
    };
    // SAFETY: a pure query.
    let failed = unsafe { lz4_sys::LZ4F_isError(n) };
    assert_eq!(failed, 0, "LZ4F_compressFrame_usingCDict failed");
    // SAFETY: created above, freed once.
    unsafe {
        lz4_sys::LZ4F_freeCompressionContext(ctx);
        LZ4F_freeCDict(cdict);
    }
    out.truncate(n);
    out
}

/// The frame the `lz4` tool (1.9.4's call pattern, liblz4 1.10's LZ4F) writes with `-D dict`
/// at HC `level`, 64 KiB blocks (`-B4`), linked (`-BD`) or not, `--favor-decSpeed` or not:
/// an input shorter than a block is one [`compress_frame_cdict`], a longer one one
/// `LZ4F_compressUpdate` per block.
pub fn lz4_tool_frame_with_dict(
    src: &[u8],
    dict: &[u8],
    level: u8,
    linked: bool,
    favor: bool,
) -> Vec<u8> {
    let mut preferences = crate::liblz4::frame_preferences();
    preferences.frame_info.block_size_id = lz4_sys::BlockSize::Max64KB;
    if linked {
        preferences.frame_info.block_mode = lz4_sys::BlockMode::Linked;
    }
    preferences.compression_level = u32::from(level);
    preferences.favor_dec_speed = u32::from(favor);
    if src.len() < 65_536 {
        compress_frame_cdict(src, dict, &preferences)
    } else {
        crate::liblz4::compress_frame_streaming(src, 65_536, Some(dict), &preferences)
    }
}
