//! The one error type of the crate.
//!
//! Every variant says what was wrong and where: decoder errors carry the input offset of the byte
//! (token, length byte, offset field) that made the block invalid and, where it matters, the output
//! position reached so far. No path in the crate panics on bad input; it returns one of these.

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
            Error::UnknownKernel { ref name } => write!(
                f,
                "unknown decode kernel {name:?} (expected one of scalar, sse2, avx2, neon)"
            ),
            Error::SizeMismatch { declared, actual } => write!(
                f,
                "block decoded to {actual} bytes but its size prefix declares {declared}"
            ),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}
