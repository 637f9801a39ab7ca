//! The hash-chain match finder of levels 3-12, which the lazy (`lazy`) and optimal (`optimal`)
//! parsers search with.
//!
//! # The chains
//!
//! Positions are stored as indices `position + base`. `head[hash]` is the index of the last
//! inserted position whose 4 bytes have that hash; `chain[index % 65536]` is the distance from
//! `index` back to the previous position of its chain (65535 when there is none in reach).
//! Positions are inserted lazily: a search at `ip` first inserts every position it has not seen
//! yet up to `ip` (excluded), so the chains always hold every earlier position, matches included.
//!
//! Tables are not cleared between calls: each call starts its indices at least 65536 above the
//! last index of the previous call (and the first at 65536 above the zeroed tables), so every
//! entry left from before is more than 65535 back, out of reach, exactly like an empty slot.
//! Only when the index space nears its end is the head table zeroed and the base restarted.
//! A chain entry is only read for an index inserted in the current call.
//!
//! # The search
//!
//! [`ChainTables::find_wider`] walks the chain from `ip` for up to `attempts` candidates that
//! are at most 65535 bytes back, and keeps a candidate only if it beats the longest match known
//! so far. It can also look backwards: given a lower limit below `ip`, a candidate's match may be
//! extended to start before `ip` (down to that limit), which is how the lazy parse asks "is there
//! a match overlapping the end of this one that is longer?". Before the full comparison, the two
//! bytes at the end of the current best length are compared, which rejects most candidates that
//! cannot win with one load.
//!
//! Two refinements, both from liblz4 1.10:
//!
//! - **Run skipping** (levels 9 and up): inside a run of one repeated byte every position chains
//!   to the one before it, so walking the chain would spend every attempt inside the run. When
//!   the searched position starts such a run and the chain steps back by 1, the search jumps to
//!   where the earlier run is long enough to cover the searched run, or to the start of that
//!   earlier run (taking the run itself as a match when searching forward only).
//! - **Chain swap** (optimal parser): after finding a new longest match at candidate `c`, any
//!   position `c + k` inside it (with `ip + k` inside the searched match) is an equally good
//!   entry point for the *remaining* candidates, and the chain of the one whose previous
//!   occurrence is furthest back skips the most useless candidates. The walk continues along that
//!   chain (following `chain[c + k]`, offset by `k`).

use alloc::boxed::Box;
use alloc::vec;

use super::super::sequence::{
    byte_at, call_unchecked, count_common, hash4, read_u16, read_u32, unchecked_fn, word_at,
};
use super::super::{MAX_DISTANCE, MINMATCH};
/// Bits of the 4-byte hash (liblz4's `LZ4HC_HASH_LOG`).
pub(super) const HASH_LOG: u32 = 15;
pub(super) const HASH_SLOTS: usize = 1 << HASH_LOG;
pub(super) const CHAIN_SLOTS: usize = 1 << 16;
/// The smallest base index: index 0 (a zeroed head slot) is then never in reach.
const MIN_BASE: u32 = 1 << 16;
/// Past this base, the next call zeroes the tables and restarts at [`MIN_BASE`].
const MAX_BASE: u64 = 1 << 30;

/// A match found by a search: `len` bytes at `offset`, starting `back` bytes before the
/// searched position. `len` below [`MINMATCH`] means no match.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Match {
    pub(super) len: usize,
    pub(super) offset: usize,
    pub(super) back: usize,
}

pub(super) const NO_MATCH: Match = Match {
    len: 0,
    offset: 0,
    back: 0,
};

/// liblz4's attached dictionary context (`dictCtx`, what `LZ4_attach_HC_dictionary` attaches
/// and LZ4F uses for frame dictionaries): a dictionary's own prepared chain tables (every
/// position inserted at index `DICT_BASE + position`, as `LZ4_loadDictHC` leaves them), searched
/// after the block's own chain, read-only. The window holds the dictionary's bytes in front of
/// the block (`window[..len]`), so a dictionary candidate at `position` is `ip - position` back.
#[derive(Clone, Copy)]
pub(super) struct DictCtx<'a> {
    pub(super) tables: &'a ChainTables,
    pub(super) len: usize,
    /// The dictionary's index of its first byte (`window[0]`): [`DICT_BASE`](super::dict::DICT_BASE)
    /// for a prepared dictionary, the attached stream's own for the C ABI's.
    pub(super) base: u32,
    /// The tables are those of liblz4's middle parser (a C stream at level 1 or 2, which
    /// `LZ4_loadDictHC` fills differently): level 2 searches them as liblz4's
    /// `LZ4MID_searchExtDict` does.
    pub(super) mid: bool,
}

impl core::fmt::Debug for DictCtx<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DictCtx")
            .field("len", &self.len)
            .finish_non_exhaustive()
    }
}

