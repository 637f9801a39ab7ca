//! One-shot frame encoding and the block writer the streaming encoder shares.

use alloc::boxed::Box;
use alloc::vec;
use alloc::vec::Vec;

use xxhash_rust::xxh32::xxh32;

use super::header::encode_header;
use super::{
    BlockMode, BlockSize, FrameOptions, LEGACY_BLOCK_SIZE, LEGACY_MAGIC, SKIPPABLE_MAGIC,
    STORED_FLAG,
};
use crate::block::xxh32::ContentHasher;
use crate::block::{
    self, Compressor, Dictionary, HcCompressor, HcDictionary, HcStreamCompressor, StreamState,
};
use crate::Error;

/// The end mark: a zero block size.
pub(crate) const END_MARK: [u8; 4] = [0; 4];

/// Compresses blocks and writes them, framed, into an output buffer.
///
/// Its fast-level blocks are those of the `lz4` tool 1.9.4 (LZ4F): each block is compressed into
/// one byte less than its size and stored raw when liblz4's compressor gives up there.
/// - independent blocks: a fresh table per block (`LZ4_compress_fast_extState_fastReset`), or
///   with a dictionary the prepared one (`LZ4_resetStream_fast` + `LZ4_attach_dictionary` +
///   `LZ4_compress_fast_continue`);
/// - linked blocks: one stream for the frame (`LZ4_compress_fast_continue` on each block in its
///   own buffer, then `LZ4_saveDict(64 KiB)`), the dictionary attached for the first block.
///
/// Those are the blocks of [`write_block_at`](Self::write_block_at), each its own update. The
/// streaming encoders tell where each block comes from and where LZ4F's updates and flushes end
/// ([`write_block_from`](Self::write_block_from), [`end_update`](Self::end_update),
/// [`end_flush`](Self::end_flush)), and linked blocks then see LZ4F's history: blocks that follow
/// each other in its buffer or in one update's input continue the prefix, and the history is
/// saved once per update with input blocks, and when LZ4F's buffer has no room for a block.
pub(crate) struct BlockWriter {
    compressor: BlockCompressor,
    acceleration: u32,
    block_checksum: bool,
    /// The content checksum (XXH32). Not xxhash-rust's `Xxh32`, whose state is private: for
    /// fast independent blocks the stripes are hashed inside the parse
    /// ([`Compressor::compress_into_hashing`]), which continues this hasher's lanes.
    pub(crate) hasher: Option<ContentHasher>,
    /// LZ4F's buffer state, which decides the history linked blocks see.
    lz4f: Lz4fHistory,
    /// For linked blocks: the compressor a one-block frame does not use, with its own copy of
    /// the dictionary (the independent one while the frame's blocks are linked, the linked one
    /// after [`make_independent`](Self::make_independent)), kept so that
    /// [`reset`](Self::reset) and the next one-block frame allocate nothing.
    parked: Option<BlockCompressor>,
    /// The linked HC stream holds a dictionary loaded from elsewhere
    /// ([`load_hc_dictionary`](Self::load_hc_dictionary)): the frame's first block, even
    /// gathered, does not follow it in memory.
    loaded_elsewhere: bool,
}

/// Where a block's bytes come from, in LZ4F's terms (`LZ4F_compressUpdate`): that decides
/// whether liblz4 sees a linked block contiguous with the history before it (prefix mode) or
/// elsewhere (the history becomes the external dictionary).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Source {
    /// Gathered from smaller inputs (LZ4F's buffer, right after the saved history and the
    /// blocks gathered before it): contiguous with the history.
    Gathered,
    /// The caller's input of an update (full blocks, and with auto-flush the rest): the update's
    /// first such block lies elsewhere, the next ones right after it.
    Input,
}

/// What LZ4F tracks of its buffer for linked blocks (`tmpIn`, the update's blocks), to save the
/// history (`LZ4F_localSaveDict`) when it does.
#[derive(Clone, Copy, Debug)]
struct Lz4fHistory {
    /// `tmpIn - tmpBuff`: where the next gathered block starts in LZ4F's buffer.
    gathered_at: usize,
    /// Blocks compressed from the caller's input in the current update.
    input_blocks: usize,
    /// LZ4F's buffer size (`maxBufferSize`): 64 KiB with auto-flush, else a block and 128 KiB.
    buffer_len: usize,
    block_len: usize,
}

impl Lz4fHistory {
    fn new(block_len: usize) -> Self {
        Self {
            gathered_at: 0,
            input_blocks: 0,
            buffer_len: block_len + 128 * 1024,
            block_len,
        }
    }
}

