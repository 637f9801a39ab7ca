#!/usr/bin/env bash
# The library's tests on a 32-bit target (i686, `usize` = 32 bits) under user-mode QEMU.
#
# 32-bit targets are where sizes overflow: `255 × input` or a `max_out` of `usize::MAX` exceed
# `isize::MAX`, and a reservation of that size panics ("capacity overflow") unless it is made
# fallibly (tests/alloc/block.rs holds the regressions). i686 is x86 but not x86_64, so no SIMD
# kernel is compiled in: this is also the build of the `unsafe` feature without a kernel.
#
# The target is i686-unknown-linux-gnu rather than -musl: the tests' C dependencies (liblz4
# through lz4-sys, alloca through iai-callgrind) need a C cross compiler, and Debian ships one
# for i686 glibc (gcc-i686-linux-gnu), none for i686 musl. Installs what it needs if missing.
# Builds optimised with debug assertions and overflow checks on (as .ci/neon.sh).
#
# Skipped:
# - `kernel_env_override` (it re-executes the test binary, which under user-mode QEMU without
#   binfmt_misc the kernel may refuse; tests/block/decoder_api.rs's child test takes the runner
#   from LZ4_SIMD_TEST_RUNNER instead) and the peers (the lz4 CLI and python-lz4 run on the host).
# - The fast compressor against liblz4 on inputs of 65,547 bytes and more: liblz4 built for a
#   32-bit target switches to its `byPtr` hash table there (lz4.c: `sizeof(void*)==4`), whose
#   output differs from its 64-bit `byU32` output, which is the output we reproduce (on every
#   target). Smaller inputs, HC and every decoder are compared as on x86_64. The same holds for
#   dest-size compression (tests/block/dest_size.rs: large inputs and Silesia pages) and for
#   every dictionary/stream comparison (tests/block/dict_prepared.rs): streams always use the u32
#   table, and 32-bit liblz4 hashes 4 bytes there where 64-bit liblz4 hashes 5 (lz4.c,
#   LZ4_hashPosition: `sizeof(reg_t)==8`), so its bytes differ even for a 1 KiB input.
#   tests/block/dict_prepared.rs's round trips and edge cases (forms_and_edges) still run; so do
#   tests/stream/adversarial.rs's decoder and foreign-history tests (its other tests compare
#   stream bytes with liblz4's), and tests/block/edges.rs's stream-decoder and kernel tests (its
#   dictionary-message tests compare bytes with liblz4's, as does tests/block/dict_prepared.rs's
#   tiny-dictionary test). So do the linked frames of streamed updates against LZ4F's
#   (tests/frame/lz4f_updates.rs, and tests/frame/format.rs's and tests/frame/sans_io.rs's
#   streamed-frame tests, whose linked frames of smaller writes are LZ4F's prefix-mode streams).
# - `output_cap_is_enforced_before_allocating`: it expects a 2^40-byte declared content size to
#   pass a `usize::MAX` cap, true only on 64-bit (on 32-bit the frame is refused by the cap).
# - The frame compressor's sweeps across the give-up edge and through resets
#   (tests/frame/give_up_edge.rs, tests/frame/reset.rs): 64 KiB blocks, sizes far from 32-bit
#   limits, the same code as on x86_64; about a third of tests/frame's time under emulation.
set -euo pipefail
cd "$(dirname "$0")/.."

TARGET=i686-unknown-linux-gnu
export CARGO_TERM_COLOR=never
export CARGO_TARGET_DIR="${I686_TARGET_DIR:-${CARGO_TARGET_DIR:-target}/i686}"
started=$SECONDS
step() { printf '\n=== i686: %s (%ss)\n' "$*" "$((SECONDS - started))"; }

