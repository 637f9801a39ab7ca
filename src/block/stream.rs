//! [`StreamCompressor`] and [`StreamDecoder`]: linked blocks, each able to reference the data of
//! the blocks before it, byte-identical to liblz4 1.10's `LZ4_compress_fast_continue` and
//! `LZ4_decompress_safe_continue`.
//!
//! # What liblz4's stream does, and which of its layouts we reproduce
//!
//! A liblz4 stream keeps a `u32` hash table from call to call (positions are *indices* that keep
//! growing across calls), the index the next input starts at (`currentOffset`), and a pointer and
//! length for the history (`dictionary`, `dictSize`). Which history a call sees, and how it may
//! use it, depends on where the caller's buffers are in memory:
//!
//! - **prefix mode**: the input starts exactly where the history ends (consecutive slices of one
//!   buffer). A match may then be extended backwards from the input into the history, and the
//!   history keeps growing from call to call.
//! - **external-dictionary mode**: any other buffer. A match found in the input is not extended
//!   backwards past the input's start, and afterwards only *this* input is the history.
//! - **attached dictionary** (`LZ4_attach_dictionary`): the first call reads a prepared
//!   dictionary's table beside its own (inputs up to 4 KiB) or starts from a copy of it; then the
//!   dictionary is dropped.
//!
//! The two modes give different bytes for the same data, so "identical to liblz4" needs a layout.
//! [`StreamCompressor`] offers two, and says which C calls each equals:
//!
//! - [`StreamCompressor::compress_into`]: every input in its own buffer, followed by
//!   `LZ4_saveDict(stream, own_buffer, 64 KiB)`, which moves the last 64 KiB of the history into
//!   the stream's own buffer. This is exactly what liblz4's frame encoder and the `lz4` tool do for
//!   linked blocks (`lz4 -BD`). The stream **copies the last `min(n, 64 KiB)` bytes of each input**
//!   (`n` its length) into its own history buffer after compressing it. Note what that layout
//!   implies: after a call, only that call's input is history (liblz4 forgets the older history in
//!   external-dictionary mode), so small inputs see only the previous input.
//! - [`StreamCompressor::compress_contiguous_into`]: the inputs are consecutive slices of one
//!   buffer, compressed in place (prefix mode, as a C caller compressing a file it holds in
//!   memory block by block). **Nothing is copied**: the caller passes the buffer, whose bytes
//!   before the new input must be the earlier inputs; every input then sees up to 64 KiB of all
//!   the inputs before it.
//!
//! The stream mirrors liblz4's state transitions exactly, quirks included: the first input of a
//! fresh stream is parsed with the `u32` table and may match "position 0" through an empty slot;
//! a stream given an empty input forgets its history (liblz4 sets its history to that empty
//! input); an input on which it gives up (a `dst` smaller than the bound, see below) is history
//! all the same; indices are renormalised before they pass 2 GiB, as liblz4 does.
//!
//! # Decoding
//!
//! [`StreamDecoder`] keeps the last 64 KiB of what it decoded (a copy, as `LZ4_saveDict` would
//! make) and decodes each block with it as an external dictionary, read in place by every kernel
//! ([`Decoder::decompress_into_with_dictionary`]). Blocks made in consecutive slices of one buffer
//! can also be decoded in place, with no copy, by
//! [`decompress_into_with_history`](super::decompress_into_with_history).

#![cfg_attr(not(feature = "unsafe"), forbid(unsafe_code))]

use alloc::boxed::Box;
use alloc::vec::Vec;

use super::compress::{
    compress_stream_block, PositionTable, StreamHistory, U32Table, ACCELERATION_MAX,
    STREAM_INDEX_LIMIT,
};
use super::sequence::check_input_size;
use super::{Decoder, Dictionary, MAX_HISTORY};
use crate::Error;

/// Inputs above this many bytes start from a copy of an attached dictionary's table; smaller
/// ones read it in place (liblz4's rule, which only decides the cost: both give the same bytes).
const ATTACH_COPY_ABOVE: usize = 4096;
/// A history shorter than this is dropped by a call that does not continue it (liblz4's "tiny
/// dictionary" rule: fewer bytes than a hash reads).
const TINY_HISTORY: usize = 4;
/// `reset` with a dictionary zeroes the table instead of moving the indices past the old ones
/// once they pass this (far below [`STREAM_INDEX_LIMIT`]).
const RESET_INDEX_LIMIT: usize = 1 << 30;

/// Where the history bytes are.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Held {
    /// In the stream's own buffer (after `compress_into`, liblz4's `LZ4_saveDict`), or none.
    Saved,
    /// In the caller's buffer, right before the next input of
    /// [`StreamCompressor::compress_contiguous_into`].
    Caller,
}

/// The state of a liblz4 fast stream (`LZ4_stream_t`), without the attached dictionary, which
/// each call is given (so an owner of both, such as the frame encoder, needs no self-reference).
pub(crate) struct StreamState {
    table: Box<U32Table>,
    /// The index of the next input's first byte (liblz4's `currentOffset`).
    current_offset: usize,
    /// The history's length as liblz4 counts it (`dictSize`: may pass 64 KiB in prefix mode).
    dict_size: usize,
    /// The history when `held` is [`Held::Saved`]: `dict_size` bytes (at most 64 KiB).
    saved: Vec<u8>,
    held: Held,
    /// A dictionary is attached and not used yet (liblz4's `dictCtx`).
    attached: bool,
}

