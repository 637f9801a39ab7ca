//! The lazy parse of levels 3-9, over the hash-chain finder (`chain`).
//!
//! With a match `M1` at `ip`, search near its end (two bytes before) for a match `M2` that,
//! extended backwards, is longer. None: emit `M1`. Otherwise search near the end of `M2` for `M3`
//! in the same way. With three ascending matches, `M1` is shortened so that `M2` can start where
//! it is worth most (a shortened `M1` is kept at up to 18 bytes, the longest that fits the token
//! nibble), `M1` is emitted, and the window slides (`M2` becomes `M1`). When `M3` overlaps `M1`
//! too much, `M2` is dropped; when `M2` starts less than 3 bytes after `M1`, `M1` is dropped.

use super::super::sequence::{call_unchecked, unchecked_fn};
use super::super::{LASTLITERALS, MFLIMIT, MINMATCH};
use super::chain::{ChainTables, DictCtx, Match, NO_MATCH};
use super::{emit, HcOut};
use crate::Error;

/// The longest match that fits the token's match nibble (liblz4's `OPTIMAL_ML`).
const OPTIMAL_ML: usize = 15 - 1 + MINMATCH;

unchecked_fn! {
    /// The lazy parse of levels 3-9 over `src[start..]`; returns the anchor (start of the final
    /// literals).
    ///
    /// # Safety
    ///
    /// `src.len() - start >= MIN_COMPRESSIBLE`; the tables were last [reset](ChainTables::reset)
    /// for `src` (with `EXT`: [set up](ChainTables::begin_block) for it with `prefix <= start`),
    /// with nothing storing into them since (the duty of [`ChainTables::find_wider`] that its
    /// caller carries); `out` is empty, and without `EXACT` its `dst` holds
    /// `compress_bound(src.len() - start)` (the duty of [`emit`]).
    // Out of line: once per block, and inlined into the caller its register allocation would
    // depend on the other strategies' code around it.
    #[inline(never)]
    pub(super) fn parse<const EXACT: bool, const EXT: bool>(
        tables: &mut ChainTables,
        src: &[u8],
        start: usize,
        out: &mut HcOut<'_>,
        attempts: u32,
        dict: Option<DictCtx<'_>>,
    ) -> Result<usize, Error> {
        // SAFETY: this function's duty is the callee's.
        if attempts > 128 {
            call_unchecked!(lazy::<EXACT, EXT, true>(tables, src, start, out, attempts, dict))
        } else {
            call_unchecked!(lazy::<EXACT, EXT, false>(tables, src, start, out, attempts, dict))
        }
    }
}

