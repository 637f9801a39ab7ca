//! Level 2 ("mid"): greedy parse over two single-entry hash tables.
//!
//! One table is keyed by a hash of 8 bytes (7 significant), the other by a hash of 4 bytes; both
//! have 16384 entries (the two halves of the chain tables' head table) holding the last position
//! seen with that hash. At each position the long table is probed first: a candidate within
//! reach that shares at least 4 bytes is taken. Otherwise the short table is probed, and on a hit
//! the long table is probed one byte later, whose match is taken instead if it is longer. A found
//! match is extended backwards over the pending literals, emitted, and the positions around its
//! start and end are entered into the tables (the positions inside long matches are not, which
//! is what makes this level fast). On a miss the position advances by `1 + literals / 512`.
//!
//! As in liblz4, the two positions after a match start are entered under the indices of the
//! position where the search started (before the backward extension and the one-byte step);
//! candidates are always verified, so a stale entry costs a comparison, not correctness.

use super::super::sequence::{
    call_unchecked, common_prefix, count_common, hash4, read_u32, read_u64, unchecked_fn,
    MIN_COMPRESSIBLE,
};
use super::super::{LASTLITERALS, MAX_DISTANCE, MFLIMIT, MINMATCH};
use super::chain::{ChainTables, DictCtx, Match, HASH_SLOTS, NO_MATCH};
use super::{emit, HcOut};
use crate::Error;

const HALF: usize = HASH_SLOTS / 2;
const MID_HASH_LOG: u32 = 14;
/// Bytes the long hash reads.
const LONG_HASH_BYTES: usize = 8;

/// Hash of the 4 bytes at `pos`.
#[inline(always)]
fn hash_short(src: &[u8], pos: usize) -> usize {
    hash4::<MID_HASH_LOG>(read_u32(src, pos))
}

/// Hash of the low 7 bytes of the little-endian 8-byte word at `pos`.
#[inline(always)]
fn hash_long(src: &[u8], pos: usize) -> usize {
    ((read_u64(src, pos) << 8).wrapping_mul(58_295_818_150_454_627) >> (64 - MID_HASH_LOG)) as usize
}

/// The two tables, as views of the head table.
struct Tables<'a> {
    short: &'a mut [u32],
    long: &'a mut [u32],
}

impl Tables<'_> {
    #[inline(always)]
    fn put_short(&mut self, src: &[u8], pos: usize, index: u32) {
        self.short[hash_short(src, pos) & (HALF - 1)] = index;
    }
    #[inline(always)]
    fn put_long(&mut self, src: &[u8], pos: usize, index: u32) {
        self.long[hash_long(src, pos) & (HALF - 1)] = index;
    }
}

/// Whether a table entry `distance` indices back is a usable candidate. (Zero cannot happen
/// for an entry written before the current position; the check keeps that local.)
///
/// An entry in reach is one this call stored, so its position `entry - base` is below the
/// searched one (what the unchecked match counts rest on): it is at most 65535 below the
/// searched index, which is under `base + span`, while every entry of an earlier call is 0 or
/// more than 65535 below `base` ([`ChainTables::reset`]), and this call stores only indices
/// `pos + base` of positions `pos < src.len() <= span` (the parse's duty).
#[inline(always)]
fn in_reach(distance: u32) -> bool {
    (1..=MAX_DISTANCE as u32).contains(&distance)
}

