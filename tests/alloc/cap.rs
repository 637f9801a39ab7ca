//! Decoders allocate within the caller's cap: a counting global allocator watches every frame
//! and block decode API with caps just below, at and just above the content size, and requires
//! that no single allocation and no peak of live memory exceed the cap by more than a stated
//! constant, and that a returned `Vec`'s capacity stays within the cap.
//!
//! Counting: the allocator counts, per thread, the bytes allocated while a measurement runs. A
//! `realloc` that grows counts the new block while the old one is still live (the allocator may
//! copy); one that shrinks counts the smaller size (allocators shrink in place).
//!
//! The constants (what a decoder may use beyond the cap):
//! - one-shot frame decoding: [`FRAME_SLACK`] = 320 KiB (with a dictionary: 64 KiB of it in
//!   front of the content, and a scratch buffer of at most 64 KiB of history and 128 KiB of
//!   block; 64 KiB more for small allocations and an error message's look at the data);
//! - `FrameDecoder`: its buffers, bounded by the frame's block size: [`stream_slack`] = two
//!   blocks + 256 KiB (the compressed block, the decoded block behind 64 KiB of history, the
//!   dictionary);
//! - block decoding: [`BLOCK_SLACK`] = 64 KiB + 4 KiB (a dictionary's history).
//!
//! The counting allocator is the binary's (`allocator`); the data generator is this module's.

use std::io::{Read, Write};

use lz4_simd::frame::{self, BlockMode, BlockSize, FrameDecoder, FrameEncoder, FrameOptions};
use lz4_simd::{block, Error};
use testkit::samples;

use crate::allocator::measure;

const FRAME_SLACK: usize = 320 << 10;
const BLOCK_SLACK: usize = (64 << 10) + (4 << 10);

fn stream_slack(block_max: usize) -> usize {
    2 * block_max + (256 << 10)
}

/// Checks one call under `cap`: its allocations, and the capacity of the `Vec` it returns.
fn check<T>(
    label: &str,
    cap: usize,
    slack: usize,
    f: impl FnOnce() -> Result<Vec<u8>, T>,
) -> Result<Vec<u8>, T> {
    let (result, largest, peak) = measure(f);
    assert!(
        largest <= cap + slack,
        "{label}, cap {cap}: an allocation of {largest} bytes (allowed: {})",
        cap + slack
    );
    assert!(
        peak <= cap + slack,
        "{label}, cap {cap}: {peak} bytes live at the peak (allowed: {})",
        cap + slack
    );
    if let Ok(out) = &result {
        assert!(
            out.capacity() <= cap.max(out.len()),
            "{label}, cap {cap}: returned a Vec of capacity {} for {} bytes",
            out.capacity(),
            out.len()
        );
    }
    result
}

/// Caps just below, at and just above `len`, and well above it.
fn caps(len: usize) -> [usize; 5] {
    [len - 1, len, len + 1, len + 4096, len + len / 2]
}

const LEN: usize = 3 << 20;

/// Frames of `data` for the one-shot and streaming decoders: (name, stream, content, block size).
fn frames_of(data: &[u8]) -> Vec<(&'static str, Vec<u8>, Vec<u8>, usize)> {
    let independent = FrameOptions::new().block_size(BlockSize::Max64KB);
    let linked = FrameOptions::new()
        .block_size(BlockSize::Max256KB)
        .block_mode(BlockMode::Linked);
    let sized = FrameOptions::new()
        .block_size(BlockSize::Max64KB)
        .content_size(true);
    let mut flushed =
        FrameEncoder::with_options(Vec::new(), linked.clone().content_checksum(false));
    for piece in data.chunks(5_000) {
        flushed.write_all(piece).unwrap();
        flushed.flush().unwrap();
    }
    let half = data.len() / 2;
    let mut concatenated = frame::compress(&data[..half], &independent);
    concatenated.extend(frame::skippable_frame(1, b"between").unwrap());
    concatenated.extend(frame::compress(&data[half..], &linked));
    vec![
        (
            "independent 64 KiB blocks",
            frame::compress(data, &independent),
            data.to_vec(),
            64 << 10,
        ),
        (
            "linked 256 KiB blocks",
            frame::compress(data, &linked),
            data.to_vec(),
            256 << 10,
        ),
        (
            "content size",
            frame::compress(data, &sized),
            data.to_vec(),
            64 << 10,
        ),
        (
            "flushed every 5000 bytes",
            flushed.finish().unwrap(),
            data.to_vec(),
            256 << 10,
        ),
        (
            "two frames and a skippable frame",
            concatenated,
            data.to_vec(),
            256 << 10,
        ),
        (
            "legacy",
            frame::compress_legacy(data, 1),
            data.to_vec(),
            8 << 20,
        ),
    ]
}

