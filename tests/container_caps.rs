//! Container decoders hold no more than the caller's cap: a counting global allocator records,
//! per thread, the peak of live bytes and the largest single allocation while a decode runs,
//! and the tests require both within the cap plus [`SLACK`] (one-shot) or within one block's
//! input and content (streaming). Also: which error a container reports when its data is bad in
//! two places, or fits none of its forms.
//!
//! Counting: the peak is of the bytes the decoder holds, so a `realloc` counts as its net change
//! (the new size replaces the old one; the copy a growing `realloc` may make is the allocator's).
//! Cases use content sizes that are not powers of two: a `Vec` growing by amortised doubling
//! then holds up to twice its content (4 MiB + 64 KiB of stored blocks under a cap of that
//! size held 8 MiB, 2026-12-07, commit e4b91a7).
//!
//! A binary of its own, with its own global allocator: `tests/alloc`'s counts a growing `realloc`
//! as both blocks live at once (the copy), under which no amortised output `Vec` could stay
//! within a cap; here a `realloc` is its net change, and it also counts growing reallocations.
#![cfg(feature = "containers")]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::io::Read;

use lz4_simd::container::kafka::{AcceptHeaderChecksum, HeaderChecksum};
use lz4_simd::container::{clickhouse, hadoop, java, kafka, parquet};
use lz4_simd::{frame, Error};
use testkit::samples::{self, Rng};

/// What a one-shot decoder may hold beyond the cap: small allocations (an error's message, a
/// decoder's state).
const SLACK: usize = 16 << 10;

#[derive(Debug, Clone, Copy)]
struct Stats {
    on: bool,
    live: isize,
    peak: isize,
    largest: usize,
    /// Reallocations that grew a block.
    grows: usize,
}

impl Stats {
    const OFF: Stats = Stats {
        on: false,
        live: 0,
        peak: 0,
        largest: 0,
        grows: 0,
    };
}

thread_local! {
    static STATS: Cell<Stats> = const { Cell::new(Stats::OFF) };
}

/// Counts `change` more bytes live, `block` bytes in one allocation.
fn note(change: isize, block: usize) {
    let _ = STATS.try_with(|cell| {
        let mut stats = cell.get();
        if stats.on {
            if change > 0 && block > change as usize {
                stats.grows += 1;
            }
            stats.live += change;
            stats.peak = stats.peak.max(stats.live);
            stats.largest = stats.largest.max(block);
            cell.set(stats);
        }
    });
}

struct Counting;

// SAFETY: every call is passed to `System` unchanged; the counting only reads sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is `System.alloc`'s.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            note(layout.size() as isize, layout.size());
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is `System.alloc_zeroed`'s.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            note(layout.size() as isize, layout.size());
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is `System.dealloc`'s.
        unsafe { System.dealloc(ptr, layout) };
        note(-(layout.size() as isize), 0);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract is `System.realloc`'s.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            note(new_size as isize - layout.size() as isize, new_size);
        }
        new
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Runs `f`: its result and what it allocated.
fn measure_stats<R>(f: impl FnOnce() -> R) -> (R, Stats) {
    STATS.with(|cell| {
        cell.set(Stats {
            on: true,
            ..Stats::OFF
        })
    });
    let result = f();
    (result, STATS.with(|cell| cell.replace(Stats::OFF)))
}

/// Runs `f`: its result, the peak of bytes live above what was live before (what `f` returns
/// is still live at the end, so it counts), and its largest single allocation.
fn measure<R>(f: impl FnOnce() -> R) -> (R, usize, usize) {
    let (result, stats) = measure_stats(f);
    (result, stats.peak.max(0) as usize, stats.largest)
}

/// Checks a one-shot decode of `content` under `cap`: the content, the peak, the capacity of
/// what it returns.
fn check_one_shot(
    label: &str,
    content: &[u8],
    cap: usize,
    f: impl FnOnce() -> Result<Vec<u8>, Error>,
) {
    let (result, peak, _) = measure(f);
    let out = result.unwrap_or_else(|error| panic!("{label}, cap {cap}: {error}"));
    assert!(out == content, "{label}, cap {cap}: wrong content");
    assert!(
        peak <= cap + SLACK,
        "{label}, cap {cap}: {peak} bytes live at the peak (allowed: {})",
        cap + SLACK
    );
    assert!(
        out.capacity() <= cap,
        "{label}, cap {cap}: returned a Vec of capacity {} for {} bytes",
        out.capacity(),
        out.len()
    );
}

/// 4 MiB + 64 KiB: 65 blocks of 64 KiB, one past a power of two.
const LEN: usize = (4 << 20) + (64 << 10);

