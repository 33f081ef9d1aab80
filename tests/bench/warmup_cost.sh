#!/usr/bin/env bash
# warmup_cost.sh — what the functional warm-up costs (docs/design.md §5, issue 16 targets):
#   1. tracing with the default functional warm-up (10M instructions before every region) costs
#      at most 3x tracing the same regions without it (--functional-warmup 0);
#   2. a region's warm state is at most a fifth of the size of the equivalent detailed warm-up
#      (the same instructions recorded as warm-up records in the .ctrace);
#   3. simulating or analysing a region from its warm state costs at most 1.5x the same region
#      cold (`concorde simulate` and `concorde bounds`, whole commands).
# A benchmark, not a test: it is not registered with CTest. Prints Markdown for BENCHMARKS.md.
#
#   tests/bench/warmup_cost.sh [--repeat N] [--workload NAME] [--regions K] [--baseline BUILD]
#
# --baseline BUILD also times the tracer of another build directory (its bin/concorde, run without
# --functional-warmup) in the same rounds: the issue compares with the tracing of its day, i.e.
# a build of the commit before the functional warm-up existed (ff844f3).
# The workload (default gzip, 16 regions of 100k + 20k warm-up) comes from data/workloads; CPU
# seconds are user + system of every process of a run, from the run with the best wall time of
# N (default 3); the runs with and without functional warm-up alternate, so that both see the
# same load. Environment: BUILD (default <repo>/build), CONCORDE_WORKLOAD_INPUTS.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=$(cd "${BUILD:-$ROOT/build}" && pwd)
export CONCORDE=$BUILD/bin/concorde
REPEAT=3
WORKLOAD=gzip
REGIONS=16
FUNCTIONAL=10000000
BASELINE=""
while [ $# -gt 0 ]; do
  case $1 in
    --repeat) REPEAT=$2; shift 2 ;;
    --workload) WORKLOAD=$2; shift 2 ;;
    --regions) REGIONS=$2; shift 2 ;;
    --baseline) BASELINE=$(cd "$2" && pwd)/bin/concorde; shift 2 ;;
    *) sed -n '2,20s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&2; exit 2 ;;
  esac