impl DictCtx<'_> {
    /// liblz4's dictCtx walk (the end of `LZ4HC_InsertAndGetWiderMatch`, and
    /// `LZ4HC_searchExtDict`): up to `attempts` candidates of the dictionary's chain for the 4
    /// bytes at `ip` that are at most 65535 back, each compared on its 4 bytes only (no end-word
    /// filter, no favour rule, no run skipping, no chain swap), counted forwards up to the
    /// dictionary's end (not on into the block) and backwards down to `low_limit` and the
    /// dictionary's start; returns the longest, or `best` when none is longer.
    ///
    /// Safe code with checked reads: it runs for small blocks only (liblz4 copies the dictionary
    /// for larger ones), after the block's own chain.
    #[inline(never)]
    pub(super) fn search(
        self,
        src: &[u8],
        ip: usize,
        low_limit: usize,
        high_limit: usize,
        mut best: Match,
        mut attempts: u32,
    ) -> Match {
        debug_assert!(self.len <= ip && low_limit <= ip && ip + MINMATCH <= high_limit);
        let pattern = read_u32(src, ip);
        let base = u64::from(self.base);
        let mut dict_index = self.tables.head[hash4::<HASH_LOG>(pattern)];
        while attempts > 0 {
            // An empty slot (0) or a chain end (a step of 65535 from the dictionary's first
            // positions) is more than 65535 back: the walk stops there, as liblz4's does.
            let distance = (ip as u64 + base).wrapping_sub(u64::from(dict_index));
            if distance > MAX_DISTANCE as u64 || distance > ip as u64 {
                break;
            }
            attempts -= 1;
            let candidate = ip - distance as usize;
            if candidate + MINMATCH <= self.len && read_u32(src, candidate) == pattern {
                let limit = (ip + (self.len - candidate)).min(high_limit);
                let forward = MINMATCH
                    + super::super::sequence::common_prefix(
                        &src[ip + MINMATCH..limit],
                        &src[candidate + MINMATCH..self.len],
                    );
                let back = if ip > low_limit {
                    count_back(src, ip, candidate, (ip - low_limit).min(candidate))
                } else {
                    0
                };
                if forward + back > best.len {
                    best = Match {
                        len: forward + back,
                        offset: distance as usize,
                        back,
                    };
                }
            }
            let delta = self.tables.chain[usize::from(dict_index as u16)];
            dict_index = dict_index.wrapping_sub(u32::from(delta));
        }
        best
    }
}

/// Number of equal bytes just before `a` and just before `b` (`b < a`), at most `max`.
///
/// The search settles most candidates itself with one word compare, and calls this only for
/// those whose 8 bytes before all match (or that have fewer than 8 before them).
#[inline(always)]
fn count_back(src: &[u8], a: usize, b: usize, max: usize) -> usize {
    debug_assert!(b < a && max <= b);
    // Every read below is of bytes before `a` and before `b`, and at most `max` bytes back, so
    // inside `src` once this holds.
    assert!(max <= b && b < a && a <= src.len());
    let mut back = 0;
    // Whole words while 8 bytes can be read before both (bytes beyond `max` may be compared,
    // the result is capped).
    while back < max && b - back >= 8 {
        // In bounds: both words end at or before `a - back <= src.len()` (the assert), and the
        // loop condition keeps `b - back - 8` (so also `a - back - 8`) from underflowing.
        let x = word_at!(u64, src, a - back - 8);
        let y = word_at!(u64, src, b - back - 8);
        let diff = x ^ y;
        if diff != 0 {
            return (back + (diff.leading_zeros() / 8) as usize).min(max);
        }
        back += 8;
    }
    if back >= max {
        return max;
    }
    // In bounds: `back < max <= b < a <= src.len()` (the assert).
    while back < max && byte_at!(src, a - back - 1) == byte_at!(src, b - back - 1) {
        back += 1;
    }
    back
}

unchecked_fn! {
    /// [`count_common`] for the search's candidates whose first 8 bytes after the 4 of the hash
    /// all match (or when fewer than 12 remain before the limit). Kept out of line: inlined, its
    /// set-up (which depends on the searched position only) is hoisted into every search, most
    /// of which never get here.
    ///
    /// # Safety
    ///
    /// That of [`count_common`].
    #[inline(never)]
    fn count_forward(src: &[u8], a: usize, b: usize, limit: usize) -> usize {
        // SAFETY: the caller's duty is the callee's.
        call_unchecked!(count_common(src, a, b, limit))
    }
}

/// Length of the run of `byte` starting at `src[from]`, stopping at `limit`.
#[inline]
fn run_forward(src: &[u8], from: usize, limit: usize, byte: u8) -> usize {
    let span = &src[from..limit];
    let wide = u64::from_ne_bytes([byte; 8]);
    let mut count = 0;
    for chunk in span.chunks_exact(8) {
        let diff = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8])) ^ wide;
        if diff != 0 {
            return count + (diff.trailing_zeros() / 8) as usize;
        }
        count += 8;
    }
    count + span[count..].iter().take_while(|&&b| b == byte).count()
}

/// Length of the run of `byte` ending just before `src[to]`, not going below `src[0]`.
#[inline]
fn run_backward(src: &[u8], to: usize, byte: u8) -> usize {
    let span = &src[..to];
    let wide = u64::from_ne_bytes([byte; 8]);
    let mut count = 0;
    for chunk in span.rchunks_exact(8) {
        let diff = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8])) ^ wide;
        if diff != 0 {
            return count + (diff.leading_zeros() / 8) as usize;
        }
        count += 8;
    }
    count
        + span[..to - count]
            .iter()
            .rev()
            .take_while(|&&b| b == byte)
            .count()
}

/// The head and chain tables (256 KiB), with the insertion cursor.
pub(super) struct ChainTables {
    /// Hash to the index of the last position inserted with that hash. Level 2 uses the two
    /// halves as its own two tables.
    pub(super) head: Box<[u32; HASH_SLOTS]>,
    /// Index (mod 65536) to the distance back to the previous position of its chain.
    chain: Box<[u16; CHAIN_SLOTS]>,
    /// Index of window position 0 in the current call: at least [`MIN_BASE`], and
    /// `base + span <= u32::MAX` (both made so by [`ChainTables::reset`]).
    base: u32,
    /// Window length of the current call: indices stay below `base + span`.
    span: u32,
    /// Every index below this one is inserted.
    next_to_update: u32,
    /// Window position where the block's own bytes start when the window before it is an
    /// external dictionary (liblz4's extDict: streams and dictionaries), else 0. Matches found in
    /// the block do not extend backwards before it, and no search lands on its last 3 bytes
    /// before it (see [`ChainTables::begin_block`]).
    prefix: usize,
}