step "install"
if ! command -v i686-linux-gnu-gcc >/dev/null 2>&1 || ! command -v qemu-i386-static >/dev/null 2>&1 \
    || [ ! -e /usr/i686-linux-gnu/lib/ld-linux.so.2 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq gcc-i686-linux-gnu qemu-user-static >/dev/null
fi
if ! rustup target list --installed | grep -qx "$TARGET"; then
    rustup target add "$TARGET"
fi
i686-linux-gnu-gcc --version | head -n 1
qemu-i386-static --version | head -n 1

runner="qemu-i386-static -L /usr/i686-linux-gnu"
export CARGO_TARGET_I686_UNKNOWN_LINUX_GNU_LINKER=i686-linux-gnu-gcc
export CARGO_TARGET_I686_UNKNOWN_LINUX_GNU_RUNNER="$runner"
export LZ4_SIMD_TEST_RUNNER="$runner"
export CC_i686_unknown_linux_gnu=i686-linux-gnu-gcc
export AR_i686_unknown_linux_gnu=i686-linux-gnu-ar
export CARGO_PROFILE_RELEASE_DEBUG_ASSERTIONS=true
export CARGO_PROFILE_RELEASE_OVERFLOW_CHECKS=true
export CARGO_PROFILE_RELEASE_LTO=false
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16
export CARGO_PROFILE_RELEASE_DEBUG=0
# The random and hostile kernel sweeps (tests/kernels/) on a quarter of their debug-build blocks:
# every test still runs on every kernel, under emulation.
export LZ4_SIMD_TEST_SAMPLE=4

step "lint for $TARGET: the unsafe feature without a SIMD kernel, and the safe build"
cargo clippy -p lz4-simd --target "$TARGET" -- -D warnings
cargo clippy -p lz4-simd --target "$TARGET" --no-default-features --features std -- -D warnings

# The library's unit tests and the test binaries, each named: not tests/parallel (the `parallel`
# feature is off here, so it would hold only its feature check) nor tests/frame_async (it needs
# the features tokio and futures-io).
tests=(--lib --test alloc --test block --test container --test frame --test hc --test kernels
    --test stream)

step "build tests for $TARGET"
cargo test -p lz4-simd -p lz4-simd-tests --no-default-features --features std,unsafe,containers --release --target "$TARGET" "${tests[@]}" --no-run

step "run tests under qemu-i386"
cargo test -p lz4-simd -p lz4-simd-tests --no-default-features --features std,unsafe,containers --release --target "$TARGET" "${tests[@]}" --no-fail-fast -- \
    --skip kernel_env_override --skip lz4_cli_frames_decode_with_ours_and_match_bytes \
    --skip our_frames_decode_with_lz4_cli --skip python_lz4_interop \
    --skip prefixed_blocks_with_python_lz4 --skip kafka_frames_with_kafka_python \
    --skip clickhouse_blocks_with_clickhouse_cityhash --skip lz4_java_block_streams \
    --skip rocksdb_varint_blocks_with_rocksdict \
    --skip table_type_switches_at_65547_bytes --skip compress_matches_liblz4_around_table_switch \
    --skip compress_matches_liblz4_4mib --skip compress_matches_liblz4_silesia_whole_files \
    --skip compress_into_exact_bound_and_reused_compressor \
    --skip compress_into_small_dst_gives_same_bytes_or_output_too_small \
    --skip output_cap_is_enforced_before_allocating \
    --skip sampled_destination_sizes_on_large_inputs --skip silesia_pages \
    --skip identical_to_load_dict_and_continue --skip every_acceleration_and_large_ones \
    --skip identical_to_attach_dictionary --skip large_inputs_and_silesia \
    --skip one_dictionary_shared_by_threads --skip exact_and_too_small_destinations \
    --skip compress_into_matches_continue_with_save_dict \
    --skip compress_into_with_dictionaries_matches_load_dict \
    --skip contiguous_slices_match_prefix_mode --skip give_ups_keep_liblz4s_half_done_table \
    --skip contiguous_slices_after_a_loaded_history_match_prefix_mode \
    --skip saved_history_then_contiguous_slices --skip slow_dictionary_matches_load_dict_slow \
    --skip linked_frames_match_lz4f_streaming --skip prepared_dictionary_frames_match_lz4f_cdict \
    --skip contiguous_layout_every_capacity --skip acceleration_extremes \
    --skip dictionary_every_capacity --skip dictionary_window_edge \
    --skip matches_at_the_window_edge_across_blocks --skip reset_mid_contiguous_stream \
    --skip saved_layout_every_capacity --skip tiny_and_empty_blocks \
    --skip tiny_dictionaries_as_liblz4_and_lz4f --skip dictionary_messages_around_4_kib_are_liblz4s \
    --skip random_dictionary_messages_through_one_compressor \
    --skip streamed_frames_are_lz4fs_for_the_same_updates \
    --skip the_io_encoder_writes_lz4fs_frames_for_its_writes \
    --skip streamed_frames_equal_one_shot_frames \
    --skip the_compressor_writes_the_one_shot_bytes_for_every_slicing \
    --skip fused_checksum_frames_equal_lz4f --skip fused_checksum_across_large_blocks \
    --skip updates_ending_in_tiny_blocks --skip give_up_edge:: --skip reset::

step "done"