/// The block compressor a frame's options ask for.
enum BlockCompressor {
    /// Fast, independent blocks, no dictionary.
    Fast(Compressor),
    /// Fast, independent blocks, each with the dictionary.
    FastWithDict(Compressor, Box<Dictionary>),
    /// Fast, linked blocks: one stream (a dictionary only for the first block), and the
    /// history's bytes while the stream does not hold them itself (at most 64 KiB of them, then
    /// the block being compressed after them).
    Linked(Box<StreamState>, Option<Box<Dictionary>>, Vec<u8>),
    /// HC, independent blocks, no dictionary.
    Hc(Box<HcCompressor>, u8),
    /// HC, independent blocks, each with the dictionary attached (LZ4F with a CDict:
    /// `LZ4_resetStreamHC_fast` + `LZ4_attach_HC_dictionary` + `LZ4_compress_HC_continue`).
    HcWithDict(Box<HcCompressor>, Box<HcDictionary>, u8),
    /// HC, linked blocks: one HC stream for the frame (`LZ4_compress_HC_continue` on each block
    /// in its own buffer, then `LZ4_saveDictHC(64 KiB)`, as the `lz4` tool's `-BD`), the
    /// dictionary attached for the first block (kept for the next frame).
    HcLinked(Box<HcStreamCompressor>, Option<Box<HcDictionary>>),
}

impl BlockCompressor {
    fn is_linked(&self) -> bool {
        matches!(self, Self::Linked(..) | Self::HcLinked(..))
    }
}

impl BlockWriter {
    /// A writer for blocks of `block_mode` (the frame's, which may differ from the options': a
    /// one-block frame is independent) with `dict` (empty: none) as the history before the
    /// content: its bytes (the HC compressor's history) and, if the caller has it, its prepared
    /// form (the fast compressors'; prepared from `dict` with [`Dictionary::new`] when `None`).
    pub(crate) fn with_dictionary(
        options: &FrameOptions,
        block_mode: BlockMode,
        dict: &[u8],
        prepared: Option<&Dictionary>,
    ) -> Self {
        let dictionary = match prepared {
            _ if options.hc_level.is_some() => None,
            Some(prepared) => Some(Box::new(prepared.clone())),
            None => (!dict.is_empty()).then(|| Box::new(Dictionary::new(dict))),
        };
        let compressor = match (options.hc_level, block_mode, dictionary) {
            (Some(level), BlockMode::Linked, _) => {
                let mut stream = HcStreamCompressor::new(level);
                stream.set_favor_dec_speed(options.favor_dec_speed);
                let dict = (!dict.is_empty()).then(|| Box::new(HcDictionary::new(dict)));
                BlockCompressor::HcLinked(Box::new(stream), dict)
            }
            (Some(level), _, _) if !dict.is_empty() => BlockCompressor::HcWithDict(
                Box::new(HcCompressor::with_favor_dec_speed(options.favor_dec_speed)),
                Box::new(HcDictionary::new(dict)),
                level,
            ),
            (Some(level), _, _) => BlockCompressor::Hc(
                Box::new(HcCompressor::with_favor_dec_speed(options.favor_dec_speed)),
                level,
            ),
            (None, BlockMode::Linked, dictionary) => BlockCompressor::Linked(
                Box::new(StreamState::new(dictionary.as_deref())),
                dictionary,
                Vec::new(),
            ),
            (None, BlockMode::Independent, Some(dictionary)) => {
                BlockCompressor::FastWithDict(Compressor::new(), dictionary)
            }
            (None, BlockMode::Independent, None) => BlockCompressor::Fast(Compressor::new()),
        };
        let mut compressor = compressor;
        if let BlockCompressor::HcLinked(stream, Some(dict)) = &mut compressor {
            stream.attach_dictionary(dict);
        }
        // The HC windows hold a block after its history (a dictionary attached in front while
        // the stream keeps it): their room once, so that no later frame grows them.
        let block_len = options.block_size.bytes();
        match &mut compressor {
            BlockCompressor::HcLinked(stream, dict) => stream.reserve_window(
                dict.as_ref().map_or(0, |dict| dict.as_bytes().len())
                    + block::MAX_HISTORY
                    + block_len,
            ),
            BlockCompressor::HcWithDict(compressor, dict, _) => {
                compressor.reserve_window(dict.as_bytes().len() + block_len);
            }
            _ => {}
        }
        Self {
            compressor,
            acceleration: options.acceleration,
            block_checksum: options.block_checksum,
            hasher: options.content_checksum.then(ContentHasher::new),
            lz4f: Lz4fHistory::new(options.block_size.bytes()),
            parked: None,
            loaded_elsewhere: false,
        }
    }