#[test]
fn one_shot_frames_stay_within_the_cap() {
    let data = samples::tenfold_logs(LEN, 1);
    for (name, framed, expected, _) in frames_of(&data) {
        assert!(
            framed.len() * 5 < expected.len(),
            "{name}: the data should compress well"
        );
        for cap in caps(expected.len()) {
            let result = check(name, cap, FRAME_SLACK, || frame::decompress(&framed, cap));
            match result {
                Ok(out) => assert!(
                    cap >= expected.len() && out == expected,
                    "{name}, cap {cap}"
                ),
                Err(error) => assert!(
                    cap < expected.len() && matches!(error, Error::FrameOutputLimit { .. }),
                    "{name}, cap {cap}: {error}"
                ),
            }
        }
    }
}

#[test]
fn one_shot_frames_with_a_dictionary_stay_within_the_cap() {
    let dict = samples::tenfold_logs(100_000, 2);
    let data = samples::tenfold_logs(LEN, 3);
    let half = data.len() / 2;
    for mode in [BlockMode::Independent, BlockMode::Linked] {
        let options = FrameOptions::new()
            .block_size(BlockSize::Max64KB)
            .block_mode(mode)
            .dict_id(Some(9));
        let mut framed = frame::compress_with_dictionary(&data[..half], &dict, &options);
        framed.extend(frame::compress_with_dictionary(
            &data[half..],
            &dict,
            &options,
        ));
        let name = format!("two {mode:?} frames with a dictionary");
        for cap in caps(data.len()) {
            let result = check(&name, cap, FRAME_SLACK, || {
                frame::decompress_with_dictionary(&framed, &dict, 9, cap)
            });
            match result {
                Ok(out) => assert!(cap >= data.len() && out == data, "{name}, cap {cap}"),
                Err(error) => assert!(cap < data.len(), "{name}, cap {cap}: {error}"),
            }
        }
    }
}

/// `read_to_end` into a `Vec` that has room for the content does not grow it (the last block's
/// worst case does not double it); with less room, `take` bounds what is read.
#[test]
fn streaming_read_to_end_stays_within_the_vec_it_is_given() {
    let data = samples::tenfold_logs(LEN, 4);
    for (name, framed, expected, block_max) in frames_of(&data) {
        for cap in caps(expected.len()) {
            let result = check(name, cap, stream_slack(block_max), || {
                let mut out = Vec::with_capacity(cap);
                let mut decoder = FrameDecoder::new(&framed[..]);
                if cap >= expected.len() {
                    decoder.read_to_end(&mut out)?;
                } else {
                    decoder.take(cap as u64).read_to_end(&mut out)?;
                }
                Ok::<_, std::io::Error>(out)
            });
            let out = result.unwrap();
            assert!(out[..] == expected[..out.len()] && out.len() == cap.min(expected.len()));
        }
    }
}

/// One block of `data` and the caps to try.
fn block_cases() -> (Vec<u8>, Vec<u8>) {
    let data = samples::tenfold_logs(2 << 20, 5);
    let compressed = block::compress(&data).unwrap();
    assert!(compressed.len() * 5 < data.len());
    (data, compressed)
}

#[test]
fn block_decompress_stays_within_the_cap() {
    let (data, compressed) = block_cases();
    for cap in caps(data.len()) {
        let result = check("block::decompress", cap, BLOCK_SLACK, || {
            block::decompress(&compressed, cap)
        });
        assert_eq!(result.is_ok(), cap >= data.len(), "cap {cap}");
        let prefixed = block::compress_prepend_size(&data).unwrap();
        let result = check("decompress_size_prepended", cap, BLOCK_SLACK, || {
            block::decompress_size_prepended(&prefixed, cap)
        });
        assert_eq!(result.is_ok(), cap >= data.len(), "cap {cap}");
    }
}

// Regression (`4999265`, 2026-12-04): after removing the history from the front,
// `block::decompress_with_dictionary` returned a `Vec` whose capacity was the cap plus the dictionary's
// 64 KiB.
#[test]
fn block_decompress_with_dict_stays_within_the_cap() {
    let (data, _) = block_cases();
    let dict = samples::tenfold_logs(100_000, 6);
    let compressed = block::compress_with_dictionary(&data, &dict, 1).unwrap();
    for cap in caps(data.len()) {
        let result = check(
            "block::decompress_with_dictionary",
            cap,
            BLOCK_SLACK,
            || block::decompress_with_dictionary(&compressed, &dict, cap),
        );
        assert_eq!(result.is_ok(), cap >= data.len(), "cap {cap}");
    }
}

// Regression (`4999265`, 2026-12-04): `decompress_append` reserved with `Vec::reserve`, which
// doubles a `Vec` that already holds more than the block may add, far beyond `max_out`.
#[test]
fn block_decompress_append_stays_within_the_cap() {
    let (data, compressed) = block_cases();
    let before = samples::tenfold_logs(4 << 20, 7);
    for cap in caps(data.len()) {
        // The content already in the `Vec` is live before the measurement.
        let mut out = before.clone();
        let compressed = &compressed;
        let result = check(
            "block::decompress_append",
            before.len() + cap,
            BLOCK_SLACK,
            move || block::decompress_append(compressed, &mut out, 0, cap).map(|_| out),
        );
        assert_eq!(result.is_ok(), cap >= data.len(), "cap {cap}");
    }
}
