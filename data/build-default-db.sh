#!/usr/bin/env bash
# build-default-db.sh [WORKDIR]
#     Rebuilds data/default.sqlite end to end: traces the default programs of the workload set
#     (16 regions of 20k warm-up + 100k measured instructions each), builds the feature database
#     on the default grid, draws a training dataset of random (region, configuration) samples
#     labelled by the reference simulator, trains the CPI model, labels validation
#     configurations, evaluates the model on them and stores everything in one database.
#
#     WORKDIR (default ${XDG_CACHE_HOME:-~/.cache}/concorde/default-db) keeps the traces and the
#     dataset; every step resumes from what is there, so an interrupted rebuild continues where
#     it stopped. The result replaces data/default.sqlite atomically (temp file + rename).
#
#     The shipped database holds PROGRAMS (12 programs, 8 of their 16 regions each; its size
#     limit is 25 MB). The model is trained on all 16 regions and also on EXTRA_PROGRAMS, which
#     live in a second, training-only database: more programs are what makes the model
#     generalise to unseen ones.
#
#     Environment: CONCORDE (the concorde binary; default build/release/bin/concorde, built if
#     missing), SAMPLES (draws from PROGRAMS, default 60000), EXTRA_SAMPLES (draws from
#     EXTRA_PROGRAMS, default 30000), BALANCED_SAMPLES (balanced-core draws from PROGRAMS, default
#     20000), VALIDATION_CONFIGS (random labels per region, default 8), JOBS (default: every core), PROGRAMS, EXTRA_PROGRAMS
#     (space-separated workload names), HOLD_OUT (programs kept out of training),
#     TRAIN_OPTIONS (extra options for concorde train).
#
#     Time on the development machine (2 cores, shared): see data/README.md.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
WORK=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/concorde/default-db}
SAMPLES=${SAMPLES:-60000}
JOBS=${JOBS:-$(nproc)}
PROGRAMS=${PROGRAMS:-"gzip unxz bzip2 zstd gcc python perl lua sqlite stockfish lame sort"}
EXTRA_PROGRAMS=${EXTRA_PROGRAMS:-"gunzip xz awk tcl bc flac"}
EXTRA_SAMPLES=${EXTRA_SAMPLES:-30000}
HOLD_OUT=${HOLD_OUT:-"bzip2 sqlite"}
BALANCED_SAMPLES=${BALANCED_SAMPLES:-20000}
VALIDATION_CONFIGS=${VALIDATION_CONFIGS:-8}

if [ -z "${CONCORDE:-}" ]; then
  if [ ! -x "$ROOT/build/release/bin/concorde" ]; then
    cmake --preset release -S "$ROOT" >/dev/null
    cmake --build "$ROOT/build/release" --target concorde ctrace -j "$JOBS"
  fi
  CONCORDE="$ROOT/build/release/bin/concorde"
fi
export CONCORDE
mkdir -p "$WORK/traces"
stamp() { echo "[$(date +%H:%M:%S)] $*"; }
SECONDS=0
# Wall time of every step, appended to WORKDIR/timing.tsv (a resumed step records only the time
# it took this run): date, step, seconds.
step_start=0
step_done() {
  printf '%s\t%s\t%d\n' "$(date -Iseconds)" "$1" $((SECONDS - step_start)) >>"$WORK/timing.tsv"
  step_start=$SECONDS
}

# 1. Traces (skipped when present: .ctrace files are written atomically).
for program in $PROGRAMS $EXTRA_PROGRAMS; do
  if [ ! -f "$WORK/traces/$program.ctrace" ]; then
    stamp "tracing $program"
    bash "$HERE/workloads/trace-workload.sh" "$program" "$WORK/traces/$program.ctrace" >/dev/null
    step_done "trace $program"
  fi
done
stamp "traces done after ${SECONDS}s"

