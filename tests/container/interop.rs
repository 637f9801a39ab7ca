//! The containers against their real implementations, both directions where the peer can read:
//! python-lz4, the Cassandra driver and RocksDB (size-prefixed blocks), kafka-python (Kafka
//! frames, v0 and v1 checksums), sarama's published fixtures (Kafka), clickhouse-cityhash with python-lz4 (ClickHouse blocks, as clickhouse-driver writes them),
//! lz4-java from Debian's liblz4-java (LZ4Block streams) and the `lz4` tool (legacy frames for
//! kernel images). See tests/container/peers/mod.rs for what happens when a peer is missing.
#![cfg(feature = "containers")]

use crate::peers;

use std::process::Command;

use lz4_simd::container::kafka::{AcceptHeaderChecksum, HeaderChecksum};
use lz4_simd::container::prefixed::SizePrefix;
use lz4_simd::container::{clickhouse, java, kafka, linux, prefixed};
use peers::{
    inputs, lz4_java, lz4_java_jar, peer_missing, python, python_peers, run_with_input, scratch_dir,
};

const CAP: usize = 64 << 20;

#[test]
fn prefixed_blocks_with_python_lz4() {
    if !python_peers() {
        return peer_missing(
            "python3 with lz4, kafka-python, clickhouse-cityhash, xxhash, pyarrow, cassandra-driver",
        );
    }
    for (name, data) in inputs() {
        for (prefix, arg) in [
            (SizePrefix::Le32, "le32"),
            (SizePrefix::Be32, "be32"),
            (SizePrefix::Be32, "cassandra"),
        ] {
            let theirs = python(&["prefixed-compress", arg], &data).unwrap();
            let decoded = prefixed::decompress(&theirs, prefix, CAP)
                .unwrap_or_else(|e| panic!("{name} {arg}: ours rejects python-lz4's: {e}"));
            assert!(decoded == data, "{name} {arg}: output differs");
            let ours = prefixed::compress(&data, prefix).unwrap();
            // (Not byte-compared: python-lz4 bundles liblz4 1.9.4, whose blocks under 64 KiB
            // differ from 1.10's, which ours reproduce.)
            assert_eq!(ours[..4], theirs[..4], "{name} {arg}: prefix differs");
            let back = python(&["prefixed-decompress", arg], &ours).unwrap();
            assert!(
                back == data,
                "{name} {arg}: python-lz4 decodes ours differently"
            );
        }
    }
}

#[test]
fn kafka_frames_with_kafka_python() {
    if !python_peers() {
        return peer_missing(
            "python3 with lz4, kafka-python, clickhouse-cityhash, xxhash, pyarrow, cassandra-driver",
        );
    }
    for (name, data) in inputs() {
        for (version, checksum) in [
            ("v0", HeaderChecksum::OverMagic),
            ("v1", HeaderChecksum::Spec),
        ] {
            let what = format!("{name} {version}");
            let theirs = python(&["kafka-compress", version], &data).unwrap();
            let accept = match checksum {
                HeaderChecksum::OverMagic => AcceptHeaderChecksum::OverMagic,
                HeaderChecksum::Spec => AcceptHeaderChecksum::Spec,
            };
            for accept in [accept, AcceptHeaderChecksum::Either] {
                let decoded = kafka::decompress(&theirs, accept, CAP)
                    .unwrap_or_else(|e| panic!("{what}: ours rejects kafka-python's: {e}"));
                assert!(decoded == data, "{what}: output differs");
            }
            // The other checksum alone is refused (unless the two happen to coincide).
            let other = match checksum {
                HeaderChecksum::OverMagic => AcceptHeaderChecksum::Spec,
                HeaderChecksum::Spec => AcceptHeaderChecksum::OverMagic,
            };
            let ours = kafka::compress(&data, checksum);
            if ours[6] != kafka::compress(&data, other_write(checksum))[6] {
                assert!(kafka::decompress(&theirs, other, CAP).is_err(), "{what}");
            }
            let back = python(&["kafka-decompress", version], &ours)
                .unwrap_or_else(|e| panic!("{what}: kafka-python rejects ours: {e}"));
            assert!(
                back == data,
                "{what}: kafka-python decodes ours differently"
            );
            // The header is Kafka's: FLG = version 1 + independent blocks, BD = 64 KiB.
            assert_eq!(ours[4..6], [0x60, 0x40], "{what}");
            // kafka-python stores a content size in v1 frames (Kafka does not): compare the
            // checksum where the descriptors agree.
            if ours[4..6] == theirs[4..6] {
                assert_eq!(
                    ours[6], theirs[6],
                    "{what}: header checksum differs from kafka-python's"
                );
            }
        }
    }
}

