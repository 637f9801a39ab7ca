//! The tuned safe decoder: [`Kernel::Scalar`](crate::Kernel::Scalar), and the decoder of the
//! build without the `unsafe` feature.
//!
//! Safe Rust over `&mut [u8]`, tuned for speed without `unsafe`: while both slices have room
//! for fixed-size ("wild") copies, [`wild_sequences`] decodes the common short sequence (literal
//! and match nibbles below 15) with fixed-size windows the compiler can check once, and other
//! sequences with fixed 32- or 64-byte copies, a multiplication by
//! `kernel::tables::REPEAT` for overlapping matches of offsets 1-7, and exact copies for
//! long runs. It stops, before consuming it, at the first sequence it cannot decode that way (the
//! block's end, anything invalid or without the room), and the oracle's careful loop
//! ([`reference::decode_careful`]) decodes the rest and gives the verdict, so verdicts and output
//! are the oracle's. `asm-notes/scalar.md` has the measurements behind the shapes below.

#![forbid(unsafe_code)]

use core::ops::ControlFlow;

use super::reference::{self, read_length_extension, FULL, PARTIAL};
use super::{cold_path, MINMATCH, ML_MASK, RUN_MASK};
use crate::kernel::tables::{REPEAT, STEP_8};
use crate::Error;

/// Decodes the block `src` into `dst[out_start..]`, where `dst[..out_start]` is history that
/// matches may reference (the prefix of a linked block, or nothing). Returns the output position
/// after the last decoded byte.
///
/// The verdict depends only on `src`, `out_start` and `dst.len()` as the output cap: never on
/// the bytes already in `dst[out_start..]`.
pub(crate) fn decode(src: &[u8], dst: &mut [u8], out_start: usize) -> Result<usize, Error> {
    debug_assert!(out_start <= dst.len());
    let (ip, op) = wild_sequences(src, dst, 0, out_start);
    reference::decode_careful::<[u8], FULL>(src, dst, &[], out_start, ip, op)
}

/// Decodes the first `dst.len()` bytes of the block `src` into `dst` (the reference's
/// [`PARTIAL`] mode): the wild-copy loop runs on the input without its last bytes (see
/// [`reference::partial_fast_input`]), the careful loop finishes.
pub(crate) fn decode_partial(src: &[u8], dst: &mut [u8]) -> Result<usize, Error> {
    let (ip, op) = wild_sequences(reference::partial_fast_input(src), dst, 0, 0);
    reference::decode_careful::<[u8], PARTIAL>(src, dst, &[], 0, ip, op)
}

/// Decodes the block `src` into `dst` with `dict` as the history before `dst[0]`. The wild-copy
/// loop stops at every match that reaches into the dictionary (it only copies from `dst`); the
/// careful loop decodes that one sequence, and the wild-copy loop goes on after it.
pub(crate) fn decode_with_dict(src: &[u8], dst: &mut [u8], dict: &[u8]) -> Result<usize, Error> {
    let (mut ip, mut op) = (0, 0);
    loop {
        (ip, op) = wild_sequences(src, dst, ip, op);
        match reference::decode_sequence::<[u8], FULL>(src, dst, dict, 0, ip, op)? {
            ControlFlow::Continue(next) => (ip, op) = next,
            ControlFlow::Break(end) => return Ok(end),
        }
    }
}

/// Room the general path requires beyond a literal run or match, in both slices: literal runs
/// of up to 32 bytes are copied as one fixed 32-byte window, matches of up to 32 or 64 bytes as
/// a fixed 32- or 64-byte window, and overlapping matches in whole 8- or 16-byte chunks.
const WILD_SLACK: usize = 32;
/// Input the general path requires after a literal run: the 2-byte offset plus the wild
/// literal window. It also proves the sequence is not the block's last.
const FAST_INPUT_TAIL: usize = 2 + WILD_SLACK;
/// Input the short-sequence path needs from its token: the token, a wild 16-byte literal read
/// (literal length <= 14) and the offset after it, plus one byte so more input follows.
const SHORT_INPUT: usize = 1 + 16 + 2 + 1;
/// The longest literal run of the long-literal path (copied as this many bytes).
const LONG_LITERAL: usize = 64;
/// Input the long-literal path needs from its token: the token, one length byte, the literals
/// read as [`LONG_LITERAL`] bytes, the offset, and one byte so more input follows.
const LONG_LITERAL_INPUT: usize = 1 + 1 + LONG_LITERAL + 2 + 1;
/// Output the short-sequence path needs: up to 14 literals plus the largest match window, the 32
/// bytes of [`copy_short_pattern`] (three 8-byte chunks take 24, a non-overlapping match 18).
const SHORT_OUTPUT: usize = 14 + 32;

