//! [`HcDictionary`]: a dictionary prepared once for the HC levels, as liblz4's
//! `LZ4_loadDictHC` leaves a stream.

#![cfg_attr(not(feature = "unsafe"), forbid(unsafe_code))]

use alloc::vec::Vec;

use super::chain::{ChainTables, DictCtx};
use super::{mid, strategy, Strategy};
use crate::block::MINMATCH;

/// The index liblz4 gives the first byte of a loaded dictionary (`LZ4HC_init_internal` on a
/// zeroed stream: 64 KiB, so that an empty table slot, 0, is never in reach).
pub(super) const DICT_BASE: u32 = 1 << 16;

/// The most of a dictionary liblz4 uses: its last 64 KiB.
const DICT_MAX: usize = 64 * 1024;

/// A dictionary for the HC levels, prepared once: its last 64 KiB, and the hash-chain tables
/// of levels 3 to 12 with every dictionary position inserted (liblz4's `LZ4_loadDictHC`).
///
/// Loading it
/// ([`HcCompressor::compress_into_with_prepared_dictionary`](super::HcCompressor::compress_into_with_prepared_dictionary),
/// `LZ4_loadDictHC`) costs a copy of the prepared tables (256 KiB) per block instead of hashing
/// the whole dictionary again; attaching it
/// ([`HcCompressor::compress_into_with_attached_dictionary`](super::HcCompressor::compress_into_with_attached_dictionary),
/// `LZ4_attach_HC_dictionary`) reads the tables in place for inputs of up to 4 KiB; level 2 (and 1), whose tables are filled differently, enters the
/// dictionary at each use (a third of its positions, quickly). It is `Send + Sync`: one
/// dictionary serves any number of [`HcCompressor`](super::HcCompressor)s and
/// [`HcStreamCompressor`](super::HcStreamCompressor)s at once.
///
/// ```
/// use lz4_simd::block::{self, HcCompressor, HcDictionary};
/// let dict = HcDictionary::new(b"temperature=21.5;humidity=40;pressure=1013;");
/// let record = b"temperature=22.0;humidity=41;pressure=1012;";
/// let mut out = [0u8; 64];
/// let len = HcCompressor::new()
///     .compress_into_with_prepared_dictionary(record, &mut out, &dict, 12)
///     .unwrap();
/// let mut back = vec![0u8; record.len()];
/// block::decompress_into_with_dictionary(&out[..len], &mut back, dict.as_bytes()).unwrap();
/// assert_eq!(&back[..], &record[..]);
/// ```
#[derive(Clone)]
pub struct HcDictionary {
    bytes: Vec<u8>,
    chain_tables: ChainTables,
}

impl core::fmt::Debug for HcDictionary {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("HcDictionary")
            .field("len", &self.bytes.len())
            .finish_non_exhaustive()
    }
}

impl HcDictionary {
    /// Prepares `dict` (only its last 64 KiB are kept and used, as by liblz4).
    pub fn new(dict: &[u8]) -> Self {
        let bytes = dict[dict.len().saturating_sub(DICT_MAX)..].to_vec();
        let mut chain_tables = ChainTables::new();
        chain_tables.clear();
        load_chain(&mut chain_tables, &bytes);
        Self {
            bytes,
            chain_tables,
        }
    }

    /// The dictionary bytes used: the last 64 KiB of those given to [`Self::new`]. Decoders
    /// need exactly these (or any longer slice ending with them).
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The dictionary as liblz4's attached `dictCtx`: its prepared tables, searched in place.
    pub(super) fn attached(&self) -> DictCtx<'_> {
        DictCtx {
            tables: &self.chain_tables,
            len: self.bytes.len(),
            base: DICT_BASE,
            mid: false,
        }
    }

    /// Puts `tables` in the state `LZ4_loadDictHC` leaves at `level`: the dictionary at indices
    /// from [`DICT_BASE`], the insertion cursor after its last inserted position.
    pub(super) fn load_into(&self, tables: &mut ChainTables, level: u8) {
        load(tables, &self.bytes, level, Some(&self.chain_tables));
    }
}

/// Whether liblz4 copies an attached dictionary's state for a block of `len` bytes at the start
/// of a stream (`LZ4HC_compress_generic_dictCtx`: above 4 KiB, when the dictionary's strategy,
/// a hash-chain level's as LZ4F prepares it, is compatible with the level's, i.e. not level
/// 1-2) instead of searching it in place.
pub(super) fn copies_attached(len: usize, level: u8) -> bool {
    len > 4096 && strategy(level) != Strategy::Mid
}

/// `LZ4_loadDictHC` of `dict` (at most 64 KiB) into `tables` at `level`: cleared tables, then
/// the dictionary entered the way the level's strategy enters it. `prepared` (the chain
/// levels' tables for this dictionary) is copied instead of inserting again.
pub(super) fn load(
    tables: &mut ChainTables,
    dict: &[u8],
    level: u8,
    prepared: Option<&ChainTables>,
) {
    debug_assert!(dict.len() <= DICT_MAX);
    if strategy(level) == Strategy::Mid {
        tables.clear();
        mid::fill_dictionary(tables, dict, DICT_BASE);
        if dict.len() > 8 {
            tables.set_next_to_update(DICT_BASE + (dict.len() - 8) as u32);
        }
    } else if let Some(prepared) = prepared {
        tables.clone_from(prepared);
    } else {
        tables.clear();
        load_chain(tables, dict);
    }
}

/// The chain levels' load: every position with 4 dictionary bytes inserted (into cleared
/// tables).
fn load_chain(tables: &mut ChainTables, dict: &[u8]) {
    if dict.len() >= MINMATCH {
        tables.insert_range(dict, DICT_BASE, dict.len() - (MINMATCH - 1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn send_sync_and_last_64k() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<HcDictionary>();
        let big: Vec<u8> = (0..100_000u32).map(|i| (i % 251) as u8).collect();
        let dict = HcDictionary::new(&big);
        assert_eq!(dict.as_bytes(), &big[big.len() - DICT_MAX..]);
        assert!(HcDictionary::new(&[]).as_bytes().is_empty());
    }
}
