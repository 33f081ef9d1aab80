#!/usr/bin/env bash
# Installs the Debian 12 packages the fuzzers (tests/fuzz, the `fuzz` preset) need on top of
# packaging/install-deps.sh: clang 14 and its compiler-rt (libclang_rt.fuzzer, ASan, UBSan).
# Idempotent: packages already present are skipped, and apt is not touched when nothing is missing.
# Works as root or through sudo.
set -euo pipefail

PACKAGES=(
  # the compiler, and compiler-rt: libFuzzer (libclang_rt.fuzzer*) and the sanitizer runtimes
  clang libclang-rt-14-dev
  # making the seed corpora (tests/fuzz/make-corpus.sh): zstd frames and database blobs
  zstd sqlite3
)

exec bash "$(dirname "$0")/apt-install-missing.sh" install-fuzz-deps "${PACKAGES[@]}"
