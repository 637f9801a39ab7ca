//! Helpers shared by the fuzz targets: liblz4 wrappers, a minimal LZ4 sequence parser (to classify
//! blocks independently of the decoder under test), and ways to turn fuzz bytes into parameters.

use std::os::raw::{c_char, c_int};

/// Largest output capacity the decode target asks for.
pub const MAX_CAP: usize = 1 << 20;

/// liblz4 `LZ4_decompress_safe` into a buffer of exactly `capacity` bytes; `None` when it rejects.
pub fn liblz4_decompress_safe(src: &[u8], capacity: usize) -> Option<Vec<u8>> {
    if src.len() > i32::MAX as usize || capacity > i32::MAX as usize {
        return None;
    }
    let mut out = vec![0u8; capacity];
    // SAFETY: both pointers are valid for the lengths passed; liblz4's safe decoder reads at most
    // `src.len()` bytes and writes at most `capacity` bytes.
    let n = unsafe {
        lz4_sys::LZ4_decompress_safe(
            src.as_ptr() as *const c_char,
            out.as_mut_ptr() as *mut c_char,
            src.len() as c_int,
            capacity as c_int,
        )
    };
    if n < 0 {
        return None;
    }
    out.truncate(n as usize);
    Some(out)
}

/// liblz4 `LZ4_compress_fast` into a bound-sized buffer. liblz4 clamps the acceleration itself
/// (below 1 counts as 1, above 65537 as 65537).
pub fn liblz4_compress_fast(src: &[u8], acceleration: c_int) -> Vec<u8> {
    assert!(src.len() <= i32::MAX as usize);
    // SAFETY: a pure function of its argument.
    let bound = unsafe { lz4_sys::LZ4_compressBound(src.len() as c_int) } as usize;
    let mut out = vec![0u8; bound.max(1)];
    // SAFETY: `src` is valid for `src.len()` bytes and `out` for `out.len()` bytes.
    let n = unsafe {
        lz4_sys::LZ4_compress_fast(
            src.as_ptr() as *const c_char,
            out.as_mut_ptr() as *mut c_char,
            src.len() as c_int,
            out.len() as c_int,
            acceleration,
        )
    };
    assert!(n > 0, "liblz4 failed to compress {} bytes", src.len());
    out.truncate(n as usize);
    out
}

/// What a block's sequences look like, as far as they can be parsed.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct BlockShape {
    /// Some sequence (parsed before any format error) has match offset 0.
    pub has_offset_zero: bool,
    /// The block parsed completely: it ends exactly after the literals of a sequence.
    pub complete: bool,
    /// Number of matches parsed.
    pub matches: usize,
    /// Literal length of the final sequence (when `complete`).
    pub last_literal_len: usize,
    /// Output position where the last match starts (when `matches > 0`).
    pub last_match_start: usize,
    /// Total decoded length (when `complete`).
    pub decoded_len: usize,
}

impl BlockShape {
    /// The block lacks the format's end-of-block margins: its last literal run is shorter than
    /// 5 bytes, or its last match starts less than 12 bytes before the end of the output.
    pub fn violates_end_margins(&self) -> bool {
        self.last_literal_len < 5
            || (self.matches > 0 && self.decoded_len - self.last_match_start < 12)
    }
}

fn read_extension(src: &[u8], ip: &mut usize, mut len: usize) -> Option<usize> {
    loop {
        let byte = *src.get(*ip)?;
        *ip += 1;
        len = len.checked_add(usize::from(byte))?;
        if byte != 255 {
            return Some(len);
        }
    }
}

