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
set -uo pipefail

harness=$1 corpus=$2 run=$3 seconds=$4
shift 4
rm -rf "$run"
mkdir -p "$run/corpus"
cp -r "$corpus"/. "$run/corpus/"
name=$(basename "$harness")

"$harness" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
  -artifact_prefix="$run/" "$@" "$run/corpus" >"$run/fuzz.log" 2>&1 &
pid=$!
wait $pid
status=$?
# libFuzzer ends with _exit, so the harness cannot remove its scratch directory (FuzzSupport.h).
rm -rf "/dev/shm/concorde-fuzz-$pid" "${TMPDIR:-/tmp}/concorde-fuzz-$pid"

executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$run/fuzz.log" | tail -1)
coverage=$(grep -E '^#[0-9]+' "$run/fuzz.log" | grep 'cov:' | tail -1 |
           sed -E 's/.*(cov: [0-9]+ ft: [0-9]+ corp: [^ ]+).*/\1/')
findings=$(find "$run" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' \
           -o -name 'timeout-*' -o -name 'oom-*' -o -name 'slow-unit-*' \) | sort)
echo "$name: ${seconds}s, executions ${executions:-?}, ${coverage:-no coverage line}," \
     "findings: $(echo "$findings" | grep -c . || true)"
if [ "$status" -ne 0 ] || [ -n "$findings" ]; then
  echo "$name: libFuzzer exited with $status; artifacts: ${findings:-none}" >&2
  grep -E 'ERROR|SUMMARY|==[0-9]+==|terminate|fuzz invariant|runtime error' "$run/fuzz.log" \
    | head -20 >&2
  grep -vE '^#[0-9]+[[:space:]]+(NEW|REDUCE|pulse|INITED)' "$run/fuzz.log" | tail -n 30 >&2
  exit 1
fi
