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
//! [`Decoder`] and [`Encoder`] (with `std`) read and write the same frames through `std::io`,
//! on the frame module's streaming adapters: the header is checked (and a v0 checksum set to
//! the frame format's) as it passes, so memory is bounded by the frame's block size.
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
/// A frame header without the optional fields: magic, FLG, BD, checksum.
const SHORT_HEADER_LEN: usize = 7;
/// With the 8-byte content size.
const LONG_HEADER_LEN: usize = 15;
const HEADER_INCOMPLETE: &str = "the rest of the frame header";

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
///
/// # Examples
///
/// ```
/// use lz4_simd::container::kafka::{self, AcceptHeaderChecksum, HeaderChecksum};
/// let batch = b"record record record ".repeat(100);
/// // Message format v2 (and v1): the frame format's header checksum.
/// let framed = kafka::compress(&batch, HeaderChecksum::for_message_format(2));
/// assert_eq!(kafka::decompress(&framed, AcceptHeaderChecksum::Spec, 1 << 20)?, batch);
/// # Ok::<(), lz4_simd::Error>(())
/// ```
pub fn compress(src: &[u8], checksum: HeaderChecksum) -> Vec<u8> {
    let mut out = frame::compress(src, &kafka_options());
    if checksum == HeaderChecksum::OverMagic {
        // Magic (4), FLG, BD: the descriptor has no optional fields here.
        out[6] = header_checksum(&out[..6]);
    }
    out
}

/// Kafka's frames: independent 64 KiB blocks, no content size, no checksums (so the header is
/// [`SHORT_HEADER_LEN`] bytes).
fn kafka_options() -> FrameOptions {
    FrameOptions::new()
        .block_size(BlockSize::Max64KB)
        .block_mode(BlockMode::Independent)
        .content_checksum(false)
        .block_checksum(false)
        .content_size(false)
}

fn header_checksum(bytes: &[u8]) -> u8 {
    (xxhash_rust::xxh32::xxh32(bytes, 0) >> 8) as u8
}

/// Checks the first [`SHORT_HEADER_LEN`] bytes of a frame (the magic number and the flags
/// Kafka refuses) and returns the header's whole length.
fn header_len(head: &[u8]) -> Result<usize, Error> {
    if head[..4] != frame::MAGIC.to_le_bytes() {
        return Err(super::corrupt(
            NAME,
            0,
            "not an LZ4 frame (magic 04 22 4D 18)",
        ));
    }
    let flg = head[4];
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
    Ok(if flg & FLG_CONTENT_SIZE != 0 {
        LONG_HEADER_LEN
    } else {
        SHORT_HEADER_LEN
    })
}

/// Which header checksum the Kafka frame at the start of `src` carries: [`HeaderChecksum::Spec`]
/// when it is the frame format's (message format v1 / v2; also when both forms happen to give
/// the same byte), [`HeaderChecksum::OverMagic`] when it is only the pre-KIP-57 one (v0), `None`
/// when `src` does not start with a whole frame header that Kafka accepts or neither checksum
/// matches. Only the header is read.
///
/// ```
/// use lz4_simd::container::kafka::{self, HeaderChecksum};
/// let v0 = kafka::compress(b"records", HeaderChecksum::OverMagic);
/// assert_eq!(kafka::header_checksum_of(&v0), Some(HeaderChecksum::OverMagic));
/// let v1 = kafka::compress(b"records", HeaderChecksum::Spec);
/// assert_eq!(kafka::header_checksum_of(&v1), Some(HeaderChecksum::Spec));
/// assert_eq!(kafka::header_checksum_of(&v1[..6]), None);
/// ```
pub fn header_checksum_of(src: &[u8]) -> Option<HeaderChecksum> {
    let len = header_len(src.get(..SHORT_HEADER_LEN)?).ok()?;
    let header = src.get(..len)?;
    let found = header[len - 1];
    if found == header_checksum(&header[4..len - 1]) {
        Some(HeaderChecksum::Spec)
    } else if found == header_checksum(&header[..len - 1]) {
        Some(HeaderChecksum::OverMagic)
    } else {
        None
    }
}