    /// Loads `dict` into the linked HC stream as its history (liblz4's `LZ4_loadDictHC` on a
    /// frame's stream, which also stops favouring decoding speed), in place of any dictionary
    /// attached: LZ4F's `LZ4F_compressBegin_usingDict`. Other writers are left as they are.
    pub(crate) fn load_hc_dictionary(&mut self, dict: &[u8]) {
        if let BlockCompressor::HcLinked(stream, attached) = &mut self.compressor {
            let dict = HcDictionary::new(dict);
            stream.reset_with_prepared_dictionary(&dict);
            stream.set_favor_dec_speed(false);
            stream.reserve_window(dict.as_bytes().len() + block::MAX_HISTORY + self.lz4f.block_len);
            *attached = None;
            self.loaded_elsewhere = true;
        }
    }

    /// LZ4F's auto-flush preference: it sizes LZ4F's buffer, and so when the history is saved.
    pub(crate) fn set_auto_flush(&mut self, on: bool) {
        self.lz4f.buffer_len = if on {
            64 * 1024
        } else {
            self.lz4f.block_len + 128 * 1024
        };
    }

    /// The end of an update (`LZ4F_compressUpdate`) that wrote blocks with
    /// [`write_block_from`](Self::write_block_from): after blocks from the caller's input, LZ4F
    /// saves the history into its buffer; without auto-flush, it also does when its buffer has
    /// no room left for a block.
    pub(crate) fn end_update(&mut self, auto_flush: bool) {
        if self.lz4f.input_blocks > 0 {
            self.lz4f.input_blocks = 0;
            self.lz4f.gathered_at = self.save_history();
        }
        if !auto_flush {
            self.keep_room();
        }
    }

    /// After a gathered block that `LZ4F_flush` wrote: LZ4F saves the history when its buffer
    /// has no room left for a block.
    pub(crate) fn end_flush(&mut self) {
        self.keep_room();
    }

    fn keep_room(&mut self) {
        if self.lz4f.gathered_at + self.lz4f.block_len > self.lz4f.buffer_len {
            self.lz4f.gathered_at = self.save_history();
        }
    }

    /// `LZ4F_localSaveDict`: the linked stream keeps the last 64 KiB of its prefix; returns how
    /// much.
    fn save_history(&mut self) -> usize {
        match &mut self.compressor {
            BlockCompressor::HcLinked(stream, _) => {
                stream.save_dict();
                stream.history().len()
            }
            BlockCompressor::Linked(stream, _, window) => stream.save_dict_from(window),
            _ => 0,
        }
    }

    /// Makes the writer ready for a new frame with the same options (those it was made with),
    /// keeping its compressors' memory: a linked stream is reset in place and its dictionary
    /// attached again, as a new writer's; a writer that a one-block frame switched to independent
    /// blocks takes its linked compressor back. Returns `false`, changing nothing, in the one
    /// case it cannot (no linked compressor kept where the options ask for one), and the caller
    /// makes a new writer.
    pub(crate) fn reset(&mut self, options: &FrameOptions) -> bool {
        if options.block_mode == BlockMode::Linked && !self.compressor.is_linked() {
            match &mut self.parked {
                Some(linked) if linked.is_linked() => core::mem::swap(&mut self.compressor, linked),
                _ => return false,
            }
        }
        match &mut self.compressor {
            BlockCompressor::Linked(stream, dictionary, window) => {
                stream.reset(dictionary.as_deref());
                window.clear();
            }
            BlockCompressor::HcLinked(stream, dict) => {
                stream.reset();
                stream.set_favor_dec_speed(options.favor_dec_speed);
                if let Some(dict) = dict {
                    stream.attach_dictionary(dict);
                }
            }
            // A block given up on (or any HC block with an attached dictionary) switches
            // favouring decompression speed off for the rest of the frame; LZ4F sets it again
            // for each frame.
            BlockCompressor::Hc(compressor, _) | BlockCompressor::HcWithDict(compressor, ..) => {
                compressor.set_favor_dec_speed(options.favor_dec_speed);
            }
            BlockCompressor::Fast(_) | BlockCompressor::FastWithDict(..) => {}
        }
        self.hasher = options.content_checksum.then(ContentHasher::new);
        self.lz4f.gathered_at = 0;
        self.lz4f.input_blocks = 0;
        self.loaded_elsewhere = false;
        true
    }

    /// Switches a writer that has written no block yet to independent blocks (a frame that turns
    /// out to hold one block), with the same dictionary and favour option; the linked
    /// compressor is parked for [`reset`](Self::reset).
    pub(crate) fn make_independent(&mut self) {
        if !self.compressor.is_linked() {
            return;
        }
        let independent = match self.parked.take() {
            Some(independent) if !independent.is_linked() => independent,
            _ => match &self.compressor {
                BlockCompressor::Linked(_, Some(dictionary), _) => {
                    BlockCompressor::FastWithDict(Compressor::new(), dictionary.clone())
                }
                BlockCompressor::HcLinked(stream, Some(dict)) => {
                    let mut compressor = Box::<HcCompressor>::default();
                    compressor.reserve_window(dict.as_bytes().len() + self.lz4f.block_len);
                    BlockCompressor::HcWithDict(compressor, dict.clone(), stream.level())
                }
                BlockCompressor::HcLinked(stream, None) => {
                    BlockCompressor::Hc(Box::default(), stream.level())
                }
                _ => BlockCompressor::Fast(Compressor::new()),
            },
        };
        let linked = core::mem::replace(&mut self.compressor, independent);
        if let (
            BlockCompressor::HcLinked(stream, _),
            BlockCompressor::Hc(compressor, _) | BlockCompressor::HcWithDict(compressor, ..),
        ) = (&linked, &mut self.compressor)
        {
            compressor.set_favor_dec_speed(stream.favor_dec_speed());
        }
        self.parked = Some(linked);
    }

