//! A streaming XXH32 (seed 0) whose four-lane stripe state the fast compressor can advance from
//! inside its parse: the content checksum of frames with independent fast blocks
//! ([`Compressor::compress_into_hashing`](super::Compressor::compress_into_hashing)).
//!
//! Why not xxhash-rust's `Xxh32` there: its lanes, length and partial-stripe buffer are private,
//! so nothing outside it can hash stripes and continue its state. This hasher keeps the same
//! state in the open ([`Lanes`] and the length) and gives the same digests (tested against
//! xxhash-rust on random lengths and splits); everywhere else the crate's `Xxh32` is used.
//!
//! XXH32 in short: the content is cut into 16-byte stripes from its start; each stripe's four
//! little-endian words go to four lanes (`acc = rotl(acc + word * P2, 13) * P1`); the digest
//! merges the lanes (or takes `seed + P5` for content under 16 bytes), adds the length (mod
//! 2^32), then the remaining words and bytes, and mixes.

const P1: u32 = 0x9E37_79B1;
const P2: u32 = 0x85EB_CA77;
const P3: u32 = 0xC2B2_AE3D;
const P4: u32 = 0x27D4_EB2F;
const P5: u32 = 0x1656_67B1;

/// Bytes per stripe.
pub(crate) const STRIPE: usize = 16;

/// The four accumulators of XXH32.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Lanes([u32; 4]);

impl Lanes {
    /// The lanes of seed 0.
    pub(crate) const SEED_0: Self = Self([P1.wrapping_add(P2), P2, 0, 0u32.wrapping_sub(P1)]);

    /// Hashes one stripe, given as its four little-endian words.
    #[inline(always)]
    pub(crate) fn stripe(&mut self, words: [u32; 4]) {
        for (acc, word) in self.0.iter_mut().zip(words) {
            *acc = acc
                .wrapping_add(word.wrapping_mul(P2))
                .rotate_left(13)
                .wrapping_mul(P1);
        }
    }

    /// Hashes the stripe at `bytes[..16]`.
    #[inline(always)]
    fn stripe_at(&mut self, bytes: &[u8]) {
        let word =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        self.stripe([word(0), word(4), word(8), word(12)]);
    }
}

/// A streaming XXH32 with seed 0: equal to `xxhash_rust::xxh32::Xxh32::new(0)` fed the same bytes.
#[derive(Clone, Debug)]
pub(crate) struct ContentHasher {
    lanes: Lanes,
    /// Bytes fed so far.
    total: u64,
    /// The bytes of the current partial stripe (`total % 16` of them).
    buffer: [u8; STRIPE],
}

impl Default for ContentHasher {
    fn default() -> Self {
        Self::new()
    }
}

impl ContentHasher {
    /// A hasher with no bytes fed.
    pub(crate) const fn new() -> Self {
        Self {
            lanes: Lanes::SEED_0,
            total: 0,
            buffer: [0; STRIPE],
        }
    }

    /// Bytes fed so far.
    pub(crate) fn fed(&self) -> u64 {
        self.total
    }

    /// Bytes in the partial-stripe buffer.
    fn buffered(&self) -> usize {
        (self.total % STRIPE as u64) as usize
    }

    /// Feeds `input`.
    pub(crate) fn update(&mut self, mut input: &[u8]) {
        let buffered = self.buffered();
        self.total += input.len() as u64;
        if buffered > 0 {
            let fill = (STRIPE - buffered).min(input.len());
            self.buffer[buffered..buffered + fill].copy_from_slice(&input[..fill]);
            input = &input[fill..];
            if buffered + fill < STRIPE {
                return;
            }
            let buffer = self.buffer;
            self.lanes.stripe_at(&buffer);
        }
        let mut stripes = input.chunks_exact(STRIPE);
        for stripe in &mut stripes {
            self.lanes.stripe_at(stripe);
        }
        let rest = stripes.remainder();
        self.buffer[..rest.len()].copy_from_slice(rest);
    }

    /// The lanes, for a caller that hashes the next stripes itself, when no partial stripe is
    /// buffered (the next byte fed starts a stripe); then [`absorbed`](Self::absorbed) says how
    /// many bytes it hashed.
    pub(crate) fn lanes(&self) -> Option<Lanes> {
        (self.buffered() == 0).then_some(self.lanes)
    }

    /// Takes `lanes`, obtained from [`lanes`](Self::lanes) and advanced by the `len` bytes (a
    /// multiple of 16) that follow those already fed.
    pub(crate) fn absorbed(&mut self, lanes: Lanes, len: usize) {
        debug_assert!(self.buffered() == 0 && len.is_multiple_of(STRIPE));
        self.lanes = lanes;
        self.total += len as u64;
    }

