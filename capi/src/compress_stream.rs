//! Streaming compression (`LZ4_stream_t`): blocks that may reference the blocks compressed
//! before them, which stay in the caller's memory where the caller passed them.
//!
//! The whole state is liblz4's, in the caller's 16416 bytes, with liblz4's layout: the 16 KiB
//! hash table, where the history is and its length (`dictionary`, `dictSize`), an attached
//! dictionary stream (`dictCtx`), the index of the next input (`currentOffset`) and the table's
//! kind. The state owns nothing (only `LZ4_createStream` allocates, the state itself; an input
//! that overlaps the output is copied for the call), so a state may be on the stack, copied
//! with `memcpy` or dropped. Each call chooses liblz4's mode from the pointers, as
//! `LZ4_compress_fast_continue` does: prefix mode when the input starts where the history ends,
//! external dictionary otherwise (the history cut where a ring buffer's input overwrites it),
//! and runs lz4-simd's parse of that mode (`lz4_simd::block::c_stream`, the one
//! `StreamCompressor` runs) on the caller's table: the bytes are liblz4's.

use std::alloc::{alloc_zeroed, dealloc, Layout};
use std::borrow::Cow;
use std::os::raw::{c_char, c_int, c_void};

use lz4_simd::block::c_stream::{self, History, StreamTable, TABLE_SLOTS};

use crate::{acceleration, c_len, overlap, LZ4_compressBound, MAX_INPUT_SIZE, STREAM_SIZE};

/// The caller's `LZ4_stream_t`, opaque: `LZ4_STREAM_MINSIZE` bytes, aligned as a pointer.
#[repr(C, align(8))]
pub struct LZ4_stream_t {
    _state: [u8; STREAM_SIZE],
}

/// The state in an `LZ4_stream_t` (liblz4's `LZ4_stream_t_internal`, field for field).
#[repr(C)]
struct Internal {
    table: StreamTable,
    /// The history's first byte (liblz4's `dictionary`), in the caller's memory.
    dictionary: *const u8,
    /// An attached dictionary stream, not used yet (liblz4's `dictCtx`).
    dict_ctx: *const Internal,
    /// The index of the next input's first byte.
    current_offset: u32,
    /// 0 for a cleared table, [`BY_U32`] once used.
    table_type: u32,
    /// The history's length (liblz4's `dictSize`; in prefix mode it may pass 64 KiB).
    dict_size: u32,
}

const _: () = assert!(std::mem::size_of::<Internal>() <= STREAM_SIZE);
const _: () = assert!(std::mem::align_of::<Internal>() <= std::mem::align_of::<LZ4_stream_t>());
const _: () = assert!(std::mem::size_of::<StreamTable>() == TABLE_SLOTS * 4);

/// liblz4's `byU32` table kind, the only one a stream uses.
const BY_U32: u32 = 2;
/// liblz4's `byU16` table kind, which its one-shot compressors use below [`U16_TABLE_LIMIT`].
const BY_U16: u32 = 3;
/// Inputs below this are compressed with the `u16` table by the one-shot compressors.
const U16_TABLE_LIMIT: c_int = 65536 + 11;
/// 64 KiB: the window, and the index a loaded dictionary ends at.
const KB64: u32 = 65536;
/// Inputs above this start from a copy of an attached dictionary's state (liblz4's rule).
const ATTACH_COPY_ABOVE: c_int = 4096;
/// A history shorter than this is dropped by a call that does not continue it.
const TINY_HISTORY: u32 = 4;
/// `LZ4_resetStream_fast` clears a table whose indices passed this (1 GiB).
const RESET_INDEX_LIMIT: u32 = 1 << 30;
/// Indices are renormalised before they pass this (2 GiB).
const INDEX_LIMIT: u64 = 0x8000_0000;
/// `LZ4_loadDict` ignores dictionaries shorter than this (liblz4's `HASH_UNIT`).
const HASH_UNIT: c_int = 8;

fn layout() -> Layout {
    Layout::new::<LZ4_stream_t>()
}

/// The state behind `stream`, or `None` for a null or misaligned pointer.
///
/// # Safety
/// `stream` null, or `STREAM_SIZE` bytes of the caller's, readable and writable and not
/// otherwise accessed during `'a`.
unsafe fn state<'a>(stream: *mut LZ4_stream_t) -> Option<&'a mut Internal> {
    if stream.is_null() || stream.align_offset(std::mem::align_of::<Internal>()) != 0 {
        return None;
    }
    // SAFETY: non-null and aligned (checked), `STREAM_SIZE >= size_of::<Internal>()` bytes (the
    // caller's contract); every bit pattern is a valid `Internal` (integers and raw pointers).
    Some(unsafe { &mut *stream.cast::<Internal>() })
}

