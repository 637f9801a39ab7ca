//! HC streaming compression (`LZ4_streamHC_t`): blocks at the HC levels that may reference the
//! blocks compressed before them, which stay in the caller's memory where the caller passed
//! them.
//!
//! The whole state is liblz4's, in the caller's 262200 bytes, with liblz4's layout: the hash
//! table (32768 `u32` indices), the chain table (65536 `u16` distances), where the prefix (the
//! bytes the next block may continue) and the external dictionary are and their indices
//! (`end`, `prefixStart`, `dictStart`, `dictLimit`, `lowLimit`), the insertion cursor
//! (`nextToUpdate`), the level, the favour-decompression-speed option, whether a block failed
//! (`dirty`) and an attached dictionary stream (`dictCtx`). The state owns nothing (only
//! `LZ4_createStreamHC` allocates, the state itself), so it may be on the stack, copied with
//! `memcpy` or dropped. Each call chooses liblz4's mode from the pointers, as
//! `LZ4_compress_HC_continue` does (prefix mode when the input starts where the prefix ends,
//! external dictionary otherwise, the dictionary cut where a ring buffer's input overwrites
//! it), and runs lz4-simd's parse of the level (`lz4_simd::block::hc_c_stream`, the one
//! `HcStreamCompressor` runs) on the caller's tables: the bytes, and the state after the call,
//! are liblz4's. The parses run on the library's own table type, so each block copies the
//! caller's tables (256 KiB; 128 KiB at levels 1-2) in and out and its reachable history into a
//! window.

use std::alloc::{alloc_zeroed, dealloc, Layout};
use std::os::raw::{c_char, c_int, c_void};

use lz4_simd::block::hc_c_stream::{
    self, Attached, Block, OutputLimit, Tables, CHAIN_SLOTS, HASH_SLOTS,
};

use crate::compress_stream::read_apart;
use crate::hc::{level, STREAM_HC_SIZE};
use crate::{c_len, with_hc_scratch, LZ4_compressBound, MAX_INPUT_SIZE};

/// The caller's `LZ4_streamHC_t`, opaque: `LZ4_STREAMHC_MINSIZE` bytes, aligned as a pointer.
#[repr(C, align(8))]
pub struct LZ4_streamHC_t {
    _state: [u8; STREAM_HC_SIZE],
}

/// The state in an `LZ4_streamHC_t` (liblz4's `LZ4HC_CCtx_internal`, field for field).
#[repr(C)]
struct Internal {
    hash_table: [u32; HASH_SLOTS],
    chain_table: [u16; CHAIN_SLOTS],
    /// The end of the prefix (the next block continues it if it starts here).
    end: *const u8,
    /// The prefix's first byte, index `dict_limit`; null in a fresh or reset stream.
    prefix_start: *const u8,
    /// The external dictionary's first byte, index `low_limit`.
    dict_start: *const u8,
    dict_limit: u32,
    low_limit: u32,
    /// Every position below this index is entered in the tables.
    next_to_update: u32,
    compression_level: i16,
    favor_dec_speed: i8,
    /// A block failed: `LZ4_resetStreamHC_fast` then re-initialises the whole state.
    dirty: i8,
    /// An attached dictionary stream.
    dict_ctx: *const Internal,
}

const _: () = assert!(std::mem::size_of::<Internal>() == 262_192);
const _: () = assert!(std::mem::size_of::<Internal>() <= STREAM_HC_SIZE);
const _: () = assert!(std::mem::align_of::<Internal>() <= std::mem::align_of::<LZ4_streamHC_t>());

/// 64 KiB: the window, and the index a fresh stream's first byte has.
const KB64: u32 = 65536;
/// Past this index (1 GiB) a fresh start clears the tables.
const CLEAR_ABOVE: u64 = 1 << 30;
/// Past this index (2 GiB) the next block reloads the prefix's last 64 KiB as a dictionary.
const RELOAD_ABOVE: u64 = 1 << 31;
/// An attached dictionary is copied for a first block above this size (liblz4's rule).
const ATTACH_COPY_ABOVE: c_int = 4096;
/// `LZ4HC_HASHSIZE`: a history shorter than this is not entered, a dictionary cut below it is
/// dropped.
const HASH_SIZE: usize = 4;
/// `LZ4HC_CLEVEL_DEFAULT`.
const LEVEL_DEFAULT: i16 = 9;
/// `LZ4HC_CLEVEL_MAX`.
const LEVEL_MAX: i16 = 12;

fn layout() -> Layout {
    Layout::new::<LZ4_streamHC_t>()
}

/// Whether `ptr` is null or not aligned for the state (liblz4 checks a pointer's alignment).
fn unusable<T>(ptr: *const T) -> bool {
    ptr.is_null() || ptr.align_offset(std::mem::align_of::<Internal>()) != 0
}

