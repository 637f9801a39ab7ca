//! Builds valid blocks from sequences, tracking what they decode to byte by byte (independently
//! of the decoders under test).

/// Builds a block from sequences, tracking what it decodes to (byte by byte, independently of
/// the decoders under test).
#[derive(Default, Clone)]
pub struct BlockBuilder {
    pub block: Vec<u8>,
    pub decoded: Vec<u8>,
}

impl BlockBuilder {
    pub fn push_extension(&mut self, mut len: usize) {
        while len >= 255 {
            self.block.push(255);
            len -= 255;
        }
        self.block.push(len as u8);
    }

    /// Appends `literals`, then a match of `match_len` bytes (>= 4) from `offset` back
    /// (1 ..= bytes decoded so far, <= 65535).
    pub fn sequence(&mut self, literals: &[u8], offset: usize, match_len: usize) -> &mut Self {
        assert!(match_len >= 4 && (1..=0xFFFF).contains(&offset));
        let literal_nibble = literals.len().min(15);
        let match_nibble = (match_len - 4).min(15);
        self.block.push((literal_nibble << 4 | match_nibble) as u8);
        if literals.len() >= 15 {
            self.push_extension(literals.len() - 15);
        }
        self.block.extend_from_slice(literals);
        self.decoded.extend_from_slice(literals);
        assert!(offset <= self.decoded.len(), "offset before the start");
        self.block.extend_from_slice(&(offset as u16).to_le_bytes());
        if match_len - 4 >= 15 {
            self.push_extension(match_len - 4 - 15);
        }
        for _ in 0..match_len {
            self.decoded.push(self.decoded[self.decoded.len() - offset]);
        }
        self
    }

    /// Appends the final, literal-only sequence; returns the block and what it decodes to.
    pub fn finish(mut self, literals: &[u8]) -> (Vec<u8>, Vec<u8>) {
        self.block.push((literals.len().min(15) << 4) as u8);
        if literals.len() >= 15 {
            self.push_extension(literals.len() - 15);
        }
        self.block.extend_from_slice(literals);
        self.decoded.extend_from_slice(literals);
        (self.block, self.decoded)
    }
}
