//! HC streaming compression (`LZ4_streamHC_t`) against liblz4 1.10 (lz4-sys): the same call
//! sequences on the same memory (one arena, so that which blocks are adjacent, and so each
//! call's mode, is the same for both libraries) give the same return values, the same output
//! bytes, and the same state: the 262200 bytes of `LZ4_streamHC_t` (tables, pointers, indices,
//! level, flags) are compared after every call.

use std::os::raw::{c_char, c_int, c_void};

use lz4_simd_capi as ours;
use testkit::samples;
use testkit::Rng;

/// liblz4's functions, declared from lz4hc.h (lz4-sys links the library).
mod c {
    use std::os::raw::{c_char, c_int, c_void};
    extern "C" {
        pub fn LZ4_initStreamHC(buffer: *mut c_void, size: usize) -> *mut c_void;
        pub fn LZ4_resetStreamHC(s: *mut c_void, level: c_int);
        pub fn LZ4_resetStreamHC_fast(s: *mut c_void, level: c_int);
        pub fn LZ4_setCompressionLevel(s: *mut c_void, level: c_int);
        pub fn LZ4_loadDictHC(s: *mut c_void, d: *const c_char, n: c_int) -> c_int;
        pub fn LZ4_attach_HC_dictionary(s: *mut c_void, d: *const c_void);
        pub fn LZ4_compress_HC_continue(
            s: *mut c_void,
            src: *const c_char,
            dst: *mut c_char,
            n: c_int,
            cap: c_int,
        ) -> c_int;
        pub fn LZ4_compress_HC_continue_destSize(
            s: *mut c_void,
            src: *const c_char,
            dst: *mut c_char,
            n: *mut c_int,
            cap: c_int,
        ) -> c_int;
        pub fn LZ4_saveDictHC(s: *mut c_void, buf: *mut c_char, n: c_int) -> c_int;
        pub fn LZ4_compressHC_continue(
            s: *mut c_void,
            src: *const c_char,
            dst: *mut c_char,
            n: c_int,
        ) -> c_int;
        pub fn LZ4_compressHC_limitedOutput_continue(
            s: *mut c_void,
            src: *const c_char,
            dst: *mut c_char,
            n: c_int,
            cap: c_int,
        ) -> c_int;
        pub fn LZ4_compressHC2_continue(
            s: *mut c_void,
            src: *const c_char,
            dst: *mut c_char,
            n: c_int,
            level: c_int,
        ) -> c_int;
        pub fn LZ4_compressHC2_limitedOutput_continue(
            s: *mut c_void,
            src: *const c_char,
            dst: *mut c_char,
            n: c_int,
            cap: c_int,
            level: c_int,
        ) -> c_int;
        pub fn LZ4_resetStreamStateHC(s: *mut c_void, buf: *mut c_char) -> c_int;
        pub fn LZ4_slideInputBufferHC(s: *mut c_void) -> *mut c_char;
        pub fn LZ4_compressBound(n: c_int) -> c_int;
        pub fn LZ4_compress_HC_extStateHC(
            s: *mut c_void,
            src: *const c_char,
            dst: *mut c_char,
            n: c_int,
            cap: c_int,
            level: c_int,
        ) -> c_int;
        pub fn LZ4_compress_HC_extStateHC_fastReset(
            s: *mut c_void,
            src: *const c_char,
            dst: *mut c_char,
            n: c_int,
            cap: c_int,
            level: c_int,
        ) -> c_int;
        pub fn LZ4_compress_HC_destSize(
            s: *mut c_void,
            src: *const c_char,
            dst: *mut c_char,
            n: *mut c_int,
            cap: c_int,
            level: c_int,
        ) -> c_int;
    }
}

/// `sizeof(LZ4_streamHC_t)`.
const STATE: usize = 262_200;
/// Where `favorDecSpeed` is in the state (after the tables, three pointers, three indices and
/// the level): `LZ4_favorDecompressionSpeed` is not exported, so both libraries get the byte.
const FAVOR: usize = 262_182;

/// One library's HC stream functions, called through their C signatures.
trait Api {
    const NAME: &'static str;
    /// # Safety
    /// The C functions' contracts (for all the methods).
    unsafe fn init(&self, buf: *mut c_void, size: usize) -> *mut c_void;
    unsafe fn reset(&self, s: *mut c_void, level: c_int);
    unsafe fn reset_fast(&self, s: *mut c_void, level: c_int);
    unsafe fn set_level(&self, s: *mut c_void, level: c_int);
    unsafe fn load(&self, s: *mut c_void, d: *const u8, n: c_int) -> c_int;
    unsafe fn attach(&self, s: *mut c_void, d: *const c_void);
    unsafe fn cont(
        &self,
        s: *mut c_void,
        src: *const u8,
        dst: *mut u8,
        n: c_int,
        cap: c_int,
    ) -> c_int;
    unsafe fn dest_size(
        &self,
        s: *mut c_void,
        src: *const u8,
        dst: *mut u8,
        n: *mut c_int,
        cap: c_int,
    ) -> c_int;
    unsafe fn save(&self, s: *mut c_void, buf: *mut u8, n: c_int) -> c_int;
    unsafe fn old_plain(&self, s: *mut c_void, src: *const u8, dst: *mut u8, n: c_int) -> c_int;
    unsafe fn old_limited(
        &self,
        s: *mut c_void,
        src: *const u8,
        dst: *mut u8,
        n: c_int,
        cap: c_int,
    ) -> c_int;
    unsafe fn hc2(&self, s: *mut c_void, src: *const u8, dst: *mut u8, n: c_int, l: c_int)
        -> c_int;
    unsafe fn hc2_limited(
        &self,
        s: *mut c_void,
        src: *const u8,
        dst: *mut u8,
        n: c_int,
        cap: c_int,
        l: c_int,
    ) -> c_int;
    unsafe fn reset_state(&self, s: *mut c_void, buf: *mut u8) -> c_int;
    unsafe fn slide(&self, s: *mut c_void) -> *mut c_char;
    /// `LZ4_compress_HC_extStateHC` (`fast_reset`: its `_fastReset` form), or with `n` given
    /// `LZ4_compress_HC_destSize`.
    #[allow(clippy::too_many_arguments)]
    unsafe fn one_shot(
        &self,
        s: *mut c_void,
        src: *const u8,
        dst: *mut u8,
        n: c_int,
        size: Option<&mut c_int>,
        cap: c_int,
        level: c_int,
        fast_reset: bool,
    ) -> c_int;
}

