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
    assert!(
        n > 0 || src.is_empty(),
        "liblz4 failed to compress {} bytes",
        src.len()
    );
    out.truncate(n as usize);
    out
}

/// liblz4 1.10 `LZ4_compress_HC` at `level`.
pub fn liblz4_compress_hc(src: &[u8], level: i32) -> Vec<u8> {
    let bound = unsafe { lz4_sys::LZ4_compressBound(src.len() as c_int) } as usize;
    let mut out = vec![0u8; bound.max(1)];
    // liblz4's optimal parser (levels 10-12) has no minimum-length guard and computes `end - 12`
    // from the source pointer: give an empty input a real address, not a dangling one.
    let real = [0u8; 1];
    let src_ptr = if src.is_empty() {
        real.as_ptr()
    } else {
        src.as_ptr()
    };
    let n = unsafe {
        lz4_sys::LZ4_compress_HC(
            src_ptr as *const c_char,
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
            eprintln!(
                "NOTICE: corpus folder {} absent; skipping Silesia cases",
                dir.display()
            );
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
                let name = full_name.rsplit('/').next().unwrap_or("corpus").to_string();
                files.push((name, data));
            }
        }
        if files.is_empty() {
            eprintln!(
                "NOTICE: no corpus files in {}; skipping Silesia cases",
                dir.display()
            );
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

// ---------------------------------------------------------------------------------------------
// liblz4 extras
// ---------------------------------------------------------------------------------------------

/// liblz4 `LZ4_decompress_safe` into `dst` (the whole slice is the capacity). Returns the decoded
/// length, or `None` when liblz4 rejects the block.
pub fn liblz4_decompress_safe_into(src: &[u8], dst: &mut [u8]) -> Option<usize> {
    if src.len() > i32::MAX as usize || dst.len() > i32::MAX as usize {
        return None;
    }
    let n = unsafe {
        lz4_sys::LZ4_decompress_safe(
            src.as_ptr() as *const c_char,
            dst.as_mut_ptr() as *mut c_char,
            src.len() as c_int,
            dst.len() as c_int,
        )
    };
    usize::try_from(n).ok()
}

/// The acceleration liblz4 actually uses for `acceleration` (as passed to our API): below 1
/// counts as 1, above 65537 as 65537. Useful to call `liblz4_compress_fast` with an `i32`.
pub fn liblz4_acceleration(acceleration: u32) -> i32 {
    acceleration.clamp(1, 65537) as i32
}

// ---------------------------------------------------------------------------------------------
// An independent block parser
// ---------------------------------------------------------------------------------------------

/// One sequence of a block as the parser lists it. Positions are input offsets (`*_pos`,
/// `literal_start`, `end_pos`) or output offsets (`out_pos`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seq {
    /// Input offset of the token.
    pub token_pos: usize,
    /// The token byte.
    pub token: u8,
    /// Input offset of the first literal (after any literal-length extension).
    pub literal_start: usize,
    pub literal_len: usize,
    /// Output offset of the first literal.
    pub out_pos: usize,
    /// `None` for the final, literal-only sequence.
    pub offset: Option<usize>,
    /// Match length including the implicit 4 (0 for the final sequence).
    pub match_len: usize,
    /// Input offset just after the sequence (after the match-length extension).
    pub end_pos: usize,
}

impl Seq {
    /// Output offset where this sequence's match starts.
    pub fn match_start(&self) -> usize {
        self.out_pos + self.literal_len
    }
    /// Input offset just after the literals.
    pub fn literal_end(&self) -> usize {
        self.literal_start + self.literal_len
    }
}

/// How parsing a block ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseEnd {
    /// The block ends exactly after a literal-only sequence.
    Complete,
    /// The block is malformed at `input_pos` (structure only: offsets and capacities are not
    /// checked by the parser).
    Malformed {
        input_pos: usize,
        what: &'static str,
    },
}

/// The sequences of a block, listed without decoding.
#[derive(Debug, Clone)]
pub struct ParsedBlock {
    pub seqs: Vec<Seq>,
    pub end: ParseEnd,
    /// Output bytes the listed sequences produce (saturating).
    pub decoded_len: usize,
}

