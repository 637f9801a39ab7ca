//! The one-shot parallel decoder's checksums: block checksums verified by the thread that
//! decodes the block, content checksums hashed in order by a chain handed between the threads
//! (outside the parser). Streams of many frames, some with a content checksum and some without,
//! empty ones, skippable frames between, stored blocks: the content and every error are the
//! sequential decoder's, for every thread count, when a stored checksum is wrong, when a stored
//! block's bytes change (content that decodes but does not match its checksum), and at each
//! block of a frame. The same for the streaming decoder ([`ParallelFrameDecoder`]): the content
//! handed out before the error and the error are [`FrameDecoder`]'s.
//!
//! Run: `cargo test --features parallel --test parallel checksums::`.
#![cfg(feature = "parallel")]

use std::io::Read;

use lz4_simd::frame::{
    self, BlockSize, FrameDecoder, FrameInfo, FrameOptions, ParallelFrameDecoder,
};
use testkit::samples::{self, Rng};

const KIB: usize = 1 << 10;
const THREADS: [usize; 5] = [1, 2, 3, 4, 7];

/// A frame and where it sits in the stream.
struct Part {
    at: usize,
    len: usize,
    info: FrameInfo,
}

/// Frames of 64 KiB blocks with and without checksums, an empty one with a content checksum,
/// stored blocks, skippable frames between.
fn stream() -> (Vec<u8>, Vec<Part>) {
    let mut rng = Rng::new(77);
    let text = samples::text(600 * KIB + 3, &mut rng);
    let random = samples::random(260 * KIB, &mut rng);
    let small = FrameOptions::new().block_size(BlockSize::Max64KB);
    let frames: Vec<(&[u8], FrameOptions)> = vec![
        (&text[..], small.clone()),
        (&text[..200 * KIB], small.clone().content_checksum(false)),
        (b"", small.clone()),
        (&random[..], small.clone()),
        (
            &text[100 * KIB..],
            small.clone().block_checksum(true).content_size(true),
        ),
        (
            &random[..130 * KIB],
            small.clone().block_checksum(true).content_checksum(false),
        ),
        (&text[..5], small.clone()),
        (&text[7..300 * KIB], small.clone()),
    ];
    let mut framed = Vec::new();
    let mut parts = Vec::new();
    for (index, (content, options)) in frames.into_iter().enumerate() {
        let bytes = frame::compress(content, &options);
        parts.push(Part {
            at: framed.len(),
            len: bytes.len(),
            info: frame::read_frame_info(&bytes).unwrap(),
        });
        framed.extend_from_slice(&bytes);
        if index % 3 == 1 {
            framed.extend(frame::skippable_frame(index as u8, b"between").unwrap());
        }
    }
    (framed, parts)
}

/// What `read_to_end` gives: the content (appended before any error) and the error.
fn read_all(mut decoder: impl Read) -> (Vec<u8>, Option<String>) {
    let mut content = Vec::new();
    let error = decoder.read_to_end(&mut content).err();
    (content, error.map(|error| format!("{error:?}")))
}

fn check(what: &str, framed: &[u8]) {
    let expected = frame::decompress(framed, 8 << 20);
    let streamed = read_all(FrameDecoder::new(framed));
    for threads in THREADS {
        assert_eq!(
            frame::decompress_parallel(framed, 8 << 20, threads),
            expected,
            "{what}, {threads} threads"
        );
        let parallel = read_all(ParallelFrameDecoder::new(framed, threads));
        assert!(
            parallel.0 == streamed.0,
            "{what}, {threads} threads: streamed content"
        );
        assert_eq!(parallel.1, streamed.1, "{what}, {threads} threads: stream");
    }
}

/// The (block data range, stored) of every data block of the frame at `part`.
fn blocks(framed: &[u8], part: &Part) -> Vec<(usize, usize, bool)> {
    let mut at = part.at + part.info.header_len;
    let mut found = Vec::new();
    loop {
        let word = u32::from_le_bytes(framed[at..at + 4].try_into().unwrap());
        if word == 0 {
            return found;
        }
        let size = (word & 0x7FFF_FFFF) as usize;
        found.push((at + 4, size, word >> 31 == 1));
        at += 4 + size + if part.info.block_checksum { 4 } else { 0 };
    }
}

#[test]
fn many_frames_decode_as_the_sequential_decoder() {
    let (framed, parts) = stream();
    assert!(frame::decompress(&framed, 8 << 20).is_ok());
    check("the stream", &framed);
    // Each frame alone, and the stream cut after each frame.
    for (index, part) in parts.iter().enumerate() {
        check(
            &format!("frame {index}"),
            &framed[part.at..part.at + part.len],
        );
        check(
            &format!("up to frame {index}"),
            &framed[..part.at + part.len],
        );
    }
}

#[test]
fn a_wrong_content_checksum_in_any_frame_is_the_sequential_decoders_error() {
    let (framed, parts) = stream();
    for (index, part) in parts.iter().enumerate() {
        if !part.info.content_checksum {
            continue;
        }
        for flip in [0x01, 0x80] {
            let mut bad = framed.clone();
            bad[part.at + part.len - 2] ^= flip;
            assert!(frame::decompress(&bad, 8 << 20).is_err());
            check(
                &format!("frame {index}'s content checksum ^ {flip:#x}"),
                &bad,
            );
        }
    }
}

#[test]
fn changed_content_and_wrong_block_checksums_at_every_block_are_the_sequential_decoders_errors() {
    let (framed, parts) = stream();
    let mut changed = 0;
    for (index, part) in parts.iter().enumerate() {
        for (block, (data, size, stored)) in blocks(&framed, part).into_iter().enumerate() {
            // A stored block's byte: the block still decodes, to other content (caught by the
            // content checksum, or by the block checksum, or by nothing).
            if stored {
                let mut bad = framed.clone();
                bad[data + size / 2] ^= 0x20;
                check(&format!("frame {index} block {block}: a stored byte"), &bad);
                changed += 1;
            }
            if part.info.block_checksum {
                let mut bad = framed.clone();
                bad[data + size] ^= 0x01;
                assert!(frame::decompress(&bad, 8 << 20).is_err());
                check(&format!("frame {index} block {block}: its checksum"), &bad);
            }
        }
    }
    assert!(changed >= 6, "stored blocks changed: {changed}");
}