unchecked_fn! {
    /// The level-2 parse over `src[start..]`; returns the anchor (start of the final literals).
    ///
    /// Without `EXT`, `src[..start]` is history entered into the tables here (every position of
    /// its last 64 KiB), as a prefix of the block. With `EXT` it is liblz4's external dictionary:
    /// the tables already hold liblz4's state for it (a stream's or a loaded dictionary's,
    /// set up by [`ChainTables::begin_block`]), a candidate in it counts only up to its end, and
    /// neither the one-byte-later retry nor the backward extension reaches into it.
    ///
    /// # Safety
    ///
    /// `src.len() - start >= MIN_COMPRESSIBLE`; without `EXT`, the tables were last
    /// [reset](ChainTables::reset) for `src`, with nothing storing into them since; with `EXT`
    /// they were last [set up](ChainTables::begin_block) for `src` with `prefix <= start`, every
    /// entry at or above its base being the index of an earlier position of `src`; `out` is
    /// empty, and without `EXACT` its `dst` holds `compress_bound(src.len() - start)`.
    pub(super) fn parse<const EXACT: bool, const EXT: bool>(
        tables: &mut ChainTables,
        src: &[u8],
        start: usize,
        out: &mut HcOut<'_>,
        dict: Option<DictCtx<'_>>,
    ) -> Result<usize, Error> {
        debug_assert!(src.len() - start >= MIN_COMPRESSIBLE);
        // See `in_reach`: this call's indices are `pos + base` for `pos < src.len() <= span` (the
        // duty: the tables were reset for `src`).
        debug_assert!(src.len() <= tables.span());
        let base = tables.base();
        // Where liblz4's prefix starts (`dictLimit`): below it, candidates are in the external
        // dictionary. A block continuing a contiguous one starts after it.
        let prefix = if EXT { tables.prefix() } else { 0 };
        debug_assert!(prefix <= start);
        let (short, long) = tables.head.split_at_mut(HALF);
        let mut tables = Tables { short, long };
        let len = src.len();
        let mflimit = len - MFLIMIT;
        let match_limit = len - LASTLITERALS;
        // The last position whose 8 bytes the long hash may read.
        let hash_limit = len - LONG_HASH_BYTES;
        let index = |pos: usize| pos as u32 + base;

        // History: enter every position of `src[..start]` (up to 64 KiB of it can be reached).
        if !EXT {
            for pos in start.saturating_sub(MAX_DISTANCE)..start.min(hash_limit) {
                tables.put_short(src, pos, index(pos));
                tables.put_long(src, pos, index(pos));
            }
        }
        let prefix_index = index(prefix);
        // A candidate in the external dictionary: its match counts up to the dictionary's end
        // at most (liblz4 does not continue into the block there).
        // With an attached dictionary there is no external one (liblz4's `lowLimit` is then its
        // `dictLimit`): the window's front is the attached dictionary, searched apart, and an
        // entry below the block's prefix (a C stream's, kept by `LZ4_saveDictHC`) is no
        // candidate.
        let has_ext = dict.is_none();
        let ext_match = |ip: usize, candidate_index: u32| -> Option<usize> {
            if !has_ext || candidate_index < base {
                // Before the window: out of liblz4's reach (below its `lowLimit`).
                return None;
            }
            let candidate = (candidate_index - base) as usize;
            let limit = (prefix - candidate).min(match_limit - ip);
            let length = common_prefix(&src[ip..ip + limit], &src[candidate..candidate + limit]);
            (length >= MINMATCH).then_some(length)
        };

        let mut ip = start;
        let mut anchor = start;
        while ip <= mflimit {
            let ip_index = index(ip);
            let found = 'search: {
                let long_hash = hash_long(src, ip) & (HALF - 1);
                let long_candidate = tables.long[long_hash];
                tables.long[long_hash] = ip_index;
                if in_reach(ip_index.wrapping_sub(long_candidate)) {
                    if EXT && long_candidate < prefix_index {
                        if let Some(length) = ext_match(ip, long_candidate) {
                            break 'search Some((length, (ip_index - long_candidate) as usize));
                        }
                    } else {
                        let candidate = (long_candidate - base) as usize;
                        // SAFETY: `candidate < ip` (`in_reach`), `ip <= mflimit < match_limit <=
                        // src.len()` (the loop condition).
                        let length = call_unchecked!(count_common(src, ip, candidate, match_limit));
                        if length >= MINMATCH {
                            break 'search Some((length, (ip_index - long_candidate) as usize));
                        }
                    }
                }
                let short_hash = hash_short(src, ip) & (HALF - 1);
                let short_candidate = tables.short[short_hash];
                tables.short[short_hash] = ip_index;
                if EXT
                    && short_candidate < prefix_index
                    && in_reach(ip_index.wrapping_sub(short_candidate))
                {
                    if let Some(length) = ext_match(ip, short_candidate) {
                        break 'search Some((length, (ip_index - short_candidate) as usize));
                    }
                } else if in_reach(ip_index.wrapping_sub(short_candidate)) {
                    let candidate = (short_candidate - base) as usize;
                    // SAFETY: as for the long candidate.
                    let length = call_unchecked!(count_common(src, ip, candidate, match_limit));
                    if length >= MINMATCH {
                        // A short match: a long one starting a byte later may be better.
                        let next_hash = hash_long(src, ip + 1) & (HALF - 1);
                        let next_candidate = tables.long[next_hash];
                        let next_distance = (ip_index + 1).wrapping_sub(next_candidate);
                        if in_reach(next_distance)
                            && (!EXT || next_candidate >= prefix_index)
                            && ip < mflimit
                        {
                            let candidate = (next_candidate - base) as usize;
                            // SAFETY: `candidate < ip + 1` (`in_reach`), `ip + 1 <= mflimit` (the
                            // condition above).
                            let next_len =
                                call_unchecked!(count_common(src, ip + 1, candidate, match_limit));
                            if next_len > length {
                                tables.long[next_hash] = ip_index + 1;
                                ip += 1;
                                break 'search Some((next_len, next_distance as usize));
                            }
                        }
                        break 'search Some((length, (ip_index - short_candidate) as usize));
                    }
                }
                // Nothing in the block: an attached dictionary (liblz4's dictCtx, prepared at a
                // chain level as LZ4F prepares it) is searched with 2 attempts, while the position
                // is less than 65527 bytes into the block (`LZ4MID_searchHCDict`).
                if EXT {
                    if let Some(dict) = dict {
                        if ip - prefix < MAX_DISTANCE - 8 {
                            let none = Match {
                                len: MINMATCH - 1,
                                ..NO_MATCH
                            };
                            let best = if dict.mid {
                                search_mid_dict(dict, src, ip, match_limit)
                            } else {
                                dict.search(src, ip, ip, match_limit, none, 2)
                            };
                            if best.len >= MINMATCH {
                                break 'search Some((best.len, best.offset));
                            }
                        }
                    }
                }
                None
            };
            let Some((mut length, offset)) = found else {
                // Skip faster the longer nothing matched.
                ip += 1 + ((ip - anchor) >> 9);
                continue;
            };

            // Extend backwards over the pending literals.
            while ip > anchor && ip - prefix > offset && src[ip - 1] == src[ip - 1 - offset] {
                ip -= 1;
                length += 1;
            }

            tables.put_long(src, ip + 1, ip_index + 1);
            tables.put_long(src, ip + 2, ip_index + 2);
            tables.put_short(src, ip + 1, ip_index + 1);

            // SAFETY: `anchor <= ip` (the search starts at `anchor`, moves forward, and the
            // extension stops at it); `ip + 8 <= src.len()` (`ip <= mflimit`, lowered by the
            // extension); the match ends by `match_limit` (counted up to it; the extension adds
            // what it takes from the front); without `EXACT` the room follows from the bound (this
            // function's duty) and the sequences being consecutive (`anchor` moves only here, to
            // each match's end).
            call_unchecked!(emit::<EXACT>(
                out,
                src,
                &mut anchor,
                &mut ip,
                length,
                offset
            ))?;

            // Enter positions around the end of the match.
            let end_index = index(ip);
            if ip - 2 < hash_limit {
                if ip - prefix > 5 {
                    tables.put_long(src, ip - 5, end_index - 5);
                }
                tables.put_long(src, ip - 3, end_index - 3);
                tables.put_long(src, ip - 2, end_index - 2);
                tables.put_short(src, ip - 2, end_index - 2);
                tables.put_short(src, ip - 1, end_index - 1);
            }
        }
        Ok(anchor)
    }
}

