//! The one fast decode loop, generic over a [`CopyKernel`], and the kernel entry points
//! (`decode_sse2`, `decode_avx2`, `decode_avx512`, `decode_neon`, `decode_simd128`, and
//! `decode_special_*` for the
//! partial and external-dictionary decodes, see `decode_special_with`), which `dispatch` reaches
//! through a kernel token.
//!
//! The loop decodes sequences while both buffers have room for the kernel's wide ("wild")
//! copies: literals and matches are moved in whole `WIDTH`-byte chunks that may run past their
//! logical end, but never past the slices. Valid blocks end with at least 5 literals and their
//! last match starts at least 12 bytes before the end, which is what leaves that room for all but
//! the last few sequences. Each sequence is fully checked *before* it is consumed: a truncated
//! length, an offset of 0 or reaching before the output, or a sequence without the room makes the
//! loop stop at that sequence's token and hand over to the reference decoder's careful loop
//! ([`reference::decode_careful`]), which decodes the rest exactly and reports any error. So the
//! verdict and the output are the reference decoder's by construction; the fast loop only decides
//! how fast the valid prefix is produced.
//!
//! Overlapping matches (offset < `WIDTH`) go to the kernel's `replicate`; others are copied in
//! `WIDTH` chunks, each chunk's source lying entirely before its destination.
//!
//! The output may be uninitialised memory (`block::decompress` decodes into a `Vec`'s spare
//! capacity): the loop never reads an output byte it has not written. Literal copies read only
//! `src`; a match chunk's source ends at or before the position it is written to (offset >=
//! `WIDTH`; in the short-match shortcut, offset >= 16 for its 16-byte copy, whose store holds the
//! bytes its 2-byte copy reads); `replicate` and `replicate_short` read only the
//! [`REPLICATE_HISTORY`] bytes before the match (the first bytes of a match that starts closer
//! than that to the output's start are copied one by one). The careful loop finishes in the same
//! memory through [`UninitOutput`], which tracks the initialised prefix. Wild writes past a
//! sequence store copies of initialised bytes, so whatever they leave past the returned length is
//! initialised (but unspecified).

use core::mem::MaybeUninit;
use core::ops::ControlFlow;

use super::reference;
use super::reference::{FULL, PARTIAL};
use super::uninit::UninitOutput;
use super::{cold_path, MINMATCH, ML_MASK, RUN_MASK};
use crate::kernel::{copy_bytes, CopyKernel, REPLICATE_HISTORY};
use crate::Error;

/// Input room the loop needs from a token it starts: the token, a 16-byte literal read, and the
/// 4 bytes after the offset (where the next token is if the match length has one extension
/// byte), read speculatively after up to 15 literals (the nibble, before it is tested). A last
/// sequence (literals only, at most 14 of them) never has that much input left, so a short
/// literal run is never the block's last.
pub(super) const FAST_SRC_ROOM: usize = 1 + 15 + 2 + 2;
/// Output bytes a short match (match nibble < 15: at most 18 bytes) may write: 16 + 2 bytes, or
/// two 16-byte pattern stores ([`CopyKernel::replicate_short`]).
pub(super) const SHORT_MATCH_WRITE: usize = 32;
/// Output room the loop needs at a sequence start: up to 14 literals (written as 16) and a short
/// match written as [`SHORT_MATCH_WRITE`] bytes.
pub(super) const FAST_DST_ROOM: usize = 14 + SHORT_MATCH_WRITE;

/// The longest match the medium path copies (in one fixed-size copy, so it is a multiple of every
/// kernel's width).
pub(super) const MEDIUM_MATCH: usize = 64;

/// Wide chunks a long match copies per loop turn: 2 for the 32- and 64-byte kernels, 4 for the
/// 16-byte ones (SSE2, NEON), so every kernel moves at least 64 bytes per turn (measured on SSE2,
/// Zen 4, same-process A/B: +0.4 to +2.5% on Silesia over 2 chunks per turn; xml and osdb, with the
/// most long matches, gain most). The room check and the writes past the match scale with it.
pub(super) const fn match_chunks_per_turn(width: usize) -> usize {
    if width >= 32 {
        2
    } else {
        4
    }
}