/// The wild-copy loop: decodes sequences while both slices have room for fixed-size ("wild")
/// copies that may run up to [`WILD_SLACK`] bytes past a sequence's end, and stops, *before*
/// consuming it, at the first sequence that is invalid, is the last one, or lacks that room (or
/// whose match reaches before `dst[0]`), starting at `src[ip]` and `dst[op]`. It returns the (token position, output position) to resume from; [`reference::decode_careful`]
/// then decodes the rest and reports any error, so verdicts are exactly the careful loop's.
///
/// Wild copies may scribble over `dst` past the final output length (never past `dst.len()`);
/// every byte before the returned position is final.
#[inline]
fn wild_sequences(src: &[u8], dst: &mut [u8], ip: usize, mut op: usize) -> (usize, usize) {
    // The input still to decode, from the next token: a slice rather than a position, so the
    // short path's input test is one comparison (`rest.len() >= SHORT_INPUT`) and advancing
    // within its window needs none.
    let Some(mut rest) = src.get(ip..) else {
        return (ip, op);
    };
    // The token to decode next, as the top byte of a `u32` (the low bytes are unspecified). The
    // short path takes it from its own input window (the 4 bytes ending at the next token also
    // hold the offset), so the next sequence's token load depends only on this one's literal
    // length, not on `rest` advancing: the loop-carried chain is load, `shr`, load. Every other
    // path reloads it from `rest`. (Silesia +6-8% over reading `rest[0]` each turn: Zen 5, two
    // builds, `asm-notes/scalar.md`.)
    let mut word = token_word(rest);
    loop {
        debug_assert!(word >> 24 == u32::from(rest.first().copied().unwrap_or(0)));
        // The common short sequence: literal nibble < 15, match nibble < 15, any offset from 1 to
        // the match position, and at least 8 bytes of output before the match (false only in a
        // block's first bytes without history). A fixed window of input holds the token, up to
        // 14 literals, the offset and the next token; the output takes a fixed 16 literal bytes
        // and a match window of 18 bytes (offset >= match length), 24 (8 <= offset < match
        // length) or 32 (offsets 1-7: the pattern). The input window is a fixed-size array, so
        // within it the compiler needs no further checks. The offset is read before the match
        // tests (for a literal nibble of 15 it reads window bytes 16 and 17, still inside the
        // window, and the value is not used). No limits are kept in
        // registers: the room tests are `rest.first_chunk` and `checked_sub`. (Small changes of form move the
        // register allocation of the whole loop: a variant testing `dst.len() - op` inside the
        // condition, with plain `memcpy`/`memmove` in the general path, measured 8% slower with
        // the input pointer spilled.)
        if let (Some(window), Some(future_len)) =
            (rest.first_chunk::<SHORT_INPUT>(), dst.len().checked_sub(op))
        {
            let literal_len = (word >> 28) as usize;
            let match_len = ((word >> 24) as usize & ML_MASK) + MINMATCH;
            // The offset and the next token (if this sequence is short): window[literal_len + 1
            // ..= literal_len + 3], with literal_len <= 15.
            let next = u32::from_le_bytes([
                window[literal_len],
                window[literal_len + 1],
                window[literal_len + 2],
                window[literal_len + 3],
            ]);
            let offset = ((next >> 8) & 0xffff) as usize;
            let match_pos = op + literal_len;
            if literal_len < RUN_MASK
                && match_len < ML_MASK + MINMATCH
                // 1 <= offset <= match_pos, as one comparison.
                && offset.wrapping_sub(1) < match_pos
                && match_pos >= 8
                && future_len >= SHORT_OUTPUT
            {
                dst[op..op + 16].copy_from_slice(&window[1..17]);
                if offset >= match_len {
                    // The source ends before the match starts (it may include the literals just
                    // written). `copy_within` is a memmove: for a fixed 18 bytes it loads the
                    // whole window before storing, so the overlap past the match's end is
                    // harmless.
                    let from = match_pos - offset;
                    dst.copy_within(from..from + 18, match_pos);
                } else if offset >= 8 {
                    copy_short_match(dst, match_pos, offset);
                } else {
                    copy_short_pattern(dst, match_pos, offset);
                }
                rest = &rest[1 + literal_len + 2..];
                op = match_pos + match_len;
                word = next;
                continue;
            }
        }

        // The general path. Marked cold: about 5-25% of sequences come here, and without the
        // hint the register allocator spills the short path's output position to the stack
        // (one store and reload per sequence on the loop-carried chain) to serve this path.
        cold_path();
        let ip = src.len() - rest.len();
        // A short literal run and a match of 19..=64 bytes (match nibble 15, one extension byte),
        // not overlapping: the commonest sequence the short path leaves (about a fifth of osdb's
        // and xml's), copied as 16 literal bytes and one fixed 32- or 64-byte memmove.
        if let (Some(window), Some(room)) =
            (rest.first_chunk::<SHORT_INPUT>(), dst.len().checked_sub(op))
        {
            let token = window[0];
            let literal_len = usize::from(token >> 4);
            if literal_len < RUN_MASK && usize::from(token) & ML_MASK == ML_MASK {
                let offset = usize::from(u16::from_le_bytes([
                    window[1 + literal_len],
                    window[2 + literal_len],
                ]));
                let match_len = ML_MASK + MINMATCH + usize::from(window[3 + literal_len]);
                let match_pos = op + literal_len;
                if match_len <= 64 && offset >= match_len && offset <= match_pos && room >= 14 + 64
                {
                    dst[op..op + 16].copy_from_slice(&window[1..17]);
                    copy_earlier(dst, match_pos, offset, match_len);
                    rest = &rest[1 + literal_len + 3..];
                    op = match_pos + match_len;
                    word = token_word(rest);
                    continue;
                }
            } else if literal_len == RUN_MASK && usize::from(token) & ML_MASK < ML_MASK {
                // A literal run of 15..=64 bytes (one extension byte) and a short match that
                // does not overlap itself: the commonest sequence of the general path in large
                // blocks, where a compressor finds fewer matches within the 64 KiB window (a
                // fifth of ooffice's sequences in 4 MiB blocks, against 6% in 64 KiB ones),
                // copied as 64 literal bytes and one 32-byte memmove.
                if let Some(window) = rest.first_chunk::<LONG_LITERAL_INPUT>() {
                    let literal_len = RUN_MASK + usize::from(window[1]);
                    let match_len = (usize::from(token) & ML_MASK) + MINMATCH;
                    if literal_len <= LONG_LITERAL && room >= LONG_LITERAL + 32 {
                        let offset = usize::from(u16::from_le_bytes([
                            window[2 + literal_len],
                            window[3 + literal_len],
                        ]));
                        let match_pos = op + literal_len;
                        if offset >= match_len && offset <= match_pos {
                            dst[op..op + LONG_LITERAL]
                                .copy_from_slice(&window[2..2 + LONG_LITERAL]);
                            copy_earlier(dst, match_pos, offset, match_len);
                            rest = &rest[2 + literal_len + 2..];
                            op = match_pos + match_len;
                            word = token_word(rest);
                            continue;
                        }
                    }
                }
            }
        }
        // The general path works on `rest` (the token at `rest[0]`), so `src` is not needed
        // in the loop; `ip` is the position returned if it stops.
        let Some(&token) = rest.first() else {
            return (ip, op);
        };
        let mut cursor = 1;

        let mut literal_len = usize::from(token >> 4);
        if literal_len == RUN_MASK {
            match read_length_extension(rest, &mut cursor, literal_len, 0) {
                Ok(len) => literal_len = len,
                Err(_) => return (ip, op),
            }
        }
        // Room for the wild literal copy and the offset (which also means more input follows:
        // this is not the last sequence), and for the wild literal write.
        // (Plain comparisons, not saturating sums: those keep a constant -1 for `cmov` in a
        // register the short path needs.)
        let (src_room, dst_room) = (rest.len() - cursor, dst.len() - op);
        if src_room < literal_len
            || src_room - literal_len < FAST_INPUT_TAIL
            || dst_room < literal_len
            || dst_room - literal_len < WILD_SLACK
        {
            return (ip, op);
        }
        let literal_end = op + literal_len;
        let offset = usize::from(u16::from_le_bytes([
            rest[cursor + literal_len],
            rest[cursor + literal_len + 1],
        ]));
        if offset == 0 || offset > literal_end {
            return (ip, op);
        }
        let mut match_cursor = cursor + literal_len + 2;
        let mut match_len = usize::from(token & ML_MASK as u8);
        if match_len == ML_MASK {
            match read_length_extension(rest, &mut match_cursor, match_len, 0) {
                Ok(len) => match_len = len,
                Err(_) => return (ip, op),
            }
        }
        // MINMATCH + WILD_SLACK: room for the wild match write past the match's end.
        let match_room = dst.len() - literal_end;
        if match_room < match_len || match_room - match_len < MINMATCH + WILD_SLACK {
            return (ip, op);
        }
        let match_len = match_len + MINMATCH;

        // Everything is validated: copy.
        if literal_len <= WILD_SLACK {
            dst[op..op + WILD_SLACK].copy_from_slice(&rest[cursor..cursor + WILD_SLACK]);
        } else {
            copy_long(
                &mut dst[op..literal_end],
                &rest[cursor..cursor + literal_len],
            );
        }
        if offset >= match_len {
            copy_earlier(dst, literal_end, offset, match_len);
        } else {
            wild_copy_match(dst, literal_end, offset, match_len);
        }
        rest = &rest[match_cursor..];
        op = literal_end + match_len;
        word = token_word(rest);
    }
}

