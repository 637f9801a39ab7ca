//! One test per decision of liblz4's fast compressor that shows in its output (the facts in
//! `docs/format-notes.md`, "The fast compressor").
//!
//! Each test builds an input on which that decision changes the compressed bytes, and checks
//! three things:
//! 1. our bytes equal liblz4's;
//! 2. the parsed block shows the decision was taken (a sequence with the expected literal
//!    length, offset and match length exists, or does not);
//! 3. a model compressor written here from the notes, with that one decision switched off or
//!    changed (`Knobs`), gives *different* bytes, while with every decision on it gives liblz4's
//!    bytes: the input really depends on the decision.

use lz4_simd::block;
use testkit::liblz4;
use testkit::parse::{encode_block, parse_block, ParsedBlock, Seq};
use testkit::samples::generated;
use testkit::Rng;

// ---------------------------------------------------------------------------------------------
// The model compressor
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Table {
    /// u16 table under 65,547 bytes, u32 table from there (liblz4).
    Auto,
    U16,
    U32,
}

/// The decisions of the fast compressor, each of which can be switched off or changed.
#[derive(Debug, Clone, Copy)]
struct Knobs {
    table: Table,
    /// A table slot never written gives candidate 0 (liblz4) rather than no candidate.
    zero_slot_is_candidate: bool,
    /// The step grows every 64 misses, from `acceleration` (liblz4); off: step 1 always.
    skip_schedule: bool,
    /// The step and miss counter restart at every new search (liblz4); off: they carry on.
    restart_schedule: bool,
    catch_up: bool,
    insert_ip_minus_2: bool,
    immediate_probe: bool,
    /// Matches stop this many bytes before the end (LASTLITERALS = 5).
    last_literals: usize,
    /// No match starts in the last this many bytes (MFLIMIT = 12).
    mflimit: usize,
}

const LIBLZ4: Knobs = Knobs {
    table: Table::Auto,
    zero_slot_is_candidate: true,
    skip_schedule: true,
    restart_schedule: true,
    catch_up: true,
    insert_ip_minus_2: true,
    immediate_probe: true,
    last_literals: 5,
    mflimit: 12,
};

fn read32(src: &[u8], pos: usize) -> u32 {
    u32::from_le_bytes(src[pos..pos + 4].try_into().unwrap())
}

fn read64(src: &[u8], pos: usize) -> u64 {
    u64::from_le_bytes(src[pos..pos + 8].try_into().unwrap())
}

/// The u16 table's slot for position `pos`: the 4-byte word's multiplicative hash, 13 bits.
fn slot_u16(src: &[u8], pos: usize) -> usize {
    (read32(src, pos).wrapping_mul(2_654_435_761) >> 19) as usize
}

/// The u32 table's slot for position `pos`: a hash of the low 5 bytes of the 8-byte word, 12 bits.
fn slot_u32(src: &[u8], pos: usize) -> usize {
    ((read64(src, pos) << 24).wrapping_mul(889_523_592_379) >> 52) as usize
}

