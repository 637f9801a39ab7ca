#!/usr/bin/env bash
# liblz4's C ABI (capi/): build liblz4.so.1, liblz4.a and liblz4.pc with cargo-c, install them
# into a scratch folder, and check them:
#   - the package's own tests (the exports against liblz4 1.10 through lz4-sys);
#   - the soname, and the exported functions (`nm -D`) against those implemented in capi/src and
#     against liblz4 1.10's 112 (capi/abi/liblz4.symbols): the count and the ones still missing;
#   - a C program (capi/tests/c/smoke.c) built against the installed headers and library, by
#     pkg-config, round-tripping data; with lz4 1.10.0's sources (LZ4_SOURCES, or a lz4-1.10.0
#     folder beside the checkout, as .ci/run finds them) the same binary also runs on liblz4.so.1
#     built from them, and the two outputs (sizes and hashes of every result) must be identical;
#   - lz4 1.10.0's own test programs (decompress-partial, decompress-partial-usingDict,
#     roundTripTest, abiTest, checkFrame, fuzzer, frametest), built from those sources, and its
#     command line built against the library, through its own command-line tests.
# With cargo-c (`cargo cinstall`) the files are its install; without it (building cargo-c takes
# about 25 minutes on two cores) the same shared library is built by `cargo rustc` as a cdylib
# with the soname set, and installed by hand with the headers: the checks are the same, but for
# liblz4.a and liblz4.pc. CAPI_INSTALL_CARGO_C=1 installs cargo-c first (CARGO_C_VERSION: the last
# release for this toolchain).
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }
start=$(date +%s)

if [ "${CAPI_INSTALL_CARGO_C:-0}" = 1 ] && ! cargo cbuild --version >/dev/null 2>&1; then
    step "installing cargo-c"
    cargo install cargo-c --locked --version "${CARGO_C_VERSION:-0.10.24+cargo-0.98.0}"
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/lz4-capi.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
prefix=/usr/local
root="$scratch$prefix"

if cargo cbuild --version >/dev/null 2>&1; then
    with_cargo_c=1
    step "cargo cinstall (release) into a scratch folder"
    nice cargo cinstall -p lz4-simd-capi --release --prefix="$prefix" --libdir=lib --destdir="$scratch"