    /// Output room one data block of `input_len` bytes may take: the size word, the compressed
    /// bound (which a stored block never exceeds) and the block checksum.
    pub(crate) fn block_room(input_len: usize) -> usize {
        4 + block::compress_bound(input_len) + 4
    }

    /// Output room a data block of `input_len` bytes stored raw takes: the size word, the bytes
    /// and the block checksum (if the options ask for it). [`write_block_at`](Self::write_block_at)
    /// needs no more when [`takes_tight_room`](Self::takes_tight_room).
    pub(crate) fn stored_room(input_len: usize, options: &FrameOptions) -> usize {
        4 + input_len + if options.block_checksum { 4 } else { 0 }
    }

    /// Whether the blocks of `options` can be written in [`stored_room`](Self::stored_room)
    /// with the bytes they get in [`block_room`](Self::block_room): the fast compressors, whose
    /// output in a room below the bound is the same bytes or an error (and an error there means
    /// liblz4 gives up too, its room checks being the more conservative), so the block is stored
    /// raw either way. The HC compressors always get [`block_room`](Self::block_room).
    pub(crate) fn takes_tight_room(options: &FrameOptions) -> bool {
        options.hc_level.is_none()
    }

    /// Compresses `input` (at most the frame's block size) as one data block and writes the block
    /// (size word, data, checksum) at `dst[pos..]`, which must hold [`block_room`](Self::block_room) bytes, or
    /// only [`stored_room`](Self::stored_room) for the fast compressors
    /// ([`takes_tight_room`](Self::takes_tight_room)): the bytes are the same in both. A
    /// block that would not shrink is stored raw. The block is compressed in place (no scratch
    /// buffer, no copy). Returns the position after the block.
    ///
    /// The block needs no history in front of it: the compressors of linked blocks and of
    /// dictionaries hold theirs themselves, and the plain ones compress independent blocks.
    pub(crate) fn write_block_at(&mut self, input: &[u8], dst: &mut [u8], pos: usize) -> usize {
        let end = self.write_block_from(input, dst, pos, Source::Input);
        self.end_update(false);
        end
    }

