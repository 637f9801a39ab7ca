//! HC dictionaries and streams against liblz4 1.10:
//! `HcCompressor::compress_into_with_prepared_dictionary` equals `LZ4_loadDictHC` +
//! `LZ4_compress_HC_continue`, and `HcStreamCompressor` equals `LZ4_compress_HC_continue` +
//! `LZ4_saveDictHC(64 KiB)` per block (the CLI's layout), at every level, with and without
//! favorDecSpeed, at bound-sized and smaller capacities (liblz4's give-up rule included: the table
//! state it leaves decides the next blocks).

use lz4_simd::block::{self, HcCompressor, HcDictionary, HcStreamCompressor};
use testkit::liblz4_hc::{self, HcStream};
use testkit::Rng;

const DEBUG: bool = cfg!(debug_assertions);

/// Data with matches of every kind: text-like words, runs, periodic patterns and noise.
fn mixed(len: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let words: [&[u8]; 8] = [
        b"the ", b"quick ", b"brown ", b"fox ", b"jumps ", b"over ", b"lazy ", b"dog\n",
    ];
    let mut out = Vec::with_capacity(len + 64);
    while out.len() < len {
        match rng.below(8) {
            0..=3 => out.extend_from_slice(words[rng.below(8) as usize]),
            4 => out.extend(std::iter::repeat_n(
                rng.below(256) as u8,
                1 + rng.below(40) as usize,
            )),
            5 => {
                let period = 1 + rng.below(9) as usize;
                let pattern: Vec<u8> = (0..period).map(|_| rng.below(256) as u8).collect();
                for i in 0..(4 + rng.below(60) as usize) {
                    out.push(pattern[i % period]);
                }
            }
            6 if out.len() > 16 => {
                // A copy from up to 70 KiB back (some out of reach).
                let back = 1 + rng.below(out.len().min(70_000) as u64) as usize;
                let from = out.len() - back;
                for i in 0..(4 + rng.below(80) as usize) {
                    out.push(out[from + i]);
                }
            }
            _ => out.extend((0..1 + rng.below(12)).map(|_| rng.below(256) as u8)),
        }
    }
    out.truncate(len);
    out
}

/// Asserts two outputs (`None`: gave up) are equal, showing where they first differ.
fn assert_same(ours: &Option<Vec<u8>>, theirs: &Option<Vec<u8>>, what: &str) {
    if ours == theirs {
        return;
    }
    match (ours, theirs) {
        (Some(a), Some(b)) => {
            let at = a
                .iter()
                .zip(b)
                .position(|(x, y)| x != y)
                .unwrap_or(a.len().min(b.len()));
            panic!(
                "{what}: {} bytes vs liblz4's {}, first difference at {at}",
                a.len(),
                b.len()
            );
        }
        _ => panic!(
            "{what}: ours {:?} bytes, liblz4's {:?} (None: gave up)",
            ours.as_ref().map(Vec::len),
            theirs.as_ref().map(Vec::len)
        ),
    }
}

fn levels() -> Vec<u8> {
    if DEBUG {
        vec![1, 2, 3, 6, 9, 10, 11, 12]
    } else {
        (1..=12).collect()
    }
}

#[test]
fn dictionary_every_level_and_size() {
    let base = mixed(150_000, 1);
    let dict_sizes = [
        0usize, 1, 3, 4, 7, 8, 9, 100, 4096, 32_776, 32_777, 65_536, 100_000,
    ];
    let input_sizes: &[usize] = if DEBUG {
        &[0, 1, 5, 12, 13, 20, 100, 1000, 5000]
    } else {
        &[0, 1, 5, 12, 13, 14, 20, 100, 1000, 4096, 5000, 70_000]
    };
    for level in levels() {
        for &dict_len in &dict_sizes {
            let dict = &base[..dict_len];
            let prepared = HcDictionary::new(dict);
            let mut compressor = HcCompressor::new();
            for &len in input_sizes {
                // The input repeats parts of the dictionary's end with changes.
                let mut src = base[dict_len.saturating_sub(len / 2)..][..len / 2].to_vec();
                src.extend_from_slice(&mixed(len - len / 2, len as u64));
                for favor in [false, true] {
                    if favor && level < 10 {
                        continue;
                    }
                    compressor.set_favor_dec_speed(favor);
                    let bound = block::compress_bound(len);
                    let theirs = liblz4_hc::compress_hc_with_dict(
                        &src,
                        dict,
                        i32::from(level),
                        favor,
                        bound,
                    );
                    let mut out = vec![0u8; bound];
                    let ours = compressor
                        .compress_into_with_prepared_dictionary(&src, &mut out, &prepared, level)
                        .ok()
                        .map(|n| out[..n].to_vec());
                    let what = format!("level {level} dict {dict_len} len {len} favor {favor}");
                    assert_same(&ours, &theirs, &what);
                    let ours = ours.unwrap();
                    let mut back = vec![0u8; len];
                    let n = block::decompress_into_with_dictionary(
                        &ours,
                        &mut back,
                        prepared.as_bytes(),
                    )
                    .unwrap();
                    assert_eq!(&back[..n], &src[..], "{what}: round trip");
                }
            }
        }
    }
}