/// Incompressible, compressible, and the two alternating every 40 000 bytes (stored and LZ4
/// blocks in one stream).
fn contents() -> Vec<(&'static str, Vec<u8>)> {
    let mut rng = Rng::new(7);
    let random = samples::random(LEN, &mut rng);
    let text = samples::text(LEN, &mut rng);
    let mixed = random
        .chunks(40_000)
        .zip(text.chunks(40_000))
        .enumerate()
        .flat_map(|(i, (r, t))| if i % 2 == 0 { r } else { t }.iter().copied())
        .collect();
    vec![("random", random), ("text", text), ("mixed", mixed)]
}

/// Caps at the content's size and above it.
fn caps(len: usize) -> [usize; 3] {
    [len, len + 4096, len + len / 2]
}

#[test]
fn java_decompress_holds_no_more_than_the_cap() {
    for (name, content) in contents() {
        let stream = java::compress(&content, java::DEFAULT_BLOCK_SIZE).unwrap();
        for cap in caps(content.len()) {
            check_one_shot(&format!("java {name}"), &content, cap, || {
                java::decompress(&stream, cap)
            });
        }
    }
}

#[test]
fn hadoop_decompress_holds_no_more_than_the_cap() {
    for (name, content) in contents() {
        let stream = hadoop::compress(&content).unwrap();
        for cap in caps(content.len()) {
            check_one_shot(&format!("hadoop {name}"), &content, cap, || {
                hadoop::decompress(&stream, cap)
            });
        }
    }
}

/// The one-shot decoders' output grows geometrically, not block by block: 16 MiB of text in
/// 64 KiB to 1 MiB blocks takes at most 2 × log2(16 MiB / 64 KiB) + 4 = 20 growing
/// reallocations (block by block, commit e4b91a7: 64 in Hadoop's 261 100-byte blocks, 255 in
/// lz4-java's 64 KiB ones; 64 MiB in Hadoop's blocks moved 3.2 GiB).
#[test]
fn one_shot_decoders_grow_geometrically() {
    let content = samples::text(16 << 20, &mut Rng::new(3));
    let cap = content.len();
    let hadoop_stream = hadoop::compress(&content).unwrap();
    let java_stream = java::compress(&content, java::DEFAULT_BLOCK_SIZE).unwrap();
    let clickhouse_stream = clickhouse::compress(&content, clickhouse::DEFAULT_BLOCK_SIZE).unwrap();
    type Decode<'a> = Box<dyn Fn() -> Result<Vec<u8>, Error> + 'a>;
    let cases: [(&str, Decode); 3] = [
        (
            "hadoop",
            Box::new(|| hadoop::decompress(&hadoop_stream, cap)),
        ),
        ("java", Box::new(|| java::decompress(&java_stream, cap))),
        (
            "clickhouse",
            Box::new(|| clickhouse::decompress(&clickhouse_stream, cap)),
        ),
    ];
    for (name, decode) in cases {
        let (result, stats) = measure_stats(decode);
        assert!(result.unwrap() == content, "{name}: wrong content");
        assert!(
            stats.grows <= 20,
            "{name}: {} growing reallocations for {cap} bytes",
            stats.grows
        );
    }
}

/// ClickHouse blocks of `block_size` bytes of content, each stored (method `0x02`) when its LZ4
/// form is not smaller, as ClickHouse's `NONE` codec writes it.
fn clickhouse_blocks(content: &[u8], block_size: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for piece in content.chunks(block_size) {
        let lz4 = clickhouse::compress(piece, block_size).unwrap();
        if lz4.len() - 25 < piece.len() {
            out.extend_from_slice(&lz4);
            continue;
        }
        let mut block = vec![clickhouse::METHOD_NONE];
        block.extend_from_slice(&((piece.len() + 9) as u32).to_le_bytes());
        block.extend_from_slice(&(piece.len() as u32).to_le_bytes());
        block.extend_from_slice(piece);
        out.extend_from_slice(&clickhouse::checksum(&block));
        out.extend_from_slice(&block);
    }
    out
}

#[test]
fn clickhouse_decompress_holds_no_more_than_the_cap() {
    for (name, content) in contents() {
        for block_size in [64 << 10, clickhouse::DEFAULT_BLOCK_SIZE] {
            let blocks = clickhouse_blocks(&content, block_size);
            for cap in caps(content.len()) {
                check_one_shot(
                    &format!("clickhouse {name} {block_size}"),
                    &content,
                    cap,
                    || clickhouse::decompress(&blocks, cap),
                );
            }
        }
    }
}

