#!/usr/bin/env python3
"""Real peers for tests/container_*.rs: each command reads its input from stdin and writes its
output to stdout, using the third-party implementation of a container.

  serve                                   the commands below, one request after another on stdin
                                          (see serve()): the modules are imported once
  check                                   exit 0 when every module below imports
  prefixed-compress le32|be32             python-lz4 lz4.block.compress (store_size), the BE form by
                                          moving python-lz4's size to big-endian
  prefixed-decompress le32|be32           python-lz4 lz4.block.decompress
  prefixed-compress|decompress cassandra  the Cassandra driver's own LZ4 frame body compression
                                          (cassandra-driver, protocol <= v4: BE u32 size + block)
  kafka-compress v0|v1                    kafka-python's kafka.codec.lz4_encode_old_kafka / lz4_encode
  kafka-decompress v0|v1                  kafka-python's kafka.codec.lz4_decode_old_kafka / lz4_decode
  clickhouse-compress BLOCK_SIZE          ClickHouse blocks: python-lz4 raw blocks, clickhouse-cityhash
                                          CityHash128 written as clickhouse-driver writes it
  clickhouse-decompress                   the same, read back (checksums verified)
  parquet-write PATH CODEC ROWS SEED [PAGE_SIZE]
                                          pyarrow writes a file (no dictionary, one page size)
  parquet-read PATH                       pyarrow reads PATH and prints the table's hash
  rocksdb-sst PATH ENTRIES                RocksDB (rocksdict) writes an SST file of LZ4 blocks:
                                          keys key00000.., values "value NNNNN " repeated
"""

import hashlib
import io
import struct
import sys


def read_stdin():
    return sys.stdin.buffer.read()


def write_stdout(data):
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def cassandra_lz4():
    from cassandra.connection import locally_supported_compressions

    return locally_supported_compressions["lz4"]


def prefixed_compress(kind, data):
    import lz4.block

    if kind == "cassandra":
        return cassandra_lz4()[0](data)

    out = lz4.block.compress(data, store_size=True)
    if kind == "be32":
        out = struct.pack(">I", len(data)) + out[4:]
    return out


def prefixed_decompress(kind, data):
    import lz4.block

    if kind == "cassandra":
        return cassandra_lz4()[1](data)

    if kind == "be32":
        data = struct.pack("<I", struct.unpack(">I", data[:4])[0]) + data[4:]
    return lz4.block.decompress(data)


def kafka_codec(cmd, version, data):
    from kafka import codec

    if cmd == "compress":
        return codec.lz4_encode_old_kafka(data) if version == "v0" else codec.lz4_encode(data)
    return codec.lz4_decode_old_kafka(data) if version == "v0" else codec.lz4_decode(data)


def cityhash128_bytes(data):
    from clickhouse_cityhash.cityhash import CityHash128

    value = CityHash128(data)
    # clickhouse-driver's write_binary_uint128.
    return struct.pack("<QQ", (value >> 64) & (2**64 - 1), value & (2**64 - 1))


def clickhouse_compress(block_size, data):
    import lz4.block

    out = io.BytesIO()
    for start in range(0, max(len(data), 1), block_size):
        chunk = data[start : start + block_size]
        if not chunk and data:
            break
        if not data:
            break
        compressed = lz4.block.compress(chunk, store_size=False)
        body = b"\x82" + struct.pack("<II", len(compressed) + 9, len(chunk)) + compressed
        out.write(cityhash128_bytes(body) + body)
    return out.getvalue()


def clickhouse_decompress(data):
    import lz4.block

    out = io.BytesIO()
    pos = 0
    while pos < len(data):
        checksum = data[pos : pos + 16]
        method = data[pos + 16]
        compressed_size, size = struct.unpack("<II", data[pos + 17 : pos + 25])
        body = data[pos + 16 : pos + 16 + compressed_size]
        if cityhash128_bytes(body) != checksum:
            sys.exit("clickhouse checksum mismatch at %d" % pos)
        if method != 0x82:
            sys.exit("unexpected method %#x" % method)
        out.write(lz4.block.decompress(body[9:], uncompressed_size=size))
        pos += 16 + compressed_size
    return out.getvalue()


