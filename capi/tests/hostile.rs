//! The exported functions on damaged blocks, edge sizes and odd arguments, against liblz4 1.10
//! (lz4-sys): no byte written outside the output (canaries on both sides), the same verdicts
//! and bytes where liblz4's contract defines them.

use std::os::raw::{c_char, c_int, c_void};
use std::ptr;

mod common;

use common::{cp, len};
use lz4_simd_capi as ours;
use testkit::samples;
use testkit::Rng;

mod c {
    use std::os::raw::{c_char, c_int};
    extern "C" {
        pub fn LZ4_decompress_safe_partial_usingDict(
            s: *const c_char,
            d: *mut c_char,
            n: c_int,
            target: c_int,
            cap: c_int,
            dict: *const c_char,
            dict_n: c_int,
        ) -> c_int;
        pub fn LZ4_decompress_safe_partial(
            s: *const c_char,
            d: *mut c_char,
            n: c_int,
            target: c_int,
            cap: c_int,
        ) -> c_int;
        pub fn LZ4_decompress_safe_usingDict(
            s: *const c_char,
            d: *mut c_char,
            n: c_int,
            cap: c_int,
            dict: *const c_char,
            dict_n: c_int,
        ) -> c_int;
    }
}

const GUARD: usize = 64;
const CANARY: u8 = 0xA5;

/// An output of `cap` bytes with `GUARD` canary bytes on each side.
struct Guarded(Vec<u8>);

impl Guarded {
    fn new(cap: usize) -> Self {
        Guarded(vec![CANARY; cap + 2 * GUARD])
    }
    fn ptr(&mut self) -> *mut c_char {
        self.0[GUARD..].as_mut_ptr().cast()
    }
    fn out(&self) -> &[u8] {
        &self.0[GUARD..self.0.len() - GUARD]
    }
    fn check(&self, what: &str) {
        let n = self.0.len();
        assert!(
            self.0[..GUARD].iter().all(|&b| b == CANARY)
                && self.0[n - GUARD..].iter().all(|&b| b == CANARY),
            "{what}: a byte written outside the output"
        );
    }
}

/// Damaged forms of `block`: bytes flipped, set to 0 / 0xff, cut, grown.
fn damaged(block: &[u8], rng: &mut Rng, count: usize) -> Vec<Vec<u8>> {
    let mut all = Vec::new();
    for _ in 0..count {
        let mut b = block.to_vec();
        match pick(rng, 5) {
            0 if !b.is_empty() => {
                let i = pick(rng, b.len());
                b[i] ^= 1 << pick(rng, 8);
            }
            1 if !b.is_empty() => {
                for _ in 0..1 + pick(rng, 4) {
                    let i = pick(rng, b.len());
                    b[i] = [0, 0xff, 0x0f, 0xf0][pick(rng, 4)];
                }
            }
            2 => {
                let cut = pick(rng, b.len() + 1);
                b.truncate(cut);
            }
            3 => {
                for _ in 0..1 + pick(rng, 8) {
                    b.push(pick(rng, 256) as u8);
                }
            }
            _ => {
                let n = 1 + pick(rng, 64);
                b = (0..n).map(|_| pick(rng, 256) as u8).collect();
            }
        }
        all.push(b);
    }
    all
}

/// Whether a sequence of `block` (read as far as it is well formed) has offset 0.
fn has_offset_zero(block: &[u8]) -> bool {
    let mut ip = 0;
    let length = |ip: &mut usize| -> Option<usize> {
        let mut sum = 0;
        loop {
            let b = *block.get(*ip)?;
            *ip += 1;
            sum += b as usize;
            if b != 255 {
                return Some(sum);
            }
        }
    };
    while let Some(&token) = block.get(ip) {
        ip += 1;
        let mut literals = (token >> 4) as usize;
        if literals == 15 {
            match length(&mut ip) {
                Some(n) => literals += n,
                None => return false,
            }
        }
        ip += literals;
        if ip + 2 > block.len() {
            return false;
        }
        if block[ip] == 0 && block[ip + 1] == 0 {
            return true;
        }
        ip += 2;
        if token & 15 == 15 && length(&mut ip).is_none() {
            return false;
        }
    }
    false
}