/// The fast compressor as `docs/format-notes.md` describes it, with `knobs` deciding each choice.
fn model(src: &[u8], acceleration: u32, knobs: Knobs) -> Vec<u8> {
    let n = src.len();
    let acceleration = acceleration.clamp(1, 65537) as usize;
    let wide = match knobs.table {
        Table::Auto => n >= 65_547,
        Table::U16 => false,
        Table::U32 => true,
    };
    // Reads near the end may look past it when the margins are changed: pad.
    let mut padded = src.to_vec();
    padded.resize(n + 16, 0);
    let src_p = &padded[..];
    let slot = |pos: usize| {
        if wide {
            slot_u32(src_p, pos)
        } else {
            slot_u16(src_p, pos)
        }
    };
    let mut table: Vec<Option<usize>> = vec![None; if wide { 4096 } else { 8192 }];
    let get = |table: &Vec<Option<usize>>, s: usize| {
        table[s].or(if knobs.zero_slot_is_candidate {
            Some(0)
        } else {
            None
        })
    };
    let in_range = |candidate: usize, ip: usize| !wide || candidate + 65535 >= ip;

    let mut seqs: Vec<(Vec<u8>, usize, usize)> = Vec::new();
    let mut anchor = 0;
    if n >= 13 {
        let start_limit = n - knobs.mflimit + 1;
        let end_limit = n - knobs.last_literals;
        table[slot(0)] = Some(0);
        let mut ip = 1;
        let mut forward_slot = slot(1);
        let mut step = 1;
        let mut attempts = acceleration << 6;
        'parse: loop {
            let mut forward_ip = ip;
            if knobs.restart_schedule {
                step = 1;
                attempts = acceleration << 6;
            }
            let mut candidate;
            loop {
                let s = forward_slot;
                ip = forward_ip;
                forward_ip += step;
                step = if knobs.skip_schedule {
                    attempts >> 6
                } else {
                    1
                };
                attempts += 1;
                if forward_ip > start_limit {
                    break 'parse;
                }
                let found = get(&table, s);
                forward_slot = slot(forward_ip);
                table[s] = Some(ip);
                match found {
                    Some(c) if in_range(c, ip) && read32(src_p, c) == read32(src_p, ip) => {
                        candidate = c;
                        break;
                    }
                    _ => {}
                }
            }
            if knobs.catch_up {
                while ip > anchor && candidate > 0 && src[ip - 1] == src[candidate - 1] {
                    ip -= 1;
                    candidate -= 1;
                }
            }
            loop {
                let mut match_len = 4;
                while ip + match_len < end_limit
                    && src[ip + match_len] == src[candidate + match_len]
                {
                    match_len += 1;
                }
                seqs.push((src[anchor..ip].to_vec(), ip - candidate, match_len));
                ip += match_len;
                anchor = ip;
                if ip >= start_limit {
                    break 'parse;
                }
                if knobs.insert_ip_minus_2 {
                    table[slot(ip - 2)] = Some(ip - 2);
                }
                if !knobs.immediate_probe {
                    break;
                }
                let s = slot(ip);
                let found = get(&table, s);
                table[s] = Some(ip);
                match found {
                    Some(c) if in_range(c, ip) && read32(src_p, c) == read32(src_p, ip) => {
                        candidate = c
                    }
                    _ => break,
                }
            }
            ip += 1;
            forward_slot = slot(ip);
        }
    }
    encode_block(&seqs, &src[anchor..], 0)
}

/// The positions one search probes, starting at `start` with nothing matching, in an input of
/// `n` bytes: the step is 1, then `acceleration`, growing by 1 every 64 probes.
fn probe_positions(acceleration: u32, start: usize, n: usize) -> Vec<usize> {
    let limit = n - 12 + 1;
    let (mut forward, mut step, mut attempts) = (start, 1usize, (acceleration as usize) << 6);
    let mut out = Vec::new();
    loop {
        let ip = forward;
        forward += step;
        step = attempts >> 6;
        attempts += 1;
        if forward > limit {
            return out;
        }
        out.push(ip);
    }
}

/// Compresses with us and liblz4 at `acceleration`, asserts the bytes are equal and that the
/// full model reproduces them; returns the parsed block.
fn compress_checked(src: &[u8], acceleration: u32) -> (Vec<u8>, ParsedBlock) {
    let ours = block::compress_fast(src, acceleration).unwrap();
    let theirs = liblz4::compress_fast(src, liblz4::clamp_acceleration(acceleration));
    assert!(
        ours == theirs,
        "ours differs from liblz4 ({} bytes in, acceleration {acceleration})",
        src.len()
    );
    assert!(
        model(src, acceleration, LIBLZ4) == theirs,
        "the model (all decisions on) differs from liblz4"
    );
    assert_eq!(block::decompress(&ours, src.len()).unwrap(), src);
    let parsed = parse_block(&ours);
    (ours, parsed)
}

/// Asserts that the model with `knobs` gives different bytes than liblz4 on `src`.
fn assert_decision_matters(src: &[u8], acceleration: u32, knobs: Knobs, what: &str) {
    let theirs = liblz4::compress_fast(src, liblz4::clamp_acceleration(acceleration));
    assert!(
        model(src, acceleration, knobs) != theirs,
        "{what}: switching the decision does not change the output"
    );
}

/// The sequence whose match starts at output position `at`, if any.
fn match_at(parsed: &ParsedBlock, at: usize) -> Option<&Seq> {
    parsed.matches().find(|s| s.match_start() == at)
}