    /// [`write_block_at`](Self::write_block_at) for one of the blocks of an update, from
    /// `source`; the caller ends the update with [`end_update`](Self::end_update) (and a flush
    /// with [`end_flush`](Self::end_flush)), as LZ4F's history depends on them.
    pub(crate) fn write_block_from(
        &mut self,
        input: &[u8],
        dst: &mut [u8],
        pos: usize,
        source: Source,
    ) -> usize {
        debug_assert!(!input.is_empty() && input.len() <= BlockSize::Max4MB.bytes());
        let follows = match source {
            Source::Gathered => {
                self.lz4f.gathered_at += input.len();
                true
            }
            Source::Input => {
                self.lz4f.input_blocks += 1;
                self.lz4f.input_blocks > 1
            }
        };
        // A dictionary loaded from elsewhere is never followed by the first block.
        let contiguous = follows && !self.loaded_elsewhere;
        self.loaded_elsewhere = false;
        debug_assert!(
            dst.len() - pos >= Self::block_room(input.len())
                || matches!(
                    self.compressor,
                    BlockCompressor::Fast(_)
                        | BlockCompressor::FastWithDict(..)
                        | BlockCompressor::Linked(..)
                ) && dst.len() - pos
                    >= 4 + input.len() + if self.block_checksum { 4 } else { 0 }
        );
        // Fast independent blocks hash the content checksum inside their parse; the others here.
        if let (Some(hasher), false) = (
            self.hasher.as_mut(),
            matches!(self.compressor, BlockCompressor::Fast(_)),
        ) {
            hasher.update(input);
        }
        let (word, body) = dst[pos..].split_at_mut(4);
        // liblz4 compresses into one byte less than the input and stores the block raw when it
        // gives up. The one-block compressors get the whole bound (their unchecked-room paths)
        // and the give-up is replayed on the result; the stream gets the exact room, because a
        // block it gives up on leaves its table half-filled, as liblz4's.
        let limit = input.len() - 1;
        let compressed = match &mut self.compressor {
            BlockCompressor::Fast(compressor) => match self.hasher.as_mut() {
                Some(hasher) => {
                    compressor.compress_into_hashing(input, body, self.acceleration, hasher)
                }
                None => compressor.compress_into(input, body, self.acceleration),
            }
            .ok()
            .filter(|&len| fits_like_liblz4(&body[..len], limit)),
            BlockCompressor::FastWithDict(compressor, dictionary) => compressor
                .compress_into_with_prepared_dictionary(input, body, dictionary, self.acceleration)
                .ok()
                .filter(|&len| fits_like_liblz4(&body[..len], limit)),
            BlockCompressor::Linked(stream, dictionary, window) => {
                let dictionary = dictionary.as_deref();
                let dst = &mut body[..limit];
                let compressed = if contiguous {
                    // liblz4 reads the history right before the block: put them together.
                    match stream.saved_history() {
                        Some(saved) => {
                            window.clear();
                            window.extend_from_slice(saved);
                        }
                        None => {
                            let cut = window.len().saturating_sub(block::MAX_HISTORY);
                            window.drain(..cut);
                        }
                    }
                    let start = window.len();
                    window.extend_from_slice(input);
                    stream.compress_following(window, start, dst, self.acceleration, dictionary)
                } else {
                    let compressed = stream.compress_elsewhere(
                        input,
                        window,
                        dst,
                        self.acceleration,
                        dictionary,
                    );
                    // The history is now this block: keep what the next block may reach.
                    window.clear();
                    window.extend_from_slice(
                        &input[input.len().saturating_sub(block::MAX_HISTORY)..],
                    );
                    compressed
                };
                compressed.ok()
            }
            BlockCompressor::HcWithDict(compressor, dict, level) => {
                compressor.compress_frame_block_attached(input, &mut body[..limit], dict, *level)
            }
            BlockCompressor::HcLinked(stream, dict) => {
                let compressed = stream
                    .compress_continue(input, &mut body[..limit], contiguous, dict.as_deref())
                    .ok();
                // The dictionary is kept after the stream drops it, to attach it again when the
                // writer is reset for a new frame.
                compressed
            }
            BlockCompressor::Hc(compressor, level) => {
                let compressed = compressor
                    .compress_into(input, body, *level)
                    .ok()
                    .filter(|&len| len < input.len());
                if compressed.is_none() {
                    // liblz4 gave up on the block (LZ4F stores it raw) and marked its stream
                    // dirty: LZ4F's next `LZ4_resetStreamHC_fast` re-initialises it whole, and
                    // favour-decompression-speed (set once per frame) is off from then on.
                    compressor.set_favor_dec_speed(false);
                }
                compressed
            }
        };
        let len = match compressed {
            Some(len) => {
                word.copy_from_slice(&(len as u32).to_le_bytes());
                len
            }
            None => {
                word.copy_from_slice(&(input.len() as u32 | STORED_FLAG).to_le_bytes());
                body[..input.len()].copy_from_slice(input);
                input.len()
            }
        };
        let mut end = pos + 4 + len;
        if self.block_checksum {
            let checksum = xxh32(&dst[pos + 4..end], 0);
            dst[end..end + 4].copy_from_slice(&checksum.to_le_bytes());
            end += 4;
        }
        end
    }

    /// The end mark and the content checksum (if the frame has one), in a fixed array: the
    /// array and their length.
    pub(crate) fn end_bytes(&mut self) -> ([u8; 8], usize) {
        let mut end = [0u8; 8];
        end[..4].copy_from_slice(&END_MARK);
        match self.hasher.take() {
            Some(hasher) => {
                end[4..].copy_from_slice(&hasher.digest().to_le_bytes());
                (end, 8)
            }
            None => (end, 4),
        }
    }
}

/// Whether liblz4's frame encoder would keep this block compressed: it compresses into a buffer
/// one byte smaller than the input and stores the block raw when the compressor gives up. The
/// compressor's room checks are conservative (they reserve the room of the end-of-block literals
/// before each sequence), so a block that would just fit is still stored. Replaying those checks
/// on the finished block keeps our frames byte-identical to `lz4`'s.
fn fits_like_liblz4(compressed: &[u8], limit: usize) -> bool {
    if compressed.len() > limit {
        return false;
    }
    // Far enough below the limit, no check can fail (each checks at most 8 bytes beyond what
    // the sequence writes).
    if compressed.len() + 16 <= limit {
        return true;
    }
    let extension = |pos: &mut usize| {
        let mut total = 0usize;
        while let Some(&byte) = compressed.get(*pos) {
            *pos += 1;
            total += usize::from(byte);
            if byte != 255 {
                break;
            }
        }
        total
    };
    let mut pos = 0usize;
    while let Some(&token) = compressed.get(pos) {
        let token_pos = pos;
        pos += 1;
        let mut literal_len = usize::from(token >> 4);
        if literal_len == 15 {
            literal_len += extension(&mut pos);
        }
        pos += literal_len;
        if pos >= compressed.len() {
            // The last literals: token, extension, literals.
            return token_pos + literal_len + 1 + (literal_len + 240) / 255 <= limit;
        }
        // Before the literals: room for them, an offset, a token and the last literals.
        if token_pos + 1 + literal_len + 8 + literal_len / 255 > limit {
            return false;
        }
        pos += 2;
        let after_offset = pos;
        // Before the match length: room for its extension, a token and the last literals.
        let mut match_code = usize::from(token & 15);
        if match_code == 15 {
            match_code += extension(&mut pos);
        }
        if after_offset + 6 + (match_code + 240) / 255 > limit {
            return false;
        }
    }
    true
}

