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
//! ## Naming
//!
//! Every function name is a verb, then where the output goes if not to a new `Vec`, then
//! `_with_` and the extra input if there is one, always last. Destinations: `_into` (the
//! caller's slice), `_into_uninit`, `_append`, `_partial`. The extra input is the history the
//! data may reference: `_with_dictionary` takes a dictionary's bytes (`&[u8]`),
//! `_with_prepared_dictionary` a dictionary prepared once ([`block::Dictionary`],
//! [`block::HcDictionary`]), `_with_history` history in front of the input in the same buffer.
//! Hence [`block::decompress_into_with_dictionary`],
//! [`block::Compressor::compress_into_with_prepared_dictionary`] and
//! [`frame::compress_with_prepared_dictionary`]. A decode kernel is chosen in one place,
//! [`block::Decoder::with_kernel`]; encoders take default options in `new` and others in
//! `with_options`. No function returns an empty or zero result for input it cannot handle: that
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