impl Clone for ChainTables {
    fn clone(&self) -> Self {
        Self {
            head: self.head.clone(),
            chain: self.chain.clone(),
            base: self.base,
            span: self.span,
            next_to_update: self.next_to_update,
            prefix: self.prefix,
        }
    }

    /// Copies the tables without allocating (a prepared dictionary's, per block).
    fn clone_from(&mut self, source: &Self) {
        self.head.copy_from_slice(&source.head[..]);
        self.chain.copy_from_slice(&source.chain[..]);
        self.base = source.base;
        self.span = source.span;
        self.next_to_update = source.next_to_update;
        self.prefix = source.prefix;
    }
}

impl ChainTables {
    pub(super) fn new() -> Self {
        Self {
            head: vec![0u32; HASH_SLOTS]
                .into_boxed_slice()
                .try_into()
                .unwrap_or_else(|_| unreachable!()),
            // Never read before written (see the module documentation).
            chain: vec![0u16; CHAIN_SLOTS]
                .into_boxed_slice()
                .try_into()
                .unwrap_or_else(|_| unreachable!()),
            base: MIN_BASE,
            span: 0,
            next_to_update: MIN_BASE,
            prefix: 0,
        }
    }

    /// Zeroes both tables, as liblz4's `LZ4_initStreamHC` does (a stream's state must be
    /// liblz4's exactly, down to the chain entries of positions never inserted).
    pub(super) fn clear(&mut self) {
        self.head.fill(0);
        self.chain.fill(0);
        self.base = MIN_BASE;
        self.span = 0;
        self.next_to_update = MIN_BASE;
        self.prefix = 0;
    }

    /// Starts a block in liblz4's stream state: window position 0 has index `base` (liblz4's
    /// `lowLimit`), the window is `window_len` bytes, `window[..prefix]` is the external
    /// dictionary (the history) and `window[prefix..]` the block; positions from `prefix` on are
    /// inserted as the searches reach them. Unlike [`ChainTables::reset`] the entries already in
    /// the tables stay valid: those at or above `base` are positions of the window (the
    /// caller's duty: the tables hold liblz4's state for this window, indices only ever grow),
    /// those below it are out of reach (the walks stop below `base`).
    ///
    /// `base` may be below 65536 only when an attached dictionary's bytes are in front of the
    /// window (`window[..prefix]`, never entered: the walks stop at `base + prefix` then), and
    /// `base + prefix`, the block's own first index, is at least 65536.
    ///
    /// # Panics
    ///
    /// If the window's indices would not fit in `u32`, `prefix > window_len`, or `base + prefix`
    /// is below 65536.
    pub(super) fn begin_block(&mut self, base: u32, window_len: usize, prefix: usize) {
        assert!(u64::from(base) + prefix as u64 >= u64::from(MIN_BASE) && prefix <= window_len);
        assert!(u64::from(base) + window_len as u64 + u64::from(MIN_BASE) <= u64::from(u32::MAX));
        self.base = base;
        self.span = window_len as u32;
        self.prefix = prefix;
        self.next_to_update = base + prefix as u32;
    }

    /// Copies a caller's tables in (liblz4's `hashTable` and `chainTable`; the chain table only
    /// when given: level 2 does not use it). A head entry at or above `below` (the index of the
    /// next block's first byte), which no stream leaves, becomes 0: every head entry is then
    /// below the searched indices, as the chain walk requires.
    pub(super) fn load_from(
        &mut self,
        head: &[u32; HASH_SLOTS],
        chain: Option<&[u16; CHAIN_SLOTS]>,
        below: u32,
    ) {
        for (to, &from) in self.head.iter_mut().zip(head.iter()) {
            *to = if from < below { from } else { 0 };
        }
        if let Some(chain) = chain {
            self.chain.copy_from_slice(chain);
        }
    }

    /// Copies the tables out into a caller's (see [`ChainTables::load_from`]).
    pub(super) fn store_into(
        &self,
        head: &mut [u32; HASH_SLOTS],
        chain: Option<&mut [u16; CHAIN_SLOTS]>,
    ) {
        head.copy_from_slice(&self.head[..]);
        if let Some(chain) = chain {
            chain.copy_from_slice(&self.chain[..]);
        }
    }

    /// Window position where liblz4's prefix starts (`dictLimit`; 0 without an external
    /// dictionary), as [`ChainTables::begin_block`] set it.
    pub(super) fn prefix(&self) -> usize {
        self.prefix
    }

    /// The index the next position to insert has.
    pub(super) fn next_to_update(&self) -> u32 {
        self.next_to_update
    }

    /// Sets where insertion resumes (liblz4's `nextToUpdate`, which `LZ4_saveDictHC` raises).
    pub(super) fn set_next_to_update(&mut self, index: u32) {
        self.next_to_update = index;
    }

    /// Inserts the positions of `window` (window position 0 at index `base`) from the insertion
    /// cursor up to `until` (excluded), as liblz4's `LZ4HC_Insert` does when it loads a dictionary
    /// or turns the history into the external dictionary. Positions whose 4 bytes do not lie in
    /// `window` are not inserted (the caller passes `until <= window.len() - 3`).
    pub(super) fn insert_range(&mut self, window: &[u8], base: u32, until: usize) {
        let from = self.next_to_update.saturating_sub(base) as usize;
        let until = until.min(window.len().saturating_sub(MINMATCH - 1));
        for pos in from..until {
            let hash = hash4::<HASH_LOG>(read_u32(window, pos));
            let index = pos as u32 + base;
            let delta = (index.wrapping_sub(self.head[hash])).min(MAX_DISTANCE as u32);
            self.chain[usize::from(index as u16)] = delta as u16;
            self.head[hash] = index;
        }
        self.next_to_update = until as u32 + base;
    }

