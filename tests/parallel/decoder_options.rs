//! The streaming parallel decoder's options that the `lz4` command needs (`-D` and kernel
//! images): [`ParallelFrameDecoder::with_any_dictionary`] and
//! [`ParallelFrameDecoder::kernel_trailer`] give exactly [`FrameDecoder`]'s content and errors
//! with the same options, at every thread count from 1 to 4: frames compressed with the
//! dictionary under any dictionary ID or none (independent blocks read ahead, linked blocks
//! decoded in place, a corrupt block among them), and a legacy frame followed by a kernel
//! image's size trailer and zero padding (accepted with the option, the sequential decoder's
//! error without it, and a trailer that lies about the size or is followed by other bytes).
//!
//! Run: `cargo test --features parallel --test parallel decoder_options::`.
#![cfg(feature = "parallel")]

use std::io::Read;

use lz4_simd::frame::{
    self, BlockMode, BlockSize, FrameDecoder, FrameDecompressor, FrameOptions, ParallelFrameDecoder,
};
use testkit::io::assert_same_stream;
use testkit::samples::{self, Rng};

const KIB: usize = 1 << 10;

/// Everything `decoder` hands out, and its error (if any) as text.
fn drain(mut decoder: impl Read) -> (Vec<u8>, Option<String>) {
    let mut content = Vec::new();
    match decoder.read_to_end(&mut content) {
        Ok(_) => (content, None),
        Err(error) => (content, Some(error.to_string())),
    }
}

#[test]
fn any_dictionary_serves_every_frame_as_in_the_sequential_decoder() {
    let mut rng = Rng::new(31);
    let dict = samples::text(80 * KIB, &mut rng);
    let text = samples::text(700 * KIB + 3, &mut rng);
    let small = FrameOptions::new().block_size(BlockSize::Max64KB);
    let mut framed = Vec::new();
    for options in [
        small.clone().dict_id(Some(7)),
        small.clone(),
        small
            .clone()
            .dict_id(Some(99))
            .block_mode(BlockMode::Linked),
        FrameOptions::new()
            .block_size(BlockSize::Max256KB)
            .dict_id(Some(1)),
    ] {
        framed.extend_from_slice(&frame::compress_with_dictionary(&text, &dict, &options));
    }
    let expected = drain(FrameDecoder::with_any_dictionary(&framed[..], &dict));
    assert_eq!(expected.1, None);
    assert_eq!(expected.0.len(), 4 * text.len());
    // A corrupt byte in the second frame's third block (read ahead), then in the linked frame.
    let mut corrupt = Vec::new();
    for at in [text.len() / 2 + 150 * KIB, framed.len() * 3 / 5] {
        let mut bad = framed.clone();
        bad[at] ^= 0x55;
        corrupt.push((
            bad.clone(),
            drain(FrameDecoder::with_any_dictionary(&bad[..], &dict)),
        ));
    }
    for threads in 1..=4 {
        let got = drain(ParallelFrameDecoder::with_any_dictionary(
            &framed[..],
            &dict,
            threads,
        ));
        assert!(got == expected, "{threads} threads");
        for (bad, expected) in &corrupt {
            let got = drain(ParallelFrameDecoder::with_any_dictionary(
                &bad[..],
                &dict,
                threads,
            ));
            assert_same_stream(format!("{threads} threads"), &got, expected);
        }
    }
    // Without the dictionary the frames naming an ID are refused, as sequentially.
    let expected = drain(FrameDecoder::new(&framed[..]));
    assert!(expected.1.is_some());
    for threads in 1..=4 {
        assert_eq!(
            drain(ParallelFrameDecoder::new(&framed[..], threads)),
            expected
        );
    }
}

#[test]
fn kernel_trailers_as_in_the_sequential_decoder() {
    let data = samples::logs(300 * KIB, &mut Rng::new(32));
    let legacy = frame::compress_legacy(&data, 1);
    let trailer = |size: usize, padding: &[u8]| {
        let mut image = legacy.clone();
        image.extend_from_slice(&(size as u32).to_le_bytes());
        image.extend_from_slice(padding);
        image
    };
    let cases = [
        trailer(data.len(), &[]),
        trailer(data.len(), &[0; 77]),
        trailer(data.len() - 1, &[0; 3]),
        trailer(data.len(), &[0, 0, 1]),
    ];
    for (case, image) in cases.iter().enumerate() {
        for on in [true, false] {
            let decompressor = FrameDecompressor::new().kernel_trailer(on);
            let expected = drain(FrameDecoder::with_decompressor(&image[..], decompressor));
            assert_eq!(expected.1.is_none(), on && case < 2, "case {case}, {on}");
            for threads in 1..=4 {
                let got = drain(ParallelFrameDecoder::new(&image[..], threads).kernel_trailer(on));
                assert_same_stream(
                    format!("case {case}, {on}, {threads} threads"),
                    &got,
                    &expected,
                );
            }
        }
    }
}
