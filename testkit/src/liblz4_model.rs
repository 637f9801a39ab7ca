//! A model of liblz4 1.10's `LZ4_decompress_safe` end-of-block checks: which margin makes it
//! reject a block our rules accept (pure Rust; [`crate::decoder_rule`] checks it against the real
//! library).

use crate::parse::ParsedBlock;

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
