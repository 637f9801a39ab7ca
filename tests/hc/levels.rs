//! LZ4 HC (levels 1-12): every level's output decodes to the input with the scalar reference,
//! every available kernel and liblz4; respects the end-of-block rules; matches liblz4's
//! `LZ4_compress_HC` in size (the test fails above 2%) and, as measured, byte for byte; and the
//! API contracts (reuse, small destinations, level clamping, favor_dec_speed).
//!
//! Debug builds (the default `cargo test`) use smaller slices of the corpus and of the large
//! generated inputs; release builds (`cargo test --release`) run the full sizes.

use lz4_simd::block::{self, HcCompressor};
use lz4_simd::{Error, Kernel};
use testkit::parse::parse_block;
use testkit::samples::{generated, GENERATED_KINDS};
use testkit::{corpus, liblz4, Rng};

const LEVELS: std::ops::RangeInclusive<u8> = 1..=12;
const DEBUG: bool = cfg!(debug_assertions);

/// Checks one compressed block of `data`: well-formed, within the bound, end-of-block margins,
/// offsets in 1..=65535 (no match reaching before the start), and decoding to `data` with the
/// scalar reference, every available kernel and liblz4.
fn check_block(data: &[u8], block: &[u8], what: &str) {
    assert!(
        block.len() <= block::compress_bound(data.len()),
        "{what}: {} bytes exceeds the bound",
        block.len()
    );
    let parsed = parse_block(block);
    assert!(
        parsed.is_complete(),
        "{what}: malformed block {:?}",
        parsed.end
    );
    assert_eq!(parsed.decoded_len, data.len(), "{what}: decoded length");
    assert!(parsed.satisfies_margins(), "{what}: end-of-block margins");
    if data.len() < 13 {
        assert_eq!(
            parsed.seqs.len(),
            1,
            "{what}: inputs under 13 bytes are all literals"
        );
    }
    for seq in parsed.matches() {
        let offset = seq.offset.unwrap();
        assert!(
            offset >= 1 && offset <= seq.match_start(),
            "{what}: offset {offset} at output {}",
            seq.match_start()
        );
    }
    let mut out = vec![0u8; data.len()];
    let kernels = std::iter::once(Kernel::Scalar).chain(Kernel::available());
    for kernel in kernels {
        out.fill(0xA5);
        assert_eq!(
            block::Decoder::with_kernel(kernel)
                .and_then(|decoder| decoder.decompress_into(block, &mut out)),
            Ok(data.len()),
            "{what}: {kernel} rejects the block"
        );
        assert!(out == data, "{what}: {kernel} decodes different bytes");
    }
    let theirs = liblz4::decompress_safe(block, data.len());
    assert!(
        theirs.as_deref() == Some(data),
        "{what}: liblz4 does not decode the block to the input"
    );
}

/// liblz4 1.10 `LZ4_compress_HC` at our `level` (an empty input included).
fn liblz4_hc(src: &[u8], level: u8) -> Vec<u8> {
    liblz4::compress_hc(src, i32::from(level))
}

#[test]
fn small_inputs_every_level() {
    let mut compressor = HcCompressor::new();
    for kind in GENERATED_KINDS {
        for len in 0..=300 {
            let data = generated(kind, len, len as u64 + 7);
            for level in LEVELS {
                let block = compressor.compress(&data, level).unwrap();
                check_block(&data, &block, &format!("{kind} len {len} level {level}"));
                assert_eq!(
                    block,
                    liblz4_hc(&data, level),
                    "{kind} len {len} level {level}: differs from liblz4"
                );
            }
        }
    }
}