/// The state behind `stream`, or `None` for a null or misaligned pointer.
///
/// # Safety
/// `stream` null, or `STREAM_HC_SIZE` bytes of the caller's, readable and writable and not
/// otherwise accessed during `'a`.
unsafe fn state<'a>(stream: *mut LZ4_streamHC_t) -> Option<&'a mut Internal> {
    if unusable(stream) {
        return None;
    }
    // SAFETY: non-null and aligned (checked), `STREAM_HC_SIZE >= size_of::<Internal>()` bytes
    // (the caller's contract); every bit pattern is a valid `Internal` (integers and raw
    // pointers).
    Some(unsafe { &mut *stream.cast::<Internal>() })
}

/// liblz4's `LZ4_setCompressionLevel`: below 1 is 9, above 12 is 12.
fn set_level(s: &mut Internal, level: c_int) {
    s.compression_level = if level < 1 {
        LEVEL_DEFAULT
    } else {
        level.min(c_int::from(LEVEL_MAX)) as i16
    };
}

/// The level as the library takes it.
fn lib_level(level: i16) -> u8 {
    self::level(c_int::from(level))
}

/// Zeroes the state (liblz4 zeroes `LZ4HC_CCtx_internal`, not the union's last 8 bytes) and
/// sets the default level: `LZ4_initStreamHC`'s initialisation.
fn init(s: &mut Internal) {
    s.hash_table.fill(0);
    s.chain_table.fill(0);
    s.end = std::ptr::null();
    s.prefix_start = std::ptr::null();
    s.dict_start = std::ptr::null();
    s.dict_limit = 0;
    s.low_limit = 0;
    s.next_to_update = 0;
    s.favor_dec_speed = 0;
    s.dirty = 0;
    s.dict_ctx = std::ptr::null();
    s.compression_level = LEVEL_DEFAULT;
}

/// The prefix's length (`end - prefixStart`), as liblz4's `size_t` difference.
fn prefix_len(s: &Internal) -> usize {
    (s.end as usize).wrapping_sub(s.prefix_start as usize)
}

/// liblz4's `LZ4HC_init_internal`: a new prefix starting at `start`, its indices 64 KiB past
/// the old ones (the tables cleared past 1 GiB).
fn init_internal(s: &mut Internal, start: *const u8) {
    let mut offset = (prefix_len(s) as u64).wrapping_add(u64::from(s.dict_limit));
    if offset > CLEAR_ABOVE {
        s.hash_table.fill(0);
        s.chain_table.fill(0xFFFF);
        offset = 0;
    }
    let offset = (offset + u64::from(KB64)) as u32;
    s.next_to_update = offset;
    s.prefix_start = start;
    s.end = start;
    s.dict_start = start;
    s.dict_limit = offset;
    s.low_limit = offset;
}

/// A new stream (initialised, at level 9), or null if memory is short. Free it with
/// `LZ4_freeStreamHC`.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub extern "C" fn LZ4_createStreamHC() -> *mut LZ4_streamHC_t {
    // SAFETY: the layout has a non-zero size.
    let stream = unsafe { alloc_zeroed(layout()) }.cast::<LZ4_streamHC_t>();
    // SAFETY: null, or a fresh allocation of `STREAM_HC_SIZE` bytes aligned for the state.
    if let Some(s) = unsafe { state(stream) } {
        s.compression_level = LEVEL_DEFAULT;
    }
    stream
}

/// Frees a stream from `LZ4_createStreamHC` or `LZ4_createHC` (null is allowed); returns 0.
///
/// # Safety
/// `stream` null or from `LZ4_createStreamHC` or `LZ4_createHC`, not freed before.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_freeStreamHC(stream: *mut LZ4_streamHC_t) -> c_int {
    if !stream.is_null() {
        // SAFETY: allocated with this layout (the caller's contract).
        unsafe { dealloc(stream.cast(), layout()) };
    }
    0
}

/// Makes `buffer[..size]` a fresh stream at level 9 and returns it; null for a null buffer, one
/// smaller than `LZ4_STREAMHC_MINSIZE` or one not aligned as a pointer (liblz4's checks).
///
/// # Safety
/// `buffer` null or `size` writable bytes.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_initStreamHC(buffer: *mut c_void, size: usize) -> *mut LZ4_streamHC_t {
    if size < STREAM_HC_SIZE {
        return std::ptr::null_mut();
    }
    // SAFETY: `size >= STREAM_HC_SIZE` writable bytes (checked, the caller's contract).
    match unsafe { state(buffer.cast()) } {
        Some(s) => {
            init(s);
            buffer.cast()
        }
        None => std::ptr::null_mut(),
    }
}

/// Initialises the stream as `LZ4_initStreamHC`, at `compression_level`; null is ignored.
///
/// # Safety
/// `stream` null or `LZ4_STREAMHC_MINSIZE` writable bytes.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_resetStreamHC(stream: *mut LZ4_streamHC_t, compression_level: c_int) {
    // SAFETY: the caller's contract.
    if let Some(s) = unsafe { state(stream) } {
        init(s);
        set_level(s, compression_level);
    }
}