fn random(len: usize, seed: u64) -> Vec<u8> {
    Rng::new(seed).bytes(len)
}

// ---------------------------------------------------------------------------------------------
// The facts
// ---------------------------------------------------------------------------------------------

#[test]
fn empty_input_gives_00() {
    let (ours, _) = compress_checked(&[], 1);
    assert_eq!(ours, [0x00]);
    for acceleration in [0, 1, 100, u32::MAX] {
        assert_eq!(block::compress_fast(&[], acceleration).unwrap(), [0x00]);
    }
}

#[test]
fn inputs_under_13_bytes_are_one_literal_run() {
    for len in 0..=12 {
        let src = vec![0u8; len];
        let (ours, parsed) = compress_checked(&src, 1);
        let mut expected = vec![(len as u8) << 4];
        expected.extend_from_slice(&src);
        assert_eq!(ours, expected, "{len} zero bytes");
        assert_eq!(parsed.seqs.len(), 1);
    }
    // From 13 bytes on, the same data has a match.
    let (_, parsed) = compress_checked(&[0u8; 13], 1);
    assert_eq!(parsed.matches().count(), 1);
}

#[test]
fn matches_stop_five_bytes_before_the_end() {
    // All zeros: one literal, then a match at offset 1 up to 5 bytes before the end, then 5
    // literals, at every size and both table types.
    for len in (13..=300).chain([65_546, 65_547, 100_000]) {
        let (_, parsed) = compress_checked(&vec![0u8; len], 1);
        let shape: Vec<(usize, Option<usize>, usize)> = parsed
            .seqs
            .iter()
            .map(|s| (s.literal_len, s.offset, s.match_len))
            .collect();
        assert_eq!(
            shape,
            [(1, Some(1), len - 6), (5, None, 0)],
            "{len} zero bytes"
        );
    }
    // A 30-byte string repeated at the very end: the match stops 5 bytes short of the end.
    let x = random(30, 1);
    let mut src = x.clone();
    src.extend(random(20, 2));
    src.extend(&x);
    let (_, parsed) = compress_checked(&src, 1);
    let m = match_at(&parsed, 50).expect("the repeat is found");
    assert_eq!((m.offset, m.match_len), (Some(50), 25));
    assert_eq!(parsed.last_literal_len(), Some(5));
    assert_decision_matters(
        &src,
        1,
        Knobs {
            last_literals: 4,
            ..LIBLZ4
        },
        "LASTLITERALS",
    );
}

#[test]
fn no_match_starts_in_the_last_12_bytes() {
    let n = 40;
    // The first 12 bytes repeated as the last 12: a match may start 12 bytes before the end
    // (and stops 5 before it, so 7 bytes long).
    let mut src = random(n, 3);
    let head = src[..12].to_vec();
    src[n - 12..].copy_from_slice(&head);
    let (_, parsed) = compress_checked(&src, 1);
    let m = match_at(&parsed, n - 12).expect("a match starting 12 bytes before the end");
    assert_eq!(
        (m.literal_len, m.offset, m.match_len),
        (n - 12, Some(n - 12), 7)
    );
    // The first 11 bytes repeated as the last 11: no match may start there.
    let mut src = random(n, 3);
    let head = src[..11].to_vec();
    src[n - 11..].copy_from_slice(&head);
    let (ours, parsed) = compress_checked(&src, 1);
    assert_eq!(parsed.seqs.len(), 1, "one literal run");
    assert_eq!(ours.len(), 2 + n);
    assert_decision_matters(
        &src,
        1,
        Knobs {
            mflimit: 11,
            ..LIBLZ4
        },
        "MFLIMIT",
    );
}