    /// [`update`](Self::update) for input that is likely not in the cache: asks for each line
    /// [`AHEAD`](Self::AHEAD) bytes before it is hashed ([`kernel::prefetch`]).
    ///
    /// XXH32 asks for its input too late by itself where the hardware prefetcher does not bring
    /// it soon enough: 64 MiB of Silesia hash from memory in 35-36 ms (1.9 GB/s), and in
    /// 10.0-10.5 ms with each 64-byte line asked for 4 KiB ahead (256 / 1024 bytes ahead: 26 /
    /// 11.6 ms; from L1/L2, 9 ms). Intel Xeon family 6 model 167, 2 vCPUs, 2026-12-05, `77f5a95`.
    ///
    /// [`kernel::prefetch`]: crate::kernel::prefetch
    #[cfg(feature = "parallel")]
    pub(crate) fn update_ahead(&mut self, input: &[u8]) {
        self.feed_lines(input, input, |_| {});
    }

    /// Copies `content[..out.len()]` into `out` and feeds it, in one pass: equal to
    /// `out.copy_from_slice(&content[..out.len()])` then [`update_ahead`](Self::update_ahead),
    /// and asks for `content` up to [`AHEAD`](Self::AHEAD) bytes beyond each line copied (past
    /// `out.len()`, for the next call). For the parallel decoder's hand-out.
    ///
    /// XXH32 is bound by the latency of its lanes' multiply chain (about 5 cycles per 16-byte
    /// stripe), so the loads and stores of a copy done in the same loop take no time of their
    /// own: a content handed out and hashed costs the hash alone. 64 MiB from memory in 8 KiB
    /// pieces: copied then hashed, 16-17 ms; in one pass with the prefetch, 10.1-10.8 ms (without
    /// it 31-33 ms); hashing alone from L1, 9.5 ms (Intel Xeon family 6 model 167, 2 vCPUs,
    /// 2026-12-06, `08567c1`).
    #[cfg(feature = "parallel")]
    pub(crate) fn update_copying(&mut self, content: &[u8], out: &mut [u8]) {
        let mut at = 0;
        self.feed_lines(&content[..out.len()], content, |piece| {
            out[at..at + piece.len()].copy_from_slice(piece);
            at += piece.len();
        });
    }

    /// Appends `content[..len]` to `dst` and feeds it, in one pass (as
    /// [`update_copying`](Self::update_copying), which it is for a growing `Vec`: `content` past
    /// `len` is asked for ahead): for the parallel encoder, which gathers the content into
    /// blocks, and the parallel decoder's `read_to_end`. Done apart, as
    /// `dst.extend_from_slice(..)` and then `update_ahead(&dst[start..])`, the copy's time and
    /// the hash's add up; here the copy runs in the slack of the hash (the caller's copy and
    /// hash of a 64 MiB frame in 4 MiB blocks: 19.6-19.9 -> 11.7-13.3 ms).
    #[cfg(feature = "parallel")]
    pub(crate) fn extend_hashing(
        &mut self,
        dst: &mut alloc::vec::Vec<u8>,
        content: &[u8],
        len: usize,
    ) {
        dst.reserve(len);
        self.feed_lines(&content[..len], content, |piece| {
            dst.extend_from_slice(piece)
        });
    }

    /// The one loop of [`update_ahead`](Self::update_ahead),
    /// [`update_copying`](Self::update_copying) and [`extend_hashing`](Self::extend_hashing):
    /// feeds `input` a 64-byte line at a time, each asked for [`AHEAD`](Self::AHEAD) bytes
    /// before it is hashed (in `ahead`, which starts with `input` and may go on past it), and
    /// hands each piece fed, in order, to `each` while it is in L1: the lines, and the few bytes
    /// before the first (up to a stripe's start) and after the last.
    #[cfg(feature = "parallel")]
    #[inline(always)]
    fn feed_lines(&mut self, input: &[u8], ahead: &[u8], mut each: impl FnMut(&[u8])) {
        const LINE: usize = 64;
        // Not on a stripe's start: the plain way for `64 - buffered` bytes, which ends on a
        // stripe's start (a multiple of 16 fed).
        let head = if self.lanes().is_some() {
            0
        } else {
            (LINE - self.buffered()).min(input.len())
        };
        let (head, rest) = input.split_at(head);
        each(head);
        self.update(head);
        let Some(mut lanes) = self.lanes() else {
            // The input ended within the head.
            return;
        };
        let (lines, tail) = rest.as_chunks::<LINE>();
        for (index, line) in lines.iter().enumerate() {
            crate::kernel::prefetch(ahead, head.len() + index * LINE + Self::AHEAD);
            each(line);
            for stripe in line.chunks_exact(STRIPE) {
                lanes.stripe_at(stripe);
            }
        }
        self.absorbed(lanes, lines.len() * LINE);
        each(tail);
        self.update(tail);
    }

    /// How far ahead [`update_ahead`](Self::update_ahead) asks for its input.
    #[cfg(feature = "parallel")]
    pub(crate) const AHEAD: usize = 4096;

