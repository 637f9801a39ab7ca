//! The frame decoder's state machine, without I/O: the one implementation of the frame logic
//! that the one-shot decoder ([`decompress`](super::decompress)) and the streaming decoder
//! ([`FrameDecoder`](super::FrameDecoder)) share.
//!
//! A stream of frames is a series of *units* whose lengths are known before they are read: a
//! 4-byte magic number, the descriptor's FLG and BD bytes, the rest of the header, a block size
//! word, a block (its bytes and its checksum), the end mark's content checksum, a piece of a
//! skippable frame's payload. [`FrameParser::need`] says how many bytes the next unit takes and
//! [`FrameParser::process`] takes it whole; a shorter unit means that the input ended there. The
//! parser never reads, waits or buffers input itself: its caller owns the bytes. The one-shot
//! decoder hands it slices of the input (nothing is copied); the streaming decoder reads each
//! unit straight into one buffer and keeps a partly read unit when its reader fails, so it
//! resumes exactly where it stopped (the push-style
//! [`FrameDecompressor`](super::FrameDecompressor) copies input into the same kind of buffer
//! when a unit straddles two calls).
//!
//! Content goes to a [`Sink`], which decodes each data block where its caller wants it: behind
//! the history in one growing `Vec` (one-shot), into a history buffer, or onto the end of the
//! caller's `Vec` (streaming). Everything else (block sizes, checksums, the content size, the
//! dictionary ID, the history each block may use) is decided here, so both decoders give the
//! same output and the same verdict on every input.
//!
//! After an error the parser returns it again on every call: a stream is never resumed past a
//! byte the decoder rejected.

use alloc::boxed::Box;
use alloc::vec::Vec;

use xxhash_rust::xxh32::xxh32;

use super::header::{le32, parse_header, FrameHeader, FrameInfo, MAX_HEADER_LEN, MIN_HEADER_LEN};
use super::{BlockMode, LEGACY_BLOCK_SIZE, LEGACY_MAGIC, MAGIC, SKIPPABLE_MAGIC, STORED_FLAG};
use crate::block::xxh32::ContentHasher;
use crate::block::{self, MAX_EXPANSION};
use crate::Error;

/// The largest compressed size of a legacy block (`compress_bound` of 8 MiB).
pub(crate) const LEGACY_MAX_COMPRESSED: usize = block::compress_bound(LEGACY_BLOCK_SIZE);

/// How many bytes after an unknown magic number the error may look at to say what the data is.
const BAD_MAGIC_SAMPLE: usize = 1 << 16;

/// A skippable frame's payload is consumed in units of at most this many bytes.
const SKIP_UNIT: usize = 1 << 13;

/// The FLG and BD bytes follow the 4-byte magic number.
const DESCRIPTOR_END: usize = 6;

/// Reserves exactly `additional` more bytes, or [`Error::AllocationFailed`] naming the size the
/// allocator refused (a cap larger than the memory available, or than a 32-bit address space).
pub(crate) fn reserve_exact(buf: &mut Vec<u8>, additional: usize) -> Result<(), Error> {
    buf.try_reserve_exact(additional)
        .map_err(|_| Error::AllocationFailed {
            bytes: buf.len().saturating_add(additional),
        })
}

/// Interprets a block size word: `None` for the end mark, else the data length and whether the
/// block is stored raw. Rejects sizes above the frame's block maximum.
pub(crate) fn block_word(
    word: u32,
    block_max: usize,
    input_pos: u64,
    block_index: u64,
) -> Result<Option<(usize, bool)>, Error> {
    if word == 0 {
        return Ok(None);
    }
    let size = (word & !STORED_FLAG) as usize;
    if size > block_max {
        return Err(Error::FrameBlockTooLarge {
            input_pos,
            block_index,
            size: size as u64,
            max: block_max as u64,
        });
    }
    Ok(Some((size, word & STORED_FLAG != 0)))
}

/// The most content a data block of `size` bytes can decode to in a frame whose blocks decode
/// to at most `block_max` bytes: its size when stored, else 255 bytes per input byte.
pub(crate) fn block_content_bound(size: usize, stored: bool, block_max: usize) -> usize {
    if stored {
        size
    } else {
        block_max.min(size.saturating_mul(MAX_EXPANSION))
    }
}

/// Checks a block's xxh32 (computed over its bytes as stored).
fn verify_block_checksum(
    data: &[u8],
    found: u32,
    input_pos: u64,
    block_index: u64,
) -> Result<(), Error> {
    let expected = xxh32(data, 0);
    if expected != found {
        return Err(Error::FrameBlockChecksum {
            input_pos,
            block_index,
            expected,
            found,
        });
    }
    Ok(())
}

/// Whether a legacy frame's next word starts a new frame instead of being a block size.
pub(crate) fn is_magic(word: u32) -> bool {
    word == MAGIC || word == LEGACY_MAGIC || word & 0xFFFF_FFF0 == SKIPPABLE_MAGIC
}

/// How much a block may produce, and what to call an overflow.
pub(crate) struct BlockTarget {
    /// The most bytes the block may decode to under the caller's cap.
    pub cap_left: u64,
    /// The caller's cap, for the error.
    pub max_out: u64,
    /// The frame's block maximum size.
    pub block_max: usize,
}

impl BlockTarget {
    /// A target without a cap (the streaming decoder's).
    pub(crate) fn uncapped(block_max: usize) -> Self {
        Self {
            cap_left: u64::MAX,
            max_out: u64::MAX,
            block_max,
        }
    }
}

