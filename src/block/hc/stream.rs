//! [`HcStreamCompressor`]: LZ4 HC blocks that may reference the previous block, byte-identical to
//! liblz4's `LZ4_compress_HC_continue` followed by `LZ4_saveDictHC` of 64 KiB.
//!
//! # The layout mirrored
//!
//! A liblz4 stream's output depends on where the caller's buffers sit (a block contiguous with
//! the previous one is compressed differently from one elsewhere), so "identical to liblz4" needs
//! a fixed C call pattern. This one is what the `lz4` CLI and LZ4F do for linked blocks
//! (`lz4 -9 -BD`): each block in its own buffer, compressed with one `LZ4_compress_HC_continue`,
//! then `LZ4_saveDictHC(stream, safe_buffer, 64 KiB)`. Consequences, all liblz4's:
//!
//! - the next block sees the last `min(64 KiB, len)` bytes of **this block only** (liblz4 saves
//!   from the block, not from older history): after a 1 KiB block, 1 KiB of history; after an
//!   empty block, none;
//! - the history is an external dictionary: a match found in the block does not extend
//!   backwards into it;
//! - the hash and chain tables carry over from block to block, including the positions a block
//!   that did not fit had inserted before liblz4 gave up (see [`HcStreamCompressor::compress_into`]).
//!
//! The stream keeps its history itself (a copy of at most 64 KiB, plus the block being
//! compressed after it: each block is copied once), so callers may reuse or drop their buffers.
//!
//! The frame encoder also drives the other layouts LZ4F makes (crate-private): a block that
//! follows the previous one in liblz4's memory (LZ4F's buffer, or the same update's input)
//! continues the prefix (`compress_continue` with `contiguous`: matches may extend back into
//! the earlier blocks, which stay in the window), and the history is saved (`save_dict`) when
//! LZ4F saves it, not after every block; an attached dictionary stays in use while liblz4 keeps
//! it (until the stream holds 64 KiB).

#![cfg_attr(not(feature = "unsafe"), forbid(unsafe_code))]

use alloc::vec;
use alloc::vec::Vec;

use super::chain::ChainTables;
use super::dict::{self, HcDictionary, DICT_BASE};
use super::optimal::{self, OptNode};
use super::{clamp_level, compress_block, strategy, Limit, Strategy};
use crate::block::{MAX_INPUT_SIZE, MINMATCH};
use crate::Error;

/// The history liblz4 saves after each block (`LZ4_saveDictHC`'s maximum).
const SAVED_HISTORY: usize = 64 * 1024;

/// The index of the first byte of a block compressed with an attached dictionary: any index
/// with room for the dictionary's 64 KiB below it above the cleared tables' reach.
const ATTACHED_BLOCK_INDEX: u32 = 2 * DICT_BASE;

/// Past this index (history end), liblz4's `LZ4_compress_HC_continue` reloads the history as a
/// fresh dictionary (`LZ4_loadDictHC`) before the next block.
const RELOAD_INDEX: u64 = 1 << 31;

/// An LZ4 HC stream compressor: each block may reference the previous one (up to 64 KiB of it),
/// and the bytes are liblz4 1.10's for the same sequence of blocks (see the module
/// documentation for the C call pattern this equals). Blocks are decoded in order with the
/// previous block's last 64 KiB as the dictionary
/// ([`decompress_into_with_dictionary`](crate::block::decompress_into_with_dictionary)).
///
/// ```
/// use lz4_simd::block::{self, HcStreamCompressor};
/// let records: [&[u8]; 3] = [
///     b"2026-12-04 21:00:01 INFO  service started on port 8080",
///     b"2026-12-04 21:00:02 INFO  service accepted connection from 10.0.0.7",
///     b"2026-12-04 21:00:03 WARN  service slow response from 10.0.0.7",
/// ];
/// let mut stream = HcStreamCompressor::new(9);
/// let mut previous: &[u8] = &[];
/// for record in records {
///     let mut out = vec![0u8; block::compress_bound(record.len())];
///     let len = stream.compress_into(record, &mut out).unwrap();
///     // The stream's history is now this record, so the next one compresses against it.
///     let mut back = vec![0u8; record.len()];
///     block::decompress_into_with_dictionary(&out[..len], &mut back, previous).unwrap();
///     assert_eq!(&back[..], record);
///     previous = record;
/// }
/// ```
pub struct HcStreamCompressor {
    tables: ChainTables,
    opt: Vec<OptNode>,
    /// What the next block may reach (`window[..history_len]`), then the block being
    /// compressed. Its last `prefix_len` bytes are liblz4's prefix (the bytes a contiguous block
    /// continues); the bytes before are the external dictionary, or the attached dictionary
    /// while `dict_ctx` holds.
    window: Vec<u8>,
    history_len: usize,
    prefix_len: usize,
    /// liblz4's index of `window[0]` (its `lowLimit`, or above it when older bytes are out of
    /// reach and were dropped).
    history_index: u32,
    /// An attached dictionary is in use (liblz4's `dictCtx`): its bytes are `window[..history_len
    /// - prefix_len]`, in front of the stream's own.
    dict_ctx: bool,
    /// liblz4's `prefixStart` is null (a fresh or reset stream): the next block starts the
    /// prefix wherever it is.
    fresh: bool,
    level: u8,
    favor_dec_speed: bool,
}