/// Checks the whole header's checksum byte (its last) against what `accept` allows, and returns
/// the frame format's checksum, which the frame decoder is given in its place.
fn spec_checksum(header: &[u8], accept: AcceptHeaderChecksum) -> Result<u8, Error> {
    let checksum_pos = header.len() - 1;
    let found = header[checksum_pos];
    let spec = header_checksum(&header[4..checksum_pos]);
    let over_magic = header_checksum(&header[..checksum_pos]);
    let accepted = match accept {
        AcceptHeaderChecksum::Spec => found == spec,
        AcceptHeaderChecksum::OverMagic => found == over_magic,
        AcceptHeaderChecksum::Either => found == spec || found == over_magic,
    };
    if !accepted {
        let expected = if accept == AcceptHeaderChecksum::OverMagic {
            over_magic
        } else {
            spec
        };
        return Err(super::checksum_error(
            NAME,
            checksum_pos as u64,
            u128::from(expected),
            u128::from(found),
        ));
    }
    Ok(spec)
}

/// Decodes one Kafka LZ4 frame (the whole input) into at most `max_out` bytes, accepting the
/// header checksum `accept` allows. Everything else is checked as [`frame::decompress`] checks
/// it (block sizes, block and content checksums when present, a declared content size), and a
/// frame that fails is reported with its error (the first in input order, as [`Decoder`] reports
/// it too); bytes after the frame are refused once the frame has decoded. One difference: a bad
/// block whose content passes `max_out` before its fault is [`Error::FrameOutputLimit`] here, but
/// the block's own error from [`Decoder`], which decodes a block whole before it counts it.
///
/// A frame with the pre-KIP-57 checksum is decoded from a copy of the input with the checksum
/// byte corrected (the frame decoder reads one contiguous slice).
///
/// # Examples
///
/// ```
/// use lz4_simd::container::kafka::{self, AcceptHeaderChecksum, HeaderChecksum};
/// let batch = b"record record record ".repeat(100);
/// // Message format v0 wrote the header checksum over the magic too (pre-KIP-57).
/// let old = kafka::compress(&batch, HeaderChecksum::OverMagic);
/// assert!(kafka::decompress(&old, AcceptHeaderChecksum::Spec, 1 << 20).is_err());
/// assert_eq!(kafka::decompress(&old, AcceptHeaderChecksum::Either, 1 << 20)?, batch);
/// # Ok::<(), lz4_simd::Error>(())
/// ```
pub fn decompress(
    src: &[u8],
    accept: AcceptHeaderChecksum,
    max_out: usize,
) -> Result<Vec<u8>, Error> {
    let truncated = || super::truncated(NAME, src.len() as u64, HEADER_INCOMPLETE);
    let Some(head) = src.get(..SHORT_HEADER_LEN) else {
        return Err(truncated());
    };
    let Some(header) = src.get(..header_len(head)?) else {
        return Err(truncated());
    };
    let spec = spec_checksum(header, accept)?;
    let checksum_pos = header.len() - 1;
    let fixed;
    let data = if src[checksum_pos] == spec {
        src
    } else {
        let mut copy = src.to_vec();
        copy[checksum_pos] = spec;
        fixed = copy;
        &fixed[..]
    };
    // Errors in input order, as `frame::decompress` and `Decoder` give them: a whole frame is
    // decoded alone, then bytes after it are refused; a frame whose structure breaks is decoded
    // as `frame::decompress` decodes it, which fails there or earlier.
    match frame::frames(data).next() {
        Some(Ok(first)) => {
            debug_assert!(matches!(first.header, FrameHeader::Lz4(_)));
            let out = frame::decompress(first.bytes, max_out)?;
            if first.bytes.len() != data.len() {
                return Err(super::corrupt(
                    NAME,
                    first.bytes.len() as u64,
                    "bytes after the end of the frame",
                ));
            }
            Ok(out)
        }
        Some(Err(error)) => frame::decompress(data, max_out).and(Err(error)),
        None => Err(truncated()),
    }
}

#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub use self::stream::{Decoder, Encoder};

#[cfg(feature = "std")]
mod stream {
    use std::io::{self, BufRead, Read, Write};

    use super::{
        header_checksum, header_len, kafka_options, spec_checksum, AcceptHeaderChecksum,
        HeaderChecksum, HEADER_INCOMPLETE, LONG_HEADER_LEN, NAME, SHORT_HEADER_LEN,
    };
    use crate::container::stream::io_error;
    use crate::frame::{read_buffered, read_frame_info};
    use crate::frame::{FrameDecoder, FrameDecompressor, FrameEncoder};
    use crate::Error;

