//! Random valid blocks at exact, short and spare capacities, and blocks (valid and corrupted)
//! decoded into every `dst` size from 0 to their size + 64.

use testkit::kernels::for_each_kernel;
use testkit::Rng;

use crate::blocks::{mutate, random_block};
use crate::harness::{check_valid, compare};
use crate::rounds;

#[test]
fn random_valid_blocks() {
    for_each_kernel("random valid blocks", |kernel, tally| {
        let mut rng = Rng::new(5);
        for round in 0..rounds(8000, 60_000) {
            let (src, decoded) = random_block(&mut rng, 1 + round as u64 % 40);
            tally.blocks += 1;
            let n = decoded.len();
            let mut caps = vec![n, n + 1, n + 7, n + 64];
            if n > 0 {
                caps.push(n - 1);
            }
            for (i, cap) in caps.into_iter().enumerate() {
                tally.checks += 1;
                check_valid(
                    kernel,
                    &src,
                    &decoded,
                    cap,
                    (round + i) % 64,
                    i == 0 || i == 3,
                );
            }
        }
    });
}

#[test]
fn every_capacity() {
    // Blocks decoded into every dst size from 0 to their size + 64: a too-small dst must stop the
    // fast loop before any wide copy reaches past it, and give the reference's error. Valid
    // blocks, and the same blocks corrupted once (so the fast loop also meets a too-small dst at
    // sequences a valid block would not let it reach, e.g. a first token without literals).
    for_each_kernel("every capacity", |kernel, tally| {
        let mut rng = Rng::new(9);
        let mut round = 0usize;
        let mut mutant_rejects = 0u64;
        let blocks = rounds(160, 2000) as u64;
        while tally.blocks < blocks {
            round += 1;
            let (src, decoded) = random_block(&mut rng, 1 + round as u64 % 8);
            let n = decoded.len();
            if n > 1500 {
                continue;
            }
            let mutant = mutate(&mut rng, &src);
            tally.blocks += 2;
            for cap in 0..=n + 64 {
                tally.checks += 2;
                let front = (round + cap) % 64;
                check_valid(kernel, &src, &decoded, cap, front, cap % 16 == 0);
                let (result, _) = compare(kernel, &mutant, cap, front, cap % 16 == 8);
                mutant_rejects += u64::from(result.is_err());
            }
        }
        eprintln!("every capacity [{kernel}]: {mutant_rejects} corrupted-block decodes rejected");
    });
}