/// The token at `rest[0]` as the top byte of a `u32` (0 when `rest` is empty: the loop then
/// stops in the general path, which reads `rest` itself).
#[inline(always)]
fn token_word(rest: &[u8]) -> u32 {
    u32::from(rest.first().copied().unwrap_or(0)) << 24
}

/// Writes a match of at most 18 bytes at `dst[match_pos..]` from `offset >= 8` bytes back, as
/// three 8-byte chunks, each read entirely before the position it is written to (the source may
/// overlap the literals just written or the match itself). The caller guarantees
/// `8 <= offset <= match_pos` and 24 bytes of room.
#[inline(always)]
fn copy_short_match(dst: &mut [u8], match_pos: usize, offset: usize) {
    debug_assert!(offset >= 8 && offset <= match_pos && dst.len() - match_pos >= 24);
    // One checked window from the match source to the end of the 24 written bytes: inside it
    // the source chunk at `at` and its destination at `offset + at` need no further checks.
    let Some(region) = dst.get_mut(match_pos - offset..match_pos + 24) else {
        return;
    };
    for at in [0, 8, 16] {
        let bytes: [u8; 8] = region[at..at + 8].try_into().unwrap_or_default();
        region[offset + at..offset + at + 8].copy_from_slice(&bytes);
    }
}

