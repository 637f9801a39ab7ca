//! Random valid blocks and random corruptions of blocks, for the random and hostile sweeps.

use testkit::parse::parse_block;
use testkit::{BlockBuilder, Rng};

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
pub fn random_block(rng: &mut Rng, max_sequences: u64) -> (Vec<u8>, Vec<u8>) {
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

/// One random corruption of `src`: bit flips, byte sets, truncation, insertion, deletion, or a
/// targeted change of a token nibble, length extension or offset of a parsed sequence.
pub fn mutate(rng: &mut Rng, src: &[u8]) -> Vec<u8> {
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
