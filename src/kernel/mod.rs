//! Decode kernels: which exist, which this CPU can run, which one is used.
//!
//! The bottom layer of the crate: it knows nothing of the block format. A kernel is the block
//! decoder's fast loop (`block::fast_decode`) instantiated with one instruction set's copy
//! primitives (`CopyKernel`, in `copy`): SSE2, AVX2 and AVX-512 on x86_64, NEON on aarch64,
//! `simd128` on wasm32. [`Kernel::Scalar`] is the safe scalar decoder. Every variant exists on every target, so code
//! and tests need no `cfg` ladders; [`Kernel::is_available`] says which can run here. The tables
//! the decoders share (offset → shuffle pattern, offset → repeat multiplier) are in `tables`.
//!
//! This module is the only place that detects CPU features. Detection runs once: the first
//! decode (or [`Kernel::detect`]) picks the best available kernel, or the one named by the
//! environment variable `LZ4_SIMD_KERNEL` (`scalar`, `sse2`, `avx2`, `avx512`, `neon`,
//! `simd128`) if it is
//! valid and available, and caches the choice. The library never prints: what became of the
//! override (not set, used, or ignored and why) is [`Kernel::override_status`], for the
//! application to report.
//!
//! Dispatch is capability-checked by construction: the `match` from a kernel to its entry point
//! (in `block`) takes a [`KernelToken`], and only [`Kernel::token`] (after the availability
//! check) or the cached detection (which stores only available kernels) makes one. Forcing a
//! kernel the CPU lacks is an [`Error::KernelUnavailable`], never undefined behaviour.
//!
//! Without the `unsafe` feature no SIMD kernel is compiled in: [`Kernel::available`] is just
//! `[Scalar]`, and every kernel name, forced or detected, maps to the scalar decoder.
//!
//! ## Which kernels are compiled in, and detection without `std`
//!
//! A kernel is compiled in only where the target guarantees its baseline at compile time
//! (`build.rs` names the conditions): SSE2 on x86_64, NEON on aarch64, `simd128` on wasm32.
//! Targets whose ABI keeps the vector registers off limits (`x86_64-unknown-none` and the other
//! soft-float kernel targets, `aarch64-unknown-none-softfloat`) get the scalar decoder only: code
//! there may run where the vector state is not saved (an interrupt handler, a kernel before it
//! sets the FPU up), so even a CPU that has SSE2 must not be made to use it, and the compiler
//! could not emit those instructions for a soft-float function anyway. The SSE2 and NEON kernels
//! are then always available; `simd128` is chosen at compile time only, because WebAssembly has
//! no run-time feature test (an engine without `simd128` rejects the whole module at load time).
//!
//! On top of SSE2, AVX2 and AVX-512 are detected at run time. With `std` that is the standard
//! library's `is_x86_feature_detected!`. Without `std` it is the `cpufeatures` crate (RustCrypto:
//! `no_std`, CPUID plus XGETBV, so a feature the OS does not save the registers of counts as
//! absent, the same rule as `std`'s), not `cfg!(target_feature = ...)`: a `no_std` library is
//! most often linked into an ordinary hosted program (a crate that turns default features off to
//! stay `no_std`-compatible), built for the generic x86_64 baseline, where a compile-time test
//! would silently give up AVX2 on every machine that has it. Where the target cannot use vector
//! registers at all, the x86 kernels are not compiled in (above) and `cpufeatures` is never
//! called. On aarch64 the compile-time guarantee of NEON is all there is to know.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;
use core::sync::atomic::{AtomicU8, Ordering};

use crate::Error;

// The copy primitives exist where a SIMD kernel uses them (the `cfg` names are build.rs's).
#[cfg(simd_kernels)]
mod copy;
#[cfg(neon_kernel)]
pub(crate) mod neon;
pub(crate) mod tables;
#[cfg(wasm_kernel)]
pub(crate) mod wasm;
#[cfg(x86_kernels)]
pub(crate) mod x86;