/// How a call's input relates to the history.
#[derive(Clone, Copy)]
enum Layout<'a> {
    /// Its own buffer.
    Separate,
    /// Its own buffer, the history (when the caller holds it) ending `history`.
    SeparateFrom { history: &'a [u8] },
    /// Right after `buffer[..start]`, which holds (the end of) the history when it is the
    /// caller's.
    After { buffer: &'a [u8], start: usize },
}

impl StreamState {
    /// A fresh stream (`LZ4_initStream`), with `dict` attached if given.
    pub(crate) fn new(dict: Option<&Dictionary>) -> Self {
        let mut state = Self {
            table: Box::new(U32Table::new()),
            current_offset: 0,
            dict_size: 0,
            saved: Vec::new(),
            held: Held::Saved,
            attached: false,
        };
        state.attach(dict);
        state
    }

    /// `LZ4_attach_dictionary`: the indices start 64 KiB in (so that no slot reads as a match),
    /// and a dictionary with bytes is consulted by the next call.
    fn attach(&mut self, dict: Option<&Dictionary>) {
        if let Some(dict) = dict {
            if self.current_offset == 0 {
                self.current_offset = Dictionary::BASE;
            }
            self.attached = !dict.history().is_empty();
        }
    }

    /// Back to the state of [`StreamState::new`] with `dict`. With a dictionary the table is not
    /// cleared: the indices move 64 KiB past every old one instead (liblz4's
    /// `LZ4_resetStream_fast`), which gives the bytes of a fresh stream, because with a
    /// dictionary attached no slot can be a candidate before the first call has replaced it
    /// (empty slots are 64 KiB back as well). Without one, a fresh stream's empty slots are
    /// candidates (position 0), so the table is cleared.
    pub(crate) fn reset(&mut self, dict: Option<&Dictionary>) {
        let attachable = dict.is_some_and(|dict| !dict.history().is_empty());
        if attachable && self.current_offset + MAX_HISTORY <= RESET_INDEX_LIMIT {
            self.current_offset += MAX_HISTORY;
        } else {
            self.table.reset();
            self.current_offset = 0;
        }
        self.dict_size = 0;
        self.saved.clear();
        self.held = Held::Saved;
        self.attached = false;
        self.attach(dict);
    }

    /// `LZ4_loadDict(history)` (which resets the stream first) for a history the next input
    /// follows in the caller's buffer: its last 64 KiB enter the table at every third position,
    /// and the indices start 64 KiB in. A history shorter than a hash reads (8 bytes) is not
    /// loaded, as in liblz4.
    pub(crate) fn load_history(&mut self, history: &[u8]) {
        self.table.reset();
        self.current_offset = MAX_HISTORY;
        self.saved.clear();
        self.attached = false;
        let history = &history[history.len().saturating_sub(MAX_HISTORY)..];
        if history.len() < U32Table::HASH_READ {
            self.dict_size = 0;
            self.held = Held::Saved;
            return;
        }
        super::c_stream::load_dictionary(&mut self.table, history, self.current_offset, false);
        self.dict_size = history.len();
        self.held = Held::Caller;
    }

    /// `LZ4_compress_fast_continue` on an input in its own buffer, then `LZ4_saveDict(64 KiB)`.
    pub(crate) fn compress_into(
        &mut self,
        src: &[u8],
        dst: &mut [u8],
        acceleration: u32,
        dict: Option<&Dictionary>,
    ) -> Result<usize, Error> {
        if self.held == Held::Caller {
            return Err(Error::InvalidArgument {
                what: "a stream fed with compress_contiguous_into cannot go on with compress_into (its history is in the caller's buffer); reset it first",
            });
        }
        check_input_size(src)?;
        let result = self.compress(Layout::Separate, src, dst, acceleration, dict);
        // LZ4_saveDict: the history is now this input (liblz4's external-dictionary and
        // tiny-history paths both leave it so); keep its last 64 KiB.
        let kept = &src[src.len().saturating_sub(MAX_HISTORY)..];
        self.saved.clear();
        self.saved.extend_from_slice(kept);
        self.dict_size = kept.len();
        self.held = Held::Saved;
        result
    }

    /// `LZ4_compress_fast_continue` on `buffer[start..]`, the earlier inputs being in
    /// `buffer[..start]`.
    pub(crate) fn compress_contiguous_into(
        &mut self,
        buffer: &[u8],
        start: usize,
        dst: &mut [u8],
        acceleration: u32,
        dict: Option<&Dictionary>,
    ) -> Result<usize, Error> {
        let Some(src) = buffer.get(start..) else {
            return Err(Error::InvalidArgument {
                what: "the input's start is past the end of the buffer",
            });
        };
        if self.held == Held::Caller && start < self.dict_size.min(MAX_HISTORY) {
            return Err(Error::InvalidArgument {
                what: "the buffer before the input is shorter than the stream's history (the earlier inputs of compress_contiguous_into must precede it)",
            });
        }
        check_input_size(src)?;
        self.compress(
            Layout::After { buffer, start },
            src,
            dst,
            acceleration,
            dict,
        )
    }

    /// `LZ4_compress_fast_continue` on `src` in a buffer of its own, without saving the history
    /// afterwards (it is then `src`, which the caller keeps: see
    /// [`save_dict_from`](Self::save_dict_from)). `history` ends with the current history's
    /// bytes (at least 64 KiB of them, or all) when the caller holds it.
    pub(crate) fn compress_elsewhere(
        &mut self,
        src: &[u8],
        history: &[u8],
        dst: &mut [u8],
        acceleration: u32,
        dict: Option<&Dictionary>,
    ) -> Result<usize, Error> {
        check_input_size(src)?;
        self.compress(
            Layout::SeparateFrom { history },
            src,
            dst,
            acceleration,
            dict,
        )
    }

    /// `LZ4_compress_fast_continue` on `buffer[start..]`, which follows the history in liblz4's
    /// memory: `buffer[..start]` ends with its bytes (at least 64 KiB of them, or all), whether
    /// the caller held them or they were saved.
    pub(crate) fn compress_following(
        &mut self,
        buffer: &[u8],
        start: usize,
        dst: &mut [u8],
        acceleration: u32,
        dict: Option<&Dictionary>,
    ) -> Result<usize, Error> {
        debug_assert!(start >= self.dict_size.min(MAX_HISTORY));
        self.held = Held::Caller;
        self.compress_contiguous_into(buffer, start, dst, acceleration, dict)
    }

    /// The saved history (after [`save_dict_from`](Self::save_dict_from)), or `None` when the
    /// caller holds it.
    pub(crate) fn saved_history(&self) -> Option<&[u8]> {
        (self.held == Held::Saved).then_some(&self.saved[..])
    }

    /// `LZ4_saveDict(64 KiB)`: the last 64 KiB of the history (all of it if shorter) move into
    /// the stream's own buffer, taken from `history` (which ends with the history's bytes when the
    /// caller holds it; its allocation may be swapped with the stream's). Returns how much.
    pub(crate) fn save_dict_from(&mut self, history: &mut Vec<u8>) -> usize {
        if self.held == Held::Caller {
            let keep = self.dict_size.min(MAX_HISTORY);
            history.drain(..history.len() - keep);
            core::mem::swap(&mut self.saved, history);
            // The two buffers take turns: give the caller's as much room as the stream's, so
            // that whichever holds the next block needs no more than the other did.
            let room = self.saved.capacity();
            history.reserve(room.saturating_sub(history.len()));
            self.held = Held::Saved;
        }
        self.dict_size = self.saved.len();
        self.saved.len()
    }

    /// The call itself, with liblz4's state transitions. `src` is the input (for
    /// [`Layout::After`], `buffer[start..]`).
    fn compress(
        &mut self,
        layout: Layout<'_>,
        src: &[u8],
        dst: &mut [u8],
        acceleration: u32,
        dict: Option<&Dictionary>,
    ) -> Result<usize, Error> {
        let len = src.len();
        let acceleration = acceleration.clamp(1, ACCELERATION_MAX);
        self.renormalise(len);
        let contiguous = match layout {
            Layout::After { .. } => self.held == Held::Caller && self.dict_size > 0,
            Layout::Separate | Layout::SeparateFrom { .. } => false,
        };
        // A history too short to hash is dropped unless the input continues it.
        if self.dict_size < TINY_HISTORY && !contiguous && len > 0 && !self.attached {
            self.dict_size = 0;
            self.saved.clear();
            self.held = Held::Saved;
        }
        let base = self.current_offset;
        let result = if contiguous || self.dict_size == 0 && !self.attached {
            // Prefix mode (an empty history included): the history and the input as one slice.
            let (window, start) = match (layout, self.held) {
                (Layout::After { buffer, start }, Held::Caller) => (
                    &buffer[start - self.dict_size.min(MAX_HISTORY)..],
                    self.dict_size.min(MAX_HISTORY),
                ),
                _ => (src, 0),
            };
            if len > 0 {
                self.dict_size += len;
                self.current_offset += len;
                self.held = match layout {
                    Layout::After { .. } | Layout::SeparateFrom { .. } => Held::Caller,
                    Layout::Separate => Held::Saved,
                };
            }
            compress_stream_block(
                &mut self.table,
                StreamHistory::Prefix { window, start },
                base,
                src,
                dst,
                acceleration,
            )
        } else {
            let result = match dict.filter(|_| self.attached) {
                Some(dict) if len > ATTACH_COPY_ABOVE => {
                    // The dictionary's whole state replaces the stream's.
                    self.table.copy_from(dict.table());
                    self.current_offset = Dictionary::BASE + len;
                    self.attached = false;
                    compress_stream_block(
                        &mut self.table,
                        StreamHistory::External(dict.history()),
                        Dictionary::BASE,
                        src,
                        dst,
                        acceleration,
                    )
                }
                Some(dict) => {
                    if len > 0 {
                        self.attached = false;
                        self.current_offset += len;
                    }
                    let history = StreamHistory::Consulted(dict);
                    compress_stream_block(&mut self.table, history, base, src, dst, acceleration)
                }
                None => {
                    if len > 0 {
                        self.current_offset += len;
                    }
                    let history = match (self.held, layout) {
                        (Held::Saved, _) => &self.saved[..],
                        (Held::Caller, Layout::SeparateFrom { history }) => {
                            &history[history.len() - self.dict_size.min(MAX_HISTORY)..]
                        }
                        // Not contiguous with the caller's history: only `compress_into` gets
                        // here with it, and that refuses it.
                        (Held::Caller, _) => &[][..],
                    };
                    compress_stream_block(
                        &mut self.table,
                        StreamHistory::External(history),
                        base,
                        src,
                        dst,
                        acceleration,
                    )
                }
            };
            // The history is now this input.
            self.dict_size = len;
            self.held = Held::Caller;
            if len == 0 {
                self.saved.clear();
                self.held = Held::Saved;
            }
            result
        };
        result
    }

    /// liblz4's `LZ4_renormDictT`: before the indices would pass 2 GiB, move them down so the
    /// next input starts at 64 KiB, forgetting everything further back than that.
    fn renormalise(&mut self, len: usize) {
        if self.current_offset + len > STREAM_INDEX_LIMIT {
            let delta = self.current_offset - MAX_HISTORY;
            self.table.rebase(delta);
            self.current_offset = MAX_HISTORY;
            self.dict_size = self.dict_size.min(MAX_HISTORY);
        }
    }
}

/// A fast-compressor stream: each block may reference the blocks compressed before it (up to
/// 64 KiB back), and is byte-identical to liblz4 1.10's `LZ4_compress_fast_continue` for the same
/// sequence of inputs in the C layout each method names. (liblz4's output depends on where the
/// inputs are in memory: an input that starts where the previous one ended is parsed in "prefix
/// mode", where a match may extend backwards into the previous input and the history keeps
/// growing; any other is parsed in "external dictionary" mode, where it may not and only the
/// previous input is history. The two give different bytes.)
///
/// - [`compress_into`](Self::compress_into): inputs anywhere; equals `LZ4_compress_fast_continue`
///   on each input in its own buffer followed by `LZ4_saveDict(stream, buf, 65536)` (the `lz4`
///   tool's linked blocks). Copies the last 64 KiB of each input (less for shorter inputs).
/// - [`compress_contiguous_into`](Self::compress_contiguous_into): consecutive slices of one
///   buffer, compressed in place (liblz4's prefix mode); copies nothing.
///
/// Blocks decode with a [`StreamDecoder`] (or `LZ4_decompress_safe_continue`), in order.
/// [`with_prepared_dictionary`](Self::with_prepared_dictionary) starts the stream from a
/// prepared [`Dictionary`] (`LZ4_loadDict` on the stream, or `LZ4_attach_dictionary`: the same
/// bytes); only the first
/// block can use it, as in liblz4. The state is 16 KiB of table plus the saved history.
///
/// ```
/// use lz4_simd::block::{self, StreamCompressor, StreamDecoder};
/// let messages = [&b"GET /index.html HTTP/1.1"[..], b"GET /index.htm HTTP/1.1", b""];
/// let mut compressor = StreamCompressor::new();
/// let mut decoder = StreamDecoder::new();
/// for message in messages {
///     let mut block = vec![0u8; block::compress_bound(message.len())];
///     let n = compressor.compress_into(message, &mut block, 1).unwrap();
///     let mut out = vec![0u8; message.len()];
///     assert_eq!(decoder.decompress_into(&block[..n], &mut out).unwrap(), message.len());
///     assert_eq!(out, message);
/// }
/// ```
pub struct StreamCompressor<'d> {
    state: StreamState,
    dictionary: Option<&'d Dictionary>,
}

