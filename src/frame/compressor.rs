//! [`FrameCompressor`]: the frame encoder without I/O (sans-IO), for `no_std` + `alloc`, async
//! runtimes and any transport. The `std::io` encoder ([`FrameEncoder`](super::FrameEncoder)) and
//! the async ones are this state machine plus a writer.
//!
//! Memory and copies: the frame module docs, `# Sans-IO`.

use alloc::boxed::Box;
use alloc::vec::Vec;

use super::decompressor::{Progress, Status};
use super::encode::{frame_layout, BlockWriter, Source};
use super::header::{encode_header, MAX_HEADER_LEN};
use super::{BlockMode, BlockSize, FrameOptions};
use crate::block::Dictionary;
use crate::Error;

/// The end mark and the content checksum.
const END_LEN: usize = 8;

/// A frame encoder without I/O: push content, pull compressed bytes. See the
/// [frame module docs](crate::frame#sans-io).
///
/// Its frames are byte for byte LZ4F's (liblz4 1.10's frame API) for the same calls: each run of
/// [`compress`](Self::compress) calls that hands in one input (up to the call that returns
/// [`Status::NeedInput`]), and each [`take_input`](Self::take_input), is one
/// `LZ4F_compressUpdate`, each [`flush`](Self::flush) one `LZ4F_flush`, and
/// [`auto_flush`](Self::auto_flush) is LZ4F's preference. In independent mode that is the frame of
/// [`compress`](super::compress) for the same content and options (unless a block is ended
/// early), and so that of the `lz4` tool. Linked blocks depend on the updates, as LZ4F's do:
/// blocks that follow each other in one input, or that are gathered from smaller inputs, continue
/// the history in place (liblz4's prefix mode), which gives other bytes than
/// [`compress`](super::compress)'s blocks, each compressed apart as the `lz4` tool does; with
/// inputs of whole blocks and auto-flush, the frames are the same.
///
/// ```
/// use lz4_simd::frame::{self, FrameCompressor, FrameOptions, Status};
/// let content = b"sans-IO compression ".repeat(1000);
/// let mut compressor = FrameCompressor::new();
/// let (mut framed, mut out) = (Vec::new(), [0u8; 512]);
/// for piece in content.chunks(300) {
///     let mut piece = piece;
///     loop {
///         let progress = compressor.compress(piece, &mut out).unwrap();
///         framed.extend_from_slice(&out[..progress.produced]);
///         piece = &piece[progress.consumed..];
///         if progress.status == Status::NeedInput {
///             break;
///         }
///     }
/// }
/// loop {
///     let progress = compressor.finish(&mut out).unwrap();
///     framed.extend_from_slice(&out[..progress.produced]);
///     if progress.status == Status::FrameEnd {
///         break;
///     }
/// }
/// assert_eq!(framed, frame::compress(&content, &FrameOptions::new()));
/// ```
pub struct FrameCompressor {
    options: FrameOptions,
    blocks: BlockWriter,
    /// The input gathered for the next block (the block compressors keep any history they
    /// need themselves, so nothing is kept in front of it).
    gathered: Vec<u8>,
    block_len: usize,
    /// Compressed output not taken yet (the header, blocks, the end mark).
    staging: Stager,
    /// The end mark (and content checksum) is staged: the frame takes no more input.
    finished: bool,
    consumed: u64,
    /// Every call that takes input ends a block (see [`auto_flush`](Self::auto_flush)).
    auto_flush: bool,
    /// The dictionary, kept to build the linked blocks' stream again for the next frame
    /// ([`reset`](Self::reset)); `None` without a dictionary or with independent blocks (whose
    /// block writer keeps its own).
    kept_dictionary: Option<Box<KeptDictionary>>,
}

/// A linked frame's dictionary, as it was given.
struct KeptDictionary {
    bytes: Vec<u8>,
    prepared: Option<Dictionary>,
}

impl core::fmt::Debug for FrameCompressor {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("FrameCompressor")
            .field("options", &self.options)
            .field("consumed", &self.consumed)
            .field("finished", &self.finished)
            .finish_non_exhaustive()
    }
}

impl Default for FrameCompressor {
    fn default() -> Self {
        Self::new()
    }
}

impl FrameCompressor {
    /// A compressor for one frame with the default options ([`FrameOptions::default`]).
    pub fn new() -> Self {
        Self::with_options(FrameOptions::default())
    }