/// One data block of a frame, as read from the input.
pub(crate) struct DataBlock<'a> {
    /// The block's bytes (compressed, or the content itself when stored).
    pub data: &'a [u8],
    /// Whether the size word's high bit marks it stored raw.
    pub stored: bool,
    /// Input offset of its size word.
    pub input_pos: u64,
    /// Its index in the frame.
    pub index: u64,
}

impl DataBlock<'_> {
    /// How many output bytes the block needs room for: a stored block its length, a compressed
    /// block up to the block maximum (capped by the caller's cap and by what it can produce).
    pub(crate) fn room(&self, target: &BlockTarget) -> Result<usize, Error> {
        let cap_left = usize::try_from(target.cap_left).unwrap_or(usize::MAX);
        let bound = block_content_bound(self.data.len(), self.stored, target.block_max);
        if self.stored && bound > cap_left {
            return Err(Error::FrameOutputLimit {
                max_out: target.max_out,
                declared: None,
            });
        }
        Ok(bound.min(cap_left))
    }

    /// Decodes the block, appending at most `room` bytes of content to `out`, whose last
    /// `history_len` bytes are the history; returns the number of bytes appended. `out` should
    /// have `room` bytes of spare capacity (else it grows as `Vec::reserve` does). The error is
    /// the block decoder's, to be passed through [`DataBlock::error`].
    pub(crate) fn append_to(
        &self,
        out: &mut Vec<u8>,
        history_len: usize,
        room: usize,
    ) -> Result<usize, Error> {
        if self.stored {
            out.extend_from_slice(self.data);
            return Ok(self.data.len());
        }
        block::decompress_append(self.data, out, history_len, room)
    }

    /// Decodes the block into `buf[start..start + room]` (whatever `buf` holds there is
    /// overwritten), with `buf[..start]` as history. Returns the decoded length.
    pub(crate) fn decode_at(
        &self,
        buf: &mut [u8],
        start: usize,
        room: usize,
        target: &BlockTarget,
    ) -> Result<usize, Error> {
        if self.stored {
            buf[start..start + self.data.len()].copy_from_slice(self.data);
            return Ok(self.data.len());
        }
        block::decompress_into_with_history(self.data, &mut buf[..start + room], start)
            .map_err(|error| self.error(error, target, room))
    }

    /// The frame-level error for a block the block decoder rejected with `room` bytes of room:
    /// hitting the caller's cap is [`Error::FrameOutputLimit`], anything else a corrupt block.
    pub(crate) fn error(&self, error: Error, target: &BlockTarget, room: usize) -> Error {
        let limited_by_cap = (target.cap_left as u128) < target.block_max as u128
            && room as u128 == u128::from(target.cap_left);
        if error.is_output_overflow() && limited_by_cap {
            Error::FrameOutputLimit {
                max_out: target.max_out,
                declared: None,
            }
        } else {
            Error::FrameBlock {
                input_pos: self.input_pos,
                block_index: self.index,
                error: Box::new(error),
            }
        }
    }
}

/// Checks a frame's content size and content checksum once its blocks are decoded.
fn finish_content(
    info: &FrameInfo,
    produced: u64,
    hasher: Option<ContentHasher>,
    stored_checksum: Option<(u32, u64)>,
) -> Result<(), Error> {
    if let Some(declared) = info.content_size {
        if declared != produced {
            return Err(Error::FrameContentSizeMismatch {
                declared,
                actual: produced,
            });
        }
    }
    if let (Some(hasher), Some((found, input_pos))) = (hasher, stored_checksum) {
        if hasher.fed() != produced {
            // A hand-out path skipped or repeated content: its verdict would be wrong.
            return Err(Error::InvalidArgument {
                what: "internal: the content checksum's hasher was not fed the frame's content",
            });
        }
        let expected = hasher.digest();
        if expected != found {
            return Err(Error::FrameContentChecksum {
                input_pos,
                expected,
                found,
            });
        }
    }
    Ok(())
}

/// The caller's dictionary, as far as the parser is concerned: which frames it serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DictRule {
    /// No dictionary: a frame that names one is an error.
    None,
    /// A dictionary with this ID: a frame naming another ID is an error (a frame naming none
    /// is decoded with it).
    Id(u32),
    /// A dictionary for every frame, whatever ID its header names (the `lz4` command's `-D`,
    /// which does not check IDs).
    AnyId,
}

/// Checks the caller's dictionary (if any) against the frame's dictionary ID.
fn check_dictionary(info: &FrameInfo, dict: DictRule) -> Result<(), Error> {
    match (info.dict_id, dict) {
        (Some(dict_id), DictRule::None) => Err(Error::FrameMissingDictionary { dict_id }),
        (Some(frame), DictRule::Id(supplied)) if frame != supplied => {
            Err(Error::FrameDictIdMismatch { frame, supplied })
        }
        _ => Ok(()),
    }
}

/// What a data block may reference besides its own output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum History {
    /// Nothing (independent blocks without a dictionary, legacy blocks).
    None,
    /// The dictionary (the last 64 KiB of it): independent blocks of a frame with one.
    Dict,
    /// The last 64 KiB of the dictionary (if any) followed by the frame's content so far:
    /// linked blocks. Nothing of an earlier frame.
    Linked,
}

/// A data block for a [`Sink`] to decode, with what it needs to know to place it.
pub(crate) struct BlockJob<'a> {
    /// The block.
    pub block: DataBlock<'a>,
    /// The history its matches may reference.
    pub history: History,
    /// Content of the block's frame decoded before it.
    pub frame_produced: u64,
    /// The frame's block maximum size.
    pub block_max: usize,
    /// What the frame's declared content size leaves for this block and the rest (`None`
    /// without a declared size). A block may produce more (the frame then fails its content
    /// size check at the end mark); this is a hint for sizing buffers, not a limit.
    pub declared_left: Option<u64>,
}

