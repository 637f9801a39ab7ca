//! Deterministic generated data: the same bytes on every run and platform, from one small PRNG.
//!
//! - [`builtin`]: English-like text, log lines, JSON records, byte runs and random bytes: the
//!   benches measure when the Silesia corpus is absent (the CLI's `-b` samples are the same
//!   generator, in `cli/src/samples.rs`).
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

/// A small deterministic PRNG (xorshift64*), so generated data needs no dependency.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator for `seed` (any value, 0 included).
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// A generator starting from the raw (non-zero) state `state`.
    pub fn from_state(state: u64) -> Self {
        debug_assert_ne!(state, 0, "xorshift state 0 repeats forever");
        Rng(state)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A value in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// `len` bytes, one draw each.
    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next_u64() as u8).collect()
    }

    /// One of `items` (not empty).
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

const WORDS: &[&str] = &[
    "the",
    "of",
    "and",
    "to",
    "in",
    "a",
    "is",
    "that",
    "for",
    "it",
    "as",
    "was",
    "with",
    "be",
    "by",
    "on",
    "not",
    "he",
    "she",
    "this",
    "are",
    "or",
    "his",
    "her",
    "from",
    "at",
    "which",
    "but",
    "have",
    "an",
    "had",
    "they",
    "you",
    "were",
    "their",
    "one",
    "all",
    "we",
    "can",
    "there",
    "been",
    "if",
    "more",
    "when",
    "will",
    "would",
    "who",
    "so",
    "no",
    "little",
    "great",
    "house",
    "morning",
    "letter",
    "gentleman",
    "said",
    "upon",
    "time",
    "very",
    "could",
    "should",
    "never",
    "himself",
    "nothing",
    "before",
    "after",
    "again",
    "through",
    "another",
    "something",
];

const USERS: &[&str] = &[
    "alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi",
];
const EVENTS: &[&str] = &[
    "login", "logout", "view", "click", "purchase", "refund", "search",
];
const LEVELS: &[&str] = &["INFO ", "INFO ", "INFO ", "DEBUG", "WARN ", "ERROR"];

/// English-like sentences of 4-19 words, some commas, paragraph breaks.
pub fn text(len: usize, rng: &mut Rng) -> Vec<u8> {
    let mut out = Vec::with_capacity(len + 128);
    while out.len() < len {
        let words = 4 + rng.below(16);
        for i in 0..words {
            let word = rng.pick(WORDS).as_bytes();
            if i == 0 {
                out.push(word[0].to_ascii_uppercase());
                out.extend_from_slice(&word[1..]);
            } else {
                out.push(b' ');
                out.extend_from_slice(word);
            }
            if i + 1 < words && rng.below(10) == 0 {
                out.push(b',');
            }
        }
        out.extend_from_slice(match rng.below(10) {
            0 => b".\n\n",
            1 => b"? ",
            _ => b". ",
        });
    }
    out.truncate(len);
    out
}

/// Timestamped log lines of one shape with changing numbers.
pub fn logs(len: usize, rng: &mut Rng) -> Vec<u8> {
    let mut out = Vec::with_capacity(len + 160);
    let mut millis = 0u64;
    let mut segment = 1000u64;
    while out.len() < len {
        millis += 1 + rng.below(250);
        segment += rng.below(3);
        let line = format!(
            "2026-12-02T{:02}:{:02}:{:02}.{:03}Z {} store::flush: segment {segment} flushed ({} bytes) to shard {}\n",
            (millis / 3_600_000) % 24,
            (millis / 60_000) % 60,
            (millis / 1000) % 60,
            millis % 1000,
            rng.pick(LEVELS),
            rng.below(1 << 20),
            rng.below(16),
        );
        out.extend_from_slice(line.as_bytes());
    }
    out.truncate(len);
    out
}

/// A stream of JSON records, one a line.
pub fn json(len: usize, rng: &mut Rng) -> Vec<u8> {
    let mut out = Vec::with_capacity(len + 200);
    let mut id = 1u64;
    while out.len() < len {
        id += 1;
        let record = format!(
            "{{\"id\":{id},\"user\":\"{}\",\"event\":\"{}\",\"ts\":{},\"amount\":{}.{:02},\"ok\":{},\"tags\":[\"{}\",\"{}\"]}}\n",
            rng.pick(USERS),
            rng.pick(EVENTS),
            1_764_676_800 + id * 3 + rng.below(3),
            rng.below(500),
            rng.below(100),
            rng.below(8) != 0,
            rng.pick(EVENTS),
            rng.pick(USERS),
        );
        out.extend_from_slice(record.as_bytes());
    }
    out.truncate(len);
    out
}

/// Runs of one random byte, 1..=`max_run` long (offset-1 matches).
pub fn runs(len: usize, max_run: u64, rng: &mut Rng) -> Vec<u8> {
    let mut out = Vec::with_capacity(len);
    while out.len() < len {
        let byte = rng.next_u64() as u8;
        let run = (1 + rng.below(max_run) as usize).min(len - out.len());
        out.extend(std::iter::repeat_n(byte, run));
    }
    out
}

/// Random bytes, eight per draw.
pub fn random(len: usize, rng: &mut Rng) -> Vec<u8> {
    let mut out = Vec::with_capacity(len + 8);
    while out.len() < len {
        out.extend_from_slice(&rng.next_u64().to_le_bytes());
    }
    out.truncate(len);
    out
}

/// Writes `len` bytes of one kind of sample data.
type Generator = fn(usize, &mut Rng) -> Vec<u8>;

/// The built-in samples, `len` bytes each, as (name, data): `text`, `logs`, `json`, `runs`
/// (1-300 long) and `random`, each from its own seed.
pub fn builtin(len: usize) -> Vec<(String, Vec<u8>)> {
    let generators: [(&str, Generator); 5] = [
        ("text", text),
        ("logs", logs),
        ("json", json),
        ("runs", |len, rng| runs(len, 300, rng)),
        ("random", random),
    ];
    generators
        .iter()
        .enumerate()
        .map(|(seed, (name, generate))| {
            let mut rng = Rng::new(seed as u64 + 1);
            ((*name).to_string(), generate(len, &mut rng))
        })
        .collect()
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