    /// A compressor for one frame with `options`.
    pub fn with_options(options: FrameOptions) -> Self {
        Self::with_dictionary(options, &[])
    }

    /// A compressor whose blocks may reference the last 64 KiB of `dict` (every block in
    /// independent mode, the start of the content in linked mode); at the fast levels the frame
    /// is that of `lz4 -D dict` 1.9.4 (see
    /// [`compress_with_dictionary`](super::compress_with_dictionary)). Set
    /// [`FrameOptions::dict_id`] so decoders can tell which dictionary they need.
    pub fn with_dictionary(options: FrameOptions, dict: &[u8]) -> Self {
        Self::with_dictionary_parts(options, dict, None)
    }

    /// [`with_dictionary`](Self::with_dictionary) with a dictionary prepared once (see
    /// [`compress_with_prepared_dictionary`](super::compress_with_prepared_dictionary)).
    pub fn with_prepared_dictionary(options: FrameOptions, dict: &Dictionary) -> Self {
        Self::with_dictionary_parts(options, dict.as_bytes(), Some(dict))
    }

    /// A compressor for one frame whose linked blocks start from `dict` (its last 64 KiB)
    /// loaded into their stream, as liblz4's LZ4F does for `LZ4F_compressBegin_usingDict`
    /// (`LZ4_loadDict` at the fast levels, `LZ4_loadDictHC` at the HC ones, which also stops
    /// favouring decoding speed), rather than attached as
    /// [`with_dictionary`](Self::with_dictionary) does. Independent blocks do not use it (as
    /// LZ4F's). For the C ABI: [`reset`](Self::reset) forgets the HC dictionary.
    #[doc(hidden)]
    pub fn with_loaded_dictionary(options: FrameOptions, dict: &[u8]) -> Self {
        match (options.block_mode, options.hc_level) {
            (BlockMode::Independent, _) => Self::with_options(options),
            (BlockMode::Linked, None) => {
                Self::with_prepared_dictionary(options, &Dictionary::new(dict))
            }
            (BlockMode::Linked, Some(_)) => {
                let mut compressor = Self::with_options(options);
                compressor.blocks.load_hc_dictionary(dict);
                compressor
            }
        }
    }

    fn with_dictionary_parts(
        options: FrameOptions,
        dict: &[u8],
        prepared: Option<&Dictionary>,
    ) -> Self {
        let blocks = BlockWriter::with_dictionary(&options, options.block_mode, dict, prepared);
        let block_len = options.block_size.bytes();
        // A prepared dictionary is kept even when empty: it starts the stream 64 KiB in.
        let kept_dictionary = (options.block_mode == BlockMode::Linked
            && (!dict.is_empty() || prepared.is_some()))
        .then(|| {
            Box::new(KeptDictionary {
                bytes: dict.to_vec(),
                prepared: prepared.cloned(),
            })
        });
        Self {
            blocks,
            options,
            gathered: Vec::with_capacity(block_len),
            block_len,
            staging: Stager::default(),
            finished: false,
            consumed: 0,
            auto_flush: false,
            kept_dictionary,
        }
    }

    /// Starts a new frame with the same options, dictionary and auto-flush setting, keeping the
    /// buffers and the block compressors' memory (for many frames, such as one per message or
    /// per page: once it has written a frame of each shape, one block and several, a reset and
    /// the next frame allocate nothing, linked blocks and dictionaries included; a linked writer
    /// that has written a one-block frame keeps both its linked and its independent compressor
    /// for this). Each frame is byte for byte the frame a new compressor writes, as a new LZ4F
    /// context's; a reused LZ4F context (or `lz4 -m` over several files) can write other bytes
    /// for fast linked frames, its table surviving the reset. A frame in progress is abandoned: its input and
    /// any output not taken yet are dropped, so take [`pending_output`](Self::pending_output)
    /// and call [`finish`](Self::finish) first to keep it.
    ///
    /// ```
    /// use lz4_simd::frame::{self, FrameCompressor, FrameOptions, Status};
    /// let mut compressor = FrameCompressor::new();
    /// let mut out = vec![0u8; 1024];
    /// for message in [&b"first message"[..], b"second message"] {
    ///     compressor.reset();
    ///     let taken = compressor.compress(message, &mut out).unwrap();
    ///     let mut len = taken.produced;
    ///     let end = compressor.finish(&mut out[len..]).unwrap();
    ///     assert_eq!(end.status, Status::FrameEnd);
    ///     len += end.produced;
    ///     assert_eq!(out[..len], frame::compress(message, &FrameOptions::new())[..]);
    /// }
    /// ```
    pub fn reset(&mut self) {
        if !self.blocks.reset(&self.options) {
            let (dict, prepared) = match self.kept_dictionary.as_deref() {
                Some(kept) => (&kept.bytes[..], kept.prepared.as_ref()),
                None => (&[][..], None),
            };
            self.blocks = BlockWriter::with_dictionary(
                &self.options,
                self.options.block_mode,
                dict,
                prepared,
            );
            self.blocks.set_auto_flush(self.auto_flush);
        }
        self.gathered.clear();
        self.staging.clear();
        // Reused: staging grows once to the most a frame stages, not frame by frame.
        self.staging
            .set_least_room(MAX_HEADER_LEN + BlockWriter::block_room(self.block_len) + END_LEN);
        self.finished = false;
        self.consumed = 0;
    }