/// Writes a match of at most 18 bytes at `dst[match_pos..]` from `1 <= offset < 8` bytes back:
/// the `offset` bytes before it repeated to 8 by one multiply (see [`wild_copy_match`]), stored
/// four times, [`STEP_8`]`[offset]` bytes apart (up to 29 bytes). The caller guarantees
/// `8 <= match_pos` and 32 bytes of room.
#[inline(always)]
fn copy_short_pattern(dst: &mut [u8], match_pos: usize, offset: usize) {
    debug_assert!((1..8).contains(&offset) && match_pos >= 8 && dst.len() - match_pos >= 32);
    let Some(region) = dst.get_mut(match_pos - 8..match_pos + 32) else {
        return;
    };
    let history = u64::from_le_bytes(region[..8].try_into().unwrap_or([0; 8]));
    let pattern = (history >> (8 * (8 - offset))).wrapping_mul(REPEAT[offset] as u64);
    let pattern = pattern.to_le_bytes();
    let step = usize::from(STEP_8[offset]);
    for at in [0, step, 2 * step, 3 * step] {
        region[8 + at..16 + at].copy_from_slice(&pattern);
    }
}

/// Writes a match of `match_len` bytes at `dst[at..]` whose source ends before it (`offset >=
/// match_len`, `offset <= at`): up to 32 or 64 bytes as one fixed-size `copy_within` (a memmove:
/// it loads the whole window before storing, so what it writes past the match is harmless),
/// longer ones exactly. The caller guarantees room for the window: `dst.len() - at` at least 32
/// for matches up to 32 bytes, otherwise at least `match_len.max(64)`.
#[inline(always)]
fn copy_earlier(dst: &mut [u8], at: usize, offset: usize, match_len: usize) {
    debug_assert!(offset >= match_len && offset <= at);
    let window = if match_len <= 32 {
        32
    } else {
        match_len.max(64)
    };
    debug_assert!(dst.len() - at >= window);
    let from = at - offset;
    if match_len <= 32 {
        dst.copy_within(from..from + 32, at);
    } else if match_len <= 64 {
        dst.copy_within(from..from + 64, at);
    } else {
        // One `memmove` of the exact length. (Through `copy_long`'s 32-byte chunks, a `memcpy`
        // of the whole chunks and a last overlapping 32-byte copy, matches of 65-600 bytes
        // decoded 26% slower: `asm-notes/scalar.md`, 2026-12-05.)
        dst.copy_within(from..from + match_len, at);
    }
}