else
    with_cargo_c=0
    step "no cargo-c: the cdylib by cargo rustc, installed by hand into a scratch folder"
    nice cargo rustc -p lz4-simd-capi --release --features capi --crate-type cdylib -- \
        -C link-arg=-Wl,-soname,liblz4.so.1
    mkdir -p "$root/lib" "$root/include"
    cp target/release/liblz4_simd_capi.so "$root/lib/liblz4.so.1.10.0"
    ln -s liblz4.so.1.10.0 "$root/lib/liblz4.so.1"
    ln -s liblz4.so.1 "$root/lib/liblz4.so"
    cp capi/include/*.h "$root/include/"
fi
ls -l "$root/lib" "$root/include"
so="$root/lib/liblz4.so.1"
[ -e "$so" ] || { echo "capi.sh: no liblz4.so.1 installed" >&2; exit 1; }

step "soname"
soname=$(readelf -d "$so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
echo "$soname"
[ "$soname" = liblz4.so.1 ] || { echo "capi.sh: soname $soname" >&2; exit 1; }

step "exported functions"
nm -D --defined-only "$so" | awk '$2 == "T" && $3 ~ /^LZ4/ { print $3 }' | sort >"$scratch/exported"
grep -ohE 'extern "C" fn LZ4[A-Za-z0-9_]*' capi/src/*.rs | sed 's/.* fn //' | sort >"$scratch/implemented"
if ! diff "$scratch/implemented" "$scratch/exported"; then
    echo "capi.sh: the exports differ from the functions in capi/src (< source, > library)" >&2
    exit 1
fi
sort capi/abi/liblz4.symbols >"$scratch/abi"
extra=$(comm -23 "$scratch/exported" "$scratch/abi" | comm -23 - <(sort capi/abi/liblz4-tests-extra.symbols))
[ -z "$extra" ] || { echo "capi.sh: exports outside liblz4's ABI: $extra" >&2; exit 1; }
echo "$(comm -12 "$scratch/exported" "$scratch/abi" | wc -l) of $(wc -l <"$scratch/abi") liblz4 1.10 functions exported;" \
    "missing: $(comm -13 "$scratch/exported" "$scratch/abi" | tr '\n' ' ')"

step "the package's tests (against liblz4 through lz4-sys)"
# Every export against liblz4 1.10 on the same calls: results, output bytes and what the calls
# leave to the next. The package and its tests build at opt-level 1 (.cargo/config.toml), lz4-simd
# at 2: 12 s to build, 180 s to run on two busy cores, two thirds of it lz4frame.rs and
# lz4frame_dict.rs (the frame functions at every level, block size and mode, dictionaries of 0 to
# 100 000 bytes, HC 9 and 12 on 300 KB in both libraries).
nice cargo test -p lz4-simd-capi

step "C program against the installed library (pkg-config)"
if [ "$with_cargo_c" = 1 ]; then
    # The .pc file names the final prefix; the sysroot maps it into the scratch folder.
    export PKG_CONFIG_PATH="$root/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$scratch"
    pkg-config --modversion liblz4
    flags=$(pkg-config --cflags --libs liblz4)
else
    flags="-I$root/include -L$root/lib -llz4"
fi
# shellcheck disable=SC2086
cc -O1 -Wall -Wextra -Werror -Wno-deprecated-declarations -o "$scratch/smoke" capi/tests/c/smoke.c \
    $flags
readelf -d "$scratch/smoke" | grep -q 'Shared library: \[liblz4.so.1\]'
LD_LIBRARY_PATH="$root/lib" "$scratch/smoke" >"$scratch/ours.txt"
echo "smoke: $(wc -l <"$scratch/ours.txt") results, every round trip held"

if [ -z "${LZ4_SOURCES:-}" ]; then
    for dir in ../*/lz4-1.10.0 ../*/*/lz4-1.10.0; do
        if [ -f "$dir/lib/lz4.c" ]; then
            LZ4_SOURCES="$(cd "$dir" && pwd)"
            break
        fi
    done
