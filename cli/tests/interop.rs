//! The same command lines through the installed `lz4` and through `lz4-simd`, compared: exit
//! status, the files left behind, the output bytes (where the library writes `lz4`'s bytes),
//! and every output decoded by the other tool.
//!
//! The installed `lz4` is 1.9.4 on the CI image; where 1.9.4 and 1.10 (the version we follow)
//! differ, or the library's bytes are not `lz4`'s, the case says so and is compared by
//! cross-decoding only: `-2` (HC level 2 is new in 1.10; 1.9.4 uses the fast compressor),
//! `-l --fast=N` (1.9.4 ignores the level in legacy mode), and HC with a
//! dictionary (LZ4F attaches HC dictionaries, which differs from `LZ4_loadDictHC` on blocks of
//! 4 KiB or less), and `-D` at the fast levels when the installed `lz4` is older than 1.10
//! (1.10 prepares the dictionary as `LZ4_loadDictSlow`, 1.9.4 as `LZ4_loadDict`; we write 1.10's
//! bytes), and linked blocks (`-BD`) of inputs of several blocks under 4 MiB when the installed
//! `lz4` is older than 1.10 (1.10 compresses such an input in one call, and so do we). Other
//! linked blocks (fast and HC) are `lz4`'s bytes: the frame encoder carries liblz4's stream from
//! block to block. Skipped with a notice when `lz4` is missing, unless `LZ4_SIMD_REQUIRE_PEERS=1`.

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

use common::{bin, lz4, run_in, sample, scratch, stderr};

/// A command line and whether the two tools must write the same bytes.
struct Case {
    args: &'static [&'static str],
    same_bytes: bool,
}

const fn same(args: &'static [&'static str]) -> Case {
    Case {
        args,
        same_bytes: true,
    }
}

const fn decodes(args: &'static [&'static str]) -> Case {
    Case {
        args,
        same_bytes: false,
    }
}

const COMPRESS_CASES: &[Case] = &[
    same(&[]),
    same(&["-1"]),
    decodes(&["-2"]),
    same(&["-3"]),
    same(&["-9"]),
    same(&["-12"]),
    same(&["--best"]),
    same(&["--fast"]),
    same(&["--fast=3"]),
    same(&["-B4"]),
    same(&["-B5"]),
    same(&["-B6"]),
    same(&["-B7"]),
    same(&["-BX"]),
    same(&["-BX", "-B5"]),
    same(&["-B4X"]),
    same(&["--no-frame-crc"]),
    same(&["--no-crc", "-BX"]),
    same(&["--content-size"]),
    same(&["--content-size", "-B4", "--no-frame-crc"]),
    same(&["-9", "--content-size"]),
    same(&["-9", "-B4"]),
    same(&["-l"]),
    same(&["-l", "-9"]),
    decodes(&["-l", "--fast=3"]),
    same(&["-12", "--favor-decSpeed"]),
    same(&["-10", "--favor-decSpeed", "-BD"]),
    same(&["-11", "--favor-decSpeed", "-B4"]),
    same(&["-BD"]),
    same(&["-9BD"]),
    same(&["-B4D"]),
    same(&["-9", "-B4D"]),
    same(&["-D", "dict"]),
    decodes(&["-D", "dict", "-9"]),
    same(&["-Ddict", "-B4"]),
    same(&["-D", "dict", "-B4D"]),
    same(&["--fast=4", "-BD", "-BX"]),
    same(&["-12", "-B4D", "--content-size"]),
];

/// Whether `args` pick an LZ4 HC level (2-12). HC costs seconds per 5 MB in a debug build,
/// so those cases skip the largest input; the multi-block HC paths are still covered by the
/// `-B4` cases at 300 KB (five 64 KB blocks), and every other case runs at every length.
fn high_compression(args: &[&str]) -> bool {
    args.iter().any(|arg| {
        *arg == "--best"
            || arg
                .strip_prefix('-')
                .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
                .and_then(|digits| digits.parse::<u32>().ok())
                .is_some_and(|level| level >= 2)
    })
}

/// Whether `args` compress with a dictionary at a fast level.
fn fast_dictionary(args: &[&str]) -> bool {
    args.iter().any(|a| a.starts_with("-D")) && !high_compression(args)
}

/// Whether `args` ask for linked blocks smaller than `len` bytes: lz4 1.10 compresses them in
/// one `LZ4F_compressFrame` call (under 4 MiB) or in 4 MiB chunks, 1.9.4 block by block.
fn linked_blocks_in_one_call(args: &[&str], len: usize) -> bool {
    let linked = args.iter().any(|a| a.starts_with("-B") && a.ends_with('D'));
    let block = match args
        .iter()
        .find(|a| a.starts_with("-B4") || a.starts_with("-B5"))
    {
        Some(a) if a.starts_with("-B4") => 64 << 10,
        Some(_) => 256 << 10,
        None => 4 << 20,
    };
    linked && len > block
}

/// Files by name, with their bytes.
type Files = BTreeMap<String, Vec<u8>>;

/// Every regular file in `dir` and its bytes.
fn files(dir: &Path) -> Files {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().unwrap().is_file())
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

