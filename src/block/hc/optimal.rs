//! The optimal parser of levels 10-12.
//!
//! From a position `ip` with a match, the parser prices every position `ip + r` up to the end
//! of the furthest match found so far (at most [`OPT_NUM`] ahead): `opt[r]` holds the cheapest
//! known way to cover `ip..ip + r` in output bytes, as its last step (a literal, or a match of
//! `mlen` bytes at `offset` ending at `r`) and, for a literal step, how many literals are pending
//! there. Prices count bytes exactly as the block format spends them:
//!
//! - `literal_price(n) = n + (n >= 15 ? 1 + (n - 15) / 255 : 0)` (the literals and their length
//!   extension);
//! - `sequence_price(n, m) = 3 + literal_price(n) + (m >= 19 ? 1 + (m - 19) / 255 : 0)` (token,
//!   offset, literals, match length extension).
//!
//! Positions are visited in order; at each one whose price could still improve something (the
//! next position is not already as cheap; level 12 also searches where a short match could
//! still pay off) the chains are searched, and every length from 4 to the found match's length
//! is offered as a step ending at `r + length`. A match longer than the level's target length
//! (64, 128, 4095) is taken at once without pricing. The window ends at the furthest match end
//! plus 3 trailing literal positions; the cheapest path to its last match end is then traced back
//! and emitted, and the parse continues after it.
//!
//! With `favor_dec_speed`, the chain walk skips offsets below 8 (its run shortcut does not, as
//! liblz4's does not), matches of 19 to 36 bytes are cut to 18, and a match step must be strictly
//! cheaper than a known path to replace it.

use super::super::sequence::{call_unchecked, unchecked_fn};
use super::super::{LASTLITERALS, MFLIMIT, MINMATCH, ML_MASK, RUN_MASK};
use super::chain::{ChainTables, DictCtx};
use super::{emit, HcOut};
use crate::Error;

/// Positions the parser prices ahead of `ip` (liblz4's `LZ4_OPT_NUM`).
pub(super) const OPT_NUM: usize = 1 << 12;
/// Literal positions priced after the furthest match end.
const TRAILING_LITERALS: usize = 3;
/// Length of the cost array.
pub(super) const OPT_NODES: usize = OPT_NUM + TRAILING_LITERALS;

/// The cheapest known way to reach one position of the window.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct OptNode {
    /// Output bytes spent from the window start (including the literals pending before it).
    price: u32,
    /// Literals pending at this position (when `mlen == 1`), or before the match ending here.
    litlen: u32,
    /// 1 for a literal step, else the length of the match ending here.
    mlen: u32,
    /// The match offset (0 for a literal).
    offset: u32,
}

/// What the level asks of the parser.
#[derive(Debug, Clone, Copy)]
pub(super) struct Params<'a> {
    pub(super) attempts: u32,
    pub(super) target_len: usize,
    pub(super) full_update: bool,
    pub(super) favor_dec_speed: bool,
    /// An attached dictionary (`EXT` only), searched after the block's own chain.
    pub(super) dict: Option<DictCtx<'a>>,
}

#[inline(always)]
fn literal_price(literal_len: usize) -> u32 {
    let mut price = literal_len;
    if literal_len >= RUN_MASK {
        price += 1 + (literal_len - RUN_MASK) / 255;
    }
    price as u32
}

#[inline(always)]
fn sequence_price(literal_len: usize, match_len: usize) -> u32 {
    1 + 2 + literal_price(literal_len) + match_len_extension_price(match_len)
}

/// Bytes of match-length extension a match of `match_len` bytes needs.
#[inline(always)]
fn match_len_extension_price(match_len: usize) -> u32 {
    if match_len >= ML_MASK + MINMATCH {
        1 + ((match_len - (ML_MASK + MINMATCH)) / 255) as u32
    } else {
        0
    }
}