/// Feeds `blocks` to both streams at `capacity(len)` and compares every block.
fn compare_stream(
    level: u8,
    favor: bool,
    dict: Option<&[u8]>,
    blocks: &[Vec<u8>],
    capacity: impl Fn(usize, usize) -> usize,
    what: &str,
) {
    let (mut ours, mut theirs) = match dict {
        Some(dict) => (
            HcStreamCompressor::with_prepared_dictionary(level, &HcDictionary::new(dict)),
            HcStream::with_dict(i32::from(level), favor, dict),
        ),
        None => (
            HcStreamCompressor::new(level),
            HcStream::new(i32::from(level), favor),
        ),
    };
    ours.set_favor_dec_speed(favor);
    let mut history = dict.map_or(Vec::new(), |d| d[d.len().saturating_sub(65_536)..].to_vec());
    for (i, src) in blocks.iter().enumerate() {
        let cap = capacity(i, src.len());
        let mut out = vec![0u8; cap];
        let got = ours
            .compress_into(src, &mut out)
            .ok()
            .map(|n| out[..n].to_vec());
        let want = theirs.compress(src, cap);
        assert_same(
            &got,
            &want,
            &format!("{what}: block {i} ({} bytes, capacity {cap})", src.len()),
        );
        if let Some(block) = got {
            let mut back = vec![0u8; src.len()];
            let n = block::decompress_into_with_dictionary(&block, &mut back, &history).unwrap();
            assert_eq!(&back[..n], &src[..], "{what}: block {i} round trip");
        }
        history = src[src.len().saturating_sub(65_536)..].to_vec();
        assert_eq!(ours.history(), &history[..], "{what}: block {i} history");
    }
}

/// Mixed block sizes: empty, 1-20 bytes, small, 4 KiB, 64 KiB and larger.
fn mixed_blocks(seed: u64, count: usize) -> Vec<Vec<u8>> {
    let mut rng = Rng::new(seed);
    let source = mixed(400_000, seed);
    let mut at = 0;
    (0..count)
        .map(|_| {
            let len = match rng.below(6) {
                0 => rng.below(21) as usize,
                1 => rng.below(300) as usize,
                2 => 4096,
                3 => 1 + rng.below(20_000) as usize,
                4 => 65_536,
                _ => 65_536 + rng.below(40_000) as usize,
            };
            let len = if DEBUG { len.min(9000) } else { len };
            if at + len > source.len() {
                at = 0;
            }
            at += len;
            source[at - len..at].to_vec()
        })
        .collect()
}

#[test]
fn streams_of_mixed_blocks() {
    let count = if DEBUG { 10 } else { 24 };
    for level in levels() {
        for seed in 0..2u64 {
            let blocks = mixed_blocks(seed * 31 + u64::from(level), count);
            for favor in [false, true] {
                if favor && level < 10 {
                    continue;
                }
                let what = format!("level {level} seed {seed} favor {favor}");
                compare_stream(
                    level,
                    favor,
                    None,
                    &blocks,
                    |_, len| block::compress_bound(len),
                    &what,
                );
            }
        }
    }
}

