//! The LZ4 frame format: what files, pipes and message brokers carry.
//!
//! A frame is a header (magic `04 22 4D 18`, a descriptor of flags, block maximum size and the
//! optional content size and dictionary ID, and a one-byte header checksum), a series of data
//! blocks (a 4-byte little-endian size whose high bit marks a block stored raw, the block, and an
//! optional xxh32 of the block's bytes), an end mark `00 00 00 00` and an optional xxh32 of the
//! whole content. Blocks are compressed independently, or *linked*: each may reference the
//! previous 64 KiB of content. Besides these, a stream may hold *skippable frames* (magic
//! `5X 2A 4D 18`, a 4-byte size and a payload decoders ignore) and *legacy frames* (magic
//! `02 21 4C 18`, the format of `lz4 -l`: blocks of 8 MiB behind 4-byte sizes, no checksums, no
//! end mark). Any mix of frames may be concatenated; the decoders here read them all as one
//! stream.
//!
//! - One-shot: [`compress`], [`compress_with_dictionary`], [`compress_legacy`],
//!   [`skippable_frame`], [`decompress`], [`decompress_with_dictionary`], [`read_frame_info`],
//!   [`frames`].
//! - Streaming (`std`): [`FrameEncoder`] (a `Write`; call [`FrameEncoder::finish`]) and
//!   [`FrameDecoder`] (a `Read` and `BufRead` whose memory is bounded by the block size, not the
//!   content size).
//!
//! [`FrameOptions::default`] matches the `lz4` command line tool: 4 MiB blocks, independent,
//! content checksum on, block checksums off, no content size; with these options (and the
//! default acceleration) [`compress`] writes the same bytes as `lz4 -1`.
//!
//! ```
//! use lz4_simd::frame::{self, FrameOptions, BlockSize};
//! let data = b"hello hello hello hello";
//! let options = FrameOptions::new().block_size(BlockSize::Max64KB).content_size(true);
//! let framed = frame::compress(data, &options);
//! assert_eq!(framed[..4], [0x04, 0x22, 0x4d, 0x18]);
//! assert_eq!(frame::decompress(&framed, 1 << 20).unwrap(), data);
//! ```
//!
//! # Frames on every core
//!
//! With the `parallel` feature, `compress_parallel` and `ParallelFrameEncoder` compress the
//! blocks of a frame on a pool of worker threads, with the bytes [`compress`] and
//! [`FrameEncoder`] write for the same options, whatever the thread count; and
//! `decompress_parallel` and `ParallelFrameDecoder` decode the blocks of independent-block
//! frames ahead on the workers, with the sequential decoders' content and errors. At most twice
//! as many blocks as threads are in flight. Linked blocks (`lz4 -BD`) depend on the compressor's
//! state after the block before them: they are compressed (and decoded) in order, one at a time.
//! The workers are a rayon pool per thread count (`0`: one per core), built on first use and
//! shared by every frame after it. Block buffers of finished frames are kept for the next ones
//! (up to 33 MiB for compression, 48 MiB for decompression), so that frames do not pay the page
//! faults of fresh memory each time; `release_parallel_buffers` gives them back.
//!
//! # Sans-IO
//!
//! [`FrameCompressor`] and [`FrameDecompressor`] are the frame encoder and decoder without I/O,
//! for `no_std` + `alloc`, async runtimes and any transport: [`FrameEncoder`], [`FrameDecoder`]
//! and the async adapters are these state machines plus a writer or a reader. The caller pushes
//! input and pulls output, in slices of any size.
//!
//! The compressor's memory is bounded by one block of input (plus the block compressors' own
//! history of linked blocks and dictionaries) and one block of output, whatever the content size.
//! A whole block handed in at once, with nothing gathered before it, is compressed where it is
//! (no copy), and straight into the caller's output when that holds the block stored raw (the
//! compress bound's room at the HC levels): no staging buffer, no copy out.
//!
//! [`FrameDecompressor::decompress`] takes what it can of `input`, writes what it can into
//! `output`, and says how much of each it used and what it needs next. Memory is bounded as for
//! the streaming decoder: one unit of input (at most a block and its checksum: 4 MiB + 4 bytes,
//! 8 MiB for legacy frames) and one block of content with its 64 KiB of history, whatever the
//! content size; nothing is allocated from a size field beyond the frame's block size. Input is
//! copied only when a unit (a header, a block) straddles two calls; a unit whole in `input` is
//! decoded from it in place. Adapters that read into the decompressor's own buffer
//! ([`input_space`](FrameDecompressor::input_space) and
//! [`input_filled`](FrameDecompressor::input_filled)) copy nothing, as the blocking decoder does.
//!
//! # Async runtimes
//!
//! `AsyncFrameDecoder` (an `AsyncRead`) and `AsyncFrameEncoder` (an `AsyncWrite` whose shutdown /
//! close finishes the frame) implement the traits of tokio (feature `tokio`, module
//! `frame::tokio`) and of `futures-io` (feature `futures-io`, module `frame::futures`: the
//! `futures` crate family, smol, async-std), on the sans-IO types above: the frame logic, the
//! bytes, the checks and the errors (with their input offsets) are the blocking adapters'.
//!
//! The decoder reads each unit of input (a header, a block) straight into the decompressor's
//! buffer, and the encoder writes compressed bytes straight from the compressor's, as the
//! blocking adapters do. They are cancellation-safe: a poll that returns `Pending`, or a future
//! dropped before it completes, loses no byte and repeats none (a partly read unit stays in the
//! decompressor; output the writer did not take stays in the compressor), so the adapter may be
//! used again. An error of the inner reader or writer is returned as it is and the call may be
//! retried; an error in the data is latched.
//!
//! # What the decoder checks
//!
//! Everything the format lets it: the magic, the version, reserved bits, the block size code, the
//! header checksum, every block's size against the declared maximum, block checksums and the
//! content checksum when present, the declared content size, the dictionary ID, and the caller's
//! output cap (a declared content size above it is refused before anything is decoded). Nothing
//! is allocated from a size field beyond the caller's cap and the frame's block size.

