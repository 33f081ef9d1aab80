#!/usr/bin/env bash
# tracer_bench.sh — speed of `concorde trace` (docs/design.md §12): the tracer must be at least 5x faster
# than `valgrind --tool=lackey --trace-mem=yes` on the same run, and fast-forwarding at least 10x
# faster than tracing. A benchmark, not a test: it is not registered with CTest.
#
#   tests/bench/tracer_bench.sh [--repeat N] [--kbytes K]
#
# The workload is `gzip -6 -c` on the first K kB (default 400, about 100 M instructions) of the
# generated text of data/workloads/make-inputs.sh. Every run uses the same minimal environment, so
# all of them execute the same instructions. Each run's wall-clock and CPU seconds (user + system
# of all its processes) are taken from the best of N runs (default 3; lackey runs once, it is
# slow). Measured:
#   native      gzip alone
#   nulgrind    valgrind --tool=none (Valgrind's own floor)
#   trace 50M   concorde trace --length 50000000 (the first 50 M traced, the rest fast-forwarded)
#   trace all   concorde trace, the whole run
#   tool alone  the ctrace Valgrind tool writing its raw stream to /dev/null, without concorde
#   fast-fwd    concorde trace --skip (run - 100000) --length 1000: the whole run fast-forwarded
#   lackey      valgrind --tool=lackey --trace-mem=yes --log-file=/dev/null, the whole run
# The result is printed as Markdown for BENCHMARKS.md.
#
# Environment: BUILD (default <repo>/build), CONCORDE_WORKLOAD_INPUTS (reuse generated inputs).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
CONCORDE=$BUILD/bin/concorde
REPEAT=3
KBYTES=400
while [ $# -gt 0 ]; do
  case $1 in
    --repeat) REPEAT=$2; shift 2 ;;
    --kbytes) KBYTES=$2; shift 2 ;;
    *) sed -n '2,11s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&2; exit 2 ;;
  esac