/// Starts the stream again at `compression_level` keeping its tables when it can (liblz4's
/// `LZ4_resetStreamHC_fast`: the next block's indices are past the old ones); the history and
/// any attached dictionary are forgotten. A stream whose last block failed is initialised.
///
/// # Safety
/// `stream` null or a valid (initialised) `LZ4_streamHC_t`.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_resetStreamHC_fast(
    stream: *mut LZ4_streamHC_t,
    compression_level: c_int,
) {
    // SAFETY: the caller's contract.
    let Some(s) = (unsafe { state(stream) }) else {
        return;
    };
    reset_fast(s);
    set_level(s, compression_level);
}

fn reset_fast(s: &mut Internal) {
    if s.dirty != 0 {
        init(s);
    } else {
        s.dict_limit = s.dict_limit.wrapping_add(prefix_len(s) as u32);
        s.prefix_start = std::ptr::null();
        s.end = std::ptr::null();
        s.dict_ctx = std::ptr::null();
    }
}

/// Sets the level of the next blocks (below 1 is 9, above 12 is 12); null is ignored.
///
/// # Safety
/// `stream` null or a valid `LZ4_streamHC_t`.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_setCompressionLevel(
    stream: *mut LZ4_streamHC_t,
    compression_level: c_int,
) {
    // SAFETY: the caller's contract.
    if let Some(s) = unsafe { state(stream) } {
        set_level(s, compression_level);
    }
}

/// Runs `f` on the caller's tables with this thread's working memory.
fn with_tables<R>(
    s: &mut Internal,
    f: impl FnOnce(&mut hc_c_stream::Scratch, Tables<'_>) -> R,
) -> R {
    with_hc_scratch(|scratch| {
        f(
            scratch,
            Tables {
                head: &mut s.hash_table,
                chain: &mut s.chain_table,
            },
        )
    })
}

/// Starts the stream from the dictionary `dict[..dict_size]` (its last 64 KiB), keeping the
/// level: a full initialisation, then every dictionary position entered (at levels 1 and 2,
/// liblz4's selection of them). The dictionary must stay in place and unchanged while the
/// stream uses it. Returns the dictionary size used; 0 for a null stream, and a negative size
/// or a null dictionary counts as empty.
///
/// # Safety
/// `stream` null or a valid `LZ4_streamHC_t`; `dict[..dict_size]` readable.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_loadDictHC(
    stream: *mut LZ4_streamHC_t,
    dict: *const c_char,
    dict_size: c_int,
) -> c_int {
    // SAFETY: the caller's contract.
    let Some(s) = (unsafe { state(stream) }) else {
        return 0;
    };
    // SAFETY: the same contract.
    unsafe { load_dict(s, dict.cast(), dict_size) }
}

/// The body of [`LZ4_loadDictHC`].
///
/// # Safety
/// `dict[..dict_size]` readable (null or a negative size: none).
unsafe fn load_dict(s: &mut Internal, dict: *const u8, dict_size: c_int) -> c_int {
    let size = if dict.is_null() {
        0
    } else {
        dict_size.max(0) as usize
    };
    let kept = size.min(KB64 as usize);
    let start = dict.wrapping_add(size - kept);
    let level = s.compression_level;
    init(s);
    // As `LZ4_setCompressionLevel` takes it: a level outside 1-12 stored by a block of the
    // older calls with an attached dictionary is clamped.
    set_level(s, c_int::from(level));
    let level = s.compression_level;
    init_internal(s, start);
    s.end = start.wrapping_add(kept);
    // SAFETY: the dictionary's last `kept` bytes, readable (the caller's contract).
    let bytes = unsafe { bytes(start, kept) };
    let base = s.dict_limit;
    let level = lib_level(level);
    s.next_to_update = with_tables(s, |scratch, tables| {
        hc_c_stream::load_dictionary(scratch, tables, bytes, base, level)
    });
    kept as c_int
}

/// `len` bytes at `ptr` (empty for 0).
///
/// # Safety
/// With `len > 0`, `ptr[..len]` readable and not written during `'a`.
unsafe fn bytes<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    if len == 0 {
        return &[];
    }
    // SAFETY: the caller's contract.
    unsafe { std::slice::from_raw_parts(ptr, len) }
}

/// Attaches the dictionary stream `dict_stream` (prepared by `LZ4_loadDictHC`, or null to
/// detach) to `working`: the first blocks (while the stream holds less than 64 KiB) may
/// reference it, read in place, or, for a first block above 4 KiB at a level of the same kind,
/// start from a copy of its state. It and its dictionary's bytes must stay in place and
/// unchanged while it is attached.
///
/// # Safety
/// `working` null or a valid `LZ4_streamHC_t`; `dict_stream` null or a valid `LZ4_streamHC_t`.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_attach_HC_dictionary(
    working: *mut LZ4_streamHC_t,
    dict_stream: *const LZ4_streamHC_t,
) {
    // SAFETY: the caller's contract.
    if let Some(s) = unsafe { state(working) } {
        s.dict_ctx = dict_stream.cast();
    }
}