/// Copies `src` to `dst` (equal lengths, more than 32) in 32-byte chunks and one last chunk
/// ending at the end: the literal runs of more than 32 bytes. (The compiler turns the chunk loop
/// into a `memcpy` call; this form is the one measured in `asm-notes/scalar.md`, not compared
/// alone with a plain `copy_from_slice`.)
#[inline(always)]
fn copy_long(dst: &mut [u8], src: &[u8]) {
    for (to, from) in dst.chunks_exact_mut(32).zip(src.chunks_exact(32)) {
        to.copy_from_slice(from);
    }
    if let (Some(to), Some(from)) = (dst.last_chunk_mut::<32>(), src.last_chunk::<32>()) {
        *to = *from;
    }
}

/// Writes a match of `match_len` bytes at `dst[op..]` from `offset` bytes back, in whole chunks
/// (up to 15 bytes past its end). The caller guarantees `1 <= offset <= op` and
/// `dst.len() - op >= match_len + WILD_SLACK`.
#[inline(always)]
fn wild_copy_match(dst: &mut [u8], op: usize, offset: usize, match_len: usize) {
    debug_assert!(offset >= 1 && offset <= op && dst.len() - op >= match_len + WILD_SLACK);
    let end = op + match_len;
    if offset >= 16 {
        // Each 16-byte chunk read lies entirely before the position it is written to.
        let mut pos = op;
        while pos < end {
            let chunk: [u8; 16] = dst[pos - offset..pos - offset + 16]
                .try_into()
                .unwrap_or([0; 16]);
            dst[pos..pos + 16].copy_from_slice(&chunk);
            pos += 16;
        }
    } else if offset >= 8 {
        let mut pos = op;
        while pos < end {
            let chunk: [u8; 8] = dst[pos - offset..pos - offset + 8]
                .try_into()
                .unwrap_or([0; 8]);
            dst[pos..pos + 8].copy_from_slice(&chunk);
            pos += 8;
        }
    } else {
        // Offsets 1-7: the `offset` bytes before `op`, repeated to 8 bytes by one multiply (the
        // low 64 bits of `REPEAT[offset]` have a 1 in every `offset`-th byte, and the copies
        // cannot carry into each other), stored every `step` bytes: the largest multiple of the
        // offset up to 8, so each store continues the pattern in phase.
        let Some(history) = op.checked_sub(8).and_then(|at| dst.get(at..op)) else {
            for pos in op..end {
                dst[pos] = dst[pos - offset];
            }
            return;
        };
        let history = u64::from_le_bytes(history.try_into().unwrap_or([0; 8]));
        let pattern = (history >> (8 * (8 - offset))).wrapping_mul(REPEAT[offset] as u64);
        let pattern = pattern.to_le_bytes();
        let step = offset * (8 / offset);
        let mut pos = op;
        while pos < end {
            dst[pos..pos + 8].copy_from_slice(&pattern);
            pos += step;
        }
    }
}

