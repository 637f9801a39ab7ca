//! Shared by the benches: liblz4 (through `lz4-sys`) wrappers, the corpus location, and the
//! generator pieces for the fallback data when the corpus is absent.
#![allow(dead_code)]

use std::os::raw::{c_char, c_int};
use std::path::PathBuf;

pub fn liblz4_compress_into(src: &[u8], dst: &mut [u8]) -> usize {
    // SAFETY: `src` and `dst` are valid for the lengths passed; liblz4 writes at most `dst.len()`.
    let n = unsafe {
        lz4_sys::LZ4_compress_fast(
            src.as_ptr() as *const c_char,
            dst.as_mut_ptr() as *mut c_char,
            src.len() as c_int,
            dst.len() as c_int,
            1,
        )
    };
    assert!(n > 0, "liblz4 failed to compress");
    n as usize
}

/// liblz4 `LZ4_compress_HC` at `level` into `dst` (at least the bound; `src` not empty).
pub fn liblz4_compress_hc_into(src: &[u8], dst: &mut [u8], level: i32) -> usize {
    // SAFETY: `src` and `dst` are valid for the lengths passed; liblz4 writes at most `dst.len()`.
    let n = unsafe {
        lz4_sys::LZ4_compress_HC(
            src.as_ptr() as *const c_char,
            dst.as_mut_ptr() as *mut c_char,
            src.len() as c_int,
            dst.len() as c_int,
            level as c_int,
        )
    };
    assert!(n > 0, "liblz4 HC failed to compress");
    n as usize
}

pub fn liblz4_decompress_into(src: &[u8], dst: &mut [u8]) -> usize {
    // SAFETY: `src` and `dst` are valid for the lengths passed; liblz4's safe decoder stays
    // within both.
    let n = unsafe {
        lz4_sys::LZ4_decompress_safe(
            src.as_ptr() as *const c_char,
            dst.as_mut_ptr() as *mut c_char,
            src.len() as c_int,
            dst.len() as c_int,
        )
    };
    assert!(n >= 0, "liblz4 rejected a block");
    n as usize
}

/// One input cut into `chunk`-byte blocks, with liblz4's compressed form (acceleration 1) of each:
/// what the decode benches decode.
pub struct Sample {
    pub name: String,
    pub chunks: Vec<Vec<u8>>,
    pub compressed: Vec<Vec<u8>>,
}

impl Sample {
    pub fn new(name: String, data: &[u8], chunk: usize) -> Self {
        let chunks: Vec<Vec<u8>> = data.chunks(chunk).map(<[u8]>::to_vec).collect();
        let mut buffer = vec![0u8; lz4_simd::block::compress_bound(chunk)];
        let compressed = chunks
            .iter()
            .map(|chunk| {
                let len = liblz4_compress_into(chunk, &mut buffer);
                buffer[..len].to_vec()
            })
            .collect();
        Sample {
            name,
            chunks,
            compressed,
        }
    }

    /// Uncompressed bytes.
    pub fn len(&self) -> usize {
        self.chunks.iter().map(Vec::len).sum()
    }

    pub fn compressed_len(&self) -> usize {
        self.compressed.iter().map(Vec::len).sum()
    }
}

pub fn corpus_dir() -> PathBuf {
    match std::env::var_os("LZ4_SIMD_CORPUS") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
    }
}

/// xorshift64*: deterministic generated data without another dependency.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

pub const WORDS: &[&str] = &[
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
    "this",
    "are",
    "or",
    "his",
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
    "her",
    "has",
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
    "compression",
    "block",
    "stream",
    "window",
    "literal",
    "offset",
    "sequence",
    "buffer",
    "decoder",
    "throughput",
];

