//! `frame::compress_into` and `frame::compress_bound`: the frames of `frame::compress` written
//! into the caller's buffer, for every option, in exactly the bound (nothing written past it),
//! and a clean `OutputTooSmall` one byte below it, with nothing written.

use lz4_simd::block::Dictionary;
use lz4_simd::frame::{self, BlockMode, BlockSize, FrameOptions};
use lz4_simd::Error;
use testkit::liblz4;
use testkit::samples::{self, Rng};

fn contents() -> Vec<Vec<u8>> {
    let mut rng = Rng::new(0x696e_746f);
    let mut all: Vec<Vec<u8>> = (0..=20).map(|len| samples::text(len, &mut rng)).collect();
    let mut nearly = rng.bytes(70_000);
    for i in (0..nearly.len() - 40).step_by(331) {
        nearly.copy_within(i..i + 6, i + 17);
    }
    all.extend([
        samples::text(65_536, &mut rng),
        samples::text(300_000, &mut rng),
        rng.bytes(70_000),
        nearly,
    ]);
    all
}

fn options() -> Vec<FrameOptions> {
    let mut all = Vec::new();
    for block_size in [BlockSize::Max64KB, BlockSize::Max256KB, BlockSize::Max4MB] {
        for mode in [BlockMode::Independent, BlockMode::Linked] {
            for (block_checksum, content_checksum, content_size) in [
                (false, true, false),
                (true, false, true),
                (false, false, false),
            ] {
                let base = FrameOptions::new()
                    .block_size(block_size)
                    .block_mode(mode)
                    .block_checksum(block_checksum)
                    .content_checksum(content_checksum)
                    .content_size(content_size);
                all.push(base.clone());
                all.push(base.clone().acceleration(9));
                all.push(base.clone().hc_level(Some(3)));
                all.push(base.hc_level(Some(10)).favor_dec_speed(true));
            }
        }
    }
    all
}

/// Writes with `compress_into` into exactly the bound, then checks the bytes against
/// `frame::compress` and one byte less against `OutputTooSmall`.
fn check(content: &[u8], options: &FrameOptions, dict: Option<&Dictionary>) {
    let want = match dict {
        Some(dict) => frame::compress_with_prepared_dictionary(content, dict, options),
        None => frame::compress(content, options),
    };
    let bound = frame::compress_bound(content.len(), options);
    assert!(bound >= want.len(), "bound {bound} < frame {}", want.len());
    let into = |dst: &mut [u8]| match dict {
        Some(dict) => frame::compress_into_with_prepared_dictionary(content, dst, dict, options),
        None => frame::compress_into(content, dst, options),
    };
    let mut dst = vec![0xa5u8; bound + 16];
    let len = into(&mut dst[..bound]).unwrap();
    assert!(
        dst[..len] == want[..],
        "{} bytes, {options:?}",
        content.len()
    );
    assert!(
        dst[bound..].iter().all(|&b| b == 0xa5),
        "wrote past the bound"
    );
    let mut small = vec![0x5au8; bound - 1];
    match into(&mut small) {
        Err(Error::OutputTooSmall { capacity, needed }) => {
            assert_eq!((capacity, needed), (bound - 1, bound));
        }
        other => panic!("{other:?}"),
    }
    assert!(
        small.iter().all(|&b| b == 0x5a),
        "wrote into a refused buffer"
    );
}

#[test]
fn compress_into_writes_compress_bytes_for_every_option() {
    let contents = contents();
    for options in options() {
        for content in &contents {
            check(content, &options, None);
        }
    }
}

#[test]
fn compress_into_with_a_prepared_dictionary() {
    let mut rng = Rng::new(7);
    let dict = Dictionary::new(&samples::text(20_000, &mut rng));
    let content = samples::text(150_000, &mut rng);
    for options in options().into_iter().step_by(3) {
        let options = options.dict_id(Some(7));
        check(&content, &options, Some(&dict));
        check(&content[..100], &options, Some(&dict));
    }
}

/// At the fast levels the bound is LZ4F's `LZ4F_compressFrameBound` for the same preferences.
#[test]
fn fast_bound_is_lz4fs() {
    for len in [
        0usize,
        1,
        15,
        65_535,
        65_536,
        65_537,
        1 << 20,
        (4 << 20) + 3,
    ] {
        for (code, size) in [(4u8, BlockSize::Max64KB), (7, BlockSize::Max4MB)] {
            for linked in [false, true] {
                let preferences = liblz4::fast_frame_preferences(code, linked, 1);
                let mode = if linked {
                    BlockMode::Linked
                } else {
                    BlockMode::Independent
                };
                let options = FrameOptions::new().block_size(size).block_mode(mode);
                assert_eq!(
                    frame::compress_bound(len, &options),
                    liblz4::compress_frame_bound(len, &preferences),
                    "{len} bytes, block code {code}, linked {linked}"
                );
            }
        }
    }
}

#[test]
fn bound_saturates() {
    assert_eq!(
        frame::compress_bound(usize::MAX, &FrameOptions::new()),
        usize::MAX
    );
    let hc = FrameOptions::new().hc_level(Some(9));
    assert_eq!(frame::compress_bound(usize::MAX - 10, &hc), usize::MAX);
}
