//! Linux images with zero padding: a legacy frame (`lz4 -l`, an lz4 initrd) followed by zeros
//! with no size word, and several such images with zero padding between them, as a boot loader
//! that pads and aligns every initrd it loads hands them to the kernel.
//!
//! `kernel_unpack` is a small model of how the kernel reads them: the initramfs loader's loop
//! (zero bytes skipped one by one, an image wherever a nonzero byte is, found by its magic
//! number) around `unlz4`'s loop on an in-memory input (fewer than 4 bytes left, or a block size
//! of 0, ends the image; a legacy magic number continues it). `container::linux::decompress`
//! and the streaming decoders' kernel option are checked against it, and against fixed cases.
#![cfg(feature = "containers")]

use lz4_simd::container::linux;
use lz4_simd::{block, frame, Error, ErrorKind};
use testkit::samples::generated;

const LEGACY_MAGIC: [u8; 4] = [0x02, 0x21, 0x4C, 0x18];
const CAP: usize = 1 << 24;

/// The kernel's reading of a buffer of lz4 images: the content, or the offset where it fails.
pub fn kernel_unpack(src: &[u8]) -> Result<Vec<u8>, usize> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < src.len() {
        if src[pos] == 0 {
            pos += 1;
            continue;
        }
        // The only LZ4 image format the kernel knows is the legacy frame.
        if src.len() - pos < 4 || src[pos..pos + 4] != LEGACY_MAGIC {
            return Err(pos);
        }
        pos = unlz4(src, pos + 4, &mut out)?;
    }
    Ok(out)
}

/// `unlz4` with an in-memory input, from just after the magic number: where it stopped.
fn unlz4(src: &[u8], mut pos: usize, out: &mut Vec<u8>) -> Result<usize, usize> {
    loop {
        if src.len() - pos < 4 {
            return Ok(pos);
        }
        let word: [u8; 4] = src[pos..pos + 4].try_into().unwrap();
        if word == LEGACY_MAGIC {
            pos += 4;
            continue;
        }
        let size = u32::from_le_bytes(word) as usize;
        if size == 0 {
            return Ok(pos);
        }
        pos += 4;
        if size > src.len() - pos {
            return Err(pos);
        }
        let content = block::decompress(&src[pos..pos + size], 8 << 20).map_err(|_| pos)?;
        out.extend_from_slice(&content);
        pos += size;
        if pos == src.len() {
            return Ok(pos);
        }
    }
}

/// The streaming decoder with the kernel option, reading `chunk` bytes at a time.
fn streamed(src: &[u8], chunk: usize) -> Result<Vec<u8>, Error> {
    use std::io::Read;
    struct Trickle<'a>(&'a [u8], usize);
    impl std::io::Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.1.min(buf.len()).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }
    let decompressor = frame::FrameDecompressor::new().kernel_trailer(true);
    let mut decoder = frame::FrameDecoder::with_decompressor(Trickle(src, chunk), decompressor);
    let mut out = Vec::new();
    match decoder.read_to_end(&mut out) {
        Ok(_) => Ok(out),
        Err(error) => Err(error
            .into_inner()
            .and_then(|inner| inner.downcast::<Error>().ok())
            .map(|boxed| *boxed)
            .unwrap_or_else(|| panic!("not a library error"))),
    }
}

/// `FrameDecompressor::decompress` with the kernel option, given `chunk` bytes at a time.
fn sans_io(src: &[u8], chunk: usize) -> Result<Vec<u8>, Error> {
    let mut decoder = frame::FrameDecompressor::new().kernel_trailer(true);
    let mut content = Vec::new();
    let mut out = vec![0; 1 << 16];
    let mut input = src;
    loop {
        let piece = &input[..chunk.min(input.len())];
        let progress = decoder.decompress(piece, &mut out)?;
        content.extend_from_slice(&out[..progress.produced]);
        input = &input[progress.consumed..];
        if progress.consumed == 0 && progress.produced == 0 {
            decoder.finish()?;
            return Ok(content);
        }
    }
}