fn pick(rng: &mut Rng, n: usize) -> usize {
    rng.below(n as u64) as usize
}

fn sources(rng: &mut Rng) -> Vec<Vec<u8>> {
    let mut all = vec![
        b"abcabcabcabcabcabcabcabcabcabcabc-end".to_vec(),
        vec![7u8; 3000],
    ];
    for len in [20, 300, 5000, 70_000] {
        all.push(samples::text(len, rng));
        all.push(samples::logs(len, rng));
    }
    all
}

/// Decodes `block` with both libraries, whole and partial, with and without a dictionary, into
/// guarded outputs: no write outside; where both succeed, the same size and bytes.
fn both_decode(
    block: &[u8],
    cap: usize,
    target: Option<usize>,
    dict: &[u8],
    mismatches: &mut usize,
) {
    let (mut a, mut b) = (Guarded::new(cap), Guarded::new(cap));
    // SAFETY: buffers valid for the lengths passed.
    let (x, y) = unsafe {
        match target {
            None => (
                ours::LZ4_decompress_safe_usingDict(
                    cp(block),
                    a.ptr(),
                    len(block),
                    cap as c_int,
                    cp(dict),
                    len(dict),
                ),
                c::LZ4_decompress_safe_usingDict(
                    cp(block),
                    b.ptr(),
                    len(block),
                    cap as c_int,
                    cp(dict),
                    len(dict),
                ),
            ),
            Some(t) if dict.is_empty() => (
                ours::LZ4_decompress_safe_partial(
                    cp(block),
                    a.ptr(),
                    len(block),
                    t as c_int,
                    cap as c_int,
                ),
                c::LZ4_decompress_safe_partial(
                    cp(block),
                    b.ptr(),
                    len(block),
                    t as c_int,
                    cap as c_int,
                ),
            ),
            Some(t) => (
                ours::LZ4_decompress_safe_partial_usingDict(
                    cp(block),
                    a.ptr(),
                    len(block),
                    t as c_int,
                    cap as c_int,
                    cp(dict),
                    len(dict),
                ),
                c::LZ4_decompress_safe_partial_usingDict(
                    cp(block),
                    b.ptr(),
                    len(block),
                    t as c_int,
                    cap as c_int,
                    cp(dict),
                    len(dict),
                ),
            ),
        }
    };
    a.check("ours");
    b.check("liblz4");
    if (x < 0) != (y < 0) {
        // Where liblz4 accepts and this library rejects, the block has an offset 0 (the one
        // documented difference in that direction).
        assert!(
            x >= 0 || has_offset_zero(block),
            "block {block:02x?} cap {cap} target {target:?}: {x} vs {y}"
        );
        *mismatches += 1;
        if std::env::var_os("SHOW_VERDICTS").is_some() {
            eprintln!(
                "VERDICT ours {x} liblz4 {y} cap {cap} target {target:?} dict {} block {}",
                dict.len(),
                block.iter().map(|b| format!("{b:02x}")).collect::<String>()
            );
        }
        return;
    }
    if x >= 0 {
        assert_eq!(x, y, "block {block:02x?} cap {cap} target {target:?}");
        assert_eq!(a.out()[..x as usize], b.out()[..y as usize]);
    }
}

#[test]
fn damaged_blocks_stay_in_the_output() {
    let mut rng = Rng::new(21);
    let dict = samples::text(70_000, &mut rng);
    let mut mismatches = 0;
    let mut cases = 0;
    for src in sources(&mut rng) {
        let plain = lz4_simd::block::compress(&src).unwrap();
        let with_dict = lz4_simd::block::compress_with_dictionary(&src, &dict, 1).unwrap();
        let n = src.len();
        for block in damaged(&plain, &mut rng, 150) {
            for cap in [0, 1, n / 2, n, n + 50] {
                both_decode(&block, cap, None, &[], &mut mismatches);
                both_decode(&block, cap, Some(n / 3), &[], &mut mismatches);
                cases += 2;
            }
        }
        for block in damaged(&with_dict, &mut rng, 150) {
            for cap in [1, n / 2, n, n + 50] {
                both_decode(&block, cap, None, &dict, &mut mismatches);
                both_decode(&block, cap, Some(n / 3), &dict, &mut mismatches);
                cases += 2;
            }
        }
    }
    eprintln!("{mismatches} verdicts of {cases} differ");
}

