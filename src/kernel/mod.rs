//! Decode kernels: which exist, which this CPU can run, which one is used.
//!
//! The bottom layer of the crate: it knows nothing of the block format. A kernel is the block
//! decoder's fast loop (`block::fast_decode`) instantiated with one instruction set's copy
//! primitives (`CopyKernel`, in `copy`): SSE2, AVX2 and AVX-512 on x86_64, NEON on aarch64.
//! [`Kernel::Scalar`] is the safe reference decoder. Every variant exists on every target, so
//! code and tests need no `cfg` ladders; [`Kernel::is_available`] says which can run here. The
//! tables the decoders share (offset → shuffle pattern, offset → repeat multiplier) are in
//! `tables`.
//!
//! This module is the only place that detects CPU features. Detection runs once: the first
//! decode (or [`Kernel::detect`]) picks the best available kernel, or the one named by the
//! environment variable `LZ4_SIMD_KERNEL` (`scalar`, `sse2`, `avx2`, `avx512`, `neon`) if it is
//! valid and available (otherwise it says so on standard error and detects), and caches the
//! choice.
//!
//! Dispatch is capability-checked by construction: the `match` from a kernel to its entry point
//! (in `block`) takes a [`KernelToken`], and only [`Kernel::token`] (after the availability
//! check) or the cached detection (which stores only available kernels) makes one. Forcing a
//! kernel the CPU lacks is an [`Error::KernelUnavailable`], never undefined behaviour.
//!
//! Without the `unsafe` feature no SIMD kernel is compiled in: [`Kernel::available`] is just
//! `[Scalar]`, and every kernel name, forced or detected, maps to the scalar decoder.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;
use core::sync::atomic::{AtomicU8, Ordering};

use crate::Error;

// The copy primitives exist where a SIMD kernel uses them.
#[cfg(all(
    feature = "unsafe",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
mod copy;
#[cfg(all(feature = "unsafe", target_arch = "aarch64"))]
pub(crate) mod neon;
pub(crate) mod tables;
#[cfg(all(feature = "unsafe", target_arch = "x86_64"))]
pub(crate) mod x86;

#[cfg(all(
    feature = "unsafe",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
pub(crate) use copy::{copy_bytes, CopyKernel, REPLICATE_HISTORY};

/// A block decode kernel.
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
}

/// The environment variable that overrides detection.
pub const KERNEL_ENV: &str = "LZ4_SIMD_KERNEL";

impl Kernel {
    /// Every kernel, in order of preference when detecting (best first), `Scalar` last.
    pub const ALL: [Kernel; 5] = [
        Kernel::Avx512,
        Kernel::Avx2,
        Kernel::Sse2,
        Kernel::Neon,
        Kernel::Scalar,
    ];

    /// The kernel's name: `scalar`, `sse2`, `avx2`, `avx512`, `neon` (what `LZ4_SIMD_KERNEL` and
    /// [`FromStr`] take).
    pub const fn name(self) -> &'static str {
        match self {
            Kernel::Scalar => "scalar",
            Kernel::Sse2 => "sse2",
            Kernel::Avx2 => "avx2",
            Kernel::Neon => "neon",
            Kernel::Avx512 => "avx512",
        }
    }

    /// Whether this kernel can run on this CPU (and is compiled in).
    pub fn is_available(self) -> bool {
        match self {
            Kernel::Scalar => true,
            Kernel::Sse2 => cfg!(all(feature = "unsafe", target_arch = "x86_64")),
            Kernel::Avx2 => avx2_present(),
            Kernel::Neon => neon_present(),
            Kernel::Avx512 => avx512_present(),
        }
    }

    /// Every kernel this CPU can run, best first, `Scalar` included (last).
    pub fn available() -> Vec<Kernel> {
        Kernel::ALL
            .into_iter()
            .filter(|k| k.is_available())
            .collect()
    }

    /// The kernel `block::decompress` and friends use: the best
    /// available, or `LZ4_SIMD_KERNEL`'s choice. Decided on first use and cached.
    pub fn detect() -> Kernel {
        match DETECTED.load(Ordering::Relaxed) {
            0 => {
                let kernel = choose();
                DETECTED.store(kernel.index() + 1, Ordering::Relaxed);
                kernel
            }
            n => Kernel::from_index(n - 1),
        }
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
        }
    }

    const fn from_index(index: u8) -> Kernel {
        match index {
            1 => Kernel::Sse2,
            2 => Kernel::Avx2,
            3 => Kernel::Neon,
            4 => Kernel::Avx512,
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
/// stored.
static DETECTED: AtomicU8 = AtomicU8::new(0);

/// The best available kernel, or the environment's choice when valid and available.
fn choose() -> Kernel {
    let best = Kernel::ALL
        .into_iter()
        .find(|k| k.is_available())
        .unwrap_or(Kernel::Scalar);
    #[cfg(feature = "std")]
    if let Ok(value) = std::env::var(KERNEL_ENV) {
        match value.parse::<Kernel>() {
            Ok(kernel) if kernel.is_available() => return kernel,
            Ok(kernel) => std::eprintln!(
                "lz4-simd: {KERNEL_ENV}={value}: the {kernel} kernel is not available on this CPU or build; using {best}"
            ),
            Err(err) => std::eprintln!("lz4-simd: {KERNEL_ENV}: {err}; using {best}"),
        }
    }
    best
}

#[cfg(all(feature = "unsafe", target_arch = "x86_64", feature = "std"))]
fn avx2_present() -> bool {
    std::is_x86_feature_detected!("avx2")
}

#[cfg(all(feature = "unsafe", target_arch = "x86_64", not(feature = "std")))]
fn avx2_present() -> bool {
    cfg!(target_feature = "avx2")
}

#[cfg(not(all(feature = "unsafe", target_arch = "x86_64")))]
fn avx2_present() -> bool {
    false
}

/// AVX-512 F (64-byte loads and stores), BW (byte-granular 512-bit operations) and VBMI
/// (`vpermb`), everything the AVX-512 kernel uses.
#[cfg(all(feature = "unsafe", target_arch = "x86_64", feature = "std"))]
fn avx512_present() -> bool {
    std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("avx512vbmi")
}

#[cfg(all(feature = "unsafe", target_arch = "x86_64", not(feature = "std")))]
fn avx512_present() -> bool {
    cfg!(all(
        target_feature = "avx512f",
        target_feature = "avx512bw",
        target_feature = "avx512vbmi"
    ))
}

#[cfg(not(all(feature = "unsafe", target_arch = "x86_64")))]
fn avx512_present() -> bool {
    false
}

#[cfg(all(feature = "unsafe", target_arch = "aarch64", feature = "std"))]
fn neon_present() -> bool {
    std::arch::is_aarch64_feature_detected!("neon")
}

#[cfg(all(feature = "unsafe", target_arch = "aarch64", not(feature = "std")))]
fn neon_present() -> bool {
    cfg!(target_feature = "neon")
}

#[cfg(not(all(feature = "unsafe", target_arch = "aarch64")))]
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
