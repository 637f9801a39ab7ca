//! Frame decoding for async runtimes: [`tokio`] (feature `tokio`) and [`futures`] (feature
//! `futures-io`, the traits of the `futures` crate family, smol and async-std), both on the
//! sans-IO [`FrameDecompressor`]: the frame logic, the checks and the errors (with their input
//! offsets) are the blocking decoder's.
//!
//! Both adapters read each unit of input (a header, a block) straight into the decompressor's
//! buffer, as the blocking decoder does. They are cancellation-safe: a `poll_read` that returns
//! `Pending`, or a read future dropped before it completes, loses no input and repeats none (a
//! partly read unit stays in the decompressor), so reading may go on later with the same
//! decoder. An error of the inner reader is returned as it is and reading may be retried; an
//! error in the data is latched.

use std::io;

use super::{io_error, FrameDecompressor};

/// What a decoder does next, given the decompressor's state.
enum Next<'a> {
    /// Hand this content to the caller.
    Content(&'a [u8]),
    /// The stream (or the single frame) ended.
    End,
    /// Read input into this space.
    Read(&'a mut [u8]),
}

fn next(inner: &mut FrameDecompressor) -> io::Result<Next<'_>> {
    if !inner.pending().is_empty() {
        return Ok(Next::Content(inner.pending()));
    }
    if inner.parser.is_done() {
        return Ok(Next::End);
    }
    Ok(Next::Read(inner.input_space().map_err(io_error)?))
}

/// Records `read` bytes of input (0: the input ended). Returns whether the stream ended.
fn note_read(inner: &mut FrameDecompressor, read: usize) -> io::Result<bool> {
    if read == 0 {
        // Ends well only between frames (or after a legacy block, or the single frame).
        inner.finish().map_err(io_error)?;
        return Ok(true);
    }
    inner.input_filled(read).map_err(io_error)?;
    Ok(false)
}

/// The `tokio` adapters.
#[cfg(feature = "tokio")]
pub mod tokio {
    use core::pin::Pin;
    use std::io;
    use std::task::{ready, Context, Poll};

    use ::tokio::io::{AsyncRead, ReadBuf};

    use super::{next, note_read, Next};
    use crate::frame::{FrameDecompressor, FrameInfo};

    /// Decompresses a stream of concatenated frames from a tokio `AsyncRead`, as an
    /// `AsyncRead`: the async [`FrameDecoder`](crate::frame::FrameDecoder). See the
    /// [module docs](super) for cancellation and errors.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::io::Result<()> {
    /// use tokio::io::AsyncReadExt;
    /// use lz4_simd::frame::{self, FrameOptions};
    /// let framed = frame::compress(&b"async ".repeat(1000), &FrameOptions::new());
    /// let mut decoder = frame::tokio::FrameDecoder::new(&framed[..]);
    /// let mut content = Vec::new();
    /// decoder.read_to_end(&mut content).await?;
    /// assert_eq!(content, b"async ".repeat(1000));
    /// # Ok(())
    /// # }
    /// ```
    #[derive(Debug)]
    pub struct FrameDecoder<R> {
        reader: R,
        inner: FrameDecompressor,
    }

    impl<R: AsyncRead + Unpin> FrameDecoder<R> {
        /// A decoder reading frames from `reader` (frames naming a dictionary are errors).
        pub fn new(reader: R) -> Self {
            Self::with_decompressor(reader, FrameDecompressor::new())
        }

        /// A decoder with the settings of `decompressor` (a dictionary, single-frame mode,
        /// checksums not verified), which must not have been used yet.
        pub fn with_decompressor(reader: R, decompressor: FrameDecompressor) -> Self {
            Self {
                reader,
                inner: decompressor,
            }
        }

        /// The descriptor of the LZ4 frame being decoded, if inside one.
        pub fn frame_info(&self) -> Option<&FrameInfo> {
            self.inner.frame_info()
        }

        /// The inner reader.
        pub fn get_ref(&self) -> &R {
            &self.reader
        }

        /// The inner reader, mutably.
        pub fn get_mut(&mut self) -> &mut R {
            &mut self.reader
        }

        /// Gives back the inner reader and the bytes read from it but not used (see
        /// [`FrameDecoder::into_parts`](crate::frame::FrameDecoder::into_parts)).
        pub fn into_parts(self) -> (R, Vec<u8>) {
            let mut unused = Vec::new();
            if let Some(magic) = self.inner.read_ahead() {
                unused.extend_from_slice(&magic);
            }
            unused.extend_from_slice(self.inner.gathered());
            (self.reader, unused)
        }
    }