/// Where decoded content goes.
pub(crate) trait Sink {
    /// An LZ4 frame's header was read (the one-shot decoder checks a declared size against its
    /// cap here).
    fn begin_frame(&mut self, info: &FrameInfo) -> Result<(), Error> {
        let _ = info;
        Ok(())
    }

    /// Decodes the block and returns its content.
    fn decode(&mut self, job: &BlockJob<'_>) -> Result<&[u8], Error>;

    /// [`decode`](Self::decode), and where the content went: left pending for the caller to take
    /// (the default), or appended to the caller's output (which the parser then hashes itself,
    /// as no hand-out will; see [`FrameParser::set_caller_hashes`]).
    fn decode_placed(&mut self, job: &BlockJob<'_>) -> Result<(&[u8], Placement), Error> {
        Ok((self.decode(job)?, Placement::Pending))
    }
}

/// Where a decoded block's content went (see [`Sink::decode_placed`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Placement {
    /// Pending in the adapter's buffer: the caller takes it (and, with
    /// [`FrameParser::set_caller_hashes`], hashes it as it takes it).
    Pending,
    /// Already in the caller's output (a block decoded straight into `read_to_end`'s `Vec`):
    /// no hand-out follows, so the parser hashes it.
    Appended,
}

/// What processing a unit did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// Nothing for the caller yet: read the next unit.
    More,
    /// A data block decoded to this many bytes (the sink has them).
    Output(usize),
    /// The input ended where a stream may end (between frames, or after a legacy block). The
    /// state is unchanged: more input, if any comes, continues the stream.
    End,
}

/// The LZ4 frame being decoded.
struct FrameState {
    info: FrameInfo,
    block_index: u64,
    produced: u64,
    hasher: Option<ContentHasher>,
    /// Content of the last block the caller still has to hash (see
    /// [`FrameParser::set_caller_hashes`]): the next unit is refused until it is 0, so a hand-out
    /// path that forgets to hash fails instead of skipping the checksum.
    owed: u64,
}

/// The unit the parser expects next.
enum State {
    /// A frame magic number (or the end of the input).
    Magic,
    /// An LZ4 frame's FLG and BD bytes.
    Descriptor { frame_pos: u64 },
    /// The rest of an LZ4 frame header (`len` bytes in all; the first six are in `start`).
    HeaderRest {
        frame_pos: u64,
        start: [u8; DESCRIPTOR_END],
        len: usize,
    },
    /// A skippable frame's 4-byte payload size.
    SkippableSize,
    /// The rest of a skippable frame's payload.
    SkipPayload { left: u64 },
    /// What follows an unknown magic number, for the error's description of it.
    BadMagic { frame_pos: u64, magic: [u8; 4] },
    /// An LZ4 frame's next block size word (or its end mark).
    BlockWord(FrameState),
    /// A data block's bytes and its checksum.
    BlockData {
        frame: FrameState,
        size: usize,
        stored: bool,
        word_pos: u64,
    },
    /// The content checksum after the end mark.
    ContentChecksum(FrameState),
    /// A legacy frame's next block size (or the next frame's magic, or the end of the input).
    LegacyWord { block_index: u64 },
    /// A legacy block.
    LegacyData {
        block_index: u64,
        size: usize,
        word_pos: u64,
    },
    /// The zero padding after a legacy frame's size trailer (kernel images), to the end of
    /// the input.
    LegacyPadding,
    /// Kernel option: the zero padding that a legacy block size of 0 starts, up to the end of
    /// the input or the next legacy frame (initrds padded and concatenated by a boot loader).
    LegacyGap,
    /// Kernel option: the first `have` bytes of what follows the zero padding (from `pos`, its
    /// first nonzero byte), which must be a legacy magic number.
    LegacyGapMagic {
        head: [u8; 4],
        have: usize,
        pos: u64,
    },
    /// Single-frame mode: the first frame ended; nothing more is read.
    Done,
    /// An error was returned; it is returned again.
    Failed(Error),
}

/// What follows a kernel image's zero padding (`found`, at `input_pos`) is neither zeros nor
/// a legacy frame.
fn gap_error(found: [u8; 4], input_pos: u64) -> Error {
    Error::FrameBadMagic {
        input_pos,
        found,
        hint: "zero padding (a legacy block size of 0, as the kernel reads a padded initrd) \
               may be followed only by more zeros or by another legacy frame",
    }
}

/// The frame decoder's state machine; see the module documentation.
pub(crate) struct FrameParser {
    state: State,
    /// Input offset of the next unit.
    input_pos: u64,
    /// The caller's dictionary: whether there is one, and which frames it serves.
    dict: DictRule,
    /// Stop after the first frame (see [`FrameParser::set_single_frame`]).
    single_frame: bool,
    /// Verify block and content checksums (on unless the caller trusts the data).
    verify_checksums: bool,
    /// Single-frame mode, legacy frame: the 4 bytes of the next frame's magic number, read to
    /// learn that the legacy frame ended, which belong to the caller.
    read_ahead: Option<[u8; 4]>,
    /// Accept a kernel image's size trailer after a legacy frame (see
    /// [`FrameParser::set_legacy_trailer`]).
    legacy_trailer: bool,
    /// The caller hashes the content of blocks of at least this many bytes for the content
    /// checksum as it hands it out (see [`FrameParser::set_caller_hashes`]); `usize::MAX`:
    /// none.
    caller_hashes_from: usize,
    /// The content of every frame so far: what a kernel image's size trailer must equal.
    stream_produced: u64,
}

