//! Frames on every core (feature `parallel`): the parallel encoder's bytes against the
//! single-threaded encoder's for a sampled matrix of options and every thread count 1-8, the
//! parallel decoder's content and errors against the sequential decoder's (corrupt blocks,
//! truncated frames, failing readers), failing writers at every call, dropping mid-stream
//! without a hang, and the bound on blocks in flight.
//!
//! Run: `cargo test --features parallel --test parallel frames::`.
#![cfg(feature = "parallel")]

use std::io::{self, BufRead, ErrorKind, Read, Write};
use std::sync::mpsc;

use lz4_simd::frame::{
    self, BlockMode, BlockSize, FrameCompressor, FrameDecoder, FrameEncoder, FrameOptions,
    ParallelFrameDecoder, ParallelFrameEncoder,
};
use lz4_simd::Error;
use testkit::alloc::largest_allocation;
use testkit::hang::no_hang;
use testkit::io::{retry_would_block, write_through_failures, FailingWriter};
use testkit::samples::{self, Rng};

const KIB: usize = 1 << 10;

/// The worker count a thread count asks for (0: one per core).
fn workers(threads: usize) -> usize {
    if threads == 0 {
        std::thread::available_parallelism().map_or(1, usize::from)
    } else {
        threads
    }
}

/// Inputs: the edges (empty, 1 byte, exact block multiples and one more) and generated or
/// corpus data.
fn inputs() -> Vec<(String, Vec<u8>)> {
    let mut rng = Rng::new(7);
    let mut inputs = vec![
        ("empty".to_string(), Vec::new()),
        ("one".to_string(), vec![42]),
        ("short".to_string(), b"abcabcabcabcabcabcabc".to_vec()),
        ("3x64k".to_string(), samples::text(3 * 64 * KIB, &mut rng)),
        (
            "3x64k+1".to_string(),
            samples::logs(3 * 64 * KIB + 1, &mut rng),
        ),
        (
            "mixed".to_string(),
            [
                samples::json(150 * KIB, &mut rng),
                samples::random(70 * KIB, &mut rng),
                samples::runs(90 * KIB, 300, &mut rng),
            ]
            .concat(),
        ),
    ];
    if let Some(file) = testkit::corpus::load(600 * KIB).into_iter().next() {
        inputs.push((std::format!("corpus/{}", file.0), file.1));
    }
    inputs
}

/// A sampled option: every field drawn, HC levels kept to small inputs (level 12 is slow).
fn random_options(rng: &mut Rng, input_len: usize) -> FrameOptions {
    let block_size = *rng.pick(&[
        BlockSize::Max64KB,
        BlockSize::Max64KB,
        BlockSize::Max256KB,
        BlockSize::Max4MB,
    ]);
    let hc_levels: &[Option<u8>] = if input_len > 300 * KIB {
        &[None, None, Some(3)]
    } else {
        &[None, None, Some(2), Some(3), Some(9), Some(10), Some(12)]
    };
    FrameOptions::new()
        .block_size(block_size)
        .block_mode(*rng.pick(&[BlockMode::Independent, BlockMode::Linked]))
        .block_checksum(rng.below(2) == 0)
        .content_checksum(rng.below(3) != 0)
        .content_size(rng.below(2) == 0)
        .acceleration(*rng.pick(&[1, 1, 2, 9, 300]))
        .hc_level(*rng.pick(hc_levels))
        .favor_dec_speed(rng.below(2) == 0)
        .dict_id(if rng.below(3) == 0 {
            Some(0xD1C7)
        } else {
            None
        })
}

fn dictionary() -> Vec<u8> {
    samples::text(80 * KIB, &mut Rng::new(99))
}

/// A series of writes (and flushes, `usize::MAX`) covering `len` bytes.
fn write_plan(rng: &mut Rng, len: usize) -> Vec<usize> {
    let mut plan = Vec::new();
    let mut left = len;
    while left > 0 {
        if rng.below(12) == 0 {
            plan.push(usize::MAX);
        }
        let size = match rng.below(4) {
            0 => rng.below(100) as usize + 1,
            1 => rng.below(70_000) as usize + 1,
            2 => 64 * KIB,
            _ => rng.below(400_000) as usize + 1,
        }
        .min(left);
        plan.push(size);
        left -= size;
    }
    plan
}

/// Writes `data` to `encoder` following `plan`.
fn run_plan(encoder: &mut impl Write, data: &[u8], plan: &[usize]) {
    let mut pos = 0;
    for &step in plan {
        if step == usize::MAX {
            encoder.flush().unwrap();
        } else {
            encoder.write_all(&data[pos..pos + step]).unwrap();
            pos += step;
        }
    }
}

fn stream_single(data: &[u8], dict: &[u8], options: &FrameOptions, plan: &[usize]) -> Vec<u8> {
    let mut encoder = FrameEncoder::with_dictionary(Vec::new(), options.clone(), dict);
    run_plan(&mut encoder, data, plan);
    encoder.finish().unwrap()
}