impl core::fmt::Debug for HcStreamCompressor {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("HcStreamCompressor")
            .field("level", &self.level)
            .field("favor_dec_speed", &self.favor_dec_speed)
            .field("history_len", &self.history_len)
            .finish_non_exhaustive()
    }
}

impl HcStreamCompressor {
    /// A stream at `level` (0 means 9, above 12 means 12; levels 1 and 2 are level 2), with no
    /// history: its first block is compressed as by [`compress_hc`](super::compress_hc).
    /// Allocates its tables (320 KiB) and a window for 64 KiB of history.
    pub fn new(level: u8) -> Self {
        let mut tables = ChainTables::new();
        tables.clear();
        Self {
            tables,
            opt: vec![OptNode::default(); optimal::OPT_NODES],
            window: Vec::with_capacity(SAVED_HISTORY),
            history_len: 0,
            prefix_len: 0,
            history_index: DICT_BASE,
            dict_ctx: false,
            fresh: true,
            level: clamp_level(level),
            favor_dec_speed: false,
        }
    }

    /// A stream at `level` whose first block may reference `dict` (liblz4's `LZ4_loadDictHC`).
    /// Later blocks reference the previous block only, as in liblz4.
    pub fn with_prepared_dictionary(level: u8, dict: &HcDictionary) -> Self {
        let mut stream = Self::new(level);
        stream.reset_with_prepared_dictionary(dict);
        stream
    }

    /// Forgets the history: the next block is compressed as the first block of a new stream
    /// (liblz4: a fresh `LZ4_streamHC_t`). The level and the favour option are kept.
    pub fn reset(&mut self) {
        self.tables.clear();
        self.window.clear();
        self.history_len = 0;
        self.prefix_len = 0;
        self.history_index = DICT_BASE;
        self.dict_ctx = false;
        self.fresh = true;
    }

    /// Replaces the history with `dict`, as [`Self::with_prepared_dictionary`] (liblz4's
    /// `LZ4_loadDictHC`).
    pub fn reset_with_prepared_dictionary(&mut self, dict: &HcDictionary) {
        dict.load_into(&mut self.tables, self.level);
        self.window.clear();
        self.window.extend_from_slice(dict.as_bytes());
        self.history_len = dict.as_bytes().len();
        self.prefix_len = self.history_len;
        self.history_index = DICT_BASE;
        self.dict_ctx = false;
        self.fresh = false;
    }

    /// Makes room in the window for `len` bytes (history, attached dictionary and block), so
    /// that blocks up to that size allocate nothing.
    pub(crate) fn reserve_window(&mut self, len: usize) {
        self.window.reserve(len.saturating_sub(self.window.len()));
    }

    /// The level (clamped as liblz4 does: 1 to 12).
    pub fn level(&self) -> u8 {
        self.level
    }

    /// Switches the favour-decompression-speed option (liblz4's `LZ4_favorDecompressionSpeed`,
    /// which may be called between blocks): at levels 10 to 12, offsets below 8 are avoided and
    /// matches of 19 to 36 bytes are cut to 18, exactly as liblz4 does (which may still emit a
    /// run with an offset below 8).
    pub fn set_favor_dec_speed(&mut self, favor_dec_speed: bool) {
        self.favor_dec_speed = favor_dec_speed;
    }