impl FrameParser {
    /// A parser at the start of a stream; `dict` says whether the caller has a dictionary and
    /// which frames it serves.
    pub(crate) fn new(dict: DictRule) -> Self {
        Self {
            state: State::Magic,
            input_pos: 0,
            dict,
            single_frame: false,
            verify_checksums: true,
            read_ahead: None,
            legacy_trailer: false,
            caller_hashes_from: usize::MAX,
            stream_produced: 0,
        }
    }

    /// Accept what the Linux build appends to a legacy frame (`lz4 -l`) in a kernel image: a
    /// little-endian u32 equal to the content size (of the whole stream, every frame, as
    /// [`container::linux::decompress`](crate::container::linux::decompress) checks it), then
    /// zero padding, to the end of the input (as the kernel's `unlz4` does). Only at the end of the input: a word
    /// that equals the content size and is followed by anything but zeros is a block size, as
    /// without the option. Also zero padding with no trailer, as the kernel reads initrds:
    /// 1 to 3 zeros where a legacy block size is read end the input, and a block size of 0
    /// starts zeros that run to the end of the input or to another legacy frame. Off by default
    /// (`lz4` refuses the trailer and the padding).
    pub(crate) fn set_legacy_trailer(&mut self, on: bool) {
        self.legacy_trailer = on;
    }

    /// Single-frame mode: the parser stops after the first frame (an LZ4 frame after its end
    /// mark and checksum, a skippable frame after its payload, a legacy frame at the next
    /// frame's magic number, whose 4 bytes are kept in [`read_ahead`](Self::read_ahead), or at
    /// the end of the input) and reads nothing more: [`is_done`](Self::is_done).
    pub(crate) fn set_single_frame(&mut self, on: bool) {
        self.single_frame = on;
    }

    /// Whether block and content checksums are verified (on by default). Off, they are read
    /// and skipped, and the content checksum is not computed: for trusted data only. Content
    /// sizes and every structural check still apply.
    pub(crate) fn set_verify_checksums(&mut self, on: bool) {
        self.verify_checksums = on;
    }

    /// The caller hashes each block's content for the frame's content checksum itself, with
    /// [`hash_content`](Self::hash_content), as it hands the content out, instead of the parser
    /// hashing it when the block is decoded: then the content is read once more where it is
    /// copied (from the cache the copy just filled) rather than once before (a block another
    /// core decoded, or one larger than the cache, is read from afar twice otherwise). The
    /// caller must hash all of a block's content before it hands the parser the next unit:
    /// the verdict on the content checksum comes with the unit after the last block. The
    /// parser counts what it is owed: the next unit fails (an internal error) while any of the
    /// block's content is unhashed. A block the sink reports [`Placement::Appended`] (decoded
    /// straight into the caller's output, with no hand-out to hash it) the parser hashes itself.
    #[cfg(any(test, feature = "parallel"))]
    pub(crate) fn set_caller_hashes(&mut self, on: bool) {
        self.caller_hashes_from = if on { 0 } else { usize::MAX };
    }

    /// [`set_caller_hashes`](Self::set_caller_hashes) for blocks whose content is at least
    /// `min_len` bytes; the parser hashes smaller blocks as it decodes them (from the cache the
    /// decoder just wrote them to), and the caller must not hash those ([`hash_content`]
    /// ignores content nothing is owed for).
    ///
    /// [`hash_content`]: Self::hash_content
    pub(crate) fn set_caller_hashes_from(&mut self, min_len: usize) {
        self.caller_hashes_from = min_len;
    }

    /// Hashes content handed out, in order, for the current frame's content checksum (see
    /// [`set_caller_hashes`](Self::set_caller_hashes)); nothing outside an LZ4 frame with a
    /// content checksum being verified, and nothing of a block the parser hashed itself (one
    /// it owes nothing for: see [`set_caller_hashes_from`](Self::set_caller_hashes_from)).
    #[inline]
    pub(crate) fn hash_content(&mut self, content: &[u8]) {
        if let Some(hasher) = self.hasher_owed(content.len()) {
            hasher.update(content);
        }
    }

    /// [`hash_content`](Self::hash_content) for content likely in another core's cache or in
    /// memory (a block a worker decoded, handed out without a copy): each line is asked for
    /// ahead ([`ContentHasher::update_ahead`]).
    #[cfg(feature = "parallel")]
    pub(crate) fn hash_content_ahead(&mut self, content: &[u8]) {
        if let Some(hasher) = self.hasher_owed(content.len()) {
            hasher.update_ahead(content);
        }
    }

    /// [`hash_content`](Self::hash_content) for content that is handed out by copying it:
    /// copies `content[..out.len()]` into `out` and hashes it in the same pass (see
    /// [`ContentHasher::update_copying`]; `content` past `out.len()` is what comes next, asked
    /// for ahead).
    #[cfg(feature = "parallel")]
    pub(crate) fn copy_hashed(&mut self, content: &[u8], out: &mut [u8]) {
        match self.hasher_owed(out.len()) {
            Some(hasher) => hasher.update_copying(content, out),
            None => out.copy_from_slice(&content[..out.len()]),
        }
    }

    /// [`copy_hashed`](Self::copy_hashed) appending `content[..len]` to `out` (see
    /// [`ContentHasher::extend_hashing`]), which is not zeroed first.
    #[cfg(feature = "parallel")]
    pub(crate) fn append_hashed(&mut self, content: &[u8], len: usize, out: &mut Vec<u8>) {
        match self.hasher_owed(len) {
            Some(hasher) => hasher.extend_hashing(out, content, len),
            None => out.extend_from_slice(&content[..len]),
        }
    }