#[cfg(test)]
mod tests {
    //! The scalar decoder against the oracle (the careful loop alone): same verdict, same output,
    //! on valid blocks of every shape the wild-copy loop distinguishes and on corrupted ones.
    use super::decode;
    use crate::block::reference;
    use alloc::vec;
    use alloc::vec::Vec;

    fn both(src: &[u8], cap: usize) {
        let mut fast_out = vec![0xAAu8; cap];
        let mut careful_out = vec![0x55u8; cap];
        let fast = decode(src, &mut fast_out, 0);
        let careful = reference::decode(src, &mut careful_out, 0);
        assert_eq!(fast, careful, "verdicts differ for {src:02x?}");
        if let Ok(len) = careful {
            assert_eq!(fast_out[..len], careful_out[..len]);
        }
    }

    /// Builds a block from (literal bytes, offset, match length) sequences plus final literals.
    fn block(sequences: &[(&[u8], u16, usize)], last: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        let push_len = |out: &mut Vec<u8>, mut len: usize| {
            while len >= 255 {
                out.push(255);
                len -= 255;
            }
            out.push(len as u8);
        };
        for &(literals, offset, match_len) in sequences {
            let ml = match_len - 4;
            out.push(((literals.len().min(15) << 4) | ml.min(15)) as u8);
            if literals.len() >= 15 {
                push_len(&mut out, literals.len() - 15);
            }
            out.extend_from_slice(literals);
            out.extend_from_slice(&offset.to_le_bytes());
            if ml >= 15 {
                push_len(&mut out, ml - 15);
            }
        }
        out.push((last.len().min(15) << 4) as u8);
        if last.len() >= 15 {
            push_len(&mut out, last.len() - 15);
        }
        out.extend_from_slice(last);
        out
    }

    #[test]
    fn every_offset_and_length_shape() {
        let text: Vec<u8> = (0..300u32).map(|i| (i * 7 + i / 13) as u8).collect();
        // Offsets and match lengths around every path's edges: the short path (match <= 18,
        // offset >= 8 or >= the match), the 19..=64-byte medium one (32- and 64-byte windows),
        // and the general one (overlapping, longer, several extension bytes).
        for offset in (1..=40u16).chain([63, 64, 65, 100]) {
            for match_len in (4..=40).chain([63, 64, 65, 100, 270, 271, 600]) {
                for literal_len in [0usize, 1, 7, 14, 15, 16, 40, 270] {
                    let head = &text[..literal_len.max(offset as usize)];
                    let seqs = [
                        (head, offset, match_len),
                        (&text[..literal_len], offset, match_len),
                    ];
                    let src = block(&seqs, &text[..20]);
                    let total = 2 * match_len + head.len() + literal_len + 20;
                    for cap in [total, total + 1, total + 64, total - 1] {
                        both(&src, cap);
                    }
                }
            }
        }
    }

