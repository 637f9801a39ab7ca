//! A small driver for Cachegrind: one compressor over fixed inputs, nothing else, so that
//! `valgrind --tool=cachegrind --branch-sim=yes --cache-sim=yes` counts (almost) only the
//! compressor's instructions, branches, simulated mispredictions and cache misses.
//!
//! A bench target without a harness (`cargo bench` passes it `--bench`, which it ignores; with no
//! other argument it prints its usage). Valgrind needs the binary's path, which cargo prints:
//!
//! ```sh
//! cg=$(cargo bench --no-run --bench cg_compress --message-format=json | sed -n 's/.*"executable":"\([^"]*\)".*/\1/p')
//! # once: the first bytes of Silesia files, unzipped to plain files (so the measured runs do no
//! # inflating)
//! "$cg" extract /tmp/cg 4194304 dickens xml ooffice
//! valgrind --tool=cachegrind --branch-sim=yes --cache-sim=yes \
//!     --D1=49152,12,64 --LL=2097152,16,64 --cachegrind-out-file=cg.ours \
//!     "$cg" ours 0 65536 262144 /tmp/cg/dickens
//! cg_annotate cg.ours
//! ```
//!
//! `cg_compress calibrate` (run natively, not under Valgrind) measures on this machine what the
//! counts cost: the time of a cycle (a chain of dependent `add`s), of a mispredicted branch (a
//! branch on random bits against the same branch on constant bits) and of a dependent load that
//! hits L1, misses L1 and hits L2, or misses L2 (pointer chases in 16 KiB, 1 MiB and 64 MiB).
//!
//! Arguments of a run: `ours`, `liblz4`, `lz4_flex` or `speed` (`block::compress_speed_into`)
//! (these two fast only, other bytes); the level (`0` for the fast compressor at acceleration
//! 1, else the HC level); the block size; how many bytes of each file; the files. Every block is
//! compressed once with a reused compressor (ours) or `LZ4_compress_fast` / `LZ4_compress_HC`
//! (liblz4), as `benches/compress_interleaved.rs` does. The compressed total is printed so the two
//! runs can be compared (the bytes themselves are checked by the differential tests).

use lz4_simd::block::{self, Compressor, HcCompressor};
use testkit::{corpus, liblz4};

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|arg| arg != "--bench")
        .collect();
    if args.is_empty() {
        println!("usage: cg_compress extract <dir> <bytes> <corpus file>... | calibrate");
        println!(
            "       cg_compress <ours|liblz4|lz4_flex|speed> <level> <block> <bytes> <file>..."
        );
        println!("       cg_compress sizes <block> <file>...");
        return;
    }
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
    if args.first().map(String::as_str) == Some("sizes") {
        sizes(&args[1..]);
        return;
    }
    if args.first().map(String::as_str) == Some("calibrate") {
        calibrate::run();
        return;
    }
    let [codec, level, block_size, bytes, files @ ..] = args.as_slice() else {
        panic!("usage: cg_compress <ours|liblz4|lz4_flex> <level> <block> <bytes> <file>...");
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
    // lz4_flex asks for a little more room than LZ4's bound.
    let room =
        block::compress_bound(block_size).max(lz4_flex::block::get_maximum_output_size(block_size));
    let mut dst = vec![0u8; room];
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
                ("lz4_flex", 0) => lz4_flex::block::compress_into(chunk, &mut dst).expect("room"),
                ("speed", 0) => block::compress_speed_into(chunk, &mut dst).expect("bound room"),
                ("lean", 0) => {
                    block::compress_speed_lean_into(chunk, &mut dst).expect("bound room")
                }
                _ => panic!("codec is `ours`, `liblz4`, `lz4_flex` or `speed` (fast only)"),
            };
        }
    }
    println!("{total}");
}

