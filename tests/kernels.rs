//! Every decode kernel against the scalar reference decoder ([`Kernel::Scalar`]).
//!
//! - Kernel API: `available()` / `detect()` / `name()` / `FromStr`; forcing an unavailable kernel
//!   (an error with the `unsafe` feature, the scalar decoder without it); the `LZ4_SIMD_KERNEL`
//!   override, checked by re-running this test binary (`kernel_env_child`) with the variable set.
//! - Differential: every available kernel must give the scalar decoder's verdict (the whole
//!   `Error` value) and output on Silesia chunks (64 KiB and 4 MiB; ours, liblz4 fast and HC 3, 9,
//!   12), on hand-built blocks sweeping offsets 1-70 x match lengths x literal lengths x the
//!   distance of the last match from the block end (0-64, margins violated included), copy-width
//!   boundaries (15-17, 31-33, 63-65), long runs, random valid blocks, every `dst` size from 0 to
//!   the decoded size + 64, and hostile blocks (mutated valid blocks, every truncation).
//! - Every decode runs on a `src` that is a slice of a larger buffer and into a `dst` that is a
//!   slice of a larger buffer: the bytes around `dst` must stay untouched, and different bytes
//!   around `src` and different prior contents of `dst` must not change the result.
//! - Every kernel also decodes through `decompress_into_uninit_with` (a `&mut [MaybeUninit<u8>]`
//!   destination, same guards); `vec_api_matches_reference` checks `decompress` and
//!   `decompress_size_prepended` (which decode into a `Vec`'s spare capacity) against the
//!   reference on valid and hostile blocks. Reads of uninitialised memory themselves are Miri's
//!   to find (tests/miri/tests/kernels.rs).
//!
//! `LZ4_SIMD_REQUIRE_KERNELS=sse2,avx2` makes `required_kernels_are_available` fail when a listed
//! kernel is not available here. Debug builds sample the heavy sweeps; release builds run them in
//! full.

#[path = "common/block_builder.rs"]
mod block_builder;
mod common;

use std::fmt::Write as _;
use std::io::Write as _;
use std::mem::MaybeUninit;
use std::process::Command;
use std::sync::Once;

use block_builder::BlockBuilder;
use common::{corpus, generated, liblz4_compress_fast, liblz4_compress_hc, parse_block, Rng};
use lz4_simd::{block, Error, Kernel, KERNEL_ENV};

const DEBUG: bool = cfg!(debug_assertions);
/// Comma-separated kernel names that must be available (CI on machines known to have them).
const REQUIRE_ENV: &str = "LZ4_SIMD_REQUIRE_KERNELS";
/// Tells `kernel_env_child` which kernel `Kernel::detect()` must return.
const EXPECT_ENV: &str = "LZ4_SIMD_TEST_EXPECT_KERNEL";
const CHILD_TEST: &str = "kernel_env_child";
const CHILD_MARKER: &str = "kernel_env_child: detect() =";
/// Optional command (with arguments) that runs the test binary for `kernel_env_override`.
const RUNNER_ENV: &str = "LZ4_SIMD_TEST_RUNNER";
/// Bytes around `src` and `dst` in their backing buffers.
const GUARD: usize = 64;

// ---------------------------------------------------------------------------------------------
// Kernels under test
// ---------------------------------------------------------------------------------------------

/// `Kernel::available()`, reporting once per process which kernels are tested and skipped.
fn kernels() -> Vec<Kernel> {
    static REPORT: Once = Once::new();
    let available = Kernel::available();
    REPORT.call_once(|| {
        let tested: Vec<&str> = available
            .iter()
            .filter(|k| **k != Kernel::Scalar)
            .map(|k| k.name())
            .collect();
        let skipped: Vec<&str> = Kernel::ALL
            .iter()
            .filter(|k| !available.contains(k))
            .map(|k| k.name())
            .collect();
        // Straight to the process's stderr (not `eprintln!`, which libtest captures), so the line
        // shows in every run.
        let _ = writeln!(
            std::io::stderr(),
            "kernels: testing [{}] against scalar; skipped (not available on this CPU or build): [{}]",
            tested.join(", "),
            skipped.join(", ")
        );
    });
    available
}

#[test]
fn required_kernels_are_available() {
    let available = kernels();
    let Ok(list) = std::env::var(REQUIRE_ENV) else {
        eprintln!("{REQUIRE_ENV} not set: no kernel required");
        return;
    };
    let mut missing = Vec::new();
    for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let kernel: Kernel = name
            .parse()
            .unwrap_or_else(|err| panic!("{REQUIRE_ENV}={list}: {err}"));
        if !available.contains(&kernel) {
            missing.push(kernel.name());
        }
    }
    assert!(
        missing.is_empty(),
        "{REQUIRE_ENV}={list}: required kernels not available on this CPU or build: {missing:?} \
         (available: {available:?})"
    );
}

// ---------------------------------------------------------------------------------------------
// Kernel API
// ---------------------------------------------------------------------------------------------

