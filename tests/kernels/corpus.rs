//! Silesia chunks (64 KiB and 4 MiB), compressed by ours, liblz4 fast and liblz4 HC 3, 9 and 12.

use lz4_simd::block;
use testkit::kernels::for_each_kernel;
use testkit::{corpus, liblz4};

use crate::harness::compare;
use crate::DEBUG;

type Compressor = (&'static str, fn(&[u8]) -> Vec<u8>);

const COMPRESSORS: [Compressor; 5] = [
    ("lz4_simd::block::compress", |src| {
        block::compress(src).unwrap()
    }),
    ("liblz4 fast 1", |src| liblz4::compress_fast(src, 1)),
    ("liblz4 HC 3", |src| liblz4::compress_hc(src, 3)),
    ("liblz4 HC 9", |src| liblz4::compress_hc(src, 9)),
    ("liblz4 HC 12", |src| liblz4::compress_hc(src, 12)),
];

/// One compressed chunk to decode.
struct Case<'a> {
    file: &'a str,
    chunk_index: usize,
    chunk: &'a [u8],
    compressor_index: usize,
    compressed: Vec<u8>,
}

/// The chunks of `chunk_size` bytes a run decodes (all in release builds; in debug builds the
/// first, a middle and the last 64 KiB chunk of every file and two 4 MiB chunks), each compressed
/// by every compressor; a block identical to the previous compressor's is left out (ours is
/// byte-identical to liblz4 fast: decoding it again adds nothing).
fn cases(files: &[(String, Vec<u8>)], chunk_size: usize) -> Vec<Case<'_>> {
    let mut cases = Vec::new();
    let mut identical_blocks = 0u64;
    for (file_index, (name, data)) in files.iter().enumerate() {
        let chunks: Vec<&[u8]> = data.chunks(chunk_size).collect();
        let picked: Vec<usize> = if !DEBUG {
            (0..chunks.len()).collect()
        } else if chunk_size == 64 << 10 {
            // First, a middle and the last (short) chunk of every file.
            let mut picked = vec![0, chunks.len() / 2, chunks.len() - 1];
            picked.dedup();
            picked
        } else if file_index == 0 {
            vec![chunks.len() - 1]
        } else if file_index == 1 {
            vec![0]
        } else {
            Vec::new()
        };
        for chunk_index in picked {
            let mut previous: Vec<u8> = Vec::new();
            for (compressor_index, (_, compress)) in COMPRESSORS.iter().enumerate() {
                let compressed = compress(chunks[chunk_index]);
                if compressed == previous {
                    identical_blocks += 1;
                    continue;
                }
                previous.clone_from(&compressed);
                cases.push(Case {
                    file: name,
                    chunk_index,
                    chunk: chunks[chunk_index],
                    compressor_index,
                    compressed,
                });
            }
        }
    }
    eprintln!(
        "corpus, {chunk_size}-byte chunks: {identical_blocks} blocks identical to the previous \
         compressor's, skipped"
    );
    cases
}

#[test]
fn corpus_chunks() {
    let files = corpus::all();
    if files.is_empty() {
        eprintln!("NOTICE: no Silesia corpus; corpus_chunks checked nothing");
        return;
    }
    // One chunk size at a time: the compressed blocks are made once and kept for every kernel.
    for chunk_size in [64 << 10, 4 << 20] {
        let cases = cases(files, chunk_size);
        for_each_kernel(
            &format!("corpus, {chunk_size}-byte chunks"),
            |kernel, tally| {
                for case in &cases {
                    let Case {
                        file,
                        chunk_index,
                        chunk,
                        compressor_index,
                        ref compressed,
                    } = *case;
                    tally.blocks += 1;
                    // Exact capacity for every block; every other block also with 64 spare bytes.
                    let mut caps = vec![chunk.len()];
                    if (chunk_index + compressor_index) % 2 == 0 {
                        caps.push(chunk.len() + 64);
                    }
                    for cap in caps {
                        tally.checks += 1;
                        let front = (chunk_index * 7 + compressor_index) % 64;
                        let (result, output) = compare(kernel, compressed, cap, front, false);
                        let compressor = COMPRESSORS[compressor_index].0;
                        assert!(
                            result == Ok(chunk.len()) && output == chunk,
                            "{file} chunk {chunk_index} ({chunk_size} bytes) by {compressor}: \
                         scalar {result:?}"
                        );
                    }
                }
            },
        );
    }
}
