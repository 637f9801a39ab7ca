//! Frames for async runtimes: [`AsyncFrameDecoder`] (an `AsyncRead`) and [`AsyncFrameEncoder`]
//! (an `AsyncWrite` whose shutdown / close finishes the frame), on the sans-IO
//! [`FrameDecompressor`] and [`FrameCompressor`]: the frame logic, the bytes, the checks and the
//! errors (with their input offsets) are the blocking adapters'. Each implements the traits of
//! [`tokio`] (feature `tokio`) and of [`futures`] (feature `futures-io`: the `futures` crate
//! family, smol, async-std); the modules name them `FrameDecoder` and `FrameEncoder`.
//!
//! Cancellation and errors: the frame module docs, `# Async runtimes`.

use std::io;
use std::task::{ready, Context, Poll};

use super::{io_error, FrameCompressor, FrameDecompressor, FrameInfo, FrameOptions};

/// Decompresses a stream of concatenated frames from an async reader, as an async reader: the
/// async [`FrameDecoder`](crate::frame::FrameDecoder). `tokio::io::AsyncRead` and
/// `futures_io::AsyncRead` (with their features) for readers of either kind. See the
/// [frame module docs](crate::frame#async-runtimes) for cancellation and
/// errors.
///
/// ```
/// # #[cfg(feature = "tokio")]
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
/// # #[cfg(not(feature = "tokio"))]
/// # fn main() {}
/// ```
#[derive(Debug)]
pub struct AsyncFrameDecoder<R> {
    reader: R,
    inner: FrameDecompressor,
}

impl<R> AsyncFrameDecoder<R> {
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

    /// The inner reader, mutably (reading from it directly skips input the decoder would have
    /// read).
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.reader
    }

    /// Gives back the inner reader and the bytes read from it but not used (see
    /// [`FrameDecoder::into_parts`](crate::frame::FrameDecoder::into_parts)).
    pub fn into_parts(self) -> (R, Vec<u8>) {
        let unused = self.inner.unused_input();
        (self.reader, unused)
    }
}

/// Compresses everything written to it into one LZ4 frame on an async writer: the async
/// [`FrameEncoder`](crate::frame::FrameEncoder), with the same bytes. `tokio::io::AsyncWrite`
/// (whose `poll_shutdown` ends the frame) and `futures_io::AsyncWrite` (`poll_close`), with
/// their features; without the shutdown / close the frame is truncated. See the
/// [frame module docs](crate::frame#async-runtimes) for cancellation and
/// errors.
///
/// ```
/// # #[cfg(feature = "tokio")]
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> std::io::Result<()> {
/// use tokio::io::AsyncWriteExt;
/// use lz4_simd::frame::{self, FrameOptions};
/// let mut encoder = frame::tokio::FrameEncoder::new(Vec::new());
/// encoder.write_all(b"async frames").await?;
/// encoder.shutdown().await?; // ends the frame
/// let framed = encoder.into_inner();
/// assert_eq!(frame::decompress(&framed, 100).unwrap(), b"async frames");
/// # Ok(())
/// # }
/// # #[cfg(not(feature = "tokio"))]
/// # fn main() {}
/// ```
#[derive(Debug)]
pub struct AsyncFrameEncoder<W> {
    writer: W,
    inner: FrameCompressor,
}

impl<W> AsyncFrameEncoder<W> {
    /// An encoder writing one frame with the default options ([`FrameOptions::default`]) to
    /// `writer`.
    pub fn new(writer: W) -> Self {
        Self::with_options(writer, FrameOptions::default())
    }

    /// An encoder writing one frame with `options` to `writer`.
    pub fn with_options(writer: W, options: FrameOptions) -> Self {
        Self::with_compressor(writer, FrameCompressor::with_options(options))
    }

    /// An encoder with the settings of `compressor` (a dictionary, auto-flush), which must not
    /// have been used yet.
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

    /// Gives back the inner writer (after shutdown / close, the frame is complete in it).
    pub fn into_inner(self) -> W {
        self.writer
    }
}

/// An async reader of either kind, as the shared decoding loop needs it.
trait Source {
    fn poll_read_into(&mut self, cx: &mut Context<'_>, buf: &mut [u8]) -> Poll<io::Result<usize>>;
}

/// An async writer of either kind, as the shared encoding code needs it.
trait Destination {
    fn poll_write_from(&mut self, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>>;
    fn poll_flush_inner(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>>;
    fn poll_close_inner(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>>;
}

/// The decoding loop: content waiting goes to `deliver` (which appends what it takes of the
/// piece it is given after what it took before, and returns how much it took), a piece of at
/// most `FrameDecompressor::hand_out_piece` at a time, each consumed (hashed for the content checksum) right
/// after its copy; otherwise input is read into the decompressor's unit buffer until a block
/// decodes or the input ends. `Ok(0)` is the end of the stream (or of the single frame).
fn poll_decode(
    inner: &mut FrameDecompressor,
    source: &mut impl Source,
    cx: &mut Context<'_>,
    mut deliver: impl FnMut(&[u8]) -> usize,
) -> Poll<io::Result<usize>> {
    loop {
        if !inner.pending().is_empty() {
            let mut taken = 0;
            let piece = inner.hand_out_piece();
            loop {
                let pending = inner.pending();
                let offered = pending.len().min(piece);
                let n = deliver(&pending[..offered]);
                inner.consume(n);
                taken += n;
                if n < offered || inner.pending().is_empty() {
                    return Poll::Ready(Ok(taken));
                }
            }
        }
        if inner.parser.is_done() {
            return Poll::Ready(Ok(0));
        }
        let space = inner.input_space().map_err(io_error)?;
        let room = space.len();
        let read = ready!(source.poll_read_into(cx, space))?;
        if read > room {
            return Poll::Ready(Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "the inner reader reported reading more bytes than it was asked for",
            )));
        }
        if read == 0 {
            // Ends well only between frames (or after a legacy block, or the single frame).
            inner.finish().map_err(io_error)?;
            return Poll::Ready(Ok(0));
        }
        inner.input_filled(read).map_err(io_error)?;
    }
}

/// Writes the compressor's pending output until none is left.
fn poll_deliver(
    inner: &mut FrameCompressor,
    destination: &mut impl Destination,
    cx: &mut Context<'_>,
) -> Poll<io::Result<()>> {
    while !inner.pending_output().is_empty() {
        match destination.poll_write_from(cx, inner.pending_output()) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(Ok(0)) => {
                return Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::WriteZero,
                    "the inner writer accepted no bytes of the compressed frame",
                )))
            }
            Poll::Ready(Ok(written)) => inner.consume_output(written),
            Poll::Ready(Err(error)) if error.kind() == io::ErrorKind::Interrupted => {}
            Poll::Ready(Err(error)) => return Poll::Ready(Err(error)),
        }
    }
    Poll::Ready(Ok(()))
}