    /// Starts a call over a window of `window_len` bytes: every entry left in the tables becomes
    /// out of reach, by moving the base 65536 past the previous call's indices (or, rarely,
    /// by zeroing the head table). Afterwards every head entry is either 0 or more than 65535
    /// below `base`, so no earlier call's entry is within [`MAX_DISTANCE`] of an index of this
    /// call (level 2's candidate reads rest on that).
    ///
    /// # Panics
    ///
    /// If `window_len` is too large for the index space (above 3 GiB: larger than any window a
    /// block, at most [`MAX_INPUT_SIZE`](super::super::MAX_INPUT_SIZE) bytes, with 64 KiB of
    /// history, needs).
    pub(super) fn reset(&mut self, window_len: usize) {
        let next = u64::from(self.base) + u64::from(self.span) + u64::from(MIN_BASE);
        self.base = if next <= MAX_BASE {
            next as u32
        } else {
            self.head.fill(0);
            MIN_BASE
        };
        assert!(u64::from(self.base) + window_len as u64 <= u64::from(u32::MAX));
        self.span = window_len as u32;
        self.next_to_update = self.base;
        self.prefix = 0;
    }

    /// Index of window position 0 in the current call.
    #[inline(always)]
    pub(super) fn base(&self) -> u32 {
        self.base
    }

    /// Window length of the current call.
    #[inline(always)]
    pub(super) fn span(&self) -> usize {
        self.span as usize
    }

    /// Makes the next [`ChainTables::reset`] start from `base` (tests of the index space's end).
    #[cfg(test)]
    pub(super) fn set_base(&mut self, base: u32) {
        self.base = base;
    }

    /// Inserts every position up to `ip` (excluded) not inserted yet.
    ///
    /// Both parses search at increasing positions (a search never starts before the previous
    /// one), so `ip` is never behind the insertion cursor: afterwards every index in the tables is
    /// below `ip`'s. The chain walk's unchecked reads rely on that (see [`scan`]); the assert
    /// makes it hold rather than trusting the parses.
    #[inline(always)]
    fn insert_up_to(&mut self, src: &[u8], ip: usize) {
        let base = self.base;
        // Every position read below is before `ip`, so its 4 bytes are inside `src` once this
        // holds (the search reads the 4 bytes at `ip` anyway).
        assert!(ip < src.len() - (MINMATCH - 1).min(src.len()));
        assert!(self.next_to_update - base <= ip as u32);
        for pos in (self.next_to_update - base) as usize..ip {
            // In bounds: `pos + 4 <= ip + 3 < src.len()` (the assert).
            let hash = hash4::<HASH_LOG>(word_at!(u32, src, pos));
            let index = pos as u32 + base;
            // Modulo 2^32, as liblz4's: a head entry may be above `index` when a C stream's
            // level changed from liblz4's middle parser, which enters positions past the
            // cursor; the distance is then capped, as in liblz4.
            let delta = index.wrapping_sub(self.head[hash]).min(MAX_DISTANCE as u32);
            self.chain[usize::from(index as u16)] = delta as u16;
            self.head[hash] = index;
        }
        self.next_to_update = ip as u32 + base;
    }

    #[inline(always)]
    fn delta(&self, index: u32) -> u32 {
        u32::from(self.chain[usize::from(index as u16)])
    }