/// `src` decodes to `expected` one-shot and streamed (in pieces of several sizes, and on
/// threads), and the kernel's model reads the same; `lz4`'s reading (`frame::decompress`)
/// refuses the padding.
#[track_caller]
fn accepted(src: &[u8], expected: &[u8], what: &str) {
    assert_eq!(kernel_unpack(src).as_deref(), Ok(expected), "model: {what}");
    let got = linux::decompress(src, CAP).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(got == expected, "{what}: content differs");
    for chunk in [1, 3, 4096, usize::MAX] {
        let got = streamed(src, chunk).unwrap_or_else(|e| panic!("{what}, {chunk}: {e}"));
        assert!(
            got == expected,
            "{what}, streamed by {chunk}: content differs"
        );
        let got = sans_io(src, chunk).unwrap_or_else(|e| panic!("{what}, {chunk}: {e}"));
        assert!(
            got == expected,
            "{what}, sans-io by {chunk}: content differs"
        );
    }
    #[cfg(feature = "parallel")]
    {
        use std::io::Read;
        let mut decoder = frame::ParallelFrameDecoder::new(src, 2).kernel_trailer(true);
        let mut got = Vec::new();
        decoder
            .read_to_end(&mut got)
            .unwrap_or_else(|e| panic!("{what}, threads: {e}"));
        assert!(got == expected, "{what}, threads: content differs");
    }
}

/// `src` is refused one-shot and streamed, with the same error, which the model also refuses.
#[track_caller]
fn refused(src: &[u8], what: &str) -> Error {
    assert!(kernel_unpack(src).is_err(), "model accepts: {what}");
    let error = match linux::decompress(src, CAP) {
        Ok(_) => panic!("accepted: {what}"),
        Err(error) => error,
    };
    for chunk in [1, 3, usize::MAX] {
        assert_eq!(
            streamed(src, chunk).err(),
            Some(error.clone()),
            "{what}, {chunk}"
        );
        assert_eq!(
            sans_io(src, chunk).err(),
            Some(error.clone()),
            "{what}, {chunk}"
        );
    }
    error
}

fn image(name: &str, len: usize, seed: u64) -> (Vec<u8>, Vec<u8>) {
    let data = generated(name, len, seed);
    let legacy = frame::compress_legacy(&data, 1);
    (data, legacy)
}

fn padded(mut bytes: Vec<u8>, zeros: usize) -> Vec<u8> {
    bytes.resize(bytes.len() + zeros, 0);
    bytes
}

/// Zeros up to the next multiple of `align`.
fn aligned(bytes: Vec<u8>, align: usize) -> Vec<u8> {
    let len = bytes.len().next_multiple_of(align);
    padded(bytes.clone(), len - bytes.len())
}

#[test]
fn legacy_then_1_to_8_zero_bytes() {
    let (data, legacy) = image("log-lines", 30_000, 1);
    for zeros in 1..=8 {
        let src = padded(legacy.clone(), zeros);
        accepted(&src, &data, &format!("{zeros} zeros"));
        // `lz4` 1.10.0 refuses them: fewer than 4 bytes cannot be a block size, and a block
        // size of 0 is an empty block, which is invalid.
        assert!(frame::decompress(&src, CAP).is_err(), "{zeros}");
    }
    // An image of no content (the magic number alone) with its padding.
    for zeros in 1..=8 {
        accepted(&padded(LEGACY_MAGIC.to_vec(), zeros), &[], "empty image");
    }
}

#[test]
fn legacy_padded_to_4_kib() {
    for (len, seed) in [(10_000, 2), (70_001, 3), (4090, 4)] {
        let (data, legacy) = image("runs", len, seed);
        let src = aligned(legacy.clone(), 4096);
        accepted(&src, &data, &format!("{len}"));
        // A whole page of padding after an image that fills its pages.
        accepted(
            &padded(aligned(legacy, 4096), 4096),
            &data,
            &format!("{len} + 4 KiB"),
        );
    }
}