#[test]
fn null_dictionary_longer_than_64k_fails() {
    // A block with no reference into a dictionary.
    let block = lz4_simd::block::compress(b"hello hello hello hello hello").unwrap();
    let mut out = [0u8; 64];
    for dict_size in [1, 65536, 65537, 70_000, c_int::MAX] {
        // SAFETY: the dictionary pointer is null: the functions must not read it.
        unsafe {
            let r = ours::LZ4_decompress_safe_usingDict(
                cp(&block),
                out.as_mut_ptr().cast(),
                len(&block),
                64,
                ptr::null(),
                dict_size,
            );
            assert!(r < 0, "usingDict, dict_size {dict_size}: {r}");
            let r = ours::LZ4_decompress_safe_partial_usingDict(
                cp(&block),
                out.as_mut_ptr().cast(),
                len(&block),
                10,
                64,
                ptr::null(),
                dict_size,
            );
            assert!(r < 0, "partial_usingDict, dict_size {dict_size}: {r}");
            let r = ours::LZ4_decompress_safe_forceExtDict(
                cp(&block),
                out.as_mut_ptr().cast(),
                len(&block),
                64,
                ptr::null(),
                dict_size as usize,
            );
            assert!(r < 0, "forceExtDict, dict_size {dict_size}: {r}");
        }
    }
}

mod cstream {
    use std::os::raw::{c_char, c_int, c_void};
    extern "C" {
        pub fn LZ4_setStreamDecode(s: *mut c_void, dict: *const c_char, n: c_int) -> c_int;
        pub fn LZ4_decompress_safe_continue(
            s: *mut c_void,
            src: *const c_char,
            dst: *mut c_char,
            n: c_int,
            cap: c_int,
        ) -> c_int;
    }
}

/// Linked blocks of `data` (each may reference the ones before), with their decoded sizes.
fn linked_blocks(data: &[u8], block: usize) -> Vec<(Vec<u8>, usize)> {
    let mut stream = lz4_simd::block::StreamCompressor::new();
    data.chunks(block)
        .map(|chunk| {
            let mut out = vec![0u8; lz4_simd::block::compress_bound(chunk.len())];
            let n = stream.compress_into(chunk, &mut out, 1).unwrap();
            out.truncate(n);
            (out, chunk.len())
        })
        .collect()
}

