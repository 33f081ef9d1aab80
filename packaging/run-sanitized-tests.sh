#!/usr/bin/env bash
# Installs dependencies, builds the sanitized `debug` preset (ASan+UBSan, -O1, no benchmarks)
# and runs the test suite under it with CTest; the preset leaves out the `package` label, which
# the release run covers. Arguments go to ctest (e.g. -L core, -R store).
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
cmake --preset debug
cmake --build --preset debug -j "$(nproc)"
ctest --preset debug "$@"
