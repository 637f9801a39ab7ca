//! A frame whose header declares a content size of 0 over real content (`hello hello hello`,
//! 44 bytes): liblz4 and the `lz4` tool read 0 as "unknown" and decode it, so `-d` (from a
//! file, from a pipe, and with `-T2`) gives the content, and `--list` shows its size as unknown
//! ("-"), as `lz4 --list` does. Until 2026-12-07 (commit e4b91a7) `-d` refused it.

mod common;

use common::{bin, lz4, piped, run_in, scratch, stderr};

/// `hello hello hello` in one stored block, content checksum on, a declared content size of 0.
const HELLO: &str = "04224d186c400000000000000000091100008068656c6c6f2068656c6c6f2068656c6c6f\
                     00000000b1cd9b87";

fn framed() -> Vec<u8> {
    (0..HELLO.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&HELLO[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn a_declared_zero_decodes() {
    let dir = scratch("content-size-zero");
    std::fs::write(dir.join("hello.lz4"), framed()).unwrap();
    let out = run_in(bin().args(["-d", "hello.lz4", "hello"]), &dir);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read(dir.join("hello")).unwrap(),
        b"hello hello hello"
    );
    for args in [&["-d", "-c"][..], &["-d", "-c", "-T2"]] {
        let out = piped(args, &framed());
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        assert_eq!(out.stdout, b"hello hello hello", "{args:?}");
    }
    if let Some(mut tool) = lz4() {
        let out = run_in(tool.args(["-d", "-c", "hello.lz4"]), &dir);
        assert!(out.status.success(), "lz4: {}", stderr(&out));
        assert_eq!(out.stdout, b"hello hello hello", "lz4");
    }
}

/// `--list`'s columns for `file`: (header, value) pairs of its table.
fn columns(text: &str, file: &str) -> Vec<(String, String)> {
    let mut lines = text.lines().filter(|line| !line.trim().is_empty());
    let header: Vec<&str> = lines
        .find(|line| line.trim_start().starts_with("Frames"))
        .unwrap_or_else(|| panic!("no table header: {text}"))
        .split_whitespace()
        .collect();
    let row = lines
        .find(|line| line.trim_end().ends_with(file))
        .unwrap_or_else(|| panic!("no line for {file}: {text}"));
    header
        .iter()
        .zip(row.split_whitespace())
        .map(|(name, value)| (name.to_string(), value.to_string()))
        .collect()
}

fn column<'a>(columns: &'a [(String, String)], name: &str) -> &'a str {
    &columns.iter().find(|(header, _)| header == name).unwrap().1
}

#[test]
fn a_declared_zero_lists_as_unknown() {
    let dir = scratch("content-size-zero-list");
    std::fs::write(dir.join("hello.lz4"), framed()).unwrap();
    let out = run_in(bin().args(["--list", "hello.lz4"]), &dir);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let ours = columns(&text, "hello.lz4");
    for (name, value) in [
        ("Frames", "1"),
        ("Type", "LZ4Frame"),
        ("Block", "B4I"),
        ("Compressed", "44.00"),
        ("Uncompressed", "-"),
        ("Ratio", "-"),
    ] {
        assert_eq!(column(&ours, name), value, "{name}: {text}");
    }
    if let Some(mut tool) = lz4() {
        let out = run_in(tool.args(["--list", "hello.lz4"]), &dir);
        assert!(out.status.success(), "lz4: {}", stderr(&out));
        let theirs = String::from_utf8_lossy(&out.stdout).into_owned();
        let their_columns = columns(&theirs, "hello.lz4");
        for name in [
            "Frames",
            "Type",
            "Block",
            "Compressed",
            "Uncompressed",
            "Ratio",
        ] {
            assert_eq!(
                column(&ours, name),
                column(&their_columns, name),
                "{name}: ours:\n{text}\nlz4's:\n{theirs}"
            );
        }
    }
}