/// Zeroes the state (`LZ4_initStream`, `LZ4_resetStream`).
///
/// # Safety
/// `stream` non-null with `STREAM_SIZE` writable bytes.
unsafe fn zero(stream: *mut c_void) {
    // SAFETY: the caller's contract; no alignment is needed to write bytes.
    unsafe { std::ptr::write_bytes(stream.cast::<u8>(), 0, STREAM_SIZE) };
}

/// A new stream (zeroed, as `LZ4_initStream` leaves it), or null if memory is short. Free it
/// with `LZ4_freeStream`.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub extern "C" fn LZ4_createStream() -> *mut LZ4_stream_t {
    // SAFETY: the layout has a non-zero size.
    unsafe { alloc_zeroed(layout()) }.cast()
}

/// Frees a stream from `LZ4_createStream` (null is allowed); returns 0.
///
/// # Safety
/// `stream` null or from `LZ4_createStream`, not freed before.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_freeStream(stream: *mut LZ4_stream_t) -> c_int {
    if !stream.is_null() {
        // SAFETY: allocated by `LZ4_createStream` with this layout (the caller's contract).
        unsafe { dealloc(stream.cast(), layout()) };
    }
    0
}

/// Makes `buffer[..size]` a fresh stream and returns it; null for a null buffer, one smaller
/// than `LZ4_STREAM_MINSIZE` or one not aligned as a pointer (liblz4's checks).
///
/// # Safety
/// `buffer` null or `size` writable bytes.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_initStream(buffer: *mut c_void, size: usize) -> *mut LZ4_stream_t {
    if buffer.is_null()
        || size < STREAM_SIZE
        || buffer.align_offset(std::mem::align_of::<Internal>()) != 0
    {
        return std::ptr::null_mut();
    }
    // SAFETY: non-null, `size >= STREAM_SIZE` writable bytes (checked, the caller's contract).
    unsafe { zero(buffer) };
    buffer.cast()
}

/// Zeroes the stream (a fresh stream, as `LZ4_initStream`); null is ignored.
///
/// # Safety
/// `stream` null or a valid `LZ4_stream_t`.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_resetStream(stream: *mut LZ4_stream_t) {
    if !stream.is_null() {
        // SAFETY: a valid `LZ4_stream_t` (the caller's contract) has `STREAM_SIZE` bytes.
        unsafe { zero(stream.cast()) };
    }
}

/// Starts the stream again without clearing its table when it can (liblz4's
/// `LZ4_resetStream_fast`: the indices move 64 KiB past the old ones); the history and any
/// attached dictionary are forgotten.
///
/// # Safety
/// `stream` null or a valid `LZ4_stream_t` (initialised).
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_resetStream_fast(stream: *mut LZ4_stream_t) {
    // SAFETY: the caller's contract.
    let Some(s) = (unsafe { state(stream) }) else {
        return;
    };
    if s.table_type != 0 && (s.table_type != BY_U32 || s.current_offset > RESET_INDEX_LIMIT) {
        s.table.slots_mut().fill(0);
        s.current_offset = 0;
        s.table_type = 0;
    }
    if s.current_offset != 0 {
        // Modulo 2^32, as liblz4's: a stream that compresses nothing between resets (its table
        // cleared, so no index in it) passes 4 GiB after 65536 of them.
        s.current_offset = s.current_offset.wrapping_add(KB64);
    }
    s.dict_ctx = std::ptr::null();
    s.dictionary = std::ptr::null();
    s.dict_size = 0;
}

/// `LZ4_loadDict` and `LZ4_loadDictSlow`: a full reset, then the dictionary's last 64 KiB as
/// the history (ignored under 8 bytes).
///
/// # Safety
/// `stream` null or a valid `LZ4_stream_t`; `dict[..dict_size]` readable, and left in place
/// and unchanged while the stream uses it.
unsafe fn load_dict(
    stream: *mut LZ4_stream_t,
    dict: *const c_char,
    dict_size: c_int,
    dense: bool,
) -> c_int {
    // SAFETY: the caller's contract.
    let Some(s) = (unsafe { state(stream) }) else {
        return 0;
    };
    // SAFETY: `s` is the caller's `STREAM_SIZE` bytes; the reference is not used meanwhile.
    unsafe { zero(std::ptr::from_mut(s).cast()) };
    s.current_offset = KB64;
    if dict_size < HASH_UNIT || dict.is_null() {
        return 0;
    }
    let kept = dict_size.min(KB64 as c_int) as usize;
    let start = dict.cast::<u8>().wrapping_add(dict_size as usize - kept);
    // SAFETY: the dictionary's last `kept` bytes, readable (the caller's contract).
    let bytes = unsafe { std::slice::from_raw_parts(start, kept) };
    s.dictionary = start;
    s.dict_size = kept as u32;
    s.table_type = BY_U32;
    c_stream::load_dictionary(&mut s.table, bytes, KB64 as usize, dense);
    kept as c_int
}

