//! The block API as one rule: `block::Decoder` (detected or chosen kernel; every operation) agrees
//! with the free functions and with itself across kernels, forcing an unavailable kernel is an
//! error, `Error::kind` and `Error::source`, and what became of `LZ4_SIMD_KERNEL` as a value.
//!
//! No C library calls: runs in the 32-bit step of `.ci/run` too.

use std::mem::MaybeUninit;

use lz4_simd::block::{self, Decoder};
use lz4_simd::frame::{self, BlockMode, BlockSize, FrameOptions};
use lz4_simd::{Error, ErrorKind, Kernel, KernelOverride, KERNEL_ENV};
use testkit::process::rerun_test;

/// Deterministic sample data: runs, short-offset repeats, text-like and noisy stretches.
fn sample(len: usize, seed: u64) -> Vec<u8> {
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut out = Vec::with_capacity(len);
    while out.len() < len {
        let r = next();
        match r % 4 {
            0 => out.extend(std::iter::repeat_n((r >> 8) as u8, (r >> 16) as usize % 40)),
            1 => {
                let offset = 1 + (r >> 8) as usize % 20;
                for _ in 0..(r >> 24) as usize % 60 {
                    let byte = out.len().checked_sub(offset).map_or(b'x', |at| out[at]);
                    out.push(byte);
                }
            }
            2 => out.extend_from_slice(b"the block decoder reads tokens, "),
            _ => out.extend((0..(r >> 8) as usize % 30).map(|_| next() as u8)),
        }
    }
    out.truncate(len);
    out
}

fn decoders() -> Vec<Decoder> {
    Kernel::available()
        .into_iter()
        .map(|kernel| Decoder::with_kernel(kernel).expect("available kernel"))
        .collect()
}

#[test]
fn new_uses_the_detected_kernel() {
    assert_eq!(Decoder::new().kernel(), Kernel::detect());
    assert_eq!(Decoder::default().kernel(), Kernel::detect());
    assert_eq!(
        format!("{:?}", Decoder::new()),
        format!("Decoder {{ kernel: {:?} }}", Kernel::detect())
    );
}

#[test]
fn forcing_an_unavailable_kernel_is_an_error() {
    for kernel in Kernel::ALL {
        match Decoder::with_kernel(kernel) {
            Ok(decoder) => {
                // Without the `unsafe` feature every kernel is the scalar decoder.
                assert!(
                    decoder.kernel() == kernel || decoder.kernel() == Kernel::Scalar,
                    "{kernel} gave {}",
                    decoder.kernel()
                );
                assert!(decoder.kernel().is_available());
            }
            Err(error) => {
                assert!(!kernel.is_available(), "{kernel} is available: {error}");
                assert_eq!(
                    error,
                    Error::KernelUnavailable {
                        kernel: kernel.name()
                    }
                );
                assert_eq!(error.kind(), ErrorKind::Unsupported);
                // The free functions that take a kernel say the same.
                let mut dst = [0u8; 8];
                assert_eq!(
                    block::Decoder::with_kernel(kernel)
                        .and_then(|decoder| decoder.decompress_into(&[0x00], &mut dst)),
                    Err(error)
                );
            }
        }
    }
    assert_eq!(
        Decoder::with_kernel(Kernel::Scalar).unwrap().kernel(),
        Kernel::Scalar
    );
}

