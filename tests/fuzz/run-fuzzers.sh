#!/usr/bin/env bash
# Runs every libFuzzer harness of tests/fuzz for a while, one after the other, each on a copy of
# its seed corpus, and prints per harness its executions, coverage (cov:/ft: of libFuzzer's last
# status line) and findings (crash/leak/timeout/oom files). Configures and builds the `fuzz`
# preset first if needed. Results stay in BUILD/fuzz-runs/<harness>/ (log, corpus, artifacts).
#
#   tests/fuzz/run-fuzzers.sh [--seconds S] [--cpu-seconds C] [--lanes N] [--build DIR] [HARNESS...]
#
# --seconds: wall time per harness (default 3600); --cpu-seconds: end each harness once it has
# used C seconds of CPU instead (run-one.sh's FUZZ_CPU_SECONDS; the wall limit becomes 4 × C),
# which is what makes runs comparable on a shared machine; --lanes: run N harnesses at a time,
# each lane taking the next harness of the list (default 1); --build: the fuzz build directory
# (default build/fuzz). Per harness, /usr/bin/time -v's report goes to RUN_DIR/time.txt (peak
# RSS). Exits non-zero if any harness had a finding.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
seconds=3600
cpu_seconds=0
lanes=1
build=$root/build/fuzz
harnesses=()
while [ $# -gt 0 ]; do
  case $1 in
    --seconds) seconds=$2; shift 2 ;;
    --cpu-seconds) cpu_seconds=$2; shift 2 ;;
    --lanes) lanes=$2; shift 2 ;;
    --build) build=$(realpath -m "$2"); shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
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
if [ "$cpu_seconds" -gt 0 ]; then
  export FUZZ_CPU_SECONDS=$cpu_seconds
  seconds=$((4 * cpu_seconds))
fi
timer=()
[ -x /usr/bin/time ] && timer=(/usr/bin/time -v -o)

# The lanes share one queue: a lane takes the next harness under a lock, so lanes stay busy
# when harnesses take different times.
queue=$(mktemp -d)
trap 'rm -rf "$queue"' EXIT
printf '%s\n' "${harnesses[@]}" >"$queue/list"
lane() {
  local failed=0 name
  while :; do
    name=$(flock "$queue/lock" sh -c 'head -n 1 "$1"; sed -i 1d "$1"' sh "$queue/list")
    [ -n "$name" ] || break
    local run=$build/fuzz-runs/$name
    local time_args=()
    [ ${#timer[@]} -gt 0 ] && time_args=("${timer[@]}" "$queue/$name.time")
    "${time_args[@]}" "$here/run-one.sh" "$build/fuzz/$name" "$here/corpus/$name" "$run" \
      "$seconds" || failed=1
    [ -f "$queue/$name.time" ] && mv "$queue/$name.time" "$run/time.txt"
  done
  return $failed
}
pids=()
for ((l = 0; l < lanes; l++)); do
  lane &
  pids+=($!)
done
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
exit $failed