/// Parses the sequences of `src` without decoding them (no offset or capacity checks other than
/// "offset is 0"). Stops at the first structural error (truncated length, literals past the
/// input, truncated offset, block ending after a match), leaving `complete` false.
pub fn parse_block(src: &[u8]) -> BlockShape {
    let mut shape = BlockShape::default();
    let mut ip = 0usize;
    let mut op = 0usize;
    while ip < src.len() {
        let token = src[ip];
        ip += 1;
        let mut literal_len = usize::from(token >> 4);
        if literal_len == 15 {
            match read_extension(src, &mut ip, literal_len) {
                Some(len) => literal_len = len,
                None => return shape,
            }
        }
        if literal_len > src.len() - ip {
            return shape;
        }
        ip += literal_len;
        op += literal_len;
        if ip == src.len() {
            shape.complete = true;
            shape.last_literal_len = literal_len;
            shape.decoded_len = op;
            return shape;
        }
        if src.len() - ip < 2 {
            return shape;
        }
        let offset = u16::from_le_bytes([src[ip], src[ip + 1]]);
        ip += 2;
        if offset == 0 {
            shape.has_offset_zero = true;
        }
        let mut match_len = usize::from(token & 15);
        if match_len == 15 {
            match read_extension(src, &mut ip, match_len) {
                Some(len) => match_len = len,
                None => return shape,
            }
        }
        shape.matches += 1;
        shape.last_match_start = op;
        op = match op.checked_add(match_len + 4) {
            Some(op) => op,
            None => return shape,
        };
    }
    shape
}

/// Reads fuzz bytes front to back.
pub struct Bytes<'a>(pub &'a [u8]);

impl<'a> Bytes<'a> {
    /// The next byte, or 0 once the input is exhausted.
    pub fn u8(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&byte, rest)) => {
                self.0 = rest;
                byte
            }
            None => 0,
        }
    }

    /// The next little-endian `u16` (missing bytes read as 0).
    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }

    /// Whatever is left.
    pub fn rest(self) -> &'a [u8] {
        self.0
    }
}

/// An acceleration from fuzz bytes, as the `c_int` liblz4 takes: mostly small values (where the
/// skip schedule differs), sometimes 0, negative, or beyond the clamp.
pub fn acceleration(bytes: &mut Bytes<'_>) -> c_int {
    let selector = bytes.u8();
    match selector {
        0..=199 => c_int::from(selector % 20),
        200..=239 => c_int::from(bytes.u16()),
        240..=247 => 65537 + c_int::from(bytes.u16()) - 32768,
        248..=251 => i32::MAX - c_int::from(bytes.u8()),
        _ => -c_int::from(bytes.u16()),
    }
}

/// Our API takes a `u32`; values liblz4 would see as < 1 map to 0 (both clamp them to 1).
pub fn acceleration_u32(acceleration: c_int) -> u32 {
    u32::try_from(acceleration).unwrap_or(0)
}

/// The input to compress, chosen by `mode`: the fuzz bytes themselves; or (with data) repeated
/// with a changing separator until past 65,547 bytes, so the `u32` table is used; or the data, 64 KiB
/// of zeros, and the data again, so candidates more than 65,535 bytes back are seen and skipped.
pub fn compress_input(data: &[u8], mode: u8) -> std::borrow::Cow<'_, [u8]> {
    const LARGE: usize = 65_547 + 4096;
    if data.is_empty() {
        return std::borrow::Cow::Borrowed(data);
    }
    match mode % 8 {
        6 => {
            let mut out = Vec::with_capacity(LARGE + data.len() + 1);
            let mut counter = 0u8;
            while out.len() < LARGE {
                out.extend_from_slice(data);
                out.push(counter);
                counter = counter.wrapping_add(1);
            }
            std::borrow::Cow::Owned(out)
        }
        7 => {
            let mut out = Vec::with_capacity(2 * data.len() + 65536);
            out.extend_from_slice(data);
            out.resize(data.len() + 65536, 0);
            out.extend_from_slice(data);
            std::borrow::Cow::Owned(out)
        }
        _ => std::borrow::Cow::Borrowed(data),
    }
}

/// The decode targets' input header (the layout `decode_block` reads): one selector byte whose
/// top two bits pick a capacity range and whose low six bits say where `dst` starts in its guard
/// buffer, then 1-3 capacity bytes. Returns `(capacity, front)`.
pub fn capacity_and_front(bytes: &mut Bytes<'_>) -> (usize, usize) {
    let selector = bytes.u8();
    let cap = match selector >> 6 {
        0 => usize::from(bytes.u8()),
        1 => usize::from(bytes.u16() & 0x0FFF),
        2 => usize::from(bytes.u16()),
        _ => (usize::from(bytes.u16()) | usize::from(bytes.u8()) << 16) % MAX_CAP,
    };
    (cap, usize::from(selector & 0x3F))
}

