//! Parquet pages against pyarrow (Arrow C++), both ways.
//!
//! pyarrow writes the same table three times: uncompressed, with `LZ4` (Arrow writes Hadoop
//! framing for codec 5) and with `LZ4_RAW`. A small Thrift compact-protocol reader (test-only,
//! below) walks the footer and the page headers; every compressed page decodes with ours to the
//! bytes of the same page of the uncompressed file. The other way, the uncompressed file is
//! rewritten with our `compress_lz4` / `compress_lz4_raw` pages (new page headers, column chunk
//! offsets and sizes, footer) and pyarrow must read it back to the same table.
#![cfg(feature = "containers")]

use crate::peers;

use lz4_simd::container::parquet;
use peers::{peer_missing, python, python_peers, scratch_dir};

const CAP: usize = 64 << 20;
const CODEC_UNCOMPRESSED: i64 = 0;
const CODEC_LZ4: i64 = 5;
const CODEC_LZ4_RAW: i64 = 7;

// ---- A Thrift compact-protocol reader and writer, just enough for Parquet's metadata --------

#[derive(Debug, Clone, PartialEq)]
enum Value {
    Bool(bool),
    /// The compact type code (3 i8, 4 i16, 5 i32, 6 i64) and the value.
    Int(u8, i64),
    Double(u64),
    Binary(Vec<u8>),
    /// Element type code and elements.
    List(u8, Vec<Value>),
    Struct(Vec<(i16, Value)>),
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> u8 {
        let byte = self.bytes[self.pos];
        self.pos += 1;
        byte
    }

    fn uvarint(&mut self) -> u64 {
        let mut value = 0u64;
        let mut shift = 0;
        loop {
            let byte = self.byte();
            value |= u64::from(byte & 0x7F) << shift;
            if byte & 0x80 == 0 {
                return value;
            }
            shift += 7;
        }
    }

    fn zigzag(&mut self) -> i64 {
        let value = self.uvarint();
        (value >> 1) as i64 ^ -((value & 1) as i64)
    }

    fn value(&mut self, kind: u8) -> Value {
        match kind {
            1 => Value::Bool(true),
            2 => Value::Bool(false),
            3 => Value::Int(3, self.byte() as i8 as i64),
            4..=6 => Value::Int(kind, self.zigzag()),
            7 => {
                let bytes: [u8; 8] = self.bytes[self.pos..self.pos + 8].try_into().unwrap();
                self.pos += 8;
                Value::Double(u64::from_le_bytes(bytes))
            }
            8 => {
                let len = self.uvarint() as usize;
                let bytes = self.bytes[self.pos..self.pos + len].to_vec();
                self.pos += len;
                Value::Binary(bytes)
            }
            9 | 10 => {
                let header = self.byte();
                let elem = header & 0x0F;
                let len = match header >> 4 {
                    15 => self.uvarint() as usize,
                    len => len as usize,
                };
                let items = (0..len)
                    .map(|_| match elem {
                        1 | 2 => Value::Bool(self.byte() == 1),
                        _ => self.value(elem),
                    })
                    .collect();
                Value::List(elem, items)
            }
            12 => self.structure(),
            _ => panic!("thrift type {kind} not supported by the test reader"),
        }
    }

    fn structure(&mut self) -> Value {
        let mut fields = Vec::new();
        let mut last = 0i16;
        loop {
            let header = self.byte();
            if header == 0 {
                return Value::Struct(fields);
            }
            let delta = header >> 4;
            let id = if delta == 0 {
                self.zigzag() as i16
            } else {
                last + i16::from(delta)
            };
            last = id;
            fields.push((id, self.value(header & 0x0F)));
        }
    }
}

/// Parses one Thrift struct at the start of `bytes`: the value and its length.
fn parse_struct(bytes: &[u8]) -> (Value, usize) {
    let mut reader = Reader { bytes, pos: 0 };
    let value = reader.structure();
    (value, reader.pos)
}

fn write_uvarint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

fn type_code(value: &Value) -> u8 {
    match value {
        Value::Bool(true) => 1,
        Value::Bool(false) => 2,
        Value::Int(code, _) => *code,
        Value::Double(_) => 7,
        Value::Binary(_) => 8,
        Value::List(..) => 9,
        Value::Struct(_) => 12,
    }
}