#[cfg(simd_kernels)]
pub(crate) use copy::{copy_bytes, CopyKernel, REPLICATE_HISTORY};

/// Asks the cache for the line holding `bytes[at]`, for a loop that reads it soon (a hint:
/// nothing is read or changed). Nothing when `at` is outside `bytes`, and nothing without the
/// `unsafe` feature or off x86_64. Used where a loop reads input that is not in the cache faster
/// than the hardware prefetcher brings it: the content checksum of the parallel encoders and
/// decoder (`ContentHasher::feed_lines`, behind `update_ahead`, `update_copying` and
/// `extend_hashing`).
#[cfg(feature = "parallel")]
#[inline(always)]
pub(crate) fn prefetch(bytes: &[u8], at: usize) {
    #[cfg(x86_kernels)]
    if let Some(byte) = bytes.get(at) {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: `_mm_prefetch` needs SSE, part of every x86_64 target (`x86_kernels` also
        // requires SSE2); a prefetch is a hint that reads nothing into the program and cannot
        // fault, and its address is that of `byte`, inside `bytes`, anyway.
        unsafe { _mm_prefetch::<_MM_HINT_T0>((byte as *const u8).cast()) };
    }
    #[cfg(not(x86_kernels))]
    let _ = (bytes, at);
}

/// A block decode kernel.
///
/// Every variant exists on every target; [`is_available`](Kernel::is_available) says which can
/// run here, [`detect`](Kernel::detect) which one the decoders use by default. A
/// `block::Decoder` runs a chosen one.
///
/// ```
/// use lz4_simd::{block, Kernel};
///
/// let data = b"kernels differ in speed, never in output; ".repeat(50);
/// let compressed = block::compress(&data).unwrap();
/// for kernel in Kernel::available() {
///     // Names are what `LZ4_SIMD_KERNEL` takes.
///     assert_eq!(kernel.name().parse::<Kernel>().unwrap(), kernel);
///     let decoder = block::Decoder::with_kernel(kernel).unwrap();
///     assert_eq!(decoder.decompress(&compressed, data.len()).unwrap(), data);
/// }
/// // The scalar decoder is available everywhere, and is the last choice.
/// assert_eq!(Kernel::available().last(), Some(&Kernel::Scalar));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Kernel {
    /// The safe scalar reference decoder (always available; the oracle for the others).
    Scalar,
    /// x86_64 SSE2: 16-byte wide copies.
    Sse2,
    /// x86_64 AVX2: 32-byte wide copies, `pshufb` pattern replication.
    Avx2,
    /// aarch64 NEON: 16-byte wide copies, `tbl` pattern replication.
    Neon,
    /// x86_64 AVX-512 (F, BW and VBMI): 64-byte wide copies, `vpermb` pattern replication.
    /// Requiring VBMI limits it to CPUs whose 512-bit instructions do not lower the clock
    /// (Intel Ice Lake and later, AMD Zen 4 and later); on Skylake-SP class CPUs (AVX-512
    /// without VBMI) detection picks AVX2.
    Avx512,
    /// wasm32 `simd128`: 16-byte wide copies, `i8x16.swizzle` pattern replication. Compiled in
    /// (and then always available) when the crate is built with `-C target-feature=+simd128`.
    Simd128,
}

/// The environment variable that overrides detection.
pub const KERNEL_ENV: &str = "LZ4_SIMD_KERNEL";

impl Kernel {
    /// Every kernel, in order of preference when detecting (best first), `Scalar` last.
    pub const ALL: [Kernel; 6] = [
        Kernel::Avx512,
        Kernel::Avx2,
        Kernel::Sse2,
        Kernel::Neon,
        Kernel::Simd128,
        Kernel::Scalar,
    ];

