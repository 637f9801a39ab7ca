//! The kernel sweep: decoding one block with every available decode kernel in guarded and
//! exact-size buffers, against the scalar decoder's outcome. Shared by the kernel tests
//! (`tests/kernels/`), the Miri tests (`tests/miri/`) and the fuzz targets.
//!
//! - [`for_each_kernel`] is the one sweep runner: it runs a test body once per kernel in
//!   [`under_test`], which reports which kernels run and which are skipped, and fails when a
//!   kernel named in `LZ4_SIMD_REQUIRE_KERNELS` is skipped.
//! - [`decode_guarded`] decodes into a slice of a larger pre-filled buffer and reports any write
//!   outside the slice; [`decode_exact`] decodes into an exact-size buffer (pre-filled or
//!   uninitialised), where AddressSanitizer and Miri see any access past it.
//! - [`check_exact_size`] and [`check_vec_api`] are the checks the fuzz target and the Miri tests
//!   both run on every block.

use std::fmt::{self, Display};
use std::io::Write as _;
use std::mem::MaybeUninit;
use std::sync::Once;
use std::time::Instant;

use lz4_simd::{block, Error, Kernel};

/// A decode's verdict and the bytes it produced (`dst[..n]`, empty on error).
pub type Outcome = (Result<usize, Error>, Vec<u8>);

/// Bytes of guard after `dst` (and after a copied `src`) that a decode must leave untouched.
pub const GUARD: usize = 64;

/// Comma-separated kernel names that must be available (CI on machines known to have them).
pub const REQUIRE_KERNELS_ENV: &str = "LZ4_SIMD_REQUIRE_KERNELS";

/// `Kernel::available()` (preference order, scalar last). The first call in a process reports
/// on stderr which kernels are tested against scalar and which are skipped (not available on
/// this CPU or build); every call panics when `LZ4_SIMD_REQUIRE_KERNELS` names a skipped kernel
/// (or an unknown name).
pub fn under_test() -> Vec<Kernel> {
    static REPORT: Once = Once::new();
    let available = Kernel::available();
    REPORT.call_once(|| {
        let tested: Vec<&str> = available
            .iter()
            .filter(|k| **k != Kernel::Scalar)
            .map(|k| k.name())
            .collect();
        let skipped: Vec<&str> = Kernel::ALL
            .iter()
            .filter(|k| !available.contains(k))
            .map(|k| k.name())
            .collect();
        // Straight to the process's stderr (not `eprintln!`, which libtest captures), so the line
        // shows in every run.
        let _ = writeln!(
            std::io::stderr(),
            "kernels: testing [{}] against scalar; skipped (not available on this CPU or build): [{}]",
            tested.join(", "),
            skipped.join(", ")
        );
    });
    if let Some(list) = std::env::var_os(REQUIRE_KERNELS_ENV) {
        let list = list.to_string_lossy();
        let mut missing = Vec::new();
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let kernel: Kernel = name
                .parse()
                .unwrap_or_else(|err| panic!("{REQUIRE_KERNELS_ENV}={list}: {err}"));
            if !available.contains(&kernel) {
                missing.push(kernel.name());
            }
        }
        assert!(
            missing.is_empty(),
            "{REQUIRE_KERNELS_ENV}={list}: required kernels not available on this CPU or build: \
             {missing:?} (available: {available:?})"
        );
    }
    available
}

/// What a sweep counted for one kernel, printed when it ends.
#[derive(Debug, Default)]
pub struct Tally {
    pub blocks: u64,
    pub checks: u64,
}

/// The sweep runner: runs `body` once for every kernel in [`under_test`] (so the required-kernel
/// check and the skipped-kernel report come with every sweep), then prints the kernel's tally and
/// time.
pub fn for_each_kernel(what: &str, mut body: impl FnMut(Kernel, &mut Tally)) {
    for kernel in under_test() {
        let started = Instant::now();
        let mut tally = Tally::default();
        body(kernel, &mut tally);
        eprintln!(
            "{what} [{kernel}]: {} blocks, {} capacity checks, {:.1?}",
            tally.blocks,
            tally.checks,
            started.elapsed()
        );
    }
}

