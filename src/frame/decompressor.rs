//! [`FrameDecompressor`]: the frame decoder without I/O (sans-IO), for `no_std` + `alloc`, async
//! runtimes and any transport. The `std::io` decoder ([`FrameDecoder`](super::FrameDecoder)) is
//! this state machine plus a reader.
//!
//! Memory and copies: the frame module docs, `# Sans-IO`.

use alloc::vec::Vec;

use super::codec::{
    reserve_exact, BlockJob, BlockTarget, DictRule, FrameParser, History, Placement, Sink, Step,
};
use super::header::FrameInfo;
use crate::block::MAX_HISTORY;
use crate::Error;

/// What [`FrameDecompressor::decompress`] did and what it needs next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Bytes of `input` used (the rest was not looked at: hand it in again).
    pub consumed: usize,
    /// Bytes of content written to `output`.
    pub produced: usize,
    /// What the decompressor needs next.
    pub status: Status,
}

/// Where a [`FrameDecompressor`] stands after a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// All the input given was used and no content is waiting: more input is needed (or, if
    /// the input ended, call [`FrameDecompressor::finish`]).
    NeedInput,
    /// `output` is full and more content is waiting: call again with more room. (Also when an
    /// error in the input follows the content written by this call: the next call returns it.)
    OutputFull,
    /// Single-frame mode: the frame ended and all its content was delivered. The input after
    /// the frame was not consumed (plus, after a legacy frame, the 4 bytes of
    /// [`FrameDecompressor::read_ahead`]).
    FrameEnd,
}

/// A frame decoder without I/O: push input, pull content. See the
/// [frame module docs](crate::frame#sans-io).
///
/// It decodes a stream of concatenated frames (LZ4, legacy, skippable), or one frame with
/// [`single_frame`](Self::single_frame), with the checks, errors and error offsets of every other
/// decoder of this crate. An error is latched: every later call returns it again.
///
/// ```
/// use lz4_simd::frame::{self, FrameDecompressor, FrameOptions, Status};
/// let content = b"sans-IO frames ".repeat(1000);
/// let framed = frame::compress(&content, &FrameOptions::new());
/// let mut decompressor = FrameDecompressor::new();
/// let (mut decoded, mut out) = (Vec::new(), [0u8; 1000]);
/// // Input arrives in pieces of 100 bytes; content leaves in pieces of up to 1000.
/// for piece in framed.chunks(100) {
///     let mut piece = piece;
///     loop {
///         let progress = decompressor.decompress(piece, &mut out).unwrap();
///         decoded.extend_from_slice(&out[..progress.produced]);
///         piece = &piece[progress.consumed..];
///         if progress.status == Status::NeedInput {
///             break;
///         }
///     }
/// }
/// decompressor.finish().unwrap(); // the input ended where a stream may end
/// assert_eq!(decoded, content);
/// ```
pub struct FrameDecompressor {
    pub(crate) parser: FrameParser,
    /// The unit the parser needs next is gathered in `unit[..parser.need()]`; `unit[..unit_len]`
    /// holds what arrived of it so far. Kept at its largest length (no zero-fill per unit).
    unit: Vec<u8>,
    unit_len: usize,
    pub(crate) output: Output,
}

impl Default for FrameDecompressor {
    fn default() -> Self {
        Self::new()
    }
}

impl core::fmt::Debug for FrameDecompressor {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("FrameDecompressor")
            .field("input_pos", &self.input_pos())
            .field("frame_info", &self.frame_info())
            .field("failure", &self.parser.failure())
            .finish_non_exhaustive()
    }
}

impl FrameDecompressor {
    /// A decompressor for frames without a dictionary (a frame naming one is an error).
    pub fn new() -> Self {
        Self::with_parts(DictRule::None, Vec::new())
    }

    /// A decompressor for frames compressed with the dictionary `dict` whose ID is `dict_id`
    /// (checked against each frame's header; a frame naming no ID is decoded with `dict`).
    pub fn with_dictionary(dict: &[u8], dict_id: u32) -> Self {
        Self::with_parts(DictRule::Id(dict_id), dict_tail(dict))
    }