/// Starts the stream from the dictionary `dict[..dict_size]` (its last 64 KiB, entered every
/// third position; none under 8 bytes), which must stay in place and unchanged while the
/// stream uses it. Returns the dictionary size used; 0 for a null stream.
///
/// # Safety
/// `stream` null or a valid `LZ4_stream_t`; `dict[..dict_size]` readable.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_loadDict(
    stream: *mut LZ4_stream_t,
    dict: *const c_char,
    dict_size: c_int,
) -> c_int {
    // SAFETY: the same contract.
    unsafe { load_dict(stream, dict, dict_size, false) }
}

/// [`LZ4_loadDict`] entering every position of the dictionary (a second pass fills the slots
/// the first left empty): slower, usually a little smaller output.
///
/// # Safety
/// As [`LZ4_loadDict`].
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_loadDictSlow(
    stream: *mut LZ4_stream_t,
    dict: *const c_char,
    dict_size: c_int,
) -> c_int {
    // SAFETY: the same contract.
    unsafe { load_dict(stream, dict, dict_size, true) }
}

/// Attaches the dictionary stream `dict_stream` (prepared by `LZ4_loadDict`, or null to detach)
/// to `working`: the next block may reference it, read in place. Both it and its dictionary's
/// bytes must stay in place and unchanged until that block is compressed.
///
/// # Safety
/// `working` null or a valid `LZ4_stream_t`; `dict_stream` null or a valid `LZ4_stream_t`.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_attach_dictionary(
    working: *mut LZ4_stream_t,
    dict_stream: *const LZ4_stream_t,
) {
    let ctx = dict_stream.cast::<Internal>();
    let ctx_size = if ctx.is_null() || ctx.align_offset(std::mem::align_of::<Internal>()) != 0 {
        None
    } else {
        // SAFETY: non-null, aligned, a valid `LZ4_stream_t` (the caller's contract); read
        // before `working` (which may be the same stream) is borrowed.
        Some(unsafe { std::ptr::addr_of!((*ctx).dict_size).read() })
    };
    // SAFETY: the caller's contract.
    let Some(s) = (unsafe { state(working) }) else {
        return;
    };
    let mut attached = std::ptr::null();
    if let Some(size) = ctx_size {
        if s.current_offset == 0 {
            s.current_offset = KB64;
        }
        if size != 0 {
            attached = ctx;
        }
    }
    s.dict_ctx = attached;
}

/// The table kind liblz4's one-shot compressors use for `src_size` bytes.
fn one_shot_kind(src_size: c_int) -> u32 {
    if src_size < U16_TABLE_LIMIT {
        BY_U16
    } else {
        BY_U32
    }
}

/// liblz4's `LZ4_prepareTable`, run by `LZ4_compress_fast_extState_fastReset` on `state` before
/// compressing `src_size` bytes (0 or more): whether the table is kept or cleared, the index
/// moved on, the history forgotten. Returns whether liblz4 then finds no match at all: a `u16`
/// table on an index of 64 KiB or more (left by `LZ4_attach_dictionary` or `LZ4_loadDict` on a
/// cleared table), whose positions wrap below the index and are all refused.
///
/// # Safety
/// `state` null or a valid `LZ4_stream_t`.
pub(crate) unsafe fn prepare_one_shot(state: *mut c_void, src_size: c_int) -> bool {
    // SAFETY: the caller's contract.
    let Some(s) = (unsafe { self::state(state.cast()) }) else {
        return false;
    };
    if src_size < 0 {
        return false;
    }
    let kind = one_shot_kind(src_size);
    if s.table_type != 0
        && (s.table_type != kind
            || (kind == BY_U16 && u64::from(s.current_offset) + src_size as u64 >= 0xFFFF)
            || (kind == BY_U32 && s.current_offset > RESET_INDEX_LIMIT)
            || src_size >= ATTACH_COPY_ABOVE)
    {
        s.table.slots_mut().fill(0);
        s.current_offset = 0;
        s.table_type = 0;
    }
    if s.current_offset != 0 && kind == BY_U32 {
        s.current_offset += KB64;
    }
    s.dict_ctx = std::ptr::null();
    s.dictionary = std::ptr::null();
    s.dict_size = 0;
    kind == BY_U16 && s.current_offset >= KB64
}

