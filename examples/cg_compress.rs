//! A small driver for Cachegrind: one compressor over fixed inputs, nothing else, so that
//! `valgrind --tool=cachegrind --branch-sim=yes --cache-sim=yes` counts (almost) only the
//! compressor's instructions, branches, simulated mispredictions and cache misses.
//!
//! ```sh
//! cargo build --release --example cg_compress
//! # once: the first bytes of Silesia files, unzipped to plain files (so the measured runs do no
//! # inflating)
//! target/release/examples/cg_compress extract /tmp/cg 4194304 dickens xml ooffice
//! valgrind --tool=cachegrind --branch-sim=yes --cache-sim=yes \
//!     --D1=49152,12,64 --LL=2097152,16,64 --cachegrind-out-file=cg.ours \
//!     target/release/examples/cg_compress ours 0 65536 262144 /tmp/cg/dickens
//! cg_annotate cg.ours
//! ```
//!
//! Arguments of a run: `ours` or `liblz4`; the level (`0` for the fast compressor at acceleration
//! 1, else the HC level); the block size; how many bytes of each file; the files. Every block is
//! compressed once with a reused compressor (ours) or `LZ4_compress_fast` / `LZ4_compress_HC`
//! (liblz4), as `benches/compress_interleaved.rs` does. The compressed total is printed so the two
//! runs can be compared (the bytes themselves are checked by the differential tests).

use lz4_simd::block::{self, Compressor, HcCompressor};
use testkit::{corpus, liblz4};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("extract") {
        let dir = std::path::Path::new(&args[1]);
        let cap: usize = args[2].parse().expect("a byte count");
        std::fs::create_dir_all(dir).expect("the output folder");
        for name in &args[3..] {
            let data = corpus::file(name, cap).unwrap_or_else(|| panic!("no {name} in the corpus"));
            std::fs::write(dir.join(name), data).expect("write");
        }
        return;
    }
    let [codec, level, block_size, bytes, files @ ..] = args.as_slice() else {
        panic!("usage: cg_compress <ours|liblz4> <level> <block> <bytes> <file>...");
    };
    let level: u8 = level.parse().expect("a level");
    let block_size: usize = block_size.parse().expect("a block size");
    let bytes: usize = bytes.parse().expect("a byte count");
    let inputs: Vec<Vec<u8>> = files
        .iter()
        .map(|f| {
            let mut data = std::fs::read(f).expect("an input file");
            data.truncate(bytes);
            data
        })
        .collect();
    let mut dst = vec![0u8; block::compress_bound(block_size)];
    let mut fast = Compressor::new();
    let mut hc = HcCompressor::new();
    let mut total = 0usize;
    for data in &inputs {
        for chunk in data.chunks(block_size) {
            total += match (codec.as_str(), level) {
                ("ours", 0) => fast.compress_into(chunk, &mut dst, 1).expect("bound room"),
                ("ours", l) => hc.compress_into(chunk, &mut dst, l).expect("bound room"),
                ("liblz4", 0) => liblz4::compress_fast_into(chunk, &mut dst, 1),
                ("liblz4", l) => liblz4::compress_hc_into(chunk, &mut dst, i32::from(l)),
                _ => panic!("codec is `ours` or `liblz4`"),
            };
        }
    }
    println!("{total}");
}