impl Default for StreamCompressor<'_> {
    fn default() -> Self {
        Self::new()
    }
}

impl core::fmt::Debug for StreamCompressor<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("StreamCompressor")
            .field("history_len", &self.state.dict_size)
            .field("dictionary", &self.dictionary)
            .finish_non_exhaustive()
    }
}

impl<'d> StreamCompressor<'d> {
    /// A fresh stream (`LZ4_createStream`).
    pub fn new() -> Self {
        Self {
            state: StreamState::new(None),
            dictionary: None,
        }
    }

    /// A fresh stream whose first block may reference `dictionary` (`LZ4_loadDict` with the
    /// dictionary in its own buffer, or `LZ4_attach_dictionary`, before the first call). The
    /// dictionary is borrowed, not copied: its prepared table is read in place by inputs up to
    /// 4 KiB and copied (widened into the 16 KiB working table) for larger ones, as liblz4 does.
    ///
    /// ```
    /// use lz4_simd::block::{self, Dictionary, StreamCompressor, StreamDecoder};
    /// let dict_bytes = b"level=info service=billing msg=".repeat(4);
    /// let dict = Dictionary::new(&dict_bytes);
    /// let mut stream = StreamCompressor::with_prepared_dictionary(&dict);
    /// let mut decoder = StreamDecoder::with_dictionary(&dict_bytes);
    /// for _ in 0..2 {
    ///     let entry = b"level=info service=billing msg=charged";
    ///     let mut block = [0u8; 64];
    ///     let n = stream.compress_into(entry, &mut block, 1).unwrap();
    ///     let mut out = [0u8; 64];
    ///     let len = decoder.decompress_into(&block[..n], &mut out).unwrap();
    ///     assert_eq!(&out[..len], entry);
    ///     // Start again from the dictionary (both sides).
    ///     stream.reset();
    ///     decoder.reset();
    /// }
    /// ```
    pub fn with_prepared_dictionary(dictionary: &'d Dictionary) -> Self {
        Self {
            state: StreamState::new(Some(dictionary)),
            dictionary: Some(dictionary),
        }
    }