/// Leaves `state` as liblz4's one-shot compressors leave it after compressing `src_size` bytes
/// (`LZ4_compress_fast_extState` on the cleared state, `_fastReset` after
/// [`prepare_one_shot`]): the index and the history's length moved on by the input, the table's
/// kind. The one-shot compressors run on lz4-simd's own tables, so the table is left as it was
/// (cleared, or a stream's, which no later block can reach); the fields, which decide what a
/// later `LZ4_resetStream_fast` or `_fastReset` keeps and so the next bytes, are liblz4's.
///
/// # Safety
/// `state` null or a valid `LZ4_stream_t`.
pub(crate) unsafe fn after_one_shot(state: *mut c_void, src_size: c_int) {
    // SAFETY: the caller's contract.
    let Some(s) = (unsafe { self::state(state.cast()) }) else {
        return;
    };
    if (1..=MAX_INPUT_SIZE).contains(&src_size) {
        s.dict_size += src_size as u32;
        s.current_offset += src_size as u32;
        s.table_type = one_shot_kind(src_size);
    }
}

/// The one-shot compressors' `u32`-table case (`src_size` of 64 KiB + 11 bytes or more) on the
/// state's own table, as liblz4 runs it: the input at the state's index (0 after
/// `LZ4_compress_fast_extState`'s clearing, or what `LZ4_prepareTable` left), its positions
/// entered into the table. Then the bytes and the table are liblz4's, also when the index is not
/// 0 (a stream's, or one moved on by an attached dictionary), where empty slots are out of
/// reach. `None` for other sizes and invalid arguments (left to the one-shot compressor).
///
/// # Safety
/// `state` null or a valid `LZ4_stream_t`; `src[..src_size]` readable, `dst[..dst_capacity]`
/// writable.
pub(crate) unsafe fn one_shot_on_table(
    state: *mut c_void,
    src: *const c_char,
    dst: *mut c_char,
    src_size: c_int,
    dst_capacity: c_int,
    acceleration: u32,
) -> Option<c_int> {
    if !(U16_TABLE_LIMIT..=MAX_INPUT_SIZE).contains(&src_size)
        || src.is_null()
        || (dst_capacity > 0 && dst.is_null())
    {
        return None;
    }
    // SAFETY: the caller's contract.
    let s = unsafe { self::state(state.cast()) }?;
    if u64::from(s.current_offset) + src_size as u64 > INDEX_LIMIT {
        return None;
    }
    // SAFETY: the caller's contract for the buffers; no history.
    Some(unsafe {
        parse(
            &mut s.table,
            Mode::Prefix { history: 0 },
            s.current_offset,
            src.cast(),
            src_size as usize,
            dst,
            dst_capacity.max(0) as usize,
            acceleration,
        )
    })
}

/// The block of `src[..src_size]` as literals only (what liblz4's parse gives when it refuses
/// every candidate), into `dst[..dst_capacity]`: its size, or 0 if it does not fit or the
/// arguments are invalid.
///
/// # Safety
/// `src[..src_size]` readable, `dst[..dst_capacity]` writable.
pub(crate) unsafe fn literal_block(
    src: *const c_char,
    dst: *mut c_char,
    src_size: c_int,
    dst_capacity: c_int,
) -> c_int {
    if src_size > MAX_INPUT_SIZE {
        return 0;
    }
    // SAFETY: the caller's contract for `src[..src_size]`, overlap with `dst` handled.
    let Some(src) = (unsafe { crate::input_apart(src, src_size, dst, dst_capacity) }) else {
        return 0;
    };
    // SAFETY: the caller's contract for `dst[..dst_capacity]`; `src` does not alias it.
    let Some(dst) = (unsafe { crate::output(dst, dst_capacity) }) else {
        return 0;
    };
    let len = src.len();
    let extension = if len >= 15 { (len - 15) / 255 + 1 } else { 0 };
    let size = 1 + extension + len;
    if dst.len() < size {
        return 0;
    }
    if len < 15 {
        dst[0] = (len as u8) << 4;
    } else {
        dst[0] = 0xF0;
        let mut rest = len - 15;
        for byte in &mut dst[1..=extension] {
            *byte = rest.min(255) as u8;
            rest = rest.saturating_sub(255);
        }
    }
    dst[1 + extension..size].copy_from_slice(&src);
    c_len(size)
}