/// Lists the sequences of `block` (an independent, simple reading of the format).
pub fn parse_block(block: &[u8]) -> ParsedBlock {
    let mut seqs = Vec::new();
    let mut ip = 0usize;
    let mut op = 0usize;
    let malformed = |seqs, op, input_pos, what| ParsedBlock {
        seqs,
        end: ParseEnd::Malformed { input_pos, what },
        decoded_len: op,
    };
    if block.is_empty() {
        return malformed(seqs, op, 0, "empty");
    }
    // Reads a 255-run extension; `None` if the input ends inside it.
    fn extension(block: &[u8], ip: &mut usize) -> Option<usize> {
        let mut total = 0usize;
        loop {
            let byte = *block.get(*ip)?;
            *ip += 1;
            total = total.saturating_add(byte as usize);
            if byte != 255 {
                return Some(total);
            }
        }
    }
    loop {
        let token_pos = ip;
        let token = block[ip];
        ip += 1;
        let mut literal_len = (token >> 4) as usize;
        if literal_len == 15 {
            match extension(block, &mut ip) {
                Some(more) => literal_len = literal_len.saturating_add(more),
                None => return malformed(seqs, op, token_pos, "truncated literal length"),
            }
        }
        let literal_start = ip;
        if literal_len > block.len() - ip {
            return malformed(seqs, op, ip, "literals past input");
        }
        ip += literal_len;
        let out_pos = op;
        op = op.saturating_add(literal_len);
        if ip == block.len() {
            seqs.push(Seq {
                token_pos,
                token,
                literal_start,
                literal_len,
                out_pos,
                offset: None,
                match_len: 0,
                end_pos: ip,
            });
            return ParsedBlock {
                seqs,
                end: ParseEnd::Complete,
                decoded_len: op,
            };
        }
        if block.len() - ip < 2 {
            return malformed(seqs, op, ip, "truncated offset");
        }
        let offset = block[ip] as usize | (block[ip + 1] as usize) << 8;
        ip += 2;
        let mut match_len = (token & 15) as usize;
        if match_len == 15 {
            match extension(block, &mut ip) {
                Some(more) => match_len = match_len.saturating_add(more),
                None => return malformed(seqs, op, token_pos, "truncated match length"),
            }
        }
        match_len = match_len.saturating_add(4);
        seqs.push(Seq {
            token_pos,
            token,
            literal_start,
            literal_len,
            out_pos,
            offset: Some(offset),
            match_len,
            end_pos: ip,
        });
        op = op.saturating_add(match_len);
        if ip == block.len() {
            return malformed(seqs, op, ip, "ends after a match");
        }
    }
}

impl ParsedBlock {
    pub fn is_complete(&self) -> bool {
        self.end == ParseEnd::Complete
    }
    /// Whether any listed sequence has offset 0.
    pub fn has_offset_zero(&self) -> bool {
        self.seqs.iter().any(|s| s.offset == Some(0))
    }
    /// The sequences that have a match.
    pub fn matches(&self) -> impl Iterator<Item = &Seq> {
        self.seqs.iter().filter(|s| s.offset.is_some())
    }
    /// The final literal run's length (complete blocks only).
    pub fn last_literal_len(&self) -> Option<usize> {
        if self.is_complete() {
            self.seqs.last().map(|s| s.literal_len)
        } else {
            None
        }
    }
    /// How many bytes before the end of the decoded output the last match starts (complete
    /// blocks with at least one match).
    pub fn last_match_start_from_end(&self) -> Option<usize> {
        let last = self.matches().last()?;
        self.is_complete()
            .then(|| self.decoded_len - last.match_start())
    }
    /// The format's end-of-block margins, judged against the decoded size: a block with a match
    /// must end with at least LASTLITERALS (5) literals, and its last match must start at least
    /// MFLIMIT (12) bytes before the end. (A literal-only block has no margin to respect.)
    pub fn satisfies_margins(&self) -> bool {
        if !self.is_complete() {
            return false;
        }
        match self.last_match_start_from_end() {
            None => true,
            Some(from_end) => self.last_literal_len().unwrap() >= 5 && from_end >= 12,
        }
    }
}