    /// Auto-flush (off by default): every call that takes input ends a block with it, so
    /// everything handed in can be decoded from the output at once (for messages and logs that
    /// must not wait for a full block), at some cost in ratio for small writes. It is LZ4F's
    /// preference, set before the frame's first input; switched on later, the next call that
    /// takes input ends the block in progress with it.
    pub fn auto_flush(mut self, on: bool) -> Self {
        self.set_auto_flush(on);
        self
    }

    /// [`auto_flush`](Self::auto_flush) on a compressor in place (the parallel encoder's option
    /// reaches the single-threaded encoders it holds through it).
    pub(crate) fn set_auto_flush(&mut self, on: bool) {
        self.auto_flush = on;
        self.blocks.set_auto_flush(on);
    }

    /// The frame's options.
    pub fn options(&self) -> &FrameOptions {
        &self.options
    }

    /// Content bytes taken so far.
    pub fn consumed(&self) -> u64 {
        self.consumed
    }

    /// Whether the frame is complete: its end was staged ([`end_frame`](Self::end_frame) or
    /// [`finish`](Self::finish)) and every byte of it was taken.
    pub fn is_finished(&self) -> bool {
        self.finished && self.pending_output().is_empty()
    }

    /// Compressed bytes waiting to be taken (zero-copy adapters write them from here, then
    /// call [`consume_output`](Self::consume_output)).
    pub fn pending_output(&self) -> &[u8] {
        self.staging.pending()
    }

    /// Marks the first `amount` bytes of [`pending_output`](Self::pending_output) as taken.
    pub fn consume_output(&mut self, amount: usize) {
        self.staging.consume(amount);
    }

    /// Takes content: at most what completes the current block, and nothing while compressed
    /// output is pending (take it first); returns how much was taken. A completed block is
    /// compressed at once into [`pending_output`](Self::pending_output). After the frame's end
    /// this is an [`Error::InvalidArgument`].
    ///
    /// Each call is one `LZ4F_compressUpdate` of what it takes: linked blocks are those of LZ4F
    /// for the same sequence of updates.
    pub fn take_input(&mut self, input: &[u8]) -> Result<usize, Error> {
        self.end_update();
        let taken = self.take(input);
        self.end_update();
        taken
    }

    /// Ends the update in progress, if any (see [`BlockWriter::end_update`]).
    fn end_update(&mut self) {
        self.blocks.end_update(self.auto_flush);
    }

    /// [`take_input`](Self::take_input) within the current update.
    fn take(&mut self, input: &[u8]) -> Result<usize, Error> {
        if self.finished {
            return Err(Error::InvalidArgument {
                what: "the frame is finished: no more input can be written to it",
            });
        }
        if input.is_empty() || !self.pending_output().is_empty() {
            return Ok(0);
        }
        let taken = if self.gathered.is_empty() && input.len() >= self.block_len {
            // Nothing gathered: a whole block is compressed where it is, without gathering it
            // first.
            self.stage_block(&input[..self.block_len], Source::Input);
            self.block_len
        } else {
            let pending = self.gathered.len();
            let take = input.len().min(self.block_len - pending);
            self.gathered.extend_from_slice(&input[..take]);
            if self.auto_flush {
                // LZ4F compresses an update's rest from the input itself: with auto-flush,
                // nothing is left gathered between updates, unless auto-flush was switched on
                // after input was gathered; the block in progress then ends with this input, as
                // gathered.
                self.stage_pending(if pending == 0 {
                    Source::Input
                } else {
                    Source::Gathered
                });
            } else if pending + take == self.block_len {
                self.stage_pending(Source::Gathered);
            }
            take
        };
        self.consumed += taken as u64;
        Ok(taken)
    }