/// liblz4's `LZ4HC_setExternalDict`: the chain levels enter the prefix's positions up to its
/// last 3, the prefix becomes the external dictionary (an older one is dropped), the new block
/// starts a prefix at `new_block`, and an attached dictionary is dropped.
///
/// # Safety
/// The prefix's bytes from `next_to_update` on are readable (the caller's contract for the
/// stream).
unsafe fn set_external_dict(s: &mut Internal, new_block: *const u8) {
    let len = prefix_len(s);
    if !s.prefix_start.is_null()
        && len >= HASH_SIZE
        && !hc_c_stream::is_mid(lib_level(s.compression_level))
    {
        let from = s.next_to_update.wrapping_sub(s.dict_limit) as usize;
        // (A cursor below 64 KiB belongs to an empty prefix saved on an initialised stream,
        // whose positions are never entered: see `compress_generic`.)
        if from < len && s.next_to_update >= KB64 {
            // SAFETY: the prefix's bytes `[from, len)`, in place (the caller's contract).
            let pending = unsafe { bytes(s.prefix_start.wrapping_add(from), len - from) };
            let cursor = s.next_to_update;
            with_tables(s, |scratch, tables| {
                hc_c_stream::insert_to_end(scratch, tables, pending, cursor)
            });
        }
    }
    s.low_limit = s.dict_limit;
    s.dict_start = s.prefix_start;
    s.dict_limit = s.dict_limit.wrapping_add(len as u32);
    s.prefix_start = new_block;
    s.end = new_block;
    s.next_to_update = s.dict_limit;
    s.dict_ctx = std::ptr::null();
}

/// liblz4's `isStateCompatible`: both levels liblz4's middle parser, or neither.
fn compatible(a: i16, b: i16) -> bool {
    hc_c_stream::is_mid(lib_level(a)) == hc_c_stream::is_mid(lib_level(b))
}

