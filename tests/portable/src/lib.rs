//! Nothing here: the tests are in `tests/`. This package exists so that the tests that need
//! neither liblz4 nor processes build against the `no_std` library alone and run on targets
//! without a C toolchain (wasm32-wasip1 under node, `.ci/wasm.sh`).
