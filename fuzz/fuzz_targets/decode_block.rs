//! Decodes arbitrary bytes as an LZ4 block and checks:
//!
//! - nothing outside `dst` is written (bytes of `dst` past the returned length may be, as
//!   `decompress_into` documents);
//! - the returned length is at most the capacity;
//! - decoding into buffers pre-filled with different bytes gives identical results (no stale or
//!   uninitialised byte can leak into the output or the verdict);
//! - the verdict does not depend on spare capacity (an accepted block decodes identically into an
//!   exact-size buffer);
//! - `block::decompress` agrees with `block::decompress_into`;
//! - against liblz4's `LZ4_decompress_safe` at the same capacity: every block liblz4 accepts that
//!   contains no offset 0, we accept with identical output; every block we accept that liblz4
//!   rejects lacks the end-of-block margins.
//!
//! Input layout: one selector byte (capacity range, guard alignment), 1-3 capacity bytes, then the
//! block.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lz4_simd::{block, Error};
use lz4_simd_fuzz::{capacity_and_front, Bytes};
use testkit::liblz4;
use testkit::parse::{parse_block, ParsedBlock};

/// Bytes after `dst` that must stay untouched.
const TAIL_GUARD: usize = 64;

/// Decodes `src` into `dst = buf[front..front + cap]` of a buffer filled with `fill`, checks
/// that nothing outside `dst` changed, and returns the verdict and the output.
fn decode_guarded(
    src: &[u8],
    cap: usize,
    front: usize,
    fill: u8,
) -> (Result<usize, Error>, Vec<u8>) {
    let mut buf = vec![fill; front + cap + TAIL_GUARD];
    let result = block::decompress_into(src, &mut buf[front..front + cap]);
    assert!(
        buf[..front].iter().all(|&b| b == fill),
        "decoder wrote before dst"
    );
    assert!(
        buf[front + cap..].iter().all(|&b| b == fill),
        "decoder wrote past dst (cap {cap})"
    );
    match result {
        Ok(len) => {
            assert!(len <= cap, "returned length {len} > capacity {cap}");
            (result, buf[front..front + len].to_vec())
        }
        Err(_) => (result, Vec::new()),
    }
}

/// `a == b`, except that the `capacity` field of output-overflow errors is ignored
/// (`decompress` caps its allocation below `max_out` when the input cannot fill it).
fn same_error_ignoring_capacity(a: &Error, b: &Error) -> bool {
    match (a, b) {
        (
            Error::LiteralsOverflowOutput {
                input_pos: ia,
                output_pos: oa,
                literal_len: la,
                ..
            },
            Error::LiteralsOverflowOutput {
                input_pos: ib,
                output_pos: ob,
                literal_len: lb,
                ..
            },
        ) => (ia, oa, la) == (ib, ob, lb),
        (
            Error::MatchOverflowsOutput {
                input_pos: ia,
                output_pos: oa,
                match_len: la,
                ..
            },
            Error::MatchOverflowsOutput {
                input_pos: ib,
                output_pos: ob,
                match_len: lb,
                ..
            },
        ) => (ia, oa, la) == (ib, ob, lb),
        _ => a == b,
    }
}

/// The block lacks the format's end-of-block margins as liblz4 sees them: its last literal run
/// is shorter than 5 bytes (a literal-only block's too: liblz4 rejects e.g. `0F` at capacity 0),
/// or its last match starts less than 12 bytes before the end of the output.
fn lacks_end_margins(parsed: &ParsedBlock) -> bool {
    !parsed.satisfies_margins() || parsed.last_literal_len().is_none_or(|len| len < 5)
}

/// The differential rule against liblz4 at one capacity.
fn check_against_liblz4(
    src: &[u8],
    cap: usize,
    parsed: &ParsedBlock,
    ours: &Result<usize, Error>,
    our_output: &[u8],
) {
    let theirs = liblz4::decompress_safe(src, cap);
    match (ours, theirs) {
        (Ok(_), Some(their_output)) => {
            assert_eq!(
                our_output,
                &their_output[..],
                "output differs from liblz4 (cap {cap})"
            );
        }
        (Err(err), Some(_)) => {
            assert!(
                parsed.has_offset_zero(),
                "liblz4 accepts (cap {cap}) a block without offset 0 that we reject: {err}"
            );
        }
        (Ok(len), None) => {
            assert!(
                parsed.is_complete() && parsed.decoded_len == *len,
                "parser disagrees with an accepted block: {parsed:?}, len {len}"
            );
            assert!(
                lacks_end_margins(parsed),
                "we accept (len {len}, cap {cap}) a block with end margins that liblz4 rejects: {parsed:?}"
            );
        }
        (Err(_), None) => {}
    }
}

fuzz_target!(|data: &[u8]| {
    let mut bytes = Bytes(data);
    let (cap, front) = capacity_and_front(&mut bytes);
    let src = bytes.rest();

    let (ours, our_output) = decode_guarded(src, cap, front, 0xA5);
    let (again, again_output) = decode_guarded(src, cap, 0, 0x5A);
    assert_eq!(
        ours, again,
        "verdict depends on the buffer's prior contents"
    );
    assert_eq!(
        our_output, again_output,
        "output depends on the buffer's prior contents"
    );

    match block::decompress(src, cap) {
        Ok(vec) => {
            assert!(
                ours.is_ok(),
                "decompress accepts, decompress_into: {ours:?}"
            );
            assert_eq!(vec, our_output, "decompress output differs");
        }
        Err(err) => match &ours {
            Ok(_) => panic!("decompress rejects ({err}), decompress_into accepts"),
            Err(into_err) => assert!(
                same_error_ignoring_capacity(&err, into_err),
                "decompress error {err:?} vs decompress_into error {into_err:?}"
            ),
        },
    }

    let parsed = parse_block(src);
    if let Ok(len) = ours {
        assert!(!parsed.has_offset_zero(), "accepted a block with offset 0");
        if len != cap {
            let (exact, exact_output) = decode_guarded(src, len, 0, 0x00);
            assert_eq!(exact, Ok(len), "verdict depends on spare capacity");
            assert_eq!(exact_output, our_output);
            check_against_liblz4(src, len, &parsed, &exact, &exact_output);
        }
    }
    check_against_liblz4(src, cap, &parsed, &ours, &our_output);
});