/// The body of the continue functions once the mode is set (liblz4's `LZ4HC_compress_generic`
/// with its dictCtx branch): compresses `src[..*src_size]` at `level` (the next block's
/// indices follow the prefix), `*src_size` set to the input consumed with `fill`.
///
/// # Safety
/// `s`'s history in place, as its attached stream's and that stream's dictionary;
/// `src[..*src_size]` readable; `dst[..capacity]` writable.
unsafe fn compress_generic(
    s: &mut Internal,
    src: *const u8,
    dst: *mut c_char,
    src_size: &mut c_int,
    capacity: c_int,
    level: c_int,
    limit: OutputLimit,
) -> c_int {
    let own: *const Internal = s;
    let mut attached = None;
    if !s.dict_ctx.is_null() {
        let ctx = s.dict_ctx;
        let position = prefix_len(s).wrapping_add(s.dict_limit.wrapping_sub(s.low_limit) as usize);
        if position >= KB64 as usize {
            s.dict_ctx = std::ptr::null();
        } else if unusable(ctx) {
            // liblz4 would read a null or misaligned stream; this one is ignored.
        } else {
            let ctx_level = if std::ptr::eq(ctx, own) {
                s.compression_level
            } else {
                // SAFETY: an attached stream is a valid `LZ4_streamHC_t`, in place (the
                // caller's contract for `LZ4_attach_HC_dictionary`), aligned (checked), not
                // `s` (checked).
                unsafe { std::ptr::addr_of!((*ctx).compression_level).read() }
            };
            if position == 0
                && *src_size > ATTACH_COPY_ABOVE
                && compatible(s.compression_level, ctx_level)
            {
                if !std::ptr::eq(ctx, own) {
                    // SAFETY: another valid state (checked not `s`), only read.
                    unsafe { std::ptr::copy_nonoverlapping(ctx, std::ptr::from_mut(s), 1) };
                }
                // SAFETY: the copied prefix (the dictionary) is in place (the caller's
                // contract for the attached stream).
                unsafe { set_external_dict(s, src) };
                // liblz4's conversion to `short`.
                s.compression_level = level as i16;
            } else {
                attached = Some(ctx);
            }
        }
    }
    if limit == OutputLimit::Fill && capacity < 1 {
        return 0;
    }
    if !(0..=MAX_INPUT_SIZE).contains(src_size) {
        return 0;
    }
    let len = *src_size as usize;
    if s.dict_limit < KB64 {
        // A prefix saved by `LZ4_saveDictHC` on an initialised stream (empty: nothing was
        // compressed) starts at index 0, where liblz4 takes its empty table slots (0) for
        // candidates: at the block's first position a "match" with itself, offset 0, and
        // output that does not decode to the input (liblz4 1.10.0, every level). The indices
        // move 64 KiB up instead, as a fresh stream's first block has them.
        s.dict_limit += KB64;
        s.low_limit = s.low_limit.wrapping_add(KB64);
        s.next_to_update = s.next_to_update.wrapping_add(KB64);
    }
    let history = prefix_len(s);
    let input_index = s.dict_limit.wrapping_add(history as u32);
    s.end = s.end.wrapping_add(len);
    if capacity < 0 && hc_c_stream::is_mid(self::level(level)) {
        // liblz4's middle parser refuses a negative capacity before its parse (the others
        // parse until their first write fails, as into an empty output).
        s.dirty = 1;
        return 0;
    }
    let capacity = capacity.max(0) as usize;
    // The window's first index: nothing before it is within 64 KiB of the input or waiting to
    // be entered.
    let first = s
        .low_limit
        .max(s.next_to_update.min(input_index.saturating_sub(KB64)));
    let (ext_ptr, ext_keep, prefix_ptr, prefix_keep) = if first >= s.dict_limit {
        let skip = ((first - s.dict_limit) as usize).min(history);
        (
            std::ptr::null(),
            0,
            s.prefix_start.wrapping_add(skip),
            history - skip,
        )
    } else {
        let skip = (first - s.low_limit) as usize;
        let ext_len = (s.dict_limit - s.low_limit) as usize;
        (
            s.dict_start.wrapping_add(skip),
            ext_len - skip,
            s.prefix_start,
            history,
        )
    };
    // SAFETY: the history's reachable bytes and the input are readable (the caller's contract),
    // copied where they overlap the output.
    let (ext, prefix, input) = unsafe {
        (
            read_apart(ext_ptr, ext_keep, dst, capacity),
            read_apart(prefix_ptr, prefix_keep, dst, capacity),
            read_apart(src, len, dst, capacity),
        )
    };
    // The attached stream: its tables (copied when it is this stream), its prefix's last 64 KiB.
    let mut own_copy = None;
    let mut dict_bytes = std::borrow::Cow::Borrowed(&[][..]);
    let mut dict = None;
    if let Some(ctx) = attached {
        let c: &Internal = if std::ptr::eq(ctx, own) {
            s
        } else {
            // SAFETY: a valid state (the caller's contract), aligned (checked above), not `s`
            // (checked); only read.
            unsafe { &*ctx }
        };
        let ctx_len = prefix_len(c);
        let keep = if c.prefix_start.is_null() {
            0
        } else {
            ctx_len.min(KB64 as usize)
        };
        let base = c.dict_limit.wrapping_add((ctx_len - keep) as u32);
        // SAFETY: the attached stream's dictionary is in place (the caller's contract).
        dict_bytes = unsafe {
            read_apart(
                c.prefix_start.wrapping_add(ctx_len - keep),
                keep,
                dst,
                capacity,
            )
        };
        let mid = hc_c_stream::is_mid(lib_level(c.compression_level));
        if std::ptr::eq(ctx, own) {
            own_copy = Some((
                table_copy(&s.hash_table),
                table_copy(&s.chain_table),
                base,
                mid,
            ));
        } else {
            dict = Some((ctx, base, mid));
        }
    }
    let out: &mut [u8] = if capacity == 0 {
        &mut []
    } else {
        // SAFETY: `dst[..capacity]` writable (the caller's contract); no slice read aliases it
        // (copied above where it did).
        unsafe { std::slice::from_raw_parts_mut(dst.cast::<u8>(), capacity) }
    };
    let attached = match (&own_copy, dict) {
        (Some((head, chain, base, mid)), _) => Some(Attached {
            head,
            chain,
            bytes: &dict_bytes,
            base: *base,
            mid: *mid,
        }),
        (None, Some((ctx, base, mid))) => {
            // SAFETY: another valid state (not `s`: `own_copy` covers that), only read.
            let c = unsafe { &*ctx };
            Some(Attached {
                head: &c.hash_table,
                chain: &c.chain_table,
                bytes: &dict_bytes,
                base,
                mid,
            })
        }
        (None, None) => None,
    };
    let block = Block {
        ext: &ext,
        prefix: &prefix,
        input: &input,
        input_index,
    };
    let level = self::level(level);
    let favor = s.favor_dec_speed != 0;
    let mut cursor = s.next_to_update;
    let result = with_hc_scratch(|scratch| {
        hc_c_stream::compress(
            scratch,
            Tables {
                head: &mut s.hash_table,
                chain: &mut s.chain_table,
            },
            &mut cursor,
            block,
            out,
            level,
            favor,
            limit,
            attached,
        )
    });
    s.next_to_update = cursor;
    match result {
        Ok((written, consumed)) if written > 0 => {
            if limit == OutputLimit::Fill {
                *src_size = c_len(consumed);
            }
            c_len(written)
        }
        _ => {
            s.dirty = 1;
            0
        }
    }
}

/// A copy of a table on the heap.
fn table_copy<T: Copy, const N: usize>(table: &[T; N]) -> Box<[T; N]> {
    table
        .to_vec()
        .into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!("N entries"))
}