/// Every operation of every kernel's decoder against the free functions (the detected kernel).
#[test]
fn every_operation_agrees_across_kernels() {
    let dict = sample(3000, 99);
    for (len, seed) in [
        (0usize, 1u64),
        (1, 2),
        (13, 3),
        (20, 4),
        (100, 5),
        (5000, 6),
        (70_000, 7),
    ] {
        let data = sample(len, seed);
        let compressed = block::compress(&data).unwrap();
        let with_dict = block::compress_with_dictionary(&data, &dict, 1).unwrap();
        let prepended = block::compress_prepend_size(&data).unwrap();
        let expected = block::decompress(&compressed, len).unwrap();
        assert_eq!(expected, data);
        for decoder in decoders() {
            let kernel = decoder.kernel();
            assert_eq!(
                decoder.decompress(&compressed, len).unwrap(),
                data,
                "{kernel}"
            );
            assert_eq!(
                decoder.decompress(&compressed, usize::MAX).unwrap(),
                data,
                "{kernel} without a cap"
            );
            assert_eq!(
                decoder.decompress_size_prepended(&prepended, len).unwrap(),
                data,
                "{kernel}"
            );
            assert_eq!(
                decoder
                    .decompress_with_dictionary(&with_dict, &dict, len)
                    .unwrap(),
                data,
                "{kernel}"
            );
            assert_eq!(
                block::decompress_with_dictionary(&with_dict, &dict, len).unwrap(),
                data
            );

            // Into a slice: exact, and oversized with a canary past it.
            let mut exact = vec![0xA5u8; len];
            assert_eq!(decoder.decompress_into(&compressed, &mut exact), Ok(len));
            assert_eq!(exact, data, "{kernel}");
            let mut roomy = vec![0x5Au8; len + 100];
            assert_eq!(
                decoder.decompress_into(&compressed, &mut roomy[..len + 64]),
                Ok(len)
            );
            assert_eq!(&roomy[..len], &data[..], "{kernel}");
            assert!(
                roomy[len + 64..].iter().all(|&b| b == 0x5A),
                "{kernel}: canary"
            );

            // Into uninitialised memory.
            let mut spare: Vec<u8> = Vec::with_capacity(len + 64);
            let n = decoder
                .decompress_into_uninit(&compressed, &mut spare.spare_capacity_mut()[..len + 64])
                .unwrap();
            assert_eq!(n, len);
            // SAFETY: decompress_into_uninit returned Ok(n): the first n bytes are initialised.
            unsafe { spare.set_len(n) };
            assert_eq!(spare, data, "{kernel}");

            // Behind history (the dictionary in front of the output).
            let history = &dict[dict.len().saturating_sub(65536)..];
            let mut buf = history.to_vec();
            buf.resize(history.len() + len, 0);
            assert_eq!(
                decoder.decompress_into_with_history(&with_dict, &mut buf, history.len()),
                Ok(len)
            );
            assert_eq!(&buf[history.len()..], &data[..], "{kernel}");
            assert_eq!(
                block::Decoder::with_kernel(kernel).and_then(|decoder| decoder
                    .decompress_into_with_history(&with_dict, &mut buf, history.len())),
                Ok(len)
            );

            // Appended to a Vec whose tail is the history.
            let mut out = b"prefix".to_vec();
            out.extend_from_slice(history);
            let before = out.len();
            assert_eq!(
                decoder.decompress_append(&with_dict, &mut out, history.len(), len),
                Ok(len)
            );
            assert_eq!(&out[before..], &data[..], "{kernel}");
            assert!(
                out.capacity() <= before + len.max(1) + 64,
                "{kernel}: exact growth"
            );
            // One byte short of room: an error, and the Vec unchanged.
            if len > 0 {
                let mut short = b"prefix".to_vec();
                short.extend_from_slice(history);
                let copy = short.clone();
                let error = decoder
                    .decompress_append(&with_dict, &mut short, history.len(), len - 1)
                    .unwrap_err();
                assert_eq!(error.kind(), ErrorKind::LimitExceeded, "{kernel}: {error}");
                assert_eq!(short, copy, "{kernel}: unchanged after an error");
            }
        }
    }
}

/// `decompress` with a cap above what the block can produce starts small and grows: the result
/// and every verdict are those of decoding into the full cap at once.
#[test]
fn growing_room_gives_the_verdicts_of_the_full_cap() {
    // Compress well (far more than 4:1), so the first room is too small.
    let mut data = vec![0u8; 3 << 20];
    data.extend(sample(100_000, 3));
    data.extend(std::iter::repeat_n(b'q', 2 << 20));
    let compressed = block::compress(&data).unwrap();
    assert!(compressed.len() * 8 < data.len());
    for decoder in decoders() {
        let kernel = decoder.kernel();
        let out = decoder.decompress(&compressed, usize::MAX).unwrap();
        assert!(out == data, "{kernel}");
        assert!(
            out.capacity() - out.len() <= out.len() / 4 + 4096,
            "{kernel}: oversized result"
        );
        let mut appended = vec![1, 2, 3];
        assert_eq!(
            decoder.decompress_append(&compressed, &mut appended, 0, usize::MAX),
            Ok(data.len())
        );
        assert!(appended[3..] == data[..], "{kernel}");
        // Caps around the size: the overflow error names the cap, as decoding into a slice does.
        for cap in [data.len() - 1, data.len() / 2, 100_000] {
            let mut slice = vec![0u8; cap];
            let expected = decoder
                .decompress_into(&compressed, &mut slice)
                .unwrap_err();
            assert_eq!(
                decoder.decompress(&compressed, cap),
                Err(expected.clone()),
                "{kernel}"
            );
            assert_eq!(expected.kind(), ErrorKind::LimitExceeded);
        }
    }
    // A corrupt block whose corruption lies past the first room: the corruption is reported, not
    // an overflow of the first room.
    let mut bad = compressed.clone();
    let at = bad.len() - 3;
    bad.truncate(at);
    let error = block::decompress(&bad, usize::MAX).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::CorruptInput, "{error}");
    let mut big = vec![0u8; 255 * bad.len()];
    assert_eq!(block::decompress_into(&bad, &mut big), Err(error));
}