/// A directory holding `setup`'s files.
fn prepared(name: &str, setup: &[(&str, &[u8])]) -> std::path::PathBuf {
    let dir = scratch(name);
    for (file, content) in setup {
        std::fs::write(dir.join(file), content).unwrap();
    }
    dir
}

/// Runs `args` through both tools, each in its own copy of `setup`; returns both outcomes and
/// the files each left.
fn both(name: &str, setup: &[(&str, &[u8])], args: &[&str]) -> Option<[(Output, Files); 2]> {
    let mut theirs = lz4()?;
    let lz4_dir = prepared(&format!("{name}-lz4"), setup);
    let our_dir = prepared(&format!("{name}-ours"), setup);
    let lz4_out = run_in(theirs.args(args), &lz4_dir);
    let our_out = run_in(bin().args(args), &our_dir);
    Some([(lz4_out, files(&lz4_dir)), (our_out, files(&our_dir))])
}

/// `tool -d -c [-D dict]` on `framed`.
fn decode_with(mut tool: Command, framed: &[u8], dict: Option<&[u8]>, dir: &Path) -> Vec<u8> {
    std::fs::write(dir.join("to-decode.lz4"), framed).unwrap();
    if let Some(dict) = dict {
        std::fs::write(dir.join("decode-dict"), dict).unwrap();
        tool.args(["-D", "decode-dict"]);
    }
    let out = run_in(tool.args(["-d", "-c", "to-decode.lz4"]), dir);
    assert!(out.status.success(), "decode failed: {}", stderr(&out));
    out.stdout
}

#[test]
fn compression_matches_lz4() {
    let Some(_) = lz4() else { return };
    let dict = sample(100_000).repeat(2);
    let decode_dir = scratch("interop-decode");
    let old_peer = common::lz4_before_110();
    for len in [0usize, 1000, 300_000, 5_000_000] {
        let data = sample(len);
        for case in COMPRESS_CASES {
            if len > 1 << 20 && high_compression(case.args) {
                continue;
            }
            let mut args = case.args.to_vec();
            args.extend(["-f", "in", "out.lz4"]);
            let setup: &[(&str, &[u8])] = &[("in", &data), ("dict", &dict)];
            let [(lz4_out, lz4_files), (our_out, our_files)] =
                both("interop-z", setup, &args).unwrap();
            let what = format!("len {len} {:?}", case.args);
            assert!(
                lz4_out.status.success(),
                "{what}: lz4 failed: {}",
                stderr(&lz4_out)
            );
            assert!(
                our_out.status.success(),
                "{what}: ours failed: {}",
                stderr(&our_out)
            );
            assert_eq!(
                lz4_files.keys().collect::<Vec<_>>(),
                our_files.keys().collect::<Vec<_>>(),
                "{what}: different files left"
            );
            let (theirs, ours) = (&lz4_files["out.lz4"], &our_files["out.lz4"]);
            // lz4 1.10 prepares fast dictionaries as `LZ4_loadDictSlow` (1.9.4: `LZ4_loadDict`),
            // and we write 1.10's bytes: compared with 1.10 or newer only.
            let old_fast_dict = old_peer && fast_dictionary(case.args);
            let old_linked = old_peer && linked_blocks_in_one_call(case.args, len);
            if case.same_bytes && !old_fast_dict && !old_linked {
                assert!(
                    theirs == ours,
                    "{what}: bytes differ ({} vs {})",
                    theirs.len(),
                    ours.len()
                );
            }
            let dict_used = case
                .args
                .iter()
                .any(|a| a.starts_with("-D"))
                .then_some(&dict[..]);
            for (framed, by) in [(theirs, "lz4"), (ours, "ours")] {
                for (decoder, name) in [(lz4().unwrap(), "lz4"), (bin(), "ours")] {
                    let decoded = decode_with(decoder, framed, dict_used, &decode_dir);
                    assert!(
                        decoded == data,
                        "{what}: {by}'s output decoded by {name} differs"
                    );
                }
            }
        }
    }
}