macro_rules! api {
    ($name:ident, $label:literal, $m:ident) => {
        struct $name;
        // SAFETY (every method): the caller's contract, which is the function's.
        impl Api for $name {
            const NAME: &'static str = $label;
            unsafe fn init(&self, buf: *mut c_void, size: usize) -> *mut c_void {
                // SAFETY: see the impl.
                unsafe { $m::LZ4_initStreamHC(buf, size).cast() }
            }
            unsafe fn reset(&self, s: *mut c_void, level: c_int) {
                // SAFETY: see the impl.
                unsafe { $m::LZ4_resetStreamHC(s.cast(), level) }
            }
            unsafe fn reset_fast(&self, s: *mut c_void, level: c_int) {
                // SAFETY: see the impl.
                unsafe { $m::LZ4_resetStreamHC_fast(s.cast(), level) }
            }
            unsafe fn set_level(&self, s: *mut c_void, level: c_int) {
                // SAFETY: see the impl.
                unsafe { $m::LZ4_setCompressionLevel(s.cast(), level) }
            }
            unsafe fn load(&self, s: *mut c_void, d: *const u8, n: c_int) -> c_int {
                // SAFETY: see the impl.
                unsafe { $m::LZ4_loadDictHC(s.cast(), d.cast(), n) }
            }
            unsafe fn attach(&self, s: *mut c_void, d: *const c_void) {
                // SAFETY: see the impl.
                unsafe { $m::LZ4_attach_HC_dictionary(s.cast(), d.cast()) }
            }
            unsafe fn cont(
                &self,
                s: *mut c_void,
                src: *const u8,
                dst: *mut u8,
                n: c_int,
                cap: c_int,
            ) -> c_int {
                // SAFETY: see the impl.
                unsafe { $m::LZ4_compress_HC_continue(s.cast(), src.cast(), dst.cast(), n, cap) }
            }
            unsafe fn dest_size(
                &self,
                s: *mut c_void,
                src: *const u8,
                dst: *mut u8,
                n: *mut c_int,
                cap: c_int,
            ) -> c_int {
                // SAFETY: see the impl.
                unsafe {
                    $m::LZ4_compress_HC_continue_destSize(s.cast(), src.cast(), dst.cast(), n, cap)
                }
            }
            unsafe fn save(&self, s: *mut c_void, buf: *mut u8, n: c_int) -> c_int {
                // SAFETY: see the impl.
                unsafe { $m::LZ4_saveDictHC(s.cast(), buf.cast(), n) }
            }
            unsafe fn old_plain(
                &self,
                s: *mut c_void,
                src: *const u8,
                dst: *mut u8,
                n: c_int,
            ) -> c_int {
                // SAFETY: see the impl.
                unsafe { $m::LZ4_compressHC_continue(s.cast(), src.cast(), dst.cast(), n) }
            }
            unsafe fn old_limited(
                &self,
                s: *mut c_void,
                src: *const u8,
                dst: *mut u8,
                n: c_int,
                cap: c_int,
            ) -> c_int {
                // SAFETY: see the impl.
                unsafe {
                    $m::LZ4_compressHC_limitedOutput_continue(
                        s.cast(),
                        src.cast(),
                        dst.cast(),
                        n,
                        cap,
                    )
                }
            }
            unsafe fn hc2(
                &self,
                s: *mut c_void,
                src: *const u8,
                dst: *mut u8,
                n: c_int,
                l: c_int,
            ) -> c_int {
                // SAFETY: see the impl.
                unsafe { $m::LZ4_compressHC2_continue(s.cast(), src.cast(), dst.cast(), n, l) }
            }
            unsafe fn hc2_limited(
                &self,
                s: *mut c_void,
                src: *const u8,
                dst: *mut u8,
                n: c_int,
                cap: c_int,
                l: c_int,
            ) -> c_int {
                // SAFETY: see the impl.
                unsafe {
                    $m::LZ4_compressHC2_limitedOutput_continue(
                        s.cast(),
                        src.cast(),
                        dst.cast(),
                        n,
                        cap,
                        l,
                    )
                }
            }
            unsafe fn reset_state(&self, s: *mut c_void, buf: *mut u8) -> c_int {
                // SAFETY: see the impl.
                unsafe { $m::LZ4_resetStreamStateHC(s.cast(), buf.cast()) }
            }
            unsafe fn slide(&self, s: *mut c_void) -> *mut c_char {
                // SAFETY: see the impl.
                unsafe { $m::LZ4_slideInputBufferHC(s.cast()) }
            }
            unsafe fn one_shot(
                &self,
                s: *mut c_void,
                src: *const u8,
                dst: *mut u8,
                n: c_int,
                size: Option<&mut c_int>,
                cap: c_int,
                level: c_int,
                fast_reset: bool,
            ) -> c_int {
                // SAFETY: see the impl.
                unsafe {
                    match size {
                        Some(size) => $m::LZ4_compress_HC_destSize(
                            s.cast(),
                            src.cast(),
                            dst.cast(),
                            size,
                            cap,
                            level,
                        ),
                        None if fast_reset => $m::LZ4_compress_HC_extStateHC_fastReset(
                            s.cast(),
                            src.cast(),
                            dst.cast(),
                            n,
                            cap,
                            level,
                        ),
                        None => $m::LZ4_compress_HC_extStateHC(
                            s.cast(),
                            src.cast(),
                            dst.cast(),
                            n,
                            cap,
                            level,
                        ),
                    }
                }
            }
        }
    };
}
api!(Ours, "lz4-simd", ours);
api!(Liblz4, "liblz4", c);

/// What a scenario records: every return value, output and state, in order.
#[derive(Default, PartialEq, Debug)]
struct Trace {
    events: Vec<Event>,
}

#[derive(PartialEq)]
enum Event {
    Ret(&'static str, i64),
    Out(Vec<u8>),
    State(Vec<u8>),
}

impl std::fmt::Debug for Event {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Event::Ret(what, v) => write!(f, "{what} = {v}"),
            Event::Out(b) => write!(f, "out[{}] {:02x?}", b.len(), &b[..b.len().min(24)]),
            Event::State(s) => write!(f, "state fields {:02x?}", &s[2 * 131_072..]),
        }
    }
}

/// An arena of pointer-aligned memory shared by both libraries' runs, so that the buffers of a
/// scenario are at the same addresses for both.
struct Arena {
    words: Vec<u64>,
}

impl Arena {
    fn new(len: usize) -> Self {
        Arena {
            words: vec![0; len.div_ceil(8) + 1],
        }
    }
    fn len(&self) -> usize {
        self.words.len() * 8
    }
    fn base(&mut self) -> *mut u8 {
        self.words.as_mut_ptr().cast()
    }
    fn clear(&mut self) {
        self.words.fill(0);
    }
}

/// A scenario's view of the arena and a stream state (also in the arena), for one library.
struct Run<'a, A: Api> {
    api: &'a A,
    base: *mut u8,
    len: usize,
    trace: Trace,
}