fn stream_parallel(
    data: &[u8],
    dict: &[u8],
    options: &FrameOptions,
    plan: &[usize],
    threads: usize,
) -> Vec<u8> {
    let mut encoder =
        ParallelFrameEncoder::with_dictionary(Vec::new(), options.clone(), dict, threads);
    run_plan(&mut encoder, data, plan);
    assert!(encoder.peak_in_flight() <= 2 * workers(threads));
    encoder.finish().unwrap()
}

#[test]
fn compression_is_byte_identical_for_every_thread_count() {
    let dict = dictionary();
    let mut rng = Rng::new(2026);
    for (name, data) in inputs() {
        for round in 0..6 {
            let options = random_options(&mut rng, data.len());
            let dict: &[u8] = if options_dict(&options) { &dict } else { &[] };
            let expected = frame::compress_with_dictionary(&data, dict, &options);
            let plan = write_plan(&mut rng, data.len());
            let declared = options
                .clone()
                .declared_content_size(rng.pick(&[None, Some(data.len() as u64)]).to_owned());
            // Linked blocks depend on the updates that made them (LZ4F's history): the parallel
            // encoder hands the single-threaded one the same writes, so its frame is that
            // encoder's for them, with or without auto-flush.
            let streamed = stream_single(&data, dict, &declared, &plan);
            let mut auto = FrameEncoder::with_compressor(
                Vec::new(),
                FrameCompressor::with_dictionary(declared.clone(), dict).auto_flush(true),
            );
            run_plan(&mut auto, &data, &plan);
            let auto = auto.finish().unwrap();
            // Sampled thread counts (1-8 over the rounds), plus one per core.
            for threads in [round + 1, 8 - round, 0] {
                let what = std::format!("{name}, round {round}, {threads} threads: {options:?}");
                assert!(
                    frame::compress_parallel_with_dictionary(&data, dict, &options, threads)
                        == expected,
                    "{what}: one-shot"
                );
                assert!(
                    stream_parallel(&data, dict, &declared, &plan, threads) == streamed,
                    "{what}: streaming"
                );
                let mut encoder = ParallelFrameEncoder::with_dictionary(
                    Vec::new(),
                    declared.clone(),
                    dict,
                    threads,
                )
                .auto_flush(true);
                run_plan(&mut encoder, &data, &plan);
                assert!(encoder.finish().unwrap() == auto, "{what}: auto-flush");
            }
            assert_eq!(
                frame::decompress_with_dictionary(&expected, dict, 0xD1C7, data.len()).unwrap(),
                data
            );
        }
    }
}

fn options_dict(options: &FrameOptions) -> bool {
    format!("{options:?}").contains("dict_id: Some")
}

#[test]
fn every_hc_level_and_block_size_is_byte_identical() {
    let data = samples::text(5 * 64 * KIB + 77, &mut Rng::new(5));
    for level in [
        None,
        Some(1),
        Some(2),
        Some(3),
        Some(4),
        Some(9),
        Some(10),
        Some(12),
    ] {
        for block_size in [BlockSize::Max64KB, BlockSize::Max256KB] {
            for mode in [BlockMode::Independent, BlockMode::Linked] {
                let options = FrameOptions::new()
                    .hc_level(level)
                    .block_size(block_size)
                    .block_mode(mode)
                    .block_checksum(true)
                    .content_size(true);
                let expected = frame::compress(&data, &options);
                let plan = [100_000, usize::MAX, data.len() - 100_000];
                let declared = options
                    .clone()
                    .declared_content_size(Some(data.len() as u64));
                let streamed = stream_single(&data, &[], &declared, &plan);
                for threads in [1, 3] {
                    let what = std::format!("{level:?} {block_size:?} {mode:?} {threads}");
                    assert!(
                        frame::compress_parallel(&data, &options, threads) == expected,
                        "{what}"
                    );
                    assert!(
                        stream_parallel(&data, &[], &declared, &plan, threads) == streamed,
                        "{what}: streaming"
                    );
                }
            }
        }
    }
    // 4 MiB blocks: several of them, with the default options.
    let data = samples::logs(9 << 20, &mut Rng::new(6));
    let expected = frame::compress(&data, &FrameOptions::new());
    assert!(frame::compress_parallel(&data, &FrameOptions::new(), 2) == expected);
}

/// Every stream the sequential and the parallel decoder must agree on: frames of every option,
/// with skippable and legacy frames between them.
fn streams() -> Vec<(String, Vec<u8>, bool)> {
    let dict = dictionary();
    let mut rng = Rng::new(11);
    let mut streams = Vec::new();
    for (name, data) in inputs() {
        for round in 0..3 {
            let options = random_options(&mut rng, data.len()).hc_level(None);
            let with_dict = options_dict(&options);
            let mut framed = if with_dict {
                frame::compress_with_dictionary(&data, &dict, &options)
            } else {
                frame::compress(&data, &options)
            };
            if round == 2 {
                framed.extend(frame::skippable_frame(1, b"between").unwrap());
                framed.extend(frame::compress_legacy(&data[..data.len().min(5000)], 1));
                framed.extend(frame::compress(
                    &data,
                    &options.clone().block_mode(BlockMode::Independent),
                ));
            }
            streams.push((std::format!("{name}/{round}"), framed, with_dict));
        }
    }
    streams
}