    /// The content hasher, if it is owed the next `len` bytes of content (counted as hashed).
    #[inline]
    fn hasher_owed(&mut self, len: usize) -> Option<&mut ContentHasher> {
        let State::BlockWord(frame) = &mut self.state else {
            return None;
        };
        let (Some(hasher), 1..) = (frame.hasher.as_mut(), frame.owed) else {
            return None;
        };
        debug_assert!(len as u64 <= frame.owed);
        frame.owed = frame.owed.saturating_sub(len as u64);
        Some(hasher)
    }

    /// Whether the caller still owes the parser a hash of some of the last block's content.
    pub(crate) fn owes_hash(&self) -> bool {
        matches!(&self.state, State::BlockWord(frame) if frame.owed > 0)
    }

    /// Single-frame mode: whether the frame ended (nothing more is to be read).
    pub(crate) fn is_done(&self) -> bool {
        matches!(self.state, State::Done)
    }

    /// Single-frame mode, after a legacy frame: the next frame's magic number, read ahead.
    pub(crate) fn read_ahead(&self) -> Option<[u8; 4]> {
        self.read_ahead
    }

    /// After a frame ended: stop there in single-frame mode.
    fn frame_ended(&mut self) {
        if self.single_frame {
            self.state = State::Done;
        }
    }

    /// How many bytes the next unit takes (at least 1).
    pub(crate) fn need(&self) -> usize {
        match &self.state {
            State::Magic
            | State::SkippableSize
            | State::BlockWord(_)
            | State::ContentChecksum(_)
            | State::LegacyWord { .. }
            | State::Failed(_) => 4,
            // Nothing is read once done; 1 keeps `need` positive for every state.
            State::Done => 1,
            State::Descriptor { .. } => DESCRIPTOR_END - 4,
            State::HeaderRest { len, .. } => len - DESCRIPTOR_END,
            State::SkipPayload { left } => (*left).min(SKIP_UNIT as u64) as usize,
            State::BadMagic { .. } => BAD_MAGIC_SAMPLE,
            State::BlockData { frame, size, .. } => {
                size + if frame.info.block_checksum { 4 } else { 0 }
            }
            State::LegacyData { size, .. } => *size,
            State::LegacyPadding => SKIP_UNIT,
            // Word by word: a nonzero byte may start the next frame's magic number, whose
            // bytes must not be taken with the padding.
            State::LegacyGap => 4,
            State::LegacyGapMagic { have, .. } => 4 - have,
        }
    }

    /// Input offset of the next unit.
    pub(crate) fn input_pos(&self) -> u64 {
        self.input_pos
    }

    /// The error returned, if the parser failed.
    pub(crate) fn failure(&self) -> Option<&Error> {
        match &self.state {
            State::Failed(error) => Some(error),
            _ => None,
        }
    }

    /// Fails the parser with `error` (for a problem its caller found, such as a reader that
    /// misreports its reads).
    pub(crate) fn fail(&mut self, error: Error) -> Error {
        self.state = State::Failed(error.clone());
        error
    }

    /// The descriptor of the LZ4 frame being decoded, if inside one.
    pub(crate) fn frame_info(&self) -> Option<&FrameInfo> {
        match &self.state {
            State::BlockWord(frame)
            | State::BlockData { frame, .. }
            | State::ContentChecksum(frame) => Some(&frame.info),
            _ => None,
        }
    }

    #[cfg(feature = "parallel")]
    /// The descriptor of the LZ4 frame whose next unit is a block size word (or its end mark):
    /// where the parallel decoder may start reading blocks ahead.
    pub(crate) fn at_block_word(&self) -> Option<&FrameInfo> {
        match &self.state {
            State::BlockWord(frame) => Some(&frame.info),
            _ => None,
        }
    }

    /// Processes the next unit: `unit` holds [`need`](Self::need) bytes, or fewer when the input
    /// ends after them. Decoded content goes to `sink`. An error is latched.
    pub(crate) fn process(&mut self, unit: &[u8], sink: &mut impl Sink) -> Result<Step, Error> {
        if let State::Failed(error) = &self.state {
            return Err(error.clone());
        }
        debug_assert!(unit.len() <= self.need());
        if let State::BlockWord(FrameState { owed: 1.., .. }) = &self.state {
            // An adapter bug, never the data's: a path handed content out without hashing it.
            let error = Error::InvalidArgument {
                what: "internal: content was handed out without being hashed for the content \
                       checksum",
            };
            self.state = State::Failed(error.clone());
            return Err(error);
        }
        let mut result = self.step(unit, sink);
        // A unit announced as empty (a stored block of 0 bytes, a legacy block size of 0) is
        // processed at once, so `need` is never 0.
        while matches!(result, Ok(Step::More)) && self.need() == 0 {
            result = self.step(&[], sink);
        }
        if let Err(error) = &result {
            self.state = State::Failed(error.clone());
        }
        result
    }