    /// The kernel's name: `scalar`, `sse2`, `avx2`, `avx512`, `neon`, `simd128` (what `LZ4_SIMD_KERNEL` and
    /// [`FromStr`] take).
    pub const fn name(self) -> &'static str {
        match self {
            Kernel::Scalar => "scalar",
            Kernel::Sse2 => "sse2",
            Kernel::Avx2 => "avx2",
            Kernel::Neon => "neon",
            Kernel::Avx512 => "avx512",
            Kernel::Simd128 => "simd128",
        }
    }

    /// Whether this kernel can run on this CPU (and is compiled in).
    pub fn is_available(self) -> bool {
        match self {
            Kernel::Scalar => true,
            // Baseline wherever the x86 kernels are compiled in (build.rs).
            Kernel::Sse2 => cfg!(x86_kernels),
            Kernel::Avx2 => avx2_present(),
            Kernel::Neon => neon_present(),
            Kernel::Avx512 => avx512_present(),
            // Chosen at compile time: a WebAssembly module cannot test for simd128 at run time
            // (an engine without it rejects the whole module), so it is there if compiled in.
            Kernel::Simd128 => cfg!(wasm_kernel),
        }
    }

    /// Every kernel this CPU can run, best first, `Scalar` included (last).
    pub fn available() -> Vec<Kernel> {
        Kernel::ALL
            .into_iter()
            .filter(|k| k.is_available())
            .collect()
    }

    /// The kernel `block::decompress` and the other decoders use by default: the best
    /// available, or `LZ4_SIMD_KERNEL`'s choice when it names an available kernel. Decided on
    /// first use and cached; [`Kernel::override_status`] says what became of the variable.
    ///
    /// ```
    /// use lz4_simd::Kernel;
    ///
    /// let kernel = Kernel::detect();
    /// assert!(kernel.is_available());
    /// assert!(Kernel::available().contains(&kernel));
    /// // Names round-trip through `FromStr` (what `LZ4_SIMD_KERNEL` takes).
    /// assert_eq!(kernel.name().parse::<Kernel>().unwrap(), kernel);
    /// assert!("scalar".parse::<Kernel>().unwrap().is_available());
    /// ```
    pub fn detect() -> Kernel {
        match DETECTED.load(Ordering::Relaxed) {
            0 => {
                let kernel = decision().kernel;
                DETECTED.store(kernel.index() + 1, Ordering::Relaxed);
                kernel
            }
            n => Kernel::from_index(n - 1),
        }
    }

    /// What became of the `LZ4_SIMD_KERNEL` override when the kernel was detected (detecting
    /// first if that has not happened yet): not set, used, or ignored because it names a kernel
    /// this CPU or build cannot run, or no kernel at all. The library never prints; an
    /// application that wants the user to see an ignored override prints this (its `Display`
    /// is a one-line message).
    ///
    /// ```
    /// use lz4_simd::{Kernel, KernelOverride};
    ///
    /// match Kernel::override_status() {
    ///     KernelOverride::NotSet => assert_eq!(Kernel::detect(), Kernel::available()[0]),
    ///     KernelOverride::Used(kernel) => assert_eq!(Kernel::detect(), kernel),
    ///     ignored => {
    ///         // An application shows this line to its user (the lz4-simd CLI: on stderr).
    ///         let warning = ignored.to_string();
    ///         assert!(warning.starts_with("LZ4_SIMD_KERNEL="));
    ///     }
    /// }
    /// ```
    pub fn override_status() -> KernelOverride {
        decision().status.clone()
    }

    /// A token proving this kernel can run here, or `None`.
    pub(crate) fn token(self) -> Option<KernelToken> {
        self.is_available().then_some(KernelToken(self))
    }

    /// The token for forcing this kernel, or the error naming it. Without the `unsafe` feature
    /// every kernel maps to `Scalar`.
    pub(crate) fn require(self) -> Result<KernelToken, Error> {
        if cfg!(not(feature = "unsafe")) {
            return Ok(KernelToken(Kernel::Scalar));
        }
        self.token().ok_or_else(|| Error::KernelUnavailable {
            kernel: self.name(),
        })
    }

    const fn index(self) -> u8 {
        match self {
            Kernel::Scalar => 0,
            Kernel::Sse2 => 1,
            Kernel::Avx2 => 2,
            Kernel::Neon => 3,
            Kernel::Avx512 => 4,
            Kernel::Simd128 => 5,
        }
    }

    const fn from_index(index: u8) -> Kernel {
        match index {
            1 => Kernel::Sse2,
            2 => Kernel::Avx2,
            3 => Kernel::Neon,
            4 => Kernel::Avx512,
            5 => Kernel::Simd128,
            _ => Kernel::Scalar,
        }
    }
}

