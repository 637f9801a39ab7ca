//! The reference decoder: the oracle every faster decode path is tested against.
//!
//! It is safe Rust and reads like the format: a block is a series of sequences, each a token, an
//! optional literal-length extension, the literals, then (except in the last sequence) a 2-byte
//! little-endian offset and an optional match-length extension. The rules it enforces are the
//! ones listed in the [`block`](super) module documentation; every check compares a length with
//! the space that is left instead of forming `position + length`, so no arithmetic can wrap.
//!
//! Copies are slice copies: literals with `copy_from_slice`, matches whose source and destination
//! do not overlap (`offset >= match_len`) with `copy_within`. An overlapping match (`offset <
//! match_len`) repeats the `offset` bytes before it, so it is copied in doubling chunks: after the
//! first `offset` bytes are written, the next `2 * offset` can be copied from the match start, and
//! so on, each chunk a non-overlapping copy. Offset 1 (a run of one byte) is a `fill`.
//!
//! This careful loop ([`decode_careful`]) is also every fast decoder's tail: the tuned scalar
//! decoder (`block::scalar`) and the SIMD kernels (`block::fast_decode`) decode what they can
//! with wide copies and hand the rest of the block to it, so their verdicts are this loop's by
//! construction. It writes through the [`Output`] trait, so the SIMD kernels can finish a block in
//! uninitialised memory (`block::uninit`); for `[u8]` the trait's methods are the slice copies
//! described above.
//!
//! Two variants ride on the same loop: an external dictionary (history before the output, in its
//! own slice: a match reaching into it copies its bytes from there and continues from the output's
//! start), and the partial mode ([`PARTIAL`]), liblz4's `LZ4_decompress_safe_partial`, which stops
//! once the output is full. The loop is a loop over [`decode_sequence`], which decoders with an
//! external dictionary also call alone for the sequences their fast loop leaves.

#![forbid(unsafe_code)]

use core::ops::ControlFlow;

use super::{MINMATCH, ML_MASK, RUN_MASK};
use crate::Error;

/// Decodes the block `src` into `dst[out_start..]`, where `dst[..out_start]` is history that
/// matches may reference (the prefix of a linked block, or nothing), with the careful loop
/// alone. Returns the output position after the last decoded byte.
///
/// The verdict depends only on `src`, `out_start` and `dst.len()` as the output cap: never on
/// the bytes already in `dst[out_start..]`.
#[cfg(test)]
pub(crate) fn decode(src: &[u8], dst: &mut [u8], out_start: usize) -> Result<usize, Error> {
    debug_assert!(out_start <= dst.len());
    decode_careful::<[u8], FULL>(src, dst, &[], out_start, 0, out_start)
}

/// The oracle of partial decoding: decodes the first `dst.len()` bytes of the block `src` (or
/// all of it if it is shorter) into `dst` and stops; see [`PARTIAL`].
#[cfg(test)]
pub(crate) fn decode_partial(src: &[u8], dst: &mut [u8]) -> Result<usize, Error> {
    decode_careful::<[u8], PARTIAL>(src, dst, &[], 0, 0, 0)
}

/// The oracle of dictionary decoding: decodes the block `src` into `dst` with `dict` as the
/// history before `dst[0]` (matches may reach its last bytes, or start in it and continue in
/// `dst`).
#[cfg(test)]
pub(crate) fn decode_with_dict(src: &[u8], dst: &mut [u8], dict: &[u8]) -> Result<usize, Error> {
    decode_careful::<[u8], FULL>(src, dst, dict, 0, 0, 0)
}

