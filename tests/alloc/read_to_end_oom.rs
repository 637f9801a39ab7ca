//! `read_to_end` into a `Vec` that cannot grow (an allocator that refuses every allocation above
//! a threshold): the frame decoders return an error of kind `OutOfMemory` naming the size, and
//! what they appended before it is a prefix of the content; no panic, no abort (before
//! `53d64e8`, 2026-12-06, the error was `InvalidData`).
//!
//! The allocator is the binary's (`allocator`): it refuses on the calling thread only, where the
//! decoders grow the `Vec`.

use std::io::{ErrorKind, Read};

use lz4_simd::frame::{self, BlockSize, FrameDecoder, FrameOptions};
use testkit::samples::{self, Rng};

use crate::allocator::refusing_above;

/// What `read_to_end` gave with allocations above `limit` refused: the error, and the content
/// appended before it.
fn read_to_end_refusing(
    limit: usize,
    read: impl FnOnce(&mut Vec<u8>) -> std::io::Result<usize>,
) -> (std::io::Error, Vec<u8>) {
    let mut out = Vec::new();
    let result = refusing_above(limit, || read(&mut out));
    (result.expect_err("the content cannot fit"), out)
}

#[test]
fn read_to_end_reports_out_of_memory_and_keeps_a_prefix() {
    let unit = samples::text(1 << 20, &mut Rng::new(3));
    let data: Vec<u8> = unit.iter().copied().cycle().take(12 << 20).collect();
    let framed = frame::compress(
        &data,
        &FrameOptions::new()
            .block_size(BlockSize::Max1MB)
            .content_checksum(true),
    );
    let limit = 6 << 20;
    type ReadToEnd<'a> = Box<dyn FnOnce(&mut Vec<u8>) -> std::io::Result<usize> + 'a>;
    #[cfg_attr(not(feature = "parallel"), allow(unused_mut))]
    let mut decoders: Vec<(String, ReadToEnd)> = vec![(
        "FrameDecoder".into(),
        Box::new(|out| FrameDecoder::new(&framed[..]).read_to_end(out)),
    )];
    #[cfg(feature = "parallel")]
    for threads in [1, 2, 3] {
        let framed = &framed;
        decoders.push((
            format!("ParallelFrameDecoder on {threads} threads"),
            Box::new(move |out| {
                frame::ParallelFrameDecoder::new(&framed[..], threads).read_to_end(out)
            }),
        ));
    }
    for (name, read) in decoders {
        let (error, out) = read_to_end_refusing(limit, read);
        assert_eq!(error.kind(), ErrorKind::OutOfMemory, "{name}: {error}");
        assert!(
            error.to_string().contains("cannot allocate"),
            "{name}: {error}"
        );
        assert!(
            !out.is_empty() && out.len() <= limit && data.starts_with(&out),
            "{name}: {} bytes appended, not a prefix of the content within the limit",
            out.len()
        );
    }
}