/// Reads a length extension (`255, ..., r`) at `src[*cursor..]`, or `None` if the input ends
/// inside it or the sum overflows.
#[inline(always)]
pub(super) fn read_extension(src: &[u8], cursor: &mut usize, base: usize) -> Option<usize> {
    let mut len = base;
    loop {
        let byte = *src.get(*cursor)?;
        *cursor += 1;
        len = len.checked_add(usize::from(byte))?;
        if byte != 255 {
            return Some(len);
        }
    }
}

/// Decodes as many sequences of `src` as can be decoded with wide copies into `dst`, starting
/// with the token at `src[start_ip]` and at output position `start_op` (`dst[..start_op]` is
/// history, or output decoded before). Returns the (input, output) positions `(ip, op)` of the
/// first sequence it did not decode; `dst[..op]` is then initialised and final. It never reads
/// before `dst[0]`: a match reaching there stops it.
///
/// # Safety
///
/// The CPU must support `K`'s instructions (the caller holds the kernel's token),
/// `start_ip <= src.len()`, `start_op <= dst.len()`, and `dst[..start_op]` must be initialised.
#[inline(always)]
pub(super) unsafe fn fast_sequences<K: CopyKernel>(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
    start_ip: usize,
    start_op: usize,
) -> (usize, usize) {
    debug_assert!(start_ip <= src.len() && start_op <= dst.len());
    let width = K::WIDTH;
    let src_ptr = src.as_ptr();
    let dst_ptr = dst.as_mut_ptr().cast::<u8>();
    let src_len = src.len();
    let dst_len = dst.len();
    // A sequence is started only while `ip < src_limit` and `op < dst_limit`, that is while
    // FAST_SRC_ROOM input bytes and FAST_DST_ROOM output bytes are left (the limits are 0, so
    // the loop never starts, when the slices are shorter than that).
    let src_limit = src_len.saturating_sub(FAST_SRC_ROOM - 1);
    let dst_limit = dst_len.saturating_sub(FAST_DST_ROOM - 1);
    let mut ip = start_ip;
    let mut op = start_op;
    // Invariants: ip <= src_len, op <= dst_len; dst[..op] is final output. `ip` and `op` change
    // only when a sequence is complete, so every `return` hands the careful loop the start of
    // the sequence it stopped in (whatever the wild copies already wrote past `op` is rewritten).
    if ip >= src_limit || op >= dst_limit {
        return (ip, op);
    }
    // The token travels from one sequence to the next as the top byte of a `u32` (`word`), not
    // as a byte: a byte-sized value carried around the loop is narrowed by LLVM to an 8-bit
    // register and zero-extended again (`movzx r32, r8`) at every sequence, one more ALU
    // operation on the loop-carried chain (token -> literal length -> next token's load), which
    // `mov` elimination does not remove. With the token in the top byte, the literal length is a
    // single shift of the loaded word: the chain is load, `shr`, load. On synthetic blocks of
    // short sequences, AVX2: 6.5 cycles per sequence against 7.4; on Silesia +6 to +11% over four
    // builds (AMD EPYC family 25 model 17, 2 vCPUs, 2026-12-04, `11d1b72`).
    // SAFETY: ip < src_limit: src[ip] exists.
    let mut word = u32::from(unsafe { *src_ptr.add(ip) }) << 24;
    loop {
        debug_assert!(src_len - ip >= FAST_SRC_ROOM && dst_len - op >= FAST_DST_ROOM);
        debug_assert!(word >> 24 == u32::from(src[ip]));
        let token = (word >> 24) as usize;
        // `base + 1` is where the literals start (the token's position, or for a long run the
        // last length byte's), so the offset is at `base + 1 + literal_len`.
        let mut base = ip;
        let mut literal_len = (word >> 28) as usize;
        // The next token, where it is if this sequence turns out short (literal and match nibbles
        // below 15): loaded before anything else of this sequence, so the load that the next
        // sequence waits for starts as soon as the literal length is known instead of queueing
        // behind this sequence's copies (measured +3 to +6% on Silesia, AVX2, three builds). It
        // is the top byte of the 4 bytes read at `ip + literal_len` (little-endian).
        // SAFETY: ip + literal_len + 4 <= ip + 15 + 4 < ip + FAST_SRC_ROOM <= src_len (loop
        // condition).
        let mut next_word = u32::from_le_bytes(unsafe {
            src_ptr
                .add(ip + literal_len)
                .cast::<[u8; 4]>()
                .read_unaligned()
        });
        // The same for a sequence whose match has one length byte (the medium path below): its
        // next token is one byte further, the top byte of the 4 bytes at `ip + literal_len + 1`.
        // Loaded here, before the match nibble's branch, so it survives that branch's
        // misprediction and the next sequence does not wait for a load issued after it.
        // SAFETY: ip + literal_len + 5 <= ip + 15 + 5 = ip + FAST_SRC_ROOM <= src_len (loop
        // condition).
        let medium_next_word = u32::from_le_bytes(unsafe {
            src_ptr
                .add(ip + literal_len + 1)
                .cast::<[u8; 4]>()
                .read_unaligned()
        });
        // A short literal run (nibble < 15) is this one 16-byte copy. It is done for every
        // sequence, before the nibble is tested, so the common case runs straight through; a
        // long run is copied again from the start below.
        // SAFETY: ip + FAST_SRC_ROOM <= src_len and op + FAST_DST_ROOM <= dst_len (loop
        // condition): 16 bytes are readable at ip + 1 and writable at op; the source is `src`,
        // initialised. K's features: this function's contract.
        unsafe { K::copy16(src_ptr.add(ip + 1), dst_ptr.add(op)) };
        if literal_len == RUN_MASK {
            cold_path();
            let mut cursor = ip + 1;
            match read_extension(src, &mut cursor, literal_len) {
                Some(len) => literal_len = len,
                None => return (ip, op),
            }
            // Room to read the literals in whole turns of `chunks` chunks (which also covers the
            // 2-byte offset, so this is not the last sequence), to write them so, and to write
            // a short match after them. Turns of 64 bytes or more, as for long matches: literal
            // runs of 32-400 bytes decode 10-30% faster than one chunk per turn (every kernel;
            // Zen 5, two builds: `asm-notes/README.md`, 2026-12-05).
            let chunks = match_chunks_per_turn(width);
            let (src_room, dst_room) = (src_len - cursor, dst_len - op);
            if literal_len > src_room
                || literal_len > dst_room
                || src_room - literal_len < chunks * width
                || dst_room - literal_len < (chunks * width).max(SHORT_MATCH_WRITE)
            {
                return (ip, op);
            }
            // SAFETY: cursor + literal_len + 2 < cursor + literal_len + width <= src_len (checked
            // above; width >= 16).
            next_word = u32::from(unsafe { *src_ptr.add(cursor + literal_len + 2) }) << 24;
            base = cursor - 1;
            debug_assert!(
                src_len - cursor >= literal_len + chunks * width
                    && dst_len - op >= literal_len + chunks * width
            );
            let mut copied = 0;
            loop {
                // SAFETY: copied < literal_len + 1 rounds to at most literal_len + chunks * width
                // - 1 bytes past `cursor` / `op`, within both slices by the check above; the
                // source is `src`; K's features are present (this function's contract).
                unsafe {
                    let (from, to) = (src_ptr.add(cursor + copied), dst_ptr.add(op + copied));
                    K::copy_wide(from, to);
                    K::copy_wide(from.add(width), to.add(width));
                    if chunks == 4 {
                        K::copy_wide(from.add(2 * width), to.add(2 * width));
                        K::copy_wide(from.add(3 * width), to.add(3 * width));
                    }
                }
                copied += chunks * width;
                if copied >= literal_len {
                    break;
                }
            }
        }
        let offset_pos = base + 1 + literal_len;
        // SAFETY: short literal run: offset_pos + 2 <= ip + 1 + 14 + 2 <= src_len (loop
        // condition); long one: src_len - (base + 1) >= literal_len + width (checked) and width
        // >= 2.
        let offset = usize::from(u16::from_le_bytes(unsafe {
            src_ptr.add(offset_pos).cast::<[u8; 2]>().read()
        }));
        let match_pos = op + literal_len;
        let mut match_cursor = offset_pos + 2;
        let match_nibble = token & ML_MASK;

        // The common short match: at most 18 bytes, from 1 <= offset <= match_pos back (one
        // wrapping comparison rejects offset 0 too). From at least 16 back it is copied as 16 + 2
        // bytes. Few, narrow loads of recent output matter here: a load that straddles two
        // earlier stores cannot take its bytes from the store queue and waits for the stores to
        // reach the cache (a second 16-byte copy where the 2-byte one is, or 8 + 8 + 2 for every
        // offset, measured 2-5% slower on Silesia). Offsets below 16 (rare, so kept off the
        // straight path) are the kernel's `replicate_short`, which reads the 16 bytes before the
        // match: that needs match_pos >= REPLICATE_HISTORY (false only in a block's first bytes).
        if match_nibble < ML_MASK
            && offset.wrapping_sub(1) < match_pos
            && (offset >= 16 || match_pos >= REPLICATE_HISTORY)
        {
            debug_assert!(dst_len - match_pos >= SHORT_MATCH_WRITE);
            // SAFETY: writes end by match_pos + SHORT_MATCH_WRITE <= dst_len (short literals:
            // match_pos <= op + 14 and the loop condition; long ones: the room check above). The
            // source lies in `dst` (offset <= match_pos) and is finished output: offset >= 16:
            // the 16-byte load ends at match_pos - offset + 16 <= match_pos, the 2-byte one at
            // match_pos - offset + 18 <= match_pos + 2, inside what the 16-byte store just wrote
            // (or before it); offset < 16: replicate_short reads the REPLICATE_HISTORY bytes
            // before match_pos >= REPLICATE_HISTORY (tested above). K's features: this function's
            // contract.
            unsafe {
                let to = dst_ptr.add(match_pos);
                if offset >= 16 {
                    let from = to.sub(offset);
                    K::copy16(from, to);
                    copy_bytes::<2>(from.add(16), to.add(16));
                } else {
                    cold_path();
                    K::replicate_short(to, offset);
                }
            }
            // The offset's 2 bytes end the sequence (as the match nibble is short), so the next
            // token is the one loaded at the start.
            ip = base + 3 + literal_len;
            op = match_pos + match_nibble + MINMATCH;
            // The loop condition, tested at the end of each path so the common one loops back
            // with a single branch.
            if ip >= src_limit || op >= dst_limit {
                return (ip, op);
            }
            word = next_word;
            continue;
        }

        if offset == 0 || offset > match_pos {
            return (ip, op);
        }
        // The medium path: a short literal run and a match of 19..=64 bytes (match nibble 15 and
        // one length byte), at least `width` back. That is a fifth of osdb's and xml's sequences.
        // The length byte follows the offset, so it is `next_word`'s top byte (still the 4 bytes
        // at `ip + literal_len` when the literal run was short); the match is one 64-byte copy in
        // `width` chunks, and the next token is `medium_next_word`'s top byte. Without this path
        // such a sequence went through the general one, with its length loop, room checks and a
        // token load issued only after them (measured +6.8% AVX2, +5.8% AVX-512, +2.5% SSE2 on
        // Silesia, four builds, same process; osdb +11%).
        let length_byte = (next_word >> 24) as usize;
        if match_nibble == ML_MASK
            && literal_len < RUN_MASK
            && length_byte <= MEDIUM_MATCH - (ML_MASK + MINMATCH)
            && offset >= width
            && dst_len - match_pos >= MEDIUM_MATCH
        {
            // SAFETY: the writes end by match_pos + MEDIUM_MATCH <= dst_len (checked above).
            // Each chunk's source starts offset >= width bytes before its destination, so it
            // ends at or before the chunk's start: finished output (earlier output or the
            // previous chunk), inside `dst` (offset <= match_pos, checked above). K's features:
            // this function's contract.
            unsafe {
                let to = dst_ptr.add(match_pos);
                let mut copied = 0;
                while copied < MEDIUM_MATCH {
                    K::copy_wide(to.add(copied).sub(offset), to.add(copied));
                    copied += width;
                }
            }
            // The token, the literals, the offset and the length byte.
            ip += 1 + literal_len + 2 + 1;
            op = match_pos + ML_MASK + MINMATCH + length_byte;
            if ip >= src_limit || op >= dst_limit {
                return (ip, op);
            }
            word = medium_next_word;
            continue;
        }
        let mut match_len = match_nibble;
        if match_len == ML_MASK {
            match read_extension(src, &mut match_cursor, match_len) {
                Some(len) => match_len = len,
                None => return (ip, op),
            }
        }
        // Room for the match written in whole turns of `chunks` chunks. (Two plain comparisons: a
        // saturating sum costs compare-and-move sequences and registers the loop needs.)
        let chunks = match_chunks_per_turn(width);
        let room = dst_len - match_pos;
        if match_len > room || room - match_len < MINMATCH + chunks * width {
            return (ip, op);
        }
        let match_len = match_len + MINMATCH;
        debug_assert!(dst_len - match_pos >= match_len + chunks * width);
        if offset >= width {
            let mut copied = 0;
            loop {
                // SAFETY: each chunk's source starts `offset >= width` bytes before its
                // destination, so it is output finished by earlier chunks (a chunk's source ends
                // at or before the end of the previous chunk's destination), inside `dst` (offset
                // <= match_pos); destinations end before match_pos + match_len + chunks * width
                // <= dst_len (checked above).
                unsafe {
                    let to = dst_ptr.add(match_pos + copied);
                    K::copy_wide(to.sub(offset), to);
                    K::copy_wide(to.add(width).sub(offset), to.add(width));
                    if chunks == 4 {
                        K::copy_wide(to.add(2 * width).sub(offset), to.add(2 * width));
                        K::copy_wide(to.add(3 * width).sub(offset), to.add(3 * width));
                    }
                }
                copied += chunks * width;
                if copied >= match_len {
                    break;
                }
            }
        } else {
            // `replicate` reads the REPLICATE_HISTORY bytes before its start: a match this close
            // to the output's start (only the block's first bytes, without history) writes its
            // first bytes one by one, each a copy of a finished byte.
            let mut at = match_pos;
            while at < REPLICATE_HISTORY && at < match_pos + match_len {
                // SAFETY: 1 <= offset <= match_pos <= at, so `at - offset` is a finished byte;
                // at < match_pos + match_len <= dst_len (checked above).
                unsafe { *dst_ptr.add(at) = *dst_ptr.add(at - offset) };
                at += 1;
            }
            if at < match_pos + match_len {
                debug_assert!(at >= REPLICATE_HISTORY);
                // SAFETY: 1 <= offset <= match_pos <= at and at >= REPLICATE_HISTORY: the bytes
                // before `at` that replicate reads are finished output; dst_len - at >=
                // (match_pos + match_len - at) + chunks * width (checked above): the range it may
                // write lies in `dst`.
                unsafe { K::replicate(dst_ptr.add(at), offset, match_pos + match_len - at) };
            }
        }
        ip = match_cursor;
        op = match_pos + match_len;
        if ip >= src_limit || op >= dst_limit {
            return (ip, op);
        }
        // SAFETY: ip < src_limit (just tested): src[ip] exists.
        word = u32::from(unsafe { *src_ptr.add(ip) }) << 24;
    }
}