fi
if [ -n "${LZ4_SOURCES:-}" ]; then
    step "the same program on liblz4.so.1 built from lz4 1.10.0's sources"
    mkdir "$scratch/peer"
    cp -r "$LZ4_SOURCES/lib" "$LZ4_SOURCES/Makefile.inc" "$scratch/peer/"
    chmod -R u+w "$scratch/peer"
    make -s -C "$scratch/peer/lib" clean >/dev/null
    make -s -j2 -C "$scratch/peer/lib" liblz4 >/dev/null
    LD_LIBRARY_PATH="$scratch/peer/lib" "$scratch/smoke" >"$scratch/peer.txt"
    head -1 "$scratch/peer.txt"
    diff "$scratch/peer.txt" "$scratch/ours.txt"
    echo "identical results: $(wc -l <"$scratch/ours.txt") lines"

    step "lz4 1.10.0's own test programs, built against the installed library"
    # Each compiles lz4's xxhash.c itself (as lz4's Makefile builds them) and includes only our
    # headers: xxhash.[ch] are copied apart from lz4's lib folder, so its lz4*.h cannot be found.
    # fullbench (which builds and links against the library) is a benchmark, not run here.
    tests="$scratch/lz4-tests"
    mkdir -p "$tests/xxhash"
    cp "$LZ4_SOURCES/lib/xxhash.c" "$LZ4_SOURCES/lib/xxhash.h" "$tests/xxhash/"
    for program in decompress-partial decompress-partial-usingDict roundTripTest abiTest checkFrame fuzzer \
        frametest; do
        # shellcheck disable=SC2086
        cc -O2 -I"$root/include" -I"$tests/xxhash" -I"$LZ4_SOURCES/programs" -o "$tests/$program" \
            "$LZ4_SOURCES/tests/$program.c" "$tests/xxhash/xxhash.c" $flags
        readelf -d "$tests/$program" | grep -q 'Shared library: \[liblz4.so.1\]'
    done
    export LD_LIBRARY_PATH="$root/lib"
    "$tests/decompress-partial"
    "$tests/decompress-partial-usingDict"
    # fuzzer: its unit tests (every block, stream and HC stream function, at levels 9 and 10; they
    # run when no seed is given, with one random test after them) and 1000 random tests of seed 1,
    # each every block function on one random input (11 s on two busy cores, 2000 took 23 s; the
    # package's tests above compare the same functions with liblz4 on chosen edges).
    "$tests/fuzzer" -i1 </dev/null | grep -a "unit tests completed"
    "$tests/fuzzer" -s1 -i1000 </dev/null | tail -c 120
    # frametest: its basic tests (every LZ4F function, dictionaries and custom allocators among
    # them) and 2000 random frame tests of seed 1 (about 4 s).
    "$tests/frametest" -s1 -i2000 </dev/null | tail -c 40
    # lz4 1.10.0's command line (programs/) built against the library passes lz4's own
    # command-line tests (.ci/lz4-suite.sh, with the helpers .ci/run built beside the reference).
    if [ -n "${LZ4_SIMD_LZ4_110:-}" ]; then
        lz4_tree="$(cd "$(dirname "$LZ4_SIMD_LZ4_110")/.." && pwd)"
        # shellcheck disable=SC2086
        cc -O2 -DLZ4IO_MULTITHREAD -pthread -I"$root/include" -I"$tests/xxhash" -o "$tests/lz4" \
            "$LZ4_SOURCES"/programs/*.c "$tests/xxhash/xxhash.c" $flags
        readelf -d "$tests/lz4" | grep -q 'Shared library: \[liblz4.so.1\]'
        "$tests/lz4" -V
        bash .ci/lz4-suite.sh "$lz4_tree" "$tests/lz4"
    fi
    # roundTripTest at levels 1 and 9, and 0 (a level chosen from the
    # file's first bytes), on every corpus file (generated data without the corpus).
    inputs=()
    if [ -n "${LZ4_SIMD_CORPUS:-}" ]; then
        for zip in "$LZ4_SIMD_CORPUS"/*.zip; do
            unzip -q -o -d "$tests/corpus" "$zip"
        done
        inputs=("$tests"/corpus/*)
    fi
    if [ -n "${LZ4_SIMD_LZ4_110:-}" ]; then
        datagen="$(dirname "$LZ4_SIMD_LZ4_110")/../tests/datagen"
        "$datagen" -g5M -P50 >"$tests/generated"
        inputs+=("$tests/generated")
    fi
    for input in "${inputs[@]}"; do
        for level in -1 -9 -0; do
            "$tests/roundTripTest" "$level" "$input"
        done
        "$tests/abiTest" "$input" >/dev/null
        echo "roundTripTest -1 -9 -0, abiTest: $(basename "$input") ok"
    done
    # checkFrame (each block but a frame's last holds exactly the block size) on two frames of
    # each block size lz4 1.10's command line writes, independent, linked and with block
    # checksums. (Its test_custom_block_sizes.sh also asks for -B32 and the like, which lz4 1.10
    # writes as 64 KiB blocks: checkFrame rejects those on liblz4 1.10 as well.)
    if [ -n "${LZ4_SIMD_LZ4_110:-}" ]; then
        "$datagen" -g1234567 >"$tests/f1"
        "$datagen" -g1234567 -s2 >"$tests/f2"
        for id in 4 5 6 7; do
            for mode in -BI -BD -BX; do
                "$LZ4_SIMD_LZ4_110" -q -f -B"$id" "$mode" "$tests/f1" "$tests/f1.lz4"
                "$LZ4_SIMD_LZ4_110" -q -f -B"$id" "$mode" --content-size "$tests/f2" "$tests/f2.lz4"
                cat "$tests/f1.lz4" "$tests/f2.lz4" >"$tests/both.lz4"
                "$tests/checkFrame" -B$((1 << (2 * id + 8))) -b"$id" "$tests/both.lz4" >/dev/null
            done
        done
        echo "checkFrame: 4 block sizes, independent, linked and checksummed blocks ok"
    fi
    unset LD_LIBRARY_PATH
else
    echo "no lz4 1.10.0 sources (LZ4_SOURCES): the comparison with liblz4 and lz4's test programs are skipped"
fi

echo "capi.sh: passed in $(($(date +%s) - start)) s"
