//! Helpers shared by the fuzz targets: ways to turn fuzz bytes into parameters and inputs. liblz4,
//! the independent block parser and the guarded kernel decodes come from the test kit
//! (`testkit/`).

use std::os::raw::c_int;

pub mod stream_decode;

/// Largest output capacity the decode target asks for.
pub const MAX_CAP: usize = 1 << 20;

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
