//! A prototype: 2 or 4 independent blocks decoded in one loop, their sequences alternating.
//!
//! The single-stream loop (`fast_decode::fast_sequences`) is bound by its token chain (each
//! sequence's input position depends on the previous lengths: load, `shr`, load) and by matches
//! that read output stored a few sequences earlier. Independent blocks have independent chains,
//! so decoding one sequence of each block in turn gives the out-of-order core two (or four)
//! chains to overlap, as multi-buffer hashing does. Here each block is a lane: its fixed facts
//! (`Ctx`) and its position (`State`, carried from one sequence to the next by value), and one
//! turn of the loop decodes one sequence of every lane with `step`, the same sequence decoder as
//! the single-stream loop (the short, medium and general paths, the same checks, the same wide
//! copies).
//!
//! Each lane is checked as the single-stream loop is: a sequence that is truncated, has a bad
//! offset or lacks the room for wide copies stops that lane at its token. The interleaved loop
//! runs while every lane goes on; when one stops, the others go on two at a time while two can,
//! and then each lane finishes alone, in the single-stream fast loop and then the reference
//! decoder's careful loop, which decodes the rest exactly and reports that lane's own error. So
//! every lane's output and verdict are the single-stream decoder's (with the same copy width).
//!
//! Not public API: `#[doc(hidden)]`, for the `multi_block` bench and the tests. Measured, it loses
//! to decoding the blocks one at a time except where the single-stream loop stalls (Silesia in 64
//! KiB blocks: 0.86× at 2 lanes, 0.75× at 4; the `off16-64` class 1.29×; Zen 4): the
//! single-stream loop is bound by instruction throughput, and a second lane's state costs about
//! a fifth more instructions per sequence (`asm-notes/multi-block.md`).

use core::mem::MaybeUninit;

use super::fast_decode::{
    fast_sequences, match_chunks_per_turn, read_extension, FAST_DST_ROOM, FAST_SRC_ROOM,
    MEDIUM_MATCH, SHORT_MATCH_WRITE,
};
use super::reference::{self, FULL};
use super::uninit::UninitOutput;
use super::{cold_path, dispatch, MINMATCH, ML_MASK, RUN_MASK};
use crate::kernel::{copy_bytes, CopyKernel, KernelToken, REPLICATE_HISTORY};
use crate::{Error, Kernel};

/// One block's fixed facts in the interleaved loop: its input, its output (as a raw pointer: the
/// output slice itself is held by [`decode_lanes`], which finishes the block with it once the
/// interleaved loops are over), and the loop's limits.
#[derive(Clone, Copy)]
struct Ctx<'a> {
    src: &'a [u8],
    dst: *mut u8,
    dst_len: usize,
    /// A sequence is started only while `ip < src_limit` and `op < dst_limit` (as in
    /// `fast_sequences`).
    src_limit: usize,
    dst_limit: usize,
}

/// A block's position, carried from one sequence to the next in registers (returned by value
/// from [`step`], not stored in memory, so the next sequence of the lane does not wait for a
/// store to be forwarded).
#[derive(Clone, Copy)]
struct State {
    /// The next sequence's token position and output position; `dst[..op]` is final output.
    ip: usize,
    op: usize,
    /// `src[ip] << 24` while the lane can start a sequence (see `fast_sequences`).
    word: u32,
}

impl<'a> Ctx<'a> {
    fn new(src: &'a [u8], dst: &mut [MaybeUninit<u8>]) -> (Self, State) {
        let src_limit = src.len().saturating_sub(FAST_SRC_ROOM - 1);
        let dst_limit = dst.len().saturating_sub(FAST_DST_ROOM - 1);
        let word = if src_limit > 0 {
            u32::from(src[0]) << 24
        } else {
            0
        };
        let ctx = Ctx {
            src,
            dst: dst.as_mut_ptr().cast::<u8>(),
            dst_len: dst.len(),
            src_limit,
            dst_limit,
        };
        (ctx, State { ip: 0, op: 0, word })
    }

    /// Whether the lane can start a sequence at `state` (the loop condition of
    /// `fast_sequences`).
    #[inline(always)]
    fn ready(&self, state: State) -> bool {
        state.ip < self.src_limit && state.op < self.dst_limit
    }
}