    unchecked_fn! {
        /// Inserts up to `ip`, then searches the chain of `ip` for a match longer than `longest`
        /// bytes, which may start as far back as `low_limit` (`<= ip`) and must end by
        /// `high_limit`. Returns [`Match`] with `len == longest` and offset 0 when there is none.
        ///
        /// `RUNS` enables run skipping, `SWAP` the chain swap (forward searches only); `FAVOR`
        /// skips offsets below 8 in the walk (not in the run shortcut, as liblz4). `EXT`: the
        /// window before [`ChainTables::begin_block`]'s `prefix` is an external dictionary,
        /// searched with liblz4's extDict rules (a candidate in the block does not extend
        /// backwards into it, none starts in its last 3 bytes, and, with `SWAP`, its candidates
        /// skip the end-word filter as liblz4's do, which decides when a chain swap happens).
        ///
        /// # Safety
        ///
        /// The walk reads candidates unchecked (a check per candidate costs the search loop), so:
        /// `low_limit <= ip`, `ip - low_limit < longest`, `ip + MINMATCH <= high_limit <=
        /// src.len()`; and the tables were last [reset](ChainTables::reset) for a window of at
        /// least `src.len()` bytes, with nothing but `find_wider` storing into them since (so every
        /// head entry is below the searched index: those of this call are, after `insert_up_to`,
        /// and those of earlier calls are below `base`).
        ///
        /// # Panics
        ///
        /// Unless `low_limit + longest < src.len()` and `high_limit < src.len()`: the 2 bytes at
        /// the end of the longest match, from `low_limit`, are read (checked). The parses search
        /// up to `src.len() - LASTLITERALS`.
        #[allow(clippy::too_many_arguments)]
        #[inline(always)]
        pub(super) fn find_wider<
            const RUNS: bool,
            const SWAP: bool,
            const FAVOR: bool,
            const EXT: bool,
        >(
            &mut self,
            src: &[u8],
            ip: usize,
            low_limit: usize,
            high_limit: usize,
            mut longest: usize,
            attempts: u32,
            dict: Option<DictCtx<'_>>,
        ) -> Match {
            debug_assert!(low_limit <= ip && ip - low_limit < longest);
            debug_assert!(ip + MINMATCH <= high_limit && high_limit <= src.len());
            debug_assert!(src.len() <= self.span());
            debug_assert!(!SWAP || low_limit == ip);
            self.insert_up_to(src, ip);
            let base = self.base;
            let ip_index = ip as u32 + base;
            let lowest = if ip < MAX_DISTANCE + 1 {
                base
            } else {
                ip_index - MAX_DISTANCE as u32
            };
            let look_back = ip - low_limit;
            let prefix = if EXT { self.prefix } else { 0 };
            debug_assert!(EXT || self.prefix == 0);
            let prefix_index = base + prefix as u32;
            // With an attached dictionary, the block's own chain holds the block only (liblz4's
            // `lowLimit` is the block's start): the dictionary is searched after it.
            let lowest = if EXT && dict.is_some() {
                lowest.max(prefix_index)
            } else {
                lowest
            };
            let pattern = read_u32(src, ip);
            let mut best = Match {
                len: longest,
                offset: 0,
                back: 0,
            };
            // The two bytes at the end of the longest match so far, from `low_limit`, and where
            // they are relative to a candidate, as `end_offset - base`: the index of a candidate
            // plus `end_rel` (wrapping) is the position of its end word. (`u32` arithmetic:
            // positions stay below 2^31.)
            //
            // The walk reads candidates without bounds checks (see `scan`), from these invariants:
            // - indices do not wrap: `ip < src.len() <= span` (the caller's duty) and `base + span
            //   <= u32::MAX` (`reset`); `base >= MIN_BASE = 65536`;
            // - `ip + 4 <= src.len()`: `pattern` above was read with a checked read;
            // - `look_back < longest` (the caller's duty) and `low_limit + longest + 1 <=
            //   src.len()`: `end_word` is read with a checked read each time `longest` changes (it
            //   only grows);
            // - `base <= lowest <= match_index < ip_index` at every candidate read: the walk stops
            //   below `lowest`; it starts at a head entry, below `ip_index` (the caller's duty),
            //   and only ever moves down, by at most 65535 at a time (chain steps and chain swaps
            //   subtract a `u16`, `run_step` returns an index below `match_index` and at least
            //   `lowest`), so it never wraps below 0.
            let mut end_word = read_u16(src, low_limit + longest - 1);
            let mut end_rel = ((longest - 1 - look_back) as u32).wrapping_sub(base);
            // Whether the 8 bytes after the first 4 at `ip` end by `high_limit` (then most
            // candidates are settled by comparing them, without setting up `count_common`).
            assert!(high_limit <= src.len());
            let wide = high_limit >= ip + MINMATCH + 8;
            let mut match_index = self.head[hash4::<HASH_LOG>(pattern)];
            let mut attempts_left = attempts;
            let mut chain_pos = 0u32;
            // Run skipping: whether `ip` starts a run of one byte, and how long it is.
            let mut run_len = RUN_UNTESTED;

            while match_index >= lowest && attempts_left > 0 {
                // Walk the chain until a candidate passes the cheap filters (the 2 bytes at the end
                // of the current best, which a winner must share, then the first 4 bytes) or a run
                // check is due.
                // SAFETY: the walk's invariants (above): `base <= lowest <= match_index < ip_index`
                // (the loop condition and the walk's), `ip_index - base + 4 = ip + 4 <= src.len()`,
                // and for every candidate `c = index - base < ip`, its end word at
                // `index + end_rel = c + longest - 1 - look_back` is at least `c` and ends by
                // `ip - 1 + longest + 1 - look_back = low_limit + longest < src.len()`.
                let passed = match call_unchecked!(scan::<RUNS, FAVOR, EXT, SWAP>(
                    &self.chain,
                    src,
                    match_index,
                    attempts_left,
                    chain_pos,
                    lowest,
                    ip_index,
                    base,
                    end_word,
                    end_rel,
                    pattern,
                    run_len == NOT_A_RUN,
                    prefix_index,
                )) {
                    (_, left, ScanEnd::Exhausted) => {
                        // The attempts left decide whether an attached dictionary is searched
                        // (only with `EXT`: the plain searches' code stays as it was).
                        if EXT {
                            attempts_left = left;
                        }
                        break;
                    }
                    (index, left, end) => {
                        match_index = index;
                        attempts_left = left;
                        // liblz4 never takes a candidate starting in the last 3 bytes of the
                        // external dictionary (only a chain swap can land there).
                        end == ScanEnd::Candidate && (!EXT || protect_dict_end(prefix_index, index))
                    }
                };
                attempts_left -= 1;
                let offset = (ip_index - match_index) as usize;
                let mut match_len = 0;
                if passed {
                    let candidate = (match_index - base) as usize;
                    // How far the candidate extends backwards. Whether it does at all is a coin
                    // flip on text: one word compare settles most candidates without a branch on
                    // it. In bounds: `8 <= candidate < ip <= src.len()` (the walk's invariants).
                    let back = if look_back == 0 {
                        0
                    } else {
                        // A candidate in the block does not extend back into the external
                        // dictionary (liblz4's extDict rule).
                        let floor = if EXT && candidate >= prefix { prefix } else { 0 };
                        let max = look_back.min(candidate - floor);
                        let diff = if candidate >= 8 {
                            word_at!(u64, src, ip - 8) ^ word_at!(u64, src, candidate - 8)
                        } else {
                            0
                        };
                        if diff != 0 {
                            ((diff.leading_zeros() / 8) as usize).min(max)
                        } else {
                            count_back(src, ip, candidate, max)
                        }
                    };
                    let diff = if wide {
                        // In bounds: the 8 bytes at `candidate + 4` end before those at `ip + 4`,
                        // which end by `high_limit <= src.len()` (`wide` and the assert).
                        word_at!(u64, src, ip + MINMATCH) ^ word_at!(u64, src, candidate + MINMATCH)
                    } else {
                        0
                    };
                    let forward = if diff != 0 {
                        (diff.trailing_zeros() / 8) as usize
                    } else {
                        // Past the 8 bytes compared above, if any.
                        let skip = if wide { 8 } else { 0 };
                        let from = MINMATCH + skip;
                        // SAFETY: `candidate < ip` (the walk's invariants), `ip + from <=
                        // high_limit` (`wide`, or `ip + 4 <= high_limit` asserted above) and
                        // `high_limit <= src.len()` (asserted above).
                        skip + call_unchecked!(count_forward(
                            src,
                            ip + from,
                            candidate + from,
                            high_limit
                        ))
                    };
                    match_len = MINMATCH + forward + back;
                    if match_len > longest {
                        longest = match_len;
                        end_word = read_u16(src, low_limit + longest - 1);
                        end_rel = ((longest - 1 - look_back) as u32).wrapping_sub(base);
                        best = Match {
                            len: match_len,
                            offset,
                            back,
                        };
                    }
                }

                if SWAP && match_len == longest && match_index + longest as u32 <= ip_index {
                    // Find, among the positions of the new match, the one whose chain reaches
                    // furthest back, probing more sparsely the longer nothing better turns up.
                    let end = (longest - MINMATCH + 1) as u32;
                    let mut furthest = 1u32;
                    let mut accel = 16u32;
                    let mut pos = 0u32;
                    while pos < end {
                        let distance = self.delta(match_index + pos);
                        let step = accel >> 4;
                        accel += 1;
                        if distance > furthest {
                            furthest = distance;
                            chain_pos = pos;
                            accel = 16;
                        }
                        pos += step;
                    }
                    if furthest > 1 {
                        // `match_index >= base > furthest`: no underflow.
                        match_index -= furthest;
                        continue;
                    }
                }

                if RUNS && chain_pos == 0 && self.delta(match_index) == 1 && run_len != NOT_A_RUN {
                    match run_step(
                        src,
                        ip,
                        high_limit,
                        pattern,
                        &mut run_len,
                        match_index,
                        lowest,
                        base,
                        prefix_index,
                    ) {
                        RunStep::Follow => {}
                        RunStep::Jump(index) => {
                            // `lowest <= index < match_index` (`run_step`).
                            match_index = index;
                            continue;
                        }
                        RunStep::RunStart { index, run_match } => {
                            // `lowest <= index < match_index` (`run_step`).
                            match_index = index;
                            if look_back == 0 {
                                let offset = (ip_index - match_index) as usize;
                                if longest < run_match {
                                    if offset > MAX_DISTANCE {
                                        break;
                                    }
                                    longest = run_match;
                                    end_word = read_u16(src, low_limit + longest - 1);
                                    end_rel = ((longest - 1) as u32).wrapping_sub(base);
                                    best = Match {
                                        len: run_match,
                                        offset,
                                        back: 0,
                                    };
                                }
                                match_index -= self.delta(match_index);
                            }
                            continue;
                        }
                    }
                }

                match_index -= self.delta(match_index + chain_pos);
            }
            if EXT {
                if let Some(dict) = dict {
                    // liblz4 searches the dictionary with the attempts left, while the searched
                    // position is less than 64 KiB into the block.
                    if attempts_left > 0 && ip - prefix <= MAX_DISTANCE {
                        best = dict.search(src, ip, low_limit, high_limit, best, attempts_left);
                    }
                }
            }
            best
        }
    }
}