# 2. Feature database (resumable).
traces=()
for program in $PROGRAMS; do traces+=("$WORK/traces/$program.ctrace"); done
"$CONCORDE" build-db --out "$WORK/default.sqlite" --jobs "$JOBS" "${traces[@]}"
step_done "build-db shipped programs"
extra=()
for program in $EXTRA_PROGRAMS; do extra+=("$WORK/traces/$program.ctrace"); done
if [ ${#extra[@]} -gt 0 ]; then
  "$CONCORDE" build-db --out "$WORK/extra.sqlite" --jobs "$JOBS" "${extra[@]}"
  step_done "build-db training-only programs"
fi
stamp "feature databases done after ${SECONDS}s"

# 3. Training samples: random (region, configuration) draws labelled by the reference simulator
#    (resumable; the hold-out programs are kept out of training for the out-of-distribution test).
holdout_args=()
for program in $HOLD_OUT; do holdout_args+=(--hold-out "$program"); done
"$CONCORDE" dataset --db "$WORK/default.sqlite" --samples "$SAMPLES" --out "$WORK/train.dataset" \
  --jobs "$JOBS" "${holdout_args[@]}"
step_done "dataset independent draws"
datasets=(--dataset "$WORK/train.dataset")
# Balanced cores (every parameter near one size level): independent draws alone leave the model
# extrapolating at presets like big, where every resource is large at once.
"$CONCORDE" dataset --db "$WORK/default.sqlite" --samples "$BALANCED_SAMPLES" --seed 3 \
  --balanced 1 --out "$WORK/balanced.dataset" --jobs "$JOBS" "${holdout_args[@]}"
step_done "dataset balanced draws"
datasets+=(--dataset "$WORK/balanced.dataset")
if [ ${#extra[@]} -gt 0 ]; then
  "$CONCORDE" dataset --db "$WORK/extra.sqlite" --samples "$EXTRA_SAMPLES" --seed 2 \
    --out "$WORK/extra.dataset" --jobs "$JOBS"
  step_done "dataset training-only programs"
  datasets+=(--dataset "$WORK/extra.dataset")
fi
stamp "datasets done after ${SECONDS}s"

# 4. The CPI model, stored in the database with its test and held-out accuracy.
"$CONCORDE" train "${datasets[@]}" --db "$WORK/default.sqlite" --hidden 128,64 --weight-decay 1e-2 \
  ${TRAIN_OPTIONS:-}
step_done "train"
stamp "training done after ${SECONDS}s"

# 5. The shipped database: the model with 8 of each program's 16 regions (indexes 0 and 3 mod 4,
#    spread over the run and including the unseen-region test's 3 mod 8), because all 16 with
#    their warm states do not fit the 25 MB limit. Training above used all of them.
# Made again on every run: it carries the model just trained.
rm -f "$WORK/shipped.sqlite.tmp"
sqlite3 "$WORK/default.sqlite" "VACUUM INTO '$WORK/shipped.sqlite.tmp'"
sqlite3 "$WORK/shipped.sqlite.tmp" "
  BEGIN;
  CREATE TEMP TABLE dropped AS SELECT id FROM regions WHERE region_index % 4 NOT IN (0, 3);
  DELETE FROM series WHERE region_id IN (SELECT id FROM dropped);
  DELETE FROM region_records WHERE region_id IN (SELECT id FROM dropped);
  DELETE FROM labels WHERE region_id IN (SELECT id FROM dropped);
  DELETE FROM regions WHERE id IN (SELECT id FROM dropped);
  COMMIT;"
# Warm states in the current, compressed encoding (the default database is a third smaller).
"$CONCORDE" migrate-db "$WORK/shipped.sqlite.tmp"
sqlite3 "$WORK/shipped.sqlite.tmp" "VACUUM"
mv -f "$WORK/shipped.sqlite.tmp" "$WORK/shipped.sqlite"
step_done "shipped subset"

# 6. Validation labels (random configurations and the presets) and the model's accuracy on them.
"$CONCORDE" label --db "$WORK/shipped.sqlite" --configs "$VALIDATION_CONFIGS" --presets \
  --seed 7 --jobs "$JOBS"
step_done "label validation configurations"
"$CONCORDE" evaluate --db "$WORK/shipped.sqlite" --record
step_done "evaluate"
stamp "validation done after ${SECONDS}s"

# 7. Compact copy into data/, atomically.
rm -f "$ROOT/data/default.sqlite.tmp"
sqlite3 "$WORK/shipped.sqlite" "VACUUM INTO '$ROOT/data/default.sqlite.tmp'"
"$CONCORDE" validate-db "$ROOT/data/default.sqlite.tmp" >/dev/null
mv -f "$ROOT/data/default.sqlite.tmp" "$ROOT/data/default.sqlite"
step_done "compact copy"
ls -l "$ROOT/data/default.sqlite"
stamp "data/default.sqlite rebuilt in ${SECONDS}s"