/// What a streaming decoder hands out, read `chunk` bytes at a time, and how it ends.
fn read_all(decoder: &mut impl Read, chunk: usize) -> (Vec<u8>, Option<(ErrorKind, String)>) {
    let mut out = Vec::new();
    let mut buf = vec![0u8; chunk];
    loop {
        match decoder.read(&mut buf) {
            Ok(0) => return (out, None),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(error) => return (out, Some((error.kind(), error.to_string()))),
        }
    }
}

fn sequential(
    framed: &[u8],
    with_dict: bool,
    chunk: usize,
) -> (Vec<u8>, Option<(ErrorKind, String)>) {
    let dict = dictionary();
    if with_dict {
        read_all(
            &mut FrameDecoder::with_dictionary(framed, &dict, 0xD1C7),
            chunk,
        )
    } else {
        read_all(&mut FrameDecoder::new(framed), chunk)
    }
}

fn parallel(
    framed: &[u8],
    with_dict: bool,
    chunk: usize,
    threads: usize,
) -> (Vec<u8>, Option<(ErrorKind, String)>) {
    let dict = dictionary();
    let mut decoder = if with_dict {
        ParallelFrameDecoder::with_dictionary(framed, &dict, 0xD1C7, threads)
    } else {
        ParallelFrameDecoder::new(framed, threads)
    };
    let result = read_all(&mut decoder, chunk);
    // Blocks of 64 KiB (the smallest in these frames) go to the workers 4 at a time.
    assert!(decoder.peak_in_flight() <= 2 * workers(threads) * 4);
    result
}

fn one_shot_parallel(
    framed: &[u8],
    with_dict: bool,
    cap: usize,
    threads: usize,
) -> Result<Vec<u8>, Error> {
    if with_dict {
        frame::decompress_parallel_with_dictionary(framed, &dictionary(), 0xD1C7, cap, threads)
    } else {
        frame::decompress_parallel(framed, cap, threads)
    }
}

fn one_shot(framed: &[u8], with_dict: bool, cap: usize) -> Result<Vec<u8>, Error> {
    if with_dict {
        frame::decompress_with_dictionary(framed, &dictionary(), 0xD1C7, cap)
    } else {
        frame::decompress(framed, cap)
    }
}

#[test]
fn decompression_matches_the_sequential_decoder() {
    for (name, framed, with_dict) in streams() {
        let expected = sequential(&framed, with_dict, 1 << 20);
        assert_eq!(expected.1, None, "{name}");
        for threads in [1, 2, 5, 8] {
            for chunk in [1 << 20, 1000] {
                assert!(
                    parallel(&framed, with_dict, chunk, threads) == expected,
                    "{name}: {threads} threads, reads of {chunk}"
                );
            }
            if !with_dict {
                let mut all = Vec::new();
                ParallelFrameDecoder::new(&framed[..], threads)
                    .read_to_end(&mut all)
                    .unwrap();
                assert!(all == expected.0, "{name}: {threads} threads, read_to_end");
            }
            for cap in [
                expected.0.len(),
                expected.0.len().saturating_sub(1),
                1 << 22,
            ] {
                assert_eq!(
                    one_shot_parallel(&framed, with_dict, cap, threads),
                    one_shot(&framed, with_dict, cap),
                    "{name}: {threads} threads, cap {cap}"
                );
            }
        }
    }
}

/// A frame of many small blocks, for the error paths.
fn many_blocks(block_checksum: bool, content_checksum: bool) -> (Vec<u8>, Vec<u8>) {
    let data = samples::text(20 * 64 * KIB + 999, &mut Rng::new(3));
    let options = FrameOptions::new()
        .block_size(BlockSize::Max64KB)
        .block_checksum(block_checksum)
        .content_checksum(content_checksum)
        .content_size(true);
    let framed = frame::compress(&data, &options);
    (data, framed)
}

/// Offsets of each block's size word in a frame without a dictionary ID.
fn block_offsets(framed: &[u8], block_checksum: bool) -> Vec<usize> {
    let header_len = frame::read_frame_info(framed).unwrap().header_len;
    let mut offsets = Vec::new();
    let mut pos = header_len;
    loop {
        let word = u32::from_le_bytes(framed[pos..pos + 4].try_into().unwrap());
        if word == 0 {
            return offsets;
        }
        offsets.push(pos);
        pos += 4 + (word & 0x7FFF_FFFF) as usize + if block_checksum { 4 } else { 0 };
    }
}