    fn step(&mut self, unit: &[u8], sink: &mut impl Sink) -> Result<Step, Error> {
        let ended = unit.len() < self.need();
        let unit_pos = self.input_pos;
        self.input_pos += unit.len() as u64;
        let truncated = |what| Error::FrameTruncated {
            input_pos: unit_pos + unit.len() as u64,
            what,
        };
        match core::mem::replace(&mut self.state, State::Magic) {
            State::Done => {
                self.state = State::Done;
                self.input_pos = unit_pos;
                Ok(Step::End)
            }
            State::Magic => {
                if !ended {
                    return self.start_frame(unit, unit_pos);
                }
                if !unit.is_empty() {
                    return Err(truncated("a 4-byte frame magic number"));
                }
                if unit_pos == 0 {
                    return Err(truncated(
                        "a 4-byte frame magic number (the input is empty)",
                    ));
                }
                Ok(Step::End)
            }
            State::Descriptor { frame_pos } => {
                if ended {
                    return Err(truncated("the frame descriptor (FLG and BD bytes)"));
                }
                let mut start = [0u8; DESCRIPTOR_END];
                start[..4].copy_from_slice(&MAGIC.to_le_bytes());
                start[4..].copy_from_slice(unit);
                // A version or reserved-bit problem is reported before reading on.
                match parse_header(&start, frame_pos) {
                    Err(Error::FrameTruncated { .. }) => {}
                    Err(error) => return Err(error),
                    Ok(_) => {}
                }
                let flg = start[4];
                let len = MIN_HEADER_LEN
                    + if flg & 8 != 0 { 8 } else { 0 }
                    + if flg & 1 != 0 { 4 } else { 0 };
                self.state = State::HeaderRest {
                    frame_pos,
                    start,
                    len,
                };
                Ok(Step::More)
            }
            State::HeaderRest {
                frame_pos,
                start,
                len,
            } => {
                if ended {
                    return Err(truncated("the rest of the frame header"));
                }
                let mut header = [0u8; MAX_HEADER_LEN];
                header[..DESCRIPTOR_END].copy_from_slice(&start);
                header[DESCRIPTOR_END..len].copy_from_slice(unit);
                let info = match parse_header(&header[..len], frame_pos)? {
                    (FrameHeader::Lz4(info), _) => info,
                    // Unreachable: the magic number is the LZ4 frame magic.
                    _ => {
                        return Err(Error::FrameBadMagic {
                            input_pos: frame_pos,
                            found: MAGIC.to_le_bytes(),
                            hint: "unknown data",
                        })
                    }
                };
                check_dictionary(&info, self.dict)?;
                sink.begin_frame(&info)?;
                self.state = State::BlockWord(FrameState {
                    hasher: (info.content_checksum && self.verify_checksums)
                        .then(ContentHasher::new),
                    info,
                    block_index: 0,
                    produced: 0,
                    owed: 0,
                });
                Ok(Step::More)
            }
            State::SkippableSize => {
                if ended {
                    return Err(truncated("the 4-byte size of a skippable frame"));
                }
                let left = u64::from(le32(unit, 0).unwrap_or(0));
                if left > 0 {
                    self.state = State::SkipPayload { left };
                } else {
                    self.frame_ended();
                }
                Ok(Step::More)
            }
            State::SkipPayload { left } => {
                if ended {
                    return Err(truncated("the rest of a skippable frame's payload"));
                }
                let left = left - unit.len() as u64;
                if left > 0 {
                    self.state = State::SkipPayload { left };
                } else {
                    self.frame_ended();
                }
                Ok(Step::More)
            }
            State::BadMagic { frame_pos, magic } => {
                let mut sample = Vec::new();
                reserve_exact(&mut sample, 4 + unit.len())?;
                sample.extend_from_slice(&magic);
                sample.extend_from_slice(unit);
                Err(match parse_header(&sample, frame_pos) {
                    Err(error) => error,
                    // Unreachable: the magic is none of the frame magics.
                    Ok(_) => Error::FrameBadMagic {
                        input_pos: frame_pos,
                        found: magic,
                        hint: "unknown data",
                    },
                })
            }
            State::BlockWord(frame) => {
                if ended {
                    return Err(truncated("a 4-byte block size or the end mark"));
                }
                let word = le32(unit, 0).unwrap_or(0);
                let block_max = frame.info.block_size.bytes();
                match block_word(word, block_max, unit_pos, frame.block_index)? {
                    Some((size, stored)) => {
                        self.state = State::BlockData {
                            frame,
                            size,
                            stored,
                            word_pos: unit_pos,
                        };
                    }
                    None if frame.info.content_checksum => {
                        self.state = State::ContentChecksum(frame);
                    }
                    None => {
                        finish_content(&frame.info, frame.produced, frame.hasher, None)?;
                        self.frame_ended();
                    }
                }
                Ok(Step::More)
            }
            State::BlockData {
                mut frame,
                size,
                stored,
                word_pos,
            } => {
                if ended {
                    return Err(truncated(if unit.len() < size {
                        "the rest of a data block"
                    } else {
                        "a 4-byte block checksum"
                    }));
                }
                let data = &unit[..size];
                if frame.info.block_checksum && self.verify_checksums {
                    let found = le32(unit, size).unwrap_or(0);
                    verify_block_checksum(data, found, word_pos, frame.block_index)?;
                }
                let history = match frame.info.block_mode {
                    BlockMode::Linked => History::Linked,
                    BlockMode::Independent if self.dict != DictRule::None => History::Dict,
                    BlockMode::Independent => History::None,
                };
                let job = BlockJob {
                    block: DataBlock {
                        data,
                        stored,
                        input_pos: word_pos,
                        index: frame.block_index,
                    },
                    history,
                    frame_produced: frame.produced,
                    block_max: frame.info.block_size.bytes(),
                    declared_left: frame
                        .info
                        .content_size
                        .map(|declared| declared.saturating_sub(frame.produced)),
                };
                let (content, placement) = sink.decode_placed(&job)?;
                let len = content.len();
                if let Some(hasher) = frame.hasher.as_mut() {
                    if len >= self.caller_hashes_from && placement == Placement::Pending {
                        frame.owed = len as u64;
                    } else {
                        hasher.update(content);
                    }
                }
                frame.produced += len as u64;
                self.stream_produced += len as u64;
                frame.block_index += 1;
                self.state = State::BlockWord(frame);
                Ok(Step::Output(len))
            }
            State::ContentChecksum(frame) => {
                if ended {
                    return Err(truncated("the 4-byte content checksum"));
                }
                let found = le32(unit, 0).unwrap_or(0);
                finish_content(
                    &frame.info,
                    frame.produced,
                    frame.hasher,
                    Some((found, unit_pos)),
                )?;
                self.frame_ended();
                Ok(Step::More)
            }
            State::LegacyWord { block_index } => {
                if ended {
                    let zeros = unit.iter().all(|&byte| byte == 0);
                    if self.legacy_trailer && !unit.is_empty() && zeros {
                        // The kernel's `unlz4` ends an image at fewer than 4 bytes left; the
                        // initramfs loader accepts them when they are zeros.
                        self.state = State::LegacyPadding;
                        return Ok(Step::End);
                    }
                    if !unit.is_empty() {
                        return Err(truncated(if self.legacy_trailer {
                            "a 4-byte legacy block size, or zero padding"
                        } else {
                            "a 4-byte legacy block size"
                        }));
                    }
                    // Legacy frames have no end mark: the end of the input ends them.
                    self.state = State::LegacyWord { block_index };
                    return Ok(Step::End);
                }
                let word = le32(unit, 0).unwrap_or(0);
                if is_magic(word) && self.single_frame {
                    self.read_ahead = Some(word.to_le_bytes());
                    self.state = State::Done;
                    return Ok(Step::More);
                }
                if is_magic(word) {
                    return self.start_frame(unit, unit_pos);
                }
                if word == 0 && self.legacy_trailer {
                    // The kernel's `unlz4` ends an image at a block size of 0: zero padding
                    // follows, to the end of the input or to the next image.
                    self.state = State::LegacyGap;
                    return Ok(Step::More);
                }
                let size = word as usize;
                let trailer = self.legacy_trailer && u64::from(word) == self.stream_produced;
                if size > LEGACY_MAX_COMPRESSED && trailer {
                    // Too large for a block: only the size trailer it equals.
                    self.state = State::LegacyPadding;
                    return Ok(Step::More);
                }
                if size > LEGACY_MAX_COMPRESSED {
                    return Err(Error::FrameBlockTooLarge {
                        input_pos: unit_pos,
                        block_index,
                        size: size as u64,
                        max: LEGACY_MAX_COMPRESSED as u64,
                    });
                }
                self.state = State::LegacyData {
                    block_index,
                    size,
                    word_pos: unit_pos,
                };
                Ok(Step::More)
            }
            State::LegacyPadding => {
                if let Some(at) = unit.iter().position(|&byte| byte != 0) {
                    return Err(Error::FrameBadMagic {
                        input_pos: unit_pos + at as u64,
                        found: [unit[at], 0, 0, 0],
                        hint: "data after a kernel image's size trailer, where only zero \
                               padding may follow",
                    });
                }
                self.state = State::LegacyPadding;
                Ok(if ended { Step::End } else { Step::More })
            }
            State::LegacyGap => match unit.iter().position(|&byte| byte != 0) {
                None => {
                    self.state = State::LegacyGap;
                    Ok(if ended { Step::End } else { Step::More })
                }
                Some(at) => {
                    let mut head = [0u8; 4];
                    let have = (unit.len() - at).min(4);
                    head[..have].copy_from_slice(&unit[at..at + have]);
                    let pos = unit_pos + at as u64;
                    if ended {
                        return Err(gap_error(head, pos));
                    }
                    self.after_gap(head, have, pos)
                }
            },
            State::LegacyGapMagic {
                mut head,
                have,
                pos,
            } => {
                let take = unit.len().min(4 - have);
                head[have..have + take].copy_from_slice(&unit[..take]);
                if ended {
                    return Err(gap_error(head, pos));
                }
                self.after_gap(head, 4, pos)
            }
            State::LegacyData {
                block_index,
                size,
                word_pos,
            } => {
                if ended {
                    // The input ends inside what the word announced: a kernel image's size
                    // trailer when the word is the content size and only zeros follow it.
                    let trailer = self.legacy_trailer && size as u64 == self.stream_produced;
                    if trailer && unit.iter().all(|&byte| byte == 0) {
                        self.state = State::LegacyPadding;
                        return Ok(Step::End);
                    }
                    return Err(truncated("the rest of a legacy block"));
                }
                // A kernel image's trailer followed by more zero padding than the content
                // size: the word announced a unit the padding fills. All zeros of 2 bytes or
                // more is never a block (a token of no literals needs a nonzero offset), so
                // this accepts no less than before.
                let trailer = self.legacy_trailer && size as u64 == self.stream_produced;
                if trailer && size >= 2 && unit.iter().all(|&byte| byte == 0) {
                    self.state = State::LegacyPadding;
                    return Ok(Step::More);
                }
                let job = BlockJob {
                    block: DataBlock {
                        data: unit,
                        stored: false,
                        input_pos: word_pos,
                        index: block_index,
                    },
                    history: History::None,
                    frame_produced: 0,
                    block_max: LEGACY_BLOCK_SIZE,
                    declared_left: None,
                };
                let len = sink.decode(&job)?.len();
                self.stream_produced += len as u64;
                self.state = State::LegacyWord {
                    block_index: block_index + 1,
                };
                Ok(Step::Output(len))
            }
            State::Failed(error) => Err(error),
        }
    }