/// Bytes that agree in 4 but not in 5 bytes: the u16 table (4-byte hash) pairs them, the u32
/// table (5-byte hash) does not.
#[test]
fn table_type_switches_at_65547_bytes() {
    let mut src = random(65_547, 4);
    src[10..15].copy_from_slice(b"QRSTa");
    src[40..45].copy_from_slice(b"QRSTb");
    src[9] = 1;
    src[39] = 2; // no catch-up
                 // Preconditions: the u16 slot of position 10 is not overwritten by positions 11..40; the
                 // u32 slots of positions 10 and 40 differ.
    assert!((11..40).all(|p| slot_u16(&src, p) != slot_u16(&src, 10)));
    assert_ne!(slot_u32(&src, 10), slot_u32(&src, 40));

    let short = &src[..65_546];
    let (_, parsed) = compress_checked(short, 1);
    let m = match_at(&parsed, 40).expect("65,546 bytes: the u16 table pairs QRSTa and QRSTb");
    assert_eq!((m.literal_len, m.offset, m.match_len), (40, Some(30), 4));
    assert_decision_matters(
        short,
        1,
        Knobs {
            table: Table::U32,
            ..LIBLZ4
        },
        "u32 table on 65,546 bytes",
    );

    let (_, parsed) = compress_checked(&src, 1);
    assert!(
        match_at(&parsed, 40).is_none(),
        "65,547 bytes: the u32 table hashes 5 bytes"
    );
    assert_decision_matters(
        &src,
        1,
        Knobs {
            table: Table::U16,
            ..LIBLZ4
        },
        "u16 table on 65,547 bytes",
    );

    // With 5 equal bytes the u32 table pairs them too.
    src[44] = b'a';
    let (_, parsed) = compress_checked(&src, 1);
    assert_eq!(match_at(&parsed, 40).map(|m| m.offset), Some(Some(30)));
}

/// A slot never written holds 0, and position 0 is a real candidate: with the u32 table, a
/// position whose 5-byte hash was never stored still matches position 0 when their first 4
/// bytes agree.
#[test]
fn empty_slot_is_a_candidate_for_position_zero() {
    let mut src = random(70_000, 5);
    src[..5].copy_from_slice(b"ABCDx");
    src[30..35].copy_from_slice(b"ABCDy");
    src[29] = 7;
    // Precondition: no position before 30 wrote the slot position 30 reads.
    let target = slot_u32(&src, 30);
    assert!(
        (0..30).all(|p| slot_u32(&src, p) != target),
        "slot of position 30 was written"
    );
    let (_, parsed) = compress_checked(&src, 1);
    let m = match_at(&parsed, 30).expect("position 30 matches position 0 through an empty slot");
    assert_eq!((m.literal_len, m.offset, m.match_len), (30, Some(30), 4));
    assert_decision_matters(
        &src,
        1,
        Knobs {
            zero_slot_is_candidate: false,
            ..LIBLZ4
        },
        "empty slot as no candidate",
    );

    // With the u16 table position 0 is stored in that slot anyway: no difference.
    let short = &src[..1000];
    let (_, parsed) = compress_checked(short, 1);
    assert!(match_at(&parsed, 30).is_some());
    assert!(
        model(
            short,
            1,
            Knobs {
                zero_slot_is_candidate: false,
                ..LIBLZ4
            }
        ) == block::compress(short).unwrap()
    );
}

/// A 4-byte marker at position 0 and again at position `p` in random data: the repeat is found
/// exactly when the search probes `p`, which the skip schedule decides. (With a longer marker a
/// probe inside the repeat could find it too, through catch-up.)
#[test]
fn skip_schedule() {
    let n = 700;
    let accelerations = [1u32, 2, 3, 5, 8, 64];
    let mut found_somewhere_not_everywhere = 0;
    let mut outputs_differ = false;
    for p in [20usize, 66, 67, 68, 130, 131, 133, 200, 301, 333] {
        let mut src = random(n, p as u64);
        let marker = src[..4].to_vec();
        src[p..p + 4].copy_from_slice(&marker);
        for k in 4..8 {
            src[p + k] = !src[k];
        }
        let mut results = Vec::new();
        for &acceleration in &accelerations {
            let probes = probe_positions(acceleration, 1, n);
            let predicted = probes.contains(&p);
            // Precondition: no probe before p overwrote the marker's slot.
            assert!(probes
                .iter()
                .take_while(|&&q| q < p)
                .all(|&q| slot_u16(&src, q) != slot_u16(&src, 0)));
            let (ours, parsed) = compress_checked(&src, acceleration);
            let found =
                match_at(&parsed, p).is_some_and(|m| m.offset == Some(p) && m.match_len == 4);
            assert_eq!(
                found, predicted,
                "marker at {p}, acceleration {acceleration}"
            );
            results.push((found, ours));
        }
        if results.iter().any(|r| r.0) && results.iter().any(|r| !r.0) {
            found_somewhere_not_everywhere += 1;
        }
        outputs_differ |= results.windows(2).any(|w| w[0].1 != w[1].1);
        if p == 67 {
            // Acceleration 1 probes 1..=66 with step 1, then steps by 2: 67 is the first miss.
            assert!(!results[0].0);
            assert_decision_matters(
                &src,
                1,
                Knobs {
                    skip_schedule: false,
                    ..LIBLZ4
                },
                "no skip schedule",
            );
        }
    }
    assert!(found_somewhere_not_everywhere >= 3);
    assert!(outputs_differ);
    let probes = probe_positions(1, 1, n);
    assert_eq!(&probes[..66], &(1..=66).collect::<Vec<_>>()[..]);
    assert_eq!(&probes[66..70], &[68, 70, 72, 74]);
}

