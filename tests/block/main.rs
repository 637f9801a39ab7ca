//! The block format: the fast compressor and the block decoders, one module per concern, in one
//! test binary (one link of liblz4 and the test kit).
//!
//! - `vectors`: exact byte vectors.
//! - `differential`: compression and decoding against liblz4 1.10 (`lz4-sys`).
//! - `compressor_facts`: one test per decision of liblz4's fast compressor that shows in its
//!   output.
//! - `dest_size`: `block::compress_dest_size` against `LZ4_compress_destSize`.
//! - `decoder_api`: `block::Decoder` against the free functions and across kernels; the
//!   `LZ4_SIMD_KERNEL` override status, checked by re-running this binary
//!   (`decoder_api::override_status_child`).
//! - `partial`: `block::decompress_partial` against `LZ4_decompress_safe_partial`.
//! - `hostile`: malformed blocks, size-prefix checks before any allocation.
//! - `properties`: property tests (proptest).
//! - `dict`, `dict_prepared`, `ext_dict`: blocks with history: dictionaries given per call,
//!   prepared `Dictionary`s, dictionaries decoded in their own buffer.
//! - `edges`: dictionary messages around the 4 KiB table switch, `StreamDecoder` over a long
//!   stream with bad blocks, blocks ending in literal runs and short-offset matches.
//!
//! The binary installs `testkit::alloc::LargestAllocation` (it records the largest allocation per
//! thread and changes nothing else), which `hostile` measures with.

use testkit::alloc::LargestAllocation;

#[global_allocator]
static ALLOCATOR: LargestAllocation = LargestAllocation;

mod compressor_facts;
mod decoder_api;
mod dest_size;
mod dict;
mod dict_prepared;
mod differential;
mod edges;
mod ext_dict;
mod hostile;
mod partial;
mod properties;
mod vectors;
