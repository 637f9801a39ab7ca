//! Every available decode kernel against [`Kernel::Scalar`] on a few dozen small blocks, sized to
//! run under Miri (`.ci/miri.sh`), where it checks the kernels' raw-pointer copies for undefined
//! behaviour: out-of-bounds reads and writes, reads of uninitialised bytes, aliasing violations.
//!
//! Every decode reads `src` from its own exact-size allocation and writes into its own exact-size
//! `dst`, so a wild copy one byte past either slice is an out-of-bounds access Miri reports (a
//! slice of a larger buffer would hide it). The blocks:
//!
//! - hand-built blocks for every offset 1..=40, with match lengths around the 16- and 32-byte copy
//!   widths (and the 15-nibble extension boundary) and literal runs of 0..=40 bytes;
//! - blocks without the end-of-block margins (last match ending 0-5 bytes before the end);
//! - blocks from [`block::compress`] (text, runs, short periods, noise);
//! - corrupted and truncated blocks (offset 0, offset before the start, lengths past the input or
//!   the output, mutated and cut compressed blocks);
//!
//! each decoded into an exact-size buffer, oversized ones (+1, +40 bytes), one byte too small and
//! half the size (the output ends mid-block with much input left); and one block of mixed shapes
//! decoded into capacities from 0 to its size + 1 (every 7th, and each of the last 48).
//! Every kernel must give the scalar decoder's verdict (the whole `Error`) and output, decoding
//! into initialised memory and into uninitialised memory (`Decoder::decompress_into_uninit`, where
//! Miri reports any read of a byte the decoder did not write), and `block::decompress` (spare
//! capacity of a `Vec`) must agree too.
//!
//! No lz4-sys here (the test kit without its `liblz4` feature): Miri cannot run C code. Under Miri, CPU feature detection reports only the
//! features enabled at compile time, so `.ci/miri.sh` also runs this with
//! `-C target-feature=+avx2` to reach the AVX2 kernel. The kernels run are printed.

use std::io::Write as _;
use std::sync::OnceLock;

use lz4_simd::{block, Kernel};
use testkit::kernels::{check_exact_size, check_vec_api, decode_exact, under_test, Outcome};
use testkit::BlockBuilder;

/// Match lengths (bytes, including the implicit 4) around the copy widths: 16, 32, the 2 x 32
/// double chunk, and the match nibble's extension boundary (19 = nibble 15 + extension 0).
const MATCH_LENGTHS: [usize; 24] = [
    4, 5, 8, 12, 15, 16, 17, 18, 19, 20, 31, 32, 33, 34, 35, 36, 47, 48, 49, 63, 64, 65, 66, 270,
];

/// Set by `.ci/miri.sh` for its second pass (the crate built with `+avx2`) to the one kernel that
/// pass adds: only it is compared with scalar, and the tests that do not depend on the kernel
/// (the compressors') are left to the first pass, which ran them in the same configuration.
const ONLY_KERNEL_VAR: &str = "LZ4_SIMD_MIRI_ONLY_KERNEL";

/// The kernel named by [`ONLY_KERNEL_VAR`], if set (it must be available: a second pass that
/// silently compared nothing would pass). Read once per process.
fn only_kernel() -> Option<Kernel> {
    static ONLY: OnceLock<Option<Kernel>> = OnceLock::new();
    *ONLY.get_or_init(|| {
        let name = std::env::var(ONLY_KERNEL_VAR).ok()?;
        let kernel = Kernel::available()
            .into_iter()
            .find(|k| k.name() == name)
            .unwrap_or_else(|| panic!("{ONLY_KERNEL_VAR}={name}: not an available kernel"));
        // Straight to stderr (libtest does not capture it), so the line shows in passing runs.
        let _ = writeln!(
            std::io::stderr(),
            "miri kernels test ({ONLY_KERNEL_VAR}={name}): comparing only {kernel} against scalar; miri: {}",
            cfg!(miri)
        );
        Some(kernel)
    })
}

/// True (with a note on stderr) when this is the second pass, which leaves `test` to the first.
fn left_to_first_pass(test: &str) -> bool {
    let second = only_kernel().is_some();
    if second {
        let _ = writeln!(
            std::io::stderr(),
            "{test}: kernel-independent, run by the first Miri pass ({ONLY_KERNEL_VAR} is set)"
        );
    }
    second
}

