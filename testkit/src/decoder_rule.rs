//! The decoder differential rule: our block decoder against the naive decoder (the documented
//! acceptance rules), liblz4's `LZ4_decompress_safe`, and the model of liblz4's margins, at many
//! capacities.

use crate::liblz4;
use crate::liblz4_model::{liblz4_model, Lz4Margin};
use crate::parse::{naive_decode, parse_block};

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
        let theirs = liblz4::decompress_safe(block, cap);
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
