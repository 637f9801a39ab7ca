//! `--container parquet-lz4` / `parquet-lz4-raw`: one Parquet page's bytes. `-z` writes what
//! parquet-java writes for the `LZ4` codec (Hadoop framing) and one raw block for `LZ4_RAW`;
//! `-d` reads a codec-5 page in each form writers have used (Hadoop framing, an LZ4 frame, a raw
//! block), and refuses what is none of them.

mod common;

use common::{bin, piped, run_in, sample, scratch, stderr};

fn ours(args: &[&str], input: &[u8]) -> Vec<u8> {
    let out = piped(args, input);
    assert!(out.status.success(), "lz4-simd {args:?}: {}", stderr(&out));
    out.stdout
}

#[test]
fn parquet_pages_in_every_form() {
    let dir = scratch("container-parquet");
    for data in [Vec::new(), b"p".to_vec(), sample(100_000), sample(600_000)] {
        let len = data.len();
        let hadoop = ours(&["-zc", "--container", "hadoop"], &data);
        let page = ours(&["-zc", "--container", "parquet-lz4"], &data);
        assert!(page == hadoop, "{len}: a codec-5 page is Hadoop framing");
        let frame = ours(&["-zc"], &data);
        let raw = ours(&["-zc", "--container", "parquet-lz4-raw"], &data);
        let prefixed = ours(&["-zc", "--container", "prefixed-le32"], &data);
        assert!(
            raw == prefixed[4..],
            "{len}: an LZ4_RAW page is one raw block"
        );
        for (form, bytes) in [("hadoop", &hadoop), ("frame", &frame), ("raw", &raw)] {
            let back = ours(&["-dc", "--container", "parquet-lz4"], bytes);
            assert!(back == data, "{len} {form}: differs");
        }
        assert!(ours(&["-dc", "--container", "parquet-lz4-raw"], &raw) == data);
        // From files, with the cap: the page's size decodes, one byte less does not.
        std::fs::write(dir.join("page"), &page).unwrap();
        for (cap, ok) in [(len, true), (len.saturating_sub(1), len == 0)] {
            let _ = std::fs::remove_file(dir.join("out"));
            let cap = cap.to_string();
            let out = run_in(
                bin()
                    .args(["-d", "-f", "--container", "parquet-lz4", "--max-out", &cap])
                    .args(["page", "out"]),
                &dir,
            );
            assert_eq!(
                out.status.success(),
                ok,
                "{len} cap {cap}: {}",
                stderr(&out)
            );
            assert_eq!(dir.join("out").exists(), ok, "{len} cap {cap}");
        }
    }
    // Not a page in any form: refused, naming what is wrong.
    for bad in [
        &b"\x00\x00\x00\x10\x00\x00\x00\x05hello"[..],
        &[0xF0, 1, 2][..],
    ] {
        let out = piped(&["-dc", "--container", "parquet-lz4"], bad);
        assert!(!out.status.success(), "{bad:?} accepted");
        assert!(!stderr(&out).is_empty());
    }
}