/// The kernels compared with scalar: the kit's `under_test()` (which reports them once per
/// process), or the one [`ONLY_KERNEL_VAR`] names.
fn kernels() -> Vec<Kernel> {
    match only_kernel() {
        Some(kernel) => vec![kernel],
        None => under_test(),
    }
}

/// Deterministic bytes: text-like for `kind` 0, noise otherwise.
fn bytes(len: usize, seed: u64, kind: u8) -> Vec<u8> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|i| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            match kind {
                0 => b"the quick brown fox jumps over a lazy dog "[(i + (state % 3) as usize) % 42],
                _ => (state >> 24) as u8,
            }
        })
        .collect()
}

/// Every available kernel against scalar on `src` into `cap` bytes, into initialised and into
/// uninitialised memory, and `block::decompress`; returns scalar's outcome. Every decode reads
/// `src` from an exact-size allocation of its own and writes into an exact-size `dst` (a slice of
/// a larger buffer would hide an access past it).
fn compare(what: &str, src: &[u8], cap: usize) -> Outcome {
    let src = src.to_vec();
    let scalar = decode_exact(Kernel::Scalar, &src, cap, Some(0x5A));
    for kernel in kernels() {
        // Scalar into initialised memory is the reference itself.
        let fill = (kernel != Kernel::Scalar).then_some(0xA5);
        check_exact_size(what, kernel, &src, cap, fill, &scalar);
    }
    check_vec_api(what, &src, cap, &scalar);
    scalar
}

/// A valid block into exact, oversized, one-byte-short and half-size buffers: every kernel agrees
/// with scalar, and scalar decodes it to `expected` whenever it fits.
fn check_valid(what: &str, src: &[u8], expected: &[u8]) {
    let len = expected.len();
    let mut caps = vec![len, len + 1, len + 40];
    if len > 0 {
        // One byte short, and half: the output ends mid-block with much input left.
        caps.extend([len - 1, len / 2]);
    }
    for cap in caps {
        let (result, produced) = compare(what, src, cap);
        if cap >= len {
            assert_eq!(result, Ok(len), "{what}: cap {cap}");
            assert!(produced == expected, "{what}: wrong output (cap {cap})");
        } else {
            assert!(result.is_err(), "{what}: fits in {cap} < {len} bytes");
        }
    }
}

#[test]
fn offsets_by_match_and_literal_lengths() {
    let text = bytes(64, 1, 0);
    let mut sequences = 0;
    for offset in 1..=40usize {
        let mut builder = BlockBuilder::default();
        // History for the first match: at least `offset` bytes.
        builder.sequence(
            &text[..40],
            offset,
            MATCH_LENGTHS[offset % MATCH_LENGTHS.len()],
        );
        for i in 0..4 {
            let literal_len = (offset * 3 + i * 7) % 41;
            let match_len = MATCH_LENGTHS[(offset + i * 5) % MATCH_LENGTHS.len()];
            builder.sequence(&text[i..i + literal_len], offset, match_len);
            sequences += 1;
        }
        // A final run of 5..=16 literals: the block keeps the end margins.
        let (src, expected) = builder.finish(&text[..5 + offset % 12]);
        check_valid(&format!("offset {offset}"), &src, &expected);
    }
    assert_eq!(sequences, 160);
}

#[test]
fn every_output_capacity() {
    // One block of mixed shapes decoded into capacities from 0 to its size + 1: wherever the
    // output runs out (mid-literals, mid-match, with any amount of input left), no kernel may
    // touch a byte past `dst`, and all report scalar's error.
    let text = bytes(64, 6, 0);
    let mut builder = BlockBuilder::default();
    builder.sequence(&text[..40], 1, 18);
    for (i, &(literal_len, offset, match_len)) in [
        (0, 3, 16),
        (1, 16, 18),
        (2, 7, 32),
        (3, 20, 19),
        (16, 33, 35),
        (17, 2, 4),
        (0, 16, 64),
        (14, 15, 17),
        (15, 40, 33),
        (3, 5, 19),
        (33, 9, 20),
        (35, 24, 5),
    ]
    .iter()
    .enumerate()
    {
        builder.sequence(&text[i..i + literal_len], offset, match_len);
    }
    let (src, expected) = builder.finish(&text[..12]);
    // Every 7th capacity (7 is coprime with the copy widths, so the cut falls at every phase of
    // the 16- and 32-byte chunks across the sequences), and every one of the last 48, where the
    // fast loop hands over to the careful one. (Every capacity took minutes under Miri.)
    let caps = (0..=expected.len() + 1).filter(|&cap| cap % 7 == 0 || cap + 48 > expected.len());
    for cap in caps {
        let (result, produced) = compare("every capacity", &src, cap);
        if cap >= expected.len() {
            assert_eq!(result, Ok(expected.len()));
            assert!(produced == expected);
        } else {
            assert!(result.is_err(), "fits in {cap} < {} bytes", expected.len());
        }
    }
}