unchecked_fn! {
    /// [`parse`] with run skipping or without.
    ///
    /// # Safety
    ///
    /// That of [`parse`].
    fn lazy<const EXACT: bool, const EXT: bool, const RUNS: bool>(
        tables: &mut ChainTables,
        src: &[u8],
        start: usize,
        out: &mut HcOut<'_>,
        attempts: u32,
        dict: Option<DictCtx<'_>>,
    ) -> Result<usize, Error> {
        let len = src.len();
        // No match starts after this position, and matches end by `match_limit`.
        let mflimit = len - MFLIMIT;
        let match_limit = len - LASTLITERALS;
        let mut ip = start;
        let mut anchor = start;

        // Every match the parse keeps (`m0` to `m3`) is at least MINMATCH long: `find` returns
        // longer ones only, and the cuts below leave MINMATCH at least.
        let find = |tables: &mut ChainTables, at: usize, low: usize, longest: usize| {
            // SAFETY: each call below passes `low <= at`, `at - low < longest` and
            // `at + MINMATCH <= match_limit` (said at each), `match_limit <= src.len()`, and the
            // tables' duty is this function's.
            call_unchecked!(tables.find_wider::<RUNS, false, false, EXT>(
                src,
                at,
                low,
                match_limit,
                longest,
                attempts,
                dict
            ))
        };

        #[derive(Clone, Copy)]
        enum Step {
            Search2,
            Search3,
        }

        while ip <= mflimit {
            // `ip <= mflimit`, so `ip + 4 <= match_limit`.
            let mut m1 = find(tables, ip, ip, MINMATCH - 1);
            if m1.len < MINMATCH {
                ip += 1;
                continue;
            }
            // The first match, kept in case the window slides past it too far.
            let mut start0 = ip;
            let mut m0 = m1;
            let mut start2 = 0usize;
            let mut m2 = NO_MATCH;
            let mut start3 = 0usize;
            let mut m3: Match;
            let mut step = Step::Search2;
            loop {
                match step {
                    Step::Search2 => {
                        if ip + m1.len <= mflimit {
                            // `at - ip = m1.len - 2` (`m1.len >= 4`), `at + 4 <= mflimit + 2`.
                            let at = ip + m1.len - 2;
                            m2 = find(tables, at, ip, m1.len);
                            start2 = at - m2.back;
                        } else {
                            m2 = NO_MATCH;
                        }
                        if m2.len <= m1.len {
                            // SAFETY: see `emit`; here `anchor <= ip` and the match ends by
                            // `match_limit` (see the top of the loop).
                            call_unchecked!(emit::<EXACT>(
                                out,
                                src,
                                &mut anchor,
                                &mut ip,
                                m1.len,
                                m1.offset
                            ))?;
                            break;
                        }
                        if start0 < ip && start2 < ip + m0.len {
                            // M2 starts inside the first match: go back to it.
                            ip = start0;
                            m1 = m0;
                        }
                        if start2 - ip < 3 {
                            // M1 would be too short before M2: drop it.
                            ip = start2;
                            m1 = m2;
                            continue;
                        }
                        step = Step::Search3;
                    }
                    Step::Search3 => {
                        if start2 - ip < OPTIMAL_ML {
                            // Let M1 keep up to OPTIMAL_ML bytes (leaving M2 at least MINMATCH).
                            let mut new_len = m1.len.min(OPTIMAL_ML);
                            if ip + new_len > start2 + m2.len - MINMATCH {
                                new_len = start2 - ip + m2.len - MINMATCH;
                            }
                            if new_len > start2 - ip {
                                let correction = new_len - (start2 - ip);
                                start2 += correction;
                                m2.len -= correction;
                            }
                        }
                        if start2 + m2.len <= mflimit {
                            // `at - start2 = m2.len - 3` (`m2.len >= 4`), `at + 4 <= mflimit + 1`.
                            let at = start2 + m2.len - 3;
                            m3 = find(tables, at, start2, m2.len);
                            start3 = at - m3.back;
                        } else {
                            m3 = NO_MATCH;
                        }
                        if m3.len <= m2.len {
                            // No better third match: emit M1 (cut at M2) and M2.
                            if start2 < ip + m1.len {
                                m1.len = start2 - ip;
                            }
                            // SAFETY: see `emit`; here `anchor <= ip` and the match ends by
                            // `match_limit` (see the top of the loop).
                            call_unchecked!(emit::<EXACT>(
                                out,
                                src,
                                &mut anchor,
                                &mut ip,
                                m1.len,
                                m1.offset
                            ))?;
                            ip = start2;
                            // SAFETY: see `emit`; here `anchor <= ip` and the match ends by
                            // `match_limit` (see the top of the loop).
                            call_unchecked!(emit::<EXACT>(
                                out,
                                src,
                                &mut anchor,
                                &mut ip,
                                m2.len,
                                m2.offset
                            ))?;
                            break;
                        }
                        if start3 < ip + m1.len + 3 {
                            // M3 leaves no room for M2 after M1.
                            if start3 >= ip + m1.len {
                                // M1 can go now; M2 (cut at M1's end) or M3 is the next first
                                // match.
                                if start2 < ip + m1.len {
                                    let correction = ip + m1.len - start2;
                                    if m2.len < correction + MINMATCH {
                                        start2 = start3;
                                        m2 = m3;
                                    } else {
                                        start2 += correction;
                                        m2.len -= correction;
                                    }
                                }
                                // SAFETY: see `emit`; here `anchor <= ip` and the match ends by
                                // `match_limit` (see the top of the loop).
                                call_unchecked!(emit::<EXACT>(
                                    out,
                                    src,
                                    &mut anchor,
                                    &mut ip,
                                    m1.len,
                                    m1.offset
                                ))?;
                                ip = start3;
                                m1 = m3;
                                start0 = start2;
                                m0 = m2;
                                step = Step::Search2;
                                continue;
                            }
                            start2 = start3;
                            m2 = m3;
                            continue;
                        }
                        // Three ascending matches: emit M1, cut so that M2 starts well.
                        if start2 < ip + m1.len {
                            if start2 - ip < OPTIMAL_ML {
                                m1.len = m1.len.min(OPTIMAL_ML);
                                if ip + m1.len > start2 + m2.len - MINMATCH {
                                    m1.len = start2 - ip + m2.len - MINMATCH;
                                }
                                if m1.len > start2 - ip {
                                    let correction = m1.len - (start2 - ip);
                                    start2 += correction;
                                    m2.len -= correction;
                                }
                            } else {
                                m1.len = start2 - ip;
                            }
                        }
                        // SAFETY: see `emit`; here `anchor <= ip` and the match ends by
                        // `match_limit` (see the top of the loop).
                        call_unchecked!(emit::<EXACT>(
                            out,
                            src,
                            &mut anchor,
                            &mut ip,
                            m1.len,
                            m1.offset
                        ))?;
                        ip = start2;
                        m1 = m2;
                        start2 = start3;
                        m2 = m3;
                    }
                }
            }
        }
        Ok(anchor)
    }
}
