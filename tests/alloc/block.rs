//! How much the block decoders' `Vec` operations allocate, measured by a counting global
//! allocator: never more than the output cap (`min(max_out, 255 × input)`), a small first
//! reservation when `max_out` is no real limit, and no panic for sizes a 32-bit target cannot
//! address (an `Error` instead). Runs in the 32-bit step of `.ci/run` (`.ci/i686.sh`), where the
//! 9 MiB case used to panic with "capacity overflow".
//!
//! The binary's allocator (`allocator`) records the largest allocation through `testkit::alloc`.

use lz4_simd::block;
use lz4_simd::{Error, ErrorKind};
use testkit::alloc::largest_allocation;
use testkit::samples::XorShift;

/// Bytes that do not compress (xorshift).
fn noise(len: usize, seed: u64) -> Vec<u8> {
    let mut rng = XorShift(seed | 1);
    (0..len).map(|_| (rng.next_u64() >> 24) as u8).collect()
}

/// The first reservation of a decode without a real cap: 4 bytes per input byte, at least 64 KiB.
fn first_room(compressed_len: usize) -> usize {
    (4 * compressed_len).max(64 << 10)
}

/// On 32-bit targets a valid 9 MiB block with `max_out = usize::MAX` made `decompress`,
/// `decompress_size_prepended`, `decompress_with_dictionary` and `decompress_append` reserve
/// `255 × 9 MiB` up front, more than `isize::MAX`, and panic (before `a510f0b`, 2026-12-04).
/// Now each decodes, with a first reservation of 4 × the input.
#[test]
fn nine_mib_block_without_a_cap() {
    let data = noise(9 << 20, 15);
    let compressed = block::compress(&data).unwrap();
    let n = compressed.len();
    assert!(n > 9 << 20, "incompressible: {n}");
    let (result, largest) = largest_allocation(|| block::decompress(&compressed, usize::MAX));
    assert!(result.unwrap() == data, "decompress");
    assert!(
        largest <= first_room(n),
        "decompress allocated {largest} for a {n}-byte block"
    );

    let prepended = block::compress_prepend_size(&data).unwrap();
    let (result, largest) =
        largest_allocation(|| block::decompress_size_prepended(&prepended, usize::MAX));
    assert!(result.unwrap() == data, "decompress_size_prepended");
    assert!(largest <= data.len(), "size-prepended: {largest}");

    let dict = noise(100_000, 16);
    let with_dict = block::compress_with_dictionary(&data, &dict, 1).unwrap();
    let (result, largest) =
        largest_allocation(|| block::decompress_with_dictionary(&with_dict, &dict, usize::MAX));
    assert!(result.unwrap() == data, "decompress_with_dictionary");
    assert!(
        largest <= 65536 + first_room(with_dict.len()),
        "with dict: {largest}"
    );

    let mut out = b"already here".to_vec();
    let (result, largest) =
        largest_allocation(|| block::decompress_append(&compressed, &mut out, 0, usize::MAX));
    assert_eq!(result, Ok(data.len()), "decompress_append");
    assert!(out[12..] == data[..], "decompress_append");
    assert!(largest <= 12 + first_room(n), "append: {largest}");
}

/// A size prefix declaring 3 GiB over a block that could (by its size) produce it, with no
/// other cap: on 32-bit the reservation exceeds `isize::MAX`, an `Error` (it was a panic); on
/// 64-bit it is virtual memory, and the block's own error follows.
#[test]
fn declared_size_beyond_the_address_space_is_an_error() {
    let declared: u32 = 3 << 30;
    let block_len = (declared as usize).div_ceil(255) + 1;
    // A literal-length extension that never ends: invalid, found without writing any output.
    let mut src = declared.to_le_bytes().to_vec();
    src.push(0xF0);
    src.resize(4 + block_len, 0xFF);
    let error = block::decompress_size_prepended(&src, usize::MAX).unwrap_err();
    if cfg!(target_pointer_width = "32") {
        assert_eq!(
            error,
            Error::AllocationFailed {
                bytes: declared as usize
            }
        );
        assert_eq!(error.kind(), ErrorKind::LimitExceeded);
        assert!(error.to_string().contains("3221225472 bytes"), "{error}");
    } else {
        // (AllocationFailed where the system refuses 3 GiB of address space.)
        assert!(
            matches!(
                error,
                Error::TruncatedLength { input_pos: 0 } | Error::AllocationFailed { .. }
            ),
            "{error}"
        );
    }
    // Without a declared size the same block gets a small first reservation and its own error.
    let (result, largest) = largest_allocation(|| block::decompress(&src[4..], usize::MAX));
    assert_eq!(result, Err(Error::TruncatedLength { input_pos: 0 }));
    assert!(largest <= first_room(block_len), "{largest}");
}

/// Every `Vec` operation stays within `min(max_out, 255 × input)` (plus the history it was
/// given), with caps below, at and above the decoded size.
#[test]
fn allocations_stay_within_the_cap() {
    let mut data = noise(50_000, 17);
    data.extend(std::iter::repeat_n(b'a', 400_000));
    data.extend(noise(10_000, 18));
    let compressed = block::compress(&data).unwrap();
    let n = compressed.len();
    let len = data.len();
    let dict = noise(70_000, 19);
    let with_dict = block::compress_with_dictionary(&data, &dict, 1).unwrap();
    let prepended = block::compress_prepend_size(&data).unwrap();
    for max_out in [
        0,
        1,
        len / 2,
        len - 1,
        len,
        len + 1,
        2 * len,
        255 * n,
        usize::MAX,
    ] {
        let cap = max_out.min(255 * n);
        let (result, largest) = largest_allocation(|| block::decompress(&compressed, max_out));
        assert_eq!(result.is_ok(), max_out >= len, "max_out {max_out}");
        assert!(
            largest <= cap,
            "decompress, max_out {max_out}: {largest} > {cap}"
        );
        if let Ok(out) = result {
            assert!(out == data);
            assert!(
                out.capacity() <= len + len / 4 + 4096,
                "kept capacity {}",
                out.capacity()
            );
        }

        let (result, largest) =
            largest_allocation(|| block::decompress_size_prepended(&prepended, max_out));
        assert_eq!(result.is_ok(), max_out >= len, "max_out {max_out}");
        assert!(
            largest <= len.min(max_out),
            "size-prepended, max_out {max_out}: {largest}"
        );

        let dict_cap = 65536 + max_out.min(255 * with_dict.len());
        let (result, largest) =
            largest_allocation(|| block::decompress_with_dictionary(&with_dict, &dict, max_out));
        assert_eq!(result.is_ok(), max_out >= len, "max_out {max_out}");
        assert!(
            largest <= dict_cap,
            "with dict, max_out {max_out}: {largest} > {dict_cap}"
        );

        let mut out = Vec::with_capacity(100);
        out.extend_from_slice(b"history");
        let (result, largest) =
            largest_allocation(|| block::decompress_append(&compressed, &mut out, 7, max_out));
        assert_eq!(result.is_ok(), max_out >= len, "max_out {max_out}");
        assert!(
            largest <= 100.max(7 + cap),
            "append, max_out {max_out}: {largest}"
        );
        match result {
            Ok(_) => assert!(out[7..] == data[..]),
            Err(error) => {
                assert_eq!(out, b"history", "unchanged after {error}");
                assert_eq!(error.kind(), ErrorKind::LimitExceeded, "{error}");
            }
        }
    }
}