#![forbid(unsafe_code)]

#[cfg(any(feature = "tokio", feature = "futures-io"))]
mod asynchronous;
mod codec;
mod compressor;
mod decode;
mod decompressor;
mod encode;
mod header;
#[cfg(feature = "parallel")]
mod parallel;
#[cfg(feature = "std")]
mod read;
#[cfg(feature = "std")]
mod write;

#[cfg(feature = "futures-io")]
#[cfg_attr(docsrs, doc(cfg(feature = "futures-io")))]
pub use asynchronous::futures;
#[cfg(feature = "tokio")]
#[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
pub use asynchronous::tokio;
#[cfg(any(feature = "tokio", feature = "futures-io"))]
#[cfg_attr(docsrs, doc(cfg(any(feature = "tokio", feature = "futures-io"))))]
pub use asynchronous::{AsyncFrameDecoder, AsyncFrameEncoder};
pub use compressor::FrameCompressor;
/// The one-shot form of the kernel option, for `container::linux`.
#[cfg(feature = "containers")]
pub(crate) use decode::decompress_kernel;
pub use decode::{
    decompress, decompress_with_any_dictionary, decompress_with_dictionary, frames, Frame, Frames,
};
pub use decompressor::{FrameDecompressor, Progress, Status};
pub use encode::{
    compress, compress_bound, compress_into, compress_into_with_prepared_dictionary,
    compress_legacy, compress_with_dictionary, compress_with_prepared_dictionary, skippable_frame,
};
pub use header::{read_frame_header, read_frame_info, FrameHeader, FrameInfo};
#[cfg(feature = "parallel")]
#[cfg_attr(docsrs, doc(cfg(feature = "parallel")))]
pub use parallel::{
    compress_parallel, compress_parallel_with_dictionary, decompress_parallel,
    decompress_parallel_with_dictionary, release_parallel_buffers, ParallelFrameDecoder,
    ParallelFrameEncoder,
};
/// Shared with the containers' `std::io` adapters.
#[cfg(all(feature = "std", feature = "containers"))]
pub(crate) use read::read_buffered;
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub use read::FrameDecoder;
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub use write::{AutoFinishEncoder, FrameEncoder};