/// liblz4's overflow check before a block: past 2 GiB of indices the prefix's last 64 KiB are
/// loaded as a dictionary (`LZ4_loadDictHC`: a full initialisation, the level kept).
///
/// # Safety
/// The prefix is in place (the caller's contract for the stream).
unsafe fn reload_past_2_gib(s: &mut Internal) {
    if (prefix_len(s) as u64).wrapping_add(u64::from(s.dict_limit)) > RELOAD_ABOVE {
        let keep = prefix_len(s).min(KB64 as usize);
        let from = s.end.wrapping_sub(keep);
        // SAFETY: the prefix's last `keep` bytes are in place (the caller's contract).
        unsafe { load_dict(s, from, keep as c_int) };
    }
}

/// `LZ4_compressHC_continue_generic`: the mode chosen from the pointers, then the block.
///
/// # Safety
/// As [`LZ4_compress_HC_continue`].
unsafe fn continue_generic(
    stream: *mut LZ4_streamHC_t,
    src: *const c_char,
    dst: *mut c_char,
    src_size: &mut c_int,
    capacity: c_int,
    limit: OutputLimit,
) -> c_int {
    // SAFETY: the caller's contract.
    let Some(s) = (unsafe { state(stream) }) else {
        return 0;
    };
    if (*src_size > 0 && src.is_null()) || (capacity > 0 && dst.is_null()) {
        return 0;
    }
    let src = src.cast::<u8>();
    if s.prefix_start.is_null() {
        init_internal(s, src);
    }
    // SAFETY: the prefix is in place (the caller's contract).
    unsafe { reload_past_2_gib(s) };
    if src != s.end {
        // SAFETY: the prefix is in place (the caller's contract).
        unsafe { set_external_dict(s, src) };
    }
    // A ring buffer: the input overwrites the front of the external dictionary.
    let source_end = (src as usize).wrapping_add(*src_size as isize as usize);
    let dict_begin = s.dict_start as usize;
    let dict_end = dict_begin.wrapping_add(s.dict_limit.wrapping_sub(s.low_limit) as usize);
    if source_end > dict_begin && (src as usize) < dict_end {
        let source_end = source_end.min(dict_end);
        let cut = source_end - dict_begin;
        s.low_limit = s.low_limit.wrapping_add(cut as u32);
        s.dict_start = s.dict_start.wrapping_add(cut as u32 as usize);
        if s.dict_limit.wrapping_sub(s.low_limit) < HASH_SIZE as u32 {
            s.low_limit = s.dict_limit;
            s.dict_start = s.prefix_start;
        }
    }
    let level = c_int::from(s.compression_level);
    // SAFETY: the caller's contract.
    unsafe { compress_generic(s, src, dst, src_size, capacity, level, limit) }
}

/// Compresses `src[..src_size]` into `dst[..dst_capacity]` as the next block of the stream, at
/// the stream's level: the compressed size, or 0 if it does not fit (liblz4's verdict: below
/// `LZ4_compressBound(src_size)` it gives up by its estimate; the input is the stream's
/// history all the same, and the next `LZ4_resetStreamHC_fast` initialises the stream) or the
/// arguments are invalid (a null or misaligned stream, a negative or too large size, a null
/// buffer with a size). The earlier blocks (their last 64 KiB) must still be where they were
/// passed, unchanged, or saved by `LZ4_saveDictHC`; an input that starts where the previous one
/// ended continues it (prefix mode), any other makes the previous one the history.
///
/// # Safety
/// `stream` null or a valid `LZ4_streamHC_t` whose history is in place; `src[..src_size]`
/// readable and `dst[..dst_capacity]` writable (either may be null when its size is 0).
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_compress_HC_continue(
    stream: *mut LZ4_streamHC_t,
    src: *const c_char,
    dst: *mut c_char,
    src_size: c_int,
    dst_capacity: c_int,
) -> c_int {
    let mut size = src_size;
    // SAFETY: the same contract.
    unsafe {
        continue_generic(
            stream,
            src,
            dst,
            &mut size,
            dst_capacity,
            OutputLimit::Limited,
        )
    }
}

/// Compresses as much of `src[..*src_size]` as fits in `dst[..target_dst_size]` as the next
/// block of the stream: the compressed size, with `*src_size` set to the input consumed; 0 on
/// failure. The whole input counts as the stream's history, as in liblz4.
///
/// # Safety
/// As [`LZ4_compress_HC_continue`]; `src_size` null or a valid `int`.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_compress_HC_continue_destSize(
    stream: *mut LZ4_streamHC_t,
    src: *const c_char,
    dst: *mut c_char,
    src_size: *mut c_int,
    target_dst_size: c_int,
) -> c_int {
    if src_size.is_null() {
        return 0;
    }
    // SAFETY: non-null, and a valid `int` by the caller's contract.
    let mut size = unsafe { src_size.read() };
    // SAFETY: the caller's contract.
    let written = unsafe {
        continue_generic(
            stream,
            src,
            dst,
            &mut size,
            target_dst_size,
            OutputLimit::Fill,
        )
    };
    if written > 0 {
        // SAFETY: as above.
        unsafe { src_size.write(size) };
    }
    written
}