/// The block size code liblz4's one-shot encoder uses: the smallest that holds the whole input,
/// but never above the requested one.
fn one_shot_block_size(requested: BlockSize, len: usize) -> BlockSize {
    BlockSize::ALL
        .into_iter()
        .find(|size| *size >= requested || len <= size.bytes())
        .unwrap_or(requested)
}

/// The block size and mode of a frame of `len` bytes, as the `lz4` tool (1.9.4) chooses them: an
/// input shorter than the block size is one block, written by `LZ4F_compressFrame` with the
/// smallest block size code that holds it, marked independent; longer inputs (one block of
/// exactly the block size included) keep the requested size and mode.
pub(crate) fn frame_layout(options: &FrameOptions, len: usize) -> (BlockSize, BlockMode) {
    if len < options.block_size.bytes() {
        (
            one_shot_block_size(options.block_size, len),
            BlockMode::Independent,
        )
    } else {
        (options.block_size, options.block_mode)
    }
}

/// Compresses `src` into one LZ4 frame with `options`: the bytes of the `lz4` tool 1.9.4 at the
/// fast levels (`lz4 -1`, `--fast=N`: acceleration `N + 1`), independent (`-BI`, the default)
/// or linked (`-BD`) blocks, and of a [`FrameEncoder`](super::FrameEncoder) given the same input
/// and options.
///
/// As the tool does, an input shorter than the block size is one block with the smallest block
/// size code that holds it, marked independent; a requested content size records `src.len()`
/// (and is left out for an empty input: liblz4 reads a content size of 0 as "absent"). Linked
/// blocks are compressed as the tool's stream compresses them (each block in its own buffer after
/// the previous 64 KiB saved), not as liblz4's one-shot `LZ4F_compressFrame` does (one buffer),
/// which differs by a few bytes.
///
/// # Examples
///
/// ```
/// use lz4_simd::frame::{self, BlockSize, FrameOptions};
/// let data = b"frame frame frame frame ".repeat(100);
/// // The `lz4` tool's defaults: 4 MiB independent blocks, content checksum.
/// let framed = frame::compress(&data, &FrameOptions::default());
/// assert_eq!(framed[..4], [0x04, 0x22, 0x4d, 0x18]); // the frame magic
/// // Smaller blocks, the content size recorded in the header.
/// let options = FrameOptions::new().block_size(BlockSize::Max64KB).content_size(true);
/// let framed = frame::compress(&data, &options);
/// assert_eq!(frame::read_frame_info(&framed)?.content_size, Some(data.len() as u64));
/// # Ok::<(), lz4_simd::Error>(())
/// ```
pub fn compress(src: &[u8], options: &FrameOptions) -> Vec<u8> {
    compress_frame(src, &[], None, options)
}

/// [`compress`] with a dictionary: every block (independent mode) or the first block (linked
/// mode) may reference the last 64 KiB of `dict`. Set [`FrameOptions::dict_id`] so decoders
/// can tell which dictionary they need.
///
/// At the fast levels the bytes are those of `lz4 -D dict` (1.9.4): the dictionary prepared as
/// liblz4's `LZ4_loadDict` prepares it (every third position), attached to each block
/// (independent) or to the stream (linked). (liblz4 1.10's `LZ4F_createCDict` prepares fast
/// dictionaries with `LZ4_loadDictSlow` instead, so its frames differ slightly.) At the HC
/// levels ([`FrameOptions::hc_level`]) they are those of LZ4F with a CDict (1.9.4 and 1.10
/// alike at levels 3-12, so `lz4 -# -D dict`): the dictionary attached to each independent
/// block, or to the first linked block (see
/// [`HcCompressor::compress_into_with_attached_dictionary`](crate::block::HcCompressor::compress_into_with_attached_dictionary)).
pub fn compress_with_dictionary(src: &[u8], dict: &[u8], options: &FrameOptions) -> Vec<u8> {
    compress_frame(src, dict, None, options)
}