/// The careful loop's mode: decode the whole block (`FULL`), with the rules of the [`block`
/// module](super), or only the first `capacity` bytes (`PARTIAL`), with liblz4's
/// `LZ4_decompress_safe_partial` rules:
///
/// - decoding stops with success as soon as `capacity` bytes are written (at once when the
///   capacity is 0, before the input is read), in the middle of a literal run or match if need
///   be; nothing after that point is read;
/// - a literal run cut short by the end of the input is decoded as far as it goes, and a
///   literal run followed by fewer than 3 input bytes ends the block (with success);
/// - a literal-length extension must leave at least 15 input bytes, and a match-length extension
///   at least 4 (liblz4's read limits: in the full mode they hold for every block that has a
///   valid end, so they are not checked there).
///
/// Offsets are checked as in the full mode, 0 included (liblz4 accepts offset 0; we reject it).
pub(crate) const PARTIAL: bool = true;
/// See [`PARTIAL`].
pub(crate) const FULL: bool = false;

/// The input a fast loop may decode from in the [`PARTIAL`] mode: all but the last [`MINMATCH`]
/// bytes. A fast loop never consumes a sequence that ends after its input, so every sequence it
/// decodes leaves the 4 input bytes that the partial mode requires after a match-length extension
/// (its other rules hold for every sequence a fast loop takes: the sequence and the room after it
/// lie inside both slices).
pub(crate) fn partial_fast_input(src: &[u8]) -> &[u8] {
    &src[..src.len().saturating_sub(MINMATCH)]
}

/// Where the careful loop writes: an initialised byte slice, or (with the `unsafe` feature)
/// uninitialised memory that tracks which prefix it has written.
///
/// The loop checks every bound before it calls a method, so the methods may panic on a call that
/// breaks their stated conditions (they never see one); an implementation must stay sound even
/// then.
pub(crate) trait Output {
    /// The output capacity (`dst.len()`).
    fn capacity(&self) -> usize;

    /// Writes `bytes` at `at`. The loop guarantees `bytes.len() <= capacity() - at` and that
    /// every byte before `at` is final output.
    fn write_literals(&mut self, at: usize, bytes: &[u8]);

    /// Writes `match_len` bytes at `at`, each a copy of the byte `offset` positions before it.
    /// The loop guarantees `1 <= offset <= at`, `match_len <= capacity() - at`, and that every
    /// byte before `at` is final output.
    fn copy_match(&mut self, at: usize, offset: usize, match_len: usize);
}

impl Output for [u8] {
    #[inline]
    fn capacity(&self) -> usize {
        self.len()
    }

    #[inline]
    fn write_literals(&mut self, at: usize, bytes: &[u8]) {
        self[at..at + bytes.len()].copy_from_slice(bytes);
    }

    #[inline]
    fn copy_match(&mut self, at: usize, offset: usize, match_len: usize) {
        copy_match(self, at, offset, match_len);
    }
}

/// The careful loop: decodes from the token at `src[ip]`, writing at `dst[op]`, checking
/// everything and writing exactly the decoded bytes, in the mode `STOP_AT_CAPACITY` ([`FULL`] or
/// [`PARTIAL`]). `decode_careful(src, dst, &[], s, 0, s)` alone is a complete decoder (the
/// oracle, [`decode`]); the scalar decoder and the SIMD kernels run their wild-copy loop first
/// and hand over where it stopped. `dst[..op]` must be final output (history and what the fast
/// loop decoded). `dict` is history before `dst[0]` (an external dictionary, or empty).
/// (Not inlined: it runs once per block, and keeping it apart leaves the fast loop its registers.)
#[inline(never)]
pub(crate) fn decode_careful<O: Output + ?Sized, const STOP_AT_CAPACITY: bool>(
    src: &[u8],
    dst: &mut O,
    dict: &[u8],
    out_start: usize,
    mut ip: usize,
    mut op: usize,
) -> Result<usize, Error> {
    loop {
        match decode_sequence::<O, STOP_AT_CAPACITY>(src, dst, dict, out_start, ip, op)? {
            ControlFlow::Continue(next) => (ip, op) = next,
            ControlFlow::Break(end) => return Ok(end),
        }
    }
}

