//! LZ4 HC: the high-compression levels 2 to 12, with liblz4 1.10's level semantics.
//!
//! All levels write ordinary LZ4 blocks (the same decoder reads them); they differ in how hard
//! they look for matches and how they choose among them:
//!
//! - **Level 2 (`mid`)**: two single-entry hash tables, one on 8 bytes (long matches) and one
//!   on 4 bytes. A position tries the long table, then the short one (and, on a short hit, the
//!   long table one byte later); a miss advances by `1 + literals / 512`, so incompressible data
//!   is skipped quickly. See the `mid` module.
//! - **Levels 3 to 9 (hash chains)**: every position is linked into a chain of earlier positions
//!   with the same 4-byte hash (a 32768-entry head table and a 65536-entry table of 16-bit
//!   distances to the previous position in the chain). A search walks up to 4, 8, ... 256
//!   candidates. The parse is lazy over three overlapping matches: a match is only emitted once
//!   a search near its end found nothing better. See the `chain` (the finder) and `lazy` modules.
//! - **Levels 10 to 12 (optimal parser)**: for a window of up to 4096 positions after a match
//!   start, the byte cost of reaching each position (literals, or a sequence ending there) is
//!   minimised by dynamic programming, then the cheapest path is emitted. Searches walk 96, 512
//!   or 16384 candidates and a match longer than 64, 128 or 4095 bytes is emitted at once;
//!   level 12 searches at every position. See the `optimal` module.
//!
//! Level 0 means the default, 9; levels 1 and 2 are both `mid`; levels above 12 mean 12.
//!
//! The match finder and both parsers follow liblz4 1.10's decisions (written here from their
//! description, not translated), so the output is meant to be byte-identical to
//! `LZ4_compress_HC` at every level; the tests check the sizes against liblz4.
//!
//! # Favouring decompression speed
//!
//! [`HcCompressor::with_favor_dec_speed`] (levels 10 to 12 only, like liblz4's
//! `LZ4_favorDecompressionSpeed`) makes the optimal parser skip matches with an offset below 8
//! (whose copies overlap, so decoders replicate a pattern instead of copying 8 or 16 bytes at a
//! time), shorten matches of 19 to 36 bytes to 18 (a match that fits the token nibble), and keep
//! a literal path on price ties. On the Silesia files (64 KiB blocks) it costs 0.15% (dickens)
//! to 3.2% (osdb) of compressed size. As in liblz4, the run-detection shortcut of the match
//! finder is not held to the offset rule, so runs may still be matched at offsets below 8 (about
//! 100 per MiB of ooffice): the bytes are liblz4's, in every form. (Before `4b15952`, 2026-12-06,
//! the one-shot forms kept runs to offsets of 8 or more too, which made long runs of a short
//! period compress to up to 50% more than `lz4 --favor-decSpeed` and broke the promise of
//! liblz4's bytes.)
//!
//! # History, dictionaries and streams
//!
//! Internally every strategy compresses `window[start..]` with `window[..start]` as history
//! that matches may reach into (at most 65535 bytes back), in one of two ways:
//!
//! - as a *prefix* (`compress_window`, the one-shot functions with `start == 0`): the history
//!   is entered into freshly reset tables and searched as if it were the start of the block;
//! - as liblz4's *external dictionary* (`EXT`): [`HcDictionary`],
//!   [`HcCompressor::compress_into_with_prepared_dictionary`] and [`HcStreamCompressor`]. The
//!   tables then carry liblz4's exact state from the dictionary load or the previous blocks
//!   (which positions were inserted, under which indices), and the searches follow liblz4's
//!   extDict rules: a
//!   match found in the block does not extend backwards into the history, level 2 counts a
//!   history match only up to the history's end, and no search starts in the history's last 3
//!   bytes. This is what makes their bytes liblz4's `LZ4_loadDictHC` +
//!   `LZ4_compress_HC_continue` (+ `LZ4_saveDictHC`) bytes, which differ from a prefix's.
//!
//! An *attached* dictionary ([`HcCompressor::compress_into_with_attached_dictionary`], liblz4's
//! `LZ4_attach_HC_dictionary`, which LZ4F uses for frame dictionaries) is a third way: the
//! dictionary's bytes sit in front of the input in the window, but the input's own tables hold
//! the input only; after its own chain, a search walks the dictionary's prepared chain with
//! the attempts left (liblz4's `dictCtx` mode, see the `chain` module's `DictCtx`). liblz4 does
//! this for inputs of up to 4 KiB (and at level 2) and copies the dictionary's state, i.e. the
//! external-dictionary way, for larger ones.
//!
//! # Output limits
//!
//! Below [`compress_bound`] the one-shot functions fail only when the block really does not
//! fit. The dictionary and stream forms give up exactly when liblz4's `limitedOutput` does (its
//! estimate is pessimistic), because a stream's next block depends on the tables the give-up
//! leaves; [`compress_hc_dest_size`] follows liblz4's `fillOutput`.
//!
//! # Memory
//!
//! An [`HcCompressor`] holds 256 KiB of tables (a 32768-entry `u32` hash head table, which level
//! 2 splits into its two 16384-entry tables, and a 65536-entry `u16` chain table) plus the
//! optimal parser's 64 KiB cost array, all allocated once in [`HcCompressor::new`]. Calls do
//! not clear the tables: each call numbers positions from above everything the previous call
//! stored, so old entries are out of reach (see the `chain` module).

