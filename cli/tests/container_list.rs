//! `--list` on containers it identifies from their bytes alone: a Kafka v0 frame (its header
//! checksum covers the magic number, so it is not a valid LZ4 frame) and a Linux kernel image
//! (legacy frames, then the size trailer and zero padding, which `-d` accepts); what it must not
//! take for them (a Kafka v1 frame is an LZ4 frame, a truncated legacy frame is an error); a
//! Parquet page when `--container` names it.

mod common;

use common::{bin, run_in, sample, scratch, stderr};

/// `lz4-simd --list ARGS` in `dir`: its stdout, or a panic with its stderr.
fn list(dir: &std::path::Path, args: &[&str]) -> String {
    let out = run_in(bin().arg("--list").args(args), dir);
    assert!(out.status.success(), "--list {args:?}: {}", stderr(&out));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The line of `--list`'s table that names `file`, split into its columns.
fn row(text: &str, file: &str) -> Vec<String> {
    let line = text
        .lines()
        .find(|line| line.trim_end().ends_with(file))
        .unwrap_or_else(|| panic!("no line for {file}: {text}"));
    line.split_whitespace().map(str::to_string).collect()
}

#[test]
fn kafka_v0_frames_and_kernel_images_are_recognised() {
    let dir = scratch("container-list");
    let data = sample(300_000);
    std::fs::write(dir.join("data"), &data).unwrap();
    for name in ["kafka", "kafka-v0", "linux"] {
        let out = run_in(
            bin().args(["-f", "-z", "--container", name, "data", name]),
            &dir,
        );
        assert!(out.status.success(), "{name}: {}", stderr(&out));
    }
    // A kernel image as the build writes it: then zero padding.
    let mut image = std::fs::read(dir.join("linux")).unwrap();
    image.extend_from_slice(&[0; 16]);
    std::fs::write(dir.join("padded"), &image).unwrap();
    for verbose in [false, true] {
        let mut args = vec!["kafka-v0", "kafka", "linux", "padded"];
        if verbose {
            args.insert(0, "-v");
        }
        let text = list(&dir, &args);
        for (file, kind) in [
            ("kafka-v0", "kafka-v0"),
            ("linux", "linux"),
            ("padded", "linux"),
        ] {
            let columns = row(&text, &format!(" {file}"));
            assert_eq!(columns[1], kind, "{file}: {text}");
            // The content is decoded to be counted: 300 000 bytes.
            assert_eq!(columns[4], "292.97K", "{file}: {text}");
        }
        // A Kafka v1 frame is an LZ4 frame, listed as one.
        if !verbose {
            assert_eq!(row(&text, " kafka")[1], "LZ4Frame", "{text}");
        }
    }
    // A Parquet page is listed when named (nothing in its bytes says what it is).
    let out = run_in(
        bin().args(["-f", "-z", "--container", "parquet-lz4", "data", "page"]),
        &dir,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = list(&dir, &["--container", "parquet-lz4", "page"]);
    let columns = row(&text, " page");
    assert_eq!(
        (columns[1].as_str(), columns[4].as_str()),
        ("parquet-lz4", "292.97K"),
        "{text}"
    );
    // A legacy stream cut short is still an error, not a kernel image.
    std::fs::write(dir.join("cut"), &image[..image.len() / 2]).unwrap();
    let out = run_in(bin().args(["--list", "cut"]), &dir);
    assert!(
        !out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(stderr(&out).contains("legacy"), "{}", stderr(&out));
    // A kernel image whose trailer does not match is not listed as one either.
    let mut wrong = image.clone();
    let at = wrong.len() - 16 - 4;
    wrong[at] ^= 1;
    std::fs::write(dir.join("wrong"), &wrong).unwrap();
    let out = run_in(bin().args(["--list", "wrong"]), &dir);
    assert!(
        !out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}
