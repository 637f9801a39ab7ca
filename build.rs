//! Probes the compiler for optional features the library uses when present.

fn main() {
    // `core::hint::cold_path` (Rust 1.95) guides register allocation in the scalar decoder's
    // fast loop; older compilers build without the hint.
    let probe = autocfg::new();
    // (Probed through `std`, where autocfg's test crate finds it; the code calls `core`'s.)
    probe.emit_path_cfg("std::hint::cold_path", "has_cold_path");
    autocfg::rerun_path("build.rs");
}
