//! Nothing here: the tests are in `tests/kernels.rs`. This package exists so that Miri
//! (`.ci/miri.sh`) builds only `lz4-simd` and those tests, not `lz4-simd`'s dev-dependencies.
