//! The sequential frame decoders hash a large block's content (1 MiB or more) for the content
//! checksum as the caller takes it (`FrameDecompressor::consume` and every path built on it);
//! the parser hashes smaller blocks as it decodes them, and what `read_to_end` decoded straight
//! into its `Vec`. In streams (with blocks of both kinds, in one frame too) of several frames (independent,
//! linked, with a dictionary, legacy, skippable frames between), a right content checksum
//! passes and a wrong one in any frame gives the one-shot decoder's error, after exactly the
//! content before it (every byte up to the end of the bad frame's content, none of a later
//! frame), however the content is taken: `read` of 1, 4096 and 65537 bytes, `read_to_end` (into
//! a `Vec` with and without room, so with and without its direct path), `fill_buf` + `consume`
//! of odd amounts and over-consume, sans-IO `decompress` with small and large output slices,
//! `pending` + `consume`, and the tokio and futures-io decoders.
//!
//! Run: `cargo test --test frame content_hash::` (the async rows: `--features tokio,futures-io`).

use std::io::{BufRead, Read};

use lz4_simd::frame::{
    self, BlockMode, BlockSize, FrameDecoder, FrameDecompressor, FrameOptions, Status,
};
use lz4_simd::Error;
use testkit::samples::{self, Rng};

const KIB: usize = 1 << 10;
const DICT_ID: u32 = 0x5eed;

/// A stream of frames: the content of each, concatenated, and where each content checksum sits
/// (with the content up to the end of that frame).
struct Stream {
    framed: Vec<u8>,
    content: Vec<u8>,
    /// (offset of a stored content checksum, content length up to the end of its frame)
    checksums: Vec<(usize, usize)>,
    dict: Option<Vec<u8>>,
}

fn stream(with_dict: bool) -> Stream {
    let mut rng = Rng::new(if with_dict { 41 } else { 40 });
    let text = samples::text(1300 * KIB + 7, &mut rng);
    let random = samples::random(70 * KIB, &mut rng);
    let dict = with_dict.then(|| samples::text(80 * KIB, &mut rng));
    let small = FrameOptions::new().block_size(BlockSize::Max64KB);
    // Blocks of 1 MiB (hashed as taken) then the rest (hashed as decoded).
    let large = FrameOptions::new().block_size(BlockSize::Max1MB);
    let linked = large.clone().block_mode(BlockMode::Linked);
    let mut out = Stream {
        framed: Vec::new(),
        content: Vec::new(),
        checksums: Vec::new(),
        dict: dict.clone(),
    };
    let push = |out: &mut Stream, bytes: Vec<u8>, content: &[u8]| {
        if bytes[..4] == [0x04, 0x22, 0x4d, 0x18]
            && frame::read_frame_info(&bytes).unwrap().content_checksum
        {
            out.checksums.push((
                out.framed.len() + bytes.len() - 4,
                out.content.len() + content.len(),
            ));
        }
        out.framed.extend_from_slice(&bytes);
        out.content.extend_from_slice(content);
    };
    push(
        &mut out,
        frame::compress(&text[..300 * KIB], &small),
        &text[..300 * KIB],
    );
    push(&mut out, frame::compress(&text, &large), &text);
    push(
        &mut out,
        frame::skippable_frame(3, b"between").unwrap(),
        b"",
    );
    push(&mut out, frame::compress(&text[5..], &linked), &text[5..]);
    push(
        &mut out,
        frame::compress(&random, &small.clone().block_checksum(true)),
        &random,
    );
    push(
        &mut out,
        frame::compress_legacy(&text[..200 * KIB], 1),
        &text[..200 * KIB],
    );
    if let Some(dict) = &dict {
        let with_id = |options: &FrameOptions| options.clone().dict_id(Some(DICT_ID));
        push(
            &mut out,
            frame::compress_with_dictionary(&text[9..], dict, &with_id(&large)),
            &text[9..],
        );
        push(
            &mut out,
            frame::compress_with_dictionary(&text[..250 * KIB], dict, &with_id(&small)),
            &text[..250 * KIB],
        );
        push(
            &mut out,
            frame::compress_with_dictionary(&text[..1100 * KIB], dict, &with_id(&linked)),
            &text[..1100 * KIB],
        );
    }
    push(&mut out, frame::skippable_frame(0, b"").unwrap(), b"");
    push(
        &mut out,
        frame::compress(&text[..1030 * KIB], &FrameOptions::new()),
        &text[..1030 * KIB],
    );
    push(
        &mut out,
        frame::compress(&text[1..], &large.clone().content_checksum(false)),
        &text[1..],
    );
    out
}

/// The one-shot decoder's verdict (which hashes each block as it decodes it).
fn one_shot(stream: &Stream, framed: &[u8]) -> Result<(), Error> {
    match &stream.dict {
        Some(dict) => {
            frame::decompress_with_dictionary(framed, dict, DICT_ID, usize::MAX).map(drop)
        }
        None => frame::decompress(framed, usize::MAX).map(drop),
    }
}

