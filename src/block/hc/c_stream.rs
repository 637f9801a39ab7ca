//! The HC stream's parses on tables the caller owns, for liblz4's C ABI (the `lz4-simd-capi`
//! package), whose `LZ4_streamHC_t` holds the tables (`hashTable`, `chainTable`) and the
//! stream's indices in the C caller's memory. Not a public interface:
//! [`HcStreamCompressor`](super::HcStreamCompressor) is.
//!
//! The caller keeps liblz4's state (`dictLimit`, `lowLimit`, `nextToUpdate`, where the prefix
//! and the external dictionary are, an attached stream) and decides each call's mode as
//! `LZ4_compress_HC_continue` does; these functions run the library's parse of the level (the
//! one [`HcStreamCompressor`](super::HcStreamCompressor) runs) on the caller's tables, and
//! enter positions as `LZ4_loadDictHC` and `LZ4HC_setExternalDict` do.
//!
//! The parses work on the library's own `ChainTables` and on one window holding the history
//! and the input, so a call copies the caller's tables (256 KiB; the hash table alone, 128 KiB,
//! at levels 1-2) into a [`Scratch`] and back, and the history's reachable bytes and the input
//! into its window: the state between calls is the caller's alone, at the cost of those
//! copies.

#![cfg_attr(not(feature = "unsafe"), forbid(unsafe_code))]

use alloc::vec;
use alloc::vec::Vec;

use super::chain::{ChainTables, DictCtx};
use super::optimal::{self, OptNode};
use super::{clamp_level, compress_block, mid, strategy, Limit, Strategy};
use crate::block::MINMATCH;
use crate::Error;

/// The lowest index a stream's external dictionary starts at (liblz4's first index, 64 KiB).
const MIN_FIRST_INDEX: u32 = 1 << 16;

/// Slots of liblz4's `hashTable` (`LZ4HC_HASHTABLESIZE`).
pub const HASH_SLOTS: usize = super::chain::HASH_SLOTS;
/// Slots of liblz4's `chainTable` (`LZ4HC_MAXD`).
pub const CHAIN_SLOTS: usize = super::chain::CHAIN_SLOTS;

/// The caller's tables, liblz4's `hashTable` and `chainTable`.
#[derive(Debug)]
pub struct Tables<'a> {
    pub head: &'a mut [u32; HASH_SLOTS],
    pub chain: &'a mut [u16; CHAIN_SLOTS],
}

/// Working memory of the calls (the tables the parses run on, the optimal parser's costs, the
/// window), allocated once and reused; it carries nothing from one call to the next.
pub struct Scratch {
    tables: ChainTables,
    dict_tables: ChainTables,
    opt: Vec<OptNode>,
    window: Vec<u8>,
}

impl Default for Scratch {
    fn default() -> Self {
        Self::new()
    }
}

impl core::fmt::Debug for Scratch {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Scratch").finish_non_exhaustive()
    }
}

impl Scratch {
    /// The working memory (576 KiB).
    pub fn new() -> Self {
        Self {
            tables: ChainTables::new(),
            dict_tables: ChainTables::new(),
            opt: vec![OptNode::default(); optimal::OPT_NODES],
            window: Vec::new(),
        }
    }
}

/// Whether `level` (clamped as liblz4's `LZ4_setCompressionLevel`) is liblz4's middle parser
/// (`lz4mid`, levels 1 and 2), whose tables are filled differently.
pub fn is_mid(level: u8) -> bool {
    strategy(clamp_level(level)) == Strategy::Mid
}

/// One block's history and input, as liblz4 sees them once it has chosen the mode: `ext` is the
/// external dictionary's reachable tail, ending at index `input_index - prefix.len()` (liblz4's
/// `dictLimit`); `prefix` the prefix's tail (the bytes right before the input in the caller's
/// memory), ending at `input_index`. Bytes left out are out of reach (more than 64 KiB before
/// the input) and not waiting to be entered (at or after liblz4's `nextToUpdate`).
#[derive(Debug, Clone, Copy)]
pub struct Block<'a> {
    pub ext: &'a [u8],
    pub prefix: &'a [u8],
    pub input: &'a [u8],
    pub input_index: u32,
}

/// An attached stream (liblz4's `dictCtx`), read in place: its tables, and its prefix's last
/// bytes (at most 64 KiB), whose first byte has index `base` in its tables. Its own external
/// dictionary is not searched (liblz4 reads those candidates at the addresses below the
/// prefix).
#[derive(Debug, Clone, Copy)]
pub struct Attached<'a> {
    pub head: &'a [u32; HASH_SLOTS],
    pub chain: &'a [u16; CHAIN_SLOTS],
    pub bytes: &'a [u8],
    pub base: u32,
    /// The attached stream's level is one of liblz4's middle parser (1 or 2).
    pub mid: bool,
}

/// How the output is limited (liblz4's `limitedOutput_directive`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputLimit {
    /// `notLimited` (the output holds the bound) and `limitedOutput` (below the bound, giving
    /// up where liblz4's estimate does): the parse tells them apart by the output's size.
    Limited,
    /// `fillOutput`: as much input as fits (`LZ4_compress_HC_continue_destSize`).
    Fill,
}