#[test]
fn damaged_stream_blocks_stay_in_the_output() {
    let mut rng = Rng::new(23);
    let data = samples::logs(600_000, &mut rng);
    for block in [700, 4096, 20_000, 65536] {
        for round in 0..6 {
            let blocks = linked_blocks(&data, block);
            let ring = ours::LZ4_decoderRingBufferSize(block as c_int) as usize;
            let scattered = round % 3 == 2;
            let arena_len = if scattered {
                2 * GUARD + 2 * data.len() + blocks.len() * 2100
            } else {
                2 * GUARD + ring.max(3 * block) + 64
            };
            let (mut a, mut b) = (vec![CANARY; arena_len], vec![CANARY; arena_len]);
            let (mut sa, mut sb) = ([0u64; 4], [0u64; 4]);
            let mut at = 0;
            let mut agree = true;
            for (i, (good, n)) in blocks.iter().enumerate() {
                // Rounds 0 to 2 decode every block (compared with liblz4 all along), rounds 3
                // to 5 damaged blocks and short outputs too.
                let hostile = round >= 3;
                let input = if hostile && pick(&mut rng, 4) == 0 {
                    damaged(good, &mut rng, 1).pop().unwrap()
                } else {
                    good.clone()
                };
                let cap = match pick(&mut rng, 4) {
                    0 if hostile => n / 2,
                    1 => n + pick(&mut rng, 40),
                    _ => *n,
                };
                // Ring (wrap when the decoded block may not fit: the capacity may reach past
                // the ring), alternating halves, or scattered forwards (right after the last
                // output or past a gap: nothing decoded is overwritten).
                at = match round % 3 {
                    0 if at + n > ring => 0,
                    0 => at,
                    1 => (i % 2) * (arena_len - 2 * GUARD) / 2,
                    _ if pick(&mut rng, 2) == 0 => at,
                    _ => at + pick(&mut rng, 2000),
                };
                if scattered && round >= 3 && pick(&mut rng, 8) == 0 {
                    // Restart from a dictionary: the bytes right before the output, or elsewhere.
                    let size = pick(&mut rng, at.min(70_000) + 1);
                    let from = if pick(&mut rng, 2) == 0 {
                        at - size
                    } else {
                        pick(&mut rng, at - size + 1)
                    };
                    // SAFETY: states of 32 bytes; the dictionary lies in the arena.
                    unsafe {
                        let da = a.as_ptr().add(GUARD + from).cast();
                        let db = b.as_ptr().add(GUARD + from).cast();
                        assert_eq!(
                            ours::LZ4_setStreamDecode(sa.as_mut_ptr().cast(), da, size as c_int),
                            1
                        );
                        assert_eq!(
                            cstream::LZ4_setStreamDecode(
                                sb.as_mut_ptr().cast::<c_void>(),
                                db,
                                size as c_int
                            ),
                            1
                        );
                    }
                }
                let before = a.clone();
                // SAFETY: the output lies in the arena; the history is where it was decoded.
                let (x, y) = unsafe {
                    (
                        ours::LZ4_decompress_safe_continue(
                            sa.as_mut_ptr().cast(),
                            cp(&input),
                            a.as_mut_ptr().add(GUARD + at).cast(),
                            len(&input),
                            cap as c_int,
                        ),
                        cstream::LZ4_decompress_safe_continue(
                            sb.as_mut_ptr().cast::<c_void>(),
                            cp(&input),
                            b.as_mut_ptr().add(GUARD + at).cast(),
                            len(&input),
                            cap as c_int,
                        ),
                    )
                };
                let out = GUARD + at..GUARD + at + cap;
                assert!(
                    a[..out.start] == before[..out.start] && a[out.end..] == before[out.end..],
                    "block {block} round {round} #{i}: a byte written outside the output"
                );
                if x < 0 || y < 0 {
                    // The streams' states may differ from here on (liblz4 changes its state
                    // on some failures); only the bounds are checked after this.
                    agree = false;
                }
                if agree && x >= 0 {
                    assert_eq!(x, y, "block {block} round {round} #{i}");
                    // liblz4 may write past the decoded size, within the capacity.
                    let got = out.start..out.start + x as usize;
                    assert_eq!(a[got.clone()], b[got], "block {block} round {round} #{i}");
                }
                at += x.max(0) as usize;
            }
        }
    }
}

mod cfast {
    use std::os::raw::{c_char, c_int};
    extern "C" {
        pub fn LZ4_decompress_fast(src: *const c_char, dst: *mut c_char, n: c_int) -> c_int;
        pub fn LZ4_decompress_fast_usingDict(
            src: *const c_char,
            dst: *mut c_char,
            n: c_int,
            dict: *const c_char,
            dict_n: c_int,
        ) -> c_int;
    }
}

#[test]
fn damaged_blocks_without_their_size() {
    // LZ4_decompress_fast reads up to where the block's sequences say it ends: each damaged
    // block is followed by padding, so that every read stays in the buffer.
    let mut rng = Rng::new(29);
    let mut differ = 0;
    for src in sources(&mut rng) {
        let plain = lz4_simd::block::compress(&src).unwrap();
        for block in damaged(&plain, &mut rng, 200) {
            let mut padded = block.clone();
            padded.resize(block.len() + 70_000, 0);
            for size in [0, 1, src.len() / 2, src.len(), src.len() + 1] {
                let (mut a, mut b) = (Guarded::new(size), Guarded::new(size));
                // SAFETY: the input is readable far past the block; outputs of `size` bytes.
                let (x, y) = unsafe {
                    (
                        ours::LZ4_decompress_fast(cp(&padded), a.ptr(), size as c_int),
                        cfast::LZ4_decompress_fast(cp(&padded), b.ptr(), size as c_int),
                    )
                };
                a.check("ours");
                b.check("liblz4");
                if (x < 0) != (y < 0) {
                    assert!(
                        x >= 0 || has_offset_zero(&block),
                        "size {size} block {block:02x?}: {x} vs {y}"
                    );
                    differ += 1;
                    if std::env::var_os("SHOW_VERDICTS").is_some() {
                        eprintln!(
                            "FAST ours {x} liblz4 {y} size {size} block {}",
                            block.iter().map(|b| format!("{b:02x}")).collect::<String>()
                        );
                    }
                    continue;
                }
                if x >= 0 {
                    assert_eq!(x, y, "size {size} block {block:02x?}");
                    assert_eq!(a.out(), b.out(), "size {size} block {block:02x?}");
                }
            }
        }
    }
    eprintln!("{differ} verdicts differ");
}