/// Encodes a block from its sequences: each `(literals, offset, match_len)` (offset written as
/// given, even 0; `match_len >= 4`), then the final literal run. `final_match_nibble` goes into
/// the last token's low nibble (decoders must ignore it).
pub fn encode_block(
    seqs: &[(Vec<u8>, usize, usize)],
    final_literals: &[u8],
    final_match_nibble: u8,
) -> Vec<u8> {
    fn extension(out: &mut Vec<u8>, mut len: usize) {
        while len >= 255 {
            out.push(255);
            len -= 255;
        }
        out.push(len as u8);
    }
    let mut out = Vec::new();
    for (literals, offset, match_len) in seqs {
        assert!(*match_len >= 4 && *offset <= 0xFFFF);
        let lit_nibble = literals.len().min(15);
        let ml_nibble = (match_len - 4).min(15);
        out.push((lit_nibble << 4 | ml_nibble) as u8);
        if literals.len() >= 15 {
            extension(&mut out, literals.len() - 15);
        }
        out.extend_from_slice(literals);
        out.extend_from_slice(&(*offset as u16).to_le_bytes());
        if match_len - 4 >= 15 {
            extension(&mut out, match_len - 4 - 15);
        }
    }
    let lit_nibble = final_literals.len().min(15);
    out.push((lit_nibble << 4) as u8 | (final_match_nibble & 15));
    if final_literals.len() >= 15 {
        extension(&mut out, final_literals.len() - 15);
    }
    out.extend_from_slice(final_literals);
    out
}

/// A byte-by-byte decoder written from the rules in `src/block/mod.rs`'s documentation:
/// non-empty input, complete lengths, literals within the input, complete offsets, no offset 0,
/// no offset before the start, nothing past `capacity`, the block ends exactly after a
/// literal-only sequence. Returns the output or `None`.
pub fn naive_decode(block: &[u8], capacity: usize) -> Option<Vec<u8>> {
    let parsed = parse_block(block);
    if !parsed.is_complete() {
        return None;
    }
    let mut out: Vec<u8> = Vec::new();
    for seq in &parsed.seqs {
        if seq.literal_len > capacity - out.len() {
            return None;
        }
        out.extend_from_slice(&block[seq.literal_start..seq.literal_end()]);
        if let Some(offset) = seq.offset {
            if offset == 0 || offset > out.len() || seq.match_len > capacity - out.len() {
                return None;
            }
            for _ in 0..seq.match_len {
                out.push(out[out.len() - offset]);
            }
        }
    }
    Some(out)
}

// ---------------------------------------------------------------------------------------------
// A model of liblz4 1.10's `LZ4_decompress_safe` end-of-block checks
// ---------------------------------------------------------------------------------------------

/// Why liblz4 rejects a block that is otherwise well formed (complete, offsets in range and
/// non-zero, fits the capacity). Each is an end-of-block margin liblz4 checks against the end of
/// its *buffers* (input size `S`, output capacity `C`), not against the decoded size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lz4Margin {
    /// `C == 0`: liblz4 accepts only the block `00` (any other single token, e.g. `0F`, which
    /// also decodes to nothing, is rejected; with `C >= 1` it is accepted).
    ZeroCapacity,
    /// A non-final sequence, decoded by the checked loop, whose literals end less than
    /// MFLIMIT (12) bytes before the end of the output buffer: liblz4 takes it for the last
    /// sequence and fails because the input continues.
    LiteralsInOutputMargin,
    /// A non-final sequence, decoded by the checked loop, whose literals end less than 8
    /// (2 offset + 1 token + LASTLITERALS) bytes before the end of the input.
    LiteralsInInputMargin,
    /// A match, decoded by the checked loop, that ends less than LASTLITERALS (5) bytes before
    /// the end of the output buffer.
    MatchInLastLiterals,
    /// A match-length extension that ends less than 4 bytes before the end of the input.
    MatchLengthInInputMargin,
    /// A literal-length extension that ends less than 15 bytes before the end of the input
    /// (cannot happen in a block whose literals fit the input; listed for completeness).
    LiteralLengthInInputMargin,
}