impl<A: Api> Run<'_, A> {
    fn at(&self, off: usize) -> *mut u8 {
        assert!(off <= self.len);
        self.base.wrapping_add(off)
    }
    fn s(&self, off: usize) -> *mut c_void {
        self.at(off).cast()
    }
    fn put(&mut self, off: usize, bytes: &[u8]) {
        assert!(off + bytes.len() <= self.len);
        // SAFETY: inside the arena (checked), which nothing else borrows during the run.
        unsafe { std::ptr::copy(bytes.as_ptr(), self.at(off), bytes.len()) };
    }
    fn get(&self, off: usize, len: usize) -> Vec<u8> {
        assert!(off + len <= self.len);
        // SAFETY: inside the arena (checked).
        unsafe { std::slice::from_raw_parts(self.at(off), len) }.to_vec()
    }
    fn ret(&mut self, what: &'static str, v: i64) {
        self.trace.events.push(Event::Ret(what, v));
    }
    /// Records an address in the arena as an offset (null as -1).
    fn ptr(&mut self, what: &'static str, p: *const c_char) {
        let v = if p.is_null() {
            -1
        } else {
            (p as usize).wrapping_sub(self.base as usize) as i64
        };
        self.ret(what, v);
    }
    fn state(&mut self, s: usize) {
        let bytes = self.get(s, STATE);
        self.trace.events.push(Event::State(bytes));
    }
    fn init(&mut self, s: usize) {
        // SAFETY: `STATE` bytes of the arena, pointer-aligned.
        let r = unsafe { self.api.init(self.s(s), STATE) };
        assert_eq!(r, self.s(s), "{}", A::NAME);
        self.state(s);
    }
    fn favor(&mut self, s: usize, on: bool) {
        self.put(s + FAVOR, &[u8::from(on)]);
    }
    fn level(&mut self, s: usize, level: c_int) {
        // SAFETY: an initialised state.
        unsafe { self.api.set_level(self.s(s), level) };
        self.state(s);
    }
    fn reset_fast(&mut self, s: usize, level: c_int) {
        // SAFETY: an initialised state.
        unsafe { self.api.reset_fast(self.s(s), level) };
        self.state(s);
    }
    fn guard(&mut self, at: usize) {
        self.put(at, &[0xA5; 16]);
    }
    /// `LZ4_compress_HC_continue(src[..n], dst[..cap])` with guard bytes after `cap`; records
    /// the result, the output and the state.
    fn cont(&mut self, s: usize, src: usize, n: usize, dst: usize, cap: usize) -> c_int {
        self.guard(dst + cap);
        // SAFETY: the buffers are inside the arena; the state was initialised.
        let r = unsafe {
            self.api.cont(
                self.s(s),
                self.at(src),
                self.at(dst),
                n as c_int,
                cap as c_int,
            )
        };
        self.after(s, "HC_continue", r, dst, cap)
    }
    fn dest_size(&mut self, s: usize, src: usize, n: usize, dst: usize, cap: usize) -> c_int {
        self.guard(dst + cap);
        let mut size = n as c_int;
        // SAFETY: the buffers are inside the arena; the state was initialised.
        let r = unsafe {
            self.api.dest_size(
                self.s(s),
                self.at(src),
                self.at(dst),
                &mut size,
                cap as c_int,
            )
        };
        self.ret("consumed", size.into());
        self.after(s, "HC_continue_destSize", r, dst, cap)
    }
    fn after(&mut self, s: usize, what: &'static str, r: c_int, dst: usize, cap: usize) -> c_int {
        assert_eq!(
            self.get(dst + cap, 16),
            [0xA5; 16],
            "{}: {what} wrote past the output",
            A::NAME
        );
        self.ret(what, r.into());
        if r > 0 {
            let out = self.get(dst, r as usize);
            self.trace.events.push(Event::Out(out));
        }
        self.state(s);
        r
    }
    fn save(&mut self, s: usize, buf: usize, n: c_int) -> c_int {
        // SAFETY: the buffer is inside the arena with room for `n` (the scenarios' layout).
        let r = unsafe { self.api.save(self.s(s), self.at(buf), n) };
        self.ret("saveDictHC", r.into());
        self.state(s);
        r
    }
    fn load(&mut self, s: usize, dict: usize, n: c_int) {
        // SAFETY: the dictionary is inside the arena.
        let r = unsafe { self.api.load(self.s(s), self.at(dict), n) };
        self.ret("loadDictHC", r.into());
        self.state(s);
    }
}