fn write_value(out: &mut Vec<u8>, value: &Value) {
    match value {
        Value::Bool(_) => {}
        Value::Int(3, v) => out.push(*v as u8),
        Value::Int(_, v) => write_uvarint(out, ((v << 1) ^ (v >> 63)) as u64),
        Value::Double(bits) => out.extend_from_slice(&bits.to_le_bytes()),
        Value::Binary(bytes) => {
            write_uvarint(out, bytes.len() as u64);
            out.extend_from_slice(bytes);
        }
        Value::List(elem, items) => {
            if items.len() < 15 {
                out.push((items.len() as u8) << 4 | elem);
            } else {
                out.push(0xF0 | elem);
                write_uvarint(out, items.len() as u64);
            }
            for item in items {
                match item {
                    Value::Bool(b) => out.push(if *b { 1 } else { 2 }),
                    _ => write_value(out, item),
                }
            }
        }
        Value::Struct(fields) => {
            let mut last = 0i16;
            for (id, field) in fields {
                let code = type_code(field);
                if *id > last && id - last <= 15 {
                    out.push(((id - last) as u8) << 4 | code);
                } else {
                    out.push(code);
                    write_uvarint(out, ((i64::from(*id) << 1) ^ (i64::from(*id) >> 63)) as u64);
                }
                last = *id;
                write_value(out, field);
            }
            out.push(0);
        }
    }
}

impl Value {
    fn field(&self, id: i16) -> Option<&Value> {
        match self {
            Value::Struct(fields) => fields.iter().find(|(i, _)| *i == id).map(|(_, v)| v),
            _ => None,
        }
    }

    fn field_mut(&mut self, id: i16) -> Option<&mut Value> {
        match self {
            Value::Struct(fields) => fields.iter_mut().find(|(i, _)| *i == id).map(|(_, v)| v),
            _ => None,
        }
    }

    fn int(&self, id: i16) -> Option<i64> {
        match self.field(id) {
            Some(Value::Int(_, v)) => Some(*v),
            _ => None,
        }
    }

    fn set_int(&mut self, id: i16, value: i64) {
        match self.field_mut(id) {
            Some(Value::Int(_, v)) => *v = value,
            _ => panic!("no integer field {id}"),
        }
    }

    fn list(&self, id: i16) -> &[Value] {
        match self.field(id) {
            Some(Value::List(_, items)) => items,
            _ => panic!("no list field {id}"),
        }
    }
}

impl Value {
    fn list_mut(&mut self, id: i16) -> &mut Vec<Value> {
        match self.field_mut(id) {
            Some(Value::List(_, items)) => items,
            _ => panic!("no list field {id}"),
        }
    }

    fn remove(&mut self, id: i16) {
        if let Value::Struct(fields) = self {
            fields.retain(|(i, _)| *i != id);
        }
    }

    fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        write_value(&mut out, self);
        out
    }
}

// ---- Parquet files: footer, column chunks, pages ---------------------------------------------

struct Page {
    header: Value,
    payload: std::ops::Range<usize>,
}

struct Chunk {
    codec: i64,
    pages: Vec<Page>,
}

/// The file's metadata (Thrift `FileMetaData`).
fn footer(file: &[u8]) -> Value {
    assert_eq!(&file[..4], b"PAR1");
    assert_eq!(&file[file.len() - 4..], b"PAR1");
    let len = u32::from_le_bytes(file[file.len() - 8..file.len() - 4].try_into().unwrap()) as usize;
    let start = file.len() - 8 - len;
    let (meta, parsed) = parse_struct(&file[start..file.len() - 8]);
    assert_eq!(parsed, len, "footer length");
    meta
}

/// Every column chunk of every row group, with its pages (header and payload range).
fn chunks(file: &[u8]) -> Vec<Chunk> {
    let meta = footer(file);
    let mut chunks = Vec::new();
    for row_group in meta.list(4) {
        for column in row_group.list(1) {
            let md = column.field(3).expect("ColumnChunk.meta_data");
            let start = md.int(11).unwrap_or(i64::MAX).min(md.int(9).unwrap()) as usize;
            let end = start + md.int(7).unwrap() as usize;
            let mut pages = Vec::new();
            let mut pos = start;
            while pos < end {
                let (header, len) = parse_struct(&file[pos..]);
                let compressed = header.int(3).unwrap() as usize;
                pages.push(Page {
                    header,
                    payload: pos + len..pos + len + compressed,
                });
                pos += len + compressed;
            }
            assert_eq!(pos, end, "pages cover the column chunk");
            chunks.push(Chunk {
                codec: md.int(4).unwrap(),
                pages,
            });
        }
    }
    chunks
}