/// Decodes `src` into `dst[out_start..]` with kernel `K`'s fast loop, then the careful loop.
/// On success `dst[..returned length]` is initialised.
///
/// # Safety
///
/// The CPU must support `K`'s instructions, and `dst[..out_start]` must be initialised.
#[inline(always)]
unsafe fn decode_with<K: CopyKernel>(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
    out_start: usize,
) -> Result<usize, Error> {
    // SAFETY: forwarded contract (start_ip = 0).
    let (ip, op) = unsafe { fast_sequences::<K>(src, dst, 0, out_start) };
    // SAFETY: fast_sequences returns with dst[..op] initialised (op <= dst.len()).
    let mut output = unsafe { UninitOutput::new(dst, op) };
    reference::decode_careful::<_, FULL>(src, &mut output, &[], out_start, ip, op)
}

/// The decodes beside the plain one, all into `dst` from its start (no history in `dst`): the
/// first `dst.len()` bytes of the block (`partial`, without a dictionary), or the whole block
/// with `dict` as the history before `dst[0]`. On success `dst[..returned length]` is
/// initialised.
///
/// Partial: the fast loop runs on the input without its last bytes
/// ([`reference::partial_fast_input`]), then the careful loop finishes in the partial mode.
/// Dictionary: the fast loop stops at every match that reaches into the dictionary (it copies
/// only from `dst`); the careful loop decodes that one sequence and the fast loop goes on after
/// it, so only the sequences that read the dictionary take the careful path.
///
/// # Safety
///
/// The CPU must support `K`'s instructions.
#[inline(always)]
unsafe fn decode_special_with<K: CopyKernel>(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
    dict: &[u8],
    partial: bool,
) -> Result<usize, Error> {
    if partial {
        debug_assert!(dict.is_empty());
        // SAFETY: K's features: this function's contract; start 0: nothing must be initialised.
        let (ip, op) =
            unsafe { fast_sequences::<K>(reference::partial_fast_input(src), dst, 0, 0) };
        // SAFETY: fast_sequences returns with dst[..op] initialised (op <= dst.len()).
        let mut output = unsafe { UninitOutput::new(dst, op) };
        return reference::decode_careful::<_, PARTIAL>(src, &mut output, &[], 0, ip, op);
    }
    let (mut ip, mut op) = (0, 0);
    loop {
        // SAFETY: K's features: this function's contract; ip <= src.len() and dst[..op] is
        // initialised (op <= dst.len()): both start at 0, then come from fast_sequences,
        // dict_short_sequence or the careful loop's step, which leave them so.
        (ip, op) = unsafe { fast_sequences::<K>(src, dst, ip, op) };
        // SAFETY: K's features: this function's contract.
        if let Some(next) = unsafe { dict_short_sequence::<K>(src, dst, dict, ip, op) } {
            (ip, op) = next;
            continue;
        }
        // SAFETY: fast_sequences returns with dst[..op] initialised (op <= dst.len()).
        let mut output = unsafe { UninitOutput::new(dst, op) };
        match reference::decode_sequence::<_, FULL>(src, &mut output, dict, 0, ip, op)? {
            ControlFlow::Continue(next) => (ip, op) = next,
            ControlFlow::Break(end) => return Ok(end),
        }
    }
}