/// Streaming decoders hold one block's input and one block's content: with a 600 KB block
/// before a 1 MiB one, neither buffer may grow past the 1 MiB block, whether the block cap is
/// 1 MiB or 32 MiB (amortised doubling took both to 1.2 MB; doubling within the cap took the
/// content to 1.2 MB under the 32 MiB cap).
#[test]
fn stream_decoders_hold_one_block() {
    const BLOCK: usize = 1 << 20;
    let mut rng = Rng::new(11);
    let first = samples::random(600_000, &mut rng);
    let second = samples::random(BLOCK, &mut rng);
    let content = [&first[..], &second[..]].concat();
    let mut java_streams = java::compress(&first, java::MAX_BLOCK_SIZE).unwrap();
    java_streams.extend(java::compress(&second, java::MAX_BLOCK_SIZE).unwrap());
    let mut clickhouse_stream = clickhouse_blocks(&first, BLOCK);
    clickhouse_stream.extend(clickhouse_blocks(&second, BLOCK));
    for max_block in [BLOCK, java::MAX_BLOCK_SIZE] {
        type Read<'a> = Box<dyn FnOnce() -> std::io::Result<Vec<u8>> + 'a>;
        // Each block's unit: its header (21 or 25 bytes) and its stored content.
        let cases: Vec<(&str, usize, Read)> = vec![
            (
                "java",
                java::HEADER_LEN,
                Box::new(|| {
                    let mut out = Vec::with_capacity(content.len());
                    java::Decoder::new(&java_streams[..], max_block).read_to_end(&mut out)?;
                    Ok(out)
                }),
            ),
            (
                "clickhouse",
                clickhouse::CHECKSUM_LEN + clickhouse::HEADER_LEN,
                Box::new(|| {
                    let mut out = Vec::with_capacity(content.len());
                    clickhouse::Decoder::new(&clickhouse_stream[..], max_block)
                        .read_to_end(&mut out)?;
                    Ok(out)
                }),
            ),
        ];
        for (name, header, read) in cases {
            let (result, peak, largest) = measure(read);
            assert!(result.unwrap() == content, "{name}: wrong content");
            let unit = BLOCK + header;
            assert!(
                largest <= content.len().max(unit),
                "{name}, block cap {max_block}: an allocation of {largest} bytes (a block's unit \
                 is {unit})"
            );
            let allowed = content.len() + unit + BLOCK + SLACK;
            assert!(
                peak <= allowed,
                "{name}, block cap {max_block}: {peak} bytes live at the peak (allowed: the \
                 output, a unit and a block, {allowed})"
            );
        }
    }
}

/// A Hadoop page that decodes whole, but to one byte less than the page header says.
fn short_hadoop_page() -> (Vec<u8>, usize) {
    let content = samples::text(LEN, &mut Rng::new(5));
    (hadoop::compress(&content).unwrap(), content.len() + 1)
}

#[test]
fn parquet_lz4_frees_the_hadoop_attempt_before_the_raw_one() {
    let (page, size) = short_hadoop_page();
    let (result, peak, _) = measure(|| parquet::decompress_lz4(&page, size, size));
    assert!(result.is_err());
    assert!(
        peak <= size + SLACK,
        "{peak} bytes live at the peak (allowed: {})",
        size + SLACK
    );
}

#[test]
fn parquet_lz4_names_the_size_mismatch_of_a_whole_hadoop_page() {
    let (page, size) = short_hadoop_page();
    let expected = Error::ContainerSizeMismatch {
        container: "parquet",
        input_pos: 0,
        declared: size as u64,
        actual: size as u64 - 1,
    };
    assert_eq!(
        parquet::decompress_lz4(&page, size, size).unwrap_err(),
        expected
    );
    // The same with a cap above the size, and with the Hadoop form in two blocks (its first
    // length is not the page's size).
    assert_eq!(
        parquet::decompress_lz4(&page, size, 2 * size).unwrap_err(),
        expected
    );
    let content = samples::text(LEN, &mut Rng::new(5));
    let (a, b) = content.split_at(1000);
    let mut two = hadoop::compress(a).unwrap();
    two.extend(hadoop::compress(b).unwrap());
    assert_eq!(
        parquet::decompress_lz4(&two, size, size).unwrap_err(),
        expected
    );
}

/// A Kafka frame of three 64 KiB blocks whose first block fails to decode (its first sequence's
/// match reaches before the output) and, when `bad_third`, whose third block's size word is
/// above the block size.
fn kafka_frame(checksum: HeaderChecksum, bad_first: bool, bad_third: bool) -> Vec<u8> {
    let content = samples::text(3 << 16, &mut Rng::new(9));
    let mut frame = kafka::compress(&content, checksum);
    // Header (7 bytes), then the first block's size word; its data starts at 11.
    let first = u32::from_le_bytes(frame[7..11].try_into().unwrap());
    assert_eq!(first & 0x8000_0000, 0, "the first block is compressed");
    if bad_first {
        frame[11..14].copy_from_slice(&[0x00, 0xFF, 0xFF]);
    }
    if bad_third {
        let second_at = 11 + first as usize;
        let second = u32::from_le_bytes(frame[second_at..second_at + 4].try_into().unwrap());
        let third_at = second_at + 4 + (second & 0x7FFF_FFFF) as usize;
        frame[third_at..third_at + 4].copy_from_slice(&0x0100_0000u32.to_le_bytes());
    }
    frame
}

