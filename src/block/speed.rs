//! A speed-first block compressor (prototype): any valid LZ4 block, not liblz4's bytes, within
//! 0.2% of liblz4's size at acceleration 1 in 64 KiB blocks and 3-10% smaller in 4 MiB blocks
//! (Silesia; `asm-notes/compress.md`). Not yet faster: timed on Zen 4, the branch-free parse
//! runs at 0.47-0.77x liblz4's speed (its instructions double) and the lean one at 0.93-1.16x.
//!
//! The liblz4-identical parse (`compress`) decides at every probe, with a branch, whether the
//! candidate matches, and again after every match whether the next position matches; those
//! branches are data (20-42% mispredicted) and about half of its time. This parse makes those
//! decisions with conditional moves:
//!
//! - **Two positions a step.** A step reads the table candidates of `ip` and `ip + 1` (hashes of
//!   one 8-byte load, shifted by 0 and 1 byte; each slot read, then given its position, in
//!   order), compares 16 bytes at each, and takes the first position whose candidate shares 4
//!   bytes (selects, no branch). Slots of positions after the match's start get their old value
//!   back, as liblz4 keeps positions inside a match out of its table: kept, they made xml 3.5%
//!   larger (later searches found the short, recent copies inside matches).
//! - **Speculative emission.** The pending literals are staged in the output as the parse goes
//!   (16 bytes at `op + 1 + (ip - anchor)` per step, where they belong while the run is shorter
//!   than 15), and every step writes a token, an offset and a match-length extension byte as if
//!   it had found a match; only the output position, the anchor and the next `ip` are selected
//!   on whether it did. A step without a match writes them where the next step's literals go.
//!   A match after a match is just the next step: there is no separate test for it.
//! - **Catch-up** of up to 8 bytes, from the 8 bytes before both ends (`leading_zeros` of their
//!   difference), bounded by the anchor; no loop. Without it the output is 1-7% larger.
//! - **Branches left**: the loop bound; a path for a match of 16 bytes or more or a literal run
//!   of 15 or more (rare on text: it extends the match, moves the staged literals past their
//!   length extension, writes the sequence exactly); and, after [`SCAN_AFTER`] steps without a
//!   match, a branchy scan of one position at a time (liblz4's probe, its stride growing by one
//!   every 64 probes): in long literal runs "no match" predicts well, and a step costs more
//!   instructions than a probe.
//! - **Tables**: inputs under 65,547 bytes 8192 `u16` slots hashed on 4 bytes (liblz4's), larger
//!   ones 8192 `u32` slots hashed on 5 bytes (liblz4 has 4096; 32 KiB still fits L1), with the
//!   65,535 distance checked.
//! - **End of block**: steps stop 22 bytes before the end, so every match starts 21 or more
//!   bytes before it (the format's minimum is 12) and ends 5 or more before it; the first 8 bytes
//!   are literals (the catch-up reads 8 bytes before a match without a test). The rest is the
//!   final literal run.
//!
//! Cachegrind counts 5-10% of liblz4's simulated mispredictions per byte on text, and 1.9-2.5
//! times its instructions (`asm-notes/compress.md`); each step also carries a loop-carried
//! chain (load, hash, slot, candidate, compare, select, next `ip`) that Cachegrind does not
//! see. Whether it is faster is a question for a timed run.

use core::hint::select_unpredictable;

use super::sequence::{
    check_input_size, count_common_long as count_common, put_at, read_u64, word_at,
};
use super::{compress_bound, LASTLITERALS, MAX_DISTANCE, MINMATCH, ML_MASK, RUN_MASK};
use crate::Error;

/// Steps run while `ip + STEP_TAIL <= len`: a step reads 16 bytes at each of its positions and
/// candidates, and its matches end by `ip + WIDTH - 1 + 15` outside the slow path, which must be
/// at most `len - LASTLITERALS`, with the 8 bytes at the end minus 2 inside the input.
const STEP_TAIL: usize = WIDTH - 1 + 16 + LASTLITERALS;
/// Positions per step (4 ran 10-25% more instructions on text, where most steps match at their
/// first position; 1 ran 30-70% more, a step's fixed cost being most of it).
const WIDTH: usize = 2;
/// Steps without a match before the parse switches to the branchy scan of long literal runs.
const SCAN_AFTER: usize = 4;
/// The scan's stride grows by one every `1 << SCAN_SKIP_SHIFT` probes (liblz4's schedule)...
const SCAN_SKIP_SHIFT: u32 = 6;
/// ... up to this, which the 16 bytes staged per probe cover.
const SCAN_STRIDE_MAX: usize = 16;
/// Inputs under this use the `u16` table (positions and distances then fit 16 bits).
const U16_LIMIT: usize = 65536 + 11;