#[test]
fn a_corrupt_block_reports_what_the_sequential_decoder_reports() {
    for (block_checksum, content_checksum) in [(false, false), (true, true), (false, true)] {
        let (_, framed) = many_blocks(block_checksum, content_checksum);
        let offsets = block_offsets(&framed, block_checksum);
        // The first blocks, one in the middle and the last ones.
        let sampled = [
            0,
            1,
            2,
            offsets.len() / 2,
            offsets.len() - 2,
            offsets.len() - 1,
        ];
        for index in sampled {
            let offset = offsets[index];
            for (at, flip) in [(4, 0xFF), (offset_mid(&framed, offset), 0x5A), (0, 0x40)] {
                let mut bad = framed.clone();
                bad[offset + at] ^= flip;
                let expected = sequential(&bad, false, 1 << 20);
                for threads in [1, 4] {
                    let found = parallel(&bad, false, 1 << 20, threads);
                    assert!(
                        found == expected,
                        "block {index} byte +{at} ^ {flip:#x}, {threads} threads: {:?} vs {:?}",
                        found.1,
                        expected.1
                    );
                    assert_eq!(
                        one_shot_parallel(&bad, false, 1 << 24, threads),
                        frame::decompress(&bad, 1 << 24),
                        "block {index} byte +{at} ^ {flip:#x}, {threads} threads: one-shot"
                    );
                }
            }
        }
    }
}

fn offset_mid(framed: &[u8], offset: usize) -> usize {
    let word = u32::from_le_bytes(framed[offset..offset + 4].try_into().unwrap());
    4 + (word & 0x7FFF_FFFF) as usize / 2
}

#[test]
fn a_truncated_frame_reports_what_the_sequential_decoder_reports() {
    let (_, framed) = many_blocks(true, true);
    let mut rng = Rng::new(4);
    let mut cuts: Vec<usize> = (0..12)
        .map(|_| rng.below(framed.len() as u64) as usize)
        .collect();
    cuts.extend([0, 1, 4, 7, framed.len() - 4, framed.len() - 1]);
    // Around the size words of the first blocks, one in the middle and the last.
    let offsets = block_offsets(&framed, true);
    for o in [
        offsets[0],
        offsets[1],
        offsets[offsets.len() / 2],
        offsets[offsets.len() - 1],
    ] {
        cuts.extend([o, o + 3, o + 4, o + 5]);
    }
    for cut in cuts {
        let expected = sequential(&framed[..cut], false, 1 << 16);
        assert!(expected.1.is_some(), "cut at {cut}");
        for threads in [1, 3] {
            assert!(
                parallel(&framed[..cut], false, 1 << 16, threads) == expected,
                "cut at {cut}, {threads} threads"
            );
            assert_eq!(
                one_shot_parallel(&framed[..cut], false, 1 << 24, threads),
                frame::decompress(&framed[..cut], 1 << 24)
            );
        }
    }
}

/// A reader that fails (once) at its `fail_at`th call, with `kind`, and gives at most `step`
/// bytes per call.
struct FailingReader<'a> {
    data: &'a [u8],
    pos: usize,
    calls: usize,
    fail_at: usize,
    step: usize,
    kind: ErrorKind,
}

impl Read for FailingReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.calls += 1;
        if self.calls == self.fail_at {
            return Err(io::Error::new(self.kind, "test reader failure"));
        }
        let n = buf.len().min(self.step).min(self.data.len() - self.pos);
        buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// Reads everything, calling again after each reader error; returns the content and the error
/// kinds seen.
fn read_resuming(decoder: &mut impl BufRead) -> (Vec<u8>, Vec<ErrorKind>) {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    loop {
        match decoder.fill_buf() {
            Ok([]) => return (out, errors),
            Ok(available) => {
                let n = available.len();
                out.extend_from_slice(available);
                decoder.consume(n);
            }
            Err(error) => {
                assert!(error
                    .get_ref()
                    .is_none_or(|e| e.downcast_ref::<Error>().is_none()));
                errors.push(error.kind());
                assert!(errors.len() < 4, "the reader's error repeats");
            }
        }
    }
}

#[test]
fn a_failing_reader_loses_nothing() {
    let (data, framed) = many_blocks(true, true);
    for step in [1000, 70_000] {
        let calls = framed.len().div_ceil(step) + 2 * 21 + 8;
        for fail_at in (1..calls).step_by(if step == 1000 { 17 } else { 1 }) {
            for kind in [ErrorKind::WouldBlock, ErrorKind::TimedOut] {
                let reader = |_| FailingReader {
                    data: &framed,
                    pos: 0,
                    calls: 0,
                    fail_at,
                    step,
                    kind,
                };
                let (sequential_out, sequential_errors) =
                    read_resuming(&mut FrameDecoder::new(reader(0)));
                assert_eq!(sequential_out, data);
                for threads in [1, 4] {
                    let mut decoder = ParallelFrameDecoder::new(reader(0), threads);
                    let (out, errors) = read_resuming(&mut decoder);
                    assert!(
                        out == data,
                        "fail at {fail_at}, step {step}, {threads} threads"
                    );
                    assert_eq!(errors, sequential_errors, "fail at {fail_at}, step {step}");
                }
            }
        }
    }
}