    /// Back to the state of [`new`](Self::new) (or
    /// [`with_prepared_dictionary`](Self::with_prepared_dictionary) with the same dictionary): the
    /// next block references nothing before it. The output is that of a fresh stream. Without a
    /// dictionary this clears the 16 KiB table; with one it moves the indices past the old ones
    /// instead (liblz4's `LZ4_resetStream_fast` + `LZ4_attach_dictionary`, which gives a fresh
    /// stream's bytes there).
    pub fn reset(&mut self) {
        self.state.reset(self.dictionary);
    }

    /// Starts the stream again from `history` (its last 64 KiB), for inputs that follow it in the
    /// same buffer: equals `LZ4_loadDict(stream, history)` with the next input right after
    /// `history` in memory, so that [`compress_contiguous_into`](Self::compress_contiguous_into)
    /// on `buffer` with `buffer[..start]` ending with `history` continues it in liblz4's prefix
    /// mode (matches may start in `history` and run on into the input). Until
    /// [`reset`](Self::reset), the prepared dictionary is not used. (`lz4` 1.10 compresses linked
    /// blocks in 4 MiB chunks so, each starting from the previous chunk's last 64 KiB.)
    ///
    /// ```
    /// use lz4_simd::block::{self, StreamCompressor};
    /// let text = b"the quick brown fox jumps over the lazy dog; ".repeat(40);
    /// let (history, input) = text.split_at(1000);
    /// let mut stream = StreamCompressor::new();
    /// stream.reset_with_history(history);
    /// let mut block = vec![0u8; block::compress_bound(input.len())];
    /// let n = stream.compress_contiguous_into(&text, 1000, &mut block, 1).unwrap();
    /// let mut out = text[..1000].to_vec();
    /// out.resize(text.len(), 0);
    /// block::decompress_into_with_history(&block[..n], &mut out, 1000).unwrap();
    /// assert_eq!(out, text);
    /// ```
    pub fn reset_with_history(&mut self, history: &[u8]) {
        self.state.load_history(history);
    }

