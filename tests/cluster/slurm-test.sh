#!/usr/bin/env bash
# The cluster workflow of packaging/cluster/README.md on a real Slurm: starts munge, slurmctld
# and slurmd (Debian's slurm-wlm and munge) on this machine with a generated configuration in a
# temporary directory, runs the build-db, label and dataset job arrays across 4 tasks with the
# merge steps, and checks that the merged database and dataset equal a one-machine build: the
# same series, records, labels and dataset rows (compared as sqlite3 query output, not bytes).
# Then it resubmits one dataset task after a simulated time-out and checks the merge again.
# Every daemon it started is stopped on exit, failed or not; nothing outside the temporary
# directory is changed (the Slurm and munge packages are installed if missing).
#
#   slurm-test.sh BUILD_DIR SOURCE_DIR
#
# Root only (the daemons run as root); exit 77 (skipped) otherwise or if Slurm cannot be
# installed. KEEP=1 keeps the temporary directory for a look at the logs.
set -euo pipefail

build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
concorde=$build/bin/concorde
tasks=4

say() { echo "slurm-test: $*"; }
skip() {
  say "SKIPPED: $*"
  exit 77
}
fail() {
  say "FAILED: $*" >&2
  exit 1
}

[ "$(id -u)" -eq 0 ] || skip "needs root (it starts munged, slurmctld and slurmd)"
# Everything must be over well before CTest's TIMEOUT (900 s), whose kill would skip the cleanup.
deadline=$((SECONDS + 600))
[ -x "$concorde" ] || fail "$concorde is missing; build the concorde target first"
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null ||
  ! command -v munged >/dev/null || ! command -v sqlite3 >/dev/null; then
  bash "$src/packaging/install-cluster-deps.sh" || skip "cannot install slurm-wlm and munge"
fi

# --- a private Slurm in a temporary directory ---------------------------------------------
work=$(mktemp -d /tmp/concorde-slurm.XXXXXX)
# munged wants every directory above its socket searchable by all, and its key private.
chmod 755 "$work"
mkdir -p "$work"/{etc,state,spool,log,run,sock,munge,job,ref}
chmod 700 "$work/munge"
export SLURM_CONF=$work/etc/slurm.conf
started=() # pid files of the daemons this script started