    /// Whether the favour-decompression-speed option is on.
    pub fn favor_dec_speed(&self) -> bool {
        self.favor_dec_speed
    }

    /// The history the next block may reference: the last 64 KiB (at most) of the previous
    /// block, or the dictionary before the first block. A decoder needs it as the dictionary of
    /// the next block.
    pub fn history(&self) -> &[u8] {
        &self.window[self.history_len - self.prefix_len..self.history_len]
    }

    /// Compresses `src` as the next block into `dst`, returning the compressed length; then
    /// keeps `src`'s last 64 KiB as the history of the next block. The bytes are liblz4's
    /// `LZ4_compress_HC_continue(stream, src, dst, src.len(), dst.len())` followed by
    /// `LZ4_saveDictHC(stream, buffer, 65536)`.
    ///
    /// With `dst` smaller than [`compress_bound`](crate::block::compress_bound)`(src.len())`,
    /// this gives up ([`Error::OutputTooSmall`]) exactly when liblz4 does, by liblz4's
    /// pessimistic estimate, and `src` still becomes the history, with the tables as liblz4 left
    /// them: frames store such a block raw and go on. An input above
    /// [`MAX_INPUT_SIZE`] gives [`Error::InputTooLarge`] and, as in
    /// liblz4, empties the history.
    pub fn compress_into(&mut self, src: &[u8], dst: &mut [u8]) -> Result<usize, Error> {
        let result = self.compress_continue(src, dst, false, None);
        self.save_dict();
        result
    }

    /// Compresses `buffer[start..]` as the next block into `dst`, the block following the
    /// previous one (or the dictionary the stream was reset with) in the same buffer: liblz4's
    /// prefix mode, `LZ4_compress_HC_continue` on consecutive slices of one buffer with no
    /// `LZ4_saveDictHC` between them, where a match may start in the earlier bytes and run on
    /// into the block. The stream keeps its own copy of what it may reference, so only
    /// `buffer[start..]` is read; the bytes are liblz4's with the earlier inputs right before the
    /// block in memory. Output room and give-ups as for [`compress_into`](Self::compress_into).
    /// (`lz4` 1.10 compresses each 4 MiB chunk of a linked frame at the HC levels so, after
    /// `LZ4_loadDictHC` of the previous chunk's last 64 KiB:
    /// [`reset_with_prepared_dictionary`](Self::reset_with_prepared_dictionary).)
    ///
    /// ```
    /// use lz4_simd::block::{self, HcDictionary, HcStreamCompressor};
    /// let text = b"the quick brown fox jumps over the lazy dog; ".repeat(40);
    /// let mut stream = HcStreamCompressor::new(9);
    /// stream.reset_with_prepared_dictionary(&HcDictionary::new(&text[..1000]));
    /// let mut block = vec![0u8; block::compress_bound(text.len() - 1000)];
    /// let n = stream.compress_contiguous_into(&text, 1000, &mut block).unwrap();
    /// let mut out = text[..1000].to_vec();
    /// out.resize(text.len(), 0);
    /// block::decompress_into_with_history(&block[..n], &mut out, 1000).unwrap();
    /// assert_eq!(out, text);
    /// ```
    pub fn compress_contiguous_into(
        &mut self,
        buffer: &[u8],
        start: usize,
        dst: &mut [u8],
    ) -> Result<usize, Error> {
        let Some(src) = buffer.get(start..) else {
            return Err(Error::InvalidArgument {
                what: "the input's start is past the end of the buffer",
            });
        };
        self.compress_continue(src, dst, true, None)
    }