/// Predicts liblz4's verdict on a block our rules accept at capacity `cap` (complete, no offset
/// 0, offsets in range, fits `cap`): `Ok(decoded_len)` or the margin it trips over.
///
/// liblz4 (x86-64 build, `LZ4_FAST_DEC_LOOP` on) decodes with two loops. The fast loop runs while
/// at least 64 bytes of output capacity remain and checks only what could make its wide copies
/// leave the buffers; once a sequence gets near either end it falls to the checked loop for good,
/// which applies the margins. Which loop decodes a sequence depends on the capacity, which is why
/// liblz4's verdict depends on spare capacity. This model follows those branches exactly.
pub fn liblz4_model(block: &[u8], parsed: &ParsedBlock, cap: usize) -> Result<usize, Lz4Margin> {
    use Lz4Margin::*;
    if cap == 0 {
        return if block == [0] {
            Ok(0)
        } else {
            Err(ZeroCapacity)
        };
    }
    let s = block.len() as i64;
    let c = cap as i64;
    let mut fast = c >= 64;
    for seq in &parsed.seqs {
        let op = seq.out_pos as i64;
        let after_token = seq.token_pos as i64 + 1;
        let lit = seq.literal_len as i64;
        let lit_start = seq.literal_start as i64;
        let lit_nibble = seq.token >> 4;
        let ml_nibble = seq.token & 15;
        let lit_ext_ok = lit_nibble != 15 || lit_start <= s - 15;
        let ml_ext_ok = ml_nibble != 15 || seq.end_pos as i64 <= s - 4;
        // Decide whether the literals go through the checked literal copy.
        let mut checked_literals = true;
        let mut checked_match = true;
        if fast {
            if lit_nibble != 15 {
                if after_token <= s - 17 {
                    checked_literals = false;
                }
            } else {
                if !lit_ext_ok {
                    return Err(LiteralLengthInInputMargin);
                }
                if !(op + lit > c - 32 || lit_start + lit > s - 32) {
                    checked_literals = false;
                }
            }
            if checked_literals {
                fast = false;
            } else {
                // Fast-loop match.
                if !ml_ext_ok {
                    return Err(MatchLengthInInputMargin);
                }
                let match_end = op + lit + seq.match_len as i64;
                if match_end >= c - 64 {
                    fast = false; // checked match copy, then the checked loop
                } else {
                    checked_match = false;
                }
            }
        } else if lit_nibble != 15 && after_token < s - 16 && op <= c - 32 {
            // The checked loop's shortcut: literals copied without checks; a short match with
            // offset >= 8 too.
            checked_literals = false;
            if ml_nibble != 15 && seq.offset.is_some_and(|o| o >= 8) {
                checked_match = false;
            }
        } else if !lit_ext_ok {
            return Err(LiteralLengthInInputMargin);
        }
        if checked_literals {
            let near_output_end = op + lit > c - 12;
            let near_input_end = lit_start + lit > s - 8;
            if near_output_end || near_input_end {
                // Taken for the last sequence.
                if seq.offset.is_none() {
                    return Ok(parsed.decoded_len);
                }
                return Err(if near_output_end {
                    LiteralsInOutputMargin
                } else {
                    LiteralsInInputMargin
                });
            }
        }
        if seq.offset.is_none() {
            unreachable!("a final sequence always takes the checked literal copy");
        }
        if checked_match {
            if !ml_ext_ok {
                return Err(MatchLengthInInputMargin);
            }
            let match_end = op + lit + seq.match_len as i64;
            if match_end > c - 5 {
                return Err(MatchInLastLiterals);
            }
        }
    }
    unreachable!("a complete block ends with a literal-only sequence")
}

// ---------------------------------------------------------------------------------------------
// The decoder differential rule
// ---------------------------------------------------------------------------------------------

/// Sentinel byte the decode buffers are pre-filled with.
pub const SENTINEL: u8 = 0xA5;
/// Bytes of backing buffer past the `dst` slice that must stay untouched.
pub const SENTINEL_TAIL: usize = 64;

