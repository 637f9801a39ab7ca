//! The shared test harness: liblz4 (through `lz4-sys`) wrappers, the Silesia corpus loader, and
//! generated sample data.
#![allow(dead_code)]

use std::os::raw::{c_char, c_int};
use std::path::PathBuf;
use std::sync::OnceLock;

/// liblz4 1.10 `LZ4_compress_fast` into a bound-sized buffer.
pub fn liblz4_compress_fast(src: &[u8], acceleration: i32) -> Vec<u8> {
    let bound = unsafe { lz4_sys::LZ4_compressBound(src.len() as c_int) } as usize;
    let mut out = vec![0u8; bound.max(1)];
    let n = unsafe {
        lz4_sys::LZ4_compress_fast(
            src.as_ptr() as *const c_char,
            out.as_mut_ptr() as *mut c_char,
            src.len() as c_int,
            out.len() as c_int,
            acceleration as c_int,
        )
    };
    assert!(n > 0 || src.is_empty(), "liblz4 failed to compress {} bytes", src.len());
    out.truncate(n as usize);
    out
}

/// liblz4 1.10 `LZ4_compress_HC` at `level`.
pub fn liblz4_compress_hc(src: &[u8], level: i32) -> Vec<u8> {
    let bound = unsafe { lz4_sys::LZ4_compressBound(src.len() as c_int) } as usize;
    let mut out = vec![0u8; bound.max(1)];
    let n = unsafe {
        lz4_sys::LZ4_compress_HC(
            src.as_ptr() as *const c_char,
            out.as_mut_ptr() as *mut c_char,
            src.len() as c_int,
            out.len() as c_int,
            level as c_int,
        )
    };
    assert!(n > 0, "liblz4 HC failed to compress {} bytes", src.len());
    out.truncate(n as usize);
    out
}

/// liblz4 1.10 `LZ4_decompress_safe` into a buffer of exactly `capacity` bytes.
/// Returns `None` when liblz4 rejects the block.
pub fn liblz4_decompress_safe(src: &[u8], capacity: usize) -> Option<Vec<u8>> {
    let mut out = vec![0u8; capacity];
    // LZ4_decompress_safe takes int sizes; anything larger is outside what it can express.
    if src.len() > i32::MAX as usize || capacity > i32::MAX as usize {
        return None;
    }
    let n = unsafe {
        lz4_sys::LZ4_decompress_safe(
            src.as_ptr() as *const c_char,
            out.as_mut_ptr() as *mut c_char,
            src.len() as c_int,
            capacity as c_int,
        )
    };
    if n < 0 {
        return None;
    }
    out.truncate(n as usize);
    Some(out)
}

/// The directory holding the Silesia `*.zip` files (`../shared/corpus` beside the repo root), or
/// `LZ4_SIMD_CORPUS` if set.
pub fn corpus_dir() -> PathBuf {
    if let Ok(dir) = std::env::var("LZ4_SIMD_CORPUS") {
        return PathBuf::from(dir);
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus")
}

/// The Silesia files as (name, bytes), unzipped in memory. Empty (with a printed notice) when the
/// corpus folder is absent.
pub fn corpus() -> &'static [(String, Vec<u8>)] {
    static CORPUS: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let dir = corpus_dir();
        let mut files = Vec::new();
        let Ok(entries) = std::fs::read_dir(&dir) else {
            eprintln!("NOTICE: corpus folder {} absent; skipping Silesia cases", dir.display());
            return files;
        };
        let mut zips: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "zip"))
            .collect();
        zips.sort();
        for path in zips {
            let file = std::fs::File::open(&path).expect("open corpus zip");
            let mut archive = zip::ZipArchive::new(file).expect("read corpus zip");
            for i in 0..archive.len() {
                let mut entry = archive.by_index(i).expect("zip entry");
                if entry.is_dir() {
                    continue;
                }
                let mut data = Vec::with_capacity(entry.size() as usize);
                std::io::copy(&mut entry, &mut data).expect("unzip corpus entry");
                let full_name = entry.name().expect("zip entry name").to_string();
                let name = full_name
                    .rsplit('/')
                    .next()
                    .unwrap_or("corpus")
                    .to_string();
                files.push((name, data));
            }
        }
        if files.is_empty() {
            eprintln!("NOTICE: no corpus files in {}; skipping Silesia cases", dir.display());
        }
        files
    })
}

/// A small deterministic PRNG (xorshift64*), so generated data needs no extra dependency.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next_u64() as u8).collect()
    }
}

/// Generated inputs of the kinds the issue names: random, two-symbol text, repeated log lines,
/// runs. `len` bytes each, deterministic for a seed.
pub fn generated(kind: &str, len: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    match kind {
        "random" => rng.bytes(len),
        "two-symbol" => (0..len).map(|_| if rng.below(2) == 0 { b'a' } else { b'b' }).collect(),
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
        "runs" => {
            let mut out = Vec::with_capacity(len);
            while out.len() < len {
                let byte = rng.next_u64() as u8;
                let run = 1 + rng.below(300) as usize;
                out.extend(std::iter::repeat_n(byte, run.min(len - out.len())));
            }
            out
        }
        other => panic!("unknown generated kind {other}"),
    }
}

pub const GENERATED_KINDS: [&str; 4] = ["random", "two-symbol", "log-lines", "runs"];