unchecked_fn! {
    /// Searches at `ip` for a match longer than `min_len`; `None` if there is none.
    ///
    /// # Safety
    ///
    /// `ip + MINMATCH <= match_limit <= src.len()`, `min_len >= 1`, and the tables' duty of
    /// [`ChainTables::find_wider`].
    #[inline(always)]
    fn find_longer<const FAVOR: bool, const EXT: bool>(
        tables: &mut ChainTables,
        src: &[u8],
        ip: usize,
        match_limit: usize,
        min_len: usize,
        attempts: u32,
        dict: Option<DictCtx<'_>>,
    ) -> Option<(usize, usize)> {
        // SAFETY: `low_limit = ip`, `0 < min_len`, and the rest is the caller's duty.
        let found = call_unchecked!(tables.find_wider::<true, true, FAVOR, EXT>(
            src,
            ip,
            ip,
            match_limit,
            min_len,
            attempts,
            dict
        ));
        debug_assert_eq!(found.back, 0);
        if found.len <= min_len {
            return None;
        }
        let mut len = found.len;
        if FAVOR && (19..=36).contains(&len) {
            len = 18;
        }
        Some((len, found.offset))
    }
}

unchecked_fn! {
    /// The optimal parse over `src[start..]`; returns the anchor (start of the final literals).
    ///
    /// # Safety
    ///
    /// `src.len() - start >= MFLIMIT` (liblz4's optimal parser searches the first position of a
    /// 12-byte block); the tables were last [reset](ChainTables::reset)
    /// for `src` (with `EXT`: [set up](ChainTables::begin_block) for it with `prefix <= start`),
    /// with nothing storing into them since (the duty of [`ChainTables::find_wider`] that its
    /// caller carries); `out` is empty, and without `EXACT` its `dst` holds
    /// `compress_bound(src.len() - start)` (the duty of [`emit`]).
    pub(super) fn parse<const EXACT: bool, const EXT: bool>(
        tables: &mut ChainTables,
        opt: &mut [OptNode],
        src: &[u8],
        start: usize,
        out: &mut HcOut<'_>,
        params: Params<'_>,
    ) -> Result<usize, Error> {
        // SAFETY: this function's duty is the callee's.
        if params.favor_dec_speed {
            call_unchecked!(parse_with::<EXACT, EXT, true>(
                tables, opt, src, start, out, params
            ))
        } else {
            call_unchecked!(parse_with::<EXACT, EXT, false>(
                tables, opt, src, start, out, params
            ))
        }
    }
}