/// How a guarded decode is set up.
#[derive(Debug, Clone, Copy)]
pub struct Setup {
    pub kernel: Kernel,
    /// `None`: decode from `src` as given (a fuzz input is an exact-size allocation, so
    /// AddressSanitizer flags any read past it). `Some(byte)`: from a copy of `src` placed at the
    /// same `front` as `dst` in a buffer of `byte`s that continues [`GUARD`] bytes after it (a
    /// decoder that let those bytes matter would differ from the reference).
    pub around_src: Option<u8>,
    /// The byte `dst` and the guards around it are pre-filled with.
    pub fill: u8,
    /// Decode through `Decoder::decompress_into_uninit` (a `&mut [MaybeUninit<u8>]` destination)
    /// instead of `decompress_into`. Every byte starts initialised (to `fill`) so the guards
    /// can be read back; [`decode_exact`] decodes into memory that is really uninitialised.
    pub uninit: bool,
}

impl Setup {
    /// `kernel` from `src` as given into a `dst` pre-filled with `fill`.
    pub fn plain(kernel: Kernel, fill: u8) -> Self {
        Setup {
            kernel,
            around_src: None,
            fill,
            uninit: false,
        }
    }
}

/// A decode broke the output contract: it wrote outside `dst`, or returned more than `cap`.
#[derive(Debug)]
pub struct ContractBreach {
    pub setup: Setup,
    pub cap: usize,
    pub front: usize,
    pub result: Result<usize, Error>,
    pub what: String,
}

impl Display for ContractBreach {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ContractBreach {
            setup,
            cap,
            front,
            result,
            what,
        } = self;
        write!(
            f,
            "{setup:?} {what} (cap {cap}, front {front}, result {result:?})"
        )
    }
}

/// Decodes `src` as `setup` says into `dst = backing[front..front + cap]` (a buffer pre-filled
/// with `setup.fill`, [`GUARD`] bytes longer than `dst`'s end), and checks that nothing outside
/// `dst` was written and that the returned length is at most `cap`.
pub fn decode_guarded(
    setup: Setup,
    src: &[u8],
    cap: usize,
    front: usize,
) -> Result<Outcome, ContractBreach> {
    let copy;
    let src = match setup.around_src {
        None => src,
        Some(byte) => {
            let mut input = vec![byte; front + src.len() + GUARD];
            input[front..front + src.len()].copy_from_slice(src);
            copy = input;
            &copy[front..front + src.len()]
        }
    };
    let (result, backing) = if setup.uninit {
        let mut backing = vec![MaybeUninit::new(setup.fill); front + cap + GUARD];
        let result = block::Decoder::with_kernel(setup.kernel).and_then(|decoder| {
            decoder.decompress_into_uninit(src, &mut backing[front..front + cap])
        });
        let backing: Vec<u8> = backing
            .iter()
            // SAFETY: every element was initialised above, and the decoder writes only
            // initialised bytes (what `Decoder::decompress_into_uninit` documents).
            .map(|b| unsafe { b.assume_init() })
            .collect();
        (result, backing)
    } else {
        let mut backing = vec![setup.fill; front + cap + GUARD];
        let result = block::Decoder::with_kernel(setup.kernel)
            .and_then(|decoder| decoder.decompress_into(src, &mut backing[front..front + cap]));
        (result, backing)
    };
    let breach = |what: String| ContractBreach {
        setup,
        cap,
        front,
        result: result.clone(),
        what,
    };
    if let Some(i) = backing[..front].iter().rposition(|&b| b != setup.fill) {
        return Err(breach(format!("wrote {} bytes before dst", front - i)));
    }
    if let Some(i) = backing[front + cap..].iter().position(|&b| b != setup.fill) {
        return Err(breach(format!("wrote at {i} bytes past the end of dst")));
    }
    match result {
        Ok(n) if n > cap => Err(breach(format!("returned {n} > cap {cap}"))),
        Ok(n) => Ok((result, backing[front..front + n].to_vec())),
        Err(_) => Ok((result, Vec::new())),
    }
}