/// liblz4's `LZ4MID_searchExtDict`: an attached dictionary with level-2 tables (a C stream's)
/// is searched on its long table, then its short one, for a candidate at most 65535 back whose
/// match (counted up to the dictionary's end) has 4 bytes or more; the first found is taken.
/// Safe code with checked reads: it runs for positions with nothing in the block only.
#[inline(never)]
fn search_mid_dict(dict: DictCtx<'_>, src: &[u8], ip: usize, match_limit: usize) -> Match {
    let (short, long) = dict.tables.head.split_at(HALF);
    let candidates = [
        long[hash_long(src, ip) & (HALF - 1)],
        short[hash_short(src, ip) & (HALF - 1)],
    ];
    for dict_index in candidates {
        let distance = (ip as u64 + u64::from(dict.base)).wrapping_sub(u64::from(dict_index));
        if distance > MAX_DISTANCE as u64 || distance > ip as u64 {
            continue;
        }
        let candidate = ip - distance as usize;
        if candidate >= dict.len {
            continue;
        }
        let limit = (dict.len - candidate).min(match_limit - ip);
        let len = common_prefix(&src[ip..ip + limit], &src[candidate..candidate + limit]);
        if len >= MINMATCH {
            return Match {
                len,
                offset: distance as usize,
                back: 0,
            };
        }
    }
    NO_MATCH
}

/// Enters a dictionary into cleared tables as liblz4's `LZ4MID_fillHTable` does when
/// `LZ4_loadDictHC` runs at level 2: with the dictionary at indices from `base` (its position
/// 0) and `size = dict.len() - 8`, the 4-byte table gets every third position and the 8-byte
/// table the position after each of those, then every position of the last 32 KiB (all of them
/// for smaller dictionaries). Dictionaries of 8 bytes or fewer enter nothing.
pub(super) fn fill_dictionary(tables: &mut ChainTables, dict: &[u8], base: u32) {
    if dict.len() <= LONG_HASH_BYTES {
        return;
    }
    let (short, long) = tables.head.split_at_mut(HALF);
    let mut tables = Tables { short, long };
    // Positions whose 8 bytes lie in the dictionary.
    let target = dict.len() - LONG_HASH_BYTES;
    for pos in (0..target).step_by(3) {
        tables.put_short(dict, pos, pos as u32 + base);
        tables.put_long(dict, pos + 1, pos as u32 + 1 + base);
    }
    let from = if dict.len() > 32 * 1024 + LONG_HASH_BYTES {
        target - 32 * 1024
    } else {
        0
    };
    for pos in from..target {
        tables.put_long(dict, pos, pos as u32 + base);
    }
}