fn other_write(checksum: HeaderChecksum) -> HeaderChecksum {
    match checksum {
        HeaderChecksum::OverMagic => HeaderChecksum::Spec,
        HeaderChecksum::Spec => HeaderChecksum::OverMagic,
    }
}

#[test]
fn clickhouse_blocks_with_clickhouse_cityhash() {
    if !python_peers() {
        return peer_missing(
            "python3 with lz4, kafka-python, clickhouse-cityhash, xxhash, pyarrow, cassandra-driver",
        );
    }
    for (name, data) in inputs() {
        for block_size in [clickhouse::DEFAULT_BLOCK_SIZE, 1000] {
            let what = format!("{name} blocks of {block_size}");
            let arg = block_size.to_string();
            let theirs = python(&["clickhouse-compress", &arg], &data).unwrap();
            let decoded = clickhouse::decompress(&theirs, CAP)
                .unwrap_or_else(|e| panic!("{what}: ours rejects the peer's: {e}"));
            assert!(decoded == data, "{what}: output differs");
            let ours = clickhouse::compress(&data, block_size).unwrap();
            assert_eq!(
                clickhouse_sizes(&ours),
                clickhouse_sizes(&theirs),
                "{what}: block structure differs from the peer's"
            );
            let back = python(&["clickhouse-decompress"], &ours).unwrap();
            assert!(back == data, "{what}: the peer decodes ours differently");
        }
    }
}

#[test]
fn lz4_java_block_streams() {
    let Some(jar) = lz4_java_jar() else {
        return peer_missing("java with lz4-java (Debian package liblz4-java)");
    };
    let dir = scratch_dir("lz4-java");
    let inputs = inputs();
    let mut concatenated_theirs = Vec::new();
    let mut concatenated_data = Vec::new();
    for block_size in [java::DEFAULT_BLOCK_SIZE, 100, 1 << 20] {
        // One JVM per direction and block size: lz4-java compresses every input, then
        // decompresses ours.
        let path = |i: usize, ext: &str| dir.join(format!("{i}.{ext}"));
        let mut args = vec!["compress".to_string(), block_size.to_string()];
        for (i, (_, data)) in inputs.iter().enumerate() {
            std::fs::write(path(i, "in"), data).unwrap();
            args.push(path(i, "in").display().to_string());
            args.push(path(i, "theirs").display().to_string());
        }
        lz4_java(&jar, &args, &[]).unwrap();
        let mut args = vec!["decompress".to_string()];
        for (i, (name, data)) in inputs.iter().enumerate() {
            let what = format!("{name} blocks of {block_size}");
            let theirs = std::fs::read(path(i, "theirs")).unwrap();
            let decoded = java::decompress(&theirs, CAP)
                .unwrap_or_else(|e| panic!("{what}: ours rejects lz4-java's: {e}"));
            assert!(decoded == *data, "{what}: output differs");
            let ours = java::compress(data, block_size).unwrap();
            // Same headers (token, decompressed length, checksum) block by block; the blocks'
            // bytes depend on the liblz4 version lz4-java's JNI library links.
            assert_eq!(
                java_headers(&ours),
                java_headers(&theirs),
                "{what}: headers differ"
            );
            std::fs::write(path(i, "ours"), &ours).unwrap();
            args.push(path(i, "ours").display().to_string());
            args.push(path(i, "back").display().to_string());
            if data.len() < 100_000 {
                concatenated_theirs.extend_from_slice(&theirs);
                concatenated_data.extend_from_slice(data);
            }
        }
        lz4_java(&jar, &args, &[]).unwrap();
        for (i, (name, data)) in inputs.iter().enumerate() {
            let back = std::fs::read(path(i, "back")).unwrap();
            assert!(
                back == *data,
                "{name} blocks of {block_size}: lz4-java decodes ours differently"
            );
        }
    }
    assert_eq!(
        java::decompress(&concatenated_theirs, CAP).unwrap(),
        concatenated_data
    );
    // lz4-java reads the concatenation too.
    std::fs::write(dir.join("cat.ours"), &concatenated_theirs).unwrap();
    let args = [
        "decompress".to_string(),
        dir.join("cat.ours").display().to_string(),
        dir.join("cat.back").display().to_string(),
    ];
    lz4_java(&jar, &args, &[]).unwrap();
    assert_eq!(
        std::fs::read(dir.join("cat.back")).unwrap(),
        concatenated_data
    );
}

