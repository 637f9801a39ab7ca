//! Frames on every core (feature `parallel`), in one test binary: every module but `feature` is
//! `#![cfg(feature = "parallel")]`; `feature` fails when `LZ4_SIMD_REQUIRE_PARALLEL=1` and the
//! binary was built without the feature (and so ran none of them).
//!
//! - `frames`, `adversarial`: the parallel encoders' bytes against the single-threaded
//!   encoder's, the parallel decoders' content and errors against the sequential decoder's.
//! - `checksums`, `encoder_checksum`, `stream_checksum`: block and content checksums.
//! - `decoder_options`: the streaming decoder's options for the `lz4` command.
//! - `spares`, `stash_and_lag`, `release`: the block buffers kept across frames in the process,
//!   the one-shot encoder's content checksum either side of its lag, freeing the kept buffers
//!   (in a child process of its own: no other test may fill the stores meanwhile).
//!
//! Run: `cargo test --test parallel` (`parallel` is one of lz4-simd-tests' default features).
//!
//! The binary installs `testkit::alloc::LargestAllocation` (it records the largest allocation per
//! thread and changes nothing else), which `frames` and `adversarial` measure with.

use testkit::alloc::LargestAllocation;

#[global_allocator]
static ALLOCATOR: LargestAllocation = LargestAllocation;

mod adversarial;
mod checksums;
mod decoder_options;
mod encoder_checksum;
mod feature;
mod frames;
mod release;
mod spares;
mod stash_and_lag;
mod stream_checksum;
