//! The sans-IO frame decoder: a kernel image trailer with long padding.

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

/// After several frames (legacy or not), the trailer is the content size of the whole stream,
/// as `container::linux::decompress` checks it: every decoder accepts that trailer and refuses
/// one equal to the last frame's content alone (which is then a block size word of a block that
/// is not there).
#[test]
fn kernel_trailer_after_several_frames_is_the_whole_content() {
    let first = b"initramfs part one ".repeat(3_000);
    let second = b"and the kernel image itself ".repeat(5_000);
    let lz4 = frame::compress(&first, &frame::FrameOptions::new());
    for head in [frame::compress_legacy(&first, 1), lz4] {
        let stream = [head, frame::compress_legacy(&second, 1)].concat();
        let whole = [&first[..], &second[..]].concat();
        for (trailer, accepted) in [(whole.len(), true), (second.len(), false)] {
            let mut image = stream.clone();
            image.extend_from_slice(&(trailer as u32).to_le_bytes());
            image.extend_from_slice(&[0; 12]);
            #[cfg(feature = "containers")]
            assert_eq!(
                lz4_simd::container::linux::decompress(&image, 1 << 24).ok(),
                accepted.then(|| whole.clone()),
                "linux::decompress, trailer {trailer}"
            );
            let mut streamed = Vec::new();
            let result = FrameDecoder::with_decompressor(
                &image[..],
                FrameDecompressor::new().kernel_trailer(true),
            )
            .read_to_end(&mut streamed);
            assert_eq!(result.is_ok(), accepted, "FrameDecoder, trailer {trailer}");
            if accepted {
                assert!(streamed == whole);
            }
            #[cfg(feature = "parallel")]
            for threads in [1, 2] {
                let mut parallel = Vec::new();
                let result = frame::ParallelFrameDecoder::new(&image[..], threads)
                    .kernel_trailer(true)
                    .read_to_end(&mut parallel);
                assert_eq!(
                    result.is_ok(),
                    accepted,
                    "{threads} threads, trailer {trailer}"
                );
                if accepted {
                    assert!(parallel == whole);
                }
            }
        }
    }
}