#[test]
fn sizes_around_64k() {
    // Around 64 KiB (where liblz4's fast compressor switches tables, and the HC window wraps)
    // and 128 KiB. Debug: fewer sizes, one level per strategy; release: every level.
    let (sizes, levels): (&[usize], Vec<u8>) = if DEBUG {
        (&[65_535, 65_536, 65_547, 131_073], vec![2, 3, 10])
    } else {
        (
            &[
                65_535, 65_536, 65_537, 65_546, 65_547, 65_548, 131_071, 131_072, 131_073,
            ],
            LEVELS.collect(),
        )
    };
    let kinds: &[&str] = if DEBUG {
        &["log-lines", "runs"]
    } else {
        &["log-lines", "runs", "two-symbol"]
    };
    let mut compressor = HcCompressor::new();
    for kind in kinds {
        for &len in sizes {
            let data = generated(kind, len, 99);
            for &level in &levels {
                let block = compressor.compress(&data, level).unwrap();
                let what = format!("{kind} len {len} level {level}");
                check_block(&data, &block, &what);
                assert_eq!(
                    block,
                    liblz4_hc(&data, level),
                    "{what}: differs from liblz4"
                );
            }
        }
    }
}

#[test]
fn random_and_mixed_data() {
    let mut compressor = HcCompressor::new();
    let mut rng = Rng::new(5);
    // Incompressible data, data with matches at the maximum offset, and data mixing runs with
    // text, each at every level.
    let mut far = rng.bytes(70_000);
    let head = far[..2000].to_vec();
    far[65_535..67_535].copy_from_slice(&head);
    let mut mixed = generated("log-lines", 20_000, 3);
    mixed.extend(std::iter::repeat_n(0u8, 5000));
    mixed.extend(generated("random", 3000, 4));
    mixed.extend(std::iter::repeat_n(b'x', 20_000));
    mixed.extend(generated("two-symbol", 5000, 6));
    let inputs = [
        ("random", rng.bytes(if DEBUG { 20_000 } else { 200_000 })),
        ("far", far),
        ("mixed", mixed),
    ];
    for (name, data) in &inputs {
        for level in LEVELS {
            let block = compressor.compress(data, level).unwrap();
            let what = format!("{name} level {level}");
            check_block(data, &block, &what);
            assert_eq!(block, liblz4_hc(data, level), "{what}: differs from liblz4");
        }
    }
}

#[test]
fn four_mib_input() {
    let len = 4 << 20;
    let mut data = generated("log-lines", len / 2, 11);
    data.extend(generated("runs", len / 4, 12));
    data.extend(generated("two-symbol", len / 4, 13));
    // Debug: the two fastest levels on the whole input; release: every level.
    let levels: Vec<u8> = if DEBUG { vec![2, 3] } else { LEVELS.collect() };
    let mut compressor = HcCompressor::new();
    for level in levels {
        let block = compressor.compress(&data, level).unwrap();
        let what = format!("4 MiB level {level}");
        check_block(&data, &block, &what);
        assert_eq!(
            block.len(),
            liblz4_hc(&data, level).len(),
            "{what}: size differs from liblz4"
        );
    }
}

/// The corpus slices a test run uses: in debug, the first 64 KiB and a 64 KiB chunk from the
/// middle of each file; in release, the first 4 MiB cut into 64 KiB chunks plus the first MiB
/// whole.
fn corpus_slices() -> Vec<(String, Vec<u8>)> {
    let mut slices = Vec::new();
    for (name, data) in corpus::all() {
        if DEBUG {
            let chunk = 65_536.min(data.len());
            slices.push((format!("{name}[0..64K]"), data[..chunk].to_vec()));
            let mid = data.len() / 2;
            let end = (mid + 65_536).min(data.len());
            slices.push((format!("{name}[mid..+64K]"), data[mid..end].to_vec()));
        } else {
            let capped = &data[..data.len().min(4 << 20)];
            for (i, chunk) in capped.chunks(65_536).enumerate() {
                slices.push((format!("{name} chunk {i}"), chunk.to_vec()));
            }
            let whole = &data[..data.len().min(1 << 20)];
            slices.push((format!("{name}[0..1M]"), whole.to_vec()));
        }
    }
    slices
}