/// `kafka::Decoder`'s error for `src`.
fn kafka_streamed(src: &[u8], accept: AcceptHeaderChecksum) -> Error {
    let mut decoder = kafka::Decoder::new(src, accept);
    let error = decoder.read_to_end(&mut Vec::new()).unwrap_err();
    *error
        .into_inner()
        .expect("an error in the data")
        .downcast::<Error>()
        .unwrap()
}

#[test]
fn kafka_decompress_reports_the_frame_decoders_error() {
    let accept = AcceptHeaderChecksum::Either;
    // The first block's error, not the third block's size word (which the one-shot form
    // reported first); the same with bytes after the frame, which come after it.
    let first_block = |error: &Error| matches!(error, Error::FrameBlock { input_pos: 7, .. });
    let mut trailing = kafka_frame(HeaderChecksum::Spec, true, false);
    trailing.push(0);
    for (name, frame) in [
        (
            "bad block and size word",
            kafka_frame(HeaderChecksum::Spec, true, true),
        ),
        ("bad block and a byte after", trailing),
    ] {
        let one_shot = frame::decompress(&frame, 1 << 20).unwrap_err();
        assert!(
            first_block(&one_shot),
            "{name}: frame::decompress: {one_shot:?}"
        );
        let kafka_one_shot = kafka::decompress(&frame, accept, 1 << 20).unwrap_err();
        assert_eq!(kafka_one_shot, one_shot, "{name}");
        assert_eq!(kafka_one_shot.to_string(), one_shot.to_string(), "{name}");
        assert_eq!(kafka_streamed(&frame, accept), one_shot, "{name}");
    }
    // The v0 header checksum (decoded from a corrected copy): the same error.
    let spec = kafka_frame(HeaderChecksum::Spec, true, true);
    let v0 = kafka_frame(HeaderChecksum::OverMagic, true, true);
    let expected = frame::decompress(&spec, 1 << 20).unwrap_err();
    assert_eq!(
        kafka::decompress(&v0, accept, 1 << 20).unwrap_err(),
        expected
    );
    assert_eq!(kafka_streamed(&v0, accept), expected);
    // A good frame with a byte after it: both forms refuse the byte, at the frame's end.
    let mut good = kafka_frame(HeaderChecksum::Spec, false, false);
    let end = good.len() as u64;
    good.push(0);
    let after = kafka::decompress(&good, accept, 1 << 20).unwrap_err();
    assert!(
        matches!(after, Error::ContainerCorrupt { input_pos, .. } if input_pos == end),
        "{after:?}"
    );
    assert_eq!(kafka_streamed(&good, accept), after);
}

/// A Kafka-accepted frame that declares its content size, whose first block fails to decode:
/// with a cap below the declared size, both forms refuse the header's size (the first error in
/// input order), as `frame::decompress` does, before any block is decoded.
#[test]
fn kafka_declared_size_above_the_cap_comes_before_a_bad_block() {
    let content = samples::text(3 << 16, &mut Rng::new(9));
    let options = frame::FrameOptions::new()
        .block_size(frame::BlockSize::Max64KB)
        .block_mode(frame::BlockMode::Independent)
        .content_size(true);
    let mut data = frame::compress(&content, &options);
    // Header (15 bytes with the content size), then the first block's size word; its data
    // starts at 19.
    let first = u32::from_le_bytes(data[15..19].try_into().unwrap());
    assert_eq!(first & 0x8000_0000, 0, "the first block is compressed");
    data[19..22].copy_from_slice(&[0x00, 0xFF, 0xFF]);
    let cap = content.len() - 1;
    let expected = Error::FrameOutputLimit {
        max_out: cap as u64,
        declared: Some(content.len() as u64),
    };
    assert_eq!(frame::decompress(&data, cap).unwrap_err(), expected);
    let accept = AcceptHeaderChecksum::Either;
    assert_eq!(kafka::decompress(&data, accept, cap).unwrap_err(), expected);
    let mut decoder = kafka::Decoder::new(&data[..], accept).max_out(cap as u64);
    let error = decoder.read_to_end(&mut Vec::new()).unwrap_err();
    let error = *error.into_inner().unwrap().downcast::<Error>().unwrap();
    assert_eq!(error, expected);
}
