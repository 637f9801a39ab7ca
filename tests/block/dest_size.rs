//! `block::compress_dest_size` against liblz4 1.10's `LZ4_compress_destSize`: the same
//! (consumed, written) and the same bytes for every destination size from 0 to the bound on small
//! inputs (sampled on large ones, around the u16/u32 table switch, and on Silesia samples); the
//! block decodes to exactly the consumed prefix; nothing is written past `dst`.
//!
//! liblz4 is called through `testkit::liblz4`.

use lz4_simd::{block, Error};
use testkit::samples::XorShift as Rng;
use testkit::{corpus, liblz4};

const CANARY: u8 = 0xA5;

/// Ours against liblz4 for `cap`, with canaries after `dst`, and the round trip.
fn check(src: &[u8], cap: usize, label: &str) {
    let mut buf = vec![CANARY; cap + 32];
    // No room for a block (an empty page) is an error; liblz4 returns 0.
    let (consumed, written) = block::compress_dest_size(src, &mut buf[..cap]).unwrap_or_default();
    assert!(
        buf[cap..].iter().all(|&b| b == CANARY),
        "{label}, cap {cap}: wrote past dst"
    );
    let (want_consumed, want_written, want) = liblz4::compress_dest_size(src, cap);
    assert_eq!(
        (consumed, written),
        (want_consumed, want_written),
        "{label} ({} bytes), cap {cap}: (consumed, written)",
        src.len()
    );
    assert!(buf[..written] == want[..], "{label}, cap {cap}: bytes");
    assert!(written <= cap && consumed <= src.len());
    if written > 0 {
        let back = block::decompress(&buf[..written], consumed).unwrap();
        assert!(back == src[..consumed], "{label}, cap {cap}: round trip");
    }
}

/// Samples of several kinds: text-like, random, long runs (matches longer than a page, which the
/// fill rules shorten), and a two-letter alphabet (matches of every length).
fn sample(kind: usize, len: usize, seed: u64) -> Vec<u8> {
    const WORDS: [&str; 12] = [
        "the ",
        "page ",
        "record ",
        "GET /api/",
        "id:",
        "42, ",
        "ERROR ",
        "INFO ",
        "\n",
        "lz4 ",
        "storage ",
        "block ",
    ];
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut out = Vec::with_capacity(len + 16);
    while out.len() < len {
        match kind {
            0 => out.extend_from_slice(WORDS[rng.below(WORDS.len())].as_bytes()),
            1 => out.push(rng.next_u64() as u8),
            2 => {
                let run = 1 + rng.below(2000);
                let byte = b'a' + rng.below(3) as u8;
                out.extend(std::iter::repeat_n(byte, run));
            }
            _ => out.push(b'a' + (rng.next_u64() >> 63) as u8),
        }
    }
    out.truncate(len);
    out
}

#[test]
fn every_destination_size_on_small_inputs() {
    for kind in 0..4 {
        for len in (0..=40).chain([64, 100, 255, 300, 1000]) {
            let src = sample(kind, len, (kind * 1000 + len) as u64);
            for cap in 0..=block::compress_bound(len) + 1 {
                check(&src, cap, &format!("kind {kind}"));
            }
        }
    }
}

#[test]
fn sampled_destination_sizes_on_large_inputs() {
    let mut rng = Rng(77);
    for kind in 0..4 {
        for len in [4096, 65_535, 65_546, 65_547, 70_000, 1 << 20] {
            let src = sample(kind, len, len as u64 + kind as u64);
            let bound = block::compress_bound(len);
            let mut caps: Vec<usize> = (0..40).chain([bound - 1, bound]).collect();
            caps.extend((0..25).map(|_| rng.below(bound)));
            caps.extend((0..10).map(|_| rng.below(len / 4 + 1)));
            for cap in caps {
                check(&src, cap, &format!("kind {kind}"));
            }
        }
    }
}

#[test]
fn silesia_pages() {
    let mut found = false;
    for name in ["dickens", "xml", "ooffice", "osdb", "reymont"] {
        let Some(data) = corpus::file(name, 1 << 20) else {
            continue;
        };
        found = true;
        for len in [4096, 65_546, data.len()] {
            for cap in [1, 13, 100, 512, 4096, 16_384, 65_536, 300_000] {
                check(&data[..len], cap, name);
            }
        }
    }
    if !found {
        eprintln!("NOTICE: Silesia corpus not found; generated data only");
    }
}

#[test]
fn edges() {
    // An empty input: the block `00` when one byte fits; an empty page holds no block.
    let mut dst = [CANARY; 4];
    assert_eq!(block::compress_dest_size(&[], &mut dst).unwrap(), (0, 1));
    assert_eq!(dst[0], 0);
    assert_eq!(
        block::compress_dest_size(b"abc", &mut []),
        Err(Error::OutputTooSmall {
            capacity: 0,
            needed: 1
        })
    );
    // A large enough page takes the whole input, as `compress` does.
    let src = sample(0, 5000, 3);
    let mut page = vec![0u8; block::compress_bound(src.len())];
    let (consumed, written) = block::compress_dest_size(&src, &mut page).unwrap();
    assert_eq!(consumed, src.len());
    assert_eq!(&page[..written], &block::compress(&src).unwrap()[..]);
}
