//! The sans-IO frame decoder (issue 19): a kernel image trailer with long padding.

use std::io::Read;

use lz4_simd::frame::{self, FrameDecoder, FrameDecompressor, Status};

/// A kernel image whose zero padding after the size trailer is longer than the content size
/// (a small image): the trailer word then announces a "block" that the padding fills whole, so
/// the unit is complete rather than cut by the end of the input. The padding is still only
/// zeros after a trailer equal to the content size, and `container::linux` accepts it.
#[test]
fn kernel_trailer_with_padding_longer_than_the_content() {
    for (len, padding) in [(10usize, 64usize), (100, 4096), (1000, 1001), (2, 3)] {
        let content = b"vmlinux!"
            .repeat(len)
            .into_iter()
            .take(len)
            .collect::<Vec<_>>();
        let mut image = frame::compress_legacy(&content, 1);
        image.extend_from_slice(&(len as u32).to_le_bytes());
        image.extend(std::iter::repeat_n(0u8, padding));
        #[cfg(feature = "containers")]
        assert_eq!(
            lz4_simd::container::linux::decompress(&image, 1 << 20).unwrap(),
            content
        );
        // Whole input at once, and a byte at a time.
        for step in [image.len(), 1] {
            let mut decompressor = FrameDecompressor::new().kernel_trailer(true);
            let mut got = Vec::new();
            let mut out = [0u8; 4096];
            for piece in image.chunks(step) {
                let mut piece = piece;
                loop {
                    let progress = decompressor
                        .decompress(piece, &mut out)
                        .unwrap_or_else(|e| panic!("{len}+{padding}, step {step}: {e}"));
                    got.extend_from_slice(&out[..progress.produced]);
                    piece = &piece[progress.consumed..];
                    if progress.status == Status::NeedInput {
                        break;
                    }
                }
            }
            decompressor.finish().unwrap();
            assert_eq!(got, content, "{len}+{padding}, step {step}");
        }
        let mut streamed = Vec::new();
        FrameDecoder::with_decompressor(&image[..], FrameDecompressor::new().kernel_trailer(true))
            .read_to_end(&mut streamed)
            .unwrap_or_else(|e| panic!("{len}+{padding}: {e}"));
        assert_eq!(streamed, content);
    }
}