/// How [`scan`] stopped.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ScanEnd {
    /// The chain left reach or the attempts ran out.
    Exhausted,
    /// The candidate at the returned index passes the filter.
    Candidate,
    /// The candidate at the returned index fails the filter, but its chain steps back by 1 and
    /// run skipping must look at it.
    Run,
}

unchecked_fn! {
    /// The hot part of the chain walk: skips the candidates that fail the two filters (the 2 bytes
    /// at the end of the best length, then the first 4 bytes), exactly as the full loop would, and
    /// stops at the first candidate the full loop must look at, with that candidate's attempt not
    /// yet counted.
    ///
    /// Called with `attempts_left > 0`. Returns the index it stopped at (the candidate, or for
    /// [`ScanEnd::Exhausted`] the first one out of reach), with the attempts left.
    ///
    /// # Safety
    ///
    /// `MIN_BASE <= base <= lowest <= match_index < ip_index`, `chain_pos < 65536`, the 4 bytes at
    /// `ip_index - base` lie inside `src`, and for every index `i` in `lowest..ip_index` the 2
    /// bytes at `i + end_rel` (wrapping) do: the walk visits indices from `match_index` down to
    /// `lowest` and reads those at each, unchecked.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn scan<const RUNS: bool, const FAVOR: bool, const EXT: bool, const SWAP: bool>(
        chain: &[u16; CHAIN_SLOTS],
        src: &[u8],
        match_index: u32,
        mut attempts_left: u32,
        chain_pos: u32,
        lowest: u32,
        ip_index: u32,
        base: u32,
        end_word: u16,
        end_rel: u32,
        pattern: u32,
        not_a_run: bool,
        prefix_index: u32,
    ) -> (u32, u32, ScanEnd) {
        // The walk follows `link = match_index + chain_pos`, the entry whose chain it is on, so
        // that the next one is a load and a subtraction away (the dependency that bounds the walk's
        // speed); the candidate's reads are offset back by `chain_pos` through the constants. (No
        // overflow: indices stay below 2^31, `chain_pos` below 2^16; no underflow either, as the
        // walk stops within 65535 below `lowest_link >= base + chain_pos >= 65536 + chain_pos`.)
        let mut link = match_index + chain_pos;
        let lowest_link = lowest + chain_pos;
        let base_link = base + chain_pos;
        let end_rel = end_rel.wrapping_sub(chain_pos);
        loop {
            let match_index = link - chain_pos;
            debug_assert!(lowest <= match_index && match_index < ip_index && base <= lowest);
            let probe = !(FAVOR && ip_index - match_index < 8);
            // In bounds (the caller's duty): `lowest <= match_index < ip_index`, so the end word at
            // `match_index + end_rel` is inside, and so are the 4 bytes at `match_index - base`,
            // which end before those at `ip_index - base`.
            // With `EXT` and `SWAP`, a candidate in the external dictionary skips the end-word filter,
            // as in liblz4 (where only block candidates have it): a candidate matching exactly
            // as long as the best then triggers a chain swap there too.
            if probe
                && ((EXT && SWAP && match_index < prefix_index)
                    || end_word == word_at!(u16, src, link.wrapping_add(end_rel) as usize))
                && word_at!(u32, src, (link - base_link) as usize) == pattern
            {
                return (match_index, attempts_left, ScanEnd::Candidate);
            }
            let delta = u32::from(chain[usize::from(link as u16)]);
            if RUNS && delta == 1 && chain_pos == 0 && !not_a_run {
                return (match_index, attempts_left, ScanEnd::Run);
            }
            link -= delta;
            attempts_left -= 1;
            if attempts_left == 0 || link < lowest_link {
                return (link - chain_pos, attempts_left, ScanEnd::Exhausted);
            }
        }
    }
}

