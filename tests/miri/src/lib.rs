//! Nothing here: the tests are in `tests/kernels.rs`. This package exists so that Miri
//! (`.ci/miri.sh`) builds only `lz4-simd`, the test kit without its features (no liblz4, no
//! corpus) and those tests, not `lz4-simd`'s dev-dependencies.