/// liblz4's `LZ4_renormDictT`: before the indices would pass 2 GiB, move them down so that the
/// next input starts at 64 KiB.
fn renormalise(s: &mut Internal, len: usize) {
    if u64::from(s.current_offset) + len as u64 > INDEX_LIMIT {
        let delta = s.current_offset - KB64;
        let end = s.dictionary.wrapping_add(s.dict_size as usize);
        c_stream::rebase(&mut s.table, delta);
        s.current_offset = KB64;
        s.dict_size = s.dict_size.min(KB64);
        s.dictionary = end.wrapping_sub(s.dict_size as usize);
    }
}

/// `len` bytes at `ptr` (empty for 0), copied when they overlap `dst[..dst_len]`.
///
/// # Safety
/// With `len > 0`, `ptr[..len]` readable and not written during `'a` but through `dst`.
pub(crate) unsafe fn read_apart<'a>(
    ptr: *const u8,
    len: usize,
    dst: *const c_char,
    dst_len: usize,
) -> Cow<'a, [u8]> {
    if len == 0 {
        return Cow::Borrowed(&[]);
    }
    // SAFETY: the caller's contract; when it overlaps the output the slice is only read to make
    // the copy, before the output slice exists.
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    if overlap(ptr.cast(), c_len(len), dst, c_len(dst_len)) {
        Cow::Owned(bytes.to_vec())
    } else {
        Cow::Borrowed(bytes)
    }
}

/// The mode a block is compressed in.
enum Mode {
    /// The input follows the history: `history` bytes of it right before the input.
    Prefix { history: usize },
    /// The history `ptr[..len]` elsewhere (its last 64 KiB matter).
    External { ptr: *const u8, len: usize },
}

/// Runs the parse for `src[..len]` in `mode` at index `base` into `dst[..capacity]`.
///
/// # Safety
/// `src[..len]` readable (and the history of `mode`: `src[-history..0]`, or `ptr[..len]`),
/// `dst[..capacity]` writable.
#[allow(clippy::too_many_arguments)]
unsafe fn parse(
    table: &mut StreamTable,
    mode: Mode,
    base: u32,
    src: *const u8,
    len: usize,
    dst: *mut c_char,
    capacity: usize,
    acceleration: u32,
) -> c_int {
    let (window, start, history) = match mode {
        Mode::Prefix { history } => {
            let from = src.wrapping_sub(history);
            // SAFETY: the history right before the input and the input are readable (the
            // caller's contract); copied if they overlap the output.
            (
                unsafe { read_apart(from, history + len, dst, capacity) },
                history,
                None,
            )
        }
        Mode::External { ptr, len: hist } => {
            // A null history with a length (a state left by a one-shot compressor, not reset:
            // liblz4 reads address 0 there) is none.
            let hist = if ptr.is_null() { 0 } else { hist };
            let keep = hist.min(KB64 as usize).min(base as usize);
            // SAFETY: the input and the history's tail are readable (the caller's contract);
            // copied if they overlap the output.
            let (input, history) = unsafe {
                (
                    read_apart(src, len, dst, capacity),
                    read_apart(ptr.wrapping_add(hist - keep), keep, dst, capacity),
                )
            };
            (input, 0, Some(history))
        }
    };
    let out: &mut [u8] = if capacity == 0 {
        &mut []
    } else {
        // SAFETY: `dst[..capacity]` writable (the caller's contract); no input slice aliases it
        // (copied above if it did).
        unsafe { std::slice::from_raw_parts_mut(dst.cast::<u8>(), capacity) }
    };
    let history = match &history {
        None => History::Prefix {
            window: &window,
            start,
        },
        Some(history) => History::External(history),
    };
    c_stream::compress_block(
        table,
        history,
        base as usize,
        &window[start..],
        out,
        acceleration,
    )
    .map_or(0, c_len)
}

/// Compresses `src[..src_size]` into `dst[..dst_capacity]` as the next block of the stream, at
/// `acceleration` (clamped to 1..=65537): the compressed size, or 0 if it does not fit (the
/// input is then the stream's history all the same, as in liblz4) or the arguments are
/// invalid (a null or misaligned stream, a negative or too large size, a null buffer with a
/// size: nothing changes). The earlier blocks (their last 64 KiB) must still be where they were
/// passed, unchanged, or saved by `LZ4_saveDict`; an input that starts where the previous one
/// ended continues it (prefix mode), any other makes the previous one the history.
///
/// # Safety
/// `stream` null or a valid `LZ4_stream_t` whose history is in place; `src[..src_size]`
/// readable and `dst[..dst_capacity]` writable (either may be null when its size is 0).
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_compress_fast_continue(
    stream: *mut LZ4_stream_t,
    src: *const c_char,
    dst: *mut c_char,
    src_size: c_int,
    dst_capacity: c_int,
    acceleration: c_int,
) -> c_int {
    // SAFETY: the same contract.
    unsafe {
        compress_continue(
            stream,
            src,
            dst,
            src_size,
            dst_capacity,
            self::acceleration(acceleration),
            false,
        )
    }
}

