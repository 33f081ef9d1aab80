#!/usr/bin/env bash
# Runs one libFuzzer harness for a while on a copy of its seed corpus (the committed corpus is
# never changed) and prints its executions, coverage and findings.
#
#   run-one.sh HARNESS CORPUS_DIR RUN_DIR SECONDS [libFuzzer option...]
#
# RUN_DIR is emptied first and then holds corpus/ (the seeds plus what the run found
# interesting), the log (fuzz.log) and any crash-*, leak-*, timeout-* or oom-* file. Memory
# limits are libFuzzer's defaults (-rss_limit_mb=2048; -malloc_limit_mb defaults to it); one
# input may run at most 10 s. Exits non-zero when libFuzzer reports a finding.
#
# With FUZZ_CPU_SECONDS=C in the environment the run ends when the harness has used C seconds of
# CPU (user + system), or after SECONDS of wall time, whichever comes first: on a shared machine
# an hour of wall time can be minutes of fuzzing, and the CPU budget is what makes runs comparable.
# libFuzzer's per-input limits are wall time, and a niced harness can wait many seconds for a
# core, so in this mode an input may take 600 s before it counts as a timeout or slow unit (runs
# at low priority reported 13-28 s "timeouts" on inputs that take 0.1 s).
set -uo pipefail

harness=$1 corpus=$2 run=$3 seconds=$4
shift 4
rm -rf "$run"
mkdir -p "$run/corpus"
cp -r "$corpus"/. "$run/corpus/"
name=$(basename "$harness")

per_input=(-timeout=10)
[ "${FUZZ_CPU_SECONDS:-0}" -gt 0 ] && per_input=(-timeout=600 -report_slow_units=600)
"$harness" -max_total_time="$seconds" "${per_input[@]}" -print_final_stats=1 \
  -artifact_prefix="$run/" "$@" "$run/corpus" >"$run/fuzz.log" 2>&1 &
pid=$!
cpu_budget=${FUZZ_CPU_SECONDS:-0}
ticks=$(getconf CLK_TCK)
cpu_seconds() {  # utime + stime of the harness, fields 14 and 15 of /proc/PID/stat
  awk -v t="$ticks" '{ sub(/.*\) /, ""); print int(($12 + $13) / t) }' "/proc/$pid/stat" 2>/dev/null
}
interrupted=0
last_cpu=
if [ "$cpu_budget" -gt 0 ]; then
  while kill -0 "$pid" 2>/dev/null; do
    used=$(cpu_seconds)
    [ -n "$used" ] && last_cpu=$used
    if [ -n "$used" ] && [ "$used" -ge "$cpu_budget" ]; then
      interrupted=1
      kill -INT "$pid"
      break
    fi
    sleep 5
  done
fi
wait $pid
status=$?
# libFuzzer ends an interrupted run with its -interrupt_exit_code (72) after its final stats.
if [ "$interrupted" -eq 1 ] && [ "$status" -eq 72 ]; then status=0; fi
# libFuzzer ends with _exit, so the harness cannot remove its scratch directory (FuzzSupport.h).
rm -rf "/dev/shm/concorde-fuzz-$pid" "${TMPDIR:-/tmp}/concorde-fuzz-$pid"

executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$run/fuzz.log" | tail -1)
coverage=$(grep -E '^#[0-9]+' "$run/fuzz.log" | grep 'cov:' | tail -1 |
           sed -E 's/.*(cov: [0-9]+ ft: [0-9]+ corp: [^ ]+).*/\1/')
findings=$(find "$run" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' \
           -o -name 'timeout-*' -o -name 'oom-*' -o -name 'slow-unit-*' \) | sort)
budget_note=""
[ "$cpu_budget" -gt 0 ] && budget_note=", CPU ${last_cpu:-?}s of a ${cpu_budget}s budget"
echo "$name: ${seconds}s${budget_note}, executions ${executions:-?}, ${coverage:-no coverage line}," \
     "findings: $(echo "$findings" | grep -c . || true)"
if [ "$status" -ne 0 ] || [ -n "$findings" ]; then
  echo "$name: libFuzzer exited with $status; artifacts: ${findings:-none}" >&2
  grep -E 'ERROR|SUMMARY|==[0-9]+==|terminate|fuzz invariant|runtime error' "$run/fuzz.log" \
    | head -20 >&2
  grep -vE '^#[0-9]+[[:space:]]+(NEW|REDUCE|pulse|INITED)' "$run/fuzz.log" | tail -n 30 >&2
  exit 1
fi