/// `sizes <block> <file>...`: the compressed size of each whole file in blocks of `<block>`
/// bytes, liblz4 at acceleration 1 against the speed-first parse (`block::compress_speed_into`,
/// each block decoded back and compared) and lz4_flex, as a Markdown table.
fn sizes(args: &[String]) {
    let [block_size, files @ ..] = args else {
        panic!("usage: cg_compress sizes <block> <file>...");
    };
    let block_size: usize = block_size.parse().expect("a block size");
    let room =
        block::compress_bound(block_size).max(lz4_flex::block::get_maximum_output_size(block_size));
    let mut dst = vec![0u8; room];
    let mut back = vec![0u8; block_size];
    println!("| file ({block_size}-byte blocks) | input | liblz4 acc. 1 | speed | speed vs liblz4 | lean | lean vs liblz4 | lz4_flex | lz4_flex vs liblz4 |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for f in files {
        let data = std::fs::read(f).expect("an input file");
        let (mut lib, mut speed, mut lean, mut flex) = (0usize, 0usize, 0usize, 0usize);
        for chunk in data.chunks(block_size) {
            lib += liblz4::compress_fast_into(chunk, &mut dst, 1);
            let n = block::compress_speed_into(chunk, &mut dst).expect("bound room");
            let got = block::decompress_into(&dst[..n], &mut back[..chunk.len()]).expect("decodes");
            if &back[..got] != chunk {
                let at = back[..got].iter().zip(chunk).position(|(a, b)| a != b);
                panic!(
                    "round trip: {got} of {} bytes decoded, first difference at {at:?}",
                    chunk.len()
                );
            }
            speed += n;
            let n = block::compress_speed_lean_into(chunk, &mut dst).expect("bound room");
            let got = block::decompress_into(&dst[..n], &mut back[..chunk.len()]).expect("decodes");
            assert!(&back[..got] == chunk, "lean: round trip");
            lean += n;
            flex += lz4_flex::block::compress_into(chunk, &mut dst).expect("room");
        }
        let name = std::path::Path::new(f)
            .file_name()
            .map_or(f.clone(), |n| n.to_string_lossy().into_owned());
        let pct = |x: usize| (x as f64 / lib as f64 - 1.0) * 100.0;
        println!(
            "| {name} | {} | {lib} | {speed} | {:+.2}% | {lean} | {:+.2}% | {flex} | {:+.2}% |",
            data.len(),
            pct(speed),
            pct(lean),
            pct(flex)
        );
    }
}

/// Cost of the events Cachegrind counts, measured natively (x86-64 only: the branch and the
/// `add` chain are inline assembly, so the compiler can neither if-convert nor fold them).
mod calibrate {
    use std::hint::black_box;
    use testkit::clock::Stamp;

    /// The best of seven runs of `f`, in nanoseconds per `n` steps (on the benches' clock:
    /// `LZ4_SIMD_BENCH_CLOCK=cpu` for the thread's CPU time).
    fn best(n: usize, mut f: impl FnMut()) -> f64 {
        (0..7)
            .map(|_| {
                let t = Stamp::now();
                f();
                t.elapsed_secs() * 1e9 / n as f64
            })
            .fold(f64::INFINITY, f64::min)
    }