/// Whether a search may land on `index`: not in the last 3 bytes of an external dictionary
/// that ends at `prefix_index` (liblz4's `LZ4HC_protectDictEnd`; without one, `prefix_index` is
/// the window's base and every searched index passes).
#[inline(always)]
fn protect_dict_end(prefix_index: u32, index: u32) -> bool {
    (prefix_index.wrapping_sub(1)).wrapping_sub(index) >= 3
}

/// `run_len` before the searched position was tested for a run.
const RUN_UNTESTED: usize = 0;
/// `run_len` when the searched position does not start a run of one byte.
const NOT_A_RUN: usize = 1;

/// What run skipping decided for a candidate whose chain steps back by 1.
enum RunStep {
    /// Nothing to skip: follow the chain as usual.
    Follow,
    /// Continue the search at this index.
    Jump(u32),
    /// The earlier run starts at `index`; as a match it is `run_match` bytes long.
    RunStart { index: u32, run_match: usize },
}

/// Run skipping (see the module documentation), kept out of the search loop: it runs rarely,
/// and inline it would take registers from the loop. A returned index is in
/// `lowest..match_index` (see the end of the function).
#[cold]
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn run_step(
    src: &[u8],
    ip: usize,
    high_limit: usize,
    pattern: u32,
    run_len: &mut usize,
    match_index: u32,
    lowest: u32,
    base: u32,
    prefix_index: u32,
) -> RunStep {
    let byte = pattern as u8;
    if *run_len == RUN_UNTESTED {
        *run_len = if pattern.to_le_bytes().iter().all(|&b| b == byte) {
            MINMATCH + run_forward(src, ip + MINMATCH, high_limit, byte)
        } else {
            NOT_A_RUN
        };
    }
    let src_run = *run_len;
    let candidate_index = match_index - 1;
    if src_run == NOT_A_RUN
        || candidate_index < lowest
        || !protect_dict_end(prefix_index, candidate_index)
    {
        return RunStep::Follow;
    }
    let candidate = (candidate_index - base) as usize;
    if read_u32(src, candidate) != pattern {
        return RunStep::Follow;
    }
    let forward = MINMATCH + run_forward(src, candidate + MINMATCH, high_limit, byte);
    let backward = run_backward(src, candidate, byte).min((candidate_index - lowest) as usize);
    let segment = backward + forward;
    let step = if segment >= src_run && forward <= src_run {
        // The earlier run covers ours: try the position where it ends exactly as far after as
        // ours does.
        let index = candidate_index + forward as u32 - src_run as u32;
        if protect_dict_end(prefix_index, index) {
            RunStep::Jump(index)
        } else {
            // In the last 3 bytes of an external dictionary (a run that started in the block
            // and reached back into it): the block's start instead, as in liblz4.
            RunStep::Jump(prefix_index)
        }
    } else {
        // Jump to the start of the earlier run.
        let index = candidate_index - backward as u32;
        if protect_dict_end(prefix_index, index) {
            RunStep::RunStart {
                index,
                run_match: segment.min(src_run),
            }
        } else {
            RunStep::Jump(prefix_index)
        }
    };
    // The walk only moves down and stays in reach (`find_wider`'s unchecked reads rest on it):
    // a jump needs `forward <= src_run <= segment = backward + forward`, so its index is at most
    // `candidate_index` and at least `candidate_index - backward`; and `backward <=
    // candidate_index - lowest`. (No `u32` overflow: `candidate_index + forward` is at most the
    // index of `high_limit`, below `base + span`.)
    #[cfg(debug_assertions)]
    if let RunStep::Jump(index) | RunStep::RunStart { index, .. } = step {
        debug_assert!(lowest <= index && index < match_index);
    }
    step
}

