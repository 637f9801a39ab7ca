//! # lz4-simd
//!
//! An implementation of the [LZ4] compression format built for hot storage paths: a fast
//! compressor whose output is byte-identical to liblz4's `LZ4_compress_fast` at every
//! acceleration, and a decoder that no hostile input can crash, make read or write outside its
//! slices, or make allocate beyond the caller's cap.
//!
//! [LZ4]: https://github.com/lz4/lz4/blob/dev/doc/lz4_Block_format.md
//!
//! ```
//! let data = b"hello hello hello hello, lz4-simd says hello".repeat(10);
//! let block = lz4_simd::block::compress(&data).unwrap();
//! let back = lz4_simd::block::decompress(&block, data.len()).unwrap();
//! assert_eq!(back, data);
//! ```
//!
//! ## Safety model
//!
//! - The block decoder's reference path (the careful loop in `block::reference`) is safe Rust,
//!   short, and is the oracle every faster path is tested against; the tuned scalar decoder
//!   ([`Kernel::Scalar`], and the decoder of the build without `unsafe`) is safe Rust too.
//! - Every use of `unsafe` lives behind the cargo feature `unsafe` (on by default). With the
//!   feature off the crate is `#![forbid(unsafe_code)]`, and every API still works, on the safe
//!   paths.
//! - The SIMD decode kernels ([`Kernel`]) share one fast loop that checks every sequence before
//!   it copies anything and hands the block's end (and anything suspicious) to the reference
//!   decoder's careful loop, so their verdicts and output are the reference decoder's.
//! - Bad input gets an [`Error`] naming what was wrong and at which input offset, never a panic.
//!   No allocation is sized from a length field in untrusted data beyond the caller's cap, and a
//!   size the allocator refuses (or a 32-bit target cannot address) is an error, not a panic.
//! - The library never prints. What became of the `LZ4_SIMD_KERNEL` override is
//!   [`Kernel::override_status`], for the application to report.
//!
//! ## Layers
//!
//! `kernel` (CPU detection, the [`Kernel`] value, copy primitives, tables) is the bottom and
//! knows nothing above it; [`block`] (the block format, its decoders and compressors) uses it;
//! [`frame`] uses `block`; [`container`] (feature `containers`) uses both.
//!
//! ## API map
//!
//! Tiered as liblz4's API is (`lz4.h`: simple functions, then advanced and streaming ones).
//!
//! **Simple: one call, one buffer.**
//! - Blocks (raw LZ4, no header: the caller keeps the decompressed size):
//!   [`block::compress`] / [`block::decompress`] (`LZ4_compress_default` /
//!   `LZ4_decompress_safe`).
//! - Frames (the `.lz4` file format, self-describing, checksummed): [`frame::compress`] /
//!   [`frame::decompress`] (`LZ4F_compressFrame` / `LZ4F_decompress`, the `lz4` tool's bytes).
//!
//! **Advanced: control over memory, speed and ratio.**
//! - State reused across calls, no allocation per call: [`block::Compressor`] and
//!   [`block::Decoder`] (a chosen decode kernel: [`block::Decoder::with_kernel`]).
//! - The caller's buffers: the `_into` forms ([`block::compress_into`],
//!   [`block::decompress_into`], [`block::decompress_into_uninit`], [`frame::compress_into`]),
//!   [`block::decompress_append`], [`block::compress_dest_size`] (fill a fixed-size output).
//! - Speed against ratio: [`block::compress_fast`] (acceleration), and the high-compression
//!   levels [`block::compress_hc`], [`block::HcCompressor`] (`LZ4_compress_HC`).
//! - Dictionaries (small inputs that look alike): [`block::Dictionary`] /
//!   [`block::HcDictionary`] prepared once, [`block::compress_with_dictionary`],
//!   [`block::decompress_with_dictionary`], [`frame::compress_with_prepared_dictionary`],
//!   [`frame::decompress_with_dictionary`].
//! - Partial decode (a prefix of a block, work proportional to it): [`block::decompress_partial`].
//! - Inspecting frames without decoding them: [`frame::read_frame_info`], [`frame::frames`].
//!
//! **Streaming: data larger than memory, or arriving in pieces.**
//! - `std::io`: [`frame::FrameEncoder`] (a `Write`; call [`frame::FrameEncoder::finish`]) and
//!   [`frame::FrameDecoder`] (a `Read` / `BufRead`), memory bounded by the block size.
//! - Without I/O (sans-IO, `no_std` + `alloc`, any transport): [`frame::FrameCompressor`] and
//!   [`frame::FrameDecompressor`], push input, pull output.
//! - Async (features `tokio`, `futures-io`): [`frame::AsyncFrameEncoder`] and
//!   [`frame::AsyncFrameDecoder`], named `FrameEncoder` / `FrameDecoder` in [`frame::tokio`] and
//!   [`frame::futures`].
//! - Linked blocks without frames (`LZ4_compress_fast_continue` /
//!   `LZ4_decompress_safe_continue`): [`block::StreamCompressor`],
//!   [`block::HcStreamCompressor`], [`block::StreamDecoder`].
//!
//! **Parallel (feature `parallel`): frames on every core**, the sequential functions' bytes:
//! [`frame::compress_parallel`], [`frame::decompress_parallel`], [`frame::ParallelFrameEncoder`],
//! [`frame::ParallelFrameDecoder`].
//!
//! **Containers (feature `containers`, default): LZ4 inside other systems' formats**:
//! [`container::hadoop`] (Hadoop, Spark), [`container::parquet`], [`container::kafka`],
//! [`container::java`] (lz4-java's `LZ4BlockOutputStream`), [`container::prefixed`] (Cassandra,
//! RocksDB), [`container::clickhouse`], [`container::linux`] (kernel images).
//!
//! ## Naming
//!
//! Every function name is a verb, then where the output goes if not to a new `Vec`, then
//! `_with_` and the extra input if there is one, always last. Destinations: `_into` (the
//! caller's slice), `_into_uninit`, `_append`, `_partial`; `_contiguous_into` writes into the
//! caller's slice a block of input that follows the previous block in the same buffer. The extra input is the history the
//! data may reference: `_with_dictionary` takes a dictionary's bytes (`&[u8]`),
//! `_with_prepared_dictionary` a dictionary prepared once ([`block::Dictionary`],
//! [`block::HcDictionary`]), `_with_history` history in front of the input in the same buffer.
//! Hence [`block::decompress_into_with_dictionary`],
//! [`block::Compressor::compress_into_with_prepared_dictionary`] and
//! [`frame::compress_with_prepared_dictionary`]. A decode kernel is chosen in one place,
//! [`block::Decoder::with_kernel`]; encoders take default options in `new` and others in
//! `with_options` (the HC stream compressor takes its level in `new`, as liblz4's HC stream is
//! reset with one). No function returns an empty or zero result for input it cannot handle: that
//! is an [`Error`] (an input above [`block::MAX_INPUT_SIZE`] is [`Error::InputTooLarge`]).
//!
//! ## Features
//! - `std` (default): `std::error::Error` for [`Error`], the `std::io` frame adapters, the
//!   `LZ4_SIMD_KERNEL` override. Without it the crate is `no_std` + `alloc`: the block API and the
//!   one-shot frame API work as with it, and the x86 kernels are detected without `std` (see
//!   [`Kernel`]).
//! - `unsafe` (default): the fast paths that need `unsafe`, among them the SIMD kernels; on
//!   `wasm32` the `simd128` kernel when built with `-C target-feature=+simd128`.
//! - `containers` (default): [`container`], LZ4 inside Hadoop, Parquet, Kafka, lz4-java (Spark),
//!   size-prefixed blocks (Cassandra, RocksDB), ClickHouse and Linux kernel images.
//! - `parallel`: frames compressed and decoded on a pool of worker threads (rayon).
//! - `tokio`, `futures-io`: the async frame adapters on either runtime's traits.
//!