done
[ -x "$CONCORDE" ] || { echo "warmup_cost: build concorde and ctrace first ($CONCORDE)" >&2; exit 1; }
[ -z "$BASELINE" ] || [ -x "$BASELINE" ] || { echo "warmup_cost: no baseline concorde at $BASELINE" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "warmup_cost: /usr/bin/time is needed (package time)" >&2; exit 1; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/warmup-cost-XXXXXX")
trap 'rm -rf "$WORK"' EXIT
TRACE="$ROOT/data/workloads/trace-workload.sh"

BENCH_NAME=warmup_cost
# shellcheck source=best-of.sh
source "$ROOT/tests/bench/best-of.sh"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
verdict() { awk -v r="$1" -v t="$2" 'BEGIN { print (r <= t) ? "met" : "NOT met" }'; }

echo "warmup_cost: $WORKLOAD, $REGIONS regions, best of $REPEAT" >&2
# The detailed-warm-up trace first: it also generates the workload inputs, outside any timing.
"$TRACE" "$WORKLOAD" "$WORK/detailed.ctrace" --regions "$REGIONS" \
  --warmup $((20000 + FUNCTIONAL)) --functional-warmup 0 >/dev/null
COLD=(--regions "$REGIONS" --warmup 20000 --functional-warmup 0)
WARM=(--regions "$REGIONS" --warmup 20000 --functional-warmup "$FUNCTIONAL")
# Cold and warm runs alternate, round after round, so that both see the same load on a shared
# machine; each keeps its best round.
better() { # better "WALL CPU" "WALL CPU": the one with the lower wall time
  if [ -z "$2" ] || awk -v a="${1%% *}" -v b="${2%% *}" 'BEGIN { exit !(a < b) }'; then
    echo "$1"
  else
    echo "$2"
  fi
}
trace_base="" trace_cold="" trace_warm="" sim_cold="" sim_warm="" bnd_cold="" bnd_warm=""
for ((round = 0; round < REPEAT; round++)); do
  trace_cold=$(better "$(best_of 1 "$TRACE" "$WORKLOAD" "$WORK/cold.ctrace" "${COLD[@]}")" "$trace_cold")
  trace_warm=$(better "$(best_of 1 "$TRACE" "$WORKLOAD" "$WORK/warm.ctrace" "${WARM[@]}")" "$trace_warm")
  if [ -n "$BASELINE" ]; then
    trace_base=$(better "$(best_of 1 env CONCORDE="$BASELINE" "$TRACE" "$WORKLOAD" "$WORK/base.ctrace" \
      --regions "$REGIONS" --warmup 20000)" "$trace_base")
  fi
done
read -r t_cold c_cold <<<"$trace_cold"
read -r t_warm c_warm <<<"$trace_warm"
state_bytes=$(grep -aoE 'summarised in [0-9]+ bytes' "$WORK/last.out" | grep -oE '[0-9]+' | tail -n 1 || true)
[ -n "$state_bytes" ] || state_bytes=$(( $(stat -c %s "$WORK/warm.ctrace") - $(stat -c %s "$WORK/cold.ctrace") ))
cold_bytes=$(stat -c %s "$WORK/cold.ctrace")
warm_bytes=$(stat -c %s "$WORK/warm.ctrace")
detailed_bytes=$(stat -c %s "$WORK/detailed.ctrace")
detailed_warmup_bytes=$((detailed_bytes - cold_bytes))

for ((round = 0; round < REPEAT; round++)); do
  sim_cold=$(better "$(best_of 1 "$CONCORDE" simulate "$WORK/cold.ctrace" --preset n1-like)" "$sim_cold")
  sim_warm=$(better "$(best_of 1 "$CONCORDE" simulate "$WORK/warm.ctrace" --preset n1-like)" "$sim_warm")
  bnd_cold=$(better "$(best_of 1 "$CONCORDE" bounds "$WORK/cold.ctrace" --preset n1-like)" "$bnd_cold")
  bnd_warm=$(better "$(best_of 1 "$CONCORDE" bounds "$WORK/warm.ctrace" --preset n1-like)" "$bnd_warm")
done
read -r t_sim_cold c_sim_cold <<<"$sim_cold"
read -r t_sim_warm c_sim_warm <<<"$sim_warm"
read -r t_bnd_cold c_bnd_cold <<<"$bnd_cold"
read -r t_bnd_warm c_bnd_warm <<<"$bnd_warm"

r_trace=$(ratio "$t_warm" "$t_cold")
r_trace_cpu=$(ratio "$c_warm" "$c_cold")
r_size=$(ratio "$state_bytes" "$detailed_warmup_bytes")
r_sim=$(ratio "$c_sim_warm" "$c_sim_cold")
r_bnd=$(ratio "$c_bnd_warm" "$c_bnd_cold")
cat <<EOT
Workload: \`$WORKLOAD\` of data/workloads, $REGIONS regions of 100k measured + 20k detailed
warm-up instructions; functional warm-up $FUNCTIONAL instructions per region. Best wall time of
$REPEAT runs; CPU = user + system of all processes. Load average after: $(cut -d' ' -f1-3 /proc/loadavg).

| what | without functional warm-up | with it | ratio | target | |
|---|---:|---:|---:|---:|---|
| \`concorde trace\` wall s | $t_cold | $t_warm | ${r_trace}× | ≤ 3× | $(verdict "$r_trace" 3) |
| \`concorde trace\` CPU s (tracer + concorde) | $c_cold | $c_warm | ${r_trace_cpu}× | — | |
| warm state bytes vs the same warm-up recorded in detail ($detailed_warmup_bytes bytes) | — | $state_bytes | ${r_size}× | ≤ 0.2× | $(verdict "$r_size" 0.2) |
| .ctrace bytes | $cold_bytes | $warm_bytes | $(ratio "$warm_bytes" "$cold_bytes")× | — | |
| \`concorde simulate --preset n1-like\` CPU s | $c_sim_cold | $c_sim_warm | ${r_sim}× | ≤ 1.5× | $(verdict "$r_sim" 1.5) |
| \`concorde bounds --preset n1-like\` CPU s | $c_bnd_cold | $c_bnd_warm | ${r_bnd}× | ≤ 1.5× | $(verdict "$r_bnd" 1.5) |
EOT
if [ -n "$BASELINE" ]; then
  read -r t_base c_base <<<"$trace_base"
  r_base=$(ratio "$t_warm" "$t_base")
  r_base_cpu=$(ratio "$c_warm" "$c_base")
  cat <<EOT
| \`concorde trace\` wall s, the baseline tracer ($BASELINE) against the default | $t_base | $t_warm | ${r_base}× | ≤ 3× | $(verdict "$r_base" 3) |
| \`concorde trace\` CPU s, the baseline tracer against the default | $c_base | $c_warm | ${r_base_cpu}× | — | |
EOT
fi