    impl<R: AsyncRead + Unpin> AsyncRead for FrameDecoder<R> {
        fn poll_read(
            self: Pin<&mut Self>,
            cx: &mut Context<'_>,
            buf: &mut ReadBuf<'_>,
        ) -> Poll<io::Result<()>> {
            let this = self.get_mut();
            if buf.remaining() == 0 {
                return Poll::Ready(Ok(()));
            }
            loop {
                match next(&mut this.inner)? {
                    Next::Content(content) => {
                        let n = content.len().min(buf.remaining());
                        buf.put_slice(&content[..n]);
                        this.inner.consume(n);
                        return Poll::Ready(Ok(()));
                    }
                    Next::End => return Poll::Ready(Ok(())),
                    Next::Read(space) => {
                        let mut space = ReadBuf::new(space);
                        ready!(Pin::new(&mut this.reader).poll_read(cx, &mut space))?;
                        let read = space.filled().len();
                        if note_read(&mut this.inner, read)? {
                            return Poll::Ready(Ok(()));
                        }
                    }
                }
            }
        }
    }
}

/// The `futures-io` adapters.
#[cfg(feature = "futures-io")]
pub mod futures {
    use core::pin::Pin;
    use std::io;
    use std::task::{ready, Context, Poll};

    use futures_io::AsyncRead;

    use super::{next, note_read, Next};
    use crate::frame::{FrameDecompressor, FrameInfo};

    /// Decompresses a stream of concatenated frames from a `futures_io::AsyncRead`, as an
    /// `AsyncRead`: the async [`FrameDecoder`](crate::frame::FrameDecoder). See the
    /// [module docs](super) for cancellation and errors.
    #[derive(Debug)]
    pub struct FrameDecoder<R> {
        reader: R,
        inner: FrameDecompressor,
    }

    impl<R: AsyncRead + Unpin> FrameDecoder<R> {
        /// A decoder reading frames from `reader` (frames naming a dictionary are errors).
        pub fn new(reader: R) -> Self {
            Self::with_decompressor(reader, FrameDecompressor::new())
        }

        /// A decoder with the settings of `decompressor` (a dictionary, single-frame mode,
        /// checksums not verified), which must not have been used yet.
        pub fn with_decompressor(reader: R, decompressor: FrameDecompressor) -> Self {
            Self {
                reader,
                inner: decompressor,
            }
        }

        /// The descriptor of the LZ4 frame being decoded, if inside one.
        pub fn frame_info(&self) -> Option<&FrameInfo> {
            self.inner.frame_info()
        }

        /// The inner reader.
        pub fn get_ref(&self) -> &R {
            &self.reader
        }

        /// The inner reader, mutably.
        pub fn get_mut(&mut self) -> &mut R {
            &mut self.reader
        }

        /// Gives back the inner reader and the bytes read from it but not used (see
        /// [`FrameDecoder::into_parts`](crate::frame::FrameDecoder::into_parts)).
        pub fn into_parts(self) -> (R, Vec<u8>) {
            let mut unused = Vec::new();
            if let Some(magic) = self.inner.read_ahead() {
                unused.extend_from_slice(&magic);
            }
            unused.extend_from_slice(self.inner.gathered());
            (self.reader, unused)
        }
    }

    impl<R: AsyncRead + Unpin> AsyncRead for FrameDecoder<R> {
        fn poll_read(
            self: Pin<&mut Self>,
            cx: &mut Context<'_>,
            buf: &mut [u8],
        ) -> Poll<io::Result<usize>> {
            let this = self.get_mut();
            if buf.is_empty() {
                return Poll::Ready(Ok(0));
            }
            loop {
                match next(&mut this.inner)? {
                    Next::Content(content) => {
                        let n = content.len().min(buf.len());
                        buf[..n].copy_from_slice(&content[..n]);
                        this.inner.consume(n);
                        return Poll::Ready(Ok(n));
                    }
                    Next::End => return Poll::Ready(Ok(0)),
                    Next::Read(space) => {
                        let room = space.len();
                        let read = ready!(Pin::new(&mut this.reader).poll_read(cx, space))?;
                        if read > room {
                            return Poll::Ready(Err(io::Error::new(
                                io::ErrorKind::InvalidData,
                                "the inner reader reported reading more bytes than it was asked for",
                            )));
                        }
                        if note_read(&mut this.inner, read)? {
                            return Poll::Ready(Ok(0));
                        }
                    }
                }
            }
        }
    }
}