#[test]
fn odd_sizes_as_liblz4() {
    let blocks: [&[u8]; 8] = [
        &[],
        &[0],
        &[0, 0],
        &[0x10, b'a'],
        &[0x0f],
        &[0x50, b'a', b'b', b'c', b'd', b'e'],
        &[
            0x1f, b'a', 1, 0, 0xff, 3, 0x50, b'a', b'b', b'c', b'd', b'e',
        ],
        &[
            0xf0, 5, b'a', b'b', b'c', b'd', b'e', b'f', b'g', b'h', b'i', b'j', b'k', b'l', b'm',
            b'n', b'o', b'p', b'q', b'r', b's', b't',
        ],
    ];
    let sizes = [c_int::MIN, -1, 0, 1, 2, 5, 6, 12, 20, 300, 1000];
    let mut differ = Vec::new();
    for block in blocks {
        for src_size in sizes.iter().copied().filter(|&s| s <= block.len() as c_int) {
            for cap in sizes.iter().copied().filter(|&c| c <= 1000) {
                for target in [None, Some(-1), Some(0), Some(1), Some(3), Some(1000)] {
                    let (mut a, mut b) = (Guarded::new(1000), Guarded::new(1000));
                    if src_size < 0 {
                        // liblz4 may read before the input here (its partial decoder does):
                        // this library only.
                        // SAFETY: outputs of 1000 bytes; nothing is read from the input.
                        let x = unsafe {
                            match target {
                                None => {
                                    ours::LZ4_decompress_safe(cp(block), a.ptr(), src_size, cap)
                                }
                                Some(t) => ours::LZ4_decompress_safe_partial(
                                    cp(block),
                                    a.ptr(),
                                    src_size,
                                    t,
                                    cap,
                                ),
                            }
                        };
                        a.check("ours");
                        assert!(x < 0);
                        continue;
                    }
                    // SAFETY: inputs of at least `src_size` bytes, outputs of 1000 bytes.
                    let (x, y) = unsafe {
                        match target {
                            None => (
                                ours::LZ4_decompress_safe(cp(block), a.ptr(), src_size, cap),
                                c::LZ4_decompress_safe_usingDict(
                                    cp(block),
                                    b.ptr(),
                                    src_size,
                                    cap,
                                    ptr::null(),
                                    0,
                                ),
                            ),
                            Some(t) => (
                                ours::LZ4_decompress_safe_partial(
                                    cp(block),
                                    a.ptr(),
                                    src_size,
                                    t,
                                    cap,
                                ),
                                c::LZ4_decompress_safe_partial(
                                    cp(block),
                                    b.ptr(),
                                    src_size,
                                    t,
                                    cap,
                                ),
                            ),
                        }
                    };
                    a.check("ours");
                    b.check("liblz4");
                    if (x < 0) != (y < 0)
                        || (x >= 0 && (x != y || a.out()[..x as usize] != b.out()[..y as usize]))
                    {
                        differ.push(format!("block {block:02x?} src_size {src_size} cap {cap} target {target:?}: {x} vs {y}"));
                    }
                }
            }
        }
    }
    assert!(differ.is_empty(), "{differ:#?}");
}

