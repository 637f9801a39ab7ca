//! The built-in sample data for `bench`: the test kit's generator (`testkit::samples::builtin`:
//! English-like text, log lines, JSON records, byte runs and random bytes, the same bytes on every
//! run), which the library's benches measure too when the Silesia corpus is absent.

/// The built-in samples, `len` bytes each, as (name, data).
pub use testkit::samples::builtin as generated;
