#!/bin/sh
# Builds simvar against the static libraries of a concorde build dir (default build/helper-b).
set -e
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
B=${1:-$ROOT/build/helper-b}
L=$B/lib
g++ -std=c++20 -O2 -I "$ROOT/core" -I "$B/core" -o "${2:-$B/bin/simvar}" "$ROOT/tools/validation/stockfish-study/simvar.cpp" \
  $L/libconcorde_refsim.a $L/libconcorde_analysis.a $L/libconcorde_params.a $L/libconcorde_trace.a \
  $L/libconcorde_io.a $L/libconcorde_common.a -lz -lzstd -llzma 2>&1
