//! The block API, the one-shot frame API (the frame parser, `frame/codec.rs`, under it) and the
//! sans-IO `FrameDecompressor` of the library built without `std`: round trips and interop with
//! lz4_flex, an independent
//! implementation in pure Rust (so this runs on wasm32 too, where liblz4 does not): our blocks
//! and frames decode with it, and its blocks and frames decode with every kernel here.

use std::io::{Read as _, Write as _};

use lz4_simd::frame::{self, BlockMode, BlockSize, FrameDecompressor, FrameOptions, Status};
use lz4_simd::{block, Error, Kernel};
use testkit::samples;

/// Text, runs, short periods and noise, and sizes around the frame block sizes.
fn inputs() -> Vec<Vec<u8>> {
    let mut inputs = vec![Vec::new(), b"a".to_vec(), b"hello hello hello".to_vec()];
    for period in [1usize, 2, 3, 5, 7, 8, 13, 16, 31] {
        inputs.push((0..5000).map(|i| ((i % period) * 17) as u8).collect());
    }
    for (_, data) in samples::builtin(300_000) {
        inputs.push(data);
    }
    inputs
}

#[test]
fn blocks_round_trip_and_interoperate() {
    let kernels = testkit::kernels::under_test();
    for data in inputs() {
        let ours = block::compress(&data).unwrap();
        let flex = lz4_flex::block::compress(&data);
        assert_eq!(
            lz4_flex::block::decompress(&ours, data.len()).unwrap(),
            data
        );
        for kernel in &kernels {
            let decoder = block::Decoder::with_kernel(*kernel).unwrap();
            assert_eq!(
                decoder.decompress(&ours, data.len()).unwrap(),
                data,
                "{kernel}"
            );
            assert_eq!(
                decoder.decompress(&flex, data.len()).unwrap(),
                data,
                "{kernel}"
            );
            if !data.is_empty() {
                let err = decoder.decompress(&ours, data.len() - 1).unwrap_err();
                assert!(
                    matches!(
                        err,
                        Error::LiteralsOverflowOutput { .. } | Error::MatchOverflowsOutput { .. }
                    ),
                    "{kernel}: {err:?}"
                );
            }
        }
        let hc = block::compress_hc(&data, 9).unwrap();
        assert_eq!(block::decompress(&hc, data.len()).unwrap(), data);
    }
}

#[test]
fn frames_round_trip_and_interoperate() {
    let options = [
        FrameOptions::new(),
        FrameOptions::new()
            .block_size(BlockSize::Max64KB)
            .block_mode(BlockMode::Linked)
            .block_checksum(true)
            .content_size(true),
        FrameOptions::new()
            .block_size(BlockSize::Max256KB)
            .content_checksum(false)
            .hc_level(Some(9)),
    ];
    for data in inputs() {
        for options in &options {
            let framed = frame::compress(&data, options);
            assert_eq!(frame::decompress(&framed, data.len()).unwrap(), data);
            let mut flex = Vec::new();
            lz4_flex::frame::FrameDecoder::new(&framed[..])
                .read_to_end(&mut flex)
                .unwrap();
            assert_eq!(flex, data);
            // Truncated frames are errors, never a short success.
            if framed.len() > 7 {
                let cut = &framed[..framed.len() - 1];
                assert!(frame::decompress(cut, data.len()).is_err());
            }
        }
        let info = lz4_flex::frame::FrameInfo::new()
            .block_mode(lz4_flex::frame::BlockMode::Linked)
            .block_checksums(true);
        let mut encoder = lz4_flex::frame::FrameEncoder::with_frame_info(info, Vec::new());
        encoder.write_all(&data).unwrap();
        let flex = encoder.finish().unwrap();
        assert_eq!(frame::decompress(&flex, data.len()).unwrap(), data);
    }
}

/// `framed` pushed through a [`FrameDecompressor`] in pieces of `piece` bytes, pulled into an
/// `out`-byte buffer; the content, or the first error (`finish` included).
fn sans_io(framed: &[u8], piece: usize, out: usize) -> Result<Vec<u8>, Error> {
    let mut decompressor = FrameDecompressor::new();
    let mut buffer = vec![0u8; out];
    let mut content = Vec::new();
    for mut input in framed.chunks(piece) {
        loop {
            let progress = decompressor.decompress(input, &mut buffer)?;
            content.extend_from_slice(&buffer[..progress.produced]);
            input = &input[progress.consumed..];
            if progress.status == Status::NeedInput {
                break;
            }
        }
    }
    decompressor.finish()?;
    Ok(content)
}

#[test]
fn sans_io_frames_in_uneven_pieces() {
    for data in inputs() {
        let ours = frame::compress(
            &data,
            &FrameOptions::new()
                .block_size(BlockSize::Max64KB)
                .block_mode(BlockMode::Linked)
                .block_checksum(true),
        );
        let mut encoder = lz4_flex::frame::FrameEncoder::new(Vec::new());
        encoder.write_all(&data).unwrap();
        let flex = encoder.finish().unwrap();
        for framed in [&ours, &flex] {
            for (piece, out) in [(1, 7), (13, 1000), (4096, 65536), (framed.len().max(1), 1)] {
                if data.len() > 100_000 && piece < 13 {
                    continue; // byte by byte is slow under a debug build on wasm
                }
                assert_eq!(sans_io(framed, piece, out).unwrap(), data, "{piece} {out}");
            }
            let cut = &framed[..framed.len() - 1];
            assert!(
                sans_io(cut, 4096, 4096).is_err(),
                "a truncated frame is an error"
            );
        }
    }
}

#[test]
fn kernel_choice_without_std() {
    // No environment without `std`: the override is never set, detection picks the best.
    assert_eq!(Kernel::override_status(), lz4_simd::KernelOverride::NotSet);
    assert_eq!(Kernel::detect(), Kernel::available()[0]);
    if cfg!(all(target_arch = "wasm32", target_feature = "simd128")) {
        assert_eq!(Kernel::detect(), Kernel::Simd128);
    }
}