/// Decodes the sequence at `src[ip]` if its literal run is short (nibble below 15) and its match
/// lies entirely in the dictionary, with room for wide copies: the commonest sequence the fast
/// loop leaves in a small message decoded with a dictionary. Returns the next `(ip, op)`, or
/// `None` (nothing written) for any other sequence, which the careful loop then decodes. The
/// checks are the careful loop's for such a sequence (the literals, the offset and the length
/// extension lie in the input, the match lies in the dictionary, the output has room; what follows
/// is the next step's), so the result is the same.
///
/// # Safety
///
/// The CPU must support `K`'s instructions; `op <= dst.len()`.
#[inline(always)]
unsafe fn dict_short_sequence<K: CopyKernel>(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
    dict: &[u8],
    ip: usize,
    op: usize,
) -> Option<(usize, usize)> {
    debug_assert!(op <= dst.len());
    // The token, up to 14 literals read as 16 bytes, and the offset.
    let window = src.get(ip..)?.first_chunk::<FAST_SRC_ROOM>()?;
    if dst.len() - op < FAST_DST_ROOM {
        return None;
    }
    let token = usize::from(window[0]);
    let literal_len = token >> 4;
    if literal_len == RUN_MASK {
        return None;
    }
    let offset = usize::from(u16::from_le_bytes([
        window[1 + literal_len],
        window[2 + literal_len],
    ]));
    let mut next_ip = ip + 3 + literal_len;
    let mut match_len = token & ML_MASK;
    if match_len == ML_MASK {
        match_len = read_extension(src, &mut next_ip, match_len)?;
    }
    let match_len = match_len.checked_add(MINMATCH)?;
    let match_pos = op + literal_len;
    // The match starts `back` bytes before dst[0] and ends before it.
    let back = offset.checked_sub(match_pos)?;
    if back < match_len || back > dict.len() || match_len > dst.len() - match_pos {
        return None;
    }
    let from = &dict[dict.len() - back..];
    let dst_ptr = dst.as_mut_ptr().cast::<u8>();
    // SAFETY: 16 bytes are readable at window[1..17] (the window holds FAST_SRC_ROOM = 20) and
    // writable at op (FAST_DST_ROOM = 46 bytes of room, checked above); K's features: this
    // function's contract.
    unsafe { K::copy16(window.as_ptr().add(1), dst_ptr.add(op)) };
    if match_len <= 32 && from.len() >= 32 {
        // SAFETY: 32 bytes are readable at `from` (just tested) and writable at match_pos <= op +
        // 14 (room checked above: op + 14 + 32 <= op + FAST_DST_ROOM <= dst.len()); `from` is in
        // `dict`, a shared borrow, so it does not overlap `dst`. K's features: this function's
        // contract.
        unsafe {
            K::copy16(from.as_ptr(), dst_ptr.add(match_pos));
            K::copy16(from.as_ptr().add(16), dst_ptr.add(match_pos + 16));
        }
    } else {
        // SAFETY: match_len <= back = from.len() bytes are readable at `from` and writable at
        // match_pos (checked above); `dict` and `dst` do not overlap.
        unsafe { core::ptr::copy_nonoverlapping(from.as_ptr(), dst_ptr.add(match_pos), match_len) };
    }
    Some((next_ip, match_pos + match_len))
}