def parquet_table(rows, seed):
    import random

    import pyarrow as pa

    rng = random.Random(seed)
    words = [b"alpha", b"beta", b"gamma", b"delta", b"parquet", b"lz4", b"hadoop"]
    text = [b" ".join(rng.choice(words) for _ in range(rng.randint(0, 12))) for _ in range(rows)]
    numbers = [rng.randint(0, 1000) * 7 for _ in range(rows)]
    noise = [rng.randbytes(rng.randint(0, 40)) for _ in range(rows)]
    return pa.table({"text": text, "numbers": numbers, "noise": noise})


def parquet_write(path, codec, rows, seed, page_size):
    import pyarrow.parquet as pq

    pq.write_table(
        parquet_table(rows, seed),
        path,
        compression=codec,
        use_dictionary=False,
        data_page_size=page_size,
        write_statistics=False,
        data_page_version="1.0",
    )


def parquet_read(path):
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    digest = hashlib.sha256()
    for column in table.columns:
        for value in column.to_pylist():
            digest.update(repr(value).encode())
    return (digest.hexdigest() + "\n").encode()


def rocksdb_sst(path, entries):
    from rocksdict import DBCompressionType, Options, SstFileWriter

    options = Options()
    options.set_compression_type(DBCompressionType.lz4())
    writer = SstFileWriter(options=options)
    writer.open(path)
    for i in range(entries):
        writer[b"key%05d" % i] = b"value %05d " % i * 8
    writer.finish()


def run(argv, data):
    """One command (argv[0] is the command's name), `data` its input; returns its output."""
    cmd = argv[0]
    if cmd == "check":
        import cassandra.connection  # noqa: F401
        import clickhouse_cityhash.cityhash  # noqa: F401
        import kafka.codec  # noqa: F401
        import lz4.block  # noqa: F401
        import pyarrow.parquet  # noqa: F401
        import rocksdict  # noqa: F401
        import xxhash  # noqa: F401
        return b""
    if cmd == "prefixed-compress":
        return prefixed_compress(argv[1], data)
    if cmd == "prefixed-decompress":
        return prefixed_decompress(argv[1], data)
    if cmd in ("kafka-compress", "kafka-decompress"):
        return kafka_codec(cmd.split("-")[1], argv[1], data)
    if cmd == "clickhouse-compress":
        return clickhouse_compress(int(argv[1]), data)
    if cmd == "clickhouse-decompress":
        return clickhouse_decompress(data)
    if cmd == "parquet-write":
        page_size = int(argv[5]) if len(argv) > 5 else 1 << 20
        parquet_write(argv[1], argv[2], int(argv[3]), int(argv[4]), page_size)
        return b""
    if cmd == "parquet-read":
        return parquet_read(argv[1])
    if cmd == "rocksdb-sst":
        rocksdb_sst(argv[1], int(argv[2]))
        return b""
    raise ValueError("unknown command " + cmd)


def read_exact(stream, n):
    data = b""
    while len(data) < n:
        chunk = stream.read(n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def serve():
    """Runs commands until stdin ends, so that the modules are imported once. A request is the
    number of words (u32 LE), each word (u32 LE length, UTF-8), then the input (u32 LE length,
    bytes); the answer a status byte (0: done, 1: failed), then the output or the error's text
    (u32 LE length, bytes)."""
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    while True:
        head = read_exact(stdin, 4)
        if head is None:
            return
        argv = []
        for _ in range(struct.unpack("<I", head)[0]):
            (n,) = struct.unpack("<I", read_exact(stdin, 4))
            argv.append(read_exact(stdin, n).decode())
        (n,) = struct.unpack("<I", read_exact(stdin, 4))
        data = read_exact(stdin, n) if n else b""
        try:
            status, out = 0, run(argv, data)
        except BaseException as e:  # noqa: BLE001 (any failure is the request's answer)
            status, out = 1, ("%s: %r" % (type(e).__name__, e)).encode()
        stdout.write(struct.pack("<BI", status, len(out)) + out)
        stdout.flush()


def main(argv):
    if argv[1] == "serve":
        serve()
    else:
        write_stdout(run(argv[1:], read_stdin()))


if __name__ == "__main__":
    main(sys.argv)