/// The Silesia files found as `*.zip` in the corpus folder, as (name, first `cap` bytes).
pub fn load_corpus(cap: usize) -> Vec<(String, Vec<u8>)> {
    let dir = corpus_dir();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut zips: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "zip"))
        .collect();
    zips.sort();
    let mut files = Vec::new();
    for path in zips {
        let file = std::fs::File::open(&path).expect("open corpus zip");
        let mut archive = zip::ZipArchive::new(file).expect("read corpus zip");
        for i in 0..archive.len() {
            let mut entry = archive.by_index(i).expect("zip entry");
            if entry.is_dir() {
                continue;
            }
            let name = entry
                .name()
                .expect("zip entry name")
                .rsplit('/')
                .next()
                .unwrap_or("corpus")
                .to_string();
            let mut data = Vec::new();
            std::io::Read::read_to_end(&mut std::io::Read::take(&mut entry, cap as u64), &mut data)
                .expect("unzip corpus entry");
            files.push((name, data));
        }
    }
    files
}

/// The overlapping-match stress samples: `runs` (runs of one byte, 1-200 long) and
/// `short-offsets` (patterns of period 2-15 repeated 16-135 bytes, 0-5 literals between).
pub fn stress_samples(len: usize) -> Vec<(String, Vec<u8>)> {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut runs = Vec::with_capacity(len + 200);
    while runs.len() < len {
        let byte = rng.next() as u8;
        let run = 1 + rng.below(200) as usize;
        runs.extend(std::iter::repeat_n(byte, run));
    }
    runs.truncate(len);

    let mut short = Vec::with_capacity(len + 150);
    while short.len() < len {
        let period = 2 + rng.below(14) as usize;
        let pattern: Vec<u8> = (0..period).map(|_| rng.next() as u8).collect();
        let repeat = 16 + rng.below(120) as usize;
        short.extend(pattern.iter().cycle().take(repeat));
        for _ in 0..rng.below(6) {
            short.push(rng.next() as u8);
        }
    }
    short.truncate(len);
    vec![
        ("runs".to_string(), runs),
        ("short-offsets".to_string(), short),
    ]
}

/// Generated samples for when the corpus is absent: text-like, log lines, runs, random.
pub fn generated_samples(len: usize) -> Vec<(String, Vec<u8>)> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);

    let mut text = Vec::with_capacity(len + 64);
    while text.len() < len {
        let sentence_len = 5 + rng.below(15);
        for i in 0..sentence_len {
            let word = WORDS[rng.below(WORDS.len() as u64) as usize];
            if i == 0 {
                text.push(word.as_bytes()[0].to_ascii_uppercase());
                text.extend_from_slice(&word.as_bytes()[1..]);
            } else {
                text.push(b' ');
                text.extend_from_slice(word.as_bytes());
            }
        }
        text.extend_from_slice(if rng.below(8) == 0 { b".\n" } else { b". " });
    }
    text.truncate(len);

    let mut logs = Vec::with_capacity(len + 160);
    let mut tick = 0u64;
    while logs.len() < len {
        tick += 1 + rng.below(40);
        let level = ["INFO ", "INFO ", "INFO ", "DEBUG", "WARN "][rng.below(5) as usize];
        let line = format!(
            "2026-12-02T{:02}:{:02}:{:02}.{:03}Z {level} store::flush: segment {} flushed ({} bytes) to shard {}\n",
            (tick / 3_600_000) % 24,
            (tick / 60_000) % 60,
            (tick / 1000) % 60,
            tick % 1000,
            tick / 7,
            rng.below(1 << 20),
            rng.below(16)
        );
        logs.extend_from_slice(line.as_bytes());
    }
    logs.truncate(len);

    let mut runs = Vec::with_capacity(len);
    while runs.len() < len {
        let byte = rng.next() as u8;
        let run = (1 + rng.below(200) as usize).min(len - runs.len());
        runs.extend(std::iter::repeat_n(byte, run));
    }

    let random: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();

    vec![
        ("text".to_string(), text),
        ("logs".to_string(), logs),
        ("runs".to_string(), runs),
        ("random".to_string(), random),
    ]
}
