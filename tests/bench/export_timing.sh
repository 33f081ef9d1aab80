#!/usr/bin/env bash
# export_timing.sh — what one headless export of each explorer view costs (issue 23 target: any
# view ≤ 1 s wall on 2 cores), whole command: start, open the database, predict, lay out and
# write the chart.
# A benchmark, not a test: it is not registered with CTest. Prints a Markdown table for
# BENCHMARKS.md: per view the best wall time of N runs and that run's CPU time (user + system),
# and the wall time relative to the overview's, which stays comparable on a shared machine.
#
#   tests/bench/export_timing.sh [--repeat N] [--db FILE] [--format png|svg|pdf|csv]
#                                [--before BINARY] [VIEW...]
#
# Views default to every view of `concorde-explorer --help`. The rounds alternate the views (one
# run of each per round), so that every view sees the same load; --before adds another
# concorde-explorer (e.g. a copy built before a change), run right after each run of this one.
# Environment: BUILD (default <repo>/build), EXPORT_ARGS (more options for every export, e.g.
# "--projector").
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=$(cd "${BUILD:-$ROOT/build}" && pwd)
EXPLORER=$BUILD/bin/concorde-explorer
REPEAT=5
DB=$ROOT/data/default.sqlite
FORMAT=png
BEFORE=
VIEWS=()
while [ $# -gt 0 ]; do
  case $1 in
    --repeat) REPEAT=$2; shift 2 ;;
    --db) DB=$2; shift 2 ;;
    --format) FORMAT=$2; shift 2 ;;
    --before) BEFORE=$2; shift 2 ;;
    -*) sed -n '2,16s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&2; exit 2 ;;
    *) VIEWS+=("$1"); shift ;;
  esac
done
[ -x "$EXPLORER" ] || { echo "export_timing: build concorde-explorer first ($EXPLORER)" >&2; exit 1; }
[ -z "$BEFORE" ] || [ -x "$BEFORE" ] || { echo "export_timing: no binary $BEFORE" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "export_timing: /usr/bin/time is needed (package time)" >&2; exit 1; }
if [ ${#VIEWS[@]} -eq 0 ]; then
  # The "Views:" block of --help: two-space indented "id  description" lines.
  mapfile -t VIEWS < <("$EXPLORER" --help | sed -n '/^Views:/,/^It exits/p' |
    awk '/^  [a-z]/ { print $1 }')
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/export-timing-XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export QT_QPA_PLATFORM=offscreen
read -r -a EXTRA <<<"${EXPORT_ARGS:-}"

BENCH_NAME=export_timing
# shellcheck source=best-of.sh
source "$ROOT/tests/bench/best-of.sh"

# keep KEY "WALL CPU": BEST[KEY] becomes the run with the lower wall time.
declare -A BEST
keep() {
  if [ -z "${BEST[$1]:-}" ] || awk -v a="${2%% *}" -v b="${BEST[$1]%% *}" 'BEGIN { exit !(a < b) }'; then
    BEST[$1]=$2
  fi
}
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for ((round = 0; round < REPEAT; round++)); do
  for view in "${VIEWS[@]}"; do
    keep "$view" "$(best_of 1 "$EXPLORER" "$DB" --export "$view" "${EXTRA[@]}" -o "$WORK/$view.$FORMAT")"
    [ -z "$BEFORE" ] ||
      keep "before:$view" "$(best_of 1 "$BEFORE" "$DB" --export "$view" "${EXTRA[@]}" -o "$WORK/before-$view.$FORMAT")"
  done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

reference=${BEST[overview]:-${BEST[${VIEWS[0]}]}}
echo "export_timing: $(date '+%F %H:%M'), best of $REPEAT, $DB ${EXTRA[*]} -o VIEW.$FORMAT," \
  "load average $load_before before / $load_after after"
echo
if [ -n "$BEFORE" ]; then
  echo "| view | before: wall / CPU | after: wall / CPU | after's wall / overview's | ≤ 1 s |"
  echo "|---|---:|---:|---:|---|"
else
  echo "| view | wall / CPU (user + sys) | wall / overview's | ≤ 1 s |"
  echo "|---|---:|---:|---|"
fi
for view in "${VIEWS[@]}"; do
  read -r wall cpu <<<"${BEST[$view]}"
  before=
  if [ -n "$BEFORE" ]; then
    read -r bwall bcpu <<<"${BEST[before:$view]}"
    before=$(awk -v w="$bwall" -v c="$bcpu" 'BEGIN { printf " %.2f s / %.2f s |", w, c }')
  fi
  awk -v v="$view" -v b="$before" -v w="$wall" -v c="$cpu" -v r="${reference%% *}" 'BEGIN {
    printf "| %s |%s %.2f s / %.2f s | %.2f | %s |\n", v, b, w, c, w / r, (w <= 1.0) ? "met" : "NOT met"
  }'
done