    /// Kernel option, in zero padding: takes the zeros that `input` starts with at once (the
    /// padding is otherwise read 4 bytes at a time) and returns how many. 0 elsewhere.
    pub(crate) fn skip_padding(&mut self, input: &[u8]) -> usize {
        if !matches!(self.state, State::LegacyGap) {
            return 0;
        }
        let zeros = input
            .iter()
            .position(|&byte| byte != 0)
            .unwrap_or(input.len());
        self.input_pos += zeros as u64;
        zeros
    }

    /// Kernel option, after the zero padding that ends a legacy frame: `head[..have]` are the
    /// first bytes from the first nonzero byte on (at `pos`). Only a legacy frame may follow,
    /// as only a legacy frame is an LZ4 image to the kernel.
    fn after_gap(&mut self, head: [u8; 4], have: usize, pos: u64) -> Result<Step, Error> {
        if have < 4 {
            self.state = State::LegacyGapMagic { head, have, pos };
            return Ok(Step::More);
        }
        if u32::from_le_bytes(head) != LEGACY_MAGIC {
            return Err(gap_error(head, pos));
        }
        if self.single_frame {
            self.read_ahead = Some(head);
            self.state = State::Done;
            return Ok(Step::More);
        }
        self.state = State::LegacyWord { block_index: 0 };
        Ok(Step::More)
    }