/// Bytes of guard buffer after `dst` that a decode must leave untouched.
pub const DST_GUARD: usize = 64;

/// Decodes `src` with `kernel` into `dst = buf[front..front + cap]` of a buffer filled with
/// `fill`, asserts that nothing outside `dst` changed and that the returned length is at most
/// `cap`, and returns the verdict and the decoded bytes (empty on error).
pub fn decode_guarded_with(
    kernel: lz4_simd::Kernel,
    src: &[u8],
    cap: usize,
    front: usize,
    fill: u8,
) -> (Result<usize, lz4_simd::Error>, Vec<u8>) {
    let mut buf = vec![fill; front + cap + DST_GUARD];
    let result = lz4_simd::block::decompress_into_with(kernel, src, &mut buf[front..front + cap]);
    assert!(
        buf[..front].iter().all(|&b| b == fill),
        "{kernel}: wrote before dst (front {front}, cap {cap})"
    );
    if let Some(at) = buf[front + cap..].iter().position(|&b| b != fill) {
        panic!("{kernel}: wrote {at} bytes past the end of dst (cap {cap}); result {result:?}");
    }
    match result {
        Ok(len) => {
            assert!(
                len <= cap,
                "{kernel}: returned length {len} > capacity {cap}"
            );
            (result, buf[front..front + len].to_vec())
        }
        Err(_) => (result, Vec::new()),
    }
}

/// A reader that hands out at most `chunk` bytes per call (exercises the streaming decoder's
/// partial reads).
pub struct Trickle<'a> {
    pub data: &'a [u8],
    pub chunk: usize,
}

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(self.chunk.max(1)).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// liblz4 `LZ4_compress_HC` at `level` into a bound-sized buffer (liblz4 clamps the level
/// itself: below 1 means 9, above 12 means 12). `src` must not be empty: liblz4 1.10's optimal
/// parser (levels 10-12) has no minimum-length guard and computes `end - 12` from the dangling
/// pointer of an empty slice.
pub fn liblz4_compress_hc(src: &[u8], level: c_int) -> Vec<u8> {
    assert!(!src.is_empty() && src.len() <= i32::MAX as usize);
    // SAFETY: a pure function of its argument.
    let bound = unsafe { lz4_sys::LZ4_compressBound(src.len() as c_int) } as usize;
    let mut out = vec![0u8; bound];
    // SAFETY: `src` is valid for `src.len()` bytes and `out` for `out.len()` bytes.
    let n = unsafe {
        lz4_sys::LZ4_compress_HC(
            src.as_ptr() as *const c_char,
            out.as_mut_ptr() as *mut c_char,
            src.len() as c_int,
            out.len() as c_int,
            level,
        )
    };
    assert!(n > 0, "liblz4 HC failed to compress {} bytes", src.len());
    out.truncate(n as usize);
    out
}

/// The match offsets of a complete block, in order (an incomplete block lists what parsed).
pub fn match_offsets(src: &[u8]) -> Vec<u16> {
    let mut offsets = Vec::new();
    let mut ip = 0usize;
    while ip < src.len() {
        let token = src[ip];
        ip += 1;
        let mut literal_len = usize::from(token >> 4);
        if literal_len == 15 {
            match read_extension(src, &mut ip, literal_len) {
                Some(len) => literal_len = len,
                None => break,
            }
        }
        if literal_len > src.len() - ip {
            break;
        }
        ip += literal_len;
        if src.len() - ip < 2 {
            break;
        }
        offsets.push(u16::from_le_bytes([src[ip], src[ip + 1]]));
        ip += 2;
        if token & 15 == 15 && read_extension(src, &mut ip, 15).is_none() {
            break;
        }
    }
    offsets
}
