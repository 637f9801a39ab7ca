//! The differential check every sweep runs: one kernel against the scalar reference on one block
//! at one capacity, with guarded buffers, and a reproducer on failure.

use std::fmt::Write as _;

use lz4_simd::{Error, Kernel};
use testkit::kernels::{decode_guarded, difference, Outcome, Setup};

/// Reference setup: scalar, zeros around `src`, zero-filled `dst`.
pub const REFERENCE: Setup = Setup {
    kernel: Kernel::Scalar,
    around_src: Some(0x00),
    fill: 0x00,
    uninit: false,
};

/// `testkit::kernels::decode_guarded`, panicking with a reproducer when the decode writes outside
/// `dst` or returns more than `cap`.
pub fn decode(setup: Setup, src: &[u8], cap: usize, front: usize) -> Outcome {
    decode_guarded(setup, src, cap, front)
        .unwrap_or_else(|breach| panic!("{breach}; {}", reproducer(src, cap)))
}

/// Saves `src` where a failing test can point to it; returns a description to paste.
pub fn reproducer(src: &[u8], cap: usize) -> String {
    let hash = src.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("kernels-repro-{hash:016x}.lz4"));
    let saved = match std::fs::write(&path, src) {
        Ok(()) => format!("block saved to {}", path.display()),
        Err(err) => format!("could not save the block: {err}"),
    };
    let mut text = format!(
        "reproduce: block::Decoder::with_kernel(kernel)?.decompress_into(&block, &mut vec![0; {cap}]); {} input bytes, {saved}",
        src.len()
    );
    if src.len() <= 300 {
        let _ = write!(text, "; block = {src:02x?}");
    }
    text
}

/// Decodes `src` at capacity `cap` with the scalar reference and with `kernel`, requiring
/// identical verdicts and outputs; returns the reference's outcome.
///
/// Light: a SIMD kernel decodes twice, with other bytes around `src` and in `dst` than the
/// reference, once into initialised and once into uninitialised memory (scalar: nothing more
/// than the reference). Thorough: the kernel (scalar included) also decodes with the reference's
/// surroundings and with `dst` pre-filled with `0xFF`, so any dependence on bytes past `src` or
/// on stale `dst` bytes is caught in each kernel on its own.
pub fn compare(kernel: Kernel, src: &[u8], cap: usize, front: usize, thorough: bool) -> Outcome {
    let expected = decode(REFERENCE, src, cap, front);
    let mut setups = Vec::with_capacity(4);
    if kernel != Kernel::Scalar {
        setups.push(Setup {
            kernel,
            around_src: Some(0xFF),
            fill: 0xA5,
            uninit: false,
        });
        setups.push(Setup {
            kernel,
            around_src: Some(0x00),
            fill: 0x5A,
            uninit: true,
        });
    }
    if thorough {
        setups.push(Setup {
            kernel,
            around_src: Some(0xFF),
            fill: 0x00,
            uninit: false,
        });
        setups.push(Setup {
            kernel,
            around_src: Some(0x00),
            fill: 0xFF,
            uninit: kernel == Kernel::Scalar,
        });
    }
    for setup in setups {
        let got = decode(setup, src, cap, front);
        if let Some(difference) = difference(&expected, &got) {
            panic!(
                "{setup:?} differs from scalar (cap {cap}, front {front}): {difference}; {}",
                reproducer(src, cap)
            );
        }
    }
    expected
}

/// `compare`, plus: the reference decodes `src` to exactly `decoded` (when `cap` allows).
pub fn check_valid(
    kernel: Kernel,
    src: &[u8],
    decoded: &[u8],
    cap: usize,
    front: usize,
    thorough: bool,
) {
    let (result, output) = compare(kernel, src, cap, front, thorough);
    if cap >= decoded.len() {
        assert!(
            result == Ok(decoded.len()) && output == decoded,
            "scalar reference: {result:?} on a valid block decoding to {} bytes (cap {cap}); {}",
            decoded.len(),
            reproducer(src, cap)
        );
    } else {
        assert!(
            matches!(
                result,
                Err(Error::LiteralsOverflowOutput { .. } | Error::MatchOverflowsOutput { .. })
            ),
            "scalar reference: {result:?} with cap {cap} < {}",
            decoded.len()
        );
    }
}