    /// A decompressor whose dictionary `dict` serves every frame, whatever dictionary ID (or
    /// none) its header names, as the `lz4` command's `-D` does.
    pub fn with_any_dictionary(dict: &[u8]) -> Self {
        Self::with_parts(DictRule::AnyId, dict_tail(dict))
    }

    fn with_parts(rule: DictRule, dict: Vec<u8>) -> Self {
        let mut parser = FrameParser::new(rule);
        // The content checksum hashes a large block's content as it is taken (`consume`), right
        // after the caller's copy read it: a block larger than the cache is not read from afar
        // twice. A smaller block is hashed as it is decoded, from the cache it was written to.
        parser.set_caller_hashes_from(CALLER_HASHES_FROM);
        Self {
            parser,
            unit: Vec::new(),
            unit_len: 0,
            output: Output::new(dict),
        }
    }

    /// Single-frame mode (off by default): stop at the end of the first frame (an LZ4 frame
    /// after its end mark and content checksum, a skippable frame after its payload, a legacy
    /// frame at the input's end or at the next frame's magic number, see
    /// [`read_ahead`](Self::read_ahead)) and consume nothing after it, for formats that embed a
    /// frame in other data. Set it before the first call.
    pub fn single_frame(mut self, on: bool) -> Self {
        self.parser.set_single_frame(on);
        self
    }

    /// Verify block and content checksums (on by default). Off, checksums are read and
    /// skipped and the content checksum is not computed: only for data whose integrity is
    /// ensured otherwise. Every structural check (sizes, the declared content size, the
    /// dictionary ID, the block decoder's checks) still applies. Set it before the first call.
    pub fn verify_checksums(mut self, on: bool) -> Self {
        self.parser.set_verify_checksums(on);
        self
    }

    /// Read legacy frames as the Linux kernel does (off by default, as in `lz4`, which refuses
    /// both forms below; the kernel accepts them):
    ///
    /// - A kernel image's trailer after a legacy frame: a little-endian u32 equal to the
    ///   content size of the whole stream (every frame's content so far, as
    ///   `container::linux::decompress` checks it; for a kernel image, one legacy frame's),
    ///   then zero padding, to the end of the input. A word equal to the content size that is
    ///   followed by anything but zeros stays a block size.
    /// - Zero padding after a legacy frame (initrds that a boot loader pads and aligns): where
    ///   a block size is read, 1 to 3 bytes left that are all zeros end the input, and a block
    ///   size of 0 starts padding, zeros up to the end of the input or up to another legacy
    ///   frame's magic number. Anything else there (a nonzero byte, another kind of frame) is
    ///   an error at its offset.
    ///
    /// Set it before the first call. (The one-shot form is `container::linux::decompress`.)
    pub fn kernel_trailer(mut self, on: bool) -> Self {
        self.parser.set_legacy_trailer(on);
        self
    }

    /// The descriptor of the LZ4 frame being decoded, if inside one.
    pub fn frame_info(&self) -> Option<&FrameInfo> {
        self.parser.frame_info()
    }

    /// Bytes of input taken so far (what the error offsets count from).
    pub fn input_pos(&self) -> u64 {
        self.parser.input_pos() + self.unit_len as u64
    }

    /// Single-frame mode: whether the frame ended and all its content was delivered.
    pub fn is_finished(&self) -> bool {
        self.parser.is_done() && self.pending().is_empty()
    }

    /// Single-frame mode, after a legacy frame that ended at the next frame's magic number: the
    /// 4 bytes of that magic number, which the decompressor had to read (they were consumed) but
    /// which belong to what follows the frame.
    pub fn read_ahead(&self) -> Option<[u8; 4]> {
        self.parser.read_ahead()
    }

    /// The input taken but not decoded: the 4 bytes of [`read_ahead`](Self::read_ahead), then a
    /// partly gathered unit. After a single frame these (then the input not yet handed in) are
    /// what follows the frame.
    pub fn unused_input(&self) -> Vec<u8> {
        let mut unused = Vec::new();
        if let Some(magic) = self.read_ahead() {
            unused.extend_from_slice(&magic);
        }
        unused.extend_from_slice(&self.unit[..self.unit_len]);
        unused
    }

