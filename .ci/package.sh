#!/usr/bin/env bash
# Packaging checks for the published crates, run by .ci/run (about 1-2 minutes once the toolchains
# are installed):
# - the licence texts are present in each crate that is or will be published;
# - `cargo package --list -p lz4-simd` holds only the library's sources, build.rs, the manifest,
#   the README, the changelog and the licences (and the files cargo adds itself);
# - `cargo package --list -p lz4-simd-cli` holds the tool's sources, its build script, the
#   generator of its manual and completions, the manifest, its README and the licences;
# - `cargo publish --dry-run -p lz4-simd` raises no warning;
# - the `rust` examples of README.md and docs/*.md compile and run (`rustdoc --test` on the
#   Markdown files; the README's also run as doctests of the crate);
# - the library builds with the declared minimum Rust version (`rust-version`), with default
#   features and with `parallel`.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never

fail() { printf 'package.sh: %s\n' "$*" >&2; exit 1; }
note() { printf '\n=== package.sh: %s (%ss)\n' "$*" "$SECONDS"; }

note "licence files"
# The crates to be published: the library (.) and the command-line tool (cli).
for crate in . cli; do
    for file in LICENSE-MIT LICENSE-APACHE; do
        [ -s "$crate/$file" ] || fail "$crate/$file is missing or empty"
    done
    grep -q '^license = "MIT OR Apache-2.0"$' "$crate/Cargo.toml" \
        || fail "$crate/Cargo.toml does not declare license = \"MIT OR Apache-2.0\""
done
grep -q '^ *Apache License$' LICENSE-APACHE && grep -q 'END OF TERMS AND CONDITIONS' LICENSE-APACHE \
    || fail "LICENSE-APACHE is not the whole Apache License 2.0 text"
grep -q '^MIT License$' LICENSE-MIT || fail "LICENSE-MIT is not the MIT licence text"
echo "ok: LICENSE-MIT and LICENSE-APACHE in . and cli"

note "the lz4-simd package's files"
list=$(cargo package --list -p lz4-simd --allow-dirty 2>/dev/null)
# What the package may hold: the files cargo writes itself (.cargo_vcs_info.json, the normalised
# Cargo.toml and the original, Cargo.lock) and the include list of Cargo.toml.
allowed='^(src/.+\.rs|build\.rs|Cargo\.toml|Cargo\.toml\.orig|Cargo\.lock|\.cargo_vcs_info\.json|README\.md|CHANGELOG\.md|LICENSE-MIT|LICENSE-APACHE)$'
extra=$(grep -Ev "$allowed" <<<"$list" || true)
[ -z "$extra" ] || fail "the package holds files outside the allowed set:
$extra"
for required in src/lib.rs build.rs Cargo.toml README.md CHANGELOG.md LICENSE-MIT LICENSE-APACHE; do
    grep -qx "$required" <<<"$list" || fail "the package lacks $required"
done
echo "ok: $(wc -l <<<"$list") files, all in the allowed set"

note "the lz4-simd-cli package's files"
# Listed without resolving its dependencies: packaging it in full (and its dry run) needs lz4-simd
# 0.2.0 on crates.io, so the tool is published after the library (docs/cli.md).
list=$(cargo package --list -p lz4-simd-cli --allow-dirty 2>/dev/null)
allowed='^(src/.+\.rs|build\.rs|examples/generate\.rs|Cargo\.toml|Cargo\.toml\.orig|Cargo\.lock|\.cargo_vcs_info\.json|README\.md|LICENSE-MIT|LICENSE-APACHE)$'
extra=$(grep -Ev "$allowed" <<<"$list" || true)
[ -z "$extra" ] || fail "the lz4-simd-cli package holds files outside the allowed set:
$extra"
for required in src/main.rs src/options.rs build.rs examples/generate.rs Cargo.toml README.md LICENSE-MIT LICENSE-APACHE; do
    grep -qx "$required" <<<"$list" || fail "the lz4-simd-cli package lacks $required"
done
echo "ok: $(wc -l <<<"$list") files, all in the allowed set"

note "cargo publish --dry-run -p lz4-simd"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
cargo publish --dry-run -p lz4-simd --allow-dirty >"$log" 2>&1 || { cat "$log"; fail "cargo publish --dry-run failed"; }
# No warning at all: the library's manifest names no test, bench or example (they are the
# unpublished package tests/Cargo.toml), and its profiles name no other package. The dry run's own
# notice aside.
unexpected=$(grep -E '^warning:' "$log" | grep -Ev '^warning: aborting upload due to dry run$' || true)
if [ -n "$unexpected" ]; then
    cat "$log"
    fail "cargo publish --dry-run warned:
$unexpected"
fi
echo "ok: cargo publish --dry-run -p lz4-simd gave no warning"

note "the examples in README.md and docs/*.md (rustdoc --test)"
# The library with its default features, as a user gets it; the path of its rlib from cargo.
rlib=$(cargo build -p lz4-simd --lib --message-format=json 2>/dev/null | python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "lz4_simd" and "lib" in m["target"]["kind"]:
        print(next(f for f in m["filenames"] if f.endswith(".rlib")))
')
[ -n "$rlib" ] || fail "no rlib for lz4-simd"
deps="$(dirname "$rlib")/deps"
for doc in README.md docs/*.md; do
    # liblz4's facts quote C logic in Rust-like sketches, not examples of this crate's API.
    [ "$doc" = docs/liblz4-stream-facts.md ] && continue
    grep -q '^```rust$' "$doc" || continue
    rustdoc --edition 2021 --test "$doc" -L "dependency=$deps" --extern "lz4_simd=$rlib" \
        --cfg 'feature="default"' --cfg 'feature="std"' --cfg 'feature="unsafe"' --cfg 'feature="containers"' \
        >"$log" 2>&1 || { cat "$log"; fail "the examples of $doc"; }
    grep '^test result' "$log" | sed "s|^|$doc: |"
done

msrv=$(sed -n 's/^rust-version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
[ -n "$msrv" ] || fail "no rust-version in Cargo.toml"
note "the library with Rust $msrv (rust-version), default features and --features parallel"
if ! rustup toolchain list | grep -q "^$msrv"; then
    rustup toolchain install "$msrv" --profile minimal
fi
cargo "+$msrv" --version
# Only the library: the dev-dependencies (criterion, proptest, tokio, ...) are not built, so their
# own minimum versions do not count here.
cargo "+$msrv" build --locked -p lz4-simd --lib
cargo "+$msrv" build --locked -p lz4-simd --lib --features parallel
echo "ok: lz4-simd builds with Rust $msrv"