/// Decodes the one sequence at `src[ip]` into `dst[op..]`, as [`decode_careful`] does (which is a
/// loop over it), and returns where the next one starts (`Continue((ip, op))`) or, at the end of
/// the block (or, in the partial mode, of the output), the output length (`Break(op)`). A decoder whose fast loop cannot take a sequence (a match reaching into an
/// external dictionary) lets this decode it and goes on.
#[inline(always)]
pub(crate) fn decode_sequence<O: Output + ?Sized, const STOP_AT_CAPACITY: bool>(
    src: &[u8],
    dst: &mut O,
    dict: &[u8],
    out_start: usize,
    mut ip: usize,
    mut op: usize,
) -> Result<ControlFlow<usize, (usize, usize)>, Error> {
    if STOP_AT_CAPACITY && op == dst.capacity() {
        return Ok(ControlFlow::Break(op));
    }
    let sequence_op = op;
    let token_pos = ip;
    let Some(&token) = src.get(ip) else {
        if src.is_empty() {
            return Err(Error::EmptyInput);
        }
        // Only reachable after a match.
        return Err(Error::MissingLastLiterals { input_pos: ip });
    };
    ip += 1;

    // Literals.
    let mut literal_len = usize::from(token >> 4);
    if literal_len == RUN_MASK {
        literal_len = read_length_extension(src, &mut ip, literal_len, token_pos)?;
        if STOP_AT_CAPACITY && src.len() - ip < RUN_MASK {
            return Err(Error::TruncatedLength {
                input_pos: token_pos,
            });
        }
    }
    let available = src.len() - ip;
    if STOP_AT_CAPACITY {
        literal_len = literal_len.min(available).min(dst.capacity() - op);
    }
    if literal_len > available {
        return Err(Error::LiteralsPastInput {
            input_pos: ip,
            literal_len,
            available,
        });
    }
    if literal_len > dst.capacity() - op {
        return Err(Error::LiteralsOverflowOutput {
            input_pos: token_pos,
            output_pos: op - out_start,
            literal_len,
            capacity: dst.capacity() - out_start,
        });
    }
    dst.write_literals(op, &src[ip..ip + literal_len]);
    ip += literal_len;
    op += literal_len;

    // The last sequence: literals only, and the input ends exactly after them. (Its token's
    // match nibble is ignored, as liblz4 does.) A partial decode also ends where the output is
    // full or no offset (and next token) can follow.
    if ip == src.len() || (STOP_AT_CAPACITY && (op == dst.capacity() || src.len() - ip <= 2)) {
        return Ok(ControlFlow::Break(op));
    }

    // Match.
    if src.len() - ip < 2 {
        return Err(Error::TruncatedOffset { input_pos: ip });
    }
    let offset = usize::from(u16::from_le_bytes([src[ip], src[ip + 1]]));
    if offset == 0 {
        return Err(Error::OffsetZero { input_pos: ip });
    }
    // `op <= dst.capacity()` and `dict.len()` are lengths of live slices, so the sum cannot wrap.
    if offset > op + dict.len() {
        return Err(Error::OffsetBeforeStart {
            input_pos: ip,
            offset,
            output_pos: op - out_start,
        });
    }
    ip += 2;
    let mut match_len = usize::from(token & ML_MASK as u8);
    if match_len == ML_MASK {
        match_len = read_length_extension(src, &mut ip, match_len, token_pos)?;
        if STOP_AT_CAPACITY && src.len() - ip < MINMATCH {
            return Err(Error::TruncatedLength {
                input_pos: token_pos,
            });
        }
    }
    // (A let-else, not `ok_or`: an eagerly built Error would be dropped on every call.)
    let Some(full_match_len) = match_len.checked_add(MINMATCH) else {
        return Err(Error::LengthOverflow {
            input_pos: token_pos,
        });
    };
    match_len = full_match_len;
    if STOP_AT_CAPACITY {
        match_len = match_len.min(dst.capacity() - op);
    }
    if match_len > dst.capacity() - op {
        return Err(Error::MatchOverflowsOutput {
            input_pos: token_pos,
            output_pos: op - out_start,
            match_len,
            capacity: dst.capacity() - out_start,
        });
    }
    if offset > op {
        // The match starts in the dictionary: its first bytes are the dictionary's last
        // `offset - op`, and any rest continues from `dst[0]` (the same `offset` back).
        let from_dict = (offset - op).min(match_len);
        let start = dict.len() - (offset - op);
        dst.write_literals(op, &dict[start..start + from_dict]);
        op += from_dict;
        match_len -= from_dict;
    }
    if match_len > 0 {
        dst.copy_match(op, offset, match_len);
        op += match_len;
    }
    if STOP_AT_CAPACITY && op == dst.capacity() {
        // (The sequence wrote 32 bytes only if nothing was cut: 14 literals, an 18-byte match.)
        if token == 0xEE && op - sequence_op == 32 && offset >= 8 && offset <= op - 18 {
            partial_shortcut_end(src, token_pos, ip)?;
        }
        return Ok(ControlFlow::Break(op));
    }
    Ok(ControlFlow::Continue((ip, op)))
}