#[test]
fn a_failing_writer_at_every_call_loses_nothing() {
    let data = samples::logs(9 * 64 * KIB + 5, &mut Rng::new(8));
    for mode in [BlockMode::Independent, BlockMode::Linked] {
        let options = FrameOptions::new()
            .block_size(BlockSize::Max64KB)
            .block_mode(mode)
            .block_checksum(true);
        // The same writes as below: linked frames depend on them.
        let writes: Vec<usize> = data.chunks(50_000).map(<[u8]>::len).collect();
        let expected = stream_single(&data, &[], &options, &writes);
        for step in [usize::MAX, 10_000] {
            let calls = 2 * (expected.len() / step.min(expected.len()) + 12);
            for fail_at in 1..=calls {
                for threads in [1, 3] {
                    let writer = FailingWriter {
                        out: Vec::new(),
                        calls: 0,
                        fail_at,
                        persistent: false,
                        step,
                    };
                    let mut encoder =
                        ParallelFrameEncoder::with_options(writer, options.clone(), threads);
                    let mut failures = 0;
                    for piece in data.chunks(50_000) {
                        failures += write_through_failures(&mut encoder, piece);
                    }
                    failures += retry_would_block(|| encoder.try_finish()).1;
                    assert!(failures <= 1);
                    let out = encoder.finish().unwrap().out;
                    assert!(
                        out == expected,
                        "{mode:?}: fail at call {fail_at}, step {step}, {threads} threads"
                    );
                }
            }
        }
    }
}

#[test]
fn a_writer_that_keeps_failing_stops_the_pipeline() {
    let data = samples::text(40 * 64 * KIB, &mut Rng::new(9));
    for mode in [BlockMode::Independent, BlockMode::Linked] {
        let options = FrameOptions::new()
            .block_size(BlockSize::Max64KB)
            .block_mode(mode);
        for fail_at in [1, 2, 5] {
            let data = data.clone();
            let options = options.clone();
            no_hang("failing writer", move || {
                let writer = FailingWriter {
                    out: Vec::new(),
                    calls: 0,
                    fail_at,
                    persistent: true,
                    step: usize::MAX,
                };
                let mut encoder = ParallelFrameEncoder::with_options(writer, options, 2);
                let result = encoder.write_all(&data);
                assert_eq!(result.unwrap_err().kind(), ErrorKind::WouldBlock);
                // The encoder stopped taking input: at most the blocks in flight, the one being
                // gathered and one staged are taken beyond what was written.
                assert!(encoder.peak_in_flight() <= 4);
                assert!(encoder.try_finish().is_err());
            });
        }
    }
}

/// A writer that blocks until its channel closes (a stalled pipe).
struct StalledWriter(mpsc::Receiver<()>);

impl Write for StalledWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let _ = self.0.recv();
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn dropping_mid_stream_neither_hangs_nor_leaks() {
    let data = samples::text(30 * 64 * KIB, &mut Rng::new(10));
    let framed = frame::compress(&data, &FrameOptions::new().block_size(BlockSize::Max64KB));
    for threads in [1, 2, 8] {
        for mode in [BlockMode::Independent, BlockMode::Linked] {
            let data = data.clone();
            no_hang("drop encoder", move || {
                let options = FrameOptions::new()
                    .block_size(BlockSize::Max64KB)
                    .block_mode(mode)
                    .hc_level(Some(9));
                let mut encoder = ParallelFrameEncoder::with_options(io::sink(), options, threads);
                // Blocks in flight when it is dropped.
                encoder.write_all(&data[..20 * 64 * KIB + 5]).unwrap();
                drop(encoder);
            });
        }
        let framed = framed.clone();
        no_hang("drop decoder", move || {
            let mut decoder = ParallelFrameDecoder::new(&framed[..], threads);
            let mut buf = [0u8; 100];
            decoder.read_exact(&mut buf).unwrap();
            drop(decoder);
        });
    }
    // A stalled writer: the encoder is dropped from another thread's point of view once the
    // pipe opens; the pool must still serve other frames meanwhile.
    let (release, stalled) = mpsc::channel();
    let data_for_stalled = data.clone();
    let stalled_thread = std::thread::spawn(move || {
        let options = FrameOptions::new().block_size(BlockSize::Max64KB);
        let mut encoder = ParallelFrameEncoder::with_options(StalledWriter(stalled), options, 2);
        let _ = encoder.write_all(&data_for_stalled);
    });
    let data2 = data.clone();
    let other = no_hang("other frame while a writer stalls", move || {
        frame::compress_parallel(
            &data2,
            &FrameOptions::new().block_size(BlockSize::Max64KB),
            2,
        )
    });
    assert_eq!(frame::decompress(&other, data.len()).unwrap(), data);
    drop(release);
    stalled_thread.join().unwrap();
    // The pools are reused: frames after all of this still work on every thread count.
    for threads in 1..=8 {
        let framed = frame::compress_parallel(&data, &FrameOptions::new(), threads);
        assert_eq!(
            frame::decompress_parallel(&framed, data.len(), threads).unwrap(),
            data
        );
    }
}

