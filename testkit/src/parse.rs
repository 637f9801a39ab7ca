//! An independent reading of the block format, for checking the decoders and compressors without
//! trusting them: [`parse_block`] lists a block's sequences, [`encode_block`] writes a block from
//! sequences (offset 0 included), and [`naive_decode`] decodes byte by byte from the documented
//! acceptance rules.

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
        let is_final = ip == block.len();
        let (offset, match_len) = if is_final {
            (None, 0)
        } else {
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
            (Some(offset), match_len.saturating_add(4))
        };
        seqs.push(Seq {
            token_pos,
            token,
            literal_start,
            literal_len,
            out_pos,
            offset,
            match_len,
            end_pos: ip,
        });
        if is_final {
            return ParsedBlock {
                seqs,
                end: ParseEnd::Complete,
                decoded_len: op,
            };
        }
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
/// the last token's low nibble (decoders must ignore it). Literals are any byte container
/// (`Vec<u8>`, `&[u8]`).
pub fn encode_block<L: AsRef<[u8]>>(
    seqs: &[(L, usize, usize)],
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
        let literals = literals.as_ref();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_what_encode_block_writes() {
        let seqs = vec![
            (b"abcd".to_vec(), 4, 4),
            (vec![7; 15], 1, 19),
            (vec![], 30, 300),
        ];
        let block = encode_block(&seqs, b"tail!", 3);
        let parsed = parse_block(&block);
        assert!(parsed.is_complete());
        let listed: Vec<_> = parsed
            .matches()
            .map(|seq| {
                (
                    block[seq.literal_start..seq.literal_end()].to_vec(),
                    seq.offset,
                    seq.match_len,
                )
            })
            .collect();
        let expected: Vec<_> = seqs
            .iter()
            .map(|(literals, offset, match_len)| (literals.clone(), Some(*offset), *match_len))
            .collect();
        assert_eq!(listed, expected);
        assert_eq!(parsed.last_literal_len(), Some(5));
        assert_eq!(parsed.decoded_len, 4 + 4 + 15 + 19 + 300 + 5);
        assert_eq!(
            naive_decode(&block, parsed.decoded_len).map(|d| d.len()),
            Some(parsed.decoded_len)
        );
    }

    #[test]
    fn names_where_a_block_is_malformed() {
        let block = encode_block(&[(b"abcd".to_vec(), 2, 23)], b"", 0);
        let malformed = |block: &[u8]| match parse_block(block).end {
            ParseEnd::Malformed { input_pos, what } => (input_pos, what),
            ParseEnd::Complete => panic!("{block:02x?} parsed as complete"),
        };
        assert_eq!(malformed(&[]), (0, "empty"));
        assert_eq!(malformed(&block[..6]), (5, "truncated offset"));
        assert_eq!(malformed(&block[..7]), (0, "truncated match length"));
        assert_eq!(malformed(&block[..8]), (8, "ends after a match"));
        assert_eq!(malformed(&[0xF0, 255]), (0, "truncated literal length"));
        assert_eq!(malformed(&[0x30, 1]), (1, "literals past input"));
        assert!(parse_block(&block).is_complete());
    }
}
