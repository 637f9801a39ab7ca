//! Frames of streamed input are LZ4F's for the same calls: each run of
//! `FrameCompressor::compress` that takes one input (and each `FrameEncoder::write`) is one
//! `LZ4F_compressUpdate`, each `flush` one `LZ4F_flush`. For linked blocks that decides the
//! history (liblz4's prefix mode for blocks that follow each other in LZ4F's buffer or in the
//! caller's input, the external dictionary after `LZ4F_localSaveDict`), so this sweeps fast and
//! HC levels 1-12, linked and independent blocks, with and without a dictionary, auto-flush on
//! and off, with and without flushes, inputs below, at and above the block size, 64 KiB and
//! 256 KiB blocks, and output rooms that take the direct and the staged paths. Sampled in debug
//! builds (every 41st case, every third in release builds). HC level 1 is level 2 (LZ4F's level 1 is
//! the fast compressor).

use std::io::Write;

use crate::common as frame_common;

use lz4_simd::block::Dictionary;
use lz4_simd::frame::{BlockMode, BlockSize, FrameCompressor, FrameEncoder, FrameOptions};
use testkit::liblz4::{self, FrameOp};
use testkit::samples::{self, Rng};

/// Every third case in release builds, every 41st in debug builds.
const STRIDE: usize = if cfg!(debug_assertions) { 41 } else { 3 };

struct Case<'a> {
    level: Option<u8>,
    block_size: BlockSize,
    linked: bool,
    dict: Option<&'a [u8]>,
    auto_flush: bool,
}

impl Case<'_> {
    fn options(&self) -> FrameOptions {
        FrameOptions::new()
            .block_size(self.block_size)
            .block_mode(if self.linked {
                BlockMode::Linked
            } else {
                BlockMode::Independent
            })
            .hc_level(self.level)
    }

    fn preferences(&self) -> liblz4::FramePreferences {
        let code = if self.block_size == BlockSize::Max64KB {
            4
        } else {
            5
        };
        let mut preferences = liblz4::fast_frame_preferences(code, self.linked, 1);
        preferences.compression_level = self.level.map_or(0, |level| u32::from(level.max(2)));
        preferences.auto_flush = u32::from(self.auto_flush);
        preferences
    }

    /// Our compressor for the case: with a dictionary, the HC levels take its bytes and the fast
    /// ones a dictionary prepared as LZ4F's CDict (`LZ4_loadDictSlow`).
    fn compressor(&self) -> FrameCompressor {
        let options = self.options();
        match self.dict {
            Some(dict) if self.level.is_none() => {
                FrameCompressor::with_prepared_dictionary(options, &Dictionary::new_dense(dict))
            }
            Some(dict) => FrameCompressor::with_dictionary(options, dict),
            None => FrameCompressor::with_options(options),
        }
        .auto_flush(self.auto_flush)
    }

    fn describe(&self, what: &str) -> String {
        format!(
            "level {:?} {:?} linked {} dict {} auto-flush {}: {what}",
            self.level,
            self.block_size,
            self.linked,
            self.dict.map_or(0, <[u8]>::len),
            self.auto_flush
        )
    }
}

/// The updates of `data` cut into `chunk` bytes, with a flush after every `flush_every`-th (none
/// for 0).
fn ops(data: &[u8], chunk: usize, flush_every: usize) -> Vec<FrameOp<'_>> {
    let mut ops = Vec::new();
    for (index, piece) in data.chunks(chunk).enumerate() {
        ops.push(FrameOp::Update(piece));
        if flush_every != 0 && index % flush_every == flush_every - 1 {
            ops.push(FrameOp::Flush);
        }
    }
    ops
}

