//! Concatenated frames, differentially: random streams of independent and linked frames (with
//! and without a dictionary, content checksums on and off, skippable and legacy frames between)
//! decoded by the one-shot decoder, the streaming decoder and liblz4's LZ4F decoder (frame by
//! frame: it has no notion of a stream), which must agree on the output and on the verdict.
//! Each frame's history starts at its own start (and its dictionary): a second frame may not
//! reach into the first.
//!
//! liblz4's frame decoder comes from the test kit; the data generator is this file's own.

use std::io::{BufRead, Read, Write};

use lz4_simd::frame::{self, BlockMode, BlockSize, FrameDecoder, FrameEncoder, FrameOptions};
use lz4_simd::Error;
use testkit::liblz4;

/// A small deterministic generator (splitmix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// Content that compresses (words from a small vocabulary, runs) with some that does not,
    /// and pieces of `dict` so dictionary frames reference it.
    fn content(&mut self, len: usize, dict: &[u8]) -> Vec<u8> {
        const WORDS: [&str; 8] = [
            "block ",
            "frame ",
            "stream ",
            "linked ",
            "history ",
            "checksum ",
            "window ",
            "\n",
        ];
        let mut out = Vec::with_capacity(len + 64);
        while out.len() < len {
            match self.below(10) {
                0 => out.extend((0..1 + self.below(40)).map(|_| self.next() as u8)),
                1 => out.extend(std::iter::repeat_n(
                    self.next() as u8,
                    1 + self.below(200) as usize,
                )),
                2 if dict.len() > 64 => {
                    let at = self.below(dict.len() as u64 - 64) as usize;
                    out.extend_from_slice(&dict[at..at + 8 + self.below(56) as usize]);
                }
                _ => out.extend_from_slice(WORDS[self.below(8) as usize].as_bytes()),
            }
        }
        out.truncate(len);
        out
    }
}

/// One frame of a stream: its bytes and the content it decodes to.
struct Part {
    bytes: Vec<u8>,
    content: Vec<u8>,
    /// liblz4's frame decoder reads LZ4 and skippable frames, not legacy ones.
    lz4f: bool,
}

const DICT_ID: u32 = 0x5EED;

/// A random LZ4 frame of `content` (one-shot or streamed with flushes, so blocks of every size
/// appear); with `dict`, compressed against it (and, at random, naming its ID).
fn random_frame(rng: &mut Rng, content: &[u8], dict: Option<&[u8]>) -> Vec<u8> {
    let mut options = FrameOptions::new()
        .block_size(if rng.chance(70) {
            BlockSize::Max64KB
        } else {
            BlockSize::Max256KB
        })
        .block_mode(if rng.chance(50) {
            BlockMode::Linked
        } else {
            BlockMode::Independent
        })
        .content_checksum(rng.chance(50))
        .block_checksum(rng.chance(30));
    if dict.is_some() && rng.chance(70) {
        options = options.dict_id(Some(DICT_ID));
    }
    if rng.chance(50) {
        options = options.content_size(true);
        let framed = match dict {
            Some(dict) => frame::compress_with_dictionary(content, dict, &options),
            None => frame::compress(content, &options),
        };
        return framed;
    }
    if rng.chance(30) {
        options = options.declared_content_size(Some(content.len() as u64));
    }
    let mut encoder = FrameEncoder::with_dictionary(Vec::new(), options, dict.unwrap_or(&[]));
    let mut rest = content;
    while !rest.is_empty() {
        let take = (1 + rng.below(30_000) as usize).min(rest.len());
        encoder.write_all(&rest[..take]).unwrap();
        if rng.chance(40) {
            encoder.flush().unwrap();
        }
        rest = &rest[take..];
    }
    encoder.finish().unwrap()
}

/// A random stream of 1-5 frames; with `dict`, every LZ4 frame is compressed against it.
fn random_stream(rng: &mut Rng, dict: Option<&[u8]>) -> Vec<Part> {
    let mut parts = Vec::new();
    for _ in 0..1 + rng.below(5) {
        let len = match rng.below(4) {
            0 => rng.below(40) as usize,
            1 => rng.below(5_000) as usize,
            _ => rng.below(300_000) as usize,
        };
        let content = rng.content(len, dict.unwrap_or(&[]));
        let part = match rng.below(10) {
            0 => Part {
                bytes: frame::skippable_frame(rng.below(16) as u8, &content[..len.min(300)])
                    .unwrap(),
                content: Vec::new(),
                lz4f: true,
            },
            // A legacy frame's blocks have no dictionary.
            1 if dict.is_none() => Part {
                bytes: frame::compress_legacy(&content, 1),
                content,
                lz4f: false,
            },
            _ => Part {
                bytes: random_frame(rng, &content, dict),
                content,
                lz4f: true,
            },
        };
        parts.push(part);
    }
    // A legacy frame must be the last or be followed by a frame magic; an empty input after it
    // is the end. Nothing else to arrange: every part starts with a magic number.
    parts
}