    /// Reads one Kafka LZ4 frame as its content (`std::io::Read` and `BufRead`), accepting the
    /// header checksum `accept` allows; the frame must end the input. Memory is bounded by the
    /// frame's block size (64 KiB in Kafka's frames, at most 4 MiB).
    ///
    /// Errors, failing readers and the end of the content behave as for the frame module's
    /// [`FrameDecoder`]: errors in the data are latched `io::Error`s wrapping an [`Error`], an
    /// error of the inner reader loses no byte, and `Ok(0)` means the frame ended, every check
    /// passed and no byte follows it.
    ///
    /// ```
    /// use std::io::Read;
    /// use lz4_simd::container::kafka::{self, AcceptHeaderChecksum, HeaderChecksum};
    /// let records = b"kafka record ".repeat(10_000);
    /// let v0 = kafka::compress(&records, HeaderChecksum::OverMagic);
    /// let mut decoded = Vec::new();
    /// let mut decoder = kafka::Decoder::new(&v0[..], AcceptHeaderChecksum::Either);
    /// decoder.read_to_end(&mut decoded).unwrap();
    /// assert_eq!(decoded, records);
    /// ```
    pub struct Decoder<R: Read> {
        frame: FrameDecoder<Header<R>>,
        /// The cap on the whole content ([`max_out`](Self::max_out)).
        max_out: u64,
        /// Content consumed so far, and content the last `fill_buf` offered.
        delivered: u64,
        available: usize,
        /// The frame ended and nothing follows it.
        ended: bool,
        failure: Option<Error>,
    }

    impl<R: Read> Decoder<R> {
        /// A decoder reading one frame from `reader`.
        pub fn new(reader: R, accept: AcceptHeaderChecksum) -> Self {
            let header = Header {
                reader,
                accept,
                head: [0; LONG_HEADER_LEN],
                head_len: 0,
                head_need: SHORT_HEADER_LEN,
                checked: false,
                head_out: 0,
                passed: 0,
                max_out: u64::MAX,
                failure: None,
            };
            let single = FrameDecompressor::new().single_frame(true);
            Self {
                frame: FrameDecoder::with_decompressor(header, single),
                max_out: u64::MAX,
                delivered: 0,
                available: 0,
                ended: false,
                failure: None,
            }
        }

        /// Caps the frame's content at `max_out` bytes, as [`decompress`](super::decompress)
        /// caps it: a declared content size above it (refused with the header, before any
        /// block is decoded), or content beyond it, is [`Error::FrameOutputLimit`] (kind
        /// `LimitExceeded`), and the block that would go past the cap is not delivered. Without
        /// it, the content is not capped (memory is one block whatever the frame's length).
        pub fn max_out(mut self, max_out: u64) -> Self {
            self.max_out = max_out;
            self.frame.get_mut().max_out = max_out;
            self
        }

        /// The inner reader.
        pub fn get_ref(&self) -> &R {
            &self.frame.get_ref().reader
        }

        /// The inner reader, mutably (reading from it directly skips input the decoder would
        /// have read).
        pub fn get_mut(&mut self) -> &mut R {
            &mut self.frame.get_mut().reader
        }

        /// Gives back the inner reader.
        pub fn into_inner(self) -> R {
            self.frame.into_inner().reader
        }

        /// After the frame: requires the input to end there.
        fn check_end(&mut self) -> io::Result<()> {
            let mut byte = [0; 1];
            loop {
                match self.frame.get_mut().read(&mut byte) {
                    Ok(0) => {
                        self.ended = true;
                        return Ok(());
                    }
                    Ok(_) => {
                        let pos = self.frame.get_ref().passed - 1;
                        let error =
                            super::super::corrupt(NAME, pos, "bytes after the end of the frame");
                        self.failure = Some(error.clone());
                        return Err(io_error(error));
                    }
                    Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                    Err(error) => return Err(error),
                }
            }
        }
    }

