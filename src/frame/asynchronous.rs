//! Frames for async runtimes: [`tokio`] (feature `tokio`) and [`futures`] (feature
//! `futures-io`, the traits of the `futures` crate family, smol and async-std), each with a
//! `FrameDecoder` (an `AsyncRead`) and a `FrameEncoder` (an `AsyncWrite` whose shutdown / close
//! finishes the frame), on the sans-IO [`FrameDecompressor`] and
//! [`FrameCompressor`](crate::frame::FrameCompressor): the frame logic, the bytes, the checks and
//! the errors (with their input offsets) are the blocking adapters'.
//!
//! The decoders read each unit of input (a header, a block) straight into the decompressor's
//! buffer, and the encoders write compressed bytes straight from the compressor's, as the
//! blocking adapters do. They are cancellation-safe: a poll that returns `Pending`, or a future
//! dropped before it completes, loses no byte and repeats none (a partly read unit stays in the
//! decompressor; output the writer did not take stays in the compressor), so the adapter may be
//! used again. An error of the inner reader or writer is returned as it is and the call may be
//! retried; an error in the data is latched.

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

/// Writes the compressor's pending output through `poll_write` until none is left.
#[cfg(any(feature = "tokio", feature = "futures-io"))]
fn poll_deliver(
    compressor: &mut crate::frame::FrameCompressor,
    mut poll_write: impl FnMut(&[u8]) -> std::task::Poll<io::Result<usize>>,
) -> std::task::Poll<io::Result<()>> {
    use std::task::Poll;
    while !compressor.pending_output().is_empty() {
        match poll_write(compressor.pending_output()) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(Ok(0)) => {
                return Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::WriteZero,
                    "the inner writer accepted no bytes of the compressed frame",
                )))
            }
            Poll::Ready(Ok(written)) => compressor.consume_output(written),
            Poll::Ready(Err(error)) if error.kind() == io::ErrorKind::Interrupted => {}
            Poll::Ready(Err(error)) => return Poll::Ready(Err(error)),
        }
    }
    Poll::Ready(Ok(()))
}

/// `poll_write` of an encoder: earlier output first (none of `buf` is taken until it is
/// written), then as much of `buf` as completes a block, whose output is written if the writer
/// takes it now (else by the next call).
fn poll_encode(
    compressor: &mut crate::frame::FrameCompressor,
    buf: &[u8],
    mut poll_write: impl FnMut(&[u8]) -> std::task::Poll<io::Result<usize>>,
) -> std::task::Poll<io::Result<usize>> {
    use std::task::{ready, Poll};
    if buf.is_empty() {
        return Poll::Ready(Ok(0));
    }
    ready!(poll_deliver(compressor, &mut poll_write))?;
    let taken = compressor.take_input(buf).map_err(io_error)?;
    let _ = poll_deliver(compressor, &mut poll_write);
    Poll::Ready(Ok(taken))
}

/// The `tokio` adapters.
#[cfg(feature = "tokio")]
pub mod tokio {
    use core::pin::Pin;
    use std::io;
    use std::task::{ready, Context, Poll};

    use ::tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

    use super::{next, note_read, poll_deliver, poll_encode, Next};
    use crate::frame::{io_error, FrameCompressor, FrameDecompressor, FrameInfo, FrameOptions};

    /// Compresses everything written to it into one LZ4 frame on a tokio `AsyncWrite`: the
    /// async [`FrameEncoder`](crate::frame::FrameEncoder), with the same bytes.
    /// `poll_shutdown` (`AsyncWriteExt::shutdown`) writes the end of the frame, then shuts the
    /// inner writer down; without it the frame is truncated. See the [module docs](super) for
    /// cancellation and errors.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::io::Result<()> {
    /// use tokio::io::AsyncWriteExt;
    /// use lz4_simd::frame::{self, FrameOptions};
    /// let mut encoder = frame::tokio::FrameEncoder::new(Vec::new(), FrameOptions::new());
    /// encoder.write_all(b"async frames").await?;
    /// encoder.shutdown().await?; // ends the frame
    /// let framed = encoder.into_inner();
    /// assert_eq!(frame::decompress(&framed, 100).unwrap(), b"async frames");
    /// # Ok(())
    /// # }
    /// ```
    #[derive(Debug)]
    pub struct FrameEncoder<W> {
        writer: W,
        inner: FrameCompressor,
    }

    impl<W: AsyncWrite + Unpin> FrameEncoder<W> {
        /// An encoder writing one frame with `options` to `writer`.
        pub fn new(writer: W, options: FrameOptions) -> Self {
            Self::with_compressor(writer, FrameCompressor::new(options))
        }

        /// An encoder with the settings of `compressor` (a dictionary, auto-flush), which must
        /// not have been used yet.
        pub fn with_compressor(writer: W, compressor: FrameCompressor) -> Self {
            Self {
                writer,
                inner: compressor,
            }
        }

        /// The inner writer.
        pub fn get_ref(&self) -> &W {
            &self.writer
        }

