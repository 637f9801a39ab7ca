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
//! to 3.2% (osdb) of compressed size. Unlike liblz4, the run-detection shortcut of the match
//! finder is held to the same offset rule, so no match in such a block has an offset below 8
//! (liblz4's favoured output still has a few, e.g. about 100 per MiB of ooffice); the output is
//! otherwise liblz4's, within 0.06% in size.
//!
//! # History
//!
//! Internally every strategy compresses `window[start..]` with `window[..start]` as history
//! that matches may reach into (at most 65535 bytes back): the seam for linked-block frames,
//! which compress each block with the previous 64 KiB in front of it. The public functions pass
//! no history.
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
use super::{compress_bound, LASTLITERALS, MAX_DISTANCE, MINMATCH};
use crate::Error;

mod chain;
mod lazy;
mod mid;
mod optimal;

use chain::ChainTables;
use optimal::OptNode;

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
///     assert_eq!(&out[..n], &compress_hc(chunk, 9)[..]);
/// }
/// ```
pub struct HcCompressor {
    tables: ChainTables,
    opt: Vec<OptNode>,
    favor_dec_speed: bool,
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
        }
    }

    /// A compressor that, at levels 10 to 12, trades a little ratio (0.15-3.2% on Silesia) for
    /// faster decoding: no match offset below 8, matches of 19 to 36 bytes shortened to 18 (see
    /// the module documentation). Levels below 10 are unaffected.
    pub fn with_favor_dec_speed(favor_dec_speed: bool) -> Self {
        let mut compressor = Self::new();
        compressor.favor_dec_speed = favor_dec_speed;
        compressor
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
    /// [`compress_hc_into`](super::compress_hc_into).
    pub fn compress_into(&mut self, src: &[u8], dst: &mut [u8], level: u8) -> Result<usize, Error> {
        self.compress_window(src, 0, dst, level)
    }

    /// Compresses `src` into a new `Vec` (see [`compress_hc`](super::compress_hc)).
    pub fn compress(&mut self, src: &[u8], level: u8) -> Vec<u8> {
        let mut out = vec![0u8; compress_bound(src.len())];
        match self.compress_into(src, &mut out, level) {
            Ok(len) => {
                out.truncate(len);
                out
            }
            // Only an input above MAX_INPUT_SIZE fails with a bound-sized buffer.
            Err(_) => Vec::new(),
        }
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
        if dst.len() >= compress_bound(window.len() - start) {
            // SAFETY: `dst` holds the bound for `window[start..]` (just checked).
            call_unchecked!(self.parse::<false>(window, start, dst, level))
        } else {
            // SAFETY: no duty with `EXACT`.
            call_unchecked!(self.parse::<true>(window, start, dst, level))
        }
    }

    unchecked_fn! {
        /// Runs the level's strategy; `EXACT` checks output room at every write (a `dst` smaller
        /// than the bound).
        ///
        /// # Safety
        ///
        /// Without `EXACT`, `dst.len() >= compress_bound(window.len() - start)`: the sequences are
        /// written unchecked.
        fn parse<const EXACT: bool>(
            &mut self,
            window: &[u8],
            start: usize,
            dst: &mut [u8],
            level: u8,
        ) -> Result<usize, Error> {
            let mut out = SequenceWriter::new(dst);
            let mut anchor = start;
            if window.len() - start >= MIN_COMPRESSIBLE {
                self.tables.reset(window.len());
                // SAFETY (each strategy's duty): the tables were just reset for `window`, and only
                // the one strategy below stores into them in this call; `window.len() - start >=
                // MIN_COMPRESSIBLE` (`start <= window.len()`: `window[start..]` was sliced by the
                // caller); level 2: `out` is empty, and without `EXACT` its `dst` holds the bound
                // (this function's duty).
                anchor = match strategy(level) {
                    Strategy::Mid => call_unchecked!(mid::parse::<EXACT>(
                        &mut self.tables,
                        window,
                        start,
                        &mut out
                    ))?,
                    Strategy::Chain { attempts } => call_unchecked!(lazy::parse::<EXACT>(
                        &mut self.tables,
                        window,
                        start,
                        &mut out,
                        attempts
                    ))?,
                    Strategy::Optimal {
                        attempts,
                        target_len,
                        full_update,
                    } => call_unchecked!(optimal::parse::<EXACT>(
                        &mut self.tables,
                        &mut self.opt,
                        window,
                        start,
                        &mut out,
                        optimal::Params {
                            attempts,
                            target_len,
                            full_update,
                            favor_dec_speed: self.favor_dec_speed,
                        },
                    ))?,
                };
            }
            out.last_literals(&window[anchor..])?;
            Ok(out.written())
        }
    }
}

unchecked_fn! {
    /// Writes the sequence of the literals `src[*anchor..*ip]` and a match of `match_len` bytes
    /// at `offset`, then moves `ip` past the match and `anchor` to it.
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
        out: &mut SequenceWriter<'_>,
        src: &[u8],
        anchor: &mut usize,
        ip: &mut usize,
        match_len: usize,
        offset: usize,
    ) -> Result<(), Error> {
        debug_assert!(match_len >= MINMATCH);
        debug_assert!((1..=MAX_DISTANCE).contains(&offset) && offset <= *ip);
        debug_assert!(*ip + match_len + LASTLITERALS <= src.len());
        // SAFETY: the caller's duty.
        call_unchecked!(out.sequence::<EXACT>(src, *anchor, *ip, offset, match_len - MINMATCH))?;
        *ip += match_len;
        *anchor = *ip;
        Ok(())
    }
}

/// Compresses `src` with LZ4 HC at `level` (0 means 9, above 12 means 12; see the module
/// documentation for what each level does). The output is a standard LZ4 block.
///
/// Inputs above [`MAX_INPUT_SIZE`](super::MAX_INPUT_SIZE) give an empty `Vec`; use
/// [`compress_hc_into`] to get an [`Error`] instead.
///
/// ```
/// let data = b"high compression, high compression, high compression!".repeat(20);
/// let block = lz4_simd::block::compress_hc(&data, 12);
/// assert!(block.len() < lz4_simd::block::compress(&data).len());
/// assert_eq!(lz4_simd::block::decompress(&block, data.len()).unwrap(), data);
/// ```
pub fn compress_hc(src: &[u8], level: u8) -> Vec<u8> {
    HcCompressor::new().compress(src, level)
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
            let alone = compressor.compress(&window[start..], level);
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
            let fresh = compress_hc(&data, level);
            let mut compressor = HcCompressor::new();
            // The next call still fits below the restart limit, the one after restarts.
            compressor.tables.set_base((1 << 30) - 65_536 - 10);
            for _ in 0..3 {
                assert_eq!(compressor.compress(&data, level), fresh, "level {level}");
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