    /// Ends the current block (if any content is pending), so everything taken so far can be
    /// decoded from the output; its bytes join [`pending_output`](Self::pending_output).
    pub fn end_block(&mut self) {
        if !self.finished {
            self.end_update();
            if !self.gathered.is_empty() {
                self.stage_pending(Source::Gathered);
                self.blocks.end_flush();
                self.end_update();
            }
        }
    }

    /// Stages `content` (1 byte to a block) as one data block stored raw, after ending the
    /// block in progress: LZ4F's `LZ4F_uncompressedUpdate` blocks, for the C ABI. The content
    /// joins the content checksum. Only for independent blocks: linked blocks after it would not
    /// see it in their history, so there it is an [`Error::InvalidArgument`], as it is after
    /// the frame's end or for an empty or oversized `content`.
    #[doc(hidden)]
    pub fn store_block(&mut self, content: &[u8]) -> Result<(), Error> {
        if self.finished
            || self.options.block_mode != BlockMode::Independent
            || content.is_empty()
            || content.len() > self.block_len
        {
            return Err(Error::InvalidArgument {
                what: "a stored block takes 1 byte to a block, in an unfinished independent frame",
            });
        }
        self.end_block();
        self.staging.stage_header(
            &self.options,
            self.options.block_size,
            self.options.block_mode,
        );
        if let Some(hasher) = self.blocks.hasher.as_mut() {
            hasher.update(content);
        }
        // Below 4 MiB (checked above): the length fits the size word's 31 bits.
        let word = content.len() as u32 | super::STORED_FLAG;
        self.staging.stage_bytes(&word.to_le_bytes());
        self.staging.stage_bytes(content);
        if self.options.block_checksum {
            let sum = xxhash_rust::xxh32::xxh32(content, 0);
            self.staging.stage_bytes(&sum.to_le_bytes());
        }
        self.consumed += content.len() as u64;
        Ok(())
    }

    /// Ends the frame: the last block, the end mark and the content checksum join
    /// [`pending_output`](Self::pending_output). Calling it again does nothing. Fails (staging
    /// nothing) with [`Error::FrameContentSizeMismatch`] when the options declared a content
    /// size other than what was taken.
    pub fn end_frame(&mut self) -> Result<(), Error> {
        if self.finished {
            return Ok(());
        }
        self.end_update();
        if let Some(declared) = self.options.content_size {
            if declared != self.consumed {
                return Err(Error::FrameContentSizeMismatch {
                    declared,
                    actual: self.consumed,
                });
            }
        }
        if !self.staging.header_staged() {
            // All the content is pending, less than a block: the `lz4` tool's one-block frame.
            let pending = self.gathered.len();
            let (block_size, block_mode) = frame_layout(&self.options, pending);
            if block_mode != self.options.block_mode {
                self.blocks.make_independent();
            }
            self.staging
                .stage_header(&self.options, block_size, block_mode);
        }
        self.stage_pending(Source::Gathered);
        let (end, len) = self.blocks.end_bytes();
        self.staging.stage_bytes(&end[..len]);
        self.finished = true;
        Ok(())
    }

    /// Pushes `input` and writes compressed bytes into `output`; see [`Progress`]. Returns
    /// with [`Status::NeedInput`] once all of `input` is taken and its compressed bytes so far
    /// delivered (a partial block waits for more content, [`flush`](Self::flush) or
    /// [`finish`](Self::finish)), or [`Status::OutputFull`] when `output` is full. Input after
    /// the frame's end is an error, returned by the first call that writes nothing.
    ///
    /// One input, handed in by the calls from one that returns [`Status::NeedInput`] to the next
    /// that does, is one `LZ4F_compressUpdate`: linked blocks are those of LZ4F for the same
    /// sequence of updates (and, without auto-flush, [`flush`](Self::flush) calls).
    pub fn compress(&mut self, input: &[u8], output: &mut [u8]) -> Result<Progress, Error> {
        let mut consumed = 0;
        let mut produced = 0;
        loop {
            produced += self.drain(&mut output[produced..]);
            if !self.pending_output().is_empty() {
                return Ok(progress(consumed, produced, Status::OutputFull));
            }
            if consumed == input.len() {
                self.end_update();
                return Ok(progress(consumed, produced, Status::NeedInput));
            }
            if let Some(taken) = self.compress_direct(&input[consumed..], output, &mut produced) {
                consumed += taken;
                continue;
            }
            match self.take(&input[consumed..]) {
                Ok(taken) => consumed += taken,
                // Output this call wrote goes to the caller first; the next call fails.
                Err(_) if produced > 0 => {
                    return Ok(progress(consumed, produced, Status::OutputFull));
                }
                Err(error) => return Err(error),
            }
        }
    }