// The API map's links to items of features that are off lead to docs.rs.
#![cfg_attr(
    not(feature = "tokio"),
    doc = "[`frame::tokio`]: https://docs.rs/lz4-simd/latest/lz4_simd/frame/tokio/index.html"
)]
#![cfg_attr(
    not(feature = "futures-io"),
    doc = "[`frame::futures`]: https://docs.rs/lz4-simd/latest/lz4_simd/frame/futures/index.html"
)]
#![cfg_attr(
    not(any(feature = "tokio", feature = "futures-io")),
    doc = "[`frame::AsyncFrameEncoder`]: https://docs.rs/lz4-simd/latest/lz4_simd/frame/struct.AsyncFrameEncoder.html"
)]
#![cfg_attr(
    not(any(feature = "tokio", feature = "futures-io")),
    doc = "[`frame::AsyncFrameDecoder`]: https://docs.rs/lz4-simd/latest/lz4_simd/frame/struct.AsyncFrameDecoder.html"
)]
#![cfg_attr(
    not(feature = "parallel"),
    doc = "[`frame::compress_parallel`]: https://docs.rs/lz4-simd/latest/lz4_simd/frame/fn.compress_parallel.html"
)]
#![cfg_attr(
    not(feature = "parallel"),
    doc = "[`frame::decompress_parallel`]: https://docs.rs/lz4-simd/latest/lz4_simd/frame/fn.decompress_parallel.html"
)]
#![cfg_attr(
    not(feature = "parallel"),
    doc = "[`frame::ParallelFrameEncoder`]: https://docs.rs/lz4-simd/latest/lz4_simd/frame/struct.ParallelFrameEncoder.html"
)]
#![cfg_attr(
    not(feature = "parallel"),
    doc = "[`frame::ParallelFrameDecoder`]: https://docs.rs/lz4-simd/latest/lz4_simd/frame/struct.ParallelFrameDecoder.html"
)]
#![cfg_attr(not(feature = "std"), no_std)]
// docs.rs (`--cfg docsrs`, nightly) labels the items each feature gates.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![cfg_attr(not(feature = "unsafe"), forbid(unsafe_code))]
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks, clippy::missing_safety_doc)]
#![warn(missing_docs)]

extern crate alloc;

pub mod block;
#[cfg(feature = "containers")]
#[cfg_attr(docsrs, doc(cfg(feature = "containers")))]
pub mod container;
mod error;
pub mod frame;
mod kernel;

pub use error::{Error, ErrorKind};
pub use kernel::{Kernel, KernelOverride, KERNEL_ENV};

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