done
[ -x "$CONCORDE" ] || { echo "tracer_bench: build concorde and ctrace first ($CONCORDE)" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "tracer_bench: valgrind is not installed" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "tracer_bench: /usr/bin/time is needed (package time)" >&2; exit 1; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/tracer-bench-XXXXXX")
trap 'rm -rf "$WORK"' EXIT
INPUTS=${CONCORDE_WORKLOAD_INPUTS:-$WORK/inputs}
bash "$ROOT/data/workloads/make-inputs.sh" "$INPUTS" >/dev/null
head -c $((KBYTES * 1000)) "$INPUTS/text.txt" >"$WORK/input.txt"
PROGRAM=(/usr/bin/gzip -6 -c "$WORK/input.txt")


BEST_OF_PREFIX=(env -i PATH=/usr/bin:/bin LC_ALL=C)
BENCH_NAME=tracer_bench
# shellcheck source=best-of.sh
source "$ROOT/tests/bench/best-of.sh"

traced_counts() { # "N M" from concorde's "traced N instructions (of M executed)"
  grep -aoE 'traced [0-9]+ instructions \(of [0-9]+ executed\)' "$WORK/last.out" | tail -n 1 |
    sed -E 's/traced ([0-9]+) instructions \(of ([0-9]+) executed\)/\1 \2/'
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
echo "tracer_bench: workload: gzip -6 -c on ${KBYTES} kB of generated text; best of $REPEAT" >&2
read -r t_native c_native < <(best_of "$REPEAT" "${PROGRAM[@]}")
read -r t_none c_none < <(best_of "$REPEAT" valgrind --tool=none -q "${PROGRAM[@]}")

read -r t_all c_all < <(best_of "$REPEAT" "$CONCORDE" trace -o "$WORK/all.ctrace" --functional-warmup 0 -- "${PROGRAM[@]}")
read -r traced_all total < <(traced_counts)
trace_bytes=$(stat -c %s "$WORK/all.ctrace")
rm -f "$WORK/all.ctrace"

read -r t_tool c_tool < <(best_of "$REPEAT" env VALGRIND_LIB="$BUILD/lib/concorde-valgrind" \
  valgrind --tool=ctrace -q --ctrace-out=/dev/null "${PROGRAM[@]}")

read -r t_50m c_50m < <(best_of "$REPEAT" "$CONCORDE" trace -o "$WORK/50m.ctrace" --functional-warmup 0 --length 50000000 -- "${PROGRAM[@]}")
read -r traced_50m _ < <(traced_counts)
rm -f "$WORK/50m.ctrace"

skip=$((total - 100000))
read -r t_ff c_ff < <(best_of "$REPEAT" "$CONCORDE" trace -o "$WORK/ff.ctrace" --functional-warmup 0 --skip "$skip" --length 1000 -- "${PROGRAM[@]}")
read -r traced_ff total_ff < <(traced_counts)

echo "tracer_bench: lackey --trace-mem=yes (one run, about a minute)..." >&2
read -r t_lackey c_lackey < <(best_of 1 valgrind --tool=lackey --trace-mem=yes --log-file=/dev/null "${PROGRAM[@]}")

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / b }'; }
rate() { awk -v n="$1" -v t="$2" 'BEGIN { printf "%.1f", n / t / 1e6 }'; }
verdict() { awk -v r="$1" -v t="$2" 'BEGIN { print (r >= t) ? "met" : "NOT met" }'; }

r_lackey=$(ratio "$t_lackey" "$t_all")
r_lackey_cpu=$(ratio "$c_lackey" "$c_all")
r_ff=$(ratio "$t_all" "$t_ff")
r_ff_cpu=$(ratio "$c_all" "$c_ff")
bytes_per_instr=$(awk -v b="$trace_bytes" -v n="$traced_all" 'BEGIN { printf "%.2f", b / n }')
cat <<EOF
Workload: \`gzip -6 -c\` on ${KBYTES} kB of generated text (\`data/workloads/make-inputs.sh\`,
\`text.txt\`), ${total} instructions per run. Wall-clock and CPU (user + system, all processes)
seconds of the run with the best wall time of ${REPEAT} (lackey: one run). Load average before
the runs: ${load_before}; after: $(cut -d' ' -f1-3 /proc/loadavg).

| run | command | wall s | CPU s | M instr/s (wall) | wall vs native |
|---|---|---:|---:|---:|---:|
| native | \`gzip -6 -c input\` | ${t_native} | ${c_native} | $(rate "$total" "$t_native") | 1.0 |
| nulgrind | \`valgrind --tool=none\` | ${t_none} | ${c_none} | $(rate "$total" "$t_none") | $(ratio "$t_none" "$t_native") |
| trace 50M | \`concorde trace --length 50000000\` (${traced_50m} traced, the rest fast-forwarded) | ${t_50m} | ${c_50m} | $(rate "$total" "$t_50m") | $(ratio "$t_50m" "$t_native") |
| trace all | \`concorde trace\` (${traced_all} traced; ${bytes_per_instr} bytes/instruction in the .ctrace) | ${t_all} | ${c_all} | $(rate "$total" "$t_all") | $(ratio "$t_all" "$t_native") |
| tool alone | \`valgrind --tool=ctrace --ctrace-out=/dev/null\` (the raw stream, not decoded or compressed) | ${t_tool} | ${c_tool} | $(rate "$total" "$t_tool") | $(ratio "$t_tool" "$t_native") |
| fast-forward | \`concorde trace --skip ${skip} --length 1000\` (${traced_ff} traced of ${total_ff}) | ${t_ff} | ${c_ff} | $(rate "$total" "$t_ff") | $(ratio "$t_ff" "$t_native") |
| lackey | \`valgrind --tool=lackey --trace-mem=yes --log-file=/dev/null\` | ${t_lackey} | ${c_lackey} | $(rate "$total" "$t_lackey") | $(ratio "$t_lackey" "$t_native") |

| target (docs/design.md §12) | wall ratio | CPU ratio | |
|---|---:|---:|---|
| tracer ≥ 5× faster than lackey --trace-mem=yes (lackey / trace all) | ${r_lackey}× | ${r_lackey_cpu}× | $(verdict "$r_lackey" 5) |
| fast-forward ≥ 10× faster than tracing (trace all / fast-forward) | ${r_ff}× | ${r_ff_cpu}× | $(verdict "$r_ff" 10) |
EOF
