//! `block::decompress_partial` against liblz4's `LZ4_decompress_safe_partial` and across every
//! available kernel: every target length of small blocks (sampled for big ones), corrupt and
//! truncated blocks, hand-built blocks with offsets 1-64 and lengths 14/15/270 around the target,
//! and canaries after the target that must never be written.
//!
//! The one allowed difference from liblz4: offset 0 (liblz4 copies stale bytes, we return
//! `Error::OffsetZero`).

use lz4_simd::block::{self, Decoder};
use lz4_simd::{Error, Kernel};
use testkit::parse::encode_block;
use testkit::samples::XorShift as Rng;

/// liblz4's partial decode of the first `target` bytes, or `None` for its error.
fn liblz4_partial(src: &[u8], target: usize) -> Option<Vec<u8>> {
    testkit::liblz4::decompress_partial(src, target)
}

const CANARY: usize = 64;

/// Our partial decode with `decoder` into a buffer of `target` bytes followed by canaries, with
/// `fill` in every byte first; checks the canaries and returns the result.
fn ours(decoder: Decoder, src: &[u8], target: usize, fill: u8) -> Result<Vec<u8>, Error> {
    let mut buf = vec![fill; target + CANARY];
    let result = decoder.decompress_partial(src, &mut buf[..target]);
    assert!(
        buf[target..].iter().all(|&b| b == fill),
        "{:?} wrote past the target {target}",
        decoder.kernel()
    );
    result.map(|n| {
        assert!(n <= target);
        buf[..n].to_vec()
    })
}

fn decoders() -> Vec<Decoder> {
    let decoders: Vec<Decoder> = Kernel::available()
        .into_iter()
        .map(|kernel| Decoder::with_kernel(kernel).unwrap())
        .collect();
    assert!(!decoders.is_empty());
    decoders
}

/// Every kernel gives the same result (whatever the buffer held before), and that result is
/// liblz4's, except that offset 0 is an error.
fn check(decoders: &[Decoder], src: &[u8], target: usize) {
    let first = ours(decoders[0], src, target, 0x00);
    for &decoder in decoders {
        for fill in [0x00, 0xA5] {
            assert_eq!(
                ours(decoder, src, target, fill),
                first,
                "{:?} (fill {fill:#x}) differs from {:?}, target {target}, block {src:02x?}",
                decoder.kernel(),
                decoders[0].kernel()
            );
        }
    }
    let theirs = liblz4_partial(src, target);
    match (&first, &theirs) {
        (Ok(ours), Some(theirs)) => assert_eq!(ours, theirs, "target {target}, block {src:02x?}"),
        (Err(_), None) => {}
        (Err(Error::OffsetZero { .. }), Some(_)) => {}
        _ => panic!(
            "verdicts differ at target {target}: ours {:?}, liblz4 {:?}, block {src:02x?}",
            first.as_ref().map(Vec::len),
            theirs.as_ref().map(Vec::len)
        ),
    }
    // The free function is the detected kernel's.
    let mut out = vec![0u8; target];
    assert_eq!(
        block::decompress_partial(src, &mut out).map(|n| out[..n].to_vec()),
        first
    );
}

/// Compressible text with runs, repeats at many distances, and noise.
fn sample(len: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng(seed | 1);
    let words: [&[u8]; 6] = [b"lorem ", b"ipsum ", b"dolor ", b"sit ", b"amet, ", b"\n"];
    let mut out = Vec::with_capacity(len + 16);
    while out.len() < len {
        match rng.below(8) {
            0 => out.extend(std::iter::repeat_n(rng.next_u64() as u8, 1 + rng.below(40))),
            1 => out.push(rng.next_u64() as u8),
            2 if out.len() > 70 => {
                let start = out.len() - 1 - rng.below(70);
                for i in 0..4 + rng.below(30) {
                    out.push(out[start + i % (out.len() - start)]);
                }
            }
            _ => out.extend_from_slice(words[rng.below(words.len())]),
        }
    }
    out.truncate(len);
    out
}

#[test]
fn every_target_of_small_blocks() {
    let decoders = decoders();
    for len in (0..40).chain([64, 100, 255, 300, 777]) {
        let data = sample(len, len as u64 + 7);
        let src = block::compress(&data).unwrap();
        for target in 0..=len + 3 {
            check(&decoders, &src, target);
        }
    }
}