#[test]
fn dictionary_overlapping_the_output() {
    // The dictionary's last bytes lie in the output: they are read as they were before the call
    // (the dictionary is copied first), and nothing outside the output is written.
    let mut rng = Rng::new(37);
    let dict = samples::text(3000, &mut rng);
    let src = samples::text(2000, &mut rng);
    let block = lz4_simd::block::compress_with_dictionary(&src, &dict[..2000], 1).unwrap();
    for overlap in [1, 100, 1000] {
        let mut a = Guarded::new(5000);
        a.0[GUARD..GUARD + 2000].copy_from_slice(&dict[..2000]);
        let at = 2000 - overlap;
        // SAFETY: the dictionary is `out[..2000]`, the output `out[at..]`, both in the buffer.
        let x = unsafe {
            let p = a.ptr();
            ours::LZ4_decompress_safe_usingDict(
                cp(&block),
                p.add(at),
                len(&block),
                (5000 - at) as c_int,
                p,
                2000,
            )
        };
        a.check("ours");
        assert_eq!(x, 2000, "overlap {overlap}");
        assert_eq!(&a.out()[at..at + 2000], &src[..], "overlap {overlap}");
    }
    // A dictionary of size 0, null or not, is no dictionary.
    let plain = lz4_simd::block::compress(&src).unwrap();
    for dict_ptr in [ptr::null(), cp(&dict)] {
        let mut a = Guarded::new(2000);
        // SAFETY: an output of 2000 bytes; the dictionary has size 0.
        let x = unsafe {
            ours::LZ4_decompress_safe_usingDict(cp(&plain), a.ptr(), len(&plain), 2000, dict_ptr, 0)
        };
        a.check("ours");
        assert_eq!((x, a.out()), (2000, &src[..]));
    }
}

#[test]
fn margins_checked_on_the_input_side_by_liblz4() {
    // 30 'a' (a literal and a match), then "bcdef" and a 4-byte match, then an empty last
    // literal run. The second run ends 3 bytes before the block's end: liblz4 rejects the block
    // in an output of any size (its end-of-block margin on the input side); this library
    // decodes it.
    let block = [
        0x1f, b'a', 1, 0, 10, 0x50, b'b', b'c', b'd', b'e', b'f', 1, 0, 0x00,
    ];
    let mut expect = vec![b'a'; 30];
    expect.extend_from_slice(b"bcdefffff");
    for cap in [39, 40, 1000] {
        let (mut a, mut b) = (Guarded::new(cap), Guarded::new(cap));
        // SAFETY: outputs of `cap` bytes.
        let (x, y) = unsafe {
            (
                ours::LZ4_decompress_safe(cp(&block), a.ptr(), len(&block), cap as c_int),
                c::LZ4_decompress_safe_usingDict(
                    cp(&block),
                    b.ptr(),
                    len(&block),
                    cap as c_int,
                    ptr::null(),
                    0,
                ),
            )
        };
        assert_eq!((x, &a.out()[..39]), (39, &expect[..]), "cap {cap}");
        assert!(y < 0, "cap {cap}: liblz4 {y}");
    }
}

#[test]
fn damaged_blocks_without_their_size_with_a_dictionary() {
    let mut rng = Rng::new(41);
    let dict = samples::text(70_000, &mut rng);
    for src in sources(&mut rng) {
        let block = lz4_simd::block::compress_with_dictionary(&src, &dict, 1).unwrap();
        for block in damaged(&block, &mut rng, 200) {
            let mut padded = block.clone();
            padded.resize(block.len() + 70_000, 0);
            for size in [0, src.len() / 2, src.len()] {
                let (mut a, mut b) = (Guarded::new(size), Guarded::new(size));
                // SAFETY: the input is readable far past the block; outputs of `size` bytes.
                let (x, y) = unsafe {
                    (
                        ours::LZ4_decompress_fast_usingDict(
                            cp(&padded),
                            a.ptr(),
                            size as c_int,
                            cp(&dict),
                            len(&dict),
                        ),
                        cfast::LZ4_decompress_fast_usingDict(
                            cp(&padded),
                            b.ptr(),
                            size as c_int,
                            cp(&dict),
                            len(&dict),
                        ),
                    )
                };
                a.check("ours");
                b.check("liblz4");
                if (x < 0) != (y < 0) {
                    assert!(
                        x >= 0 || has_offset_zero(&block),
                        "size {size} block {block:02x?}: {x} vs {y}"
                    );
                    continue;
                }
                if x >= 0 {
                    assert_eq!(x, y, "size {size}");
                    assert_eq!(a.out(), b.out(), "size {size}");
                }
            }
        }
    }
}