fn frame_error(error: std::io::Error) -> Error {
    error
        .get_ref()
        .and_then(|inner| inner.downcast_ref::<Error>())
        .unwrap_or_else(|| panic!("not a frame error: {error}"))
        .clone()
}

fn one_shot(stream: &[u8], dict: Option<&[u8]>, max_out: usize) -> Result<Vec<u8>, Error> {
    match dict {
        Some(dict) => frame::decompress_with_dictionary(stream, dict, DICT_ID, max_out),
        None => frame::decompress(stream, max_out),
    }
}

fn decoder<'a>(stream: &'a [u8], dict: Option<&[u8]>) -> FrameDecoder<&'a [u8]> {
    match dict {
        Some(dict) => FrameDecoder::with_dictionary(stream, dict, DICT_ID),
        None => FrameDecoder::new(stream),
    }
}

/// Streaming through `read_to_end`.
fn streamed(stream: &[u8], dict: Option<&[u8]>) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    decoder(stream, dict)
        .read_to_end(&mut out)
        .map_err(frame_error)?;
    Ok(out)
}

/// Streaming through `BufRead` in uneven steps.
fn streamed_buf_read(stream: &[u8], dict: Option<&[u8]>, step: usize) -> Result<Vec<u8>, Error> {
    let mut decoder = decoder(stream, dict);
    let mut out = Vec::new();
    loop {
        let available = decoder.fill_buf().map_err(frame_error)?;
        if available.is_empty() {
            return Ok(out);
        }
        let take = available.len().min(step);
        out.extend_from_slice(&available[..take]);
        decoder.consume(take);
    }
}

/// liblz4, frame by frame (legacy frames, which it cannot read, by the one-shot decoder).
fn lz4f_stream(parts: &[Part], dict: Option<&[u8]>) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    for part in parts {
        if part.lz4f {
            out.extend(liblz4::decompress_frame(&part.bytes, dict)?);
        } else {
            out.extend(frame::decompress(&part.bytes, usize::MAX).ok()?);
        }
    }
    Some(out)
}

/// A verdict in a few words (contents are too long to print).
fn summary(verdict: &Result<Vec<u8>, Error>) -> String {
    match verdict {
        Ok(content) => format!(
            "Ok({} bytes, xxh32 {:#010x})",
            content.len(),
            xxhash_rust::xxh32::xxh32(content, 0)
        ),
        Err(error) => format!("Err({error:?})"),
    }
}

/// Asserts two verdicts are the same (content for content, error for error).
fn assert_same(got: &Result<Vec<u8>, Error>, want: &Result<Vec<u8>, Error>, label: &str) {
    assert!(
        got == want,
        "{label}: {} where {} was expected",
        summary(got),
        summary(want)
    );
}

/// Every decoder on one stream: the same content, or the same error.
fn check_agreement(stream: &[u8], dict: Option<&[u8]>, label: &str) -> Result<Vec<u8>, Error> {
    let reference = one_shot(stream, dict, usize::MAX);
    assert_same(
        &streamed(stream, dict),
        &reference,
        &format!("{label}: read_to_end"),
    );
    assert_same(
        &streamed_buf_read(stream, dict, 1000),
        &reference,
        &format!("{label}: BufRead"),
    );
    if let Ok(content) = &reference {
        // Caps exactly at the content and just below it.
        assert_same(
            &one_shot(stream, dict, content.len()),
            &reference,
            &format!("{label}: cap at the content"),
        );
        if !content.is_empty() {
            assert!(
                matches!(
                    one_shot(stream, dict, content.len() - 1),
                    Err(Error::FrameOutputLimit { .. })
                ),
                "{label}: cap below the content"
            );
        }
    }
    reference
}

fn dictionary(rng: &mut Rng) -> Vec<u8> {
    let len = [1_000, 30_000, 70_000][rng.below(3) as usize];
    dictionary_of(rng, len)
}

fn dictionary_of(rng: &mut Rng, len: usize) -> Vec<u8> {
    let mut dict = rng.content(len, &[]);
    // Some bytes no content generator makes, so matches into the dictionary are the only way to
    // produce them.
    for byte in dict.iter_mut().step_by(97) {
        *byte = 0xA5;
    }
    dict
}