/// A position table.
trait Table {
    /// A table with every slot 0.
    fn new() -> Self;
    /// The hash of the position whose next 8 bytes (little-endian) are `word`.
    fn hash(word: u64) -> usize;
    fn get(&self, hash: usize) -> usize;
    fn put(&mut self, hash: usize, pos: usize);
    /// Whether candidates may lie more than [`MAX_DISTANCE`] back.
    const FAR: bool;
}

/// 8192 `u16` slots, hashed on 4 bytes (inputs under [`U16_LIMIT`]).
struct Small([u16; 8192]);
/// 8192 `u32` slots, hashed on 5 bytes.
struct Large([u32; 8192]);

impl Table for Small {
    fn new() -> Self {
        Self([0; 8192])
    }
    #[inline(always)]
    fn hash(word: u64) -> usize {
        ((word as u32).wrapping_mul(2_654_435_761) >> 19) as usize
    }
    #[inline(always)]
    fn get(&self, hash: usize) -> usize {
        usize::from(self.0[hash & 8191])
    }
    #[inline(always)]
    fn put(&mut self, hash: usize, pos: usize) {
        self.0[hash & 8191] = pos as u16;
    }
    const FAR: bool = false;
}

impl Table for Large {
    fn new() -> Self {
        Self([0; 8192])
    }
    #[inline(always)]
    fn hash(word: u64) -> usize {
        ((word << 24).wrapping_mul(889_523_592_379) >> 51) as usize
    }
    #[inline(always)]
    fn get(&self, hash: usize) -> usize {
        self.0[hash & 8191] as usize
    }
    #[inline(always)]
    fn put(&mut self, hash: usize, pos: usize) {
        self.0[hash & 8191] = pos as u32;
    }
    const FAR: bool = true;
}

/// Compresses `src` into `dst` with the speed-first parse and returns the block's size. `dst`
/// must hold [`compress_bound`]`(src.len())` bytes (else [`Error::OutputTooSmall`]); nothing past
/// that is written. The block decodes with any LZ4 decoder; its bytes are not liblz4's.
pub fn compress_speed_into(src: &[u8], dst: &mut [u8]) -> Result<usize, Error> {
    check_input_size(src)?;
    let bound = compress_bound(src.len());
    if dst.len() < bound {
        return Err(Error::OutputTooSmall {
            capacity: dst.len(),
            needed: bound,
        });
    }
    let dst = &mut dst[..bound];
    let op = if src.len() < U16_LIMIT {
        parse::<Small>(src, dst)
    } else {
        parse::<Large>(src, dst)
    };
    Ok(op)
}

/// Writes `len - 15` as a length extension at `dst[at..]`; returns the bytes written.
#[inline(always)]
fn extension(dst: &mut [u8], at: usize, mut len: usize) -> usize {
    let mut n = 0;
    while len >= 255 {
        dst[at + n] = 255;
        n += 1;
        len -= 255;
    }
    dst[at + n] = len as u8;
    n + 1
}

/// Number of length-extension bytes of a length `len` against the nibble's 15.
#[inline(always)]
fn extension_len(len: usize) -> usize {
    if len >= 15 {
        (len - 15) / 255 + 1
    } else {
        0
    }
}