/// `poll_write`: earlier output first (none of `buf` is taken until it is written), then as
/// much of `buf` as completes a block, whose output is written if the writer takes it now (else
/// by the next call).
fn poll_encode(
    inner: &mut FrameCompressor,
    destination: &mut impl Destination,
    cx: &mut Context<'_>,
    buf: &[u8],
) -> Poll<io::Result<usize>> {
    if buf.is_empty() {
        return Poll::Ready(Ok(0));
    }
    ready!(poll_deliver(inner, destination, cx))?;
    let taken = inner.take_input(buf).map_err(io_error)?;
    let _ = poll_deliver(inner, destination, cx);
    Poll::Ready(Ok(taken))
}

/// `poll_flush`: the current block ends, everything is written, the writer is flushed.
fn poll_flush_frame(
    inner: &mut FrameCompressor,
    destination: &mut impl Destination,
    cx: &mut Context<'_>,
) -> Poll<io::Result<()>> {
    ready!(poll_deliver(inner, destination, cx))?;
    inner.end_block();
    ready!(poll_deliver(inner, destination, cx))?;
    destination.poll_flush_inner(cx)
}

/// `poll_shutdown` / `poll_close`: the frame ends, everything is written, the writer is
/// shut down. Calling it again after an error resumes where it stopped.
fn poll_end_frame(
    inner: &mut FrameCompressor,
    destination: &mut impl Destination,
    cx: &mut Context<'_>,
) -> Poll<io::Result<()>> {
    if !inner.is_finished() {
        ready!(poll_deliver(inner, destination, cx))?;
        inner.end_frame().map_err(io_error)?;
    }
    ready!(poll_deliver(inner, destination, cx))?;
    destination.poll_close_inner(cx)
}

/// The `tokio` adapters: [`AsyncFrameDecoder`] and [`AsyncFrameEncoder`] on tokio's traits.
#[cfg(feature = "tokio")]
#[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
pub mod tokio {
    use core::pin::Pin;
    use std::io;
    use std::task::{ready, Context, Poll};

    use ::tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

    use super::{poll_decode, poll_encode, poll_end_frame, poll_flush_frame, Destination, Source};
    pub use super::{AsyncFrameDecoder as FrameDecoder, AsyncFrameEncoder as FrameEncoder};