    /// Compresses `src` into `dst` as the next block of the stream, at the given acceleration
    /// (clamped to `1..=65537`), and returns the compressed length. Equals
    /// `LZ4_compress_fast_continue(stream, src, dst, src.len(), dst.len(), acceleration)` with
    /// `src` in its own buffer, followed by `LZ4_saveDict(stream, own_buffer, 65536)`: the block
    /// may reference the previous input (its last 64 KiB; older inputs are forgotten, as in
    /// liblz4's layout), or the dictionary for the first block. Afterwards the last
    /// `min(src.len(), 64 KiB)` bytes of `src` are copied into the stream's history buffer.
    ///
    /// With `dst.len() >= compress_bound(src.len())` this always succeeds. With a smaller `dst`
    /// it gives up exactly where liblz4 does (its room checks are pessimistic: a block that would
    /// just fit can fail) and returns [`Error::OutputTooSmall`]; as in liblz4, `src` is still the
    /// stream's history afterwards (a frame stores such a block raw and goes on). An empty `src`
    /// gives the block `00` and leaves an empty history (liblz4's behaviour). Inputs above
    /// [`MAX_INPUT_SIZE`](super::MAX_INPUT_SIZE) are an error and change nothing.
    ///
    /// Fails with [`Error::InvalidArgument`] after [`compress_contiguous_into`] (whose history is
    /// in the caller's buffer) until [`reset`](Self::reset).
    ///
    /// [`compress_contiguous_into`]: Self::compress_contiguous_into
    pub fn compress_into(
        &mut self,
        src: &[u8],
        dst: &mut [u8],
        acceleration: u32,
    ) -> Result<usize, Error> {
        self.state
            .compress_into(src, dst, acceleration, self.dictionary)
    }

    /// Compresses `buffer[start..]` into `dst` as the next block, the earlier inputs of this
    /// method being the bytes right before it in the same buffer, and returns the compressed
    /// length. Equals `LZ4_compress_fast_continue` on consecutive slices of one C buffer
    /// (liblz4's prefix mode): each block may reference up to 64 KiB of all the inputs before it,
    /// and nothing is copied.
    ///
    /// `buffer[..start]` must end with the inputs given since the stream was created or reset
    /// (at least their last 64 KiB; only those are read): a block that references them decodes
    /// correctly only if they are what the decoder saw. What precedes the first input is ignored.
    /// A `start` shorter than the history the stream needs is [`Error::InvalidArgument`]. After
    /// [`compress_into`](Self::compress_into) the saved history is used (liblz4's
    /// external-dictionary mode for the first slice). Output room as for `compress_into`.
    ///
    /// ```
    /// use lz4_simd::block::{self, StreamCompressor};
    /// let log = b"12:00 ok\n12:01 ok\n12:02 ok\n12:03 fail\n".repeat(30);
    /// let mut compressor = StreamCompressor::new();
    /// let mut blocks = Vec::new();
    /// for start in (0..log.len()).step_by(256) {
    ///     let end = (start + 256).min(log.len());
    ///     let mut block = vec![0u8; block::compress_bound(end - start)];
    ///     let n = compressor.compress_contiguous_into(&log[..end], start, &mut block, 1).unwrap();
    ///     blocks.push(block[..n].to_vec());
    /// }
    /// // Decoding in place: each block with the output before it as history.
    /// let mut out = vec![0u8; log.len()];
    /// let mut at = 0;
    /// for block in &blocks {
    ///     let end = (at + 256).min(log.len());
    ///     at += block::decompress_into_with_history(block, &mut out[..end], at).unwrap();
    /// }
    /// assert_eq!(out, log);
    /// ```
    pub fn compress_contiguous_into(
        &mut self,
        buffer: &[u8],
        start: usize,
        dst: &mut [u8],
        acceleration: u32,
    ) -> Result<usize, Error> {
        self.state
            .compress_contiguous_into(buffer, start, dst, acceleration, self.dictionary)
    }
}