#[test]
fn two_and_three_images_with_padding_between() {
    let (a, la) = image("log-lines", 20_000, 5);
    let (b, lb) = image("runs", 9_999, 6);
    let (c, lc) = image("two-symbol", 1_234, 7);
    let two: Vec<u8> = [&a[..], &b[..]].concat();
    let three: Vec<u8> = [&a[..], &b[..], &c[..]].concat();
    for zeros in [4, 5, 6, 7, 8, 100, 4095] {
        let src = [padded(la.clone(), zeros), lb.clone()].concat();
        accepted(&src, &two, &format!("two, {zeros} between"));
        let src = [
            padded(la.clone(), zeros),
            padded(lb.clone(), zeros + 1),
            padded(lc.clone(), zeros),
        ]
        .concat();
        accepted(&src, &three, &format!("three, {zeros} between and after"));
    }
    // Every image aligned to 4 KiB, as a boot loader loads them.
    let src = [
        aligned(la.clone(), 4096),
        aligned(lb.clone(), 4096),
        aligned(lc.clone(), 4096),
    ]
    .concat();
    accepted(&src, &three, "three aligned");
    // With no padding the next image's magic number continues the stream, as before.
    accepted(&[la.clone(), lb.clone()].concat(), &two, "no padding");
    assert_eq!(frame::decompress(&[la, lb].concat(), CAP).unwrap(), two);
}

#[test]
fn fewer_than_4_zeros_before_the_next_image_are_refused() {
    // The kernel reads the zeros and the next magic number as one block size.
    let (_, la) = image("log-lines", 20_000, 8);
    let (_, lb) = image("runs", 9_999, 9);
    for zeros in 1..=3 {
        let src = [padded(la.clone(), zeros), lb.clone()].concat();
        refused(&src, &format!("{zeros} zeros between"));
    }
}

#[test]
fn padding_that_is_not_zero_is_an_error_at_its_offset() {
    let (_, legacy) = image("log-lines", 20_000, 10);
    // A nonzero byte anywhere in padding that starts with a zero block size.
    for (zeros, at) in [(12, 4), (8, 5), (8, 7), (4096, 4000), (5, 4)] {
        let mut src = padded(legacy.clone(), zeros);
        src[legacy.len() + at] = 0x5A;
        let error = refused(&src, &format!("{zeros}, {at}"));
        match error {
            Error::FrameBadMagic { input_pos, .. } => {
                assert_eq!(input_pos, (legacy.len() + at) as u64, "{zeros}, {at}")
            }
            other => panic!("{zeros}, {at}: {other}"),
        }
        assert!(error.to_string().contains("zero padding"), "{error}");
    }
    // 1 to 3 bytes after the last block that are not all zeros: a truncated block size.
    for tail in [&[1u8][..], &[0, 0, 9], &[7, 0]] {
        let src = [&legacy[..], tail].concat();
        let error = refused(&src, &format!("{tail:?}"));
        assert_eq!(
            error,
            Error::FrameTruncated {
                input_pos: src.len() as u64,
                what: "a 4-byte legacy block size, or zero padding",
            }
        );
    }
    // After padding, only a legacy frame: an LZ4 frame is no kernel image.
    let framed = frame::compress(b"modern modern modern", &frame::FrameOptions::new());
    let src = [padded(legacy.clone(), 8), framed].concat();
    match refused(&src, "an LZ4 frame after padding") {
        Error::FrameBadMagic {
            input_pos, found, ..
        } => {
            assert_eq!(input_pos, legacy.len() as u64 + 8);
            assert_eq!(found, [0x04, 0x22, 0x4D, 0x18]);
        }
        other => panic!("{other}"),
    }
    // A nonzero byte in the last 1 to 3 bytes after padding.
    let mut src = padded(legacy.clone(), 6);
    let last = src.len() - 1;
    src[last] = 2;
    match refused(&src, "last byte") {
        Error::FrameBadMagic { input_pos, .. } => assert_eq!(input_pos, last as u64),
        other => panic!("{other}"),
    }
}

#[test]
fn a_block_size_of_0_in_the_middle_ends_the_image() {
    // magic, a block, a size word of 0, then another block: the kernel's `unlz4` stops at the
    // 0 and its loader finds the next block's size word where an image should start.
    let (_, la) = image("log-lines", 20_000, 11);
    let (_, lb) = image("runs", 9_999, 12);
    let mut src = la.clone();
    src.extend_from_slice(&[0; 4]);
    src.extend_from_slice(&lb[4..]);
    let error = refused(&src, "0 in the middle");
    let first_nonzero = la.len() + 4 + lb[4..].iter().position(|&b| b != 0).unwrap();
    assert_eq!(kernel_unpack(&src), Err(first_nonzero));
    match error {
        Error::FrameBadMagic { input_pos, .. } => assert_eq!(input_pos, first_nonzero as u64),
        other => panic!("{other}"),
    }
    // Without the 0 the two blocks are one stream (the first is not a full 8 MiB block, which
    // the kernel does not check either).
    assert!(kernel_unpack(&[&la[..], &lb[4..]].concat()).is_ok());
}

