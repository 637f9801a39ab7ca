//! `--container NAME`: LZ4 inside other systems' formats (the library's `lz4_simd::container`),
//! compressed (`-z`) and decompressed (`-d`, `-t`) from files and pipes.
//!
//! The containers that are streams of blocks (Hadoop, Kafka, lz4-java, ClickHouse) stream
//! through the library's `Decoder` / `Encoder` adapters: memory is one block, whatever the size
//! of the input. The others are one-shot (one block behind a size, a kernel image with its
//! trailer): the input is read whole (compressing: up to the block format's largest input;
//! decompressing: up to twice the `--max-out` cap plus 1 MiB, more than any container of
//! content within the cap takes). `--max-out` caps the whole content of every container.

use std::io::{self, Read, Write};

use lz4_simd::block;
use lz4_simd::container::{clickhouse, hadoop, java, kafka, linux, parquet, prefixed};
use lz4_simd::frame;

use crate::args::Settings;
use crate::codec::{compress_legacy, read_at_most};

/// A container the command reads and writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Container {
    /// Hadoop's `Lz4Codec` block stream (Hadoop, Spark, Parquet's `LZ4` pages).
    Hadoop,
    /// Kafka's LZ4 frames, message format v1/v2 (the frame format's header checksum).
    Kafka,
    /// Kafka's LZ4 frames, message format v0 (the header checksum over the magic number too).
    KafkaV0,
    /// lz4-java's `LZ4BlockOutputStream` (Spark shuffle and spill).
    Java,
    /// One block behind a little-endian u32 size (python-lz4 `store_size`, Cassandra SSTables).
    Le32,
    /// One block behind a big-endian u32 size (Cassandra native protocol ≤ v4).
    Be32,
    /// One block behind a LEB128 varint32 size (RocksDB).
    Varint,
    /// ClickHouse's checksummed compressed blocks.
    ClickHouse,
    /// A legacy frame followed by the little-endian u32 content size (Linux kernel images).
    Linux,
    /// A Parquet page of the `LZ4` codec (5): Hadoop framing written; Hadoop framing, a frame or
    /// a raw block read.
    ParquetLz4,
    /// A Parquet page of the `LZ4_RAW` codec (7): one raw block.
    ParquetLz4Raw,
}

/// The names `--container` takes, with what each is.
pub const NAMES: &[(&str, Container, &str)] = &[
    (
        "hadoop",
        Container::Hadoop,
        "Hadoop Lz4Codec block stream (Spark, Parquet LZ4)",
    ),
    (
        "kafka",
        Container::Kafka,
        "Kafka LZ4 frame, message format v1/v2",
    ),
    (
        "kafka-v0",
        Container::KafkaV0,
        "Kafka LZ4 frame, message format v0 (old header checksum)",
    ),
    (
        "lz4-java",
        Container::Java,
        "lz4-java LZ4BlockOutputStream (Spark shuffle)",
    ),
    (
        "prefixed-le32",
        Container::Le32,
        "one block behind a little-endian u32 size (python-lz4, Cassandra)",
    ),
    (
        "prefixed-be32",
        Container::Be32,
        "one block behind a big-endian u32 size (Cassandra protocol v4)",
    ),
    (
        "prefixed-varint",
        Container::Varint,
        "one block behind a LEB128 varint32 size (RocksDB)",
    ),
    (
        "clickhouse",
        Container::ClickHouse,
        "ClickHouse compressed blocks (CityHash128 checked)",
    ),
    (
        "linux",
        Container::Linux,
        "legacy frame + u32 size trailer (Linux kernel images)",
    ),
    (
        "parquet-lz4",
        Container::ParquetLz4,
        "a Parquet LZ4 (codec 5) page: Hadoop framing; reads frames and raw blocks too",
    ),
    (
        "parquet-lz4-raw",
        Container::ParquetLz4Raw,
        "a Parquet LZ4_RAW (codec 7) page: one raw block",
    ),
];

impl Container {
    /// The container named `name`, if any.
    pub fn parse(name: &str) -> Option<Container> {
        NAMES
            .iter()
            .find(|(known, ..)| *known == name)
            .map(|&(_, container, _)| container)
    }

    /// The name `--container` takes for it.
    pub fn name(self) -> &'static str {
        NAMES
            .iter()
            .find(|(_, container, _)| *container == self)
            .map_or("?", |(name, ..)| name)
    }
}

