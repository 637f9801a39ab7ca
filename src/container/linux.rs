//! Linux kernel images compressed with LZ4 (`CONFIG_KERNEL_LZ4`, and initramfs images).
//!
//! The kernel build compresses with `lz4 -l` (legacy frames) and then appends the size of the
//! uncompressed image as a little-endian `u32` (the `size_append` step of the build); images
//! may also carry zero padding after it. The kernel's `unlz4` accepts both, while `lz4` 1.9.4
//! fails there with an error. [`decompress`] accepts such a trailer, followed by any number of
//! zero bytes, when it equals the size that was decoded; input without a trailer decodes as
//! [`frame::decompress`] decodes it. The trailer is accepted only after a legacy frame: this is
//! the option that a caller (the CLI for legacy input) turns on by calling this function
//! instead of [`frame::decompress`].
//!
//! ```
//! use lz4_simd::{container::linux, frame};
//! let image = b"vmlinux vmlinux vmlinux vmlinux".repeat(100);
//! let mut file = frame::compress_legacy(&image, 1);
//! file.extend_from_slice(&(image.len() as u32).to_le_bytes());
//! file.extend_from_slice(&[0; 12]);
//! assert!(frame::decompress(&file, 1 << 20).is_err());
//! assert_eq!(linux::decompress(&file, 1 << 20).unwrap(), image);
//! ```

use alloc::vec::Vec;

use crate::frame::{self, FrameHeader};
use crate::Error;

const NAME: &str = "linux kernel image";

/// Decodes a stream of frames that may end, after a legacy frame, with a little-endian `u32`
/// of the total decoded size and zero padding; the size must equal what was decoded. At most
/// `max_out` bytes.
///
/// # Examples
///
/// ```
/// use lz4_simd::{container::linux, frame};
/// let image = b"vmlinux vmlinux vmlinux vmlinux".repeat(100);
/// // `lz4 -l`, then the kernel build's size trailer.
/// let mut file = frame::compress_legacy(&image, 1);
/// file.extend_from_slice(&(image.len() as u32).to_le_bytes());
/// assert_eq!(linux::decompress(&file, 1 << 20)?, image);
/// # Ok::<(), lz4_simd::Error>(())
/// ```
pub fn decompress(src: &[u8], max_out: usize) -> Result<Vec<u8>, Error> {
    // A stream without a trailer (or whose trailer and padding happen to parse as a block).
    let whole = frame::frames(src)
        .all(|frame| frame.is_ok())
        .then(|| frame::decompress(src, max_out));
    if let Some(Ok(out)) = whole {
        return Ok(out);
    }
    // The trailer holds the last nonzero byte of the input (only zeros follow it), unless the
    // size is 0: it starts 1 to 4 bytes before the end of the nonzero content.
    let content_end = src
        .iter()
        .rposition(|&byte| byte != 0)
        .map_or(0, |last| last + 1);
    let first = content_end.saturating_sub(4);
    let last = content_end.min(src.len().saturating_sub(4));
    for end in (first..=last).rev() {
        if !ends_with_legacy_frame(&src[..end]) {
            continue;
        }
        let trailer = u32::from_le_bytes([src[end], src[end + 1], src[end + 2], src[end + 3]]);
        let out = frame::decompress(&src[..end], max_out)?;
        if out.len() as u64 != u64::from(trailer) {
            return Err(Error::ContainerSizeMismatch {
                container: NAME,
                input_pos: end as u64,
                declared: u64::from(trailer),
                actual: out.len() as u64,
            });
        }
        return Ok(out);
    }
    whole.unwrap_or_else(|| frame::decompress(src, max_out))
}

/// Whether `src` is a whole stream of frames whose last frame is a legacy frame.
fn ends_with_legacy_frame(src: &[u8]) -> bool {
    let mut last_is_legacy = false;
    for frame in frame::frames(src) {
        match frame {
            Ok(frame) => last_is_legacy = frame.header == FrameHeader::Legacy,
            Err(_) => return false,
        }
    }
    last_is_legacy
}