/// Per level and corpus file: our output round-trips, and is at most 2% larger than liblz4's
/// (the bound; the benchmark tracks 0.5%). Also counts byte-identical blocks and
/// requires every block to be identical, which is what the implementation achieves.
#[test]
fn corpus_every_level_vs_liblz4() {
    let slices = corpus_slices();
    if slices.is_empty() {
        eprintln!("NOTICE: no corpus; corpus_every_level_vs_liblz4 checked nothing");
        return;
    }
    let levels: Vec<u8> = if DEBUG {
        vec![2, 3, 6, 9, 10, 11, 12]
    } else {
        LEVELS.collect()
    };
    let mut compressor = HcCompressor::new();
    for level in levels {
        let mut totals = std::collections::BTreeMap::<String, (usize, usize, usize, usize)>::new();
        for (name, data) in &slices {
            let ours = compressor.compress(data, level).unwrap();
            check_block(data, &ours, &format!("{name} level {level}"));
            let theirs = liblz4_hc(data, level);
            let file = name.split([' ', '[']).next().unwrap().to_string();
            let entry = totals.entry(file).or_default();
            entry.0 += ours.len();
            entry.1 += theirs.len();
            entry.2 += usize::from(ours == theirs);
            entry.3 += 1;
            assert!(
                ours.len() * 100 <= theirs.len() * 102,
                "{name} level {level}: {} bytes vs liblz4's {} (more than 2% larger)",
                ours.len(),
                theirs.len()
            );
        }
        for (file, (ours, theirs, identical, blocks)) in &totals {
            eprintln!(
                "level {level:2} {file:8}: ours {ours:9} liblz4 {theirs:9} ({:+.3}%), {identical}/{blocks} blocks identical",
                (*ours as f64 / *theirs as f64 - 1.0) * 100.0
            );
            assert_eq!(
                identical, blocks,
                "level {level} {file}: not byte-identical"
            );
        }
    }
}

#[test]
fn reused_compressor_gives_the_same_bytes() {
    let mut reused = HcCompressor::new();
    let scale = if DEBUG { 4 } else { 1 };
    let inputs = [
        generated("log-lines", 40_000 / scale, 1),
        generated("runs", 70_000, 2),
        generated("random", 5_000, 3),
        generated("log-lines", 1_000, 4),
        Vec::new(),
        generated("two-symbol", 20_000 / scale, 5),
    ];
    // Alternate levels and strategies so that every table is left dirty by another one.
    for round in 0..2u8 {
        for (i, data) in inputs.iter().enumerate() {
            for level in [12u8, 2, 9, 3, 10, 11] {
                let level = if round == 1 { 14 - level } else { level };
                let fresh = block::compress_hc(data, level).unwrap();
                assert_eq!(
                    reused.compress(data, level).unwrap(),
                    fresh,
                    "input {i} level {level}"
                );
            }
        }
    }
}

#[test]
fn destination_smaller_than_the_bound() {
    const GUARD: usize = 16;
    const FILL: u8 = 0xC3;
    let inputs = [
        generated("log-lines", 3000, 8),
        generated("random", 600, 9),
        generated("runs", 2000, 10),
        b"0123456789ab".to_vec(),
        Vec::new(),
    ];
    let mut compressor = HcCompressor::new();
    for data in &inputs {
        for level in [2u8, 3, 9, 10, 12] {
            let full = block::compress_hc(data, level).unwrap();
            // Debug: every 5th size and the last 40; release: every size.
            let sizes =
                (0..=full.len()).filter(|&size| !DEBUG || size % 5 == 0 || size + 40 >= full.len());
            for size in sizes {
                let mut buf = vec![FILL; GUARD + size + GUARD];
                let result = compressor.compress_into(data, &mut buf[GUARD..GUARD + size], level);
                assert!(buf[..GUARD].iter().all(|&b| b == FILL));
                assert!(
                    buf[GUARD + size..].iter().all(|&b| b == FILL),
                    "wrote past a {size}-byte dst"
                );
                match result {
                    Ok(len) => {
                        assert_eq!(
                            &buf[GUARD..GUARD + len],
                            &full[..],
                            "level {level} size {size}"
                        )
                    }
                    Err(Error::OutputTooSmall { capacity, .. }) => {
                        assert_eq!(capacity, size);
                        assert!(size < full.len(), "exact-size dst refused (level {level})");
                    }
                    Err(other) => panic!("unexpected {other:?}"),
                }
                // The one-shot function behaves the same.
                let mut dst = vec![0u8; size];
                let one_shot = block::compress_hc_into(data, &mut dst, level);
                assert_eq!(one_shot.is_ok(), size >= full.len());
            }
        }
    }
}

