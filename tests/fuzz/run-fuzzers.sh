#!/usr/bin/env bash
# Runs every libFuzzer harness of tests/fuzz for a while, one after the other, each on a copy of
# its seed corpus, and prints per harness its executions, coverage (cov:/ft: of libFuzzer's last
# status line) and findings (crash/leak/timeout/oom files). Configures and builds the `fuzz`
# preset first if needed. Results stay in BUILD/fuzz-runs/<harness>/ (log, corpus, artifacts).
#
#   tests/fuzz/run-fuzzers.sh [--seconds S] [--build DIR] [HARNESS...]
#
# --seconds: per harness (default 3600); --build: the fuzz build directory (default build/fuzz).
# Exits non-zero if any harness had a finding.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
seconds=3600
build=$root/build/fuzz
harnesses=()
while [ $# -gt 0 ]; do
  case $1 in
    --seconds) seconds=$2; shift 2 ;;
    --build) build=$(realpath -m "$2"); shift 2 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) harnesses+=("$1"); shift ;;
  esac
done

if [ ! -f "$build/CMakeCache.txt" ]; then
  launcher=()
  if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  fi
  cmake -S "$root" -B "$build" --preset fuzz "${launcher[@]}" >/dev/null || exit 1
fi
cmake --build "$build" --target concorde_fuzzers -j "${JOBS:-2}" >/dev/null || exit 1

if [ ${#harnesses[@]} -eq 0 ]; then
  for source in "$here"/fuzz_*.cpp; do harnesses+=("$(basename "$source" .cpp)"); done
fi
export CONCORDE_PRESETS_DIR=$root/resources/presets
failed=0
for name in "${harnesses[@]}"; do
  "$here/run-one.sh" "$build/fuzz/$name" "$here/corpus/$name" "$build/fuzz-runs/$name" \
    "$seconds" || failed=1
done
exit $failed