/// `-z --container`: compresses the input into the container (streaming for the containers
/// of blocks).
pub fn compress(
    container: Container,
    reader: &mut impl Read,
    writer: &mut impl Write,
    settings: &Settings,
) -> io::Result<()> {
    // The containers of blocks: streamed through their encoders.
    match container {
        Container::Hadoop => {
            let mut encoder = hadoop::Encoder::new(writer);
            io::copy(reader, &mut encoder)?;
            return encoder.finish().map(drop);
        }
        Container::Kafka | Container::KafkaV0 => {
            let checksum = if container == Container::KafkaV0 {
                kafka::HeaderChecksum::OverMagic
            } else {
                kafka::HeaderChecksum::Spec
            };
            let mut encoder = kafka::Encoder::new(writer, checksum);
            io::copy(reader, &mut encoder)?;
            return encoder.finish().map(drop);
        }
        Container::Java => {
            let mut encoder =
                java::Encoder::new(writer, java::DEFAULT_BLOCK_SIZE).map_err(io::Error::other)?;
            io::copy(reader, &mut encoder)?;
            return encoder.finish().map(drop);
        }
        Container::ClickHouse => {
            let mut encoder = clickhouse::Encoder::new(writer, clickhouse::DEFAULT_BLOCK_SIZE)
                .map_err(io::Error::other)?;
            io::copy(reader, &mut encoder)?;
            return encoder.finish().map(drop);
        }
        _ => {}
    }
    let data = read_at_most(reader, block::MAX_INPUT_SIZE)?;
    let out = match container {
        Container::Le32 => prefixed::compress(&data, prefixed::SizePrefix::Le32),
        Container::Be32 => prefixed::compress(&data, prefixed::SizePrefix::Be32),
        Container::Varint => prefixed::compress(&data, prefixed::SizePrefix::Varint32),
        Container::ParquetLz4 => parquet::compress_lz4(&data),
        Container::ParquetLz4Raw => parquet::compress_lz4_raw(&data),
        _ => {
            // Linux, as the kernel build writes it: `lz4 -l` (at the chosen level), then the size.
            let mut out = Vec::new();
            compress_legacy(&mut &data[..], &mut out, settings)?;
            let size = u32::try_from(data.len()).map_err(io::Error::other)?;
            out.extend_from_slice(&size.to_le_bytes());
            Ok(out)
        }
    }
    .map_err(io::Error::other)?;
    writer.write_all(&out)
}

/// `-d --container`: decompresses the input, at most `max_out` bytes of content (`--max-out`)
/// whatever the container: a size field or block that would go past it is an error before its
/// content is written. Without `--max-out`, the streamed containers' content is not capped (each
/// block is held in memory: at most the block format's largest input), and the one-shot ones'
/// is the block format's largest input. Returns the content's length.
pub fn decompress(
    container: Container,
    reader: &mut impl Read,
    writer: &mut impl Write,
    max_out: Option<usize>,
) -> io::Result<u64> {
    let max_block = max_out.unwrap_or(block::MAX_INPUT_SIZE);
    let total = max_out.map_or(u64::MAX, |max_out| max_out as u64);
    let streamed = match container {
        Container::Hadoop => Some(io::copy(
            &mut hadoop::Decoder::new(&mut *reader, max_block).max_out(total),
            writer,
        )),
        Container::Kafka | Container::KafkaV0 => Some(io::copy(
            &mut kafka::Decoder::new(&mut *reader, kafka::AcceptHeaderChecksum::Either)
                .max_out(total),
            writer,
        )),
        Container::Java => Some(io::copy(
            &mut java::Decoder::new(&mut *reader, max_block).max_out(total),
            writer,
        )),
        Container::ClickHouse => Some(io::copy(
            &mut clickhouse::Decoder::new(&mut *reader, max_block).max_out(total),
            writer,
        )),
        _ => None,
    };
    if let Some(copied) = streamed {
        return copied.map_err(|error| name_the_cap(error, max_out));
    }
    let data = read_at_most(reader, max_block.saturating_mul(2).saturating_add(1 << 20))?;
    let content = match container {
        Container::Le32 => prefixed::decompress(&data, prefixed::SizePrefix::Le32, max_block),
        Container::Be32 => prefixed::decompress(&data, prefixed::SizePrefix::Be32, max_block),
        Container::Varint => prefixed::decompress(&data, prefixed::SizePrefix::Varint32, max_block),
        Container::ParquetLz4 => page_size(&data, max_block, true)
            .and_then(|size| parquet::decompress_lz4(&data, size, max_block)),
        Container::ParquetLz4Raw => page_size(&data, max_block, false)
            .and_then(|size| parquet::decompress_lz4_raw(&data, size, max_block)),
        _ => linux::decompress(&data, max_block),
    }
    .map_err(|error| name_the_cap(io::Error::other(error), max_out))?;
    writer.write_all(&content)?;
    Ok(content.len() as u64)
}

