//! The frame API's exported functions (`LZ4F_*`), called through their C signatures, against
//! liblz4 1.10 (lz4-sys): same return values, same error codes and names.

use std::ffi::CStr;
use std::os::raw::{c_int, c_uint, c_void};
use std::ptr;

use lz4_simd_capi as ours;
// Links liblz4 (lz4-sys, through the test kit).
extern crate testkit;

/// liblz4's frame functions, declared from lz4frame.h (lz4-sys links the library).
mod c {
    use std::os::raw::{c_char, c_int, c_uint, c_void};
    extern "C" {
        pub fn LZ4F_isError(code: usize) -> c_uint;
        pub fn LZ4F_getErrorName(code: usize) -> *const c_char;
        pub fn LZ4F_getErrorCode(code: usize) -> c_int;
        pub fn LZ4F_getVersion() -> c_uint;
        pub fn LZ4F_compressionLevel_max() -> c_int;
        pub fn LZ4F_getBlockSize(id: c_uint) -> usize;
        pub fn LZ4F_headerSize(src: *const c_void, size: usize) -> usize;
    }
}

/// Results around every error code, sizes and the ends of the `size_t` range.
fn results() -> Vec<usize> {
    let mut v: Vec<usize> = (0..40).collect();
    v.extend((0..40).map(|k: usize| usize::MAX - k));
    v.extend([
        1 << 20,
        4 << 20,
        1 << 40,
        usize::MAX / 2,
        usize::MAX / 2 + 1,
    ]);
    v
}

fn name(p: *const std::os::raw::c_char) -> String {
    assert!(!p.is_null());
    // SAFETY: both libraries return pointers to static NUL-terminated strings.
    unsafe { CStr::from_ptr(p) }.to_str().unwrap().to_owned()
}

#[test]
fn errors_as_liblz4() {
    let mut names = 0;
    for r in results() {
        // SAFETY: liblz4's functions take any value.
        let (is, n, code) = unsafe {
            (
                c::LZ4F_isError(r),
                name(c::LZ4F_getErrorName(r)),
                c::LZ4F_getErrorCode(r),
            )
        };
        assert_eq!(ours::LZ4F_isError(r), is, "isError {r:#x}");
        assert_eq!(name(ours::LZ4F_getErrorName(r)), n, "getErrorName {r:#x}");
        assert_eq!(ours::LZ4F_getErrorCode(r), code, "getErrorCode {r:#x}");
        names += usize::from(is != 0);
    }
    assert_eq!(names, 23, "codes 1 to 23 are errors");
    assert_eq!(
        name(ours::LZ4F_getErrorName(usize::MAX - 12)),
        "ERROR_frameType_unknown"
    );
    assert_eq!(name(ours::LZ4F_getErrorName(0)), "Unspecified error code");
}

#[test]
fn version_and_sizes_as_liblz4() {
    // SAFETY: functions of no argument.
    unsafe {
        assert_eq!(ours::LZ4F_getVersion(), c::LZ4F_getVersion());
        assert_eq!(ours::LZ4F_getVersion(), 100);
        assert_eq!(
            ours::LZ4F_compressionLevel_max(),
            c::LZ4F_compressionLevel_max()
        );
    }
    for id in (0..20).chain([c_uint::MAX, 0x8000_0004, 0x104]) {
        // SAFETY: any value is a valid argument.
        let theirs = unsafe { c::LZ4F_getBlockSize(id) };
        assert_eq!(ours::LZ4F_getBlockSize(id), theirs, "block size id {id}");
    }
}

/// Frame headers: every combination of the flags liblz4 writes, skippable magics, wrong magics
/// and random bytes, whole and cut short.
fn headers() -> Vec<Vec<u8>> {
    let mut v = Vec::new();
    for flg in [
        0x40u8, 0x60, 0x64, 0x68, 0x69, 0x41, 0x7D, 0x49, 0xFF, 0x00, 0x42, 0x80,
    ] {
        let mut h = vec![0x04, 0x22, 0x4D, 0x18, flg, 0x70];
        h.extend([0xAB; 13]);
        v.push(h);
    }
    for low in [0x50u8, 0x5F, 0x5A, 0x4F, 0x60] {
        v.push(vec![low, 0x2A, 0x4D, 0x18, 4, 0, 0, 0, 1, 2, 3, 4]);
    }
    v.push(vec![0x02, 0x21, 0x4C, 0x18, 0, 0, 0, 0]);
    v.push(vec![0x05, 0x22, 0x4D, 0x18, 0x64, 0x70, 0xB9]);
    let mut seed = 0x9E37_79B9u32;
    for _ in 0..64 {
        let mut h = vec![0x04, 0x22, 0x4D, 0x18];
        for _ in 0..15 {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            h.push((seed >> 16) as u8);
        }
        v.push(h);
    }
    v
}

#[test]
fn header_size_as_liblz4() {
    for h in headers() {
        for len in 0..=h.len() {
            // SAFETY: `h[..len]` is readable.
            let theirs = unsafe { c::LZ4F_headerSize(h.as_ptr().cast(), len) };
            // SAFETY: as above.
            let mine = unsafe { ours::LZ4F_headerSize(h.as_ptr().cast(), len) };
            assert_eq!(mine, theirs, "{h:02x?} cut at {len}");
        }
    }
    // SAFETY: a null source is checked before it is read, by both.
    unsafe {
        assert_eq!(
            ours::LZ4F_headerSize(ptr::null::<c_void>(), 19),
            c::LZ4F_headerSize(ptr::null(), 19)
        );
        assert_eq!(
            ours::LZ4F_getErrorCode(ours::LZ4F_headerSize(ptr::null(), 0)),
            15 as c_int // ERROR_srcPtr_wrong
        );
    }
}