/// The parse: `dst` is exactly `compress_bound(src.len())` bytes. Returns the block's size.
///
/// # The unchecked accesses (`word_at!`, `put_at!`)
///
/// - **Input.** A step (or a scan probe) runs at `ip <= limit = len - STEP_TAIL`, so its reads
///   end by `ip + WIDTH - 1 + 16 < len`; every table slot holds 0 or a position stored earlier,
///   and each step stores only positions below the next step's `ip` (`ip + k` before reading
///   `ip + k + 1`'s slot, `end - 2` with `end` the next `ip`, and the scan its probes before
///   moving on), so a candidate `c` of `ip + k` is below it and its 16 bytes end before
///   `ip + k + 16`. The table is this function's own, zeroed here.
/// - **Output.** Every sequence writes at most the input it consumes plus `lit / 255` (its
///   literal run's extension; a match's extension is shorter than the match), so
///   `op <= anchor + anchor / 255`. A step writes below `op + (ip - anchor) + 17`: the 16
///   staged bytes at `op + 1 + ip - anchor`; token, offset and extension byte at `op`,
///   `op + 1 + lit .. op + 4 + lit` with `lit <= ip + WIDTH - anchor`. That is at most
///   `ip + len / 255 + 17 <= len + len / 255 - 5`, inside `dst` (asserted to be the bound,
///   `len + len / 255 + 16`). The slow path's writes are checked.
#[inline(never)]
fn parse<T: Table>(src: &[u8], dst: &mut [u8]) -> usize {
    let len = src.len();
    // The output room the unchecked writes rely on (see above).
    assert!(dst.len() == compress_bound(len));
    let table = &mut T::new();
    let mut op = 0usize;
    let mut anchor = 0usize;
    if len > STEP_TAIL {
        let limit = len - STEP_TAIL;
        // The first 8 bytes are literals, staged here (the steps stage from `ip = 8`, so the
        // catch-up's read 8 bytes before a match start is in bounds without a test).
        dst[1..9].copy_from_slice(&src[..8]);
        let mut ip = 8usize;
        let mut misses = 0usize;
        'steps: while ip <= limit {
            if misses >= SCAN_AFTER {
                // A long literal run: probe one position at a time with a branch (predicted
                // "no match" in such runs), staging the literals, until a candidate matches;
                // the step below then takes it (the slot is left for it to read and store).
                let mut scanned = 0usize;
                loop {
                    if ip > limit {
                        break 'steps;
                    }
                    // In bounds: see above.
                    let at = op + 1 + (ip - anchor);
                    put_at!(dst, at, word_at!(u64, src, ip).to_le_bytes());
                    put_at!(dst, at + 8, word_at!(u64, src, ip + 8).to_le_bytes());
                    let word = word_at!(u64, src, ip);
                    let h = T::hash(word);
                    let c = table.get(h);
                    debug_assert!(c < ip);
                    let near = !T::FAR || ip - c <= MAX_DISTANCE;
                    if (word_at!(u32, src, c) == word as u32) & near {
                        break;
                    }
                    table.put(h, ip);
                    ip += (1 + (scanned >> SCAN_SKIP_SHIFT)).min(SCAN_STRIDE_MAX);
                    scanned += 1;
                }
            }
            // Stage the literals from `ip`: 16 bytes, as far as any stride of this step goes.
            // In bounds: see above (input and output).
            let at = op + 1 + (ip - anchor);
            put_at!(dst, at, word_at!(u64, src, ip).to_le_bytes());
            put_at!(dst, at + 8, word_at!(u64, src, ip + 8).to_le_bytes());

            // The probes, in order; each candidate is below its position. In bounds: see above.
            let word = word_at!(u64, src, ip);
            let mut cand = [0usize; WIDTH];
            let mut hashes = [0usize; WIDTH];
            let mut lo = [0u64; WIDTH];
            let mut hi = [0u64; WIDTH];
            let mut mask = 0u32;
            for k in 0..WIDTH {
                let h = T::hash(word >> (8 * k));
                let c = table.get(h);
                table.put(h, ip + k);
                debug_assert!(c < ip + k);
                let x0 = word_at!(u64, src, c) ^ word_at!(u64, src, ip + k);
                let x1 = word_at!(u64, src, c + 8) ^ word_at!(u64, src, ip + k + 8);
                cand[k] = c;
                hashes[k] = h;
                lo[k] = x0;
                hi[k] = x1;
                let near = !T::FAR || ip + k - c <= MAX_DISTANCE;
                mask |= u32::from((x0 as u32 == 0) & near) << k;
            }
            // The first position that matches (conditional moves, no branch).
            let any = mask != 0;
            let (mut c, mut x0, mut x1) = (0usize, 0u64, 0u64);
            for k in (0..WIDTH).rev() {
                let h = mask & (1 << k) != 0;
                c = select_unpredictable(h, cand[k], c);
                x0 = select_unpredictable(h, lo[k], x0);
                x1 = select_unpredictable(h, hi[k], x1);
            }
            let first = (mask | 1 << WIDTH).trailing_zeros() as usize;
            let p = ip + first;
            // The positions after the match's start go back out of the table (as liblz4 keeps
            // positions inside a match out): stored, they make later searches find the recent,
            // short copies inside matches (xml: 3.5% larger output with them).
            for k in (1..WIDTH).rev() {
                let h = hashes[k];
                table.put(h, select_unpredictable(k > first, cand[k], ip + k));
            }
            // Bytes matched from `p`: 4-15, or 16 for "16 or more" (`x0`'s low 4 bytes are 0
            // where there is a match).
            let head = select_unpredictable(
                x0 != 0,
                (x0.trailing_zeros() / 8) as usize,
                8 + (x1.trailing_zeros() / 8) as usize,
            );
            // Catch-up: equal bytes before both ends, at most 8, not before `anchor`; none for a
            // candidate under 8 (its 8 bytes before would start before the input). In bounds:
            // `8 <= p` (steps start at 8), and `c.max(8) - 8 < c` or 0.
            let before = word_at!(u64, src, p - 8) ^ word_at!(u64, src, c.max(8) - 8);
            let back = ((before.leading_zeros() / 8) as usize).min(p - anchor);
            let back = select_unpredictable(c >= 8, back, 0);

            // "A match that needs the slow path", with `any` folded in as a mask: written as
            // `any & (..)` (or as a select on `any`), LLVM branched on `any` itself, a
            // data-dependent outcome (28% mispredicted on dickens).
            let any_mask = usize::from(any).wrapping_neg();
            if ((head & any_mask) == 16) | ((p - back - anchor) & any_mask >= RUN_MASK) {
                // The slow path: a long match, or a literal run that needs an extension.
                super::cold_path();
                let mut end = p + head;
                if head == 16 {
                    end += count_common(src, end, c + head, len - LASTLITERALS);
                }
                let start = p - back;
                let lit = start - anchor;
                let ext = extension_len(lit);
                if ext > 0 {
                    dst.copy_within(op + 1..op + 1 + lit, op + 1 + ext);
                    extension(dst, op + 1, lit - RUN_MASK);
                }
                let code = end - start - MINMATCH;
                dst[op] = ((lit.min(RUN_MASK) << 4) | code.min(ML_MASK)) as u8;
                let mut o = op + 1 + ext + lit;
                dst[o..o + 2].copy_from_slice(&((p - c) as u16).to_le_bytes());
                o += 2;
                if code >= ML_MASK {
                    o += extension(dst, o, code - ML_MASK);
                }
                op = o;
                anchor = end;
                ip = end;
                misses = 0;
                if end + 6 <= len {
                    table.put(T::hash(read_u64(src, end - 2)), end - 2);
                }
                continue;
            }

            // The fast path, written whether or not there is a match (in bounds: see above).
            let end = select_unpredictable(any, p + head, ip + WIDTH);
            let lit = select_unpredictable(any, p - back, end) - anchor;
            let code = head + back - MINMATCH;
            put_at!(dst, op, [((lit << 4) | code.min(ML_MASK)) as u8]);
            let tail = (p - c) as u32 | (code.wrapping_sub(ML_MASK) as u32) << 16;
            put_at!(dst, op + 1 + lit, tail.to_le_bytes());
            let written = 3 + lit + usize::from(code >= ML_MASK);
            op = select_unpredictable(any, op + written, op);
            anchor = select_unpredictable(any, end, anchor);
            misses = select_unpredictable(any, 0, misses + 1);
            ip = end;
            // In bounds: `end <= ip + WIDTH - 1 + 15` for the step's `ip` (see `STEP_TAIL`).
            table.put(T::hash(word_at!(u64, src, end - 2)), end - 2);
        }
    }
    last_literals(src, anchor, dst, op)
}