/// At most two jobs in flight per thread (of `batch` blocks), and no allocation on the caller's
/// thread sized by the content (64 KiB blocks).
fn check_bounds(threads: usize, batch: usize, peak: usize, largest: usize) {
    assert!(
        peak <= 2 * threads * batch && peak >= 1,
        "{threads} threads: {peak} in flight"
    );
    assert!(
        largest <= 256 * KIB,
        "{threads} threads: an allocation of {largest}"
    );
}

#[test]
fn memory_is_bounded_by_the_blocks_in_flight() {
    let data = samples::logs(120 * 64 * KIB, &mut Rng::new(12));
    let options = FrameOptions::new().block_size(BlockSize::Max64KB);
    let framed = frame::compress(&data, &options);
    for threads in [1, 2, 3, 8] {
        // The caller's thread never allocates anything sized by the content.
        let (peak, largest) = largest_allocation(|| {
            let mut encoder =
                ParallelFrameEncoder::with_options(io::sink(), options.clone(), threads);
            for chunk in data.chunks(100_000) {
                encoder.write_all(chunk).unwrap();
            }
            let peak = encoder.peak_in_flight();
            encoder.finish().unwrap();
            peak
        });
        check_bounds(threads, 1, peak, largest);

        let (peak, largest) = largest_allocation(|| {
            let mut decoder = ParallelFrameDecoder::new(&framed[..], threads);
            let mut buf = vec![0u8; 10_000];
            while decoder.read(&mut buf).unwrap() > 0 {}
            decoder.peak_in_flight()
        });
        if threads == 1 {
            // One thread decodes as the sequential decoder does: nothing is read ahead.
            assert_eq!(peak, 0);
            assert!(largest <= 256 * KIB, "an allocation of {largest}");
        } else {
            // The decoder hands out 64 KiB blocks 4 at a time (256 KiB batches).
            check_bounds(threads, 4, peak, largest);
        }
    }
    // The one-shot decoder's output stays within the cap.
    let (result, largest) =
        largest_allocation(|| frame::decompress_parallel(&framed, data.len(), 4));
    assert_eq!(result.unwrap(), data);
    assert!(largest <= data.len());
}

#[test]
fn writes_after_finish_fail_and_finish_is_idempotent() {
    let mut encoder = ParallelFrameEncoder::new(Vec::new(), 2);
    encoder.write_all(b"content").unwrap();
    encoder.try_finish().unwrap();
    encoder.try_finish().unwrap();
    assert!(encoder.write(b"more").is_err());
    let framed = encoder.finish().unwrap();
    assert_eq!(frame::decompress(&framed, 100).unwrap(), b"content");
    // A declared content size that is not met fails without writing.
    let options = FrameOptions::new().declared_content_size(Some(10));
    let mut encoder = ParallelFrameEncoder::with_options(Vec::new(), options, 2);
    encoder.write_all(b"short").unwrap();
    let error = encoder.try_finish().unwrap_err();
    assert!(matches!(
        error.get_ref().and_then(|e| e.downcast_ref::<Error>()),
        Some(Error::FrameContentSizeMismatch {
            declared: 10,
            actual: 5
        })
    ));
}

/// HC with a dictionary and favour-decompression-speed: LZ4F's working stream loses the option
/// after a block that copied the dictionary's state (above 4 KiB) or failed, so a later short
/// block (the last one, or one a flush cut) at levels 10-12 depends on the blocks before it.
/// The parallel encoders give the single-threaded bytes there too.
#[test]
fn hc_dictionary_with_favour_is_byte_identical() {
    let dict = dictionary();
    let mut rng = Rng::new(77);
    let mut data = samples::text(2 * 64 * KIB - 2000, &mut rng);
    // Incompressible bytes in the middle: a short block there is stored raw (a failed block).
    // The last block is 3000 bytes (under 4 KiB: searched with the attached dictionary).
    data.splice(64 * KIB..64 * KIB, (0..5000).map(|_| rng.below(256) as u8));
    for level in [9u8, 10, 11, 12] {
        let options = FrameOptions::new()
            .block_size(BlockSize::Max64KB)
            .hc_level(Some(level))
            .favor_dec_speed(true)
            .dict_id(Some(0xD1C7));
        let expected = frame::compress_with_dictionary(&data, &dict, &options);
        for plan in [
            vec![data.len()],
            vec![3000, usize::MAX, 2000, usize::MAX, data.len() - 5000],
            vec![
                64 * KIB + 100,
                usize::MAX,
                4000,
                usize::MAX,
                data.len() - 64 * KIB - 4100,
            ],
        ] {
            let streamed = stream_single(&data, &dict, &options, &plan);
            for threads in [1, 2, 3] {
                let what = format!("level {level}, {threads} threads, plan {plan:?}");
                assert!(
                    frame::compress_parallel_with_dictionary(&data, &dict, &options, threads)
                        == expected,
                    "{what}: one-shot"
                );
                assert!(
                    stream_parallel(&data, &dict, &options, &plan, threads) == streamed,
                    "{what}: streaming"
                );
            }
        }
    }
}