/// The body of [`LZ4_compress_fast_continue`] and [`LZ4_compress_forceExtDict`] (`force_ext`:
/// always external-dictionary mode, no attached dictionary, as liblz4's test entry point).
///
/// # Safety
/// As [`LZ4_compress_fast_continue`].
unsafe fn compress_continue(
    stream: *mut LZ4_stream_t,
    src: *const c_char,
    dst: *mut c_char,
    src_size: c_int,
    dst_capacity: c_int,
    acceleration: u32,
    force_ext: bool,
) -> c_int {
    // SAFETY: the caller's contract.
    let Some(s) = (unsafe { state(stream) }) else {
        return 0;
    };
    if !(0..=MAX_INPUT_SIZE).contains(&src_size)
        || (src_size > 0 && src.is_null())
        || (dst_capacity > 0 && dst.is_null())
    {
        return 0;
    }
    let len = src_size as usize;
    let capacity = dst_capacity.max(0) as usize;
    let src = src.cast::<u8>();
    let src_addr = src as usize;
    let mut dict_end = if s.dict_size != 0 {
        s.dictionary as usize + s.dict_size as usize
    } else {
        0
    };
    renormalise(s, len);
    if !force_ext {
        if s.dict_size < TINY_HISTORY && dict_end != src_addr && len > 0 && s.dict_ctx.is_null() {
            s.dict_size = 0;
            s.dictionary = src;
            dict_end = src_addr;
        }
        // A ring buffer: the input overwrites the front of the history.
        let src_end = src_addr + len;
        if src_end > s.dictionary as usize && src_end < dict_end {
            let mut size = (dict_end - src_end).min(KB64 as usize) as u32;
            if size < TINY_HISTORY {
                size = 0;
            }
            s.dict_size = size;
            s.dictionary = (dict_end - size as usize) as *const u8;
        }
        if dict_end == src_addr {
            if len == 0 {
                return empty_block(dst, capacity);
            }
            let history = (s.dict_size as usize).min(KB64 as usize);
            let base = s.current_offset;
            s.dict_size += len as u32;
            s.current_offset += len as u32;
            s.table_type = BY_U32;
            // SAFETY: the history (its last 64 KiB) is right before the input, in place (the
            // caller's contract for the stream); the buffers are the caller's.
            return unsafe {
                parse(
                    &mut s.table,
                    Mode::Prefix { history },
                    base,
                    src,
                    len,
                    dst,
                    capacity,
                    acceleration,
                )
            };
        }
    }
    let ctx = s.dict_ctx;
    let result = if force_ext || ctx.is_null() {
        if len == 0 {
            empty_block(dst, capacity)
        } else {
            // SAFETY: the history is in place (the caller's contract for the stream); the
            // buffers are the caller's.
            unsafe { compress_external(s, src, len, dst, capacity, acceleration) }
        }
    } else {
        // SAFETY: an attached stream is a valid `LZ4_stream_t`, in place (the caller's contract
        // for `LZ4_attach_dictionary`), aligned (checked there).
        unsafe { compress_attached(s, ctx, src, len, dst, capacity, acceleration) }
    };
    s.dictionary = src;
    s.dict_size = len as u32;
    result
}

/// The empty block: `00`, or 0 without room.
fn empty_block(dst: *mut c_char, capacity: usize) -> c_int {
    if capacity == 0 {
        return 0;
    }
    // SAFETY: `dst` non-null with `capacity >= 1` writable bytes (checked by the caller).
    unsafe { dst.write(0) };
    1
}

