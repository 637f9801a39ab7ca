mod common;
use common::*;
#[test]
fn quick_corpus_identical() {
    eprintln!("files: {}", corpus().len());
    for (name, data) in corpus() {
        for acc in [1, 2, 8, 64, 65537] {
            for (i, chunk) in data.chunks(65536).enumerate().take(40) {
                let ours = lz4_simd::block::compress_fast(chunk, acc);
                let theirs = liblz4_compress_fast(chunk, acc as i32);
                assert!(ours == theirs, "{name} chunk {i} acc {acc}: {} vs {}", ours.len(), theirs.len());
            }
            let ours = lz4_simd::block::compress_fast(data, acc);
            let theirs = liblz4_compress_fast(data, acc as i32);
            assert!(ours == theirs, "{name} whole acc {acc}: {} vs {}", ours.len(), theirs.len());
            assert_eq!(lz4_simd::block::decompress(&theirs, data.len()).unwrap(), *data);
        }
    }
}