/// Decodes the blocks of a stream ([`StreamCompressor`], `LZ4_compress_fast_continue`,
/// `LZ4_compress_HC_continue`) one after the other, into any buffers (a ring buffer included):
/// identical output to liblz4's `LZ4_decompress_safe_continue` for every stream it decodes.
///
/// It keeps the last 64 KiB of its output (a copy of at most 64 KiB per block, amortised) and
/// decodes each block with it as an external dictionary, read in place by every kernel
/// ([`Decoder::decompress_into_with_dictionary`]). Verdicts are those of that function: a block is
/// checked against the history this decoder has, the last 64 KiB of everything decoded, where
/// liblz4 checks against the buffers the caller happens to use (it may reject an offset reaching
/// into an older, non-adjacent buffer, and does not notice a ring buffer overwriting history).
/// After an error nothing changes: the history is that before the failed block.
///
/// ```
/// use lz4_simd::block::{self, StreamCompressor, StreamDecoder};
/// let mut compressor = StreamCompressor::new();
/// let mut decoder = StreamDecoder::new();
/// let mut ring = [0u8; 64];
/// for round in 0..4 {
///     let line = format!("sensor=7 round={round} reading=21.5C");
///     let mut block = [0u8; 64];
///     let n = compressor.compress_into(line.as_bytes(), &mut block, 1).unwrap();
///     let at = if round % 2 == 0 { 0 } else { 32 };
///     let len = decoder.decompress_into(&block[..n], &mut ring[at..]).unwrap();
///     assert_eq!(&ring[at..at + len], line.as_bytes());
/// }
/// ```
pub struct StreamDecoder {
    decoder: Decoder,
    /// The output so far (at least its last 64 KiB, or the dictionary), `buf[..len]`, followed
    /// by room for the next block: each block is decoded here, behind its history (the fast
    /// loop reads matches in the history as in any block; no external-dictionary steps), then
    /// copied to the caller's buffer. Its length is kept from call to call (no zero-fill per
    /// block), within the bound of [`StreamDecoder::trim`].
    buf: Vec<u8>,
    len: usize,
    /// The dictionary the stream starts from (its last 64 KiB).
    dictionary: Box<[u8]>,
    /// The output length of recent blocks: the largest, halving per call. A
    /// block is first decoded with this much room (at least 64 KiB), see
    /// [`StreamDecoder::decompress_into`].
    recent_out: usize,
}

/// The history slides its last 64 KiB to the front of the buffer once it is longer than this
/// (amortised: one 64 KiB move per 64 KiB decoded at most).
const DECODE_HISTORY_ROOM: usize = 2 * MAX_HISTORY;
/// Room past the history a block is first decoded with, whatever the recent blocks: the
/// common stream's 64 KiB blocks never need a second attempt.
const DECODE_FIRST_ROOM: usize = MAX_HISTORY;
/// Slack the buffer may keep past what [`StreamDecoder::trim`] aims at before it is shrunk.
const DECODE_SLACK: usize = MAX_HISTORY;

impl Default for StreamDecoder {
    fn default() -> Self {
        Self::new()
    }
}

impl core::fmt::Debug for StreamDecoder {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("StreamDecoder")
            .field("history_len", &self.len.min(MAX_HISTORY))
            .finish_non_exhaustive()
    }
}

impl StreamDecoder {
    /// A decoder for a stream with no dictionary, with the detected kernel.
    pub fn new() -> Self {
        Self::with_dictionary(&[])
    }

    /// A decoder for a stream that started from `dictionary` (its last 64 KiB are copied):
    /// `LZ4_setStreamDecode(stream, dictionary, len)`. See
    /// [`StreamCompressor::with_prepared_dictionary`] for an example.
    pub fn with_dictionary(dictionary: &[u8]) -> Self {
        let dictionary: Box<[u8]> =
            dictionary[dictionary.len().saturating_sub(MAX_HISTORY)..].into();
        let mut buf = Vec::with_capacity(DECODE_HISTORY_ROOM);
        buf.extend_from_slice(&dictionary);
        Self {
            decoder: Decoder::new(),
            len: buf.len(),
            buf,
            dictionary,
            recent_out: 0,
        }
    }

    /// The same stream decoder, decoding its blocks with `decoder`: the way to choose a kernel,
    /// which is chosen on [`Decoder::with_kernel`] alone.
    ///
    /// ```
    /// use lz4_simd::block::{Decoder, StreamDecoder};
    /// use lz4_simd::Kernel;
    /// let stream = StreamDecoder::new().with_decoder(Decoder::with_kernel(Kernel::Scalar)?);
    /// # drop(stream);
    /// # Ok::<(), lz4_simd::Error>(())
    /// ```
    pub fn with_decoder(mut self, decoder: Decoder) -> Self {
        self.decoder = decoder;
        self
    }

    /// Back to the state of a new decoder (with the same dictionary); the buffer goes back to
    /// its smallest bound (256 KiB) if it had grown past it.
    pub fn reset(&mut self) {
        self.buf[..self.dictionary.len()].copy_from_slice(&self.dictionary);
        self.len = self.dictionary.len();
        self.recent_out = 0;
        self.trim();
    }

