//! Helpers shared by the `hc_*` tests.

use testkit::Rng;

/// Bytes that repeat pieces of `dict` and of themselves, with noise and runs.
pub fn against(dict: &[u8], len: usize, rng: &mut Rng) -> Vec<u8> {
    let mut out = Vec::with_capacity(len + 64);
    while out.len() < len {
        match rng.below(6) {
            0 | 1 if dict.len() >= 4 => {
                let at = rng.below(dict.len() as u64 - 3) as usize;
                let take = (4 + rng.below(60) as usize).min(dict.len() - at);
                out.extend_from_slice(&dict[at..at + take]);
            }
            2 if !out.is_empty() => {
                let from = rng.below(out.len() as u64) as usize;
                for i in 0..4 + rng.below(40) as usize {
                    out.push(out[from + i]);
                }
            }
            3 => out.extend(std::iter::repeat_n(
                rng.below(3) as u8,
                1 + rng.below(40) as usize,
            )),
            _ => out.extend((0..1 + rng.below(8)).map(|_| rng.below(256) as u8)),
        }
    }
    out.truncate(len);
    out
}
