#!/usr/bin/env bash
# The API docs as docs.rs builds them (nightly, `--cfg docsrs`: the feature labels), every
# feature on, any rustdoc warning (a broken or private intra-doc link) an error.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! rustup toolchain list | grep -q '^nightly'; then
    rustup toolchain install nightly --profile minimal
fi
RUSTDOCFLAGS="-D warnings --cfg docsrs" cargo +nightly doc --no-deps --all-features -p lz4-simd