    /// The memory bound: between calls the buffer keeps at most 128 KiB (the history and its
    /// slide room) + the room a block is first decoded with (64 KiB, or the decayed output
    /// length of recent blocks) + 64 KiB of slack. A stream of large blocks keeps its buffer
    /// (no allocation per block); after a large block among small ones the buffer shrinks
    /// back as the recent output length decays (it halves per call). Only the last 64 KiB of
    /// the history are kept, which is all a block can reference.
    fn trim(&mut self) {
        let keep = DECODE_HISTORY_ROOM + self.recent_out.max(DECODE_FIRST_ROOM);
        if self.buf.capacity() <= keep + DECODE_SLACK {
            return;
        }
        let keep_from = self.len.saturating_sub(MAX_HISTORY);
        self.buf.copy_within(keep_from..self.len, 0);
        self.len -= keep_from;
        debug_assert!(self.len <= MAX_HISTORY && self.len <= keep);
        self.buf.truncate(keep);
        self.buf.shrink_to(keep);
    }

    /// Decodes `src` behind the history in the buffer with `room` bytes of output room (the
    /// buffer grown to fit), returning the output length; the history is unchanged (it may
    /// slide to the front of the buffer).
    fn decode_behind_history(&mut self, src: &[u8], room: usize) -> Result<usize, Error> {
        if self.len > DECODE_HISTORY_ROOM - room.min(DECODE_HISTORY_ROOM) {
            // Slide the last 64 KiB to the front.
            let keep_from = self.len.saturating_sub(MAX_HISTORY);
            self.buf.copy_within(keep_from..self.len, 0);
            self.len -= keep_from;
        }
        let needed = self.len + room;
        if self.buf.len() < needed {
            let extra = needed - self.buf.len();
            self.buf
                .try_reserve_exact(extra)
                .map_err(|_| Error::AllocationFailed { bytes: needed })?;
            self.buf.resize(needed, 0);
        }
        self.decoder
            .decompress_into_with_history(src, &mut self.buf[..needed], self.len)
    }