/// An [`Error`](crate::Error) as the `io::Error` the streaming adapters return (`get_ref` /
/// `into_inner` + `downcast` give it back).
#[cfg(feature = "std")]
fn io_error(error: crate::Error) -> std::io::Error {
    use crate::Error;
    use std::io::ErrorKind;
    let kind = match error {
        Error::FrameTruncated { .. } => ErrorKind::UnexpectedEof,
        Error::InvalidArgument { .. } | Error::FrameContentSizeMismatch { .. } => {
            ErrorKind::InvalidInput
        }
        // The output could not grow (`read_to_end`'s `Vec`, or a buffer within a cap).
        Error::AllocationFailed { .. } => ErrorKind::OutOfMemory,
        _ => ErrorKind::InvalidData,
    };
    std::io::Error::new(kind, error)
}

/// Magic number of an LZ4 frame (bytes `04 22 4D 18`).
pub const MAGIC: u32 = 0x184D_2204;
/// The lowest skippable-frame magic number; the low 4 bits are free (`0x184D2A50`..=`0x184D2A5F`).
pub const SKIPPABLE_MAGIC: u32 = 0x184D_2A50;
/// Magic number of a legacy frame (bytes `02 21 4C 18`), as `lz4 -l` writes.
pub const LEGACY_MAGIC: u32 = 0x184C_2102;
/// Every block of a legacy frame but the last decodes to exactly this many bytes (8 MiB).
pub const LEGACY_BLOCK_SIZE: usize = 8 << 20;
/// A data block size word with this bit set holds the block's bytes stored raw.
pub(crate) const STORED_FLAG: u32 = 0x8000_0000;

/// The largest size a block of a frame may decode to (BD byte, bits 6-4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum BlockSize {
    /// 64 KiB (code 4).
    Max64KB,
    /// 256 KiB (code 5).
    Max256KB,
    /// 1 MiB (code 6).
    Max1MB,
    /// 4 MiB (code 7), the `lz4` tool's default.
    #[default]
    Max4MB,
}

impl BlockSize {
    /// The sizes in increasing order.
    pub const ALL: [BlockSize; 4] = [
        BlockSize::Max64KB,
        BlockSize::Max256KB,
        BlockSize::Max1MB,
        BlockSize::Max4MB,
    ];

    /// The size in bytes.
    pub const fn bytes(self) -> usize {
        match self {
            BlockSize::Max64KB => 64 << 10,
            BlockSize::Max256KB => 256 << 10,
            BlockSize::Max1MB => 1 << 20,
            BlockSize::Max4MB => 4 << 20,
        }
    }

    /// The code stored in the BD byte (4-7).
    pub const fn code(self) -> u8 {
        match self {
            BlockSize::Max64KB => 4,
            BlockSize::Max256KB => 5,
            BlockSize::Max1MB => 6,
            BlockSize::Max4MB => 7,
        }
    }

    /// The size for a BD code, if it is one of 4-7.
    pub const fn from_code(code: u8) -> Option<BlockSize> {
        match code {
            4 => Some(BlockSize::Max64KB),
            5 => Some(BlockSize::Max256KB),
            6 => Some(BlockSize::Max1MB),
            7 => Some(BlockSize::Max4MB),
            _ => None,
        }
    }
}

/// Whether blocks may reference the content of the blocks before them (FLG bit 5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum BlockMode {
    /// Every block decodes on its own (the `lz4` tool's default; blocks can be decoded in
    /// parallel or skipped).
    #[default]
    Independent,
    /// Each block may reference the previous 64 KiB of content (`lz4 -BD`): better ratio on
    /// small blocks, sequential decoding only.
    Linked,
}

