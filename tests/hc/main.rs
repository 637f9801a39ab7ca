//! LZ4 HC (levels 1-12) against liblz4 1.10's `lz4hc.c` and LZ4F, in one test binary.
//!
//! - `levels`: every level round-trips, follows the end-of-block rules and matches
//!   `LZ4_compress_HC`; the API contracts.
//! - `dest_size`: `compress_hc_dest_size` against `LZ4_compress_HC_destSize`.
//! - `stream`, `attached`, `edges`: dictionaries, streams and attached dictionaries against
//!   `LZ4_loadDictHC`, `LZ4_compress_HC_continue`, `LZ4_attach_HC_dictionary`, and their edges.
//! - `frame_dict`, `frame_favour`, `frame_giveup`: HC frames against LZ4F (with a CDict, with
//!   favour-decompression-speed, blocks just under their size).
//! - `common`: what `attached` and `edges` share.

mod attached;
mod common;
mod dest_size;
mod edges;
mod frame_dict;
mod frame_favour;
mod frame_giveup;
mod levels;
mod stream;