/// A dropped decoder leaves its block buffers to the next one (which starts them with the
/// dictionary of the decoder that filled them): decoders one after the other with another
/// dictionary, none, and a dictionary again, some dropped mid-stream, hand out exactly the
/// content. Blocks reference their dictionary from the first byte, so a stale one would show.
#[test]
fn decoders_one_after_another_reuse_buffers_with_their_own_dictionary() {
    let content = samples::text(40 * 64 * KIB, &mut Rng::new(31));
    let options = FrameOptions::new()
        .block_size(BlockSize::Max64KB)
        .dict_id(Some(0xD1C7));
    let mut dicts: Vec<Vec<u8>> = Vec::new();
    for seed in 0..3u64 {
        // Each dictionary's last 64 KiB hold a different part of the content, so the blocks'
        // first matches reach into it.
        let mut dict = samples::text(16 * KIB, &mut Rng::new(200 + seed));
        let from = seed as usize * 100 * KIB;
        dict.extend_from_slice(&content[from..from + 60 * KIB]);
        dicts.push(dict);
    }
    let plain = frame::compress(
        &content,
        &FrameOptions::new().block_size(BlockSize::Max64KB),
    );
    for round in 0..12 {
        for threads in [1, 2, 3] {
            let which = round % 4;
            let (framed, dict) = match dicts.get(which) {
                Some(dict) => (
                    frame::compress_with_dictionary(&content, dict, &options),
                    dict,
                ),
                None => (plain.clone(), &dicts[0]),
            };
            let mut decoder = if which < dicts.len() {
                ParallelFrameDecoder::with_dictionary(&framed[..], dict, 0xD1C7, threads)
            } else {
                ParallelFrameDecoder::new(&framed[..], threads)
            };
            if round % 3 == 2 {
                // Dropped with blocks in flight.
                let mut some = vec![0u8; 100 * KIB];
                decoder.read_exact(&mut some).unwrap();
                assert!(some == content[..some.len()]);
                continue;
            }
            let mut decoded = Vec::new();
            decoder.read_to_end(&mut decoded).unwrap();
            assert!(decoded == content, "round {round}, {threads} threads");
        }
    }
}

/// Linked frames depend on how the writes split a block (liblz4's linked streams do): a write
/// that ends inside a block gives the single-threaded encoder's bytes for those writes, at the
/// fast level and HC 9, with and without auto-flush (before `e5a906d`, 2026-12-06, handed each
/// block as one write, the encoder differed on 5 of 40 seeds at the fast level, 9 of 12 at HC 9).
#[test]
fn linked_frames_follow_writes_that_end_inside_blocks() {
    let block = 64 * KIB;
    for (seed, level) in (0..8u64).zip([None, Some(9)].into_iter().cycle()) {
        let data = samples::text(5 * block + 30_000, &mut Rng::new(seed));
        let options = FrameOptions::new()
            .block_size(BlockSize::Max64KB)
            .block_mode(BlockMode::Linked)
            .hc_level(level);
        let plan = [
            block + 18_733,
            2 * block,
            7,
            data.len() - 3 * block - 18_740,
        ];
        for auto_flush in [false, true] {
            let mut single = FrameEncoder::with_compressor(
                Vec::new(),
                FrameCompressor::with_options(options.clone()).auto_flush(auto_flush),
            );
            run_plan(&mut single, &data, &plan);
            let single = single.finish().unwrap();
            let mut parallel = ParallelFrameEncoder::with_options(Vec::new(), options.clone(), 2)
                .auto_flush(auto_flush);
            run_plan(&mut parallel, &data, &plan);
            assert!(
                parallel.finish().unwrap() == single,
                "seed {seed}, {level:?}, auto-flush {auto_flush}"
            );
        }
    }
}