fn decompressor(stream: &Stream) -> FrameDecompressor {
    match &stream.dict {
        Some(dict) => FrameDecompressor::with_dictionary(dict, DICT_ID),
        None => FrameDecompressor::new(),
    }
}

fn decoder<'a>(stream: &Stream, framed: &'a [u8]) -> FrameDecoder<&'a [u8]> {
    FrameDecoder::with_decompressor(framed, decompressor(stream))
}

fn error_of(error: std::io::Error) -> Error {
    *error
        .into_inner()
        .expect("a decoding error")
        .downcast::<Error>()
        .expect("an lz4_simd::Error")
}

/// Every way of taking the content: its name, and what it took before its verdict.
fn ways(stream: &Stream, framed: &[u8]) -> Vec<(String, Vec<u8>, Result<(), Error>)> {
    ways_picked(stream, framed, &|_| true)
}

/// The ways of [`ways`] whose index (in its order) `pick` takes.
fn ways_picked(
    stream: &Stream,
    framed: &[u8],
    pick: &dyn Fn(usize) -> bool,
) -> Vec<(String, Vec<u8>, Result<(), Error>)> {
    let mut index = 0;
    let mut take = || {
        index += 1;
        pick(index - 1)
    };
    let mut results = Vec::new();
    for size in [1, 4096, 65537] {
        if !take() {
            continue;
        }
        let mut reader = decoder(stream, framed);
        let mut content = Vec::new();
        let mut buf = vec![0; size];
        let verdict = loop {
            match reader.read(&mut buf) {
                Ok(0) => break Ok(()),
                Ok(n) => content.extend_from_slice(&buf[..n]),
                Err(error) => break Err(error_of(error)),
            }
        };
        results.push((format!("read of {size}"), content, verdict));
    }
    // Room for the whole content (the direct path) and none (pending content copied).
    for room in [stream.content.len() + (8 << 20), 0] {
        if !take() {
            continue;
        }
        let mut content = Vec::with_capacity(room);
        let verdict = decoder(stream, framed)
            .read_to_end(&mut content)
            .map(drop)
            .map_err(error_of);
        results.push((format!("read_to_end, room {room}"), content, verdict));
    }
    for (amount, over) in [(7, 0), (1000, 0), (65539, 0), (3, 5), (70000, 1)] {
        if !take() {
            continue;
        }
        let mut reader = decoder(stream, framed);
        let mut content = Vec::new();
        let verdict = loop {
            match reader.fill_buf() {
                Ok([]) => break Ok(()),
                Ok(available) => {
                    let n = available.len().min(amount);
                    content.extend_from_slice(&available[..n]);
                    // Over-consume only at the end of what is available.
                    let more = if n == available.len() { over } else { 0 };
                    reader.consume(n + more);
                }
                Err(error) => break Err(error_of(error)),
            }
        };
        results.push((
            format!("fill_buf + consume {amount} (+{over})"),
            content,
            verdict,
        ));
    }
    for (input_piece, output_len) in [(1000, 1), (5000, 333), (65536, 1 << 20), (1 << 20, 1 << 23)]
    {
        if !take() {
            continue;
        }
        let mut sans_io = decompressor(stream);
        let mut content = Vec::new();
        let mut out = vec![0; output_len];
        let verdict = 'all: {
            for piece in framed.chunks(input_piece) {
                let mut piece = piece;
                loop {
                    match sans_io.decompress(piece, &mut out) {
                        Ok(progress) => {
                            content.extend_from_slice(&out[..progress.produced]);
                            piece = &piece[progress.consumed..];
                            if progress.status == Status::NeedInput {
                                break;
                            }
                        }
                        Err(error) => break 'all Err(error),
                    }
                }
            }
            sans_io.finish()
        };
        results.push((
            format!("decompress, input {input_piece}, output {output_len}"),
            content,
            verdict,
        ));
    }
    for (amount, over) in [(13, 0), (70001, 3)] {
        if !take() {
            continue;
        }
        let mut sans_io = decompressor(stream);
        let mut content = Vec::new();
        let mut input = framed;
        let verdict = 'all: loop {
            while !sans_io.pending().is_empty() {
                let pending = sans_io.pending();
                let n = pending.len().min(amount);
                content.extend_from_slice(&pending[..n]);
                let more = if n == pending.len() { over } else { 0 };
                sans_io.consume(n + more);
            }
            let space = match sans_io.input_space() {
                Ok(space) => space,
                Err(error) => break Err(error),
            };
            if input.is_empty() {
                break sans_io.finish();
            }
            let n = space.len().min(input.len()).min(30001);
            space[..n].copy_from_slice(&input[..n]);
            input = &input[n..];
            if let Err(error) = sans_io.input_filled(n) {
                break 'all Err(error);
            }
        };
        results.push((
            format!("pending + consume {amount} (+{over})"),
            content,
            verdict,
        ));
    }
    #[cfg(all(feature = "tokio", feature = "futures-io"))]
    results.extend(async_ways(stream, framed, &mut take));
    results
}

