//! LZ4 frames on tokio (feature `tokio`): compresses through an `AsyncWrite` into a `Vec`, then
//! decompresses through an `AsyncRead`. Any tokio writer or reader (a file, a socket) works the
//! same way.
//!
//! ```sh
//! cargo run --example tokio_frames
//! ```

use lz4_simd::frame::tokio::{FrameDecoder, FrameEncoder};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::io::Result<()> {
    let content = b"{\"event\":\"tick\",\"ok\":true}\n".repeat(10_000);

    // Compress: write in pieces of any size, then `shutdown`, which ends the frame (without it
    // the frame is truncated and a decoder reports the error).
    let mut encoder = FrameEncoder::new(Vec::new());
    for piece in content.chunks(1000) {
        encoder.write_all(piece).await?;
    }
    encoder.shutdown().await?;
    let framed = encoder.into_inner();
    println!("{} bytes -> {} bytes framed", content.len(), framed.len());

    // Decompress: `&[u8]` is an `AsyncRead`. `read_to_end` returns `Ok` only once the frame's
    // end mark and checksum were read and checked.
    let mut decoder = FrameDecoder::new(&framed[..]);
    let mut back = Vec::new();
    decoder.read_to_end(&mut back).await?;
    assert_eq!(back, content);
    println!("decompressed {} bytes, identical", back.len());
    Ok(())
}