#[test]
fn error_kinds() {
    let block = block::compress(&[7u8; 1000]).unwrap();
    let too_small = block::decompress(&block, 10).unwrap_err();
    assert_eq!(too_small.kind(), ErrorKind::LimitExceeded);
    let offset_zero = block::decompress(&[0x11, b'a', 0x00, 0x00, 0x10, b'b'], 100).unwrap_err();
    assert_eq!(offset_zero.kind(), ErrorKind::CorruptInput);
    assert_eq!(
        block::decompress(&[], 10).unwrap_err().kind(),
        ErrorKind::CorruptInput
    );
    let prefixed = block::compress_prepend_size(&[1u8; 100]).unwrap();
    assert_eq!(
        block::decompress_size_prepended(&prefixed, 50)
            .unwrap_err()
            .kind(),
        ErrorKind::LimitExceeded
    );
    assert_eq!(
        "avx9000".parse::<Kernel>().unwrap_err().kind(),
        ErrorKind::InvalidArgument
    );
    assert_eq!(
        Error::AllocationFailed { bytes: 1 << 31 }.kind(),
        ErrorKind::LimitExceeded
    );
    assert_eq!(
        Error::FrameUnsupportedVersion {
            input_pos: 4,
            version: 2
        }
        .kind(),
        ErrorKind::Unsupported
    );
    assert_eq!(
        Error::FrameMissingDictionary { dict_id: 7 }.kind(),
        ErrorKind::InvalidArgument
    );
    assert_eq!(
        Error::FrameContentChecksum {
            input_pos: 0,
            expected: 1,
            found: 2
        }
        .kind(),
        ErrorKind::CorruptInput
    );
    assert_eq!(ErrorKind::LimitExceeded.to_string(), "limit exceeded");
    // Frames: a cap below the declared content size is a limit; a damaged frame is corrupt.
    let data = sample(200_000, 11);
    let options = FrameOptions::new()
        .block_size(BlockSize::Max64KB)
        .block_mode(BlockMode::Independent);
    let framed = frame::compress(&data, &options);
    assert_eq!(
        frame::decompress(&framed, 1000).unwrap_err().kind(),
        ErrorKind::LimitExceeded
    );
    assert_eq!(
        frame::decompress(&framed[..framed.len() / 2], usize::MAX)
            .unwrap_err()
            .kind(),
        ErrorKind::CorruptInput
    );
}

/// `Error::FrameBlock`'s block error is its `source()`; errors that wrap nothing have none.
#[test]
fn frame_block_error_has_the_block_error_as_source() {
    use std::error::Error as _;
    let data = sample(100_000, 12);
    let options = FrameOptions::new()
        .block_size(BlockSize::Max64KB)
        .content_checksum(false);
    let framed = frame::compress(&data, &options);
    // Damage the first block's data (no block checksum, so the block decoder sees it) until the
    // frame decoder reports a corrupt block.
    let mut found = None;
    for at in 11..200 {
        let mut bad = framed.clone();
        bad[at] ^= 0xFF;
        if let Err(error @ Error::FrameBlock { .. }) = frame::decompress(&bad, usize::MAX) {
            found = Some(error);
            break;
        }
    }
    let error = found.expect("some damage is a corrupt block");
    let Error::FrameBlock { error: inner, .. } = &error else {
        unreachable!()
    };
    let source = error.source().expect("FrameBlock has a source");
    assert_eq!(source.downcast_ref::<Error>(), Some(&**inner));
    assert_eq!(source.to_string(), inner.to_string());
    assert!(error.to_string().contains(&inner.to_string()));
    assert_eq!(error.kind(), ErrorKind::CorruptInput);
    assert!(inner.source().is_none());
    assert!(Error::EmptyInput.source().is_none());
}

#[test]
fn unknown_kernel_message_lists_every_kernel() {
    let error = "bogus".parse::<Kernel>().unwrap_err();
    let message = error.to_string();
    for kernel in Kernel::ALL {
        assert!(
            message.contains(kernel.name()),
            "{kernel} missing: {message}"
        );
    }
}

