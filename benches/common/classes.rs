//! The synthetic classes of the decode benches (`interleaved`): blocks built
//! sequence by sequence, one decode cost each (see `interleaved.rs`'s module docs), and the CPU
//! model recorded with every figure.

use super::Sample;
use testkit::{BlockBuilder, Rng};

/// The default block size of the corpus files, and the block size of the classes.
pub const CHUNK: usize = 64 * 1024;

/// One synthetic class: its name and how it draws one sequence (literal length, offset, match
/// length) with at least `history` bytes already decoded.
pub type Class = (&'static str, fn(&mut Rng, usize) -> (usize, usize, usize));

/// The classes of `LZ4_SIMD_BENCH_SETS=classes` (see `interleaved.rs`'s module docs).
pub const CLASSES: [Class; 6] = [
    ("off1-7", |rng, _| draw(rng, (0, 3), (1, 7), (4, 18))),
    ("off8-15", |rng, _| draw(rng, (0, 3), (8, 15), (4, 18))),
    ("off16-64", |rng, _| draw(rng, (0, 7), (16, 64), (4, 18))),
    ("lit-long", |rng, history| {
        draw(rng, (32, 400), (16, history.min(65_535)), (4, 18))
    }),
    ("match-long", |rng, history| {
        draw(rng, (0, 7), (600, history.min(65_535)), (65, 600))
    }),
    ("short-seq", |rng, history| {
        draw(rng, (0, 4), (64, history.min(16_384)), (4, 7))
    }),
];

/// The probes of `LZ4_SIMD_BENCH_SETS=probes`: `off16-64`'s literal and match lengths (0-7, 4-18)
/// at offsets further back, so the cost of reading output stored a few sequences earlier (still
/// in the store buffer) shows against the same sequences reading older output (see `interleaved.rs`'s module
/// docs).
pub const PROBES: [Class; 3] = [
    ("off65-128", |rng, _| draw(rng, (0, 7), (65, 128), (4, 18))),
    ("off129-512", |rng, _| {
        draw(rng, (0, 7), (129, 512), (4, 18))
    }),
    ("off1k-16k", |rng, history| {
        draw(rng, (0, 7), (1024, history.min(16_384)), (4, 18))
    }),
];

/// A (literal length, offset, match length) triple, each uniform in its inclusive range.
pub fn draw(
    rng: &mut Rng,
    literals: (usize, usize),
    offset: (usize, usize),
    match_len: (usize, usize),
) -> (usize, usize, usize) {
    let mut pick = |(low, high): (usize, usize)| low + rng.below((high - low + 1) as u64) as usize;
    (pick(literals), pick(offset), pick(match_len))
}

/// 4 MiB of one class in blocks of about [`CHUNK`] bytes, each opening with 1 KiB of literals
/// (so every drawn offset has history) and closing with 16 literals (the format's end margins).
pub fn class_sample(name: &str, sequence: fn(&mut Rng, usize) -> (usize, usize, usize)) -> Sample {
    let mut rng = Rng::new(name.len() as u64 * 7919 + u64::from(name.as_bytes()[3]));
    let (mut chunks, mut compressed) = (Vec::new(), Vec::new());
    while chunks.len() * CHUNK < 4 << 20 {
        let mut builder = BlockBuilder::default();
        builder.sequence(&rng.bytes(1024), 1024, 4);
        while builder.decoded.len() < CHUNK - 1100 {
            let (literal_len, offset, match_len) = sequence(&mut rng, builder.decoded.len());
            builder.sequence(&rng.bytes(literal_len), offset, match_len);
        }
        let (block, decoded) = builder.finish(&rng.bytes(16));
        compressed.push(block);
        chunks.push(decoded);
    }
    Sample {
        name: name.to_string(),
        chunks,
        compressed,
    }
}

/// The CPU model as `/proc/cpuinfo` names it (model name, family, model), recorded with every
/// figure; "unknown" where there is no such file.
pub fn cpu_model() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |key: &str| {
        info.lines()
            .find(|line| line.split(':').next().is_some_and(|k| k.trim() == key))
            .and_then(|line| line.split(':').nth(1))
            .map_or("?", str::trim)
            .to_string()
    };
    if info.is_empty() {
        return "unknown".into();
    }
    format!(
        "{} (family {}, model {})",
        field("model name"),
        field("cpu family"),
        field("model")
    )
}