impl fmt::Display for Kernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Kernel {
    type Err = Error;

    /// Parses a kernel name (case-insensitive, surrounding whitespace ignored).
    fn from_str(name: &str) -> Result<Self, Error> {
        let trimmed = name.trim();
        Kernel::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(trimmed))
            .ok_or_else(|| Error::UnknownKernel {
                name: String::from(trimmed),
            })
    }
}

/// 0 = not decided yet; otherwise the detected kernel's index + 1. Only available kernels are
/// stored. (The fast path of [`Kernel::detect`]: one relaxed load.)
static DETECTED: AtomicU8 = AtomicU8::new(0);

/// What `LZ4_SIMD_KERNEL` did when the kernel was detected ([`Kernel::override_status`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum KernelOverride {
    /// The variable is not set (or the crate is built without `std`, which has no environment):
    /// detection chose the best available kernel.
    NotSet,
    /// The variable named this kernel, which is available, and it is used.
    Used(Kernel),
    /// The variable named a kernel this CPU or build cannot run; `using` was detected instead.
    Unavailable {
        /// The kernel the variable named.
        requested: Kernel,
        /// The kernel used instead (the best available).
        using: Kernel,
    },
    /// The variable names no kernel; `using` was detected instead.
    Unknown {
        /// The variable's value (lossily converted if it was not UTF-8).
        value: String,
        /// The kernel used instead (the best available).
        using: Kernel,
    },
}

impl fmt::Display for KernelOverride {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KernelOverride::NotSet => write!(f, "{KERNEL_ENV} is not set"),
            KernelOverride::Used(kernel) => write!(f, "{KERNEL_ENV}={kernel}: using {kernel}"),
            KernelOverride::Unavailable { requested, using } => write!(
                f,
                "{KERNEL_ENV}={requested}: the {requested} kernel is not available on this CPU or in this build; using {using}"
            ),
            KernelOverride::Unknown { value, using } => {
                let error = Error::UnknownKernel {
                    name: String::from(value.trim()),
                };
                write!(f, "{KERNEL_ENV}={value:?}: {error}; using {using}")
            }
        }
    }
}

/// The kernel detection chose and what became of the override.
struct Decision {
    kernel: Kernel,
    status: KernelOverride,
}

/// The decision, made once (with `std`: cached with the override's status; without it there is
/// no environment and detection is cheap, so it is made again when asked).
#[cfg(feature = "std")]
fn decision() -> &'static Decision {
    static DECISION: std::sync::OnceLock<Decision> = std::sync::OnceLock::new();
    DECISION.get_or_init(|| {
        let value = std::env::var_os(KERNEL_ENV).map(|value| value.to_string_lossy().into_owned());
        choose(value)
    })
}

#[cfg(not(feature = "std"))]
fn decision() -> Decision {
    choose(None)
}

/// The best available kernel, or the override's choice when it names an available kernel.
fn choose(value: Option<String>) -> Decision {
    let best = Kernel::ALL
        .into_iter()
        .find(|k| k.is_available())
        .unwrap_or(Kernel::Scalar);
    let Some(value) = value else {
        return Decision {
            kernel: best,
            status: KernelOverride::NotSet,
        };
    };
    let (kernel, status) = match value.parse::<Kernel>() {
        Ok(kernel) if kernel.is_available() => (kernel, KernelOverride::Used(kernel)),
        Ok(requested) => (
            best,
            KernelOverride::Unavailable {
                requested,
                using: best,
            },
        ),
        Err(_) => (best, KernelOverride::Unknown { value, using: best }),
    };
    Decision { kernel, status }
}