#[test]
fn blocks_without_end_margins() {
    let text = bytes(64, 2, 0);
    let shapes = [(1, 16), (3, 32), (8, 7), (16, 20), (17, 33), (32, 64)];
    for last_literals in 0..=5 {
        for &(offset, match_len) in &shapes {
            let mut builder = BlockBuilder::default();
            builder.sequence(&text[..40], 5, 18);
            builder.sequence(&text[7..10], offset, match_len);
            let (src, expected) = builder.finish(&text[..last_literals]);
            check_valid(
                &format!(
                    "last match offset {offset} len {match_len}, then {last_literals} literals"
                ),
                &src,
                &expected,
            );
        }
    }
}

#[test]
fn compressed_blocks() {
    let mut inputs: Vec<(String, Vec<u8>)> = vec![
        ("text".into(), bytes(700, 3, 0)),
        ("noise".into(), bytes(300, 4, 1)),
        ("run".into(), vec![7u8; 300]),
        ("empty".into(), Vec::new()),
        ("tiny".into(), b"abc".to_vec()),
    ];
    for period in [2usize, 3, 5, 9, 15, 17, 31] {
        let unit = bytes(period, period as u64, 1);
        let data: Vec<u8> = unit.iter().copied().cycle().take(200 + period).collect();
        inputs.push((format!("period {period}"), data));
    }
    for (name, data) in &inputs {
        let src = block::compress(data).unwrap();
        check_valid(&format!("compressed {name}"), &src, data);
    }
}

#[test]
fn corrupted_and_truncated_blocks() {
    let text = bytes(300, 5, 0);
    let mut hostile: Vec<(String, Vec<u8>, usize)> = Vec::new();

    // Hand-made: offset 0, offset before the start, literals past the input, an unterminated
    // length extension, a match past the output, a block ending right after a match.
    let mut builder = BlockBuilder::default();
    builder.sequence(&text[..20], 4, 40);
    let (good, expected) = builder.finish(&text[..8]);
    let offset_pos = 1 + 1 + 20; // token, literal-length extension, 20 literals
    assert_eq!(good[offset_pos], 4);
    let mut bad = good.clone();
    bad[offset_pos] = 0;
    hostile.push(("offset 0".into(), bad, expected.len()));
    let mut bad = good.clone();
    bad[offset_pos] = 21;
    hostile.push(("offset before the start".into(), bad, expected.len()));
    let mut bad = good.clone();
    bad[1] = 200;
    hostile.push(("literals past the input".into(), bad, expected.len()));
    hostile.push((
        "unterminated extension".into(),
        vec![0xF0, 255, 255, 255, 255],
        64,
    ));
    hostile.push((
        "match past the output".into(),
        good.clone(),
        expected.len() - 9,
    ));
    hostile.push((
        "ends after a match".into(),
        good[..good.len() - 9].to_vec(),
        expected.len(),
    ));

    // Every 11th cut and the last 16 cuts of a compressed block, and mutants of it.
    let compressed = block::compress(&text).unwrap();
    for cut in (0..compressed.len()).filter(|c| c % 11 == 0 || c + 16 >= compressed.len()) {
        hostile.push((
            format!("cut at {cut}"),
            compressed[..cut].to_vec(),
            text.len(),
        ));
    }
    let mut state = 0x1234_5678_9ABC_DEF0u64;
    for round in 0..16 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let mut bad = compressed.clone();
        let pos = (state % bad.len() as u64) as usize;
        bad[pos] = (state >> 32) as u8;
        let cap = if round % 2 == 0 {
            text.len()
        } else {
            text.len() + 40
        };
        hostile.push((format!("mutant {round} (byte {pos})"), bad, cap));
    }

    let mut rejected = 0;
    for (i, (what, src, cap)) in hostile.iter().enumerate() {
        let verdict = compare(what, src, *cap).0;
        assert!(i >= 6 || verdict.is_err(), "{what}: accepted");
        if verdict.is_err() {
            rejected += 1;
        }
    }
    // A cut right after a sequence's literals is a valid shorter block; most cuts are not.
    assert!(
        rejected > hostile.len() / 2,
        "only {rejected} of {} rejected",
        hostile.len()
    );
}