const STATUS_CHILD: &str = "decoder_api::override_status_child";
const EXPECT_STATUS_ENV: &str = "LZ4_SIMD_TEST_EXPECT_OVERRIDE";

/// What `override_status` returns in this process is consistent with `detect`; with the
/// variable set, the cases run in child processes ([`override_status_child`]).
#[test]
fn override_status_is_a_value() {
    let status = Kernel::override_status();
    match &status {
        KernelOverride::NotSet => assert!(std::env::var_os(KERNEL_ENV).is_none()),
        KernelOverride::Used(kernel) => assert_eq!(Kernel::detect(), *kernel),
        KernelOverride::Unavailable { using, .. } | KernelOverride::Unknown { using, .. } => {
            assert_eq!(Kernel::detect(), *using)
        }
        other => panic!("new status {other:?}"),
    }
    if std::env::var_os(EXPECT_STATUS_ENV).is_some() {
        return;
    }
    let best = Kernel::available()[0];
    let unavailable = Kernel::ALL.into_iter().find(|k| !k.is_available());
    let mut cases: Vec<(Option<String>, String)> = vec![
        (None, "not set".into()),
        (Some("bogus".into()), format!("unknown bogus {best}")),
        (Some(" SCALAR ".into()), "used scalar".into()),
        (Some(best.name().into()), format!("used {best}")),
    ];
    if let Some(kernel) = unavailable {
        cases.push((
            Some(kernel.name().into()),
            format!("unavailable {kernel} {best}"),
        ));
    }
    for (value, expected) in cases {
        let output = rerun_test(STATUS_CHILD, |command| {
            command.env(EXPECT_STATUS_ENV, &expected);
            match &value {
                Some(value) => command.env(KERNEL_ENV, value),
                None => command.env_remove(KERNEL_ENV),
            };
        });
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        let context = format!("{KERNEL_ENV}={value:?}\n--- stdout\n{stdout}\n--- stderr\n{stderr}");
        assert!(output.status.success(), "child failed: {context}");
        assert!(
            stdout.contains("override status checked"),
            "child did not run: {context}"
        );
        // The library never prints: nothing about the variable on stderr.
        assert!(
            !stderr.contains(KERNEL_ENV),
            "the library printed: {context}"
        );
    }
}

/// Runs in a child process started by `override_status_is_a_value`; a no-op otherwise.
#[test]
fn override_status_child() {
    let Ok(expected) = std::env::var(EXPECT_STATUS_ENV) else {
        return;
    };
    let status = Kernel::override_status();
    let described = match &status {
        KernelOverride::NotSet => "not set".to_string(),
        KernelOverride::Used(kernel) => format!("used {kernel}"),
        KernelOverride::Unavailable { requested, using } => {
            format!("unavailable {requested} {using}")
        }
        KernelOverride::Unknown { value, using } => format!("unknown {value} {using}"),
        other => format!("{other:?}"),
    };
    assert_eq!(described, expected);
    let message = status.to_string();
    assert!(message.contains(KERNEL_ENV), "{message}");
    if let KernelOverride::Unknown { using, .. } | KernelOverride::Unavailable { using, .. } =
        &status
    {
        assert!(message.ends_with(&format!("using {using}")), "{message}");
    }
    // Decoding works with whatever was chosen, and the status stays.
    let data = sample(10_000, 5);
    assert_eq!(
        block::decompress(&block::compress(&data).unwrap(), data.len()).unwrap(),
        data
    );
    assert_eq!(Kernel::override_status(), status);
    println!("override status checked");
}

#[test]
fn uninit_decode_of_every_small_block() {
    // Blocks of every length up to 40, into uninitialised buffers of exact and larger sizes.
    for len in 0..=40 {
        let data = sample(len, len as u64 + 100);
        let compressed = block::compress(&data).unwrap();
        for decoder in decoders() {
            for extra in [0usize, 1, 15, 64] {
                let mut buf = vec![MaybeUninit::<u8>::uninit(); len + extra];
                let n = decoder
                    .decompress_into_uninit(&compressed, &mut buf)
                    .unwrap();
                assert_eq!(n, len);
                // SAFETY: on Ok(n) the first n bytes are initialised.
                let got: Vec<u8> = buf[..n]
                    .iter()
                    .map(|b| unsafe { b.assume_init() })
                    .collect();
                assert_eq!(got, data, "{} len {len} extra {extra}", decoder.kernel());
            }
        }
    }
}