/// Decodes with our decoder into a `cap`-byte slice of a larger sentinel-filled buffer, and
/// checks the documented output contract of `decompress_into`: nothing past the `dst` slice is
/// written, the result is at most `cap`, and the output does not depend on what `dst` held
/// before (decoding again into a slice pre-filled with other bytes gives the same verdict and the
/// same bytes, so no stale byte can leak). Bytes of `dst` past the decoded length may be
/// overwritten (the fast loop's wild copies), as the API documents.
pub fn ours_decode_checked(block: &[u8], cap: usize) -> Result<Vec<u8>, lz4_simd::Error> {
    let mut results = Vec::new();
    for fill in [SENTINEL, 0x00] {
        let mut backing = vec![fill; cap + SENTINEL_TAIL];
        let result = lz4_simd::block::decompress_into(block, &mut backing[..cap]);
        assert!(
            backing[cap..].iter().all(|&b| b == fill),
            "decompress_into wrote past its dst slice (cap {cap}) for block {:02x?}",
            &block[..block.len().min(64)]
        );
        results.push(result.map(|n| {
            assert!(n <= cap, "decoded {n} bytes into a {cap}-byte dst");
            backing.truncate(n);
            backing
        }));
    }
    let second = results.pop().unwrap();
    let first = results.pop().unwrap();
    assert_eq!(
        first, second,
        "verdict or output depends on the prior contents of dst (cap {cap}, block {block:02x?})"
    );
    first
}

/// Counts of what the rule check saw.
#[derive(Debug, Default, Clone)]
pub struct RuleStats {
    pub blocks: u64,
    pub decodes: u64,
    /// Both decoders accept (identical output asserted).
    pub both_accept: u64,
    /// Both reject.
    pub both_reject: u64,
    /// liblz4 accepts a block with offset 0 that we reject with `OffsetZero`.
    pub offset_zero_liblz4_accepts: u64,
    /// Blocks with offset 0 that both reject.
    pub offset_zero_both_reject: u64,
    /// We accept, liblz4 rejects, per the margin liblz4 trips over.
    pub we_accept_liblz4_rejects: std::collections::BTreeMap<Lz4Margin, u64>,
    /// Blocks lacking the margins (judged on the decoded size) that liblz4 still accepts,
    /// thanks to spare capacity.
    pub margins_violated_liblz4_accepts: u64,
    /// Decodes of blocks that satisfy the margins and have no offset 0 (verdicts identical).
    pub margins_ok_decodes: u64,
    /// Decodes where our verdict was `Ok`.
    pub ours_ok: u64,
}

impl RuleStats {
    pub fn print(&self, label: &str) {
        eprintln!("decoder rule [{label}]: {self:#?}");
    }
    pub fn merge(&mut self, other: &RuleStats) {
        self.blocks += other.blocks;
        self.decodes += other.decodes;
        self.both_accept += other.both_accept;
        self.both_reject += other.both_reject;
        self.offset_zero_liblz4_accepts += other.offset_zero_liblz4_accepts;
        self.offset_zero_both_reject += other.offset_zero_both_reject;
        for (k, v) in &other.we_accept_liblz4_rejects {
            *self.we_accept_liblz4_rejects.entry(*k).or_default() += v;
        }
        self.margins_violated_liblz4_accepts += other.margins_violated_liblz4_accepts;
        self.margins_ok_decodes += other.margins_ok_decodes;
        self.ours_ok += other.ours_ok;
    }
    pub fn rejects_for(&self, margin: Lz4Margin) -> u64 {
        self.we_accept_liblz4_rejects
            .get(&margin)
            .copied()
            .unwrap_or(0)
    }
}

fn is_overflow_error(e: &lz4_simd::Error) -> bool {
    matches!(
        e,
        lz4_simd::Error::LiteralsOverflowOutput { .. }
            | lz4_simd::Error::MatchOverflowsOutput { .. }
    )
}

/// The largest capacity the rule check uses: what the block could decode to at most.
pub fn max_capacity(block: &[u8]) -> usize {
    (block.len() * 255).min(1 << 20)
}