/// Decodes the lane's next sequence: one turn of `fast_sequences`' loop, with the same paths,
/// checks and copies. Returns the next state and whether the lane can start another sequence
/// there (`ready`, with `word` loaded); when it cannot, the state is the start of the sequence
/// it stopped in (the given one if this sequence failed a check), and `dst[..op]` is final
/// output.
///
/// # Safety
///
/// The CPU must support `K`'s instructions; `ctx` must describe a live output slice that nothing
/// else accesses during the call; the lane must be `ready` at `state` with `word == src[ip] <<
/// 24`, and `dst[..op]` initialised.
#[inline(always)]
unsafe fn step<K: CopyKernel>(ctx: &Ctx<'_>, state: State) -> (State, bool) {
    let width = K::WIDTH;
    let src = ctx.src;
    let src_ptr = src.as_ptr();
    let src_len = src.len();
    let dst_len = ctx.dst_len;
    let dst_ptr = ctx.dst;
    let State { ip, op, word } = state;
    let stop = (state, false);
    debug_assert!(src_len - ip >= FAST_SRC_ROOM && dst_len - op >= FAST_DST_ROOM);
    debug_assert!(word >> 24 == u32::from(src[ip]));
    let token = (word >> 24) as usize;
    let mut base = ip;
    let mut literal_len = (word >> 28) as usize;
    // SAFETY: ip + literal_len + 4 <= ip + 19 < ip + FAST_SRC_ROOM <= src_len (`ready`, this
    // function's contract).
    let mut next_word = u32::from_le_bytes(unsafe {
        src_ptr
            .add(ip + literal_len)
            .cast::<[u8; 4]>()
            .read_unaligned()
    });
    // SAFETY: ip + literal_len + 5 <= ip + FAST_SRC_ROOM <= src_len (`ready`).
    let medium_next_word = u32::from_le_bytes(unsafe {
        src_ptr
            .add(ip + literal_len + 1)
            .cast::<[u8; 4]>()
            .read_unaligned()
    });
    // SAFETY: ip + FAST_SRC_ROOM <= src_len and op + FAST_DST_ROOM <= dst_len (`ready`): 16 bytes
    // are readable at ip + 1 and writable at op; the source is `src`. K's features: this
    // function's contract.
    unsafe { K::copy16(src_ptr.add(ip + 1), dst_ptr.add(op)) };
    if literal_len == RUN_MASK {
        cold_path();
        let mut cursor = ip + 1;
        match read_extension(src, &mut cursor, literal_len) {
            Some(len) => literal_len = len,
            None => return stop,
        }
        let chunks = match_chunks_per_turn(width);
        let (src_room, dst_room) = (src_len - cursor, dst_len - op);
        if literal_len > src_room
            || literal_len > dst_room
            || src_room - literal_len < chunks * width
            || dst_room - literal_len < (chunks * width).max(SHORT_MATCH_WRITE)
        {
            return stop;
        }
        // SAFETY: cursor + literal_len + 2 < cursor + literal_len + width <= src_len (checked
        // above; width >= 16).
        next_word = u32::from(unsafe { *src_ptr.add(cursor + literal_len + 2) }) << 24;
        base = cursor - 1;
        let mut copied = 0;
        loop {
            // SAFETY: copied < literal_len + 1 rounds to at most literal_len + chunks * width - 1
            // bytes past `cursor` / `op`, within both slices by the check above; the source is
            // `src`; K's features: this function's contract.
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
    // SAFETY: short literal run: offset_pos + 2 <= ip + 17 <= src_len (`ready`); long one:
    // src_len - (base + 1) >= literal_len + width (checked) and width >= 2.
    let offset = usize::from(u16::from_le_bytes(unsafe {
        src_ptr.add(offset_pos).cast::<[u8; 2]>().read()
    }));
    let match_pos = op + literal_len;
    let mut match_cursor = offset_pos + 2;
    let match_nibble = token & ML_MASK;

    let (next_ip, next_op, next_word) = if match_nibble < ML_MASK
        && offset.wrapping_sub(1) < match_pos
        && (offset >= 16 || match_pos >= REPLICATE_HISTORY)
    {
        debug_assert!(dst_len - match_pos >= SHORT_MATCH_WRITE);
        // SAFETY: writes end by match_pos + SHORT_MATCH_WRITE <= dst_len (short literals:
        // match_pos <= op + 14 and `ready`; long ones: the room check above). The source lies in
        // `dst` (offset <= match_pos) and is finished output: offset >= 16: the 16-byte load ends
        // at or before match_pos, the 2-byte one inside what the 16-byte store just wrote;
        // offset < 16: replicate_short reads the REPLICATE_HISTORY bytes before match_pos >=
        // REPLICATE_HISTORY (tested above). K's features: this function's contract.
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
        (
            base + 3 + literal_len,
            match_pos + match_nibble + MINMATCH,
            next_word,
        )
    } else {
        if offset == 0 || offset > match_pos {
            return stop;
        }
        let length_byte = (next_word >> 24) as usize;
        if match_nibble == ML_MASK
            && literal_len < RUN_MASK
            && length_byte <= MEDIUM_MATCH - (ML_MASK + MINMATCH)
            && offset >= width
            && dst_len - match_pos >= MEDIUM_MATCH
        {
            // SAFETY: the writes end by match_pos + MEDIUM_MATCH <= dst_len (checked above). Each
            // chunk's source starts offset >= width bytes before its destination: finished output
            // inside `dst` (offset <= match_pos, checked above). K's features: this function's
            // contract.
            unsafe {
                let to = dst_ptr.add(match_pos);
                let mut copied = 0;
                while copied < MEDIUM_MATCH {
                    K::copy_wide(to.add(copied).sub(offset), to.add(copied));
                    copied += width;
                }
            }
            (
                ip + 1 + literal_len + 2 + 1,
                match_pos + ML_MASK + MINMATCH + length_byte,
                medium_next_word,
            )
        } else {
            let mut match_len = match_nibble;
            if match_len == ML_MASK {
                match read_extension(src, &mut match_cursor, match_len) {
                    Some(len) => match_len = len,
                    None => return stop,
                }
            }
            let chunks = match_chunks_per_turn(width);
            let room = dst_len - match_pos;
            if match_len > room || room - match_len < MINMATCH + chunks * width {
                return stop;
            }
            let match_len = match_len + MINMATCH;
            if offset >= width {
                let mut copied = 0;
                loop {
                    // SAFETY: each chunk's source starts `offset >= width` bytes before its
                    // destination: output finished by earlier chunks, inside `dst` (offset <=
                    // match_pos); destinations end before match_pos + match_len + chunks * width
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
                let mut at = match_pos;
                while at < REPLICATE_HISTORY && at < match_pos + match_len {
                    // SAFETY: 1 <= offset <= match_pos <= at, so `at - offset` is a finished
                    // byte; at < match_pos + match_len <= dst_len (checked above).
                    unsafe { *dst_ptr.add(at) = *dst_ptr.add(at - offset) };
                    at += 1;
                }
                if at < match_pos + match_len {
                    // SAFETY: 1 <= offset <= match_pos <= at and at >= REPLICATE_HISTORY: the
                    // bytes before `at` that replicate reads are finished output; the range it
                    // may write lies in `dst` (room checked above).
                    unsafe { K::replicate(dst_ptr.add(at), offset, match_pos + match_len - at) };
                }
            }
            let next_ip = match_cursor;
            let next_word = if next_ip < ctx.src_limit {
                // SAFETY: next_ip < src_limit <= src_len: src[next_ip] exists.
                u32::from(unsafe { *src_ptr.add(next_ip) }) << 24
            } else {
                0
            };
            (next_ip, match_pos + match_len, next_word)
        }
    };
    let next = State {
        ip: next_ip,
        op: next_op,
        word: next_word,
    };
    (next, ctx.ready(next))
}

/// One turn of the interleaved loop over the listed lanes: one sequence of each, in order; breaks
/// out of the enclosing `loop` with the index of the first lane that stops. The indices are
/// literals, so the states stay in registers (LLVM keeps an array indexed by a loop counter on
/// the stack, where every lane's next sequence waits for its state's store to be forwarded).
macro_rules! turn {
    ($K:ty, $ctx:ident, $state:ident; $($lane:tt)+) => {
        $(
            // SAFETY: K's features: the enclosing function's contract; the lane is ready at its
            // state with its word loaded (`ready` was tested before the loop, and `step`
            // returned true since); the lane's output is accessed only through its `ctx`
            // until the loops are over.
            let (next, going) = unsafe { step::<$K>(&$ctx[$lane], $state[$lane]) };
            $state[$lane] = next;
            if !going {
                break $lane;
            }
        )+
    };
}

/// Two lanes interleaved until one stops; returns the index (0 or 1) of the one that stopped.
///
/// # Safety
///
/// As [`step`]'s, for both lanes (which must be distinct blocks).
#[inline(always)]
unsafe fn pair<K: CopyKernel>(ctx: [&Ctx<'_>; 2], pair_state: [&mut State; 2]) -> usize {
    let mut state = [*pair_state[0], *pair_state[1]];
    let stopped = loop {
        turn!(K, ctx, state; 0 1);
    };
    let [first, second] = pair_state;
    (*first, *second) = (state[0], state[1]);
    stopped
}

/// Finishes a block alone: the single-stream fast loop from `state`, then the careful loop,
/// which reports the block's verdict.
///
/// # Safety
///
/// The CPU must support `K`'s instructions; `state.ip <= src.len()`, `state.op <= dst.len()`,
/// and `dst[..state.op]` must be initialised (as [`step`] leaves it).
#[inline(always)]
unsafe fn finish<K: CopyKernel>(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
    state: State,
) -> Result<usize, Error> {
    // SAFETY: this function's contract.
    let (ip, op) = unsafe { fast_sequences::<K>(src, dst, state.ip, state.op) };
    // SAFETY: fast_sequences returns with dst[..op] initialised (op <= dst.len()).
    let mut output = unsafe { UninitOutput::new(dst, op) };
    reference::decode_careful::<_, FULL>(src, &mut output, &[], 0, ip, op)
}

/// Decodes 2 or 4 blocks: one sequence of each in turn while all can go on; then, while two or
/// more can, two of them at a time; then each block's rest alone ([`finish`]).
///
/// # Safety
///
/// The CPU must support `K`'s instructions.
#[inline(always)]
unsafe fn decode_lanes<K: CopyKernel, const N: usize>(
    srcs: [&[u8]; N],
    mut dsts: [&mut [MaybeUninit<u8>]; N],
) -> [Result<usize, Error>; N] {
    let mut states = [State {
        ip: 0,
        op: 0,
        word: 0,
    }; N];
    let ctx: [Ctx<'_>; N] = core::array::from_fn(|i| {
        let (ctx, state) = Ctx::new(srcs[i], dsts[i]);
        states[i] = state;
        ctx
    });
    let mut going: [bool; N] = core::array::from_fn(|i| ctx[i].ready(states[i]));
    if going.iter().all(|&g| g) {
        let stopped = match N {
            2 => loop {
                turn!(K, ctx, states; 0 1);
            },
            4 => loop {
                turn!(K, ctx, states; 0 1 2 3);
            },
            _ => unreachable!(),
        };
        going[stopped] = false;
    }
    // Two at a time while two can go on.
    loop {
        let mut lanes = (0..N).filter(|&i| going[i]);
        let (Some(a), Some(b)) = (lanes.next(), lanes.next()) else {
            break;
        };
        let [state_a, state_b] = states
            .get_disjoint_mut([a, b])
            .unwrap_or_else(|_| unreachable!());
        // SAFETY: K's features: this function's contract; lanes a != b are going (ready at their
        // states, words loaded); their outputs are accessed only through `ctx` until here.
        let stopped = unsafe { pair::<K>([&ctx[a], &ctx[b]], [state_a, state_b]) };
        going[if stopped == 0 { a } else { b }] = false;
    }
    let mut srcs = srcs.into_iter();
    let mut states = states.into_iter();
    dsts.each_mut().map(|dst| {
        let (src, state) = (
            srcs.next().unwrap_or(&[]),
            states.next().unwrap_or(State {
                ip: 0,
                op: 0,
                word: 0,
            }),
        );
        // SAFETY: K's features: this function's contract; `step` leaves ip <= src.len(), op <=
        // dst.len() and dst[..op] initialised (and the states start at 0).
        unsafe { finish::<K>(src, dst, state) }
    })
}

/// `dst` viewed as possibly uninitialised bytes.
///
/// # Safety
///
/// Only initialised bytes may be written through the view.
#[inline(always)]
unsafe fn as_uninit(dst: &mut [u8]) -> &mut [MaybeUninit<u8>] {
    // SAFETY: `[u8]` and `[MaybeUninit<u8>]` have the same layout; the caller writes only
    // initialised bytes (this function's contract).
    unsafe { &mut *(core::ptr::from_mut::<[u8]>(dst) as *mut [MaybeUninit<u8>]) }
}

/// The SSE2 entry for `N` lanes.
///
/// # Safety
///
/// None beyond the x86_64 baseline; `unsafe` like the other entries.
#[inline(never)]
unsafe fn decode_sse2<const N: usize>(
    srcs: [&[u8]; N],
    dsts: [&mut [u8]; N],
) -> [Result<usize, Error>; N] {
    // SAFETY: the kernels write only copies of initialised bytes into `dst`, which is all
    // initialised (block::fast_decode, block::uninit).
    let dsts = dsts.map(|dst| unsafe { as_uninit(dst) });
    // SAFETY: SSE2 is part of the x86_64 baseline.
    unsafe { decode_lanes::<crate::kernel::x86::Sse2, N>(srcs, dsts) }
}

/// The AVX2 entry for `N` lanes.
///
/// # Safety
///
/// The CPU must support AVX2.
#[inline(never)]
#[target_feature(enable = "avx2")]
unsafe fn decode_avx2<const N: usize>(
    srcs: [&[u8]; N],
    dsts: [&mut [u8]; N],
) -> [Result<usize, Error>; N] {
    // SAFETY: as in decode_sse2: only copies of initialised bytes are written.
    let dsts = dsts.map(|dst| unsafe { as_uninit(dst) });
    // SAFETY: this function's contract: AVX2 (and so SSSE3) is present.
    unsafe { decode_lanes::<crate::kernel::x86::Avx2, N>(srcs, dsts) }
}

/// Decodes the `N` independent blocks `srcs[i]` into `dsts[i]` (`N` = 2 or 4 is what the
/// prototype is measured at), their sequences interleaved in one loop, with `kernel`'s copies:
/// AVX2 (also for `Kernel::Avx512`) or SSE2; any other kernel, or `N` other than 2 and 4,
/// decodes the blocks one at a time.
/// Each result is what `block::Decoder::with_kernel(kernel)?.decompress_into(srcs[i], dsts[i])`
/// returns (a block that fails does not stop the others), or every result is the error of an
/// unavailable kernel.
#[doc(hidden)]
pub fn decompress_into_multi<const N: usize>(
    kernel: Kernel,
    srcs: [&[u8]; N],
    dsts: [&mut [u8]; N],
) -> [Result<usize, Error>; N] {
    let token: KernelToken = match kernel.require() {
        Ok(token) => token,
        Err(error) => return [(); N].map(|()| Err(error.clone())),
    };
    match token.kernel() {
        _ if N != 2 && N != 4 => {
            let mut srcs = srcs.into_iter();
            dsts.map(|dst| dispatch::decode(token, srcs.next().unwrap_or(&[]), dst, 0))
        }
        // SAFETY: the token exists, so AVX2 (or AVX-512, which implies it) was detected.
        Kernel::Avx2 | Kernel::Avx512 => unsafe { decode_avx2(srcs, dsts) },
        // SAFETY: SSE2 is baseline on x86_64.
        Kernel::Sse2 => unsafe { decode_sse2(srcs, dsts) },
        _ => {
            let mut srcs = srcs.into_iter();
            dsts.map(|dst| dispatch::decode(token, srcs.next().unwrap_or(&[]), dst, 0))
        }
    }
}