#[test]
fn kernel_api() {
    let available = kernels();
    assert_eq!(Kernel::ALL.last(), Some(&Kernel::Scalar));
    assert_eq!(
        available.last(),
        Some(&Kernel::Scalar),
        "Scalar must be last"
    );
    let in_preference_order: Vec<Kernel> = Kernel::ALL
        .into_iter()
        .filter(|k| k.is_available())
        .collect();
    assert_eq!(available, in_preference_order);
    let detected = Kernel::detect();
    assert!(available.contains(&detected), "detect() = {detected}");
    assert_eq!(Kernel::detect(), detected, "detection is cached");
    if std::env::var_os(KERNEL_ENV).is_none() {
        assert_eq!(detected, available[0], "detect() picks the best kernel");
    }
    if cfg!(feature = "unsafe") {
        if cfg!(target_arch = "x86_64") {
            assert!(Kernel::Sse2.is_available(), "SSE2 is x86_64 baseline");
            assert!(!Kernel::Neon.is_available());
        }
        if cfg!(target_arch = "aarch64") {
            assert!(Kernel::Neon.is_available(), "NEON is aarch64 baseline");
            assert!(
                !Kernel::Sse2.is_available()
                    && !Kernel::Avx2.is_available()
                    && !Kernel::Avx512.is_available()
            );
        }
    } else {
        assert_eq!(
            available,
            [Kernel::Scalar],
            "no SIMD kernel without `unsafe`"
        );
    }

    let mut names: Vec<&str> = Kernel::ALL.iter().map(|k| k.name()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), Kernel::ALL.len(), "kernel names are unique");
    for kernel in Kernel::ALL {
        let name = kernel.name();
        assert_eq!(kernel.to_string(), name);
        let mixed: String = name
            .chars()
            .enumerate()
            .map(|(i, c)| {
                if i % 2 == 0 {
                    c.to_ascii_uppercase()
                } else {
                    c
                }
            })
            .collect();
        for spelling in [
            name.to_string(),
            name.to_ascii_uppercase(),
            mixed,
            format!(" {name}\t"),
        ] {
            assert_eq!(spelling.parse::<Kernel>(), Ok(kernel), "{spelling:?}");
        }
    }
    for bad in [
        "bogus",
        "",
        "  ",
        "avx",
        "avx2x",
        "sse 2",
        "avx-2",
        "scalar,avx2",
        "x86",
    ] {
        assert_eq!(
            bad.parse::<Kernel>(),
            Err(Error::UnknownKernel {
                name: bad.trim().to_string()
            }),
            "{bad:?}"
        );
    }
}

/// A small valid block with overlapping and plain matches, and what it decodes to.
fn small_block() -> (Vec<u8>, Vec<u8>) {
    let mut builder = BlockBuilder::default();
    builder
        .sequence(b"0123456789abcdefghij", 3, 40)
        .sequence(b"xyz", 1, 33)
        .sequence(b"", 50, 70);
    builder.finish(b"the end of the block")
}

#[test]
fn forcing_an_unavailable_kernel() {
    let available = kernels();
    let (block, expected) = small_block();
    for kernel in &available {
        let mut dst = vec![0u8; expected.len()];
        assert_eq!(
            block::decompress_into_with(*kernel, &block, &mut dst),
            Ok(expected.len()),
            "{kernel}"
        );
        assert_eq!(dst, expected, "{kernel}");
    }
    let unavailable: Vec<Kernel> = Kernel::ALL
        .into_iter()
        .filter(|k| !k.is_available())
        .collect();
    eprintln!("unavailable kernels: {unavailable:?}");
    if cfg!(feature = "unsafe") {
        if cfg!(any(target_arch = "x86_64", target_arch = "aarch64")) {
            assert!(!unavailable.is_empty(), "some kernel is for another ISA");
        }
        for kernel in unavailable {
            let mut dst = vec![0xEEu8; expected.len()];
            assert_eq!(
                block::decompress_into_with(kernel, &block, &mut dst),
                Err(Error::KernelUnavailable {
                    kernel: kernel.name()
                }),
                "{kernel}"
            );
            assert!(dst.iter().all(|&b| b == 0xEE), "{kernel}: dst written");
        }
    } else {
        // Without the `unsafe` feature every name maps to the scalar decoder.
        for kernel in Kernel::ALL {
            let mut dst = vec![0xEEu8; expected.len()];
            assert_eq!(
                block::decompress_into_with(kernel, &block, &mut dst),
                Ok(expected.len()),
                "{kernel}"
            );
            assert_eq!(dst, expected, "{kernel}");
        }
    }
}

/// Runs in a child process started by `kernel_env_override` with `LZ4_SIMD_KERNEL` set; a no-op
/// when `LZ4_SIMD_TEST_EXPECT_KERNEL` is absent (the normal test run).
#[test]
fn kernel_env_child() {
    let Ok(expected) = std::env::var(EXPECT_ENV) else {
        return;
    };
    let expected: Kernel = expected.parse().expect("expected kernel name");
    let detected = Kernel::detect();
    assert_eq!(
        detected,
        expected,
        "{KERNEL_ENV}={:?}",
        std::env::var(KERNEL_ENV)
    );
    assert_eq!(Kernel::detect(), detected, "detection is cached");
    let (block, expected_output) = small_block();
    assert_eq!(
        block::decompress(&block, expected_output.len()),
        Ok(expected_output)
    );
    println!("{CHILD_MARKER} {detected}");
}

