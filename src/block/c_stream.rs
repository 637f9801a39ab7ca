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

#[cfg(test)]
mod tests {
    use super::super::sequence::tests::binary;
    use super::super::{compress_bound, Dictionary, StreamCompressor};
    use super::*;

    /// `load_dictionary` fills the table `Dictionary::new` (and `new_dense`) prepares: the same
    /// index in every slot.
    #[test]
    fn load_dictionary_is_the_prepared_table() {
        let bytes = binary(70_000, 5);
        for len in [8usize, 9, 1000, 65_536] {
            let dict = &bytes[bytes.len() - len..];
            for dense in [false, true] {
                let mut table = StreamTable::new();
                load_dictionary(&mut table, dict, MAX_HISTORY, dense);
                let prepared = if dense {
                    Dictionary::new_dense(dict)
                } else {
                    Dictionary::new(dict)
                };
                for hash in 0..TABLE_SLOTS {
                    assert_eq!(
                        table.slots()[hash] as usize,
                        prepared.table().get(hash),
                        "len {len} dense {dense} slot {hash}"
                    );
                }
            }
        }
    }

    /// A caller's table holding indices above the input's (a C stream state left as garbage,
    /// outside liblz4's contract) gives no candidate there, in both modes, also where `usize`
    /// has 32 bits and the distance to an index just below 2^32 wraps below 64 KiB: the bytes
    /// of a table whose indices are too far above to wrap.
    #[test]
    fn indices_above_the_input_are_never_candidates() {
        let data = binary(20_000, 4);
        let mut want = vec![0u8; compress_bound(data.len())];
        let mut got = vec![0u8; compress_bound(data.len())];
        for base in [0usize, 10, 1000] {
            let far_above = (base + data.len() + 70_000) as u32;
            for index in [u32::MAX, u32::MAX - 1000, u32::MAX - 65_000] {
                for prefix in [false, true] {
                    let history = |src| {
                        if prefix {
                            History::Prefix {
                                window: src,
                                start: 0,
                            }
                        } else {
                            History::External(&[])
                        }
                    };
                    let mut far = StreamTable::new();
                    far.slots_mut().fill(far_above);
                    let n = compress_block(&mut far, history(&data), base, &data, &mut want, 1)
                        .unwrap();
                    let mut table = StreamTable::new();
                    table.slots_mut().fill(index);
                    let m = compress_block(&mut table, history(&data), base, &data, &mut got, 1)
                        .unwrap();
                    assert!(
                        got[..m] == want[..n],
                        "base {base} index {index} prefix {prefix}"
                    );
                }
            }
        }
    }

    /// Prefix-mode blocks on a caller's table (the index and history kept by the caller, as the
    /// C ABI keeps them) give `StreamCompressor::compress_contiguous_into`'s bytes.
    #[test]
    fn prefix_blocks_are_the_stream_compressors() {
        let data = binary(300_000, 9);
        let mut stream = StreamCompressor::new();
        let mut table = StreamTable::new();
        let (mut start, mut history) = (0usize, 0usize);
        for len in [0usize, 7, 1000, 70_000, 13, 65_536, 100_000] {
            let end = start + len;
            let mut want = vec![0u8; compress_bound(len)];
            let n = stream
                .compress_contiguous_into(&data[..end], start, &mut want, 1)
                .unwrap();
            let mut got = vec![0u8; compress_bound(len)];
            let window = &data[start - history.min(MAX_HISTORY)..end];
            let h = History::Prefix {
                window,
                start: history.min(MAX_HISTORY),
            };
            let m = compress_block(&mut table, h, start, &[], &mut got, 1).unwrap();
            assert_eq!(got[..m], want[..n], "block of {len} at {start}");
            if len > 0 {
                history += len;
            }
            start = end;
        }
    }
}