/// A block with the dictionary stream `ctx` attached (liblz4's dictCtx mode). Above 4 KiB
/// liblz4 first copies the dictionary stream's whole state over the working one; up to 4 KiB
/// it reads the dictionary's table in place, see [`consult_dictionary`].
///
/// # Safety
/// `ctx` a valid `LZ4_stream_t` (possibly `s` itself) whose dictionary is in place;
/// `src[..len]` readable, `dst[..capacity]` writable.
unsafe fn compress_attached(
    s: &mut Internal,
    ctx: *const Internal,
    src: *const u8,
    len: usize,
    dst: *mut c_char,
    capacity: usize,
    acceleration: u32,
) -> c_int {
    if len == 0 {
        // Nothing is compressed: the dictionary stays attached.
        return empty_block(dst, capacity);
    }
    let own = std::ptr::from_mut(s);
    if std::ptr::eq(ctx, own) {
        // Attached to itself: liblz4's copy is a no-op (the stream stays attached) and its
        // in-place reading reads its own table (then it is detached); the history is its own.
        if len <= ATTACH_COPY_ABOVE as usize {
            s.dict_ctx = std::ptr::null();
        }
    } else {
        // SAFETY: `ctx` is another valid state (checked not `s`), only read.
        let ctx = unsafe { &*ctx };
        if len <= ATTACH_COPY_ABOVE as usize {
            // SAFETY: the caller's contract.
            return unsafe { consult_dictionary(s, ctx, src, len, dst, capacity, acceleration) };
        }
        // liblz4's copy of the dictionary stream's state (the whole struct).
        s.table = ctx.table.clone();
        s.dictionary = ctx.dictionary;
        s.dict_ctx = ctx.dict_ctx;
        s.current_offset = ctx.current_offset;
        s.table_type = ctx.table_type;
        s.dict_size = ctx.dict_size;
    }
    // SAFETY: the dictionary's bytes are in place (the caller's contract); the buffers are the
    // caller's.
    unsafe { compress_external(s, src, len, dst, capacity, acceleration) }
}

/// The block `src[..len]` (not empty) in external-dictionary mode on the stream's history
/// (`dictionary`, `dictSize`, its last 64 KiB), at the stream's index, which moves on by the
/// input.
///
/// # Safety
/// The stream's history in place; `src[..len]` readable, `dst[..capacity]` writable.
unsafe fn compress_external(
    s: &mut Internal,
    src: *const u8,
    len: usize,
    dst: *mut c_char,
    capacity: usize,
    acceleration: u32,
) -> c_int {
    let history = Mode::External {
        ptr: s.dictionary,
        len: s.dict_size as usize,
    };
    let base = s.current_offset;
    s.current_offset += len as u32;
    s.table_type = BY_U32;
    // SAFETY: the caller's contract.
    unsafe {
        parse(
            &mut s.table,
            history,
            base,
            src,
            len,
            dst,
            capacity,
            acceleration,
        )
    }
}

/// liblz4's dictCtx block up to 4 KiB: a working slot older than the input stands for the
/// dictionary's slot of the same hash, at the distance that index has from the dictionary's
/// end (liblz4 moves it to the working indices modulo 2^32, so a working stream in use, below
/// the dictionary stream's 64 KiB, still reaches the whole dictionary). Parsed here on a copy
/// of the dictionary's table at the dictionary's own indices, the input following the
/// dictionary; the slots the input wrote then move to the working indices: the same
/// candidates, the same bytes, and the working table liblz4 leaves (its other slots as they
/// were).
///
/// # Safety
/// `ctx` a valid state other than `s`, whose dictionary is in place; `src[..len]` readable,
/// `dst[..capacity]` writable.
unsafe fn consult_dictionary(
    s: &mut Internal,
    ctx: &Internal,
    src: *const u8,
    len: usize,
    dst: *mut c_char,
    capacity: usize,
    acceleration: u32,
) -> c_int {
    s.dict_ctx = std::ptr::null();
    let end = ctx.current_offset;
    if u64::from(end) + len as u64 > INDEX_LIMIT {
        // No room after the dictionary's indices (a stream not from `LZ4_loadDict`, outside
        // liblz4's contract): the block without a history.
        s.dictionary = std::ptr::null();
        s.dict_size = 0;
        // SAFETY: no history; the buffers are the caller's.
        return unsafe { compress_external(s, src, len, dst, capacity, acceleration) };
    }
    let start = s.current_offset;
    s.current_offset += len as u32;
    s.table_type = BY_U32;
    let mut table = ctx.table.clone();
    let history = Mode::External {
        ptr: ctx.dictionary,
        len: ctx.dict_size as usize,
    };
    // SAFETY: the dictionary's bytes are in place (the caller's contract); the buffers are the
    // caller's.
    let result = unsafe {
        parse(
            &mut table,
            history,
            end,
            src,
            len,
            dst,
            capacity,
            acceleration,
        )
    };
    let shift = end.wrapping_sub(start);
    let written = table.slots().iter().zip(ctx.table.slots());
    for (own, (&new, &old)) in s.table.slots_mut().iter_mut().zip(written) {
        if new != old {
            *own = new.wrapping_sub(shift);
        }
    }
    result
}