#[test]
fn kernel_env_override() {
    let available = kernels();
    let best = available[0];
    let exe = std::env::current_exe().expect("current_exe");
    // (LZ4_SIMD_KERNEL, the kernel detect() must return, whether a notice must be printed)
    let mut cases: Vec<(Option<String>, Kernel, bool)> = vec![(None, best, false)];
    for kernel in Kernel::ALL {
        let usable = kernel.is_available();
        let expected = if usable { kernel } else { best };
        cases.push((Some(kernel.name().to_string()), expected, !usable));
    }
    cases.push((Some(" SCALAR ".to_string()), Kernel::Scalar, false));
    let upper = best.name().to_ascii_uppercase();
    cases.push((Some(upper), best, false));
    cases.push((Some("bogus".to_string()), best, true));
    // Under a cross runner (qemu-user without binfmt_misc) the binary cannot be spawned directly:
    // LZ4_SIMD_TEST_RUNNER, e.g. "qemu-aarch64-static -L /usr/aarch64-linux-gnu", prefixes it.
    let runner = std::env::var(RUNNER_ENV).unwrap_or_default();
    let runner: Vec<&str> = runner.split_whitespace().collect();
    for (value, expected, notice) in cases {
        let mut command = match runner.split_first() {
            Some((program, args)) => {
                let mut command = Command::new(program);
                command.args(args).arg(&exe);
                command
            }
            None => Command::new(&exe),
        };
        command
            .args(["--exact", CHILD_TEST, "--nocapture", "--test-threads=1"])
            .env(EXPECT_ENV, expected.name());
        match &value {
            Some(value) => command.env(KERNEL_ENV, value),
            None => command.env_remove(KERNEL_ENV),
        };
        let output = command.output().unwrap_or_else(|err| {
            panic!(
                "cannot run {} ({err}); under a cross runner set {RUNNER_ENV}",
                exe.display()
            )
        });
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        let context = format!(
            "{KERNEL_ENV}={value:?}, expected {expected}\n--- stdout\n{stdout}\n--- stderr\n{stderr}"
        );
        assert!(output.status.success(), "child failed: {context}");
        assert!(
            stdout.contains(&format!("{CHILD_MARKER} {expected}")),
            "child test did not run or report: {context}"
        );
        let noticed = stderr.contains(&format!("lz4-simd: {KERNEL_ENV}"));
        assert_eq!(noticed, notice, "fallback notice on stderr: {context}");
        if notice {
            assert!(
                stderr.contains(&format!("using {best}")),
                "notice names the fallback: {context}"
            );
        }
        eprintln!("{KERNEL_ENV}={value:?} -> {expected} (notice: {noticed})");
    }
}

// ---------------------------------------------------------------------------------------------
// The differential check
// ---------------------------------------------------------------------------------------------

/// A decode's verdict and the bytes it produced (`dst[..n]`, empty on error).
type Outcome = (Result<usize, Error>, Vec<u8>);

/// How one decode is set up: the kernel, the bytes around `src` in its buffer, the bytes `dst`
/// (and the buffer around it) is pre-filled with, and whether it goes through
/// `decompress_into_uninit_with` (a `&mut [MaybeUninit<u8>]` destination) instead of
/// `decompress_into_with`.
#[derive(Debug, Clone, Copy)]
struct Setup {
    kernel: Kernel,
    around_src: u8,
    fill: u8,
    uninit: bool,
}

/// Decodes `src` (placed at `front` in a buffer of `around_src` bytes) into
/// `dst = backing[front..front + cap]` (a buffer of `fill` bytes), and checks that nothing
/// outside `dst` was written.
fn decode(setup: Setup, src: &[u8], cap: usize, front: usize) -> Outcome {
    let mut input = vec![setup.around_src; front + src.len() + GUARD];
    input[front..front + src.len()].copy_from_slice(src);
    let src_slice = &input[front..front + src.len()];
    let (result, backing) = if setup.uninit {
        // Every byte starts initialised (to `fill`) so the guards can be read back; Miri's run
        // (tests/miri/tests/kernels.rs) decodes into memory that is really uninitialised.
        let mut backing = vec![MaybeUninit::new(setup.fill); front + cap + GUARD];
        let result = block::decompress_into_uninit_with(
            setup.kernel,
            src_slice,
            &mut backing[front..front + cap],
        );
        let backing: Vec<u8> = backing
            .iter()
            // SAFETY: every element was initialised above, and the decoder writes only
            // initialised bytes (what `decompress_into_uninit` documents).
            .map(|b| unsafe { b.assume_init() })
            .collect();
        (result, backing)
    } else {
        let mut backing = vec![setup.fill; front + cap + GUARD];
        let result =
            block::decompress_into_with(setup.kernel, src_slice, &mut backing[front..front + cap]);
        (result, backing)
    };
    let before = backing[..front].iter().rposition(|&b| b != setup.fill);
    let after = backing[front + cap..].iter().position(|&b| b != setup.fill);
    if before.is_some() || after.is_some() {
        let where_ = match (before, after) {
            (Some(i), _) => format!("{} bytes before dst", front - i),
            (_, Some(i)) => format!("at {i} bytes past the end of dst"),
            _ => unreachable!(),
        };
        panic!(
            "{setup:?} wrote {where_} (cap {cap}, result {result:?}); {}",
            reproducer(src, cap)
        );
    }
    match result {
        Ok(n) => {
            assert!(n <= cap, "{setup:?}: returned {n} > cap {cap}");
            (result, backing[front..front + n].to_vec())
        }
        Err(_) => (result, Vec::new()),
    }
}

/// Saves `src` where a failing test can point to it; returns a description to paste.
fn reproducer(src: &[u8], cap: usize) -> String {
    let hash = src.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("kernels-repro-{hash:016x}.lz4"));
    let saved = match std::fs::write(&path, src) {
        Ok(()) => format!("block saved to {}", path.display()),
        Err(err) => format!("could not save the block: {err}"),
    };
    let mut text = format!(
        "reproduce: block::decompress_into_with(kernel, &block, &mut vec![0; {cap}]); {} input bytes, {saved}",
        src.len()
    );
    if src.len() <= 300 {
        let _ = write!(text, "; block = {src:02x?}");
    }
    text
}