    /// The XXH32 of the bytes fed.
    pub(crate) fn digest(&self) -> u32 {
        let Lanes([v1, v2, v3, v4]) = self.lanes;
        let mut hash = if self.total >= STRIPE as u64 {
            v1.rotate_left(1)
                .wrapping_add(v2.rotate_left(7))
                .wrapping_add(v3.rotate_left(12))
                .wrapping_add(v4.rotate_left(18))
        } else {
            P5
        };
        hash = hash.wrapping_add(self.total as u32);
        let rest = &self.buffer[..self.buffered()];
        let mut words = rest.chunks_exact(4);
        for word in &mut words {
            let word = u32::from_le_bytes([word[0], word[1], word[2], word[3]]);
            hash = hash
                .wrapping_add(word.wrapping_mul(P3))
                .rotate_left(17)
                .wrapping_mul(P4);
        }
        for &byte in words.remainder() {
            hash = hash
                .wrapping_add(u32::from(byte).wrapping_mul(P5))
                .rotate_left(11)
                .wrapping_mul(P1);
        }
        hash ^= hash >> 15;
        hash = hash.wrapping_mul(P2);
        hash ^= hash >> 13;
        hash = hash.wrapping_mul(P3);
        hash ^ (hash >> 16)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xxhash_rust::xxh32::{xxh32, Xxh32};

    /// A small deterministic generator (xorshift).
    fn next(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    /// The three forms of `feed_lines` give `update`'s state on every length around the line
    /// and the read-ahead distance, from every offset within a stripe and a line (a partial
    /// stripe buffered or not): `update_ahead`; `update_copying`, which copies exactly
    /// `out.len()` bytes over whatever `out` held, with content beyond the piece (only asked
    /// for) and without; `extend_hashing`, which appends the bytes `extend_from_slice` appends,
    /// onto buffers with and without room.
    #[cfg(feature = "parallel")]
    #[test]
    fn every_form_of_feed_lines_equals_update() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let data: alloc::vec::Vec<u8> = (0..3 * ContentHasher::AHEAD)
            .map(|_| next(&mut state) as u8)
            .collect();
        let lengths = (0..150).chain(
            [ContentHasher::AHEAD, 2 * ContentHasher::AHEAD]
                .into_iter()
                .flat_map(|len| len - 70..len + 70),
        );
        for len in lengths {
            for skip in [0, 1, 15, 16, 17, 63, 64, 65] {
                let mut before = ContentHasher::new();
                before.update(&data[..skip]);
                let mut plain = before.clone();
                plain.update(&data[skip..skip + len]);
                let expected = (plain.lanes(), plain.total, plain.buffer, plain.digest());
                assert_eq!(expected.3, xxh32(&data[..skip + len], 0));
                let state = |hasher: &ContentHasher| {
                    (hasher.lanes(), hasher.total, hasher.buffer, hasher.digest())
                };
                let mut ahead = before.clone();
                ahead.update_ahead(&data[skip..skip + len]);
                assert_eq!(
                    state(&ahead),
                    expected,
                    "update_ahead: len {len}, after {skip}"
                );
                for beyond in [0, 1, 100, ContentHasher::AHEAD] {
                    let mut copying = before.clone();
                    let mut out = alloc::vec![0xA5u8; len];
                    let content = &data[skip..(skip + len + beyond).min(data.len())];
                    copying.update_copying(content, &mut out);
                    assert_eq!(out, &data[skip..skip + len], "len {len}, after {skip}");
                    assert_eq!(state(&copying), expected, "update_copying: len {len}");
                }
                for (room, beyond) in [(0, 0), (len + skip, 0), (0, 100), (len + skip, 1)] {
                    let mut extending = before.clone();
                    let mut copied = alloc::vec::Vec::with_capacity(room);
                    copied.extend_from_slice(&data[..skip]);
                    let content = &data[skip..(skip + len + beyond).min(data.len())];
                    extending.extend_hashing(&mut copied, content, len);
                    assert_eq!(copied, &data[..skip + len], "len {len}, after {skip}");
                    assert_eq!(state(&extending), expected, "extend_hashing: len {len}");
                }
            }
        }
    }

    #[test]
    fn equals_xxhash_rust_on_every_short_length_and_random_splits() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let data: alloc::vec::Vec<u8> = (0..5000).map(|_| next(&mut state) as u8).collect();
        for len in (0..200).chain([255, 256, 257, 1023, 1024, 1025, 4096, 4999, 5000]) {
            let content = &data[..len];
            let mut ours = ContentHasher::new();
            ours.update(content);
            assert_eq!(ours.digest(), xxh32(content, 0), "len {len}");
            // The same bytes in random pieces, some of them hashed as stripes from outside.
            for _ in 0..8 {
                let mut ours = ContentHasher::new();
                let mut theirs = Xxh32::new(0);
                let mut pos = 0;
                while pos < len {
                    let piece = (next(&mut state) as usize % 70).min(len - pos);
                    let bytes = &content[pos..pos + piece];
                    theirs.update(bytes);
                    match ours.lanes() {
                        Some(mut lanes) if next(&mut state).is_multiple_of(2) => {
                            let fused = piece / STRIPE * STRIPE;
                            for stripe in bytes[..fused].chunks_exact(STRIPE) {
                                lanes.stripe_at(stripe);
                            }
                            ours.absorbed(lanes, fused);
                            ours.update(&bytes[fused..]);
                        }
                        _ => ours.update(bytes),
                    }
                    pos += piece;
                    assert_eq!(ours.digest(), theirs.digest(), "len {len}, at {pos}");
                }
            }
        }
    }
}