#[test]
fn file_handling_matches_lz4() {
    let a = sample(200_000);
    let b = sample(70_000);
    let a_framed = lz4_simd::frame::compress(&a, &Default::default());
    let setup: &[(&str, &[u8])] = &[
        ("a", &a),
        ("b", &b),
        ("a.lz4", &a_framed),
        ("c.lz4", &a_framed),
    ];
    // (args, whether both must succeed): the files left must be the same either way.
    let cases: &[(&[&str], bool)] = &[
        (&["-m", "b"], true),
        (&["-m", "-f", "a", "b"], true),
        (&["-m", "-f", "b", "./b"], true),
        (&["-m", "--rm", "b"], true),
        (&["-d", "-m", "c.lz4"], true),
        (&["-d", "--rm", "c.lz4", "c"], true),
        // No mode: a .lz4 input is decompressed, whatever the output (as lz4 decides).
        (&["c.lz4", "c"], true),
        (&["-f", "c.lz4", "b"], true),
        (&["c.lz4"], true),
        (&["-m", "c.lz4"], true),
        (&["-c", "b"], true),
        (&["-z", "-c", "c.lz4"], true),
        (&["-t", "c.lz4"], true),
        (&["-z", "b", "b.lz4"], true),
        (&["-1", "-f", "b", "a.lz4"], true),
        (&["b", "a.lz4"], false),
        (&["-d", "c.lz4", "a"], false),
        (&["-m", "a"], false),
        (&["-d", "missing.lz4", "out"], false),
        (&["-t", "a"], false),
        (&["-d", "-f", "a", "x"], false),
    ];
    // lz4 before 1.10 sends these to standard output; 1.10 and ours write a file.
    let rule_of_110: &[&[&str]] = &[&["c.lz4"]];
    let old_peer = common::lz4_before_110();
    for (args, succeeds) in cases {
        if old_peer && rule_of_110.contains(args) {
            eprintln!("notice: {args:?} not compared: the installed lz4 is older than 1.10");
            continue;
        }
        let Some([(lz4_out, lz4_files), (our_out, our_files)]) = both("interop-files", setup, args)
        else {
            return;
        };
        let what = format!("{args:?}");
        assert_eq!(
            lz4_out.status.success(),
            *succeeds,
            "{what}: lz4: {}",
            stderr(&lz4_out)
        );
        assert_eq!(
            our_out.status.success(),
            *succeeds,
            "{what}: ours: {}",
            stderr(&our_out)
        );
        if !succeeds {
            // On failure ours leaves everything as it was (lz4 may leave an empty output).
            let untouched: Files = setup
                .iter()
                .map(|(n, c)| (n.to_string(), c.to_vec()))
                .collect();
            assert!(our_files == untouched, "{what}: ours changed the directory");
            continue;
        }
        assert_eq!(
            lz4_files.keys().collect::<Vec<_>>(),
            our_files.keys().collect::<Vec<_>>(),
            "{what}: different files left"
        );
        assert!(lz4_out.stdout == our_out.stdout, "{what}: stdout differs");
        for (name, content) in &lz4_files {
            if name.ends_with(".lz4") && content != &our_files[name] {
                // Compressed outputs: the same content (bytes are compared above).
                let theirs = lz4_simd::frame::decompress(content, 1 << 24).unwrap();
                let ours = lz4_simd::frame::decompress(&our_files[name], 1 << 24).unwrap();
                assert!(theirs == ours, "{what}: {name} differs");
            } else {
                assert!(content == &our_files[name], "{what}: {name} differs");
            }
        }
    }
}

#[test]
fn pipes_match_lz4() {
    let Some(_) = lz4() else { return };
    let data = sample(1_000_000);
    for args in [&["-c"][..], &["-9", "-c"], &[], &["-BX", "--no-frame-crc"]] {
        let mut theirs = lz4().unwrap();
        theirs.args(args);
        let lz4_out = common::run_with_stdin(theirs, &data);
        let our_out = common::piped(args, &data);
        assert!(
            lz4_out.status.success() && our_out.status.success(),
            "{args:?}"
        );
        assert!(
            lz4_out.stdout == our_out.stdout,
            "{args:?}: piped bytes differ"
        );
        let mut decoder = lz4().unwrap();
        decoder.args(["-d", "-c"]);
        let back = common::run_with_stdin(decoder, &our_out.stdout);
        assert!(back.stdout == data, "{args:?}: lz4 -d of ours");
        let back = common::piped(&["-dc"], &lz4_out.stdout);
        assert!(back.stdout == data, "{args:?}: ours -d of lz4's");
    }
}

#[test]
fn standard_input_from_a_file_matches_lz4() {
    let Some(_) = lz4() else { return };
    let dir = scratch("interop-stdin-file");
    let data = sample(300_000);
    std::fs::write(dir.join("in"), &data).unwrap();
    let run = |mut tool: Command, args: &[&str], skip: u64| {
        let mut file = std::fs::File::open(dir.join("in")).unwrap();
        std::io::Seek::seek(&mut file, std::io::SeekFrom::Start(skip)).unwrap();
        tool.args(args).stdin(file).output().unwrap()
    };
    // Read from a file, standard input has a size: lz4 records it with --content-size.
    for args in [&["--content-size"][..], &["--content-size", "-B4"]] {
        let (theirs, ours) = (run(lz4().unwrap(), args, 0), run(bin(), args, 0));
        assert!(ours.status.success(), "{args:?}: {}", stderr(&ours));
        assert!(theirs.stdout == ours.stdout, "{args:?}: bytes differ");
    }
    // When part of it was read before, the rest is what counts (lz4 1.9.4 declares the whole
    // file, then fails: frameSize_wrong).
    let ours = run(bin(), &["--content-size", "-B4"], 1000);
    assert!(ours.status.success(), "{}", stderr(&ours));
    let info = lz4_simd::frame::read_frame_info(&ours.stdout).unwrap();
    assert_eq!(info.content_size, Some(299_000));
    let decoded = lz4_simd::frame::decompress(&ours.stdout, 1 << 20).unwrap();
    assert!(decoded == data[1000..]);
}