/// Panics unless `got` equals the scalar reference's `expected`, naming the first difference.
fn assert_same(
    setup: Setup,
    src: &[u8],
    cap: usize,
    front: usize,
    expected: &Outcome,
    got: &Outcome,
) {
    if got == expected {
        return;
    }
    let detail = if got.0 != expected.0 {
        format!("verdict {:?}, scalar {:?}", got.0, expected.0)
    } else {
        let at = got.1.iter().zip(&expected.1).position(|(a, b)| a != b);
        format!(
            "same verdict {:?}, output differs first at byte {at:?}",
            got.0
        )
    };
    panic!(
        "{setup:?} differs from scalar (cap {cap}, front {front}): {detail}; {}",
        reproducer(src, cap)
    );
}

/// Reference setup: scalar, zeros around `src`, zero-filled `dst`.
const REFERENCE: Setup = Setup {
    kernel: Kernel::Scalar,
    around_src: 0x00,
    fill: 0x00,
    uninit: false,
};

/// Decodes `src` at capacity `cap` with the scalar reference and with every other available
/// kernel, requiring identical verdicts and outputs; returns the reference's outcome.
///
/// Light: each SIMD kernel decodes once, with other bytes around `src` and in `dst` than the
/// reference. Thorough: every kernel (scalar included) also decodes with the reference's
/// surroundings and with `dst` pre-filled with `0xFF`, so any dependence on bytes past `src` or
/// on stale `dst` bytes is caught in each kernel on its own.
fn compare(kernels: &[Kernel], src: &[u8], cap: usize, front: usize, thorough: bool) -> Outcome {
    let expected = decode(REFERENCE, src, cap, front);
    for &kernel in kernels {
        let mut setups = Vec::with_capacity(4);
        if kernel != Kernel::Scalar {
            setups.push(Setup {
                kernel,
                around_src: 0xFF,
                fill: 0xA5,
                uninit: false,
            });
            setups.push(Setup {
                kernel,
                around_src: 0x00,
                fill: 0x5A,
                uninit: true,
            });
        }
        if thorough {
            setups.push(Setup {
                kernel,
                around_src: 0xFF,
                fill: 0x00,
                uninit: false,
            });
            setups.push(Setup {
                kernel,
                around_src: 0x00,
                fill: 0xFF,
                uninit: kernel == Kernel::Scalar,
            });
        }
        for setup in setups {
            let got = decode(setup, src, cap, front);
            assert_same(setup, src, cap, front, &expected, &got);
        }
    }
    expected
}

/// `compare`, plus: the reference decodes `src` to exactly `decoded` (when `cap` allows).
fn check_valid(
    kernels: &[Kernel],
    src: &[u8],
    decoded: &[u8],
    cap: usize,
    front: usize,
    thorough: bool,
) {
    let (result, output) = compare(kernels, src, cap, front, thorough);
    if cap >= decoded.len() {
        assert!(
            result == Ok(decoded.len()) && output == decoded,
            "scalar reference: {result:?} on a valid block decoding to {} bytes (cap {cap}); {}",
            decoded.len(),
            reproducer(src, cap)
        );
    } else {
        assert!(
            matches!(
                result,
                Err(Error::LiteralsOverflowOutput { .. } | Error::MatchOverflowsOutput { .. })
            ),
            "scalar reference: {result:?} with cap {cap} < {}",
            decoded.len()
        );
    }
}

/// Counts blocks and decodes, printed at the end of a test.
#[derive(Default)]
struct Tally {
    blocks: u64,
    checks: u64,
}

