# best-of.sh — sourced by the shell benchmarks (tracer_bench.sh, warmup_cost.sh).
#
# best_of N COMMAND...: prints "WALL CPU" (seconds) of the run with the best wall time of N runs,
# CPU = user + system time of every process of the run. Each run's output goes to
# $WORK/last.out and $WORK/last.err; a failing run stops the benchmark, naming $BENCH_NAME.
# BEST_OF_PREFIX (an array, may be empty) is put before every run, e.g. a clean environment.
[ -n "${BEST_OF_PREFIX+x}" ] || BEST_OF_PREFIX=()
best_of() {
  local n=$1 best="" line
  shift
  for ((i = 0; i < n; i++)); do
    "${BEST_OF_PREFIX[@]}" /usr/bin/time -f '%e %U %S' -o "$WORK/time" "$@" \
      >"$WORK/last.out" 2>"$WORK/last.err" || {
      echo "$BENCH_NAME: failed: $*" >&2
      tail -n 5 "$WORK/last.err" >&2
      exit 1
    }
    line=$(awk '{ printf "%.3f %.3f", $1, $2 + $3 }' "$WORK/time")
    if [ -z "$best" ] || awk -v t="${line%% *}" -v b="${best%% *}" 'BEGIN { exit !(t < b) }'; then
      best=$line
    fi
  done
  echo "$best"
}