#[test]
fn streamed_frames_are_lz4fs_for_the_same_updates() {
    let mut rng = Rng::new(0x1713);
    // Each longer than a block of 256 KiB: shorter content is one block, which the frame
    // compressor writes as the `lz4` tool does (independent, with the smallest block size that
    // holds it), not as LZ4F's streaming calls do.
    let inputs = [
        ("logs", samples::logs(400_000, &mut rng)),
        ("text", samples::text(300_000, &mut rng)),
        ("runs", samples::runs(300_000, 40, &mut rng)),
    ];
    let dict = samples::logs(70_000, &mut rng);
    let small_dict = &dict[..3000];
    let mut failures = Vec::new();
    let mut compared = 0usize;
    let mut case_number = 0usize;
    for (name, data) in &inputs {
        for level in [
            None,
            Some(1u8),
            Some(3),
            Some(5),
            Some(9),
            Some(10),
            Some(12),
        ] {
            for block_size in [BlockSize::Max64KB, BlockSize::Max256KB] {
                let block = block_size.bytes();
                for linked in [true, false] {
                    for dict in [None, Some(&dict[..]), Some(small_dict)] {
                        for auto_flush in [false, true] {
                            for (chunk, flush_every) in [
                                (1000, 0),
                                (5000, 9),
                                (block / 2 + 7, 0),
                                (block, 0),
                                (block, 2),
                                (block + 4464, 0),
                                (2 * block + 100, 0),
                            ] {
                                case_number += 1;
                                if !case_number.is_multiple_of(STRIDE) {
                                    continue;
                                }
                                // Rooms: the whole frame at once (the direct path for whole
                                // blocks), and little (staged, taken in pieces).
                                let room = if case_number.is_multiple_of(2) {
                                    1 << 22
                                } else {
                                    4099
                                };
                                let case = Case {
                                    level,
                                    block_size,
                                    linked,
                                    dict,
                                    auto_flush,
                                };
                                let ops = ops(data, chunk, flush_every);
                                let want =
                                    liblz4::compress_frame_ops(&ops, dict, &case.preferences());
                                let got = frame_common::compress_ops(
                                    &mut case.compressor(),
                                    ops.iter().copied(),
                                    room,
                                );
                                compared += 1;
                                if got != want {
                                    let at = got.iter().zip(&want).position(|(a, b)| a != b);
                                    failures.push(case.describe(&format!(
                                        "{name} chunks of {chunk}, flush every {flush_every}, room {room}: ours {} LZ4F {} (first difference at {at:?})",
                                        got.len(),
                                        want.len()
                                    )));
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {compared}: {failures:#?}",
        failures.len()
    );
}

/// The `std::io` encoder: each `write` is one update of what it takes (at most what completes a
/// block), each `flush` an `LZ4F_flush`.
#[test]
fn the_io_encoder_writes_lz4fs_frames_for_its_writes() {
    let mut rng = Rng::new(0x1714);
    let data = samples::logs(300_000, &mut rng);
    let mut case_number = 0usize;
    for level in [None, Some(2u8), Some(4), Some(9), Some(11)] {
        for linked in [true, false] {
            for write_len in [777usize, 40_000, 65_536, 100_000] {
                case_number += 1;
                if !case_number.is_multiple_of(STRIDE.min(3)) {
                    continue;
                }
                let case = Case {
                    level,
                    block_size: BlockSize::Max64KB,
                    linked,
                    dict: None,
                    auto_flush: false,
                };
                let mut encoder = FrameEncoder::with_compressor(Vec::new(), case.compressor());
                let mut updates = liblz4::updates_of_writes(&data, write_len, 65_536);
                for (index, piece) in data.chunks(write_len).enumerate() {
                    encoder.write_all(piece).unwrap();
                    if index == 2 {
                        encoder.flush().unwrap();
                    }
                }
                // The flush after the third write: after the updates its pieces made.
                let taken: usize = data.chunks(write_len).take(3).map(<[u8]>::len).sum();
                let mut at = 0;
                let position = updates
                    .iter()
                    .position(|op| {
                        if let FrameOp::Update(piece) = op {
                            at += piece.len();
                        }
                        at == taken
                    })
                    .unwrap();
                updates.insert(position + 1, FrameOp::Flush);
                let want = liblz4::compress_frame_ops(&updates, None, &case.preferences());
                assert!(
                    encoder.finish().unwrap() == want,
                    "{}",
                    case.describe(&format!("writes of {write_len}"))
                );
            }
        }
    }
}

/// Updates whose last block is 1-3 bytes taken from the caller's input: LZ4F then saves a
/// history of those few bytes (`LZ4_saveDictHC(64 KiB)` keeps a prefix shorter than 4 bytes; only
/// a requested size under 4 saves nothing), and the next update's first block has them as its
/// external dictionary. HC levels (the mid, chain and optimal strategies) and fast, with and
/// without a dictionary, auto-flush on and off, in every case as LZ4F. A conformance sweep: no
/// match can use such a history (nothing of it is inserted, and liblz4 rules out candidates in a
/// dictionary's last 3 bytes), so dropping it, as we did before, gave the same bytes too.
#[test]
fn updates_ending_in_tiny_blocks() {
    let mut rng = Rng::new(0x7e4);
    let unit = samples::text(5000, &mut rng);
    let data: Vec<u8> = unit.iter().cycle().take(600_000).copied().collect();
    let dict = samples::text(20_000, &mut rng);
    let mut failures = Vec::new();
    for level in [None, Some(2u8), Some(3), Some(9), Some(10), Some(12)] {
        for with_dict in [false, true] {
            for auto_flush in [true, false] {
                for tail in 1..=3usize {
                    let mut ops = Vec::new();
                    let mut at = 0;
                    for len in [65_536 + tail, tail, 40_000, tail, 65_536 * 2 + tail, 100] {
                        ops.push(FrameOp::Update(&data[at..at + len]));
                        if !auto_flush {
                            ops.push(FrameOp::Flush);
                        }
                        at += len;
                    }
                    let case = Case {
                        level,
                        block_size: BlockSize::Max64KB,
                        linked: true,
                        dict: with_dict.then_some(&dict[..]),
                        auto_flush,
                    };
                    let want = liblz4::compress_frame_ops(&ops, case.dict, &case.preferences());
                    let got = frame_common::compress_ops(
                        &mut case.compressor(),
                        ops.iter().copied(),
                        1 << 20,
                    );
                    if got != want {
                        failures.push(case.describe(&format!("tail {tail}")));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