#[cfg(test)]
mod tests {
    use super::super::super::sequence::tests::binary;
    use super::*;
    use alloc::vec::Vec;

    /// Every `b < a <= len`, `max <= b` of inputs up to 40 bytes, and equal runs that reach the
    /// start of `src`.
    #[test]
    fn count_back_at_every_edge() {
        for seed in 0..16 {
            let src = binary(40, seed);
            for a in 1..=src.len() {
                for b in 0..a {
                    for max in 0..=b {
                        let want = (0..max)
                            .take_while(|k| src[a - 1 - k] == src[b - 1 - k])
                            .count();
                        assert_eq!(count_back(&src[..a], a, b, max), want, "{a} {b} {max}");
                    }
                }
            }
        }
        let run = [5u8; 40];
        for a in 1..=run.len() {
            for b in 0..a {
                assert_eq!(count_back(&run[..a], a, b, b), b);
            }
        }
    }

    /// The best match a search with unlimited attempts must find: the longest (then the
    /// nearest) of those within reach that share the 4 bytes at `ip`, extended forwards up to
    /// `high_limit` and backwards down to `low_limit`.
    fn naive_best(src: &[u8], ip: usize, low: usize, high: usize, longest: usize) -> Match {
        let mut best = Match {
            len: longest,
            offset: 0,
            back: 0,
        };
        for candidate in (ip.saturating_sub(MAX_DISTANCE)..ip).rev() {
            if src[candidate..candidate + 4] != src[ip..ip + 4] {
                continue;
            }
            let forward = (ip..high)
                .take_while(|&i| src[i] == src[i - ip + candidate])
                .count();
            let back = (0..(ip - low).min(candidate))
                .take_while(|k| src[ip - 1 - k] == src[candidate - 1 - k])
                .count();
            if back + forward > best.len {
                best = Match {
                    len: back + forward,
                    offset: ip - candidate,
                    back,
                };
            }
        }
        best
    }

    /// `find_wider` at the edges of its duty: `high_limit` one byte before the end of `src` (the
    /// end word after the longest match is read, checked), `ip` 4 bytes before it, `low_limit`
    /// as far back as `longest` allows; without run skipping and chain swap it finds exactly the
    /// naive best match, with them a real match no longer than that.
    #[test]
    fn find_wider_at_every_edge() {
        let mut tables = ChainTables::new();
        let mut inputs: Vec<Vec<u8>> = (0..12).map(|seed| binary(48, seed)).collect();
        inputs.push([9u8; 48].to_vec());
        inputs.push(b"abcabcabcabcabcXabcabcabcabcabcabcYYYYYYYYYYYYYYYYabc".to_vec());
        for input in &inputs {
            for len in [13, 20, 33, input.len()] {
                let src = &input[..len];
                for longest in [3usize, 4, 6, 9] {
                    for look_back in 0..longest {
                        let high = src.len() - 1;
                        // The end word read at the start: `low + longest < src.len()`.
                        let last = (high - MINMATCH).min(src.len() - 1 - longest + look_back);
                        tables.reset(src.len());
                        for ip in look_back..=last {
                            let low = ip - look_back;
                            let want = naive_best(src, ip, low, high, longest);
                            // SAFETY: `low <= ip`, `ip - low < longest`, `ip + 4 <= high <
                            // src.len()`, and the tables were reset for `src`, searched at
                            // increasing `ip`.
                            let got = call_unchecked!(tables
                                .find_wider::<false, false, false, false>(
                                    src,
                                    ip,
                                    low,
                                    high,
                                    longest,
                                    u32::MAX,
                                    None
                                ));
                            assert_eq!(got, want, "ip {ip}, low {low}, longest {longest}");
                        }
                        // Run skipping and the chain swap (forward searches only).
                        tables.reset(src.len());
                        for ip in look_back..=last {
                            let low = ip - look_back;
                            let bound = naive_best(src, ip, low, high, longest).len;
                            // SAFETY: as above.
                            let got = if look_back == 0 {
                                call_unchecked!(tables.find_wider::<true, true, false, false>(
                                    src,
                                    ip,
                                    low,
                                    high,
                                    longest,
                                    1 << 14,
                                    None
                                ))
                            } else {
                                call_unchecked!(tables.find_wider::<true, false, true, false>(
                                    src,
                                    ip,
                                    low,
                                    high,
                                    longest,
                                    1 << 14,
                                    None
                                ))
                            };
                            assert!(got.len <= bound);
                            if got.offset != 0 {
                                let from = ip - got.back;
                                let matched = &src[from..from + got.len];
                                assert_eq!(matched, &src[from - got.offset..][..got.len]);
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn runs() {
        let src = b"xxaaaaaaaaaaaaaaaaaaaab";
        assert_eq!(run_forward(src, 2, src.len(), b'a'), 20);
        assert_eq!(run_forward(src, 2, 10, b'a'), 8);
        assert_eq!(run_backward(src, 22, b'a'), 20);
        assert_eq!(run_backward(src, 5, b'a'), 3);
        assert_eq!(run_backward(src, 2, b'x'), 2);
        assert_eq!(run_backward(src, 0, b'x'), 0);
        // Up to the limit or the start exactly, across whole words.
        let run = [3u8; 40];
        for from in 0..=run.len() {
            for limit in from..=run.len() {
                assert_eq!(run_forward(&run, from, limit, 3), limit - from);
            }
            assert_eq!(run_backward(&run, from, 3), from);
            assert_eq!(run_backward(&run, from, 4), 0);
        }
    }
}