#![cfg_attr(not(feature = "unsafe"), forbid(unsafe_code))]

use alloc::vec;
use alloc::vec::Vec;

use super::sequence::{
    call_unchecked, check_input_size, unchecked_fn, SequenceWriter, MIN_COMPRESSIBLE,
};
use super::{compress_bound, LASTLITERALS, MAX_DISTANCE, MFLIMIT, MINMATCH, ML_MASK, RUN_MASK};
use crate::Error;

// The HC stream's parses on caller-owned tables, for the C ABI (`capi/`): not a public
// interface.
#[doc(hidden)]
pub mod c_stream;
mod chain;
mod dict;
mod lazy;
mod mid;
mod optimal;
mod stream;

use chain::{ChainTables, DictCtx};
pub use dict::HcDictionary;
use optimal::OptNode;
pub use stream::HcStreamCompressor;

/// The default HC level (liblz4's `LZ4HC_CLEVEL_DEFAULT`), used for level 0.
pub const HC_LEVEL_DEFAULT: u8 = 9;
/// The highest HC level (liblz4's `LZ4HC_CLEVEL_MAX`); higher levels are clamped to it.
pub const HC_LEVEL_MAX: u8 = 12;

/// How a level searches and parses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Strategy {
    /// Level 2 (and 1): two hash tables, greedy.
    Mid,
    /// Levels 3-9: hash chains, lazy parse.
    Chain { attempts: u32 },
    /// Levels 10-12: hash chains, optimal parse.
    Optimal {
        attempts: u32,
        target_len: usize,
        full_update: bool,
    },
}

fn strategy(level: u8) -> Strategy {
    let level = match level {
        0 => HC_LEVEL_DEFAULT,
        l => l.min(HC_LEVEL_MAX),
    };
    match level {
        0..=2 => Strategy::Mid,
        3..=9 => Strategy::Chain {
            attempts: 1 << (level - 1),
        },
        10 => Strategy::Optimal {
            attempts: 96,
            target_len: 64,
            full_update: false,
        },
        11 => Strategy::Optimal {
            attempts: 512,
            target_len: 128,
            full_update: false,
        },
        _ => Strategy::Optimal {
            attempts: 16384,
            target_len: optimal::OPT_NUM - 1,
            full_update: true,
        },
    }
}

/// Reusable HC compressor state: the hash and chain tables and the optimal parser's cost array,
/// allocated once, so compressing many blocks allocates nothing per call.
///
/// Every call starts from cleared tables, so a reused `HcCompressor` produces exactly the bytes
/// of a fresh one (and of [`compress_hc`]).
///
/// ```
/// use lz4_simd::block::{compress_bound, compress_hc, HcCompressor};
/// let mut compressor = HcCompressor::new();
/// let mut out = vec![0u8; compress_bound(1000)];
/// for chunk in [&b"abcd".repeat(250)[..], &[9u8; 1000][..]] {
///     let n = compressor.compress_into(chunk, &mut out, 9).unwrap();
///     assert_eq!(&out[..n], &compress_hc(chunk, 9).unwrap()[..]);
/// }
/// ```
pub struct HcCompressor {
    tables: ChainTables,
    opt: Vec<OptNode>,
    favor_dec_speed: bool,
    /// The dictionary form's window (the dictionary, then the input), kept for its allocation.
    window: Vec<u8>,
}

impl Default for HcCompressor {
    fn default() -> Self {
        Self::new()
    }
}

impl core::fmt::Debug for HcCompressor {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("HcCompressor")
            .field("favor_dec_speed", &self.favor_dec_speed)
            .finish_non_exhaustive()
    }
}

impl HcCompressor {
    /// A compressor with its tables allocated (320 KiB on the heap), favouring ratio.
    pub fn new() -> Self {
        Self {
            tables: ChainTables::new(),
            opt: vec![OptNode::default(); optimal::OPT_NODES],
            favor_dec_speed: false,
            window: Vec::new(),
        }
    }