impl Tally {
    fn print(&self, what: &str, started: std::time::Instant) {
        eprintln!(
            "{what}: {} blocks, {} capacity checks, {:.1?}",
            self.blocks,
            self.checks,
            started.elapsed()
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Silesia
// ---------------------------------------------------------------------------------------------

type Compressor = (&'static str, fn(&[u8]) -> Vec<u8>);

const COMPRESSORS: [Compressor; 5] = [
    ("lz4_simd::block::compress", block::compress),
    ("liblz4 fast 1", |src| liblz4_compress_fast(src, 1)),
    ("liblz4 HC 3", |src| liblz4_compress_hc(src, 3)),
    ("liblz4 HC 9", |src| liblz4_compress_hc(src, 9)),
    ("liblz4 HC 12", |src| liblz4_compress_hc(src, 12)),
];

#[test]
fn corpus_chunks() {
    let kernels = kernels();
    let files = corpus();
    if files.is_empty() {
        eprintln!("NOTICE: no Silesia corpus; corpus_chunks checked nothing");
        return;
    }
    let started = std::time::Instant::now();
    let mut tally = Tally::default();
    let mut identical_blocks = 0u64;
    for chunk_size in [64 << 10, 4 << 20] {
        for (file_index, (name, data)) in files.iter().enumerate() {
            let chunks: Vec<&[u8]> = data.chunks(chunk_size).collect();
            let picked: Vec<usize> = if !DEBUG {
                (0..chunks.len()).collect()
            } else if chunk_size == 64 << 10 {
                // First, a middle and the last (short) chunk of every file.
                let mut picked = vec![0, chunks.len() / 2, chunks.len() - 1];
                picked.dedup();
                picked
            } else if file_index == 0 {
                vec![chunks.len() - 1]
            } else if file_index == 1 {
                vec![0]
            } else {
                Vec::new()
            };
            for index in picked {
                let chunk = chunks[index];
                let mut previous: Vec<u8> = Vec::new();
                for (compressor_index, (compressor, compress)) in COMPRESSORS.iter().enumerate() {
                    let compressed = compress(chunk);
                    if compressed == previous {
                        // Ours is byte-identical to liblz4 fast: decoding it again adds nothing.
                        identical_blocks += 1;
                        continue;
                    }
                    tally.blocks += 1;
                    // Exact capacity for every block; every other block also with 64 spare bytes.
                    let mut caps = vec![chunk.len()];
                    if (index + compressor_index) % 2 == 0 {
                        caps.push(chunk.len() + 64);
                    }
                    for cap in caps {
                        tally.checks += 1;
                        let front = (index * 7 + compressor_index) % 64;
                        let (result, output) = compare(&kernels, &compressed, cap, front, false);
                        assert!(
                            result == Ok(chunk.len()) && output == chunk,
                            "{name} chunk {index} ({chunk_size} bytes) by {compressor}: scalar {result:?}"
                        );
                    }
                    previous = compressed;
                }
            }
        }
    }
    eprintln!("corpus: {identical_blocks} blocks identical to the previous compressor's, skipped");
    tally.print("corpus", started);
}

// ---------------------------------------------------------------------------------------------
// Hand-built blocks
// ---------------------------------------------------------------------------------------------

/// Match lengths the sweeps use: every short one, the nibble-15 boundary (18, 19), the copy-width
/// boundaries, the fast loop's medium-match limit (64, 65), the first extension byte's boundary
/// (273-275: 255 + 19 - 1 ..).
fn match_lengths() -> Vec<usize> {
    let mut lengths: Vec<usize> = (4..=40).collect();
    lengths.extend([47, 48, 49]);
    lengths.extend(60..=70);
    lengths.extend([95, 96, 97, 127, 128, 129]);
    lengths.extend(255..=275);
    lengths.push(300);
    lengths
}

/// Literal lengths the sweeps use: 0, the nibble-15 boundary, the copy-width boundaries, the
/// first extension byte's boundary (269-271).
fn literal_lengths() -> Vec<usize> {
    let mut lengths: Vec<usize> = (0..=40).collect();
    lengths.extend([47, 48, 49]);
    lengths.extend(60..=70);
    lengths.extend([95, 96, 97, 127, 128, 129]);
    lengths.extend(255..=275);
    lengths.push(300);
    lengths
}

/// Lengths at the 16/32/64-byte copy boundaries.
const WIDTH_BOUNDARIES: [usize; 11] = [0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65];

/// The end distances a sweep point uses: all of 0..=64 in release builds, `debug_count` of them
/// (all if 65) in debug builds (rotating with `seed`, so the whole range is covered across points).
fn end_distances(seed: usize, debug_count: usize) -> Vec<usize> {
    if DEBUG && debug_count < 65 {
        (0..debug_count)
            .map(|i| (seed * 29 + i * (65 / debug_count + 1)) % 65)
            .collect()
    } else {
        (0..=64).collect()
    }
}

/// A block whose sequence under test (`literal_len` literals, `offset`, `match_len`) follows
/// `history_len` (>= 70) bytes of history and is followed by `end_distance` final literals: its
/// match ends `end_distance` bytes before the end of the block.
fn sweep_block(
    rng: &mut Rng,
    history_len: usize,
    test_sequence: (usize, usize, usize),
    repeat: usize,
    end_distance: usize,
) -> (Vec<u8>, Vec<u8>) {
    let (literal_len, offset, match_len) = test_sequence;
    let mut builder = BlockBuilder::default();
    builder.sequence(
        &rng.bytes(history_len - 4),
        1 + rng.below(history_len as u64 - 4) as usize,
        4,
    );
    for _ in 0..repeat {
        builder.sequence(&rng.bytes(literal_len), offset, match_len);
    }
    builder.finish(&rng.bytes(end_distance))
}

#[test]
fn sweep_offsets_by_match_lengths() {
    let kernels = kernels();
    let started = std::time::Instant::now();
    let mut tally = Tally::default();
    let mut rng = Rng::new(1);
    let match_lengths = match_lengths();
    let literal_lengths = literal_lengths();
    let mut point = 0usize;
    for offset in 1..=70 {
        for &match_len in &match_lengths {
            point += 1;
            let literal_len = literal_lengths[point * 7 % literal_lengths.len()];
            let history_len = 70 + point % 64;
            for end_distance in end_distances(point, 65) {
                let (src, decoded) = sweep_block(
                    &mut rng,
                    history_len,
                    (literal_len, offset, match_len),
                    1,
                    end_distance,
                );
                tally.blocks += 1;
                let front = (point + end_distance) % 64;
                tally.checks += 1;
                check_valid(&kernels, &src, &decoded, decoded.len(), front, false);
                if (point + end_distance).is_multiple_of(8) {
                    tally.checks += 1;
                    let spare = [1, 7, 64][end_distance % 3];
                    check_valid(&kernels, &src, &decoded, decoded.len() + spare, front, true);
                }
            }
        }
    }
    tally.print("offsets x match lengths", started);
}

#[test]
fn sweep_literal_lengths() {
    let kernels = kernels();
    let started = std::time::Instant::now();
    let mut tally = Tally::default();
    let mut rng = Rng::new(2);
    let match_lengths = match_lengths();
    let mut point = 0usize;
    for literal_len in 0..=300 {
        for offset in 1..=70 {
            point += 1;
            let match_len = match_lengths[point * 11 % match_lengths.len()];
            let history_len = 70 + point % 61;
            let distances = if DEBUG {
                vec![point % 65, (point * 7 + 31) % 65]
            } else {
                vec![point % 65, (point * 7 + 31) % 65, (point * 13 + 17) % 65]
            };
            for end_distance in distances {
                let (src, decoded) = sweep_block(
                    &mut rng,
                    history_len,
                    (literal_len, offset, match_len),
                    1,
                    end_distance,
                );
                tally.blocks += 1;
                tally.checks += 1;
                check_valid(&kernels, &src, &decoded, decoded.len(), point % 64, false);
            }
        }
    }
    tally.print("literal lengths x offsets", started);
}

#[test]
fn sweep_copy_width_boundaries() {
    let kernels = kernels();
    let started = std::time::Instant::now();
    let mut tally = Tally::default();
    let mut rng = Rng::new(3);
    let mut point = 0usize;
    for literal_len in WIDTH_BOUNDARIES {
        for match_len in WIDTH_BOUNDARIES.into_iter().filter(|&len| len >= 4) {
            for offset in 1..=70 {
                point += 1;
                // Two sequences under test back to back: the second's copies start where the
                // first's wild copies ended.
                for end_distance in end_distances(point, 10) {
                    let (src, decoded) = sweep_block(
                        &mut rng,
                        70 + point % 37,
                        (literal_len, offset, match_len),
                        2,
                        end_distance,
                    );
                    tally.blocks += 1;
                    tally.checks += 1;
                    let front = (point * 3 + end_distance) % 64;
                    check_valid(&kernels, &src, &decoded, decoded.len(), front, false);
                }
            }
        }
    }
    tally.print("copy-width boundaries", started);
}

#[test]
fn sweep_long_runs() {
    let kernels = kernels();
    let started = std::time::Instant::now();
    let mut tally = Tally::default();
    let mut rng = Rng::new(4);
    let mut offsets: Vec<usize> = (1..=8).collect();
    offsets.extend([9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 70]);
    let match_lengths = [
        1000, 1001, 1002, 1003, 1024, 1031, 1032, 1033, 1055, 4099, 65_539,
    ];
    let mut point = 0usize;
    for &offset in &offsets {
        for match_len in match_lengths {
            point += 1;
            let literal_len = [0, 1, 5, 17][point % 4];
            for end_distance in end_distances(point, 10) {
                let (src, decoded) = sweep_block(
                    &mut rng,
                    70 + point % 64,
                    (literal_len, offset, match_len),
                    1 + point % 2,
                    end_distance,
                );
                tally.blocks += 1;
                tally.checks += 1;
                check_valid(&kernels, &src, &decoded, decoded.len(), point % 64, false);
            }
        }
    }
    // Many long runs in a row, short offsets mixed.
    for seed in 0..if DEBUG { 4 } else { 40 } {
        let mut builder = BlockBuilder::default();
        builder.sequence(&rng.bytes(8), 8, 4);
        for _ in 0..20 {
            let offset = 1 + rng.below(8) as usize;
            let literal_len = rng.below(3) as usize;
            let match_len = 1000 + rng.below(300) as usize;
            builder.sequence(&rng.bytes(literal_len), offset, match_len);
        }
        let (src, decoded) = builder.finish(&rng.bytes(seed % 65));
        tally.blocks += 1;
        tally.checks += 1;
        check_valid(&kernels, &src, &decoded, decoded.len(), seed % 64, true);
    }
    tally.print("long runs", started);
}

/// A length for a random block: mostly short, sometimes at or past the extension boundaries.
fn random_len(rng: &mut Rng) -> usize {
    match rng.below(20) {
        0..=10 => rng.below(17) as usize,
        11..=15 => 17 + rng.below(54) as usize,
        16..=18 => 71 + rng.below(230) as usize,
        _ => 300 + rng.below(1700) as usize,
    }
}

/// A random valid block: up to `max_sequences` sequences of random literal lengths, offsets
/// (mostly below 70) and match lengths, final literals of 0-64 bytes (mostly) or more.
fn random_block(rng: &mut Rng, max_sequences: u64) -> (Vec<u8>, Vec<u8>) {
    let mut builder = BlockBuilder::default();
    for _ in 0..rng.below(max_sequences + 1) {
        // Sequences without literals are common in real blocks (a match right after a match).
        let mut literal_len = if rng.below(4) == 0 {
            0
        } else {
            random_len(rng)
        };
        if builder.decoded.len() + literal_len == 0 {
            literal_len = 1;
        }
        let literals = rng.bytes(literal_len);
        let history = (builder.decoded.len() + literal_len).min(0xFFFF) as u64;
        let offset = 1 + match rng.below(10) {
            0..=4 => rng.below(history.min(16)),
            5..=7 => rng.below(history.min(70)),
            _ => rng.below(history),
        } as usize;
        let match_len = 4 + random_len(rng);
        builder.sequence(&literals, offset, match_len);
    }
    let end_distance = if rng.below(4) == 0 {
        random_len(rng)
    } else {
        rng.below(65) as usize
    };
    let tail = rng.bytes(end_distance);
    builder.finish(&tail)
}

#[test]
fn random_valid_blocks() {
    let kernels = kernels();
    let started = std::time::Instant::now();
    let mut tally = Tally::default();
    let mut rng = Rng::new(5);
    for round in 0..if DEBUG { 8000 } else { 60_000 } {
        let (src, decoded) = random_block(&mut rng, 1 + round as u64 % 40);
        tally.blocks += 1;
        let n = decoded.len();
        let mut caps = vec![n, n + 1, n + 7, n + 64];
        if n > 0 {
            caps.push(n - 1);
        }
        for (i, cap) in caps.into_iter().enumerate() {
            tally.checks += 1;
            check_valid(
                &kernels,
                &src,
                &decoded,
                cap,
                (round + i) % 64,
                i == 0 || i == 3,
            );
        }
    }
    tally.print("random valid blocks", started);
}

#[test]
fn every_capacity() {
    // Blocks decoded into every dst size from 0 to their size + 64: a too-small dst must stop the
    // fast loop before any wide copy reaches past it, and give the reference's error. Valid
    // blocks, and the same blocks corrupted once (so the fast loop also meets a too-small dst at
    // sequences a valid block would not let it reach, e.g. a first token without literals).
    let kernels = kernels();
    let started = std::time::Instant::now();
    let mut tally = Tally::default();
    let mut rng = Rng::new(9);
    let mut round = 0usize;
    let mut mutant_rejects = 0u64;
    while tally.blocks < if DEBUG { 160 } else { 2000 } {
        round += 1;
        let (src, decoded) = random_block(&mut rng, 1 + round as u64 % 8);
        let n = decoded.len();
        if n > 1500 {
            continue;
        }
        let mutant = mutate(&mut rng, &src);
        tally.blocks += 2;
        for cap in 0..=n + 64 {
            tally.checks += 2;
            let front = (round + cap) % 64;
            check_valid(&kernels, &src, &decoded, cap, front, cap % 16 == 0);
            let (result, _) = compare(&kernels, &mutant, cap, front, cap % 16 == 8);
            mutant_rejects += u64::from(result.is_err());
        }
    }
    eprintln!("every capacity: {mutant_rejects} corrupted-block decodes rejected");
    tally.print("every capacity", started);
}

// ---------------------------------------------------------------------------------------------
// Hostile blocks
// ---------------------------------------------------------------------------------------------

/// Valid blocks to corrupt, with their decoded sizes: random hand-built blocks, and liblz4 (fast
/// and HC) and our compressor's blocks of generated data and Silesia slices.
fn hostile_bases(rng: &mut Rng, random_blocks: usize) -> Vec<(Vec<u8>, usize)> {
    let mut bases = Vec::new();
    for i in 0..random_blocks {
        let (src, decoded) = random_block(rng, 1 + i as u64 % 12);
        bases.push((src, decoded.len()));
    }
    let mut inputs: Vec<Vec<u8>> = Vec::new();
    for (seed, kind) in common::GENERATED_KINDS.iter().enumerate() {
        for len in [20, 100, 700, 3000] {
            inputs.push(generated(kind, len, seed as u64));
        }
    }
    for (_, data) in corpus() {
        for start in [0, data.len() / 3, data.len() - 2000] {
            inputs.push(data[start..start + 2000].to_vec());
        }
    }
    for (i, input) in inputs.iter().enumerate() {
        let compressed = match i % 3 {
            0 => liblz4_compress_fast(input, 1),
            1 => liblz4_compress_hc(input, 9),
            _ => block::compress(input),
        };
        bases.push((compressed, input.len()));
    }
    bases
}

/// One random corruption of `src`: bit flips, byte sets, truncation, insertion, deletion, or a
/// targeted change of a token nibble, length extension or offset of a parsed sequence.
fn mutate(rng: &mut Rng, src: &[u8]) -> Vec<u8> {
    let mut out = src.to_vec();
    let pick = |rng: &mut Rng, n: usize| rng.below(n.max(1) as u64) as usize;
    const VALUES: [u8; 8] = [0x00, 0xFF, 0x0F, 0xF0, 0x01, 0x10, 0x1F, 0xFE];
    let kind = rng.below(9);
    if out.is_empty() || kind <= 1 {
        // Bit flips.
        for _ in 0..1 + rng.below(3) {
            if !out.is_empty() {
                let at = pick(rng, out.len());
                out[at] ^= 1 << rng.below(8);
            }
        }
        return out;
    }
    match kind {
        2 => {
            let at = pick(rng, out.len());
            out[at] = if rng.below(2) == 0 {
                VALUES[pick(rng, VALUES.len())]
            } else {
                rng.next_u64() as u8
            };
        }
        3 => out.truncate(pick(rng, out.len())),
        4 => {
            let at = pick(rng, out.len() + 1);
            let count = 1 + pick(rng, 8);
            let byte = VALUES[pick(rng, VALUES.len())];
            let inserted: Vec<u8> = if rng.below(2) == 0 {
                vec![byte; count]
            } else {
                rng.bytes(count)
            };
            out.splice(at..at, inserted);
        }
        5 => {
            let at = pick(rng, out.len());
            let end = (at + 1 + pick(rng, 8)).min(out.len());
            out.drain(at..end);
        }
        _ => {
            let parsed = parse_block(&out);
            if parsed.seqs.is_empty() {
                let at = pick(rng, out.len());
                out[at] ^= 0x80;
                return out;
            }
            let seq = parsed.seqs[pick(rng, parsed.seqs.len())].clone();
            let token = seq.token_pos;
            let nibble = [0u8, 1, 14, 15][pick(rng, 4)];
            match rng.below(7) {
                0 => out[token] = (out[token] & 0x0F) | nibble << 4,
                1 => out[token] = (out[token] & 0xF0) | nibble,
                2 if seq.literal_start > token + 1 => {
                    let at = token + 1 + pick(rng, seq.literal_start - token - 1);
                    out[at] = VALUES[pick(rng, VALUES.len())];
                }
                3 if seq.offset.is_some() && seq.end_pos > seq.literal_end() + 2 => {
                    let first = seq.literal_end() + 2;
                    let at = first + pick(rng, seq.end_pos - first);
                    out[at] = VALUES[pick(rng, VALUES.len())];
                }
                4 if seq.offset.is_some() => {
                    let at = seq.literal_end();
                    let reach = seq.match_start();
                    let offset = [0, 1, reach, reach + 1, 0xFFFF, 8, 15, 16, 31, 32][pick(rng, 10)];
                    out[at..at + 2].copy_from_slice(&(offset.min(0xFFFF) as u16).to_le_bytes());
                }
                5 => {
                    // Lengthen an extension (or start one) by 255 per inserted byte.
                    let count = 1 + pick(rng, 3);
                    if seq.literal_start > token + 1 {
                        out.splice(token + 1..token + 1, vec![255; count]);
                    } else {
                        out[token] |= 0xF0;
                        out.splice(token + 1..token + 1, vec![255; count]);
                    }
                }
                _ => out.truncate(seq.end_pos.min(out.len())),
            }
        }
    }
    out
}

/// The capacities a hostile block is decoded at: the original's size halved, exact and
/// oversized, and, when the reference accepts the block at a large capacity, its own size a
/// third, -1, exact and oversized.
fn hostile_caps(src: &[u8], original_len: usize) -> Vec<usize> {
    let mut caps = vec![
        original_len / 2,
        original_len,
        original_len + 1,
        original_len + 7,
        original_len + 64,
    ];
    let big = (src.len() * 255).min(1 << 20);
    if let (Ok(n), _) = decode(REFERENCE, src, big, 0) {
        caps.extend([n / 3, n.saturating_sub(1), n, n + 1, n + 7, n + 64]);
    }
    caps.sort_unstable();
    caps.dedup();
    caps
}

#[test]
fn hostile_mutations() {
    let kernels = kernels();
    let started = std::time::Instant::now();
    let mut tally = Tally::default();
    let mut rng = Rng::new(6);
    let bases = hostile_bases(&mut rng, if DEBUG { 200 } else { 1000 });
    let per_base = if DEBUG { 60 } else { 250 };
    let mut rejected = 0u64;
    for (base_index, (base, original_len)) in bases.iter().enumerate() {
        for round in 0..per_base {
            let mut src = mutate(&mut rng, base);
            if round % 4 == 3 {
                src = mutate(&mut rng, &src);
            }
            tally.blocks += 1;
            for (i, cap) in hostile_caps(&src, *original_len).into_iter().enumerate() {
                tally.checks += 1;
                let front = (base_index + round + i) % 64;
                let (result, _) = compare(&kernels, &src, cap, front, i % 3 == 0);
                rejected += u64::from(result.is_err());
            }
        }
    }
    eprintln!("hostile mutations: {rejected} of the capacity checks rejected");
    assert!(
        rejected > tally.checks / 10,
        "mutations should mostly break blocks"
    );
    tally.print("hostile mutations", started);
}

#[test]
fn hostile_every_truncation() {
    let kernels = kernels();
    let started = std::time::Instant::now();
    let mut tally = Tally::default();
    let mut rng = Rng::new(7);
    let count = if DEBUG { 60 } else { 400 };
    for i in 0..count {
        let (src, decoded) = random_block(&mut rng, 2 + i as u64 % 10);
        let n = decoded.len();
        for len in 0..src.len() {
            tally.blocks += 1;
            for (j, cap) in [n, n + 64].into_iter().enumerate() {
                tally.checks += 1;
                let (result, _) = compare(&kernels, &src[..len], cap, (len + j) % 64, j == 0);
                // A proper prefix of a valid block is valid only if it ends after a literal run
                // of the last sequence (it then decodes to less).
                if let Ok(m) = result {
                    assert!(m < n, "truncated block decoded to {m} >= {n} bytes");
                }
            }
        }
    }
    tally.print("every truncation", started);
}

#[test]
fn vec_api_matches_reference() {
    // `decompress` / `decompress_size_prepended` decode into uninitialised spare capacity with the
    // detected kernel; they must agree with the reference into an exact (or capped) buffer.
    let mut rng = Rng::new(8);
    let bases = hostile_bases(&mut rng, if DEBUG { 30 } else { 200 });
    let mut checks = 0u64;
    for (base, original_len) in &bases {
        for round in 0..if DEBUG { 8 } else { 40 } {
            let src = if round == 0 {
                base.clone()
            } else {
                mutate(&mut rng, base)
            };
            for max_out in [original_len / 2, *original_len, original_len + 100] {
                checks += 1;
                let cap = max_out.min(src.len() * 255);
                let (expected, output) = decode(REFERENCE, &src, cap, 0);
                let got = block::decompress(&src, max_out);
                assert_eq!(
                    got,
                    expected.clone().map(|_| output.clone()),
                    "decompress, max_out {max_out}; {}",
                    reproducer(&src, cap)
                );
                // Size-prepended, declaring what the reference decoded (or the original size when
                // it rejected the block).
                let declared = expected.map_or(*original_len, |n| n);
                let mut prefixed = (declared as u32).to_le_bytes().to_vec();
                prefixed.extend_from_slice(&src);
                let got = block::decompress_size_prepended(&prefixed, declared);
                let (exact, exact_output) = decode(REFERENCE, &src, declared, 0);
                if exact == Ok(declared) && declared <= src.len() * 255 {
                    assert_eq!(got, Ok(exact_output), "{}", reproducer(&src, declared));
                } else {
                    assert!(got.is_err(), "size-prepended: {got:?}, scalar {exact:?}");
                }
            }
        }
    }
    eprintln!("vec api: {checks} checks");
}