#[test]
fn random_streams_agree_with_each_other_and_with_liblz4() {
    let mut rng = Rng(0xC0_4CA7);
    for round in 0..60 {
        let dict = rng.chance(40).then(|| dictionary(&mut rng));
        let dict = dict.as_deref();
        let parts = random_stream(&mut rng, dict);
        let stream: Vec<u8> = parts.iter().flat_map(|part| part.bytes.clone()).collect();
        let expected: Vec<u8> = parts.iter().flat_map(|part| part.content.clone()).collect();
        let label = format!(
            "round {round} ({} frames, dict {})",
            parts.len(),
            dict.is_some()
        );
        let decoded = check_agreement(&stream, dict, &label).unwrap_or_else(|error| {
            panic!("{label}: rejected a valid stream: {error}");
        });
        assert!(decoded == expected, "{label}: wrong content");
        assert!(
            lz4f_stream(&parts, dict) == Some(expected),
            "{label}: liblz4 disagrees"
        );
        // Frame by frame, each frame decodes alone to its own content.
        for (index, part) in parts.iter().enumerate() {
            assert!(
                one_shot(&part.bytes, dict, usize::MAX).as_deref() == Ok(&part.content[..]),
                "{label}: frame {index}"
            );
        }
        // Corrupted: one-shot and streaming still agree (error for error).
        for _ in 0..4 {
            let mut bad = stream.clone();
            let at = rng.below(bad.len() as u64) as usize;
            bad[at] ^= 1 << rng.below(8);
            let _ = check_agreement(&bad, dict, &format!("{label}, byte {at} flipped"));
        }
    }
}

/// LZ4 sequences for crafted blocks: `(literals, match length, offset)`; the last has no match.
fn block(sequences: &[(&[u8], usize, u16)]) -> Vec<u8> {
    let mut out = Vec::new();
    let length = |out: &mut Vec<u8>, mut rest: usize| {
        while rest >= 255 {
            out.push(255);
            rest -= 255;
        }
        out.push(rest as u8);
    };
    for &(literals, match_len, offset) in sequences {
        let match_code = match_len.saturating_sub(4);
        let token = (literals.len().min(15) << 4) as u8 | match_code.min(15) as u8;
        out.push(token);
        if literals.len() >= 15 {
            length(&mut out, literals.len() - 15);
        }
        out.extend_from_slice(literals);
        if match_len > 0 {
            out.extend_from_slice(&offset.to_le_bytes());
            if match_code >= 15 {
                length(&mut out, match_code - 15);
            }
        }
    }
    out
}

/// A linked frame (64 KiB blocks, no checksums) holding `blocks` as compressed blocks.
fn linked_frame(blocks: &[Vec<u8>]) -> Vec<u8> {
    // FLG: version 01, linked (bit 5 clear); BD: 64 KiB; then the header checksum, the second
    // byte of the descriptor's xxh32.
    let mut out = vec![0x04, 0x22, 0x4d, 0x18, 0x40, 0x40];
    out.push((xxhash_rust::xxh32::xxh32(&out[4..6], 0) >> 8) as u8);
    for block in blocks {
        out.extend_from_slice(&(block.len() as u32).to_le_bytes());
        out.extend_from_slice(block);
    }
    out.extend_from_slice(&[0; 4]);
    out
}

/// A second linked frame whose first match reaches back into the first frame's content: valid
/// only if frames shared history, which they do not. Everyone rejects it (the one-shot decoder
/// used to accept it, decoding the previous frame's bytes).
#[test]
fn a_frame_cannot_reference_the_previous_frame() {
    let first = frame::compress(
        b"0123456789abcdefghijklmnopqrstuvwxyz",
        &FrameOptions::new(),
    );
    // Literal-less first sequence: a 20-byte match at offset 8, before any content of its own.
    let reaching = block(&[(b"", 20, 8), (b"tail of the block", 0, 0)]);
    let second = linked_frame(&[reaching]);
    assert_eq!(
        liblz4::decompress_frame(&second, None),
        None,
        "liblz4 must reject the frame on its own"
    );
    let stream = [first.clone(), second.clone()].concat();
    let one_shot = frame::decompress(&stream, 1 << 20);
    assert!(
        matches!(one_shot, Err(Error::FrameBlock { .. })),
        "one-shot: {}",
        summary(&one_shot)
    );
    assert_same(&streamed(&stream, None), &one_shot, "streaming");
    assert!(lz4f_stream(
        &[
            Part {
                bytes: first.clone(),
                content: Vec::new(),
                lz4f: true
            },
            Part {
                bytes: second.clone(),
                content: Vec::new(),
                lz4f: true
            }
        ],
        None
    )
    .is_none());
    // The same block with its history inside its own frame is fine.
    let own_history = linked_frame(&[
        block(&[(b"0123456789", 0, 0)]),
        block(&[(b"", 20, 8), (b"tail of the block", 0, 0)]),
    ]);
    let content = liblz4::decompress_frame(&own_history, None).expect("liblz4 accepts it");
    assert_eq!(
        check_agreement(&[first, own_history].concat(), None, "own history").unwrap()[36..],
        content[..]
    );
}

