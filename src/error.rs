//! The one error type of the crate.
//!
//! Every variant says what was wrong and where: decoder errors carry the input offset of the byte
//! (token, length byte, offset field) that made the block invalid and, where it matters, the output
//! position reached so far. No path in the crate panics on bad input; it returns one of these.
//! [`Error::kind`] sorts the variants into a few classes ([`ErrorKind`]) for callers that only
//! need to know what to do (reject the data, raise a limit, pass other arguments), and
//! `std::error::Error::source` returns the block error inside a frame error.

#![forbid(unsafe_code)]

use core::fmt;

/// What went wrong, and where.
///
/// Input offsets (`input_pos`) count bytes from the start of the compressed block as passed to the
/// decoder (after any size prefix). Output positions (`output_pos`) count decoded bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The compressed input was empty. The smallest valid block is the single byte `00`.
    EmptyInput,
    /// The input ended inside a literal-length or match-length extension (the run of `255` bytes
    /// after a token nibble of 15). `input_pos` is the token of that sequence.
    TruncatedLength {
        /// Offset of the sequence's token.
        input_pos: usize,
    },
    /// The input ended inside the 2-byte match offset. `input_pos` is where the offset starts.
    TruncatedOffset {
        /// Offset of the first byte of the (incomplete) offset field.
        input_pos: usize,
    },
    /// The block ended right after a match: the last sequence of a block must be literals only,
    /// so another token was expected at `input_pos` (the end of the input).
    MissingLastLiterals {
        /// Input length, where the next token should have been.
        input_pos: usize,
    },
    /// A literal run is longer than what is left of the input.
    LiteralsPastInput {
        /// Offset of the first literal byte.
        input_pos: usize,
        /// Literal length the sequence declares.
        literal_len: usize,
        /// Bytes of input actually left.
        available: usize,
    },
    /// A match with offset 0 (invalid in the format; liblz4 silently accepts it, we do not).
    OffsetZero {
        /// Offset of the offset field.
        input_pos: usize,
    },
    /// A match offset reaching before the start of the output.
    OffsetBeforeStart {
        /// Offset of the offset field.
        input_pos: usize,
        /// The offset value.
        offset: usize,
        /// Output position the match would be written at (the bytes available to look back on).
        output_pos: usize,
    },
    /// A literal run would write past the output capacity (`dst.len()` or `max_out`).
    LiteralsOverflowOutput {
        /// Offset of the sequence's token.
        input_pos: usize,
        /// Output position where the literals would start.
        output_pos: usize,
        /// Literal length the sequence declares.
        literal_len: usize,
        /// Output capacity.
        capacity: usize,
    },
    /// A match would write past the output capacity (`dst.len()` or `max_out`).
    MatchOverflowsOutput {
        /// Offset of the sequence's token.
        input_pos: usize,
        /// Output position where the match would start.
        output_pos: usize,
        /// Match length (including the implicit 4).
        match_len: usize,
        /// Output capacity.
        capacity: usize,
    },
    /// A length extension accumulated past what `usize` can hold (only possible with absurdly long
    /// runs of `255` bytes, or on 32-bit targets).
    LengthOverflow {
        /// Offset of the sequence's token.
        input_pos: usize,
    },
    /// The compressor's output buffer is too small for the compressed block.
    OutputTooSmall {
        /// Bytes the caller provided.
        capacity: usize,
        /// Bytes needed at the point the compressor ran out of room (a lower bound of the total).
        needed: usize,
    },
    /// The input is larger than the block format allows (0x7E000000 bytes).
    InputTooLarge {
        /// The input length.
        len: usize,
        /// The maximum block input size.
        max: usize,
    },
    /// A size-prefixed block is shorter than its 4-byte prefix.
    TruncatedSizePrefix {
        /// Bytes present.
        len: usize,
    },
    /// A size prefix declares more bytes than the caller allows (checked before allocating).
    SizePrefixTooLarge {
        /// The declared decompressed size.
        declared: u64,
        /// The caller's cap.
        max_out: usize,
    },
    /// A size prefix declares more bytes than the compressed block could possibly produce (every
    /// input byte yields at most 255 output bytes); checked before allocating.
    SizePrefixImpossible {
        /// The declared decompressed size.
        declared: u64,
        /// Compressed bytes after the prefix.
        compressed_len: usize,
    },
    /// A decode kernel was forced that this CPU (or build) cannot run.
    KernelUnavailable {
        /// The kernel's name.
        kernel: &'static str,
    },
    /// A kernel name that names no kernel (`LZ4_SIMD_KERNEL` or [`Kernel`](crate::Kernel)'s
    /// `FromStr`).
    UnknownKernel {
        /// The name given.
        name: alloc::string::String,
    },
    /// The block decoded to a different size than its prefix declared.
    SizeMismatch {
        /// The declared decompressed size.
        declared: usize,
        /// The size actually decoded.
        actual: usize,
    },
    /// The allocator refused the output buffer, or its size exceeds what this target can address
    /// (`isize::MAX` bytes: a large `max_out` on a 32-bit target). Lower the cap, or decode into
    /// a buffer of your own (`decompress_into`).
    AllocationFailed {
        /// The size of the reservation that failed, in bytes.
        bytes: usize,
    },

    // ---- Frame format ----------------------------------------------------------------------
    /// The 4 bytes at `input_pos` are not a frame magic number (LZ4, skippable or legacy). `hint`
    /// says what the data looks like instead.
    FrameBadMagic {
        /// Input offset of the 4 bytes.
        input_pos: u64,
        /// The bytes found.
        found: [u8; 4],
        /// What the bytes look like (a raw block, a size-prefixed block, another format, ...).
        hint: &'static str,
    },
    /// The frame input ended early: `what` was expected at `input_pos`.
    FrameTruncated {
        /// Input offset where the missing part should start.
        input_pos: u64,
        /// What was expected there.
        what: &'static str,
    },
    /// The frame descriptor's version bits are not `01`.
    FrameUnsupportedVersion {
        /// Input offset of the FLG byte.
        input_pos: u64,
        /// The version found (bits 7-6 of FLG).
        version: u8,
    },
    /// A reserved bit of the frame descriptor (FLG bit 1, BD bits 7 and 3-0) is set.
    FrameReservedBitSet {
        /// Input offset of the byte.
        input_pos: u64,
        /// `"FLG"` or `"BD"`.
        field: &'static str,
        /// The byte's value.
        value: u8,
    },
    /// The BD byte's block maximum size code is not 4-7 (64 KB, 256 KB, 1 MB, 4 MB).
    FrameBadBlockSizeCode {
        /// Input offset of the BD byte.
        input_pos: u64,
        /// The code found (bits 6-4 of BD).
        code: u8,
    },
    /// The header checksum byte does not match the descriptor.
    FrameHeaderChecksum {
        /// Input offset of the checksum byte.
        input_pos: u64,
        /// `(xxh32(descriptor) >> 8) & 0xFF`.
        expected: u8,
        /// The byte in the frame.
        found: u8,
    },
    /// A data block is larger than the frame's declared block maximum size.
    FrameBlockTooLarge {
        /// Input offset of the block's size word.
        input_pos: u64,
        /// Index of the block in its frame (from 0).
        block_index: u64,
        /// The block's size.
        size: u64,
        /// The largest size the frame allows.
        max: u64,
    },
    /// A block's xxh32 checksum does not match its bytes.
    FrameBlockChecksum {
        /// Input offset of the block's size word.
        input_pos: u64,
        /// Index of the block in its frame (from 0).
        block_index: u64,
        /// The checksum computed over the block's bytes.
        expected: u32,
        /// The checksum stored in the frame.
        found: u32,
    },
    /// The frame's content checksum does not match the decoded content.
    FrameContentChecksum {
        /// Input offset of the stored checksum.
        input_pos: u64,
        /// xxh32 of the decoded content.
        expected: u32,
        /// The checksum stored in the frame.
        found: u32,
    },
    /// The frame decoded (or an encoder was given) a different number of bytes than the content
    /// size declared in the header.
    FrameContentSizeMismatch {
        /// The size in the header.
        declared: u64,
        /// The size actually decoded (or written).
        actual: u64,
    },
    /// The frame was compressed with a dictionary whose ID differs from the one supplied.
    FrameDictIdMismatch {
        /// The dictionary ID in the frame header.
        frame: u32,
        /// The ID of the dictionary supplied to the decoder.
        supplied: u32,
    },
    /// The frame needs a dictionary (its header has a dictionary ID) and none was supplied.
    FrameMissingDictionary {
        /// The dictionary ID in the frame header.
        dict_id: u32,
    },
    /// The decoded content would exceed the caller's output cap.
    FrameOutputLimit {
        /// The cap.
        max_out: u64,
        /// The content size the header declares, when it declares one.
        declared: Option<u64>,
    },
    /// A compressed block inside a frame is invalid; `error` says how, with input offsets counted
    /// from the start of the block's data (`input_pos` + 4).
    FrameBlock {
        /// Input offset of the block's size word.
        input_pos: u64,
        /// Index of the block in its frame (from 0).
        block_index: u64,
        /// The block decoder's error.
        error: alloc::boxed::Box<Error>,
    },
    // ---- Containers (`container`: Hadoop, Parquet, Kafka, lz4-java, ClickHouse, ...) --------
    /// A container's input ended early: `what` was expected at `input_pos`.
    ContainerTruncated {
        /// The container (`"hadoop"`, `"lz4-java"`, `"clickhouse"`, ...).
        container: &'static str,
        /// Input offset where the missing part should start.
        input_pos: u64,
        /// What was expected there.
        what: &'static str,
    },
    /// A container's header field is invalid (`what` says which and why): a wrong magic number,
    /// an unknown method, a length the format forbids, bytes after the end.
    ContainerCorrupt {
        /// The container.
        container: &'static str,
        /// Input offset of the field.
        input_pos: u64,
        /// What is wrong.
        what: &'static str,
    },
    /// The input uses a feature of the container that this crate (or the system it belongs to)
    /// does not support: a preset dictionary in a Kafka frame, a ClickHouse method other than LZ4.
    ContainerUnsupported {
        /// The container.
        container: &'static str,
        /// Input offset of the field.
        input_pos: u64,
        /// What is not supported.
        what: &'static str,
    },
    /// A size field declares more output than the caller's cap allows (checked before
    /// anything is allocated for it).
    ContainerOutputLimit {
        /// The container.
        container: &'static str,
        /// Input offset of the size field.
        input_pos: u64,
        /// The output the field would bring the total to.
        declared: u64,
        /// The caller's cap.
        max_out: u64,
    },
    /// A block or section decoded to a different size than its container declared.
    ContainerSizeMismatch {
        /// The container.
        container: &'static str,
        /// Input offset of the size field.
        input_pos: u64,
        /// The declared size.
        declared: u64,
        /// The size actually decoded.
        actual: u64,
    },
    /// A container's checksum does not match (a ClickHouse block's CityHash128, an lz4-java
    /// block's 28-bit xxh32, a Kafka frame's header checksum).
    ContainerChecksum {
        /// The container.
        container: &'static str,
        /// Input offset of the stored checksum.
        input_pos: u64,
        /// The checksum computed over the data.
        expected: u128,
        /// The checksum stored in the input.
        found: u128,
    },
    /// A compressed block inside a container is invalid; `error` says how, with input offsets
    /// counted from `input_pos`, the start of the block's data.
    ContainerBlock {
        /// The container.
        container: &'static str,
        /// Input offset of the block's first byte.
        input_pos: u64,
        /// The block decoder's error.
        error: alloc::boxed::Box<Error>,
    },
    /// An argument is outside what the format can express (`what` says which and why).
    InvalidArgument {
        /// What was wrong.
        what: &'static str,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Error::EmptyInput => {
                f.write_str("empty input: an LZ4 block has at least one token (the empty block is `00`)")
            }
            Error::TruncatedLength { input_pos } => write!(
                f,
                "truncated block: input ends inside the length extension of the sequence whose token is at input offset {input_pos}"
            ),
            Error::TruncatedOffset { input_pos } => write!(
                f,
                "truncated block: input ends inside the 2-byte match offset at input offset {input_pos}"
            ),
            Error::MissingLastLiterals { input_pos } => write!(
                f,
                "truncated block: input ends after a match at input offset {input_pos}; the last sequence of a block must be literals only"
            ),
            Error::LiteralsPastInput { input_pos, literal_len, available } => write!(
                f,
                "literal run of {literal_len} bytes at input offset {input_pos} runs past the end of the input ({available} bytes left)"
            ),
            Error::OffsetZero { input_pos } => {
                write!(f, "match offset 0 at input offset {input_pos} (offsets start at 1)")
            }
            Error::OffsetBeforeStart { input_pos, offset, output_pos } => write!(
                f,
                "match offset {offset} at input offset {input_pos} reaches before the start of the output (only {output_pos} bytes decoded)"
            ),
            Error::LiteralsOverflowOutput { input_pos, output_pos, literal_len, capacity } => write!(
                f,
                "literal run of {literal_len} bytes (token at input offset {input_pos}) at output position {output_pos} overflows the output capacity of {capacity} bytes"
            ),
            Error::MatchOverflowsOutput { input_pos, output_pos, match_len, capacity } => write!(
                f,
                "match of {match_len} bytes (token at input offset {input_pos}) at output position {output_pos} overflows the output capacity of {capacity} bytes"
            ),
            Error::LengthOverflow { input_pos } => write!(
                f,
                "length extension of the sequence whose token is at input offset {input_pos} overflows the address space"
            ),
            Error::OutputTooSmall { capacity, needed } => write!(
                f,
                "output buffer of {capacity} bytes is too small for the compressed block (needs at least {needed}; compress_bound gives a size that always fits)"
            ),
            Error::InputTooLarge { len, max } => {
                write!(f, "input of {len} bytes is larger than the LZ4 block maximum of {max} bytes")
            }
            Error::TruncatedSizePrefix { len } => write!(
                f,
                "size-prefixed block of {len} bytes is shorter than its 4-byte little-endian size prefix"
            ),
            Error::SizePrefixTooLarge { declared, max_out } => write!(
                f,
                "size prefix declares {declared} decompressed bytes, more than the allowed maximum of {max_out}"
            ),
            Error::SizePrefixImpossible { declared, compressed_len } => write!(
                f,
                "size prefix declares {declared} decompressed bytes, more than {compressed_len} compressed bytes can produce (at most 255 per byte); is this really a size-prefixed block?"
            ),
            Error::KernelUnavailable { kernel } => write!(
                f,
                "the {kernel} decode kernel is not available on this CPU or in this build (see Kernel::available)"
            ),
            Error::UnknownKernel { ref name } => {
                write!(f, "unknown decode kernel {name:?} (expected one of ")?;
                for (i, kernel) in crate::Kernel::ALL.iter().enumerate() {
                    let separator = if i == 0 { "" } else { ", " };
                    write!(f, "{separator}{kernel}")?;
                }
                f.write_str(")")
            }
            Error::SizeMismatch { declared, actual } => write!(
                f,
                "block decoded to {actual} bytes but its size prefix declares {declared}"
            ),
            Error::AllocationFailed { bytes } => write!(
                f,
                "cannot allocate {bytes} bytes for the decoded output (the allocator refused, or the size exceeds what this target can address); lower the output cap, if one was given"
            ),
            Error::FrameBadMagic { input_pos, found, hint } => write!(
                f,
                "not an LZ4 frame at input offset {input_pos}: found {:02x} {:02x} {:02x} {:02x} where a frame magic number (04 22 4d 18, skippable 5x 2a 4d 18, or legacy 02 21 4c 18) was expected; {hint}",
                found[0], found[1], found[2], found[3]
            ),
            Error::FrameTruncated { input_pos, what } => {
                write!(f, "truncated frame: input ends at offset {input_pos} where {what} was expected")
            }
            Error::FrameUnsupportedVersion { input_pos, version } => write!(
                f,
                "unsupported frame version {version} in the FLG byte at input offset {input_pos} (only version 1 exists)"
            ),
            Error::FrameReservedBitSet { input_pos, field, value } => write!(
                f,
                "reserved bit set in the frame descriptor's {field} byte {value:#04x} at input offset {input_pos} (corrupt header, or a newer format)"
            ),
            Error::FrameBadBlockSizeCode { input_pos, code } => write!(
                f,
                "invalid block maximum size code {code} in the BD byte at input offset {input_pos} (valid codes are 4-7: 64 KB, 256 KB, 1 MB, 4 MB)"
            ),
            Error::FrameHeaderChecksum { input_pos, expected, found } => write!(
                f,
                "frame header checksum mismatch at input offset {input_pos}: the descriptor hashes to {expected:#04x}, the frame says {found:#04x} (corrupt header)"
            ),
            Error::FrameBlockTooLarge { input_pos, block_index, size, max } => write!(
                f,
                "block {block_index} (size word at input offset {input_pos}) is {size} bytes, more than the frame's block maximum of {max}"
            ),
            Error::FrameBlockChecksum { input_pos, block_index, expected, found } => write!(
                f,
                "block {block_index} (size word at input offset {input_pos}) checksum mismatch: its bytes hash to {expected:#010x}, the frame says {found:#010x} (corrupt block)"
            ),
            Error::FrameContentChecksum { input_pos, expected, found } => write!(
                f,
                "content checksum mismatch at input offset {input_pos}: the decoded content hashes to {expected:#010x}, the frame says {found:#010x} (corrupt data)"
            ),
            Error::FrameContentSizeMismatch { declared, actual } => write!(
                f,
                "content size mismatch: the frame header declares {declared} bytes, the content is {actual}"
            ),
            Error::FrameDictIdMismatch { frame, supplied } => write!(
                f,
                "dictionary ID mismatch: the frame was compressed with dictionary {frame:#010x}, the supplied dictionary is {supplied:#010x}"
            ),
            Error::FrameMissingDictionary { dict_id } => write!(
                f,
                "the frame was compressed with dictionary {dict_id:#010x}; supply it to decode (frame::decompress_with_dictionary or FrameDecoder::with_dictionary)"
            ),
            Error::FrameOutputLimit { max_out, declared } => match declared {
                Some(declared) => write!(
                    f,
                    "the frame declares {declared} bytes of content, more than the output cap of {max_out}"
                ),
                None => write!(f, "the decoded content exceeds the output cap of {max_out} bytes"),
            },
            Error::FrameBlock { input_pos, block_index, ref error } => write!(
                f,
                "corrupt block {block_index} (size word at input offset {input_pos}; offsets below count from its data): {error}"
            ),
            Error::ContainerTruncated { container, input_pos, what } => write!(
                f,
                "truncated {container} data: input ends at offset {input_pos} where {what} was expected"
            ),
            Error::ContainerCorrupt { container, input_pos, what } => {
                write!(f, "corrupt {container} data at input offset {input_pos}: {what}")
            }
            Error::ContainerUnsupported { container, input_pos, what } => {
                write!(f, "unsupported {container} data at input offset {input_pos}: {what}")
            }
            Error::ContainerOutputLimit { container, input_pos, declared, max_out } => write!(
                f,
                "{container} size field at input offset {input_pos} brings the output to {declared} bytes, more than the output cap of {max_out}"
            ),
            Error::ContainerSizeMismatch { container, input_pos, declared, actual } => write!(
                f,
                "{container} size mismatch: the size field at input offset {input_pos} declares {declared} bytes, the data decoded to {actual}"
            ),
            Error::ContainerChecksum { container, input_pos, expected, found } => write!(
                f,
                "{container} checksum mismatch at input offset {input_pos}: the data hashes to {expected:#x}, the input says {found:#x} (corrupt data)"
            ),
            Error::ContainerBlock { container, input_pos, ref error } => write!(
                f,
                "corrupt block in {container} data (block data at input offset {input_pos}; offsets below count from there): {error}"
            ),
            Error::InvalidArgument { what } => write!(f, "invalid argument: {what}"),
        }
    }
}