/// Moves the last `min(dict_size, 64 KiB, history)` bytes of the stream's history into
/// `safe_buffer` (a negative `dict_size` counts as 64 KiB, as in liblz4), which becomes the
/// history: the earlier blocks may then be overwritten. Returns the size saved; 0 for a null
/// stream, and nothing is saved into a null buffer or from a null history.
///
/// # Safety
/// `stream` null or a valid `LZ4_stream_t` whose history is in place; `safe_buffer` null or
/// writable for the size saved (at most `dict_size` bytes); it may overlap the history.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_saveDict(
    stream: *mut LZ4_stream_t,
    safe_buffer: *mut c_char,
    dict_size: c_int,
) -> c_int {
    // SAFETY: the caller's contract.
    let Some(s) = (unsafe { state(stream) }) else {
        return 0;
    };
    let mut keep = (dict_size as u32).min(KB64).min(s.dict_size);
    if safe_buffer.is_null() || s.dictionary.is_null() {
        // No buffer, or no history: a one-shot compressor's state has a history length
        // without one (liblz4 copies from address 0 there).
        keep = 0;
    }
    if keep > 0 {
        let from = s.dictionary.wrapping_add((s.dict_size - keep) as usize);
        // SAFETY: the history's last `keep` bytes are readable and `safe_buffer[..keep]`
        // writable (the caller's contract); `copy` allows them to overlap.
        unsafe { std::ptr::copy(from, safe_buffer.cast::<u8>(), keep as usize) };
    }
    s.dictionary = safe_buffer.cast::<u8>().cast_const();
    s.dict_size = keep;
    keep as c_int
}

/// [`LZ4_compress_fast_continue`] at acceleration 1 into `LZ4_compressBound(src_size)` bytes.
///
/// # Safety
/// As [`LZ4_compress_fast_continue`], with `dst` holding the bound.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_compress_continue(
    stream: *mut LZ4_stream_t,
    src: *const c_char,
    dst: *mut c_char,
    src_size: c_int,
) -> c_int {
    // SAFETY: the same contract.
    unsafe {
        LZ4_compress_fast_continue(stream, src, dst, src_size, LZ4_compressBound(src_size), 1)
    }
}

/// [`LZ4_compress_fast_continue`] at acceleration 1.
///
/// # Safety
/// As [`LZ4_compress_fast_continue`].
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_compress_limitedOutput_continue(
    stream: *mut LZ4_stream_t,
    src: *const c_char,
    dst: *mut c_char,
    src_size: c_int,
    dst_capacity: c_int,
) -> c_int {
    // SAFETY: the same contract.
    unsafe { LZ4_compress_fast_continue(stream, src, dst, src_size, dst_capacity, 1) }
}

/// The next block in external-dictionary mode whatever the layout, ignoring an attached
/// dictionary, at acceleration 1, into `LZ4_compressBound(src_size)` bytes (liblz4's test entry
/// point, declared in no header).
///
/// # Safety
/// As [`LZ4_compress_fast_continue`], with `dst` holding the bound.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_compress_forceExtDict(
    stream: *mut LZ4_stream_t,
    src: *const c_char,
    dst: *mut c_char,
    src_size: c_int,
) -> c_int {
    let bound = LZ4_compressBound(src_size);
    // SAFETY: the same contract; `dst` holds the bound.
    unsafe { compress_continue(stream, src, dst, src_size, bound, 1, true) }
}

/// `LZ4_createStream` (the input buffer is unused).
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub extern "C" fn LZ4_create(_input_buffer: *mut c_char) -> *mut c_void {
    LZ4_createStream().cast()
}

/// `LZ4_resetStream` (the input buffer is unused); returns 0.
///
/// # Safety
/// `state` null or a valid `LZ4_stream_t`.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_resetStreamState(
    state: *mut c_void,
    _input_buffer: *mut c_char,
) -> c_int {
    // SAFETY: the same contract.
    unsafe { LZ4_resetStream(state.cast()) };
    0
}

/// The start of the stream's history (liblz4's `dictionary` pointer); null for a null stream.
///
/// # Safety
/// `state` null or a valid `LZ4_stream_t`.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_slideInputBuffer(state: *mut c_void) -> *mut c_char {
    // SAFETY: the caller's contract.
    match unsafe { self::state(state.cast()) } {
        Some(s) => s.dictionary.cast::<c_char>().cast_mut(),
        None => std::ptr::null_mut(),
    }
}
