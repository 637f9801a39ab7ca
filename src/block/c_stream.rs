//! The fast stream's parse on a table the caller owns, for liblz4's C ABI (the `lz4-simd-capi`
//! package), whose `LZ4_stream_t` holds the table and the stream's state in the C caller's
//! memory. Not a public interface: [`StreamCompressor`](super::StreamCompressor) is.
//!
//! The caller keeps liblz4's state (the index of the next input, the history's place and
//! length, an attached dictionary) and decides each call's mode as `LZ4_compress_fast_continue`
//! does; these functions run the parse of that mode (the one [`StreamCompressor`] runs) and
//! fill the table as `LZ4_loadDict` does.
//!
//! [`StreamCompressor`]: super::StreamCompressor

use super::compress::{compress_stream_block, PositionTable, StreamHistory, U32_TABLE_SLOTS};
use super::{HISTORY_STRIDE, MAX_HISTORY};
use crate::Error;

pub use super::compress::U32Table as StreamTable;

/// The number of slots of a [`StreamTable`] (liblz4's `LZ4_HASH_SIZE_U32`).
pub const TABLE_SLOTS: usize = U32_TABLE_SLOTS;

impl StreamTable {
    /// The slots (indices; 0 is empty).
    pub fn slots(&self) -> &[u32; TABLE_SLOTS] {
        &self.0
    }

    /// The slots, writable.
    pub fn slots_mut(&mut self) -> &mut [u32; TABLE_SLOTS] {
        &mut self.0
    }
}

/// Where a block's history is (liblz4's mode for the call).
#[derive(Clone, Copy, Debug)]
pub enum History<'a> {
    /// Prefix mode: `window[..start]` is the history right before the input `window[start..]`
    /// (at most 64 KiB of it, no more than liblz4's `dictSize`).
    Prefix { window: &'a [u8], start: usize },
    /// External-dictionary mode: the history (its last 64 KiB matter) ends just below the
    /// input's index.
    External(&'a [u8]),
}

/// Compresses one block of a stream as `LZ4_compress_fast_continue` does once it has chosen its
/// mode: the input (`src` in external-dictionary mode, `window[start..]` in prefix mode, where
/// `src` is not read) starts at index `base`, the
/// table holds the stream's earlier indices (all below `base`, at most 2 GiB) and receives the
/// input's. Below the bound `dst` gives up where liblz4's `limitedOutput` does
/// ([`Error::OutputTooSmall`], the table then holding the positions liblz4's holds); an empty
/// input is the block `00`. Indices below `base` minus the history's length are never
/// candidates (liblz4's `dictSmall`, harmless where liblz4 does not apply it).
pub fn compress_block(
    table: &mut StreamTable,
    history: History<'_>,
    base: usize,
    src: &[u8],
    dst: &mut [u8],
    acceleration: u32,
) -> Result<usize, Error> {
    let history = match history {
        History::Prefix { window, start } => {
            debug_assert!(start <= MAX_HISTORY && start <= base);
            StreamHistory::Prefix { window, start }
        }
        History::External(dict) => {
            let dict = &dict[dict.len().saturating_sub(MAX_HISTORY)..];
            debug_assert!(dict.len() <= base);
            StreamHistory::External(dict)
        }
    };
    let src = match history {
        StreamHistory::Prefix { window, start } => &window[start..],
        _ => src,
    };
    compress_stream_block(table, history, base, src, dst, acceleration)
}

/// `LZ4_loadDict` (and, with `dense`, `LZ4_loadDictSlow`) on a cleared table: `dict` (at most
/// 64 KiB, at least 8 bytes) ends just below index `end`; every third position whose 8 hashed
/// bytes lie inside enters the table, later ones overwriting earlier ones; with `dense`, then
/// every position enters its slot if the slot holds an index at or below `end - 64 KiB`.
pub fn load_dictionary(table: &mut StreamTable, dict: &[u8], end: usize, dense: bool) {
    debug_assert!(dict.len() <= MAX_HISTORY && dict.len() <= end && end >= MAX_HISTORY);
    let first = end - dict.len();
    let hashable = (dict.len() + 1).saturating_sub(StreamTable::HASH_READ);
    for pos in (0..hashable).step_by(HISTORY_STRIDE) {
        table.put(StreamTable::hash(dict, pos), first + pos);
    }
    if dense {
        let limit = end - MAX_HISTORY;
        for pos in 0..hashable {
            let hash = StreamTable::hash(dict, pos);
            if table.get(hash) <= limit {
                table.put(hash, first + pos);
            }
        }
    }
}

/// liblz4's `LZ4_renormDictT` step on the table: every index below `delta` becomes 0, the others
/// move down by `delta`.
pub fn rebase(table: &mut StreamTable, delta: u32) {
    table.rebase(delta as usize);
}