/// A kernel image as the Linux build writes it: `lz4 -l` output, the size as a LE u32
/// (`size_append`), then zero padding.
#[test]
fn kernel_image_trailer_after_lz4_legacy() {
    let ok = Command::new("lz4")
        .arg("--version")
        .output()
        .is_ok_and(|out| out.status.success());
    if !ok {
        return peer_missing("the lz4 command line tool");
    }
    for (name, data) in inputs() {
        let legacy = run_with_input(Command::new("lz4").args(["-l", "-c", "-q", "-9"]), &data)
            .unwrap_or_else(|e| panic!("{name}: lz4 -l failed: {e}"));
        for padding in [0, 1, 3, 4, 16, 509] {
            let mut image = legacy.clone();
            image.extend_from_slice(&(data.len() as u32).to_le_bytes());
            image.resize(image.len() + padding, 0);
            let decoded = linux::decompress(&image, CAP)
                .unwrap_or_else(|e| panic!("{name} + {padding} zeros: {e}"));
            assert!(decoded == data, "{name} + {padding} zeros: output differs");
            // A size that is not the decoded size is refused.
            let mut lying = legacy.clone();
            lying.extend_from_slice(&(data.len() as u32 + 1).to_le_bytes());
            lying.resize(lying.len() + padding, 0);
            // (Unless the lying bytes form a valid stream by themselves: a size word of 1 and
            // one zero byte are the empty block, and fewer than 4 zeros after it are padding,
            // as the kernel reads them.)
            let valid = lz4_simd::frame::decompress(&lying, CAP).is_ok()
                || crate::kernel_padding::kernel_unpack(&lying).is_ok();
            if !valid {
                assert!(
                    linux::decompress(&lying, CAP).is_err(),
                    "{name}: lying trailer accepted"
                );
            }
        }
        // Without a trailer it is the legacy frame.
        assert_eq!(linux::decompress(&legacy, CAP).unwrap(), data);
    }
}

/// (method, uncompressed size) of each ClickHouse block.
fn clickhouse_sizes(mut blocks: &[u8]) -> Vec<(u8, u32)> {
    let mut sizes = Vec::new();
    while !blocks.is_empty() {
        let compressed = u32::from_le_bytes(blocks[17..21].try_into().unwrap()) as usize;
        let size = u32::from_le_bytes(blocks[21..25].try_into().unwrap());
        sizes.push((blocks[16], size));
        blocks = &blocks[16 + compressed..];
    }
    sizes
}

/// (token's level, decompressed length, checksum) of each lz4-java block.
fn java_headers(mut stream: &[u8]) -> Vec<(u8, u32, u32)> {
    let mut headers = Vec::new();
    while !stream.is_empty() {
        let word = |at: usize| u32::from_le_bytes(stream[at..at + 4].try_into().unwrap());
        let (compressed, original, check) = (word(9), word(13), word(17));
        headers.push((stream[8] & 0x0F, original, check));
        stream = &stream[java::HEADER_LEN + compressed as usize..];
    }
    headers
}