    /// A compressor that, at levels 10 to 12, trades a little ratio (0.15-3.2% on Silesia) for
    /// faster decoding: match offsets below 8 avoided (except in runs, as in liblz4), matches of
    /// 19 to 36 bytes shortened to 18 (see the module documentation), liblz4's bytes with
    /// `LZ4_favorDecompressionSpeed`. Levels below 10 are unaffected.
    pub fn with_favor_dec_speed(favor_dec_speed: bool) -> Self {
        let mut compressor = Self::new();
        compressor.favor_dec_speed = favor_dec_speed;
        compressor
    }

    /// Makes room in the dictionary form's window for `len` bytes (the dictionary and a block),
    /// so that blocks up to that size allocate nothing.
    pub(crate) fn reserve_window(&mut self, len: usize) {
        self.window.reserve(len.saturating_sub(self.window.len()));
    }

    /// Switches the favour-decompression-speed option (see [`Self::with_favor_dec_speed`]).
    pub fn set_favor_dec_speed(&mut self, favor_dec_speed: bool) {
        self.favor_dec_speed = favor_dec_speed;
    }

    /// Whether the favour-decompression-speed option is on.
    pub fn favor_dec_speed(&self) -> bool {
        self.favor_dec_speed
    }

    /// Compresses `src` into `dst` at `level`, returning the compressed length. See
    /// [`compress_hc_into`].
    pub fn compress_into(&mut self, src: &[u8], dst: &mut [u8], level: u8) -> Result<usize, Error> {
        self.compress_window(src, 0, dst, level)
    }

    /// Compresses `src` into a new `Vec` (see [`compress_hc`]). Inputs above
    /// [`MAX_INPUT_SIZE`](super::MAX_INPUT_SIZE) are [`Error::InputTooLarge`].
    pub fn compress(&mut self, src: &[u8], level: u8) -> Result<Vec<u8>, Error> {
        // Before the allocation: the bound of an oversized input is gigabytes.
        check_input_size(src)?;
        let mut out = vec![0u8; compress_bound(src.len())];
        let len = self.compress_into(src, &mut out, level)?;
        out.truncate(len);
        Ok(out)
    }

    /// Compresses `src` into `dst` at `level` with the dictionary `dict` (matches may reach into
    /// its last 64 KiB), returning the compressed length. The bytes are liblz4 1.10's for
    /// `LZ4_loadDictHC(dict)` followed by one `LZ4_compress_HC_continue(src)` on a stream at
    /// `level` (with [`Self::favor_dec_speed`] as `LZ4_favorDecompressionSpeed` set after the
    /// load), with the dictionary and the input in separate buffers. Decode with
    /// [`decompress_into_with_dictionary`](super::decompress_into_with_dictionary) and the same
    /// dictionary.
    ///
    /// With `dst` smaller than [`compress_bound`]`(src.len())`, this gives up
    /// ([`Error::OutputTooSmall`]) exactly when liblz4 does: by liblz4's estimate, which may
    /// refuse a block whose exact size would have fit.
    ///
    /// ```
    /// use lz4_simd::block::{self, HcCompressor, HcDictionary};
    /// let dict = HcDictionary::new(b"{\"user\": \"alice\", \"action\": \"login\", \"ok\": true}");
    /// let message = b"{\"user\": \"bob\", \"action\": \"login\", \"ok\": false}";
    /// let mut compressor = HcCompressor::new();
    /// let mut out = vec![0u8; block::compress_bound(message.len())];
    /// let len = compressor
    ///     .compress_into_with_prepared_dictionary(message, &mut out, &dict, 9)
    ///     .unwrap();
    /// assert!(len < message.len() / 2);
    /// let mut back = vec![0u8; message.len()];
    /// block::decompress_into_with_dictionary(&out[..len], &mut back, dict.as_bytes()).unwrap();
    /// assert_eq!(&back[..], &message[..]);
    /// ```
    pub fn compress_into_with_prepared_dictionary(
        &mut self,
        src: &[u8],
        dst: &mut [u8],
        dict: &HcDictionary,
        level: u8,
    ) -> Result<usize, Error> {
        check_input_size(src)?;
        self.compress_after_dictionary(src, dst, dict, clamp_level(level), false)
    }