unchecked_fn! {
    /// [`parse`] with `favor_dec_speed` or without.
    ///
    /// # Safety
    ///
    /// That of [`parse`].
    // Out of line: once per block, and inlined into the caller its register allocation would
    // depend on the other strategies' code around it.
    #[inline(never)]
    fn parse_with<const EXACT: bool, const EXT: bool, const FAVOR: bool>(
        tables: &mut ChainTables,
        opt: &mut [OptNode],
        src: &[u8],
        start: usize,
        out: &mut HcOut<'_>,
        params: Params<'_>,
    ) -> Result<usize, Error> {
        let opt: &mut [OptNode; OPT_NODES] = match opt.try_into() {
            Ok(opt) => opt,
            Err(_) => unreachable!("the cost array has OPT_NODES entries"),
        };
        let len = src.len();
        let mflimit = len - MFLIMIT;
        let match_limit = len - LASTLITERALS;
        let sufficient_len = params.target_len.min(OPT_NUM - 1);
        let mut ip = start;
        let mut anchor = start;

        while ip <= mflimit {
            let pending = ip - anchor;
            // SAFETY: `ip <= mflimit`, so `ip + 4 <= match_limit = len - 5`; `MINMATCH - 1 > 0`;
            // the tables' duty is this function's.
            let Some((first_len, first_offset)) = call_unchecked!(find_longer::<FAVOR, EXT>(
                tables,
                src,
                ip,
                match_limit,
                MINMATCH - 1,
                params.attempts,
                params.dict
            )) else {
                ip += 1;
                continue;
            };
            if first_len > sufficient_len {
                // SAFETY: see `emit`: every match emitted here was found at its position by
                // `find_longer` (so it ends by `match_limit`) or is a shorter start of one, and
                // the path is emitted in order from `anchor`.
                call_unchecked!(emit::<EXACT>(
                    out,
                    src,
                    &mut anchor,
                    &mut ip,
                    first_len,
                    first_offset
                ))?;
                continue;
            }

            // Initial prices: literals up to MINMATCH, then the first match at every length.
            for (r, node) in opt.iter_mut().enumerate().take(MINMATCH) {
                *node = OptNode {
                    price: literal_price(pending + r),
                    litlen: (pending + r) as u32,
                    mlen: 1,
                    offset: 0,
                };
            }
            for (match_len, node) in opt
                .iter_mut()
                .enumerate()
                .take(first_len + 1)
                .skip(MINMATCH)
            {
                *node = OptNode {
                    price: sequence_price(pending, match_len),
                    litlen: pending as u32,
                    mlen: match_len as u32,
                    offset: first_offset as u32,
                };
            }
            let mut last_match_pos = first_len;
            set_trailing_literals(opt, last_match_pos);

            // Walk the window; `selected` is (position, match length, offset) of the last step.
            let mut selected = None;
            let mut cur = 1;
            while cur < last_match_pos {
                let cur_ip = ip + cur;
                if cur_ip > mflimit {
                    break;
                }
                // One bounds check for the three nodes read here.
                let near = &opt[cur..=cur + MINMATCH];
                let here = near[0];
                let worth_searching = if params.full_update {
                    // Search unless the next position is as cheap and no short match could pay.
                    !(near[1].price <= here.price && near[MINMATCH].price < here.price + 3)
                } else {
                    near[1].price > here.price
                };
                if !worth_searching {
                    cur += 1;
                    continue;
                }
                let min_len = if params.full_update {
                    MINMATCH - 1
                } else {
                    last_match_pos - cur
                };
                // SAFETY: `cur_ip <= mflimit` (checked above), so `cur_ip + 4 <= match_limit`;
                // `min_len > 0` (`cur < last_match_pos`); the tables' duty is this function's.
                let Some((match_len, offset)) = call_unchecked!(find_longer::<FAVOR, EXT>(
                    tables,
                    src,
                    cur_ip,
                    match_limit,
                    min_len,
                    params.attempts,
                    params.dict
                )) else {
                    cur += 1;
                    continue;
                };
                if match_len > sufficient_len || cur + match_len >= OPT_NUM {
                    // Take it at once: the path ends with this match at `cur`.
                    selected = Some((cur, match_len, offset));
                    last_match_pos = cur + 1;
                    break;
                }

                // Literals after `cur`, continuing its literal run.
                let base_litlen = here.litlen as usize;
                let next = &mut opt[cur + 1..cur + MINMATCH];
                for (node, extra) in next.iter_mut().zip(1..) {
                    let price = here.price - literal_price(base_litlen)
                        + literal_price(base_litlen + extra);
                    if price < node.price {
                        *node = OptNode {
                            price,
                            litlen: (base_litlen + extra) as u32,
                            mlen: 1,
                            offset: 0,
                        };
                    }
                }

                // The match at `cur`, at every length: the sequence takes over the literals pending
                // at `cur` (its price counts from before them), or follows the match ending there.
                let (litlen, sequence_base) = if here.mlen == 1 {
                    let litlen = here.litlen as usize;
                    let before = if cur > litlen {
                        opt[cur - litlen].price
                    } else {
                        0
                    };
                    (litlen, before + sequence_price(litlen, MINMATCH))
                } else {
                    (0, here.price + sequence_price(0, MINMATCH))
                };
                // Positions past this one hold no price yet; it only moves after the last length.
                let priced_end = last_match_pos + TRAILING_LITERALS;
                let step = MatchStep {
                    sequence_base,
                    litlen: litlen as u32,
                    offset: offset as u32,
                };
                let nodes = &mut opt[cur + MINMATCH..=cur + match_len];
                // `priced_end >= last_match_pos > cur`, so this cannot underflow.
                let priced = (priced_end + 1 - (cur + MINMATCH)).min(nodes.len());
                if offer_match::<FAVOR>(nodes, priced, step) && last_match_pos < cur + match_len {
                    last_match_pos = cur + match_len;
                }
                set_trailing_literals(opt, last_match_pos);
                cur += 1;
            }

            let (end_step_pos, end_len, end_offset) = selected.unwrap_or_else(|| {
                let last = opt[last_match_pos];
                (
                    last_match_pos - last.mlen as usize,
                    last.mlen as usize,
                    last.offset as usize,
                )
            });

            // Trace the cheapest path back from its last step, storing each step at the position
            // where it starts (so the path can then be read forwards).
            let mut pos = end_step_pos;
            let mut step_len = end_len as u32;
            let mut step_offset = end_offset as u32;
            loop {
                let previous = opt[pos];
                opt[pos].mlen = step_len;
                opt[pos].offset = step_offset;
                step_len = previous.mlen;
                step_offset = previous.offset;
                if step_len as usize > pos {
                    break;
                }
                pos -= step_len as usize;
            }

            // Emit the path.
            let mut r = 0;
            while r < last_match_pos {
                let step = opt[r];
                if step.mlen == 1 {
                    ip += 1;
                    r += 1;
                    continue;
                }
                r += step.mlen as usize;
                // SAFETY: see `emit`: every match emitted here was found at its position by
                // `find_longer` (so it ends by `match_limit`) or is a shorter start of one, and
                // the path is emitted in order from `anchor`.
                call_unchecked!(emit::<EXACT>(
                    out,
                    src,
                    &mut anchor,
                    &mut ip,
                    step.mlen as usize,
                    step.offset as usize,
                ))?;
            }
        }
        Ok(anchor)
    }
}