    impl<R: Read> Read for Decoder<R> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            read_buffered(self, out)
        }
    }

    impl<R: Read> BufRead for Decoder<R> {
        fn fill_buf(&mut self) -> io::Result<&[u8]> {
            if let Some(error) = &self.failure {
                return Err(io_error(error.clone()));
            }
            if self.ended {
                return Ok(&[]);
            }
            // Content first; at the frame's end (an empty buffer), the check that nothing
            // follows.
            self.available = self.frame.fill_buf()?.len();
            if self.available == 0 {
                self.check_end()?;
                return Ok(&[]);
            }
            let declared = self.frame.frame_info().and_then(|info| info.content_size);
            let total = self.delivered.saturating_add(self.available as u64);
            if total > self.max_out || declared.is_some_and(|size| size > self.max_out) {
                let error = Error::FrameOutputLimit {
                    max_out: self.max_out,
                    declared: declared.filter(|&size| size > self.max_out),
                };
                self.failure = Some(error.clone());
                return Err(io_error(error));
            }
            self.frame.fill_buf()
        }

        fn consume(&mut self, amount: usize) {
            let amount = amount.min(self.available);
            self.available -= amount;
            self.delivered += amount as u64;
            self.frame.consume(amount);
        }
    }

    impl<R: Read> core::fmt::Debug for Decoder<R> {
        fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            f.debug_struct("kafka::Decoder")
                .field("frame", &self.frame)
                .field("failure", &self.failure)
                .finish_non_exhaustive()
        }
    }

    /// The input as the frame decoder sees it: the header checked as Kafka's reader checks it,
    /// with a v0 checksum replaced by the frame format's, then the rest as it is.
    struct Header<R> {
        reader: R,
        accept: AcceptHeaderChecksum,
        head: [u8; LONG_HEADER_LEN],
        head_len: usize,
        /// The header's length: the short form until its flags say otherwise.
        head_need: usize,
        checked: bool,
        /// Bytes of `head` handed to the frame decoder.
        head_out: usize,
        /// Bytes of input read from `reader`.
        passed: u64,
        /// The decoder's cap on the content, for a declared content size.
        max_out: u64,
        failure: Option<Error>,
    }

    impl<R: Read> Header<R> {
        fn fail(&mut self, error: Error) -> io::Error {
            self.failure = Some(error.clone());
            io_error(error)
        }

        /// Reads and checks the header.
        fn read_header(&mut self) -> io::Result<()> {
            while self.head_len < self.head_need {
                match self
                    .reader
                    .read(&mut self.head[self.head_len..self.head_need])
                {
                    Ok(0) => {
                        let pos = self.head_len as u64;
                        let error = super::super::truncated(NAME, pos, HEADER_INCOMPLETE);
                        return Err(self.fail(error));
                    }
                    Ok(read) => {
                        let read = read.min(self.head_need - self.head_len);
                        self.head_len += read;
                        self.passed += read as u64;
                    }
                    Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                    Err(error) => return Err(error),
                }
                if self.head_len == SHORT_HEADER_LEN && self.head_need == SHORT_HEADER_LEN {
                    match header_len(&self.head[..SHORT_HEADER_LEN]) {
                        Ok(len) => self.head_need = len,
                        Err(error) => return Err(self.fail(error)),
                    }
                }
            }
            let header = &self.head[..self.head_need];
            match spec_checksum(header, self.accept) {
                Ok(spec) => self.head[self.head_need - 1] = spec,
                Err(error) => return Err(self.fail(error)),
            }
            // A declared content size above the cap is refused here, before the first block is
            // decoded, as `decompress` refuses it (a header the frame decoder refuses is left to
            // it, with its own error).
            let info = read_frame_info(&self.head[..self.head_need]);
            if let Some(size) = info.ok().and_then(|info| info.content_size) {
                if size > self.max_out {
                    let max_out = self.max_out;
                    let declared = Some(size);
                    return Err(self.fail(Error::FrameOutputLimit { max_out, declared }));
                }
            }
            self.checked = true;
            Ok(())
        }
    }

    impl<R: Read> Read for Header<R> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            if let Some(error) = &self.failure {
                return Err(io_error(error.clone()));
            }
            if !self.checked {
                self.read_header()?;
            }
            if self.head_out < self.head_need {
                let n = (self.head_need - self.head_out).min(out.len());
                out[..n].copy_from_slice(&self.head[self.head_out..self.head_out + n]);
                self.head_out += n;
                return Ok(n);
            }
            let read = self.reader.read(out)?;
            self.passed += read.min(out.len()) as u64;
            Ok(read)
        }
    }

    /// Writes one Kafka LZ4 frame (`std::io::Write`): the bytes of
    /// [`compress`](super::compress), with the header checksum `checksum` asks for. Call
    /// [`finish`](Self::finish). Failing writers behave as for the frame module's
    /// [`FrameEncoder`]: nothing is lost or written twice.
    ///
    /// ```
    /// use std::io::Write;
    /// use lz4_simd::container::kafka::{self, HeaderChecksum};
    /// let records = b"kafka record ".repeat(10_000);
    /// let mut encoder = kafka::Encoder::new(Vec::new(), HeaderChecksum::OverMagic);
    /// encoder.write_all(&records).unwrap();
    /// let frame = encoder.finish().unwrap();
    /// assert_eq!(frame, kafka::compress(&records, HeaderChecksum::OverMagic));
    /// ```
    pub struct Encoder<W: Write> {
        frame: FrameEncoder<Patch<W>>,
    }

    impl<W: Write> Encoder<W> {
        /// An encoder writing one frame to `writer`.
        pub fn new(writer: W, checksum: HeaderChecksum) -> Self {
            let patch = Patch {
                writer,
                over_magic: checksum == HeaderChecksum::OverMagic,
                head: [0; SHORT_HEADER_LEN],
                head_len: 0,
                head_out: 0,
            };
            Self {
                frame: FrameEncoder::with_options(patch, kafka_options()),
            }
        }

        /// The inner writer.
        pub fn get_ref(&self) -> &W {
            &self.frame.get_ref().writer
        }

        /// The inner writer, mutably (writing to it directly puts bytes inside the frame).
        pub fn get_mut(&mut self) -> &mut W {
            &mut self.frame.get_mut().writer
        }

        /// Writes the last block and the end mark, and flushes the writer, keeping the
        /// encoder; after an error of the writer, calling it again resumes where it stopped.
        pub fn try_finish(&mut self) -> io::Result<()> {
            self.frame.try_finish()
        }

        /// [`try_finish`](Self::try_finish), then returns the writer.
        pub fn finish(self) -> io::Result<W> {
            Ok(self.frame.finish()?.writer)
        }
    }

    impl<W: Write> Write for Encoder<W> {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.frame.write(buf)
        }

        fn flush(&mut self) -> io::Result<()> {
            self.frame.flush()
        }
    }

    impl<W: Write> core::fmt::Debug for Encoder<W> {
        fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            f.debug_struct("kafka::Encoder").finish_non_exhaustive()
        }
    }

    /// The output of the frame encoder, with the header's checksum byte set to the one over the
    /// magic number too when asked: the header is held until it is whole.
    struct Patch<W> {
        writer: W,
        over_magic: bool,
        head: [u8; SHORT_HEADER_LEN],
        head_len: usize,
        /// Bytes of `head` written to `writer`.
        head_out: usize,
    }

    impl<W: Write> Patch<W> {
        /// Writes the held header once it is whole; an error leaves the rest of it held.
        fn send_head(&mut self) -> io::Result<()> {
            while self.head_len == SHORT_HEADER_LEN && self.head_out < SHORT_HEADER_LEN {
                match self.writer.write(&self.head[self.head_out..]) {
                    Ok(0) => {
                        return Err(io::Error::new(
                            io::ErrorKind::WriteZero,
                            "the inner writer accepted no bytes of the frame header",
                        ))
                    }
                    Ok(written) => self.head_out += written.min(SHORT_HEADER_LEN - self.head_out),
                    Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                    Err(error) => return Err(error),
                }
            }
            Ok(())
        }
    }

    impl<W: Write> Write for Patch<W> {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.head_len < SHORT_HEADER_LEN {
                let n = (SHORT_HEADER_LEN - self.head_len).min(buf.len());
                self.head[self.head_len..self.head_len + n].copy_from_slice(&buf[..n]);
                self.head_len += n;
                if self.head_len == SHORT_HEADER_LEN && self.over_magic {
                    self.head[SHORT_HEADER_LEN - 1] =
                        header_checksum(&self.head[..SHORT_HEADER_LEN - 1]);
                }
                return Ok(n);
            }
            self.send_head()?;
            self.writer.write(buf)
        }

        fn flush(&mut self) -> io::Result<()> {
            self.send_head()?;
            self.writer.flush()
        }
    }
}
