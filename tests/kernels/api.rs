//! The kernel API: `available()` / `detect()` / `name()` / `FromStr`, forcing an unavailable
//! kernel, the `LZ4_SIMD_KERNEL` override (re-running this test binary with the variable set;
//! what `Kernel::override_status()` says of it is tests/block/decoder_api.rs's), and the kernels
//! `LZ4_SIMD_REQUIRE_KERNELS` requires.

use lz4_simd::{block, Error, Kernel, KERNEL_ENV};
use testkit::kernels::{under_test, REQUIRE_KERNELS_ENV};
use testkit::process::rerun_test;
use testkit::BlockBuilder;

/// Tells `kernel_env_child` which kernel `Kernel::detect()` must return.
const EXPECT_ENV: &str = "LZ4_SIMD_TEST_EXPECT_KERNEL";
/// The child test's full name in this test binary (module path without the crate).
const CHILD_TEST: &str = "api::kernel_env_child";
const CHILD_MARKER: &str = "kernel_env_child: detect() =";

#[test]
fn required_kernels_are_available() {
    // `under_test` fails when a kernel the variable names is not available.
    let available = under_test();
    match std::env::var(REQUIRE_KERNELS_ENV) {
        Ok(list) => eprintln!("{REQUIRE_KERNELS_ENV}={list}: all available in {available:?}"),
        Err(_) => eprintln!("{REQUIRE_KERNELS_ENV} not set: no kernel required"),
    }
}

#[test]
fn kernel_api() {
    let available = under_test();
    assert_eq!(Kernel::ALL.last(), Some(&Kernel::Scalar));
    assert_eq!(
        available.last(),
        Some(&Kernel::Scalar),
        "Scalar must be last"
    );
    let in_preference_order: Vec<Kernel> = Kernel::ALL
        .into_iter()
        .filter(|k| k.is_available())
        .collect();
    assert_eq!(available, in_preference_order);
    let detected = Kernel::detect();
    assert!(available.contains(&detected), "detect() = {detected}");
    assert_eq!(Kernel::detect(), detected, "detection is cached");
    if std::env::var_os(KERNEL_ENV).is_none() {
        assert_eq!(detected, available[0], "detect() picks the best kernel");
    }
    if cfg!(feature = "unsafe") {
        if cfg!(target_arch = "x86_64") {
            assert!(Kernel::Sse2.is_available(), "SSE2 is x86_64 baseline");
            assert!(!Kernel::Neon.is_available());
        }
        if cfg!(target_arch = "aarch64") {
            assert!(Kernel::Neon.is_available(), "NEON is aarch64 baseline");
            assert!(
                !Kernel::Sse2.is_available()
                    && !Kernel::Avx2.is_available()
                    && !Kernel::Avx512.is_available()
            );
        }
    } else {
        assert_eq!(
            available,
            [Kernel::Scalar],
            "no SIMD kernel without `unsafe`"
        );
    }

    let mut names: Vec<&str> = Kernel::ALL.iter().map(|k| k.name()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), Kernel::ALL.len(), "kernel names are unique");
    for kernel in Kernel::ALL {
        let name = kernel.name();
        assert_eq!(kernel.to_string(), name);
        let mixed: String = name
            .chars()
            .enumerate()
            .map(|(i, c)| {
                if i % 2 == 0 {
                    c.to_ascii_uppercase()
                } else {
                    c
                }
            })
            .collect();
        for spelling in [
            name.to_string(),
            name.to_ascii_uppercase(),
            mixed,
            format!(" {name}\t"),
        ] {
            assert_eq!(spelling.parse::<Kernel>(), Ok(kernel), "{spelling:?}");
        }
    }
    for bad in [
        "bogus",
        "",
        "  ",
        "avx",
        "avx2x",
        "sse 2",
        "avx-2",
        "scalar,avx2",
        "x86",
    ] {
        assert_eq!(
            bad.parse::<Kernel>(),
            Err(Error::UnknownKernel {
                name: bad.trim().to_string()
            }),
            "{bad:?}"
        );
    }
}

/// A small valid block with overlapping and plain matches, and what it decodes to.
fn small_block() -> (Vec<u8>, Vec<u8>) {
    let mut builder = BlockBuilder::default();
    builder
        .sequence(b"0123456789abcdefghij", 3, 40)
        .sequence(b"xyz", 1, 33)
        .sequence(b"", 50, 70);
    builder.finish(b"the end of the block")
}