/// liblz4's partial decode has one more check at the end, which this reproduces: its short-
/// sequence shortcut (a token `0xEE`: 14 literals and an 18-byte match from at least 8 back,
/// started exactly 32 bytes before the capacity with more than 16 input bytes after the token)
/// does not test for a full output, so it goes on to the next token, and if that token's literal
/// nibble is 15 it reads the extension (which must leave 15 input bytes) before it stops. `ip`
/// is the next token's position.
#[cold]
fn partial_shortcut_end(src: &[u8], token_pos: usize, ip: usize) -> Result<(), Error> {
    if src.len() - (token_pos + 1) <= 16 {
        return Ok(());
    }
    match src.get(ip) {
        Some(&next) if usize::from(next >> 4) == RUN_MASK => {
            let mut cursor = ip + 1;
            read_length_extension(src, &mut cursor, RUN_MASK, ip)?;
            if src.len() - cursor < RUN_MASK {
                return Err(Error::TruncatedLength { input_pos: ip });
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Reads the `255, 255, ..., r` extension of a length whose nibble was 15, adding it to `base`.
#[inline]
pub(super) fn read_length_extension(
    src: &[u8],
    ip: &mut usize,
    base: usize,
    token_pos: usize,
) -> Result<usize, Error> {
    let mut len = base;
    loop {
        let Some(&byte) = src.get(*ip) else {
            return Err(Error::TruncatedLength {
                input_pos: token_pos,
            });
        };
        *ip += 1;
        // (A let-else, not `ok_or`: an eagerly built Error would be dropped for every byte.)
        let Some(sum) = len.checked_add(usize::from(byte)) else {
            return Err(Error::LengthOverflow {
                input_pos: token_pos,
            });
        };
        len = sum;
        if byte != 255 {
            return Ok(len);
        }
    }
}

/// Writes `match_len` bytes at `dst[op..]`, each a copy of the byte `offset` positions before it.
/// The caller has checked `1 <= offset <= op` and `match_len <= dst.len() - op`.
#[inline]
fn copy_match(dst: &mut [u8], op: usize, offset: usize, match_len: usize) {
    let start = op - offset;
    if offset >= match_len {
        dst.copy_within(start..start + match_len, op);
    } else if offset == 1 {
        let byte = dst[start];
        dst[op..op + match_len].fill(byte);
    } else {
        // Overlapping: the output repeats the `offset`-byte pattern. Copying from `start` a chunk
        // as long as what lies between `start` and the write position (always a whole number of
        // periods) keeps the pattern's phase, and that chunk never overlaps its destination.
        let end = op + match_len;
        let mut pos = op;
        while pos < end {
            let chunk = (pos - start).min(end - pos);
            dst.copy_within(start..start + chunk, pos);
            pos += chunk;
        }
    }
}