/// Auto-flush switched on (or off) after writes, which its by-value setter allows: the frame is
/// that of a [`FrameCompressor`] switched at the same point (the next write ends the block in
/// progress with it), on every thread count and in both block modes, so the setting reaches a
/// linked block's single-threaded encoder even while that is out on a job. Nothing panics and
/// nothing is lost (before `4e3952b`, 2026-12-06: a debug assertion, and a linked encoder that
/// missed it).
#[test]
fn auto_flush_switched_after_writes_is_the_compressors() {
    /// The compressor given `pieces` as writes, with auto-flush `first` until piece
    /// `switch_at` and the other way from there.
    fn reference(
        options: &FrameOptions,
        pieces: &[&[u8]],
        first: bool,
        switch_at: usize,
    ) -> Vec<u8> {
        let mut compressor = Some(FrameCompressor::with_options(options.clone()).auto_flush(first));
        let mut out = Vec::new();
        let mut drain = |compressor: &mut FrameCompressor| {
            out.extend_from_slice(compressor.pending_output());
            compressor.consume_output(compressor.pending_output().len());
        };
        for (at, piece) in pieces.iter().enumerate() {
            if at == switch_at {
                compressor = compressor.map(|c| c.auto_flush(!first));
            }
            let compressor = compressor.as_mut().unwrap();
            let mut rest = *piece;
            while !rest.is_empty() {
                let taken = compressor.take_input(rest).unwrap();
                rest = &rest[taken..];
                drain(compressor);
            }
        }
        let compressor = compressor.as_mut().unwrap();
        compressor.end_frame().unwrap();
        drain(compressor);
        out
    }
    let block = 64 * KIB;
    let data = samples::text(4 * block + 5000, &mut Rng::new(17));
    let sizes = [100, block, 300, 40_000, 7, block + 1000, 2 * block];
    let mut pieces = Vec::new();
    let mut at = 0;
    for size in sizes.iter().cycle() {
        let end = (at + size).min(data.len());
        pieces.push(&data[at..end]);
        at = end;
        if at == data.len() {
            break;
        }
    }
    for (mode, level) in [
        (BlockMode::Independent, None),
        (BlockMode::Linked, None),
        (BlockMode::Linked, Some(9)),
    ] {
        let options = FrameOptions::new()
            .block_size(BlockSize::Max64KB)
            .block_mode(mode)
            .hc_level(level);
        for first in [false, true] {
            for switch_at in [1, 2, 3, 5] {
                let expected = reference(&options, &pieces, first, switch_at);
                for threads in 1..=3 {
                    let what = format!("{mode:?} {level:?}, auto-flush {first} then switched before write {switch_at}, {threads} threads");
                    let mut encoder = Some(
                        ParallelFrameEncoder::with_options(Vec::new(), options.clone(), threads)
                            .auto_flush(first),
                    );
                    for (at, piece) in pieces.iter().enumerate() {
                        if at == switch_at {
                            encoder = encoder.map(|e| e.auto_flush(!first));
                        }
                        encoder.as_mut().unwrap().write_all(piece).unwrap();
                    }
                    let framed = encoder.unwrap().finish().unwrap();
                    assert_eq!(
                        frame::decompress(&framed, data.len()).unwrap(),
                        data,
                        "{what}"
                    );
                    assert!(framed == expected, "{what}");
                }
            }
        }
    }
}

/// `with_prepared_dictionary` writes `FrameEncoder::with_prepared_dictionary`'s frame for the
/// same writes, with either preparation (`Dictionary::new_dense` is the `lz4` command's), fast
/// and HC, independent and linked, with and without auto-flush, at several thread counts.
#[test]
fn prepared_dictionary_frames_match_the_single_threaded_encoder() {
    use lz4_simd::block::Dictionary;
    let bytes = dictionary();
    let data = samples::text(5 * 64 * KIB + 77, &mut Rng::new(7));
    let plan = [100_000, usize::MAX, 30_000, data.len() - 130_000];
    for (kind, dict) in [
        ("dense", Dictionary::new_dense(&bytes)),
        ("sparse", Dictionary::new(&bytes)),
    ] {
        for level in [None, Some(9)] {
            for mode in [BlockMode::Independent, BlockMode::Linked] {
                let options = FrameOptions::new()
                    .hc_level(level)
                    .block_size(BlockSize::Max64KB)
                    .block_mode(mode)
                    .content_checksum(true)
                    .declared_content_size(Some(data.len() as u64));
                for auto_flush in [false, true] {
                    let mut single = FrameEncoder::with_compressor(
                        Vec::new(),
                        FrameCompressor::with_prepared_dictionary(options.clone(), &dict)
                            .auto_flush(auto_flush),
                    );
                    run_plan(&mut single, &data, &plan);
                    let expected = single.finish().unwrap();
                    for threads in [1, 2, 3, 8, 0] {
                        let mut encoder = ParallelFrameEncoder::with_prepared_dictionary(
                            Vec::new(),
                            options.clone(),
                            &dict,
                            threads,
                        )
                        .auto_flush(auto_flush);
                        run_plan(&mut encoder, &data, &plan);
                        assert!(
                            encoder.finish().unwrap() == expected,
                            "{kind} {level:?} {mode:?} auto-flush {auto_flush}, {threads} threads"
                        );
                    }
                }
            }
        }
    }
}