type Compress = fn(&[u8]) -> Vec<u8>;

/// `plain` (an uncompressed file) with every page compressed by `compress` and the codec set to
/// `codec`: new page headers, column chunk offsets and sizes, and footer.
fn rewrite(plain: &[u8], codec: i64, compress: Compress) -> Vec<u8> {
    let mut meta = footer(plain);
    let mut out = b"PAR1".to_vec();
    for row_group in meta.list_mut(4) {
        let mut row_group_start = None;
        let mut row_group_size = 0;
        for column in row_group.list_mut(1) {
            for unsupported in [4, 5, 6, 7] {
                assert!(
                    column.field(unsupported).is_none(),
                    "page index or crypto present"
                );
            }
            let md = column.field_mut(3).unwrap();
            for unsupported in [10, 14] {
                assert!(
                    md.field(unsupported).is_none(),
                    "index page or bloom filter present"
                );
            }
            assert_eq!(md.int(4), Some(CODEC_UNCOMPRESSED));
            let start = md.int(11).unwrap_or(i64::MAX).min(md.int(9).unwrap()) as usize;
            let end = start + md.int(7).unwrap() as usize;
            let chunk_start = out.len();
            row_group_start.get_or_insert(chunk_start);
            let (mut first_data, mut first_dict) = (None, None);
            let mut pos = start;
            while pos < end {
                let (mut header, len) = parse_struct(&plain[pos..]);
                let size = header.int(3).unwrap() as usize;
                let compressed = compress(&plain[pos + len..pos + len + size]);
                header.set_int(3, compressed.len() as i64);
                header.remove(4); // a CRC of the compressed bytes
                match header.int(1).unwrap() {
                    2 => first_dict.get_or_insert(out.len()),
                    _ => first_data.get_or_insert(out.len()),
                };
                out.extend_from_slice(&header.to_bytes());
                out.extend_from_slice(&compressed);
                pos += len + size;
            }
            md.set_int(4, codec);
            md.set_int(7, (out.len() - chunk_start) as i64);
            md.set_int(9, first_data.unwrap() as i64);
            if let Some(dict) = first_dict {
                md.set_int(11, dict as i64);
            }
            row_group_size += out.len() - chunk_start;
            column.set_int(2, chunk_start as i64);
        }
        if row_group.field(5).is_some() {
            row_group.set_int(5, row_group_start.unwrap() as i64);
        }
        if row_group.field(6).is_some() {
            row_group.set_int(6, row_group_size as i64);
        }
    }
    let footer = meta.to_bytes();
    out.extend_from_slice(&footer);
    out.extend_from_slice(&(footer.len() as u32).to_le_bytes());
    out.extend_from_slice(b"PAR1");
    out
}

/// The tables: (rows, seed, data page size). The last has pages above Hadoop's 261 100-byte
/// chunk, so our pages hold several Hadoop blocks.
const TABLES: [(usize, u64, usize); 3] =
    [(1, 1, 1 << 20), (5_000, 2, 8 << 10), (60_000, 3, 4 << 20)];

fn write_table(
    dir: &std::path::Path,
    name: &str,
    codec: &str,
    table: (usize, u64, usize),
) -> Vec<u8> {
    let path = dir.join(name);
    let (rows, seed, page_size) = table;
    let args = [
        "parquet-write",
        path.to_str().unwrap(),
        codec,
        &rows.to_string(),
        &seed.to_string(),
        &page_size.to_string(),
    ];
    python(&args, &[]).unwrap();
    std::fs::read(path).unwrap()
}