        /// The inner writer, mutably (writing to it directly puts bytes inside the frame).
        pub fn get_mut(&mut self) -> &mut W {
            &mut self.writer
        }

        /// Gives back the inner writer (after `shutdown`, the frame is complete in it).
        pub fn into_inner(self) -> W {
            self.writer
        }
    }

    impl<W: AsyncWrite + Unpin> AsyncWrite for FrameEncoder<W> {
        fn poll_write(
            self: Pin<&mut Self>,
            cx: &mut Context<'_>,
            buf: &[u8],
        ) -> Poll<io::Result<usize>> {
            let this = self.get_mut();
            let writer = &mut this.writer;
            poll_encode(&mut this.inner, buf, |bytes| {
                Pin::new(&mut *writer).poll_write(cx, bytes)
            })
        }

        fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
            let this = self.get_mut();
            let writer = &mut this.writer;
            ready!(poll_deliver(&mut this.inner, |bytes| {
                Pin::new(&mut *writer).poll_write(cx, bytes)
            }))?;
            this.inner.end_block();
            ready!(poll_deliver(&mut this.inner, |bytes| {
                Pin::new(&mut *writer).poll_write(cx, bytes)
            }))?;
            Pin::new(writer).poll_flush(cx)
        }

        fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
            let this = self.get_mut();
            let writer = &mut this.writer;
            if !this.inner.is_finished() {
                ready!(poll_deliver(&mut this.inner, |bytes| {
                    Pin::new(&mut *writer).poll_write(cx, bytes)
                }))?;
                this.inner.end_frame().map_err(io_error)?;
            }
            ready!(poll_deliver(&mut this.inner, |bytes| {
                Pin::new(&mut *writer).poll_write(cx, bytes)
            }))?;
            Pin::new(writer).poll_shutdown(cx)
        }
    }

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

    use futures_io::{AsyncRead, AsyncWrite};

    use super::{next, note_read, poll_deliver, poll_encode, Next};
    use crate::frame::{io_error, FrameCompressor, FrameDecompressor, FrameInfo, FrameOptions};

    /// Compresses everything written to it into one LZ4 frame on a `futures_io::AsyncWrite`:
    /// the async [`FrameEncoder`](crate::frame::FrameEncoder), with the same bytes. `poll_close`
    /// (`AsyncWriteExt::close`) writes the end of the frame, then closes the inner writer;
    /// without it the frame is truncated. See the [module docs](super).
    #[derive(Debug)]
    pub struct FrameEncoder<W> {
        writer: W,
        inner: FrameCompressor,
    }

    impl<W: AsyncWrite + Unpin> FrameEncoder<W> {
        /// An encoder writing one frame with `options` to `writer`.
        pub fn new(writer: W, options: FrameOptions) -> Self {
            Self::with_compressor(writer, FrameCompressor::new(options))
        }

        /// An encoder with the settings of `compressor` (a dictionary, auto-flush), which must
        /// not have been used yet.
        pub fn with_compressor(writer: W, compressor: FrameCompressor) -> Self {
            Self {
                writer,
                inner: compressor,
            }
        }

        /// The inner writer.
        pub fn get_ref(&self) -> &W {
            &self.writer
        }

        /// The inner writer, mutably (writing to it directly puts bytes inside the frame).
        pub fn get_mut(&mut self) -> &mut W {
            &mut self.writer
        }

        /// Gives back the inner writer (after `close`, the frame is complete in it).
        pub fn into_inner(self) -> W {
            self.writer
        }
    }

    impl<W: AsyncWrite + Unpin> AsyncWrite for FrameEncoder<W> {
        fn poll_write(
            self: Pin<&mut Self>,
            cx: &mut Context<'_>,
            buf: &[u8],
        ) -> Poll<io::Result<usize>> {
            let this = self.get_mut();
            let writer = &mut this.writer;
            poll_encode(&mut this.inner, buf, |bytes| {
                Pin::new(&mut *writer).poll_write(cx, bytes)
            })
        }

        fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
            let this = self.get_mut();
            let writer = &mut this.writer;
            ready!(poll_deliver(&mut this.inner, |bytes| {
                Pin::new(&mut *writer).poll_write(cx, bytes)
            }))?;
            this.inner.end_block();
            ready!(poll_deliver(&mut this.inner, |bytes| {
                Pin::new(&mut *writer).poll_write(cx, bytes)
            }))?;
            Pin::new(writer).poll_flush(cx)
        }

        fn poll_close(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
            let this = self.get_mut();
            let writer = &mut this.writer;
            if !this.inner.is_finished() {
                ready!(poll_deliver(&mut this.inner, |bytes| {
                    Pin::new(&mut *writer).poll_write(cx, bytes)
                }))?;
                this.inner.end_frame().map_err(io_error)?;
            }
            ready!(poll_deliver(&mut this.inner, |bytes| {
                Pin::new(&mut *writer).poll_write(cx, bytes)
            }))?;
            Pin::new(writer).poll_close(cx)
        }
    }

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