    /// The long-literal path (literal runs of 15..=64 bytes, one extension byte, then a short
    /// match not overlapping itself) and its edges: runs of 14-70 bytes (64 and 65 either side of
    /// its copy), matches of 4-19 bytes at offsets either side of the match length and of the
    /// match position (so some blocks are invalid), several such sequences in a row, final
    /// literal runs that leave the path's input window short or just long enough, and outputs a
    /// byte short, exact and with room for its 96-byte window.
    #[test]
    fn long_literal_runs_with_short_matches() {
        let text: Vec<u8> = (0..400u32).map(|i| (i * 13 + i / 7) as u8).collect();
        for literal_len in (14..=20).chain([31, 32, 33, 48, 63, 64, 65, 66, 70]) {
            for match_len in [4, 5, 8, 15, 16, 17, 18, 19] {
                let offsets = [1, 3, 8, match_len - 1, match_len, match_len + 1, 40];
                for offset in offsets.into_iter().chain([literal_len, literal_len + 1]) {
                    let literals = &text[..literal_len];
                    let seqs = [
                        (literals, offset as u16, match_len),
                        (&text[100..100 + literal_len], offset as u16, match_len),
                        (&text[7..7 + literal_len], 16, 4),
                    ];
                    for last_len in [5, 16, 60, 100] {
                        let src = block(&seqs, &text[200..200 + last_len]);
                        let total = 3 * literal_len + 2 * match_len + 4 + last_len;
                        for cap in [total - 1, total, total + 1, total + 96, total + 200] {
                            both(&src, cap);
                        }
                    }
                }
            }
        }
    }

    /// The scalar decoder's partial and dictionary decodes against the oracle's, on the same
    /// valid and corrupted blocks: same verdict (the whole `Error`), same output.
    #[test]
    fn partial_and_dictionary_decodes_match_the_oracle() {
        let text: Vec<u8> = (0..3000u32)
            .map(|i| b"the quick brown fox "[(i % 20) as usize] ^ (i / 97) as u8)
            .collect();
        let dict: Vec<u8> = text[1000..].iter().rev().copied().collect();
        let blocks = [
            crate::block::compress(&text[..2000]).unwrap(),
            crate::block::compress_with_dictionary(&text[..2000], &dict, 1).unwrap(),
            block(&[(&text[..30], 40, 100), (&text[..3], 8, 18)], &text[..20]),
        ];
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for src in &blocks {
            for round in 0..400 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let mut bad = src.clone();
                if round > 0 {
                    let pos = (state % bad.len() as u64) as usize;
                    bad[pos] = (state >> 32) as u8;
                }
                let cut = ((state >> 40) as usize) % (bad.len() + 1);
                let cap = ((state >> 20) as usize) % 2100;
                for input in [&bad[..], &bad[..cut]] {
                    let mut fast_out = vec![0xAAu8; cap];
                    let mut careful_out = vec![0x55u8; cap];
                    let fast = super::decode_partial(input, &mut fast_out);
                    let careful = reference::decode_partial(input, &mut careful_out);
                    assert_eq!(fast, careful, "partial verdicts differ for {input:02x?}");
                    if let Ok(len) = careful {
                        assert_eq!(fast_out[..len], careful_out[..len]);
                    }
                    for dict in [&dict[..0], &dict[..7], &dict[..]] {
                        let fast = super::decode_with_dict(input, &mut fast_out, dict);
                        let careful = reference::decode_with_dict(input, &mut careful_out, dict);
                        assert_eq!(fast, careful, "dictionary verdicts differ for {input:02x?}");
                        if let Ok(len) = careful {
                            assert_eq!(fast_out[..len], careful_out[..len]);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn corrupted_blocks() {
        let text: Vec<u8> = (0..2000u32)
            .map(|i| b"the quick brown fox "[(i % 20) as usize] ^ (i / 97) as u8)
            .collect();
        let src = crate::block::compress(&text).unwrap();
        let mut state = 0x1234_5678_9abc_def0u64;
        for _ in 0..3000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let mut bad = src.clone();
            let pos = (state % bad.len() as u64) as usize;
            bad[pos] = (state >> 32) as u8;
            let cut = ((state >> 40) as usize) % (bad.len() + 1);
            both(&bad, text.len());
            both(&bad[..cut], text.len());
            both(&bad, text.len() + 100);
        }
    }
}