/// `block::decompress_append` decodes into a Vec's spare capacity with the Vec's tail as
/// history: the uninitialised-window path under Miri, with history reaching back into it.
#[test]
fn append_with_history_into_spare_capacity() {
    let dict = bytes(300, 3, 1);
    let mut data = dict[100..220].to_vec();
    data.extend_from_slice(&bytes(90, 4, 2));
    data.extend_from_slice(&dict[10..60]);
    let compressed = block::compress_with_dictionary(&data, &dict, 1).unwrap();
    for reserve in [0usize, 7, 4096] {
        let mut out = Vec::with_capacity(dict.len() + reserve);
        out.extend_from_slice(&dict);
        let n = block::decompress_append(&compressed, &mut out, dict.len(), data.len()).unwrap();
        assert_eq!(n, data.len());
        assert_eq!(&out[dict.len()..], &data[..]);
        let mut short = dict.clone();
        assert!(
            block::decompress_append(&compressed, &mut short, dict.len(), data.len() - 1).is_err()
        );
        assert_eq!(short, dict);
    }
}

/// The fast compressor's hot loop reads its input and, into a `dst` of at least the bound, writes
/// its output without bounds checks (the `unsafe` feature): under Miri, every size class near the
/// end-of-block limits, both table layouts, with history, and `compress_into` into a `dst` of
/// exactly the bound (where any write past it is an error Miri reports).
#[test]
fn compressor_reads_stay_in_bounds() {
    if left_to_first_pass("compressor_reads_stay_in_bounds") {
        return;
    }
    let mut inputs: Vec<Vec<u8>> = (0..40)
        .map(|len| bytes(len, len as u64, (len % 3) as u8))
        .collect();
    inputs.extend([64, 200, 1000].map(|len| bytes(len, 9, 1)));
    // Text with long literal runs between matches: the wild literal copy's chunks near the bound.
    inputs.extend([300, 1000].map(|len| bytes(len, 11, 0)));
    // The u32 table (inputs of 65,547 bytes and more), once: it is the slowest case under Miri.
    let large = bytes(65_600, 5, 2);
    let compressed = block::compress(&large).unwrap();
    assert_eq!(block::decompress(&compressed, large.len()).unwrap(), large);
    for input in &inputs {
        for acceleration in [1, 7] {
            let compressed = block::compress_fast(input, acceleration).unwrap();
            assert_eq!(&block::decompress(&compressed, input.len()).unwrap(), input);
            let mut exact = vec![0u8; block::compress_bound(input.len())];
            let written = block::compress_into(input, &mut exact, acceleration).unwrap();
            assert_eq!(exact[..written], compressed[..]);
        }
        let dict = bytes(100, 1, 1);
        let with_dict = block::compress_with_dictionary(input, &dict, 1).unwrap();
        assert_eq!(
            &block::decompress_with_dictionary(&with_dict, &dict, input.len()).unwrap(),
            input
        );
    }
}

/// The HC compressor's chain insertion and backward extension read their input without bounds
/// checks (the `unsafe` feature): under Miri, levels 2, 3, 9 and 12 on a few small inputs (text,
/// noise, runs for run skipping, sizes at the end-of-block limits), each round-tripped.
#[test]
fn hc_reads_stay_in_bounds() {
    if left_to_first_pass("hc_reads_stay_in_bounds") {
        return;
    }
    let mut inputs: Vec<Vec<u8>> = [12, 13, 20, 33, 64, 300]
        .iter()
        .map(|&len| bytes(len, len as u64, 0))
        .collect();
    inputs.push(bytes(200, 3, 1));
    let mut runs = vec![b'a'; 150];
    runs.extend_from_slice(b"xyz");
    runs.extend_from_slice(&[b'a'; 120]);
    runs.extend_from_slice(&bytes(40, 4, 0));
    runs.extend_from_slice(&[b'a'; 60]);
    inputs.push(runs);
    let mut compressor = block::HcCompressor::new();
    for input in &inputs {
        for level in [2u8, 3, 9, 12] {
            let compressed = compressor.compress(input, level).unwrap();
            assert_eq!(
                &block::decompress(&compressed, input.len()).unwrap(),
                input,
                "level {level}, {} bytes",
                input.len()
            );
        }
    }
}