/// Published samples: the LZ4 frames inside sarama's (the Go Kafka client's) message fixtures
/// (`message_test.go`: `emptyLZ4Message` and `emptyBulkLZ4Message`, message format v1 written by
/// sarama with pierrec/lz4): 4 MiB independent blocks, a content checksum, the frame format's
/// header checksum; the bulk one holds a stored block with a message set of two empty messages.
/// Both decode, one-shot and streamed, as v1 frames and as frames of unknown format, and are
/// refused as v0 frames.
#[test]
fn kafka_frames_published_by_sarama() {
    use std::io::Read;
    let empty: &[u8] = &[
        0x04, 0x22, 0x4D, 0x18, 100, 112, 185, 0, 0, 0, 0, 5, 93, 204, 2,
    ];
    let bulk: &[u8] = &[
        0x04, 0x22, 0x4D, 0x18, 100, 112, 185, 52, 0, 0, 128, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 14,
        121, 87, 72, 224, 0, 0, 255, 255, 255, 255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
        14, 121, 87, 72, 224, 0, 0, 255, 255, 255, 255, 0, 0, 0, 0, 0, 0, 0, 0, 71, 129, 23, 111,
    ];
    // The message set: two messages at offsets 0 and 1, each 14 bytes (CRC 0x795748E0, magic 0,
    // attributes 0, null key, empty value).
    let message = |offset: u8| {
        let mut bytes = vec![
            0, 0, 0, 0, 0, 0, 0, offset, 0, 0, 0, 14, 121, 87, 72, 224, 0, 0,
        ];
        bytes.extend_from_slice(&[255, 255, 255, 255, 0, 0, 0, 0]);
        bytes
    };
    let set = [message(0), message(1)].concat();
    assert_eq!(bulk.len(), 0x47, "the fixture's length field");
    for (frame, content) in [(empty, &[][..]), (bulk, &set[..])] {
        assert_eq!(kafka::header_checksum_of(frame), Some(HeaderChecksum::Spec));
        for accept in [AcceptHeaderChecksum::Spec, AcceptHeaderChecksum::Either] {
            assert_eq!(kafka::decompress(frame, accept, CAP).unwrap(), content);
            let mut streamed = Vec::new();
            kafka::Decoder::new(frame, accept)
                .max_out(content.len() as u64)
                .read_to_end(&mut streamed)
                .unwrap();
            assert_eq!(streamed, content);
        }
        assert!(kafka::decompress(frame, AcceptHeaderChecksum::OverMagic, CAP).is_err());
        // The content checksum is checked: one bit off in it is refused.
        let mut bad = frame.to_vec();
        *bad.last_mut().unwrap() ^= 1;
        assert!(kafka::decompress(&bad, AcceptHeaderChecksum::Either, CAP).is_err());
    }
}

/// RocksDB (rocksdict's bundled RocksDB, LZ4 compression, its default `format_version` ≥ 2)
/// writes an SST file whose data blocks are LZ4 blocks behind a varint32 size, each followed by
/// the block trailer (compression type 0x04 = LZ4, masked CRC32C). Ours decodes every data block
/// at the head of the file: the block ends where the trailer's type byte is and the size
/// prefix is exact, and the blocks hold the entries' values in order. (RocksDB reads blocks only from
/// SST files it wrote, so this direction only.)
#[test]
fn rocksdb_varint_blocks_with_rocksdict() {
    if !python_peers() {
        return peer_missing(
            "python3 with lz4, kafka-python, clickhouse-cityhash, xxhash, pyarrow, cassandra-driver, rocksdict",
        );
    }
    const LZ4_TYPE: u8 = 0x04;
    const TRAILER: usize = 5;
    let dir = scratch_dir("rocksdb");
    let path = dir.join("lz4.sst");
    let entries = 400;
    python(
        &[
            "rocksdb-sst",
            &path.display().to_string(),
            &entries.to_string(),
        ],
        &[],
    )
    .unwrap();
    let sst = std::fs::read(&path).unwrap();
    let mut pos = 0;
    let mut next_key = 0;
    let mut blocks = 0;
    // Data blocks until the entries are all seen: each the shortest prefix of the rest that
    // decodes exactly and is followed by an LZ4 trailer.
    while next_key < entries {
        let rest = &sst[pos..];
        let (len, block) = (1..rest.len())
            .filter(|&len| rest[len] == LZ4_TYPE)
            .find_map(|len| {
                prefixed::decompress(&rest[..len], SizePrefix::Varint32, CAP)
                    .ok()
                    .map(|block| (len, block))
            })
            .unwrap_or_else(|| panic!("no varint32 LZ4 block at SST offset {pos}"));
        let before = next_key;
        while next_key < entries {
            // (Keys are prefix-compressed inside a block; values are whole.)
            let value = format!("value {next_key:05} ").repeat(8);
            if !block.windows(value.len()).any(|w| w == value.as_bytes()) {
                break;
            }
            next_key += 1;
        }
        assert!(next_key > before, "the block at {pos} holds no next entry");
        pos += len + TRAILER;
        blocks += 1;
    }
    // 400 entries of 100-byte values in RocksDB's 4 KiB blocks.
    assert!(blocks >= 8, "{blocks} blocks");
}