stop_daemons() {
  local status=$?
  set +e
  if [ -f "$work/run/slurmctld.pid" ]; then
    # Jobs first, so that no slurmstepd outlives its slurmd.
    scancel --full --quiet --user=root 2>/dev/null
    for _ in $(seq 60); do
      [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break
      sleep 1
    done
  fi
  local pidfile pid
  for ((i = ${#started[@]} - 1; i >= 0; i--)); do
    pidfile=${started[i]}
    [ -f "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    kill -TERM "$pid" 2>/dev/null
    for _ in $(seq 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.2
    done
    kill -KILL "$pid" 2>/dev/null
    rm -f "$pidfile"
  done
  if [ $status -ne 0 ]; then
    for log in "$work"/log/*.log "$work"/job/concorde-*.log; do
      [ -f "$log" ] || continue
      echo "--- last lines of $log"
      tail -n 15 "$log"
    done
  fi
  if [ "${KEEP:-0}" = 1 ]; then
    say "kept $work"
  else
    rm -rf "$work"
  fi
  exit $status
}
trap stop_daemons EXIT
trap 'exit 130' INT TERM
# If this script is killed outright (SIGKILL skips the trap), a detached guard stops the daemons
# and removes the directory once the script's process is gone. The trap removes the pid files of
# the daemons it stopped, so the guard never signals a reused pid.
setsid bash -c 'while kill -0 "$1" 2>/dev/null; do sleep 2; done
  [ -d "$2" ] || exit 0
  for name in slurmd slurmctld munged; do
    f="$2/run/$name.pid"
    [ -f "$f" ] && [ "$(cat "/proc/$(cat "$f")/comm" 2>/dev/null)" = "$name" ] &&
      kill -TERM "$(cat "$f")"
  done
  sleep 5
  [ "$3" = 1 ] || rm -rf "$2"' guard $$ "$work" "${KEEP:-0}" </dev/null >/dev/null 2>&1 &

# Two free TCP ports for slurmctld and slurmd.
port_in_use() {
  local hex
  hex=$(printf ':%04X ' "$1")
  grep -q "$hex" /proc/net/tcp /proc/net/tcp6 2>/dev/null
}
free_port() {
  local port
  while :; do
    port=$((20000 + RANDOM % 20000))
    port_in_use "$port" || port_in_use $((port + 1)) || break
  done
  echo "$port"
}
ctld_port=$(free_port)
slurmd_port=$((ctld_port + 1))

dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge/munge.key"
munged --socket="$work/sock/munge.socket" --key-file="$work/munge/munge.key" \
  --pid-file="$work/run/munged.pid" --log-file="$work/log/munged.log" \
  --seed-file="$work/munge/munged.seed"
started+=("$work/run/munged.pid")

# The node as slurmd finds it: its real CPUs and (a little less than) its real memory.
node=$(hostname -s)
cpus=$(nproc)
memory=$(($(awk '/^MemTotal:/ { print $2 }' /proc/meminfo) / 1024 * 9 / 10))
cat >"$SLURM_CONF" <<CONF
ClusterName=concordetest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/sock/munge.socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/run/slurmctld.pid
SlurmdPidFile=$work/run/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
MpiDefault=none
SwitchType=switch/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$work/log/jobcomp.txt
ReturnToService=2
MinJobAge=3600
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=concorde Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -c -f "$SLURM_CONF"
started+=("$work/run/slurmctld.pid")
slurmd -f "$SLURM_CONF"
started+=("$work/run/slurmd.pid")
for _ in $(seq 60); do
  [ "$(sinfo -h -o %T 2>/dev/null)" = idle ] && break
  sleep 1
done
[ "$(sinfo -h -o %T)" = idle ] || fail "the node did not come up: $(sinfo 2>&1)"
say "Slurm $(sinfo -V | cut -d' ' -f2) up: node $node, $cpus CPUs, $memory MB, ports $ctld_port/$slurmd_port"

# --- inputs and the one-machine build ------------------------------------------------------
traces=("$src/data/samples/gzip-decompress.ctrace" "$src/data/samples/perl-regex.ctrace"
  "$src/data/samples/xz-compress.ctrace")
grid=$work/small.json
cat >"$grid" <<'JSON'
{"rob": [32, 128], "lq": [16, 64], "sq": [16], "alu_issue": [2, 4], "fp_issue": [2],
 "ls_issue": [2], "ls_pipes": [1, 2], "load_pipes": [0, 1], "fetch_width": [4],
 "fetch_buffers": [4], "icache_fills": [4], "bp": ["simple", "tage"], "bp_miss_pct": [2],
 "l1d_kb": [32, 64], "l1i_kb": [64], "l2_kb": [1024], "pf_degree": [0]}
JSON
label_args=(--configs 3 --presets --seed 7)
samples=240
dataset_args=(--samples "$samples" --seed 5 --hold-out perl-regex)
export XDG_CONFIG_HOME=$work/config # the shipped presets only, not the user's (jobs inherit it)
mkdir -p "$XDG_CONFIG_HOME"

seconds() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
t0=$(seconds)
timeout 300 "$concorde" build-db --out "$work/ref/ref.sqlite" --grid "$grid" --jobs "$cpus" "${traces[@]}" \
  >"$work/log/ref.log" 2>&1
t1=$(seconds)
timeout 300 "$concorde" label --db "$work/ref/ref.sqlite" --jobs "$cpus" "${label_args[@]}" >>"$work/log/ref.log" 2>&1
t2=$(seconds)
timeout 300 "$concorde" dataset --db "$work/ref/ref.sqlite" --out "$work/ref/ref.dataset" --jobs "$cpus" \
  "${dataset_args[@]}" >>"$work/log/ref.log" 2>&1
t3=$(seconds)
say "one machine: build-db $(elapsed "$t0" "$t1") s, label $(elapsed "$t1" "$t2") s, dataset $(elapsed "$t2" "$t3") s"

# --- the arrays, chained as in the README ---------------------------------------------------
cluster=$src/packaging/cluster
cd "$work/job"
export CONCORDE=$concorde CONCORDE_GRID=$grid
submitted=$(seconds)
build_job=$(sbatch --parsable --array=0-$((tasks - 1)) "$cluster/build-db-array.sbatch" "${traces[@]}")
label_job=$(sbatch --parsable --array=0-$((tasks - 1)) --dependency=aftercorr:"$build_job" \
  "$cluster/label-array.sbatch" "${label_args[@]}")
merge_db_job=$(sbatch --parsable --dependency=afterok:"$label_job" "$cluster/merge.sbatch" db all.sqlite)
dataset_job=$(sbatch --parsable --array=0-$((tasks - 1)) --dependency=afterok:"$merge_db_job" \
  "$cluster/dataset-array.sbatch" --db "$work/job/all.sqlite" "${dataset_args[@]}")
merge_dataset_job=$(sbatch --parsable --dependency=afterok:"$dataset_job" "$cluster/merge.sbatch" \
  dataset all.dataset)

# Waits until none of the given jobs is pending or running (their records stay for MinJobAge).
wait_jobs() {
  local ids
  ids=$(
    IFS=,
    echo "$*"
  )
  while [ -n "$(squeue -h -j "$ids" -t PD,R,CG,CF -o %i 2>/dev/null)" ]; do
    [ $SECONDS -lt $deadline ] || fail "jobs $ids still running at the test's deadline"
    # A stage that failed leaves the next one pending for ever.
    if squeue -h -j "$ids" -t PD -o %r 2>/dev/null | grep -q DependencyNeverSatisfied; then
      fail "a job failed, so its dependants can never start: $(squeue -h -j "$ids" -o '%i %T %r' | xargs)"
    fi
    sleep 2
  done
}
# "STATE START END" of every task of a job (array tasks one line each).
job_rows() {
  scontrol -o show job "$1" | awk '{
    for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = substr($i, length(kv[1]) + 2) }
    print v["JobState"], v["StartTime"], v["EndTime"], v["ExitCode"] }'
}
# Wall time of a job (first start to last end over its tasks), and that every task completed.
check_job() {
  local name=$1 id=$2 want=$3 rows states first last
  rows=$(job_rows "$id")
  states=$(echo "$rows" | awk '{ print $1 }' | sort | uniq -c | xargs)
  [ "$(echo "$rows" | grep -c '^COMPLETED ')" -eq "$want" ] ||
    fail "$name job $id: expected $want completed tasks, got: $states"
  first=$(echo "$rows" | awk '{ print $2 }' | sort | head -1)
  last=$(echo "$rows" | awk '{ print $3 }' | sort | tail -1)
  say "$name: job $id, $want task(s) COMPLETED, wall $(($(date -d "$last" +%s) - $(date -d "$first" +%s))) s ($first to $last)"
}
wait_jobs "$build_job" "$label_job" "$merge_db_job" "$dataset_job" "$merge_dataset_job"
finished=$(seconds)
check_job build-db "$build_job" "$tasks"
check_job label "$label_job" "$tasks"
check_job merge-db "$merge_db_job" 1
check_job dataset "$dataset_job" "$tasks"
check_job merge-dataset "$merge_dataset_job" 1
say "whole chain: $(elapsed "$submitted" "$finished") s from the first sbatch"
grep -q "4 files of 4 shards" concorde-merge-"$merge_dataset_job".log ||
  fail "merge-dataset did not merge 4 shards: $(cat concorde-merge-"$merge_dataset_job".log)"

# --- equality with the one-machine build -------------------------------------------------------
# Every row of a table as text (reals to 17 digits, blobs in hex), sorted, without the columns
# named in $3 (ids that depend on insertion order).
table_dump() {
  local db=$1 table=$2 skip=${3:-} columns expr
  columns=$(sqlite3 -readonly "$db" "SELECT name FROM pragma_table_info('$table')" |
    grep -vxF -e "${skip:-/}" || true)
  [ -n "$columns" ] || fail "$db has no table $table"
  expr=$(echo "$columns" | awk '{ printf "%s CASE typeof(%s) WHEN '\''real'\'' THEN printf('\''%%!.17g'\'', %s) WHEN '\''blob'\'' THEN hex(%s) ELSE quote(%s) END", (NR > 1 ? " || '\''|'\'' ||" : ""), $1, $1, $1, $1, $1 }')
  sqlite3 -readonly "$db" "SELECT $expr FROM \"$table\"" | LC_ALL=C sort
}
compare() {
  local what=$1 a=$2 b=$3 table=$4 skip=${5:-} rows
  if ! diff -q <(table_dump "$a" "$table" "$skip") <(table_dump "$b" "$table" "$skip") >/dev/null; then
    diff <(table_dump "$a" "$table" "$skip") <(table_dump "$b" "$table" "$skip") | head -5 | cut -c1-200
    fail "$what: table $table differs between $a and $b"
  fi
  rows=$(sqlite3 -readonly "$a" "SELECT count(*) FROM \"$table\"")
  [ "$rows" -gt 0 ] || [ "$table" = models ] || fail "$what: table $table is empty"
  say "$what: $table identical ($rows rows)"
}
ref_db=$work/ref/ref.sqlite
all_db=$work/job/all.sqlite
[ "$(sqlite3 -readonly "$all_db" "SELECT count(*) FROM regions WHERE complete = 1")" = \
  "$(sqlite3 -readonly "$ref_db" "SELECT count(*) FROM regions")" ] || fail "merged database incomplete"
for table in $(sqlite3 -readonly "$ref_db" "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"); do
  case $table in
  labels) compare database "$ref_db" "$all_db" labels id ;;
  programs) compare database "$ref_db" "$all_db" programs ;;
  *) compare database "$ref_db" "$all_db" "$table" ;;
  esac
done
ref_ds=$work/ref/ref.dataset
all_ds=$work/job/all.dataset
[ "$(sqlite3 -readonly "$all_ds" "SELECT count(*) FROM samples")" = "$samples" ] ||
  fail "merged dataset has $(sqlite3 -readonly "$all_ds" "SELECT count(*) FROM samples") samples, not $samples"
compare dataset "$ref_ds" "$all_ds" samples
# Settings equal but for the input database's path; no shard left in the merged sources.
compare_meta() {
  diff <(sqlite3 -readonly "$1" "SELECT key, value FROM meta WHERE key <> 'sources' ORDER BY key") \
    <(sqlite3 -readonly "$2" "SELECT key, value FROM meta WHERE key <> 'sources' ORDER BY key") >/dev/null ||
    fail "dataset meta differs between $1 and $2"
  [ "$(sqlite3 -readonly "$2" "SELECT json_extract(value, '$.shard') IS NULL FROM meta WHERE key = 'sources'")" = 1 ] ||
    fail "$2 still names a shard in its sources"
}
compare_meta "$ref_ds" "$all_ds"
say "dataset: meta identical but for the input path"

# --- a task that timed out, resubmitted -------------------------------------------------------
# Shard 2 starts over (as if its task had been killed before its first commit). Its new task is
# stopped the way a time limit stops it, SIGTERM to the batch script, after its first committed
# region; it keeps what it committed, and a resubmission finishes the shard.
shard=shards/dataset-2.dataset
full=$(sqlite3 "$shard" "SELECT count(*) FROM samples")
sqlite3 "$shard" "DELETE FROM samples"
rm all.dataset
# A partial array without CONCORDE_SHARDS is refused (Slurm would count 1 task, not 4) ...
bad_job=$(sbatch --parsable --array=2 "$cluster/dataset-array.sbatch" --db "$all_db" "${dataset_args[@]}")
wait_jobs "$bad_job"
[ "$(job_rows "$bad_job" | awk '{ print $1 }')" = FAILED ] || fail "a partial array without CONCORDE_SHARDS ran"
grep -q "set CONCORDE_SHARDS" concorde-dataset-"$bad_job"_2.log || fail "no hint to set CONCORDE_SHARDS"
# ... with it, the task runs; it is stopped after its first region.
resubmit() {
  CONCORDE_SHARDS=$tasks sbatch --parsable --array=2 "$cluster/dataset-array.sbatch" \
    --db "$all_db" "${dataset_args[@]}"
}
stopped_job=$(resubmit)
until [ "$(sqlite3 -readonly "$shard" "SELECT count(*) FROM samples" 2>/dev/null || echo 0)" -gt 0 ]; do
  [ $SECONDS -lt $deadline ] || fail "the resubmitted task wrote nothing by the test's deadline"
  sleep 0.1
done
scancel --batch --signal=TERM "$stopped_job" 2>/dev/null || true
wait_jobs "$stopped_job"
kept=$(sqlite3 -readonly "$shard" "SELECT count(*) FROM samples")
state=$(job_rows "$stopped_job" | awk '{ print $1, $4 }')
if [ "$kept" -lt "$full" ]; then
  grep -q "interrupted after" concorde-dataset-"$stopped_job"_2.log ||
    fail "task $stopped_job stopped without saying so: $(cat concorde-dataset-"$stopped_job"_2.log)"
  say "dataset task 2 stopped by SIGTERM ($state) with $kept of its $full draws committed"
else
  say "dataset task 2 finished ($state) before SIGTERM reached it; resuming a whole shard"
fi
redo_job=$(resubmit)
remerge_job=$(sbatch --parsable --dependency=afterok:"$redo_job" "$cluster/merge.sbatch" dataset all.dataset)
again_job=$(sbatch --parsable --dependency=afterok:"$remerge_job" "$cluster/merge.sbatch" dataset all.dataset)
wait_jobs "$redo_job" "$remerge_job" "$again_job"
check_job "dataset task 2 resubmitted" "$redo_job" 1
check_job merge-dataset "$remerge_job" 1
check_job "merge-dataset again" "$again_job" 1
grep -q "$((full - kept)) drawn, $kept already present, $full in the file" \
  concorde-dataset-"$redo_job"_2.log ||
  fail "the resubmitted task did not resume: $(cat concorde-dataset-"$redo_job"_2.log)"
grep -q "0 copied, $samples already present" concorde-merge-"$again_job".log ||
  fail "merging again was not a no-op: $(cat concorde-merge-"$again_job".log)"
compare "dataset after resubmission" "$ref_ds" "$all_ds" samples
compare_meta "$ref_ds" "$all_ds"
[ ! -e all.dataset.merging ] || fail "the staging file all.dataset.merging was left behind"
say "PASSED"
