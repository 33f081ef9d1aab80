#!/usr/bin/env bash
# CI step for the fuzzers: installs clang and libFuzzer (packaging/install-fuzz-deps.sh),
# configures and builds the `fuzz` preset (only the libraries the harnesses link), and runs
# `ctest --preset fuzz`: every harness for CONCORDE_FUZZ_SECONDS (default 20) on a copy of its
# seed corpus. Ends with ctest's summary; exits non-zero on any finding.
#
#   tests/fuzz/ci-fuzz.sh   (from anywhere; uses ccache when it is installed)
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
bash packaging/install-fuzz-deps.sh

launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake --preset fuzz "${launcher[@]}" \
  -DCONCORDE_FUZZ_SECONDS="${CONCORDE_FUZZ_SECONDS:-20}" >/dev/null
cmake --build --preset fuzz -j "${JOBS:-2}"
ctest --preset fuzz