/// The uncompressed size of a Parquet page, which its page header holds outside the page's
/// bytes: what the bytes decode to, within `max_out`, in the first form of the `LZ4` codec's
/// rule that they are (Hadoop framing, an LZ4 frame, a raw block), or as a raw block (`LZ4_RAW`,
/// `hadoop_or_frame` false). The page is then decoded by the library's function for its codec,
/// which checks it against that size. When no form decodes, a form that failed only for the cap
/// is the error (the page is too large), else the raw block's.
fn page_size(data: &[u8], max_out: usize, hadoop_or_frame: bool) -> Result<usize, lz4_simd::Error> {
    let forms = [
        hadoop_or_frame.then(|| hadoop::decompress(data, max_out)),
        (hadoop_or_frame && data.starts_with(&frame::MAGIC.to_le_bytes()))
            .then(|| frame::decompress(data, max_out)),
        Some(block::decompress(data, max_out)),
    ];
    let mut errors = Vec::new();
    for decoded in forms.into_iter().flatten() {
        match decoded {
            Ok(content) => return Ok(content.len()),
            Err(error) => errors.push(error),
        }
    }
    let limit = errors
        .iter()
        .position(|error| error.kind() == lz4_simd::ErrorKind::LimitExceeded);
    Err(errors.swap_remove(limit.unwrap_or(errors.len() - 1)))
}

/// A container's content went past `--max-out`: the decoder's error, named as the command's cap
/// (reported as an error in the input, as decoders' errors are).
#[derive(Debug)]
pub struct OverMaxOut {
    max_out: usize,
    error: lz4_simd::Error,
}

impl std::fmt::Display for OverMaxOut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the content is larger than --max-out {}: {}",
            self.max_out, self.error
        )
    }
}

impl std::error::Error for OverMaxOut {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// A decoder's error as the command reports it: when the content went past `--max-out`, an
/// [`OverMaxOut`] that says so.
fn name_the_cap(error: io::Error, max_out: Option<usize>) -> io::Error {
    let limit = error
        .get_ref()
        .and_then(|inner| inner.downcast_ref::<lz4_simd::Error>())
        .filter(|inner| inner.kind() == lz4_simd::ErrorKind::LimitExceeded);
    match (max_out, limit) {
        (Some(max_out), Some(limit)) => io::Error::new(
            io::ErrorKind::InvalidData,
            OverMaxOut {
                max_out,
                error: limit.clone(),
            },
        ),
        _ => error,
    }
}

/// What `--list` can tell from a file's first bytes besides LZ4 frames: a Kafka v0 frame (an
/// LZ4 frame whose header checksum covers the magic number too, which the frame format refuses),
/// an lz4-java stream (its magic) or ClickHouse blocks (the first block's CityHash128 checks
/// out).
pub fn identify(head: &[u8]) -> Option<Container> {
    if kafka::header_checksum_of(head) == Some(kafka::HeaderChecksum::OverMagic) {
        return Some(Container::KafkaV0);
    }
    if head.starts_with(java::MAGIC) {
        return Some(Container::Java);
    }
    let header = head.get(clickhouse::CHECKSUM_LEN..clickhouse::CHECKSUM_LEN + 9)?;
    let size = usize::try_from(u32::from_le_bytes(header[1..5].try_into().ok()?)).ok()?;
    let method_known = header[0] == clickhouse::METHOD_LZ4 || header[0] == clickhouse::METHOD_NONE;
    // The size is untrusted: its sum may not fit a 32-bit `usize`.
    let end = clickhouse::CHECKSUM_LEN.checked_add(size)?;
    let block = head.get(clickhouse::CHECKSUM_LEN..end)?;
    (method_known && clickhouse::checksum(block)[..] == head[..clickhouse::CHECKSUM_LEN])
        .then_some(Container::ClickHouse)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_container_round_trips_and_is_named() {
        let settings = Settings::default();
        let data = b"container round trip, container round trip\n".repeat(5000);
        for &(name, container, _) in NAMES {
            assert_eq!(Container::parse(name), Some(container));
            assert_eq!(container.name(), name);
            let mut packed = Vec::new();
            compress(container, &mut &data[..], &mut packed, &settings).unwrap();
            let mut back = Vec::new();
            decompress(container, &mut &packed[..], &mut back, Some(data.len())).unwrap();
            assert!(back == data, "{name}");
            let expect_identified = matches!(
                container,
                Container::Java | Container::ClickHouse | Container::KafkaV0
            );
            assert_eq!(identify(&packed).is_some(), expect_identified, "{name}");
        }
        assert_eq!(Container::parse("zip"), None);
    }
}