    /// liblz4's `LZ4_compress_HC_continue` on `src`, without saving the history afterwards:
    /// `contiguous` says whether `src` starts where the previous block (or saved history)
    /// ends in liblz4's memory (prefix mode) or elsewhere (the history becomes the external
    /// dictionary). `dict` is the dictionary [attached](Self::attach_dictionary) at the start,
    /// used while liblz4 keeps it (its `dictCtx`).
    pub(crate) fn compress_continue(
        &mut self,
        src: &[u8],
        dst: &mut [u8],
        contiguous: bool,
        dict: Option<&HcDictionary>,
    ) -> Result<usize, Error> {
        if u64::from(self.history_index) + self.history_len as u64 > RELOAD_INDEX {
            // liblz4 reloads the prefix's last 64 KiB as a dictionary (a full re-initialisation,
            // which also turns the favour option off) before the index space runs out.
            let keep = self.prefix_len.min(SAVED_HISTORY);
            let history = self.window[self.history_len - keep..self.history_len].to_vec();
            dict::load(&mut self.tables, &history, self.level, None);
            self.window.clear();
            self.window.extend_from_slice(&history);
            self.history_len = keep;
            self.prefix_len = keep;
            self.history_index = DICT_BASE;
            self.dict_ctx = false;
            self.favor_dec_speed = false;
        }
        if !contiguous && !self.fresh {
            self.set_external_dict();
        }
        self.fresh = false;
        if src.len() > MAX_INPUT_SIZE {
            // liblz4 returns before the block becomes part of the stream.
            return Err(Error::InputTooLarge {
                len: src.len(),
                max: MAX_INPUT_SIZE,
            });
        }
        // liblz4's `LZ4HC_compress_generic_dictCtx`: the attached dictionary is dropped once the
        // stream holds 64 KiB, and copied (becoming the external dictionary) for a first block
        // above 4 KiB at the chain levels.
        let mut attached = None;
        if self.dict_ctx {
            match dict {
                Some(dict) if self.prefix_len < SAVED_HISTORY => {
                    if self.prefix_len == 0 && dict::copies_attached(src.len(), self.level) {
                        self.reset_with_prepared_dictionary(dict);
                        self.favor_dec_speed = false;
                        self.set_external_dict();
                    } else {
                        attached = Some(dict);
                    }
                }
                _ => self.drop_dict_ctx(),
            }
        }
        if attached.is_none() && self.history_len > SAVED_HISTORY {
            // Bytes more than 64 KiB before the block are out of reach: drop them (a long run of
            // contiguous blocks would otherwise grow the window without bound).
            let cut = self.history_len - SAVED_HISTORY;
            self.window.drain(..cut);
            self.history_index += cut as u32;
            self.history_len = SAVED_HISTORY;
            self.prefix_len = self.prefix_len.min(SAVED_HISTORY);
        }
        let start = self.history_len;
        let dict_limit = self.history_len - self.prefix_len;
        self.window.truncate(start);
        self.window.extend_from_slice(src);
        let next_to_update = self.tables.next_to_update();
        self.tables
            .begin_block(self.history_index, self.window.len(), dict_limit);
        // liblz4's `nextToUpdate` carries over into a contiguous block (it never falls below the
        // prefix's start).
        self.tables
            .set_next_to_update(next_to_update.max(self.history_index + dict_limit as u32));
        let result = compress_block::<true>(
            &mut self.tables,
            &mut self.opt,
            &self.window,
            start,
            dst,
            self.level,
            self.favor_dec_speed,
            Limit::LibLz4,
            attached.map(HcDictionary::attached),
        )
        .map(|(written, _)| written);
        self.history_len = self.window.len();
        self.prefix_len += src.len();
        result
    }

    /// liblz4's `LZ4HC_setExternalDict`: the chain levels insert the prefix's positions up to
    /// its last 3 (those are never inserted); the prefix becomes the external dictionary (the
    /// older one is lost) and the attached dictionary is dropped.
    fn set_external_dict(&mut self) {
        self.drop_dict_ctx();
        if strategy(self.level) != Strategy::Mid && self.prefix_len >= MINMATCH {
            self.tables.insert_range(
                &self.window[..self.history_len],
                self.history_index,
                self.history_len - (MINMATCH - 1),
            );
        }
        let old_ext = self.history_len - self.prefix_len;
        self.window.drain(..old_ext);
        self.history_index += old_ext as u32;
        self.history_len = self.prefix_len;
        self.prefix_len = 0;
        self.tables
            .set_next_to_update(self.history_index + self.history_len as u32);
    }

    /// Forgets the attached dictionary (its bytes in front of the window).
    fn drop_dict_ctx(&mut self) {
        if self.dict_ctx {
            let dict_len = self.history_len - self.prefix_len;
            self.window.drain(..dict_len);
            self.history_index += dict_len as u32;
            self.history_len = self.prefix_len;
            self.dict_ctx = false;
        }
    }