/// `compress_contiguous_into`: consecutive slices of one buffer after the dictionary the stream
/// was reset with (or none), against liblz4's `LZ4_loadDictHC` + `LZ4_compress_HC_continue` on
/// the same layout (prefix mode, as `lz4` 1.10 compresses each later chunk of a linked frame),
/// every level, dictionaries of 0 to more than 64 KiB, bound-sized outputs and outputs one byte
/// shorter than the block.
#[test]
fn contiguous_blocks_after_a_loaded_dictionary() {
    // Up to 8 blocks of up to 70,000 bytes after up to 70,000 bytes of dictionary.
    let data = mixed(700_000, 77);
    let sizes = [1usize, 13, 4096, 20_000, 65_536, 70_000];
    let capacity = |index: usize, len: usize| {
        if index % 3 == 2 {
            len.saturating_sub(1)
        } else {
            block::compress_bound(len)
        }
    };
    for (round, history) in [0usize, 5, 1000, 65_536, 70_000].into_iter().enumerate() {
        for level in levels() {
            let mut rng = Rng::new(round as u64 * 100 + u64::from(level));
            let mut cuts = Vec::new();
            let mut at = history;
            for _ in 0..if DEBUG { 4 } else { 8 } {
                at += sizes[rng.below(sizes.len() as u64) as usize];
                cuts.push(at);
            }
            let buffer = &data[round * 1000..round * 1000 + at];
            let theirs =
                liblz4_hc::prefix_blocks(i32::from(level), buffer, history, &cuts, capacity);
            let mut ours = HcStreamCompressor::new(level);
            if history > 0 {
                ours.reset_with_prepared_dictionary(&HcDictionary::new(&buffer[..history]));
            }
            let mut start = history;
            for (index, (&end, want)) in cuts.iter().zip(&theirs).enumerate() {
                let cap = capacity(index, end - start);
                let mut dst = vec![0u8; cap];
                let got = ours
                    .compress_contiguous_into(&buffer[..end], start, &mut dst)
                    .ok()
                    .map(|n| dst[..n].to_vec());
                assert_same(
                    &got,
                    want,
                    &format!("level {level}, dictionary {history}, block {index} ({start}..{end})"),
                );
                start = end;
            }
        }
    }
}

#[test]
fn streams_with_dictionaries() {
    let dict = mixed(100_000, 7);
    let count = if DEBUG { 4 } else { 8 };
    for level in levels() {
        for dict_len in [0usize, 5, 8, 64, 65_536, 100_000] {
            let blocks = mixed_blocks(u64::from(level) + dict_len as u64, count);
            let what = format!("level {level} dict {dict_len}");
            compare_stream(
                level,
                false,
                Some(&dict[..dict_len]),
                &blocks,
                |_, len| block::compress_bound(len),
                &what,
            );
        }
    }
}

/// Capacities below the bound: liblz4 gives up by its estimate, and the next blocks see the
/// tables it left (the frame layout: capacity `len - 1`, and sweeps near the compressed size).
#[test]
fn streams_at_small_capacities() {
    let count = if DEBUG { 8 } else { 16 };
    for level in levels() {
        let blocks = mixed_blocks(100 + u64::from(level), count);
        let what = format!("level {level} capacity len - 1");
        compare_stream(
            level,
            false,
            None,
            &blocks,
            |_, len| len.saturating_sub(1),
            &what,
        );
        // Capacities around the compressed size.
        let sizes: Vec<usize> = {
            let mut stream = HcStream::new(i32::from(level), false);
            blocks
                .iter()
                .map(|b| {
                    stream
                        .compress(b, block::compress_bound(b.len()))
                        .unwrap()
                        .len()
                })
                .collect()
        };
        for delta in [-3i64, -1, 0, 1, 9] {
            let what = format!("level {level} capacity compressed {delta:+}");
            compare_stream(
                level,
                false,
                None,
                &blocks,
                |i, _| (sizes[i] as i64 + delta).max(0) as usize,
                &what,
            );
        }
    }
}

/// The blocks of an LZ4 frame: `(stored raw, payload)` each.
fn frame_blocks(frame: &[u8]) -> Vec<(bool, Vec<u8>)> {
    assert_eq!(&frame[..4], &[0x04, 0x22, 0x4D, 0x18], "frame magic");
    let flags = frame[4];
    let mut at = 6 + if flags & 0x08 != 0 { 8 } else { 0 } + if flags & 0x01 != 0 { 4 } else { 0 };
    at += 1; // header checksum
    let block_checksum = flags & 0x10 != 0;
    let mut blocks = Vec::new();
    loop {
        let word = u32::from_le_bytes(frame[at..at + 4].try_into().unwrap());
        at += 4;
        if word == 0 {
            return blocks;
        }
        let len = (word & 0x7FFF_FFFF) as usize;
        blocks.push((word & 0x8000_0000 != 0, frame[at..at + len].to_vec()));
        at += len + if block_checksum { 4 } else { 0 };
    }
}

fn lz4_cli_available() -> bool {
    std::process::Command::new("lz4")
        .arg("--version")
        .output()
        .is_ok_and(|out| out.status.success())
}

