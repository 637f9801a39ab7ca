//! The built-in benchmark samples (`-b` with no file): English-like text, log lines, JSON
//! records, byte runs and random bytes, the same bytes on every run and platform (one small
//! PRNG, no dependency). The test kit includes this file as its generator (`samples::builtin`
//! is [`generated`]), so the library's benches and the CLI's measure the same data.

/// A small deterministic PRNG (xorshift64*), so generated data needs no dependency.
#[derive(Debug, Clone)]
pub struct Rng(pub(crate) u64);

impl Rng {
    /// A generator for `seed` (any value, 0 included).
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
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
pub fn generated(len: usize) -> Vec<(String, Vec<u8>)> {
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
