//! Kafka's LZ4 (`compression.type=lz4`): one LZ4 frame per compressed message set (magic v0 /
//! v1) or record batch (v2), as Kafka's `KafkaLZ4BlockOutputStream` / `Lz4BlockOutputStream`
//! writes it: independent 64 KiB blocks, no content size, no content checksum, no block
//! checksums; a block whose LZ4 form is not smaller is stored raw.
//!
//! **The header checksum of message format v0.** Until Kafka 0.10 (KIP-57, KAFKA-3160) the
//! client computed the frame's header checksum byte over the magic number *and* the frame
//! descriptor instead of over the descriptor alone. Messages in format v0 keep that checksum for
//! old readers to accept them; v1 and v2 use the frame format's. [`compress`] writes either
//! ([`HeaderChecksum`]); [`decompress`] accepts the one asked for, or either
//! ([`AcceptHeaderChecksum::Either`], for message sets whose format is not known).
//!
//! Kafka's reader refuses a frame with a dictionary ID and linked (dependent) blocks; so does
//! [`decompress`], with [`Error::ContainerUnsupported`].
//!
//! ```
//! use lz4_simd::container::kafka::{self, AcceptHeaderChecksum, HeaderChecksum};
//! let records = b"kafka record kafka record kafka record".repeat(10);
//! let v0 = kafka::compress(&records, HeaderChecksum::OverMagic);
//! let v1 = kafka::compress(&records, HeaderChecksum::Spec);
//! assert_ne!(v0[6], v1[6]);
//! assert_eq!(kafka::decompress(&v0, AcceptHeaderChecksum::Either, 1 << 20).unwrap(), records);
//! assert!(kafka::decompress(&v0, AcceptHeaderChecksum::Spec, 1 << 20).is_err());
//! ```

use alloc::vec::Vec;

use crate::frame::{self, BlockMode, BlockSize, FrameHeader, FrameOptions};
use crate::Error;

const NAME: &str = "kafka";

/// FLG bit 0: a dictionary ID follows the descriptor.
const FLG_DICT_ID: u8 = 0x01;
/// FLG bit 3: an 8-byte content size follows the descriptor.
const FLG_CONTENT_SIZE: u8 = 0x08;
/// FLG bit 5: blocks are independent.
const FLG_INDEPENDENT: u8 = 0x20;

/// Which header checksum a writer stores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HeaderChecksum {
    /// The frame format's: over the descriptor (message format v1 and v2).
    Spec,
    /// Over the magic number and the descriptor (message format v0, pre-KIP-57).
    OverMagic,
}

impl HeaderChecksum {
    /// The checksum Kafka writes for a message format (`magic` byte 0, 1 or 2).
    pub const fn for_message_format(magic: u8) -> Self {
        if magic == 0 {
            HeaderChecksum::OverMagic
        } else {
            HeaderChecksum::Spec
        }
    }
}

/// Which header checksum a reader accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AcceptHeaderChecksum {
    /// Only the frame format's (message format v1 and v2).
    Spec,
    /// Only the one over the magic number (message format v0).
    OverMagic,
    /// Either of them.
    Either,
}

/// Compresses a message set or record batch as Kafka does: an LZ4 frame of independent 64 KiB
/// blocks without content size or checksums, with the header checksum `checksum` asks for.
pub fn compress(src: &[u8], checksum: HeaderChecksum) -> Vec<u8> {
    let options = FrameOptions::new()
        .block_size(BlockSize::Max64KB)
        .block_mode(BlockMode::Independent)
        .content_checksum(false)
        .block_checksum(false)
        .content_size(false);
    let mut out = frame::compress(src, &options);
    if checksum == HeaderChecksum::OverMagic {
        // Magic (4), FLG, BD: the descriptor has no optional fields here.
        out[6] = header_checksum(&out[..6]);
    }
    out
}

fn header_checksum(bytes: &[u8]) -> u8 {
    (xxhash_rust::xxh32::xxh32(bytes, 0) >> 8) as u8
}

/// Decodes one Kafka LZ4 frame (the whole input) into at most `max_out` bytes, accepting the
/// header checksum `accept` allows. Everything else is checked as [`frame::decompress`] checks
/// it (block sizes, block and content checksums when present, a declared content size).
///
/// A frame with the pre-KIP-57 checksum is decoded from a copy of the input with the checksum
/// byte corrected (the frame decoder reads one contiguous slice).
pub fn decompress(
    src: &[u8],
    accept: AcceptHeaderChecksum,
    max_out: usize,
) -> Result<Vec<u8>, Error> {
    let truncated = || Error::ContainerTruncated {
        container: NAME,
        input_pos: src.len() as u64,
        what: "the rest of the frame header",
    };
    if src.len() < 7 {
        return Err(truncated());
    }
    if src[..4] != frame::MAGIC.to_le_bytes() {
        return Err(Error::ContainerCorrupt {
            container: NAME,
            input_pos: 0,
            what: "not an LZ4 frame (magic 04 22 4D 18)",
        });
    }
    let flg = src[4];
    let unsupported = |what| Error::ContainerUnsupported {
        container: NAME,
        input_pos: 4,
        what,
    };
    if flg & FLG_DICT_ID != 0 {
        return Err(unsupported(
            "the frame declares a dictionary ID (Kafka refuses preset dictionaries)",
        ));
    }
    if flg & FLG_INDEPENDENT == 0 {
        return Err(unsupported(
            "the frame's blocks are linked (Kafka requires independent blocks)",
        ));
    }
    let checksum_pos = if flg & FLG_CONTENT_SIZE != 0 { 14 } else { 6 };
    let Some(&found) = src.get(checksum_pos) else {
        return Err(truncated());
    };
    let spec = header_checksum(&src[4..checksum_pos]);
    let over_magic = header_checksum(&src[..checksum_pos]);
    let fixed;
    let data = match accept {
        _ if found == spec && accept != AcceptHeaderChecksum::OverMagic => src,
        AcceptHeaderChecksum::OverMagic | AcceptHeaderChecksum::Either if found == over_magic => {
            let mut copy = src.to_vec();
            copy[checksum_pos] = spec;
            fixed = copy;
            &fixed[..]
        }
        _ => {
            let expected = if accept == AcceptHeaderChecksum::OverMagic {
                over_magic
            } else {
                spec
            };
            return Err(super::checksum_error(
                NAME,
                checksum_pos,
                u128::from(expected),
                u128::from(found),
            ));
        }
    };
    let first = frame::frames(data)
        .next()
        .unwrap_or_else(|| Err(truncated()))?;
    debug_assert!(matches!(first.header, FrameHeader::Lz4(_)));
    if first.bytes.len() != data.len() {
        return Err(Error::ContainerCorrupt {
            container: NAME,
            input_pos: first.bytes.len() as u64,
            what: "bytes after the end of the frame",
        });
    }
    frame::decompress(data, max_out)
}