    /// Decodes the next block of the stream into `dst` (its length is the output cap) and
    /// returns the number of bytes written, as `LZ4_decompress_safe_continue(stream, src, dst,
    /// src.len(), dst.len())`. The block may reference the last 64 KiB of everything decoded
    /// before (or of the dictionary). Bytes of `dst` past the returned length are left as they
    /// were; after an error `dst` is untouched and the decoder's history is unchanged.
    ///
    /// The block is decoded behind the decoder's copy of the history, then copied into `dst`:
    /// one copy of the output, no matter where `dst` is (a ring buffer, a new buffer each
    /// time), and no external-dictionary steps in the decoder.
    ///
    /// Memory: the decoder's buffer holds the last 64 KiB of history and room for the block.
    /// The room is first what recent blocks needed (at least 64 KiB); only a block that runs out of
    /// it (a larger one, or a bad one that claims more output) is decoded again with all the room
    /// `dst` and `src` allow, which gives the verdict (a block that decodes with a smaller output
    /// cap decodes to the same bytes with a larger one); any other error is the verdict at once,
    /// as every other check is the same under any cap. Between calls the buffer keeps at most
    /// 256 KiB, or 192 KiB plus the recent blocks' output length: a stream of large blocks reuses
    /// its buffer, and one large block does not make the decoder keep its size for good (it
    /// shrinks back within a few calls, and at [`reset`](Self::reset)).
    pub fn decompress_into(&mut self, src: &[u8], dst: &mut [u8]) -> Result<usize, Error> {
        // No block decodes to more than 255 bytes per input byte (plus its last literals).
        let room = dst.len().min(
            src.len()
                .saturating_mul(super::MAX_EXPANSION)
                .saturating_add(16),
        );
        let first = room.min(self.recent_out.max(DECODE_FIRST_ROOM));
        let mut result = self.decode_behind_history(src, first);
        if first < room && result.as_ref().is_err_and(Error::is_output_overflow) {
            result = self.decode_behind_history(src, room);
        }
        if let Ok(written) = result {
            dst[..written].copy_from_slice(&self.buf[self.len..self.len + written]);
            self.len += written;
        }
        self.recent_out = (*result.as_ref().unwrap_or(&0)).max(self.recent_out / 2);
        self.trim();
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::block::compress_bound;

    fn text(len: usize, seed: u64) -> Vec<u8> {
        let mut state = seed | 1;
        let words = [
            &b"stream "[..],
            b"block ",
            b"index ",
            b"table ",
            b"lz4 ",
            b"\n",
        ];
        let mut out = Vec::with_capacity(len + 8);
        while out.len() < len {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            out.extend_from_slice(words[(state % 6) as usize]);
            if state & 7 == 0 {
                out.push((state >> 40) as u8);
            }
        }
        out.truncate(len);
        out
    }

    /// Renormalisation (liblz4's, before the indices pass 2 GiB) changes no output: a stream
    /// whose indices start just below the limit gives the bytes of one that starts at 64 KiB,
    /// through several renormalisations, in both layouts, and after a reset.
    #[test]
    fn renormalisation_changes_no_output() {
        let data = text(600_000, 7);
        let dict = Dictionary::new(&data[..30_000]);
        for layout_contiguous in [false, true] {
            let mut low = StreamState::new(Some(&dict));
            let mut high = StreamState::new(Some(&dict));
            high.current_offset = STREAM_INDEX_LIMIT - 150_000;
            let mut start = 30_000;
            for (index, len) in [3000usize, 100_000, 0, 3, 70_000, 200_000, 4096, 100_000]
                .into_iter()
                .enumerate()
            {
                let end = start + len;
                let mut a = vec![0u8; compress_bound(len)];
                let mut b = vec![0u8; compress_bound(len)];
                let (ra, rb) = if layout_contiguous {
                    (
                        low.compress_contiguous_into(&data[..end], start, &mut a, 1, Some(&dict)),
                        high.compress_contiguous_into(&data[..end], start, &mut b, 1, Some(&dict)),
                    )
                } else {
                    let src = &data[start..end];
                    (
                        low.compress_into(src, &mut a, 1, Some(&dict)),
                        high.compress_into(src, &mut b, 1, Some(&dict)),
                    )
                };
                let (na, nb) = (ra.unwrap(), rb.unwrap());
                assert_eq!(
                    a[..na],
                    b[..nb],
                    "block {index}, contiguous {layout_contiguous}"
                );
                assert!(high.current_offset <= STREAM_INDEX_LIMIT);
                start = end;
            }
            assert!(
                high.current_offset < STREAM_INDEX_LIMIT - 150_000,
                "never renormalised"
            );
        }
    }

    /// The decoder's memory is bounded: one large block among small ones does not make it keep
    /// a large buffer (it shrinks back within a few calls, and at `reset`), while a stream of
    /// large blocks reuses one buffer; the output is the same either way.
    #[test]
    fn stream_decoder_memory_is_bounded() {
        let data = text(3 << 20, 11);
        let large = 1 << 20;
        let lens = [
            1000usize, 4096, large, 10, 4096, 4096, 4096, 4096, 4096, 4096, 300,
        ];
        let mut compressor = StreamCompressor::new();
        let mut decoder = StreamDecoder::new();
        let mut at = 0;
        let mut dst = vec![0u8; large];
        let mut peak = 0;
        for (i, &len) in lens.iter().enumerate() {
            let src = &data[at..at + len];
            at += len;
            let mut block = vec![0u8; compress_bound(len)];
            let n = compressor.compress_into(src, &mut block, 1).unwrap();
            // The whole of `dst` offered, as a ring buffer's caller does.
            let written = decoder.decompress_into(&block[..n], &mut dst).unwrap();
            assert_eq!(&dst[..written], src, "block {i}");
            peak = peak.max(decoder.buf.capacity());
            let bound = DECODE_HISTORY_ROOM + decoder.recent_out.max(DECODE_FIRST_ROOM);
            assert!(decoder.buf.capacity() <= bound + DECODE_SLACK, "block {i}");
        }
        assert!(peak > large, "the large block needed a large buffer");
        assert!(
            decoder.buf.capacity() <= 256 << 10,
            "kept {} bytes after small blocks",
            decoder.buf.capacity()
        );
        // A stream of large blocks keeps its buffer: no allocation per block.
        let mut compressor = StreamCompressor::new();
        let mut decoder = StreamDecoder::new();
        let mut pointers = Vec::new();
        for (i, src) in data.chunks(large / 2).enumerate() {
            let mut block = vec![0u8; compress_bound(src.len())];
            let n = compressor.compress_into(src, &mut block, 1).unwrap();
            let written = decoder.decompress_into(&block[..n], &mut dst).unwrap();
            assert_eq!(&dst[..written], src, "large block {i}");
            pointers.push(decoder.buf.as_ptr());
        }
        assert!(
            pointers[1..].windows(2).all(|w| w[0] == w[1]),
            "reallocated"
        );
        decoder.reset();
        assert!(decoder.buf.capacity() <= 256 << 10);
        // It still decodes after the reset.
        let src = &data[..5000];
        let mut block = vec![0u8; compress_bound(src.len())];
        let n = StreamCompressor::new()
            .compress_into(src, &mut block, 1)
            .unwrap();
        let written = decoder.decompress_into(&block[..n], &mut dst).unwrap();
        assert_eq!(&dst[..written], src);
    }

    /// Only running out of output room makes the decoder try a block again with all of `dst`'s
    /// room: a corrupt block gets its verdict from the first attempt, in the first room (the
    /// buffer never grows to `dst`'s size for it), and the history is unchanged.
    #[test]
    fn corrupt_block_is_not_decoded_again_with_all_the_room() {
        let mut decoder = StreamDecoder::new();
        let message = text(1000, 3);
        let mut block = vec![0u8; compress_bound(message.len())];
        let n = super::super::compress_into(&message, &mut block, 1).unwrap();
        let mut dst = vec![0u8; 1 << 20];
        assert_eq!(
            decoder.decompress_into(&block[..n], &mut dst).unwrap(),
            1000
        );
        // 3 literals, then a match 65535 back: before the start of everything decoded.
        let mut bad = vec![0x30, b'a', b'b', b'c', 0xff, 0xff];
        bad.resize(1000, 0x00);
        let error = decoder.decompress_into(&bad, &mut dst).unwrap_err();
        assert!(
            matches!(error, Error::OffsetBeforeStart { input_pos: 4, .. }),
            "{error:?}"
        );
        assert!(
            decoder.buf.len() <= 1000 + DECODE_FIRST_ROOM,
            "{}",
            decoder.buf.len()
        );
        // A block that needs more than the first room still decodes.
        let long = text(300_000, 5);
        let mut block = vec![0u8; compress_bound(long.len())];
        let n = super::super::compress_into(&long, &mut block, 1).unwrap();
        let written = decoder.decompress_into(&block[..n], &mut dst).unwrap();
        assert_eq!(&dst[..written], &long[..]);
    }
}
