//! The frame format (sequential encoders and decoders), one module per concern, in one test
//! binary.
//!
//! - `format`: exact vectors, every option round-tripping, skippable and legacy frames,
//!   dictionaries, every error, corruption sweeps.
//! - `content_size_zero`: a header declaring content size 0 over real content, in every decoder.
//! - `concat`, `content_hash`, `failures`, `fused_checksum`, `into`, `kernel_trailer`, `reset`:
//!   concatenated frames, the content checksum of large blocks, failing readers and writers,
//!   the fused checksum, `frame::compress_into`, kernel-image trailers, reused encoders.
//! - `sans_io`, `compressor_edges`, `decompressor_edges`, `direct`: the sans-IO compressor and
//!   decompressor, their edges and the zero-copy path.
//! - `lz4f_updates`, `give_up_edge`, `linked`, `interop`: frames against LZ4F for the same
//!   calls, frames of nearly incompressible blocks swept across the give-up edge, linked frames
//!   against the `lz4` tool, the `lz4` tool and python-lz4 both ways.
//! - `common`: what the LZ4F comparisons share.
//!
//! The binary installs `testkit::alloc::LargestAllocation` (it records the largest allocation per
//! thread and changes nothing else), which `reset` measures with.

use testkit::alloc::LargestAllocation;

#[global_allocator]
static ALLOCATOR: LargestAllocation = LargestAllocation;

mod common;
mod compressor_edges;
mod concat;
mod content_hash;
mod content_size_zero;
mod decompressor_edges;
mod direct;
mod failures;
mod format;
mod fused_checksum;
mod give_up_edge;
mod interop;
mod into;
mod kernel_trailer;
mod linked;
mod lz4f_updates;
mod reset;
mod sans_io;