    /// Ends the current block and writes compressed bytes into `output`: done when the status
    /// is [`Status::NeedInput`]; call again while it is [`Status::OutputFull`].
    pub fn flush(&mut self, output: &mut [u8]) -> Result<Progress, Error> {
        self.end_block();
        let produced = self.drain(output);
        let status = if self.pending_output().is_empty() {
            Status::NeedInput
        } else {
            Status::OutputFull
        };
        Ok(progress(0, produced, status))
    }

    /// Ends the frame and writes compressed bytes into `output`: done when the status is
    /// [`Status::FrameEnd`]; call again while it is [`Status::OutputFull`]. See
    /// [`end_frame`](Self::end_frame) for the error.
    pub fn finish(&mut self, output: &mut [u8]) -> Result<Progress, Error> {
        self.end_frame()?;
        let produced = self.drain(output);
        let status = if self.pending_output().is_empty() {
            Status::FrameEnd
        } else {
            Status::OutputFull
        };
        Ok(progress(0, produced, status))
    }

    /// The zero-copy path of [`compress`](Self::compress): with nothing pending, a whole block
    /// of `input` (from its start) and room in `output[*produced..]` for the header (the first
    /// time) and the block stored raw, the block is compressed straight into `output` (no staging
    /// buffer, no copy) and `*produced` moves past it. Returns the input taken, or `None` (and
    /// changes nothing) when the path does not apply.
    ///
    /// The bytes are those of the staged path: [`BlockWriter::write_block_at`] gives the same
    /// block in any room that holds the block stored raw (see its docs).
    fn compress_direct(
        &mut self,
        input: &[u8],
        output: &mut [u8],
        produced: &mut usize,
    ) -> Option<usize> {
        let block_len = self.block_len;
        if self.finished
            || !self.gathered.is_empty()
            || input.len() < block_len
            || !self.pending_output().is_empty()
        {
            return None;
        }
        let header_room = if self.staging.header_staged() {
            0
        } else {
            MAX_HEADER_LEN
        };
        let room = output.len() - *produced;
        if room < header_room + BlockWriter::stored_room(block_len, &self.options)
            || !BlockWriter::takes_tight_room(&self.options)
                && room < header_room + BlockWriter::block_room(block_len)
        {
            return None;
        }
        if header_room != 0 {
            self.staging.stage_header(
                &self.options,
                self.options.block_size,
                self.options.block_mode,
            );
            *produced += self.drain(&mut output[*produced..]);
            debug_assert!(self.pending_output().is_empty());
        }
        *produced =
            self.blocks
                .write_block_from(&input[..block_len], output, *produced, Source::Input);
        self.consumed += block_len as u64;
        Some(block_len)
    }

    /// Copies pending output into `output`; returns how much.
    fn drain(&mut self, output: &mut [u8]) -> usize {
        let pending = self.pending_output();
        let n = pending.len().min(output.len());
        output[..n].copy_from_slice(&pending[..n]);
        self.consume_output(n);
        n
    }

    /// Compresses `input` (from `source`) as one block into `staging` (with the header before
    /// the first block).
    fn stage_block(&mut self, input: &[u8], source: Source) {
        self.staging.stage_header(
            &self.options,
            self.options.block_size,
            self.options.block_mode,
        );
        // Room for the end mark and content checksum too, so finishing never regrows it.
        let (buf, at) = self
            .staging
            .room(BlockWriter::block_room(input.len()) + END_LEN);
        let end = self.blocks.write_block_from(input, buf, at, source);
        self.staging.staged_to(end);
    }

