#!/usr/bin/env bash
# Builds the model studies of this folder against a release build's static libraries.
#   tools/ml-study/build.sh [BUILD_DIR]   (default build/release; binaries go to BUILD_DIR/ml-study)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
B=$(cd "${1:-$ROOT/build/release}" && pwd)
L=$B/lib
mkdir -p "$B/ml-study"
libs=()
for l in explore pipeline store ml features bounds refsim analysis trace params phases io common store ml common; do
  libs+=("$L/libconcorde_$l.a")
done
for tool in heldout_programs member_errors feature_outliers clipped_features label_rows; do
  g++ -std=c++20 -O2 -I "$ROOT/core" -I /usr/include/eigen3 -I "$B/core" "$ROOT/tools/ml-study/$tool.cpp" \
    -o "$B/ml-study/$tool" "${libs[@]}" -lsqlite3 -lzstd -llzma -lz -ltbb -lpthread
done
echo "built $B/ml-study/{heldout_programs,member_errors,feature_outliers,clipped_features,label_rows}"