#[test]
fn the_cap_holds_across_padded_images() {
    let (a, la) = image("log-lines", 20_000, 13);
    let (b, lb) = image("runs", 9_999, 14);
    let src = [aligned(la, 4096), aligned(lb, 4096)].concat();
    let error = match linux::decompress(&src, a.len() + b.len() - 1) {
        Ok(_) => panic!("accepted"),
        Err(error) => error,
    };
    assert_eq!(error.kind(), ErrorKind::LimitExceeded, "{error}");
    assert_eq!(
        linux::decompress(&src, a.len() + b.len()).unwrap().len(),
        a.len() + b.len()
    );
}

/// Images, paddings and stray bytes combined every which way: the library accepts exactly what
/// the kernel's loop accepts, with the same content.
#[test]
fn agrees_with_the_kernel_loop() {
    let images: Vec<Vec<u8>> = vec![
        LEGACY_MAGIC.to_vec(),
        image("log-lines", 1000, 15).1,
        image("runs", 3001, 16).1,
        image("two-symbol", 777, 17).1,
    ];
    let paddings = [0, 1, 2, 3, 4, 5, 7, 8, 13];
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let (mut accepted_count, mut refused_count) = (0, 0);
    for round in 0..600 {
        let mut src = Vec::new();
        for _ in 0..1 + next(3) {
            src.extend_from_slice(&images[next(images.len())]);
            src.resize(src.len() + paddings[next(paddings.len())], 0);
        }
        // Now and then a stray byte, in the padding or elsewhere.
        if round % 3 == 0 {
            let at = next(src.len());
            src[at] = 1 + next(255) as u8;
        }
        let model = kernel_unpack(&src);
        let ours = linux::decompress(&src, CAP);
        let stream = streamed(&src, 1 + next(9));
        let sans = sans_io(&src, 1 + next(9));
        match &model {
            Ok(content) => {
                accepted_count += 1;
                assert_eq!(ours.as_ref().ok(), Some(content), "round {round}");
                assert_eq!(stream.as_ref().ok(), Some(content), "round {round}");
                assert_eq!(sans.as_ref().ok(), Some(content), "round {round}");
            }
            Err(_) => {
                refused_count += 1;
                assert!(
                    ours.is_err(),
                    "round {round}: accepted what the kernel refuses"
                );
                assert!(stream.is_err(), "round {round}: streamed, accepted");
                assert_eq!(sans.err(), stream.err(), "round {round}");
            }
        }
    }
    assert!(
        accepted_count > 100 && refused_count > 100,
        "{accepted_count} {refused_count}"
    );
}

/// Without the kernel option the frame decoders read padding as `lz4` 1.10.0 does: a block size
/// of 0 is an empty block, which does not decode, and 1 to 3 bytes are a truncated block size.
#[test]
fn without_the_option_padding_is_refused_as_lz4_refuses_it() {
    let (_, legacy) = image("log-lines", 20_000, 18);
    let zero_word = padded(legacy.clone(), 8);
    let expected = Error::FrameBlock {
        input_pos: legacy.len() as u64,
        block_index: 1,
        error: Box::new(Error::EmptyInput),
    };
    assert_eq!(
        frame::decompress(&zero_word, CAP).err(),
        Some(expected.clone())
    );
    let mut decoder = frame::FrameDecompressor::new();
    let mut out = vec![0; 1 << 16];
    let mut input = &zero_word[..];
    let error = loop {
        match decoder.decompress(input, &mut out) {
            Ok(progress) => {
                input = &input[progress.consumed..];
                if progress.consumed == 0 && progress.produced == 0 {
                    break decoder.finish().err();
                }
            }
            Err(error) => break Some(error),
        }
    };
    assert_eq!(error, Some(expected));
    let short = padded(legacy.clone(), 3);
    assert_eq!(
        frame::decompress(&short, CAP).err(),
        Some(Error::FrameTruncated {
            input_pos: short.len() as u64,
            what: "a 4-byte legacy block size",
        })
    );
}