    /// Decoded content not yet taken (by [`decompress`](Self::decompress) or
    /// [`consume`](Self::consume)).
    pub fn pending(&self) -> &[u8] {
        &self.output.buf[self.output.out_pos..self.output.out_end]
    }

    /// Marks the first `amount` bytes of [`pending`](Self::pending) as taken (all of it, if
    /// `amount` is more).
    ///
    /// The frame's content checksum is computed over the content as it is taken here, in
    /// order, so that it is read from the cache right after the caller's copy of it (take
    /// large pending content in pieces of a few KiB, copying then consuming each, to keep them
    /// in the L1 cache).
    #[inline]
    pub fn consume(&mut self, amount: usize) {
        let output = &mut self.output;
        let end = output.out_pos.saturating_add(amount).min(output.out_end);
        output.out_pos = end;
        // Hashed in batches of at least `HASH_BATCH` (small takes cost no hash call each), and
        // all of it once the block's content is taken, before the parser may see the next unit.
        if end - output.hashed >= HASH_BATCH || end == output.out_end {
            self.parser.hash_content(&output.buf[output.hashed..end]);
            output.hashed = end;
        }
    }

    /// Copies pending content into `out` (as much as fits), a piece of at most
    /// [`HAND_OUT_PIECE`] at a time while the content is to be hashed, each consumed (hashed)
    /// right after its copy. Returns the bytes copied.
    pub(crate) fn take_into(&mut self, out: &mut [u8]) -> usize {
        let piece = self.hand_out_piece();
        let mut taken = 0;
        loop {
            let pending = self.pending();
            let n = pending.len().min(out.len() - taken).min(piece);
            if n == 0 {
                return taken;
            }
            out[taken..taken + n].copy_from_slice(&pending[..n]);
            self.consume(n);
            taken += n;
        }
    }

    #[cfg(feature = "std")]
    /// Appends all pending content to `buf` as [`take_into`](Self::take_into) copies it (in
    /// pieces, each hashed after its copy).
    pub(crate) fn take_append(&mut self, buf: &mut Vec<u8>) -> Result<usize, Error> {
        let len = self.pending().len();
        buf.try_reserve(len).map_err(|_| Error::AllocationFailed {
            bytes: buf.len().saturating_add(len),
        })?;
        let piece = self.hand_out_piece();
        while !self.pending().is_empty() {
            let pending = self.pending();
            let n = pending.len().min(piece);
            buf.extend_from_slice(&pending[..n]);
            self.consume(n);
        }
        Ok(len)
    }

    /// The most content to copy out before consuming it: [`HAND_OUT_PIECE`] while `consume`
    /// hashes it, else all of it at once.
    #[inline]
    pub(crate) fn hand_out_piece(&self) -> usize {
        if self.parser.owes_hash() {
            HAND_OUT_PIECE
        } else {
            usize::MAX
        }
    }

    /// Pushes `input` and writes content into `output`; see [`Progress`] and [`Status`].
    ///
    /// Content already decoded is delivered first; then input is taken one unit (a header, a
    /// block) at a time, and each block is decoded once its unit is complete. The call returns
    /// when `output` is full, when the input given is used up, or when a single frame ended.
    pub fn decompress(&mut self, input: &[u8], output: &mut [u8]) -> Result<Progress, Error> {
        let mut consumed = 0;
        let mut produced = 0;
        loop {
            produced += self.take_into(&mut output[produced..]);
            if !self.pending().is_empty() {
                return Ok(self.progress(consumed, produced, Status::OutputFull));
            }
            if let Some(error) = self.parser.failure() {
                return Err(error.clone());
            }
            if self.parser.is_done() {
                return Ok(self.progress(consumed, produced, Status::FrameEnd));
            }
            if self.unit_len == 0 {
                consumed += self.parser.skip_padding(&input[consumed..]);
            }
            let need = self.parser.need();
            let rest = &input[consumed..];
            if self.unit_len == 0 && rest.len() >= need {
                // The whole unit is in the caller's slice: decode it from there.
                consumed += need;
                if let Err(error) = self.process(&rest[..need], None) {
                    return self.after_error(error, consumed, produced);
                }
                continue;
            }
            let take = (need - self.unit_len).min(rest.len());
            if take == 0 {
                return Ok(self.progress(consumed, produced, Status::NeedInput));
            }
            self.input_space()?[..take].copy_from_slice(&rest[..take]);
            consumed += take;
            if let Err(error) = self.input_filled(take) {
                return self.after_error(error, consumed, produced);
            }
        }
    }

