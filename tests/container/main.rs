//! LZ4 inside other systems' formats (feature `containers`), in one test binary.
//!
//! - `hostile`: every container decoder on truncated, flipped and lying input, within its cap.
//! - `stream`: the streaming adapters against the one-shot functions.
//! - `kernel_padding`: Linux images (legacy frames) with zero padding after and between them,
//!   against a model of the kernel's reading loop.
//! - `interop`, `parquet`: the containers against their real implementations (python-lz4, the
//!   Cassandra driver, RocksDB, kafka-python, clickhouse-cityhash, lz4-java, pyarrow), through
//!   `peers` (`peers/containers.py`, `peers/Lz4BlockPeer.java`).
//!
//! The binary installs `testkit::alloc::LargestAllocation` (it records the largest allocation per
//! thread and changes nothing else), which `hostile` and `stream` measure with.

use testkit::alloc::LargestAllocation;

#[global_allocator]
static ALLOCATOR: LargestAllocation = LargestAllocation;

mod hostile;
mod interop;
mod kernel_padding;
mod parquet;
mod peers;
mod stream;