/// The step restarts at 1 for every new search: after a match ending at `e`, the search
/// probes e+1, e+2, ... one by one even though the first search had reached step 2.
#[test]
fn skip_schedule_restarts_after_a_match() {
    let n = 400;
    let mut src = random(n, 9);
    let marker = src[..16].to_vec();
    // First repeat at 100 (a step-2 position of the first search), ending at 116.
    src[100..116].copy_from_slice(&marker);
    src[116] = !src[16];
    // Second repeat, of 4 bytes, at 118: probed by a restarted search (117, 118, ...), not by one
    // carrying on with step 2 (117, 119, ...).
    src[118..122].copy_from_slice(&marker[..4]);
    src[117] = !src[15];
    src[122] = !src[104];
    assert_ne!(src[117], src[99]);
    let (_, parsed) = compress_checked(&src, 1);
    let first = match_at(&parsed, 100).expect("first repeat");
    assert_eq!((first.offset, first.match_len), (Some(100), 16));
    let second = match_at(&parsed, 118).expect("second repeat, found by the restarted search");
    assert_eq!(
        (second.literal_len, second.offset, second.match_len),
        (2, Some(18), 4)
    );
    assert_decision_matters(
        &src,
        1,
        Knobs {
            restart_schedule: false,
            ..LIBLZ4
        },
        "schedule carried over",
    );
}

/// The probe lands inside a repeat (its first bytes were skipped); catch-up extends the match
/// back to the repeat's start.
#[test]
fn backward_catch_up() {
    let n = 600;
    let probes = probe_positions(1, 1, n);
    // A position q in the step-3 region (after 66 + 2 * 64 = 194) where q and q+1 are skipped
    // and q+2 is probed.
    let q = (200..n - 100)
        .find(|&q| !probes.contains(&q) && !probes.contains(&(q + 1)) && probes.contains(&(q + 2)))
        .unwrap();
    let mut src = random(n, 11);
    let x = src[5..29].to_vec(); // a 24-byte string at 5 (all positions 1..=66 are probed)
    src[q..q + 24].copy_from_slice(&x);
    src[q - 1] = !src[4];
    src[q + 24] = !src[29];
    let (_, parsed) = compress_checked(&src, 1);
    let m = match_at(&parsed, q).expect("the match is extended back to the repeat's start");
    assert_eq!((m.literal_len, m.offset, m.match_len), (q, Some(q - 5), 24));
    assert!(match_at(&parsed, q + 2).is_none());
    assert_decision_matters(
        &src,
        1,
        Knobs {
            catch_up: false,
            ..LIBLZ4
        },
        "no catch-up",
    );
}

/// After a match ending at `e`, position e-2 is inserted: a later 4-byte repeat of the bytes
/// at e-2 (two inside the match, two after it) is found through that entry only.
#[test]
fn insert_at_ip_minus_2_after_a_match() {
    let n = 200;
    let mut src = random(n, 12);
    let x = src[..20].to_vec();
    src[30..50].copy_from_slice(&x); // match 30..50 against 0..20, e = 50
    src[50] = !src[20];
    let bytes_at_48 = src[48..52].to_vec();
    let r = 80;
    src[r..r + 4].copy_from_slice(&bytes_at_48);
    src[r - 1] = !src[47];
    src[r + 4] = !src[52];
    // Precondition: no probe between 50 and r writes position 48's slot.
    assert!((50..r).all(|p| slot_u16(&src, p) != slot_u16(&src, 48)));
    let (_, parsed) = compress_checked(&src, 1);
    assert_eq!(
        match_at(&parsed, 30).map(|m| (m.offset, m.match_len)),
        Some((Some(30), 20))
    );
    let m = match_at(&parsed, r).expect("the repeat of position 48's bytes");
    assert_eq!((m.offset, m.match_len), (Some(r - 48), 4));
    assert_decision_matters(
        &src,
        1,
        Knobs {
            insert_ip_minus_2: false,
            ..LIBLZ4
        },
        "no insert at ip-2",
    );
}