#[test]
fn forcing_an_unavailable_kernel() {
    let available = under_test();
    let (block, expected) = small_block();
    for kernel in &available {
        let mut dst = vec![0u8; expected.len()];
        assert_eq!(
            block::Decoder::with_kernel(*kernel)
                .and_then(|decoder| decoder.decompress_into(&block, &mut dst)),
            Ok(expected.len()),
            "{kernel}"
        );
        assert_eq!(dst, expected, "{kernel}");
    }
    let unavailable: Vec<Kernel> = Kernel::ALL
        .into_iter()
        .filter(|k| !k.is_available())
        .collect();
    eprintln!("unavailable kernels: {unavailable:?}");
    if cfg!(feature = "unsafe") {
        if cfg!(any(target_arch = "x86_64", target_arch = "aarch64")) {
            assert!(!unavailable.is_empty(), "some kernel is for another ISA");
        }
        for kernel in unavailable {
            let mut dst = vec![0xEEu8; expected.len()];
            assert_eq!(
                block::Decoder::with_kernel(kernel)
                    .and_then(|decoder| decoder.decompress_into(&block, &mut dst)),
                Err(Error::KernelUnavailable {
                    kernel: kernel.name()
                }),
                "{kernel}"
            );
            assert!(dst.iter().all(|&b| b == 0xEE), "{kernel}: dst written");
        }
    } else {
        // Without the `unsafe` feature every name maps to the scalar decoder.
        for kernel in Kernel::ALL {
            let mut dst = vec![0xEEu8; expected.len()];
            assert_eq!(
                block::Decoder::with_kernel(kernel)
                    .and_then(|decoder| decoder.decompress_into(&block, &mut dst)),
                Ok(expected.len()),
                "{kernel}"
            );
            assert_eq!(dst, expected, "{kernel}");
        }
    }
}

/// Runs in a child process started by `kernel_env_override` with `LZ4_SIMD_KERNEL` set; a no-op
/// when `LZ4_SIMD_TEST_EXPECT_KERNEL` is absent (the normal test run).
#[test]
fn kernel_env_child() {
    let Ok(expected) = std::env::var(EXPECT_ENV) else {
        return;
    };
    let expected: Kernel = expected.parse().expect("expected kernel name");
    let detected = Kernel::detect();
    assert_eq!(
        detected,
        expected,
        "{KERNEL_ENV}={:?}",
        std::env::var(KERNEL_ENV)
    );
    assert_eq!(Kernel::detect(), detected, "detection is cached");
    let (block, expected_output) = small_block();
    assert_eq!(
        block::decompress(&block, expected_output.len()),
        Ok(expected_output)
    );
    println!("{CHILD_MARKER} {detected}");
}

#[test]
fn kernel_env_override() {
    let available = under_test();
    let best = available[0];
    // (LZ4_SIMD_KERNEL, the kernel detect() must return)
    let mut cases: Vec<(Option<String>, Kernel)> = vec![(None, best)];
    for kernel in Kernel::ALL {
        let expected = if kernel.is_available() { kernel } else { best };
        cases.push((Some(kernel.name().to_string()), expected));
    }
    cases.push((Some(" SCALAR ".to_string()), Kernel::Scalar));
    cases.push((Some(best.name().to_ascii_uppercase()), best));
    cases.push((Some("bogus".to_string()), best));
    for (value, expected) in cases {
        let output = rerun_test(CHILD_TEST, |command| {
            command.env(EXPECT_ENV, expected.name());
            match &value {
                Some(value) => command.env(KERNEL_ENV, value),
                None => command.env_remove(KERNEL_ENV),
            };
        });
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        let context = format!(
            "{KERNEL_ENV}={value:?}, expected {expected}\n--- stdout\n{stdout}\n--- stderr\n{stderr}"
        );
        assert!(output.status.success(), "child failed: {context}");
        assert!(
            stdout.contains(&format!("{CHILD_MARKER} {expected}")),
            "child test did not run or report: {context}"
        );
        // The library never prints (an ignored override is `Kernel::override_status()`'s to
        // report): nothing about the variable on stderr.
        assert!(
            !stderr.contains(KERNEL_ENV),
            "the library printed about {KERNEL_ENV}: {context}"
        );
        eprintln!("{KERNEL_ENV}={value:?} -> {expected}");
    }
}