#[cfg(all(x86_kernels, feature = "std"))]
fn avx2_present() -> bool {
    std::is_x86_feature_detected!("avx2")
}

// Without `std`: CPUID, and XGETBV for whether the OS saves the YMM registers (cpufeatures).
#[cfg(all(x86_kernels, not(feature = "std")))]
cpufeatures::new!(cpuid_avx2, "avx2");

#[cfg(all(x86_kernels, not(feature = "std")))]
fn avx2_present() -> bool {
    cpuid_avx2::get()
}

#[cfg(not(x86_kernels))]
fn avx2_present() -> bool {
    false
}

/// AVX-512 F (64-byte loads and stores), BW (byte-granular 512-bit operations) and VBMI
/// (`vpermb`), everything the AVX-512 kernel uses.
#[cfg(all(x86_kernels, feature = "std"))]
fn avx512_present() -> bool {
    std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("avx512vbmi")
}

// Without `std`: CPUID, and XGETBV for whether the OS saves the ZMM and mask registers.
#[cfg(all(x86_kernels, not(feature = "std")))]
cpufeatures::new!(cpuid_avx512, "avx512f", "avx512bw", "avx512vbmi");

#[cfg(all(x86_kernels, not(feature = "std")))]
fn avx512_present() -> bool {
    cpuid_avx512::get()
}

#[cfg(not(x86_kernels))]
fn avx512_present() -> bool {
    false
}

#[cfg(all(neon_kernel, feature = "std"))]
fn neon_present() -> bool {
    std::arch::is_aarch64_feature_detected!("neon")
}

/// NEON is compiled in only where the target enables it (build.rs), so the target guarantees it.
#[cfg(all(neon_kernel, not(feature = "std")))]
fn neon_present() -> bool {
    true
}

#[cfg(not(neon_kernel))]
fn neon_present() -> bool {
    false
}

/// Proof that a kernel can run on this CPU: made only by [`Kernel::token`] after the
/// availability check, or from the cached detection (which stores only available kernels). The
/// block decoder's dispatch (`block::dispatch`) takes one to reach a kernel's entry point.
#[derive(Debug, Clone, Copy)]
pub(crate) struct KernelToken(Kernel);

impl KernelToken {
    /// The token of the detected kernel (no feature detection after the first call).
    #[inline]
    pub(crate) fn detected() -> KernelToken {
        KernelToken(Kernel::detect())
    }

    /// The kernel this token proves available.
    #[inline]
    pub(crate) fn kernel(self) -> Kernel {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::{choose, Kernel, KernelOverride, KERNEL_ENV};
    use alloc::string::{String, ToString};

    #[test]
    fn override_decisions() {
        let best = Kernel::available()[0];
        let unset = choose(None);
        assert_eq!((unset.kernel, unset.status), (best, KernelOverride::NotSet));
        let scalar = choose(Some(String::from(" Scalar ")));
        assert_eq!(scalar.kernel, Kernel::Scalar);
        assert_eq!(scalar.status, KernelOverride::Used(Kernel::Scalar));
        let bogus = choose(Some(String::from("bogus")));
        assert_eq!(bogus.kernel, best);
        assert_eq!(
            bogus.status,
            KernelOverride::Unknown {
                value: String::from("bogus"),
                using: best
            }
        );
        let message = bogus.status.to_string();
        assert!(
            message.starts_with(KERNEL_ENV) && message.ends_with(&alloc::format!("using {best}"))
        );
        for kernel in Kernel::ALL {
            assert!(message.contains(kernel.name()), "{message}");
            let decision = choose(Some(kernel.name().to_string()));
            if kernel.is_available() {
                assert_eq!(decision.kernel, kernel);
                assert_eq!(decision.status, KernelOverride::Used(kernel));
            } else {
                assert_eq!(decision.kernel, best);
                assert_eq!(
                    decision.status,
                    KernelOverride::Unavailable {
                        requested: kernel,
                        using: best
                    }
                );
                assert!(decision.status.to_string().contains("not available"));
            }
        }
    }
}