/// Right after a match, its end position is probed at once: a hit gives a sequence with no
/// literals. The repeat there is exactly 4 bytes, so no later probe could find it.
#[test]
fn immediate_probe_after_a_match() {
    let n = 300;
    let mut src = random(n, 13);
    let x = src[5..25].to_vec();
    let y = src[40..44].to_vec();
    let q = 100; // probed by the first search (step 2 from 66 on)
    src[q..q + 20].copy_from_slice(&x);
    src[q - 1] = !src[4];
    let e = q + 20;
    src[e..e + 4].copy_from_slice(&y);
    src[e + 4] = !src[44];
    assert_ne!(src[e], src[25]);
    let (_, parsed) = compress_checked(&src, 1);
    let first = match_at(&parsed, q).expect("the repeat of x");
    assert_eq!((first.offset, first.match_len), (Some(q - 5), 20));
    let second = match_at(&parsed, e).expect("the zero-literal sequence");
    assert_eq!(
        (second.literal_len, second.offset, second.match_len),
        (0, Some(e - 40), 4)
    );
    assert_decision_matters(
        &src,
        1,
        Knobs {
            immediate_probe: false,
            ..LIBLZ4
        },
        "no immediate probe",
    );
}

/// The u32 table skips candidates more than 65,535 bytes back.
#[test]
fn u32_table_skips_candidates_beyond_65535() {
    let n = 140_000;
    let base = random(n, 14);
    // Random data has no matches, so the probes are the schedule's.
    assert_eq!(
        parse_block(&block::compress(&base).unwrap())
            .matches()
            .count(),
        0
    );
    let probes = probe_positions(1, 1, n);
    let probed: std::collections::HashSet<usize> = probes.iter().copied().collect();
    for distance in [65_535usize, 65_536] {
        // A probed pair `a`, `b = a + distance` whose slot no probe in between overwrites, with
        // a 16-byte string at `a` repeated at `b`.
        let mut planted = None;
        for &a in probes.iter().filter(|&&a| a > 1000) {
            let b = a + distance;
            if !probed.contains(&b) || b + 100 > n {
                continue;
            }
            let mut src = base.clone();
            let x = src[a..a + 16].to_vec();
            src[b..b + 16].copy_from_slice(&x);
            src[b - 1] = !src[a - 1];
            let target = slot_u32(&src, a);
            if probes
                .iter()
                .filter(|&&p| p > a && p < b)
                .all(|&p| slot_u32(&src, p) != target)
            {
                planted = Some((src, b));
                break;
            }
        }
        let (src, b) = planted.expect("a probed pair at this distance");
        let (_, parsed) = compress_checked(&src, 1);
        let m = match_at(&parsed, b);
        if distance == 65_535 {
            assert_eq!(
                m.map(|m| m.offset),
                Some(Some(65_535)),
                "distance 65,535 is in range"
            );
        } else {
            assert!(m.is_none(), "distance 65,536 is out of range");
        }
    }
}

#[test]
fn acceleration_is_clamped() {
    let src = generated("log-lines", 20_000, 3);
    assert_eq!(
        block::compress_fast(&src, 0).unwrap(),
        liblz4::compress_fast(&src, 1)
    );
    assert_eq!(
        block::compress_fast(&src, 65_538).unwrap(),
        liblz4::compress_fast(&src, 65_537)
    );
    assert_eq!(
        block::compress_fast(&src, u32::MAX).unwrap(),
        liblz4::compress_fast(&src, 1_000_000)
    );
    // And acceleration changes the output on this input.
    assert_ne!(
        block::compress_fast(&src, 1).unwrap(),
        block::compress_fast(&src, 2).unwrap()
    );
}