/// The SSE2 kernel's entry point.
///
/// # Safety
///
/// `dst[..out_start]` must be initialised. (SSE2 is x86_64 baseline.)
#[cfg(x86_kernels)]
#[inline(never)]
pub(crate) unsafe fn decode_sse2(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
    out_start: usize,
) -> Result<usize, Error> {
    // SAFETY: SSE2 is part of the x86_64 baseline; the history contract is forwarded.
    unsafe { decode_with::<crate::kernel::x86::Sse2>(src, dst, out_start) }
}

/// The AVX2 kernel's entry point.
///
/// # Safety
///
/// The CPU must support AVX2, and `dst[..out_start]` must be initialised.
#[cfg(x86_kernels)]
#[inline(never)]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn decode_avx2(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
    out_start: usize,
) -> Result<usize, Error> {
    // SAFETY: this function's contract: AVX2 (and so SSSE3) is present.
    unsafe { decode_with::<crate::kernel::x86::Avx2>(src, dst, out_start) }
}

/// The AVX-512 kernel's entry point.
///
/// # Safety
///
/// The CPU must support AVX-512 F, BW and VBMI, and `dst[..out_start]` must be initialised.
#[cfg(x86_kernels)]
#[inline(never)]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(crate) unsafe fn decode_avx512(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
    out_start: usize,
) -> Result<usize, Error> {
    // SAFETY: this function's contract: AVX-512 F, BW and VBMI (and so AVX2 and SSSE3) are
    // present.
    unsafe { decode_with::<crate::kernel::x86::Avx512>(src, dst, out_start) }
}