/// Moves the last `min(dict_size, 64 KiB, prefix)` bytes of the stream's prefix into
/// `safe_buffer` (none below 4 bytes), which becomes the prefix: the earlier blocks may then
/// be overwritten. Returns the size saved; 0 for a null stream.
///
/// # Safety
/// `stream` null or a valid `LZ4_streamHC_t` whose prefix is in place; `safe_buffer` null or
/// writable for the size saved (at most `dict_size` bytes); it may overlap the prefix.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_saveDictHC(
    stream: *mut LZ4_streamHC_t,
    safe_buffer: *mut c_char,
    dict_size: c_int,
) -> c_int {
    // SAFETY: the caller's contract.
    let Some(s) = (unsafe { state(stream) }) else {
        return 0;
    };
    let prefix = prefix_len(s) as c_int;
    let mut size = dict_size.min(KB64 as c_int);
    if size < HASH_SIZE as c_int {
        size = 0;
    }
    size = size.min(prefix).max(0);
    if safe_buffer.is_null() {
        size = 0;
    }
    if size > 0 {
        // SAFETY: the prefix's last `size` bytes are readable and `safe_buffer[..size]`
        // writable (the caller's contract); `copy` allows them to overlap.
        unsafe {
            std::ptr::copy(
                s.end.wrapping_sub(size as usize),
                safe_buffer.cast::<u8>(),
                size as usize,
            )
        };
    }
    let end_index = (prefix as u32).wrapping_add(s.dict_limit);
    let buffer = safe_buffer.cast::<u8>().cast_const();
    s.end = if buffer.is_null() {
        std::ptr::null()
    } else {
        buffer.wrapping_add(size as usize)
    };
    s.prefix_start = buffer;
    s.dict_limit = end_index.wrapping_sub(size as u32);
    s.low_limit = s.dict_limit;
    s.dict_start = buffer;
    s.next_to_update = s.next_to_update.max(s.dict_limit);
    size
}

/// [`LZ4_compress_HC_continue`] into `LZ4_compressBound(src_size)` bytes.
///
/// # Safety
/// As [`LZ4_compress_HC_continue`], with `dst` holding the bound.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_compressHC_continue(
    stream: *mut LZ4_streamHC_t,
    src: *const c_char,
    dst: *mut c_char,
    src_size: c_int,
) -> c_int {
    // SAFETY: the same contract.
    unsafe { LZ4_compress_HC_continue(stream, src, dst, src_size, LZ4_compressBound(src_size)) }
}

/// [`LZ4_compress_HC_continue`].
///
/// # Safety
/// As [`LZ4_compress_HC_continue`].
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_compressHC_limitedOutput_continue(
    stream: *mut LZ4_streamHC_t,
    src: *const c_char,
    dst: *mut c_char,
    src_size: c_int,
    max_dst_size: c_int,
) -> c_int {
    // SAFETY: the same contract.
    unsafe { LZ4_compress_HC_continue(stream, src, dst, src_size, max_dst_size) }
}

/// A new stream whose prefix starts at `input_buffer` (liblz4's `LZ4_createHC`); free it with
/// `LZ4_freeHC`. Null if memory is short.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub extern "C" fn LZ4_createHC(input_buffer: *const c_char) -> *mut c_void {
    let stream = LZ4_createStreamHC();
    // SAFETY: null or a fresh stream.
    if let Some(s) = unsafe { state(stream) } {
        init_internal(s, input_buffer.cast());
    }
    stream.cast()
}

/// Frees a stream from `LZ4_createHC` (null is allowed); returns 0.
///
/// # Safety
/// As [`LZ4_freeStreamHC`].
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_freeHC(data: *mut c_void) -> c_int {
    // SAFETY: the same contract.
    unsafe { LZ4_freeStreamHC(data.cast()) }
}

/// Initialises `state` (as `LZ4_initStreamHC`) with its prefix starting at `input_buffer`:
/// 0, or 1 for a null or misaligned state.
///
/// # Safety
/// `state` null or `LZ4_STREAMHC_MINSIZE` writable bytes.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_resetStreamStateHC(
    state: *mut c_void,
    input_buffer: *mut c_char,
) -> c_int {
    // SAFETY: the caller's contract.
    match unsafe { self::state(state.cast()) } {
        Some(s) => {
            init(s);
            init_internal(s, input_buffer.cast_const().cast());
            0
        }
        None => 1,
    }
}

