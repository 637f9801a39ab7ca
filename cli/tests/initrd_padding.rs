//! lz4 initrds (legacy frames) with zero padding, as a boot loader that pads and aligns every
//! initrd it loads hands them to the kernel: `-d` decodes them as the kernel reads them (from a
//! file, from a pipe, on two threads, with `--container linux`, and `-t` tests them), where
//! `lz4` refuses the padding.
//! Padding that holds anything but zeros is an error naming its offset.

mod common;

use common::{bin, lz4, piped, run_in, sample, scratch, stderr};
use lz4_simd::frame;

/// Zeros up to the next multiple of 4 KiB.
fn aligned(mut bytes: Vec<u8>) -> Vec<u8> {
    bytes.resize(bytes.len().next_multiple_of(4096), 0);
    bytes
}

#[test]
fn padded_initrds_decode() {
    let first = sample(300_000);
    let second = sample(70_001)
        .into_iter()
        .map(|b| b.wrapping_add(1))
        .collect::<Vec<_>>();
    let content = [&first[..], &second[..]].concat();
    let dir = scratch("initrd-padding");
    let files: [(&str, Vec<u8>, &[u8]); 3] = [
        // One image, 5 zeros after it.
        (
            "one.lz4",
            {
                let mut image = frame::compress_legacy(&first, 1);
                image.extend_from_slice(&[0; 5]);
                image
            },
            &first,
        ),
        // 1 to 3 zeros at the end.
        (
            "short.lz4",
            {
                let mut image = frame::compress_legacy(&first, 9);
                image.extend_from_slice(&[0; 3]);
                image
            },
            &first,
        ),
        // Two images, each aligned to 4 KiB.
        (
            "two.lz4",
            [
                aligned(frame::compress_legacy(&first, 1)),
                aligned(frame::compress_legacy(&second, 1)),
            ]
            .concat(),
            &content,
        ),
    ];
    for (name, bytes, expected) in &files {
        std::fs::write(dir.join(name), bytes).unwrap();
        let out = run_in(bin().args(["-d", "-f", name, "out"]), &dir);
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        assert!(
            std::fs::read(dir.join("out")).unwrap() == *expected,
            "{name}: content"
        );
        for args in [&["-d", "-c"][..], &["-d", "-c", "-T2"]] {
            let out = piped(args, bytes);
            assert!(out.status.success(), "{name} {args:?}: {}", stderr(&out));
            assert!(out.stdout == *expected, "{name} {args:?}: content");
        }
        let out = run_in(bin().args(["-d", "-c", "--container", "linux", name]), &dir);
        assert!(
            out.status.success(),
            "{name} --container linux: {}",
            stderr(&out)
        );
        assert!(out.stdout == *expected, "{name} --container linux: content");
        let out = run_in(bin().args(["-t", name]), &dir);
        assert!(out.status.success(), "{name} -t: {}", stderr(&out));
        // `lz4` refuses the padding: fewer than 4 bytes are no block size, and a block size
        // of 0 is an empty block, which is invalid.
        if let Some(mut tool) = lz4() {
            let out = run_in(tool.args(["-d", "-c", name]), &dir);
            assert!(!out.status.success(), "lz4 accepts {name}");
        }
    }
}

#[test]
fn padding_that_is_not_zero_is_an_error_at_its_offset() {
    let data = sample(50_000);
    let legacy = frame::compress_legacy(&data, 1);
    let mut image = aligned(legacy.clone());
    let at = legacy.len() + 9;
    image[at] = 0x33;
    let dir = scratch("initrd-padding-dirty");
    std::fs::write(dir.join("dirty.lz4"), &image).unwrap();
    for args in [
        &["-d", "-c", "dirty.lz4"][..],
        &["-d", "-c", "-T2", "dirty.lz4"],
    ] {
        let out = run_in(bin().args(args), &dir);
        assert!(!out.status.success(), "{args:?}: accepted");
        let message = stderr(&out);
        assert!(
            message.contains(&format!("offset {at}")) && message.contains("zero padding"),
            "{args:?}: {message}"
        );
    }
}