#[test]
fn sampled_targets_of_big_blocks() {
    let decoders = decoders();
    let mut rng = Rng(0x5eed);
    for (len, seed) in [(70_000, 1), (300_000, 2)] {
        let data = sample(len, seed);
        for src in [
            block::compress(&data).unwrap(),
            block::compress_hc(&data, 9).unwrap(),
            block::compress_fast(&data, 20).unwrap(),
        ] {
            let mut targets: Vec<usize> = (0..200).chain(len - 100..=len + 2).collect();
            targets.extend((0..300).map(|_| rng.below(len + 1)));
            for target in targets {
                check(&decoders, &src, target);
            }
        }
    }
}

#[test]
fn corrupt_and_truncated_blocks() {
    let decoders = decoders();
    let mut rng = Rng(0xc0ffee);
    for len in [20, 200, 3000] {
        let data = sample(len, len as u64);
        let src = block::compress(&data).unwrap();
        for round in 0..600 {
            let mut bad = src.clone();
            for _ in 0..1 + round % 3 {
                let pos = rng.below(bad.len());
                bad[pos] = rng.next_u64() as u8;
            }
            let cut = rng.below(bad.len() + 1);
            let target = rng.below(len + 20);
            check(&decoders, &bad, target);
            check(&decoders, &bad[..cut], target);
            check(&decoders, &src[..cut], target);
            check(&decoders, &src[..cut], len);
        }
        // Every truncation point, at a few targets.
        for cut in 0..=src.len() {
            for target in [1, len / 2, len, len + 5] {
                check(&decoders, &src[..cut], target);
            }
        }
    }
}

/// Encodes a block from (literals, offset, match length) sequences and final literals.
fn encode(sequences: &[(&[u8], usize, usize)], last: &[u8]) -> Vec<u8> {
    encode_block(sequences, last, 0)
}

#[test]
fn offsets_and_lengths_around_the_target() {
    let decoders = decoders();
    let text: Vec<u8> = (0..400u32).map(|i| (i * 7 + i / 13) as u8).collect();
    for offset in (1..=64).chain([100, 300]) {
        for match_len in [4, 5, 14, 15, 18, 19, 20, 64, 270, 271] {
            for literal_len in [0usize, 1, 14, 15, 16, 270] {
                let head = &text[..literal_len.max(offset)];
                let seqs = [
                    (head, offset, match_len),
                    (&text[..literal_len], offset, match_len),
                ];
                for last in [&text[..0], &text[..3], &text[..20]] {
                    let src = encode(&seqs, last);
                    let total = 2 * match_len + head.len() + literal_len + last.len();
                    let targets = [
                        0,
                        1,
                        head.len().saturating_sub(1),
                        head.len(),
                        head.len() + 1,
                        head.len() + match_len - 1,
                        head.len() + match_len,
                        head.len() + match_len + 1,
                        total - last.len(),
                        total.saturating_sub(1),
                        total,
                        total + 1,
                    ];
                    for target in targets {
                        check(&decoders, &src, target);
                        // Without the final literals, and cut inside them.
                        check(&decoders, &src[..src.len() - last.len()], target);
                        check(&decoders, &src[..src.len() - last.len() / 2], target);
                    }
                }
            }
        }
    }
}

#[test]
fn edge_cases() {
    let decoders = decoders();
    // Target 0: 0 without reading the input, even an empty or garbage one.
    for src in [&[][..], &[0xFF], &[0x00], &[0x1F, 0x41, 0x00, 0x00]] {
        check(&decoders, src, 0);
        check(&decoders, src, 1);
        check(&decoders, src, 10);
    }
    // Offset 0: liblz4 accepts it, we do not.
    let zero = encode(&[(b"abcdefgh", 0, 20)], b"tail!");
    for target in 0..40 {
        let ours = ours(decoders[0], &zero, target, 0);
        if target > 8 {
            assert!(matches!(ours, Err(Error::OffsetZero { .. })), "{ours:?}");
        } else {
            assert_eq!(ours.unwrap(), &b"abcdefgh"[..target]);
        }
        check(&decoders, &zero, target);
    }
    // A block whose second half is garbage decodes its first half.
    let data = sample(4000, 99);
    let mut src = block::compress(&data).unwrap();
    let half = src.len() / 2;
    src[half..].fill(0xFF);
    for target in [10, 100, 1000, 1500] {
        check(&decoders, &src, target);
    }
}