/// Everything an async reader hands out in reads of `size` bytes (with tokio's or futures-io's
/// `AsyncReadExt` in scope), and the verdict.
#[cfg(all(feature = "tokio", feature = "futures-io"))]
macro_rules! read_all_async {
    ($reader:ident, $size:expr) => {{
        let mut content = Vec::new();
        let mut buf = vec![0; $size];
        loop {
            match $reader.read(&mut buf).await {
                Ok(0) => break (content, Ok(())),
                Ok(n) => content.extend_from_slice(&buf[..n]),
                Err(error) => break (content, Err(error_of(error))),
            }
        }
    }};
}

#[cfg(all(feature = "tokio", feature = "futures-io"))]
fn async_ways(
    stream: &Stream,
    framed: &[u8],
    take: &mut dyn FnMut() -> bool,
) -> Vec<(String, Vec<u8>, Result<(), Error>)> {
    let mut results = Vec::new();
    for size in [7, 4096, 65537, 5 << 20] {
        if !take() {
            continue;
        }
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let (content, verdict) = runtime.block_on(async {
            use tokio::io::AsyncReadExt;
            let mut reader =
                frame::tokio::FrameDecoder::with_decompressor(framed, decompressor(stream));
            read_all_async!(reader, size)
        });
        results.push((format!("tokio read of {size}"), content, verdict));
        if !take() {
            continue;
        }
        let (content, verdict) = futures_executor::block_on(async {
            use futures_util::io::AsyncReadExt;
            let mut reader =
                frame::futures::FrameDecoder::with_decompressor(framed, decompressor(stream));
            read_all_async!(reader, size)
        });
        results.push((format!("futures-io read of {size}"), content, verdict));
    }
    results
}

#[test]
fn the_content_checksum_covers_the_content_however_it_is_taken() {
    content_checksum_every_way(false);
}

#[test]
fn the_content_checksum_covers_the_content_however_it_is_taken_with_a_dictionary() {
    content_checksum_every_way(true);
}

fn content_checksum_every_way(with_dict: bool) {
    {
        let stream = stream(with_dict);
        assert!(stream.checksums.len() >= 4);
        one_shot(&stream, &stream.framed).unwrap();
        for (way, content, verdict) in ways(&stream, &stream.framed) {
            assert!(
                content == stream.content,
                "dict {with_dict}, {way}: content ({} bytes against {})",
                content.len(),
                stream.content.len()
            );
            assert_eq!(verdict, Ok(()), "dict {with_dict}, {way}");
        }
        // Each checksum damaged in turn: the one-shot decoder on every one, and the other ways
        // shared out among them (way k on checksum k mod n), so that each way meets a damaged
        // checksum and each checksum several ways.
        let n = stream.checksums.len();
        for (j, &(at, content_end)) in stream.checksums.iter().enumerate() {
            let mut bad = stream.framed.clone();
            bad[at + 1] ^= 0x10;
            let expected = one_shot(&stream, &bad).unwrap_err();
            assert!(
                matches!(expected, Error::FrameContentChecksum { input_pos, .. } if input_pos == at as u64),
                "{expected:?}"
            );
            for (way, content, verdict) in ways_picked(&stream, &bad, &|k| k % n == j) {
                assert!(
                    content[..] == stream.content[..content_end],
                    "dict {with_dict}, checksum at {at}, {way}: content ({} bytes against {})",
                    content.len(),
                    content_end
                );
                assert_eq!(
                    verdict,
                    Err(expected.clone()),
                    "dict {with_dict}, checksum at {at}, {way}"
                );
            }
        }
    }
}

/// With checksums not verified, a wrong content checksum passes every way (nothing is hashed,
/// and nothing is owed).
#[test]
fn unverified_checksums_take_the_content_every_way() {
    let stream = stream(false);
    let mut bad = stream.framed.clone();
    for &(at, _) in &stream.checksums {
        bad[at] ^= 1;
    }
    for size in [1, 65537] {
        let mut reader = FrameDecoder::with_decompressor(
            &bad[..],
            FrameDecompressor::new().verify_checksums(false),
        );
        let mut content = Vec::new();
        let mut buf = vec![0; size];
        loop {
            let n = reader.read(&mut buf).unwrap();
            if n == 0 {
                break;
            }
            content.extend_from_slice(&buf[..n]);
        }
        assert!(content == stream.content);
    }
    let mut content = Vec::new();
    FrameDecoder::with_decompressor(&bad[..], FrameDecompressor::new().verify_checksums(false))
        .read_to_end(&mut content)
        .unwrap();
    assert!(content == stream.content);
}