/// [`compress_with_dictionary`] with a dictionary prepared once ([`Dictionary`]), for many frames:
/// at the fast levels it is attached as prepared (no per-frame hashing), so a dictionary from
/// [`Dictionary::new`] gives the bytes of [`compress_with_dictionary`] (`lz4 -D`, 1.9.4) and one
/// from [`Dictionary::new_dense`] those of liblz4 1.10's LZ4F with that dictionary
/// (`LZ4F_createCDict`). HC levels use its bytes ([`Dictionary::as_bytes`], every byte of a
/// dictionary under 8 bytes too, as LZ4F).
///
/// ```
/// use lz4_simd::block::Dictionary;
/// use lz4_simd::frame::{self, FrameOptions};
/// let dict = Dictionary::new(b"{\"level\": \"info\", \"service\": \"billing\"}");
/// let record = b"{\"level\": \"info\", \"service\": \"billing\", \"id\": 7}";
/// let framed = frame::compress_with_prepared_dictionary(record, &dict, &FrameOptions::new());
/// let back = frame::decompress_with_dictionary(&framed, dict.as_bytes(), 0, 100).unwrap();
/// assert_eq!(back, record);
/// ```
pub fn compress_with_prepared_dictionary(
    src: &[u8],
    dict: &Dictionary,
    options: &FrameOptions,
) -> Vec<u8> {
    compress_frame(src, dict.as_bytes(), Some(dict), options)
}

/// The room [`compress_into`] asks for: the largest frame it writes for `len` bytes of content
/// with `options`, as `LZ4F_compressFrameBound` (a block never takes more than its size stored
/// raw), plus, at the HC levels, the room one block needs beyond that while it is compressed
/// (so this is a little above LZ4F's bound there). `usize::MAX` if that does not fit a `usize`.
pub fn compress_bound(len: usize, options: &FrameOptions) -> usize {
    let (block_size, _) = frame_layout(options, len);
    let block_len = block_size.bytes();
    let blocks = len.div_ceil(block_len);
    let stored = |len: usize| BlockWriter::stored_room(len, options);
    let slack = if BlockWriter::takes_tight_room(options) || blocks == 0 {
        0
    } else {
        BlockWriter::block_room(block_len.min(len)) - stored(block_len.min(len))
    };
    blocks
        .checked_mul(stored(0))
        .and_then(|framing| framing.checked_add(len))
        .and_then(|bound| bound.checked_add(super::header::MAX_HEADER_LEN + END_MARK.len() + 4))
        .and_then(|bound| bound.checked_add(slack))
        .unwrap_or(usize::MAX)
}

/// [`compress`] into `dst` (as `LZ4F_compressFrame`), returning the frame's length: the same
/// bytes, with no allocation for the output. `dst` must hold [`compress_bound`] bytes, or the
/// call fails with [`Error::OutputTooSmall`] and writes nothing. Bytes of `dst` past the frame
/// may have been written.
///
/// ```
/// use lz4_simd::frame::{self, FrameOptions};
/// let content = b"rows of a page, rows of a page, rows of a page".repeat(100);
/// let options = FrameOptions::new();
/// let mut page = vec![0u8; frame::compress_bound(content.len(), &options)];
/// let len = frame::compress_into(&content, &mut page, &options).unwrap();
/// assert_eq!(page[..len], frame::compress(&content, &options)[..]);
/// ```
pub fn compress_into(src: &[u8], dst: &mut [u8], options: &FrameOptions) -> Result<usize, Error> {
    compress_frame_into(src, &[], None, dst, options)
}

/// [`compress_with_prepared_dictionary`] into `dst`, as [`compress_into`].
pub fn compress_into_with_prepared_dictionary(
    src: &[u8],
    dst: &mut [u8],
    dict: &Dictionary,
    options: &FrameOptions,
) -> Result<usize, Error> {
    compress_frame_into(src, dict.as_bytes(), Some(dict), dst, options)
}

fn compress_frame_into(
    src: &[u8],
    dict: &[u8],
    prepared: Option<&Dictionary>,
    dst: &mut [u8],
    options: &FrameOptions,
) -> Result<usize, Error> {
    let needed = compress_bound(src.len(), options);
    if dst.len() < needed {
        return Err(Error::OutputTooSmall {
            capacity: dst.len(),
            needed,
        });
    }
    Ok(write_frame(src, dict, prepared, dst, options))
}