/// [`compress_speed_into`] with the lean branchy parse (`parse_lean`), for measuring one
/// design against the other; the same contract.
pub fn compress_speed_lean_into(src: &[u8], dst: &mut [u8]) -> Result<usize, Error> {
    check_input_size(src)?;
    let bound = compress_bound(src.len());
    if dst.len() < bound {
        return Err(Error::OutputTooSmall {
            capacity: dst.len(),
            needed: bound,
        });
    }
    let dst = &mut dst[..bound];
    Ok(if src.len() < U16_LIMIT {
        parse_lean::<Small>(src, dst)
    } else {
        parse_lean::<Large>(src, dst)
    })
}

/// The lean branchy parse, for comparison with [`parse`]: liblz4's probe loop (a branch per
/// position, its skip schedule), without liblz4's separate test after a match (the search
/// starts at the match's end), with [`parse`]'s catch-up and tables, and the sequence written
/// with branches (literals copied 16 bytes at a time). `dst` is exactly
/// `compress_bound(src.len())` bytes. Probing `ip + 1` from the same load with one branch for
/// both left the simulated mispredictions where they were and ran 13% more instructions
/// (`asm-notes/compress.md`).
///
/// The unchecked accesses: as in [`parse`] for the probes (`ip <= limit`); a sequence's
/// literals are copied in 16-byte words from `anchor <= p <= limit`, reading below
/// `p + 16 <= len` and writing below `op + 1 + ext + lit + 16`, at most
/// `p + len / 255 + 18 <= len + len / 255 - 3` (`op <= anchor + anchor / 255`, as in
/// [`parse`]); the match count reads 8 bytes at `p + 4 <= len - 12` and below it at `c + 4`.
#[inline(never)]
fn parse_lean<T: Table>(src: &[u8], dst: &mut [u8]) -> usize {
    let len = src.len();
    assert!(dst.len() == compress_bound(len));
    let table = &mut T::new();
    let mut op = 0usize;
    let mut anchor = 0usize;
    if len > STEP_TAIL {
        let limit = len - STEP_TAIL;
        let mut ip = 8usize;
        'search: loop {
            let mut attempts = 0usize;
            let (p, c) = loop {
                if ip > limit {
                    break 'search;
                }
                // In bounds: see above.
                let word = word_at!(u64, src, ip);
                let h0 = T::hash(word);
                let c0 = table.get(h0);
                table.put(h0, ip);
                debug_assert!(c0 < ip);
                let m0 =
                    (word_at!(u32, src, c0) == word as u32) & (!T::FAR || ip - c0 <= MAX_DISTANCE);
                if m0 {
                    break (ip, c0);
                }
                // liblz4's skip schedule.
                ip += 1 + (attempts >> 6);
                attempts += 1;
            };
            // Catch-up, as in `parse`.
            let before = word_at!(u64, src, p - 8) ^ word_at!(u64, src, c.max(8) - 8);
            let back = ((before.leading_zeros() / 8) as usize).min(p - anchor);
            let back = select_unpredictable(c >= 8, back, 0);
            let x = word_at!(u64, src, p + 4) ^ word_at!(u64, src, c + 4);
            let count = if x != 0 {
                (x.trailing_zeros() / 8) as usize
            } else {
                8 + count_common(src, p + 12, c + 12, len - LASTLITERALS)
            };
            let start = p - back;
            let end = p + MINMATCH + count;
            let lit = start - anchor;
            let code = back + count;
            // In bounds: see above.
            put_at!(
                dst,
                op,
                [((lit.min(RUN_MASK) << 4) | code.min(ML_MASK)) as u8]
            );
            let mut o = op + 1;
            if lit >= RUN_MASK {
                o += extension(dst, o, lit - RUN_MASK);
            }
            let mut i = 0;
            loop {
                put_at!(dst, o + i, word_at!(u64, src, anchor + i).to_le_bytes());
                put_at!(
                    dst,
                    o + i + 8,
                    word_at!(u64, src, anchor + i + 8).to_le_bytes()
                );
                i += 16;
                if i >= lit {
                    break;
                }
            }
            o += lit;
            put_at!(dst, o, ((p - c) as u16).to_le_bytes());
            o += 2;
            if code >= ML_MASK {
                o += extension(dst, o, code - ML_MASK);
            }
            op = o;
            anchor = end;
            ip = end;
            if end > limit {
                break;
            }
            table.put(T::hash(word_at!(u64, src, end - 2)), end - 2);
        }
    }
    last_literals(src, anchor, dst, op)
}

/// The final sequence: the literals `src[anchor..]`, written at `dst[op..]`; the block's end.
fn last_literals(src: &[u8], anchor: usize, dst: &mut [u8], op: usize) -> usize {
    let lit = src.len() - anchor;
    let ext = extension_len(lit);
    dst[op] = (lit.min(RUN_MASK) << 4) as u8;
    if ext > 0 {
        extension(dst, op + 1, lit - RUN_MASK);
    }
    let o = op + 1 + ext;
    dst[o..o + lit].copy_from_slice(&src[anchor..]);
    o + lit
}
