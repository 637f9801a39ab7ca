//! Streaming compression (`LZ4_stream_t`) against liblz4 1.10 (lz4-sys): the same call
//! sequences on the same memory (one arena, so that which blocks are adjacent, and so each
//! call's mode, is the same for both libraries) give the same return values, the same output
//! bytes, and the same state: the 16416 bytes of `LZ4_stream_t` are compared after every call
//! (all of them; after the one-shot compressors, which run on lz4-simd's own tables, all but the
//! table, which differs only in slots no later block can use, see `compress_stream.rs`).

use std::os::raw::{c_char, c_int, c_void};
use std::ptr;

use lz4_simd_capi as ours;
use testkit::samples;
use testkit::Rng;

/// liblz4's functions, declared from lz4.h (lz4-sys links the library).
mod c {
    use std::os::raw::{c_char, c_int, c_void};
    extern "C" {
        pub fn LZ4_initStream(buffer: *mut c_void, size: usize) -> *mut c_void;
        pub fn LZ4_resetStream(s: *mut c_void);
        pub fn LZ4_resetStream_fast(s: *mut c_void);
        pub fn LZ4_loadDict(s: *mut c_void, d: *const c_char, n: c_int) -> c_int;
        pub fn LZ4_loadDictSlow(s: *mut c_void, d: *const c_char, n: c_int) -> c_int;
        pub fn LZ4_attach_dictionary(s: *mut c_void, d: *const c_void);
        pub fn LZ4_compress_fast_continue(
            s: *mut c_void,
            src: *const c_char,
            dst: *mut c_char,
            n: c_int,
            cap: c_int,
            a: c_int,
        ) -> c_int;
        pub fn LZ4_compress_continue(
            s: *mut c_void,
            src: *const c_char,
            dst: *mut c_char,
            n: c_int,
        ) -> c_int;
        pub fn LZ4_compress_limitedOutput_continue(
            s: *mut c_void,
            src: *const c_char,
            dst: *mut c_char,
            n: c_int,
            cap: c_int,
        ) -> c_int;
        pub fn LZ4_compress_forceExtDict(
            s: *mut c_void,
            src: *const c_char,
            dst: *mut c_char,
            n: c_int,
        ) -> c_int;
        pub fn LZ4_saveDict(s: *mut c_void, buf: *mut c_char, n: c_int) -> c_int;
        pub fn LZ4_slideInputBuffer(s: *mut c_void) -> *mut c_char;
        pub fn LZ4_resetStreamState(s: *mut c_void, buf: *mut c_char) -> c_int;
        pub fn LZ4_compressBound(n: c_int) -> c_int;
        pub fn LZ4_compress_fast_extState(
            s: *mut c_void,
            src: *const c_char,
            dst: *mut c_char,
            n: c_int,
            cap: c_int,
            a: c_int,
        ) -> c_int;
        pub fn LZ4_compress_fast_extState_fastReset(
            s: *mut c_void,
            src: *const c_char,
            dst: *mut c_char,
            n: c_int,
            cap: c_int,
            a: c_int,
        ) -> c_int;
    }
}

const STATE: usize = 16416;
/// The table's bytes at the start of the state; the rest are liblz4's fields.
const TABLE: usize = 16384;

/// One library's stream functions, called through their C signatures.
trait Api {
    const NAME: &'static str;
    /// # Safety
    /// The C function's contract.
    unsafe fn init(&self, buf: *mut c_void, size: usize) -> *mut c_void;
    unsafe fn reset(&self, s: *mut c_void);
    unsafe fn reset_fast(&self, s: *mut c_void);
    unsafe fn load(&self, s: *mut c_void, d: *const u8, n: c_int, slow: bool) -> c_int;
    unsafe fn attach(&self, s: *mut c_void, d: *const c_void);
    unsafe fn fast(
        &self,
        s: *mut c_void,
        src: *const u8,
        dst: *mut u8,
        n: c_int,
        cap: c_int,
        a: c_int,
    ) -> c_int;
    unsafe fn plain(&self, s: *mut c_void, src: *const u8, dst: *mut u8, n: c_int) -> c_int;
    unsafe fn limited(
        &self,
        s: *mut c_void,
        src: *const u8,
        dst: *mut u8,
        n: c_int,
        cap: c_int,
    ) -> c_int;
    unsafe fn force_ext(&self, s: *mut c_void, src: *const u8, dst: *mut u8, n: c_int) -> c_int;
    unsafe fn save(&self, s: *mut c_void, buf: *mut u8, n: c_int) -> c_int;
    unsafe fn slide(&self, s: *mut c_void) -> *mut c_char;
    unsafe fn reset_state(&self, s: *mut c_void) -> c_int;
    unsafe fn one_shot(
        &self,
        s: *mut c_void,
        src: *const u8,
        dst: *mut u8,
        n: c_int,
        cap: c_int,
        fast_reset: bool,
    ) -> c_int;
}