/// The NEON kernel's entry point.
///
/// # Safety
///
/// The CPU must support NEON (baseline on aarch64), and `dst[..out_start]` must be initialised.
#[cfg(neon_kernel)]
#[inline(never)]
#[target_feature(enable = "neon")]
pub(crate) unsafe fn decode_neon(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
    out_start: usize,
) -> Result<usize, Error> {
    // SAFETY: this function's contract.
    unsafe { decode_with::<crate::kernel::neon::Neon>(src, dst, out_start) }
}

/// The SSE2 kernel's entry point for the partial and dictionary decodes (see
/// `decode_special_with`).
///
/// # Safety
///
/// None beyond the x86_64 baseline (SSE2); `unsafe` like the other entries.
#[cfg(x86_kernels)]
#[inline(never)]
pub(crate) unsafe fn decode_special_sse2(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
    dict: &[u8],
    partial: bool,
) -> Result<usize, Error> {
    // SAFETY: SSE2 is part of the x86_64 baseline.
    unsafe { decode_special_with::<crate::kernel::x86::Sse2>(src, dst, dict, partial) }
}

/// The AVX2 kernel's entry point for the partial and dictionary decodes (see
/// `decode_special_with`).
///
/// # Safety
///
/// The CPU must support AVX2.
#[cfg(x86_kernels)]
#[inline(never)]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn decode_special_avx2(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
    dict: &[u8],
    partial: bool,
) -> Result<usize, Error> {
    // SAFETY: this function's contract: AVX2 (and so SSSE3) is present.
    unsafe { decode_special_with::<crate::kernel::x86::Avx2>(src, dst, dict, partial) }
}

