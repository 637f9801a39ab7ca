//! Helpers shared by the test files that call liblz4's block functions and ours side by side.

use std::os::raw::{c_char, c_int};

/// The length of a test buffer as a C `int` (test buffers are far below 2 GiB).
pub fn len(v: &[u8]) -> c_int {
    v.len() as c_int
}

/// A real address even for an empty input: liblz4's optimal HC parser (levels 10 to 12) reads a
/// few bytes at `src` when `srcSize` is 0.
pub fn cp(v: &[u8]) -> *const c_char {
    static SPARE: [u8; 64] = [0; 64];
    if v.is_empty() {
        SPARE.as_ptr()
    } else {
        v.as_ptr()
    }
    .cast()
}