    /// A xorshift generator (deterministic test data).
    fn xorshift(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[cfg(target_arch = "x86_64")]
    fn branches(bits: &[u8]) -> u64 {
        let mut taken = 0u64;
        for &b in bits {
            // SAFETY: register-only arithmetic and a local jump; no memory is touched.
            unsafe {
                core::arch::asm!(
                    "test {b:e}, 1",
                    "jz 2f",
                    "add {t}, 1",
                    "2:",
                    b = in(reg) u32::from(b),
                    t = inout(reg) taken,
                    options(nomem, nostack),
                );
            }
        }
        taken
    }

    /// The search probe's shape: hash the word at `i`, read a slot of a 16 KiB table, read the byte
    /// at that candidate (in a 64 KiB window), branch on its bit `mask` (0: never taken; 1: taken
    /// at random). The loads are the same with either mask; only the branch's predictability
    /// differs.
    #[cfg(target_arch = "x86_64")]
    fn probe_chain(window: &[u8], slots: &[u16], mask: u32) -> u64 {
        let mut taken = 0u64;
        for i in 0..window.len() - 4 {
            let word = u32::from_le_bytes(window[i..i + 4].try_into().unwrap_or_default());
            let hash = (word.wrapping_mul(2_654_435_761) >> 19) as usize;
            let candidate = usize::from(slots[hash & 8191]);
            let b = u32::from(window[candidate]) & mask;
            // SAFETY: register-only arithmetic and a local jump; no memory is touched.
            unsafe {
                core::arch::asm!(
                    "test {b:e}, {b:e}",
                    "jz 2f",
                    "add {t}, 1",
                    "2:",
                    b = in(reg) b,
                    t = inout(reg) taken,
                    options(nomem, nostack),
                );
            }
        }
        taken
    }

    #[cfg(target_arch = "x86_64")]
    fn add_chain(n: usize) -> u64 {
        let mut x = 0u64;
        for _ in 0..n / 8 {
            // SAFETY: register-only arithmetic.
            unsafe {
                core::arch::asm!(
                    "add {x}, {one}", "add {x}, {one}", "add {x}, {one}", "add {x}, {one}",
                    "add {x}, {one}", "add {x}, {one}", "add {x}, {one}", "add {x}, {one}",
                    x = inout(reg) x,
                    one = in(reg) 1u64,
                    options(nomem, nostack),
                );
            }
        }
        x
    }

    /// Nanoseconds per load of a pointer chase through a random cycle over `bytes` bytes (one
    /// 64-byte line per element).
    fn chase(bytes: usize) -> f64 {
        let lines = bytes / 64;
        let mut order: Vec<usize> = (0..lines).collect();
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for i in (1..lines).rev() {
            order.swap(i, (xorshift(&mut state) % (i as u64 + 1)) as usize);
        }
        let mut next = vec![0usize; lines * 8];
        for w in 0..lines {
            next[order[w] * 8] = order[(w + 1) % lines] * 8;
        }
        let steps = 4_000_000;
        best(steps, || {
            let mut at = 0;
            for _ in 0..steps {
                at = next[at];
            }
            black_box(at);
        })
    }

    pub fn run() {
        #[cfg(target_arch = "x86_64")]
        {
            let n = 1 << 24;
            let cycle = best(n, || {
                black_box(add_chain(black_box(n)));
            });
            println!("cycle: {cycle:.3} ns ({:.2} GHz)", 1.0 / cycle);
            let mut state = 1u64;
            let random: Vec<u8> = (0..n).map(|_| xorshift(&mut state) as u8).collect();
            let constant = vec![1u8; n];
            let r = best(n, || {
                black_box(branches(black_box(&random)));
            });
            let c = best(n, || {
                black_box(branches(black_box(&constant)));
            });
            // Random bits: half the branches are mispredicted, whatever the predictor.
            let penalty = (r - c) * 2.0;
            println!(
                "branch on random bits {r:.3} ns, on constant bits {c:.3} ns: a misprediction \
                 {penalty:.2} ns = {:.1} cycles",
                penalty / cycle
            );
            let window: Vec<u8> = (0..65536).map(|_| xorshift(&mut state) as u8).collect();
            let slots: Vec<u16> = (0..8192).map(|_| xorshift(&mut state) as u16).collect();
            let steps = (window.len() - 4) * 64;
            let r = best(steps, || {
                for _ in 0..64 {
                    black_box(probe_chain(black_box(&window), &slots, 1));
                }
            });
            let c = best(steps, || {
                for _ in 0..64 {
                    black_box(probe_chain(black_box(&window), &slots, 0));
                }
            });
            let penalty = (r - c) * 2.0;
            println!(
                "probe chain (hash, slot, candidate byte, branch), random {r:.3} ns, never taken \
                 {c:.3} ns: a misprediction {penalty:.2} ns = {:.1} cycles",
                penalty / cycle
            );
            for (name, bytes) in [("L1", 16 << 10), ("L2", 1 << 20), ("memory", 64 << 20)] {
                let t = chase(bytes);
                println!(
                    "dependent load, {name} ({} KiB): {t:.2} ns = {:.1} cycles",
                    bytes >> 10,
                    t / cycle
                );
            }
        }
    }
}