    /// Compresses the gathered input (if any, from `source`) as one block into `staging`.
    fn stage_pending(&mut self, source: Source) {
        if self.gathered.is_empty() {
            return;
        }
        let gathered = core::mem::take(&mut self.gathered);
        self.stage_block(&gathered, source);
        self.gathered = gathered;
        self.gathered.clear();
    }
}

/// Compressed output waiting to be taken: `buf[sent..staged]`. Shared by [`FrameCompressor`] and
/// the parallel encoder. The buffer is zeroed once to the room a block needs and kept at that
/// length, so no block pays for clearing it.
#[derive(Default)]
pub(crate) struct Stager {
    buf: Vec<u8>,
    staged: usize,
    sent: usize,
    header_staged: bool,
    /// The least the buffer grows to (the most a frame ever stages at once), so that it grows
    /// once, whatever the first frames staged.
    least_room: usize,
}

impl Stager {
    /// From now on the buffer, when it grows, takes `least_room` bytes at least (for a reused
    /// stager: it then grows once, whatever the first frames staged).
    pub(crate) fn set_least_room(&mut self, least_room: usize) {
        self.least_room = least_room;
    }

    /// Empties the staging for a new frame (nothing staged, no header), keeping the buffer.
    pub(crate) fn clear(&mut self) {
        self.staged = 0;
        self.sent = 0;
        self.header_staged = false;
    }

    /// What was staged and not taken yet.
    pub(crate) fn pending(&self) -> &[u8] {
        &self.buf[self.sent..self.staged]
    }

    /// Marks the first `amount` bytes of [`pending`](Self::pending) as taken.
    pub(crate) fn consume(&mut self, amount: usize) {
        self.sent = (self.sent + amount).min(self.staged);
        if self.sent == self.staged {
            self.sent = 0;
            self.staged = 0;
        }
    }

    /// Whether the frame's header was staged.
    pub(crate) fn header_staged(&self) -> bool {
        self.header_staged
    }

    /// Stages the header, the first time, with this block size and mode; returns its length
    /// (0 if it was staged before).
    pub(crate) fn stage_header(
        &mut self,
        options: &FrameOptions,
        block_size: BlockSize,
        block_mode: BlockMode,
    ) -> usize {
        if self.header_staged {
            return 0;
        }
        let (header, len) = encode_header(options, block_size, block_mode, options.content_size);
        self.stage_bytes(&header[..len]);
        self.header_staged = true;
        len
    }

    /// Stages `bytes` after what is staged.
    pub(crate) fn stage_bytes(&mut self, bytes: &[u8]) {
        let (buf, at) = self.room(bytes.len());
        buf[at..at + bytes.len()].copy_from_slice(bytes);
        self.staged += bytes.len();
    }

    /// The buffer, holding at least `room` bytes after what is staged, and where they start:
    /// the caller writes there, then calls [`staged_to`](Self::staged_to).
    pub(crate) fn room(&mut self, room: usize) -> (&mut Vec<u8>, usize) {
        let needed = self.staged + room;
        if self.buf.len() < needed {
            // A new zeroed buffer rather than `resize`: a large one comes zeroed from the
            // allocator (fresh pages, never written here), so its first block does not pay a
            // pass of zeroes over the whole room and touches only the pages it fills.
            let mut buf = alloc::vec![0u8; needed.max(self.least_room)];
            buf[..self.staged].copy_from_slice(&self.buf[..self.staged]);
            self.buf = buf;
        }
        (&mut self.buf, self.staged)
    }

    /// What is staged now ends at `end` (after a write into [`room`](Self::room)).
    pub(crate) fn staged_to(&mut self, end: usize) {
        debug_assert!(end >= self.staged && end <= self.buf.len());
        self.staged = end;
    }

    /// Stages `buf[..len]` in place of the (empty) staging, returning the buffer it replaces (the
    /// parallel encoder's jobs compress into buffers of their own).
    #[cfg(feature = "parallel")]
    pub(crate) fn replace(&mut self, buf: Vec<u8>, len: usize) -> Vec<u8> {
        debug_assert!(self.pending().is_empty() && len <= buf.len());
        self.sent = 0;
        self.staged = len;
        core::mem::replace(&mut self.buf, buf)
    }
}

fn progress(consumed: usize, produced: usize, status: Status) -> Progress {
    Progress {
        consumed,
        produced,
        status,
    }
}
