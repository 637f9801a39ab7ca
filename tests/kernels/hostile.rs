//! Hostile blocks: random corruptions of valid blocks (hand-built, liblz4's, ours; generated data
//! and Silesia slices), every truncation of valid blocks, and the `Vec` API on both.

use lz4_simd::block;
use testkit::kernels::for_each_kernel;
use testkit::samples::{generated, GENERATED_KINDS};
use testkit::{corpus, liblz4, Rng};

use crate::blocks::{mutate, random_block};
use crate::harness::{compare, decode, reproducer, REFERENCE};
use crate::rounds;

/// Valid blocks to corrupt, with their decoded sizes: random hand-built blocks, and liblz4 (fast
/// and HC) and our compressor's blocks of generated data and Silesia slices.
fn hostile_bases(rng: &mut Rng, random_blocks: usize) -> Vec<(Vec<u8>, usize)> {
    let mut bases = Vec::new();
    for i in 0..random_blocks {
        let (src, decoded) = random_block(rng, 1 + i as u64 % 12);
        bases.push((src, decoded.len()));
    }
    let mut inputs: Vec<Vec<u8>> = Vec::new();
    for (seed, kind) in GENERATED_KINDS.iter().enumerate() {
        for len in [20, 100, 700, 3000] {
            inputs.push(generated(kind, len, seed as u64));
        }
    }
    for (_, data) in corpus::all() {
        for start in [0, data.len() / 3, data.len() - 2000] {
            inputs.push(data[start..start + 2000].to_vec());
        }
    }
    for (i, input) in inputs.iter().enumerate() {
        let compressed = match i % 3 {
            0 => liblz4::compress_fast(input, 1),
            1 => liblz4::compress_hc(input, 9),
            _ => block::compress(input).unwrap(),
        };
        bases.push((compressed, input.len()));
    }
    bases
}

/// The capacities a hostile block is decoded at: the original's size halved, exact and
/// oversized, and, when the reference accepts the block at a large capacity, its own size a
/// third, -1, exact and oversized.
fn hostile_caps(src: &[u8], original_len: usize) -> Vec<usize> {
    let mut caps = vec![
        original_len / 2,
        original_len,
        original_len + 1,
        original_len + 7,
        original_len + 64,
    ];
    let big = (src.len() * 255).min(1 << 20);
    if let (Ok(n), _) = decode(REFERENCE, src, big, 0) {
        caps.extend([n / 3, n.saturating_sub(1), n, n + 1, n + 7, n + 64]);
    }
    caps.sort_unstable();
    caps.dedup();
    caps
}

#[test]
fn hostile_mutations() {
    let mut rng = Rng::new(6);
    let bases = hostile_bases(&mut rng, rounds(200, 1000));
    let per_base = rounds(60, 250);
    for_each_kernel("hostile mutations", |kernel, tally| {
        // Every kernel sees the same mutants.
        let mut rng = rng.clone();
        let mut rejected = 0u64;
        for (base_index, (base, original_len)) in bases.iter().enumerate() {
            for round in 0..per_base {
                let mut src = mutate(&mut rng, base);
                if round % 4 == 3 {
                    src = mutate(&mut rng, &src);
                }
                tally.blocks += 1;
                for (i, cap) in hostile_caps(&src, *original_len).into_iter().enumerate() {
                    tally.checks += 1;
                    let front = (base_index + round + i) % 64;
                    let (result, _) = compare(kernel, &src, cap, front, i % 3 == 0);
                    rejected += u64::from(result.is_err());
                }
            }
        }
        eprintln!("hostile mutations [{kernel}]: {rejected} of the capacity checks rejected");
        assert!(
            rejected > tally.checks / 10,
            "mutations should mostly break blocks"
        );
    });
}

#[test]
fn hostile_every_truncation() {
    let count = rounds(60, 400);
    for_each_kernel("every truncation", |kernel, tally| {
        let mut rng = Rng::new(7);
        for i in 0..count {
            let (src, decoded) = random_block(&mut rng, 2 + i as u64 % 10);
            let n = decoded.len();
            for len in 0..src.len() {
                tally.blocks += 1;
                for (j, cap) in [n, n + 64].into_iter().enumerate() {
                    tally.checks += 1;
                    let (result, _) = compare(kernel, &src[..len], cap, (len + j) % 64, j == 0);
                    // A proper prefix of a valid block is valid only if it ends after a literal
                    // run of the last sequence (it then decodes to less).
                    if let Ok(m) = result {
                        assert!(m < n, "truncated block decoded to {m} >= {n} bytes");
                    }
                }
            }
        }
    });
}

#[test]
fn vec_api_matches_reference() {
    // `decompress` / `decompress_size_prepended` decode into uninitialised spare capacity with the
    // detected kernel; they must agree with the reference into an exact (or capped) buffer.
    let mut rng = Rng::new(8);
    let bases = hostile_bases(&mut rng, rounds(30, 200));
    let mut checks = 0u64;
    for (base, original_len) in &bases {
        for round in 0..rounds(8, 40) {
            let src = if round == 0 {
                base.clone()
            } else {
                mutate(&mut rng, base)
            };
            for max_out in [original_len / 2, *original_len, original_len + 100] {
                checks += 1;
                let cap = max_out.min(src.len() * 255);
                let (expected, output) = decode(REFERENCE, &src, cap, 0);
                let got = block::decompress(&src, max_out);
                assert_eq!(
                    got,
                    expected.clone().map(|_| output.clone()),
                    "decompress, max_out {max_out}; {}",
                    reproducer(&src, cap)
                );
                // Size-prepended, declaring what the reference decoded (or the original size when
                // it rejected the block).
                let declared = expected.map_or(*original_len, |n| n);
                let mut prefixed = (declared as u32).to_le_bytes().to_vec();
                prefixed.extend_from_slice(&src);
                let got = block::decompress_size_prepended(&prefixed, declared);
                let (exact, exact_output) = decode(REFERENCE, &src, declared, 0);
                if exact == Ok(declared) && declared <= src.len() * 255 {
                    assert_eq!(got, Ok(exact_output), "{}", reproducer(&src, declared));
                } else {
                    assert!(got.is_err(), "size-prepended: {got:?}, scalar {exact:?}");
                }
            }
        }
    }
    eprintln!("vec api: {checks} checks");
}
