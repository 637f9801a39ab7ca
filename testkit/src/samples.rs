//! Deterministic generated data: the same bytes on every run and platform, from one small PRNG.
//!
//! - [`builtin`]: English-like text, log lines, JSON records, byte runs and random bytes: the
//!   benches measure when the Silesia corpus is absent; the generator is the CLI's
//!   `cli/src/samples.rs`, included here, so its `-b` samples are the same bytes.
//! - [`stress`]: the overlapping-match stress pair the decode benches always include (`runs` of
//!   one byte, `short-offsets` patterns of period 2-15).
//! - [`generated`]: the test inputs by kind ([`GENERATED_KINDS`]) and seed.
//!
//! Every generator's output is pinned by a hash in this module's tests: the benches' figures and
//! the tests' inputs depend on these exact bytes.

/// Plain xorshift64 (shifts 13, 7, 17, no multiply): the generator the dictionary, partial and
/// dest-size tests draw their inputs from (their inputs depend on these exact values). The state
/// is the field; it must not be 0 (a 0 state repeats forever).
#[derive(Debug, Clone)]
pub struct XorShift(pub u64);

impl XorShift {
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A value in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// The generator of the built-in samples and the PRNG: the command-line tool's own module, so
/// that its `-b` samples and the benches' are one piece of code.
#[path = "../../cli/src/samples.rs"]
mod generator;

pub use generator::{json, logs, random, runs, text, Rng};

impl Rng {
    /// A generator starting from the raw (non-zero) state `state`.
    pub fn from_state(state: u64) -> Self {
        debug_assert_ne!(state, 0, "xorshift state 0 repeats forever");
        Rng(state)
    }

    /// `len` bytes, one draw each.
    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next_u64() as u8).collect()
    }
}

/// The built-in samples, `len` bytes each, as (name, data): `text`, `logs`, `json`, `runs`
/// (1-300 long) and `random`, each from its own seed (the CLI's `-b` samples).
pub fn builtin(len: usize) -> Vec<(String, Vec<u8>)> {
    generator::generated(len)
}

/// Log lines that compress about tenfold (a decoder sizing its buffer from the compressed size
/// must grow it several times), from an LCG seeded with `seed`.
pub fn tenfold_logs(len: usize, seed: u64) -> Vec<u8> {
    let mut state = seed;
    let mut out = Vec::with_capacity(len + 100);
    while out.len() < len {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let line = format!(
            "2026-01-02 worker-{} committed batch {} of segment 7\n",
            (state >> 40) % 3,
            (state >> 20) % 4,
        );
        out.extend_from_slice(line.as_bytes());
    }
    out.truncate(len);
    out
}

/// The overlapping-match stress samples, `len` bytes each: `runs` (runs of one byte, 1-200 long)
/// and `short-offsets` (patterns of period 2-15 repeated 16-135 bytes, 0-5 literals between).
pub fn stress(len: usize) -> Vec<(String, Vec<u8>)> {
    let mut rng = Rng::from_state(0x2545_F491_4F6C_DD1D);
    let runs = runs(len, 200, &mut rng);
    let mut short = Vec::with_capacity(len + 150);
    while short.len() < len {
        let period = 2 + rng.below(14) as usize;
        let pattern = rng.bytes(period);
        let repeat = 16 + rng.below(120) as usize;
        short.extend(pattern.iter().cycle().take(repeat));
        for _ in 0..rng.below(6) {
            short.push(rng.next_u64() as u8);
        }
    }
    short.truncate(len);
    vec![
        ("runs".to_string(), runs),
        ("short-offsets".to_string(), short),
    ]
}

/// The kinds [`generated`] knows.
pub const GENERATED_KINDS: [&str; 4] = ["random", "two-symbol", "log-lines", "runs"];

/// Test inputs of a kind: `random` (one draw a byte), `two-symbol` (`a`/`b`), `log-lines`
/// (repeated log lines), `runs` (1-300 long). `len` bytes, deterministic for a seed.
pub fn generated(kind: &str, len: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    match kind {
        "random" => rng.bytes(len),
        "two-symbol" => (0..len)
            .map(|_| if rng.below(2) == 0 { b'a' } else { b'b' })
            .collect(),
        "log-lines" => {
            let mut out = Vec::with_capacity(len + 128);
            let mut n = 0u64;
            while out.len() < len {
                n += 1 + rng.below(3);
                let line = format!(
                    "2026-12-02T11:{:02}:{:02}.{:03}Z INFO  block-store: flushed segment {} ({} bytes) to shard {}\n",
                    (n / 60) % 60,
                    n % 60,
                    rng.below(1000),
                    n,
                    rng.below(1 << 20),
                    rng.below(16)
                );
                out.extend_from_slice(line.as_bytes());
            }
            out.truncate(len);
            out
        }
        "runs" => runs(len, 300, &mut rng),
        other => panic!("unknown generated kind {other}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// FNV-1a: a fingerprint that stays the same across Rust versions.
    fn fingerprint(data: &[u8]) -> u64 {
        data.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3)
        })
    }

    fn fingerprints(samples: &[(String, Vec<u8>)]) -> Vec<(&str, u64)> {
        samples
            .iter()
            .map(|(name, data)| (name.as_str(), fingerprint(data)))
            .collect()
    }

    #[test]
    fn deterministic_and_sized() {
        let a = builtin(10_000);
        let b = builtin(10_000);
        assert_eq!(a, b);
        assert!(a.iter().all(|(_, data)| data.len() == 10_000));
        assert!(stress(10_000).iter().all(|(_, data)| data.len() == 10_000));
        for kind in GENERATED_KINDS {
            assert_eq!(generated(kind, 777, 3).len(), 777);
        }
    }

    /// The bytes the CLI's bench, the benches' stress samples and the tests' inputs were measured
    /// and calibrated on (fingerprints of the generators these replaced).
    #[test]
    fn pinned_bytes() {
        assert_eq!(fingerprints(&builtin(100_000)), BUILTIN_100K);
        assert_eq!(fingerprints(&stress(100_000)), STRESS_100K);
        let by_kind: Vec<(&str, u64)> = GENERATED_KINDS
            .iter()
            .map(|&kind| (kind, fingerprint(&generated(kind, 5000, 7))))
            .collect();
        assert_eq!(by_kind, GENERATED_5000_SEED_7);
    }

    const BUILTIN_100K: [(&str, u64); 5] = [
        ("text", 0xb938_31fb_b466_2c9e),
        ("logs", 0xd611_c69e_ce23_a68f),
        ("json", 0x67da_6304_805b_ddac),
        ("runs", 0x949b_7b59_51f3_4e0f),
        ("random", 0x4a27_4d64_c21f_73ec),
    ];
    const STRESS_100K: [(&str, u64); 2] = [
        ("runs", 0xb0ad_ad97_042a_cc7f),
        ("short-offsets", 0x8c5c_acbb_40b8_5bac),
    ];
    const GENERATED_5000_SEED_7: [(&str, u64); 4] = [
        ("random", 0x3d3f_811e_a85a_d1c4),
        ("two-symbol", 0x1b40_4311_f1b1_1b9a),
        ("log-lines", 0x7592_22a8_b219_e336),
        ("runs", 0x9c43_b5c3_bf3a_38dc),
    ];
}