/// The AVX-512 kernel's entry point for the partial and dictionary decodes (see
/// `decode_special_with`).
///
/// # Safety
///
/// The CPU must support AVX-512 F, BW and VBMI.
#[cfg(x86_kernels)]
#[inline(never)]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(crate) unsafe fn decode_special_avx512(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
    dict: &[u8],
    partial: bool,
) -> Result<usize, Error> {
    // SAFETY: this function's contract: AVX-512 F, BW and VBMI (and so AVX2 and SSSE3) are present.
    unsafe { decode_special_with::<crate::kernel::x86::Avx512>(src, dst, dict, partial) }
}

/// The NEON kernel's entry point for the partial and dictionary decodes (see
/// `decode_special_with`).
///
/// # Safety
///
/// The CPU must support NEON (baseline on aarch64).
#[cfg(neon_kernel)]
#[inline(never)]
#[target_feature(enable = "neon")]
pub(crate) unsafe fn decode_special_neon(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
    dict: &[u8],
    partial: bool,
) -> Result<usize, Error> {
    // SAFETY: this function's contract.
    unsafe { decode_special_with::<crate::kernel::neon::Neon>(src, dst, dict, partial) }
}

/// The simd128 kernel's entry point.
///
/// # Safety
///
/// `dst[..out_start]` must be initialised. (`simd128` is enabled for the whole module: this
/// entry exists only in builds with `-C target-feature=+simd128`.)
#[cfg(wasm_kernel)]
#[inline(never)]
pub(crate) unsafe fn decode_simd128(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
    out_start: usize,
) -> Result<usize, Error> {
    // SAFETY: simd128 is enabled at compile time (cfg(wasm_kernel)); the history contract is
    // forwarded.
    unsafe { decode_with::<crate::kernel::wasm::Simd128>(src, dst, out_start) }
}

/// The simd128 kernel's entry point for the partial and dictionary decodes (see
/// `decode_special_with`).
///
/// # Safety
///
/// None beyond `simd128`, enabled at compile time; `unsafe` like the other entries.
#[cfg(wasm_kernel)]
#[inline(never)]
pub(crate) unsafe fn decode_special_simd128(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
    dict: &[u8],
    partial: bool,
) -> Result<usize, Error> {
    // SAFETY: simd128 is enabled at compile time (cfg(wasm_kernel)).
    unsafe { decode_special_with::<crate::kernel::wasm::Simd128>(src, dst, dict, partial) }
}