fn compress_frame(
    src: &[u8],
    dict: &[u8],
    prepared: Option<&Dictionary>,
    options: &FrameOptions,
) -> Vec<u8> {
    let (block_size, _) = frame_layout(options, src.len());
    let block_len = block_size.bytes();
    let blocks = src.len().div_ceil(block_len);
    // Every block is compressed in place into `out`, whose length is the room the worst case
    // needs with each block given the whole compress bound, the one-block compressors' fastest
    // path (`vec!` of zeros allocates zeroed memory, without writing it).
    let room = super::header::MAX_HEADER_LEN
        + blocks.saturating_sub(1) * BlockWriter::block_room(block_len)
        + BlockWriter::block_room(src.len() - blocks.saturating_sub(1) * block_len)
        + END_MARK.len()
        + 4;
    let mut out = vec![0u8; room];
    let len = write_frame(src, dict, prepared, &mut out, options);
    out.truncate(len);
    out
}

/// Writes the frame of `src` at the front of `out`, which holds [`compress_bound`] bytes (or
/// the whole compress bound per block): the frame's length.
fn write_frame(
    src: &[u8],
    dict: &[u8],
    prepared: Option<&Dictionary>,
    out: &mut [u8],
    options: &FrameOptions,
) -> usize {
    let (block_size, block_mode) = frame_layout(options, src.len());
    let block_len = block_size.bytes();
    // liblz4 treats a content size of 0 as "absent", so an empty input gets no size field.
    let content_size = options
        .content_size
        .filter(|_| !src.is_empty())
        .map(|_| src.len() as u64);
    let (header, header_len) = encode_header(options, block_size, block_mode, content_size);
    out[..header_len].copy_from_slice(&header[..header_len]);
    let mut pos = header_len;
    let mut writer = BlockWriter::with_dictionary(options, block_mode, dict, prepared);
    // Every block is compressed from the input where it lies (see `write_block_at`).
    for start in (0..src.len()).step_by(block_len) {
        let end = (start + block_len).min(src.len());
        pos = writer.write_block_at(&src[start..end], out, pos);
    }
    let (end, end_len) = writer.end_bytes();
    out[pos..pos + end_len].copy_from_slice(&end[..end_len]);
    pos + end_len
}

/// Compresses `src` as a legacy frame (the format of `lz4 -l`): the legacy magic, then each
/// 8 MiB of input as an LZ4 block behind its 4-byte little-endian compressed size. Legacy frames
/// have no checksums and no end mark; an empty input gives the magic alone.
pub fn compress_legacy(src: &[u8], acceleration: u32) -> Vec<u8> {
    let mut out = Vec::with_capacity(
        4 + block::compress_bound(src.len()) + 4 * (src.len() / LEGACY_BLOCK_SIZE + 1),
    );
    out.extend_from_slice(&LEGACY_MAGIC.to_le_bytes());
    let mut compressor = Compressor::new();
    let mut scratch = vec![0u8; block::compress_bound(src.len().min(LEGACY_BLOCK_SIZE))];
    for chunk in src.chunks(LEGACY_BLOCK_SIZE) {
        // A bound-sized buffer always suffices for a chunk of at most 8 MiB.
        let len = compressor
            .compress_into(chunk, &mut scratch, acceleration)
            .unwrap_or(0);
        out.extend_from_slice(&(len as u32).to_le_bytes());
        out.extend_from_slice(&scratch[..len]);
    }
    out
}

/// A skippable frame holding `payload`: magic `0x184D2A50 | magic_nibble`, the payload's length,
/// the payload. Decoders skip it; [`frames`](super::frames) hands its payload back.
///
/// Fails for a `magic_nibble` above 15 or a payload of 4 GiB or more.
///
/// ```
/// use lz4_simd::frame::{self, FrameOptions};
/// // Metadata in front of the content: decoders skip it, `frames` finds it.
/// let mut stream = frame::skippable_frame(0, b"{\"source\": \"sensor-7\"}").unwrap();
/// assert_eq!(stream[..8], [0x50, 0x2a, 0x4d, 0x18, 22, 0, 0, 0]);
/// stream.extend(frame::compress(b"readings", &FrameOptions::new()));
/// assert_eq!(frame::decompress(&stream, 100).unwrap(), b"readings");
/// let first = frame::frames(&stream).next().unwrap().unwrap();
/// assert_eq!(first.skippable_payload(), Some(&b"{\"source\": \"sensor-7\"}"[..]));
/// assert!(frame::skippable_frame(16, b"").is_err());
/// ```
pub fn skippable_frame(magic_nibble: u8, payload: &[u8]) -> Result<Vec<u8>, Error> {
    if magic_nibble > 15 {
        return Err(Error::InvalidArgument {
            what: "a skippable frame's magic nibble must be 0-15",
        });
    }
    let len = u32::try_from(payload.len()).map_err(|_| Error::InvalidArgument {
        what: "a skippable frame's payload must be under 4 GiB",
    })?;
    let mut out = Vec::with_capacity(8 + payload.len());
    out.extend_from_slice(&(SKIPPABLE_MAGIC | u32::from(magic_nibble)).to_le_bytes());
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(payload);
    Ok(out)
}
