//! Hand-built blocks: offsets 1-70 x match lengths x literal lengths x the distance of the last
//! match from the block end (0-64, margins violated included), copy-width boundaries, long runs.

use testkit::kernels::for_each_kernel;
use testkit::{BlockBuilder, Rng};

use crate::harness::check_valid;
use crate::DEBUG;

/// The lengths the sweeps use, from `shortest`: every one up to 40, the copy-width boundaries,
/// the fast loop's medium-match limit (64, 65), the first extension byte's boundary (255-275).
/// As match lengths (from 4): the nibble-15 boundary at 18, 19 and the extension's at 273-275
/// (255 + 19 - 1 ..); as literal lengths (from 0): at 14, 15 and 269-271.
fn sweep_lengths(shortest: usize) -> Vec<usize> {
    let mut lengths: Vec<usize> = (shortest..=40).collect();
    lengths.extend([47, 48, 49]);
    lengths.extend(60..=70);
    lengths.extend([95, 96, 97, 127, 128, 129]);
    lengths.extend(255..=275);
    lengths.push(300);
    lengths
}

/// Match lengths the sweeps use.
fn match_lengths() -> Vec<usize> {
    sweep_lengths(4)
}

/// Literal lengths the sweeps use.
fn literal_lengths() -> Vec<usize> {
    sweep_lengths(0)
}

/// Lengths at the 16/32/64-byte copy boundaries.
const WIDTH_BOUNDARIES: [usize; 11] = [0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65];

/// The end distances a sweep point uses: all of 0..=64 in release builds, `debug_count` of them
/// (all if 65) in debug builds (rotating with `seed`, so the whole range is covered across points).
fn end_distances(seed: usize, debug_count: usize) -> Vec<usize> {
    if DEBUG && debug_count < 65 {
        (0..debug_count)
            .map(|i| (seed * 29 + i * (65 / debug_count + 1)) % 65)
            .collect()
    } else {
        (0..=64).collect()
    }
}

/// A block whose sequence under test (`literal_len` literals, `offset`, `match_len`) follows
/// `history_len` (>= 70) bytes of history and is followed by `end_distance` final literals: its
/// match ends `end_distance` bytes before the end of the block.
fn sweep_block(
    rng: &mut Rng,
    history_len: usize,
    test_sequence: (usize, usize, usize),
    repeat: usize,
    end_distance: usize,
) -> (Vec<u8>, Vec<u8>) {
    let (literal_len, offset, match_len) = test_sequence;
    let mut builder = BlockBuilder::default();
    builder.sequence(
        &rng.bytes(history_len - 4),
        1 + rng.below(history_len as u64 - 4) as usize,
        4,
    );
    for _ in 0..repeat {
        builder.sequence(&rng.bytes(literal_len), offset, match_len);
    }
    builder.finish(&rng.bytes(end_distance))
}

#[test]
fn sweep_offsets_by_match_lengths() {
    let match_lengths = match_lengths();
    let literal_lengths = literal_lengths();
    for_each_kernel("offsets x match lengths", |kernel, tally| {
        let mut rng = Rng::new(1);
        let mut point = 0usize;
        for offset in 1..=70 {
            for &match_len in &match_lengths {
                point += 1;
                let literal_len = literal_lengths[point * 7 % literal_lengths.len()];
                let history_len = 70 + point % 64;
                for end_distance in end_distances(point, 65) {
                    let (src, decoded) = sweep_block(
                        &mut rng,
                        history_len,
                        (literal_len, offset, match_len),
                        1,
                        end_distance,
                    );
                    tally.blocks += 1;
                    let front = (point + end_distance) % 64;
                    tally.checks += 1;
                    check_valid(kernel, &src, &decoded, decoded.len(), front, false);
                    if (point + end_distance).is_multiple_of(8) {
                        tally.checks += 1;
                        let spare = [1, 7, 64][end_distance % 3];
                        check_valid(kernel, &src, &decoded, decoded.len() + spare, front, true);
                    }
                }
            }
        }
    });
}

#[test]
fn sweep_literal_lengths() {
    let match_lengths = match_lengths();
    for_each_kernel("literal lengths x offsets", |kernel, tally| {
        let mut rng = Rng::new(2);
        let mut point = 0usize;
        for literal_len in 0..=300 {
            for offset in 1..=70 {
                point += 1;
                let match_len = match_lengths[point * 11 % match_lengths.len()];
                let history_len = 70 + point % 61;
                let distances = if DEBUG {
                    vec![point % 65, (point * 7 + 31) % 65]
                } else {
                    vec![point % 65, (point * 7 + 31) % 65, (point * 13 + 17) % 65]
                };
                for end_distance in distances {
                    let (src, decoded) = sweep_block(
                        &mut rng,
                        history_len,
                        (literal_len, offset, match_len),
                        1,
                        end_distance,
                    );
                    tally.blocks += 1;
                    tally.checks += 1;
                    check_valid(kernel, &src, &decoded, decoded.len(), point % 64, false);
                }
            }
        }
    });
}

#[test]
fn sweep_copy_width_boundaries() {
    for_each_kernel("copy-width boundaries", |kernel, tally| {
        let mut rng = Rng::new(3);
        let mut point = 0usize;
        for literal_len in WIDTH_BOUNDARIES {
            for match_len in WIDTH_BOUNDARIES.into_iter().filter(|&len| len >= 4) {
                for offset in 1..=70 {
                    point += 1;
                    // Two sequences under test back to back: the second's copies start where the
                    // first's wild copies ended.
                    for end_distance in end_distances(point, 10) {
                        let (src, decoded) = sweep_block(
                            &mut rng,
                            70 + point % 37,
                            (literal_len, offset, match_len),
                            2,
                            end_distance,
                        );
                        tally.blocks += 1;
                        tally.checks += 1;
                        let front = (point * 3 + end_distance) % 64;
                        check_valid(kernel, &src, &decoded, decoded.len(), front, false);
                    }
                }
            }
        }
    });
}

#[test]
fn sweep_long_runs() {
    let mut offsets: Vec<usize> = (1..=8).collect();
    offsets.extend([9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 70]);
    let match_lengths = [
        1000, 1001, 1002, 1003, 1024, 1031, 1032, 1033, 1055, 4099, 65_539,
    ];
    for_each_kernel("long runs", |kernel, tally| {
        let mut rng = Rng::new(4);
        let mut point = 0usize;
        for &offset in &offsets {
            for match_len in match_lengths {
                point += 1;
                let literal_len = [0, 1, 5, 17][point % 4];
                for end_distance in end_distances(point, 10) {
                    let (src, decoded) = sweep_block(
                        &mut rng,
                        70 + point % 64,
                        (literal_len, offset, match_len),
                        1 + point % 2,
                        end_distance,
                    );
                    tally.blocks += 1;
                    tally.checks += 1;
                    check_valid(kernel, &src, &decoded, decoded.len(), point % 64, false);
                }
            }
        }
        // Many long runs in a row, short offsets mixed.
        for seed in 0..if DEBUG { 4 } else { 40 } {
            let mut builder = BlockBuilder::default();
            builder.sequence(&rng.bytes(8), 8, 4);
            for _ in 0..20 {
                let offset = 1 + rng.below(8) as usize;
                let literal_len = rng.below(3) as usize;
                let match_len = 1000 + rng.below(300) as usize;
                builder.sequence(&rng.bytes(literal_len), offset, match_len);
            }
            let (src, decoded) = builder.finish(&rng.bytes(seed % 65));
            tally.blocks += 1;
            tally.checks += 1;
            check_valid(kernel, &src, &decoded, decoded.len(), seed % 64, true);
        }
    });
}