#[test]
fn pyarrow_pages_decode_with_ours() {
    if !python_peers() {
        return peer_missing(
            "python3 with lz4, kafka-python, clickhouse-cityhash, xxhash, pyarrow, cassandra-driver",
        );
    }
    let dir = scratch_dir("parquet-read");
    let mut pages_seen = 0;
    for table in TABLES {
        let plain = write_table(&dir, "plain.parquet", "none", table);
        let plain_chunks = chunks(&plain);
        // pyarrow 26 writes LZ4_RAW for both names (older Arrow wrote Hadoop-framed `LZ4`).
        for codec_name in ["lz4", "lz4_raw"] {
            let file = write_table(&dir, "compressed.parquet", codec_name, table);
            let compressed_chunks = chunks(&file);
            assert_eq!(compressed_chunks.len(), plain_chunks.len());
            for (chunk, plain_chunk) in compressed_chunks.iter().zip(&plain_chunks) {
                assert!([CODEC_LZ4, CODEC_LZ4_RAW].contains(&chunk.codec));
                assert_eq!(chunk.pages.len(), plain_chunk.pages.len());
                for (page, plain_page) in chunk.pages.iter().zip(&plain_chunk.pages) {
                    let size = page.header.int(2).unwrap() as usize;
                    let expected = &plain[plain_page.payload.clone()];
                    assert_eq!(size, expected.len());
                    let payload = &file[page.payload.clone()];
                    if chunk.codec == CODEC_LZ4 {
                        // Arrow writes Hadoop framing: one block, one chunk, for the page.
                        assert_eq!(payload[..4], (size as u32).to_be_bytes());
                    } else {
                        let decoded = parquet::decompress_lz4_raw(payload, size, CAP)
                            .unwrap_or_else(|e| panic!("{table:?} {codec_name}: {e}"));
                        assert!(decoded == expected, "{table:?} {codec_name}: page differs");
                    }
                    // Under codec 5 the same bytes are old parquet-cpp's bare-block form, the
                    // rule's last step.
                    let decoded = parquet::decompress_lz4(payload, size, CAP)
                        .unwrap_or_else(|e| panic!("{table:?} {codec_name} as LZ4: {e}"));
                    assert!(
                        decoded == expected,
                        "{table:?} {codec_name} as LZ4: page differs"
                    );
                    // A cap below the page size is refused before decoding.
                    if size > 0 {
                        assert!(parquet::decompress_lz4(payload, size, size - 1).is_err());
                    }
                    pages_seen += 1;
                }
            }
        }
    }
    assert!(pages_seen > 20, "only {pages_seen} pages");
}

#[test]
fn our_pages_read_with_pyarrow() {
    if !python_peers() {
        return peer_missing(
            "python3 with lz4, kafka-python, clickhouse-cityhash, xxhash, pyarrow, cassandra-driver",
        );
    }
    let dir = scratch_dir("parquet-write");
    let mut multi_block_pages = 0;
    for table in TABLES {
        let plain = write_table(&dir, "plain.parquet", "none", table);
        let plain_path = dir.join("plain.parquet");
        let expected = python(&["parquet-read", plain_path.to_str().unwrap()], &[]).unwrap();
        let forms: [(&str, i64, Compress); 2] = [
            ("lz4", CODEC_LZ4, |page| {
                parquet::compress_lz4(page).unwrap()
            }),
            ("lz4_raw", CODEC_LZ4_RAW, |page| {
                parquet::compress_lz4_raw(page).unwrap()
            }),
        ];
        for (name, codec, compress) in forms {
            let ours = rewrite(&plain, codec, compress);
            let path = dir.join(format!("ours-{name}.parquet"));
            std::fs::write(&path, &ours).unwrap();
            let read = python(&["parquet-read", path.to_str().unwrap()], &[])
                .unwrap_or_else(|e| panic!("{table:?} {name}: pyarrow rejects our file: {e}"));
            assert_eq!(
                read, expected,
                "{table:?} {name}: pyarrow reads a different table"
            );
            // And ours reads our file back.
            for (chunk, plain_chunk) in chunks(&ours).iter().zip(&chunks(&plain)) {
                for (page, plain_page) in chunk.pages.iter().zip(&plain_chunk.pages) {
                    let size = page.header.int(2).unwrap() as usize;
                    if codec == CODEC_LZ4 && size > lz4_simd::container::hadoop::MAX_CHUNK_INPUT {
                        multi_block_pages += 1;
                    }
                    let decoded =
                        parquet::decompress_lz4(&ours[page.payload.clone()], size, CAP).unwrap();
                    assert!(decoded == plain[plain_page.payload.clone()]);
                }
            }
        }
    }
    // Arrow read pages of several Hadoop blocks.
    assert!(multi_block_pages > 0);
}