/// Frame encoding options: a builder whose [`Default`] matches the `lz4` command line tool
/// (4 MiB blocks, independent, content checksum, no block checksums, no content size,
/// acceleration 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameOptions {
    pub(crate) block_size: BlockSize,
    pub(crate) block_mode: BlockMode,
    pub(crate) content_checksum: bool,
    pub(crate) block_checksum: bool,
    pub(crate) content_size: Option<u64>,
    pub(crate) dict_id: Option<u32>,
    pub(crate) acceleration: u32,
    pub(crate) hc_level: Option<u8>,
    pub(crate) favor_dec_speed: bool,
}

impl Default for FrameOptions {
    fn default() -> Self {
        Self {
            block_size: BlockSize::Max4MB,
            block_mode: BlockMode::Independent,
            content_checksum: true,
            block_checksum: false,
            content_size: None,
            dict_id: None,
            acceleration: 1,
            hc_level: None,
            favor_dec_speed: false,
        }
    }
}

impl FrameOptions {
    /// The defaults (see [`FrameOptions`]).
    pub fn new() -> Self {
        Self::default()
    }

    /// The block maximum size.
    pub fn block_size(mut self, block_size: BlockSize) -> Self {
        self.block_size = block_size;
        self
    }

    /// Independent or linked blocks.
    pub fn block_mode(mut self, block_mode: BlockMode) -> Self {
        self.block_mode = block_mode;
        self
    }

    /// Whether to append an xxh32 of the whole content (default on).
    pub fn content_checksum(mut self, on: bool) -> Self {
        self.content_checksum = on;
        self
    }

    /// Whether to follow every block with an xxh32 of its bytes (default off).
    pub fn block_checksum(mut self, on: bool) -> Self {
        self.block_checksum = on;
        self
    }

    /// Whether the header records the content size. The one-shot [`compress`] fills in the
    /// input's length; a [`FrameEncoder`] needs the size up front
    /// ([`FrameOptions::declared_content_size`]).
    pub fn content_size(mut self, on: bool) -> Self {
        self.content_size = if on { Some(0) } else { None };
        self
    }

    /// Records `size` as the content size (for streaming, where the encoder cannot know it; the
    /// encoder fails at [`FrameEncoder::finish`] if a different amount was written). `None`
    /// leaves the size out.
    pub fn declared_content_size(mut self, size: Option<u64>) -> Self {
        self.content_size = size;
        self
    }

    /// The dictionary ID to write in the header (`None`: no ID). The dictionary's bytes are
    /// given to [`compress_with_dictionary`] / [`FrameEncoder::with_dictionary`]; the decoder
    /// checks the ID against the one it is given.
    pub fn dict_id(mut self, dict_id: Option<u32>) -> Self {
        self.dict_id = dict_id;
        self
    }

    /// The block compressor's acceleration (1 = default ratio; larger is faster; values are
    /// clamped to `1..=65537`). `lz4 --fast=N` corresponds to acceleration `N + 1`.
    pub fn acceleration(mut self, acceleration: u32) -> Self {
        self.acceleration = acceleration.clamp(1, crate::block::ACCELERATION_MAX);
        self
    }

    /// Compress blocks with LZ4 HC at `level` (2-12 as liblz4: 0 means 9, above 12 means 12;
    /// `lz4 -9` is level 9) instead of the fast compressor; `None` (the default) uses the fast
    /// compressor at [`FrameOptions::acceleration`]. Linked HC blocks use the previous 64 KiB
    /// as history, as with the fast compressor.
    pub fn hc_level(mut self, level: Option<u8>) -> Self {
        self.hc_level = level;
        self
    }

    /// With an HC level of 10 or more: avoid offsets below 8 and short long-match extensions,
    /// trading about 1% of ratio for faster decoding (liblz4's `favorDecSpeed`).
    pub fn favor_dec_speed(mut self, on: bool) -> Self {
        self.favor_dec_speed = on;
        self
    }
}