macro_rules! api {
    ($name:ident, $label:literal, $m:ident) => {
        struct $name;
        impl Api for $name {
            const NAME: &'static str = $label;
            unsafe fn init(&self, buf: *mut c_void, size: usize) -> *mut c_void {
                // SAFETY: the caller's contract, which is the function's.
                unsafe { $m::LZ4_initStream(buf, size).cast() }
            }
            unsafe fn reset(&self, s: *mut c_void) {
                // SAFETY: the caller's contract, which is the function's.
                unsafe { $m::LZ4_resetStream(s.cast()) }
            }
            unsafe fn reset_fast(&self, s: *mut c_void) {
                // SAFETY: the caller's contract, which is the function's.
                unsafe { $m::LZ4_resetStream_fast(s.cast()) }
            }
            unsafe fn load(&self, s: *mut c_void, d: *const u8, n: c_int, slow: bool) -> c_int {
                // SAFETY: the caller's contract, which is the function's.
                unsafe {
                    if slow {
                        $m::LZ4_loadDictSlow(s.cast(), d.cast(), n)
                    } else {
                        $m::LZ4_loadDict(s.cast(), d.cast(), n)
                    }
                }
            }
            unsafe fn attach(&self, s: *mut c_void, d: *const c_void) {
                // SAFETY: the caller's contract, which is the function's.
                unsafe { $m::LZ4_attach_dictionary(s.cast(), d.cast()) }
            }
            unsafe fn fast(
                &self,
                s: *mut c_void,
                src: *const u8,
                dst: *mut u8,
                n: c_int,
                cap: c_int,
                a: c_int,
            ) -> c_int {
                // SAFETY: the caller's contract, which is the function's.
                unsafe {
                    $m::LZ4_compress_fast_continue(s.cast(), src.cast(), dst.cast(), n, cap, a)
                }
            }
            unsafe fn plain(
                &self,
                s: *mut c_void,
                src: *const u8,
                dst: *mut u8,
                n: c_int,
            ) -> c_int {
                // SAFETY: the caller's contract, which is the function's.
                unsafe { $m::LZ4_compress_continue(s.cast(), src.cast(), dst.cast(), n) }
            }
            unsafe fn limited(
                &self,
                s: *mut c_void,
                src: *const u8,
                dst: *mut u8,
                n: c_int,
                cap: c_int,
            ) -> c_int {
                // SAFETY: the caller's contract, which is the function's.
                unsafe {
                    $m::LZ4_compress_limitedOutput_continue(
                        s.cast(),
                        src.cast(),
                        dst.cast(),
                        n,
                        cap,
                    )
                }
            }
            unsafe fn force_ext(
                &self,
                s: *mut c_void,
                src: *const u8,
                dst: *mut u8,
                n: c_int,
            ) -> c_int {
                // SAFETY: the caller's contract, which is the function's.
                unsafe { $m::LZ4_compress_forceExtDict(s.cast(), src.cast(), dst.cast(), n) }
            }
            unsafe fn save(&self, s: *mut c_void, buf: *mut u8, n: c_int) -> c_int {
                // SAFETY: the caller's contract, which is the function's.
                unsafe { $m::LZ4_saveDict(s.cast(), buf.cast(), n) }
            }
            unsafe fn slide(&self, s: *mut c_void) -> *mut c_char {
                // SAFETY: the caller's contract, which is the function's.
                unsafe { $m::LZ4_slideInputBuffer(s.cast()) }
            }
            unsafe fn one_shot(
                &self,
                s: *mut c_void,
                src: *const u8,
                dst: *mut u8,
                n: c_int,
                cap: c_int,
                fast_reset: bool,
            ) -> c_int {
                // SAFETY: the caller's contract, which is the function's.
                unsafe {
                    if fast_reset {
                        $m::LZ4_compress_fast_extState_fastReset(
                            s,
                            src.cast(),
                            dst.cast(),
                            n,
                            cap,
                            1,
                        )
                    } else {
                        $m::LZ4_compress_fast_extState(s, src.cast(), dst.cast(), n, cap, 1)
                    }
                }
            }
            unsafe fn reset_state(&self, s: *mut c_void) -> c_int {
                // SAFETY: the caller's contract, which is the function's.
                unsafe { $m::LZ4_resetStreamState(s.cast(), ptr::null_mut()) }
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
    /// The state without its table (a one-shot compressor ran on it).
    Fields(Vec<u8>),
}

impl std::fmt::Debug for Event {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Event::Ret(what, v) => write!(f, "{what} = {v}"),
            Event::Out(b) => write!(f, "out[{}] {:02x?}", b.len(), &b[..b.len().min(24)]),
            Event::State(s) => write!(f, "state {:02x?}", &s[TABLE..]),
            Event::Fields(s) => write!(f, "fields {:02x?}", s),
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
    /// Whether the state's table is compared (false once a one-shot compressor ran on it).
    whole_state: bool,
}

impl<A: Api> Run<'_, A> {
    fn at(&self, off: usize) -> *mut u8 {
        assert!(off <= self.len);
        self.base.wrapping_add(off)
    }
    fn put(&mut self, off: usize, bytes: &[u8]) {
        assert!(off + bytes.len() <= self.len);
        // SAFETY: inside the arena (checked), which nothing else borrows during the run.
        unsafe { ptr::copy_nonoverlapping(bytes.as_ptr(), self.at(off), bytes.len()) };
    }
    fn get(&self, off: usize, len: usize) -> Vec<u8> {
        assert!(off + len <= self.len);
        // SAFETY: inside the arena (checked).
        unsafe { std::slice::from_raw_parts(self.at(off), len) }.to_vec()
    }
    fn ret(&mut self, what: &'static str, v: i64) {
        self.trace.events.push(Event::Ret(what, v));
    }
    fn state(&mut self, s: usize) {
        let bytes = self.get(s, STATE);
        let event = if self.whole_state {
            Event::State(bytes)
        } else {
            Event::Fields(bytes[TABLE..].to_vec())
        };
        self.trace.events.push(event);
    }
    fn init(&mut self, s: usize) {
        // SAFETY: `STATE` bytes of the arena, pointer-aligned.
        let r = unsafe { self.api.init(self.at(s).cast(), STATE) };
        assert_eq!(r, self.at(s).cast(), "{}", A::NAME);
    }
    /// `LZ4_compress_fast_continue(src[..n], dst[..cap])` with guard bytes after `cap`; records
    /// the result, the output and the state.
    fn fast(
        &mut self,
        s: usize,
        src: usize,
        n: usize,
        dst: usize,
        cap: usize,
        accel: c_int,
    ) -> c_int {
        self.guard(dst + cap);
        // SAFETY: the buffers are inside the arena; the state was initialised.
        let r = unsafe {
            self.api.fast(
                self.at(s).cast(),
                self.at(src),
                self.at(dst),
                n as c_int,
                cap as c_int,
                accel,
            )
        };
        self.after(s, "fast_continue", r, dst, cap)
    }
    fn guard(&mut self, at: usize) {
        self.put(at, &[0xA5; 16]);
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
        let r = unsafe { self.api.save(self.at(s).cast(), self.at(buf), n) };
        self.ret("saveDict", r.into());
        self.state(s);
        r
    }
    fn load(&mut self, s: usize, dict: usize, n: c_int, slow: bool) {
        // SAFETY: the dictionary is inside the arena.
        let r = unsafe { self.api.load(self.at(s).cast(), self.at(dict), n, slow) };
        self.ret("loadDict", r.into());
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
        whole_state: true,
    };
    scenario(&mut run);
    run.trace
}

/// Both libraries' traces of the same scenario, which must be equal.
macro_rules! same {
    ($arena:expr, $label:expr, |$r:ident| $body:block) => {{
        let arena: &mut Arena = $arena;
        let theirs = run(&Liblz4, arena, &|$r: &mut Run<'_, Liblz4>| $body);
        let mine = run(&Ours, arena, &|$r: &mut Run<'_, Ours>| $body);
        assert_eq!(theirs.events.len(), mine.events.len(), "{}", $label);
        for (i, (a, b)) in theirs.events.iter().zip(&mine.events).enumerate() {
            assert_eq!(a, b, "{}: event {i} (liblz4 left, lz4-simd right)", $label);
        }
    }};
}

fn data(len: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut out = samples::text(len / 2, &mut rng);
    out.extend_from_slice(&samples::logs(len / 4, &mut rng));
    out.extend_from_slice(&samples::random(len / 16, &mut rng));
    out.extend_from_slice(&samples::text(len, &mut rng));
    out.truncate(len);
    out
}

fn bound(n: usize) -> usize {
    // SAFETY: no pointer argument.
    unsafe { c::LZ4_compressBound(n as c_int) as usize }
}

const ACCELERATIONS: [c_int; 6] = [1, 2, 7, 65537, 0, 1 << 20];

/// Layout: the state at 0, the output after it, then the scenario's buffers.
const S: usize = 0;
const OUT: usize = STATE;
const OUT_LEN: usize = 300_000;
const DATA: usize = OUT + OUT_LEN + 64;

/// Consecutive slices of one buffer (prefix mode), blocks of 0 to 20 bytes and beyond 64 KiB.
#[test]
fn prefix_mode() {
    let input = data(600_000, 1);
    let mut arena = Arena::new(DATA + input.len() + 64);
    let sizes: Vec<usize> = (0..=20)
        .chain([100, 4096, 70_000, 1, 0, 3, 65_536, 200_000, 5, 13_000])
        .collect();
    for accel in ACCELERATIONS {
        same!(&mut arena, format!("prefix, acceleration {accel}"), |r| {
            r.put(DATA, &input);
            r.init(S);
            let mut at = DATA;
            for &n in &sizes {
                r.fast(S, at, n, OUT, bound(n), accel);
                at += n;
            }
        });
    }
}

/// Each block in its own buffer (external-dictionary mode, the previous block the history),
/// through the three compressing names, and `LZ4_compress_forceExtDict`.
#[test]
fn separate_buffers() {
    let input = data(400_000, 2);
    let mut arena = Arena::new(DATA + 2 * input.len() + 64);
    let sizes = [3usize, 0, 20, 5000, 70_000, 12, 4, 100_000, 1000, 7, 65_536];
    same!(&mut arena, "separate", |r| {
        r.init(S);
        let (mut from, mut at) = (0, DATA);
        for (i, &n) in sizes.iter().enumerate() {
            // A gap of 16 bytes: never adjacent.
            r.put(at, &input[from..from + n]);
            match i % 4 {
                0 => {
                    r.fast(S, at, n, OUT, bound(n), 1 + i as c_int);
                }
                1 => {
                    r.guard(OUT + bound(n));
                    // SAFETY: arena buffers; `OUT` holds the bound.
                    let v = unsafe { r.api.plain(r.at(S).cast(), r.at(at), r.at(OUT), n as c_int) };
                    r.after(S, "compress_continue", v, OUT, bound(n));
                }
                2 => {
                    r.guard(OUT + bound(n));
                    // SAFETY: arena buffers; `OUT` holds the bound.
                    let v = unsafe {
                        r.api.limited(
                            r.at(S).cast(),
                            r.at(at),
                            r.at(OUT),
                            n as c_int,
                            bound(n) as c_int,
                        )
                    };
                    r.after(S, "limitedOutput_continue", v, OUT, bound(n));
                }
                _ => {
                    r.guard(OUT + bound(n));
                    // SAFETY: arena buffers; `OUT` holds the bound.
                    let v = unsafe {
                        r.api
                            .force_ext(r.at(S).cast(), r.at(at), r.at(OUT), n as c_int)
                    };
                    r.after(S, "forceExtDict", v, OUT, bound(n));
                }
            }
            // SAFETY: the state is initialised.
            let slid = unsafe { r.api.slide(r.at(S).cast()) } as usize;
            r.ret(
                "slideInputBuffer",
                slid.wrapping_sub(r.base as usize) as i64,
            );
            from += n;
            at += n + 16;
        }
        // forceExtDict on contiguous input too (it ignores the layout).
        let n = 3000;
        r.put(at, &input[from..from + 2 * n]);
        for k in 0..2 {
            r.guard(OUT + bound(n));
            // SAFETY: arena buffers; `OUT` holds the bound.
            let v = unsafe {
                r.api
                    .force_ext(r.at(S).cast(), r.at(at + k * n), r.at(OUT), n as c_int)
            };
            r.after(S, "forceExtDict", v, OUT, bound(n));
        }
    });
}

/// A ring buffer, as lz4's `blockStreaming_ringBuffer` example: each block copied in after the
/// previous one, back to the start when it would not fit.
#[test]
fn ring_buffers() {
    let input = data(1_000_000, 3);
    for (ring, blocks) in [
        (65_536usize, vec![4096usize, 1000, 8192, 333]),
        (100_000, vec![4096, 30_000, 777, 16_384]),
        (4096, vec![100, 700, 1000, 13, 64]),
        (70_000, vec![65_536, 1234]),
    ] {
        let mut arena = Arena::new(DATA + ring + 64);
        for accel in [1, 7] {
            same!(
                &mut arena,
                format!("ring {ring}, acceleration {accel}"),
                |r| {
                    r.init(S);
                    let (mut from, mut pos) = (0, 0);
                    for i in 0..120 {
                        let n = blocks[i % blocks.len()];
                        if pos + n > ring {
                            pos = 0;
                        }
                        r.put(DATA + pos, &input[from..from + n]);
                        r.fast(S, DATA + pos, n, OUT, bound(n), accel);
                        from = (from + n) % (input.len() - 70_000);
                        pos += n;
                    }
                }
            );
        }
    }
}

/// Two alternating buffers (external-dictionary mode, lz4's double-buffer example).
#[test]
fn double_buffer() {
    let input = data(300_000, 4);
    let mut arena = Arena::new(DATA + 2 * 70_000 + 64);
    same!(&mut arena, "double buffer", |r| {
        r.init(S);
        let mut from = 0;
        for i in 0..12 {
            let n = [5000usize, 65_536, 100, 20_000][i % 4];
            let at = DATA + (i % 2) * 70_000;
            r.put(at, &input[from..from + n]);
            r.fast(S, at, n, OUT, bound(n), 1);
            from += n;
        }
    });
}

/// `LZ4_saveDict` after each block (sizes 64 KiB, smaller, 0 and negative), into a buffer
/// elsewhere and into one the next block follows (prefix mode after the saved history).
#[test]
fn save_dict_then_continue() {
    let input = data(800_000, 5);
    const SAVED: usize = DATA;
    const INPUT: usize = DATA + 65_536;
    const APART: usize = INPUT + 200_000;
    let mut arena = Arena::new(APART + 200_000);
    for (label, save_size) in [
        ("64k", 65_536),
        ("1000", 1000),
        ("0", 0),
        ("-1", -1),
        ("3", 3),
        ("100k", 100_000),
    ] {
        same!(&mut arena, format!("saveDict {label}"), |r| {
            r.init(S);
            let mut from = 0;
            for i in 0..14 {
                let n = [70_000usize, 5000, 12, 40_000, 0, 1][i % 6];
                // Odd blocks follow the saved history, even ones are apart.
                let at = if i % 2 == 1 {
                    SAVED + save_size.clamp(0, 65_536) as usize
                } else {
                    APART
                };
                if i % 2 == 1 {
                    // Save again at the start, so that the next block may follow the history.
                    r.save(S, SAVED, save_size.clamp(0, 65_536));
                }
                r.put(at, &input[from..from + n]);
                r.fast(S, at, n, OUT, bound(n), 1);
                r.save(S, SAVED, save_size);
                from += n;
            }
        });
    }
}

/// `LZ4_loadDict` / `LZ4_loadDictSlow`, then several blocks: the dictionary right before the
/// data (prefix mode) or apart from it.
#[test]
fn load_dict_then_blocks() {
    let input = data(500_000, 6);
    let mut arena = Arena::new(DATA + 1_100_000);
    for dict_len in [0usize, 5, 7, 8, 9, 1000, 65_535, 65_536, 100_000] {
        for slow in [false, true] {
            for adjacent in [false, true] {
                same!(
                    &mut arena,
                    format!("loadDict {dict_len} slow {slow} adjacent {adjacent}"),
                    |r| {
                        r.put(DATA, &input[..dict_len]);
                        r.init(S);
                        r.load(S, DATA, dict_len as c_int, slow);
                        let mut at = if adjacent {
                            DATA + dict_len
                        } else {
                            DATA + dict_len + 64
                        };
                        let mut from = dict_len;
                        for n in [0usize, 10, 4096, 4097, 30_000, 3, 70_000] {
                            r.put(at, &input[from..from + n]);
                            r.fast(S, at, n, OUT, bound(n), 1);
                            at += n;
                            from += n;
                        }
                    }
                );
            }
        }
    }
}

/// `LZ4_attach_dictionary` with a dictionary stream from `LZ4_loadDict`/`LoadDictSlow`: first
/// blocks at and around 4 KiB (read in place or copied), then more blocks; and liblz4's frame
/// pattern, `LZ4_resetStream_fast` + attach + one block, many times on one working stream.
#[test]
fn attached_dictionary() {
    const D: usize = DATA + STATE; // the dictionary stream's state at DATA
    const DICT: usize = D + 64;
    let input = data(600_000, 7);
    let mut arena = Arena::new(DICT + 600_000);
    for dict_len in [0usize, 6, 8, 2000, 65_536, 90_000] {
        for first in [0usize, 1, 12, 1000, 4096, 4097, 20_000] {
            for slow in [false, true] {
                let label = format!("attach {dict_len} first {first} slow {slow}");
                same!(&mut arena, label, |r| {
                    r.put(DICT, &input[..dict_len]);
                    r.init(DATA);
                    // SAFETY: arena buffers; the dictionary stream is initialised.
                    let v = unsafe {
                        r.api
                            .load(r.at(DATA).cast(), r.at(DICT), dict_len as c_int, slow)
                    };
                    r.ret("loadDict", v.into());
                    r.init(S);
                    // SAFETY: both states are initialised.
                    unsafe { r.api.attach(r.at(S).cast(), r.at(DATA).cast()) };
                    r.state(S);
                    let mut at = DICT + dict_len + 32;
                    let mut from = dict_len;
                    for n in [first, 3000, 5, 70_000] {
                        r.put(at, &input[from..from + n]);
                        r.fast(S, at, n, OUT, bound(n), 1);
                        at += n;
                        from += n;
                    }
                });
            }
        }
    }
    // The frame encoder's pattern: one working stream, reset and attached per block.
    for dict_len in [2000usize, 65_536] {
        same!(
            &mut arena,
            format!("reset_fast + attach, dictionary {dict_len}"),
            |r| {
                r.put(DICT, &input[..dict_len]);
                r.init(DATA);
                r.load(DATA, DICT, dict_len as c_int, true);
                r.init(S);
                let at = DICT + dict_len + 32;
                let mut from = dict_len;
                for i in 0..60 {
                    let n = [100usize, 4096, 4097, 10_000, 0, 3][i % 6];
                    // SAFETY: both states are initialised.
                    unsafe {
                        r.api.reset_fast(r.at(S).cast());
                        r.api.attach(r.at(S).cast(), r.at(DATA).cast());
                    }
                    r.put(at, &input[from..from + n]);
                    r.fast(S, at, n, OUT, bound(n), 1);
                    from += n;
                }
                // Then without a dictionary: a plain stream again.
                // SAFETY: the state is initialised.
                unsafe { r.api.reset_fast(r.at(S).cast()) };
                r.state(S);
                // Each block after the previous one, apart (an input at the address of a history
                // it overwrites breaks the streams' contract: see docs/c-abi.md).
                let mut at = at;
                for n in [1000usize, 5000, 300] {
                    r.put(at, &input[from..from + n]);
                    r.fast(S, at, n, OUT, bound(n), 1);
                    from += n;
                    at += n + 16;
                }
            }
        );
    }
}

/// Output buffers exactly the bound, exactly the compressed size, and smaller (0, then the
/// stream goes on from liblz4's half-done table), with guard bytes past the end; the next
/// blocks show the state after a failure.
#[test]
fn output_limits() {
    let input = data(400_000, 8);
    let mut arena = Arena::new(DATA + 400_000);
    for n in [0usize, 1, 13, 300, 5000, 70_000] {
        // The compressed size, from a first run.
        let mut sizes = Vec::new();
        {
            let mut arena = Arena::new(DATA + 400_000);
            let r = run(&Liblz4, &mut arena, &|r: &mut Run<'_, Liblz4>| {
                r.put(DATA, &input[..2 * n + 100]);
                r.init(S);
                r.fast(S, DATA, n, OUT, bound(n), 1);
            });
            for e in r.events {
                if let Event::Ret(_, v) = e {
                    sizes.push(v as usize);
                }
            }
        }
        let size = sizes[0];
        for cap in [bound(n), size, size.saturating_sub(1), size / 2, 1, 0] {
            for layout in ["prefix", "separate"] {
                same!(&mut arena, format!("n {n} cap {cap} {layout}"), |r| {
                    r.put(DATA, &input[..2 * n + 100]);
                    r.init(S);
                    r.fast(S, DATA, n, OUT, cap, 1);
                    let next = if layout == "prefix" {
                        DATA + n
                    } else {
                        DATA + n + 100
                    };
                    if layout != "prefix" {
                        r.put(next, &input[..n]);
                    }
                    r.fast(S, next, n, OUT, bound(n), 1);
                    r.fast(S, next + n, 50, OUT, 20, 1);
                });
            }
        }
    }
}

/// The state copied (`memcpy`) to another place between calls, and compressing from the copy:
/// the bytes of the uncopied stream.
#[test]
fn state_copied_between_calls() {
    let input = data(300_000, 9);
    const S2: usize = DATA;
    const IN: usize = DATA + STATE + 8;
    let mut arena = Arena::new(IN + 300_000);
    same!(&mut arena, "memcpy'd state", |r| {
        r.put(IN, &input);
        r.init(S);
        let mut at = IN;
        let mut here = S;
        for n in [1000usize, 20_000, 0, 5, 70_000, 4096] {
            r.fast(here, at, n, OUT, bound(n), 1);
            let there = if here == S { S2 } else { S };
            let state = r.get(here, STATE);
            r.put(there, &state);
            r.put(here, &[0xEE; STATE]);
            here = there;
            at += n;
        }
    });
}

/// `LZ4_initStream` on null, short and misaligned buffers returns null, as liblz4; on a good
/// buffer it zeroes it. `LZ4_resetStream`, `LZ4_resetStreamState`, create/free.
#[test]
fn init_reset_create() {
    let mut buf = vec![0u64; STATE / 8 + 2];
    let base = buf.as_mut_ptr().cast::<u8>();
    for (off, size) in [
        (0usize, STATE),
        (0, STATE - 1),
        (0, 0),
        (1, STATE),
        (4, STATE + 8),
        (8, STATE),
        (0, STATE + 16),
    ] {
        // SAFETY: `buf` holds `off + size` bytes.
        unsafe {
            let p = base.add(off).cast::<c_void>();
            ptr::write_bytes(p.cast::<u8>(), 0x5A, size.min(STATE + 16 - off));
            let theirs = c::LZ4_initStream(p, size);
            ptr::write_bytes(p.cast::<u8>(), 0x5A, size.min(STATE + 16 - off));
            let mine = ours::LZ4_initStream(p, size);
            assert_eq!(theirs, mine.cast(), "offset {off} size {size}");
            if !mine.is_null() {
                assert!(std::slice::from_raw_parts(p.cast::<u8>(), STATE)
                    .iter()
                    .all(|&b| b == 0));
            }
        }
    }
    // SAFETY: a null buffer is refused before anything is read.
    unsafe {
        assert!(ours::LZ4_initStream(ptr::null_mut(), STATE).is_null());
        assert!(c::LZ4_initStream(ptr::null_mut(), STATE).is_null());
    }
    // SAFETY: create/free pairs; the streams are used as any initialised stream.
    unsafe {
        let s = ours::LZ4_createStream();
        assert!(!s.is_null());
        assert!(std::slice::from_raw_parts(s.cast::<u8>(), STATE)
            .iter()
            .all(|&b| b == 0));
        let text = data(10_000, 10);
        let mut out = vec![0u8; bound(text.len())];
        let n = ours::LZ4_compress_fast_continue(
            s,
            text.as_ptr().cast(),
            out.as_mut_ptr().cast(),
            10_000,
            out.len() as c_int,
            1,
        );
        assert!(n > 0);
        ours::LZ4_resetStream(s);
        assert!(std::slice::from_raw_parts(s.cast::<u8>(), STATE)
            .iter()
            .all(|&b| b == 0));
        assert_eq!(ours::LZ4_freeStream(s), 0);
        assert_eq!(ours::LZ4_freeStream(ptr::null_mut()), 0);
        let s = ours::LZ4_create(ptr::null_mut());
        assert!(!s.is_null());
        assert_eq!(ours::LZ4_resetStreamState(s, ptr::null_mut()), 0);
        assert!(ours::LZ4_slideInputBuffer(s).is_null());
        assert_eq!(ours::LZ4_freeStream(s.cast()), 0);
    }
}

/// `LZ4_resetStream`, `LZ4_resetStreamState` and `LZ4_resetStream_fast` mid-stream: the state and
/// the next blocks are liblz4's (the fast reset keeps the table, 64 KiB further on).
#[test]
fn resets_mid_stream() {
    let input = data(200_000, 11);
    let mut arena = Arena::new(DATA + 200_000);
    same!(&mut arena, "resets", |r| {
        r.put(DATA, &input);
        r.init(S);
        let mut at = DATA;
        for (i, n) in [1000usize, 3000, 20_000, 12, 5000, 70_000]
            .into_iter()
            .enumerate()
        {
            r.fast(S, at, n, OUT, bound(n), 1);
            at += n;
            // SAFETY: the state is initialised.
            unsafe {
                match i % 3 {
                    0 => r.api.reset_fast(r.at(S).cast()),
                    1 => {
                        let v = r.api.reset_state(r.at(S).cast());
                        r.ret("resetStreamState", v.into());
                    }
                    _ => r.api.reset(r.at(S).cast()),
                }
            }
            r.state(S);
        }
    });
}

/// Invalid arguments: 0 from both (only calls on which liblz4 does not crash), and no state
/// change in ours.
#[test]
fn invalid_arguments() {
    let input = data(1000, 12);
    let mut arena = Arena::new(DATA + 2000);
    same!(&mut arena, "invalid", |r| {
        r.put(DATA, &input);
        r.init(S);
        r.fast(S, DATA, 500, OUT, bound(500), 1);
        // A too large input: 0.
        r.guard(OUT);
        // SAFETY: the size is refused before any byte is read.
        let v = unsafe {
            r.api
                .fast(r.at(S).cast(), r.at(DATA), r.at(OUT), 0x7E00_0001, 0, 1)
        };
        r.ret("too large", v.into());
    });
    // SAFETY: null streams and buffers are refused before anything is read (ours).
    unsafe {
        let mut out = [0u8; 64];
        assert_eq!(
            ours::LZ4_compress_fast_continue(
                ptr::null_mut(),
                input.as_ptr().cast(),
                out.as_mut_ptr().cast(),
                10,
                64,
                1
            ),
            0
        );
        let s = ours::LZ4_createStream();
        assert_eq!(
            ours::LZ4_compress_fast_continue(s, ptr::null(), out.as_mut_ptr().cast(), 10, 64, 1),
            0
        );
        assert_eq!(
            ours::LZ4_compress_fast_continue(s, input.as_ptr().cast(), ptr::null_mut(), 10, 64, 1),
            0
        );
        assert_eq!(
            ours::LZ4_compress_fast_continue(
                s,
                input.as_ptr().cast(),
                out.as_mut_ptr().cast(),
                -1,
                64,
                1
            ),
            0
        );
        assert!(std::slice::from_raw_parts(s.cast::<u8>(), STATE)
            .iter()
            .all(|&b| b == 0));
        assert_eq!(
            ours::LZ4_saveDict(ptr::null_mut(), out.as_mut_ptr().cast(), 10),
            0
        );
        assert_eq!(
            ours::LZ4_loadDict(ptr::null_mut(), input.as_ptr().cast(), 100),
            0
        );
        assert_eq!(ours::LZ4_loadDict(s, ptr::null(), 100), 0);
        ours::LZ4_attach_dictionary(ptr::null_mut(), s);
        ours::LZ4_resetStream_fast(ptr::null_mut());
        ours::LZ4_resetStream(ptr::null_mut());
        ours::LZ4_freeStream(s);
    }
}

/// The blocks decode (with lz4-simd's `LZ4_decompress_safe_continue`) to the input, in a ring
/// buffer layout.
#[test]
fn round_trip_ring() {
    let input = data(300_000, 13);
    let ring_len = 65_536 + 4096;
    let mut ring = vec![0u8; ring_len];
    let mut out_ring = vec![0u8; ring_len];
    let s = ours::LZ4_createStream();
    let d = ours::LZ4_createStreamDecode();
    let (mut pos, mut from) = (0, 0);
    while from < input.len() {
        let n = (input.len() - from).min(1 + (from * 7919) % 4096);
        if pos + n > ring_len {
            pos = 0;
        }
        ring[pos..pos + n].copy_from_slice(&input[from..from + n]);
        let mut block = vec![0u8; bound(n)];
        // SAFETY: buffers of the lengths given; the stream's history is in `ring`.
        unsafe {
            let c = ours::LZ4_compress_fast_continue(
                s,
                ring[pos..].as_ptr().cast(),
                block.as_mut_ptr().cast(),
                n as c_int,
                block.len() as c_int,
                1,
            );
            assert!(c > 0);
            let m = ours::LZ4_decompress_safe_continue(
                d,
                block.as_ptr().cast(),
                out_ring[pos..].as_mut_ptr().cast(),
                c,
                n as c_int,
            );
            assert_eq!(m, n as c_int);
        }
        assert_eq!(out_ring[pos..pos + n], input[from..from + n]);
        pos += n;
        from += n;
    }
    // SAFETY: from the matching create functions.
    unsafe {
        ours::LZ4_freeStream(s);
        ours::LZ4_freeStreamDecode(d);
    }
}

/// The one-shot compressors on a stream's state (`LZ4_compress_fast_extState` and its
/// `_fastReset` form) leave liblz4's state: what a later `LZ4_resetStream_fast` keeps or clears,
/// and so the stream's next blocks, are liblz4's (its fields are compared; the table differs
/// only in slots no later block can reach).
#[test]
fn one_shot_then_stream() {
    let input = data(600_000, 14);
    let mut arena = Arena::new(DATA + 1_200_000);
    for first in [0usize, 100, 4095, 4096, 65_546, 65_547, 200_000] {
        for fast_reset in [false, true] {
            same!(
                &mut arena,
                format!("one-shot {first} fast reset {fast_reset}"),
                |r| {
                    r.put(DATA, &input);
                    r.init(S);
                    r.whole_state = false;
                    let mut at = DATA;
                    // A stream first (its table and index in use), then the one-shot forms.
                    for n in [3000usize, 70_000] {
                        r.fast(S, at, n, OUT, bound(n), 1);
                        at += n;
                    }
                    for (k, n) in [first, 1000, first].into_iter().enumerate() {
                        let cap = if k == 1 { n / 3 } else { bound(n) };
                        r.guard(OUT + cap);
                        // SAFETY: arena buffers; the state is initialised.
                        let v = unsafe {
                            r.api.one_shot(
                                r.at(S).cast(),
                                r.at(at),
                                r.at(OUT),
                                n as c_int,
                                cap as c_int,
                                fast_reset,
                            )
                        };
                        r.after(S, "one-shot", v, OUT, cap);
                        at += n + 16;
                    }
                    // SAFETY: the state is initialised.
                    unsafe { r.api.reset_fast(r.at(S).cast()) };
                    r.state(S);
                    for n in [5000usize, 300, 70_000] {
                        r.fast(S, at, n, OUT, bound(n), 1);
                        at += n;
                    }
                    // An attached dictionary's index, then a one-shot form.
                    r.init(DATA + 1_100_000);
                    r.load(DATA + 1_100_000, DATA, 30_000, false);
                    // SAFETY: both states are initialised.
                    unsafe {
                        r.api.reset(r.at(S).cast());
                        r.api.attach(r.at(S).cast(), r.at(DATA + 1_100_000).cast());
                        r.api.attach(r.at(S).cast(), ptr::null());
                    }
                    r.state(S);
                    let n = first.max(5000);
                    assert!(at + n <= r.len);
                    r.guard(OUT + bound(n));
                    // SAFETY: arena buffers; the state is initialised.
                    let v = unsafe {
                        r.api.one_shot(
                            r.at(S).cast(),
                            r.at(at),
                            r.at(OUT),
                            n as c_int,
                            bound(n) as c_int,
                            fast_reset,
                        )
                    };
                    r.after(S, "one-shot after attach", v, OUT, bound(n));
                }
            );
        }
    }
}

/// Indices near liblz4's limits, set in both states (their layouts are the same): a stream whose
/// index passes 2 GiB is renormalised as liblz4's (prefix and separate blocks, and a ring
/// buffer), and `LZ4_resetStream_fast` clears the table above 1 GiB only.
#[test]
fn indices_near_the_limits() {
    let input = data(700_000, 15);
    let mut arena = Arena::new(DATA + 800_000);
    const CO: usize = S + TABLE + 16;
    for start in [
        0x8000_0000u32 - 150_000,
        0x8000_0000 - 65_536,
        0x4000_0000 - 3000,
        0x4000_0000 - 300_000,
    ] {
        same!(&mut arena, format!("index from {start:#x}"), |r| {
            r.put(DATA, &input);
            r.init(S);
            r.fast(S, DATA, 1000, OUT, bound(1000), 1);
            r.put(CO, &start.to_le_bytes());
            r.state(S);
            let mut at = DATA + 1000;
            for (i, n) in [30_000usize, 70_000, 5000, 100_000, 3, 65_536, 20_000]
                .into_iter()
                .enumerate()
            {
                if i % 3 == 2 {
                    at += 16;
                }
                r.fast(S, at, n, OUT, bound(n), 1);
                at += n;
                if i == 3 {
                    // SAFETY: the state is initialised.
                    unsafe { r.api.reset_fast(r.at(S).cast()) };
                    r.state(S);
                }
            }
        });
    }
}

/// An attached stream that compressed data after `LZ4_loadDict` (its index above the working
/// stream's: outside liblz4's contract, which names `LZ4_loadDict`'s states; kept within 64 KiB
/// here, where liblz4 refuses the wrapped indices too): liblz4's bytes and fields.
#[test]
fn attached_stream_with_a_higher_index() {
    const D: usize = DATA + STATE;
    const DICT: usize = D + 64;
    let input = data(600_000, 7);
    let mut arena = Arena::new(DICT + 600_000);
    for first in [100usize, 4096, 5000] {
        same!(&mut arena, format!("used {first}"), |r| {
            r.put(DICT, &input[..300_000]);
            r.init(DATA);
            r.load(DATA, DICT, 20_000, false);
            r.fast(DATA, DICT + 20_000, 30_000, OUT, bound(30_000), 1);
            r.init(S);
            // SAFETY: both states are initialised.
            unsafe { r.api.attach(r.at(S).cast(), r.at(DATA).cast()) };
            r.state(S);
            let mut at = DICT + 300_000 + 32;
            for n in [first, 3000] {
                r.put(at, &input[300_000..300_000 + n]);
                r.fast(S, at, n, OUT, bound(n), 1);
                at += n + 16;
            }
        });
    }
}

/// `LZ4_attach_dictionary` on a stream already in use (its index below the dictionary stream's
/// 64 KiB): the dictionary replaces its history, and a block of up to 4 KiB references it at
/// liblz4's distances (its indices below the working stream's, modulo 2^32). The whole state
/// is liblz4's after every call.
#[test]
fn attached_to_a_used_stream() {
    const D: usize = DATA;
    const DICT: usize = D + STATE + 64;
    let input = data(400_000, 16);
    let mut arena = Arena::new(DICT + 400_000);
    for used in [1usize, 1000, 30_000, 65_535] {
        for dict_len in [1000usize, 65_536] {
            for n in [100usize, 4096, 4097] {
                let label = format!("used {used} dictionary {dict_len} block {n}");
                same!(&mut arena, label, |r| {
                    r.put(DICT, &input[..dict_len]);
                    r.init(D);
                    r.load(D, DICT, dict_len as c_int, false);
                    let mut at = DICT + dict_len + 32;
                    r.put(at, &input[100_000..100_000 + used]);
                    r.init(S);
                    r.fast(S, at, used, OUT, bound(used), 1);
                    at += used + 16;
                    // SAFETY: both states are initialised.
                    unsafe { r.api.attach(r.at(S).cast(), r.at(D).cast()) };
                    r.state(S);
                    // The dictionary's text again, so that it has matches; then the blocks
                    // after it, in prefix mode and apart.
                    for (k, m) in [n, 3000, 500].into_iter().enumerate() {
                        let from = dict_len.saturating_sub(20_000) + 7 * k;
                        r.put(at, &input[from..from + m]);
                        r.fast(S, at, m, OUT, bound(m), 1);
                        at += m + if k == 0 { 0 } else { 16 };
                    }
                });
            }
        }
    }
}

/// `LZ4_resetStream_fast` on a stream that compressed nothing since its index was set (by a
/// dictionary too short to load, or an attached one): each reset moves the index 64 KiB on,
/// modulo 2^32 as liblz4's, however many resets there are; then blocks as liblz4's.
#[test]
fn fast_resets_wrap_the_index() {
    let input = data(10_000, 17);
    let mut arena = Arena::new(DATA + 10_000);
    same!(&mut arena, "65537 fast resets", |r| {
        r.put(DATA, &input);
        r.init(S);
        r.load(S, DATA, 4, false);
        for i in 0..65_537u32 {
            // SAFETY: the state is initialised.
            unsafe { r.api.reset_fast(r.at(S).cast()) };
            if i % 8192 == 0 || i > 65_530 {
                r.state(S);
            }
        }
        r.fast(S, DATA, 5000, OUT, bound(5000), 1);
        r.fast(S, DATA + 5000, 5000, OUT, bound(5000), 1);
    });
}

/// Random call sequences within liblz4's contract, 40 calls each: blocks of random sizes in
/// prefix mode, apart, overlapping the history (a ring buffer) and after a saved history, into
/// outputs of the bound, one byte less and smaller, at every acceleration; `LZ4_saveDict` of
/// every size; `LZ4_loadDict` (both kinds) into the stream and into a dictionary stream, which
/// is attached (only fresh from `LZ4_loadDict`, as liblz4 requires) or detached; resets; the
/// one-shot forms on the stream's state (a reset after them, as a stream needs);
/// `LZ4_compress_forceExtDict`. Every call's result, output and whole state are liblz4's.
#[test]
fn random_call_sequences() {
    let input = data(RANDOM_BUF_LEN, 18);
    let mut arena = Arena::new(RANDOM_SAVE + RANDOM_SAVE_LEN + 64);
    for seed in 0..300 {
        same!(&mut arena, format!("seed {seed}"), |r| {
            random_calls(r, seed, &input)
        });
    }
}

/// The offset of liblz4's `dictSize` in the state (after the table, two pointers and two
/// `u32`).
const DICT_SIZE: usize = TABLE + 2 * std::mem::size_of::<usize>() + 8;
const RANDOM_D: usize = DATA;
const RANDOM_BUF: usize = RANDOM_D + STATE + 64;
const RANDOM_BUF_LEN: usize = 400_000;
const RANDOM_SAVE: usize = RANDOM_BUF + RANDOM_BUF_LEN + 64;
const RANDOM_SAVE_LEN: usize = 140_000;

/// One sequence of [`random_call_sequences`]: the input is at `RANDOM_BUF` and never changes
/// (blocks after a saved history are copied behind it, at `RANDOM_SAVE`).
fn random_calls<A: Api>(r: &mut Run<'_, A>, seed: u64, input: &[u8]) {
    const D: usize = RANDOM_D;
    const BUF: usize = RANDOM_BUF;
    const LEN: usize = RANDOM_BUF_LEN;
    const SAVE: usize = RANDOM_SAVE;
    const SAVE_END: usize = RANDOM_SAVE + RANDOM_SAVE_LEN;
    let sizes = [0usize, 1, 3, 4, 5, 12, 13, 100, 4096, 4097, 65_536, 70_000];
    let mut rng = testkit::samples::XorShift(seed * 2_654_435_761 + 12_345);
    r.put(BUF, input);
    r.init(S);
    r.init(D);
    let mut next = BUF;
    let mut after_save = None;
    let mut dictionary_loaded = false;
    for _ in 0..40 {
        match rng.below(20) {
            0..=9 => {
                let n = if rng.below(3) == 0 {
                    rng.below(90_000)
                } else {
                    sizes[rng.below(sizes.len())]
                };
                let at = match (after_save.take(), rng.below(4)) {
                    (Some(at), k) if k < 3 && at + n <= SAVE_END => {
                        let from = rng.below(LEN - n);
                        r.put(at, &input[from..from + n]);
                        at
                    }
                    (_, 0 | 1) if next + n <= BUF + LEN => next,
                    _ => BUF + rng.below(LEN - n),
                };
                let b = bound(n);
                let cap = match rng.below(6) {
                    0 => b.saturating_sub(1),
                    1 => n / 2,
                    2 => rng.below(b + 1),
                    _ => b,
                };
                let accel = [1, 1, 1, 2, 9, 0, -5, 65537, 1 << 20][rng.below(9)];
                r.fast(S, at, n, OUT, cap, accel);
                next = at + n;
            }
            10 | 11 => {
                let n = [0, 1, 3, 4, 5, 1000, 65_535, 65_536, 100_000, -1, c_int::MAX];
                let saved = r.save(S, SAVE, n[rng.below(n.len())]);
                after_save = Some(SAVE + saved as usize);
            }
            12 => {
                let n = [0usize, 7, 8, 9, 1000, 65_536, 70_000, 200_000][rng.below(8)];
                let at = BUF + rng.below(LEN - n);
                let into = if rng.below(2) == 0 { S } else { D };
                dictionary_loaded |= into == D;
                r.load(into, at, n as c_int, rng.below(2) == 0);
                next = at + n;
            }
            13 | 14 => {
                let attach = dictionary_loaded && rng.below(2) == 0;
                let dict = if attach { r.at(D) } else { ptr::null_mut() };
                // SAFETY: initialised states in the arena (or null).
                unsafe { r.api.attach(r.at(S).cast(), dict.cast()) };
                r.state(S);
            }
            15 => {
                // SAFETY: the state is initialised.
                unsafe { r.api.reset_fast(r.at(S).cast()) };
                r.state(S);
            }
            16 => {
                // liblz4's forceExtDict keeps a history under 4 bytes (which the compressing
                // names drop) and reads a word past its end.
                let history = u32::from_le_bytes(r.get(S + DICT_SIZE, 4).try_into().unwrap());
                if (1..4).contains(&history) {
                    continue;
                }
                let n = sizes[rng.below(sizes.len())];
                let at = BUF + rng.below(LEN - n);
                let b = bound(n);
                r.guard(OUT + b);
                // SAFETY: arena buffers; the state is initialised.
                let v = unsafe {
                    r.api
                        .force_ext(r.at(S).cast(), r.at(at), r.at(OUT), n as c_int)
                };
                r.after(S, "forceExtDict", v, OUT, b);
                next = at + n;
            }
            17 => {
                let n = sizes[rng.below(sizes.len())];
                let at = BUF + rng.below(LEN - n);
                let cap = if rng.below(2) == 0 { bound(n) } else { n / 2 };
                r.guard(OUT + cap);
                let fast_reset = rng.below(2) == 0;
                // SAFETY: arena buffers; the state is initialised.
                let v = unsafe {
                    r.api.one_shot(
                        r.at(S).cast(),
                        r.at(at),
                        r.at(OUT),
                        n as c_int,
                        cap as c_int,
                        fast_reset,
                    )
                };
                let whole = std::mem::replace(&mut r.whole_state, false);
                r.after(S, "one-shot", v, OUT, cap);
                r.whole_state = whole;
                // A one-shot state streams again after a reset (its history is none).
                // SAFETY: the state is initialised.
                unsafe { r.api.reset_fast(r.at(S).cast()) };
                r.state(S);
                next = at + n;
            }
            _ => {
                // SAFETY: the state is initialised.
                unsafe { r.api.reset(r.at(S).cast()) };
                r.state(S);
            }
        }
    }
}

/// `LZ4_saveDict` on a state a one-shot compressor left (a history length without a history:
/// liblz4 copies from address 0 there and crashes) saves nothing; the state then streams.
#[test]
fn save_dict_after_a_one_shot_form() {
    let input = data(20_000, 19);
    let mut state = vec![0u64; STATE / 8];
    let mut out = vec![0u8; bound(20_000)];
    let mut saved = vec![0u8; 65_536];
    for fast_reset in [false, true] {
        // SAFETY: `state` holds STATE aligned bytes; the buffers are sized above.
        unsafe {
            let s = ours::LZ4_initStream(state.as_mut_ptr().cast(), STATE);
            let n = Ours.one_shot(
                s.cast(),
                input.as_ptr(),
                out.as_mut_ptr(),
                10_000,
                out.len() as c_int,
                fast_reset,
            );
            assert!(n > 0);
            assert_eq!(ours::LZ4_saveDict(s, saved.as_mut_ptr().cast(), 65_536), 0);
            let n = ours::LZ4_compress_fast_continue(
                s,
                input[10_000..].as_ptr().cast(),
                out.as_mut_ptr().cast(),
                10_000,
                out.len() as c_int,
                1,
            );
            let mut back = vec![0u8; 10_000];
            let m =
                ours::LZ4_decompress_safe(out.as_ptr().cast(), back.as_mut_ptr().cast(), n, 10_000);
            assert_eq!(m, 10_000);
            assert_eq!(back, input[10_000..]);
        }
    }
}