/// Forgets the history as `LZ4_resetStreamHC_fast` at the stream's level, and returns where
/// it began (liblz4's `prefixStart - dictLimit + lowLimit`); null for a null stream.
///
/// # Safety
/// `data` null or a valid `LZ4_streamHC_t`.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_slideInputBufferHC(data: *mut c_void) -> *mut c_char {
    // SAFETY: the caller's contract.
    let Some(s) = (unsafe { state(data.cast()) }) else {
        return std::ptr::null_mut();
    };
    let start = s
        .prefix_start
        .wrapping_sub(s.dict_limit as usize)
        .wrapping_add(s.low_limit as usize);
    reset_fast(s);
    start.cast_mut().cast()
}

/// The older stream call: compresses `src[..src_size]` at `compression_level` (the stream's
/// level is not changed) into `dst`, which holds `LZ4_compressBound(src_size)` bytes. liblz4
/// continues the prefix without looking where the input is; here an input that does not
/// follow the prefix makes it the history, as [`LZ4_compress_HC_continue`] does, and a fresh
/// stream starts at the input.
///
/// # Safety
/// As [`LZ4_compress_HC_continue`], with `dst` holding the bound.
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_compressHC2_continue(
    data: *mut c_void,
    src: *const c_char,
    dst: *mut c_char,
    src_size: c_int,
    compression_level: c_int,
) -> c_int {
    // SAFETY: the same contract.
    unsafe {
        older_continue(
            data,
            src,
            dst,
            src_size,
            LZ4_compressBound(src_size),
            compression_level,
        )
    }
}

/// [`LZ4_compressHC2_continue`] into `dst[..dst_capacity]`: 0 when liblz4 gives up.
///
/// # Safety
/// As [`LZ4_compress_HC_continue`].
#[cfg_attr(any(cargo_c, feature = "capi"), no_mangle)]
pub unsafe extern "C" fn LZ4_compressHC2_limitedOutput_continue(
    data: *mut c_void,
    src: *const c_char,
    dst: *mut c_char,
    src_size: c_int,
    dst_capacity: c_int,
    compression_level: c_int,
) -> c_int {
    // SAFETY: the same contract.
    unsafe { older_continue(data, src, dst, src_size, dst_capacity, compression_level) }
}

/// The body of the older stream calls.
///
/// # Safety
/// As [`LZ4_compress_HC_continue`].
unsafe fn older_continue(
    data: *mut c_void,
    src: *const c_char,
    dst: *mut c_char,
    src_size: c_int,
    capacity: c_int,
    level: c_int,
) -> c_int {
    // SAFETY: the caller's contract.
    let Some(s) = (unsafe { state(data.cast()) }) else {
        return 0;
    };
    if (src_size > 0 && src.is_null()) || (capacity > 0 && dst.is_null()) {
        return 0;
    }
    let src = src.cast::<u8>();
    if s.prefix_start.is_null() {
        init_internal(s, src);
    }
    // (liblz4's older calls let the indices run on past 2 GiB, to their wrap.)
    // SAFETY: the prefix is in place (the caller's contract).
    unsafe { reload_past_2_gib(s) };
    if src != s.end {
        // SAFETY: the prefix is in place (the caller's contract).
        unsafe { set_external_dict(s, src) };
    }
    let mut size = src_size;
    // SAFETY: the caller's contract.
    unsafe {
        compress_generic(
            s,
            src,
            dst,
            &mut size,
            capacity,
            level,
            OutputLimit::Limited,
        )
    }
}

/// The one-shot forms on a state (`LZ4_compress_HC_extStateHC_fastReset`, and with `fill`
/// `LZ4_compress_HC_destSize`), as liblz4 runs them: the stream reset (`_fastReset`:
/// `LZ4_resetStreamHC_fast`; dest-size: initialised), a prefix started at the input, and the
/// block compressed at `level` on the state's tables. The state is then liblz4's: the input is
/// its history. 0 for a null or misaligned state or a null buffer with a size.
///
/// # Safety
/// `state` null or a valid `LZ4_streamHC_t` (initialised, for `_fastReset`); `src[..*src_size]`
/// readable, `dst[..capacity]` writable.
pub(crate) unsafe fn one_shot(
    state: *mut c_void,
    src: *const c_char,
    dst: *mut c_char,
    src_size: &mut c_int,
    capacity: c_int,
    level: c_int,
    fill: bool,
) -> c_int {
    // SAFETY: the caller's contract.
    let Some(s) = (unsafe { self::state(state.cast()) }) else {
        return 0;
    };
    if (*src_size > 0 && src.is_null()) || (capacity > 0 && dst.is_null()) {
        return 0;
    }
    let src = src.cast::<u8>();
    if fill {
        init(s);
        init_internal(s, src);
        set_level(s, level);
    } else {
        reset_fast(s);
        set_level(s, level);
        init_internal(s, src);
    }
    let limit = if fill {
        OutputLimit::Fill
    } else {
        OutputLimit::Limited
    };
    // SAFETY: the caller's contract; the prefix is empty.
    unsafe { compress_generic(s, src, dst, src_size, capacity, level, limit) }
}
