#!/usr/bin/env bash
# make-latency-db.sh [FOLDER]
#     Builds the feature database for explorer_latency's 64-region case (docs/design.md §12: slider change
#     → CPI and visible charts redrawn ≤ 16 ms for a program of 64 regions). The shipped
#     data/default.sqlite has 16 regions per program, so this traces one real program of the
#     workload set at 64 regions and builds, outside git, FOLDER/latency-64.sqlite (default
#     FOLDER: <repo>/build/bench-data) with:
#       - the program gzip (`gzip -6` on the workload set's mixed file), 64 regions of 20k warm-up
#         + 100k measured instructions spread over its 0.81 G-instruction run;
#       - the default grid (the same as data/default.sqlite; checked below);
#       - reference-simulator labels like the shipped database's (8 random configurations and
#         the presets per region), so the timeseries page overlays reference IPC;
#       - phases, so the phases page colours the timeline;
#       - the shipped CPI model, copied from data/default.sqlite's `models` table.
#     Then:  build/bench/explorer_latency FOLDER/latency-64.sqlite
#
#     Every step resumes (the trace is kept, build-db and label skip finished work), so a second
#     run only redoes what is missing. About 4–5 minutes on 2 cores (build-db dominates: ~3 s of
#     bounds per region).
#
#     Environment: CONCORDE (default <repo>/build/bin/concorde), JOBS (default: every core),
#     REGIONS (default 64), INTERVAL (instructions between region starts, default 12000000: 64
#     regions fit in gzip's run), SOURCE_DB (the model's database, default data/default.sqlite).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
FOLDER=${1:-$ROOT/build/bench-data}
CONCORDE=${CONCORDE:-$ROOT/build/bin/concorde}
JOBS=${JOBS:-$(nproc)}
REGIONS=${REGIONS:-64}
INTERVAL=${INTERVAL:-12000000}
SOURCE_DB=${SOURCE_DB:-$ROOT/data/default.sqlite}
PROGRAM=gzip
DB=$FOLDER/latency-$REGIONS.sqlite
TRACE=$FOLDER/$PROGRAM.ctrace

fail() {
  echo "make-latency-db: $*" >&2
  exit 1
}
stamp() { echo "[$(date +%H:%M:%S)] $*"; }

[ -x "$CONCORDE" ] || fail "no concorde binary at $CONCORDE (build it: cmake --build build --target concorde ctrace, or set CONCORDE)"
[ -f "$SOURCE_DB" ] || fail "no source database $SOURCE_DB (its CPI model is copied)"
command -v sqlite3 >/dev/null || fail "the sqlite3 shell is needed to copy the model (apt-get install sqlite3)"
mkdir -p "$FOLDER"
export CONCORDE
SECONDS=0

# 1. The trace (written atomically by concorde trace, so an existing file is complete).
if [ ! -f "$TRACE" ]; then
  stamp "tracing $PROGRAM at $REGIONS regions"
  bash "$ROOT/data/workloads/trace-workload.sh" "$PROGRAM" "$TRACE" \
    --regions "$REGIONS" --interval "$INTERVAL"
fi
stamp "trace ready after ${SECONDS}s"

# 2. Features on the default grid (resumable).
"$CONCORDE" build-db --out "$DB" --jobs "$JOBS" "$TRACE"
stamp "features built after ${SECONDS}s"

# The copied model reads series by the grid's layout: both databases must have the same grid.
grid_of() { sqlite3 "$1" "SELECT value FROM meta WHERE key = 'grid'"; }
window_of() { sqlite3 "$1" "SELECT value FROM meta WHERE key = 'window_size'"; }
[ "$(grid_of "$DB")" = "$(grid_of "$SOURCE_DB")" ] ||
  fail "$DB and $SOURCE_DB have different grids; the model cannot be copied"
[ "$(window_of "$DB")" = "$(window_of "$SOURCE_DB")" ] ||
  fail "$DB and $SOURCE_DB have different window sizes; the model cannot be copied"

# 3. Labels like the shipped database's (skipped when present), and phases.
"$CONCORDE" label --db "$DB" --configs 8 --presets --seed 7 --jobs "$JOBS"
"$CONCORDE" phases --db "$DB" --all >/dev/null
stamp "labels and phases after ${SECONDS}s"

# 4. The shipped model: the `models` table row as is (docs/database.md), replacing one of the same
#    name. There is no CLI for this; predict and evaluate read another database's model with
#    --model-from, but the explorer uses the model stored in the database it opens.
sqlite3 "$DB" <<SQL
ATTACH DATABASE '$SOURCE_DB' AS source;
BEGIN;
DELETE FROM main.models WHERE name IN (SELECT name FROM source.models);
INSERT INTO main.models (name, created, layout_json, weights, normalisation_json, metrics_json)
  SELECT name, created, layout_json, weights, normalisation_json, metrics_json
  FROM source.models ORDER BY id;
COMMIT;
DETACH DATABASE source;
SQL
"$CONCORDE" validate-db "$DB" >/dev/null || fail "$DB does not validate: run concorde validate-db $DB"
# The copied model must load and predict on this database.
"$CONCORDE" predict --db "$DB" --program "$PROGRAM" --preset n1-like >/dev/null ||
  fail "the copied model does not predict on $DB"

regions=$(sqlite3 "$DB" "SELECT count(*) FROM regions WHERE complete = 1")
[ "$regions" -ge "$REGIONS" ] || fail "$DB has $regions complete regions, expected $REGIONS (see the trace's warnings)"
ls -l "$DB"
stamp "$DB ready ($regions regions of $PROGRAM) in ${SECONDS}s"
echo "run: $ROOT/build/bench/explorer_latency $DB"