    /// Compresses `src` with `dict`'s bytes in front of it in the window: loaded
    /// (`LZ4_loadDictHC`, an external dictionary) or `attached` (searched in place).
    fn compress_after_dictionary(
        &mut self,
        src: &[u8],
        dst: &mut [u8],
        dict: &HcDictionary,
        level: u8,
        attached: bool,
    ) -> Result<usize, Error> {
        let dict_len = dict.as_bytes().len();
        self.window.clear();
        self.window.extend_from_slice(dict.as_bytes());
        self.window.extend_from_slice(src);
        if attached {
            // The input's own tables start empty (every older entry out of reach) and the
            // dictionary's positions are never entered into them.
            self.tables.reset(self.window.len());
            self.tables
                .begin_block(self.tables.base(), self.window.len(), dict_len);
        } else {
            // liblz4's `LZ4HC_setExternalDict`: the loaded dictionary becomes the external
            // dictionary of the block (its positions are all inserted already).
            dict.load_into(&mut self.tables, level);
            self.tables
                .begin_block(dict::DICT_BASE, self.window.len(), dict_len);
        }
        compress_block::<true>(
            &mut self.tables,
            &mut self.opt,
            &self.window,
            dict_len,
            dst,
            level,
            self.favor_dec_speed,
            Limit::LibLz4,
            attached.then(|| dict.attached()),
        )
        .map(|(written, _)| written)
    }

    /// Compresses `src` into `dst` at `level` with `dict` *attached* (liblz4's
    /// `LZ4_resetStreamHC_fast` + `LZ4_attach_HC_dictionary` + one `LZ4_compress_HC_continue`,
    /// which is what LZ4F, and so `lz4 -D dict` at the HC levels, does for every independent
    /// block), returning the compressed length. Decode with
    /// [`decompress_into_with_dictionary`](super::decompress_into_with_dictionary) and the same
    /// dictionary.
    ///
    /// liblz4 treats the dictionary in one of two ways, and so does this:
    ///
    /// - inputs of up to 4 KiB, and every input at levels 1 and 2: the dictionary's prepared
    ///   tables are searched in place after the input's own chain (liblz4's `dictCtx` mode:
    ///   the dictionary gets the attempts the input's chain left, its matches are not extended
    ///   into the input, and level 2 looks for one only at the first 65527 positions). Nothing
    ///   is copied but the dictionary's bytes, in front of the input;
    /// - larger inputs at levels 3 to 12: liblz4 copies the dictionary's whole state (its tables
    ///   are prepared at a hash-chain level), so the bytes are those of
    ///   [`Self::compress_into_with_prepared_dictionary`], except that the copied state has the
    ///   favour-decompression-speed option off: [`Self::favor_dec_speed`] does not apply, as in
    ///   liblz4.
    ///
    /// The bytes differ from [`Self::compress_into_with_prepared_dictionary`]'s (`LZ4_loadDictHC`)
    /// for some inputs of up to 4 KiB and at level 2. With `dst` smaller than
    /// [`compress_bound`]`(src.len())`, this gives up ([`Error::OutputTooSmall`]) exactly when
    /// liblz4 does.
    ///
    /// ```
    /// use lz4_simd::block::{self, HcCompressor, HcDictionary};
    /// let dict = HcDictionary::new(b"GET /api/v1/orders?status=open HTTP/1.1\r\nHost: shop\r\n");
    /// let request = b"GET /api/v1/orders?status=closed HTTP/1.1\r\nHost: shop\r\n";
    /// let mut compressor = HcCompressor::new();
    /// let mut out = vec![0u8; block::compress_bound(request.len())];
    /// let len = compressor
    ///     .compress_into_with_attached_dictionary(request, &mut out, &dict, 9)
    ///     .unwrap();
    /// assert!(len < request.len() / 2);
    /// let mut back = vec![0u8; request.len()];
    /// block::decompress_into_with_dictionary(&out[..len], &mut back, dict.as_bytes()).unwrap();
    /// assert_eq!(&back[..], &request[..]);
    /// ```
    pub fn compress_into_with_attached_dictionary(
        &mut self,
        src: &[u8],
        dst: &mut [u8],
        dict: &HcDictionary,
        level: u8,
    ) -> Result<usize, Error> {
        check_input_size(src)?;
        let level = clamp_level(level);
        if dict::copies_attached(src.len(), level) {
            let favor = core::mem::replace(&mut self.favor_dec_speed, false);
            let result = self.compress_into_with_prepared_dictionary(src, dst, dict, level);
            self.favor_dec_speed = favor;
            return result;
        }
        self.compress_after_dictionary(src, dst, dict, level, true)
    }

