#!/usr/bin/env bash
# lz4's own command-line tests, unchanged, against lz4-simd.
#
#   .ci/lz4-suite.sh LZ4_TREE BINARY [NAME ...]
#
# LZ4_TREE is a writable copy of lz4 1.10.0's sources in which `make -C tests datagen checkFrame`
# has been run (.ci/run prepares it under target/). Its tests are a test oracle, run from their
# own tree and never copied into this repository. BINARY is installed, as symbolic links, under
# the names the tests call (lz4, lz4cat, unlz4) at the head of PATH, beside lz4's datagen and
# checkFrame helpers.
#
# NAME selects tests by the middle of their file name (tests/test-lz4-NAME.sh; `list` is
# tests/test-lz4-list.py); without one, the eleven that lz4 1.10.0 passes itself run.
# The multi-gigabyte ones (fast-hugefile, and hc-hugefile: tests/test-lz4hc-hugefile.sh) run only
# when named. Each test runs in a folder of its own under a 600 s limit; a failure prints the
# end of its log. Exit status 0 when every test passed.
set -u
tree=$(cd "${1:?usage: lz4-suite.sh LZ4_TREE BINARY [NAME ...]}" && pwd)
binary=${2:?usage: lz4-suite.sh LZ4_TREE BINARY [NAME ...]}
shift 2
binary=$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")
[ -x "$binary" ] || { echo "lz4-suite.sh: not an executable: $binary" >&2; exit 2; }
for helper in datagen checkFrame; do
    [ -x "$tree/tests/$helper" ] || { echo "lz4-suite.sh: build $tree/tests/$helper first" >&2; exit 2; }
done

names=("$@")
if [ ${#names[@]} -eq 0 ]; then
    names=(basic dict sparse contentSize frame-concatenation multiple multiple-legacy skippable
        testmode opt-parser list)
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/lz4-suite.XXXXXX")
mkdir "$scratch/bin"
for name in lz4 lz4cat unlz4; do
    ln -s "$binary" "$scratch/bin/$name"
done
ln -s "$tree/tests/datagen" "$tree/tests/checkFrame" "$scratch/bin/"
export PATH="$scratch/bin:$PATH"

passed=0
failed=0
for name in "${names[@]}"; do
    run="$scratch/$name"
    mkdir -p "$run/tests"
    case $name in
    list)
        # The script runs ../lz4 from its folder.
        ln -s "$binary" "$run/lz4"
        script=test-lz4-list.py
        command=(python3 "./$script")
        ;;
    hc-hugefile)
        script=test-lz4hc-hugefile.sh
        command=(sh "./$script")
        ;;
    *)
        script=test-lz4-$name.sh
        command=(sh "./$script")
        ;;
    esac
    if [ ! -f "$tree/tests/$script" ]; then
        echo "FAIL  $name: no tests/$script in $tree"
        failed=$((failed + 1))
        continue
    fi
    cp "$tree/tests/$script" "$run/tests/"
    cp -r "$tree/tests/goldenSamples" "$run/tests/"
    started=$SECONDS
    if (cd "$run/tests" && timeout 600 "${command[@]}" >"$run/log" 2>&1 </dev/null); then
        echo "ok    $name ($((SECONDS - started)) s)"
        passed=$((passed + 1))
    else
        echo "FAIL  $name ($((SECONDS - started)) s), the end of $run/log:"
        tail -n 8 "$run/log" | cut -c1-200 | sed 's/^/      /'
        failed=$((failed + 1))
    fi
done
echo "lz4's command-line tests: $passed passed, $failed failed"
if [ "$failed" -eq 0 ]; then
    rm -rf "$scratch"
fi
[ "$failed" -eq 0 ]