    /// An error met after this call wrote content to `output`: that content is reported first
    /// (with [`Status::OutputFull`]: call again), and the latched error by the next call, as a
    /// reader hands out what it decoded before an error.
    fn after_error(
        &self,
        error: Error,
        consumed: usize,
        produced: usize,
    ) -> Result<Progress, Error> {
        if produced == 0 {
            return Err(error);
        }
        Ok(self.progress(consumed, produced, Status::OutputFull))
    }

    fn progress(&self, consumed: usize, produced: usize, status: Status) -> Progress {
        Progress {
            consumed,
            produced,
            status,
        }
    }

    /// The input ended: `Ok` if it ended where a stream may end (between frames, after a
    /// legacy block, or after the single frame) with all content delivered, else the error
    /// ([`Error::FrameTruncated`] naming what is missing, also for an empty input). Content
    /// not yet taken is an error too ([`Error::InvalidArgument`]): take it first.
    pub fn finish(&mut self) -> Result<(), Error> {
        if !self.pending().is_empty() {
            return Err(Error::InvalidArgument {
                what: "finish called with decoded content not yet taken",
            });
        }
        if self.parser.is_done() {
            return Ok(());
        }
        match self.process_unit(self.unit_len, None)? {
            Step::End => Ok(()),
            // Unreachable: a shorter unit than needed either ends the stream or fails.
            _ => Err(Error::InvalidArgument {
                what: "the decompressor was finished in the middle of a unit",
            }),
        }
    }

    /// Where the next input goes, for adapters that read into the decompressor's own buffer
    /// (no copy): the rest of the unit the parser needs next. Fill a prefix of it, then call
    /// [`input_filled`](Self::input_filled). Empty when content is pending, when single-frame
    /// mode is done, or after an error.
    pub fn input_space(&mut self) -> Result<&mut [u8], Error> {
        if let Some(error) = self.parser.failure() {
            return Err(error.clone());
        }
        if !self.pending().is_empty() || self.parser.is_done() {
            return Ok(&mut []);
        }
        let need = self.parser.need();
        if self.unit.len() < need {
            let extra = need - self.unit.len();
            reserve_exact(&mut self.unit, extra)?;
            self.unit.resize(need, 0);
        }
        Ok(&mut self.unit[self.unit_len..need])
    }

    /// Records that the first `filled` bytes of [`input_space`](Self::input_space) hold input,
    /// and decodes the unit once it is complete. More than the space offered is an error.
    pub fn input_filled(&mut self, filled: usize) -> Result<(), Error> {
        if let Some(error) = self.parser.failure() {
            return Err(error.clone());
        }
        let need = self.parser.need();
        // What `input_space` offered: nothing while content is pending or once done.
        let offered = if !self.pending().is_empty() || self.parser.is_done() {
            0
        } else {
            need.saturating_sub(self.unit_len)
        };
        if filled > offered || self.unit.len() < self.unit_len + filled {
            return Err(self.parser.fail(Error::InvalidArgument {
                what: "more input was reported filled than the decompressor offered room for",
            }));
        }
        self.unit_len += filled;
        if self.unit_len == need && self.pending().is_empty() {
            self.process_unit(need, None)?;
        }
        Ok(())
    }

    #[cfg(feature = "std")]
    /// [`input_filled`](Self::input_filled) without decoding (the blocking decoder decodes the
    /// unit itself, maybe straight into the caller's `Vec`). `filled` was checked by the caller
    /// against the space it was given.
    pub(crate) fn note_filled(&mut self, filled: usize) {
        self.unit_len += filled;
    }