/// A match step offered at every length: its sequence's price at `MINMATCH` bytes (from the
/// window start), the literals it takes over, and its offset.
#[derive(Clone, Copy)]
struct MatchStep {
    sequence_base: u32,
    litlen: u32,
    offset: u32,
}

/// Offers `step` at lengths `MINMATCH..` to `nodes` (the node where the match of each length
/// ends, in order): it replaces a node's path when at least as cheap (strictly cheaper with
/// `FAVOR`), and always in `nodes[priced..]`, which hold no price yet. Returns whether the
/// last node (the full length) took it.
///
/// Kept out of line: inlined into the parse, whose state takes every register, its loop kept
/// the price and the step in stack slots.
#[inline(never)]
fn offer_match<const FAVOR: bool>(nodes: &mut [OptNode], priced: usize, step: MatchStep) -> bool {
    let favor = u32::from(FAVOR);
    let node_at = |price: u32, i: usize| OptNode {
        price,
        litlen: step.litlen,
        mlen: (i + MINMATCH) as u32,
        offset: step.offset,
    };
    let mut wrote_last = false;
    // Lengths in runs of one extension price: 4 to 18, then 255 at a time.
    let mut start = 0;
    let mut run_end = ML_MASK + MINMATCH - MINMATCH;
    let mut price = step.sequence_base;
    while start < nodes.len() {
        debug_assert_eq!(
            price,
            step.sequence_base + match_len_extension_price(start + MINMATCH)
        );
        let end = run_end.min(nodes.len());
        let split = priced.clamp(start, end);
        for (node, i) in nodes[start..split].iter_mut().zip(start..) {
            wrote_last = price + favor <= node.price;
            if wrote_last {
                *node = node_at(price, i);
            }
        }
        for (node, i) in nodes[split..end].iter_mut().zip(split..) {
            *node = node_at(price, i);
            wrote_last = true;
        }
        start = end;
        run_end += 255;
        price += 1;
    }
    wrote_last
}

/// Prices the [`TRAILING_LITERALS`] positions after `last_match_pos` as literals after it.
#[inline(always)]
fn set_trailing_literals(opt: &mut [OptNode; OPT_NODES], last_match_pos: usize) {
    // One bounds check for the four nodes.
    let nodes = &mut opt[last_match_pos..=last_match_pos + TRAILING_LITERALS];
    let base = nodes[0].price;
    for (node, extra) in nodes[1..].iter_mut().zip(1..) {
        *node = OptNode {
            price: base + literal_price(extra),
            litlen: extra as u32,
            mlen: 1,
            offset: 0,
        };
    }
}
