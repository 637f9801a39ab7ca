//! [`Dictionary`]: a compression dictionary prepared once and shared.
//!
//! Preparing a dictionary means what liblz4's `LZ4_loadDict` does: keep its last 64 KiB (the
//! most a block can reference) and enter every third position of them in a fast-compressor hash
//! table (the `u32` layout's hash of 5 bytes), positions counted so that the dictionary ends just
//! below index 65,536, where the input starts. A dictionary under 8 bytes is ignored by the fast
//! compressor, as `LZ4_loadDict` ignores it (its bytes are still kept: HC compression, which
//! LZ4F gives the same bytes, uses them). Each
//! [`Compressor::compress_into_with_prepared_dictionary`] call then reads or copies that table
//! instead of hashing the dictionary again, and reads the dictionary bytes in place.
//!
//! The table's indices are all below 65,536, so its slots are 16 bits (8 KiB, where liblz4's are
//! 32): the same values, and half the cache footprint for the dictCtx probe, which reads the
//! table at random beside the working table and the dictionary bytes (callgrind's cache model:
//! 40% fewer L1 data read misses per 1 KiB or 4 KiB message with a 64 KiB dictionary).

#![cfg_attr(not(feature = "unsafe"), forbid(unsafe_code))]

use alloc::boxed::Box;

use super::compress::{PositionTable, PreparedTable, U32Table, HISTORY_STRIDE};
#[cfg(doc)]
use super::Compressor;
use super::MAX_HISTORY;

/// A compression dictionary prepared for the fast compressor: its last 64 KiB, and the hash
/// table liblz4's `LZ4_loadDict` builds from them.
///
/// Build it once, then compress any number of inputs with
/// [`Compressor::compress_into_with_prepared_dictionary`]; the output is byte-identical to liblz4's
/// `LZ4_loadDict` + `LZ4_compress_fast_continue` (and `LZ4_attach_dictionary`). It is plain
/// owned data (about 72 KiB), `Send + Sync`: share it by reference (or in an `Arc`) between
/// threads, each with its own [`Compressor`].
///
/// # Examples
///
/// ```
/// use lz4_simd::block::{self, Compressor, Dictionary};
/// let dict = Dictionary::new(b"{\"user\": \"\", \"action\": \"login\", \"ok\": true}");
/// let mut compressor = Compressor::new();
/// let message = b"{\"user\": \"ada\", \"action\": \"login\", \"ok\": true}";
/// let mut out = vec![0u8; block::compress_bound(message.len())];
/// let n = compressor.compress_into_with_prepared_dictionary(message, &mut out, &dict, 1).unwrap();
/// let back = block::decompress_with_dictionary(&out[..n], dict.as_bytes(), message.len());
/// assert_eq!(back.unwrap(), message);
/// ```
#[derive(Clone)]
pub struct Dictionary {
    /// The last [`MAX_HISTORY`] of the dictionary's bytes (all of them, even under
    /// [`Dictionary::MIN_LEN`]: HC compression uses them, see [`Dictionary::as_bytes`]).
    bytes: Box<[u8]>,
    table: Box<PreparedTable>,
}

impl core::fmt::Debug for Dictionary {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Dictionary")
            .field("len", &self.bytes.len())
            .finish_non_exhaustive()
    }
}

impl Dictionary {
    /// The fast compressor ignores dictionaries shorter than this (liblz4's `HASH_UNIT`, the 8
    /// bytes its table hashes read; `LZ4_loadDict` keeps none of them): compressing with one is
    /// compressing with an empty dictionary. Their bytes are kept all the same
    /// ([`Dictionary::as_bytes`]), since liblz4's HC dictionaries (`LZ4_loadDictHC`, and so LZ4F
    /// frames at the HC levels) use them.
    pub const MIN_LEN: usize = 8;

    /// The index the first input byte gets: the dictionary's bytes are the indices just below it
    /// (liblz4 advances a fresh stream's offset by 64 KiB when it loads a dictionary).
    pub(super) const BASE: usize = MAX_HISTORY;

    /// Prepares `bytes` (only the last 64 KiB matter) as a dictionary. Costs one pass over those
    /// 64 KiB and an 8 KiB table; do it once per dictionary, not per message.
    pub fn new(bytes: &[u8]) -> Self {
        let kept = &bytes[bytes.len().saturating_sub(MAX_HISTORY)..];
        let mut dict = Self {
            bytes: kept.into(),
            table: Box::new(PreparedTable::new()),
        };
        let history = dict.history();
        let first = Self::BASE - history.len();
        // Every position whose 8 hashed bytes lie inside, at liblz4's stride; later positions
        // overwrite earlier ones in their slot. (A dictionary under `MIN_LEN` has no history:
        // its table stays empty.)
        let hashable = (history.len() + 1).saturating_sub(U32Table::HASH_READ);
        for pos in (0..hashable).step_by(HISTORY_STRIDE) {
            dict.table
                .put(U32Table::hash(&dict.bytes, pos), first + pos);
        }
        dict
    }

    /// Prepares `bytes` as a denser table than [`Dictionary::new`]'s: that table, then every
    /// position whose slot is still empty enters its first position there (liblz4 1.10's
    /// `LZ4_loadDictSlow`), so LZ4F 1.10's bytes. Blocks
    /// compressed with it are byte-identical to `LZ4_loadDictSlow` + `LZ4_compress_fast_continue`
    /// (and so to liblz4 1.10's LZ4F frames with a dictionary, whose `LZ4F_createCDict` prepares
    /// fast dictionaries this way); they are usually a little smaller, and preparing costs one
    /// more pass. Decoding needs only the bytes, as for any dictionary.
    pub fn new_dense(bytes: &[u8]) -> Self {
        let mut dict = Self::new(bytes);
        let history_len = dict.history().len();
        let first = Self::BASE - history_len;
        let hashable = (history_len + 1).saturating_sub(U32Table::HASH_READ);
        for pos in 0..hashable {
            let hash = U32Table::hash(&dict.bytes, pos);
            // Empty is 0 here: every index is below 64 KiB (liblz4: at most `currentOffset -
            // 64 KiB`).
            if dict.table.get(hash) == 0 {
                dict.table.put(hash, first + pos);
            }
        }
        dict
    }

    /// The dictionary bytes blocks compressed with it may reference: the last 64 KiB of the bytes
    /// given to [`Dictionary::new`]. Decoding with these or with the original bytes gives the
    /// same output.
    ///
    /// A dictionary under [`Dictionary::MIN_LEN`] bytes keeps them too, although the fast
    /// compressor ignores it (as `LZ4_loadDict` does): HC compression with these bytes is what
    /// liblz4 does with such a dictionary (`LZ4_loadDictHC` keeps every byte, and LZ4F's
    /// `LZ4F_createCDict` gives it all of them), so frames made at the HC levels with this
    /// `Dictionary` are LZ4F's.
    ///
    /// ```
    /// use lz4_simd::block::Dictionary;
    /// assert_eq!(Dictionary::new(b"tiny").as_bytes(), b"tiny");
    /// ```
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The history the fast compressor uses: [`Dictionary::as_bytes`], or none for a dictionary
    /// under [`Dictionary::MIN_LEN`] (what `LZ4_loadDict` keeps of it: its `dictSize` stays 0).
    #[inline(always)]
    pub(super) fn history(&self) -> &[u8] {
        if self.bytes.len() < Self::MIN_LEN {
            &[]
        } else {
            &self.bytes
        }
    }

    /// The prepared table.
    pub(super) fn table(&self) -> &PreparedTable {
        &self.table
    }
}
