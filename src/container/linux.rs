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
//! # Zero padding (initrds)
//!
//! Boot loaders pad and align every initrd they load, and the kernel reads lz4 initrds (legacy
//! frames) with that padding: its `unlz4`, on an image in memory, ends an image where a block
//! size is read and fewer than 4 bytes are left or the size is 0, and the initramfs loader then
//! skips zero bytes one by one and starts the next image at the next nonzero byte. [`decompress`]
//! (and the streaming decoders' option
//! [`FrameDecompressor::kernel_trailer`](crate::frame::FrameDecompressor::kernel_trailer))
//! accepts the same, where a legacy block size is read:
//!
//! - 1 to 3 bytes left that are all zeros: the end of the input;
//! - a block size of 0: zero padding, which runs to the end of the input or to the magic number
//!   of another legacy frame (another image, decoded after the first; its content follows);
//! - a legacy magic number with no padding continues the stream (as without the option).
//!
//! Whatever else follows padding is an error at its offset (a nonzero byte: `FrameBadMagic`,
//! which says that only zeros or a legacy frame may follow; 1 to 3 bytes left that are not all
//! zeros: `FrameTruncated`), as is fewer than 4 zeros before the next image (the kernel reads
//! them and the magic number as a block size). A block size of 0 in the middle of an image
//! ends it, so the blocks after it are an error. Where the kernel's `unlz4` alone ignores 1 to 3
//! bytes of any value, its initramfs loader accepts only zeros, and so does [`decompress`]:
//! nothing that is not padding is dropped. Only legacy frames follow padding: an LZ4 frame is
//! not a kernel image. A size trailer of 0 is indistinguishable from padding and reads as such.
//! Padding before the first image is not accepted. `lz4` 1.10.0 refuses all of this padding
//! (a block size of 0 is an empty block, which is invalid; 1 to 3 bytes cannot be a block
//! size), and so does [`frame::decompress`].
//!
//! ```
//! use lz4_simd::{container::linux, frame};
//! let image = b"vmlinux vmlinux vmlinux vmlinux".repeat(100);
//! let mut file = frame::compress_legacy(&image, 1);
//! file.extend_from_slice(&(image.len() as u32).to_le_bytes());
//! file.extend_from_slice(&[0; 12]);
//! assert!(frame::decompress(&file, 1 << 20).is_err());
//! assert_eq!(linux::decompress(&file, 1 << 20).unwrap(), image);
//!
//! // Two initrds, each padded to 4 KiB, as a boot loader loads them.
//! let first = frame::compress_legacy(b"first image", 1);
//! let mut initrds = first.clone();
//! initrds.resize(4096, 0);
//! initrds.extend_from_slice(&frame::compress_legacy(b", second image", 1));
//! initrds.resize(8192, 0);
//! assert!(frame::decompress(&initrds, 1 << 20).is_err());
//! assert_eq!(linux::decompress(&initrds, 1 << 20).unwrap(), b"first image, second image");
//! ```

use alloc::vec::Vec;

use crate::frame::{self, FrameHeader};
use crate::Error;

const NAME: &str = "linux kernel image";

/// Decodes a stream of frames that may end, after a legacy frame, with a little-endian `u32`
/// of the total decoded size and zero padding; the size must equal what was decoded. Legacy
/// frames may also be followed by zero padding, and more legacy frames after it, as the module
/// documentation describes. At most `max_out` bytes.
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
    // A stream without a trailer, with zero padding, or whose trailer is the content size
    // followed by zeros, as the streaming decoder's kernel option reads it.
    let whole = frame::decompress_kernel(src, max_out);
    if whole.is_ok() {
        return whole;
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
        // Content before the candidate that does not decode (zero padding, a damaged block):
        // the error of the whole stream says what and where.
        let Ok(out) = frame::decompress(&src[..end], max_out) else {
            break;
        };
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
    whole
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
