//! CI runs the README's `cargo test` with `LZ4_SIMD_REQUIRE_PARALLEL=1`: the parallel frame
//! tests (every file `#![cfg(feature = "parallel")]`) must then have been built with the feature,
//! which the workspace enables through the CLI's dependency. Without it they would compile to
//! no tests and pass, silently.
//!
//! Run: `LZ4_SIMD_REQUIRE_PARALLEL=1 cargo test --test parallel feature::` (at the workspace).

#[test]
fn the_parallel_tests_run_where_ci_requires_them() {
    if std::env::var_os("LZ4_SIMD_REQUIRE_PARALLEL").is_some_and(|value| value == "1") {
        let built_with_parallel = cfg!(feature = "parallel");
        assert!(
            built_with_parallel,
            "LZ4_SIMD_REQUIRE_PARALLEL=1 but lz4-simd was built without the parallel feature"
        );
    }
}
