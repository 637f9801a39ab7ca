//! lz4-simd's test kit (unpublished): what the tests, benches, fuzz targets and Miri tests share,
//! so that each exists once.
//!
//! - [`liblz4`] (feature `liblz4`): liblz4 through `lz4-sys` as the oracle: block, HC, dictionary
//!   and frame functions; [`decoder_rule`] checks our block decoder against it.
//! - [`samples`]: deterministic generated data (the CLI's built-in samples, the benches' stress
//!   samples, the tests' inputs); [`corpus`] (feature `corpus`): the Silesia files.
//! - [`block_builder`], [`parse`], [`liblz4_model`]: blocks built from sequences, an independent
//!   parser and naive decoder, and a model of liblz4's end-of-block checks.
//! - [`kernels`]: the kernel sweep (every available decode kernel against scalar, guarded and
//!   exact-size buffers) and its runner; [`process`]: a test re-run in a child process;
//!   [`hang`]: work that could hang run on a thread of its own, with a deadline.
//! - [`clock`] (feature `clock`): the benches' clock, wall time or the thread's CPU time.
//! - [`alloc`]: a global allocator recording the largest allocation, for allocation-cap tests.
//!
//! Without features the kit depends on nothing but lz4-simd itself: Miri (which cannot run C
//! code) and the CLI build it that way.
#![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]

pub mod alloc;
pub mod block_builder;
#[cfg(feature = "clock")]
pub mod clock;
#[cfg(feature = "corpus")]
pub mod corpus;
#[cfg(feature = "liblz4")]
pub mod decoder_rule;
pub mod hang;
pub mod io;
pub mod kernels;
#[cfg(feature = "liblz4")]
pub mod liblz4;
#[cfg(feature = "liblz4")]
pub mod liblz4_hc;
pub mod liblz4_model;
pub mod parse;
pub mod process;
pub mod samples;

pub use block_builder::BlockBuilder;
pub use samples::Rng;
