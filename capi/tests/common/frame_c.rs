//! liblz4's frame compression and decompression functions, declared from lz4frame.h (lz4-sys
//! links the library), for the test files that compare them with ours: `#[path]`-included as
//! their module `c`.

#![allow(dead_code)]

use lz4_simd_capi::{LZ4F_compressOptions_t as COpts, LZ4F_preferences_t as Prefs};
use std::os::raw::{c_char, c_int, c_uint, c_void};
extern "C" {
    pub fn LZ4F_isError(code: usize) -> c_uint;
    pub fn LZ4F_compressFrameBound(n: usize, p: *const Prefs) -> usize;
    pub fn LZ4F_compressBound(n: usize, p: *const Prefs) -> usize;
    pub fn LZ4F_createCompressionContext(c: *mut *mut c_void, version: c_uint) -> usize;
    pub fn LZ4F_createCompressionContext_advanced(
        m: lz4_simd_capi::LZ4F_CustomMem,
        version: c_uint,
    ) -> *mut c_void;
    pub fn LZ4F_createDecompressionContext_advanced(
        m: lz4_simd_capi::LZ4F_CustomMem,
        version: c_uint,
    ) -> *mut c_void;
    pub fn LZ4F_freeCompressionContext(c: *mut c_void) -> usize;
    pub fn LZ4F_createCDict(dict: *const c_void, n: usize) -> *mut c_void;
    pub fn LZ4F_freeCDict(d: *mut c_void);
    pub fn LZ4F_compressFrame_usingCDict(
        c: *mut c_void,
        dst: *mut c_void,
        cap: usize,
        src: *const c_void,
        n: usize,
        cdict: *const c_void,
        p: *const Prefs,
    ) -> usize;
    pub fn LZ4F_compressBegin(
        c: *mut c_void,
        dst: *mut c_void,
        cap: usize,
        p: *const Prefs,
    ) -> usize;
    pub fn LZ4F_compressBegin_usingCDict(
        c: *mut c_void,
        dst: *mut c_void,
        cap: usize,
        cdict: *const c_void,
        p: *const Prefs,
    ) -> usize;
    pub fn LZ4F_compressBegin_usingDict(
        c: *mut c_void,
        dst: *mut c_void,
        cap: usize,
        dict: *const c_void,
        n: usize,
        p: *const Prefs,
    ) -> usize;
    pub fn LZ4F_compressUpdate(
        c: *mut c_void,
        dst: *mut c_void,
        cap: usize,
        src: *const c_void,
        n: usize,
        o: *const COpts,
    ) -> usize;
    pub fn LZ4F_uncompressedUpdate(
        c: *mut c_void,
        dst: *mut c_void,
        cap: usize,
        src: *const c_void,
        n: usize,
        o: *const COpts,
    ) -> usize;
    pub fn LZ4F_flush(c: *mut c_void, dst: *mut c_void, cap: usize, o: *const COpts) -> usize;
    pub fn LZ4F_compressEnd(c: *mut c_void, dst: *mut c_void, cap: usize, o: *const COpts)
        -> usize;
    pub fn LZ4F_createDecompressionContext(d: *mut *mut c_void, version: c_uint) -> usize;
    pub fn LZ4F_freeDecompressionContext(d: *mut c_void) -> usize;
    pub fn LZ4F_decompress_usingDict(
        d: *mut c_void,
        dst: *mut c_void,
        dst_size: *mut usize,
        src: *const c_void,
        src_size: *mut usize,
        dict: *const c_void,
        dict_size: usize,
        options: *const lz4_simd_capi::LZ4F_decompressOptions_t,
    ) -> usize;
    pub fn LZ4F_getErrorName(code: usize) -> *const c_char;
    pub fn LZ4F_getErrorCode(code: usize) -> c_int;
    pub fn LZ4F_getVersion() -> c_uint;
    pub fn LZ4F_compressionLevel_max() -> c_int;
    pub fn LZ4F_getBlockSize(id: c_uint) -> usize;
    pub fn LZ4F_headerSize(src: *const c_void, size: usize) -> usize;
    pub fn LZ4F_compressFrame(
        dst: *mut c_void,
        cap: usize,
        src: *const c_void,
        n: usize,
        p: *const Prefs,
    ) -> usize;
    pub fn LZ4F_resetDecompressionContext(d: *mut c_void);
    pub fn LZ4F_getFrameInfo(
        d: *mut c_void,
        info: *mut lz4_simd_capi::LZ4F_frameInfo_t,
        src: *const c_void,
        src_size: *mut usize,
    ) -> usize;
}