    /// One independent block of an LZ4F frame with a dictionary (`lz4 -D`): LZ4F compresses
    /// each block on a working stream reset with `LZ4_resetStreamHC_fast` and the CDict
    /// attached, which is [`Self::compress_into_with_attached_dictionary`], with one more liblz4
    /// effect: the working stream loses the favour-decompression-speed option for the rest of
    /// the frame once a block has copied the dictionary's state (above 4 KiB, levels 3-12) or
    /// failed (`dirty`: its next reset re-initialises the whole stream). `None` when liblz4
    /// gives up (the frame stores the block raw).
    pub(crate) fn compress_frame_block_attached(
        &mut self,
        src: &[u8],
        dst: &mut [u8],
        dict: &HcDictionary,
        level: u8,
    ) -> Option<usize> {
        let result = self
            .compress_into_with_attached_dictionary(src, dst, dict, level)
            .ok();
        if result.is_none() || dict::copies_attached(src.len(), clamp_level(level)) {
            self.favor_dec_speed = false;
        }
        result
    }

    /// Compresses as much of `src` as fits into `dst` at `level`, returning `(consumed,
    /// written)`; see [`compress_hc_dest_size`]. The favour-decompression-speed option does not
    /// apply (liblz4's `LZ4_compress_HC_destSize` has none).
    pub fn compress_dest_size(
        &mut self,
        src: &[u8],
        dst: &mut [u8],
        level: u8,
    ) -> Result<(usize, usize), Error> {
        check_input_size(src)?;
        if dst.is_empty() {
            return Err(Error::OutputTooSmall {
                capacity: 0,
                needed: 1,
            });
        }
        compress_block::<false>(
            &mut self.tables,
            &mut self.opt,
            src,
            0,
            dst,
            level,
            false,
            Limit::Fill,
            None,
        )
        .map(|(written, consumed)| (consumed, written))
    }

    /// Compresses `window[start..]` into `dst`; matches may reach back into `window[..start]`
    /// (the history, e.g. the previous 64 KiB of a linked-block frame), at most 65535 bytes
    /// before the position they are used at.
    pub(crate) fn compress_window(
        &mut self,
        window: &[u8],
        start: usize,
        dst: &mut [u8],
        level: u8,
    ) -> Result<usize, Error> {
        debug_assert!(start <= window.len());
        check_input_size(&window[start..])?;
        compress_block::<false>(
            &mut self.tables,
            &mut self.opt,
            window,
            start,
            dst,
            level,
            self.favor_dec_speed,
            Limit::Exact,
            None,
        )
        .map(|(written, _)| written)
    }
}

/// liblz4's level clamping (`LZ4_setCompressionLevel`): 0 means the default, above 12 means 12.
fn clamp_level(level: u8) -> u8 {
    match level {
        0 => HC_LEVEL_DEFAULT,
        l => l.min(HC_LEVEL_MAX),
    }
}

/// How a parse treats a `dst` smaller than the bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Limit {
    /// Fail only when the block really does not fit (the one-shot functions).
    Exact,
    /// liblz4's `limitedOutput`: give up as soon as liblz4's estimate says a sequence may not
    /// fit. Streams need exactly its verdict: the tables it leaves are the next block's.
    LibLz4,
    /// liblz4's `fillOutput` (dest-size): stop where the output is full, shortening the last
    /// match and cutting the last literals to fill it.
    Fill,
}

/// The sequence writer of a parse, with its output limit.
pub(super) struct HcOut<'a> {
    writer: SequenceWriter<'a>,
    capacity: usize,
    limit: Limit,
    /// [`Limit::Fill`]: the anchor where the parse stopped.
    stopped_at: Option<usize>,
}

impl HcOut<'_> {
    /// liblz4's give-up (`LZ4HC_encodeSequence` returned 1): with [`Limit::Fill`], its
    /// `_dest_overflow` handling first (a last, possibly shortened, match if there is room for
    /// it and a literal run after it), recording where the parse stopped. Always an error, which
    /// ends the parse.
    #[cold]
    #[inline(never)]
    fn give_up(
        &mut self,
        src: &[u8],
        anchor: &mut usize,
        ip: &mut usize,
        match_len: usize,
        offset: usize,
        needed: usize,
    ) -> Result<(), Error> {
        if self.limit == Limit::Fill {
            let written = self.writer.written() as isize;
            let capacity = self.capacity as isize;
            let literal_len = (*ip - *anchor) as isize;
            let literal_cost = 1 + (literal_len + 240) / 255 + literal_len;
            // The last byte a match's offset may end on: room for the final literal token.
            let max_literal_pos = capacity - LASTLITERALS as isize - 3;
            if written + literal_cost <= max_literal_pos {
                let room = max_literal_pos - (written + literal_cost);
                let longest = (MINMATCH + ML_MASK - 1) as isize + room * 255;
                let match_len = (match_len as isize).min(longest);
                if capacity - (written + literal_cost + 2) - 1 + match_len >= MFLIMIT as isize {
                    // SAFETY: no duty with `EXACT` (every write is checked).
                    call_unchecked!(self.writer.sequence::<true>(
                        src,
                        *anchor,
                        *ip,
                        offset,
                        match_len as usize - MINMATCH
                    ))?;
                    *ip += match_len as usize;
                    *anchor = *ip;
                }
            }
            self.stopped_at = Some(*anchor);
        }
        Err(Error::OutputTooSmall {
            capacity: self.capacity,
            needed,
        })
    }
}