    /// Decodes `unit[..len]` (a whole unit, or a short one at the end of the input).
    pub(crate) fn process_unit(
        &mut self,
        len: usize,
        direct: Option<&mut Vec<u8>>,
    ) -> Result<Step, Error> {
        let mut sink = StreamSink {
            output: &mut self.output,
            direct,
        };
        let result = self.parser.process(&self.unit[..len], &mut sink);
        self.unit_len = 0;
        result
    }

    /// Decodes `unit` (a whole unit from the caller's slice).
    fn process(&mut self, unit: &[u8], direct: Option<&mut Vec<u8>>) -> Result<Step, Error> {
        let mut sink = StreamSink {
            output: &mut self.output,
            direct,
        };
        self.parser.process(unit, &mut sink)
    }

    #[cfg(feature = "std")]
    /// Whether a whole unit is gathered (the blocking decoder's loop).
    pub(crate) fn unit_complete(&self) -> bool {
        self.unit_len == self.parser.need()
    }

    #[cfg(feature = "std")]
    /// Bytes of the current unit gathered so far.
    pub(crate) fn unit_len(&self) -> usize {
        self.unit_len
    }
}

/// The most content copied out before it is hashed (see [`FrameDecompressor::consume`]): a
/// piece well within the L1 cache, hashed from there right after its copy.
pub(crate) const HAND_OUT_PIECE: usize = 16 << 10;

/// The least content taken at a time that [`FrameDecompressor::consume`] hashes at once (it
/// waits for more, or for the block's end, otherwise): still in the L1 cache when it is hashed.
const HASH_BATCH: usize = 4 << 10;

/// `read_to_end` decodes a block that needs no history straight into its `Vec` only when the
/// block may produce less than this. Larger blocks decode faster into the decompressor's (warm)
/// buffer, then are copied out and hashed in pieces: 4 MiB blocks 1.12x -> 1.54x LZ4F's speed,
/// 1 MiB blocks 1.30x -> 1.43x (Silesia, thread CPU time); for 64 KiB and 256 KiB blocks the
/// direct path is faster (1.39-1.48x against 1.34x, 1.51x against 1.41x).
const DIRECT_BELOW: usize = 1 << 20;

/// Blocks of at least this much content are hashed for the content checksum as they are taken;
/// smaller ones (which stay in the L2 cache) as they are decoded.
const CALLER_HASHES_FROM: usize = 1 << 20;

/// The last 64 KiB of a dictionary: all a block may reference.
fn dict_tail(dict: &[u8]) -> Vec<u8> {
    dict[dict.len().saturating_sub(MAX_HISTORY)..].to_vec()
}

/// Decoded content waiting to be taken, and the history of the next block.
pub(crate) struct Output {
    /// The last 64 KiB of the dictionary.
    dict: Vec<u8>,
    /// History (linked blocks, dictionary) followed by the current block's content. Kept at its
    /// largest size (stale bytes past `buf_len` are overwritten by the next block), so decoding
    /// a block costs no zero-fill.
    buf: Vec<u8>,
    /// End of the meaningful part of `buf`.
    buf_len: usize,
    /// `buf[out_pos..out_end]` is content not yet taken.
    pub(crate) out_pos: usize,
    pub(crate) out_end: usize,
    /// `buf[..hashed]` of the current block's content was handed to the parser's content
    /// checksum (`out_pos..out_end` lies after it; see [`FrameDecompressor::consume`]).
    hashed: usize,
    /// Whether `buf` starts with the dictionary.
    dict_in_front: bool,
}

impl Output {
    /// Empty buffers; `dict` is the last 64 KiB of the dictionary.
    pub(crate) fn new(dict: Vec<u8>) -> Self {
        Self {
            dict,
            buf: Vec::new(),
            buf_len: 0,
            out_pos: 0,
            out_end: 0,
            hashed: 0,
            dict_in_front: false,
        }
    }