/// Checks the decoder differential rule for one block at several capacities:
///
/// - our verdict and output equal the naive decoder's (the documented acceptance rules);
/// - liblz4 accepts => we accept with identical output, or the block has offset 0 and our error
///   is `OffsetZero`;
/// - we accept and liblz4 rejects => the block violates the end-of-block margins (judged on the
///   decoded size), or it is the zero-capacity special case; and the liblz4 model names the
///   margin (the model must predict liblz4's verdict exactly on every block we accept);
/// - a block satisfying the margins with no offset 0 gets the same verdict from both;
/// - capacity independence: if we decode the block into a large buffer to `D` bytes, we decode
///   it identically into exactly `D` bytes (and any larger capacity), and fail with an overflow
///   error into `D - 1`.
///
/// `extra_caps` adds capacities to the default set (exact, exact ± small, +64, large).
pub fn check_decoder_rule(block: &[u8], extra_caps: &[usize], stats: &mut RuleStats) {
    stats.blocks += 1;
    let parsed = parse_block(block);
    let big = max_capacity(block);
    let reference = ours_decode_checked(block, big);
    let mut caps: Vec<usize> = extra_caps.to_vec();
    caps.push(big);
    match &reference {
        Ok(out) => {
            let d = out.len();
            assert_eq!(
                d, parsed.decoded_len,
                "decoded size differs from the parser's for {block:02x?}"
            );
            for delta in [0usize, 1, 4, 5, 11, 12, 13, 31, 32, 63, 64, 65, 100] {
                caps.push(d + delta);
            }
            if d > 0 {
                caps.push(d - 1);
            }
        }
        Err(_) => caps.extend([0, 1, 16, 64, 300]),
    }
    caps.sort_unstable();
    caps.dedup();
    for cap in caps {
        stats.decodes += 1;
        let ours = ours_decode_checked(block, cap);
        let naive = naive_decode(block, cap);
        assert_eq!(
            ours.as_ref().ok(),
            naive.as_ref(),
            "ours vs the documented rules (naive decoder), cap {cap}, block {block:02x?}, ours {ours:?}"
        );
        // Capacity independence.
        match (&reference, &ours) {
            (Ok(full), Ok(out)) => assert_eq!(full, out),
            (Ok(full), Err(e)) => assert!(
                cap < full.len() && is_overflow_error(e),
                "decodes to {} bytes with a {big}-byte dst but fails with cap {cap}: {e:?}",
                full.len()
            ),
            (Err(_), Ok(out)) => panic!(
                "fails with a {big}-byte dst but decodes to {} bytes with cap {cap}",
                out.len()
            ),
            (Err(_), Err(_)) => {}
        }
        let theirs = liblz4_decompress_safe(block, cap);
        let margins_ok = parsed.satisfies_margins() && !parsed.has_offset_zero();
        if margins_ok && !(cap == 0 && block != [0]) {
            stats.margins_ok_decodes += 1;
            assert_eq!(
                ours.is_ok(),
                theirs.is_some(),
                "margin-respecting block, cap {cap}: ours {ours:?}, block {block:02x?}"
            );
        }
        if ours.is_ok() {
            stats.ours_ok += 1;
        }
        match (ours, theirs) {
            (Ok(ours), Some(theirs)) => {
                assert_eq!(
                    ours, theirs,
                    "both accept, different output, cap {cap}, block {block:02x?}"
                );
                assert_eq!(
                    liblz4_model(block, &parsed, cap),
                    Ok(ours.len()),
                    "model disagrees (liblz4 accepts), cap {cap}, block {block:02x?}"
                );
                stats.both_accept += 1;
                if !parsed.satisfies_margins() {
                    stats.margins_violated_liblz4_accepts += 1;
                }
            }
            (Err(e), Some(_)) => {
                assert!(
                    parsed.has_offset_zero() && matches!(e, lz4_simd::Error::OffsetZero { .. }),
                    "liblz4 accepts a block we reject with {e:?} (cap {cap}, block {block:02x?})"
                );
                stats.offset_zero_liblz4_accepts += 1;
            }
            (Err(_), None) => {
                stats.both_reject += 1;
                if parsed.has_offset_zero() {
                    stats.offset_zero_both_reject += 1;
                }
            }
            (Ok(_), None) => {
                let margin = match liblz4_model(block, &parsed, cap) {
                    Err(margin) => margin,
                    Ok(_) => panic!("liblz4 rejects, the model says it accepts: cap {cap}, block {block:02x?}, {parsed:?}"),
                };
                assert!(
                    !parsed.satisfies_margins() || margin == Lz4Margin::ZeroCapacity,
                    "we accept, liblz4 rejects ({margin:?}) a block that satisfies the margins: cap {cap}, block {block:02x?}"
                );
                *stats.we_accept_liblz4_rejects.entry(margin).or_default() += 1;
            }
        }
    }
}