/// A stream of frames compressed with a dictionary, the second linked: each frame starts from
/// the dictionary, not from the previous frame's content (the one-shot decoder used to give the
/// second frame the first frame's content as history: wrong bytes, no error).
#[test]
fn every_frame_starts_from_the_dictionary() {
    let mut rng = Rng(7);
    let dict = dictionary_of(&mut rng, 70_000);
    let first_content = rng.content(50_000, &dict);
    let second_content = [&dict[100..4_000], &rng.content(200_000, &dict)[..]].concat();
    for first_mode in [BlockMode::Independent, BlockMode::Linked] {
        for checksum in [false, true] {
            let options = |mode| {
                FrameOptions::new()
                    .block_size(BlockSize::Max64KB)
                    .block_mode(mode)
                    .content_checksum(checksum)
                    .dict_id(Some(DICT_ID))
            };
            let first =
                frame::compress_with_dictionary(&first_content, &dict, &options(first_mode));
            let second = frame::compress_with_dictionary(
                &second_content,
                &dict,
                &options(BlockMode::Linked),
            );
            let stream = [first.clone(), second.clone()].concat();
            let expected = [&first_content[..], &second_content[..]].concat();
            let label = format!("first {first_mode:?}, checksum {checksum}");
            let decoded = check_agreement(&stream, Some(&dict), &label)
                .unwrap_or_else(|error| panic!("{label}: {error}"));
            assert!(decoded == expected, "{label}: wrong content");
            let parts = [
                Part {
                    bytes: first,
                    content: first_content.clone(),
                    lz4f: true,
                },
                Part {
                    bytes: second,
                    content: second_content.clone(),
                    lz4f: true,
                },
            ];
            assert!(
                lz4f_stream(&parts, Some(&dict)) == Some(expected),
                "{label}: liblz4"
            );
        }
    }
}

/// Streams of small linked and dictionary frames, where a frame's history mixes the dictionary
/// and its own content: every split of the history between the two.
#[test]
fn small_frames_with_a_dictionary() {
    let mut rng = Rng(11);
    let dict = dictionary_of(&mut rng, 40_000);
    let mut parts = Vec::new();
    for len in [0usize, 1, 5, 300, 5_000, 70_000, 140_000] {
        for mode in [BlockMode::Independent, BlockMode::Linked] {
            let content = rng.content(len, &dict);
            let options = FrameOptions::new()
                .block_size(BlockSize::Max64KB)
                .block_mode(mode)
                .dict_id(Some(DICT_ID));
            let mut encoder = FrameEncoder::with_dictionary(Vec::new(), options, &dict);
            for piece in content.chunks(7_000) {
                encoder.write_all(piece).unwrap();
                encoder.flush().unwrap();
            }
            parts.push(Part {
                bytes: encoder.finish().unwrap(),
                content,
                lz4f: true,
            });
        }
    }
    let stream: Vec<u8> = parts.iter().flat_map(|part| part.bytes.clone()).collect();
    let expected: Vec<u8> = parts.iter().flat_map(|part| part.content.clone()).collect();
    let decoded = check_agreement(&stream, Some(&dict), "small frames").unwrap();
    assert!(decoded == expected);
    assert!(lz4f_stream(&parts, Some(&dict)) == Some(expected));
}

/// A dictionary for any ID (`decompress_with_any_dictionary`, `FrameDecoder::with_any_dictionary`:
/// the `lz4` command's `-D`) decodes frames naming different IDs, or none, one after the other,
/// where a dictionary with one ID stops at the first frame naming another.
#[test]
fn a_dictionary_for_any_id_serves_frames_naming_different_ids() {
    let dict: Vec<u8> = (0..70_000u32).map(|i| (i * 7 % 251) as u8).collect();
    let content = dict[1000..40_000].to_vec();
    let mut stream = Vec::new();
    for id in [Some(1), Some(2), None] {
        let options = FrameOptions::new().dict_id(id);
        stream.extend(frame::compress_with_dictionary(&content, &dict, &options));
    }
    let want = content.repeat(3);
    assert_eq!(
        frame::decompress_with_any_dictionary(&stream, &dict, want.len()).unwrap(),
        want
    );
    let mut streamed = Vec::new();
    FrameDecoder::with_any_dictionary(&stream[..], &dict)
        .read_to_end(&mut streamed)
        .unwrap();
    assert_eq!(streamed, want);
    let err = frame::decompress_with_dictionary(&stream, &dict, 1, want.len()).unwrap_err();
    assert!(
        matches!(
            err,
            Error::FrameDictIdMismatch {
                frame: 2,
                supplied: 1
            }
        ),
        "{err:?}"
    );
    // A wrong dictionary for any ID is caught by the content checksum (on by default).
    let wrong = vec![0u8; dict.len()];
    assert!(frame::decompress_with_any_dictionary(&stream, &wrong, want.len()).is_err());
}