#[test]
fn level_clamping() {
    let data = generated("log-lines", 20_000, 21);
    let nine = block::compress_hc(&data, 9).unwrap();
    let twelve = block::compress_hc(&data, 12).unwrap();
    assert_eq!(
        block::compress_hc(&data, 0).unwrap(),
        nine,
        "level 0 is the default, 9"
    );
    assert_eq!(block::HC_LEVEL_DEFAULT, 9);
    assert_eq!(block::HC_LEVEL_MAX, 12);
    for level in [13u8, 20, 100, 255] {
        assert_eq!(
            block::compress_hc(&data, level).unwrap(),
            twelve,
            "level {level}"
        );
    }
    assert_eq!(
        block::compress_hc(&data, 1).unwrap(),
        block::compress_hc(&data, 2).unwrap()
    );
    // And liblz4 agrees on what the clamped levels mean.
    assert_eq!(nine, liblz4_hc(&data, 0));
    assert_eq!(twelve, liblz4_hc(&data, 13));
}

#[test]
fn favor_dec_speed() {
    let mut favored = HcCompressor::with_favor_dec_speed(true);
    assert!(favored.favor_dec_speed());
    let mut plain = HcCompressor::new();
    assert!(!plain.favor_dec_speed());
    let len = if DEBUG { 12_000 } else { 50_000 };
    let mut inputs: Vec<(String, Vec<u8>)> = GENERATED_KINDS
        .iter()
        .map(|kind| (kind.to_string(), generated(kind, len, 31)))
        .collect();
    // Short-period patterns, where the best matches have offsets below 8.
    inputs.push(("period-3".into(), b"abc".repeat(len / 3)));
    inputs.push(("period-1".into(), vec![7u8; len]));
    inputs.push((
        "period-5-noisy".into(),
        (0..len as u32)
            .map(|i| {
                if i % 97 == 0 {
                    (i / 97) as u8
                } else {
                    b"hello"[(i % 5) as usize]
                }
            })
            .collect(),
    ));
    for (name, data) in corpus::all().iter().take(if DEBUG { 2 } else { 5 }) {
        inputs.push((name.clone(), data[..data.len().min(len)].to_vec()));
    }
    // Levels below 10 are checked to be unaffected; debug checks one of them.
    let levels: Vec<u8> = if DEBUG {
        vec![9, 10, 11, 12]
    } else {
        LEVELS.collect()
    };
    for (name, data) in &inputs {
        for &level in &levels {
            let block = favored.compress(data, level).unwrap();
            let what = format!("{name} level {level} favor_dec_speed");
            check_block(data, &block, &what);
            let normal = plain.compress(data, level).unwrap();
            if level < 10 {
                assert_eq!(block, normal, "{what}: only levels 10-12 are affected");
                continue;
            }
            // liblz4's bytes (a fresh stream with `LZ4_favorDecompressionSpeed`): offsets below
            // 8 only in runs, which liblz4's run shortcut takes (before `4b15952`, 2026-12-06,
            // ours kept them out, up to 50% larger on short-period runs).
            let theirs = testkit::liblz4_hc::HcStream::new(i32::from(level), true)
                .compress(data, block::compress_bound(data.len()))
                .unwrap();
            assert!(
                block == theirs,
                "{what}: {} bytes, liblz4 {}",
                block.len(),
                theirs.len()
            );
            eprintln!(
                "{what}: {} bytes vs {} without ({:+.2}%)",
                block.len(),
                normal.len(),
                (block.len() as f64 / normal.len() as f64 - 1.0) * 100.0
            );
        }
    }
    // The setter switches it back.
    favored.set_favor_dec_speed(false);
    let data = b"abc".repeat(1000);
    assert_eq!(favored.compress(&data, 12), plain.compress(&data, 12));
}