/// Compresses `window[start..]` into `dst` at `level`, returning `(written, consumed)`.
///
/// Without `EXT`, `window[..start]` is history the block may reach into as a prefix, and the
/// tables are reset here. With `EXT` it is liblz4's external dictionary, and the caller has set
/// the tables up for the window with [`ChainTables::begin_block`] (`prefix <= start`: a block continuing a contiguous one starts after the prefix).
#[allow(clippy::too_many_arguments)]
fn compress_block<const EXT: bool>(
    tables: &mut ChainTables,
    opt: &mut [OptNode],
    window: &[u8],
    start: usize,
    dst: &mut [u8],
    level: u8,
    favor_dec_speed: bool,
    limit: Limit,
    dict: Option<DictCtx<'_>>,
) -> Result<(usize, usize), Error> {
    debug_assert!(EXT || dict.is_none());
    let input_len = window.len() - start;
    let capacity = dst.len();
    // Below the bound, or filling a page: every write is checked.
    let exact = limit == Limit::Fill || capacity < compress_bound(input_len);
    let mut out = HcOut {
        writer: SequenceWriter::new(dst),
        capacity,
        limit: if exact { limit } else { Limit::Exact },
        stopped_at: None,
    };
    let mut anchor = start;
    // liblz4's optimal parser (alone) has no "under 13 bytes: literals only" shortcut: a 12-byte
    // block searches its first position, which only history can match.
    let min_len = match strategy(level) {
        Strategy::Optimal { .. } if EXT => MFLIMIT,
        _ => MIN_COMPRESSIBLE,
    };
    if input_len >= min_len {
        if !EXT {
            tables.reset(window.len());
        }
        let parsed = if exact {
            // SAFETY: no duty with `EXACT`; the tables were just reset for `window`, or set up
            // for it by the caller (`EXT`); `input_len >= min_len` (12 only for the optimal
            // parser with `EXT`).
            call_unchecked!(parse::<true, EXT>(
                tables,
                opt,
                window,
                start,
                &mut out,
                level,
                favor_dec_speed,
                dict
            ))
        } else {
            // SAFETY: `dst` holds the bound for `window[start..]` (`exact` is false); the
            // tables as above.
            call_unchecked!(parse::<false, EXT>(
                tables,
                opt,
                window,
                start,
                &mut out,
                level,
                favor_dec_speed,
                dict
            ))
        };
        anchor = match (parsed, out.stopped_at) {
            (Ok(anchor), _) => anchor,
            (Err(_), Some(anchor)) => anchor,
            (Err(error), None) => return Err(error),
        };
    }
    let mut literal_len = window.len() - anchor;
    if out.limit == Limit::Fill {
        let written = out.writer.written();
        if written + 1 + (literal_len + 240) / 255 + literal_len > capacity {
            // As many literals as fit, with their length's extension bytes.
            let room = capacity.saturating_sub(written + 1);
            literal_len = room - (room + 241) / 256;
        }
    }
    out.writer
        .last_literals(&window[anchor..anchor + literal_len])?;
    Ok((out.writer.written(), anchor + literal_len - start))
}

unchecked_fn! {
    /// Runs the level's strategy over `window[start..]`; returns the anchor (start of the final
    /// literals). `EXACT` checks output room at every write (a `dst` smaller than the bound).
    ///
    /// # Safety
    ///
    /// `window.len() - start >= MIN_COMPRESSIBLE`, or `>= MFLIMIT` for the optimal parser (levels
    /// 10-12) with `EXT`; the tables were last reset for `window`
    /// (without `EXT`) or set up for it with `prefix <= start` (`EXT`), with nothing storing into
    /// them since; `out` is empty; without `EXACT`, `out`'s `dst` holds
    /// `compress_bound(window.len() - start)`.
    #[allow(clippy::too_many_arguments)]
    fn parse<const EXACT: bool, const EXT: bool>(
        tables: &mut ChainTables,
        opt: &mut [OptNode],
        window: &[u8],
        start: usize,
        out: &mut HcOut<'_>,
        level: u8,
        favor_dec_speed: bool,
        dict: Option<DictCtx<'_>>,
    ) -> Result<usize, Error> {
        // SAFETY (each strategy's duty): this function's.
        match strategy(level) {
            Strategy::Mid => call_unchecked!(mid::parse::<EXACT, EXT>(tables, window, start, out, dict)),
            Strategy::Chain { attempts } => call_unchecked!(lazy::parse::<EXACT, EXT>(
                tables, window, start, out, attempts, dict
            )),
            Strategy::Optimal {
                attempts,
                target_len,
                full_update,
            } => call_unchecked!(optimal::parse::<EXACT, EXT>(
                tables,
                opt,
                window,
                start,
                out,
                optimal::Params {
                    attempts,
                    target_len,
                    full_update,
                    favor_dec_speed,
                    dict,
                },
            )),
        }
    }
}