    #[cfg(any(test, feature = "parallel"))]
    /// Content decoded and not taken yet.
    pub(crate) fn unread(&self) -> &[u8] {
        &self.buf[self.out_pos..self.out_end]
    }

    #[cfg(any(test, feature = "parallel"))]
    /// Marks `amount` bytes of [`unread`](Self::unread) as taken.
    pub(crate) fn consume(&mut self, amount: usize) {
        self.out_pos = (self.out_pos + amount).min(self.out_end);
    }

    /// Grows `buf` to at least `len` bytes.
    fn grow(&mut self, len: usize) -> Result<(), Error> {
        if self.buf.len() < len {
            let extra = len - self.buf.len();
            reserve_exact(&mut self.buf, extra)?;
            self.buf.resize(len, 0);
        }
        Ok(())
    }

    /// Puts the dictionary at the front of `buf` (if it is not there) and returns its length.
    fn dict_in_front(&mut self) -> Result<usize, Error> {
        let dict_len = self.dict.len();
        if !self.dict_in_front {
            self.grow(dict_len)?;
            self.buf[..dict_len].copy_from_slice(&self.dict);
            self.dict_in_front = true;
        }
        Ok(dict_len)
    }

    /// Decodes the block into `buf`, behind its history.
    fn decode(
        &mut self,
        job: &BlockJob<'_>,
        target: &BlockTarget,
        room: usize,
    ) -> Result<&[u8], Error> {
        let start = match job.history {
            History::None => {
                self.dict_in_front &= self.dict.is_empty();
                0
            }
            History::Dict => self.dict_in_front()?,
            History::Linked if job.frame_produced == 0 => self.dict_in_front()?,
            History::Linked => {
                // `buf[..buf_len]` is the dictionary and this frame's content: keep the last
                // 64 KiB of it.
                let excess = self.buf_len.saturating_sub(MAX_HISTORY);
                if excess > 0 {
                    self.buf.copy_within(excess..self.buf_len, 0);
                    self.dict_in_front = false;
                }
                self.buf_len - excess
            }
        };
        self.grow(start + room)?;
        let len = job.block.decode_at(&mut self.buf, start, room, target)?;
        self.out_pos = start;
        self.hashed = start;
        self.out_end = start + len;
        self.buf_len = self.out_end;
        Ok(&self.buf[start..self.out_end])
    }
}

/// The decompressor's sink: blocks that need no history go straight onto the end of the
/// caller's `Vec` when `read_to_end` gives one with room for them; others are decoded into the
/// decompressor's buffer.
pub(crate) struct StreamSink<'a> {
    pub(crate) output: &'a mut Output,
    pub(crate) direct: Option<&'a mut Vec<u8>>,
}

impl Sink for StreamSink<'_> {
    fn decode(&mut self, job: &BlockJob<'_>) -> Result<&[u8], Error> {
        Ok(self.decode_placed(job)?.0)
    }

    /// A block decoded straight onto the end of `read_to_end`'s `Vec` is
    /// [`Placement::Appended`]: no hand-out follows it, so the parser hashes it.
    fn decode_placed(&mut self, job: &BlockJob<'_>) -> Result<(&[u8], Placement), Error> {
        let target = BlockTarget::uncapped(job.block_max);
        let room = job.block.room(&target)?;
        if let (History::None, Some(out)) = (job.history, self.direct.as_deref_mut()) {
            // Only into room the `Vec` already has: a `Vec` sized for the content is not
            // doubled for the last block's worst case. Only a block smaller than
            // `DIRECT_BELOW`: a larger one decodes faster into the warm buffer and is copied
            // out in pieces, each hashed for the content checksum right after its copy.
            if out.capacity() - out.len() >= room && room < DIRECT_BELOW {
                let from = out.len();
                job.block
                    .append_to(out, 0, room)
                    .map_err(|error| job.block.error(error, &target, room))?;
                self.output.out_pos = 0;
                self.output.out_end = 0;
                self.output.hashed = 0;
                return Ok((&out[from..], Placement::Appended));
            }
        }
        Ok((self.output.decode(job, &target, room)?, Placement::Pending))
    }
}