/// `lz4 -L -BD` frames (linked blocks) are the stream's blocks: each compressed with capacity
/// `len - 1` (stored raw when liblz4 gives up), then 64 KiB saved. The crate-internal hook the
/// frame encoder will use does exactly this per block. (The installed CLI may be 1.9.4, whose
/// level 2 is not 1.10's `mid`: levels 3-12 only.)
#[test]
fn lz4_cli_linked_blocks_are_stream_blocks() {
    if !lz4_cli_available() {
        assert!(
            std::env::var_os("LZ4_SIMD_REQUIRE_PEERS").is_none_or(|v| v != "1"),
            "lz4 CLI not found and LZ4_SIMD_REQUIRE_PEERS=1"
        );
        eprintln!("NOTICE: lz4 CLI not found; lz4_cli_linked_blocks_are_stream_blocks skipped");
        return;
    }
    let len = if DEBUG { 300_000 } else { 1_000_000 };
    let mut data = mixed(len, 11);
    // Incompressible stretches: blocks stored raw, whose half-done parse the next block sees.
    let mut rng = Rng::new(12);
    for at in [len / 5, len / 2] {
        let noise: Vec<u8> = (0..140_000).map(|_| rng.below(256) as u8).collect();
        data.splice(at..at, noise);
    }
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("hc-stream-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("input");
    std::fs::write(&input, &data).unwrap();
    let cases: &[(u8, &str, bool)] = if DEBUG {
        &[(3, "-B4", false), (9, "-B4", false), (12, "-B4", true)]
    } else {
        &[
            (3, "-B4", false),
            (9, "-B4", false),
            (9, "-B5", false),
            (10, "-B4", false),
            (11, "-B4", true),
            (12, "-B4", false),
            (12, "-B4", true),
        ]
    };
    for &(level, block_size, favor) in cases {
        let mut command = std::process::Command::new("lz4");
        command.args([format!("-{level}").as_str(), "-BD", block_size, "-c", "-q"]);
        if favor {
            command.arg("--favor-decSpeed");
        }
        let out = command.arg(&input).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let blocks = frame_blocks(&out.stdout);
        let block_len = if block_size == "-B4" { 65_536 } else { 262_144 };
        assert_eq!(blocks.len(), data.len().div_ceil(block_len));
        let mut stream = HcStreamCompressor::new(level);
        stream.set_favor_dec_speed(favor);
        let mut raw = 0;
        for (i, (chunk, (stored_raw, payload))) in data.chunks(block_len).zip(&blocks).enumerate() {
            let mut dst = vec![0u8; chunk.len() - 1];
            let what = format!("lz4 -{level} -BD {block_size} favor {favor}: block {i}");
            match stream.compress_into(chunk, &mut dst) {
                Ok(n) => {
                    assert!(!stored_raw, "{what}: the CLI stored it raw");
                    assert_same(&Some(dst[..n].to_vec()), &Some(payload.clone()), &what);
                }
                Err(_) => {
                    assert!(stored_raw, "{what}: we gave up, the CLI did not");
                    assert_eq!(&payload[..], chunk, "{what}: raw payload");
                    raw += 1;
                }
            }
        }
        if block_len == 65_536 {
            assert!(raw >= 2, "lz4 -{level}: the noise should give raw blocks");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs of one byte across the history/block boundary: the run skipping of levels 9-12 jumps
/// between the history and the block, where liblz4 never lands on the history's last 3 bytes
/// (`LZ4HC_protectDictEnd`) and a match in the block does not extend back into the history.
#[test]
fn runs_across_the_history_boundary() {
    let mut rng = Rng::new(77);
    let mut noise = |len: usize| -> Vec<u8> { (0..len).map(|_| rng.below(256) as u8).collect() };
    let runs = [1usize, 2, 3, 4, 5, 6, 7, 8, 9, 17, 40, 300];
    for level in [3u8, 9, 10, 11, 12] {
        for &history_run in &runs {
            for &block_run in &runs {
                let mut dict = noise(50);
                dict.extend(std::iter::repeat_n(b'a', history_run));
                let mut src: Vec<u8> = std::iter::repeat_n(b'a', block_run).collect();
                src.extend(noise(7));
                src.extend(std::iter::repeat_n(b'a', block_run + 3));
                src.extend(noise(20));
                for favor in [false, true] {
                    let bound = block::compress_bound(src.len());
                    let theirs = liblz4_hc::compress_hc_with_dict(
                        &src,
                        &dict,
                        i32::from(level),
                        favor,
                        bound,
                    );
                    let mut compressor = HcCompressor::with_favor_dec_speed(favor);
                    let mut out = vec![0u8; bound];
                    let ours = compressor
                        .compress_into_with_prepared_dictionary(
                            &src,
                            &mut out,
                            &HcDictionary::new(&dict),
                            level,
                        )
                        .ok()
                        .map(|n| out[..n].to_vec());
                    let what = format!(
                        "level {level} history run {history_run} block run {block_run} favor {favor}"
                    );
                    assert_same(&ours, &theirs, &what);
                }
            }
        }
    }
}