unchecked_fn! {
    /// Writes the sequence of the literals `src[*anchor..*ip]` and a match of `match_len` bytes
    /// at `offset`, then moves `ip` past the match and `anchor` to it. Under [`Limit::LibLz4`]
    /// and [`Limit::Fill`] (with `EXACT`), liblz4's output estimate decides first whether the
    /// sequence may be written ([`HcOut::give_up`] otherwise).
    ///
    /// # Safety
    ///
    /// That of [`SequenceWriter::sequence`] for `src`, `*anchor` and `*ip`. The
    /// parses establish it the same way: every match they emit ends by `src.len() -
    /// LASTLITERALS` (the finders count matches up to it, and the parses only shorten them),
    /// starts at or after `anchor`, and `anchor` moves only here, to the end of each match, so
    /// the sequences are consecutive; without `EXACT` their `dst` holds the bound.
    #[inline(always)]
    fn emit<const EXACT: bool>(
        out: &mut HcOut<'_>,
        src: &[u8],
        anchor: &mut usize,
        ip: &mut usize,
        match_len: usize,
        offset: usize,
    ) -> Result<(), Error> {
        debug_assert!(match_len >= MINMATCH);
        debug_assert!((1..=MAX_DISTANCE).contains(&offset) && offset <= *ip);
        debug_assert!(*ip + match_len + LASTLITERALS <= src.len());
        if EXACT && out.limit != Limit::Exact {
            // liblz4's `LZ4HC_encodeSequence` checks: room for the literals plus 8 (after the
            // token), then for the match length plus 6 (after the offset); `Fill` keeps the last
            // LASTLITERALS bytes back.
            let literal_len = *ip - *anchor;
            let reserve = if out.limit == Limit::Fill { LASTLITERALS } else { 0 };
            let written = out.writer.written() + 1;
            let literals_need = written + literal_len / 255 + literal_len + 8 + reserve;
            let extension = if literal_len >= RUN_MASK {
                (literal_len - RUN_MASK) / 255 + 1
            } else {
                0
            };
            let match_need = written + extension + literal_len + 2
                + (match_len - MINMATCH) / 255 + 6 + reserve;
            if literals_need > out.capacity || match_need > out.capacity {
                return out.give_up(src, anchor, ip, match_len, offset, literals_need.max(match_need));
            }
        }
        // SAFETY: the caller's duty.
        call_unchecked!(out.writer.sequence::<EXACT>(src, *anchor, *ip, offset, match_len - MINMATCH))?;
        *ip += match_len;
        *anchor = *ip;
        Ok(())
    }
}

/// Compresses `src` with LZ4 HC at `level` (0 means 9, above 12 means 12; see the module
/// documentation for what each level does). The output is a standard LZ4 block.
///
/// Inputs above [`MAX_INPUT_SIZE`](super::MAX_INPUT_SIZE) are [`Error::InputTooLarge`].
///
/// ```
/// let data = b"high compression, high compression, high compression!".repeat(20);
/// let block = lz4_simd::block::compress_hc(&data, 12).unwrap();
/// assert!(block.len() < lz4_simd::block::compress(&data).unwrap().len());
/// assert_eq!(lz4_simd::block::decompress(&block, data.len()).unwrap(), data);
/// ```
pub fn compress_hc(src: &[u8], level: u8) -> Result<Vec<u8>, Error> {
    HcCompressor::new().compress(src, level)
}