/// Compresses `block` at `level` (0 is 9, above 12 is 12) as liblz4's `LZ4HC_compress_generic`
/// does on a stream whose state the caller passes: the tables (entries only ever below
/// `block.input_index`; others are treated as empty) and `next_to_update` (liblz4's
/// `nextToUpdate`, at or above the window's first index), both updated. `attached` is the
/// `dictCtx` read in place (liblz4 uses it only while the stream holds less than 64 KiB, with
/// no external dictionary: `block.ext` must then be empty). Returns `(written, consumed)`.
/// Below the bound the parse gives up where liblz4's does, the tables then being liblz4's.
#[allow(clippy::too_many_arguments)]
pub fn compress(
    scratch: &mut Scratch,
    tables: Tables<'_>,
    next_to_update: &mut u32,
    block: Block<'_>,
    dst: &mut [u8],
    level: u8,
    favor_dec_speed: bool,
    limit: OutputLimit,
    attached: Option<Attached<'_>>,
) -> Result<(usize, usize), Error> {
    let level = clamp_level(level);
    let Scratch {
        tables: work,
        dict_tables,
        opt,
        window,
    } = scratch;
    let attached = attached.filter(|_| block.ext.is_empty());
    // The chain walk's index arithmetic needs the external dictionary's first index at 65536 or
    // above, as every stream's is (liblz4 starts indices at 65536); a state claiming a lower
    // `lowLimit` has its dictionary cut there.
    let ext_room = (block.input_index as usize)
        .saturating_sub(block.prefix.len())
        .saturating_sub(MIN_FIRST_INDEX as usize);
    let ext = &block.ext[block.ext.len().saturating_sub(ext_room)..];
    let front = attached.map_or(ext.len(), |a| a.bytes.len());
    window.clear();
    match attached {
        Some(a) => window.extend_from_slice(a.bytes),
        None => window.extend_from_slice(ext),
    }
    window.extend_from_slice(block.prefix);
    let start = window.len();
    window.extend_from_slice(block.input);
    let base = block
        .input_index
        .wrapping_sub((block.prefix.len() + front) as u32);
    // Level 2 uses the head table alone (its two halves): the chain table stays in place.
    let mid = is_mid(level);
    work.load_from(
        tables.head,
        (!mid).then_some(&*tables.chain),
        block.input_index,
    );
    work.begin_block(base, window.len(), front);
    // liblz4's `nextToUpdate` is at or above the prefix's first index and at most the input's;
    // a state claiming otherwise is held to that.
    let first = base.wrapping_add(front as u32);
    work.set_next_to_update(
        (*next_to_update).clamp(first.min(block.input_index), block.input_index),
    );
    let dict = attached.map(|a| {
        dict_tables.load_from(a.head, Some(a.chain), u32::MAX);
        DictCtx {
            tables: dict_tables,
            len: a.bytes.len(),
            base: a.base,
            mid: a.mid,
        }
    });
    let result = compress_block::<true>(
        work,
        opt,
        window,
        start,
        dst,
        level,
        favor_dec_speed,
        match limit {
            OutputLimit::Limited => Limit::LibLz4,
            OutputLimit::Fill => Limit::Fill,
        },
        dict,
    );
    work.store_into(tables.head, (!mid).then_some(tables.chain));
    *next_to_update = work.next_to_update();
    result
}

/// `LZ4_loadDictHC`'s filling of cleared tables at `level`: `dict` (at most 64 KiB) at indices
/// from `base`, every position (its 4 bytes inside) at the chain levels, liblz4's middle
/// parser's selection at levels 1 and 2. Returns liblz4's `nextToUpdate` afterwards.
pub fn load_dictionary(
    scratch: &mut Scratch,
    tables: Tables<'_>,
    dict: &[u8],
    base: u32,
    level: u8,
) -> u32 {
    let work = &mut scratch.tables;
    let mid = is_mid(level);
    work.load_from(tables.head, (!mid).then_some(&*tables.chain), u32::MAX);
    work.begin_block(base, dict.len(), 0);
    if mid {
        mid::fill_dictionary(work, dict, base);
        if dict.len() > 8 {
            work.set_next_to_update(base + (dict.len() - 8) as u32);
        }
    } else if dict.len() >= MINMATCH {
        work.insert_range(dict, base, dict.len() - (MINMATCH - 1));
    }
    work.store_into(tables.head, (!mid).then_some(tables.chain));
    work.next_to_update()
}

/// liblz4's `LZ4HC_Insert` up to the last 3 bytes of `bytes`, whose first byte has index
/// `next_to_update` (the positions from there on not entered yet), as `LZ4HC_setExternalDict`
/// runs it at the chain levels. Returns the new `nextToUpdate`.
pub fn insert_to_end(
    scratch: &mut Scratch,
    tables: Tables<'_>,
    bytes: &[u8],
    next_to_update: u32,
) -> u32 {
    if bytes.len() < MINMATCH {
        return next_to_update;
    }
    let work = &mut scratch.tables;
    work.load_from(tables.head, Some(tables.chain), u32::MAX);
    work.begin_block(next_to_update, bytes.len(), 0);
    work.insert_range(bytes, next_to_update, bytes.len() - (MINMATCH - 1));
    work.store_into(tables.head, Some(tables.chain));
    work.next_to_update()
}