/// Decodes `src` with `kernel` into an exact-size `cap`-byte `dst`: a `Vec` pre-filled with
/// `fill`, or, when `fill` is `None`, uninitialised memory
/// (`Decoder::decompress_into_uninit`, where Miri reports any read of a byte the decoder did not
/// write, and reading back `dst[..n]` checks that all of it was).
pub fn decode_exact(kernel: Kernel, src: &[u8], cap: usize, fill: Option<u8>) -> Outcome {
    let Some(fill) = fill else {
        let mut dst: Vec<MaybeUninit<u8>> = Vec::with_capacity(cap);
        dst.resize_with(cap, MaybeUninit::uninit);
        let result = block::Decoder::with_kernel(kernel)
            .and_then(|decoder| decoder.decompress_into_uninit(src, &mut dst));
        let produced = match result {
            // SAFETY: on `Ok(n)` the decoder has initialised `dst[..n]` (what
            // `Decoder::decompress_into_uninit` documents; Miri checks it).
            Ok(n) => dst[..n]
                .iter()
                .map(|b| unsafe { b.assume_init() })
                .collect(),
            Err(_) => Vec::new(),
        };
        return (result, produced);
    };
    let mut dst = vec![fill; cap];
    let result = block::Decoder::with_kernel(kernel)
        .and_then(|decoder| decoder.decompress_into(src, &mut dst));
    let produced = match result {
        Ok(n) => dst[..n].to_vec(),
        Err(_) => Vec::new(),
    };
    (result, produced)
}

/// How `got` differs from `expected` (the verdict, or the first differing output byte); `None`
/// when they are equal.
pub fn difference(expected: &Outcome, got: &Outcome) -> Option<String> {
    if got == expected {
        None
    } else if got.0 != expected.0 {
        Some(format!("verdict {:?}, scalar {:?}", got.0, expected.0))
    } else {
        let at = got.1.iter().zip(&expected.1).position(|(a, b)| a != b);
        Some(format!(
            "same verdict {:?}, output differs first at byte {at:?}",
            got.0
        ))
    }
}

/// Panics unless `got` equals `expected`, naming `what` and the difference.
pub fn assert_same(what: impl Display, expected: &Outcome, got: &Outcome) {
    if let Some(difference) = difference(expected, got) {
        panic!("{what} differs from scalar: {difference}");
    }
}

/// `kernel` decodes `src` into exact-size destinations (uninitialised memory, and, with
/// `fill`, a `Vec` pre-filled with it) to `expected` (the scalar decoder's outcome).
pub fn check_exact_size(
    what: impl Display,
    kernel: Kernel,
    src: &[u8],
    cap: usize,
    fill: Option<u8>,
    expected: &Outcome,
) {
    let got = decode_exact(kernel, src, cap, None);
    assert_same(
        format_args!("{what}: {kernel} into uninitialised memory (cap {cap})"),
        expected,
        &got,
    );
    if let Some(fill) = fill {
        let got = decode_exact(kernel, src, cap, Some(fill));
        assert_same(
            format_args!("{what}: {kernel} into an exact-size Vec of {fill:#04x} (cap {cap})"),
            expected,
            &got,
        );
    }
}

/// `block::decompress` (the detected kernel, into a `Vec`'s spare capacity) gives `expected`.
pub fn check_vec_api(what: impl Display, src: &[u8], cap: usize, expected: &Outcome) {
    assert_eq!(
        block::decompress(src, cap),
        expected.0.clone().map(|_| expected.1.clone()),
        "{what}: block::decompress (cap {cap})"
    );
}