/// Compresses as much of `src` as fits into `dst` with LZ4 HC at `level`, returning
/// `(consumed, written)`: the block in `dst[..written]` decodes to exactly `src[..consumed]`.
/// Byte-identical to liblz4 1.10's `LZ4_compress_HC_destSize` (its `*srcSizePtr` afterwards is
/// `consumed`), at every level: this fills a fixed-size page with as much input as fits.
///
/// Unlike [`compress_dest_size`](super::compress_dest_size) there is no shortcut when `dst`
/// holds the bound: the parse always keeps the last 5 bytes of `dst` for the final literals,
/// as liblz4's does. An empty `src` gives the block `00` (`(0, 1)`). An input above
/// [`MAX_INPUT_SIZE`](super::MAX_INPUT_SIZE) is [`Error::InputTooLarge`]; an empty `dst`, which
/// holds no block, is [`Error::OutputTooSmall`].
///
/// ```
/// use lz4_simd::block;
/// let log = b"GET /index.html 200\nGET /style.css 304\nGET /app.js 200\n".repeat(200);
/// let mut page = [0u8; 256];
/// let (consumed, written) = block::compress_hc_dest_size(&log, &mut page, 9).unwrap();
/// assert!(written <= page.len() && consumed > 4 * page.len());
/// assert_eq!(block::decompress(&page[..written], consumed).unwrap(), &log[..consumed]);
/// ```
pub fn compress_hc_dest_size(
    src: &[u8],
    dst: &mut [u8],
    level: u8,
) -> Result<(usize, usize), Error> {
    HcCompressor::new().compress_dest_size(src, dst, level)
}

/// Compresses `src` with LZ4 HC at `level` into `dst`, returning the compressed length.
///
/// With `dst.len() >= compress_bound(src.len())` this always succeeds (for inputs up to
/// [`MAX_INPUT_SIZE`](super::MAX_INPUT_SIZE)). With a smaller `dst` it either writes the same
/// bytes as into a large buffer or returns [`Error::OutputTooSmall`]; it never writes past `dst`.
pub fn compress_hc_into(src: &[u8], dst: &mut [u8], level: u8) -> Result<usize, Error> {
    HcCompressor::new().compress_into(src, dst, level)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Deterministic bytes with no repeats of 4 or more (xorshift).
    fn noise(len: usize, seed: u64) -> Vec<u8> {
        let mut state = seed | 1;
        (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state >> 24) as u8
            })
            .collect()
    }

    #[test]
    fn history_window() {
        // 100 KB of history; the block repeats pieces of it from 5 KB to 79 KB back (the last
        // out of reach), then ends with fresh bytes.
        let history = noise(100_000, 3);
        let mut window = history.clone();
        let start = window.len();
        for back in [5_000usize, 30_000, 50_000, 70_000] {
            let from = start - back;
            window.extend_from_slice(&history[from..from + 3000]);
        }
        window.extend_from_slice(&noise(500, 4));
        let mut compressor = HcCompressor::new();
        for level in 1..=12u8 {
            let mut dst = vec![0u8; compress_bound(window.len() - start)];
            let len = compressor
                .compress_window(&window, start, &mut dst, level)
                .unwrap();
            let mut out = window[..start].to_vec();
            out.resize(window.len(), 0);
            crate::block::reference::decode(&dst[..len], &mut out, start).unwrap();
            assert!(out == window, "level {level}: history round trip");
            // Three of the four copies are in reach: the block is far smaller than alone.
            let alone = compressor.compress(&window[start..], level).unwrap();
            assert!(
                len + 8000 < alone.len(),
                "level {level}: {len} vs {}",
                alone.len()
            );
            // Tiny blocks after history are literals only.
            let tiny = &window[..start + 12];
            let len = compressor
                .compress_window(tiny, start, &mut dst, level)
                .unwrap();
            assert_eq!(len, 13, "level {level}");
        }
    }

    #[test]
    fn index_space_restart() {
        let data: Vec<u8> = b"index space wraps around; ".repeat(3000);
        for level in [2u8, 3, 9, 12] {
            let fresh = compress_hc(&data, level).unwrap();
            let mut compressor = HcCompressor::new();
            // The next call still fits below the restart limit, the one after restarts.
            compressor.tables.set_base((1 << 30) - 65_536 - 10);
            for _ in 0..3 {
                assert_eq!(
                    compressor.compress(&data, level).unwrap(),
                    fresh,
                    "level {level}"
                );
            }
        }
    }

    #[test]
    fn level_table() {
        assert_eq!(strategy(0), strategy(9));
        assert_eq!(strategy(1), Strategy::Mid);
        assert_eq!(strategy(2), Strategy::Mid);
        assert_eq!(strategy(3), Strategy::Chain { attempts: 4 });
        assert_eq!(strategy(9), Strategy::Chain { attempts: 256 });
        assert_eq!(strategy(13), strategy(12));
        assert_eq!(strategy(255), strategy(12));
        assert_eq!(
            strategy(12),
            Strategy::Optimal {
                attempts: 16384,
                target_len: 4095,
                full_update: true
            }
        );
    }
}