/// What kind of failure an [`Error`] is: what a caller can do about it, without matching every
/// variant. See [`Error::kind`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input is not valid LZ4 (a block, a size prefix or a frame that breaks the format, or
    /// fails a checksum): the data is damaged or is not what the call expects. Retrying with
    /// the same input fails the same way.
    CorruptInput,
    /// A limit was reached: the output would exceed the caller's buffer or cap, a size exceeds
    /// the format's maximum, or the allocator refused the output. The input may be valid; a
    /// larger buffer or cap may succeed.
    LimitExceeded,
    /// The input or the request uses something this build or CPU does not support: a newer
    /// frame format version, or a decode kernel this CPU cannot run.
    Unsupported,
    /// An argument is wrong for the call: an unknown kernel name, a missing or different
    /// dictionary, a value the format cannot express.
    InvalidArgument,
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ErrorKind::CorruptInput => "corrupt input",
            ErrorKind::LimitExceeded => "limit exceeded",
            ErrorKind::Unsupported => "unsupported",
            ErrorKind::InvalidArgument => "invalid argument",
        })
    }
}

impl Error {
    /// The kind of failure, for callers that act on the class rather than the variant.
    ///
    /// ```
    /// use lz4_simd::{block, ErrorKind};
    ///
    /// let block = block::compress(&[7u8; 1000]).unwrap();
    /// // The cap is too small: a limit, not corrupt data.
    /// assert_eq!(block::decompress(&block, 10).unwrap_err().kind(), ErrorKind::LimitExceeded);
    /// // Offset 0 is never valid.
    /// let bad = [0x11, b'a', 0x00, 0x00, 0x10, b'b'];
    /// assert_eq!(block::decompress(&bad, 100).unwrap_err().kind(), ErrorKind::CorruptInput);
    /// ```
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::EmptyInput
            | Error::TruncatedLength { .. }
            | Error::TruncatedOffset { .. }
            | Error::MissingLastLiterals { .. }
            | Error::LiteralsPastInput { .. }
            | Error::OffsetZero { .. }
            | Error::OffsetBeforeStart { .. }
            | Error::LengthOverflow { .. }
            | Error::TruncatedSizePrefix { .. }
            | Error::SizePrefixImpossible { .. }
            | Error::SizeMismatch { .. }
            | Error::FrameBadMagic { .. }
            | Error::FrameTruncated { .. }
            | Error::FrameReservedBitSet { .. }
            | Error::FrameBadBlockSizeCode { .. }
            | Error::FrameHeaderChecksum { .. }
            | Error::FrameBlockTooLarge { .. }
            | Error::FrameBlockChecksum { .. }
            | Error::FrameContentChecksum { .. }
            | Error::FrameContentSizeMismatch { .. }
            | Error::FrameBlock { .. }
            | Error::ContainerTruncated { .. }
            | Error::ContainerCorrupt { .. }
            | Error::ContainerSizeMismatch { .. }
            | Error::ContainerChecksum { .. }
            | Error::ContainerBlock { .. } => ErrorKind::CorruptInput,
            Error::LiteralsOverflowOutput { .. }
            | Error::MatchOverflowsOutput { .. }
            | Error::OutputTooSmall { .. }
            | Error::InputTooLarge { .. }
            | Error::SizePrefixTooLarge { .. }
            | Error::AllocationFailed { .. }
            | Error::FrameOutputLimit { .. }
            | Error::ContainerOutputLimit { .. } => ErrorKind::LimitExceeded,
            Error::KernelUnavailable { .. }
            | Error::FrameUnsupportedVersion { .. }
            | Error::ContainerUnsupported { .. } => ErrorKind::Unsupported,
            Error::UnknownKernel { .. }
            | Error::FrameDictIdMismatch { .. }
            | Error::FrameMissingDictionary { .. }
            | Error::InvalidArgument { .. } => ErrorKind::InvalidArgument,
        }
    }

    /// Whether a block decoder's error says only that the block needs more output room than it
    /// was given (a larger cap may decode it; every other verdict is the same with any cap).
    pub(crate) fn is_output_overflow(&self) -> bool {
        matches!(
            self,
            Error::LiteralsOverflowOutput { .. } | Error::MatchOverflowsOutput { .. }
        )
    }
}

#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
impl std::error::Error for Error {
    /// The block decoder's error inside [`Error::FrameBlock`]; `None` for the other variants
    /// (they wrap nothing).
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::FrameBlock { error, .. } | Error::ContainerBlock { error, .. } => Some(&**error),
            _ => None,
        }
    }
}