    /// liblz4's `LZ4_saveDictHC(65536)`: the prefix's last 64 KiB become the whole history (the
    /// attached dictionary, if in use, stays). A prefix under 4 bytes is kept too: liblz4 saves
    /// nothing only when the size asked for is under 4, and LZ4F and the streams ask for 64 KiB.
    pub(crate) fn save_dict(&mut self) {
        let saved = self.prefix_len.min(SAVED_HISTORY);
        let front = if self.dict_ctx {
            self.history_len - self.prefix_len
        } else {
            0
        };
        let end_index = self.history_index + self.history_len as u32;
        self.window
            .copy_within(self.history_len - saved..self.history_len, front);
        self.window.truncate(front + saved);
        self.history_len = front + saved;
        self.prefix_len = saved;
        self.history_index = end_index - self.history_len as u32;
        let next = self.tables.next_to_update().max(end_index - saved as u32);
        self.tables.set_next_to_update(next);
    }

    /// A fresh stream (new or [reset](Self::reset)) with `dict` attached, as LZ4F starts a
    /// linked frame with a dictionary (`LZ4_resetStreamHC_fast` + `LZ4_attach_HC_dictionary`):
    /// the blocks then passed `dict` to [`compress_continue`](Self::compress_continue) search it
    /// in place while liblz4 does, or start from a copy of its state (see
    /// [`HcCompressor::compress_into_with_attached_dictionary`](super::HcCompressor::compress_into_with_attached_dictionary)).
    pub(crate) fn attach_dictionary(&mut self, dict: &HcDictionary) {
        debug_assert!(self.history_len == 0);
        let dict_len = dict.as_bytes().len();
        if dict_len == 0 {
            return;
        }
        self.tables.clear();
        self.window.clear();
        self.window.extend_from_slice(dict.as_bytes());
        self.history_len = dict_len;
        self.prefix_len = 0;
        // The block's own indices start at `ATTACHED_BLOCK_INDEX` (the tables are cleared: no
        // entry is in reach); the dictionary's bytes sit in front of it, never entered.
        self.history_index = ATTACHED_BLOCK_INDEX - dict_len as u32;
        self.dict_ctx = true;
        self.fresh = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::block::compress_bound;

    fn data(len: usize, seed: u32) -> Vec<u8> {
        let mut state = seed | 1;
        (0..len)
            .map(|i| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                if i % 7 < 4 {
                    b"stream history "[i % 15]
                } else {
                    (state >> 24) as u8
                }
            })
            .collect()
    }

    /// Past 2 GiB of indices liblz4 reloads the history as a dictionary before the next block
    /// (`LZ4_loadDictHC`, which also turns favorDecSpeed off): the block is then compressed as by
    /// a fresh stream with that history as its dictionary.
    #[test]
    fn reload_past_2_gib() {
        let first = data(90_000, 1);
        let second = data(30_000, 2);
        for level in [2u8, 5, 9, 12] {
            let mut stream = HcStreamCompressor::new(level);
            stream.set_favor_dec_speed(true);
            let mut out = vec![0u8; compress_bound(first.len())];
            stream.compress_into(&first, &mut out).unwrap();
            stream.history_index = (RELOAD_INDEX - 1000) as u32;
            let mut reloaded = vec![0u8; compress_bound(second.len())];
            let len = stream.compress_into(&second, &mut reloaded).unwrap();
            assert!(!stream.favor_dec_speed());

            let dict = HcDictionary::new(&first);
            let mut fresh = HcStreamCompressor::with_prepared_dictionary(level, &dict);
            let mut expected = vec![0u8; compress_bound(second.len())];
            let expected_len = fresh.compress_into(&second, &mut expected).unwrap();
            assert_eq!(&reloaded[..len], &expected[..expected_len], "level {level}");
            assert_eq!(stream.history(), fresh.history());
        }
    }

    /// The history after each block: the block's last 64 KiB (however short), none after an
    /// empty block, none after an input liblz4 refuses.
    #[test]
    fn history_is_the_last_block() {
        let mut stream = HcStreamCompressor::new(9);
        let mut out = vec![0u8; compress_bound(100_000)];
        for len in [100_000usize, 3, 0, 1000, 70_000] {
            let block = data(len, len as u32);
            stream.compress_into(&block, &mut out).unwrap();
            assert_eq!(
                stream.history(),
                &block[len.saturating_sub(SAVED_HISTORY)..]
            );
        }
        stream.reset();
        assert!(stream.history().is_empty());
    }
}