    struct Tokio<'a, T>(&'a mut T);

    impl<R: AsyncRead + Unpin> Source for Tokio<'_, R> {
        fn poll_read_into(
            &mut self,
            cx: &mut Context<'_>,
            buf: &mut [u8],
        ) -> Poll<io::Result<usize>> {
            let mut buf = ReadBuf::new(buf);
            ready!(Pin::new(&mut *self.0).poll_read(cx, &mut buf))?;
            Poll::Ready(Ok(buf.filled().len()))
        }
    }

    impl<W: AsyncWrite + Unpin> Destination for Tokio<'_, W> {
        fn poll_write_from(&mut self, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
            Pin::new(&mut *self.0).poll_write(cx, buf)
        }
        fn poll_flush_inner(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
            Pin::new(&mut *self.0).poll_flush(cx)
        }
        fn poll_close_inner(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
            Pin::new(&mut *self.0).poll_shutdown(cx)
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
            let deliver = |content: &[u8]| {
                let n = content.len().min(buf.remaining());
                buf.put_slice(&content[..n]);
                n
            };
            ready!(poll_decode(
                &mut this.inner,
                &mut Tokio(&mut this.reader),
                cx,
                deliver
            ))?;
            Poll::Ready(Ok(()))
        }
    }

    impl<W: AsyncWrite + Unpin> AsyncWrite for FrameEncoder<W> {
        fn poll_write(
            self: Pin<&mut Self>,
            cx: &mut Context<'_>,
            buf: &[u8],
        ) -> Poll<io::Result<usize>> {
            let this = self.get_mut();
            poll_encode(&mut this.inner, &mut Tokio(&mut this.writer), cx, buf)
        }

        fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
            let this = self.get_mut();
            poll_flush_frame(&mut this.inner, &mut Tokio(&mut this.writer), cx)
        }

        fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
            let this = self.get_mut();
            poll_end_frame(&mut this.inner, &mut Tokio(&mut this.writer), cx)
        }
    }
}

/// The `futures-io` adapters: [`AsyncFrameDecoder`] and [`AsyncFrameEncoder`] on the
/// `futures-io` traits.
#[cfg(feature = "futures-io")]
#[cfg_attr(docsrs, doc(cfg(feature = "futures-io")))]
pub mod futures {
    use core::pin::Pin;
    use std::io;
    use std::task::{Context, Poll};

    use futures_io::{AsyncRead, AsyncWrite};

    use super::{poll_decode, poll_encode, poll_end_frame, poll_flush_frame, Destination, Source};
    pub use super::{AsyncFrameDecoder as FrameDecoder, AsyncFrameEncoder as FrameEncoder};

    struct Futures<'a, T>(&'a mut T);

    impl<R: AsyncRead + Unpin> Source for Futures<'_, R> {
        fn poll_read_into(
            &mut self,
            cx: &mut Context<'_>,
            buf: &mut [u8],
        ) -> Poll<io::Result<usize>> {
            Pin::new(&mut *self.0).poll_read(cx, buf)
        }
    }

    impl<W: AsyncWrite + Unpin> Destination for Futures<'_, W> {
        fn poll_write_from(&mut self, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
            Pin::new(&mut *self.0).poll_write(cx, buf)
        }
        fn poll_flush_inner(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
            Pin::new(&mut *self.0).poll_flush(cx)
        }
        fn poll_close_inner(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
            Pin::new(&mut *self.0).poll_close(cx)
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
            let mut filled = 0;
            let deliver = |content: &[u8]| {
                let n = content.len().min(buf.len() - filled);
                buf[filled..filled + n].copy_from_slice(&content[..n]);
                filled += n;
                n
            };
            poll_decode(&mut this.inner, &mut Futures(&mut this.reader), cx, deliver)
        }
    }

    impl<W: AsyncWrite + Unpin> AsyncWrite for FrameEncoder<W> {
        fn poll_write(
            self: Pin<&mut Self>,
            cx: &mut Context<'_>,
            buf: &[u8],
        ) -> Poll<io::Result<usize>> {
            let this = self.get_mut();
            poll_encode(&mut this.inner, &mut Futures(&mut this.writer), cx, buf)
        }

        fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
            let this = self.get_mut();
            poll_flush_frame(&mut this.inner, &mut Futures(&mut this.writer), cx)
        }

        fn poll_close(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
            let this = self.get_mut();
            poll_end_frame(&mut this.inner, &mut Futures(&mut this.writer), cx)
        }
    }
}