    /// Starts the frame whose 4-byte magic number (`magic`, at `frame_pos`) was just read.
    fn start_frame(&mut self, magic: &[u8], frame_pos: u64) -> Result<Step, Error> {
        let word = le32(magic, 0).unwrap_or(0);
        self.state = if word & 0xFFFF_FFF0 == SKIPPABLE_MAGIC {
            State::SkippableSize
        } else if word == MAGIC {
            State::Descriptor { frame_pos }
        } else if word == LEGACY_MAGIC {
            State::LegacyWord { block_index: 0 }
        } else {
            State::BadMagic {
                frame_pos,
                magic: word.to_le_bytes(),
            }
        };
        Ok(Step::More)
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    //! The parser's bookkeeping of the content checksum when the caller hashes
    //! ([`FrameParser::set_caller_hashes`]): a block handed out unhashed fails the next unit;
    //! one the sink reports [`Placement::Appended`] is hashed by the parser itself.
    use super::*;
    use crate::frame::decompressor::{Output, StreamSink};
    use crate::frame::{self, BlockSize, FrameOptions};

    /// A sink that decodes as the sequential decoder does and reports `placement`.
    struct Reporting<'a> {
        output: &'a mut Output,
        placement: Placement,
    }

    impl Sink for Reporting<'_> {
        fn decode(&mut self, job: &BlockJob<'_>) -> Result<&[u8], Error> {
            self.decode_placed(job).map(|(content, _)| content)
        }

        fn decode_placed(&mut self, job: &BlockJob<'_>) -> Result<(&[u8], Placement), Error> {
            let placement = self.placement;
            let mut sink = StreamSink {
                output: self.output,
                direct: None,
            };
            sink.decode(job)?;
            Ok((self.output.unread(), placement))
        }
    }

    /// Runs `framed` through a parser that leaves the hashing of every block to its caller;
    /// after each block, the caller hashes its content when `hash` says so, and takes it.
    /// Returns the content and the verdict.
    fn parse(framed: &[u8], placement: Placement, hash: bool) -> (Vec<u8>, Result<(), Error>) {
        let mut parser = FrameParser::new(DictRule::None);
        parser.set_caller_hashes(true);
        let mut output = Output::new(Vec::new());
        let mut content = Vec::new();
        let mut at = 0;
        loop {
            let unit = &framed[at..(at + parser.need()).min(framed.len())];
            at += unit.len();
            let mut sink = Reporting {
                output: &mut output,
                placement,
            };
            match parser.process(unit, &mut sink) {
                Ok(Step::End) => return (content, Ok(())),
                Ok(Step::Output(_)) => {
                    let taken = output.unread();
                    if hash {
                        parser.hash_content(taken);
                    }
                    content.extend_from_slice(taken);
                    let len = taken.len();
                    output.consume(len);
                }
                Ok(Step::More) => {}
                Err(error) => return (content, Err(error)),
            }
        }
    }

    fn framed() -> (Vec<u8>, Vec<u8>) {
        let content: Vec<u8> = (0..300_000u32)
            .map(|i| (i.wrapping_mul(i) >> 9) as u8)
            .collect();
        let options = FrameOptions::new().block_size(BlockSize::Max64KB);
        (frame::compress(&content, &options), content)
    }

    #[test]
    fn content_handed_out_unhashed_fails_the_next_unit() {
        let (framed, content) = framed();
        let (taken, verdict) = parse(&framed, Placement::Pending, true);
        assert!(taken == content);
        assert_eq!(verdict, Ok(()));
        let (taken, verdict) = parse(&framed, Placement::Pending, false);
        assert_eq!(taken.len(), 64 << 10, "the first block only");
        assert!(
            matches!(verdict, Err(Error::InvalidArgument { what }) if what.contains("without being hashed")),
            "{verdict:?}"
        );
    }

    #[test]
    fn appended_blocks_are_hashed_by_the_parser() {
        let (framed, content) = framed();
        let (taken, verdict) = parse(&framed, Placement::Appended, false);
        assert!(taken == content);
        assert_eq!(verdict, Ok(()));
        // And checked: a wrong stored checksum is the checksum error.
        let mut bad = framed.clone();
        let last = bad.len() - 1;
        bad[last] ^= 1;
        let (taken, verdict) = parse(&bad, Placement::Appended, false);
        assert!(taken == content);
        assert!(
            matches!(verdict, Err(Error::FrameContentChecksum { .. })),
            "{verdict:?}"
        );
    }
}