/// Runs `scenario` for one library.
fn run<A: Api>(api: &A, arena: &mut Arena, scenario: &dyn Fn(&mut Run<'_, A>)) -> Trace {
    arena.clear();
    let mut run = Run {
        api,
        base: arena.base(),
        len: arena.len() - 8,
        trace: Trace::default(),
    };
    scenario(&mut run);
    run.trace
}

/// Both libraries' traces of the same scenario, which must be equal.
macro_rules! same {
    ($arena:expr, $label:expr, |$r:ident| $body:block) => {{
        let arena: &mut Arena = $arena;
        let label = $label;
        let theirs = run(&Liblz4, arena, &|$r: &mut Run<'_, Liblz4>| $body);
        let mine = run(&Ours, arena, &|$r: &mut Run<'_, Ours>| $body);
        for (i, (a, b)) in theirs.events.iter().zip(&mine.events).enumerate() {
            if a != b {
                if let (Event::State(x), Event::State(y)) = (a, b) {
                    let first = x.iter().zip(y).position(|(p, q)| p != q).unwrap();
                    panic!(
                        "{label}: event {i}: states differ from byte {first} (liblz4 {:02x?}, \
                         lz4-simd {:02x?})",
                        &x[first..(first + 8).min(STATE)],
                        &y[first..(first + 8).min(STATE)],
                    );
                }
                assert_eq!(a, b, "{label}: event {i} (liblz4 left, lz4-simd right)");
            }
        }
        assert_eq!(theirs.events.len(), mine.events.len(), "{label}");
    }};
}

fn data(len: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut out = samples::text(len / 2, &mut rng);
    out.extend_from_slice(&samples::logs(len / 4, &mut rng));
    out.extend_from_slice(&samples::random(len / 16, &mut rng));
    out.extend_from_slice(&[b'a'; 3000]);
    out.extend_from_slice(&b"ab".repeat(2000));
    out.extend_from_slice(&samples::text(len, &mut rng));
    out.truncate(len);
    out
}

fn bound(n: usize) -> usize {
    // SAFETY: no pointer argument.
    unsafe { c::LZ4_compressBound(n as c_int) as usize }
}

/// Every level, the out-of-range ones included (0 and below are 9, above 12 is 12).
const LEVELS: [c_int; 16] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, -3, 13, 1000];
/// One level of each parse (middle, hash chain, optimal, ultra).
const KINDS: [c_int; 5] = [2, 4, 9, 10, 12];

/// Layout: the state at 0, a second state after it, the output, then the scenario's buffers.
const S: usize = 0;
const D: usize = STATE + 64;
const OUT: usize = D + STATE + 64;
const OUT_LEN: usize = 300_000;
const DATA: usize = OUT + OUT_LEN + 64;

/// Consecutive slices of one buffer (prefix mode), blocks of 0 to 20 bytes and beyond 64 KiB,
/// at every level.
#[test]
fn prefix_mode() {
    let input = data(400_000, 1);
    let mut arena = Arena::new(DATA + input.len() + 64);
    let sizes: Vec<usize> = (0..=14)
        .chain([100, 4096, 70_000, 1, 0, 3, 65_536, 5, 13_000, 90_000])
        .collect();
    for level in LEVELS {
        same!(&mut arena, format!("prefix, level {level}"), |r| {
            r.put(DATA, &input);
            r.init(S);
            r.level(S, level);
            let mut at = DATA;
            for &n in &sizes {
                r.cont(S, at, n, OUT, bound(n));
                at += n;
            }
        });
    }
}

/// Each block in its own buffer (external-dictionary mode), through the three compressing
/// names, with `LZ4_slideInputBufferHC` between some.
#[test]
fn separate_buffers() {
    let input = data(300_000, 2);
    let mut arena = Arena::new(DATA + 2 * input.len() + 64);
    let sizes = [3usize, 0, 20, 5000, 70_000, 12, 4, 60_000, 1000, 7, 65_536];
    for level in KINDS {
        same!(&mut arena, format!("separate, level {level}"), |r| {
            r.init(S);
            r.level(S, level);
            let (mut from, mut at) = (0, DATA);
            for (i, &n) in sizes.iter().enumerate() {
                // A gap of 16 bytes: never adjacent.
                r.put(at, &input[from..from + n]);
                r.guard(OUT + bound(n));
                // SAFETY (each arm): arena buffers; `OUT` holds the bound.
                let (what, v) = match i % 3 {
                    0 => ("HC_continue", unsafe {
                        // SAFETY: as above.
                        r.api
                            .cont(r.s(S), r.at(at), r.at(OUT), n as c_int, bound(n) as c_int)
                    }),
                    1 => ("compressHC_continue", unsafe {
                        // SAFETY: as above.
                        r.api.old_plain(r.s(S), r.at(at), r.at(OUT), n as c_int)
                    }),
                    _ => ("compressHC_limitedOutput_continue", unsafe {
                        // SAFETY: as above.
                        r.api.old_limited(
                            r.s(S),
                            r.at(at),
                            r.at(OUT),
                            n as c_int,
                            bound(n) as c_int,
                        )
                    }),
                };
                r.after(S, what, v, OUT, bound(n));
                if i % 4 == 3 {
                    // SAFETY: the state is initialised.
                    let p = unsafe { r.api.slide(r.s(S)) };
                    r.ptr("slideInputBufferHC", p);
                    r.state(S);
                }
                from += n;
                at += n + 16;
            }
        });
    }
}

/// A ring buffer, as lz4's `blockStreamingHC_ringBuffer` example: each block copied in after
/// the previous one, back to the start when it would not fit; and two alternating buffers.
#[test]
fn ring_buffers() {
    let input = data(700_000, 3);
    for (ring, blocks) in [
        (65_536usize, vec![4096usize, 1000, 8192, 333]),
        (100_000, vec![4096, 30_000, 777, 16_384]),
        (4096, vec![100, 700, 1000, 13, 64]),
    ] {
        let mut arena = Arena::new(DATA + ring + 64);
        for level in KINDS {
            same!(&mut arena, format!("ring {ring}, level {level}"), |r| {
                r.init(S);
                r.level(S, level);
                let (mut from, mut pos) = (0, 0);
                for i in 0..40 {
                    let n = blocks[i % blocks.len()];
                    if pos + n > ring {
                        pos = 0;
                    }
                    r.put(DATA + pos, &input[from..from + n]);
                    r.cont(S, DATA + pos, n, OUT, bound(n));
                    from = (from + n) % (input.len() - 70_000);
                    pos += n;
                }
            });
        }
    }
    let mut arena = Arena::new(DATA + 2 * 70_000 + 64);
    for level in KINDS {
        same!(&mut arena, format!("double buffer, level {level}"), |r| {
            r.init(S);
            r.level(S, level);
            let mut from = 0;
            for i in 0..8 {
                let n = [5000usize, 65_536, 100, 20_000][i % 4];
                let at = DATA + (i % 2) * 70_000;
                r.put(at, &input[from..from + n]);
                r.cont(S, at, n, OUT, bound(n));
                from += n;
            }
        });
    }
}

/// `LZ4_loadDictHC` of 0 to more than 64 KiB, then blocks right after the dictionary (prefix
/// mode) or apart from it.
#[test]
fn load_dict_then_blocks() {
    let input = data(400_000, 4);
    let mut arena = Arena::new(DATA + 400_000);
    for dict_len in [0usize, 1, 3, 4, 8, 9, 1000, 65_536, 100_000] {
        for level in KINDS {
            for adjacent in [false, true] {
                let label = format!("loadDictHC {dict_len} level {level} adjacent {adjacent}");
                same!(&mut arena, label, |r| {
                    r.put(DATA, &input[..dict_len]);
                    r.init(S);
                    r.level(S, level);
                    r.load(S, DATA, dict_len as c_int);
                    let mut at = DATA + dict_len + if adjacent { 0 } else { 64 };
                    let mut from = dict_len;
                    for n in [0usize, 10, 4096, 30_000, 3, 70_000] {
                        r.put(at, &input[from..from + n]);
                        r.cont(S, at, n, OUT, bound(n));
                        at += n;
                        from += n;
                    }
                });
            }
        }
    }
}

/// `LZ4_saveDictHC` after each block (sizes 64 KiB, smaller, under 4, 0, negative and above
/// 64 KiB), the next block apart or right after the saved history.
#[test]
fn save_dict_then_continue() {
    let input = data(600_000, 5);
    const SAVED: usize = DATA;
    const INPUT: usize = DATA + 65_536;
    const APART: usize = INPUT + 100_000;
    let mut arena = Arena::new(APART + 100_000);
    for save_size in [65_536, 1000, 4, 3, 0, -1, 100_000] {
        for level in KINDS {
            same!(
                &mut arena,
                format!("saveDictHC {save_size} level {level}"),
                |r| {
                    r.init(S);
                    r.level(S, level);
                    let mut from = 0;
                    for i in 0..10 {
                        let n = [70_000usize, 5000, 12, 40_000, 0, 1][i % 6];
                        let follows = i % 2 == 1;
                        if follows {
                            r.save(S, SAVED, save_size.clamp(0, 65_536));
                        }
                        let at = if follows {
                            SAVED + saved_len(r, S)
                        } else {
                            APART
                        };
                        r.put(at, &input[from..from + n]);
                        r.cont(S, at, n, OUT, bound(n));
                        r.save(S, SAVED, save_size);
                        from += n;
                    }
                }
            );
        }
    }
}

/// A state's `dictLimit`, read from its bytes.
fn state_index<A: Api>(r: &Run<'_, A>, s: usize) -> u32 {
    let field = r.get(s + 2 * 131_072 + 24, 4);
    u32::from_ne_bytes(field.try_into().unwrap())
}

/// The prefix length of a state (`end - prefixStart`), read from its bytes.
fn saved_len<A: Api>(r: &Run<'_, A>, s: usize) -> usize {
    let fields = r.get(s + 2 * 131_072, 16);
    let end = u64::from_ne_bytes(fields[..8].try_into().unwrap());
    let start = u64::from_ne_bytes(fields[8..].try_into().unwrap());
    end.wrapping_sub(start) as usize
}

/// `LZ4_attach_HC_dictionary` with a dictionary stream from `LZ4_loadDictHC`: first blocks at
/// and around 4 KiB (read in place or copied), then more; the working and dictionary streams at
/// levels of the same kind or not; and the frame pattern, `LZ4_resetStreamHC_fast` + attach +
/// one block, many times on one working stream.
#[test]
fn attached_dictionary() {
    const DICT: usize = DATA;
    let input = data(400_000, 6);
    let mut arena = Arena::new(DICT + 400_000);
    for dict_len in [0usize, 6, 2000, 65_536, 90_000] {
        for (work_level, dict_level) in [(9, 9), (4, 12), (12, 5), (10, 10), (2, 9)] {
            for first in [0usize, 12, 1000, 4096, 4097, 20_000] {
                let label =
                    format!("attach {dict_len} levels {work_level}/{dict_level} first {first}");
                same!(&mut arena, label, |r| {
                    r.put(DICT, &input[..dict_len]);
                    r.init(D);
                    r.level(D, dict_level);
                    r.load(D, DICT, dict_len as c_int);
                    r.init(S);
                    r.level(S, work_level);
                    // SAFETY: both states are initialised.
                    unsafe { r.api.attach(r.s(S), r.s(D)) };
                    r.state(S);
                    let mut at = DICT + dict_len + 32;
                    let mut from = dict_len;
                    for n in [first, 3000, 5, 70_000] {
                        r.put(at, &input[from..from + n]);
                        r.cont(S, at, n, OUT, bound(n));
                        at += n;
                        from += n;
                    }
                });
            }
        }
    }
    for dict_len in [2000usize, 65_536] {
        for level in KINDS {
            let label = format!("reset_fast + attach, dictionary {dict_len}, level {level}");
            same!(&mut arena, label, |r| {
                r.put(DICT, &input[..dict_len]);
                r.init(D);
                r.level(D, 9);
                r.load(D, DICT, dict_len as c_int);
                r.init(S);
                let at = DICT + dict_len + 32;
                let mut from = dict_len;
                for i in 0..24 {
                    let n = [100usize, 4096, 4097, 10_000, 0, 3][i % 6];
                    // SAFETY: both states are initialised.
                    unsafe {
                        r.api.reset_fast(r.s(S), level);
                        r.api.attach(r.s(S), r.s(D));
                    }
                    r.put(at, &input[from..from + n]);
                    r.cont(S, at, n, OUT, bound(n));
                    from += n;
                }
            });
        }
    }
}

/// Mid-stream changes: `LZ4_setCompressionLevel` between blocks (across the parses, whose
/// tables differ), `LZ4_resetStreamHC_fast` and `LZ4_resetStreamHC`, and the
/// favour-decompression-speed option on and off.
#[test]
fn mid_stream_changes() {
    let input = data(500_000, 7);
    let mut arena = Arena::new(DATA + 500_000);
    for contiguous in [true, false] {
        same!(
            &mut arena,
            format!("changes, contiguous {contiguous}"),
            |r| {
                r.put(DATA, &input);
                r.init(S);
                let mut at = DATA;
                let steps: [(c_int, bool, usize); 14] = [
                    (9, false, 10_000),
                    (12, true, 20_000),
                    (2, false, 5000),
                    (10, true, 70_000),
                    (3, false, 3000),
                    (11, true, 4000),
                    (1, false, 100),
                    (12, false, 30_000),
                    (0, true, 2000),
                    (-1, false, 9000),
                    (13, true, 12_000),
                    (5, true, 1),
                    (10, true, 50_000),
                    (2, true, 8000),
                ];
                for (i, &(level, favor, n)) in steps.iter().enumerate() {
                    r.level(S, level);
                    r.favor(S, favor);
                    r.cont(S, at, n, OUT, bound(n));
                    at += n + if contiguous { 0 } else { 16 };
                    if i == 4 || i == 9 {
                        r.reset_fast(S, level + 1);
                    }
                    if i == 11 {
                        // SAFETY: an initialised state.
                        unsafe { r.api.reset(r.s(S), 10) };
                        r.state(S);
                    }
                }
            }
        );
    }
}

/// `LZ4_compress_HC_continue_destSize`: targets from 0 bytes up to more than the bound, in
/// prefix and external-dictionary mode, with the stream going on after each.
#[test]
fn dest_size() {
    let input = data(400_000, 8);
    let mut arena = Arena::new(DATA + 400_000);
    for level in LEVELS {
        for contiguous in [true, false] {
            same!(
                &mut arena,
                format!("destSize level {level} contiguous {contiguous}"),
                |r| {
                    r.put(DATA, &input);
                    r.init(S);
                    r.level(S, level);
                    let mut at = DATA;
                    for (n, cap) in [
                        (5000usize, 1000usize),
                        (0, 0),
                        (0, 1),
                        (100, 10),
                        (20_000, 20_100),
                        (70_000, 4096),
                        (3000, 1),
                        (13, 5),
                        (65_536, 65_536),
                        (1000, 2000),
                    ] {
                        r.dest_size(S, at, n, OUT, cap);
                        at += n + if contiguous { 0 } else { 16 };
                    }
                }
            );
        }
    }
}

/// Outputs of exactly the compressed size, one byte short, smaller still and 0 bytes (liblz4
/// gives up by its estimate, marks the stream dirty, and its next `LZ4_resetStreamHC_fast`
/// initialises it), with guard bytes past the end; the next blocks show the state after each.
#[test]
fn output_limits() {
    let input = data(300_000, 9);
    let mut arena = Arena::new(DATA + 300_000);
    for level in KINDS {
        for n in [0usize, 1, 13, 300, 5000, 70_000] {
            // The compressed size, from a run with room.
            let mut exact = 0;
            {
                let mut a = Arena::new(DATA + 300_000);
                let mut t = run(&Liblz4, &mut a, &|r: &mut Run<'_, Liblz4>| {
                    r.put(DATA, &input);
                    r.init(S);
                    r.level(S, level);
                    r.cont(S, DATA + 10_000, 20_000, OUT, bound(20_000));
                    r.cont(S, DATA + 30_000, n, OUT, bound(n));
                });
                while let Some(e) = t.events.pop() {
                    if let Event::Ret(_, v) = e {
                        exact = v as usize;
                        break;
                    }
                }
            }
            for cap in [exact, exact.saturating_sub(1), exact / 2, 0] {
                same!(
                    &mut arena,
                    format!("limits level {level} n {n} cap {cap}"),
                    |r| {
                        r.put(DATA, &input);
                        r.init(S);
                        r.level(S, level);
                        r.cont(S, DATA + 10_000, 20_000, OUT, bound(20_000));
                        r.cont(S, DATA + 30_000, n, OUT, cap);
                        r.cont(S, DATA + 30_000 + n, 4000, OUT, bound(4000));
                        r.reset_fast(S, level);
                        r.cont(S, DATA + 100_000, 4000, OUT, bound(4000));
                    }
                );
            }
        }
    }
}

/// Invalid arguments: negative and oversized input sizes, a negative capacity (the state
/// changes as liblz4's do before it refuses), and null streams (ignored).
#[test]
fn invalid_arguments() {
    let input = data(100_000, 10);
    let mut arena = Arena::new(DATA + 100_000);
    for level in [2, 9, 12] {
        same!(&mut arena, format!("invalid, level {level}"), |r| {
            r.put(DATA, &input);
            r.init(S);
            r.level(S, level);
            r.cont(S, DATA, 5000, OUT, bound(5000));
            for (at, n, cap) in [
                (DATA + 5000, -1i64, 100i64),
                (DATA + 9000, 0x7E00_0001, 100),
                (DATA + 5000, 100, -5),
                (DATA + 20_000, 0, -1),
                (DATA + 20_000, -100, 1000),
            ] {
                r.guard(OUT + 100);
                // SAFETY: the pointers are inside the arena; liblz4 reads nothing for an invalid
                // size, and writes nothing for a negative capacity.
                let v = unsafe {
                    r.api
                        .cont(r.s(S), r.at(at), r.at(OUT), n as c_int, cap as c_int)
                };
                r.ret("HC_continue", v.into());
                r.state(S);
            }
            r.reset_fast(S, level);
            r.cont(S, DATA + 30_000, 5000, OUT, bound(5000));
        });
    }
    // Null streams: nothing happens (liblz4 would crash on most).
    // SAFETY: null is accepted by every one of these.
    unsafe {
        ours::LZ4_resetStreamHC(std::ptr::null_mut(), 9);
        ours::LZ4_resetStreamHC_fast(std::ptr::null_mut(), 9);
        ours::LZ4_setCompressionLevel(std::ptr::null_mut(), 9);
        assert_eq!(
            ours::LZ4_loadDictHC(std::ptr::null_mut(), std::ptr::null(), 5),
            0
        );
        ours::LZ4_attach_HC_dictionary(std::ptr::null_mut(), std::ptr::null());
        assert_eq!(
            ours::LZ4_compress_HC_continue(
                std::ptr::null_mut(),
                std::ptr::null(),
                std::ptr::null_mut(),
                0,
                0
            ),
            0
        );
        assert_eq!(
            ours::LZ4_saveDictHC(std::ptr::null_mut(), std::ptr::null_mut(), 5),
            0
        );
        assert!(ours::LZ4_slideInputBufferHC(std::ptr::null_mut()).is_null());
        assert_eq!(ours::LZ4_freeStreamHC(std::ptr::null_mut()), 0);
        assert_eq!(ours::LZ4_freeHC(std::ptr::null_mut()), 0);
        assert!(ours::LZ4_initStreamHC(std::ptr::null_mut(), STATE).is_null());
        assert_eq!(
            ours::LZ4_resetStreamStateHC(std::ptr::null_mut(), std::ptr::null_mut()),
            1
        );
    }
}

/// `LZ4_initStreamHC`'s checks (size, alignment), and the allocating functions: a stream from
/// `LZ4_createStreamHC` is an initialised one at level 9, `LZ4_createHC`'s starts its prefix at
/// the buffer given; both compress as a stream in the arena does.
#[test]
fn init_and_allocation() {
    let mut arena = Arena::new(DATA + 100_000);
    let base = arena.base();
    // SAFETY: the arena has room for a state at `S` and at `S + 1` (misaligned).
    unsafe {
        assert!(ours::LZ4_initStreamHC(base.cast(), STATE - 1).is_null());
        assert!(ours::LZ4_initStreamHC(base.add(1).cast(), STATE).is_null());
        assert!(c::LZ4_initStreamHC(base.cast(), STATE - 1).is_null());
        assert!(c::LZ4_initStreamHC(base.add(1).cast(), STATE).is_null());
    }
    let input = data(50_000, 11);
    let created = ours::LZ4_createStreamHC();
    assert!(!created.is_null());
    let hc = ours::LZ4_createHC(base.wrapping_add(DATA).cast());
    assert!(!hc.is_null());
    // SAFETY: fresh streams, and the arena's buffers.
    unsafe {
        let mut fresh = vec![0u8; STATE];
        fresh[262_180] = 9;
        assert_eq!(
            std::slice::from_raw_parts(created.cast::<u8>(), STATE),
            &fresh[..]
        );
        std::ptr::copy_nonoverlapping(input.as_ptr(), base.add(DATA), input.len());
        let mut ours_out = vec![0u8; bound(input.len())];
        let mut their_out = vec![0u8; bound(input.len())];
        let theirs = c::LZ4_initStreamHC(base.cast(), STATE);
        assert_eq!(c::LZ4_resetStreamStateHC(theirs, base.add(DATA).cast()), 0);
        for (i, n) in [1000usize, 20_000, 5].into_iter().enumerate() {
            let at = base.add(DATA + [0, 1000, 21_000][i]);
            let a = ours::LZ4_compressHC2_continue(
                hc,
                at.cast(),
                ours_out.as_mut_ptr().cast(),
                n as c_int,
                10,
            );
            let b = c::LZ4_compressHC2_continue(
                theirs,
                at.cast(),
                their_out.as_mut_ptr().cast(),
                n as c_int,
                10,
            );
            assert_eq!(a, b, "compressHC2_continue {n}");
            assert_eq!(ours_out[..a as usize], their_out[..b as usize]);
            assert_eq!(
                std::slice::from_raw_parts(hc.cast::<u8>(), STATE),
                std::slice::from_raw_parts(theirs.cast::<u8>(), STATE),
            );
        }
        assert_eq!(ours::LZ4_freeHC(hc), 0);
        assert_eq!(ours::LZ4_freeStreamHC(created), 0);
    }
}

/// The older calls on a state set up by `LZ4_resetStreamStateHC` over an input buffer:
/// `LZ4_compressHC2_continue` and its limited form on consecutive blocks at a level of their
/// own, `LZ4_slideInputBufferHC` and on.
#[test]
fn older_calls() {
    let input = data(300_000, 12);
    let mut arena = Arena::new(DATA + 300_000);
    for level in LEVELS {
        same!(&mut arena, format!("older calls, level {level}"), |r| {
            r.put(DATA, &input);
            // SAFETY: arena buffers.
            let v = unsafe { r.api.reset_state(r.s(S), r.at(DATA)) };
            r.ret("resetStreamStateHC", v.into());
            r.state(S);
            let mut at = DATA;
            for (i, n) in [1000usize, 70_000, 0, 13, 5000, 30_000]
                .into_iter()
                .enumerate()
            {
                r.guard(OUT + bound(n));
                let v = if i > 3 {
                    // After the slide the prefix is null: liblz4's older calls would index from
                    // it (they do not start a prefix), so the stream goes on with the new name.
                    // SAFETY: as below.
                    unsafe {
                        r.api
                            .cont(r.s(S), r.at(at), r.at(OUT), n as c_int, bound(n) as c_int)
                    }
                } else if i % 2 == 0 {
                    // SAFETY: arena buffers; `OUT` holds the bound.
                    unsafe { r.api.hc2(r.s(S), r.at(at), r.at(OUT), n as c_int, level) }
                } else {
                    // SAFETY: as above.
                    unsafe {
                        r.api.hc2_limited(
                            r.s(S),
                            r.at(at),
                            r.at(OUT),
                            n as c_int,
                            (n / 2) as c_int,
                            level,
                        )
                    }
                };
                r.after(S, "compressHC2_continue", v, OUT, bound(n));
                at += n;
                if i == 3 {
                    // SAFETY: an initialised state.
                    let p = unsafe { r.api.slide(r.s(S)) };
                    r.ptr("slideInputBufferHC", p);
                    r.state(S);
                }
            }
        });
    }
}

/// A dictionary stream at liblz4's middle parser's levels (1-2), attached to a working stream
/// of either kind.
#[test]
fn attached_middle_level() {
    const DICT: usize = DATA;
    let input = data(200_000, 13);
    let mut arena = Arena::new(DICT + 200_000);
    for dict_len in [2000usize, 65_536] {
        for (work_level, dict_level) in [(2, 2), (1, 2), (9, 2), (12, 1)] {
            for first in [100usize, 4096, 4097, 20_000] {
                let label =
                    format!("attach {dict_len} levels {work_level}/{dict_level} first {first}");
                same!(&mut arena, label, |r| {
                    r.put(DICT, &input[..dict_len]);
                    r.init(D);
                    r.level(D, dict_level);
                    r.load(D, DICT, dict_len as c_int);
                    r.init(S);
                    r.level(S, work_level);
                    // SAFETY: both states are initialised.
                    unsafe { r.api.attach(r.s(S), r.s(D)) };
                    r.state(S);
                    let mut at = DICT + dict_len + 32;
                    let mut from = dict_len;
                    for n in [first, 3000] {
                        r.put(at, &input[from..from + n]);
                        r.cont(S, at, n, OUT, bound(n));
                        at += n;
                        from += n;
                    }
                });
            }
        }
    }
}

/// Runs and repeats longer than 64 KiB: a match ends far past the insertion cursor, so the next
/// contiguous block enters positions more than 64 KiB before it (the window reaches back to the
/// cursor), and an external dictionary made of such a prefix.
#[test]
fn long_matches() {
    let mut input = data(50_000, 14);
    input.extend_from_slice(&[0u8; 150_000]);
    let period = data(1000, 15);
    for _ in 0..150 {
        input.extend_from_slice(&period);
    }
    input.extend_from_slice(&data(50_000, 16));
    let mut arena = Arena::new(DATA + 2 * input.len() + 64);
    for level in LEVELS {
        same!(&mut arena, format!("long matches, level {level}"), |r| {
            r.put(DATA, &input);
            r.init(S);
            r.level(S, level);
            let mut at = DATA;
            for n in [40_000usize, 170_000, 20_000, 150_000, 10_000] {
                r.cont(S, at, n, OUT, bound(n));
                at += n;
            }
            // The same bytes again elsewhere: the long prefix becomes the external dictionary.
            let apart = DATA + input.len() + 32;
            r.put(apart, &input[300_000..360_000]);
            r.cont(S, apart, 60_000, OUT, bound(60_000));
        });
    }
}

/// The ends of the index space, reached by setting the state's indices (both libraries read
/// the same bytes): past 2 GiB the next block reloads the prefix's last 64 KiB as a dictionary
/// (`LZ4_loadDictHC`, which also turns the favour option off); past 1 GiB a fresh start clears
/// the tables (the chain table to 0xFF bytes).
#[test]
fn index_limits() {
    const FIELDS: usize = 2 * 131_072 + 24;
    let input = data(300_000, 17);
    let mut arena = Arena::new(DATA + 300_000);
    for level in KINDS {
        for (label, index) in [("2 GiB", (1u32 << 31) - 30_000), ("1 GiB", (1 << 30) + 5)] {
            same!(&mut arena, format!("{label}, level {level}"), |r| {
                r.put(DATA, &input);
                r.init(S);
                r.level(S, level);
                r.favor(S, true);
                r.cont(S, DATA, 20_000, OUT, bound(20_000));
                // dictLimit, lowLimit and nextToUpdate moved up together, with the tables' entries
                // (all below the new indices: out of reach, as after a long stream).
                let mut fields = r.get(S + FIELDS, 12);
                let old = u32::from_ne_bytes(fields[..4].try_into().unwrap());
                for k in 0..3 {
                    let v = u32::from_ne_bytes(fields[4 * k..4 * k + 4].try_into().unwrap());
                    let v = v - old + index;
                    fields[4 * k..4 * k + 4].copy_from_slice(&v.to_ne_bytes());
                }
                r.put(S + FIELDS, &fields);
                r.state(S);
                r.cont(S, DATA + 20_000, 20_000, OUT, bound(20_000));
                r.cont(S, DATA + 40_000, 20_000, OUT, bound(20_000));
                r.reset_fast(S, level);
                r.cont(S, DATA + 100_000, 20_000, OUT, bound(20_000));
                r.cont(S, DATA + 130_000, 5000, OUT, bound(5000));
            });
        }
    }
}

/// A state copied with `memcpy` between calls goes on where the original would (it holds no
/// pointer to itself), and `LZ4_compress_HC_continue_destSize` with the favour option and with
/// an attached dictionary.
#[test]
fn copied_states_and_dest_size_variants() {
    const DICT: usize = DATA;
    let input = data(300_000, 18);
    let mut arena = Arena::new(DICT + 300_000);
    for level in KINDS {
        same!(&mut arena, format!("copied state, level {level}"), |r| {
            r.put(DICT, &input);
            r.init(S);
            r.level(S, level);
            r.favor(S, true);
            let mut at = DICT;
            for (i, n) in [5000usize, 70_000, 3, 20_000, 1000, 9000]
                .into_iter()
                .enumerate()
            {
                let (from, to) = if i % 2 == 0 { (S, D) } else { (D, S) };
                r.cont(from, at, n, OUT, bound(n));
                let state = r.get(from, STATE);
                r.put(to, &state);
                at += n + if i == 2 { 64 } else { 0 };
            }
        });
        for dict_len in [3000usize, 65_536] {
            same!(
                &mut arena,
                format!("destSize attached {dict_len}, level {level}"),
                |r| {
                    r.put(DICT, &input);
                    r.init(D);
                    r.level(D, 9);
                    r.load(D, DICT, dict_len as c_int);
                    r.init(S);
                    let mut at = DICT + dict_len + 100;
                    for (n, cap, favor) in [
                        (3000usize, 500usize, false),
                        (10_000, 2000, true),
                        (4097, 4000, true),
                        (200, 20, false),
                    ] {
                        r.reset_fast(S, level);
                        r.favor(S, favor);
                        // SAFETY: both states are initialised.
                        unsafe { r.api.attach(r.s(S), r.s(D)) };
                        r.dest_size(S, at, n, OUT, cap);
                        at += n;
                    }
                }
            );
        }
    }
}

/// Random call sequences: blocks after the previous one, apart, or over an earlier one (a ring
/// buffer), saved histories of random sizes, dictionaries loaded and attached, levels and the
/// favour option changed, resets, outputs of the bound, smaller and filled (destSize), on one
/// stream; the same sequence on both libraries, compared after every call.
#[test]
fn random_sequences() {
    // 60 seeds (HC_SEEDS for more), and those that found a difference: 949 (a block at level 2
    // with a dictionary attached after `LZ4_saveDictHC` kept the entries of the blocks before,
    // which lz4-simd took for external-dictionary candidates).
    let seeds: u64 = std::env::var("HC_SEEDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60);
    random_sequences_on(&data(600_000, 19), (0..seeds).chain([949]));
}

/// [`random_sequences`] on repetitive data: runs of one byte, short periods, long repeats (long
/// matches, run skipping, matches ending far past the insertion cursor).
#[test]
fn random_sequences_repetitive() {
    let mut rng = testkit::samples::XorShift(77);
    let mut input = Vec::new();
    while input.len() < 600_000 {
        let len = 1 + rng.below(20_000);
        match rng.below(4) {
            0 => input.extend(std::iter::repeat_n(rng.below(256) as u8, len)),
            1 => {
                let period: Vec<u8> = (0..1 + rng.below(9))
                    .map(|_| rng.below(256) as u8)
                    .collect();
                input.extend(period.iter().cycle().take(len));
            }
            2 => {
                let from = rng.below(input.len().max(1));
                let end = (from + len).min(input.len());
                input.extend_from_within(from..end);
            }
            _ => input.extend((0..len.min(2000)).map(|_| rng.below(256) as u8)),
        }
    }
    let seeds: u64 = std::env::var("HC_SEEDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(30);
    random_sequences_on(&input, 10_000..10_000 + seeds);
}

fn random_sequences_on(input: &[u8], seeds: impl Iterator<Item = u64>) {
    const AREA: usize = DATA + 256;
    const AREA_LEN: usize = 400_000;
    // The area, then the saved history's buffer with room for blocks after it.
    const END: usize = AREA + AREA_LEN + 64 + 65_536 + 70_000;
    let mut arena = Arena::new(END + 64);
    for seed in seeds {
        // The sequence, drawn once, replayed on both libraries.
        let mut rng = testkit::samples::XorShift(0x9E37_79B9_7F4A_7C15 ^ (seed + 1));
        let mut ops = Vec::new();
        for _ in 0..40 {
            let kind = rng.below(100);
            let n = match rng.below(4) {
                0 => rng.below(20),
                1 => rng.below(5000),
                2 => rng.below(70_000),
                _ => 4090 + rng.below(12),
            };
            ops.push((kind, n, rng.below(AREA_LEN - 70_000), rng.below(1 << 20)));
        }
        same!(&mut arena, format!("random sequence {seed}"), |r| {
            r.put(AREA, &input[..AREA_LEN]);
            r.init(S);
            r.init(D);
            r.load(D, AREA + 1000, 20_000);
            let mut at = AREA;
            let mut from = 0usize;
            for &(kind, n, pos, extra) in &ops {
                let cap = match extra % 4 {
                    0 => bound(n),
                    1 => n / 2 + 1,
                    2 => extra % 2000,
                    _ => bound(n) + 10,
                };
                match kind {
                    0..=39 => {
                        // The next block after the previous one (while it fits).
                        if at + n > END {
                            at = AREA;
                        }
                        r.put(at, &input[from..from + n]);
                        r.cont(S, at, n, OUT, cap.min(OUT_LEN));
                        at += n;
                    }
                    40..=54 => {
                        // A block somewhere in the area (apart, or over an earlier one).
                        let p = AREA + pos;
                        r.put(p, &input[from..from + n]);
                        r.cont(S, p, n, OUT, cap.min(OUT_LEN));
                        at = p + n;
                    }
                    55..=62 => {
                        if at + n > END {
                            at = AREA;
                        }
                        r.put(at, &input[from..from + n]);
                        r.dest_size(S, at, n, OUT, cap.min(OUT_LEN));
                        at += n;
                    }
                    63..=69 => {
                        if state_index(r, S) < 65_536 {
                            // Saved on an initialised stream: see `saved_on_a_fresh_stream`.
                            continue;
                        }
                        let size = [65_536, 1000, 3, 0, 20_000][extra % 5];
                        let buf = AREA + AREA_LEN + 64;
                        r.save(S, buf, size);
                        at = buf + saved_len(r, S);
                    }
                    70..=77 => {
                        let level = [1, 2, 3, 6, 9, 10, 11, 12, 0, 13][extra % 10];
                        r.level(S, level);
                        r.favor(S, extra % 3 == 0);
                    }
                    78..=83 => {
                        let level = [2, 4, 9, 10, 12][extra % 5];
                        r.reset_fast(S, level);
                        if extra % 2 == 0 {
                            // SAFETY: both states are initialised.
                            unsafe { r.api.attach(r.s(S), r.s(D)) };
                            r.state(S);
                        }
                    }
                    84..=88 => {
                        let len = [0usize, 5, 4000, 65_536, 80_000][extra % 5];
                        let p = AREA + pos.min(AREA_LEN - len);
                        r.load(S, p, len as c_int);
                        at = p + len;
                    }
                    89..=93 => {
                        // The dictionary stream changes level and dictionary.
                        r.level(D, [2, 5, 9, 12][extra % 4]);
                        r.load(D, AREA + 1000 + extra % 5000, (extra % 30_000) as c_int);
                    }
                    _ => {
                        // SAFETY: an initialised state.
                        unsafe { r.api.reset(r.s(S), (extra % 14) as c_int) };
                        r.state(S);
                    }
                }
                from = (from + n) % (input.len() - 80_000);
            }
        });
    }
}

/// `LZ4_saveDictHC` on an initialised stream (nothing compressed, so nothing saved) starts a
/// prefix at index 0, where liblz4 1.10.0 takes its empty table slots for candidates and writes
/// blocks that do not decode to their input; lz4-simd moves the indices 64 KiB up first, and its
/// blocks decode (with the history of the stream).
#[test]
fn saved_on_a_fresh_stream() {
    let input = data(200_000, 20);
    let mut state = vec![0u64; STATE / 8];
    let mut buf = input.clone();
    let mut out = vec![0u8; bound(70_000)];
    for level in LEVELS {
        for first in [0usize, 4, 5000, 70_000] {
            // SAFETY: a pointer-aligned state of `STATE` bytes; the buffers are valid for the
            // lengths passed and stay in place.
            unsafe {
                let s = ours::LZ4_initStreamHC(state.as_mut_ptr().cast(), STATE);
                ours::LZ4_resetStreamHC_fast(s, level);
                assert_eq!(ours::LZ4_saveDictHC(s, buf.as_mut_ptr().cast(), 65_536), 0);
                let mut at = 0usize;
                for n in [first, 3000, 20_000] {
                    let src = buf.as_ptr().add(at);
                    let c = ours::LZ4_compress_HC_continue(
                        s,
                        src.cast(),
                        out.as_mut_ptr().cast(),
                        n as c_int,
                        out.len() as c_int,
                    );
                    assert!(c > 0, "level {level} first {first} block {n}");
                    let mut back = vec![0u8; n];
                    let d = lz4_simd::block::decompress_into_with_dictionary(
                        &out[..c as usize],
                        &mut back,
                        &input[..at],
                    );
                    assert_eq!(d, Ok(n), "level {level} first {first} block {n}");
                    assert!(back == input[at..at + n], "level {level} first {first}");
                    at += n;
                }
            }
            buf.copy_from_slice(&input);
        }
    }
}

/// The one-shot forms on a stream's state (`LZ4_compress_HC_extStateHC`, its `_fastReset` form,
/// `LZ4_compress_HC_destSize`) leave liblz4's state in it: a stream continued on it (after
/// `LZ4_resetStreamHC_fast`, or directly, the one-shot input then its history) gives liblz4's
/// bytes and state.
#[test]
fn one_shot_forms_on_a_stream_state() {
    let input = data(300_000, 21);
    let mut arena = Arena::new(DATA + 300_000);
    for level in LEVELS {
        same!(&mut arena, format!("one-shot forms, level {level}"), |r| {
            r.put(DATA, &input);
            r.init(S);
            let mut at = DATA;
            for (i, (n, cap)) in [
                (5000usize, bound(5000)),
                (70_000, 1000),
                (0, 1),
                (20_000, bound(20_000)),
                (3000, 100),
                (100_000, bound(100_000)),
                (13, bound(13)),
            ]
            .into_iter()
            .enumerate()
            {
                r.guard(OUT + cap);
                let mut size = n as c_int;
                let dest_size = i % 3 == 2;
                // SAFETY: arena buffers; `OUT` holds `cap` bytes and a guard.
                let v = unsafe {
                    r.api.one_shot(
                        r.s(S),
                        r.at(at),
                        r.at(OUT),
                        n as c_int,
                        dest_size.then_some(&mut size),
                        cap as c_int,
                        level,
                        i % 3 == 1,
                    )
                };
                r.ret("consumed", size.into());
                r.after(S, "one-shot", v, OUT, cap);
                at += n;
                // The stream goes on: the one-shot input is its prefix.
                r.cont(S, at, 4000, OUT, bound(4000));
                at += 4000 + 16;
                if i % 2 == 0 {
                    r.reset_fast(S, level);
                    r.cont(S, at, 3000, OUT, bound(3000));
                    at += 3000;
                }
            }
        });
    }
}
